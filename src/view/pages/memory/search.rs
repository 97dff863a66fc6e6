//! `/memory/search?q=Q[&session=S][&kind=K][&page=N]`: `agentbox search`
//! over every kind (turns, notes, facts, skills, personas), the query's
//! words marked in each hit, each hit a link to where it lives. The query
//! is an operand and the session and kind are values of the verb: nothing
//! a request brings is read as a flag.

use super::{failed, pager, str_of, value};
use crate::error::Error;
use crate::view::html::Html;
use crate::view::page::{Cx, Reply, status_of};
use serde_json::Value;

/// Hits on one page.
const HITS_PER_PAGE: usize = 10;
/// The most hits `search --limit` gives.
const MOST_HITS: usize = 50;

/// The kinds a search can narrow to, with their labels.
const KINDS: [(&str, &str); 6] = [
    ("", "everything"),
    ("turn", "turns"),
    ("note", "notes"),
    ("fact", "profile facts"),
    ("skill", "skills"),
    ("persona", "personas"),
];

/// Words a query has that mark nothing worth seeing.
const STOP: [&str; 24] = [
    "the", "and", "for", "are", "was", "were", "what", "when", "who", "how", "why", "did", "does",
    "you", "your", "our", "that", "this", "with", "from", "have", "has", "not", "but",
];

/// The search form: `form.search` with `input#q[name=q]`, the session and
/// kind to narrow, and a submit button.
pub(super) fn form(body: &mut Html, q: &str, session: &str, kind: &str) {
    body.raw("<form class=\"search\" method=\"get\" action=\"/memory/search\" role=\"search\">");
    body.raw("<label class=\"visually-hidden\" for=\"q\">Search memory</label>");
    body.open(
        "input",
        &[
            ("type", "search"),
            ("id", "q"),
            ("name", "q"),
            ("value", q),
            ("placeholder", "Search turns, notes, facts…"),
        ],
    );
    body.raw("<label class=\"visually-hidden\" for=\"session\">Session</label>");
    body.open(
        "input",
        &[
            ("type", "text"),
            ("id", "session"),
            ("name", "session"),
            ("value", session),
            ("placeholder", "any session"),
            ("size", "14"),
        ],
    );
    body.raw("<label class=\"visually-hidden\" for=\"kind\">Kind</label>");
    body.raw("<select id=\"kind\" name=\"kind\">");
    for (value, label) in KINDS {
        if value == kind {
            body.open("option", &[("value", value), ("selected", "selected")]);
        } else {
            body.open("option", &[("value", value)]);
        }
        body.text(label).close("option");
    }
    body.raw("</select><button type=\"submit\">Search</button></form>");
}

/// The words of a query worth marking in a hit.
fn words_of(q: &str) -> Vec<String> {
    let mut words: Vec<String> = q
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 2 && !STOP.contains(&w.as_str()))
        .collect();
    words.sort();
    words.dedup();
    words
}

