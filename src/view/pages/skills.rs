//! Skills: each skill, its screening verdict bound to its hash (the hash
//! the verdict was given for, and whether the files still hash to it), the
//! findings with file, line and excerpt (source and sink for a flow); the
//! host agents it is installed in.

use super::super::html::Html;
use super::super::page::{Cx, Reply};
use super::Route;
use super::overview::{failed, str_of};
use serde_json::Value;

pub const ROUTES: &[Route] = &[("GET", "/skills", skills), ("GET", "/skills/skill", skill)];

/// How a status reads, and the class that colours it.
fn verdict_class(status: &str) -> &'static str {
    match status {
        "pass" => "verdict ok",
        "warn-accepted" | "warn" => "verdict warn",
        "fail" | "changed since screening" => "verdict bad",
        _ => "verdict muted",
    }
}

/// The status as a badge (`.verdict`).
fn verdict(body: &mut Html, status: &str) {
    body.elem("span", &[("class", verdict_class(status))], status);
}

/// A content hash, short on screen, whole in its `title` and for copying.
fn hash(body: &mut Html, label: &str, hash: &str) {
    let short: String = hash.chars().take(7 + 12).collect();
    body.open("span", &[("class", "hash"), ("title", hash)])
        .text(label)
        .elem("code", &[], &short)
        .raw("…")
        .close("span");
}

fn skills(cx: &Cx) -> Reply {
    let mut body = Html::new();
    match cx.call("skill_forge", &["list"]) {
        Ok(list) => {
            let skills = list["skills"].as_array().cloned().unwrap_or_default();
            if skills.is_empty() {
                body.elem(
                    "p",
                    &[("class", "empty")],
                    "No skills yet. Add one with `skill_forge new NAME --description TEXT`, or install one with `skill_forge install PATH`.",
                );
            }
            for s in &skills {
                listed(&mut body, s);
            }
        }
        Err(err) => failed(&mut body, &err),
    }
    hosts(cx, &mut body, None);
    Reply::page("skills", "Skills", body)
}

/// One skill of the list: `article.skill[data-name]`.
fn listed(body: &mut Html, s: &Value) {
    let name = str_of(&s["name"]);
    let status = str_of(&s["status"]);
    body.open("article", &[("class", "skill card"), ("data-name", &name)])
        .raw("<h2>")
        .link("/skills/skill", &[("name", &name)], &name)
        .raw(" ");
    verdict(body, &status);
    body.raw("</h2>");
    if let Some(problem) = s["problem"].as_str() {
        body.elem("p", &[("class", "error")], problem);
    } else {
        body.elem("p", &[], &str_of(&s["description"]));
    }
    body.raw("<p class=\"meta\">");
    match (s["screened_hash"].as_str(), s["content_hash"].as_str()) {
        (Some(screened), Some(now)) if screened == now => {
            hash(body, "screened for ", screened);
            body.text(" — the files still match");
        }
        (Some(screened), now) => {
            hash(body, "screened for ", screened);
            body.raw(" — <strong class=\"bad\">the files changed since</strong>");
            if let Some(now) = now {
                body.raw(" ");
                hash(body, "now ", now);
            }
        }
        (None, Some(now)) => {
            body.text("never screened ");
            hash(body, "— files ", now);
        }
        (None, None) => {}
    }
    body.raw("</p>").close("article");
}

fn skill(cx: &Cx) -> Reply {
    let name = cx.req.query("name").unwrap_or("");
    let shown = match cx.call_with("skill_forge", &["show", "--findings"], &[], &[name]) {
        Ok(shown) => shown,
        Err(err) => return Reply::error("skills", &err),
    };
    let mut body = Html::new();
    body.open("article", &[("class", "skill"), ("data-name", name)]);
    body.elem(
        "p",
        &[("class", "description")],
        &str_of(&shown["front_matter"]["description"]),
    );
    screening(&mut body, &shown);
    findings(&mut body, &shown["screen"]);
    files(&mut body, &shown);
    body.open("section", &[("aria-labelledby", "body")])
        .elem("h2", &[("id", "body")], "SKILL.md")
        .elem("pre", &[("class", "content")], &str_of(&shown["body"]))
        .close("section");
    body.close("article");
    hosts(cx, &mut body, Some(name));
    Reply::page("skills", format!("Skill {name}"), body)
}

