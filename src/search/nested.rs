//! Catching up with the episode folders (a nested family) that changed
//! without the index hearing of it: a writer that died between its file
//! write and its index update leaves no marker, so every search compares
//! folder stamps (`dirs`) and the open episodes' stamps with the files
//! (docs/STORE.md, "Freshness").

use super::db::db_error;
use super::health::{prefix_end, wall_ns};
use super::index::{Index, stamp};
use super::sources::Source;
use crate::error::Result;
use crate::store::dir;
use rusqlite::{OptionalExtension, params};
use std::collections::{BTreeSet, HashMap, HashSet};

/// A folder changed more recently than this may change again within the same
/// timestamp tick, so its stamp is not trusted (recorded) yet.
const SETTLE_NS: i64 = 2_000_000_000;
/// Recorded `(mtime in ns, size)` stamps by home-relative path.
type Stamps = HashMap<String, (i64, i64)>;

/// Session folders compared on every call: the ones that changed last
/// (see `Index::recorded_dirs`).
const RECENT_DIRS: usize = 64;
/// How often, in seconds of wall-clock time, a home of more session folders
/// has every one of them compared (recorded in `meta.nested_full`).
const FULL_CHECK_EVERY_S: i64 = 60;

/// What the index recorded of a nested family's folders (see
/// `Index::recorded_dirs`).
struct Recorded {
    /// The family's folder's own stamp.
    root: Option<(i64, i64)>,
    /// The session folders a refresh compares, by path.
    sessions: Stamps,
    /// Every session folder, in a home of more than `RECENT_DIRS` (the
    /// check a minute, recorded when done).
    full: bool,
    /// Every session folder.
    thorough: bool,
}

/// What is recorded for a folder stamp: the stamp once the folder has been
/// still for `SETTLE_NS`, else `(-1, -1)`, which matches no stamp.
fn settled(now: Option<(i64, i64)>) -> Option<(i64, i64)> {
    now.map(|(mtime, size)| {
        if wall_ns() - mtime > SETTLE_NS {
            (mtime, size)
        } else {
            (-1, -1)
        }
    })
}

