//! `proactive`: the item store, every verb, the window rule at its edges,
//! concurrent writers, a torn file, `scan`, and the Foresight section of
//! `mem_context` — all through the real binary in temp homes with a fixed
//! clock.

use crate::common;

use common::{Sandbox, bin, envelope, err_of, ok_data};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::process::Stdio;
use std::sync::{Arc, Barrier};

const NOW: &str = common::NOW; // 2026-01-15T09:30:00Z

/// `agentbox proactive ARGS…` at the clock `now`.
fn pro(sb: &Sandbox, now: &str, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.agentbox(&["proactive"]);
    cmd.args(args).env("AGENTBOX_NOW", now);
    cmd
}

/// Adds an item at `NOW`; returns it.
fn add(sb: &Sandbox, args: &[&str]) -> Value {
    ok_data(&mut pro(sb, NOW, &[&["add"], args].concat()))["item"].clone()
}

fn id_of(item: &Value) -> String {
    item["id"].as_str().expect("id").to_string()
}

/// The ids `list` (or `list --all`) shows at `now`.
fn listed(sb: &Sandbox, now: &str, all: bool) -> Vec<String> {
    let args: &[&str] = if all { &["list", "--all"] } else { &["list"] };
    ids(&ok_data(&mut pro(sb, now, args))["items"])
}

/// The ids `due` shows at `now`.
fn due_ids(sb: &Sandbox, now: &str, args: &[&str]) -> Vec<String> {
    ids(&ok_data(&mut pro(sb, now, &[&["due"], args].concat()))["items"])
}

fn ids(items: &Value) -> Vec<String> {
    items.as_array().expect("items").iter().map(id_of).collect()
}

