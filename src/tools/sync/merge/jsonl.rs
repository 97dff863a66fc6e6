//! Append-only JSONL: episodes (`agentbox.turn/v1` lines), foresight and any
//! other `*.jsonl`. Two versions merge as a union of lines, so nothing either
//! side appended is ever lost.

use super::Merged;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::HashSet;

/// The non-blank lines of a file, without their line ends. A torn last line
/// (no newline) is a line like any other.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes
        .split(|b| *b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
        .collect()
}

fn object(line: &[u8]) -> Option<Map<String, Value>> {
    match serde_json::from_slice(line) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// The three-way union of lines: every line of ours or theirs except a base
/// line that one side removed (a hand edit), each distinct line once, in the
/// order base → ours → theirs.
fn union(base: &[u8], ours: &[u8], theirs: &[u8]) -> Vec<Vec<u8>> {
    let (b, o, t) = (lines(base), lines(ours), lines(theirs));
    let in_base: HashSet<&[u8]> = b.iter().copied().collect();
    let in_ours: HashSet<&[u8]> = o.iter().copied().collect();
    let in_theirs: HashSet<&[u8]> = t.iter().copied().collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for line in b.into_iter().chain(o).chain(t) {
        let keep = if in_base.contains(line) {
            in_ours.contains(line) && in_theirs.contains(line)
        } else {
            true
        };
        if keep && seen.insert(line) {
            out.push(line.to_vec());
        }
    }
    out
}

/// Sorts lines (stably) by the first of `fields` a line has as a time, then
/// by `seq`; lines without a time follow, lines that are not JSON come last.
fn sort(lines: &mut [Vec<u8>], fields: &[&str]) {
    lines.sort_by_cached_key(|line| {
        let Some(map) = object(line) else {
            return (3u8, 0i64, 0u32, String::new(), 0u64);
        };
        let seq = map.get("seq").and_then(Value::as_u64).unwrap_or(0);
        let stamp = fields
            .iter()
            .find_map(|f| map.get(*f).and_then(Value::as_str));
        match stamp {
            Some(s) => match crate::clock::Time::parse(s) {
                Ok(t) => (0, t.as_second(), t.subsec_nanosecond(), String::new(), seq),
                Err(_) => (1, 0, 0, s.to_string(), seq),
            },
            None => (2, 0, 0, String::new(), seq),
        }
    });
}

fn join(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

/// Foresight and any other JSONL: the union of lines ordered by `updated`
/// (else `ts`, else `created`). Modify/delete keeps the side that exists.
pub fn merge_lines(base: Option<&[u8]>, ours: Option<&[u8]>, theirs: Option<&[u8]>) -> Vec<u8> {
    match (ours, theirs) {
        (Some(ours), Some(theirs)) => {
            let mut merged = union(base.unwrap_or(b""), ours, theirs);
            sort(&mut merged, &["updated", "ts", "created"]);
            join(&merged)
        }
        (Some(one), None) | (None, Some(one)) => one.to_vec(),
        (None, None) => Vec::new(),
    }
}

/// An episode file: the union of turn lines ordered by (`ts`, `seq`); two
/// different turns with one `id` both stay, the later renumbered. Two
/// different episodes added under one id (legacy ids minted by two homes)
/// stay apart: theirs moves to a new id.
pub fn merge_episode(
    rel: &str,
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Merged {
    let (ours, theirs) = match (ours, theirs) {
        (Some(ours), Some(theirs)) => (ours, theirs),
        // Closed or pruned on one side, appended on the other: keep every
        // line that still exists.
        (Some(one), None) | (None, Some(one)) => {
            return Merged::Clean(vec![(rel.to_string(), Some(one.to_vec()))]);
        }
        (None, None) => return Merged::Clean(vec![(rel.to_string(), None)]),
    };
    if base.is_none() {
        let first = |bytes| lines(bytes).first().map(|l| l.to_vec());
        if let (Some(a), Some(b)) = (first(ours), first(theirs))
            && a != b
        {
            return rename_theirs(rel, ours, theirs);
        }
    }
    let mut merged = renumber(union(base.unwrap_or(b""), ours, theirs));
    sort(&mut merged, &["ts"]);
    Merged::Clean(vec![(rel.to_string(), Some(join(&merged)))])
}

/// Gives a turn whose `id` an earlier line (in base → ours → theirs order)
/// already holds a fresh `seq` (the largest + 1) and the matching id.
fn renumber(lines: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let parsed: Vec<Option<Map<String, Value>>> = lines.iter().map(|l| object(l)).collect();
    let mut max_seq = parsed
        .iter()
        .flatten()
        .filter_map(|m| m.get("seq").and_then(Value::as_u64))
        .max()
        .unwrap_or(0);
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(lines.len());
    for (line, map) in lines.into_iter().zip(parsed) {
        let Some(mut map) = map else {
            out.push(line);
            continue;
        };
        let Some(id) = map.get("id").and_then(Value::as_str).map(str::to_string) else {
            out.push(line);
            continue;
        };
        if seen.insert(id.clone()) {
            out.push(line);
            continue;
        }
        let episode = match map.get("episode").and_then(Value::as_str) {
            Some(ep) => ep.to_string(),
            None => id
                .rsplit_once('#')
                .map_or(id.as_str(), |(ep, _)| ep)
                .to_string(),
        };
        let fresh = loop {
            max_seq = max_seq.saturating_add(1);
            let fresh = format!("{episode}#{max_seq}");
            if !seen.contains(&fresh) || max_seq == u64::MAX {
                break fresh;
            }
        };
        seen.insert(fresh.clone());
        map.insert("seq".to_string(), Value::from(max_seq));
        map.insert("id".to_string(), Value::from(fresh));
        out.push(to_line(&map, line));
    }
    out
}

fn to_line(map: &Map<String, Value>, fallback: Vec<u8>) -> Vec<u8> {
    serde_json::to_vec(map).unwrap_or(fallback)
}

/// The new id of their episode: `<id>-<first 6 hex of sha256(theirs)>`
/// (shortened so the file name stays a safe name).
fn renamed_id(id: &str, theirs: &[u8]) -> String {
    let digest = Sha256::digest(theirs);
    let hex: String = digest[..3].iter().map(|b| format!("{b:02x}")).collect();
    let room = crate::store::MAX_NAME_LEN - ".jsonl".len() - 1 - hex.len();
    let mut cut = id.len().min(room);
    while !id.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}-{hex}", &id[..cut])
}

/// Add/add of two different episodes under one id: ours stays at `rel`,
/// theirs moves to a new id (closed: a session has one open episode), with
/// every line's `episode` and `id` rewritten.
fn rename_theirs(rel: &str, ours: &[u8], theirs: &[u8]) -> Merged {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let id = name
        .strip_suffix(".open.jsonl")
        .or_else(|| name.strip_suffix(".jsonl"))
        .unwrap_or(name);
    let new_id = renamed_id(id, theirs);
    let file = format!("{new_id}.jsonl");
    if crate::store::safe_name("episode file", &file).is_err() {
        return Merged::Conflict(format!(
            "two different episodes were added as {id} and it cannot be renamed"
        ));
    }
    let new_rel = format!("{dir}/{file}");
    let mut rewritten = Vec::with_capacity(theirs.len() + 64);
    for line in lines(theirs) {
        match object(line) {
            Some(mut map) => {
                if map.get("episode").and_then(Value::as_str) == Some(id) {
                    map.insert("episode".to_string(), Value::from(new_id.as_str()));
                }
                let turn = map
                    .get("id")
                    .and_then(Value::as_str)
                    .and_then(|t| t.strip_prefix(id))
                    .and_then(|rest| rest.strip_prefix('#'))
                    .map(|seq| format!("{new_id}#{seq}"));
                if let Some(turn) = turn {
                    map.insert("id".to_string(), Value::from(turn));
                }
                rewritten.extend(to_line(&map, line.to_vec()));
            }
            None => rewritten.extend_from_slice(line),
        }
        rewritten.push(b'\n');
    }
    Merged::Clean(vec![
        (rel.to_string(), Some(ours.to_vec())),
        (new_rel, Some(rewritten)),
    ])
}
