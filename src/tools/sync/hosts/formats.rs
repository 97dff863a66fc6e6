//! Editing a host's config file in place: find, set or remove the one server
//! entry agentbox owns, and leave every other byte as the user wrote it.
//!
//! JSON and JSON-with-comments files (all hosts but Codex) are edited through
//! `jsonc-parser`'s concrete syntax tree, so comments, indentation (tabs or
//! spaces), line endings, key order and a missing final newline survive.
//! Codex's TOML goes through `toml_edit` for the same reason. A file that does
//! not parse is `invalid_args` naming the file and line; nothing is written.

use super::detect::Format;
use crate::error::{Error, Result};
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use jsonc_parser::{JsonValue, ParseOptions};
use serde_json::{Map, Value};
use std::path::Path;

/// Every file is read leniently (comments, trailing commas): hosts accept them.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
    }
}

fn unparsable(path: &Path, line: usize, what: &str) -> Error {
    Error::invalid_args(format!("{}:{line}: {what}", path.display()))
        .with_hint("fix the file by hand (nothing was written), then retry")
        .with_detail("path", path.display().to_string())
        .with_detail("line", line)
}

/// The deepest nesting of arrays and objects a host file may have: far
/// beyond any real config, far below what overflows the recursive parser's
/// stack (a hostile file of a few hundred kilobytes of `[` would crash it).
pub const MAX_DEPTH: usize = 128;

/// The line (1-based) at which the JSON-with-comments `text` nests deeper
/// than [`MAX_DEPTH`], if it does. Strings and comments are skipped; the
/// text need not be valid (the parser says what else is wrong).
pub fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut line, mut i) = (0usize, 1usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    match bytes[i] {
                        b'\\' => i += 1,
                        b'\n' => line += 1,
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    line += usize::from(bytes[i] == b'\n');
                    i += 1;
                }
                i += 1;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(line);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// `unparsable` when `text` nests too deep to parse safely.
fn check_depth(path: &Path, text: &str) -> Result<()> {
    match too_deep(text) {
        Some(line) => Err(unparsable(
            path,
            line,
            &format!("arrays and objects nest deeper than {MAX_DEPTH} levels"),
        )),
        None => Ok(()),
    }
}

/// The servers object of a file's text (`None` when the file has none), and
/// whether the file holds anything besides it.
pub fn servers(format: Format, path: &Path, text: &str) -> Result<Option<Map<String, Value>>> {
    match format {
        Format::Json { key } => {
            let root = json_root(path, text)?;
            match root.get(key) {
                None => Ok(None),
                Some(Value::Object(map)) => Ok(Some(map.clone())),
                Some(_) => Err(unparsable(path, 1, &format!("`{key}` is not an object"))),
            }
        }
        Format::Toml => {
            let doc = toml_doc(path, text)?;
            match doc.get("mcp_servers") {
                None => Ok(None),
                Some(item) => match toml_to_json(item) {
                    Value::Object(map) => Ok(Some(map)),
                    _ => Err(unparsable(path, 1, "`mcp_servers` is not a table")),
                },
            }
        }
    }
}

/// The value of the server `name` in the file's text, if present.
pub fn entry(format: Format, path: &Path, text: &str, name: &str) -> Result<Option<Value>> {
    let (_, text) = Style::of(text);
    Ok(servers(format, path, &text)?.and_then(|mut m| m.remove(name)))
}

/// The text with the server `name` set to `value`, and whether the servers
/// container had to be created. `text` is `None` for a file that does not
/// exist yet (a fresh, pretty-printed file with a final newline).
pub fn set(
    format: Format,
    path: &Path,
    text: Option<&str>,
    name: &str,
    value: &Value,
) -> Result<(String, bool)> {
    let (style, plain) = Style::of(text.unwrap_or(""));
    let (out, created) = set_plain(format, path, &plain, name, value)?;
    Ok((style.give(out), created))
}

/// How a file writes its text: a byte-order mark first, CRLF line ends.
/// Edits work on the plain text and hand the file its own style back, so a
/// Windows-edited config keeps its bytes apart from our entry.
struct Style {
    bom: bool,
    crlf: bool,
}

impl Style {
    fn of(text: &str) -> (Style, String) {
        let (bom, text) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let crlf = text.contains("\r\n");
        let plain = if crlf {
            text.replace("\r\n", "\n")
        } else {
            text.to_string()
        };
        (Style { bom, crlf }, plain)
    }

    fn give(&self, text: String) -> String {
        let text = if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text
        };
        if self.bom {
            format!("\u{feff}{text}")
        } else {
            text
        }
    }
}

