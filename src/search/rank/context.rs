//! The second ranking stage: conversation turns ranked in their context,
//! and what the question asks of time.
//!
//! A turn alone often does not say what it is about: "They were awestruck
//! and humbled." answers "How did they react when they saw the memorial?",
//! the turn before it. So the best documents of the first stage (BM25 over
//! each document's own words) are taken with the turns around them, and
//! every turn there that holds a query word of its own is scored again as
//! if its neighbours' words were its own at lower weight (BM25F:
//! frequencies and lengths add up, weighted; only words rarer than
//! [`LENT_BELOW`]): [`NEAR`] by distance, and
//! [`ANSWERED`] for the turn right before when it asks a question. A turn
//! never enters on its neighbours' words alone. Its neighbours are the
//! documents a few rowids away of the same kind and session: turns are
//! indexed in the order they were said, and the turns of one conversation
//! saved while another session was saving are further apart (then fewer of
//! them count). The
//! neighbours' words come from the postings the first stage read (a
//! neighbour's frequency of a word too common to be read is taken as 0).
//!
//! Then each candidate's score is multiplied by what its stamp says:
//! [`ASKING`] for a turn that ends with a question (it seldom holds the
//! answer; the turn after it does), [`IN_WINDOW`] for a document dated in
//! the window the question names ("on 13 October 2023", "last week"), and
//! [`SAYS_WHEN`] for one that says when (yesterday, last Friday, in May)
//! when the question asks when. Documents outside sessions (notes, facts)
//! keep their own score and take the time factors alone.
//!
//! The weights were chosen on LoCoMo's development conversations and kept
//! where a range of values did equally well (docs/PERFORMANCE.md, "Recall:
//! LoCoMo"); tools/bench-locomo.py measures them.

use rusqlite::Result;

use super::dense::Stamp;
use super::flags::{ASKS, TIMED};
use super::{B, K1, Pool, Ranker};
use crate::search::Why;

/// How far a turn's context reaches, in turns of its session each way.
const RADIUS: usize = 5;
/// How far, in rowids, those turns are looked for: turns of other sessions
/// saved at the same time lie between (a rebuild, which indexes file by
/// file, puts them together again).
pub(super) const SPAN: i64 = 2 * RADIUS as i64;
/// The weight of a neighbour's words, by distance (1 = adjacent).
const NEAR: [f64; RADIUS] = [0.4, 0.28, 0.196, 0.137, 0.096];
/// The weight of the turn right before when it asks a question: the
/// question is what this turn answers.
const ANSWERED: f64 = 1.0;
/// The share of the index's documents a word must be under for a
/// neighbour to lend it...
const LENT_BELOW: f64 = 0.05;
/// ...unless it is in fewer documents than this (a small home, where every
/// word is in more than one document in 20).
const LENT_ALWAYS: f64 = 50.0;
/// The factor of a turn that ends with a question.
pub(crate) const ASKING: f64 = 0.75;
/// The factor of a document dated in the window the query names.
pub(crate) const IN_WINDOW: f64 = 2.0;
/// The factor of a document that says when, for a question that asks when.
pub(crate) const SAYS_WHEN: f64 = 1.5;

/// What the query asks beyond its words (`search::question::Asked`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Hints {
    /// `[from, to)` in Unix seconds.
    pub window: Option<(i64, i64)>,
    pub when: bool,
    /// The caller wants to know why each hit ranked where it did.
    pub explain: bool,
    /// The names the question holds, lowercased (`question::names_in`).
    pub names: Vec<String>,
}

/// One document of a neighbourhood.
struct Near {
    stamp: Stamp,
    /// Its length in tokens (0: no such document).
    length: f64,
}

