//! The search index at library level: ranking, filters, natural-language
//! questions over a generated history, staleness, rebuilds.

use crate::common;

use agentbox::home::Home;
use agentbox::search::{Doc, Index, Query};
use common::Sandbox;

fn home(sb: &Sandbox) -> Home {
    agentbox::registry::install();
    Home::open(sb.home()).unwrap()
}

fn turn(id: &str, session: &str, date: &str, body: &str) -> Doc {
    Doc {
        id: id.to_string(),
        kind: "turn",
        source: format!("memory/episodes/{session}/x.jsonl"),
        session: Some(session.to_string()),
        tags: vec!["user".to_string()],
        date: date.to_string(),
        title: format!("user in {session}"),
        body: body.to_string(),
    }
}

/// A note (no session) with this id, date and body.
fn note(id: &str, date: &str, body: &str) -> Doc {
    Doc {
        kind: "note",
        session: None,
        ..turn(id, "x", date, body)
    }
}

fn query(text: &str, limit: usize) -> Query {
    Query {
        text: text.to_string(),
        limit,
        ..Query::default()
    }
}

/// The ids a search finds, sorted.
fn sorted_ids(index: &mut Index, q: &Query) -> Vec<String> {
    let mut got: Vec<String> = index.search(q).unwrap().into_iter().map(|h| h.id).collect();
    got.sort();
    got
}

