//! Python (tree-sitter-python) and JavaScript/TypeScript
//! (tree-sitter-javascript): one expression evaluator over both grammars,
//! whose node kinds mostly share names (`call`/`call_expression`,
//! `attribute`/`member_expression`…). Imports resolve aliases
//! (`import urllib.request as u`), assignments and `with … as f` bind
//! variables, simple functions are inlined at their call (bounded), and
//! every call goes to `calls::apply`.

use super::calls::{self, Call};
use super::eval::{self, Ctx, Val, concat};
use super::{Lang, parse};
use std::collections::HashMap;
use tree_sitter::Node;

/// Variables, aliases and functions of one script.
struct Py<'s> {
    src: &'s str,
    lang: Lang,
    vars: HashMap<String, Val>,
    aliases: HashMap<String, String>,
    funcs: HashMap<String, Node<'s>>,
}

/// Walks a Python or JavaScript script.
pub(super) fn walk(ctx: &mut Ctx, text: &str, lang: Lang) {
    let Some(tree) = parse(text, lang) else {
        return;
    };
    let root = tree.root_node();
    let mut py = Py {
        src: text,
        lang,
        vars: HashMap::new(),
        aliases: HashMap::new(),
        funcs: HashMap::new(),
    };
    collect_funcs(&mut py, root, 0);
    stmt(ctx, &mut py, root);
    // Every function body once more with unknown parameters, so code that is
    // never called from the top level (or called with constants) is seen too.
    let funcs: Vec<Node> = py.funcs.values().copied().collect();
    for def in funcs {
        if let Some(body) = def.child_by_field_name("body") {
            let saved = std::mem::take(&mut py.vars);
            stmt(ctx, &mut py, body);
            py.vars = saved;
        }
    }
}

fn txt<'s>(py: &Py<'s>, n: Node) -> &'s str {
    py.src.get(n.byte_range()).unwrap_or("")
}

fn collect_funcs<'s>(py: &mut Py<'s>, n: Node<'s>, depth: usize) {
    if depth > 8 {
        return;
    }
    let mut c = n.walk();
    for ch in n.named_children(&mut c) {
        if matches!(ch.kind(), "function_definition" | "function_declaration")
            && let Some(name) = ch.child_by_field_name("name")
        {
            let name = txt(py, name).to_string();
            py.funcs.insert(name, ch);
        }
        collect_funcs(py, ch, depth + 1);
    }
}

