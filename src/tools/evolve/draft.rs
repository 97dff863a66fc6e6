//! Drafting a skill proposal: the SKILL.md of a repeated tool sequence,
//! written by skill_forge's drafter from the payload's episode, checked
//! against the Agent Skills rules and screened in a staging folder that is
//! removed afterwards (nothing enters the home until `evolve apply`).

use super::SkillPayload;
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::screen;
use crate::tools::skill_forge::{self, Staged, draft, spec};
use serde_json::json;

/// A model route as `draft_skill` uses it: a prompt in, the reply's text out.
pub type AskModel<'a> = dyn FnMut(&str) -> Result<String> + 'a;

/// Fills `payload.skill_md` with a SKILL.md drafted from `payload.episode`
/// and `payload.screen` with `{verdict, findings, content_hash}` of its
/// screen. `payload.name` becomes a name no installed skill has (`-2`,
/// `-3`… appended when taken); `payload.description` is kept when valid.
///
/// With `model`, the draft is asked of it (the prompt of
/// `skill_forge::draft::model_prompt` in, the SKILL.md text out); a failed
/// call or a reply that is not a clean SKILL.md falls back to the
/// deterministic draft. The draft always passes `skill_forge lint`.
pub fn draft_skill(
    home: &Home,
    _clock: &Clock,
    payload: &mut SkillPayload,
    model: Option<&mut AskModel<'_>>,
) -> Result<()> {
    let ep = crate::tools::track::episodes::find(home, &payload.episode)?;
    // An imported odek run has tool calls but no user turn: the finding's
    // own description stands in for the request.
    let mut trajectory = draft::trajectory_or(home, &ep, &payload.description)?;
    keep_the_sequence(&mut trajectory.calls, &payload.steps);
    let base = if spec::valid_name(&payload.name) {
        payload.name.clone()
    } else {
        draft::name_for(&trajectory.request)
    };
    let name = free_name(home, &base)?;
    let description = if valid_description(&payload.description) {
        payload.description.trim().to_string()
    } else {
        draft::description_for(&trajectory.request)
    };
    let staged = Staged::new(home, &name)?;
    let mut text = None;
    if let Some(ask) = model {
        let through_model = draft::model_prompt(&trajectory, &name, &description)
            .and_then(|prompt| ask(&prompt))
            .and_then(|reply| draft::model_reply(&reply, &name))
            .and_then(|md| lint_clean(&staged, &name, md));
        text = through_model.ok();
    }
    let text = match text {
        Some(text) => text,
        None => {
            let md = draft::deterministic(&trajectory, &name, &description)?;
            lint_clean(&staged, &name, unreference(&md))?
        }
    };
    staged.write(spec::SKILL_FILE, text.as_bytes(), false)?;
    let screened = screen::screen_dir(staged.dir(), home.store.redactor())?;
    drop(staged);
    payload.name = name;
    payload.description = description;
    payload.skill_md = Some(text);
    payload.screen = Some(json!({
        "verdict": screened.verdict.as_str(),
        "findings": screened.findings.len(),
        "content_hash": screened.content_hash,
    }));
    Ok(())
}

fn valid_description(d: &str) -> bool {
    let n = d.trim().chars().count();
    n > 0 && n <= spec::MAX_DESCRIPTION && !d.chars().any(char::is_control)
}

/// `base`, or `base-2`, `base-3`… : the first name no skill of the home has.
pub fn free_name(home: &Home, base: &str) -> Result<String> {
    let taken = |name: &str| -> Result<bool> {
        let dir = skill_forge::skill_dir(home, name)?;
        Ok(std::fs::symlink_metadata(dir).is_ok())
    };
    if !taken(base)? {
        return Ok(base.to_string());
    }
    for n in 2..10_000u32 {
        let suffix = format!("-{n}");
        let keep = spec::MAX_NAME.saturating_sub(suffix.len());
        let stem: String = base.chars().take(keep).collect();
        let name = format!("{}{suffix}", stem.trim_end_matches('-'));
        if !taken(&name)? {
            return Ok(name);
        }
    }
    Err(
        Error::conflict(format!("every name like '{base}-N' is taken"))
            .with_hint("remove some skills with `skill_forge rm NAME`")
            .with_detail("name", base),
    )
}

