//! One test per rule, on files shaped like the ones the tools write.

use super::Merged;
use super::builtin::merge_file;
use serde_json::Value;

fn clean(m: Merged) -> Vec<(String, Option<Vec<u8>>)> {
    match m {
        Merged::Clean(files) => files,
        Merged::Conflict(reason) => panic!("unexpected conflict: {reason}"),
    }
}

/// The merged text of a clean single-file merge.
fn one(rel: &str, b: Option<&str>, o: Option<&str>, t: Option<&str>) -> String {
    let files = clean(merge_file(
        rel,
        b.map(str::as_bytes),
        o.map(str::as_bytes),
        t.map(str::as_bytes),
    ));
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].0, rel);
    String::from_utf8(files[0].1.clone().expect("written")).expect("utf-8")
}

fn conflict(rel: &str, b: Option<&str>, o: Option<&str>, t: Option<&str>) -> String {
    match merge_file(
        rel,
        b.map(str::as_bytes),
        o.map(str::as_bytes),
        t.map(str::as_bytes),
    ) {
        Merged::Conflict(reason) => reason,
        Merged::Clean(files) => panic!("expected a conflict, got {files:?}"),
    }
}

fn turn(ep: &str, seq: u64, ts: &str, content: &str) -> String {
    format!(
        r#"{{"schema":"agentbox.turn/v1","id":"{ep}#{seq}","session":"ops","episode":"{ep}","seq":{seq},"ts":"{ts}","role":"user","content":"{content}","tool_calls":[],"tool_call_id":null,"source":"cli"}}"#
    )
}

