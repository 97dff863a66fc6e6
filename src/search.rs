//! The search index: one SQLite FTS5 database (`index/search.db`) over episode
//! turns, knowledge notes and profile facts.
//!
//! The index is derived. Files are the truth; `rebuild` recreates the index
//! from them, and deleting `index/` loses nothing. Writers update the index
//! right after their file write, so whatever a call acknowledged is searchable
//! when it returns. Notes and PROFILE.md may be edited by hand: `search` stats
//! those files (a directory listing plus one `stat` per note) and re-extracts
//! the ones whose size or mtime changed. Keeping up with episode files, the
//! stale marker and healing a damaged database live in `health`.
//!
//! Ranking: the query is cut into words, stop words are dropped, and the rest
//! are OR-ed, so a natural-language question matches documents that share
//! some of its words; FTS5's BM25 (title ×2, tags ×1.5, body ×1) orders them,
//! then a small recency factor and a boost for curated kinds re-rank the best
//! candidates.

use crate::error::{Error, ErrorType, Result};
use crate::home::Home;

mod health;
pub use health::{Health, Lag, health, index_update_or_warn};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use std::collections::HashMap;
use std::path::Path;
use std::time::UNIX_EPOCH;

/// Bumped when the schema or the extraction changes; an older index is rebuilt.
const SCHEMA_VERSION: &str = "2";

/// What a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Turn,
    Note,
    Fact,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Turn, Kind::Note, Kind::Fact];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Turn => "turn",
            Kind::Note => "note",
            Kind::Fact => "fact",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// Curated memory outranks raw trajectory at equal relevance.
    fn boost(self) -> f64 {
        match self {
            Kind::Turn => 1.0,
            Kind::Note => 1.25,
            Kind::Fact => 1.4,
        }
    }
}

/// One searchable document.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub id: String,
    pub kind: Kind,
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
    /// Empty: every kind.
    pub kinds: Vec<Kind>,
    pub session: Option<String>,
    pub tag: Option<String>,
    /// Inclusive lower bound on `date` (RFC 3339 or a date prefix like 2026-01-31).
    pub since: Option<String>,
    /// Inclusive upper bound on `date` (a date prefix covers that whole day).
    pub until: Option<String>,
    pub limit: usize,
}

/// One ranked result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub id: String,
    pub kind: Kind,
    pub source: String,
    pub session: Option<String>,
    pub tags: Vec<String>,
    pub date: String,
    pub title: String,
    pub snippet: String,
    pub score: f64,
}

/// What `rebuild` indexed.
#[derive(Debug, Clone, Default)]
pub struct RebuildStats {
    pub turns: usize,
    pub notes: usize,
    pub facts: usize,
    pub files: usize,
    /// Files that could not be read or parsed (path, message); they are skipped.
    pub skipped: Vec<(String, String)>,
}

/// Turns one file of the home into documents: `(home, home-relative path, text)`.
pub type Extractor = fn(&Home, &str, &str) -> Result<Vec<Doc>>;

/// A family of files the index is derived from.
struct Family {
    /// Folder relative to the home.
    dir: &'static str,
    /// Whether files live one level down (`episodes/<session>/…`).
    nested: bool,
    /// Which files of the folder belong to the family.
    accept: fn(&str) -> bool,
    extract: Extractor,
    /// Hand edits are expected: `search` checks these files for changes.
    watched: bool,
    /// Files of a nested family that are appended to in place (the others are
    /// only created, renamed or removed); `search` stats these.
    growing: fn(&str) -> bool,
}

/// The file families, each with its tool's extractor. A tool that stores
/// searchable files adds its family here (one entry).
fn families() -> Vec<Family> {
    vec![
        Family {
            dir: "memory/episodes",
            nested: true,
            accept: |name| name.ends_with(".jsonl") && !name.starts_with('.'),
            extract: crate::tools::track::index_docs,
            watched: false,
            growing: |name| name.ends_with(".open.jsonl"),
        },
        Family {
            dir: "memory/knowledge",
            nested: false,
            accept: |name| name.ends_with(".md") && !name.starts_with('.'),
            extract: crate::tools::knowledge::index_docs,
            watched: true,
            growing: |_| false,
        },
        Family {
            dir: "memory/personal",
            nested: false,
            accept: |name| name == "PROFILE.md",
            extract: crate::tools::knowledge::profile::index_docs,
            watched: true,
            growing: |_| false,
        },
    ]
}

