//! The item store: `memory/foresight.jsonl`, append-only. (F1 hardens this:
//! lock, torn last line, size caps.)

use super::{FORESIGHT_FILE, Item};
use crate::error::Result;
use crate::home::Home;
use std::collections::BTreeMap;

/// The lock held for every append to `foresight.jsonl`.
pub const LOCK: &str = "foresight";

/// Appends item states (new items, or new states of existing ones).
pub fn append(home: &Home, items: &[Item]) -> Result<()> {
    let path = home.store.path(&["memory", "foresight.jsonl"])?;
    let held = home.store.lock(LOCK)?;
    let values: Vec<serde_json::Value> = items
        .iter()
        .map(|i| serde_json::to_value(i).expect("an item serializes"))
        .collect();
    home.store.append_jsonl_held(&held, &path, &values)
}

/// The current state of every item (the last line of each id wins).
pub fn current(home: &Home) -> Result<Vec<Item>> {
    let path = home.store.root().join(FORESIGHT_FILE);
    let Some(text) = home.store.read(&path)? else {
        return Ok(Vec::new());
    };
    let mut by_id: BTreeMap<String, Item> = BTreeMap::new();
    for line in text.lines() {
        if let Ok(item) = serde_json::from_str::<Item>(line) {
            by_id.insert(item.id.clone(), item);
        }
    }
    Ok(by_id.into_values().collect())
}
