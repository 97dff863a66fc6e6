//! The memory MCP server over its real transport: the binary (through its
//! `.agent/tools/memory_mcp` link and as `agentbox memory_mcp`), raw
//! JSON-RPC lines on stdin, reply lines on stdout. Every rule of issue 3
//! item 5 and of odek-extension/v1 has a test here (docs/MCP.md).

use crate::common;

use common::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// How long a reply may take before the test fails instead of hanging.
const REPLY_TIMEOUT: Duration = Duration::from_secs(120);

/// A running server.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: std::thread::JoinHandle<String>,
    next_id: i64,
}

/// Every stdout line must be one JSON-RPC 2.0 reply: an id (or null) and
/// exactly one of result/error.
fn check_frame(line: &str) -> Value {
    let value: Value = serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "stdout line is not JSON ({e}): {:?}",
            &line[..line.len().min(300)]
        )
    });
    assert_eq!(value["jsonrpc"], "2.0", "{value}");
    assert!(value.get("id").is_some(), "reply without id: {value}");
    assert!(
        value.get("result").is_some() != value.get("error").is_some(),
        "a reply holds exactly one of result/error: {value}"
    );
    if let Some(error) = value.get("error") {
        assert!(
            error["code"].is_i64() && error["message"].is_string(),
            "{value}"
        );
    }
    assert!(line.len() < 10 * 1024 * 1024, "reply line over 10 MiB");
    value
}

impl Mcp {
    fn spawn(mut cmd: Command) -> Mcp {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Mcp {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            next_id: 100,
        }
    }

    /// Through the link, from the project folder.
    fn link(sb: &Sandbox) -> Mcp {
        Mcp::spawn(sb.std_command(sb.home().join("tools").join("memory_mcp")))
    }

    /// Through the link, initialized with `version`.
    fn ready(sb: &Sandbox, version: &str) -> Mcp {
        let mut mcp = Mcp::link(sb);
        let result = mcp.request("initialize", json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}));
        assert_eq!(result["protocolVersion"], version);
        mcp.notify("notifications/initialized", json!({}));
        mcp
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.flush().unwrap();
    }

    fn send(&mut self, value: &Value) {
        self.send_raw(format!("{value}\n").as_bytes());
    }

    fn recv(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(REPLY_TIMEOUT)
            .expect("a reply line within the timeout");
        check_frame(&line)
    }

    /// Sends a request and returns the whole reply (checking its id).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let reply = self.recv();
        assert_eq!(reply["id"], id, "reply to another request: {reply}");
        reply
    }

    /// A request that must succeed; its result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let reply = self.call(method, params);
        assert!(reply.get("error").is_none(), "{method} failed: {reply}");
        reply["result"].clone()
    }

    /// A request that must fail with `code`; its error object.
    fn request_error(&mut self, method: &str, params: Value, code: i64) -> Value {
        let reply = self.call(method, params);
        assert_eq!(reply["error"]["code"], code, "{method}: {reply}");
        reply["error"].clone()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// `tools/call`: the result (content, isError, structuredContent).
    fn tool(&mut self, name: &str, args: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": args}))
    }

    /// A tool call that must succeed; its text.
    fn tool_text(&mut self, name: &str, args: Value) -> String {
        let result = self.tool(name, args.clone());
        assert_ne!(result["isError"], true, "{name} {args} failed: {result}");
        text_of(&result)
    }

    /// A save tool's JSON status.
    fn save(&mut self, name: &str, args: Value) -> (Value, bool) {
        let result = self.tool(name, args);
        let status: Value = serde_json::from_str(&text_of(&result)).expect("save result is JSON");
        (status, result["isError"] == true)
    }

    /// Closes stdin and waits: (stdout lines left, stderr, exit code).
    fn finish(mut self) -> (Vec<String>, String, i32) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait");
        let rest: Vec<String> = self.lines.iter().collect();
        for line in &rest {
            check_frame(line);
        }
        let stderr = self.stderr.join().unwrap();
        (rest, stderr, status.code().unwrap_or(-1))
    }

    /// Pings, so every earlier line has been handled, and checks that
    /// nothing else was answered in between.
    fn sync(&mut self) {
        let result = self.request("ping", json!({}));
        assert_eq!(result, json!({}));
    }
}

fn text_of(result: &Value) -> String {
    let content = result["content"].as_array().expect("content array");
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text");
    content[0]["text"].as_str().unwrap().to_string()
}

/// Writes `config.json` of the sandbox home with an `mcp` section.
fn set_mcp_config(sb: &Sandbox, mcp: Value) {
    let config = json!({"schema": "agentbox.config/v1", "mcp": mcp});
    std::fs::write(sb.home().join("config.json"), config.to_string()).unwrap();
}

/// All file contents under `dir`, concatenated (for "never stored" checks).
fn all_text(dir: &std::path::Path) -> String {
    let mut out = String::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.push_str(&all_text(&path));
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    out
}

// ------------------------------------------------------------ handshake

#[test]
fn initialize_echoes_each_supported_version_and_answers_the_latest_otherwise() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::link(&sb);
    for (asked, answered) in [
        (json!("2024-11-05"), "2024-11-05"),
        (json!("2025-03-26"), "2025-03-26"),
        (json!("2025-06-18"), "2025-06-18"),
        (json!("2025-11-25"), "2025-11-25"),
        (json!("1999-01-01"), "2025-11-25"),
        (json!("2099-12-31"), "2025-11-25"),
        (json!(42), "2025-11-25"),
    ] {
        let result = mcp.request(
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        );
        assert_eq!(result["protocolVersion"], answered, "asked {asked}");
        assert_eq!(
            result["capabilities"],
            json!({"tools": {"listChanged": false}, "resources": {"subscribe": false, "listChanged": false}})
        );
        assert_eq!(result["serverInfo"]["name"], "agentbox-memory");
        assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert!(
            result["instructions"]
                .as_str()
                .unwrap()
                .contains("mem_context")
        );
    }
    // initialize without params still answers
    let result = mcp.request("initialize", Value::Null);
    assert_eq!(result["protocolVersion"], "2025-11-25");
    let (rest, _, code) = mcp.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(code, 0);
}

#[test]
fn odek_handshake_as_odek_sends_it() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::link(&sb);
    mcp.send_raw(
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"odek\",\"version\":\"0.9.0\"}}}\n",
    );
    let reply = mcp.recv();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["result"]["protocolVersion"], "2025-03-26");
    mcp.send_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    mcp.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n");
    let reply = mcp.recv();
    assert_eq!(reply["id"], 2);
    let tools = reply["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "mem_context",
            "mem_search",
            "mem_save_turn",
            "mem_save_fact"
        ]
    );
    for tool in tools {
        // 2025-03-26 has annotations but not titles or output schemas
        assert!(tool["annotations"].is_object(), "{tool}");
        assert!(
            tool.get("outputSchema").is_none() && tool.get("title").is_none(),
            "{tool}"
        );
    }
    mcp.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n");
    let reply = mcp.recv();
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": 3, "result": {}}));
    mcp.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":\"s-4\",\"method\":\"tools/call\",\"params\":{\"name\":\"mem_search\",\"arguments\":{\"query\":\"anything\"}}}\n");
    let reply = mcp.recv();
    assert_eq!(reply["id"], "s-4", "string ids are echoed");
    assert!(reply["result"].get("structuredContent").is_none());
    let (rest, stderr, code) = mcp.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn notifications_and_responses_get_no_reply() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    mcp.notify("notifications/initialized", json!({}));
    mcp.notify(
        "notifications/cancelled",
        json!({"requestId": 7, "reason": "user"}),
    );
    mcp.notify("notifications/whatever", json!({}));
    mcp.notify("tools/list", json!({})); // a known method sent as a notification
    mcp.send(&json!({"jsonrpc": "2.0", "method": "no/such/method"}));
    mcp.send(&json!({"jsonrpc": "2.0", "id": 55, "result": {}})); // a response
    mcp.send(&json!({"jsonrpc": "2.0", "id": 56, "error": {"code": 1, "message": "x"}}));
    mcp.send_raw(b"\n   \n\r\n");
    mcp.sync();
    let (rest, _, code) = mcp.finish();
    assert!(rest.is_empty(), "unexpected replies: {rest:?}");
    assert_eq!(code, 0);
}

