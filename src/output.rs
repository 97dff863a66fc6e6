//! The output layer: format and colour resolution, envelopes, text rendering,
//! and the frames of a protocol server (`Frames`, for memory_mcp). Nothing
//! else in the crate writes to stdout or stderr, and everything written here
//! passes through the redactor first.

use crate::error::{Error, ErrorType, Result};
use crate::redact::Redactor;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Set once stdout carries a protocol instead of envelopes (`memory_mcp`).
/// From then on a failure or an interrupt is reported on stderr only. A
/// process-wide flag because the SIGINT handler has to see it.
static STDOUT_CLAIMED: AtomicBool = AtomicBool::new(false);

/// Declares that stdout belongs to a protocol from now on.
pub fn claim_stdout() {
    STDOUT_CLAIMED.store(true, Ordering::SeqCst);
}

/// Gives stdout back to envelopes: a protocol tool's verb that turned out
/// not to speak the protocol on it (`memory_mcp token`, `--http`).
pub fn release_stdout() {
    STDOUT_CLAIMED.store(false, Ordering::SeqCst);
}

/// Whether stdout belongs to a protocol (see `claim_stdout`).
pub fn stdout_claimed() -> bool {
    STDOUT_CLAIMED.load(Ordering::SeqCst)
}

/// The `--format` choice before resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatChoice {
    Auto,
    Json,
    Text,
}

/// The resolved output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Text,
}

/// The `--color` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Resolves the format: flag > `AGENTBOX_FORMAT` > auto (text on a TTY without
/// `CI`, json otherwise). This is the only place that decides the format.
pub fn resolve_format(flag: Option<FormatChoice>) -> Result<Format> {
    let choice = match flag {
        Some(choice) => choice,
        None => match std::env::var("AGENTBOX_FORMAT") {
            Ok(value) if !value.is_empty() => parse_format_choice(&value).ok_or_else(|| {
                Error::invalid_args(format!("AGENTBOX_FORMAT has an unknown value '{value}'"))
                    .with_hint("set AGENTBOX_FORMAT to auto, json or text")
                    .with_detail("env", "AGENTBOX_FORMAT")
            })?,
            _ => FormatChoice::Auto,
        },
    };
    Ok(match choice {
        FormatChoice::Json => Format::Json,
        FormatChoice::Text => Format::Text,
        FormatChoice::Auto => {
            let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
            if !ci && io::stdout().is_terminal() {
                Format::Text
            } else {
                Format::Json
            }
        }
    })
}

/// Parses a format name as accepted by `--format` and `AGENTBOX_FORMAT`.
pub fn parse_format_choice(value: &str) -> Option<FormatChoice> {
    match value {
        "auto" => Some(FormatChoice::Auto),
        "json" => Some(FormatChoice::Json),
        "text" => Some(FormatChoice::Text),
        _ => None,
    }
}

/// Resolves colour: `--color always|never` wins; otherwise colour only on a
/// terminal, with `NO_COLOR` unset and `TERM` not `dumb`.
pub fn resolve_color(flag: Option<ColorChoice>) -> bool {
    match flag.unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            !no_color && !dumb && io::stdout().is_terminal()
        }
    }
}

/// ANSI styling that collapses to plain text when colour is off.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
}

/// The SGR parameters `Style` paints with: the only escape sequences
/// (`ESC [ <code> m`) text output lets through raw, and only with colour on.
const STYLE_CODES: [&str; 7] = ["0", "1", "2", "31", "32", "33", "36"];

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        debug_assert!(STYLE_CODES.contains(&code), "{code} is not in STYLE_CODES");
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
    pub fn green(&self, text: &str) -> String {
        self.paint("32", text)
    }
    pub fn yellow(&self, text: &str) -> String {
        self.paint("33", text)
    }
    pub fn red(&self, text: &str) -> String {
        self.paint("31", text)
    }
    pub fn cyan(&self, text: &str) -> String {
        self.paint("36", text)
    }
}

/// What a tool returns on success: `data` and `meta` for json, prose for text.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub data: Value,
    pub meta: Map<String, Value>,
    pub text: String,
    /// Things the caller should know although the call succeeded (the index
    /// could not be updated, …): `meta.warnings` in json, `warning:` lines on
    /// stderr in text.
    pub warnings: Vec<String>,
    /// `text` is written verbatim whatever the format (a completion script,
    /// a man page); no envelope is printed.
    pub raw: bool,
}