/// An open index.
pub struct Index<'h> {
    home: &'h Home,
    conn: Connection,
    /// The database file this connection opened (see `is_current`).
    file_id: Option<(u64, u64)>,
}

/// `detail.sqlite` classifies the failure (`corrupt`, `notadb`, `schema` mean
/// a damaged database, which is rebuilt on its own; see `health`).
fn db_error(e: rusqlite::Error) -> Error {
    Error::new(ErrorType::Io, format!("search index: {e}"))
        .with_hint("the index is derived and safe to rebuild: run `agentbox reindex`")
        .with_detail("sqlite", health::sqlite_class(&e))
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    session TEXT,
    tags TEXT NOT NULL,
    date TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_source ON docs(source);
CREATE INDEX IF NOT EXISTS docs_date ON docs(date);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title, body, tags,
    content='docs', content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS docs_ai AFTER INSERT ON docs BEGIN
    INSERT INTO fts(rowid, title, body, tags) VALUES (new.rowid, new.title, new.body, new.tags);
END;
CREATE TRIGGER IF NOT EXISTS docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO fts(fts, rowid, title, body, tags) VALUES ('delete', old.rowid, old.title, old.body, old.tags);
END;
CREATE TABLE IF NOT EXISTS sources(path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS dirs(path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL);
";

/// `(mtime in ns, size)` of a file, or `None` when it is gone.
fn stamp(path: &Path) -> Option<(i64, i64)> {
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0);
    Some((mtime, meta.len() as i64))
}

impl<'h> Index<'h> {
    /// Opens (creating or rebuilding when missing or outdated) the home's
    /// index, catching up with the files when a write left it stale. A
    /// damaged database is rebuilt from scratch once.
    pub fn open(home: &'h Home) -> Result<Index<'h>> {
        let open = || -> Result<Index<'h>> {
            let index = Index::connect(home)?;
            if index.version()?.as_deref() != Some(SCHEMA_VERSION) {
                // One process builds; the others wait on the lock and find it built.
                let _lock = home.store.lock("index")?;
                if index.version()?.as_deref() != Some(SCHEMA_VERSION) {
                    index.build()?;
                }
            }
            index.catch_up_if_marked()?;
            Ok(index)
        };
        let seen = health::file_id(&home.root.join("index").join("search.db"));
        match open() {
            Err(e) if health::is_damaged(&e) => Index::rebuild_damaged(home, seen),
            other => other,
        }
        .map_err(|e| health::diagnose(home, e))
    }

    /// Opens the database file without checking what it holds. Neither
    /// `index/` nor the database files may be symlinks (the store refuses).
    fn connect(home: &'h Home) -> Result<Index<'h>> {
        let dir = home.root.join("index");
        home.store.ensure_dir(&dir)?;
        health::check_db_files(home)?;
        let path = dir.join("search.db");
        let conn = Connection::open(&path).map_err(db_error)?;
        conn.busy_timeout(std::time::Duration::from_secs(30))
            .map_err(db_error)?;
        // WAL lets readers run beside one writer. Switching needs a lock, so
        // only a fresh database (not yet WAL) is switched; the busy timeout
        // covers the race when several processes create it at once.
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .map_err(db_error)?;
        if !mode.eq_ignore_ascii_case("wal") {
            retry_busy(|| conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)))
                .map_err(db_error)?;
        }
        // The index is derived, so it trades durability for speed: no fsync
        // on commit or checkpoint (synchronous=OFF). A killed process cannot
        // damage it (the OS still has every write); after a power loss a
        // damaged index is rebuilt with `agentbox reindex` and loses nothing.
        conn.execute_batch("PRAGMA synchronous=OFF;")
            .map_err(db_error)?;
        Ok(Index {
            home,
            conn,
            file_id: health::file_id(&path),
        })
    }

    fn version(&self) -> Result<Option<String>> {
        let exists: bool = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(db_error)?
            > 0;
        if !exists {
            return Ok(None);
        }
        self.conn
            .query_row("SELECT value FROM meta WHERE key='schema'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db_error)
    }

    /// Drops everything and indexes every file of every family.
    fn build(&self) -> Result<RebuildStats> {
        self.conn
            .execute_batch(
                "DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS sources;
                 DROP TABLE IF EXISTS meta;",
            )
            .map_err(db_error)?;
        self.conn.execute_batch(SCHEMA).map_err(db_error)?;
        let mut stats = RebuildStats::default();
        let tx = Tx::begin(&self.conn)?;
        for family in families() {
            for rel in family_files(self.home, &family) {
                let path = self.home.root.join(&rel);
                let docs = match self.home.store.read(&path) {
                    Ok(Some(text)) => (family.extract)(self.home, &rel, &text),
                    Ok(None) => continue,
                    Err(e) => Err(e),
                };
                match docs {
                    Ok(docs) => {
                        stats.files += 1;
                        for doc in &docs {
                            match doc.kind {
                                Kind::Turn => stats.turns += 1,
                                Kind::Note => stats.notes += 1,
                                Kind::Fact => stats.facts += 1,
                            }
                        }
                        self.insert(&docs)?;
                        self.record_source(&rel)?;
                    }
                    Err(e) => {
                        // Recorded all the same: the index is not behind a file
                        // it cannot use; a fix changes the stamp.
                        self.record_source(&rel)?;
                        stats.skipped.push((rel, e.message));
                    }
                }
            }
            if family.nested {
                self.record_dirs(&family)?;
            }
        }
        self.conn
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?1)",
                [SCHEMA_VERSION],
            )
            .map_err(db_error)?;
        tx.commit()?;
        // Fold the rebuild's WAL into the database now, so the next process
        // to open the index does not replay tens of megabytes of log.
        retry_busy(|| {
            self.conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        })
        .map_err(db_error)?;
        Ok(stats)
    }

    /// Inserts documents, replacing any with the same id (caller holds a transaction).
    fn insert(&self, docs: &[Doc]) -> Result<()> {
        let redactor = self.home.store.redactor();
        let mut delete = self
            .conn
            .prepare_cached("DELETE FROM docs WHERE id = ?1")
            .map_err(db_error)?;
        let mut insert = self
            .conn
            .prepare_cached(
                "INSERT INTO docs(id, kind, source, session, tags, date, title, body)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .map_err(db_error)?;
        for doc in docs {
            delete.execute([&doc.id]).map_err(db_error)?;
            let tags = redactor.redact(&doc.tags.join(" ")).into_owned();
            insert
                .execute(params![
                    doc.id,
                    doc.kind.as_str(),
                    doc.source,
                    doc.session,
                    tags,
                    doc.date,
                    redactor.redact(&doc.title),
                    redactor.redact(&doc.body),
                ])
                .map_err(db_error)?;
        }
        Ok(())
    }

    fn record_source(&self, rel: &str) -> Result<()> {
        match stamp(&self.home.root.join(rel)) {
            Some((mtime, size)) => self
                .conn
                .execute(
                    "INSERT OR REPLACE INTO sources(path, mtime_ns, size) VALUES (?1, ?2, ?3)",
                    params![rel, mtime, size],
                )
                .map(|_| ())
                .map_err(db_error),
            None => self.forget_source(rel),
        }
    }

    fn forget_source(&self, rel: &str) -> Result<()> {
        self.conn
            .execute("DELETE FROM sources WHERE path = ?1", [rel])
            .map(|_| ())
            .map_err(db_error)
    }

    /// Adds (or replaces, by id) documents.
    pub fn add(&self, docs: &[Doc]) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.insert(docs)?;
        tx.commit()
    }

    /// Replaces every document of `source` with `docs` and records the file's stamp.
    pub fn replace_source(&self, source: &str, docs: &[Doc]) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.conn
            .execute("DELETE FROM docs WHERE source = ?1", [source])
            .map_err(db_error)?;
        self.insert(docs)?;
        self.record_source(source)?;
        tx.commit()
    }

    /// Removes every document of `source`.
    pub fn remove_source(&self, source: &str) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.conn
            .execute("DELETE FROM docs WHERE source = ?1", [source])
            .map_err(db_error)?;
        self.forget_source(source)?;
        tx.commit()
    }

    /// Re-extracts watched files (notes, PROFILE.md) that changed on disk since
    /// they were indexed, and drops the ones that are gone; catches up with
    /// episode files a crashed writer left behind, and with every file when
    /// a write marked the index stale.
    fn refresh(&self) -> Result<()> {
        self.catch_up_if_marked()?;
        for family in families().into_iter().filter(|f| f.nested && !f.watched) {
            self.refresh_nested(&family)?;
        }
        for family in families().into_iter().filter(|f| f.watched) {
            // Only this family's stamps: episode files can number in the thousands.
            let prefix = format!("{}/", family.dir);
            let mut known: HashMap<String, (i64, i64)> = HashMap::new();
            {
                let mut stmt = self
                    .conn
                    .prepare_cached(
                        "SELECT path, mtime_ns, size FROM sources WHERE substr(path, 1, ?2) = ?1",
                    )
                    .map_err(db_error)?;
                let rows = stmt
                    .query_map(params![prefix, prefix.len() as i64], |r| {
                        Ok((r.get::<_, String>(0)?, (r.get(1)?, r.get(2)?)))
                    })
                    .map_err(db_error)?;
                for row in rows {
                    let (path, stamp) = row.map_err(db_error)?;
                    known.insert(path, stamp);
                }
            }
            let files = family_files(self.home, &family);
            for rel in &files {
                let Some(now) = stamp(&self.home.root.join(rel)) else {
                    continue;
                };
                if known.get(rel) == Some(&now) {
                    continue;
                }
                // Unreadable or unparsable: index nothing from it until it is fixed.
                let docs = match self.home.store.read(&self.home.root.join(rel)) {
                    Ok(Some(text)) => (family.extract)(self.home, rel, &text).unwrap_or_default(),
                    _ => Vec::new(),
                };
                self.replace_source(rel, &docs)?;
            }
            for path in known.keys() {
                if !files.contains(path) {
                    self.remove_source(path)?;
                }
            }
        }
        Ok(())
    }

    /// Ranked documents for a query; hand-edited notes and facts are refreshed
    /// first. A damaged database is rebuilt from the files once, then queried.
    pub fn search(&mut self, query: &Query) -> Result<Vec<Hit>> {
        match self.search_once(query) {
            Err(e) if health::is_damaged(&e) => {
                *self = Index::rebuild_damaged(self.home, self.file_id)
                    .map_err(|e| health::diagnose(self.home, e))?;
                self.search_once(query)
            }
            other => other,
        }
    }

    fn search_once(&self, query: &Query) -> Result<Vec<Hit>> {
        self.refresh()?;
        let terms = query_terms(&query.text);
        if terms.is_empty() || query.limit == 0 {
            return Ok(Vec::new());
        }
        let fts = terms
            .iter()
            .map(|t| format!("\"{t}\""))
            .collect::<Vec<_>>()
            .join(" OR ");
        let filtered = !query.kinds.is_empty()
            || query.session.is_some()
            || query.tag.is_some()
            || query.since.is_some()
            || query.until.is_some();
        let wanted = (query.limit * 4).max(40);
        // Rank inside FTS5 alone (no join, no document text): that is what
        // keeps a query over 100k documents in milliseconds. With filters,
        // over-fetch and filter the candidates; fall back to a filtered join
        // when that leaves too few.
        let mut found = self.rank_candidates(&fts, if filtered { wanted * 8 } else { wanted })?;
        if filtered {
            found.retain(|row| passes(row, query));
            if found.len() < query.limit {
                found = self.rank_candidates_filtered(&fts, query, wanted)?;
            }
        }
        found.truncate(wanted);
        let newest = found
            .iter()
            .map(|r| r.5.as_str())
            .max()
            .unwrap_or("")
            .to_string();
        let mut hits: Vec<Hit> = found
            .into_iter()
            .map(
                |Row(id, kind, source, session, tags, date, title, body, rank)| {
                    let kind = Kind::parse(&kind).unwrap_or(Kind::Turn);
                    let relevance = -rank;
                    let score = relevance * kind.boost() * (1.0 + 0.2 * recency(&date, &newest));
                    Hit {
                        snippet: snippet(&body, &terms),
                        id,
                        kind,
                        source,
                        session,
                        tags: tags.split_whitespace().map(str::to_string).collect(),
                        date,
                        title,
                        score,
                    }
                },
            )
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| b.date.cmp(&a.date))
        });
        hits.truncate(query.limit);
        Ok(hits)
    }

    /// The best `limit` documents for an FTS5 expression, ranked by BM25.
    fn rank_candidates(&self, fts: &str, limit: usize) -> Result<Vec<Row>> {
        let ranked: Vec<(i64, f64)> = {
            let mut stmt = self
                .conn
                .prepare_cached(
                    "SELECT rowid, bm25(fts, 2.0, 1.0, 1.5) AS r FROM fts WHERE fts MATCH ?1
                     ORDER BY r LIMIT ?2",
                )
                .map_err(db_error)?;
            let rows = stmt
                .query_map(params![fts, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(db_error)?;
            rows.collect::<rusqlite::Result<_>>().map_err(db_error)?
        };
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT id, kind, source, session, tags, date, title, body FROM docs WHERE rowid = ?1",
            )
            .map_err(db_error)?;
        let mut out = Vec::with_capacity(ranked.len());
        for (rowid, rank) in ranked {
            let row = stmt
                .query_row([rowid], |r| {
                    Ok(Row(
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                        rank,
                    ))
                })
                .optional()
                .map_err(db_error)?;
            out.extend(row);
        }
        Ok(out)
    }

    /// Like `rank_candidates`, with the query's filters applied inside SQLite.
    fn rank_candidates_filtered(&self, fts: &str, query: &Query, limit: usize) -> Result<Vec<Row>> {
        let mut sql = String::from(
            "SELECT d.id, d.kind, d.source, d.session, d.tags, d.date, d.title, d.body,
                    bm25(fts, 2.0, 1.0, 1.5) AS rank
             FROM fts JOIN docs d ON d.rowid = fts.rowid
             WHERE fts MATCH ?1",
        );
        let mut args: Vec<String> = vec![fts.to_string()];
        if !query.kinds.is_empty() {
            let marks: Vec<String> = query
                .kinds
                .iter()
                .map(|k| {
                    args.push(k.as_str().to_string());
                    format!("?{}", args.len())
                })
                .collect();
            sql.push_str(&format!(" AND d.kind IN ({})", marks.join(", ")));
        }
        if let Some(session) = &query.session {
            args.push(session.clone());
            sql.push_str(&format!(" AND d.session = ?{}", args.len()));
        }
        if let Some(tag) = &query.tag {
            args.push(format!(" {} ", tag.to_lowercase()));
            sql.push_str(&format!(
                " AND (' ' || lower(d.tags) || ' ') LIKE '%' || ?{} || '%'",
                args.len()
            ));
        }
        if let Some(since) = &query.since {
            args.push(since.clone());
            sql.push_str(&format!(" AND d.date >= ?{}", args.len()));
        }
        if let Some(until) = &query.until {
            args.push(until_bound(until));
            sql.push_str(&format!(" AND d.date <= ?{}", args.len()));
        }
        sql.push_str(&format!(" ORDER BY rank LIMIT {limit}"));
        let mut stmt = self.conn.prepare_cached(&sql).map_err(db_error)?;
        let rows = stmt
            .query_map(params_from_iter(args.iter()), |r| {
                Ok(Row(
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                ))
            })
            .map_err(db_error)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db_error)
    }

    /// Documents per kind.
    pub fn counts(&self) -> Result<HashMap<Kind, usize>> {
        let mut stmt = self
            .conn
            .prepare("SELECT kind, count(*) FROM docs GROUP BY kind")
            .map_err(db_error)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .map_err(db_error)?;
        let mut counts = HashMap::new();
        for row in rows {
            let (kind, n) = row.map_err(db_error)?;
            if let Some(kind) = Kind::parse(&kind) {
                counts.insert(kind, n as usize);
            }
        }
        Ok(counts)
    }
}

