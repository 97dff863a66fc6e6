//! Plans, the active persona and reminders (foresight), with done,
//! dismiss and snooze.

use super::super::html::{Html, href};
use super::super::page::{Cx, Reply};
use super::super::svg::{self, Span};
use super::Route;
use super::overview::{failed, str_of};
use crate::clock::Time;
use crate::error::Error;
use serde_json::Value;

pub const ROUTES: &[Route] = &[
    ("GET", "/plans", plans),
    ("GET", "/plans/plan", plan),
    ("POST", "/plans/reminder/done", done),
    ("POST", "/plans/reminder/dismiss", dismiss),
    ("POST", "/plans/reminder/snooze", snooze),
];

/// The snooze choices the form offers: what `proactive snooze --until`
/// reads, and how the button says it.
const SNOOZES: [(&str, &str); 4] = [
    ("in 1 hour", "1 hour"),
    ("tomorrow", "tomorrow"),
    ("next week", "next week"),
    ("next month", "next month"),
];

/// Closed items (done, dismissed, expired) listed under the open ones.
const MAX_CLOSED: usize = 20;

/// Open reminders per page.
const PER_PAGE: usize = 25;

fn plans(cx: &Cx) -> Reply {
    let mut body = Html::new();
    flash(cx, &mut body);
    plan_list(cx, &mut body);
    persona(cx, &mut body);
    reminders(cx, &mut body);
    Reply::page("plans", "Plans & reminders", body)
}

/// The line saying what the last change did (after its redirect).
fn flash(cx: &Cx, body: &mut Html) {
    let id = cx.req.query("id").unwrap_or("");
    if cx.req.query("done").is_none() {
        return;
    }
    // Said only when the item agrees: a crafted link cannot show "Marked
    // X done" for an item still open (`proactive list`: open and snoozed).
    let listed = cx.call("proactive", &["list"]).ok();
    let state = listed.as_ref().and_then(|l| {
        l["items"]
            .as_array()?
            .iter()
            .find(|item| item["id"].as_str() == Some(id))
            .map(|item| item["status"].as_str().unwrap_or("").to_string())
    });
    let agrees = match cx.req.query("done") {
        Some("snoozed") => state.as_deref() == Some("snoozed"),
        Some(_) => listed.is_some() && state.is_none(),
        None => false,
    };
    if !agrees {
        return;
    }
    let said = match cx.req.query("done") {
        Some("done") => format!("Marked {id} done."),
        Some("dismissed") => format!("Dismissed {id}."),
        Some("snoozed") => format!("Snoozed {id}."),
        _ => return,
    };
    body.elem("p", &[("class", "flash"), ("role", "status")], &said);
}

/// A plan's `<progress>`: done steps of all.
fn progress(body: &mut Html, progress: &Value) {
    let total = progress["total"].as_u64().unwrap_or(0);
    let finished = progress["done"].as_u64().unwrap_or(0);
    let (done_s, total_s) = (finished.to_string(), total.max(1).to_string());
    let label = format!(
        "{finished} of {total} steps done ({} in progress, {} blocked)",
        str_of(&progress["in_progress"]),
        str_of(&progress["blocked"])
    );
    body.open(
        "progress",
        &[
            ("value", &done_s),
            ("max", &total_s),
            ("aria-label", &label),
        ],
    )
    .text(&format!("{finished}/{total}"))
    .close("progress")
    .raw(" ")
    .elem("span", &[("class", "meta")], &label);
}

