//! The JSON envelope of every verb as snapshots: what agents parse, pinned
//! the way `text_output.rs` pins what people read. Each tool runs a table of
//! calls — (snapshot name, arguments, stdin) — in one temp home with the
//! fixed clock (`AGENTBOX_NOW`) and the fixed home id, and each call's exit
//! status, envelope and stderr are one snapshot: successes and the main
//! errors (not_found, invalid_args, conflict where the verb has one).
//!
//! Only what legitimately differs between runs is replaced: the temp folder
//! and the binary's path, ids drawn at random (proactive items, evolve runs,
//! model sessions and requests) and git commit ids, each by a numbered
//! placeholder (`[F1]`, `[RUN1]`, `[OID1]`…) so that which call returned
//! which id stays visible; and numbers under keys that measure time taken
//! (`*_ms`). A later call may name a placeholder in its arguments (`[F1]`):
//! it is given the real id.

use crate::common;

use common::Sandbox;
use regex::Regex;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// One call: the snapshot's name, the arguments after `agentbox --format
/// json`, and what it reads on stdin (if anything).
type Case = (&'static str, &'static [&'static str], Option<&'static str>);

/// Ids that are drawn at random or hash a clock, each with the stem of its
/// placeholder. Longer patterns first: a 40-hex commit id must not be read
/// as a 32-hex run id.
static RANDOM_IDS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    [
        (r"\bf-[0-9a-f]{12}\b", "F"),
        (
            r"\bses_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
            "SES",
        ),
        (
            r"\breq_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
            "REQ",
        ),
        (r"\b[0-9a-f]{40}\b", "OID"),
        (r"\b[0-9a-f]{32}\b", "RUN"),
    ]
    .into_iter()
    .map(|(re, stem)| (Regex::new(re).expect("regex"), stem))
    .collect()
});

/// A home, the calls made in it so far and the placeholders they minted.
struct Run {
    sb: Sandbox,
    prefix: &'static str,
    names: HashSet<String>,
    now: String,
    /// Extra environment of every call (sync's `HOME`, `PATH`).
    env: Vec<(String, String)>,
    /// Real id → placeholder, and the count per stem.
    ids: BTreeMap<String, String>,
    counts: BTreeMap<&'static str, usize>,
    /// Placeholder → real id, for arguments; also holds names given with `var`.
    vars: BTreeMap<String, String>,
}

impl Run {
    /// A project with `agentbox init` already run.
    fn new(prefix: &'static str) -> Run {
        Run::in_sandbox(prefix, Sandbox::new())
    }

    fn in_sandbox(prefix: &'static str, sb: Sandbox) -> Run {
        Run {
            sb,
            prefix,
            names: HashSet::new(),
            now: common::NOW.to_string(),
            env: Vec::new(),
            ids: BTreeMap::new(),
            counts: BTreeMap::new(),
            vars: BTreeMap::new(),
        }
    }

    /// Moves the fixed clock of the following calls, where an order must
    /// not hang on two equal times.
    fn at(&mut self, instant: &str) {
        self.now = instant.to_string();
    }

    /// Sets an environment variable for every following call.
    fn env(&mut self, key: &str, value: impl AsRef<Path>) {
        let value = value.as_ref().display().to_string();
        self.env.push((key.to_string(), value));
    }

    /// Lets later arguments name `value` as `token` (a deterministic id that
    /// the snapshots show as it is).
    fn var(&mut self, token: &str, value: &str) {
        self.vars.insert(token.to_string(), value.to_string());
    }

