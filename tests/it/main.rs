//! The integration tests, one crate: each file of this folder is a module,
//! so the suite links SQLite and libgit2 into one test binary instead of
//! one per file (issue #31). Run one file's tests with
//! `cargo test --test it <file>::`, e.g. `cargo test --test it surface::`.

mod common;

mod architecture;
mod completions;
mod concurrency;
mod contract;
mod crash;
mod docs_examples;
mod evolve;
mod evolve_mining;
mod evolve_qa;
mod evolve_run;
mod foresight_qa;
mod fuzz_regressions;
mod ids;
mod index_consistency;
mod index_health;
mod index_schema;
mod index_sessions;
mod init_nested;
mod json_output;
mod knowledge;
mod linking;
mod mcp;
mod mcp_crash;
mod mcp_eras;
mod mcp_group;
mod mcp_interop;
mod mcp_listen;
mod memory_concurrency;
mod model;
mod parsers;
mod persona;
mod plan;
mod proactive;
mod proactive_extract;
mod proactive_when;
mod profile;
mod progress;
mod recall;
mod redact;
mod search;
mod search_filters;
mod skill_forge;
mod skill_hostile;
mod skill_screen;
mod suggest;
mod surface;
mod sync;
mod sync_hold_names;
mod sync_hostile;
mod sync_hosts;
mod sync_hosts_url;
mod sync_https;
mod sync_layout;
mod sync_merge;
mod sync_pull_clash;
mod sync_push;
mod text_output;
mod track;
mod track_ids;
mod track_rollover;
mod track_stamps;