impl Outcome {
    pub fn new(data: Value, text: impl Into<String>) -> Outcome {
        Outcome {
            data,
            text: text.into(),
            ..Outcome::default()
        }
    }

    /// An outcome whose `text` is printed verbatim in every format.
    pub fn raw(text: impl Into<String>) -> Outcome {
        Outcome {
            text: text.into(),
            raw: true,
            ..Outcome::default()
        }
    }

    pub fn with_meta(mut self, key: &str, value: impl Into<Value>) -> Outcome {
        self.meta.insert(key.to_string(), value.into());
        self
    }

    /// Adds a warning (see `warnings`).
    pub fn with_warning(mut self, warning: impl Into<String>) -> Outcome {
        self.warnings.push(warning.into());
        self
    }
}

/// Where and how one invocation writes.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub format: Format,
    pub style: Style,
    pub quiet: bool,
    pub verbose: u8,
}

impl Output {
    /// Writes the success envelope (json) or the prose (text). Returns exit code 0.
    pub fn success(&self, outcome: Outcome, redactor: &Redactor) -> i32 {
        if outcome.raw {
            write_stdout(&outcome.text);
            return 0;
        }
        match self.format {
            Format::Json => {
                let mut data = outcome.data;
                let mut meta = outcome.meta;
                if !outcome.warnings.is_empty() {
                    meta.insert("warnings".to_string(), json!(outcome.warnings));
                }
                let mut meta = Value::Object(meta);
                redactor.redact_value(&mut data);
                redactor.redact_value(&mut meta);
                let envelope = json!({"ok": true, "data": data, "meta": meta});
                write_stdout(&escape_json(format!("{envelope}\n")));
            }
            Format::Text => {
                for warning in &outcome.warnings {
                    write_stderr(&for_terminal(
                        &redactor.redact(&format!("warning: {warning}\n")),
                        false,
                    ));
                }
                if !self.quiet && !outcome.text.is_empty() {
                    let redacted = redactor.redact(&outcome.text);
                    let mut text = for_terminal(&redacted, self.style.color).into_owned();
                    if !text.ends_with('\n') {
                        text.push('\n');
                    }
                    write_stdout(&text);
                }
            }
        }
        0
    }

    /// Writes the error envelope (json, on stdout) or `error:`/`hint:` lines
    /// (text, on stderr; stdout stays empty). Returns the mapped exit code.
    pub fn failure(&self, error: &Error, redactor: &Redactor) -> i32 {
        if stdout_claimed() {
            // A protocol server that cannot start: a boot failure, exit 1.
            write_stderr(&for_terminal(&redactor.redact(&error_lines(error)), false));
            return 1;
        }
        match self.format {
            Format::Json => write_stdout(&failure_envelope(error, redactor)),
            Format::Text => {
                write_stderr(&for_terminal(&redactor.redact(&error_lines(error)), false))
            }
        }
        error.exit_code()
    }

    /// A log line on stderr, shown with `-v`.
    pub fn log(&self, redactor: &Redactor, message: &str) {
        if self.verbose > 0 {
            let line = format!("agentbox: {message}\n");
            write_stderr(&for_terminal(&redactor.redact(&line), false));
        }
    }

    /// A line on stderr whatever the verbosity, redacted: what a server says
    /// once when it is ready (`memory_mcp --http`'s address).
    pub fn announce(&self, redactor: &Redactor, message: &str) {
        let line = format!("{message}\n");
        write_stderr(&for_terminal(&redactor.redact(&line), false));
    }
}

/// The json envelope of a failure, with its newline.
fn failure_envelope(error: &Error, redactor: &Redactor) -> String {
    let mut body = error.to_json();
    // `detail` echoes what the call named (a slug, a name, a path): free
    // text to the redactor, so a secret typed where an id goes is masked.
    if let Some(detail) = body.get_mut("detail") {
        redactor.redact_value_as_text(detail);
    }
    redactor.redact_value(&mut body);
    let mut meta = Value::Object(error.meta.clone());
    redactor.redact_value(&mut meta);
    let envelope = json!({"ok": false, "error": body, "meta": meta});
    escape_json(format!("{envelope}\n"))
}

