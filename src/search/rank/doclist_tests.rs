//! Postings read from FTS5's pages against FTS5's own: the same documents
//! and weighted frequencies through segments, deletions, rewrites and
//! merges, and nothing but `None` (never a panic) where a page is not what
//! the format says.

use proptest::prelude::*;

use super::super::fts5::{COLLECT, phrase_counts, postings, register};
use super::*;

/// Words of the generated documents: two that stem alike, accented ones
/// (`remove_diacritics 2` folds them), one not in the Latin script, and a
/// short one.
const WORDS: [&str; 10] = [
    "alpha",
    "beta",
    "gamma",
    "running",
    "runs",
    "café",
    "naïve",
    "日本語",
    "über",
    "x",
];

/// A table like the index's (`search::index`: title, body, tags over the
/// `docs` table, FTS5's own tokenizer), its pages `page_size` bytes (small
/// ones make doclists span pages, with doclist indexes, and position lists
/// run over pages), merged automatically at `automerge` segments.
fn table(page_size: i64, automerge: i64) -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE docs(rowid INTEGER PRIMARY KEY, title TEXT, body TEXT, tags TEXT);
         CREATE VIRTUAL TABLE fts USING fts5(title, body, tags,
             content='docs', content_rowid='rowid',
             tokenize='porter unicode61 remove_diacritics 2');",
    )
    .unwrap();
    register(&conn).unwrap();
    for (option, value) in [("pgsz", page_size), ("automerge", automerge)] {
        conn.execute(
            "INSERT INTO fts(fts, rank) VALUES (?1, ?2)",
            rusqlite::params![option, value],
        )
        .unwrap();
    }
    conn
}

/// One change to the table, as `search::write` makes them.
#[derive(Clone, Debug)]
enum Op {
    /// Writes document `rowid` (deleting what it held first, as a rewrite
    /// does): each column a list of word numbers, and one word repeated
    /// many times in the body (a position list longer than a page).
    Put {
        rowid: i64,
        columns: [Vec<usize>; 3],
        repeat: Option<(usize, usize)>,
    },
    Delete(i64),
    /// Ends the transaction (a segment).
    Commit,
    Optimize,
    Merge(i64),
}

fn text(words: &[usize]) -> String {
    let words: Vec<&str> = words.iter().map(|&w| WORDS[w % WORDS.len()]).collect();
    words.join(" ")
}

