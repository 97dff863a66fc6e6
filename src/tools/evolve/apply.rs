//! `evolve apply` and `evolve reject`.
//!
//! Both hold the `evolve` lock from the first read to the last write, so two
//! concurrent calls never apply one proposal twice. Every id is checked
//! before anything changes (it exists, it is pending, what it would change
//! is still possible: a skill's name is free and its screen admits it, a
//! note's slug is free, a fact is well-formed, and the text a preference or
//! note would write passes the same screen as a skill); then the proposals are
//! applied in order, each one's status recorded as soon as it is applied.

use super::proposals;
use super::{Found, LOCK, Payload, Proposal, Status, preview, render};
use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result, TextLimit};
use crate::home::Home;
use crate::output::Outcome;
use crate::screen;
use crate::tools::Ctx;
use crate::tools::knowledge;
use crate::tools::skill_forge::{self, Staged, spec};
use serde_json::{Value, json};

/// The proposals named by `ids` (each once, in the given order), all
/// pending; otherwise `not_found` / `conflict` for the first that is not.
fn pending(runs: &[proposals::RunProposals], ids: &[String]) -> Result<Vec<Found>> {
    let mut out: Vec<Found> = Vec::new();
    for id in ids {
        let found = proposals::find(runs, id)?;
        if out.iter().any(|f| f.proposal.id == found.proposal.id) {
            continue;
        }
        if found.proposal.status != Status::Pending {
            let p = &found.proposal;
            let state = match p.status {
                Status::Applied => "applied",
                Status::Rejected => "rejected",
                Status::Pending => "pending",
            };
            return Err(Error::conflict(format!(
                "proposal {} is already {state}{}",
                p.id,
                p.updated
                    .as_deref()
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default()
            ))
            .with_hint(format!(
                "only pending proposals can be applied or rejected; see `evolve show {}`",
                p.id
            ))
            .with_detail("id", p.id.clone())
            .with_detail("status", state));
        }
        out.push(found);
    }
    Ok(out)
}

/// How `evolve apply` runs: for real or as a preview, with or without a
/// guard.
#[derive(Debug, Clone, Default)]
pub struct ApplyOptions {
    /// Apply a proposal whose screen verdict is `warn`.
    pub accept_warnings: bool,
    /// Check everything and say what would be written; write nothing.
    pub dry_run: bool,
    /// The fingerprint of a preview (`--expect-plan`): `conflict` unless
    /// the proposals and the files they write are still as it saw them.
    pub expect_plan: Option<String>,
}

/// `evolve apply`: every proposal of `ids` checked, then each applied in
/// order; a `warn` screen verdict passes only with `accept_warnings`.
pub fn apply(ctx: &Ctx, ids: &[String], options: &ApplyOptions) -> Result<Outcome> {
    let accept_warnings = options.accept_warnings;
    let home = ctx.home()?;
    let lock = home.store.lock(LOCK)?;
    let runs = proposals::load_all(home)?;
    let mut todo = pending(&runs, ids)?;
    let stored: Vec<Proposal> = todo.iter().map(|f| f.proposal.clone()).collect();
    // Every check first: nothing changes unless all of them can be applied.
    let mut claimed = std::collections::HashMap::new();
    for f in &mut todo {
        check(home, &ctx.clock, &mut f.proposal, accept_warnings)
            .and_then(|()| claim(&mut claimed, &f.proposal))
            .map_err(|e| e.with_detail("id", f.proposal.id.clone()))?;
    }
    let plans = preview::plans(home, &ctx.clock, &todo)?;
    let fingerprint = preview::fingerprint(&stored, &plans);
    preview::check_expected(options.expect_plan.as_deref(), &fingerprint, ids)?;
    if options.dry_run {
        let text = preview::text(&plans, &fingerprint, ids);
        let shown: Vec<Value> = plans.iter().map(preview::to_json).collect();
        return Ok(Outcome::new(
            json!({"dry_run": true, "plan": fingerprint, "proposals": shown}),
            text,
        )
        .with_meta("count", plans.len()));
    }
    let mut done: Vec<Value> = Vec::new();
    let mut text = String::new();
    for f in &todo {
        let p = &f.proposal;
        let applied = match apply_one(home, &ctx.clock, p, accept_warnings) {
            Ok(applied) => applied,
            Err(e) => {
                let ids: Vec<Value> = done.iter().map(|d| d["id"].clone()).collect();
                return Err(e
                    .with_detail("id", p.id.clone())
                    .with_detail("applied", ids));
            }
        };
        let now = ctx.clock.stamp();
        proposals::set_proposal(home, &lock, &f.run_id, &p.id, |stored| {
            stored.status = Status::Applied;
            stored.updated = Some(now.clone());
            stored.applied = Some(applied.clone());
            // a skill drafted only now keeps the draft it was applied with
            stored.payload = p.payload.clone();
        })?;
        text.push_str(&format!(
            "{} {} ({}): {}\n",
            ctx.style.green("Applied"),
            p.id,
            p.kind.as_str(),
            render::applied_text(&applied)
        ));
        done.push(json!({"id": p.id, "kind": p.kind, "run_id": f.run_id, "applied": applied}));
    }
    let count = done.len();
    Ok(Outcome::new(json!({"applied": done}), text).with_meta("count", count))
}

