//! Whether a host will actually start a server it is configured with: Claude
//! Code holds a project's `.mcp.json` servers until the user approves them,
//! Codex reads a project's `.codex/config.toml` only in a trusted project,
//! and Gemini CLI starts no MCP server at all in an untrusted folder. Read
//! from the hosts' own approval and trust files, which are never written
//! (docs/tools/sync-hosts.md, "Hosts gate what they load", cites the
//! sources). Those files are input agentbox does not control: each is read
//! up to a size bound, and one that cannot be read or parsed makes the state
//! `unknown` with the reason, never an error of the whole command.

use super::detect::{Env, HostDef, Scope};
use serde_json::{Map, Value, json};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest host file read (`~/.claude.json` keeps per-project history
/// and grows to megabytes).
const MAX_BYTES: u64 = 32 * 1024 * 1024;

/// What stands between a configured entry and a running server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// `configured`, `needs approval`, `needs trust` or `unknown`.
    pub state: &'static str,
    /// Why, in a sentence naming the file that says so.
    pub reason: String,
    /// The one command or setting that clears it.
    pub clear: Option<String>,
}

impl Gate {
    fn configured(reason: impl Into<String>) -> Gate {
        Gate {
            state: "configured",
            reason: reason.into(),
            clear: None,
        }
    }

    /// A state the user has to clear, and the one step that clears it.
    fn needs(state: &'static str, reason: impl Into<String>, clear: impl Into<String>) -> Gate {
        Gate {
            state,
            reason: reason.into(),
            clear: Some(clear.into()),
        }
    }

    fn unknown(reason: impl Into<String>) -> Gate {
        Gate {
            state: "unknown",
            reason: reason.into(),
            clear: None,
        }
    }

    /// Whether something remains for the user to do (or to check).
    pub fn pending(&self) -> bool {
        self.state != "configured"
    }

    /// `reason` and `clear` (the state is reported beside it).
    pub fn to_json(&self) -> Value {
        let mut value = json!({"reason": self.reason});
        if let Some(clear) = &self.clear {
            value["clear"] = json!(clear);
        }
        value
    }
}

/// The gate of `host`'s `scope` for the server `name`, in `project`.
pub fn check(env: &Env, host: &HostDef, scope: Scope, project: &Path, name: &str) -> Gate {
    let home = env.user_home.as_deref().ok();
    match (host.id, scope) {
        ("claude-code", Scope::Project) => claude_project(home, project, name),
        ("codex", Scope::Project) => codex_project(home, project),
        ("gemini", _) => gemini(home, project),
        _ => Gate::configured(format!("{} loads this file without asking", host.name)),
    }
}

/// A host file read defensively: `Ok(None)` when it does not exist, `Err`
/// (the reason) when it is not a regular file, too large, unreadable or not
/// UTF-8. A FIFO or device is refused before it is opened (it could block).
fn read_bounded(path: &Path) -> Result<Option<String>, String> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{} cannot be read: {e}", path.display())),
    };
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{} is larger than {} MiB",
            path.display(),
            MAX_BYTES >> 20
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("{} grew past the size bound", path.display()));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| format!("{} is not UTF-8", path.display()))
}

/// A JSON (with comments) object file: `Ok(None)` when absent.
fn read_json(path: &Path) -> Result<Option<Map<String, Value>>, String> {
    let Some(text) = read_bounded(path)? else {
        return Ok(None);
    };
    if let Some(line) = super::formats::too_deep(&text) {
        return Err(format!(
            "{} does not parse (line {line}: arrays and objects nest deeper than {} levels)",
            path.display(),
            super::formats::MAX_DEPTH
        ));
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
    };
    match jsonc_parser::parse_to_value(&text, &options).map(|v| v.map(super::formats::from_jsonc)) {
        Ok(Some(Value::Object(map))) => Ok(Some(map)),
        Ok(None) => Ok(Some(Map::new())),
        Ok(Some(_)) => Err(format!("{} is not a JSON object", path.display())),
        Err(e) => Err(format!(
            "{} does not parse (line {}: {})",
            path.display(),
            e.line_display(),
            e.kind()
        )),
    }
}

/// `path` and the spelling of it with symlinks resolved, when it differs.
fn spellings(path: &Path) -> Vec<PathBuf> {
    let mut out = vec![path.to_path_buf()];
    if let Ok(real) = path.canonicalize()
        && real != path
    {
        out.push(real);
    }
    out
}

