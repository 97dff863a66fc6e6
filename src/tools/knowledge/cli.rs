//! The clap adapter of `knowledge`: arguments in, library call, `Outcome` out.

use super::profile::{self, Section};
use super::{
    Broken, Finding, NewNote, Note, NoteEdit, Saved, Superseded, add, edit, link, lint, list,
    parse_claim_arg, rel_path, remove, revision_required, search, show,
};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::{Outcome, Style};
use crate::search::Hit;
use crate::tools::Ctx;
use clap::{Args, Parser, Subcommand};
use serde_json::{Value, json};

crate::tools::value_enum!(Section);

/// Curated notes with claims and revisions, and the user's profile facts.
///
/// Notes are markdown files (memory/knowledge/<slug>.md) with front matter.
/// A claim (KEY=VALUE) is a fact a note asserts; two notes may not claim
/// different values for one key unless the newer one --supersede's the old.
#[derive(Debug, Parser)]
#[command(
    name = "knowledge",
    subcommand_required = true,
    after_help = "Examples:\n  knowledge add \"Go formatting\" --body \"Run gofmt before committing.\" \
                  --tag go --claim go.formatter=gofmt\n  knowledge search \"how should I format Go code?\"\n  \
                  knowledge profile add \"Prefers tabs over spaces.\" --preference"
)]
pub(super) struct KnowledgeCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Add(AddArgs),
    Show(ShowArgs),
    List(ListArgs),
    Edit(EditArgs),
    Rm(RmArgs),
    Link(LinkArgs),
    Search(SearchVerb),
    Lint(LintArgs),
    Profile(ProfileArgs),
}

/// Add a note (rev 1).
///
/// A claim whose key another note already claims with a different value is a
/// conflict; --supersede removes that claim from the other note instead.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge add \"Go formatting\" --body \"Run gofmt -w . before committing.\" \
                        --tag go --claim go.formatter=gofmt\n  \
                        knowledge add \"Deploys\" --file notes/deploys.md --link go-formatting\n  \
                        echo \"Use goimports.\" | knowledge add \"Go imports\" --file - \
                        --claim go.formatter=goimports --supersede"
)]
struct AddArgs {
    /// Note title (one line, at most 200 characters)
    title: String,
    /// Note body (markdown)
    #[arg(long, value_name = "TEXT", conflicts_with = "file")]
    body: Option<String>,
    /// Read the body from a file ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    file: Option<String>,
    /// A tag (repeat for more)
    #[arg(long = "tag", value_name = "T")]
    tags: Vec<String>,
    /// A source: URL, path or citation (repeat for more)
    #[arg(long = "source", value_name = "S")]
    sources: Vec<String>,
    /// Link to another note by slug (repeat for more)
    #[arg(long = "link", value_name = "SLUG")]
    links: Vec<String>,
    /// A claim KEY=VALUE, like go.formatter=gofmt (repeat for more)
    #[arg(long = "claim", value_name = "KEY=VALUE")]
    claims: Vec<String>,
    /// Slug (default: derived from the title, made unique)
    #[arg(long)]
    slug: Option<String>,
    /// Take contradicting claims out of the other notes instead of failing
    #[arg(long)]
    supersede: bool,
}

/// Show a note: metadata, claims and body.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge show go-formatting\n  knowledge show go-formatting --format json | jq .data.rev"
)]
struct ShowArgs {
    /// Note slug
    slug: String,
}

/// List notes, most recently updated first.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge list\n  knowledge list --tag go --format json\n  \
                  knowledge list --limit 50 --offset 50"
)]
struct ListArgs {
    /// Only notes with this tag
    #[arg(long, value_name = "T")]
    tag: Option<String>,
    /// Show at most N notes (0: all)
    #[arg(long, value_name = "N", default_value_t = 0)]
    limit: usize,
    /// Skip the N most recently updated notes first (pages: --limit 50 --offset 50 is the second)
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
}

