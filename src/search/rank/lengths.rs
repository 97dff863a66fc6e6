//! Document lengths, densely: the `lens` table and the blocks a process
//! keeps of it.
//!
//! BM25 needs each candidate's length in tokens (title + body + tags, as
//! FTS5 counts them). FTS5 keeps it in `fts_docsize`, a row per document:
//! reading that for thousands of candidates was most of a query's time, a
//! database page per candidate. `lens` holds the same numbers 1,000 to a
//! row (2 bytes each, two rows a database page), written with the
//! documents, and a long-lived process keeps the blocks it has read.

use rusqlite::{Connection, OptionalExtension};

use super::fts5::decode_size;

/// Documents per row of the `lens` table: two rows of 2,000 bytes fill a
/// 4 KB database page (a row of 2,048 would take a page alone).
const BLOCK: i64 = 1000;
/// Blocks a process keeps at most (2 KB each: 16 MB, 8M documents).
const KEEP_BLOCKS: usize = 8192;
/// The stored value of a length `lens` cannot hold (FTS5's record is read).
pub(super) const TOO_LONG: u16 = u16::MAX;

/// The blocks of `lens` this connection has read, by block number.
#[derive(Default)]
pub(crate) struct Lengths {
    /// `PRAGMA data_version` when the blocks were checked: another
    /// connection's commit changes it.
    version: Option<i64>,
    /// The index build they belong to (`meta.built`) and its highest rowid
    /// then: documents are only ever added above the highest rowid, so
    /// another writer's commit can change only the blocks from that one on;
    /// a rebuild changes them all.
    built: Option<String>,
    top: i64,
    blocks: Vec<Option<Box<[u16]>>>,
    kept: usize,
    /// Read every block at once (a long-lived process: `keep_all`).
    whole: bool,
}

impl Lengths {
    /// Makes this process read and keep every block (a server: one read of
    /// 2 KB per 1,000 documents, instead of a block at a time mid-query).
    pub(crate) fn keep_all(&mut self) {
        self.whole = true;
    }

    /// Brings the kept blocks up to date with the database: after another
    /// connection's commit, drops the blocks it may have changed.
    pub(super) fn check(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        if self.version != Some(version) || self.kept > KEEP_BLOCKS {
            let (built, top): (Option<String>, i64) = conn
                .prepare_cached(
                    "SELECT (SELECT value FROM meta WHERE key = 'built'),
                            coalesce((SELECT max(rowid) FROM docs), 0)",
                )?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if self.version.is_none() || built != self.built || self.kept > KEEP_BLOCKS {
                self.clear();
            } else {
                let from = usize::try_from(place(self.top.min(top)).0).unwrap_or(0);
                for block in from..self.blocks.len() {
                    self.forget(block as i64);
                }
            }
            self.version = Some(version);
            self.built = built;
            self.top = top;
        }
        if self.whole {
            self.load_missing(conn)?;
        }
        Ok(())
    }

    /// Prepares for the lengths of `count` documents: when they are likely
    /// to fall in most blocks, reads them all in one pass (a scan is cheaper
    /// than a lookup per block).
    pub(super) fn expect(&mut self, conn: &Connection, count: usize) -> rusqlite::Result<()> {
        let blocks = usize::try_from(place(self.top).0).unwrap_or(0) + 1;
        if !self.whole && count >= blocks / 2 {
            self.load_missing(conn)?;
        }
        Ok(())
    }

    /// Reads every block not kept yet, in one pass from the first missing.
    fn load_missing(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let first = self.blocks.iter().position(Option::is_none);
        let from = first.unwrap_or(self.blocks.len()) as i64;
        let mut stmt = conn.prepare_cached("SELECT block, data FROM lens WHERE block >= ?1")?;
        let mut rows = stmt.query([from])?;
        while let Some(row) = rows.next()? {
            let Ok(slot) = usize::try_from(row.get::<_, i64>(0)?) else {
                continue;
            };
            if slot >= self.blocks.len() {
                self.blocks.resize(slot + 1, None);
            }
            if self.blocks[slot].is_none() {
                let data: Vec<u8> = row.get(1)?;
                self.blocks[slot] = Some(decode_block(&data).into_boxed_slice());
                self.kept += 1;
            }
        }
        Ok(())
    }

    /// The length of document `rowid`: 0 when `lens` does not know it,
    /// [`TOO_LONG`] when it is longer than `lens` holds.
    pub(super) fn get(&mut self, conn: &Connection, rowid: i64) -> rusqlite::Result<u16> {
        let (block, at) = place(rowid);
        let Ok(slot) = usize::try_from(block) else {
            return Ok(0);
        };
        if slot >= self.blocks.len() {
            self.blocks.resize(slot + 1, None);
        }
        if self.blocks[slot].is_none() {
            self.blocks[slot] = Some(read_block(conn, block)?.into_boxed_slice());
            self.kept += 1;
        }
        Ok(self.blocks[slot].as_ref().map_or(0, |b| b[at]))
    }

