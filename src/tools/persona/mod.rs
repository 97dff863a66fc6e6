//! `persona` — named personas of the agent (SPEC §4, docs/tools/persona.md):
//! plain files `persona/<name>.md` (traits in front matter, a free-text
//! body), one of them active (`persona/ACTIVE`), every change a revision.
//!
//! The library functions (`list`, `show`, `create`, `change`, `activate`,
//! `render`, `history`, `revert`) are what the CLI and `memory_mcp`'s
//! `mem://persona` resource call.

mod cli;
pub mod file;
pub mod history;

pub use file::{Persona, check_name, parse_assignment};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::{Folder, Home};
use crate::screen;
use crate::search::{self, Doc, Source};
use crate::store::{Lock, Versioned};
use crate::tools::skill_forge;
use crate::tools::{Check, Merge, MergeRule, Resource, Tool};
use history::{Entry, Standing};
use serde_json::{Value, json};
use std::path::PathBuf;

pub const TOOL: Tool = Tool {
    layout: &[Folder {
        path: DIR,
        order: 40,
    }],
    search: &[PERSONAS],
    // Revisions kept for `persona history`/`revert`: per-home.
    never_synced: &["persona/.history/"],
    merge: &[MergeRule {
        paths: |rel| rel.ends_with(".md") && rel.starts_with("persona/"),
        merge: Merge::FrontMatter,
    }],
    doctor: &[check_personas],
    resources: &[ACTIVE_RESOURCE],
    ..Tool::derived::<cli::PersonaCli>("persona", cli::run)
};

/// The kind name of a persona in search (`agentbox search --kind persona`).
pub const KIND: &str = "persona";

/// Home-relative folder of the personas.
pub const DIR: &str = "persona";

/// The file naming the active persona.
pub const ACTIVE_FILE: &str = "ACTIVE";

/// The lock every persona write holds.
const LOCK: &str = "persona";

const PERSONAS: Source = Source {
    kind: KIND,
    dir: DIR,
    nested: false,
    accept: |name| name.ends_with(".md") && !name.starts_with('.'),
    extract: index_docs,
    lines: None,
    watched: true,
    growing: None,
    boost: 1.0,
};

const ACTIVE_RESOURCE: Resource = Resource {
    uri: "mem://persona",
    name: "persona",
    title: "Active persona",
    description: "The active persona, as the markdown block to splice into a system prompt",
    mime_type: "text/markdown",
    read: render_active,
};

// ---------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------

/// A persona as its file stands now.
#[derive(Debug, Clone)]
pub struct Current {
    pub persona: Persona,
    /// The file's exact text.
    pub text: String,
    pub standing: Standing,
    pub active: bool,
}

impl Current {
    /// The rev callers see (and `--expect-version` compares with).
    pub fn rev(&self) -> u64 {
        self.standing.rev
    }

    /// The JSON view (`show`, and every write's `data`).
    pub fn view(&self) -> Value {
        let p = &self.persona;
        json!({
            "name": p.name,
            "rev": self.rev(),
            "active": self.active,
            "updated": p.updated,
            "traits": p.traits_json(),
            "body": p.body,
            "path": rel_path(&p.name),
            "hand_edited": self.standing.hand_edited,
        })
    }
}

/// Home-relative path of a persona file.
pub fn rel_path(name: &str) -> String {
    format!("{DIR}/{name}.md")
}

/// The file of a persona (the name is validated first).
pub fn persona_path(home: &Home, name: &str) -> Result<PathBuf> {
    check_name(name)?;
    home.store.path(&[DIR, &format!("{name}.md")])
}

fn active_path(home: &Home) -> Result<PathBuf> {
    home.store.path(&[DIR, ACTIVE_FILE])
}

fn not_found(name: &str) -> Error {
    Error::not_found(format!("no persona '{name}'"))
        .with_hint(format!(
            "see the personas with `persona list`, or make this one with `persona create {name}`"
        ))
        .with_detail("name", name)
}

