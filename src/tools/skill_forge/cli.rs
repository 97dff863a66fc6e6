//! The clap adapter of `skill_forge`: arguments in, library call, `Outcome` out.

use super::draft;
use super::screening::{Screening, Target, run_screen, screen_json, screen_text, target};
use super::spec::{self, SKILL_FILE};
use super::{DIR, Staged, check_name, copy_tree, existing, read_doc};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::{Args, Parser, Subcommand};
use serde_json::{Value, json};
use std::path::Path;

/// Skills in the Agent Skills format: scaffold, draft, lint, screen, install.
///
/// A skill is a folder skills/<name>/ of the home holding SKILL.md (YAML
/// front matter + markdown) and optional scripts/, references/, assets/.
/// Skills enter the home only after a static screen; the verdict is recorded
/// against the skill's content hash, so a later edit shows as "changed since
/// screening".
#[derive(Debug, Parser)]
#[command(
    name = "skill_forge",
    subcommand_required = true,
    after_help = "Examples:\n  skill_forge new pdf-forms --description \"Fill PDF forms. Use when asked to fill a PDF.\"\n  \
                  skill_forge install ./downloads/pdf-forms\n  skill_forge list"
)]
pub(super) struct SkillForgeCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    New(NewArgs),
    FromEpisode(FromEpisodeArgs),
    Lint(LintArgs),
    Screen(ScreenArgs),
    Install(InstallArgs),
    List(ListArgs),
    Show(ShowArgs),
    Rm(RmArgs),
}

/// Scaffold a new skill (unscreened until `screen`).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge new pdf-forms --description \"Fill PDF forms. Use when asked to fill a PDF.\"\n  \
                  skill_forge new release-notes --description \"Write release notes.\" --body notes.md"
)]
struct NewArgs {
    /// Skill name: lowercase letters, digits and single hyphens, at most 64
    name: String,
    /// What the skill does and when to use it (1-1024 characters)
    #[arg(long, value_name = "TEXT")]
    description: String,
    /// Read the markdown body from a file ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    body: Option<String>,
}

/// Draft a skill from a recorded episode, screen it and add it.
///
/// The draft takes the user's request (first user turn), the tool calls in
/// order (arguments redacted) and the outcome (last assistant turn).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge from-episode ep-20260115T093000Z-1\n  \
                  skill_forge from-episode ep-20260115T093000Z-1 --name deploy-site"
)]
struct FromEpisodeArgs {
    /// Episode id (see `track list`)
    episode: String,
    /// Skill name (default: derived from the request)
    #[arg(long)]
    name: Option<String>,
    /// Add the draft even when its screen warns
    #[arg(long)]
    accept_warnings: bool,
}

/// Check skills against the Agent Skills specification.
///
/// Each finding names its rule, file and line. Exit 0 with findings; --strict
/// makes any finding a conflict (exit 1). A folder is checked anywhere, with
/// or without an agent home; with no target, every skill of the home.
///
/// TARGET is a path when it holds a `/`, starts with `.` or `~`, or is
/// absolute (`./pdf-forms`, `skills/pdf-forms`, `/tmp/x`). A bare word
/// (`pdf-forms`) is a skill of the home, or, with no home, a folder of the
/// working directory.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge lint\n  skill_forge lint pdf-forms\n  skill_forge lint ./my-skill --strict"
)]
struct LintArgs {
    /// A skill of the home (a bare name), or a skill folder (a path: ./NAME, DIR/NAME)
    target: Option<String>,
    /// Fail (conflict, exit 1) when there is any finding
    #[arg(long)]
    strict: bool,
}

