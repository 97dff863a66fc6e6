//! `proactive extract`: commitments and deadlines found in turns, scored on a
//! labelled set, and the run over a real home (turns recorded by the binary):
//! marks, `--since`, `--session`, dedupe, the state file, the model fallback.

use crate::common;

use agentbox::clock::Clock;
use agentbox::clock::Time;
use agentbox::error::ErrorType;
use agentbox::home::Home;
use agentbox::tools::proactive::extract::{ExtractOptions, Report, extract_in, find_in};
use agentbox::tools::proactive::when::Zone;
use agentbox::tools::proactive::{Item, ItemStatus, items};
use common::Sandbox;
use serde_json::Value;

fn t(s: &str) -> Time {
    Time::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn utc() -> Zone {
    Zone::named("UTC").expect("UTC")
}

/// Due times compare to the minute (a day's end is 23:59:59, so the minute
/// tells days apart as well as clock times); `null` matches `null`.
fn minute(due: Option<&str>) -> Option<String> {
    due.map(|d| t(d).format("%Y-%m-%dT%H:%M").to_string())
}

#[test]
fn labelled_set_precision_and_recall() {
    let text = std::fs::read_to_string("tests/fixtures/foresight/labelled.jsonl").expect("fixture");
    let (mut found_total, mut expected_total, mut correct) = (0usize, 0usize, 0usize);
    let (mut turns, mut positives, mut negatives) = (0, 0, 0);
    let mut misses = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let row: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let zone = row["tz"]
            .as_str()
            .map_or_else(utc, |z| Zone::named(z).expect("zone"));
        let role = row["role"].as_str().expect("role");
        let found = find_in(
            row["text"].as_str().expect("text"),
            role,
            t(row["ts"].as_str().expect("ts")),
            &zone,
        );
        let mut expected: Vec<Option<String>> = row["expect"]
            .as_array()
            .expect("expect")
            .iter()
            .map(|e| minute(e["due"].as_str()))
            .collect();
        turns += 1;
        if expected.is_empty() {
            negatives += 1;
        } else {
            positives += 1;
        }
        expected_total += expected.len();
        found_total += found.len();
        for f in &found {
            let due = f.due.map(|d| d.format("%Y-%m-%dT%H:%M").to_string());
            match expected.iter().position(|e| *e == due) {
                Some(i) => {
                    expected.remove(i);
                    correct += 1;
                }
                None => misses.push(format!("line {}: wrong {:?} due {due:?}", n + 1, f.text)),
            }
        }
        for e in expected {
            misses.push(format!(
                "line {}: missed due {e:?} in {}",
                n + 1,
                row["text"]
            ));
        }
    }
    let precision = correct as f64 / found_total.max(1) as f64;
    let recall = correct as f64 / expected_total.max(1) as f64;
    println!(
        "foresight labelled set: {turns} turns ({positives} with commitments, {negatives} hard negatives), \
         {expected_total} expected, {found_total} found, {correct} correct: \
         precision {:.1} %, recall {:.1} %",
        precision * 100.0,
        recall * 100.0
    );
    for m in &misses {
        println!("  {m}");
    }
    assert!(turns >= 40, "the labelled set needs at least 40 turns");
    assert!(
        precision >= 0.90,
        "precision {precision:.3} < 0.90: {misses:#?}"
    );
    assert!(recall >= 0.80, "recall {recall:.3} < 0.80: {misses:#?}");
}

#[test]
fn found_items_carry_text_and_windows() {
    let ts = t("2026-01-15T09:30:00Z");
    let f = find_in(
        "Ok!  I'll send the report by Friday.  Thanks",
        "user",
        ts,
        &utc(),
    );
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].text, "I'll send the report by Friday.");
    assert_eq!(f[0].due, Some(t("2026-01-16T23:59:59Z")));
    assert_eq!(f[0].valid_from, ts);
    assert_eq!(f[0].valid_until, t("2026-01-17T23:59:59Z"));
    // A reminder shows from the start of its day, not from the turn.
    let r = find_in("Remind me next week to renew the cert.", "user", ts, &utc());
    assert_eq!(r[0].valid_from, t("2026-01-19T00:00:00Z"));
    assert_eq!(r[0].due, Some(t("2026-01-25T23:59:59Z")));
    // A reminder without a date is kept for a week.
    let n = find_in("Remind me to water the plants.", "user", ts, &utc());
    assert_eq!(n[0].due, None);
    assert_eq!(n[0].valid_until, t("2026-01-22T09:30:00Z"));
}

