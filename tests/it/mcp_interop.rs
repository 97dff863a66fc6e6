//! Runs tests/mcp_interop.py: the official Python MCP SDK client against the
//! real `memory_mcp` binary. It needs the `mcp` package, so it is ignored by a
//! plain `cargo test`; `cargo test -- --include-ignored` (what .ci/run runs)
//! runs it, and then a missing SDK is a failure, never a skip.
//!
//! The SDK lives in a virtual environment, not in the system's python3
//! (Debian's refuses a system-wide `pip install`: PEP 668). The interpreter
//! is `AGENTBOX_TEST_PYTHON` when set, else the venv tools/test-setup.sh makes in the
//! repository's own `target/mcp-venv` (a fixed place: CARGO_TARGET_DIR may
//! point anywhere, and the venv is not a build product).

use crate::common;

use common::Sandbox;
use std::path::{Path, PathBuf};
use std::process::Command;

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
            stdout.contains(&format!("mcp_interop: ok ({era})")),
            "{stdout}"
        );
    }
}
