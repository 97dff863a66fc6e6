//! Overview: counts, recent sessions, what is due, the doctor's verdict,
//! sync's state.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::super::svg;
use super::Route;
use crate::error::ErrorType;
use serde_json::Value;

pub const ROUTES: &[Route] = &[("GET", "/", overview)];

/// Days the activity chart covers.
const DAYS: &str = "14";

fn overview(cx: &Cx) -> Reply {
    let mut body = Html::new();
    let activity = cx.call("track", &["activity", "--days", DAYS, "--sessions", "8"]);
    counts(cx, &mut body, activity.as_ref().ok());
    chart(&mut body, &activity);
    body.raw("<div class=\"grid\">");
    recent(cx, &mut body);
    foresight(cx, &mut body);
    doctor(cx, &mut body);
    sync(cx, &mut body);
    body.raw("</div>");
    Reply::page("overview", "Overview", body)
}

/// `s` as text: a string as is, anything else as JSON.
pub fn str_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A verb's error, inline in a section.
pub fn failed(body: &mut Html, err: &crate::error::Error) {
    body.open("p", &[("class", "error"), ("role", "alert")])
        .text(&err.message)
        .close("p");
    if !err.hint.is_empty() {
        let hint = &err.hint;
        body.elem("p", &[("class", "hint")], hint);
    }
}

/// How much the home holds: turns and sessions from the index's
/// activity totals (never the episode files), then the other tools' lists.
fn counts(cx: &Cx, body: &mut Html, activity: Option<&Value>) {
    body.open("section", &[("aria-labelledby", "counts")]).elem(
        "h2",
        &[("id", "counts")],
        "In memory",
    );
    let length = |tool: &str, words: &[&str], key: &str| -> String {
        match cx.call(tool, words) {
            Ok(data) => data[key].as_array().map_or(0, Vec::len).to_string(),
            Err(_) => "?".to_string(),
        }
    };
    let (turns, sessions) = match activity {
        Some(a) => (
            str_of(&a["total"]["turns"]),
            str_of(&a["total"]["sessions"]),
        ),
        None => ("?".to_string(), "?".to_string()),
    };
    let counted = [
        ("sessions", sessions, "/memory"),
        ("turns", turns, "/memory"),
        (
            "notes",
            length("knowledge", &["list"], "notes"),
            "/memory/notes",
        ),
        (
            "skills",
            length("skill_forge", &["list"], "skills"),
            "/skills",
        ),
        ("plans", length("plan", &["list"], "plans"), "/plans"),
        (
            "reminders",
            length("proactive", &["list"], "items"),
            "/plans",
        ),
    ];
    body.raw("<dl class=\"counts\">");
    for (label, value, path) in &counted {
        body.open("div", &[("data-count", label)])
            .raw("<dt>")
            .link(path, &[], label)
            .raw("</dt>")
            .elem("dd", &[], value)
            .raw("</div>");
    }
    body.raw("</dl>");
    body.close("section");
}

/// Turns per day per session, the busiest sessions apart and the rest
/// summed, as stacked bars; the legend and the numbers as a list beside.
fn chart(body: &mut Html, activity: &crate::error::Result<Value>) {
    body.open(
        "section",
        &[("aria-labelledby", "activity"), ("class", "activity")],
    )
    .elem("h2", &[("id", "activity")], "Activity");
    let a = match activity {
        Ok(a) => a,
        Err(err) => {
            failed(body, err);
            body.close("section");
            return;
        }
    };
    let days: Vec<String> = a["days"]
        .as_array()
        .into_iter()
        .flatten()
        .map(str_of)
        .collect();
    let counts = |v: &Value| -> Vec<u64> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|n| n.as_u64().unwrap_or(0))
            .collect()
    };
    // (name, per day, turns, the session's own name when it has one)
    let mut series: Vec<(String, Vec<u64>, u64, Option<&str>)> = a["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let session = s["session"].as_str();
            let name = session.unwrap_or("(no session)").to_string();
            let turns = s["turns"].as_u64().unwrap_or(0);
            (name, counts(&s["by_day"]), turns, session)
        })
        .collect();
    let others = &a["others"];
    if others["sessions"].as_u64().unwrap_or(0) > 0 {
        series.push((
            format!("{} other session(s)", str_of(&others["sessions"])),
            counts(&others["by_day"]),
            others["turns"].as_u64().unwrap_or(0),
            None,
        ));
    }
    let title = format!(
        "Turns per day and session, {} to {}: {} turn(s)",
        str_of(&a["from"]),
        str_of(&a["to"]),
        str_of(&a["turns"])
    );
    body.elem("p", &[("class", "meta")], &title);
    if series.is_empty() {
        body.elem("p", &[("class", "empty")], "No turns in these days.");
        body.close("section");
        return;
    }
    let bands: Vec<(String, Vec<u64>)> = series
        .iter()
        .map(|(n, v, _, _)| (n.clone(), v.clone()))
        .collect();
    body.svg(svg::stacked(&title, &days, &bands));
    body.raw("<ul class=\"legend\">");
    for (i, (name, _, turns, session)) in series.iter().enumerate() {
        let swatch = match i {
            0 => "swatch s0",
            1 => "swatch s1",
            2 => "swatch s2",
            3 => "swatch s3",
            4 => "swatch s4",
            5 => "swatch s5",
            6 => "swatch s6",
            7 => "swatch s7",
            _ => "swatch rest",
        };
        body.raw("<li>")
            .open("span", &[("class", swatch), ("aria-hidden", "true")])
            .close("span");
        match session {
            Some(session) => body.link("/memory", &[("session", session)], name),
            None => body.text(name),
        };
        body.elem("span", &[("class", "meta")], &format!(" {turns}"))
            .raw("</li>");
    }
    body.raw("</ul>");
    body.close("section");
}

