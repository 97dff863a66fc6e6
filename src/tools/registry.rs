//! The registry type: the list of every tool and housekeeping command, and
//! everything derived from it (dispatch, `--help`, completions, man pages,
//! links, search sources, doctor checks, MCP resources). It knows no
//! particular tool: the one instance is `crate::registry::REGISTRY`.

use super::{DoctorCheck, Resource, SuggestFn, Tool};
use crate::output::{ColorChoice, FormatChoice};
use crate::search::Source;
use clap::{Arg, ArgAction, Command, value_parser};
use std::path::PathBuf;

/// Every command the executable knows.
pub struct Registry {
    /// The tools: each gets a link in `.agent/tools/` and answers to its own name.
    pub tools: &'static [Tool],
    /// Housekeeping commands: reached only as `agentbox <command>`.
    pub commands: &'static [Tool],
}

/// The name a tool answers to: `skill-forge`, `skill_forge` and
/// `skill_forge.py` all mean `skill_forge`.
pub fn normalize_name(name: &str) -> String {
    name.strip_suffix(".py").unwrap_or(name).replace('-', "_")
}

impl Registry {
    /// The tool called `name` (after normalization), if it exists.
    pub fn find_tool(&self, name: &str) -> Option<&'static Tool> {
        let name = normalize_name(name);
        self.tools.iter().find(|t| t.name == name)
    }

    /// The housekeeping command called `name`, if it exists.
    pub fn find_command(&self, name: &str) -> Option<&'static Tool> {
        self.commands.iter().find(|t| t.name == name)
    }

    /// Every search source the tools contribute, in registry order.
    pub fn search_sources(&self) -> Vec<&'static Source> {
        self.all().flat_map(|t| t.search.iter()).collect()
    }

    /// Every doctor check the tools contribute, with the tool's name.
    pub fn doctor_checks(&self) -> Vec<(&'static str, &'static DoctorCheck)> {
        self.all()
            .flat_map(|t| t.doctor.iter().map(move |c| (t.name, c)))
            .collect()
    }

    /// Every suggestion source the tools contribute, with the tool's name.
    pub fn suggestion_sources(&self) -> Vec<(&'static str, &'static SuggestFn)> {
        self.all()
            .flat_map(|t| t.suggest.iter().map(move |s| (t.name, s)))
            .collect()
    }

    /// Every MCP resource the tools contribute.
    pub fn resources(&self) -> Vec<&'static Resource> {
        self.all().flat_map(|t| t.resources.iter()).collect()
    }

    fn all(&self) -> impl Iterator<Item = &'static Tool> + '_ {
        self.tools.iter().chain(self.commands)
    }

    /// A tool's command when it runs under its own name (`.agent/tools/plan`).
    pub fn tool_command(&self, tool: &Tool) -> Command {
        finish((tool.command)().name(tool.name).bin_name(tool.name))
    }

    /// `agentbox` with every tool and housekeeping command.
    pub fn root_command(&self) -> Command {
        self.root(|_| true)
    }

    /// `agentbox` with only the tool or command called `name` (exactly, as
    /// `find_tool`/`find_command` name it), or none: what a call that names
    /// it needs to parse. Building every command of the tree costs more than
    /// the rest of a plain call; help and errors use `root_command`.
    pub fn root_command_for(&self, name: Option<&str>) -> Command {
        self.root(|tool| Some(tool.name) == name)
    }

    fn root(&self, include: impl Fn(&Tool) -> bool) -> Command {
        let mut root = Command::new("agentbox")
            .about("Host-agent tools — plans, memory and self-improvement behind one JSON contract")
            .subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand_value_name("TOOL")
            .subcommand_help_heading("Tools and commands")
            .after_help(
                "Every tool also runs under its own name through the links in .agent/tools/.\n\n\
                 Examples:\n  agentbox init\n  agentbox plan create \"Ship v1\" --step build --step test\n  \
                 .agent/tools/plan show --format text",
            );
        for tool in self.all().filter(|t| include(t)) {
            root = root.subcommand((tool.command)().name(tool.name));
        }
        finish(root)
    }
}

/// Flags every tool and command accepts, before or after the verb.
pub fn global_args() -> [Arg; 5] {
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

/// The global flags that take a value (`--format json`), for the scan that
/// runs before clap has parsed: `global_args`' own, written out so that a
/// call does not build them to find out (a test keeps the two in step).
pub fn global_value_flags() -> &'static [&'static str] {
    &["--format", "--home", "--color"]
}

fn finish(cmd: Command) -> Command {
    cmd.args(global_args())
        .disable_help_subcommand(true)
        .propagate_version(true)
        .term_width(100)
        .version(env!("CARGO_PKG_VERSION"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_flags_are_the_global_args_that_take_a_value() {
        let derived: Vec<String> = global_args()
            .iter()
            .filter(|a| a.get_action().takes_values())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        assert_eq!(derived, global_value_flags());
    }
}
