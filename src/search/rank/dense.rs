//! What a query needs to know of each candidate, kept densely: its length
//! (the `lengths` table), its kind and its date (the `stamps` table), and the
//! blocks of them a process keeps.
//!
//! BM25 needs each candidate's length in tokens (title + body + tags, as
//! FTS5 counts them). FTS5 keeps it in `fts_docsize`, a row per document:
//! reading that for thousands of candidates was most of a query's time, a
//! database page per candidate. The re-rank of the best 40 needs their kind
//! and date, a `docs` row each, another page each. These tables hold the
//! same facts a block of documents to a row, written with the documents:
//! `lengths` 4,096 lengths bit-packed at the width the block's longest
//! needs (6 bits for turns under 64 tokens: a database page a block, see
//! [`packed`]), `stamps` 500 of 8 bytes (kind number, seconds since 1970,
//! session number: what a filtered search checks, see `rank::scope`).
//! A long-lived process keeps every `lengths` block and the `stamps` blocks
//! its queries have read; a call reads the blocks its query needs.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension};

use super::packed;

/// Blocks a process keeps at most, per table (8M documents of `stamps`,
/// 64 MB).
const KEEP_BLOCKS: usize = 16_000;
/// The stored value of a length `lengths` cannot hold (FTS5's record is read).
pub(super) const TOO_LONG: u16 = u16::MAX;
/// `stamps` dates count seconds from 1970-01-01T00:00:00Z (the oldest time
/// a turn may carry) to 2106; 0 is unknown, so that first second itself is
/// held as the one after it ([`Stamp::held`]). Schema 8 counted from 2000,
/// so imported history from the 1990s had no date a query's window could
/// match.
const EPOCH: i64 = 0;
/// The widest entry of a dense table (a `stamps` one).
const ENTRY: usize = 8;
/// An entry's bytes as read (a packed value's little-endian, zero-filled).
type Entry = [u8; ENTRY];
/// Session numbers `stamps` holds: three bytes (0: none, or past them).
pub(super) const MAX_SESSION: i64 = (1 << 24) - 1;
/// Kind numbers `stamps` holds: the low six bits of an entry's first byte
/// (0: unknown, or past them); the two high bits are the [`Stamp::flags`].
const MAX_KIND: i64 = 63;

/// A kind's number as `stamps` holds it (0 past [`MAX_KIND`]).
pub(crate) fn kind_number(id: i64) -> u8 {
    if (1..=MAX_KIND).contains(&id) {
        id as u8
    } else {
        0
    }
}

/// How a dense table stores the entries of a block.
#[derive(Clone, Copy)]
enum Codec {
    /// `width` bytes an entry, zero-filled to the block's full size.
    Fixed(usize),
    /// 16-bit values bit-packed ([`packed`]).
    Packed,
}

/// One dense table: `per_block` documents to a row.
struct Layout {
    table: &'static str,
    per_block: i64,
    codec: Codec,
}

const LENS: Layout = Layout {
    table: "lengths",
    per_block: 4096,
    codec: Codec::Packed,
};
const STAMPS: Layout = Layout {
    table: "stamps",
    per_block: 500,
    codec: Codec::Fixed(ENTRY),
};

impl Layout {
    /// `(block, entry number in the block)` of a rowid.
    fn place(&self, rowid: i64) -> (i64, usize) {
        (
            rowid.div_euclid(self.per_block),
            rowid.rem_euclid(self.per_block) as usize,
        )
    }

    /// The entry of document `rowid` ([`Layout::entry`]) read from its
    /// row where SQLite holds it, nothing copied or kept: a one-shot
    /// process looks up a few dozen entries in as many blocks, and a copy
    /// of each block (4 KB of fresh memory, a page fault) cost more than
    /// the lookup.
    fn lookup(&self, conn: &Connection, rowid: i64) -> rusqlite::Result<Entry> {
        let (block, i) = self.place(rowid);
        let sql = format!("SELECT data FROM {} WHERE block = ?1", self.table);
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query([block])?;
        Ok(match rows.next()? {
            Some(row) => self.entry(row.get_ref(0)?.as_blob()?, i),
            None => [0; ENTRY],
        })
    }