/// The recorded verdict, the hash it was given for, and whether the files
/// still hash to it.
fn screening(body: &mut Html, shown: &Value) {
    let status = str_of(&shown["status"]);
    let now = str_of(&shown["content_hash"]);
    body.open("section", &[("aria-labelledby", "screening")])
        .elem("h2", &[("id", "screening")], "Screening")
        .raw("<p>Status: ");
    verdict(body, &status);
    body.raw("</p>");
    let record = &shown["screening"];
    if record.is_null() {
        body.elem(
            "p",
            &[("class", "warn")],
            "Never screened: no verdict is recorded. Run `skill_forge screen NAME` before trusting it.",
        );
        body.raw("<p>");
        hash(body, "The files hash to ", &now);
        body.raw("</p>");
    } else {
        body.raw("<dl class=\"binding\">")
            .elem("dt", &[], "Verdict")
            .raw("<dd>");
        verdict(body, &str_of(&record["verdict"]));
        body.text(&format!(
            " recorded as {}, {} finding(s), at {}",
            str_of(&record["status"]),
            str_of(&record["findings"]),
            str_of(&record["screened_at"])
        ))
        .raw("</dd>")
        .elem("dt", &[], "Given for")
        .raw("<dd>");
        hash(body, "", &str_of(&record["content_hash"]));
        body.raw("</dd>").elem("dt", &[], "Files now").raw("<dd>");
        hash(body, "", &now);
        if record["matches"] == true {
            body.raw(
                " <strong class=\"ok matches\">match: the verdict is about these files</strong>",
            );
        } else {
            body.raw(" <strong class=\"bad changed\">changed since screening: the verdict is about other files</strong>");
        }
        body.raw("</dd></dl>");
    }
    body.close("section");
}

/// The findings of a screen of the files as they are now:
/// `table.findings`, one row each (severity, rule, file, line, excerpt,
/// source, sink, why).
fn findings(body: &mut Html, screen: &Value) {
    let rows = screen["findings"].as_array().cloned().unwrap_or_default();
    body.open("section", &[("aria-labelledby", "findings")])
        .elem("h2", &[("id", "findings")], "Findings")
        .raw("<p class=\"meta\">The screener's findings in the files as they are now (")
        .text(&format!(
            "{}, {} finding(s)",
            str_of(&screen["verdict"]),
            rows.len()
        ))
        .raw("); this screen is not recorded.</p>");
    if rows.is_empty() {
        body.elem("p", &[("class", "empty")], "No findings.");
        body.close("section");
        return;
    }
    body.raw(
        "<div class=\"scroll\"><table class=\"findings\"><thead><tr>\
         <th scope=\"col\">Severity</th><th scope=\"col\">Rule</th><th scope=\"col\">File</th>\
         <th scope=\"col\">Line</th><th scope=\"col\">Excerpt</th><th scope=\"col\">Source</th>\
         <th scope=\"col\">Sink</th></tr></thead><tbody>",
    );
    for f in &rows {
        let severity = str_of(&f["severity"]);
        let class = match severity.as_str() {
            "fail" => "finding fail",
            "warn" => "finding warn",
            _ => "finding info",
        };
        body.open("tr", &[("class", class)])
            .elem("td", &[("class", "severity")], &severity)
            .raw("<td class=\"rule\">")
            .elem("code", &[], &str_of(&f["rule"]))
            .raw("<br>")
            .elem("span", &[("class", "meta")], &str_of(&f["category"]))
            .raw("</td>")
            .elem("td", &[("class", "file")], &str_of(&f["file"]))
            .elem("td", &[("class", "line")], &str_of(&f["line"]))
            .raw("<td class=\"excerpt\">")
            .elem("pre", &[], &str_of(&f["excerpt"]))
            .elem("p", &[("class", "why")], &str_of(&f["why"]))
            .raw("</td>");
        for (class, end) in [("source", &f["source"]), ("sink", &f["sink"])] {
            body.open("td", &[("class", class)]);
            if end.is_object() {
                body.text(&format!(
                    "{}:{}",
                    str_of(&end["file"]),
                    str_of(&end["line"])
                ))
                .elem("pre", &[], &str_of(&end["excerpt"]));
            }
            body.close("td");
        }
        body.close("tr");
    }
    body.raw("</tbody></table></div>").close("section");
}

