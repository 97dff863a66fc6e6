//! FTS5 from the inside: auxiliary functions that collect each matching
//! row's rowid and weighted term frequencies (read from FTS5's own position
//! lists) row by row (`agentbox_postings`) or a whole phrase at a time with
//! `xQueryPhrase` (`agentbox_phrases`, `agentbox_counts`: no statement
//! step per row), the averages record (documents, total tokens) and
//! `fts_docsize` records.

use std::cell::RefCell;
use std::os::raw::{c_int, c_void};

use rusqlite::{Connection, OptionalExtension, ffi};

/// Column weights in the fts table's column order: title, body, tags.
pub(super) const WEIGHTS: [f32; 3] = [2.0, 1.0, 1.5];
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
        for (name, function) in [
            (c"agentbox_postings", collect as Aux),
            (c"agentbox_phrases", each_phrase as Aux),
            (c"agentbox_counts", count_each as Aux),
        ] {
            let rc = create(
                api,
                name.as_ptr(),
                std::ptr::null_mut(),
                Some(function),
                None,
            );
            if rc != ffi::SQLITE_OK {
                return Err(rusqlite::Error::SqliteFailure(ffi::Error::new(rc), None));
            }
        }
    }
    Ok(())
}

/// An FTS5 auxiliary function.
type Aux = unsafe extern "C" fn(
    *const ffi::Fts5ExtensionApi,
    *mut ffi::Fts5Context,
    *mut ffi::sqlite3_context,
    c_int,
    *mut *mut ffi::sqlite3_value,
);

/// What [`each_phrase`] gathers of one phrase: its documents in rowid
/// order, each with the phrase's weighted frequency.
type PhraseRows = Vec<(i64, f32)>;

