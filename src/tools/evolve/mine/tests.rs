use super::*;
use crate::tools::track::episodes::ToolCall;
use serde_json::{Map, Value, json};

fn turn(ep: &str, seq: u64, role: &str, content: &str) -> Turn {
    Turn {
        schema: "agentbox.turn/v1".to_string(),
        id: format!("{ep}#{seq}"),
        session: "s".to_string(),
        episode: ep.to_string(),
        seq,
        ts: "2026-01-15T09:30:00Z".to_string(),
        role: role.to_string(),
        content: content.to_string(),
        tool_calls: Vec::new(),
        tool_call_id: None,
        source: "cli".to_string(),
        meta: Map::new(),
    }
}

/// An episode: a user task, then one assistant turn per call (each answered
/// by an ok tool turn).
fn episode(ep: &str, task: &str, tools: &[&str]) -> Vec<Turn> {
    let mut turns = vec![turn(ep, 1, "user", task)];
    for (i, name) in tools.iter().enumerate() {
        let seq = turns.len() as u64 + 1;
        let mut call = turn(ep, seq, "assistant", "");
        call.tool_calls.push(ToolCall {
            id: format!("c{i}"),
            name: name.to_string(),
            arguments: json!({"n": i}),
        });
        turns.push(call);
        let mut result = turn(ep, seq + 1, "tool", "ok");
        result.tool_call_id = Some(format!("c{i}"));
        turns.push(result);
    }
    turns
}

fn feed(miner: &mut Miner, ep: &str, turns: &[Turn]) {
    miner.feed(
        &EpisodeRef {
            session: "s",
            id: ep,
        },
        turns,
    );
}

fn keys(cands: &[Candidate]) -> Vec<&str> {
    cands.iter().map(|c| c.key.as_str()).collect()
}

#[test]
fn corrections_normalize() {
    let cases: &[(&str, &[&str])] = &[
        ("no, use pnpm", &["Use pnpm"]),
        ("No — use pnpm instead of npm", &["Use pnpm instead of npm"]),
        ("don't commit to main", &["Don't commit to main"]),
        ("Never force-push.", &["Never force-push"]),
        (
            "always run the tests first!",
            &["Always run the tests first"],
        ),
        ("I prefer tabs", &["Prefers tabs"]),
        (
            "I’d prefer British spelling.",
            &["Prefers British spelling"],
        ),
        (
            "please use httpx instead of requests",
            &["Use httpx instead of requests"],
        ),
        (
            "stop using console.log for debugging",
            &["Don't use console.log for debugging"],
        ),
        (
            "You should always add a changelog entry.",
            &["Always add a changelog entry"],
        ),
        (
            "Do not edit generated files, please.",
            &["Don't edit generated files"],
        ),
        (
            "No. Use UTC timestamps everywhere.",
            &["Use UTC timestamps everywhere"],
        ),
        (
            "Ok, never ever run migrations on prod",
            &["Never run migrations on prod"],
        ),
        ("- don’t push on Fridays", &["Don't push on Fridays"]),
        (
            "Looks good. Don't commit to main; always open a PR.",
            &["Don't commit to main", "Always open a PR"],
        ),
    ];
    for (text, want) in cases {
        assert_eq!(parse_correction(text), *want, "{text:?}");
    }
}

#[test]
fn corrections_skip_near_misses() {
    for text in [
        "no, that's fine",
        "No problem!",
        "don't worry about it",
        "I don't know",
        "I'm always happy to help",
        "Always happy to help.",
        "should I always run the tests?",
        "Why don't you use pnpm?",
        "never mind",
        "no thanks",
        "don't do that",
        "stop it",
        "stop here",
        "use the staging database",
        "Use ripgrep to find the callers",
        "```\ndon't commit to main\n```",
        "> never force-push",
        "",
        "no",
    ] {
        assert_eq!(parse_correction(text), Vec::<String>::new(), "{text:?}");
    }
}

