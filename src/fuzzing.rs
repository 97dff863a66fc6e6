//! Entry points of the coverage-guided fuzz targets in `fuzz/` (see
//! docs/FUZZING.md) and of their regression tests (tests/it/fuzz_regressions.rs).
//!
//! Each function feeds arbitrary bytes through a real parser, then checks what
//! that parser promises (round trips, bounds, agreement with a naive model).
//! A panic is a finding. The result says whether the parser accepted the input
//! (`Err` holds its error message), so a regression test can pin it.
//!
//! Not a public API: hidden from the docs and free to change with the parsers.

use crate::tools::knowledge::note::Note;
use crate::tools::knowledge::profile::{self, ProfileDoc, Section};
use crate::tools::plan::{PlanDoc, input};
use crate::tools::track::episodes::{self, EpisodeFile};
use crate::tools::track::{ROLES, import, parse_messages};
use serde_json::Value;
use std::path::Path;

/// What the parser said: `Ok` accepted, `Err` its error message.
pub type Verdict = Result<(), String>;

const FALLBACK_DATE: &str = "2026-01-01T00:00:00Z";

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A knowledge note file (front matter + body). Accepted notes must render
/// back to text that parses to the same note.
pub fn note(data: &[u8]) -> Verdict {
    let Some(text) = text(data) else {
        return Err("not UTF-8".into());
    };
    let note = Note::parse("fuzz", text, FALLBACK_DATE).map_err(|e| {
        assert!(e.line >= 1, "a parse error names line {}", e.line);
        assert!(
            e.line <= text.split('\n').count(),
            "line {} is past the end",
            e.line
        );
        e.message
    })?;
    let rendered = note.render();
    let again = Note::parse("fuzz", &rendered, "unused").unwrap_or_else(|e| {
        panic!(
            "a rendered note does not parse: line {}: {}\n{rendered}",
            e.line, e.message
        )
    });
    // Known and accepted: stray `\r`s ending a line (`v\r\r\n`) of the body
    // or of an unknown key are read as content and written before the `\n`,
    // so each rewrite drops one. Compare with them stripped.
    assert_eq!(
        cr_blind(&again),
        cr_blind(&note),
        "render then parse changed the note:\n{rendered}"
    );
    let _ = note.view("fuzz.md");
    Ok(())
}

/// `note` with every `\r` at the end of a body or extra line removed.
fn cr_blind(note: &Note) -> Note {
    let strip = |line: &str| line.trim_end_matches('\r').to_string();
    let mut note = note.clone();
    note.body = note
        .body
        .split('\n')
        .map(strip)
        .collect::<Vec<_>>()
        .join("\n");
    note.extra = note.extra.iter().map(|l| strip(l)).collect();
    note
}

/// A stored plan (`plans/<id>.json`) and a plan file given to `plan create
/// --file`, as JSON and as a markdown checklist.
pub fn plan(data: &[u8]) -> Verdict {
    let Some(text) = text(data) else {
        return Err("not UTF-8".into());
    };
    for name in ["plan.md", "plan.json"] {
        if let Ok(parsed) = input::parse(text, name) {
            // A `.json` name or a leading `{` means JSON; otherwise markdown.
            if name == "plan.md" && !text.trim_start().starts_with('{') {
                assert!(!parsed.steps.is_empty(), "a markdown plan without steps");
                for step in &parsed.steps {
                    assert!(!step.text.trim().is_empty(), "a markdown step has no text");
                    assert!(!step.text.contains('\n'), "a markdown step spans lines");
                }
            }
        }
    }
    let doc = PlanDoc::parse(text, Path::new("plans/fuzz.json")).map_err(|e| e.message)?;
    let view = doc.to_view();
    let _ = doc.to_summary();
    let p = doc.progress();
    assert_eq!(
        p.pending + p.in_progress + p.done + p.blocked,
        doc.steps.len()
    );
    assert_eq!(
        view["steps"].as_array().map(Vec::len),
        Some(doc.steps.len())
    );
    if let Some(i) = doc.next_index() {
        assert!(i < doc.steps.len());
    }
    for n in [0, 1, doc.steps.len(), doc.steps.len() + 1] {
        if let Ok(i) = doc.step_index(n) {
            let _ = doc.ensure_can_start(i);
            let _ = doc.step_json(i);
        }
    }
    // The stored form is the serialized doc: it must read back.
    let stored = serde_json::to_string_pretty(&doc).expect("a plan serializes");
    let back = PlanDoc::parse(&stored, Path::new("plans/fuzz.json"))
        .unwrap_or_else(|e| panic!("a written plan does not read back: {}", e.message));
    assert_eq!(back.to_view(), view, "write then read changed the plan");
    Ok(())
}

