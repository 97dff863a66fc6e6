//! `knowledge` — curated markdown notes with front matter, claims and
//! revisions, and the user's profile facts (SPEC §4, docs/tools/knowledge.md).
//!
//! The library functions (`add`, `show`, `list`, `edit`, `remove`, `link`,
//! `lint`, `search`, `profile::*`) are what the CLI and the MCP server call.

mod clean;
mod cli;
mod lint;
pub(crate) mod note;
pub mod profile;

pub use clean::parse_claim_arg;
pub use lint::{Broken, Finding};
pub use note::{Claim, MAX_TITLE_CHARS, Note, NoteError, check_slug};

use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::{Folder, Home};
use crate::search::{self, Doc, Found, Query, Source};
use crate::store;
use crate::tools::{Merge, MergeRule, Tool};
use clean::{clean_body, clean_claims, clean_items, clean_links, clean_tags, clean_title, invalid};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const TOOL: Tool = Tool {
    layout: &[
        Folder {
            path: profile::DIR,
            order: 10,
        },
        Folder {
            path: DIR,
            order: 12,
        },
    ],
    search: &[NOTES, profile::FACTS],
    context: &[profile::context_sections],
    merge: &[
        MergeRule {
            paths: |rel| rel == profile::REL_PATH,
            merge: Merge::Profile,
        },
        MergeRule {
            paths: |rel| rel.ends_with(".md") && rel.starts_with("memory/knowledge/"),
            merge: Merge::FrontMatter,
        },
    ],
    ..Tool::derived::<cli::KnowledgeCli>("knowledge", cli::run)
};

/// The kind name of a note in search.
pub const KIND: &str = "note";

/// Notes, hand-editable: one search document per note. Curated memory
/// outranks raw trajectory at equal relevance.
const NOTES: Source = Source {
    kind: KIND,
    dir: DIR,
    nested: false,
    accept: |name| name.ends_with(".md") && !name.starts_with('.'),
    extract: index_docs,
    lines: None,
    watched: true,
    growing: None,
    boost: 1.25,
};

/// Home-relative folder of the notes.
pub const DIR: &str = "memory/knowledge";

// ---------------------------------------------------------------------------
// Library
// ---------------------------------------------------------------------------

/// A new note (`add`).
#[derive(Debug, Clone, Default)]
pub struct NewNote {
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
    pub sources: Vec<String>,
    pub links: Vec<String>,
    /// `(key, value)` pairs.
    pub claims: Vec<(String, String)>,
    /// The slug to use (default: derived from the title, made unique).
    pub slug: Option<String>,
    /// Replace contradicting claims of other notes instead of failing.
    pub supersede: bool,
}

/// Changes to a note (`edit`). Empty vectors and `None` change nothing.
#[derive(Debug, Clone, Default)]
pub struct NoteEdit {
    pub title: Option<String>,
    pub body: Option<String>,
    pub add_tags: Vec<String>,
    pub rm_tags: Vec<String>,
    pub add_sources: Vec<String>,
    pub rm_sources: Vec<String>,
    /// `(key, value)`: set (add or replace) these claims.
    pub claims: Vec<(String, String)>,
    pub rm_claims: Vec<String>,
    /// Refuse the write unless the note is at this rev.
    pub expect_rev: Option<u64>,
    pub supersede: bool,
}

impl NoteEdit {
    fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.body.is_none()
            && self.add_tags.is_empty()
            && self.rm_tags.is_empty()
            && self.add_sources.is_empty()
            && self.rm_sources.is_empty()
            && self.claims.is_empty()
            && self.rm_claims.is_empty()
    }
}

/// A claim `--supersede` took out of another note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Superseded {
    pub note: String,
    pub key: String,
    pub old_value: String,
    /// That note's rev after the change.
    pub rev: u64,
}

/// The result of a note write (`add`, `edit`, `link`).
#[derive(Debug, Clone)]
pub struct Saved {
    pub note: Note,
    /// Whether the file was written (false: the change was a no-op).
    pub changed: bool,
    pub superseded: Vec<Superseded>,
}