// ------------------------------------------------------------ Claude Code

/// What one Claude Code file says about the project's `.mcp.json` server
/// `name`: rejected, approved, or nothing.
fn claude_decision(map: &Map<String, Value>, name: &str) -> Option<bool> {
    let listed = |key: &str| {
        map.get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|v| v == name))
    };
    if listed("disabledMcpjsonServers") {
        Some(false)
    } else if listed("enabledMcpjsonServers")
        || map.get("enableAllProjectMcpServers") == Some(&Value::Bool(true))
    {
        Some(true)
    } else {
        None
    }
}

fn claude_project(home: Option<&Path>, project: &Path, name: &str) -> Gate {
    // Where Claude Code keeps the answer of its approval prompt (the
    // project's entry in ~/.claude.json) and the settings that pre-approve
    // (local, project, user settings files).
    let mut sources: Vec<(PathBuf, Option<Vec<PathBuf>>)> = Vec::new();
    if let Some(home) = home {
        sources.push((home.join(".claude.json"), Some(spellings(project))));
    }
    sources.push((project.join(".claude/settings.local.json"), None));
    sources.push((project.join(".claude/settings.json"), None));
    if let Some(home) = home {
        sources.push((home.join(".claude/settings.json"), None));
    }
    let clear = format!(
        "run `claude` in {} and approve `{name}` when it asks (or `/mcp` to enable it), \
         or add \"enabledMcpjsonServers\": [\"{name}\"] to {}",
        project.display(),
        project.join(".claude/settings.local.json").display()
    );
    let mut approved_in = None;
    for (path, keys) in &sources {
        let map = match read_json(path) {
            Ok(Some(map)) => map,
            Ok(None) => continue,
            Err(why) => return Gate::unknown(why),
        };
        let decision = match keys {
            Some(keys) => {
                let projects = map.get("projects").and_then(Value::as_object);
                keys.iter()
                    .filter_map(|k| projects?.get(&k.display().to_string()))
                    .filter_map(Value::as_object)
                    .find_map(|entry| claude_decision(entry, name))
            }
            None => claude_decision(&map, name),
        };
        match decision {
            Some(false) => {
                return Gate::needs(
                    "needs approval",
                    format!("`{name}` is rejected in {}", path.display()),
                    format!(
                        "remove \"{name}\" from disabledMcpjsonServers in {} (or enable it with `/mcp` in Claude Code)",
                        path.display()
                    ),
                );
            }
            Some(true) if approved_in.is_none() => approved_in = Some(path.clone()),
            _ => {}
        }
    }
    match approved_in {
        Some(path) => Gate::configured(format!("approved in {}", path.display())),
        None => Gate::needs(
            "needs approval",
            "Claude Code asks before it starts a server of a project's .mcp.json, \
             and no approval is recorded",
            clear,
        ),
    }
}

// ------------------------------------------------------------------ Codex

/// `$CODEX_HOME` (Codex's own override of `~/.codex`), else `~/.codex`.
fn codex_home(home: Option<&Path>) -> Option<PathBuf> {
    match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => home.map(|h| h.join(".codex")),
    }
}

fn codex_project(home: Option<&Path>, project: &Path) -> Gate {
    let Some(dir) = codex_home(home) else {
        return Gate::unknown("neither HOME nor CODEX_HOME names Codex's folder");
    };
    let path = dir.join("config.toml");
    let clear = format!(
        "run `codex` in {} and trust the project when it asks, or add \
         [projects.\"{}\"] trust_level = \"trusted\" to {}",
        project.display(),
        project.display(),
        path.display()
    );
    let needs = |reason: String| Gate::needs("needs trust", reason, clear.as_str());
    let text = match read_bounded(&path) {
        Ok(Some(text)) => text,
        Ok(None) => {
            return needs(format!(
                "Codex reads .codex/config.toml only in a trusted project, and {} does not exist",
                path.display()
            ));
        }
        Err(why) => return Gate::unknown(why),
    };
    let doc = match text.parse::<toml_edit::DocumentMut>() {
        Ok(doc) => doc,
        Err(e) => {
            let first = e
                .message()
                .lines()
                .next()
                .unwrap_or("invalid TOML")
                .to_string();
            return Gate::unknown(format!("{} does not parse: {first}", path.display()));
        }
    };
    let projects = doc.get("projects").and_then(|p| p.as_table_like());
    // Codex looks the trust up for the folder it starts in and its git
    // repository's root: the nearest recorded folder at or above the project.
    for spelling in spellings(project) {
        for folder in spelling.ancestors() {
            let Some(level) = projects
                .and_then(|p| p.get(&folder.display().to_string()))
                .and_then(|entry| entry.as_table_like())
                .and_then(|entry| entry.get("trust_level"))
            else {
                continue;
            };
            let at = format!("[projects.\"{}\"] in {}", folder.display(), path.display());
            return match level.as_str() {
                Some("trusted") => Gate::configured(format!("trusted: {at}")),
                Some("untrusted") => needs(format!("marked untrusted: {at}")),
                _ => Gate::unknown(format!("an unknown trust_level: {at}")),
            };
        }
    }
    needs(format!(
        "Codex reads .codex/config.toml only in a trusted project, and {} records no trust for {}",
        path.display(),
        project.display()
    ))
}