#[test]
fn dates_resolve_against_the_turn_not_the_clock() {
    // The same words, written a week apart, name different Fridays.
    let a = find_in(
        "I'll send it by Friday.",
        "user",
        t("2026-01-05T12:00:00Z"),
        &utc(),
    );
    let b = find_in(
        "I'll send it by Friday.",
        "user",
        t("2026-01-12T12:00:00Z"),
        &utc(),
    );
    assert_eq!(a[0].due, Some(t("2026-01-09T23:59:59Z")));
    assert_eq!(b[0].due, Some(t("2026-01-16T23:59:59Z")));
}

// ---- the run over a home ----

fn record(sb: &Sandbox, session: &str, role: &str, ts: &str, content: &str) {
    sb.agentbox(&[
        "track",
        "record",
        "--session",
        session,
        "--role",
        role,
        "--content",
        content,
    ])
    .env("AGENTBOX_NOW", ts)
    .assert()
    .success();
}

fn flush(sb: &Sandbox, session: &str) {
    sb.agentbox(&["track", "flush", "--session", session])
        .assert()
        .success();
}

fn run(sb: &Sandbox, opts: &ExtractOptions) -> Report {
    let home = Home::open(sb.home()).expect("home");
    extract_in(
        &home,
        &Clock::fixed(t("2026-01-15T12:00:00Z")),
        opts,
        &utc(),
    )
    .expect("extract")
}

fn all_items(sb: &Sandbox) -> Vec<Item> {
    items::current(&Home::open(sb.home()).expect("home")).expect("items")
}

/// Two sessions: `s1` closed (a promise, a tool turn, small talk), `s2` open
/// (a reminder from the user, a promise from the assistant).
fn seeded() -> Sandbox {
    let sb = Sandbox::new();
    record(
        &sb,
        "s1",
        "user",
        "2026-01-12T10:00:00Z",
        "I'll send the report by Friday.",
    );
    record(
        &sb,
        "s1",
        "tool",
        "2026-01-12T10:00:01Z",
        "I'll run tomorrow: 3 files changed",
    );
    record(
        &sb,
        "s1",
        "assistant",
        "2026-01-12T10:00:02Z",
        "Sounds good, thanks!",
    );
    flush(&sb, "s1");
    record(
        &sb,
        "s2",
        "user",
        "2026-01-14T08:00:00Z",
        "Remind me next week to renew the cert.",
    );
    record(
        &sb,
        "s2",
        "assistant",
        "2026-01-14T08:00:05Z",
        "Noted. I will check the expiry date tomorrow.",
    );
    sb
}

