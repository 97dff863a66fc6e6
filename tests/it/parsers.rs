//! Property tests for every parser of files and frames: knowledge note front
//! matter, plan files, PROFILE.md, the JSONL episode reader and MCP frames.
//! Each parser must never panic on arbitrary input, and what agentbox writes
//! must read back as it was (hand-written parts included).

use crate::common;

use agentbox::clock::Time;
use agentbox::home::Home;
use agentbox::mcp::protocol::{self, Frame, LineReader, Message};
use agentbox::tools::knowledge::profile::{self, FactRef, Section};
use agentbox::tools::knowledge::{Claim, Note};
use agentbox::tools::plan::PlanDoc;
use agentbox::tools::track::{self, Turn};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use std::io::BufReader;
use std::path::Path;

const CASES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(CASES)
}

/// For the hand-driven runners (they share one home across cases): no
/// regression file, since they have no source file to pair it with.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Keeps the first of equal items.
fn dedup<T: PartialEq>(items: Vec<T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// One line of text without control characters: arbitrary printable text,
/// or text rich in the characters a front-matter writer must quote.
fn line_text(max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::string::string_regex(&format!("\\PC{{0,{max}}}")).expect("regex"),
        proptest::string::string_regex(&format!(
            "[ a-z0-9'\"#:,.\\[\\]{{}}\\-|>&*!%@`?\\\\]{{0,{max}}}"
        ))
        .expect("regex"),
    ]
}

/// Arbitrary JSON, bounded.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z_]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Lines made of fragments of a format, joined by `\n` or `\r\n`: closer to
/// real files than arbitrary strings, so the parser's inner branches run.
fn fragment_soup(fragments: &'static [&'static str]) -> impl Strategy<Value = String> {
    let line = prop_oneof![
        4 => prop::sample::select(fragments).prop_map(str::to_string),
        1 => "\\PC{0,12}",
        1 => any::<String>(),
    ];
    (
        prop::collection::vec(line, 0..24),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, bom)| {
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            if bom { format!("\u{feff}{text}") } else { text }
        })
}

// ------------------------------------------------------------ knowledge notes

const NOTE_FRAGMENTS: &[&str] = &[
    "---",
    "--- ",
    "title: A note",
    "title: 'it''s quoted'",
    "title: \"escaped \\\" and \\u00e9\"",
    "title: \"\\ud800\"",
    "title: 'unterminated",
    "title: 'lone ' quote'",
    "title:",
    "title:no-space",
    "tags: [a, 'b', \"c, d\"]",
    "tags: [a, [nested]]",
    "tags: [unclosed",
    "tags: [a,,b]",
    "tags: [\"\\\"\", 'x']",
    "tags:",
    "  - go",
    "- loose item",
    "-",
    "sources: https://example.test/a",
    "links: [other-note]",
    "claims:",
    "claims: []",
    "claims: [x]",
    "  - go.formatter: gofmt",
    "  - BAD KEY: value",
    "  - novalue",
    "  - k:",
    "created: 2026-01-15T09:30:00Z",
    "updated: yesterday",
    "rev: 0",
    "rev: 3",
    "rev: 99999999999999999999999",
    "x-unknown: kept",
    "x_block:",
    "  nested: line",
    "\tindented with a tab",
    "# a comment",
    "  # an indented comment",
    "1bad: key",
    "",
    "   ",
    "body text",
];

/// A front-matter title (see `check_title`): one non-blank line, ≤ 200 chars.
fn title() -> impl Strategy<Value = String> {
    line_text(40).prop_filter("a title is one non-blank line", |t| {
        !t.trim().is_empty() && t.chars().count() <= 200
    })
}

/// A tag as stored: lowercase, no spaces, commas, brackets or quotes.
fn tag() -> impl Strategy<Value = String> {
    "[^\\s\\p{C},\\[\\]{}\"']{1,12}"
        .prop_map(|t| t.to_lowercase())
        .prop_filter("a normalized tag", |t| {
            t.to_lowercase() == *t
                && t.chars().count() <= 64
                && !t
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || ",[]{}\"'".contains(c))
        })
}

/// A source or link entry: one non-blank line.
fn item() -> impl Strategy<Value = String> {
    line_text(30).prop_filter("an entry is not blank", |t| !t.trim().is_empty())
}

fn claims() -> impl Strategy<Value = Vec<Claim>> {
    prop::collection::vec(
        (
            "[a-z0-9][a-z0-9._/-]{0,20}",
            line_text(30).prop_filter("a claim value is not blank", |v| !v.trim().is_empty()),
        ),
        0..4,
    )
    .prop_map(|pairs| {
        let mut claims: Vec<Claim> = Vec::new();
        for (key, value) in pairs {
            if !claims.iter().any(|c| c.key == key) {
                claims.push(Claim { key, value });
            }
        }
        claims
    })
}