#[test]
fn tools_list_names_schemas_and_annotations_by_version() {
    let sb = Sandbox::new();
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut mcp = Mcp::ready(&sb, version);
        let tools = mcp.request("tools/list", json!({}))["tools"].clone();
        let tools = tools.as_array().unwrap();
        assert_eq!(tools.len(), 4);
        for tool in tools {
            let name = tool["name"].as_str().unwrap();
            assert!((1..=64).contains(&name.len()), "{name}");
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
                "{name}"
            );
            assert!(!name.contains("__"), "{name}");
            assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
            assert!(tool["description"].as_str().unwrap().len() > 20);
            let structured = version >= "2025-06-18";
            assert_eq!(tool.get("title").is_some(), structured, "{version} {tool}");
            if version == "2024-11-05" {
                assert!(tool.get("annotations").is_none(), "{tool}");
                continue;
            }
            let a = &tool["annotations"];
            assert_eq!(a["openWorldHint"], false, "{tool}");
            match name {
                "mem_context" | "mem_search" => {
                    assert_eq!(a["readOnlyHint"], true, "{tool}");
                    assert!(tool.get("outputSchema").is_none());
                    assert_eq!(tool["inputSchema"]["required"], json!(["query"]));
                }
                "mem_save_turn" | "mem_save_fact" => {
                    assert_eq!(a["readOnlyHint"], false, "{tool}");
                    assert_eq!(a["destructiveHint"], false, "{tool}");
                    assert_eq!(a["idempotentHint"], name == "mem_save_fact", "{tool}");
                    assert_eq!(tool.get("outputSchema").is_some(), structured, "{tool}");
                }
                other => panic!("unexpected tool {other}"),
            }
        }
        mcp.finish();
    }
}

// ------------------------------------------------------------ tools

#[test]
fn save_turn_forms_statuses_and_search() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let messages = json!([
        {"role": "user", "content": "How should I format Go code in this repo?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Run gofmt on save."}],
         "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "gofmt -l ."}}]},
        {"role": "tool", "content": "main.go", "toolCallId": "c1", "extraField": {"ignored": true}}
    ]);
    let args = json!({"messages": messages, "sessionKey": "go-work", "unknownArg": [1, 2]});
    let result = mcp.tool("mem_save_turn", args.clone());
    assert_ne!(result["isError"], true, "{result}");
    let status: Value = serde_json::from_str(&text_of(&result)).unwrap();
    assert_eq!(status["saved"], true);
    assert_eq!(status["status"], "saved");
    assert_eq!(status["messageCount"], 3);
    assert_eq!(status["flushed"], false);
    assert_eq!(status["extracted"], 0);
    assert_eq!(status["profileUpdated"], false);
    assert_eq!(status["sessionKey"], "go-work");
    let episode = status["episode"].as_str().unwrap().to_string();
    assert!(episode.starts_with("ep-"), "{status}");
    assert_eq!(status["ids"].as_array().unwrap().len(), 3);
    assert_eq!(
        result["structuredContent"], status,
        "2025-06-18 carries structuredContent"
    );

    // the same messages again: a duplicate, nothing written twice
    let (again, is_error) = mcp.save("mem_save_turn", args);
    assert!(!is_error);
    assert_eq!(again["status"], "duplicate");
    assert_eq!(again["saved"], false);
    assert_eq!(again["episode"], episode.as_str());

    // legacy forms: role + content, role + text, toolCallId; default session
    let (legacy, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "user", "content": "remember the zebra crossing"}),
    );
    assert_eq!(legacy["status"], "saved");
    assert_eq!(legacy["sessionKey"], "default");
    assert_eq!(legacy["messageCount"], 1);
    let (legacy, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "assistant", "text": "noted: zebra"}),
    );
    assert_eq!(legacy["status"], "saved");
    let (legacy, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "tool", "content": "ok", "toolCallId": "c9", "flush": true}),
    );
    assert_eq!(legacy["status"], "saved");
    assert_eq!(legacy["flushed"], true);
    let default_dir = sb.home().join("memory/episodes/default");
    let files: Vec<String> = std::fs::read_dir(&default_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        files
            .iter()
            .any(|f| f.ends_with(".jsonl") && !f.ends_with(".open.jsonl")),
        "{files:?}"
    );
    let stored = all_text(&default_dir);
    assert!(
        stored.contains("\"tool_call_id\":\"c9\"") && stored.contains("zebra crossing"),
        "{stored}"
    );

    // flush alone closes the open episode of a session
    let (flushed, _) = mcp.save(
        "mem_save_turn",
        json!({"sessionKey": "go-work", "flush": true}),
    );
    assert_eq!(flushed["status"], "flushed");
    assert_eq!(flushed["flushed"], true);
    assert_eq!(flushed["episode"], episode.as_str());
    let (flushed, _) = mcp.save(
        "mem_save_turn",
        json!({"sessionKey": "go-work", "flush": true}),
    );
    assert_eq!(
        flushed["flushed"], false,
        "nothing left to flush: {flushed}"
    );

    // saved turns are searchable at once, flushed or not
    let text = mcp.tool_text("mem_search", json!({"query": "how do I format go code?"}));
    assert!(text.contains(&format!("`{episode}#")), "{text}");
    assert!(
        text.contains("turn") && text.contains("2026-01-15T09:30:00Z"),
        "{text}"
    );
    let text = mcp.tool_text("mem_context", json!({"query": "zebra"}));
    for section in ["## Preferences", "## Profile", "## Foresight", "## Matches"] {
        assert!(text.contains(section), "{section} in {text}");
    }
    assert!(
        text.contains("zebra crossing") && text.contains("#1`"),
        "{text}"
    );
    mcp.finish();
}

#[test]
fn save_turn_failures_are_tool_errors_that_name_the_problem() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    for (args, needle) in [
        (json!({}), "nothing to save"),
        (json!({"sessionKey": "s"}), "nothing to save"),
        (json!({"messages": []}), "empty"),
        (json!({"messages": "hello"}), "messages"),
        (
            json!({"messages": [{"content": "no role"}]}),
            "messages[0].role",
        ),
        (
            json!({"messages": [{"role": "user", "content": "a"}, {"role": "robot", "content": "b"}]}),
            "messages[1].role",
        ),
        (
            json!({"messages": [{"role": "user", "content": 42}]}),
            "messages[0].content",
        ),
        (json!({"role": "user", "content": 7}), "content"),
        (json!({"role": 5, "content": "x"}), "role"),
        (
            json!({"role": "user", "content": "x", "sessionKey": "../escape"}),
            "session",
        ),
        (
            json!({"role": "user", "content": "x", "sessionKey": "a\u{2028}b"}),
            "separator",
        ),
        (
            json!({"role": "user", "content": "x", "flush": "maybe"}),
            "flush",
        ),
    ] {
        let result = mcp.tool("mem_save_turn", args.clone());
        assert_eq!(result["isError"], true, "{args}: {result}");
        let status: Value = serde_json::from_str(&text_of(&result)).unwrap();
        assert_eq!(status["status"], "rejected", "{args}: {status}");
        assert_eq!(status["saved"], false);
        let message = status["error"].as_str().unwrap();
        assert!(
            message.contains(needle),
            "{args}: {needle:?} not in {message:?}"
        );
    }
    // nothing was stored by any of them
    assert_eq!(all_text(&sb.home().join("memory/episodes")), "");
    // and the server still serves
    mcp.sync();
    mcp.finish();
}