/// The auxiliary function behind [`phrase_postings`], called on the first
/// row of its query only: reads the whole posting list of each phrase of
/// the query with `xQueryPhrase`, inside FTS5, instead of stepping the
/// statement through every matching row (the virtual machine, the column
/// call and the row hand-over cost more than reading the postings), and
/// counts each document's instances with `xPhraseFirst`/`xPhraseNext`
/// (no instance array to build). Leaves the merged result in
/// [`COLLECTED`]; returns NULL.
unsafe extern "C" fn each_phrase(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    _n: c_int,
    _values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with a valid API table and context.
    unsafe {
        match each_phrase_of(&*api, fts, PhraseRows::default, phrase_row) {
            Ok(lists) => {
                COLLECTED.with(|c| *c.borrow_mut() = merge(&lists));
                ffi::sqlite3_result_null(ctx);
            }
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

/// Runs `callback` over every document of each phrase of the current query
/// (`xQueryPhrase`, phrase by phrase, oldest first), with a fresh state
/// from `init` per phrase; the states in phrase order, or the first error
/// (`xQueryPhrase` returns the code a callback stopped with, `SQLITE_DONE`
/// aside).
///
/// # Safety
///
/// `api` and `fts` are what FTS5 passed to an auxiliary function, and
/// `callback` treats its user data as an `S`.
unsafe fn each_phrase_of<S>(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    init: impl Fn() -> S,
    callback: unsafe extern "C" fn(
        *const ffi::Fts5ExtensionApi,
        *mut ffi::Fts5Context,
        *mut c_void,
    ) -> c_int,
) -> Result<Vec<S>, c_int> {
    let (Some(phrase_count), Some(query_phrase)) = (api.xPhraseCount, api.xQueryPhrase) else {
        return Err(ffi::SQLITE_MISUSE);
    };
    // SAFETY: `fts` is the live context FTS5 passed in (the caller's
    // contract).
    let phrases = unsafe { phrase_count(fts) }.max(0);
    let mut out = Vec::with_capacity(phrases as usize);
    for i in 0..phrases {
        let mut state = init();
        let user = (&mut state as *mut S).cast::<c_void>();
        // SAFETY: the caller's contract (`fts` live, `callback` reads its
        // user data as an `S`); `state` is a local that outlives the
        // `xQueryPhrase` call, which calls `callback` only while it runs.
        let rc = unsafe { query_phrase(fts, i, user, Some(callback)) };
        if rc != ffi::SQLITE_OK {
            return Err(rc);
        }
        out.push(state);
    }
    Ok(out)
}

/// `xQueryPhrase`'s callback: one document of the phrase (phrase 0 of
/// `fts`), its rowid and weighted frequency.
unsafe extern "C" fn phrase_row(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    user: *mut c_void,
) -> c_int {
    // SAFETY: `user` is the `PhraseRows` `each_phrase` passed, alive and not
    // otherwise borrowed during `xQueryPhrase`; FTS5 passes a valid API table
    // and a context positioned on the row.
    unsafe {
        let rows = &mut *user.cast::<PhraseRows>();
        let api = &*api;
        let Some(rowid) = api.xRowid else {
            return ffi::SQLITE_MISUSE;
        };
        match frequency(api, fts, 0) {
            Ok(freq) => {
                rows.push((rowid(fts), freq));
                ffi::SQLITE_OK
            }
            Err(rc) => rc,
        }
    }
}

/// What [`count_each`] learns of one phrase: how many documents it read
/// (at most its limit) and the last (highest) rowid among them.
#[derive(Default)]
struct Counted {
    limit: u64,
    count: u64,
    last: Option<i64>,
}

/// What [`phrase_counts`] tells of one phrase.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct PhraseCount {
    /// Documents counted (at most the limit), and the highest rowid among
    /// them.
    pub count: u64,
    pub newest: Option<i64>,
    /// The phrase's token as the index stores it (the tokenizer's output),
    /// when the phrase is one token (`doclist` reads its postings).
    pub token: Option<Vec<u8>>,
}

thread_local! {
    static COUNTED: RefCell<Vec<PhraseCount>> = const { RefCell::new(Vec::new()) };
}

/// The auxiliary function behind [`phrase_counts`] (`agentbox_counts(fts,
/// LIMIT)`), called on the first row of its query only: counts each
/// phrase's documents oldest first with `xQueryPhrase`, stopping at LIMIT,
/// and leaves a [`PhraseCount`] per phrase in [`COUNTED`].
unsafe extern "C" fn count_each(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n: c_int,
    values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with a valid API table and context, and
    // `values` holding `n` arguments.
    unsafe {
        if n < 1 {
            ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
            return;
        }
        let limit = ffi::sqlite3_value_int64(*values).max(1) as u64;
        let init = || Counted {
            limit,
            ..Counted::default()
        };
        match each_phrase_of(&*api, fts, init, count_row) {
            Ok(all) => {
                let out = all
                    .iter()
                    .enumerate()
                    .map(|(i, c)| PhraseCount {
                        count: c.count,
                        newest: c.last,
                        token: query_token(&*api, fts, i as c_int),
                    })
                    .collect();
                COUNTED.with(|c| *c.borrow_mut() = out);
                ffi::sqlite3_result_null(ctx);
            }
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

/// The token of phrase `phrase` of the current query as the index stores
/// it, when the phrase is one token (`xQueryToken`, FTS5's API version 3).
///
/// # Safety
///
/// `api` and `fts` are what FTS5 passed to an auxiliary function.
unsafe fn query_token(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    phrase: c_int,
) -> Option<Vec<u8>> {
    if api.iVersion < 3 {
        return None;
    }
    let (Some(size), Some(token)) = (api.xPhraseSize, api.xQueryToken) else {
        return None;
    };
    // SAFETY: the caller's contract; the out-pointers are locals, and the
    // token FTS5 points to lives as long as the query, longer than the copy.
    unsafe {
        if size(fts, phrase) != 1 {
            return None;
        }
        let mut bytes: *const std::os::raw::c_char = std::ptr::null();
        let mut len: c_int = 0;
        if token(fts, phrase, 0, &mut bytes, &mut len) != ffi::SQLITE_OK || bytes.is_null() {
            return None;
        }
        let len = usize::try_from(len).ok()?;
        Some(std::slice::from_raw_parts(bytes.cast::<u8>(), len).to_vec())
    }
}

/// `xQueryPhrase`'s callback for [`count_each`]: one more document; done
/// (`SQLITE_DONE`, which FTS5 takes as "stop") at the limit.
unsafe extern "C" fn count_row(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    user: *mut c_void,
) -> c_int {
    // SAFETY: `user` is the `Counted` `count_each` passed, alive during
    // `xQueryPhrase`; FTS5 passes a valid API table and row context.
    unsafe {
        let counted = &mut *user.cast::<Counted>();
        let Some(rowid) = (*api).xRowid else {
            return ffi::SQLITE_MISUSE;
        };
        counted.count += 1;
        counted.last = Some(rowid(fts));
        if counted.count >= counted.limit {
            ffi::SQLITE_DONE
        } else {
            ffi::SQLITE_OK
        }
    }
}

/// For each phrase of `phrases` (each a quoted word), how many documents
/// hold it, counted up to `limit` oldest first, the highest rowid counted
/// and its token: one query for all of them (`"a" OR "b" …`), each
/// phrase's postings read inside FTS5 (see [`count_each`]).
pub(super) fn phrase_counts(
    conn: &Connection,
    phrases: &[String],
    limit: usize,
) -> rusqlite::Result<Vec<PhraseCount>> {
    if phrases.is_empty() {
        return Ok(Vec::new());
    }
    COUNTED.with(|c| c.borrow_mut().clear());
    let sql = format!("SELECT agentbox_counts(fts, {limit}) FROM fts WHERE fts MATCH ?1 LIMIT 1");
    run(conn, &sql, &phrases.join(" OR "))?;
    let counted = COUNTED.with(|c| std::mem::take(&mut *c.borrow_mut()));
    // No row: no phrase is in any document.
    Ok(if counted.len() == phrases.len() {
        counted
    } else {
        vec![PhraseCount::default(); phrases.len()]
    })
}

/// Per-phrase lists (each in rowid order) as one [`Collected`]: every rowid
/// once, ascending, with each phrase's frequency (0 where it is absent),
/// as a query of the phrases joined by OR collects them.
fn merge(lists: &[Vec<(i64, f32)>]) -> Collected {
    let phrases = lists.len();
    let mut at = vec![0usize; phrases];
    let mut out = Collected {
        rowids: Vec::with_capacity(lists.iter().map(Vec::len).max().unwrap_or(0)),
        freqs: Vec::new(),
        phrases,
    };
    loop {
        let next = (0..phrases)
            .filter_map(|i| lists[i].get(at[i]).map(|r| r.0))
            .min();
        let Some(rowid) = next else { break };
        out.rowids.push(rowid);
        for i in 0..phrases {
            match lists[i].get(at[i]) {
                Some(&(r, freq)) if r == rowid => {
                    out.freqs.push(freq);
                    at[i] += 1;
                }
                _ => out.freqs.push(0.0),
            }
        }
    }
    out
}

/// What `SELECT agentbox_postings(fts) FROM fts WHERE fts MATCH ?1`
/// collects for `expr`, a disjunction of phrases (`"a" OR "b"`), read
/// phrase by phrase inside FTS5 (see [`each_phrase`]).
pub(super) fn phrase_postings(conn: &Connection, expr: &str) -> rusqlite::Result<Collected> {
    let sql = "SELECT agentbox_phrases(fts) FROM fts WHERE fts MATCH ?1 LIMIT 1";
    postings(conn, sql, expr)
}

/// Runs a query of one of the auxiliary functions to the end: they leave
/// what they saw in a thread-local, and every row is NULL.
fn run(conn: &Connection, sql: &str, expr: &str) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query([expr])?;
    while rows.next()?.is_some() {}
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
        let (Some(phrase_count), Some(rowid)) = (api.xPhraseCount, api.xRowid) else {
            ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
            return;
        };
        let phrases = phrase_count(fts).max(0) as usize;
        let row = rowid(fts);
        let mut failed = ffi::SQLITE_OK;
        COLLECTED.with(|c| {
            let mut c = c.borrow_mut();
            c.phrases = phrases;
            c.rowids.push(row);
            for i in 0..phrases {
                match frequency(api, fts, i as c_int) {
                    Ok(freq) => c.freqs.push(freq),
                    Err(rc) => {
                        failed = rc;
                        return;
                    }
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

/// The weighted frequency of phrase `phrase` in the current row of `fts`:
/// its instances walked with `xPhraseFirst`/`xPhraseNext`, each weighted by
/// its column (`xInst` would first build an array of every phrase's
/// instances in position order, which a count does not need).
///
/// # Safety
///
/// `api` and `fts` are what FTS5 passed to an auxiliary function or an
/// `xQueryPhrase` callback, positioned on a row.
unsafe fn frequency(
    api: &ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    phrase: c_int,
) -> Result<f32, c_int> {
    let (Some(first), Some(next)) = (api.xPhraseFirst, api.xPhraseNext) else {
        return Err(ffi::SQLITE_MISUSE);
    };
    let mut iter = ffi::Fts5PhraseIter {
        a: std::ptr::null(),
        b: std::ptr::null(),
    };
    let (mut column, mut offset) = (0, 0);
    // SAFETY: the caller's contract; every out-pointer is a local.
    let rc = unsafe { first(fts, phrase, &mut iter, &mut column, &mut offset) };
    if rc != ffi::SQLITE_OK {
        return Err(rc);
    }
    let mut freq = 0.0f32;
    while column >= 0 {
        freq += WEIGHTS.get(column as usize).copied().unwrap_or(1.0);
        // SAFETY: as above; `iter` was set up by `first`.
        unsafe { next(fts, &mut iter, &mut column, &mut offset) };
    }
    Ok(freq)
}

/// Runs a collecting query (`SELECT agentbox_postings(fts) FROM fts WHERE
/// fts MATCH ?1 …`, or `agentbox_phrases`) and returns what it saw.
pub(super) fn postings(conn: &Connection, sql: &str, expr: &str) -> rusqlite::Result<Collected> {
    COLLECTED.with(|c| *c.borrow_mut() = Collected::default());
    run(conn, sql, expr)?;
    Ok(COLLECTED.with(|c| std::mem::take(&mut *c.borrow_mut())))
}

/// What `agentbox_postings` collects for `expr` in each of the documents
/// `rowids` that match it: one FTS5 lookup by rowid each (a seek in each
/// phrase's postings), for a few documents among many matches.
pub(super) fn postings_at(
    conn: &Connection,
    expr: &str,
    rowids: &[i64],
) -> rusqlite::Result<Collected> {
    COLLECTED.with(|c| *c.borrow_mut() = Collected::default());
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLLECT}(fts) FROM fts WHERE fts MATCH ?1 AND rowid = ?2"
    ))?;
    for &rowid in rowids {
        let mut rows = stmt.query(rusqlite::params![expr, rowid])?;
        while rows.next()?.is_some() {}
    }
    Ok(COLLECTED.with(|c| std::mem::take(&mut *c.borrow_mut())))
}

/// Steps a collecting query (`SELECT agentbox_postings(fts) …`), handing
/// what it collected to `take` every `chunk` rows and at the end, until
/// `take` says it has enough (returns false): a filtered search reads the
/// newest matches only until enough of them pass (`scope`).
pub(super) fn postings_chunked(
    conn: &Connection,
    sql: &str,
    expr: &str,
    chunk: usize,
    mut take: impl FnMut(Collected) -> rusqlite::Result<bool>,
) -> rusqlite::Result<()> {
    COLLECTED.with(|c| *c.borrow_mut() = Collected::default());
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query([expr])?;
    let mut stepped = 0usize;
    loop {
        let more = rows.next()?.is_some();
        stepped += 1;
        if !more || stepped.is_multiple_of(chunk.max(1)) {
            let got = COLLECTED.with(|c| std::mem::take(&mut *c.borrow_mut()));
            if !take(got)? || !more {
                return Ok(());
            }
        }
    }
}

/// What a ranking needs of the whole index.
pub(super) struct Totals {
    /// Documents, and their average length in tokens (FTS5's averages record).
    pub rows: f64,
    pub avgdl: f64,
    /// The lowest and highest rowid in `docs`.
    pub first: i64,
    pub last: i64,
}

/// The index's [`Totals`]; `None` when it holds no document. One statement
/// for the three facts: a one-shot search prepares each it runs, and a
/// prepare costs more than these reads.
pub(super) fn totals(conn: &Connection) -> rusqlite::Result<Option<Totals>> {
    let (blob, first, last): (Option<Vec<u8>>, Option<i64>, Option<i64>) = conn
        .prepare_cached(
            "SELECT (SELECT block FROM fts_data WHERE id = 1),
                    (SELECT min(rowid) FROM docs), (SELECT max(rowid) FROM docs)",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    let (Some(blob), Some(first), Some(last)) = (blob, first, last) else {
        return Ok(None);
    };
    let mut at = 0;
    let rows = varint(&blob, &mut at).unwrap_or(0);
    let mut tokens = 0u64;
    while let Some(n) = varint(&blob, &mut at) {
        tokens = tokens.saturating_add(n);
    }
    if rows == 0 {
        return Ok(None);
    }
    Ok(Some(Totals {
        rows: rows as f64,
        avgdl: (tokens as f64 / rows as f64).max(1e-9),
        first,
        last,
    }))
}

/// How many segments each level of the FTS5 index holds, lowest level
/// first, from its structure record (`fts_data` row 10: a 4-byte cookie,
/// the 4-byte mark of the second format when present, then varints: the
/// levels, the segments, a write counter, and per level its merge state,
/// its segment count and each segment's fields, three or, in the second
/// format, eight). Empty when there is no record (no document yet); an
/// error when the record does not decode.
pub(crate) fn segment_levels(conn: &Connection) -> rusqlite::Result<Vec<usize>> {
    let blob: Option<Vec<u8>> = conn
        .prepare_cached("SELECT block FROM fts_data WHERE id = 10")?
        .query_row([], |r| r.get(0))
        .optional()?;
    let Some(blob) = blob else {
        return Ok(Vec::new());
    };
    decode_levels(&blob).ok_or_else(|| {
        rusqlite::Error::SqliteFailure(
            ffi::Error::new(ffi::SQLITE_CORRUPT),
            Some("fts5 structure record does not decode".into()),
        )
    })
}

fn decode_levels(blob: &[u8]) -> Option<Vec<usize>> {
    Some(structure(blob)?.1.iter().map(Vec::len).collect())
}

/// A structure record: whether it is of the second format, and per level,
/// lowest first, its segments oldest first, each's first three fields (id,
/// first and last leaf page). The layout: a 4-byte cookie, the 4-byte mark
/// of the second format when present, then varints: the levels, the
/// segments, a write counter, and per level its merge state, its segment
/// count and each segment's fields, three or, in the second format, eight.
pub(super) fn structure(blob: &[u8]) -> Option<(bool, Vec<Vec<[u64; 3]>>)> {
    let second = blob.get(4..8) == Some(&[0xff, 0x00, 0x00, 0x01][..]);
    let mut at = if second { 8 } else { 4 };
    let levels = varint(blob, &mut at)?;
    let _segments = varint(blob, &mut at)?;
    let _writes = varint(blob, &mut at)?;
    if levels > 64 {
        return None; // FTS5 has at most 64 levels
    }
    let mut out = Vec::new();
    for _ in 0..levels {
        let _merge = varint(blob, &mut at)?;
        let count = varint(blob, &mut at)?;
        // Each segment takes a byte at least: a count past the record's
        // size fails here, without a huge allocation.
        let mut level = Vec::with_capacity(count.min(blob.len() as u64) as usize);
        for _ in 0..count {
            let mut fields = [0u64; 3];
            for field in &mut fields {
                *field = varint(blob, &mut at)?;
            }
            for _ in 3..if second { 8 } else { 3 } {
                varint(blob, &mut at)?;
            }
            level.push(fields);
        }
        out.push(level);
    }
    Some((second, out))
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
#[path = "fts5_tests.rs"]
mod tests;
