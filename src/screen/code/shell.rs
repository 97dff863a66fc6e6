//! Shell scripts (tree-sitter-bash): words fold through variables, `$(…)`,
//! pipelines carry stdout into stdin, redirections write files, and each
//! command is judged by what its program does with its arguments and input
//! (`curl`, interpreters, decoders, `scp`, `nc`, `crontab`…).

use super::super::facts::Cap;
use super::calls;
use super::eval::{self, Ctx, Sink, Val, concat, labels};
use super::shell_run::run;
use super::{Lang, parse};
use std::collections::HashMap;
use tree_sitter::Node;

/// Variables of one script.
struct Sh<'s> {
    src: &'s str,
    vars: HashMap<String, Val>,
}

/// Walks a shell script.
pub(super) fn walk(ctx: &mut Ctx, text: &str) {
    let Some(tree) = parse(text, Lang::Shell) else {
        return;
    };
    let mut sh = Sh {
        src: text,
        vars: HashMap::new(),
    };
    stmt(ctx, &mut sh, tree.root_node(), None);
}

fn txt<'s>(sh: &Sh<'s>, n: Node) -> &'s str {
    sh.src.get(n.byte_range()).unwrap_or("")
}

/// Runs a statement; returns its stdout.
fn stmt(ctx: &mut Ctx, sh: &mut Sh, n: Node, stdin: Option<Val>) -> Val {
    if !ctx.tick() {
        return Val::default();
    }
    ctx.depth += 1;
    let out = stmt_inner(ctx, sh, n, stdin);
    ctx.depth -= 1;
    out
}

fn stmt_inner(ctx: &mut Ctx, sh: &mut Sh, n: Node, stdin: Option<Val>) -> Val {
    match n.kind() {
        "comment" => Val::default(),
        "command" => command(ctx, sh, n, stdin),
        "pipeline" => {
            let mut cur = stdin;
            let mut c = n.walk();
            for child in n.named_children(&mut c) {
                cur = Some(stmt(ctx, sh, child, cur));
            }
            cur.unwrap_or_default()
        }
        "variable_assignment" => {
            assign(ctx, sh, n);
            Val::default()
        }
        "declaration_command" => {
            let mut c = n.walk();
            for child in n.named_children(&mut c) {
                if child.kind() == "variable_assignment" {
                    assign(ctx, sh, child);
                }
            }
            Val::default()
        }
        "redirected_statement" => redirected(ctx, sh, n, stdin),
        "command_substitution"
        | "process_substitution"
        | "subshell"
        | "compound_statement"
        | "program"
        | "list"
        | "do_group"
        | "else_clause"
        | "elif_clause"
        | "negated_command" => {
            let mut out = Val::default();
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            for child in children {
                let v = stmt(ctx, sh, child, stdin.clone());
                out.add_taints(&v);
                if v.text.is_some() {
                    out.text = v.text;
                }
            }
            out
        }
        "function_definition" => {
            if let Some(b) = n.child_by_field_name("body") {
                stmt(ctx, sh, b, None);
            }
            Val::default()
        }
        "heredoc_body"
        | "heredoc_start"
        | "heredoc_end"
        | "file_redirect"
        | "herestring_redirect"
        | "heredoc_redirect" => Val::default(),
        _ => {
            // if/while/for/case/test…: walk what they contain.
            let mut out = Val::default();
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            for child in children {
                let v = if is_word(child.kind()) {
                    word(ctx, sh, child)
                } else {
                    stmt(ctx, sh, child, None)
                };
                out.add_taints(&v);
            }
            if n.kind() == "for_statement"
                && let Some(var) = n.child_by_field_name("variable")
            {
                let name = txt(sh, var).to_string();
                sh.vars.insert(name, Val::mix([&out]));
            }
            out
        }
    }
}

fn is_word(k: &str) -> bool {
    matches!(
        k,
        "word"
            | "string"
            | "raw_string"
            | "ansi_c_string"
            | "concatenation"
            | "simple_expansion"
            | "expansion"
            | "number"
            | "translated_string"
    )
}

fn assign(ctx: &mut Ctx, sh: &mut Sh, n: Node) {
    let Some(name) = n.child_by_field_name("name") else {
        return;
    };
    let name = txt(sh, name).to_string();
    let v = n
        .child_by_field_name("value")
        .map(|v| word(ctx, sh, v))
        .unwrap_or_else(|| Val::lit(""));
    ctx.derived_val(ctx.line(n.start_position().row), &v, false);
    sh.vars.insert(name, v);
}