fn stmt(ctx: &mut Ctx, py: &mut Py, n: Node) {
    if !ctx.tick() {
        return;
    }
    ctx.depth += 1;
    match n.kind() {
        "import_statement" | "import_from_statement" => imports(py, n),
        "function_definition" | "function_declaration" | "class_definition" | "comment" => {
            if n.kind() == "class_definition"
                && let Some(b) = n.child_by_field_name("body")
            {
                stmt(ctx, py, b);
            }
        }
        "with_statement" => {
            let mut c = n.walk();
            for ch in n.named_children(&mut c) {
                if ch.kind() == "with_clause" {
                    let mut cc = ch.walk();
                    for item in ch.named_children(&mut cc) {
                        let Some(v) = item.child_by_field_name("value") else {
                            continue;
                        };
                        if v.kind() == "as_pattern" {
                            let val = v
                                .named_child(0)
                                .map(|e| expr(ctx, py, e))
                                .unwrap_or_default();
                            if let Some(alias) = v.child_by_field_name("alias") {
                                let name = txt(py, alias).to_string();
                                py.vars.insert(name, val);
                            }
                        } else {
                            expr(ctx, py, v);
                        }
                    }
                } else {
                    stmt(ctx, py, ch);
                }
            }
        }
        "expression_statement" | "return_statement" | "throw_statement" => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            for ch in kids {
                if matches!(
                    ch.kind(),
                    "assignment"
                        | "augmented_assignment"
                        | "assignment_expression"
                        | "augmented_assignment_expression"
                ) {
                    assign(ctx, py, ch);
                } else {
                    expr(ctx, py, ch);
                }
            }
        }
        "lexical_declaration" | "variable_declaration" => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            for d in kids {
                if let (Some(name), Some(value)) = (
                    d.child_by_field_name("name"),
                    d.child_by_field_name("value"),
                ) {
                    let v = expr(ctx, py, value);
                    bind(ctx, py, name, v);
                }
            }
        }
        "for_statement" | "for_in_statement" => {
            let right = n
                .child_by_field_name("right")
                .or(n.child_by_field_name("value"));
            if let (Some(left), Some(right)) = (n.child_by_field_name("left"), right) {
                let v = expr(ctx, py, right);
                let item = v
                    .items
                    .as_ref()
                    .and_then(|i| i.first().cloned())
                    .unwrap_or_else(|| Val::mix([&v]));
                bind(ctx, py, left, item);
            }
            if let Some(b) = n.child_by_field_name("body") {
                stmt(ctx, py, b);
            }
        }
        _ => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            for ch in kids {
                if ch.kind().ends_with("statement")
                    || ch.kind().ends_with("declaration")
                    || matches!(
                        ch.kind(),
                        "block"
                            | "module"
                            | "program"
                            | "statement_block"
                            | "else_clause"
                            | "elif_clause"
                            | "except_clause"
                            | "finally_clause"
                            | "if_statement"
                            | "try_statement"
                            | "with_statement"
                            | "decorated_definition"
                            | "expression_statement"
                            | "catch_clause"
                    )
                {
                    stmt(ctx, py, ch);
                } else {
                    expr(ctx, py, ch);
                }
            }
        }
    }
    ctx.depth -= 1;
}

fn imports(py: &mut Py, n: Node) {
    let module = n
        .child_by_field_name("module_name")
        .map(|m| txt(py, m).to_string());
    let mut c = n.walk();
    for ch in n.children_by_field_name("name", &mut c) {
        let (name, alias) = if ch.kind() == "aliased_import" {
            let name = ch
                .child_by_field_name("name")
                .map(|x| txt(py, x))
                .unwrap_or("");
            let alias = ch
                .child_by_field_name("alias")
                .map(|x| txt(py, x))
                .unwrap_or(name);
            (name.to_string(), alias.to_string())
        } else {
            let t = txt(py, ch).to_string();
            let first = t.split('.').next().unwrap_or(&t).to_string();
            (
                if module.is_some() {
                    t.clone()
                } else {
                    first.clone()
                },
                if module.is_some() { t } else { first },
            )
        };
        let full = match &module {
            Some(m) => format!("{m}.{name}"),
            None => name,
        };
        if full != alias {
            py.aliases.insert(alias, full);
        }
    }
}

fn bind(ctx: &mut Ctx, py: &mut Py, target: Node, v: Val) {
    ctx.derived_val(ctx.line(target.start_position().row), &v, false);
    match target.kind() {
        "identifier" | "shorthand_property_identifier_pattern" => {
            let name = txt(py, target).to_string();
            py.vars.insert(name, v);
        }
        "object_pattern" => {
            // `const { exec } = require('child_process')`: names stay calls.
            let mut c = target.walk();
            for ch in target.named_children(&mut c) {
                if ch.kind() == "shorthand_property_identifier_pattern" {
                    let name = txt(py, ch).to_string();
                    if let Some(m) = &v.func {
                        py.aliases.insert(name.clone(), format!("{m}.{name}"));
                    }
                }
            }
        }
        _ => {
            let mut c = target.walk();
            let kids: Vec<Node> = target.named_children(&mut c).collect();
            for ch in kids {
                bind(ctx, py, ch, Val::mix([&v]));
            }
        }
    }
}

