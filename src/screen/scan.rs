//! Screening one text file: the line rules in context (markdown prose,
//! fenced examples, scripts), hidden Unicode, HTML comments, and the
//! combinations a single line cannot show (download then run, credential
//! then network, socket then dup2).

use super::instruct;
use super::rules::lowered_regex;
use super::rules::{self, COMPILED, RULES};
use super::{Finding, Severity, unicode};
use crate::redact::Redactor;
use regex::bytes::Regex;
use std::sync::LazyLock;

/// How a file's lines are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// Markdown or plain prose: text that merely quotes an attack (see
    /// `instruct::quoted_lines`) may soften a finding from fail to warn.
    Doc,
    /// Scripts, configs and everything else: taken literally.
    Code,
}

/// One fenced block of a document, or a whole script: the unit of the
/// combination checks.
struct Block {
    /// (line number, line, ASCII-lowercased line)
    lines: Vec<(usize, String, String)>,
    caution: bool,
    /// Indexes into the file's findings made inside the block.
    findings: Vec<usize>,
}

static NETWORK: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:curl|wget|requests\.(?:post|put|get)|httpx\.(?:post|put)|urllib\.request|urlopen|fetch\s*\(|axios|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|nc|ncat|socat|http\.client|smtplib|scp|rsync|ftp|sendall)\b|\bhttps?://",
    )
});
static DOWNLOAD: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\bcurl\b[^\n|]*\s(?:-[a-zA-Z]*[oO]|--output|--remote-name)\b|\bwget\b[^|\n]*$|\burlretrieve\s*\(|\b(?:Invoke-WebRequest|iwr|curl|wget)\b[^\n]*\s-OutFile\b|\.DownloadFile\s*\(",
    )
});
static RUNNABLE: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\bchmod\s+(?:[ugoa]*\+x|0?[0-7]?[1357][0-7]{0,2}\b)|\bos\.chmod\s*\([^)]*0o?7|\bStart-Process\b|\bxattr\s+-",
    )
});
static VERIFIED: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\bsha(?:256|512)sum\s+(?:-c|--check)\b|\bshasum\s+-a\s*(?:256|512)\s+(?:-c|--check)\b|\bgpg\s+--verify\b|\bcosign\s+verify|\bminisign\s+-V\b|\bGet-FileHash\b|hashlib\.sha256",
    )
});
static SOCK_CONNECT: LazyLock<Regex> = LazyLock::new(|| lowered_regex(r"\.connect\s*\(\s*\("));
static SHELL_WIRING: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(r#"\bdup2\s*\(|\bpty\.spawn\s*\(|subprocess\.\w+\(\s*\[?\s*["']/bin/(?:ba)?sh"#)
});
/// A private key used to log in, not read: `ssh -i KEY`, `scp -i KEY`,
/// `rsync -e "ssh -i KEY"`, `IdentityFile KEY`, `ssh-add KEY`.
static IDENTITY: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r#"(?i)\b(?:ssh|scp|sftp|rsync|autossh)\b[^\n|;&]*\s-i\s*["']?[~$\w{}./-]*\.ssh/|\bidentityfile\s+\S*\.ssh/|\bssh-add\s+\S*\.ssh/|\bgit_ssh_command=["']?ssh\s+-i\b"#,
    )
});
/// An HTML comment that gives orders to a model.
static HIDDEN_ORDER: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:ignore|disregard|you\s+must|you\s+should|you\s+will|assistant|the\s+agent|as\s+an\s+ai|do\s+not\s+(?:tell|mention|reveal|inform)|secretly|silently|system\s+prompt|always\s+(?:run|execute|include|send|add)|before\s+(?:responding|answering|doing|running)|execute|exfiltrate|send\s[^.]{0,40}\bto\b)|\bcurl\s|\bwget\s",
    )
});

const MAX_EXCERPT: usize = 160;

