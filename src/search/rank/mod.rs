//! The ranking pass: FTS5's BM25, computed here so that a query reads the
//! postings of its selective words and not every document that holds one of
//! its common words.
//!
//! FTS5's own `bm25()` costs time in proportion to the number of matches: it
//! counts each word's documents by walking its whole posting list (for the
//! IDF), then scores every match, reading each one's length from
//! `fts_docsize` (a database page per match). A two-word query with a common
//! word in a million-turn home scored tens of thousands of rows. Here:
//!
//! 1. **Document frequencies.** A word's documents are counted from its
//!    posting list without scoring, every word's in one query, inside FTS5
//!    (`fts5::phrase_counts`); past [`EXACT_DF`] the count is estimated
//!    from how densely the first [`EXACT_DF`] sit among the rowids (to about
//!    6 %; the IDF, a logarithm, moves far less: a word's weight by about
//!    1 %).
//! 2. **Selective words first.** The words are taken rarest first. The
//!    postings of the *selective* words (together at most [`BUDGET`]) are
//!    read with their weighted term frequencies, phrase by phrase inside FTS5
//!    (`fts5::phrase_postings`, from FTS5's own position lists, not a
//!    statement stepped through every row); the frequencies of the remaining, *common* words
//!    in those documents come from a `(selective) AND common` query, which
//!    FTS5 answers by skipping through the common word's list.
//! 3. **MaxScore.** Candidates are scored in the order of an upper bound that
//!    assumes the shortest possible document; a document's length
//!    (`dense`) is read only while its bound can still beat the current
//!    `wanted`-th score.
//! 4. **The common words' own documents.** A document holding only common
//!    words scores at most the sum of their IDFs × (k1 + 1). When the
//!    `wanted`-th score is at least that, no such document can enter and the
//!    result is exact. Otherwise the newest [`SAMPLE`] documents holding a
//!    common word are scored too, and an older document with nothing but
//!    common words may be missed. When even the rarest word is in more than
//!    [`BUDGET`] documents, the newest [`BUDGET`] documents holding any query
//!    word are the candidates.
//!
//! The score is FTS5's BM25 with its constants (k1 1.2, b 0.75; title ×2,
//! body ×1, tags ×1.5) and its IDF floor, so the filtered path, which still
//! uses `bm25()`, ranks alike.

mod context;
mod dated;
mod dense;
mod doclist;
mod flags;
mod fts5;
mod lists;
mod packed;
mod scope;

pub(crate) use context::{ASKING, Hints, IN_WINDOW, SAYS_WHEN};
pub(crate) use dated::said_in;
pub(crate) use dense::{DocStats, Inserted, kind_number, repack_lengths, restamp, store};
pub(crate) use flags::flags;
pub(crate) use fts5::{register, segment_levels};
pub(crate) use scope::Scope;

use rusqlite::Connection;

use fts5::{
    COLLECT, Collected, Totals, phrase_counts, phrase_postings, postings, postings_at,
    postings_chunked, stored_length, totals,
};

const K1: f64 = 1.2;
const B: f64 = 0.75;
/// Postings read in full before the remaining words count as common.
const BUDGET: usize = 4_000;
/// Postings read whole from FTS5's pages (`doclist`, a few nanoseconds
/// each) and every document scored (`lists`), every word's together (each
/// counted once per other word: the lists are merged pairwise).
const WHOLE: usize = 200_000;
/// Newest documents of the common words scored when the bound is not met.
const SAMPLE: usize = 1_000;
/// A name in the question ("What did Caroline research?") weighs at least
/// what a word in this share of the documents does: in a conversation
/// between two people each name is in most turns, where BM25 would weigh
/// it as nothing (LoCoMo's development split: R@5 68.6 → 68.8, R@10
/// 76.3 → 77.2; docs/PERFORMANCE.md, "Recall: LoCoMo").
pub(crate) const NAMED: f64 = 0.25;
/// Documents of a word counted one by one; beyond, the count is estimated.
const EXACT_DF: usize = 256;
/// What listing the documents a scope of kinds lets through costs, in
/// postings a scoped pass reads in the same time (~70 ns each at 1M
/// documents): a `stamps` block scanned (~2.5 µs), and an FTS5 lookup by
/// rowid (35 µs for two common words). See `Ranker::listed`.
const SCAN_COST: f64 = 36.0;
const LOOKUP_COST: f64 = 500.0;