#[test]
fn both_save_turn_forms_count_a_rejected_message_alike() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    let (legacy, is_error) = mcp.save("mem_save_turn", json!({"role": "robot", "content": "beep"}));
    assert!(is_error, "{legacy}");
    let (listed, is_error) = mcp.save(
        "mem_save_turn",
        json!({"messages": [{"role": "robot", "content": "beep"}]}),
    );
    assert!(is_error, "{listed}");
    for status in [&legacy, &listed] {
        assert_eq!(status["status"], "rejected", "{status}");
        assert_eq!(status["messageCount"], 1, "{status}");
        assert!(
            status["error"].as_str().unwrap().contains("robot"),
            "{status}"
        );
    }
    // an empty messages[] next to the legacy fields does not count
    let (status, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "robot", "content": "beep", "messages": []}),
    );
    assert_eq!(status["messageCount"], 1, "{status}");
    mcp.finish();
}

#[test]
fn a_duplicate_fact_is_counted_as_one_and_a_bad_section_gets_a_hint() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    let (status, _) = mcp.save("mem_save_fact", json!({"fact": "Name is Ada."}));
    assert_eq!(status["status"], "saved", "{status}");
    assert_eq!(status["savedCount"], 1, "{status}");
    assert_eq!(status["duplicateCount"], 0, "{status}");
    assert_eq!(status["facts"], json!(["Name is Ada."]));
    let (status, is_error) = mcp.save("mem_save_fact", json!({"fact": "name is ada"}));
    assert!(!is_error, "{status}");
    assert_eq!(status["status"], "duplicate", "{status}");
    assert_eq!(status["saved"], false);
    assert_eq!(status["extracted"], 1);
    assert_eq!(status["savedCount"], 0, "{status}");
    assert_eq!(status["duplicateCount"], 1, "{status}");
    assert_eq!(status["facts"], json!([]));
    assert_eq!(status["duplicates"], json!(["name is ada"]));
    // one new, one known
    let (status, _) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Name is Ada.", "messages": [{"role": "user", "content": "I work at Example Corp."}]}),
    );
    assert_eq!(status["status"], "saved", "{status}");
    assert_eq!(status["extracted"], 2);
    assert_eq!(
        (&status["savedCount"], &status["duplicateCount"]),
        (&json!(1), &json!(1)),
        "{status}"
    );
    // nothing qualifies: zero of each
    let (status, _) = mcp.save(
        "mem_save_fact",
        json!({"messages": [{"role": "user", "content": "What time is it?"}]}),
    );
    assert_eq!(status["status"], "no_extraction", "{status}");
    assert_eq!(
        (&status["savedCount"], &status["duplicateCount"]),
        (&json!(0), &json!(0)),
        "{status}"
    );
    // a bad section: the hint names the valid ones
    let (status, is_error) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Likes chess.", "section": "hobbies"}),
    );
    assert!(is_error, "{status}");
    assert_eq!(status["status"], "rejected");
    let hint = status["hint"].as_str().unwrap();
    assert!(
        hint.contains("preferences") && hint.contains("facts"),
        "{status}"
    );
    mcp.finish();
}

#[test]
fn save_fact_statuses_and_tool_roles_refused() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let (status, is_error) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Works on the billing service.", "extra": 1}),
    );
    assert!(!is_error, "{status}");
    assert_eq!(status["saved"], true);
    assert_eq!(status["status"], "saved");
    assert_eq!(status["profileUpdated"], true);
    assert_eq!(status["extracted"], 1);
    let (status, _) = mcp.save(
        "mem_save_fact",
        json!({"fact": "works on the billing service"}),
    );
    assert_eq!(status["status"], "duplicate", "{status}");
    assert_eq!(status["saved"], false);
    assert_eq!(status["profileUpdated"], false);

    // a stated preference goes under Preferences, a section can be forced
    let (status, _) = mcp.save(
        "mem_save_fact",
        json!({"fact": "I prefer tabs over spaces."}),
    );
    assert_eq!(status["status"], "saved");
    let (status, _) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Dark roast only", "section": "preferences"}),
    );
    assert_eq!(status["status"], "saved");

    // messages: only user and assistant statements count
    let (status, is_error) = mcp.save(
        "mem_save_fact",
        json!({"messages": [
            {"role": "user", "content": "My name is Ada and I work at Example Corp."},
            {"role": "assistant", "content": "Nice to meet you."}
        ]}),
    );
    assert!(!is_error);
    assert_eq!(status["status"], "saved", "{status}");
    assert_eq!(status["messageCount"], 2);
    assert_eq!(status["extracted"], 2);
    assert_eq!(
        status["facts"],
        json!(["Name is Ada.", "Works at Example Corp."])
    );

    // nothing qualifies: no_extraction, honestly not saved (and not a failure)
    let result = mcp.tool(
        "mem_save_fact",
        json!({"messages": [{"role": "user", "content": "What time is it?"}, {"role": "assistant", "content": "Noon."}]}),
    );
    assert_ne!(result["isError"], true);
    let status: Value = serde_json::from_str(&text_of(&result)).unwrap();
    assert_eq!(status["status"], "no_extraction");
    assert_eq!(status["saved"], false);
    assert_eq!(status["extracted"], 0);
    assert_eq!(status["profileUpdated"], false);

    // tool, system and function roles are refused outright
    for role in ["tool", "system", "function"] {
        let (status, is_error) = mcp.save(
            "mem_save_fact",
            json!({"messages": [{"role": "user", "content": "I prefer vim."}, {"role": role, "content": "I prefer emacs."}]}),
        );
        assert!(is_error, "{role}: {status}");
        assert_eq!(status["status"], "rejected");
        assert_eq!(status["saved"], false);
        assert!(
            status["error"].as_str().unwrap().contains("messages[1]"),
            "{status}"
        );
    }
    for args in [
        json!({}),
        json!({"fact": ""}),
        json!({"fact": 3}),
        json!({"fact": "x", "section": "hobbies"}),
    ] {
        let (status, is_error) = mcp.save("mem_save_fact", args.clone());
        assert!(is_error, "{args}: {status}");
        assert_eq!(status["status"], "rejected");
    }

    let profile = std::fs::read_to_string(sb.home().join("memory/personal/PROFILE.md")).unwrap();
    assert!(
        !profile.contains("vim") && !profile.contains("emacs"),
        "{profile}"
    );
    let context = mcp.tool_text("mem_context", json!({"query": ""}));
    let prefs = context.split("## Profile").next().unwrap();
    assert!(
        prefs.contains("I prefer tabs over spaces.") && prefs.contains("Dark roast only"),
        "{context}"
    );
    let facts = context.split("## Profile").nth(1).unwrap();
    assert!(
        facts.contains("Works on the billing service.") && facts.contains("Name is Ada."),
        "{context}"
    );
    assert!(context.contains("## Foresight\n(none)"), "{context}");
    assert!(context.contains("## Matches\n(no query)"), "{context}");
    // facts are searchable
    let text = mcp.tool_text("mem_search", json!({"query": "where does Ada work?"}));
    assert!(
        text.contains("Example Corp") && text.contains("fact"),
        "{text}"
    );
    mcp.finish();
}

