//! A word's postings read straight from FTS5's leaf pages (`fts_data`).
//!
//! FTS5 hands out postings a row at a time (a statement step each) or a
//! phrase at a time through `xQueryPhrase`, and either way its iterators
//! cost 30–90 ns a posting (a million turns, `docs/PERFORMANCE.md`, "Issue
//! #30"). The ranking pass reads every posting of its selective words: for
//! two moderately common words at a million turns, 10–40 thousand. Its
//! leaf pages are plain records whose format SQLite documents and keeps
//! (`fts5_index.c`, "Segment leaves"): decoded here, a posting costs a few
//! nanoseconds.
//!
//! What is read: the structure record (`fts_data` row 10: the segments,
//! level by level), then for each segment the leaf page where the word's
//! key (`'0'` and the token, as FTS5 stores it) would be, found in
//! `fts_idx` exactly as FTS5 finds it, and the doclist from there, across
//! as many pages as it spans. A document in several segments counts as the
//! newest segment holds it (FTS5's own precedence: lower levels are newer,
//! and within a level the later segments), and an entry with an empty
//! position list is a deletion.
//!
//! Only what is certain is read this way: a table of FTS5's format version
//! 4 (not the secure-delete variant, 5, which rewrites pages in place) with
//! a first-format structure record (no tombstone pages), and a connection
//! inside a read transaction that has written nothing (FTS5 holds a writer's
//! terms in memory until it commits, and a read outside a transaction could
//! see two different versions of the index). Anything that does not decode
//! as the format says makes [`Doclists::postings`] answer `None`, and the
//! caller asks FTS5 instead.

use rusqlite::{Connection, OptionalExtension, ffi};

use super::fts5::{WEIGHTS, varint};

/// The bits of a leaf's `fts_data` id above its page number
/// (`FTS5_SEGMENT_ROWID`: page 31 bits, height 5, doclist-index flag 1).
const PAGE_BITS: u32 = 31 + 5 + 1;
/// The key prefix of the main index (FTS5's `FTS5_MAIN_PREFIX`).
const MAIN_PREFIX: u8 = b'0';

/// One segment of the index: its id and its leaf pages.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Segment {
    id: i64,
    first: i64,
    last: i64,
}

/// The segments of the index as this read transaction sees them, newest
/// first; `None` from [`Doclists::open`] when they cannot be read here.
pub(super) struct Doclists {
    segments: Vec<Segment>,
}

/// A word's postings: every document's rowid, ascending, and apart the
/// few whose weighted frequency is not 1 (one position, in the body: the
/// commonest by far), so that most postings cost 8 bytes and no weighing.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Postings {
    pub rowids: Vec<i64>,
    /// (rowid, weighted frequency) of the others, ascending; as a segment
    /// is read, 0 marks an empty position list (a deletion, in a newer
    /// segment than the one that indexed the document).
    pub odd: Vec<(i64, f32)>,
}

impl Postings {
    /// (rowid, weighted frequency) of every document, ascending.
    pub(super) fn pairs(&self) -> Vec<(i64, f32)> {
        let mut out = Vec::with_capacity(self.rowids.len());
        let mut odd = self.odd.iter().peekable();
        for &rowid in &self.rowids {
            let freq = odd.next_if(|o| o.0 == rowid).map_or(1.0, |o| o.1);
            out.push((rowid, freq));
        }
        out
    }

    /// The postings of `pairs` (ascending), deletions left out.
    fn from_pairs(pairs: &[(i64, f32)]) -> Postings {
        let mut out = Postings::default();
        for &(rowid, freq) in pairs {
            if freq > 0.0 {
                out.rowids.push(rowid);
                if freq != 1.0 {
                    out.odd.push((rowid, freq));
                }
            }
        }
        out
    }
}

impl Doclists {
    /// The index's segments, when its pages can be read directly (see the
    /// module's comment).
    pub(super) fn open(conn: &Connection) -> rusqlite::Result<Option<Doclists>> {
        // SAFETY: the handle is this connection's, used for one call with
        // a NUL-terminated schema name.
        let state = unsafe { ffi::sqlite3_txn_state(conn.handle(), c"main".as_ptr()) };
        if state != ffi::SQLITE_TXN_READ {
            return Ok(None);
        }
        let (structure, version): (Option<Vec<u8>>, Option<i64>) = conn
            .prepare_cached(
                "SELECT (SELECT block FROM fts_data WHERE id = 10),
                        (SELECT v FROM fts_config WHERE k = 'version')",
            )?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        if version != Some(4) {
            return Ok(None);
        }
        Ok(structure
            .and_then(|s| segments(&s))
            .map(|segments| Doclists { segments }))
    }