fn ids(hits: &[agentbox::search::Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

/// Deterministic filler: plausible agent chatter that shares vocabulary with
/// the questions (code, tests, deploy, config …) without answering them.
fn noise(n: usize) -> Vec<Doc> {
    let subjects = [
        "the build",
        "the parser",
        "the login page",
        "the cache layer",
        "the CI pipeline",
        "the docs site",
        "the API client",
        "the database migration",
        "the release script",
        "the test suite",
        "the CLI flags",
        "the error messages",
        "the config loader",
        "the logging setup",
        "the payment flow",
    ];
    let verbs = [
        "refactored",
        "reviewed",
        "fixed a bug in",
        "added tests for",
        "profiled",
        "cleaned up",
        "documented",
        "renamed files in",
        "updated dependencies of",
        "split up",
        "benchmarked",
    ];
    let tails = [
        "and everything passes now",
        "but one case still fails",
        "as discussed yesterday",
        "before the weekly sync",
        "to make the code easier to read",
        "after the code review comments",
        "so the deploy can go out",
        "while waiting on CI",
        "to reduce flaky tests",
        "for the new format",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..n)
        .map(|i| {
            let body = format!(
                "I {} {} {}.",
                verbs[next() as usize % verbs.len()],
                subjects[next() as usize % subjects.len()],
                tails[next() as usize % tails.len()]
            );
            let day = 1 + (i % 28);
            let month = 1 + (i / 28) % 3;
            turn(
                &format!("noise#{i}"),
                &format!("s{}", i % 7),
                &format!("2026-{month:02}-{day:02}T10:{:02}:00Z", i % 60),
                &body,
            )
        })
        .collect()
}

/// (planted answer, natural-language question) pairs.
const PLANTED: &[(&str, &str)] = &[
    (
        "Always run gofmt -s before committing Go code; the team style is gofmt plus goimports.",
        "How should I format Go code?",
    ),
    (
        "The staging database password rotates every Monday at 09:00 UTC via the vault job.",
        "when does the staging db password rotate?",
    ),
    (
        "Deploys to production need approval from Priya in the #release channel.",
        "Who approves production deploys?",
    ),
    (
        "The flaky checkout test fails because the mock clock is not frozen; freeze it with fake_timers.",
        "why is the checkout test flaky",
    ),
    (
        "User prefers concise answers with code first and explanations after.",
        "what answer style does the user like?",
    ),
    (
        "Postgres connection pool size is 40 in prod and 5 in dev (see pool.toml).",
        "What is the connection pool size in production?",
    ),
    (
        "To reproduce the memory leak run the soak test for 2 hours with RUST_LOG=trace.",
        "how do I reproduce the memory leak",
    ),
    (
        "The mobile app uses Kotlin Multiplatform for shared networking code.",
        "which framework does the mobile app share networking code with",
    ),
    (
        "Invoices are generated nightly by the billing cron at 02:30 and emailed as PDF.",
        "When are invoices generated?",
    ),
    (
        "Our Python services pin dependencies with uv lock and a weekly Renovate bump.",
        "How are Python dependencies pinned?",
    ),
    (
        "The VPN for the lab network is WireGuard on port 51820; ask IT for a peer key.",
        "what port does the lab vpn use",
    ),
    (
        "Feature flags live in LaunchDarkly under the project key web-core.",
        "Where do feature flags live?",
    ),
    (
        "The on-call rotation changes every Wednesday; the schedule is in PagerDuty.",
        "when does on-call rotation change",
    ),
    (
        "Screenshots for bug reports go in the shared Figma file named QA Evidence.",
        "Where should bug report screenshots go?",
    ),
    (
        "The search service is written in Elixir and indexes with Meilisearch.",
        "what language is the search service written in",
    ),
    (
        "Timeouts for the payment gateway are 8 seconds connect and 30 seconds read.",
        "What are the payment gateway timeouts?",
    ),
    (
        "Dark mode colours come from the tokens package, palette slate-900 and amber-400.",
        "which palette is used for dark mode",
    ),
    (
        "The user's cat is called Miso and their standup is at 9:15.",
        "what is the name of my cat?",
    ),
    (
        "Release notes are drafted in Notion then copied into CHANGELOG.md by the release captain.",
        "How are release notes written?",
    ),
    (
        "Load balancer health checks hit /healthz every 10 seconds with a 2 second timeout.",
        "What endpoint do the health checks hit?",
    ),
    (
        "Kubernetes namespaces follow team-env naming like growth-staging.",
        "how are kubernetes namespaces named",
    ),
    (
        "For Terraform, state is stored in the S3 bucket infra-state with DynamoDB locking.",
        "where is terraform state stored?",
    ),
];

#[test]
fn planted_answers_rank_in_the_top_five() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    let mut docs = noise(3000);
    for (i, (answer, _)) in PLANTED.iter().enumerate() {
        docs.push(turn(
            &format!("planted#{i}"),
            "facts",
            "2026-02-10T12:00:00Z",
            answer,
        ));
    }
    index.add(&docs).unwrap();
    let mut misses = Vec::new();
    for (i, (_, question)) in PLANTED.iter().enumerate() {
        let hits = index.search(&query(question, 5)).unwrap();
        let want = format!("planted#{i}");
        if !ids(&hits).contains(&want.as_str()) {
            misses.push(format!("{question:?} → {:?}", ids(&hits)));
        }
    }
    assert!(PLANTED.len() >= 20);
    assert!(misses.is_empty(), "missed:\n{}", misses.join("\n"));
    // keyword queries too
    let hits = index.search(&query("gofmt goimports", 5)).unwrap();
    assert_eq!(hits[0].id, "planted#0");
}

#[test]
fn partial_matches_rank_below_full_ones_and_nothing_is_and_only() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    index
        .add(&[
            turn("a", "s", "2026-01-01T00:00:00Z", "rotate the deploy key"),
            turn("b", "s", "2026-01-01T00:00:00Z", "the deploy went fine"),
            turn("c", "s", "2026-01-01T00:00:00Z", "unrelated chatter"),
        ])
        .unwrap();
    let hits = index
        .search(&query("how do I rotate the deploy key?", 10))
        .unwrap();
    assert_eq!(ids(&hits), ["a", "b"]);
    assert!(hits[0].score > hits[1].score);
    assert!(index.search(&query("", 10)).unwrap().is_empty());
    assert!(index.search(&query("zebra", 10)).unwrap().is_empty());
}