// ------------------------------------------------------------- Gemini CLI

/// The trust levels of `trustedFolders.json`.
const GEMINI_LEVELS: [&str; 3] = ["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"];

fn gemini(home: Option<&Path>, project: &Path) -> Gate {
    let Some(home) = home else {
        return Gate::unknown("HOME is not usable, so ~/.gemini cannot be read");
    };
    let settings = home.join(".gemini/settings.json");
    let enabled = match read_json(&settings) {
        Ok(map) => map
            .as_ref()
            .and_then(|m| m.get("security"))
            .and_then(|s| s.get("folderTrust"))
            .and_then(|f| f.get("enabled"))
            .and_then(Value::as_bool),
        Err(why) => return Gate::unknown(why),
    };
    if enabled == Some(false) {
        return Gate::configured(format!(
            "folder trust is off (security.folderTrust.enabled = false in {})",
            settings.display()
        ));
    }
    let path = std::env::var_os("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".gemini/trustedFolders.json"));
    let clear = format!(
        "run `gemini` in {} and choose \"Trust folder\" (or `/permissions`), or add \
         \"{}\": \"TRUST_FOLDER\" to {}",
        project.display(),
        project.display(),
        path.display()
    );
    let needs = |reason: String| Gate::needs("needs trust", reason, clear.as_str());
    let rules = match read_json(&path) {
        Ok(Some(rules)) => rules,
        Ok(None) => {
            return needs(format!(
                "Gemini CLI starts no MCP server in an untrusted folder, and {} does not exist",
                path.display()
            ));
        }
        Err(why) => return Gate::unknown(why),
    };
    // Gemini CLI refuses to start on a level it does not know.
    if let Some((folder, level)) = rules
        .iter()
        .find(|(_, level)| !level.as_str().is_some_and(|l| GEMINI_LEVELS.contains(&l)))
    {
        return Gate::unknown(format!(
            "{} gives {folder} the unknown trust level {level}",
            path.display()
        ));
    }
    // The longest rule whose folder (its parent, for TRUST_PARENT) holds the
    // project decides, paths compared with symlinks resolved. Gemini CLI
    // writes absolute paths; a rule that is not one (`""` is a prefix of
    // every path) trusts nothing here.
    let places = spellings(project);
    let decision = rules
        .iter()
        .filter(|(rule, _)| Path::new(rule.as_str()).is_absolute())
        .filter(|(rule, level)| {
            let rule = Path::new(rule.as_str());
            let root = if *level == "TRUST_PARENT" {
                rule.parent().unwrap_or(rule)
            } else {
                rule
            };
            spellings(root)
                .iter()
                .any(|root| places.iter().any(|p| p.starts_with(root)))
        })
        .max_by_key(|(rule, _)| rule.len());
    match decision {
        Some((rule, level)) if level == "DO_NOT_TRUST" => {
            needs(format!("\"{rule}\" is DO_NOT_TRUST in {}", path.display()))
        }
        Some((rule, level)) => Gate::configured(format!(
            "trusted: \"{rule}\" is {} in {}",
            level.as_str().unwrap_or(""),
            path.display()
        )),
        None => needs(format!(
            "Gemini CLI starts no MCP server in an untrusted folder, and {} does not trust {}",
            path.display(),
            project.display()
        )),
    }
}
