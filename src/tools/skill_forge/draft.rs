//! Drafting a skill from a recorded episode: the user's request (the first
//! user turn), the tool calls in order (arguments redacted), the outcome
//! (the last assistant turn). Deterministic: the same episode always gives
//! the same draft. A model-backed drafter can take the place of
//! [`deterministic`] behind [`Drafter`]; the caller reports which one wrote
//! the draft in `data.drafted_by`.

use super::spec;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::tools::track::{EpisodeFile, Turn};
use serde_json::Value;

/// What a drafter works from.
#[derive(Debug, Clone)]
pub struct Trajectory {
    pub episode: String,
    pub session: String,
    pub request: String,
    /// `(tool name, redacted arguments)` in call order.
    pub calls: Vec<(String, Value)>,
    pub outcome: String,
}

/// A drafted skill.
#[derive(Debug, Clone)]
pub struct Draft {
    pub name: String,
    pub description: String,
    /// The whole SKILL.md.
    pub text: String,
    /// `deterministic` or `model`.
    pub drafted_by: &'static str,
}

/// Who writes a draft's SKILL.md from a trajectory: the deterministic
/// drafter below, or a model route returning the SKILL.md text.
pub type Drafter<'a> = &'a dyn Fn(&Trajectory, &str, &str) -> Result<String>;

/// The prompt a model route gets: the trajectory, the required name and
/// description, and the format (SKILL.md only, nothing around it).
pub fn model_prompt(t: &Trajectory, name: &str, description: &str) -> Result<String> {
    let example = deterministic(t, name, description)?;
    let calls: Vec<String> = t
        .calls
        .iter()
        .enumerate()
        .map(|(i, (tool, args))| format!("{}. {tool} {args}", i + 1))
        .collect();
    Ok(format!(
        "Write an Agent Skills SKILL.md that lets an agent repeat what this recorded episode did.\n\n\
         The user's request:\n{request}\n\n\
         The tool calls, in order:\n{calls}\n\n\
         The outcome:\n{outcome}\n\n\
         Rules: reply with the SKILL.md text only (no code fence around it). It starts with YAML \
         front matter between '---' lines with `name: {name}` and a `description` (at most 1024 \
         characters) saying what the skill does and when to use it; then a markdown body with \
         when to use it, the steps, and how to check the outcome. Generalise the steps; keep \
         no secrets, tokens or personal paths.\n\n\
         A mechanical draft to improve on:\n{example}",
        request = t.request,
        calls = if calls.is_empty() {
            "(none)".to_string()
        } else {
            calls.join("\n")
        },
        outcome = if t.outcome.is_empty() {
            "(not recorded)"
        } else {
            t.outcome.as_str()
        },
    ))
}

