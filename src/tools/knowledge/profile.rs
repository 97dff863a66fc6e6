//! Profile facts: `memory/personal/PROFILE.md`, durable facts about the user
//! under `## Preferences` and `## Facts`, one bullet each.
//!
//! The file belongs to the person as much as to agentbox: it may be edited at
//! any time. A rewrite therefore changes only the bullet lines it adds or
//! removes; every other byte (extra sections, prose, blank lines, `*`
//! bullets, CRLF line ends) stays as it was.

mod extract;

pub use extract::extract;

use crate::clock::Clock;
use crate::error::{Error, Result, TextLimit};
use crate::home::Home;
use crate::search::{self, Doc, Source};
use crate::tools::ContextSection;
use std::path::PathBuf;

/// Home-relative folder of the profile.
pub const DIR: &str = "memory/personal";

/// Home-relative path of the profile.
pub const REL_PATH: &str = "memory/personal/PROFILE.md";

/// The kind name of a profile fact in search.
pub const KIND: &str = "fact";

/// PROFILE.md, hand-editable: one search document per fact line. Facts about
/// the user outrank notes and turns at equal relevance.
pub const FACTS: Source = Source {
    kind: KIND,
    dir: DIR,
    nested: false,
    accept: |name| name == "PROFILE.md",
    extract: index_docs,
    lines: None,
    watched: true,
    growing: None,
    boost: 1.4,
};
/// Longest fact, in characters.
pub const MAX_FACT_CHARS: usize = 1_000;
/// A fact: at most [`MAX_FACT_CHARS`] characters, no control character.
const FACT: TextLimit = TextLimit::chars("a fact", MAX_FACT_CHARS, "fact_chars");
/// The file a missing (or blank) profile starts as.
const TEMPLATE: &str = "# Profile\n\n## Preferences\n\n## Facts\n";

/// Where a fact goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    Preferences,
    Facts,
}

impl Section {
    pub const ALL: [Section; 2] = [Section::Preferences, Section::Facts];

    /// `preferences` | `facts` (ids, tags, `--section`).
    pub fn as_str(self) -> &'static str {
        match self {
            Section::Preferences => "preferences",
            Section::Facts => "facts",
        }
    }

    /// The heading text in the file.
    pub fn heading(self) -> &'static str {
        match self {
            Section::Preferences => "Preferences",
            Section::Facts => "Facts",
        }
    }

    /// `preference` | `fact` (the search document title).
    pub fn singular(self) -> &'static str {
        match self {
            Section::Preferences => "preference",
            Section::Facts => "fact",
        }
    }

    fn from_heading(text: &str) -> Option<Section> {
        let text = text.trim().trim_end_matches('#').trim().to_lowercase();
        match text.as_str() {
            "preferences" => Some(Section::Preferences),
            "facts" => Some(Section::Facts),
            _ => None,
        }
    }
}

/// The facts of the profile, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub preferences: Vec<String>,
    pub facts: Vec<String>,
}

impl Profile {
    /// The bullets of one section.
    pub fn section(&self, section: Section) -> &[String] {
        match section {
            Section::Preferences => &self.preferences,
            Section::Facts => &self.facts,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.preferences.is_empty() && self.facts.is_empty()
    }
}

/// What `add_facts` did with each fact.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FactOutcome {
    /// Facts written (as stored: whitespace collapsed, redacted).
    pub added: Vec<String>,
    /// Facts already in the profile (or repeated in the input); not written again.
    pub duplicates: Vec<String>,
    /// Whether PROFILE.md was rewritten.
    pub profile_updated: bool,
}

/// A bullet removed by `remove`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedFact {
    pub section: Section,
    /// Its 1-based number within the section before the removal.
    pub n: usize,
    pub text: String,
}

/// Which bullet(s) `remove` deletes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FactRef {
    /// The N-th bullet (1-based) of a section, as `profile list` numbers them.
    Number(usize),
    /// Every bullet whose text equals this one (compared like duplicates).
    Text(String),
}

/// One bullet of the file: its lines `[start, end)` and its text.
#[derive(Debug, Clone)]
struct Bullet {
    section: Section,
    start: usize,
    end: usize,
    text: String,
}

/// A `## Preferences` or `## Facts` section: heading line and end (exclusive).
#[derive(Debug, Clone)]
struct Span {
    section: Section,
    heading: usize,
    end: usize,
}