#[test]
fn top_k_defaults_caps_and_tolerates_junk() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-03-26");
    let messages: Vec<Value> = (0..60)
        .map(|i| json!({"role": "user", "content": format!("walrus fact number {i}")}))
        .collect();
    let (status, _) = mcp.save("mem_save_turn", json!({"messages": messages}));
    assert_eq!(status["ids"].as_array().unwrap().len(), 60);
    let count = |text: &str| {
        text.lines()
            .filter(|l| {
                l.split_once(". `")
                    .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
            })
            .count()
    };
    for (top_k, want) in [
        (json!(3), 3),
        (json!(0), 5),
        (json!(-3), 5),
        (json!("x"), 5),
        (json!(2.5), 5),
        (json!(null), 5),
        (json!(500), 50),
        (json!(50), 50),
        (json!("7"), 7),
        // a string is read like a JSON number (resource URIs only have strings)
        (json!("3.0"), 3),
        (json!("1e1"), 10),
        (json!("99999999999999999999"), 50),
        (json!(1e30), 50),
        (json!("inf"), 5),
        (json!("NaN"), 5),
    ] {
        let text = mcp.tool_text("mem_search", json!({"query": "walrus", "topK": top_k}));
        assert_eq!(count(&text), want, "topK {top_k}: {text}");
    }
    let text = mcp.tool_text("mem_search", json!({"query": "walrus"}));
    assert_eq!(count(&text), 5);
    let text = mcp.tool_text("mem_context", json!({"query": "walrus", "topK": 2}));
    assert_eq!(count(&text), 2, "{text}");
    mcp.finish();
}

#[test]
fn read_tool_failures_are_tool_errors() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    for (name, args) in [
        ("mem_search", json!({})),
        ("mem_search", json!({"query": "   "})),
        ("mem_search", json!({"query": 12})),
        ("mem_context", json!({})),
        ("mem_context", json!({"query": ["a"]})),
    ] {
        let result = mcp.tool(name, args.clone());
        assert_eq!(result["isError"], true, "{name} {args}: {result}");
        assert!(text_of(&result).starts_with("error: query"), "{result}");
    }
    // a corrupt PROFILE.md is reported (naming the file) where the profile
    // would be, and the matches still come
    std::fs::write(
        sb.home().join("memory/personal/PROFILE.md"),
        b"## Facts\n- a\0b\n",
    )
    .unwrap();
    let result = mcp.tool("mem_context", json!({"query": "x"}));
    assert_ne!(result["isError"], true, "{result}");
    let text = text_of(&result);
    assert!(
        text.contains("(unreadable: ") && text.contains("PROFILE.md"),
        "{text}"
    );
    assert!(text.contains("## Matches"), "{text}");
    mcp.sync();
    mcp.finish();
}

// ------------------------------------------------------------ resources

#[test]
fn resources_list_templates_and_read() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let list = mcp.request("resources/list", json!({}));
    // the server's own first, then the tools' (mem://persona: tests/it/persona.rs)
    assert_eq!(list["resources"][0]["uri"], "mem://profile");
    assert_eq!(list["resources"][0]["mimeType"], "text/markdown");
    let templates = mcp.request("resources/templates/list", json!({}));
    assert_eq!(
        templates["resourceTemplates"][0]["uriTemplate"],
        "mem://search?q={query}&topK={topK}"
    );

    mcp.save(
        "mem_save_fact",
        json!({"fact": "I prefer tabs over spaces."}),
    );
    let turns: Vec<Value> = (0..8)
        .map(
            |i| json!({"role": "user", "content": format!("deploy the gateway service, step {i}")}),
        )
        .collect();
    mcp.save("mem_save_turn", json!({"messages": turns}));

    let read = mcp.request("resources/read", json!({"uri": "mem://profile"}));
    let contents = &read["contents"][0];
    assert_eq!(contents["uri"], "mem://profile");
    assert_eq!(contents["mimeType"], "text/markdown");
    let text = contents["text"].as_str().unwrap();
    assert!(
        text.contains("## Preferences\n- I prefer tabs over spaces."),
        "{text}"
    );
    assert_eq!(
        text,
        mcp.tool_text("mem_context", json!({"query": ""})),
        "mem://profile is mem_context with an empty query"
    );

    let hits = |text: &str| text.lines().filter(|l| l.contains(". `")).count();
    for (uri, want) in [
        ("mem://search?q=gateway&topK=3", 3),
        ("mem://search?query=gateway&top_k=2", 2),
        ("mem://search?q=deploy+the%20gateway", 5),
        ("mem://search?q=gateway&topK=0", 5),
        ("mem://search?q=gateway&topK=abc", 5),
        ("mem://search?q=gateway&topK=999", 8),
        ("mem://search?q=gateway&topK=3.0", 3),
        ("mem://search?q=gateway&topK=99999999999999999999", 8),
        // an empty q= (a template filled with nothing) does not hide query=
        ("mem://search?q=&query=gateway&topK=2", 2),
        // repeated parameters: the first non-empty value counts
        ("mem://search?q=gateway&q=nothing-matches-this&topK=1", 1),
        ("mem://search?q=gateway&topK=&topK=4&top_k=1", 4),
    ] {
        let read = mcp.request("resources/read", json!({"uri": uri}));
        let contents = &read["contents"][0];
        assert_eq!(contents["uri"], uri);
        assert_eq!(contents["mimeType"], "text/markdown");
        let text = contents["text"].as_str().unwrap();
        assert_eq!(hits(text), want, "{uri}: {text}");
        assert!(text.contains("gateway"), "{text}");
    }
    // resources/read gives the same markdown as mem_search
    let read = mcp.request(
        "resources/read",
        json!({"uri": "mem://search?q=gateway&topK=4"}),
    );
    assert_eq!(
        read["contents"][0]["text"].as_str().unwrap(),
        mcp.tool_text("mem_search", json!({"query": "gateway", "topK": 4}))
    );

    // empty or missing query: -32603; unknown URI: -32002; no uri: -32602
    for uri in [
        "mem://search?q=",
        "mem://search",
        "mem://search?topK=3",
        "mem://search?q=+%20",
    ] {
        let error = mcp.request_error("resources/read", json!({"uri": uri}), -32603);
        assert!(
            error["message"].as_str().unwrap().contains("query"),
            "{error}"
        );
    }
    for uri in [
        "mem://nope",
        "mem://",
        "file:///etc/passwd",
        "https://example.com/",
        "",
    ] {
        let error = mcp.request_error("resources/read", json!({"uri": uri}), -32002);
        assert_eq!(error["data"]["uri"], uri, "{error}");
    }
    mcp.request_error("resources/read", json!({}), -32602);
    mcp.request_error("resources/read", json!({"uri": 5}), -32602);
    mcp.sync();
    mcp.finish();
}

// ------------------------------------------------------------ framing and errors