fn set_plain(
    format: Format,
    path: &Path,
    text: &str,
    name: &str,
    value: &Value,
) -> Result<(String, bool)> {
    let created = servers(format, path, text)?.is_none();
    match format {
        Format::Json { key } if text.trim().is_empty() => {
            let mut servers = Map::new();
            servers.insert(name.to_string(), value.clone());
            let mut doc = Map::new();
            doc.insert(key.to_string(), Value::Object(servers));
            let mut out = serde_json::to_string_pretty(&Value::Object(doc))
                .map_err(|e| Error::internal(format!("cannot serialize: {e}")))?;
            out.push('\n');
            Ok((out, created))
        }
        Format::Json { key } => {
            if let Some(out) = inline_insert(text, key, name, value) {
                return Ok((out, created));
            }
            let root = cst(path, text)?;
            let object = root_object(path, &root)?;
            let servers = object
                .object_value_or_create(key)
                .ok_or_else(|| unparsable(path, 1, &format!("`{key}` is not an object")))?;
            match servers.get(name) {
                Some(prop) => prop.set_value(to_input(value)),
                None => {
                    servers.append(name, to_input(value));
                }
            }
            Ok((root.to_string(), created))
        }
        Format::Toml => {
            let mut doc = toml_doc(path, text)?;
            let servers = doc.entry("mcp_servers").or_insert_with(|| {
                let mut table = toml_edit::Table::new();
                table.set_implicit(true);
                toml_edit::Item::Table(table)
            });
            let Some(servers) = servers.as_table_like_mut() else {
                return Err(unparsable(path, 1, "`mcp_servers` is not a table"));
            };
            servers.insert(name, toml_edit::Item::Table(to_toml_table(value)));
            Ok((doc.to_string(), created))
        }
    }
}

/// The text without the server `name`; the servers container goes too when
/// `drop_container` and it is left empty.
pub fn remove(
    format: Format,
    path: &Path,
    text: &str,
    name: &str,
    drop_container: bool,
) -> Result<String> {
    let (style, plain) = Style::of(text);
    Ok(style.give(remove_plain(format, path, &plain, name, drop_container)?))
}

fn remove_plain(
    format: Format,
    path: &Path,
    text: &str,
    name: &str,
    drop_container: bool,
) -> Result<String> {
    match format {
        Format::Json { key } => {
            let root = cst(path, text)?;
            let object = root_object(path, &root)?;
            if let Some(servers) = object.object_value(key) {
                if let Some(prop) = servers.get(name) {
                    prop.remove();
                }
                if drop_container
                    && servers.properties().is_empty()
                    && let Some(prop) = object.get(key)
                {
                    prop.remove();
                }
            }
            Ok(root.to_string())
        }
        Format::Toml => {
            let mut doc = toml_doc(path, text)?;
            let mut empty = false;
            if let Some(servers) = doc
                .get_mut("mcp_servers")
                .and_then(|i| i.as_table_like_mut())
            {
                servers.remove(name);
                empty = servers.is_empty();
            }
            if drop_container && empty {
                doc.remove("mcp_servers");
            }
            Ok(doc.to_string())
        }
    }
}

/// Whether the text holds nothing at all (no key, or only whitespace and an
/// empty object): a file agentbox created can then be deleted.
pub fn is_empty(format: Format, path: &Path, text: &str) -> Result<bool> {
    let (_, text) = Style::of(text);
    let text = text.as_str();
    match format {
        Format::Json { .. } => Ok(text.trim().is_empty() || json_root(path, text)?.is_empty()),
        Format::Toml => Ok(toml_doc(path, text)?.is_empty()),
    }
}

/// Adds the entry to a one-line object (the servers object, or the root when
/// it has none) as one more one-line property, the way the user wrote the
/// rest: the tree editor would spread that object over several lines.
/// `None` when the object spans lines (the tree editor keeps that layout).
fn inline_insert(text: &str, key: &str, name: &str, value: &Value) -> Option<String> {
    use jsonc_parser::ast::Value as Ast;
    if too_deep(text).is_some() {
        return None;
    }
    let collect = jsonc_parser::CollectOptions::default();
    let parsed = jsonc_parser::parse_to_ast(text, &collect, &options()).ok()?;
    let Some(Ast::Object(root)) = parsed.value else {
        return None;
    };
    let servers = root.properties.iter().find(|p| p.name.as_str() == key);
    let (range, addition) = match servers {
        Some(prop) => match &prop.value {
            Ast::Object(obj) if !obj.properties.iter().any(|p| p.name.as_str() == name) => (
                obj.range,
                format!("{}: {}", Value::from(name), inline(value)),
            ),
            _ => return None,
        },
        None => {
            let mut wrapped = Map::new();
            wrapped.insert(name.to_string(), value.clone());
            (
                root.range,
                format!("{}: {}", Value::from(key), inline(&Value::Object(wrapped))),
            )
        }
    };
    let object = &text[range.start..range.end];
    if object.contains('\n') || !object.ends_with('}') {
        return None;
    }
    let inner = &object[..object.len() - 1];
    let body = inner.trim_end();
    let tail = &inner[body.len()..];
    let sep = if body.ends_with('{') {
        ""
    } else if body.ends_with(',') {
        " "
    } else {
        ", "
    };
    Some(format!(
        "{}{body}{sep}{addition}{tail}}}{}",
        &text[..range.start],
        &text[range.end..]
    ))
}