fn date() -> impl Strategy<Value = String> {
    prop::sample::select(&[
        "2026-01-15T09:30:00Z",
        "2025-12-31T23:59:59+02:00",
        "2026-01-15T09:30:00.250Z",
        "1999-02-28T00:00:00-05:30",
    ])
    .prop_map(str::to_string)
}

/// Hand-written front-matter lines this version does not know: comments,
/// unknown `key: value` lines, and unknown blocks with indented lines. Each
/// group stands alone, so it never lands inside a known list.
fn extra_lines() -> impl Strategy<Value = Vec<String>> {
    let comment =
        ("( {0,2})", line_text(20)).prop_map(|(indent, text)| vec![format!("{indent}#{text}")]);
    let scalar = (
        "x[-_][a-z0-9_-]{0,8}",
        line_text(20).prop_filter("a value", |v| !v.trim().is_empty()),
    )
        .prop_map(|(key, value)| vec![format!("{key}: {value}")]);
    let block = (
        "x[-_][a-z0-9_-]{0,8}",
        prop::collection::vec(
            (
                "( {1,4})",
                line_text(20).prop_filter("not blank", |l| !l.trim().is_empty()),
            ),
            0..3,
        ),
    )
        .prop_map(|(key, lines)| {
            let mut out = vec![format!("{key}:")];
            out.extend(
                lines
                    .into_iter()
                    .map(|(indent, text)| format!("{indent}{text}")),
            );
            out
        });
    prop::collection::vec(prop_oneof![comment, scalar, block], 0..4)
        .prop_map(|groups| groups.concat())
}

fn body() -> impl Strategy<Value = String> {
    "[\\PC\n]{0,120}".prop_map(|b| b.trim_start_matches('\n').trim_end().to_string())
}

fn note() -> impl Strategy<Value = Note> {
    (
        (
            title(),
            prop::collection::vec(tag(), 0..4),
            prop::collection::vec(item(), 0..4),
            prop::collection::vec(item(), 0..3),
            claims(),
        ),
        (date(), date(), 1u64..1_000_000, body(), extra_lines()),
    )
        .prop_map(
            |((title, tags, sources, links, claims), (created, updated, rev, body, extra))| Note {
                slug: "a-note".to_string(),
                title,
                tags: dedup(tags),
                sources: dedup(sources),
                links: dedup(links),
                claims,
                created,
                updated,
                rev,
                body,
                extra,
            },
        )
}

proptest! {
    #![proptest_config(config())]

    /// What `render` writes, `parse` reads back unchanged: hand-written
    /// comments and unknown keys included, in order.
    #[test]
    fn note_render_then_parse_is_identity(note in note()) {
        let text = note.render();
        let parsed = Note::parse(&note.slug, &text, "2000-01-01T00:00:00Z");
        prop_assert_eq!(parsed.as_ref(), Ok(&note), "rendered:\n{}", text);
        // And rendering again writes the same bytes.
        prop_assert_eq!(parsed.expect("parsed").render(), text);
    }

    #[test]
    fn note_parse_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = Note::parse("a-note", &text, "2026-01-15T09:30:00Z");
    }

    #[test]
    fn note_parse_never_panics_on_front_matter_soup(
        soup in fragment_soup(NOTE_FRAGMENTS),
        framed in any::<bool>(),
    ) {
        // Framed as a note more often than chance would, so the lines are
        // read as front matter and what parses is checked further.
        let text = if framed { format!("---\ntitle: T\n{soup}\n---\nbody") } else { soup };
        if let Ok(note) = Note::parse("a-note", &text, "2026-01-15T09:30:00Z") {
            // Whatever parses, renders to text that parses to the same note.
            let again = Note::parse("a-note", &note.render(), "2026-01-15T09:30:00Z");
            prop_assert_eq!(again, Ok(note), "input {:?}", text);
        }
    }
}

/// Regression: a source, link or tag that starts with a quote (`"Effective
/// Go" on go.dev`), or holds one inside (`it's here`), was written so that
/// the note could not be read back: flow-list items were unquoted twice, and
/// a quote inside a plain list item opened a quoted string.
#[test]
fn note_list_entries_with_quotes_read_back() {
    let sb = common::Sandbox::new();
    for source in [
        "\"Effective Go\" on go.dev",
        "it's here",
        "'single'",
        "a \"b\" c",
    ] {
        let added = common::ok_data(&mut sb.agentbox(&[
            "knowledge",
            "add",
            source,
            "--body",
            "x",
            "--source",
            source,
        ]));
        let slug = added["slug"].as_str().expect("slug").to_string();
        let shown = common::ok_data(&mut sb.agentbox(&["knowledge", "show", &slug]));
        assert_eq!(shown["sources"], json!([source]), "{shown}");
    }
    let text = "---\ntitle: T\ntags: [\"go\", 'rust']\nsources: [\"'a'\"]\nlinks:\n  - '\"quoted\"'\n---\n";
    let note = Note::parse("t", text, "2026-01-15T09:30:00Z").expect("parse");
    assert_eq!(note.tags, ["go", "rust"]);
    assert_eq!(note.sources, ["'a'"]);
    assert_eq!(note.links, ["\"quoted\""]);
}

