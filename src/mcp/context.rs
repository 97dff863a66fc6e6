//! `mem_context` (and `mem://profile`): the memory that matters for a task,
//! as markdown sections — preferences, profile facts, foresight and the
//! matches for the query. Each section has a share of the result budget
//! (`mcp.max_result_chars`), so no one section — a huge hand-edited
//! PROFILE.md — can push the others out: a section over its share is cut
//! (whole lines, with a notice), and the share a short section leaves unused
//! goes to the others.

use super::memory::{Memory, ToolOutput, hit_lines, quoted, required_query, top_k_arg};
use crate::error::Result;
use crate::tools::knowledge::profile::{self, Profile};
use crate::tools::proactive;
use serde_json::{Map, Value};

/// One section of the context: its heading, its share of the budget (a
/// weight; the shares add up to 100) and how its body is gathered. A body
/// is markdown ending in a newline.
struct Part {
    heading: &'static str,
    share: usize,
    body: fn(&mut Sources) -> Result<String>,
}

/// The sections, in order: heading, share, body. The profile's two sections
/// together get at most 40 % of the budget unless the others leave some
/// unused; the matches get at least 40 %. A new section is one line here.
const PARTS: &[Part] = &[
    part("Preferences", 20, preferences),
    part("Profile", 20, profile_facts),
    part("Foresight", 20, foresight),
    part("Matches", 40, matches),
];

const fn part(
    heading: &'static str,
    share: usize,
    body: fn(&mut Sources) -> Result<String>,
) -> Part {
    Part {
        heading,
        share,
        body,
    }
}

/// What the section bodies are gathered from; the profile is read once.
struct Sources<'a, 'h> {
    memory: &'a mut Memory<'h>,
    query: &'a str,
    top_k: usize,
    profile: Option<std::result::Result<Profile, String>>,
}

impl Sources<'_, '_> {
    /// The profile, or what is wrong with PROFILE.md.
    fn profile(&mut self) -> &std::result::Result<Profile, String> {
        let home = self.memory.home;
        self.profile.get_or_insert_with(|| {
            profile::read(home).map_err(|err| format!("{} — {}", err.message, err.hint))
        })
    }

    /// One section of the profile as bullets. A damaged PROFILE.md must not
    /// cost the agent its matches: say what is wrong, and go on.
    fn profile_section(&mut self, pick: fn(&Profile) -> &[String]) -> String {
        match self.profile() {
            Ok(profile) => bullets(pick(profile)),
            Err(problem) => format!("(unreadable: {problem})\n"),
        }
    }
}

fn preferences(sources: &mut Sources) -> Result<String> {
    Ok(sources.profile_section(|p| &p.preferences))
}

fn profile_facts(sources: &mut Sources) -> Result<String> {
    Ok(sources.profile_section(|p| &p.facts))
}

/// The proactive items valid now, due soonest first (then, without a due
/// time, by the end of their window): expired, dismissed, done and snoozed
/// items never appear. `foresight.jsonl` is read once per call.
fn foresight(sources: &mut Sources) -> Result<String> {
    let now = sources.memory.clock.now();
    // A damaged foresight file must not cost the agent its matches.
    let items = match proactive::items::read(sources.memory.home) {
        Ok(items) => items.items,
        Err(err) => return Ok(format!("(unreadable: {} — {})\n", err.message, err.hint)),
    };
    let valid: Vec<_> = items
        .into_iter()
        .filter(|item| item.is_valid(now))
        .collect();
    if valid.is_empty() {
        return Ok("(none)\n".to_string());
    }
    // Each time is parsed once (a comparison sort would parse them over
    // and over); the index keeps the file's order on ties.
    let mut keyed: Vec<_> = valid
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            (
                (item.due_at().is_none(), item.due_at(), item.until_at(), i),
                item,
            )
        })
        .collect();
    keyed.sort_unstable_by_key(|(key, _)| *key);
    let total = keyed.len();
    let redactor = sources.memory.home.store.redactor();
    let mut out: String = keyed
        .iter()
        .take(FORESIGHT_ITEMS)
        .map(|(_, item)| proactive::render::bullet(item, now, redactor))
        .collect();
    if total > FORESIGHT_ITEMS {
        out.push_str(&format!(
            "- … and {} more (`proactive due` or `proactive list` shows them)\n",
            total - FORESIGHT_ITEMS
        ));
    }
    Ok(out)
}

/// The most foresight items `mem_context` shows: the soonest due. An agent
/// needs what is coming up, not the whole list.
const FORESIGHT_ITEMS: usize = 20;

fn matches(sources: &mut Sources) -> Result<String> {
    let query = sources.query;
    if query.trim().is_empty() {
        return Ok("(no query)\n".to_string());
    }
    let hits = sources.memory.search(query, sources.top_k)?.hits;
    if hits.is_empty() {
        return Ok(format!("(none for {})\n", quoted(query)));
    }
    let mut out = format!("For {}:\n", quoted(query));
    hit_lines(&mut out, &hits);
    Ok(out)
}

fn bullets(items: &[String]) -> String {
    if items.is_empty() {
        return "(none)\n".to_string();
    }
    items.iter().map(|item| format!("- {item}\n")).collect()
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

/// `mem_context` (and `mem://profile` with an empty query): every section of
/// `PARTS` under its heading, within `memory.max_chars` characters.
pub fn context(memory: &mut Memory, query: &str, top_k: usize) -> Result<String> {
    let budget = memory.max_chars;
    let redactor = memory.home.store.redactor();
    let mut sources = Sources {
        memory,
        query,
        top_k,
        profile: None,
    };
    // Bodies are measured as they will be sent: redacted (a mask can be
    // longer than what it hides; redacting again changes nothing).
    let mut bodies = Vec::with_capacity(PARTS.len());
    for part in PARTS {
        bodies.push(redactor.redact(&(part.body)(&mut sources)?).into_owned());
    }
    let headings: Vec<String> = PARTS
        .iter()
        .map(|p| format!("## {}\n", p.heading))
        .collect();
    // Headings, and a blank line between sections.
    let fixed = headings.iter().map(|h| h.chars().count()).sum::<usize>() + PARTS.len() - 1;
    let lengths: Vec<usize> = bodies.iter().map(|b| b.chars().count()).collect();
    let shares: Vec<usize> = PARTS.iter().map(|p| p.share).collect();
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
