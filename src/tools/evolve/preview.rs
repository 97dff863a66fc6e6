//! What `evolve apply` would write, computed by the code that writes it
//! (`knowledge::profile::plan_facts`, `knowledge::preview_add`, the
//! SKILL.md `apply` installs), so a preview cannot drift from the apply:
//! `evolve apply --dry-run` shows it, and its fingerprint is the guard
//! `--expect-plan` checks before anything is applied. What each kind of
//! proposal writes (its SKILL.md, its profile section, its note) is read
//! here, for `apply` and the preview alike.

use super::{Found, Kind, KnowledgePayload, Payload, Proposal};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::tools::knowledge::{self, NewNote, profile::Section};
use crate::tools::skill_forge;
use crate::tools::skill_forge::spec;
use serde_json::{Value, json};

/// One file an apply touches: its path in the home, its text now (`None`:
/// there is no such file) and after the apply (`None`: left as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub path: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// What applying one (checked) proposal does.
#[derive(Debug, Clone)]
pub struct Plan {
    pub id: String,
    pub kind: Kind,
    pub run_id: String,
    pub title: String,
    pub targets: Vec<Target>,
    /// What else changes: records and indexes, in words.
    pub also: Vec<String>,
}

/// The plans of the proposals of one call, in order: each one sees the
/// writes of those before it (two preferences add two lines to one
/// PROFILE.md). `todo` holds the proposals as `check` left them (a skill
/// drafted).
pub fn plans(home: &Home, clock: &Clock, todo: &[Found]) -> Result<Vec<Plan>> {
    let mut facts: Vec<(Section, String)> = Vec::new();
    let mut profile_now: Option<Option<String>> = None;
    let mut out = Vec::new();
    for f in todo {
        let p = &f.proposal;
        let mut also = Vec::new();
        let targets = match &p.payload {
            Payload::Skill(_) => {
                let (name, text) = skill_of(p)?;
                also.push(format!(
                    "records the screen verdict of skill '{name}' and indexes it for search"
                ));
                vec![Target {
                    path: skill_forge::rel_path(&name),
                    before: None,
                    after: Some(text),
                }]
            }
            Payload::Preference(pr) => {
                facts.push((section(&p.id, &pr.section)?, pr.fact.clone()));
                let plan = knowledge::profile::plan_facts(home, &facts)?;
                // the file as this proposal finds it: on disk, or as the
                // proposals before it in the call leave it
                let before = match profile_now.take() {
                    Some(text) => text,
                    None => plan_before(home)?,
                };
                let after = match &plan.after {
                    Some(text) if Some(text) != before.as_ref() => Some(text.clone()),
                    _ => None,
                };
                profile_now = Some(after.clone().or_else(|| before.clone()));
                if after.is_none() {
                    also.push("the fact is in PROFILE.md already: nothing is written".to_string());
                } else {
                    also.push("re-indexes PROFILE.md for search".to_string());
                }
                vec![Target {
                    path: knowledge::profile::REL_PATH.to_string(),
                    before,
                    after,
                }]
            }
            Payload::Knowledge(k) => {
                let text = knowledge::preview_add(home, clock, &new_note(p, k))?;
                also.push(format!("indexes note '{}' for search", k.slug));
                vec![Target {
                    path: knowledge::rel_path(&k.slug),
                    before: None,
                    after: Some(text),
                }]
            }
        };
        also.push(format!(
            "marks the proposal applied in {}/{}/{}",
            super::RUNS_DIR,
            f.run_id,
            super::proposals::PROPOSALS_FILE
        ));
        out.push(Plan {
            id: p.id.clone(),
            kind: p.kind,
            run_id: f.run_id.clone(),
            title: p.shown_title(),
            targets,
            also,
        });
    }
    Ok(out)
}

/// PROFILE.md's text now (`None`: there is none).
fn plan_before(home: &Home) -> Result<Option<String>> {
    Ok(knowledge::profile::plan_facts(home, &[])?.before)
}

