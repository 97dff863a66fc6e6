//! What agentbox wrote into host configs, so that `remove` takes away only
//! that: `<home>/local/hosts.json` (per home, never synced).

use crate::error::{Error, Result};
use crate::home::Home;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// The file, relative to the home.
pub const FILE: &[&str] = &["local", "hosts.json"];

/// Everything written, per host and scope.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Owned {
    #[serde(default)]
    pub installs: Vec<Install>,
}

/// What one install into one host and scope wrote.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Install {
    pub host: String,
    pub scope: String,
    /// The MCP server entry, when agentbox wrote (or adopted) it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<Server>,
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// Skills folders created for the exports (removed again when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_dirs: Vec<PathBuf>,
}

/// The server entry: where, under which key, and the hash of its value.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Server {
    pub config: PathBuf,
    pub key: String,
    pub hash: String,
    /// The config file did not exist before (remove deletes it when nothing
    /// else is left in it).
    #[serde(default)]
    pub created_file: bool,
    /// The servers object did not exist before (remove drops it when empty).
    #[serde(default)]
    pub created_container: bool,
    /// Folders created for the file, outermost first (removed when empty).
    #[serde(default)]
    pub created_dirs: Vec<PathBuf>,
    /// The URL form (`install --url`): the URL the entry connects to, and
    /// the name of the variable holding the bearer token (never its
    /// value; not called `token…`, which the redactor masks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_env: Option<String>,
}

/// One exported skill folder and the content hash it was written with.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Skill {
    pub name: String,
    pub path: PathBuf,
    pub hash: String,
}

impl Owned {
    pub fn load(home: &Home) -> Result<Owned> {
        let path = home.store.path(FILE)?;
        match home.store.read_state(&path)? {
            None => Ok(Owned::default()),
            Some(text) => serde_json::from_str(&text).map_err(|e| {
                Error::invalid_args(format!("{} does not parse: {e}", path.display()))
                    .with_hint("it records what `sync hosts install` wrote; repair it, or delete it (remove then removes nothing)")
                    .with_detail("path", path.display().to_string())
            }),
        }
    }

    pub fn save(&self, home: &Home) -> Result<()> {
        let path = home.store.path(FILE)?;
        if let Some(dir) = path.parent() {
            home.store.ensure_dir(dir)?;
        }
        home.store.write_state(&path, self)
    }

    /// The record for a host and scope, if any.
    pub fn get(&self, host: &str, scope: &str) -> Option<&Install> {
        self.installs
            .iter()
            .find(|i| i.host == host && i.scope == scope)
    }

    /// The record for a host and scope, created empty when missing.
    pub fn entry(&mut self, host: &str, scope: &str) -> &mut Install {
        let at = match self
            .installs
            .iter()
            .position(|i| i.host == host && i.scope == scope)
        {
            Some(at) => at,
            None => {
                self.installs.push(Install {
                    host: host.to_string(),
                    scope: scope.to_string(),
                    server: None,
                    skills: Vec::new(),
                    created_dirs: Vec::new(),
                });
                self.installs.len() - 1
            }
        };
        &mut self.installs[at]
    }

    /// Drops records that hold nothing any more.
    pub fn prune(&mut self) {
        self.installs
            .retain(|i| i.server.is_some() || !i.skills.is_empty());
    }
}

/// The hash recorded for a server entry: [`value_hash`] of the entry with
/// the fields a host may leave out or spell out at their default value
/// dropped, so that a host rewriting its config does not make our entry look
/// foreign (`codex mcp add` drops `args = []` and writes `env` as a
/// sub-table; a host may add or drop `"type": "stdio"`).
pub fn entry_hash(value: &Value) -> String {
    value_hash(&semantic(value))
}

/// Whether `value` is the entry whose hash was recorded as `hash`: compared
/// semantically ([`entry_hash`]), or exactly (a record written before the
/// comparison was semantic).
pub fn is_recorded(hash: &str, value: &Value) -> bool {
    entry_hash(value) == hash || value_hash(value) == hash
}

/// Whether two server entries mean the same thing ([`entry_hash`]).
pub fn same_entry(a: &Value, b: &Value) -> bool {
    semantic(a) == semantic(b)
}

/// A server entry without its default-valued fields: `args: []`, `env: {}`
/// and `type: "stdio"` mean what their absence means to every host. The
/// inline-table and sub-table forms of TOML's `env` are the same object
/// already once read.
fn semantic(value: &Value) -> Value {
    let Value::Object(map) = value else {
        return value.clone();
    };
    let mut map = map.clone();
    let default = |key: &str, v: &Value| match key {
        "args" => v.as_array().is_some_and(Vec::is_empty),
        "env" => v.as_object().is_some_and(serde_json::Map::is_empty),
        "type" => v == "stdio",
        _ => false,
    };
    map.retain(|k, v| !default(k, v));
    Value::Object(map)
}

/// `sha256:<hex>` of a value with its object keys sorted, so that a host
/// reordering keys does not make our entry look foreign.
pub fn value_hash(value: &Value) -> String {
    let canonical = canonical(value).to_string();
    let digest = Sha256::digest(canonical.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::{entry_hash, is_recorded, value_hash};
    use serde_json::json;

    #[test]
    fn the_hash_ignores_key_order_but_not_values() {
        let a = json!({"command": "x", "args": [], "env": {"A": "1", "B": "2"}});
        let b = json!({"env": {"B": "2", "A": "1"}, "args": [], "command": "x"});
        assert_eq!(value_hash(&a), value_hash(&b));
        assert_ne!(value_hash(&a), value_hash(&json!({"command": "y"})));
    }

    #[test]
    fn default_valued_fields_are_the_same_as_missing_ones() {
        let ours = json!({"command": "x", "args": [], "env": {"A": "1"}});
        let rewritten = json!({"type": "stdio", "env": {"A": "1"}, "command": "x"});
        assert_eq!(entry_hash(&ours), entry_hash(&rewritten));
        assert!(is_recorded(&entry_hash(&ours), &rewritten));
        // a record from before: the exact hash still counts
        assert!(is_recorded(&value_hash(&ours), &ours));
        for other in [
            json!({"command": "x", "args": ["-v"], "env": {"A": "1"}}),
            json!({"command": "x", "env": {"A": "2"}}),
            json!({"command": "x", "env": {"A": "1"}, "type": "http"}),
            json!({"command": "x"}),
        ] {
            assert_ne!(entry_hash(&ours), entry_hash(&other), "{other}");
        }
    }
}