    /// Writes `text` to `name` (folders made) in the project folder.
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.sb.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write input file");
        path
    }

    /// Runs `agentbox --format json ARGS…`: its exit status, stdout parsed
    /// as JSON (or kept as text when it is not) and stderr, normalised.
    fn call(&mut self, args: &[&str], stdin: Option<&str>) -> Value {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                self.vars
                    .iter()
                    .fold(a.to_string(), |a, (token, real)| a.replace(token, real))
            })
            .collect();
        let mut cmd = self.sb.agentbox(&["--format", "json"]);
        cmd.args(&args).env("AGENTBOX_NOW", &self.now);
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd.write_stdin(stdin.unwrap_or(""));
        let out = cmd.output().expect("run agentbox");
        let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
        assert!(
            stdout.is_empty() || stdout.matches('\n').count() == 1,
            "one line of JSON expected: {stdout:?}"
        );
        let stdout = serde_json::from_str(stdout.trim_end()).unwrap_or(Value::String(stdout));
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let mut call = json!({
            "args": args.join(" "),
            "status": out.status.code(),
            "stdout": stdout,
            "stderr": stderr,
        });
        self.normalize(&mut call, "");
        call
    }

    /// Runs the table in order, each call one snapshot `<prefix>_<name>`.
    #[track_caller]
    fn cases(&mut self, cases: &[Case]) {
        for &(name, args, stdin) in cases {
            let call = self.call(args, stdin);
            let name = format!("{}_{name}", self.prefix);
            assert!(
                self.names.insert(name.clone()),
                "snapshot name {name} is used twice"
            );
            let text = serde_json::to_string_pretty(&call).expect("json");
            insta::assert_snapshot!(name, text);
        }
    }

    /// A call that sets the scene: it must succeed; returns its `data`.
    #[track_caller]
    fn setup(&mut self, args: &[&str]) -> Value {
        let call = self.call(args, None);
        assert_eq!(call["status"], 0, "setup call failed: {call:#}");
        call["stdout"]["data"].clone()
    }

    /// Replaces the temp folder, the binary's path and random ids in every
    /// string, and durations under `*_ms` keys.
    fn normalize(&mut self, value: &mut Value, key: &str) {
        match value {
            Value::String(s) => *s = self.normalize_text(s),
            Value::Number(_) if key == "seconds" || key.ends_with("_ms") => {
                *value = json!("[DURATION]")
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.normalize(v, key)),
            Value::Object(map) => {
                let old = std::mem::take(map);
                let mut new = Map::new();
                for (k, mut v) in old {
                    self.normalize(&mut v, &k);
                    new.insert(self.normalize_text(&k), v);
                }
                *map = new;
            }
            _ => {}
        }
    }

    fn normalize_text(&mut self, text: &str) -> String {
        let bin = common::bin();
        let mut paths = vec![(bin.display().to_string(), "[BIN]")];
        if let Ok(canonical) = bin.canonicalize() {
            paths.push((canonical.display().to_string(), "[BIN]"));
        }
        paths.push((self.sb.path().display().to_string(), "[HOME]"));
        if let Ok(canonical) = self.sb.path().canonicalize() {
            paths.push((canonical.display().to_string(), "[HOME]"));
        }
        // Longest first, so a path that contains another is replaced whole.
        paths.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        let mut text = text.to_string();
        for (path, placeholder) in paths {
            text = text.replace(&path, placeholder);
        }
        for (re, stem) in RANDOM_IDS.iter() {
            let found: Vec<String> = re.find_iter(&text).map(|m| m.as_str().into()).collect();
            for real in found {
                // An all-zero id is one a test wrote (a missing item), not drawn.
                let digits = real.rsplit(['-', '_']).next().unwrap_or(&real);
                if digits.chars().all(|c| c == '0') {
                    continue;
                }
                let token = self.ids.entry(real.clone()).or_insert_with(|| {
                    let n = self.counts.entry(stem).or_default();
                    *n += 1;
                    format!("[{stem}{n}]")
                });
                self.vars.insert(token.clone(), real.clone());
                text = text.replace(&real, token);
            }
        }
        text
    }
}

#[test]
fn housekeeping_json() {
    let mut run = Run::in_sandbox("housekeeping", Sandbox::empty());
    run.cases(&[
        ("no_home", &["plan", "list"], None),
        ("init", &["init"], None),
        ("init_again", &["init"], None),
        ("init_nested_refused", &["init", "sub"], None),
        ("init_nested", &["init", "sub", "--nested"], None),
    ]);
    run.sb.fix_home_id();
    std::fs::remove_file(run.sb.home().join("tools").join("track")).expect("remove link");
    run.cases(&[
        ("link_repairs", &["link"], None),
        ("link", &["link"], None),
        ("doctor", &["doctor"], None),
        ("search_empty_home", &["search", "gofmt"], None),
        ("unknown_tool", &["nope"], None),
        ("unknown_verb", &["plan", "frobnicate"], None),
        ("unknown_flag", &["plan", "list", "--bogus"], None),
    ]);
    run.setup(&[
        "plan",
        "create",
        "Format the Go code",
        "--step",
        "run gofmt",
    ]);
    run.setup(&[
        "track",
        "record",
        "--content",
        "How do I format Go code with gofmt?",
    ]);
    run.setup(&[
        "knowledge",
        "add",
        "Go formatting",
        "--body",
        "Run gofmt before committing.",
        "--tag",
        "go",
    ]);
    run.cases(&[
        ("reindex", &["reindex"], None),
        ("search", &["search", "gofmt"], None),
        ("search_kind", &["search", "gofmt", "--kind", "note"], None),
        ("search_no_match", &["search", "kubernetes"], None),
        ("search_empty_query", &["search", ""], None),
        (
            "search_unknown_kind",
            &["search", "gofmt", "--kind", "nope"],
            None,
        ),
    ]);
    run.file(".agent/plans/broken.json", "{ not json");
    run.cases(&[("doctor_with_problems", &["doctor"], None)]);
}