    /// Every document holding `token` (as FTS5 stores it: the tokenizer's
    /// output), with the token's weighted frequency where it is not 1
    /// (column weights as in `fts5::frequency`); `None` when a page does not
    /// decode. `hint`: about how many there are. Each segment's postings
    /// are read whole, then merged newest segment first, deletions left out.
    pub(super) fn postings(
        &self,
        conn: &Connection,
        token: &[u8],
        hint: usize,
    ) -> rusqlite::Result<Option<Postings>> {
        let key = [&[MAIN_PREFIX][..], token].concat();
        let mut pages = Pages::new(conn)?;
        let mut read = Vec::with_capacity(self.segments.len());
        for segment in &self.segments {
            let mut postings = Postings::default();
            if read.is_empty() {
                postings.rowids.reserve(hint);
            }
            if read_segment(&mut pages, segment, &key, &mut postings)?.is_none() {
                return Ok(None);
            }
            if !postings.rowids.is_empty() {
                read.push(postings);
            }
        }
        Ok(Some(match read.as_slice() {
            [] => Postings::default(),
            // The commonest: one segment, no deletion in it.
            [one] if one.odd.iter().all(|o| o.1 > 0.0) => read.pop().unwrap_or_default(),
            _ => match disjoint(&read) {
                Some(joined) => joined,
                None => {
                    let mut merged: Vec<(i64, f32)> = Vec::new();
                    for older in &read {
                        merged = newer_first(merged, older.pairs());
                    }
                    Postings::from_pairs(&merged)
                }
            },
        }))
    }
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

/// The segments of a first-format structure record, newest first; `None`
/// for the second format or a record that does not decode.
fn segments(blob: &[u8]) -> Option<Vec<Segment>> {
    let (second, levels) = structure(blob)?;
    if second {
        return None;
    }
    let mut out = Vec::new();
    for level in levels {
        // Within a level the later segments are the newer.
        for [id, first, last] in level.into_iter().rev() {
            let (id, first, last) = (
                i64::try_from(id).ok()?,
                i64::try_from(first).ok()?,
                i64::try_from(last).ok()?,
            );
            if !(1..1 << 16).contains(&id) || last >= 1 << 31 {
                return None;
            }
            // A segment a merge has emptied has no pages.
            if first > 0 && last >= first {
                out.push(Segment { id, first, last });
            }
        }
    }
    Some(out)
}

/// Segments' postings joined end to end, when no segment deletes and their
/// rowid ranges do not overlap: what an index written by appending holds
/// (each segment the turns of its own stretch of time), so that no entry
/// needs comparing with another segment's. `None` otherwise (the general
/// merge, [`newer_first`], decides). Each of `read` holds a posting.
fn disjoint(read: &[Postings]) -> Option<Postings> {
    if read.iter().any(|p| p.odd.iter().any(|o| o.1 <= 0.0)) {
        return None;
    }
    let mut order: Vec<&Postings> = read.iter().collect();
    order.sort_unstable_by_key(|p| p.rowids.first().copied());
    let apart = order
        .windows(2)
        .all(|w| match (w[0].rowids.last(), w[1].rowids.first()) {
            (Some(last), Some(first)) => last < first,
            _ => false,
        });
    if !apart {
        return None;
    }
    let mut out = Postings {
        rowids: Vec::with_capacity(read.iter().map(|p| p.rowids.len()).sum()),
        odd: Vec::with_capacity(read.iter().map(|p| p.odd.len()).sum()),
    };
    for p in order {
        out.rowids.extend_from_slice(&p.rowids);
        out.odd.extend_from_slice(&p.odd);
    }
    Some(out)
}

/// Two segments' entries, each ascending, as one: where both hold a
/// document, the newer's entry.
fn newer_first(newer: Vec<(i64, f32)>, older: Vec<(i64, f32)>) -> Vec<(i64, f32)> {
    let mut out = Vec::with_capacity(newer.len() + older.len());
    let mut older = older.into_iter().peekable();
    for entry in newer {
        while let Some(o) = older.next_if(|o| o.0 < entry.0) {
            out.push(o);
        }
        older.next_if(|o| o.0 == entry.0);
        out.push(entry);
    }
    out.extend(older);
    out
}

/// Leaf pages read from `fts_data`.
struct Pages<'c> {
    read: rusqlite::CachedStatement<'c>,
    seek: rusqlite::CachedStatement<'c>,
}

