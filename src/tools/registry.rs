//! The registry type: the list of every tool and housekeeping command, and
//! everything derived from it (dispatch, `--help`, completions, man pages,
//! links, the home's folders, search sources, doctor checks, MCP resources,
//! `mem_context` sections, sync rules). It knows no particular tool: the
//! executable's instance is `crate::registry::REGISTRY`.

use super::{ContextFn, DoctorCheck, MergeRule, Resource, SuggestFn, Tool};
use crate::home::{Folder, HOME_FOLDERS, NEVER_SYNCED};
use crate::output::{ColorChoice, FormatChoice};
use crate::search::Source;
use clap::{Arg, ArgAction, Command, value_parser};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Every command an executable knows: the built-in tools, any tools a
/// program embedding the library adds ([`Registry::with_tools`]), and the
/// housekeeping commands.
pub struct Registry {
    tools: &'static [Tool],
    extra: &'static [Tool],
    commands: &'static [Tool],
}

/// The name a tool answers to: `skill-forge`, `skill_forge` and
/// `skill_forge.py` all mean `skill_forge`.
pub fn normalize_name(name: &str) -> String {
    name.strip_suffix(".py").unwrap_or(name).replace('-', "_")
}

/// The registry of this process, installed once ([`Registry::install`]).
static INSTALLED: OnceLock<&'static Registry> = OnceLock::new();

/// The registry the process installed at start-up, for what runs without a
/// `Ctx` (sync's rules inside a doctor check or a suggestion, a merge).
///
/// # Panics
/// When none was installed: a defect of the program (`cli::run_with` and
/// `crate::registry::install` install one first).
pub fn installed() -> &'static Registry {
    INSTALLED
        .get()
        .copied()
        .expect("the registry was never installed (Registry::install)")
}

impl Registry {
    /// A registry of `tools` (each gets a link in `.agent/tools/` and
    /// answers to its own name) and housekeeping `commands` (reached only
    /// as `agentbox <command>`).
    pub const fn new(tools: &'static [Tool], commands: &'static [Tool]) -> Registry {
        Registry {
            tools,
            extra: &[],
            commands,
        }
    }

    /// This registry with `extra` tools after its own: how a program that
    /// embeds the library (or a test) adds tools to the built-in ones
    /// without copying their list.
    pub const fn with_tools(&self, extra: &'static [Tool]) -> Registry {
        Registry {
            tools: self.tools,
            extra,
            commands: self.commands,
        }
    }

    /// Makes this the process's registry: its search sources go to the
    /// index, and [`installed`] returns it. The first call wins; a second
    /// one is harmless. `cli::run_with` calls it first; a program using the
    /// library calls it before opening an index or syncing.
    pub fn install(&'static self) {
        let _ = INSTALLED.set(self);
        crate::search::install_sources(installed().search_sources());
    }

    /// The tools, in registry order (each gets a link and answers to its name).
    pub fn tools(&self) -> impl Iterator<Item = &'static Tool> + use<> {
        let (tools, extra) = (self.tools, self.extra);
        tools.iter().chain(extra)
    }

    /// The housekeeping commands, in registry order.
    pub fn commands(&self) -> impl Iterator<Item = &'static Tool> + use<> {
        let commands = self.commands;
        commands.iter()
    }

    /// The tool called `name` (after normalization), if it exists.
    pub fn find_tool(&self, name: &str) -> Option<&'static Tool> {
        let name = normalize_name(name);
        self.tools().find(|t| t.name == name)
    }

    /// The housekeeping command called `name`, if it exists.
    pub fn find_command(&self, name: &str) -> Option<&'static Tool> {
        self.commands().find(|t| t.name == name)
    }

    /// The folders every home has (relative to the home): the home's own
    /// and the tools', in the order of their `Folder::order`.
    pub fn layout(&self) -> Vec<&'static str> {
        let mut folders: Vec<&'static Folder> = HOME_FOLDERS
            .iter()
            .chain(self.all().flat_map(|t| t.layout.iter()))
            .collect();
        folders.sort_by_key(|f| f.order);
        folders.into_iter().map(|f| f.path).collect()
    }

    /// The home-relative paths that never sync (a folder ends in `/`): the
    /// home's own, then the tools'.
    pub fn never_synced(&self) -> impl Iterator<Item = &'static str> + use<> {
        NEVER_SYNCED
            .iter()
            .copied()
            .chain(self.all().flat_map(|t| t.never_synced.iter().copied()))
    }

    /// Every sync merge rule the tools declare, in registry order.
    pub fn merge_rules(&self) -> impl Iterator<Item = &'static MergeRule> + use<> {
        self.all().flat_map(|t| t.merge.iter())
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

    /// Every source of `mem_context` sections, in registry order.
    pub fn context_sources(&self) -> Vec<&'static ContextFn> {
        self.all().flat_map(|t| t.context.iter()).collect()
    }

    fn all(&self) -> impl Iterator<Item = &'static Tool> + use<> {
        self.tools().chain(self.commands())
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
