//! Plans, the active persona and reminders (foresight), with done,
//! dismiss and snooze.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::Route;
use super::overview::{failed, str_of};

pub const ROUTES: &[Route] = &[("GET", "/plans", plans)];

fn plans(cx: &Cx) -> Reply {
    let mut body = Html::new();
    match cx.call("plan", &["list"]) {
        Ok(list) => {
            body.elem(
                "pre",
                &[("class", "raw")],
                &serde_json::to_string_pretty(&list).unwrap_or_default(),
            );
            let _ = str_of;
        }
        Err(err) => failed(&mut body, &err),
    }
    Reply::page("plans", "Plans & reminders", body)
}