/// The state one item has in `list --all` at `now`.
fn state(sb: &Sandbox, now: &str, id: &str) -> String {
    let data = ok_data(&mut pro(sb, now, &["list", "--all"]));
    data["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == id)
        .unwrap_or_else(|| panic!("{id} not in {data}"))["state"]
        .as_str()
        .unwrap()
        .to_string()
}

fn foresight_file(sb: &Sandbox) -> std::path::PathBuf {
    sb.home().join("memory").join("foresight.jsonl")
}

/// A stored item line (for hand-made files).
fn line(id: &str, text: &str, updated: &str, status: &str) -> String {
    json!({
        "id": id, "text": text,
        "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2026-02-01T00:00:00Z",
        "source": "cli", "created": "2026-01-01T00:00:00Z", "updated": updated,
        "status": status,
    })
    .to_string()
}

#[test]
fn add_fills_the_window_and_refuses_bad_input() {
    let sb = Sandbox::new();
    // no due: the window is now … now + 7 days
    let plain = add(
        &sb,
        &["Renew the certificate", "--tag", "ops", "--tag", "#ops"],
    );
    assert!(
        id_of(&plain).starts_with("f-") && id_of(&plain).len() == 14,
        "{plain}"
    );
    assert!(id_of(&plain)[2..].chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(plain["valid_from"], NOW);
    assert_eq!(plain["valid_until"], "2026-01-22T09:30:00Z");
    assert_eq!(plain["status"], "open");
    assert_eq!(plain["state"], "valid");
    assert_eq!(plain["source"], "cli");
    assert_eq!(plain["tags"], json!(["ops"]));
    assert!(plain.get("due").is_none(), "{plain}");
    // with a due time: the window closes at it
    let due = add(&sb, &["Send the report", "--due", "2026-01-16T17:00:00Z"]);
    assert_eq!(due["due"], "2026-01-16T17:00:00Z");
    assert_eq!(due["valid_until"], "2026-01-16T17:00:00Z");
    // --from moves the default window with it; an explicit --until wins
    let later = add(&sb, &["Later", "--from", "2026-02-01T00:00:00Z"]);
    assert_eq!(later["valid_until"], "2026-02-08T00:00:00Z");
    assert_eq!(later["state"], "upcoming");
    let explicit = add(
        &sb,
        &[
            "Both",
            "--due",
            "2026-01-16T00:00:00Z",
            "--until",
            "2026-01-20T00:00:00Z",
        ],
    );
    assert_eq!(explicit["valid_until"], "2026-01-20T00:00:00Z");
    // every line is one whole item state; two adds never share an id
    let text = std::fs::read_to_string(foresight_file(&sb)).unwrap();
    assert_eq!(text.lines().count(), 4);
    assert_ne!(id_of(&plain), id_of(&due));

    let e = err_of(
        &mut pro(
            &sb,
            NOW,
            &[
                "add",
                "x",
                "--from",
                "2026-01-20T00:00:00Z",
                "--until",
                "2026-01-19T00:00:00Z",
            ],
        ),
        "invalid_args",
        2,
    );
    assert!(
        e["message"].as_str().unwrap().contains("before it opens"),
        "{e}"
    );
    err_of(&mut pro(&sb, NOW, &["add", "   "]), "invalid_args", 2);
    let e = err_of(
        &mut pro(&sb, NOW, &["add", "x", "--due", "not a time"]),
        "invalid_args",
        2,
    );
    assert_eq!(e["detail"]["flag"], "--due", "{e}");
    err_of(
        &mut pro(&sb, NOW, &["add", "x", "--tag", "two words"]),
        "invalid_args",
        2,
    );
    err_of(
        &mut pro(
            &sb,
            NOW,
            &[
                "add",
                "x",
                "--due",
                "2026-03-01T00:00:00Z",
                "--until",
                "2026-02-01T00:00:00Z",
            ],
        ),
        "invalid_args",
        2,
    );
    err_of(&mut pro(&sb, NOW, &["add"]), "invalid_args", 2);
    // the item cap (limits.max_item_bytes) holds for the text
    std::fs::write(
        sb.home().join("config.json"),
        r#"{"limits": {"max_item_bytes": 1000}}"#,
    )
    .unwrap();
    let e = err_of(
        &mut pro(&sb, NOW, &["add", &"x".repeat(1001)]),
        "invalid_args",
        2,
    );
    assert_eq!(e["detail"]["limit_name"], "max_item_bytes", "{e}");
    assert_eq!(
        std::fs::read_to_string(foresight_file(&sb)).unwrap(),
        text,
        "a refused add wrote"
    );
    // an item added with its window already closed is kept, with a warning
    let (env, code) = envelope(&mut pro(
        &sb,
        NOW,
        &[
            "add",
            "old",
            "--from",
            "2026-01-01T00:00:00Z",
            "--until",
            "2026-01-02T00:00:00Z",
        ],
    ));
    assert_eq!(code, 0);
    assert_eq!(env["data"]["item"]["state"], "expired");
    assert!(
        env["meta"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("already expired"),
        "{env}"
    );
}

#[test]
fn the_window_is_inclusive_at_valid_until_and_a_snooze_ends_on_time() {
    let sb = Sandbox::new();
    let edge = id_of(&add(&sb, &["Edge", "--until", "2026-01-16T00:00:00Z"]));
    let with_due = id_of(&add(&sb, &["Due edge", "--due", "2026-01-16T00:00:00Z"]));
    // exactly at valid_until: still valid (list, due and state agree)
    let at = "2026-01-16T00:00:00Z";
    assert_eq!(listed(&sb, at, false), [with_due.clone(), edge.clone()]);
    assert_eq!(state(&sb, at, &edge), "valid");
    assert!(due_ids(&sb, at, &[]).contains(&edge));
    // one second later: expired, shown only by --all
    let after = "2026-01-16T00:00:01Z";
    assert!(listed(&sb, after, false).is_empty());
    assert_eq!(listed(&sb, after, true).len(), 2);
    assert_eq!(state(&sb, after, &edge), "expired");
    assert!(due_ids(&sb, after, &[]).is_empty());
    // exactly at valid_from: valid; one second before: upcoming
    let from = id_of(&add(&sb, &["From", "--from", "2026-01-20T00:00:00Z"]));
    assert_eq!(state(&sb, "2026-01-19T23:59:59Z", &from), "upcoming");
    assert_eq!(state(&sb, "2026-01-20T00:00:00Z", &from), "valid");

    // a snooze until T hides the item until T, then it is back
    let snoozed = id_of(&add(&sb, &["Snoozed", "--until", "2026-01-30T00:00:00Z"]));
    let data = ok_data(&mut pro(
        &sb,
        NOW,
        &["snooze", &snoozed, "--until", "2026-01-17T08:00:00Z"],
    ));
    assert_eq!(data["item"]["status"], "snoozed");
    assert_eq!(data["item"]["snoozed_until"], "2026-01-17T08:00:00Z");
    assert_eq!(data["item"]["state"], "snoozed");
    let before = "2026-01-17T07:59:59Z";
    assert_eq!(state(&sb, before, &snoozed), "snoozed");
    assert!(!due_ids(&sb, before, &[]).contains(&snoozed));
    // list shows a snoozed item (marked), due and mem_context do not
    assert!(listed(&sb, before, false).contains(&snoozed));
    let back = "2026-01-17T08:00:00Z";
    assert_eq!(state(&sb, back, &snoozed), "valid");
    assert!(due_ids(&sb, back, &[]).contains(&snoozed));

    // a snooze past the window's end moves the window on (one day after it)
    let short = id_of(&add(&sb, &["Short", "--until", "2026-01-15T12:00:00Z"]));
    let data = ok_data(&mut pro(
        &sb,
        NOW,
        &["snooze", &short, "--until", "2026-01-18T00:00:00Z"],
    ));
    assert_eq!(data["item"]["valid_until"], "2026-01-19T00:00:00Z");
    assert_eq!(state(&sb, "2026-01-18T00:00:00Z", &short), "valid");
}

#[test]
fn due_looks_ahead_from_at_within_a_duration() {
    let sb = Sandbox::new();
    let soon = id_of(&add(&sb, &["Soon", "--due", "2026-01-15T20:00:00Z"]));
    let later = id_of(&add(&sb, &["Later", "--due", "2026-01-18T09:00:00Z"]));
    let none = id_of(&add(&sb, &["No due"]));
    // default --within 1d
    assert_eq!(due_ids(&sb, NOW, &[]), [soon.clone(), none.clone()]);
    assert_eq!(
        due_ids(&sb, NOW, &["--within", "3d"]),
        [soon.clone(), later.clone(), none.clone()]
    );
    assert_eq!(due_ids(&sb, NOW, &["--within", "90m"]), vec![none.clone()]);
    assert_eq!(due_ids(&sb, NOW, &["--within", "1w"]).len(), 3);
    // --at moves the instant: at the 17th, `soon` has expired
    let data = ok_data(&mut pro(
        &sb,
        NOW,
        &["due", "--at", "2026-01-17T10:00:00Z", "--within", "0m"],
    ));
    assert_eq!(ids(&data["items"]), vec![none.clone()]);
    assert_eq!(data["at"], "2026-01-17T10:00:00Z");
    assert_eq!(
        due_ids(
            &sb,
            NOW,
            &["--at", "2026-01-17T10:00:00Z", "--within", "1d"]
        ),
        [later, none]
    );
    for bad in ["3", "3x", "-1d", "soon"] {
        err_of(
            &mut pro(&sb, NOW, &["due", "--within", bad]),
            "invalid_args",
            2,
        );
    }
    err_of(
        &mut pro(&sb, NOW, &["due", "--at", "someday"]),
        "invalid_args",
        2,
    );
}

#[test]
fn dismiss_done_and_snooze_take_ids_and_prefixes() {
    let sb = Sandbox::new();
    let a = id_of(&add(&sb, &["A"]));
    let b = id_of(&add(&sb, &["B"]));
    let c = id_of(&add(&sb, &["C"]));
    // a full id and a prefix without f-
    let data = ok_data(&mut pro(&sb, NOW, &["dismiss", &a, &b[2..8]]));
    assert_eq!(data["changed"], json!([a.clone(), b.clone()]));
    assert_eq!(data["status"], "dismissed");
    assert_eq!(listed(&sb, NOW, false), vec![c.clone()]);
    // dismissing again changes nothing and says so
    let data = ok_data(&mut pro(&sb, NOW, &["dismiss", &a]));
    assert_eq!(data["changed"], json!([]));
    assert_eq!(data["unchanged"], json!([a.clone()]));
    // done is a tombstone too
    let data = ok_data(&mut pro(&sb, NOW, &["done", &c[..6]]));
    assert_eq!(data["changed"], json!([c.clone()]));
    assert!(listed(&sb, NOW, false).is_empty());
    assert_eq!(state(&sb, NOW, &c), "done");
    assert_eq!(state(&sb, NOW, &a), "dismissed");
    let lines = std::fs::read_to_string(foresight_file(&sb)).unwrap();
    assert_eq!(
        lines.lines().count(),
        6,
        "three adds, three new states:\n{lines}"
    );

    // one unknown id: not_found, and nothing changes
    let d = id_of(&add(&sb, &["D"]));
    let before = std::fs::read_to_string(foresight_file(&sb)).unwrap();
    let e = err_of(
        &mut pro(&sb, NOW, &["done", &d, "f-000000000000"]),
        "not_found",
        1,
    );
    assert!(
        e["hint"].as_str().unwrap().contains("proactive list"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(foresight_file(&sb)).unwrap(),
        before
    );
    err_of(&mut pro(&sb, NOW, &["dismiss"]), "invalid_args", 2);
    err_of(
        &mut pro(
            &sb,
            NOW,
            &["snooze", "nope", "--until", "2026-01-16T00:00:00Z"],
        ),
        "not_found",
        1,
    );
    // snooze: the past is refused, a closed item cannot be snoozed
    err_of(
        &mut pro(&sb, NOW, &["snooze", &d, "--until", "2026-01-15T09:30:00Z"]),
        "invalid_args",
        2,
    );
    err_of(&mut pro(&sb, NOW, &["snooze", &d]), "invalid_args", 2);
    err_of(
        &mut pro(&sb, NOW, &["snooze", &c, "--until", "2026-01-16T00:00:00Z"]),
        "conflict",
        1,
    );
}

#[test]
fn prefixes_must_be_unique_and_the_newest_state_wins() {
    let sb = Sandbox::new();
    let lines = [
        line("f-aaaa00000001", "one", "2026-01-10T00:00:00Z", "open"),
        line("f-aaaa00000002", "two", "2026-01-10T00:00:00Z", "open"),
        // a newer state written earlier in the file (a merged file): it wins
        line("f-bbbb00000001", "three", "2026-01-12T00:00:00Z", "done"),
        line("f-bbbb00000001", "three", "2026-01-11T00:00:00Z", "open"),
        // a tie: the later line wins
        line("f-cccc00000001", "four", "2026-01-11T00:00:00Z", "open"),
        line(
            "f-cccc00000001",
            "four",
            "2026-01-11T00:00:00Z",
            "dismissed",
        ),
    ];
    std::fs::write(foresight_file(&sb), lines.join("\n") + "\n").unwrap();
    assert_eq!(
        listed(&sb, NOW, false),
        ["f-aaaa00000001", "f-aaaa00000002"]
    );
    assert_eq!(state(&sb, NOW, "f-bbbb00000001"), "done");
    assert_eq!(state(&sb, NOW, "f-cccc00000001"), "dismissed");
    let e = err_of(&mut pro(&sb, NOW, &["done", "aaaa"]), "invalid_args", 2);
    assert!(
        e["hint"].as_str().unwrap().contains("f-aaaa00000002"),
        "{e}"
    );
    ok_data(&mut pro(&sb, NOW, &["done", "aaaa00000002"]));
    // a change made with a clock behind the stored state still wins
    ok_data(&mut pro(
        &sb,
        "2026-01-01T00:00:00Z",
        &["dismiss", "aaaa00000001"],
    ));
    assert_eq!(state(&sb, NOW, "f-aaaa00000001"), "dismissed");
}

#[test]
fn a_torn_last_line_is_ignored_and_doctor_reports_it() {
    let sb = Sandbox::new();
    let kept = id_of(&add(&sb, &["Kept"]));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(foresight_file(&sb))
        .unwrap();
    file.write_all(br#"{"id":"f-dead00000000","text":"cut sh"#)
        .unwrap();
    drop(file);
    // readers skip it silently
    let (env, code) = envelope(&mut pro(&sb, NOW, &["list"]));
    assert_eq!(code, 0);
    assert_eq!(ids(&env["data"]["items"]), vec![kept.clone()]);
    assert!(env["meta"].get("warnings").is_none(), "{env}");
    // doctor names the line
    let report = ok_data(&mut sb.agentbox(&["doctor"]));
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "foresight")
        .cloned()
        .expect("a foresight check");
    assert_eq!(check["ok"], false, "{check}");
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .contains("foresight.jsonl: line 2 is torn"),
        "{check}"
    );
    assert!(
        check["hint"].as_str().unwrap().contains("line 2"),
        "{check}"
    );
    // the next append terminates the torn line first: whole lines again, and
    // the old fragment is now an unreadable line named with a warning
    let next = id_of(&add(&sb, &["Next"]));
    let (env, _) = envelope(&mut pro(&sb, NOW, &["list"]));
    assert_eq!(ids(&env["data"]["items"]), [kept, next]);
    let warning = env["meta"]["warnings"][0].as_str().unwrap_or_default();
    assert!(warning.contains("memory/foresight.jsonl:2"), "{env}");
    let report = ok_data(&mut sb.agentbox(&["doctor"]));
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "foresight")
        .cloned()
        .unwrap();
    assert!(
        check["message"]
            .as_str()
            .unwrap()
            .contains("line 2 is unreadable"),
        "{check}"
    );
    // a healthy file passes
    let clean = Sandbox::new();
    add(&clean, &["fine"]);
    let report = ok_data(&mut clean.agentbox(&["doctor"]));
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "foresight")
        .cloned()
        .unwrap();
    assert_eq!(check["ok"], true, "{check}");
}

#[test]
fn sixteen_writers_adding_and_dismissing_lose_nothing() {
    const WORKERS: usize = 16;
    const ADDS: usize = 6;
    let sb = Arc::new(Sandbox::new());
    let gate = Arc::new(Barrier::new(WORKERS));
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let (sb, gate) = (Arc::clone(&sb), Arc::clone(&gate));
            std::thread::spawn(move || {
                gate.wait();
                let mut added = Vec::new();
                let mut dismissed = Vec::new();
                for i in 0..ADDS {
                    let out = sb
                        .std_command(bin())
                        .args(["proactive", "add", &format!("w{w}-{i}")])
                        .stdin(Stdio::null())
                        .output()
                        .expect("spawn add");
                    let env: Value = serde_json::from_slice(&out.stdout).expect("add envelope");
                    assert_eq!(env["ok"], true, "{env}");
                    let id = id_of(&env["data"]["item"]);
                    // every other item is dismissed right away, racing the others' adds
                    if i % 2 == 1 {
                        let out = sb
                            .std_command(bin())
                            .args(["proactive", "dismiss", &id])
                            .stdin(Stdio::null())
                            .output()
                            .expect("spawn dismiss");
                        let env: Value =
                            serde_json::from_slice(&out.stdout).expect("dismiss envelope");
                        assert_eq!(env["data"]["changed"], json!([id.clone()]), "{env}");
                        dismissed.push(id);
                    } else {
                        added.push(id);
                    }
                }
                (added, dismissed)
            })
        })
        .collect();
    let mut open = Vec::new();
    let mut dismissed = Vec::new();
    for worker in workers {
        let (a, d) = worker.join().expect("worker");
        open.extend(a);
        dismissed.extend(d);
    }
    let text = std::fs::read_to_string(foresight_file(&sb)).unwrap();
    assert_eq!(
        text.lines().count(),
        WORKERS * ADDS + dismissed.len(),
        "lines lost"
    );
    for l in text.lines() {
        serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("torn line {l:?}: {e}"));
    }
    let mut shown = listed(&sb, NOW, false);
    shown.sort();
    open.sort();
    assert_eq!(shown, open);
    let all = listed(&sb, NOW, true);
    assert_eq!(all.len(), WORKERS * ADDS);
    for id in &dismissed {
        assert_eq!(state(&sb, NOW, id), "dismissed");
    }
}

