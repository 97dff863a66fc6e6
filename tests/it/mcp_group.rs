//! Group commit in `memory_mcp` (issue 11): requests a host pipelines (sends
//! without waiting for the replies) are handled together, made durable with
//! one fsync per file, and answered in order. Every request still gets its
//! own reply, a bad request in a group gets its own error, and a search in
//! the same group finds the turns saved before it (searchable on ack), as
//! does another process, though the server's index writer commits on its
//! own schedule. docs/MCP.md, "Transport".

use crate::common;

use common::{Sandbox, live_server, search_ids};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// How long a readiness wait may take before the test fails.
const WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// Writes `lines` to the server's stdin in ONE write, closes it, and returns
/// the reply lines (parsed) and stderr.
fn pipeline(sb: &Sandbox, lines: &[String], verbose: bool) -> (Vec<Value>, String) {
    let mut input = lines.join("\n");
    input.push('\n');
    let mut cmd = sb.command(sb.home().join("tools").join("memory_mcp"));
    if verbose {
        cmd.arg("-v");
    }
    let out = cmd
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .expect("run the server");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    let replies = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each stdout line is JSON"))
        .collect();
    (replies, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn initialize(version: &str) -> Vec<String> {
    vec![
        request(
            1,
            "initialize",
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        ),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    ]
}

fn save(id: i64, session: &str, texts: &[String], flush: bool) -> String {
    let messages: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"role": if i % 2 == 0 { "user" } else { "assistant" }, "content": t}))
        .collect();
    request(
        id,
        "tools/call",
        json!({"name": "mem_save_turn", "arguments": {"sessionKey": session, "messages": messages, "flush": flush}}),
    )
}

fn search(id: i64, query: &str) -> String {
    request(
        id,
        "tools/call",
        json!({"name": "mem_search", "arguments": {"query": query, "topK": 5}}),
    )
}

/// A tools/call reply's JSON status (the save tools).
fn status(reply: &Value) -> Value {
    let text = reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {reply}"));
    serde_json::from_str(text).expect("a save status is JSON")
}

fn text(reply: &Value) -> &str {
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {reply}"))
}

/// How many times each content occurs in the session's episode files (open
/// and closed), and how many files there are.
fn stored(sb: &Sandbox, session: &str) -> (BTreeMap<String, usize>, usize) {
    let dir = sb.home().join("memory/episodes").join(session);
    let mut counts = BTreeMap::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("the session folder") {
        let path = entry.unwrap().path();
        files += 1;
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let turn: Value = serde_json::from_str(line).expect("whole lines");
            *counts
                .entry(turn["content"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    (counts, files)
}

fn texts(call: usize, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("pipetok{call}x{i} pipelined turn {i} of call {call}"))
        .collect()
}

#[test]
fn pipelined_saves_are_answered_in_order_saved_once_and_searchable_in_the_same_group() {
    let sb = Sandbox::new();
    let mut lines = initialize("2025-06-18");
    for call in 0..5 {
        lines.push(save(10 + call as i64, "pipe", &texts(call, 20), false));
    }
    // the search rides in the same write as the saves it must find
    lines.push(search(20, "pipetok3x7"));
    lines.push(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 10}})
            .to_string(),
    );
    lines.push(request(21, "ping", json!({})));
    let (replies, stderr) = pipeline(&sb, &lines, true);

    let ids: Vec<&Value> = replies.iter().map(|r| &r["id"]).collect();
    assert_eq!(
        ids,
        [1, 10, 11, 12, 13, 14, 20, 21]
            .iter()
            .map(|i| json!(i))
            .collect::<Vec<_>>()
            .iter()
            .collect::<Vec<_>>(),
        "one reply per request, in order: {replies:?}"
    );
    let mut turn_ids = Vec::new();
    for reply in &replies[1..6] {
        let status = status(reply);
        assert_eq!(status["status"], "saved", "{reply}");
        assert_eq!(status["ids"].as_array().unwrap().len(), 20, "{status}");
        turn_ids.extend(status["ids"].as_array().unwrap().iter().cloned());
    }
    let mut distinct = turn_ids.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 100, "every turn its own id");
    // searchable on ack: the turn saved by the 4th call (index 7 of its 20)
    let wanted = turn_ids[3 * 20 + 7].as_str().unwrap();
    assert!(
        text(&replies[6]).contains(wanted),
        "mem_search in the same group finds {wanted}: {}",
        text(&replies[6])
    );
    assert_eq!(replies[7]["result"], json!({}));
    let (counts, files) = stored(&sb, "pipe");
    assert_eq!(files, 1, "one open episode");
    assert_eq!(counts.len(), 100);
    assert!(
        counts.values().all(|n| *n == 1),
        "each turn once: {counts:?}"
    );
    for call in 0..5 {
        for t in texts(call, 20) {
            assert_eq!(counts.get(&t), Some(&1), "{t}");
        }
    }
    assert!(!stderr.contains("group commit failed"), "{stderr}");
}