/// The file as lines (each with its own line end), and what they mean.
#[derive(Debug, Clone)]
pub(crate) struct ProfileDoc {
    lines: Vec<String>,
    newline: &'static str,
    spans: Vec<Span>,
    bullets: Vec<Bullet>,
    /// The opening run (like ```` ``` ````) of a code fence the file leaves open.
    open_fence: Option<String>,
}

fn bare(line: &str) -> &str {
    line.trim_end_matches(['\n', '\r'])
}

/// `(level, text)` of an ATX heading.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &line[level..];
    if rest.is_empty() || rest.starts_with([' ', '\t']) {
        Some((level, rest))
    } else {
        None
    }
}

/// The text of a bullet line (`- x`, `* x`, `+ x`, `1. x`), if it is one.
fn bullet_text(line: &str) -> Option<&str> {
    for marker in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return Some(rest);
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < 10 {
        let rest = &line[digits..];
        for marker in [". ", ") "] {
            if let Some(text) = rest.strip_prefix(marker) {
                return Some(text);
            }
        }
    }
    None
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The comparison form of a fact: case, spacing and final punctuation ignored.
pub fn normalize(text: &str) -> String {
    collapse(text)
        .trim_end_matches(['.', '!', ' '])
        .to_lowercase()
}

impl ProfileDoc {
    pub(crate) fn parse(text: &str) -> ProfileDoc {
        let lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
        let newline = if lines.first().is_some_and(|l| l.ends_with("\r\n")) {
            "\r\n"
        } else {
            "\n"
        };
        let mut doc = ProfileDoc {
            lines,
            newline,
            spans: Vec::new(),
            bullets: Vec::new(),
            open_fence: None,
        };
        doc.index();
        doc
    }

    /// Finds the sections and bullets again after a change.
    fn index(&mut self) {
        self.spans.clear();
        self.bullets.clear();
        let mut fence: Option<&str> = None;
        let mut opening = "";
        let mut current: Option<usize> = None;
        let mut open_bullet: Option<usize> = None;
        for (i, raw) in self.lines.iter().enumerate() {
            let line = bare(raw);
            let trimmed = line.trim_start();
            if let Some(marker) = fence {
                if trimmed.starts_with(marker) {
                    fence = None;
                }
                open_bullet = None;
                continue;
            }
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fence = Some(&trimmed[..3]);
                let run = trimmed.bytes().take_while(|&b| b == trimmed.as_bytes()[0]);
                opening = &trimmed[..run.count()];
                open_bullet = None;
                continue;
            }
            if let Some((level, text)) = heading(line) {
                open_bullet = None;
                if level <= 2 {
                    if let Some(span) = current.take() {
                        self.spans[span].end = i;
                    }
                    if level == 2
                        && let Some(section) = Section::from_heading(text)
                    {
                        self.spans.push(Span {
                            section,
                            heading: i,
                            end: self.lines.len(),
                        });
                        current = Some(self.spans.len() - 1);
                    }
                }
                continue;
            }
            let Some(span) = current else {
                continue;
            };
            if line.trim().is_empty() {
                open_bullet = None;
                continue;
            }
            if let Some(text) = bullet_text(line) {
                let text = collapse(text);
                if text.is_empty() {
                    open_bullet = None;
                    continue;
                }
                self.bullets.push(Bullet {
                    section: self.spans[span].section,
                    start: i,
                    end: i + 1,
                    text,
                });
                open_bullet = Some(self.bullets.len() - 1);
                continue;
            }
            match open_bullet {
                // An indented line continues the bullet above it.
                Some(b) if line.starts_with([' ', '\t']) => {
                    let bullet = &mut self.bullets[b];
                    bullet.end = i + 1;
                    bullet.text = collapse(&format!("{} {}", bullet.text, line));
                }
                _ => open_bullet = None,
            }
        }
        self.open_fence = fence.map(|_| opening.to_string());
    }

    pub(crate) fn text(&self) -> String {
        self.lines.concat()
    }

    pub(crate) fn profile(&self) -> Profile {
        let mut profile = Profile::default();
        for b in &self.bullets {
            match b.section {
                Section::Preferences => profile.preferences.push(b.text.clone()),
                Section::Facts => profile.facts.push(b.text.clone()),
            }
        }
        profile
    }

    /// Makes sure the line before `at` ends with a line end.
    fn terminate_before(&mut self, at: usize) {
        if at > 0 && !self.lines[at - 1].ends_with('\n') {
            let nl = self.newline;
            self.lines[at - 1].push_str(nl);
        }
    }

    /// Adds `- text` at the end of the first section of its kind (after its
    /// last bullet, else after its last non-blank line), appending the
    /// section when the file has none.
    /// Several facts go in one call, so the document is re-indexed once.
    pub(crate) fn add(&mut self, section: Section, texts: &[&str]) {
        if texts.is_empty() {
            return;
        }
        let nl = self.newline;
        // A fence left open runs to the end of the file: a bullet added after
        // it would be code, never read back. Close it first.
        if let Some(opening) = self.open_fence.take() {
            let end = self.lines.len();
            self.terminate_before(end);
            self.lines.push(format!("{opening}{nl}"));
            self.index();
        }
        let new_lines: Vec<String> = texts.iter().map(|text| format!("- {text}{nl}")).collect();
        if let Some(span) = self.spans.iter().find(|s| s.section == section).cloned() {
            let after_bullet = self
                .bullets
                .iter()
                .filter(|b| b.start > span.heading && b.start < span.end)
                .map(|b| b.end)
                .max();
            let at = after_bullet.unwrap_or_else(|| {
                (span.heading..span.end)
                    .rev()
                    .find(|&i| !bare(&self.lines[i]).trim().is_empty())
                    .map_or(span.heading + 1, |i| i + 1)
            });
            self.terminate_before(at);
            self.lines.splice(at..at, new_lines);
        } else {
            let end = self.lines.len();
            self.terminate_before(end);
            if self
                .lines
                .last()
                .is_some_and(|l| !bare(l).trim().is_empty())
            {
                self.lines.push(nl.to_string());
            }
            self.lines.push(format!("## {}{nl}", section.heading()));
            self.lines.extend(new_lines);
        }
        self.index();
    }

    /// Removes the bullets at these indexes (into `bullets`).
    pub(crate) fn remove(&mut self, which: &[usize]) {
        let mut ranges: Vec<(usize, usize)> = which
            .iter()
            .map(|&i| (self.bullets[i].start, self.bullets[i].end))
            .collect();
        ranges.sort();
        for (start, end) in ranges.into_iter().rev() {
            self.lines.drain(start..end);
        }
        self.index();
    }
}

