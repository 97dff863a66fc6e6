//! Writing the dense tables: a batch's lengths and stamps as its documents
//! go in, and bringing older tables up to the current layout (`restamp`,
//! `repack_lengths`).

use rusqlite::{Connection, OptionalExtension};

use super::super::super::ranking::seconds;
use super::super::fts5::{decode_size, stored_length};
use super::*;

/// One document just inserted, for [`store`].
pub(crate) struct Inserted<'a> {
    pub rowid: i64,
    pub kind: &'a str,
    /// RFC 3339.
    pub date: &'a str,
    pub session: Option<&'a str>,
    /// What its text is like (`flags::flags`).
    pub flags: u8,
}

/// The lengths FTS5 recorded for `docs` (rowid, tokens; by rowid), read
/// in one range scan of `fts_docsize` when their rowids are close together,
/// as a batch's are: a lookup each cost five times as much.
fn stored_lengths(conn: &Connection, docs: &[Inserted<'_>]) -> rusqlite::Result<Vec<(i64, u64)>> {
    let (Some(low), Some(high)) = (
        docs.iter().map(|d| d.rowid).min(),
        docs.iter().map(|d| d.rowid).max(),
    ) else {
        return Ok(Vec::new());
    };
    if docs.len() < 2 || (high - low) as u64 >= 2 * docs.len() as u64 {
        return Ok(Vec::new());
    }
    let mut stmt =
        conn.prepare_cached("SELECT id, sz FROM fts_docsize WHERE id BETWEEN ?1 AND ?2")?;
    let mut rows = stmt.query([low, high])?;
    let mut sizes = Vec::with_capacity(docs.len());
    while let Some(row) = rows.next()? {
        if let Some(sz) = row.get_ref(1)?.as_blob_or_null()? {
            sizes.push((row.get(0)?, decode_size(sz)));
        }
    }
    Ok(sizes)
}

/// Records the facts of documents just inserted (their FTS5 rows written in
/// this transaction): each one's length from its `fts_docsize` record, its
/// kind and date; rewrites the blocks they fall in, which `kept` forgets.
pub(crate) fn store(
    conn: &Connection,
    kept: &mut DocStats,
    docs: &[Inserted<'_>],
) -> rusqlite::Result<()> {
    let sizes = stored_lengths(conn, docs)?;
    let mut lengths = Vec::with_capacity(docs.len());
    for doc in docs {
        let tokens = match sizes.binary_search_by_key(&doc.rowid, |s| s.0) {
            Ok(i) => sizes[i].1,
            Err(_) => stored_length(conn, doc.rowid)?.unwrap_or(0),
        };
        let stored = u16::try_from(tokens).unwrap_or(TOO_LONG);
        lengths.push((doc.rowid, stored.to_le_bytes().to_vec()));
    }
    LENS.store(conn, &mut kept.lens, lengths)?;
    store_stamps(conn, kept, docs)
}

/// Writes the `stamps` entries of `docs` (kind, date, session).
fn store_stamps(
    conn: &Connection,
    kept: &mut DocStats,
    docs: &[Inserted<'_>],
) -> rusqlite::Result<()> {
    let mut stamps = Vec::with_capacity(docs.len());
    let mut codes: HashMap<&str, u8> = HashMap::new();
    let sessions = session_numbers(
        conn,
        docs.iter().filter_map(|d| d.session.map(|s| (s, d.rowid))),
    )?;
    for doc in docs {
        let code = match codes.get(doc.kind) {
            Some(code) => *code,
            None => {
                let code = kind_code(conn, doc.kind)?;
                codes.insert(doc.kind, code);
                // This connection's own writes do not move data_version.
                kept.kinds.insert(code, doc.kind.to_string());
                code
            }
        };
        let seconds = seconds(doc.date).map_or(0, Stamp::held);
        let stamp = Stamp {
            kind: code,
            flags: doc.flags,
            seconds: if code > 0 { seconds } else { 0 },
            session: doc.session.map_or(0, |s| sessions[s]),
        };
        stamps.push((doc.rowid, stamp.encode()));
    }
    STAMPS.store(conn, &mut kept.stamps, stamps)
}

/// Rewrites `stamps` and `sessions` from `docs`: a schema-7 index (or
/// older) held 5-byte stamps without a session. A million documents take
/// seconds, not a rebuild's ten.
pub(crate) fn restamp(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("DELETE FROM stamps; DELETE FROM sessions;")?;
    let mut read = conn.prepare(
        "SELECT rowid, kind, date, session, body FROM docs WHERE rowid > ?1 ORDER BY rowid LIMIT 20000",
    )?;
    let mut kept = DocStats::default();
    let mut after = i64::MIN;
    loop {
        let rows: Vec<(i64, String, String, Option<String>, u8)> = read
            .query_map([after], |r| {
                let body = r.get_ref(4)?.as_str().unwrap_or("");
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    super::super::flags::flags(body),
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let Some(last) = rows.last() else {
            return Ok(());
        };
        after = last.0;
        let docs: Vec<Inserted> = rows
            .iter()
            .map(|(rowid, kind, date, session, flags)| Inserted {
                rowid: *rowid,
                kind,
                date,
                session: session.as_deref(),
                flags: *flags,
            })
            .collect();
        store_stamps(conn, &mut kept, &docs)?;
    }
}

/// The numbers of the sessions of documents `(session, rowid)` just
/// inserted, from the `sessions` table, whose rows also keep the lowest and
/// highest rowid each session's documents ever had (a filtered search
/// reads only that range: `rank::scope`). One statement per session, not
/// per document: a batch of turns is one session's. A session past
/// [`MAX_SESSION`] is numbered 0, which a filter never takes for its own.
fn session_numbers<'a>(
    conn: &Connection,
    docs: impl Iterator<Item = (&'a str, i64)>,
) -> rusqlite::Result<HashMap<&'a str, u32>> {
    let mut ranges: HashMap<&str, (i64, i64)> = HashMap::new();
    for (session, rowid) in docs {
        let range = ranges.entry(session).or_insert((rowid, rowid));
        *range = (range.0.min(rowid), range.1.max(rowid));
    }
    // Numbered in the order their documents come (the same numbers when
    // `restamp` writes them again). A lookup, then a one-row insert or an
    // update by rowid: a statement with `RETURNING` (an upsert, or an
    // update returning the id) made a 1M-turn reindex 10.2 → 12.4-13 s,
    // the extra time in FTS5's segment merges (docs/PERFORMANCE.md,
    // "Eleventh session").
    let mut ranges: Vec<(&str, (i64, i64))> = ranges.into_iter().collect();
    ranges.sort_unstable_by_key(|(_, range)| *range);
    let mut find = conn.prepare_cached("SELECT id, first, last FROM sessions WHERE name = ?1")?;
    let mut numbers = HashMap::with_capacity(ranges.len());
    for (session, (first, last)) in ranges {
        let found: Option<(i64, i64, i64)> = find
            .query_row([session], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let id = match found {
            None => {
                conn.prepare_cached("INSERT INTO sessions(name, first, last) VALUES (?1, ?2, ?3)")?
                    .execute(rusqlite::params![session, first, last])?;
                conn.last_insert_rowid()
            }
            Some((id, low, high)) => {
                if first < low || last > high {
                    conn.prepare_cached("UPDATE sessions SET first = ?2, last = ?3 WHERE id = ?1")?
                        .execute(rusqlite::params![id, first.min(low), last.max(high)])?;
                }
                id
            }
        };
        let number = if (1..=MAX_SESSION).contains(&id) {
            id as u32
        } else {
            0
        };
        numbers.insert(session, number);
    }
    Ok(numbers)
}

/// Moves the lengths of a schema-5 index (`lens`: 1,000 two-byte lengths
/// a block) into `lengths` and drops `lens`; the rest of the schema is
/// unchanged. A million documents take a moment, not the rebuild's minute.
pub(crate) fn repack_lengths(conn: &Connection) -> rusqlite::Result<()> {
    const OLD_PER_BLOCK: i64 = 1000;
    let mut blocks: std::collections::BTreeMap<i64, Vec<u16>> = Default::default();
    {
        let mut stmt = conn.prepare("SELECT block, data FROM lens")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let block: i64 = row.get(0)?;
            let data = row.get_ref(1)?.as_blob()?;
            for (j, pair) in data
                .chunks_exact(2)
                .take(OLD_PER_BLOCK as usize)
                .enumerate()
            {
                let value = u16::from_le_bytes([pair[0], pair[1]]);
                if value == 0 {
                    continue;
                }
                let (new, i) = LENS.place(block * OLD_PER_BLOCK + j as i64);
                blocks
                    .entry(new)
                    .or_insert_with(|| vec![0; LENS.per_block as usize])[i] = value;
            }
        }
    }
    let mut write = conn.prepare("INSERT OR REPLACE INTO lengths(block, data) VALUES (?1, ?2)")?;
    for (block, values) in blocks {
        write.execute(rusqlite::params![block, packed::encode(&values)])?;
    }
    conn.execute_batch("DROP TABLE lens")
}

/// The number of a kind name in the `kinds` table (added when new); 0 when
/// the table is full. Looked up first: a one-shot writer then prepares one
/// statement, not two.
fn kind_code(conn: &Connection, kind: &str) -> rusqlite::Result<u8> {
    let find = |conn: &Connection| -> rusqlite::Result<Option<i64>> {
        conn.prepare_cached("SELECT id FROM kinds WHERE name = ?1")?
            .query_row([kind], |r| r.get(0))
            .optional()
    };
    let id = match find(conn)? {
        Some(id) => id,
        None => {
            conn.prepare_cached(
                "INSERT INTO kinds(name) VALUES (?1) ON CONFLICT(name) DO NOTHING",
            )?
            .execute([kind])?;
            find(conn)?.unwrap_or(0)
        }
    };
    Ok(kind_number(id))
}
