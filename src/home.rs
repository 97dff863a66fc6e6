//! The agent home: where it is (resolution order of SPEC §3), what it holds,
//! and its config.

use crate::config::Config;
use crate::error::{Error, ErrorType, Result};
use crate::redact::Redactor;
use crate::store::Store;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folder name a project's home has.
pub const HOME_DIR_NAME: &str = ".agent";

/// Folders every home has (relative to the home).
pub const LAYOUT_DIRS: &[&str] = &[
    "tools",
    "memory/personal",
    "memory/episodes",
    "memory/knowledge",
    "skills",
    "plans",
    "persona",
    "runs/evolve",
    "index",
    "local",
    "locks",
];

/// The home's `.gitignore`: derived and transient files never reach a remote.
pub const GITIGNORE: &str = "# agentbox: derived, transient or per-home, never synced\nindex/\nlocks/\nlocal/\nsync.git/\n*.lock\n.*.tmp\n";

/// What to consult when looking for the home, in order.
#[derive(Debug, Clone, Default)]
pub struct HomeLookup {
    /// `--home DIR`.
    pub flag: Option<PathBuf>,
    /// `AGENTBOX_HOME`.
    pub env: Option<PathBuf>,
    /// argv[0] when it is a path (`<H>/tools/<tool>`).
    pub invoked: Option<PathBuf>,
    /// The working directory.
    pub cwd: PathBuf,
}

impl HomeLookup {
    /// Resolves: `--home` › `AGENTBOX_HOME` › the home holding the invoked link
    /// › the nearest `.agent/` upward from the working directory.
    pub fn resolve(&self) -> Result<PathBuf> {
        if let Some(dir) = &self.flag {
            return explicit_home(&self.cwd.join(dir), "--home");
        }
        if let Some(dir) = &self.env {
            return explicit_home(&self.cwd.join(dir), "AGENTBOX_HOME");
        }
        if let Some(home) = self
            .invoked
            .as_deref()
            .and_then(|p| link_home(&self.cwd.join(p)))
        {
            return Ok(home);
        }
        for dir in self.cwd.ancestors() {
            let candidate = dir.join(HOME_DIR_NAME);
            if candidate.is_dir() {
                return Ok(candidate);
            }
        }
        Err(Error::not_found(format!(
            "no agent home found from {} upward",
            self.cwd.display()
        ))
        .with_hint("run `agentbox init` in your project, or pass --home DIR")
        .with_detail("cwd", self.cwd.display().to_string()))
    }
}

/// A home named by flag or environment. A project folder that holds `.agent/`
/// is accepted for the home inside it.
fn explicit_home(dir: &Path, source: &str) -> Result<PathBuf> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let nested = dir.join(HOME_DIR_NAME);
    if dir.join("config.json").is_file()
        || (dir.is_dir() && dir.file_name() == Some(HOME_DIR_NAME.as_ref()))
    {
        Ok(dir)
    } else if nested.is_dir() {
        Ok(nested)
    } else {
        let problem = if dir.is_dir() {
            "is not an agent home"
        } else {
            "does not exist"
        };
        Err(
            Error::not_found(format!("{} ({source}) {problem}", dir.display()))
                .with_hint(format!(
                    "create a home there with `agentbox init --home {}`",
                    dir.display()
                ))
                .with_detail("path", dir.display().to_string()),
        )
    }
}

impl HomeLookup {
    /// Where `agentbox init` creates the home: `[DIR]/.agent`, else the home
    /// named by `--home` or `AGENTBOX_HOME` (a path used as is), else `./.agent`.
    pub fn init_target(&self, dir: Option<&Path>) -> PathBuf {
        let named = |p: &Path| {
            let p = self.cwd.join(p);
            if p.file_name() == Some(HOME_DIR_NAME.as_ref()) {
                p
            } else {
                p.join(HOME_DIR_NAME)
            }
        };
        match (dir, &self.flag, &self.env) {
            (Some(dir), _, _) => named(dir),
            (None, Some(home), _) | (None, None, Some(home)) => self.cwd.join(home),
            (None, None, None) => self.cwd.join(HOME_DIR_NAME),
        }
    }
}

/// `<H>/tools/<tool>` → `<H>`, when `<H>` looks like a home.
fn link_home(invoked: &Path) -> Option<PathBuf> {
    let tools = invoked.parent()?;
    if tools.file_name()? != "tools" {
        return None;
    }
    let home = tools.parent()?;
    home.join("config.json")
        .is_file()
        .then(|| home.to_path_buf())
}

/// An opened home: its root, config and store.
#[derive(Debug, Clone)]
pub struct Home {
    pub root: PathBuf,
    pub config: Config,
    pub store: Store,
    warnings: Warnings,
}

/// Warnings about work that succeeded only in part (a file saved whose search
/// index update failed), kept until the call's outcome takes them.
#[derive(Debug, Default)]
struct Warnings(Mutex<Vec<String>>);

impl Clone for Warnings {
    fn clone(&self) -> Warnings {
        Warnings(Mutex::new(self.list().clone()))
    }
}

impl Warnings {
    fn list(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Home {
    /// Opens the home at `root`: reads `config.json` (defaults when absent) and
    /// builds the redactor with the configured extra patterns.
    pub fn open(root: PathBuf) -> Result<Home> {
        let config_path = root.join("config.json");
        let config = match std::fs::read_to_string(&config_path) {
            Ok(text) => Config::parse(&text, &config_path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(e) => return Err(Error::io("read", &config_path, &e)),
        };
        let redactor = Redactor::new(&config.redaction.extra_patterns).map_err(|e| {
            Error::invalid_args(format!(
                "{}: redaction.extra_patterns[{}] is not a valid regex: {}",
                config_path.display(),
                e.index,
                e.message
            ))
            .with_hint("fix or remove the pattern in config.json")
            .with_detail("path", config_path.display().to_string())
            .with_detail("key", format!("redaction.extra_patterns[{}]", e.index))
        })?;
        let store = Store::new(root.clone(), redactor, config.limits.max_item_bytes);
        Ok(Home {
            root,
            config,
            store,
            warnings: Warnings::default(),
        })
    }

    /// Records a warning for the outcome of the current call.
    pub fn warn(&self, warning: impl Into<String>) {
        let warning = warning.into();
        let mut list = self.warnings.list();
        if !list.contains(&warning) {
            list.push(warning);
        }
    }

    /// Takes the warnings recorded since the last call (the CLI and the MCP
    /// server attach them to the call's outcome).
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.list())
    }

    /// The link for `tool` in this home.
    pub fn tool_link(&self, tool: &str) -> PathBuf {
        self.root.join("tools").join(tool)
    }
}

/// The running executable, as links should point at it.
pub fn current_exe() -> Result<PathBuf> {
    std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| {
            Error::new(
                ErrorType::Io,
                format!("cannot locate the running agentbox executable: {e}"),
            )
            .with_hint("run agentbox by its full path")
        })
}