fn delete(conn: &Connection, rowid: i64) {
    let old: Option<(String, String, String)> = conn
        .query_row(
            "SELECT title, body, tags FROM docs WHERE rowid = ?1",
            [rowid],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .unwrap();
    if let Some((title, body, tags)) = old {
        conn.execute(
            "INSERT INTO fts(fts, rowid, title, body, tags) VALUES ('delete', ?1, ?2, ?3, ?4)",
            rusqlite::params![rowid, title, body, tags],
        )
        .unwrap();
        conn.execute("DELETE FROM docs WHERE rowid = ?1", [rowid])
            .unwrap();
    }
}

fn apply(conn: &Connection, ops: &[Op]) {
    conn.execute_batch("BEGIN").unwrap();
    for op in ops {
        match op {
            Op::Put {
                rowid,
                columns,
                repeat,
            } => {
                delete(conn, *rowid);
                let mut body = text(&columns[1]);
                if let Some((word, times)) = repeat {
                    let word = WORDS[word % WORDS.len()];
                    body = format!("{body} {}", vec![word; *times].join(" "));
                }
                let (title, tags) = (text(&columns[0]), text(&columns[2]));
                conn.execute(
                    "INSERT INTO docs(rowid, title, body, tags) VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![rowid, title, body, tags],
                )
                .unwrap();
                conn.execute(
                    "INSERT INTO fts(rowid, title, body, tags) VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![rowid, title, body, tags],
                )
                .unwrap();
            }
            Op::Delete(rowid) => delete(conn, *rowid),
            Op::Commit => conn.execute_batch("COMMIT; BEGIN").unwrap(),
            Op::Optimize => {
                conn.execute_batch("COMMIT").unwrap();
                conn.execute("INSERT INTO fts(fts) VALUES ('optimize')", [])
                    .unwrap();
                conn.execute_batch("BEGIN").unwrap();
            }
            Op::Merge(pages) => {
                conn.execute_batch("COMMIT").unwrap();
                conn.execute("INSERT INTO fts(fts, rank) VALUES ('merge', ?1)", [pages])
                    .unwrap();
                conn.execute_batch("BEGIN").unwrap();
            }
        }
    }
    conn.execute_batch("COMMIT").unwrap();
}

/// What FTS5 collects of every word row by row, as (rowid, weighted
/// frequency), against what the pages give, in a read transaction.
fn compare_every_word(conn: &Connection) -> Result<(), TestCaseError> {
    conn.execute_batch("BEGIN").unwrap();
    conn.query_row("SELECT count(*) FROM fts_data", [], |_| Ok(()))
        .unwrap();
    let doclists = Doclists::open(conn).unwrap().expect("pages readable");
    let sql = format!("SELECT {COLLECT}(fts) FROM fts WHERE fts MATCH ?1");
    for word in WORDS {
        let phrase = format!("\"{word}\"");
        let want = postings(conn, &sql, &phrase).unwrap();
        let counted = &phrase_counts(conn, std::slice::from_ref(&phrase), 1).unwrap()[0];
        let Some(token) = &counted.token else {
            // No document holds the word (nor any other).
            prop_assert!(want.rowids.is_empty(), "{}", word);
            continue;
        };
        let got = doclists
            .postings(conn, token, 0)
            .unwrap()
            .unwrap_or_else(|| panic!("{word} did not decode"));
        prop_assert!(got.odd.iter().all(|o| o.1 != 1.0 && o.1 > 0.0));
        let pairs = got.pairs();
        let rowids: Vec<i64> = pairs.iter().map(|p| p.0).collect();
        let freqs: Vec<f32> = pairs.iter().map(|p| p.1).collect();
        prop_assert_eq!(&rowids, &want.rowids, "{}", word);
        prop_assert_eq!(&freqs, &want.freqs, "{}", word);
    }
    // Tokens nothing holds, below and above every other.
    for token in [&b"a"[..], b"zzzz", b"\xff"] {
        prop_assert_eq!(
            doclists.postings(conn, token, 0).unwrap(),
            Some(Postings::default())
        );
    }
    conn.execute_batch("COMMIT").unwrap();
    Ok(())
}

fn op() -> impl Strategy<Value = Op> {
    let words = || prop::collection::vec(0..WORDS.len(), 0..6);
    prop_oneof![
        6 => (
            // Rowids far apart now and then: deltas of two bytes and more.
            prop_oneof![1i64..80, 1i64..100_000],
            [words(), prop::collection::vec(0..WORDS.len(), 0..30), words()],
            prop::option::weighted(0.05, (0..WORDS.len(), 100usize..400)),
        )
            .prop_map(|(rowid, columns, repeat)| Op::Put { rowid, columns, repeat }),
        2 => (1i64..80).prop_map(Op::Delete),
        2 => Just(Op::Commit),
        1 => Just(Op::Optimize),
        1 => (1i64..20).prop_map(Op::Merge),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The oracle: whatever was written, the pages give every word's
    /// documents and weighted frequencies exactly as FTS5 does.
    #[test]
    fn pages_give_what_fts5_collects(
        page_size in prop_oneof![Just(64i64), Just(120), Just(4050)],
        automerge in prop_oneof![Just(0i64), Just(2), Just(4)],
        ops in prop::collection::vec(op(), 1..120),
    ) {
        let conn = table(page_size, automerge);
        let half = ops.len() / 2;
        apply(&conn, &ops[..half]);
        compare_every_word(&conn)?;
        apply(&conn, &ops[half..]);
        compare_every_word(&conn)?;
    }

    /// The same oracle on an index written the way turns are: rowids rising
    /// (segments that hold stretches of their own, joined end to end), with
    /// a few deletions and rewrites of earlier documents among them (the
    /// general merge).
    #[test]
    fn appended_pages_give_what_fts5_collects(
        page_size in prop_oneof![Just(64i64), Just(4050)],
        automerge in prop_oneof![Just(0i64), Just(4)],
        ops in prop::collection::vec(op(), 1..120),
    ) {
        let conn = table(page_size, automerge);
        let mut next = 0i64;
        let ops: Vec<Op> = ops
            .into_iter()
            .map(|op| match op {
                Op::Put { rowid, columns, repeat } if rowid % 8 != 0 => {
                    next += rowid % 50 + 1;
                    Op::Put { rowid: next, columns, repeat }
                }
                other => other,
            })
            .collect();
        apply(&conn, &ops);
        compare_every_word(&conn)?;
    }

    /// Any bytes as a leaf page: decoded or refused, never a panic.
    #[test]
    fn any_page_decodes_or_is_refused(
        data in prop::collection::vec(any::<u8>(), 0..300),
        key in prop::collection::vec(any::<u8>(), 0..6),
        at in 0usize..300,
        end in 0usize..300,
        whole in any::<bool>(),
    ) {
        if let Some(page) = Page::parse(data.clone()) {
            let _ = page.terms();
            if let Some(Some((from, to))) = find_term(&page, &key) {
                prop_assert!(from <= to && to <= page.size);
            }
        }
        let (mut rowid, mut whole) = (0, whole);
        let mut out = Postings::default();
        if let Some(next) = decode_run(&data, at, end, &mut rowid, &mut whole, &mut out) {
            prop_assert!(next <= data.len().max(at));
        }
        let _ = weigh(&data);
        let _ = structure(&data);
    }

    /// A table whose pages were overwritten with other bytes: every read
    /// ends, with postings or `None`, and never panics.
    #[test]
    fn damaged_pages_never_panic(
        seed in any::<u64>(),
        damage in prop::collection::vec((any::<u16>(), any::<u8>()), 1..20),
    ) {
        let conn = table(64, 4);
        let mut ops = Vec::new();
        for i in 0..60 {
            let w = (seed >> (i % 60)) as usize;
            ops.push(Op::Put {
                rowid: 1 + i * 37,
                columns: [vec![w], vec![w, w / 3, 7, w / 5, 0], vec![w / 7]],
                repeat: (i == 30).then_some((w, 150)),
            });
            if i % 20 == 19 {
                ops.push(Op::Commit);
            }
        }
        apply(&conn, &ops);
        let ids: Vec<i64> = conn
            .prepare("SELECT id FROM fts_data WHERE id > 10")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        for (k, &(at, byte)) in damage.iter().enumerate() {
            let id = ids[k * 7919 % ids.len()];
            let mut block: Vec<u8> = conn
                .query_row("SELECT block FROM fts_data WHERE id = ?1", [id], |r| r.get(0))
                .unwrap();
            if !block.is_empty() {
                let i = usize::from(at) % block.len();
                block[i] = byte;
            }
            conn.execute(
                "UPDATE fts_data SET block = ?2 WHERE id = ?1",
                rusqlite::params![id, block],
            )
            .unwrap();
        }
        conn.execute_batch("BEGIN").unwrap();
        conn.query_row("SELECT count(*) FROM fts_data", [], |_| Ok(()))
            .unwrap();
        if let Some(doclists) = Doclists::open(&conn).unwrap() {
            for word in ["alpha", "beta", "gamma", "run", "cafe", "x"] {
                let _ = doclists.postings(&conn, word.as_bytes(), 0).unwrap();
            }
        }
        conn.execute_batch("COMMIT").unwrap();
    }
}

#[test]
fn pages_are_not_read_outside_a_clean_read_transaction_or_format_4() {
    let conn = table(4050, 4);
    apply(
        &conn,
        &[Op::Put {
            rowid: 1,
            columns: [vec![], vec![0], vec![]],
            repeat: None,
        }],
    );
    let readable = |conn: &Connection| Doclists::open(conn).unwrap().is_some();
    // No transaction: each statement could see another version.
    assert!(!readable(&conn));
    conn.execute_batch("BEGIN").unwrap();
    // Begun and nothing read yet: no snapshot either.
    assert!(!readable(&conn));
    conn.query_row("SELECT count(*) FROM fts_data", [], |_| Ok(()))
        .unwrap();
    assert!(readable(&conn));
    // Written and not committed: FTS5 holds the terms in memory.
    conn.execute(
        "INSERT INTO docs(rowid, title, body, tags) VALUES (2, '', 'alpha', '')",
        [],
    )
    .unwrap();
    assert!(!readable(&conn));
    conn.execute(
        "INSERT INTO fts(rowid, title, body, tags) VALUES (2, '', 'alpha', '')",
        [],
    )
    .unwrap();
    assert!(!readable(&conn));
    conn.execute_batch("COMMIT").unwrap();
    // Secure-delete (format 5) rewrites pages in place.
    conn.execute("INSERT INTO fts(fts, rank) VALUES ('secure-delete', 1)", [])
        .unwrap();
    delete(&conn, 2);
    conn.execute_batch("BEGIN").unwrap();
    conn.query_row("SELECT count(*) FROM fts_data", [], |_| Ok(()))
        .unwrap();
    assert!(!readable(&conn));
    conn.execute_batch("COMMIT").unwrap();
}

#[test]
fn a_second_format_structure_has_no_segments_read() {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE fts USING fts5(x, content='', contentless_delete=1);
         INSERT INTO fts(rowid, x) VALUES (1, 'alpha');",
    )
    .unwrap();
    let blob: Vec<u8> = conn
        .query_row("SELECT block FROM fts_data WHERE id = 10", [], |r| r.get(0))
        .unwrap();
    assert_eq!(segments(&blob), None);
    assert_eq!(structure(&blob).map(|s| s.1.len()), Some(1));
}

#[test]
fn weighted_frequencies_count_positions_by_column() {
    // Column 0 (title): two positions; column 2 (tags): one.
    assert_eq!(weigh(&[2, 5, 0x01, 2, 3]), Some(2.0 * 2.0 + 1.5));
    // A position past 127 takes two bytes.
    assert_eq!(weigh(&[0x01, 1, 0x81, 0x00]), Some(1.0));
    assert_eq!(weigh(&[0x01]), None);
    assert_eq!(weigh(&[]), Some(0.0));
}
