//! "Did you mean": the one way a mistyped name (a tool, a verb, a flag, a
//! value, a man page, a host id) finds the name that was meant, or nothing.
//!
//! A unique prefix wins (`instal` → `install`); otherwise the candidate at
//! the smallest edit distance, counted as optimal string alignment (a
//! Damerau–Levenshtein distance in which swapping two neighbours costs one,
//! `serach` → `search`), case-insensitively, within a third of the typo's
//! length. Past that nothing is suggested: no suggestion beats nonsense.

/// The candidate `typo` most likely meant, if any is near enough.
pub fn nearest<'a, I>(typo: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let typo_lower = typo.to_lowercase();
    // What counts for the length: the name, not the dashes of a flag.
    let len = typo_lower.trim_start_matches('-').chars().count();
    if len == 0 {
        return None;
    }
    if let Some(same) = candidates.iter().find(|c| c.to_lowercase() == typo_lower) {
        return Some(same);
    }
    if len >= 2 {
        let mut prefixed = candidates
            .iter()
            .filter(|c| c.to_lowercase().starts_with(&typo_lower));
        if let (Some(only), None) = (prefixed.next(), prefixed.next()) {
            return Some(only);
        }
    }
    let allowed = (len / 3).max(1);
    let first = typo_lower.trim_start_matches('-').chars().next();
    candidates
        .iter()
        // The distance is at least the difference in length: a candidate
        // too long or too short is out before the quadratic count (a
        // 128 KiB argument took seconds).
        .filter(|c| {
            c.to_lowercase()
                .chars()
                .count()
                .abs_diff(typo_lower.chars().count())
                <= allowed
        })
        .map(|c| (distance(&typo_lower, &c.to_lowercase()), *c))
        .filter(|(d, c)| *d <= allowed && *d < c.trim_start_matches('-').chars().count())
        // Nearest first; at equal distance the one that starts alike, then
        // the candidates' own order.
        .min_by_key(|(d, c)| (*d, c.trim_start_matches('-').chars().next() != first))
        .map(|(_, c)| c)
}

/// The optimal-string-alignment distance between `a` and `b` (in chars):
/// insertions, deletions, substitutions and swaps of two neighbours each
/// cost one. Case-sensitive; [`nearest`] lowers both first.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    // Three rows of the (a.len()+1) × (b.len()+1) table.
    let mut before: Vec<usize> = vec![0; width];
    let mut last: Vec<usize> = (0..width).collect();
    let mut row: Vec<usize> = vec![0; width];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..width {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            row[j] = best;
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn distances_count_swaps_as_one_edit() {
        for (a, b, d) in [
            ("", "", 0),
            ("plan", "plan", 0),
            ("", "plan", 4),
            ("plan", "", 4),
            ("serach", "search", 1),
            ("stauts", "status", 1),
            ("paln", "plan", 1),
            ("pln", "plan", 1),
            ("lst", "list", 1),
            ("modle", "model", 1),
            ("kitten", "sitting", 3),
            // OSA: a swapped pair is not edited again (Damerau–Levenshtein
            // proper would say 2).
            ("ca", "abc", 3),
            ("ab", "ba", 1),
            ("naïve", "naive", 1),
            ("naïve", "navïe", 1),
        ] {
            assert_eq!(distance(a, b), d, "{a} → {b}");
            assert_eq!(distance(b, a), d, "{b} → {a}");
        }
    }

    const VERBS: &[&str] = &["create", "list", "show", "step", "add-step", "archive"];

    #[test]
    fn realistic_typos_find_what_was_meant() {
        let tools = [
            "plan",
            "track",
            "knowledge",
            "evolve",
            "link",
            "man",
            "search",
            "model",
        ];
        assert_eq!(nearest("pln", tools), Some("plan"));
        assert_eq!(nearest("paln", tools), Some("plan"));
        assert_eq!(nearest("serach", tools), Some("search"));
        assert_eq!(nearest("modle", tools), Some("model"));
        assert_eq!(nearest("Plan", tools), Some("plan"));
        assert_eq!(nearest("knowlege", tools), Some("knowledge"));
        assert_eq!(nearest("lst", VERBS.iter().copied()), Some("list"));
        assert_eq!(nearest("arch", VERBS.iter().copied()), Some("archive"));
        assert_eq!(
            nearest("--fromat", ["--format", "--home"]),
            Some("--format")
        );
        assert_eq!(
            nearest("instal", ["install", "lint", "list"]),
            Some("install")
        );
    }

    #[test]
    fn nonsense_and_ambiguous_prefixes_suggest_nothing() {
        assert_eq!(nearest("frobnicate", VERBS.iter().copied()), None);
        assert_eq!(nearest("xyz", VERBS.iter().copied()), None);
        assert_eq!(nearest("", VERBS.iter().copied()), None);
        assert_eq!(nearest("-x", ["-q", "-v"]), None);
        // `s` and `st` start several verbs: too short or ambiguous, and too far.
        assert_eq!(nearest("s", VERBS.iter().copied()), None);
        assert_eq!(nearest("zz", ["ab"]), None);
    }

    proptest! {
        /// A suggestion is always one of the candidates, and a candidate
        /// typed exactly suggests itself.
        #[test]
        fn a_suggestion_is_a_candidate(
            typo in "[a-z-]{0,12}",
            names in proptest::collection::vec("[a-z][a-z_-]{0,10}", 0..12),
        ) {
            let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
            if let Some(s) = nearest(&typo, candidates.iter().copied()) {
                prop_assert!(candidates.contains(&s));
            }
            for name in &candidates {
                prop_assert_eq!(nearest(name, candidates.iter().copied()), Some(*name));
            }
        }

        /// The distance is a metric's first properties: zero only for equal
        /// strings, symmetric, at most the longer length.
        #[test]
        fn the_distance_is_symmetric_and_bounded(a in "[a-c]{0,8}", b in "[a-c]{0,8}") {
            let d = distance(&a, &b);
            prop_assert_eq!(d, distance(&b, &a));
            prop_assert_eq!(d == 0, a == b);
            prop_assert!(d <= a.chars().count().max(b.chars().count()));
        }
    }
}
