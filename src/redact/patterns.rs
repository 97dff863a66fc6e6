//! User patterns (`redaction.extra_patterns` in `config.json`): compiled
//! once when the redactor is built, applied after the built-in rules.

use super::grammar::Rewriter;
use super::{MASK, mask_value};
use regex::Regex;
use std::fmt;

/// One compiled user pattern.
#[derive(Debug, Clone)]
pub(super) struct ExtraPattern {
    re: Regex,
    /// Index of the `secret` capture group, when the pattern has one.
    secret: Option<usize>,
}

/// An extra pattern from the config that is not a valid regex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedactPatternError {
    /// Position of the pattern in `redaction.extra_patterns`.
    pub index: usize,
    /// The regex parser's message.
    pub message: String,
}

impl fmt::Display for RedactPatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "redaction pattern {} is not a valid regex: {}",
            self.index, self.message
        )
    }
}

impl std::error::Error for RedactPatternError {}

/// Compiles the user patterns in order; the first invalid one is reported.
pub(super) fn compile(extra: &[String]) -> Result<Vec<ExtraPattern>, RedactPatternError> {
    extra
        .iter()
        .enumerate()
        .map(|(index, pattern)| {
            let re = Regex::new(pattern).map_err(|e| RedactPatternError {
                index,
                message: e.to_string(),
            })?;
            let secret = re.capture_names().position(|n| n == Some("secret"));
            Ok(ExtraPattern { re, secret })
        })
        .collect()
}

/// Whether `pattern` can match the empty string somewhere (`a*`, `x?`, `^`,
/// `\b`): such a pattern masks nothing useful and, as a config entry, is a
/// mistake. `None` when the pattern does not parse.
pub fn matches_empty(pattern: &str) -> Option<bool> {
    let hir = regex_syntax::parse(pattern).ok()?;
    Some(hir.properties().minimum_len() == Some(0))
}

impl ExtraPattern {
    /// Masks every match (or its `secret` group) in `text`; `None` when
    /// nothing changed. Empty matches and matches touching a mask are skipped.
    pub(super) fn apply(&self, text: &str) -> Option<String> {
        let mut out = Rewriter::new(text);
        let mut mask_span = |s: usize, e: usize| {
            if e > s && !near_mask(text.as_bytes(), s, e) {
                out.replace(s, e, &mask_value(&text[s..e], false));
            }
        };
        match self.secret {
            Some(group) => {
                for caps in self.re.captures_iter(text) {
                    if let Some(m) = caps.get(group) {
                        mask_span(m.start(), m.end());
                    }
                }
            }
            None => {
                for m in self.re.find_iter(text) {
                    mask_span(m.start(), m.end());
                }
            }
        }
        out.finish()
    }
}

/// Whether `s..e` overlaps or touches a `_REDACTED` already in the text.
pub(super) fn near_mask(b: &[u8], s: usize, e: usize) -> bool {
    let lo = s.saturating_sub(MASK.len() - 1);
    let hi = b.len().min(e + MASK.len());
    b[lo..hi].windows(MASK.len()).any(|w| w == MASK.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn extra_patterns_as_documented() {
        let red = crate::redact::Redactor::new(&[
            "ACME-[0-9]{6}".to_owned(),
            "internal:(?P<secret>[a-z]+)".to_owned(),
        ])
        .unwrap();
        assert_eq!(
            red.redact("ticket ACME-123456 internal:zebra"),
            "ticket _REDACTED internal:_REDACTED"
        );
        assert_eq!(red.redact("no match here"), "no match here");
        assert!(matches!(red.redact("no match here"), Cow::Borrowed(_)));
        // Built-ins still apply next to extras.
        assert_eq!(
            red.redact("ACME-000001 password=x"),
            "_REDACTED password=_REDACTED"
        );
        // Idempotent on its own output.
        let once = red
            .redact("ACME-123456 internal:zebra ghp_abcdefghijklmnopqrstuvwxyz0123456789")
            .into_owned();
        assert_eq!(red.redact(&once), once);
    }

    #[test]
    fn extra_pattern_long_matches_keep_a_prefix() {
        let red = crate::redact::Redactor::new(&[
            "corp_[a-z0-9]{20,}".to_owned(),
            "pin=(?P<secret>[0-9]+)".to_owned(),
        ])
        .unwrap();
        assert_eq!(
            red.redact("id corp_0123456789abcdefghijk end"),
            "id corp_012_REDACTED end"
        );
        assert_eq!(red.redact("pin=1234;"), "pin=_REDACTED;");
        assert_eq!(
            red.redact("pin=12345678901234567890123456"),
            "pin=12345678_REDACTED"
        );
        // A pattern that matches the empty string masks nothing.
        let empty = crate::redact::Redactor::new(&["x*".to_owned()]).unwrap();
        assert_eq!(empty.redact("abc xx"), "abc _REDACTED");
        // A pattern that could match the mask itself leaves masks alone.
        let upper = crate::redact::Redactor::new(&["[A-Z]{3,}".to_owned()]).unwrap();
        let once = upper.redact("ABC password=hunter2").into_owned();
        assert_eq!(once, "_REDACTED password=_REDACTED");
        assert_eq!(upper.redact(&once), once);
    }

    #[test]
    fn invalid_extra_pattern_is_reported() {
        let err: RedactPatternError =
            crate::redact::Redactor::new(&["ok".to_owned(), "[a-".to_owned()]).unwrap_err();
        assert_eq!(err.index, 1);
        assert!(!err.message.is_empty());
        let shown = err.to_string();
        assert!(
            shown.starts_with("redaction pattern 1 is not a valid regex: "),
            "{shown}"
        );
        let as_error: &dyn std::error::Error = &err;
        assert!(as_error.source().is_none());
        assert_eq!(
            crate::redact::Redactor::new(&["(".to_owned()])
                .unwrap_err()
                .index,
            0
        );
        assert!(crate::redact::Redactor::new(&[]).is_ok());
    }

    #[test]
    fn extra_patterns_do_not_eat_masks() {
        let red = crate::redact::Redactor::new(&["[A-Z]+".to_owned(), "tok_[a-z0-9]+".to_owned()])
            .unwrap();
        let once = red.redact("password=hunter2 tok_abcdefghijklmnopqrstuvwxyz0123 ABC");
        assert_eq!(once, "password=_REDACTED tok_abcd_REDACTED _REDACTED");
        assert_eq!(red.redact(&once), once);
    }

    #[test]
    fn empty_matches_are_detected() {
        for p in [
            "a*",
            "x?",
            "^",
            "$",
            "\\b",
            "",
            "(a|)",
            "(?m)^$",
            "[a-z]{0,3}",
        ] {
            assert_eq!(matches_empty(p), Some(true), "{p}");
        }
        for p in [
            "a+",
            "pending",
            "ACME-[0-9]{6}",
            "internal:(?P<secret>[a-z]+)",
            "\\bx",
        ] {
            assert_eq!(matches_empty(p), Some(false), "{p}");
        }
        assert_eq!(matches_empty("("), None);
    }
}
