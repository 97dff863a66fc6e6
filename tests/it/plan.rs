//! `plan`, verb by verb, with good and bad input; bad input never touches
//! what is already stored.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `dir` with its bytes (locks and temp files excluded).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in walk(dir) {
        let rel = entry.strip_prefix(dir).unwrap().display().to_string();
        if rel.starts_with("locks") {
            continue;
        }
        files.insert(rel, std::fs::read(&entry).unwrap_or_default());
    }
    files
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn statuses(data: &Value) -> Vec<String> {
    data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap().to_string())
        .collect()
}

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn create_show_list_roundtrip() {
    let sb = Sandbox::new();
    let data = ok_data(&mut sb.plan(&["create", "Ship v1", "--step", "build", "--step", "test"]));
    assert_eq!(data["id"], "ship-v1");
    assert_eq!(data["version"], 1);
    assert_eq!(data["status"], "active");
    assert_eq!(data["created"], common::NOW);
    assert_eq!(data["progress"]["total"], 2);
    assert_eq!(data["steps"][1]["n"], 2);
    assert_eq!(data["steps"][1]["note"], Value::Null);
    // same title again gets a unique id
    let again = ok_data(&mut sb.plan(&["create", "Ship v1", "--step", "x"]));
    assert_eq!(again["id"], "ship-v1-2");
    // a plan with no steps yet is fine from flags
    let empty = ok_data(&mut sb.plan(&["create", "Empty"]));
    assert_eq!(empty["steps"].as_array().unwrap().len(), 0);
    assert_eq!(
        ok_data(&mut sb.plan(&["show", "ship-v1"]))["title"],
        "Ship v1"
    );
    let list = ok_data(&mut sb.plan(&["list"]));
    assert_eq!(list["plans"].as_array().unwrap().len(), 3);
    assert_eq!(list["broken"].as_array().unwrap().len(), 0);
    // the stored file is the documented schema
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.home().join("plans/ship-v1.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["schema"], "agentbox.plan/v1");
    assert_eq!(stored["version"], 1);
}

#[test]
fn explicit_ids_are_checked() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "A", "--id", "alpha", "--step", "x"]));
    let e = err_of(
        &mut sb.plan(&["create", "B", "--id", "alpha"]),
        "conflict",
        1,
    );
    assert_eq!(e["detail"]["id"], "alpha");
    for bad in ["../escape", "/abs", ".hidden", "a/b", "nul\u{1}x"] {
        err_of(
            &mut sb.plan(&["create", "B", "--id", bad]),
            "invalid_args",
            2,
        );
        err_of(&mut sb.plan(&["show", bad]), "invalid_args", 2);
    }
    // ids are portable file names: ASCII, bounded, no spaces or colons
    let long = "a".repeat(65);
    for bad in [long.as_str(), "my plan", "a:b", "ünï", "_x"] {
        let e = err_of(
            &mut sb.plan(&["create", "B", "--id", bad]),
            "invalid_args",
            2,
        );
        assert_eq!(e["detail"]["id"], bad);
    }
    ok_data(&mut sb.plan(&["create", "B", "--id", &"b".repeat(64)]));
    assert!(!sb.path().join("escape.json").exists());
    assert!(!sb.home().join("escape.json").exists());
}

