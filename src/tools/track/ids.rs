//! Episode ids: the forms they take, how they sort, how a new one is made.
//! New ids carry the minting home's id (`ep-<stamp>-<home>-<n>`) so that two
//! homes that sync never mint the same one; ids from before home ids
//! (`ep-<stamp>-<n>`) and ids a sync merge renamed (`<id>-<hex>`) stay valid.

use crate::home::is_home_id;

/// The parts of an episode id, in the order episodes sort by: the UTC
/// second the episode was made (an import's: its run's first event), the counter, the home that minted it (empty
/// for a legacy id) and what a sync merge appended when it had to rename a
/// colliding episode (empty for an original, so a renamed id sorts after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct IdParts<'a> {
    pub stamp: &'a str,
    pub n: u64,
    pub home: &'a str,
    pub renamed: &'a str,
}

/// Parses the episode id forms, old and new:
/// `ep-20260115T093000Z-3` (legacy, before ids carried a home id),
/// `ep-20260115T093000Z-k3f9q2-3`, and either with rename suffixes from a
/// sync merge (`ep-20260115T093000Z-3-0a1b2c`). A home id always holds a
/// letter, so it is never mistaken for a counter. `None` for other ids.
pub fn parse_id(id: &str) -> Option<IdParts<'_>> {
    fn token(s: &str) -> (&str, Option<&str>) {
        match s.split_once('-') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        }
    }
    fn counter(s: &str) -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    }
    let (stamp, rest) = id.strip_prefix("ep-")?.split_once('-')?;
    if stamp.is_empty() {
        return None;
    }
    let (first, after) = token(rest);
    let (home, n, renamed) = match counter(first) {
        Some(n) => ("", n, after),
        None if is_home_id(first) => {
            let (n, renamed) = token(after?);
            (first, counter(n)?, renamed)
        }
        None => return None,
    };
    let renamed = renamed.unwrap_or("");
    let suffix_ok = renamed.is_empty()
        || renamed.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    suffix_ok.then_some(IdParts {
        stamp,
        n,
        home,
        renamed,
    })
}

/// The id a new episode gets: the second it was made, this home's id and
/// a counter.
pub(super) fn mint_id(stamp: &str, home_id: &str, n: u64) -> String {
    format!("ep-{stamp}-{home_id}-{n}")
}

/// The number after the ones `taken` (numbers are taken in order, from
/// `from`): doubling, then halving, so a second in which a thousand
/// episodes began (an import, a fixed clock) costs twenty probes, not a
/// thousand. Should a number in the middle be free again (a pruned
/// episode), some free number is found: all an id needs is to be unused.
pub(super) fn first_free(from: u64, taken: impl Fn(u64) -> bool) -> u64 {
    let from = from.max(1);
    if !taken(from) {
        return from;
    }
    let (mut lo, mut hi) = (from, from.saturating_add(1));
    while taken(hi) {
        lo = hi;
        hi = hi.saturating_add(hi - from + 1);
    }
    // taken(lo), !taken(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if taken(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_free_number_follows_the_taken_ones() {
        for used in [0u64, 1, 2, 3, 7, 8, 9, 1000, 1023, 1024] {
            for from in [0, 1, used / 2, used, used + 1] {
                let probes = std::cell::Cell::new(0);
                let free = first_free(from, |n| {
                    probes.set(probes.get() + 1);
                    n <= used
                });
                assert_eq!(free, used.max(from.max(1) - 1) + 1, "{used} from {from}");
                assert!(
                    probes.get() <= 2 * 11 + 2,
                    "{used}: {} probes",
                    probes.get()
                );
            }
        }
        // Starting where the last one was minted: one probe.
        let probes = std::cell::Cell::new(0);
        let count = |n: u64| {
            probes.set(probes.get() + 1);
            n <= 500
        };
        assert_eq!((first_free(501, count), probes.get()), (501, 1));
        // A hole: some free number, never a taken one.
        let taken = |n: u64| n <= 10 && n != 4;
        assert!(!taken(first_free(1, taken)));
        assert!(!taken(first_free(5, taken)));
    }

    #[test]
    fn every_id_form_parses_and_sorts() {
        let parts = |stamp, n, home, renamed| IdParts {
            stamp,
            n,
            home,
            renamed,
        };
        assert_eq!(
            parse_id("ep-20260115T093000Z-12"),
            Some(parts("20260115T093000Z", 12, "", ""))
        );
        assert_eq!(
            parse_id("ep-20260115T093000Z-k3f9q2-12"),
            Some(parts("20260115T093000Z", 12, "k3f9q2", ""))
        );
        assert_eq!(
            parse_id("ep-20260115T093000Z-12-123456"),
            Some(parts("20260115T093000Z", 12, "", "123456"))
        );
        assert_eq!(
            parse_id("ep-20260115T093000Z-k3f9q2-12-0a1b2c"),
            Some(parts("20260115T093000Z", 12, "k3f9q2", "0a1b2c"))
        );
        assert_eq!(
            mint_id("20260115T093000Z", "k3f9q2", 1),
            "ep-20260115T093000Z-k3f9q2-1"
        );
        for odd in [
            "other",
            "ep-",
            "ep--1",
            "ep-20260115T093000Z",
            "ep-20260115T093000Z-+1",
            "ep-20260115T093000Z-k3f9q2",
            "ep-20260115T093000Z-k3f9q2-x",
            "ep-20260115T093000Z-123456-1-",
            "ep-20260115T093000Z-K3F9Q2-1",
            "ep-20260115T093000Z-1-AB",
            "ep-20260115T093000Z-99999999999999999999999",
        ] {
            assert_eq!(parse_id(odd), None, "{odd}");
        }
        let mut ids = [
            "ep-20260115T093000Z-zzzzzz-2",
            "ep-20260115T093000Z-2-0a1b2c",
            "ep-20260115T093000Z-10",
            "ep-20260115T093000Z-aaaaaa-2",
            "ep-20260115T093000Z-2",
            "ep-20260101T000000Z-k3f9q2-7",
        ];
        ids.sort_by_key(|id| parse_id(id));
        assert_eq!(
            ids,
            [
                "ep-20260101T000000Z-k3f9q2-7",
                "ep-20260115T093000Z-2",
                "ep-20260115T093000Z-2-0a1b2c",
                "ep-20260115T093000Z-aaaaaa-2",
                "ep-20260115T093000Z-zzzzzz-2",
                "ep-20260115T093000Z-10",
            ]
        );
    }
}
