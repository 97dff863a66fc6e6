//! The ranking pass against FTS5's own `bm25()` on generated corpora.

use super::*;

/// An in-memory fts table like the index's, filled with `docs` documents
/// drawn from a skewed vocabulary (seeded: the same every run).
fn corpus(docs: usize, seed: u64) -> Connection {
    corpus_in(docs, seed, None)
}

/// [`corpus`], every stamped document of `session` when there is one.
fn corpus_in(docs: usize, seed: u64, session: Option<&str>) -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE fts USING fts5(title, body, tags,
         tokenize='porter unicode61 remove_diacritics 2');
         CREATE TABLE lengths(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
         CREATE TABLE docs(rowid INTEGER PRIMARY KEY);
         CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
         CREATE TABLE stamps(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
         CREATE TABLE kinds(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
         CREATE TABLE sessions(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
             first INTEGER NOT NULL, last INTEGER NOT NULL);",
    )
    .unwrap();
    register(&conn).unwrap();
    let mut state = seed;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let words: Vec<String> = (0..300).map(|i| format!("w{i}x")).collect();
    let pick = |next: &mut dyn FnMut(u64) -> u64| {
        // Skewed: low numbers are common.
        let a = next(300);
        let b = next(a + 1);
        words[b as usize].clone()
    };
    let tx = conn.unchecked_transaction().unwrap();
    let mut rowids = Vec::new();
    for _ in 0..docs {
        let len = 2 + next(30) as usize;
        let body: Vec<String> = (0..len).map(|_| pick(&mut next)).collect();
        let title = if next(4) == 0 {
            pick(&mut next)
        } else {
            String::new()
        };
        let tags = if next(5) == 0 {
            pick(&mut next)
        } else {
            String::new()
        };
        tx.execute(
            "INSERT INTO fts(title, body, tags) VALUES (?1, ?2, ?3)",
            rusqlite::params![title, body.join(" "), tags],
        )
        .unwrap();
        rowids.push(tx.last_insert_rowid());
        tx.execute(
            "INSERT INTO docs(rowid) VALUES (?1)",
            [tx.last_insert_rowid()],
        )
        .unwrap();
    }
    // Half the lengths in `lengths`; the rest are read from fts_docsize.
    rowids.retain(|r| r % 2 == 0);
    let inserted: Vec<Inserted> = rowids
        .iter()
        .map(|&rowid| Inserted {
            rowid,
            kind: "turn",
            date: "2026-01-01T00:00:00Z",
            session,
            flags: 0,
        })
        .collect();
    store(&tx, &mut DocStats::default(), &inserted).unwrap();
    tx.commit().unwrap();
    conn
}

/// FTS5's own ranking: (rowid, score) best first.
fn fts5_bm25(conn: &Connection, words: &[&str], limit: usize) -> Vec<(i64, f64)> {
    let expr = words
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" OR ");
    let mut stmt = conn
        .prepare(
            "SELECT rowid, -bm25(fts, 2.0, 1.0, 1.5) AS s FROM fts WHERE fts MATCH ?1
             ORDER BY s DESC, rowid LIMIT ?2",
        )
        .unwrap();
    stmt.query_map(rusqlite::params![expr, limit as i64], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

#[test]
fn scores_are_fts5_bm25_and_exact_results_are_its_order() {
    let conn = corpus(3_000, 7);
    let queries: [&[&str]; 6] = [
        &["w250x", "w3x"],
        &["w0x", "w1x"],
        &["w120x", "w60x", "w2x"],
        &["w299x"],
        &["w5x", "nosuchword"],
        &["w40x", "w41x", "w0x", "w7x"],
    ];
    let mut exact_seen = 0;
    let mut sampled_seen = 0;
    for budget in [usize::MAX / 2, 400, 50] {
        for words in queries {
            let owned: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            let ranked = rank_within(
                &conn,
                &mut DocStats::default(),
                &owned,
                10,
                Limits {
                    budget,
                    sample: 200,
                    exact_df: usize::MAX / 2,
                    ..LIMITS
                },
                None,
                None,
            )
            .unwrap();
            let want = fts5_bm25(&conn, words, 10);
            // Every score is FTS5's score of that document.
            let all: std::collections::HashMap<i64, f64> =
                fts5_bm25(&conn, words, 100_000).into_iter().collect();
            for (rowid, score) in &ranked.hits {
                assert!(
                    close(*score, all[rowid]),
                    "{words:?} {rowid}: {score} vs {}",
                    all[rowid]
                );
            }
            assert!(ranked.hits.windows(2).all(|w| w[0].1 >= w[1].1));
            if ranked.exact {
                exact_seen += 1;
                let got: Vec<f64> = ranked.hits.iter().map(|h| h.1).collect();
                let expected: Vec<f64> = want.iter().map(|h| h.1).collect();
                assert_eq!(got.len(), expected.len(), "{words:?} budget {budget}");
                for (g, e) in got.iter().zip(&expected) {
                    assert!(
                        close(*g, *e),
                        "{words:?} budget {budget}: {got:?} vs {expected:?}"
                    );
                }
            } else {
                sampled_seen += 1;
                assert_eq!(ranked.hits.len(), 10, "{words:?} budget {budget}");
            }
        }
    }
    // Both regimes were exercised.
    assert!(
        exact_seen >= 6 && sampled_seen >= 1,
        "{exact_seen} {sampled_seen}"
    );
}

#[test]
fn a_scoped_ranking_is_fts5_bm25_over_the_documents_that_pass() {
    let conn = corpus(3_000, 5);
    // Sessions in runs of 50 rowids, one document in five a note; every
    // document stamped, and the same facts in a table SQL can join.
    let session = |r: i64| if (r / 50) % 3 == 0 { "b" } else { "a" };
    let kind = |r: i64| if r % 5 == 0 { "note" } else { "turn" };
    let rowids: Vec<i64> = (1..=3_000).collect();
    let docs: Vec<Inserted> = rowids
        .iter()
        .map(|&r| Inserted {
            rowid: r,
            kind: kind(r),
            date: "2026-01-01T00:00:00Z",
            session: Some(session(r)),
            flags: 0,
        })
        .collect();
    store(&conn, &mut DocStats::default(), &docs).unwrap();
    conn.execute_batch("CREATE TABLE owner(rowid INTEGER PRIMARY KEY, session TEXT, kind TEXT)")
        .unwrap();
    for &r in &rowids {
        conn.execute(
            "INSERT INTO owner VALUES (?1, ?2, ?3)",
            rusqlite::params![r, session(r), kind(r)],
        )
        .unwrap();
    }
    let filters: [(&[&str], Option<&str>, &str); 3] = [
        (&[], Some("b"), "session = 'b'"),
        (&["note"], None, "kind = 'note'"),
        (&["note"], Some("a"), "kind = 'note' AND session = 'a'"),
    ];
    let mut regimes = (0, 0);
    for (kinds, session_name, sql) in filters {
        let query = crate::search::Query {
            kinds: kinds.iter().map(|k| k.to_string()).collect(),
            session: session_name.map(str::to_string),
            ..Default::default()
        };
        let scope = Scope::of(&conn, &query).unwrap().unwrap();
        for words in [
            &["w0x", "w1x"][..],
            &["w120x", "w2x"],
            &["w3x"],
            &["w50x", "w0x"],
        ] {
            let expr = words
                .iter()
                .map(|w| format!("\"{w}\""))
                .collect::<Vec<_>>()
                .join(" OR ");
            let want: Vec<(i64, f64)> = conn
                .prepare(&format!(
                    "SELECT rowid, -bm25(fts, 2.0, 1.0, 1.5) AS s FROM fts WHERE fts MATCH ?1
                     AND rowid IN (SELECT rowid FROM owner WHERE {sql}) ORDER BY s DESC, rowid"
                ))
                .unwrap()
                .query_map([&expr], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            let all: std::collections::HashMap<i64, f64> = want.iter().copied().collect();
            // The last: a scope of kinds listed from `stamps`, each
            // document looked up.
            for (budget, scan_cost) in [
                (usize::MAX / 2, 1e12),
                (300, 1e12),
                (20, 1e12),
                (usize::MAX / 2, 0.0),
            ] {
                let owned: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                let limits = Limits {
                    budget,
                    sample: 100,
                    exact_df: usize::MAX / 2,
                    scan_cost,
                    lookup_cost: 1.0,
                    ..LIMITS
                };
                let ranked = rank_within(
                    &conn,
                    &mut DocStats::default(),
                    &owned,
                    10,
                    limits,
                    Some(&scope),
                    None,
                )
                .unwrap();
                for (rowid, score) in &ranked.hits {
                    let fts5 = all.get(rowid).copied();
                    assert!(
                        fts5.is_some_and(|f| close(*score, f)),
                        "{sql} {words:?} {rowid}: {score} vs {fts5:?}"
                    );
                }
                if ranked.exact {
                    regimes.0 += 1;
                    let got: Vec<f64> = ranked.hits.iter().map(|h| h.1).collect();
                    let expected: Vec<f64> = want.iter().take(10).map(|h| h.1).collect();
                    assert_eq!(got.len(), expected.len(), "{sql} {words:?} {budget}");
                    assert!(got.iter().zip(&expected).all(|(g, e)| close(*g, *e)));
                } else {
                    regimes.1 += 1;
                    assert_eq!(ranked.hits.len(), 10.min(want.len()), "{sql} {words:?}");
                }
            }
        }
    }
    assert!(regimes.0 >= 10 && regimes.1 >= 3, "{regimes:?}");
}

#[test]
fn an_empty_table_or_unknown_words_rank_nothing() {
    let conn = corpus(0, 1);
    let ranked = rank(
        &conn,
        &mut DocStats::default(),
        &["w1x".to_string()],
        5,
        &Hints::default(),
    )
    .unwrap();
    assert!(ranked.hits.is_empty() && ranked.exact);
    let conn = corpus(50, 1);
    assert!(
        rank(
            &conn,
            &mut DocStats::default(),
            &["zzz".to_string()],
            5,
            &Hints::default()
        )
        .unwrap()
        .hits
        .is_empty()
    );
    assert!(
        rank(
            &conn,
            &mut DocStats::default(),
            &["w1x".to_string()],
            0,
            &Hints::default()
        )
        .unwrap()
        .hits
        .is_empty()
    );
}

#[test]
fn estimated_document_counts_stay_close() {
    let conn = corpus(4_000, 3);
    let limits = Limits {
        budget: 100_000,
        sample: 200,
        exact_df: 256,
        ..LIMITS
    };
    for words in [["w0x", "w200x"], ["w2x", "w9x"]] {
        let owned: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let ranked = rank_within(
            &conn,
            &mut DocStats::default(),
            &owned,
            10,
            limits,
            None,
            None,
        )
        .unwrap();
        let all: std::collections::HashMap<i64, f64> =
            fts5_bm25(&conn, &words, 100_000).into_iter().collect();
        assert_eq!(ranked.hits.len(), 10);
        // Within 5 % of the best score: a sample of 256 counts a
        // frequency to about 6 %, and the IDF is its logarithm.
        let top = ranked.hits[0].1;
        for (rowid, score) in &ranked.hits {
            let want = all[rowid];
            assert!(
                (score - want).abs() <= 0.05 * top,
                "{words:?} {rowid}: {score} vs {want}"
            );
        }
    }
}

#[test]
fn limit_in_the_text_spares_a_prepare_per_run() {
    let conn = corpus(200, 1);
    let bound = "SELECT rowid FROM fts WHERE fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2";
    let runs = |sql: &str, limit: bool| {
        let mut stmt = conn.prepare(sql).unwrap();
        for word in ["w1x", "w2x", "w3x", "w4x"] {
            let rows = if limit {
                stmt.query(rusqlite::params![word, 5]).unwrap()
            } else {
                stmt.query([word]).unwrap()
            };
            let _ = rows.mapped(|_| Ok(())).count();
        }
        stmt.get_status(rusqlite::StatementStatus::RePrepare)
    };
    // The check of the check: SQLite does prepare a bound LIMIT again.
    assert_eq!(runs(bound, true), 4);
    let counts = "SELECT agentbox_counts(fts, 256) FROM fts WHERE fts MATCH ?1 LIMIT 1";
    assert_eq!(runs(counts, false), 0);
    let collect = newest_sql(100);
    assert_eq!(runs(&collect, false), 0);
}

#[test]
fn a_name_in_the_question_weighs_like_a_word_in_a_quarter_of_the_documents() {
    // "ann" is in 11 documents of 12: BM25 weighs it as nothing, so the
    // two that hold "garden" tie (the lower rowid first). Named in the
    // question, it decides for the one that says it.
    let conn = corpus(0, 1);
    let fillers = (0..10).map(|i| format!("ann: filler {i}"));
    for body in ["bob: the garden".to_string(), "ann: the garden".to_string()]
        .into_iter()
        .chain(fillers)
    {
        conn.execute(
            "INSERT INTO fts(title, body, tags) VALUES ('', ?1, '')",
            [body],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO docs(rowid) VALUES (?1)",
            [conn.last_insert_rowid()],
        )
        .unwrap();
    }
    let words = ["garden".to_string(), "ann".to_string()];
    let ranked = |names: Vec<String>| -> Vec<(i64, f64)> {
        let hints = Hints {
            names,
            ..Hints::default()
        };
        rank(&conn, &mut DocStats::default(), &words, 4, &hints)
            .unwrap()
            .hits
    };
    let plain = ranked(Vec::new());
    assert!((plain[0].1 - plain[1].1).abs() < 1e-4, "{plain:?}");
    let scored = ranked(vec!["ann".to_string()]);
    let named: Vec<i64> = scored.iter().map(|h| h.0).collect();
    assert_eq!(named[..2], [2, 1]);
    assert!(scored[0].1 > scored[1].1 + 0.1, "{scored:?}");
    assert!(named[2..].iter().all(|&rowid| rowid > 2), "{named:?}");
}

/// Postings read from FTS5's pages (`doclist`) and scored list by list
/// (`lists`) rank exactly as FTS5's postings scored as one pool: the same
/// documents, scores and reasons, through the second stage (the words of
/// each candidate's neighbours), in a process that keeps every length and
/// in one that does not; and where the FTS5 path would sample the newest
/// documents, the pages' path is exact.
#[test]
fn postings_from_pages_rank_as_postings_from_fts5() {
    let conn = corpus_in(3_000, 11, Some("s1"));
    let queries: [&[&str]; 6] = [
        &["w250x", "w3x"],
        &["w0x", "w1x"],
        &["w120x", "w60x", "w2x"],
        &["w299x"],
        &["w5x", "nosuchword"],
        &["w40x", "w41x", "w0x", "w7x"],
    ];
    let hints = Hints {
        explain: true,
        ..Hints::default()
    };
    let fts5 = Limits {
        budget: usize::MAX / 2,
        pages: Pages::Never,
        exact_df: usize::MAX / 2,
        ..LIMITS
    };
    let pages = Limits {
        budget: 50,
        pages: Pages::Always,
        whole: usize::MAX / 2,
        ..fts5
    };
    let mut from_pages = 0;
    for keep_all in [false, true] {
        for words in queries {
            let owned: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            let mut ranked = Vec::new();
            for limits in [fts5, pages] {
                let mut stats = DocStats::default();
                if keep_all {
                    stats.keep_all();
                }
                // The pages are read inside a read transaction only.
                conn.execute_batch("BEGIN").unwrap();
                let got =
                    rank_within(&conn, &mut stats, &owned, 40, limits, None, Some(&hints)).unwrap();
                conn.execute_batch("COMMIT").unwrap();
                ranked.push(got);
            }
            let (want, got) = (&ranked[0], &ranked[1]);
            assert!(want.exact, "{words:?}");
            assert_eq!(got.hits, want.hits, "{words:?} keep_all {keep_all}");
            assert_eq!(sorted(&got.why), sorted(&want.why), "{words:?}");
            // Past 50 postings only the pages' path is exact.
            if got.exact && fts5_bm25(&conn, words, 100_000).len() > 50 {
                from_pages += 1;
            }
        }
    }
    assert!(from_pages >= 8, "{from_pages}");
    // Outside a transaction the pages are not read: FTS5's path, sampled;
    // and by default only in a process that keeps every length.
    let owned = vec!["w0x".to_string(), "w1x".to_string()];
    let rank = |limits, stats: &mut DocStats, begin: bool| {
        if begin {
            conn.execute_batch("BEGIN").unwrap();
        }
        let ranked = rank_within(&conn, stats, &owned, 40, limits, None, Some(&hints)).unwrap();
        if begin {
            conn.execute_batch("COMMIT").unwrap();
        }
        ranked.exact
    };
    assert!(!rank(pages, &mut DocStats::default(), false));
    let kept = Limits {
        pages: Pages::Kept,
        ..pages
    };
    assert!(!rank(kept, &mut DocStats::default(), true));
    let mut server = DocStats::default();
    server.keep_all();
    assert!(rank(kept, &mut server, true));
}

fn sorted(
    why: &std::collections::HashMap<i64, crate::search::Why>,
) -> Vec<(i64, crate::search::Why)> {
    let mut out: Vec<_> = why.iter().map(|(k, v)| (*k, *v)).collect();
    out.sort_by_key(|p| p.0);
    out
}
