//! Static screening of a skill folder: what its code and instructions *do*.
//! Knows no tool.
//!
//! Every file is read once (`hash.rs`: the walk and the content hash) and
//! goes two ways:
//! - the **line rules** (`rules.rs`, applied in context by `scan.rs`; hidden
//!   Unicode in `unicode.rs`) for shapes a single line shows;
//! - the **behaviour pipeline** (`engine.rs`): text normalised and encoded
//!   payloads decoded (`decode/`), scripts and code blocks parsed and
//!   evaluated (`code/`), instructions read as actions (`instruct/`), all
//!   into the model of `facts.rs` (capabilities and flows), judged against
//!   the skill's name and description (`judge.rs`), official installers
//!   excepted (`allow.rs`).
//!
//! `deep.rs` is the optional model review (`screen --deep`), which can only
//! raise a verdict. docs/SCREENING.md explains the whole engine.

mod allow;
mod code;
pub(crate) mod decode;
pub mod deep;
mod engine;
mod facts;
mod hash;
mod instruct;
mod judge;
mod rules;
mod scan;
mod unicode;
mod urls;

#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::redact::Redactor;
use hash::EntryKind;
use scan::TextKind;
use std::path::Path;

/// The outcome of a screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Pass,
    Warn,
    Fail,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
        }
    }
}

/// How bad one finding is: `Warn` findings make the verdict `warn`, `Fail`
/// findings make it `fail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Info,
    Warn,
    Fail,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Fail => "fail",
        }
    }
}

/// One rule that matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Stable rule id (`rce-pipe-to-shell`).
    pub rule: &'static str,
    /// One of the categories (`remote_code_execution`, `credential_access`, …).
    pub category: &'static str,
    pub severity: Severity,
    /// Path relative to the skill folder, `/`-separated.
    pub file: String,
    /// 1-based line (0 for a whole-file finding such as a binary).
    pub line: usize,
    /// The matched text, redacted and cut to ~160 characters.
    pub excerpt: String,
    /// Why it matters, one sentence.
    pub why: &'static str,
    /// For a flow: where the data (or code) comes from.
    pub source: Option<Loc>,
    /// For a flow: where it goes (a network call, an execution).
    pub sink: Option<Loc>,
}

/// One end of a flow.
#[derive(Debug, Clone, PartialEq)]
pub struct Loc {
    pub file: String,
    pub line: usize,
    /// The text there, redacted and cut like a finding's.
    pub excerpt: String,
}

/// A screen of one skill folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Screen {
    pub verdict: Verdict,
    /// `sha256:<hex>` over every file's relative path, mode and bytes (see `content_hash`).
    pub content_hash: String,
    pub findings: Vec<Finding>,
}

/// Screens every file below `dir` (symlinks are findings, never followed).
///
/// Each file is read once, hashed, screened line by line and analysed for
/// behaviour, then dropped: a screen holds facts, not the skill's bytes.
pub fn screen_dir(dir: &Path, redactor: &Redactor) -> Result<Screen> {
    let entries = hash::walk(dir)?;
    let skill_md = match entries.iter().find(|e| e.rel == "SKILL.md") {
        Some(e) => hash::read_file(e)?
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default(),
        None => String::new(),
    };
    let explained = |rel: &str| {
        let base = rel.rsplit('/').next().unwrap_or(rel);
        skill_md.contains(rel) || skill_md.contains(base)
    };

    let mut findings = Vec::new();
    for e in &entries {
        match &e.kind {
            EntryKind::Symlink { target } => findings.push(Finding {
                rule: "file-symlink",
                category: UNSAFE_FILE,
                severity: Severity::Fail,
                file: e.rel.clone(),
                line: 0,
                excerpt: scan::excerpt(&format!("-> {target}"), 0, redactor),
                why: "A symlink can point anywhere on the installing machine; skills ship real files.",
                source: None,
                sink: None,
            }),
            EntryKind::Special => findings.push(Finding {
                rule: "file-special",
                category: UNSAFE_FILE,
                severity: Severity::Fail,
                file: e.rel.clone(),
                line: 0,
                excerpt: String::new(),
                why: "A FIFO, socket or device file has no place in a skill.",
                source: None,
                sink: None,
            }),
            EntryKind::File { .. } => {}
        }
    }
    let mut behaviour = engine::Behaviour::new(redactor);
    let content_hash = hash::hash_entries(&entries, |e| {
        let body = hash::read_file(e)?;
        if let (EntryKind::File { executable }, Some(bytes)) = (&e.kind, &body) {
            let explained = explained(&e.rel);
            screen_file(
                &e.rel,
                bytes,
                *executable,
                explained,
                redactor,
                &mut findings,
                &mut behaviour,
            );
        }
        Ok(body)
    })?;
    let judged = behaviour.finish(&skill_md, &mut findings);
    findings.extend(judged);
    if !skill_md.is_empty() {
        tool_grants(&skill_md, &mut findings);
    }
    Ok(settle(findings, content_hash))
}

