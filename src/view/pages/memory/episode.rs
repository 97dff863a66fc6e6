//! `/memory/episode?id=EP[&turn=N][&page=N]`: one episode as a timeline of
//! turns. `track show` reads the whole episode (a file is at most
//! `limits.max_item_bytes`), the page shows [`TURNS_PER_PAGE`] of its turns
//! at a time; `turn=N` (or a turn's id, `EP#N`, as the id) opens the page
//! that holds turn N and marks it.
//! Tool calls carry what is known of them: an imported odek call its
//! duration and error class, a recorded call the turn that answered it and
//! how long after.

use super::{pager, str_of, value};
use crate::clock::Time;
use crate::error::Error;
use crate::view::html::Html;
use crate::view::page::{Cx, Reply};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Turns shown on one page of an episode: a 400-turn episode is two pages.
pub(super) const TURNS_PER_PAGE: usize = 200;

/// The roles a turn can have, each a class of its `li` (anything else in a
/// hand-edited file is `other`).
const ROLES: [&str; 4] = ["user", "assistant", "system", "tool"];

/// Meta keys shown elsewhere (or of no use to a reader).
const QUIET_META: [&str; 7] = [
    "event",
    "run_id",
    "call_id",
    "args_sha256",
    "failed",
    "unfinished",
    "orphan",
];

pub(super) fn episode(cx: &Cx) -> Reply {
    let Some(id) = value(cx, "id") else {
        let err = Error::invalid_args("which episode? The address names none")
            .with_hint("open an episode from the list at /memory (the address ends in ?id=ep-…)");
        return Reply::error("memory", &err);
    };
    let shown = match cx.call_with("track", &["show"], &[], &[id]) {
        Ok(shown) => shown,
        Err(err) => return Reply::error("memory", &err),
    };
    let summary = &shown["episode"];
    let episode_id = str_of(&summary["id"]);
    let turns = shown["turns"].as_array().cloned().unwrap_or_default();
    // `turn=N`, or a turn's id as the id (`EP#N`, as search hits and
    // evolve's evidence name turns): that turn is marked and its page opened.
    let focus: Option<u64> = cx
        .req
        .query("turn")
        .or_else(|| id.rsplit_once('#').map(|(_, seq)| seq))
        .and_then(|t| t.trim().parse().ok());
    let pages = turns.len().div_ceil(TURNS_PER_PAGE).max(1);
    let page = match (cx.req.query("page"), focus) {
        (None, Some(seq)) => turns
            .iter()
            .position(|t| t["seq"].as_u64() == Some(seq))
            .map_or(1, |i| i / TURNS_PER_PAGE + 1),
        _ => cx.req.page(),
    };

    let mut body = Html::new();
    super::parts(&mut body, "/memory", false);
    header(&mut body, summary, &turns);
    let from = (page - 1).saturating_mul(TURNS_PER_PAGE).min(turns.len());
    let to = (from + TURNS_PER_PAGE).min(turns.len());
    body.open("section", &[("aria-labelledby", "turns")]);
    body.elem("h2", &[("id", "turns")], "Turns");
    if turns.len() > TURNS_PER_PAGE {
        body.elem(
            "p",
            &[("class", "meta")],
            &format!(
                "Turns {}–{} of {} (page {page} of {pages}).",
                from + 1,
                to,
                turns.len()
            ),
        );
    }
    if turns.is_empty() {
        body.elem(
            "p",
            &[("class", "empty")],
            "This episode has no readable turns.",
        );
    }
    let answers = Answers::of(&turns);
    if from < to {
        let start = (from + 1).to_string();
        body.open("ol", &[("class", "timeline"), ("start", &start)]);
        for turn in &turns[from..to] {
            one_turn(&mut body, turn, &answers, focus);
        }
        body.close("ol");
    } else if !turns.is_empty() {
        body.elem("p", &[("class", "empty")], "No turns on this page.");
    }
    pager(
        &mut body,
        "/memory/episode",
        &[("id", &episode_id)],
        page,
        to < turns.len(),
    );
    body.close("section");
    broken(&mut body, &shown["broken"]);
    Reply::page("memory", format!("Episode {episode_id}"), body)
}

