//! The docs' examples as tests (issue #32): an equivalent of `trycmd` for
//! the ```` ```console ```` blocks of README.md and docs/.
//!
//! A block's lines starting with `$ ` are commands (a line ending in `\`
//! continues on the next, a here-document runs to its delimiter); the lines up to the next `$ ` are what the command
//! prints: its stdout, then its stderr. A last output line `? N` is the exit
//! status the command must end with; without it the command must succeed.
//! Expected lines may hold `[..]` (anything within the line), and a line
//! `...` stands for any number of lines.
//!
//! The commands of one file run in order in one sandbox: a fresh temp folder
//! that is the user's HOME (`/home/me` in the docs), with an empty project
//! folder `~/site` to start in, `agentbox` on PATH (at
//! `~/.cargo/bin/agentbox` in the docs), each through `sh -c` with the
//! folder the previous command `cd`-ed to and the previous command's exit
//! status as `$?` (so `$ echo $?` works). The environment is empty but for
//! HOME, PATH, TZ=UTC, NO_COLOR, `AGENTBOX_FORMAT=text` (what a terminal
//! gives; stdin and stdout are not terminals), `AGENTBOX_NOW` (default
//! [`DEFAULT_NOW`]) and `AGENTBOX_SEED` (`docs-N` for the file's N-th
//! command, `docs-setup-N` for its N-th setup, so that every process mints
//! its own ids, the same run after run).
//!
//! HTML comments before a block steer it (`<!-- docs-test: KIND ARGS -->`):
//! - `skip REASON`: the block is not run (say why: network, a host CLI);
//! - `env NAME=VALUE…`: sets variables for this block and every later one of
//!   the file (`AGENTBOX_NOW=…` moves the clock);
//! - `file PATH`: the block is not a console block but a file's contents,
//!   written to PATH (relative to the current folder) before the next block;
//! - `setup COMMANDS`: runs COMMANDS (the rest of the comment, which may span
//!   lines) before the block; they must succeed, their output is not shown.
//!
//! `AGENTBOX_DOCS=overwrite` rewrites each mismatching command's expected
//! output with what it printed, keeping the expected lines with `[..]` that
//! still match their line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The clock of a file until an `env` directive moves it.
pub const DEFAULT_NOW: &str = "2026-01-15T09:30:00Z";

/// The user's home as the docs show it.
pub const DOC_HOME: &str = "/home/me";

/// Where the docs show the executable.
pub const DOC_BIN: &str = "/home/me/.cargo/bin/agentbox";

/// Check the docs, or rewrite them where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Check,
    Overwrite,
}

/// A `<!-- docs-test: … -->` directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    Skip(String),
    Env(Vec<(String, String)>),
    File(String),
    Setup(String),
}

/// A fenced block of a markdown file.
#[derive(Debug, Clone)]
pub struct Block {
    /// The info string (`console`, `sh`…).
    pub lang: String,
    /// The line index of the opening fence.
    pub open: usize,
    /// The line index of the closing fence.
    pub close: usize,
    /// The spaces before the opening fence (a block in a list item is
    /// indented): taken off each of its lines, put back on rewritten ones.
    pub indent: usize,
    /// The directives written before it.
    pub directives: Vec<Directive>,
}

/// A markdown file's lines and fenced blocks.
#[derive(Debug)]
pub struct Doc {
    pub lines: Vec<String>,
    pub blocks: Vec<Block>,
}

/// Parses the fenced blocks (fences at the start of a line) and the
/// directives before each.
pub fn parse(text: &str) -> Result<Doc, String> {
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut blocks = Vec::new();
    let mut pending = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if let Some(rest) = line.trim_start().strip_prefix("<!-- docs-test:") {
            let mut body = rest.to_string();
            let start = i;
            while !body.contains("-->") {
                i += 1;
                let Some(next) = lines.get(i) else {
                    return Err(format!("line {}: unclosed docs-test comment", start + 1));
                };
                body.push('\n');
                body.push_str(next);
            }
            let body = body[..body.find("-->").unwrap()].trim().to_string();
            pending.push(directive(&body).map_err(|e| format!("line {}: {e}", start + 1))?);
        } else if let Some(info) = line.trim_start_matches(' ').strip_prefix("```") {
            let lang = info.trim().to_string();
            let indent = line.len() - line.trim_start_matches(' ').len();
            let open = i;
            i += 1;
            while i < lines.len() && lines[i].trim() != "```" {
                i += 1;
            }
            if i == lines.len() {
                return Err(format!("line {}: unclosed code block", open + 1));
            }
            blocks.push(Block {
                lang,
                open,
                close: i,
                indent,
                directives: std::mem::take(&mut pending),
            });
        }
        i += 1;
    }
    if !pending.is_empty() {
        return Err("a docs-test comment is followed by no code block".to_string());
    }
    Ok(Doc { lines, blocks })
}