/// The profile file's path.
pub fn path(home: &Home) -> Result<PathBuf> {
    home.store.path(&["memory", "personal", "PROFILE.md"])
}

/// Reads PROFILE.md. A missing file is an empty profile; a corrupt one
/// (invalid UTF-8, NUL bytes, over the size cap) is an error naming the file.
fn load(home: &Home) -> Result<(Option<ProfileDoc>, PathBuf)> {
    let path = path(home)?;
    let read = home.store.read(&path).map_err(|e| {
        let shown = path.display().to_string();
        let e = if e.detail.contains_key("path") {
            e
        } else {
            e.with_detail("path", shown)
        };
        e.with_hint("repair or remove PROFILE.md by hand; agentbox will not overwrite it")
    })?;
    let Some(text) = read else {
        return Ok((None, path));
    };
    if let Some(at) = text.find('\0') {
        return Err(Error::invalid_args(format!(
            "{} is corrupt: it contains a NUL byte (byte {at})",
            path.display()
        ))
        .with_hint("repair or remove the file by hand; agentbox will not overwrite it")
        .with_detail("path", path.display().to_string()));
    }
    Ok((Some(ProfileDoc::parse(&text)), path))
}

/// The profile's facts (empty when there is no PROFILE.md).
pub fn read(home: &Home) -> Result<Profile> {
    Ok(load(home)?.0.map(|d| d.profile()).unwrap_or_default())
}

/// `mem_context`'s `Preferences` and `Profile` sections: the profile's two
/// lists as bullets, PROFILE.md read once. A damaged PROFILE.md must not
/// cost the agent the other sections: both say what is wrong instead.
pub fn context_sections(home: &Home, _clock: &Clock) -> Result<Vec<ContextSection>> {
    let profile = read(home).map_err(|err| format!("{} — {}", err.message, err.hint));
    let section = |heading, pick: fn(&Profile) -> &[String]| ContextSection {
        heading,
        share: 20,
        body: match &profile {
            Ok(profile) => bullets(pick(profile)),
            Err(problem) => format!("(unreadable: {problem})\n"),
        },
    };
    Ok(vec![
        section("Preferences", |p| &p.preferences),
        section("Profile", |p| &p.facts),
    ])
}