/// Collapses whitespace and drops a leading list marker, like
/// `profile::clean_fact` (which also redacts, through a Home).
fn clean_fact(raw: &str) -> Option<String> {
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = text
        .strip_prefix("- ")
        .or_else(|| text.strip_prefix("* "))
        .unwrap_or(&text)
        .trim()
        .to_string();
    (!text.is_empty() && !text.chars().any(char::is_control)).then_some(text)
}

/// Removes one `item` from `list`, if it is there.
fn without(list: &[String], item: &str) -> Option<Vec<String>> {
    let at = list.iter().position(|x| x == item)?;
    let mut rest = list.to_vec();
    rest.remove(at);
    Some(rest)
}

/// PROFILE.md. Input: one control byte (bit 0: the section to add to; the
/// rest: which bullet to remove), a fact, a NUL, then the file. Parsing keeps
/// the text byte for byte; adding a fact adds exactly that bullet and keeps
/// every other; removing a bullet removes exactly one.
pub fn profile(data: &[u8]) -> Verdict {
    let Some((&ctrl, rest)) = data.split_first() else {
        return Err("empty".into());
    };
    let Some(rest) = text(rest) else {
        return Err("not UTF-8".into());
    };
    let (fact, file) = rest.split_once('\0').unwrap_or(("Prefers tabs.", rest));
    if file.contains('\0') {
        // `load` refuses a PROFILE.md with a NUL byte before parsing it.
        return Err("NUL byte".into());
    }
    let doc = ProfileDoc::parse(file);
    assert_eq!(doc.text(), file, "parsing changed the text");
    let before = doc.profile();
    for text in before.preferences.iter().chain(&before.facts) {
        assert!(!text.is_empty(), "an empty bullet was listed");
    }
    let section = if ctrl & 1 == 0 {
        Section::Preferences
    } else {
        Section::Facts
    };
    let other = if section == Section::Facts {
        Section::Preferences
    } else {
        Section::Facts
    };
    // `add_facts` never adds a fact equal to a bullet already there.
    let known = |fact: &String| {
        let wanted = profile::normalize(fact);
        before
            .preferences
            .iter()
            .chain(&before.facts)
            .any(|b| profile::normalize(b) == wanted)
    };
    if let Some(fact) = clean_fact(fact).filter(|f| !known(f)) {
        let mut added = doc.clone();
        added.add(section, &[&fact]);
        let after = added.profile();
        let kept = without(after.section(section), &fact).unwrap_or_else(|| {
            panic!(
                "the added fact {fact:?} is not a {} bullet:\n{}",
                section.singular(),
                added.text()
            )
        });
        assert_eq!(
            kept,
            before.section(section),
            "adding changed other bullets:\n{}",
            added.text()
        );
        assert_eq!(
            after.section(other),
            before.section(other),
            "adding changed the other section:\n{}",
            added.text()
        );
        assert_eq!(ProfileDoc::parse(&added.text()).profile(), after);
    }
    let total = before.preferences.len() + before.facts.len();
    if total > 0 {
        let mut removed = doc.clone();
        removed.remove(&[usize::from(ctrl >> 1) % total]);
        let after = removed.profile();
        assert_eq!(
            after.preferences.len() + after.facts.len(),
            total - 1,
            "removing one bullet did not remove exactly one:\n{}",
            removed.text()
        );
    }
    let _ = profile::normalize(file);
    Ok(())
}