#[test]
fn a_document_added_again_under_its_id_replaces_the_old_one() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    let at = "2026-01-01T00:00:00Z";
    index
        .add(&[turn("a", "s", at, "walrus"), turn("b", "s", at, "walrus")])
        .unwrap();
    // The same id again, and twice in one call: the last one wins.
    index
        .add(&[turn("a", "s", at, "narwhal"), turn("a", "s", at, "beluga")])
        .unwrap();
    assert_eq!(sorted_ids(&mut index, &query("walrus", 10)), ["b"]);
    assert!(index.search(&query("narwhal", 10)).unwrap().is_empty());
    assert_eq!(sorted_ids(&mut index, &query("beluga", 10)), ["a"]);
    assert_eq!(index.search(&query("beluga walrus", 10)).unwrap().len(), 2);
}

#[test]
fn filters_by_kind_session_tag_and_date() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    let mut note = note(
        "note:n",
        "2026-01-05T00:00:00Z",
        "kafka retention is seven days",
    );
    note.tags = vec!["infra".to_string()];
    index
        .add(&[
            turn("t1", "alpha", "2026-01-01T00:00:00Z", "kafka lag alert"),
            turn(
                "t2",
                "beta",
                "2026-01-10T00:00:00Z",
                "kafka consumer restarted",
            ),
            note,
        ])
        .unwrap();
    let mut q = |f: &dyn Fn(&mut Query)| {
        let mut q = query("kafka", 10);
        f(&mut q);
        sorted_ids(&mut index, &q)
    };
    assert_eq!(q(&|_| {}), ["note:n", "t1", "t2"]);
    assert_eq!(q(&|q| q.kinds = vec!["note".to_string()]), ["note:n"]);
    assert_eq!(q(&|q| q.session = Some("beta".into())), ["t2"]);
    assert_eq!(q(&|q| q.tag = Some("INFRA".into())), ["note:n"]);
    assert_eq!(
        q(&|q| q.since = Some("2026-01-05".into())),
        ["note:n", "t2"]
    );
    assert_eq!(
        q(&|q| q.until = Some("2026-01-05".into())),
        ["note:n", "t1"]
    );
}

#[test]
fn recency_breaks_near_ties() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    index
        .add(&[
            turn(
                "old",
                "s",
                "2025-06-01T00:00:00Z",
                "the staging cluster was upgraded",
            ),
            turn(
                "new",
                "s",
                "2026-01-01T00:00:00Z",
                "the staging cluster was upgraded",
            ),
        ])
        .unwrap();
    assert_eq!(
        ids(&index.search(&query("staging cluster", 2)).unwrap()),
        ["new", "old"]
    );
}

#[test]
fn replace_and_remove_sources_and_redact() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    let mut a = turn(
        "x#1",
        "s",
        "2026-01-01T00:00:00Z",
        "alpha token=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    );
    a.source = "memory/episodes/s/x.jsonl".into();
    index.add(std::slice::from_ref(&a)).unwrap();
    let hit = &index.search(&query("alpha", 5)).unwrap()[0];
    assert!(!hit.snippet.contains("efghijklmnop"), "{}", hit.snippet);
    let mut b = a.clone();
    b.id = "x#2".into();
    b.body = "beta".into();
    index
        .replace_source("memory/episodes/s/x.jsonl", &[b])
        .unwrap();
    assert!(index.search(&query("alpha", 5)).unwrap().is_empty());
    assert_eq!(index.search(&query("beta", 5)).unwrap().len(), 1);
    index.remove_source("memory/episodes/s/x.jsonl").unwrap();
    assert!(index.search(&query("beta", 5)).unwrap().is_empty());
}