/// `error: …` and `hint: …` lines: one line each, so a name the call
/// echoes (a folder called `a\nhint: run rm -rf ~`) cannot add a line of
/// its own; its line breaks show as `\n`.
fn error_lines(error: &Error) -> String {
    let mut text = format!("error: {}\n", one_line(&error.message));
    if !error.hint.is_empty() {
        text.push_str(&format!("hint: {}\n", one_line(&error.hint)));
    }
    text
}

/// `text` with its line breaks written as `\n` and `\r`.
fn one_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.replace('\n', "\\n").replace('\r', "\\r"))
}

/// stdout as a protocol channel (memory_mcp): one JSON frame per line,
/// redacted here like every envelope. Claiming it makes every later failure
/// of the process go to stderr (see `claim_stdout`).
#[derive(Debug)]
pub struct Frames<'r> {
    redactor: &'r Redactor,
}

impl<'r> Frames<'r> {
    /// Claims stdout for frames.
    pub fn claim(redactor: &'r Redactor) -> Frames<'r> {
        claim_stdout();
        Frames { redactor }
    }

    /// Frames that are not written to stdout (`memory_mcp --http` sends
    /// each in an HTTP response; stdout stays the envelope's).
    pub fn unclaimed(redactor: &'r Redactor) -> Frames<'r> {
        Frames { redactor }
    }

    /// A result text, redacted before the server bounds its size (cutting
    /// first could split a secret and hide it from the redactor).
    pub fn redact_text(&self, text: &str) -> String {
        self.redactor.redact(text).into_owned()
    }

    /// A structured result, redacted before the server bounds its size.
    pub fn redact_value(&self, value: &mut Value) {
        self.redactor.redact_value(value);
    }

    /// The redactor, for log lines.
    pub fn redactor(&self) -> &'r Redactor {
        self.redactor
    }

    /// `frame` redacted whole (ids, messages, data, URIs …) and serialized
    /// by `encode`: the body of an HTTP reply (`memory_mcp --http`).
    pub fn encode(&self, mut frame: Value, encode: impl FnOnce(&Value) -> String) -> String {
        self.redactor.redact_value(&mut frame);
        // An error's `data` echoes what the request named (a method, a
        // URI): free text, whatever its key, as an envelope's `detail` is.
        let replies = match &mut frame {
            Value::Array(replies) => replies.iter_mut().collect(),
            reply => vec![reply],
        };
        for reply in replies {
            if let Some(data) = reply.pointer_mut("/error/data") {
                self.redactor.redact_value_as_text(data);
            }
        }
        encode(&frame)
    }

    /// Redacts `frame` whole (ids, messages, data, URIs …), lets `encode`
    /// serialize it (the protocol bounds its size), and writes it with its
    /// newline. `false` once stdout is closed (EPIPE): nobody reads any more.
    pub fn send(&self, frame: Value, encode: impl FnOnce(&Value) -> String) -> bool {
        let mut line = self.encode(frame, encode);
        line.push('\n');
        let mut out = io::stdout().lock();
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .is_ok()
    }
}

/// Whether progress bars may be drawn in this process: text output, no
/// `-q`, stderr a terminal (not `TERM=dumb`), stdout not a protocol. Set once
/// by the cli for the call (`allow_progress`); off by default, so a library
/// caller, a test harness and memory_mcp draw nothing. A process-wide switch
/// because the work that reports progress (the index build, sync's checkout)
/// runs deep in library calls that get a `&Home`, not the call's `Output`.
static PROGRESS: AtomicU8 = AtomicU8::new(PROGRESS_OFF);
const PROGRESS_OFF: u8 = 0;
const PROGRESS_PLAIN: u8 = 1;
const PROGRESS_COLOR: u8 = 2;
/// Set while a bar is on screen: writes to stdout or stderr hide it first.
static BAR_SHOWN: AtomicBool = AtomicBool::new(false);
static ACTIVE_BAR: std::sync::Mutex<Option<indicatif::ProgressBar>> = std::sync::Mutex::new(None);
/// How long work runs before its bar appears: a quick call prints nothing.
const PROGRESS_DELAY: std::time::Duration = std::time::Duration::from_millis(400);

/// Lets this call draw progress bars on stderr when `out` is text output
/// without `-q` and stderr is a terminal (see `PROGRESS`). `NO_COLOR` (and
/// `--color never`) draws the bar without colour.
pub fn allow_progress(out: &Output) {
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    let on = out.format == Format::Text && !out.quiet && !dumb && io::stderr().is_terminal();
    let mode = match (on, out.style.color) {
        (false, _) => PROGRESS_OFF,
        (true, false) => PROGRESS_PLAIN,
        (true, true) => PROGRESS_COLOR,
    };
    PROGRESS.store(mode, Ordering::Relaxed);
}

/// A progress bar of `len` steps labelled `label` (see `allow_progress`):
/// counts and rate, shown once the work has run `PROGRESS_DELAY`, cleared
/// when dropped. A no-op value when progress is not allowed.
pub fn progress_bar(len: u64, label: &str) -> Progress {
    new_progress(Some(len), label)
}

/// A progress counter for work whose size is not known up front (the files
/// of a folder being copied): the count and the rate, no bar.
pub fn progress_counter(label: &str) -> Progress {
    new_progress(None, label)
}

fn new_progress(len: Option<u64>, label: &str) -> Progress {
    let mode = PROGRESS.load(Ordering::Relaxed);
    if mode == PROGRESS_OFF || stdout_claimed() {
        return Progress { bar: None };
    }
    let template = match (len, mode == PROGRESS_COLOR) {
        (Some(_), true) => "{msg} {bar:30.cyan/blue} {pos}/{len} ({rate}, {eta} left)",
        (Some(_), false) => "{msg} [{bar:30}] {pos}/{len} ({rate}, {eta} left)",
        (None, _) => "{msg}: {pos} ({rate})",
    };
    let style = indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        )
        .progress_chars("=> ");
    let bar =
        indicatif::ProgressBar::with_draw_target(len, indicatif::ProgressDrawTarget::hidden())
            .with_style(style)
            .with_message(for_terminal(label, false).into_owned());
    Progress {
        bar: Some(ProgressState {
            bar,
            started: std::time::Instant::now(),
            delay: progress_delay(),
            shown: false,
        }),
    }
}

