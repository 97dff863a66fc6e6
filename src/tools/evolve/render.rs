//! The text output of `evolve list`, `show`, `apply` and `reject`.

use super::{Found, Payload, Proposal, Status};
use crate::output::Style;
use serde_json::Value;

fn status_str(s: Status) -> &'static str {
    match s {
        Status::Pending => "pending",
        Status::Applied => "applied",
        Status::Rejected => "rejected",
    }
}

fn painted(style: &Style, s: Status) -> String {
    let word = status_str(s);
    let padded = format!("{word:<8}");
    match s {
        Status::Pending => style.yellow(&padded),
        Status::Applied => style.green(&padded),
        Status::Rejected => style.dim(&padded),
    }
}

/// One line: whitespace runs and control characters (an escape sequence
/// from a recorded turn) become one space.
pub fn line(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A block of text with every control character but newline and tab
/// shown as U+FFFD.
pub(super) fn block(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// At most `max` characters on one line, with `…` when cut.
pub fn cut(s: &str, max: usize) -> String {
    let flat = line(s);
    if flat.chars().count() <= max {
        flat
    } else {
        let mut out: String = flat.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

fn count_line(counts: &Value) -> String {
    format!(
        "{} pending, {} applied, {} rejected",
        counts["pending"], counts["applied"], counts["rejected"]
    )
}

/// `evolve list`: a table, the counts, and what to do next.
pub fn list(style: &Style, shown: &[&Found], counts: &Value, status: Option<&str>) -> String {
    let total = counts["pending"].as_u64().unwrap_or(0)
        + counts["applied"].as_u64().unwrap_or(0)
        + counts["rejected"].as_u64().unwrap_or(0);
    if total == 0 {
        return "No evolve proposals yet. Mine the recorded episodes with `evolve run`.\n"
            .to_string();
    }
    let mut text = String::new();
    if shown.is_empty() {
        text.push_str(&format!(
            "No {} proposals ({}).\n",
            status.unwrap_or("matching"),
            count_line(counts)
        ));
        return text;
    }
    text.push_str(&style.bold(&format!(
        "{:<14}  {:<10}  {:>4}  {:<8}  {:>3}  {:<10}  {}",
        "ID", "KIND", "CONF", "STATUS", "EV", "CREATED", "TITLE"
    )));
    text.push('\n');
    for f in shown {
        let p = &f.proposal;
        let date: String = p.created.chars().take(10).collect();
        text.push_str(&format!(
            "{:<14}  {:<10}  {:>4.2}  {}  {:>3}  {:<10}  {}\n",
            p.id,
            p.kind.as_str(),
            p.confidence,
            painted(style, p.status),
            p.evidence.len(),
            date,
            cut(&p.shown_title(), 72)
        ));
    }
    text.push_str(&format!("{}\n", count_line(counts)));
    let first_pending = shown.iter().find(|f| f.proposal.status == Status::Pending);
    if let Some(f) = first_pending {
        text.push_str(&format!(
            "Next: `evolve show {0}`, then `evolve apply {0}` or `evolve reject {0} --reason TEXT`\n",
            f.proposal.id
        ));
    }
    text
}

/// `evolve show p-…`: the proposal in full.
pub fn proposal(style: &Style, p: &Proposal) -> String {
    let mut text = format!(
        "{}  {}  [{}]\n{}\n",
        style.bold(&p.id),
        p.kind.as_str(),
        status_str(p.status),
        line(&p.shown_title())
    );
    text.push_str(&format!(
        "confidence: {:.2}   run: {}   created: {}\n",
        p.confidence, p.run_id, p.created
    ));
    if let Some(updated) = &p.updated {
        text.push_str(&format!("updated: {updated}\n"));
    }
    if let Some(reason) = &p.reason {
        text.push_str(&format!("reason: {}\n", line(reason)));
    }
    if let Some(applied) = &p.applied {
        text.push_str(&format!("applied: {}\n", applied_text(applied)));
    }
    text.push_str(&format!("\nEvidence ({}):\n", p.evidence.len()));
    for e in &p.evidence {
        let excerpt = cut(&e.excerpt, 100);
        if excerpt.is_empty() {
            text.push_str(&format!(
                "  {}  (session {})\n",
                line(&e.turn),
                line(&e.session)
            ));
        } else {
            text.push_str(&format!(
                "  {}  (session {})  {excerpt}\n",
                line(&e.turn),
                line(&e.session)
            ));
        }
    }
    text.push('\n');
    match &p.payload {
        Payload::Skill(s) => {
            text.push_str(&format!(
                "Skill: {} — {}\n",
                line(&s.name),
                line(&s.description)
            ));
            text.push_str(&format!(
                "Steps: {}   (drafted from episode {})\n",
                line(&s.steps.join(" → ")),
                s.episode
            ));
            match &s.screen {
                Some(screen) => text.push_str(&format!(
                    "Screen of the draft: {} ({} finding(s)); apply screens it again\n",
                    screen["verdict"].as_str().unwrap_or("?"),
                    screen["findings"].as_u64().unwrap_or(0)
                )),
                None => text.push_str("Screen: not screened yet (apply screens it)\n"),
            }
            match &s.skill_md {
                Some(md) => {
                    text.push_str("\nSKILL.md:\n");
                    indented(&mut text, md);
                }
                None => text.push_str("SKILL.md: not drafted yet (apply drafts it)\n"),
            }
        }
        Payload::Preference(pr) => {
            text.push_str(&format!(
                "Adds to PROFILE.md ({}):\n- {}\n",
                line(&pr.section),
                line(&pr.fact)
            ));
        }
        Payload::Knowledge(k) => {
            text.push_str(&format!(
                "Note: memory/knowledge/{}.md — {}\n",
                line(&k.slug),
                line(&k.title)
            ));
            if !k.tags.is_empty() {
                text.push_str(&format!("tags: {}\n", line(&k.tags.join(", "))));
            }
            text.push_str("\nBody:\n");
            indented(&mut text, &k.body);
        }
    }
    if p.status == Status::Pending {
        let failed = match &p.payload {
            Payload::Skill(skill) => skill
                .screen
                .as_ref()
                .is_some_and(|screen| screen["verdict"] == "fail"),
            _ => false,
        };
        if failed {
            // `apply` would refuse it (permission): say so up front.
            text.push_str(&format!(
                "\nNext: the draft failed its screen, so `evolve apply` refuses it: `evolve reject {0} --reason TEXT`\n",
                p.id
            ));
        } else {
            text.push_str(&format!(
                "\nNext: `evolve apply {0}` or `evolve reject {0} --reason TEXT`\n",
                p.id
            ));
        }
    }
    text
}

/// Appends `body` indented by four spaces (blank lines stay blank).
fn indented(text: &mut String, body: &str) {
    for l in block(body).lines() {
        if l.trim().is_empty() {
            text.push('\n');
        } else {
            text.push_str("    ");
            text.push_str(l);
            text.push('\n');
        }
    }
}

/// `evolve show RUN`: the run's record and its proposals.
pub fn run(
    style: &Style,
    run_id: &str,
    dir: &str,
    record: Option<&Value>,
    proposals: &[Proposal],
) -> String {
    let mut text = format!("{}  {}\n", style.bold(&format!("run {run_id}")), dir);
    match record {
        Some(r) => {
            text.push_str(&format!(
                "status: {}   started: {}   finished: {}\n",
                r["status"].as_str().unwrap_or("?"),
                r["started"].as_str().unwrap_or("?"),
                r["finished"].as_str().unwrap_or("-")
            ));
            let c = &r["counts"];
            if c.is_object() {
                text.push_str(&format!(
                    "episodes: {}   batches: {}   proposals: {}   model calls: {}   cost: ${:.4}\n",
                    c["episodes"],
                    c["batches"],
                    c["proposals"],
                    c["model_calls"],
                    c["cost_usd"].as_f64().unwrap_or(0.0)
                ));
            }
            if let Some(err) = r.get("error").filter(|e| e.is_object()) {
                text.push_str(&format!(
                    "error: {}: {}\n",
                    err["type"].as_str().unwrap_or("?"),
                    err["message"].as_str().unwrap_or("")
                ));
            }
        }
        None => text.push_str("(no run.json)\n"),
    }
    if proposals.is_empty() {
        text.push_str("No proposals in this run.\n");
        return text;
    }
    text.push_str(&format!("\nProposals ({}):\n", proposals.len()));
    for p in proposals {
        text.push_str(&format!(
            "  {:<14}  {:<10}  {:>4.2}  {}  {}\n",
            p.id,
            p.kind.as_str(),
            p.confidence,
            painted(style, p.status),
            cut(&p.shown_title(), 72)
        ));
    }
    if let Some(p) = proposals.iter().find(|p| p.status == Status::Pending) {
        text.push_str(&format!("Next: `evolve show {}`\n", p.id));
    }
    text
}

/// What `applied` says, in a few words.
pub fn applied_text(applied: &Value) -> String {
    if let Some(name) = applied["skill"].as_str() {
        format!(
            "installed skill {name} ({}), screened: {}",
            applied["path"].as_str().unwrap_or(""),
            applied["screen"].as_str().unwrap_or("?")
        )
    } else if let Some(fact) = applied["fact"].as_str() {
        let section = applied["section"].as_str().unwrap_or("preferences");
        if applied["duplicate"] == true {
            format!("already in PROFILE.md ({section}): {fact}")
        } else {
            format!("added to PROFILE.md ({section}): {fact}")
        }
    } else if let Some(slug) = applied["note"].as_str() {
        format!(
            "wrote note {slug} ({})",
            applied["path"].as_str().unwrap_or("")
        )
    } else {
        applied.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_text_cannot_break_the_lines_or_the_terminal() {
        assert_eq!(line("Use\u{1b}[2J pnpm\n\nnot npm"), "Use [2J pnpm not npm");
        assert_eq!(block("a\u{1b}b\n\tc\r"), "a\u{FFFD}b\n\tc\u{FFFD}");
        assert_eq!(cut("abcdef", 4), "abc…");
    }
}