#[test]
fn step_next_add_archive_and_versions() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "P", "--step", "a", "--step", "b", "--step", "c"]));
    // next: first pending
    let next = ok_data(&mut sb.plan(&["next"]));
    assert_eq!(next["step"]["n"], 1);
    assert_eq!(next["plan"]["version"], 1);
    // next --start marks it in progress (a mutation)
    let next = ok_data(&mut sb.plan(&["next", "p", "--start"]));
    assert_eq!(next["step"]["status"], "in_progress");
    assert_eq!(next["plan"]["version"], 2);
    // --start again: still the same step, no new mutation
    let next = ok_data(&mut sb.plan(&["next", "--start"]));
    assert_eq!(
        (next["step"]["n"].as_u64(), next["plan"]["version"].as_u64()),
        (Some(1), Some(2))
    );
    // at most one in progress
    let e = err_of(
        &mut sb.plan(&["step", "p", "2", "--status", "in_progress"]),
        "conflict",
        1,
    );
    assert_eq!(e["detail"]["in_progress"], 1);
    let data = ok_data(&mut sb.plan(&[
        "step",
        "p",
        "1",
        "--status",
        "done",
        "--note",
        "shipped\nwith care",
    ]));
    assert_eq!(data["version"], 3);
    assert_eq!(data["steps"][0]["note"], "shipped\nwith care");
    let data = ok_data(&mut sb.plan(&[
        "step",
        "p",
        "2",
        "--status",
        "in_progress",
        "--expect-version",
        "3",
    ]));
    assert_eq!(statuses(&data), ["done", "in_progress", "pending"]);
    // a note alone; an empty note clears
    let data = ok_data(&mut sb.plan(&["step", "p", "2", "--note", "half way"]));
    assert_eq!(data["steps"][1]["status"], "in_progress");
    let data = ok_data(&mut sb.plan(&["step", "p", "2", "--note", ""]));
    assert_eq!(data["steps"][1]["note"], Value::Null);
    assert_eq!(data["version"], 6);
    // neither status nor note
    err_of(&mut sb.plan(&["step", "p", "2"]), "invalid_args", 2);
    // add-step at the end, after N, at the top
    let data = ok_data(&mut sb.plan(&["add-step", "p", "d"]));
    assert_eq!(data["steps"][3]["text"], "d");
    let data = ok_data(&mut sb.plan(&["add-step", "p", "b2", "--after", "2"]));
    assert_eq!(data["steps"][2]["text"], "b2");
    let data = ok_data(&mut sb.plan(&[
        "add-step",
        "p",
        "zero",
        "--after",
        "0",
        "--expect-version",
        "8",
    ]));
    let texts: Vec<&str> = data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["zero", "a", "b", "b2", "c", "d"]);
    assert_eq!(data["version"], 9);
    err_of(
        &mut sb.plan(&["add-step", "p", "x", "--after", "99"]),
        "not_found",
        1,
    );
    // blocked and done
    for n in ["1", "3", "4", "5", "6"] {
        ok_data(&mut sb.plan(&["step", "p", n, "--status", "done"]));
    }
    ok_data(&mut sb.plan(&["step", "p", "2", "--status", "blocked"]));
    let next = ok_data(&mut sb.plan(&["next", "p"]));
    assert_eq!(next["step"], Value::Null);
    assert_eq!(next["blocked"], serde_json::json!([2]));
    assert_eq!(next["done"], false);
    ok_data(&mut sb.plan(&["step", "p", "2", "--status", "done"]));
    assert_eq!(ok_data(&mut sb.plan(&["next", "p"]))["done"], true);
    // archive: read-only afterwards, hidden from list, no default plan
    let data = ok_data(&mut sb.plan(&["archive", "p"]));
    assert_eq!(data["status"], "archived");
    let e = err_of(&mut sb.plan(&["add-step", "p", "late"]), "conflict", 1);
    assert!(e["hint"].as_str().unwrap().contains("read-only"));
    err_of(&mut sb.plan(&["archive", "p"]), "conflict", 1);
    assert_eq!(
        ok_data(&mut sb.plan(&["list"]))["plans"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    assert_eq!(
        ok_data(&mut sb.plan(&["list", "--all"]))["plans"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    err_of(&mut sb.plan(&["show"]), "not_found", 1);
    err_of(&mut sb.plan(&["next"]), "not_found", 1);
    assert_eq!(ok_data(&mut sb.plan(&["show", "p"]))["status"], "archived");
}

#[test]
fn stale_writes_are_conflicts_and_change_nothing() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "P", "--step", "a"]));
    ok_data(&mut sb.plan(&["step", "p", "1", "--note", "n"]));
    let before = snapshot(&sb.home());
    for args in [
        vec![
            "step",
            "p",
            "1",
            "--status",
            "done",
            "--expect-version",
            "1",
        ],
        vec!["add-step", "p", "x", "--expect-version", "3"],
        vec!["archive", "p", "--expect-version", "0"],
        vec!["next", "p", "--start", "--expect-version", "1"],
    ] {
        let e = err_of(&mut sb.plan(&args), "conflict", 1);
        assert_eq!(e["detail"]["actual"], 2, "{args:?}");
        assert!(e["hint"].as_str().unwrap().contains("--expect-version 2"));
    }
    assert_eq!(snapshot(&sb.home()), before);
}

