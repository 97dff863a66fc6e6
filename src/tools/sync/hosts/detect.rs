//! The host agents agentbox knows: where each keeps its MCP servers and its
//! Agent Skills, per scope, and how to tell that it is installed here.
//! Formats and folders were checked against each host's documentation
//! (docs/tools/sync-hosts.md cites them).

use crate::error::{Error, ErrorType, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where an install goes: the project (beside the home) or the user's `$HOME`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Project,
    User,
}

impl Scope {
    /// Both scopes, in the order help lists them.
    pub const ALL: [Scope; 2] = [Scope::Project, Scope::User];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// How a host's config file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A JSON (or JSON-with-comments) object holding the servers under `key`.
    Json { key: &'static str },
    /// Codex's TOML: `[mcp_servers.<name>]` tables.
    Toml,
}

/// The server entry's flavour: which fields a host's entry carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// `command`, `args`, `env`.
    Plain,
    /// `type: "stdio"` first, then `command`, `args`, `env`.
    Typed,
    /// odek: `command`, `args`, `env` and the odek-extension/v1 limits.
    Odek,
    /// Zed: `source: "custom"` first (older releases require it, current
    /// ones ignore it), then `command`, `args`, `env`.
    Zed,
}

/// How a host registers a server it reaches at a URL (`install --url`), with
/// the bearer token read from an environment variable that the HOST expands
/// when it connects: the file names the variable, never the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlForm {
    /// Claude Code: `type: "http"`, `url`, `headers.Authorization:
    /// "Bearer ${VAR}"` (expanded in `url` and `headers`).
    ClaudeCode,
    /// Codex: `url` and `bearer_token_env_var = "VAR"` (Codex sends
    /// `Authorization: Bearer <value>`).
    Codex,
    /// Cursor: `url`, `headers.Authorization: "Bearer ${env:VAR}"`.
    Cursor,
    /// Gemini CLI: `httpUrl` (Streamable HTTP; its `url` is SSE),
    /// `headers.Authorization: "Bearer ${VAR}"` (settings strings expand
    /// `$VAR` and `${VAR}`).
    Gemini,
    /// VS Code: `type: "http"`, `url`, `headers.Authorization:
    /// "Bearer ${env:VAR}"`.
    VsCode,
    /// The host cannot take it: why, and what to do instead.
    Refused {
        why: &'static str,
        instead: &'static str,
    },
}

/// A path relative to the project root or to `$HOME`, with the macOS
/// variant where the host keeps it elsewhere there.
#[derive(Debug, Clone, Copy)]
pub struct Rel {
    pub path: &'static str,
    pub macos: Option<&'static str>,
}

const fn rel(path: &'static str) -> Rel {
    Rel { path, macos: None }
}

impl Rel {
    fn get(&self) -> &'static str {
        if cfg!(target_os = "macos") {
            self.macos.unwrap_or(self.path)
        } else {
            self.path
        }
    }
}

/// One host agent.
#[derive(Debug)]
pub struct HostDef {
    /// The stable id taken everywhere a HOST is (`claude-code`, …).
    pub id: &'static str,
    pub name: &'static str,
    pub format: Format,
    pub entry: Entry,
    /// The entry `install --url` writes, or why there is none.
    pub url_form: UrlForm,
    /// The MCP config file, relative to the project root.
    pub project_config: Rel,
    /// The MCP config file, relative to `$HOME`.
    pub user_config: Rel,
    /// The Agent Skills folder per scope, when the host reads one.
    pub project_skills: Option<&'static str>,
    pub user_skills: Option<&'static str>,
    /// Folders (or files) under `$HOME` whose presence shows the host is used.
    pub user_marks: &'static [&'static str],
    /// A folder (or file) in the project that shows the host is used there.
    pub project_mark: &'static str,
    /// Executables whose presence on `PATH` shows the host is installed.
    pub executables: &'static [&'static str],
    /// What to do when it is not detected.
    pub install_hint: &'static str,
}