/// Change a note (rev + 1). --expect-version is required: edits replace what you read.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge edit go-formatting --add-tag style --expect-version 1\n  \
                        knowledge edit go-formatting --claim go.formatter=goimports --supersede --expect-version 2\n  \
                        knowledge edit go-formatting --file - --expect-version 3 < body.md"
)]
struct EditArgs {
    /// Note slug
    slug: String,
    /// New title
    #[arg(long)]
    title: Option<String>,
    /// New body (replaces the old one)
    #[arg(long, value_name = "TEXT", conflicts_with = "file")]
    body: Option<String>,
    /// Read the new body from a file ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    file: Option<String>,
    /// Add a tag (repeat for more)
    #[arg(long = "add-tag", value_name = "T")]
    add_tags: Vec<String>,
    /// Remove a tag (repeat for more)
    #[arg(long = "rm-tag", value_name = "T")]
    rm_tags: Vec<String>,
    /// Add a source (repeat for more)
    #[arg(long = "add-source", value_name = "S")]
    add_sources: Vec<String>,
    /// Remove a source (repeat for more)
    #[arg(long = "rm-source", value_name = "S")]
    rm_sources: Vec<String>,
    /// Set a claim KEY=VALUE (adds it, or replaces this note's value)
    #[arg(long = "claim", value_name = "KEY=VALUE")]
    claims: Vec<String>,
    /// Remove a claim by key (repeat for more)
    #[arg(long = "rm-claim", value_name = "KEY")]
    rm_claims: Vec<String>,
    /// Refuse the write unless the note is at this rev (required; without
    /// it the error names the note's current rev)
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
    /// Take contradicting claims out of the other notes instead of failing
    #[arg(long)]
    supersede: bool,
}

/// Delete a note.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge rm go-formatting\n  knowledge rm go-formatting --expect-version 3"
)]
struct RmArgs {
    /// Note slug
    slug: String,
    /// Refuse unless the note is at this rev
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
}

/// Link a note to another (or --unlink), rev + 1 when that changes anything.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge link go-formatting go-modules\n  \
                        knowledge link go-formatting old-note --unlink"
)]
struct LinkArgs {
    /// The note that gets the link
    slug: String,
    /// The note it links to
    other: String,
    /// Remove the link instead (works for links to missing notes too)
    #[arg(long)]
    unlink: bool,
    /// Refuse unless the note is at this rev
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
}

/// Search notes: keywords or a natural-language question, best match first.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge search \"how should I format Go code?\"\n  \
                        knowledge search deploy keys --tag ops --limit 3"
)]
struct SearchVerb {
    #[command(flatten)]
    search: crate::search::cli::SearchArgs,
}

/// Check the notes: unreadable files, broken links, duplicates, contradicting claims.
///
/// Findings are data: the call succeeds with the list (exit 0). With --strict,
/// any finding fails the call (conflict, exit 1) with the findings in error.detail.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  knowledge lint\n  knowledge lint --strict --format json")]
struct LintArgs {
    /// Fail (conflict, exit 1) when there is any finding
    #[arg(long)]
    strict: bool,
}

/// The user's profile facts (memory/personal/PROFILE.md).
#[derive(Debug, Args)]
#[command(
    subcommand_required = true,
    after_help = "Examples:\n  knowledge profile add \"Prefers tabs over spaces.\" --preference\n  \
                  knowledge profile list\n  knowledge profile rm 2 --section facts"
)]
struct ProfileArgs {
    #[command(subcommand)]
    verb: ProfileVerb,
}

#[derive(Debug, Subcommand)]
enum ProfileVerb {
    Add(ProfileAddArgs),
    List(ProfileListArgs),
    Rm(ProfileRmArgs),
}

/// Add a fact (under ## Facts) or a preference (under ## Preferences).
///
/// A fact equal to one already there (ignoring case, spacing and a final
/// period) is reported as a duplicate and not written again.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge profile add \"Works at Example Corp.\"\n  \
                        knowledge profile add \"Prefers tabs over spaces.\" --preference"
)]
struct ProfileAddArgs {
    /// The fact, one short sentence
    text: String,
    /// File it under ## Preferences (default: ## Facts)
    #[arg(long)]
    preference: bool,
}