/// What `rank` found: the best documents (rowid, BM25 score, best first)
/// and whether no document outside the candidates could have entered.
pub(super) struct Ranked {
    pub hits: Vec<(i64, f64)>,
    /// What made each hit's score (after the second stage only).
    pub why: std::collections::HashMap<i64, crate::search::Why>,
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the tests check the exact regime")
    )]
    pub exact: bool,
}

/// When a ranking may read its words' postings from FTS5's pages.
#[derive(Clone, Copy, PartialEq)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the tests compare the paths and force each")
)]
enum Pages {
    Never,
    /// In a process that keeps every document's length (a server,
    /// `DocStats::keep_all`): a one-shot process would read every
    /// `lengths` block to score every document, more than it saves.
    Kept,
    Always,
}

/// The limits of one ranking (the tests make them small).
#[derive(Clone, Copy)]
struct Limits {
    budget: usize,
    /// When postings may be read from FTS5's pages, and how many.
    pages: Pages,
    whole: usize,
    sample: usize,
    exact_df: usize,
    scan_cost: f64,
    lookup_cost: f64,
}

const LIMITS: Limits = Limits {
    budget: BUDGET,
    pages: Pages::Kept,
    whole: WHOLE,
    sample: SAMPLE,
    exact_df: EXACT_DF,
    scan_cost: SCAN_COST,
    lookup_cost: LOOKUP_COST,
};

/// The best `wanted` documents for the query words `words`: by BM25, then
/// in context and by what `hints` ask ([`context`]).
pub(super) fn rank(
    conn: &Connection,
    stats: &mut DocStats,
    words: &[String],
    wanted: usize,
    hints: &Hints,
) -> rusqlite::Result<Ranked> {
    rank_within(conn, stats, words, wanted, LIMITS, None, Some(hints))
}

/// [`rank`] among the documents `scope` lets through (see [`Scope`]); the
/// IDFs are the whole index's.
pub(super) fn rank_in(
    conn: &Connection,
    stats: &mut DocStats,
    words: &[String],
    wanted: usize,
    scope: &Scope,
    hints: &Hints,
) -> rusqlite::Result<Ranked> {
    rank_within(conn, stats, words, wanted, LIMITS, Some(scope), Some(hints))
}

fn rank_within(
    conn: &Connection,
    stats: &mut DocStats,
    words: &[String],
    wanted: usize,
    limits: Limits,
    scope: Option<&Scope>,
    hints: Option<&Hints>,
) -> rusqlite::Result<Ranked> {
    let nothing = || Ranked {
        hits: Vec::new(),
        why: Default::default(),
        exact: true,
    };
    if wanted == 0 {
        return Ok(nothing());
    }
    let Some(Totals {
        rows,
        avgdl,
        first,
        last,
    }) = totals(conn)?
    else {
        return Ok(nothing());
    };
    let phrases: Vec<String> = words.iter().map(|word| format!("\"{word}\"")).collect();
    let counts = phrase_counts(conn, &phrases, limits.exact_df)?;
    let mut terms = Vec::new();
    let named = |word: &String| hints.is_some_and(|h| h.names.contains(word));
    for ((phrase, counted), word) in phrases.into_iter().zip(counts).zip(words) {
        let df = document_frequency(
            counted.count,
            counted.newest,
            limits.exact_df,
            (first, last),
        )
        .min(rows);
        if df > 0.0 {
            let df_weighed = weighed(df, rows, named(word));
            // The libm crate's: nothing may need libm.so (`platform::log`).
            let idf = libm::log((rows - df_weighed + 0.5) / (df_weighed + 0.5));
            terms.push(Term {
                phrase,
                df,
                idf: if idf > 0.0 { idf } else { 1e-6 },
                token: counted.token,
            });
        }
    }
    if terms.is_empty() {
        return Ok(nothing());
    }
    terms.sort_by(|a, b| a.df.total_cmp(&b.df));
    stats.check(conn)?;
    let mut ranker = Ranker {
        conn,
        stats,
        terms,
        avgdl,
        rows,
        wanted,
        limits,
        scope,
        share: scope.map_or(1.0, |s| s.share(first, last)),
        span: (first, last),
        best: Vec::new(),
        seen: Vec::new(),
        why: Default::default(),
    };
    let mut ranked = ranker.run()?;
    if let Some(hints) = hints {
        ranker.best = std::mem::take(&mut ranked.hits);
        ranker.in_context(hints)?;
        ranked.hits = std::mem::take(&mut ranker.best);
        ranked.why = std::mem::take(&mut ranker.why);
    }
    Ok(ranked)
}

