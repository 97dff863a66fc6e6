//! The text output of every verb as snapshots: stdout, stderr and the exit
//! status of one call together in one snapshot, so a change to any of them
//! shows up in review. Every call runs with `--format text --color never` in
//! a temp home with the fixed clock; the temp folder, the binary's path and
//! durations are replaced by placeholders, so a run is byte-for-byte
//! repeatable.

use crate::common;

use common::Sandbox;
use regex::Regex;
use std::collections::HashSet;
use std::sync::LazyLock;

/// Run ids (`evolve run`): random 128-bit lowercase hex.
static RUN_ID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b[0-9a-f]{32}\b").expect("regex"));

/// Durations a command may print (`12ms`, `1.5 s`, `340µs`).
static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds)\b").expect("regex")
});

/// One sandbox and the snapshot names used in it (each must be unique).
struct Run {
    sb: Sandbox,
    prefix: &'static str,
    names: HashSet<String>,
    /// The fixed clock of the calls (`common::NOW` unless moved with `at`).
    now: String,
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
        }
    }

    /// Moves the fixed clock of the following calls to `instant`, where an
    /// order must not hang on two files' mtimes (equal times tie otherwise).
    fn at(&mut self, instant: &str) {
        self.now = instant.to_string();
    }

    /// Writes `text` to `name` in the project folder (for `--file`-style input).
    fn file(&self, name: &str, text: &str) {
        std::fs::write(self.sb.path().join(name), text).expect("write input file");
    }

    /// `agentbox --format text --color never ARGS…`, its result rendered.
    fn output(&self, args: &[&str]) -> String {
        let mut full = vec!["--format", "text", "--color", "never"];
        full.extend_from_slice(args);
        self.bare_output(&full)
    }

    /// `agentbox ARGS…` (no format or colour flags added), its result rendered.
    fn bare_output(&self, args: &[&str]) -> String {
        let out = self
            .sb
            .agentbox(args)
            .env("NO_COLOR", "1")
            .env("AGENTBOX_NOW", &self.now)
            .output()
            .expect("run agentbox");
        let status = match out.status.code() {
            Some(code) => code.to_string(),
            None => format!("killed ({:?})", out.status),
        };
        let text = format!(
            "$ agentbox {}\nstatus: {status}\n--- stdout\n{}--- stderr\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        normalize(&self.sb, &text)
    }

    /// Snapshots one call as `<prefix>_<label>`.
    #[track_caller]
    fn case(&mut self, label: &str, args: &[&str]) {
        let text = self.output(args);
        self.snapshot(label, text);
    }

    /// Like `case`, without the `--format text --color never` flags.
    #[track_caller]
    fn bare_case(&mut self, label: &str, args: &[&str]) {
        let text = self.bare_output(args);
        self.snapshot(label, text);
    }

    /// A call that sets the scene: it must succeed; its output is not a snapshot.
    #[track_caller]
    fn setup(&self, args: &[&str]) {
        let out = self.output(args);
        assert!(out.contains("\nstatus: 0\n"), "setup call failed:\n{out}");
    }

    /// Sets the modification time of every file of the home's memory to the
    /// fixed clock. Profile facts are dated by their file's mtime; after this
    /// (and a `reindex`) their dates no longer depend on when the test ran.
    fn settle_mtimes(&self) {
        let now = agentbox::clock::Time::parse(common::NOW)
            .expect("NOW")
            .to_system();
        let mut dirs = vec![self.sb.home().join("memory")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("read dir") {
                let path = entry.expect("dir entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    std::fs::File::options()
                        .write(true)
                        .open(&path)
                        .and_then(|f| f.set_modified(now))
                        .expect("set mtime");
                }
            }
        }
    }

    #[track_caller]
    fn snapshot(&mut self, label: &str, text: String) {
        let name = format!("{}_{label}", self.prefix);
        assert!(
            self.names.insert(name.clone()),
            "snapshot name {name} is used twice"
        );
        assert!(
            !text.contains('\x1b'),
            "colour codes in text output with --color never:\n{text}"
        );
        insta::assert_snapshot!(name, text);
    }
}