/// List the facts, numbered within each section.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  knowledge profile list\n  knowledge profile list --format json"
)]
struct ProfileListArgs {}

/// Remove a fact by number (needs --section) or by its text.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  knowledge profile rm 2 --section facts\n  \
                        knowledge profile rm \"Prefers tabs over spaces.\"")]
struct ProfileRmArgs {
    /// A number from `profile list` (with --section), or the fact's text
    target: String,
    /// The section: required with a number; with a text, only look there
    #[arg(long, value_enum)]
    section: Option<Section>,
}

pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let mut cli = crate::tools::parse_args::<KnowledgeCli>(matches)?;
    hit_ids(&mut cli.verb);
    let home = ctx.home()?;
    match cli.verb {
        Verb::Add(args) => run_add(ctx, home, args),
        Verb::Show(args) => {
            let note = show(home, &args.slug)?;
            Ok(note_outcome(ctx, home, &note, None))
        }
        Verb::List(args) => run_list(ctx, home, args),
        Verb::Edit(args) => run_edit(ctx, home, args),
        Verb::Rm(args) => run_rm(ctx, home, args),
        Verb::Link(args) => run_link(ctx, home, args),
        Verb::Search(args) => run_search(ctx, home, args),
        Verb::Lint(args) => run_lint(ctx, home, args),
        Verb::Profile(args) => match args.verb {
            ProfileVerb::Add(args) => run_profile_add(ctx, home, args),
            ProfileVerb::List(_) => run_profile_list(ctx, home),
            ProfileVerb::Rm(args) => run_profile_rm(ctx, home, args),
        },
    }
}

fn body_arg(home: &Home, body: Option<String>, file: Option<String>) -> Result<Option<String>> {
    match (body, file) {
        (Some(body), _) => Ok(Some(body)),
        (None, Some(file)) => {
            crate::tools::read_input(&file, "body file", home.store.max_item_bytes())
                .map(|(text, _)| Some(text))
        }
        (None, None) => Ok(None),
    }
}

fn claims_arg(claims: &[String]) -> Result<Vec<(String, String)>> {
    claims.iter().map(|c| parse_claim_arg(c)).collect()
}

fn abs_path(home: &Home, slug: &str) -> String {
    home.root.join(rel_path(slug)).display().to_string()
}

fn superseded_json(list: &[Superseded]) -> Vec<Value> {
    list.iter()
        .map(|s| json!({"note": s.note, "key": s.key, "old_value": s.old_value, "rev": s.rev}))
        .collect()
}

/// The note as a person reads it: title line, metadata, claims, body.
fn render_note(note: &Note, s: Style) -> String {
    let mut text = format!(
        "{}  {}\n",
        s.bold(&note.title),
        s.dim(&format!(
            "({} · rev {} · updated {})",
            note.slug, note.rev, note.updated
        ))
    );
    for (label, items) in [
        ("tags", &note.tags),
        ("links", &note.links),
        ("sources", &note.sources),
    ] {
        if !items.is_empty() {
            text.push_str(&format!(
                "{} {}\n",
                s.dim(&format!("{label}:")),
                items.join(", ")
            ));
        }
    }
    if !note.claims.is_empty() {
        text.push_str(&format!("{}\n", s.dim("claims:")));
        for claim in &note.claims {
            text.push_str(&format!("  {} = {}\n", s.cyan(&claim.key), claim.value));
        }
    }
    if !note.body.is_empty() {
        text.push('\n');
        text.push_str(&note.body);
        text.push('\n');
    }
    text
}

fn note_outcome(ctx: &Ctx, home: &Home, note: &Note, headline: Option<String>) -> Outcome {
    let mut text = headline.map(|h| format!("{h}\n\n")).unwrap_or_default();
    text.push_str(&render_note(note, ctx.style));
    Outcome::new(note.view(&rel_path(&note.slug)), text)
        .with_meta("path", abs_path(home, &note.slug))
        .with_meta("rev", note.rev)
}

