//! The search index's SQLite connection: how it is opened and tuned, the
//! error a failure becomes, and its transactions.

use super::rank;
use crate::error::{Error, ErrorType, Result};
use rusqlite::Connection;
use std::path::Path;

/// `detail.sqlite` classifies the failure (`corrupt`, `notadb`, `schema` mean
/// a damaged database, which is rebuilt on its own: [`is_damaged`]).
pub(super) fn db_error(e: rusqlite::Error) -> Error {
    Error::new(ErrorType::Io, format!("search index: {e}"))
        .with_hint("the index is derived and safe to rebuild: run `agentbox reindex`")
        .with_detail("sqlite", sqlite_class(&e))
}

/// How a SQLite failure is classified in `detail.sqlite` of an index error.
pub(super) fn sqlite_class(e: &rusqlite::Error) -> &'static str {
    use rusqlite::ErrorCode as C;
    match e {
        rusqlite::Error::SqliteFailure(f, msg) => match f.code {
            C::DatabaseCorrupt => "corrupt",
            C::NotADatabase => "notadb",
            C::DatabaseBusy | C::DatabaseLocked => "busy",
            C::CannotOpen => "cantopen",
            C::ReadOnly => "readonly",
            C::PermissionDenied | C::AuthorizationForStatementDenied => "permission",
            C::DiskFull => "full",
            C::SystemIoFailure => "ioerr",
            _ if msg
                .as_deref()
                .is_some_and(|m| m.contains("no such table") || m.contains("no such column")) =>
            {
                "schema"
            }
            _ => "error",
        },
        rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::InvalidColumnIndex(_)
        | rusqlite::Error::InvalidColumnName(_)
        | rusqlite::Error::IntegralValueOutOfRange(..)
        | rusqlite::Error::FromSqlConversionFailure(..) => "schema",
        _ => "error",
    }
}

/// Whether an index error means the database itself is damaged (rebuilding
/// fixes it), as opposed to busy, unwritable or out of space.
pub(super) fn is_damaged(err: &Error) -> bool {
    matches!(
        err.detail.get("sqlite").and_then(|v| v.as_str()),
        Some("corrupt" | "notadb" | "schema")
    )
}

/// How long a statement waits for another connection's lock.
pub(super) const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Makes `conn` wait up to [`BUSY_TIMEOUT`] for another connection's lock,
/// trying again every millisecond. SQLite's own busy timeout backs off to
/// a try every 100 ms, and a writer that takes the lock again as soon as it
/// lets go (`memory_mcp`'s index writer during a long ingest) then keeps
/// such a waiter out for as long as it writes: a search that had to catch
/// up took up to 4.2 s beside a 300k-turn ingest, 0.38 s with this
/// (docs/PERFORMANCE.md, "Twelfth session").
pub(super) fn patient(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_handler(Some(wait_a_millisecond))
}

/// The busy handler of [`patient`]: SQLite calls it with the number of
/// times it was called for this lock; `false` gives up (`SQLITE_BUSY`).
fn wait_a_millisecond(tries: i32) -> bool {
    // Each try sleeps at least a millisecond: 30,000 tries are 30 s or more.
    let waited = std::time::Duration::from_millis(u64::try_from(tries).unwrap_or(0));
    if waited >= BUSY_TIMEOUT {
        return false;
    }
    std::thread::sleep(std::time::Duration::from_millis(1));
    true
}

/// Opens `search.db` in WAL mode, tuned for what the index is (derived,
/// read far more than written), with agentbox's FTS5 function registered.
pub(super) fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    patient(&conn)?;
    // WAL lets readers run beside one writer. Switching needs a lock, so
    // only a fresh database (not yet WAL) is switched; the busy timeout
    // covers the race when several processes create it at once.
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        retry_busy(|| conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)))?;
    }
    // The index is derived, so it trades durability for speed: no fsync
    // on commit or checkpoint (synchronous=OFF). A killed process cannot
    // damage it (the OS still has every write); after a power loss a
    // damaged index is rebuilt with `agentbox reindex` and loses nothing.
    // journal_size_limit=0 truncates the WAL after each checkpoint, so
    // with the WAL kept (below) no old page outlives a checkpoint in it.
    conn.execute_batch("PRAGMA synchronous=OFF; PRAGMA journal_size_limit=0;")?;
    // A one-shot call reads a few hundred pages, most of them once (a
    // search at 1M turns reads every block of `lengths`): a 64 KB page
    // cache (16 pages) recycles its buffers instead of growing towards
    // SQLite's 2 MB default in fresh memory, page fault by page fault.
    // 256 KB → 64 KB: 50 fewer page faults and 3–5 % off a search at 100k
    // and 1M turns, 4 % off `track record`; a filtered search reads ~60
    // pages more and is no slower (docs/PERFORMANCE.md, "Ninth session").
    // A server keeps the default: its queries and saves come back to the
    // same pages.
    if !LONG_LIVED.load(std::sync::atomic::Ordering::Relaxed) {
        conn.execute_batch("PRAGMA cache_size=-64;")?;
    }
    keep_wal(&conn);
    // A query runs about fifteen distinct statements and a save as many
    // others: rusqlite's default of 16 kept would prepare some again
    // and again in a server that does both.
    conn.set_prepared_statement_cache_capacity(64);
    rank::register(&conn)?;
    Ok(conn)
}