/// `evolve reject`: the proposals of `ids` marked rejected, with the
/// reason given (a blank one is none).
pub fn reject(ctx: &Ctx, ids: &[String], reason: Option<&str>) -> Result<Outcome> {
    let home = ctx.home()?;
    let reason = match reason.map(str::trim) {
        Some("") | None => None,
        Some(r) => Some(check_reason(r)?),
    };
    let lock = home.store.lock(LOCK)?;
    let runs = proposals::load_all(home)?;
    let todo = pending(&runs, ids)?;
    let now = ctx.clock.stamp();
    let mut done = Vec::new();
    let mut text = String::new();
    for f in &todo {
        let p = &f.proposal;
        proposals::set_proposal(home, &lock, &f.run_id, &p.id, |stored| {
            stored.status = Status::Rejected;
            stored.updated = Some(now.clone());
            stored.reason = reason.clone();
        })?;
        text.push_str(&format!(
            "Rejected {} ({}): {}{}\n",
            p.id,
            p.kind.as_str(),
            render::cut(&p.shown_title(), 72),
            reason
                .as_deref()
                .map(|r| format!(" — {r}"))
                .unwrap_or_default()
        ));
        done.push(json!({"id": p.id, "kind": p.kind, "run_id": f.run_id, "reason": reason}));
    }
    let count = done.len();
    Ok(Outcome::new(json!({"rejected": done}), text).with_meta("count", count))
}

const MAX_REASON_CHARS: usize = 1_000;

/// A rejection's reason: at most 1,000 characters, lines and tabs allowed.
const REASON: TextLimit =
    TextLimit::chars("the reason", MAX_REASON_CHARS, "reason_chars").allowing(&['\n', '\t']);

fn check_reason(reason: &str) -> Result<String> {
    REASON
        .check_length(reason)
        .map_err(|e| e.with_hint("say why in a sentence or two"))?;
    if REASON.has_control(reason) {
        return Err(
            Error::invalid_args("the reason contains a control character")
                .with_hint("pass plain text"),
        );
    }
    Ok(reason.to_string())
}

/// Whether `p` can be applied now; drafts a skill proposal that has no
/// SKILL.md yet (deterministically).
fn check(home: &Home, clock: &Clock, p: &mut Proposal, accept_warnings: bool) -> Result<()> {
    let id = p.id.clone();
    match &mut p.payload {
        Payload::Skill(s) => {
            if s.skill_md.is_none() {
                super::draft::draft_skill(home, clock, s, None)?;
            }
            let (name, text) = preview::skill_of(p)?;
            // Staged::new refuses an existing skill (conflict); the staging
            // folder is removed when it goes out of scope.
            let staged = Staged::new(home, &name)?;
            staged.write(spec::SKILL_FILE, text.as_bytes(), false)?;
            let screened = screen::screen_dir(staged.dir(), home.store.redactor())?;
            skill_forge::decide(
                &screened,
                accept_warnings,
                &format!("skill '{name}' (proposal {id})"),
            )?;
        }
        Payload::Preference(pr) => {
            preview::section(&id, &pr.section)?;
            // a PROFILE.md that cannot be read fails here, before anything
            // of the call is applied
            knowledge::profile::read(home)?;
            let n = pr.fact.trim().chars().count();
            let bad = if n == 0 {
                Some("an empty fact".to_string())
            } else if n > knowledge::profile::MAX_FACT_CHARS {
                Some(format!(
                    "a fact of {n} characters (the limit is {})",
                    knowledge::profile::MAX_FACT_CHARS
                ))
            } else if pr.fact.chars().any(char::is_control) {
                Some("a fact with a control character".to_string())
            } else {
                None
            };
            if let Some(bad) = bad {
                return Err(Error::invalid_args(format!("proposal {id} has {bad}"))
                    .with_hint(format!("reject it with `evolve reject {id}`")));
            }
            // the exact line PROFILE.md gets, screened like a skill
            let screened = screen::screen_text(
                knowledge::profile::REL_PATH,
                &format!("- {}\n", pr.fact.trim()),
                home.store.redactor(),
            );
            skill_forge::admit_text(
                &screened,
                accept_warnings,
                &format!("preference proposal {id}"),
                &format!("reject it with `evolve reject {id}`"),
            )?;
        }
        Payload::Knowledge(k) => {
            knowledge::check_slug(&k.slug)?;
            knowledge::note::check_title(k.title.trim()).map_err(|m| {
                Error::invalid_args(format!("proposal {id}: {m}"))
                    .with_hint(format!("reject it with `evolve reject {id}`"))
            })?;
            for tag in &k.tags {
                knowledge::note::normalize_tag(tag).map_err(|m| {
                    Error::invalid_args(format!("proposal {id}: {m}"))
                        .with_hint(format!("reject it with `evolve reject {id}`"))
                })?;
            }
            if k.body.contains('\0') {
                return Err(Error::invalid_args(format!(
                    "proposal {id}: the note body contains a NUL byte"
                ))
                .with_hint(format!("reject it with `evolve reject {id}`")));
            }
            if knowledge::note_path(home, &k.slug)?.exists() {
                return Err(note_exists(&k.slug));
            }
            // the note as an agent reads it (title, tags, body), screened like a skill
            let screened = screen::screen_text(
                &knowledge::rel_path(&k.slug),
                &format!(
                    "# {}\n\ntags: {}\n\n{}",
                    k.title.trim(),
                    k.tags.join(", "),
                    k.body
                ),
                home.store.redactor(),
            );
            skill_forge::admit_text(
                &screened,
                accept_warnings,
                &format!("knowledge proposal {id}"),
                &format!("reject it with `evolve reject {id}`"),
            )?;
        }
    }
    Ok(())
}

