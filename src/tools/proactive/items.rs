//! The item store: `memory/foresight.jsonl`, append-only with tombstones.
//!
//! Every change appends the item's whole new state with a newer `updated`;
//! the current state of an id is its line with the greatest `updated` (on a
//! tie, the later line). `dismiss` and `done` are the tombstones. So two
//! homes' files merge as the union of their lines, in any order.
//!
//! Appends hold the `foresight` lock and write whole fsynced lines. A line
//! torn by a crash (the last one, without its newline) is skipped by readers
//! and reported by `doctor`; any other unreadable line is skipped with a
//! warning naming the file and line.

use super::{FORESIGHT_FILE, Item, ItemStatus};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::store::Lock;
use crate::tools::Check;
use std::collections::HashMap;
use std::path::PathBuf;

/// The lock held for every append to `foresight.jsonl`.
pub const LOCK: &str = "foresight";

/// A line of the file that is not an item.
#[derive(Debug, Clone, PartialEq)]
pub struct BadLine {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

/// What the file holds, read once.
#[derive(Debug, Clone, Default)]
pub struct Items {
    /// The current state of every item, in order of first appearance.
    pub items: Vec<Item>,
    /// The last line, cut short by a crash (no newline, not an item).
    pub torn: Option<BadLine>,
    /// Other lines that are not items.
    pub bad: Vec<BadLine>,
    /// Lines read (item states, all versions).
    pub lines: usize,
}

impl Items {
    /// Parses the file's bytes.
    pub fn parse(bytes: &[u8]) -> Items {
        let mut out = Items::default();
        let mut latest: HashMap<String, usize> = HashMap::new();
        let ends_whole = bytes.ends_with(b"\n");
        let raws: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        let count = raws.len();
        for (i, raw) in raws.into_iter().enumerate() {
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let line = i + 1;
            let parsed = std::str::from_utf8(raw)
                .map_err(|_| "not valid UTF-8".to_string())
                .and_then(|text| {
                    serde_json::from_str::<Item>(text).map_err(|e| format!("not an item: {e}"))
                })
                .and_then(|item| match item.check_times() {
                    Ok(()) => Ok(item),
                    Err(field) => Err(format!("not an item: {field} is not an RFC 3339 time")),
                });
            match parsed {
                Ok(item) => {
                    out.lines += 1;
                    match latest.get(&item.id) {
                        Some(&at) => {
                            // The greatest `updated` wins; a tie goes to the later line.
                            if item.updated_at() >= out.items[at].updated_at() {
                                out.items[at] = item;
                            }
                        }
                        None => {
                            latest.insert(item.id.clone(), out.items.len());
                            out.items.push(item);
                        }
                    }
                }
                Err(message) => {
                    let bad = BadLine { line, message };
                    if i + 1 == count && !ends_whole {
                        out.torn = Some(bad);
                    } else {
                        out.bad.push(bad);
                    }
                }
            }
        }
        out
    }

