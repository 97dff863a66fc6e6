//! The SQLite FTS5 database behind search (`index/search.db`).
//!
//! Writers update it right after their file write; `build` recreates it from
//! the registered sources; `refresh` re-extracts watched files that changed
//! on disk (a directory listing plus one `stat` per file).

use super::db::{self, ReadTx, Tx, db_error, is_damaged, retry_busy};
use super::disk::{check_db_files, diagnose, file_id};
use super::rank;
use super::session::Session;
use super::sources::{self, LineExtractor};
use super::{Doc, Found, Hit, Order, Query, RebuildStats};
use crate::error::{Error, Result};
use crate::home::Home;
use rusqlite::{Connection, OptionalExtension};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::UNIX_EPOCH;

/// Bumped when the schema or the extraction changes; an older index is rebuilt.
pub(super) const SCHEMA_VERSION: &str = "9";

/// Older versions brought up to date in place (`Index::bring_up`), which
/// differ only in what `stamps` holds (schema 9 added what a document's
/// text is like, `rank::flags`; 8 the session) and `sessions`; 6 also
/// lacks `dirs_mtime` (`nested::Index::recorded_dirs`);
/// 5 also stored document lengths differently (`rank::repack_lengths`) and
/// had an index on `docs.date`.
const IN_PLACE_FROM: [&str; 4] = ["8", "7", "6", "5"];

/// Documents from which a full build ends by merging FTS5's segments.
const OPTIMIZE_FROM: usize = 100_000;

/// An open index.
#[derive(Debug)]
pub struct Index<'h> {
    pub(super) home: &'h Home,
    pub(super) conn: Pooled,
    /// The database file this connection opened (see `is_current`).
    pub(super) file_id: Option<(u64, u64)>,
    /// When this connection last looked for files a crashed writer left
    /// unindexed (see `refresh`).
    pub(super) nested_checked: std::cell::Cell<Option<std::time::Instant>>,
    /// Document lengths, kinds and dates kept between queries (see
    /// `rank::DocStats`).
    pub(super) doc_stats: std::cell::RefCell<rank::DocStats>,
}