#[test]
fn malformed_frames_are_answered_and_serving_continues() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-03-26");
    let expect = |mcp: &mut Mcp, raw: &[u8], id: Value, code: i64| {
        mcp.send_raw(raw);
        let reply = mcp.recv();
        assert_eq!(reply["id"], id, "{}: {reply}", String::from_utf8_lossy(raw));
        assert_eq!(
            reply["error"]["code"],
            code,
            "{}: {reply}",
            String::from_utf8_lossy(raw)
        );
    };
    expect(&mut mcp, b"{not json\n", Value::Null, -32700);
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"\n",
        Value::Null,
        -32700,
    );
    expect(&mut mcp, b"\xff\xfe\xfd\n", Value::Null, -32700);
    expect(&mut mcp, b"[]\n", Value::Null, -32600);
    expect(&mut mcp, b"42\n", Value::Null, -32600);
    expect(&mut mcp, b"\"ping\"\n", Value::Null, -32600);
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":5}\n",
        json!(5),
        -32600,
    );
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":7}\n",
        json!(6),
        -32600,
    );
    expect(
        &mut mcp,
        b"{\"id\":7,\"method\":\"ping\"}\n",
        json!(7),
        -32600,
    );
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n",
        Value::Null,
        -32600,
    );
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}\n",
        Value::Null,
        -32600,
    );
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"no/such\"}\n",
        json!(8),
        -32601,
    );
    expect(&mut mcp, b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"mem://profile\"}}\n", json!(9), -32601);
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":[1]}\n",
        json!(10),
        -32602,
    );
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{}}\n",
        json!(11),
        -32602,
    );
    expect(&mut mcp, b"{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"mem_search\",\"arguments\":\"q\"}}\n", json!(12), -32602);
    expect(
        &mut mcp,
        b"{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"initialize\",\"params\":\"x\"}\n",
        json!(13),
        -32602,
    );
    // an unknown tool is a protocol error (-32602), as the MCP spec shows
    let error = mcp.request_error(
        "tools/call",
        json!({"name": "mem_delete_everything", "arguments": {}}),
        -32602,
    );
    assert!(
        error["message"].as_str().unwrap().contains("Unknown tool"),
        "{error}"
    );
    let error = mcp.request_error("tools/call", json!({"name": "mem__search"}), -32602);
    assert!(error["data"]["available"].is_array(), "{error}");
    // a deeply nested value is a parse error, not a stack overflow
    let mut deep = "[".repeat(100_000).into_bytes();
    deep.push(b'\n');
    expect(&mut mcp, &deep, Value::Null, -32700);
    mcp.sync();
    let (rest, _, code) = mcp.finish();
    assert!(rest.is_empty());
    assert_eq!(code, 0);
}

#[test]
fn params_that_are_not_an_object_are_refused_for_every_method() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    for (method, params) in [
        ("ping", json!([])),
        ("ping", json!("x")),
        ("tools/list", json!([1])),
        ("resources/list", json!(5)),
        ("resources/templates/list", json!(true)),
        ("resources/read", json!(["mem://profile"])),
        ("tools/call", json!([])),
        ("initialize", json!([])),
    ] {
        let error = mcp.request_error(method, params.clone(), -32602);
        assert!(
            error["message"].as_str().unwrap().contains("params"),
            "{method} {params}: {error}"
        );
    }
    // absent or null params are no params
    assert_eq!(mcp.request("ping", Value::Null), json!({}));
    mcp.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    assert_eq!(mcp.recv()["result"], json!({}));
    // a notification with bad params still gets no reply
    mcp.notify("notifications/initialized", json!([]));
    mcp.sync();
    let (rest, _, code) = mcp.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(code, 0);
}

/// One raw reply line (a batch reply is an array, which `recv` refuses).
fn recv_line(mcp: &mut Mcp) -> Value {
    let line = mcp
        .lines
        .recv_timeout(REPLY_TIMEOUT)
        .expect("a reply line within the timeout");
    assert!(line.len() < 10 * 1024 * 1024, "reply line over 10 MiB");
    serde_json::from_str(&line).expect("a JSON reply line")
}

#[test]
fn batches_are_answered_in_2025_03_26_and_refused_from_2025_06_18() {
    let sb = Sandbox::new();
    // 2025-03-26 (odek's version) requires servers to receive batches
    for version in ["2024-11-05", "2025-03-26"] {
        let mut mcp = Mcp::ready(&sb, version);
        let batch = json!([
            {"jsonrpc": "2.0", "id": "a", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 0, "method": "tools/call",
             "params": {"name": "mem_save_turn", "arguments": {"role": "user", "content": "batched walrus"}}},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "mem_search", "arguments": {"query": "walrus"}}},
            {"foo": 1},
            {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}},
            {"jsonrpc": "2.0", "id": 4, "method": "no/such"},
            [],
            {"jsonrpc": "2.0", "id": 9, "result": {}}
        ]);
        mcp.send(&batch);
        let reply = recv_line(&mut mcp);
        let replies = reply.as_array().unwrap_or_else(|| panic!("{reply}"));
        // one reply per request, in order; none for the notification and the response
        let ids: Vec<&Value> = replies.iter().map(|r| &r["id"]).collect();
        assert_eq!(
            ids,
            [
                &json!("a"),
                &json!(0),
                &json!(2),
                &Value::Null,
                &json!(3),
                &json!(4),
                &Value::Null
            ],
            "{reply}"
        );
        for r in replies {
            check_frame(&r.to_string());
        }
        assert_eq!(replies[0]["result"], json!({}));
        assert_eq!(replies[1]["result"]["isError"], Value::Null, "{reply}");
        let found = replies[2]["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            found.contains("batched walrus"),
            "saved earlier in the batch: {found}"
        );
        assert_eq!(replies[3]["error"]["code"], -32600);
        assert_eq!(
            replies[4]["error"]["code"], -32600,
            "initialize is never batched"
        );
        assert_eq!(replies[5]["error"]["code"], -32601);
        assert_eq!(replies[6]["error"]["code"], -32600);
        // the batch did not renegotiate
        let tools = mcp.request("tools/list", json!({}));
        assert_eq!(
            tools["tools"][0].get("annotations").is_some(),
            version != "2024-11-05"
        );
        // only notifications: no reply at all; an empty batch: one error object
        mcp.send(&json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]));
        mcp.send_raw(b"[]\n");
        let reply = mcp.recv();
        assert_eq!(reply["id"], Value::Null);
        assert_eq!(reply["error"]["code"], -32600);
        mcp.sync();
        let (rest, _, code) = mcp.finish();
        assert!(rest.is_empty(), "{rest:?}");
        assert_eq!(code, 0);
    }
    // 2025-06-18 removed batches: one -32600 error, nothing run
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    mcp.send(&json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "mem_save_turn", "arguments": {"role": "user", "content": "never saved"}}}]));
    let reply = mcp.recv();
    assert_eq!(reply["id"], Value::Null);
    assert_eq!(reply["error"]["code"], -32600);
    let text = mcp.tool_text("mem_search", json!({"query": "never saved"}));
    assert!(!text.contains("never saved\n"), "{text}");
    mcp.finish();
}

#[test]
fn save_results_over_the_result_cap_stay_valid_json() {
    let sb = Sandbox::new();
    set_mcp_config(&sb, json!({"max_result_chars": 1000}));
    for version in ["2025-03-26", "2025-11-25"] {
        let mut mcp = Mcp::ready(&sb, version);
        let check = |result: &Value| -> Value {
            let text = text_of(result);
            assert!(text.chars().count() <= 1000, "{}", text.chars().count());
            let status: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
                panic!("the text of a save result must stay JSON ({e}): {text}")
            });
            if version == "2025-11-25" {
                assert_eq!(
                    result["structuredContent"], status,
                    "structuredContent is the text"
                );
            } else {
                assert!(result.get("structuredContent").is_none());
            }
            assert_eq!(status["truncated"], true, "{status}");
            for key in [
                "saved",
                "status",
                "messageCount",
                "flushed",
                "extracted",
                "profileUpdated",
            ] {
                assert!(status.get(key).is_some(), "{key} kept: {status}");
            }
            status
        };
        // an error that quotes a huge value
        let result = mcp.tool(
            "mem_save_turn",
            json!({"messages": [{"role": "r".repeat(5000), "content": "x"}]}),
        );
        assert_eq!(result["isError"], true);
        let status = check(&result);
        assert_eq!(status["status"], "rejected");
        assert!(status["error"].as_str().unwrap().ends_with('…'), "{status}");
        // many facts: the list is cut and the rest counted
        let content: Vec<String> = (0..60)
            .map(|i| format!("I like flavour {version} number {i:03} ice cream."))
            .collect();
        let result = mcp.tool(
            "mem_save_fact",
            json!({"messages": [{"role": "user", "content": content.join(" ")}]}),
        );
        let status = check(&result);
        assert_eq!(status["status"], "saved");
        assert_eq!(status["extracted"], 60);
        let shown = status["facts"].as_array().unwrap().len();
        assert!(shown > 0, "{status}");
        assert_eq!(
            shown as u64 + status["factsOmitted"].as_u64().unwrap(),
            60,
            "{status}"
        );
        mcp.finish();
    }
}