fn file(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

const EP: &str = "ep-20260115T093000Z-1";
const OPEN: &str = "memory/episodes/ops/ep-20260115T093000Z-1.open.jsonl";

#[test]
fn two_homes_appending_to_one_open_episode_keep_every_turn() {
    let t1 = turn(EP, 1, "2026-01-15T09:30:00Z", "deploy fails");
    let t2 = turn(EP, 2, "2026-01-15T09:31:00Z", "checking logs");
    let a3 = turn(EP, 3, "2026-01-15T09:33:00Z", "on the laptop");
    let b3 = turn(EP, 3, "2026-01-15T09:32:00Z", "on the workstation");
    let b4 = turn(EP, 4, "2026-01-15T09:34:00Z", "image tag wrong");
    let base = file(&[t1.clone(), t2.clone()]);
    let ours = file(&[t1.clone(), t2.clone(), a3.clone()]);
    let theirs = file(&[t1.clone(), t2.clone(), b3, b4.clone()]);
    let merged = one(OPEN, Some(&base), Some(&ours), Some(&theirs));
    let lines: Vec<Value> = merged
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let ids: Vec<&str> = lines.iter().map(|v| v["id"].as_str().unwrap()).collect();
    let contents: Vec<&str> = lines
        .iter()
        .map(|v| v["content"].as_str().unwrap())
        .collect();
    // Ordered by time; their #3 collided with ours and became #5.
    assert_eq!(
        contents,
        [
            "deploy fails",
            "checking logs",
            "on the workstation",
            "on the laptop",
            "image tag wrong"
        ]
    );
    assert_eq!(
        ids,
        [
            "ep-20260115T093000Z-1#1",
            "ep-20260115T093000Z-1#2",
            "ep-20260115T093000Z-1#5",
            "ep-20260115T093000Z-1#3",
            "ep-20260115T093000Z-1#4"
        ]
    );
    assert_eq!(lines[2]["seq"], 5);
    // Field order and format as track writes them.
    assert!(merged.contains(&t1) && merged.contains(&a3) && merged.contains(&b4));
    assert!(merged.lines().nth(2).unwrap().starts_with(
        r#"{"schema":"agentbox.turn/v1","id":"ep-20260115T093000Z-1#5","session":"ops""#
    ));
    // Deterministic.
    assert_eq!(merged, one(OPEN, Some(&base), Some(&ours), Some(&theirs)));
}

#[test]
fn episode_closed_on_one_side_and_appended_on_the_other_keeps_its_lines() {
    let t1 = turn(EP, 1, "2026-01-15T09:30:00Z", "a");
    let t2 = turn(EP, 2, "2026-01-15T09:31:00Z", "b");
    let base = file(std::slice::from_ref(&t1));
    let theirs = file(&[t1, t2]);
    assert_eq!(one(OPEN, Some(&base), None, Some(&theirs)), theirs);
    assert_eq!(one(OPEN, Some(&base), Some(&theirs), None), theirs);
}

#[test]
fn torn_and_unparsable_lines_are_kept_at_the_end() {
    let t1 = turn(EP, 1, "2026-01-15T09:30:00Z", "a");
    let t2 = turn(EP, 2, "2026-01-15T09:31:00Z", "b");
    let base = format!("{t1}\n{{\"schema\":\"agentb");
    let ours = format!("{t1}\n{{\"schema\":\"agentb\n{t2}\n");
    let theirs = format!("{t1}\nhand edit\n");
    let merged = one(OPEN, Some(&base), Some(&ours), Some(&theirs));
    // The torn line: ours kept it, theirs replaced it by a hand edit (so it
    // goes); every added line stays.
    assert_eq!(merged, format!("{t1}\n{t2}\nhand edit\n"));
}

#[test]
fn legacy_episode_id_minted_by_two_homes_is_renamed() {
    let rel = "memory/episodes/ops/ep-20260115T093000Z-1.jsonl";
    let ours = file(&[turn(EP, 1, "2026-01-15T09:30:00Z", "laptop question")]);
    let theirs = file(&[
        turn(EP, 1, "2026-01-15T09:30:00Z", "workstation question"),
        turn(EP, 2, "2026-01-15T09:30:00Z", "answer"),
    ]);
    let files = clean(merge_file(
        rel,
        None,
        Some(ours.as_bytes()),
        Some(theirs.as_bytes()),
    ));
    assert_eq!(files.len(), 2);
    assert_eq!(files[0], (rel.to_string(), Some(ours.clone().into_bytes())));
    let (new_rel, bytes) = &files[1];
    let name = new_rel.rsplit('/').next().unwrap();
    assert!(crate::store::safe_name("episode", name).is_ok());
    let new_id = name.strip_suffix(".jsonl").unwrap();
    assert!(new_id.starts_with("ep-20260115T093000Z-1-") && new_id.len() == EP.len() + 7);
    assert_eq!(new_rel, &format!("memory/episodes/ops/{new_id}.jsonl"));
    let text = String::from_utf8(bytes.clone().unwrap()).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["episode"], new_id);
        assert_eq!(line["id"], format!("{new_id}#{}", i + 1));
    }
    assert_eq!(lines[0]["content"], "workstation question");
    // An open episode renamed is written closed (a session has one open).
    let open = clean(merge_file(
        OPEN,
        None,
        Some(ours.as_bytes()),
        Some(theirs.as_bytes()),
    ));
    assert!(open[1].0.ends_with(&format!("{new_id}.jsonl")) && !open[1].0.contains(".open."));
}

#[test]
fn same_episode_added_on_both_sides_is_a_line_union() {
    let t1 = turn(EP, 1, "2026-01-15T09:30:00Z", "same start");
    let ours = file(&[t1.clone(), turn(EP, 2, "2026-01-15T09:31:00Z", "x")]);
    let theirs = file(&[t1.clone(), turn(EP, 2, "2026-01-15T09:32:00Z", "y")]);
    let merged = one(OPEN, None, Some(&ours), Some(&theirs));
    assert_eq!(
        merged,
        file(&[
            t1,
            turn(EP, 2, "2026-01-15T09:31:00Z", "x"),
            turn(EP, 3, "2026-01-15T09:32:00Z", "y")
        ])
    );
}

