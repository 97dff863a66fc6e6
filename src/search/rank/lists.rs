//! Every document of the query words scored, from their posting lists as
//! read from FTS5's pages (`doclist`), without merging the lists into one
//! pool.
//!
//! Two moderately common words at a million turns are in 10–80 thousand
//! documents. Most hold one word once, and such a document's score depends
//! on that word and its length only; the few that hold two words, or one
//! word more often or in a weightier column, decide the `wanted`-th score
//! first. So:
//!
//! 1. the documents in two lists or more (a merge of the rowids per pair
//!    of lists, each step without a branch on which list is ahead);
//! 2. those, and the documents holding a word at a frequency other than 1
//!    (`Postings::odd`), scored with all their frequencies;
//! 3. word by word, the documents holding it once and nothing else: none
//!    when the best such a document could score (at length 1) is below the
//!    `wanted`-th score so far (as a rule), else each scored from its
//!    length, each length's score computed once.
//!
//! Every document is scored with the score a merged pool would give it, or
//! left out only when it cannot enter the best `wanted` (nor tie with the
//! `wanted`-th: ties go to the lower rowid, whatever the order of scoring).
//! The second stage finds the words of the best documents' neighbours in a
//! pool of the documents around them ([`Ranker::near_best`]).

use super::context::SPAN;
use super::doclist::{Doclists, Postings};
use super::{B, K1, Pages, Pool, Ranker, dense};

/// How far around each of the best documents the second stage may ask for
/// a document's words: it reads twice [`SPAN`] rowids each way.
const AROUND: i64 = 2 * SPAN;