/// Replaces what differs between runs: the binary's path, the temp folder
/// (as given and canonical), run ids and durations.
fn normalize(sb: &Sandbox, text: &str) -> String {
    let mut text = text.to_string();
    let bin = common::bin();
    let mut bins = vec![bin.display().to_string()];
    if let Ok(canonical) = bin.canonicalize() {
        bins.push(canonical.display().to_string());
    }
    let mut dirs = vec![sb.path().display().to_string()];
    if let Ok(canonical) = sb.path().canonicalize() {
        dirs.push(canonical.display().to_string());
    }
    // Longest first, so a path that contains another is replaced whole.
    for (paths, placeholder) in [(bins, "[BIN]"), (dirs, "[HOME]")] {
        let mut paths = paths;
        paths.sort_by_key(|p| std::cmp::Reverse(p.len()));
        paths.dedup();
        for path in paths {
            text = text.replace(&path, placeholder);
        }
    }
    let text = RUN_ID.replace_all(&text, "[RUN_ID]");
    DURATION.replace_all(&text, "[DURATION]").into_owned()
}

#[test]
fn housekeeping_text() {
    let mut run = Run::in_sandbox("housekeeping", Sandbox::empty());
    run.case("init", &["init"]);
    run.case("init_again", &["init"]);
    run.case("init_nested_refused", &["init", "sub"]);
    run.case("init_nested", &["init", "sub", "--nested"]);
    run.sb.fix_home_id();
    run.case("link", &["link"]);
    std::fs::remove_file(run.sb.home().join("tools").join("track")).expect("remove link");
    run.case("link_repairs", &["link"]);
    run.case("doctor", &["doctor"]);
    run.case("search_empty", &["search", "gofmt"]);

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
        "--role",
        "user",
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
    run.setup(&["knowledge", "profile", "add", "Formats Go with gofmt."]);
    run.settle_mtimes();
    run.case("reindex", &["reindex"]);
    run.case("search", &["search", "gofmt"]);
    run.case("search_kind", &["search", "gofmt", "--kind", "note"]);
    run.case("search_no_match", &["search", "kubernetes"]);

    std::fs::write(
        run.sb.home().join("plans").join("broken.json"),
        "{ not json",
    )
    .expect("write");
    run.case("doctor_with_problems", &["doctor"]);
}

#[test]
fn plan_text() {
    let mut run = Run::new("plan");
    run.case("list_empty", &["plan", "list"]);
    run.case(
        "create",
        &[
            "plan", "create", "Ship v1", "--step", "build", "--step", "test", "--step", "release",
        ],
    );
    run.file(
        "plan.json",
        r#"{"title": "From a file", "steps": ["first", {"text": "second"}]}"#,
    );
    run.at("2026-01-15T09:31:00Z");
    run.case(
        "create_from_file",
        &["plan", "create", "--file", "plan.json"],
    );
    run.at("2026-01-15T09:32:00Z");
    run.file("plan.md", "# From markdown\n\n- [ ] one\n- [x] two\n");
    run.case(
        "create_from_markdown",
        &["plan", "create", "--file", "plan.md"],
    );
    run.case("show", &["plan", "show", "ship-v1"]);
    run.case("show_latest", &["plan", "show"]);
    run.at("2026-01-15T09:40:00Z");
    run.case(
        "step",
        &[
            "plan",
            "step",
            "ship-v1",
            "1",
            "--status",
            "done",
            "--note",
            "green on CI",
        ],
    );
    run.case(
        "step_in_progress",
        &["plan", "step", "ship-v1", "2", "--status", "in_progress"],
    );
    run.case(
        "step_blocked",
        &[
            "plan", "step", "ship-v1", "3", "--status", "blocked", "--note", "waiting",
        ],
    );
    run.case("add_step", &["plan", "add-step", "ship-v1", "announce"]);
    run.case(
        "add_step_after",
        &["plan", "add-step", "ship-v1", "docs", "--after", "1"],
    );
    run.case("next", &["plan", "next", "ship-v1"]);
    run.case("list", &["plan", "list"]);
    run.at("2026-01-15T09:50:00Z");
    run.case("archive", &["plan", "archive", "from-a-file"]);
    run.case("list_after_archive", &["plan", "list"]);
    run.case("list_all", &["plan", "list", "--all"]);
    run.case(
        "quiet",
        &["--quiet", "plan", "add-step", "ship-v1", "quietly"],
    );
}