    /// One block as stored (a fixed-width one zero-filled to its full size).
    fn read(&self, conn: &Connection, block: i64) -> rusqlite::Result<Vec<u8>> {
        let sql = format!("SELECT data FROM {} WHERE block = ?1", self.table);
        let data: Option<Vec<u8>> = conn
            .prepare_cached(&sql)?
            .query_row([block], |r| r.get(0))
            .optional()?;
        Ok(self.sized(data.unwrap_or_default()))
    }

    fn sized(&self, mut data: Vec<u8>) -> Vec<u8> {
        if let Codec::Fixed(width) = self.codec {
            data.resize(self.per_block as usize * width, 0);
        }
        data
    }

    /// Entry `i` of a block as read: its bytes (a packed value's
    /// little-endian), zeros when the block does not hold it.
    fn entry(&self, data: &[u8], i: usize) -> Entry {
        let mut out = [0u8; ENTRY];
        match self.codec {
            Codec::Fixed(width) => {
                if let Some(bytes) = data.get(i * width..(i + 1) * width) {
                    out[..width].copy_from_slice(bytes);
                }
            }
            Codec::Packed => out[..2].copy_from_slice(&packed::get(data, i).to_le_bytes()),
        }
        out
    }

    /// Writes `entries` (rowid, bytes; a packed value little-endian) into
    /// their blocks.
    fn store(
        &self,
        conn: &Connection,
        kept: &mut Blocks,
        entries: impl IntoIterator<Item = (i64, Vec<u8>)>,
    ) -> rusqlite::Result<()> {
        let mut by_block: std::collections::BTreeMap<i64, Vec<(usize, Vec<u8>)>> =
            Default::default();
        for (rowid, bytes) in entries {
            let (block, i) = self.place(rowid);
            by_block.entry(block).or_default().push((i, bytes));
        }
        let sql = format!(
            "INSERT OR REPLACE INTO {}(block, data) VALUES (?1, ?2)",
            self.table
        );
        let mut write = conn.prepare_cached(&sql)?;
        for (block, entries) in by_block {
            let data = self.read(conn, block)?;
            let data = match self.codec {
                Codec::Fixed(width) => {
                    let mut data = data;
                    for (i, bytes) in entries {
                        data[i * width..(i + 1) * width].copy_from_slice(&bytes);
                    }
                    data
                }
                Codec::Packed => {
                    let value = |bytes: &[u8]| u16::from_le_bytes([bytes[0], bytes[1]]);
                    // In place when every value fits the block's width (a
                    // single turn rewrites 3 bytes, not 4,096 values).
                    let mut data = data;
                    let fits = entries
                        .iter()
                        .all(|(i, bytes)| packed::set(&mut data, *i, value(bytes)));
                    if fits {
                        data
                    } else {
                        let mut values = packed::decode(&data, self.per_block as usize);
                        for (i, bytes) in entries {
                            values[i] = value(&bytes);
                        }
                        packed::encode(&values)
                    }
                }
            };
            write.execute(rusqlite::params![block, data])?;
            kept.forget(block);
        }
        Ok(())
    }
}

/// The blocks of one dense table this connection has read, by number.
#[derive(Debug, Default)]
struct Blocks {
    blocks: Vec<Option<Box<[u8]>>>,
    kept: usize,
}

impl Blocks {
    /// The entry of document `rowid` ([`Layout::entry`]; zeros when
    /// nothing was stored), its block read and kept, or with `keep` false
    /// read where SQLite holds it ([`Layout::lookup`]).
    fn get(
        &mut self,
        layout: &Layout,
        conn: &Connection,
        rowid: i64,
        keep: bool,
    ) -> rusqlite::Result<Entry> {
        if !keep {
            return layout.lookup(conn, rowid);
        }
        let (block, i) = layout.place(rowid);
        let slot = usize::try_from(block).unwrap_or(0);
        if slot >= self.blocks.len() {
            self.blocks.resize(slot + 1, None);
        }
        if self.blocks[slot].is_none() {
            self.blocks[slot] = Some(layout.read(conn, block)?.into_boxed_slice());
            self.kept += 1;
        }
        Ok(layout.entry(self.blocks[slot].as_deref().unwrap_or_default(), i))
    }

