//! A document cut into what an agent reads as instructions: sentences of
//! prose, list items and table cells (each a step), headings, blockquotes,
//! HTML comments, the front matter's `description`, and fenced blocks; plus,
//! for every line, whether it sits in a *quoting* context (a section or
//! lead-in that describes attacks and gives no order to run anything).
//!
//! One pass over the lines, then one over the sections: linear time.

use crate::front::{self, Fences};
use crate::screen::rules::lowered_regex;
use regex::bytes::Regex;
use std::sync::LazyLock;

/// Lines longer than this are cut before analysis.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// What kind of text a unit came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnitKind {
    /// A heading line.
    Heading,
    /// Prose, a list item, a table cell or a blockquote.
    Prose,
    /// The front matter's `description`.
    Description,
    /// The inside of an HTML comment (hidden when rendered).
    Comment,
}

/// One statement: a sentence (or cell, or item) with where it came from.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    /// 1-based line where it starts.
    pub line: usize,
    /// The text, markup stripped (code spans kept with their backticks).
    pub text: String,
    pub kind: UnitKind,
    /// Index into `Parsed::sections`.
    pub section: usize,
    /// The step it belongs to (a list item, a table row, a "Step N"), as
    /// a document-wide counter; `None` for plain prose.
    pub step: Option<usize>,
    /// The number a step was given ("Step 2", "2."), for "from step 2".
    pub step_no: Option<usize>,
}

/// A fenced block.
#[derive(Debug, Clone)]
pub(crate) struct FenceBlock {
    /// 1-based line of the first line inside the fence.
    pub first_line: usize,
    /// The fence's info string (`sh`, `python`…), trimmed.
    pub info: String,
    pub text: String,
    pub section: usize,
    /// The step the fence belongs to, if it sits inside a list item.
    pub step: Option<usize>,
}

/// A section: a heading and everything up to the next heading.
#[derive(Debug, Clone, Default)]
pub(crate) struct Section {
    /// The heading describes attacks, red flags or what not to run.
    pub describes: bool,
    /// Something in the section orders the agent to run, paste, install or
    /// generate something: nothing in it is a mere quote.
    pub instructed: bool,
    /// A "Step N" heading: data flows on from the previous section.
    pub step_heading: bool,
}

/// A parsed document.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub units: Vec<Unit>,
    pub fences: Vec<FenceBlock>,
    pub sections: Vec<Section>,
    /// Per line (index = line - 1): the line is quoted text (see module doc).
    pub quoted: Vec<bool>,
}

/// Words (after URLs, paths and code are removed) saying that the text
/// describes attacks rather than asks for one.
static DESCRIBES: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:red[\s-]+flags?|malicious|malware|attacks?|attackers?|adversar\w*|dangerous|suspicious|anti-?patterns?|insecure|unsafe|vulnerab\w*|phishing|indicators?\s+of\s+compromise|iocs?|exploits?|threats?|prompt\s+injection|injection\s+attacks?|stealers?|scams?|what\s+not\s+to\s+(?:run|do|paste|install)|not\s+recommended|discouraged|bad\s+(?:examples?|patterns?|practices?)|warning\s+signs?|(?:never|do\s+not|don't|dont)\s+(?:run|execute|use|pipe|copy|paste|install|follow|obey|trust))\b",
    )
});

/// An order to run, paste, install or generate something.
static ORDER: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:(?:run|execute|paste|install|launch|source|type|enter)\s+(?:this|these|it|them|the\s+following|following|the\s+(?:command|script|installer|snippet|code|line|helper|agent|binary|prerequisite)s?|below|now)|before\s+(?:using|you\s+use|installing|first\s+use|you\s+start|responding|answering|running|continuing)|prerequisites?|required\s+setup|(?:you\s+must|you\s+need\s+to|make\s+sure\s+to|be\s+sure\s+to|always)\s+(?:run|install|execute|paste|download)|first,?\s+(?:run|install|download|execute)|by\s+running|copy\s+and\s+paste|paste\s+[^.]{0,40}\binto\s+(?:your\s+)?(?:terminal|shell|console|powershell|command)|generate\s+(?:a|an|the|your)\s+(?:license|token|key|activation))",
    )
});

/// An order to run something shown earlier in the document.
static RUN_BACK: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:run|execute|paste|try|use|copy)\s+(?:the\s+|that\s+|those\s+|these\s+|each\s+)?(?:example|command|snippet|line|code|one|payload)s?\s+(?:above|earlier|shown|listed|from\s+(?:the\s+)?(?:red|list|section|above))|\b(?:run|execute)\s+(?:it|them|that|those)\s+(?:above|again|now\s+to)\b",
    )
});