/// Items as markdown bullets, or `(none)`.
fn bullets(items: &[String]) -> String {
    if items.is_empty() {
        return "(none)\n".to_string();
    }
    items.iter().map(|item| format!("- {item}\n")).collect()
}

/// A fact as stored: whitespace collapsed to single spaces, redacted, checked.
fn clean_fact(home: &Home, text: &str) -> Result<String> {
    let text = collapse(&home.store.redactor().redact(text));
    let text = text
        .strip_prefix("- ")
        .or_else(|| text.strip_prefix("* "))
        .unwrap_or(&text)
        .trim()
        .to_string();
    if text.is_empty() {
        return Err(Error::invalid_args("a fact is empty")
            .with_hint("pass the fact as one short sentence, like \"Prefers tabs over spaces.\""));
    }
    if FACT.has_control(&text) {
        return Err(
            Error::invalid_args("a fact contains a control character").with_hint("pass plain text")
        );
    }
    FACT.check_length(&text)
        .map_err(|e| e.with_hint("keep a fact to one short sentence"))?;
    Ok(text)
}

/// Replaces PROFILE.md, dated by the clock: its facts are dated by the
/// file's mtime ([`index_docs`]), so the mtime is the clock's time of the
/// write (`AGENTBOX_NOW` when set), not the wall clock's.
fn write(home: &Home, clock: &Clock, path: &std::path::Path, text: &str) -> Result<()> {
    home.store
        .write_text_dated(path, text, clock.now().to_system())
}

/// Re-indexes PROFILE.md after a write.
fn reindex(home: &Home, text: &str) -> Result<()> {
    let docs = index_docs(home, REL_PATH, text)?;
    search::index_update_or_warn(home, |index| index.replace_source(REL_PATH, &docs));
    Ok(())
}

/// Adds facts under the lock `profile`: each becomes one bullet at the end of
/// its section, unless an equal fact (see `normalize`) is already there. All
/// facts are validated first; a bad one fails the call and writes nothing.
pub fn add_facts(home: &Home, clock: &Clock, facts: &[(Section, String)]) -> Result<FactOutcome> {
    let cleaned = clean_facts(home, facts)?;
    let _lock = home.store.lock("profile")?;
    let (doc, path) = load(home)?;
    let (mut outcome, doc) = merge_facts(doc, cleaned);
    if outcome.added.is_empty() {
        return Ok(outcome);
    }
    home.store.ensure_dir(path.parent().unwrap_or(&home.root))?;
    let text = doc.text();
    write(home, clock, &path, &text)?;
    outcome.profile_updated = true;
    reindex(home, &home.store.redactor().redact(&text))?;
    Ok(outcome)
}

/// What [`add_facts`] would do now, computed by the same code and written
/// nowhere: its outcome, PROFILE.md's text before (`None`: no file) and
/// after (`None`: left as it is, every fact being there already).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactPlan {
    pub outcome: FactOutcome,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// [`add_facts`] without the write: a preview (`evolve apply --dry-run`).
pub fn plan_facts(home: &Home, facts: &[(Section, String)]) -> Result<FactPlan> {
    let cleaned = clean_facts(home, facts)?;
    let (doc, _path) = load(home)?;
    let before = doc.as_ref().map(ProfileDoc::text);
    let (mut outcome, doc) = merge_facts(doc, cleaned);
    let after = if outcome.added.is_empty() {
        None
    } else {
        outcome.profile_updated = true;
        Some(doc.text())
    };
    Ok(FactPlan {
        outcome,
        before,
        after,
    })
}

fn clean_facts(home: &Home, facts: &[(Section, String)]) -> Result<Vec<(Section, String)>> {
    facts
        .iter()
        .map(|(section, text)| Ok((*section, clean_fact(home, text)?)))
        .collect()
}

