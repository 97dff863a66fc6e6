//! Overview: counts, recent sessions, what is due, the doctor's verdict,
//! sync's state.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::Route;
use serde_json::Value;

pub const ROUTES: &[Route] = &[("GET", "/", overview)];

fn overview(cx: &Cx) -> Reply {
    let mut body = Html::new();
    counts(cx, &mut body);
    recent(cx, &mut body);
    due(cx, &mut body);
    doctor(cx, &mut body);
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

fn counts(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "counts")]).elem(
        "h2",
        &[("id", "counts")],
        "In memory",
    );
    match cx.call("track", &["stats"]) {
        Ok(stats) => {
            body.raw("<dl class=\"counts\">");
            for (label, value) in [
                ("sessions", &stats["sessions"]),
                ("episodes", &stats["episodes"]["total"]),
                ("turns", &stats["turns"]["total"]),
                ("tool calls", &stats["tool_calls"]["total"]),
            ] {
                body.raw("<div>")
                    .elem("dt", &[], label)
                    .elem("dd", &[], &str_of(value))
                    .raw("</div>");
            }
            body.raw("</dl>");
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

fn recent(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "recent")]).elem(
        "h2",
        &[("id", "recent")],
        "Recent episodes",
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

fn due(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "due")])
        .elem("h2", &[("id", "due")], "Due soon");
    match cx.call("proactive", &["due"]) {
        Ok(due) => {
            let items = due["items"].as_array().cloned().unwrap_or_default();
            if items.is_empty() {
                body.elem("p", &[("class", "empty")], "Nothing due in the next day.");
            }
            body.raw("<ul class=\"list\">");
            for item in &items {
                body.raw("<li>").text(&str_of(&item["text"])).raw("</li>");
            }
            body.raw("</ul>");
        }
        Err(err) => failed(body, &err),
    }
    body.close("section");
}

fn doctor(cx: &Cx, body: &mut Html) {
    body.open("section", &[("aria-labelledby", "health")]).elem(
        "h2",
        &[("id", "health")],
        "Health",
    );
    match cx.call("doctor", &[]) {
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
