//! `sync` pulls that cannot be written as they are: a file where the other
//! home has a folder, a remote symlink, a file over the home's limits, a path
//! only a case-insensitive file system confuses with a never-synced one. Each
//! ends as a reported conflict with both versions kept and a way out; and what
//! a pull writes is indexed and, for personas, recorded as pulled.

use crate::common;

use common::sync::{Remote, ab, doctor_sync_check, fails, home_on, note, ok};
use common::{Sandbox, envelope};
use serde_json::Value;

fn write(sb: &Sandbox, rel: &str, bytes: &[u8]) {
    let path = sb.home().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn status(sb: &Sandbox) -> Value {
    ok(sb, &["sync", "status"])
}

/// The `index` line of `agentbox doctor`.
fn doctor_index_check(sb: &Sandbox) -> Value {
    let doctor = ok(sb, &["doctor"]);
    doctor["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "index")
        .cloned()
        .expect("an index check")
}

/// Item 2: home A has `skills/tool/SKILL.md`, home B a plain file
/// `skills/tool` (and the other way round): B's sync ends as a conflict that
/// keeps both, nothing is wedged, and resolving it syncs again.
#[test]
fn a_file_folder_clash_between_two_homes_is_a_conflict_that_keeps_both() {
    for b_has_the_file in [true, false] {
        let remote = Remote::new();
        let a = home_on(&remote);
        let b = home_on(&remote);
        let (folder_home, file_home) = if b_has_the_file { (&a, &b) } else { (&b, &a) };
        write(
            folder_home,
            "skills/tool/SKILL.md",
            b"---\nname: tool\n---\nfolder side\n",
        );
        write(file_home, "skills/tool", b"file side\n");
        ok(&a, &["sync", "now"]);
        let err = fails(&b, &["sync", "now"], "conflict", 1);
        let files = err["detail"]["files"].to_string();
        assert!(files.contains("skills/tool"), "{err}");
        // Both versions kept: B's in place, A's beside it under `.remote`
        // (a folder of the remote under `sync.remote/`).
        if b_has_the_file {
            assert_eq!(
                std::fs::read(b.home().join("skills/tool")).unwrap(),
                b"file side\n"
            );
            let copy = b.home().join("sync.remote/skills/tool/SKILL.md");
            assert_eq!(
                std::fs::read_to_string(&copy).unwrap(),
                "---\nname: tool\n---\nfolder side\n",
                "{err}"
            );
            assert!(
                err["hint"]
                    .as_str()
                    .unwrap()
                    .contains("sync.remote/skills/tool/SKILL.md"),
                "{err}"
            );
        } else {
            assert_eq!(
                std::fs::read_to_string(b.home().join("skills/tool/SKILL.md")).unwrap(),
                "---\nname: tool\n---\nfolder side\n"
            );
            assert_eq!(
                std::fs::read(b.home().join("skills/tool.remote")).unwrap(),
                b"file side\n",
                "{err}"
            );
        }
        // The copy is never indexed nor taken for a skill of the home.
        let check = doctor_index_check(&b);
        assert_eq!(check["ok"], true, "{check}");
        let skills = ok(&b, &["skill_forge", "list"]);
        assert!(!skills.to_string().contains("tool.remote"), "{skills}");
        // Not wedged: no interrupted pull, doctor names the conflict.
        let st = status(&b);
        assert_eq!(st["interrupted_pull"], false, "{st}");
        assert!(st["conflict"].to_string().contains("skills/tool"), "{st}");
        let check = doctor_sync_check(&b);
        assert_eq!(check["ok"], false, "{check}");
        assert!(check.to_string().contains(".remote"), "{check}");
        // The person keeps B's version and moves the other one aside.
        let copy = if b_has_the_file {
            b.home().join("sync.remote/skills/tool")
        } else {
            b.home().join("skills/tool.remote")
        };
        std::fs::rename(&copy, b.home().join("skills/tool2")).unwrap();
        ok(&b, &["sync", "now"]);
        ok(&a, &["sync", "now"]);
        assert_eq!(status(&b)["interrupted_pull"], false);
        assert_eq!(doctor_sync_check(&b)["ok"], true);
        assert!(a.home().join("skills/tool2").exists());
    }
}

/// Item 2: a remote tree with a symlink `plans` where the home has a folder
/// of plans: a conflict, the folder untouched, the link never made.
#[test]
fn a_remote_symlink_where_the_home_has_a_folder_is_a_conflict() {
    let remote = Remote::new();
    let b = home_on(&remote);
    ok(&b, &["sync", "now"]);
    let a = home_on(&remote);
    remote.plant(&[("plans", b"/etc", 0o120000)]);
    ok(&b, &["plan", "create", "Ship", "--step", "one"]);
    let before: Vec<_> = std::fs::read_dir(b.home().join("plans")).unwrap().collect();
    let err = fails(&b, &["sync", "now"], "conflict", 1);
    assert!(
        err["detail"]["files"].to_string().contains("plans"),
        "{err}"
    );
    let meta = std::fs::symlink_metadata(b.home().join("plans")).unwrap();
    assert!(meta.is_dir(), "plans is still a folder");
    let after: Vec<_> = std::fs::read_dir(b.home().join("plans")).unwrap().collect();
    assert_eq!(before.len(), after.len());
    assert_eq!(status(&b)["interrupted_pull"], false);
    drop(a);
}

/// Item 2: a remote that legitimately replaced a folder with a file (and a
/// file with a folder) fast-forwards cleanly: deletions go first.
#[test]
fn a_remote_that_swaps_a_folder_and_a_file_fast_forwards() {
    let remote = Remote::new();
    let a = home_on(&remote);
    write(&a, "skills/x/SKILL.md", b"---\nname: x\n---\nx\n");
    write(&a, "skills/y", b"y file\n");
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    assert!(b.home().join("skills/x/SKILL.md").is_file());
    std::fs::remove_dir_all(a.home().join("skills/x")).unwrap();
    write(&a, "skills/x", b"x is a file now\n");
    std::fs::remove_file(a.home().join("skills/y")).unwrap();
    write(&a, "skills/y/SKILL.md", b"---\nname: y\n---\ny\n");
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert_eq!(
        std::fs::read(b.home().join("skills/x")).unwrap(),
        b"x is a file now\n"
    );
    assert!(b.home().join("skills/y/SKILL.md").is_file());
    assert_eq!(status(&b)["interrupted_pull"], false);
}

/// Item 2: a pull that keeps failing mid-apply is never a loop: doctor and
/// the error name `sync abort`, which drops it and keeps every file.
#[test]
fn an_interrupted_pull_that_keeps_failing_can_be_aborted() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    // B's knowledge folder becomes a link: every write into it is refused.
    let outside = tempfile::tempdir().unwrap();
    let moved = outside.path().join("knowledge");
    std::fs::rename(b.home().join("memory/knowledge"), &moved).unwrap();
    std::os::unix::fs::symlink(&moved, b.home().join("memory/knowledge")).unwrap();
    remote.plant(&[
        ("memory/episodes/s/a.jsonl", b"{}\n", 0o100644),
        (
            "memory/knowledge/in.md",
            b"---\ntitle: In\n---\nx\n",
            0o100644,
        ),
    ]);
    let err = fails(&b, &["sync", "pull"], "permission", 1);
    let interrupted = status(&b)["interrupted_pull"] == true;
    if interrupted {
        assert!(
            err["hint"].as_str().unwrap().contains("sync abort"),
            "{err}"
        );
        let check = doctor_sync_check(&b);
        assert!(check.to_string().contains("sync abort"), "{check}");
        let again = fails(&b, &["sync", "now"], "permission", 1);
        assert!(
            again["hint"].as_str().unwrap().contains("sync abort"),
            "{again}"
        );
    }
    let data = ok(&b, &["sync", "abort"]);
    assert!(data.is_object(), "{data}");
    assert_eq!(status(&b)["interrupted_pull"], false);
    // The link removed, the next sync takes everything.
    std::fs::remove_file(b.home().join("memory/knowledge")).unwrap();
    std::fs::rename(&moved, b.home().join("memory/knowledge")).unwrap();
    ok(&b, &["sync", "now"]);
    assert!(b.home().join("memory/knowledge/in.md").is_file());
    assert!(b.home().join("memory/episodes/s/a.jsonl").is_file());
    assert_eq!(doctor_sync_check(&b)["ok"], true);
    assert!(!moved.join("in.md").exists());
}

/// Item 19: a symlink in a remote tree is neither made nor written as a
/// regular file holding its target: it is a conflict.
#[test]
fn a_remote_symlink_is_a_conflict_not_a_file() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    remote.plant(&[
        ("memory/knowledge/passwd.md", b"/etc/passwd", 0o120000),
        (
            "memory/knowledge/fine.md",
            b"---\ntitle: Fine\n---\nok\n",
            0o100644,
        ),
    ]);
    let err = fails(&a, &["sync", "pull"], "conflict", 1);
    assert!(
        err["detail"]["files"]
            .to_string()
            .contains("memory/knowledge/passwd.md"),
        "{err}"
    );
    assert!(
        err["detail"]["reasons"].to_string().contains("symlink"),
        "{err}"
    );
    assert!(
        std::fs::symlink_metadata(a.home().join("memory/knowledge/passwd.md")).is_err(),
        "the link entry was written"
    );
    assert!(a.home().join("memory/knowledge/fine.md").is_file());
    // Resolved by deleting the copy: sync goes on, the link stays out.
    let copy = a.home().join("memory/knowledge/passwd.md.remote");
    if copy.exists() {
        std::fs::remove_file(&copy).unwrap();
    }
    ok(&a, &["sync", "now"]);
    ok(&a, &["sync", "now"]);
    assert!(std::fs::symlink_metadata(a.home().join("memory/knowledge/passwd.md")).is_err());
    assert_eq!(doctor_sync_check(&a)["ok"], true);
}

