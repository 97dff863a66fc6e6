//! Shared harness for integration tests: a temp project with an initialized
//! home, a fixed clock and a clean environment, driving the real binary.
#![allow(dead_code)]

pub mod browser;
pub mod docs;
pub mod http;
pub mod sync;
pub mod view;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The fixed clock every test runs with.
pub const NOW: &str = "2026-01-15T09:30:00Z";

/// The home id every test home gets (`local/home-id`), so that the episode
/// ids tests mint are known: `ep-<stamp>-k3f9q2-<n>`.
pub const HOME_ID: &str = "k3f9q2";

/// Path of the built agentbox binary.
pub fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("agentbox")
}

/// A temp project folder; `home()` is its `.agent`.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    /// An empty project folder (no home yet).
    pub fn empty() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// A project folder with `agentbox init` already run and the home id
    /// fixed to [`HOME_ID`].
    pub fn new() -> Sandbox {
        let sb = Sandbox::empty();
        sb.agentbox(&["init"]).assert().success();
        sb.fix_home_id();
        sb
    }

    /// Writes [`HOME_ID`] as the home's id (a home mints a random one the
    /// first time it needs one), so the episode ids it mints are known.
    pub fn fix_home_id(&self) {
        let local = self.home().join("local");
        std::fs::create_dir_all(&local).expect("create local/");
        std::fs::write(local.join("home-id"), format!("{HOME_ID}\n")).expect("write home-id");
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join(".agent")
    }

    /// A command with a clean environment (no AGENTBOX_*, CI=true, fixed clock),
    /// run from the project folder.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        Command::from_std(self.std_command(program))
    }

    /// The same clean environment as a `std::process::Command`, for tests that
    /// need to hold pipes open or signal the child.
    pub fn std_command(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.current_dir(self.path())
            .env_remove("AGENTBOX_HOME")
            .env_remove("AGENTBOX_FORMAT")
            .env_remove("NO_COLOR")
            .env_remove("AGENTBOX_DEBUG_PANIC")
            .env_remove("AGENTBOX_DEBUG_PANIC_WITH_HOME")
            .env_remove("AGENTBOX_DEBUG_PANIC_IN_TOOL")
            .env_remove("AGENTBOX_SEED")
            .env_remove("AGENTBOX_MCP_TOKEN")
            .env_remove("AGENTBOX_MCP_HTTP_TIMEOUT_MS")
            .env("CI", "true")
            .env("AGENTBOX_NOW", NOW);
        cmd
    }

    /// `agentbox ARGS…`
    pub fn agentbox(&self, args: &[&str]) -> Command {
        let mut cmd = self.command(bin());
        cmd.args(args);
        cmd
    }

    /// `.agent/tools/plan ARGS…` through the link.
    pub fn plan(&self, args: &[&str]) -> Command {
        let mut cmd = self.command(self.home().join("tools").join("plan"));
        cmd.args(args);
        cmd
    }
}