/// An episode file (`memory/episodes/<session>/<id>.jsonl`). Input: one
/// control byte (bits 0-2: how many last lines to tail; the rest: how many
/// times the text repeats in the file), then the file. Parsing never fails;
/// `tail` (which reads the file backwards in growing windows) must agree with
/// a full read. `scratch` is a writable directory for the file.
pub fn episode(data: &[u8], scratch: &Path) -> Verdict {
    let Some((&ctrl, body)) = data.split_first() else {
        return Err("empty".into());
    };
    let parsed = episodes::parse_text(body, "s", "ep-20260101T000000Z-1");
    let lines = body.split(|b| *b == b'\n').count();
    assert!(parsed.turns.len() + parsed.broken.len() <= lines);
    for broken in &parsed.broken {
        assert!(broken.line >= 1 && broken.line <= lines);
    }
    for turn in &parsed.turns {
        assert!(!turn.session.is_empty() && !turn.episode.is_empty() && !turn.id.is_empty());
    }
    let docs = episodes::docs_for(
        "memory/episodes/s/ep-20260101T000000Z-1.jsonl",
        &parsed.turns,
    );
    assert_eq!(docs.len(), parsed.turns.len());

    let want = usize::from(ctrl & 7) + 1;
    let copies = usize::from(ctrl >> 3) + 1;
    let copies = copies.min(128 * 1024 / body.len().max(1)).max(1);
    let file: Vec<u8> = body.repeat(copies);
    let path = scratch.join("episode.open.jsonl");
    std::fs::write(&path, &file).expect("write the scratch episode");
    let ep = EpisodeFile {
        session: "s".into(),
        id: "ep-20260101T000000Z-1".into(),
        open: true,
        path,
    };
    let tail = episodes::tail(&ep, want).map_err(|e| e.message)?;
    let all: Vec<&[u8]> = file
        .split(|b| *b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .collect();
    let expect: Vec<Option<episodes::Turn>> = all[all.len().saturating_sub(want)..]
        .iter()
        .map(|l| {
            std::str::from_utf8(l)
                .ok()
                .and_then(|s| serde_json::from_str(s).ok())
        })
        .collect();
    assert_eq!(tail, expect, "tail disagrees with a full read");
    Ok(())
}

/// The MCP stdio transport. Input: one control byte (bits 0-3: the reader's
/// buffer size; bits 4-7: the line cap), then the stream. The line reader must
/// split exactly like a naive reader; every line is classified (batches
/// unpacked) and its replies bounded.
pub fn mcp(data: &[u8]) -> Verdict {
    use crate::mcp::protocol::{self, Frame, LineReader, Message};
    let Some((&ctrl, stream)) = data.split_first() else {
        return Err("empty".into());
    };
    let capacity = usize::from(ctrl & 15) + 1;
    let cap = match ctrl >> 4 {
        15 => usize::MAX,
        n => usize::from(n) * 16,
    };
    let mut reader = LineReader::new(std::io::BufReader::with_capacity(capacity, stream), cap);
    let mut frames = Vec::new();
    loop {
        match reader.next_frame().expect("reading a slice cannot fail") {
            Frame::Eof => break,
            frame => frames.push(frame),
        }
    }
    let mut expect = Vec::new();
    let mut pieces: Vec<&[u8]> = stream.split(|b| *b == b'\n').collect();
    if pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    for piece in pieces {
        expect.push(if piece.len() > cap {
            Frame::Oversize {
                observed: piece.len() as u64,
            }
        } else {
            Frame::Line(piece.strip_suffix(b"\r").unwrap_or(piece).to_vec())
        });
    }
    assert_eq!(
        frames, expect,
        "the line reader disagrees with a naive split"
    );

    let mut verdict = Ok(());
    for frame in frames {
        let Frame::Line(line) = frame else { continue };
        let messages = match protocol::parse(&line) {
            Ok(Value::Array(batch)) => {
                // One line is one message; a batch is unpacked by the server.
                assert!(matches!(protocol::classify(&line), Message::Invalid { .. }));
                batch.into_iter().map(protocol::classify_value).collect()
            }
            Ok(value) => {
                let one = protocol::classify_value(value);
                assert_eq!(protocol::classify(&line), one);
                vec![one]
            }
            Err(message) => vec![message],
        };
        let mut replies = Vec::new();
        for message in messages {
            match message {
                Message::Request { id, method, params } => {
                    assert!(
                        id.is_string() || id.is_i64() || id.is_u64(),
                        "unusable id {id}"
                    );
                    let _ = protocol::params_object(params);
                    replies.push(protocol::reply(&id, Value::from(method)));
                }
                Message::Notification { params, .. } => {
                    let _ = protocol::params_object(params);
                }
                Message::Response => {}
                Message::Invalid { id, error } => {
                    verdict = Err(error.message.clone());
                    replies.push(protocol::reply_error(&id, &error));
                }
            }
        }
        for reply in &replies {
            let line = protocol::reply_line(reply, 4096);
            assert!(
                serde_json::from_str::<Value>(&line).is_ok(),
                "a reply line is not JSON"
            );
        }
        let batch = protocol::batch_line(&replies, 4096);
        assert!(
            serde_json::from_str::<Value>(&batch).is_ok(),
            "a batch line is not JSON"
        );
        let max = 1_000 + usize::from(ctrl) * 8;
        let text = String::from_utf8_lossy(&line).repeat(1 + usize::from(ctrl) / 16);
        let (bounded, cut) = protocol::bound_text(text.clone(), max);
        assert!(
            bounded.chars().count() <= max,
            "bound_text exceeds its bound"
        );
        assert_eq!(cut, text.chars().count() > max);
        if let Ok(value) = protocol::parse(&line) {
            let (bounded, cut) = protocol::bound_json(value.clone(), 64);
            if cut {
                let fits = bounded.to_string().chars().count() <= 64;
                let scalars = bounded.as_object().is_some_and(|o| {
                    o.values()
                        .all(|v| !(v.is_string() || v.is_array() || v.is_object()))
                });
                assert!(
                    fits || scalars || !value.is_object(),
                    "bound_json exceeds its bound"
                );
            } else {
                assert_eq!(bounded, value);
            }
        }
    }
    verdict
}

/// An `odek.event/v1` stream for `track import`. Accepted streams map to runs
/// whose tool turns each carry one call and whose times are normalized.
pub fn import(data: &[u8]) -> Verdict {
    let Some(text) = text(data) else {
        return Err("not UTF-8".into());
    };
    let runs = import::parse_stream(text, crate::clock::Time::MAX).map_err(|e| {
        let line = e.detail.get("line").and_then(Value::as_u64);
        let line = line.unwrap_or_else(|| panic!("an import error names no line: {}", e.message));
        assert!(line >= 1 && line as usize <= text.split('\n').count());
        e.message
    })?;
    let mut ids = std::collections::HashSet::new();
    for run in &runs {
        assert!(
            ids.insert(run.run_id.clone()),
            "run {} appears twice",
            run.run_id
        );
        assert!(!run.run_id.is_empty() && !run.drafts.is_empty());
        let tools = run.drafts.iter().filter(|d| d.role == "tool").count();
        assert_eq!(run.tool_calls, tools);
        assert!(run.failed + run.unfinished <= tools);
        for draft in &run.drafts {
            assert_eq!(
                episodes::normalize_ts(&draft.ts).as_deref(),
                Some(draft.ts.as_str())
            );
            assert!(draft.ts.as_str() >= "1970", "{} is before 1970", draft.ts);
            if draft.role == "tool" {
                assert_eq!(draft.tool_calls.len(), 1);
                assert_eq!(draft.tool_call_id.as_ref(), Some(&draft.tool_calls[0].id));
            } else {
                assert_eq!(draft.role, "system");
            }
        }
    }
    Ok(())
}

/// The `messages[]` input (`track record --messages`, MCP `mem_save_turn`),
/// read as `record` reads a file; accepted messages also go through the
/// profile fact extractor that `mem_save_turn` runs.
pub fn messages(data: &[u8]) -> Verdict {
    let Some(text) = text(data) else {
        return Err("not UTF-8".into());
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let parsed = parse_messages(&value).map_err(|e| {
        let field = e.detail.get("field").and_then(Value::as_str);
        assert!(
            field.is_some_and(|f| f.starts_with("messages")),
            "an error names no field: {}",
            e.message
        );
        e.message
    })?;
    for m in &parsed {
        assert!(ROLES.contains(&m.role.as_str()));
        assert!(
            m.timestamp
                .is_none_or(|t| t >= crate::clock::Time::UNIX_EPOCH)
        );
        assert!(!m.content.trim().is_empty() || !m.tool_calls.is_empty());
        for call in &m.tool_calls {
            assert!(!call.name.trim().is_empty() && call.name.len() <= 256);
            assert!(call.id.len() <= 256);
        }
    }
    let pairs: Vec<(String, String)> = parsed
        .iter()
        .map(|m| (m.role.clone(), m.content.clone()))
        .collect();
    for (_, fact) in profile::extract(&pairs) {
        assert!(!fact.trim().is_empty(), "an extracted fact is empty");
        assert!(
            !fact.contains('\n'),
            "an extracted fact spans lines: {fact:?}"
        );
    }
    Ok(())
}

/// A search query read as a question (`search::ask`): a named time is a
/// window that is not empty, and the query words are the text's own words,
/// at most 32.
pub fn question(data: &[u8]) -> Verdict {
    let Some(text) = text(data) else {
        return Err("not UTF-8".into());
    };
    let now = crate::clock::Time::parse(FALLBACK_DATE).map_err(|e| e.to_string())?;
    let asked = crate::search::ask(text, now);
    if let Some((from, to)) = asked.window {
        assert!(from < to, "an empty window {from}..{to}");
    }
    let all = crate::search::query_terms(text);
    assert!(asked.terms.len() <= 32);
    let lower = text.to_lowercase();
    for term in &asked.terms {
        assert!(
            all.contains(term) || lower.contains(term.as_str()),
            "{term:?} is not a word of the query"
        );
    }
    Ok(())
}
