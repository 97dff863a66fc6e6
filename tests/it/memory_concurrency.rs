//! 32 writers at once — 16 `track record` CLI processes and 16 `memory_mcp`
//! servers calling `mem_save_turn` — 200 turns each: all 6,400 turns are stored
//! exactly once, none torn, and every one is findable by search.

use crate::common;

use agentbox::home::Home;
use agentbox::search::{Index, Query};
use common::{Sandbox, bin, live_server};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, Write};

const WRITERS_PER_KIND: usize = 16;
const TURNS: usize = 200;

/// A unique, searchable token per turn ("zq" + letters only, so the tokenizer
/// keeps it whole and the stemmer leaves it alone).
fn token(writer: usize, turn: usize) -> String {
    let mut n = writer * 1000 + turn;
    let mut s = String::from("zq");
    for _ in 0..4 {
        s.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    s
}

fn cli_writer(sb: &Sandbox, w: usize) -> usize {
    let mut acked = 0;
    for t in 0..TURNS {
        let out = sb
            .std_command(bin())
            .args([
                "track",
                "record",
                "--session",
                &format!("cli{w}"),
                "--role",
                "user",
                "--content",
            ])
            .arg(format!("cli writer {w} turn {t} {}", token(w, t)))
            .args(["--format", "json"])
            .output()
            .unwrap();
        let env: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(env["ok"], true, "cli writer {w} turn {t}: {out:?}");
        acked += 1;
    }
    acked
}

fn mcp_writer(sb: &Sandbox, w: usize) -> usize {
    let (mut child, mut stdin, mut stdout) = live_server(sb);
    let mut call = |id: usize, method: &str, params: Value| -> Value {
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{frame}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    call(
        0,
        "initialize",
        json!({"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    let mut acked = 0;
    for t in 0..TURNS {
        let content = format!("mcp writer {w} turn {t} {}", token(100 + w, t));
        let reply = call(
            t + 1,
            "tools/call",
            json!({"name": "mem_save_turn", "arguments": {"sessionKey": format!("mcp{w}"), "role": "user", "content": content}}),
        );
        let result = &reply["result"];
        assert_ne!(result["isError"], true, "mcp writer {w} turn {t}: {reply}");
        let status: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(status["status"], "saved", "{status}");
        acked += 1;
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    acked
}

#[test]
fn thirty_two_writers_lose_and_tear_nothing() {
    let sb = Sandbox::new();
    let acked: usize = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for w in 0..WRITERS_PER_KIND {
            let sb = &sb;
            handles.push(scope.spawn(move || cli_writer(sb, w)));
            handles.push(scope.spawn(move || mcp_writer(sb, w)));
        }
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(acked, 2 * WRITERS_PER_KIND * TURNS);

    // Every line of every episode file is whole JSON; every turn is there once.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let episodes = sb.home().join("memory/episodes");
    for session in std::fs::read_dir(&episodes).unwrap() {
        for file in std::fs::read_dir(session.unwrap().path()).unwrap() {
            let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
            for line in text.lines() {
                let turn: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("torn line {line:?}: {e}"));
                *seen
                    .entry(turn["content"].as_str().unwrap().to_string())
                    .or_default() += 1;
            }
        }
    }
    assert_eq!(seen.len(), 2 * WRITERS_PER_KIND * TURNS);
    assert!(seen.values().all(|&n| n == 1), "a turn was stored twice");

    // Findable by search, without a reindex.
    agentbox::registry::install();
    let home = Home::open(sb.home()).unwrap();
    let mut index = Index::open(&home).unwrap();
    let mut missing = Vec::new();
    for (base, prefix) in [(0, "cli"), (100, "mcp")] {
        for w in 0..WRITERS_PER_KIND {
            for t in 0..TURNS {
                let q = Query {
                    text: token(base + w, t),
                    kinds: vec!["turn".to_string()],
                    limit: 3,
                    ..Query::default()
                };
                let hits = index.search(&q).unwrap();
                if hits.len() != 1 || hits[0].session.as_deref() != Some(&format!("{prefix}{w}")) {
                    missing.push(format!("{prefix}{w}/{t}: {hits:?}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} not findable, e.g. {:?}",
        missing.len(),
        &missing[..missing.len().min(3)]
    );
}
