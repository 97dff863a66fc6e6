#![no_main]
//! Fuzz target `episode`: see agentbox::fuzzing::episode and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One scratch directory per process, under $TMPDIR (tools/fuzz.sh points
/// that at a directory it removes afterwards).
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("agentbox-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the scratch directory");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::episode(data, scratch());
});
