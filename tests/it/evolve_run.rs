//! `evolve run`: the run folder, odek.event/v1 events, budgets, the
//! high-water mark, --since, --dry-run, the run lock and bad input, driven
//! through the real binary in temp homes with the fixed clock.
//!
//! These tests exercise the loop; the mining rules are tested on the
//! planted corpus (tests/it/evolve_mining.rs, and `the_planted_corpus_end_to_end`
//! here). `three` gives the miner three corrections to find.

use crate::common;

use common::{NOW, Sandbox, envelope, err_of, ok_data};
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Records one closed episode per entry (its user turns) in `session`.
fn episodes(sb: &Sandbox, session: &str, contents: &[&[&str]]) {
    for turns in contents {
        for content in *turns {
            sb.agentbox(&[
                "track",
                "record",
                "--session",
                session,
                "--role",
                "user",
                "--content",
                content,
            ])
            .assert()
            .success();
        }
        sb.agentbox(&["track", "flush", "--session", session])
            .assert()
            .success();
    }
}

/// Three episodes, each with a user correction the miner can find.
fn three(sb: &Sandbox) {
    episodes(
        sb,
        "s1",
        &[
            &["No, use pnpm instead of npm."],
            &["Never force-push to main."],
            &["Always run the tests before committing."],
        ],
    );
}

