//! The index's part in a group commit (`Store::defer_syncs`): while a group
//! is open, the index updates of every request in it share one transaction,
//! which [`finish_group`] commits before any of those requests is answered.
//!
//! FTS5 flushes its pending terms once per transaction and writes them as a
//! new segment, which later merges rewrite; SQLite writes the changed pages
//! of the tree once per commit. One transaction per group instead of one
//! per request writes fewer, larger segments and fewer pages (see
//! docs/PERFORMANCE.md, "Fourth session").
//!
//! The group's transaction lives on the connection the home's search
//! session keeps (`session::Session`):
//! an `Index` dropped while a group is open goes back to the pool with the
//! transaction still open, and the next update of the group joins it (every
//! `Tx` joins an open transaction, so an inner one no longer rolls back
//! alone). Any failed index operation inside a group therefore rolls the
//! whole group back and marks the index stale (`Session::guard`); [`finish_group`]
//! then catches the index up from the files, which hold every write of the
//! group.

use super::db::{db_error, retry_busy};
use super::disk::{is_marked, mark_stale};
use super::index::Index;
use super::session::Session;
use crate::error::Result;
use crate::home::Home;

/// Makes the index updates the open group has made so far visible to every
/// connection: the index writer thread's committed (as
/// `Index::open` waits for them), then this thread's own transaction. A
/// server searches on a connection of its own, kept between requests, which
/// sees nothing another connection has not committed: without this, a
/// search after a save in one pipelined group missed the save (searchable
/// on ack). The group's later updates open a new transaction; a failure
/// is handled as `Session::guard` does.
pub fn settle(home: &Home) {
    Session::of(home).barrier();
    commit_pooled(home);
}

/// Commits the transaction this thread's pooled connection holds, if any;
/// a failed commit is rolled back and the index marked stale.
fn commit_pooled(home: &Home) {
    if let Some(index) = Index::from_pool(home)
        && !index.conn.is_autocommit()
        && let Err(e) = retry_busy(|| index.conn.execute_batch("COMMIT"))
    {
        let _ = index.conn.execute_batch("ROLLBACK");
        mark_stale(home, &db_error(e).message);
    }
}