// ------------------------------------------------------------------- plans

const PLAN_FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"schema\": \"agentbox.plan/v1\",",
    "\"schema\": \"agentbox.plan/v2\",",
    "\"id\": \"p\",",
    "\"title\": \"T\",",
    "\"status\": \"active\",",
    "\"status\": \"paused\",",
    "\"version\": 1,",
    "\"version\": -1,",
    "\"version\": 1e400,",
    "\"created\": \"2026-01-15T09:30:00Z\",",
    "\"updated\": \"2026-01-15T09:30:00Z\",",
    "\"steps\": [",
    "{\"text\": \"a\", \"status\": \"done\", \"updated\": \"x\"}",
    "{\"text\": \"a\", \"status\": \"in_progress\", \"note\": null, \"updated\": \"x\"},",
    "\"future\": {\"nested\": [1, 2]},",
    "\"\\ud800\"",
    "null",
];

fn step_value() -> impl Strategy<Value = Value> {
    (
        "\\PC{0,20}",
        prop::sample::select(&["pending", "in_progress", "done", "blocked"]),
        prop::option::of("\\PC{0,20}"),
        date(),
        prop::collection::btree_map("x_[a-z]{1,5}", json_value(), 0..3),
    )
        .prop_map(|(text, status, note, updated, extra)| {
            let mut step = json!({"text": text, "status": status, "updated": updated});
            if let Some(note) = note {
                step["note"] = Value::from(note);
            }
            for (k, v) in extra {
                step[k] = v;
            }
            step
        })
}

/// A plan file's JSON in the form agentbox writes (no `note: null`).
fn plan_value() -> impl Strategy<Value = Value> {
    (
        "[a-z0-9-]{1,20}",
        "\\PC{0,30}",
        prop::sample::select(&["active", "archived"]),
        1u64..u64::MAX,
        (date(), date()),
        prop::collection::vec(step_value(), 0..6),
        prop::collection::btree_map("x_[a-z]{1,5}", json_value(), 0..3),
    )
        .prop_map(
            |(id, title, status, version, (created, updated), steps, extra)| {
                let mut plan = json!({
                    "schema": "agentbox.plan/v1", "id": id, "title": title, "status": status,
                    "version": version, "created": created, "updated": updated, "steps": steps,
                });
                for (k, v) in extra {
                    plan[k] = v;
                }
                plan
            },
        )
}

proptest! {
    #![proptest_config(config())]

    /// A plan serialized and parsed again is the same plan; fields this
    /// version does not know (on the plan and on its steps) survive.
    #[test]
    fn plan_serialize_then_parse_is_identity(value in plan_value(), pretty in any::<bool>()) {
        let path = Path::new("plans/p.json");
        let text = if pretty {
            serde_json::to_string_pretty(&value).expect("serialize")
        } else {
            value.to_string()
        };
        let doc = PlanDoc::parse(&text, path).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        let back = serde_json::to_value(&doc).expect("to_value");
        prop_assert_eq!(&back, &value);
        let again = PlanDoc::parse(&serde_json::to_string_pretty(&doc).expect("serialize"), path)
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert_eq!(serde_json::to_value(&again).expect("to_value"), value);
    }

    #[test]
    fn plan_parse_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = PlanDoc::parse(&text, Path::new("plans/p.json"));
    }

    #[test]
    fn plan_parse_never_panics_on_json_soup(text in fragment_soup(PLAN_FRAGMENTS)) {
        let _ = PlanDoc::parse(&text, Path::new("plans/p.json"));
    }

    #[test]
    fn plan_parse_never_panics_on_arbitrary_json(value in json_value()) {
        let _ = PlanDoc::parse(&value.to_string(), Path::new("plans/p.json"));
    }
}

// ---------------------------------------------------------------- PROFILE.md

const PROFILE_FRAGMENTS: &[&str] = &[
    "# Profile",
    "## Preferences",
    "## Facts",
    "## facts ##",
    "##Facts",
    "### Facts",
    "## Other",
    "####### seven",
    "- a fact",
    "* another",
    "+ a third",
    "1. numbered",
    "12) numbered too",
    "1234567890. not a bullet",
    "-",
    "- ",
    "  continued",
    "\tcontinued with a tab",
    "```",
    "~~~",
    "  ```",
    "plain prose",
    "",
];