/// How often a long-lived index (memory_mcp's) looks for episode turns a
/// crashed writer never indexed: writers through agentbox update the index
/// themselves, so this only bounds how late such turns show up.
const NESTED_CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    file INTEGER NOT NULL,
    session TEXT,
    tags TEXT NOT NULL,
    date TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_file ON docs(file);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    title, body, tags,
    content='docs', content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS sources(
    path TEXT PRIMARY KEY,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    growing INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sources_growing ON sources(path) WHERE growing = 1;
CREATE TABLE IF NOT EXISTS dirs(path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS dirs_mtime ON dirs(mtime_ns);
CREATE TABLE IF NOT EXISTS lengths(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS stamps(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS kinds(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS sessions(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    first INTEGER NOT NULL,
    last INTEGER NOT NULL
);
";

/// `(mtime in ns, size)` of a file, or `None` when it is gone.
pub(super) fn stamp(path: &Path) -> Option<(i64, i64)> {
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
        // Whatever the index writer thread was sent is committed first.
        let session = Session::of(home);
        session.barrier();
        let open = || -> Result<Index<'h>> {
            let index = match Index::pooled(home) {
                Some(index) => index,
                None => Index::connect(home)?,
            };
            session.guard(&index.conn, || {
                if index.version()?.as_deref() != Some(SCHEMA_VERSION) {
                    // One process builds; the others wait on the lock and find it built.
                    let _lock = home.store.lock("index")?;
                    match index.version()?.as_deref() {
                        Some(SCHEMA_VERSION) => {}
                        Some(old) if IN_PLACE_FROM.contains(&old) => index.bring_up(old)?,
                        _ => {
                            index.build()?;
                        }
                    }
                }
                index.catch_up_if_marked()
            })?;
            Ok(index)
        };
        let seen = file_id(&home.root.join("index").join("search.db"));
        match open() {
            Err(e) if is_damaged(&e) => Index::rebuild_damaged(home, seen),
            other => other,
        }
        .map_err(|e| diagnose(home, e))
    }

    /// Opens the database file without checking what it holds. Neither
    /// `index/` nor the database files may be symlinks (the store refuses).
    pub(super) fn connect(home: &'h Home) -> Result<Index<'h>> {
        let dir = home.root.join("index");
        home.store.ensure_dir(&dir)?;
        check_db_files(home)?;
        let path = dir.join("search.db");
        let conn = db::open(&path).map_err(db_error)?;
        Ok(Index {
            home,
            conn: Pooled(Some(conn)),
            file_id: file_id(&path),
            nested_checked: std::cell::Cell::new(None),
            doc_stats: Default::default(),
        })
    }

    /// The connection an earlier `Index` of this home left in its pool,
    /// when it still opens the current database file.
    fn pooled(home: &'h Home) -> Option<Index<'h>> {
        let mut index = Index::from_pool(home)?;
        if index.is_current() {
            return Some(index);
        }
        index.file_id = None; // not pooled again: it opened a replaced file
        None
    }

    /// The connection the home's session kept, whatever file it opened.
    pub(super) fn from_pool(home: &'h Home) -> Option<Index<'h>> {
        let (conn, file_id, doc_stats) = Session::of(home).take_kept()?;
        Some(Index {
            home,
            conn: Pooled(Some(conn)),
            file_id,
            nested_checked: std::cell::Cell::new(None),
            doc_stats: std::cell::RefCell::new(doc_stats),
        })
    }

    pub(super) fn version(&self) -> Result<Option<String>> {
        // Cached: memory_mcp's index writer opens the index for every job.
        // One statement when `meta` is there (every call but the first):
        // only when it fails to prepare is the schema asked whether the
        // table exists at all.
        match self
            .conn
            .prepare_cached("SELECT value FROM meta WHERE key='schema'")
        {
            Ok(mut stmt) => stmt
                .query_row([], |r| r.get(0))
                .optional()
                .map_err(db_error),
            Err(e) => {
                let exists: bool = self
                    .conn
                    .query_row(
                        "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'",
                        [],
                        |r| r.get::<_, i64>(0),
                    )
                    .map_err(db_error)?
                    > 0;
                if exists { Err(db_error(e)) } else { Ok(None) }
            }
        }
    }

    /// Drops everything and indexes every file of every family.
    pub(super) fn build(&self) -> Result<RebuildStats> {
        self.conn
            .execute_batch(
                "DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS sources;
                 DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS lens;
                 DROP TABLE IF EXISTS lengths;
                 DROP TABLE IF EXISTS stamps; DROP TABLE IF EXISTS kinds;
                 DROP TABLE IF EXISTS sessions;
                 DROP TABLE IF EXISTS meta;",
            )
            .map_err(db_error)?;
        self.doc_stats.borrow_mut().clear();
        // A build writes the whole index and comes back to its pages: SQLite's
        // default page cache (2 MB), not the one-shot calls' 64 KB (`db::open`),
        // with which a 1M-turn reindex took 15-18 s instead of 12-14 s.
        self.conn
            .execute_batch("PRAGMA cache_size=-2000;")
            .map_err(db_error)?;
        self.conn.execute_batch(SCHEMA).map_err(db_error)?;
        let mut stats = RebuildStats::default();
        let tx = Tx::begin(&self.conn)?;
        // Listed first, so that the progress bar knows the count.
        let listed: Vec<(&sources::Source, Vec<String>)> = sources::all()?
            .iter()
            .map(|&source| (source, sources::files(self.home, source)))
            .collect();
        let total = listed.iter().map(|(_, files)| files.len() as u64).sum();
        let mut progress = crate::output::progress_bar(total, "indexing files");
        for (source, files) in listed {
            for rel in files {
                progress.inc(1);
                // Stamped before it is read: see `replace_source_at`.
                let now = stamp(&self.home.root.join(&rel));
                let docs = match read_docs(self.home, source, &rel, &mut stats.skipped) {
                    Ok(Some(docs)) => Ok(docs),
                    Ok(None) => continue,
                    Err(e) => Err(e),
                };
                match docs {
                    Ok(docs) => {
                        stats.files += 1;
                        for doc in &docs {
                            *stats.kinds.entry(doc.kind).or_default() += 1;
                        }
                        self.insert(&docs)?;
                        self.record_source_at(&rel, now)?;
                    }
                    Err(e) => {
                        // Recorded all the same: the index is not behind a file
                        // it cannot use; a fix changes the stamp.
                        self.record_source_at(&rel, now)?;
                        stats.skipped.push((rel, e.message));
                    }
                }
            }
            if source.nested {
                self.record_dirs(source)?;
            }
        }
        // One FTS5 segment instead of the ~15 a big build leaves: each query
        // word then seeks once, not once per segment (2 s at 1M turns). The
        // old segments' pages stay in the file as free pages, a few percent
        // of a big index but a fifth of a small one, which gains little.
        if stats.kinds.values().sum::<usize>() >= OPTIMIZE_FROM {
            self.conn
                .execute("INSERT INTO fts(fts) VALUES ('optimize')", [])
                .map_err(db_error)?;
        }
        self.mark_built()?;
        tx.commit()?;
        // Fold the rebuild's WAL into the database now, so the next process
        // to open the index does not replay tens of megabytes of log.
        self.checkpoint()?;
        Ok(stats)
    }

    /// Brings an index of a version in [`IN_PLACE_FROM`] to this one in
    /// place, in one transaction: `SCHEMA` adds what it lacks, `stamps` and
    /// `sessions` are written anew from `docs` (`rank::restamp`), and a
    /// schema-5 index's lengths are repacked.
    fn bring_up(&self, from: &str) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.conn.execute_batch(SCHEMA).map_err(db_error)?;
        if from == "5" {
            rank::repack_lengths(&self.conn).map_err(db_error)?;
            // No query used it (date filters apply to FTS5's matches), and
            // every insert paid for it.
            self.conn
                .execute_batch("DROP INDEX IF EXISTS docs_date")
                .map_err(db_error)?;
        }
        rank::restamp(&self.conn).map_err(db_error)?;
        self.mark_built()?;
        tx.commit()?;
        self.doc_stats.borrow_mut().clear();
        self.checkpoint()
    }

    /// Records this schema version, and tells other connections' kept
    /// document facts that every block changed (a new `built`).
    fn mark_built(&self) -> Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?1)",
                [SCHEMA_VERSION],
            )
            .map_err(db_error)?;
        let built = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        self.conn
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('built', ?1)",
                [built],
            )
            .map_err(db_error)?;
        Ok(())
    }

    fn checkpoint(&self) -> Result<()> {
        retry_busy(|| {
            self.conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        })
        .map_err(db_error)
    }

    /// Re-extracts watched files (notes, PROFILE.md) that changed on disk since
    /// they were indexed, and drops the ones that are gone; catches up with
    /// episode files a crashed writer left behind, and with every file when
    /// a write marked the index stale.
    pub(super) fn refresh(&self) -> Result<()> {
        self.catch_up_if_marked()?;
        let due = self
            .nested_checked
            .get()
            .is_none_or(|at| at.elapsed() >= NESTED_CHECK_EVERY);
        if due {
            for source in sources::all()?.iter().filter(|s| s.nested && !s.watched) {
                self.refresh_nested(source)?;
            }
            self.nested_checked.set(Some(std::time::Instant::now()));
        }
        for source in sources::all()?.iter().filter(|s| s.watched) {
            // Only this source's stamps: episode files can number in the thousands.
            let prefix = format!("{}/", source.dir);
            let known = self.known_sources(&prefix)?;
            let files = sources::files(self.home, source);
            for rel in &files {
                let Some(now) = stamp(&self.home.root.join(rel)) else {
                    continue;
                };
                if known.get(rel) == Some(&now) {
                    continue;
                }
                self.reextract_from(source, rel)?;
            }
            for path in known.keys() {
                if !files.contains(path) {
                    self.remove_source(path)?;
                }
            }
        }
        Ok(())
    }

    /// For a long-lived process (memory_mcp): keeps every document's
    /// length in memory between queries (under 1 MB per million
    /// documents), and the kinds, dates and sessions (`stamps`) of the
    /// blocks its queries read, instead of reading them again each query.
    pub fn keep_doc_stats(&self) {
        self.doc_stats.borrow_mut().keep_all();
    }

    /// Ranked documents for a query; hand-edited notes and facts are refreshed
    /// first. A damaged database is rebuilt from the files once, then queried.
    pub fn search(&mut self, query: &Query) -> Result<Vec<Hit>> {
        self.find(query).map(|found| found.hits)
    }

    /// [`Index::search`], saying in which order the hits come and, with
    /// `--explain`, what the query's names weighed.
    pub fn find(&mut self, query: &Query) -> Result<Found> {
        match self.find_once(query) {
            Err(e) if is_damaged(&e) => {
                *self = Index::rebuild_damaged(self.home, self.file_id)
                    .map_err(|e| diagnose(self.home, e))?;
                self.find_once(query)
            }
            other => other,
        }
    }

    fn find_once(&self, query: &Query) -> Result<Found> {
        Session::of(self.home).guard(&self.conn, || self.refresh())?;
        let now = query.now.unwrap_or_else(crate::clock::Time::now);
        let asked = super::question::ask(&query.text, now);
        let terms = asked.terms;
        if terms.is_empty() || query.limit == 0 {
            return Ok(Found::default());
        }
        let hints = rank::Hints {
            window: asked.window,
            when: asked.when,
            explain: query.explain,
            names: asked.names,
        };
        let filtered = !query.kinds.is_empty()
            || query.session.is_some()
            || query.tag.is_some()
            || query.since.is_some()
            || query.until.is_some();
        let wanted = (query.limit * 4).max(40);
        // One read transaction for the whole query: each statement outside
        // one would take and drop SQLite's locks (thousands of lookups).
        let _read = ReadTx::begin(&self.conn)?;
        // A question that names a time and nothing its words find lists
        // what was said then, through the same filters.
        let listed = |window| -> Result<Found> {
            Ok(Found {
                hits: self.said_in(window, &terms, query, wanted)?,
                order: Order::Newest,
                names: query.explain.then(Vec::new),
            })
        };
        if let (Some(window), true) = (asked.said, asked.only_time) {
            return listed(window);
        }
        let hits = if filtered {
            self.filtered(&terms, query, wanted, &hints)?
        } else {
            self.best_ranked(&terms, query.limit, wanted, &[], &hints)?
        };
        match asked.said {
            Some(window) if hits.is_empty() => listed(window),
            _ => Ok(Found {
                hits,
                order: Order::Best,
                names: query
                    .explain
                    .then(|| rank::named(&self.conn, &terms, &hints.names))
                    .transpose()
                    .map_err(db_error)?,
            }),
        }
    }

    /// Documents per kind.
    pub fn counts(&self) -> Result<BTreeMap<String, usize>> {
        let mut stmt = self
            .conn
            .prepare("SELECT kind, count(*) FROM docs GROUP BY kind")
            .map_err(db_error)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .map_err(db_error)?;
        let mut counts = BTreeMap::new();
        for row in rows {
            let (kind, n) = row.map_err(db_error)?;
            counts.insert(kind, n as usize);
        }
        Ok(counts)
    }
}

/// The connection of an [`Index`]; kept by its home's session when the
/// index is dropped.
#[derive(Debug)]
pub(super) struct Pooled(Option<Connection>);

impl std::ops::Deref for Pooled {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.0.as_ref().expect("taken only on drop")
    }
}

