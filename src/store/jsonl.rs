//! JSONL files: whole lines appended under a lock (fsynced, or left to the
//! open group commit), whole files written atomically, every value masked by
//! the store's redactor. A writer that measures its lines before it writes
//! them (an episode's turns against the item cap) masks each value once up
//! front ([`Store::redacted`]) and hands it over as it is
//! ([`Store::append_redacted_held`]) instead of having it masked again.

use super::{Lock, Store, atomic_write, check_size, committed, io_error};
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// A JSON value masked by a store's redactor. Only the store makes or
/// changes one ([`Store::redacted`], [`Store::set_redacted`]), so whatever a
/// `Redacted` holds has been through the redactor.
#[derive(Debug, Clone, PartialEq)]
pub struct Redacted {
    value: Value,
    /// `value` serialized, once asked for (see [`Redacted::line`]).
    line: Option<String>,
}

impl Redacted {
    pub fn value(&self) -> &Value {
        &self.value
    }

    pub fn into_value(self) -> Value {
        self.value
    }

    /// The value as one JSON line (without its newline), serialized once:
    /// measuring a line and then writing it costs one serialization.
    pub fn line(&mut self) -> Result<&str> {
        if self.line.is_none() {
            self.line = Some(
                serde_json::to_string(&self.value).map_err(|e| Error::internal(e.to_string()))?,
            );
        }
        Ok(self.line.as_deref().unwrap_or_default())
    }
}

