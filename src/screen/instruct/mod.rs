//! "Instructions are code too": a markdown or prose file (SKILL.md,
//! references, any `.md`/`.txt`) read as what it tells an agent to do.
//!
//! Every statement (a sentence, a list item, a table cell, a heading, a
//! blockquote, an HTML comment, the front matter's description) is cut into
//! clauses, each a *(verb class, object, destination)*: read a secret, encode
//! it, send it somewhere, fetch something, run something. Data is followed
//! from a secret read to a later send across sentences, steps, table rows
//! and "Step N" sections (pronouns, "from step 1", an encode step in between
//! keep the chain) and becomes a `SecretToNetwork` flow; a fetch and a run in
//! one step or section become `DownloadToExec`. Concealment, overrides,
//! persistence and agent-config changes are phrases. Code blocks and
//! command-like inline code go to the code analyser as `Span`s; the skill's
//! own scripts the text tells the agent to run are `Run`s.
//!
//! A section (or lead-in) that describes attacks and orders nothing makes
//! its facts and spans `Origin::Quoted` (see `markdown.rs`).

mod markdown;
mod phrases;
mod verbs;

#[cfg(test)]
mod tests;

#[cfg(test)]
use markdown::plain_words;
pub(crate) use markdown::{describes, orders};

use super::facts::{Analysis, Cap, Fact, Flow, FlowKind, Origin, Site};
use markdown::{Parsed, Unit};
use verbs::{Clause, Verb};

/// At most this many facts, spans and runs per document.
const MAX_ITEMS: usize = 1000;

/// A piece of code inside a document, for the code analyser.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Span {
    /// 1-based line of the code's first line.
    pub first_line: usize,
    /// The fence's info string (`sh`, `python`…); "" for inline code.
    pub info: String,
    pub text: String,
    pub inline: bool,
    /// `Instruction` unless the span only quotes (a security skill's example).
    pub origin: Origin,
}

/// A script of the skill the document tells the agent to run
/// (`scripts/x.sh`, `python scripts/y.py`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    pub site: Site,
    /// As written, relative, without a leading `./`.
    pub path: String,
}

/// What a document tells the agent to do.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Doc {
    pub analysis: Analysis,
    pub spans: Vec<Span>,
    pub runs: Vec<Run>,
}

/// Per line of `text` (index = line - 1): the line only quotes an attack —
/// it sits under a heading or lead-in that describes attacks, red flags or
/// what not to run, in a section that orders nothing. Such text may soften a
/// finding from fail to warn, never lower.
pub(crate) fn quoted_lines(text: &str) -> Vec<bool> {
    markdown::parse(text).quoted
}

/// Analyses a markdown/prose file as instructions to an agent.
pub(crate) fn analyze_doc(rel: &str, text: &str) -> Doc {
    let parsed = markdown::parse(text);
    let mut w = Walker {
        rel,
        parsed: &parsed,
        doc: Doc::default(),
        secret: None,
        by_step: Vec::new(),
        fetch: None,
        pending: Vec::new(),
    };
    w.walk();
    w.doc
}

/// A fact that a later statement may pick up.
#[derive(Debug, Clone)]
struct Held {
    fact: Fact,
    section: usize,
    /// The step it was seen in, if any.
    step: Option<usize>,
    /// True when the fact came from a fenced block and is not reported on
    /// its own (the code analyser reports it) unless a flow needs it.
    from_fence: bool,
}

/// The walk over a parsed document, in reading order.
struct Walker<'a> {
    rel: &'a str,
    parsed: &'a Parsed,
    doc: Doc,
    /// The latest secret read (or its encoded form) still in scope.
    secret: Option<Held>,
    /// (step number, secret read in that step) for "from step N".
    by_step: Vec<(usize, Held)>,
    /// The latest fetch in scope.
    fetch: Option<Held>,
    /// Fence facts kept back until a flow uses them.
    pending: Vec<Fact>,
}

/// One item in reading order: a unit or a fenced block.
enum Item<'p> {
    Unit(&'p Unit),
    Fence(usize),
}