/// The name `persona/ACTIVE` holds, if any.
pub fn active(home: &Home) -> Result<Option<String>> {
    let path = active_path(home)?;
    let Some(text) = home.store.read(&path)? else {
        return Ok(None);
    };
    let name = text.trim();
    if name.is_empty() {
        return Ok(None);
    }
    check_name(name).map_err(|e| {
        Error::invalid_args(format!(
            "{}:1: {} ({})",
            path.display(),
            "the active persona's name is not valid",
            e.message
        ))
        .with_hint("set it again with `persona use NAME`")
        .with_detail("path", path.display().to_string())
        .with_detail("line", 1)
    })?;
    Ok(Some(name.to_string()))
}

/// `name`, or the active persona when `None` (`not_found` when none is).
pub fn resolve(home: &Home, name: Option<&str>) -> Result<String> {
    match name {
        Some(name) => Ok(check_name(name)?.to_string()),
        None => active(home)?.ok_or_else(|| {
            Error::not_found("no persona is active")
                .with_hint("choose one with `persona use NAME` (see `persona list`), or make one with `persona create NAME`")
        }),
    }
}

/// Loads one persona: `not_found` when absent, `invalid_args` naming file
/// and line when its front matter is broken.
pub fn load(home: &Home, name: &str) -> Result<Current> {
    let path = persona_path(home, name)?;
    let text = home.store.read(&path)?.ok_or_else(|| not_found(name))?;
    let persona = Persona::parse(name, &text)
        .map_err(|e| file::parse_error(e, &path.display().to_string()))?;
    let standing = history::standing(home, name, &text, persona.rev)?;
    let active = active(home).ok().flatten().as_deref() == Some(name);
    Ok(Current {
        persona,
        text,
        standing,
        active,
    })
}

/// A persona file that could not be read.
#[derive(Debug, Clone)]
pub struct Broken {
    pub file: String,
    pub message: String,
}

/// Every persona, by name, and the files that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub personas: Vec<Current>,
    pub broken: Vec<Broken>,
    pub active: Option<String>,
}

/// `list`.
pub fn list(home: &Home) -> Result<Listing> {
    let dir = home.root.join(DIR);
    home.store.check_path(&dir)?;
    let mut listing = Listing {
        active: active(home)?,
        ..Listing::default()
    };
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(listing),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.ends_with(".md") && !n.starts_with('.'))
        .collect();
    names.sort();
    for file in names {
        let name = file.trim_end_matches(".md");
        match load(home, name) {
            Ok(current) => listing.personas.push(current),
            Err(e) => listing.broken.push(Broken {
                file: format!("{DIR}/{file}"),
                message: e.message,
            }),
        }
    }
    Ok(listing)
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

/// The result of a write (`create`, `change`, `revert`).
#[derive(Debug, Clone)]
pub struct Saved {
    pub current: Current,
    /// Whether a new revision was written (false: the change was a no-op).
    pub changed: bool,
    /// The rev a hand edit found before the change was recorded as.
    pub hand_edit: Option<u64>,
    /// Whether this write made the persona active (the first one is).
    pub activated: bool,
    /// Keys `unset` was asked to remove that the persona did not have.
    pub absent: Vec<String>,
    /// The trait keys this write changed.
    pub keys: Vec<String>,
}

impl Saved {
    pub fn view(&self) -> Value {
        let mut value = self.current.view();
        value["changed"] = json!(self.changed);
        value["hand_edit_recorded"] = json!(self.hand_edit);
        value["activated"] = json!(self.activated);
        value
    }
}

/// A persona as its `--expect-version` guard names it (`detail {name,
/// expected, actual}`).
fn versioned(name: &str) -> Versioned<'_> {
    Versioned {
        kind: "persona",
        key: "name",
        id: name,
        counter: "rev",
        show: Some("persona show"),
    }
}

