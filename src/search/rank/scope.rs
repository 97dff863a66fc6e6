//! Filtered ranking: what a search's filters let through, in the terms the
//! ranking pass can check without reading a document's row.
//!
//! A filtered search used to rank the best 320 documents unfiltered and
//! filter those; when too few passed (a session's turns, a kind with few
//! documents, common words), it asked FTS5's `bm25()` for every match joined
//! with its `docs` row: 0.15–0.33 s at a million turns. Now the ranking pass
//! itself runs over the documents that can pass:
//!
//! - a session's documents lie between the lowest and highest rowid its
//!   `sessions` row records, and FTS5 seeks its posting lists to that range;
//! - each candidate's kind, date and session are checked against `stamps`
//!   before it is scored;
//! - a tag is an FTS5 phrase in the `tags` column that every query of the
//!   pass must match too.
//!
//! The checks are exact for kinds and sessions, and a superset for dates (a
//! document's date is compared as text, its stamp holds UTC seconds: two
//! days of slack each way) and tags (the phrase also matches the same words
//! in a longer tag): the caller checks the rows it returns.

use rusqlite::{Connection, OptionalExtension};

use super::dense::{MAX_SESSION, Stamp};
use crate::search::Query;

/// Seconds of slack around a date bound (see the module's comment).
const SLACK: i64 = 2 * 86_400;

/// What a filtered search lets through (see the module's comment).
#[derive(Debug, Default)]
pub(crate) struct Scope {
    /// The rowids outside this range never pass.
    pub(super) range: Option<(i64, i64)>,
    /// Kind numbers; empty: every kind.
    kinds: Vec<u8>,
    /// The session's number (0: past what `stamps` holds; the row decides).
    session: Option<u32>,
    /// Bounds on `stamps` seconds, with the slack.
    since: Option<u32>,
    until: Option<u32>,
    /// An FTS5 expression every candidate must match as well.
    pub(super) must: Option<String>,
    /// Whether every document it lets through passes the filters (no date
    /// or tag, whose checks here only bound them).
    exact: bool,
}