#[test]
fn a_search_handled_while_the_previous_groups_commit_runs_finds_its_turns() {
    // 64 frames make a group (MAX_GROUP): the saves fill the first one, whose
    // index commit runs while the second (read already) is handled. The
    // second starts with a search for a turn of the first: it must wait for
    // that commit, though it sent the index writer nothing itself.
    let sb = Sandbox::new();
    let mut lines = initialize("2025-06-18");
    let calls = 64 - lines.len();
    for call in 0..calls {
        lines.push(save(100 + call as i64, "held", &texts(call, 40), false));
    }
    lines.push(search(900, "pipetok61x39"));
    lines.push(save(901, "held", &texts(99, 2), false));
    lines.push(search(902, "pipetok99x1"));
    let (replies, stderr) = pipeline(&sb, &lines, true);

    assert_eq!(replies.len(), 1 + calls + 3, "{stderr}");
    let ids: Vec<i64> = replies.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    let mut want = vec![1];
    want.extend((0..calls as i64).map(|c| 100 + c));
    want.extend([900, 901, 902]);
    assert_eq!(ids, want, "in order");
    let saved = status(&replies[62]);
    assert_eq!(saved["status"], "saved");
    let wanted = saved["ids"][39].as_str().unwrap();
    assert!(
        text(&replies[calls + 1]).contains(wanted),
        "the next group's search finds {wanted}: {}",
        text(&replies[calls + 1])
    );
    let later = status(&replies[calls + 2])["ids"][1].clone();
    assert!(
        text(&replies[calls + 3]).contains(later.as_str().unwrap()),
        "{later} in {}",
        text(&replies[calls + 3])
    );
    let (counts, _) = stored(&sb, "held");
    assert_eq!(counts.len(), calls * 40 + 2);
    assert!(counts.values().all(|n| *n == 1), "each turn once");
    assert!(!stderr.contains("group commit failed"), "{stderr}");
}