/// Two proposals of one call that would write the same skill or note:
/// `conflict` before anything is applied.
fn claim(claimed: &mut std::collections::HashMap<String, String>, p: &Proposal) -> Result<()> {
    let target = match &p.payload {
        Payload::Skill(_) => format!("skill '{}'", preview::skill_of(p)?.0),
        Payload::Knowledge(k) => format!("note '{}'", k.slug),
        Payload::Preference(_) => return Ok(()),
    };
    if let Some(other) = claimed.insert(target.clone(), p.id.clone()) {
        return Err(Error::conflict(format!(
            "proposals {other} and {} would both write the {target}",
            p.id
        ))
        .with_hint(format!(
            "apply one of them, and reject the other with `evolve reject {}`",
            p.id
        ))
        .with_detail("other", other));
    }
    Ok(())
}

fn note_exists(slug: &str) -> Error {
    Error::conflict(format!("a note '{slug}' already exists"))
        .with_hint(format!(
            "read it with `knowledge show {slug}`; edit that note by hand, or reject the proposal"
        ))
        .with_detail("slug", slug)
}

/// Applies one checked proposal; returns what it did (`applied`).
fn apply_one(home: &Home, clock: &Clock, p: &Proposal, accept_warnings: bool) -> Result<Value> {
    match &p.payload {
        Payload::Skill(_) => {
            let (name, text) = preview::skill_of(p)?;
            let staged = Staged::new(home, &name)?;
            staged.write(spec::SKILL_FILE, text.as_bytes(), false)?;
            // admit screens again, moves the folder into place, records the
            // verdict and reindexes the skill
            let (_screen, status) = staged.admit(clock, accept_warnings)?;
            Ok(json!({"skill": name, "path": skill_forge::rel_path(&name), "screen": status}))
        }
        Payload::Preference(pr) => {
            let section = preview::section(&p.id, &pr.section)?;
            let outcome =
                knowledge::profile::add_facts(home, clock, &[(section, pr.fact.clone())])?;
            let (fact, duplicate) = match (outcome.added.first(), outcome.duplicates.first()) {
                (Some(f), _) => (f.clone(), false),
                (None, Some(f)) => (f.clone(), true),
                (None, None) => (pr.fact.clone(), true),
            };
            Ok(
                json!({"fact": fact, "section": section.as_str(), "duplicate": duplicate,
                      "path": knowledge::profile::REL_PATH}),
            )
        }
        Payload::Knowledge(k) => {
            let saved = knowledge::add(home, clock, &preview::new_note(p, k)).map_err(|e| {
                if e.kind == ErrorType::Conflict && e.detail.contains_key("slug") {
                    note_exists(&k.slug)
                } else {
                    e
                }
            })?;
            Ok(json!({"note": saved.note.slug, "path": knowledge::rel_path(&saved.note.slug)}))
        }
    }
}