#[test]
fn expect_rev_is_a_hidden_alias_of_expect_version() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "P", "--step", "a", "--step", "b"]));
    // every verb that guards a write takes it, with the same meaning
    let data = ok_data(&mut sb.plan(&["step", "p", "1", "--status", "done", "--expect-rev", "1"]));
    assert_eq!(data["version"], 2);
    let data = ok_data(&mut sb.plan(&["add-step", "p", "c", "--expect-rev", "2"]));
    assert_eq!(data["version"], 3);
    let next = ok_data(&mut sb.plan(&["next", "p", "--start", "--expect-rev", "3"]));
    assert_eq!(next["plan"]["version"], 4);
    let before = snapshot(&sb.home());
    let e = err_of(
        &mut sb.plan(&["archive", "p", "--expect-rev", "3"]),
        "conflict",
        1,
    );
    assert_eq!(e["detail"]["actual"], 4);
    assert_eq!(snapshot(&sb.home()), before);
    // the help shows only --expect-version
    let help = stdout(&mut sb.plan(&["step", "--help"]));
    assert!(help.contains("--expect-version"), "{help}");
    assert!(!help.contains("expect-rev"), "{help}");
}

#[test]
fn default_plan_is_the_most_recently_updated_active_one() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Old", "--step", "a"]));
    let later = |args: &[&str]| {
        let mut cmd = sb.plan(args);
        cmd.env("AGENTBOX_NOW", "2026-01-16T10:00:00Z");
        cmd
    };
    ok_data(&mut later(&["create", "New", "--step", "a"]));
    assert_eq!(ok_data(&mut sb.plan(&["show"]))["id"], "new");
    let mut cmd = sb.plan(&["step", "old", "1", "--note", "touched"]);
    cmd.env("AGENTBOX_NOW", "2026-01-17T10:00:00Z");
    ok_data(&mut cmd);
    assert_eq!(ok_data(&mut sb.plan(&["show"]))["id"], "old");
    assert_eq!(ok_data(&mut sb.plan(&["list"]))["plans"][0]["id"], "old");
}

#[test]
fn create_from_files_and_stdin() {
    let sb = Sandbox::new();
    let md = sb.path().join("PLAN.md");
    std::fs::write(&md, "# Launch\n\nContext prose is ignored.\n\n- [x] design\n- [>] build\n  note: in review\n- [ ] ship\n- [!] party\n").unwrap();
    let data = ok_data(sb.plan(&["create", "--file"]).arg(&md));
    assert_eq!(data["title"], "Launch");
    assert_eq!(
        statuses(&data),
        ["done", "in_progress", "pending", "blocked"]
    );
    assert_eq!(data["steps"][1]["note"], "in review");
    // the argument title wins over the file's
    let data = ok_data(sb.plan(&["create", "Other title", "--file"]).arg(&md));
    assert_eq!(data["title"], "Other title");
    let json = r#"{"title": "From JSON", "id": "fj", "steps": ["one", {"text": "two", "status": "done", "note": "ok"}]}"#;
    let data = ok_data(sb.plan(&["create", "--file", "-"]).write_stdin(json));
    assert_eq!(data["id"], "fj");
    assert_eq!(statuses(&data), ["pending", "done"]);
    let data = ok_data(
        sb.plan(&["create", "--file", "-"])
            .write_stdin("# Piped\n- [ ] a\n"),
    );
    assert_eq!(data["title"], "Piped");
}