fn saved_outcome(ctx: &Ctx, home: &Home, saved: &Saved, verb: &str) -> Outcome {
    let s = ctx.style;
    let mut headline = if saved.changed {
        format!(
            "{} note {} (rev {})",
            s.green(verb),
            s.bold(&saved.note.slug),
            saved.note.rev
        )
    } else {
        format!(
            "No change: note {} stays at rev {}",
            s.bold(&saved.note.slug),
            saved.note.rev
        )
    };
    for sup in &saved.superseded {
        headline.push_str(&format!(
            "\n{} claim {} = {} in {} (now rev {})",
            s.yellow("Superseded"),
            sup.key,
            sup.old_value,
            sup.note,
            sup.rev
        ));
    }
    let mut outcome = note_outcome(ctx, home, &saved.note, Some(headline));
    outcome.data["changed"] = Value::from(saved.changed);
    outcome.data["superseded"] = Value::from(superseded_json(&saved.superseded));
    outcome
}

fn run_add(ctx: &Ctx, home: &Home, args: AddArgs) -> Result<Outcome> {
    let body = body_arg(home, args.body, args.file)?.unwrap_or_default();
    let input = NewNote {
        title: args.title,
        body,
        tags: args.tags,
        sources: args.sources,
        links: args.links,
        claims: claims_arg(&args.claims)?,
        slug: args.slug,
        supersede: args.supersede,
    };
    let saved = add(home, &ctx.clock, &input)?;
    Ok(saved_outcome(ctx, home, &saved, "Added"))
}

fn run_list(ctx: &Ctx, home: &Home, args: ListArgs) -> Result<Outcome> {
    let mut listing = list(home, args.tag.as_deref())?;
    let total = listing.notes.len();
    let limit = if args.limit == 0 {
        usize::MAX
    } else {
        args.limit
    };
    listing.notes = std::mem::take(&mut listing.notes)
        .into_iter()
        .skip(args.offset)
        .take(limit)
        .collect();
    let s = ctx.style;
    let mut text = String::new();
    if listing.notes.is_empty() && total > 0 {
        text.push_str(&format!(
            "{total} note(s) in all: --offset {} skips them all\n",
            args.offset
        ));
    } else if listing.notes.is_empty() {
        text.push_str(match args.tag {
            Some(_) => "No notes with that tag.\n",
            None => "No notes yet. Add one: knowledge add \"Title\" --body \"…\"\n",
        });
    } else {
        let width = listing
            .notes
            .iter()
            .map(|n| n.slug.len())
            .max()
            .unwrap_or(4)
            .max(4);
        text.push_str(&s.dim(&format!(
            "{:<width$}  {:>4}  {:<20}  {}",
            "SLUG", "REV", "UPDATED", "TITLE"
        )));
        text.push('\n');
        for note in &listing.notes {
            let tags = if note.tags.is_empty() {
                String::new()
            } else {
                format!("  {}", s.dim(&format!("[{}]", note.tags.join(", "))))
            };
            text.push_str(&format!(
                "{:<width$}  {:>4}  {:<20}  {}{tags}\n",
                note.slug,
                format!("r{}", note.rev),
                note.updated,
                note.title
            ));
        }
    }
    let after = total.saturating_sub(args.offset + listing.notes.len());
    if after > 0 {
        text.push_str(&s.dim(&format!(
            "… {after} more (--offset {} shows the next)\n",
            args.offset + listing.notes.len()
        )));
    }
    for b in &listing.broken {
        text.push_str(&format!("{} {}\n", s.red("unreadable:"), b.message));
    }
    Ok(Outcome::new(
        json!({
            "notes": listing.notes.iter().map(|n| n.summary(&rel_path(&n.slug))).collect::<Vec<_>>(),
            "broken": listing.broken.iter().map(Broken::to_json).collect::<Vec<_>>(),
        }),
        text,
    )
    .with_meta("count", listing.notes.len())
    .with_meta("total", total))
}