/// The documents a word of `df` documents (of `rows`) is weighed as: a
/// name (`question::names_in`) at most what a word in [`NAMED`] of the
/// documents is.
fn weighed(df: f64, rows: f64, name: bool) -> f64 {
    if name { df.min(NAMED * rows) } else { df }
}

/// The query `words` that are `names`, with the share of the documents
/// that hold each and the share the ranking weighs it as, counted as
/// [`rank`] counts them: what `--explain` says of names. A name no document
/// holds weighs nothing and is left out.
pub(super) fn named(
    conn: &Connection,
    words: &[String],
    names: &[String],
) -> rusqlite::Result<Vec<crate::search::Named>> {
    let words: Vec<&String> = words.iter().filter(|w| names.contains(w)).collect();
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let Some(Totals {
        rows, first, last, ..
    }) = totals(conn)?
    else {
        return Ok(Vec::new());
    };
    let phrases: Vec<String> = words.iter().map(|word| format!("\"{word}\"")).collect();
    let counts = phrase_counts(conn, &phrases, EXACT_DF)?;
    let mut out = Vec::with_capacity(words.len());
    for (counted, word) in counts.into_iter().zip(words) {
        let df =
            document_frequency(counted.count, counted.newest, EXACT_DF, (first, last)).min(rows);
        if df > 0.0 {
            out.push(crate::search::Named {
                word: word.clone(),
                share: df / rows,
                weighed: weighed(df, rows, true) / rows,
            });
        }
    }
    Ok(out)
}

/// How many documents hold a phrase, from `count` of them counted up to
/// `exact` (oldest first: FTS5 reads a posting list forwards fastest) and
/// the highest rowid counted: beyond `exact`, estimated from the share of
/// the rowids `(first, last)` those `exact` span.
fn document_frequency(
    count: u64,
    newest: Option<i64>,
    exact: usize,
    (first, last): (i64, i64),
) -> f64 {
    let count = count as f64;
    match newest {
        Some(newest) if count >= exact as f64 => {
            let all = (last - first + 1).max(1) as f64;
            let seen = (newest - first + 1).max(1) as f64;
            count * all / seen
        }
        _ => count,
    }
}

/// The newest `limit` documents of an expression, with their postings.
fn newest_sql(limit: usize) -> String {
    format!("SELECT {COLLECT}(fts) FROM fts WHERE fts MATCH ?1 ORDER BY rowid DESC LIMIT {limit}")
}

/// One query word.
struct Term {
    phrase: String,
    df: f64,
    idf: f64,
    /// Its token as the index stores it (`None`: more than one token).
    token: Option<Vec<u8>>,
}

/// Documents under consideration: rowids and, `terms.len()` to a document,
/// the weighted frequency of each query word (in `Ranker::terms` order).
#[derive(Default)]
struct Pool {
    rowids: Vec<i64>,
    freqs: Vec<f32>,
    /// Every document in it passed the scope's check already.
    checked: bool,
}