fn evolve(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut full = vec!["evolve", "run"];
    full.extend_from_slice(args);
    sb.agentbox(&full)
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn events(run_dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(run_dir.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn types(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

/// The run folders of the home.
fn run_dirs(sb: &Sandbox) -> Vec<PathBuf> {
    let dir = sb.home().join("runs/evolve");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn state(sb: &Sandbox) -> Value {
    json_file(&sb.home().join("runs/evolve/state.json"))
}

/// The fake Oda runtime of tests/it/model.rs as the home's model route.
fn route(sb: &Sandbox, answer: &str) {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_oda.py");
    let path = sb.home().join("config.json");
    let mut config = json_file(&path);
    config["model"] = json!({
        "command": "python3",
        "args": [fake.display().to_string(), "ok"],
        "env": {"FAKE_ODA_ANSWER": answer},
        "provider": "anthropic",
        "model": "claude-sonnet",
        "timeout_seconds": 20,
    });
    std::fs::write(&path, config.to_string()).unwrap();
}

#[test]
fn a_run_leaves_a_well_formed_folder_and_event_stream() {
    let sb = Sandbox::new();
    three(&sb);
    let (env, code) = envelope(&mut evolve(&sb, &[]));
    assert_eq!(code, 0, "{env}");
    let data = &env["data"];
    let run_id = data["run_id"].as_str().unwrap();
    assert_eq!(run_id.len(), 32);
    assert!(
        run_id
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
    assert_eq!(data["episodes"], 3);
    assert_eq!(data["batches"], 1);
    assert_eq!(data["dry_run"], false);
    assert_eq!(data["model"], "deterministic");
    assert_eq!(data["model_calls"], 0);
    assert_eq!(data["high_water"]["session"], "s1");
    for kind in ["skill", "preference", "knowledge"] {
        assert!(data["counts"][kind].is_u64(), "{data}");
    }
    let run_dir = PathBuf::from(env["meta"]["run_dir"].as_str().unwrap());
    assert!(run_dir.is_absolute());
    assert_eq!(run_dir, sb.home().join("runs/evolve").join(run_id));

    let run = json_file(&run_dir.join("run.json"));
    assert_eq!(run["schema"], "agentbox.evolve.run/v1");
    assert_eq!(run["run_id"], run_id);
    assert_eq!(run["status"], "completed");
    assert_eq!(run["started"], NOW);
    assert_eq!(run["finished"], NOW);
    assert_eq!(run["counts"]["episodes"], 3);
    assert_eq!(run["counts"]["batches"], 1);
    assert_eq!(run["high_water_before"], Value::Null);
    assert_eq!(run["high_water_after"], data["high_water"]);
    assert_eq!(run["options"]["max_episodes"], 100_000);
    let proposals = json_file(&run_dir.join("proposals.json"));
    assert_eq!(proposals["schema"], "agentbox.evolve.proposals/v1");
    assert_eq!(proposals["run_id"], run_id);
    assert_eq!(
        proposals["proposals"].as_array().unwrap().len(),
        data["proposals"].as_array().unwrap().len()
    );
    let summary = std::fs::read_to_string(run_dir.join("summary.md")).unwrap();
    assert!(
        summary.starts_with(&format!("# evolve run {run_id}")),
        "{summary}"
    );
    assert!(summary.contains("3 episode(s)"), "{summary}");

    let path = run_dir.join("events.jsonl");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let ev = events(&run_dir);
    assert_eq!(
        types(&ev),
        ["run_started", "iteration_completed", "run_completed"]
    );
    for e in &ev {
        assert_eq!(e["schema"], "odek.event/v1");
        assert_eq!(e["run_id"], run_id);
        assert_eq!(e["timestamp"], NOW);
        assert!(e["data"].is_object());
    }
    assert_eq!(
        ev[0]["data"],
        json!({"model": "deterministic", "sandbox": false, "max_iterations": 100_000})
    );
    assert_eq!(ev[1]["iteration"], 1);
    assert_eq!(ev[1]["data"]["episodes"], 3);
    assert_eq!(ev[1]["data"]["tools_called"], 0);
    assert!(ev[0].get("iteration").is_none());
    assert!(ev[2]["data"]["duration_ms"].is_u64());
    assert_eq!(ev[2]["data"]["input_tokens"], 0);

    let st = state(&sb);
    assert_eq!(st["schema"], "agentbox.evolve.state/v1");
    assert_eq!(st["high_water"], data["high_water"]);
    for p in data["proposals"].as_array().unwrap() {
        assert_eq!(st["proposals"][p["id"].as_str().unwrap()], run_id);
    }
}

#[test]
fn the_high_water_mark_and_since() {
    let sb = Sandbox::new();
    three(&sb);
    let first = ok_data(&mut evolve(&sb, &[]));
    // nothing new: nothing mined
    let again = ok_data(&mut evolve(&sb, &["--since", "last"]));
    assert_eq!(again["episodes"], 0);
    assert_eq!(again["batches"], 0);
    assert_eq!(again["proposals"], json!([]));
    assert_eq!(again["high_water"], first["high_water"]);
    // --since re-mines, and proposes nothing already proposed
    let since = ok_data(&mut evolve(&sb, &["--since", "2026-01-15"]));
    assert_eq!(since["episodes"], 3);
    assert_eq!(since["proposals"], json!([]));
    let since = ok_data(&mut evolve(&sb, &["--since", "2026-01-15T09:30:00Z"]));
    assert_eq!(since["episodes"], 3);
    let later = ok_data(&mut evolve(&sb, &["--since", "2026-01-16"]));
    assert_eq!(later["episodes"], 0);
    // a new episode is mined by the next run, and only it
    episodes(&sb, "s2", &[&["Prefer tabs over spaces."]]);
    let next = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(next["episodes"], 1);
    assert_eq!(next["high_water"]["session"], "s2");
    // --session narrows; it does not move the mark
    episodes(&sb, "s1", &[&["hello"]]);
    episodes(&sb, "s2", &[&["hello again"]]);
    let only = ok_data(&mut evolve(&sb, &["--session", "s2"]));
    assert_eq!(only["episodes"], 1);
    assert_eq!(only["high_water"], next["high_water"]);
    let rest = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(rest["episodes"], 2);
}

#[test]
fn a_dry_run_writes_nothing() {
    let sb = Sandbox::new();
    three(&sb);
    let data = ok_data(&mut evolve(&sb, &["--dry-run"]));
    assert_eq!(data["dry_run"], true);
    assert_eq!(data["episodes"], 3);
    assert_eq!(data["run_id"], Value::Null);
    assert!(run_dirs(&sb).is_empty());
    assert!(!sb.home().join("runs/evolve/state.json").exists());
    let (env, _) = envelope(&mut evolve(&sb, &["--dry-run"]));
    assert!(env["meta"].get("run_dir").is_none(), "{env}");
    // and the real run after it mines the same episodes
    let real = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(real["episodes"], 3);
    assert_eq!(real["proposals"], data["proposals"]);
}

/// The failure envelope of a budget stop: exit 1, permission, the detail,
/// `meta.run_dir`; the events end with budget_exceeded then run_failed.
fn budget_stop(sb: &Sandbox, args: &[&str], limit_name: &str) -> (Value, PathBuf) {
    let (env, code) = envelope(&mut evolve(sb, args));
    assert_eq!(code, 1, "{env}");
    assert_eq!(env["ok"], false);
    let error = &env["error"];
    assert_eq!(error["type"], "permission", "{env}");
    assert_eq!(error["detail"]["limit_name"], limit_name);
    assert!(error["detail"]["observed"].is_number());
    assert!(error["detail"]["limit"].is_number());
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains("run `evolve run` again")
    );
    let run_dir = PathBuf::from(env["meta"]["run_dir"].as_str().expect("meta.run_dir"));
    let ev = events(&run_dir);
    let t = types(&ev);
    assert_eq!(t[0], "run_started");
    assert_eq!(t[t.len() - 2..], ["budget_exceeded", "run_failed"], "{t:?}");
    assert_eq!(ev[t.len() - 2]["data"]["limit_name"], limit_name);
    assert_eq!(ev[t.len() - 1]["data"]["error_class"], "budget_exhausted");
    let run = json_file(&run_dir.join("run.json"));
    assert_eq!(run["status"], "failed");
    assert_eq!(run["error"]["type"], "permission");
    assert!(run_dir.join("summary.md").is_file());
    (error.clone(), run_dir)
}

#[test]
fn the_episode_budget_stops_and_the_next_run_resumes() {
    let sb = Sandbox::new();
    three(&sb);
    let (error, run_dir) = budget_stop(&sb, &["--max-episodes", "1"], "episodes");
    assert_eq!(error["detail"]["observed"], 1);
    assert_eq!(error["detail"]["limit"], 1);
    assert_eq!(types(&events(&run_dir))[1], "iteration_completed");
    let st = state(&sb);
    assert_eq!(st["high_water"]["episode"], "ep-20260115T093000Z-k3f9q2-1");
    let resumed = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(resumed["episodes"], 2);
    assert_eq!(
        resumed["high_water"]["episode"],
        "ep-20260115T093000Z-k3f9q2-3"
    );
    let done = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(done["episodes"], 0);
}

#[test]
fn the_time_budget_uses_real_time() {
    let sb = Sandbox::new();
    three(&sb);
    let (error, run_dir) = budget_stop(&sb, &["--max-seconds", "0"], "seconds");
    assert_eq!(error["detail"]["limit"], 0.0);
    // stopped before the first episode: nothing mined, no mark
    assert_eq!(
        types(&events(&run_dir)),
        ["run_started", "budget_exceeded", "run_failed"]
    );
    assert_eq!(state_or_null(&sb)["high_water"], Value::Null);
    let resumed = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(resumed["episodes"], 3);
}

fn state_or_null(sb: &Sandbox) -> Value {
    let path = sb.home().join("runs/evolve/state.json");
    if path.exists() {
        json_file(&path)
    } else {
        json!({"high_water": null})
    }
}

#[test]
fn config_sets_the_default_budgets() {
    let sb = Sandbox::new();
    three(&sb);
    let path = sb.home().join("config.json");
    let mut config = json_file(&path);
    config["evolve"] = json!({"max_episodes": 2});
    std::fs::write(&path, config.to_string()).unwrap();
    let (error, _) = budget_stop(&sb, &[], "episodes");
    assert_eq!(error["detail"]["limit"], 2);
    // the flag wins
    let data = ok_data(&mut evolve(&sb, &["--max-episodes", "5"]));
    assert_eq!(data["episodes"], 1);
}

#[test]
fn model_budgets_stop_the_run() {
    let sb = Sandbox::new();
    three(&sb);
    route(&sb, r#"{"keep": []}"#);
    let (error, _) = budget_stop(&sb, &["--max-model-calls", "0"], "model_calls");
    assert_eq!(error["detail"]["observed"], 0);
    let resumed = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(resumed["episodes"], 0);

    let sb = Sandbox::new();
    three(&sb);
    route(&sb, r#"{"keep": []}"#);
    let path = sb.home().join("config.json");
    let mut config = json_file(&path);
    config["evolve"] = json!({"input_cost_per_million_usd": 1000.0});
    std::fs::write(&path, config.to_string()).unwrap();
    let (error, _) = budget_stop(&sb, &["--max-cost-usd", "0.000001"], "cost_usd");
    assert!(error["detail"]["observed"].as_f64().unwrap() > 0.000001);
    ok_data(&mut evolve(&sb, &[]));
}

#[test]
fn the_model_route_reviews_the_findings() {
    let sb = Sandbox::new();
    three(&sb);
    route(&sb, "not json at all");
    let (env, code) = envelope(&mut evolve(&sb, &[]));
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["data"]["model"], "anthropic/claude-sonnet");
    let run_dir = PathBuf::from(env["meta"]["run_dir"].as_str().unwrap());
    assert_eq!(
        events(&run_dir)[0]["data"]["model"],
        "anthropic/claude-sonnet"
    );
    assert_eq!(env["data"]["proposals"].as_array().unwrap().len(), 3);
    // an unusable reply: the deterministic proposals and a warning
    assert!(env["data"]["model_calls"].as_u64().unwrap() >= 1);
    let warnings = env["meta"]["warnings"].as_array().expect("a warning");
    assert!(warnings[0].as_str().unwrap().contains("review failed"));
}

#[test]
fn a_second_concurrent_run_is_a_conflict() {
    let sb = Sandbox::new();
    three(&sb);
    let home = agentbox::home::Home::open(sb.home()).unwrap();
    let held = home.store.try_lock("evolve-run").unwrap().expect("free");
    let error = err_of(&mut evolve(&sb, &[]), "conflict", 1);
    assert_eq!(error["detail"]["lock"], "evolve-run");
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains("another evolve run is in progress")
    );
    let error = err_of(&mut evolve(&sb, &["--dry-run"]), "conflict", 1);
    assert_eq!(error["detail"]["lock"], "evolve-run");
    assert!(run_dirs(&sb).is_empty());
    drop(held);
    ok_data(&mut evolve(&sb, &[]));
}

#[test]
fn two_runs_at_once_never_both_mine() {
    let sb = Sandbox::new();
    // enough episodes that a run takes a moment
    let dir = sb.home().join("memory/episodes/bulk");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 1..=400 {
        let turn = json!({"schema": "agentbox.turn/v1", "seq": 1, "role": "user",
                          "ts": NOW, "content": format!("No, use pnpm instead of npm ({i}).")});
        std::fs::write(
            dir.join(format!("ep-20260115T093000Z-{i}.jsonl")),
            format!("{turn}\n"),
        )
        .unwrap();
    }
    let spawn = || {
        sb.std_command(common::bin())
            .args(["evolve", "run"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let envs: Vec<Value> = outs
        .iter()
        .map(|o| serde_json::from_slice(&o.stdout).unwrap())
        .collect();
    let ok: Vec<&Value> = envs.iter().filter(|e| e["ok"] == true).collect();
    let conflicts = envs
        .iter()
        .filter(|e| e["error"]["type"] == "conflict")
        .count();
    // one ran; the other either found it running, or ran after it and
    // found nothing new
    assert!(!ok.is_empty(), "{envs:?}");
    assert_eq!(ok.len() + conflicts, 2, "{envs:?}");
    let mined: u64 = ok
        .iter()
        .map(|e| e["data"]["episodes"].as_u64().unwrap())
        .sum();
    assert_eq!(mined, 400, "{envs:?}");
    let mut ids: Vec<String> = Vec::new();
    for dir in run_dirs(&sb) {
        let file = json_file(&dir.join("proposals.json"));
        for p in file["proposals"].as_array().unwrap() {
            ids.push(p["id"].as_str().unwrap().to_string());
        }
    }
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "duplicate proposals: {ids:?}");
}

#[test]
fn a_corrupt_state_is_reported_and_left_alone() {
    let sb = Sandbox::new();
    three(&sb);
    let path = sb.home().join("runs/evolve/state.json");
    std::fs::write(
        &path,
        "{\"schema\": \"agentbox.evolve.state/v1\", \"high_water\": 3",
    )
    .unwrap();
    let error = err_of(&mut evolve(&sb, &[]), "invalid_args", 2);
    assert!(
        error["message"].as_str().unwrap().contains("state.json"),
        "{error}"
    );
    assert_eq!(error["detail"]["path"], path.display().to_string());
    assert!(error["detail"]["line"].is_u64());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"schema\": \"agentbox.evolve.state/v1\", \"high_water\": 3"
    );
    assert!(run_dirs(&sb).is_empty());
    std::fs::write(&path, "{\"schema\": \"something/v9\"}").unwrap();
    let error = err_of(&mut evolve(&sb, &[]), "invalid_args", 2);
    assert!(
        error["message"].as_str().unwrap().contains("something/v9"),
        "{error}"
    );
}

#[test]
fn bad_flags_are_invalid_args() {
    let sb = Sandbox::new();
    for args in [
        &["--since", "yesterday"][..],
        &["--since", ""],
        &["--max-seconds=-1"],
        &["--max-seconds", "nan"],
        &["--max-cost-usd=-0.5"],
        &["--max-cost-usd", "inf"],
        &["--max-episodes=-1"],
        &["--max-model-calls", "many"],
        &["--session", "../etc"],
        &["--session", " padded"],
        &["--bogus"],
    ] {
        let (env, code) = envelope(&mut evolve(&sb, args));
        assert_eq!(env["error"]["type"], "invalid_args", "{args:?}: {env}");
        assert_eq!(code, 2, "{args:?}");
    }
    assert!(run_dirs(&sb).is_empty());
    let path = sb.home().join("config.json");
    let mut config = json_file(&path);
    config["evolve"] = json!({"max_cost_usd": -1});
    std::fs::write(&path, config.to_string()).unwrap();
    let error = err_of(&mut evolve(&sb, &[]), "invalid_args", 2);
    assert_eq!(error["detail"]["key"], "evolve.max_cost_usd");
}

#[test]
fn an_empty_home_runs_and_says_so() {
    let sb = Sandbox::new();
    let data = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(data["episodes"], 0);
    assert_eq!(data["batches"], 0);
    assert_eq!(data["high_water"], Value::Null);
    let out = evolve(&sb, &["--format", "text"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("No episodes to mine: none was closed since the last run"),
        "{text}"
    );
}

#[test]
fn a_run_that_finds_only_open_episodes_says_how_to_close_them() {
    let sb = Sandbox::new();
    let record = |args: &[&str]| {
        let mut cmd = sb.agentbox(&[&["track", "record", "--format", "json"][..], args].concat());
        ok_data(&mut cmd);
    };
    record(&[
        "--session",
        "chat",
        "--content",
        "No, use pnpm instead of npm.",
    ]);
    let data = ok_data(&mut evolve(&sb, &["--dry-run"]));
    assert_eq!(
        (data["episodes"].clone(), data["open_episodes"].clone()),
        (json!(0), json!(1))
    );
    let out = evolve(&sb, &["--dry-run", "--format", "text"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("1 episode is still open: an episode is mined once closed, `agentbox track flush --session KEY` closes one"),
        "{text}"
    );
    record(&["--session", "other", "--content", "hello", "--flush"]);
    ok_data(&mut sb.agentbox(&["track", "flush", "--session", "chat", "--format", "json"]));
    let data = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(
        (data["episodes"].clone(), data["open_episodes"].clone()),
        (json!(2), json!(0))
    );
    assert_eq!(data["counts"]["preference"], 1, "{data}");
    let out = evolve(&sb, &["--format", "text"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("still open"), "{text}");
}

/// The miner's state and a run's proposals are the tool's own files: they
/// may outgrow `limits.max_item_bytes` (which caps what users hand in)
/// without stopping the run or `evolve list`.
#[test]
fn state_and_proposals_may_outgrow_the_item_cap() {
    let sb = Sandbox::new();
    three(&sb);
    let path = sb.home().join("config.json");
    let mut config = json_file(&path);
    config["limits"] = json!({"max_item_bytes": 300});
    std::fs::write(&path, config.to_string()).unwrap();
    let data = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(data["proposals"].as_array().unwrap().len(), 3);
    let state_len = std::fs::metadata(sb.home().join("runs/evolve/state.json"))
        .unwrap()
        .len();
    assert!(state_len > 300, "state.json is {state_len} bytes");
    let dir = &run_dirs(&sb)[0];
    assert!(std::fs::metadata(dir.join("proposals.json")).unwrap().len() > 300);
    let listed = ok_data(&mut sb.agentbox(&["evolve", "list"]));
    assert_eq!(listed["proposals"].as_array().unwrap().len(), 3);
    // and a second run still reads the state: nothing new
    let again = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(again["episodes"], 0);
}

/// Ctrl-C during a long run: it stops after the episode in hand, keeps what
/// it mined (state, proposals, the mark), ends its events with `run_failed`
/// (`context_canceled`), exits `cancelled` (130), and the next run resumes.
#[test]
fn an_interrupted_run_keeps_its_work_and_the_next_resumes() {
    let sb = Sandbox::new();
    let dir = sb.home().join("memory/episodes/bulk");
    std::fs::create_dir_all(&dir).unwrap();
    let total = 6000;
    for i in 1..=total {
        let mut text = String::new();
        for seq in 1..=8 {
            let turn = json!({"schema": "agentbox.turn/v1", "seq": seq, "role": "user",
                              "ts": NOW, "content": format!("Always lint package {} first.", i % 7)});
            text.push_str(&format!("{turn}\n"));
        }
        std::fs::write(dir.join(format!("ep-20260115T093000Z-{i}.jsonl")), text).unwrap();
    }
    let child = sb
        .std_command(common::bin())
        .args(["evolve", "run"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // its first batch is recorded (so its writes have landed: from here
    // Ctrl-C stops it softly, and there is work to keep)
    let runs = sb.home().join("runs/evolve");
    let started = std::time::Instant::now();
    let first_batch_done = || {
        std::fs::read_dir(&runs).is_ok_and(|d| {
            d.flatten().any(|e| {
                std::fs::read_to_string(e.path().join("events.jsonl"))
                    .is_ok_and(|t| t.contains("\"iteration_completed\""))
            })
        })
    };
    while !first_batch_done() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the run never mined a batch"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) with a child's pid and SIGINT has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let env: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(130), "{env}");
    assert_eq!(env["error"]["type"], "cancelled", "{env}");
    let run_dir = PathBuf::from(env["meta"]["run_dir"].as_str().unwrap());
    let evs = events(&run_dir);
    let last = evs.last().unwrap();
    assert_eq!(last["type"], "run_failed");
    assert_eq!(last["data"]["error_class"], "context_canceled");
    assert_eq!(json_file(&run_dir.join("run.json"))["status"], "failed");
    let st = state(&sb);
    assert!(st["high_water"].is_object(), "{st}");
    let mined: u64 = evs
        .iter()
        .rev()
        .find(|e| e["type"] == "iteration_completed")
        .map_or(0, |e| e["data"]["episodes"].as_u64().unwrap());
    assert!(
        mined < total,
        "the run finished before the interrupt: {env}"
    );
    // the next run resumes after the mark and mines the rest
    let data = ok_data(&mut evolve(&sb, &[]));
    assert_eq!(data["episodes"].as_u64().unwrap() + mined, total);
}