/// `PROGRESS_DELAY`, or `AGENTBOX_PROGRESS_DELAY_MS` (a test hook: the TTY
/// tests show a bar without making the work slow).
fn progress_delay() -> std::time::Duration {
    std::env::var("AGENTBOX_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(std::time::Duration::from_millis)
        .unwrap_or(PROGRESS_DELAY)
}

/// A progress bar on stderr, or nothing (see `progress_bar`).
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressState>,
}

#[derive(Debug)]
struct ProgressState {
    bar: indicatif::ProgressBar,
    started: std::time::Instant,
    delay: std::time::Duration,
    shown: bool,
}

impl Progress {
    /// `n` more steps done.
    pub fn inc(&mut self, n: u64) {
        let Some(state) = &mut self.bar else { return };
        state.bar.inc(n);
        if !state.shown && state.started.elapsed() >= state.delay {
            state.shown = true;
            state
                .bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            *ACTIVE_BAR.lock().unwrap_or_else(|e| e.into_inner()) = Some(state.bar.clone());
            BAR_SHOWN.store(true, Ordering::SeqCst);
        }
    }

    /// Changes the label (the phase of the work).
    pub fn set_label(&mut self, label: &str) {
        if let Some(state) = &self.bar {
            state
                .bar
                .set_message(for_terminal(label, false).into_owned());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(state) = self.bar.take() {
            if state.shown {
                BAR_SHOWN.store(false, Ordering::SeqCst);
                *ACTIVE_BAR.lock().unwrap_or_else(|e| e.into_inner()) = None;
            }
            state.bar.finish_and_clear();
        }
    }
}

/// Runs `write` with the bar on screen (if any) hidden, then redraws it.
fn around_bar(write: impl FnOnce()) {
    if !BAR_SHOWN.load(Ordering::SeqCst) {
        return write();
    }
    let bar = ACTIVE_BAR.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// A progress line on stderr (`agentbox model ask`), redacted and shown
/// escaped: it may carry text from another program.
pub fn progress(redactor: &Redactor, prefix: &str, line: &str) {
    let line = line.replace(['\n', '\r'], " ");
    let line = format!("{prefix}: {line}\n");
    write_stderr(&for_terminal(&redactor.redact(&line), false));
}

/// Whether `c` must not reach a terminal raw: control characters (C0 but
/// newline and tab, DEL, C1: they start escape sequences, ring the bell,
/// move the cursor) and the bidi controls that reorder what is shown
/// (embeddings, overrides, isolates, marks).
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
        )
}

