//! The plan files: `plans/<id>.json` in the home, read and written under
//! the plan's lock with its version guard.

use super::doc::{PlanDoc, PlanStatus, check_id};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::store;
use crate::tools::Ctx;
use std::path::PathBuf;

/// The file of the plan `id`, after checking the id.
pub(super) fn plan_path(home: &Home, id: &str) -> Result<PathBuf> {
    check_id(id)?;
    home.store.path(&["plans", &format!("{id}.json")])
}

/// Loads a plan; the file name is the id's truth.
pub(super) fn load(home: &Home, id: &str) -> Result<(PlanDoc, PathBuf)> {
    let path = plan_path(home, id)?;
    let text = home.store.read(&path)?.ok_or_else(|| {
        Error::not_found(format!("no plan '{id}'"))
            .with_hint("see the plans with `plan list --all`")
            .with_detail("id", id)
    })?;
    let mut doc = PlanDoc::parse(&text, &path)?;
    doc.id = id.to_string();
    Ok((doc, path))
}

/// Parsed plans with their file's mtime, newest first, and the unreadable ones.
pub(super) type PlanSet = (Vec<(PlanDoc, std::time::SystemTime)>, Vec<Error>);

/// Every plan file: parsed plans and the broken ones.
pub(super) fn load_all(home: &Home) -> Result<PlanSet> {
    let dir = home.root.join("plans");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut plans = Vec::new();
    let mut broken = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        if id.starts_with('.') {
            continue;
        }
        let mtime = entry
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        match load(home, id) {
            Ok((doc, _)) => plans.push((doc, mtime)),
            Err(err) => broken.push(err),
        }
    }
    plans.sort_by(|a, b| {
        (b.0.updated.as_str(), b.1, b.0.id.as_str()).cmp(&(
            a.0.updated.as_str(),
            a.1,
            a.0.id.as_str(),
        ))
    });
    Ok((plans, broken))
}

/// The most recently updated active plan.
pub(super) fn current(home: &Home) -> Result<PlanDoc> {
    let (plans, _) = load_all(home)?;
    plans
        .into_iter()
        .map(|(doc, _)| doc)
        .find(|doc| doc.status == PlanStatus::Active)
        .ok_or_else(|| {
            Error::not_found("there is no active plan")
                .with_hint("create one with `plan create \"Title\" --step \"first step\"`")
        })
}

/// A plan as its `--expect-version` guard names it (`detail {id, expected, actual}`).
pub(super) fn versioned(id: &str) -> store::Versioned<'_> {
    store::Versioned {
        kind: "plan",
        key: "id",
        id,
        counter: "version",
        show: None,
    }
}

/// Read-modify-write under the plan's lock: load, check the version guard and
/// that the plan is active, apply `change`, bump the version, replace atomically.
pub(super) fn mutate(
    ctx: &Ctx,
    home: &Home,
    id: &str,
    expect: Option<u64>,
    change: impl FnOnce(&mut PlanDoc, &str) -> Result<()>,
) -> Result<(PlanDoc, PathBuf)> {
    check_id(id)?;
    let _lock = home.store.lock(&format!("plan-{id}"))?;
    let (mut doc, path) = load(home, id)?;
    versioned(id).check(expect, doc.version)?;
    doc.ensure_active()?;
    let now = ctx.clock.stamp();
    change(&mut doc, &now)?;
    doc.bump(&now)?;
    home.store.write_json(
        &path,
        &serde_json::to_value(&doc).map_err(|e| Error::internal(e.to_string()))?,
    )?;
    Ok((doc, path))
}
