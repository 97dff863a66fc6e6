//! A home of many sessions: a search compares the session folders that
//! changed last on every call, and every folder once a minute, instead of
//! statting thousands of folders per call; and an index of the previous
//! schema gets the index this needs in place, without a rebuild.

use crate::common;

use common::{Sandbox, envelope, index_db as db, ok_data, search_ids as found};
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// More than the folders compared on every call (`RECENT_DIRS`, 64).
const SESSIONS: usize = 70;

fn index_ok(sb: &Sandbox) -> bool {
    let (env, _) = envelope(&mut sb.agentbox(&["doctor"]));
    let check = env["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "index")
        .cloned()
        .expect("an index check");
    check["ok"] == true
}

fn session_dir(sb: &Sandbox, i: usize) -> PathBuf {
    sb.home().join(format!("memory/episodes/s{i:02}"))
}

/// Writes a closed episode of one turn into session `i`'s folder, as an
/// import or a writer that died before its index update leaves it.
fn write_episode(sb: &Sandbox, i: usize, n: usize, content: &str) {
    let episode = format!("ep-20260101T0000{n:02}Z-{i}x{n}");
    let turn = json!({
        "schema": "agentbox.turn/v1", "id": format!("{episode}#1"), "session": format!("s{i:02}"),
        "episode": episode, "seq": 1, "ts": "2026-01-01T00:00:00Z", "role": "user",
        "content": content, "tool_calls": [], "tool_call_id": null, "source": "import",
    });
    let dir = session_dir(sb, i);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(format!("{episode}.jsonl")), format!("{turn}\n")).unwrap();
}

/// Sets a folder's mtime `hours` after 2025-01-01 (long settled).
fn age(dir: &Path, hours: u64) {
    let when = UNIX_EPOCH + Duration::from_secs(1_735_689_600 + hours * 3600);
    fs::File::open(dir).unwrap().set_modified(when).unwrap();
}

fn set_meta(sb: &Sandbox, key: &str, value: &str) {
    let conn = rusqlite::Connection::open(db(sb)).unwrap();
    conn.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
        [key, value],
    )
    .unwrap();
}

fn meta(sb: &Sandbox, key: &str) -> Option<String> {
    let conn = rusqlite::Connection::open(db(sb)).unwrap();
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .ok()
}

#[test]
fn many_sessions_compare_the_recent_folders_each_call_and_every_folder_each_minute() {
    let sb = Sandbox::new();
    for i in 0..SESSIONS {
        let extra = if i == 1 { " with a platypus" } else { "" };
        write_episode(&sb, i, 0, &format!("filler turn of session {i}{extra}"));
        age(&session_dir(&sb, i), i as u64);
    }
    // The first search builds the index; with more folders recorded than a
    // call compares, it then compares every one and records when.
    assert_eq!(found(&sb, "filler").len(), 10);
    assert_eq!(found(&sb, "platypus").len(), 1);
    let full: i64 = meta(&sb, "nested_full").unwrap().parse().unwrap();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!((now - 5..=now).contains(&full), "{full} vs {now}");

    // A file behind the index's back in the session that changed longest
    // ago waits for the next full check (doctor sees it at once) ...
    write_episode(&sb, 0, 1, "the wombat digs");
    assert!(found(&sb, "wombat").is_empty());
    assert!(!index_ok(&sb));
    // ... one in a session among the last changed is found at once ...
    write_episode(&sb, SESSIONS - 1, 1, "the numbat naps");
    assert_eq!(found(&sb, "numbat").len(), 1);
    // ... and so is a new session.
    write_episode(&sb, SESSIONS, 0, "the quokka smiles");
    assert_eq!(found(&sb, "quokka").len(), 1);
    assert!(found(&sb, "wombat").is_empty());

    // A minute after the last full check, the next call compares them all.
    set_meta(&sb, "nested_full", &(now - 61).to_string());
    assert_eq!(found(&sb, "wombat").len(), 1);
    assert!(index_ok(&sb));
    let again: i64 = meta(&sb, "nested_full").unwrap().parse().unwrap();
    assert!(again >= now, "{again} vs {now}");

    // A session folder removed behind the index's back drops out with the
    // root folder's change, whatever its age ...
    fs::remove_dir_all(session_dir(&sb, 1)).unwrap();
    assert!(found(&sb, "platypus").is_empty());
    assert!(index_ok(&sb));
    // ... except one no search has recorded yet, whose episode is closed
    // (a writer made it and it was removed at once): the next full check
    // drops it. (An open episode's file is checked on every call.)
    ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        "kiwi",
        "--content",
        "the kiwi sleeps",
        "--flush",
    ]));
    fs::remove_dir_all(sb.home().join("memory/episodes/kiwi")).unwrap();
    assert_eq!(found(&sb, "kiwi").len(), 1);
    set_meta(&sb, "nested_full", &(now - 61).to_string());
    assert!(found(&sb, "kiwi").is_empty());
    assert!(index_ok(&sb));
}

#[test]
fn a_clock_set_back_makes_the_full_check_due() {
    let sb = Sandbox::new();
    for i in 0..SESSIONS {
        write_episode(&sb, i, 0, &format!("filler turn of session {i}"));
        age(&session_dir(&sb, i), i as u64);
    }
    found(&sb, "filler");
    found(&sb, "filler");
    write_episode(&sb, 0, 1, "the wombat digs");
    assert!(found(&sb, "wombat").is_empty());
    // A recorded time in the future (the clock went back since) is not
    // trusted to postpone the check.
    set_meta(&sb, "nested_full", "99999999999");
    assert_eq!(found(&sb, "wombat").len(), 1);
}

#[test]
fn a_schema_6_index_gets_its_new_index_in_place_not_rebuilt() {
    let sb = Sandbox::new();
    for i in 0..5 {
        ok_data(&mut sb.agentbox(&[
            "track",
            "record",
            "--content",
            &format!("turn {i} about the billing cron"),
        ]));
    }
    let before = found(&sb, "billing");
    assert_eq!(before.len(), 5);
    let built = meta(&sb, "built").unwrap();
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    conn.execute_batch(
        "DROP INDEX dirs_mtime;
         UPDATE meta SET value = '6' WHERE key = 'schema';
         INSERT INTO meta(key, value) VALUES ('marker', 'kept');",
    )
    .unwrap();
    drop(conn);
    assert_eq!(found(&sb, "billing"), before);
    assert_eq!(meta(&sb, "schema").as_deref(), Some("9"));
    assert_eq!(meta(&sb, "marker").as_deref(), Some("kept"), "not rebuilt");
    // The stamps were written anew (schema 8): kept blocks elsewhere are told.
    assert_ne!(meta(&sb, "built"), Some(built));
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    let index: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'dirs_mtime'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(index, 1);
}
