//! Python (tree-sitter-python) and JavaScript/TypeScript
//! (tree-sitter-javascript): one expression evaluator over both grammars,
//! whose node kinds mostly share names (`call`/`call_expression`,
//! `attribute`/`member_expression`…). Imports resolve aliases
//! (`import urllib.request as u`), assignments and `with … as f` bind
//! variables, simple functions are inlined at their call (bounded), and
//! every call goes to `calls::apply`.

mod expr;

use super::call::Call;
use super::calls;
use super::eval::{Ctx, Val, concat};
use super::{Lang, parse};
use expr::{dotted, expr, root_is_var};
use std::collections::HashMap;
use tree_sitter::Node;

/// Variables, aliases and functions of one script.
pub(super) struct Py<'s> {
    pub src: &'s str,
    pub lang: Lang,
    pub vars: HashMap<String, Val>,
    pub aliases: HashMap<String, String>,
    pub funcs: HashMap<String, Node<'s>>,
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

/// The source text of a node.
pub(super) fn txt<'s>(py: &Py<'s>, n: Node) -> &'s str {
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

/// `x = …`, `x += …`, `d[k] = …`: binds or taints the target.
pub(super) fn assign(ctx: &mut Ctx, py: &mut Py, n: Node) {
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

/// A call: local functions are inlined, everything else goes to `calls::apply`.
pub(super) fn call(ctx: &mut Ctx, py: &mut Py, n: Node, line: usize) -> Val {
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
