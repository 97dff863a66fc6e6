//! agentbox: host-agent tools behind one contract (see docs/CONTRACTS.md).

pub mod cli;
pub mod clock;
pub mod config;
pub mod error;
pub mod home;
pub mod housekeeping;
pub mod output;
#[path = "/tmp/redact_shim.rs"]
pub mod redact;
pub mod registry;
pub mod store;
pub mod tools;
