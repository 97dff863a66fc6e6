//! Whether the index's dense tables agree with its documents: `doctor`'s
//! check of what SQLite cannot see.
//!
//! `stamps` holds each document's kind number, date and session number, 500
//! documents to a block of 8-byte entries; `kinds` and `sessions` name the
//! numbers (`sessions` also keeps the rowids each session's documents span);
//! `lengths` holds each document's length in tokens (`rank::dense`). A
//! damaged row there is still a well-formed row, so nothing fails: a
//! filtered search passes over a document whose stamp names another kind or
//! session, or looks for a session's turns outside the rowids they have, and
//! the hit is lost without a word.
//!
//! The check reads `docs` once, in rowid order (the scan that counts the
//! documents per kind, which `doctor` prints, so it costs `doctor` one pass
//! over `stamps` more), and compares each document's row with its stamp.
//! Searches never run it: what it finds marks the index damaged
//! (`meta.schema`, see [`Index::mark_damaged`]), so the next call that opens
//! the index rebuilds it, as it rebuilds a corrupt database, and a healthy
//! index costs a call nothing.

use super::db::{ReadTx, Tx, db_error};
use super::index::Index;
use super::ranking::seconds;
use crate::error::Result;
use rusqlite::OptionalExtension;
use std::collections::{BTreeMap, HashMap};

// The layout `rank::dense` writes (`stamps`, `lengths`) and `rank::packed`
// packs; the tests below build an index with the writer and check it.
const STAMPS_PER_BLOCK: i64 = 500;
const STAMP_BYTES: usize = 8;
const LENGTHS_PER_BLOCK: i64 = 4096;
/// Kind numbers a stamp holds (the low six bits of its first byte).
const MAX_KIND: i64 = 63;
/// Session numbers a stamp holds (three bytes).
const MAX_SESSION: i64 = (1 << 24) - 1;

/// `meta.schema` of an index the check found damaged: not this version,
/// so the next open rebuilds it (`Index::open`).
pub(super) const DAMAGED: &str = "damaged";

/// Examples of problems kept for the report.
const EXAMPLES: usize = 3;

/// What the check read: the documents per kind, and what disagrees.
#[derive(Debug, Default)]
pub(super) struct Audit {
    pub counts: BTreeMap<String, usize>,
    /// Documents (or blocks) in disagreement; 0 when the index is sound.
    pub problems: usize,
    /// The first few problems, as sentences.
    pub examples: Vec<String>,
    /// `meta.built` of the index read (see [`Index::mark_damaged`]).
    built: Option<String>,
}

impl Audit {
    fn problem(&mut self, what: impl FnOnce() -> String) {
        self.problems += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(what());
        }
    }

    /// One line for `doctor`; `None` when nothing disagrees.
    pub fn summary(&self) -> Option<String> {
        (self.problems > 0).then(|| {
            format!(
                "the search index's tables disagree with its documents ({} problem(s), e.g. {})",
                self.problems,
                self.examples.join("; ")
            )
        })
    }
}

/// A stamp as `rank::dense` stores it.
#[derive(Debug, PartialEq)]
struct Stamp {
    kind: i64,
    seconds: i64,
    session: i64,
}

impl Stamp {
    fn decode(entry: &[u8]) -> Stamp {
        let b = |i: usize| entry.get(i).copied().unwrap_or(0);
        Stamp {
            kind: i64::from(b(0)) & MAX_KIND,
            seconds: i64::from(u32::from_le_bytes([b(1), b(2), b(3), b(4)])),
            session: i64::from(u32::from_le_bytes([b(5), b(6), b(7), 0])),
        }
    }
}

/// A number as a stamp holds it: 0 when past what it holds.
fn held(id: i64, max: i64) -> i64 {
    if (1..=max).contains(&id) { id } else { 0 }
}

