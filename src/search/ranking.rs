//! Ranking: FTS5's BM25 (title ×2, tags ×1.5, body ×1) times the source's
//! kind boost times a small recency factor, then normalised so that printed
//! scores mean something to a reader: the best hit of a query scores 1.00 and
//! every other hit its relevance relative to it (0.50: half as relevant).
//! Raw BM25 values depend on the size of the home (near 0 in a tiny one) and
//! compare nothing across queries, so they are never shown.

use super::Hit;

/// What a candidate's relevance is multiplied by for being recent: 1.2 for
/// the newest candidate, 1.1 thirty days before it, towards 1.0.
pub(super) fn recency_factor(date: &str, newest: &str) -> f64 {
    1.0 + 0.2 * recency(date, newest)
}

/// `recency_factor` with the dates in Unix seconds.
pub(super) fn recency_factor_at(date: i64, newest: i64) -> f64 {
    1.0 + 0.2 * recency_at(date, newest)
}

/// An RFC 3339 date in Unix seconds.
pub(super) fn seconds(date: &str) -> Option<i64> {
    crate::clock::Time::parse(date)
        .ok()
        .map(crate::clock::Time::as_second)
}

/// Rescales sorted hits so the best is 1.0, rounded to two decimals; a
/// positive score never rounds down to 0 (it prints as 0.01).
pub(super) fn normalize(hits: &mut [Hit]) {
    let best = hits.first().map(|h| h.score).unwrap_or(0.0);
    for hit in hits {
        hit.score = if best > 0.0 && hit.score.is_finite() {
            round_score(hit.score / best)
        } else {
            1.0
        };
    }
}

/// A relevance in (0, 1] kept to two decimals, never 0.
fn round_score(score: f64) -> f64 {
    ((score.clamp(0.0, 1.0) * 100.0).round() / 100.0).max(0.01)
}

/// 1.0 for the newest candidate, halving every 30 days before it.
fn recency(date: &str, newest: &str) -> f64 {
    match (seconds(date), seconds(newest)) {
        (Some(d), Some(n)) => recency_at(d, n),
        _ => 0.0,
    }
}

/// `recency` with the dates in Unix seconds.
fn recency_at(date: i64, newest: i64) -> f64 {
    let days = (newest - date).max(0) as f64 / 86_400.0;
    // 0.5^(days/30), from the libm crate: nothing may need libm.so
    // (`platform::log` says why).
    libm::exp2(-days / 30.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(score: f64) -> Hit {
        Hit {
            id: String::new(),
            kind: "note".into(),
            source: String::new(),
            session: None,
            tags: Vec::new(),
            date: String::new(),
            title: String::new(),
            snippet: String::new(),
            score,
            why: None,
        }
    }

    #[test]
    fn recency_halves_every_thirty_days() {
        assert_eq!(recency("2026-01-31T00:00:00Z", "2026-01-31T00:00:00Z"), 1.0);
        let r = recency("2026-01-01T00:00:00Z", "2026-01-31T00:00:00Z");
        assert!((r - 0.5).abs() < 1e-9, "{r}");
        assert_eq!(recency("bad", "2026-01-31T00:00:00Z"), 0.0);
    }

    #[test]
    fn scores_are_relative_to_the_best_hit() {
        let mut hits = vec![hit(4.96e-6), hit(2.48e-6), hit(1e-12)];
        normalize(&mut hits);
        let scores: Vec<f64> = hits.iter().map(|h| h.score).collect();
        assert_eq!(scores, [1.0, 0.5, 0.01]);
    }
}
