//! Prose in a message: the lines outside fenced code, `>` quotes and
//! indented code. What every reader of turns for facts shares (evolve's
//! corrections, knowledge's profile facts, proactive's commitments).

/// The prose lines of `text`, as written (untrimmed), in order. Skipped: a
/// line that opens or closes a fence (three or more ```` ` ```` or `~`,
/// after any indent) and every line between; `>` quotes; code indented by
/// four spaces or a tab. A fence closes, as in CommonMark, only with a run
/// of its own character at least as long and nothing after it, so a `~~~`
/// shown inside a ```` ``` ```` block does not end it; a run of backticks
/// with a backtick after it (```` ```make``` ````) is inline code, no
/// fence. An unclosed fence runs to the end of the text.
pub fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    // the open fence: its character and length
    let mut fence: Option<(char, usize)> = None;
    text.lines().filter(move |line| {
        let trimmed = line.trim();
        if let Some((c, len)) = fence {
            let run = trimmed.len() - trimmed.trim_start_matches(c).len();
            if run >= len && trimmed[run..].trim().is_empty() {
                fence = None;
            }
            return false;
        }
        for c in ['`', '~'] {
            let run = trimmed.len() - trimmed.trim_start_matches(c).len();
            // backticks after a run of backticks are inline code (```x```)
            if run >= 3 && !(c == '`' && trimmed[run..].contains('`')) {
                fence = Some((c, run));
                return false;
            }
        }
        !(trimmed.starts_with('>') || line.starts_with("    ") || line.starts_with('\t'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_quotes_and_indented_lines_are_not_prose() {
        let text = "Use pnpm.\n```sh\nnpm install\n```\n> quoted advice\n>also quoted\n    indented code\n\tTabbed code\n  ~~~\ninside a tilde fence\n~~~\n  Two spaces in is prose.\n\nLast line.";
        let lines: Vec<&str> = prose_lines(text).collect();
        assert_eq!(
            lines,
            vec!["Use pnpm.", "  Two spaces in is prose.", "", "Last line."]
        );
    }

    /// A fence closes only with its own character, at least as long, and
    /// nothing after it (CommonMark): a `~~~` or a longer ```` ``` ```` run
    /// shown inside a code block does not end it.
    #[test]
    fn a_fence_closes_only_with_its_own_kind() {
        let text = "Before.\n```markdown\n~~~\nremind me tomorrow to rotate keys\n```\nAfter.\n\
                    ````\n```\ncode\n```\n````\nLast.\n~~~\n```js\nx\n~~~ \nEnd.";
        let lines: Vec<&str> = prose_lines(text).collect();
        assert_eq!(lines, vec!["Before.", "After.", "Last.", "End."]);
        // an info string makes an opening fence, never a closing one
        let lines: Vec<&str> = prose_lines("```\ncode\n```sh\nstill code").collect();
        assert!(lines.is_empty(), "{lines:?}");
        // backticks after a run of backticks: inline code, not a fence
        let lines: Vec<&str> =
            prose_lines("Run ```make``` first.\n```make``` then\nI will ship it.").collect();
        assert_eq!(
            lines,
            vec![
                "Run ```make``` first.",
                "```make``` then",
                "I will ship it."
            ]
        );
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        let lines: Vec<&str> = prose_lines("Before.\n```\nlet x = 1;\nAfter?").collect();
        assert_eq!(lines, vec!["Before."]);
    }
}
