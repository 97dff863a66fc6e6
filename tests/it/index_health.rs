//! The derived search index heals itself: a damaged database is rebuilt, a
//! write whose index update fails is still saved (with a warning and a stale
//! marker), an index behind its files is reported by `doctor` and caught up
//! by the next search, and nothing is read or written through a symlink
//! inside the home.

use crate::common;

use common::{Sandbox, envelope, err_of, index_db as db, ok_data, search_ids as found};
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

/// Ways to damage a built index.
fn damage(sb: &Sandbox, how: &str) {
    let db = db(sb);
    match how {
        "garbage" => fs::write(&db, vec![0xA5u8; 8192]).unwrap(),
        "truncated" => {
            let len = fs::metadata(&db).unwrap().len();
            let file = fs::OpenOptions::new().write(true).open(&db).unwrap();
            file.set_len(len / 2).unwrap();
        }
        other => panic!("unknown damage {other}"),
    }
}

/// A home whose index is built and holds a few documents, then is damaged.
fn damaged(how: &str) -> Sandbox {
    let sb = Sandbox::new();
    for i in 0..30 {
        let text = format!("filler turn number {i} about the billing cron");
        ok_data(&mut sb.agentbox(&["track", "record", "--content", &text]));
    }
    assert_eq!(found(&sb, "billing").len(), 10);
    // The last connection folded the WAL into search.db on close.
    assert!(fs::metadata(db(&sb)).unwrap().len() > 8192);
    damage(&sb, how);
    sb
}

