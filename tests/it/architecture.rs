//! The shape of the code (docs/ARCHITECTURE.md), checked on the source tree:
//! no cycles between modules, none between the files of a folder, lower
//! layers that name no tool, and one writer of stdout and stderr.

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
        "search", "store", "home", "ids", "output", "redact", "error", "config", "clock", "tools",
        "git", "prose", "screen", "oda", "slug", "front", "suggest", "http",
    ] {
        let Some(refs) = graph.get(low) else { continue };
        for r in refs {
            assert!(
                !r.starts_with("tools::")
                    && !["registry", "cli", "commands", "mcp", "view"].contains(&r.as_str()),
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
fn only_a_tools_cli_file_knows_clap() {
    // The one template (docs/ARCHITECTURE.md): a tool's `cli.rs` holds the
    // clap definitions and turns them into plain option structs; its
    // operations, and `memory_mcp`'s server, take those and know nothing
    // of clap. `tools/mod.rs` and `tools/registry.rs` are the registry's
    // types, which hold each tool's clap command.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root.join("tools"), &mut files);
    sources(&root.join("mcp"), &mut files);
    assert!(files.len() > 50, "the tools were not found: {files:?}");
    let mut offenders = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel.ends_with("/cli.rs") || rel == "tools/mod.rs" || rel == "tools/registry.rs" {
            continue;
        }
        if is_test_module(file) {
            continue;
        }
        let names_clap = code(file)
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == "clap" || word == "ArgMatches");
        if names_clap {
            offenders.push(rel);
        }
    }
    assert!(
        offenders.is_empty(),
        "these files of a tool name clap outside its cli.rs (move the clap part there; \
         `tools::value_enum!` gives a library enum its ValueEnum from cli.rs): {offenders:?}"
    );
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

// ---------------------------------------------------------------------------
// Files: the graph of which file uses which, and its cycles.
//
// The module test above sees `search` as one node. Inside a folder the files
// must not import each other in a circle either (a circle means none of them
// can be read, tested or moved without the others). The graph below is built
// from the source text:
//
// - the module tree comes from the `mod` declarations, from `src/lib.rs` down
//   (`#[path]` honoured); a module declared under `#[cfg(test)]` is test code
//   and left out, as is every `#[cfg(test)]` item in a file;
// - a file uses another when its code names, in a private `use` or inline, a
//   path that resolves there: `crate::…`, `super::…` (any depth), `self::…`,
//   or a child module's name (`index::rebuild`);
// - a path resolves to the deepest module it names; a name in that module
//   that the module itself imports (`pub use index::Index`, or a private
//   `use` a child reaches with `super::Index`) is followed to where it comes
//   from, so a folder's `mod.rs` is a dependency only for what it defines;
// - a `pub use` is a re-export, not a use: a facade that re-exports its
//   children does not depend on them, and `mod x;` is not a use of `x`.
// ---------------------------------------------------------------------------

/// A token of Rust source, as far as paths need them.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    /// `::`
    Sep,
    Punct(char),
}

/// The tokens of a source text with their line numbers: comments dropped,
/// string and character literals reduced to one token, lifetimes to their
/// name.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let newlines = |from: usize, to: usize| chars[from..to].iter().filter(|c| **c == '\n').count();
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += newlines(start, i);
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            let body: String = chars[start + 1..(i - 1).min(chars.len())].iter().collect();
            out.push((Tok::Str(body), line));
            line += newlines(start, i.min(chars.len()));
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}') or a lifetime.
            if chars.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let raw = matches!(word.as_str(), "r" | "br" | "cr")
                && matches!(chars.get(i), Some('"') | Some('#'));
            if raw {
                // r"…", r#"…"#: ends at a quote followed by as many hashes.
                let hashes = chars[i..].iter().take_while(|c| **c == '#').count();
                i += hashes + 1;
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let close: Vec<char> = close.chars().collect();
                while i < chars.len() && !chars[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push((Tok::Str(String::new()), line));
                line += newlines(start, i.min(chars.len()));
            } else if word == "b" && chars.get(i) == Some(&'\'') {
                // b'x' and b'\n' are bytes; the quote is read next round.
            } else {
                out.push((Tok::Ident(word), line));
            }
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

fn is_ident(tok: Option<&(Tok, usize)>, word: &str) -> bool {
    matches!(tok, Some((Tok::Ident(w), _)) if w == word)
}

fn is_punct(tok: Option<&(Tok, usize)>, c: char) -> bool {
    matches!(tok, Some((Tok::Punct(p), _)) if *p == c)
}

/// The index just past the bracketed group that opens at `i` (`(`, `[` or
/// `{`), counting every kind of bracket.
fn past_group(toks: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Whether the attribute that opens at `i` (`#[…]`) is `cfg(test)` or
/// `cfg(all(test, …))`.
fn is_test_attr(toks: &[(Tok, usize)], i: usize) -> bool {
    is_punct(toks.get(i), '#')
        && is_punct(toks.get(i + 1), '[')
        && is_ident(toks.get(i + 2), "cfg")
        && is_punct(toks.get(i + 3), '(')
        && (is_ident(toks.get(i + 4), "test")
            || (is_ident(toks.get(i + 4), "all")
                && is_punct(toks.get(i + 5), '(')
                && is_ident(toks.get(i + 6), "test")))
}

/// The index just past the item that starts at `i` (after its attributes):
/// its `;` or the `}` that closes its body.
fn past_item(toks: &[(Tok, usize)], mut i: usize) -> usize {
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct(';') => return i + 1,
            Tok::Punct('{') => return past_group(toks, i),
            Tok::Punct('(' | '[') => i = past_group(toks, i),
            _ => i += 1,
        }
    }
    i
}

