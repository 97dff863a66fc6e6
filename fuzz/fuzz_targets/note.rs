#![no_main]
//! Fuzz target `note`: see agentbox::fuzzing::note and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::note(data);
});