#[test]
fn foresight_is_a_union_sorted_by_updated() {
    let item = |id: &str, state: &str, updated: &str| {
        format!(
            r#"{{"id":"{id}","text":"renew cert","state":"{state}","created":"2026-01-10T09:00:00Z","updated":"{updated}"}}"#
        )
    };
    let a = item("f-1", "open", "2026-01-10T09:00:00Z");
    let b = item("f-2", "open", "2026-01-11T09:00:00Z");
    let ours_done = item("f-1", "done", "2026-01-14T09:00:00Z");
    let theirs_snooze = item("f-1", "snoozed", "2026-01-12T09:00:00Z");
    let theirs_new = item("f-3", "open", "2026-01-13T09:00:00Z");
    let base = file(&[a.clone(), b.clone()]);
    let ours = file(&[a.clone(), b.clone(), ours_done.clone()]);
    let theirs = file(&[
        a.clone(),
        b.clone(),
        theirs_snooze.clone(),
        theirs_new.clone(),
    ]);
    let merged = one(
        "memory/foresight.jsonl",
        Some(&base),
        Some(&ours),
        Some(&theirs),
    );
    assert_eq!(merged, file(&[a, b, theirs_snooze, theirs_new, ours_done]));
}

const PROFILE: &str = "memory/personal/PROFILE.md";

#[test]
fn profile_facts_merge_as_a_three_way_set() {
    let base = "# Profile\n\n## Preferences\n- Prefers tabs over spaces.\n- Likes dark mode.\n\n## Facts\n- Works at Example Corp.\n";
    // Ours: a preference added, dark mode removed; the same fact added twice.
    let ours = "# Profile\n\n## Preferences\n- Prefers tabs over spaces.\n- Writes Go daily.\n\n## Facts\n- Works at Example Corp.\n- Lives in Lisbon.\n";
    // Theirs: a fact added in the other section, the same fact added too.
    let theirs = "# Profile\n\n## Preferences\n- Prefers tabs over spaces.\n- Likes dark mode.\n\n## Facts\n- Works at Example Corp.\n- lives in Lisbon\n- Has a dog named Rex.\n";
    assert_eq!(
        one(PROFILE, Some(base), Some(ours), Some(theirs)),
        "# Profile\n\n## Preferences\n- Prefers tabs over spaces.\n- Writes Go daily.\n\n## Facts\n- Works at Example Corp.\n- Lives in Lisbon.\n- Has a dog named Rex.\n"
    );
}

#[test]
fn profile_sections_only_one_side_has_are_kept_and_prose_merges() {
    let base = "# Profile\n\nNotes about me.\n\n## Preferences\n- Tabs.\n";
    let ours = "# Profile\n\nNotes about me, kept by hand.\n\n## Preferences\n- Tabs.\n- Vim.\n";
    let theirs =
        "# Profile\n\nNotes about me.\n\n## Preferences\n- Tabs.\n\n## Facts\n- Has a cat.\n";
    assert_eq!(
        one(PROFILE, Some(base), Some(ours), Some(theirs)),
        "# Profile\n\nNotes about me, kept by hand.\n\n## Preferences\n- Tabs.\n- Vim.\n\n## Facts\n- Has a cat.\n"
    );
    // Two new homes: both created the file.
    let a = "# Profile\n\n## Preferences\n- Tabs.\n\n## Facts\n";
    let b = "# Profile\n\n## Preferences\n\n## Facts\n- Has a cat.\n";
    assert_eq!(
        one(PROFILE, None, Some(a), Some(b)),
        "# Profile\n\n## Preferences\n- Tabs.\n\n## Facts\n- Has a cat.\n"
    );
    // Prose changed on both sides differently.
    let reason = conflict(
        PROFILE,
        Some(base),
        Some(&base.replace("Notes about me.", "Mine.")),
        Some(&base.replace("Notes about me.", "Theirs.")),
    );
    assert!(reason.contains("# Profile"), "{reason}");
    assert_eq!(
        conflict(PROFILE, Some(base), None, Some(ours)),
        super::DELETED_CHANGED
    );
}