/// Every known host, in the documented order.
pub const HOSTS: &[HostDef] = &[
    HostDef {
        id: "claude-code",
        name: "Claude Code",
        format: Format::Json { key: "mcpServers" },
        entry: Entry::Typed,
        url_form: UrlForm::ClaudeCode,
        project_config: rel(".mcp.json"),
        user_config: rel(".claude.json"),
        project_skills: Some(".claude/skills"),
        user_skills: Some(".claude/skills"),
        user_marks: &[".claude", ".claude.json"],
        project_mark: ".claude",
        executables: &["claude"],
        install_hint: "install Claude Code (the `claude` command) or create ~/.claude",
    },
    HostDef {
        id: "codex",
        name: "Codex CLI",
        format: Format::Toml,
        entry: Entry::Plain,
        url_form: UrlForm::Codex,
        project_config: rel(".codex/config.toml"),
        user_config: rel(".codex/config.toml"),
        project_skills: Some(".agents/skills"),
        user_skills: Some(".agents/skills"),
        user_marks: &[".codex"],
        project_mark: ".codex",
        executables: &["codex"],
        install_hint: "install the Codex CLI (the `codex` command) or create ~/.codex",
    },
    HostDef {
        id: "cursor",
        name: "Cursor",
        format: Format::Json { key: "mcpServers" },
        entry: Entry::Plain,
        url_form: UrlForm::Cursor,
        project_config: rel(".cursor/mcp.json"),
        user_config: rel(".cursor/mcp.json"),
        project_skills: Some(".cursor/skills"),
        user_skills: Some(".cursor/skills"),
        user_marks: &[".cursor"],
        project_mark: ".cursor",
        executables: &["cursor", "cursor-agent"],
        install_hint: "install Cursor or create ~/.cursor",
    },
    HostDef {
        id: "gemini",
        name: "Gemini CLI",
        format: Format::Json { key: "mcpServers" },
        entry: Entry::Plain,
        url_form: UrlForm::Gemini,
        project_config: rel(".gemini/settings.json"),
        user_config: rel(".gemini/settings.json"),
        project_skills: Some(".gemini/skills"),
        user_skills: Some(".gemini/skills"),
        user_marks: &[".gemini"],
        project_mark: ".gemini",
        executables: &["gemini"],
        install_hint: "install the Gemini CLI (the `gemini` command) or create ~/.gemini",
    },
    HostDef {
        id: "vscode",
        name: "VS Code",
        format: Format::Json { key: "servers" },
        entry: Entry::Typed,
        url_form: UrlForm::VsCode,
        project_config: rel(".vscode/mcp.json"),
        user_config: Rel {
            path: ".config/Code/User/mcp.json",
            macos: Some("Library/Application Support/Code/User/mcp.json"),
        },
        project_skills: Some(".github/skills"),
        user_skills: Some(".copilot/skills"),
        user_marks: &[".vscode", ".config/Code"],
        project_mark: ".vscode",
        executables: &["code"],
        install_hint: "install VS Code (the `code` command) or create ~/.vscode",
    },
    HostDef {
        id: "zed",
        name: "Zed",
        format: Format::Json {
            key: "context_servers",
        },
        entry: Entry::Zed,
        url_form: UrlForm::Refused {
            why: "Zed sends a remote server's headers verbatim (it expands no environment variable in them), so the token would have to be written into the settings file",
            instead: "install zed without --url: Zed then starts this home's memory_mcp itself over stdio",
        },
        project_config: rel(".zed/settings.json"),
        user_config: rel(".config/zed/settings.json"),
        project_skills: None,
        user_skills: None,
        user_marks: &[".config/zed"],
        project_mark: ".zed",
        executables: &["zed", "zeditor"],
        install_hint: "install Zed (the `zed` command) or create ~/.config/zed",
    },
    HostDef {
        id: "odek",
        name: "odek",
        format: Format::Json { key: "mcp_servers" },
        entry: Entry::Odek,
        url_form: UrlForm::Refused {
            why: "odek reaches its extension servers over stdio only (odek-extension/v1 has no URL form)",
            instead: "install odek without --url: odek then starts this home's memory_mcp itself over stdio",
        },
        project_config: rel("odek.json"),
        user_config: rel(".odek/config.json"),
        project_skills: None,
        user_skills: None,
        user_marks: &[".odek"],
        project_mark: "odek.json",
        executables: &["odek"],
        install_hint: "install odek (the `odek` command) or create ~/.odek",
    },
];

/// The ids, comma-separated (for hints and help).
pub fn ids() -> String {
    HOSTS.iter().map(|h| h.id).collect::<Vec<_>>().join(", ")
}

/// The host named `id`, else `plugin_not_detected` naming the known ids.
pub fn by_id(id: &str) -> Result<&'static HostDef> {
    HOSTS.iter().find(|h| h.id == id).ok_or_else(|| {
        let known = format!("the known hosts are: {}", ids());
        let hint = match crate::suggest::nearest(id, HOSTS.iter().map(|h| h.id)) {
            Some(host) => format!("did you mean '{host}'? {known}"),
            None => known,
        };
        Error::new(ErrorType::PluginNotDetected, format!("unknown host '{id}'"))
            .with_hint(hint)
            .with_detail("host", id)
    })
}

