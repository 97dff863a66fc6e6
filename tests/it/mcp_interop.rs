//! Runs the official MCP SDK clients against the real `memory_mcp` binary:
//! tests/mcp_interop.py (the Python SDK, both protocol eras, over stdio and
//! over `--http`) and tests/ts/mcp_interop.mjs (the TypeScript SDK 1.x over
//! `--http`). They need the SDKs, so they are ignored by a plain
//! `cargo test`; `cargo test -- --include-ignored` (what .ci/run runs) runs
//! them, and then a missing SDK (or node) is a failure, never a skip.
//!
//! The SDK lives in a virtual environment, not in the system's python3
//! (Debian's refuses a system-wide `pip install`: PEP 668). The interpreter
//! is `AGENTBOX_TEST_PYTHON` when set, else the venv tools/test-setup.sh makes in the
//! repository's own `target/mcp-venv` (a fixed place: CARGO_TARGET_DIR may
//! point anywhere, and the venv is not a build product).

use crate::common;

use common::Sandbox;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// The variable naming a python that has the SDK.
const PYTHON_VAR: &str = "AGENTBOX_TEST_PYTHON";

/// The venv tools/test-setup.sh makes, relative to the repository.
const VENV: &str = "target/mcp-venv";

/// How to get the SDK where the test looks, for the failure message.
fn how_to_install() -> String {
    format!(
        "create the venv from the repository's folder: `/usr/bin/python3 -m venv {VENV} && \
         {VENV}/bin/python -m pip install -r tests/mcp-requirements.txt` (Debian: `apt install \
         python3-venv` first; `tools/test-setup.sh` does all of it), or set {PYTHON_VAR} to a python \
         that has the `mcp` package"
    )
}

/// The python to run the script with: `AGENTBOX_TEST_PYTHON`, else the
/// venv's; an error saying what is missing and how to install it.
fn sdk_python() -> Result<PathBuf, String> {
    let (python, source) = match std::env::var_os(PYTHON_VAR).filter(|v| !v.is_empty()) {
        Some(python) => (PathBuf::from(python), PYTHON_VAR.to_string()),
        None => {
            let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join(VENV);
            let python = venv.join("bin").join("python");
            if !python.exists() {
                return Err(format!(
                    "the Python MCP SDK's venv {} does not exist: {}",
                    venv.display(),
                    how_to_install()
                ));
            }
            (python, format!("the venv {}", venv.display()))
        }
    };
    let out = Command::new(&python)
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .map_err(|e| format!("cannot run {} ({source}): {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} ({source}) cannot import the Python MCP SDK ({}): {}",
            python.display(),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or_default(),
            how_to_install()
        ));
    }
    Ok(python)
}

#[test]
#[ignore = "needs the Python MCP SDK in target/mcp-venv (or AGENTBOX_TEST_PYTHON); tools/test-setup.sh makes it"]
fn the_python_sdk_client_drives_the_server() {
    let python = sdk_python().unwrap_or_else(|why| panic!("{why}"));
    // Each era on a home of its own: both save the same turns and facts.
    for era in ["legacy", "modern"] {
        let sb = Sandbox::new();
        let script = format!("{}/tests/mcp_interop.py", env!("CARGO_MANIFEST_DIR"));
        let out = sb
            .std_command(&python)
            .arg(&script)
            .arg(common::bin())
            .arg(sb.home())
            .arg(era)
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "mcp_interop.py {era} failed under {} ({:?})\nstdout:\n{stdout}\nstderr:\n{stderr}",
            python.display(),
            out.status.code()
        );
        assert!(
            stdout.contains(&format!("mcp_interop: ok ({era}, stdio)")),
            "{stdout}"
        );
    }
}

/// The bearer token the token runs give the server and the clients.
const TOKEN: &str = "interop-0123456789abcdef0123456789abcdef";

/// A `memory_mcp --http 127.0.0.1:0` serving a sandbox's home, killed (and
/// reaped) when dropped, so a failing test leaks no server.
struct HttpServer {
    child: Child,
    url: String,
    stderr: Arc<Mutex<String>>,
}

impl HttpServer {
    /// Starts the server, with `AGENTBOX_MCP_TOKEN` set to `token` or unset,
    /// and waits for the line naming its URL.
    fn start(sb: &Sandbox, token: Option<&str>) -> HttpServer {
        let mut cmd = sb.std_command(common::bin());
        cmd.args(["memory_mcp", "--http", "127.0.0.1:0"])
            .env_remove("AGENTBOX_MCP_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(token) = token {
            cmd.env("AGENTBOX_MCP_TOKEN", token);
        }
        let mut child = cmd.spawn().expect("start memory_mcp --http");
        let pipe = child.stderr.take().expect("its stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut server = HttpServer {
            child,
            url: String::new(),
            stderr: Arc::clone(&stderr),
        };
        // The reader keeps draining stderr after the URL line, so the
        // server never blocks on a full pipe.
        let (found, url) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                // `memory_mcp: serving URL (what the token setting means)`
                let url = line.strip_prefix("memory_mcp: serving ");
                if let Some(url) = url.and_then(|rest| rest.split_whitespace().next()) {
                    let _ = found.send(url.to_string());
                }
                let mut all = stderr.lock().unwrap();
                all.push_str(&line);
                all.push('\n');
            }
        });
        match url.recv_timeout(Duration::from_secs(30)) {
            Ok(url) => server.url = url,
            Err(why) => panic!(
                "memory_mcp --http never said where it serves ({why}); stderr:\n{}",
                server.stderr()
            ),
        }
        assert!(
            server.url.starts_with("http://127.0.0.1:") && server.url.ends_with("/mcp"),
            "{}",
            server.url
        );
        server
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Fails the test if the server has exited: every client run must
    /// leave it serving.
    #[track_caller]
    fn assert_running(&mut self) {
        let status = self.child.try_wait().expect("poll the server");
        assert!(
            status.is_none(),
            "memory_mcp --http exited ({status:?}); stderr:\n{}",
            self.stderr()
        );
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks a client run's outcome: exit 0 and its `ok` line on stdout.
#[track_caller]
fn assert_client_ok(what: &str, out: &Output, ok_line: &str, server: &mut HttpServer) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(ok_line),
        "{what} failed ({:?})\nstdout:\n{stdout}\nstderr:\n{stderr}\nserver stderr:\n{}",
        out.status.code(),
        server.stderr()
    );
    server.assert_running();
}

