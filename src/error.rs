//! The error taxonomy of the public contract and the one place that maps
//! error types to exit codes.

use serde_json::{Map, Value, json};
use std::fmt;

/// Every `error.type` of the contract (seed 002). Later tools use the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorType {
    InvalidArgs,
    NotFound,
    Conflict,
    Permission,
    Upstream,
    RateLimit,
    PluginNotDetected,
    NotLoggedIn,
    Auth,
    Network,
    Io,
    Internal,
    Cancelled,
}

impl ErrorType {
    /// All types, in the order of the contract table.
    pub const ALL: [ErrorType; 13] = [
        ErrorType::InvalidArgs,
        ErrorType::NotFound,
        ErrorType::Conflict,
        ErrorType::Permission,
        ErrorType::Upstream,
        ErrorType::RateLimit,
        ErrorType::PluginNotDetected,
        ErrorType::NotLoggedIn,
        ErrorType::Auth,
        ErrorType::Network,
        ErrorType::Io,
        ErrorType::Internal,
        ErrorType::Cancelled,
    ];

    /// The wire name (`error.type`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::InvalidArgs => "invalid_args",
            ErrorType::NotFound => "not_found",
            ErrorType::Conflict => "conflict",
            ErrorType::Permission => "permission",
            ErrorType::Upstream => "upstream",
            ErrorType::RateLimit => "rate_limit",
            ErrorType::PluginNotDetected => "plugin_not_detected",
            ErrorType::NotLoggedIn => "not_logged_in",
            ErrorType::Auth => "auth",
            ErrorType::Network => "network",
            ErrorType::Io => "io",
            ErrorType::Internal => "internal",
            ErrorType::Cancelled => "cancelled",
        }
    }

    /// The process exit code for this type. The only exit-code map there is.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorType::InvalidArgs => 2,
            ErrorType::NotFound
            | ErrorType::Conflict
            | ErrorType::Permission
            | ErrorType::Upstream
            | ErrorType::RateLimit
            | ErrorType::PluginNotDetected => 1,
            ErrorType::NotLoggedIn | ErrorType::Auth => 3,
            ErrorType::Network => 4,
            ErrorType::Io | ErrorType::Internal => 5,
            ErrorType::Cancelled => 130,
        }
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failure every tool returns: type, message, the next action, structured detail.
#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorType,
    pub message: String,
    pub hint: String,
    pub detail: Map<String, Value>,
    /// The upstream's own numeric code (HTTP status, JSON-RPC code); 0 when none.
    pub code: i64,
    /// Facts about the call itself (the envelope's `meta`), e.g. the
    /// `run_dir` of a run that stopped on a budget.
    pub meta: Map<String, Value>,
}