#[test]
fn track_text() {
    let mut run = Run::new("track");
    run.case("list_empty", &["track", "list"]);
    run.case("stats_empty", &["track", "stats"]);
    run.case(
        "record",
        &[
            "track",
            "record",
            "--role",
            "user",
            "--content",
            "How do I format Go code?",
        ],
    );
    run.case(
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
    );
    run.case(
        "record_redacted",
        &[
            "track",
            "record",
            "--role",
            "user",
            "--content",
            "the token is sk-abcdefghijklmnopqrstuvwx1234",
        ],
    );
    run.file(
        "messages.json",
        r#"{"messages": [
            {"role": "assistant", "content": "Listing.", "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "ls"}}]},
            {"role": "tool", "content": "main.go", "toolCallId": "c1"}
        ]}"#,
    );
    run.case(
        "record_messages",
        &["track", "record", "--messages", "messages.json"],
    );
    run.case("flush", &["track", "flush"]);
    run.case("flush_nothing_open", &["track", "flush"]);
    run.case("list", &["track", "list"]);
    run.case("show", &["track", "show", "ep-20260115T093000Z-k3f9q2-1"]);
    run.case("search", &["track", "search", "format go code"]);
    run.case("search_no_match", &["track", "search", "kubernetes"]);
    run.file(
        "odek.jsonl",
        include_str!("../fixtures/track/odek-batched.jsonl"),
    );
    run.case("import", &["track", "import", "odek.jsonl"]);
    run.case("import_again", &["track", "import", "odek.jsonl"]);
    run.case("list_after_import", &["track", "list"]);
    run.case("stats", &["track", "stats"]);
    run.case(
        "prune_dry_run",
        &["track", "prune", "--older-than", "2d", "--dry-run"],
    );
    run.case("prune", &["track", "prune", "--older-than", "2d"]);
    run.case("prune_nothing", &["track", "prune", "--older-than", "2d"]);
    run.case("list_after_prune", &["track", "list"]);
}

