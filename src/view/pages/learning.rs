//! Learning: evolve's runs and proposals, their evidence, what applying
//! one would write, Apply and Reject.
//!
//! The diff is `evolve apply ID --dry-run`'s: computed by the code that
//! writes, so what the page shows is what Apply writes. Apply posts the
//! plan's fingerprint back (`--expect-plan`), so a page that went stale —
//! the proposal applied or rejected elsewhere, PROFILE.md edited since —
//! gets `conflict` (409) instead of a write nobody reviewed.

use super::super::html::{Html, href};
use super::super::page::{Cx, Reply};
use super::Route;
use super::overview::{failed, str_of};
use crate::error::{Error, ErrorType};
use serde_json::Value;

pub const ROUTES: &[Route] = &[
    ("GET", "/learning", proposals),
    ("GET", "/learning/proposal", proposal),
    ("POST", "/learning/apply", apply),
    ("POST", "/learning/reject", reject),
];

/// Proposals per page of the list.
const PER_PAGE: usize = 25;

/// The statuses a list can be narrowed to.
const STATUSES: [&str; 3] = ["pending", "applied", "rejected"];

fn proposals(cx: &Cx) -> Reply {
    let mut body = Html::new();
    let status = cx.req.query("status").filter(|s| STATUSES.contains(s));
    let page = cx.req.page();
    // One more than a page: whether there is a next one.
    let offset = ((page - 1) * PER_PAGE).to_string();
    let limit = (PER_PAGE + 1).to_string();
    let words = ["list", "--offset", &offset, "--limit", &limit];
    let listed = match status {
        Some(status) => cx.call_with("evolve", &words, &[("--status", status)], &[]),
        None => cx.call("evolve", &words),
    };
    let list = match listed {
        Ok(list) => list,
        Err(err) => {
            failed(&mut body, &err);
            return Reply::page("learning", "Learning", body);
        }
    };
    let mut items = list["proposals"].as_array().cloned().unwrap_or_default();
    let more = items.len() > PER_PAGE;
    items.truncate(PER_PAGE);
    let counts = &list["counts"];
    body.open("p", &[("class", "counts")]).text(&format!(
        "{} pending · {} applied · {} rejected",
        str_of(&counts["pending"]),
        str_of(&counts["applied"]),
        str_of(&counts["rejected"])
    ));
    body.close("p");
    filters(&mut body, status);
    runs(cx, &mut body, &items);

    body.open("section", &[("aria-labelledby", "proposals")])
        .elem("h2", &[("id", "proposals")], "Proposals");
    if items.is_empty() && page == 1 {
        body.elem(
            "p",
            &[("class", "empty")],
            "No proposals yet: `agentbox evolve run` mines the recorded episodes into proposals.",
        );
    }
    for p in &items {
        card(&mut body, p);
    }
    super::pager(
        &mut body,
        "/learning",
        &[("status", status.unwrap_or(""))],
        page,
        more,
    );
    body.close("section");
    Reply::page("learning", "Learning", body)
}

/// Links that narrow the list to one status.
fn filters(body: &mut Html, status: Option<&str>) {
    body.open("nav", &[("class", "filters"), ("aria-label", "Status")]);
    let all = href("/learning", &[]);
    let current = |on: bool| if on { "page" } else { "false" };
    body.open(
        "a",
        &[("href", &all), ("aria-current", current(status.is_none()))],
    )
    .text("all")
    .close("a");
    for s in STATUSES {
        let target = href("/learning", &[("status", s)]);
        body.raw(" ")
            .open(
                "a",
                &[
                    ("href", &target),
                    ("aria-current", current(status == Some(s))),
                ],
            )
            .text(s)
            .close("a");
    }
    body.close("nav");
}

/// Runs described in full (`evolve show RUN` each); older ones by id only.
const RUNS_SHOWN: usize = 10;

