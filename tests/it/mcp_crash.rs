//! `memory_mcp` killed mid-stream, three servers in turn on one session:
//! every acknowledged turn is in the files once, and a search without a
//! reindex finds every turn the files hold — the index writer commits on its
//! own schedule (docs/MCP.md), so a kill leaves acknowledged turns the index
//! never committed, which the next server and the next search catch up
//! from the files while new turns are being appended and episodes roll over.

use crate::common;

use common::{Sandbox, live_server, search_ids};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One server fed pipelined 100-turn batches (long turns: an episode rolls
/// over every ten batches or so), killed once `kill_after` are acknowledged.
/// Returns the acknowledged turns' tokens.
fn crash_round(sb: &Sandbox, round: usize, kill_after: usize) -> Vec<String> {
    let (mut server, mut stdin, mut stdout) = live_server(sb);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    writeln!(stdin, "{init}").unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let filler = "lorem ipsum dolor sit amet ".repeat(36);
    let tokens = move |batch: usize| -> Vec<String> {
        (0..100)
            .map(|i| format!("crashr{round}b{batch}t{i}"))
            .collect()
    };
    let writer = std::thread::spawn(move || {
        for batch in 1..=200 {
            let messages: Vec<Value> = tokens(batch)
                .into_iter()
                .map(|t| json!({"role": "user", "content": format!("{t} {filler}")}))
                .collect();
            let frame = json!({"jsonrpc": "2.0", "id": batch, "method": "tools/call", "params": {
                "name": "mem_save_turn",
                "arguments": {"sessionKey": "crash", "messages": messages}}});
            if writeln!(stdin, "{frame}").is_err() {
                return;
            }
        }
    });
    let acked = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let acked = acked.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while stdout.read_line(&mut line).is_ok_and(|n| n > 0) {
                let Ok(reply) = serde_json::from_str::<Value>(&line) else {
                    break; // a line cut by the kill acknowledges nothing
                };
                let status: Value = reply["result"]["content"][0]["text"]
                    .as_str()
                    .and_then(|t| serde_json::from_str(t).ok())
                    .unwrap_or(Value::Null);
                if status["status"] == "saved" {
                    let batch = reply["id"].as_u64().unwrap() as usize;
                    acked.lock().unwrap().push(batch);
                }
                line.clear();
            }
        })
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while acked.lock().unwrap().len() < kill_after && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    server.kill().unwrap();
    server.wait().unwrap();
    reader.join().unwrap();
    writer.join().unwrap();
    let batches = acked.lock().unwrap().clone();
    assert!(batches.len() >= kill_after, "round {round}: {batches:?}");
    batches
        .into_iter()
        .flat_map(|b| (0..100).map(move |i| format!("crashr{round}b{b}t{i}")))
        .collect()
}

#[test]
fn killed_servers_lose_no_acknowledged_turn_and_the_index_catches_every_one_up() {
    let sb = Sandbox::new();
    let mut acked = Vec::new();
    for (round, kill_after) in [(0, 14), (1, 9), (2, 17)] {
        acked.extend(crash_round(&sb, round, kill_after));
    }
    // In the files, once each.
    let mut stored: HashMap<String, usize> = HashMap::new();
    let dir = sb.home().join("memory/episodes/crash");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        files += 1;
        for line in std::fs::read_to_string(entry.unwrap().path())
            .unwrap()
            .lines()
        {
            let turn: Value = serde_json::from_str(line).expect("no torn line");
            let token = turn["content"].as_str().unwrap().split(' ').next().unwrap();
            *stored.entry(token.to_string()).or_default() += 1;
        }
    }
    assert!(files >= 3, "the episodes rolled over: {files} files");
    assert!(stored.values().all(|&n| n == 1), "a turn stored twice");
    let missing: Vec<&String> = acked.iter().filter(|t| !stored.contains_key(*t)).collect();
    assert!(
        missing.is_empty(),
        "acknowledged but not stored: {missing:?}"
    );
    // One search catches the index up; then it holds every stored turn.
    assert_eq!(search_ids(&sb, &acked[0]).len(), 1);
    let db = rusqlite::Connection::open(sb.home().join("index/search.db")).unwrap();
    let indexed: usize = db
        .query_row(
            "SELECT count(*) FROM docs WHERE session = 'crash'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        indexed,
        stored.len(),
        "turns in the files but not in the index"
    );
    for token in acked.iter().step_by(97) {
        assert_eq!(search_ids(&sb, token).len(), 1, "{token}");
    }
}
