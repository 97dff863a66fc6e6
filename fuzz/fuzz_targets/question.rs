#![no_main]
//! Fuzz target `question`: see agentbox::fuzzing::question and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::question(data);
});