#[test]
fn a_closed_stdout_ends_the_server_quietly() {
    let sb = Sandbox::new();
    // the host stops reading (its end of stdout is gone) but keeps stdin open
    let mut child = sb
        .std_command(sb.home().join("tools").join("memory_mcp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    for i in 0..3 {
        // once the server is gone these writes fail: that is fine
        let _ = writeln!(
            stdin,
            "{}",
            json!({"jsonrpc": "2.0", "id": i, "method": "ping"})
        );
        let _ = stdin.flush();
    }
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the server kept running with nobody reading its replies");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "quietly, no panic message: {stderr}");
    drop(stdin);
}

#[test]
fn save_inputs_that_hosts_send_are_honoured() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    // the legacy form takes content parts like messages[] does
    let (status, is_error) = mcp.save(
        "mem_save_turn",
        json!({"role": "user", "content": [{"type": "text", "text": "legacy parts about capybaras"}]}),
    );
    assert!(!is_error, "{status}");
    assert_eq!(status["status"], "saved");
    // a host that fills every schema property sends messages: [] along
    let (status, is_error) = mcp.save(
        "mem_save_turn",
        json!({"role": "assistant", "content": "capybaras again", "messages": []}),
    );
    assert!(!is_error, "{status}");
    assert_eq!(status["status"], "saved");
    let (status, is_error) = mcp.save("mem_save_turn", json!({"messages": [], "flush": true}));
    assert!(!is_error, "{status}");
    assert_eq!(status["status"], "flushed");
    assert_eq!(status["flushed"], true);
    let text = mcp.tool_text("mem_search", json!({"query": "capybaras"}));
    assert!(text.contains("legacy parts about capybaras"), "{text}");
    assert!(text.contains("capybaras again"), "{text}");
    // a legacy error does not name a messages[0] the caller never sent
    let (status, is_error) = mcp.save("mem_save_turn", json!({"role": "user"}));
    assert!(is_error);
    assert!(
        !status["error"].as_str().unwrap().contains("messages[0]"),
        "{status}"
    );
    // fact and messages together: both count, neither is dropped
    let (status, is_error) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Works at Example Corp.",
               "messages": [{"role": "user", "content": "I prefer short answers."}]}),
    );
    assert!(!is_error, "{status}");
    assert_eq!(status["status"], "saved");
    assert_eq!(
        status["facts"],
        json!(["Works at Example Corp.", "Prefers short answers."])
    );
    assert_eq!(status["extracted"], 2);
    // a fact with an empty messages: [] is just the fact
    let (status, is_error) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Lives in Lisbon.", "messages": []}),
    );
    assert!(!is_error, "{status}");
    assert_eq!(status["facts"], json!(["Lives in Lisbon."]));
    let profile = std::fs::read_to_string(sb.home().join("memory/personal/PROFILE.md")).unwrap();
    for fact in [
        "Works at Example Corp.",
        "Prefers short answers.",
        "Lives in Lisbon.",
    ] {
        assert!(profile.contains(&format!("- {fact}\n")), "{profile}");
    }
    // a tool role still refuses the whole call, fact included
    let (status, is_error) = mcp.save(
        "mem_save_fact",
        json!({"fact": "Has a cat.", "messages": [{"role": "tool", "content": "x"}]}),
    );
    assert!(is_error);
    assert_eq!(status["status"], "rejected");
    let profile = std::fs::read_to_string(sb.home().join("memory/personal/PROFILE.md")).unwrap();
    assert!(!profile.contains("Has a cat."), "{profile}");
    mcp.finish();
}

#[test]
fn a_fact_written_as_a_preference_is_filed_as_one() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-11-25");
    // the very form the tool's own hint and the extraction rules use
    for fact in [
        "Prefers tabs over spaces.",
        "User prefers vim keybindings",
        "The user likes jazz while coding.",
        "Asks to never push to main.",
        "I prefer light roast coffee.",
    ] {
        let (status, _) = mcp.save("mem_save_fact", json!({"fact": fact}));
        assert_eq!(status["status"], "saved", "{status}");
    }
    // not preferences
    for fact in ["Likesome is the team's wiki.", "Name is Ada."] {
        let (status, _) = mcp.save("mem_save_fact", json!({"fact": fact}));
        assert_eq!(status["status"], "saved", "{status}");
    }
    let text = mcp.tool_text("mem_context", json!({"query": ""}));
    let (preferences, rest) = text
        .split_once("\n## Profile\n")
        .unwrap_or_else(|| panic!("{text}"));
    for pref in [
        "- Prefers tabs over spaces.",
        "- User prefers vim keybindings",
        "- The user likes jazz while coding.",
        "- Asks to never push to main.",
        "- I prefer light roast coffee.",
    ] {
        assert!(
            preferences.contains(pref),
            "{pref} under Preferences: {text}"
        );
    }
    assert!(rest.contains("- Likesome is the team's wiki."), "{text}");
    assert!(rest.contains("- Name is Ada."), "{text}");
    mcp.finish();
}

/// Writes `len` bytes of one JSON-looking line (no newline) from a thread, so
/// the server can read while the test writes.
fn write_big_line(mcp: &mut Mcp, len: usize) {
    let mut stdin = mcp.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let head = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"mem_save_turn\",\"arguments\":{\"role\":\"user\",\"content\":\"";
        stdin.write_all(head).unwrap();
        let chunk = vec![b'a'; 1024 * 1024];
        let mut left = len - head.len() - 4;
        while left > 0 {
            let n = left.min(chunk.len());
            stdin.write_all(&chunk[..n]).unwrap();
            left -= n;
        }
        stdin.write_all(b"\"}}}\n").unwrap();
        stdin.flush().unwrap();
        stdin
    });
    mcp.stdin = Some(writer.join().unwrap());
}

fn oversize_line_is_refused_and_serving_continues(sb: &Sandbox, limit: u64) {
    let mut mcp = Mcp::ready(sb, "2025-03-26");
    write_big_line(&mut mcp, 11 * 1024 * 1024);
    let reply = mcp.recv();
    assert_eq!(reply["id"], Value::Null, "{reply}");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert_eq!(reply["error"]["data"]["limit"], limit, "{reply}");
    assert_eq!(reply["error"]["data"]["limit_name"], "max_line_bytes");
    assert!(reply["error"]["data"]["observed"].as_u64().unwrap() > limit);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("mcp.max_line_bytes")
    );
    // the line was dropped whole: nothing of it was saved, and the next request works
    mcp.sync();
    let (status, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "user", "content": "after the big line"}),
    );
    assert_eq!(status["status"], "saved");
    assert_eq!(
        status["ids"],
        json!([format!("{}#1", status["episode"].as_str().unwrap())])
    );
    let (rest, _, code) = mcp.finish();
    assert!(rest.is_empty());
    assert_eq!(code, 0);
}