/// The tokens of a file without its `#[cfg(test)]` items.
fn without_tests(toks: &[(Tok, usize)]) -> Vec<(Tok, usize)> {
    let mut kept = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if is_test_attr(toks, i) {
            i = past_group(toks, i + 1);
            while is_punct(toks.get(i), '#') {
                i = past_group(toks, i + 1);
            }
            i = past_item(toks, i);
        } else {
            kept.push(toks[i].clone());
            i += 1;
        }
    }
    kept
}

/// One `mod name;` declaration: its name, its `#[path]` and whether it is
/// test code.
struct ModDecl {
    name: String,
    path: Option<String>,
    test: bool,
}

/// The `mod name;` declarations of a file (inline `mod name { … }` blocks
/// are test modules here and hold no declaration the tree needs).
fn mod_decls(toks: &[(Tok, usize)]) -> Vec<ModDecl> {
    let mut decls = Vec::new();
    let (mut test, mut path) = (false, None);
    let mut i = 0;
    while i < toks.len() {
        if is_punct(toks.get(i), '#') && is_punct(toks.get(i + 1), '[') {
            test |= is_test_attr(toks, i);
            if is_ident(toks.get(i + 2), "path")
                && let Some((Tok::Str(p), _)) = toks.get(i + 4)
            {
                path = Some(p.clone());
            }
            i = past_group(toks, i + 1);
            continue;
        }
        match (&toks[i].0, toks.get(i + 1), toks.get(i + 2)) {
            (Tok::Ident(m), Some((Tok::Ident(name), _)), Some((Tok::Punct(';'), _)))
                if m == "mod" =>
            {
                decls.push(ModDecl {
                    name: name.clone(),
                    path: path.take(),
                    test,
                });
                test = false;
                i += 3;
            }
            (Tok::Ident(w), _, _) if w == "pub" || w == "mod" => i += 1,
            (Tok::Punct('('), _, _) if i > 0 && is_ident(toks.get(i - 1), "pub") => {
                i = past_group(toks, i)
            }
            _ => {
                (test, path) = (false, None);
                i += 1;
            }
        }
    }
    decls
}

/// One source file of the library.
struct SourceFile {
    /// Relative to `src/`, with `/`.
    rel: String,
    /// Its module path (`["search", "index"]`).
    module: Vec<String>,
    /// Its code, without test items.
    code: Vec<(Tok, usize)>,
    /// The child modules it declares (not test ones).
    children: BTreeSet<String>,
}

