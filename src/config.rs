//! `config.json` of a home. Unknown keys are ignored, missing keys take defaults.

use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;

/// Default cap for one stored item (a plan file, a note, one input file).
pub const DEFAULT_MAX_ITEM_BYTES: u64 = 1024 * 1024;

/// The settings of one home.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Config {
    pub limits: Limits,
    pub redaction: RedactionConfig,
}

/// Size limits.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Largest accepted item (input file, stored document), in bytes.
    pub max_item_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_item_bytes: DEFAULT_MAX_ITEM_BYTES,
        }
    }
}

/// Extra redaction patterns; built-in patterns cannot be removed.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RedactionConfig {
    pub extra_patterns: Vec<String>,
}

/// The config file written by `agentbox init`.
pub const DEFAULT_CONFIG: &str = r#"{
  "schema": "agentbox.config/v1",
  "limits": {
    "max_item_bytes": 1048576
  },
  "redaction": {
    "extra_patterns": []
  }
}
"#;

impl Config {
    /// Parses config text; errors name the file, line and column.
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        serde_json::from_str(text).map_err(|e| {
            Error::invalid_args(format!(
                "{} is not a valid config: {e}",
                path.display()
            ))
            .with_hint("fix the file by hand, or move it away and run `agentbox init` to write a fresh one")
            .with_detail("path", path.display().to_string())
            .with_detail("line", e.line())
            .with_detail("column", e.column())
        })
    }
}
