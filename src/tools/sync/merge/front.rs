//! Markdown with front matter (notes in `memory/knowledge/`, personas in
//! `persona/`): the front matter merges key by key (revision counters become
//! max + 1, `updated`/`*_at` the later, lists a set union), the body merges
//! three-way by lines.

use super::json::{later, next_revision};
use super::{DELETED_CHANGED, text};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// One entry of the front matter: a `key: value` line with its indented or
/// `- item` lines, or any other line (a comment, a blank line).
#[derive(Debug, Clone, PartialEq)]
enum Block {
    Key(String, String),
    Other(String),
}

/// A file split at its front matter: the opening `---` line, the blocks, the
/// closing `---` line and the body (everything after it).
struct Doc<'a> {
    open: &'a str,
    blocks: Vec<Block>,
    close: &'a str,
    body: &'a str,
    /// Lines before the body (for conflict line numbers).
    head_lines: usize,
}

/// The key of a `key: value` line at column 0, if it is one.
fn key_of(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(':')?;
    crate::front::is_key(key).then_some(key)
}

/// Cuts a file at its front matter, within the bounds every front-matter
/// reader keeps (`None` otherwise: the file merges as text).
fn parse(text: &str) -> Option<Doc<'_>> {
    let split = crate::front::split(text, crate::front::Fences::Strict)?;
    let close = split.close?;
    split.bound().ok()?;
    let mut blocks: Vec<Block> = Vec::new();
    for line in split.front.split_inclusive('\n') {
        let continues =
            line.starts_with([' ', '\t']) && !line.trim().is_empty() || line.starts_with("- ");
        match (blocks.last_mut(), key_of(line)) {
            (_, Some(key)) => blocks.push(Block::Key(key.to_string(), line.to_string())),
            (Some(Block::Key(_, text)), None) if continues => text.push_str(line),
            _ => blocks.push(Block::Other(line.to_string())),
        }
    }
    Some(Doc {
        open: split.open,
        blocks,
        close,
        body: split.body,
        head_lines: split.close_line,
    })
}

/// The value after `key:` on the block's first line.
fn first_value(block: &str) -> &str {
    let first = block.lines().next().unwrap_or("");
    first.split_once(':').map_or("", |(_, v)| v.trim())
}