#[test]
fn plan_json() {
    let mut run = Run::new("plan");
    run.cases(&[
        ("list_empty", &["plan", "list"], None),
        ("next_no_plan", &["plan", "next"], None),
        (
            "create",
            &[
                "plan", "create", "Ship v1", "--step", "build", "--step", "test",
            ],
            None,
        ),
    ]);
    run.at("2026-01-15T09:31:00Z");
    run.cases(&[
        (
            "create_from_stdin",
            &["plan", "create", "--file", "-"],
            Some(r#"{"title": "From stdin", "steps": ["first", {"text": "second"}]}"#),
        ),
        ("show", &["plan", "show", "ship-v1"], None),
        ("show_latest", &["plan", "show"], None),
        ("list", &["plan", "list"], None),
    ]);
    run.at("2026-01-15T09:40:00Z");
    run.cases(&[
        (
            "step",
            &[
                "plan", "step", "ship-v1", "1", "--status", "done", "--note", "green",
            ],
            None,
        ),
        (
            "add_step_after",
            &["plan", "add-step", "ship-v1", "docs", "--after", "1"],
            None,
        ),
        ("next", &["plan", "next", "ship-v1"], None),
        ("archive", &["plan", "archive", "from-stdin"], None),
        ("list_all", &["plan", "list", "--all"], None),
        ("show_not_found", &["plan", "show", "missing"], None),
        (
            "create_blank_title",
            &["plan", "create", " ", "--step", "a"],
            None,
        ),
        (
            "create_id_taken",
            &["plan", "create", "Again", "--id", "ship-v1", "--step", "a"],
            None,
        ),
        (
            "step_invalid_status",
            &["plan", "step", "ship-v1", "1", "--status", "finished"],
            None,
        ),
        (
            "step_out_of_range",
            &["plan", "step", "ship-v1", "9", "--status", "done"],
            None,
        ),
        (
            "step_stale_version",
            &[
                "plan",
                "step",
                "ship-v1",
                "1",
                "--status",
                "done",
                "--expect-version",
                "9",
            ],
            None,
        ),
        (
            "step_archived",
            &["plan", "step", "from-stdin", "1", "--status", "done"],
            None,
        ),
    ]);
}

#[test]
fn track_json() {
    let mut run = Run::new("track");
    run.file(
        "odek.jsonl",
        include_str!("../fixtures/track/odek-batched.jsonl"),
    );
    run.cases(&[
        ("list_empty", &["track", "list"], None),
        ("stats_empty", &["track", "stats"], None),
        (
            "record",
            &["track", "record", "--role", "user", "--content", "How do I format Go code?"],
            None,
        ),
        (
            "record_session",
            &[
                "track",
                "record",
                "--role",
                "assistant",
                "--content",
                "Run gofmt before committing.",
                "--session",
                "s1",
            ],
            None,
        ),
        (
            "record_redacted",
            &[
                "track",
                "record",
                "--content",
                "the token is sk-abcdefghijklmnopqrstuvwx1234",
            ],
            None,
        ),
        (
            "record_messages_stdin",
            &["track", "record", "--messages", "-"],
            Some(
                r#"{"messages": [
                {"role": "assistant", "content": "Listing.", "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "ls"}}]},
                {"role": "tool", "content": "main.go", "toolCallId": "c1"}
            ]}"#,
            ),
        ),
        ("flush", &["track", "flush"], None),
        ("flush_nothing_open", &["track", "flush"], None),
        ("list", &["track", "list"], None),
        ("show", &["track", "show", "ep-20260115T093000Z-k3f9q2-1"], None),
        ("search", &["track", "search", "format go code"], None),
        ("import", &["track", "import", "odek.jsonl"], None),
        ("import_again", &["track", "import", "odek.jsonl"], None),
        ("stats", &["track", "stats"], None),
        (
            "prune_dry_run",
            &["track", "prune", "--older-than", "2d", "--dry-run"],
            None,
        ),
        ("prune", &["track", "prune", "--older-than", "2d"], None),
        ("show_not_found", &["track", "show", "ep-20260101T000000Z-1"], None),
        (
            "record_invalid_role",
            &["track", "record", "--role", "robot", "--content", "hi"],
            None,
        ),
        (
            "prune_invalid_cutoff",
            &["track", "prune", "--older-than", "soon"],
            None,
        ),
        (
            "import_missing_file",
            &["track", "import", "missing.jsonl"],
            None,
        ),
    ]);
}