    /// Forgets one block (this connection rewrote it).
    fn forget(&mut self, block: i64) {
        if let Some(slot) = usize::try_from(block)
            .ok()
            .and_then(|b| self.blocks.get_mut(b))
            && slot.take().is_some()
        {
            self.kept -= 1;
        }
    }

    /// Forgets everything (this connection rebuilt the index).
    pub(crate) fn clear(&mut self) {
        self.blocks.clear();
        self.kept = 0;
    }
}

/// `(block, index in the block)` of a rowid.
fn place(rowid: i64) -> (i64, usize) {
    (rowid.div_euclid(BLOCK), rowid.rem_euclid(BLOCK) as usize)
}

/// One block of `lens`, decoded (zeros where nothing was stored).
fn read_block(conn: &Connection, block: i64) -> rusqlite::Result<Vec<u16>> {
    let data: Option<Vec<u8>> = conn
        .prepare_cached("SELECT data FROM lens WHERE block = ?1")?
        .query_row([block], |r| r.get(0))
        .optional()?;
    Ok(decode_block(&data.unwrap_or_default()))
}

/// A block's lengths from its stored bytes (2 each, little-endian).
fn decode_block(data: &[u8]) -> Vec<u16> {
    let mut out = vec![0u16; BLOCK as usize];
    for (slot, pair) in out.iter_mut().zip(data.chunks_exact(2)) {
        *slot = u16::from_le_bytes([pair[0], pair[1]]);
    }
    out
}

/// Records the lengths of documents just inserted (their FTS5 rows written
/// in this transaction): reads each one's `fts_docsize` record and rewrites
/// the `lens` blocks they fall in; `lengths` forgets those blocks.
pub(crate) fn store_lengths(
    conn: &Connection,
    lengths: &mut Lengths,
    rowids: &[i64],
) -> rusqlite::Result<()> {
    let mut by_block: std::collections::BTreeMap<i64, Vec<(usize, u16)>> = Default::default();
    {
        let mut size = conn.prepare_cached("SELECT sz FROM fts_docsize WHERE id = ?1")?;
        for &rowid in rowids {
            let sz: Option<Vec<u8>> = size.query_row([rowid], |r| r.get(0)).optional()?;
            let tokens = sz.map_or(0, |sz| decode_size(&sz));
            let (block, at) = place(rowid);
            let stored = u16::try_from(tokens).unwrap_or(TOO_LONG);
            by_block.entry(block).or_default().push((at, stored));
        }
    }
    let mut write =
        conn.prepare_cached("INSERT OR REPLACE INTO lens(block, data) VALUES (?1, ?2)")?;
    for (block, entries) in by_block {
        let mut data = read_block(conn, block)?;
        for (at, tokens) in entries {
            data[at] = tokens;
        }
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        write.execute(rusqlite::params![block, bytes])?;
        lengths.forget(block);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &std::path::Path) -> Connection {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tags);
             CREATE TABLE IF NOT EXISTS lens(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
             CREATE TABLE IF NOT EXISTS docs(rowid INTEGER PRIMARY KEY);
             CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);",
        )
        .unwrap();
        conn
    }

    /// Adds a document of `words` tokens at `rowid`, as the index's writer does.
    fn add(conn: &Connection, rowid: i64, words: usize) {
        let body = vec!["word"; words].join(" ");
        conn.execute(
            "INSERT INTO fts(rowid, title, body, tags) VALUES (?1, '', ?2, '')",
            rusqlite::params![rowid, body],
        )
        .unwrap();
        conn.execute("INSERT INTO docs(rowid) VALUES (?1)", [rowid])
            .unwrap();
        store_lengths(conn, &mut Lengths::default(), &[rowid]).unwrap();
    }

    #[test]
    fn kept_lengths_follow_other_writers_and_rebuilds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.db");
        let (reader, writer) = (open(&path), open(&path));
        add(&writer, 1, 3);
        add(&writer, 2000, 5);
        let mut kept = Lengths::default();
        kept.keep_all();
        kept.check(&reader).unwrap();
        assert_eq!(kept.get(&reader, 1).unwrap(), 3);
        assert_eq!(kept.get(&reader, 2000).unwrap(), 5);
        assert_eq!(kept.get(&reader, 2001).unwrap(), 0);
        // New documents above the highest rowid, in a block already kept.
        add(&writer, 2001, 7);
        kept.check(&reader).unwrap();
        assert_eq!(kept.get(&reader, 2001).unwrap(), 7);
        // A rebuild: the same rowids, other lengths.
        writer
            .execute_batch("DELETE FROM fts; DELETE FROM docs; DELETE FROM lens;")
            .unwrap();
        add(&writer, 1, 9);
        writer
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('built', 'again')",
                [],
            )
            .unwrap();
        kept.check(&reader).unwrap();
        assert_eq!(kept.get(&reader, 1).unwrap(), 9);
        assert_eq!(kept.get(&reader, 2000).unwrap(), 0);
        // Lengths past what `lens` holds are marked, not wrapped.
        add(&writer, 5, 70_000);
        kept.check(&reader).unwrap();
        assert_eq!(kept.get(&reader, 5).unwrap(), TOO_LONG);
    }
}