#[test]
fn malformed_plan_files_name_problem_and_line() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Keep", "--step", "a"]));
    let before = snapshot(&sb.home());
    let cases: &[(&str, &str, u64, &str)] = &[
        ("a.md", "# T\n- [ ] ok\n- [?] huh\n", 3, "unknown checkbox"),
        ("b.md", "# T\n- no box\n", 2, "without a checkbox"),
        ("c.md", "# Only a title\n", 1, "no steps"),
        (
            "d.json",
            "{\"title\": \"T\",\n \"steps\": [\"a\",\n ]}",
            3,
            "trailing comma",
        ),
        (
            "e.json",
            "{\"title\": \"T\", \"steps\": [{\"text\": \"a\",\n \"status\": \"someday\"}]}",
            2,
            "someday",
        ),
        (
            "f.json",
            "{\"title\": \"T\", \"steps\": [{\"note\": \"n\"}]}",
            1,
            "text",
        ),
        ("g.md", "- [ ] a\n- [>] b\n- [~] c\n", 0, "at most one"),
    ];
    for (name, text, line, needle) in cases {
        let path = sb.path().join(name);
        std::fs::write(&path, text).unwrap();
        let e = err_of(
            sb.plan(&["create", "T", "--file"]).arg(&path),
            "invalid_args",
            2,
        );
        assert!(
            e["message"].as_str().unwrap().contains(needle),
            "{name}: {e}"
        );
        if *line > 0 {
            assert_eq!(e["detail"]["line"], *line, "{name}: {e}");
            assert!(e["detail"]["path"].as_str().unwrap().ends_with(name));
        }
    }
    // no title anywhere
    let path = sb.path().join("notitle.md");
    std::fs::write(&path, "- [ ] a\n").unwrap();
    let e = err_of(sb.plan(&["create", "--file"]).arg(&path), "invalid_args", 2);
    assert!(e["message"].as_str().unwrap().contains("title"));
    // missing file, invalid UTF-8, and --file with --step
    err_of(
        &mut sb.plan(&["create", "T", "--file", "nope.md"]),
        "not_found",
        1,
    );
    let latin1 = sb.path().join("latin1.md");
    std::fs::write(&latin1, b"# Caf\xe9\n- [ ] a\n").unwrap();
    let e = err_of(
        sb.plan(&["create", "--file"]).arg(&latin1),
        "invalid_args",
        2,
    );
    assert!(e["message"].as_str().unwrap().contains("UTF-8"));
    err_of(
        &mut sb.plan(&["create", "T", "--file", "x.md", "--step", "a"]),
        "invalid_args",
        2,
    );
    assert_eq!(snapshot(&sb.home()), before);
}

#[test]
fn size_limits_are_invalid_args_with_limit_detail() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Keep", "--step", "a"]));
    let before = snapshot(&sb.home());
    let huge = "x".repeat(1001);
    let e = err_of(&mut sb.plan(&["create", &huge]), "invalid_args", 2);
    assert_eq!(e["detail"]["limit_name"], "title_chars");
    assert_eq!(e["detail"]["observed"], 1001);
    assert_eq!(e["detail"]["limit"], 1000);
    let e = err_of(
        &mut sb.plan(&["add-step", "keep", &"y".repeat(10_001)]),
        "invalid_args",
        2,
    );
    assert_eq!(e["detail"]["limit_name"], "step_chars");
    err_of(&mut sb.plan(&["create", "two\nlines"]), "invalid_args", 2);
    err_of(&mut sb.plan(&["create", "   "]), "invalid_args", 2);
    err_of(
        &mut sb.plan(&["step", "keep", "1", "--note", &"z".repeat(10_001)]),
        "invalid_args",
        2,
    );
    // a file over the configured cap (default 1 MiB)
    let big = sb.path().join("big.md");
    let mut text = String::from("# Big\n");
    while text.len() <= 1024 * 1024 {
        text.push_str("- [ ] a step with some words in it\n");
    }
    std::fs::write(&big, &text).unwrap();
    let e = err_of(sb.plan(&["create", "--file"]).arg(&big), "invalid_args", 2);
    assert_eq!(e["detail"]["limit_name"], "max_item_bytes");
    assert_eq!(e["detail"]["limit"], 1024 * 1024);
    let e = err_of(
        sb.plan(&["create", "--file", "-"])
            .write_stdin(text.as_str()),
        "invalid_args",
        2,
    );
    assert_eq!(e["detail"]["limit_name"], "max_item_bytes");
    assert_eq!(snapshot(&sb.home()), before);
    // the cap comes from config
    std::fs::write(
        sb.home().join("config.json"),
        r#"{"limits": {"max_item_bytes": 300}}"#,
    )
    .unwrap();
    let e = err_of(
        &mut sb.plan(&["create", "Long", "--step", &"w".repeat(400)]),
        "invalid_args",
        2,
    );
    assert_eq!(e["detail"]["limit"], 300);
}