/// One-line JSON with a space after `:` and `,` (`{"a": 1, "b": [2]}`).
fn inline(value: &Value) -> String {
    match value {
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(inline).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), inline(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

fn cst(path: &Path, text: &str) -> Result<CstRootNode> {
    check_depth(path, text)?;
    CstRootNode::parse(text, &options())
        .map_err(|e| unparsable(path, e.line_display(), &e.kind().to_string()))
}

fn root_object(path: &Path, root: &CstRootNode) -> Result<CstObject> {
    match root.value() {
        None => Ok(root.object_value_or_set()),
        Some(_) => root
            .object_value()
            .ok_or_else(|| unparsable(path, 1, "the file is not a JSON object")),
    }
}

/// The file's top-level object as plain JSON (empty for an empty file).
fn json_root(path: &Path, text: &str) -> Result<Map<String, Value>> {
    check_depth(path, text)?;
    let parsed = jsonc_parser::parse_to_value(text, &options())
        .map_err(|e| unparsable(path, e.line_display(), &e.kind().to_string()))?;
    match parsed.map(from_jsonc) {
        None => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err(unparsable(path, 1, "the file is not a JSON object")),
    }
}

/// A parsed JSONC value as plain JSON.
pub(super) fn from_jsonc(value: JsonValue) -> Value {
    match value {
        JsonValue::String(s) => Value::String(s.into_owned()),
        JsonValue::Number(n) => {
            serde_json::from_str(n).unwrap_or_else(|_| Value::String(n.to_string()))
        }
        JsonValue::Boolean(b) => Value::Bool(b),
        JsonValue::Null => Value::Null,
        JsonValue::Array(items) => Value::Array(items.into_iter().map(from_jsonc).collect()),
        JsonValue::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(k, v)| (k, from_jsonc(v)))
                .collect(),
        ),
    }
}

fn to_input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(to_input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), to_input(v))).collect())
        }
    }
}

fn toml_doc(path: &Path, text: &str) -> Result<toml_edit::DocumentMut> {
    text.parse::<toml_edit::DocumentMut>().map_err(|e| {
        let line = e
            .span()
            .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1)
            .unwrap_or(1);
        let message = e
            .message()
            .lines()
            .next()
            .unwrap_or("invalid TOML")
            .to_string();
        unparsable(path, line, &message)
    })
}

/// A server entry as a TOML table: scalars and arrays inline, objects (env)
/// as inline tables, the way `codex mcp add` writes them.
fn to_toml_table(value: &Value) -> toml_edit::Table {
    let mut table = toml_edit::Table::new();
    if let Value::Object(map) = value {
        for (k, v) in map {
            table.insert(k, toml_edit::Item::Value(to_toml_value(v)));
        }
    }
    table
}

fn to_toml_value(value: &Value) -> toml_edit::Value {
    match value {
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64().unwrap_or(0.0).into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(items) => toml_edit::Value::Array(items.iter().map(to_toml_value).collect()),
        Value::Object(map) => {
            let mut inline = toml_edit::InlineTable::new();
            for (k, v) in map {
                inline.insert(k, to_toml_value(v));
            }
            toml_edit::Value::InlineTable(inline)
        }
        Value::Null => "".into(),
    }
}

fn toml_to_json(item: &toml_edit::Item) -> Value {
    match item {
        toml_edit::Item::None => Value::Null,
        toml_edit::Item::Value(v) => toml_value_to_json(v),
        toml_edit::Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_to_json(v)))
                .collect(),
        ),
        toml_edit::Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .map(|t| toml_to_json(&toml_edit::Item::Table(t.clone())))
                .collect(),
        ),
    }
}