/// One leaf page: its bytes, where its footer (the term offsets) starts,
/// and the offset of its first rowid (0: none before its first term).
struct Page {
    data: Vec<u8>,
    size: usize,
    first_rowid: usize,
}

impl Page {
    /// A leaf page's bytes as read; `None` when its header does not fit it.
    fn parse(data: Vec<u8>) -> Option<Page> {
        let header = data.get(..4)?;
        let first_rowid = usize::from(u16::from_be_bytes([header[0], header[1]]));
        let size = usize::from(u16::from_be_bytes([header[2], header[3]]));
        // FTS5 writes the offset just before the rowid it points to:
        // anything else is not a page of this format.
        if size < 4 || size > data.len() || (1..4).contains(&first_rowid) || first_rowid >= size {
            return None;
        }
        Some(Page {
            data,
            size,
            first_rowid,
        })
    }

    /// The page's term offsets (the footer: the first absolute, the rest
    /// deltas); `None` when they do not decode.
    fn terms(&self) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        let mut at = self.size;
        let mut offset = 0usize;
        while at < self.data.len() {
            offset = offset.checked_add(usize::try_from(varint(&self.data, &mut at)?).ok()?)?;
            if offset < 4 || offset >= self.size {
                return None;
            }
            out.push(offset);
        }
        Some(out)
    }
}