/// The library's module tree, from `src/lib.rs` down, and the files only
/// test code declares.
fn module_tree(root: &Path) -> (Vec<SourceFile>, BTreeSet<PathBuf>) {
    let mut files = Vec::new();
    let mut tests = BTreeSet::new();
    let mut todo = vec![(root.join("lib.rs"), Vec::<String>::new(), false)];
    while let Some((path, module, test)) = todo.pop() {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let toks = tokens(&text);
        let parent = path.parent().unwrap().to_path_buf();
        let own = path
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let dir = if own {
            parent.clone()
        } else {
            parent.join(path.file_stem().unwrap())
        };
        let mut children = BTreeSet::new();
        for decl in mod_decls(&toks) {
            let file = match &decl.path {
                Some(p) => parent.join(p),
                None if dir.join(format!("{}.rs", decl.name)).exists() => {
                    dir.join(format!("{}.rs", decl.name))
                }
                None => dir.join(&decl.name).join("mod.rs"),
            };
            let mut child = module.clone();
            child.push(decl.name.clone());
            if !(test || decl.test) {
                children.insert(decl.name);
            }
            todo.push((file, child, test || decl.test));
        }
        if test {
            tests.insert(path);
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        files.push(SourceFile {
            rel,
            module,
            code: without_tests(&toks),
            children,
        });
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    (files, tests)
}

/// A path a file names: its segments as written, the line, and whether it
/// is a `pub use` (a re-export).
struct Named {
    segs: Vec<String>,
    line: usize,
    export: bool,
    /// The name it binds, for a `use` (`Index` for `use index::Index`,
    /// `db` for `use super::db::{self}`); `None` for a glob or an inline path.
    binds: Option<String>,
}

/// Reads one `use` tree from `i`, appending the paths it names; the index
/// past it.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    export: bool,
    out: &mut Vec<Named>,
) -> usize {
    let mut segs = prefix.to_vec();
    let line = toks.get(i).map_or(0, |t| t.1);
    if matches!(toks.get(i), Some((Tok::Sep, _))) {
        i += 1;
    }
    while let Some((Tok::Ident(w), _)) = toks.get(i) {
        segs.push(w.clone());
        i += 1;
        if matches!(toks.get(i), Some((Tok::Sep, _))) {
            i += 1;
        } else {
            break;
        }
    }
    if is_punct(toks.get(i), '{') {
        i += 1;
        while i < toks.len() && !is_punct(toks.get(i), '}') {
            i = use_tree(toks, i, &segs, export, out);
            if is_punct(toks.get(i), ',') {
                i += 1;
            }
        }
        return i + 1;
    }
    if is_punct(toks.get(i), '*') {
        out.push(Named {
            segs,
            line,
            export,
            binds: None,
        });
        return i + 1;
    }
    if segs.last().is_some_and(|s| s == "self") {
        segs.pop();
    }
    let mut binds = segs.last().cloned();
    if is_ident(toks.get(i), "as") {
        if let Some((Tok::Ident(alias), _)) = toks.get(i + 1) {
            binds = Some(alias.clone());
        }
        i += 2;
    }
    out.push(Named {
        segs,
        line,
        export,
        binds,
    });
    i
}

/// Every path a file's code names that may lead into the crate: its `use`
/// trees, and inline paths that start with `crate`, `super`, `self` or the
/// name of one of its child modules.
fn named_paths(file: &SourceFile) -> Vec<Named> {
    let toks = &file.code;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if is_ident(toks.get(i), "use") {
            let export = (i >= 1 && is_ident(toks.get(i - 1), "pub"))
                || (i >= 2
                    && is_punct(toks.get(i - 1), ')')
                    && (1..=5).any(|back| back <= i && is_ident(toks.get(i - back), "pub")));
            i = use_tree(toks, i + 1, &[], export, &mut out);
            continue;
        }
        let starts = match &toks[i].0 {
            Tok::Ident(w) => {
                matches!(w.as_str(), "crate" | "super" | "self") || file.children.contains(w)
            }
            _ => false,
        };
        let after_sep = i > 0 && matches!(toks[i - 1].0, Tok::Sep);
        if starts && !after_sep && matches!(toks.get(i + 1), Some((Tok::Sep, _))) {
            let line = toks[i].1;
            let mut segs = Vec::new();
            while let Some((Tok::Ident(w), _)) = toks.get(i) {
                segs.push(w.clone());
                i += 1;
                if matches!(toks.get(i), Some((Tok::Sep, _))) {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(Named {
                segs,
                line,
                export: false,
                binds: None,
            });
            continue;
        }
        i += 1;
    }
    out
}

/// A path made absolute from the module `at`: `crate::`, `super::` and
/// `self::` resolved, a child module's name prefixed; `None` for a path
/// outside the crate (`std::…`, `rusqlite::…`).
fn absolute(at: &[String], segs: &[String], children: &BTreeSet<String>) -> Option<Vec<String>> {
    let first = segs.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => at.to_vec(),
        "super" => {
            let mut base = at.to_vec();
            let mut rest = segs;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            return Some(base);
        }
        name if children.contains(name) => {
            let mut base = at.to_vec();
            base.push(name.to_string());
            base.extend(segs[1..].iter().cloned());
            return Some(base);
        }
        _ => return None,
    };
    base.extend(segs[1..].iter().cloned());
    Some(base)
}

/// The library's file graph: for each file (relative to `src/`), the files
/// its code uses, each with the line and path that makes the edge.
fn file_graph(files: &[SourceFile]) -> BTreeMap<String, BTreeMap<String, (usize, String)>> {
    let by_module: BTreeMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(n, f)| (f.module.clone(), n))
        .collect();
    let named: Vec<Vec<Named>> = files.iter().map(named_paths).collect();
    // What each module imports, by the name it binds: followed when a path
    // goes through the module to that name.
    let imports: Vec<BTreeMap<String, Vec<String>>> = files
        .iter()
        .zip(&named)
        .map(|(f, names)| {
            names
                .iter()
                .filter_map(|n| {
                    let bound = n.binds.clone()?;
                    Some((bound, absolute(&f.module, &n.segs, &f.children)?))
                })
                .collect()
        })
        .collect();
    let resolve = |mut path: Vec<String>| -> Option<usize> {
        for _ in 0..16 {
            let deepest = (0..=path.len())
                .rev()
                .find(|k| by_module.contains_key(&path[..*k]))?;
            let file = by_module[&path[..deepest]];
            let Some(name) = path.get(deepest) else {
                return Some(file);
            };
            match imports[file].get(name) {
                Some(to) if *to != path[..=deepest] => {
                    let mut next = to.clone();
                    next.extend(path[deepest + 1..].iter().cloned());
                    path = next;
                }
                _ => return Some(file),
            }
        }
        None
    };
    let mut graph = BTreeMap::new();
    for (n, file) in files.iter().enumerate() {
        let edges: &mut BTreeMap<String, (usize, String)> =
            graph.entry(file.rel.clone()).or_default();
        for named in &named[n] {
            if named.export {
                continue;
            }
            let Some(path) = absolute(&file.module, &named.segs, &file.children) else {
                continue;
            };
            if let Some(to) = resolve(path)
                && to != n
            {
                edges
                    .entry(files[to].rel.clone())
                    .or_insert((named.line, named.segs.join("::")));
            }
        }
    }
    graph
}