impl Scope {
    /// The scope of a query's filters; `None` when no document can pass:
    /// the index has never held a document of its kinds or its session
    /// (every document's kind and session are recorded as it is written).
    pub(crate) fn of(conn: &Connection, query: &Query) -> rusqlite::Result<Option<Scope>> {
        let mut scope = Scope::default();
        for name in &query.kinds {
            let id: Option<i64> = conn
                .prepare_cached("SELECT id FROM kinds WHERE name = ?1")?
                .query_row([name], |r| r.get(0))
                .optional()?;
            // A kind numbered past what `stamps` holds is stored as 0.
            scope.kinds.extend(id.map(super::dense::kind_number));
        }
        if !query.kinds.is_empty() && scope.kinds.is_empty() {
            return Ok(None);
        }
        if let Some(name) = &query.session {
            let row: Option<(i64, i64, i64)> = conn
                .prepare_cached("SELECT id, first, last FROM sessions WHERE name = ?1")?
                .query_row([name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?;
            let Some((id, first, last)) = row else {
                return Ok(None);
            };
            scope.range = Some((first, last));
            scope.session = Some(if (1..=MAX_SESSION).contains(&id) {
                id as u32
            } else {
                0
            });
        }
        scope.since = query
            .since
            .as_deref()
            .and_then(|s| bound_seconds(s, false))
            .map(|s| Stamp::held(s - SLACK));
        scope.until = query
            .until
            .as_deref()
            .and_then(|s| bound_seconds(s, true))
            .map(|s| Stamp::held(s + SLACK))
            .filter(|&held| held > 0);
        scope.must = query.tag.as_deref().and_then(tag_phrase);
        scope.exact = query.since.is_none() && query.until.is_none() && query.tag.is_none();
        Ok(Some(scope))
    }

    /// Whether a document of this stamp may pass; one `stamps` does not
    /// know (kind 0) always may: its row decides.
    pub(super) fn passes(&self, stamp: &Stamp) -> bool {
        if stamp.kind == 0 {
            return true;
        }
        let dated = stamp.seconds != 0;
        (self.kinds.is_empty() || self.kinds.contains(&stamp.kind))
            && self.session.is_none_or(|n| n == 0 || stamp.session == n)
            && self.since.is_none_or(|b| !dated || stamp.seconds >= b)
            && self.until.is_none_or(|b| !dated || stamp.seconds <= b)
    }

    /// Whether every document it lets through passes the query's filters.
    pub(crate) fn exact(&self) -> bool {
        self.exact
    }

    /// Whether its documents can be listed from `stamps` alone: a scope of
    /// kinds or a session (and dates), not an FTS5 expression.
    pub(super) fn listable(&self) -> bool {
        (!self.kinds.is_empty() || self.session.is_some()) && self.must.is_none()
    }

    /// Whether it narrows the search by a range of rowids or an FTS5
    /// expression (a session, a tag), which the ranking pass reads alone.
    pub(crate) fn narrow(&self) -> bool {
        self.range.is_some() || self.must.is_some()
    }

    /// The share of the rowids `first..=last` this scope's range spans.
    pub(super) fn share(&self, first: i64, last: i64) -> f64 {
        match self.range {
            Some((low, high)) => {
                let all = (last - first + 1).max(1) as f64;
                ((high.min(last) - low.max(first) + 1).max(0) as f64 / all).min(1.0)
            }
            None => 1.0,
        }
    }

    /// `select` (a `SELECT … FROM fts WHERE fts MATCH ?1`) limited to the
    /// range, then `order`.
    pub(super) fn sql(&self, select: &str, order: &str) -> String {
        match self.range {
            Some((low, high)) => format!("{select} AND rowid BETWEEN {low} AND {high}{order}"),
            None => format!("{select}{order}"),
        }
    }

    /// An FTS5 expression with what every candidate must match.
    pub(super) fn expr(&self, expr: &str) -> String {
        match &self.must {
            Some(must) => format!("({expr}) AND {must}"),
            None => expr.to_string(),
        }
    }
}

/// A `--since`/`--until` value (RFC 3339 in UTC, or a date) in Unix
/// seconds; a date's `end` is the end of that day.
fn bound_seconds(value: &str, end: bool) -> Option<i64> {
    if let Ok(ts) = crate::clock::Time::parse(value) {
        return Some(ts.as_second());
    }
    let day = crate::clock::parse_date(value)?;
    let start = crate::clock::Time::at_midnight(day).as_second();
    Some(if end { start + 86_400 } else { start })
}

/// The FTS5 phrase of a tag in the `tags` column: every document with that
/// tag matches it. Only for a tag of ASCII letters, digits and punctuation
/// with a letter or digit, whose words the tokenizer is sure to keep: a
/// phrase with no word matches nothing, and would hide the tag's documents.
fn tag_phrase(tag: &str) -> Option<String> {
    let plain = tag.is_ascii()
        && !tag.bytes().any(|b| b.is_ascii_control())
        && tag.bytes().any(|b| b.is_ascii_alphanumeric());
    plain.then(|| format!("tags : \"{}\"", tag.replace('"', "\"\"")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(kind: u8, seconds: u32, session: u32) -> Stamp {
        Stamp {
            kind,
            flags: 0,
            seconds,
            session,
        }
    }

    #[test]
    fn kinds_and_sessions_are_exact_and_unknown_stamps_pass() {
        let scope = Scope {
            kinds: vec![2],
            session: Some(7),
            ..Scope::default()
        };
        assert!(scope.passes(&stamp(2, 100, 7)));
        assert!(!scope.passes(&stamp(3, 100, 7)));
        assert!(!scope.passes(&stamp(2, 100, 8)));
        assert!(!scope.passes(&stamp(2, 100, 0)));
        assert!(scope.passes(&stamp(0, 0, 0)));
        // A session numbered past what stamps hold: every document may pass.
        let past = Scope {
            session: Some(0),
            ..Scope::default()
        };
        assert!(past.passes(&stamp(2, 100, 0)) && past.passes(&stamp(2, 100, 9)));
    }

    #[test]
    fn date_bounds_keep_two_days_of_slack_and_unknown_dates() {
        let day = |d: &str| bound_seconds(d, false).unwrap();
        let query = Query {
            since: Some("2026-03-10".into()),
            until: Some("2026-03-20".into()),
            ..Query::default()
        };
        let conn = Connection::open_in_memory().unwrap();
        let scope = Scope::of(&conn, &query).unwrap().unwrap();
        let at = |d: &str| stamp(1, Stamp::held(day(d)), 0);
        for (date, passes) in [
            ("2026-03-07", false),
            ("2026-03-08", true),
            ("2026-03-15", true),
            ("2026-03-22", true),
            ("2026-03-23", true),
            ("2026-03-24", false),
        ] {
            assert_eq!(scope.passes(&at(date)), passes, "{date}");
        }
        assert!(scope.passes(&stamp(1, 0, 0)));
        assert_eq!(
            bound_seconds("2026-03-10T00:00:00Z", false),
            Some(day("2026-03-10"))
        );
        assert_eq!(bound_seconds("2026-03-10", true), Some(day("2026-03-11")));
        assert_eq!(bound_seconds("soon", true), None);
    }

    #[test]
    fn only_plain_tags_become_phrases() {
        assert_eq!(tag_phrase("rust").as_deref(), Some("tags : \"rust\""));
        assert_eq!(tag_phrase("c++").as_deref(), Some("tags : \"c++\""));
        assert_eq!(tag_phrase("a\"b").as_deref(), Some("tags : \"a\"\"b\""));
        for tag in ["++", "", "café", "日本", "a\tb"] {
            assert_eq!(tag_phrase(tag), None, "{tag}");
        }
    }

    proptest::proptest! {
        /// Whatever a tag holds, its phrase is valid FTS5 and matches every
        /// document carrying that tag (the filter may only widen).
        #[test]
        fn a_tag_phrase_is_valid_and_finds_its_documents(
            tag in "[ -~]{0,12}",
            other in "[a-z]{1,6}",
        ) {
            let conn = Connection::open_in_memory().unwrap();
            conn.execute_batch(
                "CREATE VIRTUAL TABLE fts USING fts5(title, body, tags,
                 tokenize='porter unicode61 remove_diacritics 2');",
            )
            .unwrap();
            let tags = format!("{other} {tag} {other}");
            conn.execute("INSERT INTO fts(title, body, tags) VALUES ('', '', ?1)", [&tags])
                .unwrap();
            if let Some(phrase) = tag_phrase(&tag) {
                let found: i64 = conn
                    .query_row("SELECT count(*) FROM fts WHERE fts MATCH ?1", [&phrase], |r| {
                        r.get(0)
                    })
                    .unwrap();
                // A tag with a space is two tags in the index: no row has it.
                if !tag.contains(' ') {
                    proptest::prop_assert_eq!(found, 1, "{}", phrase);
                }
            }
        }
    }

    #[test]
    fn unknown_kinds_and_sessions_let_nothing_through() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE kinds(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
             CREATE TABLE sessions(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                 first INTEGER NOT NULL, last INTEGER NOT NULL);
             INSERT INTO kinds(id, name) VALUES (1, 'turn');
             INSERT INTO sessions(id, name, first, last) VALUES (3, 's1', 10, 20);",
        )
        .unwrap();
        let query = |kinds: &[&str], session: Option<&str>| Query {
            kinds: kinds.iter().map(|k| k.to_string()).collect(),
            session: session.map(str::to_string),
            ..Query::default()
        };
        assert!(Scope::of(&conn, &query(&["note"], None)).unwrap().is_none());
        assert!(Scope::of(&conn, &query(&[], Some("s2"))).unwrap().is_none());
        let scope = Scope::of(&conn, &query(&["note", "turn"], Some("s1")))
            .unwrap()
            .unwrap();
        assert_eq!((scope.kinds.clone(), scope.session), (vec![1], Some(3)));
        assert_eq!(scope.range, Some((10, 20)));
        assert_eq!(scope.share(1, 100), 0.11);
        assert_eq!(
            scope.sql(
                "SELECT x FROM fts WHERE fts MATCH ?1",
                " ORDER BY rowid DESC"
            ),
            "SELECT x FROM fts WHERE fts MATCH ?1 AND rowid BETWEEN 10 AND 20 ORDER BY rowid DESC"
        );
    }
}
