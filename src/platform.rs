//! Where agentbox steps around std or the C library to start and end a call
//! sooner. Every call of every tool is a fresh process, so start-up and
//! exit are most of a plain call's cost (docs/PERFORMANCE.md, "Start-up:
//! plain calls"): each trick here bought a measured share of it, and each
//! says what it assumes. Nothing outside this module plays such tricks;
//! the rest of the program is plain std.
//!
//! - [`c_main`]: the executable's own C `main` (`#![no_main]` in
//!   src/main.rs), skipping std's runtime start-up.
//! - [`log`]: the natural logarithm defined for SQLite, so that the
//!   executable does not load libm.so.
//! - [`leave_to_exit`]: values the process is about to drop as it exits are
//!   left to the kernel instead.
//! - [`names_where`]: a folder listed with `readdir`, names seen as bytes
//!   and only the kept ones copied.
//!
//! Not here: `cleanup`'s raw `getdents64`, which is there to be
//! async-signal-safe in a signal handler, not to be fast.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The body of the executable's C `main`, which src/main.rs defines in
/// place of std's (`#![no_main]`) on linux-gnu: does the two things of
/// std's runtime start-up that a call needs, runs `run`, and returns its
/// exit code.
///
/// **Why.** std's start-up locates the main thread's stack guard by reading
/// `/proc/self/maps` (`pthread_getattr_np` + `sscanf`) and installs a
/// stack-overflow handler on an alternate stack: 108k instructions and 18
/// system calls of every call. Without them `plan list` in a fresh home
/// went from 737k to 629k instructions and 91 to 73 system calls, and from
/// 1.9× to 1.76× the time of `/bin/true` (docs/PERFORMANCE.md, "What each
/// change bought", step 5). A stack overflow still ends the process, as a
/// plain SIGSEGV without std's message.
///
/// **What it keeps of std's start-up.** Descriptors 0–2 are open (a closed
/// one is opened on `/dev/null`: a call started with one closed would
/// otherwise open its first file there, and print into it), and SIGPIPE is
/// ignored (a closed stdout is an EPIPE error, which the output layer ends
/// quietly on, not a killing signal). A panic that escapes `run`'s own
/// guard may not unwind out of a C function: it ends with 101, as under
/// std's start-up. The caller ends the process with `std::process::exit`,
/// which flushes std's stdout as std's start-up would.
///
/// **What it assumes.** std's `env::args()` still works without std's
/// start-up only because glibc calls each `.init_array` function with
/// `(argc, argv, envp)`, and std registers one there that keeps them. That
/// is a glibc extension, not the ELF ABI: musl, for one, calls them with no
/// arguments, and `args()` would be empty. So src/main.rs defines its own
/// C `main` only where build.rs sets `agentbox_no_main`: on linux with
/// glibc (`target_os = "linux"`, `target_env = "gnu"`), unless the build is
/// made with `AGENTBOX_PLAIN_MAIN=1` in the environment. Everywhere else
/// it is a plain `fn main` under std's full start-up, with the same
/// behaviour.
pub fn c_main(run: fn() -> i32) -> i32 {
    // SAFETY: fcntl and open on the standard descriptors, and signal with
    // SIG_IGN, touch no memory of ours; the path is a NUL-terminated
    // literal.
    unsafe {
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
            {
                libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    std::panic::catch_unwind(run).unwrap_or(101)
}

/// The natural logarithm, for SQLite's own code: FTS5's `bm25()`, which
/// the filtered search ranks with, is the only caller of a libm function
/// in the executable, and the linker binds it to this definition rather
/// than to libm.so's.
///
/// **Why.** With the Rust code taking its `log` and `exp2` from the libm
/// crate too, nothing needs libm.so, which the dynamic loader would
/// otherwise map and relocate at the start of every call of every tool: a
/// C program that calls `log` and `exp2` against one that does not took
/// 0.84 → 0.89 ms and 50 → 65 page faults (`perf stat -r 1000`);
/// `plan list` went 1.41 → 1.30 ms and 198 → 180 page faults, a search at
/// 1M turns 2.884 → 2.682 ms (docs/PERFORMANCE.md, "Ninth session").
/// `tests/it/linking.rs` checks that the executable needs no libm.so.
///
/// **What it assumes.** The libm crate is the Rust port of musl's (ARM's
/// optimized routines, as glibc's): the same results to the last bit or one
/// ulp away. The symbol is among the executable's dynamic ones, so a
/// library loaded later that calls `log` (none of OpenSSL's does) would
/// get this one.
#[unsafe(no_mangle)]
pub extern "C" fn log(x: f64) -> f64 {
    libm::log(x)
}

/// `pow`, for the one caller of it: indicatif's rate estimate (`f64::powf`
/// in its exponentially weighted average), bound here rather than to
/// libm.so's for the reason and on the assumptions of `log` above: without
/// it the progress bars would make every call map libm.so.
#[unsafe(no_mangle)]
pub extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// Leaves `value` to the process's exit: no destructor runs, and the
/// kernel takes back its memory, descriptors, locks and mappings when the
/// process ends. Only for a value dropped just before a one-shot call
/// exits, whose destructor does nothing the exit does not.
///
/// **Why.** Two drops cost a measured share of a call:
/// - the clap command tree a call parsed with (`cli`): dropping it piece by
///   piece took 660k instructions when it was the whole tree, a tenth of a
///   plain call (docs/PERFORMANCE.md, "What each change bought", step 1);
/// - the search index's kept connection when it changed nothing
///   (`search::leave_at_exit`): `sqlite3_close` finalizes every statement,
///   frees the schema and the page cache, unlocks and unmaps, 3–5 % of a
///   search at 1M turns (docs/PERFORMANCE.md, "Ninth session").
#[expect(
    clippy::mem_forget,
    reason = "the point: the exit releases what the destructor would"
)]
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// What a directory entry is, as `readdir` tells it without a `stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// A symlink, a device, a socket, …
    Other,
    /// The file system does not say (`DT_UNKNOWN`): `lstat` it.
    Unknown,
}