/// The strongly connected components of more than one file (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn connect<'a>(s: &mut State<'a>, node: &'a str) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        s.on_stack.insert(node);
        for next in s.graph.get(node).into_iter().flatten() {
            if !s.index.contains_key(next.as_str()) {
                connect(s, next);
                let low = s.low[node].min(s.low[next.as_str()]);
                s.low.insert(node, low);
            } else if s.on_stack.contains(next.as_str()) {
                let low = s.low[node].min(s.index[next.as_str()]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut component = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(top);
                component.push(top.to_string());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            connect(&mut state, node);
        }
    }
    state.found.sort();
    state.found
}

/// Every cycle between the modules of one folder, each as its members and
/// the uses that close it.
///
/// The members of a folder are the modules its parent module declares: for
/// `src/tools/sync/`, `cli.rs`, `merge.rs` and the folder `repo/` (one
/// member with everything below it). A use between two files is lifted to
/// the two members that hold them; a use between a module and its own
/// parent or descendant (`super::Merged`, `repo::state`) is how a module
/// and what it declares work together, and no member of a folder.
fn folder_cycles(root: &Path) -> Vec<(Vec<String>, Vec<String>)> {
    let (files, _) = module_tree(root);
    let module_of: BTreeMap<&str, &[String]> = files
        .iter()
        .map(|f| (f.rel.as_str(), f.module.as_slice()))
        .collect();
    let graph = file_graph(&files);
    // The file of each module, to name a member (`tools/sync/repo/mod.rs`).
    let file_of: BTreeMap<&[String], &str> = files
        .iter()
        .map(|f| (f.module.as_slice(), f.rel.as_str()))
        .collect();
    let member = |module: &[String], depth: usize| file_of[&module[..=depth]].to_string();
    let mut lifted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Between two members, the file uses that make the edge.
    let mut why: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (from, uses) in &graph {
        let a = module_of[from.as_str()];
        for (to, (line, path)) in uses {
            let b = module_of[to.as_str()];
            let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            if common == a.len() || common == b.len() {
                continue;
            }
            let (ma, mb) = (member(a, common), member(b, common));
            lifted.entry(ma.clone()).or_default().insert(mb.clone());
            why.entry((ma, mb))
                .or_default()
                .push(format!("  src/{from}:{line} uses {to} ({path})"));
        }
    }
    cycles(&lifted)
        .into_iter()
        .map(|members| {
            let mut uses = Vec::new();
            for a in &members {
                for b in &members {
                    if let Some(lines) = why.get(&(a.clone(), b.clone())) {
                        uses.extend(lines.iter().cloned());
                    }
                }
            }
            (members, uses)
        })
        .collect()
}

