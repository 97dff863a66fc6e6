//! Folding the small FTS5 segments a writing session leaves.
//!
//! FTS5 writes the postings of each commit as a new segment (a b-tree) and
//! merges segments four at a time per level as writes go on (`automerge`),
//! so a `memory_mcp` session of batched saves leaves a handful to a dozen
//! segments, and every query word is then sought in each of them (a
//! million-turn home after 100,000 saved turns: 10 segments; a query costs
//! 9 % more instructions than with the 3 folded here, docs/PERFORMANCE.md).
//! When the server's input ends the session is over and nothing waits on
//! the index: [`fold_segments`] then merges every level that holds two or
//! more segments (FTS5's `merge` command, with `usermerge` 2), a step of at
//! most [`STEP_PAGES`] pages per transaction, until no level holds two or
//! [`BUDGET`] has passed; FTS5 keeps an unfinished merge's state, so the
//! next session's end goes on with it. A level's lone segment is left
//! alone: the big one a full build leaves is rewritten only once another
//! segment reaches its level. Best effort: when another process holds the
//! write lock the fold stops, and nothing it did is lost or half done (each
//! step commits or rolls back whole).

use std::time::{Duration, Instant};

use super::db::{db_error, is_busy};
use super::disk::index_dir;
use super::index::Index;
use super::rank::segment_levels;
use crate::error::Result;
use crate::home::Home;

/// Pages FTS5 writes at most in one merge step (one transaction).
const STEP_PAGES: i64 = 1_000;
/// No merge step starts once this much time has passed.
const BUDGET: Duration = Duration::from_secs(1);
/// How long a step waits for another writer's lock before the fold stops.
const BUSY: Duration = Duration::from_millis(100);

/// What [`fold_segments`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Folded {
    /// Segments per level before the fold, lowest level first.
    pub before: Vec<usize>,
    /// Segments per level after it.
    pub after: Vec<usize>,
    /// Merge steps committed.
    pub steps: usize,
    pub elapsed: Duration,
}

impl Folded {
    /// Whether any merge step ran.
    pub fn merged(&self) -> bool {
        self.steps > 0
    }
}

/// Merges the index's small segments, within [`BUDGET`] (see the module
/// documentation). A home without an index is left without one.
pub fn fold_segments(home: &Home) -> Result<Folded> {
    if !index_dir(home).join("search.db").exists() {
        return Ok(Folded::default());
    }
    Index::open(home)?.fold(BUDGET)
}

/// Whether some level holds two segments or more.
fn foldable(levels: &[usize]) -> bool {
    levels.iter().any(|&n| n >= 2)
}