fn run_edit(ctx: &Ctx, home: &Home, args: EditArgs) -> Result<Outcome> {
    let Some(expect_version) = args.expect_version else {
        return Err(revision_required(home, &args.slug));
    };
    let change = NoteEdit {
        title: args.title,
        body: body_arg(home, args.body, args.file)?,
        add_tags: args.add_tags,
        rm_tags: args.rm_tags,
        add_sources: args.add_sources,
        rm_sources: args.rm_sources,
        claims: claims_arg(&args.claims)?,
        rm_claims: args.rm_claims,
        expect_rev: Some(expect_version),
        supersede: args.supersede,
    };
    let saved = edit(home, &ctx.clock, &args.slug, &change)?;
    Ok(saved_outcome(ctx, home, &saved, "Edited"))
}

fn run_rm(ctx: &Ctx, home: &Home, args: RmArgs) -> Result<Outcome> {
    let removed = remove(home, &args.slug, args.expect_version)?;
    let s = ctx.style;
    let mut text = format!("{} note {}\n", s.yellow("Removed"), s.bold(&removed.slug));
    if !removed.linked_from.is_empty() {
        text.push_str(&format!(
            "{} still linked from {} (see `knowledge lint`)\n",
            s.yellow("warning:"),
            removed.linked_from.join(", ")
        ));
    }
    Ok(Outcome::new(
        json!({
            "slug": removed.slug,
            "rev": removed.rev,
            "removed": true,
            "linked_from": removed.linked_from,
        }),
        text,
    )
    .with_meta("path", abs_path(home, &removed.slug)))
}

fn run_link(ctx: &Ctx, home: &Home, args: LinkArgs) -> Result<Outcome> {
    let saved = link(
        home,
        &ctx.clock,
        &args.slug,
        &args.other,
        args.unlink,
        args.expect_version,
    )?;
    let verb = if args.unlink { "Unlinked" } else { "Linked" };
    Ok(saved_outcome(ctx, home, &saved, verb))
}

/// The snippet without the title the indexed body starts with.
fn snippet(hit: &Hit) -> &str {
    hit.snippet
        .strip_prefix(hit.title.as_str())
        .map(str::trim_start)
        .filter(|rest| !rest.is_empty())
        .unwrap_or(&hit.snippet)
}

fn run_search(ctx: &Ctx, home: &Home, args: SearchVerb) -> Result<Outcome> {
    let query = args.search.to_query("knowledge search", Vec::new())?;
    let text = query.text.clone();
    let mut found = search(home, query)?;
    for hit in &mut found.hits {
        hit.snippet = snippet(hit).to_string();
    }
    Ok(crate::search::cli::render_hits(
        &text,
        &found,
        ctx.style,
        "No notes match",
        |hit, row| {
            row.insert(
                "slug".into(),
                json!(hit.id.strip_prefix("note:").unwrap_or(&hit.id)),
            );
            row.insert("path".into(), json!(hit.source));
        },
    ))
}

fn run_lint(ctx: &Ctx, home: &Home, args: LintArgs) -> Result<Outcome> {
    let report = lint(home)?;
    let findings: Vec<Value> = report.findings.iter().map(Finding::to_json).collect();
    if args.strict && !report.findings.is_empty() {
        return Err(Error::conflict(format!(
            "lint found {} problem(s) in {} note(s); the first: {}",
            report.findings.len(),
            report.notes,
            report.findings[0].message
        ))
        .with_hint("run `knowledge lint` to see them all, fix the notes, then lint again")
        .with_detail("findings", findings));
    }
    let s = ctx.style;
    let mut text = String::new();
    if report.findings.is_empty() {
        text.push_str(&format!(
            "{} no problems in {} note(s)\n",
            s.green("ok:"),
            report.notes
        ));
    } else {
        for f in &report.findings {
            text.push_str(&format!(
                "{} {}\n",
                s.yellow(&format!("{}:", f.kind)),
                f.message
            ));
        }
        text.push_str(&format!(
            "{} problem(s) in {} note(s)\n",
            report.findings.len(),
            report.notes
        ));
    }
    Ok(Outcome::new(
        json!({"findings": findings, "notes_checked": report.notes}),
        text,
    )
    .with_meta("count", report.findings.len()))
}