/// Refuses a revision past [`file::MAX_REV`] (the largest rev a JSON number
/// holds exactly) before anything is written: the file, its snapshot and its
/// log stay as they are.
fn check_room(name: &str, rev: u64) -> Result<()> {
    if rev <= file::MAX_REV {
        return Ok(());
    }
    Err(Error::invalid_args(format!(
        "persona '{name}' is at its last revision ({}): no further change can be recorded",
        file::MAX_REV
    ))
    .with_hint(format!(
        "start a new persona from it: `persona create NEW_NAME --from {name}` (it begins at rev 1)"
    ))
    .with_detail("name", name)
    .with_detail("rev", rev)
    .with_detail("limit", file::MAX_REV))
}

/// Records an unrecorded hand edit of `current` as its own revision (the
/// file rewritten in the tool's form, redacted, with its snapshot), so the
/// change that follows starts from a recorded revision.
fn record_hand_edit(
    home: &Home,
    lock: &Lock,
    clock: &Clock,
    current: Current,
) -> Result<(Current, Option<u64>)> {
    if !current.standing.hand_edited {
        return Ok((current, None));
    }
    let entry = Entry {
        rev: current.rev(),
        created: clock.stamp(),
        kind: "hand_edit".to_string(),
        keys: Vec::new(),
        from: None,
    };
    let recorded = write(home, lock, current.persona, &entry)?;
    Ok((recorded, Some(entry.rev)))
}

/// Records the persona file `name` a sync pull just wrote as a revision of
/// kind `pulled` (its history does not sync, so without this every pulled
/// persona would look edited by hand). The file is left as it is; a file
/// whose rev this home's history already has with other content (two
/// homes' histories diverged) stays an unrecorded edit, recorded by the
/// next change. True when a revision was recorded.
pub fn record_pulled(home: &Home, clock: &Clock, name: &str) -> Result<bool> {
    let lock = home.store.lock(LOCK)?;
    let current = match load(home, name) {
        Ok(current) => current,
        // Gone, or broken: nothing to record (`persona list` reports it).
        Err(_) => return Ok(false),
    };
    if !current.standing.hand_edited || current.standing.rev != current.persona.rev {
        return Ok(false);
    }
    let entry = Entry {
        rev: current.persona.rev,
        created: clock.stamp(),
        kind: "pulled".to_string(),
        keys: Vec::new(),
        from: None,
    };
    history::record(home, &lock, &current.text, &entry, name)?;
    Ok(true)
}

/// Writes `persona` as revision `entry.rev`: the file, its snapshot, its log
/// line, the index. Returns what the file now holds.
fn write(home: &Home, lock: &Lock, mut persona: Persona, entry: &Entry) -> Result<Current> {
    // Every caller checks first; this keeps a rev past the limit from ever
    // reaching the file.
    check_room(&persona.name, entry.rev)?;
    persona.rev = entry.rev;
    persona.updated = entry.created.clone();
    let text = home
        .store
        .redactor()
        .redact(&persona.to_file())
        .into_owned();
    let name = persona.name.clone();
    let path = persona_path(home, &name)?;
    let stored = Persona::parse(&name, &text).map_err(|e| {
        Error::internal(format!(
            "redacting persona '{name}' broke its front matter: {}",
            e.message
        ))
    })?;
    home.store.ensure_dir(&home.root.join(DIR))?;
    home.store.write_text(&path, &text)?;
    history::record(home, lock, &text, entry, &name)?;
    let rel = rel_path(&name);
    let docs = [persona_doc(&stored, &rel)];
    search::index_update_or_warn(home, |index| index.replace_source(&rel, &docs));
    Ok(Current {
        active: active(home).ok().flatten().as_deref() == Some(name.as_str()),
        persona: stored,
        text,
        standing: Standing {
            rev: entry.rev,
            hand_edited: false,
        },
    })
}

/// What `create` makes.
#[derive(Debug, Clone, Default)]
pub struct NewPersona {
    pub name: String,
    /// Start from this persona's traits and body.
    pub from: Option<String>,
    pub traits: Vec<(String, String)>,
    pub body: Option<String>,
    /// Write it even when its screen warns (see `screen_persona`).
    pub accept_warnings: bool,
}

