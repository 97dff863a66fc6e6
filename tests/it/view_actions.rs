//! `agentbox view`'s write actions, through the real server: Apply and
//! Reject of evolve proposals (the diff shown is what Apply writes; a stale
//! page gets 409 and writes nothing), the reminders' Done / Dismiss /
//! Snooze, the Origin guard on every form, and the Plans page (progress,
//! persona, foresight timeline) with hostile text kept inert.

use crate::common;

use common::http::Request;
use common::view::View;
use common::{Sandbox, ok_data};
use serde_json::Value;

/// The docs' failing test run (evolve.md), recorded twice: a recurring
/// failure, so a knowledge proposal.
const FAIL: &str = r#"[{"role": "user", "content": "Run the tests."},
 {"role": "assistant", "content": "Running them.", "toolCalls": [{"id": "c1", "name": "cargo_test", "arguments": {"cmd": "cargo test"}}]},
 {"role": "tool", "content": "error: linker `cc` not found", "toolCallId": "c1"},
 {"role": "assistant", "content": "Installing build-essential first.", "toolCalls": [{"id": "c2", "name": "apt_install", "arguments": {"pkg": "build-essential"}}]},
 {"role": "tool", "content": "ok", "toolCallId": "c2"},
 {"role": "assistant", "content": "Retrying.", "toolCalls": [{"id": "c3", "name": "cargo_test", "arguments": {"cmd": "cargo test"}}]},
 {"role": "tool", "content": "test result: ok", "toolCallId": "c3"}]"#;

/// A home where `evolve run` proposed a preference (from a correction) and
/// a knowledge note (from a failure seen twice): `(preference, note)`.
fn seeded() -> (Sandbox, String, String) {
    let sb = Sandbox::new();
    std::fs::write(sb.path().join("fail.json"), FAIL).unwrap();
    ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        "web",
        "--content",
        "No, use pnpm instead of npm.",
        "--flush",
    ]));
    for session in ["ci", "nightly"] {
        ok_data(&mut sb.agentbox(&[
            "track",
            "record",
            "--session",
            session,
            "--messages",
            "fail.json",
            "--flush",
        ]));
    }
    let run = ok_data(&mut sb.agentbox(&["evolve", "run"]));
    let id_of = |kind: &str| {
        run["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} proposal: {run}"))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (preference, note) = (id_of("preference"), id_of("knowledge"));
    (sb, preference, note)
}

fn profile(sb: &Sandbox) -> Option<String> {
    std::fs::read_to_string(sb.home().join("memory/personal/PROFILE.md")).ok()
}

fn status_of(sb: &Sandbox, id: &str) -> String {
    let shown = ok_data(&mut sb.agentbox(&["evolve", "show", id]));
    shown["proposal"]["status"].as_str().unwrap().to_string()
}

/// What the CLI's preview of `id` says (`evolve apply ID --dry-run`).
fn dry_run(sb: &Sandbox, id: &str) -> Value {
    ok_data(&mut sb.agentbox(&["evolve", "apply", id, "--dry-run"]))
}

/// HTML text back to the text: tags dropped, entities decoded.
fn unhtml(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The inside of every `<tag class="class">…</tag>` of a page.
fn inner<'a>(page: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find(open) {
        let from = &rest[at + open.len()..];
        let end = from.find(close).expect("closed");
        found.push(&from[..end]);
        rest = &from[end..];
    }
    found
}