/// The result of `remove`.
#[derive(Debug, Clone)]
pub struct Removed {
    pub slug: String,
    /// The rev the note had (`None` when its front matter was unreadable).
    pub rev: Option<u64>,
    /// Notes that still link to it (their links are broken now).
    pub linked_from: Vec<String>,
}

/// Every note, newest first, and the files that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub notes: Vec<Note>,
    pub broken: Vec<Broken>,
}

/// Home-relative path of a note.
pub fn rel_path(slug: &str) -> String {
    format!("{DIR}/{slug}.md")
}

/// The file of a note (the slug is validated first).
pub fn note_path(home: &Home, slug: &str) -> Result<PathBuf> {
    check_slug(slug)?;
    home.store
        .path(&["memory", "knowledge", &format!("{slug}.md")])
}

/// A file's mtime as RFC 3339 UTC (whole seconds); the epoch when unknown.
pub(crate) fn file_date(path: &Path) -> String {
    let time = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(std::time::UNIX_EPOCH);
    crate::clock::Time::from_system(time).stamp()
}

/// An RFC 3339 time in UTC with a `Z` (so dates sort as strings).
fn utc(date: &str) -> String {
    crate::clock::restamp(date).unwrap_or_else(|| date.to_string())
}

fn parse_note(slug: &str, text: &str, path: &Path) -> Result<Note> {
    Note::parse(slug, text, &file_date(path)).map_err(|e| e.into_error(&path.display().to_string()))
}

/// Loads one note; `not_found` when absent, `invalid_args` (file and line)
/// when its front matter is broken.
fn load(home: &Home, slug: &str) -> Result<Note> {
    let path = note_path(home, slug)?;
    let text = home.store.read(&path)?.ok_or_else(|| {
        Error::not_found(format!("no note '{slug}'"))
            .with_hint("see the notes with `knowledge list`")
            .with_detail("slug", slug)
    })?;
    parse_note(slug, &text, &path)
}

/// Every note file: the parsed notes (newest first) and the broken ones.
pub fn load_all(home: &Home) -> Result<Listing> {
    let dir = home.root.join(DIR);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Listing::default()),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.ends_with(".md") && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut listing = Listing::default();
    for file in names {
        let slug = file.trim_end_matches(".md");
        let loaded = note_path(home, slug).and_then(|_| load(home, slug));
        match loaded {
            Ok(note) => listing.notes.push(note),
            Err(e) => listing.broken.push(Broken {
                message: if e.detail.contains_key("slug") && !e.detail.contains_key("line") {
                    format!("{file}: the file name is not a valid slug ({})", e.message)
                } else {
                    e.message.clone()
                },
                line: e.detail.get("line").and_then(Value::as_u64),
                file,
            }),
        }
    }
    listing.notes.sort_by(|a, b| {
        utc(&b.updated)
            .cmp(&utc(&a.updated))
            .then_with(|| a.slug.cmp(&b.slug))
    });
    Ok(listing)
}

/// The note as it will be stored: rendered, redacted, and parsed back, so
/// what a call returns is exactly what the file holds.
fn sanitize(home: &Home, note: Note) -> Result<Note> {
    let text = note.render();
    let redacted = home.store.redactor().redact(&text);
    if redacted == text {
        return Ok(note);
    }
    Note::parse(&note.slug, &redacted, &note.updated).map_err(|e| {
        Error::internal(format!(
            "redacting note '{}' broke its front matter: {}",
            note.slug, e.message
        ))
    })
}

/// The search document of a note.
fn note_doc(note: &Note, rel: &str) -> Doc {
    let mut body = note.title.clone();
    if !note.body.is_empty() {
        body.push_str("\n\n");
        body.push_str(&note.body);
    }
    for claim in &note.claims {
        body.push_str(&format!("\n{}: {}", claim.key, claim.value));
    }
    Doc {
        id: format!("note:{}", note.slug),
        kind: KIND,
        source: rel.to_string(),
        session: None,
        tags: note.tags.clone(),
        date: utc(&note.updated),
        title: note.title.clone(),
        body,
    }
}