/// The value of a word: folded when every part is known.
fn word(ctx: &mut Ctx, sh: &mut Sh, n: Node) -> Val {
    if !ctx.tick() {
        return Val::default();
    }
    match n.kind() {
        "word" | "number" => Val::lit(unescape_word(txt(sh, n))),
        "raw_string" => Val::lit(txt(sh, n).trim_matches('\'')),
        "ansi_c_string" => {
            let raw = txt(sh, n).trim_start_matches('$').trim_matches('\'');
            let v = ansi_c(raw);
            if raw.contains("\\x") || raw.chars().filter(|c| *c == '\\').count() >= 2 {
                Val::folded(v, "escape sequences")
            } else {
                Val::lit(v)
            }
        }
        "string" | "concatenation" | "translated_string" => {
            let mut parts = Vec::new();
            let mut c = n.walk();
            let children: Vec<Node> = n.children(&mut c).collect();
            let mut last_end = if n.kind() == "string" {
                n.start_byte() + 1
            } else {
                n.start_byte()
            };
            let end = if n.kind() == "string" {
                n.end_byte().saturating_sub(1)
            } else {
                n.end_byte()
            };
            for child in children {
                if !child.is_named() {
                    continue;
                }
                if child.start_byte() > last_end && n.kind() == "string" {
                    parts.push(Val::lit(
                        sh.src.get(last_end..child.start_byte()).unwrap_or(""),
                    ));
                }
                let v = if child.kind() == "string_content" {
                    Val::lit(
                        txt(sh, child)
                            .replace("\\\"", "\"")
                            .replace("\\$", "$")
                            .replace("\\\\", "\\"),
                    )
                } else {
                    word(ctx, sh, child)
                };
                parts.push(v);
                last_end = child.end_byte();
            }
            if n.kind() == "string" && end > last_end {
                parts.push(Val::lit(sh.src.get(last_end..end).unwrap_or("")));
            }
            concat(&parts, "string concatenation")
        }
        "simple_expansion" | "expansion" => {
            let name = {
                let mut c = n.walk();
                let found = n
                    .named_children(&mut c)
                    .find(|ch| matches!(ch.kind(), "variable_name" | "special_variable_name"))
                    .map(|ch| txt(sh, ch).to_string());
                found.unwrap_or_default()
            };
            let plain = n.kind() == "simple_expansion" || txt(sh, n) == format!("${{{name}}}");
            match sh.vars.get(&name) {
                Some(v) if plain => v.clone(),
                Some(v) => Val::mix([v]),
                None => calls::env_var(ctx, &name, ctx.line(n.start_position().row)),
            }
        }
        "command_substitution" | "process_substitution" => {
            let mut out = stmt(ctx, sh, n, None);
            out.text = None;
            out.how = None;
            out
        }
        "arithmetic_expansion" => Val::default(),
        _ => {
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            let mut out = Val::default();
            for ch in children {
                let v = word(ctx, sh, ch);
                out.add_taints(&v);
            }
            out
        }
    }
}