#[test]
fn oversize_line_with_a_small_configured_cap() {
    let sb = Sandbox::new();
    set_mcp_config(&sb, json!({"max_line_bytes": 65536}));
    oversize_line_is_refused_and_serving_continues(&sb, 65536);
}

#[test]
fn oversize_line_at_the_default_ten_mib_cap() {
    let sb = Sandbox::new();
    oversize_line_is_refused_and_serving_continues(&sb, 10 * 1024 * 1024);
}

#[test]
fn a_line_just_under_the_cap_is_served() {
    let sb = Sandbox::new();
    set_mcp_config(&sb, json!({"max_line_bytes": 4096}));
    let mut mcp = Mcp::ready(&sb, "2025-03-26");
    let query = "q".repeat(3000);
    let text = mcp.tool_text("mem_search", json!({"query": query}));
    assert!(text.starts_with("No matches"), "{text}");
    mcp.finish();
}

/// A hand-edited profile far larger than one result may be.
fn write_huge_profile(sb: &Sandbox) {
    let mut profile = String::from("# Profile\n\n## Preferences\n\n## Facts\n");
    for i in 0..4000 {
        profile.push_str(&format!("- Fact number {i:04} about the user, padded so that each bullet is long enough to add up quickly.\n"));
    }
    assert!(profile.len() > 300_000);
    std::fs::write(sb.home().join("memory/personal/PROFILE.md"), &profile).unwrap();
}

/// The `[truncated: N of M …]` numbers of a notice line.
fn notice_numbers(notice: &str, tail: &str) -> (usize, usize) {
    let numbers: Vec<usize> = notice
        .trim_start_matches("[truncated: ")
        .trim_end_matches(tail)
        .split(" of ")
        .map(|n| n.parse().unwrap_or_else(|_| panic!("{notice}")))
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn a_huge_profile_leaves_room_for_the_matches() {
    let sb = Sandbox::new();
    write_huge_profile(&sb);
    let planted = "the zebra crossing by the harbour needs new paint";
    for cap in [200_000, 2000] {
        if cap != 200_000 {
            set_mcp_config(&sb, json!({"max_result_chars": cap}));
        }
        let mut mcp = Mcp::ready(&sb, "2025-06-18");
        if cap == 200_000 {
            let (status, _) = mcp.save(
                "mem_save_turn",
                json!({"role": "user", "content": planted, "sessionKey": "harbour"}),
            );
            assert_eq!(status["status"], "saved", "{status}");
        }
        let text = mcp.tool_text("mem_context", json!({"query": "zebra harbour"}));
        assert!(
            text.chars().count() <= cap,
            "{cap}: {}",
            text.chars().count()
        );
        // every section is there, in order, and the matches are whole
        let at = |heading: &str| {
            text.find(heading)
                .unwrap_or_else(|| panic!("{cap}: {heading} missing: {text}"))
        };
        assert!(at("## Preferences") < at("## Profile"));
        assert!(at("## Profile") < at("## Foresight\n(none)"));
        let matches = &text[at("## Matches")..];
        assert!(
            matches.starts_with("## Matches\nFor \"zebra harbour\":\n1. `ep-"),
            "{cap}: {matches}"
        );
        assert!(matches.contains(planted), "{cap}: {matches}");
        // the profile was cut to its share, with its own notice, in whole bullets
        let profile = &text[at("## Profile")..at("## Foresight")];
        let notice = profile.trim_end().lines().last().unwrap();
        let (shown, total) = notice_numbers(notice, " characters of this section shown]");
        assert!(shown < total && total > 300_000, "{cap}: {notice}");
        assert!(
            profile
                .lines()
                .skip(1)
                .filter(|l| !l.is_empty() && *l != notice)
                .all(|l| l.starts_with("- Fact number ") && l.ends_with("quickly.")),
            "{cap}: {profile}"
        );
        // the profile's sections get at most 40 % of the room the matches need
        assert!(profile.chars().count() > cap / 3, "{cap}: {profile}");
        // nothing was left for the result cap to cut
        assert!(!text.contains(" characters shown]"), "{cap}: {text}");
        // the resource is the same context
        let empty = mcp.tool_text("mem_context", json!({"query": ""}));
        assert!(empty.chars().count() <= cap);
        assert!(empty.ends_with("## Matches\n(no query)\n"), "{empty}");
        let read = mcp.request("resources/read", json!({"uri": "mem://profile"}));
        assert_eq!(read["contents"][0]["text"].as_str().unwrap(), empty);
        mcp.finish();
    }
}

#[test]
fn huge_results_are_truncated_with_a_notice() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let messages: Vec<Value> = (0..50)
        .map(|i| json!({"role": "user", "content": format!("walrus {i:02} {}", "long words ".repeat(30))}))
        .collect();
    mcp.save("mem_save_turn", json!({"messages": messages}));
    mcp.finish();
    set_mcp_config(&sb, json!({"max_result_chars": 1000}));
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let text = mcp.tool_text("mem_search", json!({"query": "walrus", "topK": 50}));
    assert!(text.chars().count() <= 1000, "{}", text.chars().count());
    assert!(text.starts_with("## Matches for \"walrus\""), "{text}");
    let notice = text.rsplit("\n\n").next().unwrap();
    let (shown, total) = notice_numbers(notice, " characters shown]");
    assert!(shown < total && total > 1000, "{notice}");
    // the resource is bounded the same way
    let read = mcp.request(
        "resources/read",
        json!({"uri": "mem://search?q=walrus&topK=50"}),
    );
    assert_eq!(read["contents"][0]["text"].as_str().unwrap(), text);
    mcp.finish();
}

#[test]
fn a_panicking_request_is_an_internal_error_and_serving_continues() {
    let sb = Sandbox::new();
    let mut cmd = sb.std_command(sb.home().join("tools").join("memory_mcp"));
    cmd.env("AGENTBOX_DEBUG_MCP_PANIC", "1");
    let mut mcp = Mcp::spawn(cmd);
    let error = mcp.request_error("debug/panic", json!({}), -32603);
    assert!(
        error["message"].as_str().unwrap().contains("bug"),
        "{error}"
    );
    mcp.sync();
    let (status, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "user", "content": "still here"}),
    );
    assert_eq!(status["status"], "saved");
    let (rest, stderr, code) = mcp.finish();
    assert!(rest.is_empty());
    assert_eq!(code, 0);
    assert!(!stderr.contains("panicked"), "no backtrace noise: {stderr}");
    // without the switch the method does not exist
    let mut mcp = Mcp::link(&sb);
    mcp.request_error("debug/panic", json!({}), -32601);
    mcp.finish();
}

// ------------------------------------------------------------ process and streams

#[test]
fn stdout_carries_only_frames_and_logs_go_to_stderr() {
    let sb = Sandbox::new();
    let mut cmd = sb.std_command(common::bin());
    cmd.args(["memory_mcp", "-v"]);
    let mut mcp = Mcp::spawn(cmd);
    mcp.request("initialize", json!({"protocolVersion": "2025-03-26"}));
    mcp.notify("notifications/initialized", json!({}));
    mcp.tool(
        "mem_save_turn",
        json!({"role": "user", "content": "log me"}),
    );
    mcp.tool("mem_search", json!({"query": "log"}));
    mcp.send_raw(b"garbage\n");
    mcp.recv();
    let (rest, stderr, code) = mcp.finish();
    assert!(rest.is_empty());
    assert_eq!(code, 0);
    assert!(stderr.contains("memory_mcp: tools/call"), "{stderr}");
    assert!(stderr.contains("invalid message"), "{stderr}");
}