/// Screen every file of a skill for malicious behaviour.
///
/// Exit 0 whatever the verdict; --strict turns `fail` into a permission
/// error (exit 1). A screen of a skill of the home records its verdict; a
/// folder is screened anywhere (no home needed) and nothing is recorded.
///
/// TARGET is a path when it holds a `/`, starts with `.` or `~`, or is
/// absolute (`./pdf-forms`, `downloads/pdf-forms`, `/tmp/x`). A bare word
/// (`pdf-forms`) is a skill of the home, or, with no home, a folder of the
/// working directory.
///
/// --deep also asks the model route (config.json's "model" block) to judge
/// every finding and the skill as a whole. The model can raise the verdict,
/// never lower it: its opinion of a finding is shown beside it
/// (data.findings[].deep), what it adds has rule deep-model, and data.deep says
/// what it concluded. Without a route the review is skipped (data.deep.skipped);
/// a route that fails or answers nonsense leaves the static verdict, with a
/// warning (data.deep.error) — never an error exit.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge screen pdf-forms\n  skill_forge screen ./downloads/pdf-forms --strict\n  \
                  skill_forge screen ~/src/my-skill          # no agent home needed\n  \
                  skill_forge screen pdf-forms --deep --format json | jq .data.deep"
)]
pub(super) struct ScreenArgs {
    /// A skill of the home (a bare name), or a skill folder (a path: ./NAME, DIR/NAME)
    pub(super) target: String,
    /// Exit 1 (permission) when the verdict is fail
    #[arg(long)]
    pub(super) strict: bool,
    /// Record a `warn` verdict as accepted (skills of the home only)
    #[arg(long)]
    pub(super) accept_warnings: bool,
    /// Also ask the model route for a judgement (it can only raise the verdict)
    #[arg(long)]
    pub(super) deep: bool,
}

impl From<ScreenArgs> for Screening {
    fn from(args: ScreenArgs) -> Screening {
        Screening {
            target: args.target,
            strict: args.strict,
            accept_warnings: args.accept_warnings,
            deep: args.deep,
        }
    }
}

/// Copy a skill folder into the home after screening it.
///
/// A `fail` verdict is refused (permission); `warn` needs --accept-warnings.
/// Symlinks and special files in the folder are refused.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge install ./downloads/pdf-forms\n  \
                  skill_forge install ../shared/skills/deploy --name deploy-site --accept-warnings"
)]
struct InstallArgs {
    /// The skill folder, or a git URL (https://…, file://…) whose repository holds SKILL.md at its root
    path: String,
    /// Install under this name (default: the front matter's name)
    #[arg(long)]
    name: Option<String>,
    /// Install even when the screen warns
    #[arg(long)]
    accept_warnings: bool,
}

/// List the skills of the home with their screening status.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge list\n  skill_forge list --format json | jq '.data.skills[].status'"
)]
struct ListArgs {}

/// Show a skill: front matter, body, files, status, and the hash its verdict was given for
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  skill_forge show pdf-forms\n  skill_forge show pdf-forms --findings"
)]
struct ShowArgs {
    /// Skill name
    name: String,
    /// Also screen the files as they are now and list the findings (records nothing)
    #[arg(long)]
    findings: bool,
}

/// Remove a skill and its screening record.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  skill_forge rm pdf-forms")]
struct RmArgs {
    /// Skill name
    name: String,
}

pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let mut cli = crate::tools::parse_args::<SkillForgeCli>(matches)?;
    hit_ids(&mut cli.verb);
    // lint and screen of a folder work anywhere (a linter); every other
    // verb works on the home.
    match cli.verb {
        Verb::Lint(args) => run_lint(ctx, args),
        Verb::Screen(args) => run_screen(ctx, args.into()),
        verb => run_in_home(ctx, ctx.home()?, verb),
    }
}

fn run_in_home(ctx: &Ctx, home: &Home, verb: Verb) -> Result<Outcome> {
    match verb {
        Verb::New(args) => run_new(home, args),
        Verb::FromEpisode(args) => run_from_episode(ctx, home, args),
        Verb::Install(args) => run_install(ctx, home, args),
        Verb::List(_) => run_list(home),
        Verb::Show(args) => run_show(ctx, home, args),
        Verb::Rm(args) => {
            super::remove(home, &args.name)?;
            Ok(Outcome::new(
                json!({"name": args.name, "removed": true}),
                format!("Removed skill {}\n", args.name),
            ))
        }
        Verb::Lint(args) => run_lint(ctx, args),
        Verb::Screen(args) => run_screen(ctx, args.into()),
    }
}

