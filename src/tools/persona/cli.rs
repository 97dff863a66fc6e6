//! The clap adapter of `persona`: arguments in, library call, `Outcome` out.

use super::file::{label, trait_key};
use super::history::Entry;
use super::{Change, Current, NewPersona, Saved};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::{Ctx, read_input};
use clap::{Args, Parser, Subcommand};
use serde_json::{Value, json};

/// Named personas: who the agent is (tone, verbosity, language, free text).
///
/// A persona is a plain file persona/<name>.md of the home: front matter of
/// traits (`key: value` lines) and a free-text body. One persona is active
/// (persona/ACTIVE); `render` prints the markdown block an agent splices into
/// its system prompt, and memory_mcp serves it as mem://persona. Every change
/// is a revision (`history`, `revert`); --expect-version guards stale writes.
/// Hand edits are welcome: the file is the truth.
///
/// What create, set, unset and revert would write is screened like a
/// skill (an agent follows it): a `fail` verdict is refused (permission),
/// a `warn` verdict needs --accept-warnings.
#[derive(Debug, Parser)]
#[command(
    name = "persona",
    subcommand_required = true,
    after_help = "Examples:\n  persona create ada --trait tone=warm --trait verbosity=concise --text ada.md\n  \
                  persona use ada\n  persona set tone=playful --expect-version 1\n  persona render"
)]
pub(super) struct PersonaCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    List(ListArgs),
    Show(ShowArgs),
    Create(CreateArgs),
    Set(SetArgs),
    Unset(UnsetArgs),
    Use(UseArgs),
    Render(RenderArgs),
    History(HistoryArgs),
    Revert(RevertArgs),
}

/// List the personas (* marks the active one).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  persona list\n  persona list --format json | jq '.data.personas[].name'"
)]
struct ListArgs {}

/// Show a persona: traits, body, rev (default: the active one).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  persona show\n  persona show ada --format json")]
struct ShowArgs {
    /// Persona name (default: the active persona)
    name: Option<String>,
}

/// Create a persona (the first one becomes active).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  persona create ada --trait tone=warm --trait language=en-GB\n  \
                  persona create reviewer --from ada --trait tone=blunt\n  \
                  persona create ada --text - < soul.md"
)]
struct CreateArgs {
    /// Persona name: lowercase letters, digits, '-' and '_', at most 64
    name: String,
    /// Start from another persona's traits and text
    #[arg(long, value_name = "NAME")]
    from: Option<String>,
    /// A trait, KEY=VALUE (repeatable): tone, verbosity, language or any key
    #[arg(long = "trait", value_name = "K=V")]
    traits: Vec<String>,
    /// Read the free-text body from a file ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    text: Option<String>,
    /// Write it even when the screen of the persona's text warns
    #[arg(long)]
    accept_warnings: bool,
}

/// Set traits (and the text) of a persona: one new revision.
///
/// NAME may be left out for the active persona: a first argument with '='
/// in it is already a trait.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  persona set tone=warm verbosity=concise\n  \
                  persona set ada language=fr --expect-version 3\n  persona set ada --text ada.md\n  \
                  persona set ada --text ada.md --accept-warnings   # its screen warns; written anyway"
)]
struct SetArgs {
    /// The persona (optional), then KEY=VALUE traits
    #[arg(value_name = "NAME|K=V")]
    args: Vec<String>,
    /// Replace the free-text body with a file's ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    text: Option<String>,
    /// Refuse (conflict) unless the persona is at this rev
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
    /// Write it even when the screen of the persona's text warns
    #[arg(long)]
    accept_warnings: bool,
}

/// Remove traits of a persona: one new revision.
///
/// With two or more arguments, a first one that names a persona is the
/// persona; otherwise every argument is a key of the active persona.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  persona unset humor\n  persona unset ada humor emoji --expect-version 4"
)]
struct UnsetArgs {
    /// The persona (optional), then the trait keys to remove
    #[arg(value_name = "NAME|KEY", required = true)]
    args: Vec<String>,
    /// Refuse (conflict) unless the persona is at this rev
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
    /// Write it even when the screen of the persona's text warns
    #[arg(long)]
    accept_warnings: bool,
}

/// Make a persona the active one (persona/ACTIVE).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  persona use ada")]
struct UseArgs {
    /// Persona name
    name: String,
}

/// Print the markdown block to splice into a system prompt.
///
/// Deterministic: the same persona renders to the same bytes. Secrets are
/// masked. The text is the markdown itself; json has it in data.markdown.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  persona render\n  persona render ada --format json | jq -r .data.markdown"
)]
struct RenderArgs {
    /// Persona name (default: the active persona)
    name: Option<String>,
}

