//! `agentbox completions SHELL`: completion scripts for `agentbox` and for
//! every tool name (`plan`, `.agent/tools/plan` …), from the registry's
//! commands.

use crate::error::Result;
use crate::output::{FormatChoice, Outcome};
use crate::tools::{Ctx, Registry, Tool, parse_args};
use clap::{ArgMatches, Parser};
use clap_complete::Shell;
use serde_json::json;

pub const COMMAND: Tool = Tool::derived::<Completions>("completions", run);

/// Print a shell completion script
///
/// Print the completion script for SHELL on stdout: it completes `agentbox`
/// and every tool under its own name — `plan`, and the links
/// `.agent/tools/plan` and `./.agent/tools/plan` — with the closed sets of
/// values (host ids, man pages, enums). bash: source it from ~/.bashrc
/// (bash loads a file per command name); zsh: save it as _agentbox in a
/// folder of $fpath; fish: save it in ~/.config/fish/conf.d/ (fish
/// autoloads a file per command name). The script is
/// printed as is unless --format json is given explicitly, which wraps it in
/// an envelope (data.script).
#[derive(Debug, Parser)]
#[command(
    name = "completions",
    after_help = "Examples:\n  echo 'source <(agentbox completions bash)' >> ~/.bashrc\n  \
                  agentbox completions zsh > ~/.zfunc/_agentbox\n  \
                  agentbox completions fish > ~/.config/fish/conf.d/agentbox.fish"
)]
struct Completions {
    /// The shell to complete for
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

fn run(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let args = parse_args::<Completions>(m)?;
    let script = completion_script(ctx.registry, args.shell);
    let explicit_json = m.get_one::<FormatChoice>("format") == Some(&FormatChoice::Json)
        || (m.get_one::<FormatChoice>("format").is_none()
            && std::env::var("AGENTBOX_FORMAT").is_ok_and(|v| v == "json"));
    Ok(if explicit_json {
        Outcome::new(
            json!({"shell": args.shell.to_string(), "script": script}),
            "",
        )
    } else {
        Outcome::raw(script)
    })
}

/// The completion script for `shell`: `agentbox`'s, then each tool's under
/// its own name. zsh gets one `#compdef` line naming them all, so the file
/// installed in `fpath` completes every name, not just `agentbox`.
pub fn completion_script(registry: &Registry, shell: Shell) -> String {
    let mut parts = vec![(
        "agentbox",
        generate(shell, completion_root(registry), "agentbox"),
    )];
    for tool in registry.tools() {
        let mut part = generate(shell, registry.tool_command(tool), tool.name);
        if shell == Shell::Bash {
            // bash looks completions up by the word typed: register the
            // link paths agents and people type too.
            part.push_str(&format!(
                "complete -F _{name} -o nosort -o bashdefault -o default \
                 .agent/tools/{name} ./.agent/tools/{name}\n",
                name = tool.name
            ));
        }
        parts.push((tool.name, part));
    }
    if shell == Shell::Zsh {
        return zsh_script(&parts);
    }
    parts.into_iter().map(|(_, part)| part).collect()
}

/// `agentbox`'s command for the completions: `man`'s NAME completes the
/// page names (the pages come from the whole registry, so the command
/// itself does not list them).
fn completion_root(registry: &Registry) -> clap::Command {
    let pages: Vec<&'static str> = super::man::pages(registry)
        .into_iter()
        .map(|(name, _)| &*Box::leak(name.into_boxed_str()))
        .collect();
    registry.root_command().mut_subcommand("man", |man| {
        man.mut_arg("name", |a| {
            a.value_parser(crate::tools::known_values(pages))
                .hide_possible_values(true)
        })
    })
}

fn generate(shell: Shell, mut cmd: clap::Command, name: &str) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut buf);
    let mut script = String::from_utf8_lossy(&buf).into_owned();
    if shell == Shell::Fish {
        fish_operand_values(&cmd, name, &mut Vec::new(), &mut script);
    }
    script
}

/// clap's fish script completes no operand: each operand with a closed
/// set of values (`sync hosts install HOST`, `agentbox man NAME`) gets a
/// line of its own, under the verbs that lead to it.
fn fish_operand_values<'a>(
    cmd: &'a clap::Command,
    bin: &str,
    path: &mut Vec<&'a str>,
    out: &mut String,
) {
    if let [first, rest @ ..] = path.as_slice() {
        let mut condition = format!("__fish_{bin}_using_subcommand {first}");
        for verb in rest {
            condition.push_str(&format!("; and __fish_seen_subcommand_from {verb}"));
        }
        for arg in cmd.get_positionals() {
            let Some(values) = arg.get_value_parser().possible_values() else {
                continue;
            };
            let values: Vec<String> = values.map(|v| v.get_name().to_string()).collect();
            out.push_str(&format!(
                "complete -c {bin} -n \"{condition}\" -f -a \"{}\"\n",
                values.join(" ")
            ));
        }
    }
    for sub in cmd.get_subcommands() {
        path.push(sub.get_name());
        fish_operand_values(sub, bin, path, out);
        path.pop();
    }
}

/// One zsh completion file for every name. clap writes a file per command:
/// `#compdef NAME`, its functions, and a trailer that either completes
/// (when autoloaded as `_NAME`) or registers `_NAME`. Here the first line
/// names them all; the trailers become one that, autoloaded for any of
/// them, completes the command being completed (`$service`), and, sourced,
/// registers each.
fn zsh_script(parts: &[(&str, String)]) -> String {
    let names: Vec<&str> = parts.iter().map(|(name, _)| *name).collect();
    let mut out = format!("#compdef {}\n", names.join(" "));
    for (name, part) in parts {
        let body = part
            .strip_prefix(&format!("#compdef {name}\n"))
            .unwrap_or(part);
        let trailer = format!("if [ \"$funcstack[1]\" = \"_{name}\" ]; then");
        let body = match body.rfind(&trailer) {
            Some(at) => &body[..at],
            None => body,
        };
        out.push_str(body);
    }
    out.push_str("if [ \"$funcstack[1]\" = \"_agentbox\" ]; then\n    case $service in\n");
    for name in &names[1..] {
        out.push_str(&format!("        {name}) _{name} \"$@\" ;;\n"));
    }
    out.push_str("        *) _agentbox \"$@\" ;;\n    esac\nelse\n");
    for name in &names {
        out.push_str(&format!("    compdef _{name} {name}\n"));
    }
    out.push_str("fi\n");
    out
}