impl Walker<'_> {
    fn walk(&mut self) {
        let p = self.parsed;
        let mut items: Vec<(usize, Item)> =
            p.units.iter().map(|u| (u.line, Item::Unit(u))).collect();
        items.extend(
            p.fences
                .iter()
                .enumerate()
                .map(|(i, f)| (f.first_line, Item::Fence(i))),
        );
        items.sort_by_key(|(l, _)| *l);
        let mut section = 0;
        for (_, item) in items {
            let s = match &item {
                Item::Unit(u) => u.section,
                Item::Fence(i) => p.fences[*i].section,
            };
            if s != section {
                // A new section ends the chain unless it is a "Step N".
                if !p.sections[s].step_heading {
                    self.secret = None;
                    self.fetch = None;
                }
                section = s;
            }
            match item {
                Item::Unit(u) => self.unit(u),
                Item::Fence(i) => self.fence(i),
            }
            if self.full() {
                break;
            }
        }
    }

    fn full(&self) -> bool {
        let d = &self.doc;
        d.analysis.facts.len() + d.analysis.flows.len() + d.spans.len() + d.runs.len() >= MAX_ITEMS
    }

    fn site(&self, line: usize, text: &str) -> Site {
        Site {
            file: self.rel.to_string(),
            line,
            text: text.to_string(),
        }
    }

    fn origin_at(&self, line: usize) -> Origin {
        if self
            .parsed
            .quoted
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(false)
        {
            Origin::Quoted
        } else {
            Origin::Instruction
        }
    }

    fn fact(&self, cap: Cap, line: usize, text: &str, origin: Origin, what: String) -> Fact {
        Fact {
            cap,
            site: self.site(line, text),
            origin,
            what,
            via: String::new(),
        }
    }

    /// A download the unit names: a fact, and the one a later run refers to.
    fn fetched(&mut self, line: usize, u: &Unit, origin: Origin, what: &str, here: &mut bool) {
        let f = self.fact(
            Cap::Fetch,
            line,
            &u.text,
            origin,
            format!("downloads {what}"),
        );
        self.push_fact(f.clone());
        self.fetch = Some(Held {
            fact: f,
            section: u.section,
            step: u.step,
            from_fence: false,
        });
        *here = true;
    }

    fn push_fact(&mut self, f: Fact) {
        if !self.full() && !self.doc.analysis.facts.contains(&f) {
            self.doc.analysis.facts.push(f);
        }
    }

    fn push_flow(&mut self, kind: FlowKind, source: &Held, sink: Fact) {
        if self.full() {
            return;
        }
        // A fence fact held back is reported once a flow uses it.
        if source.from_fence {
            self.pending.retain(|f| f != &source.fact);
            self.push_fact(source.fact.clone());
        }
        self.doc.analysis.flows.push(Flow {
            kind,
            source: source.fact.clone(),
            sink,
        });
    }

    fn unit(&mut self, u: &Unit) {
        let base = self.origin_at(u.line);
        // In a sentence that describes attacks, what it puts in quotes is a
        // quote; the rest keeps the line's origin.
        let describing = describes(&u.text) && !orders(&u.text);
        let (outside, inside) = if describing {
            split_quotes(&u.text)
        } else {
            (u.text.clone(), Vec::new())
        };
        self.statement(u, &outside, base);
        for q in inside {
            self.statement(u, &q, Origin::Quoted);
        }
        self.inline_code(u, if describing { Origin::Quoted } else { base });
    }

    /// Inline code spans that look like commands, and script runs.
    fn inline_code(&mut self, u: &Unit, origin: Origin) {
        let mut in_code = false;
        for piece in u.text.split('`') {
            if in_code && verbs::looks_like_command(piece) && !self.full() {
                self.doc.spans.push(Span {
                    first_line: u.line,
                    info: String::new(),
                    text: piece.to_string(),
                    inline: true,
                    origin,
                });
            }
            in_code = !in_code;
        }
        for path in verbs::runs_in_prose(&u.text) {
            self.push_run(u.line, &u.text, path);
        }
    }

    fn push_run(&mut self, line: usize, text: &str, path: String) {
        if self.full()
            || self
                .doc
                .runs
                .iter()
                .any(|r| r.path == path && r.site.line == line)
        {
            return;
        }
        let site = self.site(line, text);
        self.doc.runs.push(Run { site, path });
    }

    /// One statement's clauses, with the document's state.
    fn statement(&mut self, u: &Unit, text: &str, origin: Origin) {
        let line = u.line;
        for (cap, what) in phrases::phrases(text) {
            let f = self.fact(cap, line, &u.text, origin, what);
            self.push_fact(f);
        }
        let clauses = verbs::clauses(text);
        let mut fetched_here = false;
        for c in &clauses {
            self.clause(u, c, origin, &mut fetched_here);
        }
    }

    fn clause(&mut self, u: &Unit, c: &Clause, origin: Origin, fetched_here: &mut bool) {
        let line = u.line;
        let held = |fact: Fact| Held {
            fact,
            section: u.section,
            step: u.step,
            from_fence: false,
        };
        match c.verb {
            Verb::Read | Verb::Encode => {
                if let Some((cap, what)) = c.secret() {
                    let f = self.fact(cap, line, &u.text, origin, what);
                    self.push_fact(f.clone());
                    let h = held(f);
                    if let Some(n) = u.step_no {
                        self.by_step.push((n, h.clone()));
                    }
                    self.secret = Some(h);
                } else if c.verb == Verb::Read && !c.refers_back() {
                    // Reading something else starts a new chain.
                    self.secret = None;
                }
            }
            Verb::Send | Verb::Carry => {
                // An include/attach/add is a send only toward a URL: "the
                // icon set (draw.io)" names no destination.
                let dest = if c.verb == Verb::Carry {
                    c.url()
                } else {
                    c.destination()
                };
                let Some(dest) = dest else {
                    return;
                };
                let sink = self.fact(
                    Cap::Egress,
                    line,
                    &u.text,
                    origin,
                    format!("sends to {dest}"),
                );
                self.push_fact(sink.clone());
                let source = if let Some((cap, what)) = c.secret() {
                    let f = self.fact(cap, line, &u.text, origin, what);
                    self.push_fact(f.clone());
                    Some(held(f))
                } else if let Some(n) = c.step_ref() {
                    self.by_step
                        .iter()
                        .rev()
                        .find(|(k, _)| *k == n)
                        .map(|(_, h)| h.clone())
                } else if c.refers_back() {
                    self.secret.clone()
                } else {
                    None
                };
                if let Some(src) = source {
                    self.push_flow(FlowKind::SecretToNetwork, &src, sink);
                }
            }
            Verb::Fetch => {
                if let Some(what) = c.fetched() {
                    self.fetched(line, u, origin, &what, fetched_here);
                }
            }
            Verb::Exec => {
                // "Advise the user not to run it" orders nothing.
                let lead = u.text.find(&c.text).map_or("", |at| {
                    let mut from = at.saturating_sub(40);
                    while !u.text.is_char_boundary(from) {
                        from -= 1;
                    }
                    &u.text[from..at]
                });
                if verbs::negated_run(&format!("{lead}{}", c.text)) {
                    return;
                }
                // Running what was fetched: in the same sentence or step, or
                // named ("run it", "run the installer", its file name).
                if let Some(what) = c.fetched() {
                    self.fetched(line, u, origin, &what, fetched_here);
                }
                let Some(src) = self.fetch.clone() else {
                    return;
                };
                if src.section != u.section && !self.parsed.sections[u.section].step_heading {
                    return;
                }
                let what = src.fact.what.trim_start_matches("downloads ").to_string();
                let same_step = src.step.is_some() && src.step == u.step;
                if !(*fetched_here || same_step || c.runs_fetched(&verbs::file_stem(&what))) {
                    return;
                }
                let sink = self.fact(
                    Cap::DynamicExec,
                    line,
                    &u.text,
                    origin,
                    format!("runs what it downloaded ({what})"),
                );
                self.push_fact(sink.clone());
                self.push_flow(FlowKind::DownloadToExec, &src, sink);
            }
        }
    }

    /// A fenced block: a span, runs, and the facts that chain with prose.
    fn fence(&mut self, i: usize) {
        let f = &self.parsed.fences[i];
        let origin = self.origin_at(f.first_line);
        if !self.full() {
            self.doc.spans.push(Span {
                first_line: f.first_line,
                info: f.info.clone(),
                text: f.text.clone(),
                inline: false,
                origin,
            });
        }
        for (k, line) in f.text.split('\n').enumerate() {
            for path in verbs::runs_in_code(line) {
                self.push_run(f.first_line + k, line, path);
            }
        }
        // The block's own behaviour is the code analyser's; here only what
        // links it to the prose around it: a secret it reads (for a later
        // "send it"), a send of an earlier secret, a download a later
        // sentence runs, and a fetch-and-run it is ordered to run.
        let mut fetch_line = None;
        let mut run_line = None;
        for (k, line) in f.text.split('\n').enumerate() {
            let n = f.first_line + k;
            let cmd = phrases::command_shape(line);
            if let Some((cap, what)) = cmd.secret.clone() {
                let fact = self.fact(cap, n, line, origin, what);
                self.pending.push(fact.clone());
                self.secret = Some(Held {
                    fact,
                    section: f.section,
                    step: f.step,
                    from_fence: true,
                });
            }
            if let Some(dest) = &cmd.sends_to
                && cmd.secret.is_none()
                && cmd.reads_stdin_or_ref
                && let Some(src) = self.secret.clone()
                && !src.from_fence
            {
                let sink = self.fact(Cap::Egress, n, line, origin, format!("sends to {dest}"));
                self.push_fact(sink.clone());
                self.push_flow(FlowKind::SecretToNetwork, &src, sink);
            }
            if let Some(url) = &cmd.fetches {
                fetch_line.get_or_insert((n, line.to_string(), url.clone()));
            }
            if cmd.runs {
                run_line.get_or_insert((n, line.to_string()));
            }
        }
        if fetch_line.is_none()
            && origin == Origin::Instruction
            && let Some((rn, rline)) = &run_line
            && let Some(src) = self.fetch.clone()
            && !src.from_fence
            && src.section == f.section
        {
            let what = src.fact.what.trim_start_matches("downloads ").to_string();
            let stem = verbs::file_stem(&what);
            if !stem.is_empty() && rline.to_ascii_lowercase().contains(&stem) {
                let sink = self.fact(
                    Cap::DynamicExec,
                    *rn,
                    rline,
                    origin,
                    format!("runs what it downloaded ({what})"),
                );
                self.push_fact(sink.clone());
                self.push_flow(FlowKind::DownloadToExec, &src, sink);
            }
        }
        if let Some((n, line, url)) = fetch_line {
            let fact = self.fact(Cap::Fetch, n, &line, origin, format!("downloads {url}"));
            let held = Held {
                fact,
                section: f.section,
                step: f.step,
                from_fence: true,
            };
            self.fetch = Some(held.clone());
            // A block the agent is told to run that downloads and runs:
            // the instruction executes what it fetched.
            if let Some((rn, rline)) = run_line
                && origin == Origin::Instruction
            {
                let sink = self.fact(
                    Cap::DynamicExec,
                    rn,
                    &rline,
                    origin,
                    format!("runs what it downloaded ({url})"),
                );
                self.push_fact(sink.clone());
                self.push_flow(FlowKind::DownloadToExec, &held, sink);
            }
        }
    }
}

/// Splits a sentence into its text outside quotes and the quoted pieces
/// (`"…"`, `“…”`).
fn split_quotes(text: &str) -> (String, Vec<String>) {
    let mut outside = String::new();
    let mut inside = Vec::new();
    let mut cur = String::new();
    let mut open: Option<char> = None;
    for c in text.chars() {
        match (open, c) {
            (None, '"') => open = Some('"'),
            (None, '\u{201C}') => open = Some('\u{201D}'),
            (Some(close), c) if c == close => {
                inside.push(std::mem::take(&mut cur));
                open = None;
                outside.push_str(" \"\" ");
            }
            (Some(_), c) => cur.push(c),
            (None, c) => outside.push(c),
        }
    }
    outside.push_str(&cur);
    (outside, inside)
}