#[test]
fn error_lines_and_signatures() {
    assert_eq!(error_line("all good\nexit code 0"), None);
    assert_eq!(error_line("line 1\nline 2: error: not really"), None);
    assert_eq!(
        error_line("error: could not compile `app`\nmore").as_deref(),
        Some("error: could not compile `app`")
    );
    assert_eq!(
        error_line("Traceback (most recent call last):\n  File \"x.py\", line 1\nModuleNotFoundError: No module named 'yaml'\n").as_deref(),
        Some("ModuleNotFoundError: No module named 'yaml'")
    );
    assert_eq!(
        error_line("running 3 tests\nfailures: 1\nprocess exited with code 101").as_deref(),
        Some("running 3 tests")
    );
    assert!(error_line("bash: pnpm: command not found").is_some());
    assert!(error_line("open /etc/x: Permission denied").is_some());
    assert!(error_line("Process finished with exit status 2").is_some());
    assert_eq!(
        normalize_error_line(
            "Error: Cannot find module '/home/me/app/x.js' (line 42, id 550e8400-e29b-41d4-a716-446655440000, commit deadbeef1)"
        ),
        "error: cannot find module '<path>' (line #, id #, commit #)"
    );
    assert_eq!(
        normalize_error_line("error[E0308]: mismatched types at src/main.rs:12:5"),
        "error[e0308]: mismatched types at <path>"
    );
    assert_eq!(
        normalize_error_line("fetch https://example.test/a?b=1 failed"),
        "fetch <url> failed"
    );
    assert!(normalize_error_line(&"x ".repeat(500)).chars().count() <= failures::MAX_SIGNATURE);
}

#[test]
fn skill_names_are_valid() {
    assert_eq!(
        sequences::skill_name(&["git_status", "cargo_test", "git_commit"]),
        "git-status-cargo-test-git-commit"
    );
    let long = [
        "kubernetes_get_deployment_status",
        "kubernetes_rollout_restart_deployment",
        "http_health_check_with_retries",
        "slack_post_message_to_channel",
        "pagerduty_resolve_incident_now",
        "write_postmortem_note",
    ];
    let name = sequences::skill_name(&long);
    assert!(name.len() <= 64 && crate::slug::is_slug(&name), "{name}");
    assert!(name.starts_with("kubernetes"), "{name}");
    let odd = sequences::skill_name(&["Ünïcode Tool!", "???", "x"]);
    assert!(odd.len() <= 64 && crate::slug::is_slug(&odd), "{odd}");
    let d = sequences::description(&["a", "b", "c"], 4, "fix the build");
    assert_eq!(
        d,
        "Runs a, then b, then c. Use when a task like \"fix the build\" comes up (seen in 4 episodes)."
    );
}

#[test]
fn sequences_need_three_episodes_and_only_maximal_ones_are_proposed() {
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    let planted = ["git_status", "cargo_test", "cargo_fmt", "git_commit"];
    for (i, extra) in ["ls", "cat", "grep"].iter().enumerate() {
        let ep = format!("ep-20260101T000000Z-{}", i + 1);
        let mut tools = vec![*extra];
        tools.extend(planted);
        feed(&mut miner, &ep, &episode(&ep, "commit the work", &tools));
        if i < 2 {
            assert!(miner.ready().is_empty(), "not yet at 3 episodes");
        }
    }
    let found = miner.ready();
    assert_eq!(
        keys(&found),
        ["seq:git_status > cargo_test > cargo_fmt > git_commit"]
    );
    let Payload::Skill(skill) = &found[0].payload else {
        panic!("not a skill")
    };
    assert_eq!(skill.name, "git-status-cargo-test-cargo-fmt-git-commit");
    assert_eq!(skill.episode, "ep-20260101T000000Z-1");
    assert_eq!(found[0].evidence.len(), 3);
    assert!(
        found[0].evidence[0]
            .turn
            .starts_with("ep-20260101T000000Z-1#")
    );
    // A sub-sequence proposed on its own once it has support of its own.
    let ep = "ep-20260101T000000Z-9";
    feed(
        &mut miner,
        ep,
        &episode(ep, "t", &["git_status", "cargo_test", "cargo_fmt", "ls"]),
    );
    assert_eq!(
        keys(&miner.ready()),
        ["seq:git_status > cargo_test > cargo_fmt"]
    );
    // Degenerate sequences are never proposed.
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    for i in 1..=4 {
        let ep = format!("ep-20260101T000000Z-{i}");
        feed(
            &mut miner,
            &ep,
            &episode(&ep, "t", &["read", "read", "read", "read"]),
        );
    }
    assert!(miner.ready().is_empty());
}