fn directive(body: &str) -> Result<Directive, String> {
    let (kind, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    let rest = rest.trim();
    match kind {
        "skip" if !rest.is_empty() => Ok(Directive::Skip(rest.to_string())),
        "skip" => Err("a skip needs a reason".to_string()),
        "env" => rest
            .split_whitespace()
            .map(|pair| {
                pair.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| format!("env: {pair:?} is not NAME=VALUE"))
            })
            .collect::<Result<_, _>>()
            .map(Directive::Env),
        "file" if !rest.is_empty() => Ok(Directive::File(rest.to_string())),
        "setup" if !rest.is_empty() => Ok(Directive::Setup(rest.to_string())),
        _ => Err(format!("unknown docs-test directive {body:?}")),
    }
}

/// One `$ ` command of a console block and the output the doc shows.
#[derive(Debug, Clone)]
pub struct Example {
    /// The line index of its (first) `$ ` line.
    pub line: usize,
    /// The index just past its last expected line (before trailing blanks).
    pub end: usize,
    /// The command, continuation lines joined by newlines.
    pub command: String,
    /// The expected output lines (without the `? N` line).
    pub expected: Vec<String>,
    /// The exit status the doc shows (`? N`), 0 when it shows none.
    pub status: i32,
}

/// Line `i` of `block` without the block's indent.
pub fn body_line<'d>(doc: &'d Doc, block: &Block, i: usize) -> &'d str {
    let line = doc.lines[i].as_str();
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(block.indent)..]
}

/// The commands of the console block `block` of `doc`.
pub fn examples(doc: &Doc, block: &Block) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut i = block.open + 1;
    while i < block.close {
        let line = body_line(doc, block, i);
        if let Some(cmd) = line.strip_prefix("$ ") {
            let start = i;
            let mut command = cmd.to_string();
            while command.ends_with('\\') && i + 1 < block.close {
                i += 1;
                command.push('\n');
                command.push_str(body_line(doc, block, i));
            }
            // A here-document's lines, up to its delimiter, are the command's.
            if let Some(word) = heredoc_delimiter(&command) {
                while i + 1 < block.close {
                    i += 1;
                    command.push('\n');
                    command.push_str(body_line(doc, block, i));
                    if body_line(doc, block, i) == word {
                        break;
                    }
                }
            }
            out.push(Example {
                line: start,
                end: i + 1,
                command,
                expected: Vec::new(),
                status: 0,
            });
        } else if let Some(last) = out.last_mut() {
            last.expected.push(line.trim_end().to_string());
        }
        i += 1;
    }
    for ex in &mut out {
        while ex.expected.last().is_some_and(String::is_empty) {
            ex.expected.pop();
        }
        ex.end = ex.line + 1 + ex.command.matches('\n').count() + ex.expected.len();
        if let Some(status) = ex
            .expected
            .last()
            .and_then(|l| l.strip_prefix("? "))
            .and_then(|n| n.trim().parse().ok())
        {
            ex.status = status;
            ex.expected.pop();
        }
    }
    out
}

/// The delimiter of the here-document a command opens (`<<'END'`, `<<END`).
fn heredoc_delimiter(command: &str) -> Option<String> {
    let at = command.find("<<")?;
    let rest = command[at + 2..].trim_start_matches('-').trim_start();
    let word: String = rest
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// Whether `line` matches the expected `pattern` (`[..]`: anything).
pub fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let mut rest = line;
    for (k, part) in parts.iter().enumerate() {
        if k == 0 {
            let Some(r) = rest.strip_prefix(part) else {
                return false;
            };
            rest = r;
        } else if k == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else {
                return false;
            };
            rest = &rest[at + part.len()..];
        }
    }
    true
}

/// Whether the `actual` lines match the `expected` ones (`...`: any lines).
pub fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(first, a) && lines_match(rest, more)),
    }
}

/// The new expected lines: `actual`, with the expected lines holding `[..]`
/// kept where they match the actual line at the same place.
pub fn rewrite(expected: &[String], actual: &[String]) -> Vec<String> {
    if lines_match(expected, actual) {
        return expected.to_vec();
    }
    actual
        .iter()
        .enumerate()
        .map(|(k, a)| match expected.get(k) {
            Some(e) if e.contains("[..]") && line_matches(e, a) => e.clone(),
            _ => a.clone(),
        })
        .collect()
}