    /// Reads every block not kept yet, in one pass from the first missing;
    /// nothing when every block up to the one of rowid `top` is kept.
    fn load_missing(
        &mut self,
        layout: &Layout,
        conn: &Connection,
        top: i64,
    ) -> rusqlite::Result<()> {
        let first = self.blocks.iter().position(Option::is_none);
        let from = first.unwrap_or(self.blocks.len()) as i64;
        if from > layout.place(top).0 {
            return Ok(());
        }
        let sql = format!("SELECT block, data FROM {} WHERE block >= ?1", layout.table);
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query([from])?;
        while let Some(row) = rows.next()? {
            let Ok(slot) = usize::try_from(row.get::<_, i64>(0)?) else {
                continue;
            };
            if slot >= self.blocks.len() {
                self.blocks.resize(slot + 1, None);
            }
            if self.blocks[slot].is_none() {
                self.blocks[slot] = Some(layout.sized(row.get(1)?).into_boxed_slice());
                self.kept += 1;
            }
        }
        Ok(())
    }

    /// Forgets one block (it was rewritten).
    fn forget(&mut self, block: i64) {
        if let Some(slot) = usize::try_from(block)
            .ok()
            .and_then(|b| self.blocks.get_mut(b))
            && slot.take().is_some()
        {
            self.kept -= 1;
        }
    }

    /// Forgets the blocks from the one holding `rowid` on.
    fn forget_from(&mut self, layout: &Layout, rowid: i64) {
        let from = usize::try_from(layout.place(rowid).0).unwrap_or(0);
        for block in from..self.blocks.len() {
            self.forget(block as i64);
        }
    }

    fn clear(&mut self) {
        self.blocks.clear();
        self.kept = 0;
    }
}

/// The dense facts of the documents this connection has read.
#[derive(Debug, Default)]
pub(crate) struct DocStats {
    /// `PRAGMA data_version` when the blocks were checked: another
    /// connection's commit changes it.
    version: Option<i64>,
    /// The index build they belong to (`meta.built`) and its highest rowid
    /// then: documents are only ever added above the highest rowid, so
    /// another writer's commit can change only the blocks from that one on;
    /// a rebuild changes them all.
    built: Option<String>,
    top: i64,
    lens: Blocks,
    stamps: Blocks,
    /// Kind names by number (the `kinds` table).
    kinds: HashMap<u8, String>,
    /// Keep every block read, and read every `lengths` block at once (a
    /// long-lived process: `keep_all`).
    whole: bool,
}

impl DocStats {
    /// Makes this process keep every block it reads, and read every
    /// `lengths` block at once (a server: under 1 KB per 1,000 documents,
    /// instead of blocks one at a time mid-query); a `stamps` block (8
    /// bytes a document) is read when a query first needs it.
    pub(crate) fn keep_all(&mut self) {
        self.whole = true;
    }

    /// Whether this process keeps every block ([`DocStats::keep_all`]).
    pub(super) fn keeps_all(&self) -> bool {
        self.whole
    }

    /// Brings the kept blocks up to date with the database: after another
    /// connection's commit, drops the blocks it may have changed.
    pub(crate) fn check(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let too_many = self.lens.kept > KEEP_BLOCKS || self.stamps.kept > KEEP_BLOCKS;
        if self.version != Some(version) || too_many {
            let (built, top): (Option<String>, i64) = conn
                .prepare_cached(
                    "SELECT (SELECT value FROM meta WHERE key = 'built'),
                            coalesce((SELECT max(rowid) FROM docs), 0)",
                )?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if self.version.is_none() || built != self.built || too_many {
                self.clear();
            } else {
                let from = self.top.min(top);
                self.lens.forget_from(&LENS, from);
                self.stamps.forget_from(&STAMPS, from);
            }
            self.kinds = conn
                .prepare_cached("SELECT id, name FROM kinds")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            self.version = Some(version);
            self.built = built;
            self.top = top;
        }
        if self.whole {
            // Every length, which a ranking pass reads by the thousand; the
            // stamps of the few dozen candidates a query re-ranks are kept
            // as they are read (all of them would be 8 MB at 1M documents,
            // read before the first answer).
            self.lens.load_missing(&LENS, conn, self.top)?;
        }
        Ok(())
    }