#[test]
fn every_search_in_a_group_finds_the_saves_before_it() {
    // The server searches on a connection it keeps between requests; the
    // group's saves after its first search were in another connection's
    // open transaction, and a later search of the same group missed them.
    let sb = Sandbox::new();
    let mut lines = initialize("2025-06-18");
    lines.push(search(10, "pipetok0x0"));
    lines.push(save(11, "seen", &texts(0, 2), false));
    lines.push(search(12, "pipetok0x1"));
    lines.push(save(13, "seen", &texts(1, 2), false));
    lines.push(save(14, "seen", &texts(2, 2), false));
    lines.push(search(15, "pipetok1x0"));
    lines.push(search(16, "pipetok2x1"));
    let (replies, stderr) = pipeline(&sb, &lines, false);
    assert_eq!(replies.len(), 8, "{stderr}");
    assert!(
        text(&replies[1]).starts_with("No matches"),
        "{}",
        text(&replies[1])
    );
    for (search, save, turn) in [(3, 2, 1), (6, 4, 0), (7, 5, 1)] {
        let id = status(&replies[save])["ids"][turn].clone();
        let id = id.as_str().unwrap();
        assert!(
            text(&replies[search]).contains(id),
            "reply {search} finds {id}: {}",
            text(&replies[search])
        );
    }
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_bad_request_in_a_group_gets_its_error_and_the_good_ones_are_saved() {
    let sb = Sandbox::new();
    let mut lines = initialize("2025-03-26");
    lines.push(save(10, "mixed", &texts(0, 3), false));
    lines.push("{not json".to_string());
    // a save the tool refuses (a role it does not know)
    lines.push(request(
        12,
        "tools/call",
        json!({"name": "mem_save_turn", "arguments": {"sessionKey": "mixed", "messages": [{"role": "robot", "content": "beep"}]}}),
    ));
    lines.push(request(13, "no/such/method", json!({})));
    // a batch (2025-03-26 has them) holding a good save and a bad one
    lines.push(
        json!([
            {"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "mem_save_turn", "arguments": {"sessionKey": "mixed", "messages": [{"role": "user", "content": "pipetok9 batched turn"}]}}},
            {"jsonrpc": "2.0", "id": 15, "method": "tools/call", "params": "not an object"}
        ])
        .to_string(),
    );
    lines.push(save(16, "mixed", &texts(1, 3), true));
    lines.push(save(17, "mixed", &texts(2, 2), false));
    lines.push(search(18, "pipetok1x2"));
    let (replies, stderr) = pipeline(&sb, &lines, false);
    assert_eq!(replies.len(), 9, "{replies:?}");

    assert_eq!(replies[0]["id"], 1);
    assert_eq!(status(&replies[1])["status"], "saved");
    assert_eq!(replies[2]["id"], Value::Null);
    assert_eq!(replies[2]["error"]["code"], -32700, "{}", replies[2]);
    assert_eq!(replies[3]["id"], 12);
    assert_eq!(replies[3]["result"]["isError"], true);
    assert_eq!(status(&replies[3])["status"], "rejected");
    assert_eq!(replies[4]["id"], 13);
    assert_eq!(replies[4]["error"]["code"], -32601);
    let batch = replies[5]
        .as_array()
        .expect("the batch's replies as one array");
    assert_eq!(batch.len(), 2);
    assert_eq!(batch[0]["id"], 14);
    assert_eq!(status(&batch[0])["status"], "saved");
    assert_eq!(batch[1]["id"], 15);
    assert_eq!(batch[1]["error"]["code"], -32602);
    // a flush in the middle of the group closes the episode; the next save opens another
    let flushed = status(&replies[6]);
    assert_eq!(
        (flushed["status"].clone(), flushed["flushed"].clone()),
        (json!("saved"), json!(true))
    );
    let reopened = status(&replies[7]);
    assert_eq!(reopened["status"], "saved");
    assert_ne!(reopened["episode"], flushed["episode"]);
    assert_eq!(replies[8]["id"], 18);
    let found = flushed["ids"][2].as_str().unwrap();
    assert!(text(&replies[8]).contains(found), "{}", text(&replies[8]));

    let (counts, files) = stored(&sb, "mixed");
    assert_eq!(files, 2, "the closed episode and the new open one");
    assert_eq!(counts.len(), 3 + 1 + 3 + 2, "{counts:?}");
    assert!(counts.values().all(|n| *n == 1), "{counts:?}");
    assert!(
        !counts.contains_key("beep"),
        "the refused save wrote nothing"
    );
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_lone_request_is_answered_before_the_next_one_is_sent() {
    // no read-ahead wait: a host that waits for each reply gets it
    let sb = Sandbox::new();
    let mut child = sb
        .std_command(sb.home().join("tools").join("memory_mcp"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    use std::io::{BufRead, Write};
    for (i, line) in [
        initialize("2025-06-18").remove(0),
        save(2, "lone", &texts(0, 2), false),
        search(3, "pipetok0x1"),
    ]
    .iter()
    .enumerate()
    {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        stdout.read_line(&mut reply).unwrap();
        let reply: Value = serde_json::from_str(&reply).unwrap();
        assert_eq!(reply["id"], [1, 2, 3][i], "{reply}");
        if i == 2 {
            assert!(text(&reply).contains("pipetok0x1"), "{reply}");
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn when_the_input_ends_the_server_merges_the_small_index_segments_its_saves_left() {
    // Each save awaited alone: a group, a commit and a new FTS5 segment each.
    let sb = Sandbox::new();
    let mut child = sb
        .std_command(sb.home().join("tools").join("memory_mcp"))
        .arg("-v")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    use std::io::{BufRead, Write};
    let mut lines = vec![initialize("2025-06-18").remove(0)];
    lines.extend((0..12).map(|call| save(2 + call as i64, "fold", &texts(call, 1), false)));
    // The writer commits when it goes idle, not before each reply: a save
    // sent before the last one committed would share its transaction and
    // its segment. Each waits until the one before it is committed (the
    // index's data_version moves), so each leaves a segment of its own.
    let mut index: Option<rusqlite::Connection> = None;
    let version = |conn: &rusqlite::Connection| -> i64 {
        conn.query_row("PRAGMA data_version", [], |r| r.get(0))
            .unwrap()
    };
    for (n, line) in lines.iter().enumerate() {
        let before = index.as_ref().map(version);
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        stdout.read_line(&mut reply).unwrap();
        assert!(reply.contains("\"result\""), "{reply}");
        if let (Some(conn), Some(before)) = (&index, before) {
            common::wait_for("the save's commit", WAIT, || version(conn) != before);
        } else if n > 0 {
            let db = common::index_db(&sb);
            common::wait_for("the index", WAIT, || db.exists());
            index = Some(
                rusqlite::Connection::open_with_flags(
                    &db,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
                )
                .unwrap(),
            );
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let merged = regex::Regex::new(r"search index: merged (\d+) segments into (\d+) in \d+ ms")
        .unwrap()
        .captures(&stderr)
        .unwrap_or_else(|| panic!("no merge note: {stderr}"));
    let (before, after): (usize, usize) = (merged[1].parse().unwrap(), merged[2].parse().unwrap());
    assert!(after < before, "{stderr}");
    // Every saved turn is still found, by another process.
    for call in 0..12 {
        let data = common::ok_data(&mut sb.agentbox(&[
            "search",
            &format!("pipetok{call}x0"),
            "--format",
            "json",
        ]));
        assert_eq!(
            data["hits"].as_array().unwrap().len(),
            1,
            "call {call}: {data}"
        );
    }
}

/// The index writer commits when it is idle or its transaction has been
/// open a while, not before each reply: another process that searches right
/// after an acknowledgement (the writer may not have committed yet) still
/// finds the turn, caught up from the open episode file, and neither that
/// catch-up nor the writer's own later commit indexes a turn twice.
#[test]
fn another_process_finds_each_turn_as_soon_as_it_is_acknowledged_and_once() {
    let sb = Sandbox::new();
    let (mut server, mut stdin, mut stdout) = live_server(&sb);
    let mut reply = || {
        let mut line = String::new();
        stdout.read_line(&mut line).expect("a reply line");
        serde_json::from_str::<Value>(&line).expect("a JSON reply")
    };
    writeln!(stdin, "{}", initialize("2025-06-18").join("\n")).unwrap();
    assert_eq!(reply()["id"], 1);
    let mut tokens = Vec::new();
    let mut id = 10;
    for round in 0..12 {
        // A lone call, then four pipelined ones (one group), in turn.
        let calls = if round % 2 == 0 { 1 } else { 4 };
        let mut lines = String::new();
        let mut round_tokens = Vec::new();
        for call in 0..calls {
            let turns = texts(round * 10 + call, 3);
            round_tokens.extend(
                turns
                    .iter()
                    .map(|t| t.split(' ').next().unwrap().to_string()),
            );
            lines.push_str(&save(id, "live", &turns, false));
            lines.push('\n');
            id += 1;
        }
        stdin.write_all(lines.as_bytes()).unwrap();
        stdin.flush().unwrap();
        for _ in 0..calls {
            assert_eq!(status(&reply())["status"], "saved");
        }
        // Acknowledged: another process finds every turn, exactly once.
        for token in &round_tokens {
            assert_eq!(search_ids(&sb, token).len(), 1, "round {round}: {token}");
        }
        tokens.extend(round_tokens);
    }
    drop(stdin);
    assert!(server.wait().unwrap().success());
    let (counts, _) = stored(&sb, "live");
    assert_eq!(counts.len(), tokens.len());
    assert!(counts.values().all(|&n| n == 1));
    // The writer's last commits came after those searches: still once each.
    for token in &tokens {
        assert_eq!(search_ids(&sb, token).len(), 1, "after the server: {token}");
    }
}