/// The runs the listed proposals come from, newest first: what each mined
/// (from its run.json, through `evolve show RUN`) and what it proposed.
fn runs(cx: &Cx, body: &mut Html, items: &[Value]) {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for p in items {
        let run = str_of(&p["run_id"]);
        match runs.iter_mut().find(|(id, _)| *id == run) {
            Some(entry) => entry.1 += 1,
            None => runs.push((run, 1)),
        }
    }
    if runs.is_empty() {
        return;
    }
    body.open("section", &[("aria-labelledby", "runs")])
        .elem("h2", &[("id", "runs")], "Runs")
        .raw("<ul class=\"list runs\">");
    for (i, (run, n)) in runs.iter().enumerate() {
        body.open("li", &[("class", "run"), ("data-id", run)])
            .elem("code", &[("class", "hash")], run)
            .raw(" <span class=\"meta\">");
        let mut said = Vec::new();
        if i < RUNS_SHOWN
            && let Ok(shown) = cx.call_with("evolve", &["show"], &[], &[run])
        {
            let record = &shown["run"];
            if !record.is_null() {
                said.push(format!(
                    "{} {} → {}",
                    str_of(&record["status"]),
                    str_of(&record["started"]),
                    str_of(&record["finished"])
                ));
                said.push(format!(
                    "{} episodes in {} batch(es)",
                    str_of(&record["counts"]["episodes"]),
                    str_of(&record["counts"]["batches"])
                ));
                let model = &record["options"]["model"];
                if !model.is_null() {
                    said.push(format!("model {}", str_of(model)));
                }
            }
        }
        said.push(format!(
            "{n} proposal{} listed",
            if *n == 1 { "" } else { "s" }
        ));
        body.text(&said.join(" · ")).raw("</span>").close("li");
    }
    body.raw("</ul>").close("section");
}

/// One proposal in the list.
fn card(body: &mut Html, p: &Value) {
    let id = str_of(&p["id"]);
    let status = str_of(&p["status"]);
    body.open("article", &[("class", "proposal"), ("data-id", &id)])
        .open("h3", &[])
        .link("/learning/proposal", &[("id", &id)], &str_of(&p["title"]))
        .close("h3")
        .open("p", &[("class", "meta")])
        .elem("span", &[("class", &format!("status {status}"))], &status)
        .text(&format!(
            " · {} · confidence {} · {} evidence · {} · ",
            str_of(&p["kind"]),
            confidence(&p["confidence"]),
            str_of(&p["evidence"]),
            str_of(&p["created"]),
        ))
        .elem("code", &[], &id)
        .close("p")
        .close("article");
}

fn confidence(value: &Value) -> String {
    value
        .as_f64()
        .map(|c| format!("{c:.2}"))
        .unwrap_or_else(|| str_of(value))
}

fn proposal(cx: &Cx) -> Reply {
    let Some(id) = cx.req.query("id").filter(|id| !id.is_empty()) else {
        return Reply::error(
            "learning",
            &Error::invalid_args("which proposal? the address needs ?id=p-…")
                .with_hint("pick one from the list on the Learning page"),
        );
    };
    let shown = match cx.call_with("evolve", &["show"], &[], &[id]) {
        Ok(data) => data,
        Err(err) => return Reply::error("learning", &err),
    };
    let p = &shown["proposal"];
    let id = str_of(&p["id"]);
    let status = str_of(&p["status"]);
    let mut body = Html::new();
    // The flash says what the redirect's URL says only when the proposal
    // agrees: a crafted link cannot show "Applied" for a pending one.
    match cx.req.query("done").filter(|done| *done == status) {
        Some("applied") => {
            body.elem(
                "p",
                &[("class", "flash"), ("role", "status")],
                &format!("Applied {id}."),
            );
        }
        Some("rejected") => {
            body.elem(
                "p",
                &[("class", "flash"), ("role", "status")],
                &format!("Rejected {id}."),
            );
        }
        _ => {}
    }
    body.open("article", &[("class", "proposal"), ("data-id", &id)])
        .elem("h2", &[], &str_of(&p["title"]))
        .open("p", &[("class", "meta")])
        .elem("span", &[("class", &format!("status {status}"))], &status)
        .text(&format!(
            " · {} · confidence {} · run {} · created {}",
            str_of(&p["kind"]),
            confidence(&p["confidence"]),
            str_of(&p["run_id"]),
            str_of(&p["created"]),
        ))
        .raw(" · ")
        .elem("code", &[], &id)
        .close("p");
    if !p["updated"].is_null() {
        body.elem(
            "p",
            &[("class", "meta")],
            &format!("{status} {}", str_of(&p["updated"])),
        );
    }
    if !p["reason"].is_null() {
        body.elem(
            "p",
            &[("class", "reason")],
            &format!("Reason: {}", str_of(&p["reason"])),
        );
    }
    evidence(&mut body, p);
    if status == "pending" {
        preview(cx, &mut body, &id);
    } else if !p["applied"].is_null() {
        body.elem("h3", &[], "What applying it did").elem(
            "pre",
            &[("class", "raw")],
            &serde_json::to_string_pretty(&p["applied"]).unwrap_or_default(),
        );
    }
    body.close("article");
    body.open("p", &[])
        .link("/learning", &[], "← all proposals")
        .close("p");
    Reply::page("learning", format!("Proposal {id}"), body)
}