impl Index<'_> {
    /// Catches up with files of a nested family (episodes) that changed
    /// without the index hearing of it (a crash between the file write and
    /// the index update). Cheap enough for every search: files are only
    /// created, renamed or removed — which changes their folder's mtime — or
    /// appended to when `source.growing` says so. So it stats the family's
    /// folder, the session folders that changed last (every one in a home
    /// of up to [`RECENT_DIRS`], and every one once a minute in a bigger
    /// home: see [`Index::recorded_dirs`]) and each growing file, and lists
    /// (then compares file by file) only a folder whose stamp moved.
    pub(super) fn refresh_nested(&self, source: &Source) -> Result<()> {
        let root_rel = source.dir.to_string();
        let prefix = format!("{root_rel}/");
        let root_now = stamp(&self.home.root.join(&root_rel));
        let Recorded {
            root: root_known,
            sessions: dirs,
            full,
            thorough,
        } = self.recorded_dirs(&root_rel, &prefix)?;
        let mut sessions: BTreeSet<String> = dirs.keys().cloned().collect();
        if root_known != root_now {
            // Every session folder there now by name, sorted, and whether
            // the index knows it (thousands of them: no path built, no hash).
            let root = self.home.root.join(&root_rel);
            let mut listed: Vec<(String, bool)> = dir::names_where(&root, |_| true)
                .map(|entries| {
                    entries
                        .into_iter()
                        .filter(|(name, kind)| dir::is_dir(&root, name, *kind))
                        .map(|(name, _)| (name.to_string_lossy().into_owned(), false))
                        .collect()
                })
                .unwrap_or_default();
            listed.sort_unstable();
            let at = |listed: &[(String, bool)], rel: &str| {
                let name = rel.strip_prefix(prefix.as_str())?;
                listed.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok()
            };
            // Sessions recorded but gone: `dirs` holds every recorded folder
            // when the check is thorough, else one pass over the table
            // (nothing kept of the folders still there) ...
            let mut stale = BTreeSet::new();
            let mut mark = |rel: &str| match at(&listed, rel) {
                Some(i) => listed[i].1 = true,
                None => drop(stale.insert(rel.to_string())),
            };
            if thorough {
                dirs.keys().for_each(|rel| mark(rel));
            } else {
                self.each_dir_under(&prefix, mark)?;
            }
            // ... and, when every folder is compared anyway, sources of
            // sessions never recorded (indexed by a writer, removed before
            // any search recorded the folder).
            if thorough {
                for path in self.known_sources(&prefix)?.into_keys() {
                    if let Some((session, _)) = path[prefix.len()..].split_once('/') {
                        let session = format!("{prefix}{session}");
                        if at(&listed, &session).is_none() {
                            stale.insert(session);
                        }
                    }
                }
            }
            for gone in stale {
                self.forget_dir(&gone)?;
            }
            // The folders compared below that are still there, and the new ones.
            sessions.retain(|rel| at(&listed, rel).is_some());
            sessions.extend(
                listed
                    .into_iter()
                    .filter(|(_, known)| !known)
                    .map(|(name, _)| format!("{prefix}{name}")),
            );
        }
        let mut compared = HashSet::new();
        for rel in &sessions {
            let now = stamp(&self.home.root.join(rel));
            if dirs.get(rel).copied() != now {
                self.compare_dir(source, rel)?;
                if dirs.get(rel).copied() != settled(now) {
                    self.record_dir(rel, now)?;
                }
                compared.insert(rel.clone());
            }
        }
        // Appends change no folder: stat the growing files of the other
        // sessions (SQLite picks them out by suffix: a handful, not every file).
        if let Some(suffix) = source.growing {
            for (path, recorded) in self.known_growing(&prefix, suffix)? {
                let session = path.rsplit_once('/').map(|(d, _)| d).unwrap_or_default();
                if !compared.contains(session)
                    && stamp(&self.home.root.join(&path)) != Some(recorded)
                {
                    self.reextract_if_behind(&path)?;
                }
            }
        }
        if full {
            self.conn
                .execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('nested_full', ?1)",
                    [(wall_ns() / 1_000_000_000).to_string()],
                )
                .map_err(db_error)?;
        }
        // Written only when it changes: a search in a quiet home writes nothing
        // (a home of more than `RECENT_DIRS` sessions: once a minute).
        if root_known != settled(root_now) {
            self.record_dir(&root_rel, root_now)?;
        }
        Ok(())
    }

    /// What the index recorded of a nested family's folders, for a refresh:
    /// the stamp of the family's folder `root` itself, and the stamps of the
    /// session folders under it that the refresh compares. In a home of up
    /// to [`RECENT_DIRS`] session folders, every one. In a bigger home, the
    /// [`RECENT_DIRS`] that changed last and the ones whose stamp has not
    /// settled yet, and every one once a minute (a full check, due every
    /// [`FULL_CHECK_EVERY_S`] seconds by `meta.nested_full`). A crashed
    /// writer's file is in a folder it just changed; one that changed an
    /// older folder (a new episode file in a session resumed after many
    /// others, or a file copied in by hand) shows up within a minute, or at
    /// once with `agentbox doctor`'s advice (`agentbox reindex`). Statting
    /// every folder on every call cost 10-30 ms a search in a home of 5,000
    /// sessions (docs/PERFORMANCE.md).
    fn recorded_dirs(&self, root: &str, prefix: &str) -> Result<Recorded> {
        // One statement (a search prepares it in every process): the root's
        // row (0), the newest settled folders along `dirs_mtime` (1; `+path`
        // keeps SQLite from sorting the prefix's whole range instead), one
        // more than kept to learn whether there are more, and the
        // unsettled ones (2).
        let sql = format!(
            "SELECT 0, path, mtime_ns, size FROM dirs WHERE path = ?3
             UNION ALL
             SELECT 1, * FROM (SELECT path, mtime_ns, size FROM dirs
                 WHERE +path >= ?1 AND +path < ?2 AND mtime_ns >= 0
                 ORDER BY mtime_ns DESC LIMIT {})
             UNION ALL
             SELECT 2, path, mtime_ns, size FROM dirs
             WHERE mtime_ns < 0 AND +path >= ?1 AND +path < ?2",
            RECENT_DIRS + 1
        );
        let mut stmt = self.conn.prepare_cached(&sql).map_err(db_error)?;
        let mut rows = stmt
            .query(params![prefix, prefix_end(prefix), root])
            .map_err(db_error)?;
        let mut out = Recorded {
            root: None,
            sessions: Stamps::new(),
            full: false,
            thorough: true,
        };
        let mut settled = 0;
        while let Some(row) = rows.next().map_err(db_error)? {
            let (part, path): (i64, String) =
                (row.get(0).map_err(db_error)?, row.get(1).map_err(db_error)?);
            let stamp = (row.get(2).map_err(db_error)?, row.get(3).map_err(db_error)?);
            match part {
                0 => out.root = Some(stamp),
                // The newest first: the one past `RECENT_DIRS` only says there are more.
                1 if settled == RECENT_DIRS => out.thorough = false,
                1 => {
                    settled += 1;
                    out.sessions.insert(path, stamp);
                }
                _ => drop(out.sessions.insert(path, stamp)),
            }
        }
        if out.thorough {
            return Ok(out);
        }
        let last: Option<i64> = self
            .conn
            .prepare_cached("SELECT value FROM meta WHERE key = 'nested_full'")
            .and_then(|mut stmt| stmt.query_row([], |r| r.get::<_, String>(0)).optional())
            .map_err(db_error)?
            .and_then(|v| v.parse().ok());
        let now = wall_ns() / 1_000_000_000;
        if last.is_none_or(|last| !(last..last + FULL_CHECK_EVERY_S).contains(&now)) {
            out.sessions = self.dirs_under(prefix)?;
            (out.full, out.thorough) = (true, true);
        }
        Ok(out)
    }

    /// Calls `each` with every recorded folder under `prefix`, nothing kept.
    fn each_dir_under(&self, prefix: &str, mut each: impl FnMut(&str)) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT path FROM dirs WHERE path >= ?1 AND path < ?2")
            .map_err(db_error)?;
        let mut rows = stmt
            .query(params![prefix, prefix_end(prefix)])
            .map_err(db_error)?;
        while let Some(row) = rows.next().map_err(db_error)? {
            if let Ok(rel) = row.get_ref(0).and_then(|v| Ok(v.as_str()?)) {
                each(rel);
            }
        }
        Ok(())
    }

    /// Recorded stamps of every folder under `prefix`.
    fn dirs_under(&self, prefix: &str) -> Result<Stamps> {
        self.stamps(
            "SELECT path, mtime_ns, size FROM dirs WHERE path >= ?1 AND path < ?2",
            params![prefix, prefix_end(prefix)],
            |_| true,
        )
    }

    /// Compares one folder's files with the index, file by file.
    fn compare_dir(&self, source: &Source, rel: &str) -> Result<()> {
        let prefix = format!("{rel}/");
        let known = self.known_sources(&prefix)?;
        let mut seen = HashSet::new();
        if let Ok(entries) = std::fs::read_dir(self.home.root.join(rel)) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !(source.accept)(&name) || !entry.file_type().is_ok_and(|t| t.is_file()) {
                    continue;
                }
                let path = format!("{prefix}{name}");
                if known.get(&path).copied() != stamp(&self.home.root.join(&path)) {
                    self.reextract_if_behind(&path)?;
                }
                seen.insert(path);
            }
        }
        for path in known.into_keys().filter(|p| !seen.contains(p)) {
            self.remove_source(&path)?;
        }
        Ok(())
    }

    /// Records a folder's stamp once it has settled (see `SETTLE_NS`). An
    /// unsettled folder is kept with a stamp that matches nothing, so it is
    /// compared again next time; a missing one is dropped.
    pub(super) fn record_dir(&self, rel: &str, now: Option<(i64, i64)>) -> Result<()> {
        match settled(now) {
            Some((mtime, size)) => self
                .conn
                .execute(
                    "INSERT OR REPLACE INTO dirs(path, mtime_ns, size) VALUES (?1, ?2, ?3)",
                    params![rel, mtime, size],
                )
                .map(|_| ())
                .map_err(db_error),
            None => self
                .conn
                .execute("DELETE FROM dirs WHERE path = ?1", [rel])
                .map(|_| ())
                .map_err(db_error),
        }
    }

    /// Records the stamps of a nested family's folders after a build.
    pub(super) fn record_dirs(&self, source: &Source) -> Result<()> {
        let root = self.home.root.join(source.dir);
        if let Ok(entries) = std::fs::read_dir(&root) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    let rel = format!("{}/{}", source.dir, entry.file_name().to_string_lossy());
                    self.record_dir(&rel, stamp(&entry.path()))?;
                }
            }
        }
        self.record_dir(source.dir, stamp(&root))
    }

    /// Drops a session folder that is gone: its documents and its stamp.
    fn forget_dir(&self, rel: &str) -> Result<()> {
        for path in self.known_sources(&format!("{rel}/"))?.into_keys() {
            self.remove_source(&path)?;
        }
        self.record_dir(rel, None)
    }
}
