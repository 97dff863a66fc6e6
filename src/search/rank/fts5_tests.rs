//! FTS5 from the inside, against SQL: postings, counts, structure records.

use super::*;

/// 400 documents of eight words (two of them one stem), rowids with gaps.
fn table() -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE fts USING fts5(title, body, tags,
         tokenize='porter unicode61 remove_diacritics 2')",
    )
    .unwrap();
    register(&conn).unwrap();
    let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "running", "runs",
    ];
    let mut seed: u64 = 7;
    let mut pick = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for rowid in 1..=400i64 {
        let mut text = |most: usize| {
            let len = pick(most);
            (0..len)
                .map(|_| words[pick(words.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (title, body, tags) = (text(4), text(30), text(3));
        // Gaps in the rowids, as deletions leave them.
        conn.execute(
            "INSERT INTO fts(rowid, title, body, tags) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![rowid * 3, title, body, tags],
        )
        .unwrap();
    }
    conn
}

/// Reading each phrase's postings inside FTS5 collects exactly what
/// stepping the OR query row by row collects: the same rowids in the
/// same order, the same weighted frequencies, absent phrases as 0.
#[test]
fn phrase_by_phrase_postings_equal_the_row_by_row_ones() {
    let conn = table();
    let sql = format!("SELECT {COLLECT}(fts) FROM fts WHERE fts MATCH ?1");
    for expr in [
        "\"alpha\"",
        "\"zeta\" OR \"beta\"",
        "\"running\" OR \"delta\" OR \"gamma\"",
        "\"absent\"",
        "\"absent\" OR \"epsilon\"",
    ] {
        let rows = postings(&conn, &sql, expr).unwrap();
        let phrases = phrase_postings(&conn, expr).unwrap();
        assert_eq!(phrases.rowids, rows.rowids, "{expr}");
        assert_eq!(phrases.freqs, rows.freqs, "{expr}");
        if !rows.rowids.is_empty() {
            assert_eq!(phrases.phrases, rows.phrases, "{expr}");
        }
    }
    let all = phrase_postings(&conn, "\"alpha\" OR \"beta\"").unwrap();
    assert!(all.rowids.len() > 100 && all.rowids.is_sorted());
    assert!(
        all.freqs.iter().any(|f| *f > 2.0),
        "repeats and title weights count"
    );
}

/// Counting each phrase's documents inside FTS5 finds what SQL counts.
#[test]
fn phrase_counts_equal_a_limited_count_in_sql() {
    let conn = table();
    let sql = "SELECT count(*), max(rowid) FROM
               (SELECT rowid FROM fts WHERE fts MATCH ?1 LIMIT ?2)";
    let phrases: Vec<String> = ["alpha", "running", "absent", "zeta"]
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect();
    for limit in [1usize, 7, 50, 100_000] {
        let counts = phrase_counts(&conn, &phrases, limit).unwrap();
        for (phrase, got) in phrases.iter().zip(&counts) {
            let (count, newest): (i64, Option<i64>) = conn
                .query_row(sql, rusqlite::params![phrase, limit as i64], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .unwrap();
            assert_eq!(
                (got.count, got.newest),
                (count as u64, newest),
                "{phrase} limit {limit}"
            );
        }
    }
    let none = phrase_counts(&conn, &["\"absent\"".to_string()], 10).unwrap();
    assert_eq!(none, vec![PhraseCount::default()]);
    assert!(phrase_counts(&conn, &[], 10).unwrap().is_empty());
}

/// Segments per level as `segment_levels` reads them, and the total
/// the structure record states.
fn levels_and_total(conn: &Connection) -> (Vec<usize>, u64) {
    let blob: Vec<u8> = conn
        .query_row("SELECT block FROM fts_data WHERE id = 10", [], |r| r.get(0))
        .unwrap();
    let mut at = if blob.get(4..8) == Some(&[0xff, 0, 0, 1][..]) {
        8
    } else {
        4
    };
    varint(&blob, &mut at).unwrap();
    let total = varint(&blob, &mut at).unwrap();
    (segment_levels(conn).unwrap(), total)
}

#[test]
fn segment_levels_add_up_to_the_structure_records_total_in_both_formats() {
    // contentless_delete tables write the second format.
    for (options, second) in [("", false), (", content='', contentless_delete=1", true)] {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&format!("CREATE VIRTUAL TABLE fts USING fts5(x{options})"))
            .unwrap();
        assert_eq!(segment_levels(&conn).unwrap(), Vec::<usize>::new());
        // One segment a transaction; FTS5 merges four of a level.
        for i in 0..11 {
            conn.execute("INSERT INTO fts(rowid, x) VALUES (?1, 'w' || ?1)", [i + 1])
                .unwrap();
        }
        let blob: Vec<u8> = conn
            .query_row("SELECT block FROM fts_data WHERE id = 10", [], |r| r.get(0))
            .unwrap();
        assert_eq!(blob.get(4..8) == Some(&[0xff, 0, 0, 1][..]), second);
        let (levels, total) = levels_and_total(&conn);
        assert_eq!(
            levels.iter().sum::<usize>() as u64,
            total,
            "{options}: {levels:?}"
        );
        assert!(total >= 2, "{options}: {levels:?}");
    }
}

/// `value` (below 2^56) as an SQLite varint.
fn put_varint(out: &mut Vec<u8>, value: u64) {
    let mut groups = vec![(value & 0x7f) as u8];
    let mut v = value >> 7;
    while v > 0 {
        groups.push((v & 0x7f) as u8 | 0x80);
        v >>= 7;
    }
    groups.reverse();
    out.extend(groups);
}

proptest::proptest! {
    #[test]
    fn any_bytes_decode_or_fail_without_panicking(
        blob in proptest::collection::vec(proptest::num::u8::ANY, 0..200)
    ) {
        if let Some(levels) = decode_levels(&blob) {
            proptest::prop_assert!(levels.len() <= 64);
        }
    }

    #[test]
    fn a_written_structure_reads_back(
        counts in proptest::collection::vec(0usize..6, 0..10),
        second in proptest::bool::ANY,
        field in 0u64..1 << 40,
    ) {
        let mut blob = vec![0, 0, 0, 7];
        let fields = if second {
            blob.extend([0xff, 0, 0, 1]);
            8
        } else {
            3
        };
        put_varint(&mut blob, counts.len() as u64);
        put_varint(&mut blob, counts.iter().sum::<usize>() as u64);
        put_varint(&mut blob, field);
        for &count in &counts {
            put_varint(&mut blob, 0);
            put_varint(&mut blob, count as u64);
            for _ in 0..count * fields {
                put_varint(&mut blob, field);
            }
        }
        proptest::prop_assert_eq!(decode_levels(&blob), Some(counts));
    }
}

#[test]
fn a_structure_record_that_does_not_decode_is_an_error_not_a_guess() {
    assert_eq!(decode_levels(&[0, 0, 0, 0]), None);
    assert_eq!(decode_levels(&[0, 0, 0, 0, 65, 0, 0]), None); // 65 levels
    assert_eq!(decode_levels(&[0, 0, 0, 0, 2, 1, 0, 0, 1]), None); // cut short
    assert_eq!(
        decode_levels(&[0, 0, 0, 0, 1, 1, 0, 0, 1, 5, 1, 9]),
        Some(vec![1])
    );
}

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