/// The search documents of one note file (`memory/knowledge/<slug>.md`): one
/// document, id `note:<slug>`. A file whose name is not a slug, or whose front
/// matter is broken, is an error (the index skips it until it is fixed).
pub fn index_docs(home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    let Some(slug) = rel
        .strip_prefix(&format!("{DIR}/"))
        .and_then(|n| n.strip_suffix(".md"))
    else {
        return Ok(Vec::new());
    };
    check_slug(slug)?;
    let note = parse_note(slug, text, &home.root.join(rel))?;
    Ok(vec![note_doc(&note, rel)])
}

/// Writes a note atomically and re-indexes it.
fn write_note(home: &Home, note: &Note) -> Result<()> {
    let path = note_path(home, &note.slug)?;
    let text = note.render();
    home.store.write_text(&path, &text)?;
    let rel = rel_path(&note.slug);
    let docs = [note_doc(note, &rel)];
    search::index_update_or_warn(home, |index| index.replace_source(&rel, &docs));
    Ok(())
}

/// A note as its `--expect-version` guard names it (`detail {slug, expected,
/// actual}`).
fn versioned(slug: &str) -> store::Versioned<'_> {
    store::Versioned {
        kind: "note",
        key: "slug",
        id: slug,
        counter: "rev",
        show: Some("knowledge show"),
    }
}

/// The error of an edit that names no revision (`--expect-version`): the
/// note's current one, read now, and how to pass it; the note's own error
/// when it cannot be read (`not_found` …).
pub fn revision_required(home: &Home, slug: &str) -> Error {
    match show(home, slug) {
        Ok(note) => versioned(slug).required(note.rev),
        Err(err) => err,
    }
}

/// A claim of another note that says something else.
#[derive(Debug, Clone)]
struct Contradiction {
    note: String,
    key: String,
    existing: String,
    proposed: String,
}

fn contradictions(all: &[Note], me: &str, claims: &[&Claim]) -> Vec<Contradiction> {
    let mut found = Vec::new();
    for other in all.iter().filter(|n| n.slug != me) {
        for claim in claims {
            if let Some(theirs) = other.claim(&claim.key)
                && !Claim::same_value(&theirs.value, &claim.value)
            {
                found.push(Contradiction {
                    note: other.slug.clone(),
                    key: claim.key.clone(),
                    existing: theirs.value.clone(),
                    proposed: claim.value.clone(),
                });
            }
        }
    }
    found
}

fn conflict_error(found: &[Contradiction]) -> Error {
    let first = &found[0];
    let more = if found.len() > 1 {
        format!(" (and {} more)", found.len() - 1)
    } else {
        String::new()
    };
    Error::conflict(format!(
        "the claim '{}' contradicts note '{}': it says '{}', this says '{}'{more}",
        first.key, first.note, first.existing, first.proposed
    ))
    .with_hint(
        "pass --supersede to replace the old claim, use the same value, or fix the other note first",
    )
    .with_detail("note", first.note.clone())
    .with_detail("key", first.key.clone())
    .with_detail("existing", first.existing.clone())
    .with_detail("proposed", first.proposed.clone())
    .with_detail(
        "conflicts",
        found
            .iter()
            .map(|c| {
                json!({"note": c.note, "key": c.key, "existing": c.existing, "proposed": c.proposed})
            })
            .collect::<Vec<_>>(),
    )
}

/// `conflict` when a note [`supersede`] would change is at the highest rev:
/// checked before anything is written.
fn check_room(all: &[Note], found: &[Contradiction]) -> Result<()> {
    for note in all
        .iter()
        .filter(|n| found.iter().any(|c| c.note == n.slug))
    {
        note.next_rev()?;
    }
    Ok(())
}

