//! The command-line face of search, written once for `agentbox search`,
//! `track search` and `knowledge search`: the same flags, limits, validation
//! and hit rendering.

use super::{Found, Hit, Named, Order, Query, Why, date_bound, rank};
use crate::error::{Error, Result};
use crate::output::{Outcome, Style};
use serde_json::{Map, Value, json};

/// Hits returned when `--limit` is not given.
pub const DEFAULT_LIMIT: u16 = 10;
/// Most hits a search verb returns (`--limit`'s upper bound).
pub const MAX_LIMIT: u16 = 50;

/// The arguments every search verb takes.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// What to look for: keywords or a question (several words are joined)
    #[arg(value_name = "QUERY", required = true, num_args = 1..)]
    pub query: Vec<String>,
    /// Only documents of this session (turns carry one)
    #[arg(long, value_name = "KEY")]
    pub session: Option<String>,
    /// Only documents with this tag (a note's tag, a turn's role or tool, a fact's section)
    #[arg(long, value_name = "TAG")]
    pub tag: Option<String>,
    /// Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only documents dated on or before DATE (a plain date covers the whole day)
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// Most hits to return (1–50)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT,
          value_parser = clap::value_parser!(u16).range(1..=MAX_LIMIT as i64))]
    pub limit: u16,
    /// Say why each hit ranked where it did: its words' BM25, with the turns
    /// around it, and each factor (asks, dated in the named time, says when,
    /// kind, recency); and what the query's names weighed
    #[arg(long)]
    pub explain: bool,
}

impl SearchArgs {
    /// The query text: the words joined by spaces.
    pub fn text(&self) -> String {
        self.query.join(" ")
    }

    /// The validated query over `kinds` (empty: every kind). `verb` names the
    /// command in hints (`track search`).
    pub fn to_query(&self, verb: &str, kinds: Vec<String>) -> Result<Query> {
        let text = self.text();
        if text.trim().is_empty() {
            return Err(Error::invalid_args("the query is empty")
                .with_hint(format!("say what to look for: {verb} \"deploy key\""))
                .with_detail("flag", "QUERY"));
        }
        let bound = |flag: &str, value: &Option<String>| {
            value.as_deref().map(|v| date_bound(flag, v)).transpose()
        };
        Ok(Query {
            text,
            kinds,
            session: filter_value("--session", "session key", &self.session, verb)?,
            tag: filter_value("--tag", "tag", &self.tag, verb)?,
            since: bound("--since", &self.since)?,
            until: bound("--until", &self.until)?,
            limit: usize::from(self.limit),
            now: Some(crate::clock::Clock::from_env()?.now()),
            explain: self.explain,
        })
    }
}

/// A `--session`/`--tag` value (`what` it names: `session key`, `tag`): a
/// blank one would filter every document out and answer "nothing matches",
/// which reads like a finding, not a mistake (an unset shell variable:
/// `--session "$KEY"`).
fn filter_value(
    flag: &str,
    what: &str,
    value: &Option<String>,
    verb: &str,
) -> Result<Option<String>> {
    match value {
        Some(v) if v.trim().is_empty() => Err(Error::invalid_args(format!(
            "{flag} {} is blank: no document has a blank {what}",
            Value::from(v.as_str())
        ))
        .with_hint(format!(
            "give a {what} ({verb} deploy {flag} NAME), or leave {flag} out to search them all"
        ))
        .with_detail("flag", flag)),
        other => Ok(other.clone()),
    }
}

/// A hit's `why` in JSON: the BM25 scores (three decimals) and every factor.
fn why_json(why: &Why) -> Value {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "words": round(why.words),
        "context": why.context.map(round),
        "asks": why.asks,
        "in_window": why.in_window,
        "says_when": why.says_when,
        "boost": round(why.boost),
        "recency": round(why.recency),
    })
}