impl Ranker<'_> {
    /// Re-ranks `self.best` (the first stage's) in context: see the module
    /// documentation.
    pub(super) fn in_context(&mut self, hints: &Hints) -> Result<()> {
        let best = std::mem::take(&mut self.best);
        if best.is_empty() {
            return Ok(());
        }
        // Only the words rare enough to tell a conversation apart are lent:
        // a common word (in more than one document in [`LENT_BELOW`]'s
        // share) in many turns of a busy session would lift all of them
        // above a turn that itself says more. With none to lend, context
        // changes nothing: only the centres' stamps are read.
        let lent: Vec<bool> = self
            .terms
            .iter()
            .map(|t| t.df < (LENT_BELOW * self.rows).max(LENT_ALWAYS))
            .collect();
        let mut centres: Vec<i64> = best.iter().map(|b| b.0).collect();
        centres.sort_unstable();
        if !lent.contains(&true) {
            let (stamps, _) = self.stats.neighbourhood(self.conn, &centres)?;
            let mut scored = Vec::with_capacity(best.len());
            for (centre, own) in best {
                let Ok(c) = centres.binary_search(&centre) else {
                    continue;
                };
                let stamp = stamps[c];
                let conversational = stamp.session != 0 && stamp.kind != 0;
                let why = self.explain(own, None, &stamp, conversational, hints);
                scored.push((centre, own * self.factor(&why)));
                if hints.explain {
                    self.why.insert(centre, why);
                }
            }
            scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            self.best = scored;
            return Ok(());
        }
        // Every candidate's own neighbours too: twice the span around each
        // centre, in rowid order, each once.
        let reach = 2 * SPAN;
        let mut rowids: Vec<i64> = Vec::with_capacity(centres.len() * (2 * reach as usize + 1));
        for &centre in &centres {
            let from = (centre - reach).max(1);
            for rowid in from..=centre.saturating_add(reach) {
                if rowids.last().is_none_or(|&last| rowid > last) {
                    rowids.push(rowid);
                }
            }
        }
        let (stamps, stored) = self.stats.neighbourhood(self.conn, &rowids)?;
        let mut near = Vec::with_capacity(rowids.len());
        for ((&rowid, stamp), stored) in rowids.iter().zip(stamps).zip(stored) {
            let length = if stamp.kind == 0 && stored == 0 {
                0
            } else {
                self.length(rowid, stored)?.unwrap_or(0)
            };
            near.push(Near {
                stamp,
                length: length as f64,
            });
        }
        let freqs = self.frequencies(&rowids);
        let n = self.terms.len();
        let at = |rowid: i64| rowids.binary_search(&rowid).ok();
        let mut scored: Vec<(i64, f64)> = Vec::with_capacity(rowids.len());
        let mut done = std::collections::HashSet::with_capacity(rowids.len());
        for &(centre, own) in &best {
            let Some(c) = at(centre) else { continue };
            let home = near[c].stamp;
            if home.session == 0 || home.kind == 0 {
                if done.insert(centre) {
                    let why = self.explain(own, None, &home, false, hints);
                    scored.push((centre, own * self.factor(&why)));
                    if hints.explain {
                        self.why.insert(centre, why);
                    }
                }
                continue;
            }
            let (before, after) = neighbours(c, &rowids, &near);
            for i in before.into_iter().chain([c]).chain(after) {
                let rowid = rowids[i];
                let stamp = near[i].stamp;
                if !done.insert(rowid) {
                    continue;
                }
                if self.scope.is_some_and(|s| !s.passes(&stamp)) {
                    continue;
                }
                // A hit holds a query word of its own: context re-weighs the
                // turns that match, it does not bring in those that do not
                // (on LoCoMo it would add nothing, and elsewhere it would list
                // a match's neighbours).
                if freqs[i * n..(i + 1) * n].iter().all(|&f| f == 0.0) {
                    continue;
                }
                let (words, score) = self.contextual(i, &rowids, &near, &freqs[..], n, &lent);
                if score > 0.0 {
                    let why = self.explain(words, Some(score), &stamp, true, hints);
                    scored.push((rowid, score * self.factor(&why)));
                    if hints.explain {
                        self.why.insert(rowid, why);
                    }
                }
            }
        }
        scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(self.wanted);
        self.why
            .retain(|rowid, _| scored.iter().any(|s| s.0 == *rowid));
        self.best = scored;
        Ok(())
    }

    /// BM25 of document `i` of a neighbourhood, of its own words and with
    /// its neighbours' words as its own, weighted by [`NEAR`] (and
    /// [`ANSWERED`]).
    fn contextual(
        &self,
        i: usize,
        rowids: &[i64],
        near: &[Near],
        freqs: &[f32],
        n: usize,
        lent: &[bool],
    ) -> (f64, f64) {
        let own = &freqs[i * n..(i + 1) * n];
        let words = self.bm25(own, near[i].length);
        let mut tf: Vec<f64> = own.iter().map(|&f| f64::from(f)).collect();
        let mut length = near[i].length;
        let (before, after) = neighbours(i, rowids, near);
        let sides = [(before, true), (after, false)];
        for (side, earlier) in &sides {
            for (d, &j) in side.iter().enumerate() {
                let weight = if *earlier && d == 0 && near[j].stamp.flags & ASKS != 0 {
                    ANSWERED
                } else {
                    NEAR[d]
                };
                for ((t, f), lent) in tf.iter_mut().zip(&freqs[j * n..(j + 1) * n]).zip(lent) {
                    if *lent {
                        *t += weight * f64::from(*f);
                    }
                }
                length += weight * near[j].length;
            }
        }
        let avg = self.avgdl * (1.0 + 2.0 * NEAR.iter().sum::<f64>());
        let norm = K1 * (1.0 - B + B * length / avg);
        let context: f64 = self
            .terms
            .iter()
            .zip(&tf)
            .filter(|(_, f)| **f > 0.0)
            .map(|(t, &f)| t.idf * (f * (K1 + 1.0)) / (f + norm))
            .sum();
        // Context adds what the neighbours say; it never costs a turn what
        // its own words earn (an answer among unrelated turns, whose longer
        // context length would otherwise dilute it).
        (words, context.max(words))
    }

    /// What a document's stamp says of it, for the query's `hints`.
    fn explain(
        &self,
        words: f64,
        context: Option<f64>,
        stamp: &Stamp,
        conversational: bool,
        hints: &Hints,
    ) -> Why {
        Why {
            words,
            context,
            asks: conversational && stamp.flags & ASKS != 0,
            in_window: hints
                .window
                .zip(stamp.unix())
                .is_some_and(|((from, to), date)| (from..to).contains(&date)),
            says_when: hints.when && stamp.flags & TIMED != 0,
            boost: 1.0,
            recency: 1.0,
        }
    }

    /// What the second stage multiplies a score by.
    fn factor(&self, why: &Why) -> f64 {
        let mut factor = 1.0;
        if why.asks {
            factor *= ASKING;
        }
        if why.in_window {
            factor *= IN_WINDOW;
        }
        if why.says_when {
            factor *= SAYS_WHEN;
        }
        factor
    }

    /// The query words' frequencies in the documents `rowids` (sorted), `n`
    /// to a document, from the postings the first stage read (0 where it
    /// read none).
    fn frequencies(&self, rowids: &[i64]) -> Vec<f32> {
        let n = self.terms.len();
        let mut out = vec![0.0f32; rowids.len() * n];
        let mut filled = vec![false; rowids.len()];
        for pool in &self.seen {
            let mut p = pool.rowids.partition_point(|&r| r < rowids[0]);
            for (i, &rowid) in rowids.iter().enumerate() {
                while p < pool.rowids.len() && pool.rowids[p] < rowid {
                    p += 1;
                }
                if p == pool.rowids.len() {
                    break;
                }
                if pool.rowids[p] == rowid && !filled[i] {
                    out[i * n..(i + 1) * n].copy_from_slice(&pool.freqs[p * n..(p + 1) * n]);
                    filled[i] = true;
                }
            }
        }
        out
    }
}

