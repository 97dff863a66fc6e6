//! Static screening of a skill folder: every file, every line, against rules
//! for what a malicious skill does (remote code execution, obfuscated
//! payloads, credential access and exfiltration, reverse shells, persistence,
//! agent-config tampering, destructive commands, prompt injection, hidden
//! Unicode, overly broad tool grants, unexplained binaries). Knows no tool.
//!
//! INTERFACE PLACEHOLDER: the screening helper replaces this file's body.

use crate::error::Result;
use crate::redact::Redactor;
use std::path::Path;

/// The outcome of a screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Pass,
    Warn,
    Fail,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
        }
    }
}

/// How bad one finding is: `Warn` findings make the verdict `warn`, `Fail`
/// findings make it `fail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Info,
    Warn,
    Fail,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Fail => "fail",
        }
    }
}

/// One rule that matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Stable rule id (`rce-pipe-to-shell`).
    pub rule: &'static str,
    /// One of the categories (`remote_code_execution`, `credential_access`, …).
    pub category: &'static str,
    pub severity: Severity,
    /// Path relative to the skill folder, `/`-separated.
    pub file: String,
    /// 1-based line (0 for a whole-file finding such as a binary).
    pub line: usize,
    /// The matched text, redacted and cut to ~160 characters.
    pub excerpt: String,
    /// Why it matters, one sentence.
    pub why: &'static str,
}

/// A screen of one skill folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Screen {
    pub verdict: Verdict,
    /// `sha256:<hex>` over every file's relative path, mode and bytes (see `content_hash`).
    pub content_hash: String,
    pub findings: Vec<Finding>,
}

/// Screens every file below `dir` (symlinks are findings, never followed).
pub fn screen_dir(dir: &Path, redactor: &Redactor) -> Result<Screen> {
    let _ = redactor;
    Ok(Screen {
        verdict: Verdict::Pass,
        content_hash: content_hash(dir)?,
        findings: Vec::new(),
    })
}

/// The content hash of a skill folder: sha256 over, for every file in sorted
/// relative-path order, its path, its mode (executable or not) and its bytes.
pub fn content_hash(dir: &Path) -> Result<String> {
    let _ = dir;
    Ok("sha256:placeholder".to_string())
}