#[test]
fn hand_corrupted_plan_file_is_reported_and_isolated() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Good", "--step", "a"]));
    ok_data(&mut sb.plan(&["create", "Bad", "--step", "a"]));
    let bad = sb.home().join("plans/bad.json");
    let text = std::fs::read_to_string(&bad).unwrap();
    let corrupt = text.replacen("\"version\": 1", "\"version\": \"one\"", 1);
    assert_ne!(corrupt, text);
    std::fs::write(&bad, &corrupt).unwrap();
    let before = snapshot(&sb.home());
    let e = err_of(&mut sb.plan(&["show", "bad"]), "invalid_args", 2);
    assert_eq!(e["detail"]["line"], 6, "{e}");
    assert!(
        e["detail"]["path"]
            .as_str()
            .unwrap()
            .ends_with("plans/bad.json")
    );
    let e = err_of(
        &mut sb.plan(&["step", "bad", "1", "--status", "done"]),
        "invalid_args",
        2,
    );
    assert!(e["message"].as_str().unwrap().contains("bad.json"));
    // the good plan still works; list reports the broken file
    ok_data(&mut sb.plan(&["step", "good", "1", "--status", "done"]));
    let list = ok_data(&mut sb.plan(&["list"]));
    assert_eq!(list["plans"].as_array().unwrap().len(), 1);
    assert_eq!(list["broken"][0]["detail"]["line"], 6);
    let after = snapshot(&sb.home());
    assert_eq!(after["plans/bad.json"], before["plans/bad.json"]);
    // truncated JSON, an empty file, a wrong schema, binary junk
    for junk in [
        &text[..text.len() / 2],
        "",
        "{\"schema\": \"other/v9\", \"id\": \"bad\"}",
        "\u{0}\u{1}garbage",
    ] {
        std::fs::write(&bad, junk).unwrap();
        err_of(&mut sb.plan(&["show", "bad"]), "invalid_args", 2);
    }
    std::fs::write(&bad, b"{\n  \"title\": \"caf\xe9\"\n}").unwrap();
    let e = err_of(&mut sb.plan(&["show", "bad"]), "invalid_args", 2);
    assert!(e["message"].as_str().unwrap().contains("UTF-8"));
    assert_eq!(e["detail"]["line"], 2, "{e}");
    assert_eq!(ok_data(&mut sb.plan(&["show", "good"]))["version"], 2);
}

#[test]
fn unknown_fields_in_stored_plans_are_ignored() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "P", "--step", "a"]));
    let path = sb.home().join("plans/p.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["future_field"] = "x".into();
    doc["steps"][0]["owner"] = "someone".into();
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let data = ok_data(&mut sb.plan(&["step", "p", "1", "--status", "done"]));
    assert_eq!(data["version"], 2);
    // ... and kept when the plan is written again
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(stored["future_field"], "x");
    assert_eq!(stored["steps"][0]["owner"], "someone");
    assert_eq!(stored["steps"][0]["status"], "done");
}

#[test]
fn no_secret_becomes_a_file_name() {
    let sb = Sandbox::new();
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let e = err_of(
        &mut sb.plan(&["create", "T", "--id", token]),
        "invalid_args",
        2,
    );
    assert!(!e.to_string().contains("efghijklmnop"), "{e}");
    assert_eq!(e["detail"]["name"], "ghp_abcd_REDACTED.json", "{e}");
    let data = ok_data(&mut sb.plan(&["create", &format!("rotate {token}"), "--step", "a"]));
    let id = data["id"].as_str().unwrap();
    assert!(!id.contains("efghijklmnop"), "{id}");
    for entry in std::fs::read_dir(sb.home().join("plans")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains("efghijklmnop"), "{name}");
    }
    // the id that list shows reaches the plan
    let listed = ok_data(&mut sb.plan(&["list"]))["plans"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    ok_data(&mut sb.plan(&["show", &listed]));
}

#[test]
fn text_output_reads_like_a_checklist() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&[
        "create", "Ship v1", "--step", "build", "--step", "test", "--step", "release", "--step",
        "announce",
    ]));
    ok_data(&mut sb.plan(&[
        "step",
        "ship-v1",
        "1",
        "--status",
        "done",
        "--note",
        "green on CI",
    ]));
    ok_data(&mut sb.plan(&["step", "ship-v1", "2", "--status", "in_progress"]));
    ok_data(&mut sb.plan(&[
        "step",
        "ship-v1",
        "4",
        "--status",
        "blocked",
        "--note",
        "waiting on\nthe blog",
    ]));
    let t = |args: &[&str]| {
        let mut full = args.to_vec();
        full.extend(["--format", "text"]);
        stdout(&mut sb.plan(&full))
    };
    insta::assert_snapshot!("plan_show_text", t(&["show"]));
    insta::assert_snapshot!("plan_list_text", t(&["list"]));
    insta::assert_snapshot!("plan_next_text", t(&["next"]));
    insta::assert_snapshot!(
        "plan_step_text",
        t(&["step", "ship-v1", "2", "--status", "done"])
    );
}

