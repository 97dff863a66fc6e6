//! Batches of turns and the episode rollover (an episode never grows past
//! `limits.max_item_bytes`; here 2,048 bytes, so three turns of 600
//! characters cross it): a batch that fits in one episode is written to one
//! file; a retry of a batch that a kill stopped between two episode files
//! writes only the turns that are missing, wherever the saved ones are (the
//! open episode, the closed one, or the closed one and a new empty one); a
//! retry of a batch saved whole across a rollover is a duplicate. Every
//! turn is then stored exactly once and `doctor` stays clean.

use crate::common;

use common::{Sandbox, ok_data};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;

const CAP: u64 = 2048;

/// A home whose episodes roll over at [`CAP`] bytes.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    std::fs::write(
        sb.home().join("config.json"),
        json!({"schema": "agentbox.config/v1", "limits": {"max_item_bytes": CAP}}).to_string(),
    )
    .unwrap();
    sb
}

/// A message of about 600 characters: two fit in an episode, three do not.
fn message(n: usize) -> Value {
    let role = if n % 2 == 1 { "user" } else { "assistant" };
    json!({"role": role, "content": format!("message {n}: {}", "walrus ".repeat(85))})
}

fn batch(numbers: &[usize]) -> Value {
    Value::Array(numbers.iter().map(|&n| message(n)).collect())
}

/// `track record --session S --messages -` with `messages` on stdin.
fn record(sb: &Sandbox, session: &str, messages: &Value, extra: &[&str]) -> Value {
    let mut args = vec!["track", "record", "--session", session, "--messages", "-"];
    args.extend_from_slice(extra);
    let mut cmd = sb.agentbox(&args);
    cmd.write_stdin(messages.to_string());
    ok_data(&mut cmd)
}

fn session_dir(sb: &Sandbox, session: &str) -> PathBuf {
    sb.home().join("memory/episodes").join(session)
}

/// The session's episode files (name → the `content` of each turn, in order).
fn episodes(sb: &Sandbox, session: &str) -> BTreeMap<String, Vec<String>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(session_dir(sb, session)).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() as u64 <= CAP, "{path:?} is {} bytes", text.len());
        let contents = text
            .lines()
            .map(|l| {
                let turn: Value = serde_json::from_str(l).unwrap();
                turn["content"].as_str().unwrap().to_string()
            })
            .collect();
        files.insert(
            path.file_name().unwrap().to_string_lossy().into_owned(),
            contents,
        );
    }
    files
}

