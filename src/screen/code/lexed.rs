//! Ruby, Perl and PowerShell, which have no grammar here (Ruby's costs a
//! 15 MB parser.c to build): a light lexer (strings, comments, variables,
//! names, backticks) and a small expression reader — calls with or without
//! parentheses, `.method`/`->method` chains, `+`/`.` concatenation,
//! assignment, PowerShell `-Name value` parameters — feeding `calls::apply`
//! like the grammar-backed walkers do.

use super::Lang;
use super::call::Call;
use super::calls;
use super::eval::{self, Ctx, Val, concat};
use super::lex::{Tok, lex};
use std::collections::HashMap;

struct Rd<'a> {
    toks: &'a [(Tok, usize)],
    pos: usize,
    lang: Lang,
    vars: HashMap<String, Val>,
}

/// Walks a Ruby, Perl or PowerShell script.
pub(super) fn walk(ctx: &mut Ctx, text: &str, lang: Lang) {
    let lexed = lex(text, lang);
    let mut rd = Rd {
        toks: &lexed.toks,
        pos: 0,
        lang,
        vars: HashMap::new(),
    };
    while rd.pos < rd.toks.len() {
        let before = rd.pos;
        statement(ctx, &mut rd);
        if rd.pos == before {
            rd.pos += 1;
        }
    }
}

impl Rd<'_> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map(|t| &t.0).unwrap_or(&Tok::End)
    }
    fn line(&self, ctx: &Ctx) -> usize {
        ctx.line(self.toks.get(self.pos).map(|t| t.1).unwrap_or(0))
    }
    fn punct(&self, c: char) -> bool {
        *self.peek() == Tok::Punct(c)
    }
}

fn statement(ctx: &mut Ctx, rd: &mut Rd) {
    // `$x = expr` / `x = expr` / `my $x = expr`.
    if let Tok::Name(n) = rd.peek()
        && matches!(n.as_str(), "my" | "our" | "local")
    {
        rd.pos += 1;
        if rd.punct('(') {
            rd.pos += 1;
        }
    }
    let is_assign = matches!(rd.peek(), Tok::Var(_) | Tok::Name(_))
        && rd
            .toks
            .get(rd.pos + 1)
            .is_some_and(|t| t.0 == Tok::Punct('='))
        && rd
            .toks
            .get(rd.pos + 2)
            .is_some_and(|t| t.0 != Tok::Punct('=') && t.0 != Tok::Punct('~'));
    if is_assign {
        let name = match rd.peek() {
            Tok::Var(n) | Tok::Name(n) => n.clone(),
            _ => String::new(),
        };
        rd.pos += 2;
        let line = rd.line(ctx);
        let v = expr(ctx, rd, 0);
        ctx.derived_val(line, &v, false);
        rd.vars.insert(name, v);
        return;
    }
    let v = expr(ctx, rd, 0);
    // PowerShell `… | iex`
    let mut cur = v;
    while rd.punct('|') {
        rd.pos += 1;
        if rd.punct('|') {
            rd.pos += 1;
            cur = expr(ctx, rd, 0);
            continue;
        }
        let line = rd.line(ctx);
        let next = expr_piped(ctx, rd, cur.clone(), line);
        cur = next;
    }
    if matches!(rd.peek(), Tok::End) {
        rd.pos += 1;
    }
}

fn expr_piped(ctx: &mut Ctx, rd: &mut Rd, input: Val, line: usize) -> Val {
    if let Tok::Name(n) = rd.peek().clone() {
        let lower = n.to_ascii_lowercase();
        if matches!(lower.as_str(), "iex" | "invoke-expression") {
            rd.pos += 1;
            return calls::exec(ctx, &input, rd.lang, line, &n);
        }
        if matches!(lower.as_str(), "out-file" | "set-content" | "add-content") {
            rd.pos += 1;
            let p = primary(ctx, rd, 0);
            if let Some(p) = p.text {
                ctx.wrote_path(&p, line, &input);
            }
            return Val::default();
        }
    }
    let v = expr(ctx, rd, 0);
    Val::mix([&input, &v])
}

