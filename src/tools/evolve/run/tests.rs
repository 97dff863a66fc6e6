//! The run loop with a scripted miner and model (the real miner is tested
//! on its own; the binary's tests in tests/it/evolve_run.rs cover the rest).

use super::*;
use crate::tools::evolve::{Evidence, KnowledgePayload, PreferencePayload};

/// A miner that proposes one preference per episode whose user turn starts
/// with "pref:", and one knowledge note per "fail:" turn.
struct Scripted {
    pending: Vec<Candidate>,
}

impl Mining for Scripted {
    fn feed(&mut self, episode: &EpisodeRef, turns: &[Turn]) {
        for t in turns {
            let evidence = vec![Evidence {
                session: episode.session.to_string(),
                episode: episode.id.to_string(),
                turn: t.id.clone(),
                excerpt: t.content.clone(),
            }];
            if let Some(fact) = t.content.strip_prefix("pref:") {
                self.pending.push(Candidate {
                    kind: Kind::Preference,
                    key: format!("pref:{fact}"),
                    title: format!("Preference: {fact}"),
                    confidence: 0.7,
                    evidence,
                    payload: Payload::Preference(PreferencePayload {
                        section: "preferences".into(),
                        fact: fact.into(),
                    }),
                });
            } else if let Some(what) = t.content.strip_prefix("fail:") {
                self.pending.push(Candidate {
                    kind: Kind::Knowledge,
                    key: format!("fail:{what}"),
                    title: format!("Recurring failure: {what}"),
                    confidence: 0.5,
                    evidence,
                    payload: Payload::Knowledge(KnowledgePayload {
                        slug: "failure-x".into(),
                        title: format!("Recurring failure: {what}"),
                        tags: vec![],
                        body: "It fails.".into(),
                    }),
                });
            }
        }
    }
    fn ready(&mut self) -> Vec<Candidate> {
        std::mem::take(&mut self.pending)
    }
    fn snapshot(&self) -> MinerState {
        MinerState::default()
    }
}

fn scripted(_: MinerState, _: &Profile) -> Box<dyn Mining> {
    Box::new(Scripted {
        pending: Vec::new(),
    })
}

struct Fixture {
    _dir: tempfile::TempDir,
    home: Home,
    clock: Clock,
}

/// A home with one closed episode per entry of `contents` (one user turn each).
fn fixture(contents: &[&str]) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".agent");
    let sessions = root.join("memory/episodes/s1");
    std::fs::create_dir_all(&sessions).unwrap();
    for (i, content) in contents.iter().enumerate() {
        let id = format!("ep-20260101T0000{:02}Z-1", i);
        let turn = json!({"schema": "agentbox.turn/v1", "id": format!("{id}#1"), "session": "s1",
                          "episode": id, "seq": 1, "ts": "2026-01-01T00:00:00Z", "role": "user",
                          "content": content});
        std::fs::write(sessions.join(format!("{id}.jsonl")), format!("{turn}\n")).unwrap();
    }
    Fixture {
        home: Home::open(root).unwrap(),
        clock: Clock::from_env().unwrap(),
        _dir: dir,
    }
}

fn options(limits: Limits) -> Options {
    Options {
        since: Since::Last,
        since_text: None,
        sessions: Vec::new(),
        limits,
        dry_run: false,
    }
}

fn limits() -> Limits {
    Limits::resolve(None, None, None, None, &Default::default()).unwrap()
}

