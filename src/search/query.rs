//! Queries: content words, snippets and date bounds.

use crate::error::{Error, Result};

/// Words that carry no meaning for retrieval (questions are full of them).
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
    "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had",
    "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in",
    "into", "is", "it", "its", "itself", "just", "me", "might", "more", "most", "must", "my",
    "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our",
    "ours", "out", "over", "own", "please", "same", "she", "should", "so", "some", "such", "than",
    "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "us", "very", "was", "we", "were", "what",
    "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you",
    "your", "yours", "yourself", "tell", "know", "remember", "recall", "again", "ever", "also",
    "get", "got", "use", "used", "using", "way", "ways", "thing", "things", "like", "want", "need",
    "s", "t", "d", "ll", "re", "ve", "m", "don", "doesn", "didn",
];

/// The query's content words: lowercased, stop words dropped, deduplicated.
/// A query of only stop words keeps them, so it still finds something.
pub fn query_terms(text: &str) -> Vec<String> {
    let terms = content_words(text);
    if !terms.is_empty() {
        return terms;
    }
    let mut all: Vec<String> = Vec::new();
    for w in words(text) {
        if !all.contains(&w) {
            all.push(w);
        }
    }
    all.truncate(32);
    all
}

/// The query's content words, without the fallback of [`query_terms`]:
/// empty for a text of stop words only.
pub(super) fn content_words(text: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for w in words(text).filter(|w| !STOP_WORDS.contains(&w.as_str())) {
        if !terms.contains(&w) {
            terms.push(w);
        }
    }
    terms.truncate(32);
    terms
}

fn words(text: &str) -> impl Iterator<Item = String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// About 160 characters of `body` around the first query word it contains.
pub(super) fn snippet(body: &str, terms: &[String]) -> String {
    const WIDTH: usize = 160;
    let flat: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= WIDTH {
        return flat;
    }
    let lower = flat.to_lowercase();
    let at = terms
        .iter()
        .filter_map(|t| {
            let stem: String = t.chars().take(5).collect();
            lower.find(&stem)
        })
        .min()
        .unwrap_or(0);
    // `lower` and `flat` can differ in byte length for some scripts; stay on char boundaries of `flat`.
    let start_char = flat[..at.min(flat.len())]
        .chars()
        .count()
        .saturating_sub(40);
    let text: String = flat.chars().skip(start_char).take(WIDTH).collect();
    let mut out = String::new();
    if start_char > 0 {
        out.push('…');
    }
    out.push_str(&text);
    if start_char + WIDTH < flat.chars().count() {
        out.push('…');
    }
    out
}

/// A `--since`/`--until` value for `Query`: RFC 3339 (normalized to UTC) or
/// a plain date (`2026-01-31`, which `until` extends over the whole day).
pub fn date_bound(flag: &str, value: &str) -> Result<String> {
    if let Some(utc) = crate::clock::restamp(value) {
        return Ok(utc);
    }
    if crate::clock::parse_date(value).is_some() {
        return Ok(value.to_string());
    }
    Err(Error::invalid_args(format!(
        "{flag} {} is not a date",
        serde_json::Value::from(value)
    ))
    .with_hint("use RFC 3339 (2026-01-31T09:00:00Z) or a date (2026-01-31)")
    .with_detail("flag", flag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_lose_their_stop_words() {
        assert_eq!(
            query_terms("How should I format Go code?"),
            ["format", "go", "code"]
        );
        assert_eq!(query_terms("what is it"), ["what", "is", "it"]);
        assert_eq!(query_terms("  "), Vec::<String>::new());
        assert_eq!(query_terms("Rust rust RUST"), ["rust"]);
    }

    #[test]
    fn snippets_centre_on_a_match() {
        let body = format!(
            "{} the deploy key rotates weekly {}",
            "x ".repeat(200),
            "y ".repeat(200)
        );
        let s = snippet(&body, &["deploy".to_string()]);
        assert!(s.contains("deploy key rotates"), "{s}");
        assert!(s.starts_with('…') && s.ends_with('…'));
        assert_eq!(snippet("short text", &[]), "short text");
    }
}