const PLAN: &str = r#"{
  "schema": "agentbox.plan/v1",
  "id": "ship-v1",
  "title": "Ship v1",
  "status": "active",
  "version": 3,
  "created": "2026-01-15T09:30:00Z",
  "updated": "2026-01-15T10:06:00Z",
  "steps": [
    {
      "text": "build",
      "status": "done",
      "note": "green on CI",
      "updated": "2026-01-15T10:05:00Z"
    },
    {
      "text": "test",
      "status": "in_progress",
      "updated": "2026-01-15T10:06:00Z"
    },
    {
      "text": "release",
      "status": "pending",
      "updated": "2026-01-15T09:30:00Z"
    }
  ]
}
"#;

fn plan_with(f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(PLAN).unwrap();
    f(&mut v);
    let mut s = serde_json::to_string_pretty(&v).unwrap();
    s.push('\n');
    s
}

#[test]
fn plan_step_changed_on_one_side_and_step_added_on_the_other() {
    let ours = plan_with(|p| {
        p["version"] = 4.into();
        p["updated"] = "2026-01-15T11:00:00Z".into();
        p["steps"][1]["status"] = "done".into();
        p["steps"][1]["updated"] = "2026-01-15T11:00:00Z".into();
    });
    let theirs = plan_with(|p| {
        p["version"] = 5.into();
        p["updated"] = "2026-01-15T10:30:00Z".into();
        let steps = p["steps"].as_array_mut().unwrap();
        let new = |text: &str| serde_json::json!({"text": text, "status": "pending", "updated": "2026-01-15T10:30:00Z"});
        steps.insert(2, new("smoke test"));
        steps.push(new("announce"));
    });
    let merged = one("plans/ship-v1.json", Some(PLAN), Some(&ours), Some(&theirs));
    let expected = plan_with(|p| {
        p["version"] = 6.into();
        p["updated"] = "2026-01-15T11:00:00Z".into();
        p["steps"][1]["status"] = "done".into();
        p["steps"][1]["updated"] = "2026-01-15T11:00:00Z".into();
        let steps = p["steps"].as_array_mut().unwrap();
        let new = |text: &str| serde_json::json!({"text": text, "status": "pending", "updated": "2026-01-15T10:30:00Z"});
        steps.insert(2, new("smoke test"));
        steps.push(new("announce"));
    });
    assert_eq!(merged, expected);
    // The same in the other direction: the same document.
    let back: Value = serde_json::from_str(&one(
        "plans/ship-v1.json",
        Some(PLAN),
        Some(&theirs),
        Some(&ours),
    ))
    .unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(&expected).unwrap());
}

#[test]
fn plan_step_changed_on_both_sides() {
    // Different fields of one step: both land.
    let ours = plan_with(|p| {
        p["version"] = 4.into();
        p["steps"][2]["status"] = "blocked".into();
    });
    let theirs = plan_with(|p| {
        p["version"] = 4.into();
        p["steps"][2]["note"] = "after QA".into();
    });
    let merged: Value = serde_json::from_str(&one(
        "plans/ship-v1.json",
        Some(PLAN),
        Some(&ours),
        Some(&theirs),
    ))
    .unwrap();
    assert_eq!(merged["version"], 5);
    assert_eq!(merged["steps"][2]["status"], "blocked");
    assert_eq!(merged["steps"][2]["note"], "after QA");
    // The same step's text, differently: a conflict naming it.
    let ours = plan_with(|p| p["steps"][2]["text"] = "release 1.0".into());
    let theirs = plan_with(|p| p["steps"][2]["text"] = "release v1".into());
    assert_eq!(
        conflict("plans/ship-v1.json", Some(PLAN), Some(&ours), Some(&theirs)),
        r#"both set "steps[2].text""#
    );
    let ours = plan_with(|p| p["title"] = "Ship it".into());
    let theirs = plan_with(|p| p["title"] = "Ship now".into());
    assert_eq!(
        conflict("plans/ship-v1.json", Some(PLAN), Some(&ours), Some(&theirs)),
        r#"both set "title""#
    );
    assert_eq!(
        conflict("plans/ship-v1.json", Some(PLAN), Some(&ours), None),
        super::DELETED_CHANGED
    );
}