/// Sorted, one finding per rule and line, and one per category and line
/// (the worst; a flow, which cites both ends, before a plain rule).
fn settle(mut findings: Vec<Finding>, content_hash: String) -> Screen {
    findings.sort_by(|a, b| {
        (&a.file, a.line, a.category)
            .cmp(&(&b.file, b.line, b.category))
            .then(b.severity.cmp(&a.severity))
            .then(b.sink.is_some().cmp(&a.sink.is_some()))
    });
    findings.dedup_by(|a, b| a.file == b.file && a.line == b.line && a.category == b.category);
    Screen {
        verdict: verdict_of(&findings),
        content_hash,
        findings,
    }
}

/// Screens one text an agent will later follow that is not a skill folder —
/// a preference or knowledge proposal at apply time, persona text — as if it
/// were a skill's `SKILL.md` named `rel`. The content hash is over the text.
pub fn screen_text(rel: &str, text: &str, redactor: &Redactor) -> Screen {
    let mut findings = Vec::new();
    let mut behaviour = engine::Behaviour::new(redactor);
    screen_file(
        rel,
        text.as_bytes(),
        false,
        true,
        redactor,
        &mut findings,
        &mut behaviour,
    );
    let judged = behaviour.finish(text, &mut findings);
    findings.extend(judged);
    settle(findings, hash::text_hash(text))
}

/// The content hash of a skill folder: sha256 over, for every file in sorted
/// relative-path order, its path, its mode (executable or not) and its bytes.
/// A symlink contributes its target string, never what it points to.
pub fn content_hash(dir: &Path) -> Result<String> {
    let entries = hash::walk(dir)?;
    hash::hash_entries(&entries, hash::read_file)
}

const UNSAFE_FILE: &str = "unsafe_file";
const BINARY: &str = "unexplained_binary";

/// The worst severity of the findings; `Info` does not count.
fn verdict_of(findings: &[Finding]) -> Verdict {
    match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Fail) => Verdict::Fail,
        Some(Severity::Warn) => Verdict::Warn,
        _ => Verdict::Pass,
    }
}

