//! The shape of the code (docs/ARCHITECTURE.md), checked on the source tree:
//! no cycles between modules, a search module that names no tool, and one
//! writer of stdout and stderr.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file belongs to: `search` for src/search/**, `tools::track`
/// for src/tools/track/**, `tools` for src/tools/mod.rs and its own helpers.
fn module_of(rel: &str) -> String {
    let parts: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    match parts.as_slice() {
        ["tools", tool, ..] if parts.len() > 2 || !matches!(*tool, "mod" | "registry") => {
            format!("tools::{}", tool)
        }
        [first, ..] => first.to_string(),
        [] => String::new(),
    }
}

/// The code of a file without its `#[cfg(test)]` items and comments: an
/// inline test module (`#[cfg(test)] mod tests {`) ends the code; a test
/// module declared by name (`#[cfg(test)] mod properties;`, a file of its
/// own, checked as test code) or a `#[cfg(test)]` item of one line is
/// left out, and the code after it still counts.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut kept = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            if !line.trim_start().starts_with("//") {
                kept.push(line);
            }
            continue;
        }
        match lines.next() {
            Some(item) if item.trim_end().ends_with('{') => break,
            _ => continue,
        }
    }
    kept.join("\n")
}

/// Modules a piece of code refers to through `crate::…` paths, including
/// grouped imports (`use crate::{a, b::c}`).
fn references(code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let flat: String = code.split_whitespace().collect::<Vec<_>>().join("");
    let mut rest = flat.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end].split(',').map(str::to_string).collect()
        } else {
            vec![
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect(),
            ]
        };
        for name in names {
            let segs: Vec<&str> = name.split("::").filter(|s| !s.is_empty()).collect();
            let Some(first) = segs.first() else { continue };
            if *first == "tools"
                && let Some(second) = segs.get(1)
                && known.contains(&format!("tools::{second}"))
            {
                found.insert(format!("tools::{second}"));
            } else if known.contains(*first) {
                found.insert(first.to_string());
            }
        }
    }
    found
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let rel = |p: &Path| {
        p.strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    };
    let known: BTreeSet<String> = files.iter().map(|p| module_of(&rel(p))).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&rel(file));
        let mut refs = references(&code(file), &known);
        refs.remove(&module);
        graph.entry(module).or_default().extend(refs);
    }
    graph
}

#[test]
fn modules_form_no_cycle() {
    let graph = graph();
    assert!(
        graph.contains_key("search") && graph.contains_key("tools::track"),
        "{graph:?}"
    );
    // Depth-first search for a back edge; report the cycle it closes.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(node) {
            return;
        }
        if let Some(at) = path.iter().position(|n| n == node) {
            panic!("module cycle: {} -> {node}", path[at..].join(" -> "));
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(node.to_string());
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn lower_layers_know_no_tool_and_no_registry() {
    let graph = graph();
    for low in [
        "search", "store", "home", "output", "redact", "error", "config", "clock", "tools", "git",
        "prose",
    ] {
        let Some(refs) = graph.get(low) else { continue };
        for r in refs {
            assert!(
                !r.starts_with("tools::")
                    && !["registry", "cli", "commands", "mcp"].contains(&r.as_str()),
                "{low} must not depend on {r}"
            );
        }
    }
}

/// True when `file` is a test module: `tests.rs`, or a file of a `tests/`
/// folder, that its parent module declares under `#[cfg(test)]`.
fn is_test_module(file: &Path) -> bool {
    let parent = file.parent().unwrap();
    let dir = if file.ends_with("tests.rs") {
        parent
    } else if parent.ends_with("tests") {
        parent.parent().unwrap()
    } else {
        return false;
    };
    let parent = ["mod.rs", "lib.rs"]
        .iter()
        .map(|m| dir.join(m))
        .find(|p| p.exists());
    parent.is_some_and(|p| {
        std::fs::read_to_string(p)
            .unwrap()
            .contains("#[cfg(test)]\nmod tests;")
    })
}

#[test]
fn only_the_output_layer_writes_stdout_and_stderr() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    for file in files {
        if file.ends_with("output.rs") || file.ends_with("main.rs") {
            continue;
        }
        // A `tests.rs` is a test module (`#[cfg(test)] mod tests;`): a
        // corpus report may print there.
        if is_test_module(&file) {
            continue;
        }
        let code = code(&file);
        for needle in [
            "io::stdout()",
            "io::stderr()",
            "print!(",
            "println!(",
            "eprint!(",
            "eprintln!(",
        ] {
            assert!(
                !code.contains(needle),
                "{} writes with {needle}",
                file.display()
            );
        }
    }
}