/// The turns a proposal comes from, each linked to its turn in its episode.
fn evidence(body: &mut Html, p: &Value) {
    let items = p["evidence"].as_array().cloned().unwrap_or_default();
    body.elem("h3", &[], &format!("Evidence ({})", items.len()))
        .raw("<ul class=\"list evidence\">");
    for e in &items {
        let (episode, turn) = (str_of(&e["episode"]), str_of(&e["turn"]));
        // the turn's id (`EP#N`) opens its episode at that turn, marked
        let target = if turn.is_empty() { &episode } else { &turn };
        body.raw("<li>")
            .link("/memory/episode", &[("id", target)], &turn)
            .raw(" <span class=\"meta\">")
            .text(&format!("session {}", str_of(&e["session"])))
            .raw("</span> ")
            .elem("q", &[], &str_of(&e["excerpt"]))
            .raw("</li>");
    }
    body.raw("</ul>");
}

/// What Apply would write (`evolve apply --dry-run`), and the two forms.
/// A screen that warns shows its findings, the diff as applied with
/// `--accept-warnings`, and an Apply that needs a ticked box; one that
/// fails shows its findings and no Apply.
fn preview(cx: &Cx, body: &mut Html, id: &str) {
    body.elem("h3", &[], "What Apply writes");
    let mut accept = false;
    let mut previewed = cx.call_with("evolve", &["apply", "--dry-run"], &[], &[id]);
    if let Err(err) = &previewed
        && verdict(err) == Some("warn")
    {
        body.open("div", &[("class", "warning"), ("role", "note")])
            .elem("p", &[("class", "warn")], &err.message);
        findings(body, err);
        body.close("div");
        accept = true;
        previewed = cx.call_with(
            "evolve",
            &["apply", "--dry-run", "--accept-warnings"],
            &[],
            &[id],
        );
    }
    let plan = match previewed {
        Ok(preview) => {
            for p in preview["proposals"].as_array().into_iter().flatten() {
                for w in p["writes"].as_array().into_iter().flatten() {
                    body.open("h4", &[])
                        .text(&format!("{} ", str_of(&w["action"])))
                        .elem("code", &[], &str_of(&w["path"]))
                        .close("h4");
                    diff(body, &str_of(&w["diff"]));
                }
                body.raw("<ul class=\"list also\">");
                for also in p["also"].as_array().into_iter().flatten() {
                    body.elem("li", &[], &format!("Also {}", str_of(also)));
                }
                body.raw("</ul>");
            }
            Some(str_of(&preview["plan"]))
        }
        Err(err) => {
            body.elem("p", &[], "Apply would be refused:");
            failed(body, &err);
            findings(body, &err);
            None
        }
    };
    body.open("div", &[("class", "actions")]);
    if let Some(plan) = plan {
        body.open(
            "form",
            &[
                ("method", "post"),
                ("action", "/learning/apply"),
                ("class", "inline"),
            ],
        )
        .open(
            "input",
            &[("type", "hidden"), ("name", "id"), ("value", id)],
        )
        .open(
            "input",
            &[("type", "hidden"), ("name", "plan"), ("value", &plan)],
        );
        if accept {
            body.raw(
                "<label><input type=\"checkbox\" name=\"accept_warnings\" value=\"yes\" required> \
                 I read the warnings; apply anyway</label> ",
            );
        }
        body.raw("<button type=\"submit\">Apply</button>")
            .close("form");
    }
    body.open(
        "form",
        &[
            ("method", "post"),
            ("action", "/learning/reject"),
            ("class", "inline"),
        ],
    )
    .open(
        "input",
        &[("type", "hidden"), ("name", "id"), ("value", id)],
    )
    .raw("<label>Reason <input type=\"text\" name=\"reason\" maxlength=\"1000\"></label> ")
    .raw("<button type=\"submit\" class=\"secondary\">Reject</button>")
    .close("form")
    .close("div");
}

