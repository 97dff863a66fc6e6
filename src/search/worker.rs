//! `memory_mcp`'s index writer on the second core.
//!
//! A batched save spends about half its CPU in the search index: FTS5
//! tokenizing and inserting each turn, then flushing and merging segments at
//! each commit. The other half (rendering, redacting and appending the
//! turns) does not need the index. So, inside a group commit
//! ([`begin_group`] … `end_group`), the index updates of appended turns go
//! to a worker thread with its own copy of the home and its own connection,
//! and the server goes on with the next request while the worker indexes the
//! previous one.
//!
//! The worker commits on its own schedule, not per group: its updates share
//! one transaction until it has waited [`IDLE`] for the next one or the
//! transaction has been open [`MAX_OPEN`] (another process that must write
//! the index gets in between two such transactions: `db::patient`). Each commit flushes FTS5's
//! pending terms as a new segment, which later merges rewrite, so a commit
//! for each group of a pipelining host cost the worker about 40 % of its
//! time (docs/PERFORMANCE.md, "Twelfth session"). Replies do not wait for
//! it: an acknowledged turn is on disk, and searchable all the same —
//!
//! - by this server: every `Index::open` (a search, `mem_context`, an
//!   episode closed) first calls `Session::barrier`, which makes the worker commit
//!   what it was sent and waits for that commit;
//! - by another process: its search finds the open episode's size moved
//!   past what the index recorded and re-extracts that file (docs/STORE.md,
//!   "Freshness"), as after a crash; a later update of the worker then finds
//!   the recorded size is not the one it appended after, and re-extracts the
//!   file unless the index holds it as it is now, so no turn is indexed
//!   twice or left out;
//! - after a kill: the files hold every acknowledged turn, and the next
//!   open catches the index up from them.
//!
//! Ordering and failures:
//!
//! - One worker, first in first out: the appends of one episode file are
//!   indexed in the order they were written. Each job carries the file's
//!   stamp taken right after its append, so the `sources` row the worker
//!   records describes exactly the bytes it indexed, whatever the server
//!   appended since.
//! - After a `Session::barrier` the rest of that group is indexed inline: the
//!   server's own transaction then holds the write lock, which the worker
//!   must never wait for. The server commits it before the group's replies.
//! - At most [`QUEUE`] updates wait for the worker; the server waits beyond.
//! - A failed update in the worker rolls its transaction back and marks the
//!   index stale (`group::guard`), as inline; the server's `finish_group`
//!   at the group's end, or the next open, catches up from the files.
//! - When the server's input ends, it calls `Session::barrier` (through
//!   `group::settle`) before anything else touches the index.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::time::{Duration, Instant};

use super::Doc;
use super::group::finish_group;
use super::health::index_update_or_warn;
use super::index::{Index, stamp};
use super::session::{Message, Session, Update, Writer};
use crate::error::Result;
use crate::home::Home;
use crate::store::SyncGroup;

/// How long the worker waits for the next update before it commits.
const IDLE: Duration = Duration::from_millis(2);
/// How long the worker's transaction stays open at most once it holds an
/// update: about how long another process that must write the index waits.
const MAX_OPEN: Duration = Duration::from_millis(50);
/// Updates waiting for the worker at most: the server waits to send more.
const QUEUE: usize = 16;

/// Documents the worker indexed, on their way back to the server's thread,
/// which allocated them. glibc's allocator is slowest as a producer and a
/// consumer on two threads: every free on the worker went to the server's
/// arena under its lock, and every allocation on the server missed its
/// thread cache. Freeing them where they were made: ingest +9.7 %
/// (docs/PERFORMANCE.md, "Twelfth session").
type Returned = Vec<Doc>;

/// The server's handle on its worker lives in the home's search session
/// (`Session::writer`); starting the thread and sending it work is here.
impl Writer {
    fn spawn(&mut self, home: &Home) -> Option<SyncSender<Message>> {
        let (to, from) = mpsc::sync_channel(QUEUE);
        let (back, returned) = mpsc::channel();
        let copy = home.clone();
        std::thread::Builder::new()
            .name("index-writer".to_string())
            .spawn(move || serve(copy, from, back))
            .ok()?;
        self.returned = Some(returned);
        Some(to)
    }