    /// Whether the lengths of `count` documents cost no lookup each: every
    /// block is kept, or [`DocStats::lengths`] reads them in one scan.
    pub(super) fn at_hand(&self, count: usize) -> bool {
        let blocks = usize::try_from(LENS.place(self.top).0).unwrap_or(0) + 1;
        self.whole || count >= blocks / 2
    }

    /// The lengths of the documents `rowids` ([`DocStats::length`]'s
    /// values), in their order, for a pool [`DocStats::at_hand`] accepted
    /// (see [`bulk`]).
    pub(super) fn lengths(
        &mut self,
        conn: &Connection,
        rowids: &[i64],
    ) -> rusqlite::Result<Vec<u16>> {
        let entries = bulk(&LENS, &mut self.lens, self.whole, conn, rowids)?;
        Ok(entries
            .into_iter()
            .map(|e| u16::from_le_bytes([e[0], e[1]]))
            .collect())
    }

    /// The stamps of the documents `rowids`, in their order (see [`bulk`]).
    pub(super) fn stamps(
        &mut self,
        conn: &Connection,
        rowids: &[i64],
    ) -> rusqlite::Result<Vec<Stamp>> {
        let entries = bulk(&STAMPS, &mut self.stamps, self.whole, conn, rowids)?;
        Ok(entries.into_iter().map(Stamp::decode).collect())
    }

    /// The stamps and stored lengths of the documents `rowids` (sorted, in
    /// runs of neighbours: the context of a query's best documents), each
    /// block read once.
    pub(super) fn neighbourhood(
        &mut self,
        conn: &Connection,
        rowids: &[i64],
    ) -> rusqlite::Result<(Vec<Stamp>, Vec<u16>)> {
        let stamps = grouped(&STAMPS, &mut self.stamps, self.whole, conn, rowids)?;
        let lens = grouped(&LENS, &mut self.lens, self.whole, conn, rowids)?;
        Ok((
            stamps.into_iter().map(Stamp::decode).collect(),
            lens.into_iter()
                .map(|e| u16::from_le_bytes([e[0], e[1]]))
                .collect(),
        ))
    }

    /// The blocks of `stamps` holding the rowids `range` (every document
    /// when `None`), as of the last [`DocStats::check`].
    pub(super) fn stamp_blocks(&self, range: Option<(i64, i64)>) -> i64 {
        let (low, high) = range.unwrap_or((0, self.top));
        (STAMPS.place(high.min(self.top)).0 - STAMPS.place(low.max(0)).0 + 1).max(0)
    }

    /// The documents in the rowids `range` (every document when `None`)
    /// whose stamp `keep` accepts, in rowid order, read in one pass over
    /// those `stamps` blocks; `None` as soon as there are more than `cap` of
    /// them, or when a kind has no number of its own (more than 63 kinds:
    /// its documents' stamps say kind 0, like a missing entry's).
    pub(super) fn listed(
        &self,
        conn: &Connection,
        range: Option<(i64, i64)>,
        cap: usize,
        keep: impl Fn(&Stamp) -> bool,
    ) -> rusqlite::Result<Option<Vec<i64>>> {
        if self.kinds.len() >= MAX_KIND as usize {
            return Ok(None);
        }
        let (low, high) = range.unwrap_or((i64::MIN, i64::MAX));
        let mut out = Vec::new();
        let mut stmt = conn.prepare_cached(
            "SELECT block, data FROM stamps WHERE block BETWEEN ?1 AND ?2 ORDER BY block",
        )?;
        let blocks = (STAMPS.place(low.max(0)).0, STAMPS.place(high.max(0)).0);
        let mut rows = stmt.query([blocks.0, blocks.1])?;
        while let Some(row) = rows.next()? {
            let block: i64 = row.get(0)?;
            let data = row.get_ref(1)?.as_blob()?;
            for (i, entry) in data.chunks_exact(ENTRY).enumerate() {
                let rowid = block * STAMPS.per_block + i as i64;
                let stamp = Stamp::decode(entry.try_into().unwrap_or([0; ENTRY]));
                if (low..=high).contains(&rowid) && stamp.kind != 0 && keep(&stamp) {
                    if out.len() == cap {
                        return Ok(None);
                    }
                    out.push(rowid);
                }
            }
        }
        Ok(Some(out))
    }