/// Commits the index updates of the group being closed. Call it before the
/// group's replies go out and before `SyncGroup::finish`. When the commit
/// fails, or an update of the group failed, the index is caught up from the
/// files here; an error means it could not be, and the index stays marked
/// stale (the next open tries again).
pub fn finish_group(home: &Home) -> Result<()> {
    commit_pooled(home);
    if is_marked(home) {
        Index::open(home)?;
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::error::Error;
    use crate::search::index_update_or_warn;
    use crate::tools::track::{self, MessageIn, SaveTurns};

    /// A fresh home in a temp folder (kept alive by the returned guard).
    pub(in crate::search) fn home() -> (tempfile::TempDir, Home) {
        crate::registry::install();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".agent");
        std::fs::create_dir_all(&root).unwrap();
        let home = Home::open(root).unwrap();
        (dir, home)
    }

    /// Saves one user turn as `mem_save_turn` does (its own index commit).
    pub(in crate::search) fn save(home: &Home, session: &str, text: &str) {
        let clock = Clock::fixed(crate::clock::Time::parse("2026-12-01T10:00:00Z").unwrap());
        let input = SaveTurns {
            session: session.to_string(),
            messages: vec![MessageIn {
                role: "user".to_string(),
                content: text.to_string(),
                tool_calls: Vec::new(),
                tool_call_id: None,
                timestamp: None,
            }],
            flush: false,
            source: "mcp",
        };
        assert_eq!(track::save_turns(home, &clock, &input).unwrap().saved, 1);
    }

    /// Documents holding `word` that another connection sees (another
    /// process's view: only what is committed).
    fn committed(home: &Home, word: &str) -> i64 {
        let db = home.root.join("index").join("search.db");
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row(
            "SELECT count(*) FROM docs WHERE body LIKE '%' || ?1 || '%'",
            [word],
            |r| r.get(0),
        )
        .unwrap()
    }

    /// Ends `group` as `memory_mcp` does; then the index holds `n`
    /// committed documents with `word` and no stale marker.
    fn end(home: &Home, group: crate::store::SyncGroup<'_>, word: &str, n: i64) {
        finish_group(home).unwrap();
        group.finish().unwrap();
        assert_eq!(committed(home, word), n);
        assert!(!is_marked(home));
    }

    #[test]
    fn a_group_commits_its_index_updates_once_at_its_end() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = home.store.defer_syncs();
        save(&home, "s1", "zephyr one");
        save(&home, "s2", "zephyr two");
        // Both updates wait in the group's one open transaction…
        assert_eq!(committed(&home, "zephyr"), 0);
        finish_group(&home).unwrap();
        // …and land together when it ends.
        assert_eq!(committed(&home, "zephyr"), 2);
        group.finish().unwrap();
        // Outside a group, each update commits at once.
        save(&home, "s3", "zephyr three");
        assert_eq!(committed(&home, "zephyr"), 3);
    }

    #[test]
    fn a_group_transaction_closed_instead_of_kept_is_caught_up_at_its_end() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = home.store.defer_syncs();
        save(&home, "s1", "ibis one");
        // The connection holding the group's transaction is closed, not
        // pooled (as when it opened a database file since replaced).
        let mut index = Index::from_pool(&home).unwrap();
        assert!(!index.conn.is_autocommit());
        index.file_id = None;
        drop(index);
        assert!(is_marked(&home));
        save(&home, "s2", "ibis two");
        end(&home, group, "ibis", 2);
    }

    #[test]
    fn a_failed_update_in_a_group_is_caught_up_from_the_files_at_its_end() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = home.store.defer_syncs();
        save(&home, "s1", "quokka one");
        save(&home, "s2", "quokka two");
        // A later update fails: the group's transaction, both saves' terms
        // included, is rolled back and the index marked stale.
        index_update_or_warn(&home, |_| Err(Error::internal("the disk said no")));
        assert_eq!(home.take_warnings().len(), 1);
        assert!(is_marked(&home));
        end(&home, group, "quokka", 2);
    }

    /// A server's group: appended turns are indexed by the worker thread.
    fn worker_group(home: &Home) -> crate::store::SyncGroup<'_> {
        let group = home.store.defer_syncs();
        crate::search::begin_group(home);
        group
    }

    /// Ends a server's group as `memory_mcp` does: the worker commits on
    /// its own.
    fn end_worker_group(home: &Home, group: crate::store::SyncGroup<'_>) {
        crate::search::end_group(home);
        group.finish().unwrap();
        finish_group(home).unwrap();
    }

    /// Waits (up to 20 s) until another connection sees `n` documents with
    /// `word`: what the worker commits on its own, when idle.
    fn eventually_committed(home: &Home, word: &str, n: i64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while committed(home, word) != n {
            assert!(
                std::time::Instant::now() < deadline,
                "{word}: never {n} committed"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn the_worker_indexes_groups_and_commits_them_once_idle() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = worker_group(&home);
        for i in 0..5 {
            save(&home, &format!("s{i}"), &format!("heron {i}"));
        }
        // Sent to the worker: this thread holds no transaction.
        assert!(Index::from_pool(&home).is_none_or(|ix| ix.conn.is_autocommit()));
        end_worker_group(&home, group);
        // Nothing waits on the worker's commit, yet it comes.
        eventually_committed(&home, "heron", 5);
        assert!(!is_marked(&home));
        // The next group uses the same thread.
        let group = worker_group(&home);
        save(&home, "s9", "heron again");
        end_worker_group(&home, group);
        eventually_committed(&home, "heron", 6);
    }

    #[test]
    fn opening_the_index_mid_group_waits_for_the_worker_and_the_rest_runs_inline() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = worker_group(&home);
        save(&home, "s1", "egret one");
        save(&home, "s2", "egret two");
        // A search in the group: the worker has committed both first.
        drop(Index::open(&home).unwrap());
        assert_eq!(committed(&home, "egret"), 2);
        // Later saves of the group join this thread's transaction.
        save(&home, "s3", "egret three");
        assert_eq!(committed(&home, "egret"), 2);
        end_worker_group(&home, group);
        assert_eq!(committed(&home, "egret"), 3);
    }

    #[test]
    fn settling_a_group_commits_what_it_saved_so_far() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = worker_group(&home);
        // Through the worker…
        save(&home, "s1", "avocet one");
        settle(&home);
        assert_eq!(committed(&home, "avocet"), 1);
        // …and inline, the rest of the group once the worker has committed.
        save(&home, "s2", "avocet two");
        assert!(Index::from_pool(&home).is_some_and(|ix| !ix.conn.is_autocommit()));
        assert_eq!(committed(&home, "avocet"), 1);
        settle(&home);
        assert!(Index::from_pool(&home).is_some_and(|ix| ix.conn.is_autocommit()));
        assert_eq!(committed(&home, "avocet"), 2);
        // The group goes on in a new transaction.
        save(&home, "s3", "avocet three");
        end_worker_group(&home, group);
        assert_eq!(committed(&home, "avocet"), 3);
        assert!(!is_marked(&home));
    }

    #[test]
    fn a_failed_update_in_the_worker_is_caught_up_from_the_files() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        let group = worker_group(&home);
        save(&home, "s1", "plover one");
        crate::search::index_later(&home, |_| Err(Error::internal("the disk said no")));
        save(&home, "s2", "plover two");
        // The worker's next commit (here: the server's next search) catches
        // the index up from the files.
        settle(&home);
        assert_eq!(committed(&home, "plover"), 2);
        end_worker_group(&home, group);
        assert_eq!(committed(&home, "plover"), 2);
        assert!(!is_marked(&home));
    }

    #[test]
    fn a_turn_another_process_caught_up_first_is_indexed_once() {
        let (_dir, home) = home();
        save(&home, "s0", "warmup");
        // Another process holds the index's write lock…
        let reader = Home::open(home.root.clone()).unwrap();
        let mut other = Index::open(&reader).unwrap();
        other.conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        // …so the worker, sent the next save, waits for it while the save
        // is acknowledged.
        let group = worker_group(&home);
        save(&home, "s0", "tern one");
        end_worker_group(&home, group);
        // That process searches: it finds the open episode behind the index
        // and indexes it itself.
        let query = crate::search::Query {
            text: "tern".to_string(),
            limit: 5,
            ..Default::default()
        };
        assert_eq!(other.search(&query).unwrap().len(), 1);
        other.conn.execute_batch("COMMIT").unwrap();
        assert_eq!(committed(&home, "tern"), 1);
        // The worker's own update, after, finds the file indexed as it is.
        settle(&home);
        assert_eq!(committed(&home, "tern"), 1);
        assert!(!is_marked(&home));
    }

    #[test]
    fn a_closed_episode_whose_turns_two_paths_hold_is_read_again_not_moved() {
        // A search indexed the closed episode under its new name while the
        // writer, behind, still had an append of the open name to run: that
        // append took its turns back to the open name, so the file's turns
        // are split between the two paths when the rename's update runs.
        let (_dir, home) = home();
        save(&home, "s0", "alpha one");
        save(&home, "s0", "beta two");
        let clock = Clock::fixed(crate::clock::Time::parse("2026-12-01T10:00:00Z").unwrap());
        let closed = track::flush(&home, &clock, "s0").unwrap().unwrap();
        let index = Index::open(&home).unwrap();
        let to = format!("memory/episodes/s0/{closed}.jsonl");
        let from = format!("memory/episodes/s0/{closed}.open.jsonl");
        let source = crate::search::sources::all()
            .unwrap()
            .iter()
            .find(|s| to.starts_with(&format!("{}/", s.dir)))
            .unwrap();
        let docs = super::super::index::read_docs(&home, source, &to, &mut Vec::new())
            .unwrap()
            .unwrap();
        assert_eq!(docs.len(), 2);
        let mut taken_back = docs[1].clone();
        taken_back.source = from.clone();
        index.insert(&[taken_back]).unwrap();
        let whole = super::super::index::stamp(&home.root.join(&to));
        index.record_source_at(&from, whole).unwrap();
        // The rename's update: `from` is recorded with the file's stamp, but
        // holds only one of its turns.
        index
            .rename_source(&from, &to, || Ok(docs.clone()))
            .unwrap();
        assert_eq!(committed(&home, "alpha"), 1);
        assert_eq!(committed(&home, "beta"), 1);
    }
}