fn expr(ctx: &mut Ctx, rd: &mut Rd, depth: usize) -> Val {
    if depth > eval::MAX_DEPTH || !ctx.tick() {
        return Val::default();
    }
    let mut v = postfix(ctx, rd, depth);
    loop {
        let concat_op = rd.punct('+') || rd.lang == Lang::Perl && rd.punct('.');
        if !concat_op {
            break;
        }
        rd.pos += 1;
        if rd.punct('=') {
            rd.pos += 1;
        }
        let r = postfix(ctx, rd, depth + 1);
        v = concat(&[v, r], "string concatenation");
    }
    v
}

fn postfix(ctx: &mut Ctx, rd: &mut Rd, depth: usize) -> Val {
    let mut v = primary(ctx, rd, depth);
    loop {
        let method = if rd.punct('.') {
            rd.pos += 1;
            match rd.peek().clone() {
                Tok::Name(m) => m,
                _ => break,
            }
        } else if let Tok::Name(m) = rd.peek().clone()
            && let Some(m) = m.strip_prefix('.').or_else(|| m.strip_prefix("->"))
        {
            m.to_string()
        } else if rd.punct('-')
            && rd
                .toks
                .get(rd.pos + 1)
                .is_some_and(|t| t.0 == Tok::Punct('>'))
        {
            rd.pos += 2;
            match rd.peek().clone() {
                Tok::Name(m) => m,
                _ => break,
            }
        } else {
            break;
        };
        let line = rd.line(ctx);
        rd.pos += 1;
        let (args, kw) = if rd.punct('(') {
            paren_args(ctx, rd, depth)
        } else {
            (Vec::new(), Vec::new())
        };
        let name = method.trim_start_matches('.').to_string();
        v = calls::apply(
            ctx,
            Call {
                name,
                recv: Some(v),
                args,
                kw,
                line,
                lang: rd.lang,
            },
        );
    }
    v
}

fn paren_args(ctx: &mut Ctx, rd: &mut Rd, depth: usize) -> (Vec<Val>, Vec<(String, Val)>) {
    rd.pos += 1;
    let mut args = Vec::new();
    let mut kw = Vec::new();
    while !rd.punct(')') && rd.pos < rd.toks.len() {
        if matches!(rd.peek(), Tok::End) {
            rd.pos += 1;
            continue;
        }
        if rd.punct(',') {
            rd.pos += 1;
            continue;
        }
        let before = rd.pos;
        let v = expr(ctx, rd, depth + 1);
        // Ruby `key: value`, Perl `key => value`.
        if rd.punct(':')
            || rd.punct('=')
                && rd
                    .toks
                    .get(rd.pos + 1)
                    .is_some_and(|t| t.0 == Tok::Punct('>'))
        {
            rd.pos += if rd.punct(':') { 1 } else { 2 };
            let val = expr(ctx, rd, depth + 1);
            kw.push((v.text.clone().unwrap_or_default().to_ascii_lowercase(), val));
        } else {
            args.push(v);
        }
        if rd.pos == before {
            rd.pos += 1;
        }
    }
    rd.pos += 1;
    (args, kw)
}