fn screen_file(
    rel: &str,
    bytes: &[u8],
    executable: bool,
    explained: bool,
    redactor: &Redactor,
    out: &mut Vec<Finding>,
    behaviour: &mut engine::Behaviour,
) {
    let head = &bytes[..bytes.len().min(8192)];
    let native = native_format(bytes);
    let nul = head.contains(&0);
    // A NUL does not make a script binary: a shell or an interpreter still
    // runs the text around it. Text with NULs is screened as text (NULs
    // removed), and the NULs themselves are a finding.
    let textual = nul
        && native.is_none()
        && (runnable_name(rel, head) || (!inert_name(rel) && mostly_text(head)));
    let binary = native.is_some() || (nul && !textual);
    let whole_file = |rule, severity, excerpt: String, why| Finding {
        rule,
        category: BINARY,
        severity,
        file: rel.to_string(),
        line: 0,
        excerpt,
        why,
        source: None,
        sink: None,
    };
    if let Some(format) = native {
        out.push(if explained {
            whole_file("binary-native", Severity::Warn, format.to_string(), "A compiled program cannot be screened; the skill says what it is, so review it by hand.")
        } else {
            whole_file("binary-native-unexplained", Severity::Fail, format.to_string(), "A compiled program the skill never mentions: nobody can review what it does.")
        });
        return;
    }
    if binary {
        let ext = rel.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        if ext == "pyc" || ext == "pyo" {
            out.push(whole_file(
                "binary-bytecode",
                Severity::Warn,
                "compiled Python".into(),
                "Compiled bytecode runs without its source being reviewable.",
            ));
        } else if !explained {
            out.push(if inert_name(rel) {
                whole_file(
                    "binary-asset",
                    Severity::Info,
                    ext,
                    "An image, font or PDF the skill does not mention.",
                )
            } else {
                whole_file(
                    "binary-unexplained",
                    Severity::Warn,
                    format!("{} bytes", bytes.len()),
                    "A binary file the skill does not explain cannot be screened.",
                )
            });
        }
        return;
    }
    if textual {
        out.push(Finding {
            rule: "text-nul-bytes",
            category: "obfuscation",
            severity: Severity::Warn,
            file: rel.to_string(),
            line: 0,
            excerpt: format!("{} NUL byte(s)", bytes.iter().filter(|&&b| b == 0).count()),
            why: "NUL bytes in a text file make tools treat it as binary and skip it; it is screened as text.",
            source: None,
            sink: None,
        });
    }
    if executable && !explained {
        out.push(whole_file(
            "executable-unexplained",
            Severity::Warn,
            String::new(),
            "An executable file that SKILL.md never mentions.",
        ));
    }
    let stripped: Vec<u8>;
    let bytes = if textual {
        stripped = bytes.iter().copied().filter(|&b| b != 0).collect();
        &stripped[..]
    } else {
        bytes
    };
    let text = String::from_utf8_lossy(bytes);
    let kind = text_kind(rel, &text);
    scan::scan_text(rel, &text, kind, redactor, out);
    behaviour.file(engine::TextFile {
        rel,
        text: &text,
        kind,
    });
}

/// An image, font or PDF by its extension.
fn inert_name(rel: &str) -> bool {
    let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        ext.as_deref(),
        Some(
            "png"
                | "jpg"
                | "jpeg"
                | "gif"
                | "webp"
                | "ico"
                | "bmp"
                | "ttf"
                | "otf"
                | "woff"
                | "woff2"
                | "pdf"
        )
    )
}

/// A name or first line that says "a shell or an interpreter runs this".
fn runnable_name(rel: &str, head: &[u8]) -> bool {
    let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    head.starts_with(b"#!")
        || matches!(
            ext.as_deref(),
            Some(
                "sh" | "bash"
                    | "zsh"
                    | "ksh"
                    | "fish"
                    | "command"
                    | "py"
                    | "pyw"
                    | "js"
                    | "mjs"
                    | "cjs"
                    | "ts"
                    | "rb"
                    | "pl"
                    | "pm"
                    | "php"
                    | "ps1"
                    | "psm1"
                    | "bat"
                    | "cmd"
                    | "lua"
                    | "md"
                    | "txt"
                    | "json"
                    | "yaml"
                    | "yml"
                    | "toml"
            )
        )
}

/// At least 90 % of the bytes other than NUL are printable ASCII,
/// whitespace or part of a UTF-8 sequence: text with NULs sprinkled in.
fn mostly_text(head: &[u8]) -> bool {
    let rest: Vec<u8> = head.iter().copied().filter(|&b| b != 0).collect();
    if rest.is_empty() {
        return false;
    }
    let printable = String::from_utf8_lossy(&rest)
        .chars()
        .filter(|&c| c != '\u{FFFD}' && (!c.is_control() || matches!(c, '\n' | '\r' | '\t')))
        .count();
    let total = String::from_utf8_lossy(&rest).chars().count();
    printable * 10 >= total * 9
}

/// ELF, Mach-O or PE: a program, by its magic number.
fn native_format(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0x7f, b'E', b'L', b'F', ..] => Some("ELF executable"),
        [0xfe, 0xed, 0xfa, 0xce | 0xcf, ..] | [0xce | 0xcf, 0xfa, 0xed, 0xfe, ..] => {
            Some("Mach-O executable")
        }
        [0xca, 0xfe, 0xba, 0xbe, ..] if bytes.len() > 8 && bytes[7] < 0x20 => {
            Some("Mach-O universal executable")
        }
        [b'M', b'Z', ..] if bytes.len() > 0x40 => Some("PE (Windows) executable"),
        _ => None,
    }
}

