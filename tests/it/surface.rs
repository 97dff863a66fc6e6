//! The CLI surface as snapshots: every `--help` page, and the committed
//! completion scripts (a test fails when they are stale).

use crate::common;

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
    agentbox::registry::install();
    command_paths(
        &agentbox::registry::REGISTRY.root_command(),
        Vec::new(),
        &mut paths,
    );
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

/// Every command and verb shows how it is used: its `--help` ends with an
/// "Examples:" section of calls under its own name, so a new verb without
/// one fails here.
#[test]
fn every_command_has_examples() {
    agentbox::registry::install();
    let mut paths = Vec::new();
    command_paths(
        &agentbox::registry::REGISTRY.root_command(),
        Vec::new(),
        &mut paths,
    );
    let registry = &agentbox::registry::REGISTRY;
    let mut missing = Vec::new();
    for path in &paths {
        let mut cmd = registry.root_command();
        for word in path {
            cmd = cmd.find_subcommand(word).unwrap().clone();
        }
        let after = cmd
            .get_after_long_help()
            .or(cmd.get_after_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let Some((_, examples)) = after.split_once("Examples:\n") else {
            missing.push(path.join(" "));
            continue;
        };
        // Each example is a call of this command: under agentbox (a
        // housekeeping command), its tool's name, or a link.
        let name = match path.first() {
            Some(first) if registry.find_command(first).is_some() => "agentbox".to_string(),
            Some(first) => first.clone(),
            None => "agentbox".to_string(),
        };
        let calls: Vec<&str> = examples
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert!(!calls.is_empty(), "{path:?} has an empty Examples section");
        let rest = path.get(1..).unwrap_or_default().join(" ");
        assert!(
            calls.iter().any(|c| c.contains(&name) && c.contains(&rest)),
            "no example of `{}` calls it: {calls:?}",
            path.join(" ")
        );
    }
    assert!(
        missing.is_empty(),
        "no Examples: section in --help of {missing:?}"
    );
}

/// The long help adds to the one-line about; it never says it again.
#[test]
fn no_help_repeats_its_first_sentence() {
    let sb = Sandbox::empty();
    agentbox::registry::install();
    let mut paths = Vec::new();
    command_paths(
        &agentbox::registry::REGISTRY.root_command(),
        Vec::new(),
        &mut paths,
    );
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let text = help(&sb, &args);
        let mut paragraphs = text.split("\n\n");
        let about = paragraphs.next().unwrap();
        // The about without its closing parenthesis: `Serve … hosts`.
        let about = about.split(" (").next().unwrap().trim_end_matches('.');
        let next = paragraphs.next().unwrap_or_default();
        // The same sentence again (then `:`, `.` …), not one that goes on
        // to say more (`Create an agent home in DIR/.agent`).
        let again = next
            .strip_prefix(about)
            .is_some_and(|rest| rest.starts_with([':', '.', ',', ';']) || rest.starts_with(" ("));
        assert!(!again, "{path:?} says {about:?} twice:\n{text}");
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
    let registry = &agentbox::registry::REGISTRY;
    for tool in registry.tools().chain(registry.commands()) {
        let line = format!("  {:<12}", tool.name);
        assert_eq!(text.matches(&line).count(), 1, "{} in\n{text}", tool.name);
        // One about per command: the doc comment of its clap struct, shown
        // the same in `agentbox --help` and in the command's own help.
        let about = (tool.command)()
            .get_about()
            .expect("every command has an about")
            .to_string();
        assert!(
            text.contains(&format!("{line}{about}")) || text.contains(&about),
            "{about}"
        );
        let own = help(&sb, &[tool.name, "--help"]);
        assert!(
            own.starts_with(&about),
            "{} --help starts with {about:?}:\n{own}",
            tool.name
        );
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
fn completions_cover_every_tool_name() {
    let sb = Sandbox::empty();
    let script = |shell: &str| {
        String::from_utf8(
            sb.agentbox(&["completions", shell])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap()
    };
    let (bash, fish, zsh) = (script("bash"), script("fish"), script("zsh"));
    // The file in fpath registers every name (`completions.rs` runs it in zsh).
    let compdef: Vec<&str> = zsh.lines().next().unwrap().split(' ').collect();
    assert_eq!(compdef[..2], ["#compdef", "agentbox"]);
    for tool in agentbox::registry::REGISTRY.tools() {
        let name = tool.name;
        assert!(compdef.contains(&name), "#compdef names {name}");
        assert!(
            bash.contains(&format!("_{name}()")),
            "bash function for {name}"
        );
        assert!(
            bash.contains(&format!(".agent/tools/{name} ./.agent/tools/{name}")),
            "bash completes the link path of {name}"
        );
        assert!(
            fish.contains(&format!("complete -c {name} ")),
            "fish completes {name}"
        );
    }
}

/// Man pages are generated from the same clap commands and committed in
/// man/; a stale page fails here like a stale completion script.
#[test]
fn committed_man_pages_are_up_to_date() {
    let sb = Sandbox::empty();
    agentbox::registry::install();
    let pages = agentbox::commands::man::pages(&agentbox::registry::REGISTRY);
    assert!(pages.iter().any(|(name, _)| name == "plan-create"));
    let dir = format!("{}/man", env!("CARGO_MANIFEST_DIR"));
    let mut committed: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    committed.sort();
    let mut expected: Vec<String> = pages.iter().map(|(name, _)| format!("{name}.1")).collect();
    expected.sort();
    assert_eq!(
        committed, expected,
        "man/ is stale: run tools/gen-completions.sh"
    );
    for (name, _) in &pages {
        let out = sb.agentbox(&["man", name]).output().unwrap();
        assert!(out.status.success(), "agentbox man {name}");
        let generated = String::from_utf8(out.stdout).unwrap();
        assert!(
            generated.starts_with(".ie") || generated.contains(".TH"),
            "{name}: {generated}"
        );
        // Every command has examples (`every_command_has_examples`), titled
        // as man pages title them.
        assert!(
            generated.contains("\n.SH EXAMPLES\n") && !generated.contains(".SH EXTRA"),
            "{name}: {generated}"
        );
        let page = std::fs::read_to_string(format!("{dir}/{name}.1")).unwrap_or_default();
        assert!(
            generated == page,
            "man/{name}.1 is stale: run tools/gen-completions.sh and commit the result"
        );
    }
    common::err_of(&mut sb.agentbox(&["man", "nope"]), "not_found", 1);
}

#[test]
fn agentbox_alone_prints_its_help() {
    let sb = Sandbox::empty();
    let out = sb.agentbox(&[]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Usage: agentbox [OPTIONS] <TOOL>"), "{text}");
    assert_eq!(text, help(&sb, &["--help"]));
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

/// Colour is painted after padding: with colour on, the columns of `init`
/// and `link` line up exactly as they do without it.
#[test]
fn coloured_link_columns_line_up() {
    let sb = Sandbox::new();
    let run = |color: &str| {
        let out = sb
            .agentbox(&["link", "--format", "text", "--color", color])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let coloured = run("always");
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    let plain = run("never");
    let stripped = strip_ansi(&coloured);
    assert_eq!(stripped, plain);
}

/// Removes ANSI colour sequences (`ESC [ … m`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
