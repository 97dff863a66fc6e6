//! The one registry: every tool and housekeeping command of the executable.
//! Adding a tool is one folder under `src/tools/` and one line here
//! (docs/ARCHITECTURE.md).

use crate::commands;
use crate::tools::{self, Registry};

pub static REGISTRY: Registry = Registry {
    tools: &[
        tools::plan::TOOL,
        tools::track::TOOL,
        tools::knowledge::TOOL,
        tools::skill_forge::TOOL,
        tools::evolve::TOOL,
        tools::persona::TOOL,
        tools::proactive::TOOL,
        tools::sync::TOOL,
        crate::mcp::TOOL,
    ],
    commands: &[
        commands::init::COMMAND,
        commands::link::COMMAND,
        commands::doctor::COMMAND,
        commands::search::COMMAND,
        commands::reindex::COMMAND,
        commands::completions::COMMAND,
        commands::man::COMMAND,
        commands::model::COMMAND,
    ],
};

/// Installs what the rest of the program reads from the registry at run
/// time (the search sources). `cli::run` calls it first; a program using
/// the library calls it before opening an index.
pub fn install() {
    crate::search::install_sources(REGISTRY.search_sources());
}