/// `create`: a new persona at the next free rev (1, unless a persona of
/// that name existed before and left history). The first persona of a home
/// becomes the active one.
pub fn create(home: &Home, clock: &Clock, input: &NewPersona) -> Result<Saved> {
    let name = check_name(&input.name)?.to_string();
    let path = persona_path(home, &name)?;
    let _lock = home.store.lock(LOCK)?;
    if home.store.read(&path)?.is_some() {
        return Err(Error::conflict(format!("persona '{name}' already exists"))
            .with_hint(format!(
                "change it with `persona set {name} KEY=VALUE`, or see it with `persona show {name}`"
            ))
            .with_detail("name", name.as_str()));
    }
    let mut persona = match &input.from {
        Some(from) => {
            let source = load(home, from)?.persona;
            Persona {
                name: name.clone(),
                ..source
            }
        }
        None => Persona::new(&name),
    };
    for (key, value) in &input.traits {
        persona.set(key, value);
    }
    if let Some(body) = &input.body {
        persona.body = body.trim_end().to_string();
    }
    let rev = history::revs(home, &name)?
        .last()
        .copied()
        .unwrap_or(0)
        .saturating_add(1);
    check_room(&name, rev)?;
    let entry = Entry {
        rev,
        created: clock.stamp(),
        kind: "create".to_string(),
        keys: persona.traits.iter().map(|(k, _)| k.clone()).collect(),
        from: input.from.as_ref().map(|f| json!({"persona": f})),
    };
    screen_persona(home, &persona, input.accept_warnings)?;
    let activated = active(home)?.is_none();
    let mut current = write(home, &_lock, persona, &entry)?;
    if activated {
        set_active(home, &name)?;
        current.active = true;
    }
    Ok(Saved {
        current,
        changed: true,
        hand_edit: None,
        activated,
        absent: Vec::new(),
        keys: Vec::new(),
    })
}

/// Changes to a persona (`set`, `unset`).
#[derive(Debug, Clone, Default)]
pub struct Change {
    pub set: Vec<(String, String)>,
    pub unset: Vec<String>,
    pub body: Option<String>,
    pub expect_rev: Option<u64>,
    /// Write it even when its screen warns (see `screen_persona`).
    pub accept_warnings: bool,
}

/// `set` / `unset`: one new revision with every change, or none when
/// nothing changes. Unknown keys to unset are ignored (see `missing`).
pub fn change(home: &Home, clock: &Clock, name: &str, change: &Change) -> Result<Saved> {
    check_name(name)?;
    let lock = home.store.lock(LOCK)?;
    let current = load(home, name)?;
    versioned(name).check(change.expect_rev, current.rev())?;
    // The change is recorded one rev after the current (or its hand edit's).
    check_room(name, current.rev().saturating_add(1))?;
    let (current, hand_edit) = record_hand_edit(home, &lock, clock, current)?;
    let mut persona = current.persona.clone();
    let mut keys = Vec::new();
    for (key, value) in &change.set {
        if persona.set(key, value) {
            keys.push(key.clone());
        }
    }
    let mut absent = Vec::new();
    for key in &change.unset {
        if persona.unset(key) {
            keys.push(key.clone());
        } else if !absent.contains(key) {
            absent.push(key.clone());
        }
    }
    let mut kind = if change.unset.is_empty() {
        "set"
    } else {
        "unset"
    };
    if let Some(body) = &change.body {
        let body = body.trim_end().to_string();
        if body != persona.body {
            persona.body = body;
            if keys.is_empty() {
                kind = "text";
            }
        }
    }
    let mut saved = finish(
        home,
        &lock,
        clock,
        current,
        persona,
        hand_edit,
        kind,
        keys,
        None,
        change.accept_warnings,
    )?;
    saved.absent = absent;
    Ok(saved)
}