#[test]
fn knowledge_json() {
    let mut run = Run::new("knowledge");
    run.cases(&[
        ("list_empty", &["knowledge", "list"], None),
        (
            "add",
            &[
                "knowledge",
                "add",
                "Go formatting",
                "--body",
                "Use gofmt.",
                "--tag",
                "go",
                "--source",
                "https://go.dev/doc/effective_go",
                "--claim",
                "go.formatter=gofmt",
            ],
            None,
        ),
        (
            "add_from_stdin",
            &[
                "knowledge",
                "add",
                "Deploys",
                "--file",
                "-",
                "--link",
                "go-formatting",
            ],
            Some("Deploys happen on **Fridays**.\n"),
        ),
        ("show", &["knowledge", "show", "go-formatting"], None),
        ("list_tag", &["knowledge", "list", "--tag", "go"], None),
        (
            "edit",
            &[
                "knowledge",
                "edit",
                "go-formatting",
                "--expect-version",
                "1",
                "--add-tag",
                "style",
            ],
            None,
        ),
        (
            "link",
            &["knowledge", "link", "go-formatting", "deploys"],
            None,
        ),
        (
            "unlink",
            &["knowledge", "link", "go-formatting", "deploys", "--unlink"],
            None,
        ),
        (
            "search",
            &["knowledge", "search", "how do I format go"],
            None,
        ),
        ("lint", &["knowledge", "lint"], None),
        ("show_not_found", &["knowledge", "show", "missing"], None),
        ("show_invalid_slug", &["knowledge", "show", "../etc"], None),
        (
            "edit_stale",
            &[
                "knowledge",
                "edit",
                "go-formatting",
                "--expect-version",
                "7",
                "--title",
                "Go",
            ],
            None,
        ),
        (
            "edit_without_expect_version",
            &["knowledge", "edit", "go-formatting", "--title", "Go"],
            None,
        ),
        (
            "add_contradiction",
            &[
                "knowledge",
                "add",
                "Go imports",
                "--claim",
                "go.formatter=goimports",
            ],
            None,
        ),
        (
            "add_invalid_claim",
            &["knowledge", "add", "T", "--claim", "novalue"],
            None,
        ),
        (
            "link_to_missing_note",
            &["knowledge", "link", "go-formatting", "missing"],
            None,
        ),
        ("rm", &["knowledge", "rm", "deploys"], None),
        ("rm_not_found", &["knowledge", "rm", "deploys"], None),
        (
            "profile_list_empty",
            &["knowledge", "profile", "list"],
            None,
        ),
        (
            "profile_add",
            &[
                "knowledge",
                "profile",
                "add",
                "Works on the billing service.",
            ],
            None,
        ),
        (
            "profile_add_preference",
            &[
                "knowledge",
                "profile",
                "add",
                "Prefers tabs.",
                "--preference",
            ],
            None,
        ),
        ("profile_list", &["knowledge", "profile", "list"], None),
        (
            "profile_rm_number_without_section",
            &["knowledge", "profile", "rm", "1"],
            None,
        ),
        (
            "profile_rm",
            &[
                "knowledge",
                "profile",
                "rm",
                "1",
                "--section",
                "preferences",
            ],
            None,
        ),
        (
            "profile_rm_missing",
            &["knowledge", "profile", "rm", "No such fact."],
            None,
        ),
    ]);
}