    /// Sends an update to the thread, started for the first one; gives it
    /// back when there is no thread, and the rest of the group then runs
    /// inline.
    fn send(&mut self, home: &Home, update: Update) -> std::result::Result<(), Update> {
        if self.to.is_none() {
            self.to = self.spawn(home);
        }
        let sent = match &self.to {
            Some(to) => to
                .send(Message::Update(update))
                .map_err(|mpsc::SendError(message)| match message {
                    Message::Update(update) => update,
                    Message::Commit(_) => unreachable!("an update was sent"),
                }),
            None => Err(update),
        };
        match sent {
            Ok(()) => self.pending = true,
            Err(_) => {
                self.to = None;
                self.open = false;
            }
        }
        sent
    }
}

/// The worker thread: indexes updates in one transaction, committed when
/// no update has come for [`IDLE`], when it has been open for [`MAX_OPEN`],
/// when the server asks, and when the server's handle is gone.
fn serve(home: Home, from: Receiver<Message>, back: Sender<Returned>) {
    let mut group = None;
    // When the open transaction took its first update.
    let mut since: Option<Instant> = None;
    loop {
        let message = match since {
            None => from.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(since) => from.recv_timeout(IDLE.min(MAX_OPEN.saturating_sub(since.elapsed()))),
        };
        match message {
            Ok(Message::Update(update)) => {
                group.get_or_insert_with(|| home.store.defer_syncs());
                // Freed here instead when the server has gone.
                if let Some(docs) = update(&home) {
                    let _ = back.send(docs);
                }
                if since.get_or_insert_with(Instant::now).elapsed() >= MAX_OPEN {
                    let _ = commit(&home, &mut group);
                    since = None;
                }
            }
            Ok(Message::Commit(done)) => {
                // A failure's warning reaches the server through `outcome`.
                let _ = done.send(commit(&home, &mut group));
                since = None;
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = commit(&home, &mut group);
                since = None;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let _ = commit(&home, &mut group);
}

/// Commits the worker's transaction, if one is open.
fn commit(home: &Home, group: &mut Option<SyncGroup<'_>>) -> Result<()> {
    let outcome = finish_group(home);
    if let Some(group) = group.take() {
        // The worker writes no file but a stale marker, which the server's
        // own catch-up reads back.
        let _ = group.finish();
    }
    // A failed update marked the index stale; its warning is not the
    // worker's to give.
    let _ = home.take_warnings();
    outcome
}

/// Lets this group's appended turns be indexed by the worker (memory_mcp
/// calls it when a group starts).
pub fn begin_group(home: &Home) {
    let session = Session::of(home);
    let mut writer = session.writer();
    let writer = writer.get_or_insert_with(Writer::default);
    writer.free_returned();
    writer.open = true;
}

/// Indexes the turns just appended to `rel` (which held `before` bytes
/// before): see [`index_later`].
pub fn index_appended(home: &Home, rel: &str, before: u64, docs: Vec<Doc>) {
    let rel = rel.to_string();
    // The file's stamp now: the worker may run after later appends.
    let now = stamp(&home.root.join(&rel));
    later(home, move |index| {
        index.append_source(&rel, before, now, &docs)?;
        Ok(docs)
    });
}

/// Runs an index update after its file write, as `index_update_or_warn`
/// does: through the worker inside a group that lets it, else here. The
/// update may run after later file writes of the group, and must not
/// depend on their absence.
pub fn index_later(
    home: &Home,
    update: impl for<'i, 'h> FnOnce(&'i Index<'h>) -> Result<()> + Send + 'static,
) {
    later(home, |index| update(index).map(|()| Vec::new()));
}

/// [`index_later`] of an update that hands back the documents it indexed.
fn later(
    home: &Home,
    update: impl for<'i, 'h> FnOnce(&'i Index<'h>) -> Result<Vec<Doc>> + Send + 'static,
) {
    // Run where it lands (the thread, or here) as `index_update_or_warn`
    // runs it: a failure marks the index stale and leaves a warning.
    let update: Update = Box::new(|home: &Home| {
        let mut indexed = None;
        index_update_or_warn(home, |index| {
            indexed = Some(update(index)?);
            Ok(())
        });
        indexed
    });
    let unsent = match Session::of(home).writer().as_mut() {
        Some(writer) if writer.open => writer.send(home, update).err(),
        _ => Some(update),
    };
    if let Some(update) = unsent {
        drop(update(home));
    }
}

/// Ends the worker's part of a group: the rest of the group's updates
/// (none, normally: the group is over) run inline. The worker commits on
/// its own.
pub fn end_group(home: &Home) {
    if let Some(writer) = Session::of(home).writer().as_mut() {
        writer.open = false;
    }
}