/// A word of negation just before an order undoes it ("never run them").
static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(r"(?i)\b(?:never|not|don't|dont|avoid|no|without)\W+(?:\w+\W+){0,2}$")
});

/// `text` with code spans, URLs, paths, domains, flags and query strings
/// removed: only plain words (letters, `'`, `-` inside) remain, lowercased.
pub(crate) fn plain_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for piece in text.split('`') {
        if !in_code {
            for tok in piece.split_whitespace() {
                let t = tok.trim_matches(|c: char| {
                    matches!(
                        c,
                        '.' | ','
                            | ';'
                            | ':'
                            | '!'
                            | '?'
                            | '('
                            | ')'
                            | '"'
                            | '*'
                            | '_'
                            | '['
                            | ']'
                            | '\u{201C}'
                            | '\u{201D}'
                            | '\''
                    )
                });
                let plain = !t.is_empty()
                    && !t.starts_with('-')
                    && t.chars()
                        .all(|c| c.is_alphabetic() || c == '\'' || c == '-' || c == '’');
                if plain {
                    out.push_str(&t.to_lowercase());
                    out.push(' ');
                } else if tok.ends_with(['.', ':', ';']) {
                    // keep sentence boundaries so words do not join across them
                    out.push_str(". ");
                }
            }
        }
        in_code = !in_code;
    }
    out
}

/// The text (plain words only) describes attacks, red flags or what not to run.
pub(crate) fn describes(text: &str) -> bool {
    DESCRIBES.is_match(plain_words(text).as_bytes())
}

/// The text orders the agent to run, paste, install or generate something
/// (a negated order — "never run them" — is none).
pub(crate) fn orders(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    ORDER.find_iter(bytes).any(|m| {
        let before = &bytes[m.start().saturating_sub(40)..m.start()];
        !NEGATION.is_match(before)
    })
}

/// A fence marker (three or more backticks or tildes) opening a line.
pub(crate) fn fence_marker(trimmed: &str) -> Option<(char, usize)> {
    let c = trimmed.chars().next()?;
    if c != '`' && c != '~' {
        return None;
    }
    let n = trimmed.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// A list item's marker and its number, if numbered: `- `, `* `, `+ `, `1. `, `1) `.
fn list_item(trimmed: &str) -> Option<(&str, Option<usize>)> {
    for m in ["- ", "* ", "+ "] {
        if let Some(rest) = trimmed.strip_prefix(m) {
            return Some((rest, None));
        }
    }
    let digits = trimmed.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && digits < 4 {
        let rest = &trimmed[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some((r, trimmed[..digits].parse().ok()));
        }
    }
    None
}

/// "Step 3", "Step 3:", "Phase 2 —": the step number of a heading or item.
fn step_number(text: &str) -> Option<usize> {
    let lower = text
        .trim_start_matches(['#', '*', ' '])
        .to_ascii_lowercase();
    let rest = ["step ", "phase ", "stage "]
        .iter()
        .find_map(|p| lower.strip_prefix(p))?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Cuts `line` to `MAX_LINE` bytes at a character boundary.
fn cut(line: &str) -> &str {
    if line.len() <= MAX_LINE {
        return line;
    }
    let mut end = MAX_LINE;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    &line[..end]
}

/// Splits prose into sentences at `. `, `! `, `? `, `; ` (outside code spans),
/// each with its byte offset.
fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut in_code = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'`' {
            in_code = !in_code;
        }
        let end_mark = !in_code
            && matches!(b, b'.' | b'!' | b'?' | b';')
            && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace());
        if end_mark {
            let s = text[start..=i].trim();
            if !s.is_empty() {
                out.push((start, s));
            }
            start = i + 1;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push((start, s));
    }
    out
}

/// Collects a paragraph's lines and flushes them as sentence units.
struct Para {
    /// (line number, text) pieces.
    lines: Vec<(usize, String)>,
    kind: UnitKind,
    step: Option<usize>,
    step_no: Option<usize>,
}