/// The fingerprint of what a call's plans were computed from: the
/// proposals as stored (before any drafting) and the text now of every file
/// they touch. The dates a note is written with are not in it, so a
/// preview stays good while only the clock moves.
pub fn fingerprint(stored: &[Proposal], plans: &[Plan]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in stored {
        h.update(serde_json::to_vec(p).unwrap_or_default());
        h.update([0u8]);
    }
    for plan in plans {
        for t in &plan.targets {
            h.update(t.path.as_bytes());
            h.update([0u8]);
            match &t.before {
                Some(text) => {
                    h.update([1u8]);
                    h.update(text.as_bytes());
                }
                None => h.update([2u8]),
            }
            h.update([0u8]);
        }
    }
    h.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `expected` (the fingerprint a preview showed) against the one of now:
/// `conflict` when they differ.
pub fn check_expected(expected: Option<&str>, actual: &str, ids: &[String]) -> Result<()> {
    let Some(expected) = expected.map(str::trim) else {
        return Ok(());
    };
    if expected == actual {
        return Ok(());
    }
    Err(Error::conflict(format!(
        "the plan of this apply is {actual}, not {expected}: the proposal or a file it writes changed since it was previewed"
    ))
    .with_hint(format!(
        "preview it again with `evolve apply {} --dry-run`, then apply with --expect-plan {actual}",
        ids.join(" ")
    ))
    .with_detail("expected", expected)
    .with_detail("actual", actual))
}

/// A unified diff of one target (`--- a/PATH` / `+++ b/PATH`; a new file
/// is diffed against nothing, `/dev/null`).
pub fn diff(t: &Target) -> String {
    let Some(after) = &t.after else {
        return String::new();
    };
    let before = t.before.as_deref().unwrap_or("");
    let mut options = diffy::DiffOptions::new();
    let original = if t.before.is_some() {
        format!("a/{}", t.path)
    } else {
        "/dev/null".to_string()
    };
    options
        .set_original_filename(original)
        .set_modified_filename(format!("b/{}", t.path));
    options.create_patch(before, after).to_string()
}

/// A plan as `data`: `{id, kind, run_id, title, writes: [{path, action,
/// before, after, diff}], also}` (a target left as it is is no write).
pub fn to_json(plan: &Plan) -> Value {
    let writes: Vec<Value> = plan
        .targets
        .iter()
        .filter(|t| t.after.is_some())
        .map(|t| {
            json!({"path": t.path,
                   "action": if t.before.is_some() { "modify" } else { "create" },
                   "before": t.before, "after": t.after, "diff": diff(t)})
        })
        .collect();
    json!({"id": plan.id, "kind": plan.kind, "run_id": plan.run_id, "title": plan.title,
           "writes": writes, "also": plan.also})
}

/// The text of a dry run: each proposal's writes as diffs, what else
/// changes, and the fingerprint to apply exactly this with.
pub fn text(plans: &[Plan], fingerprint: &str, ids: &[String]) -> String {
    let mut out = String::new();
    for plan in plans {
        out.push_str(&format!(
            "Would apply {} ({}): {}\n",
            plan.id,
            plan.kind.as_str(),
            super::render::cut(&plan.title, 72)
        ));
        for t in plan.targets.iter().filter(|t| t.after.is_some()) {
            let action = if t.before.is_some() {
                "modify"
            } else {
                "create"
            };
            out.push_str(&format!("{action} {}:\n", t.path));
            // a hand-edited PROFILE.md may hold escapes: shown, not sent
            out.push_str(&super::render::block(&diff(t)));
        }
        for line in &plan.also {
            out.push_str(&format!("  also: {line}\n"));
        }
    }
    out.push_str(&format!(
        "Nothing was written. Plan {fingerprint}: `evolve apply {} --expect-plan {fingerprint}` applies exactly this\n",
        ids.join(" ")
    ));
    out
}

/// The PROFILE.md section of a preference proposal.
pub fn section(id: &str, name: &str) -> Result<Section> {
    match name.trim().to_ascii_lowercase().as_str() {
        "preferences" | "preference" => Ok(Section::Preferences),
        "facts" | "fact" => Ok(Section::Facts),
        other => Err(Error::invalid_args(format!(
            "the proposal's profile section '{other}' is neither preferences nor facts"
        ))
        .with_hint(format!("reject it with `evolve reject {id}`"))),
    }
}

/// The skill a skill proposal installs: its name (from SKILL.md's front
/// matter) and text.
pub fn skill_of(p: &Proposal) -> Result<(String, String)> {
    let Payload::Skill(s) = &p.payload else {
        return Err(Error::internal("not a skill proposal"));
    };
    let text = s
        .skill_md
        .clone()
        .ok_or_else(|| Error::internal("the skill proposal has no SKILL.md"))?;
    let doc = spec::parse(&text, spec::SKILL_FILE).map_err(|f| {
        Error::invalid_args(format!(
            "the SKILL.md of proposal {} does not parse: {}:{}: {}",
            p.id, f.file, f.line, f.message
        ))
        .with_hint(format!("reject it with `evolve reject {}`", p.id))
    })?;
    let name = if doc.name.is_empty() {
        s.name.clone()
    } else {
        doc.name.clone()
    };
    skill_forge::check_name(&name)?;
    Ok((name, text))
}

/// The note a knowledge proposal writes (`knowledge add`'s input).
pub fn new_note(p: &Proposal, k: &KnowledgePayload) -> NewNote {
    NewNote {
        title: k.title.trim().to_string(),
        body: k.body.clone(),
        tags: k.tags.clone(),
        sources: vec![format!("evolve proposal {} (run {})", p.id, p.run_id)],
        slug: Some(k.slug.clone()),
        ..NewNote::default()
    }
}