/// The value of the hidden field `name` of the first form that has one.
fn field(page: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = page
        .find(&marker)
        .unwrap_or_else(|| panic!("no field {name}: {page}"));
    let rest = &page[at + marker.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[test]
fn the_learning_pages_show_proposals_evidence_and_the_diff_apply_writes() {
    let (sb, preference, note) = seeded();
    let view = View::start(&sb, &[]);
    let list = view.page("/learning");
    assert!(list.contains("data-page=\"learning\""), "{list}");
    for id in [&preference, &note] {
        assert!(
            list.contains(&format!("<article class=\"proposal\" data-id=\"{id}\">")),
            "{list}"
        );
    }
    assert!(list.contains("2 pending"), "{list}");
    // the run: what it mined, from its run.json
    assert!(list.contains("<li class=\"run\" data-id=\""), "{list}");
    assert!(list.contains("3 episodes in 1 batch(es)"), "{list}");
    assert!(list.contains("model deterministic"), "{list}");
    let pending = view.page("/learning?status=rejected");
    assert!(!pending.contains("<article"), "{pending}");

    let page = view.page(&format!("/learning/proposal?id={note}"));
    // evidence: each turn linked to its episode
    let turn = "/memory/episode?id=ep-20260115T093000Z-k3f9q2-2%233";
    assert!(page.contains(&format!("href=\"{turn}\"")), "{page}");
    let episode = view.page(turn);
    // the link opens that episode with the evidence turn marked
    assert!(
        episode.contains("<li class=\"turn tool focus\" id=\"turn-3\">"),
        "{episode}"
    );
    assert!(page.contains("ep-20260115T093000Z-k3f9q2-3#3"), "{page}");
    // the diff is exactly the CLI's preview
    let cli = dry_run(&sb, &note);
    let diffs = inner(&page, "<pre class=\"diff\">", "</pre>");
    assert_eq!(diffs.len(), 1, "{page}");
    assert_eq!(
        unhtml(diffs[0]),
        cli["proposals"][0]["writes"][0]["diff"].as_str().unwrap()
    );
    assert_eq!(field(&page, "plan"), cli["plan"].as_str().unwrap());
    assert!(
        page.contains("<form method=\"post\" action=\"/learning/apply\" class=\"inline\">"),
        "{page}"
    );
    assert!(page.contains(">Apply</button>"), "{page}");
    assert!(page.contains(">Reject</button>"), "{page}");

    // an unknown proposal is a plain 404
    let missing = view.get("/learning/proposal?id=p-ffffffffffff");
    assert_eq!(missing.status, 404, "{}", missing.text());
    assert!(missing.text().contains("role=\"alert\""));
}

#[test]
fn apply_writes_what_the_page_showed_and_a_stale_page_gets_409() {
    let (sb, preference, note) = seeded();
    let view = View::start(&sb, &[]);
    let page = view.page(&format!("/learning/proposal?id={preference}"));
    let plan = field(&page, "plan");
    let shown = unhtml(inner(&page, "<pre class=\"diff\">", "</pre>")[0]);
    let cli = dry_run(&sb, &preference);
    let write = &cli["proposals"][0]["writes"][0];
    assert_eq!(shown, write["diff"].as_str().unwrap());
    assert_eq!(write["path"], "memory/personal/PROFILE.md");
    let before = profile(&sb);

    let response = view.post("/learning/apply", &[("id", &preference), ("plan", &plan)]);
    assert_eq!(response.status, 303, "{}", response.text());
    let location = response.header("Location").unwrap().to_string();
    assert_eq!(
        location,
        format!("/learning/proposal?id={preference}&done=applied")
    );
    // PROFILE.md holds exactly what the preview said, as the CLI would write it
    assert_ne!(profile(&sb), before);
    assert_eq!(profile(&sb).as_deref(), write["after"].as_str());
    assert!(
        profile(&sb)
            .unwrap()
            .contains("- Use pnpm instead of npm\n")
    );
    assert_eq!(status_of(&sb, &preference), "applied");
    let after = view.page(&location);
    assert!(
        after.contains(&format!(
            "<p class=\"flash\" role=\"status\">Applied {preference}.</p>"
        )),
        "{after}"
    );
    // applied: no more Apply button
    assert!(!after.contains("/learning/apply"), "{after}");

    // the same page posted again: already applied, 409, nothing written
    let written = profile(&sb);
    let again = view.post("/learning/apply", &[("id", &preference), ("plan", &plan)]);
    assert_eq!(again.status, 409, "{}", again.text());
    let text = again.text();
    assert!(
        text.contains("<section class=\"error\" role=\"alert\">"),
        "{text}"
    );
    assert!(
        text.contains(&format!("proposal {preference} is already applied")),
        "{text}"
    );
    assert_eq!(profile(&sb), written);

    // a page whose plan went stale (the note's file appeared since): 409
    let page = view.page(&format!("/learning/proposal?id={note}"));
    let plan = field(&page, "plan");
    ok_data(&mut sb.agentbox(&["knowledge", "profile", "add", "Prefers short answers"]));
    let note_page_still_good = view.post("/learning/apply", &[("id", &note), ("plan", &plan)]);
    // a profile change does not touch a note's plan: it applies
    assert_eq!(note_page_still_good.status, 303);
    assert_eq!(status_of(&sb, &note), "applied");
}

#[test]
fn a_plan_that_changed_since_the_page_was_shown_is_a_conflict() {
    let (sb, preference, _note) = seeded();
    ok_data(&mut sb.agentbox(&["knowledge", "profile", "add", "Prefers tea"]));
    let view = View::start(&sb, &[]);
    let page = view.page(&format!("/learning/proposal?id={preference}"));
    let plan = field(&page, "plan");
    // someone edits PROFILE.md after the page showed its diff
    ok_data(&mut sb.agentbox(&["knowledge", "profile", "add", "Prefers short answers"]));
    let before = profile(&sb);
    let response = view.post("/learning/apply", &[("id", &preference), ("plan", &plan)]);
    assert_eq!(response.status, 409, "{}", response.text());
    let text = response.text();
    assert!(text.contains("Conflict"), "{text}");
    assert!(text.contains("changed since it was previewed"), "{text}");
    assert_eq!(profile(&sb), before);
    assert_eq!(status_of(&sb, &preference), "pending");
    // without a plan the form is refused (400), never applied blind
    let blind = view.post("/learning/apply", &[("id", &preference)]);
    assert_eq!(blind.status, 400, "{}", blind.text());
    assert_eq!(status_of(&sb, &preference), "pending");
}

#[test]
fn reject_marks_the_proposal_and_a_second_reject_is_a_conflict() {
    let (sb, _preference, note) = seeded();
    let view = View::start(&sb, &[]);
    let response = view.post(
        "/learning/reject",
        &[("id", &note), ("reason", "one-off <b>workaround</b>")],
    );
    assert_eq!(response.status, 303, "{}", response.text());
    assert_eq!(
        response.header("Location").unwrap(),
        format!("/learning/proposal?id={note}&done=rejected")
    );
    let shown = ok_data(&mut sb.agentbox(&["evolve", "show", &note]));
    assert_eq!(shown["proposal"]["status"], "rejected");
    assert_eq!(shown["proposal"]["reason"], "one-off <b>workaround</b>");
    let page = view.page(&format!("/learning/proposal?id={note}&done=rejected"));
    assert!(
        page.contains("<p class=\"flash\" role=\"status\">Rejected"),
        "{page}"
    );
    assert!(
        page.contains("one-off &lt;b&gt;workaround&lt;/b&gt;"),
        "{page}"
    );
    assert!(
        !sb.home()
            .join("memory/knowledge")
            .read_dir()
            .unwrap()
            .any(|e| {
                e.unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with("failure-")
            })
    );
    let again = view.post("/learning/reject", &[("id", &note)]);
    assert_eq!(again.status, 409, "{}", again.text());
    assert!(
        again.text().contains("already rejected"),
        "{}",
        again.text()
    );
}

#[test]
fn a_form_without_our_origin_changes_nothing() {
    let (sb, preference, _note) = seeded();
    ok_data(&mut sb.agentbox(&["proactive", "add", "Call Ana", "--due", "tomorrow"]));
    let item = ok_data(&mut sb.agentbox(&["proactive", "list", "--all"]))["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let view = View::start(&sb, &[]);
    let plan = dry_run(&sb, &preference)["plan"]
        .as_str()
        .unwrap()
        .to_string();
    let before = profile(&sb);
    let form = |path: &str, body: String| {
        Request::new("POST", path)
            .header("Cookie", &view.cookie())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body.into_bytes())
    };
    let apply = format!("id={preference}&plan={plan}");
    let done = format!("id={item}");
    for (path, body) in [
        ("/learning/apply", &apply),
        ("/learning/reject", &apply),
        ("/plans/reminder/done", &done),
    ] {
        let bare = view.send(&form(path, body.clone()));
        assert_eq!(bare.status, 403, "no Origin, {path}: {}", bare.text());
        let foreign = view.send(&form(path, body.clone()).header("Origin", "http://evil.example"));
        assert_eq!(
            foreign.status,
            403,
            "foreign Origin, {path}: {}",
            foreign.text()
        );
        let other_port =
            view.send(&form(path, body.clone()).header("Origin", "http://127.0.0.1:1"));
        assert_eq!(other_port.status, 403, "{path}: {}", other_port.text());
    }
    assert_eq!(profile(&sb), before);
    assert_eq!(status_of(&sb, &preference), "pending");
    let items = ok_data(&mut sb.agentbox(&["proactive", "list", "--all"]));
    assert_eq!(items["items"][0]["status"], "open");
}

/// The state of item `id` as `proactive list --all --format json` says.
fn item(sb: &Sandbox, id: &str) -> Value {
    let data = ok_data(&mut sb.agentbox(&["proactive", "list", "--all", "--format", "json"]));
    data["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no item {id}: {data}"))
}

fn add_item(sb: &Sandbox, text: &str, due: &str) -> String {
    let data = ok_data(&mut sb.agentbox(&["proactive", "add", text, "--due", due]));
    data["item"]["id"].as_str().unwrap().to_string()
}

#[test]
fn reminders_are_done_dismissed_and_snoozed_from_the_page() {
    let sb = Sandbox::new();
    let call = add_item(&sb, "Call Ana", "tomorrow");
    let report = add_item(&sb, "Send the report", "friday");
    let renew = add_item(&sb, "Renew the certificate", "in 3 days");
    let view = View::start(&sb, &[]);
    let page = view.page("/plans");
    for id in [&call, &report, &renew] {
        assert!(
            page.contains(&format!("data-id=\"{id}\"")),
            "{id} listed: {page}"
        );
    }
    assert!(page.contains("<svg class=\"chart timeline\""), "{page}");
    assert_eq!(page.matches("<rect class=\"window\"").count(), 3, "{page}");
    assert!(page.contains(">Done</button>"), "{page}");
    assert!(page.contains(">Dismiss</button>"), "{page}");
    assert!(page.contains(">Snooze</button>"), "{page}");
    assert!(page.contains("<option value=\"tomorrow\">"), "{page}");

    let response = view.post("/plans/reminder/done", &[("id", &call)]);
    assert_eq!(response.status, 303, "{}", response.text());
    assert_eq!(
        response.header("Location").unwrap(),
        format!("/plans?done=done&id={call}")
    );
    assert_eq!(item(&sb, &call)["status"], "done");
    let after = view.page(&format!("/plans?done=done&id={call}"));
    assert!(
        after.contains(&format!(
            "<p class=\"flash\" role=\"status\">Marked {call} done.</p>"
        )),
        "{after}"
    );
    // the page before that click, clicked again: already done, 409
    let again = view.post("/plans/reminder/done", &[("id", &call)]);
    assert_eq!(again.status, 409, "{}", again.text());
    assert!(again.text().contains("is already done"), "{}", again.text());
    // snoozing a done item: the verb's own conflict
    let snooze_done = view.post(
        "/plans/reminder/snooze",
        &[("id", &call), ("until", "tomorrow")],
    );
    assert_eq!(snooze_done.status, 409, "{}", snooze_done.text());
    assert_eq!(item(&sb, &call)["status"], "done");

    let response = view.post("/plans/reminder/dismiss", &[("id", &report)]);
    assert_eq!(response.status, 303, "{}", response.text());
    assert_eq!(item(&sb, &report)["status"], "dismissed");

    for (until, snoozed_until) in [
        ("in 1 hour", "2026-01-15T10:30:00Z"),
        ("next week", "2026-01-25T23:59:59Z"),
    ] {
        let response = view.post(
            "/plans/reminder/snooze",
            &[("id", &renew), ("until", until)],
        );
        assert_eq!(response.status, 303, "{until}: {}", response.text());
        assert_eq!(
            response.header("Location").unwrap(),
            format!("/plans?done=snoozed&id={renew}")
        );
        let now = item(&sb, &renew);
        assert_eq!(now["status"], "snoozed", "{now}");
        assert_eq!(now["snoozed_until"], snoozed_until, "{now}");
    }
    // a value the verb cannot read is its error, plainly (400)
    let bad = view.post(
        "/plans/reminder/snooze",
        &[("id", &renew), ("until", "--help")],
    );
    assert_eq!(bad.status, 400, "{}", bad.text());
    // an unknown item is 404
    let unknown = view.post("/plans/reminder/done", &[("id", "f-000000000000")]);
    assert_eq!(unknown.status, 404, "{}", unknown.text());
}

#[test]
fn the_plans_page_shows_progress_the_persona_and_keeps_hostile_text_inert() {
    let sb = Sandbox::new();
    // plans and reminders refuse control characters; a persona's text keeps them
    let hostile = "<script>alert(1)</script> \u{202E}evil javascript:alert(2)";
    ok_data(&mut sb.agentbox(&[
        "plan",
        "create",
        "Ship <b>v1</b>",
        "--id",
        "ship-v1",
        "--step",
        "build",
        "--step",
        hostile,
        "--step",
        "release",
    ]));
    ok_data(&mut sb.agentbox(&["plan", "step", "ship-v1", "1", "--status", "done"]));
    ok_data(&mut sb.agentbox(&[
        "plan",
        "step",
        "ship-v1",
        "2",
        "--status",
        "in_progress",
        "--note",
        hostile,
    ]));
    std::fs::write(sb.path().join("soul.md"), "Be kind.\n").unwrap();
    ok_data(&mut sb.agentbox(&[
        "persona",
        "create",
        "ada",
        "--trait",
        "tone=warm",
        "--text",
        "soul.md",
    ]));
    // a hand edit (the file is the truth) brings in markup and a bidi
    // override, which the screen would have refused (every verb refuses a
    // terminal escape in these texts)
    let file = sb.home().join("persona/ada.md");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(&format!("{hostile}\n"));
    std::fs::write(&file, text).unwrap();
    let reminder = add_item(&sb, &format!("Check {hostile}"), "tomorrow");
    let view = View::start(&sb, &[]);

    let page = view.page("/plans");
    assert!(page.contains("data-page=\"plans\""), "{page}");
    assert!(page.contains("<progress value=\"1\" max=\"3\""), "{page}");
    assert!(page.contains("href=\"/plans/plan?id=ship-v1\""), "{page}");
    assert!(page.contains("Ship &lt;b&gt;v1&lt;/b&gt;"), "{page}");
    let persona = inner(&page, "<section id=\"persona\"", "</section>");
    assert_eq!(persona.len(), 1, "{page}");
    let rendered = ok_data(&mut sb.agentbox(&["persona", "render"]));
    assert!(persona[0].contains("## Persona: ada"), "{}", persona[0]);
    assert!(persona[0].contains("- Tone: warm"), "{}", persona[0]);
    assert!(
        rendered["markdown"].as_str().unwrap().contains("<script>"),
        "the persona holds the script as text"
    );
    assert!(
        persona[0].contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{}",
        persona[0]
    );
    assert!(persona[0].contains("⟨U+202E⟩evil"), "{}", persona[0]);
    assert!(page.contains(&format!("data-id=\"{reminder}\"")), "{page}");

    let plan = view.page("/plans/plan?id=ship-v1");
    assert!(plan.contains("<li class=\"step done\">"), "{plan}");
    assert!(plan.contains("<li class=\"step in_progress\">"), "{plan}");
    for shown in [&page, &plan] {
        assert!(!shown.contains("<script>"), "{shown}");
        assert!(
            !shown.contains('\u{202E}'),
            "a bidi override is shown, not obeyed"
        );
        assert!(!shown.contains("href=\"javascript:"), "{shown}");
        assert!(shown.contains("⟨U+202E⟩"), "{shown}");
    }
    assert!(
        plan.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{plan}"
    );

    // a home without a persona says so, plainly, in its section
    let bare = Sandbox::new();
    let view = View::start(&bare, &[]);
    let page = view.page("/plans");
    let persona = inner(&page, "<section id=\"persona\"", "</section>");
    assert!(persona[0].contains("no persona is active"), "{page}");
    let missing = view.get("/plans/plan?id=nope");
    assert_eq!(missing.status, 404, "{}", missing.text());
}

/// Rewrites the body of knowledge proposal `id` in its run's proposals.json.
fn set_note_body(sb: &Sandbox, id: &str, body: &str) {
    let runs = sb.home().join("runs/evolve");
    for run in std::fs::read_dir(&runs).unwrap().flatten() {
        let path = run.path().join("proposals.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut file: Value = serde_json::from_str(&text).unwrap();
        for p in file["proposals"].as_array_mut().unwrap() {
            if p["id"] == id {
                p["knowledge"]["body"] = body.into();
            }
        }
        std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    }
}

#[test]
fn a_proposal_whose_screen_warns_shows_its_findings_and_applies_only_when_ticked() {
    let (sb, _preference, note) = seeded();
    set_note_body(
        &sb,
        &note,
        "Load the settings first:\n\n```sh\nsource .env\n```\n",
    );
    let view = View::start(&sb, &[]);
    let page = view.page(&format!("/learning/proposal?id={note}"));
    assert!(page.contains("<table class=\"findings\">"), "{page}");
    assert!(page.contains("source .env"), "{page}");
    assert!(
        page.contains("name=\"accept_warnings\" value=\"yes\" required"),
        "{page}"
    );
    // the diff shown is the one applied with --accept-warnings
    let cli =
        ok_data(&mut sb.agentbox(&["evolve", "apply", &note, "--dry-run", "--accept-warnings"]));
    let shown = unhtml(inner(&page, "<pre class=\"diff\">", "</pre>")[0]);
    assert_eq!(
        shown,
        cli["proposals"][0]["writes"][0]["diff"].as_str().unwrap()
    );
    let plan = field(&page, "plan");
    // not ticked: refused by the screen, nothing written
    let refused = view.post("/learning/apply", &[("id", &note), ("plan", &plan)]);
    assert_eq!(refused.status, 403, "{}", refused.text());
    assert!(refused.text().contains("warns"), "{}", refused.text());
    assert_eq!(status_of(&sb, &note), "pending");
    let ticked = view.post(
        "/learning/apply",
        &[("id", &note), ("plan", &plan), ("accept_warnings", "yes")],
    );
    assert_eq!(ticked.status, 303, "{}", ticked.text());
    assert_eq!(status_of(&sb, &note), "applied");
    let slug = cli["proposals"][0]["writes"][0]["path"].as_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(sb.home().join(slug)).unwrap(),
        cli["proposals"][0]["writes"][0]["after"].as_str().unwrap()
    );
}

#[test]
fn the_proposal_list_is_paginated() {
    let (sb, preference, _note) = seeded();
    // 30 more proposals in the run: copies of the preference, each its own id
    let runs = sb.home().join("runs/evolve");
    for run in std::fs::read_dir(&runs).unwrap().flatten() {
        let path = run.path().join("proposals.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut file: Value = serde_json::from_str(&text).unwrap();
        let list = file["proposals"].as_array_mut().unwrap();
        let model = list
            .iter()
            .find(|p| p["id"] == preference.as_str())
            .unwrap()
            .clone();
        for n in 0..30 {
            let mut copy = model.clone();
            copy["id"] = format!("p-{n:012x}").into();
            copy["preference"]["fact"] = format!("Fact number {n}").into();
            list.push(copy);
        }
        std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    }
    let view = View::start(&sb, &[]);
    let first = view.page("/learning");
    assert_eq!(first.matches("<article class=\"proposal\"").count(), 25);
    assert!(first.contains("<nav class=\"pager\""), "{first}");
    assert!(
        first.contains("href=\"/learning?page=2\" rel=\"next\""),
        "{first}"
    );
    assert!(!first.contains("rel=\"prev\""), "{first}");
    let second = view.page("/learning?page=2");
    assert_eq!(second.matches("<article class=\"proposal\"").count(), 7);
    assert!(
        second.contains("href=\"/learning?page=1\" rel=\"prev\""),
        "{second}"
    );
    assert!(!second.contains("rel=\"next\""), "{second}");
    let pending = view.page("/learning?status=pending&page=2");
    assert!(
        pending.contains("href=\"/learning?status=pending&amp;page=1\" rel=\"prev\""),
        "{pending}"
    );
}

#[test]
fn the_reminders_are_paginated() {
    let sb = Sandbox::new();
    let lines: Vec<String> = (0..30)
        .map(|n| {
            serde_json::json!({
                "id": format!("f-{n:012x}"), "text": format!("Item {n}"),
                "valid_from": "2026-01-15T00:00:00Z", "valid_until": "2026-02-15T00:00:00Z",
                "due": format!("2026-01-{:02}T12:00:00Z", 16 + n / 2),
                "source": "cli", "created": "2026-01-15T00:00:00Z",
                "updated": "2026-01-15T00:00:00Z", "status": if n == 29 { "done" } else { "open" },
            })
            .to_string()
        })
        .collect();
    std::fs::write(
        sb.home().join("memory/foresight.jsonl"),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let view = View::start(&sb, &[]);
    let first = view.page("/plans");
    assert_eq!(
        first.matches("<li class=\"reminder valid\"").count(),
        25,
        "{first}"
    );
    assert!(
        first.contains("href=\"/plans?page=2\" rel=\"next\""),
        "{first}"
    );
    assert!(first.contains("data-id=\"f-000000000000\""), "{first}");
    assert!(!first.contains("Done, dismissed"), "{first}");
    let second = view.page("/plans?page=2");
    assert_eq!(
        second.matches("<li class=\"reminder valid\"").count(),
        4,
        "{second}"
    );
    assert!(
        second.contains("href=\"/plans?page=1\" rel=\"prev\""),
        "{second}"
    );
    assert!(!second.contains("rel=\"next\""), "{second}");
    // the last page ends with the closed ones
    assert!(second.contains("Done, dismissed and expired"), "{second}");
    assert!(
        second.contains("<li class=\"reminder done\" data-id=\"f-00000000001d\">"),
        "{second}"
    );
}