/// What running one file gave.
#[derive(Debug, Default)]
pub struct Report {
    /// One message per mismatching command.
    pub failures: Vec<String>,
    /// The skipped blocks: `file:line: reason`.
    pub skips: Vec<String>,
    /// The commands run.
    pub commands: usize,
    /// Whether overwrite mode rewrote the file.
    pub rewritten: bool,
}

/// Runs the console examples of the markdown file `path` with `bin` as
/// `agentbox`; in overwrite mode rewrites the file where they differ.
pub fn run_file(path: &Path, bin: &Path, mode: Mode) -> Report {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {name}: {e}"));
    let mut report = Report::default();
    let doc = match parse(&text) {
        Ok(doc) => doc,
        Err(e) => {
            report.failures.push(format!("{name}: {e}"));
            return report;
        }
    };
    let mut sandbox = Sandbox::new(bin);
    let mut env: BTreeMap<String, String> = BTreeMap::new();
    env.insert("AGENTBOX_NOW".into(), DEFAULT_NOW.into());
    // Rewrites: (first line, end line, new lines), in file order.
    let mut edits: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut pending_files: Vec<(String, String)> = Vec::new();
    let mut setups_run = 0;
    for block in &doc.blocks {
        let mut skip = None;
        let mut file = None;
        let mut setups = Vec::new();
        for d in &block.directives {
            match d {
                Directive::Skip(why) => skip = Some(why.clone()),
                Directive::Env(pairs) => env.extend(pairs.iter().cloned()),
                Directive::File(p) => file = Some(p.clone()),
                Directive::Setup(s) => setups.push(s.clone()),
            }
        }
        if let Some(why) = skip {
            if block.lang == "console" {
                report
                    .skips
                    .push(format!("{name}:{}: {why}", block.open + 1));
            }
            continue;
        }
        if let Some(p) = file {
            let body = (block.open + 1..block.close)
                .map(|i| body_line(&doc, block, i))
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
            pending_files.push((p, body));
            continue;
        }
        if block.lang != "console" && setups.is_empty() {
            continue;
        }
        for (p, body) in pending_files.drain(..) {
            let target = sandbox.cwd.join(&p);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).unwrap();
            }
            std::fs::write(&target, body).unwrap();
        }
        for script in &setups {
            setups_run += 1;
            let out = sandbox.run(script, &env, &format!("docs-setup-{setups_run}"));
            if out.status != 0 {
                report.failures.push(format!(
                    "{name}:{}: the setup before this block failed (exit {})\n  setup: {script}\n{}",
                    block.open + 1,
                    out.status,
                    indent(&out.lines)
                ));
            }
        }
        if block.lang != "console" {
            continue;
        }
        let block_examples = examples(&doc, block);
        if block_examples.is_empty() {
            // A console block nothing runs would pass whatever it shows.
            report.failures.push(format!(
                "{name}:{}: a console block without a `$ ` command (nothing of it runs): start each command with `$ `, or mark the block `text`",
                block.open + 1
            ));
        }
        for ex in block_examples {
            report.commands += 1;
            let out = sandbox.run(&ex.command, &env, &format!("docs-{}", report.commands));
            let matches = lines_match(&ex.expected, &out.lines) && out.status == ex.status;
            if matches {
                continue;
            }
            match mode {
                Mode::Check => {
                    let mut msg = format!(
                        "{name}:{}: `{}` printed other than the doc shows\n--- expected (exit {}):\n{}--- actual (exit {}):\n{}",
                        ex.line + 1,
                        ex.command,
                        ex.status,
                        indent(&ex.expected),
                        out.status,
                        indent(&out.lines)
                    );
                    if out.status != ex.status && ex.status == 0 {
                        let _ = writeln!(
                            msg,
                            "(a command that fails shows its status as a last line `? {}`)",
                            out.status
                        );
                    }
                    report.failures.push(msg);
                }
                Mode::Overwrite => {
                    let mut new = rewrite(&ex.expected, &out.lines);
                    if out.status != 0 {
                        new.push(format!("? {}", out.status));
                    }
                    let first = ex.line + 1 + ex.command.matches('\n').count();
                    let pad = " ".repeat(block.indent);
                    let new = new
                        .into_iter()
                        .map(|l| if l.is_empty() { l } else { format!("{pad}{l}") })
                        .collect();
                    edits.push((first, ex.end, new));
                }
            }
        }
    }
    if mode == Mode::Overwrite && !edits.is_empty() {
        let mut lines = doc.lines.clone();
        for (first, end, new) in edits.into_iter().rev() {
            lines.splice(first..end, new);
        }
        let mut out = lines.join("\n");
        if text.ends_with('\n') {
            out.push('\n');
        }
        std::fs::write(path, out).unwrap();
        report.rewritten = true;
    }
    report
}