#[test]
fn files_of_a_folder_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (files, _) = module_tree(&root);
    assert!(
        files.iter().any(|f| f.rel == "search/index.rs")
            && files.iter().any(|f| f.rel == "tools/track/mod.rs"),
        "the module tree misses files"
    );
    let failures: Vec<String> = folder_cycles(&root)
        .into_iter()
        .map(|(files, uses)| format!("cycle between {}:\n{}", files.join(", "), uses.join("\n")))
        .collect();
    assert!(
        failures.is_empty(),
        "file cycles:\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn every_source_file_is_in_the_module_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (files, tests) = module_tree(&root);
    let mut all = Vec::new();
    sources(&root, &mut all);
    for path in all {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        assert!(
            rel == "main.rs" || tests.contains(&path) || files.iter().any(|f| f.rel == rel),
            "src/{rel} is in no `mod` declaration the architecture test followed"
        );
    }
}

// ---------------------------------------------------------------------------
// The check itself, on crates made up for it: a cycle must be reported
// whichever way its paths are written, and nothing else may be.
// ---------------------------------------------------------------------------

/// The cycles the folder check finds in a crate of `files` (path under
/// `src/`, text), each as its members.
fn cycles_in(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    folder_cycles(dir.path())
        .into_iter()
        .map(|(members, _)| members)
        .collect()
}

