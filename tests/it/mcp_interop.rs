//! Runs tests/mcp_interop.py: the official Python MCP SDK client against the
//! real `memory_mcp` binary. It needs the `mcp` package, so it is ignored by a
//! plain `cargo test`; `cargo test -- --include-ignored` (what .ci/run runs)
//! runs it, and then a missing SDK is a failure, never a skip.

use crate::common;

use common::Sandbox;
use std::process::Command;

fn sdk_available() -> bool {
    Command::new("python3")
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
#[ignore = "needs the Python MCP SDK (pip install mcp); .ci/run runs it"]
fn the_python_sdk_client_drives_the_server() {
    assert!(
        sdk_available(),
        "the Python MCP SDK is not importable by python3: install it with \
         `python3 -m pip install mcp` (.ci/run does)"
    );
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