    /// The `cap` documents said last in `[from, to)` (Unix seconds) whose
    /// stamp `keep` accepts, newest first (ties: the later saved), from one
    /// pass over `stamps`: a question that names a time and nothing its
    /// words find ("what did we do last week?"). Imported history is not
    /// saved in the order it was said, so every block is read (8 bytes a
    /// document: about 10 ms at a million).
    pub(super) fn said_in(
        &self,
        conn: &Connection,
        (from, to): (i64, i64),
        cap: usize,
        keep: impl Fn(&Stamp) -> bool,
    ) -> rusqlite::Result<Vec<i64>> {
        use std::cmp::Reverse;
        let mut last = std::collections::BinaryHeap::with_capacity(cap + 1);
        let mut stmt = conn.prepare_cached("SELECT block, data FROM stamps")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let block: i64 = row.get(0)?;
            let data = row.get_ref(1)?.as_blob()?;
            for (i, entry) in data.chunks_exact(ENTRY).enumerate() {
                let stamp = Stamp::decode(entry.try_into().unwrap_or([0; ENTRY]));
                let said = stamp.unix().is_some_and(|t| (from..to).contains(&t));
                if stamp.kind != 0 && said && keep(&stamp) {
                    last.push(Reverse((
                        stamp.seconds,
                        block * STAMPS.per_block + i as i64,
                    )));
                    if last.len() > cap {
                        last.pop();
                    }
                }
            }
        }
        let mut out: Vec<(u32, i64)> = last.into_iter().map(|Reverse(x)| x).collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        Ok(out.into_iter().map(|(_, rowid)| rowid).collect())
    }

    /// Every document's stamp, in rowid order, from one pass over `stamps`
    /// (8 bytes a document: about 10 ms at a million): what a tally over
    /// the whole index (`Index::activity`) reads instead of the documents.
    /// A missing entry (kind 0) is passed over.
    pub(crate) fn each(conn: &Connection, mut each: impl FnMut(&Stamp)) -> rusqlite::Result<()> {
        let mut stmt = conn.prepare_cached("SELECT data FROM stamps ORDER BY block")?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            for entry in row.get_ref(0)?.as_blob()?.chunks_exact(ENTRY) {
                let stamp = Stamp::decode(entry.try_into().unwrap_or([0; ENTRY]));
                if stamp.kind != 0 {
                    each(&stamp);
                }
            }
        }
        Ok(())
    }

    /// The length of document `rowid`: 0 when `lengths` does not know it,
    /// [`TOO_LONG`] when it is longer than `lengths` holds.
    pub(super) fn length(&mut self, conn: &Connection, rowid: i64) -> rusqlite::Result<u16> {
        let bytes = self.lens.get(&LENS, conn, rowid, self.whole)?;
        Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    /// Document `rowid`'s `lengths` entry ([`DocStats::length`]'s value)
    /// when its block is kept: a lookup in memory, for a pass over tens of
    /// thousands of documents in a process that keeps every block.
    #[inline]
    pub(super) fn kept_length(&self, rowid: i64) -> Option<u16> {
        let (block, i) = LENS.place(rowid);
        let data = self
            .lens
            .blocks
            .get(usize::try_from(block).ok()?)?
            .as_deref()?;
        Some(packed::get(data, i))
    }

    /// The kind name and the date (Unix seconds) of document `rowid`, when
    /// `stamps` knows them.
    pub(crate) fn stamp(
        &mut self,
        conn: &Connection,
        rowid: i64,
    ) -> rusqlite::Result<Option<(&str, i64)>> {
        let stamp = Stamp::decode(self.stamps.get(&STAMPS, conn, rowid, self.whole)?);
        let Some(seconds) = stamp.unix() else {
            return Ok(None);
        };
        Ok(self
            .kinds
            .get(&stamp.kind)
            .map(|name| (name.as_str(), seconds)))
    }

    /// Forgets everything (this connection rebuilt the index).
    pub(crate) fn clear(&mut self) {
        self.lens.clear();
        self.stamps.clear();
        self.kinds.clear();
    }
}