/// A hand-written PROFILE.md: prose, headings, bullets, unknown sections,
/// code fences (the last one sometimes left open). `\r\n` line ends or `\n`, with or without a last one.
fn hand_profile() -> impl Strategy<Value = String> {
    let word = prop::sample::select(&[
        "alpha", "beta", "tabs", "spaces", "editor", "coffee", "Berlin", "rust", "deploy",
    ]);
    let words = prop::collection::vec(word, 1..5).prop_map(|w| w.join(" "));
    let group = prop_oneof![
        3 => (prop::sample::select(&["- ", "* ", "+ ", "1. ", "2) "]), words.clone())
            .prop_map(|(marker, text)| vec![format!("{marker}{text}")]),
        2 => words.clone().prop_map(|text| vec![text]),
        1 => words.clone().prop_map(|text| vec![format!("  {text}")]),
        2 => prop::sample::select(&[
            "# Profile", "## Preferences", "## Facts", "## Projects", "## Notes ##",
            "### Sub-facts", "#### Deep",
        ])
        .prop_map(|h| vec![h.to_string()]),
        1 => Just(vec![String::new()]),
        1 => prop::collection::vec(prop_oneof![words.clone(), Just("- in a fence".to_string())], 0..3)
            .prop_map(|inner| {
                let mut lines = vec!["```".to_string()];
                lines.extend(inner);
                lines.push("```".to_string());
                lines
            }),
        1 => "\\PC{1,20}"
            .prop_filter("not markdown structure", |l| {
                let t = l.trim_start();
                !t.starts_with("```") && !t.starts_with("~~~") && !t.starts_with('#')
            })
            .prop_map(|l| vec![l]),
    ];
    (
        prop::collection::vec(group, 0..12),
        prop::option::weighted(0.2, prop::sample::select(&["```", "```sh", "~~~~ text"])),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(groups, open_fence, crlf, last_newline)| {
            let nl = if crlf { "\r\n" } else { "\n" };
            let mut lines = groups.concat();
            if let Some(fence) = open_fence {
                // A fence the file never closes: it runs to the end.
                lines.extend([fence.to_string(), "- code, not a fact".to_string()]);
            }
            let mut text = lines.join(nl);
            if last_newline && !text.is_empty() {
                text.push_str(nl);
            }
            text
        })
}

/// The lines of a text without their line ends.
fn bare_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n')
        .map(|l| l.trim_end_matches(['\n', '\r']))
        .collect()
}

/// Whether `small` appears in `big` in order (not necessarily adjacent).
fn is_subsequence(small: &[&str], big: &[&str]) -> bool {
    let mut rest = big.iter();
    small.iter().all(|line| rest.any(|b| b == line))
}

#[test]
fn profile_parse_never_panics() {
    let sb = common::Sandbox::new();
    agentbox::registry::install();
    let home = Home::open(sb.home()).expect("open home");
    let path = profile::path(&home).expect("profile path");
    let mut runner = runner(CASES);
    let strategy = prop_oneof![any::<String>(), fragment_soup(PROFILE_FRAGMENTS)];
    runner
        .run(&strategy, |text| {
            // The indexer parses any text without failing.
            let docs = profile::index_docs(&home, profile::REL_PATH, &text)
                .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            prop_assert!(docs.iter().all(|d| !d.body.trim().is_empty()));
            // And reading the file is the same parse.
            std::fs::write(&path, &text).expect("write PROFILE.md");
            match profile::read(&home) {
                Ok(read) => prop_assert_eq!(
                    read.preferences.len() + read.facts.len(),
                    docs.len(),
                    "text {:?}",
                    text
                ),
                Err(_) => prop_assert!(
                    text.contains('\0'),
                    "only a NUL byte is corrupt: {:?}",
                    text
                ),
            }
            Ok(())
        })
        .unwrap();
}