#[test]
fn knowledge_text() {
    let mut run = Run::new("knowledge");
    run.case("list_empty", &["knowledge", "list"]);
    run.case(
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
    );
    run.file(
        "deploys.md",
        "Deploys happen on **Fridays**.\n\n- after the freeze\n",
    );
    run.case(
        "add_from_file",
        &[
            "knowledge",
            "add",
            "Deploys",
            "--file",
            "deploys.md",
            "--link",
            "go-formatting",
        ],
    );
    run.case("list", &["knowledge", "list"]);
    run.case("list_tag", &["knowledge", "list", "--tag", "go"]);
    run.case("show", &["knowledge", "show", "go-formatting"]);
    run.case(
        "edit",
        &[
            "knowledge",
            "edit",
            "go-formatting",
            "--expect-rev",
            "1",
            "--add-tag",
            "style",
            "--body",
            "Run gofmt -l . before committing.",
        ],
    );
    run.case(
        "link_no_change",
        &["knowledge", "link", "deploys", "go-formatting"],
    );
    run.case("link", &["knowledge", "link", "go-formatting", "deploys"]);
    run.case(
        "unlink",
        &["knowledge", "link", "go-formatting", "deploys", "--unlink"],
    );
    run.case("lint_clean", &["knowledge", "lint"]);
    run.case("search", &["knowledge", "search", "how do I format go"]);
    run.case("search_no_match", &["knowledge", "search", "kubernetes"]);
    run.case(
        "add_superseding",
        &[
            "knowledge",
            "add",
            "Go imports",
            "--claim",
            "go.formatter=goimports",
            "--supersede",
        ],
    );
    run.case("rm", &["knowledge", "rm", "go-formatting"]);
    run.case("lint_findings", &["knowledge", "lint"]);

    run.case("profile_list_empty", &["knowledge", "profile", "list"]);
    run.case(
        "profile_add",
        &[
            "knowledge",
            "profile",
            "add",
            "Works on the billing service.",
        ],
    );
    run.case(
        "profile_add_preference",
        &[
            "knowledge",
            "profile",
            "add",
            "Prefers tabs over spaces.",
            "--preference",
        ],
    );
    run.case(
        "profile_add_duplicate",
        &[
            "knowledge",
            "profile",
            "add",
            "works on the billing service",
        ],
    );
    run.case("profile_list", &["knowledge", "profile", "list"]);
    run.case(
        "profile_rm_number",
        &[
            "knowledge",
            "profile",
            "rm",
            "1",
            "--section",
            "preferences",
        ],
    );
    run.case(
        "profile_rm_text",
        &[
            "knowledge",
            "profile",
            "rm",
            "Works on the billing service.",
        ],
    );
    run.case("profile_list_after_rm", &["knowledge", "profile", "list"]);
}

#[test]
fn errors_text() {
    let mut run = Run::new("error");
    run.case("unknown_tool", &["nope"]);
    run.case("unknown_verb", &["plan", "frobnicate"]);
    run.case("unknown_flag", &["plan", "list", "--bogus"]);
    run.case("missing_argument", &["plan", "step", "ship-v1"]);
    run.case(
        "invalid_value",
        &["plan", "step", "ship-v1", "1", "--status", "finished"],
    );
    run.bare_case(
        "invalid_format",
        &["--format", "yaml", "--color", "never", "plan", "list"],
    );
    run.case("invalid_title", &["plan", "create", " ", "--step", "a"]);
    run.case("plan_not_found", &["plan", "show", "missing"]);
    run.case("no_plan_yet", &["plan", "next"]);
    run.setup(&["plan", "create", "Ship v1", "--step", "build"]);
    run.case(
        "plan_id_taken",
        &["plan", "create", "Again", "--id", "ship-v1", "--step", "a"],
    );
    run.case(
        "stale_version",
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
    );
    run.case(
        "step_out_of_range",
        &["plan", "step", "ship-v1", "9", "--status", "done"],
    );
    run.setup(&["plan", "archive", "ship-v1"]);
    run.case(
        "plan_archived",
        &["plan", "step", "ship-v1", "1", "--status", "done"],
    );
    run.case(
        "episode_not_found",
        &["track", "show", "ep-20260101T000000Z-1"],
    );
    run.case(
        "invalid_role",
        &["track", "record", "--role", "robot", "--content", "hi"],
    );
    run.case(
        "invalid_cutoff",
        &["track", "prune", "--older-than", "soon"],
    );
    run.case("import_missing_file", &["track", "import", "missing.jsonl"]);
    run.file(
        "bad.jsonl",
        "{\"schema\":\"odek.event/v1\",\"type\":\"run_started\"\nnot json\n",
    );
    run.case("import_malformed", &["track", "import", "bad.jsonl"]);
    run.case("note_not_found", &["knowledge", "show", "missing"]);
    run.setup(&[
        "knowledge",
        "add",
        "Go formatting",
        "--claim",
        "go.formatter=gofmt",
    ]);
    run.case(
        "stale_rev",
        &[
            "knowledge",
            "edit",
            "go-formatting",
            "--expect-rev",
            "7",
            "--title",
            "Go",
        ],
    );
    run.case(
        "contradiction",
        &[
            "knowledge",
            "add",
            "Go imports",
            "--claim",
            "go.formatter=goimports",
        ],
    );
    run.case(
        "invalid_claim",
        &["knowledge", "add", "T", "--claim", "novalue"],
    );
    run.case("invalid_slug", &["knowledge", "show", "../etc"]);
    run.case(
        "link_to_missing_note",
        &["knowledge", "link", "go-formatting", "missing"],
    );
    run.case("profile_empty_rm", &["knowledge", "profile", "rm", "1"]);
    run.setup(&[
        "knowledge",
        "profile",
        "add",
        "Works on the billing service.",
    ]);
    run.case(
        "profile_rm_number_without_section",
        &["knowledge", "profile", "rm", "1"],
    );
    run.case(
        "profile_rm_missing",
        &["knowledge", "profile", "rm", "No such fact."],
    );
    run.case("search_empty_query", &["search", ""]);

    // No home at all.
    let mut bare = Run::in_sandbox("error", Sandbox::empty());
    bare.case("no_home", &["plan", "list"]);
}