#[test]
fn the_link_resolves_its_home_from_any_working_directory() {
    let sb = Sandbox::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let mut cmd = sb.std_command(sb.home().join("tools").join("memory_mcp"));
    cmd.current_dir(elsewhere.path());
    let mut mcp = Mcp::spawn(cmd);
    mcp.request("initialize", json!({"protocolVersion": "2025-11-25"}));
    let (status, _) = mcp.save(
        "mem_save_turn",
        json!({"role": "user", "content": "via the link"}),
    );
    assert_eq!(status["status"], "saved");
    mcp.finish();
    assert!(all_text(&sb.home().join("memory/episodes/default")).contains("via the link"));
    // agentbox memory_mcp --home, from elsewhere too
    let mut cmd = sb.std_command(common::bin());
    cmd.current_dir(elsewhere.path())
        .args(["memory_mcp", "--home"])
        .arg(sb.home());
    let mut mcp = Mcp::spawn(cmd);
    let text = mcp.tool_text("mem_search", json!({"query": "link"}));
    assert!(text.contains("via the link"), "{text}");
    mcp.finish();
}

#[test]
fn boot_failures_exit_1_with_stderr_only() {
    let run = |sb: &Sandbox, args: &[&str]| {
        let out = sb
            .std_command(common::bin())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    // no home anywhere
    let empty = Sandbox::empty();
    let (stdout, stderr, code) = run(&empty, &["memory_mcp"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "", "stdout is protocol only");
    assert!(stderr.contains("error: no agent home found"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
    let (stdout, stderr, code) = run(&empty, &["memory_mcp", "--home", "/nonexistent/agent-home"]);
    assert_eq!((stdout.as_str(), code), ("", Some(1)), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    // a broken config
    let sb = Sandbox::new();
    std::fs::write(sb.home().join("config.json"), "{\"mcp\": [").unwrap();
    let (stdout, stderr, code) = run(&sb, &["memory_mcp"]);
    assert_eq!((stdout.as_str(), code), ("", Some(1)), "{stderr}");
    assert!(stderr.contains("config.json"), "{stderr}");
    for bad in [
        json!({"max_line_bytes": 0}),
        json!({"max_result_chars": 5_000_000}),
        json!({"max_line_bytes": "big"}),
    ] {
        set_mcp_config(&sb, bad.clone());
        let (stdout, stderr, code) = run(&sb, &["memory_mcp"]);
        assert_eq!((stdout.as_str(), code), ("", Some(1)), "{bad}: {stderr}");
        assert!(stderr.contains("config.json"), "{bad}: {stderr}");
    }
    // the json format flag does not bring the envelope back
    let (stdout, _, code) = run(&empty, &["memory_mcp", "--format", "json"]);
    assert_eq!((stdout.as_str(), code), ("", Some(1)));
    // nor do argument and environment errors before the server starts
    let (stdout, stderr, code) = run(&sb, &["memory_mcp", "--bogus"]);
    assert_eq!((stdout.as_str(), code), ("", Some(1)), "{stderr}");
    assert!(stderr.contains("--bogus"), "{stderr}");
    let out = sb
        .std_command(sb.home().join("tools/memory_mcp"))
        .env("AGENTBOX_NOW", "not a time")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!((out.stdout.len(), out.status.code()), (0, Some(1)));
}

#[test]
fn end_of_input_ends_the_server_quietly() {
    let sb = Sandbox::new();
    let out = sb
        .std_command(common::bin())
        .arg("memory_mcp")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    // a last line without its newline is still answered
    let mut mcp = Mcp::link(&sb);
    mcp.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    let (rest, _, code) = mcp.finish();
    assert_eq!(rest, ["{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"]);
    assert_eq!(code, 0);
}

#[test]
fn sigint_stops_the_server_without_touching_stdout() {
    let sb = Sandbox::new();
    for save_first in [false, true] {
        let mut mcp = Mcp::ready(&sb, "2025-03-26");
        if save_first {
            // a landed write does not make the server ignore the interrupt
            let (status, _) = mcp.save(
                "mem_save_turn",
                json!({"role": "user", "content": "before ^C"}),
            );
            assert_eq!(status["status"], "saved");
        }
        mcp.sync();
        let killed = Command::new("kill")
            .args(["-INT", &mcp.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = mcp.child.wait().unwrap();
        drop(mcp.stdin.take());
        let rest: Vec<String> = mcp.lines.iter().collect();
        assert!(rest.is_empty(), "stdout after SIGINT: {rest:?}");
        assert_eq!(status.code(), Some(130));
        let stderr = mcp.stderr.join().unwrap();
        assert!(stderr.contains("error: interrupted"), "{stderr}");
    }
}

// ------------------------------------------------------------ redaction

#[test]
fn resources_read_echoes_the_uri_masked() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let secret = "abcdefghijklmnopqrstuvwx";
    let uri = format!("mem://search?q=sk-proj-{secret}");
    let reply = mcp.call("resources/read", json!({"uri": uri}));
    let uri_back = reply["result"]["contents"][0]["uri"].as_str().unwrap();
    assert!(
        uri_back.starts_with("mem://search?q=sk-proj-") && uri_back.contains("_REDACTED"),
        "{reply}"
    );
    assert!(!reply.to_string().contains(secret), "{reply}");
    // an unknown URI's error is masked too
    let error = mcp.request_error(
        "resources/read",
        json!({"uri": format!("mem://nope?key=sk-proj-{secret}")}),
        -32002,
    );
    assert!(!error.to_string().contains(secret), "{error}");
    mcp.finish();
}

#[test]
fn secrets_never_reach_the_store_or_the_replies() {
    let sb = Sandbox::new();
    let mut mcp = Mcp::ready(&sb, "2025-06-18");
    let key = "sk-proj-Zq8XvT2mN4pL6rB1cD3fG5hJ7kW9yA0s";
    let ghp = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3sXyZ";
    let content = format!("deploy with {key} and password=hunter2hunter2 then {ghp}");
    let (status, _) = mcp.save(
        "mem_save_turn",
        json!({"messages": [
            {"role": "user", "content": content},
            {"role": "assistant", "content": "ok",
             "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"env": {"API_KEY": key}}}]}
        ], "sessionKey": "secrets"}),
    );
    assert_eq!(status["status"], "saved");
    let (status, _) = mcp.save(
        "mem_save_fact",
        json!({"fact": format!("Deploy token is {ghp}")}),
    );
    assert_eq!(status["status"], "saved");
    let mut replies = String::new();
    replies.push_str(&mcp.tool_text("mem_search", json!({"query": "deploy password"})));
    replies.push_str(&mcp.tool_text("mem_context", json!({"query": "deploy"})));
    let read = mcp.request("resources/read", json!({"uri": "mem://search?q=deploy"}));
    replies.push_str(&read.to_string());
    // an error message that echoes input is redacted too
    let error = mcp.request_error("tools/call", json!({"name": key}), -32602);
    replies.push_str(&error.to_string());
    assert!(replies.contains("deploy"), "{replies}");
    let stored = all_text(&sb.home().join("memory"));
    assert!(stored.contains("deploy with"), "{stored}");
    for secret in [&key[10..], "hunter2hunter2", &ghp[10..]] {
        assert!(!stored.contains(secret), "{secret} stored: {stored}");
        assert!(!replies.contains(secret), "{secret} in a reply: {replies}");
    }
    assert!(stored.contains("_REDACTED"));
    mcp.finish();
}