#[test]
fn skill_forge_json() {
    let mut run = Run::new("skill_forge");
    run.setup(&["track", "record", "--content", "Deploy the docs site"]);
    run.setup(&[
        "track",
        "record",
        "--role",
        "assistant",
        "--content",
        "Built and deployed the docs.",
        "--flush",
    ]);
    run.file(
        "incoming/notes/SKILL.md",
        "---\nname: notes\ndescription: Use when asked to keep notes of a meeting.\n---\n\n\
         # Notes\n\nWrite the decisions first, then the open questions.\n",
    );
    run.cases(&[
        ("list_empty", &["skill_forge", "list"], None),
        (
            "new",
            &[
                "skill_forge",
                "new",
                "pdf-forms",
                "--description",
                "Fill PDF forms.",
            ],
            None,
        ),
        ("list", &["skill_forge", "list"], None),
        ("show", &["skill_forge", "show", "pdf-forms"], None),
        ("lint", &["skill_forge", "lint"], None),
        ("screen", &["skill_forge", "screen", "pdf-forms"], None),
        (
            "from_episode",
            &[
                "skill_forge",
                "from-episode",
                "ep-20260115T093000Z-k3f9q2-1",
                "--name",
                "deploy-docs",
            ],
            None,
        ),
        (
            "install",
            &["skill_forge", "install", "incoming/notes"],
            None,
        ),
        ("rm", &["skill_forge", "rm", "notes"], None),
        ("show_not_found", &["skill_forge", "show", "missing"], None),
        (
            "new_invalid_name",
            &["skill_forge", "new", "Bad Name", "--description", "x"],
            None,
        ),
        (
            "new_exists",
            &["skill_forge", "new", "pdf-forms", "--description", "Again."],
            None,
        ),
        (
            "install_missing_folder",
            &["skill_forge", "install", "incoming/none"],
            None,
        ),
        (
            "from_episode_not_found",
            &["skill_forge", "from-episode", "ep-20260101T000000Z-1"],
            None,
        ),
    ]);
}

#[test]
fn evolve_json() {
    let mut run = Run::new("evolve");
    run.cases(&[
        ("list_empty", &["evolve", "list"], None),
        ("run_empty", &["evolve", "run"], None),
    ]);
    for content in ["No, use pnpm instead of npm.", "Never force-push to main."] {
        run.setup(&["track", "record", "--content", content, "--flush"]);
    }
    run.cases(&[
        ("run_dry", &["evolve", "run", "--dry-run"], None),
        ("run", &["evolve", "run"], None),
        ("run_nothing_new", &["evolve", "run"], None),
        ("list", &["evolve", "list"], None),
    ]);
    let list = run.setup(&["evolve", "list"]);
    let ids: Vec<String> = list["proposals"]
        .as_array()
        .expect("proposals")
        .iter()
        .map(|p| p["id"].as_str().expect("an id").to_string())
        .collect();
    assert!(ids.len() >= 2, "two proposals expected: {list}");
    run.var("[P1]", &ids[0]);
    run.var("[P2]", &ids[1]);
    run.cases(&[
        ("show_run", &["evolve", "show", "[RUN2]"], None),
        ("show", &["evolve", "show", "[P1]"], None),
        ("apply", &["evolve", "apply", "[P1]"], None),
        (
            "reject",
            &["evolve", "reject", "[P2]", "--reason", "one-off"],
            None,
        ),
        (
            "list_applied",
            &["evolve", "list", "--status", "applied"],
            None,
        ),
        ("apply_again", &["evolve", "apply", "[P1]"], None),
        (
            "show_not_found",
            &["evolve", "show", "p-000000000000"],
            None,
        ),
        (
            "reject_not_found",
            &["evolve", "reject", "p-000000000000"],
            None,
        ),
        (
            "run_bad_since",
            &["evolve", "run", "--since", "yesterday"],
            None,
        ),
        (
            "run_negative_seconds",
            &["evolve", "run", "--max-seconds=-1"],
            None,
        ),
    ]);
}

