//! From ranked rowids to hits, for a query without filters or filtered by
//! kind only (`track search`, `knowledge search`): the re-rank of the best
//! candidates (kind boost × recency) reads their kind and date from the
//! dense `stamps` (`rank::DocStats`), and only the hits returned are read
//! from `docs`.

use super::db::db_error;
use super::index::Index;
use super::query::snippet;
use super::{Hit, Query, Why, rank, ranking, sources};
use crate::error::Result;
use rusqlite::OptionalExtension;
use std::collections::HashMap;

/// Candidates for the re-rank: (relevance, kind, date in Unix seconds, rowid).
type Stamped = Vec<(f64, String, i64, i64)>;

impl Index<'_> {
    /// The best `limit` hits for the query words among the documents of
    /// `kinds` (empty: every kind), re-ranked from the best `wanted` of
    /// those kinds by BM25: the best `wanted` of all, and when fewer than
    /// `wanted` of them are of these kinds, a ranking of these kinds' alone
    /// (`rank::Scope`).
    pub(super) fn best_ranked(
        &self,
        terms: &[String],
        limit: usize,
        wanted: usize,
        kinds: &[String],
        hints: &rank::Hints,
    ) -> Result<Vec<Hit>> {
        let ranked = rank::rank(
            &self.conn,
            &mut self.doc_stats.borrow_mut(),
            terms,
            wanted,
            hints,
        )
        .map_err(db_error)?;
        let exhausted = ranked.hits.len() < wanted;
        let mut why = ranked.why;
        let mut stamped = self.stamped(ranked.hits, wanted, kinds)?;
        if !kinds.is_empty() && stamped.len() < wanted && !exhausted {
            let query = Query {
                kinds: kinds.to_vec(),
                ..Query::default()
            };
            let Some(scope) = rank::Scope::of(&self.conn, &query).map_err(db_error)? else {
                return Ok(Vec::new());
            };
            let ranked = rank::rank_in(
                &self.conn,
                &mut self.doc_stats.borrow_mut(),
                terms,
                wanted,
                &scope,
                hints,
            )
            .map_err(db_error)?;
            why = ranked.why;
            stamped = self.stamped(ranked.hits, wanted, kinds)?;
        }
        let why = if hints.explain { Some(&why) } else { None };
        self.hits_of(terms, limit, stamped, why)
    }

    /// The documents said in `window`, for a question that names that time
    /// and nothing its words find (`rank::said_in`): newest first, through
    /// the query's filters, each scored 1.
    pub(super) fn said_in(
        &self,
        window: (i64, i64),
        terms: &[String],
        query: &Query,
        wanted: usize,
    ) -> Result<Vec<Hit>> {
        let scope = match rank::Scope::of(&self.conn, query).map_err(db_error)? {
            Some(scope) => scope,
            None => return Ok(Vec::new()),
        };
        // A tag is not in `stamps`: more candidates, checked on their rows.
        let wanted = if query.tag.is_some() {
            wanted * 8
        } else {
            wanted
        };
        let said = rank::said_in(
            &self.conn,
            &mut self.doc_stats.borrow_mut(),
            window,
            wanted,
            Some(&scope),
        )
        .map_err(db_error)?;
        let why: HashMap<i64, Why> = said
            .iter()
            .map(|&(rowid, _)| {
                let why = Why {
                    in_window: true,
                    ..Why::default()
                };
                (rowid, why)
            })
            .collect();
        let stamped = self.stamped(said, wanted, &query.kinds)?;
        let mut hits = self.hits_of(terms, wanted, stamped, query.explain.then_some(&why))?;
        hits.retain(|hit| super::filtered::fits(hit, query));
        hits.sort_by(|a, b| b.date.cmp(&a.date));
        hits.truncate(query.limit);
        for hit in &mut hits {
            hit.score = 1.0;
        }
        Ok(hits)
    }

    /// Of the `ranked` documents (best first), the first `wanted` of
    /// `kinds` (empty: every kind) with their kind and date.
    fn stamped(&self, ranked: Vec<(i64, f64)>, wanted: usize, kinds: &[String]) -> Result<Stamped> {
        let mut stats = self.doc_stats.borrow_mut();
        let mut stamped: Stamped = Vec::with_capacity(ranked.len().min(wanted));
        for (rowid, relevance) in ranked {
            let stamp = stats
                .stamp(&self.conn, rowid)
                .map_err(db_error)?
                .map(|(kind, seconds)| (kind.to_string(), seconds));
            let stamp = match stamp {
                Some(stamp) => stamp,
                None => {
                    // Not in `stamps` (an unparsable date): the row says.
                    let row: Option<(String, String)> = self
                        .conn
                        .prepare_cached("SELECT kind, date FROM docs WHERE rowid = ?1")
                        .map_err(db_error)?
                        .query_row([rowid], |r| Ok((r.get(0)?, r.get(1)?)))
                        .optional()
                        .map_err(db_error)?;
                    let Some((kind, date)) = row else { continue };
                    (kind, ranking::seconds(&date).unwrap_or(0))
                }
            };
            if !kinds.is_empty() && !kinds.contains(&stamp.0) {
                continue;
            }
            stamped.push((relevance, stamp.0, stamp.1, rowid));
            if stamped.len() == wanted {
                break;
            }
        }
        Ok(stamped)
    }

    /// The best `limit` of the candidates once re-ranked, read from `docs`;
    /// with `why` (the ranking's), each says what made its score.
    fn hits_of(
        &self,
        terms: &[String],
        limit: usize,
        stamped: Stamped,
        why: Option<&HashMap<i64, Why>>,
    ) -> Result<Vec<Hit>> {
        let newest = stamped.iter().map(|s| s.2).max().unwrap_or(0);
        let all = sources::all()?;
        let mut scored: Vec<(f64, i64, i64, Option<Why>)> = stamped
            .into_iter()
            .map(|(relevance, kind, seconds, rowid)| {
                let boost = sources::boost(all, &kind);
                let recency = ranking::recency_factor_at(seconds, newest);
                let explained = why.map(|why| Why {
                    boost,
                    recency,
                    ..why.get(&rowid).copied().unwrap_or(Why {
                        words: relevance,
                        ..Why::default()
                    })
                });
                (relevance * boost * recency, seconds, rowid, explained)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
        scored.truncate(limit);
        let mut read = self
            .conn
            .prepare_cached(
                "SELECT id, kind, (SELECT path FROM files WHERE files.id = docs.file), session,
                        tags, date, title, body
                 FROM docs WHERE rowid = ?1",
            )
            .map_err(db_error)?;
        let mut hits = Vec::with_capacity(scored.len());
        for (score, _, rowid, why) in scored {
            let hit = read
                .query_row([rowid], |r| {
                    let tags: String = r.get(4)?;
                    let body: String = r.get(7)?;
                    Ok(Hit {
                        id: r.get(0)?,
                        kind: r.get(1)?,
                        source: r.get(2)?,
                        session: r.get(3)?,
                        tags: tags.split_whitespace().map(str::to_string).collect(),
                        date: r.get(5)?,
                        title: r.get(6)?,
                        snippet: snippet(&body, terms),
                        score,
                        why,
                    })
                })
                .optional()
                .map_err(db_error)?;
            hits.extend(hit);
        }
        ranking::normalize(&mut hits);
        Ok(hits)
    }
}