/// A read transaction (`BEGIN`, ended on drop) unless one is already open.
pub(super) struct ReadTx<'c> {
    conn: Option<&'c Connection>,
}

impl<'c> ReadTx<'c> {
    pub(super) fn begin(conn: &'c Connection) -> Result<ReadTx<'c>> {
        if !conn.is_autocommit() {
            return Ok(ReadTx { conn: None });
        }
        conn.execute_batch("BEGIN").map_err(db_error)?;
        Ok(ReadTx { conn: Some(conn) })
    }
}

impl Drop for ReadTx<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn {
            let _ = conn.execute_batch("COMMIT");
        }
    }
}

/// A write transaction taken up front (`BEGIN IMMEDIATE`), so a writer waits
/// for the lock at the start instead of failing when it upgrades a read.
/// Rolled back on drop unless committed.
pub(super) struct Tx<'c> {
    conn: &'c Connection,
    done: bool,
}

impl<'c> Tx<'c> {
    /// Begins a transaction, or joins the one already open on `conn` (an
    /// outer batch such as `refresh_files`): a joined one neither commits
    /// nor rolls back; the outer one does.
    pub(super) fn begin(conn: &'c Connection) -> Result<Tx<'c>> {
        if !conn.is_autocommit() {
            return Ok(Tx { conn, done: true });
        }
        retry_busy(|| conn.execute_batch("BEGIN IMMEDIATE")).map_err(db_error)?;
        Ok(Tx { conn, done: false })
    }

    pub(super) fn commit(mut self) -> Result<()> {
        if self.done {
            return Ok(());
        }
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

/// Whether this process serves many calls (memory_mcp): see [`long_lived`].
static LONG_LIVED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this process as one that serves many calls: the index connections
/// it opens from now on keep SQLite's default page cache.
pub fn long_lived() {
    LONG_LIVED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Keeps `search.db-wal` and `-shm` when the last connection closes
/// (`SQLITE_FCNTL_PERSIST_WAL`): otherwise every call creates both files
/// and deletes them on exit, four file-system operations a call. Best
/// effort: a connection that cannot set it works as before.
fn keep_wal(conn: &Connection) {
    let mut on: std::ffi::c_int = 1;
    // SAFETY: the handle is this open connection's; "main" is a NUL-terminated
    // name; PERSIST_WAL reads and writes one int through the pointer, which
    // outlives the call.
    unsafe {
        rusqlite::ffi::sqlite3_file_control(
            conn.handle(),
            c"main".as_ptr(),
            rusqlite::ffi::SQLITE_FCNTL_PERSIST_WAL,
            (&raw mut on).cast(),
        );
    }
}

/// Whether SQLite refused an operation as busy or locked (another
/// connection holds the lock it needs).
pub(super) fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(e, _) if matches!(
        e.code,
        rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
    ))
}

/// Retries an operation SQLite refused as busy or locked, for up to 30 s.
/// (The busy handler does not cover every case, e.g. WAL recovery.)
pub(super) fn retry_busy<T>(mut op: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = std::time::Duration::from_millis(1);
    loop {
        match op() {
            Err(e) if is_busy(&e) && std::time::Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patient_connection_waits_for_the_lock_a_millisecond_at_a_time() {
        assert!(wait_a_millisecond(0));
        assert!(wait_a_millisecond(29_999));
        assert!(!wait_a_millisecond(30_000));
        assert!(!wait_a_millisecond(i32::MAX));
        // Another connection holds the write lock for a while: the patient
        // one gets it once released, instead of failing busy.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.db");
        let holder = open(&path).unwrap();
        holder.execute_batch("BEGIN IMMEDIATE").unwrap();
        let waiter = std::thread::spawn(move || {
            let conn = open(&path).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE; COMMIT")
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        holder.execute_batch("COMMIT").unwrap();
        waiter.join().unwrap().unwrap();
    }
}