fn unescape_word(w: &str) -> String {
    let mut out = String::new();
    let mut it = w.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(n) = it.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn ansi_c(s: &str) -> String {
    let mut out = String::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '\\' && i + 1 < b.len() {
            let c = b[i + 1];
            i += 2;
            match c {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'x' => {
                    let hex: String = b[i..]
                        .iter()
                        .take(2)
                        .take_while(|c| c.is_ascii_hexdigit())
                        .collect();
                    i += hex.len();
                    if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        out.push(ch);
                    }
                }
                '0'..='7' => {
                    let oct: String = std::iter::once(c)
                        .chain(b[i..].iter().take(2).copied().take_while(|c| c.is_digit(8)))
                        .collect();
                    i += oct.len() - 1;
                    if let Some(ch) = u32::from_str_radix(&oct, 8).ok().and_then(char::from_u32) {
                        out.push(ch);
                    }
                }
                other => out.push(other),
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// A statement with redirections: input from files/here-docs, output to files.
fn redirected(ctx: &mut Ctx, sh: &mut Sh, n: Node, stdin: Option<Val>) -> Val {
    let line = ctx.line(n.start_position().row);
    let mut input = stdin;
    let mut outputs: Vec<(String, bool)> = Vec::new();
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    let mut body = None;
    for ch in &children {
        match ch.kind() {
            "file_redirect" => {
                let op = {
                    let mut cc = ch.walk();
                    let ops: Vec<String> = ch
                        .children(&mut cc)
                        .filter(|x| !x.is_named())
                        .map(|x| txt(sh, x).to_string())
                        .collect();
                    ops.join("")
                };
                let dest = ch
                    .child_by_field_name("destination")
                    .map(|d| word(ctx, sh, d))
                    .unwrap_or_default();
                let Some(path) = dest.text.clone() else {
                    continue;
                };
                if op.contains('<') && !op.contains('>') {
                    input = Some(ctx.read_path(&path, line));
                } else if path.starts_with("/dev/tcp/") || path.starts_with("/dev/udp/") {
                    outputs.push((path, op.contains('&')));
                } else if !path.starts_with("/dev/null")
                    && !path.chars().all(|c| c.is_ascii_digit())
                {
                    outputs.push((path, false));
                }
            }
            "herestring_redirect" => {
                let mut cc = ch.walk();
                let w = ch.named_children(&mut cc).next();
                input = Some(w.map(|w| word(ctx, sh, w)).unwrap_or_default());
            }
            "heredoc_redirect" => {
                let mut cc = ch.walk();
                let kids: Vec<Node> = ch.named_children(&mut cc).collect();
                let start = kids
                    .iter()
                    .find(|k| k.kind() == "heredoc_start")
                    .map(|k| txt(sh, *k))
                    .unwrap_or("");
                if let Some(b) = kids.iter().find(|k| k.kind() == "heredoc_body") {
                    let raw = txt(sh, *b);
                    let raw = raw.rsplit_once('\n').map(|(a, _)| a).unwrap_or(raw);
                    let quoted = start.contains('\'') || start.contains('"');
                    input = Some(if quoted {
                        Val::lit(raw)
                    } else {
                        word_heredoc(ctx, sh, *b, raw)
                    });
                }
                // `cat <<EOF | bash`: the pipeline sits inside the redirect.
                if let Some(p) = kids
                    .iter()
                    .find(|k| !matches!(k.kind(), "heredoc_start" | "heredoc_body" | "heredoc_end"))
                {
                    body = Some(*p);
                }
            }
            _ => {}
        }
    }
    let main = n.child_by_field_name("body");
    let mut out = match main {
        Some(b) => stmt(ctx, sh, b, input.clone()),
        None => Val::default(),
    };
    if let Some(p) = body {
        // The here-doc feeds the command; its output feeds the rest of the pipeline.
        let mut cc = p.walk();
        let stages: Vec<Node> = if p.kind() == "pipeline" {
            p.named_children(&mut cc).collect()
        } else {
            vec![p]
        };
        let mut cur = Some(out);
        for s in stages {
            cur = Some(stmt(ctx, sh, s, cur));
        }
        out = cur.unwrap_or_default();
    }
    for (path, dup) in outputs {
        if path.starts_with("/dev/tcp/") || path.starts_with("/dev/udp/") {
            let prog = main.map(|b| txt(sh, b)).unwrap_or("");
            let first = prog.split_whitespace().next().unwrap_or("");
            if eval::interpreter(first).is_some() || dup {
                ctx.fact(
                    Cap::ReverseShell,
                    line,
                    format!("connects a shell to {path}"),
                    "",
                );
            } else {
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("sends {} to {path}", labels(&[&out])),
                    "",
                    &[&out],
                );
            }
        } else {
            ctx.wrote_path(&path, line, &out);
        }
    }
    out
}

fn word_heredoc(ctx: &mut Ctx, sh: &mut Sh, b: Node, raw: &str) -> Val {
    let mut c = b.walk();
    let mut v = Val::lit(raw);
    for ch in b.named_children(&mut c) {
        if matches!(
            ch.kind(),
            "simple_expansion" | "expansion" | "command_substitution"
        ) {
            let x = word(ctx, sh, ch);
            v.add_taints(&x);
            v.text = None;
        }
    }
    v
}

fn command(ctx: &mut Ctx, sh: &mut Sh, n: Node, stdin: Option<Val>) -> Val {
    let line = ctx.line(n.start_position().row);
    let mut argv: Vec<Val> = Vec::new();
    let mut c = n.walk();
    let children: Vec<Node> = n.named_children(&mut c).collect();
    let mut input = stdin;
    for ch in children {
        match ch.kind() {
            "variable_assignment" => assign(ctx, sh, ch),
            "command_name" => {
                let mut cc = ch.walk();
                let w = ch.named_children(&mut cc).next();
                argv.push(w.map(|w| word(ctx, sh, w)).unwrap_or_default());
            }
            "herestring_redirect" => {
                let mut cc = ch.walk();
                let w = ch.named_children(&mut cc).next();
                input = Some(w.map(|w| word(ctx, sh, w)).unwrap_or_default());
            }
            "file_redirect" | "heredoc_redirect" => {}
            k if is_word(k) || k == "command_substitution" || k == "process_substitution" => {
                let v = word(ctx, sh, ch);
                argv.push(v);
            }
            _ => {}
        }
    }
    run(ctx, argv, input, line)
}
