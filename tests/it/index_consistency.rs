//! Damaged rows of the index's dense tables (`stamps`, `kinds`, `sessions`,
//! `lengths`): well-formed to SQLite, so nothing failed and filtered
//! searches lost hits without a word. `doctor` compares them with the
//! documents, reports the damage with `agentbox reindex` as the fix, and
//! marks the index so that the next search rebuilds it.

use crate::common;

use common::{Sandbox, envelope, index_db, ok_data};
use serde_json::{Value, json};

/// A home with turns of two sessions and a tagged note, all about kafka.
fn home() -> Sandbox {
    let sb = Sandbox::new();
    for session in ["ops", "dev"] {
        let messages: Vec<Value> = (0..3)
            .map(|i| json!({"role": "user", "content": format!("kafka lag number {i} in {session}")}))
            .collect();
        let mut cmd = sb.agentbox(&["track", "record", "--session", session, "--messages", "-"]);
        cmd.write_stdin(Value::Array(messages).to_string());
        ok_data(&mut cmd);
    }
    ok_data(&mut sb.agentbox(&[
        "knowledge",
        "add",
        "Kafka retention",
        "--body",
        "kafka keeps topics for seven days",
        "--tag",
        "infra",
    ]));
    sb
}

/// `doctor`'s index check, and whether the whole report is healthy.
fn doctor_index(sb: &Sandbox) -> (Value, bool) {
    let (env, _) = envelope(&mut sb.agentbox(&["doctor"]));
    let check = env["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "index")
        .cloned()
        .expect("an index check");
    (check, env["data"]["healthy"] == true)
}

fn hits(sb: &Sandbox, args: &[&str]) -> usize {
    let mut full = vec!["search", "kafka", "--limit", "50"];
    full.extend_from_slice(args);
    ok_data(&mut sb.agentbox(&full))["hits"]
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn doctor_reports_damaged_dense_rows_and_the_next_search_rebuilds_the_index() {
    for damage in [
        "DELETE FROM sessions WHERE name = 'ops'",
        "UPDATE sessions SET name = 'ops2' WHERE name = 'ops'",
        "DELETE FROM kinds WHERE name = 'note'",
        "UPDATE kinds SET id = 40 WHERE name = 'turn'",
        "UPDATE stamps SET data = substr(data, 1, 40)",
        "DELETE FROM stamps",
        // the kind byte of document 1
        "UPDATE stamps SET data = CAST(substr(data, 1, 8) || x'3f' || substr(data, 10) AS BLOB)",
        "UPDATE lengths SET data = x'0900'",
    ] {
        let sb = home();
        let (check, healthy) = doctor_index(&sb);
        assert_eq!(check["ok"], true, "{damage}: before: {check}");
        assert!(healthy, "{damage}");
        assert_eq!(hits(&sb, &["--session", "ops"]), 3, "{damage}");
        let conn = rusqlite::Connection::open(index_db(&sb)).unwrap();
        conn.execute_batch(damage).unwrap();
        drop(conn);

        let (check, healthy) = doctor_index(&sb);
        assert_eq!(check["ok"], false, "{damage}: {check}");
        assert!(!healthy, "{damage}");
        let message = check["message"].as_str().unwrap();
        assert!(message.contains("disagree"), "{damage}: {message}");
        assert!(
            check["hint"].as_str().unwrap().contains("agentbox reindex"),
            "{damage}: {check}"
        );
        // Still reported until something rebuilds it.
        let (again, _) = doctor_index(&sb);
        assert_eq!(again["ok"], false, "{damage}: {again}");
        assert_eq!(again["message"], check["message"], "{damage}");

        // The next search rebuilds it: every filter finds its documents.
        assert_eq!(hits(&sb, &["--session", "ops"]), 3, "{damage}");
        assert_eq!(hits(&sb, &["--session", "dev"]), 3, "{damage}");
        assert_eq!(hits(&sb, &["--kind", "note"]), 1, "{damage}");
        assert_eq!(hits(&sb, &["--tag", "infra"]), 1, "{damage}");
        let (check, healthy) = doctor_index(&sb);
        assert_eq!(check["ok"], true, "{damage}: after: {check}");
        assert!(healthy, "{damage}");
    }
}

#[test]
fn reindex_clears_a_damage_doctor_found() {
    let sb = home();
    let conn = rusqlite::Connection::open(index_db(&sb)).unwrap();
    conn.execute_batch("DELETE FROM sessions").unwrap();
    drop(conn);
    let (check, _) = doctor_index(&sb);
    assert_eq!(check["ok"], false, "{check}");
    ok_data(&mut sb.agentbox(&["reindex"]));
    let (check, healthy) = doctor_index(&sb);
    assert_eq!(check["ok"], true, "{check}");
    assert!(healthy);
    assert_eq!(hits(&sb, &["--session", "ops"]), 3);
}

/// A sound index of several `stamps` blocks (500 documents each) passes.
#[test]
fn a_sound_index_of_several_blocks_passes() {
    let sb = Sandbox::new();
    for session in ["a", "b", "c"] {
        let messages: Vec<Value> = (0..400)
            .map(|i| json!({"role": "user", "content": format!("turn {i} of {session}")}))
            .collect();
        let mut cmd = sb.agentbox(&["track", "record", "--session", session, "--messages", "-"]);
        cmd.write_stdin(Value::Array(messages).to_string());
        ok_data(&mut cmd);
    }
    let (check, healthy) = doctor_index(&sb);
    assert_eq!(check["ok"], true, "{check}");
    assert!(healthy);
    assert!(
        check["message"].as_str().unwrap().contains("1200 turn(s)"),
        "{check}"
    );
}