fn toml_value_to_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::from(*i.value()),
        T::Float(f) => Value::from(*f.value()),
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => Value::Array(a.iter().map(toml_value_to_json).collect()),
        T::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_value_to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crlf_file_with_a_bom_keeps_its_bytes_around_our_entry() {
        let path = Path::new("config.toml");
        let text =
            "\u{feff}# mine\r\nmodel = \"o3\"\r\n\r\n[mcp_servers.github]\r\ncommand = \"gh\"\r\n";
        let value = serde_json::json!({"command": "/x/memory_mcp", "args": []});
        let (added, _) = set(Format::Toml, path, Some(text), "agentbox-memory", &value).unwrap();
        assert!(added.starts_with('\u{feff}'), "{added:?}");
        assert!(!added.replace("\r\n", "").contains('\n'), "{added:?}");
        let back = remove(Format::Toml, path, &added, "agentbox-memory", false).unwrap();
        assert_eq!(back, text);
    }
    use serde_json::json;

    fn entry_value() -> Value {
        json!({"command": "/p/.agent/tools/memory_mcp", "args": [], "env": {"AGENTBOX_HOME": "/p/.agent"}})
    }

    #[test]
    fn json_with_comments_tabs_and_crlf_round_trips() {
        let path = Path::new("settings.json");
        let format = Format::Json {
            key: "context_servers",
        };
        let original = "// my settings\r\n{\r\n\t\"theme\": \"One Dark\", // keep\r\n\t\"context_servers\": {\r\n\t\t\"other\": {\"command\": \"x\"}\r\n\t}\r\n}";
        let (text, created) = set(
            format,
            path,
            Some(original),
            "agentbox-memory",
            &entry_value(),
        )
        .unwrap();
        assert!(!created);
        assert!(
            text.starts_with("// my settings\r\n{\r\n\t\"theme\": \"One Dark\", // keep\r\n"),
            "{text}"
        );
        assert!(!text.ends_with('\n'), "{text:?}");
        assert_eq!(
            entry(format, path, &text, "agentbox-memory").unwrap(),
            Some(entry_value())
        );
        let (again, _) = set(format, path, Some(&text), "agentbox-memory", &entry_value()).unwrap();
        assert_eq!(again, text);
        let back = remove(format, path, &text, "agentbox-memory", false).unwrap();
        assert_eq!(back, original);
    }

    #[test]
    fn one_line_objects_stay_on_one_line() {
        let path = Path::new("odek.json");
        let format = Format::Json { key: "mcp_servers" };
        for original in [
            "{\"mcp_servers\": {\"log\": {\"command\": \"x\", \"timeout_seconds\": 120}}}",
            "{\"mcp_servers\": {}}\n",
            "{\"theme\": \"dark\"}",
        ] {
            let (text, created) = set(
                format,
                path,
                Some(original),
                "agentbox-memory",
                &entry_value(),
            )
            .unwrap();
            assert_eq!(text.lines().count(), 1, "{text}");
            assert!(text.contains("\"agentbox-memory\": {\"command\": \"/p/.agent/tools/memory_mcp\", \"args\": [], "), "{text}");
            assert_eq!(
                entry(format, path, &text, "agentbox-memory").unwrap(),
                Some(entry_value())
            );
            assert_eq!(
                remove(format, path, &text, "agentbox-memory", created).unwrap(),
                original
            );
        }
    }

    #[test]
    fn toml_keeps_comments_and_removes_cleanly() {
        let path = Path::new("config.toml");
        let original =
            "# codex\nmodel = \"o3\"  # mine\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
        let (text, created) = set(
            Format::Toml,
            path,
            Some(original),
            "agentbox-memory",
            &entry_value(),
        )
        .unwrap();
        assert!(!created);
        assert!(text.starts_with(original), "{text}");
        assert!(text.contains("[mcp_servers.agentbox-memory]"), "{text}");
        assert_eq!(
            entry(Format::Toml, path, &text, "agentbox-memory").unwrap(),
            Some(entry_value())
        );
        assert_eq!(
            remove(Format::Toml, path, &text, "agentbox-memory", false).unwrap(),
            original
        );
    }

    #[test]
    fn nesting_is_counted_outside_strings_and_comments() {
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(too_deep(&format!("{{\n\"a\":\n{deep}")), Some(3));
        assert_eq!(too_deep(&"[".repeat(MAX_DEPTH)), None);
        let hidden = format!("{{\"s\": \"{deep}\\\"\", // {deep}\n /* {deep} */ \"b\": [1]}}");
        assert_eq!(too_deep(&hidden), None, "{hidden}");
    }

    #[test]
    fn unparsable_files_name_the_line() {
        let e = servers(
            Format::Json { key: "mcpServers" },
            Path::new("m.json"),
            "{\n  \"a\": 1,\n  oops\n}",
        )
        .unwrap_err();
        assert_eq!(e.detail["line"], 3, "{}", e.message);
        let e = servers(Format::Toml, Path::new("c.toml"), "a = 1\nb = \n").unwrap_err();
        assert_eq!(e.detail["line"], 2, "{}", e.message);
    }
}