/// Item 19: a persona pulled from another home is a pulled revision, not a
/// hand edit.
#[test]
fn a_pulled_persona_is_not_shown_as_edited_by_hand() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["persona", "create", "ada", "--trait", "tone=dry"]);
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    let shown = ok(&b, &["persona", "list"]);
    assert!(shown.to_string().contains("ada"), "{shown}");
    assert!(
        !shown.to_string().contains("\"hand_edited\":true"),
        "{shown}"
    );
    ok(&a, &["persona", "set", "ada", "tone=warm"]);
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    let shown = ok(&b, &["persona", "list"]);
    assert!(
        !shown.to_string().contains("\"hand_edited\":true"),
        "{shown}"
    );
    let history = ok(&b, &["persona", "history", "ada"]);
    assert!(history.to_string().contains("pulled"), "{history}");
}

/// Item 21: what a pull writes is indexed, even when the pull ends on a
/// conflict.
#[test]
fn what_a_pull_writes_is_indexed_even_when_it_ends_on_a_conflict() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    ok(&b, &["search", "anything"]);
    note(&a, "Zebra facts", "Zebras are striped quokkalike.");
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    let check = doctor_index_check(&b);
    assert_eq!(check["ok"], true, "{check}");
    // A pull that stops on a conflict (a remote symlink) still indexes what
    // it wrote.
    note(&a, "Yak facts", "Yaks are woolly quokkalike.");
    ok(&a, &["sync", "now"]);
    remote.plant(&[("memory/knowledge/l.md", b"/etc/passwd", 0o120000)]);
    fails(&b, &["sync", "now"], "conflict", 1);
    let check = doctor_index_check(&b);
    assert_eq!(check["ok"], true, "{check}");
}

