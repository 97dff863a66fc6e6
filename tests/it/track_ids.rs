//! Episode ids that never collide across homes: new ids carry the home's
//! random id (`local/home-id`), legacy ids keep working, and another home's
//! open episode (arrived by sync) is left to that home.

use crate::common;

use common::{HOME_ID, Sandbox, err_of, ok_data};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn record(sb: &Sandbox, session: &str, content: &str) -> Value {
    ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        session,
        "--content",
        content,
    ]))
}

fn session_dir(sb: &Sandbox, session: &str) -> PathBuf {
    sb.home().join("memory/episodes").join(session)
}

/// The file names in a session folder, sorted.
fn files_of(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A hand-written closed or open episode with one user turn per content.
fn write_episode(sb: &Sandbox, session: &str, id: &str, open: bool, contents: &[&str]) {
    let dir = session_dir(sb, session);
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for (i, content) in contents.iter().enumerate() {
        let line = json!({
            "schema": "agentbox.turn/v1",
            "id": format!("{id}#{}", i + 1),
            "session": session,
            "episode": id,
            "seq": i + 1,
            "ts": "2026-01-15T09:00:00Z",
            "role": "user",
            "content": content,
            "tool_calls": [],
            "tool_call_id": null,
            "source": "cli",
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    let name = if open {
        format!("{id}.open.jsonl")
    } else {
        format!("{id}.jsonl")
    };
    std::fs::write(dir.join(name), text).unwrap();
}

fn hit_ids(sb: &Sandbox, query: &str) -> Vec<String> {
    ok_data(&mut sb.agentbox(&["track", "search", query]))["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap().to_string())
        .collect()
}

fn list_ids(sb: &Sandbox) -> Vec<String> {
    ok_data(&mut sb.agentbox(&["track", "list", "--limit", "0"]))["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn new_ids_carry_the_home_id_minted_on_first_use() {
    let sb = Sandbox::empty();
    sb.agentbox(&["init"]).assert().success();
    let id_file = sb.home().join("local/home-id");
    assert!(!id_file.exists(), "init does not mint a home id");

    let data = record(&sb, "default", "first turn");
    let home_id = std::fs::read_to_string(&id_file).unwrap();
    let home_id = home_id.trim_end();
    assert_eq!(home_id.len(), 6, "{home_id:?}");
    assert!(
        home_id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
        "{home_id:?}"
    );
    assert!(home_id.as_bytes()[0].is_ascii_lowercase(), "{home_id:?}");
    let first = format!("ep-20260115T093000Z-{home_id}-1");
    assert_eq!(data["episode"], first.as_str());
    assert_eq!(data["ids"], json!([format!("{first}#1")]));

    // the id is kept: the next episode of the same second counts on
    ok_data(&mut sb.agentbox(&["track", "flush"]));
    let data = record(&sb, "default", "second episode");
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{home_id}-2").as_str()
    );
    assert_eq!(
        std::fs::read_to_string(&id_file).unwrap().trim_end(),
        home_id
    );
    // the counter runs across the home's sessions
    let data = record(&sb, "other", "third episode");
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{home_id}-3").as_str()
    );
}

#[test]
fn two_homes_mint_different_ids_for_the_same_second() {
    let a = Sandbox::empty();
    let b = Sandbox::empty();
    a.agentbox(&["init"]).assert().success();
    b.agentbox(&["init"]).assert().success();
    let ep_a = record(&a, "default", "from a")["episode"].clone();
    let ep_b = record(&b, "default", "from b")["episode"].clone();
    assert_ne!(ep_a, ep_b);
    let id_a = std::fs::read_to_string(a.home().join("local/home-id")).unwrap();
    let id_b = std::fs::read_to_string(b.home().join("local/home-id")).unwrap();
    assert_ne!(id_a, id_b);
    assert!(ep_a.as_str().unwrap().contains(id_a.trim_end()));
    assert!(ep_b.as_str().unwrap().contains(id_b.trim_end()));
}

#[test]
fn removing_the_home_id_gives_the_home_a_new_one() {
    let sb = Sandbox::new();
    let data = record(&sb, "default", "before the copy");
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{HOME_ID}-1").as_str()
    );
    ok_data(&mut sb.agentbox(&["track", "flush"]));
    std::fs::remove_file(sb.home().join("local/home-id")).unwrap();
    let data = record(&sb, "default", "after the copy");
    let fresh = std::fs::read_to_string(sb.home().join("local/home-id")).unwrap();
    assert_ne!(fresh.trim_end(), HOME_ID);
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{}-1", fresh.trim_end()).as_str()
    );
}

#[test]
fn a_bad_home_id_file_is_a_clear_error() {
    let sb = Sandbox::new();
    std::fs::write(sb.home().join("local/home-id"), "not an id\n").unwrap();
    let error = err_of(
        &mut sb.agentbox(&["track", "record", "--content", "hello"]),
        "invalid_args",
        2,
    );
    assert!(
        error["message"].as_str().unwrap().contains("home-id"),
        "{error}"
    );
    assert!(
        error["hint"].as_str().unwrap().contains("local/home-id"),
        "{error}"
    );
    assert!(!session_dir(&sb, "default").exists(), "nothing was written");
}

#[test]
fn a_legacy_home_keeps_working() {
    let sb = Sandbox::new();
    write_episode(
        &sb,
        "default",
        "ep-20260114T080000Z-1",
        false,
        &["the old closed walrus"],
    );
    write_episode(
        &sb,
        "default",
        "ep-20260115T090000Z-1",
        true,
        &["the old open narwhal"],
    );
    // appends go to the legacy open episode (it names no home)
    let data = record(&sb, "default", "a new narwhal turn");
    assert_eq!(data["episode"], "ep-20260115T090000Z-1");
    assert_eq!(data["ids"], json!(["ep-20260115T090000Z-1#2"]));
    let shown = ok_data(&mut sb.agentbox(&["track", "show", "ep-20260115T090000Z-1"]));
    assert_eq!(shown["episode"]["turns"], 2);
    assert_eq!(shown["episode"]["state"], "open");
    let by_session = ok_data(&mut sb.agentbox(&["track", "show", "--session", "default"]));
    assert_eq!(by_session["episode"]["id"], "ep-20260115T090000Z-1");
    assert_eq!(hit_ids(&sb, "walrus"), ["ep-20260114T080000Z-1#1"]);
    let mut narwhals = hit_ids(&sb, "narwhal");
    narwhals.sort();
    assert_eq!(
        narwhals,
        ["ep-20260115T090000Z-1#1", "ep-20260115T090000Z-1#2"]
    );
    // flush closes it; the next episode gets a new-form id
    let flushed = ok_data(&mut sb.agentbox(&["track", "flush"]));
    assert_eq!(flushed["flushed"], "ep-20260115T090000Z-1");
    let data = record(&sb, "default", "a fresh start");
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{HOME_ID}-1").as_str()
    );
    assert_eq!(
        files_of(&session_dir(&sb, "default")),
        [
            "ep-20260114T080000Z-1.jsonl".to_string(),
            "ep-20260115T090000Z-1.jsonl".to_string(),
            format!("ep-20260115T093000Z-{HOME_ID}-1.open.jsonl"),
        ]
    );
    assert_eq!(
        list_ids(&sb),
        [
            format!("ep-20260115T093000Z-{HOME_ID}-1"),
            "ep-20260115T090000Z-1".to_string(),
            "ep-20260114T080000Z-1".to_string(),
        ]
    );
    assert_eq!(ok_data(&mut sb.agentbox(&["doctor"]))["healthy"], true);
}

/// Home `b7x2m4` records an open episode in session `shared` and its file
/// is copied into `into`'s session folder, as a sync would bring it.
fn foreign_open_episode(into: &Sandbox) -> (String, Vec<u8>) {
    let other = Sandbox::new();
    std::fs::write(other.home().join("local/home-id"), "b7x2m4\n").unwrap();
    let data = ok_data(
        other
            .agentbox(&[
                "track",
                "record",
                "--session",
                "shared",
                "--content",
                "the foreign pelican",
            ])
            .env("AGENTBOX_NOW", "2026-01-15T09:29:00Z"),
    );
    let id = data["episode"].as_str().unwrap().to_string();
    assert_eq!(id, "ep-20260115T092900Z-b7x2m4-1");
    let name = format!("{id}.open.jsonl");
    let bytes = std::fs::read(session_dir(&other, "shared").join(&name)).unwrap();
    let dir = session_dir(into, "shared");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(&name), &bytes).unwrap();
    (id, bytes)
}