#[test]
fn proactive_text() {
    let mut run = Run::new("proactive");
    // `add` makes a random id: it is replaced by a placeholder.
    let ids = Regex::new(r"\bf-[0-9a-f]{12}\b").expect("regex");
    let random = |run: &mut Run, label: &str, args: &[&str]| {
        let text = ids.replace_all(&run.output(args), "f-[ID]").into_owned();
        run.snapshot(label, text);
    };
    random(
        &mut run,
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
    );
    random(
        &mut run,
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
    );
    // The rest reads a file with known ids.
    let line = |id: &str, text: &str, until: &str, due: Option<&str>, status: &str| {
        let mut v = serde_json::json!({
            "id": id, "text": text, "valid_from": "2026-01-14T00:00:00Z",
            "valid_until": until, "source": "cli", "created": "2026-01-14T00:00:00Z",
            "updated": "2026-01-14T00:00:00Z", "status": status,
        });
        if let Some(due) = due {
            v["due"] = due.into();
        }
        v.to_string()
    };
    let lines = [
        line(
            "f-0a0a0a0a0a01",
            "Send the report to Ana",
            "2026-01-17T17:00:00Z",
            Some("2026-01-17T17:00:00Z"),
            "open",
        ),
        line(
            "f-0a0a0a0a0a02",
            "Call the bank",
            "2026-01-15T18:00:00Z",
            None,
            "open",
        ),
        line(
            "f-0a0a0a0a0a03",
            "Read the RFC",
            "2026-01-29T00:00:00Z",
            None,
            "open",
        ),
        line(
            "f-0a0a0a0a0a04",
            "Old news",
            "2026-01-14T12:00:00Z",
            None,
            "open",
        ),
    ];
    std::fs::write(
        run.sb.home().join("memory").join("foresight.jsonl"),
        lines.join("\n") + "\n",
    )
    .expect("write foresight");
    run.case("list", &["proactive", "list"]);
    run.case("due", &["proactive", "due", "--within", "3d"]);
    run.case(
        "snooze",
        &[
            "proactive",
            "snooze",
            "0a0a0a0a0a03",
            "--until",
            "2026-01-20T09:00:00Z",
        ],
    );
    run.case("done", &["proactive", "done", "f-0a0a0a0a0a01"]);
    run.case("dismiss_unknown", &["proactive", "dismiss", "f-ffff"]);
    run.case("list_all", &["proactive", "list", "--all"]);
    run.case("scan", &["proactive", "scan"]);
    let mut empty = Run::new("proactive_empty");
    empty.case("list", &["proactive", "list"]);
    empty.case("scan", &["proactive", "scan"]);
}