fn events(f: &Fixture, run_id: &str) -> Vec<Value> {
    let path = f
        .home
        .root
        .join("runs/evolve")
        .join(run_id)
        .join("events.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

#[test]
fn the_model_rewords_and_drops_and_each_call_is_counted() {
    let f = fixture(&["pref:use pnpm", "fail:linker", "hello"]);
    let mut prompts = Vec::new();
    let mut ask = |prompt: &str| -> Result<String> {
        prompts.push(prompt.to_string());
        Ok(r#"{"keep":[{"key":"pref:use pnpm","fact":"Use pnpm, not npm"}]}"#.to_string())
    };
    let report = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "p/m",
        Some(&mut ask),
        &scripted,
    )
    .unwrap();
    assert_eq!(report.model_calls, 1);
    assert!(report.cost_usd > 0.0);
    assert_eq!(report.proposals.len(), 1);
    match &report.proposals[0].payload {
        Payload::Preference(p) => assert_eq!(p.fact, "Use pnpm, not npm"),
        other => panic!("{other:?}"),
    }
    assert_eq!(prompts.len(), 1);
    assert!(prompts[0].contains("fail:linker"));
    // the dropped finding is remembered: a re-run does not ask about it again
    let state = state::load(&f.home).unwrap();
    assert_eq!(state.dropped.len(), 1);
    let run_id = report.run_id.clone().unwrap();
    let ev = events(&f, &run_id);
    assert_eq!(
        types(&ev),
        ["run_started", "iteration_completed", "run_completed"]
    );
    assert_eq!(ev[0]["data"]["model"], "p/m");
    assert_eq!(ev[1]["data"]["tools_called"], 1);
    assert!(ev[1]["data"]["input_tokens"].as_u64().unwrap() > 0);
    let opts = Options {
        since: Since::From("20260101T000000Z".into()),
        ..options(limits())
    };
    let mut never = |_: &str| -> Result<String> { panic!("nothing left to review") };
    let again = execute(&f.home, &f.clock, &opts, "p/m", Some(&mut never), &scripted).unwrap();
    assert_eq!(
        (again.episodes, again.proposals.len(), again.model_calls),
        (3, 0, 0)
    );
}

#[test]
fn an_unusable_reply_keeps_the_deterministic_proposals_with_a_warning() {
    let f = fixture(&["pref:use pnpm", "fail:linker"]);
    let mut ask = |_: &str| -> Result<String> { Ok("Sure! They all look good.".into()) };
    let report = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "p/m",
        Some(&mut ask),
        &scripted,
    )
    .unwrap();
    assert_eq!(report.proposals.len(), 2);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    let mut failing = |_: &str| -> Result<String> { Err(Error::new(ErrorType::Upstream, "down")) };
    let f = fixture(&["pref:use pnpm"]);
    let report = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "p/m",
        Some(&mut failing),
        &scripted,
    )
    .unwrap();
    assert_eq!((report.proposals.len(), report.model_calls), (1, 1));
    assert!(report.warnings[0].contains("down"), "{:?}", report.warnings);
}

#[test]
fn model_budgets_stop_the_run_after_recording_the_batch() {
    for (calls, cost, name) in [
        (0, 1.0, "model_calls"),
        (10, 0.0, "cost_usd"),
        (10, 1e-9, "cost_usd"),
    ] {
        let f = fixture(&["pref:use pnpm", "fail:linker"]);
        let mut ask = |_: &str| -> Result<String> { Ok(r#"{"keep":[]}"#.into()) };
        let l = Limits {
            model_calls: calls,
            cost_usd: cost,
            ..limits()
        };
        let err = execute(
            &f.home,
            &f.clock,
            &options(l),
            "p/m",
            Some(&mut ask),
            &scripted,
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        assert_eq!(err.detail["limit_name"], name, "{err:?}");
        let run_dir = err.meta["run_dir"].as_str().unwrap().to_string();
        let run_id = run_dir.rsplit('/').next().unwrap();
        let ev = events(&f, run_id);
        assert_eq!(
            types(&ev),
            [
                "run_started",
                "iteration_completed",
                "budget_exceeded",
                "run_failed"
            ]
        );
        assert_eq!(ev[3]["data"]["error_class"], "budget_exhausted");
        let run: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{run_dir}/run.json")).unwrap())
                .unwrap();
        assert_eq!(run["status"], "failed");
        assert_eq!(run["error"]["detail"]["limit_name"], name);
        let state = state::load(&f.home).unwrap();
        assert_eq!(state.high_water.unwrap().episode, "ep-20260101T000001Z-1");
        if calls == 0 || cost == 0.0 {
            // refused before the call: the deterministic findings are kept
            assert_eq!(state.proposals.len(), 2);
        }
    }
}

#[test]
fn an_episode_budget_keeps_the_mark_at_the_last_mined_episode_and_resumes() {
    let f = fixture(&["pref:a", "pref:b", "pref:c"]);
    let l = Limits {
        episodes: 1,
        ..limits()
    };
    let err = execute(
        &f.home,
        &f.clock,
        &options(l),
        "deterministic",
        None,
        &scripted,
    )
    .unwrap_err();
    assert_eq!(err.detail["observed"], 1);
    let state = state::load(&f.home).unwrap();
    assert_eq!(state.high_water.unwrap().episode, "ep-20260101T000000Z-1");
    assert_eq!(state.proposals.len(), 1);
    let report = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "deterministic",
        None,
        &scripted,
    )
    .unwrap();
    assert_eq!((report.episodes, report.proposals.len()), (2, 2));
    let report = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "deterministic",
        None,
        &scripted,
    )
    .unwrap();
    assert_eq!((report.episodes, report.proposals.len()), (0, 0));
}

#[test]
fn a_dry_run_writes_nothing_and_a_held_run_lock_is_a_conflict() {
    let f = fixture(&["pref:a"]);
    let dry = Options {
        dry_run: true,
        ..options(limits())
    };
    let report = execute(&f.home, &f.clock, &dry, "deterministic", None, &scripted).unwrap();
    assert_eq!(report.proposals.len(), 1);
    assert!(report.run_id.is_none() && report.run_dir.is_none());
    let runs = f.home.root.join("runs/evolve");
    assert!(!runs.exists() || std::fs::read_dir(&runs).unwrap().next().is_none());
    let _held = f.home.store.try_lock(RUN_LOCK).unwrap().unwrap();
    let err = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "deterministic",
        None,
        &scripted,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorType::Conflict);
    assert_eq!(err.detail["lock"], RUN_LOCK);
}

