//! `memory/personal/PROFILE.md` (docs/tools/knowledge.md, "Profile facts"):
//! per `#`/`##` section, fact bullets merge as a three-way set (a fact either
//! side added stays, one removed on one side goes, equal facts once) and the
//! rest of the section (headings, prose) merges three-way by lines.

use super::{DELETED_CHANGED, text};
use std::collections::HashSet;

/// Stands in a section's text for its block of facts while the text merges.
const FACTS: &str = "\u{1}facts\u{1}\n";

/// One section: its heading (`None` for the text above the first heading),
/// its text with the facts replaced by [`FACTS`], and its fact bullets (each
/// with its continuation lines).
struct Section {
    key: String,
    heading: String,
    skeleton: String,
    facts: Vec<String>,
}

fn is_heading(line: &str) -> bool {
    let t = line.trim_end();
    t == "#" || t == "##" || t.starts_with("# ") || t.starts_with("## ")
}

fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

fn is_bullet(line: &str) -> bool {
    if ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") "))
}

/// A fact's identity: its text without the bullet, whitespace collapsed,
/// lowercased, without a final `.` or `!` (the profile tool's duplicate rule).
fn fact_key(fact: &str) -> String {
    let text = fact.trim_start();
    let text = ["- ", "* ", "+ "]
        .iter()
        .find_map(|m| text.strip_prefix(m))
        .unwrap_or_else(|| {
            let digits = text.bytes().take_while(u8::is_ascii_digit).count();
            text.get(digits + 2..)
                .filter(|_| digits > 0)
                .unwrap_or(text)
        });
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ").to_lowercase();
    joined.trim_end_matches(['.', '!']).to_string()
}

fn ended(mut s: String) -> String {
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

fn parse(text: &str) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut counts: std::collections::HashMap<String, usize> = Default::default();
    let mut current = Section {
        key: String::new(),
        heading: String::new(),
        skeleton: String::new(),
        facts: Vec::new(),
    };
    let (mut in_fence, mut in_fact) = (false, false);
    for line in text.split_inclusive('\n') {
        if !in_fence && is_heading(line) {
            sections.push(std::mem::replace(
                &mut current,
                Section {
                    key: String::new(),
                    heading: line.trim().to_string(),
                    skeleton: String::new(),
                    facts: Vec::new(),
                },
            ));
            let name = line.trim().trim_end_matches('#').trim_end().to_lowercase();
            let n = counts.entry(name.clone()).or_default();
            *n += 1;
            current.key = format!("{name}\u{0}{n}");
            current.skeleton.push_str(&ended(line.to_string()));
            in_fact = false;
            continue;
        }
        if is_fence(line) {
            in_fence = !in_fence;
        }
        if !in_fence && is_bullet(line) {
            if current.facts.is_empty() {
                current.skeleton.push_str(FACTS);
            }
            current.facts.push(ended(line.to_string()));
            in_fact = true;
        } else if let Some(last) = current.facts.last_mut().filter(|_| {
            in_fact && !in_fence && line.starts_with([' ', '\t']) && !line.trim().is_empty()
        }) {
            last.push_str(&ended(line.to_string()));
        } else {
            in_fact = false;
            current.skeleton.push_str(line);
        }
    }
    sections.push(current);
    sections.retain(|s| !(s.key.is_empty() && s.skeleton.is_empty()));
    sections
}

/// Ours' facts without those theirs removed, then theirs' new facts; each
/// distinct fact once.
fn merge_facts(base: &[String], ours: &[String], theirs: &[String]) -> Vec<String> {
    let keys = |facts: &[String]| facts.iter().map(|f| fact_key(f)).collect::<HashSet<_>>();
    let (b, o, t) = (keys(base), keys(ours), keys(theirs));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for fact in ours {
        let key = fact_key(fact);
        if (t.contains(&key) || !b.contains(&key)) && seen.insert(key) {
            out.push(fact.clone());
        }
    }
    for fact in theirs {
        let key = fact_key(fact);
        if !o.contains(&key) && !b.contains(&key) && seen.insert(key) {
            out.push(fact.clone());
        }
    }
    out
}