#[test]
fn extract_mines_closed_and_open_episodes_once() {
    let sb = seeded();
    let first = run(&sb, &ExtractOptions::default());
    assert_eq!(first.method, "deterministic");
    assert_eq!(
        (first.episodes, first.turns),
        (2, 4),
        "tool turns are not mined"
    );
    let mut dues: Vec<_> = first
        .items
        .iter()
        .map(|i| (i.due.clone(), i.text.clone()))
        .collect();
    dues.sort();
    let expected = [
        (
            "2026-01-15T23:59:59Z",
            "I will check the expiry date tomorrow.",
        ),
        // Friday after Monday 2026-01-12, not after the clock's Thursday.
        ("2026-01-16T23:59:59Z", "I'll send the report by Friday."),
        (
            "2026-01-25T23:59:59Z",
            "Remind me next week to renew the cert.",
        ),
    ]
    .map(|(d, t)| (Some(d.to_string()), t.to_string()));
    assert_eq!(dues, expected.to_vec());
    for item in &first.items {
        assert!(item.source.starts_with("extract:"), "{}", item.source);
        assert_eq!(item.status, ItemStatus::Open);
        assert_eq!(item.created, "2026-01-15T12:00:00Z");
    }
    assert_eq!(all_items(&sb).len(), 3, "appended to foresight.jsonl");
    let state =
        std::fs::read_to_string(sb.home().join("runs/proactive/extract.json")).expect("state");
    assert!(state.contains("agentbox.proactive.extract/v1"), "{state}");

    // Nothing new: nothing scanned, nothing added.
    let again = run(&sb, &ExtractOptions::default());
    assert_eq!(
        (again.turns, again.items.len(), again.skipped_duplicates),
        (0, 0, 0)
    );

    // A new turn in the open episode: only it is mined.
    record(
        &sb,
        "s2",
        "user",
        "2026-01-15T11:00:00Z",
        "Let's revisit this in 2 weeks.",
    );
    let more = run(&sb, &ExtractOptions::default());
    assert_eq!(more.turns, 1);
    assert_eq!(more.items.len(), 1);
    assert_eq!(more.items[0].due.as_deref(), Some("2026-01-29T11:00:00Z"));

    // Closing the episode does not mine it again.
    flush(&sb, "s2");
    let closed = run(&sb, &ExtractOptions::default());
    assert_eq!((closed.turns, closed.items.len()), (0, 0));
    assert_eq!(all_items(&sb).len(), 4);
}

#[test]
fn since_rescans_and_never_duplicates() {
    let sb = seeded();
    let first = run(&sb, &ExtractOptions::default());
    assert_eq!(first.items.len(), 3);
    let since = run(
        &sb,
        &ExtractOptions {
            since: Some("2026-01-01".into()),
            ..Default::default()
        },
    );
    assert_eq!(since.turns, 4);
    assert_eq!((since.items.len(), since.skipped_duplicates), (0, 3));
    // A window that starts after s1's turns leaves them out.
    let late = run(
        &sb,
        &ExtractOptions {
            since: Some("2026-01-13".into()),
            ..Default::default()
        },
    );
    assert_eq!(late.turns, 2);
    assert_eq!(all_items(&sb).len(), 3);
}

#[test]
fn same_text_and_due_is_a_duplicate_whatever_its_source() {
    let sb = seeded();
    let home = Home::open(sb.home()).expect("home");
    let by_hand = Item {
        id: "fx_byhand".into(),
        text: "i'll send the REPORT by friday".into(),
        valid_from: "2026-01-12T10:00:00Z".into(),
        valid_until: "2026-01-17T23:59:59Z".into(),
        due: Some("2026-01-16T23:59:59Z".into()),
        source: "cli".into(),
        created: "2026-01-12T10:00:00Z".into(),
        updated: "2026-01-12T10:00:00Z".into(),
        status: ItemStatus::Open,
        snoozed_until: None,
        tags: vec![],
    };
    items::append(&home, &[by_hand]).expect("append");
    let report = run(&sb, &ExtractOptions::default());
    assert_eq!((report.items.len(), report.skipped_duplicates), (2, 1));
    assert!(report.items.iter().all(|i| !i.text.contains("report")));
}

#[test]
fn session_filter() {
    let sb = seeded();
    let only = run(
        &sb,
        &ExtractOptions {
            sessions: vec!["s1".into()],
            ..Default::default()
        },
    );
    assert_eq!((only.episodes, only.turns, only.items.len()), (1, 2, 1));
    // s2 was not marked: a later run over everything still finds its two.
    let rest = run(&sb, &ExtractOptions::default());
    assert_eq!(rest.items.len(), 2);
    // A session key that cannot be a folder is refused.
    let home = Home::open(sb.home()).expect("home");
    let opts = ExtractOptions {
        sessions: vec!["../etc".into()],
        ..Default::default()
    };
    let err = extract_in(
        &home,
        &Clock::fixed(t("2026-01-15T12:00:00Z")),
        &opts,
        &utc(),
    )
    .expect_err("bad key");
    assert_eq!(err.kind, ErrorType::InvalidArgs);
}