impl Drop for Index<'_> {
    fn drop(&mut self) {
        let Some(conn) = self.conn.0.take() else {
            return;
        };
        // A transaction still open here is a group commit's (see `group`).
        let open = !conn.is_autocommit();
        let session = Session::of(self.home);
        let kept = session.may_keep(&conn)
            && self.file_id.is_some()
            && session.keep((conn, self.file_id, self.doc_stats.take()));
        if open && !kept {
            session.lost();
        }
    }
}

/// Called once the call's output is written and the process is about to
/// exit: a kept connection that changed nothing is left for the kernel to
/// close with the process. `sqlite3_close` finalizes every statement, frees
/// the schema and the page cache, unlocks and unmaps; that was 3–5 % of a
/// search at 1M turns (docs/PERFORMANCE.md, "Ninth session"), and the exit
/// releases the same locks and mappings. A connection that wrote, or holds a
/// transaction, is closed as before: its close checkpoints the WAL for the
/// next process (or rolls the transaction back).
pub fn leave_at_exit(home: &Home) {
    if let Some(kept) = Session::of(home).take_kept()
        && kept.0.is_autocommit()
        && kept.0.total_changes() == 0
    {
        crate::platform::leave_to_exit(kept);
    }
}

/// Rebuilds the index from the files (`agentbox reindex`): deletes the
/// database, whatever state it is in, and builds a new one, under the
/// `index` lock.
pub fn rebuild(home: &Home) -> Result<RebuildStats> {
    let build = || -> Result<RebuildStats> {
        let _lock = home.store.lock("index")?;
        Index::rebuild_locked(home).map(|(_, stats)| stats)
    };
    build().map_err(|e| diagnose(home, e))
}

