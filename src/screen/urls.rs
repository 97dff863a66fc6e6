//! The URLs a text holds: what the engine follows and the judge matches
//! against a skill's name and description.

/// The `http(s)://…` URLs in a text, up to whitespace, a quote or a bracket.
pub(crate) fn urls_in(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("http").filter_map(move |(at, _)| {
        let rest = &text[at..];
        if !(rest.starts_with("http://") || rest.starts_with("https://")) {
            return None;
        }
        let end = rest
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(c, '"' | '\'' | '`' | ')' | '(' | '<' | '>' | '|' | ';')
            })
            .unwrap_or(rest.len());
        Some(&rest[..end])
    })
}