#[test]
fn clearest_example_is_the_shortest_then_earliest_episode() {
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    let steps = ["a", "b", "c"];
    let eps = [
        ("ep-20260103T000000Z-1", vec!["x", "a", "b", "c"]),
        ("ep-20260102T000000Z-2", vec!["a", "b", "c"]),
        ("ep-20260102T000000Z-10", vec!["a", "b", "c"]),
    ];
    for (ep, tools) in &eps {
        feed(&mut miner, ep, &episode(ep, "t", tools));
    }
    let found = miner.ready();
    let skill = found
        .iter()
        .find_map(|c| match &c.payload {
            Payload::Skill(s) if s.steps == steps => Some(s),
            _ => None,
        })
        .expect("a > b > c");
    assert_eq!(skill.episode, "ep-20260102T000000Z-2");
}

#[test]
fn feeding_an_episode_twice_counts_once() {
    let tools = ["a", "b", "c"];
    let one = episode("ep-20260101T000000Z-1", "t", &tools);
    let two = episode("ep-20260101T000000Z-2", "t", &tools);
    // In one lifetime.
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    for _ in 0..3 {
        feed(&mut miner, "ep-20260101T000000Z-1", &one);
        feed(&mut miner, "ep-20260101T000000Z-2", &two);
    }
    assert!(miner.ready().is_empty());
    // Across runs (a re-run with --since feeds them again).
    let state = miner.into_state();
    let mut miner = Miner::new(state, &Profile::default());
    feed(&mut miner, "ep-20260101T000000Z-1", &one);
    feed(&mut miner, "ep-20260101T000000Z-2", &two);
    assert!(miner.ready().is_empty());
    let mut miner = Miner::new(miner.into_state(), &Profile::default());
    let three = episode("ep-20260101T000000Z-3", "t", &tools);
    feed(&mut miner, "ep-20260101T000000Z-3", &three);
    assert_eq!(keys(&miner.ready()), ["seq:a > b > c"]);
    // Failures count distinct turns: the same failed turn twice is one.
    let mut failing = vec![turn("ep-x", 1, "user", "go")];
    let mut t = turn("ep-x", 2, "tool", "fatal: not a git repository");
    t.tool_calls.push(ToolCall {
        id: "c1".into(),
        name: "git".into(),
        arguments: Value::Null,
    });
    failing.push(t);
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    feed(&mut miner, "ep-x", &failing);
    let state = miner.into_state();
    let mut miner = Miner::new(state, &Profile::default());
    feed(&mut miner, "ep-x", &failing);
    assert!(miner.ready().is_empty());
}

#[test]
fn counts_carry_over_between_runs_and_keys_come_once() {
    let tools = ["a", "b", "c"];
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    for i in 1..=2 {
        let ep = format!("ep-20260101T000000Z-{i}");
        feed(&mut miner, &ep, &episode(&ep, "t", &tools));
    }
    assert!(miner.ready().is_empty());
    let json = serde_json::to_string(&miner.into_state()).unwrap();
    let state: MinerState = serde_json::from_str(&json).unwrap();
    let mut miner = Miner::new(state, &Profile::default());
    let ep = "ep-20260101T000000Z-3";
    feed(&mut miner, ep, &episode(ep, "t", &tools));
    assert_eq!(keys(&miner.ready()), ["seq:a > b > c"]);
    let ep = "ep-20260101T000000Z-4";
    feed(&mut miner, ep, &episode(ep, "t", &tools));
    assert!(miner.ready().is_empty(), "proposed once per lifetime");
    let mut miner = Miner::new(miner.into_state(), &Profile::default());
    let ep = "ep-20260101T000000Z-5";
    feed(&mut miner, ep, &episode(ep, "t", &tools));
    assert!(miner.ready().is_empty(), "and not again in a later run");
}

