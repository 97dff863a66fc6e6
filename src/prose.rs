//! Prose in a message: the lines outside fenced code, `>` quotes and
//! indented code. What every reader of turns for facts shares (evolve's
//! corrections, knowledge's profile facts, proactive's commitments).

/// The prose lines of `text`, as written (untrimmed), in order. Skipped: a
/// line that opens or closes a fence (```` ``` ```` or `~~~`, after any
/// indent) and every line between; `>` quotes; code indented by four spaces
/// or a tab. An unclosed fence runs to the end of the text.
pub fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            return false;
        }
        !(fenced || trimmed.starts_with('>') || line.starts_with("    ") || line.starts_with('\t'))
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

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        let lines: Vec<&str> = prose_lines("Before.\n```\nlet x = 1;\nAfter?").collect();
        assert_eq!(lines, vec!["Before."]);
    }
}