/// Runs `memory_mcp` through its link with one tools/call per element of
/// `calls`; returns each call's JSON status (the text of its result).
fn mcp_saves(sb: &Sandbox, calls: &[(&str, Value)]) -> Vec<Value> {
    let mut input = String::new();
    input.push_str(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string());
    input.push('\n');
    input.push_str(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
    input.push('\n');
    for (i, (name, args)) in calls.iter().enumerate() {
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": name, "arguments": args}});
        input.push_str(&call.to_string());
        input.push('\n');
    }
    let out = sb
        .command(sb.home().join("tools").join("memory_mcp"))
        .write_stdin(input)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (1..=calls.len())
        .map(|id| {
            let reply = replies
                .iter()
                .find(|r| r["id"] == id)
                .unwrap_or_else(|| panic!("no reply {id} in {stdout}"));
            let text = reply["result"]["content"][0]["text"].as_str().unwrap();
            serde_json::from_str(text).unwrap()
        })
        .collect()
}

#[test]
fn every_write_path_heals_a_garbage_or_truncated_index() {
    for how in ["garbage", "truncated"] {
        let sb = damaged(how);
        let data = ok_data(&mut sb.agentbox(&[
            "track",
            "record",
            "--content",
            "the walrus deploy key rotates",
        ]));
        assert_eq!(data["count"], 1, "{how}");
        damage(&sb, how);
        ok_data(&mut sb.agentbox(&[
            "knowledge",
            "add",
            "Walrus notes",
            "--body",
            "the walrus service runs on port 8080",
        ]));
        damage(&sb, how);
        ok_data(&mut sb.agentbox(&[
            "knowledge",
            "profile",
            "add",
            "Prefers walrus over penguin",
            "--preference",
        ]));
        damage(&sb, how);
        let statuses = mcp_saves(
            &sb,
            &[
                (
                    "mem_save_turn",
                    json!({"messages": [{"role": "user", "content": "walrus via mcp"}], "sessionKey": "m"}),
                ),
                (
                    "mem_save_fact",
                    json!({"fact": "The walrus lives in Oslo."}),
                ),
            ],
        );
        for status in &statuses {
            assert_eq!(status["status"], "saved", "{how}: {status}");
            assert!(status.get("warnings").is_none(), "{how}: {status}");
        }
        let hits = found(&sb, "walrus");
        assert_eq!(hits.len(), 5, "{how}: {hits:?}");
        assert_eq!(found(&sb, "billing").len(), 10, "{how}: rebuilt whole");
    }
}

#[test]
fn search_on_a_damaged_index_rebuilds_it_once() {
    for how in ["garbage", "truncated"] {
        let sb = damaged(how);
        assert_eq!(found(&sb, "billing").len(), 10, "{how}");
        // healed for good: the next search uses the rebuilt database as it is
        let inode = || {
            use std::os::unix::fs::MetadataExt;
            fs::metadata(db(&sb)).unwrap().ino()
        };
        let before = inode();
        assert_eq!(found(&sb, "cron").len(), 10, "{how}");
        assert_eq!(inode(), before, "{how}: rebuilt again");
        let check = doctor_index(&sb);
        assert_eq!(check["ok"], true, "{how}: {check}");
    }
}

#[test]
fn reindex_rebuilds_from_scratch_whatever_state_the_database_is_in() {
    for how in ["garbage", "truncated"] {
        let sb = damaged(how);
        // a garbage WAL beside it too
        fs::write(
            sb.home().join("index").join("search.db-wal"),
            vec![0x5Au8; 4096],
        )
        .unwrap();
        let data = ok_data(&mut sb.agentbox(&["reindex"]));
        assert_eq!(data["turns"], 30, "{how}: {data}");
        assert_eq!(found(&sb, "billing").len(), 10, "{how}");
    }
    // garbage with no index lock folder at all
    let sb = damaged("garbage");
    fs::remove_dir_all(sb.home().join("locks")).unwrap();
    assert_eq!(ok_data(&mut sb.agentbox(&["reindex"]))["turns"], 30);
}

/// `doctor`'s index check.
fn doctor_index(sb: &Sandbox) -> Value {
    let (env, _) = envelope(&mut sb.agentbox(&["doctor"]));
    env["data"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "index")
        .cloned()
        .expect("an index check")
}

#[test]
fn a_write_whose_index_update_fails_is_saved_with_a_warning_and_caught_up_later() {
    let sb = Sandbox::new();
    ok_data(&mut sb.agentbox(&["track", "record", "--content", "first turn"]));
    // The index cannot be opened: something that is not a file sits where its WAL goes.
    let wal = sb.home().join("index").join("search.db-wal");
    // The WAL file is kept between calls (SQLITE_FCNTL_PERSIST_WAL).
    fs::remove_file(&wal).unwrap();
    fs::create_dir(&wal).unwrap();
    let (env, code) = envelope(&mut sb.agentbox(&[
        "track",
        "record",
        "--content",
        "the narwhal migration finished",
    ]));
    assert_eq!((env["ok"].clone(), code), (json!(true), 0), "{env}");
    let warning = env["meta"]["warnings"][0].as_str().unwrap();
    assert!(
        warning.starts_with("saved, but the search index could not be updated: ")
            && warning.contains("search.db-wal")
            && warning.ends_with("run `agentbox reindex`"),
        "{warning}"
    );
    assert!(sb.home().join("index").join("STALE").is_file());
    // text mode: the warning on stderr, the success on stdout
    let out = sb
        .agentbox(&[
            "--format",
            "text",
            "knowledge",
            "add",
            "Narwhal",
            "--body",
            "the narwhal runbook",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: saved, but the search index could not be updated"),
        "{stderr}"
    );
    ok_data(&mut sb.agentbox(&["knowledge", "profile", "add", "Likes narwhal facts"]));
    let statuses = mcp_saves(
        &sb,
        &[
            (
                "mem_save_turn",
                json!({"messages": [{"role": "user", "content": "narwhal via mcp"}]}),
            ),
            (
                "mem_save_fact",
                json!({"fact": "The narwhal tusk is a tooth."}),
            ),
        ],
    );
    for status in &statuses {
        // saved, not rejected: a retry would write it twice
        assert_eq!(status["status"], "saved", "{status}");
        assert!(
            status["warnings"][0]
                .as_str()
                .unwrap()
                .contains("could not be updated"),
            "{status}"
        );
    }
    // a retry of the MCP turn is a duplicate, not a second copy
    let again = mcp_saves(
        &sb,
        &[(
            "mem_save_turn",
            json!({"messages": [{"role": "user", "content": "narwhal via mcp"}]}),
        )],
    );
    assert_eq!(again[0]["status"], "duplicate", "{}", again[0]);
    let episodes = sb.home().join("memory/episodes/default");
    let text: String = fs::read_dir(&episodes)
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(text.matches("narwhal via mcp").count(), 1);
    assert_eq!(text.matches("narwhal migration").count(), 1);
    // doctor sees the marker; once the obstacle is gone the next search catches up
    assert_eq!(doctor_index(&sb)["ok"], false);
    fs::remove_dir(&wal).unwrap();
    let check = doctor_index(&sb);
    assert_eq!(check["ok"], false, "{check}");
    assert!(
        check["message"].as_str().unwrap().contains("STALE"),
        "{check}"
    );
    assert_eq!(found(&sb, "narwhal").len(), 5);
    assert!(!sb.home().join("index").join("STALE").exists());
    assert_eq!(doctor_index(&sb)["ok"], true);
}

/// Appends a turn line to an episode file directly, as if the writer died
/// before it updated the index.
fn append_turn(path: &Path, seq: u64, content: &str) {
    let text = fs::read_to_string(path).unwrap();
    let mut turn: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let episode = turn["episode"].as_str().unwrap().to_string();
    turn["id"] = json!(format!("{episode}#{seq}"));
    turn["seq"] = json!(seq);
    turn["content"] = json!(content);
    fs::write(path, format!("{text}{turn}\n")).unwrap();
}

#[test]
fn doctor_reports_an_index_behind_its_episodes_and_search_catches_up() {
    let sb = Sandbox::new();
    let data = ok_data(&mut sb.agentbox(&["track", "record", "--content", "first turn"]));
    assert_eq!(found(&sb, "first").len(), 1);
    assert_eq!(doctor_index(&sb)["ok"], true);
    let open = sb
        .home()
        .join("memory/episodes/default")
        .join(format!("{}.open.jsonl", data["episode"].as_str().unwrap()));
    append_turn(&open, 2, "the okapi crashed mid-write");
    let check = doctor_index(&sb);
    assert_eq!(check["ok"], false, "{check}");
    assert!(
        check["hint"].as_str().unwrap().contains("agentbox reindex"),
        "{check}"
    );
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .contains("memory/episodes/default/"),
        "{check}"
    );
    let (env, _) = envelope(&mut sb.agentbox(&["doctor"]));
    assert_eq!(env["data"]["healthy"], false);
    assert_eq!(found(&sb, "okapi").len(), 1);
    assert_eq!(doctor_index(&sb)["ok"], true);

    // a closed episode that reached its folder but not the index (a crash
    // after an import or a flush), in a session the index never saw
    let session = sb.home().join("memory/episodes/zoo");
    fs::create_dir(&session).unwrap();
    let closed = session.join("ep-20260115T093000Z-9.jsonl");
    let mut line: Value =
        serde_json::from_str(fs::read_to_string(&open).unwrap().lines().next().unwrap()).unwrap();
    line["id"] = json!("ep-20260115T093000Z-9#1");
    line["episode"] = json!("ep-20260115T093000Z-9");
    line["session"] = json!("zoo");
    line["content"] = json!("the quokka smiles");
    fs::write(&closed, format!("{line}\n")).unwrap();
    assert_eq!(doctor_index(&sb)["ok"], false);
    assert_eq!(found(&sb, "quokka"), ["ep-20260115T093000Z-9#1"]);
    // and one deleted behind the index's back drops out
    fs::remove_file(&closed).unwrap();
    assert_eq!(doctor_index(&sb)["ok"], false);
    assert!(found(&sb, "quokka").is_empty());
    assert_eq!(doctor_index(&sb)["ok"], true);
    // the writer itself catches up too: the next append re-extracts a file
    // the index is behind on
    append_turn(&open, 3, "the pangolin was lost");
    ok_data(&mut sb.agentbox(&["track", "record", "--content", "another"]));
    assert_eq!(doctor_index(&sb)["ok"], true);
    assert_eq!(found(&sb, "pangolin").len(), 1);
}

/// A one-shot call that changed nothing leaves its connection for the
/// process exit to close (`search::leave_at_exit`); one that wrote closes
/// it, and the close checkpoints the WAL for the next call: it is empty
/// after a save and after a search that caught up with a file.
#[test]
fn a_call_that_wrote_checkpoints_the_wal_when_it_ends() {
    let sb = Sandbox::new();
    let wal = sb.home().join("index").join("search.db-wal");
    let wal_len = || fs::metadata(&wal).unwrap().len();
    let data = ok_data(&mut sb.agentbox(&["track", "record", "--content", "first turn"]));
    assert_eq!(wal_len(), 0, "the save's close checkpointed the WAL");
    assert_eq!(found(&sb, "first").len(), 1);
    assert_eq!(wal_len(), 0, "a search that only read wrote nothing");
    let open = sb
        .home()
        .join("memory/episodes/default")
        .join(format!("{}.open.jsonl", data["episode"].as_str().unwrap()));
    append_turn(&open, 2, "the okapi crashed mid-write");
    assert_eq!(found(&sb, "okapi").len(), 1);
    assert_eq!(wal_len(), 0, "the search that caught up checkpointed");
    assert_eq!(found(&sb, "okapi").len(), 1);
}

/// Every file below `dir`, with its content.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Replaces the home's folder `rel` by a symlink to a fresh outside folder
/// holding one file; returns that folder.
fn link_out(sb: &Sandbox, rel: &str) -> tempfile::TempDir {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("keep.txt"), "outside").unwrap();
    let path = sb.home().join(rel);
    if path.exists() {
        fs::remove_dir_all(&path).unwrap();
    }
    std::os::unix::fs::symlink(outside.path(), &path).unwrap();
    outside
}