fn recent(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "recent")]).elem(
        "h2",
        &[("id", "recent")],
        "Recent sessions",
    );
    match cx.call("track", &["list", "--limit", "10"]) {
        Ok(list) => {
            let episodes = list["episodes"].as_array().cloned().unwrap_or_default();
            if episodes.is_empty() {
                body.elem("p", &[("class", "empty")], "Nothing recorded yet.");
            }
            body.raw("<ul class=\"list\">");
            for ep in &episodes {
                let id = str_of(&ep["id"]);
                body.raw("<li>")
                    .link("/memory/episode", &[("id", &id)], &str_of(&ep["title"]))
                    .raw(" <span class=\"meta\">")
                    .text(&format!(
                        "{} · {} turns · {}",
                        str_of(&ep["session"]),
                        str_of(&ep["turns"]),
                        str_of(&ep["last_ts"])
                    ))
                    .raw("</span></li>");
            }
            body.raw("</ul>");
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

/// What foresight brings up: what is due within the day (`proactive
/// due`), then what is open after it (`proactive list`), soonest first.
fn foresight(cx: &Cx, body: &mut Html) {
    body.open(
        "section",
        &[("aria-labelledby", "foresight"), ("class", "foresight")],
    )
    .elem("h2", &[("id", "foresight")], "Foresight");
    let due = match cx.call("proactive", &["due"]) {
        Ok(due) => due,
        Err(err) => {
            failed(body, &err);
            body.close("section");
            return;
        }
    };
    let due_items = due["items"].as_array().cloned().unwrap_or_default();
    body.elem("h3", &[], "Due").elem(
        "p",
        &[("class", "meta")],
        &format!("until {}", str_of(&due["until"])),
    );
    if due_items.is_empty() {
        body.elem("p", &[("class", "empty")], "Nothing due in the next day.");
    } else {
        body.raw("<ul class=\"list due\">");
        for item in &due_items {
            reminder(body, item, "due-item");
        }
        body.raw("</ul>");
    }
    body.elem("h3", &[], "Upcoming");
    match cx.call("proactive", &["list"]) {
        Ok(list) => {
            let due_ids: Vec<&Value> = due_items.iter().map(|i| &i["id"]).collect();
            let mut upcoming: Vec<&Value> = list["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|i| !due_ids.contains(&&i["id"]))
                .collect();
            // Soonest first: by due time, else by when the window opens.
            let when = |i: &Value| {
                i["due"]
                    .as_str()
                    .or(i["valid_from"].as_str())
                    .unwrap_or("")
                    .to_string()
            };
            upcoming.sort_by_key(|i| when(i));
            if upcoming.is_empty() {
                body.elem("p", &[("class", "empty")], "Nothing else is open.");
            } else {
                body.raw("<ul class=\"list upcoming\">");
                for item in upcoming.iter().take(10) {
                    reminder(body, item, "upcoming-item");
                }
                body.raw("</ul>");
                if upcoming.len() > 10 {
                    body.raw("<p class=\"meta\">")
                        .link(
                            "/plans",
                            &[],
                            &format!("{} more on Plans & reminders", upcoming.len() - 10),
                        )
                        .raw("</p>");
                }
            }
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

/// One foresight item: its text, when it is due (or its window), its state.
fn reminder(body: &mut Html, item: &Value, class: &'static str) {
    let when = match item["due"].as_str() {
        Some(due) => format!("due {due}"),
        None => format!(
            "{} – {}",
            str_of(&item["valid_from"]),
            str_of(&item["valid_until"])
        ),
    };
    body.open("li", &[("class", class), ("data-id", &str_of(&item["id"]))])
        .text(&str_of(&item["text"]))
        .elem("span", &[("class", "meta")], &format!(" · {when}"));
    if item["status"].as_str().is_some_and(|s| s != "open") {
        body.elem(
            "span",
            &[("class", "meta")],
            &format!(" · {}", str_of(&item["status"])),
        );
    }
    body.close("li");
}

fn doctor(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "health")]).elem(
        "h2",
        &[("id", "health")],
        "Health",
    );
    // doctor reads the whole home (seconds at a million turns): its last
    // answer, run again in the background when it is old.
    let Some(kept) = cx.cached("doctor", &[]) else {
        body.elem(
            "p",
            &[("class", "meta")],
            "The checks are running (they read the whole home); reload in a moment.",
        );
        body.close("section");
        return;
    };
    body.elem(
        "p",
        &[("class", "meta")],
        &format!("`agentbox doctor` as of {}", kept.at.stamp()),
    );
    match kept.answer {
        Ok(report) => {
            let healthy = report["healthy"].as_bool().unwrap_or(false);
            let verdict = if healthy {
                "All checks pass.".to_string()
            } else {
                format!("{} problem(s):", str_of(&report["problems"]))
            };
            body.elem(
                "p",
                &[("class", if healthy { "ok" } else { "bad" })],
                &verdict,
            );
            body.raw("<ul class=\"list\">");
            for check in report["checks"].as_array().into_iter().flatten() {
                if check["ok"].as_bool() == Some(false) {
                    body.raw("<li>")
                        .elem("strong", &[], &str_of(&check["name"]))
                        .text(&format!(
                            ": {} — {}",
                            str_of(&check["message"]),
                            str_of(&check["hint"])
                        ))
                        .raw("</li>");
                }
            }
            body.raw("</ul>");
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

/// Sync's state (`sync status`): the remote, what is not on it yet, what
/// is waiting on a conflict. A home that does not sync says so, plainly.
fn sync(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "sync"), ("class", "sync")])
        .elem("h2", &[("id", "sync")], "Sync");
    let status = match cx.call("sync", &["status"]) {
        Ok(status) => status,
        Err(err) if err.kind == ErrorType::NotFound => {
            body.elem(
                "p",
                &[("class", "sync-off")],
                "Sync is not set up: this home lives on this machine only. `agentbox sync init --remote URL` shares it through a git remote.",
            );
            body.close("section");
            return;
        }
        Err(err) => {
            failed(body, &err);
            body.close("section");
            return;
        }
    };
    let remote = match status["remote"].as_str() {
        Some(remote) => format!("Remote: {remote}"),
        None => {
            "No remote: commits stay in this home (`agentbox sync remote set URL`).".to_string()
        }
    };
    body.elem("p", &[], &remote);
    let fetched = if status["fetched"] == false {
        " (nothing fetched yet)"
    } else {
        ""
    };
    body.raw("<ul class=\"list\">")
        .elem(
            "li",
            &[],
            &format!(
                "{} commit(s) not on the remote, {} of the remote's not here{fetched}",
                str_of(&status["ahead"]),
                str_of(&status["behind"])
            ),
        )
        .elem(
            "li",
            &[],
            &format!(
                "{} file(s) changed since the last commit",
                status["dirty"].as_array().map_or(0, Vec::len)
            ),
        )
        .elem(
            "li",
            &[],
            &match status["last_sync"].as_str() {
                Some(at) => format!("last sync {at}"),
                None => "never synced".to_string(),
            },
        );
    if status["interrupted_pull"] == true {
        body.elem(
            "li",
            &[("class", "bad")],
            "A pull stopped before it finished; the next sync finishes it.",
        );
    }
    for held in status["held"].as_array().into_iter().flatten() {
        body.elem(
            "li",
            &[("class", "warn")],
            &format!(
                "held back: {} ({})",
                str_of(&held["path"]),
                str_of(&held["reason"])
            ),
        );
    }
    body.raw("</ul>");
    let conflict: Vec<String> = status["conflict"]
        .as_array()
        .into_iter()
        .flatten()
        .map(str_of)
        .collect();
    if conflict.is_empty() {
        body.elem("p", &[("class", "ok")], "No conflicts.");
    } else {
        body.open("div", &[("class", "conflicts"), ("role", "alert")])
            .elem(
                "p",
                &[("class", "bad")],
                &format!(
                    "Sync is stopped on a conflict in {} file(s): keep what you want in the home, delete each .remote copy, then run `agentbox sync now`.",
                    conflict.len()
                ),
            )
            .raw("<ul class=\"list\">");
        for path in &conflict {
            body.raw("<li>").elem("code", &[], path).raw("</li>");
        }
        body.raw("</ul></div>");
    }
    body.close("section");
}