#[test]
fn state_round_trips_through_json_sorted() {
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    let mut turns = episode(
        "ep-20260101T000000Z-1",
        "no, use pnpm",
        &["a", "b", "c", "d"],
    );
    let mut failed = turn("ep-20260101T000000Z-1", 99, "tool", "Error: boom 42");
    failed.tool_call_id = Some("c1".into());
    turns.push(failed);
    feed(&mut miner, "ep-20260101T000000Z-1", &turns);
    let _ = miner.ready();
    let state = miner.into_state();
    let json = serde_json::to_string(&state).unwrap();
    let back: MinerState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    assert_eq!(serde_json::to_string(&back).unwrap(), json, "stable output");
    let value: Value = serde_json::from_str(&json).unwrap();
    let seqs: Vec<&String> = value["seqs"].as_object().unwrap().keys().collect();
    let mut sorted = seqs.clone();
    sorted.sort();
    assert_eq!(seqs, sorted);
    assert_eq!(value["prefs"].as_object().unwrap().len(), 1);
    assert!(
        value["fails"]["fail:b: error: boom #"].is_object(),
        "{json}"
    );
    // An empty or old state reads as empty.
    let empty: MinerState = serde_json::from_str("{}").unwrap();
    assert!(empty.is_empty());
}

#[test]
fn state_stays_under_its_cap_and_keeps_due_keys() {
    let mut miner = Miner::new(MinerState::with_max_keys(100), &Profile::default());
    // The planted sequence reaches 2 episodes early …
    for i in 1..=2 {
        let ep = format!("ep-20260101T000000Z-{i}");
        feed(&mut miner, &ep, &episode(&ep, "t", &["p", "q", "r"]));
    }
    // … then a flood of one-off sequences.
    for i in 3..200 {
        let ep = format!("ep-20260101T000000Z-{i}");
        let names: Vec<String> = (0..5).map(|k| format!("t{i}x{k}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        feed(&mut miner, &ep, &episode(&ep, "t", &names));
        assert!(miner.state().keys() <= 100, "{}", miner.state().keys());
        if i == 150 {
            // Seen again: it is recent, so it survived as long as it was.
        }
    }
    assert!(miner.ready().is_empty());
    // Evicted: the old partial count is gone, the pattern starts over.
    let ep = "ep-20260101T000000Z-500";
    feed(&mut miner, ep, &episode(ep, "t", &["p", "q", "r"]));
    assert!(miner.ready().is_empty());
    // Due and proposed keys outlive partial ones.
    let mut miner = Miner::new(MinerState::with_max_keys(50), &Profile::default());
    for i in 1..=3 {
        let ep = format!("ep-20260102T000000Z-{i}");
        feed(&mut miner, &ep, &episode(&ep, "t", &["p", "q", "r"]));
    }
    assert_eq!(keys(&miner.ready()), ["seq:p > q > r"]);
    for i in 10..100 {
        let ep = format!("ep-20260102T000000Z-{i}");
        let names: Vec<String> = (0..4).map(|k| format!("u{i}x{k}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        feed(&mut miner, &ep, &episode(&ep, "t", &names));
    }
    let state = miner.into_state();
    assert!(state.keys() <= 50);
    assert!(state.seqs.get("seq:p > q > r").is_some_and(|e| e.done));
}

#[test]
fn preferences_skip_what_the_profile_has_and_assistant_turns() {
    let profile = Profile {
        preferences: vec!["Prefers pnpm over npm.".to_string()],
        facts: vec!["Never force-push".to_string()],
    };
    let mut miner = Miner::new(MinerState::default(), &profile);
    let ep = "ep-20260101T000000Z-1";
    let turns = vec![
        turn(
            ep,
            1,
            "user",
            "Use pnpm instead of npm. never force-push! Don't commit to main.",
        ),
        turn(ep, 2, "assistant", "Always run the tests first."),
    ];
    feed(&mut miner, ep, &turns);
    let found = miner.ready();
    assert_eq!(keys(&found), ["pref:don't commit to main"]);
    assert_eq!(found[0].evidence[0].turn, format!("{ep}#1"));
    let Payload::Preference(p) = &found[0].payload else {
        panic!("not a preference")
    };
    assert_eq!(
        (p.section.as_str(), p.fact.as_str()),
        ("preferences", "Don't commit to main")
    );
}

#[test]
fn failures_recur_with_the_fix_that_followed() {
    let mut miner = Miner::new(MinerState::default(), &Profile::default());
    for (i, path) in ["/home/a/x.js", "/srv/b/y.js"].iter().enumerate() {
        let ep = format!("ep-20260101T000000Z-{}", i + 1);
        let mut turns = episode(&ep, "build it", &["npm_build"]);
        turns[2].content = format!("Error: Cannot find module '{path}'");
        let mut said = turn(
            &ep,
            4,
            "assistant",
            "The module is missing; installing it first.",
        );
        said.tool_calls.push(ToolCall {
            id: "c9".into(),
            name: "npm_build".into(),
            arguments: json!({"install": true}),
        });
        let mut ok = turn(&ep, 5, "tool", "built");
        ok.tool_call_id = Some("c9".into());
        turns.push(said);
        turns.push(ok);
        feed(&mut miner, &ep, &turns);
    }
    let found = miner.ready();
    assert_eq!(
        keys(&found),
        ["fail:npm_build: error: cannot find module '<path>'"]
    );
    let c = &found[0];
    assert_eq!(c.evidence.len(), 2);
    let Payload::Knowledge(k) = &c.payload else {
        panic!("not knowledge")
    };
    assert_eq!(k.slug, "failure-npm-build-error-cannot-find-module");
    assert!(crate::slug::is_slug(&k.slug));
    assert_eq!(k.tags, ["evolve", "failure", "npm_build"]);
    assert!(k.body.contains("{\"install\":true}"), "{}", k.body);
    assert!(k.body.contains("installing it first"), "{}", k.body);
    assert!(k.title.starts_with("Recurring failure: npm_build — "));
}

#[test]
fn evidence_turn_ids_survive_the_compact_form() {
    let standard = Seen::new("s", "ep-1", "ep-1#7", String::new());
    assert_eq!(standard.t, "#7");
    assert_eq!(standard.turn(), "ep-1#7");
    for odd in ["other#7", "ep-10#7", "ep-1", "x"] {
        let seen = Seen::new("s", "ep-1", odd, String::new());
        assert_eq!(seen.turn(), odd);
    }
}

#[test]
fn plain_drops_escape_sequences_and_control_characters() {
    use super::plain;
    assert_eq!(plain("no escapes"), "no escapes");
    assert_eq!(plain("\u{1b}[1;31merror:\u{1b}[0m x"), "error: x");
    assert_eq!(plain("a\u{1b}]0;title\u{7}b"), "ab");
    assert_eq!(
        plain("a\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\b"),
        "alinkb"
    );
    assert_eq!(plain("a\u{1b}(Bb\u{1b}"), "ab");
    assert_eq!(plain("a\u{1b}7b\u{1b}"), "ab");
    assert_eq!(plain("line\r\nnext\tcol\u{0}"), "line \nnext\tcol ");
    // unterminated sequences end the text, never panic
    assert_eq!(plain("x\u{1b}[12"), "x");
    assert_eq!(plain("x\u{1b}]0;never ends"), "x");
}
