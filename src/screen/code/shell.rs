//! Shell scripts (tree-sitter-bash): words fold through variables, `$(…)`,
//! pipelines carry stdout into stdin, redirections write files, and each
//! command is judged by what its program does with its arguments and input
//! (`curl`, interpreters, decoders, `scp`, `nc`, `crontab`…).

use super::super::facts::Cap;
use super::calls;
use super::eval::{self, Ctx, Label, Sink, Val, concat, describe, labels};
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

fn t(v: &Val) -> &str {
    v.text.as_deref().unwrap_or("")
}

/// What a command does, by its program.
pub(super) fn run(ctx: &mut Ctx, mut argv: Vec<Val>, stdin: Option<Val>, line: usize) -> Val {
    // Prefixes that run the rest: sudo, env, nohup, exec, time, command, nice, timeout.
    loop {
        let Some(first) = argv.first() else {
            return Val::default();
        };
        let p = t(first).rsplit('/').next().unwrap_or("").to_string();
        match p.as_str() {
            "sudo" | "doas" | "nohup" | "exec" | "time" | "command" | "builtin" | "nice"
            | "stdbuf" | "setsid" | "caffeinate" => {
                argv.remove(0);
                while argv.first().is_some_and(|a| t(a).starts_with('-')) {
                    let flag = t(&argv[0]).to_string();
                    argv.remove(0);
                    if matches!(flag.as_str(), "-u" | "-g" | "-n")
                        && p != "nice"
                        && !argv.is_empty()
                    {
                        argv.remove(0);
                    }
                }
            }
            "env" if argv.len() > 1 => {
                argv.remove(0);
                while argv
                    .first()
                    .is_some_and(|a| t(a).contains('=') || t(a).starts_with('-'))
                {
                    argv.remove(0);
                }
            }
            "timeout" if argv.len() > 2 => {
                argv.drain(..2);
            }
            _ => break,
        }
    }
    let Some(first) = argv.first().cloned() else {
        return Val::default();
    };
    let name = t(&first).to_string();
    let prog = name.rsplit('/').next().unwrap_or(&name).to_string();
    let args: Vec<Val> = argv[1..].to_vec();
    let words: Vec<&str> = args.iter().map(t).collect();
    let stdin_v = stdin.clone().unwrap_or_default();
    let has = |f: &[&str]| words.iter().any(|w| f.contains(w));

    // AgentConfig: permission-bypass flags anywhere.
    if words.iter().any(|w| {
        w.contains("dangerously-skip-permissions")
            || *w == "--yolo"
            || w.contains("bypassPermissions")
            || *w == "--dangerously-bypass-approvals-and-sandbox"
    }) {
        ctx.fact(
            Cap::AgentConfig,
            line,
            format!("runs {prog} with its permission prompts turned off"),
            "",
        );
    }
    // A program that is itself a downloaded or decoded file.
    if first.text.is_none() && (first.has(Label::Downloaded) || first.has(Label::Decoded))
        || !ctx.file_taints(&name).is_empty()
    {
        let taints: Vec<_> = ctx
            .file_taints(&name)
            .into_iter()
            .chain(first.all_taints())
            .collect();
        if let Some(s) = ctx.fact(
            Cap::DynamicExec,
            line,
            format!("runs {name}, written from a download or decode"),
            "",
        ) {
            for tn in taints {
                ctx.flow_from(tn, s, Sink::Exec);
            }
        }
        return Val::default();
    }
    match prog.as_str() {
        "eval" => {
            let code = concat(&join_spaces(&args), "string concatenation");
            return calls::exec(ctx, &code, Lang::Shell, line, "eval");
        }
        "source" | "." => {
            if let Some(f) = args.first() {
                return script_file(ctx, f, Lang::Shell, line, &prog);
            }
            return Val::default();
        }
        "curl" | "wget" => return curl(ctx, &prog, &args, stdin, line),
        "base64" | "xxd" | "openssl" | "gunzip" | "zcat" | "uudecode" | "rev" | "gzip"
        | "b64decode"
            if has(&["-d", "--decode", "-D", "-r", "-rp", "-dc", "enc"])
                || matches!(prog.as_str(), "gunzip" | "zcat" | "uudecode" | "b64decode") =>
        {
            let mut input = stdin_v.clone();
            if let Some(f) = args.iter().rev().find(|a| {
                a.text
                    .as_deref()
                    .is_some_and(|w| !w.starts_with('-') && w != "enc" && w != "base64")
            }) && prog != "openssl"
            {
                input = ctx.read_path(t(f), line);
            }
            let src = ctx.fact(Cap::Decode, line, format!("decodes a payload ({prog})"), "");
            if let Some(s) = &stdin_v.text {
                let s = s.trim().to_string();
                ctx.derived(line, &s, &format!("argument of {prog} -d"), false);
            }
            let mut out = Val::mix([&input]).taint(Label::Decoded, src);
            out.how = Some("decoded");
            return out;
        }
        "echo" | "printf" | "print" => {
            let mut parts: Vec<Val> = args
                .iter()
                .filter(|a| !matches!(t(a), "-n" | "-e" | "-ne" | "-en"))
                .cloned()
                .collect();
            if prog == "printf" && parts.len() > 1 && t(&parts[0]).contains('%') {
                parts.remove(0);
            }
            let mut v = concat(&join_spaces(&parts), "string concatenation");
            v.how = None;
            return v;
        }
        "printenv" | "env" | "export" | "set" | "declare"
            if args.is_empty()
                || prog == "printenv" && args.iter().all(|a| t(a).starts_with('-')) =>
        {
            if stdin.is_none() && prog != "printenv" && prog != "env" {
                return Val::default();
            }
            return calls::whole_env(ctx, line);
        }
        "printenv" => {
            return calls::env_var(ctx, t(&args[0]), line);
        }
        "security"
            if has(&[
                "find-generic-password",
                "find-internet-password",
                "dump-keychain",
                "export",
            ]) =>
        {
            return ctx.source(
                Val::default(),
                Cap::SecretRead,
                Label::Secret,
                line,
                "reads the keychain (security)".into(),
            );
        }
        "gcloud" | "gh" | "aws" | "az" | "op" | "vault" | "pass" | "bw" | "secret-tool"
        | "kubectl"
            if has(&[
                "print-access-token",
                "token",
                "export-credentials",
                "get-secret-value",
                "get-access-token",
                "read",
                "lookup",
                "show",
            ]) && !has(&["--help"])
                && (prog != "kubectl" || has(&["secret", "secrets"])) =>
        {
            return ctx.source(
                Val::default(),
                Cap::SecretRead,
                Label::Secret,
                line,
                format!("reads credentials with {prog}"),
            );
        }
        "nc" | "ncat" | "netcat" | "socat" | "telnet" | "openssl"
            if prog != "openssl" || has(&["s_client"]) =>
        {
            if has(&["-e", "-c", "--exec", "--sh-exec"])
                || words
                    .iter()
                    .any(|w| w.starts_with("exec:") || w.starts_with("EXEC:") || w.contains("pty"))
            {
                ctx.fact(
                    Cap::ReverseShell,
                    line,
                    format!("wires a shell to a network connection with {prog}"),
                    "",
                );
                return Val::default();
            }
            if has(&["-l", "-lp", "-lvp", "-nlvp", "-lnvp"]) {
                return Val::default();
            }
            if let Some(d) = &stdin {
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("sends {} with {prog} to {}", labels(&[d]), words.join(" ")),
                    "",
                    &[d],
                );
            }
            return Val::default().taint(Label::Downloaded, None);
        }
        "scp" | "rsync" | "sftp" => {
            let mut skip_next = false;
            let mut data: Vec<Val> = Vec::new();
            let mut dest = None;
            for (i, a) in args.iter().enumerate() {
                let w = t(a);
                if skip_next {
                    skip_next = false;
                    continue;
                }
                if matches!(
                    w,
                    "-i" | "-P" | "-p" | "-o" | "-e" | "-F" | "-c" | "-l" | "-S"
                ) {
                    skip_next = true;
                    continue;
                }
                if w.starts_with('-') {
                    continue;
                }
                let remote = w
                    .split_once(':')
                    .is_some_and(|(h, _)| !h.is_empty() && !h.contains('/'));
                if remote && i == args.len() - 1 {
                    dest = Some(w.to_string());
                } else if !remote {
                    data.push(ctx.read_path(w, line));
                }
            }
            if let Some(d) = dest {
                let refs: Vec<&Val> = data.iter().collect();
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("copies {} to {d} with {prog}", labels(&refs)),
                    "",
                    &refs,
                );
            }
            return Val::default();
        }
        "sendmail" | "mail" | "mailx" | "mutt" | "msmtp" | "ssmtp" => {
            let d = stdin_v.clone();
            ctx.sink(
                Cap::Egress,
                Sink::Network,
                line,
                format!("mails {}", labels(&[&d])),
                "",
                &[&d],
            );
            return Val::default();
        }
        "dig" | "nslookup" | "host" | "drill" | "ping" => {
            if let Some(a) = args
                .iter()
                .find(|a| !t(a).starts_with('-') && !t(a).starts_with('@'))
                && (a.text.is_none() || !a.taints.is_empty())
            {
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("looks up a DNS name built from {}", labels(&[a])),
                    "",
                    &[a],
                );
            }
            return Val::default();
        }
        "crontab" => {
            if !has(&["-l", "-r"]) || stdin.is_some() {
                ctx.fact(Cap::Persist, line, "installs a cron job".into(), "");
                // The job's command runs later: analyse it as shell now.
                if let Some(t) = stdin_v.text.as_deref() {
                    let code = eval::cron_commands(t);
                    ctx.nested(&code, Lang::Shell, line);
                }
            }
            return Val::default();
        }
        "sha256sum" | "sha512sum" | "sha1sum" | "shasum" | "b2sum" | "gpg" | "gpgv" | "cosign"
        | "minisign" | "signify"
            if has(&[
                "-c",
                "--check",
                "--verify",
                "verify-blob",
                "verify",
                "-V",
                "-C",
            ]) || prog == "gpgv" =>
        {
            let mut text = words.join(" ");
            text.push(' ');
            text.push_str(stdin_v.text.as_deref().unwrap_or(""));
            ctx.verified(&text);
            return Val::default();
        }
        "systemctl" | "launchctl" | "schtasks" | "reg" | "update-rc.d" | "chkconfig"
            if has(&["enable", "load", "bootstrap", "/create", "/Create", "add"])
                && (prog != "reg" || words.iter().any(|w| w.contains("\\Run"))) =>
        {
            ctx.fact(
                Cap::Persist,
                line,
                format!("installs a start-up entry with {prog}"),
                "",
            );
            return Val::default();
        }
        "tee" | "cp" | "mv" | "install" | "ln" | "dd" => {
            let data = if prog == "tee" {
                stdin_v.clone()
            } else {
                args.iter()
                    .filter(|a| !t(a).starts_with('-'))
                    .rev()
                    .nth(1)
                    .map(|a| ctx.read_path(t(a), line))
                    .unwrap_or_default()
            };
            if prog == "dd" {
                if let Some(of) = words.iter().find_map(|w| w.strip_prefix("of="))
                    && eval::destroy_path(of)
                {
                    ctx.fact(Cap::Destroy, line, format!("overwrites {of}"), "");
                }
                return Val::default();
            }
            let targets: Vec<&str> = if prog == "tee" {
                words
                    .iter()
                    .copied()
                    .filter(|w| !w.starts_with('-'))
                    .collect()
            } else {
                words
                    .iter()
                    .copied()
                    .rfind(|w| !w.starts_with('-'))
                    .into_iter()
                    .collect()
            };
            for p in targets {
                ctx.wrote_path(p, line, &data);
            }
            return if prog == "tee" {
                stdin_v
            } else {
                Val::default()
            };
        }
        "rm" | "shred" | "mkfs" | "wipefs" => {
            let recursive = prog != "rm"
                || words
                    .iter()
                    .any(|w| w.starts_with('-') && (w.contains('r') || w.contains('R')));
            for a in &args {
                let w = t(a);
                if !w.starts_with('-')
                    && recursive
                    && (eval::destroy_path(w) || prog != "rm" && w.starts_with("/dev/"))
                {
                    ctx.fact(
                        Cap::Destroy,
                        line,
                        format!("deletes {w} ({prog} {})", words.join(" ")),
                        "",
                    );
                }
            }
            return Val::default();
        }
        _ if prog.starts_with("mkfs") => {
            ctx.fact(Cap::Destroy, line, format!("formats a disk ({prog})"), "");
            return Val::default();
        }
        _ => {}
    }
    // Interpreters: `-c CODE`, a script file, or code on stdin.
    if let Some(lang) = eval::interpreter(&prog) {
        return interpreter(ctx, &prog, lang, &args, stdin, line);
    }
    // Readers: their output is the files they read.
    if matches!(
        prog.as_str(),
        "cat"
            | "tac"
            | "head"
            | "tail"
            | "less"
            | "more"
            | "tar"
            | "zip"
            | "7z"
            | "gzip"
            | "bzip2"
            | "xz"
            | "base64"
            | "xxd"
            | "od"
            | "hexdump"
            | "strings"
            | "sqlite3"
            | "grep"
            | "awk"
            | "sed"
            | "cut"
            | "sort"
            | "uniq"
            | "jq"
            | "gpg"
            | "openssl"
            | "find"
            | "ls"
            | "zstd"
            | "type"
            | "Get-Content"
    ) {
        let mut out = stdin_v.clone();
        let mut skip = false;
        for a in &args {
            let w = t(a);
            if skip {
                skip = false;
                continue;
            }
            if matches!(w, "-f" | "-C" | "-e") && prog != "tar" {
                skip = true;
                continue;
            }
            if w.starts_with('-')
                || w.is_empty()
                || (prog == "ls" || prog == "find") && eval::secret_path(w).is_none()
            {
                continue;
            }
            if prog == "find" || prog == "ls" {
                let v = ctx.read_path(w, line);
                out.add_taints(&v);
                continue;
            }
            let v = ctx.read_path(w, line);
            out.add_taints(&v);
        }
        // The archive written: `zip OUT files…`, `tar -czf OUT`, `tar czf OUT`.
        let archive = match prog.as_str() {
            "zip" | "7z" => words
                .iter()
                .filter(|w| !w.starts_with('-') && **w != "a")
                .copied()
                .next(),
            "tar" => words
                .iter()
                .position(|w| {
                    *w == "-f"
                        || *w == "--file"
                        || (w.starts_with('-') || words.first() == Some(w))
                            && !w.starts_with("--")
                            && w.ends_with('f')
                })
                .and_then(|i| words.get(i + 1))
                .copied(),
            _ => None,
        };
        if let Some(f) = archive.filter(|f| *f != "-") {
            ctx.wrote_path(f, line, &out);
        }
        out.text = None;
        out.how = None;
        return out;
    }
    // Any other program passes its input's taints through.
    let mut out = Val::mix(args.iter().chain(stdin.iter()));
    out.text = None;
    out.taints.retain(|tn| tn.label != Label::FileData);
    out
}