impl Store {
    /// Appends one JSON value as one whole line (JSONL), redacted, under the
    /// lock `name`, and fsyncs it (in a group commit, when the group ends: see
    /// [`Store::defer_syncs`]). Concurrent appenders never interleave.
    pub fn append_jsonl(&self, lock_name: &str, path: &Path, value: &Value) -> Result<()> {
        let mut value = value.clone();
        self.redactor.redact_value(&mut value);
        let mut line = serde_json::to_string(&value).map_err(|e| {
            Error::internal(format!(
                "cannot serialize a line for {}: {e}",
                path.display()
            ))
        })?;
        line.push('\n');
        check_size(
            &format!("a line for {}", path.display()),
            line.len() as u64,
            self.max_item_bytes,
        )?;
        self.check_inside(path)?;
        let _lock = self.lock(lock_name)?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error("open", path, &e))?;
        committed();
        file.write_all(line.as_bytes())
            .and_then(|()| self.deferred.sync_or_defer(path, file))
            .map_err(|e| io_error("append to", path, &e))
    }

    /// Appends JSON values as whole lines (JSONL), redacted, to `path` while
    /// the caller holds `_held`: for writers that must read and append under
    /// one lock (find the open episode, number the turns, append). All lines go
    /// out in one write, then the file is fsynced (in a group commit, when the
    /// group ends: see [`Store::defer_syncs`]). A torn last line left by a
    /// killed writer is terminated first, so the new lines stay whole. An empty
    /// `values` only creates the file.
    pub fn append_jsonl_held(&self, _held: &Lock, path: &Path, values: &[Value]) -> Result<()> {
        let text = self.jsonl_lines(path, values)?;
        self.append_text(path, &text)
    }

    /// Appends whole lines (`text`, each ending in a newline, redacted by the
    /// caller) to `path`: the file is created when missing, a torn last line
    /// is terminated first, and the write is fsynced (or left to the group).
    fn append_text(&self, path: &Path, text: &str) -> Result<()> {
        self.check_inside(path)?;
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error("open", path, &e))?;
        if text.is_empty() {
            return Ok(());
        }
        let torn = ends_without_newline(&mut file).map_err(|e| Error::io("read", path, &e))?;
        let mut bytes = Vec::with_capacity(text.len() + 1);
        if torn {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(text.as_bytes());
        committed();
        file.write_all(&bytes)
            .and_then(|()| self.deferred.sync_or_defer(path, file))
            .map_err(|e| io_error("append to", path, &e))
    }

    /// Writes a whole JSONL file atomically (temp file, fsync, rename): each
    /// value redacted, one line each. Each line must fit the item cap; the file
    /// as a whole may be larger.
    pub fn write_jsonl(&self, path: &Path, values: &[Value]) -> Result<()> {
        let text = self.jsonl_lines(path, values)?;
        self.check_inside(path)?;
        atomic_write(path, text.as_bytes())
    }

    /// The redacted lines for `values`, each checked against the item cap.
    fn jsonl_lines(&self, path: &Path, values: &[Value]) -> Result<String> {
        let mut text = String::new();
        for value in values {
            let mut value = value.clone();
            self.redactor.redact_value(&mut value);
            self.push_line(&mut text, path, &value)?;
        }
        Ok(text)
    }

    /// Serializes `value` (redacted already) as one line onto `text`,
    /// checked against the item cap.
    fn push_line(&self, text: &mut String, path: &Path, value: &Value) -> Result<()> {
        let line = serde_json::to_string(value).map_err(|e| {
            Error::internal(format!(
                "cannot serialize a line for {}: {e}",
                path.display()
            ))
        })?;
        self.push_serialized(text, path, &line)
    }

    /// Appends one serialized line and its newline to `text`, checked
    /// against the item cap.
    fn push_serialized(&self, text: &mut String, path: &Path, line: &str) -> Result<()> {
        check_size(
            &format!("a line for {}", path.display()),
            line.len() as u64 + 1,
            self.max_item_bytes,
        )?;
        text.push_str(line);
        text.push('\n');
        Ok(())
    }

    /// `value`, masked (see [`crate::redact::Redactor::redact_value`]).
    pub fn redacted(&self, mut value: Value) -> Redacted {
        self.redactor.redact_value(&mut value);
        Redacted { value, line: None }
    }

    /// Sets fields of a masked object, each masked as a field under its key:
    /// the redactor masks each field of an object on its own (by its key and
    /// its value), so this equals masking the whole object again. A value
    /// that is not an object is left as it is.
    pub fn set_redacted<const N: usize>(&self, line: &mut Redacted, fields: [(&str, Value); N]) {
        let mut fields = Value::Object(Map::from_iter(
            fields.map(|(key, value)| (key.to_string(), value)),
        ));
        self.redactor.redact_value(&mut fields);
        if let (Value::Object(object), Value::Object(fields)) = (&mut line.value, fields) {
            let patched = line
                .line
                .take()
                .and_then(|text| patch(text, object, &fields));
            object.extend(fields);
            debug_assert!(patched.as_deref().is_none_or(|text| {
                serde_json::to_string(object).is_ok_and(|whole| whole == text)
            }));
            line.line = patched;
        }
    }

    /// [`Store::append_jsonl_held`] for values masked already: the same
    /// lines, the same cap on each, the same durability, without masking
    /// them again.
    pub fn append_redacted_held(
        &self,
        _held: &Lock,
        path: &Path,
        values: &[Redacted],
    ) -> Result<()> {
        let mut text = String::new();
        for value in values {
            match &value.line {
                Some(line) => self.push_serialized(&mut text, path, line)?,
                None => self.push_line(&mut text, path, &value.value)?,
            }
        }
        self.append_text(path, &text)
    }
}

/// Whether a non-empty file's last byte is not a newline (a torn last line).
fn ends_without_newline(file: &mut File) -> io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// `text`, the serialization of `object`, with the values of `fields` (keys
/// `object` holds already) put in place: what serializing `object` with
/// `fields` set would give, at the cost of measuring the entries up to the
/// last of those keys instead of serializing them all. `None` when a key is
/// new (it would go at the end) or a value does not serialize.
fn patch(text: String, object: &Map<String, Value>, fields: &Map<String, Value>) -> Option<String> {
    // (start, old length, new value) of each field's value in `text`.
    let mut edits = Vec::with_capacity(fields.len());
    let mut at = 1; // past the `{`
    for (key, value) in object {
        if edits.len() == fields.len() {
            break;
        }
        let key_len = json_len(key)?;
        let value_len = json_len(value)?;
        if let Some(new) = fields.get(key) {
            edits.push((
                at + key_len + 1,
                value_len,
                serde_json::to_string(new).ok()?,
            ));
        }
        at += key_len + 1 + value_len + 1; // `"key":value,`
    }
    if edits.len() != fields.len() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 32);
    let mut from = 0;
    for (start, old_len, new) in edits {
        out.push_str(text.get(from..start)?);
        out.push_str(&new);
        from = start + old_len;
    }
    out.push_str(text.get(from..)?);
    Some(out)
}