/// What the episode is: session, state, times, and the odek run it was
/// imported from.
fn header(body: &mut Html, summary: &Value, turns: &[Value]) {
    let session = str_of(&summary["session"]);
    body.open(
        "section",
        &[("class", "episode"), ("aria-labelledby", "about")],
    );
    let mut title = str_of(&summary["title"]);
    if title.trim().is_empty() {
        title = "(no text)".to_string();
    }
    body.elem("h2", &[("id", "about")], &title);
    body.raw("<dl class=\"facts\">");
    body.raw("<div><dt>Session</dt><dd>")
        .link("/memory", &[("session", &session)], &session)
        .raw("</dd></div>");
    let mut pair = |label: &'static str, text: String| {
        body.raw("<div>")
            .elem("dt", &[], label)
            .elem("dd", &[], &text)
            .raw("</div>");
    };
    pair("State", str_of(&summary["state"]));
    pair("Turns", str_of(&summary["turns"]));
    pair(
        "When",
        super::span_of(&summary["first_ts"], &summary["last_ts"]),
    );
    pair("File", str_of(&summary["path"]));
    if let Some(run) = imported_run(turns) {
        pair("Imported odek run", run.id);
        pair(
            "Tool calls",
            format!(
                "{} ({} failed, {} unfinished)",
                run.calls, run.failed, run.unfinished
            ),
        );
        if let Some(outcome) = run.outcome {
            pair("Outcome", outcome);
        }
    }
    body.raw("</dl>");
    body.elem("p", &[("class", "meta id")], &str_of(&summary["id"]));
    body.close("section");
}

/// An odek run as `track import` stored it (`source: import`, `meta.event`).
struct Run {
    id: String,
    calls: usize,
    failed: usize,
    unfinished: usize,
    outcome: Option<String>,
}

fn imported_run(turns: &[Value]) -> Option<Run> {
    let first = turns.iter().find(|t| t["source"] == "import")?;
    let mut run = Run {
        id: str_of(&first["meta"]["run_id"]),
        calls: 0,
        failed: 0,
        unfinished: 0,
        outcome: None,
    };
    for turn in turns.iter().filter(|t| t["source"] == "import") {
        let meta = &turn["meta"];
        match meta["event"].as_str() {
            Some("tool_call") => {
                run.calls += 1;
                run.failed += usize::from(meta["failed"] == true);
                run.unfinished += usize::from(meta["unfinished"] == true);
            }
            Some("run_completed" | "run_failed") => {
                run.outcome = Some(str_of(&turn["content"]));
            }
            _ => {}
        }
    }
    Some(run)
}

/// The turns that answer calls (`tool_call_id`), by call id: their seq
/// and time, in file order.
struct Answers {
    by_call: HashMap<String, Vec<(u64, String)>>,
}

impl Answers {
    fn of(turns: &[Value]) -> Answers {
        let mut by_call: HashMap<String, Vec<(u64, String)>> = HashMap::new();
        for turn in turns {
            if let Some(call) = turn["tool_call_id"].as_str() {
                by_call
                    .entry(call.to_string())
                    .or_default()
                    .push((turn["seq"].as_u64().unwrap_or(0), str_of(&turn["ts"])));
            }
        }
        Answers { by_call }
    }

    /// The first turn after `seq` that answers `call` (a call id may come
    /// back in a later exchange of the same episode).
    fn after(&self, call: &str, seq: u64) -> Option<&(u64, String)> {
        self.by_call.get(call)?.iter().find(|(at, _)| *at > seq)
    }
}

fn one_turn(body: &mut Html, turn: &Value, answers: &Answers, focus: Option<u64>) {
    let role = str_of(&turn["role"]);
    let class = ROLES
        .iter()
        .find(|r| **r == role)
        .copied()
        .unwrap_or("other");
    let seq = turn["seq"].as_u64().unwrap_or(0);
    let anchor = format!("turn-{seq}");
    let mut classes = format!("turn {class}");
    if focus == Some(seq) {
        classes.push_str(" focus");
    }
    let meta = turn["meta"].as_object().cloned().unwrap_or_default();
    if meta.get("failed") == Some(&Value::Bool(true)) {
        classes.push_str(" failed");
    }
    body.open("li", &[("class", &classes), ("id", &anchor)]);
    body.raw("<div class=\"turn-head\">")
        .elem("span", &[("class", "role")], &role)
        .elem("span", &[("class", "seq")], &format!("#{seq}"))
        .elem(
            "time",
            &[("datetime", &str_of(&turn["ts"]))],
            &str_of(&turn["ts"]),
        );
    if turn["source"] == "import" {
        body.raw("<span class=\"badge\">imported</span>");
    }
    if let Some(call) = turn["tool_call_id"].as_str() {
        body.elem(
            "span",
            &[("class", "meta")],
            &format!("→ result for call {call}"),
        );
    }
    body.raw("</div>");
    let content = str_of(&turn["content"]);
    if !content.is_empty() {
        body.elem("pre", &[("class", "content")], &content);
    }
    let calls = turn["tool_calls"].as_array().cloned().unwrap_or_default();
    if !calls.is_empty() {
        body.raw("<ul class=\"tool-calls\">");
        for call in &calls {
            tool_call(body, turn, call, &meta, answers, calls.len() == 1);
        }
        body.raw("</ul>");
    }
    // An imported call's duration and error are shown on the call.
    let on_call: &[&str] = if calls.is_empty() {
        &[]
    } else {
        &["duration_ms", "error_class"]
    };
    other_meta(body, &meta, on_call);
    body.close("li");
}