struct Ranker<'c> {
    conn: &'c Connection,
    stats: &'c mut DocStats,
    terms: Vec<Term>,
    avgdl: f64,
    /// Documents in the index.
    rows: f64,
    wanted: usize,
    limits: Limits,
    /// What the query's filters let through, and the share of the index's
    /// rowids its range spans (a word's documents there are estimated).
    scope: Option<&'c Scope>,
    share: f64,
    /// The lowest and highest rowid in the index.
    span: (i64, i64),
    /// The scored documents, kept to the best `wanted`.
    best: Vec<(i64, f64)>,
    /// The pools scored, in rowid order: where the second stage finds the
    /// words of a candidate's neighbours ([`context`]).
    seen: Vec<Pool>,
    /// What made each of `best`'s scores, once the second stage ran.
    why: std::collections::HashMap<i64, crate::search::Why>,
}

impl Ranker<'_> {
    fn run(&mut self) -> rusqlite::Result<Ranked> {
        let n = self.terms.len();
        if let Some(listed) = self.listed()? {
            // Few documents pass, among many matches: each one looked up.
            let expr = self.or_expr(0, n);
            let seen = postings_at(self.conn, &expr, &listed)?;
            let mut pool = self.pool(seen, 0);
            pool.checked = true;
            self.score(&pool, &[])?;
            self.keep_seen(pool);
            return Ok(self.finish(true));
        }
        if let Some(lists) = self.whole_lists()? {
            // Every word's postings at hand: every document scored.
            self.score_lists(&lists)?;
            let pool = self.near_best(&lists);
            self.keep_seen(pool);
            return Ok(self.finish(true));
        }
        let mut selective = 0;
        let mut read = 0.0;
        for term in &self.terms {
            let df = term.df * self.share;
            if read + df > self.limits.budget as f64 {
                break;
            }
            read += df;
            selective += 1;
        }
        if selective == 0 {
            // Every word is common: the newest documents holding any of them.
            let pool = self.collect_newest(0, self.limits.budget)?;
            self.score(&pool, &[])?;
            self.keep_seen(pool);
            return Ok(self.finish(false));
        }
        let expr = self.or_expr(0, selective);
        let query = self.scoped_sql(&format!(
            "SELECT {COLLECT}(fts) FROM fts WHERE fts MATCH ?1"
        ));
        // With a scope, its checks wait until the candidates are scored
        // (`score_scoped`): they are spread over the whole index, and only
        // the best need their `stamps` read.
        let seen = match self.scope {
            None => phrase_postings(self.conn, &expr)?,
            Some(scope) => postings(self.conn, &query, &scope.expr(&expr))?,
        };
        let mut pool = self.pool(seen, 0);
        // FTS5 returns rowids in ascending order; the lookups below rely on it.
        if !pool.rowids.is_sorted() {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_INTERNAL),
                Some("fts5 returned rowids out of order".into()),
            ));
        }
        for k in selective..n {
            let mut both = format!("({expr}) AND {}", self.terms[k].phrase);
            if let Some(scope) = self.scope {
                both = scope.expr(&both);
            }
            let seen = postings(self.conn, &query, &both)?;
            for (row, rowid) in seen.rowids.iter().enumerate() {
                if let Ok(i) = pool.rowids.binary_search(rowid) {
                    pool.freqs[i * n + k] = seen.freqs[row * seen.phrases + selective];
                }
            }
        }
        self.score(&pool, &[])?;
        // A document with only common words scores at most this.
        let bound: f64 = self.terms[selective..]
            .iter()
            .map(|t| t.idf * (K1 + 1.0))
            .sum();
        if selective == n || self.threshold().is_some_and(|t| t >= bound) {
            self.keep_seen(pool);
            return Ok(self.finish(true));
        }
        let sample = self.collect_newest(selective, self.limits.sample)?;
        // Documents already scored hold a selective word: not scored again.
        self.score(&sample, &pool.rowids)?;
        self.keep_seen(pool);
        self.keep_seen(sample);
        Ok(self.finish(false))
    }

    /// The documents a scope of kinds or a session (and dates) lets
    /// through, listed from `stamps`, when looking each one up in FTS5 costs
    /// less than reading the words' postings until enough pass: a kind with
    /// few documents (notes) among many turns holding the query's common
    /// words, or a session resumed long after it began (its range then
    /// spans many other sessions' turns).
    fn listed(&mut self) -> rusqlite::Result<Option<Vec<i64>>> {
        let Some(scope) = self.scope.filter(|s| s.listable()) else {
            return Ok(None);
        };
        let scan = self.stats.stamp_blocks(scope.range) as f64 * self.limits.scan_cost;
        let estimated: f64 = self.terms.iter().map(|t| t.df * self.share).sum();
        if estimated <= scan {
            return Ok(None);
        }
        // Past `EXACT_DF` a count is estimated, at times tenfold off (the
        // IDF, a logarithm, hardly moves): count as far as decides.
        let far = scan as usize + 1;
        let phrases: Vec<String> = self.terms.iter().map(|t| t.phrase.clone()).collect();
        let walk: f64 = phrase_counts(self.conn, &phrases, far)?
            .into_iter()
            .map(|c| document_frequency(c.count, c.newest, far, self.span))
            .sum::<f64>()
            * self.share;
        if walk <= scan {
            return Ok(None);
        }
        let cap = (((walk - scan) / self.limits.lookup_cost) as usize).min(self.limits.budget);
        self.stats
            .listed(self.conn, scope.range, cap, |stamp| scope.passes(stamp))
    }

    /// Keeps a scored pool for the second stage, in rowid order.
    fn keep_seen(&mut self, pool: Pool) {
        let n = self.terms.len();
        self.seen.push(context::in_order(pool, n));
    }

    /// `"a" OR "b" …` over `terms[from..to]`.
    fn or_expr(&self, from: usize, to: usize) -> String {
        self.terms[from..to]
            .iter()
            .map(|t| t.phrase.as_str())
            .collect::<Vec<_>>()
            .join(" OR ")
    }

    /// `select` limited to the scope's range, when there is one.
    fn scoped_sql(&self, select: &str) -> String {
        self.scope
            .map_or_else(|| select.to_string(), |s| s.sql(select, ""))
    }

    /// The newest `limit` documents holding any of `terms[from..]` (that
    /// the scope lets through: read newest first, a chunk at a time, until
    /// `limit` of them pass).
    fn collect_newest(&mut self, from: usize, limit: usize) -> rusqlite::Result<Pool> {
        let expr = self.or_expr(from, self.terms.len());
        let Some(scope) = self.scope else {
            let seen = postings(self.conn, &newest_sql(limit), &expr)?;
            return Ok(self.pool(seen, from));
        };
        let select = format!("SELECT {COLLECT}(fts) FROM fts WHERE fts MATCH ?1");
        let sql = scope.sql(&select, " ORDER BY rowid DESC");
        let mut kept = Collected::default();
        let conn = self.conn;
        postings_chunked(conn, &sql, &scope.expr(&expr), limit, |chunk| {
            let chunk = self.passing(chunk)?;
            if !chunk.rowids.is_empty() {
                kept.phrases = chunk.phrases;
            }
            let room = limit - kept.rowids.len();
            let rows = chunk.rowids.len().min(room);
            kept.rowids.extend_from_slice(&chunk.rowids[..rows]);
            kept.freqs
                .extend_from_slice(&chunk.freqs[..rows * chunk.phrases]);
            Ok(kept.rowids.len() < limit)
        })?;
        let mut pool = self.pool(kept, from);
        pool.checked = true;
        Ok(pool)
    }

    /// The collected documents the scope lets through (their `stamps`).
    fn passing(&mut self, seen: Collected) -> rusqlite::Result<Collected> {
        let Some(scope) = self.scope else {
            return Ok(seen);
        };
        let stamps = self.stats.stamps(self.conn, &seen.rowids)?;
        let mut kept = Collected {
            phrases: seen.phrases,
            ..Collected::default()
        };
        for (row, stamp) in stamps.iter().enumerate() {
            if scope.passes(stamp) {
                kept.rowids.push(seen.rowids[row]);
                kept.freqs
                    .extend_from_slice(&seen.freqs[row * seen.phrases..(row + 1) * seen.phrases]);
            }
        }
        Ok(kept)
    }

    /// A pool from collected postings whose phrases are `terms[from..]`.
    fn pool(&self, seen: Collected, from: usize) -> Pool {
        let n = self.terms.len();
        if from == 0 && seen.phrases == n {
            // Every word, in order: the frequencies as collected.
            return Pool {
                rowids: seen.rowids,
                freqs: seen.freqs,
                checked: false,
            };
        }
        let mut freqs = vec![0.0; seen.rowids.len() * n];
        let width = seen.phrases.min(n - from);
        for row in 0..seen.rowids.len() {
            let got = &seen.freqs[row * seen.phrases..row * seen.phrases + width];
            freqs[row * n + from..row * n + from + width].copy_from_slice(got);
        }
        Pool {
            rowids: seen.rowids,
            freqs,
            checked: false,
        }
    }

    /// The `wanted`-th best score so far, once there are that many.
    fn threshold(&self) -> Option<f64> {
        (self.best.len() >= self.wanted).then(|| self.best[self.wanted - 1].1)
    }

    /// Scores a pool, skipping the rowids in `scored` (sorted) and every
    /// document that cannot enter the best `wanted`.
    ///
    /// When every length is at hand (kept, or read in one scan), each
    /// document is scored once, in the pool's rowid order: their lengths are
    /// then read in memory order (in bound order each was a cache miss, two
    /// thirds of a server's time in this function), and no bound is needed.
    /// Otherwise best bound first, so that the loop stops, and no more
    /// blocks are read, as soon as no bound can beat the `wanted`-th score.
    /// Ties go to the lower rowid, as in FTS5's order, whatever the order of
    /// scoring.
    fn score(&mut self, pool: &Pool, scored: &[i64]) -> rusqlite::Result<()> {
        let n = self.terms.len();
        let fresh = |rowid: &i64| scored.is_empty() || scored.binary_search(rowid).is_err();
        if let Some(scope) = self.scope {
            return self.score_scoped(scope, pool, &fresh);
        }
        if self.stats.at_hand(pool.rowids.len()) {
            let lens = self.stats.lengths(self.conn, &pool.rowids)?;
            for (i, (&rowid, stored)) in pool.rowids.iter().zip(lens).enumerate() {
                if !fresh(&rowid) {
                    continue;
                }
                let freqs = &pool.freqs[i * n..(i + 1) * n];
                if stored == 0 || stored == dense::TOO_LONG {
                    self.consider(rowid, freqs, stored)?;
                } else {
                    self.keep(rowid, self.bm25(freqs, f64::from(stored)));
                }
            }
            return Ok(());
        }
        let mut order: Vec<(f64, usize)> = (0..pool.rowids.len())
            .filter(|&i| fresh(&pool.rowids[i]))
            .map(|i| (self.bm25(&pool.freqs[i * n..(i + 1) * n], 0.0), i))
            .collect();
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        for (bound, i) in order {
            if self.threshold().is_some_and(|t| bound <= t) {
                break;
            }
            let rowid = pool.rowids[i];
            let stored = self.stats.length(self.conn, rowid)?;
            self.consider(rowid, &pool.freqs[i * n..(i + 1) * n], stored)?;
        }
        Ok(())
    }

    /// [`Ranker::score`] with a scope: every document scored, then the
    /// scope's check (its `stamps`, read a few dozen at a time) taken best
    /// first until no unchecked score can enter the best `wanted` (a pool
    /// `collect_newest` checked already is not checked again).
    fn score_scoped(
        &mut self,
        scope: &Scope,
        pool: &Pool,
        fresh: &dyn Fn(&i64) -> bool,
    ) -> rusqlite::Result<()> {
        const BATCH: usize = 64;
        let n = self.terms.len();
        let lens = if self.stats.at_hand(pool.rowids.len()) {
            self.stats.lengths(self.conn, &pool.rowids)?
        } else {
            let mut lens = Vec::with_capacity(pool.rowids.len());
            for &rowid in &pool.rowids {
                lens.push(self.stats.length(self.conn, rowid)?);
            }
            lens
        };
        let mut scored: Vec<(f64, i64)> = Vec::with_capacity(pool.rowids.len());
        for (i, (&rowid, stored)) in pool.rowids.iter().zip(lens).enumerate() {
            if !fresh(&rowid) {
                continue;
            }
            if let Some(tokens) = self.length(rowid, stored)? {
                let freqs = &pool.freqs[i * n..(i + 1) * n];
                scored.push((self.bm25(freqs, tokens as f64), rowid));
            }
        }
        scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        if pool.checked {
            for (score, rowid) in scored {
                self.keep(rowid, score);
            }
            return Ok(());
        }
        for batch in scored.chunks(BATCH) {
            if self.threshold().is_some_and(|t| batch[0].0 < t) {
                break;
            }
            let rowids: Vec<i64> = batch.iter().map(|s| s.1).collect();
            let stamps = self.stats.stamps(self.conn, &rowids)?;
            for (&(score, rowid), stamp) in batch.iter().zip(stamps) {
                if scope.passes(&stamp) {
                    self.keep(rowid, score);
                }
            }
        }
        Ok(())
    }

    /// Scores one document, whose `lengths` entry is `stored`, and keeps it
    /// when it is among the best `wanted`.
    fn consider(&mut self, rowid: i64, freqs: &[f32], stored: u16) -> rusqlite::Result<()> {
        if let Some(tokens) = self.length(rowid, stored)? {
            self.keep(rowid, self.bm25(freqs, tokens as f64));
        }
        Ok(())
    }

    /// Keeps document `rowid` when its `score` is among the best `wanted`
    /// (ties: the lower rowid first).
    fn keep(&mut self, rowid: i64, score: f64) {
        if self.best.len() >= self.wanted {
            let (last, lowest) = self.best[self.wanted - 1];
            if score < lowest || (score == lowest && rowid > last) {
                return;
            }
        }
        let place = self
            .best
            .partition_point(|b| b.1 > score || (b.1 == score && b.0 < rowid));
        self.best.insert(place, (rowid, score));
        self.best.truncate(self.wanted);
    }

    /// A document's length in tokens from its `lengths` entry `stored`
    /// (`None`: it is gone).
    fn length(&mut self, rowid: i64, stored: u16) -> rusqlite::Result<Option<u64>> {
        if stored != 0 && stored != dense::TOO_LONG {
            return Ok(Some(u64::from(stored)));
        }
        // Not in `lengths` (or longer than it holds): FTS5's own record.
        stored_length(self.conn, rowid)
    }

    /// BM25 of a document of `length` tokens with these word frequencies.
    fn bm25(&self, freqs: &[f32], length: f64) -> f64 {
        let norm = K1 * (1.0 - B + B * length / self.avgdl);
        self.terms
            .iter()
            .zip(freqs)
            .filter(|(_, f)| **f > 0.0)
            .map(|(t, &f)| {
                let f = f64::from(f);
                t.idf * (f * (K1 + 1.0)) / (f + norm)
            })
            .sum()
    }

    fn finish(&mut self, exact: bool) -> Ranked {
        Ranked {
            hits: std::mem::take(&mut self.best),
            why: Default::default(),
            exact,
        }
    }
}

#[cfg(test)]
mod tests;
