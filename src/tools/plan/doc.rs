//! `PlanDoc`: the stored plan, its invariants, and its JSON view.

use crate::error::{Error, Result, TextLimit};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::Path;

/// Schema tag written into every plan file.
pub const SCHEMA: &str = "agentbox.plan/v1";
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 1_000;
/// Longest step text, in characters.
pub const MAX_STEP_CHARS: usize = 10_000;
/// Longest step note, in characters.
pub const MAX_NOTE_CHARS: usize = 10_000;
/// Most steps in one plan.
pub const MAX_STEPS: usize = 1_000;

/// A plan's lifecycle: active plans take mutations; archived plans are read-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    Active,
    Archived,
}

/// A step's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    InProgress,
    Done,
    Blocked,
}

impl StepStatus {
    /// Every status, in the order help lists them.
    pub const ALL: [StepStatus; 4] = [
        StepStatus::Pending,
        StepStatus::InProgress,
        StepStatus::Done,
        StepStatus::Blocked,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StepStatus::Pending => "pending",
            StepStatus::InProgress => "in_progress",
            StepStatus::Done => "done",
            StepStatus::Blocked => "blocked",
        }
    }
}

/// One step of a plan. Its number is its position (1-based), not stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Step {
    pub text: String,
    pub status: StepStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub updated: String,
    /// Fields this version does not know, kept as they were (compatibility rule).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, Value>,
}

/// A stored plan (`plans/<id>.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlanDoc {
    pub schema: String,
    pub id: String,
    pub title: String,
    pub status: PlanStatus,
    /// Starts at 1; every acknowledged mutation adds exactly 1.
    pub version: u64,
    pub created: String,
    pub updated: String,
    pub steps: Vec<Step>,
    /// Fields this version does not know, kept as they were (compatibility rule).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, Value>,
}

/// Counts of steps per status.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    pub pending: usize,
    pub in_progress: usize,
    pub done: usize,
    pub blocked: usize,
}

impl PlanDoc {
    /// Parses a stored plan; problems name the file, line and column.
    pub fn parse(text: &str, path: &Path) -> Result<PlanDoc> {
        let doc: PlanDoc = serde_json::from_str(text).map_err(|e| {
            Error::invalid_args(format!(
                "{} is not a valid plan: {e}",
                path.display()
            ))
            .with_hint("the file was changed by hand: fix it at that line, or restore it (git checkout / backup)")
            .with_detail("path", path.display().to_string())
            .with_detail("line", e.line())
            .with_detail("column", e.column())
        })?;
        if doc.schema != SCHEMA {
            return Err(Error::invalid_args(format!(
                "{} has schema '{}', expected '{SCHEMA}'",
                path.display(),
                doc.schema
            ))
            .with_hint("this file was written by another tool or a newer agentbox")
            .with_detail("path", path.display().to_string()));
        }
        if doc.version == 0 {
            return Err(Error::invalid_args(format!(
                "{} is not a valid plan: version 0 (versions start at 1)",
                path.display()
            ))
            .with_hint("the file was changed by hand: set its version to 1 or more, or restore it (git checkout / backup)")
            .with_detail("path", path.display().to_string()));
        }
        Ok(doc)
    }

    pub fn progress(&self) -> Progress {
        let mut p = Progress::default();
        for step in &self.steps {
            match step.status {
                StepStatus::Pending => p.pending += 1,
                StepStatus::InProgress => p.in_progress += 1,
                StepStatus::Done => p.done += 1,
                StepStatus::Blocked => p.blocked += 1,
            }
        }
        p
    }

    /// The step numbered `n` (1-based), or `not_found` naming the valid range.
    pub fn step_index(&self, n: usize) -> Result<usize> {
        if n == 0 || n > self.steps.len() {
            return Err(Error::not_found(format!(
                "plan '{}' has no step {n} (it has {} step{})",
                self.id,
                self.steps.len(),
                if self.steps.len() == 1 { "" } else { "s" }
            ))
            .with_hint(format!(
                "steps are numbered 1 to {}; see `plan show {}`",
                self.steps.len(),
                self.id
            ))
            .with_detail("step", n)
            .with_detail("steps", self.steps.len()));
        }
        Ok(n - 1)
    }

    /// Archived plans are read-only.
    pub fn ensure_active(&self) -> Result<()> {
        if self.status == PlanStatus::Archived {
            return Err(Error::conflict(format!("plan '{}' is archived", self.id))
                .with_hint("archived plans are read-only; create a new plan for new work")
                .with_detail("id", self.id.clone()));
        }
        Ok(())
    }

    /// The invariant: at most one step is `in_progress`. Setting step `index`
    /// to in_progress while another is refuses with `conflict`.
    pub fn ensure_can_start(&self, index: usize) -> Result<()> {
        if let Some(other) = self
            .steps
            .iter()
            .enumerate()
            .position(|(i, s)| i != index && s.status == StepStatus::InProgress)
        {
            return Err(Error::conflict(format!(
                "step {} of '{}' is already in progress",
                other + 1,
                self.id
            ))
            .with_hint(format!(
                "finish or pause it first: plan step {} {} --status done|pending",
                self.id,
                other + 1
            ))
            .with_detail("in_progress", other + 1));
        }
        Ok(())
    }

