//! Episode ids: the forms they take, how they sort, how a new one is made.
//! New ids carry the minting home's id (`ep-<stamp>-<home>-<n>`) so that two
//! homes that sync never mint the same one; ids from before home ids
//! (`ep-<stamp>-<n>`) and ids a sync merge renamed (`<id>-<hex>`) stay valid.

use crate::home::is_home_id;

/// The parts of an episode id, in the order episodes sort by: the UTC
/// second of the first turn, the counter, the home that minted it (empty
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

/// The id a new episode gets: the first turn's second, this home's id and
/// a counter.
pub(super) fn mint_id(stamp: &str, home_id: &str, n: u64) -> String {
    format!("ep-{stamp}-{home_id}-{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

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