fn primary(ctx: &mut Ctx, rd: &mut Rd, depth: usize) -> Val {
    let line = rd.line(ctx);
    match rd.peek().clone() {
        Tok::Str { text, interp } => {
            rd.pos += 1;
            if interp.is_empty() {
                return Val::lit(text);
            }
            let vals: Vec<Val> = interp.iter().map(|n| var(ctx, rd, n, line)).collect();
            let mut v = Val::mix(vals.iter());
            // Interpolation of known values folds: `"$env:USERPROFILE\.aws"` is `~\.aws`.
            if vals.iter().all(|x| x.text.is_some()) {
                let mut t = text.clone();
                for (n, x) in interp.iter().zip(&vals) {
                    let x = x.text.as_deref().unwrap_or("");
                    for form in [format!("${{{n}}}"), format!("#{{{n}}}"), format!("${n}")] {
                        t = t.replace(&form, x);
                    }
                }
                v.text = Some(t);
            }
            v
        }
        Tok::Cmd(cmd) => {
            rd.pos += 1;
            let c = Val::lit(cmd);
            calls::exec(ctx, &c, Lang::Shell, line, "backticks")
        }
        Tok::Var(name) => {
            rd.pos += 1;
            // Perl `$ENV{KEY}`, Ruby-ish `ENV['KEY']` handled in Name.
            if name == "ENV" && rd.punct('{') {
                rd.pos += 1;
                let k = expr(ctx, rd, depth + 1);
                if rd.punct('}') {
                    rd.pos += 1;
                }
                return calls::env_var(ctx, k.text.as_deref().unwrap_or(""), line);
            }
            if name == "ENV" {
                return calls::whole_env(ctx, line);
            }
            var(ctx, rd, &name, line)
        }
        Tok::Punct('(') => {
            rd.pos += 1;
            let v = expr(ctx, rd, depth + 1);
            while !rd.punct(')') && !matches!(rd.peek(), Tok::End) && rd.pos < rd.toks.len() {
                rd.pos += 1;
            }
            if rd.punct(')') {
                rd.pos += 1;
            }
            v
        }
        Tok::Punct('{')
            if rd.pos > 0
                && matches!(
                    rd.toks[rd.pos - 1].0,
                    Tok::Punct('(' | ',' | '=' | '>' | '@')
                )
                && (rd.lang != Lang::PowerShell || rd.toks[rd.pos - 1].0 == Tok::Punct('@')) =>
        {
            // A hash literal `{ k => v }` / `@{ k = v }`: its values, as items.
            rd.pos += 1;
            let mut items = Vec::new();
            while !rd.punct('}') && rd.pos < rd.toks.len() {
                if rd.punct(',')
                    || rd.punct('=')
                    || rd.punct('>')
                    || rd.punct(':')
                    || matches!(rd.peek(), Tok::End)
                {
                    rd.pos += 1;
                    continue;
                }
                let before = rd.pos;
                items.push(expr(ctx, rd, depth + 1));
                if rd.pos == before {
                    rd.pos += 1;
                }
            }
            rd.pos += 1;
            Val {
                items: Some(items),
                ..Val::default()
            }
        }
        Tok::Punct('[') => {
            rd.pos += 1;
            let mut items = Vec::new();
            while !rd.punct(']') && rd.pos < rd.toks.len() {
                if rd.punct(',') || matches!(rd.peek(), Tok::End) {
                    rd.pos += 1;
                    continue;
                }
                let before = rd.pos;
                items.push(expr(ctx, rd, depth + 1));
                if rd.pos == before {
                    rd.pos += 1;
                }
            }
            rd.pos += 1;
            Val {
                items: Some(items),
                ..Val::default()
            }
        }
        Tok::Punct('&') if rd.lang == Lang::PowerShell => {
            rd.pos += 1;
            let v = primary(ctx, rd, depth + 1);
            if v.func.is_some() || v.text.is_none() {
                return calls::exec(ctx, &v, Lang::PowerShell, line, "&");
            }
            v
        }
        Tok::Name(name) => {
            rd.pos += 1;
            name_expr(ctx, rd, name, line, depth)
        }
        _ => {
            rd.pos += 1;
            Val::default()
        }
    }
}

fn var(ctx: &mut Ctx, rd: &Rd, name: &str, line: usize) -> Val {
    if let Some(v) = rd.vars.get(name) {
        return v.clone();
    }
    if let Some(k) = name
        .strip_prefix("env:")
        .or_else(|| name.strip_prefix("Env:"))
    {
        return calls::env_var(ctx, k, line);
    }
    Val::default()
}

