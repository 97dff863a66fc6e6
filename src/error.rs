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

#[cfg(test)]
mod tests {
    use super::*;

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