/// One call: name, id, arguments, and its duration and error when known.
fn tool_call(
    body: &mut Html,
    turn: &Value,
    call: &Value,
    meta: &Map<String, Value>,
    answers: &Answers,
    only: bool,
) {
    let id = str_of(&call["id"]);
    // An imported call's facts are the turn's meta (`call_id` names the call).
    let own = meta.get("call_id").and_then(Value::as_str) == Some(id.as_str())
        || (only && meta.get("event").and_then(Value::as_str) == Some("tool_call"));
    let failed = own && meta.get("failed") == Some(&Value::Bool(true));
    body.open(
        "li",
        &[(
            "class",
            if failed {
                "tool-call failed"
            } else {
                "tool-call"
            },
        )],
    );
    body.raw("<span class=\"call\">⚙ ")
        .elem("code", &[("class", "name")], &str_of(&call["name"]));
    if !id.is_empty() {
        body.elem("span", &[("class", "meta")], &format!(" [{id}]"));
    }
    body.raw("</span>");
    if own && let Some(ms) = meta.get("duration_ms").and_then(Value::as_u64) {
        body.elem("span", &[("class", "duration")], &format!("{ms} ms"));
    }
    if failed {
        let class = meta.get("error_class").map(str_of).unwrap_or_default();
        body.elem(
            "span",
            &[("class", "error")],
            &format!(
                "failed ({})",
                if class.is_empty() {
                    "no error class"
                } else {
                    &class
                }
            ),
        );
    }
    if own && meta.get("unfinished") == Some(&Value::Bool(true)) {
        body.elem("span", &[("class", "error")], "started, never finished");
    }
    if own && meta.get("orphan") == Some(&Value::Bool(true)) {
        body.elem(
            "span",
            &[("class", "warn")],
            "finished, its start is missing",
        );
    }
    // A recorded call: the turn that answered it, and how long after.
    let answer = answers.after(&id, turn["seq"].as_u64().unwrap_or(0));
    if let Some((seq, ts)) = answer {
        body.raw(" ");
        let target = format!("#turn-{seq}");
        body.open("a", &[("href", &target)])
            .text(&format!("answered in #{seq}"))
            .close("a");
        if let Some(after) = seconds_between(&str_of(&turn["ts"]), ts) {
            body.elem(
                "span",
                &[("class", "duration")],
                &format!("after {after} s"),
            );
        }
    }
    let arguments = &call["arguments"];
    if !arguments.is_null() && arguments != &Value::Object(Map::new()) {
        let text = serde_json::to_string(arguments).unwrap_or_default();
        body.elem("pre", &[("class", "args")], &text);
    }
    body.close("li");
}

/// Whole seconds from `from` to `to` when both are times and it is
/// positive.
fn seconds_between(from: &str, to: &str) -> Option<i64> {
    let (from, to) = (Time::parse(from).ok()?, Time::parse(to).ok()?);
    let after = to.as_second() - from.as_second();
    (after > 0).then_some(after)
}

/// The rest of a turn's meta (an import's model, tokens, budget…), as
/// `key value` pairs.
fn other_meta(body: &mut Html, meta: &Map<String, Value>, shown_already: &[&str]) {
    let shown: Vec<String> = meta
        .iter()
        .filter(|(k, _)| !QUIET_META.contains(&k.as_str()) && !shown_already.contains(&k.as_str()))
        .map(|(k, v)| format!("{k} {}", str_of(v)))
        .collect();
    if !shown.is_empty() {
        body.elem("p", &[("class", "meta turn-meta")], &shown.join(" · "));
    }
}

/// Lines of the file that are not turns: shown, never hidden.
fn broken(body: &mut Html, broken: &Value) {
    let lines = broken.as_array().cloned().unwrap_or_default();
    if lines.is_empty() {
        return;
    }
    body.open("section", &[("aria-labelledby", "broken")]);
    body.elem(
        "h2",
        &[("id", "broken")],
        &format!("{} line(s) that are not turns", lines.len()),
    );
    body.raw("<ul class=\"list\">");
    for line in &lines {
        body.elem(
            "li",
            &[],
            &format!(
                "line {}: {}",
                str_of(&line["line"]),
                str_of(&line["message"])
            ),
        );
    }
    body.raw("</ul>");
    body.close("section");
}