fn plan_list(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "plans")])
        .elem("h2", &[("id", "plans")], "Plans");
    match cx.call("plan", &["list"]) {
        Ok(list) => {
            let plans = list["plans"].as_array().cloned().unwrap_or_default();
            if plans.is_empty() {
                body.elem(
                    "p",
                    &[("class", "empty")],
                    "No active plans: `agentbox plan create` makes one.",
                );
            }
            body.raw("<ul class=\"list plans\">");
            for p in &plans {
                let id = str_of(&p["id"]);
                body.open("li", &[("class", "plan"), ("data-id", &id)])
                    .link("/plans/plan", &[("id", &id)], &str_of(&p["title"]))
                    .raw(" ");
                progress(body, &p["progress"]);
                body.close("li");
            }
            body.raw("</ul>");
            for broken in list["broken"].as_array().into_iter().flatten() {
                body.elem(
                    "p",
                    &[("class", "error"), ("role", "alert")],
                    &format!("A plan file cannot be read: {}", str_of(broken)),
                );
            }
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

fn persona(cx: &Cx, body: &mut Html) {
    body.open(
        "section",
        &[("id", "persona"), ("aria-labelledby", "persona-title")],
    )
    .elem("h2", &[("id", "persona-title")], "Persona");
    match cx.call("persona", &["render"]) {
        Ok(rendered) => {
            body.elem(
                "p",
                &[("class", "meta")],
                &format!(
                    "{} (rev {}), as the system prompt gets it:",
                    str_of(&rendered["name"]),
                    str_of(&rendered["rev"])
                ),
            )
            .elem(
                "pre",
                &[("class", "persona")],
                &str_of(&rendered["markdown"]),
            );
        }
        Err(err) if err.kind == crate::error::ErrorType::NotFound => {
            body.elem("p", &[("class", "empty")], &err.message);
            if !err.hint.is_empty() {
                body.elem("p", &[("class", "hint")], &err.hint);
            }
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

/// Whether an item still asks for something (the others are history).
fn is_open(item: &Value) -> bool {
    matches!(
        item["state"].as_str(),
        Some("valid" | "upcoming" | "snoozed")
    )
}

fn seconds(value: &Value) -> Option<i64> {
    value
        .as_str()
        .and_then(|s| Time::parse(s).ok())
        .map(Time::as_second)
}

fn reminders(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "foresight")])
        .elem("h2", &[("id", "foresight")], "Reminders and foresight");
    let page = cx.req.page();
    let offset = (page - 1) * PER_PAGE;
    // One more than a page: whether there is a next one.
    let (offset_s, limit_s) = (offset.to_string(), (PER_PAGE + 1).to_string());
    let list = match cx.call(
        "proactive",
        &["list", "--offset", &offset_s, "--limit", &limit_s],
    ) {
        Ok(list) => list,
        Err(err) => {
            failed(body, &err);
            body.close("section");
            return;
        }
    };
    let mut open = list["items"].as_array().cloned().unwrap_or_default();
    let more = open.len() > PER_PAGE;
    open.truncate(PER_PAGE);
    due_now(cx, body);
    if open.is_empty() && page == 1 {
        body.elem(
            "p",
            &[("class", "empty")],
            "Nothing to bring up: `agentbox proactive add` adds a reminder.",
        );
    } else if !open.is_empty() {
        let spans: Vec<Span> = open
            .iter()
            .filter_map(|i| {
                let start = seconds(&i["valid_from"])?;
                let end = seconds(&i["valid_until"])?;
                let class = match i["state"].as_str() {
                    Some("upcoming") => "upcoming",
                    Some("snoozed") => "snoozed",
                    _ => "valid",
                };
                Some(Span {
                    label: str_of(&i["text"]),
                    start,
                    end,
                    due: seconds(&i["due"]),
                    class,
                })
            })
            .collect();
        let now = cx.clock.now().as_second();
        // svg::timeline makes every label inert itself.
        body.svg(svg::timeline(
            "Foresight: each open item's window, due times as dots",
            now,
            &spans,
        ));
    }
    body.raw("<ul class=\"list reminders\">");
    for item in &open {
        reminder(body, item, true);
    }
    body.raw("</ul>");
    super::pager(body, "/plans", &[], page, more);
    // After the last open item: the latest closed ones (`--all` lists them
    // after every open one).
    if !more {
        let skip = (offset + open.len()).to_string();
        let closed_s = MAX_CLOSED.to_string();
        if let Ok(rest) = cx.call(
            "proactive",
            &["list", "--all", "--offset", &skip, "--limit", &closed_s],
        ) {
            let closed: Vec<&Value> = rest["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|i| !is_open(i))
                .collect();
            if !closed.is_empty() {
                body.elem("h3", &[], "Done, dismissed and expired")
                    .raw("<ul class=\"list reminders closed\">");
                for item in closed {
                    reminder(body, item, false);
                }
                body.raw("</ul>");
            }
        }
    }
    body.close("section");
}

/// What `proactive due` brings up now.
fn due_now(cx: &Cx, body: &mut Html) {
    match cx.call("proactive", &["due"]) {
        Ok(due) => {
            let items = due["items"].as_array().cloned().unwrap_or_default();
            if !items.is_empty() {
                body.open("p", &[("class", "due-now")]).text(&format!(
                    "Due by {}: {}",
                    str_of(&due["until"]),
                    due_line(&items)
                ));
                body.close("p");
            }
        }
        Err(err) => failed(body, &err),
    }
}

/// The first few due items' texts, and how many more there are.
fn due_line(items: &[Value]) -> String {
    const SHOWN: usize = 5;
    let mut line = items
        .iter()
        .take(SHOWN)
        .map(|i| str_of(&i["text"]))
        .collect::<Vec<_>>()
        .join(" · ");
    if items.len() > SHOWN {
        line.push_str(&format!(" · and {} more", items.len() - SHOWN));
    }
    line
}

/// One item, with its buttons when it is open.
fn reminder(body: &mut Html, item: &Value, actions: bool) {
    let id = str_of(&item["id"]);
    let state = str_of(&item["state"]);
    body.open(
        "li",
        &[("class", &format!("reminder {state}")), ("data-id", &id)],
    )
    .elem("span", &[("class", "text")], &str_of(&item["text"]))
    .raw(" <span class=\"meta\">");
    let mut meta = vec![state.clone()];
    if !item["due"].is_null() {
        meta.push(format!("due {}", str_of(&item["due"])));
    }
    meta.push(format!(
        "window {} – {}",
        str_of(&item["valid_from"]),
        str_of(&item["valid_until"])
    ));
    if !item["snoozed_until"].is_null() {
        meta.push(format!("snoozed until {}", str_of(&item["snoozed_until"])));
    }
    body.text(&meta.join(" · ")).raw("</span> ");
    body.elem("code", &[], &id);
    if actions {
        body.raw("<div class=\"reminder-actions\">");
        for (path, label) in [
            ("/plans/reminder/done", "Done"),
            ("/plans/reminder/dismiss", "Dismiss"),
        ] {
            body.open(
                "form",
                &[("method", "post"), ("action", path), ("class", "inline")],
            )
            .open(
                "input",
                &[("type", "hidden"), ("name", "id"), ("value", &id)],
            )
            .open("button", &[("type", "submit")])
            .text(label)
            .close("button")
            .close("form");
        }
        body.open(
            "form",
            &[
                ("method", "post"),
                ("action", "/plans/reminder/snooze"),
                ("class", "inline"),
            ],
        )
        .open(
            "input",
            &[("type", "hidden"), ("name", "id"), ("value", &id)],
        )
        .open(
            "select",
            &[("name", "until"), ("aria-label", "Snooze until")],
        );
        for (value, label) in SNOOZES {
            body.elem("option", &[("value", value)], label);
        }
        body.close("select")
            .raw("<button type=\"submit\" class=\"secondary\">Snooze</button>")
            .close("form")
            .raw("</div>");
    }
    body.close("li");
}

fn plan(cx: &Cx) -> Reply {
    let Some(id) = cx.req.query("id").filter(|id| !id.is_empty()) else {
        return Reply::error(
            "plans",
            &Error::invalid_args("which plan? the address needs ?id=…")
                .with_hint("pick one from the Plans page"),
        );
    };
    let shown = match cx.call_with("plan", &["show"], &[], &[id]) {
        Ok(plan) => plan,
        Err(err) => return Reply::error("plans", &err),
    };
    let mut body = Html::new();
    body.open("p", &[("class", "meta")]).text(&format!(
        "{} · version {} · updated {}",
        str_of(&shown["status"]),
        str_of(&shown["version"]),
        str_of(&shown["updated"])
    ));
    body.close("p").open("p", &[]);
    progress(&mut body, &shown["progress"]);
    body.close("p").raw("<ol class=\"steps\">");
    for step in shown["steps"].as_array().into_iter().flatten() {
        let status = str_of(&step["status"]);
        body.open("li", &[("class", &format!("step {status}"))])
            .elem("span", &[("class", "text")], &str_of(&step["text"]))
            .raw(" ")
            .elem("span", &[("class", &format!("status {status}"))], &status);
        if !step["note"].is_null() {
            body.elem("p", &[("class", "note")], &str_of(&step["note"]));
        }
        body.close("li");
    }
    body.raw("</ol>")
        .open("p", &[])
        .link("/plans", &[], "← plans and reminders")
        .close("p");
    Reply::page("plans", str_of(&shown["title"]), body)
}

/// The `id` field of a reminder's form.
fn form_id<'a>(cx: &'a Cx) -> std::result::Result<&'a str, Reply> {
    cx.req
        .field("id")
        .filter(|id| !id.is_empty())
        .ok_or_else(|| {
            Reply::error(
                "plans",
                &Error::invalid_args("the form names no reminder (field id)")
                    .with_hint("use the buttons next to a reminder on the Plans page"),
            )
        })
}

/// Done or dismiss: an item that already was is a stale page (`conflict`).
fn close(cx: &Cx, verb: &'static str, was: &'static str) -> Reply {
    let id = match form_id(cx) {
        Ok(id) => id,
        Err(reply) => return reply,
    };
    match cx.call_with("proactive", &[verb], &[], &[id]) {
        Ok(data) => {
            if let Some(same) = data["unchanged"].as_array().and_then(|u| u.first()) {
                let same = str_of(same);
                return Reply::error(
                    "plans",
                    &Error::conflict(format!("{same} is already {was}"))
                        .with_hint("the page was older than the item: reload it")
                        .with_detail("id", same),
                );
            }
            let changed = data["changed"][0].as_str().unwrap_or(id);
            Reply::Redirect(href("/plans", &[("done", was), ("id", changed)]))
        }
        Err(err) => Reply::error("plans", &err),
    }
}

fn done(cx: &Cx) -> Reply {
    close(cx, "done", "done")
}

fn dismiss(cx: &Cx) -> Reply {
    close(cx, "dismiss", "dismissed")
}

fn snooze(cx: &Cx) -> Reply {
    let id = match form_id(cx) {
        Ok(id) => id,
        Err(reply) => return reply,
    };
    let Some(until) = cx.req.field("until").filter(|u| !u.trim().is_empty()) else {
        return Reply::error(
            "plans",
            &Error::invalid_args("snooze until when? (field until)")
                .with_hint("pick a time in the Snooze menu"),
        );
    };
    match cx.call_with("proactive", &["snooze"], &[("--until", until)], &[id]) {
        Ok(data) => {
            let snoozed = data["item"]["id"].as_str().unwrap_or(id);
            Reply::Redirect(href("/plans", &[("done", "snoozed"), ("id", snoozed)]))
        }
        Err(err) => Reply::error("plans", &err),
    }
}