/// The turns of document `i`'s session around it, nearest first (indexes
/// into `rowids` and `near`): up to [`RADIUS`] each way within [`SPAN`]
/// rowids, documents of the same kind and session.
fn neighbours(i: usize, rowids: &[i64], near: &[Near]) -> (Vec<usize>, Vec<usize>) {
    let home = near[i].stamp;
    let walk = |step: i64| {
        let mut found = Vec::with_capacity(RADIUS);
        for k in 1..=SPAN {
            // `rowids` runs are contiguous: rowid r + k sits k places on.
            let Some(j) = i.checked_add_signed((step * k) as isize) else {
                break;
            };
            if rowids.get(j) != Some(&(rowids[i] + step * k)) {
                break;
            }
            let other = near[j].stamp;
            if other.kind == home.kind && other.session == home.session && near[j].length > 0.0 {
                found.push(j);
                if found.len() == RADIUS {
                    break;
                }
            }
        }
        found
    };
    (walk(-1), walk(1))
}

/// A pool in rowid order, as [`Ranker::frequencies`] reads it (the newest
/// documents come newest first).
pub(super) fn in_order(mut pool: Pool, n: usize) -> Pool {
    if pool.rowids.is_sorted() {
        return pool;
    }
    let mut order: Vec<usize> = (0..pool.rowids.len()).collect();
    order.sort_unstable_by_key(|&i| pool.rowids[i]);
    let rowids = order.iter().map(|&i| pool.rowids[i]).collect();
    let mut freqs = Vec::with_capacity(pool.freqs.len());
    for &i in &order {
        freqs.extend_from_slice(&pool.freqs[i * n..(i + 1) * n]);
    }
    pool.rowids = rowids;
    pool.freqs = freqs;
    pool
}