/// Takes the contradicted claims out of the other notes (each rev + 1).
fn supersede(
    home: &Home,
    now: &str,
    all: &[Note],
    found: &[Contradiction],
) -> Result<Vec<Superseded>> {
    let mut done = Vec::new();
    for other in all {
        let keys: Vec<&Contradiction> = found.iter().filter(|c| c.note == other.slug).collect();
        if keys.is_empty() {
            continue;
        }
        let mut note = other.clone();
        note.claims.retain(|c| !keys.iter().any(|k| k.key == c.key));
        note.rev = note.next_rev()?;
        note.updated = now.to_string();
        write_note(home, &note)?;
        for k in keys {
            done.push(Superseded {
                note: note.slug.clone(),
                key: k.key.clone(),
                old_value: k.existing.clone(),
                rev: note.rev,
            });
        }
    }
    Ok(done)
}

/// A free slug from the title (`-2`, `-3` …); one that would look like a
/// credential, which cannot be stored, is replaced (see `slug::unique`).
fn unique_slug(home: &Home, title: &str) -> Result<String> {
    let storable = |slug: &str| {
        let file = format!("{slug}.md");
        home.store.redactor().redact(&file) == file
    };
    let taken = |slug: &str| Ok::<bool, Error>(note_path(home, slug)?.exists());
    crate::slug::unique(title, note::MAX_SLUG_LEN, "note", storable, taken)
}

/// The note `add` writes for `input` at `now`, before it has its slug:
/// cleaned, checked and redacted.
fn prepare(home: &Home, now: &str, input: &NewNote) -> Result<Note> {
    let draft = Note {
        slug: String::new(),
        title: clean_title(&input.title)?,
        tags: clean_tags(&input.tags)?,
        sources: clean_items(&input.sources, "--source")?,
        links: clean_links(&input.links)?,
        claims: clean_claims(&input.claims)?,
        created: now.to_string(),
        updated: now.to_string(),
        rev: 1,
        body: clean_body(home, &input.body)?,
        extra: Vec::new(),
    };
    if let Some(slug) = &input.slug {
        check_slug(slug)?;
    }
    sanitize(home, draft)
}

/// The text `add` would write for `input` with its `slug` (evolve's
/// preview of a note, `evolve apply --dry-run`): the same note, dated
/// `clock`'s now, written nowhere. Whether the slug is free is `add`'s
/// check, not this one's.
pub fn preview_add(home: &Home, clock: &Clock, input: &NewNote) -> Result<String> {
    let slug = input
        .slug
        .clone()
        .ok_or_else(|| Error::internal("a note's preview needs its slug"))?;
    let mut note = prepare(home, &clock.stamp(), input)?;
    note.slug = slug;
    Ok(note.render())
}

/// Adds a note (rev 1) under the lock `knowledge`. A claim that contradicts
/// another note is `conflict` unless `supersede`, which removes the old claim
/// from that note (its rev + 1).
pub fn add(home: &Home, clock: &Clock, input: &NewNote) -> Result<Saved> {
    let now = clock.stamp();
    let mut note = prepare(home, &now, input)?;

    let _lock = home.store.lock("knowledge")?;
    home.store.ensure_dir(&home.root.join(DIR))?;
    let slug = match &input.slug {
        Some(slug) => {
            if note_path(home, slug)?.exists() {
                return Err(Error::conflict(format!("a note '{slug}' already exists"))
                    .with_hint("choose another --slug, edit that note, or omit --slug")
                    .with_detail("slug", slug.clone()));
            }
            slug.clone()
        }
        None => unique_slug(home, &note.title)?,
    };
    for link in &note.links {
        if *link == slug {
            return Err(invalid("a note cannot link to itself", "--link"));
        }
        if !note_path(home, link)?.exists() {
            return Err(Error::not_found(format!("no note '{link}' to link to"))
                .with_hint("create that note first, or drop the --link")
                .with_detail("slug", link.clone()));
        }
    }
    let all = load_all(home)?.notes;
    let claims: Vec<&Claim> = note.claims.iter().collect();
    let found = contradictions(&all, &slug, &claims);
    if !found.is_empty() && !input.supersede {
        return Err(conflict_error(&found));
    }
    check_room(&all, &found)?;
    note.slug = slug;
    write_note(home, &note)?;
    let superseded = supersede(home, &now, &all, &found)?;
    Ok(Saved {
        note,
        changed: true,
        superseded,
    })
}

