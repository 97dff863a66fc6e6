#![no_main]
//! Fuzz target `import`: see agentbox::fuzzing::import and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::import(data);
});