/// List the revisions of a persona, newest first.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  persona history\n  persona history ada")]
struct HistoryArgs {
    /// Persona name (default: the active persona)
    name: Option<String>,
}

/// Restore an earlier revision's traits and text, as a new revision.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  persona revert ada 2\n  persona revert ada 2 --expect-version 5"
)]
struct RevertArgs {
    /// Persona name
    name: String,
    /// The revision to restore (see `persona history NAME`)
    rev: u64,
    /// Refuse (conflict) unless the persona is at this rev
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
    /// Write it even when the screen of the persona's text warns
    #[arg(long)]
    accept_warnings: bool,
}

pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let mut cli = crate::tools::parse_args::<PersonaCli>(matches)?;
    hit_ids(&mut cli.verb);
    let home = ctx.home()?;
    match cli.verb {
        Verb::List(_) => run_list(home),
        Verb::Show(args) => {
            let name = super::resolve(home, args.name.as_deref())?;
            let current = super::load(home, &name)?;
            Ok(Outcome::new(current.view(), show_text(&current)))
        }
        Verb::Create(args) => run_create(ctx, home, args),
        Verb::Set(args) => run_set(ctx, home, args),
        Verb::Unset(args) => run_unset(ctx, home, args),
        Verb::Use(args) => {
            let (current, before) = super::activate(home, &args.name)?;
            let mut data = current.view();
            data["previous"] = json!(before);
            let text = match before.as_deref() {
                Some(b) if b == args.name => {
                    format!("{} is already the active persona\n", args.name)
                }
                Some(b) => format!("Active persona: {} (was {b})\n", args.name),
                None => format!("Active persona: {}\n", args.name),
            };
            Ok(Outcome::new(data, text))
        }
        Verb::Render(args) => {
            let r = super::render(home, args.name.as_deref())?;
            let data =
                json!({"name": r.name, "rev": r.rev, "markdown": r.markdown, "traits": r.traits});
            Ok(Outcome::new(data, r.markdown))
        }
        Verb::History(args) => {
            let (current, entries) = super::history(home, args.name.as_deref())?;
            Ok(history_outcome(&current, &entries))
        }
        Verb::Revert(args) => {
            let saved = super::revert(
                home,
                &ctx.clock,
                &args.name,
                args.rev,
                args.expect_version,
                args.accept_warnings,
            )?;
            let verb = format!("Reverted {} to the content of rev {}", args.name, args.rev);
            Ok(saved_outcome(&saved, &verb))
        }
    }
}

fn run_list(home: &Home) -> Result<Outcome> {
    let listing = super::list(home)?;
    let personas: Vec<Value> = listing.personas.iter().map(Current::view).collect();
    let broken: Vec<Value> = listing
        .broken
        .iter()
        .map(|b| json!({"file": b.file, "message": b.message}))
        .collect();
    let data = json!({"personas": personas, "active": listing.active, "broken": broken});
    let mut text = String::new();
    if listing.personas.is_empty() && listing.broken.is_empty() {
        text.push_str(
            "No personas yet. Make one: persona create NAME --trait tone=warm --text FILE\n",
        );
    } else {
        let width = listing
            .personas
            .iter()
            .map(|c| c.persona.name.chars().count())
            .max()
            .unwrap_or(0);
        for c in &listing.personas {
            let mark = if c.active { "*" } else { " " };
            let traits = if c.persona.traits.is_empty() {
                "(no traits)".to_string()
            } else {
                c.persona
                    .traits
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", short(v, 40)))
                    .collect::<Vec<_>>()
                    .join(" · ")
            };
            let edited = if c.standing.hand_edited {
                "  (edited by hand)"
            } else {
                ""
            };
            text.push_str(&format!(
                "{mark} {:<width$}  rev {:<3} {traits}{edited}\n",
                c.persona.name,
                c.rev()
            ));
        }
        for b in &listing.broken {
            text.push_str(&format!("! {}\n", b.message));
        }
        match &listing.active {
            Some(active) if !listing.personas.iter().any(|c| &c.persona.name == active) => {
                text.push_str(&format!(
                    "The active persona '{active}' does not exist: choose one with `persona use NAME`\n"
                ));
            }
            Some(_) => {}
            None => text.push_str("No persona is active: choose one with `persona use NAME`\n"),
        }
    }
    Ok(Outcome::new(data, text))
}