/// What detection and installs look at: the project root, `$HOME`, `PATH`.
#[derive(Debug, Clone)]
pub struct Env {
    pub project: PathBuf,
    /// `$HOME`, read from the environment on every call (never a cached
    /// passwd lookup): an absolute path to a folder that exists, else why
    /// not (there is no user scope then).
    pub user_home: std::result::Result<PathBuf, String>,
    pub path: Option<OsString>,
    /// `--follow-symlinks`: write a host's files through symlinks.
    pub follow_links: bool,
}

impl Env {
    /// The environment of this process, for a home whose project is `project`.
    pub fn current(project: PathBuf, follow_links: bool) -> Env {
        Env {
            project,
            user_home: user_home(std::env::var_os("HOME")),
            path: std::env::var_os("PATH"),
            follow_links,
        }
    }

    /// The base folder of `scope`; `invalid_args` for user scope when `$HOME`
    /// is unset, relative or not an existing folder.
    pub fn base(&self, scope: Scope) -> Result<&Path> {
        match scope {
            Scope::Project => Ok(&self.project),
            Scope::User => self.user_home.as_deref().map_err(|why| {
                Error::invalid_args(format!("{why}, so there is no user scope")).with_hint(
                    "set HOME to your home folder (an absolute path that exists), \
                     or install with --scope project",
                )
            }),
        }
    }

    /// The host's MCP config file in `scope`.
    pub fn config_path(&self, host: &HostDef, scope: Scope) -> Result<PathBuf> {
        let rel = match scope {
            Scope::Project => host.project_config,
            Scope::User => host.user_config,
        };
        Ok(self.base(scope)?.join(rel.get()))
    }

    /// The host's Agent Skills folder in `scope`, if it reads one.
    pub fn skills_dir(&self, host: &HostDef, scope: Scope) -> Result<Option<PathBuf>> {
        let rel = match scope {
            Scope::Project => host.project_skills,
            Scope::User => host.user_skills,
        };
        match rel {
            None => Ok(None),
            Some(rel) => Ok(Some(self.base(scope)?.join(rel))),
        }
    }

    /// How the host was detected: each piece of evidence, or empty.
    pub fn detect(&self, host: &HostDef) -> Vec<String> {
        let mut how = Vec::new();
        if let Ok(home) = &self.user_home {
            for mark in host.user_marks {
                if home.join(mark).exists() {
                    how.push(format!("folder ~/{mark}"));
                }
            }
        }
        if self.project.join(host.project_mark).exists() {
            how.push(format!("project {}", host.project_mark));
        }
        for exe in host.executables {
            if let Some(found) = self.which(exe) {
                how.push(format!("executable {}", found.display()));
            }
        }
        how
    }

    /// The first executable file named `name` on `PATH`.
    fn which(&self, name: &str) -> Option<PathBuf> {
        let path = self.path.as_ref()?;
        std::env::split_paths(path)
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate))
    }
}

/// `$HOME` when it can be a user scope: set, absolute, an existing folder.
/// A relative one would put the user's files under the current folder (and
/// record a relative path); a missing one would get its whole tree created.
fn user_home(home: Option<OsString>) -> std::result::Result<PathBuf, String> {
    let home = match home {
        Some(h) if !h.is_empty() => PathBuf::from(h),
        _ => return Err("HOME is not set".to_string()),
    };
    if !home.is_absolute() {
        return Err(format!("HOME ({}) is not an absolute path", home.display()));
    }
    match std::fs::metadata(&home) {
        Ok(meta) if meta.is_dir() => Ok(home),
        Ok(_) => Err(format!("HOME ({}) is not a folder", home.display())),
        Err(_) => Err(format!("HOME ({}) does not exist", home.display())),
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// `plugin_not_detected` for a known host that is not found here.
pub fn not_detected(host: &HostDef, detected: &[&str]) -> Error {
    let others = if detected.is_empty() {
        "no host agent is detected here".to_string()
    } else {
        format!("detected here: {}", detected.join(", "))
    };
    Error::new(
        ErrorType::PluginNotDetected,
        format!(
            "{} is not detected (no config folder, no executable on PATH)",
            host.name
        ),
    )
    .with_hint(format!("{}; {others}", host.install_hint))
    .with_detail("host", host.id)
    .with_detail("detected", detected.to_vec())
}
