//! The CLI surface as snapshots: every `--help` page, and the committed
//! completion scripts (a test fails when they are stale).

mod common;

use common::Sandbox;

fn help(sb: &Sandbox, args: &[&str]) -> String {
    let out = sb.agentbox(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Every command path of the registry's tree: `[]`, `["plan"]`, `["plan", "create"]` …
fn command_paths(cmd: &clap::Command, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    for sub in cmd.get_subcommands() {
        let mut path = prefix.clone();
        path.push(sub.get_name().to_string());
        command_paths(sub, path, out);
    }
}

/// The whole CLI reference as snapshots: any change to the surface shows up in review.
#[test]
fn help_pages() {
    let sb = Sandbox::empty();
    let mut paths = Vec::new();
    command_paths(&agentbox::registry::root_command(), Vec::new(), &mut paths);
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        let name = if args.is_empty() {
            "help_agentbox".to_string()
        } else {
            format!("help_{}", args.join("_"))
        };
        args.push("--help");
        insta::assert_snapshot!(name, help(&sb, &args));
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