fn text_kind(rel: &str, text: &str) -> TextKind {
    let ext = rel
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if text.starts_with("#!") {
        return TextKind::Code;
    }
    match ext.as_str() {
        "md" | "markdown" | "mdx" | "txt" | "rst" | "adoc" => TextKind::Doc,
        _ => TextKind::Code,
    }
}

/// `allowed-tools` in SKILL.md's front matter that grants everything.
fn tool_grants(skill_md: &str, out: &mut Vec<Finding>) {
    // The widest front matter a reader may see: the strict one where it
    // opens (a lenient ` ---` may close the loose one sooner, and a grant
    // after it is still in what lint, install and YAML loaders read), else
    // the loose one. An unclosed front matter runs to the end of the file.
    let Some(split) = crate::front::split(skill_md, crate::front::Fences::Strict)
        .or_else(|| crate::front::split(skill_md, crate::front::Fences::Loose))
    else {
        return;
    };
    let mut in_list = false;
    let found = out.len();
    for (n, line) in split.lines() {
        let t = line.trim();
        let value = if let Some(v) = t.strip_prefix("allowed-tools:") {
            in_list = true;
            v.trim().to_string()
        } else if in_list && t.starts_with('-') {
            t.trim_start_matches('-').trim().to_string()
        } else {
            in_list = false;
            continue;
        };
        grant(&split_tools(&value), n, out);
    }
    if out.len() == found {
        yaml_grants(&split, out);
    }
}

/// The `tools-broad-grant` finding at `line` when `tools` holds a broad one.
fn grant(tools: &[String], line: usize, out: &mut Vec<Finding>) {
    let broad: Vec<&str> = tools
        .iter()
        .map(String::as_str)
        .filter(|tool| is_broad(tool))
        .collect();
    if !broad.is_empty() {
        out.push(Finding {
            rule: "tools-broad-grant",
            category: "broad_tool_grants",
            severity: Severity::Warn,
            file: "SKILL.md".into(),
            line,
            excerpt: broad.join(" "),
            why: "allowed-tools pre-approves every command: the skill runs anything without asking.",
            source: None,
            sink: None,
        });
    }
}

/// `allowed-tools` as YAML reads it, for the spellings the line scan does
/// not see (a quoted key, a space before the colon, a block scalar, a
/// complex key, an alias): lint, install and agents' loaders read the
/// front matter so. Bounded before the parse (`Split::bound`: the parser is
/// slow on deep nesting); the parser's own limit stops alias expansion.
fn yaml_grants(split: &crate::front::Split<'_>, out: &mut Vec<Finding>) {
    use serde_norway::Value;
    // Only a front matter that can name the key is parsed: plainly, or
    // through a double-quoted escape (`"allowed\x2dtools"`).
    let front = split.front;
    let may_name = front.contains("allowed-tools") || (front.contains('"') && front.contains('\\'));
    if !may_name || split.bound().is_err() {
        return;
    }
    let Ok(Value::Mapping(map)) = serde_norway::from_str::<Value>(front) else {
        return;
    };
    let tools: Vec<String> = match map.get("allowed-tools") {
        Some(Value::String(s)) => split_tools(s),
        Some(Value::Sequence(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .flat_map(split_tools)
            .collect(),
        _ => return,
    };
    let line = split
        .lines()
        .find(|(_, l)| l.contains("allowed-tools"))
        .map_or(2, |(n, _)| n);
    grant(&tools, line, out);
}

/// Tools of an `allowed-tools` value: comma- or space-separated, brackets
/// and quotes stripped, parentheses kept whole.
fn split_tools(value: &str) -> Vec<String> {
    let value = value.trim().trim_start_matches('[').trim_end_matches(']');
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '(' => {
                depth += 1;
                cur.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                cur.push(c);
            }
            ',' | ' ' | '\t' if depth == 0 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '"' | '\'' => {}
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn is_broad(tool: &str) -> bool {
    let t = tool.trim().to_ascii_lowercase();
    if matches!(
        t.as_str(),
        "*" | "all" | "bash" | "shell" | "powershell" | "terminal" | "run_shell_command"
    ) {
        return true;
    }
    match t.split_once('(') {
        Some(("bash" | "shell" | "powershell" | "terminal" | "run_shell_command", arg)) => {
            let arg = arg.trim_end_matches(')').trim();
            matches!(arg, "*" | "*:*" | ":*" | "**" | "")
        }
        _ => false,
    }
}