/// The profile `doc` (the template when there is none) with the `cleaned`
/// facts it lacks added; what was added and what was there already.
fn merge_facts(
    doc: Option<ProfileDoc>,
    cleaned: Vec<(Section, String)>,
) -> (FactOutcome, ProfileDoc) {
    let mut doc = match doc {
        Some(doc) if !doc.text().trim().is_empty() => doc,
        _ => ProfileDoc::parse(TEMPLATE),
    };
    let mut outcome = FactOutcome::default();
    // Normalized once: comparing each new fact against every bullet would be
    // quadratic in normalizations for a long message full of facts.
    let mut known: std::collections::HashSet<String> =
        doc.bullets.iter().map(|b| normalize(&b.text)).collect();
    let mut new_preferences = Vec::new();
    let mut new_facts = Vec::new();
    for (section, text) in cleaned {
        if !known.insert(normalize(&text)) {
            outcome.duplicates.push(text);
        } else {
            match section {
                Section::Preferences => new_preferences.push(outcome.added.len()),
                Section::Facts => new_facts.push(outcome.added.len()),
            }
            outcome.added.push(text);
        }
    }
    for (section, picks) in [
        (Section::Preferences, new_preferences),
        (Section::Facts, new_facts),
    ] {
        let texts: Vec<&str> = picks.iter().map(|&i| outcome.added[i].as_str()).collect();
        doc.add(section, &texts);
    }
    (outcome, doc)
}

/// Removes bullets under the lock `profile`. A number needs its section; a
/// text removes every equal bullet (of `section`, or of both sections).
/// Nothing matching → `not_found`.
pub fn remove(
    home: &Home,
    clock: &Clock,
    which: &FactRef,
    section: Option<Section>,
) -> Result<Vec<RemovedFact>> {
    let _lock = home.store.lock("profile")?;
    let (doc, path) = load(home)?;
    let Some(mut doc) = doc else {
        return Err(
            Error::not_found("the profile is empty (there is no PROFILE.md)")
                .with_hint("add a fact with `knowledge profile add \"…\"`"),
        );
    };
    let mut chosen: Vec<usize> = Vec::new();
    let mut removed = Vec::new();
    let mut counts = [0usize; 2];
    let wanted = match which {
        FactRef::Text(text) => Some(normalize(&home.store.redactor().redact(text))),
        FactRef::Number(_) => None,
    };
    let number_section = match which {
        FactRef::Number(_) => Some(section.ok_or_else(|| {
            Error::invalid_args("removing by number needs --section preferences|facts")
                .with_hint("numbers count within a section, as `knowledge profile list` shows them")
                .with_detail("flag", "--section")
        })?),
        FactRef::Text(_) => None,
    };
    for (i, bullet) in doc.bullets.iter().enumerate() {
        let slot = if bullet.section == Section::Preferences {
            0
        } else {
            1
        };
        counts[slot] += 1;
        let n = counts[slot];
        let hit = match which {
            FactRef::Number(wanted_n) => Some(bullet.section) == number_section && n == *wanted_n,
            FactRef::Text(_) => {
                section.is_none_or(|s| s == bullet.section)
                    && Some(normalize(&bullet.text)) == wanted
            }
        };
        if hit {
            chosen.push(i);
            removed.push(RemovedFact {
                section: bullet.section,
                n,
                text: bullet.text.clone(),
            });
        }
    }
    if chosen.is_empty() {
        let what = match which {
            FactRef::Number(n) => format!(
                "there is no {} number {n}",
                number_section.map_or("fact", Section::singular)
            ),
            FactRef::Text(text) => {
                format!("no fact reads {}", serde_json::Value::from(text.as_str()))
            }
        };
        return Err(Error::not_found(what)
            .with_hint("see the numbered facts with `knowledge profile list`"));
    }
    doc.remove(&chosen);
    let text = doc.text();
    write(home, clock, &path, &text)?;
    reindex(home, &home.store.redactor().redact(&text))?;
    Ok(removed)
}