#[test]
fn ids_from_titles_are_transliterated() {
    let sb = Sandbox::new();
    let data = ok_data(&mut sb.plan(&["create", "Café déjà vu", "--step", "a"]));
    assert_eq!(data["id"], "cafe-deja-vu");
    assert_eq!(data["title"], "Café déjà vu");
    let data = ok_data(&mut sb.plan(&["create", "Café déjà vu", "--step", "a"]));
    assert_eq!(data["id"], "cafe-deja-vu-2");
}

/// Ordinary titles whose slug happens to look like a credential get another
/// id; an explicit id that looks like one is still refused.
#[test]
fn derived_ids_that_look_like_credentials_fall_back() {
    let sb = Sandbox::new();
    for (title, want) in [
        (
            "sk-learn tutorial for beginners",
            "learn-tutorial-for-beginners",
        ),
        (
            "xoxb-bot setup for the whole team",
            "bot-setup-for-the-whole-team",
        ),
        ("xoxb-bot setup", "xoxb-bot-setup"),
        // `xoxb-bot-setup-2` would look like a Slack token.
        ("xoxb-bot setup", "bot-setup"),
    ] {
        let data = ok_data(&mut sb.plan(&["create", title, "--step", "a"]));
        assert_eq!(data["id"], want, "{title}");
        assert_eq!(data["title"], title);
        assert!(sb.home().join(format!("plans/{want}.json")).is_file());
        assert_eq!(ok_data(&mut sb.plan(&["show", want]))["title"], title);
    }
    let e = err_of(
        &mut sb.plan(&["create", "T", "--id", "sk-learn-tutorial-for-beginners"]),
        "invalid_args",
        2,
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("looks like a credential"),
        "{e}"
    );
}

fn set_version(sb: &Sandbox, id: &str, version: &str) -> std::path::PathBuf {
    let path = sb.home().join(format!("plans/{id}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen("\"version\": 1,", &format!("\"version\": {version},"), 1);
    assert_ne!(edited, text);
    std::fs::write(&path, edited).unwrap();
    path
}

#[test]
fn the_version_never_wraps() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Max", "--step", "a"]));
    let path = set_version(&sb, "max", &u64::MAX.to_string());
    let before = std::fs::read(&path).unwrap();
    assert_eq!(ok_data(&mut sb.plan(&["show", "max"]))["version"], u64::MAX);
    for args in [
        &["step", "max", "1", "--status", "done"][..],
        &["add-step", "max", "b"],
        &["next", "max", "--start"],
        &["archive", "max"],
    ] {
        let e = err_of(&mut sb.plan(args), "conflict", 1);
        let message = e["message"].as_str().unwrap();
        assert!(message.contains("highest"), "{e}");
        assert!(message.contains(&u64::MAX.to_string()), "{e}");
        assert!(e["hint"].as_str().unwrap().contains("new plan"), "{e}");
        assert_eq!(e["detail"]["version"], u64::MAX);
        assert_eq!(std::fs::read(&path).unwrap(), before, "{args:?}");
    }
}

