//! The pages, one file per section, each a list of routes. A handler reads
//! the request, calls verbs through `Cx::call` and builds HTML with
//! `html::Html`; it never reads a file itself.

mod learning;
mod memory;
mod overview;
mod plans;
mod skills;

use super::html::{Html, href};
use super::page::{Cx, Reply};

/// A route: method, exact path, handler.
pub type Route = (&'static str, &'static str, fn(&Cx) -> Reply);

const ASSETS: &[Route] = &[
    ("GET", "/assets/style.css", |_| Reply::Asset {
        content_type: "text/css; charset=utf-8",
        body: include_str!("../assets/style.css"),
    }),
    ("GET", "/assets/icon.svg", |_| Reply::Asset {
        content_type: "image/svg+xml",
        body: include_str!("../assets/icon.svg"),
    }),
];

/// Every route of the app.
fn routes() -> impl Iterator<Item = &'static Route> {
    [
        ASSETS,
        overview::ROUTES,
        memory::ROUTES,
        learning::ROUTES,
        skills::ROUTES,
        plans::ROUTES,
    ]
    .into_iter()
    .flatten()
}

/// The handler of `method path`.
pub fn route(method: &str, path: &str) -> Option<fn(&Cx) -> Reply> {
    routes()
        .find(|(m, p, _)| *m == method && *p == path)
        .map(|(_, _, handler)| *handler)
}

/// `nav.pager` with `a[rel=prev]` / `a[rel=next]` to `path?QUERY&page=N`
/// (nothing when there is a single page).
pub fn pager(body: &mut Html, path: &'static str, query: &[(&str, &str)], page: usize, more: bool) {
    if page <= 1 && !more {
        return;
    }
    let to = |n: usize| {
        let n = n.to_string();
        let mut pairs: Vec<(&str, &str)> = query
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .copied()
            .collect();
        pairs.push(("page", &n));
        href(path, &pairs)
    };
    body.raw("<nav class=\"pager\" aria-label=\"Pages\">");
    if page > 1 {
        body.open("a", &[("href", &to(page - 1)), ("rel", "prev")])
            .text("← Previous")
            .close("a");
    }
    body.elem("span", &[("class", "meta")], &format!("page {page}"));
    if more {
        body.open("a", &[("href", &to(page + 1)), ("rel", "next")])
            .text("Next →")
            .close("a");
    }
    body.raw("</nav>");
}
