//! Inputs the fuzzers (fuzz/, docs/FUZZING.md) once broke a parser with, fed
//! again through the same entry points (`agentbox::fuzzing`), and the
//! committed seed corpora as a smoke run. Each finding also has an end-to-end
//! test through the real binary.

mod common;

use agentbox::fuzzing;
use common::{Sandbox, ok_data};
use std::path::{Path, PathBuf};

fn input(rel: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs one target's entry point (the episode target gets a scratch folder).
fn run(target: &str, data: &[u8], scratch: &Path) -> fuzzing::Verdict {
    match target {
        "note" => fuzzing::note(data),
        "plan" => fuzzing::plan(data),
        "profile" => fuzzing::profile(data),
        "episode" => fuzzing::episode(data, scratch),
        "mcp" => fuzzing::mcp(data),
        "import" => fuzzing::import(data),
        "messages" => fuzzing::messages(data),
        other => panic!("unknown fuzz target {other}"),
    }
}

/// A source with a quote inside (`O'Reilly`) was written into the flow list
/// unquoted, `[h'ttps://x]`, which reads back as an unclosed quote: the note
/// became unreadable after any rewrite.
#[test]
fn note_list_items_with_quotes_round_trip() {
    let data = input("note/quote_inside_list_item.md");
    assert_eq!(fuzzing::note(&data), Ok(()));
}

/// Accepted, not fixed: a line ending `v\r\r\n` (in the body or an unknown
/// front-matter key) keeps one stray `\r` when read, and each rewrite drops one.
#[test]
fn note_stray_carriage_returns_are_accepted() {
    for rel in ["note/stray_cr_in_unknown_key.md", "note/stray_cr_in_body.md"] {
        assert_eq!(fuzzing::note(&input(rel)), Ok(()), "{rel}");
    }
}

#[test]
fn note_with_a_quoted_source_reads_back_through_the_binary() {
    let sb = Sandbox::new();
    let knowledge = |args: &[&str]| {
        let mut cmd = sb.agentbox(&["knowledge"]);
        cmd.args(args);
        cmd
    };
    ok_data(&mut knowledge(&[
        "add",
        "Rust book",
        "--body",
        "b",
        "--source",
        "O'Reilly Media",
    ]));
    let shown = ok_data(&mut knowledge(&["show", "rust-book"]));
    assert_eq!(shown["sources"], serde_json::json!(["O'Reilly Media"]));
}

/// With a code fence left open, a new `## Preferences` section was appended
/// inside the fence (so the "added" fact was code, never listed).
#[test]
fn profile_facts_are_never_added_inside_an_open_fence() {
    for rel in [
        "profile/unclosed_fence_no_section.md",
        "profile/unclosed_fence_in_section.md",
    ] {
        assert_eq!(fuzzing::profile(&input(rel)), Ok(()), "{rel}");
    }
}

#[test]
fn profile_add_after_an_open_fence_lists_the_fact_through_the_binary() {
    let sb = Sandbox::new();
    let path = sb.home().join("memory/personal/PROFILE.md");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "# Profile\n\n## Facts\n- Lives in Porto.\n\n```\n## Preferences\n",
    )
    .unwrap();
    let profile = |args: &[&str]| {
        let mut cmd = sb.agentbox(&["knowledge", "profile"]);
        cmd.args(args);
        cmd
    };
    let added = ok_data(&mut profile(&["add", "Prefers tabs.", "--preference"]));
    assert_eq!(added["added"], serde_json::json!(["Prefers tabs."]));
    let list = ok_data(&mut profile(&["list"]));
    assert_eq!(list["preferences"], serde_json::json!(["Prefers tabs."]));
    assert_eq!(list["facts"], serde_json::json!(["Lives in Porto."]));
}

/// Every committed seed and regression input passes its target's checks.
#[test]
fn seed_corpora_pass_every_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for base in ["fuzz/corpus", "tests/fuzz_regressions"] {
        for entry in std::fs::read_dir(root.join(base)).unwrap() {
            let dir: PathBuf = entry.unwrap().path();
            let target = dir.file_name().unwrap().to_str().unwrap().to_string();
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                let data = std::fs::read(&file).unwrap();
                let _ = run(&target, &data, scratch.path());
                seen += 1;
            }
        }
    }
    assert!(seen >= 21, "only {seen} seeds found");
}
