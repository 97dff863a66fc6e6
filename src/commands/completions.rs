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
/// and every tool under its own name — `plan`, and (bash) the links
/// `.agent/tools/plan` and `./.agent/tools/plan`. Source it from your shell's
/// startup file or drop it where your shell loads completions. The script is
/// printed as is unless --format json is given explicitly, which wraps it in
/// an envelope (data.script).
#[derive(Debug, Parser)]
#[command(
    name = "completions",
    after_help = "Examples:\n  agentbox completions bash > ~/.local/share/bash-completion/completions/agentbox\n  \
                  agentbox completions zsh > ~/.zfunc/_agentbox\n  \
                  agentbox completions fish > ~/.config/fish/completions/agentbox.fish"
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
/// its own name.
pub fn completion_script(registry: &Registry, shell: Shell) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut registry.root_command(), "agentbox", &mut buf);
    for tool in registry.tools() {
        let mut cmd = registry.tool_command(tool);
        clap_complete::generate(shell, &mut cmd, tool.name, &mut buf);
        if shell == Shell::Bash {
            // bash looks completions up by the word typed: register the
            // link paths agents and people type too.
            let func = format!("_{}", tool.name);
            buf.extend(
                format!(
                    "complete -F {func} -o nosort -o bashdefault -o default \
                     .agent/tools/{name} ./.agent/tools/{name}\n",
                    name = tool.name
                )
                .as_bytes(),
            );
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}