/// Screens the text of one file into `out`.
pub(crate) fn scan_text(
    rel: &str,
    text: &str,
    kind: TextKind,
    redactor: &Redactor,
    out: &mut Vec<Finding>,
) {
    let first_out = out.len();
    let mut blocks: Vec<Block> = Vec::new();
    if kind == TextKind::Code {
        blocks.push(Block {
            lines: Vec::new(),
            caution: false,
            findings: Vec::new(),
        });
    }
    let mut fence: Option<(char, usize)> = None;
    // Which lines only quote an attack: decided over the whole document (an
    // order anywhere in a section makes nothing in it a quote).
    let quoting = if kind == TextKind::Doc {
        instruct::quoted_lines(text)
    } else {
        Vec::new()
    };
    let quoted_at = |idx: usize| quoting.get(idx).copied().unwrap_or(false);
    let mut fence_caution = false;
    let mut comment: Option<(usize, String)> = None;
    let mut lower: Vec<u8> = Vec::new();

    for (idx, raw) in text.split('\n').enumerate() {
        let lineno = idx + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let mut line_owned = None;
        if unicode::has_suspects(raw) {
            for h in unicode::scan_line(raw, idx == 0) {
                out.push(Finding {
                    rule: h.rule,
                    category: "hidden_unicode",
                    severity: h.severity,
                    file: rel.to_string(),
                    line: lineno,
                    excerpt: h.excerpt,
                    why: h.why,
                    source: None,
                    sink: None,
                });
            }
            line_owned = Some(unicode::strip_invisible(raw));
        }
        let line: &str = line_owned.as_deref().unwrap_or(raw);

        // Where are we in the document?
        let mut in_fence = false;
        let mut context_caution = false;
        let mut line_caution = false;
        if kind == TextKind::Doc {
            let trimmed = line.trim_start();
            if let Some(marker) = fence_marker(trimmed) {
                match fence {
                    Some((c, n))
                        if marker.0 == c
                            && marker.1 >= n
                            && trimmed.trim_end().chars().all(|x| x == c) =>
                    {
                        fence = None;
                    }
                    Some(_) => {}
                    None => {
                        fence = Some(marker);
                        fence_caution = quoted_at(idx + 1);
                        blocks.push(Block {
                            lines: Vec::new(),
                            caution: fence_caution,
                            findings: Vec::new(),
                        });
                    }
                }
                continue;
            }
            if fence.is_some() {
                in_fence = true;
                context_caution = fence_caution;
            } else {
                context_caution = quoted_at(idx);
                // The line's own words (URLs, domains, flags and code
                // removed) describe an attack and order nothing.
                line_caution = instruct::describes(line) && !instruct::orders(line);
                track_comment(&mut comment, line, lineno, rel, redactor, out);
            }
        }

        let block = match kind {
            TextKind::Code => blocks.last_mut(),
            TextKind::Doc if in_fence => blocks.last_mut(),
            TextKind::Doc => None,
        };
        let mut block = block;
        if let Some(b) = block.as_deref_mut() {
            b.lines
                .push((lineno, line.to_string(), line.to_ascii_lowercase()));
        }

        let compiled = &*COMPILED;
        lower.clear();
        lower.extend(line.bytes().map(|b| b.to_ascii_lowercase()));
        let hits = compiled.set.matches(&lower);
        if !hits.matched_any() {
            continue;
        }
        for i in hits.iter() {
            let rule = &RULES[i];
            let Some(m) = compiled.each(i).find(&lower) else {
                continue;
            };
            let matched = line.get(m.start()..m.end()).unwrap_or("");
            if let Some(check) = rule.check
                && !check(matched)
            {
                continue;
            }
            let mut severity = rule.severity;
            if severity == Severity::Warn
                && compiled
                    .escalate(i)
                    .is_some_and(|r| r.is_match(line.as_bytes()))
            {
                severity = Severity::Fail;
            }
            // Softening only ever takes fail to warn. A prose line softens
            // itself only when it describes an attack and quotes the match.
            if rule.official_installers && rules::only_official_urls(line) {
                severity = Severity::Info;
            }
            // A key handed to ssh/scp/rsync to log in is used, not read.
            if rule.category == rules::CRED && IDENTITY.is_match(lower.as_slice()) {
                severity = Severity::Info;
            }
            let softened = compiled
                .mitigate(i)
                .is_some_and(|r| r.is_match(line.as_bytes()))
                || (rules::looks_like_a_pattern(line, matched) && quoted(line, m.start(), m.end()))
                || (kind == TextKind::Doc
                    && (context_caution
                        || (!in_fence && line_caution && quoted(line, m.start(), m.end()))));
            if softened && severity == Severity::Fail {
                severity = Severity::Warn;
            }
            out.push(Finding {
                rule: rule.id,
                category: rule.category,
                severity,
                file: rel.to_string(),
                line: lineno,
                excerpt: excerpt(line, m.start(), redactor),
                why: rule.why,
                source: None,
                sink: None,
            });
            if let Some(b) = block.as_deref_mut() {
                b.findings.push(out.len() - 1);
            }
        }
    }
    if let Some((start, text)) = comment.take() {
        check_comment(start, &text, rel, redactor, out);
    }
    for b in &blocks {
        combinations(b, rel, redactor, out, first_out);
    }
}