fn render(skeleton: &str, facts: &[String]) -> String {
    let block: String = facts.concat();
    let mut out = String::new();
    let mut placed = false;
    for line in skeleton.split_inclusive('\n') {
        if line == FACTS {
            if !placed {
                out.push_str(&block);
                placed = true;
            }
        } else {
            out.push_str(line);
        }
    }
    if !placed && !block.is_empty() {
        // The facts' place was removed on one side: after the last text line.
        let keep = out.trim_end().len();
        let tail = out[keep..].to_string();
        let mut head = ended(out[..keep].to_string());
        head.push_str(&block);
        let tail = tail
            .strip_prefix("\r\n")
            .or_else(|| tail.strip_prefix('\n'))
            .unwrap_or(&tail);
        head.push_str(tail);
        return head;
    }
    out
}

fn merge_section(
    base: Option<&Section>,
    ours: &Section,
    theirs: &Section,
) -> Result<String, String> {
    let facts = merge_facts(
        base.map_or(&[][..], |s| &s.facts),
        &ours.facts,
        &theirs.facts,
    );
    // Where the facts sit does not make two texts differ (two homes that
    // each added a first fact to the same template).
    let without_facts =
        |s: &str| -> String { s.split_inclusive('\n').filter(|l| *l != FACTS).collect() };
    if without_facts(&ours.skeleton) == without_facts(&theirs.skeleton) {
        let skeleton = if ours.skeleton.contains(FACTS) {
            &ours.skeleton
        } else {
            &theirs.skeleton
        };
        return Ok(render(skeleton, &facts));
    }
    let skeleton = text::merge3(
        base.map_or("", |s| &s.skeleton),
        &ours.skeleton,
        &theirs.skeleton,
    )
    .map_err(|_| {
        let place = if ours.heading.is_empty() {
            "the text above the first heading".to_string()
        } else {
            format!("the text of section {:?}", ours.heading)
        };
        format!("both sides changed {place}")
    })?;
    Ok(render(&skeleton, &facts))
}

fn whole(s: &Section) -> String {
    render(&s.skeleton, &s.facts)
}

/// Merges PROFILE.md. Deleted on one side and changed on the other, or not
/// UTF-8, is a conflict; an add/add merges against an empty base.
pub fn merge(
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let (Some(ours), Some(theirs)) = (ours, theirs) else {
        return Err(DELETED_CHANGED.to_string());
    };
    let utf8 = |b: &[u8]| std::str::from_utf8(b).ok().map(parse);
    let (Some(b), Some(o), Some(t)) = (utf8(base.unwrap_or(b"")), utf8(ours), utf8(theirs)) else {
        return Err("both sides changed a file that is not UTF-8 text".to_string());
    };
    let find = |list: &[Section], key: &str| list.iter().position(|s| s.key == key);
    let mut out: Vec<String> = Vec::new();
    for os in &o {
        let bs = find(&b, &os.key).map(|i| &b[i]);
        match (find(&t, &os.key).map(|i| &t[i]), bs) {
            (Some(ts), bs) => out.push(merge_section(bs, os, ts)?),
            // Theirs removed a section ours left as it was.
            (None, Some(bs)) if whole(bs) == whole(os) => {}
            _ => out.push(whole(os)),
        }
    }
    for ts in &t {
        if find(&o, &ts.key).is_some() {
            continue;
        }
        match find(&b, &ts.key).map(|i| &b[i]) {
            Some(bs) if whole(bs) == whole(ts) => {}
            _ => out.push(whole(ts)),
        }
    }
    let last = out.len().saturating_sub(1);
    let text: String = out
        .into_iter()
        .enumerate()
        .map(|(i, s)| if i == last { s } else { ended(s) })
        .collect();
    Ok(text.into_bytes())
}