fn files(body: &mut Html, shown: &Value) {
    body.open("section", &[("aria-labelledby", "files")])
        .elem("h2", &[("id", "files")], "Files")
        .raw("<ul class=\"list files\">");
    for f in shown["files"].as_array().into_iter().flatten() {
        body.raw("<li>").elem("code", &[], &str_of(f)).raw("</li>");
    }
    body.raw("</ul>").close("section");
}

/// The host agents (`sync hosts list`): where agentbox's memory server is
/// configured and which screened skills each holds; with `only`, the hosts
/// holding that skill.
fn hosts(cx: &Cx, body: &mut Html, only: Option<&str>) {
    body.open(
        "section",
        &[("aria-labelledby", "hosts"), ("class", "hosts")],
    )
    .elem("h2", &[("id", "hosts")], "Installed in host agents");
    let listed = match cx.call("sync", &["hosts", "list"]) {
        Ok(listed) => listed,
        Err(err) => {
            failed(body, &err);
            body.close("section");
            return;
        }
    };
    let mut rows = Vec::new();
    for host in listed["hosts"].as_array().into_iter().flatten() {
        for scope in host["scopes"].as_array().into_iter().flatten() {
            let skills: Vec<String> = scope["skills"]
                .as_array()
                .into_iter()
                .flatten()
                .map(str_of)
                .collect();
            let mcp = &scope["memory_mcp"];
            let configured = mcp["configured"] == true;
            let keep = match only {
                Some(name) => skills.iter().any(|s| s == name),
                None => configured || !skills.is_empty(),
            };
            if keep {
                rows.push((host, scope, skills, configured));
            }
        }
    }
    if rows.is_empty() {
        let none = match only {
            Some(_) => {
                "This skill is in no host agent's skills folder (`sync hosts install` exports screened skills)."
            }
            None => {
                "No host agent has agentbox's memory server or its skills yet (`sync hosts install HOST`)."
            }
        };
        body.elem("p", &[("class", "empty")], none);
        body.close("section");
        return;
    }
    body.raw(
        "<div class=\"scroll\"><table class=\"hosts\"><thead><tr><th scope=\"col\">Host</th>\
         <th scope=\"col\">Scope</th><th scope=\"col\">Memory server</th>\
         <th scope=\"col\">Skills</th><th scope=\"col\">Config</th></tr></thead><tbody>",
    );
    for (host, scope, skills, configured) in rows {
        let mcp = &scope["memory_mcp"];
        let server = if let Some(error) = mcp["error"].as_str() {
            format!("unreadable config: {error}")
        } else if !configured {
            "not configured".to_string()
        } else {
            let whose = if mcp["points_here"] == true {
                "this home"
            } else {
                "another home"
            };
            format!("{whose}, {}", str_of(&mcp["state"]))
        };
        body.open("tr", &[("data-host", &str_of(&host["id"]))])
            .elem("td", &[], &str_of(&host["name"]))
            .elem("td", &[], &str_of(&scope["scope"]))
            .elem("td", &[], &server)
            .raw("<td>");
        if skills.is_empty() {
            body.text("—");
        }
        for (i, s) in skills.iter().enumerate() {
            if i > 0 {
                body.raw(", ");
            }
            body.link("/skills/skill", &[("name", s)], s);
        }
        body.raw("</td>")
            .elem("td", &[("class", "meta")], &str_of(&scope["config"]));
        body.close("tr");
    }
    body.raw("</tbody></table></div>").close("section");
}