fn run_create(ctx: &Ctx, home: &Home, args: CreateArgs) -> Result<Outcome> {
    let traits = args
        .traits
        .iter()
        .map(|t| super::parse_assignment(t))
        .collect::<Result<Vec<_>>>()?;
    let body = read_text(home, args.text.as_deref())?;
    let input = NewPersona {
        name: args.name.clone(),
        from: args.from,
        traits,
        body,
        accept_warnings: args.accept_warnings,
    };
    let saved = super::create(home, &ctx.clock, &input)?;
    let mut verb = format!("Created persona {}", args.name);
    if saved.activated {
        verb.push_str(" (now the active persona)");
    }
    Ok(saved_outcome(&saved, &verb))
}

fn read_text(home: &Home, file: Option<&str>) -> Result<Option<String>> {
    match file {
        None => Ok(None),
        Some(file) => {
            let text = read_input(file, "text file", home.store.max_item_bytes())?.0;
            if let Some((i, c)) = super::file::body_control(&text) {
                let shown = if file == "-" { "<stdin>" } else { file };
                return Err(Error::invalid_args(format!(
                    "{shown}:{}: {}",
                    i + 1,
                    super::file::body_control_message(c)
                ))
                .with_hint("save the text as plain UTF-8 text")
                .with_detail("path", shown)
                .with_detail("line", i + 1));
            }
            Ok(Some(text))
        }
    }
}

fn run_set(ctx: &Ctx, home: &Home, args: SetArgs) -> Result<Outcome> {
    let (name, rest) = match args.args.first() {
        Some(first) if !first.contains('=') => (Some(first.as_str()), &args.args[1..]),
        _ => (None, &args.args[..]),
    };
    if rest.is_empty() && args.text.is_none() {
        return Err(Error::invalid_args("nothing to set")
            .with_hint("give KEY=VALUE traits (like tone=warm) or --text FILE"));
    }
    let set = rest
        .iter()
        .map(|a| super::parse_assignment(a))
        .collect::<Result<Vec<_>>>()?;
    let body = read_text(home, args.text.as_deref())?;
    let name = super::resolve(home, name)?;
    let change = Change {
        set,
        unset: Vec::new(),
        body,
        expect_rev: args.expect_version,
        accept_warnings: args.accept_warnings,
    };
    let saved = super::change(home, &ctx.clock, &name, &change)?;
    let verb = match (saved.keys.is_empty(), change.body.is_some()) {
        (false, _) => format!("Set {} on {name}", saved.keys.join(", ")),
        (true, true) => format!("Replaced the text of {name}"),
        (true, false) => format!("Updated persona {name}"),
    };
    Ok(saved_outcome(&saved, &verb))
}

