//! How many documents of a kind were said per day and per session: one
//! pass over `stamps` (8 bytes a document, about 10 ms at a million), never
//! the documents or the files they came from. `track activity` and the
//! view's chart of turns per day read it.

use super::db::{ReadTx, db_error, is_damaged};
use super::disk::diagnose;
use super::index::Index;
use super::rank;
use super::session::Session;
use crate::error::{Error, Result};
use rusqlite::OptionalExtension;
use std::collections::HashMap;

/// What [`Index::activity`] counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Activity {
    /// Every session with a document of the kind in the window, with its
    /// count per day (`counts[i]` is day `i` of the window).
    pub sessions: Vec<SessionDays>,
    /// Documents of the kind in the whole index, dated or not.
    pub total: u64,
    /// Sessions holding at least one document of the kind.
    pub total_sessions: u64,
    /// Documents of the kind without a date `stamps` holds.
    pub undated: u64,
}

/// One session's documents per day of the window.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionDays {
    /// Its name; `None` for documents of no session (or one `stamps`
    /// cannot number).
    pub session: Option<String>,
    pub counts: Vec<u64>,
}

impl SessionDays {
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

impl Index<'_> {
    /// Documents of `kind` said per day of the `days` days from `from`
    /// (Unix seconds, a day's first second: day `i` is `[from + i·86400,
    /// from + (i+1)·86400)`), per session; and the kind's totals. One pass
    /// over `stamps`, after the index caught up with its files as a search
    /// does; a damaged database is rebuilt from the files once.
    pub fn activity(&mut self, kind: &str, from: i64, days: usize) -> Result<Activity> {
        match self.activity_once(kind, from, days) {
            Err(e) if is_damaged(&e) => {
                *self = Index::rebuild_damaged(self.home, self.file_id)
                    .map_err(|e| diagnose(self.home, e))?;
                self.activity_once(kind, from, days)
            }
            other => other,
        }
    }

    fn activity_once(&self, kind: &str, from: i64, days: usize) -> Result<Activity> {
        Session::of(self.home).guard(&self.conn, || self.refresh())?;
        let _read = ReadTx::begin(&self.conn)?;
        let id: Option<i64> = self
            .conn
            .query_row("SELECT id FROM kinds WHERE name = ?1", [kind], |r| r.get(0))
            .optional()
            .map_err(db_error)?;
        let Some(id) = id else {
            return Ok(Activity::default());
        };
        let number = rank::kind_number(id);
        if number == 0 {
            // More kinds than `stamps` numbers: the registry has a dozen.
            return Err(Error::internal(format!(
                "the search index numbers kind {kind:?} past what its stamps hold"
            ))
            .with_hint("run `agentbox reindex`"));
        }
        let to = from.saturating_add(days as i64 * 86_400);
        let mut total = 0u64;
        let mut undated = 0u64;
        let mut seen: std::collections::HashSet<u32> = Default::default();
        let mut per: HashMap<u32, Vec<u64>> = HashMap::new();
        rank::DocStats::each(&self.conn, |stamp| {
            if stamp.kind != number {
                return;
            }
            total += 1;
            seen.insert(stamp.session);
            match stamp.unix() {
                None => undated += 1,
                Some(t) if (from..to).contains(&t) => {
                    let day = ((t - from) / 86_400) as usize;
                    per.entry(stamp.session).or_insert_with(|| vec![0; days])[day] += 1;
                }
                Some(_) => {}
            }
        })
        .map_err(db_error)?;
        let names: HashMap<u32, String> = {
            let mut stmt = self
                .conn
                .prepare_cached("SELECT id, name FROM sessions")
                .map_err(db_error)?;
            stmt.query_map([], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?)))
                .map_err(db_error)?
                .collect::<rusqlite::Result<_>>()
                .map_err(db_error)?
        };
        let mut sessions: Vec<SessionDays> = per
            .into_iter()
            .map(|(number, counts)| SessionDays {
                session: names.get(&number).cloned(),
                counts,
            })
            .collect();
        // The busiest first; ties by name, for a stable order.
        sessions.sort_by(|a, b| {
            b.total()
                .cmp(&a.total())
                .then_with(|| a.session.cmp(&b.session))
        });
        Ok(Activity {
            sessions,
            total,
            total_sessions: seen.iter().filter(|&&n| n != 0).count() as u64,
            undated,
        })
    }
}