/// The entries of the documents `rowids` in one dense table, in their
/// order: from the kept blocks in a process that keeps them all, or else
/// read in one pass over the table from the first block to the last (a
/// scan is cheaper than a lookup per block) without keeping the blocks,
/// whose copies would cost a one-shot process more than the query (fresh
/// memory, a page fault per 4 KB).
fn bulk(
    layout: &Layout,
    kept: &mut Blocks,
    whole: bool,
    conn: &Connection,
    rowids: &[i64],
) -> rusqlite::Result<Vec<Entry>> {
    if whole {
        return rowids
            .iter()
            .map(|&rowid| kept.get(layout, conn, rowid, true))
            .collect();
    }
    if !rowids.is_sorted() {
        // The newest documents come newest first: scan in rowid order.
        let mut order: Vec<usize> = (0..rowids.len()).collect();
        order.sort_unstable_by_key(|&i| rowids[i]);
        let sorted: Vec<i64> = order.iter().map(|&i| rowids[i]).collect();
        let found = bulk(layout, kept, whole, conn, &sorted)?;
        let mut out = vec![[0; ENTRY]; rowids.len()];
        for (&i, entry) in order.iter().zip(found) {
            out[i] = entry;
        }
        return Ok(out);
    }
    let mut out = vec![[0; ENTRY]; rowids.len()];
    let Some((&first, &last)) = rowids.first().zip(rowids.last()) else {
        return Ok(out);
    };
    let span = layout.place(last).0 - layout.place(first).0 + 1;
    if (rowids.len() as i64) * 2 < span {
        // Few documents far apart (a filtered search's candidates): a
        // lookup each reads fewer pages than the scan would.
        return rowids
            .iter()
            .map(|&rowid| kept.get(layout, conn, rowid, false))
            .collect();
    }
    let sql = format!(
        "SELECT block, data FROM {} WHERE block BETWEEN ?1 AND ?2",
        layout.table
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query([layout.place(first).0, layout.place(last).0])?;
    let mut next = 0;
    while let Some(row) = rows.next()? {
        let block: i64 = row.get(0)?;
        let data = row.get_ref(1)?.as_blob()?;
        while next < rowids.len() && layout.place(rowids[next]).0 < block {
            next += 1;
        }
        while next < rowids.len() && layout.place(rowids[next]).0 == block {
            out[next] = layout.entry(data, layout.place(rowids[next]).1);
            next += 1;
        }
    }
    Ok(out)
}

/// The entries of the documents `rowids` (sorted) in one dense table, each
/// block read once (kept blocks in a process that keeps them): for runs of
/// neighbouring rowids, which [`bulk`] would look up one by one when the
/// runs lie far apart.
fn grouped(
    layout: &Layout,
    kept: &mut Blocks,
    whole: bool,
    conn: &Connection,
    rowids: &[i64],
) -> rusqlite::Result<Vec<Entry>> {
    if whole {
        return rowids
            .iter()
            .map(|&rowid| kept.get(layout, conn, rowid, true))
            .collect();
    }
    let mut out = vec![[0; ENTRY]; rowids.len()];
    let sql = format!("SELECT data FROM {} WHERE block = ?1", layout.table);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut i = 0;
    while i < rowids.len() {
        let block = layout.place(rowids[i]).0;
        let end = i + rowids[i..].partition_point(|&r| layout.place(r).0 == block);
        let mut rows = stmt.query([block])?;
        if let Some(row) = rows.next()? {
            let data = row.get_ref(0)?.as_blob()?;
            for (slot, &rowid) in out[i..end].iter_mut().zip(&rowids[i..end]) {
                *slot = layout.entry(data, layout.place(rowid).1);
            }
        }
        i = end;
    }
    Ok(out)
}

/// What `stamps` holds of a document: its kind's number, what its text
/// is like ([`Stamp::flags`]: `flags::ASKS`, `flags::TIMED`), its date
/// in seconds since 1970 (0: unknown) and its session's number (0: none, or
/// not known; see [`session_numbers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Stamp {
    pub kind: u8,
    pub flags: u8,
    pub seconds: u32,
    pub session: u32,
}