impl Ranker<'_> {
    /// The postings of every query word read whole from FTS5's pages, when
    /// that is allowed ([`Pages`]), they number at most
    /// [`super::Limits::whole`] (counted once per other word: each list is
    /// merged with every other), every word is one token, and every page
    /// decodes; `None` sends the query to FTS5.
    pub(super) fn whole_lists(&self) -> rusqlite::Result<Option<Vec<Postings>>> {
        let allowed = match self.limits.pages {
            Pages::Never => false,
            Pages::Kept => self.stats.keeps_all(),
            Pages::Always => true,
        };
        if !allowed || self.scope.is_some() {
            return Ok(None);
        }
        let n = self.terms.len();
        let total: f64 = self.terms.iter().map(|t| t.df).sum();
        if total * (n.max(2) - 1) as f64 > self.limits.whole as f64 {
            return Ok(None);
        }
        if self.terms.iter().any(|t| t.token.is_none()) {
            return Ok(None);
        }
        let Some(pages) = Doclists::open(self.conn)? else {
            return Ok(None);
        };
        let mut lists = Vec::with_capacity(n);
        for term in &self.terms {
            let Some(token) = &term.token else {
                return Ok(None);
            };
            // The estimate as a first capacity (it is within a few percent).
            let hint = ((term.df * 1.1) as usize).min(1 << 20);
            let Some(list) = pages.postings(self.conn, token, hint)? else {
                return Ok(None);
            };
            lists.push(list);
        }
        Ok(Some(lists))
    }

    /// Scores the documents of `lists`, each word's postings in `terms`
    /// order.
    pub(super) fn score_lists(&mut self, lists: &[Postings]) -> rusqlite::Result<()> {
        let n = lists.len();
        let mut special = Vec::new();
        for (p, first) in lists.iter().enumerate() {
            for second in &lists[p + 1..] {
                intersect(&first.rowids, &second.rowids, &mut special);
            }
        }
        for list in lists {
            special.extend(list.odd.iter().map(|o| o.0));
        }
        special.sort_unstable();
        special.dedup();
        let freqs = frequencies(lists, &special);
        let lens = self.stats.lengths(self.conn, &special)?;
        for ((&rowid, stored), freqs) in special.iter().zip(lens).zip(freqs.chunks_exact(n)) {
            if stored == 0 || stored == dense::TOO_LONG {
                self.consider(rowid, freqs, stored)?;
            } else {
                self.keep(rowid, self.bm25(freqs, f64::from(stored)));
            }
        }
        for (k, list) in lists.iter().enumerate() {
            self.score_singles(k, list, &special)?;
        }
        Ok(())
    }

    /// Scores the documents that hold word `k` once and no other (those of
    /// `list` not in `special`): such a document's score falls with its
    /// length, so each is left out on its length alone once it is longer
    /// than the longest that could still enter ([`Ranker::longest`]), and
    /// each length's score is computed once.
    fn score_singles(
        &mut self,
        k: usize,
        list: &Postings,
        special: &[i64],
    ) -> rusqlite::Result<()> {
        let mut once = vec![0.0f32; self.terms.len()];
        once[k] = 1.0;
        let idf = self.terms[k].idf;
        let mut threshold = self.threshold();
        let mut longest = self.longest(idf, threshold);
        if longest < 1.0 {
            return Ok(());
        }
        let mut by_length: Vec<f64> = Vec::new();
        let mut next = 0;
        for &rowid in &list.rowids {
            while special.get(next).is_some_and(|&s| s < rowid) {
                next += 1;
            }
            if special.get(next) == Some(&rowid) {
                continue;
            }
            let stored = match self.stats.kept_length(rowid) {
                Some(stored) => stored,
                None => self.stats.length(self.conn, rowid)?,
            };
            if stored == 0 || stored == dense::TOO_LONG {
                self.consider(rowid, &once, stored)?;
            } else {
                if f64::from(stored) > longest {
                    continue;
                }
                let at = usize::from(stored);
                if by_length.len() <= at {
                    by_length.resize(at + 1, f64::NAN);
                }
                if by_length[at].is_nan() {
                    by_length[at] = self.bm25(&once, f64::from(stored));
                }
                self.keep(rowid, by_length[at]);
            }
            if self.threshold() != threshold {
                threshold = self.threshold();
                longest = self.longest(idf, threshold);
            }
        }
        Ok(())
    }

    /// The longest document holding one word of IDF `idf` once, and no
    /// other, that may score `threshold` or more (infinite without one),
    /// with a token to spare for rounding: a longer one cannot enter.
    fn longest(&self, idf: f64, threshold: Option<f64>) -> f64 {
        let Some(t) = threshold.filter(|t| *t > 0.0) else {
            return f64::INFINITY;
        };
        // idf (k1 + 1) / (1 + k1 (1 - b + b L / avgdl)) >= t, for L.
        let norm = idf * (K1 + 1.0) / t - 1.0;
        let length = (norm / K1 - (1.0 - B)) * self.avgdl / B;
        length * (1.0 + 1e-9) + 1.0
    }

    /// The documents of `lists` within [`AROUND`] rowids of one of the best
    /// so far, with their frequencies: what the second stage reads of a
    /// pool (`context`'s `frequencies`), without merging whole lists.
    pub(super) fn near_best(&self, lists: &[Postings]) -> Pool {
        let mut centres: Vec<i64> = self.best.iter().map(|b| b.0).collect();
        centres.sort_unstable();
        let mut rowids = Vec::new();
        for list in lists {
            let mut from = 0;
            for &centre in &centres {
                let (low, high) = (centre.saturating_sub(AROUND), centre.saturating_add(AROUND));
                from += list.rowids[from..].partition_point(|&r| r < low);
                let to = from + list.rowids[from..].partition_point(|&r| r <= high);
                rowids.extend_from_slice(&list.rowids[from..to]);
                from = to;
            }
        }
        rowids.sort_unstable();
        rowids.dedup();
        Pool {
            freqs: frequencies(lists, &rowids),
            rowids,
            checked: false,
        }
    }
}

/// The frequencies of each of `lists` in the documents `rowids`
/// (ascending), `lists.len()` to a document (0: not in that list).
fn frequencies(lists: &[Postings], rowids: &[i64]) -> Vec<f32> {
    let n = lists.len();
    let mut freqs = vec![0.0f32; rowids.len() * n];
    for (k, list) in lists.iter().enumerate() {
        let (mut at, mut odd) = (0, 0);
        for (s, &rowid) in rowids.iter().enumerate() {
            at += list.rowids[at..].partition_point(|&r| r < rowid);
            if list.rowids.get(at) == Some(&rowid) {
                odd += list.odd[odd..].partition_point(|o| o.0 < rowid);
                freqs[s * n + k] = match list.odd.get(odd) {
                    Some(&(r, freq)) if r == rowid => freq,
                    _ => 1.0,
                };
            }
        }
    }
    freqs
}

/// Appends the rowids two ascending lists share, one step a rowid, each
/// without a branch on which list is ahead.
fn intersect(a: &[i64], b: &[i64], out: &mut Vec<i64>) {
    let (mut i, mut j) = (0, 0);
    while let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) {
        if x == y {
            out.push(x);
        }
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
}