/// Splits a flow list's inside at commas outside quotes.
fn flow_items(inside: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut cur, mut quote, mut escaped) = (String::new(), None::<char>, false);
    for c in inside.chars() {
        match quote {
            Some('"') if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == ',' => {
                items.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            None => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() || !items.is_empty() {
        items.push(cur.trim().to_string());
    }
    items
}

/// A list value: `key: [a, b]` (flow) or `key:` and `- a` lines (block).
/// Returns the items and, for a block list, the indentation of its items.
fn list(block: &str) -> Option<(Vec<String>, Option<String>)> {
    let value = first_value(block);
    if let Some(inside) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        return Some((flow_items(inside), None));
    }
    if !value.is_empty() {
        return None;
    }
    let mut items = Vec::new();
    let mut indent = None;
    for line in block.lines().skip(1) {
        let trimmed = line.trim_start();
        let item = trimmed
            .strip_prefix("- ")
            .or((trimmed == "-").then_some(""))?;
        indent.get_or_insert_with(|| line[..line.len() - trimmed.len()].to_string());
        items.push(item.trim().to_string());
    }
    (!items.is_empty()).then_some((items, Some(indent.unwrap_or_default())))
}

fn merge_key(key: &str, base: Option<&str>, ours: &str, theirs: &str) -> Result<String, String> {
    let (o, t) = (first_value(ours), first_value(theirs));
    // Both sides made a revision: the merge is a new one, past both.
    if matches!(key, "rev" | "revision" | "version")
        && base.is_none_or(|b| b != ours && b != theirs)
        && (base.is_some() || ours != theirs)
        && let (Ok(o), Ok(t)) = (o.parse::<u64>(), t.parse::<u64>())
    {
        return Ok(format!("{key}: {}\n", next_revision(key, o, t)?));
    }
    if ours == theirs || base == Some(theirs) {
        return Ok(ours.to_string());
    }
    if base == Some(ours) {
        return Ok(theirs.to_string());
    }
    if key == "updated" || key.ends_with("_at") {
        return Ok(format!("{key}: {}\n", later(o, t)));
    }
    if let (Some((oi, indent)), Some((ti, _))) = (list(ours), list(theirs)) {
        let bi = base
            .and_then(list)
            .map(|(items, _)| items)
            .unwrap_or_default();
        let (b, t_set): (HashSet<&String>, HashSet<&String>) =
            (bi.iter().collect(), ti.iter().collect());
        let mut seen = HashSet::new();
        let mut items = Vec::new();
        for item in &oi {
            if (t_set.contains(item) || !b.contains(item)) && seen.insert(item.clone()) {
                items.push(item.clone());
            }
        }
        for item in &ti {
            if !oi.contains(item) && !b.contains(item) && seen.insert(item.clone()) {
                items.push(item.clone());
            }
        }
        return Ok(match indent {
            None => format!("{key}: [{}]\n", items.join(", ")),
            Some(indent) => {
                let lines: String = items.iter().map(|i| format!("{indent}- {i}\n")).collect();
                format!("{key}:\n{lines}")
            }
        });
    }
    Err(format!("both set {}", Value::from(key)))
}

fn ended(mut s: String) -> String {
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Each key's block (the first, when a key repeats) by key.
fn keys(blocks: &[Block]) -> HashMap<&str, &str> {
    let mut map = HashMap::new();
    for block in blocks {
        if let Block::Key(k, text) = block {
            map.entry(k.as_str()).or_insert(text.as_str());
        }
    }
    map
}

fn merge_front(base: &[Block], ours: &[Block], theirs: &[Block]) -> Result<String, String> {
    // one lookup per key (a front matter may hold a hundred thousand keys)
    let (base_keys, ours_keys, theirs_keys) = (keys(base), keys(ours), keys(theirs));
    let others = |blocks: &[Block]| -> HashSet<String> {
        blocks
            .iter()
            .filter_map(|b| match b {
                Block::Other(line) => Some(line.clone()),
                Block::Key(..) => None,
            })
            .collect()
    };
    let removed = |key: &str| {
        format!(
            "one side removed {}, the other changed it",
            Value::from(key)
        )
    };
    let (base_other, ours_other, theirs_other) = (others(base), others(ours), others(theirs));
    let mut out: Vec<String> = Vec::new();
    // Their new keys go after our last key (before trailing comments).
    let mut after_keys = 0;
    for block in ours {
        match block {
            Block::Key(k, o) => {
                match (theirs_keys.get(k.as_str()), base_keys.get(k.as_str())) {
                    (Some(t), b) => out.push(ended(merge_key(k, b.copied(), o, t)?)),
                    (None, None) => out.push(ended(o.clone())),
                    (None, Some(b)) if b == o => {}
                    (None, Some(_)) => return Err(removed(k)),
                }
                after_keys = out.len();
            }
            Block::Other(line) => {
                if !base_other.contains(line) || theirs_other.contains(line) {
                    out.push(ended(line.clone()));
                }
            }
        }
    }
    let mut new_keys = Vec::new();
    for block in theirs {
        match block {
            Block::Key(k, t) if !ours_keys.contains_key(k.as_str()) => {
                match base_keys.get(k.as_str()) {
                    None => new_keys.push(ended(t.clone())),
                    Some(b) if b == t => {}
                    Some(_) => return Err(removed(k)),
                }
            }
            Block::Other(line) if !ours_other.contains(line) && !base_other.contains(line) => {
                out.push(ended(line.clone()));
            }
            _ => {}
        }
    }
    out.splice(after_keys..after_keys, new_keys);
    Ok(out.concat())
}

/// Merges a note or a persona. Deleted on one side and changed on the other,
/// or not UTF-8, is a conflict; without front matter it is a text merge.
pub fn merge(
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let (Some(o_bytes), Some(t_bytes)) = (ours, theirs) else {
        return Err(DELETED_CHANGED.to_string());
    };
    let (Ok(b), Ok(o), Ok(t)) = (
        std::str::from_utf8(base.unwrap_or(b"")),
        std::str::from_utf8(o_bytes),
        std::str::from_utf8(t_bytes),
    ) else {
        return Err("both sides changed a file that is not UTF-8 text".to_string());
    };
    let base_doc = parse(b);
    let (Some(od), Some(td)) = (parse(o), parse(t)) else {
        return text::merge3(b, o, t).map(String::into_bytes);
    };
    if base_doc.is_none() && !b.is_empty() {
        return text::merge3(b, o, t).map(String::into_bytes);
    }
    let (base_blocks, base_body) = base_doc.map_or((Vec::new(), ""), |d| (d.blocks, d.body));
    let front = merge_front(&base_blocks, &od.blocks, &td.blocks)?;
    let body = text::merge3_at(base_body, od.body, td.body, od.head_lines)?;
    let mut out = String::with_capacity(o.len() + t.len());
    out.push_str(&ended(od.open.to_string()));
    out.push_str(&front);
    out.push_str(&ended(od.close.to_string()));
    out.push_str(&body);
    Ok(out.into_bytes())
}