pub(super) fn search(cx: &Cx) -> Reply {
    let q = cx.req.query("q").unwrap_or("").trim();
    let session = value(cx, "session");
    let kind = value(cx, "kind").unwrap_or("");
    let page = cx.req.page();
    let mut body = Html::new();
    super::parts(&mut body, "/memory/search", true);
    form(&mut body, q, session.unwrap_or(""), kind);
    let title = if q.is_empty() {
        "Search memory".to_string()
    } else {
        format!("Search: {q}")
    };
    if q.is_empty() {
        body.elem(
            "p",
            &[("class", "hint")],
            "Keywords or a question: turns, notes, profile facts, skills and personas are searched at once.",
        );
        return Reply::page("memory", title, body);
    }
    let shown_to = page.saturating_mul(HITS_PER_PAGE);
    let limit = (shown_to + 1).min(MOST_HITS).to_string();
    let mut values: Vec<(&str, &str)> = Vec::new();
    if let Some(s) = session {
        values.push(("--session", s));
    }
    if !kind.is_empty() {
        values.push(("--kind", kind));
    }
    if !KINDS.iter().any(|(k, _)| *k == kind) {
        let err = Error::invalid_args(format!("{kind:?} is not a kind of memory"))
            .with_hint("choose one in the list: turns, notes, profile facts, skills or personas");
        failed(&mut body, &err);
        return Reply::Page {
            status: status_of(err.kind),
            section: "memory",
            title,
            body,
        };
    }
    let found = match cx.call_with("search", &["--limit", &limit], &values, &[q]) {
        Ok(found) => found,
        Err(err) => {
            // The form stays, so the request can be mended in place.
            failed(&mut body, &err);
            return Reply::Page {
                status: status_of(err.kind),
                section: "memory",
                title,
                body,
            };
        }
    };
    let hits = found["hits"].as_array().cloned().unwrap_or_default();
    let from = (page - 1).saturating_mul(HITS_PER_PAGE).min(hits.len());
    let to = shown_to.min(hits.len());
    let more = hits.len() > shown_to && shown_to < MOST_HITS;
    body.open("section", &[("aria-labelledby", "results")]);
    body.elem("h2", &[("id", "results")], "Results");
    if found["order"] == "newest" {
        body.elem(
            "p",
            &[("class", "meta")],
            "Said in the time the query names, newest first.",
        );
    }
    if hits.is_empty() {
        body.elem("p", &[("class", "empty")], "Nothing matches.");
    } else if from >= to {
        body.elem("p", &[("class", "empty")], "No more hits on this page.");
    }
    let words = words_of(q);
    if from < to {
        let start = (from + 1).to_string();
        body.open("ol", &[("id", "hits"), ("start", &start)]);
        for hit in &hits[from..to] {
            one_hit(&mut body, hit, &words);
        }
        body.close("ol");
    }
    pager(
        &mut body,
        "/memory/search",
        &[("q", q), ("session", session.unwrap_or("")), ("kind", kind)],
        page,
        more,
    );
    if to == MOST_HITS && hits.len() >= MOST_HITS {
        body.elem(
            "p",
            &[("class", "hint")],
            "The 50 best hits are shown: more words, a session or a kind narrow the search.",
        );
    }
    body.close("section");
    Reply::page("memory", title, body)
}

fn one_hit(body: &mut Html, hit: &Value, words: &[String]) {
    let id = str_of(&hit["id"]);
    let kind = str_of(&hit["kind"]);
    body.open(
        "li",
        &[("class", "hit"), ("data-kind", &kind), ("data-id", &id)],
    );
    let title = str_of(&hit["title"]);
    body.raw("<div class=\"hit-head\">");
    match kind.as_str() {
        "turn" => {
            let (episode, seq) = id.rsplit_once('#').unwrap_or((id.as_str(), ""));
            let mut query = vec![("id", episode)];
            if !seq.is_empty() {
                query.push(("turn", seq));
            }
            body.link("/memory/episode", &query, &title);
        }
        "note" => {
            let slug = id.strip_prefix("note:").unwrap_or(&id);
            body.link("/memory/note", &[("id", slug)], &title);
        }
        "fact" => {
            body.link("/memory/profile", &[], &format!("{title}: profile"));
        }
        "skill" => {
            let name = id.strip_prefix("skill:").unwrap_or(&id);
            body.link("/skills/skill", &[("name", name)], &title);
        }
        "persona" => {
            body.link("/plans", &[], &title);
        }
        _ => {
            body.text(&title);
        }
    }
    let mut meta = vec![kind.clone()];
    if kind == "turn" {
        meta.push(id.clone());
    }
    if let Some(session) = hit["session"].as_str() {
        meta.push(format!("session {session}"));
    }
    meta.push(str_of(&hit["date"]));
    meta.push(format!("relevance {}", str_of(&hit["score"])));
    body.elem("span", &[("class", "meta")], &meta.join(" · "));
    body.raw("</div><p class=\"snippet\">");
    body.marked(&str_of(&hit["snippet"]), words);
    body.raw("</p></li>");
}
