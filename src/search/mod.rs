//! Search: one SQLite FTS5 index over whatever the tools declare searchable.
//!
//! The index is derived. Files are the truth; `rebuild` recreates the index
//! from them, and deleting `index/` loses nothing. Writers update the index
//! right after their file write, so whatever a call acknowledged is searchable
//! when it returns. Hand edits to watched files (notes, PROFILE.md) are picked
//! up by `search` itself.
//!
//! This module knows no tool. A tool declares its [`Source`]s (folder, file
//! filter, extractor, kind name, ranking boost) in its registry entry; the
//! program installs them once at start-up ([`install_sources`]).
//!
//! - `index`: the database (schema, writes, build, refresh, ranked queries).
//! - `db`: the SQLite connection, its transactions, and the error a failure
//!   becomes (whether it means the database is damaged).
//! - `disk`: the index's folder, its database files and the stale marker.
//! - `session`: what the index keeps with a home between calls (its kept
//!   connection, memory_mcp's writer thread) and the home's part in a group
//!   commit; every open of the index goes through it.
//! - `group`, `worker`: group commits and memory_mcp's index writer thread.
//! - `fold`: merging the small FTS5 segments a writing session leaves.
//! - `health`: keeping the index in step with its files and healing it
//!   (stale marker, crashed writers, damaged databases, doctor's check).
//! - `consistency`: whether the dense tables (`stamps`, `kinds`,
//!   `sessions`, `lengths`) agree with the documents (doctor's check).
//! - `sources`: the installed sources and the files each one covers.
//! - `filtered`: searches with filters (kind, session, tag, dates).
//! - `hits`: ranked rowids to hits (re-rank by kind and date, then read).
//! - `rank`: the ranking pass (BM25 over the selective words' postings).
//! - `ranking`: BM25 × kind boost × recency, normalised to a 0–1 relevance.
//! - `query`: query words, stop words, snippets, date bounds.
//! - `question`: the time a query names and whether it asks when.
//! - `cli`: the one `SearchArgs` and hit renderer every search verb shares.
//! - `activity`: documents of a kind per day and session, from `stamps`.

mod activity;
pub mod cli;
mod consistency;
mod db;
mod disk;
mod filtered;
mod fold;
mod group;
mod health;
mod hits;
mod index;
mod nested;
mod query;
mod question;
mod rank;
mod ranking;
mod session;
mod sources;
mod worker;
mod write;

pub use activity::{Activity, SessionDays};
pub use db::long_lived;
pub use disk::is_marked;
pub use fold::{Folded, fold_segments};
pub use group::{finish_group, settle};
pub use health::{Health, Lag, health, index_update_or_warn, not_indexed};
pub use index::{Index, leave_at_exit, rebuild};
pub use query::{date_bound, query_terms};
pub use question::{Asked, ask};
pub use sources::{Extractor, LineDocs, LineExtractor, Source, install_sources, kinds};
pub use worker::{begin_group, end_group, index_appended, index_later};

use std::collections::BTreeMap;

/// One searchable document.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub id: String,
    /// The kind name of the source that produced it (`turn`, `note`, …).
    pub kind: &'static str,
    /// Home-relative path of the file it came from.
    pub source: String,
    pub session: Option<String>,
    pub tags: Vec<String>,
    /// RFC 3339 UTC.
    pub date: String,
    pub title: String,
    pub body: String,
}

/// A search request.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub text: String,
    /// Kind names; empty: every kind.
    pub kinds: Vec<String>,
    pub session: Option<String>,
    pub tag: Option<String>,
    /// Inclusive lower bound on `date` (RFC 3339 or a date prefix like 2026-01-31).
    pub since: Option<String>,
    /// Inclusive upper bound on `date` (a date prefix covers that whole day).
    pub until: Option<String>,
    pub limit: usize,
    /// What "yesterday" and "last week" in the text count back from (the
    /// wall clock when `None`).
    pub now: Option<crate::clock::Time>,
    /// Say why each hit ranked where it did ([`Hit::why`]).
    pub explain: bool,
}

/// One ranked result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub id: String,
    pub kind: String,
    pub source: String,
    pub session: Option<String>,
    pub tags: Vec<String>,
    pub date: String,
    pub title: String,
    pub snippet: String,
    /// Relevance in (0, 1], relative to the best hit of the query (which is
    /// 1.0), two decimals. See `ranking`.
    pub score: f64,
    /// Why it ranked where it did, when the query asked ([`Query::explain`]).
    pub why: Option<Why>,
}

/// What a search found ([`Index::find`]): its hits, in which order, and
/// what `--explain` says of the query as a whole.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// How `hits` are ordered.
    pub order: Order,
    /// With [`Query::explain`]: the query words read as names and what
    /// each weighed (none for a list of what was said in a time: no word
    /// ranked it).
    pub names: Option<Vec<Named>>,
}

/// The order of a search's hits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// By relevance, the best first: the ranking.
    #[default]
    Best,
    /// By the time said, the newest first: the question named a time and
    /// no other word, or its words found nothing, and the hits are what was
    /// said in that time (each of relevance 1).
    Newest,
}

impl Order {
    /// Its name in JSON: `best`, `newest`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Best => "best",
            Order::Newest => "newest",
        }
    }

    /// How a heading says it: "best first", "newest first".
    pub fn first(self) -> &'static str {
        match self {
            Order::Best => "best first",
            Order::Newest => "newest first",
        }
    }
}

/// A query word read as a name (`question::names_in`: "Caroline" in "What
/// did Caroline say?") and what the ranking weighed it as: BM25 weighs a
/// word by the share of the documents that hold it, and a name at most as
/// a word in a quarter of them (`rank::NAMED`).
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The word, lowercased as query words are.
    pub word: String,
    /// The share of the documents that hold it (estimated, as the ranking
    /// estimates it, past a few hundred).
    pub share: f64,
    /// The share it was weighed as: `share`, or the cap when less.
    pub weighed: f64,
}

/// What made a hit's score: the two ranking stages (`rank`, `rank::context`)
/// and the re-rank (`ranking`). The score before normalisation is
/// `context` (or `words`) × every factor.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Why {
    /// BM25 of the document's own words (0: none of them matched; it came
    /// with a neighbouring turn).
    pub words: f64,
    /// BM25 with the words of the turns around it as its own, for a turn
    /// of a session.
    pub context: Option<f64>,
    /// A turn that ends with a question (× `rank::ASKING`).
    pub asks: bool,
    /// Dated in the window the query names (× `rank::IN_WINDOW`).
    pub in_window: bool,
    /// It says when, and the query asks when (× `rank::SAYS_WHEN`).
    pub says_when: bool,
    /// The kind's boost (1.0 neutral) and the recency factor (1.0–1.2).
    pub boost: f64,
    pub recency: f64,
}

/// What `rebuild` indexed.
#[derive(Debug, Clone, Default)]
pub struct RebuildStats {
    /// Documents per kind name.
    pub kinds: BTreeMap<&'static str, usize>,
    pub files: usize,
    /// Files that could not be read or parsed (path, message), and lines of
    /// JSONL files (`path:line`, message); they are skipped.
    pub skipped: Vec<(String, String)>,
}

impl RebuildStats {
    /// Documents of one kind.
    pub fn count(&self, kind: &str) -> usize {
        self.kinds.get(kind).copied().unwrap_or(0)
    }
}
