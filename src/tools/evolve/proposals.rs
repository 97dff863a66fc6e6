//! Stored proposals: load every run's `proposals.json`, find one by id,
//! `list`, `show`, record a status change, and the `proactive scan`
//! suggestions of pending proposals.

use super::{Found, LOCK, PROPOSALS_SCHEMA, Proposal, ProposalsFile, RUNS_DIR, Status, render};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::store::Lock;
use crate::tools::{Ctx, Suggestion};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The file of a run's proposals, inside its folder.
pub const PROPOSALS_FILE: &str = "proposals.json";
/// The file of a run's record, inside its folder.
pub const RUN_FILE: &str = "run.json";
/// The fewest hex digits after `p-` a prefix lookup accepts.
pub const MIN_PREFIX: usize = 4;
/// More pending proposals than this make one summary suggestion.
const MAX_SUGGESTIONS: usize = 5;

/// One run folder's proposals.
#[derive(Debug, Clone)]
pub struct RunProposals {
    pub run_id: String,
    /// `run.json`'s `started`, else the newest `created` of its proposals.
    pub started: String,
    pub file: ProposalsFile,
}

/// `runs/evolve/` of the home.
pub fn runs_dir(home: &Home) -> Result<PathBuf> {
    let parts: Vec<&str> = RUNS_DIR.split('/').collect();
    home.store.path(&parts)
}

/// The folder of run `run_id`.
pub fn run_dir(home: &Home, run_id: &str) -> Result<PathBuf> {
    let mut parts: Vec<&str> = RUNS_DIR.split('/').collect();
    parts.push(run_id);
    home.store.path(&parts)
}

/// The run folders of the home (names of sub-folders of `runs/evolve/`,
/// dot-folders skipped), sorted by name; none when there is no such folder.
fn run_ids(home: &Home) -> Result<Vec<String>> {
    let dir = runs_dir(home)?;
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut ids: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    ids.sort();
    Ok(ids)
}

/// Parses a run's `proposals.json`; a problem names the file and the line.
pub fn parse(text: &str, path: &Path) -> Result<ProposalsFile> {
    let broken = |what: String, line: usize| {
        Error::invalid_args(format!("{}:{line}: {what}", path.display()))
            .with_hint(
                "the file was changed by hand: fix it at that line, or move the run folder away",
            )
            .with_detail("path", path.display().to_string())
            .with_detail("line", line)
    };
    let file: ProposalsFile = serde_json::from_str(text)
        .map_err(|e| broken(format!("not a valid proposals file: {e}"), e.line()))?;
    if file.schema != PROPOSALS_SCHEMA {
        return Err(broken(
            format!("schema is '{}', expected '{PROPOSALS_SCHEMA}'", file.schema),
            1,
        ));
    }
    Ok(file)
}

/// Reads one run's proposals; `None` when the run has no proposals file
/// (a run still going, or one that failed before writing any).
pub fn read_run(home: &Home, run_id: &str) -> Result<Option<ProposalsFile>> {
    let path = run_dir(home, run_id)?.join(PROPOSALS_FILE);
    match home.store.read_state(&path)? {
        None => Ok(None),
        Some(text) => parse(&text, &path).map(Some),
    }
}

/// A run's `run.json`, when it has one that parses.
pub fn read_run_record(home: &Home, run_id: &str) -> Result<Option<Value>> {
    let path = run_dir(home, run_id)?.join(RUN_FILE);
    match home.store.read_state(&path)? {
        None => Ok(None),
        Some(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            Error::invalid_args(format!(
                "{}:{}: not valid JSON: {e}",
                path.display(),
                e.line()
            ))
            .with_hint("the file was changed by hand: fix it at that line")
            .with_detail("path", path.display().to_string())
            .with_detail("line", e.line())
        }),
    }
}

fn load_one(home: &Home, run_id: &str) -> Result<Option<RunProposals>> {
    let Some(file) = read_run(home, run_id)? else {
        return Ok(None);
    };
    let started = read_run_record(home, run_id)
        .ok()
        .flatten()
        .and_then(|r| r["started"].as_str().map(str::to_string))
        .or_else(|| file.proposals.iter().map(|p| p.created.clone()).max())
        .unwrap_or_default();
    Ok(Some(RunProposals {
        run_id: run_id.to_string(),
        started,
        file,
    }))
}

/// Every run with proposals, newest first (by start, then run id). A
/// corrupt `proposals.json` is an error naming its file and line.
pub fn load_all(home: &Home) -> Result<Vec<RunProposals>> {
    let mut runs = Vec::new();
    for id in run_ids(home)? {
        if let Some(run) = load_one(home, &id)? {
            runs.push(run);
        }
    }
    sort_newest_first(&mut runs);
    Ok(runs)
}