/// Item 22: never-synced paths are matched case-insensitively and
/// Unicode-normalised (a case-insensitive file system would write them into
/// the repository or the home's own state).
#[test]
fn never_synced_paths_match_whatever_their_case_or_normal_form() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    remote.plant(&[
        ("SYNC.GIT/config", b"[core]\n\tworktree = /\n", 0o100644),
        ("Config.json", b"{}", 0o100644),
        ("INDEX/search.db", b"x", 0o100644),
        ("Local/home-id", b"evil00\n", 0o100644),
        ("persona/.HISTORY/ada/1.md", b"x", 0o100644),
        ("memory/knowledge/x.md.REMOTE", b"x", 0o100644),
        ("memory/knowledge/y.md.Tmp", b"x", 0o100644),
        // `sync.git` with an ignorable zero-width joiner and a trailing dot.
        ("sync\u{200d}.git/HEAD", b"x", 0o100644),
        ("tools./plan", b"x", 0o100644),
        // `local` with a decomposed accent-free twin is not needed: NFD
        // of `persona/.history` with a combining mark stays distinct.
        (
            "memory/knowledge/fine.md",
            b"---\ntitle: Fine\n---\nok\n",
            0o100644,
        ),
    ]);
    ok(&a, &["sync", "pull"]);
    let names: Vec<String> = std::fs::read_dir(a.home())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for bad in [
        "SYNC.GIT",
        "Config.json",
        "INDEX",
        "Local",
        "sync\u{200d}.git",
        "tools.",
    ] {
        assert!(
            !names.contains(&bad.to_string()),
            "{bad} was written: {names:?}"
        );
    }
    assert!(!a.home().join("persona/.HISTORY").exists());
    assert!(!a.home().join("memory/knowledge/x.md.REMOTE").exists());
    assert!(!a.home().join("memory/knowledge/y.md.Tmp").exists());
    assert!(a.home().join("memory/knowledge/fine.md").is_file());
    ok(&a, &["sync", "now"]);
}