/// Adding a fact to a hand-written PROFILE.md keeps every line of it, in
/// order, and every fact it had; removing the fact again leaves the facts as
/// they were and still every hand-written line.
#[test]
fn profile_hand_written_lines_survive_add_and_remove() {
    let sb = common::Sandbox::new();
    agentbox::registry::install();
    let home = Home::open(sb.home()).expect("open home");
    let clock = agentbox::clock::Clock::from_env().expect("clock");
    let path = profile::path(&home).expect("profile path");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    let mut runner = runner(CASES / 2);
    let strategy = (hand_profile(), any::<bool>(), 0u32..1_000_000);
    runner
        .run(&strategy, |(text, preference, n)| {
            std::fs::write(&path, &text).expect("write PROFILE.md");
            let before = profile::read(&home).expect("read");
            let section = if preference {
                Section::Preferences
            } else {
                Section::Facts
            };
            let fact = format!("Qzxv fact number {n}.");
            let added = profile::add_facts(&home, &clock, &[(section, fact.clone())])
                .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            prop_assert_eq!(&added.added, &vec![fact.clone()]);
            let with_fact = std::fs::read_to_string(&path).expect("read back");
            if !text.trim().is_empty() {
                prop_assert!(
                    is_subsequence(&bare_lines(&text), &bare_lines(&with_fact)),
                    "hand-written lines lost on add:\n{:?}\n→\n{:?}",
                    text,
                    with_fact
                );
            }
            // The new fact is in its section (at the end of the first section
            // of its kind, so not necessarily last when the file has two), and
            // every other fact is still there, in order.
            let mut after = profile::read(&home).expect("read");
            let list = match section {
                Section::Preferences => &mut after.preferences,
                Section::Facts => &mut after.facts,
            };
            let at = list.iter().position(|f| *f == fact);
            prop_assert!(
                at.is_some(),
                "the fact is not in its section:\n{}",
                with_fact
            );
            list.remove(at.expect("position"));
            prop_assert_eq!(&after, &before, "file after add:\n{}", with_fact);

            let removed = profile::remove(&home, &clock, &FactRef::Text(fact.clone()), None)
                .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            prop_assert_eq!(removed.len(), 1);
            let without = std::fs::read_to_string(&path).expect("read back");
            prop_assert_eq!(profile::read(&home).expect("read"), before);
            if !text.trim().is_empty() {
                prop_assert!(
                    is_subsequence(&bare_lines(&text), &bare_lines(&without)),
                    "hand-written lines lost on remove:\n{:?}\n→\n{:?}",
                    text,
                    without
                );
            }
            prop_assert!(!without.contains("Qzxv"), "{}", without);
            Ok(())
        })
        .unwrap();
}

/// Regression: a PROFILE.md that ends inside an unclosed code fence took
/// every added fact into the fence: `profile add` said "Added", `profile
/// list` showed nothing, and adding it again wrote it again.
#[test]
fn profile_fact_added_after_an_unclosed_fence_is_listed() {
    let sb = common::Sandbox::new();
    let path = sb.home().join("memory/personal/PROFILE.md");
    std::fs::write(&path, "# Profile\n\n```sh\nmake build\n").expect("write");
    for _ in 0..2 {
        common::ok_data(&mut sb.agentbox(&["knowledge", "profile", "add", "Uses make."]));
    }
    let listed = common::ok_data(&mut sb.agentbox(&["knowledge", "profile", "list"]));
    assert_eq!(listed["facts"], json!(["Uses make."]), "{listed}");
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        text,
        "# Profile\n\n```sh\nmake build\n```\n\n## Facts\n- Uses make.\n"
    );
}

// ------------------------------------------------------------- episode JSONL

fn turn() -> impl Strategy<Value = Turn> {
    (
        (
            "[a-z0-9-]{1,12}",
            1u64..10_000,
            prop::sample::select(&["user", "assistant", "tool", "system"]),
            "\\PC{0,40}",
            prop::option::of("[a-z0-9]{1,8}"),
        ),
        (
            prop::collection::vec(("[a-z0-9]{0,6}", "[a-z_]{1,8}", json_value()), 0..3),
            prop::collection::btree_map("[a-z]{1,6}", json_value(), 0..3),
        ),
    )
        .prop_map(
            |((session, seq, role, content, call_id), (calls, meta))| Turn {
                schema: "agentbox.turn/v1".to_string(),
                id: format!("ep-1#{seq}"),
                session,
                episode: "ep-1".to_string(),
                seq,
                ts: "2026-01-15T09:30:00Z".to_string(),
                role: role.to_string(),
                content,
                tool_calls: calls
                    .into_iter()
                    .map(|(id, name, arguments)| agentbox::tools::track::ToolCall {
                        id,
                        name,
                        arguments,
                    })
                    .collect(),
                tool_call_id: call_id,
                source: "test".to_string(),
                meta: meta.into_iter().collect(),
            },
        )
}

