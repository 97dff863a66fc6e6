#![no_main]
//! Fuzz target `plan`: see agentbox::fuzzing::plan and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::plan(data);
});
