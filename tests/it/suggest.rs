//! "Did you mean": realistic typos of tools, verbs, flags, values, man
//! pages and host ids suggest what was meant (or nothing), each in the
//! error envelope with its own type and exit code.

use crate::common;

use common::{Sandbox, err_of};

/// `(arguments to agentbox, error type, exit code, the suggestion or None)`.
const TYPOS: &[(&[&str], &str, i32, Option<&str>)] = &[
    // tools and housekeeping commands
    (&["pln", "list"], "invalid_args", 2, Some("plan")),
    (&["paln", "list"], "invalid_args", 2, Some("plan")),
    (&["plam", "list"], "invalid_args", 2, Some("plan")),
    (&["serach", "x"], "invalid_args", 2, Some("search")),
    (&["modle"], "invalid_args", 2, Some("model")),
    (&["knowlege", "list"], "invalid_args", 2, Some("knowledge")),
    (&["trakc", "list"], "invalid_args", 2, Some("track")),
    (&["doctr"], "invalid_args", 2, Some("doctor")),
    (&["Init"], "invalid_args", 2, Some("init")),
    (&["frobnicate"], "invalid_args", 2, None),
    // verbs
    (
        &["skill_forge", "instal", "x"],
        "invalid_args",
        2,
        Some("install"),
    ),
    (&["sync", "stauts"], "invalid_args", 2, Some("status")),
    (&["plan", "lst"], "invalid_args", 2, Some("list")),
    (&["plan", "craete", "T"], "invalid_args", 2, Some("create")),
    (
        &["knowledge", "serach", "x"],
        "invalid_args",
        2,
        Some("search"),
    ),
    (&["evolve", "aply"], "invalid_args", 2, Some("apply")),
    (&["proactive", "snoze"], "invalid_args", 2, Some("snooze")),
    (&["sync", "remote", "sho"], "invalid_args", 2, Some("show")),
    (&["persona", "hisotry"], "invalid_args", 2, Some("history")),
    (&["plan", "xyzzy"], "invalid_args", 2, None),
    // flags
    (
        &["plan", "list", "--fromat", "text"],
        "invalid_args",
        2,
        Some("--format"),
    ),
    (
        &["plan", "create", "T", "--stpe", "a"],
        "invalid_args",
        2,
        Some("--step"),
    ),
    (
        &["knowledge", "add", "T", "--tga", "x"],
        "invalid_args",
        2,
        Some("--tag"),
    ),
    (
        &["plan", "list", "--quite"],
        "invalid_args",
        2,
        Some("--quiet"),
    ),
    (&["plan", "list", "--zzzzzz"], "invalid_args", 2, None),
    // values of a closed set
    (
        &["search", "x", "--kind", "nope"],
        "invalid_args",
        2,
        Some("note"),
    ),
    (
        &["search", "x", "--kind", "trun"],
        "invalid_args",
        2,
        Some("turn"),
    ),
    (&["completions", "bsah"], "invalid_args", 2, Some("bash")),
    // man pages
    (&["man", "plan-craete"], "not_found", 1, Some("plan-create")),
    (&["man", "knowlege"], "not_found", 1, Some("knowledge")),
    (
        &["man", "agentbox-doctr"],
        "not_found",
        1,
        Some("agentbox-doctor"),
    ),
    (&["man", "nothing-like-it"], "not_found", 1, None),
    // host ids
    (
        &["sync", "hosts", "install", "cladue-code"],
        "plugin_not_detected",
        1,
        Some("claude-code"),
    ),
    (
        &["sync", "hosts", "install", "claud"],
        "plugin_not_detected",
        1,
        Some("claude-code"),
    ),
    (
        &["sync", "hosts", "remove", "gemni"],
        "plugin_not_detected",
        1,
        Some("gemini"),
    ),
    (
        &["sync", "hosts", "install", "emacs"],
        "plugin_not_detected",
        1,
        None,
    ),
];

#[test]
fn typos_suggest_what_was_meant() {
    let sb = Sandbox::new();
    assert!(TYPOS.len() >= 20);
    for (args, kind, code, meant) in TYPOS {
        let mut argv = vec!["--format", "json"];
        argv.extend_from_slice(args);
        let e = err_of(&mut sb.agentbox(&argv), kind, *code);
        let hint = e["hint"].as_str().unwrap();
        match meant {
            Some(meant) => assert!(
                hint.starts_with(&format!("did you mean '{meant}'?")),
                "{args:?}: {e}"
            ),
            None => assert!(!hint.contains("did you mean"), "{args:?}: {e}"),
        }
    }
}

#[test]
fn typos_through_a_link_suggest_the_same() {
    let sb = Sandbox::new();
    let e = err_of(&mut sb.plan(&["lst"]), "invalid_args", 2);
    assert_eq!(e["detail"]["verb"], "lst");
    assert_eq!(
        e["hint"],
        "did you mean 'list'? run `plan --help` for usage"
    );
    let e = err_of(
        &mut sb.plan(&["list", "--fromat", "json"]),
        "invalid_args",
        2,
    );
    assert_eq!(e["detail"]["flag"], "--fromat");
    assert_eq!(
        e["hint"],
        "did you mean '--format'? run `plan list --help` for usage"
    );
}

/// Every tool, command and verb typed exactly runs (its `--help` at least):
/// the suggestions never stand in the way of a valid name.
#[test]
fn exact_names_never_fail() {
    let sb = Sandbox::new();
    agentbox::registry::install();
    let root = agentbox::registry::REGISTRY.root_command();
    for tool in root.get_subcommands() {
        let name = tool.get_name();
        sb.agentbox(&[name, "--help"]).assert().success();
        for verb in tool.get_subcommands() {
            sb.agentbox(&[name, verb.get_name(), "--help"])
                .assert()
                .success();
        }
    }
}