/// A write transaction taken up front (`BEGIN IMMEDIATE`), so a writer waits
/// for the lock at the start instead of failing when it upgrades a read.
/// Rolled back on drop unless committed.
struct Tx<'c> {
    conn: &'c Connection,
    done: bool,
}

impl<'c> Tx<'c> {
    fn begin(conn: &'c Connection) -> Result<Tx<'c>> {
        retry_busy(|| conn.execute_batch("BEGIN IMMEDIATE")).map_err(db_error)?;
        Ok(Tx { conn, done: false })
    }

    fn commit(mut self) -> Result<()> {
        self.done = true;
        retry_busy(|| self.conn.execute_batch("COMMIT")).map_err(db_error)
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

/// Retries an operation SQLite refused as busy or locked, for up to 30 s.
/// (The busy handler does not cover every case, e.g. WAL recovery.)
fn retry_busy<T>(mut op: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut pause = std::time::Duration::from_millis(1);
    loop {
        match op() {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(
                    e.code,
                    rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

/// A score kept to 4 significant digits for output: short, yet a small
/// positive score (one document in a tiny home) never reads as 0.
pub fn round_score(score: f64) -> f64 {
    if score == 0.0 || !score.is_finite() {
        return 0.0;
    }
    format!("{score:.3e}").parse().unwrap_or(score)
}

/// A `--since`/`--until` value for `Query`: RFC 3339 (normalized to UTC) or
/// a plain date (`2026-01-31`, which `until` extends over the whole day).
pub fn date_bound(flag: &str, value: &str) -> Result<String> {
    if let Ok(ts) = chrono::DateTime::parse_from_rfc3339(value) {
        return Ok(ts
            .with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    }
    if chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok() {
        return Ok(value.to_string());
    }
    Err(Error::invalid_args(format!(
        "{flag} {} is not a date",
        serde_json::Value::from(value)
    ))
    .with_hint("use RFC 3339 (2026-01-31T09:00:00Z) or a date (2026-01-31)")
    .with_detail("flag", flag))
}

/// A candidate: id, kind, source, session, tags, date, title, body, BM25 rank.
struct Row(
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    String,
    String,
    f64,
);

/// The inclusive upper bound for `until`: a bare date covers that whole day.
fn until_bound(until: &str) -> String {
    if until.len() == 10 {
        format!("{until}T23:59:59Z~")
    } else {
        until.to_string()
    }
}

/// Whether a candidate passes the query's filters (the same rules as the SQL).
fn passes(row: &Row, query: &Query) -> bool {
    let Row(_, kind, _, session, tags, date, ..) = row;
    (query.kinds.is_empty() || query.kinds.iter().any(|k| k.as_str() == kind))
        && query
            .session
            .as_ref()
            .is_none_or(|s| session.as_deref() == Some(s.as_str()))
        && query.tag.as_ref().is_none_or(|t| {
            tags.to_lowercase()
                .split_whitespace()
                .any(|x| x == t.to_lowercase())
        })
        && query
            .since
            .as_ref()
            .is_none_or(|s| date.as_str() >= s.as_str())
        && query
            .until
            .as_ref()
            .is_none_or(|u| date.as_str() <= until_bound(u).as_str())
}

/// Rebuilds the index from the files (`agentbox reindex`): deletes the
/// database, whatever state it is in, and builds a new one, under the
/// `index` lock.
pub fn rebuild(home: &Home) -> Result<RebuildStats> {
    let build = || -> Result<RebuildStats> {
        let _lock = home.store.lock("index")?;
        Index::rebuild_locked(home).map(|(_, stats)| stats)
    };
    build().map_err(|e| health::diagnose(home, e))
}

/// Home-relative paths of a family's files, sorted.
fn family_files(home: &Home, family: &Family) -> Vec<String> {
    let mut files = Vec::new();
    let root = home.root.join(family.dir);
    let mut dirs = vec![(root, family.dir.to_string())];
    if family.nested {
        dirs = std::fs::read_dir(home.root.join(family.dir))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        (e.path(), format!("{}/{name}", family.dir))
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
            if (family.accept)(&name) && entry.file_type().is_ok_and(|t| t.is_file()) {
                files.push(format!("{rel}/{name}"));
            }
        }
    }
    files.sort();
    files
}

/// 1.0 for the newest candidate, halving every 30 days before it.
fn recency(date: &str, newest: &str) -> f64 {
    let parse = |s: &str| chrono::DateTime::parse_from_rfc3339(s).ok();
    match (parse(date), parse(newest)) {
        (Some(d), Some(n)) => {
            let days = (n - d).num_seconds().max(0) as f64 / 86_400.0;
            0.5f64.powf(days / 30.0)
        }
        _ => 0.0,
    }
}

/// Words that carry no meaning for retrieval (questions are full of them).
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had",
    "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in",
    "into", "is", "it", "its", "itself", "just", "me", "might", "more", "most", "must", "my",
    "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our",
    "ours", "out", "over", "own", "please", "same", "she", "should", "so", "some", "such", "than",
    "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "us", "very", "was", "we", "were", "what",
    "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you",
    "your", "yours", "yourself", "tell", "know", "remember", "recall", "again", "ever", "also",
    "get", "got", "use", "used", "using", "way", "ways", "thing", "things", "like", "want", "need",
    "s", "t", "d", "ll", "re", "ve", "m", "don", "doesn", "didn",
];

/// The query's content words: lowercased, stop words dropped, deduplicated.
/// A query of only stop words keeps them, so it still finds something.
pub fn query_terms(text: &str) -> Vec<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut terms: Vec<String> = Vec::new();
    for w in words.iter().filter(|w| !STOP_WORDS.contains(&w.as_str())) {
        if !terms.contains(w) {
            terms.push(w.clone());
        }
    }
    if terms.is_empty() {
        for w in words {
            if !terms.contains(&w) {
                terms.push(w);
            }
        }
    }
    terms.truncate(32);
    terms
}

/// About 160 characters of `body` around the first query word it contains.
fn snippet(body: &str, terms: &[String]) -> String {
    const WIDTH: usize = 160;
    let flat: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= WIDTH {
        return flat;
    }
    let lower = flat.to_lowercase();
    let at = terms
        .iter()
        .filter_map(|t| {
            let stem: String = t.chars().take(5).collect();
            lower.find(&stem)
        })
        .min()
        .unwrap_or(0);
    // `lower` and `flat` can differ in byte length for some scripts; stay on char boundaries of `flat`.
    let start_char = flat[..at.min(flat.len())]
        .chars()
        .count()
        .saturating_sub(40);
    let text: String = flat.chars().skip(start_char).take(WIDTH).collect();
    let mut out = String::new();
    if start_char > 0 {
        out.push('…');
    }
    out.push_str(&text);
    if start_char + WIDTH < flat.chars().count() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_lose_their_stop_words() {
        assert_eq!(
            query_terms("How should I format Go code?"),
            ["format", "go", "code"]
        );
        assert_eq!(query_terms("what is it"), ["what", "is", "it"]);
        assert_eq!(query_terms("  "), Vec::<String>::new());
        assert_eq!(query_terms("Rust rust RUST"), ["rust"]);
    }

    #[test]
    fn snippets_centre_on_a_match() {
        let body = format!(
            "{} the deploy key rotates weekly {}",
            "x ".repeat(200),
            "y ".repeat(200)
        );
        let s = snippet(&body, &["deploy".to_string()]);
        assert!(s.contains("deploy key rotates"), "{s}");
        assert!(s.starts_with('…') && s.ends_with('…'));
        assert_eq!(snippet("short text", &[]), "short text");
    }

    #[test]
    fn recency_halves_every_thirty_days() {
        assert_eq!(recency("2026-01-31T00:00:00Z", "2026-01-31T00:00:00Z"), 1.0);
        let r = recency("2026-01-01T00:00:00Z", "2026-01-31T00:00:00Z");
        assert!((r - 0.5).abs() < 1e-9, "{r}");
        assert_eq!(recency("bad", "2026-01-31T00:00:00Z"), 0.0);
    }
}