/// Asserts that the session holds each of the messages `numbers` exactly
/// once, in that order, across its episodes (oldest first).
fn assert_once_each(sb: &Sandbox, session: &str, numbers: &[usize]) {
    let all: Vec<String> = episodes(sb, session).into_values().flatten().collect();
    let want: Vec<String> = numbers
        .iter()
        .map(|&n| message(n)["content"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(all, want, "{session}: {:?}", episodes(sb, session).keys());
}

/// `agentbox doctor` finds nothing wrong.
fn assert_doctor_clean(sb: &Sandbox) {
    let data = ok_data(&mut sb.agentbox(&["doctor"]));
    assert_eq!(data["healthy"], true, "{data}");
}

fn id(n: usize, seq: usize) -> String {
    format!("ep-20260115T093000Z-{}-{n}#{seq}", common::HOME_ID)
}

#[test]
fn a_batch_that_fits_in_one_episode_is_never_split() {
    let sb = sandbox();
    record(&sb, "s", &batch(&[1]), &[]);
    // [2, 3] fits in an episode but not after 1: it goes whole into the next
    let data = record(&sb, "s", &batch(&[2, 3]), &[]);
    assert_eq!(data["ids"], json!([id(2, 1), id(2, 2)]));
    let files = episodes(&sb, "s");
    assert_eq!(files.len(), 2, "{files:?}");
    assert_eq!(
        files[&format!("ep-20260115T093000Z-{}-1.jsonl", common::HOME_ID)].len(),
        1
    );
    assert_once_each(&sb, "s", &[1, 2, 3]);
}

#[test]
fn a_batch_saved_whole_across_a_rollover_is_a_duplicate_when_retried() {
    let sb = sandbox();
    let first = record(&sb, "s", &batch(&[1, 2, 3]), &[]);
    assert_eq!(first["ids"], json!([id(1, 1), id(1, 2), id(2, 1)]));
    let before = episodes(&sb, "s");
    let retry = record(&sb, "s", &batch(&[1, 2, 3]), &[]);
    assert_eq!(retry["duplicate"], true, "{retry}");
    assert_eq!(retry["count"], 0);
    assert_eq!(retry["ids"], first["ids"]);
    assert_eq!(episodes(&sb, "s"), before);
    assert_doctor_clean(&sb);
}

/// The three states a kill between the files of a crossing batch leaves:
/// the saved part at the end of the open episode (killed before it was
/// closed), of a closed one with no open episode (killed after the close),
/// or of a closed one beside a new empty episode (killed before the new
/// file got its turns). Made here by saving the first two messages (which
/// fill an episode) the way the writer had; the retry sends all three.
#[test]
fn a_retried_batch_stores_only_what_a_kill_left_unsaved() {
    let sb = sandbox();
    let three = batch(&[1, 2, 3]);
    // killed before the full episode was closed
    record(&sb, "open", &batch(&[1, 2]), &[]);
    let data = record(&sb, "open", &three, &[]);
    assert_eq!(data["duplicate"], false, "{data}");
    assert_eq!(data["count"], 1);
    assert_eq!(data["ids"], json!([id(1, 1), id(1, 2), id(2, 1)]));
    assert_once_each(&sb, "open", &[1, 2, 3]);
    // ... and a second retry of it is a duplicate
    let again = record(&sb, "open", &three, &[]);
    assert_eq!(again["duplicate"], true, "{again}");
    assert_eq!(again["ids"], data["ids"]);
    assert_once_each(&sb, "open", &[1, 2, 3]);

    // killed after the close, before the next episode existed (retried
    // through memory_mcp: the same library call)
    record(&sb, "closed", &batch(&[1, 2]), &["--flush"]);
    let replies = mcp_save(&sb, json!({"sessionKey": "closed", "messages": three}));
    assert_eq!(replies["status"], "saved", "{replies}");
    assert_eq!(replies["ids"], json!([id(3, 1), id(3, 2), id(4, 1)]));
    assert_once_each(&sb, "closed", &[1, 2, 3]);

    // killed once the next episode was created, before it got its turns
    record(&sb, "empty", &batch(&[1, 2]), &["--flush"]);
    // (an id the home's counter has not reached, so no other session has it)
    let empty = format!("ep-20260115T093000Z-{}-60.open.jsonl", common::HOME_ID);
    std::fs::write(session_dir(&sb, "empty").join(&empty), "").unwrap();
    let data = record(&sb, "empty", &three, &[]);
    assert_eq!(data["count"], 1, "{data}");
    assert_eq!(data["ids"], json!([id(5, 1), id(5, 2), id(60, 1)]));
    assert_eq!(episodes(&sb, "empty")[&empty].len(), 1);
    assert_once_each(&sb, "empty", &[1, 2, 3]);

    // the text output says what was found and what was written
    record(&sb, "text", &batch(&[1, 2]), &[]);
    let mut cmd = sb.agentbox(&[
        "track",
        "record",
        "--session",
        "text",
        "--messages",
        "-",
        "--format",
        "text",
    ]);
    cmd.write_stdin(three.to_string());
    let out = cmd.output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Saved 1 turn to "), "{text}");
    assert!(
        text.contains("Resumed: the first 2 turns of the batch were saved already"),
        "{text}"
    );

    assert_doctor_clean(&sb);
    for session in ["open", "closed", "empty", "text"] {
        let data =
            ok_data(&mut sb.agentbox(&["search", "walrus", "--session", session, "--limit", "50"]));
        assert_eq!(
            data["hits"].as_array().unwrap().len(),
            3,
            "{session}: {data}"
        );
    }
}

/// Where the episode has room, or the saved turns are not the batch's
/// start, nothing is taken for a retry: every message is written.
#[test]
fn a_batch_that_only_begins_like_the_last_turns_is_saved_whole() {
    let sb = sandbox();
    let ok = json!([{"role": "user", "content": "ok"}]);
    record(&sb, "s", &ok, &[]);
    let data = record(
        &sb,
        "s",
        &json!([{"role": "user", "content": "ok"}, {"role": "assistant", "content": "next"}]),
        &[],
    );
    assert_eq!(data["count"], 2, "{data}");
    // after a flush, the same: a new episode starts with both
    record(&sb, "s", &ok, &["--flush"]);
    let data = record(
        &sb,
        "s",
        &json!([{"role": "user", "content": "ok"}, {"role": "assistant", "content": "again"}]),
        &[],
    );
    assert_eq!(data["count"], 2, "{data}");
    // a full episode whose last turn is not the batch's first one
    record(&sb, "full", &batch(&[1, 2]), &[]);
    let data = record(&sb, "full", &batch(&[1, 3]), &[]);
    assert_eq!(data["count"], 2, "{data}");
    assert_once_each(&sb, "full", &[1, 2, 1, 3]);
}

/// One `mem_save_turn` call through `memory_mcp`; its JSON status.
fn mcp_save(sb: &Sandbox, args: Value) -> Value {
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "mem_save_turn", "arguments": args}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = sb
        .command(sb.home().join("tools").join("memory_mcp"))
        .write_stdin(input)
        .output()
        .unwrap();
    let reply = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == 2)
        .expect("a reply to the call");
    serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
}
