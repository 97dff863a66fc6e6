//! Memory: episodes (sessions) as timelines of turns, search, notes and
//! profile facts.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::Route;
use super::overview::{failed, str_of};

pub const ROUTES: &[Route] = &[
    ("GET", "/memory", episodes),
    ("GET", "/memory/episode", episode),
];

fn episodes(cx: &Cx) -> Reply {
    let mut body = Html::new();
    match cx.call("track", &["list", "--limit", "50"]) {
        Ok(list) => {
            body.raw("<ul class=\"list\">");
            for ep in list["episodes"].as_array().into_iter().flatten() {
                let id = str_of(&ep["id"]);
                body.raw("<li>")
                    .link("/memory/episode", &[("id", &id)], &str_of(&ep["title"]))
                    .raw(" <span class=\"meta\">")
                    .text(&format!(
                        "{} · {} turns",
                        str_of(&ep["session"]),
                        str_of(&ep["turns"])
                    ))
                    .raw("</span></li>");
            }
            body.raw("</ul>");
        }
        Err(err) => failed(&mut body, &err),
    }
    Reply::page("memory", "Memory", body)
}

fn episode(cx: &Cx) -> Reply {
    let id = cx.req.query("id").unwrap_or("");
    match cx.call_with("track", &["show"], &[], &[id]) {
        Ok(shown) => {
            let mut body = Html::new();
            body.raw("<ol class=\"timeline\">");
            for turn in shown["turns"].as_array().into_iter().flatten() {
                body.raw("<li class=\"turn\">")
                    .elem("span", &[("class", "role")], &str_of(&turn["role"]))
                    .elem("pre", &[("class", "content")], &str_of(&turn["content"]))
                    .raw("</li>");
            }
            body.raw("</ol>");
            Reply::page("memory", format!("Episode {id}"), body)
        }
        Err(err) => Reply::error("memory", &err),
    }
}
