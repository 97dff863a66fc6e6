//! The documents said in a window, for a question that names a time and
//! no words that match ("what did we do 3 days ago?", "what did we work on
//! last week?"): what a user asking about a time expects to see.

use rusqlite::Connection;

use super::DocStats;

/// Up to `wanted` documents said in `window` (`[from, to)` in Unix
/// seconds), the most recently saved first, each with relevance 1.
pub(crate) fn said_in(
    conn: &Connection,
    stats: &mut DocStats,
    window: (i64, i64),
    wanted: usize,
) -> rusqlite::Result<Vec<(i64, f64)>> {
    stats.check(conn)?;
    Ok(stats
        .said_in(conn, window, wanted)?
        .into_iter()
        .map(|rowid| (rowid, 1.0))
        .collect())
}