/// A fence marker (three or more backticks or tildes) opening a line.
fn fence_marker(trimmed: &str) -> Option<(char, usize)> {
    let c = trimmed.chars().next()?;
    if c != '`' && c != '~' {
        return None;
    }
    let n = trimmed.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// True when the match sits inside quotes or backticks on its line.
fn quoted(line: &str, start: usize, end: usize) -> bool {
    // A match that swallowed its closing quote still sits inside it.
    let mut end = end.min(line.len());
    while end > start && line[..end].ends_with(['`', '"', '\'', '\u{201D}']) {
        end -= line[..end].chars().next_back().map_or(1, char::len_utf8);
    }
    let (before, after) = line.as_bytes().split_at(start.min(line.len()));
    let after = &after[(end - start).min(after.len())..];
    let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    [
        (&b"\""[..], &b"\""[..]),
        (b"`", b"`"),
        (b"'", b"'"),
        ("\u{201C}".as_bytes(), "\u{201D}".as_bytes()),
    ]
    .iter()
    .any(|(open, close)| has(before, open) && has(after, close))
}

/// Collects HTML comments outside fences, checking each when it closes.
fn track_comment(
    comment: &mut Option<(usize, String)>,
    line: &str,
    lineno: usize,
    rel: &str,
    redactor: &Redactor,
    out: &mut Vec<Finding>,
) {
    let mut rest = line;
    loop {
        match comment {
            Some((start, text)) => {
                if let Some(end) = rest.find("-->") {
                    text.push_str(&rest[..end]);
                    let (s, t) = (*start, std::mem::take(text));
                    *comment = None;
                    check_comment(s, &t, rel, redactor, out);
                    rest = &rest[end + 3..];
                } else {
                    text.push_str(rest);
                    text.push('\n');
                    return;
                }
            }
            None => match rest.find("<!--") {
                Some(open) => {
                    *comment = Some((lineno, String::new()));
                    rest = &rest[open + 4..];
                }
                None => return,
            },
        }
    }
}

fn check_comment(start: usize, text: &str, rel: &str, redactor: &Redactor, out: &mut Vec<Finding>) {
    if let Some(m) = HIDDEN_ORDER.find(text.to_ascii_lowercase().as_bytes()) {
        out.push(Finding {
            rule: "inject-html-comment",
            category: rules::INJECT,
            severity: Severity::Fail,
            file: rel.to_string(),
            line: start,
            excerpt: excerpt(&text.replace('\n', " "), m.start(), redactor),
            why: "An HTML comment is invisible in rendered markdown but read by the model: hidden instructions.",
            source: None,
            sink: None,
        });
    }
}

/// The checks that need more than one line of a block.
fn combinations(
    b: &Block,
    rel: &str,
    redactor: &Redactor,
    out: &mut Vec<Finding>,
    first_out: usize,
) {
    let soften = |s: Severity| {
        if b.caution && s == Severity::Fail {
            Severity::Warn
        } else {
            s
        }
    };
    let has_rule = |out: &Vec<Finding>, id: &str| {
        out[first_out..]
            .iter()
            .any(|f| f.rule == id && f.file == rel)
    };
    let find_line = |re: &Regex| {
        b.lines
            .iter()
            .find(|(_, _, lower)| re.is_match(lower.as_bytes()))
            .map(|(n, l, _)| (n, l))
    };

    // Credential access plus a network sink: exfiltration. A key handed to
    // ssh/scp/rsync to log in (`-i ~/.ssh/deploy_key`, `IdentityFile`) is
    // used, not sent: it does not feed.
    let used_as_identity = |line: usize| {
        b.lines
            .iter()
            .find(|(n, _, _)| *n == line)
            .is_some_and(|(_, _, lower)| IDENTITY.is_match(lower.as_bytes()))
    };
    let feeds = b.findings.iter().any(|&i| {
        RULES.iter().any(|r| r.id == out[i].rule && r.feeds_exfil) && !used_as_identity(out[i].line)
    });
    if feeds && let Some((n, l)) = find_line(&NETWORK) {
        out.push(Finding {
            rule: "exfil-credentials-to-network",
            category: rules::EXFIL,
            severity: soften(Severity::Fail),
            file: rel.to_string(),
            line: *n,
            excerpt: excerpt(l, 0, redactor),
            why: "Reads credentials and talks to the network in the same script or block.",
            source: None,
            sink: None,
        });
    }
    // Download, then make executable or run, without a checksum.
    if !has_rule(out, "rce-download-and-run")
        && find_line(&DOWNLOAD).is_some()
        && find_line(&VERIFIED).is_none()
        && let Some((n, l)) = find_line(&RUNNABLE)
    {
        out.push(Finding {
            rule: "rce-download-and-run",
            category: rules::RCE,
            severity: soften(Severity::Fail),
            file: rel.to_string(),
            line: *n,
            excerpt: excerpt(l, 0, redactor),
            why: "Downloads a program and makes it executable or runs it, with no checksum check.",
            source: None,
            sink: None,
        });
    }
    // A connected socket wired to a shell.
    if !has_rule(out, "revshell-scripted")
        && find_line(&SOCK_CONNECT).is_some()
        && let Some((n, l)) = find_line(&SHELL_WIRING)
    {
        out.push(Finding {
            rule: "revshell-scripted",
            category: rules::REVSHELL,
            severity: soften(Severity::Fail),
            file: rel.to_string(),
            line: *n,
            excerpt: excerpt(l, 0, redactor),
            why: "Connects a socket and wires a shell's input and output to it: a reverse shell.",
            source: None,
            sink: None,
        });
    }
}

/// The line around `at`, redacted, cut to about 160 characters.
pub(crate) fn excerpt(line: &str, at: usize, redactor: &Redactor) -> String {
    let line = line.trim();
    let at = at.min(line.len());
    let mut start = at.saturating_sub(40);
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    if line.len() <= MAX_EXCERPT {
        start = 0;
    }
    let mut end = (start + 400).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let window = redactor.redact(&line[start..end]);
    let mut cut: String = window.chars().take(MAX_EXCERPT).collect();
    if start > 0 {
        cut.insert(0, '…');
    }
    if window.chars().count() > MAX_EXCERPT || end < line.len() {
        cut.push('…');
    }
    cut
}