/// Item 5: files over the home's limits are not written into the live
/// files: a conflict says where the remote version is, the other tools keep
/// working, and the next push does not delete them from the remote.
#[test]
fn files_over_the_limits_are_held_back_as_a_conflict_and_stay_on_the_remote() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    let limit = 1024 * 1024;
    let big_note = format!(
        "---\ntitle: Big\n---\n{}\n",
        "a long line of the big note\n".repeat(2 * limit / 28)
    );
    let line = "{\"id\":\"t\",\"role\":\"user\",\"content\":\"x\"}\n";
    let big_episode = line.repeat(limit / line.len() + 100);
    remote.plant(&[
        ("memory/knowledge/big.md", big_note.as_bytes(), 0o100644),
        (
            "memory/episodes/s/ep-big.jsonl",
            big_episode.as_bytes(),
            0o100644,
        ),
        (
            "memory/knowledge/fine.md",
            b"---\ntitle: Fine\n---\nok\n",
            0o100644,
        ),
    ]);
    let err = fails(&b, &["sync", "now"], "conflict", 1);
    let files = err["detail"]["files"].to_string();
    assert!(files.contains("memory/knowledge/big.md"), "{err}");
    assert!(files.contains("memory/episodes/s/ep-big.jsonl"), "{err}");
    assert!(
        err["detail"]["reasons"]
            .to_string()
            .contains("max_item_bytes"),
        "{err}"
    );
    assert!(err["hint"].as_str().unwrap().contains("sync.git"), "{err}");
    assert!(!b.home().join("memory/knowledge/big.md").exists());
    assert!(!b.home().join("memory/episodes/s/ep-big.jsonl").exists());
    assert!(b.home().join("memory/knowledge/fine.md").is_file());
    let list = ok(&b, &["knowledge", "list"]);
    assert!(!list.to_string().contains("big.md"), "{list}");
    // Resolved (the copies deleted, if any): syncing goes on and the remote
    // keeps both files.
    for rel in [
        "memory/knowledge/big.md.remote",
        "memory/episodes/s/ep-big.jsonl.remote",
    ] {
        let _ = std::fs::remove_file(b.home().join(rel));
    }
    note(&b, "After", "written after the conflict");
    ok(&b, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert_eq!(
        remote.file("memory/knowledge/big.md").as_deref(),
        Some(big_note.as_bytes()),
        "the push deleted the held-back note"
    );
    assert!(remote.file("memory/episodes/s/ep-big.jsonl").is_some());
    let st = status(&b);
    assert_eq!(st["dirty"], serde_json::json!([]), "{st}");
    // The remote's next version fits: it is written, the other stays held.
    remote.plant(&[(
        "memory/knowledge/big.md",
        b"---\ntitle: Big\n---\nsmall now\n",
        0o100644,
    )]);
    ok(&b, &["sync", "now"]);
    let small = std::fs::read_to_string(b.home().join("memory/knowledge/big.md")).unwrap();
    assert!(small.contains("small now"), "{small}");
    let held = status(&b)["held"].to_string();
    assert!(
        !held.contains("big.md") && held.contains("ep-big"),
        "{held}"
    );
    // The other home meets them the same way; its tools keep working.
    fails(&a, &["sync", "now"], "conflict", 1);
    let list = ok(&a, &["knowledge", "list"]);
    assert!(list.to_string().contains("after"), "{list}");
    let (env, _) = envelope(&mut ab(&a, &["doctor", "--format", "json"]));
    assert!(!env.to_string().contains("changed since indexed"), "{env}");
}