impl Index<'_> {
    pub(super) fn fold(&self, budget: Duration) -> Result<Folded> {
        let start = Instant::now();
        let before = segment_levels(&self.conn).map_err(db_error)?;
        let mut folded = Folded {
            after: before.clone(),
            before,
            steps: 0,
            elapsed: Duration::ZERO,
        };
        // Not inside someone else's transaction (a group's, in a server).
        if !self.conn.is_autocommit() {
            return Ok(folded);
        }
        self.conn.busy_timeout(BUSY).map_err(db_error)?;
        let mut outcome = Ok(());
        while foldable(&folded.after) && start.elapsed() < budget {
            match self.merge_step() {
                // FTS5 wrote pages: a merge went on (it may take several
                // steps before a level's count changes).
                Ok(Some(rows)) if rows > 1 => folded.steps += 1,
                // Nothing it would merge, or another writer holds the lock.
                Ok(_) => break,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
            match segment_levels(&self.conn) {
                Ok(levels) => folded.after = levels,
                Err(e) => {
                    outcome = Err(db_error(e));
                    break;
                }
            }
        }
        let restored = super::db::patient(&self.conn);
        outcome?;
        restored.map_err(db_error)?;
        folded.elapsed = start.elapsed();
        Ok(folded)
    }

    /// One merge step in its own transaction: the rows it wrote (the
    /// `merge` command itself counts one), `None` when another writer
    /// holds the lock (nothing done).
    fn merge_step(&self) -> Result<Option<u64>> {
        match self.conn.execute_batch("BEGIN IMMEDIATE") {
            Err(e) if is_busy(&e) => return Ok(None),
            other => other.map_err(db_error)?,
        }
        let step = || -> rusqlite::Result<u64> {
            // FTS5's `merge` works on levels holding `usermerge` segments or
            // more (4 unless set; kept in the index's own configuration).
            let usermerge: Option<i64> = self
                .conn
                .query_row("SELECT v FROM fts_config WHERE k = 'usermerge'", [], |r| {
                    r.get(0)
                })
                .ok();
            if usermerge != Some(2) {
                self.conn
                    .execute("INSERT INTO fts(fts, rank) VALUES ('usermerge', 2)", [])?;
            }
            let before = self.conn.total_changes();
            self.conn.execute(
                "INSERT INTO fts(fts, rank) VALUES ('merge', ?1)",
                [STEP_PAGES],
            )?;
            let rows = self.conn.total_changes() - before;
            self.conn.execute_batch("COMMIT")?;
            Ok(rows)
        };
        step().map(Some).map_err(|e| {
            let _ = self.conn.execute_batch("ROLLBACK");
            db_error(e)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::group::tests::{self as group, home};

    /// Saves one turn holding `word` (one commit: a new FTS5 segment).
    fn save(home: &Home, word: &str) {
        group::save(home, "fold", &format!("a turn about {word}"));
    }

    fn matches(home: &Home, word: &str) -> i64 {
        let index = Index::open(home).unwrap();
        index
            .conn
            .query_row(
                "SELECT count(*) FROM fts WHERE fts MATCH ?1",
                [format!("\"{word}\"")],
                |r| r.get(0),
            )
            .unwrap()
    }

    fn words() -> Vec<String> {
        (0..14).map(|i| format!("foldword{i}")).collect()
    }

    #[test]
    fn every_level_ends_with_one_segment_at_most_and_every_document_is_found() {
        let (_dir, home) = home();
        for word in words() {
            save(&home, &word);
        }
        let folded = fold_segments(&home).unwrap();
        assert!(foldable(&folded.before), "no level to fold: {folded:?}");
        assert!(folded.merged(), "{folded:?}");
        assert!(!foldable(&folded.after), "{folded:?}");
        assert!(
            folded.after.iter().sum::<usize>() < folded.before.iter().sum::<usize>(),
            "{folded:?}"
        );
        for word in words() {
            assert_eq!(matches(&home, &word), 1, "{word}");
        }
        // Nothing left to fold: a second fold merges nothing.
        let again = fold_segments(&home).unwrap();
        assert!(!again.merged(), "{again:?}");
        assert_eq!(again.before, folded.after);
    }

    #[test]
    fn a_writer_holding_the_lock_makes_the_fold_stop_with_nothing_changed() {
        let (_dir, home) = home();
        for word in words() {
            save(&home, &word);
        }
        let db = index_dir(&home).join("search.db");
        let other = rusqlite::Connection::open(&db).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let folded = fold_segments(&home).unwrap();
        assert!(!folded.merged(), "{folded:?}");
        assert_eq!(folded.after, folded.before);
        other.execute_batch("ROLLBACK").unwrap();
        // The lock released, the next fold does the work.
        assert!(fold_segments(&home).unwrap().merged());
        for word in words() {
            assert_eq!(matches(&home, &word), 1, "{word}");
        }
    }

    #[test]
    fn a_home_without_an_index_is_left_without_one() {
        let (_dir, home) = home();
        assert_eq!(fold_segments(&home).unwrap(), Folded::default());
        assert!(!index_dir(&home).join("search.db").exists());
    }
}