#[test]
fn symlinked_folders_of_the_home_are_refused_and_their_targets_untouched() {
    // index/: search, reindex and doctor refuse; a write saves its file
    // (inside the home) and warns that the index could not be updated
    let sb = Sandbox::new();
    let outside = link_out(&sb, "index");
    let before = snapshot(outside.path());
    let err = err_of(&mut sb.agentbox(&["search", "anything"]), "permission", 1);
    assert!(
        err["message"].as_str().unwrap().contains("is a symlink"),
        "{err}"
    );
    assert_eq!(
        err["detail"]["path"],
        sb.home().join("index").display().to_string()
    );
    err_of(&mut sb.agentbox(&["reindex"]), "permission", 1);
    let (env, _) = envelope(&mut sb.agentbox(&["track", "record", "--content", "secret plan"]));
    assert_eq!(env["ok"], true, "{env}");
    assert!(
        env["meta"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("is a symlink")
    );
    assert_eq!(doctor_index(&sb)["ok"], false);
    assert_eq!(snapshot(outside.path()), before);

    // locks/, memory/episodes and one session folder: every write refuses
    for rel in [
        "locks",
        "memory/episodes",
        "memory/episodes/work",
        "memory/knowledge",
        "memory/personal",
    ] {
        let sb = Sandbox::new();
        fs::create_dir_all(sb.home().join("memory/episodes/work")).unwrap();
        let outside = link_out(&sb, rel);
        let before = snapshot(outside.path());
        let record = [
            "track",
            "record",
            "--session",
            "work",
            "--content",
            "secret plan",
        ];
        let add = ["knowledge", "add", "Secret", "--body", "secret plan"];
        let fact = ["knowledge", "profile", "add", "Secret plan"];
        let refused = match rel {
            "memory/knowledge" => &add[..],
            "memory/personal" => &fact[..],
            _ => &record[..],
        };
        let err = err_of(&mut sb.agentbox(refused), "permission", 1);
        assert!(
            err["message"].as_str().unwrap().contains("is a symlink"),
            "{rel}: {err}"
        );
        let statuses = mcp_saves(
            &sb,
            &[(
                "mem_save_turn",
                json!({"messages": [{"role": "user", "content": "secret plan"}], "sessionKey": "work"}),
            )],
        );
        if rel != "memory/knowledge" && rel != "memory/personal" {
            assert_eq!(statuses[0]["status"], "rejected", "{rel}");
            assert_eq!(statuses[0]["errorType"], "permission", "{rel}");
        }
        assert_eq!(snapshot(outside.path()), before, "{rel}");
    }
}

#[test]
fn a_symlinked_database_file_is_refused() {
    let sb = Sandbox::new();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("other.db");
    fs::write(&target, "not yours").unwrap();
    std::os::unix::fs::symlink(&target, db(&sb)).unwrap();
    err_of(&mut sb.agentbox(&["search", "x"]), "permission", 1);
    err_of(&mut sb.agentbox(&["reindex"]), "permission", 1);
    assert_eq!(fs::read_to_string(&target).unwrap(), "not yours");
}

#[test]
fn an_index_folder_that_is_a_file_is_named_with_a_hint() {
    // Works as root too: a file where index/ goes.
    let sb = Sandbox::new();
    fs::remove_dir_all(sb.home().join("index")).unwrap();
    fs::write(sb.home().join("index"), "in the way").unwrap();
    let err = err_of(&mut sb.agentbox(&["search", "x"]), "conflict", 1);
    assert_eq!(
        err["detail"]["path"],
        sb.home().join("index").display().to_string()
    );
    assert!(
        err["hint"].as_str().unwrap().contains("move it away"),
        "{err}"
    );
    err_of(&mut sb.agentbox(&["reindex"]), "conflict", 1);
    let (env, _) = envelope(&mut sb.agentbox(&["track", "record", "--content", "kept"]));
    assert_eq!(env["ok"], true, "{env}");
    assert!(
        env["meta"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("in the way")
    );
    fs::remove_file(sb.home().join("index")).unwrap();
    assert_eq!(found(&sb, "kept").len(), 1);
}

#[test]
fn a_read_only_home_is_a_permission_error_naming_the_path() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    ok_data(&mut sb.agentbox(&["track", "record", "--content", "hello"]));
    let set = |mode: u32| {
        for entry in walk(&sb.home()) {
            let meta = fs::symlink_metadata(&entry).unwrap();
            if meta.file_type().is_symlink() {
                continue;
            }
            let m = if meta.is_dir() { mode | 0o111 } else { mode };
            fs::set_permissions(&entry, fs::Permissions::from_mode(m)).unwrap();
        }
    };
    set(0o444);
    // Root (CI containers) ignores permissions, so as root the commands run
    // as the unprivileged user `nobody` (uid 65534) through setpriv.
    let privileged = fs::write(sb.home().join("index").join("probe"), "x").is_ok();
    let _ = fs::remove_file(sb.home().join("index").join("probe"));
    let has_setpriv = std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    // Never a silent pass: without setpriv (util-linux) this test cannot
    // run as root, and says so by failing.
    assert!(
        !privileged || has_setpriv,
        "this user bypasses file permissions and setpriv (util-linux) is missing: install util-linux"
    );
    fs::set_permissions(sb.path(), fs::Permissions::from_mode(0o755)).unwrap();
    // `nobody` may not be able to reach the build's binary (a clone under
    // /root is 0700): run a copy from the sandbox, which it can reach.
    let bin = sb.path().join("agentbox-for-nobody");
    if privileged {
        fs::copy(common::bin(), &bin).unwrap();
        fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let run = |args: &[&str]| {
        if privileged {
            let mut cmd = sb.command("setpriv");
            cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&bin)
                .args(args);
            cmd
        } else {
            sb.agentbox(args)
        }
    };
    // Reading needs no write: the WAL and its index file are kept between
    // calls, so a search of a read-only home answers.
    let (found, code) = envelope(&mut run(&["search", "hello"]));
    assert_eq!(
        (found["data"]["hits"][0]["snippet"].clone(), code),
        (json!("hello"), 0),
        "{found}"
    );
    // Without them (a home copied without its index's WAL files), the
    // search cannot create them: a permission error.
    set(0o755);
    for file in ["search.db-wal", "search.db-shm"] {
        fs::remove_file(sb.home().join("index").join(file)).unwrap();
    }
    set(0o444);
    let search = err_of(&mut run(&["search", "hello"]), "permission", 1);
    let reindex = err_of(&mut run(&["reindex"]), "permission", 1);
    let record = err_of(
        &mut run(&["track", "record", "--content", "more"]),
        "permission",
        1,
    );
    set(0o755);
    for err in [&search, &reindex, &record] {
        assert!(
            err["detail"]["path"]
                .as_str()
                .unwrap()
                .starts_with(&sb.home().display().to_string()),
            "{err}"
        );
        assert!(
            err["hint"].as_str().unwrap().contains("write access"),
            "{err}"
        );
    }
    assert!(
        search["message"].as_str().unwrap().contains("not writable"),
        "{search}"
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        let path = out[i].clone();
        if fs::symlink_metadata(&path).unwrap().is_dir() {
            for entry in fs::read_dir(&path).unwrap() {
                out.push(entry.unwrap().path());
            }
        }
        i += 1;
    }
    out
}

/// The documents and their terms are written and removed together (in code,
/// not by triggers): after adds, appends, rewrites and removals, FTS5's own
/// integrity check against the documents passes and no stale term matches.
#[test]
fn terms_follow_their_documents_through_rewrites_and_removals() {
    let sb = Sandbox::new();
    for word in ["narwhal", "walrus", "narwhal again"] {
        ok_data(&mut sb.agentbox(&["track", "record", "--content", word]));
    }
    // Closing the episode renames its file: the turns move with it.
    ok_data(&mut sb.agentbox(&["track", "flush"]));
    let hits = ok_data(&mut sb.agentbox(&["search", "narwhal"]));
    for hit in hits["hits"].as_array().unwrap() {
        let source = hit["source"].as_str().unwrap();
        assert!(!source.ends_with(".open.jsonl"), "{hit}");
        assert!(sb.home().join(source).is_file(), "{hit}");
    }
    ok_data(&mut sb.agentbox(&[
        "knowledge",
        "add",
        "Oslo notes",
        "--body",
        "the narwhal lives in Oslo",
    ]));
    ok_data(&mut sb.agentbox(&["knowledge", "profile", "add", "Prefers narwhal facts"]));
    assert_eq!(found(&sb, "narwhal").len(), 4);
    // A note rewritten by hand and found again by the next search.
    let note = walk(&sb.home().join("memory").join("knowledge"))
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "md"))
        .expect("a note file");
    let text = fs::read_to_string(&note)
        .unwrap()
        .replace("narwhal", "penguin");
    fs::write(&note, text).unwrap();
    assert_eq!(found(&sb, "narwhal").len(), 3);
    assert_eq!(found(&sb, "penguin").len(), 1);
    fs::remove_file(&note).unwrap();
    assert_eq!(found(&sb, "penguin").len(), 0);
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    conn.execute(
        "INSERT INTO fts(fts, rank) VALUES ('integrity-check', 1)",
        [],
    )
    .expect("the terms match the documents");
    let triggers: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(triggers, 0, "FTS5 flushes at every trigger's savepoint");
}
