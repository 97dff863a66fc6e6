//! Filtered searches (`--kind`, `--session`, `--tag`, `--since`,
//! `--until`): the ranking pass over what the filters let through
//! (`rank::Scope`), each candidate's row checked against the filters' exact
//! rules, then the re-rank by kind and date.

use super::db::db_error;
use super::index::Index;
use super::query::snippet;
use super::{Hit, Query, Why, rank, ranking, sources};
use crate::error::Result;
use rusqlite::{OptionalExtension, params_from_iter};

impl Index<'_> {
    /// The best `query.limit` hits of a query with filters, re-ranked from
    /// the best `wanted` that pass them.
    pub(super) fn filtered(
        &self,
        terms: &[String],
        query: &Query,
        wanted: usize,
        hints: &rank::Hints,
    ) -> Result<Vec<Hit>> {
        // Kinds alone are checked on the dense `stamps`, as the re-rank
        // reads them: no `docs` row (a random page each) for the candidates.
        let kinds_only = query.session.is_none()
            && query.tag.is_none()
            && query.since.is_none()
            && query.until.is_none();
        if kinds_only {
            return self.best_ranked(terms, query.limit, wanted, &query.kinds, hints);
        }
        let Some(scope) = rank::Scope::of(&self.conn, query).map_err(db_error)? else {
            return Ok(Vec::new());
        };
        let found = match self.scoped_candidates(terms, wanted, query, &scope, hints)? {
            Some(rows) => rows,
            None => {
                let fts = terms
                    .iter()
                    .map(|t| format!("\"{t}\""))
                    .collect::<Vec<_>>()
                    .join(" OR ");
                self.rank_candidates_filtered(&fts, query, wanted)?
            }
        };
        let newest = found
            .iter()
            .map(|r| r.5.as_str())
            .max()
            .unwrap_or("")
            .to_string();
        let all = sources::all()?;
        let mut hits: Vec<Hit> = found
            .into_iter()
            .map(
                |Row(id, kind, source, session, tags, date, title, body, rank, why)| {
                    let boost = sources::boost(all, &kind);
                    let recency = ranking::recency_factor(&date, &newest);
                    let score = -rank * boost * recency;
                    let why = hints.explain.then(|| Why {
                        boost,
                        recency,
                        ..why.unwrap_or(Why {
                            words: -rank,
                            ..Why::default()
                        })
                    });
                    Hit {
                        // The whole body until the best are known (below).
                        snippet: body,
                        id,
                        kind,
                        source,
                        session,
                        tags: tags.split_whitespace().map(str::to_string).collect(),
                        date,
                        title,
                        score,
                        why,
                    }
                },
            )
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| b.date.cmp(&a.date))
        });
        hits.truncate(query.limit);
        for hit in &mut hits {
            if hit.source.is_empty() {
                self.complete(hit)?;
            }
            hit.snippet = snippet(&hit.snippet, terms);
        }
        ranking::normalize(&mut hits);
        Ok(hits)
    }

    /// The best `wanted` documents by BM25 that pass the query's filters,
    /// without their source and body: only the few that are returned need
    /// them (`complete`). `None` when fewer than the query's limit passed
    /// because rows failed the filters' exact check (a date or a tag the
    /// scope could only bound): the caller then asks SQLite.
    ///
    /// Filters that most documents pass (dates, and kinds with them) take
    /// the best of all, as deep as `wanted × 8`, and check their rows; the
    /// others, and those when too few pass, rank what the scope lets
    /// through (`rank::rank_in`).
    fn scoped_candidates(
        &self,
        terms: &[String],
        wanted: usize,
        query: &Query,
        scope: &rank::Scope,
        hints: &rank::Hints,
    ) -> Result<Option<Vec<Row>>> {
        if !scope.narrow() {
            let all = rank::rank(
                &self.conn,
                &mut self.doc_stats.borrow_mut(),
                terms,
                wanted * 8,
                hints,
            )
            .map_err(db_error)?;
            let exhausted = all.hits.len() < wanted * 8;
            let (rows, _) = self.checked_rows(all, wanted, query)?;
            if rows.len() >= query.limit || exhausted {
                return Ok(Some(rows));
            }
        }
        // Room for the rows the scope lets through and the check refuses.
        let depth = if scope.exact() { wanted } else { wanted * 2 };
        let ranked = rank::rank_in(
            &self.conn,
            &mut self.doc_stats.borrow_mut(),
            terms,
            depth,
            scope,
            hints,
        )
        .map_err(db_error)?;
        let full = ranked.hits.len() >= depth;
        let (rows, refused) = self.checked_rows(ranked, wanted, query)?;
        Ok((rows.len() >= query.limit || !(refused && full)).then_some(rows))
    }

    /// The rows of the `ranked` documents (best first) that pass the
    /// query's filters, until `wanted` do, and whether any failed.
    fn checked_rows(
        &self,
        ranked: rank::Ranked,
        wanted: usize,
        query: &Query,
    ) -> Result<(Vec<Row>, bool)> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT id, kind, '', session, tags, date, title, '' FROM docs WHERE rowid = ?1",
            )
            .map_err(db_error)?;
        let mut out = Vec::with_capacity(wanted);
        let mut refused = false;
        for (rowid, score) in ranked.hits {
            let row = stmt
                .query_row([rowid], |r| Row::read(r, -score))
                .optional()
                .map_err(db_error)?;
            match row {
                Some(mut row) if passes(&row, query) => {
                    row.9 = ranked.why.get(&rowid).copied();
                    out.push(row);
                }
                Some(_) => refused = true,
                None => {}
            }
            // Best first: the first `wanted` that pass are the ones kept (a
            // row each is a random page).
            if out.len() == wanted {
                break;
            }
        }
        Ok((out, refused))
    }

    /// Fills in the source and the body (in `snippet`) of a hit from
    /// `scoped_candidates`.
    fn complete(&self, hit: &mut Hit) -> Result<()> {
        let found: Option<(String, String)> = self
            .conn
            .prepare_cached(
                "SELECT (SELECT path FROM files WHERE files.id = docs.file), body
                 FROM docs WHERE id = ?1",
            )
            .map_err(db_error)?
            .query_row([&hit.id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()
            .map_err(db_error)?;
        if let Some((source, body)) = found {
            hit.source = source;
            hit.snippet = body;
        }
        Ok(())
    }

    /// The best `limit` documents that pass the query's filters, ranked by
    /// FTS5's `bm25()` over every match joined with its row inside SQLite:
    /// time in proportion to the matches, for the rare query whose rows the
    /// scope let through failed the filters' exact check.
    fn rank_candidates_filtered(&self, fts: &str, query: &Query, limit: usize) -> Result<Vec<Row>> {
        let mut sql = String::from(
            "SELECT d.id, d.kind, (SELECT path FROM files WHERE files.id = d.file), d.session,
                    d.tags, d.date, d.title, d.body,
                    bm25(fts, 2.0, 1.0, 1.5) AS rank
             FROM fts JOIN docs d ON d.rowid = fts.rowid
             WHERE fts MATCH ?1",
        );
        let mut args: Vec<String> = vec![fts.to_string()];
        if !query.kinds.is_empty() {
            let marks: Vec<String> = query
                .kinds
                .iter()
                .map(|k| {
                    args.push(k.clone());
                    format!("?{}", args.len())
                })
                .collect();
            sql.push_str(&format!(" AND d.kind IN ({})", marks.join(", ")));
        }
        if let Some(session) = &query.session {
            args.push(session.clone());
            sql.push_str(&format!(" AND d.session = ?{}", args.len()));
        }
        if let Some(tag) = &query.tag {
            args.push(format!(" {} ", tag.to_lowercase()));
            sql.push_str(&format!(
                " AND (' ' || lower(d.tags) || ' ') LIKE '%' || ?{} || '%'",
                args.len()
            ));
        }
        if let Some(since) = &query.since {
            args.push(since.clone());
            sql.push_str(&format!(" AND d.date >= ?{}", args.len()));
        }
        if let Some(until) = &query.until {
            args.push(until_bound(until));
            sql.push_str(&format!(" AND d.date <= ?{}", args.len()));
        }
        sql.push_str(&format!(" ORDER BY rank LIMIT {limit}"));
        let mut stmt = self.conn.prepare_cached(&sql).map_err(db_error)?;
        let rows = stmt
            .query_map(params_from_iter(args.iter()), |r| {
                let rank = r.get(8)?;
                Row::read(r, rank)
            })
            .map_err(db_error)?;
        rows.collect::<rusqlite::Result<_>>().map_err(db_error)
    }
}

/// A candidate: id, kind, source, session, tags, date, title, body, BM25 rank.
struct Row(
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    String,
    String,
    f64,
    Option<Why>,
);

impl Row {
    /// A candidate from the first eight columns of a `docs` row.
    fn read(r: &rusqlite::Row, rank: f64) -> rusqlite::Result<Row> {
        Ok(Row(
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
            r.get(7)?,
            rank,
            None,
        ))
    }
}

/// The inclusive upper bound for `until`: a bare date covers that whole day.
fn until_bound(until: &str) -> String {
    if until.len() == 10 {
        format!("{until}T23:59:59Z~")
    } else {
        until.to_string()
    }
}

/// Whether a hit passes the query's filters (the same rules as the SQL).
pub(super) fn fits(hit: &super::Hit, query: &Query) -> bool {
    let tags = hit.tags.join(" ");
    admits(&hit.kind, &hit.session, &tags, &hit.date, query)
}

/// Whether a candidate passes the query's filters (the same rules as the SQL).
fn passes(row: &Row, query: &Query) -> bool {
    let Row(_, kind, _, session, tags, date, ..) = row;
    admits(kind, session, tags, date, query)
}

fn admits(kind: &str, session: &Option<String>, tags: &str, date: &str, query: &Query) -> bool {
    (query.kinds.is_empty() || query.kinds.iter().any(|k| k == kind))
        && query
            .session
            .as_ref()
            .is_none_or(|s| session.as_deref() == Some(s.as_str()))
        && query.tag.as_ref().is_none_or(|t| {
            tags.to_lowercase()
                .split_whitespace()
                .any(|x| x == t.to_lowercase())
        })
        && query.since.as_ref().is_none_or(|s| date >= s.as_str())
        && query
            .until
            .as_ref()
            .is_none_or(|u| date <= until_bound(u).as_str())
}