/// A line that is not a turn.
fn bad_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"{\"role\": \"user\", \"content\": \"torn".to_vec()),
        Just(b"not json".to_vec()),
        Just(b"{\"content\": \"no role\"}".to_vec()),
        Just(b"[1, 2]".to_vec()),
        Just(vec![0xff, 0xfe, b'{', b'}']),
        prop::collection::vec(any::<u8>(), 1..40).prop_filter(
            "not blank, no newline, not JSON",
            |b| {
                !b.contains(&b'\n')
                    && !b.iter().all(u8::is_ascii_whitespace)
                    && serde_json::from_slice::<Turn>(b).is_err()
            }
        ),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn episode_reader_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let parsed = track::parse_text(&bytes, "s", "ep-1");
        let lines = bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
            .count();
        prop_assert_eq!(parsed.turns.len() + parsed.broken.len(), lines);
        prop_assert_eq!(parsed.bytes, bytes.len() as u64);
    }

    /// Turns written one per line read back as they were, whatever bad lines
    /// sit between them: each bad line is reported with its line number and
    /// hides no turn.
    #[test]
    fn episode_lines_round_trip_around_bad_lines(
        entries in prop::collection::vec(
            prop_oneof![3 => turn().prop_map(Ok), 1 => bad_line().prop_map(Err)],
            0..12,
        ),
        crlf in any::<bool>(),
        blank_lines in any::<bool>(),
    ) {
        let mut text: Vec<u8> = Vec::new();
        let mut turns = Vec::new();
        let mut bad_at = Vec::new();
        let mut line = 0;
        for entry in &entries {
            if blank_lines {
                text.extend_from_slice(b"  \n");
                line += 1;
            }
            line += 1;
            match entry {
                Ok(turn) => {
                    text.extend_from_slice(serde_json::to_string(turn).expect("serialize").as_bytes());
                    turns.push(turn.clone());
                }
                Err(bad) => {
                    text.extend_from_slice(bad);
                    bad_at.push(line);
                }
            }
            text.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        let parsed = track::parse_text(&text, "fallback", "ep-9");
        prop_assert_eq!(&parsed.turns, &turns);
        let broken: Vec<usize> = parsed.broken.iter().map(|b| b.line).collect();
        prop_assert_eq!(broken, bad_at);
    }
}

// ------------------------------------------------------- messages[] timestamp

/// The first second of 9999-12-31 (UTC): with any offset, still a year RFC
/// 3339 can write.
const LAST_WRITABLE: i64 = 253_402_214_400;

/// Text for a `timestamp`: RFC 3339 spellings, near misses and junk.
fn timestamp_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "(19[0-9]{2}|20[0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?([Zz]|[+-](0[0-9]|1[0-9]|2[0-3]):[0-5][0-9])",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})?",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}",
        "\\PC{0,30}",
    ]
}