impl Stamp {
    fn decode(b: Entry) -> Stamp {
        Stamp {
            kind: b[0] & MAX_KIND as u8,
            flags: b[0] & !(MAX_KIND as u8),
            seconds: u32::from_le_bytes([b[1], b[2], b[3], b[4]]),
            session: u32::from_le_bytes([b[5], b[6], b[7], 0]),
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut bytes = vec![self.kind | (self.flags & !(MAX_KIND as u8))];
        bytes.extend_from_slice(&self.seconds.to_le_bytes());
        bytes.extend_from_slice(&self.session.to_le_bytes()[..3]);
        bytes
    }

    /// The date in Unix seconds, when known.
    pub(crate) fn unix(&self) -> Option<i64> {
        (self.seconds != 0).then(|| EPOCH + i64::from(self.seconds))
    }

    /// Unix seconds as `stamps` holds them: 0 (unknown) outside its range.
    /// [`EPOCH`] itself, 1970-01-01T00:00:00Z, is a time `track` accepts
    /// (`track record --at`, a message's `timestamp`), and 0 would make such
    /// a turn undated: no list of what was said that day would show it. It
    /// is held as the second after: the same day and hour for every window
    /// a query names, where a sentinel other than 0 would change what every
    /// index built so far holds (a schema change and a restamp).
    pub(crate) fn held(unix: i64) -> u32 {
        match u32::try_from(unix - EPOCH) {
            Ok(0) => 1,
            Ok(seconds) => seconds,
            Err(_) => 0,
        }
    }
}

mod write;

pub(crate) use write::{Inserted, repack_lengths, restamp, store};

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &std::path::Path) -> Connection {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tags);
             CREATE TABLE IF NOT EXISTS lengths(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
             CREATE TABLE IF NOT EXISTS docs(rowid INTEGER PRIMARY KEY);
             CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS stamps(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
             CREATE TABLE IF NOT EXISTS kinds(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
             CREATE TABLE IF NOT EXISTS sessions(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                 first INTEGER NOT NULL, last INTEGER NOT NULL);",
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
        let date = format!("2026-01-{:02}T00:00:00Z", 1 + rowid % 28);
        let doc = Inserted {
            rowid,
            kind: if rowid % 2 == 0 { "turn" } else { "note" },
            date: &date,
            session: Some(if rowid < 1000 { "early" } else { "late" }),
            flags: 0,
        };
        store(conn, &mut DocStats::default(), &[doc]).unwrap();
    }

    #[test]
    fn a_batch_stores_each_documents_own_length_close_rowids_or_far() {
        let conn = open(std::path::Path::new(":memory:"));
        // Close together (one range scan), then far apart (a lookup each),
        // with a document FTS5 never saw among the first.
        for rowids in [vec![10i64, 11, 12, 14, 15], vec![100, 5_000, 90_000]] {
            let mut inserted = Vec::new();
            for &rowid in &rowids {
                if rowid != 12 {
                    let body = vec!["word"; rowid as usize % 7 + 1].join(" ");
                    conn.execute(
                        "INSERT INTO fts(rowid, title, body, tags) VALUES (?1, 'a title', ?2, '')",
                        rusqlite::params![rowid, body],
                    )
                    .unwrap();
                }
                inserted.push(Inserted {
                    rowid,
                    kind: "turn",
                    date: "2026-01-01T00:00:00Z",
                    session: None,
                    flags: 0,
                });
            }
            store(&conn, &mut DocStats::default(), &inserted).unwrap();
            let mut kept = DocStats::default();
            for &rowid in &rowids {
                let want = if rowid == 12 {
                    0
                } else {
                    (rowid % 7) as u16 + 1 + 2
                };
                assert_eq!(kept.length(&conn, rowid).unwrap(), want, "rowid {rowid}");
            }
        }
    }

    #[test]
    fn a_schema_5_lens_table_is_repacked_value_for_value() {
        let conn = open(std::path::Path::new(":memory:"));
        conn.execute_batch("CREATE TABLE lens(block INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            .unwrap();
        // Old blocks 0, 4 and 9 (1,000 lengths each, the last one short).
        let old = |block: i64, j: usize| ((block as usize * 7 + j * 13) % 300) as u16;
        for block in [0i64, 4, 9] {
            let size = if block == 9 { 10 } else { 1000 };
            let data: Vec<u8> = (0..size)
                .flat_map(|j| old(block, j).to_le_bytes())
                .collect();
            conn.execute(
                "INSERT INTO lens(block, data) VALUES (?1, ?2)",
                rusqlite::params![block, data],
            )
            .unwrap();
        }
        repack_lengths(&conn).unwrap();
        let mut kept = DocStats::default();
        for block in [0i64, 4, 9] {
            for j in [0usize, 1, 499, 999] {
                let rowid = block * 1000 + j as i64;
                let want = if block == 9 && j >= 10 {
                    0
                } else {
                    old(block, j)
                };
                assert_eq!(kept.length(&conn, rowid).unwrap(), want, "rowid {rowid}");
            }
        }
        assert_eq!(kept.length(&conn, 2500).unwrap(), 0);
        let gone: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'lens'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(gone, 0);
    }

    #[test]
    fn kept_facts_follow_other_writers_and_rebuilds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.db");
        let (reader, writer) = (open(&path), open(&path));
        add(&writer, 1, 3);
        add(&writer, 2000, 5);
        let mut kept = DocStats::default();
        kept.keep_all();
        kept.check(&reader).unwrap();
        assert_eq!(kept.length(&reader, 1).unwrap(), 3);
        assert_eq!(kept.length(&reader, 2000).unwrap(), 5);
        assert_eq!(kept.length(&reader, 2001).unwrap(), 0);
        // New documents above the highest rowid, in a block already kept.
        add(&writer, 2001, 7);
        kept.check(&reader).unwrap();
        assert_eq!(kept.length(&reader, 2001).unwrap(), 7);
        // A rebuild: the same rowids, other lengths.
        writer
            .execute_batch("DELETE FROM fts; DELETE FROM docs; DELETE FROM lengths;")
            .unwrap();
        add(&writer, 1, 9);
        writer
            .execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('built', 'again')",
                [],
            )
            .unwrap();
        kept.check(&reader).unwrap();
        assert_eq!(kept.length(&reader, 1).unwrap(), 9);
        assert_eq!(kept.length(&reader, 2000).unwrap(), 0);
        // Lengths past what `lens` holds are marked, not wrapped.
        add(&writer, 5, 70_000);
        kept.check(&reader).unwrap();
        assert_eq!(kept.length(&reader, 5).unwrap(), TOO_LONG);
        // Kind and date, as stored.
        let (kind, seconds) = kept.stamp(&reader, 5).unwrap().unwrap();
        assert_eq!((kind, seconds), ("note", 1_767_657_600)); // 2026-01-06
        assert!(kept.stamp(&reader, 6).unwrap().is_none());
    }

    #[test]
    fn the_first_second_of_1970_is_a_date_and_before_it_none() {
        let dated = |unix: i64| {
            Stamp {
                kind: 1,
                seconds: Stamp::held(unix),
                ..Stamp::default()
            }
            .unix()
        };
        // 0 is "unknown": 1970-01-01T00:00:00Z is held as the second after.
        assert_eq!(dated(0), Some(1));
        assert_eq!(dated(1), Some(1));
        assert_eq!(dated(1_767_657_600), Some(1_767_657_600));
        assert_eq!(dated(-1), None);
        assert_eq!(dated(i64::from(u32::MAX) + 1), None);
        // The same day for a window of that day.
        assert!(dated(0).is_some_and(|t| (0..86_400).contains(&t)));
    }
}