fn run_unset(ctx: &Ctx, home: &Home, args: UnsetArgs) -> Result<Outcome> {
    // `unset ada humor`: a first argument naming a persona is the persona.
    let names_persona = args.args.len() >= 2
        && super::check_name(&args.args[0]).is_ok()
        && super::persona_path(home, &args.args[0]).is_ok_and(|p| p.is_file());
    let (name, keys) = if names_persona {
        (Some(args.args[0].as_str()), &args.args[1..])
    } else {
        (None, &args.args[..])
    };
    let keys = keys
        .iter()
        .map(|k| {
            trait_key(k).map_err(|why| {
                Error::invalid_args(format!("bad trait key {}: {why}", json!(k)))
                    .with_hint("name the traits to remove, like humor or reply_style")
                    .with_detail("argument", k.as_str())
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let name = super::resolve(home, name)?;
    let change = Change {
        unset: keys,
        expect_rev: args.expect_version,
        accept_warnings: args.accept_warnings,
        ..Change::default()
    };
    let saved = super::change(home, &ctx.clock, &name, &change)?;
    let verb = format!("Removed {} from {name}", saved.keys.join(", "));
    let mut outcome = saved_outcome(&saved, &verb);
    for key in &saved.absent {
        outcome = outcome.with_warning(format!("persona '{name}' had no trait '{key}'"));
    }
    Ok(outcome)
}

/// The outcome of a write: the persona's view, and a line saying what happened.
fn saved_outcome(saved: &Saved, verb: &str) -> Outcome {
    let c = &saved.current;
    let mut text = String::new();
    if let Some(rev) = saved.hand_edit {
        text.push_str(&format!(
            "Recorded a hand edit of {} as rev {rev}\n",
            c.persona.name
        ));
    }
    if saved.changed {
        text.push_str(&format!("{verb} — rev {}\n", c.rev()));
    } else {
        text.push_str(&format!(
            "No change: {} is already like that (rev {})\n",
            c.persona.name,
            c.rev()
        ));
    }
    text.push('\n');
    text.push_str(&show_text(c));
    Outcome::new(saved.view(), text)
}

fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{cut}…")
}

/// A persona for a person: a header line, its traits, its text.
fn show_text(c: &Current) -> String {
    let p = &c.persona;
    let mut head = format!("{} · rev {}", p.name, c.rev());
    if c.active {
        head.push_str(" · active");
    }
    if !p.updated.is_empty() {
        head.push_str(&format!(" · updated {}", p.updated));
    }
    let mut text = format!("{head}\n");
    if c.standing.hand_edited {
        text.push_str("(edited by hand; the next change records it as this rev)\n");
    }
    if p.traits.is_empty() {
        text.push_str("\n  (no traits)\n");
    } else {
        text.push('\n');
        let width = p
            .traits
            .iter()
            .map(|(k, _)| label(k).chars().count())
            .max()
            .unwrap_or(0)
            + 1;
        for (k, v) in &p.traits {
            text.push_str(&format!("  {:<width$} {v}\n", format!("{}:", label(k))));
        }
    }
    if !p.body.is_empty() {
        text.push('\n');
        for line in p.body.lines() {
            if line.is_empty() {
                text.push('\n');
            } else {
                text.push_str(&format!("  {line}\n"));
            }
        }
    }
    text
}

fn history_outcome(current: &Current, entries: &[Entry]) -> Outcome {
    let name = &current.persona.name;
    let mut rows: Vec<Value> = Vec::new();
    let mut text = format!("{name} — ");
    let pending = current.standing.hand_edited;
    let count = entries.len() + usize::from(pending);
    text.push_str(&format!("{count} revision(s)\n"));
    if pending {
        rows.push(
            json!({"rev": current.rev(), "created": null, "kind": "hand_edit",
                         "keys": [], "recorded": false, "current": true}),
        );
        text.push_str(&format!(
            "  rev {:<3} {:<20}  hand edit (not recorded yet; the next change records it)  ← current\n",
            current.rev(),
            "(now)"
        ));
    }
    for e in entries {
        let is_current = !pending && e.rev == current.rev();
        let mut row = e.json();
        row["recorded"] = json!(true);
        row["current"] = json!(is_current);
        rows.push(row);
        let what = describe(e);
        let mark = if is_current { "  ← current" } else { "" };
        let when = if e.created.is_empty() {
            "(unknown)"
        } else {
            &e.created
        };
        text.push_str(&format!("  rev {:<3} {when:<20}  {what}{mark}\n", e.rev));
    }
    let data = json!({"name": name, "rev": current.rev(), "revisions": rows});
    Outcome::new(data, text)
}

fn describe(e: &Entry) -> String {
    let keys = e.keys.join(", ");
    let from = |key: &str| e.from.as_ref().and_then(|f| f.get(key)).cloned();
    match e.kind.as_str() {
        "create" => match from("persona").and_then(|v| v.as_str().map(str::to_string)) {
            Some(p) => format!("create (from {p})"),
            None => "create".to_string(),
        },
        "revert" => match from("rev") {
            Some(rev) => format!("revert to rev {rev}"),
            None => "revert".to_string(),
        },
        "hand_edit" => "hand edit".to_string(),
        "pulled" => "pulled by sync".to_string(),
        "text" => "text".to_string(),
        kind if keys.is_empty() => kind.to_string(),
        kind => format!("{kind} {keys}"),
    }
}

/// A persona's id as a search hit prints it (`persona:ada`) is taken
/// wherever the name of an existing persona is (for `set` and `unset`, as
/// their first argument).
fn hit_ids(verb: &mut Verb) {
    let local = |name: &mut String| *name = crate::tools::local_id("persona", std::mem::take(name));
    match verb {
        Verb::Show(ShowArgs { name: Some(name) })
        | Verb::Render(RenderArgs { name: Some(name) })
        | Verb::History(HistoryArgs { name: Some(name) }) => local(name),
        Verb::Use(args) => local(&mut args.name),
        Verb::Revert(args) => local(&mut args.name),
        Verb::Set(SetArgs { args, .. }) | Verb::Unset(UnsetArgs { args, .. }) => {
            // Only when what follows `persona:` is a name (never a K=V).
            if let Some(first) = args.first_mut()
                && first
                    .strip_prefix("persona:")
                    .is_some_and(|rest| super::check_name(rest).is_ok())
            {
                local(first);
            }
        }
        _ => {}
    }
}