impl Index<'_> {
    /// Counts the documents per kind and compares every document with its
    /// `stamps` entry, `kinds` and `sessions` rows, and `lengths` block, in
    /// one read transaction.
    pub(super) fn audit(&self) -> Result<Audit> {
        let _tx = ReadTx::begin(&self.conn)?;
        self.audit_in_tx().map_err(db_error)
    }

    fn audit_in_tx(&self) -> rusqlite::Result<Audit> {
        let conn = &*self.conn;
        let mut audit = Audit {
            built: conn
                .query_row("SELECT value FROM meta WHERE key = 'built'", [], |r| {
                    r.get(0)
                })
                .optional()?,
            ..Audit::default()
        };
        let kinds: HashMap<String, i64> = conn
            .prepare("SELECT name, id FROM kinds")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let kind_names: HashMap<i64, &str> = kinds.iter().map(|(k, v)| (*v, k.as_str())).collect();
        let sessions: HashMap<String, (i64, i64, i64)> = conn
            .prepare("SELECT name, id, first, last FROM sessions")?
            .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?
            .collect::<rusqlite::Result<_>>()?;
        // `lengths` blocks: 1 byte of width, then 4,096 values of that width.
        let mut lengths = HashMap::new();
        let mut stmt =
            conn.prepare("SELECT block, length(data), substr(data, 1, 1) FROM lengths")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let (block, len): (i64, i64) = (row.get(0)?, row.get(1)?);
            let width = row
                .get_ref(2)?
                .as_blob()
                .ok()
                .and_then(|b| b.first().copied());
            let sound =
                width.is_some_and(|w| w <= 16 && len == 1 + LENGTHS_PER_BLOCK * i64::from(w) / 8);
            lengths.insert(block, sound);
        }

        let mut stamps = conn.prepare("SELECT block, data FROM stamps ORDER BY block")?;
        let mut stamps = stamps.query([])?;
        let mut current: Option<(i64, Vec<u8>)> = None;
        let mut stamps_done = false;
        let mut docs =
            conn.prepare("SELECT rowid, id, kind, session, date FROM docs ORDER BY rowid")?;
        let mut docs = docs.query([])?;
        let mut reported_block = None;
        while let Some(row) = docs.next()? {
            let rowid: i64 = row.get(0)?;
            let kind = row.get_ref(2)?.as_str()?;
            match audit.counts.get_mut(kind) {
                Some(n) => *n += 1,
                None => {
                    audit.counts.insert(kind.to_string(), 1);
                }
            }
            let id = || {
                row.get_ref(1)
                    .ok()
                    .and_then(|v| v.as_str().ok())
                    .unwrap_or("?")
                    .to_string()
            };
            // This document's `stamps` block: the rows come in block order.
            let block = rowid.div_euclid(STAMPS_PER_BLOCK);
            while !stamps_done && current.as_ref().is_none_or(|(b, _)| *b < block) {
                match stamps.next()? {
                    // Not a blob (a damaged row): no entries, reported below.
                    Some(s) => current = Some((s.get(0)?, s.get(1).unwrap_or_default())),
                    None => stamps_done = true,
                }
            }
            let data = match &current {
                Some((b, data)) if *b == block => data.as_slice(),
                _ => &[],
            };
            if data.len() != STAMPS_PER_BLOCK as usize * STAMP_BYTES
                && reported_block != Some(block)
            {
                reported_block = Some(block);
                audit.problem(|| match data.len() {
                    0 => format!(
                        "no `stamps` entries for documents {}–{}",
                        block * STAMPS_PER_BLOCK,
                        (block + 1) * STAMPS_PER_BLOCK - 1
                    ),
                    n => format!(
                        "`stamps` block {block} is {n} bytes, not {}",
                        STAMPS_PER_BLOCK as usize * STAMP_BYTES
                    ),
                });
                continue;
            }
            if reported_block == Some(block) {
                continue;
            }
            let at = rowid.rem_euclid(STAMPS_PER_BLOCK) as usize * STAMP_BYTES;
            let stamp = Stamp::decode(&data[at..at + STAMP_BYTES]);
            // What the writer stores: the `kinds` id, 0 past what a stamp holds.
            let expected_kind = kinds.get(kind).map(|&k| held(k, MAX_KIND));
            if expected_kind != Some(stamp.kind) {
                audit.problem(|| {
                    let named = kind_names.get(&stamp.kind).copied().unwrap_or("none");
                    format!(
                        "document {} is a {kind} but its stamp says kind {} ({named})",
                        id(),
                        stamp.kind
                    )
                });
                continue;
            }
            let session: Option<&str> = row.get_ref(3)?.as_str_or_null()?;
            let date = row.get_ref(4)?.as_str()?;
            let expected_seconds = if stamp.kind > 0 {
                // 0 is unknown: 1970-01-01T00:00:00Z is held as the second after.
                seconds(date)
                    .and_then(|s| u32::try_from(s).ok())
                    .map_or(0, |s| i64::from(s.max(1)))
            } else {
                0
            };
            if stamp.seconds != expected_seconds {
                audit.problem(|| {
                    format!(
                        "document {} is dated {date} but its stamp says {} seconds",
                        id(),
                        stamp.seconds
                    )
                });
                continue;
            }
            let wrong_session = match session {
                None => (stamp.session != 0).then(|| {
                    format!(
                        "document {} has no session but its stamp says session {}",
                        id(),
                        stamp.session
                    )
                }),
                Some(name) => match sessions.get(name) {
                    None => Some(format!(
                        "document {} is of session {} but `sessions` has no row for it",
                        id(),
                        serde_json::Value::from(name)
                    )),
                    Some(&(number, first, last)) => (stamp.session != held(number, MAX_SESSION)
                        || !(first..=last).contains(&rowid))
                    .then(|| {
                        format!(
                            "document {} is of session {} (number {number}, rowids \
                             {first}–{last}) but its stamp says session {}",
                            id(),
                            serde_json::Value::from(name),
                            stamp.session
                        )
                    }),
                },
            };
            if let Some(problem) = wrong_session {
                audit.problem(|| problem);
                continue;
            }
            let lengths_block = rowid.div_euclid(LENGTHS_PER_BLOCK);
            if lengths.get(&lengths_block) != Some(&true) {
                audit.problem(|| {
                    format!(
                        "the `lengths` block of document {} is missing or damaged",
                        id()
                    )
                });
                // One report a block.
                lengths.insert(lengths_block, true);
            }
        }
        Ok(audit)
    }

    /// Marks the index damaged (`meta.schema` = [`DAMAGED`], the reason in
    /// `meta.damaged`) so that the next open rebuilds it, unless it was
    /// rebuilt since `audit` read it. Best effort: `doctor` reports either way.
    pub(super) fn mark_damaged(&self, audit: &Audit, reason: &str) {
        let mark = || -> Result<()> {
            let tx = Tx::begin(&self.conn)?;
            let built: Option<String> = self
                .conn
                .query_row("SELECT value FROM meta WHERE key = 'built'", [], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(db_error)?;
            if built == audit.built {
                self.conn
                    .execute(
                        "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?1), ('damaged', ?2)",
                        [DAMAGED, reason],
                    )
                    .map_err(db_error)?;
            }
            tx.commit()
        };
        let _ = mark();
    }

    /// Why the index was marked damaged, when it was.
    pub(super) fn damage_reason(&self) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = 'damaged'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Doc;
    use crate::search::group::tests::home;

    /// A document of `source` (a turn takes its session from the path).
    fn doc(source: &str, id: String, kind: &'static str, date: &str) -> Doc {
        let session = source
            .strip_prefix("memory/episodes/")
            .and_then(|rest| rest.split('/').next());
        Doc {
            id,
            kind,
            source: source.to_string(),
            session: session.map(str::to_string),
            tags: Vec::new(),
            date: date.to_string(),
            title: String::new(),
            body: "a body of several words to count".to_string(),
        }
    }

    /// Three `stamps` blocks of turns of three sessions, notes without one,
    /// dates the stamps cannot hold (none, before 1970, after 2106) and the
    /// first second they can, a file removed (its rowids left unused) and
    /// one added after it.
    fn filled(index: &Index) {
        let dates = [
            "2026-01-15T09:30:00Z",
            "1969-07-20T20:17:00Z",
            "2200-01-01T00:00:00Z",
            "not a date",
            "1970-01-01T00:00:00Z",
        ];
        for (f, session) in ["alpha", "beta", "gamma"].iter().enumerate() {
            let source = format!("memory/episodes/{session}/ep-{f}.jsonl");
            let docs: Vec<Doc> = (0..400)
                .map(|i| doc(&source, format!("{session}#{i}"), "turn", dates[i % 5]))
                .collect();
            index.replace_source(&source, &docs).unwrap();
        }
        let note = "memory/knowledge/a.md";
        let notes: Vec<Doc> = (0..30)
            .map(|i| doc(note, format!("note:{i}"), "note", dates[0]))
            .collect();
        index.replace_source(note, &notes).unwrap();
        index
            .remove_source("memory/episodes/beta/ep-1.jsonl")
            .unwrap();
        let profile = "memory/personal/PROFILE.md";
        let fact = doc(profile, "fact:facts:1".into(), "fact", dates[0]);
        index.replace_source(profile, &[fact]).unwrap();
    }

    #[test]
    fn an_index_the_writer_built_agrees_and_its_stamps_read_as_the_ranking_reads_them() {
        let (_dir, home) = home();
        let index = Index::open(&home).unwrap();
        filled(&index);
        let audit = index.audit().unwrap();
        assert_eq!(audit.examples, Vec::<String>::new());
        assert_eq!(audit.problems, 0);
        assert_eq!(audit.counts["turn"], 800);
        assert_eq!(audit.counts["note"], 30);
        assert_eq!(audit.counts["fact"], 1);
        // The layout this check decodes is the one `rank::dense` reads.
        let conn = &*index.conn;
        let mut stats = index.doc_stats.borrow_mut();
        stats.check(conn).unwrap();
        let mut rows = conn.prepare("SELECT rowid, kind FROM docs").unwrap();
        let docs: Vec<(i64, String)> = rows
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(docs.iter().any(|(rowid, _)| *rowid >= 2 * STAMPS_PER_BLOCK));
        for (rowid, kind) in docs {
            let block: Vec<u8> = conn
                .query_row(
                    "SELECT data FROM stamps WHERE block = ?1",
                    [rowid / STAMPS_PER_BLOCK],
                    |r| r.get(0),
                )
                .unwrap();
            let at = (rowid % STAMPS_PER_BLOCK) as usize * STAMP_BYTES;
            let ours = Stamp::decode(&block[at..at + STAMP_BYTES]);
            let theirs = stats.stamp(conn, rowid).unwrap();
            match theirs {
                Some((name, seconds)) => {
                    assert_eq!(name, kind, "{rowid}");
                    assert_eq!(seconds, ours.seconds, "{rowid}");
                }
                None => assert_eq!(ours.seconds, 0, "{rowid}"),
            }
        }
    }

    #[test]
    fn damaged_rows_of_the_dense_tables_are_found() {
        for damage in [
            "UPDATE stamps SET data = substr(data, 1, 100) WHERE block = 1",
            "DELETE FROM stamps WHERE block = 2",
            // document 1's kind, then its session
            "UPDATE stamps SET data = CAST(substr(data, 1, 8) || x'3f' || substr(data, 10) AS BLOB) WHERE block = 0",
            "UPDATE stamps SET data = CAST(substr(data, 1, 13) || x'000000' || substr(data, 17) AS BLOB) WHERE block = 0",
            "UPDATE stamps SET data = 'text, not a blob' WHERE block = 0",
            "DELETE FROM kinds WHERE name = 'note'",
            "UPDATE kinds SET name = 'other' WHERE name = 'turn'",
            "DELETE FROM sessions WHERE name = 'gamma'",
            "UPDATE sessions SET id = id + 10 WHERE name = 'alpha'",
            "UPDATE sessions SET first = first + 5 WHERE name = 'alpha'",
            "UPDATE lengths SET data = x'07'",
            "DELETE FROM lengths",
        ] {
            let (_dir, home) = home();
            let index = Index::open(&home).unwrap();
            filled(&index);
            index
                .conn
                .execute_batch(damage)
                .unwrap_or_else(|e| panic!("{damage}: {e}"));
            let audit = index.audit().unwrap();
            assert!(audit.problems > 0, "{damage}: not found");
            let summary = audit.summary().unwrap();
            assert!(summary.contains("disagree"), "{damage}: {summary}");
            // Marked: the next open rebuilds it, and it agrees again.
            index.mark_damaged(&audit, &summary);
            assert_eq!(index.version().unwrap().as_deref(), Some(DAMAGED));
            drop(index);
            let index = Index::open(&home).unwrap();
            assert_eq!(
                index.version().unwrap().as_deref(),
                Some(super::super::index::SCHEMA_VERSION)
            );
            assert_eq!(index.audit().unwrap().problems, 0, "{damage}");
        }
    }
}
