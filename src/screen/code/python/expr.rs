//! Expressions of Python and JavaScript: literals and their folding
//! (concatenation, f-strings and template literals, `%`, slices and
//! indexing, comprehensions), attributes (`os.environ`, `process.env.X`,
//! `r.text`) and subscripts. Calls go back to the walker's `call`
//! (python.rs), whose part this is: a call is an expression, and the
//! functions it inlines are statements.

use super::super::calls;
use super::super::eval::{Ctx, Val, concat};
use super::{Py, assign, call, txt};
use tree_sitter::Node;

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
pub(super) fn dotted(py: &Py, n: Node) -> Option<String> {
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

/// Whether a dotted callee starts at a local variable (then it is a method on a value).
pub(super) fn root_is_var(py: &Py, n: Node) -> bool {
    let mut cur = n;
    while let Some(o) = cur.child_by_field_name("object") {
        cur = o;
    }
    cur.kind() == "identifier" && py.vars.contains_key(txt(py, cur))
}

/// The value of an expression, within the depth and step budget.
pub(super) fn expr(ctx: &mut Ctx, py: &mut Py, n: Node) -> Val {
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
