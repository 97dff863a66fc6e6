//! `mem_context` (and `mem://profile`): the memory that matters for a task,
//! as markdown sections — those the tools contribute (`Tool::context`:
//! preferences, profile facts, foresight) and the matches for the query. Each section has a share of the result budget
//! (`mcp.max_result_chars`), so no one section — a huge hand-edited
//! PROFILE.md — can push the others out: a section over its share is cut
//! (whole lines, with a notice), and the share a short section leaves unused
//! goes to the others.

use super::memory::{Memory, ToolOutput, hit_lines, quoted, required_query, top_k_arg};
use crate::error::Result;
use crate::tools::ContextSection;
use serde_json::{Map, Value};

/// The weight of the matches for the query in the budget: beside the
/// tools' three sections of 20, at least 40 % of it.
const MATCHES_SHARE: usize = 40;

/// The `Matches` section: memory_mcp's own, the search for the query.
fn matches(memory: &mut Memory, query: &str, top_k: usize) -> Result<String> {
    if query.trim().is_empty() {
        return Ok("(no query)\n".to_string());
    }
    let hits = memory.search(query, top_k)?.hits;
    if hits.is_empty() {
        return Ok(format!("(none for {})\n", quoted(query)));
    }
    let mut out = format!("For {}:\n", quoted(query));
    hit_lines(&mut out, &hits);
    Ok(out)
}

/// `mem_context`: `query` (required, may be empty) and `topK`.
pub(super) fn call(memory: &mut Memory, args: &Map<String, Value>) -> ToolOutput {
    let query = match required_query(args) {
        Ok(query) => query,
        Err(e) => return ToolOutput::failure(&e),
    };
    match context(memory, &query, top_k_arg(args)) {
        Ok(text) => ToolOutput::markdown(text),
        Err(e) => ToolOutput::failure(&e),
    }
}

/// `mem_context` (and `mem://profile` with an empty query): the sections
/// the tools contribute (`Tool::context`, in registry order), then the
/// matches for the query, each under its heading, within
/// `memory.max_chars` characters.
pub fn context(memory: &mut Memory, query: &str, top_k: usize) -> Result<String> {
    let budget = memory.max_chars;
    let redactor = memory.home.store.redactor();
    let mut sections: Vec<ContextSection> = Vec::new();
    for source in memory.context.clone() {
        sections.extend(source(memory.home, &memory.clock)?);
    }
    sections.push(ContextSection {
        heading: "Matches",
        share: MATCHES_SHARE,
        body: matches(memory, query, top_k)?,
    });
    // Bodies are measured as they will be sent: redacted (a mask can be
    // longer than what it hides; redacting again changes nothing).
    let bodies: Vec<String> = sections
        .iter()
        .map(|s| redactor.redact(&s.body).into_owned())
        .collect();
    let headings: Vec<String> = sections
        .iter()
        .map(|s| format!("## {}\n", s.heading))
        .collect();
    // Headings, and a blank line between sections.
    let fixed = headings.iter().map(|h| h.chars().count()).sum::<usize>() + sections.len() - 1;
    let lengths: Vec<usize> = bodies.iter().map(|b| b.chars().count()).collect();
    let shares: Vec<usize> = sections.iter().map(|s| s.share).collect();
    let allotted = allot(&lengths, &shares, budget.saturating_sub(fixed));
    let sections: Vec<String> = headings
        .into_iter()
        .zip(bodies)
        .zip(allotted)
        .map(|((heading, body), room)| heading + &cut_body(body, room))
        .collect();
    Ok(sections.join("\n"))
}

/// Shares `room` characters out among bodies of `lengths`, by `shares`: a
/// body that fits its share of what is left keeps its whole length, and
/// what it leaves unused goes to the others, in proportion to their shares.
fn allot(lengths: &[usize], shares: &[usize], room: usize) -> Vec<usize> {
    let mut allotted = lengths.to_vec();
    let mut open: Vec<usize> = (0..lengths.len()).collect();
    let mut left = room;
    while !open.is_empty() {
        let weight: usize = open.iter().map(|&i| shares[i]).sum();
        let part = |i: usize| left.saturating_mul(shares[i]) / weight.max(1);
        let (fits, over): (Vec<usize>, Vec<usize>) =
            open.iter().partition(|&&i| lengths[i] <= part(i));
        if fits.is_empty() {
            for &i in &over {
                allotted[i] = part(i);
            }
            break;
        }
        left -= fits.iter().map(|&i| lengths[i]).sum::<usize>();
        open = over;
    }
    allotted
}

/// `body` cut to at most `room` characters: whole lines, then a notice
/// saying how much of the section is shown.
fn cut_body(body: String, room: usize) -> String {
    let total = body.chars().count();
    if total <= room {
        return body;
    }
    let notice = |shown: usize| {
        format!("[truncated: {shown} of {total} characters of this section shown]\n")
    };
    let keep = room.saturating_sub(notice(total).chars().count());
    let end = body.char_indices().nth(keep).map_or(body.len(), |(i, _)| i);
    // Back to the end of the last whole line, when there is one.
    let end = body[..end].rfind('\n').map_or(end, |i| i + 1);
    let kept = &body[..end];
    let mut out = kept.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&notice(kept.chars().count()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_shares_go_to_the_others() {
        // everything fits: everyone keeps their length
        assert_eq!(
            allot(&[10, 20, 5, 30], &[20, 20, 20, 40], 1000),
            [10, 20, 5, 30]
        );
        // a huge profile gets its share; the matches keep theirs whole
        assert_eq!(
            allot(&[5, 100_000, 7, 300], &[20, 20, 20, 40], 10_000),
            [5, 10_000 - 5 - 7 - 300, 7, 300]
        );
        // two huge sections split what is left by their shares
        let got = allot(&[5, 100_000, 7, 100_000], &[20, 20, 20, 40], 10_000);
        assert_eq!(got[..1], [5]);
        assert_eq!(got[2], 7);
        assert_eq!(got[1], (10_000 - 12) * 20 / 60);
        assert_eq!(got[3], (10_000 - 12) * 40 / 60);
        assert!(got.iter().sum::<usize>() <= 10_000);
        assert_eq!(allot(&[], &[], 10), Vec::<usize>::new());
        assert_eq!(allot(&[3, 4], &[50, 50], 0), [0, 0]);
    }

    #[test]
    fn a_cut_body_keeps_whole_lines_and_says_so() {
        let body: String = (0..100).map(|i| format!("- fact {i:03}\n")).collect();
        assert_eq!(cut_body(body.clone(), 10_000), body);
        let cut = cut_body(body.clone(), 200);
        assert!(cut.chars().count() <= 200, "{cut}");
        let (kept, notice) = cut.rsplit_once("[truncated: ").unwrap();
        assert!(kept.ends_with("\n") && body.starts_with(kept), "{cut}");
        assert_eq!(
            notice,
            format!(
                "{} of {} characters of this section shown]\n",
                kept.chars().count(),
                body.chars().count()
            )
        );
        // one long line: cut mid-line rather than show nothing
        let long = format!("- {}\n", "é".repeat(1000));
        let cut = cut_body(long, 300);
        assert!(
            cut.chars().count() <= 300 && cut.starts_with("- é"),
            "{cut}"
        );
    }
}