/// Like `load_all`, skipping the runs that cannot be read.
fn load_readable(home: &Home) -> Result<Vec<RunProposals>> {
    let mut runs: Vec<RunProposals> = run_ids(home)?
        .iter()
        .filter_map(|id| load_one(home, id).ok().flatten())
        .collect();
    sort_newest_first(&mut runs);
    Ok(runs)
}

fn sort_newest_first(runs: &mut [RunProposals]) {
    runs.sort_by(|a, b| (&b.started, &b.run_id).cmp(&(&a.started, &a.run_id)));
}

/// Every proposal, newest run first, each id once (the newest run wins).
pub fn all(runs: &[RunProposals]) -> Vec<Found> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for run in runs {
        for p in &run.file.proposals {
            if seen.insert(p.id.clone()) {
                out.push(Found {
                    run_id: run.run_id.clone(),
                    proposal: p.clone(),
                });
            }
        }
    }
    out
}

/// The proposal `id`: exact, or a unique prefix of at least
/// [`MIN_PREFIX`] hex digits after `p-`. Ambiguous → `invalid_args` with
/// the candidates; none → `not_found`.
pub fn find(runs: &[RunProposals], id: &str) -> Result<Found> {
    let every = all(runs);
    if let Some(f) = every.iter().find(|f| f.proposal.id == id) {
        return Ok(f.clone());
    }
    let digits = id.strip_prefix("p-").unwrap_or("");
    if digits.len() >= MIN_PREFIX {
        let matches: Vec<&Found> = every
            .iter()
            .filter(|f| f.proposal.id.starts_with(id))
            .collect();
        match matches.as_slice() {
            [one] => return Ok((*one).clone()),
            [] => {}
            many => {
                let ids: Vec<&str> = many.iter().map(|f| f.proposal.id.as_str()).collect();
                return Err(Error::invalid_args(format!(
                    "'{id}' matches {} proposals: {}",
                    ids.len(),
                    ids.join(", ")
                ))
                .with_hint("give more of the id")
                .with_detail("id", id)
                .with_detail("candidates", ids));
            }
        }
    }
    Err(not_found(id))
}

fn not_found(id: &str) -> Error {
    let hint = if id.starts_with("p-") {
        format!(
            "list the proposals with `evolve list`; a shortened id needs at least {MIN_PREFIX} hex digits after p-"
        )
    } else {
        "list the proposals with `evolve list`; a proposal id starts with p-".to_string()
    };
    Error::not_found(format!("no evolve proposal '{id}'"))
        .with_hint(hint)
        .with_detail("id", id)
}

/// Rewrites one run's `proposals.json` atomically under the `evolve` lock:
/// the file is read again under the lock, `change` edits it, and it is
/// written back.
pub fn update(
    home: &Home,
    run_id: &str,
    change: impl FnOnce(&mut ProposalsFile) -> Result<()>,
) -> Result<()> {
    let lock = home.store.lock(LOCK)?;
    update_held(home, &lock, run_id, change)
}

/// `update` for a caller that already holds the `evolve` lock.
pub fn update_held(
    home: &Home,
    _held: &Lock,
    run_id: &str,
    change: impl FnOnce(&mut ProposalsFile) -> Result<()>,
) -> Result<()> {
    let path = run_dir(home, run_id)?.join(PROPOSALS_FILE);
    let text = home.store.read_state(&path)?.ok_or_else(|| {
        Error::not_found(format!("run {run_id} has no {PROPOSALS_FILE}"))
            .with_hint("list the proposals with `evolve list`")
            .with_detail("run_id", run_id)
    })?;
    let mut file = parse(&text, &path)?;
    change(&mut file)?;
    home.store.write_state(&path, &file)
}

/// Sets the status of the proposal `id` of run `run_id` (with the lock held),
/// via `change` on the stored proposal.
pub fn set_proposal(
    home: &Home,
    held: &Lock,
    run_id: &str,
    id: &str,
    change: impl FnOnce(&mut Proposal),
) -> Result<()> {
    update_held(home, held, run_id, |file| {
        let p = file
            .proposals
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| not_found(id))?;
        change(p);
        Ok(())
    })
}

/// Counts by status.
pub fn counts(found: &[Found]) -> Value {
    let n = |s: Status| found.iter().filter(|f| f.proposal.status == s).count();
    json!({"pending": n(Status::Pending), "applied": n(Status::Applied),
           "rejected": n(Status::Rejected)})
}

/// The summary of a proposal in `list` and a run's `show`.
pub fn summary(p: &Proposal) -> Value {
    json!({"id": p.id, "kind": p.kind, "title": p.shown_title(), "confidence": p.confidence,
           "status": p.status, "run_id": p.run_id, "created": p.created,
           "evidence": p.evidence.len()})
}

fn parse_status(s: &str) -> Result<Status> {
    match s {
        "pending" => Ok(Status::Pending),
        "applied" => Ok(Status::Applied),
        "rejected" => Ok(Status::Rejected),
        other => Err(Error::invalid_args(format!("unknown status '{other}'"))
            .with_hint("use pending, applied or rejected")),
    }
}