#[test]
fn a_foreign_open_episode_is_never_appended_to_or_closed() {
    let sb = Sandbox::new();
    let (foreign, bytes) = foreign_open_episode(&sb);
    let foreign_path = session_dir(&sb, "shared").join(format!("{foreign}.open.jsonl"));

    // a new own episode is opened beside it
    let data = record(&sb, "shared", "my own heron");
    let own = format!("ep-20260115T093000Z-{HOME_ID}-1");
    assert_eq!(data["episode"], own.as_str());
    assert_eq!(data["ids"], json!([format!("{own}#1")]));
    let data = record(&sb, "shared", "my second heron");
    assert_eq!(data["ids"], json!([format!("{own}#2")]));
    assert_eq!(std::fs::read(&foreign_path).unwrap(), bytes);

    // both are listed as open and both are searchable
    let rows = ok_data(&mut sb.agentbox(&["track", "list", "--session", "shared"]));
    let states: Vec<(String, String)> = rows["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["state"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            (own.clone(), "open".to_string()),
            (foreign.clone(), "open".to_string())
        ]
    );
    assert_eq!(hit_ids(&sb, "pelican"), [format!("{foreign}#1")]);
    assert_eq!(hit_ids(&sb, "heron").len(), 2);
    let shown = ok_data(&mut sb.agentbox(&["track", "show", &foreign]));
    assert_eq!(shown["turns"][0]["content"], "the foreign pelican");
    let by_session = ok_data(&mut sb.agentbox(&["track", "show", "--session", "shared"]));
    assert_eq!(by_session["episode"]["id"], own.as_str());

    // a duplicate check looks at the own episode only
    let again = record(&sb, "shared", "my second heron");
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["episode"], own.as_str());

    // flush closes the own episode only; a second flush finds nothing of ours
    let flushed = ok_data(&mut sb.agentbox(&["track", "flush", "--session", "shared"]));
    assert_eq!(flushed["flushed"], own.as_str());
    let flushed = ok_data(&mut sb.agentbox(&["track", "flush", "--session", "shared"]));
    assert_eq!(flushed["flushed"], Value::Null);
    assert_eq!(std::fs::read(&foreign_path).unwrap(), bytes);
    // the next turn opens another own episode, never the foreign one
    let data = record(&sb, "shared", "a third heron");
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{HOME_ID}-2").as_str()
    );
    assert_eq!(std::fs::read(&foreign_path).unwrap(), bytes);
    // --flush on a record also leaves it alone
    let data = ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        "shared",
        "--content",
        "last heron",
        "--flush",
    ]));
    assert_eq!(data["flushed"], true);
    assert_eq!(std::fs::read(&foreign_path).unwrap(), bytes);
    assert_eq!(
        files_of(&session_dir(&sb, "shared")),
        [
            format!("{foreign}.open.jsonl"),
            format!("{own}.jsonl"),
            format!("ep-20260115T093000Z-{HOME_ID}-2.jsonl"),
        ]
    );
}