#[test]
fn persona_json() {
    let mut run = Run::new("persona");
    run.cases(&[
        ("list_empty", &["persona", "list"], None),
        ("show_none", &["persona", "show"], None),
        (
            "create",
            &[
                "persona",
                "create",
                "ada",
                "--trait",
                "tone=warm",
                "--trait",
                "language=en-GB",
                "--text",
                "-",
            ],
            Some("You are Ada.\n\nBe kind and precise.\n"),
        ),
        (
            "create_from",
            &[
                "persona",
                "create",
                "reviewer",
                "--from",
                "ada",
                "--trait",
                "tone=blunt",
            ],
            None,
        ),
        ("list", &["persona", "list"], None),
    ]);
    run.at("2026-01-15T10:00:00Z");
    run.cases(&[
        (
            "set",
            &["persona", "set", "humor=dry", "--expect-version", "1"],
            None,
        ),
        ("unset", &["persona", "unset", "ada", "humor"], None),
        ("show", &["persona", "show"], None),
        ("render", &["persona", "render"], None),
        ("history", &["persona", "history", "ada"], None),
        ("revert", &["persona", "revert", "ada", "1"], None),
        ("use", &["persona", "use", "reviewer"], None),
        ("show_not_found", &["persona", "show", "nobody"], None),
        ("use_not_found", &["persona", "use", "nobody"], None),
        (
            "set_stale",
            &[
                "persona",
                "set",
                "ada",
                "tone=grim",
                "--expect-version",
                "1",
            ],
            None,
        ),
        ("create_exists", &["persona", "create", "ada"], None),
        (
            "create_invalid_name",
            &["persona", "create", "Ada Lovelace"],
            None,
        ),
        ("set_invalid_trait", &["persona", "set", "ada", "=x"], None),
        (
            "revert_no_such_rev",
            &["persona", "revert", "ada", "99"],
            None,
        ),
    ]);
}

#[test]
fn proactive_json() {
    let mut run = Run::new("proactive");
    run.setup(&[
        "track",
        "record",
        "--content",
        "I will send the report to Ana by Friday.",
        "--flush",
    ]);
    run.cases(&[
        ("list_empty", &["proactive", "list"], None),
        (
            "add",
            &[
                "proactive",
                "add",
                "Send the report to Ana",
                "--due",
                "2026-01-16T17:00:00Z",
                "--tag",
                "work",
            ],
            None,
        ),
        (
            "add_window",
            &[
                "proactive",
                "add",
                "Read the RFC",
                "--from",
                "2026-01-15T00:00:00Z",
                "--until",
                "2026-01-29T00:00:00Z",
            ],
            None,
        ),
        ("add_third", &["proactive", "add", "Call the bank"], None),
        ("list", &["proactive", "list"], None),
        ("due", &["proactive", "due"], None),
        (
            "snooze",
            &[
                "proactive",
                "snooze",
                "[F2]",
                "--until",
                "2026-01-20T09:00:00Z",
            ],
            None,
        ),
        ("done", &["proactive", "done", "[F1]"], None),
        ("dismiss", &["proactive", "dismiss", "[F3]"], None),
        ("list_after", &["proactive", "list"], None),
        ("scan", &["proactive", "scan"], None),
        ("extract", &["proactive", "extract"], None),
        ("extract_nothing_new", &["proactive", "extract"], None),
        (
            "add_bad_window",
            &[
                "proactive",
                "add",
                "x",
                "--from",
                "2026-01-20T00:00:00Z",
                "--until",
                "2026-01-19T00:00:00Z",
            ],
            None,
        ),
        (
            "add_bad_when",
            &["proactive", "add", "x", "--due", "someday"],
            None,
        ),
        (
            "done_not_found",
            &["proactive", "done", "f-000000000000"],
            None,
        ),
        ("done_again", &["proactive", "done", "[F1]"], None),
        (
            "snooze_not_found",
            &[
                "proactive",
                "snooze",
                "f-000000000000",
                "--until",
                "tomorrow",
            ],
            None,
        ),
        (
            "extract_bad_since",
            &["proactive", "extract", "--since", "soon"],
            None,
        ),
    ]);
}

