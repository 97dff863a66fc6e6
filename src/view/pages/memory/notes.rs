//! Notes and profile facts. `/memory/notes` lists the notes (`knowledge
//! list`) with their revision and the claim conflicts `knowledge lint`
//! finds; `/memory/note?id=SLUG` is one note with its revision, claims, the
//! notes that contradict them and its other lint findings;
//! `/memory/profile` lists the facts and preferences (`knowledge profile
//! list`) with the evolve proposals that added them or would.

use super::{failed, pager, str_of, value};
use crate::error::Error;
use crate::view::html::Html;
use crate::view::page::{Cx, Reply};
use serde_json::Value;
use std::collections::BTreeMap;

/// Notes on one page of `/memory/notes`.
const NOTES_PER_PAGE: usize = 50;

/// `knowledge lint`'s findings, or the error that kept them from us.
fn findings(cx: &Cx) -> Result<Vec<Value>, Error> {
    cx.call("knowledge", &["lint"])
        .map(|report| report["findings"].as_array().cloned().unwrap_or_default())
}

/// The findings that name note `slug`.
fn about<'a>(findings: &'a [Value], slug: &str) -> Vec<&'a Value> {
    findings
        .iter()
        .filter(|f| {
            f["notes"]
                .as_array()
                .is_some_and(|notes| notes.iter().any(|n| n == slug))
        })
        .collect()
}

/// `/memory/notes[?tag=T][&page=N]`.
pub(super) fn notes(cx: &Cx) -> Reply {
    let page = cx.req.page();
    let tag = value(cx, "tag");
    let mut body = Html::new();
    super::parts(&mut body, "/memory/notes", true);
    let values: Vec<(&str, &str)> = tag.map(|t| ("--tag", t)).into_iter().collect();
    let offset = super::number((page - 1).saturating_mul(NOTES_PER_PAGE));
    // One more than a page: whether there is a next one.
    let limit = super::number(NOTES_PER_PAGE + 1);
    let listed = match cx.call_with(
        "knowledge",
        &["list", "--limit", &limit, "--offset", &offset],
        &values,
        &[],
    ) {
        Ok(listed) => listed,
        Err(err) => return Reply::error("memory", &err),
    };
    let lint = findings(cx);
    if let Ok(findings) = &lint {
        conflicts(&mut body, findings, None);
    }
    let notes = listed["notes"].as_array().cloned().unwrap_or_default();
    let more = notes.len() > NOTES_PER_PAGE;
    let shown = &notes[..notes.len().min(NOTES_PER_PAGE)];
    body.open("section", &[("aria-labelledby", "notes")]);
    body.elem("h2", &[("id", "notes")], "Notes");
    if let Some(tag) = tag {
        body.raw("<p class=\"meta\">Tagged ")
            .elem("strong", &[], tag)
            .raw(" · ")
            .link("/memory/notes", &[], "every note")
            .raw("</p>");
    }
    if shown.is_empty() && page > 1 {
        body.elem("p", &[("class", "empty")], "No notes on this page.");
    } else if shown.is_empty() {
        body.elem(
            "p",
            &[("class", "empty")],
            "No notes yet: `knowledge add` or an applied evolve proposal writes them.",
        );
    } else {
        body.elem("p", &[("class", "meta")], "Newest change first.");
        body.raw(
            "<table class=\"notes\"><thead><tr><th scope=\"col\">Note</th>\
                  <th scope=\"col\">Revision</th><th scope=\"col\">Tags</th>\
                  <th scope=\"col\">Claims</th></tr></thead><tbody>",
        );
        let empty = Vec::new();
        let findings = lint.as_ref().unwrap_or(&empty);
        for note in shown {
            note_row(&mut body, note, findings);
        }
        body.raw("</tbody></table>");
    }
    pager(
        &mut body,
        "/memory/notes",
        &[("tag", tag.unwrap_or(""))],
        page,
        more,
    );
    body.close("section");
    let broken = listed["broken"].as_array().cloned().unwrap_or_default();
    if !broken.is_empty() {
        body.open("section", &[("aria-labelledby", "unreadable")]);
        body.elem("h2", &[("id", "unreadable")], "Files that are not notes");
        body.raw("<ul class=\"list\">");
        for file in &broken {
            body.raw("<li>")
                .elem("code", &[], &str_of(&file["file"]))
                .text(&format!(": {}", str_of(&file["message"])))
                .raw("</li>");
        }
        body.raw("</ul>");
        body.close("section");
    }
    if let Err(err) = &lint {
        failed(&mut body, err);
    }
    Reply::page("memory", "Notes", body)
}