/// Writes the next revision unless `persona` says what `current` says.
#[allow(clippy::too_many_arguments)]
fn finish(
    home: &Home,
    lock: &Lock,
    clock: &Clock,
    current: Current,
    persona: Persona,
    hand_edit: Option<u64>,
    kind: &str,
    keys: Vec<String>,
    from: Option<Value>,
    accept_warnings: bool,
) -> Result<Saved> {
    if persona.same_content(&current.persona) {
        return Ok(Saved {
            current,
            changed: false,
            hand_edit,
            activated: false,
            absent: Vec::new(),
            keys: Vec::new(),
        });
    }
    screen_persona(home, &persona, accept_warnings)?;
    let entry = Entry {
        rev: current.rev() + 1,
        created: clock.stamp(),
        kind: kind.to_string(),
        keys,
        from,
    };
    let current = write(home, lock, persona, &entry)?;
    Ok(Saved {
        current,
        changed: true,
        hand_edit,
        activated: false,
        absent: Vec::new(),
        keys: entry.keys,
    })
}

/// `revert NAME REV`: the content of revision `rev` as a new revision.
pub fn revert(
    home: &Home,
    clock: &Clock,
    name: &str,
    rev: u64,
    expect_rev: Option<u64>,
    accept_warnings: bool,
) -> Result<Saved> {
    check_name(name)?;
    let lock = home.store.lock(LOCK)?;
    let current = load(home, name)?;
    versioned(name).check(expect_rev, current.rev())?;
    let snap_path = history::snapshot_path(home, name, rev);
    let Some(text) = history::snapshot(home, name, rev)? else {
        return Err(
            Error::not_found(format!("persona '{name}' has no rev {rev}"))
                .with_hint(format!("see its revisions with `persona history {name}`"))
                .with_detail("name", name)
                .with_detail("rev", rev),
        );
    };
    let old = Persona::parse(name, &text)
        .map_err(|e| file::parse_error(e, &snap_path.display().to_string()))?;
    check_room(name, current.rev().saturating_add(1))?;
    let (current, hand_edit) = record_hand_edit(home, &lock, clock, current)?;
    let mut persona = current.persona.clone();
    let mut keys: Vec<String> = persona
        .traits
        .iter()
        .chain(&old.traits)
        .map(|(k, _)| k.clone())
        .filter(|k| persona.get(k) != old.get(k))
        .collect();
    keys.sort();
    keys.dedup();
    persona.traits = old.traits;
    persona.body = old.body;
    persona.extra = old.extra;
    finish(
        home,
        &lock,
        clock,
        current,
        persona,
        hand_edit,
        "revert",
        keys,
        Some(json!({"rev": rev})),
        accept_warnings,
    )
}

/// Persona text is text an agent follows (`render`, `mem://persona`): what
/// a verb would write goes through the same screen as a skill's SKILL.md —
/// `fail` is refused, `warn` needs --accept-warnings. A hand edit is
/// recorded as it stands (the person wrote it), but the next change that
/// keeps its text is screened.
fn screen_persona(home: &Home, persona: &Persona, accept_warnings: bool) -> Result<()> {
    let name = &persona.name;
    let screened = screen::screen_text(&rel_path(name), &persona.markdown(), home.store.redactor());
    skill_forge::admit_text(
        &screened,
        accept_warnings,
        &format!("persona '{name}'"),
        "change the text or traits the findings name",
    )
}

fn set_active(home: &Home, name: &str) -> Result<()> {
    home.store.ensure_dir(&home.root.join(DIR))?;
    home.store
        .write_text(&active_path(home)?, &format!("{name}\n"))
}

/// `use NAME`: makes `name` the active persona. Returns the one it replaced.
pub fn activate(home: &Home, name: &str) -> Result<(Current, Option<String>)> {
    check_name(name)?;
    let _lock = home.store.lock(LOCK)?;
    let mut current = load(home, name)?;
    let before = active(home).unwrap_or(None);
    if before.as_deref() != Some(name) {
        set_active(home, name)?;
    }
    current.active = true;
    Ok((current, before))
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

/// A persona rendered for a system prompt.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub name: String,
    pub rev: u64,
    pub markdown: String,
    pub traits: Value,
}