    /// The item with this id, or the one item whose id starts with it —
    /// whole (`f-3a9c`, `fx_63d5`) or without its family prefix (`3a9c`,
    /// `63d5`): every id any verb prints is taken, whatever minted it (`add`
    /// makes `f-…`, `extract` makes `fx_…`, a hand-edited or synced file may
    /// hold others). An exact id wins over a longer id it starts. Unknown:
    /// `not_found`; ambiguous: `invalid_args`.
    pub fn find(&self, id: &str) -> Result<&Item> {
        let id = id.trim();
        if id.is_empty() {
            return Err(Error::invalid_args("an item id cannot be empty")
                .with_hint("pass an id as `proactive list` shows it (f-… or fx_…)"));
        }
        if let Some(item) = self.items.iter().find(|i| i.id == id) {
            return Ok(item);
        }
        // The bare body of one id (`3a9c…` of `f-3a9c…`); the body of two
        // ids of different families is ambiguous, reported below.
        if let [item] = self
            .items
            .iter()
            .filter(|i| id_body(&i.id) == id)
            .collect::<Vec<_>>()
            .as_slice()
        {
            return Ok(item);
        }
        let matching: Vec<&Item> = self
            .items
            .iter()
            .filter(|i| i.id.starts_with(id) || id_body(&i.id).starts_with(id))
            .collect();
        match matching.as_slice() {
            [one] => Ok(one),
            [] => Err(Error::not_found(format!("no item '{id}'"))
                .with_hint("list the items with `proactive list --all`")
                .with_detail("id", id)),
            many => Err(Error::invalid_args(format!(
                "'{id}' is the start of {} item ids",
                many.len()
            ))
            .with_hint(format!(
                "give more of the id: {}",
                many.iter()
                    .map(|i| i.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .with_detail("id", id)),
        }
    }
}

/// An id without its family prefix (`f-` of `add`, `fx_` of `extract`), so
/// that the bare hex a user copies finds it.
fn id_body(id: &str) -> &str {
    id.strip_prefix("f-")
        .or_else(|| id.strip_prefix("fx_"))
        .unwrap_or(id)
}

impl Item {
    pub fn updated_at(&self) -> crate::clock::Time {
        super::parse_time(&self.updated).unwrap_or(crate::clock::Time::MIN)
    }
}

/// The path of `foresight.jsonl`, checked to stay inside the home.
pub fn path(home: &Home) -> Result<PathBuf> {
    let path = home.store.root().join(FORESIGHT_FILE);
    home.store.check_path(&path)?;
    Ok(path)
}

/// Reads the file once (no index: `mem_context` calls this on every call).
/// Unreadable lines other than a torn last one become warnings of the call.
pub fn read(home: &Home) -> Result<Items> {
    let items = read_quiet(home)?;
    for bad in &items.bad {
        home.warn(format!(
            "{FORESIGHT_FILE}:{}: unreadable line ignored ({}); `agentbox doctor` reports it",
            bad.line, bad.message
        ));
    }
    Ok(items)
}

/// Reads the file without recording warnings.
fn read_quiet(home: &Home) -> Result<Items> {
    let path = path(home)?;
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Items::parse(&bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Items::default()),
        Err(e) => Err(Error::io("read", &path, &e)),
    }
}

/// Holds the `foresight` lock for a read-modify-append.
#[derive(Debug)]
pub struct Writer<'h> {
    home: &'h Home,
    held: Lock,
    path: PathBuf,
}

impl<'h> Writer<'h> {
    pub fn lock(home: &'h Home) -> Result<Writer<'h>> {
        let dir = home.store.path(&["memory"])?;
        home.store.ensure_dir(&dir)?;
        let path = path(home)?;
        let held = home.store.lock(LOCK)?;
        Ok(Writer { home, held, path })
    }

    /// The items as they are under the lock.
    pub fn read(&self) -> Result<Items> {
        read(self.home)
    }

    /// Appends item states (new items, or new states of existing ones), in
    /// one fsynced write. Each text must fit `limits.max_item_bytes`.
    pub fn append(&self, items: &[Item]) -> Result<()> {
        let limit = self.home.store.max_item_bytes();
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            crate::store::check_size("an item's text", item.text.len() as u64, limit)?;
            // A time past year 9999 (or otherwise unreadable) would make a
            // line every reader skips: refuse it rather than store it.
            if let Err(field) = item.check_times() {
                return Err(Error::invalid_args(format!(
                    "the item's {field} is outside the times that can be stored \
                     (years 1970 to 9999)"
                ))
                .with_hint("choose a nearer time")
                .with_detail("field", field));
            }
            values.push(
                serde_json::to_value(item)
                    .map_err(|e| Error::internal(format!("cannot serialize an item: {e}")))?,
            );
        }
        self.home
            .store
            .append_jsonl_held(&self.held, &self.path, &values)
    }
}

/// Appends item states under the lock.
pub fn append(home: &Home, items: &[Item]) -> Result<()> {
    Writer::lock(home)?.append(items)
}

/// The current state of every item.
pub fn current(home: &Home) -> Result<Vec<Item>> {
    Ok(read(home)?.items)
}

/// A new item id: `f-` and 12 random hex digits (unique across homes, so
/// that synced files merge), none of `items`' (drawn again on a clash,
/// which `AGENTBOX_SEED` left set would make certain: every process draws
/// the same ids, and a clash would replace the item that has it).
pub fn new_id(items: &Items) -> String {
    loop {
        let id = format!("f-{}", crate::ids::hex(12));
        if !items.items.iter().any(|i| i.id == id) {
            return id;
        }
    }
}

/// Doctor: every line of `foresight.jsonl` is an item.
pub fn check_store(home: &Home) -> Check {
    let name = "foresight";
    let items = match read_quiet(home) {
        Ok(items) => items,
        Err(e) => return Check::fail(name, e.message, e.hint),
    };
    if let Some(bad) = &items.torn {
        return Check::fail(
            name,
            format!(
                "foresight.jsonl: line {} is torn (a write was cut short); it is ignored",
                bad.line
            ),
            format!(
                "delete line {} of {FORESIGHT_FILE} by hand; if it was an item, add it again with `proactive add`",
                bad.line
            ),
        );
    }
    if let Some(bad) = items.bad.first() {
        return Check::fail(
            name,
            format!(
                "foresight.jsonl: line {} is unreadable ({}); it is ignored",
                bad.line, bad.message
            ),
            format!(
                "fix or delete line {} of {FORESIGHT_FILE} by hand (each line is one item state)",
                bad.line
            ),
        );
    }
    let open = items
        .items
        .iter()
        .filter(|i| matches!(i.status, ItemStatus::Open | ItemStatus::Snoozed))
        .count();
    Check::pass(
        name,
        format!("{} item(s), {open} open or snoozed", items.items.len()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, updated: &str, status: &str) -> String {
        format!(
            r#"{{"id":"{id}","text":"t","valid_from":"2026-01-01T00:00:00Z","valid_until":"2026-02-01T00:00:00Z","source":"cli","created":"2026-01-01T00:00:00Z","updated":"{updated}","status":"{status}"}}"#
        )
    }

    #[test]
    fn the_newest_state_wins_and_bad_lines_are_kept_apart() {
        let text = [
            line("f-1", "2026-01-03T00:00:00Z", "done"),
            "not json".to_string(),
            line("f-1", "2026-01-02T00:00:00Z", "open"),
            line("f-2", "2026-01-02T00:00:00Z", "open"),
            line("f-2", "2026-01-02T00:00:00Z", "dismissed"),
            line("f-3", "yesterday", "open"),
            String::new(),
            r#"{"id":"f-4","te"#.to_string(),
        ]
        .join("\n");
        let items = Items::parse(text.as_bytes());
        let states: Vec<(&str, ItemStatus)> = items
            .items
            .iter()
            .map(|i| (i.id.as_str(), i.status))
            .collect();
        assert_eq!(
            states,
            [("f-1", ItemStatus::Done), ("f-2", ItemStatus::Dismissed)]
        );
        assert_eq!(items.torn.as_ref().map(|b| b.line), Some(8));
        let bad: Vec<usize> = items.bad.iter().map(|b| b.line).collect();
        assert_eq!(bad, [2, 6]);
        assert!(items.bad[1].message.contains("updated"), "{:?}", items.bad);
        // a last line that parses without its newline is an item, not torn
        let whole = Items::parse(line("f-5", "2026-01-02T00:00:00Z", "open").as_bytes());
        assert_eq!(whole.items.len(), 1);
        assert!(whole.torn.is_none());
        assert!(Items::parse(b"").items.is_empty());
    }
}
