//! Memory: what the agent remembers, as a person reviews it. Sessions and
//! their episodes, paginated through `track list --offset` (`/memory`);
//! an episode as a timeline of turns with its tool calls, their durations
//! and errors, and the odek run it was imported from (`episode`); search
//! across every kind with the matches highlighted (`search`); notes with
//! their revisions and claim conflicts, and the profile facts with the
//! proposals that added them (`notes`).

mod episode;
mod notes;
mod search;

use super::overview::{failed, str_of};
use super::{Route, pager};
use crate::view::html::Html;
use crate::view::page::{Cx, Reply};
use serde_json::Value;

pub const ROUTES: &[Route] = &[
    ("GET", "/memory", episodes),
    ("GET", "/memory/episode", episode::episode),
    ("GET", "/memory/search", search::search),
    ("GET", "/memory/notes", notes::notes),
    ("GET", "/memory/note", notes::note),
    ("GET", "/memory/profile", notes::profile),
];

/// Episodes on one page of `/memory`.
const EPISODES_PER_PAGE: usize = 25;

/// The parts of Memory, under the page title.
const PARTS: [(&str, &str); 4] = [
    ("/memory", "Episodes"),
    ("/memory/search", "Search"),
    ("/memory/notes", "Notes"),
    ("/memory/profile", "Profile"),
];

/// The navigation between the parts of Memory; `current` is a path of
/// [`PARTS`]: the page itself (`aria-current="page"`), or the part a page
/// under it belongs to (an episode, a note: `aria-current="true"`).
fn parts(body: &mut Html, current: &str, exact: bool) {
    body.raw("<nav class=\"parts\" aria-label=\"Memory\">");
    for (path, label) in PARTS {
        if path == current {
            let value = if exact { "page" } else { "true" };
            body.open("a", &[("href", path), ("aria-current", value)]);
        } else {
            body.open("a", &[("href", path)]);
        }
        body.text(label).close("a");
    }
    body.raw("</nav>");
}

/// A request value, trimmed; `None` when absent or blank.
fn value<'a>(cx: &'a Cx, name: &str) -> Option<&'a str> {
    cx.req.query(name).map(str::trim).filter(|v| !v.is_empty())
}

/// A page number as a verb's word: ours, formatted here.
fn number(n: usize) -> String {
    n.to_string()
}

/// `/memory[?session=S][&page=N]`: the episodes, newest first, a page at a
/// time; a session's name narrows to its episodes.
fn episodes(cx: &Cx) -> Reply {
    let page = cx.req.page();
    let session = value(cx, "session");
    let mut body = Html::new();
    parts(&mut body, "/memory", true);
    search::form(&mut body, "", session.unwrap_or(""), "");
    let offset = number((page - 1).saturating_mul(EPISODES_PER_PAGE));
    // One more than a page: whether there is a next one, without a count.
    let limit = number(EPISODES_PER_PAGE + 1);
    let values: Vec<(&str, &str)> = session.map(|s| ("--session", s)).into_iter().collect();
    let listed = cx.call_with(
        "track",
        &["list", "--limit", &limit, "--offset", &offset],
        &values,
        &[],
    );
    let title = match session {
        Some(s) => format!("Memory: session {s}"),
        None => "Memory".to_string(),
    };
    let list = match listed {
        Ok(list) => list,
        Err(err) if session.is_some() => return Reply::error("memory", &err),
        Err(err) => {
            failed(&mut body, &err);
            return Reply::page("memory", title, body);
        }
    };
    let rows = list["episodes"].as_array().cloned().unwrap_or_default();
    let more = rows.len() > EPISODES_PER_PAGE;
    body.open("section", &[("aria-labelledby", "episodes")]);
    body.elem("h2", &[("id", "episodes")], "Episodes");
    if let Some(s) = session {
        body.raw("<p class=\"meta\">Only session ")
            .elem("strong", &[], s)
            .raw(" · ")
            .link("/memory", &[], "every session")
            .raw("</p>");
    }
    if rows.is_empty() {
        let empty = if page > 1 {
            "No episodes on this page."
        } else {
            "Nothing recorded yet: `track record` or an MCP host's mem_save_turn adds turns."
        };
        body.elem("p", &[("class", "empty")], empty);
    } else {
        episode_table(&mut body, &rows[..rows.len().min(EPISODES_PER_PAGE)]);
    }
    pager(
        &mut body,
        "/memory",
        &[("session", session.unwrap_or(""))],
        page,
        more,
    );
    body.close("section");
    Reply::page("memory", title, body)
}

fn episode_table(body: &mut Html, rows: &[Value]) {
    body.raw(
        "<table class=\"episodes\"><thead><tr><th scope=\"col\">Episode</th>\
              <th scope=\"col\">Session</th><th scope=\"col\">Turns</th>\
              <th scope=\"col\">When</th></tr></thead><tbody>",
    );
    for ep in rows {
        let id = str_of(&ep["id"]);
        let session = str_of(&ep["session"]);
        let mut title = str_of(&ep["title"]);
        if title.trim().is_empty() {
            title = id.clone();
        }
        body.open("tr", &[("data-id", &id)]).raw("<td>");
        body.link("/memory/episode", &[("id", &id)], &title);
        body.elem("div", &[("class", "meta id")], &id);
        body.raw("</td><td>")
            .link("/memory", &[("session", &session)], &session)
            .raw("</td><td>")
            .text(&str_of(&ep["turns"]));
        if ep["state"] == "open" {
            body.raw(" <span class=\"badge\">open</span>");
        }
        if ep["broken_lines"].as_u64().is_some_and(|n| n > 0) {
            body.elem(
                "span",
                &[("class", "badge bad")],
                &format!("{} broken", str_of(&ep["broken_lines"])),
            );
        }
        body.raw("</td><td>")
            .text(&span_of(&ep["first_ts"], &ep["last_ts"]))
            .raw("</td></tr>");
    }
    body.raw("</tbody></table>");
}

/// `first – last`, or one time when they are the same.
fn span_of(first: &Value, last: &Value) -> String {
    let (first, last) = (str_of(first), str_of(last));
    if first == last || last.is_empty() {
        first
    } else if first.is_empty() {
        last
    } else {
        format!("{first} – {last}")
    }
}
