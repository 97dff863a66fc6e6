//! The documents said in a window, for a question that names a time and
//! no words that match ("what did we do 3 days ago?", "what did we work on
//! last week?"): what a user asking about a time expects to see.

use rusqlite::Connection;

use super::{DocStats, Scope};

/// The `wanted` documents said last in `window` (`[from, to)` in Unix
/// seconds) that `scope` may let through, newest first, each with
/// relevance 1.
pub(crate) fn said_in(
    conn: &Connection,
    stats: &mut DocStats,
    window: (i64, i64),
    wanted: usize,
    scope: Option<&Scope>,
) -> rusqlite::Result<Vec<(i64, f64)>> {
    stats.check(conn)?;
    Ok(stats
        .said_in(conn, window, wanted, |stamp| {
            scope.is_none_or(|s| s.passes(stamp))
        })?
        .into_iter()
        .map(|rowid| (rowid, 1.0))
        .collect())
}
