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
#[derive(Debug)]
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
    ///
    /// # Panics
    /// In a debug build (every test), when [`Registry::check`] finds a
    /// defect in the registry: a program's own tool list is code, and a
    /// wrong one should fail its first test, not a user's home.
    pub fn install(&'static self) {
        if cfg!(debug_assertions)
            && let Err(defect) = self.check()
        {
            panic!("the registry is not valid: {defect}");
        }
        let _ = INSTALLED.set(self);
        crate::search::install_sources(installed().search_sources());
    }

    /// What makes a registry unusable, which no compiler sees: two tools or
    /// commands of one name (the second would never run), a name that
    /// cannot be a link in `.agent/tools/` (lower-case letters, digits and
    /// `_`, a letter first), and a folder or never-synced path that is not
    /// a plain relative path inside the home (`init` creates the folders,
    /// sync compares the paths).
    pub fn check(&self) -> Result<(), String> {
        let mut seen = std::collections::BTreeSet::new();
        for tool in self.all() {
            let name = tool.name;
            let mut chars = name.chars();
            if !chars.next().is_some_and(|c| c.is_ascii_lowercase())
                || !chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                return Err(format!(
                    "the name {name:?} is not lower-case letters, digits and _, a letter first"
                ));
            }
            if name == "agentbox" || !seen.insert(name) {
                return Err(format!("two tools or commands are called {name:?}"));
            }
            let paths = tool.layout.iter().map(|f| (f.path, "folder"));
            let paths = paths.chain(tool.never_synced.iter().map(|p| (*p, "never-synced path")));
            for (path, what) in paths {
                let path_in_home = path.strip_suffix('/').unwrap_or(path);
                if !crate::store::plain_relative(path_in_home) || path_in_home.contains(':') {
                    return Err(format!(
                        "{name}'s {what} {path:?} is not a plain relative path inside the home"
                    ));
                }
            }
        }
        Ok(())
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

    fn command() -> Command {
        Command::new("x")
    }

    fn run(
        _: &crate::tools::Ctx,
        _: &clap::ArgMatches,
    ) -> crate::error::Result<crate::output::Outcome> {
        Ok(crate::output::Outcome::raw(""))
    }

    const RECIPE: Tool = Tool::new("recipe", command, run);

    #[test]
    fn the_built_in_registry_passes_its_check() {
        assert_eq!(crate::registry::BUILTINS.check(), Ok(()));
        assert_eq!(
            crate::registry::BUILTINS.with_tools(&[RECIPE]).check(),
            Ok(())
        );
    }

    #[test]
    fn a_registry_with_a_defect_fails_its_check() {
        static TWICE: [Tool; 2] = [RECIPE, RECIPE];
        static PLAN_AGAIN: [Tool; 1] = [Tool::new("plan", command, run)];
        static BAD_NAMES: [Tool; 4] = [
            Tool::new("Recipe", command, run),
            Tool::new("re/cipe", command, run),
            Tool::new("", command, run),
            Tool::new("agentbox", command, run),
        ];
        static BAD_PATHS: [&[&str]; 6] = [
            &["../recipes"],
            &["recipes/../../x"],
            &["/etc"],
            &["recipes//x"],
            &["recipes\\x"],
            &["C:x"],
        ];
        let builtins = &crate::registry::BUILTINS;
        assert!(builtins.with_tools(&TWICE).check().is_err());
        assert!(builtins.with_tools(&PLAN_AGAIN).check().is_err());
        for tool in &BAD_NAMES {
            let one: &'static [Tool] = std::slice::from_ref(tool);
            assert!(builtins.with_tools(one).check().is_err(), "{:?}", tool.name);
        }
        for paths in BAD_PATHS {
            let never: &'static [Tool] = Box::leak(Box::new([Tool {
                never_synced: paths,
                ..RECIPE
            }]));
            assert!(builtins.with_tools(never).check().is_err(), "{paths:?}");
            let folders: &'static [Folder] = Box::leak(
                paths
                    .iter()
                    .map(|path| Folder { path, order: 20 })
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            );
            let layout: &'static [Tool] = Box::leak(Box::new([Tool {
                layout: folders,
                ..RECIPE
            }]));
            assert!(builtins.with_tools(layout).check().is_err(), "{paths:?}");
        }
        // A never-synced folder ends in `/`; that alone is fine.
        static FOLDER_END: [Tool; 1] = [Tool {
            never_synced: &["recipes/.drafts/"],
            ..RECIPE
        }];
        assert_eq!(builtins.with_tools(&FOLDER_END).check(), Ok(()));
    }
}
