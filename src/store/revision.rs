//! Optimistic revisions: the one check behind every `--expect-version` guard
//! (plans, notes, personas), so every stale write is refused with the same
//! `conflict` error, `detail {<key>, expected, actual}`.

use crate::error::{Error, Result};

/// The flag that guards a write against a stale read, as hints name it.
/// (`--expect-rev` is accepted as a hidden alias.)
pub const EXPECT_FLAG: &str = "--expect-version";

/// The highest revision a stored counter may hold: 2^53 - 1, exact in every
/// JSON reader, and far enough from `u64::MAX` that "the next revision"
/// never overflows. Personas refuse a file past it; a sync merge never
/// writes one.
pub const MAX_REVISION: u64 = (1 << 53) - 1;

/// A stored thing whose writes an `--expect-version` guard protects, as the
/// `conflict` error names it.
#[derive(Debug, Clone, Copy)]
pub struct Versioned<'a> {
    /// The kind of thing, as the message names it: `note`, `persona`, `plan`.
    pub kind: &'a str,
    /// The `detail` key that holds its identity: `slug`, `name`, `id`.
    pub key: &'a str,
    /// Its identity, the value under `key`.
    pub id: &'a str,
    /// What its stored counter is called: `rev` or `version`.
    pub counter: &'a str,
    /// The command that shows it, without the identity (`knowledge show`),
    /// for the hint; `None` says only "re-read it".
    pub show: Option<&'a str>,
}

impl Versioned<'_> {
    /// `conflict` when the caller expected another revision than the stored
    /// one (`actual`); no expectation passes. The hint names the revision to
    /// retry with, after a re-read.
    pub fn check(&self, expected: Option<u64>, actual: u64) -> Result<()> {
        let Some(expected) = expected.filter(|e| *e != actual) else {
            return Ok(());
        };
        let Versioned {
            kind,
            key,
            id,
            counter,
            show,
        } = *self;
        let reread = match show {
            Some(show) => format!("re-read it with `{show} {id}`"),
            None => "re-read it".to_string(),
        };
        Err(Error::conflict(format!(
            "{kind} '{id}' is at {counter} {actual}, not {expected}"
        ))
        .with_hint(format!(
            "someone else changed it: {reread}, then retry with {EXPECT_FLAG} {actual}"
        ))
        .with_detail(key, id)
        .with_detail("expected", expected)
        .with_detail("actual", actual))
    }
}

impl Versioned<'_> {
    /// `invalid_args` for a write that must name the revision it replaces
    /// and named none: it says the current one (`actual`, read by the
    /// caller) and how to pass it, so the next call can succeed.
    pub fn required(&self, actual: u64) -> Error {
        let Versioned {
            kind,
            key,
            id,
            show,
            ..
        } = *self;
        let see = match show {
            Some(show) => format!("; see `{show} {id}`"),
            None => String::new(),
        };
        Error::invalid_args(format!("missing required argument: {EXPECT_FLAG}"))
            .with_hint(format!(
                "run again with {EXPECT_FLAG} {actual} (the {kind}'s current revision{see})"
            ))
            .with_detail("missing", vec![EXPECT_FLAG])
            .with_detail(key, id)
            .with_detail("actual", actual)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorType;

    const NOTE: Versioned = Versioned {
        kind: "note",
        key: "slug",
        id: "go-fmt",
        counter: "rev",
        show: Some("knowledge show"),
    };

    #[test]
    fn no_expectation_or_the_stored_revision_passes() {
        assert!(NOTE.check(None, 3).is_ok());
        assert!(NOTE.check(Some(3), 3).is_ok());
    }

    #[test]
    fn another_revision_is_a_conflict_naming_both_and_the_thing() {
        let err = NOTE.check(Some(2), 3).unwrap_err();
        assert_eq!(err.kind, ErrorType::Conflict);
        assert_eq!(err.message, "note 'go-fmt' is at rev 3, not 2");
        assert_eq!(
            err.hint,
            "someone else changed it: re-read it with `knowledge show go-fmt`, \
             then retry with --expect-version 3"
        );
        assert_eq!(err.detail["slug"], "go-fmt");
        assert_eq!(err.detail["expected"], 2);
        assert_eq!(err.detail["actual"], 3);
        assert_eq!(err.detail.len(), 3);
    }

    #[test]
    fn a_missing_expectation_names_the_current_revision() {
        let err = NOTE.required(3);
        assert_eq!(err.kind, ErrorType::InvalidArgs);
        assert_eq!(err.message, "missing required argument: --expect-version");
        assert_eq!(
            err.hint,
            "run again with --expect-version 3 (the note's current revision; \
             see `knowledge show go-fmt`)"
        );
        assert_eq!(
            err.detail["missing"],
            serde_json::json!(["--expect-version"])
        );
        assert_eq!(err.detail["slug"], "go-fmt");
        assert_eq!(err.detail["actual"], 3);
    }

    #[test]
    fn without_a_show_command_the_hint_says_only_re_read() {
        let plan = Versioned {
            kind: "plan",
            key: "id",
            id: "ship-v1",
            counter: "version",
            show: None,
        };
        let err = plan.check(Some(9), 1).unwrap_err();
        assert_eq!(err.message, "plan 'ship-v1' is at version 1, not 9");
        assert_eq!(
            err.hint,
            "someone else changed it: re-read it, then retry with --expect-version 1"
        );
        assert_eq!(err.detail["id"], "ship-v1");
    }
}