/// The draft as it will be installed, when it lints without an error
/// (warnings are fine); otherwise `invalid_args` naming the first problem.
fn lint_clean(staged: &Staged, name: &str, text: String) -> Result<String> {
    let file = format!("{name}/{}", spec::SKILL_FILE);
    let doc = spec::parse(&text, &file).map_err(|f| {
        Error::invalid_args(format!(
            "the draft of skill '{name}' is not a valid SKILL.md: {}:{}: {}",
            f.file, f.line, f.message
        ))
    })?;
    let errors: Vec<spec::Finding> = spec::lint_doc(&doc, staged.dir(), name, &file)
        .into_iter()
        .filter(|f| f.severity == "error")
        .collect();
    match errors.first() {
        None => Ok(text),
        Some(f) => Err(Error::invalid_args(format!(
            "the draft of skill '{name}' does not lint: {}:{}: {} ({})",
            f.file, f.line, f.message, f.rule
        ))
        .with_detail("rule", f.rule)),
    }
}

/// The recorded tool arguments name the project's files (`scripts/x.sh`,
/// `[a](docs/a.md)`), which lint would read as files of the skill: in the
/// body they become `<project>/scripts/x.sh` and `[a] (docs/a.md)`.
fn unreference(md: &str) -> String {
    let Some(split) =
        crate::front::split(md, crate::front::Fences::Strict).filter(|s| s.close.is_some())
    else {
        return md.to_string();
    };
    let (front, body) = md.split_at(md.len() - split.body.len());
    let mut out = front.to_string();
    for line in body.split_inclusive('\n') {
        let refs = spec::referenced_files(line);
        if refs.is_empty() {
            out.push_str(line);
            continue;
        }
        let mut line = line.replace("](", "] (");
        for top in ["scripts/", "references/", "assets/"] {
            for lead in [" ", "`", "(", "\"", "'"] {
                line = line.replace(&format!("{lead}./{top}"), &format!("{lead}<project>/{top}"));
                line = line.replace(&format!("{lead}{top}"), &format!("{lead}<project>/{top}"));
            }
            if line.starts_with(top) || line.starts_with(&format!("./{top}")) {
                line = format!("<project>/{}", line.trim_start_matches("./"));
            }
        }
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_paths_in_a_draft_are_not_skill_files() {
        let md = "---\nname: x\ndescription: y\n---\n\n1. Call `bash` with `{\"command\":\"scripts/deploy.sh\"}`.\nsee [a](docs/a.md)\nscripts/x.sh ok\nplain\n";
        let out = unreference(md);
        assert!(out.starts_with("---\nname: x\ndescription: y\n---\n"));
        for line in out.lines().skip(4) {
            assert!(spec::referenced_files(line).is_empty(), "{line}");
        }
        assert!(out.contains("<project>/scripts/deploy.sh"));
        assert!(out.contains("plain\n"));
    }
}

/// The skill is the repeated sequence, not the whole example episode: keep
/// the calls of its first occurrence there (all of them when it cannot be
/// found, e.g. a hand-edited episode).
fn keep_the_sequence(calls: &mut Vec<(String, serde_json::Value)>, steps: &[String]) {
    if steps.is_empty() || calls.len() < steps.len() {
        return;
    }
    let at = calls
        .windows(steps.len())
        .position(|w| w.iter().map(|(name, _)| name).eq(steps.iter()));
    if let Some(at) = at {
        calls.truncate(at + steps.len());
        calls.drain(..at);
    }
}

#[cfg(test)]
mod sequence_tests {
    use super::keep_the_sequence;
    use serde_json::{Value, json};

    fn calls(names: &[&str]) -> Vec<(String, Value)> {
        names.iter().map(|n| (n.to_string(), json!({}))).collect()
    }

    #[test]
    fn only_the_first_occurrence_of_the_steps_is_kept() {
        let steps: Vec<String> = ["b", "c", "d"].iter().map(|s| s.to_string()).collect();
        let mut c = calls(&["a", "b", "c", "d", "e", "b", "c", "d"]);
        keep_the_sequence(&mut c, &steps);
        let names: Vec<&str> = c.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["b", "c", "d"]);
        // not found: everything stays
        let mut c = calls(&["a", "b", "x", "d"]);
        keep_the_sequence(&mut c, &steps);
        assert_eq!(c.len(), 4);
    }
}