/// `evolve list/show/apply/reject` on proposals written straight into a run
/// folder (as `evolve run` writes them).
#[test]
fn evolve_text() {
    use agentbox::tools::evolve::{
        Evidence, Kind, KnowledgePayload, Payload, PreferencePayload, Proposal, ProposalsFile,
        SkillPayload, Status, proposal_id,
    };
    let mut run = Run::new("evolve");
    run.case("list_empty", &["evolve", "list"]);
    let run_id = "0123456789abcdef0123456789abcdef";
    let proposal =
        |kind: Kind, key: &str, title: &str, confidence: f64, payload: Payload| Proposal {
            id: proposal_id(kind, key),
            kind,
            key: key.into(),
            title: title.into(),
            confidence,
            evidence: (1..=2)
                .map(|i| Evidence {
                    session: "default".into(),
                    episode: format!("ep-20260110T09000{i}Z-1"),
                    turn: format!("ep-20260110T09000{i}Z-1#{}", i + 1),
                    excerpt: format!("no, use pnpm (episode {i})"),
                })
                .collect(),
            status: Status::Pending,
            run_id: run_id.into(),
            created: "2026-01-14T08:00:00Z".into(),
            updated: None,
            reason: None,
            applied: None,
            payload,
        };
    let skill = proposal(
        Kind::Skill,
        "bash>bash",
        "Repeated: bash → bash (build, then deploy the docs)",
        0.86,
        Payload::Skill(SkillPayload {
            steps: vec!["bash".into(), "bash".into()],
            episode: "ep-20260110T090001Z-1".into(),
            name: "deploy-docs".into(),
            description: "Use when asked to deploy the docs".into(),
            skill_md: Some(
                "---\nname: deploy-docs\ndescription: Use when asked to deploy the docs\n---\n\n\
                 # Deploy Docs\n\n## Steps\n\n1. Call `bash` with `make docs`.\n2. Call `bash` with `make deploy`.\n"
                    .into(),
            ),
            screen: Some(serde_json::json!({"verdict": "pass", "findings": 0})),
        }),
    );
    let pref = proposal(
        Kind::Preference,
        "use pnpm",
        "Use pnpm, not npm",
        0.9,
        Payload::Preference(PreferencePayload {
            section: "preferences".into(),
            fact: "Use pnpm, not npm".into(),
        }),
    );
    let note = proposal(
        Kind::Knowledge,
        "etimedout",
        "npm install times out in CI",
        0.7,
        Payload::Knowledge(KnowledgePayload {
            slug: "npm-install-times-out".into(),
            title: "npm install times out in CI".into(),
            tags: vec!["ci".into()],
            body: "`npm install` failed with ETIMEDOUT twice; `--prefer-offline` fixed it.\n"
                .into(),
        }),
    );
    let dir = run.sb.home().join("runs/evolve").join(run_id);
    std::fs::create_dir_all(&dir).expect("run folder");
    let file = ProposalsFile {
        schema: "agentbox.evolve.proposals/v1".into(),
        run_id: run_id.into(),
        proposals: vec![skill.clone(), pref.clone(), note.clone()],
    };
    std::fs::write(
        dir.join("proposals.json"),
        serde_json::to_string_pretty(&file).expect("json"),
    )
    .expect("write proposals");
    let record = serde_json::json!({"schema": "agentbox.evolve.run/v1", "run_id": run_id,
        "started": "2026-01-14T08:00:00Z", "finished": "2026-01-14T08:00:02Z",
        "status": "completed", "options": {},
        "counts": {"episodes": 40, "batches": 1, "proposals": 3, "model_calls": 0, "cost_usd": 0.0},
        "high_water_before": null, "high_water_after": null});
    std::fs::write(dir.join("run.json"), record.to_string()).expect("write run.json");

    run.case("list", &["evolve", "list"]);
    run.case("show_skill", &["evolve", "show", &skill.id]);
    run.case("show_preference", &["evolve", "show", &pref.id]);
    run.case("show_knowledge", &["evolve", "show", &note.id]);
    run.case("show_run", &["evolve", "show", run_id]);
    run.case("apply", &["evolve", "apply", &pref.id, &skill.id]);
    run.case(
        "reject",
        &["evolve", "reject", &note.id, "--reason", "one-off outage"],
    );
    run.case("list_applied", &["evolve", "list", "--status", "applied"]);
    run.case(
        "list_pending_none",
        &["evolve", "list", "--status", "pending"],
    );
    run.case("apply_again", &["evolve", "apply", &pref.id]);
    run.case("show_unknown", &["evolve", "show", "p-000000000000"]);
}