fn run_profile_add(ctx: &Ctx, home: &Home, args: ProfileAddArgs) -> Result<Outcome> {
    let section = if args.preference {
        Section::Preferences
    } else {
        Section::Facts
    };
    let outcome = profile::add_facts(home, &ctx.clock, &[(section, args.text)])?;
    let s = ctx.style;
    let text = match (outcome.added.first(), outcome.duplicates.first()) {
        (Some(added), _) => format!("{} to {}: {added}\n", s.green("Added"), section.heading()),
        (None, Some(dup)) => format!("Already in the profile: {dup}\n"),
        (None, None) => String::new(),
    };
    Ok(Outcome::new(
        json!({
            "section": section.as_str(),
            "added": outcome.added,
            "duplicates": outcome.duplicates,
            "profile_updated": outcome.profile_updated,
        }),
        text,
    )
    .with_meta("path", profile::path(home)?.display().to_string()))
}

fn run_profile_list(ctx: &Ctx, home: &Home) -> Result<Outcome> {
    let facts = profile::read(home)?;
    let s = ctx.style;
    let mut text = String::new();
    if facts.is_empty() {
        text.push_str(
            "The profile is empty. Add a fact: knowledge profile add \"Works at Example Corp.\"\n",
        );
    } else {
        for section in Section::ALL {
            let items = facts.section(section);
            if items.is_empty() {
                continue;
            }
            text.push_str(&format!("{}\n", s.bold(section.heading())));
            for (i, item) in items.iter().enumerate() {
                text.push_str(&format!("  {:>2}. {item}\n", i + 1));
            }
        }
    }
    Ok(Outcome::new(
        json!({"preferences": facts.preferences, "facts": facts.facts}),
        text,
    )
    .with_meta("count", facts.preferences.len() + facts.facts.len())
    .with_meta("path", profile::path(home)?.display().to_string()))
}

fn run_profile_rm(ctx: &Ctx, home: &Home, args: ProfileRmArgs) -> Result<Outcome> {
    let target = match args.target.trim().parse::<usize>() {
        Ok(0) => {
            return Err(Error::invalid_args("fact numbers start at 1")
                .with_hint("see the numbers with `knowledge profile list`"));
        }
        Ok(n) => profile::FactRef::Number(n),
        Err(_) => profile::FactRef::Text(args.target.clone()),
    };
    let removed = profile::remove(home, &ctx.clock, &target, args.section)?;
    let s = ctx.style;
    let mut text = String::new();
    for r in &removed {
        text.push_str(&format!(
            "{} from {}: {}\n",
            s.yellow("Removed"),
            r.section.heading(),
            r.text
        ));
    }
    Ok(Outcome::new(
        json!({
            "removed": removed
                .iter()
                .map(|r| json!({"section": r.section.as_str(), "n": r.n, "text": r.text}))
                .collect::<Vec<_>>(),
        }),
        text,
    )
    .with_meta("count", removed.len())
    .with_meta("path", profile::path(home)?.display().to_string()))
}

/// A note's id as a search hit prints it (`note:go-formatting`) is taken
/// wherever a slug of an existing note is.
fn hit_ids(verb: &mut Verb) {
    let local = |slug: &mut String| *slug = crate::tools::local_id("note", std::mem::take(slug));
    match verb {
        Verb::Show(args) => local(&mut args.slug),
        Verb::Edit(args) => local(&mut args.slug),
        Verb::Rm(args) => local(&mut args.slug),
        Verb::Link(args) => {
            local(&mut args.slug);
            local(&mut args.other);
        }
        _ => {}
    }
}