/// Every file a pull writes or deletes, of every source kind (a persona and
/// its `ACTIVE` marker, a note, an episode, a skill, a deleted note), leaves
/// `doctor`'s index check clean, with no search in between.
#[test]
fn every_file_a_pull_writes_or_deletes_leaves_the_index_in_step() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    ok(&b, &["search", "anything"]);
    let gone = note(&a, "Short lived", "Soon deleted quokkalike.");
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert_eq!(doctor_index_check(&b)["ok"], true);

    ok(&a, &["persona", "create", "pbot", "--trait", "tone=calm"]);
    note(&a, "Zebra facts", "Zebras are striped quokkalike.");
    ok(
        &a,
        &[
            "track",
            "record",
            "--content",
            "a turn quokkalike",
            "--flush",
        ],
    );
    ok(
        &a,
        &[
            "skill_forge",
            "new",
            "ship-docs",
            "--description",
            "Ships docs.",
        ],
    );
    ok(&a, &["knowledge", "rm", &gone]);
    // Files in a source's folder that no source lists: never indexed.
    write(&a, "skills/ship-docs/run.sh", b"echo quokkalike\n");
    write(&a, "memory/knowledge/deep/x.md", b"# Deep quokkalike\n");
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert!(b.home().join("persona/ACTIVE").is_file());
    assert!(b.home().join("skills/ship-docs/SKILL.md").is_file());
    assert!(b.home().join("memory/knowledge/deep/x.md").is_file());
    let check = doctor_index_check(&b);
    assert_eq!(check["ok"], true, "{check}");
    let hits = ok(&b, &["search", "quokkalike"]);
    assert!(hits.to_string().contains("Zebra"), "{hits}");
    assert!(!hits.to_string().contains("Short lived"), "{hits}");
}

