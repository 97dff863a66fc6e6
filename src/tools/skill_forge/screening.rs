//! `skill_forge screen`: the static screen of a folder or a skill of the
//! home, its optional model review (`--deep`), and how a screen and its
//! findings read as JSON and text (shared with `install` and `lint`).

use super::spec;
use super::{DIR, record};
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::screen::{self, Screen, Verdict, deep};
use crate::tools::Ctx;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A screen finding as JSON (`data.findings[]` of `screen`, `detail.findings` of refusals).
pub(super) fn finding_json(f: &screen::Finding) -> Value {
    let mut v = json!({"rule": f.rule, "category": f.category, "severity": f.severity.as_str(),
           "file": f.file, "line": f.line, "excerpt": f.excerpt, "why": f.why});
    let end = |l: &screen::Loc| json!({"file": l.file, "line": l.line, "excerpt": l.excerpt});
    if let Some(source) = &f.source {
        v["source"] = end(source);
    }
    if let Some(sink) = &f.sink {
        v["sink"] = end(sink);
    }
    v
}

pub(super) fn screen_json(s: &Screen) -> Value {
    json!({"verdict": s.verdict.as_str(), "content_hash": s.content_hash,
           "findings": s.findings.iter().map(finding_json).collect::<Vec<_>>()})
}

pub(super) fn screen_text(s: &Screen) -> String {
    s.findings.iter().map(finding_text).collect()
}

/// One finding as two lines of text: where and why, then the excerpt.
fn finding_text(f: &screen::Finding) -> String {
    format!(
        "{}: {}:{}: [{}] {} — {}\n    {}\n",
        f.severity.as_str(),
        one_line(&f.file),
        f.line,
        f.category,
        f.rule,
        f.why,
        one_line(&f.excerpt)
    )
}

/// What `skill_forge screen` is asked (the flags of its `--help`).
pub(super) struct Screening {
    /// A skill of the home (a bare name), or a skill folder (a path).
    pub(super) target: String,
    /// A `fail` verdict is an error (permission).
    pub(super) strict: bool,
    /// Record a `warn` verdict as accepted (skills of the home only).
    pub(super) accept_warnings: bool,
    /// Also ask the model route for a judgement.
    pub(super) deep: bool,
}

/// `skill_forge screen`.
pub(super) fn run_screen(ctx: &Ctx, args: Screening) -> Result<Outcome> {
    let home = ctx.optional_home()?;
    let t = target(home, &args.target)?;
    if args.accept_warnings && t.home_skill.is_none() {
        return Err(Error::invalid_args(
            "--accept-warnings records a verdict, and only a skill of the home has a record",
        )
        .with_hint(format!(
            "install the folder with `skill_forge install {} --accept-warnings`, or leave the flag out",
            args.target
        ))
        .with_detail("flag", "--accept-warnings"));
    }
    let redactor = ctx.redactor();
    let mut s = screen::screen_dir(&t.dir, redactor)?;
    let mut warnings = Vec::new();
    let deep = if args.deep {
        let (review, json, warning) = deep_review(ctx, home, &t, &s)?;
        warnings.extend(warning);
        if let Some(r) = &review {
            s.verdict = r.raised(&s);
        }
        Some((review, json))
    } else {
        None
    };
    let review = deep.as_ref().and_then(|(r, _)| r.as_ref());
    let mut data = screen_json(&s);
    if let Some(r) = review {
        decorate_findings(&mut data, r);
    }
    if let Some((_, json)) = &deep {
        data["deep"] = json.clone();
    }
    let mut recorded = None;
    if let (Some(home), Some(name)) = (home, &t.home_skill) {
        let previous = record(home, name)?;
        let status = super::screen_status(&s, args.accept_warnings, previous.as_ref());
        super::write_record(home, &ctx.clock, name, &s, status)?;
        super::reindex(home, name, &t.dir);
        data["status"] = status.into();
        recorded = Some(status);
    }
    let count = data["findings"].as_array().map_or(0, Vec::len);
    if args.strict && s.verdict == Verdict::Fail {
        return Err(Error::new(
            ErrorType::Permission,
            format!("the screen of {} fails ({count} finding(s))", t.label),
        )
        .with_hint("the skill does something a skill must not; read the findings")
        .with_detail("verdict", "fail")
        .with_detail("findings", data["findings"].clone()));
    }
    let mut text = match review {
        Some(r) => screen_text_with(&s, r),
        None => screen_text(&s),
    };
    if let Some((_, json)) = &deep {
        text.push_str(&deep_text(json));
    }
    text.push_str(&format!(
        "{}: {} ({count} finding(s)){}\n",
        t.label,
        s.verdict.as_str(),
        match recorded {
            Some(st) => format!(", recorded as {st}"),
            None if home.is_none() => ", not recorded (no agent home)".to_string(),
            None => ", not recorded (a folder, not a skill of the home)".to_string(),
        }
    ));
    let mut outcome = Outcome::new(data, text).with_meta("count", count);
    for w in warnings {
        outcome = outcome.with_warning(w);
    }
    Ok(outcome)
}