#[test]
fn batches_hold_at_most_a_hundred_episodes() {
    let contents: Vec<String> = (0..BATCH + 5).map(|i| format!("pref:p{i}")).collect();
    let refs: Vec<&str> = contents.iter().map(String::as_str).collect();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".agent");
    let sessions = root.join("memory/episodes/s1");
    std::fs::create_dir_all(&sessions).unwrap();
    for (i, content) in refs.iter().enumerate() {
        let id = format!("ep-20260101T000000Z-{}", i + 1);
        let turn = json!({"role": "user", "seq": 1, "content": content});
        std::fs::write(sessions.join(format!("{id}.jsonl")), format!("{turn}\n")).unwrap();
    }
    let home = Home::open(root).unwrap();
    let clock = Clock::from_env().unwrap();
    let report = execute(
        &home,
        &clock,
        &options(limits()),
        "deterministic",
        None,
        &scripted,
    )
    .unwrap();
    assert_eq!((report.episodes, report.batches), (BATCH as u64 + 5, 2));
    assert_eq!(report.proposals.len(), BATCH + 5);
    let hw = report.high_water.unwrap();
    assert_eq!(hw.episode, format!("ep-20260101T000000Z-{}", BATCH + 5));
    let file: ProposalsFile = serde_json::from_str(
        &std::fs::read_to_string(report.run_dir.unwrap().join("proposals.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(file.proposals.len(), BATCH + 5);
}

#[test]
fn a_run_that_died_proposes_nothing_twice_and_is_closed() {
    let f = fixture(&["pref:a", "pref:b"]);
    // a run that wrote its proposals, then died before state.json
    let dead = f
        .home
        .root
        .join("runs/evolve/0123456789abcdef0123456789abcdef");
    std::fs::create_dir_all(&dead).unwrap();
    let mut miner = Scripted {
        pending: Vec::new(),
    };
    let ep = EpisodeRef {
        session: "s1",
        id: "ep-20260101T000000Z-1",
    };
    let turn: Turn = serde_json::from_value(json!({"role": "user", "content": "pref:a"})).unwrap();
    miner.feed(&ep, &[turn]);
    let old = Proposal::from_candidate(
        miner.ready().remove(0),
        "0123456789abcdef0123456789abcdef",
        "t",
    );
    let file = ProposalsFile {
        schema: PROPOSALS_SCHEMA.into(),
        run_id: "0123456789abcdef0123456789abcdef".into(),
        proposals: vec![old.clone()],
    };
    std::fs::write(
        dead.join("proposals.json"),
        serde_json::to_string(&file).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dead.join("run.json"),
        r#"{"status": "running", "finished": null}"#,
    )
    .unwrap();
    let report = execute(
        &f.home,
        &f.clock,
        &options(limits()),
        "deterministic",
        None,
        &scripted,
    )
    .unwrap();
    let ids: Vec<&str> = report.proposals.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), 1);
    assert_ne!(ids[0], old.id);
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dead.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["status"], "failed");
    assert_eq!(run["error"]["type"], "cancelled");
}
