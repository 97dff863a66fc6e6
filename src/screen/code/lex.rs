//! The lexer of `lexed.rs`: strings (with the variables they interpolate),
//! backtick / `qx` / `%x` commands, comments, variables (`$x`, `@x`,
//! `$env:X`), names (`URI.open`, `LWP::Simple::get`, `[Convert]::FromBase64String`,
//! PowerShell `-Param`s), punctuation and statement ends.

use super::Lang;

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// A string; `interp` lists variables it interpolates.
    Str {
        text: String,
        interp: Vec<String>,
    },
    /// A backtick / `qx` / `%x` command.
    Cmd(String),
    Var(String),
    Name(String),
    Punct(char),
    End,
}

/// The tokens of a script, each with its 0-based row.
pub(super) struct Lexed {
    pub toks: Vec<(Tok, usize)>,
}

/// Splits a Ruby, Perl or PowerShell script into tokens.
pub(super) fn lex(src: &str, lang: Lang) -> Lexed {
    let b: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut row) = (0usize, 0usize);
    let closing = |c: char| match c {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        o => o,
    };
    let read_until = |i: &mut usize, row: &mut usize, close: char, open: char| -> String {
        let mut s = String::new();
        let mut depth = 0;
        while *i < b.len() {
            let c = b[*i];
            if c == '\\' && *i + 1 < b.len() {
                s.push(c);
                s.push(b[*i + 1]);
                *i += 2;
                continue;
            }
            if c == '\n' {
                *row += 1;
            }
            if c == open && open != close {
                depth += 1;
            } else if c == close {
                if depth == 0 {
                    *i += 1;
                    break;
                }
                depth -= 1;
            }
            s.push(c);
            *i += 1;
        }
        s
    };
    while i < b.len() && toks.len() < 200_000 {
        let c = b[i];
        let line = row;
        match c {
            '\n' => {
                row += 1;
                i += 1;
                toks.push((Tok::End, line));
            }
            ';' => {
                i += 1;
                toks.push((Tok::End, line));
            }
            '#' if !(lang == Lang::PowerShell && b.get(i + 1) == Some(&'>')) => {
                if lang == Lang::PowerShell && i > 0 && b[i - 1] == '<' {
                    i += 1;
                    continue;
                }
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            '"' | '\'' | '`' => {
                i += 1;
                let raw = read_until(&mut i, &mut row, c, c);
                if c == '`' && lang != Lang::PowerShell {
                    toks.push((Tok::Cmd(raw), line));
                } else if c == '`' {
                    continue;
                } else {
                    toks.push((string_tok(&raw, c == '"', lang), line));
                }
            }
            '%' if lang == Lang::Ruby
                && matches!(b.get(i + 1), Some('x' | 'q' | 'Q' | 'w'))
                && b.get(i + 2).is_some_and(|d| "({[<|!/".contains(*d)) =>
            {
                let kind = b[i + 1];
                let open = b[i + 2];
                i += 3;
                let raw = read_until(&mut i, &mut row, closing(open), open);
                toks.push((
                    if kind == 'x' {
                        Tok::Cmd(raw)
                    } else {
                        string_tok(&raw, kind == 'Q', lang)
                    },
                    line,
                ));
            }
            'q' if lang == Lang::Perl
                && matches!(b.get(i + 1), Some('x' | 'q'))
                && b.get(i + 2).is_some_and(|d| "({[<|!/".contains(*d))
                && (i == 0 || !b[i - 1].is_alphanumeric()) =>
            {
                let kind = b[i + 1];
                let open = b[i + 2];
                i += 3;
                let raw = read_until(&mut i, &mut row, closing(open), open);
                toks.push((
                    if kind == 'x' {
                        Tok::Cmd(raw)
                    } else {
                        string_tok(&raw, false, lang)
                    },
                    line,
                ));
            }
            '$' | '@' | '%'
                if b.get(i + 1).is_some_and(|d| {
                    d.is_alphanumeric() || *d == '_' || *d == '{' && lang == Lang::PowerShell
                }) =>
            {
                i += 1;
                let start = i;
                while i < b.len()
                    && (b[i].is_alphanumeric() || b[i] == '_' || b[i] == ':' && lang != Lang::Perl)
                {
                    i += 1;
                }
                let name: String = b[start..i].iter().collect();
                let name = if c == '%' && lang != Lang::Perl {
                    continue;
                } else {
                    name
                };
                toks.push((Tok::Var(name), line));
            }
            c if c.is_alphabetic()
                || c == '_'
                || (c == '.' || c == '/') && b.get(i + 1) == Some(&'/')
                || c == '.' && b.get(i + 1) == Some(&'\\')
                || (c == '['
                    && lang == Lang::PowerShell
                    && b[i + 1..]
                        .iter()
                        .take(60)
                        .collect::<String>()
                        .contains("]::")) =>
            {
                let start = i;
                if c == '[' {
                    while i < b.len() && b[i] != ']' {
                        i += 1;
                    }
                    i += 3;
                }
                while i < b.len()
                    && (b[i].is_alphanumeric()
                        || "_-./\\:".contains(b[i])
                        || lang == Lang::Perl && b[i] == '>' && b[i - 1] == '-')
                {
                    if b[i] == '.'
                        && lang != Lang::PowerShell
                        && !(b.get(i + 1).is_some_and(|d| d.is_alphabetic()))
                    {
                        break;
                    }
                    if b[i] == '.' && lang == Lang::Perl {
                        break;
                    }
                    if b[i] == '-' && lang != Lang::PowerShell && b.get(i + 1) != Some(&'>') {
                        break;
                    }
                    if b[i] == ':'
                        && b.get(i + 1) != Some(&':')
                        && b.get(i.wrapping_sub(1)) != Some(&':')
                        && !(lang == Lang::PowerShell && b.get(i + 1) == Some(&'/'))
                    {
                        break;
                    }
                    i += 1;
                }
                let name: String = b[start..i]
                    .iter()
                    .collect::<String>()
                    .replace("]::", ".")
                    .trim_start_matches('[')
                    .to_string();
                toks.push((Tok::Name(name), line));
            }
            c if c.is_ascii_digit() => {
                let start = i;
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                toks.push((
                    Tok::Str {
                        text: b[start..i].iter().collect(),
                        interp: Vec::new(),
                    },
                    line,
                ));
            }
            '-' if lang == Lang::PowerShell && b.get(i + 1).is_some_and(|d| d.is_alphabetic()) => {
                let start = i;
                i += 1;
                while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                    i += 1;
                }
                toks.push((Tok::Name(b[start..i].iter().collect()), line));
            }
            ' ' | '\t' | '\r' => i += 1,
            other => {
                toks.push((Tok::Punct(other), line));
                i += 1;
            }
        }
    }
    toks.push((Tok::End, row));
    Lexed { toks }
}

fn string_tok(raw: &str, interpolating: bool, lang: Lang) -> Tok {
    let mut interp = Vec::new();
    let mut text = raw
        .replace("\\n", "\n")
        .replace("\\\"", "\"")
        .replace("\\'", "'");
    if interpolating {
        let b: Vec<char> = raw.chars().collect();
        let mut i = 0;
        while i < b.len() {
            let start_var =
                b[i] == '$' && lang != Lang::Ruby || b[i] == '#' && b.get(i + 1) == Some(&'{');
            if start_var {
                i += if b[i] == '#' { 2 } else { 1 };
                let s = i;
                while i < b.len()
                    && (b[i].is_alphanumeric()
                        || b[i] == '_'
                        || b[i] == ':'
                        || b[i] == '{'
                        || b[i] == '@')
                {
                    i += 1;
                }
                let name: String = b[s..i]
                    .iter()
                    .filter(|c| **c != '{' && **c != '@')
                    .collect();
                if !name.is_empty() {
                    interp.push(name.trim_start_matches('$').to_string());
                }
            }
            i += 1;
        }
        if !interp.is_empty() {
            text = raw.to_string();
        }
    }
    Tok::Str { text, interp }
}