/// What a deep review found, for the screen's output: the review (none
/// when skipped or failed), `data.deep`, and a warning when it failed.
fn deep_review(
    ctx: &Ctx,
    home: Option<&Home>,
    t: &Target,
    s: &Screen,
) -> Result<(Option<deep::Review>, Value, Option<String>)> {
    let skipped = |why: &str| Ok((None, json!({"skipped": why}), None));
    let Some(home) = home else {
        return skipped(
            "no agent home, so no model route (run in a home whose config.json has a \"model\" block)",
        );
    };
    let route = match crate::oda::Route::from_home(home) {
        Ok(Some(route)) => route,
        Ok(None) => {
            return skipped(
                "no model route configured (add a \"model\" block to config.json; see `agentbox model check`)",
            );
        }
        Err(e) => return Err(e),
    };
    let redactor = home.store.redactor();
    let label = format!("{}/{}", route.provider(), route.model());
    let prompt = deep::prompt_for_dir(&t.dir, s, redactor)?;
    let failed = |why: String| {
        let why = deep::clean(&why, 300, redactor);
        Ok((
            None,
            json!({"route": label, "error": why}),
            Some(format!(
                "the deep review did not count ({why}); the static verdict stands"
            )),
        ))
    };
    let answer = match route.ask(&prompt.text, &[], None, &mut |line| {
        if !ctx.quiet {
            crate::output::progress(redactor, "skill_forge", line)
        }
    }) {
        Ok(answer) => answer,
        Err(e) => return failed(format!("the model route failed: {}", e.message)),
    };
    match deep::read_reply(&answer.text, s, &prompt, redactor) {
        Ok(review) => {
            let json = json!({"route": label, "verdict": review.verdict.as_str(),
                              "summary": review.summary, "static_verdict": s.verdict.as_str(),
                              "judged": review.judgements.len(), "added": review.added.len()});
            Ok((Some(review), json, None))
        }
        Err(why) => failed(format!("the model's reply was not usable: {why}")),
    }
}

/// `deep: {judgement, why}` beside each judged finding, then the model's
/// own findings (rule `deep-model`).
fn decorate_findings(data: &mut Value, r: &deep::Review) {
    let Some(findings) = data["findings"].as_array_mut() else {
        return;
    };
    for (i, f) in findings.iter_mut().enumerate() {
        if let Some(j) = r.judgement(i) {
            f["deep"] = json!({"judgement": j.judgement, "why": j.why});
        }
    }
    for m in &r.added {
        findings.push(json!({"rule": deep::MODEL_RULE, "category": m.category,
                             "severity": m.severity.as_str(), "file": m.file, "line": m.line,
                             "excerpt": m.excerpt, "why": m.why}));
    }
}

