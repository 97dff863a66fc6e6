//! Skills: each skill, its screening verdict bound to its hash, the
//! findings; the host agents it is installed in.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::Route;
use super::overview::{failed, str_of};

pub const ROUTES: &[Route] = &[("GET", "/skills", skills)];

fn skills(cx: &Cx) -> Reply {
    let mut body = Html::new();
    match cx.call("skill_forge", &["list"]) {
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
    Reply::page("skills", "Skills", body)
}
