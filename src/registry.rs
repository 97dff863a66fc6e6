//! The one registry of commands. Dispatch, `--help`, completions and `init`'s
//! links are all derived from these two lists.

use crate::housekeeping;
use crate::output::{ColorChoice, FormatChoice};
use crate::tools::{self, Tool};
use clap::{Arg, ArgAction, Command, value_parser};
use std::path::PathBuf;

/// The tools: each gets a link in `.agent/tools/` and answers to its own name.
pub const TOOLS: &[Tool] = &[
    tools::plan::TOOL,
    tools::knowledge::TOOL,
    tools::track::TOOL,
    crate::mcp::TOOL,
];

/// Housekeeping commands: reached only as `agentbox <command>`.
pub const HOUSEKEEPING: &[Tool] = &[
    housekeeping::INIT,
    housekeeping::LINK,
    housekeeping::DOCTOR,
    housekeeping::SEARCH,
    housekeeping::REINDEX,
    housekeeping::COMPLETIONS,
];

/// The name a tool answers to: `skill-forge`, `skill_forge` and
/// `skill_forge.py` all mean `skill_forge`.
pub fn normalize_name(name: &str) -> String {
    name.strip_suffix(".py").unwrap_or(name).replace('-', "_")
}

/// The tool called `name` (after normalization), if it exists.
pub fn find_tool(name: &str) -> Option<&'static Tool> {
    let name = normalize_name(name);
    TOOLS.iter().find(|t| t.name == name)
}

/// The housekeeping command called `name`, if it exists.
pub fn find_housekeeping(name: &str) -> Option<&'static Tool> {
    HOUSEKEEPING.iter().find(|t| t.name == name)
}

/// Flags every tool and command accepts, before or after the verb.
fn global_args() -> [Arg; 5] {
    [
        Arg::new("format")
            .long("format")
            .global(true)
            .value_name("FORMAT")
            .value_parser(value_parser!(FormatChoice))
            .help("Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]"),
        Arg::new("home")
            .long("home")
            .global(true)
            .value_name("DIR")
            .value_parser(value_parser!(PathBuf))
            .help("The agent home to use (default: the link's home, else the nearest .agent/) [env: AGENTBOX_HOME]"),
        Arg::new("quiet")
            .short('q')
            .long("quiet")
            .global(true)
            .action(ArgAction::SetTrue)
            .help("Print nothing on success in text mode (json still prints its envelope)"),
        Arg::new("verbose")
            .short('v')
            .long("verbose")
            .global(true)
            .action(ArgAction::Count)
            .help("Log what happens to stderr"),
        Arg::new("color")
            .long("color")
            .global(true)
            .value_name("WHEN")
            .value_parser(value_parser!(ColorChoice))
            .help("Colour text output: auto respects NO_COLOR and terminals"),
    ]
}

fn finish(cmd: Command) -> Command {
    cmd.args(global_args())
        .disable_help_subcommand(true)
        .propagate_version(true)
        .term_width(100)
        .version(env!("CARGO_PKG_VERSION"))
}

/// A tool's command when it runs under its own name (`.agent/tools/plan`).
pub fn tool_command(tool: &Tool) -> Command {
    finish((tool.command)().name(tool.name).bin_name(tool.name))
}

/// `agentbox` with every tool and housekeeping command.
pub fn root_command() -> Command {
    let mut root = Command::new("agentbox")
        .about("Host-agent tools — plans, memory and self-improvement behind one JSON contract")
        .subcommand_required(true)
        .subcommand_value_name("TOOL")
        .subcommand_help_heading("Tools and commands")
        .after_help(
            "Every tool also runs under its own name through the links in .agent/tools/.\n\n\
             Examples:\n  agentbox init\n  agentbox plan create \"Ship v1\" --step build --step test\n  \
             .agent/tools/plan show --format text",
        );
    for tool in TOOLS.iter().chain(HOUSEKEEPING) {
        root = root.subcommand((tool.command)().name(tool.name).about(tool.about));
    }
    finish(root)
}