/// Runs `agentbox ARGS…` with the clock at `now`; must succeed.
fn run_at(sb: &Sandbox, now: &str, args: &[&str]) -> Value {
    let mut cmd = sb.agentbox(args);
    cmd.env("AGENTBOX_NOW", now);
    ok_data(&mut cmd)
}

#[test]
fn scan_brings_up_stale_steps_unscreened_skills_and_expiring_items() {
    // an empty home: nothing, and no error
    let empty = Sandbox::new();
    let (env, code) = envelope(&mut pro(&empty, NOW, &["scan"]));
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["data"]["suggestions"], json!([]));
    assert!(env["meta"].get("warnings").is_none(), "{env}");

    let sb = Sandbox::new();
    let five_days_ago = "2026-01-10T09:00:00Z";
    run_at(
        &sb,
        five_days_ago,
        &[
            "plan", "create", "Ship", "--step", "build", "--step", "test", "--id", "ship",
        ],
    );
    run_at(
        &sb,
        five_days_ago,
        &["plan", "step", "ship", "1", "--status", "in_progress"],
    );
    // a fresh in-progress step is not stale
    run_at(
        &sb,
        NOW,
        &["plan", "create", "Fresh", "--step", "one", "--id", "fresh"],
    );
    run_at(
        &sb,
        NOW,
        &["plan", "step", "fresh", "1", "--status", "in_progress"],
    );
    run_at(
        &sb,
        NOW,
        &[
            "skill_forge",
            "new",
            "pdf-forms",
            "--description",
            "Fill PDF forms. Use when asked to fill a PDF.",
        ],
    );
    let expiring = id_of(&add(
        &sb,
        &["Call the bank", "--until", "2026-01-16T09:00:00Z"],
    ));
    add(&sb, &["Not expiring"]);

    let data = ok_data(&mut pro(&sb, NOW, &["scan"]));
    let found = data["suggestions"].as_array().unwrap();
    let kinds: Vec<&str> = found.iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["stale_step", "unscreened_skill", "expiring_item"],
        "{data}"
    );
    assert_eq!(found[0]["command"], "plan show ship");
    assert!(
        found[0]["text"]
            .as_str()
            .unwrap()
            .contains("in progress for 5 days"),
        "{data}"
    );
    assert_eq!(found[1]["command"], "skill_forge screen pdf-forms");
    assert!(
        found[2]["command"]
            .as_str()
            .unwrap()
            .starts_with(&format!("proactive snooze {expiring} --until ")),
        "{data}"
    );
    assert!(
        found[2]["text"].as_str().unwrap().contains("Call the bank"),
        "{data}"
    );
    for s in found {
        assert!(s["text"].is_string() && s["command"].is_string(), "{s}");
    }
    // --stale-days moves the threshold
    let data = ok_data(&mut pro(&sb, NOW, &["scan", "--stale-days", "10"]));
    assert!(
        !data["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["kind"] == "stale_step"),
        "{data}"
    );
    // once screened, the skill is no longer brought up; changed, it is again
    run_at(&sb, NOW, &["skill_forge", "screen", "pdf-forms"]);
    let kinds = |data: &Value| -> Vec<String> {
        data["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        kinds(&ok_data(&mut pro(&sb, NOW, &["scan"]))),
        ["stale_step", "expiring_item"]
    );
    std::fs::write(sb.home().join("skills/pdf-forms/notes.md"), "more\n").unwrap();
    assert_eq!(
        kinds(&ok_data(&mut pro(&sb, NOW, &["scan"]))),
        ["stale_step", "changed_skill", "expiring_item"]
    );
    // a due item that expires is resolved by done
    let due = id_of(&add(
        &sb,
        &["Pay the invoice", "--due", "2026-01-15T18:00:00Z"],
    ));
    let data = ok_data(&mut pro(&sb, NOW, &["scan"]));
    assert!(
        data["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["command"] == format!("proactive done {due}")),
        "{data}"
    );
    // a broken source (an unreadable plan) adds nothing and fails nothing
    std::fs::write(sb.home().join("plans/broken.json"), "{ not json").unwrap();
    ok_data(&mut pro(&sb, NOW, &["scan"]));
    // a failing source (plans/ is a file) adds a warning, never fails the scan
    std::fs::remove_dir_all(sb.home().join("plans")).unwrap();
    std::fs::write(sb.home().join("plans"), "not a folder").unwrap();
    let (env, code) = envelope(&mut pro(&sb, NOW, &["scan"]));
    assert_eq!(code, 0, "{env}");
    assert_eq!(
        kinds(&env["data"]),
        ["changed_skill", "expiring_item", "expiring_item"],
        "{env}"
    );
    let warnings = env["meta"]["warnings"].to_string();
    assert!(warnings.contains("plan's suggestions failed"), "{env}");
    err_of(
        &mut pro(&sb, NOW, &["scan", "--stale-days", "soon"]),
        "invalid_args",
        2,
    );
}

/// `mem_context` over the server's real stdio: initialize, call, close.
fn mem_context(sb: &Sandbox, now: &str) -> String {
    let mut child = sb
        .std_command(bin())
        .arg("memory_mcp")
        .env("AGENTBOX_NOW", now)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn memory_mcp");
    let frames = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "mem_context", "arguments": {"query": ""}}}),
    ];
    let mut stdin = child.stdin.take().unwrap();
    for frame in frames {
        writeln!(stdin, "{frame}").unwrap();
    }
    drop(stdin);
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    assert!(child.wait().unwrap().success());
    let reply: Value = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON frame"))
        .find(|v| v["id"] == 2)
        .expect("the mem_context reply");
    assert_ne!(reply["result"]["isError"], true, "{reply}");
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The Foresight section of a `mem_context` text.
fn foresight_section(context: &str) -> String {
    let start =
        context.find("## Foresight\n").expect("a Foresight section") + "## Foresight\n".len();
    let rest = &context[start..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

#[test]
fn mem_context_shows_the_items_valid_now_due_soonest_first() {
    let sb = Sandbox::new();
    assert_eq!(foresight_section(&mem_context(&sb, NOW)), "(none)\n");
    let no_due = id_of(&add(
        &sb,
        &["Water the plants", "--until", "2026-01-18T00:00:00Z"],
    ));
    let no_due_later = id_of(&add(&sb, &["Read the RFC"]));
    let due_later = id_of(&add(
        &sb,
        &["Send the report", "--due", "2026-01-17T17:00:00Z"],
    ));
    let due_soon = id_of(&add(
        &sb,
        &["Book the room", "--due", "2026-01-15T15:00:00Z"],
    ));
    let dismissed = id_of(&add(&sb, &["Dismissed one"]));
    let done = id_of(&add(&sb, &["Done one"]));
    let snoozed = id_of(&add(&sb, &["Snoozed one"]));
    let _expired = add(
        &sb,
        &[
            "Expired one",
            "--from",
            "2026-01-01T00:00:00Z",
            "--until",
            "2026-01-15T09:29:59Z",
        ],
    );
    let _upcoming = add(&sb, &["Upcoming one", "--from", "2026-01-16T00:00:00Z"]);
    ok_data(&mut pro(&sb, NOW, &["dismiss", &dismissed]));
    ok_data(&mut pro(&sb, NOW, &["done", &done]));
    ok_data(&mut pro(
        &sb,
        NOW,
        &["snooze", &snoozed, "--until", "2026-01-16T00:00:00Z"],
    ));

    let section = foresight_section(&mem_context(&sb, NOW));
    let expected = format!(
        "- Book the room (due Thu 2026-01-15 15:00 UTC (in 5 hours); {due_soon})\n\
         - Send the report (due Sat 2026-01-17 17:00 UTC (in 2 days); {due_later})\n\
         - Water the plants (until Sun 2026-01-18 00:00 UTC; {no_due})\n\
         - Read the RFC (until Thu 2026-01-22 09:30 UTC; {no_due_later})\n"
    );
    assert_eq!(section, expected);
    // the snooze over, the item is back; past its due, an item has expired
    let section = foresight_section(&mem_context(&sb, "2026-01-16T00:00:00Z"));
    assert!(section.contains(&snoozed), "{section}");
    assert!(!section.contains(&due_soon), "{section}");
}

/// `mem_context` shows the 20 soonest items and counts the rest: an agent
/// needs what is coming up, and the section stays cheap with a long list.
#[test]
fn mem_context_shows_the_twenty_soonest_and_counts_the_rest() {
    let sb = Sandbox::new();
    let lines: Vec<String> = (0..25)
        .map(|i| {
            serde_json::json!({
                "id": format!("f-{i:012x}"), "text": format!("Item {i:02}"),
                "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2026-02-28T00:00:00Z",
                "due": format!("2026-02-{:02}T12:00:00Z", 25 - i), "source": "cli",
                "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z",
                "status": "open",
            })
            .to_string()
        })
        .collect();
    std::fs::write(
        sb.home().join("memory/foresight.jsonl"),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let section = foresight_section(&mem_context(&sb, NOW));
    let bullets: Vec<&str> = section.lines().collect();
    assert_eq!(bullets.len(), 21, "{section}");
    assert!(bullets[0].starts_with("- Item 24 "), "{section}");
    assert!(bullets[19].starts_with("- Item 05 "), "{section}");
    assert!(bullets[20].contains("and 5 more"), "{section}");
}

/// A 100 KB item (which `add` took) beside an ordinary profile — or two of
/// them — cut the Foresight section, and "Pay rent" never appeared. Each
/// bullet's text is capped, so every valid item shows whatever the others
/// hold; `add` takes at most 2 KiB, a size a reminder needs.
#[test]
fn long_items_never_push_the_others_out_of_mem_context() {
    let sb = Sandbox::new();
    let facts: String = (0..60)
        .map(|i| format!("- Fact number {i} about the team's deploy habits.\n"))
        .collect();
    std::fs::write(
        sb.home().join("memory/PROFILE.md"),
        format!("# Profile\n\n## Preferences\n- Prefers tabs.\n\n## Facts\n{facts}"),
    )
    .unwrap();
    // Two huge items, hand-written (or synced in), due before the rent.
    let huge = |n: u8| {
        json!({
            "id": format!("f-00000000000{n}"), "text": format!("Huge {n} {}", "x".repeat(100_000)),
            "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2026-02-01T00:00:00Z",
            "due": "2026-01-15T10:00:00Z", "source": "cli",
            "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z",
            "status": "open",
        })
        .to_string()
    };
    std::fs::write(foresight_file(&sb), format!("{}\n{}\n", huge(1), huge(2))).unwrap();
    let rent = id_of(&add(&sb, &["Pay rent", "--due", "in 7 hours"]));
    let section = foresight_section(&mem_context(&sb, NOW));
    // (a failure prints the start of the section only)
    let start: String = section.chars().take(3000).collect();
    assert!(
        section.contains(&format!(
            "- Pay rent (due Thu 2026-01-15 16:30 UTC (in 7 hours); {rent})"
        )),
        "{start}"
    );
    assert!(!section.contains("[truncated"), "{start}");
    for id in ["f-000000000001", "f-000000000002"] {
        let line = section.lines().find(|l| l.contains(id)).expect(id);
        assert!(line.chars().count() < 400, "{start}");
        assert!(line.contains("Huge") && line.contains('…'), "{line}");
    }

    // `add` refuses a text over 2 KiB, and stores nothing.
    let before = std::fs::read(foresight_file(&sb)).unwrap();
    let err = err_of(
        &mut pro(&sb, NOW, &["add", &"y".repeat(2049)]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit"], 2048, "{err}");
    assert_eq!(err["detail"]["observed"], 2049, "{err}");
    assert_eq!(std::fs::read(foresight_file(&sb)).unwrap(), before);
    add(&sb, &[&"z".repeat(2048)]);
    // The huge items stay closable.
    ok_data(&mut pro(
        &sb,
        NOW,
        &["done", "f-000000000001", "f-000000000002"],
    ));
}

/// Four hand-edited (or synced) items with 60,000-character ids (one with
/// line breaks), due before the rent, cut the Foresight section: only the
/// text of a bullet was capped, the id was printed whole. Every part of a
/// bullet is bounded now, so each takes a small line.
#[test]
fn huge_ids_never_push_the_others_out_of_mem_context() {
    let sb = Sandbox::new();
    let huge = |n: usize| {
        let id = if n == 0 {
            format!("f-{}", "line\n".repeat(10_000))
        } else {
            format!("f-{n}{}", "9".repeat(60_000))
        };
        json!({
            "id": id, "text": format!("Huge id {n}"),
            "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2026-02-01T00:00:00Z",
            "due": "2026-01-15T10:20:00Z", "source": "cli",
            "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z",
            "status": "open", "tags": vec!["t".repeat(64); 1500],
        })
        .to_string()
    };
    let lines: Vec<String> = (0..4).map(huge).collect();
    std::fs::write(foresight_file(&sb), lines.join("\n") + "\n").unwrap();
    let rent = id_of(&add(&sb, &["Pay rent", "--due", "in 7 hours"]));
    let section = foresight_section(&mem_context(&sb, NOW));
    let start: String = section.chars().take(3000).collect();
    assert!(!section.contains("[truncated"), "{start}");
    assert!(
        section.contains(&format!(
            "- Pay rent (due Thu 2026-01-15 16:30 UTC (in 7 hours); {rent})"
        )),
        "{start}"
    );
    assert_eq!(section.lines().count(), 5, "{start}");
    for n in 0..4 {
        let line = section
            .lines()
            .find(|l| l.starts_with(&format!("- Huge id {n} ")))
            .unwrap_or_else(|| panic!("item {n}: {start}"));
        assert!(line.chars().count() < 200, "{line}");
        assert!(line.contains("; f-") && line.ends_with("…)"), "{line}");
    }
}

/// `add` took 1,500 `--tag` values (~99 KB on one item): the tags are
/// capped in count (and length), with `invalid_args`, and nothing is stored.
#[test]
fn add_refuses_too_many_tags() {
    let sb = Sandbox::new();
    let tags: Vec<String> = (0..=20).map(|i| format!("t{i}")).collect();
    let mut args = vec!["add", "Too tagged"];
    for tag in &tags {
        args.extend(["--tag", tag]);
    }
    let err = err_of(&mut pro(&sb, NOW, &args), "invalid_args", 2);
    assert_eq!(err["detail"]["limit"], 20, "{err}");
    assert_eq!(err["detail"]["observed"], 21, "{err}");
    assert!(err["hint"].as_str().unwrap().contains("20"), "{err}");
    assert!(
        !foresight_file(&sb).exists()
            || std::fs::read_to_string(foresight_file(&sb))
                .unwrap()
                .is_empty()
    );
    // Repeats count once; twenty distinct tags are fine.
    args.truncate(args.len() - 2);
    args.extend(["--tag", "t0"]);
    let item = add(&sb, &args[1..]);
    assert_eq!(item["tags"].as_array().unwrap().len(), 20, "{item}");
    let long = "x".repeat(65);
    err_of(
        &mut pro(&sb, NOW, &["add", "Long tag", "--tag", &long]),
        "invalid_args",
        2,
    );
}

/// A `TZ` naming something that is not a small regular file (a FIFO no one
/// writes, a device such as /dev/zero, a folder) is not read: WHEN falls
/// back to /etc/localtime or UTC instead of blocking on the FIFO or filling
/// memory from the device.
#[test]
fn a_tz_naming_a_fifo_or_a_device_does_not_hang() {
    let sb = Sandbox::new();
    let fifo = sb.path().join("zone.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    for tz in [
        fifo.to_str().unwrap().to_string(),
        format!(":{}", fifo.display()),
    ] {
        let mut child = sb
            .std_command(bin())
            .args([
                "proactive",
                "due",
                "--at",
                "tomorrow 9:00",
                "--within",
                "1h",
            ])
            .env("TZ", &tz)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break Some(status);
            }
            if std::time::Instant::now() > deadline {
                child.kill().expect("kill");
                child.wait().expect("reap");
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let status = status.unwrap_or_else(|| panic!("TZ={tz}: still running after 20 s"));
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert!(status.success(), "TZ={tz}: {out}");
        let v: Value = serde_json::from_str(&out).expect("an envelope");
        assert_eq!(v["ok"], true, "{v}");
    }
}

#[test]
fn list_pages_with_offset_and_limit() {
    let sb = Sandbox::new();
    let a = id_of(&add(&sb, &["First", "--due", "tomorrow"]));
    let b = id_of(&add(&sb, &["Second", "--due", "friday"]));
    let c = id_of(&add(&sb, &["Third", "--due", "in 3 weeks"]));
    ok_data(&mut pro(&sb, NOW, &["done", &a]));
    let (env, _) = envelope(&mut pro(&sb, NOW, &["list", "--limit", "1"]));
    assert_eq!(ids(&env["data"]["items"]), std::slice::from_ref(&b));
    assert_eq!(env["meta"]["count"], 1);
    assert_eq!(env["meta"]["matched"], 2);
    assert_eq!(env["meta"]["total"], 3);
    let page = ok_data(&mut pro(
        &sb,
        NOW,
        &["list", "--limit", "1", "--offset", "1"],
    ));
    assert_eq!(ids(&page["items"]), std::slice::from_ref(&c));
    // --all lists the closed ones after the open ones: the next page has them
    let rest = ok_data(&mut pro(&sb, NOW, &["list", "--all", "--offset", "2"]));
    assert_eq!(ids(&rest["items"]), [a]);
    let past = ok_data(&mut pro(&sb, NOW, &["list", "--offset", "9"]));
    assert_eq!(ids(&past["items"]), Vec::<String>::new());
}