/// One note.
pub fn show(home: &Home, slug: &str) -> Result<Note> {
    load(home, slug)
}

/// Every note (with `tag`, only those tagged so), newest first; unreadable
/// files are listed in `broken`, never hidden.
pub fn list(home: &Home, tag: Option<&str>) -> Result<Listing> {
    let mut listing = load_all(home)?;
    if let Some(tag) = tag {
        let tag = note::normalize_tag(tag).map_err(|m| invalid(m, "--tag"))?;
        listing.notes.retain(|n| n.tags.contains(&tag));
    }
    Ok(listing)
}

/// Changes a note under the lock `knowledge` (rev + 1 when anything changed).
pub fn edit(home: &Home, clock: &Clock, slug: &str, change: &NoteEdit) -> Result<Saved> {
    check_slug(slug)?;
    if change.is_empty() {
        return Err(Error::invalid_args("nothing to change").with_hint(
            "pass --title, --body, --file, --add-tag, --rm-tag, --claim or --rm-claim",
        ));
    }
    let title = change.title.as_deref().map(clean_title).transpose()?;
    let body = change
        .body
        .as_deref()
        .map(|b| clean_body(home, b))
        .transpose()?;
    let add_tags = clean_tags(&change.add_tags)?;
    let rm_tags = clean_tags(&change.rm_tags)?;
    let add_sources = clean_items(&change.add_sources, "--add-source")?;
    let claims = clean_claims(&change.claims)?;
    let rm_claims: Vec<String> = change
        .rm_claims
        .iter()
        .map(|k| k.trim().to_lowercase())
        .collect();
    if let Some(c) = claims.iter().find(|c| rm_claims.contains(&c.key)) {
        return Err(invalid(
            format!("the claim '{}' is both set and removed", c.key),
            "--rm-claim",
        ));
    }

    let now = clock.stamp();
    let _lock = home.store.lock("knowledge")?;
    let before = load(home, slug)?;
    versioned(slug).check(change.expect_rev, before.rev)?;
    let mut note = before.clone();
    if let Some(title) = title {
        note.title = title;
    }
    if let Some(body) = body {
        note.body = body;
    }
    note.tags.retain(|t| !rm_tags.contains(t));
    for tag in add_tags {
        if !note.tags.contains(&tag) {
            note.tags.push(tag);
        }
    }
    note.sources
        .retain(|s| !change.rm_sources.iter().any(|r| r.trim() == s));
    for source in add_sources {
        if !note.sources.contains(&source) {
            note.sources.push(source);
        }
    }
    note.claims.retain(|c| !rm_claims.contains(&c.key));
    for claim in &claims {
        match note.claims.iter_mut().find(|c| c.key == claim.key) {
            Some(existing) => existing.value = claim.value.clone(),
            None => note.claims.push(claim.clone()),
        }
    }
    let note = sanitize(home, note)?;
    if note == before {
        return Ok(Saved {
            note: before,
            changed: false,
            superseded: Vec::new(),
        });
    }
    // Only claims this call sets (new or changed) are checked against the others.
    let set: Vec<&Claim> = note
        .claims
        .iter()
        .filter(|c| claims.iter().any(|k| k.key == c.key))
        .filter(|c| {
            before
                .claim(&c.key)
                .is_none_or(|old| !Claim::same_value(&old.value, &c.value))
        })
        .collect();
    let all = if set.is_empty() {
        Vec::new()
    } else {
        load_all(home)?.notes
    };
    let found = contradictions(&all, slug, &set);
    if !found.is_empty() && !change.supersede {
        return Err(conflict_error(&found));
    }
    check_room(&all, &found)?;
    let mut note = note;
    note.rev = before.next_rev()?;
    note.updated = now.clone();
    write_note(home, &note)?;
    let superseded = supersede(home, &now, &all, &found)?;
    Ok(Saved {
        note,
        changed: true,
        superseded,
    })
}