/// A model's reply as SKILL.md: a code fence around it is taken off, and it
/// must parse with the required name and a description, or it is refused
/// (the caller then falls back to the deterministic draft).
pub fn model_reply(reply: &str, name: &str) -> Result<String> {
    let mut text = reply.trim().to_string();
    if text.starts_with("```") {
        let inner: Vec<&str> = text.lines().skip(1).collect();
        let end = inner
            .iter()
            .rposition(|l| l.trim_start().starts_with("```"))
            .unwrap_or(inner.len());
        text = inner[..end].join("\n");
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let doc = spec::parse(&text, "SKILL.md").map_err(|f| {
        Error::new(
            crate::error::ErrorType::Upstream,
            format!("the model's draft is not a valid SKILL.md: {}", f.message),
        )
    })?;
    if doc.name != name || doc.description.trim().is_empty() {
        return Err(Error::new(
            crate::error::ErrorType::Upstream,
            format!(
                "the model's draft names the skill '{}' without the required name '{name}' and a description",
                doc.name
            ),
        ));
    }
    Ok(text)
}

/// Reads an episode and pulls the trajectory out of it.
pub fn trajectory(home: &Home, ep: &EpisodeFile) -> Result<Trajectory> {
    let parsed = crate::tools::track::episodes::read(ep)?;
    from_turns(home, ep, &parsed.turns, None)
}

/// Like [`trajectory`], for an episode that may have no user turn (an
/// imported odek run records only tool calls): `request` stands in for it.
pub fn trajectory_or(home: &Home, ep: &EpisodeFile, request: &str) -> Result<Trajectory> {
    let parsed = crate::tools::track::episodes::read(ep)?;
    from_turns(home, ep, &parsed.turns, Some(request))
}

fn from_turns(
    home: &Home,
    ep: &EpisodeFile,
    turns: &[Turn],
    fallback: Option<&str>,
) -> Result<Trajectory> {
    let redactor = home.store.redactor();
    let request = turns
        .iter()
        .find(|t| t.role == "user" && !t.content.trim().is_empty())
        .map(|t| t.content.trim().to_string())
        .or_else(|| fallback.map(str::to_string))
        .ok_or_else(|| {
            Error::invalid_args(format!("episode '{}' has no user request", ep.id))
                .with_hint("a skill is drafted from a user's request and what was done about it; pick an episode with a user turn")
                .with_detail("id", ep.id.clone())
        })?;
    let mut calls = Vec::new();
    for turn in turns {
        for call in &turn.tool_calls {
            let mut args = call.arguments.clone();
            redactor.redact_value(&mut args);
            calls.push((call.name.clone(), args));
        }
    }
    let outcome = turns
        .iter()
        .rev()
        .find(|t| t.role == "assistant" && !t.content.trim().is_empty())
        .map(|t| t.content.trim().to_string())
        .unwrap_or_default();
    Ok(Trajectory {
        episode: ep.id.clone(),
        session: ep.session.clone(),
        request: redactor.redact(&request).into_owned(),
        calls,
        outcome: redactor.redact(&outcome).into_owned(),
    })
}

/// The skill name a request suggests.
pub fn name_for(request: &str) -> String {
    let first = request.lines().next().unwrap_or(request);
    let slug = crate::slug::slugify(first, 48, "episode-skill");
    // cut at a word boundary when the slug ran long
    slug.trim_end_matches('-').to_string()
}

/// The description a request suggests (1–1024 characters).
pub fn description_for(request: &str) -> String {
    let flat = request.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = format!(
        "Use when asked to {}",
        lowercase_first(flat.trim_end_matches(['.', '?', '!']))
    );
    cut(&text, spec::MAX_DESCRIPTION - 1)
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if chars.clone().next().is_some_and(char::is_lowercase) => {
            c.to_lowercase().chain(chars).collect()
        }
        Some(c) => std::iter::once(c).chain(chars).collect(),
        None => String::new(),
    }
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}

/// The deterministic drafter: SKILL.md with "When to use", numbered "Steps"
/// from the tool calls, and "Outcome".
pub fn deterministic(t: &Trajectory, name: &str, description: &str) -> Result<String> {
    let mut front = serde_json::Map::new();
    front.insert("name".into(), name.into());
    front.insert("description".into(), description.into());
    let mut meta = serde_json::Map::new();
    meta.insert("source-episode".into(), t.episode.clone().into());
    meta.insert("drafted-by".into(), "deterministic".into());
    front.insert("metadata".into(), Value::Object(meta));
    let yaml = serde_norway::to_string(&front)
        .map_err(|e| Error::internal(format!("cannot write the front matter: {e}")))?;
    let mut text = format!("---\n{yaml}---\n\n# {}\n\n## When to use\n\n", title(name));
    for line in t.request.lines() {
        text.push_str(&format!("> {line}\n"));
    }
    text.push_str("\n## Steps\n\n");
    if t.calls.is_empty() {
        text.push_str("1. No tool was called; answer directly, as in the outcome below.\n");
    }
    for (i, (tool, args)) in t.calls.iter().enumerate() {
        let args = match args {
            Value::Null => String::new(),
            Value::Object(m) if m.is_empty() => String::new(),
            other => format!(" with `{}`", cut(&other.to_string(), 400).replace('`', "'")),
        };
        text.push_str(&format!("{}. Call `{tool}`{args}.\n", i + 1));
    }
    text.push_str("\n## Outcome\n\n");
    if t.outcome.is_empty() {
        text.push_str("The episode recorded no final answer.\n");
    } else {
        text.push_str(&t.outcome);
        text.push('\n');
    }
    text.push_str(&format!(
        "\n<!-- drafted from episode {} of session {} -->\n",
        t.episode, t.session
    ));
    Ok(text)
}