/// `instant` written in RFC 3339 at `offset_minutes` east of UTC, its
/// fraction in groups of three digits (`2023-05-08T15:56:00.250+02:00`).
fn with_offset(instant: Time, offset_minutes: i64) -> String {
    let local = instant + jiff::SignedDuration::from_mins(offset_minutes);
    let text = local.rfc3339();
    let body = text.strip_suffix("+00:00").expect("written in UTC");
    let (sign, minutes) = if offset_minutes < 0 {
        ('-', -offset_minutes)
    } else {
        ('+', offset_minutes)
    };
    format!("{body}{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

/// A one-message batch whose message has `timestamp`.
fn dated(timestamp: Value) -> Value {
    json!([{"role": "user", "content": "x", "timestamp": timestamp}])
}

/// The `timestamp` of a one-message batch as parsed, or the error's message.
fn read_timestamp(batch: &Value) -> Result<Option<Time>, String> {
    track::parse_messages(batch)
        .map(|m| m[0].timestamp)
        .map_err(|e| e.message)
}

/// The parse of a one-message batch must refuse its `timestamp` by name.
fn refused_by_name(batch: &Value) -> Result<(), TestCaseError> {
    let err = track::parse_messages(batch).expect_err("refused");
    prop_assert_eq!(err.kind, agentbox::error::ErrorType::InvalidArgs);
    prop_assert_eq!(&err.detail["field"], "messages[0].timestamp");
    prop_assert!(
        err.message.starts_with("messages[0].timestamp "),
        "{}",
        err.message
    );
    prop_assert!(!err.hint.is_empty());
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// Any instant from 1970 on, written with any offset and fraction, reads
    /// back as that instant.
    #[test]
    fn message_timestamps_read_as_the_instant_they_name(
        secs in 0i64..LAST_WRITABLE,
        nanos in prop_oneof![Just(0u32), 0u32..1_000_000_000],
        offset_minutes in -(23 * 60 + 59)..=(23 * 60 + 59),
    ) {
        let nanos = jiff::SignedDuration::new(0, i32::try_from(nanos).expect("below a second"));
        let instant = Time::from_second(secs).expect("in range") + nanos;
        let text = with_offset(instant, i64::from(offset_minutes));
        prop_assert_eq!(read_timestamp(&dated(Value::from(text.clone()))), Ok(Some(instant)), "{}", text);
    }

    #[test]
    fn message_timestamps_before_1970_are_refused(secs in -62_135_596_800i64..0) {
        let instant = Time::from_second(secs).expect("in range");
        refused_by_name(&dated(Value::from(instant.rfc3339())))?;
    }

    /// Any text is the instant RFC 3339 reads in it (from 1970 on), or is
    /// refused by name; any other JSON but null is refused.
    #[test]
    fn any_timestamp_is_rfc_3339_or_refused_by_name(text in timestamp_text(), other in json_value()) {
        let batch = dated(Value::from(text.clone()));
        let instant = Time::parse(&text)
            .ok()
            .filter(|t| t.as_second() >= 0);
        match instant {
            Some(t) => prop_assert_eq!(read_timestamp(&batch), Ok(Some(t))),
            None => refused_by_name(&batch)?,
        }
        match other {
            Value::Null => prop_assert_eq!(read_timestamp(&dated(other)), Ok(None)),
            Value::String(_) => {}
            other => refused_by_name(&dated(other))?,
        }
    }
}

// ---------------------------------------------------------------- MCP frames

/// What `LineReader` must produce for `input` with `cap`: every `\n`-ended
/// line (and a last unended one), a trailing `\r` dropped, lines over the
/// cap reported by size instead.
fn expected_frames(input: &[u8], cap: usize) -> Vec<Frame> {
    let mut frames = Vec::new();
    let mut parts: Vec<&[u8]> = input.split(|b| *b == b'\n').collect();
    if parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    for part in parts {
        if part.len() > cap {
            frames.push(Frame::Oversize {
                observed: part.len() as u64,
            });
        } else {
            let line = part.strip_suffix(b"\r").unwrap_or(part);
            frames.push(Frame::Line(line.to_vec()));
        }
    }
    frames.push(Frame::Eof);
    frames
}

fn frame_input() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".to_vec()),
        (1usize..300).prop_map(|n| vec![b'x'; n]),
    ];
    prop::collection::vec(piece, 0..10).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(config())]

    /// Any bytes, any cap, any buffer size: the frames are the lines, no
    /// frame holds more than `cap` bytes, and the reader ends with `Eof`.
    #[test]
    fn mcp_line_reader_frames_any_bytes_within_the_cap(
        input in frame_input(),
        cap in 0usize..200,
        buffer in 1usize..32,
    ) {
        let mut reader = LineReader::new(BufReader::with_capacity(buffer, &input[..]), cap);
        let mut frames = Vec::new();
        loop {
            let frame = reader.next_frame().expect("reading a slice never fails");
            if let Frame::Line(line) = &frame {
                prop_assert!(line.len() <= cap, "a {}-byte line passed a {cap}-byte cap", line.len());
            }
            let eof = frame == Frame::Eof;
            frames.push(frame);
            if eof {
                break;
            }
            prop_assert!(frames.len() <= input.len() + 1, "more frames than bytes");
        }
        prop_assert_eq!(frames, expected_frames(&input, cap));
        // After the end, the end again.
        prop_assert_eq!(reader.next_frame().expect("read"), Frame::Eof);
    }

    #[test]
    fn mcp_classify_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = protocol::classify(&bytes);
    }

    #[test]
    fn mcp_classify_never_panics_on_json(value in json_value()) {
        let _ = protocol::classify(value.to_string().as_bytes());
        let _ = protocol::classify_value(value);
    }

    /// A well-formed request or notification is classified as one, with its
    /// id, method and params intact (params an object, or left out).
    #[test]
    fn mcp_classify_keeps_requests_intact(
        id in prop::option::of(prop_oneof![any::<i64>().prop_map(Value::from), "\\PC{0,10}".prop_map(Value::from)]),
        method in "\\PC{0,20}",
        params in prop::option::of(json_value().prop_map(|v| json!({"value": v}))),
    ) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(id) = &id {
            message["id"] = id.clone();
        }
        if let Some(params) = &params {
            message["params"] = params.clone();
        }
        let classified = protocol::classify(message.to_string().as_bytes());
        let expected = match id {
            Some(id) => Message::Request { id, method, params },
            None => Message::Notification { method, params },
        };
        prop_assert_eq!(classified, expected);
    }

    /// Cut text fits its budget (notice included) once the budget has room
    /// for the notice, and is a prefix of the original plus the notice.
    #[test]
    fn mcp_bound_text_respects_the_limit(text in "\\PC{0,400}", max in 64usize..300) {
        let (out, cut) = protocol::bound_text(text.clone(), max);
        prop_assert!(out.chars().count() <= max, "{} chars for a limit of {max}", out.chars().count());
        prop_assert_eq!(cut, text.chars().count() > max);
        if cut {
            let (kept, notice) = out.split_once("\n\n[truncated: ").expect("a notice");
            prop_assert!(text.starts_with(kept));
            prop_assert!(notice.ends_with(" characters shown]"));
        } else {
            prop_assert_eq!(out, text);
        }
    }

    /// A bounded result is still one JSON object within the budget.
    #[test]
    fn mcp_bound_json_respects_the_limit(
        fields in prop::collection::btree_map(
            "[a-z]{1,8}",
            prop_oneof![
                "\\PC{0,200}".prop_map(Value::from),
                prop::collection::vec("\\PC{0,30}".prop_map(Value::from), 0..20).prop_map(Value::Array),
            ],
            0..6,
        ),
        max in 18usize..400,
    ) {
        let value = Value::Object(fields.into_iter().collect());
        let (out, cut) = protocol::bound_json(value.clone(), max);
        prop_assert!(out.is_object());
        prop_assert!(out.to_string().chars().count() <= max, "{out} over {max}");
        if !cut {
            prop_assert_eq!(out, value);
        }
    }

    /// Reply lines (single and batched) stay under the byte cap.
    #[test]
    fn mcp_reply_lines_respect_the_cap(
        results in prop::collection::vec("\\PC{0,300}", 1..6),
        cap in 1024usize..2048,
    ) {
        let replies: Vec<Value> = results
            .iter()
            .enumerate()
            .map(|(i, text)| protocol::reply(&json!(i), json!({"text": text})))
            .collect();
        for reply in &replies {
            let line = protocol::reply_line(reply, cap);
            prop_assert!(line.len() < cap, "{} bytes for a cap of {cap}", line.len());
            let back: Value = serde_json::from_str(&line).expect("a reply line is JSON");
            prop_assert_eq!(&back["id"], &reply["id"]);
        }
        let batch = protocol::batch_line(&replies, cap);
        prop_assert!(batch.len() < cap, "{} bytes for a cap of {cap}", batch.len());
        let back: Value = serde_json::from_str(&batch).expect("a batch line is JSON");
        prop_assert!(back.is_array() || back.is_object());
    }
}