/// Words joined by spaces, for `eval a b` and `echo a b`.
fn join_spaces(args: &[Val]) -> Vec<Val> {
    let mut parts = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            parts.push(Val::lit(" "));
        }
        parts.push(a.clone());
    }
    parts
}

/// Runs a script file (`bash f`, `. f`, `source <(curl …)`).
fn script_file(ctx: &mut Ctx, f: &Val, lang: Lang, line: usize, how: &str) -> Val {
    let mut taints = f.all_taints();
    if let Some(p) = &f.text {
        taints.extend(ctx.file_taints(p));
    }
    let bad: Vec<_> = taints
        .into_iter()
        .filter(|tn| matches!(tn.label, Label::Downloaded | Label::Decoded))
        .collect();
    if !bad.is_empty() {
        let what = match &f.text {
            Some(p) => format!(
                "runs {p} (written from {}) with {how}",
                if bad.iter().any(|b| b.label == Label::Downloaded) {
                    "a download"
                } else {
                    "a decode"
                }
            ),
            None => format!("runs {} with {how}", labels(&[f])),
        };
        if let Some(s) = ctx.fact(Cap::DynamicExec, line, what, "") {
            for tn in bad {
                ctx.flow_from(tn, s, Sink::Exec);
            }
        }
    } else if f.text.is_none() {
        ctx.fact(
            Cap::DynamicExec,
            line,
            format!("runs a computed script with {how}"),
            "",
        );
    }
    let _ = lang;
    Val::default()
}