#[test]
fn a_deleted_index_is_rebuilt_and_concurrent_writers_share_it() {
    let sb = Sandbox::new();
    let home = home(&sb);
    {
        let index = Index::open(&home).unwrap();
        index
            .add(&[turn("a", "s", "2026-01-01T00:00:00Z", "kept")])
            .unwrap();
    }
    std::thread::scope(|scope| {
        for t in 0..8 {
            let home = &home;
            scope.spawn(move || {
                let index = Index::open(home).unwrap();
                for i in 0..50 {
                    index
                        .add(&[turn(
                            &format!("w{t}#{i}"),
                            "s",
                            "2026-01-01T00:00:00Z",
                            &format!("parallel writer {t} item {i}"),
                        )])
                        .unwrap();
                }
            });
        }
    });
    let index = Index::open(&home).unwrap();
    assert_eq!(index.counts().unwrap()["turn"], 401);
    drop(index);
    std::fs::remove_dir_all(sb.home().join("index")).unwrap();
    let index = Index::open(&home).unwrap();
    // Rebuilt from files: these docs had no files behind them, so nothing comes back.
    assert!(index.counts().unwrap().is_empty());
}

#[test]
fn agentbox_search_spans_every_kind_with_filters() {
    let sb = Sandbox::new();
    let run = |args: &[&str]| common::ok_data(&mut sb.agentbox(args));
    run(&[
        "track",
        "record",
        "--session",
        "ops",
        "--content",
        "the kafka consumer lags behind",
    ]);
    run(&[
        "knowledge",
        "add",
        "Kafka retention",
        "--body",
        "Kafka keeps topics for seven days.",
        "--tag",
        "infra",
    ]);
    run(&[
        "knowledge",
        "profile",
        "add",
        "Prefers kafka over rabbitmq",
        "--preference",
    ]);
    let kinds = |args: &[&str]| -> Vec<String> {
        let mut full = vec!["search"];
        full.extend_from_slice(args);
        let data = run(&full);
        let mut kinds: Vec<String> = data["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["kind"].as_str().unwrap().to_string())
            .collect();
        kinds.sort();
        kinds
    };
    assert_eq!(
        kinds(&["what do we know about kafka?"]),
        ["fact", "note", "turn"]
    );
    assert_eq!(
        kinds(&["kafka", "--kind", "note", "--kind", "fact"]),
        ["fact", "note"]
    );
    assert_eq!(kinds(&["kafka", "--session", "ops"]), ["turn"]);
    assert_eq!(kinds(&["kafka", "--tag", "infra"]), ["note"]);
    assert_eq!(
        kinds(&["kafka", "--until", "2026-01-14"]),
        Vec::<String>::new()
    );
    assert_eq!(kinds(&["kafka", "--limit", "1"]).len(), 1);
    let hit = &run(&["search", "retention"])["hits"][0];
    for field in ["id", "kind", "title", "date", "snippet", "score", "source"] {
        assert!(!hit[field].is_null(), "{field} in {hit}");
    }
    common::err_of(&mut sb.agentbox(&["search", "  "]), "invalid_args", 2);
    common::err_of(
        &mut sb.agentbox(&["search", "x", "--limit", "0"]),
        "invalid_args",
        2,
    );
    common::err_of(
        &mut sb.agentbox(&["search", "x", "--since", "yesterday"]),
        "invalid_args",
        2,
    );
    common::err_of(
        &mut sb.agentbox(&["search", "x", "--kind", "plan"]),
        "invalid_args",
        2,
    );
}

/// `--session ""` and `--tag ""` (an unset shell variable) are mistakes, not
/// filters that nothing passes: `invalid_args` (exit 2) naming the flag, on
/// every search verb, before any index is read.
#[test]
fn blank_session_and_tag_filters_are_invalid_args() {
    let sb = Sandbox::new();
    common::ok_data(&mut sb.agentbox(&[
        "track",
        "record",
        "--session",
        "ops",
        "--content",
        "the kafka consumer lags behind",
    ]));
    for verb in [
        &["search"][..],
        &["track", "search"],
        &["knowledge", "search"],
    ] {
        for flag in ["--session", "--tag"] {
            for blank in ["", "  "] {
                let mut args = verb.to_vec();
                args.extend(["kafka", flag, blank]);
                let err = common::err_of(&mut sb.agentbox(&args), "invalid_args", 2);
                assert_eq!(err["detail"]["flag"], flag, "{args:?}: {err}");
                let hint = err["hint"].as_str().unwrap();
                assert!(hint.contains(flag), "{args:?}: {hint}");
                // text mode: stdout stays empty, stderr says why
                args.extend(["--format", "text"]);
                let out = sb.agentbox(&args).output().unwrap();
                assert_eq!(out.status.code(), Some(2), "{args:?}");
                assert!(out.stdout.is_empty(), "{args:?}");
                let stderr = String::from_utf8(out.stderr).unwrap();
                assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
            }
        }
    }
    // the same filters with a value still work
    let data = common::ok_data(&mut sb.agentbox(&["search", "kafka", "--session", "ops"]));
    assert_eq!(data["hits"].as_array().unwrap().len(), 1);
}

/// A filtered search keeps the first candidates that pass, best first,
/// however many better ones fail the filter: below the first 40 (read row
/// by row) and below the first 320 (the filtered join).
#[test]
fn a_filter_finds_its_documents_below_many_better_ones_that_fail_it() {
    for turns in [100, 400] {
        let sb = Sandbox::new();
        let home = home(&sb);
        let mut index = Index::open(&home).unwrap();
        let mut docs: Vec<Doc> = (0..turns)
            .map(|i| {
                turn(
                    &format!("t{i}"),
                    "alpha",
                    "2026-01-01T00:00:00Z",
                    "kafka kafka",
                )
            })
            .collect();
        for i in 0..3 {
            docs.push(note(
                &format!("note:{i}"),
                "2026-01-01T00:00:00Z",
                "kafka retention is seven days on the staging cluster this quarter",
            ));
        }
        index.add(&docs).unwrap();
        let mut q = query("kafka", 3);
        let best = index.search(&q).unwrap();
        assert!(
            best.iter().all(|h| h.kind == "turn"),
            "{turns}: {:?}",
            ids(&best)
        );
        q.kinds = vec!["note".to_string()];
        assert_eq!(
            sorted_ids(&mut index, &q),
            ["note:0", "note:1", "note:2"],
            "{turns}"
        );
    }
}

#[test]
fn a_kind_filter_ranks_past_better_documents_of_other_kinds() {
    // 30 notes outrank every turn; the best 40 hold 10 turns, so the
    // kind-filtered search ranks deeper and re-ranks the best 40 turns.
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    let mut docs: Vec<Doc> = (0..50)
        .map(|i| {
            let body = format!("kafka {} broker", "padding ".repeat(i % 7));
            turn(&format!("t{i}"), "alpha", "2026-01-01T00:00:00Z", &body)
        })
        .collect();
    for i in 0..30 {
        docs.push(note(
            &format!("note:{i}"),
            "2026-01-01T00:00:00Z",
            "kafka kafka kafka",
        ));
    }
    index.add(&docs).unwrap();
    let mut q = query("kafka", 5);
    assert!(index.search(&q).unwrap().iter().all(|h| h.kind == "note"));
    q.kinds = vec!["turn".to_string()];
    let turns = index.search(&q).unwrap();
    assert_eq!(turns.len(), 5, "{:?}", ids(&turns));
    assert!(turns.iter().all(|h| h.kind == "turn"), "{:?}", ids(&turns));
    // The shortest turns (no padding) rank first, as BM25 says.
    for hit in &turns {
        let n: usize = hit.id[1..].parse().unwrap();
        assert_eq!(n % 7, 0, "{:?}", ids(&turns));
    }
    assert!(turns.windows(2).all(|w| w[0].score >= w[1].score));
}
