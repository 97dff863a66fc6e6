//! Helpers the search module's unit tests share.

use crate::clock::Clock;
use crate::home::Home;
use crate::tools::track::{self, MessageIn, SaveTurns};

/// A fresh home in a temp folder (kept alive by the returned guard).
pub(super) fn home() -> (tempfile::TempDir, Home) {
    crate::registry::install();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".agent");
    std::fs::create_dir_all(&root).unwrap();
    let home = Home::open(root).unwrap();
    (dir, home)
}

/// Saves one user turn as `mem_save_turn` does (its own index commit).
pub(super) fn save(home: &Home, session: &str, text: &str) {
    let clock = Clock::fixed("2026-12-01T10:00:00Z".parse().unwrap());
    let input = SaveTurns {
        session: session.to_string(),
        messages: vec![MessageIn {
            role: "user".to_string(),
            content: text.to_string(),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }],
        flush: false,
        source: "mcp",
    };
    assert_eq!(track::save_turns(home, &clock, &input).unwrap().saved, 1);
}
