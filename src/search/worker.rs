//! `memory_mcp`'s index writer on the second core.
//!
//! A batched save spends about half its CPU in the search index: FTS5
//! tokenizing and inserting each turn, then flushing and merging segments at
//! the group's commit. The other half (rendering, redacting and appending the
//! turns) does not need the index. So, inside a group commit
//! ([`begin_group`] … `finish_group`), the index updates of appended turns go
//! to a worker thread with its own copy of the home and its own connection,
//! and the server goes on with the next request while the worker indexes the
//! previous one. The worker's updates share one transaction, as the server's
//! own would (`group`), committed when the group ends: `finish_group` waits
//! for that commit before any reply of the group goes out, so every
//! acknowledged turn is searchable, by this process or any other, exactly as
//! before.
//!
//! Ordering and failures:
//!
//! - One worker, first in first out: the appends of one episode file are
//!   indexed in the order they were written. Each job carries the file's
//!   stamp taken right after its append, so the `sources` row the worker
//!   records describes exactly the bytes it indexed, whatever the server
//!   appended since.
//! - Anything else that touches the index in the server ([`barrier`], called
//!   by every `Index::open`: a search, an episode closed, a rename) first
//!   waits until the worker has committed, and the rest of that group is
//!   indexed inline: the server's own transaction then holds the write lock,
//!   which the worker must never wait for.
//! - A failed update in the worker rolls its transaction back and marks the
//!   index stale (`group::guard`), as inline; `finish_group` then catches up
//!   from the files, which hold every turn, before the replies go out.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use super::Doc;
use super::health::{index_update_or_warn, mark_stale};
use super::index::Index;
use super::index::stamp;
use crate::error::{Error, Result};
use crate::home::Home;

/// One index update, run by the worker with its own index.
type Update = Box<dyn for<'i, 'h> FnOnce(&'i Index<'h>) -> Result<()> + Send>;

enum Message {
    Update(Update),
    /// Commit what was sent; answer with the outcome.
    Commit(Sender<Result<()>>),
}

/// The server's handle on its worker, kept in `Home::index_worker`.
#[derive(Default)]
struct Worker {
    /// `None` until the first job of the server's life.
    to: Option<Sender<Message>>,
    /// Jobs were sent since the last commit.
    pending: bool,
    /// Whether this group's appends may still go to the worker.
    open: bool,
    /// Commits sent, and (counted by the thread) made: a held group's
    /// commit may still be running when the next group opens the index.
    sent: u64,
    done: Arc<AtomicU64>,
}

impl Worker {
    fn spawn(home: &Home, done: Arc<AtomicU64>) -> Option<Sender<Message>> {
        let (to, from) = mpsc::channel();
        let copy = home.clone();
        std::thread::Builder::new()
            .name("index-writer".to_string())
            .spawn(move || serve(copy, from, done))
            .ok()?;
        Some(to)
    }

    /// Sends an update to the thread, started for the first one; gives it
    /// back when there is no thread, and the rest of the group then runs
    /// inline.
    fn send(&mut self, home: &Home, update: Update) -> std::result::Result<(), Update> {
        if self.to.is_none() {
            self.to = Worker::spawn(home, self.done.clone());
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

    /// Sends a commit; `None` when nothing was pending (and, with
    /// `in_flight`, no commit sent before is still being made: the reply to
    /// this one then means every earlier one is made).
    fn commit(&mut self, in_flight: bool) -> Option<Receiver<Result<()>>> {
        let running = in_flight && self.done.load(Ordering::Acquire) < self.sent;
        if !std::mem::take(&mut self.pending) && !running {
            return None;
        }
        let (done, outcome) = mpsc::channel();
        self.to.as_ref()?.send(Message::Commit(done)).ok()?;
        self.sent += 1;
        Some(outcome)
    }
}

/// The worker thread: indexes jobs inside one group per commit.
fn serve(home: Home, from: Receiver<Message>, made: Arc<AtomicU64>) {
    let mut group = None;
    while let Ok(message) = from.recv() {
        match message {
            Message::Update(update) => {
                group.get_or_insert_with(|| home.store.defer_syncs());
                index_update_or_warn(&home, update);
            }
            Message::Commit(done) => {
                let outcome = super::group::finish_group(&home);
                if let Some(group) = group.take() {
                    // The worker writes no file but a stale marker, which
                    // the server's own catch-up reads back.
                    let _ = group.finish();
                }
                // A failure's warning reaches the replies through `outcome`.
                let _ = home.take_warnings();
                made.fetch_add(1, Ordering::Release);
                let _ = done.send(outcome);
            }
        }
    }
}

/// Lets this group's appended turns be indexed by the worker (memory_mcp
/// calls it when a group starts).
pub fn begin_group(home: &Home) {
    let mut worker = home.index_worker.take::<Worker>().unwrap_or_default();
    worker.open = true;
    home.index_worker.put(worker);
}

/// Indexes the turns just appended to `rel` (which held `before` bytes
/// before): see [`index_later`].
pub fn index_appended(home: &Home, rel: &str, before: u64, docs: Vec<Doc>) {
    let rel = rel.to_string();
    // The file's stamp now: the worker may run after later appends.
    let now = stamp(&home.root.join(&rel));
    index_later(home, move |index| {
        index.append_source(&rel, before, now, &docs)
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
    let update: Update = Box::new(update);
    let unsent = match home.index_worker.take::<Worker>() {
        Some(mut worker) => {
            let unsent = if worker.open {
                worker.send(home, update).err()
            } else {
                Some(update)
            };
            home.index_worker.put(worker);
            unsent
        }
        None => Some(update),
    };
    if let Some(update) = unsent {
        index_update_or_warn(home, update);
    }
}

/// Waits until the worker has committed what it was sent, and keeps the rest
/// of the group inline. Every `Index::open` calls it first; a no-op outside
/// a server. A failure leaves the index marked stale: the open catches up.
pub(super) fn barrier(home: &Home) {
    end(home, true).wait(home);
}

/// Ends the worker's part of a group: sends the commit, whose outcome
/// [`Committing::wait`] returns (the server syncs its files meanwhile).
pub fn end_group(home: &Home) -> Committing {
    end(home, false)
}

fn end(home: &Home, in_flight: bool) -> Committing {
    let Some(mut worker) = home.index_worker.take::<Worker>() else {
        return Committing(None);
    };
    worker.open = false;
    let outcome = worker.commit(in_flight);
    home.index_worker.put(worker);
    Committing(outcome)
}

/// A commit the worker is making.
pub struct Committing(Option<Receiver<Result<()>>>);

impl Committing {
    /// The commit to wait for, leaving nothing to wait for in its place.
    pub fn take(&mut self) -> Committing {
        Committing(self.0.take())
    }

    /// Waits for the commit. A failure leaves the index marked stale (the
    /// worker marks it; a vanished thread is marked here), so the
    /// `finish_group` that follows catches up from the files.
    pub fn wait(self, home: &Home) {
        let Some(outcome) = self.0 else {
            return;
        };
        let failed = match outcome.recv() {
            Ok(Ok(())) => return,
            Ok(Err(e)) => e,
            Err(_) => Error::internal("the index writer thread stopped"),
        };
        mark_stale(home, &failed.message);
    }
}