/// `sync` against a bare remote in the project folder, with `$HOME` the
/// project folder and an empty `PATH` (no host agent is detected by chance).
#[test]
fn sync_json() {
    let mut run = Run::new("sync");
    let remote = run.sb.path().join("remote.git");
    git2::Repository::init_bare(&remote).expect("bare remote");
    let empty = run.sb.path().join("empty-path");
    std::fs::create_dir(&empty).expect("mkdir");
    let home = run.sb.path().to_path_buf();
    run.env("HOME", &home);
    run.env("GIT_CONFIG_NOSYSTEM", "1");
    run.env("PATH", &empty);
    run.var("[REMOTE]", &format!("file://{}", remote.display()));
    run.cases(&[
        ("status_not_set_up", &["sync", "status"], None),
        ("push_not_set_up", &["sync", "push"], None),
        ("init", &["sync", "init", "--remote", "[REMOTE]"], None),
        ("init_again", &["sync", "init"], None),
        (
            "init_other_remote",
            &["sync", "init", "--remote", "file:///srv/git/other.git"],
            None,
        ),
        ("remote", &["sync", "remote"], None),
        ("remote_show", &["sync", "remote", "show"], None),
    ]);
    run.setup(&["plan", "create", "Ship v1", "--step", "build"]);
    run.cases(&[
        ("status_dirty", &["sync", "status"], None),
        ("push", &["sync", "push"], None),
        ("pull", &["sync", "pull"], None),
        ("now", &["sync", "now"], None),
        ("status_clean", &["sync", "status"], None),
        ("abort_nothing", &["sync", "abort"], None),
        (
            "remote_set_credentials",
            &[
                "sync",
                "remote",
                "set",
                "https://me:secret@example.com/memory.git",
            ],
            None,
        ),
        (
            "remote_set_unsupported",
            &["sync", "remote", "set", "ftp://example.com/memory.git"],
            None,
        ),
        ("remote_rm", &["sync", "remote", "rm"], None),
        ("push_no_remote", &["sync", "push"], None),
        ("hosts", &["sync", "hosts"], None),
        (
            "hosts_install_not_detected",
            &["sync", "hosts", "install", "claude-code"],
            None,
        ),
        (
            "hosts_install_unknown",
            &["sync", "hosts", "install", "nope"],
            None,
        ),
    ]);
    // Claude Code is detected by its folder under `$HOME`.
    std::fs::create_dir(run.sb.path().join(".claude")).expect("mkdir ~/.claude");
    run.cases(&[
        (
            "hosts_install",
            &["sync", "hosts", "install", "claude-code"],
            None,
        ),
        ("hosts_list", &["sync", "hosts", "list"], None),
        (
            "hosts_remove",
            &["sync", "hosts", "remove", "claude-code"],
            None,
        ),
    ]);
}

/// `sync init --remote` whose remote is not there (yet): the error says
/// what is set up; once the remote exists the same command finishes.
#[test]
fn sync_unreached_json() {
    let mut run = Run::new("sync_unreached");
    let remote = run.sb.path().join("later.git");
    let home = run.sb.path().to_path_buf();
    run.env("HOME", &home);
    run.env("GIT_CONFIG_NOSYSTEM", "1");
    run.var("[REMOTE]", &format!("file://{}", remote.display()));
    run.cases(&[
        ("init", &["sync", "init", "--remote", "[REMOTE]"], None),
        (
            "init_again",
            &["sync", "init", "--remote", "[REMOTE]"],
            None,
        ),
    ]);
    git2::Repository::init_bare(&remote).expect("bare remote");
    run.cases(&[(
        "init_finished",
        &["sync", "init", "--remote", "[REMOTE]"],
        None,
    )]);
}

/// `model` against the fake runtime of tests/it/model.rs.
#[test]
fn model_json() {
    let mut run = Run::new("model");
    run.cases(&[
        ("check_no_route", &["model", "check"], None),
        ("ask_no_route", &["model", "ask", "hi"], None),
    ]);
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_oda.py");
    let config = run.sb.home().join("config.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&config).expect("config")).expect("json");
    value["model"] = json!({
        "command": "python3",
        "args": [fake.display().to_string(), "ok"],
        "provider": "anthropic",
        "model": "claude-sonnet",
        "timeout_seconds": 20,
    });
    std::fs::write(&config, value.to_string()).expect("write config");
    run.cases(&[
        ("check", &["model", "check"], None),
        ("ask", &["model", "ask", "What is the answer?"], None),
        (
            "ask_stdin",
            &["model", "ask", "-"],
            Some("What is the answer?\n"),
        ),
        (
            "ask_missing_image",
            &["model", "ask", "Look", "--image", "missing.png"],
            None,
        ),
        ("ask_empty", &["model", "ask", ""], None),
    ]);
}