#[test]
fn bad_since_is_invalid_args_naming_the_flag() {
    let sb = seeded();
    let home = Home::open(sb.home()).expect("home");
    let opts = ExtractOptions {
        since: Some("the other day".into()),
        ..Default::default()
    };
    let err = extract_in(
        &home,
        &Clock::fixed(t("2026-01-15T12:00:00Z")),
        &opts,
        &utc(),
    )
    .expect_err("bad since");
    assert_eq!(err.kind, ErrorType::InvalidArgs);
    assert_eq!(err.detail["flag"], "--since");
    assert!(err.hint.contains("last"), "{}", err.hint);
}

#[test]
fn a_damaged_state_file_costs_a_rescan_not_duplicates() {
    let sb = seeded();
    assert_eq!(run(&sb, &ExtractOptions::default()).items.len(), 3);
    std::fs::write(sb.home().join("runs/proactive/extract.json"), "{torn").expect("write");
    let report = run(&sb, &ExtractOptions::default());
    assert_eq!(
        (report.turns, report.items.len(), report.skipped_duplicates),
        (4, 0, 3)
    );
    assert!(
        report.warnings.iter().any(|w| w.contains("extract.json")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn a_failing_model_route_falls_back_with_a_warning() {
    let sb = seeded();
    let config_path = sb.home().join("config.json");
    let mut config: Value = std::fs::read_to_string(&config_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| serde_json::json!({}));
    config["model"] = serde_json::json!({
        "command": sb.path().join("no-such-runtime").display().to_string(),
        "args": [],
        "provider": "test",
        "model": "test",
        "timeout_seconds": 5
    });
    std::fs::write(&config_path, config.to_string()).expect("config");
    let report = run(&sb, &ExtractOptions::default());
    assert_eq!(report.method, "deterministic");
    assert_eq!(report.items.len(), 3);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("extracted deterministically")),
        "{:?}",
        report.warnings
    );
}

/// Routes the home's model to the fake runtime (tests/fixtures/fake_oda.py),
/// whose final answer is `answer`.
fn route_to_fake(sb: &Sandbox, answer: &str) {
    let config_path = sb.home().join("config.json");
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).expect("config"))
            .expect("json");
    let fake = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_oda.py");
    config["model"] = serde_json::json!({
        "command": "python3",
        "args": [fake.display().to_string(), "ok"],
        "env": {"FAKE_ODA_ANSWER": answer},
        "provider": "anthropic",
        "model": "claude-sonnet",
        "timeout_seconds": 20
    });
    std::fs::write(&config_path, config.to_string()).expect("config");
}

/// The id of the first turn of `session` whose content starts with `prefix`.
fn turn_id(sb: &Sandbox, session: &str, prefix: &str) -> String {
    let dir = sb.home().join("memory/episodes").join(session);
    for entry in std::fs::read_dir(&dir).expect("session dir") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("episode");
        for line in text.lines() {
            let turn: Value = serde_json::from_str(line).expect("turn");
            if turn["content"]
                .as_str()
                .is_some_and(|c| c.starts_with(prefix))
            {
                return turn["id"].as_str().expect("id").to_string();
            }
        }
    }
    panic!("no turn starting with {prefix:?} in {session}");
}

