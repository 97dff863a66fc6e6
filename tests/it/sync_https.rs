//! `sync` and `skill_forge install` over https against git itself: `git
//! http-backend` behind a Python TLS server on loopback
//! (tests/fixtures/git_https.py), with a certificate made by the `openssl`
//! command for this run. libgit2 loads the system's OpenSSL only when the
//! first TLS connection is made (src/git.rs); these tests are what shows
//! that the https transport is compiled in and that the handshake, the
//! login and a push and a pull through it work.

use crate::common;

use common::Sandbox;
use common::sync::{ab, fails, note, ok, spawn_server};
use std::path::{Path, PathBuf};

const LOGIN: &str = "agent:s3cret-pass";

/// The server, its bare repository `memory.git` and the certificate to trust.
struct GitHttps {
    child: std::process::Child,
    dir: tempfile::TempDir,
    port: u16,
}

impl GitHttps {
    fn start() -> GitHttps {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("srv");
        std::fs::create_dir(&root).unwrap();
        let made = std::process::Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            ])
            .args([
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
            ])
            .arg("-keyout")
            .arg(dir.path().join("key.pem"))
            .arg("-out")
            .arg(dir.path().join("cert.pem"))
            .stderr(std::process::Stdio::null())
            .status()
            .expect("the openssl command (.ci/run installs it)");
        assert!(made.success(), "openssl req failed");
        let init = std::process::Command::new("git")
            .args(["init", "--quiet", "--bare", "--initial-branch=main"])
            .arg(root.join("memory.git"))
            .status()
            .expect("git (.ci/run installs it)");
        assert!(init.success());
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/git_https.py");
        let (child, port) = spawn_server(
            std::process::Command::new("python3")
                .arg(fixture)
                .arg("--root")
                .arg(&root)
                .arg("--cert")
                .arg(dir.path().join("cert.pem"))
                .arg("--key")
                .arg(dir.path().join("key.pem"))
                .args(["--auth", LOGIN]),
        );
        GitHttps { child, dir, port }
    }

    fn url(&self) -> String {
        format!("https://127.0.0.1:{}/memory.git", self.port)
    }

    fn cert(&self) -> PathBuf {
        self.dir.path().join("cert.pem")
    }

    fn requests(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("srv/requests.log")).unwrap_or_default()
    }

    /// The served repository's `main`, as git itself reads it.
    fn main(&self) -> String {
        let out = std::process::Command::new("git")
            .arg("--git-dir")
            .arg(self.dir.path().join("srv/memory.git"))
            .args(["rev-parse", "main"])
            .output()
            .expect("git rev-parse");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }
}

impl Drop for GitHttps {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `GIT_ASKPASS` program answering with `user:pass`.
fn askpass(sb: &Sandbox, login: &str) -> PathBuf {
    let (user, pass) = login.split_once(':').unwrap();
    let path = sb.path().join("askpass.sh");
    std::fs::write(
        &path,
        format!("#!/bin/sh\ncase \"$1\" in Username*) echo {user};; *) echo {pass};; esac\n"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `agentbox ARGS… --format json` trusting the test certificate, logging in
/// with `login`: the envelope and the exit code.
fn call(server: &GitHttps, sb: &Sandbox, login: &str, args: &[&str]) -> (serde_json::Value, i32) {
    let mut full = args.to_vec();
    full.extend(["--format", "json"]);
    let mut cmd = ab(sb, &full);
    cmd.env("SSL_CERT_FILE", server.cert())
        .env("GIT_ASKPASS", askpass(sb, login));
    common::envelope(&mut cmd)
}

#[test]
fn two_homes_sync_through_git_over_https() {
    let server = GitHttps::start();
    let url = server.url();
    let a = Sandbox::new();
    let (env, code) = call(&server, &a, LOGIN, &["sync", "init", "--remote", &url]);
    assert_eq!(code, 0, "{env}");
    let slug = note(
        &a,
        "Deploys",
        "Deploys go through the staging cluster first.",
    );
    let (env, code) = call(&server, &a, LOGIN, &["sync", "now"]);
    assert_eq!(code, 0, "{env}");
    assert!(
        env["data"]["push"]["pushed"].as_u64().unwrap() >= 1,
        "{env}"
    );
    assert_eq!(
        Some(server.main().as_str()),
        env["data"]["push"]["commit"].as_str(),
        "git itself sees the pushed commit"
    );
    let requests = server.requests();
    assert!(
        requests.contains("POST /memory.git/git-receive-pack 200"),
        "{requests}"
    );
    assert!(
        requests.contains(" 401\n"),
        "the server asked for the login: {requests}"
    );

    let b = Sandbox::new();
    let (env, code) = call(&server, &b, LOGIN, &["sync", "init", "--remote", &url]);
    assert_eq!(code, 0, "{env}");
    let pulled = b.home().join(format!("memory/knowledge/{slug}.md"));
    assert!(
        std::fs::read_to_string(&pulled)
            .unwrap()
            .contains("staging cluster"),
        "the note came through"
    );
}

#[test]
fn an_untrusted_certificate_or_a_wrong_login_changes_nothing() {
    let server = GitHttps::start();
    let url = server.url();
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    ok(&sb, &["sync", "remote", "set", &url]);
    note(
        &sb,
        "Deploys",
        "Deploys go through the staging cluster first.",
    );

    // Not trusting the certificate: no request gets through the handshake.
    let err = fails(&sb, &["sync", "now"], "network", 4);
    assert!(
        err["message"].as_str().unwrap().contains("certificate"),
        "{err}"
    );
    assert_eq!(err["detail"]["url"], url);
    assert_eq!(server.requests(), "", "nothing passed the handshake");

    // Trusted, with a wrong password: `auth`, and the remote stays empty.
    let (env, code) = call(&server, &sb, "agent:wrong", &["sync", "now"]);
    assert_eq!(
        (env["error"]["type"].as_str(), code),
        (Some("auth"), 3),
        "{env}"
    );
    assert!(!server.requests().contains("receive-pack 200"));

    // skill_forge clones over the same transport.
    let err = common::err_of(
        ab(&sb, &["skill_forge", "install", &url, "--format", "json"])
            .env("SSL_CERT_FILE", "/dev/null"),
        "network",
        4,
    );
    assert!(
        err["message"].as_str().unwrap().contains("certificate"),
        "{err}"
    );
}