/// The search documents of PROFILE.md: one per bullet, id
/// `fact:<section>:<n>` (n 1-based within the section), dated by the file's
/// mtime. Never fails: whatever is not a bullet of the two sections is skipped.
pub fn index_docs(home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    let doc = ProfileDoc::parse(text);
    let date = super::file_date(&home.root.join(rel));
    let mut counts = [0usize; 2];
    Ok(doc
        .bullets
        .iter()
        .map(|b| {
            let slot = if b.section == Section::Preferences {
                0
            } else {
                1
            };
            counts[slot] += 1;
            Doc {
                id: format!("fact:{}:{}", b.section.as_str(), counts[slot]),
                kind: KIND,
                source: rel.to_string(),
                session: None,
                tags: vec![b.section.as_str().to_string()],
                date: date.clone(),
                title: b.section.singular().to_string(),
                body: b.text.clone(),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(text: &str, section: Section, fact: &str) -> String {
        let mut doc = ProfileDoc::parse(text);
        doc.add(section, &[fact]);
        doc.text()
    }

    #[test]
    fn template_gets_bullets_under_headings() {
        let text = add(TEMPLATE, Section::Preferences, "Prefers tabs.");
        assert_eq!(
            text,
            "# Profile\n\n## Preferences\n- Prefers tabs.\n\n## Facts\n"
        );
        let text = add(&text, Section::Facts, "Works at Example Corp.");
        let text = add(&text, Section::Preferences, "Likes Rust.");
        assert_eq!(
            text,
            "# Profile\n\n## Preferences\n- Prefers tabs.\n- Likes Rust.\n\n## Facts\n- Works at Example Corp.\n"
        );
        let doc = ProfileDoc::parse(&text);
        assert_eq!(doc.profile().preferences, ["Prefers tabs.", "Likes Rust."]);
        assert_eq!(doc.profile().facts, ["Works at Example Corp."]);
    }

    #[test]
    fn hand_edits_are_kept_byte_for_byte() {
        let text = "# Me\r\n\r\nSome prose.\r\n\r\n## Preferences\r\nI write these myself:\r\n\
                    * Prefers  tabs\r\n  over spaces\r\n\r\n## Pets\r\n- A cat (not a fact)\r\n\
                    ```\r\n## Facts\r\n- not a heading in code\r\n```\r\n### Notes\r\n";
        let doc = ProfileDoc::parse(text);
        assert_eq!(doc.profile().preferences, ["Prefers tabs over spaces"]);
        assert!(doc.profile().facts.is_empty());
        let out = add(text, Section::Preferences, "Likes Go.");
        assert_eq!(
            out,
            text.replace("  over spaces\r\n", "  over spaces\r\n- Likes Go.\r\n")
        );
        let out = add(text, Section::Facts, "Lives in Berlin.");
        assert_eq!(out, format!("{text}\r\n## Facts\r\n- Lives in Berlin.\r\n"));
        // no final newline, section without bullets
        let out = add("## Facts\nprose", Section::Facts, "X.");
        assert_eq!(out, "## Facts\nprose\n- X.\n");
    }

    #[test]
    fn removal_takes_only_the_bullet_lines() {
        let text = "## Facts\n- One.\n- Two\n  continued.\n- Three.\nprose\n";
        let mut doc = ProfileDoc::parse(text);
        assert_eq!(doc.bullets[1].text, "Two continued.");
        doc.remove(&[1]);
        assert_eq!(doc.text(), "## Facts\n- One.\n- Three.\nprose\n");
        let has = |t: &str| {
            doc.bullets
                .iter()
                .any(|b| normalize(&b.text) == normalize(t))
        };
        assert!(has("one"));
        assert!(has("  THREE  "));
        assert!(!has("Two continued"));
    }

    #[test]
    fn normalization_ignores_case_space_and_final_period() {
        assert_eq!(normalize(" Prefers  Tabs. "), "prefers tabs");
        assert_eq!(normalize("prefers tabs!"), "prefers tabs");
        assert_ne!(normalize("prefers tabs"), normalize("prefers spaces"));
    }

    #[test]
    fn headings_and_bullets_are_recognized_loosely() {
        assert_eq!(
            Section::from_heading(" preferences ##"),
            Some(Section::Preferences)
        );
        assert_eq!(Section::from_heading("FACTS"), Some(Section::Facts));
        assert_eq!(Section::from_heading("Fact"), None);
        assert_eq!(bullet_text("1. x"), Some("x"));
        assert_eq!(bullet_text("12) x"), Some("x"));
        assert_eq!(bullet_text("-x"), None);
        assert_eq!(heading("##Facts"), None);
        assert_eq!(heading("## Facts"), Some((2, " Facts")));
    }
}