/// Runs a command and parses its single stdout line as an envelope.
pub fn envelope(cmd: &mut Command) -> (Value, i32) {
    let out = cmd.output().expect("run");
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    assert_eq!(
        stdout.matches('\n').count(),
        1,
        "expected exactly one line on stdout, got {stdout:?} (stderr {:?})",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_str(stdout.trim_end()).expect("stdout is JSON");
    (value, out.status.code().unwrap_or(-1))
}

/// Runs a command that must succeed; returns `data`.
pub fn ok_data(cmd: &mut Command) -> Value {
    let (env, code) = envelope(cmd);
    assert_eq!(env["ok"], true, "not ok: {env}");
    assert_eq!(code, 0, "exit code for {env}");
    env["data"].clone()
}

/// Runs a command that must fail with `kind`; returns the error object.
pub fn err_of(cmd: &mut Command, kind: &str, code: i32) -> Value {
    let (env, status) = envelope(cmd);
    assert_eq!(env["ok"], false, "expected failure: {env}");
    assert_eq!(env["error"]["type"], kind, "wrong type: {env}");
    assert_eq!(status, code, "wrong exit code for {env}");
    env["error"].clone()
}

/// The home's search index database.
pub fn index_db(sb: &Sandbox) -> PathBuf {
    sb.home().join("index").join("search.db")
}

/// Ids of `agentbox search QUERY` hits.
pub fn search_ids(sb: &Sandbox, query: &str) -> Vec<String> {
    ok_data(&mut sb.agentbox(&["search", query]))["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["id"].as_str().expect("an id").to_string())
        .collect()
}

/// A `memory_mcp` server of the sandbox's home, kept running: the child,
/// its stdin, and its stdout read line by line (stderr is dropped).
pub fn live_server(
    sb: &Sandbox,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::io::BufReader<std::process::ChildStdout>,
) {
    let mut server = sb
        .std_command(bin())
        .arg("memory_mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start memory_mcp");
    let stdin = server.stdin.take().expect("its stdin");
    let stdout = std::io::BufReader::new(server.stdout.take().expect("its stdout"));
    (server, stdin, stdout)
}

/// Names in `dir` that look like temp files of the store's atomic replace.
pub fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect()
}

/// `git ARGS…` in `dir` with a fixed identity and branch name; fails the
/// test when git does.
pub fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Polls `ready` every 5 ms until it holds, and fails the test, naming
/// `what`, when it has not within `timeout`: a readiness signal, where a
/// sleep would let a test pass without the state it means to test.
#[track_caller]
pub fn wait_for(what: &str, timeout: std::time::Duration, mut ready: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + timeout;
    while !ready() {
        assert!(
            std::time::Instant::now() < deadline,
            "waited {timeout:?} for {what}: it never happened"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Linux system call numbers that the readiness checks look for.
#[cfg(target_arch = "x86_64")]
mod syscalls {
    pub const READ: u64 = 0;
    pub const SLEEPS: [u64; 2] = [35, 230]; // nanosleep, clock_nanosleep
}
#[cfg(target_arch = "aarch64")]
mod syscalls {
    pub const READ: u64 = 63;
    pub const SLEEPS: [u64; 2] = [101, 115]; // nanosleep, clock_nanosleep
}

/// The system call process `pid`'s main thread is blocked in, with its
/// first argument (`/proc/PID/syscall`); `None` while it runs or is gone.
pub fn blocked_in(pid: u32) -> Option<(u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/syscall")).ok()?;
    let mut fields = text.split_whitespace();
    let number = fields.next()?.parse().ok()?;
    let arg = fields.next()?.strip_prefix("0x")?;
    Some((number, u64::from_str_radix(arg, 16).ok()?))
}

/// Whether process `pid` is blocked reading its standard input: it has
/// set itself up (signal handlers included) and waits for us.
pub fn reading_stdin(pid: u32) -> bool {
    blocked_in(pid) == Some((syscalls::READ, 0))
}

/// Whether process `pid` is asleep (`nanosleep` / `clock_nanosleep`).
pub fn sleeping(pid: u32) -> bool {
    blocked_in(pid).is_some_and(|(n, _)| syscalls::SLEEPS.contains(&n))
}

/// Whether process `pid` is queued for the `flock` of the file at `path`
/// (a blocked waiter, `->`, in `/proc/locks`).
pub fn waits_for_lock(pid: u32, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(inode) = std::fs::metadata(path).map(|m| m.ino()) else {
        return false;
    };
    let locks = std::fs::read_to_string("/proc/locks").expect("read /proc/locks");
    locks.lines().any(|line| {
        // `3: -> FLOCK  ADVISORY  WRITE 1234 fe:00:5678 0 EOF`
        let fields: Vec<&str> = line.split_whitespace().collect();
        fields.get(1) == Some(&"->")
            && fields.get(2) == Some(&"FLOCK")
            && fields.get(5) == Some(&pid.to_string().as_str())
            && fields
                .get(6)
                .and_then(|id| id.rsplit(':').next())
                .is_some_and(|ino| ino == inode.to_string())
    })
}

/// Runs `cmd` under a pseudo-terminal (util-linux `script`) and returns what
/// it printed (stdout and stderr, as the terminal shows them), with the
/// fixed clock and none of the variables that would choose the format.
pub fn on_tty(sb: &Sandbox, cmd: &str, envs: &[(&str, &str)]) -> String {
    let mut script = std::process::Command::new("script");
    script
        .args(["-qec", cmd, "/dev/null"])
        .current_dir(sb.path())
        .env_remove("CI")
        .env_remove("NO_COLOR")
        .env_remove("AGENTBOX_FORMAT")
        .env("TERM", "xterm")
        .env("AGENTBOX_NOW", NOW);
    for (k, v) in envs {
        script.env(k, v);
    }
    let out = script.output().unwrap_or_else(|e| {
        panic!("util-linux `script` is needed for the terminal tests ({e}); .ci/run installs it")
    });
    String::from_utf8_lossy(&out.stdout).into_owned()
}