/// The documents of one file of `source`, `None` when the file is gone. A
/// line-oriented source is read line by line: a bad line costs only itself
/// and is added to `skipped` as `path:line`.
pub(super) fn read_docs(
    home: &Home,
    source: &sources::Source,
    rel: &str,
    skipped: &mut Vec<(String, String)>,
) -> Result<Option<Vec<Doc>>> {
    match source.lines {
        Some(lines) => read_lines(home, rel, lines, skipped),
        None => home
            .store
            .read(&home.root.join(rel))?
            .map(|text| (source.extract)(home, rel, &text))
            .transpose(),
    }
}

/// Reads a line-oriented file for `build`: its documents, each line it could
/// not read added to `skipped` as `path:line`; `None` when the file is gone.
fn read_lines(
    home: &Home,
    rel: &str,
    extract: LineExtractor,
    skipped: &mut Vec<(String, String)>,
) -> Result<Option<Vec<Doc>>> {
    let path = home.root.join(rel);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", &path, &e)),
    };
    crate::store::check_size(
        &path.display().to_string(),
        bytes.len() as u64,
        home.store.max_item_bytes(),
    )?;
    let (docs, bad) = extract(home, rel, &bytes)?;
    skipped.extend(
        bad.into_iter()
            .map(|(line, why)| (format!("{rel}:{line}"), why)),
    );
    Ok(Some(docs))
}