/// `evolve list`: every proposal, or those with the status named
/// (`pending`, `applied`, `rejected`), newest run first; `offset` and
/// `limit` cut a page of them (`meta.matched` counts them all).
pub fn list(ctx: &Ctx, status_name: Option<&str>, offset: usize, limit: usize) -> Result<Outcome> {
    let home = ctx.home()?;
    let status = status_name.map(parse_status).transpose()?;
    let every = all(&load_all(home)?);
    let matching: Vec<&Found> = every
        .iter()
        .filter(|f| status.is_none_or(|s| f.proposal.status == s))
        .collect();
    let matched = matching.len();
    let shown: Vec<&Found> = matching.into_iter().skip(offset).take(limit).collect();
    let counts = counts(&every);
    let items: Vec<Value> = shown.iter().map(|f| summary(&f.proposal)).collect();
    let text = render::list(&ctx.style, &shown, &counts, status_name);
    Ok(
        Outcome::new(json!({"proposals": items, "counts": counts}), text)
            .with_meta("count", shown.len())
            .with_meta("matched", matched),
    )
}

/// `evolve show`: a proposal (its `p-…` id or a unique prefix) or a run
/// (its id or a unique prefix), in full.
pub fn show(ctx: &Ctx, id: &str) -> Result<Outcome> {
    let home = ctx.home()?;
    let runs = load_all(home)?;
    if id.starts_with("p-") {
        let found = find(&runs, id)?;
        let mut data = serde_json::to_value(&found.proposal)
            .map_err(|e| Error::internal(format!("cannot serialize the proposal: {e}")))?;
        data["run_id"] = found.run_id.clone().into();
        data["title"] = found.proposal.shown_title().into();
        let text = render::proposal(&ctx.style, &found.proposal);
        return Ok(Outcome::new(json!({"proposal": data}), text));
    }
    show_run(ctx, home, &runs, id)
}

/// The run `id` (exact, or a unique prefix of at least 8 characters).
fn show_run(ctx: &Ctx, home: &Home, runs: &[RunProposals], id: &str) -> Result<Outcome> {
    let ids = run_ids(home)?;
    let run_id = if ids.iter().any(|r| r == id) {
        id.to_string()
    } else {
        let matches: Vec<&String> = if id.len() >= 8 {
            ids.iter().filter(|r| r.starts_with(id)).collect()
        } else {
            Vec::new()
        };
        match matches.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Err(Error::not_found(format!("no evolve run or proposal '{id}'"))
                    .with_hint("list the proposals (and their runs) with `evolve list`; a proposal id starts with p-")
                    .with_detail("id", id));
            }
            many => {
                let many: Vec<&str> = many.iter().map(|s| s.as_str()).collect();
                return Err(Error::invalid_args(format!(
                    "'{id}' matches {} runs: {}",
                    many.len(),
                    many.join(", ")
                ))
                .with_hint("give more of the run id")
                .with_detail("candidates", many));
            }
        }
    };
    let record = read_run_record(home, &run_id)?;
    let proposals: Vec<Proposal> = runs
        .iter()
        .find(|r| r.run_id == run_id)
        .map(|r| r.file.proposals.clone())
        .unwrap_or_default();
    let found: Vec<Found> = proposals
        .iter()
        .map(|p| Found {
            run_id: run_id.clone(),
            proposal: p.clone(),
        })
        .collect();
    let counts = counts(&found);
    let dir = format!("{RUNS_DIR}/{run_id}");
    let text = render::run(&ctx.style, &run_id, &dir, record.as_ref(), &proposals);
    Ok(Outcome::new(
        json!({"run_id": run_id, "dir": dir, "run": record,
               "proposals": proposals.iter().map(summary).collect::<Vec<_>>(),
               "counts": counts}),
        text,
    )
    .with_meta("run_dir", dir))
}

/// `proactive scan`: one suggestion per pending proposal (newest run
/// first), or one summary line when there are more than five. No runs, or
/// runs that cannot be read, are no suggestion (never an error).
pub fn pending_suggestions(home: &Home, _clock: &Clock) -> Result<Vec<Suggestion>> {
    let pending: Vec<Found> = all(&load_readable(home)?)
        .into_iter()
        .filter(|f| f.proposal.status == Status::Pending)
        .collect();
    if pending.len() > MAX_SUGGESTIONS {
        return Ok(vec![Suggestion {
            kind: "pending_proposal".into(),
            text: format!(
                "Review {} pending evolve proposals (skills, preferences, notes learned from recorded episodes)",
                pending.len()
            ),
            command: "evolve list --status pending".into(),
        }]);
    }
    Ok(pending
        .iter()
        .map(|f| Suggestion {
            kind: "pending_proposal".into(),
            text: format!(
                "Review evolve proposal {}: {}",
                f.proposal.id,
                f.proposal.shown_title()
            ),
            command: format!("evolve show {}", f.proposal.id),
        })
        .collect())
}