/// The screen verdict a refused apply names (`warn`, `fail`), if any.
fn verdict(err: &Error) -> Option<&str> {
    err.detail.get("verdict").and_then(Value::as_str)
}

/// The screen's findings an error carries, as a table.
fn findings(body: &mut Html, err: &Error) {
    let Some(list) = err.detail.get("findings").and_then(Value::as_array) else {
        return;
    };
    body.raw("<table class=\"findings\"><thead><tr><th>file</th><th>line</th><th>severity</th><th>rule</th><th>excerpt</th><th>why</th></tr></thead><tbody>");
    for f in list {
        body.raw("<tr>");
        for key in ["file", "line", "severity", "rule", "excerpt", "why"] {
            body.elem("td", &[], &str_of(&f[key]));
        }
        body.raw("</tr>");
    }
    body.raw("</tbody></table>");
}

/// A unified diff, each line classed (`add`, `del`, `hunk`, `file`) for
/// colour; the text itself is exactly the diff.
fn diff(body: &mut Html, text: &str) {
    body.raw("<pre class=\"diff\">");
    for line in text.split_inclusive('\n') {
        let class = if line.starts_with("+++") || line.starts_with("---") {
            "file"
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "del"
        } else if line.starts_with("@@") {
            "hunk"
        } else {
            "ctx"
        };
        body.open("span", &[("class", class)])
            .text(line)
            .close("span");
    }
    body.raw("</pre>");
}

/// The `id` field of a form, or the error page saying it is missing.
fn form_id<'a>(cx: &'a Cx) -> std::result::Result<&'a str, Reply> {
    cx.req
        .field("id")
        .filter(|id| !id.is_empty())
        .ok_or_else(|| {
            Reply::error(
                "learning",
                &Error::invalid_args("the form names no proposal (field id)")
                    .with_hint("use the buttons of a proposal's page"),
            )
        })
}

/// The proposal page after a change, with its flash.
fn done(data: &Value, list: &str, fallback: &str, what: &str) -> Reply {
    let id = data[list][0]["id"].as_str().unwrap_or(fallback);
    Reply::Redirect(href("/learning/proposal", &[("id", id), ("done", what)]))
}

fn apply(cx: &Cx) -> Reply {
    let id = match form_id(cx) {
        Ok(id) => id,
        Err(reply) => return reply,
    };
    // The plan the page showed: without it, nothing says what was reviewed.
    let Some(plan) = cx.req.field("plan").filter(|p| !p.is_empty()) else {
        return Reply::error(
            "learning",
            &Error::invalid_args("the form carries no plan (field plan)")
                .with_hint("open the proposal's page, read what it writes, and press Apply there"),
        );
    };
    // A ticked "apply anyway" under a screen that warns: the CLI's flag.
    let words: &[&str] = if cx.req.field("accept_warnings") == Some("yes") {
        &["apply", "--accept-warnings"]
    } else {
        &["apply"]
    };
    match cx.call_with("evolve", words, &[("--expect-plan", plan)], &[id]) {
        Ok(data) => done(&data, "applied", id, "applied"),
        Err(err) => refused(&err),
    }
}

/// A refused Apply as its page: a screen's refusal (`permission`) is 403
/// Forbidden, not a server fault; other errors keep their status.
fn refused(err: &Error) -> Reply {
    match Reply::error("learning", err) {
        Reply::Page { section, body, .. } if err.kind == ErrorType::Permission => Reply::Page {
            status: 403,
            section,
            title: "Refused by the screen".to_string(),
            body,
        },
        reply => reply,
    }
}

fn reject(cx: &Cx) -> Reply {
    let id = match form_id(cx) {
        Ok(id) => id,
        Err(reply) => return reply,
    };
    let reason = cx.req.field("reason").map(str::trim).unwrap_or("");
    let values: &[(&str, &str)] = if reason.is_empty() {
        &[]
    } else {
        &[("--reason", reason)]
    };
    match cx.call_with("evolve", &["reject"], values, &[id]) {
        Ok(data) => done(&data, "rejected", id, "rejected"),
        Err(err) => Reply::error("learning", &err),
    }
}
