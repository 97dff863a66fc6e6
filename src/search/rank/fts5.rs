//! FTS5 from the inside: a collecting auxiliary function (each matching
//! row's rowid and weighted term frequencies, read from FTS5's own position
//! lists), the averages record (documents, total tokens) and `fts_docsize`
//! records.

use std::cell::RefCell;
use std::os::raw::{c_int, c_void};

use rusqlite::{Connection, OptionalExtension, ffi};

/// Column weights in the fts table's column order: title, body, tags.
const WEIGHTS: [f32; 3] = [2.0, 1.0, 1.5];
/// The name of the collecting auxiliary function.
pub(super) const COLLECT: &str = "agentbox_postings";

/// The postings a collecting query saw: rowids and, per row, the weighted
/// frequency of each phrase of the query.
#[derive(Default)]
pub(super) struct Collected {
    pub rowids: Vec<i64>,
    pub freqs: Vec<f32>,
    pub phrases: usize,
}

thread_local! {
    static COLLECTED: RefCell<Collected> = RefCell::new(Collected::default());
}

/// Registers the collecting auxiliary function on a connection.
pub(crate) fn register(conn: &Connection) -> rusqlite::Result<()> {
    // SAFETY: the fts5_api pointer is obtained the documented way (`SELECT
    // fts5(?1)` with a bound pointer of type "fts5_api_ptr") on this
    // connection's handle, used at once, and never kept.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = std::ptr::null_mut();
        let rc = ffi::sqlite3_prepare_v2(
            db,
            c"SELECT fts5(?1)".as_ptr(),
            -1,
            &mut stmt,
            std::ptr::null_mut(),
        );
        if rc != ffi::SQLITE_OK {
            return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None));
        }
        let mut api: *mut ffi::fts5_api = std::ptr::null_mut();
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut ffi::fts5_api).cast::<c_void>(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        ffi::sqlite3_finalize(stmt);
        let create = if api.is_null() {
            None
        } else {
            (*api).xCreateFunction
        };
        let Some(create) = create else {
            return Err(rusqlite::Error::SqliteFailure(
                ffi::Error::new(ffi::SQLITE_ERROR),
                Some("this SQLite has no FTS5".into()),
            ));
        };
        let rc = create(
            api,
            c"agentbox_postings".as_ptr(),
            std::ptr::null_mut(),
            Some(collect),
            None,
        );
        if rc != ffi::SQLITE_OK {
            return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None));
        }
    }
    Ok(())
}

/// The auxiliary function: appends the current row's rowid and weighted
/// phrase frequencies to [`COLLECTED`]; returns NULL.
unsafe extern "C" fn collect(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _n: c_int,
    _values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with a valid API table and context for the
    // current row; every out-pointer is a local.
    unsafe {
        let api = &*api;
        let (Some(phrase_count), Some(rowid), Some(inst_count), Some(inst)) =
            (api.xPhraseCount, api.xRowid, api.xInstCount, api.xInst)
        else {
            ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
            return;
        };
        let phrases = phrase_count(fts).max(0) as usize;
        let row = rowid(fts);
        let mut count: c_int = 0;
        let rc = inst_count(fts, &mut count);
        if rc != ffi::SQLITE_OK {
            ffi::sqlite3_result_error_code(ctx, rc);
            return;
        }
        let mut failed = ffi::SQLITE_OK;
        COLLECTED.with(|c| {
            let mut c = c.borrow_mut();
            c.phrases = phrases;
            c.rowids.push(row);
            let base = c.freqs.len();
            c.freqs.resize(base + phrases, 0.0);
            for i in 0..count {
                let (mut phrase, mut column, mut offset) = (0, 0, 0);
                let rc = inst(fts, i, &mut phrase, &mut column, &mut offset);
                if rc != ffi::SQLITE_OK {
                    failed = rc;
                    return;
                }
                let weight = WEIGHTS.get(column as usize).copied().unwrap_or(1.0);
                if let Some(f) = c.freqs.get_mut(base + phrase as usize) {
                    *f += weight;
                }
            }
        });
        if failed != ffi::SQLITE_OK {
            ffi::sqlite3_result_error_code(ctx, failed);
        } else {
            ffi::sqlite3_result_null(ctx);
        }
    }
}

/// Runs a collecting query (`SELECT agentbox_postings(fts) FROM fts WHERE
/// fts MATCH ?1 …`) and returns what it saw.
pub(super) fn postings(conn: &Connection, sql: &str, expr: &str) -> rusqlite::Result<Collected> {
    COLLECTED.with(|c| *c.borrow_mut() = Collected::default());
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query([expr])?;
    while rows.next()?.is_some() {}
    Ok(COLLECTED.with(|c| std::mem::take(&mut *c.borrow_mut())))
}

/// `(documents, average length in tokens)` from FTS5's averages record.
pub(super) fn totals(conn: &Connection) -> rusqlite::Result<Option<(f64, f64)>> {
    let blob: Option<Vec<u8>> = conn
        .prepare_cached("SELECT block FROM fts_data WHERE id = 1")?
        .query_row([], |r| r.get(0))
        .optional()?;
    let Some(blob) = blob else { return Ok(None) };
    let mut at = 0;
    let rows = varint(&blob, &mut at).unwrap_or(0);
    let mut tokens = 0u64;
    while let Some(n) = varint(&blob, &mut at) {
        tokens = tokens.saturating_add(n);
    }
    if rows == 0 {
        return Ok(None);
    }
    Ok(Some((rows as f64, (tokens as f64 / rows as f64).max(1e-9))))
}

/// One SQLite varint (big-endian groups of 7 bits; a ninth byte carries 8).
pub(super) fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value: u64 = 0;
    for i in 0..9 {
        let byte = *bytes.get(*at)?;
        *at += 1;
        if i == 8 {
            return Some((value << 8) | u64::from(byte));
        }
        value = (value << 7) | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    Some(value)
}

/// The length in tokens FTS5 recorded for document `rowid` (`None`: it
/// has no record).
pub(super) fn stored_length(conn: &Connection, rowid: i64) -> rusqlite::Result<Option<u64>> {
    let sz: Option<Vec<u8>> = conn
        .prepare_cached("SELECT sz FROM fts_docsize WHERE id = ?1")?
        .query_row([rowid], |r| r.get(0))
        .optional()?;
    Ok(sz.map(|sz| decode_size(&sz)))
}

/// The total of an `fts_docsize` record (one varint per column).
pub(super) fn decode_size(sz: &[u8]) -> u64 {
    let mut at = 0;
    let mut tokens = 0u64;
    while let Some(n) = varint(sz, &mut at) {
        tokens = tokens.saturating_add(n);
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_decode_like_sqlite() {
        let mut at = 0;
        assert_eq!(varint(&[0x05], &mut at), Some(5));
        let mut at = 0;
        assert_eq!(varint(&[0x81, 0x00], &mut at), Some(128));
        assert_eq!(at, 2);
        let mut at = 0;
        assert_eq!(varint(&[0x81], &mut at), None);
        let mut at = 0;
        assert_eq!(varint(&[0xff; 9], &mut at), Some(u64::MAX));
        assert_eq!(decode_size(&[0x02, 0x81, 0x00, 0x03]), 133);
    }
}