// ------------------------------------------------------ the MCP server whole

const MCP_LINES: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":"s","method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mem_search","arguments":{"query":"gofmt","topK":2}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"mem_save_turn","arguments":{"role":"user","text":"use gofmt"}}}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"mem_save_fact","arguments":{"fact":"Prefers gofmt."}}}"#,
    r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"mem_context","arguments":{"query":null}}}"#,
    r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mem_nope","arguments":{}}}"#,
    r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1,2]}"#,
    r#"{"jsonrpc":"2.0","id":9,"method":"resources/list"}"#,
    r#"{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":"mem://profile"}}"#,
    r#"{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{"uri":"mem://search?q=%ZZ&topK=-1"}}"#,
    r#"{"jsonrpc":"2.0","id":12,"method":"resources/templates/list"}"#,
    r#"[{"jsonrpc":"2.0","id":13,"method":"ping"},1,{"jsonrpc":"2.0","method":"x"}]"#,
    "[]",
    r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
    r#"{"jsonrpc":"1.0","id":14,"method":"ping"}"#,
    r#"{"jsonrpc":"2.0","id":15,"result":{}}"#,
    r#"{"jsonrpc":"2.0","id":16,"method":"no/such/method"}"#,
    "null",
    "",
    "   ",
];

/// Lines for the server: known messages, torn ones, arbitrary bytes.
fn mcp_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::sample::select(MCP_LINES).prop_map(|l| l.as_bytes().to_vec()),
        1 => (prop::sample::select(MCP_LINES), any::<prop::sample::Index>()).prop_map(|(l, at)| {
            l.as_bytes()[..at.index(l.len() + 1)].to_vec()
        }),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(|mut b| {
            b.retain(|c| *c != b'\n');
            b
        }),
    ]
}

/// The real server, fed any sequence of lines: it never dies, answers only
/// with JSON-RPC 2.0 lines, at most one per line it read, and ends cleanly
/// at end of input.
#[test]
fn mcp_server_survives_arbitrary_lines() {
    let sb = common::Sandbox::new();
    let input = sb.path().join("mcp-input");
    let mut runner = runner(CASES / 2);
    let strategy = prop::collection::vec(mcp_line(), 0..16);
    runner
        .run(&strategy, |lines| {
            let mut bytes = Vec::new();
            for line in &lines {
                bytes.extend_from_slice(line);
                bytes.push(b'\n');
            }
            std::fs::write(&input, &bytes).expect("write input");
            let out = sb
                .std_command(sb.home().join("tools").join("memory_mcp"))
                .stdin(std::fs::File::open(&input).expect("open input"))
                .output()
                .expect("run memory_mcp");
            let stdout = String::from_utf8(out.stdout).expect("utf-8 replies");
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert!(out.status.success(), "{:?}: {}", out.status, stderr);
            prop_assert!(!stderr.contains("panicked"), "{}", stderr);
            let replies: Vec<&str> = stdout.lines().collect();
            prop_assert!(
                replies.len() <= lines.len(),
                "{} replies to {} lines",
                replies.len(),
                lines.len()
            );
            for reply in replies {
                let value: Value = serde_json::from_str(reply)
                    .map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {reply}")))?;
                let each = match &value {
                    Value::Array(items) => items.clone(),
                    other => vec![other.clone()],
                };
                for item in each {
                    prop_assert_eq!(&item["jsonrpc"], "2.0", "{}", reply);
                    prop_assert!(
                        item.get("result").is_some() != item.get("error").is_some(),
                        "one of result or error: {}",
                        reply
                    );
                }
            }
            Ok(())
        })
        .unwrap();
}