fn skill_md(name: &str, description: &str, body: &str) -> Result<String> {
    let mut front = serde_json::Map::new();
    front.insert("name".into(), name.into());
    front.insert("description".into(), description.into());
    let yaml = serde_norway::to_string(&front)
        .map_err(|e| Error::internal(format!("cannot write the front matter: {e}")))?;
    Ok(format!("---\n{yaml}---\n\n{}", body.trim_start()))
}

fn check_description(description: &str) -> Result<()> {
    let n = description.chars().count();
    if description.trim().is_empty() || n > spec::MAX_DESCRIPTION {
        return Err(Error::invalid_args(format!(
            "the description is {n} characters; it must be 1-{}",
            spec::MAX_DESCRIPTION
        ))
        .with_hint("say what the skill does and when to use it, in at most 1024 characters")
        .with_limit("description", n as u64, spec::MAX_DESCRIPTION as u64));
    }
    Ok(())
}

fn run_new(home: &Home, args: NewArgs) -> Result<Outcome> {
    check_name(&args.name)?;
    check_description(&args.description)?;
    let body = match &args.body {
        Some(file) => crate::tools::read_input(file, "body file", home.store.max_item_bytes())?.0,
        None => format!(
            "# {}\n\n## When to use\n\n{}\n\n## Steps\n\n1. Describe the first step.\n",
            args.name, args.description
        ),
    };
    let text = skill_md(&args.name, &args.description, &body)?;
    let staged = Staged::new(home, &args.name)?;
    staged.write(SKILL_FILE, text.as_bytes(), false)?;
    let dir = staged.commit()?;
    let path = format!("{DIR}/{}/{SKILL_FILE}", args.name);
    Ok(Outcome::new(
        json!({"name": args.name, "path": path, "dir": dir.display().to_string(),
               "status": super::UNSCREENED}),
        format!(
            "Created skill {} ({path}), unscreened\nNext: edit it, then `skill_forge lint {0}` and `skill_forge screen {0}`\n",
            args.name
        ),
    ))
}

fn run_from_episode(ctx: &Ctx, home: &Home, args: FromEpisodeArgs) -> Result<Outcome> {
    let ep = crate::tools::track::episodes::find(home, &args.episode)?;
    let trajectory = draft::trajectory(home, &ep)?;
    let name = match &args.name {
        Some(name) => check_name(name)?.to_string(),
        None => draft::name_for(&trajectory.request),
    };
    // Through the model route when config.json names one; the deterministic
    // draft is the fallback when the route fails (a warning says so).
    let route = crate::oda::Route::from_home(home);
    let redactor = home.store.redactor();
    let through_model = |t: &draft::Trajectory, name: &str, description: &str| -> Result<String> {
        let route = match &route {
            Ok(Some(route)) => route,
            Ok(None) => return Err(Error::internal("no model route to draft with")),
            Err(e) => return Err(e.clone()),
        };
        let prompt = draft::model_prompt(t, name, description)?;
        let answer = route.ask(&prompt, &[], None, &mut |line| {
            crate::output::progress(redactor, "skill_forge", line)
        })?;
        draft::model_reply(&answer.text, name)
    };
    let model: Option<(draft::Drafter<'_>, &'static str)> = match &route {
        Ok(None) => None,
        _ => Some((&through_model, "model")),
    };
    let (draft, fallback) = draft::draft(&trajectory, &name, model)?;
    let staged = Staged::new(home, &name)?;
    staged.write(SKILL_FILE, draft.text.as_bytes(), false)?;
    let (screen, status) = staged.admit(&ctx.clock, args.accept_warnings)?;
    let mut outcome = Outcome::new(
        json!({"name": name, "path": super::rel_path(&name), "episode": ep.id,
               "drafted_by": draft.drafted_by, "description": draft.description,
               "status": status, "steps": trajectory.calls.len(), "screen": screen_json(&screen)}),
        format!(
            "Drafted skill {name} from episode {} ({} step(s), drafted by {}), screened: {status}\n",
            ep.id,
            trajectory.calls.len(),
            draft.drafted_by
        ),
    );
    if let Some(e) = fallback {
        outcome = outcome.with_warning(format!(
            "the model route failed ({}); the draft is the deterministic one",
            e.message
        ));
    }
    Ok(outcome)
}

