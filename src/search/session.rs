//! What the search index keeps with a home between calls, and the calls
//! every use of the index makes through it.
//!
//! A [`Session`] is the index's view of one home: the connection an
//! `Index` leaves behind for the next one (opening the database, reading
//! its schema and closing it again cost a sixth of each of memory_mcp's
//! saves), memory_mcp's handle on its index writer thread (`worker`), and
//! the home's part in a group commit (`group`): [`Session::barrier`] makes
//! the writer thread commit before an index is opened, and
//! [`Session::guard`] rolls a failed group back whole. The home owns the
//! state ([`crate::home::Session`]); `Index`, `group`, `worker` and
//! `health` reach it here, so none of them calls into another to get it.

use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Mutex, MutexGuard};

use rusqlite::Connection;

use super::Doc;
use super::db::{db_error, retry_busy};
use super::disk::mark_stale;
use super::rank;
use crate::error::{Error, Result};
use crate::home::{self, Home};

/// The connection an index of a home keeps between the calls of a
/// long-lived process, with the `(device, inode)` of the file it opened (an
/// index whose file was replaced, by `reindex`, is not reused) and the
/// document facts it read (`rank::DocStats`).
pub(super) type Kept = (Connection, Option<(u64, u64)>, rank::DocStats);

/// One index update for the writer thread, run there on a copy of the home
/// with the thread's own index; it hands back the documents it indexed
/// (`None` when it failed), to be freed on the server's thread.
pub(super) type Update = Box<dyn FnOnce(&Home) -> Option<Vec<Doc>> + Send>;

/// What the server sends its writer thread.
pub(super) enum Message {
    Update(Update),
    /// Commit what was sent; answer with the outcome.
    Commit(Sender<Result<()>>),
}

/// The server's handle on its index writer thread (see `worker`).
#[derive(Default)]
pub(super) struct Writer {
    /// `None` until the first job of the server's life.
    pub(super) to: Option<SyncSender<Message>>,
    /// Updates were sent since the last [`Session::barrier`].
    pub(super) pending: bool,
    /// Whether this group's appends may still go to the thread.
    pub(super) open: bool,
    /// What the thread hands back to be freed here.
    pub(super) returned: Option<Receiver<Vec<Doc>>>,
}

impl Writer {
    /// Frees what the thread has handed back so far.
    pub(super) fn free_returned(&self) {
        if let Some(returned) = &self.returned {
            returned.try_iter().for_each(drop);
        }
    }

    /// Asks the thread to commit what it was sent; `None` when nothing was
    /// sent since the last time.
    fn commit(&mut self) -> Option<Receiver<Result<()>>> {
        if !std::mem::take(&mut self.pending) {
            return None;
        }
        let (done, outcome) = std::sync::mpsc::channel();
        self.to.as_ref()?.send(Message::Commit(done)).ok()?;
        Some(outcome)
    }
}

/// What the index keeps with a home: made on first use, dropped with the
/// home (a copy of the home starts without one).
#[derive(Default)]
pub(super) struct State {
    kept: Mutex<Option<Kept>>,
    writer: Mutex<Option<Writer>>,
}

impl home::Session for State {}

/// The search index's session with one home.
#[derive(Clone, Copy)]
pub(super) struct Session<'h> {
    home: &'h Home,
    state: &'h State,
}

/// Locks `m`, whatever a panicking holder left: the values stay usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<'h> Session<'h> {
    /// The session of `home`.
    pub(super) fn of(home: &'h Home) -> Session<'h> {
        Session {
            home,
            state: home.session::<State>(),
        }
    }

    /// Takes the kept connection, if any.
    pub(super) fn take_kept(&self) -> Option<Kept> {
        lock(&self.state.kept).take()
    }

    /// Keeps `kept`, unless a connection is kept already (then `kept` is
    /// closed); whether it was kept.
    pub(super) fn keep(&self, kept: Kept) -> bool {
        let mut slot = lock(&self.state.kept);
        let empty = slot.is_none();
        if empty {
            *slot = Some(kept);
        }
        empty
    }

    /// Closes the kept connection.
    pub(super) fn drop_kept(&self) {
        lock(&self.state.kept).take();
    }

    /// The handle on the writer thread, locked.
    pub(super) fn writer(&self) -> MutexGuard<'h, Option<Writer>> {
        lock(&self.state.writer)
    }

    /// Makes the writer thread commit what it was sent and waits for that
    /// commit; the rest of the group runs inline. Every `Index::open` calls
    /// it first; a no-op outside a server. A failure leaves the index
    /// marked stale: the open catches up.
    pub(super) fn barrier(&self) {
        let outcome = {
            let mut writer = self.writer();
            let Some(writer) = writer.as_mut() else {
                return;
            };
            writer.open = false;
            writer.commit()
        };
        let Some(outcome) = outcome else {
            return;
        };
        let failed = match outcome.recv() {
            Ok(Ok(())) => return,
            Ok(Err(e)) => e,
            Err(_) => Error::internal("the index writer thread stopped"),
        };
        mark_stale(self.home, &failed.message);
    }

    /// Opens the group's transaction on `conn`, when a group is open and
    /// its transaction is not (the first update of the group).
    pub(super) fn join(&self, conn: &Connection) -> Result<()> {
        if self.home.store.in_group() && conn.is_autocommit() {
            retry_busy(|| conn.execute_batch("BEGIN IMMEDIATE")).map_err(db_error)?;
        }
        Ok(())
    }

    /// Runs `op`, which may write through `conn`. When it fails inside a
    /// group, the group's transaction, which may hold half of `op`'s
    /// writes, is rolled back whole and the index marked stale: the next
    /// open, or `finish_group`, rebuilds those entries from the files.
    pub(super) fn guard<T>(&self, conn: &Connection, op: impl FnOnce() -> Result<T>) -> Result<T> {
        let result = op();
        if let Err(e) = &result
            && self.home.store.in_group()
            && !conn.is_autocommit()
        {
            let _ = conn.execute_batch("ROLLBACK");
            mark_stale(self.home, &e.message);
        }
        result
    }

    /// Whether a dropped `Index`'s connection may be kept: between calls
    /// only one with no transaction open, inside a group also the one whose
    /// transaction is the group's.
    pub(super) fn may_keep(&self, conn: &Connection) -> bool {
        conn.is_autocommit() || self.home.store.in_group()
    }

    /// A connection holding the group's transaction was closed instead of
    /// kept (it opened a database file since replaced, or the kept one was
    /// taken): its updates are rolled back, so the index is marked stale
    /// and `finish_group` catches it up from the files.
    pub(super) fn lost(&self) {
        if self.home.store.in_group() {
            mark_stale(self.home, "a group commit's index updates were rolled back");
        }
    }
}