/// Deletes a note under the lock `knowledge`. A note whose front matter is
/// broken can be removed too, but only without `expect_rev`.
pub fn remove(home: &Home, slug: &str, expect_rev: Option<u64>) -> Result<Removed> {
    let path = note_path(home, slug)?;
    let _lock = home.store.lock("knowledge")?;
    let rev = match load(home, slug) {
        Ok(note) => {
            versioned(slug).check(expect_rev, note.rev)?;
            Some(note.rev)
        }
        Err(e) if e.kind == ErrorType::InvalidArgs && expect_rev.is_none() && path.exists() => None,
        Err(e) => return Err(e),
    };
    let linked_from: Vec<String> = load_all(home)?
        .notes
        .into_iter()
        .filter(|n| n.slug != slug && n.links.iter().any(|l| l == slug))
        .map(|n| n.slug)
        .collect();
    if !home.store.remove_file(&path)? {
        return Err(Error::not_found(format!("no note '{slug}'"))
            .with_hint("see the notes with `knowledge list`")
            .with_detail("slug", slug));
    }
    search::index_update_or_warn(home, |index| index.remove_source(&rel_path(slug)));
    Ok(Removed {
        slug: slug.to_string(),
        rev,
        linked_from,
    })
}

/// Adds `other` to the links of `slug` (or removes it with `unlink`), rev + 1
/// when that changed anything. Linking needs `other` to exist; unlinking
/// does not (that is how a broken link is fixed).
pub fn link(
    home: &Home,
    clock: &Clock,
    slug: &str,
    other: &str,
    unlink: bool,
    expect_rev: Option<u64>,
) -> Result<Saved> {
    check_slug(slug)?;
    check_slug(other)?;
    if slug == other {
        return Err(Error::invalid_args("a note cannot link to itself")
            .with_hint("name two different notes"));
    }
    let _lock = home.store.lock("knowledge")?;
    let mut note = load(home, slug)?;
    versioned(slug).check(expect_rev, note.rev)?;
    let has = note.links.iter().any(|l| l == other);
    if !unlink && !note_path(home, other)?.exists() {
        return Err(Error::not_found(format!("no note '{other}' to link to"))
            .with_hint("see the notes with `knowledge list`")
            .with_detail("slug", other));
    }
    if has != unlink {
        return Ok(Saved {
            note,
            changed: false,
            superseded: Vec::new(),
        });
    }
    if unlink {
        note.links.retain(|l| l != other);
    } else {
        note.links.push(other.to_string());
    }
    note.rev = note.next_rev()?;
    note.updated = clock.stamp();
    write_note(home, &note)?;
    Ok(Saved {
        note,
        changed: true,
        superseded: Vec::new(),
    })
}

/// What `lint` found, and how many notes it read.
#[derive(Debug, Clone)]
pub struct LintReport {
    pub findings: Vec<Finding>,
    pub notes: usize,
}

/// Checks every note: unparsable files, broken links, duplicate titles or
/// bodies, and contradicting claims.
pub fn lint(home: &Home) -> Result<LintReport> {
    let listing = load_all(home)?;
    Ok(LintReport {
        findings: lint::check(&listing.notes, &listing.broken),
        notes: listing.notes.len() + listing.broken.len(),
    })
}

/// Ranked notes for a query (hand edits are picked up by the index itself),
/// and their order. The query's kinds are replaced by notes; its tag is
/// normalised as note tags are.
pub fn search(home: &Home, mut query: Query) -> Result<Found> {
    query.tag = query
        .tag
        .map(|t| note::normalize_tag(&t).map_err(|m| invalid(m, "--tag")))
        .transpose()?;
    query.kinds = vec![KIND.to_string()];
    search::Index::open(home)?.find(&query)
}
