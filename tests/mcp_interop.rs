//! Runs tests/mcp_interop.py: the official Python MCP SDK client against the
//! real `memory_mcp` binary. Without the `mcp` package the test is skipped
//! locally and fails under CI (which installs it, see .ci/run).

mod common;

use common::Sandbox;
use std::process::Command;

fn sdk_available() -> bool {
    Command::new("python3")
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn the_python_sdk_client_drives_the_server() {
    if !sdk_available() {
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
        assert!(
            !ci,
            "the Python MCP SDK is required under CI: python3 -m pip install mcp"
        );
        eprintln!("SKIPPED: the Python MCP SDK is not importable (python3 -m pip install mcp)");
        return;
    }
    let sb = Sandbox::new();
    let script = format!("{}/tests/mcp_interop.py", env!("CARGO_MANIFEST_DIR"));
    let out = sb
        .std_command("python3")
        .arg(&script)
        .arg(common::bin())
        .arg(sb.home())
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "mcp_interop.py failed ({:?})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status.code()
    );
    assert!(stdout.contains("mcp_interop: ok"), "{stdout}");
}