/// The names in `dir` (`.` and `..` aside) that `keep` accepts, seen as
/// bytes, with what `readdir` says they are; in no particular order.
///
/// **Why.** `std::fs::read_dir` allocates each entry's name twice (the
/// entry, then `file_name`), which was most of the cost of finding a
/// session's open episode among thousands of closed ones, or the session
/// folders new since the last search. Here the caller sees each name as
/// bytes first, and only the ones it keeps are copied: `track record` in a
/// session of 5,000 episodes went from 5.22M to 3.42M instructions and
/// 2.59–2.73 to 2.25–2.46 ms (`perf stat -r 30`; docs/PERFORMANCE.md,
/// "Tenth session").
///
/// **What it assumes.** POSIX `opendir`/`readdir` and glibc's `d_type`
/// (`DT_UNKNOWN` where the file system does not fill it in, which callers
/// handle with `lstat`: `store::dir::is_file`, `is_dir`).
pub fn names_where(
    dir: &Path,
    mut keep: impl FnMut(&[u8]) -> bool,
) -> io::Result<Vec<(OsString, Kind)>> {
    let path = CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))?;
    // SAFETY: `path` is a valid C string; the stream is closed below on
    // every path out of the loop.
    let stream = unsafe { libc::opendir(path.as_ptr()) };
    if stream.is_null() {
        return Err(io::Error::last_os_error());
    }
    let mut out = Vec::new();
    let outcome = loop {
        // readdir returns NULL both at the end and on an error: only errno
        // tells them apart.
        // SAFETY: `errno` is this thread's.
        unsafe { *libc::__errno_location() = 0 };
        // SAFETY: `stream` is open; the entry it returns stays valid until
        // the next call on it, and is read before that.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            let err = io::Error::last_os_error();
            break if err.raw_os_error() == Some(0) {
                Ok(())
            } else {
                Err(err)
            };
        }
        // SAFETY: `d_name` is a NUL-terminated name inside the entry.
        let (name, kind) = unsafe {
            (
                CStr::from_ptr((*entry).d_name.as_ptr()).to_bytes(),
                (*entry).d_type,
            )
        };
        if name == b"." || name == b".." || !keep(name) {
            continue;
        }
        let kind = match kind {
            libc::DT_REG => Kind::File,
            libc::DT_DIR => Kind::Dir,
            libc::DT_UNKNOWN => Kind::Unknown,
            _ => Kind::Other,
        };
        out.push((OsStr::from_bytes(name).to_os_string(), kind));
    };
    // SAFETY: `stream` came from `opendir` and is closed once.
    unsafe { libc::closedir(stream) };
    outcome.map(|()| out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_is_the_natural_logarithm() {
        assert_eq!(log(1.0), 0.0);
        assert!((log(std::f64::consts::E) - 1.0).abs() < 1e-15);
        assert!(log(0.0).is_infinite() && log(-1.0).is_nan());
    }

    #[test]
    fn a_panic_in_the_call_is_exit_code_101() {
        assert_eq!(c_main(|| 7), 7);
        assert_eq!(c_main(|| panic!("a panic that escaped the call")), 101);
    }
}