/// Text for a terminal: every unsafe character (see `is_unsafe`) shown
/// escaped, `\x1b` below U+0080 and `\u{202e}` above. Whatever wrote the
/// text (a runtime, a remote, a hand-edited file, a skill), nothing in it
/// can drive the terminal. With `colors`, the codes `Style` paints with
/// (`ESC [ 1 m` …) pass; nothing else does.
pub fn for_terminal(text: &str, colors: bool) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if colors
            && c == '\x1b'
            && let Some(len) = style_code(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if !is_unsafe(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of one of `Style`'s own codes at the start of `text`.
fn style_code(text: &str) -> Option<usize> {
    let code = text.strip_prefix("\x1b[")?;
    let end = code.find('m')?;
    STYLE_CODES
        .contains(&&code[..end])
        .then_some("\x1b[".len() + end + 1)
}

/// A serialized envelope with the unsafe characters JSON leaves raw (DEL,
/// C1, bidi controls) written as `\u` escapes too: the same JSON value, but
/// nothing that drives a terminal the envelope is printed on. They can only
/// sit inside strings, where the escape means the same character.
fn escape_json(text: String) -> String {
    if !text.chars().any(is_unsafe) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes help, version or a completion script verbatim (they carry no user data).
pub fn write_raw(text: &str) {
    write_stdout(text);
}

/// What an interrupted call prints, rendered ahead of time: the SIGINT
/// handler that writes it runs inside whatever the process was doing, so it
/// may not allocate or take a lock (`write` is async-signal-safe).
#[derive(Debug)]
pub struct Cancelled {
    /// The json envelope (stdout), when the call's format is json.
    envelope: Option<String>,
    /// `error:`/`hint:` lines (stderr): text output, or a protocol server's.
    lines: String,
    code: i32,
}

impl Cancelled {
    pub fn new(format: Format) -> Cancelled {
        let error = Error::new(ErrorType::Cancelled, "interrupted").with_hint(
            "run the command again; a cancelled write leaves the previous state in place",
        );
        let redactor = Redactor::builtin();
        Cancelled {
            envelope: (format == Format::Json).then(|| failure_envelope(&error, &redactor)),
            lines: redactor.redact(&error_lines(&error)).into_owned(),
            code: error.exit_code(),
        }
    }

    /// Writes the message where `Output::failure` would (stderr once stdout
    /// is claimed) with write(2) alone, and returns the exit code.
    pub fn write(&self) -> i32 {
        let (fd, text) = match &self.envelope {
            Some(envelope) if !stdout_claimed() => (1, envelope),
            _ => (2, &self.lines),
        };
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            // SAFETY: writes from a live buffer; a failed write ends the loop.
            let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
            match usize::try_from(n) {
                Ok(n) if n > 0 => rest = &rest[n..],
                _ if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                _ => break,
            }
        }
        self.code
    }
}

/// A closed stdout (EPIPE) ends quietly: the write error is dropped.
fn write_stdout(text: &str) {
    around_bar(|| {
        let mut out = io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    });
}

fn write_stderr(text: &str) {
    around_bar(|| {
        let mut err = io::stderr().lock();
        let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_characters_are_escaped_and_only_styles_own_codes_pass() {
        let text = "a\x1b]0;t\x07b\u{202e}c\u{9b}d\x1b[1me\x1b[0m\x1b[2Jf\tg\n";
        assert_eq!(
            for_terminal(text, false),
            "a\\x1b]0;t\\x07b\\u{202e}c\\u{9b}d\\x1b[1me\\x1b[0m\\x1b[2Jf\tg\n"
        );
        assert_eq!(
            for_terminal(text, true),
            "a\\x1b]0;t\\x07b\\u{202e}c\\u{9b}d\x1b[1me\x1b[0m\\x1b[2Jf\tg\n"
        );
        assert!(matches!(
            for_terminal("plain ünï\n", true),
            Cow::Borrowed(_)
        ));
        let json = json!({"s": "x\u{202e}\u{7f}\u{9b}\x1b"}).to_string();
        let escaped = escape_json(json.clone());
        assert_eq!(escaped, r#"{"s":"x\u202e\u007f\u009b\u001b"}"#);
        assert_eq!(
            serde_json::from_str::<Value>(&escaped).unwrap(),
            serde_json::from_str::<Value>(&json).unwrap()
        );
    }
}
