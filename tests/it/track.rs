//! `track`, verb by verb, through the real binary and the `.agent/tools/track`
//! link: recording by flags and by messages[], duplicates, flush, list, show,
//! stats, search, prune on a fixed clock, odek imports, bad input that must
//! leave the store untouched, redaction, and 32 concurrent writers.

use crate::common;

use common::{NOW, Sandbox, envelope, err_of, ok_data};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::Instant;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/track");

/// `.agent/tools/track ARGS…`
fn track(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.command(sb.home().join("tools").join("track"));
    cmd.args(args);
    cmd
}

/// The same with stdin fed from `input`.
fn track_stdin(sb: &Sandbox, args: &[&str], input: impl Into<Vec<u8>>) -> assert_cmd::Command {
    let mut cmd = track(sb, args);
    cmd.write_stdin(input.into());
    cmd
}

fn episodes_dir(sb: &Sandbox) -> PathBuf {
    sb.home().join("memory/episodes")
}

/// Every file under the episodes folder: relative path → bytes.
fn episode_files(sb: &Sandbox) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let root = episodes_dir(sb);
    let Ok(sessions) = std::fs::read_dir(&root) else {
        return files;
    };
    for session in sessions.flatten() {
        if !session.path().is_dir() {
            continue;
        }
        for file in std::fs::read_dir(session.path()).unwrap().flatten() {
            let rel = file
                .path()
                .strip_prefix(&root)
                .unwrap()
                .display()
                .to_string();
            files.insert(rel, std::fs::read(file.path()).unwrap());
        }
    }
    files
}

/// The turns stored in one file, parsed line by line (every line must be JSON).
fn lines_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("torn line {l:?}: {e}")))
        .collect()
}

fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn write(sb: &Sandbox, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = sb.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

/// Lowers the item cap of the sandbox's home.
fn set_cap(sb: &Sandbox, bytes: u64) {
    std::fs::write(
        sb.home().join("config.json"),
        json!({"schema": "agentbox.config/v1", "limits": {"max_item_bytes": bytes}}).to_string(),
    )
    .unwrap();
}

#[test]
fn record_by_flags_content_file_and_stdin() {
    let sb = Sandbox::new();
    let data = ok_data(&mut track(
        &sb,
        &["record", "--content", "how do I format Go code?"],
    ));
    assert_eq!(data["session"], "default");
    assert_eq!(data["episode"], "ep-20260115T093000Z-k3f9q2-1");
    assert_eq!(data["ids"], json!(["ep-20260115T093000Z-k3f9q2-1#1"]));
    assert_eq!(data["count"], 1);
    assert_eq!(data["duplicate"], false);
    assert_eq!(data["flushed"], false);
    let answer = write(&sb, "answer.md", "Run `gofmt -w .`\nthen commit.\n");
    let data = ok_data(&mut track(
        &sb,
        &["record", "--role", "assistant", "--content-file", &answer],
    ));
    assert_eq!(data["ids"], json!(["ep-20260115T093000Z-k3f9q2-1#2"]));
    let data = ok_data(&mut track_stdin(
        &sb,
        &[
            "record",
            "--role",
            "tool",
            "--tool-call-id",
            "call_9",
            "--content-file",
            "-",
        ],
        "exit 0",
    ));
    assert_eq!(data["ids"], json!(["ep-20260115T093000Z-k3f9q2-1#3"]));

    let path = episodes_dir(&sb).join("default/ep-20260115T093000Z-k3f9q2-1.open.jsonl");
    let turns = lines_of(&path);
    assert_eq!(turns.len(), 3);
    assert_eq!(
        turns[0],
        json!({"schema": "agentbox.turn/v1", "id": "ep-20260115T093000Z-k3f9q2-1#1", "session": "default",
               "episode": "ep-20260115T093000Z-k3f9q2-1", "seq": 1, "ts": NOW, "role": "user",
               "content": "how do I format Go code?", "tool_calls": [], "tool_call_id": null, "source": "cli"})
    );
    assert_eq!(turns[1]["content"], "Run `gofmt -w .`\nthen commit.\n");
    assert_eq!(turns[2]["role"], "tool");
    assert_eq!(turns[2]["tool_call_id"], "call_9");
    // text mode says where the turn went
    let text = stdout_of(&mut track(
        &sb,
        &[
            "record",
            "--session",
            "s2",
            "--content",
            "hello",
            "--format",
            "text",
        ],
    ));
    assert_eq!(
        text,
        "Saved 1 turn to ep-20260115T093000Z-k3f9q2-2 (session s2): ep-20260115T093000Z-k3f9q2-2#1\n"
    );
    // nothing to record
    let err = err_of(&mut track(&sb, &["record"]), "invalid_args", 2);
    assert!(err["hint"].as_str().unwrap().contains("--content"));
    err_of(
        &mut track(&sb, &["record", "--content", "  "]),
        "invalid_args",
        2,
    );
    err_of(
        &mut track(&sb, &["record", "--content", "x", "--role", "robot"]),
        "invalid_args",
        2,
    );
    err_of(
        &mut track(&sb, &["record", "--content-file", "/nonexistent/file"]),
        "not_found",
        1,
    );
}

#[test]
fn record_messages_from_file_and_stdin() {
    let sb = Sandbox::new();
    let messages = json!({"sessionKey": "chat-7", "messages": [
        {"role": "user", "content": [{"type": "text", "text": "list the files"}, {"type": "image", "data": "…"}]},
        {"role": "assistant", "content": null,
         "toolCalls": [{"id": "call_1", "name": "shell", "arguments": {"cmd": "ls"}}]},
        {"role": "tool", "content": "a.txt\nb.txt", "toolCallId": "call_1", "unknownField": true},
        {"role": "assistant", "content": "Two files: a.txt and b.txt."}
    ]});
    let file = write(&sb, "turns.json", messages.to_string());
    let data = ok_data(&mut track(&sb, &["record", "--messages", &file]));
    assert_eq!(data["session"], "chat-7");
    assert_eq!(data["count"], 4);
    assert_eq!(data["ids"].as_array().unwrap().len(), 4);
    let turns = lines_of(&episodes_dir(&sb).join("chat-7/ep-20260115T093000Z-k3f9q2-1.open.jsonl"));
    assert_eq!(turns[0]["content"], "list the files");
    assert_eq!(
        turns[1]["tool_calls"],
        json!([{"id": "call_1", "name": "shell", "arguments": {"cmd": "ls"}}])
    );
    assert_eq!(turns[1]["content"], "");
    assert_eq!(turns[2]["tool_call_id"], "call_1");
    assert!(turns[2].get("unknownField").is_none());
    let seqs: Vec<u64> = turns.iter().map(|t| t["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, [1, 2, 3, 4]);

    // a bare array on stdin; --session wins over a file's sessionKey
    let array = json!([{"role": "user", "content": "from stdin"}]);
    let data = ok_data(&mut track_stdin(
        &sb,
        &["record", "--messages", "-", "--session", "other", "--flush"],
        array.to_string(),
    ));
    assert_eq!(data["session"], "other");
    assert_eq!(data["flushed"], true);
    assert!(
        episodes_dir(&sb)
            .join("other/ep-20260115T093000Z-k3f9q2-2.jsonl")
            .is_file()
    );
    // --messages cannot be mixed with single-turn flags
    err_of(
        &mut track(&sb, &["record", "--messages", &file, "--content", "x"]),
        "invalid_args",
        2,
    );
}

#[test]
fn duplicate_retries_save_nothing() {
    let sb = Sandbox::new();
    let first = ok_data(&mut track(
        &sb,
        &["record", "--content", "deploy to staging"],
    ));
    let again = ok_data(&mut track(
        &sb,
        &["record", "--content", "deploy to staging"],
    ));
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["count"], 0);
    assert_eq!(again["ids"], first["ids"]);
    // same text, different role: not a duplicate
    let other = ok_data(&mut track(
        &sb,
        &[
            "record",
            "--role",
            "assistant",
            "--content",
            "deploy to staging",
        ],
    ));
    assert_eq!(other["duplicate"], false);
    // a batch retried whole is a duplicate; a batch that only starts the same is not
    let batch = json!([{"role": "user", "content": "and prod?"},
                       {"role": "assistant", "content": "after review", "toolCalls": [{"id": "c", "name": "ci", "arguments": {"x": 1}}]}]);
    let saved = ok_data(&mut track_stdin(
        &sb,
        &["record", "--messages", "-"],
        batch.to_string(),
    ));
    assert_eq!(saved["count"], 2);
    let retry = ok_data(&mut track_stdin(
        &sb,
        &["record", "--messages", "-"],
        batch.to_string(),
    ));
    assert_eq!(retry["duplicate"], true);
    assert_eq!(retry["ids"], saved["ids"]);
    let changed = json!([{"role": "user", "content": "and prod?"},
                         {"role": "assistant", "content": "after review", "toolCalls": [{"id": "c", "name": "ci", "arguments": {"x": 2}}]}]);
    let new = ok_data(&mut track_stdin(
        &sb,
        &["record", "--messages", "-"],
        changed.to_string(),
    ));
    assert_eq!(new["duplicate"], false);
    let path = episodes_dir(&sb).join("default/ep-20260115T093000Z-k3f9q2-1.open.jsonl");
    assert_eq!(lines_of(&path).len(), 6);
    // a retried save-and-flush finds its turn in the closed episode
    let flushed = ok_data(&mut track(&sb, &["record", "--content", "bye", "--flush"]));
    assert_eq!(flushed["flushed"], true);
    let retry = ok_data(&mut track(&sb, &["record", "--content", "bye", "--flush"]));
    assert_eq!(retry["duplicate"], true);
    assert_eq!(retry["flushed"], false);
    assert_eq!(retry["episode"], "ep-20260115T093000Z-k3f9q2-1");
    assert_eq!(episode_files(&sb).len(), 1);
    let text = stdout_of(&mut track(
        &sb,
        &["record", "--content", "bye", "--flush", "--format", "text"],
    ));
    assert!(text.starts_with("Duplicate: "), "{text}");
}

#[test]
fn flush_closes_the_open_episode() {
    let sb = Sandbox::new();
    ok_data(&mut track(&sb, &["record", "--content", "one"]));
    let data = ok_data(&mut track(&sb, &["flush"]));
    assert_eq!(
        data,
        json!({"session": "default", "flushed": "ep-20260115T093000Z-k3f9q2-1"})
    );
    let files: Vec<String> = episode_files(&sb).into_keys().collect();
    assert_eq!(files, ["default/ep-20260115T093000Z-k3f9q2-1.jsonl"]);
    // nothing open: ok, flushed null, and the text says so
    let data = ok_data(&mut track(&sb, &["flush"]));
    assert_eq!(data["flushed"], Value::Null);
    let text = stdout_of(&mut track(&sb, &["flush", "--format", "text"]));
    assert_eq!(
        text,
        "Nothing to flush: session default has no open episode\n"
    );
    let text = stdout_of(&mut track(
        &sb,
        &["flush", "--session", "never-used", "--format", "text"],
    ));
    assert!(text.contains("never-used has no open episode"));
    // the next turn starts a new episode
    let data = ok_data(&mut track(&sb, &["record", "--content", "two"]));
    assert_eq!(data["episode"], "ep-20260115T093000Z-k3f9q2-2");
    assert_eq!(data["ids"], json!(["ep-20260115T093000Z-k3f9q2-2#1"]));
    // the closed episode's turns are still found, under the closed path
    let hits = ok_data(&mut track(&sb, &["search", "one"]));
    assert_eq!(hits["hits"][0]["id"], "ep-20260115T093000Z-k3f9q2-1#1");
    assert_eq!(
        hits["hits"][0]["source"],
        "memory/episodes/default/ep-20260115T093000Z-k3f9q2-1.jsonl"
    );
}

/// Two sessions with a few turns each, some tool calls.
fn sample_history(sb: &Sandbox) {
    let messages = json!([
        {"role": "user", "content": "Why does the deploy fail?"},
        {"role": "assistant", "content": "Checking the logs.", "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "kubectl logs web"}}]},
        {"role": "tool", "content": "Error: image pull backoff", "toolCallId": "c1"},
        {"role": "assistant", "content": "The image tag is wrong."}
    ]);
    ok_data(&mut track_stdin(
        sb,
        &["record", "--messages", "-", "--session", "ops", "--flush"],
        messages.to_string(),
    ));
    ok_data(&mut track(
        sb,
        &[
            "record",
            "--session",
            "notes",
            "--content",
            "Remember: we use tabs in Go",
        ],
    ));
}

/// `list --offset N` pages: it skips the N newest, keeps `meta.total`,
/// and past the end lists nothing without failing.
#[test]
fn list_pages_with_offset() {
    let sb = Sandbox::new();
    for i in 1..=5 {
        ok_data(&mut track(
            &sb,
            &[
                "record",
                "--session",
                "s",
                "--content",
                &format!("turn {i}"),
                "--flush",
            ],
        ));
    }
    let ids = |args: &[&str]| -> (Vec<String>, Value) {
        let (env, _) = envelope(&mut track(&sb, args));
        let ids = env["data"]["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["title"].as_str().unwrap().to_string())
            .collect();
        (ids, env["meta"].clone())
    };
    let (page, meta) = ids(&["list", "--limit", "2", "--offset", "2"]);
    assert_eq!(page, ["turn 3", "turn 2"]);
    assert_eq!(meta, json!({"count": 2, "total": 5}));
    let (page, _) = ids(&["list", "--limit", "2", "--offset", "4"]);
    assert_eq!(page, ["turn 1"]);
    let (page, _) = ids(&["list", "--session", "s", "--limit", "0", "--offset", "3"]);
    assert_eq!(page, ["turn 2", "turn 1"]);
    let (page, meta) = ids(&["list", "--offset", "9"]);
    assert!(page.is_empty());
    assert_eq!(meta["total"], 5);
    let text = stdout_of(&mut track(
        &sb,
        &["list", "--limit", "1", "--offset", "1", "--format", "text"],
    ));
    assert!(
        text.ends_with("turn 4\n… 3 more (--offset 2 shows the next, --limit 0 all)\n"),
        "{text}"
    );
    let text = stdout_of(&mut track(
        &sb,
        &["list", "--offset", "9", "--format", "text"],
    ));
    assert_eq!(text, "5 episode(s) in all: --offset 9 skips them all\n");
    err_of(
        &mut track(&sb, &["list", "--offset", "-1"]),
        "invalid_args",
        2,
    );
}

#[test]
fn list_show_and_stats_in_text_and_json() {
    let sb = Sandbox::new();
    let data = ok_data(&mut track(&sb, &["list"]));
    assert_eq!(data["episodes"], json!([]));
    let text = stdout_of(&mut track(&sb, &["list", "--format", "text"]));
    assert!(text.starts_with("No episodes yet."), "{text}");
    sample_history(&sb);

    let (env, _) = envelope(&mut track(&sb, &["list"]));
    assert_eq!(env["meta"]["count"], 2);
    let rows = env["data"]["episodes"].as_array().unwrap().clone();
    assert_eq!(rows[0]["id"], "ep-20260115T093000Z-k3f9q2-2");
    assert_eq!(rows[0]["state"], "open");
    assert_eq!(rows[0]["title"], "Remember: we use tabs in Go");
    assert_eq!(rows[1]["id"], "ep-20260115T093000Z-k3f9q2-1");
    assert_eq!(rows[1]["session"], "ops");
    assert_eq!(rows[1]["state"], "closed");
    assert_eq!(rows[1]["turns"], 4);
    assert_eq!(rows[1]["first_ts"], NOW);
    assert_eq!(rows[1]["last_ts"], NOW);
    assert_eq!(rows[1]["title"], "Why does the deploy fail?");
    assert_eq!(
        rows[1]["path"],
        "memory/episodes/ops/ep-20260115T093000Z-k3f9q2-1.jsonl"
    );
    let one = ok_data(&mut track(
        &sb,
        &["list", "--session", "ops", "--limit", "1"],
    ));
    assert_eq!(one["episodes"].as_array().unwrap().len(), 1);
    let text = stdout_of(&mut track(&sb, &["list", "--format", "text"]));
    let expected = "\
EPISODE                       SESSION  STATE   TURNS  LAST                  TITLE
ep-20260115T093000Z-k3f9q2-2  notes    open        1  2026-01-15T09:30:00Z  Remember: we use tabs in Go
ep-20260115T093000Z-k3f9q2-1  ops      closed      4  2026-01-15T09:30:00Z  Why does the deploy fail?
";
    assert_eq!(text, expected);

    let data = ok_data(&mut track(&sb, &["show", "ep-20260115T093000Z-k3f9q2-1"]));
    assert_eq!(data["episode"]["turns"], 4);
    assert_eq!(data["turns"][1]["tool_calls"][0]["name"], "shell");
    assert_eq!(data["turns"][2]["tool_call_id"], "c1");
    assert_eq!(data["broken"], json!([]));
    let by_session = ok_data(&mut track(&sb, &["show", "--session", "ops"]));
    assert_eq!(by_session["episode"]["id"], "ep-20260115T093000Z-k3f9q2-1");
    let text = stdout_of(&mut track(
        &sb,
        &["show", "ep-20260115T093000Z-k3f9q2-1", "--format", "text"],
    ));
    let expected = "\
ep-20260115T093000Z-k3f9q2-1  session ops · closed · 4 turns · 2026-01-15T09:30:00Z – 2026-01-15T09:30:00Z

#1 user · 09:30:00Z
  Why does the deploy fail?

#2 assistant · 09:30:00Z
  Checking the logs.
  ⚙ call shell [c1] {\"cmd\":\"kubectl logs web\"}

#3 tool · 09:30:00Z  → result for call c1
  Error: image pull backoff

#4 assistant · 09:30:00Z
  The image tag is wrong.
";
    assert_eq!(text, expected);
    err_of(
        &mut track(&sb, &["show", "ep-19990101T000000Z-k3f9q2-1"]),
        "not_found",
        1,
    );
    err_of(
        &mut track(&sb, &["show", "--session", "nobody"]),
        "not_found",
        1,
    );
    err_of(
        &mut track(&sb, &["show", "../../config"]),
        "invalid_args",
        2,
    );

    let stats = ok_data(&mut track(&sb, &["stats"]));
    assert_eq!(stats["sessions"], 2);
    assert_eq!(
        stats["episodes"],
        json!({"total": 2, "open": 1, "closed": 1})
    );
    assert_eq!(
        stats["turns"],
        json!({"total": 5, "by_role": {"assistant": 2, "system": 0, "tool": 1, "user": 2}})
    );
    assert_eq!(
        stats["tool_calls"],
        json!({"total": 1, "by_name": {"shell": 1}})
    );
    assert_eq!(stats["first_ts"], NOW);
    let on_disk: u64 = episode_files(&sb).values().map(|b| b.len() as u64).sum();
    assert_eq!(stats["bytes"], on_disk);
    let text = stdout_of(&mut track(&sb, &["stats", "--format", "text"]));
    assert!(
        text.starts_with("5 turns in 2 sessions · 2 episodes (1 open, 1 closed) · 1 tool call · "),
        "{text}"
    );
    assert!(
        text.contains("by role: assistant 2, system 0, tool 1, user 2"),
        "{text}"
    );
    assert!(text.contains("tool calls: shell 1"), "{text}");
}

#[test]
fn search_finds_turns_with_filters() {
    let sb = Sandbox::new();
    sample_history(&sb);
    let data = ok_data(&mut track(&sb, &["search", "why did the deploy fail?"]));
    assert_eq!(data["hits"][0]["id"], "ep-20260115T093000Z-k3f9q2-1#1");
    assert_eq!(data["hits"][0]["episode"], "ep-20260115T093000Z-k3f9q2-1");
    assert_eq!(data["hits"][0]["seq"], 1);
    assert_eq!(data["hits"][0]["role"], "user");
    assert_eq!(data["hits"][0]["session"], "ops");
    // tool call names and arguments are searchable
    let data = ok_data(&mut track(&sb, &["search", "kubectl"]));
    assert_eq!(data["hits"][0]["id"], "ep-20260115T093000Z-k3f9q2-1#2");
    // an open episode's turn is found at once
    let data = ok_data(&mut track(&sb, &["search", "tabs"]));
    assert_eq!(data["hits"][0]["session"], "notes");
    let data = ok_data(&mut track(&sb, &["search", "tabs", "--session", "ops"]));
    assert_eq!(data["hits"], json!([]));
    let data = ok_data(&mut track(
        &sb,
        &["search", "deploy", "--until", "2026-01-14"],
    ));
    assert_eq!(data["hits"], json!([]));
    let data = ok_data(&mut track(
        &sb,
        &["search", "deploy", "--since", "2026-01-15"],
    ));
    assert!(!data["hits"].as_array().unwrap().is_empty());
    let text = stdout_of(&mut track(
        &sb,
        &["search", "nothing-like-this", "--format", "text"],
    ));
    assert_eq!(text, "No turns match \"nothing-like-this\".\n");
    let err = err_of(
        &mut track(&sb, &["search", "x", "--since", "yesterday"]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["flag"], "--since");
    err_of(
        &mut track(&sb, &["search", "x", "--limit", "0"]),
        "invalid_args",
        2,
    );
    err_of(&mut track(&sb, &["search", " "]), "invalid_args", 2);
}

/// Records one turn at `at` into `session`, optionally closing the episode.
fn record_at(sb: &Sandbox, at: &str, session: &str, content: &str, flush: bool) -> Value {
    let mut cmd = track(sb, &["record", "--session", session, "--content", content]);
    if flush {
        cmd.arg("--flush");
    }
    cmd.env("AGENTBOX_NOW", at);
    ok_data(&mut cmd)
}

#[test]
fn prune_removes_only_old_closed_episodes() {
    let sb = Sandbox::new();
    record_at(
        &sb,
        "2025-10-01T10:00:00Z",
        "a",
        "ancient but still open",
        false,
    );
    record_at(
        &sb,
        "2025-11-01T10:00:00Z",
        "b",
        "old closed marmalade",
        true,
    );
    record_at(&sb, "2026-01-10T10:00:00Z", "b", "recent closed", true);
    let before = episode_files(&sb);
    assert_eq!(before.len(), 3);

    let dry = ok_data(&mut track(
        &sb,
        &["prune", "--older-than", "30d", "--dry-run"],
    ));
    assert_eq!(dry["cutoff"], "2025-12-16T09:30:00Z");
    assert_eq!(dry["dry_run"], true);
    assert_eq!(dry["removed"].as_array().unwrap().len(), 1);
    assert_eq!(dry["removed"][0]["id"], "ep-20251101T100000Z-k3f9q2-1");
    assert_eq!(dry["removed"][0]["last_ts"], "2025-11-01T10:00:00Z");
    assert_eq!(dry["kept"], 2);
    assert_eq!(episode_files(&sb), before, "a dry run removes nothing");
    let text = stdout_of(&mut track(
        &sb,
        &[
            "prune",
            "--older-than",
            "30d",
            "--dry-run",
            "--format",
            "text",
        ],
    ));
    assert!(
        text.starts_with("Would remove 1 episode that ended before 2025-12-16T09:30:00Z:"),
        "{text}"
    );
    assert_eq!(
        ok_data(&mut track(&sb, &["search", "marmalade"]))["hits"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let done = ok_data(&mut track(&sb, &["prune", "--older-than", "30d"]));
    assert_eq!(done["removed"][0]["id"], "ep-20251101T100000Z-k3f9q2-1");
    let left: Vec<String> = episode_files(&sb).into_keys().collect();
    assert_eq!(
        left,
        [
            "a/ep-20251001T100000Z-k3f9q2-1.open.jsonl",
            "b/ep-20260110T100000Z-k3f9q2-1.jsonl"
        ]
    );
    assert_eq!(
        ok_data(&mut track(&sb, &["search", "marmalade"]))["hits"],
        json!([])
    );
    // other spellings of the cutoff
    let none = ok_data(&mut track(&sb, &["prune", "--older-than", "2w"]));
    assert_eq!(none["removed"], json!([]));
    let all = ok_data(&mut track(
        &sb,
        &["prune", "--older-than", "2026-01-11", "--dry-run"],
    ));
    assert_eq!(all["removed"][0]["id"], "ep-20260110T100000Z-k3f9q2-1");
    let all = ok_data(&mut track(
        &sb,
        &["prune", "--older-than", "0h", "--dry-run"],
    ));
    assert_eq!(
        all["removed"].as_array().unwrap().len(),
        1,
        "the open episode is never pruned"
    );
    // Unreadable values, and durations that read but reach back past the
    // earliest time (called too long, not unreadable); nothing is removed.
    let unreadable = "neither a duration nor a date";
    let too_far = "reaches back past the earliest time";
    for (bad, says) in [
        ("soon", unreadable),
        ("30", unreadable),
        ("-3d", unreadable),
        ("12y", unreadable),
        ("2026-13-01", unreadable),
        ("999999999w", too_far),
        ("99999999999999999d", too_far),
    ] {
        let flag = format!("--older-than={bad}");
        let err = err_of(&mut track(&sb, &["prune", &flag]), "invalid_args", 2);
        assert_eq!(err["detail"]["flag"], "--older-than", "{bad}");
        assert!(
            err["message"].as_str().unwrap().contains(says),
            "{bad}: {err}"
        );
    }
    let still = ok_data(&mut track(
        &sb,
        &["prune", "--older-than", "0h", "--dry-run"],
    ));
    assert_eq!(still["removed"].as_array().unwrap().len(), 1);
}

#[test]
fn import_pairs_calls_by_id_and_keeps_failures_and_budget_stops() {
    let sb = Sandbox::new();
    let fixture = format!("{FIXTURES}/odek-batched.jsonl");
    let (env, code) = envelope(&mut track(&sb, &["import", &fixture]));
    assert_eq!(code, 0, "{env}");
    let run = &env["data"]["imported"][0];
    assert_eq!(run["run_id"], "4f1c9a2be0d34c7f8a6b5e4d3c2b1a09");
    assert_eq!(run["session"], "deploy-review");
    assert_eq!(run["episodes"], json!(["ep-20260110T080000Z-k3f9q2-1"]));
    assert_eq!(run["turns"], 7);
    assert_eq!(run["tool_calls"], 4);
    assert_eq!(run["failed"], 1);
    assert_eq!(run["unfinished"], 1);
    assert_eq!(run["budget_stops"], 1);
    assert_eq!(run["ignored_events"], 3);

    let path = episodes_dir(&sb).join("deploy-review/ep-20260110T080000Z-k3f9q2-1.jsonl");
    let turns = lines_of(&path);
    let summary: Vec<(String, String)> = turns
        .iter()
        .map(|t| {
            (
                t["role"].as_str().unwrap().to_string(),
                t["content"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = [
        (
            "system",
            "run started: model gpt-5, sandbox on, max 20 iterations",
        ),
        ("tool", "shell ok · 412 ms · 812 result bytes"),
        ("tool", "read_file ok · 12 ms · 2048 result bytes"),
        ("tool", "http_get failed (deadline_exceeded) · 5000 ms"),
        ("tool", "shell started, never finished"),
        ("system", "budget exceeded: tool_calls observed 4 > limit 3"),
        ("system", "run failed: budget_exhausted after 7000 ms"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(summary, expected);
    // completions arrived C, B, A — each landed on its own call
    assert_eq!(
        turns[1]["tool_calls"],
        json!([{"id": "call_A", "name": "shell", "arguments": {"program": "git", "class": "read"}}])
    );
    assert_eq!(turns[1]["tool_call_id"], "call_A");
    assert_eq!(turns[1]["meta"]["duration_ms"], 412);
    assert_eq!(turns[1]["meta"]["result_bytes"], 812);
    assert_eq!(turns[1]["meta"]["failed"], false);
    assert_eq!(turns[1]["meta"]["args_sha256"], "aa11");
    assert_eq!(turns[2]["meta"]["duration_ms"], 12);
    assert_eq!(turns[3]["tool_calls"][0]["id"], "call_C");
    assert_eq!(turns[3]["meta"]["error_class"], "deadline_exceeded");
    assert_eq!(turns[3]["meta"]["failed"], true);
    assert_eq!(turns[4]["meta"]["unfinished"], true);
    assert_eq!(
        turns[5]["meta"],
        json!({"event": "budget_exceeded", "run_id": "4f1c9a2be0d34c7f8a6b5e4d3c2b1a09", "iteration": 2,
               "limit_name": "tool_calls", "observed": 4, "limit": 3})
    );
    assert_eq!(turns[0]["ts"], "2026-01-10T08:00:00Z");
    for t in &turns {
        assert_eq!(t["source"], "import");
        assert!(
            !t.to_string().contains("future_field"),
            "unknown fields are dropped"
        );
    }
    // imported episodes are closed, listed, searchable
    let list = ok_data(&mut track(&sb, &["list"]));
    assert_eq!(list["episodes"][0]["state"], "closed");
    let hits = ok_data(&mut track(&sb, &["search", "deadline exceeded"]));
    assert_eq!(hits["hits"][0]["id"], "ep-20260110T080000Z-k3f9q2-1#4");
    // the same run again is skipped
    let again = ok_data(&mut track(&sb, &["import", &fixture]));
    assert_eq!(again["imported"], json!([]));
    assert_eq!(
        again["skipped"][0]["episode"],
        "ep-20260110T080000Z-k3f9q2-1"
    );
    assert_eq!(episode_files(&sb).len(), 1);
    // --session overrides; a run without session_id gets odek-<prefix>
    let stream = std::fs::read_to_string(&fixture).unwrap();
    let data = ok_data(&mut track_stdin(
        &sb,
        &["import", "-", "--session", "ci"],
        stream.clone(),
    ));
    assert_eq!(data["imported"][0]["session"], "ci");
    let no_session = stream
        .replace("\"session_id\":\"deploy-review\",", "")
        .replace("4f1c9a2b", "77777777");
    let data = ok_data(&mut track_stdin(&sb, &["import", "-"], no_session));
    assert_eq!(data["imported"][0]["session"], "odek-77777777e0d3");
}

#[test]
fn import_of_a_malformed_stream_writes_nothing() {
    let sb = Sandbox::new();
    let good = std::fs::read_to_string(format!("{FIXTURES}/odek-batched.jsonl")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let cases = [
        ("{\"schema\":\"odek.event/v1\",\"type\":", "not JSON"),
        ("[\"schema\",\"odek.event/v1\"]", "not a JSON object"),
        (
            "{\"schema\":\"odek.event/v2\",\"type\":\"run_started\",\"run_id\":\"r\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
            "schema",
        ),
        ("{\"type\":\"run_started\",\"run_id\":\"r\"}", "schema"),
        ("{\"schema\":\"odek.event/v1\",\"run_id\":\"r\"}", "type"),
        (
            "{\"schema\":\"odek.event/v1\",\"type\":\"tool_call_started\",\"run_id\":\"r\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{}}",
            "call_id",
        ),
        (
            "{\"schema\":\"odek.event/v1\",\"type\":\"run_started\",\"run_id\":\"r\",\"timestamp\":\"yesterday\"}",
            "timestamp",
        ),
    ];
    for (bad, word) in cases {
        // the bad line is line 5: after four good ones
        let mut stream: Vec<&str> = lines[..4].to_vec();
        stream.push(bad);
        stream.extend(&lines[4..]);
        let err = err_of(
            &mut track_stdin(&sb, &["import", "-"], stream.join("\n")),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["line"], 5, "{bad}: {err}");
        assert!(
            err["message"].as_str().unwrap().starts_with("line 5: "),
            "{err}"
        );
        assert!(
            err["message"].as_str().unwrap().contains(word),
            "{word}: {err}"
        );
        assert!(episode_files(&sb).is_empty(), "{bad} wrote files");
    }
    // an unsafe session_id names its line; --session gets around it
    let unsafe_session = good.replace(
        "\"session_id\":\"deploy-review\"",
        "\"session_id\":\"../escape\"",
    );
    let err = err_of(
        &mut track_stdin(&sb, &["import", "-"], unsafe_session.clone()),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["line"], 2);
    assert!(episode_files(&sb).is_empty());
    ok_data(&mut track_stdin(
        &sb,
        &["import", "-", "--session", "safe"],
        unsafe_session,
    ));
    // invalid UTF-8 names the line too
    let mut bytes = lines[0].as_bytes().to_vec();
    bytes.extend_from_slice(b"\n{\"schema\":\"odek.event/v1\",\"type\":\"x\xff\"}\n");
    let err = err_of(
        &mut track_stdin(&sb, &["import", "-"], bytes),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["line"], 2);
    // an empty or event-less stream imports nothing, successfully
    let data = ok_data(&mut track_stdin(&sb, &["import", "-"], ""));
    assert_eq!(data["imported"], json!([]));
}

#[test]
fn malformed_messages_are_refused_and_store_nothing() {
    let sb = Sandbox::new();
    ok_data(&mut track(&sb, &["record", "--content", "existing"]));
    let before = episode_files(&sb);
    let cases: Vec<(Value, &str)> = vec![
        (json!("just a string"), "messages"),
        (json!({"messages": {"role": "user"}}), "messages"),
        (json!([]), "messages"),
        (
            json!([{"role": "user", "content": "fine"}, {"content": "no role"}]),
            "messages[1].role",
        ),
        (
            json!([{"role": "wizard", "content": "x"}]),
            "messages[0].role",
        ),
        (json!([{"role": 7, "content": "x"}]), "messages[0].role"),
        (
            json!([{"role": "user", "content": 42}]),
            "messages[0].content",
        ),
        (
            json!([{"role": "user", "content": {"text": "x"}}]),
            "messages[0].content",
        ),
        (
            json!([{"role": "user", "content": [{"type": "text", "text": 5}]}]),
            "messages[0].content[0].text",
        ),
        (
            json!([{"role": "assistant", "content": "x", "toolCalls": "shell"}]),
            "messages[0].toolCalls",
        ),
        (
            json!([{"role": "assistant", "content": "x", "toolCalls": [{"id": "c"}]}]),
            "messages[0].toolCalls[0].name",
        ),
        (
            json!([{"role": "tool", "content": "x", "toolCallId": 12}]),
            "messages[0].toolCallId",
        ),
        (json!([{"role": "user"}]), "messages[0]"),
        (
            json!({"sessionKey": 5, "messages": [{"role": "user", "content": "x"}]}),
            "sessionKey",
        ),
    ];
    for (input, field) in cases {
        let err = err_of(
            &mut track_stdin(&sb, &["record", "--messages", "-"], input.to_string()),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["field"], field, "{input}: {err}");
        assert!(err["message"].as_str().unwrap().contains(field), "{err}");
        assert_eq!(episode_files(&sb), before, "{input} changed the store");
    }
    // not JSON at all: line and column
    let err = err_of(
        &mut track_stdin(
            &sb,
            &["record", "--messages", "-"],
            "[\n{\"role\": \"user\",\n oops}]",
        ),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["line"], 3);
    assert_eq!(episode_files(&sb), before);
}

#[test]
fn invalid_utf8_and_oversized_input_are_refused() {
    let sb = Sandbox::new();
    let bad = write(&sb, "bad.txt", b"caf\xe9\n");
    let err = err_of(
        &mut track(&sb, &["record", "--content-file", &bad]),
        "invalid_args",
        2,
    );
    assert!(
        err["message"].as_str().unwrap().contains("not valid UTF-8"),
        "{err}"
    );
    let bad_json = write(
        &sb,
        "bad.json",
        b"[{\"role\":\"user\",\"content\":\"\xff\"}]",
    );
    err_of(
        &mut track(&sb, &["record", "--messages", &bad_json]),
        "invalid_args",
        2,
    );
    assert!(episode_files(&sb).is_empty());

    set_cap(&sb, 4096);
    let err = err_of(
        &mut track(&sb, &["record", "--content", &"x".repeat(5000)]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "max_item_bytes");
    assert_eq!(err["detail"]["limit"], 4096);
    let big = write(&sb, "big.txt", "y".repeat(5000));
    let err = err_of(
        &mut track(&sb, &["record", "--content-file", &big]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["observed"], 5000);
    let err = err_of(
        &mut track_stdin(&sb, &["record", "--content-file", "-"], "z".repeat(5000)),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "max_item_bytes");
    let messages = json!([{"role": "user", "content": "v".repeat(5000)}]).to_string();
    let err = err_of(
        &mut track_stdin(&sb, &["record", "--messages", "-"], messages),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "max_item_bytes");
    // content just under the cap, inflated by the turn's envelope: refused whole, not cut
    let err = err_of(
        &mut track(&sb, &["record", "--content", &"w".repeat(4000)]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "max_item_bytes");
    assert_eq!(err["detail"]["field"], "messages[0]");
    // no empty episode file is left behind either
    assert!(
        episode_files(&sb).is_empty(),
        "{:?}",
        episode_files(&sb).keys()
    );
    ok_data(&mut track(&sb, &["record", "--content", "fits"]));
    let data = ok_data(&mut track(&sb, &["list"]));
    assert_eq!(data["episodes"].as_array().unwrap().len(), 1);
    assert_eq!(data["episodes"][0]["turns"], 1);
}

#[test]
fn unsafe_session_keys_are_refused() {
    let sb = Sandbox::new();
    for key in [
        "../escape",
        "a/b",
        "/etc",
        "..",
        ".hidden",
        "a\u{1}b",
        "tab\there",
        "",
    ] {
        let err = err_of(
            &mut track(&sb, &["record", "--session", key, "--content", "x"]),
            "invalid_args",
            2,
        );
        assert!(
            err["message"].as_str().unwrap().contains("session key"),
            "{key:?}: {err}"
        );
        err_of(
            &mut track(&sb, &["flush", "--session", key]),
            "invalid_args",
            2,
        );
        err_of(
            &mut track(&sb, &["list", "--session", key]),
            "invalid_args",
            2,
        );
    }
    let long = "k".repeat(129);
    let err = err_of(
        &mut track(&sb, &["record", "--session", &long, "--content", "x"]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "session_key_bytes");
    // a session key that looks like a credential never becomes a folder name
    err_of(
        &mut track(
            &sb,
            &[
                "record",
                "--session",
                "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                "--content",
                "x",
            ],
        ),
        "invalid_args",
        2,
    );
    let messages =
        json!({"sessionKey": "../../outside", "messages": [{"role": "user", "content": "x"}]});
    err_of(
        &mut track_stdin(&sb, &["record", "--messages", "-"], messages.to_string()),
        "invalid_args",
        2,
    );
    assert!(episode_files(&sb).is_empty());
    assert!(!sb.path().join("outside").exists());
    let names: Vec<_> = std::fs::read_dir(episodes_dir(&sb)).unwrap().collect();
    assert!(names.is_empty());
}

#[test]
fn secrets_never_reach_the_file_stdout_or_stderr() {
    let sb = Sandbox::new();
    let key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
    let password = "hunter2-very-secret";
    let content = format!("use {key} and password={password}");
    let messages = json!([{"role": "assistant", "content": "calling",
        "toolCalls": [{"id": "c1", "name": "http", "arguments": {"api_key": password, "url": "https://x.test"}}]}]);
    let mut outputs = Vec::new();
    for format in ["json", "text"] {
        for cmd in [
            &mut track(&sb, &["record", "--content", &content, "--format", format]),
            &mut track_stdin(
                &sb,
                &["record", "--messages", "-", "--format", format],
                messages.to_string(),
            ),
            &mut track(&sb, &["show", "--format", format]),
            &mut track(&sb, &["search", "calling use", "--format", format]),
            &mut track(&sb, &["list", "--format", format]),
        ] {
            let out = cmd.output().unwrap();
            assert!(out.status.success(), "{out:?}");
            outputs.push(String::from_utf8_lossy(&out.stdout).into_owned());
            outputs.push(String::from_utf8_lossy(&out.stderr).into_owned());
        }
    }
    // an imported stream with raw (opt-in) args carrying a secret
    let event = json!({"schema": "odek.event/v1", "type": "tool_call_started", "run_id": "feedbeef",
        "timestamp": "2026-01-10T08:00:00Z", "tool": "http",
        "data": {"call_id": "c9", "args": {"url": "https://x.test", "password": password, "auth": format!("Bearer {key}")}}});
    let out = track_stdin(&sb, &["import", "-"], event.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    outputs.push(String::from_utf8_lossy(&out.stdout).into_owned());
    // an error that echoes input is redacted too
    let out = track(
        &sb,
        &[
            "record",
            "--session",
            key,
            "--content",
            "x",
            "--format",
            "text",
        ],
    )
    .output()
    .unwrap();
    assert!(!out.status.success());
    outputs.push(String::from_utf8_lossy(&out.stderr).into_owned());
    let files = episode_files(&sb);
    assert!(!files.is_empty());
    for text in files
        .values()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .chain(outputs)
    {
        assert!(!text.contains(key), "{text}");
        assert!(!text.contains(password), "{text}");
    }
    let stored = files
        .values()
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .collect::<String>();
    assert!(stored.contains("sk-proj-_REDACTED"), "{stored}");
    // the index holds no secret either
    let db = std::fs::read(sb.home().join("index/search.db")).unwrap_or_default();
    assert!(!String::from_utf8_lossy(&db).contains(password));
}

#[test]
fn a_torn_tail_is_fenced_off_and_reported() {
    let sb = Sandbox::new();
    ok_data(&mut track(
        &sb,
        &["record", "--content", "before the crash"],
    ));
    let path = episodes_dir(&sb).join("default/ep-20260115T093000Z-k3f9q2-1.open.jsonl");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(
        b"{\"schema\":\"agentbox.turn/v1\",\"id\":\"ep-20260115T093000Z-k3f9q2-1#2\",\"con",
    )
    .unwrap();
    drop(file);
    let data = ok_data(&mut track(&sb, &["record", "--content", "after the crash"]));
    assert_eq!(data["ids"], json!(["ep-20260115T093000Z-k3f9q2-1#2"]));
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    let last: Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(last["content"], "after the crash");
    let shown = ok_data(&mut track(&sb, &["show"]));
    assert_eq!(shown["turns"].as_array().unwrap().len(), 2);
    assert_eq!(shown["broken"][0]["line"], 2);
    let stats = ok_data(&mut track(&sb, &["stats"]));
    assert_eq!(stats["broken_lines"], 1);
}

#[test]
fn full_episodes_roll_over_and_stay_under_the_cap() {
    let sb = Sandbox::new();
    set_cap(&sb, 2048);
    let mut ids = Vec::new();
    for i in 0..30 {
        let data = ok_data(&mut track(
            &sb,
            &[
                "record",
                "--content",
                &format!("turn number {i} {}", "p".repeat(100)),
            ],
        ));
        ids.push(data["ids"][0].as_str().unwrap().to_string());
    }
    let files = episode_files(&sb);
    assert!(files.len() > 2, "{:?}", files.keys());
    assert_eq!(
        files.keys().filter(|k| k.ends_with(".open.jsonl")).count(),
        1
    );
    let mut contents = Vec::new();
    for (name, bytes) in &files {
        assert!(bytes.len() <= 2048, "{name} is {} bytes", bytes.len());
        let turns = lines_of(&episodes_dir(&sb).join(name));
        let seqs: Vec<u64> = turns.iter().map(|t| t["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, (1..=turns.len() as u64).collect::<Vec<_>>(), "{name}");
        contents.extend(
            turns
                .iter()
                .map(|t| t["content"].as_str().unwrap().to_string()),
        );
    }
    assert_eq!(contents.len(), 30);
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>().len(),
        30,
        "ids are unique"
    );
}

#[test]
fn every_verb_has_help_with_an_example() {
    let sb = Sandbox::new();
    for verb in [
        "record", "flush", "list", "show", "search", "stats", "prune", "import",
    ] {
        let text = stdout_of(&mut track(&sb, &[verb, "--help"]));
        assert!(text.contains("Examples:"), "{verb}: {text}");
        assert!(text.contains(&format!("track {verb}")), "{verb}: {text}");
    }
    let text = stdout_of(&mut sb.agentbox(&["track", "--help"]));
    assert!(text.contains("record") && text.contains("import"), "{text}");
}

/// Episode ids are unique across sessions, so turn ids are unique in the index.
#[test]
fn episode_ids_are_unique_across_sessions() {
    let sb = Sandbox::new();
    let a = ok_data(&mut track(
        &sb,
        &["record", "--session", "a", "--content", "alpha words"],
    ));
    let b = ok_data(&mut track(
        &sb,
        &["record", "--session", "b", "--content", "beta words"],
    ));
    assert_ne!(a["episode"], b["episode"]);
    let hits = ok_data(&mut track(&sb, &["search", "words"]));
    assert_eq!(hits["hits"].as_array().unwrap().len(), 2);
    let shown = ok_data(&mut track(&sb, &["show", b["episode"].as_str().unwrap()]));
    assert_eq!(shown["episode"]["session"], "b");
}

// ------------------------------------------------------------ concurrency

const WRITERS: usize = 32;
const TURNS_EACH: usize = 200;
/// Each writer: 10 single-turn calls, then 10 batches of 19 turns.
const SINGLES: usize = 10;
const BATCH: usize = 19;

fn writer_cmd(sb: &Sandbox, args: &[&str]) -> Command {
    let mut cmd = sb.std_command(sb.home().join("tools").join("track"));
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

fn marker(w: usize, t: usize) -> String {
    format!("zq{w}x{t}")
}

fn run_ok(mut cmd: Command, input: Option<String>) -> Value {
    cmd.stdin(if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().expect("spawn");
    if let Some(input) = input {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let env: Value = serde_json::from_str(stdout.trim_end()).unwrap_or_else(|e| {
        panic!(
            "bad envelope ({e}): {stdout:?} {:?}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(env["ok"], true, "{env}");
    env["data"].clone()
}

#[test]
fn thirty_two_writers_store_every_turn_exactly_once() {
    let sb = Arc::new(Sandbox::new());
    let started = Instant::now();
    let barrier = Arc::new(Barrier::new(WRITERS));
    let handles: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (sb, barrier) = (Arc::clone(&sb), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                let mut acked = Vec::new();
                for t in 0..SINGLES {
                    let content = format!("writer {w} turn {t} {}", marker(w, t));
                    // every fourth writer closes the shared episode now and then
                    let flush = w % 4 == 0 && t == 5;
                    let mut args = vec!["record", "--session", "shared", "--content", &content];
                    if flush {
                        args.push("--flush");
                    }
                    let data = run_ok(writer_cmd(&sb, &args), None);
                    acked.extend(data["ids"].as_array().unwrap().iter().cloned());
                }
                for b in 0..(TURNS_EACH - SINGLES) / BATCH {
                    let messages: Vec<Value> = (0..BATCH)
                        .map(|i| {
                            let t = SINGLES + b * BATCH + i;
                            let role = if i % 2 == 0 { "user" } else { "assistant" };
                            json!({"role": role, "content": format!("writer {w} turn {t} {}", marker(w, t))})
                        })
                        .collect();
                    let data = run_ok(
                        writer_cmd(&sb, &["record", "--session", "shared", "--messages", "-"]),
                        Some(Value::Array(messages).to_string()),
                    );
                    assert_eq!(data["count"], BATCH as u64, "{data}");
                    acked.extend(data["ids"].as_array().unwrap().iter().cloned());
                }
                acked
            })
        })
        .collect();
    let mut acked = BTreeSet::new();
    for h in handles {
        for id in h.join().expect("writer thread") {
            assert!(
                acked.insert(id.as_str().unwrap().to_string()),
                "id {id} acknowledged twice"
            );
        }
    }
    let elapsed = started.elapsed();
    assert_eq!(acked.len(), WRITERS * TURNS_EACH);

    // Every turn is on disk exactly once, whole, with contiguous seqs per episode.
    let mut stored = BTreeMap::new();
    let mut open = 0;
    for name in episode_files(&sb).keys() {
        open += usize::from(name.ends_with(".open.jsonl"));
        let turns = lines_of(&episodes_dir(&sb).join(name));
        let seqs: Vec<u64> = turns.iter().map(|t| t["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, (1..=turns.len() as u64).collect::<Vec<_>>(), "{name}");
        for t in turns {
            let content = t["content"].as_str().unwrap().to_string();
            let id = t["id"].as_str().unwrap().to_string();
            assert!(
                stored.insert(content.clone(), id).is_none(),
                "{content} stored twice"
            );
        }
    }
    assert!(open <= 1, "{open} open episodes");
    assert_eq!(stored.len(), WRITERS * TURNS_EACH);
    for w in 0..WRITERS {
        for t in 0..TURNS_EACH {
            let content = format!("writer {w} turn {t} {}", marker(w, t));
            let id = stored
                .get(&content)
                .unwrap_or_else(|| panic!("lost {content}"));
            assert!(acked.contains(id), "{id} stored but not acknowledged");
        }
    }

    // Every turn is findable by search: in-process for all, through the CLI for a sample.
    agentbox::registry::install();
    let home = agentbox::home::Home::open(sb.home()).unwrap();
    let mut index = agentbox::search::Index::open(&home).unwrap();
    for w in 0..WRITERS {
        for t in 0..TURNS_EACH {
            let hits = index
                .search(&agentbox::search::Query {
                    text: marker(w, t),
                    kinds: vec!["turn".to_string()],
                    limit: 5,
                    ..Default::default()
                })
                .unwrap();
            let want = &stored[&format!("writer {w} turn {t} {}", marker(w, t))];
            assert_eq!(hits.len(), 1, "{} found {hits:?}", marker(w, t));
            assert_eq!(&hits[0].id, want);
        }
    }
    for (w, t) in [(0, 0), (13, 77), (31, 199)] {
        let data = ok_data(&mut track(&sb, &["search", &marker(w, t)]));
        assert_eq!(data["hits"].as_array().unwrap().len(), 1, "{data}");
    }
    eprintln!("{WRITERS} writers × {TURNS_EACH} turns in {elapsed:?}");
}

/// The index's extractor: one document per turn, shaped as the design says,
/// and the same documents the writers indexed (so `reindex` changes nothing).
#[test]
fn index_docs_extracts_one_document_per_turn() {
    let sb = Sandbox::new();
    sample_history(&sb);
    agentbox::registry::install();
    let home = agentbox::home::Home::open(sb.home()).unwrap();
    let rel = "memory/episodes/ops/ep-20260115T093000Z-k3f9q2-1.jsonl";
    let text = std::fs::read_to_string(sb.home().join(rel)).unwrap();
    let docs = agentbox::tools::track::index_docs(&home, rel, &text).unwrap();
    let ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "ep-20260115T093000Z-k3f9q2-1#1",
            "ep-20260115T093000Z-k3f9q2-1#2",
            "ep-20260115T093000Z-k3f9q2-1#3",
            "ep-20260115T093000Z-k3f9q2-1#4"
        ]
    );
    let call = &docs[1];
    assert_eq!(call.kind, "turn");
    assert_eq!(call.source, rel);
    assert_eq!(call.session.as_deref(), Some("ops"));
    assert_eq!(call.tags, ["assistant", "shell"]);
    assert_eq!(call.date, NOW);
    assert_eq!(call.title, "assistant in ops");
    assert_eq!(
        call.body,
        "Checking the logs.\nshell {\"cmd\":\"kubectl logs web\"}"
    );
    // what the index holds for the file is exactly this
    let mut index = agentbox::search::Index::open(&home).unwrap();
    let hits = index
        .search(&agentbox::search::Query {
            text: "kubectl".into(),
            limit: 5,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(hits[0].id, call.id);
    assert_eq!(hits[0].tags, call.tags);
    assert_eq!(hits[0].title, call.title);
    // not an episode path
    assert!(agentbox::tools::track::index_docs(&home, "memory/knowledge/x.md", "").is_err());
}

/// One odek event line.
fn odek_event(kind: &str, run: &str, ts: &str, tool: &str, data: Value) -> String {
    json!({"schema": "odek.event/v1", "type": kind, "run_id": run, "timestamp": ts, "tool": tool, "data": data})
        .to_string()
}

#[test]
fn import_pairs_a_completion_that_arrives_before_its_start() {
    let sb = Sandbox::new();
    let stream = [
        odek_event(
            "run_started",
            "r-early",
            "2026-01-10T08:00:00Z",
            "",
            json!({}),
        ),
        // c1 completes before its start is written (parallel goroutines)
        odek_event(
            "tool_call_completed",
            "r-early",
            "2026-01-10T08:00:02Z",
            "shell",
            json!({"call_id": "c1", "duration_ms": 5, "result_bytes": 10}),
        ),
        odek_event(
            "tool_call_started",
            "r-early",
            "2026-01-10T08:00:01Z",
            "shell",
            json!({"call_id": "c1", "args_sha256": "aa", "args_summary": {"program": "ls"}}),
        ),
        // c2: two starts with one id, one completion: the first is paired
        odek_event(
            "tool_call_started",
            "r-early",
            "2026-01-10T08:00:03Z",
            "grep",
            json!({"call_id": "c2"}),
        ),
        odek_event(
            "tool_call_started",
            "r-early",
            "2026-01-10T08:00:03Z",
            "grep",
            json!({"call_id": "c2"}),
        ),
        odek_event(
            "tool_call_failed",
            "r-early",
            "2026-01-10T08:00:04Z",
            "grep",
            json!({"call_id": "c2", "error_class": "tool_error"}),
        ),
    ]
    .join("\n");
    let data = ok_data(&mut track_stdin(&sb, &["import", "-"], stream));
    let run = &data["imported"][0];
    assert_eq!(run["tool_calls"], 3, "{run}");
    assert_eq!(run["unfinished"], 1, "{run}");
    assert_eq!(run["failed"], 1, "{run}");
    let shown = ok_data(&mut track(&sb, &["show", "--session", "odek-r-early"]));
    let turns = shown["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 4, "{shown}");
    let c1 = &turns[1];
    assert_eq!(c1["tool_call_id"], "c1");
    assert_eq!(c1["ts"], "2026-01-10T08:00:01Z", "the start's time");
    assert_eq!(c1["tool_calls"][0]["arguments"], json!({"program": "ls"}));
    assert_eq!(c1["meta"]["duration_ms"], 5);
    assert_eq!(c1["meta"]["args_sha256"], "aa");
    assert_eq!(c1["meta"]["failed"], false);
    assert!(c1["meta"].get("orphan").is_none(), "{c1}");
    assert_eq!(c1["content"], "shell ok · 5 ms · 10 result bytes");
    // the text transcript has no dangling space after a call without arguments
    let out = track(
        &sb,
        &["show", "--session", "odek-r-early", "--format", "text"],
    )
    .output()
    .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("⚙ call grep [c2]\n"), "{text}");
    assert!(!text.lines().any(|l| l.ends_with(' ')), "{text:?}");
}

#[test]
fn inputs_with_a_utf8_byte_order_mark_are_accepted() {
    let sb = Sandbox::new();
    let mut messages = "\u{feff}".to_string();
    messages.push_str(&json!({"sessionKey": "bom", "messages": [{"role": "user", "content": "saved from notepad"}]}).to_string());
    let file = write(&sb, "m.json", messages);
    let data = ok_data(&mut track(&sb, &["record", "--messages", &file]));
    assert_eq!(data["session"], "bom");
    let content = write(&sb, "c.txt", "\u{feff}hello from a BOM file");
    ok_data(&mut track(
        &sb,
        &["record", "--session", "bom", "--content-file", &content],
    ));
    let shown = ok_data(&mut track(&sb, &["show", "--session", "bom"]));
    assert_eq!(shown["turns"][1]["content"], "hello from a BOM file");
    let mut stream = "\u{feff}".to_string();
    stream.push_str(&odek_event(
        "run_started",
        "r-bom",
        "2026-01-10T08:00:00Z",
        "",
        json!({}),
    ));
    let events = write(&sb, "e.jsonl", stream);
    let data = ok_data(&mut track(&sb, &["import", &events]));
    assert_eq!(data["imported"][0]["run_id"], "r-bom");
}

#[test]
fn a_lone_match_never_scores_zero() {
    let sb = Sandbox::new();
    ok_data(&mut track(&sb, &["record", "--content", "yes"]));
    let data = ok_data(&mut track(&sb, &["search", "yes"]));
    let score = data["hits"][0]["score"].as_f64().unwrap();
    assert!(score > 0.0, "{data}");
}

#[test]
fn a_session_key_of_the_full_name_length_works() {
    let sb = Sandbox::new();
    let key = "k".repeat(128);
    let data =
        ok_data(&mut sb.agentbox(&["track", "record", "--session", &key, "--content", "hi"]));
    assert_eq!(data["session"], key.as_str(), "{data}");
    let e = err_of(
        &mut sb.agentbox(&[
            "track",
            "record",
            "--session",
            &"k".repeat(129),
            "--content",
            "hi",
        ]),
        "invalid_args",
        2,
    );
    assert!(
        e["hint"].as_str().unwrap().contains("at most 128 bytes"),
        "{e}"
    );
}

/// U+2028 and U+2029 are not control characters to Unicode, but they break
/// lines in editors and JSON-in-JavaScript readers: a key holding one is
/// refused like a newline, with a hint, wherever keys are validated.
#[test]
fn session_keys_with_line_or_paragraph_separators_are_refused() {
    let sb = Sandbox::new();
    // (alone, one is whitespace at the key's ends: refused for that)
    err_of(
        &mut track(&sb, &["record", "--session", "\u{2028}", "--content", "x"]),
        "invalid_args",
        2,
    );
    for key in ["a\u{2028}b", "a\u{2029}b", "x\u{2029}\u{2028}y"] {
        for args in [
            &["record", "--session", key, "--content", "x"][..],
            &["flush", "--session", key],
            &["list", "--session", key],
            &["search", "x", "--session", key],
        ] {
            let e = err_of(&mut track(&sb, args), "invalid_args", 2);
            assert_eq!(e["detail"]["name"], key, "{args:?}: {e}");
            assert!(
                e["message"].as_str().unwrap().contains("separator"),
                "{args:?}: {e}"
            );
            assert!(
                e["hint"].as_str().unwrap().contains("line breaks"),
                "{args:?}: {e}"
            );
        }
        let messages = json!({"sessionKey": key, "messages": [{"role": "user", "content": "x"}]});
        err_of(
            &mut track_stdin(&sb, &["record", "--messages", "-"], messages.to_string()),
            "invalid_args",
            2,
        );
    }
    assert!(episode_files(&sb).is_empty());
}

#[test]
fn session_keys_with_outer_whitespace_are_refused() {
    let sb = Sandbox::new();
    for key in [" work", "work ", "\twork"] {
        let e = err_of(
            &mut sb.agentbox(&["track", "record", "--session", key, "--content", "hi"]),
            "invalid_args",
            2,
        );
        assert_eq!(e["detail"]["name"], key, "{e}");
    }
    assert!(!sb.home().join("memory/episodes/ work").exists());
}

/// The ids of `track search QUERY` and of `agentbox search QUERY`.
fn found_by_both(sb: &Sandbox, query: &str) -> (Vec<String>, Vec<String>) {
    let ids = |data: Value| -> Vec<String> {
        data["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    (
        ids(ok_data(&mut track(sb, &["search", query]))),
        ids(ok_data(&mut sb.agentbox(&["search", query]))),
    )
}

/// Asserts both searches find exactly `id` for `query`.
fn assert_found(sb: &Sandbox, query: &str, id: &str) {
    let (by_track, by_agentbox) = found_by_both(sb, query);
    assert_eq!(by_track, [id], "track search {query}");
    assert_eq!(by_agentbox, [id], "agentbox search {query}");
}

/// Replaces line `n` (1-based) of a file with `bytes`.
fn replace_line(path: &Path, n: usize, bytes: &[u8]) {
    let old = std::fs::read(path).unwrap();
    let mut lines: Vec<&[u8]> = old.split(|b| *b == b'\n').collect();
    lines[n - 1] = bytes;
    std::fs::write(path, lines.join(&b'\n')).unwrap();
}

#[test]
fn a_corrupt_line_hides_only_itself_from_search() {
    let sb = Sandbox::new();
    let dir = episodes_dir(&sb).join("default");
    // invalid UTF-8 in the middle of the open episode, then the normal write path
    ok_data(&mut track(
        &sb,
        &["record", "--content", "alpha before utf8"],
    ));
    ok_data(&mut track(&sb, &["record", "--content", "beta lost utf8"]));
    replace_line(
        &dir.join("ep-20260115T093000Z-k3f9q2-1.open.jsonl"),
        2,
        b"{\"role\":\"user\",\"content\":\"beta \xff\xfe lost\"}",
    );
    // (the unreadable line's seq is unknown, so the next turn may take it)
    let gamma = ok_data(&mut track(
        &sb,
        &["record", "--content", "gamma after utf8", "--flush"],
    ))["ids"][0]
        .as_str()
        .unwrap()
        .to_string();
    let first = "memory/episodes/default/ep-20260115T093000Z-k3f9q2-1.jsonl";
    assert_found(&sb, "alpha", "ep-20260115T093000Z-k3f9q2-1#1");
    assert_found(&sb, "gamma", &gamma);
    // invalid JSON in the middle of a closed episode, edited by hand
    ok_data(&mut track(
        &sb,
        &["record", "--content", "delta before json"],
    ));
    ok_data(&mut track(
        &sb,
        &["record", "--content", "epsilon lost json"],
    ));
    ok_data(&mut track(
        &sb,
        &["record", "--content", "zeta after json", "--flush"],
    ));
    replace_line(
        &dir.join("ep-20260115T093000Z-k3f9q2-2.jsonl"),
        2,
        b"{\"role\":\"user\",\"content\":\"epsilon",
    );
    let second = "memory/episodes/default/ep-20260115T093000Z-k3f9q2-2.jsonl";
    // reindex keeps every readable turn and names each skipped line
    let data = ok_data(&mut sb.agentbox(&["reindex"]));
    assert_eq!(data["files"], 2, "{data}");
    assert_eq!(data["turns"], 4, "{data}");
    let skipped: Vec<&str> = data["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(skipped, [format!("{first}:2"), format!("{second}:2")]);
    assert_eq!(data["skipped"][0]["message"], "not valid UTF-8");
    assert!(
        data["skipped"][1]["message"]
            .as_str()
            .unwrap()
            .starts_with("not a turn"),
        "{data}"
    );
    for (query, id) in [
        ("alpha", "ep-20260115T093000Z-k3f9q2-1#1"),
        ("gamma", gamma.as_str()),
        ("delta", "ep-20260115T093000Z-k3f9q2-2#1"),
        ("zeta", "ep-20260115T093000Z-k3f9q2-2#3"),
    ] {
        assert_found(&sb, query, id);
    }
    let (lost, _) = found_by_both(&sb, "beta epsilon");
    assert!(lost.is_empty(), "{lost:?}");
    // a deleted index is rebuilt the same way on the next search
    std::fs::remove_dir_all(sb.home().join("index")).unwrap();
    assert_found(&sb, "gamma", &gamma);
    assert_found(&sb, "delta", "ep-20260115T093000Z-k3f9q2-2#1");
    // reindex in text names the line too
    let text = stdout_of(&mut sb.agentbox(&["reindex", "--format", "text"]));
    assert!(
        text.contains(&format!("{first}:2: not valid UTF-8")),
        "{text}"
    );
}

/// Every path under `dir`, relative to it.
fn all_paths(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            out.push(path.strip_prefix(dir).unwrap().display().to_string());
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            }
        }
    }
    out
}

#[test]
fn a_secret_looking_run_id_never_names_a_folder() {
    let sb = Sandbox::new();
    let secrets = [
        "sk-proj-QrStUvWxYzghijklmnopqrstuvwxyzQRSTUVWXYZ",
        "ghp_AbCdEfGhIjKLMNOPghijklGHIJKLmnopMNOP",
    ];
    let stream: String = secrets
        .iter()
        .map(|run| {
            odek_event(
                "run_completed",
                run,
                "2026-01-10T08:00:00Z",
                "x",
                json!({"duration_ms": 5}),
            ) + "\n"
        })
        .collect();
    let mut outputs = Vec::new();
    for format in ["json", "text"] {
        // the second import finds both runs already imported
        let out = track_stdin(&sb, &["import", "-", "--format", format], stream.clone())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        outputs.push(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let first: Value = serde_json::from_str(outputs[0].trim()).unwrap();
    let sessions: Vec<&str> = first["data"]["imported"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["session"].as_str().unwrap())
        .collect();
    assert_eq!(sessions.len(), 2, "{first}");
    for s in &sessions {
        assert!(
            s.len() == 15
                && s.starts_with("import-")
                && s[7..].chars().all(|c| c.is_ascii_hexdigit()),
            "{s}"
        );
    }
    assert_ne!(sessions[0], sessions[1]);
    assert!(outputs[1].contains("Skipped"), "{}", outputs[1]);
    assert!(!outputs[1].contains("Imported"), "{}", outputs[1]);
    assert_eq!(episode_files(&sb).len(), 2);
    // what the redactor keeps of a secret is its first eight characters; no
    // four characters of the rest appear in any path or output
    let paths = all_paths(&sb.home());
    assert!(paths.iter().any(|p| p.contains("import-")), "{paths:?}");
    for secret in secrets {
        let tail: Vec<char> = secret.chars().skip(8).collect();
        for window in tail.windows(4) {
            let piece: String = window.iter().collect();
            for p in paths.iter().chain(&outputs) {
                assert!(!p.contains(&piece), "{piece:?} of {secret} in {p}");
            }
        }
    }
}

#[test]
fn import_refuses_null_data_and_names_the_line() {
    let sb = Sandbox::new();
    let stream = [
        odek_event(
            "run_started",
            "r1",
            "2026-01-10T08:00:00Z",
            "x",
            json!({"model": "m"}),
        ),
        odek_event(
            "run_completed",
            "r1",
            "2026-01-10T08:00:01Z",
            "x",
            Value::Null,
        ),
    ]
    .join("\n");
    let err = err_of(
        &mut track_stdin(&sb, &["import", "-"], stream),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["line"], 2, "{err}");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("line 2: \"data\" is null"),
        "{err}"
    );
    assert!(episode_files(&sb).is_empty());
    // data left out is an empty object, as before
    let stream = json!({"schema": "odek.event/v1", "type": "run_completed", "run_id": "r1",
        "timestamp": "2026-01-10T08:00:01Z"})
    .to_string();
    let data = ok_data(&mut track_stdin(&sb, &["import", "-"], stream));
    assert_eq!(data["imported"][0]["turns"], 1);
}

/// An open episode whose last turn has the highest sequence number there is
/// (a hand edit, or a file from another home) takes no more turns: the next
/// turn starts a new episode instead of overflowing the number (a panic).
#[test]
fn an_episode_at_the_highest_seq_rolls_over() {
    let sb = Sandbox::new();
    ok_data(&mut track(
        &sb,
        &[
            "record",
            "--session",
            "s",
            "--role",
            "user",
            "--content",
            "one",
        ],
    ));
    let dir = episodes_dir(&sb).join("s");
    let open: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".open.jsonl"))
        .collect();
    assert_eq!(open.len(), 1);
    let text = std::fs::read_to_string(&open[0]).unwrap();
    let max = u64::MAX.to_string();
    let edited = text
        .replace("\"seq\":1", &format!("\"seq\":{max}"))
        .replace("#1\"", &format!("#{max}\""));
    assert_ne!(edited, text);
    std::fs::write(&open[0], &edited).unwrap();
    for content in ["two", "three"] {
        let data = ok_data(&mut track(
            &sb,
            &[
                "record",
                "--session",
                "s",
                "--role",
                "user",
                "--content",
                content,
            ],
        ));
        assert_ne!(
            data["episode"],
            open[0]
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .split('.')
                .next()
                .unwrap(),
            "{data}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(open[0].with_extension("").with_extension("jsonl")).unwrap(),
        edited
    );
}