fn title(name: &str) -> String {
    let words: Vec<String> = name
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default()
        })
        .collect();
    words.join(" ")
}

/// Drafts with `drafter`, falling back to the deterministic one when it
/// fails (the failure is returned for a warning).
pub fn draft(
    t: &Trajectory,
    name: &str,
    model: Option<(Drafter<'_>, &'static str)>,
) -> Result<(Draft, Option<Error>)> {
    let description = description_for(&t.request);
    let mut fallback = None;
    if let Some((drafter, label)) = model {
        match drafter(t, name, &description) {
            Ok(text) => {
                return Ok((
                    Draft {
                        name: name.to_string(),
                        description,
                        text,
                        drafted_by: label,
                    },
                    None,
                ));
            }
            // An interrupt is the user's answer, not a failed route.
            Err(e) if e.kind == crate::error::ErrorType::Cancelled => return Err(e),
            Err(e) => fallback = Some(e),
        }
    }
    let text = deterministic(t, name, &description)?;
    Ok((
        Draft {
            name: name.to_string(),
            description,
            text,
            drafted_by: "deterministic",
        },
        fallback,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn trajectory() -> Trajectory {
        Trajectory {
            episode: "ep-1".into(),
            session: "default".into(),
            request: "Deploy the site".into(),
            calls: vec![("bash".into(), json!({"command": "make deploy"}))],
            outcome: "Deployed.".into(),
        }
    }

    fn failing(_: &Trajectory, _: &str, _: &str) -> Result<String> {
        Err(Error::new(
            crate::error::ErrorType::Upstream,
            "no adapter registered for provider \"x\"",
        ))
    }

    fn model(_: &Trajectory, name: &str, d: &str) -> Result<String> {
        Ok(format!(
            "---\nname: {name}\ndescription: {d}\n---\nby model\n"
        ))
    }

    #[test]
    fn a_failing_model_route_falls_back_to_the_deterministic_draft() {
        let t = trajectory();
        let (d, why) = draft(&t, "deploy-the-site", Some((&failing, "model"))).unwrap();
        assert_eq!(d.drafted_by, "deterministic");
        assert!(why.unwrap().message.contains("no adapter"));
        assert_eq!(
            d.text,
            deterministic(&t, "deploy-the-site", &d.description).unwrap()
        );
        let (d, why) = draft(&t, "deploy-the-site", Some((&model, "model"))).unwrap();
        assert_eq!(d.drafted_by, "model");
        assert!(why.is_none());
        assert!(d.text.ends_with("by model\n"));
    }

    #[test]
    fn names_and_descriptions_follow_the_spec() {
        assert_eq!(name_for("Deploy the site!\nmore"), "deploy-the-site");
        assert_eq!(name_for("???"), "episode-skill");
        let long = "word ".repeat(400);
        assert!(spec::valid_name(&name_for(&long)));
        assert!(description_for(&long).chars().count() <= spec::MAX_DESCRIPTION);
        assert_eq!(
            description_for("Fix the build."),
            "Use when asked to fix the build"
        );
        assert_eq!(description_for("CI is red"), "Use when asked to CI is red");
    }

    #[test]
    fn the_deterministic_draft_lints_clean() {
        let t = trajectory();
        let text =
            deterministic(&t, "deploy-the-site", "Use when asked to deploy the site").unwrap();
        let doc = spec::parse(&text, "f").unwrap();
        let dir = std::path::Path::new("/nonexistent");
        assert!(spec::lint_doc(&doc, dir, "deploy-the-site", "f").is_empty());
        assert!(text.contains("1. Call `bash` with `{\"command\":\"make deploy\"}`."));
    }
}
