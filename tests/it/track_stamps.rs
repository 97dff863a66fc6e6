//! Turns keep the time they were said (issue #30): a message's `timestamp`
//! (`track record --messages`, MCP `mem_save_turn`) and `record --at` are
//! stored normalised to UTC, shown, searched by date and pruned by; bad or
//! impossible times are refused before anything is written; a retry with the
//! same times is still a duplicate; episode ids keep the save time.

use crate::common;

use common::{NOW, Sandbox, envelope, err_of, ok_data};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `.agent/tools/track ARGS…`
fn track(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.command(sb.home().join("tools").join("track"));
    cmd.args(args);
    cmd
}

/// `track record --messages - ARGS…` with `messages` on stdin.
fn record_messages(sb: &Sandbox, messages: &Value, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = track(sb, &["record", "--messages", "-"]);
    cmd.args(args).write_stdin(messages.to_string());
    cmd
}

/// Every file under the episodes folder: relative path → bytes.
fn episode_files(sb: &Sandbox) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let root = sb.home().join("memory/episodes");
    let Ok(sessions) = std::fs::read_dir(&root) else {
        return files;
    };
    for session in sessions.flatten() {
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

fn episode_path(sb: &Sandbox, session: &str, file: &str) -> PathBuf {
    sb.home().join("memory/episodes").join(session).join(file)
}

/// The `ts` of each turn stored in a file, in file order.
fn stored_ts(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let turn: Value = serde_json::from_str(l).unwrap();
            turn["ts"].as_str().unwrap().to_string()
        })
        .collect()
}

fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn hit_ids(data: &Value) -> Vec<String> {
    data["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap().to_string())
        .collect()
}

const EP1: &str = "ep-20260115T093000Z-k3f9q2-1";

#[test]
fn message_timestamps_are_stored_in_utc_and_shown() {
    let sb = Sandbox::new();
    let messages = json!({"sessionKey": "locomo", "messages": [
        {"role": "user", "content": "I adopted a puppy named Biscuit", "timestamp": "2023-05-08T13:56:00Z"},
        {"role": "assistant", "content": "Congratulations on Biscuit!", "timestamp": "2023-05-08T15:57:30+02:00"},
        {"role": "user", "content": "Biscuit learned to sit", "timestamp": "2023-06-20T08:00:00.750-04:00"},
        {"role": "assistant", "content": "Good dog", "timestamp": null},
        {"role": "user", "content": "said now, without a time"}
    ]});
    let data = ok_data(&mut record_messages(&sb, &messages, &[]));
    assert_eq!(data["count"], 5);
    // the episode id keeps the save time, not the first turn's said time
    assert_eq!(data["episode"], EP1);
    let path = episode_path(&sb, "locomo", &format!("{EP1}.open.jsonl"));
    assert_eq!(
        stored_ts(&path),
        [
            "2023-05-08T13:56:00Z",
            "2023-05-08T13:57:30Z",
            "2023-06-20T12:00:00Z",
            NOW,
            NOW
        ],
        "offsets become UTC, fractions are cut to whole seconds as the clock's stamps are"
    );
    // show: the stored turns, and the range of the times said
    let shown = ok_data(&mut track(&sb, &["show", EP1]));
    assert_eq!(shown["turns"][0]["ts"], "2023-05-08T13:56:00Z");
    assert_eq!(shown["turns"][2]["ts"], "2023-06-20T12:00:00Z");
    assert_eq!(shown["episode"]["first_ts"], "2023-05-08T13:56:00Z");
    assert_eq!(shown["episode"]["last_ts"], NOW);
    let text = stdout_of(&mut track(&sb, &["show", EP1, "--format", "text"]));
    assert!(
        text.contains("2023-05-08T13:56:00Z – 2026-01-15T09:30:00Z"),
        "{text}"
    );
    // a turn said on another day than the first one shows its date
    assert!(text.contains("#1 user · 13:56:00Z\n"), "{text}");
    assert!(text.contains("#2 assistant · 13:57:30Z\n"), "{text}");
    assert!(text.contains("#3 user · 2023-06-20T12:00:00Z\n"), "{text}");
    assert!(text.contains("#5 user · 2026-01-15T09:30:00Z\n"), "{text}");
    // list and stats report the said times too
    let listed = ok_data(&mut track(&sb, &["list"]));
    assert_eq!(listed["episodes"][0]["first_ts"], "2023-05-08T13:56:00Z");
    let stats = ok_data(&mut track(&sb, &["stats"]));
    assert_eq!(stats["first_ts"], "2023-05-08T13:56:00Z");
    assert_eq!(stats["last_ts"], NOW);
}

#[test]
fn search_since_and_until_filter_by_the_time_said() {
    let sb = Sandbox::new();
    let messages = json!([
        {"role": "user", "content": "the walrus visited in May", "timestamp": "2023-05-08T13:56:00Z"},
        {"role": "user", "content": "the walrus came back in June", "timestamp": "2023-06-20T08:00:00+02:00"}
    ]);
    ok_data(&mut record_messages(&sb, &messages, &["--session", "zoo"]));
    ok_data(&mut track(
        &sb,
        &[
            "record",
            "--session",
            "zoo",
            "--content",
            "the walrus is here today",
        ],
    ));
    let may = format!("{EP1}#1");
    let june = format!("{EP1}#2");
    let today = format!("{EP1}#3");
    let search = |extra: &[&str]| {
        let mut args = vec!["search", "walrus"];
        args.extend_from_slice(extra);
        let mut ids = hit_ids(&ok_data(&mut sb.agentbox(&args)));
        ids.sort();
        ids
    };
    assert_eq!(search(&[]), [may.as_str(), june.as_str(), today.as_str()]);
    assert_eq!(search(&["--until", "2023-05-31"]), [may.as_str()]);
    assert_eq!(
        search(&["--since", "2023-06-01", "--until", "2023-12-31"]),
        [june.as_str()]
    );
    // June 20 08:00+02:00 is 06:00Z: the bound is on the UTC time
    assert_eq!(
        search(&["--since", "2023-06-20T06:00:00Z", "--until", "2023-06-20"]),
        [june.as_str()]
    );
    assert_eq!(
        search(&["--since", "2023-06-20T06:00:01Z", "--until", "2024-01-01"]),
        Vec::<String>::new()
    );
    assert_eq!(search(&["--since", "2026-01-01"]), [today.as_str()]);
    // track search takes the same filters, and hits carry the said date
    let data = ok_data(&mut track(
        &sb,
        &["search", "walrus", "--until", "2023-05-08"],
    ));
    assert_eq!(hit_ids(&data), [may]);
    assert_eq!(data["hits"][0]["date"], "2023-05-08T13:56:00Z");
}

#[test]
fn at_dates_one_turn_and_is_the_default_of_a_batch() {
    let sb = Sandbox::new();
    let data = ok_data(&mut track(
        &sb,
        &[
            "record",
            "--content",
            "lunch with Ana",
            "--at",
            "2023-05-08T15:56:00+02:00",
        ],
    ));
    assert_eq!(data["episode"], EP1);
    let path = episode_path(&sb, "default", &format!("{EP1}.open.jsonl"));
    assert_eq!(stored_ts(&path), ["2023-05-08T13:56:00Z"]);
    // with --messages, --at dates the messages that carry no time of their own
    let messages = json!([
        {"role": "user", "content": "dinner with Ana"},
        {"role": "assistant", "content": "noted", "timestamp": "2023-05-09T20:00:00Z"},
    ]);
    ok_data(&mut record_messages(
        &sb,
        &messages,
        &["--at", "2023-05-09T19:00:00Z"],
    ));
    assert_eq!(
        stored_ts(&path),
        [
            "2023-05-08T13:56:00Z",
            "2023-05-09T19:00:00Z",
            "2023-05-09T20:00:00Z"
        ]
    );
    // a bad --at names the flag and writes nothing
    let before = episode_files(&sb);
    for (at, needle) in [
        ("yesterday", "RFC 3339"),
        ("2023-05-08", "RFC 3339"),
        ("2026-01-15T09:36:00Z", "past the clock"),
        ("1969-12-31T23:59:59Z", "1970"),
    ] {
        let err = err_of(
            &mut track(&sb, &["record", "--content", "x", "--at", at]),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["flag"], "--at", "{at}: {err}");
        assert!(
            err["message"].as_str().unwrap().contains(needle),
            "{at}: {err}"
        );
        assert!(!err["hint"].as_str().unwrap().is_empty(), "{at}: {err}");
        let err = err_of(
            &mut record_messages(
                &sb,
                &json!([{"role": "user", "content": "x"}]),
                &["--at", at],
            ),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["flag"], "--at", "{at}: {err}");
    }
    assert_eq!(episode_files(&sb), before);
}

#[test]
fn bad_timestamps_are_refused_and_store_nothing() {
    let sb = Sandbox::new();
    ok_data(&mut track(&sb, &["record", "--content", "existing"]));
    let before = episode_files(&sb);
    let good = json!({"role": "user", "content": "fine", "timestamp": "2023-05-08T13:56:00Z"});
    let cases = [
        (json!(1683554160), "not a string"),
        (json!({"at": "2023-05-08"}), "not a string"),
        (json!("yesterday"), "RFC 3339"),
        (json!("2023-05-08"), "RFC 3339"),
        (json!("2023-05-08 13:56:00"), "RFC 3339"),
        (json!("2023-02-30T10:00:00Z"), "RFC 3339"),
        (json!("1969-12-31T23:59:59Z"), "1970"),
        (json!("0001-01-01T00:00:00Z"), "1970"),
        // NOW + 5 min 1 s: beyond the skew
        (json!("2026-01-15T09:35:01Z"), "past the clock"),
        (json!("2026-01-15T10:35:01+01:00"), "past the clock"),
        (json!("9999-12-31T23:59:59Z"), "past the clock"),
    ];
    for (timestamp, needle) in cases {
        let batch = json!([good, good, good, {"role": "assistant", "content": "x", "timestamp": timestamp}]);
        let err = err_of(&mut record_messages(&sb, &batch, &[]), "invalid_args", 2);
        assert_eq!(
            err["detail"]["field"], "messages[3].timestamp",
            "{timestamp}: {err}"
        );
        let message = err["message"].as_str().unwrap();
        assert!(message.contains("messages[3].timestamp"), "{err}");
        assert!(message.contains(needle), "{timestamp}: {err}");
        let hint = err["hint"].as_str().unwrap();
        assert!(
            hint.contains("2023-05-08T13:56:00Z") || hint.contains(NOW),
            "{timestamp}: {err}"
        );
        assert_eq!(episode_files(&sb), before, "{timestamp} changed the store");
    }
    // the format hint shows the form to use
    let err = err_of(
        &mut record_messages(
            &sb,
            &json!([{"role": "user", "content": "x", "timestamp": "May 8"}]),
            &[],
        ),
        "invalid_args",
        2,
    );
    assert!(err["hint"].as_str().unwrap().contains("RFC 3339"), "{err}");
    // within the skew is accepted: hosts' clocks drift a little
    let data = ok_data(&mut record_messages(
        &sb,
        &json!([{"role": "user", "content": "a bit ahead", "timestamp": "2026-01-15T09:35:00Z"}]),
        &[],
    ));
    assert_eq!(data["count"], 1);
    let path = episode_path(&sb, "default", &format!("{EP1}.open.jsonl"));
    assert_eq!(stored_ts(&path), [NOW, "2026-01-15T09:35:00Z"]);
    // and the earliest time there is
    ok_data(&mut record_messages(
        &sb,
        &json!([{"role": "user", "content": "epoch", "timestamp": "1970-01-01T00:00:00Z"}]),
        &[],
    ));
}

#[test]
fn a_retry_with_the_same_timestamps_is_a_duplicate() {
    let sb = Sandbox::new();
    // the session already has an episode from today
    ok_data(&mut track(
        &sb,
        &["record", "--session", "s", "--content", "today", "--flush"],
    ));
    let batch = json!({"sessionKey": "s", "messages": [
        {"role": "user", "content": "ok", "timestamp": "2023-05-08T13:56:00Z"},
        {"role": "assistant", "content": "fine", "timestamp": "2023-05-08T13:57:00Z"}
    ]});
    let saved = ok_data(&mut record_messages(&sb, &batch, &["--flush"]));
    assert_eq!(saved["count"], 2);
    assert_eq!(saved["episode"], "ep-20260115T093000Z-k3f9q2-2");
    // a retried save-and-flush finds its turns in the episode it closed, though
    // an episode of the session ends later (ids keep the save time)
    let retry = ok_data(&mut record_messages(&sb, &batch, &["--flush"]));
    assert_eq!(retry["duplicate"], true, "{retry}");
    assert_eq!(retry["ids"], saved["ids"]);
    // the same retry over an offset spelling of the same instants
    let same = json!({"sessionKey": "s", "messages": [
        {"role": "user", "content": "ok", "timestamp": "2023-05-08T15:56:00+02:00"},
        {"role": "assistant", "content": "fine", "timestamp": "2023-05-08T13:57:00.400Z"}
    ]});
    assert_eq!(
        ok_data(&mut record_messages(&sb, &same, &["--flush"]))["duplicate"],
        true
    );
    assert_eq!(episode_files(&sb).len(), 2);

    // open episode: the same words said at another time are a new turn
    let first = json!([{"role": "user", "content": "yes", "timestamp": "2023-05-08T10:00:00Z"}]);
    let later = json!([{"role": "user", "content": "yes", "timestamp": "2023-05-09T10:00:00Z"}]);
    assert_eq!(ok_data(&mut record_messages(&sb, &first, &[]))["count"], 1);
    assert_eq!(
        ok_data(&mut record_messages(&sb, &first, &[]))["duplicate"],
        true
    );
    assert_eq!(ok_data(&mut record_messages(&sb, &later, &[]))["count"], 1);
    // a retry that leaves the time out repeats the last turn: a duplicate
    let untimed = json!([{"role": "user", "content": "yes"}]);
    assert_eq!(
        ok_data(&mut record_messages(&sb, &untimed, &[]))["duplicate"],
        true
    );
    // --at is the same as the message's own time
    let data = ok_data(&mut track(
        &sb,
        &["record", "--content", "yes", "--at", "2023-05-09T10:00:00Z"],
    ));
    assert_eq!(data["duplicate"], true);
    let path = episode_path(&sb, "default", "ep-20260115T093000Z-k3f9q2-3.open.jsonl");
    assert_eq!(
        stored_ts(&path),
        ["2023-05-08T10:00:00Z", "2023-05-09T10:00:00Z"]
    );
}

#[test]
fn prune_judges_an_episode_by_its_latest_turn_in_any_line_order() {
    let sb = Sandbox::new();
    // said recently, then an old memory of it: the last line is the oldest
    let recent = json!([
        {"role": "user", "content": "we moved last week", "timestamp": "2026-01-08T10:00:00Z"},
        {"role": "user", "content": "the old flat, years ago", "timestamp": "2019-03-01T10:00:00Z"}
    ]);
    ok_data(&mut record_messages(
        &sb,
        &recent,
        &["--session", "a", "--flush"],
    ));
    let old = json!([{"role": "user", "content": "long ago", "timestamp": "2023-05-08T13:56:00Z"}]);
    ok_data(&mut record_messages(
        &sb,
        &old,
        &["--session", "b", "--flush"],
    ));
    let dry = ok_data(&mut track(
        &sb,
        &["prune", "--older-than", "30d", "--dry-run"],
    ));
    let removed: Vec<(&str, &str)> = dry["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["session"].as_str().unwrap(),
                r["last_ts"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(removed, [("b", "2023-05-08T13:56:00Z")], "{dry}");
    assert_eq!(dry["kept"], 1);
}

fn odek(kind: &str, ts: &str) -> String {
    json!({"schema": "odek.event/v1", "type": kind, "run_id": "r1", "timestamp": ts, "data": {}})
        .to_string()
}

#[test]
fn import_refuses_event_times_beyond_the_clock_or_before_1970() {
    let sb = Sandbox::new();
    for (ts, needle) in [
        ("2026-01-15T09:35:01Z", "past the clock"),
        ("1969-07-20T20:17:00Z", "1970"),
    ] {
        let stream = [
            odek("run_started", "2026-01-10T08:00:00Z"),
            odek("run_completed", ts),
        ]
        .join("\n");
        let file = sb.path().join("events.jsonl");
        std::fs::write(&file, stream).unwrap();
        let err = err_of(
            &mut track(&sb, &["import", file.to_str().unwrap()]),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["line"], 2, "{err}");
        assert!(err["message"].as_str().unwrap().contains(needle), "{err}");
        assert_eq!(episode_files(&sb).len(), 0);
    }
    // within the skew is fine
    let stream = [
        odek("run_started", "2026-01-10T08:00:00Z"),
        odek("run_completed", "2026-01-15T09:35:00Z"),
    ]
    .join("\n");
    let file = sb.path().join("events.jsonl");
    std::fs::write(&file, stream).unwrap();
    ok_data(&mut track(&sb, &["import", file.to_str().unwrap()]));
}

// ---------------------------------------------------------------- MCP

/// Runs `memory_mcp` over `calls` (tools/call arguments of `tool`), after
/// the handshake; the replies to the calls, in order.
fn mcp_calls(sb: &Sandbox, calls: &[(&str, Value)]) -> Vec<Value> {
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (i, (tool, args)) in calls.iter().enumerate() {
        let params = if *tool == "tools/list" {
            json!({})
        } else {
            json!({"name": tool, "arguments": args})
        };
        let method = if *tool == "tools/list" {
            "tools/list"
        } else {
            "tools/call"
        };
        lines.push(json!({"jsonrpc": "2.0", "id": 10 + i, "method": method, "params": params}));
    }
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = sb
        .command(sb.home().join("tools").join("memory_mcp"))
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let replies: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), calls.len() + 1, "{replies:?}");
    replies[1..].to_vec()
}

fn status(reply: &Value) -> Value {
    serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
}

#[test]
fn mem_save_turn_keeps_timestamps_and_refuses_bad_ones() {
    let sb = Sandbox::new();
    let replies = mcp_calls(
        &sb,
        &[
            ("tools/list", json!({})),
            (
                "mem_save_turn",
                json!({"sessionKey": "chat", "messages": [
                    {"role": "user", "content": "my sister Ana moved to Lisbon", "timestamp": "2023-05-08T15:56:00+02:00"},
                    {"role": "assistant", "content": "Lisbon is lovely"}
                ]}),
            ),
            (
                "mem_save_turn",
                json!({"sessionKey": "chat", "messages": [
                    {"role": "user", "content": "fine"},
                    {"role": "user", "content": "from the future", "timestamp": "2027-01-01T00:00:00Z"}
                ]}),
            ),
            (
                "mem_save_turn",
                json!({"sessionKey": "chat", "messages": [{"role": "user", "content": "x", "timestamp": "last tuesday"}]}),
            ),
            (
                "mem_save_turn",
                json!({"sessionKey": "chat", "role": "user", "content": "legacy form", "timestamp": "2023-05-09T10:00:00Z"}),
            ),
            (
                "mem_save_turn",
                json!({"sessionKey": "chat", "role": "user", "content": "legacy form", "timestamp": 17}),
            ),
        ],
    );
    // the schema documents the field
    let tools = replies[0]["result"]["tools"].as_array().unwrap();
    let save = tools.iter().find(|t| t["name"] == "mem_save_turn").unwrap();
    let field = &save["inputSchema"]["properties"]["messages"]["items"]["properties"]["timestamp"];
    assert_eq!(field["type"], "string", "{save}");
    assert_eq!(field["format"], "date-time", "{save}");
    assert!(
        field["description"].as_str().unwrap().contains("RFC 3339"),
        "{save}"
    );
    assert_eq!(
        save["inputSchema"]["properties"]["timestamp"]["type"],
        "string"
    );

    let saved = status(&replies[1]);
    assert_eq!(saved["status"], "saved", "{saved}");
    assert_eq!(saved["episode"], EP1);
    for (reply, needle) in [
        (&replies[2], "messages[1].timestamp"),
        (&replies[3], "messages[0].timestamp"),
        (&replies[5], "timestamp"),
    ] {
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        let rejected = status(reply);
        assert_eq!(rejected["status"], "rejected");
        assert_eq!(rejected["errorType"], "invalid_args");
        assert!(
            rejected["error"].as_str().unwrap().contains(needle),
            "{rejected}"
        );
        assert!(!rejected["hint"].as_str().unwrap().is_empty(), "{rejected}");
    }
    assert!(
        !status(&replies[5])["error"]
            .as_str()
            .unwrap()
            .contains("messages[0]")
    );
    assert_eq!(status(&replies[4])["status"], "saved");
    let path = episode_path(&sb, "chat", &format!("{EP1}.open.jsonl"));
    assert_eq!(
        stored_ts(&path),
        ["2023-05-08T13:56:00Z", NOW, "2023-05-09T10:00:00Z"],
        "nothing of a refused batch was stored"
    );
    // what MCP saved is searchable by the time said
    let data = ok_data(&mut sb.agentbox(&["search", "Lisbon", "--until", "2023-05-08"]));
    assert_eq!(hit_ids(&data), [format!("{EP1}#1")]);
    let (env, code) = envelope(&mut sb.agentbox(&["search", "Lisbon", "--since", "2023-05-09"]));
    assert_eq!(code, 0);
    assert_eq!(hit_ids(&env["data"]), [format!("{EP1}#2")]);
}
