#![no_main]
//! Fuzz target `profile`: see agentbox::fuzzing::profile and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::profile(data);
});