/// A file changed here that the remote turned into a folder: one file/folder
/// clash (never `io`), the remote's folder kept under `sync.remote/`, and
/// once the copy is deleted the next sync keeps this home's file.
#[test]
fn a_file_edited_here_that_the_remote_made_a_folder_is_one_clash() {
    let remote = Remote::new();
    let a = home_on(&remote);
    write(&a, "plans/t2", b"plan\n");
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    std::fs::remove_file(b.home().join("plans/t2")).unwrap();
    write(&b, "plans/t2/x.md", b"r\n");
    ok(&b, &["sync", "now"]);
    assert!(remote.file("plans/t2/x.md").is_some());
    write(&a, "plans/t2", b"plan\nedit\n");
    let err = fails(&a, &["sync", "now"], "conflict", 1);
    assert!(
        err["detail"]["reasons"].to_string().contains("folder"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(a.home().join("plans/t2")).unwrap(),
        b"plan\nedit\n"
    );
    assert_eq!(
        std::fs::read(a.home().join("sync.remote/plans/t2/x.md")).unwrap(),
        b"r\n",
        "{err}"
    );
    assert_eq!(status(&a)["interrupted_pull"], false);
    std::fs::remove_dir_all(a.home().join("sync.remote")).unwrap();
    ok(&a, &["sync", "now"]);
    ok(&a, &["sync", "now"]);
    assert_eq!(
        std::fs::read(a.home().join("plans/t2")).unwrap(),
        b"plan\nedit\n"
    );
    assert_eq!(
        remote.file("plans/t2").as_deref(),
        Some(&b"plan\nedit\n"[..])
    );
    assert_eq!(doctor_sync_check(&a)["ok"], true);
    ok(&b, &["sync", "now"]);
    assert_eq!(
        std::fs::read(b.home().join("plans/t2")).unwrap(),
        b"plan\nedit\n"
    );
}

/// A folder whose file was changed here that the remote turned into a file:
/// one file/folder clash (not a delete/change conflict that alternates with
/// it), the remote's file in `<path>.remote`, and once it is deleted the
/// next sync keeps this home's folder.
#[test]
fn a_folder_edited_here_that_the_remote_made_a_file_is_one_clash() {
    let remote = Remote::new();
    let a = home_on(&remote);
    write(&a, "plans/t2/x.md", b"x\n");
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    std::fs::remove_dir_all(b.home().join("plans/t2")).unwrap();
    write(&b, "plans/t2", b"f\n");
    ok(&b, &["sync", "now"]);
    assert_eq!(remote.file("plans/t2").as_deref(), Some(&b"f\n"[..]));
    write(&a, "plans/t2/x.md", b"x\nedit\n");
    let err = fails(&a, &["sync", "now"], "conflict", 1);
    assert_eq!(
        err["detail"]["files"],
        serde_json::json!(["plans/t2"]),
        "{err}"
    );
    assert!(
        err["detail"]["reasons"].to_string().contains("file"),
        "{err}"
    );
    assert!(!a.home().join("plans/t2/x.md.remote").exists(), "{err}");
    assert_eq!(
        std::fs::read(a.home().join("plans/t2.remote")).unwrap(),
        b"f\n",
        "{err}"
    );
    assert_eq!(
        std::fs::read(a.home().join("plans/t2/x.md")).unwrap(),
        b"x\nedit\n"
    );
    std::fs::remove_file(a.home().join("plans/t2.remote")).unwrap();
    ok(&a, &["sync", "now"]);
    ok(&a, &["sync", "now"]);
    assert_eq!(
        std::fs::read(a.home().join("plans/t2/x.md")).unwrap(),
        b"x\nedit\n"
    );
    assert_eq!(
        remote.file("plans/t2/x.md").as_deref(),
        Some(&b"x\nedit\n"[..])
    );
    assert_eq!(doctor_sync_check(&a)["ok"], true);
    ok(&b, &["sync", "now"]);
    assert!(b.home().join("plans/t2/x.md").is_file());
}

/// The other way round: this home made a file a folder (or a folder a file)
/// while the remote changed it: one clash, the remote's version kept, and
/// resolving it keeps this home's side.
#[test]
fn a_type_change_here_against_a_remote_edit_is_one_clash() {
    for here_made_a_folder in [true, false] {
        let remote = Remote::new();
        let a = home_on(&remote);
        let (old, new) = if here_made_a_folder {
            ("plans/t2", "plans/t2/x.md")
        } else {
            ("plans/t2/x.md", "plans/t2")
        };
        write(&a, old, b"one\n");
        ok(&a, &["sync", "now"]);
        let b = home_on(&remote);
        write(&b, old, b"one\nremote edit\n");
        ok(&b, &["sync", "now"]);
        std::fs::remove_dir_all(a.home().join("plans/t2"))
            .or_else(|_| std::fs::remove_file(a.home().join("plans/t2")))
            .unwrap();
        write(&a, new, b"mine\n");
        let err = fails(&a, &["sync", "now"], "conflict", 1);
        assert_eq!(err["detail"]["files"].as_array().unwrap().len(), 1, "{err}");
        let copy = if here_made_a_folder {
            "plans/t2.remote"
        } else {
            "sync.remote/plans/t2/x.md"
        };
        assert_eq!(
            std::fs::read(a.home().join(copy)).unwrap(),
            b"one\nremote edit\n",
            "{err}"
        );
        assert_eq!(std::fs::read(a.home().join(new)).unwrap(), b"mine\n");
        std::fs::remove_dir_all(a.home().join("sync.remote"))
            .or_else(|_| std::fs::remove_file(a.home().join(copy)))
            .unwrap();
        ok(&a, &["sync", "now"]);
        ok(&a, &["sync", "now"]);
        assert_eq!(std::fs::read(a.home().join(new)).unwrap(), b"mine\n");
        assert_eq!(remote.file(new).as_deref(), Some(&b"mine\n"[..]));
        assert_eq!(doctor_sync_check(&a)["ok"], true);
    }
}
