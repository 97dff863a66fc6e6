#![no_main]
//! Fuzz target `messages`: see agentbox::fuzzing::messages and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::messages(data);
});