#[test]
fn persona_text() {
    let mut run = Run::new("persona");
    run.case("list_empty", &["persona", "list"]);
    run.file("ada.md", "You are Ada.\n\nBe kind and precise.\n");
    run.case(
        "create",
        &[
            "persona",
            "create",
            "ada",
            "--trait",
            "tone=warm",
            "--trait",
            "verbosity=concise",
            "--trait",
            "language=en-GB",
            "--text",
            "ada.md",
        ],
    );
    run.setup(&[
        "persona",
        "create",
        "reviewer",
        "--from",
        "ada",
        "--trait",
        "tone=blunt",
    ]);
    run.case("list", &["persona", "list"]);
    run.at("2026-01-15T10:00:00Z");
    run.case(
        "set",
        &[
            "persona",
            "set",
            "humor=dry",
            "reply_style=bullets",
            "--expect-rev",
            "1",
        ],
    );
    run.case(
        "set_stale",
        &["persona", "set", "tone=grim", "--expect-rev", "1"],
    );
    run.case("unset", &["persona", "unset", "ada", "humor", "emoji"]);
    run.case("show", &["persona", "show"]);
    run.case("render", &["persona", "render"]);
    run.case("revert", &["persona", "revert", "ada", "1"]);
    run.case("history", &["persona", "history", "ada"]);
    run.case("use", &["persona", "use", "reviewer"]);
    run.case("show_missing", &["persona", "show", "nobody"]);
}

#[test]
fn evolve_run_text() {
    let mut run = Run::new("evolve");
    run.case("run_empty", &["evolve", "run"]);
    for content in ["No, use pnpm instead of npm.", "Never force-push to main."] {
        run.setup(&["track", "record", "--role", "user", "--content", content]);
        run.setup(&["track", "flush"]);
    }
    run.case("run_dry", &["evolve", "run", "--dry-run"]);
    run.case(
        "run_episode_budget",
        &["evolve", "run", "--max-episodes", "1"],
    );
    run.case("run_resumes", &["evolve", "run"]);
    run.case("run_nothing_new", &["evolve", "run"]);
    run.case("run_bad_since", &["evolve", "run", "--since", "yesterday"]);
    run.case(
        "run_negative_seconds",
        &["evolve", "run", "--max-seconds=-1"],
    );
}