    /// The step to work on: the one in progress, else the first pending one.
    pub fn next_index(&self) -> Option<usize> {
        self.steps
            .iter()
            .position(|s| s.status == StepStatus::InProgress)
            .or_else(|| {
                self.steps
                    .iter()
                    .position(|s| s.status == StepStatus::Pending)
            })
    }

    /// Marks a mutation: one more version, a new `updated` time. A plan at
    /// the highest version takes no more changes (the version never wraps).
    pub fn bump(&mut self, now: &str) -> Result<()> {
        self.version = self.version.checked_add(1).ok_or_else(|| {
            Error::conflict(format!(
                "plan '{}' is at version {}, the highest there is; it takes no more changes",
                self.id, self.version
            ))
            .with_hint("it stays readable; continue the work in a new plan (`plan create`)")
            .with_detail("id", self.id.clone())
            .with_detail("version", self.version)
        })?;
        self.updated = now.to_string();
        Ok(())
    }

    pub fn step_json(&self, index: usize) -> Value {
        let step = &self.steps[index];
        json!({
            "n": index + 1,
            "text": step.text,
            "status": step.status,
            "note": step.note,
            "updated": step.updated,
        })
    }

    fn progress_json(&self) -> Value {
        let p = self.progress();
        json!({
            "total": self.steps.len(),
            "done": p.done,
            "in_progress": p.in_progress,
            "pending": p.pending,
            "blocked": p.blocked,
        })
    }

    /// The `data` shape of show/create/step/add-step/archive (docs/tools/plan.md).
    pub fn to_view(&self) -> Value {
        json!({
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "version": self.version,
            "created": self.created,
            "updated": self.updated,
            "progress": self.progress_json(),
            "steps": (0..self.steps.len()).map(|i| self.step_json(i)).collect::<Vec<_>>(),
        })
    }

    /// The row shape of `plan list`.
    pub fn to_summary(&self) -> Value {
        json!({
            "id": self.id,
            "title": self.title,
            "status": self.status,
            "version": self.version,
            "created": self.created,
            "updated": self.updated,
            "progress": self.progress_json(),
        })
    }
}

/// Validates a title: one line, not blank, bounded.
pub fn check_title(title: &str) -> Result<()> {
    check_line("title", title, MAX_TITLE_CHARS, "title_chars")
}

/// Validates a step text: one line, not blank, bounded.
pub fn check_step_text(text: &str) -> Result<()> {
    check_line("step text", text, MAX_STEP_CHARS, "step_chars")
}

/// Validates a note: bounded; may span lines.
pub fn check_note(note: &str) -> Result<()> {
    let limit = TextLimit::chars("the note", MAX_NOTE_CHARS, "note_chars").allowing(&['\n', '\t']);
    limit.check_length(note).map_err(|e| {
        e.with_hint("shorten the note; keep long material in a knowledge note and link it")
    })?;
    if limit.has_control(note) {
        return Err(Error::invalid_args("the note contains control characters")
            .with_hint("remove control characters (newlines and tabs are fine)"));
    }
    Ok(())
}

fn check_line(what: &str, text: &str, max: usize, limit_name: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(Error::invalid_args(format!("the {what} is empty"))
            .with_hint(format!("give a non-blank {what}")));
    }
    let the = format!("the {what}");
    let limit = TextLimit::chars(&the, max, limit_name).allowing(&['\t']);
    limit
        .check_length(text)
        .map_err(|e| e.with_hint(format!("shorten the {what}; details belong in a step note")))?;
    if limit.has_control(text) {
        return Err(Error::invalid_args(format!(
            "the {what} contains a newline or control character"
        ))
        .with_hint(format!("a {what} is one line; put details in a step note")));
    }
    Ok(())
}

/// Longest plan id, in bytes.
pub const MAX_ID_LEN: usize = 64;

/// Validates a plan id: ASCII letters, digits, '-', '_' and '.', starting with
/// a letter or digit, at most 64 bytes — portable as a file name everywhere.
pub fn check_id(id: &str) -> Result<()> {
    let starts_ok = id.chars().next().is_some_and(|c| c.is_ascii_alphanumeric());
    let chars_ok = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !starts_ok || !chars_ok || id.len() > MAX_ID_LEN {
        return Err(Error::invalid_args(format!(
            "invalid plan id {}",
            serde_json::Value::from(id)
        ))
        .with_hint(format!(
            "a plan id is 1 to {MAX_ID_LEN} ASCII letters, digits, '-', '_' or '.', starting with a letter or digit"
        ))
        .with_detail("id", id));
    }
    Ok(())
}

/// Longest plan id derived from a title, in bytes (a `-N` suffix included).
pub const MAX_SLUG_LEN: usize = 48;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_refuse_blank_huge_and_multiline() {
        assert!(check_title("ok").is_ok());
        assert!(check_title("  ").is_err());
        assert!(check_title("a\nb").is_err());
        let err = check_title(&"x".repeat(MAX_TITLE_CHARS + 1)).unwrap_err();
        assert_eq!(err.detail["limit_name"], "title_chars");
        assert!(check_note("line one\nline two").is_ok());
        assert!(check_note("bell\x07").is_err());
    }
}
