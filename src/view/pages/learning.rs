//! Learning: evolve's runs and proposals, their evidence, what applying
//! one would write, Apply and Reject.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::Route;
use super::overview::{failed, str_of};

pub const ROUTES: &[Route] = &[("GET", "/learning", proposals)];

fn proposals(cx: &Cx) -> Reply {
    let mut body = Html::new();
    match cx.call("evolve", &["list"]) {
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
    Reply::page("learning", "Learning", body)
}