fn run_lint(ctx: &Ctx, args: LintArgs) -> Result<Outcome> {
    let home = match &args.target {
        Some(_) => ctx.optional_home()?,
        // every skill of the home: there must be one
        None => Some(ctx.home()?),
    };
    let max = home.map_or(crate::config::DEFAULT_MAX_ITEM_BYTES, |h| {
        h.store.max_item_bytes()
    });
    let targets = match (&args.target, home) {
        (Some(arg), _) => vec![target(home, arg)?],
        (None, Some(home)) => super::names(home)?
            .into_iter()
            .map(|name| {
                Ok(Target {
                    dir: home.store.root().join(DIR).join(&name),
                    folder: name.clone(),
                    label: name.clone(),
                    home_skill: Some(name),
                })
            })
            .collect::<Result<Vec<_>>>()?,
        (None, None) => Vec::new(),
    };
    let mut findings = Vec::new();
    for t in &targets {
        // Never through a link out of the home or the folder, never more
        // than the item cap: one named target is refused (like `show`),
        // one skill among all is a finding on its line.
        let path = t.dir.join(SKILL_FILE);
        let shown = format!("{}/{SKILL_FILE}", t.label);
        let read = match (&t.home_skill, home) {
            (Some(_), Some(home)) => home
                .store
                .check_path(&path)
                .and_then(|()| super::read_plain_file(&path, &shown, max)),
            _ => super::read_plain_file(&path, &shown, max),
        };
        let read = match read {
            Err(e) if args.target.is_some() => return Err(e),
            other => other.map_err(|e| e.message),
        };
        findings.extend(spec::lint_dir(read, &t.dir, &t.folder, &t.label));
    }
    let json_findings: Vec<Value> = findings.iter().map(spec::Finding::to_json).collect();
    if args.strict && !findings.is_empty() {
        let f = &findings[0];
        return Err(Error::conflict(format!(
            "lint found {} problem(s); the first: {}:{}: {}",
            findings.len(),
            f.file,
            f.line,
            f.message
        ))
        .with_hint("run `skill_forge lint` to see them all, fix them, then lint again")
        .with_detail("findings", json_findings));
    }
    let mut text = String::new();
    for f in &findings {
        text.push_str(&format!(
            "{}: {}:{}: {} ({})\n",
            f.severity, f.file, f.line, f.message, f.rule
        ));
    }
    text.push_str(&format!(
        "{} problem(s) in {} skill(s)\n",
        findings.len(),
        targets.len()
    ));
    Ok(Outcome::new(
        json!({"findings": json_findings, "skills_checked": targets.len()}),
        text,
    )
    .with_meta("count", findings.len()))
}