fn interpreter(
    ctx: &mut Ctx,
    prog: &str,
    lang: Lang,
    args: &[Val],
    stdin: Option<Val>,
    line: usize,
) -> Val {
    let words: Vec<&str> = args.iter().map(t).collect();
    if let Some(i) = words.iter().position(|w| {
        matches!(
            *w,
            "-c" | "-e" | "-p" | "--eval" | "-Command" | "-command" | "-C" | "-lc" | "-ic" | "-ce"
        )
    }) {
        let code = args.get(i + 1).cloned().unwrap_or_default();
        return calls::exec(ctx, &code, lang, line, &format!("{prog} {}", words[i]));
    }
    if let Some(i) = words.iter().position(|w| {
        w.eq_ignore_ascii_case("-EncodedCommand")
            || w.eq_ignore_ascii_case("-enc")
            || w.eq_ignore_ascii_case("-e") && lang == Lang::PowerShell
    }) {
        let payload = args
            .get(i + 1)
            .and_then(|a| a.text.clone())
            .unwrap_or_default();
        let src = ctx.fact(
            Cap::Decode,
            line,
            format!("runs a base64-encoded command with {prog}"),
            "",
        );
        ctx.derived(line, &payload, "argument of -EncodedCommand", true);
        let v = Val::default().taint(Label::Decoded, src);
        ctx.sink(
            Cap::DynamicExec,
            Sink::Exec,
            line,
            format!("runs an encoded command with {prog}"),
            "",
            &[&v],
        );
        return Val::default();
    }
    // The script: first word that is not a flag (a flag's value is skipped for `-m`, `-W`).
    let mut script = None;
    let mut skip = false;
    for a in args {
        let w = t(a);
        if skip {
            skip = false;
            continue;
        }
        if matches!(w, "-m" | "-W" | "-X" | "-o" | "-O" | "--norc" | "--rcfile") {
            skip = w != "--norc";
            if w == "-m" {
                break;
            }
            continue;
        }
        if w == "-" || w == "-s" || w == "--" {
            break;
        }
        if w.starts_with('-') && a.text.is_some() {
            continue;
        }
        script = Some(a);
        break;
    }
    if let Some(f) = script {
        if lang == Lang::Shell || f.text.is_none() || !ctx.file_taints(t(f)).is_empty() {
            let v = script_file(ctx, f, lang, line, prog);
            if lang == Lang::Shell && !words.contains(&"-i") {
                return v;
            }
        }
        if words.contains(&"-i") && lang == Lang::Shell {
            ctx.shell_wire_line = Some(line);
        }
        return Val::default();
    }
    match stdin {
        Some(code) => {
            let how = format!("{prog} reading its code from a pipe");
            if let Some(text) = code
                .text
                .clone()
                .filter(|_| code.how.is_none() && code.taints.is_empty())
            {
                // A here-doc or echo of fixed code: analyse it as its own script.
                ctx.nested(&text, lang, line);
                ctx.fact(
                    Cap::Spawn,
                    line,
                    format!("starts {prog} with fixed code on its input"),
                    "",
                );
            } else {
                let what = format!(
                    "pipes {} into {prog}",
                    labels(&[&code]).replace("data", "content")
                );
                ctx.derived_val(line, &code, true);
                ctx.sink(
                    Cap::DynamicExec,
                    Sink::Exec,
                    line,
                    what,
                    code.how.unwrap_or(""),
                    &[&code],
                );
            }
            let _ = how;
            Val::default()
        }
        None => {
            if words.contains(&"-i") {
                ctx.shell_wire_line = Some(line);
            }
            ctx.fact(Cap::Spawn, line, format!("starts {prog}"), "");
            Val::default()
        }
    }
}

