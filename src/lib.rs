//! agentbox: host-agent tools behind one contract (see docs/CONTRACTS.md).

// `Error` carries a message, a hint and structured detail (~140 bytes). It is
// built once per failed call, so boxing it would buy nothing but noise.
#![allow(clippy::result_large_err)]

pub mod cleanup;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod error;
pub mod front;
#[doc(hidden)]
pub mod fuzzing;
pub mod git;
pub mod home;
pub(crate) mod http;
pub mod ids;
pub mod mcp;
pub mod oda;
pub mod output;
pub mod platform;
pub mod prose;
pub mod redact;
pub mod registry;
pub mod screen;
pub mod search;
pub mod slug;
pub mod store;
pub mod suggest;
pub mod tools;
pub mod view;