fn note_row(body: &mut Html, note: &Value, findings: &[Value]) {
    let slug = str_of(&note["slug"]);
    body.open("tr", &[("data-slug", &slug)]).raw("<td>");
    body.link("/memory/note", &[("id", &slug)], &str_of(&note["title"]));
    body.elem("div", &[("class", "meta id")], &slug);
    body.raw("</td><td>")
        .text(&format!("rev {}", str_of(&note["rev"])))
        .elem(
            "div",
            &[("class", "meta")],
            &format!("changed {}", str_of(&note["updated"])),
        )
        .raw("</td><td>");
    for tag in note["tags"].as_array().into_iter().flatten() {
        let tag = str_of(tag);
        body.link("/memory/notes", &[("tag", &tag)], &tag).raw(" ");
    }
    body.raw("</td><td>");
    let claims = note["claims"].as_array().map_or(0, Vec::len);
    body.text(&claims.to_string());
    let contradicted = about(findings, &slug)
        .iter()
        .filter(|f| f["kind"] == "contradiction")
        .count();
    if contradicted > 0 {
        body.elem(
            "span",
            &[("class", "badge bad")],
            &format!("{contradicted} conflict(s)"),
        );
    }
    body.raw("</td></tr>");
}

/// The claim conflicts (`contradiction` findings), of every note or of
/// the note `only`: each key with what each note says.
fn conflicts(body: &mut Html, findings: &[Value], only: Option<&str>) {
    let conflicts: Vec<&Value> = findings
        .iter()
        .filter(|f| f["kind"] == "contradiction")
        .filter(|f| only.is_none_or(|slug| !about(std::slice::from_ref(f), slug).is_empty()))
        .collect();
    if conflicts.is_empty() {
        return;
    }
    body.open(
        "section",
        &[("class", "conflicts"), ("aria-labelledby", "conflicts")],
    );
    body.elem(
        "h2",
        &[("id", "conflicts")],
        &format!("{} claim conflict(s)", conflicts.len()),
    );
    body.elem(
        "p",
        &[("class", "hint")],
        "Notes that say different things for one claim. Fix one note, or write the right value with `knowledge edit SLUG --claim KEY=VALUE --supersede`.",
    );
    body.raw("<ul class=\"list\">");
    for finding in conflicts {
        let key = str_of(&finding["detail"]["key"]);
        body.open("li", &[("class", "conflict"), ("data-key", &key)]);
        body.elem("code", &[], &key).raw(": ");
        let claims = finding["detail"]["claims"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for (i, claim) in claims.iter().enumerate() {
            if i > 0 {
                body.raw(" · ");
            }
            let note = str_of(&claim["note"]);
            body.link("/memory/note", &[("id", &note)], &note)
                .raw(" says ")
                .elem("q", &[], &str_of(&claim["value"]));
        }
        body.close("li");
    }
    body.raw("</ul>");
    body.close("section");
}

/// `/memory/note?id=SLUG`.
pub(super) fn note(cx: &Cx) -> Reply {
    let Some(id) = value(cx, "id") else {
        let err = Error::invalid_args("which note? The address names none")
            .with_hint("open a note from the list at /memory/notes (the address ends in ?id=SLUG)");
        return Reply::error("memory", &err);
    };
    let note = match cx.call_with("knowledge", &["show"], &[], &[id]) {
        Ok(note) => note,
        Err(err) => return Reply::error("memory", &err),
    };
    let slug = str_of(&note["slug"]);
    let mut body = Html::new();
    super::parts(&mut body, "/memory/notes", false);
    body.open(
        "section",
        &[("class", "note"), ("aria-labelledby", "about")],
    );
    body.elem("h2", &[("id", "about")], "Revision and file");
    body.raw("<dl class=\"facts\">");
    for (label, text) in [
        ("Slug", slug.clone()),
        ("Revision", format!("rev {}", str_of(&note["rev"]))),
        ("Created", str_of(&note["created"])),
        ("Last changed", str_of(&note["updated"])),
        ("File", str_of(&note["path"])),
    ] {
        body.raw("<div>")
            .elem("dt", &[], label)
            .elem("dd", &[], &text)
            .raw("</div>");
    }
    body.raw("</dl>");
    body.elem(
        "p",
        &[("class", "hint")],
        "Every write by agentbox adds one revision; a write against an older revision is refused. The text of earlier revisions is kept by sync's history when the home syncs.",
    );
    let tags: Vec<String> = strings(&note["tags"]);
    if !tags.is_empty() {
        body.raw("<p>Tags: ");
        for tag in &tags {
            body.link("/memory/notes", &[("tag", tag)], tag).raw(" ");
        }
        body.raw("</p>");
    }
    let links = strings(&note["links"]);
    if !links.is_empty() {
        body.raw("<p>Links to: ");
        for link in &links {
            body.link("/memory/note", &[("id", link)], link).raw(" ");
        }
        body.raw("</p>");
    }
    let sources = strings(&note["sources"]);
    if !sources.is_empty() {
        // Sources are text, never links: a source can be any URL.
        body.raw("<p>Sources:</p><ul class=\"list sources\">");
        for source in &sources {
            body.elem("li", &[], source);
        }
        body.raw("</ul>");
    }
    body.close("section");

    let lint = findings(cx);
    let empty = Vec::new();
    let findings = lint.as_ref().unwrap_or(&empty);
    claims(&mut body, &note, &slug, findings);
    conflicts(&mut body, findings, Some(&slug));
    let others: Vec<&Value> = about(findings, &slug)
        .into_iter()
        .filter(|f| f["kind"] != "contradiction")
        .collect();
    if !others.is_empty() {
        body.open("section", &[("aria-labelledby", "problems")]);
        body.elem("h2", &[("id", "problems")], "Lint findings");
        body.raw("<ul class=\"list\">");
        for finding in others {
            body.raw("<li>")
                .elem("code", &[], &str_of(&finding["kind"]))
                .text(&format!(": {}", str_of(&finding["message"])))
                .raw("</li>");
        }
        body.raw("</ul>");
        body.close("section");
    }
    if let Err(err) = &lint {
        failed(&mut body, err);
    }
    body.open("section", &[("aria-labelledby", "body")]);
    body.elem("h2", &[("id", "body")], "Body");
    let text = str_of(&note["body"]);
    if text.is_empty() {
        body.elem("p", &[("class", "empty")], "No body.");
    } else {
        body.elem("pre", &[("class", "body")], &text);
    }
    body.close("section");
    Reply::page("memory", format!("Note: {}", str_of(&note["title"])), body)
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().into_iter().flatten().map(str_of).collect()
}

/// The note's claims, each with what other notes say of its key.
fn claims(body: &mut Html, note: &Value, slug: &str, findings: &[Value]) {
    let claims = note["claims"].as_array().cloned().unwrap_or_default();
    body.open("section", &[("aria-labelledby", "claims")]);
    body.elem("h2", &[("id", "claims")], "Claims");
    if claims.is_empty() {
        body.elem("p", &[("class", "empty")], "This note claims nothing.");
        body.close("section");
        return;
    }
    // key → the other notes' values, from the contradictions.
    let mut against: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for finding in about(findings, slug) {
        if finding["kind"] != "contradiction" {
            continue;
        }
        let key = str_of(&finding["detail"]["key"]);
        for claim in finding["detail"]["claims"].as_array().into_iter().flatten() {
            let other = str_of(&claim["note"]);
            if other != slug {
                against
                    .entry(key.clone())
                    .or_default()
                    .push((other, str_of(&claim["value"])));
            }
        }
    }
    body.raw(
        "<table class=\"claims\"><thead><tr><th scope=\"col\">Key</th>\
              <th scope=\"col\">Value</th><th scope=\"col\">Other notes</th></tr></thead><tbody>",
    );
    for claim in &claims {
        let key = str_of(&claim["key"]);
        let others = against.get(&key);
        let class = if others.is_some() {
            "claim conflict"
        } else {
            "claim"
        };
        body.open("tr", &[("class", class), ("data-key", &key)]);
        body.raw("<td>")
            .elem("code", &[], &key)
            .raw("</td><td>")
            .text(&str_of(&claim["value"]))
            .raw("</td><td>");
        match others {
            Some(others) => {
                for (other, value) in others {
                    body.raw("<span class=\"bad\">")
                        .link("/memory/note", &[("id", other)], other)
                        .raw(" says ")
                        .elem("q", &[], value)
                        .raw("</span> ");
                }
            }
            None => {
                body.elem("span", &[("class", "ok")], "no conflict");
            }
        }
        body.raw("</td></tr>");
    }
    body.raw("</tbody></table>");
    body.close("section");
}

/// A fact as profile duplicates are compared: case, spacing and a final
/// `.`/`!` ignored.
fn same_fact(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed.trim_end_matches(['.', '!']).to_lowercase()
}

/// `/memory/profile`.
pub(super) fn profile(cx: &Cx) -> Reply {
    let mut body = Html::new();
    super::parts(&mut body, "/memory/profile", true);
    let listed = match cx.call("knowledge", &["profile", "list"]) {
        Ok(listed) => listed,
        Err(err) => return Reply::error("memory", &err),
    };
    // The evolve proposals that add a fact, by the fact: a preference is
    // titled "Preference: <the fact it adds>".
    let mut proposed: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let evolve = cx.call("evolve", &["list"]);
    if let Ok(list) = &evolve {
        for p in list["proposals"].as_array().into_iter().flatten() {
            if p["kind"] != "preference" {
                continue;
            }
            let title = str_of(&p["title"]);
            let fact = title.strip_prefix("Preference: ").unwrap_or(&title);
            proposed.entry(same_fact(fact)).or_default().push(p.clone());
        }
    }
    let mut shown = std::collections::BTreeSet::new();
    for (section, label) in [("preferences", "Preferences"), ("facts", "Facts")] {
        let facts = strings(&listed[section]);
        body.open("section", &[("aria-labelledby", section)]);
        body.elem("h2", &[("id", section)], label);
        if facts.is_empty() {
            body.elem("p", &[("class", "empty")], "None yet.");
        } else {
            body.open("ol", &[("class", "facts"), ("data-section", section)]);
            for fact in &facts {
                let key = same_fact(fact);
                body.raw("<li class=\"fact\">").text(fact);
                if let Some(proposals) = proposed.get(&key) {
                    shown.insert(key.clone());
                    for p in proposals {
                        provenance(&mut body, p);
                    }
                }
                body.raw("</li>");
            }
            body.close("ol");
        }
        body.close("section");
    }
    let pending: Vec<&Value> = proposed
        .iter()
        .filter(|(key, _)| !shown.contains(*key))
        .flat_map(|(_, ps)| ps)
        .filter(|p| p["status"] == "pending")
        .collect();
    if !pending.is_empty() {
        body.open("section", &[("aria-labelledby", "proposed")]);
        body.elem("h2", &[("id", "proposed")], "Proposed, not applied yet");
        body.raw("<ul class=\"list\">");
        for p in pending {
            body.raw("<li>").text(&str_of(&p["title"]));
            provenance(&mut body, p);
            body.raw("</li>");
        }
        body.raw("</ul>");
        body.close("section");
    }
    body.elem(
        "p",
        &[("class", "hint")],
        "memory/personal/PROFILE.md is the truth: a fact edited there by hand shows here as it is.",
    );
    if let Err(err) = &evolve {
        failed(&mut body, err);
    }
    Reply::page("memory", "Profile", body)
}

/// Where a fact came from: its evolve proposal, status and date.
fn provenance(body: &mut Html, proposal: &Value) {
    let id = str_of(&proposal["id"]);
    body.raw(" <span class=\"meta provenance\">(");
    body.link("/learning/proposal", &[("id", &id)], &id);
    body.text(&format!(
        ", {} · proposed {})",
        str_of(&proposal["status"]),
        str_of(&proposal["created"])
    ));
    body.raw("</span>");
}