fn name_expr(ctx: &mut Ctx, rd: &mut Rd, name: String, line: usize, depth: usize) -> Val {
    let lower = name.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "if" | "unless"
            | "while"
            | "until"
            | "do"
            | "end"
            | "then"
            | "else"
            | "elsif"
            | "def"
            | "sub"
            | "function"
            | "return"
            | "foreach"
            | "for"
            | "in"
            | "param"
            | "try"
            | "catch"
            | "begin"
            | "rescue"
            | "and"
            | "or"
            | "not"
            | "use"
            | "require"
            | "import"
            | "class"
            | "module"
            | "print"
            | "puts"
            | "say"
            | "write-host"
            | "write-output"
            | "echo"
    ) {
        if matches!(lower.as_str(), "use" | "require" | "import") {
            while !matches!(rd.peek(), Tok::End) && rd.pos < rd.toks.len() {
                rd.pos += 1;
            }
        }
        return Val::default();
    }
    if name == "ENV" && rd.punct('[') {
        rd.pos += 1;
        let k = expr(ctx, rd, depth + 1);
        if rd.punct(']') {
            rd.pos += 1;
        }
        return calls::env_var(ctx, k.text.as_deref().unwrap_or(""), line);
    }
    if let Some(v) = rd.vars.get(&name) {
        return v.clone();
    }
    // A script path run as a command (`./a.ps1`).
    if (name.starts_with("./") || name.starts_with(".\\") || name.starts_with('/'))
        && !ctx.file_taints(&name).is_empty()
    {
        let argv = vec![Val::lit(name)];
        return calls::exec_argv(ctx, &argv, line);
    }
    // PowerShell commands take bare arguments (`IEX (…)`); `[Type]::M(…)` and Ruby/Perl calls take parentheses.
    let paren = rd.punct('(') && (rd.lang != Lang::PowerShell || name.contains('.'));
    let (args, kw) = if paren {
        paren_args(ctx, rd, depth)
    } else {
        bare_args(ctx, rd, depth)
    };
    if args.is_empty()
        && kw.is_empty()
        && !lower.contains('.')
        && !lower.contains('-')
        && !lower.contains("::")
        && rd.lang != Lang::Perl
    {
        return Val {
            func: Some(name),
            text: None,
            ..Val::default()
        };
    }
    // PowerShell parameters spelled by position: `Invoke-WebRequest URL -OutFile f`.
    let name = if lower == "curl" || lower == "wget" {
        "iwr".to_string()
    } else {
        name
    };
    calls::apply(
        ctx,
        Call {
            name,
            recv: None,
            args,
            kw,
            line,
            lang: rd.lang,
        },
    )
}

/// Arguments without parentheses, to the end of the statement.
fn bare_args(ctx: &mut Ctx, rd: &mut Rd, depth: usize) -> (Vec<Val>, Vec<(String, Val)>) {
    let mut args = Vec::new();
    let mut kw = Vec::new();
    loop {
        match rd.peek().clone() {
            Tok::End
            | Tok::Punct(')' | '}' | '|' | ']' | '{' | '=' | '?' | '<' | '>' | '!' | '&') => break,
            Tok::Punct(',') => {
                rd.pos += 1;
            }
            Tok::Name(n) if rd.lang == Lang::PowerShell && n.starts_with('-') && n.len() > 1 => {
                rd.pos += 1;
                let key = n[1..].to_ascii_lowercase();
                let takes_value = !matches!(rd.peek(), Tok::End | Tok::Name(_) if matches!(rd.peek(), Tok::Name(m) if m.starts_with('-')));
                let v = if takes_value && !matches!(rd.peek(), Tok::End) {
                    ps_arg(ctx, rd, depth)
                } else {
                    Val::lit("true")
                };
                kw.push((key, v));
            }
            Tok::Name(_) if rd.lang == Lang::PowerShell => {
                let v = ps_arg(ctx, rd, depth);
                args.push(v);
            }
            Tok::Name(n) if matches!(n.as_str(), "if" | "unless" | "or" | "and" | "do") => break,
            _ => {
                let before = rd.pos;
                args.push(expr(ctx, rd, depth + 1));
                if rd.pos == before {
                    rd.pos += 1;
                }
            }
        }
    }
    (args, kw)
}

/// A PowerShell argument: a bare word is a string, anything else an expression.
fn ps_arg(ctx: &mut Ctx, rd: &mut Rd, depth: usize) -> Val {
    if let Tok::Name(n) = rd.peek().clone()
        && !rd
            .toks
            .get(rd.pos + 1)
            .is_some_and(|t| t.0 == Tok::Punct('.') || t.0 == Tok::Punct('('))
    {
        rd.pos += 1;
        return Val::lit(n);
    }
    postfix(ctx, rd, depth + 1)
}