fn screen_text_with(s: &Screen, r: &deep::Review) -> String {
    let mut text = String::new();
    for (i, f) in s.findings.iter().enumerate() {
        text.push_str(&finding_text(f));
        if let Some(j) = r.judgement(i) {
            text.push_str(&format!("    model: {} — {}\n", j.judgement, j.why));
        }
    }
    for m in &r.added {
        text.push_str(&format!(
            "{}: {}:{}: [{}] {} — {}\n    {}\n",
            m.severity.as_str(),
            m.file,
            m.line,
            m.category,
            deep::MODEL_RULE,
            m.why,
            m.excerpt
        ));
    }
    text
}

fn deep_text(deep: &Value) -> String {
    if let Some(why) = deep["skipped"].as_str() {
        return format!("deep review skipped: {why}\n");
    }
    let route = deep["route"].as_str().unwrap_or("?");
    if deep.get("error").is_some() {
        return format!("deep review by {route} did not count; the static verdict stands\n");
    }
    format!(
        "deep review by {route}: {} — {} (the static verdict was {}; the model can raise it, never lower it)\n",
        deep["verdict"].as_str().unwrap_or("?"),
        deep["summary"].as_str().unwrap_or(""),
        deep["static_verdict"].as_str().unwrap_or("?")
    )
}

/// A file name or excerpt on one line of text output: a skill's file names
/// are the author's, and a newline in one must not start a line of its own
/// (a fake `verdict: pass`). Control characters are shown as `\xNN`.
fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| c.is_control()) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| {
                if c.is_control() {
                    format!("\\x{:02x}", c as u32)
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// A target of lint/screen: a skill of the home (by name) or a folder.
pub(super) struct Target {
    pub(super) dir: PathBuf,
    /// The folder's name (what `name` must equal).
    pub(super) folder: String,
    /// How findings name files (`name` or the path given).
    pub(super) label: String,
    /// The skill's name when it is a skill of the home.
    pub(super) home_skill: Option<String>,
}

/// Whether a lint/screen argument is a path rather than a skill name: it
/// holds a `/` (or the platform's separator), or starts with `.` or `~`, or
/// is absolute. A bare word is a skill of the home when there is a home,
/// and a folder of the working directory when there is none.
fn is_path(arg: &str) -> bool {
    arg.contains('/')
        || arg.contains(std::path::MAIN_SEPARATOR)
        || arg.starts_with('.')
        || arg.starts_with('~')
        || Path::new(arg).is_absolute()
}

pub(super) fn target(home: Option<&Home>, arg: &str) -> Result<Target> {
    if let (Some(home), false) = (home, is_path(arg)) {
        let dir = if spec::valid_name(arg) {
            Some(home.store.path(&[DIR, arg])?)
        } else {
            None
        };
        return match dir {
            Some(dir) if dir.is_dir() => Ok(Target {
                dir,
                folder: arg.to_string(),
                label: arg.to_string(),
                home_skill: Some(arg.to_string()),
            }),
            _ => {
                let folder = Path::new(arg).is_dir();
                Err(Error::not_found(format!("no skill '{arg}' in the home"))
                    .with_hint(if folder {
                        format!("a bare name is a skill of the home; to check the folder, give its path: ./{arg}")
                    } else {
                        "see the skills with `skill_forge list`, or give a folder's path (./my-skill)"
                            .to_string()
                    })
                    .with_detail("target", arg))
            }
        };
    }
    let path = Path::new(arg);
    if path.is_dir() {
        let folder = std::fs::canonicalize(path)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        return Ok(Target {
            dir: path.to_path_buf(),
            folder,
            label: arg.trim_end_matches('/').to_string(),
            home_skill: None,
        });
    }
    let hint = if home.is_none() && !is_path(arg) {
        "there is no agent home here, so a bare name is a folder of the working directory; give the skill folder's path, or run in a home (or pass --home DIR) to name a skill of it"
    } else {
        "give the path of a folder holding SKILL.md"
    };
    Err(Error::not_found(format!("no skill folder '{arg}'"))
        .with_hint(hint)
        .with_detail("target", arg))
}