/// `sync` in text: not set up, init against a bare remote, status with a
/// changed file, now, remote, a refused URL. Commit ids are placeholders.
#[test]
fn sync_text() {
    let sb = Sandbox::new();
    let remote = sb.path().join("remote.git");
    git2::Repository::init_bare(&remote).expect("bare remote");
    let url = format!("file://{}", remote.display());
    let oids = Regex::new(r"\b[0-9a-f]{7,40}\b").expect("regex");
    let mut names = HashSet::new();
    let mut case = |sb: &Sandbox, label: &str, args: &[&str]| {
        let mut full = vec!["--format", "text", "--color", "never"];
        full.extend_from_slice(args);
        let out = sb
            .agentbox(&full)
            .env("NO_COLOR", "1")
            .env("HOME", sb.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("run agentbox");
        let text = format!(
            "$ agentbox {}\nstatus: {}\n--- stdout\n{}--- stderr\n{}",
            full.join(" "),
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        let text = normalize(sb, &text);
        let text = oids.replace_all(&text, "[OID]").into_owned();
        assert!(
            names.insert(label.to_string()),
            "duplicate snapshot {label}"
        );
        insta::assert_snapshot!(format!("sync_{label}"), text);
    };
    case(&sb, "status_not_set_up", &["sync", "status"]);
    case(&sb, "init", &["sync", "init", "--remote", &url]);
    case(&sb, "remote", &["sync", "remote"]);
    case(
        &sb,
        "remote_ssh",
        &["sync", "remote", "set", "git@example.com:me/memory.git"],
    );
    sb.agentbox(&["plan", "create", "Ship v1", "--step", "build"])
        .assert()
        .success();
    case(&sb, "status_dirty", &["sync", "status"]);
    case(&sb, "now", &["sync", "now"]);
    case(&sb, "status_clean", &["sync", "status"]);
    // A remote that is not there yet: the error says what is set up; once
    // it exists, the same command finishes; another remote is refused.
    let other = Sandbox::new();
    let later = other.path().join("later.git");
    let later_url = format!("file://{}", later.display());
    case(
        &other,
        "init_unreached",
        &["sync", "init", "--remote", &later_url],
    );
    case(
        &other,
        "init_other_remote",
        &["sync", "init", "--remote", "file:///srv/git/other.git"],
    );
    git2::Repository::init_bare(&later).expect("bare remote");
    case(
        &other,
        "init_finished",
        &["sync", "init", "--remote", &later_url],
    );
}

/// Text from a hand-edited file (here a note) that carries terminal escape
/// sequences (OSC, CSI, BEL), C1 controls or bidi overrides reaches the
/// terminal shown escaped, in every text-mode line; the program's own colour
/// codes still work; json keeps the text intact and escaped.
#[test]
fn control_characters_from_stored_text_are_shown_escaped() {
    let sb = Sandbox::new();
    let body = "before\x1b]0;pwned\x07after \u{202e}evil\u{2066} \u{9b}2J \x1b[31mred\rover\x7f";
    let out = sb
        .agentbox(&["knowledge", "add", "Note", "--body", body])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let raw = |text: &str| {
        text.chars()
            .filter(|&c| {
                (c.is_control() && c != '\n' && c != '\t')
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            })
            .collect::<String>()
    };
    // an error message quoting the input
    let out = sb
        .agentbox(&[
            "--format",
            "text",
            "knowledge",
            "add",
            "N",
            "--tag",
            "t\x1b]0;x\x07",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(raw(&stderr), "", "{stderr:?}");
    let escaped =
        r"before\x1b]0;pwned\x07after \u{202e}evil\u{2066} \u{9b}2J \x1b[31mred\x0dover\x7f";
    for args in [
        &["knowledge", "show", "note"][..],
        &["knowledge", "list"],
        &["search", "before"],
    ] {
        for color in ["never", "always"] {
            let mut full = vec!["--format", "text", "--color", color];
            full.extend_from_slice(args);
            let out = sb.agentbox(&full).output().unwrap();
            let stdout = String::from_utf8(out.stdout).unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert!(out.status.success(), "{args:?}: {stderr}");
            // with colour on, the SGR codes agentbox paints with pass (an
            // injected one too: it can only colour text); nothing else does
            let mut seen = stdout.clone();
            if color == "always" {
                for code in ["0", "1", "2", "31", "32", "33", "36"] {
                    seen = seen.replace(&format!("\x1b[{code}m"), "");
                }
            }
            let seen = raw(&seen);
            assert_eq!(seen, "", "{args:?} --color {color}: {stdout:?}");
            assert_eq!(raw(&stderr), "", "{args:?}: {stderr:?}");
            if color == "never" && args[1] == "show" {
                assert!(stdout.contains(escaped), "{args:?}: {stdout}");
            }
            if args[0] == "search" {
                assert!(stdout.contains(r"\x1b]0;pwned\x07"), "{stdout}");
            }
            if color == "always" && args[0] == "search" {
                // agentbox's own colours are kept
                assert!(stdout.contains("\x1b[1mnote:note\x1b[0m"), "{stdout:?}");
            }
        }
    }
    // json: the exact text back, every control character escaped by JSON
    let out = sb
        .agentbox(&["knowledge", "show", "note", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(raw(&stdout), "", "{stdout:?}");
    let env: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(env["data"]["body"].as_str().unwrap().trim_end(), body);
}