#[test]
fn strongly_connected_files_are_reported_as_one_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"]),
        ("c", &["a", "d"]),
        ("d", &[]),
        ("e", &["a", "d"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(cycles(&graph), vec![vec!["a", "b", "c"]]);
    let mut acyclic = graph;
    acyclic.get_mut("c").unwrap().remove("a");
    assert_eq!(cycles(&acyclic), Vec::<Vec<String>>::new());
}

#[test]
fn the_folder_check_reports_a_cycle_however_its_paths_are_written() {
    // p.rs uses q.rs through an inline path; each case is a way for q.rs
    // (and the files it declares) to use p.rs back.
    let cases: &[&[(&str, &str)]] = &[
        &[("a/q.rs", "use super::p::T;")],
        &[("a/q.rs", "use super::super::a::p::T;")],
        &[("a/q.rs", "use crate::a::p::T;")],
        &[("a/q.rs", "use crate::a::{r, p::{self, T}};")],
        &[("a/q.rs", "use crate::{a::{p as other}};")],
        &[("a/q.rs", "fn h() -> u8 {\n    super::p::g(1)\n}")],
        &[("a/q.rs", "fn h() -> u8 { crate::a::p::g(1) }")],
        // Through the folder's mod.rs, which imports T from p.
        &[("a/q.rs", "fn h() { let _ = super::T; }")],
        // Through a name q's own child imports from p.
        &[
            ("a/q.rs", "mod inner;\nfn h() { let _ = self::inner::T; }"),
            ("a/q/inner.rs", "pub(super) use crate::a::p::T;"),
        ],
        // From a file below q: the cycle is between the members p and q.
        &[
            ("a/q.rs", "mod inner;"),
            ("a/q/inner.rs", "use super::super::p::g;"),
        ],
    ];
    for case in cases {
        let mut files = vec![
            ("lib.rs", "pub mod a;\n".to_string()),
            (
                "a/mod.rs",
                "mod p;\nmod q;\nmod r;\nuse p::T;\n".to_string(),
            ),
            (
                "a/p.rs",
                "pub struct T;\npub fn g(x: u8) -> u8 { super::q::f(x) }\n".to_string(),
            ),
            ("a/r.rs", String::new()),
        ];
        for (rel, text) in *case {
            let text = if *rel == "a/q.rs" {
                format!("pub fn f(x: u8) -> u8 {{ x }}\n{text}\n")
            } else {
                text.to_string()
            };
            files.push((rel, text));
        }
        let files: Vec<(&str, &str)> = files.iter().map(|(r, t)| (*r, t.as_str())).collect();
        assert_eq!(
            cycles_in(&files),
            vec![vec!["a/p.rs".to_string(), "a/q.rs".to_string()]],
            "{case:?}"
        );
    }
    // A folder member that is a folder itself, named by its mod.rs.
    assert_eq!(
        cycles_in(&[
            ("lib.rs", "mod a;"),
            ("a/mod.rs", "mod p;\nmod q;"),
            ("a/p/mod.rs", "mod deep;"),
            ("a/p/deep.rs", "use crate::a::q;\nfn h() { q::f() }"),
            ("a/q.rs", "pub fn f() {}\nfn g() { super::p::h() }"),
        ]),
        vec![vec!["a/p/mod.rs".to_string(), "a/q.rs".to_string()]]
    );
}

#[test]
fn the_folder_check_reports_no_cycle_where_there_is_none() {
    let found = cycles_in(&[
        ("lib.rs", "pub mod a;\n"),
        (
            "a/mod.rs",
            "mod p;\nmod q;\npub use p::T;\npub struct Shared;\npub fn run() -> u8 { p::g(1) }\n",
        ),
        (
            "a/p.rs",
            "use super::q;\npub struct T;\npub fn g(x: u8) -> u8 { q::f(x) }\n",
        ),
        (
            "a/q.rs",
            concat!(
                "//! Not `super::p::g`: comments /* super::p::T */ and strings do not count.\n",
                "pub fn f(x: u8) -> u8 {\n",
                "    let _ = (\"super::p::g\", r#\"crate::a::p::T\"#, '\"');\n",
                "    let _ = super::Shared; // the folder's own module, not a member\n",
                "    x\n",
                "}\n",
                "#[cfg(test)]\nmod tests;\n",
                "#[cfg(test)]\nmod more {\n    use super::super::p::T;\n}\n",
                "#[cfg(test)]\nuse crate::a::p::g;\n",
            ),
        ),
        ("a/q/tests.rs", "use crate::a::p::T;\n"),
    ]);
    assert_eq!(found, Vec::<Vec<String>>::new());
}