#[test]
fn a_model_route_extracts_through_the_model() {
    let sb = seeded();
    let report_turn = turn_id(&sb, "s1", "I'll send the report");
    let answer = serde_json::json!({"items": [
        // A WHEN phrase is read against the turn's own time (Monday 2026-01-12).
        {"turn_id": report_turn, "text": "Send the report", "due": "friday"},
        {"turn_id": report_turn, "text": "Book the review", "due": "2026-02-01T10:00:00Z"},
        {"turn_id": report_turn, "text": "Tidy the wiki", "due": null},
    ]})
    .to_string();
    route_to_fake(&sb, &format!("Here you go:\n```json\n{answer}\n```"));
    let report = run(&sb, &ExtractOptions::default());
    assert_eq!(report.method, "model", "{:?}", report.warnings);
    let got: Vec<(String, Option<String>)> = report
        .items
        .iter()
        .map(|i| (i.text.clone(), i.due.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "Send the report".to_string(),
                Some("2026-01-16T23:59:59Z".to_string())
            ),
            (
                "Book the review".to_string(),
                Some("2026-02-01T10:00:00Z".to_string())
            ),
            ("Tidy the wiki".to_string(), None),
        ]
    );
    assert!(
        report
            .items
            .iter()
            .all(|i| i.source == format!("extract:{report_turn}"))
    );
    // Three items of one turn get three ids.
    let ids: std::collections::BTreeSet<_> = report.items.iter().map(|i| i.id.clone()).collect();
    assert_eq!(ids.len(), 3);
}

#[test]
fn an_unreadable_model_reply_falls_back_with_a_warning() {
    let sb = seeded();
    route_to_fake(&sb, "I found nothing worth noting.");
    let report = run(&sb, &ExtractOptions::default());
    assert_eq!(report.method, "deterministic");
    assert_eq!(report.items.len(), 3);
    assert!(
        report.warnings.iter().any(|w| w.contains("no JSON object")),
        "{:?}",
        report.warnings
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    #[test]
    fn find_never_panics(text in "(?s).{0,200}", secs in 0i64..7_000_000_000) {
        let ts = Time::from_second(secs).expect("a time");
        for f in find_in(&text, "user", ts, &Zone::named("Asia/Kolkata").expect("zone")) {
            proptest::prop_assert!(f.text.chars().count() <= agentbox::tools::proactive::extract::MAX_TEXT_CHARS);
            proptest::prop_assert!(f.valid_from <= f.valid_until);
        }
    }

    #[test]
    fn find_never_panics_on_commitment_like_text(
        words in proptest::collection::vec(proptest::sample::select(&[
            "I'll", "send", "it", "by", "friday", "tomorrow", "at", "5pm", "remind", "me", "next",
            "week", "the", "demo", "is", "on", "12", "March", "in", "3", "days", ".", "?", ",", "and",
            "ünï", "—", "last", "was", "\n", "```", "    ", "the 31st", "end of month",
        ][..]), 0..20),
        secs in 0i64..7_000_000_000,
    ) {
        let ts = Time::from_second(secs).expect("a time");
        let _ = find_in(&words.join(" "), "assistant", ts, &Zone::named("America/New_York").expect("zone"));
    }
}

#[test]
fn run_gives_data_and_text() {
    use agentbox::home::HomeLookup;
    use agentbox::output::Style;
    use agentbox::tools::Ctx;
    let sb = seeded();
    let lookup = HomeLookup {
        flag: Some(sb.home()),
        cwd: sb.path().to_path_buf(),
        ..HomeLookup::default()
    };
    let ctx = Ctx::new(
        Clock::fixed(t("2026-01-15T12:00:00Z")),
        Style { color: false },
        lookup,
        &agentbox::registry::REGISTRY,
    );
    let outcome =
        agentbox::tools::proactive::extract::run(&ctx, &ExtractOptions::default()).expect("run");
    assert_eq!(outcome.data["items"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        outcome.data["scanned"],
        serde_json::json!({"episodes": 2, "turns": 4})
    );
    assert_eq!(outcome.data["skipped_duplicates"], 0);
    assert_eq!(outcome.data["method"], "deterministic");
    assert_eq!(outcome.meta["count"], 3);
    assert!(
        outcome
            .text
            .starts_with("3 new items from 4 turns in 2 episodes\n"),
        "{}",
        outcome.text
    );
    assert!(
        outcome.text.contains("I'll send the report by Friday."),
        "{}",
        outcome.text
    );
    let again =
        agentbox::tools::proactive::extract::run(&ctx, &ExtractOptions::default()).expect("run");
    assert_eq!(again.text, "No new turns since the last extraction\n");
    assert_eq!(
        again.data["scanned"],
        serde_json::json!({"episodes": 0, "turns": 0})
    );
}