fn assign(ctx: &mut Ctx, py: &mut Py, n: Node) {
    let (Some(left), Some(right)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    let mut v = expr(ctx, py, right);
    if n.kind().starts_with("augmented") {
        let old = expr(ctx, py, left);
        v = concat(&[old, v], "string concatenation");
    }
    if matches!(
        left.kind(),
        "subscript" | "attribute" | "member_expression" | "subscript_expression"
    ) {
        // `d["k"] = secret`: the container carries it.
        let obj = left
            .child_by_field_name("value")
            .or(left.child_by_field_name("object"));
        if let Some(o) = obj.filter(|o| o.kind() == "identifier") {
            let name = txt(py, o).to_string();
            let e = py.vars.entry(name).or_default();
            e.add_taints(&v);
        }
        return;
    }
    bind(ctx, py, left, v);
}

/// Python's `"…"`/f-strings and JS strings/template literals.
fn string(ctx: &mut Ctx, py: &mut Py, n: Node) -> Val {
    let mut parts = Vec::new();
    let raw_prefix = txt(py, n)
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .any(|c| c == 'r' || c == 'R');
    let mut c = n.walk();
    let kids: Vec<Node> = n.named_children(&mut c).collect();
    let mut has_content = false;
    for ch in kids {
        match ch.kind() {
            "string_content" | "string_fragment" => {
                has_content = true;
                let t = txt(py, ch);
                parts.push(Val::lit(if raw_prefix {
                    t.to_string()
                } else {
                    unescape(t)
                }));
            }
            "escape_sequence" => {
                has_content = true;
                parts.push(Val::lit(unescape(txt(py, ch))));
            }
            "interpolation" | "template_substitution" => {
                let mut cc = ch.walk();
                let e = ch
                    .named_children(&mut cc)
                    .find(|x| !matches!(x.kind(), "format_specifier" | "type_conversion"));
                parts.push(e.map(|e| expr(ctx, py, e)).unwrap_or_default());
            }
            _ => {}
        }
    }
    if parts.is_empty() && !has_content {
        return Val::lit("");
    }
    let mut v = concat(&parts, "format string");
    if parts.len() < 2 {
        v.how = parts.first().and_then(|p| p.how);
    }
    v
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('x') => {
                let h: String = [it.next(), it.next()].into_iter().flatten().collect();
                if let Some(ch) = u32::from_str_radix(&h, 16).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some('u') => {
                let mut h = String::new();
                if it.peek() == Some(&'{') {
                    it.next();
                    for d in it.by_ref() {
                        if d == '}' {
                            break;
                        }
                        h.push(d);
                    }
                } else {
                    h = [it.next(), it.next(), it.next(), it.next()]
                        .into_iter()
                        .flatten()
                        .collect();
                }
                if let Some(ch) = u32::from_str_radix(&h, 16).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some('\n') => {}
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// The dotted name of a callee made only of identifiers (`os.path.join`), aliases resolved.
fn dotted(py: &Py, n: Node) -> Option<String> {
    match n.kind() {
        "identifier" => {
            let t = txt(py, n);
            Some(py.aliases.get(t).cloned().unwrap_or_else(|| t.to_string()))
        }
        "attribute" | "member_expression" => {
            let obj = n.child_by_field_name("object")?;
            let attr = n
                .child_by_field_name("attribute")
                .or(n.child_by_field_name("property"))?;
            let base = dotted(py, obj)?;
            Some(format!("{base}.{}", txt(py, attr)))
        }
        _ => None,
    }
}

fn root_is_var(py: &Py, n: Node) -> bool {
    let mut cur = n;
    while let Some(o) = cur.child_by_field_name("object") {
        cur = o;
    }
    cur.kind() == "identifier" && py.vars.contains_key(txt(py, cur))
}

fn expr(ctx: &mut Ctx, py: &mut Py, n: Node) -> Val {
    if !ctx.tick() {
        return Val::default();
    }
    ctx.depth += 1;
    let v = expr_inner(ctx, py, n);
    ctx.depth -= 1;
    v
}

fn expr_inner(ctx: &mut Ctx, py: &mut Py, n: Node) -> Val {
    let line = ctx.line(n.start_position().row);
    match n.kind() {
        "string" | "template_string" => string(ctx, py, n),
        "concatenated_string" => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            let parts: Vec<Val> = kids.into_iter().map(|k| expr(ctx, py, k)).collect();
            concat(&parts, "string concatenation")
        }
        "integer" | "number" | "true" | "false" | "True" | "False" => Val::lit(txt(py, n)),
        "identifier" => {
            let name = txt(py, n);
            if let Some(v) = py.vars.get(name) {
                return v.clone();
            }
            if matches!(name, "environ") && py.aliases.get(name).is_some_and(|a| a == "os.environ")
            {
                return calls::whole_env(ctx, line);
            }
            let full = py
                .aliases
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string());
            Val {
                func: Some(full),
                ..Val::default()
            }
        }
        "parenthesized_expression"
        | "await"
        | "await_expression"
        | "expression_statement"
        | "non_null_expression"
        | "as_expression"
        | "spread_element"
        | "list_splat"
        | "dictionary_splat" => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            let mut last = Val::default();
            for k in kids {
                last = expr(ctx, py, k);
            }
            last
        }
        "binary_operator" | "binary_expression" => {
            let (Some(l), Some(r)) = (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ) else {
                return Val::default();
            };
            let op = n
                .child_by_field_name("operator")
                .map(|o| txt(py, o))
                .unwrap_or("");
            let (a, b) = (expr(ctx, py, l), expr(ctx, py, r));
            match op {
                "+" => concat(&[a, b], "string concatenation"),
                "/" if a.path.is_some() => {
                    let p = format!(
                        "{}/{}",
                        a.path.as_deref().unwrap_or(""),
                        b.text.as_deref().unwrap_or("*")
                    );
                    Val {
                        path: Some(p.clone()),
                        text: Some(p),
                        ..Val::default()
                    }
                }
                "%" if a.text.is_some() => percent(&a, &b),
                _ => Val::mix([&a, &b]),
            }
        }
        "attribute" | "member_expression" => attribute(ctx, py, n, line),
        "subscript" | "subscript_expression" => subscript(ctx, py, n, line),
        "list" | "tuple" | "array" | "set" | "expression_list" | "pattern_list" => {
            let mut c = n.walk();
            let kids: Vec<Node> = n
                .named_children(&mut c)
                .filter(|k| k.kind() != "comment")
                .collect();
            let items: Vec<Val> = kids.into_iter().map(|k| expr(ctx, py, k)).collect();
            Val {
                items: Some(items),
                ..Val::default()
            }
        }
        "dictionary" | "object" => {
            let mut fields = Vec::new();
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            for k in kids {
                match (k.child_by_field_name("key"), k.child_by_field_name("value")) {
                    (Some(key), Some(value)) => {
                        let kv = expr(ctx, py, key);
                        let name = kv
                            .text
                            .unwrap_or_else(|| txt(py, key).to_string())
                            .to_ascii_lowercase();
                        let v = expr(ctx, py, value);
                        fields.push((name, v));
                    }
                    _ => {
                        let v = expr(ctx, py, k);
                        let name = txt(py, k).to_ascii_lowercase();
                        fields.push((name, v));
                    }
                }
            }
            Val {
                fields: Some(fields),
                ..Val::default()
            }
        }
        "call" | "call_expression" | "new_expression" => call(ctx, py, n, line),
        "list_comprehension" | "generator_expression" => comprehension(ctx, py, n),
        "lambda" | "arrow_function" | "function_expression" | "function" => Val {
            func: Some(format!("@{}", n.id())),
            ..Val::default()
        },
        "conditional_expression" | "ternary_expression" | "boolean_operator" => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            let vals: Vec<Val> = kids.into_iter().map(|k| expr(ctx, py, k)).collect();
            let mut v = Val::mix(vals.iter());
            v.text = vals
                .first()
                .and_then(|x| x.text.clone())
                .filter(|_| n.kind() == "boolean_operator");
            v
        }
        "assignment" | "assignment_expression" | "named_expression" | "augmented_assignment" => {
            assign(ctx, py, n);
            n.child_by_field_name("left")
                .map(|l| expr(ctx, py, l))
                .unwrap_or_default()
        }
        _ => {
            let mut c = n.walk();
            let kids: Vec<Node> = n.named_children(&mut c).collect();
            let vals: Vec<Val> = kids.into_iter().map(|k| expr(ctx, py, k)).collect();
            Val::mix(vals.iter())
        }
    }
}

