//! The searchable sources: each tool declares which files of the home it
//! indexes and how; the program installs the list once at start-up.

use super::Doc;
use crate::error::{Error, Result};
use crate::home::Home;
use std::sync::OnceLock;

/// Turns one file of the home into documents: `(home, home-relative path, text)`.
pub type Extractor = fn(&Home, &str, &str) -> Result<Vec<Doc>>;

/// Turns one line-oriented (JSONL) file into documents from its raw bytes, and
/// names the lines it skipped: a bad line costs that line only.
pub type LineExtractor = fn(&Home, &str, &[u8]) -> Result<LineDocs>;

/// A file's documents and the lines skipped in it (`(line, why)`).
pub type LineDocs = (Vec<Doc>, Vec<(usize, String)>);

/// A family of files the index is derived from, declared by the tool that
/// owns them.
#[derive(Debug)]
pub struct Source {
    /// The kind name of its documents (`turn`, `note`, `fact`): `--kind`'s
    /// values and doctor's counts come from these.
    pub kind: &'static str,
    /// Folder relative to the home.
    pub dir: &'static str,
    /// Whether files live one level down (`episodes/<session>/…`).
    pub nested: bool,
    /// Which file names of the folder belong to the source.
    pub accept: fn(&str) -> bool,
    pub extract: Extractor,
    /// For JSONL sources: what a rebuild uses instead of `extract`, so one
    /// undecodable line does not hide the rest of the file.
    pub lines: Option<LineExtractor>,
    /// Hand edits are expected: `search` checks these files for changes.
    pub watched: bool,
    /// The file-name suffix of the files of a nested source that are
    /// appended to in place (the others are only created, renamed or
    /// removed): `search` stats these to catch up with a writer that crashed
    /// before indexing. A suffix, not a function, so SQLite picks them out.
    pub growing: Option<&'static str>,
    /// Ranking weight at equal relevance (curated memory outranks raw
    /// trajectory): 1.0 is neutral.
    pub boost: f64,
}

/// The sources of this process, installed once (immutable afterwards).
static SOURCES: OnceLock<Vec<&'static Source>> = OnceLock::new();

/// Installs the sources (the registry's, at start-up). A second call with
/// the same list is harmless; the first list wins.
pub fn install_sources(sources: Vec<&'static Source>) {
    let _ = SOURCES.set(sources);
}

/// The installed sources.
pub(super) fn all() -> Result<&'static [&'static Source]> {
    SOURCES.get().map(Vec::as_slice).ok_or_else(|| {
        Error::internal("the search sources were never installed")
            .with_hint("this is a bug in agentbox; report it with the command you ran")
    })
}

/// The kind names of the installed sources, in registry order, deduplicated.
pub fn kinds() -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = Vec::new();
    for source in SOURCES.get().map(Vec::as_slice).unwrap_or_default() {
        if !kinds.contains(&source.kind) {
            kinds.push(source.kind);
        }
    }
    kinds
}

/// The boost of a kind (1.0 for a kind no installed source declares).
pub(super) fn boost(sources: &[&Source], kind: &str) -> f64 {
    sources
        .iter()
        .find(|s| s.kind == kind)
        .map_or(1.0, |s| s.boost)
}

/// Home-relative paths of a source's files, sorted.
pub(super) fn files(home: &Home, source: &Source) -> Vec<String> {
    let mut files = Vec::new();
    let root = home.root.join(source.dir);
    let mut dirs = vec![(root, source.dir.to_string())];
    if source.nested {
        dirs = std::fs::read_dir(home.root.join(source.dir))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        (e.path(), format!("{}/{name}", source.dir))
                    })
                    .collect()
            })
            .unwrap_or_default();
    }
    for (dir, rel) in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if (source.accept)(&name) && entry.file_type().is_ok_and(|t| t.is_file()) {
                files.push(format!("{rel}/{name}"));
            }
        }
    }
    files.sort();
    files
}

/// The source `rel` belongs to, if any: the one whose listing (`files`)
/// would hold it, i.e. in its folder (one level down when nested) with a
/// name it accepts. Other files of a source's folder (`persona/ACTIVE`, a
/// skill's scripts) belong to none and are never indexed.
pub(super) fn owner(rel: &str) -> Result<Option<&'static Source>> {
    Ok(all()?.iter().copied().find(|s| {
        let Some(rest) = rel
            .strip_prefix(s.dir)
            .and_then(|rest| rest.strip_prefix('/'))
        else {
            return false;
        };
        let name = if s.nested {
            match rest.split_once('/') {
                Some((folder, name)) if !folder.is_empty() => name,
                _ => return false,
            }
        } else {
            rest
        };
        !name.is_empty() && !name.contains('/') && (s.accept)(name)
    }))
}

/// Whether `rel` is a file its source lets grow by appends (an open
/// episode): such files are stat-ed on every refresh, found by an index.
pub(super) fn growing(rel: &str) -> bool {
    all().is_ok_and(|all| {
        all.iter().any(|s| {
            s.growing.is_some_and(|suffix| {
                rel.len() > s.dir.len()
                    && rel.starts_with(s.dir)
                    && rel.as_bytes()[s.dir.len()] == b'/'
                    && rel.ends_with(suffix)
            })
        })
    })
}
