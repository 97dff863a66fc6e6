//! What a skill's code does: scripts and code blocks parsed with real
//! grammars (tree-sitter for shell, Python and JavaScript/TypeScript; a
//! light lexer for Ruby, Perl and PowerShell) and evaluated symbolically —
//! constant strings fold, data carries taint labels (secret, downloaded,
//! decoded) — into the behaviour model of `facts.rs`: capability facts,
//! source-to-sink flows, and derived strings for the decoders.
//!
//! Bounds: the first `MAX_PARSE` bytes of a file are analysed (the line
//! rules still see all of it), a parse stops after `PARSE_BUDGET`, the
//! evaluator's depth is capped at `eval::MAX_DEPTH`, and facts and derived
//! strings per file at `eval::MAX_FACTS` and `eval::MAX_DERIVED`. Parsers are
//! built per call, never in statics, so other verbs pay nothing.

mod call;
mod calls;
mod curl;
mod eval;
mod io;
mod lex;
mod lexed;
mod python;
mod shell;
mod shell_run;

#[cfg(test)]
mod tests;

use super::facts::Analysis;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Bytes of one file that are parsed and evaluated.
pub(crate) const MAX_PARSE: usize = 1024 * 1024;
/// Wall-clock budget of one parse.
const PARSE_BUDGET: Duration = Duration::from_millis(500);

/// A language the code model analyses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    Shell,
    Python,
    /// JavaScript and TypeScript (parsed with the JavaScript grammar).
    JavaScript,
    Ruby,
    Perl,
    PowerShell,
}

/// The language of a fence info string or an extension, if it is one we analyse.
fn lang_of_name(name: &str) -> Option<Lang> {
    match name.to_ascii_lowercase().as_str() {
        "sh" | "bash" | "zsh" | "console" | "shell" | "shell-session" | "shellsession" | "ksh"
        | "dash" | "command" | "terminal" => Some(Lang::Shell),
        "python" | "py" | "python3" | "py3" | "pyw" | "ipython" => Some(Lang::Python),
        "js" | "javascript" | "ts" | "typescript" | "node" | "mjs" | "cjs" | "jsx" | "tsx"
        | "mts" | "cts" => Some(Lang::JavaScript),
        "ruby" | "rb" => Some(Lang::Ruby),
        "perl" | "pl" | "pm" => Some(Lang::Perl),
        "powershell" | "ps1" | "pwsh" | "ps" | "psm1" | "posh" => Some(Lang::PowerShell),
        _ => None,
    }
}

/// The language of a file (extension, shebang, then a content sniff) or of a
/// markdown fence info string; None = not code we analyse.
pub(crate) fn lang_of_file(rel: &str, text: &str) -> Option<Lang> {
    let base = rel.rsplit('/').next().unwrap_or(rel);
    if let Some((_, ext)) = base.rsplit_once('.')
        && let Some(l) = lang_of_name(ext)
    {
        return Some(l);
    }
    if let Some(l) = shebang(text) {
        return Some(l);
    }
    let has_ext = base.contains('.');
    if has_ext && !base.ends_with(".txt") && !base.ends_with(".command") {
        return None;
    }
    sniff(text)
}

/// The language of a markdown fence: its info string, or a sniff of an untagged body.
pub(crate) fn lang_of_fence(info: &str, body: &str) -> Option<Lang> {
    let word = info
        .trim()
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .next()
        .unwrap_or("");
    if word.is_empty() {
        return shebang(body).or_else(|| sniff(body));
    }
    lang_of_name(word.trim_start_matches('.'))
}

fn shebang(text: &str) -> Option<Lang> {
    let first = text.lines().next()?.strip_prefix("#!")?;
    let mut words = first.split_whitespace();
    let mut prog = words.next()?;
    if prog.ends_with("/env") {
        prog = words.find(|w| !w.starts_with('-'))?;
    }
    eval::interpreter(prog)
}

/// A guess for untagged text: shell command lines, Python or JavaScript idioms.
fn sniff(text: &str) -> Option<Lang> {
    let head: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
    let t = head.trim_start();
    let starts = |p: &[&str]| {
        t.lines()
            .any(|l| p.iter().any(|x| l.trim_start().starts_with(x)))
    };
    if starts(&["import ", "from ", "def "])
        && (head.contains(':') || head.contains("import"))
        && !head.contains(" from '")
        && !head.contains(" from \"")
    {
        return Some(Lang::Python);
    }
    if starts(&[
        "const ",
        "let ",
        "var ",
        "require(",
        "function ",
        "async function",
        "module.exports",
        "import {",
    ]) || head.contains("=> {")
    {
        return Some(Lang::JavaScript);
    }
    if starts(&[
        "$ ", "curl ", "wget ", "sudo ", "apt ", "apt-get ", "brew ", "npm ", "pip ", "git ",
        "cd ", "export ", "echo ", "chmod ", "mkdir ", "bash ", "sh ", "rm ", "cat ", "python ",
        "python3 ", "node ", "base64 ", "nc ", "eval ", "source ",
    ]) {
        return Some(Lang::Shell);
    }
    if starts(&[
        "IEX",
        "iex ",
        "Invoke-",
        "$env:",
        "New-Object",
        "Set-ExecutionPolicy",
        "powershell",
    ]) {
        return Some(Lang::PowerShell);
    }
    None
}

/// Analyses one script or code block. `first_line` is the 1-based line in
/// `rel` where `text` starts (code blocks inside markdown). Every fact has
/// origin `Origin::Code` (the integrator re-labels code blocks).
pub(crate) fn analyze(rel: &str, text: &str, lang: Lang, first_line: usize) -> Analysis {
    let text = cut(text, MAX_PARSE);
    let mut ctx = eval::Ctx::new(rel, text, first_line.max(1));
    if lang == Lang::Shell && text.lines().any(|l| l.starts_with("$ ")) {
        // A console transcript: the commands are the prompted lines.
        let commands: String = text
            .lines()
            .map(|l| {
                l.strip_prefix("$ ")
                    .map_or_else(|| format!("# {l}\n"), |c| format!("{c}\n"))
            })
            .collect();
        walk(&mut ctx, &commands, lang);
    } else {
        walk(&mut ctx, text, lang);
    }
    ctx.finish()
}

/// Cuts `text` at a char boundary at most `max` bytes in.
fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Walks `text` in `lang` into `ctx` (also used for nested scripts).
fn walk(ctx: &mut eval::Ctx, text: &str, lang: Lang) {
    let text = cut(text, MAX_PARSE);
    match lang {
        Lang::Shell => shell::walk(ctx, text),
        Lang::Python | Lang::JavaScript => python::walk(ctx, text, lang),
        Lang::Ruby | Lang::Perl | Lang::PowerShell => lexed::walk(ctx, text, lang),
    }
}

/// Parses with the language's grammar, within the time budget.
fn parse(text: &str, lang: Lang) -> Option<tree_sitter::Tree> {
    let language: tree_sitter::Language = match lang {
        Lang::Shell => tree_sitter_bash::LANGUAGE.into(),
        Lang::Python => tree_sitter_python::LANGUAGE.into(),
        Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        _ => return None,
    };
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language).ok()?;
    let start = Instant::now();
    let mut progress = |_: &tree_sitter::ParseState| {
        if start.elapsed() > PARSE_BUDGET {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let bytes = text.as_bytes();
    parser.parse_with_options(
        &mut |i, _| bytes.get(i..).unwrap_or(&[]),
        None,
        Some(options),
    )
}
