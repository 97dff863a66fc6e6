//! `memory_mcp` on the official Rust MCP SDK, `rmcp` (issue #33, item 3):
//! a prototype to measure against agentbox's own protocol layer, not to ship.
//!
//! The binary is agentbox for every call (`agentbox::cli::run`, started as
//! src/main.rs starts it) except a plain `memory_mcp` call — argv[0]'s file
//! stem, or the first argument, with at most `--home DIR` and `-v` after
//! it — which serves MCP over stdio with rmcp doing the protocol (framing,
//! the handshake or `server/discover`, dispatch, tool and resource
//! listings) and agentbox's library doing the work: the same tool table,
//! tool functions, redaction and bounds as `agentbox::mcp::Server`, and the
//! same single writer with group commit (module `writer`).

#![cfg_attr(all(agentbox_no_main, not(test)), no_main)]
// As agentbox's lib.rs: `Error` is built once per failed call.
#![allow(clippy::result_large_err)]

mod handler;
mod writer;

use agentbox::clock::Clock;
use agentbox::home::{Home, HomeLookup};
use agentbox::mcp::Limits;
use agentbox::output::Frames;
use std::ffi::OsString;
use std::path::PathBuf;

#[cfg(all(agentbox_no_main, not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // As src/main.rs: exit, not return, so std's stdout is flushed.
    std::process::exit(agentbox::platform::c_main(run))
}

#[cfg(not(all(agentbox_no_main, not(test))))]
fn main() {
    std::process::exit(run())
}

/// argv → exit code: the rmcp server for a plain `memory_mcp` call,
/// agentbox's own `cli::run` for everything else.
fn run() -> i32 {
    match McpCall::scan() {
        Some(call) => serve(call),
        None => agentbox::cli::run(),
    }
}

/// A `memory_mcp` call this prototype serves itself.
struct McpCall {
    argv0: OsString,
    home: Option<PathBuf>,
    verbose: u8,
    /// `--http ADDR` (only with `--features http`).
    http: Option<String>,
}

impl McpCall {
    /// `memory_mcp [--home DIR] [-v…]` (through a link named memory_mcp) or
    /// `agentbox memory_mcp [--home DIR] [-v…]`. Anything else (`--help`,
    /// global flags before the tool name, an unknown flag) is left to
    /// agentbox's own command line, and so to agentbox's own server.
    fn scan() -> Option<McpCall> {
        let mut args = std::env::args_os();
        let argv0 = args.next()?;
        let stem = std::path::Path::new(&argv0).file_stem();
        if stem != Some("memory_mcp".as_ref()) && args.next()? != "memory_mcp" {
            return None;
        }
        let mut call = McpCall {
            argv0,
            home: None,
            verbose: 0,
            http: None,
        };
        while let Some(arg) = args.next() {
            let text = arg.to_str()?;
            if text == "--home" {
                call.home = Some(PathBuf::from(args.next()?));
            } else if let Some(dir) = text.strip_prefix("--home=") {
                call.home = Some(PathBuf::from(dir));
            } else if cfg!(feature = "http") && text == "--http" {
                call.http = Some(args.next()?.into_string().ok()?);
            } else if text == "--verbose" {
                call.verbose += 1;
            } else if text.len() > 1
                && text.starts_with('-')
                && text[1..].bytes().all(|b| b == b'v')
            {
                call.verbose += (text.len() - 1) as u8;
            } else {
                return None;
            }
        }
        Some(call)
    }
}

/// Serves stdin/stdout until stdin closes, as `agentbox::mcp::serve_stdio`
/// does: a boot failure is a line on stderr and exit 1.
fn serve(call: McpCall) -> i32 {
    agentbox::registry::REGISTRY.install();
    let booted = (|| {
        let clock = Clock::from_env()?;
        let lookup = HomeLookup {
            flag: call.home.clone(),
            env: std::env::var_os("AGENTBOX_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            invoked: Some(PathBuf::from(&call.argv0)).filter(|p| p.components().count() > 1),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        };
        let home = Home::open(lookup.resolve()?)?;
        let limits = Limits::from_home(&home)?;
        Ok::<_, agentbox::error::Error>((clock, home, limits))
    })();
    let (clock, home, limits) = match booted {
        Ok(booted) => booted,
        Err(error) => {
            eprintln!("memory_mcp: {}", error.message);
            if !error.hint.is_empty() {
                eprintln!("hint: {}", error.hint);
            }
            return 1;
        }
    };
    agentbox::search::long_lived();
    let frames = Frames::claim(home.store.redactor());
    let (jobs, queue) = std::sync::mpsc::channel();
    let stop = jobs.clone();
    std::thread::scope(|scope| {
        // The one writer: every request that touches the home runs here.
        let writer = std::thread::Builder::new()
            .name("mcp-writer".into())
            .spawn_scoped(scope, || {
                writer::Writer::new(&home, clock, limits, &frames, call.verbose).run(queue)
            })
            .expect("spawn the writer thread");
        let served = match call.http.as_deref() {
            #[cfg(feature = "http")]
            Some(addr) => handler::serve_http(jobs, addr),
            _ => handler::serve_stdio(jobs, limits),
        };
        if let Err(message) = served {
            eprintln!("memory_mcp: {message}");
        }
        let _ = stop.send(writer::Job::Stop);
        let _ = writer.join();
    });
    0
}