#[test]
fn doctor_stays_healthy_with_a_foreign_open_episode() {
    let sb = Sandbox::new();
    record(&sb, "shared", "my own open turn");
    foreign_open_episode(&sb);
    // a sync refreshes the index after a pull; a search catches up the same way
    assert_eq!(hit_ids(&sb, "pelican").len(), 1);
    let data = ok_data(&mut sb.agentbox(&["doctor"]));
    assert_eq!(data["healthy"], true, "{data}");
    record(&sb, "shared", "my own second turn");
    let data = ok_data(&mut sb.agentbox(&["doctor"]));
    assert_eq!(data["healthy"], true, "{data}");
    ok_data(&mut sb.agentbox(&["reindex"]));
    assert_eq!(ok_data(&mut sb.agentbox(&["doctor"]))["healthy"], true);
    assert_eq!(hit_ids(&sb, "pelican").len(), 1);
}

const WORDS: [&str; 7] = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
];

#[test]
fn ids_sort_right_across_mixed_forms() {
    let sb = Sandbox::new();
    // stamp, then counter, then home id (a legacy id has none), then a
    // sync merge's rename suffix after its original
    let oldest_first = [
        "ep-20260101T000000Z-zzzzzz-1",
        "ep-20260115T093000Z-2",
        "ep-20260115T093000Z-2-0a1b2c",
        "ep-20260115T093000Z-aaaaaa-2",
        "ep-20260115T093000Z-k3f9q2-2-123456",
        "ep-20260115T093000Z-10",
        "ep-20260115T093000Z-k3f9q2-10",
    ];
    for (i, id) in oldest_first.iter().enumerate().rev() {
        let session = if i % 2 == 0 { "even" } else { "odd" };
        write_episode(&sb, session, id, false, &[&format!("otter {}", WORDS[i])]);
    }
    let newest_first: Vec<String> = oldest_first.iter().rev().map(|s| s.to_string()).collect();
    assert_eq!(list_ids(&sb), newest_first);
    // every form is found by id and by search
    for (i, id) in oldest_first.iter().enumerate() {
        let shown = ok_data(&mut sb.agentbox(&["track", "show", id]));
        assert_eq!(shown["turns"][0]["content"], format!("otter {}", WORDS[i]));
        assert_eq!(hit_ids(&sb, WORDS[i]), [format!("{id}#1")]);
    }
    // a session's episodes are oldest first in its folder's order too
    let odd = ok_data(&mut sb.agentbox(&["track", "list", "--session", "odd"]));
    let odd: Vec<&str> = odd["episodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        odd,
        [
            "ep-20260115T093000Z-10",
            "ep-20260115T093000Z-aaaaaa-2",
            "ep-20260115T093000Z-2"
        ]
    );
    // evolve mines them in the same order: its mark ends on the newest
    let run = ok_data(&mut sb.agentbox(&["evolve", "run"]));
    assert_eq!(run["episodes"], oldest_first.len());
    assert_eq!(
        run["high_water"]["episode"],
        "ep-20260115T093000Z-k3f9q2-10"
    );
}