fn indent(lines: &[String]) -> String {
    lines.iter().map(|l| format!("    {l}\n")).collect()
}

/// What a command printed, as the docs show it, and how it exited.
#[derive(Debug)]
pub struct Output {
    pub lines: Vec<String>,
    pub status: i32,
}

/// One file's sandbox: the user's home and the current folder.
#[derive(Debug)]
pub struct Sandbox {
    dir: tempfile::TempDir,
    /// The user's home (the temp folder, canonical).
    home: PathBuf,
    /// The folder the next command starts in.
    pub cwd: PathBuf,
    /// The executable the commands run (`agentbox` on PATH links to it).
    bin: PathBuf,
    /// The last command's exit status: the next one's `$?`.
    status: i32,
}

impl Sandbox {
    pub fn new(bin: &Path) -> Sandbox {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().canonicalize().unwrap();
        let bindir = home.join(".cargo/bin");
        std::fs::create_dir_all(&bindir).unwrap();
        std::os::unix::fs::symlink(bin, bindir.join("agentbox")).unwrap();
        let cwd = home.join("site");
        std::fs::create_dir_all(&cwd).unwrap();
        Sandbox {
            dir,
            home,
            cwd,
            bin: bin.canonicalize().unwrap(),
            status: 0,
        }
    }

    /// Runs `command` through `sh -c` in the current folder; remembers the
    /// folder it ends in. `seed` is its `AGENTBOX_SEED`, one per command.
    pub fn run(&mut self, command: &str, env: &BTreeMap<String, String>, seed: &str) -> Output {
        let cwd_file = self.dir.path().join(".docs-test-cwd");
        let script = format!(
            "cd '{}' || exit 99\n(exit {})\n{command}\n__docs_rc=$?\npwd > '{}'\nexit $__docs_rc\n",
            self.cwd.display(),
            self.status.clamp(0, 255),
            cwd_file.display()
        );
        let path = format!(
            "{}:/usr/local/bin:/usr/bin:/bin",
            self.home.join(".cargo/bin").display()
        );
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(script)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("TZ", "UTC")
            .env("LANG", "C.UTF-8")
            .env("NO_COLOR", "1")
            .env("AGENTBOX_FORMAT", "text")
            .env("AGENTBOX_SEED", seed)
            .envs(env)
            .current_dir(&self.home)
            .stdin(Stdio::null());
        let out = cmd.output().expect("run sh");
        if let Ok(cwd) = std::fs::read_to_string(&cwd_file) {
            self.cwd = PathBuf::from(cwd.trim_end_matches('\n'));
            let _ = std::fs::remove_file(&cwd_file);
        }
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        let text = text
            .replace(&self.bin.display().to_string(), DOC_BIN)
            .replace(&self.home.display().to_string(), DOC_HOME)
            .replace(&self.dir.path().display().to_string(), DOC_HOME);
        let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        self.status = out.status.code().unwrap_or(-1);
        Output {
            lines,
            status: self.status,
        }
    }
}

/// The markdown files whose examples run: README.md and docs/**/*.md.
pub fn doc_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The commands of `doc`'s console, sh and bash blocks (and a plain
/// block's `$ ` lines) that start with a bare tool name (`knowledge add …`): `command not found` when pasted.
pub fn bare_tool_calls(doc: &Doc, tools: &[&str]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for block in &doc.blocks {
        let shell = matches!(block.lang.as_str(), "sh" | "bash" | "shell");
        // A plain block's `$ ` lines are commands too (a transcript that
        // is not marked `console`).
        if !matches!(block.lang.as_str(), "console" | "") && !shell {
            continue;
        }
        for i in block.open + 1..block.close {
            let line = doc.lines[i].trim_start();
            let cmd = match line.strip_prefix("$ ") {
                Some(cmd) => cmd,
                None if shell => line,
                None => continue,
            };
            // Every command of a pipeline or a list, outside quotes and
            // comments.
            let cmd = unquoted(cmd);
            let cmd = cmd.split(" #").next().unwrap_or("");
            for part in cmd.split(['|', ';', '&', '(']) {
                let first = part.split_whitespace().next().unwrap_or("");
                if tools.contains(&first) {
                    out.push((i + 1, doc.lines[i].clone()));
                    break;
                }
            }
        }
    }
    out
}

/// `line` with its quoted strings emptied (`"…"`, `'…'`).
fn unquoted(line: &str) -> String {
    let mut out = String::new();
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None => out.push(c),
        }
    }
    out
}