#[test]
fn json_arrays_with_ids_merge_by_id() {
    let base = r#"{"items": [{"id": "a", "n": 1}, {"id": "b", "n": 2}, {"id": "c", "n": 3}]}"#;
    let ours = r#"{"items": [{"id": "a", "n": 10}, {"id": "c", "n": 3}, {"id": "d", "n": 4}]}"#;
    let theirs = r#"{"items": [{"id": "e", "n": 5}, {"id": "a", "n": 1, "m": 1}, {"id": "b", "n": 2}, {"id": "c", "n": 3}]}"#;
    let merged: Value =
        serde_json::from_str(&one("x.json", Some(base), Some(ours), Some(theirs))).unwrap();
    assert_eq!(
        merged,
        serde_json::json!({"items": [{"id": "a", "n": 10, "m": 1}, {"id": "c", "n": 3}, {"id": "d", "n": 4}, {"id": "e", "n": 5}]})
    );
    // Other arrays changed in the same place on both sides.
    let reason = conflict(
        "config.json",
        Some(r#"{"a": [1, 2]}"#),
        Some(r#"{"a": [1, 3]}"#),
        Some(r#"{"a": [1, 4, 5]}"#),
    );
    assert_eq!(reason, r#"both changed "a""#);
    // Screening records: the later time, different hashes conflict.
    let rec = |hash: &str, at: &str| {
        format!(
            r#"{{"name": "pdf", "status": "pass", "content_hash": "{hash}", "screened_at": "{at}"}}"#
        )
    };
    let merged = one(
        "skills/.screening/pdf.json",
        Some(&rec("sha256:a", "2026-01-15T09:00:00Z")),
        Some(&rec("sha256:a", "2026-01-15T10:00:00Z")),
        Some(&rec("sha256:a", "2026-01-15T11:00:00Z")),
    );
    assert!(merged.contains("2026-01-15T11:00:00Z") && merged.ends_with("}\n"));
}

const NOTE: &str = "---
title: Go formatting
tags: [go, style]
sources: [https://go.dev/doc/effective_go]
links: [go-modules]
created: 2026-01-15T09:30:00Z
updated: 2026-01-15T10:00:00Z
rev: 2
claims:
  - go.formatter: gofmt
---

Run `gofmt -w .` before committing.

Tabs indent, spaces align.

Imports are grouped by goimports.
";

#[test]
fn note_front_matter_and_body_merge() {
    let ours = NOTE
        .replace("rev: 2", "rev: 3")
        .replace(
            "updated: 2026-01-15T10:00:00Z",
            "updated: 2026-01-15T12:00:00Z",
        )
        .replace("tags: [go, style]", "tags: [go, style, tooling]")
        .replace(
            "Run `gofmt -w .` before committing.",
            "Run `gofmt -w .` before every commit.",
        );
    let theirs = NOTE
        .replace("rev: 2", "rev: 4")
        .replace(
            "updated: 2026-01-15T10:00:00Z",
            "updated: 2026-01-15T11:00:00Z",
        )
        .replace("tags: [go, style]", "tags: [go, fmt]")
        .replace(
            "Imports are grouped by goimports.",
            "Imports are grouped by goimports -local.",
        );
    let merged = one(
        "memory/knowledge/go-formatting.md",
        Some(NOTE),
        Some(&ours),
        Some(&theirs),
    );
    let expected = NOTE
        .replace("rev: 2", "rev: 5")
        .replace(
            "updated: 2026-01-15T10:00:00Z",
            "updated: 2026-01-15T12:00:00Z",
        )
        .replace("tags: [go, style]", "tags: [go, tooling, fmt]")
        .replace(
            "Run `gofmt -w .` before committing.",
            "Run `gofmt -w .` before every commit.",
        )
        .replace(
            "Imports are grouped by goimports.",
            "Imports are grouped by goimports -local.",
        );
    assert_eq!(merged, expected);
    // Overlapping body edits: a conflict naming the file's line.
    let ours = NOTE.replace("Tabs indent, spaces align.", "Tabs indent.");
    let theirs = NOTE.replace("Tabs indent, spaces align.", "Spaces align.");
    assert_eq!(
        conflict(
            "memory/knowledge/go-formatting.md",
            Some(NOTE),
            Some(&ours),
            Some(&theirs)
        ),
        "both sides changed line 15"
    );
    assert_eq!(NOTE.lines().nth(14), Some("Tabs indent, spaces align."));
    let ours = NOTE.replace("title: Go formatting", "title: Go fmt");
    let theirs = NOTE.replace("title: Go formatting", "title: gofmt");
    assert_eq!(
        conflict(
            "memory/knowledge/go-formatting.md",
            Some(NOTE),
            Some(&ours),
            Some(&theirs)
        ),
        r#"both set "title""#
    );
}

#[test]
fn persona_traits_merge_key_by_key() {
    let base = "---\nrev: 3\nupdated: 2026-01-15T10:00:00Z\ntone: warm\nverbosity: concise\n# comments are kept\n---\n\nYou are Ada.\n";
    let ours = "---\nrev: 4\nupdated: 2026-01-15T11:00:00Z\ntone: dry\nverbosity: concise\n# comments are kept\n---\n\nYou are Ada.\n";
    let theirs = "---\nrev: 4\nupdated: 2026-01-15T10:30:00Z\ntone: warm\nverbosity: concise\nhumor: dry\n# comments are kept\n---\n\nYou are Ada.\n\nAsk before deleting anything.\n";
    assert_eq!(
        one("persona/ada.md", Some(base), Some(ours), Some(theirs)),
        "---\nrev: 5\nupdated: 2026-01-15T11:00:00Z\ntone: dry\nverbosity: concise\nhumor: dry\n# comments are kept\n---\n\nYou are Ada.\n\nAsk before deleting anything.\n"
    );
}

#[test]
fn a_revision_at_the_top_is_a_conflict_not_a_file_its_reader_refuses() {
    let top = crate::store::MAX_REVISION;
    let persona =
        |rev: u64, tone: &str| format!("---\nrev: {rev}\ntone: {tone}\n---\n\nYou are Ada.\n");
    // One below the top still merges, to the top.
    let (b, o, t) = (
        persona(top - 2, "warm"),
        persona(top - 1, "dry"),
        persona(top - 1, "calm"),
    );
    let reason = conflict("persona/ada.md", Some(&b), Some(&o), Some(&t));
    assert!(reason.contains("tone"), "{reason}");
    let (o, t) = (
        format!("---\nrev: {}\ntone: dry\n---\n\nYou are Ada.\n", top - 1),
        format!(
            "---\nrev: {}\ntone: warm\n---\n\nYou are Ada.\n\nMore.\n",
            top - 1
        ),
    );
    let merged = one("persona/ada.md", Some(&b), Some(&o), Some(&t));
    assert!(
        merged.starts_with(&format!("---\nrev: {top}\n")),
        "{merged}"
    );
    // At the top, both sides' revisions cannot make a new one.
    let (b, o, t) = (
        format!("---\nrev: {}\ntone: warm\n---\n\nYou are Ada.\n", top - 1),
        format!("---\nrev: {top}\ntone: dry\n---\n\nYou are Ada.\n"),
        format!("---\nrev: {top}\ntone: warm\n---\n\nYou are Ada.\n\nMore.\n"),
    );
    let reason = conflict("persona/ada.md", Some(&b), Some(&o), Some(&t));
    assert!(reason.contains("highest revision"), "{reason}");
    // A plan's version alike.
    let ours = plan_with(|p| {
        p["version"] = top.into();
        p["title"] = "Ship v1 now".into();
    });
    let theirs = plan_with(|p| {
        p["version"] = top.into();
        p["status"] = "done".into();
    });
    let reason = conflict("plans/ship-v1.json", Some(PLAN), Some(&ours), Some(&theirs));
    assert!(reason.contains("highest revision"), "{reason}");
}

#[test]
fn other_text_merges_three_way() {
    let base = "# Skill\n\nstep one\nstep two\nstep three\n";
    let ours = "# Skill\n\nstep one, carefully\nstep two\nstep three\n";
    let theirs = "# Skill\n\nstep one\nstep two\nstep three\nstep four\n";
    assert_eq!(
        one("skills/pdf/SKILL.md", Some(base), Some(ours), Some(theirs)),
        "# Skill\n\nstep one, carefully\nstep two\nstep three\nstep four\n"
    );
    assert_eq!(
        conflict(
            "persona/ACTIVE",
            Some("ada\n"),
            Some("bob\n"),
            Some("eve\n")
        ),
        "both sides changed line 1"
    );
    assert_eq!(
        conflict("skills/pdf/SKILL.md", Some(base), None, Some(ours)),
        super::DELETED_CHANGED
    );
    assert!(matches!(
        merge_file(
            "skills/pdf/logo.bin",
            Some(b"\xff\x00"),
            Some(b"\xff\x01"),
            Some(b"\xff\x02")
        ),
        Merged::Conflict(_)
    ));
}

#[test]
fn trivial_cases_take_the_changed_side() {
    assert_eq!(
        merge_file("a.txt", Some(b"x"), Some(b"x"), Some(b"y")),
        Merged::Clean(vec![("a.txt".into(), Some(b"y".to_vec()))])
    );
    assert_eq!(
        merge_file("a.txt", Some(b"x"), None, Some(b"x")),
        Merged::Clean(vec![("a.txt".into(), None)])
    );
}

#[test]
fn profile_with_crlf_line_ends_keeps_them() {
    let base = "# Profile\r\n\r\n## Preferences\r\n- Tabs.\r\n\r\n## Facts\r\n- Has a cat.\r\n";
    let ours = base.replace("- Tabs.\r\n", "- Tabs.\r\n- Vim.\r\n");
    let theirs = base.replace("- Has a cat.\r\n", "- Has a cat.\r\n- Has a dog.\r\n");
    assert_eq!(
        one(PROFILE, Some(base), Some(&ours), Some(&theirs)),
        "# Profile\r\n\r\n## Preferences\r\n- Tabs.\r\n- Vim.\r\n\r\n## Facts\r\n- Has a cat.\r\n- Has a dog.\r\n"
    );
}

#[test]
fn documents_that_do_not_parse_merge_as_text() {
    // A plan broken by a hand edit on one side: the line rule.
    let base = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}\n";
    let ours = "{\n  \"a\": 10,\n  \"b\": 2,\n  \"c\": 3\n}\n";
    let theirs = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,,\n}\n";
    assert_eq!(
        one("plans/p.json", Some(base), Some(ours), Some(theirs)),
        "{\n  \"a\": 10,\n  \"b\": 2,\n  \"c\": 3,,\n}\n"
    );
    assert_eq!(
        conflict("plans/p.json", Some("[1]"), Some("[2]"), Some("[3]")),
        r#"both set "[0]""#
    );
    assert_eq!(
        conflict("x.json", Some("1"), Some("2"), Some("3")),
        "both sides changed the document"
    );
    // A note without front matter is all body.
    let note = "line one\nline two\nline three\n";
    assert_eq!(
        one(
            "memory/knowledge/x.md",
            Some(note),
            Some("line ONE\nline two\nline three\n"),
            Some("line one\nline two\nline THREE\n")
        ),
        "line ONE\nline two\nline THREE\n"
    );
}

#[test]
fn note_lists_in_block_form_merge_as_sets() {
    let note = |claims: &str| format!("---\ntitle: DB\nrev: 1\nclaims:\n{claims}---\n\nBody.\n");
    let base = note("  - db.primary: pg\n");
    let ours = note("  - db.primary: pg\n  - db.pool: 10\n");
    let theirs = note("  - db.replica: pg2\n");
    assert_eq!(
        one(
            "memory/knowledge/db.md",
            Some(&base),
            Some(&ours),
            Some(&theirs)
        ),
        note("  - db.pool: 10\n  - db.replica: pg2\n")
    );
}