impl Para {
    fn flush(&mut self, section: usize, units: &mut Vec<Unit>) {
        if self.lines.is_empty() {
            return;
        }
        let mut joined = String::new();
        let mut starts = Vec::with_capacity(self.lines.len());
        for (n, l) in self.lines.drain(..) {
            starts.push((joined.len(), n));
            joined.push_str(&l);
            joined.push(' ');
        }
        for (off, s) in sentences(&joined) {
            let line = starts
                .iter()
                .take_while(|(o, _)| *o <= off)
                .last()
                .map_or(0, |(_, n)| *n);
            units.push(Unit {
                line,
                text: s.to_string(),
                kind: self.kind,
                section,
                step: self.step,
                step_no: self.step_no,
            });
        }
        self.step = None;
        self.step_no = None;
        self.kind = UnitKind::Prose;
    }
}

/// Parses `text` (markdown or plain prose).
pub(crate) fn parse(text: &str) -> Parsed {
    let mut p = Parsed {
        sections: vec![Section::default()],
        ..Parsed::default()
    };
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| cut(l.strip_suffix('\r').unwrap_or(l)))
        .collect();
    // Which section each line belongs to, and the lead-in of each fence.
    let mut line_section = vec![0usize; lines.len()];
    let mut fence_lead: Vec<Vec<usize>> = Vec::new();
    let mut prose_lead: Vec<Option<usize>> = vec![None; lines.len()];
    let mut last_prose: Vec<usize> = Vec::new();

    let mut para = Para {
        lines: Vec::new(),
        kind: UnitKind::Prose,
        step: None,
        step_no: None,
    };
    let mut steps = 0usize;
    let mut current_step: Option<(usize, Option<usize>)> = None;
    let mut fence: Option<((char, usize), FenceBlock)> = None;
    let mut comment: Option<(usize, String)> = None;
    let mut i = 0;

    // Front matter: only the description is read as an instruction.
    if let Some(split) = front::split(text, Fences::Loose)
        && split.close.is_some()
    {
        for (n, l) in split.lines() {
            if let Some(v) = cut(l).trim().strip_prefix("description:") {
                let v = v.trim().trim_matches(['"', '\'']);
                p.units.push(Unit {
                    line: n,
                    text: v.to_string(),
                    kind: UnitKind::Description,
                    section: 0,
                    step: None,
                    step_no: None,
                });
            }
        }
        i = split.close_line;
    }

    while i < lines.len() {
        let lineno = i + 1;
        let line = lines[i];
        let trimmed = line.trim();
        let section = p.sections.len() - 1;
        line_section[i] = section;
        i += 1;

        if let Some((marker, block)) = fence.as_mut() {
            let t = trimmed;
            if fence_marker(t).is_some_and(|m| m.0 == marker.0 && m.1 >= marker.1)
                && t.chars().all(|x| x == marker.0)
            {
                let (_, b) = fence.take().expect("open fence");
                p.fences.push(b);
            } else {
                if !block.text.is_empty() {
                    block.text.push('\n');
                }
                block.text.push_str(line);
            }
            continue;
        }
        if let Some((start, buf)) = comment.as_mut() {
            if let Some(end) = line.find("-->") {
                buf.push_str(&line[..end]);
                let (s, t) = (*start, std::mem::take(buf));
                comment = None;
                push_comment(&mut p.units, s, &t, section);
            } else {
                buf.push_str(line);
                buf.push('\n');
            }
            continue;
        }
        if let Some(marker) = fence_marker(trimmed) {
            para.flush(section, &mut p.units);
            let info = trimmed.trim_start_matches(marker.0).trim().to_string();
            fence_lead.push(last_prose.iter().rev().take(3).copied().collect());
            fence = Some((
                marker,
                FenceBlock {
                    first_line: lineno + 1,
                    info,
                    text: String::new(),
                    section,
                    step: current_step.map(|s| s.0),
                },
            ));
            continue;
        }
        // HTML comments: one line or many.
        let mut rest = line.to_string();
        while let Some(open) = rest.find("<!--") {
            let after = rest[open + 4..].to_string();
            match after.find("-->") {
                Some(end) => {
                    push_comment(&mut p.units, lineno, &after[..end], section);
                    rest = format!("{} {}", &rest[..open], &after[end + 3..]);
                }
                None => {
                    comment = Some((lineno, format!("{after}\n")));
                    rest = rest[..open].to_string();
                    break;
                }
            }
        }
        let trimmed = rest.trim();
        if trimmed.is_empty() {
            para.flush(section, &mut p.units);
            continue;
        }
        if let Some(h) = trimmed.strip_prefix('#') {
            para.flush(section, &mut p.units);
            let heading = h.trim_start_matches('#').trim().to_string();
            let step_no = step_number(&heading);
            p.sections.push(Section {
                describes: describes(&heading),
                step_heading: step_no.is_some(),
                instructed: false,
            });
            let section = p.sections.len() - 1;
            line_section[i - 1] = section;
            current_step = step_no.map(|n| {
                steps += 1;
                (steps, Some(n))
            });
            last_prose.clear();
            p.units.push(Unit {
                line: lineno,
                text: heading,
                kind: UnitKind::Heading,
                section,
                step: current_step.map(|s| s.0),
                step_no,
            });
            continue;
        }
        prose_lead[i - 1] = last_prose.last().copied();
        last_prose.push(i - 1);
        let body = trimmed.trim_start_matches('>').trim();
        if body.starts_with('|') {
            // A table row: a step; each cell a unit.
            para.flush(section, &mut p.units);
            if body.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
                continue;
            }
            steps += 1;
            for cell in body.trim_matches('|').split('|') {
                let cell = cell.trim();
                if !cell.is_empty() {
                    para.lines.push((lineno, cell.to_string()));
                    para.step = Some(steps);
                    para.flush(section, &mut p.units);
                }
            }
            continue;
        }
        if let Some((item, number)) = list_item(body) {
            para.flush(section, &mut p.units);
            steps += 1;
            let step_no = number.or_else(|| step_number(item));
            current_step = Some((steps, step_no));
            para.step = Some(steps);
            para.step_no = step_no;
            para.lines.push((lineno, item.to_string()));
            continue;
        }
        if let Some(n) = step_number(body) {
            para.flush(section, &mut p.units);
            steps += 1;
            current_step = Some((steps, Some(n)));
            para.step = Some(steps);
            para.step_no = Some(n);
        } else if para.lines.is_empty() {
            // plain prose after a list still belongs to its last step when indented
            let indented = line.starts_with("  ") || line.starts_with('\t');
            if indented && let Some((s, n)) = current_step {
                para.step = Some(s);
                para.step_no = n;
            }
        }
        para.lines.push((lineno, body.to_string()));
    }
    let last = p.sections.len() - 1;
    para.flush(last, &mut p.units);
    if let Some((_, b)) = fence.take() {
        p.fences.push(b);
    }
    if let Some((s, t)) = comment.take() {
        push_comment(&mut p.units, s, &t, last);
    }

    // Sections that order something are never quotes; an order anywhere to
    // run what was shown earlier ("now run the example above") leaves no
    // quote anywhere in the document.
    let mut runs_back = false;
    for u in &p.units {
        if u.kind != UnitKind::Comment && orders(&u.text) {
            p.sections[u.section].instructed = true;
        }
        runs_back |= RUN_BACK.is_match(u.text.to_ascii_lowercase().as_bytes());
    }
    if runs_back {
        for s in &mut p.sections {
            s.instructed = true;
        }
    }
    // The quoting context of every line.
    p.quoted = vec![false; lines.len()];
    for (idx, q) in p.quoted.iter_mut().enumerate() {
        let s = &p.sections[line_section[idx]];
        if s.instructed {
            continue;
        }
        let lead = prose_lead[idx].is_some_and(|l| describes(lines[l]) && !orders(lines[l]));
        *q = (s.describes || lead) && !orders(lines[idx]);
    }
    for (f, lead) in p.fences.iter().zip(&fence_lead) {
        let s = &p.sections[f.section];
        let lead_describes = lead
            .iter()
            .any(|&l| describes(lines[l]) && !orders(lines[l]));
        let q = !s.instructed && (s.describes || lead_describes);
        let n = f.text.split('\n').count();
        for k in 0..n {
            if let Some(slot) = p.quoted.get_mut(f.first_line - 1 + k) {
                *slot = q;
            }
        }
    }
    // Comments are hidden from the reader: never a quote.
    for u in p.units.iter().filter(|u| u.kind == UnitKind::Comment) {
        let n = u.text.split('\n').count();
        for k in 0..n {
            if let Some(slot) = p.quoted.get_mut(u.line - 1 + k) {
                *slot = false;
            }
        }
    }
    p
}

fn push_comment(units: &mut Vec<Unit>, line: usize, text: &str, section: usize) {
    let flat = text.replace('\n', " ");
    for (_, s) in sentences(&flat) {
        units.push(Unit {
            line,
            text: s.to_string(),
            kind: UnitKind::Comment,
            section,
            step: None,
            step_no: None,
        });
    }
}