#[test]
#[ignore = "needs the Python MCP SDK in target/mcp-venv (or AGENTBOX_TEST_PYTHON); tools/test-setup.sh makes it"]
fn the_python_sdk_client_drives_the_http_server_in_both_eras_with_and_without_a_token() {
    let python = sdk_python().unwrap_or_else(|why| panic!("{why}"));
    let script = format!("{}/tests/mcp_interop.py", env!("CARGO_MANIFEST_DIR"));
    for token in [None, Some(TOKEN)] {
        for era in ["legacy", "modern"] {
            let sb = Sandbox::new();
            let mut server = HttpServer::start(&sb, token);
            let mut client = sb.std_command(&python);
            client
                .arg(&script)
                .args(["--http", &server.url, era])
                .env_remove("AGENTBOX_MCP_TOKEN");
            if let Some(token) = token {
                client.env("AGENTBOX_MCP_TOKEN", token);
            }
            let out = client
                .output()
                .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
            let what = format!("mcp_interop.py --http {era} (token: {})", token.is_some());
            assert_client_ok(
                &what,
                &out,
                &format!("mcp_interop: ok ({era}, http)"),
                &mut server,
            );
        }
    }
}

/// The variable naming the node to run the TypeScript client with.
const NODE_VAR: &str = "AGENTBOX_TEST_NODE";

/// The node to run tests/ts/mcp_interop.mjs with (`AGENTBOX_TEST_NODE`, else
/// `node` on PATH), once tests/ts has the SDK; an error saying what is
/// missing and how to install it.
fn sdk_node() -> Result<PathBuf, String> {
    let node = std::env::var_os(NODE_VAR)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("node"), PathBuf::from);
    let out = Command::new(&node).arg("--version").output().map_err(|e| {
        format!(
            "cannot run {} ({e}): install Node.js 18 or later (Debian: `apt install nodejs npm`; \
             `tools/test-setup.sh` does it) or set {NODE_VAR}",
            node.display()
        )
    })?;
    if !out.status.success() {
        return Err(format!("{} --version failed: {out:?}", node.display()));
    }
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/ts/node_modules/@modelcontextprotocol/sdk/package.json");
    if !sdk.exists() {
        return Err(format!(
            "the TypeScript MCP SDK is not installed ({} is missing): run `npm ci` in tests/ts \
             (`tools/test-setup.sh` does it)",
            sdk.display()
        ));
    }
    Ok(node)
}

#[test]
#[ignore = "needs node and the TypeScript MCP SDK in tests/ts/node_modules; tools/test-setup.sh installs both"]
fn the_typescript_sdk_client_drives_the_http_server_with_and_without_a_token() {
    let node = sdk_node().unwrap_or_else(|why| panic!("{why}"));
    let script = format!("{}/tests/ts/mcp_interop.mjs", env!("CARGO_MANIFEST_DIR"));
    for token in [None, Some(TOKEN)] {
        let sb = Sandbox::new();
        let mut server = HttpServer::start(&sb, token);
        let mut client = sb.std_command(&node);
        client
            .arg(&script)
            .arg(&server.url)
            .env_remove("AGENTBOX_MCP_TOKEN");
        if let Some(token) = token {
            client.env("AGENTBOX_MCP_TOKEN", token);
        }
        let out = client
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", node.display()));
        let what = format!("mcp_interop.mjs (token: {})", token.is_some());
        assert_client_ok(
            &what,
            &out,
            "mcp_interop.mjs: ok (2025-11-25, http)",
            &mut server,
        );
    }
}

#[test]
#[ignore = "needs the MCP conformance runner and Node 22 from npm in target/conformance; tools/test-setup.sh installs them"]
fn the_official_conformance_runner_finds_only_the_expected_failures() {
    // The runner's node comes from npm, not from the machine; the script
    // installs it (and fails saying how) when it is missing.
    let sb = Sandbox::new();
    let mut server = HttpServer::start(&sb, None);
    let script = format!("{}/tools/conformance.sh", env!("CARGO_MANIFEST_DIR"));
    let out = sb
        .std_command(&script)
        .args(["--url", &server.url])
        .output()
        .unwrap_or_else(|e| panic!("run {script}: {e}"));
    assert_client_ok(
        "tools/conformance.sh (held to tests/conformance/expected-*.yml)",
        &out,
        "results: ",
        &mut server,
    );
    // Each of its three runs ends on the runner's baseline verdict.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout
            .matches("Baseline check passed: all failures are expected.")
            .count(),
        3,
        "{stdout}"
    );
}