/// `render [NAME]`: the markdown block, redacted with the home's redactor.
pub fn render(home: &Home, name: Option<&str>) -> Result<Rendered> {
    let name = resolve(home, name)?;
    let current = load(home, &name)?;
    let redactor = home.store.redactor();
    let mut traits = current.persona.traits_json();
    redactor.redact_value(&mut traits);
    Ok(Rendered {
        markdown: redactor.redact(&current.persona.markdown()).into_owned(),
        rev: current.rev(),
        traits,
        name,
    })
}

/// `mem://persona`: the active persona rendered, or a line saying how to
/// choose one.
fn render_active(home: &Home) -> Result<String> {
    match active(home)? {
        None => Ok("_No active persona._ Choose one with `persona use NAME` \
                    (`persona list` shows them; `persona create NAME` makes one).\n"
            .to_string()),
        Some(name) => match render(home, Some(&name)) {
            Ok(rendered) => Ok(rendered.markdown),
            Err(e) if e.kind == crate::error::ErrorType::NotFound => Ok(format!(
                "_The active persona '{name}' does not exist._ Choose another with \
                 `persona use NAME` (`persona list` shows them).\n"
            )),
            Err(e) => Err(e),
        },
    }
}

/// `history [NAME]`: the revisions, newest first, and whether the file has
/// an unrecorded hand edit (it is shown first, as the rev it will get).
pub fn history(home: &Home, name: Option<&str>) -> Result<(Current, Vec<Entry>)> {
    let name = resolve(home, name)?;
    let current = load(home, &name)?;
    let entries = history::entries(home, &name)?;
    Ok((current, entries))
}

// ---------------------------------------------------------------------------
// Search and doctor
// ---------------------------------------------------------------------------

fn persona_doc(persona: &Persona, rel: &str) -> Doc {
    Doc {
        id: format!("persona:{}", persona.name),
        kind: KIND,
        source: rel.to_string(),
        session: None,
        tags: Vec::new(),
        date: persona.updated.clone(),
        title: format!("Persona: {}", persona.name),
        body: persona.markdown(),
    }
}

/// The search document of one persona file (`persona/<name>.md`): id
/// `persona:<name>`. A broken file is an error (skipped until fixed).
pub fn index_docs(home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    let Some(name) = rel
        .strip_prefix(&format!("{DIR}/"))
        .and_then(|n| n.strip_suffix(".md"))
    else {
        return Ok(Vec::new());
    };
    check_name(name)?;
    let mut persona = Persona::parse(name, text)
        .map_err(|e| file::parse_error(e, &home.root.join(rel).display().to_string()))?;
    if persona.updated.is_empty() {
        persona.updated = crate::tools::knowledge::file_date(&home.root.join(rel));
    }
    Ok(vec![persona_doc(&persona, rel)])
}

/// Doctor: every persona parses and `persona/ACTIVE` names one of them.
fn check_personas(home: &Home) -> Check {
    let name = "personas";
    let listing = match list(home) {
        Ok(listing) => listing,
        Err(e) => return Check::fail(name, e.message, e.hint),
    };
    if let Some(bad) = listing.broken.first() {
        return Check::fail(
            name,
            bad.message.clone(),
            format!(
                "fix {} by hand, or restore a revision with `persona revert`",
                bad.file
            ),
        );
    }
    let count = listing.personas.len();
    match &listing.active {
        Some(active) if !listing.personas.iter().any(|p| &p.persona.name == active) => Check::fail(
            name,
            format!("the active persona '{active}' does not exist"),
            "choose one with `persona use NAME` (see `persona list`)",
        ),
        Some(active) => Check::pass(name, format!("{count} persona(s), '{active}' active")),
        None => Check::pass(name, format!("{count} persona(s), none active")),
    }
}