fn run_install(ctx: &Ctx, home: &Home, args: InstallArgs) -> Result<Outcome> {
    // A git URL is cloned first, then installed like a folder.
    let cloned = if super::clone::looks_like_url(&args.path) {
        Some(super::clone::clone(&args.path)?)
    } else {
        None
    };
    let src = cloned
        .as_ref()
        .map_or_else(|| Path::new(&args.path), |c| c.dir.as_path());
    let meta = std::fs::symlink_metadata(src).map_err(|_| {
        Error::not_found(format!("no such skill folder: {}", args.path))
            .with_hint("pass the path of a folder holding SKILL.md")
            .with_detail("path", args.path.clone())
    })?;
    if meta.file_type().is_symlink() || !meta.is_dir() {
        return Err(
            Error::invalid_args(format!("{} is not a folder", args.path))
                .with_hint("pass the skill's folder itself (not a link to it, not SKILL.md)")
                .with_detail("path", args.path.clone()),
        );
    }
    let skill_md = src.join(SKILL_FILE);
    let max = home.store.max_item_bytes();
    let text = match super::read_plain_file(&skill_md, SKILL_FILE, max)? {
        Some(bytes) => {
            String::from_utf8(bytes).map_err(|e| crate::store::not_utf8(SKILL_FILE, &e))?
        }
        None => {
            return Err(Error::invalid_args(format!(
                "{} has no SKILL.md; it is not a skill",
                args.path
            ))
            .with_hint(
                "a skill folder holds SKILL.md with name and description in its front matter",
            )
            .with_detail("path", args.path.clone()));
        }
    };
    let unparsed = |f: spec::Finding| {
        Error::invalid_args(format!("{}:{}: {}", f.file, f.line, f.message))
            .with_hint(format!(
                "fix it, then check with `skill_forge lint {}`",
                args.path
            ))
            .with_detail("line", f.line)
    };
    let doc = spec::parse(&text, SKILL_FILE).map_err(unparsed)?;
    let name = match &args.name {
        Some(name) => name.clone(),
        None if !doc.name.is_empty() => doc.name.clone(),
        None => match &cloned {
            Some(c) => c.repo_name.clone(),
            None => src
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default(),
        },
    };
    check_name(&name)?;
    let staged = Staged::new(home, &name)?;
    let copied = copy_tree(&staged, src, max)?;
    // What is screened, hashed and installed is the staged copy: its
    // SKILL.md is read again from there (the source may have changed).
    let staged_md = staged.dir().join(SKILL_FILE);
    let staged_text = home.store.read(&staged_md)?.ok_or_else(|| {
        Error::invalid_args(format!(
            "{} lost its SKILL.md while it was copied",
            args.path
        ))
        .with_hint("retry when nothing else changes the folder")
        .with_detail("path", args.path.clone())
    })?;
    let staged_doc = spec::parse(&staged_text, SKILL_FILE).map_err(unparsed)?;
    if staged_doc.name != name {
        // the spec wants name == folder: rename the skill in its front
        // matter, the value alone, as the YAML parser locates it
        let renamed = spec::rename(&staged_text, &name).map_err(|why| {
            Error::invalid_args(format!(
                "cannot set the name of {} to {name:?} in its SKILL.md: {why}",
                args.path
            ))
            .with_hint(format!(
                "set `name: {name}` in a copy of the skill by hand and install that, or install it without --name"
            ))
            .with_detail("path", args.path.clone())
        })?;
        staged.write(SKILL_FILE, renamed.as_bytes(), false)?;
    }
    let (screen, status) = staged.admit(&ctx.clock, args.accept_warnings)?;
    let mut data = screen_json(&screen);
    data["name"] = name.clone().into();
    data["path"] = super::rel_path(&name).into();
    data["files"] = copied.files.into();
    data["status"] = status.into();
    data["dropped"] = copied.dropped.clone().into();
    let mut text = screen_text(&screen);
    if !copied.dropped.is_empty() {
        text.push_str(&format!(
            "Left out (git's own data): {}\n",
            copied.dropped.join(", ")
        ));
    }
    text.push_str(&format!(
        "Installed skill {name} ({} file(s)), screened: {status}\n",
        copied.files
    ));
    Ok(Outcome::new(data, text))
}

