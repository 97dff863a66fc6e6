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
    pub mcp: McpConfig,
    pub proactive: ProactiveConfig,
    /// The model route (`"model": {…}`), read by `crate::oda`; absent means
    /// no route.
    pub model: Option<serde_json::Value>,
    /// Budgets and prices of `evolve run`.
    pub evolve: EvolveConfig,
}

/// The `evolve` block: the default budgets of `evolve run` (its `--max-…`
/// flags override them) and the prices its cost estimate uses.
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct EvolveConfig {
    /// Most episodes one run mines.
    pub max_episodes: u64,
    /// Longest run, in seconds of real time.
    pub max_seconds: f64,
    /// Most model calls one run makes.
    pub max_model_calls: u64,
    /// Highest estimated model cost of one run, in US dollars.
    pub max_cost_usd: f64,
    /// Price of a million input tokens (a token ≈ 4 characters).
    pub input_cost_per_million_usd: f64,
    /// Price of a million output tokens.
    pub output_cost_per_million_usd: f64,
}

impl Default for EvolveConfig {
    fn default() -> Self {
        EvolveConfig {
            max_episodes: 100_000,
            max_seconds: 600.0,
            max_model_calls: 100,
            max_cost_usd: 1.0,
            input_cost_per_million_usd: 3.0,
            output_cost_per_million_usd: 15.0,
        }
    }
}

impl EvolveConfig {
    /// Refuses a negative or non-finite number (the integers are refused as
    /// negative by the parser already).
    fn check(&self, path: &Path) -> Result<()> {
        for (key, value) in [
            ("max_seconds", self.max_seconds),
            ("max_cost_usd", self.max_cost_usd),
            (
                "input_cost_per_million_usd",
                self.input_cost_per_million_usd,
            ),
            (
                "output_cost_per_million_usd",
                self.output_cost_per_million_usd,
            ),
        ] {
            if !value.is_finite() || value < 0.0 {
                let key = format!("evolve.{key}");
                return Err(Error::invalid_args(format!(
                    "{}: {key} must be a number of at least 0, not {value}",
                    path.display()
                ))
                .with_hint(format!(
                    "set {key} to 0 or more in config.json, or remove it"
                ))
                .with_detail("path", path.display().to_string())
                .with_detail("key", key));
            }
        }
        Ok(())
    }
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

/// Limits of the memory MCP server (`memory_mcp`, docs/MCP.md).
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct McpConfig {
    /// Largest accepted request line, in bytes; a longer line is answered
    /// with an error and discarded without being buffered whole.
    pub max_line_bytes: u64,
    /// Longest tool result or resource text, in characters; longer text is
    /// cut with a truncation notice.
    pub max_result_chars: u64,
    /// Web origins besides local pages (`http://localhost:*` …) whose
    /// requests `memory_mcp --http` accepts, exactly as browsers send them
    /// (`https://app.example.com`).
    pub allowed_origins: Vec<String>,
}

/// Default cap for one MCP request line (odek's `max_response_bytes` default).
pub const DEFAULT_MCP_MAX_LINE_BYTES: u64 = 10 * 1024 * 1024;
/// Default cap for MCP result text (odek's `max_result_chars` default).
pub const DEFAULT_MCP_MAX_RESULT_CHARS: u64 = 200_000;

impl Default for McpConfig {
    fn default() -> Self {
        McpConfig {
            max_line_bytes: DEFAULT_MCP_MAX_LINE_BYTES,
            max_result_chars: DEFAULT_MCP_MAX_RESULT_CHARS,
            allowed_origins: Vec::new(),
        }
    }
}

/// Settings of `proactive` (docs/tools/proactive.md).
#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct ProactiveConfig {
    /// `proactive scan`: an in-progress plan step untouched this many days
    /// is stale (`--stale-days` overrides it).
    pub stale_days: u64,
}

impl Default for ProactiveConfig {
    fn default() -> Self {
        ProactiveConfig { stale_days: 3 }
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
  },
  "mcp": {
    "max_line_bytes": 10485760,
    "max_result_chars": 200000
  }
}
"#;