/// Shorthand used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorType, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            hint: String::new(),
            detail: Map::new(),
            code: 0,
            meta: Map::new(),
        }
    }

    pub fn invalid_args(message: impl Into<String>) -> Error {
        Error::new(ErrorType::InvalidArgs, message)
    }

    pub fn not_found(message: impl Into<String>) -> Error {
        Error::new(ErrorType::NotFound, message)
    }

    pub fn conflict(message: impl Into<String>) -> Error {
        Error::new(ErrorType::Conflict, message)
    }

    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(ErrorType::Internal, message)
    }

    /// An `io` error naming the path it happened on.
    pub fn io(action: &str, path: &std::path::Path, err: &std::io::Error) -> Error {
        Error::new(
            ErrorType::Io,
            format!("cannot {action} {}: {err}", path.display()),
        )
        .with_detail("path", path.display().to_string())
        .with_hint("check the path's permissions and free disk space, then retry")
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = hint.into();
        self
    }

    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Error {
        self.detail.insert(key.to_string(), value.into());
        self
    }

    /// Adds a key to the failure envelope's `meta`.
    pub fn with_meta(mut self, key: &str, value: impl Into<Value>) -> Error {
        self.meta.insert(key.to_string(), value.into());
        self
    }

    /// `detail {limit_name, observed, limit}` for size and budget limits.
    pub fn with_limit(self, limit_name: &str, observed: u64, limit: u64) -> Error {
        self.with_detail("limit_name", limit_name)
            .with_detail("observed", observed)
            .with_detail("limit", limit)
    }

    pub fn exit_code(&self) -> i32 {
        self.kind.exit_code()
    }

    /// The `error` object of the envelope.
    pub fn to_json(&self) -> Value {
        json!({
            "type": self.kind.as_str(),
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "detail": Value::Object(self.detail.clone()),
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for Error {}

/// `invalid_args` for something over a limit: "`{amount}`, over the limit of
/// `{limit}`", with `detail {limit_name, observed, limit}`. The one wording
/// of every "too big" error (`amount` is "the note is 1200 characters", "the
/// plan has 60 steps").
pub fn over_limit(amount: impl fmt::Display, limit_name: &str, observed: u64, limit: u64) -> Error {
    Error::invalid_args(format!("{amount}, over the limit of {limit}"))
        .with_limit(limit_name, observed, limit)
}

/// How a bounded text is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextUnit {
    /// Unicode scalar values (what a person counts).
    Chars,
    /// UTF-8 bytes (what a file name or a line of a file holds).
    Bytes,
}

/// A bound on a text given by a user or an agent: its longest length and
/// the control characters it may hold. One place measures the text and words
/// the "over the limit of" error; each caller keeps its own order of checks
/// and its own message for a control character.
#[derive(Debug, Clone, Copy)]
pub struct TextLimit<'a> {
    /// The text as messages name it: "the note", "a fact", "session key".
    pub what: &'a str,
    /// The longest length allowed, in `unit`s.
    pub max: usize,
    /// What a length counts.
    pub unit: TextUnit,
    /// The `detail.limit_name` of the error (`note_chars`).
    pub limit_name: &'a str,
    /// The control characters the text may hold (none by default).
    pub allowed_controls: &'a [char],
}

impl<'a> TextLimit<'a> {
    /// At most `max` characters, no control character.
    pub const fn chars(what: &'a str, max: usize, limit_name: &'a str) -> TextLimit<'a> {
        TextLimit {
            what,
            max,
            unit: TextUnit::Chars,
            limit_name,
            allowed_controls: &[],
        }
    }

    /// At most `max` bytes, no control character.
    pub const fn bytes(what: &'a str, max: usize, limit_name: &'a str) -> TextLimit<'a> {
        TextLimit {
            unit: TextUnit::Bytes,
            ..TextLimit::chars(what, max, limit_name)
        }
    }

    /// The same bound, letting these control characters through (`\n`, `\t`).
    pub const fn allowing(self, controls: &'a [char]) -> TextLimit<'a> {
        TextLimit {
            allowed_controls: controls,
            ..self
        }
    }

    /// The length of `text` in this bound's unit.
    pub fn length(&self, text: &str) -> usize {
        match self.unit {
            TextUnit::Chars => text.chars().count(),
            TextUnit::Bytes => text.len(),
        }
    }

    /// "the note is 1200 characters, over the limit of 1000" when `text` is
    /// too long (for callers whose errors are plain messages).
    pub fn over_message(&self, text: &str) -> Option<String> {
        let n = self.length(text);
        (n > self.max).then(|| format!("{}, over the limit of {}", self.amount(n), self.max))
    }

    /// `invalid_args` with `detail {limit_name, observed, limit}` when `text`
    /// is too long (see [`over_limit`]); the caller adds its hint.
    pub fn check_length(&self, text: &str) -> Result<()> {
        let n = self.length(text);
        if n > self.max {
            return Err(over_limit(
                self.amount(n),
                self.limit_name,
                n as u64,
                self.max as u64,
            ));
        }
        Ok(())
    }

    /// True when `text` holds a control character this bound does not allow.
    pub fn has_control(&self, text: &str) -> bool {
        text.chars()
            .any(|c| c.is_control() && !self.allowed_controls.contains(&c))
    }

    /// "the note is 1200 characters".
    fn amount(&self, n: usize) -> String {
        let unit = match self.unit {
            TextUnit::Chars => "characters",
            TextUnit::Bytes => "bytes",
        };
        format!("{} is {n} {unit}", self.what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_over_its_limit_is_invalid_args_with_the_limit_in_detail() {
        let limit = TextLimit::chars("the note", 3, "note_chars");
        assert!(limit.check_length("abc").is_ok());
        assert!(
            limit.check_length("\u{e9}\u{e9}\u{e9}").is_ok(),
            "characters, not bytes"
        );
        let err = limit.check_length("abcd").unwrap_err();
        assert_eq!(err.kind, ErrorType::InvalidArgs);
        assert_eq!(err.message, "the note is 4 characters, over the limit of 3");
        assert_eq!(
            Value::Object(err.detail),
            json!({"limit_name": "note_chars", "observed": 4, "limit": 3})
        );
        assert_eq!(
            limit.over_message("abcd").as_deref(),
            Some("the note is 4 characters, over the limit of 3")
        );
        assert_eq!(limit.over_message("abc"), None);
        let bytes = TextLimit::bytes("session key", 4, "session_key_bytes");
        assert_eq!(
            bytes
                .check_length("\u{e9}\u{e9}\u{e9}")
                .unwrap_err()
                .message,
            "session key is 6 bytes, over the limit of 4"
        );
        let err = over_limit("the plan has 9 steps", "steps", 9, 5);
        assert_eq!(err.message, "the plan has 9 steps, over the limit of 5");
        assert_eq!(err.detail["limit_name"], "steps");
    }

    #[test]
    fn control_characters_are_refused_unless_allowed() {
        let plain = TextLimit::chars("a fact", 100, "fact_chars");
        assert!(!plain.has_control("plain text, \u{e9}"));
        for bad in ["a\nb", "a\tb", "a\rb", "a\u{1b}b", "a\u{85}b", "a\0b"] {
            assert!(plain.has_control(bad), "{bad:?}");
        }
        let note = plain.allowing(&['\n', '\t']);
        assert!(!note.has_control("line one\n\tline two"));
        assert!(note.has_control("a\rb"));
    }

    #[test]
    fn exit_codes_follow_the_contract_table() {
        let table: Vec<(&str, i32)> = ErrorType::ALL
            .iter()
            .map(|t| (t.as_str(), t.exit_code()))
            .collect();
        assert_eq!(
            table,
            vec![
                ("invalid_args", 2),
                ("not_found", 1),
                ("conflict", 1),
                ("permission", 1),
                ("upstream", 1),
                ("rate_limit", 1),
                ("plugin_not_detected", 1),
                ("not_logged_in", 3),
                ("auth", 3),
                ("network", 4),
                ("io", 5),
                ("internal", 5),
                ("cancelled", 130),
            ]
        );
    }
}