fn run_list(home: &Home) -> Result<Outcome> {
    let skills = super::list(home)?;
    let mut text = String::new();
    for s in &skills {
        let desc = s.problem.as_deref().unwrap_or(&s.description);
        let short: String = desc.chars().take(80).collect();
        text.push_str(&format!("{}  [{}]  {short}\n", s.name, s.status));
    }
    if skills.is_empty() {
        text.push_str("No skills yet. Add one with `skill_forge new NAME --description TEXT`.\n");
    }
    let items: Vec<Value> = skills
        .iter()
        .map(|s| {
            let mut v = json!({"name": s.name, "description": s.description, "status": s.status,
                               "content_hash": s.content_hash, "screened_hash": s.screened_hash});
            if let Some(p) = &s.problem {
                v["problem"] = p.clone().into();
            }
            v
        })
        .collect();
    Ok(Outcome::new(json!({"skills": items}), text).with_meta("count", skills.len()))
}

fn run_show(ctx: &Ctx, home: &Home, args: ShowArgs) -> Result<Outcome> {
    let dir = existing(home, &args.name)?;
    let doc = read_doc(home, &args.name, &dir)?;
    let record = super::record(home, &args.name)?;
    let hash = crate::screen::content_hash(&dir)?;
    let st = super::status_for(record.as_ref(), &hash);
    let screening = record.map(|r| {
        let matches = r["content_hash"].as_str() == Some(hash.as_str());
        json!({"verdict": r["verdict"], "status": r["status"], "content_hash": r["content_hash"],
               "findings": r["findings"], "screened_at": r["screened_at"], "matches": matches})
    });
    let screen = if args.findings {
        Some(crate::screen::screen_dir(&dir, ctx.redactor())?)
    } else {
        None
    };
    let mut files = Vec::new();
    let mut stack = vec![(dir.clone(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d)
            .map_err(|e| Error::io("read", &d, &e))?
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let rel = format!("{prefix}{}", e.file_name().to_string_lossy());
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push((e.path(), format!("{rel}/"))),
                _ => files.push(rel),
            }
        }
    }
    files.sort();
    let mut text = format!("{}  [{st}]\n{}\n", args.name, doc.description);
    for (k, v) in &doc.front {
        if k != "name" && k != "description" {
            text.push_str(&format!("{k}: {v}\n"));
        }
    }
    text.push_str(&format!("files: {}\n", files.join(", ")));
    text.push_str(&match &screening {
        Some(r) => format!(
            "screened {} at {}: {} for {}{}\n",
            r["verdict"].as_str().unwrap_or("?"),
            r["screened_at"].as_str().unwrap_or("?"),
            r["status"].as_str().unwrap_or("?"),
            r["content_hash"].as_str().unwrap_or("?"),
            if r["matches"] == true {
                " (the files still match)".to_string()
            } else {
                format!("; the files now hash to {hash}")
            }
        ),
        None => format!("never screened; the files hash to {hash}\n"),
    });
    text.push_str(&format!("\n{}", doc.body));
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut data = json!({"name": args.name, "status": st, "front_matter": doc.front,
           "body": doc.body, "files": files, "path": super::rel_path(&args.name),
           "content_hash": hash, "screening": screening});
    if let Some(s) = &screen {
        data["screen"] = screen_json(s);
        text.push_str(&format!(
            "\nscreened now: {} ({} finding(s), not recorded)\n{}",
            s.verdict.as_str(),
            s.findings.len(),
            screen_text(s)
        ));
    }
    Ok(Outcome::new(data, text))
}

/// A skill's id as a search hit prints it (`skill:deploy`) is taken wherever
/// the name of a skill of the home is.
fn hit_ids(verb: &mut Verb) {
    let local = |name: &mut String| *name = crate::tools::local_id("skill", std::mem::take(name));
    match verb {
        Verb::Show(args) => local(&mut args.name),
        Verb::Rm(args) => local(&mut args.name),
        Verb::Screen(args) => local(&mut args.target),
        Verb::Lint(args) => {
            if let Some(target) = &mut args.target {
                local(target);
            }
        }
        _ => {}
    }
}
