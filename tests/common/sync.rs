//! The sync tests' shared pieces: a bare `file://` remote and the
//! `agentbox` calls with git's own configuration kept out.

use super::{Sandbox, err_of, ok_data};
use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

/// A bare repository in a temp dir and its `file://` URL.
pub struct Remote {
    pub dir: tempfile::TempDir,
}

impl Remote {
    pub fn new() -> Remote {
        let dir = tempfile::tempdir().expect("tempdir");
        git2::Repository::init_bare(dir.path().join("memory.git")).expect("init bare");
        Remote { dir }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("memory.git")
    }

    pub fn url(&self) -> String {
        format!("file://{}", self.path().display())
    }

    pub fn repo(&self) -> git2::Repository {
        git2::Repository::open_bare(self.path()).expect("open remote")
    }

    pub fn main(&self) -> Option<git2::Oid> {
        self.repo().refname_to_id("refs/heads/main").ok()
    }
}

/// `agentbox ARGS…` with git's own configuration kept out (HOME is the
/// sandbox, no system config): no credential helper or identity leaks in.
pub fn ab(sb: &Sandbox, args: &[&str]) -> Command {
    let mut cmd = sb.agentbox(args);
    cmd.env("HOME", sb.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("GIT_ASKPASS")
        .env_remove("AGENTBOX_SYNC_STALL_AFTER");
    cmd
}

pub fn ok(sb: &Sandbox, args: &[&str]) -> Value {
    let mut full = args.to_vec();
    full.extend(["--format", "json"]);
    ok_data(&mut ab(sb, &full))
}

pub fn fails(sb: &Sandbox, args: &[&str], kind: &str, code: i32) -> Value {
    let mut full = args.to_vec();
    full.extend(["--format", "json"]);
    err_of(&mut ab(sb, &full), kind, code)
}

/// A home with sync set up against `remote`.
pub fn home_on(remote: &Remote) -> Sandbox {
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init", "--remote", &remote.url()]);
    sb
}

/// Adds a note; its slug.
pub fn note(sb: &Sandbox, title: &str, body: &str) -> String {
    let data = ok(sb, &["knowledge", "add", title, "--body", body]);
    data["slug"]
        .as_str()
        .or_else(|| data["note"]["slug"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no slug in {data}"))
}

/// The `sync` line of `agentbox doctor`.
pub fn doctor_sync_check(sb: &Sandbox) -> Value {
    let doctor = ok(sb, &["doctor"]);
    doctor["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "sync")
        .cloned()
        .expect("a sync check")
}

/// `agentbox sync VERB --format json` started in the background, stalling
/// for `stall_secs` after writing `after` files of its pull (the test hook).
pub fn spawn_stalled(
    sb: &Sandbox,
    verb: &str,
    after: u32,
    stall_secs: Option<u32>,
) -> std::process::Child {
    let mut cmd = sb.std_command(super::bin());
    cmd.args(["sync", verb, "--format", "json"])
        .env("HOME", sb.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("AGENTBOX_SYNC_STALL_AFTER", after.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    if let Some(secs) = stall_secs {
        cmd.env("AGENTBOX_SYNC_STALL_SECS", secs.to_string());
    }
    cmd.spawn().expect("spawn agentbox")
}

/// Starts a loopback server that prints its port on its first line of
/// stdout (the Python servers of the sync tests): the child and the port.
pub fn spawn_server(cmd: &mut std::process::Command) -> (std::process::Child, u16) {
    use std::io::BufRead;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().parse().expect("the server's port");
    (child, port)
}