/// The length of `value` serialized compactly, without keeping the text.
fn json_len(value: &(impl serde::Serialize + ?Sized)) -> Option<usize> {
    struct Count(usize);
    impl Write for Count {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    serde_json::to_writer(&mut count, value).ok()?;
    Some(count.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::Redactor;
    use proptest::prelude::*;
    use serde_json::json;

    /// What `patch` must give: the whole object serialized with `fields` set.
    fn patched(object: &Value, fields: &Value) -> Option<String> {
        let (Value::Object(object), Value::Object(fields)) = (object, fields) else {
            unreachable!()
        };
        patch(serde_json::to_string(object).unwrap(), object, fields)
    }

    fn expected(object: &Value, fields: &Value) -> String {
        let mut whole = object.clone();
        for (key, value) in fields.as_object().unwrap() {
            whole[key] = value.clone();
        }
        serde_json::to_string(&whole).unwrap()
    }

    #[test]
    fn a_patched_line_is_the_line_serialized_again() {
        let turn = json!({
            "schema": "agentbox.turn/1", "id": "", "session": "s\"1\u{e9}", "episode": "",
            "seq": 0, "content": "{\"id\":\"\"}", "meta": {"id": "", "seq": 0}
        });
        for fields in [
            json!({"id": "ep-1#2", "episode": "ep-1", "seq": 2}),
            json!({"seq": 4_294_967_295_u64, "id": "x\u{2028}\"y"}),
            json!({"meta": {"a": [1, 2]}}),
            json!({"schema": ""}),
            json!({}),
        ] {
            assert_eq!(
                patched(&turn, &fields),
                Some(expected(&turn, &fields)),
                "{fields}"
            );
        }
        // A key the object lacks goes at the end: serialized afresh instead.
        assert_eq!(patched(&turn, &json!({"id": "a", "new": 1})), None);
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<String>().prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::vec(("[a-c\"]{0,2}", inner), 0..4)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn patching_equals_serializing_again(
            entries in prop::collection::vec(("[a-e\"\\\\]{0,2}", json_value()), 1..6),
            picks in prop::collection::vec((any::<prop::sample::Index>(), json_value()), 0..4),
        ) {
            let object = Value::Object(entries.into_iter().collect());
            let keys: Vec<String> = object.as_object().unwrap().keys().cloned().collect();
            let fields = Value::Object(
                picks.into_iter().map(|(i, v)| (i.get(&keys).clone(), v)).collect(),
            );
            prop_assert_eq!(patched(&object, &fields), Some(expected(&object, &fields)));
        }
    }

    #[test]
    fn a_field_set_on_a_masked_value_is_masked_as_the_whole_would_be() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().to_path_buf(), Redactor::builtin(), 1 << 20);
        let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let raw = json!({"content": format!("token {secret}"), "role": "user"});
        let mut line = store.redacted(raw.clone());
        // A line measured before its fields change is measured afresh.
        assert!(!line.line().unwrap().contains("\"seq\""));
        for (key, value) in [
            ("id", json!(format!("ep-1#{secret}"))),
            ("password", json!("hunter2hunter2")),
            ("seq", json!(3)),
        ] {
            store.set_redacted(&mut line, [(key, value.clone())]);
            let mut whole = raw.clone();
            whole[key] = value;
            store.redactor().redact_value(&mut whole);
            assert_eq!(line.value()[key], whole[key], "{key}");
        }
        assert!(!line.value().to_string().contains("hunter2hunter2"));
        assert!(!line.value().to_string().contains(secret));
        // Written as it is: one line, not masked twice.
        let path = dir.path().join("t.jsonl");
        let lock = store.lock("t").unwrap();
        store
            .append_redacted_held(&lock, &path, std::slice::from_ref(&line))
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{}\n", line.value()));
        assert!(text.contains("\"seq\":3"), "{text}");
        // The item cap still applies.
        let small = Store::new(dir.path().to_path_buf(), Redactor::builtin(), 8);
        assert!(small.append_redacted_held(&lock, &path, &[line]).is_err());
    }
}