impl<'c> Pages<'c> {
    fn new(conn: &'c Connection) -> rusqlite::Result<Pages<'c>> {
        Ok(Pages {
            read: conn.prepare_cached("SELECT block FROM fts_data WHERE id = ?1")?,
            seek: conn.prepare_cached(
                "SELECT pgno FROM fts_idx WHERE segid = ?1 AND term <= ?2
                 ORDER BY term DESC LIMIT 1",
            )?,
        })
    }

    /// Leaf `page` of `segment`; `None` when it is missing or its header
    /// does not fit it.
    fn leaf(&mut self, segment: &Segment, page: i64) -> rusqlite::Result<Option<Page>> {
        let id = (segment.id << PAGE_BITS) + page;
        let data: Option<Vec<u8>> = self.read.query_row([id], |r| r.get(0)).optional()?;
        Ok(data.and_then(Page::parse))
    }

    /// The leaf page where `key` would start in `segment` (FTS5's own seek:
    /// the last page whose first key is not above it).
    fn seek(&mut self, segment: &Segment, key: &[u8]) -> rusqlite::Result<i64> {
        let page: Option<i64> = self
            .seek
            .query_row(rusqlite::params![segment.id, key], |r| r.get(0))
            .optional()?;
        Ok(page.map_or(segment.first, |p| p >> 1).max(segment.first))
    }
}

/// Where a term's doclist starts on a page and where it ends there (the
/// next term, or the end of the page's data).
fn find_term(page: &Page, key: &[u8]) -> Option<Option<(usize, usize)>> {
    let terms = page.terms()?;
    let mut term: Vec<u8> = Vec::new();
    for (i, &offset) in terms.iter().enumerate() {
        let mut at = offset;
        let keep = if i == 0 {
            0
        } else {
            usize::try_from(varint(&page.data, &mut at)?).ok()?
        };
        let new = usize::try_from(varint(&page.data, &mut at)?).ok()?;
        let bytes = page.data.get(at..at.checked_add(new)?)?;
        if keep > term.len() {
            return None;
        }
        term.truncate(keep);
        term.extend_from_slice(bytes);
        at += new;
        match term.as_slice().cmp(key) {
            std::cmp::Ordering::Equal => {
                let end = terms.get(i + 1).copied().unwrap_or(page.size);
                return (at <= end).then_some(Some((at, end)));
            }
            std::cmp::Ordering::Greater => return Some(None),
            std::cmp::Ordering::Less => {}
        }
    }
    Some(None)
}

/// One varint at `at` and the offset after it, the one-byte case first
/// (nearly every rowid delta, size and position of a doclist; `at` stays
/// in a register).
#[inline(always)]
fn small_varint(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    let byte = *bytes.get(at)?;
    if byte < 0x80 {
        return Some((u64::from(byte), at + 1));
    }
    let mut after = at;
    let value = varint(bytes, &mut after)?;
    Some((value, after))
}

/// The weighted frequency a position list gives (each position counted
/// with its column's weight); `None` when it does not decode.
#[inline]
fn weigh(list: &[u8]) -> Option<f32> {
    let mut weight = WEIGHTS[0];
    let mut freq = 0.0f32;
    let mut at = 0;
    while let Some(&byte) = list.get(at) {
        if byte == 0x01 {
            // A column marker (positions are stored plus 2: never 1).
            let column;
            (column, at) = small_varint(list, at + 1)?;
            weight = usize::try_from(column)
                .ok()
                .and_then(|c| WEIGHTS.get(c).copied())
                .unwrap_or(1.0);
        } else {
            // A position: only its end matters.
            while *list.get(at)? >= 0x80 {
                at += 1;
            }
            at += 1;
            freq += weight;
        }
    }
    Some(freq)
}

/// Decodes the postings of `data[at..end]` (a page's data) that end on the
/// page, after the one at `rowid` (the first's rowid stored whole when
/// `whole`), into `out`; where it stopped (`end`, or the start of a posting whose
/// position list goes on to the next page), or `None` when they do not
/// decode. The loop of a query: a few instructions a posting.
#[inline]
fn decode_run(
    data: &[u8],
    mut at: usize,
    end: usize,
    rowid: &mut i64,
    whole: &mut bool,
    out: &mut Postings,
) -> Option<usize> {
    let end = end.min(data.len());
    // A whole rowid is a delta from 0.
    let mut last = if *whole { 0 } else { *rowid };
    let mut first = *whole;
    let mut zero = false;
    let mut stopped = None;
    // Worked on as a local (kept in registers), with room for every
    // posting the run can hold (two bytes each at least).
    let mut rowids = std::mem::take(&mut out.rowids);
    rowids.reserve((end - at.min(end)) / 2 + 1);
    while at < end {
        // The commonest posting, read from one 8-byte window: a delta of
        // one or two bytes, then a size of 6 (3 bytes, no deletion) and
        // one position in the body (column 1): `06 01 01 p`, p < 128.
        // Without a branch on the delta's length (one byte or two is a coin
        // toss to the processor): both read, one kept by a mask.
        if let Some(window) = data.get(at..at + 8) {
            let x = u64::from_le_bytes(window.try_into().unwrap_or_default());
            let two = (x >> 7) & 1;
            let keep_two = two.wrapping_neg();
            let one_byte = x & 0x7f;
            let two_bytes = ((x & 0x7f) << 7) | ((x >> 8) & 0x7f);
            let value = (one_byte & !keep_two) | (two_bytes & keep_two);
            let k = 1 + two as usize;
            // A delta of three bytes or more is left to the general path.
            let short = x & 0x8080 != 0x8080;
            if short && at + k + 4 <= end && (x >> (8 * k)) & 0x80ff_ffff == 0x0001_0106 {
                zero |= value == 0 && !first;
                first = false;
                last = last.wrapping_add(value as i64);
                rowids.push(last);
                at += k + 4;
                continue;
            }
        }
        let (value, after) = short_varint(data, at)?;
        let (size, after) = short_varint(data, after)?;
        let bytes = usize::try_from(size >> 1).ok()?;
        let Some(list) = data.get(after..after + bytes) else {
            stopped = Some(at);
            break;
        };
        let freq = match (list.is_empty(), weigh(list)?) {
            (true, _) => 0.0,
            (false, 0.0) => return None,
            (false, freq) => freq,
        };
        // Deltas are positive: anything else is not a doclist.
        zero |= value == 0 && !first;
        first = false;
        last = last.wrapping_add(value as i64);
        rowids.push(last);
        if freq != 1.0 {
            out.odd.push((last, freq));
        }
        at = after + bytes;
    }
    out.rowids = rowids;
    if zero {
        return None;
    }
    (*rowid, *whole) = (last, first);
    Some(stopped.unwrap_or(at))
}

/// [`small_varint`] with the two-byte case inline too (rowid deltas past
/// 127).
#[inline(always)]
fn short_varint(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    let byte = *bytes.get(at)?;
    if byte < 0x80 {
        return Some((u64::from(byte), at + 1));
    }
    let next = *bytes.get(at + 1)?;
    if next < 0x80 {
        return Some(((u64::from(byte & 0x7f) << 7) | u64::from(next), at + 2));
    }
    small_varint(bytes, at)
}

/// Where a doclist goes on once it reaches the end of a page's data.
enum Resume {
    /// At this offset of the page now read, up to that one.
    At(usize, usize),
    /// A new term starts first, or the segment ends.
    Done,
    /// A page does not decode.
    Corrupt,
}

/// Where the doclist goes on: at the first rowid of `page` (when `here`,
/// the page a position list ran on to) or of the next page holding one,
/// unless a page starts a new term first; moves `page` and `number` along.
fn resume(
    pages: &mut Pages,
    segment: &Segment,
    number: &mut i64,
    page: &mut Page,
    here: bool,
) -> rusqlite::Result<Resume> {
    let mut here = here;
    loop {
        if !here {
            *number += 1;
            if *number > segment.last {
                return Ok(Resume::Done);
            }
            let Some(next) = pages.leaf(segment, *number)? else {
                return Ok(Resume::Corrupt);
            };
            *page = next;
        }
        here = false;
        let Some(terms) = page.terms() else {
            return Ok(Resume::Corrupt);
        };
        if page.first_rowid != 0 {
            let end = terms.first().copied().unwrap_or(page.size);
            if page.first_rowid >= end {
                return Ok(Resume::Corrupt);
            }
            return Ok(Resume::At(page.first_rowid, end));
        }
        if !terms.is_empty() {
            return Ok(Resume::Done);
        }
        // Nothing but the rest of a position list: on to the next page.
    }
}

/// Reads the postings `segment` holds for `key` into `out` (deletions as
/// odd postings of frequency 0); `None` when a page does not decode.
fn read_segment(
    pages: &mut Pages,
    segment: &Segment,
    key: &[u8],
    out: &mut Postings,
) -> rusqlite::Result<Option<()>> {
    let mut number = pages.seek(segment, key)?;
    if number > segment.last {
        return Ok(Some(()));
    }
    let Some(mut page) = pages.leaf(segment, number)? else {
        return Ok(None);
    };
    let (mut at, mut end) = match find_term(&page, key) {
        None => return Ok(None),
        Some(None) => return Ok(Some(())),
        Some(Some(found)) => found,
    };
    let mut rowid: i64 = 0;
    // The first rowid of a doclist, and of each page it goes on to, is
    // stored whole; the others as deltas.
    let mut whole = true;
    let mut spill = Vec::new();
    loop {
        // The postings that lie whole on this page, in one tight loop.
        let data = &page.data[..page.size];
        let Some(next) = decode_run(data, at, end, &mut rowid, &mut whole, out) else {
            return Ok(None);
        };
        at = next;
        if at >= end {
            if end < page.size {
                if at > end {
                    return Ok(None); // a position list ran into the next term
                }
                break; // the next term starts here
            }
            match resume(pages, segment, &mut number, &mut page, false)? {
                Resume::At(from, to) => (at, end, whole) = (from, to, true),
                Resume::Done => break,
                Resume::Corrupt => return Ok(None),
            }
        }
        let data = &page.data[..page.size];
        let (Some(value), Some(size)) = (varint(data, &mut at), varint(data, &mut at)) else {
            return Ok(None);
        };
        let (Ok(value), Ok(bytes)) = (i64::try_from(value), usize::try_from(size >> 1)) else {
            return Ok(None);
        };
        rowid = if whole {
            value
        } else {
            rowid.wrapping_add(value)
        };
        whole = false;
        let spilled = at + bytes > page.size;
        let freq = if !spilled {
            let freq = weigh(&page.data[at..at + bytes]);
            at += bytes;
            freq
        } else {
            // The position list goes on over the next pages, each from
            // just after its header.
            spill.clear();
            spill.extend_from_slice(&page.data[at..page.size]);
            while spill.len() < bytes {
                number += 1;
                if number > segment.last {
                    return Ok(None);
                }
                let Some(next) = pages.leaf(segment, number)? else {
                    return Ok(None);
                };
                page = next;
                let take = (bytes - spill.len()).min(page.size - 4);
                spill.extend_from_slice(&page.data[4..4 + take]);
            }
            weigh(&spill)
        };
        let Some(freq) = freq else {
            return Ok(None);
        };
        // An empty list is a deletion; a list of no position, nothing FTS5
        // writes.
        let freq = match (bytes, freq) {
            (0, _) => 0.0,
            (_, 0.0) => return Ok(None),
            (_, freq) => freq,
        };
        out.rowids.push(rowid);
        if freq != 1.0 {
            out.odd.push((rowid, freq));
        }
        if spilled {
            // What follows starts at the first rowid of the page the list
            // ended on, or of a later one.
            match resume(pages, segment, &mut number, &mut page, true)? {
                Resume::At(from, to) => (at, end, whole) = (from, to, true),
                Resume::Done => break,
                Resume::Corrupt => return Ok(None),
            }
        }
    }
    Ok(Some(()))
}

#[cfg(test)]
#[path = "doclist_tests.rs"]
mod tests;