/// A hit's `why` as one line: `words 1.234 · with context 2.345 · asks ×0.75 …`.
fn why_text(why: &Why) -> String {
    let mut parts = vec![format!("words {:.3}", why.words)];
    if let Some(context) = why.context {
        parts.push(format!("with context {context:.3}"));
    }
    if why.asks {
        parts.push(format!("asks ×{}", rank::ASKING));
    }
    if why.in_window {
        parts.push(format!("in the named time ×{}", rank::IN_WINDOW));
    }
    if why.says_when {
        parts.push(format!("says when ×{}", rank::SAYS_WHEN));
    }
    parts.push(format!("kind ×{:.2}", why.boost));
    parts.push(format!("recency ×{:.2}", why.recency));
    format!("why: {}", parts.join(" · "))
}

/// The names `--explain` reports as JSON: `[{word, share, weighed}]`.
fn names_json(names: &[Named]) -> Value {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    names
        .iter()
        .map(|n| json!({"word": n.word, "share": round(n.share), "weighed": round(n.weighed)}))
        .collect()
}

/// A share of the documents as a percentage: `62%`, `under 1%`.
fn percent(share: f64) -> String {
    if share > 0.0 && share < 0.005 {
        "under 1%".to_string()
    } else {
        format!("{:.0}%", share * 100.0)
    }
}

/// The names `--explain` reports as one line: `names weigh at least what a
/// word in 25% of the documents does: caroline (in 62%) · john (in 3%)`.
fn names_text(names: &[Named]) -> String {
    let each: Vec<String> = names
        .iter()
        .map(|n| format!("{} (in {})", n.word, percent(n.share)))
        .collect();
    format!(
        "why: names weigh at least what a word in {} of the documents does: {}",
        percent(rank::NAMED),
        each.join(" · ")
    )
}

/// The one rendering of search hits. json: `{query, order, hits: [{id,
/// kind, title, session, tags, date, snippet, score, source, …extra}]}`
/// (`order`: `best` by relevance, `newest` for a list of what was said in
/// the time the query names), and with `--explain` the query's `names`;
/// text: a numbered list with the id, what the hit is and its relevance,
/// then the snippet, after a line that says so when the hits are a list by
/// time; `nothing` is said when there is no hit ("No turns match" → `No
/// turns match "query".`). `extra` adds a verb's own fields to each json
/// row (`episode`, `slug` …).
pub fn render_hits(
    query: &str,
    found: &Found,
    style: Style,
    nothing: &str,
    extra: impl Fn(&Hit, &mut Map<String, Value>),
) -> Outcome {
    let hits = &found.hits;
    let mut text = String::new();
    if hits.is_empty() {
        text.push_str(&format!("{nothing} {}.\n", Value::from(query)));
    } else if found.order == Order::Newest {
        text.push_str(&format!(
            "{}\n",
            style.dim("Said in the time the query names, newest first:")
        ));
    }
    if let Some(names) = found.names.as_deref().filter(|n| !n.is_empty()) {
        text.push_str(&format!("{}\n", style.dim(&names_text(names))));
    }
    let mut rows = Vec::with_capacity(hits.len());
    for (i, h) in hits.iter().enumerate() {
        let mut row = json!({
            "id": h.id,
            "kind": h.kind,
            "title": h.title,
            "session": h.session,
            "tags": h.tags,
            "date": h.date,
            "snippet": h.snippet,
            "score": h.score,
            "source": h.source,
        });
        if let Value::Object(map) = &mut row {
            extra(h, map);
            if let Some(why) = &h.why {
                map.insert("why".into(), why_json(why));
            }
        }
        rows.push(row);
        let mut about = vec![h.kind.clone(), h.title.clone(), h.date.clone()];
        about.retain(|s| !s.is_empty());
        text.push_str(&format!(
            "{:>2}. {}  {}  {}\n    {}\n",
            i + 1,
            style.bold(&h.id),
            style.dim(&about.join(" · ")),
            style.cyan(&format!("relevance {:.2}", h.score)),
            h.snippet
        ));
        if let Some(why) = &h.why {
            text.push_str(&format!("    {}\n", style.dim(&why_text(why))));
        }
    }
    let count = rows.len();
    let mut data = json!({"query": query, "order": found.order.name(), "hits": rows});
    if let (Some(names), Value::Object(map)) = (&found.names, &mut data) {
        map.insert("names".into(), names_json(names));
    }
    Outcome::new(data, text).with_meta("count", count)
}
