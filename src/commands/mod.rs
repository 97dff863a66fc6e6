//! Housekeeping commands, one file each: reached only as `agentbox <command>`
//! (no link in `.agent/tools/`). Each exposes a `COMMAND` for the registry,
//! built like a tool: a derived clap command and its `run`.

pub mod completions;
pub mod doctor;
pub mod init;
pub mod link;
pub mod man;
pub mod model;
pub mod reindex;
pub mod search;
