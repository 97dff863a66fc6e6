//! The one registry: every tool and housekeeping command of the executable.
//! Adding a tool is one folder under `src/tools/`, its `pub mod` line in
//! `src/tools/mod.rs` and one line here
//! (docs/ARCHITECTURE.md).

use crate::commands;
use crate::tools::{self, Registry};

/// The built-in tools and commands: what `agentbox` runs, and what a
/// program embedding the library adds its own tools to
/// (`BUILTINS.with_tools(&[…])`).
pub const BUILTINS: Registry = Registry::new(
    &[
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
    &[
        commands::init::COMMAND,
        commands::link::COMMAND,
        commands::doctor::COMMAND,
        commands::search::COMMAND,
        commands::reindex::COMMAND,
        commands::completions::COMMAND,
        commands::man::COMMAND,
        commands::model::COMMAND,
        crate::view::COMMAND,
    ],
);

/// The executable's registry.
pub static REGISTRY: Registry = BUILTINS;

/// Installs the built-in registry ([`Registry::install`]): what a program
/// or a test using the library calls before opening an index or syncing.
pub fn install() {
    REGISTRY.install();
}

#[cfg(test)]
mod tests {
    use super::REGISTRY;

    /// Adding a tool is its folder, its `pub mod` line and its line above:
    /// a folder left out of the registry (or a tool in the wrong place) fails here.
    #[test]
    fn every_tool_folder_is_registered() {
        let tools = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tools");
        let mut folders: Vec<String> = std::fs::read_dir(tools)
            .unwrap()
            .flatten()
            .filter(|e| e.path().join("mod.rs").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        folders.sort();
        let mut registered: Vec<String> = REGISTRY
            .tools()
            .map(|t| t.name.to_string())
            .filter(|name| name != "memory_mcp")
            .collect();
        registered.sort();
        assert_eq!(folders, registered);
    }
}
