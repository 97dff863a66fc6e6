//! JSON documents (plans, screening records, config.json): a structural
//! three-way merge, written back as the tools write them (pretty JSON, key
//! order kept, a trailing newline).

use super::{DELETED_CHANGED, seq, text};
use crate::store::MAX_REVISION;
use serde_json::{Map, Value};

/// Merges a JSON document. A side that is not JSON falls back to the line
/// merge; a document deleted on one side and changed on the other conflicts.
pub fn merge(
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let (Some(o), Some(t)) = (ours, theirs) else {
        return Err(DELETED_CHANGED.to_string());
    };
    let parse = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).ok();
    let b = base.map(parse);
    let (Some(ov), Some(tv), false) = (parse(o), parse(t), matches!(b, Some(None))) else {
        return text::merge_both(base, ours, theirs);
    };
    let merged = value("", None, b.flatten().as_ref(), &ov, &tv)?;
    let mut out = serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())?;
    out.push('\n');
    Ok(out.into_bytes())
}

/// A revision counter: both sides' changes make a new revision.
fn is_counter(key: &str) -> bool {
    matches!(key, "rev" | "revision" | "version")
}

/// The revision a merge of two sides' revisions `ours` and `theirs` makes:
/// one past both. Past [`MAX_REVISION`] it is a conflict (only a
/// hand-edited counter gets there), never a file its reader refuses.
pub fn next_revision(key: &str, ours: u64, theirs: u64) -> Result<u64, String> {
    match ours.max(theirs) {
        top if top < MAX_REVISION => Ok(top + 1),
        _ => Err(format!(
            "both sides changed {key}, already at the highest revision ({MAX_REVISION})"
        )),
    }
}

/// A time of last change: the later one wins.
fn is_time(key: &str) -> bool {
    key == "updated" || key.ends_with("_at")
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The later of two times (RFC 3339 when both parse, else as text).
pub fn later(ours: &str, theirs: &str) -> String {
    let newer = match (
        crate::clock::Time::parse(ours),
        crate::clock::Time::parse(theirs),
    ) {
        (Ok(o), Ok(t)) => t > o,
        _ => theirs > ours,
    };
    if newer { theirs } else { ours }.to_string()
}

/// Three-way merges one value found at `path` (under `key` in its object).
fn value(
    path: &str,
    key: Option<&str>,
    base: Option<&Value>,
    ours: &Value,
    theirs: &Value,
) -> Result<Value, String> {
    let both_changed = base.is_none_or(|b| b != ours && b != theirs);
    if let Some(key) = key
        && both_changed
    {
        if let (true, Some(o), Some(t)) = (is_counter(key), ours.as_u64(), theirs.as_u64())
            && (base.is_some() || o != t)
        {
            return next_revision(key, o, t).map(Value::from);
        }
        if let (true, Some(o), Some(t)) = (is_time(key), ours.as_str(), theirs.as_str()) {
            return Ok(Value::from(later(o, t)));
        }
    }
    if ours == theirs || base == Some(theirs) {
        return Ok(ours.clone());
    }
    if base == Some(ours) {
        return Ok(theirs.clone());
    }
    match (ours, theirs) {
        (Value::Object(o), Value::Object(t)) => {
            object(path, base.and_then(Value::as_object), o, t).map(Value::Object)
        }
        (Value::Array(o), Value::Array(t)) => {
            array(path, base.and_then(Value::as_array), o, t).map(Value::Array)
        }
        _ if path.is_empty() => Err("both sides changed the document".to_string()),
        _ => Err(format!("both set {}", Value::from(path))),
    }
}

fn removed_changed(path: &str) -> String {
    format!(
        "one side removed {}, the other changed it",
        Value::from(path)
    )
}

fn object(
    path: &str,
    base: Option<&Map<String, Value>>,
    ours: &Map<String, Value>,
    theirs: &Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for (k, o) in ours {
        let b = base.and_then(|m| m.get(k));
        let here = child(path, k);
        match (theirs.get(k), b) {
            (Some(t), _) => {
                out.insert(k.clone(), value(&here, Some(k), b, o, t)?);
            }
            (None, None) => {
                out.insert(k.clone(), o.clone());
            }
            (None, Some(b)) if b == o => {}
            (None, Some(_)) => return Err(removed_changed(&here)),
        }
    }
    for (k, t) in theirs {
        if ours.contains_key(k) {
            continue;
        }
        match base.and_then(|m| m.get(k)) {
            None => {
                out.insert(k.clone(), t.clone());
            }
            Some(b) if b == t => {}
            Some(_) => return Err(removed_changed(&child(path, k))),
        }
    }
    Ok(out)
}

/// The `id` of an array element, when it is an object that has one.
fn id_of(v: &Value) -> Option<String> {
    match v.get("id")? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The elements by id, when every element has a distinct id.
fn by_id(items: &[Value]) -> Option<Vec<(String, &Value)>> {
    let mut out: Vec<(String, &Value)> = Vec::with_capacity(items.len());
    let mut seen = std::collections::HashSet::new();
    for item in items {
        let id = id_of(item)?;
        if !seen.insert(id.clone()) {
            return None;
        }
        out.push((id, item));
    }
    Some(out)
}

fn array(
    path: &str,
    base: Option<&Vec<Value>>,
    ours: &[Value],
    theirs: &[Value],
) -> Result<Vec<Value>, String> {
    let empty = Vec::new();
    let base = base.unwrap_or(&empty);
    if let (Some(b), Some(o), Some(t)) = (by_id(base), by_id(ours), by_id(theirs))
        && !(o.is_empty() && t.is_empty())
    {
        let find = |list: &[(String, &Value)], id: &str| {
            list.iter()
                .find(|(i, _)| i == id)
                .map(|(_, v)| (*v).clone())
        };
        let mut out = Vec::new();
        for (id, ov) in &o {
            let bv = find(&b, id);
            let here = format!("{path}[id={id}]");
            match (find(&t, id), bv) {
                (Some(tv), bv) => out.push(value(&here, None, bv.as_ref(), ov, &tv)?),
                (None, None) => out.push((*ov).clone()),
                (None, Some(bv)) if &&bv == ov => {}
                (None, Some(_)) => return Err(removed_changed(&here)),
            }
        }
        for (id, tv) in &t {
            if o.iter().any(|(i, _)| i == id) {
                continue;
            }
            match find(&b, id) {
                None => out.push((*tv).clone()),
                Some(bv) if &&bv == tv => {}
                Some(_) => return Err(removed_changed(&format!("{path}[id={id}]"))),
            }
        }
        return Ok(out);
    }
    seq::merge(base, ours, theirs, |index, b, o, t| {
        value(&format!("{path}[{index}]"), None, Some(b), o, t)
    })
    .map_err(|failure| {
        failure.unwrap_or_else(|| match path {
            "" => "both sides changed the document".to_string(),
            _ => format!("both changed {}", Value::from(path)),
        })
    })
}