impl Config {
    /// Parses config text; errors name the file, line and column.
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let config: Config = serde_json::from_str(text).map_err(|e| {
            Error::invalid_args(format!(
                "{} is not a valid config: {e}",
                path.display()
            ))
            .with_hint("fix the file by hand, or move it away and run `agentbox init` to write a fresh one")
            .with_detail("path", path.display().to_string())
            .with_detail("line", e.line())
            .with_detail("column", e.column())
        })?;
        config.redaction.check(path)?;
        config.evolve.check(path)?;
        Ok(config)
    }
}

impl RedactionConfig {
    /// Refuses a pattern that can match the empty string (`a*`, `x?`, `^`):
    /// it would match everywhere and mask nothing meaningful. Invalid regexes
    /// are reported when the redactor compiles them.
    fn check(&self, path: &Path) -> Result<()> {
        for (index, pattern) in self.extra_patterns.iter().enumerate() {
            if crate::redact::matches_empty(pattern) == Some(true) {
                let key = format!("redaction.extra_patterns[{index}]");
                return Err(Error::invalid_args(format!(
                    "{}: {key} can match the empty string: {pattern:?}",
                    path.display()
                ))
                .with_hint(format!(
                    "change the pattern {pattern:?} so that every match is at least one character long (`+` instead of `*`, no trailing `?`), or remove it from config.json"
                ))
                .with_detail("path", path.display().to_string())
                .with_detail("key", key));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_config_file_holds_the_defaults() {
        let config = Config::parse(DEFAULT_CONFIG, Path::new("config.json")).unwrap();
        assert_eq!(config.limits.max_item_bytes, DEFAULT_MAX_ITEM_BYTES);
        assert_eq!(config.mcp.max_line_bytes, DEFAULT_MCP_MAX_LINE_BYTES);
        assert_eq!(config.mcp.max_result_chars, DEFAULT_MCP_MAX_RESULT_CHARS);
        let partial =
            Config::parse(r#"{"mcp": {"max_line_bytes": 65536}}"#, Path::new("c")).unwrap();
        assert_eq!(partial.mcp.max_line_bytes, 65536);
        assert_eq!(partial.mcp.max_result_chars, DEFAULT_MCP_MAX_RESULT_CHARS);
        assert!(Config::parse(r#"{"mcp": {"max_line_bytes": -1}}"#, Path::new("c")).is_err());
    }

    #[test]
    fn the_evolve_block_has_defaults_and_refuses_negative_numbers() {
        let config = Config::parse("{}", Path::new("c")).unwrap();
        assert_eq!(config.evolve.max_episodes, 100_000);
        assert_eq!(config.evolve.max_seconds, 600.0);
        assert_eq!(config.evolve.max_model_calls, 100);
        assert_eq!(config.evolve.max_cost_usd, 1.0);
        assert_eq!(config.evolve.input_cost_per_million_usd, 3.0);
        assert_eq!(config.evolve.output_cost_per_million_usd, 15.0);
        let partial = Config::parse(
            r#"{"evolve": {"max_model_calls": 5, "max_cost_usd": 0}}"#,
            Path::new("c"),
        )
        .unwrap();
        assert_eq!(partial.evolve.max_model_calls, 5);
        assert_eq!(partial.evolve.max_cost_usd, 0.0);
        assert_eq!(partial.evolve.max_seconds, 600.0);
        let err = Config::parse(r#"{"evolve": {"max_seconds": -1}}"#, Path::new("c")).unwrap_err();
        assert_eq!(err.detail["key"], "evolve.max_seconds");
        assert!(Config::parse(r#"{"evolve": {"max_episodes": -1}}"#, Path::new("c")).is_err());
    }

    #[test]
    fn patterns_that_match_the_empty_string_are_refused() {
        for pattern in ["a*", "x?", "^", "$", "\\b", "(?:)", "a|"] {
            let text = serde_json::json!({"redaction": {"extra_patterns": ["ok", pattern]}});
            let err = Config::parse(&text.to_string(), Path::new("config.json")).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{pattern}");
            assert!(
                err.message.contains("redaction.extra_patterns[1]"),
                "{}",
                err.message
            );
            assert!(err.hint.contains(&format!("{pattern:?}")), "{}", err.hint);
        }
        for pattern in [
            "a+",
            "pending",
            "ACME-[0-9]{6}",
            "internal:(?P<secret>[a-z]+)",
            "(",
        ] {
            let text = serde_json::json!({"redaction": {"extra_patterns": [pattern]}});
            assert!(
                Config::parse(&text.to_string(), Path::new("c")).is_ok(),
                "{pattern}"
            );
        }
    }
}