#[test]
fn version_zero_is_a_corrupt_plan() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Zero", "--step", "a"]));
    ok_data(&mut sb.plan(&["create", "Good", "--step", "a"]));
    let path = set_version(&sb, "zero", "0");
    let before = std::fs::read(&path).unwrap();
    for args in [
        &["show", "zero"][..],
        &["step", "zero", "1", "--status", "done"],
    ] {
        let e = err_of(&mut sb.plan(args), "invalid_args", 2);
        let message = e["message"].as_str().unwrap();
        assert!(message.contains("plans/zero.json"), "{e}");
        assert!(message.contains("version 0"), "{e}");
        assert!(e["detail"]["path"].as_str().unwrap().ends_with("zero.json"));
    }
    let list = ok_data(&mut sb.plan(&["list"]));
    assert_eq!(list["plans"].as_array().unwrap().len(), 1);
    assert!(
        list["broken"][0]["message"]
            .as_str()
            .unwrap()
            .contains("version 0")
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// `plan step` needs N and one of --status/--note; the error says so, and the
/// hint names the verb's help, under either name of the tool.
#[test]
fn step_requirements_are_stated_truthfully() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Ship v1", "--step", "a"]));
    let e = err_of(&mut sb.plan(&["step", "ship-v1"]), "invalid_args", 2);
    assert_eq!(e["message"], "plan step needs N, and --status or --note");
    assert_eq!(e["hint"], "run `plan step --help` for usage");
    assert_eq!(
        e["detail"]["missing"],
        serde_json::json!(["N", "--status|--note"])
    );
    let e = err_of(
        &mut sb.agentbox(&["plan", "step", "ship-v1", "1"]),
        "invalid_args",
        2,
    );
    assert_eq!(e["message"], "plan step needs --status or --note");
    assert_eq!(e["hint"], "run `agentbox plan step --help` for usage");
    assert_eq!(
        e["detail"]["missing"],
        serde_json::json!(["--status|--note"])
    );
    // either one alone is enough
    let data = ok_data(&mut sb.plan(&["step", "ship-v1", "1", "--note", "n"]));
    assert_eq!(data["steps"][0]["note"], "n");
    let data = ok_data(&mut sb.plan(&["step", "ship-v1", "1", "--status", "done"]));
    assert_eq!(data["steps"][0]["status"], "done");
}

#[test]
fn argument_hints_name_the_verb() {
    let sb = Sandbox::new();
    let e = err_of(
        &mut sb.plan(&["step", "x", "1", "--stat", "done"]),
        "invalid_args",
        2,
    );
    assert_eq!(
        e["hint"],
        "did you mean '--status'? run `plan step --help` for usage"
    );
    let e = err_of(
        &mut sb.agentbox(&[
            "--format", "json", "plan", "add-step", "x", "t", "--after", "two",
        ]),
        "invalid_args",
        2,
    );
    assert_eq!(e["hint"], "run `agentbox plan add-step --help` for usage");
    // not about a verb: the tool's help
    let e = err_of(&mut sb.plan(&["frobnicate"]), "invalid_args", 2);
    assert_eq!(e["hint"], "run `plan --help` for usage");
    let e = err_of(&mut sb.agentbox(&["plan", "frobnicate"]), "invalid_args", 2);
    assert_eq!(e["hint"], "run `agentbox plan --help` for usage");
}

#[test]
fn invalid_status_lists_the_valid_values_in_text_mode() {
    let sb = Sandbox::new();
    let out = sb
        .plan(&["step", "x", "1", "--status", "finished", "--format", "text"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("invalid value 'finished' for '--status <STATUS>' (valid values: pending, in_progress, done, blocked)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("run `plan step --help` for usage"),
        "{stderr}"
    );
    // json: the same message, and the list as detail.valid
    let e = err_of(
        &mut sb.plan(&["step", "x", "1", "--status", "finished"]),
        "invalid_args",
        2,
    );
    assert!(
        e["message"].as_str().unwrap().contains("in_progress"),
        "{e}"
    );
    assert_eq!(
        e["detail"]["valid"],
        serde_json::json!(["pending", "in_progress", "done", "blocked"])
    );
    assert_eq!(e["detail"]["flag"], "--status");
}

#[test]
fn a_directory_is_not_a_plan_file() {
    let sb = Sandbox::new();
    let dir = sb.path().join("plans-dir");
    std::fs::create_dir(&dir).unwrap();
    let e = err_of(
        &mut sb.plan(&["create", "--file", dir.to_str().unwrap()]),
        "invalid_args",
        2,
    );
    assert_eq!(
        e["message"],
        format!("{} is a directory, not a plan file", dir.display())
    );
    assert_eq!(
        e["hint"],
        "pass the path of a plan file, or - to read stdin"
    );
    assert_eq!(e["detail"]["path"], dir.to_str().unwrap());
    assert!(!sb.home().join("plans").exists() || walk(&sb.home().join("plans")).is_empty());
}