/// `"%s/%s" % (a, b)`.
fn percent(fmt: &Val, args: &Val) -> Val {
    let items = args.items.clone().unwrap_or_else(|| vec![args.clone()]);
    let f = fmt.text.as_deref().unwrap_or("");
    let mut out = String::new();
    let mut it = items.iter();
    let mut chars = f.chars().peekable();
    let mut ok = true;
    while let Some(c) = chars.next() {
        if c == '%' {
            match chars.next() {
                Some('%') => out.push('%'),
                Some(_) => match it.next().and_then(|v| v.text.as_deref()) {
                    Some(t) => out.push_str(t),
                    None => ok = false,
                },
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    let mut v = Val::mix(items.iter());
    if ok {
        v.text = Some(out);
        v.how = Some("format string");
    }
    v
}

fn attribute(ctx: &mut Ctx, py: &mut Py, n: Node, line: usize) -> Val {
    let d = dotted(py, n);
    if let Some(d) = d.as_deref().filter(|_| !root_is_var(py, n)) {
        match d {
            "os.environ" | "process.env" => {
                // `process.env.X` is handled by the parent; a bare use is the whole environment.
                return calls::whole_env(ctx, line);
            }
            _ if d.starts_with("process.env.") => {
                return calls::env_var(ctx, &d["process.env.".len()..], line);
            }
            _ => {}
        }
    }
    let Some(obj) = n.child_by_field_name("object") else {
        return Val::default();
    };
    let attr = n
        .child_by_field_name("attribute")
        .or(n.child_by_field_name("property"))
        .map(|a| txt(py, a))
        .unwrap_or("");
    let o = expr(ctx, py, obj);
    if o.func.is_some() && o.taints.is_empty() {
        return Val {
            func: d.or(Some(attr.to_string())),
            ..Val::default()
        };
    }
    match attr {
        "text" | "content" | "body" | "data" | "stdout" | "raw" => {
            let mut v = Val::mix([&o]);
            v.text = o.text.clone();
            v
        }
        "length" => Val::default(),
        _ => {
            let mut v = Val::mix([&o]);
            v.path = o.path.clone();
            v.net = o.net;
            v
        }
    }
}

fn subscript(ctx: &mut Ctx, py: &mut Py, n: Node, line: usize) -> Val {
    let obj = n
        .child_by_field_name("value")
        .or(n.child_by_field_name("object"));
    let idx = n
        .child_by_field_name("subscript")
        .or(n.child_by_field_name("index"));
    let (Some(obj), Some(idx)) = (obj, idx) else {
        return Val::default();
    };
    if let Some(d) = dotted(py, obj).filter(|_| !root_is_var(py, obj))
        && matches!(d.as_str(), "os.environ" | "process.env")
    {
        let k = expr(ctx, py, idx);
        return calls::env_var(ctx, k.text.as_deref().unwrap_or("X"), line);
    }
    let o = expr(ctx, py, obj);
    if idx.kind() == "slice" {
        // `s[::-1]`
        if txt(py, idx).replace(' ', "") == "::-1" {
            if let Some(t) = &o.text {
                return Val::folded(t.chars().rev().collect(), "string reversal");
            }
            if let Some(items) = &o.items {
                return Val {
                    items: Some(items.iter().rev().cloned().collect()),
                    ..Val::default()
                };
            }
        }
        return Val::mix([&o]);
    }
    let i = expr(ctx, py, idx);
    let pos = i.text.as_deref().and_then(|t| t.parse::<i64>().ok());
    if let (Some(items), Some(p)) = (&o.items, pos) {
        let p = if p < 0 { items.len() as i64 + p } else { p };
        if let Some(v) = usize::try_from(p).ok().and_then(|p| items.get(p)) {
            return v.clone();
        }
    }
    if let (Some(t), Some(p)) = (&o.text, pos)
        && let Some(ch) = usize::try_from(p).ok().and_then(|p| t.chars().nth(p))
    {
        return Val::lit(ch.to_string());
    }
    if let (Some(_), Some(k)) = (&o.fields, &i.text)
        && let Some(v) = o.field(&k.to_ascii_lowercase())
    {
        return v.clone();
    }
    let mut v = Val::mix([&o, &i]);
    v.text = None;
    v
}

/// `[f(x) for x in xs]` and `''.join(parts[i] for i in [2,0,1])`: evaluated per element.
fn comprehension(ctx: &mut Ctx, py: &mut Py, n: Node) -> Val {
    let Some(body) = n.child_by_field_name("body") else {
        return Val::default();
    };
    let mut c = n.walk();
    let Some(clause) = n
        .named_children(&mut c)
        .find(|k| k.kind() == "for_in_clause")
    else {
        return Val::default();
    };
    let (Some(left), Some(right)) = (
        clause.child_by_field_name("left"),
        clause.child_by_field_name("right"),
    ) else {
        return Val::default();
    };
    let src = expr(ctx, py, right);
    let elems: Vec<Val> = match (&src.items, &src.text) {
        (Some(items), _) => items.clone(),
        (None, Some(t)) if t.chars().count() <= 4096 => {
            t.chars().map(|c| Val::lit(c.to_string())).collect()
        }
        _ => return Val::mix([&src]),
    };
    let mut items = Vec::new();
    let name = txt(py, left).to_string();
    let saved = py.vars.remove(&name);
    for e in elems.into_iter().take(4096) {
        py.vars.insert(name.clone(), e);
        items.push(expr(ctx, py, body));
    }
    py.vars.remove(&name);
    if let Some(s) = saved {
        py.vars.insert(name, s);
    }
    Val {
        items: Some(items),
        ..Val::default()
    }
}

fn args_of(ctx: &mut Ctx, py: &mut Py, n: Node) -> (Vec<Val>, Vec<(String, Val)>) {
    let mut args = Vec::new();
    let mut kw = Vec::new();
    let Some(a) = n.child_by_field_name("arguments") else {
        return (args, kw);
    };
    if a.kind() == "generator_expression" || a.kind() == "template_string" {
        args.push(expr(ctx, py, a));
        return (args, kw);
    }
    let mut c = a.walk();
    let kids: Vec<Node> = a
        .named_children(&mut c)
        .filter(|k| k.kind() != "comment")
        .collect();
    for k in kids {
        if k.kind() == "keyword_argument" {
            let name = k
                .child_by_field_name("name")
                .map(|x| txt(py, x).to_ascii_lowercase())
                .unwrap_or_default();
            // A child's environment (`env=os.environ.copy()`) is not a read of secrets.
            if name == "env" {
                continue;
            }
            let v = k
                .child_by_field_name("value")
                .map(|x| expr(ctx, py, x))
                .unwrap_or_default();
            kw.push((name, v));
        } else {
            let v = expr(ctx, py, k);
            ctx.derived_val(ctx.line(k.start_position().row), &v, false);
            args.push(v);
        }
    }
    (args, kw)
}

fn call(ctx: &mut Ctx, py: &mut Py, n: Node, line: usize) -> Val {
    let Some(f) = n
        .child_by_field_name("function")
        .or(n.child_by_field_name("constructor"))
    else {
        return Val::default();
    };
    let (args, kw) = args_of(ctx, py, n);
    let lang = py.lang;
    // A function defined in this file: bind parameters, evaluate its body once.
    if f.kind() == "identifier"
        && let Some(def) = py.funcs.get(txt(py, f)).copied()
        && ctx.depth < 16
    {
        return inline(ctx, py, def, args);
    }
    // A method defined in this file (`self.send(x)`, `harvester.collect()`).
    if matches!(f.kind(), "attribute" | "member_expression")
        && let Some(attr) = f
            .child_by_field_name("attribute")
            .or(f.child_by_field_name("property"))
        && let Some(def) = py.funcs.get(txt(py, attr)).copied()
        && ctx.depth < 16
    {
        return inline(ctx, py, def, args);
    }
    // `require('child_process')` names a module.
    if txt(py, f) == "require" {
        return Val {
            func: args
                .first()
                .and_then(|a| a.text.clone())
                .map(|m| m.trim_start_matches("node:").to_string()),
            ..Val::default()
        };
    }
    let (name, recv) = match f.kind() {
        "identifier" => (dotted(py, f).unwrap_or_default(), None),
        "attribute" | "member_expression" if !root_is_var(py, f) && dotted(py, f).is_some() => {
            let d = dotted(py, f).unwrap_or_default();
            if let Some(o) = f
                .child_by_field_name("object")
                .filter(|o| o.kind() == "identifier")
            {
                let base = txt(py, o);
                // A module object from `require`, or an unknown bare name: keep the dotted name.
                if let Some(v) = py.vars.get(base).and_then(|v| v.func.clone()) {
                    let attr = d.rsplit('.').next().unwrap_or("").to_string();
                    (format!("{v}.{attr}"), None)
                } else {
                    (d, None)
                }
            } else {
                (d, None)
            }
        }
        "attribute" | "member_expression" => {
            let obj = f.child_by_field_name("object");
            let attr = f
                .child_by_field_name("attribute")
                .or(f.child_by_field_name("property"))
                .map(|a| txt(py, a).to_string())
                .unwrap_or_default();
            let o = obj.map(|o| expr(ctx, py, o)).unwrap_or_default();
            if let Some(m) = o.func.clone().filter(|_| o.taints.is_empty()) {
                (format!("{m}.{attr}"), None)
            } else {
                (attr, Some(o))
            }
        }
        "subscript" | "subscript_expression" => {
            // `globalThis['ev' + 'al'](…)`, `getattr`-style computed callees.
            let idx = f
                .child_by_field_name("subscript")
                .or(f.child_by_field_name("index"));
            let i = idx.map(|i| expr(ctx, py, i)).unwrap_or_default();
            match i.text.clone() {
                Some(t) => {
                    ctx.derived_val(line, &i, false);
                    (t, None)
                }
                None => return Val::mix(std::iter::once(&i).chain(args.iter())),
            }
        }
        _ => {
            let o = expr(ctx, py, f);
            match o.func.clone() {
                Some(name) => (name, None),
                None => return Val::mix(std::iter::once(&o).chain(args.iter())),
            }
        }
    };
    let name = if n.kind() == "new_expression" && name == "Function" {
        "new function".to_string()
    } else {
        name
    };
    // Promise chains: `.then(eval)`, `.then(t => eval(t))`.
    if name.ends_with("then")
        && lang == Lang::JavaScript
        && let (Some(r), Some(cb)) = (
            recv.as_ref(),
            n.child_by_field_name("arguments")
                .and_then(|a| a.named_child(0)),
        )
    {
        return then(ctx, py, r.clone(), cb, line);
    }
    // `dict(os.environ)`, `JSON.stringify(process.env)`: environment objects as data.
    let mut c = Call {
        name,
        recv,
        args,
        kw,
        line,
        lang,
    };
    if c.name == "map"
        && lang == Lang::JavaScript
        && let Some(items) = c.recv.as_ref().and_then(|r| r.items.clone())
    {
        let folded: Vec<Val> = items
            .into_iter()
            .map(|i| {
                i.text
                    .as_deref()
                    .and_then(|t| t.parse::<u32>().ok())
                    .and_then(char::from_u32)
                    .map(|ch| Val::lit(ch.to_string()))
                    .unwrap_or(i)
            })
            .collect();
        return Val {
            items: Some(folded),
            ..Val::default()
        };
    }
    if (c.name == "bytes" || c.name == "bytearray")
        && let Some(items) = c.args.first().and_then(|a| a.items.clone())
    {
        let s: Option<String> = items
            .iter()
            .map(|i| {
                i.text
                    .as_deref()
                    .and_then(|t| t.parse::<u32>().ok())
                    .and_then(char::from_u32)
            })
            .collect();
        if let Some(s) = s {
            return Val::folded(s, "character codes");
        }
    }
    if c.name == "print"
        || c.name.starts_with("console.")
        || c.name == "len"
        || c.name.starts_with("logging.")
        || c.name == "isinstance"
    {
        return Val::default();
    }
    c.kw.retain(|(k, _)| k != "headers" && k != "auth" && k != "cookies" && k != "cert");
    calls::apply(ctx, c)
}

fn inline<'s>(ctx: &mut Ctx, py: &mut Py<'s>, def: Node<'s>, args: Vec<Val>) -> Val {
    let Some(params) = def.child_by_field_name("parameters") else {
        return Val::default();
    };
    let mut c = params.walk();
    let mut names: Vec<String> = params
        .named_children(&mut c)
        .map(|p| {
            p.child_by_field_name("name")
                .or(p.child_by_field_name("pattern"))
                .map(|x| txt(py, x))
                .unwrap_or_else(|| txt(py, p))
                .to_string()
        })
        .collect();
    if names.first().is_some_and(|n| n == "self" || n == "cls") {
        names.remove(0);
    }
    let saved: Vec<(String, Option<Val>)> = names
        .iter()
        .map(|n| (n.clone(), py.vars.get(n).cloned()))
        .collect();
    for (name, v) in names
        .iter()
        .zip(args.into_iter().chain(std::iter::repeat(Val::default())))
    {
        py.vars.insert(name.clone(), v);
    }
    ctx.depth += 4;
    let mut ret = Val::default();
    if let Some(body) = def.child_by_field_name("body") {
        stmt(ctx, py, body);
        ret = returns(ctx, py, body, 0);
    }
    ctx.depth -= 4;
    for (n, v) in saved {
        match v {
            Some(v) => py.vars.insert(n, v),
            None => py.vars.remove(&n),
        };
    }
    ret
}

/// The value of a function body's return statements (taints united).
fn returns(ctx: &mut Ctx, py: &mut Py, n: Node, depth: usize) -> Val {
    let mut out = Val::default();
    if depth > 6 {
        return out;
    }
    let mut c = n.walk();
    let kids: Vec<Node> = n.named_children(&mut c).collect();
    for k in kids {
        if k.kind() == "return_statement" {
            if let Some(e) = k.named_child(0) {
                let v = expr(ctx, py, e);
                if out.text.is_none() && out.taints.is_empty() {
                    out = v;
                } else {
                    out.add_taints(&v);
                }
            }
        } else if !matches!(k.kind(), "function_definition" | "function_declaration") {
            let v = returns(ctx, py, k, depth + 1);
            out.add_taints(&v);
        }
    }
    out
}

/// `p.then(cb)`: the callback's parameter is the promise's value.
fn then(ctx: &mut Ctx, py: &mut Py, r: Val, cb: Node, line: usize) -> Val {
    match cb.kind() {
        "identifier" => {
            let name = txt(py, cb).to_string();
            let c = Call {
                name,
                recv: None,
                args: vec![r],
                kw: Vec::new(),
                line,
                lang: py.lang,
            };
            calls::apply(ctx, c)
        }
        "arrow_function" | "function_expression" | "function" => {
            let param = cb.child_by_field_name("parameter").or_else(|| {
                cb.child_by_field_name("parameters")
                    .and_then(|p| p.named_child(0))
            });
            if let Some(p) = param {
                let name = txt(py, p)
                    .trim_matches(|c| c == '(' || c == ')')
                    .to_string();
                py.vars.insert(name, r);
            }
            match cb.child_by_field_name("body") {
                Some(b) if b.kind() == "statement_block" => {
                    stmt(ctx, py, b);
                    returns(ctx, py, b, 0)
                }
                Some(b) => expr(ctx, py, b),
                None => Val::default(),
            }
        }
        _ => r,
    }
}