/// `curl`/`wget`: a fetch, an upload, or both.
fn curl(ctx: &mut Ctx, prog: &str, args: &[Val], stdin: Option<Val>, line: usize) -> Val {
    let mut url = None;
    let mut data: Vec<Val> = Vec::new();
    let mut out_file = None;
    let mut method = None;
    let mut i = 0;
    let takes_value = |w: &str| {
        matches!(
            w,
            "-H" | "--header"
                | "-o"
                | "--output"
                | "-O"
                | "-X"
                | "--request"
                | "-d"
                | "--data"
                | "--data-binary"
                | "--data-raw"
                | "--data-urlencode"
                | "--json"
                | "-F"
                | "--form"
                | "-T"
                | "--upload-file"
                | "-u"
                | "--user"
                | "-A"
                | "--user-agent"
                | "-e"
                | "--referer"
                | "-b"
                | "--cookie"
                | "-c"
                | "--cookie-jar"
                | "--connect-timeout"
                | "-m"
                | "--max-time"
                | "--retry"
                | "-w"
                | "--write-out"
                | "--post-data"
                | "--post-file"
                | "--body-data"
                | "--body-file"
                | "--header="
                | "-P"
                | "--cacert"
                | "--cert"
                | "--key"
                | "-x"
                | "--proxy"
                | "--method"
                | "-U"
                | "--output-document"
                | "--resolve"
                | "--limit-rate"
        )
    };
    while i < args.len() {
        let w = t(&args[i]).to_string();
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (w.clone(), None),
        };
        let val = |i: usize| -> Option<Val> {
            match &inline {
                Some(v) => Some(Val {
                    text: Some(v.clone()),
                    taints: args[i].taints.clone(),
                    ..Val::default()
                }),
                None => args.get(i + 1).cloned(),
            }
        };
        let short_o =
            prog == "wget" && (flag == "-qO" || flag == "-O" || flag == "-qO-" || flag == "-O-");
        if flag.starts_with('-') && (takes_value(&flag) || short_o) {
            let v = if flag.ends_with("O-") {
                Some(Val::lit("-"))
            } else {
                val(i)
            };
            let v = v.unwrap_or_default();
            match flag.as_str() {
                "-d" | "--data" | "--data-binary" | "--data-raw" | "--data-urlencode"
                | "--json" | "--post-data" | "--body-data" => {
                    data.push(data_arg(
                        ctx,
                        &v,
                        stdin.as_ref(),
                        line,
                        flag != "--data-raw",
                    ));
                }
                "-F" | "--form" => {
                    let tx = t(&v).to_string();
                    let file = tx
                        .split_once("=@")
                        .or_else(|| tx.split_once("=<"))
                        .map(|(_, f)| f.split(';').next().unwrap_or(f).to_string());
                    data.push(match file {
                        Some(f) => {
                            data_arg(ctx, &Val::lit(format!("@{f}")), stdin.as_ref(), line, true)
                        }
                        None => v.clone(),
                    });
                }
                "-T" | "--upload-file" | "--post-file" | "--body-file" => {
                    let f = t(&v).to_string();
                    data.push(if f == "-" {
                        stdin.clone().unwrap_or_default()
                    } else {
                        ctx.read_path(&f, line)
                    });
                    method.get_or_insert("PUT".to_string());
                }
                "-X" | "--request" | "--method" => method = Some(t(&v).to_ascii_uppercase()),
                "-o" | "--output" | "-O" | "--output-document" | "-qO" | "-qO-" | "-O-"
                    if !(prog == "curl" && flag == "-O") =>
                {
                    out_file = Some(t(&v).to_string());
                }
                _ => {}
            }
            if inline.is_none() && !flag.ends_with("O-") && !(prog == "curl" && flag == "-O") {
                i += 1;
            }
        } else if !flag.starts_with('-') && url.is_none() {
            url = Some(args[i].clone());
        }
        i += 1;
    }
    let url = url.unwrap_or_default();
    let sending = !data.is_empty()
        || method
            .as_deref()
            .is_some_and(|m| matches!(m, "POST" | "PUT" | "PATCH"));
    if sending {
        let refs: Vec<&Val> = data.iter().chain(std::iter::once(&url)).collect();
        let what = format!(
            "{}s {} to {}",
            method.as_deref().unwrap_or("POST"),
            labels(&refs[..refs.len() - 1]),
            describe(&url)
        );
        ctx.sink(
            Cap::Egress,
            Sink::Network,
            line,
            what,
            url.how.unwrap_or(""),
            &refs,
        );
        return Val::default().taint(Label::Downloaded, None);
    }
    if url.has(Label::Secret) || url.has(Label::SecretEnv) {
        ctx.sink(
            Cap::Egress,
            Sink::Network,
            line,
            format!(
                "sends {} in the address {}",
                labels(&[&url]),
                describe(&url)
            ),
            "",
            &[&url],
        );
    }
    let src = ctx.fact(
        Cap::Fetch,
        line,
        format!("downloads {}", describe(&url)),
        url.how.unwrap_or(""),
    );
    let body = Val::default().taint(Label::Downloaded, src);
    match out_file.as_deref() {
        Some("-") | None if prog == "curl" || out_file.is_some() => body,
        Some(f) => {
            ctx.wrote_path(f, line, &body);
            Val::default()
        }
        None => {
            // wget without -O saves under the URL's last segment.
            if let Some(name) = url
                .text
                .as_deref()
                .and_then(|u| u.rsplit('/').next())
                .filter(|n| !n.is_empty())
            {
                ctx.wrote_path(name, line, &body);
            }
            Val::default()
        }
    }
}

/// A `-d` value: `@file` reads the file, `@-` is stdin.
fn data_arg(ctx: &mut Ctx, v: &Val, stdin: Option<&Val>, line: usize, at_file: bool) -> Val {
    match v
        .text
        .as_deref()
        .and_then(|s| s.strip_prefix('@'))
        .filter(|_| at_file)
    {
        Some("-") => stdin.cloned().unwrap_or_default(),
        Some(f) => ctx.read_path(f, line),
        None => v.clone(),
    }
}