#[test]
fn a_new_id_never_reuses_one_taken_in_another_session() {
    let sb = Sandbox::new();
    write_episode(
        &sb,
        "elsewhere",
        &format!("ep-20260115T093000Z-{HOME_ID}-1"),
        false,
        &["already here"],
    );
    let data = record(&sb, "default", "same second");
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{HOME_ID}-2").as_str()
    );
    // A torn note, another home id's, or one from a later second (the
    // clock was set back) checks every session folder too.
    for note in [
        "20260115T0930".to_string(),
        "garbage \u{0} bytes".to_string(),
        // another home id's note (the home id was removed since)
        "b7x2m4 20260115T093000Z 0\n".to_string(),
        format!("{HOME_ID} 20260116T000000Z 3\n"),
    ] {
        std::fs::create_dir_all(sb.home().join("locks")).unwrap();
        std::fs::write(sb.home().join("locks/episode-ids.lock"), &note).unwrap();
        let session = format!("s{}", note.len());
        let data = ok_data(&mut sb.agentbox(&[
            "track",
            "record",
            "--session",
            &session,
            "--content",
            "x",
            "--flush",
        ]));
        let episode = data["episode"].as_str().unwrap().to_string();
        assert_ne!(
            episode,
            format!("ep-20260115T093000Z-{HOME_ID}-1"),
            "note {note:?}"
        );
        assert!(episode.starts_with("ep-20260115T093000Z-"), "{episode}");
    }
    // A clock set back leaves the later second in the note.
    assert_eq!(id_note(&sb), format!("{HOME_ID} 20260116T000000Z 3\n"));
}

#[test]
fn a_retry_check_never_matches_another_homes_episode() {
    let sb = Sandbox::new();
    // another home's closed episode, newer than anything of ours, ends with "done"
    write_episode(
        &sb,
        "shared",
        "ep-20260115T092000Z-b7x2m4-1",
        false,
        &["done"],
    );
    let data = ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        "shared",
        "--content",
        "done",
        "--flush",
    ]));
    assert_eq!(data["duplicate"], false, "{data}");
    assert_eq!(data["count"], 1);
    assert_eq!(
        data["episode"],
        format!("ep-20260115T093000Z-{HOME_ID}-1").as_str()
    );
    // a retry of that save is recognised against our own closed episode
    let again = ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        "shared",
        "--content",
        "done",
        "--flush",
    ]));
    assert_eq!(again["duplicate"], true, "{again}");
    assert_eq!(
        again["episode"],
        format!("ep-20260115T093000Z-{HOME_ID}-1").as_str()
    );
}

/// The note the episode-id lock keeps: `<second> <last counter>`.
fn id_note(sb: &Sandbox) -> String {
    std::fs::read_to_string(sb.home().join("locks/episode-ids.lock")).unwrap()
}

#[test]
fn minting_continues_after_the_counter_the_id_lock_noted() {
    let sb = Sandbox::new();
    // (note before, new session, counter minted): no note checks every
    // folder; the note, not the other sessions' folders, then says which
    // counters of this second are used; a note from an earlier second
    // starts this one at 1 again.
    for (before, session, n) in [
        (None, "a", 1),
        (Some("20260115T093000Z 5"), "b", 6),
        (Some("20260115T092959Z 9"), "c", 1),
    ] {
        if let Some(note) = before {
            std::fs::write(
                sb.home().join("locks/episode-ids.lock"),
                format!("{HOME_ID} {note}\n"),
            )
            .unwrap();
        }
        let data = record(&sb, session, "a turn");
        assert_eq!(
            data["episode"],
            format!("ep-20260115T093000Z-{HOME_ID}-{n}").as_str(),
            "{before:?}"
        );
        assert_eq!(id_note(&sb), format!("{HOME_ID} 20260115T093000Z {n}\n"));
    }
}
