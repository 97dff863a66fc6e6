#![no_main]
//! Fuzz target `mcp`: see agentbox::fuzzing::mcp and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agentbox::fuzzing::mcp(data);
});
