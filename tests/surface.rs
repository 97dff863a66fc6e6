//! The CLI surface as snapshots: every `--help` page, and the committed
//! completion scripts (a test fails when they are stale).

mod common;

use common::Sandbox;

fn help(sb: &Sandbox, args: &[&str]) -> String {
    let out = sb.agentbox(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn help_pages() {
    let sb = Sandbox::empty();
    insta::assert_snapshot!("help_agentbox", help(&sb, &["--help"]));
    for cmd in ["init", "link", "doctor", "reindex", "completions"] {
        insta::assert_snapshot!(format!("help_{cmd}"), help(&sb, &[cmd, "--help"]));
    }
    insta::assert_snapshot!("help_plan", help(&sb, &["plan", "--help"]));
    for verb in [
        "create", "show", "list", "step", "add-step", "next", "archive",
    ] {
        insta::assert_snapshot!(
            format!("help_plan_{verb}"),
            help(&sb, &["plan", verb, "--help"])
        );
    }
}

#[test]
fn help_through_the_link_names_the_tool() {
    let sb = Sandbox::new();
    let out = sb.plan(&["--help"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Usage: plan [OPTIONS] <COMMAND>"), "{text}");
    assert_eq!(
        text,
        help(&sb, &["plan", "--help"]).replace("Usage: agentbox plan", "Usage: plan")
    );
}

#[test]
fn every_registered_tool_is_listed_once_in_help() {
    let sb = Sandbox::empty();
    let text = help(&sb, &["--help"]);
    for tool in agentbox::registry::TOOLS
        .iter()
        .chain(agentbox::registry::HOUSEKEEPING)
    {
        let line = format!("  {:<12}", tool.name);
        assert_eq!(text.matches(&line).count(), 1, "{} in\n{text}", tool.name);
        assert!(text.contains(tool.about), "{}", tool.about);
    }
}

#[test]
fn committed_completions_are_up_to_date() {
    let sb = Sandbox::empty();
    for (shell, file) in [
        ("bash", "agentbox.bash"),
        ("zsh", "_agentbox"),
        ("fish", "agentbox.fish"),
        ("elvish", "agentbox.elv"),
        ("powershell", "_agentbox.ps1"),
    ] {
        let out = sb.agentbox(&["completions", shell]).output().unwrap();
        assert!(out.status.success());
        let generated = String::from_utf8(out.stdout).unwrap();
        let committed =
            std::fs::read_to_string(format!("{}/completions/{file}", env!("CARGO_MANIFEST_DIR")))
                .unwrap_or_default();
        assert!(
            generated == committed,
            "completions/{file} is stale: run tools/gen-completions.sh and commit the result"
        );
    }
}

#[test]
fn completions_json_only_when_asked_explicitly() {
    let sb = Sandbox::empty();
    // CI is set, so auto would be json; a completion script is still printed raw
    let out = sb.agentbox(&["completions", "bash"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("_agentbox()"));
    let data = common::ok_data(&mut sb.agentbox(&["completions", "fish", "--format", "json"]));
    assert_eq!(data["shell"], "fish");
    assert!(
        data["script"]
            .as_str()
            .unwrap()
            .contains("complete -c agentbox")
    );
    common::err_of(
        &mut sb.agentbox(&["completions", "tcsh"]),
        "invalid_args",
        2,
    );
}
