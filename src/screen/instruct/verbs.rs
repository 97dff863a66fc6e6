//! The vocabulary of instructions: verb classes, what a clause acts on
//! (a secret, a destination, something fetched), the phrases that conceal,
//! override, persist or reconfigure the agent, and the light shape of a
//! shell line in a fenced block (for linking it to the prose around it).

use crate::screen::facts::Cap;
use crate::screen::rules::lowered_regex;
use regex::bytes::Regex;
use std::sync::LazyLock;

/// What a clause does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verb {
    /// Reads, collects, opens, copies, dumps…
    Read,
    /// Encodes, compresses, archives, encrypts: the data stays the same data.
    Encode,
    /// Sends, posts, uploads, syncs, forwards, backs up, shares…
    Send,
    /// Includes, attaches, embeds, adds: a send only with a destination.
    Carry,
    /// Downloads, fetches, clones.
    Fetch,
    /// Runs, executes, launches, installs, pastes into a terminal.
    Exec,
}

/// One clause: a verb and the words up to the next verb.
#[derive(Debug, Clone)]
pub(crate) struct Clause {
    pub verb: Verb,
    /// The clause as written, from its verb on.
    pub text: String,
}

/// Words that are verbs of a class (the forms that occur in instructions).
fn verb_class(word: &str, next: &str) -> Option<Verb> {
    Some(match word {
        "read" | "reads" | "reading" | "cat" | "collect" | "collects" | "collecting" | "gather"
        | "gathers" | "gathering" | "find" | "finds" | "locate" | "copy" | "copies" | "dump"
        | "dumps" | "load" | "loads" | "harvest" | "access" | "export" | "exports" | "capture"
        | "steal" | "grab" | "print" | "inspect" => Verb::Read,
        "open" | "opens" if !matches!(next, "a" | "an" | "the" | "new") => Verb::Read,
        "encode" | "encodes" | "base64" | "base64-encode" | "compress" | "compresses" | "zip"
        | "tar" | "archive" | "encrypt" | "encrypts" | "bundle" | "pack" | "gzip" | "serialize"
        | "obfuscate" | "hex-encode" | "package" => Verb::Encode,
        "send" | "sends" | "sending" | "post" | "posts" | "posting" | "upload" | "uploads"
        | "uploading" | "sync" | "syncs" | "synchronize" | "forward" | "forwards" | "share"
        | "shares" | "report" | "transmit" | "exfiltrate" | "submit" | "deliver" | "email"
        | "mail" | "beacon" | "leak" | "publish" | "transfer" | "mirror" | "relay" | "stream"
        | "pipe" | "push" | "put" => Verb::Send,
        "back" | "backup" if next == "up" || word == "backup" => Verb::Send,
        "include" | "includes" | "attach" | "attaches" | "embed" | "append" | "add" | "insert"
        | "write" | "set" => Verb::Carry,
        "download" | "downloads" | "fetch" | "fetches" | "pull" | "clone" | "wget" | "get"
        | "obtain" | "retrieve" | "curl" => Verb::Fetch,
        // Obeying what was fetched ("fetch https://… and follow them") runs it.
        "follow" | "follows" | "obey" | "obeys"
            if matches!(next, "them" | "it" | "those" | "these" | "its" | "their") =>
        {
            Verb::Exec
        }
        "run" | "runs" | "running" | "execute" | "executes" | "executing" | "launch" | "invoke"
        | "source" | "eval" | "bash" | "sh" | "install" | "installs" | "installing" | "paste"
        | "double-click" | "start" => Verb::Exec,
        _ => return None,
    })
}

pub(super) static URL: LazyLock<Regex> =
    LazyLock::new(|| lowered_regex(r#"\b(?:https?|ftp|wss?)://[^\s`'"<>)\]]+"#));
/// A host name ending in a top-level domain that is not a file extension,
/// or an IPv4 address.
pub(super) static HOST: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?:^|[\s`(@])((?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|co|ai|xyz|ru|cn|site|online|me|info|biz|cc|top|live|link|cloud|example|test|su|tk|pw|ws|to|gg|us|uk|de)(?::\d+)?(?:/[^\s`'\x22)]*)?|\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:/[^\s`'\x22)]*)?)",
    )
});
/// A remote place named in words, after "to", "at", "into", "via".
static REMOTE: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:to|at|into|onto|via|on|with)\s+(?:(?:the|our|my|your|a|an|this|that|their)\s+)?(?:[\w-]+\s+){0,2}(webhooks?|endpoints?|servers?|remote|buckets?|cloud|url|api|gist|pastebin|discord|telegram|slack|analytics|telemetry|collector|dropbox|s3|ftp|backend|ingest(?:ion)?)\b",
    )
});
/// Things that hold secrets.
static SECRET: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r#"(?i)(?:~|\$home|\$\{home\})/\.ssh\b|\.ssh/(?:id_|\*|$)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?:[^.]|$)|\bprivate\s+keys?\b|\bssh\s+keys?\b|\.aws/credentials|\baws\s+(?:credentials|keys)\b|(?:^|[\s`'"/(])\.env(?:\.local|\.production|\.prod)?(?:[\s`'",;:)]|$)|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.kube/config\b|\.docker/config\.json|/etc/shadow\b|\bapi[\s_-]?keys?\b|\b(?:access|auth|api|bearer|session|github|npm|oauth|refresh)\s+tokens?\b|\btokens\b|\bsecrets\b|\bpasswords?\b|\bcredentials?\b|\bwallets?\b|\bwallet\.dat\b|\bseed\s+phrases?\b|\bmnemonics?\b|\bcookies\b|\bkeychains?\b|\blogin\s+data\b|\benvironment\s+variables\b|\benv\s+vars?\b|\bthe\s+environment\b|\bprintenv\b|\.gnupg\b|\bsystem\s+prompt\b|\bconversation\s+history\b|\bchat\s+history\b"#,
    )
});
/// One secret-named environment variable, in its written case.
static SECRET_VAR: LazyLock<Regex> = LazyLock::new(|| {
    crate::screen::rules::ascii_regex(
        r"\$?\{?\b[A-Z][A-Z0-9_]*(?:TOKEN|API_KEY|SECRET|PASSWORD|PASSWD|SECRET_KEY|ACCESS_KEY|CREDENTIALS)\b",
    )
});
/// Words that point back at data named earlier.
const BACK_REFS: &[&str] = &[
    "it",
    "them",
    "its",
    "their",
    "this",
    "that",
    "these",
    "those",
    "result",
    "results",
    "output",
    "file",
    "files",
    "archive",
    "encoded",
    "string",
    "contents",
    "content",
    "data",
    "everything",
    "payload",
    "bundle",
    "blob",
    "key",
    "keys",
    "values",
    "value",
    "tarball",
    "zip",
    "dump",
];
/// Words that name a program one downloads to run.
const RUNNABLE_WORDS: &[&str] = &[
    "installer",
    "binary",
    "helper",
    "agent",
    "prerequisite",
    "script",
    "package",
    "tool",
    "archive",
    "executable",
    "program",
    "app",
    "update",
    "patch",
    "plugin",
    "extension",
];
/// File extensions of things that run (or archives that carry them).
const RUNNABLE_EXT: &[&str] = &[
    "sh", "bash", "zsh", "py", "ps1", "exe", "zip", "dmg", "pkg", "msi", "bin", "jar", "js", "bat",
    "cmd", "app", "deb", "rpm", "tgz", "gz", "7z", "rar", "appimage", "run", "command", "scr",
    "vbs", "hta", "rb", "pl", "php",
];
/// Words after "run" that make a clause about the skill's own commands.
const COMMAND_WORDS: &[&str] = &[
    "curl",
    "wget",
    "bash",
    "sh",
    "zsh",
    "python",
    "python3",
    "node",
    "npm",
    "npx",
    "pip",
    "pip3",
    "cat",
    "rm",
    "chmod",
    "sudo",
    "git",
    "ssh",
    "scp",
    "rsync",
    "tar",
    "base64",
    "echo",
    "eval",
    "export",
    "source",
    "iwr",
    "irm",
    "powershell",
    "pwsh",
    "nc",
    "ncat",
    "socat",
    "osascript",
    "security",
    "launchctl",
    "crontab",
    "systemctl",
    "docker",
    "kubectl",
    "cargo",
    "go",
    "make",
    "uv",
    "pnpm",
    "yarn",
    "deno",
    "bun",
    "brew",
    "apt",
    "apt-get",
    "xattr",
    "printenv",
    "env",
    "open",
    "invoke-webrequest",
    "invoke-expression",
    "iex",
    "perl",
    "ruby",
    "php",
    "dd",
    "mkfs",
    "find",
    "grep",
    "awk",
    "sed",
    "tee",
    "cp",
    "mv",
    "ln",
    "unzip",
    "7z",
    "gh",
    "helm",
    "ls",
];

/// Lowercase token with surrounding punctuation, quotes and backticks off.
fn word(tok: &str) -> String {
    tok.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .to_ascii_lowercase()
}

/// Cuts a statement into clauses, one per verb. A verb inside a code span,
/// or after an article ("the sync endpoint", "the post"), is not a verb.
pub(crate) fn clauses(text: &str) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut starts: Vec<(usize, Verb)> = Vec::new();
    let mut in_code = false;
    let toks: Vec<(usize, &str)> = tokens(text);
    for (k, &(off, tok)) in toks.iter().enumerate() {
        let code_before = in_code;
        in_code ^= tok.matches('`').count() % 2 == 1;
        if code_before || tok.starts_with('`') {
            continue;
        }
        let w = word(tok);
        let next = toks.get(k + 1).map(|(_, t)| word(t)).unwrap_or_default();
        let prev = if k > 0 {
            word(toks[k - 1].1)
        } else {
            String::new()
        };
        if matches!(
            prev.as_str(),
            "the" | "a" | "an" | "our" | "your" | "its" | "this" | "that" | "their" | "my" | "of"
        ) {
            continue;
        }
        if let Some(v) = verb_class(&w, &next) {
            starts.push((off, v));
        }
    }
    for (i, &(off, verb)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(text.len(), |s| s.0);
        let mut c = Clause {
            verb,
            text: text[off..end].to_string(),
        };
        // An ambiguous fetch ("get the tokens", "curl -d @- …") is decided
        // by what the clause holds.
        if c.verb == Verb::Fetch && c.url().is_none() && c.secret().is_some() {
            c.verb = Verb::Read;
        }
        // "Copy the installer from <URL>" fetches.
        if c.verb == Verb::Read && c.secret().is_none() && c.url().is_some_and(|u| runnable_url(&u))
        {
            c.verb = Verb::Fetch;
        }
        if c.verb == Verb::Fetch && word(&c.text).starts_with("curl") {
            let l = c.text.to_ascii_lowercase();
            if l.contains(" -d")
                || l.contains("--data")
                || l.contains(" -f ")
                || l.contains(" -t ")
                || l.contains("@")
                || l.contains("-x post")
                || l.contains("-x put")
            {
                c.verb = Verb::Send;
            }
        }
        out.push(c);
    }
    out
}

/// Whitespace-separated tokens with their byte offsets.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

impl Clause {
    fn lower(&self) -> String {
        self.text.to_ascii_lowercase()
    }

    /// The first URL in the clause.
    pub fn url(&self) -> Option<String> {
        let l = self.lower();
        URL.find(l.as_bytes()).map(|m| {
            let s = &self.text[m.start()..m.end()];
            s.trim_end_matches(['.', ',', ';', ':']).to_string()
        })
    }

    fn host(&self) -> Option<String> {
        let l = self.lower();
        let c = HOST.captures(l.as_bytes())?;
        let m = c.get(1)?;
        Some(
            self.text[m.start()..m.end()]
                .trim_end_matches(['.', ',', ';', ':'])
                .to_string(),
        )
    }

    /// Where the clause sends data: a URL, a host, or a remote place in words.
    pub fn destination(&self) -> Option<String> {
        if let Some(u) = self.url().or_else(|| self.host()) {
            return Some(u);
        }
        let l = self.lower();
        REMOTE.find(l.as_bytes()).map(|m| {
            let s = &self.text[m.start()..m.end()];
            let s = s.split_once(' ').map_or(s, |(_, rest)| rest);
            s.to_string()
        })
    }

    /// The secret the clause acts on: a credential store, or one named
    /// environment variable.
    pub fn secret(&self) -> Option<(Cap, String)> {
        let mut l = self.lower();
        // An archive's password is how a payload hides, not a secret read.
        if ["zip", "archive", "extract", "7z", "rar"]
            .iter()
            .any(|w| l.contains(w))
        {
            l = l.replace("password", "");
        }
        let no_urls = URL.replace_all(l.as_bytes(), &b""[..]);
        if l.contains(".pub") || l.contains("public key") {
            return None;
        }
        if let Some(m) = SECRET.find(&no_urls) {
            // The whole path the match is part of (`~/.ssh` of `~/.ssh/id_rsa`).
            let mut end = m.end();
            while end < no_urls.len()
                && !matches!(
                    no_urls[end],
                    b' ' | b'\t' | b'`' | b'"' | b'\'' | b',' | b')'
                )
            {
                end += 1;
            }
            let what = String::from_utf8_lossy(&no_urls[m.start()..end]);
            let what = what
                .trim_matches(|c: char| !c.is_alphanumeric() && c != '~' && c != '.' && c != '/');
            // "the API key in `LINEAR_API_KEY`": words naming one variable
            // are that variable, not a credential store.
            if !what.contains('/')
                && !what.starts_with(['.', '~'])
                && let Some(m) = SECRET_VAR.find(self.text.as_bytes())
            {
                let v = String::from_utf8_lossy(m.as_bytes());
                return Some((
                    Cap::SecretEnv,
                    format!("reads {}", v.trim_start_matches(['$', '{'])),
                ));
            }
            return Some((Cap::SecretRead, format!("reads {what}")));
        }
        SECRET_VAR.find(self.text.as_bytes()).map(|m| {
            let v = String::from_utf8_lossy(m.as_bytes());
            (
                Cap::SecretEnv,
                format!("reads {}", v.trim_start_matches(['$', '{'])),
            )
        })
    }

    /// The clause points back at data named before: a pronoun, "the
    /// result", "the encoded string", or no object at all ("send to …").
    pub fn refers_back(&self) -> bool {
        let words: Vec<String> = self.text.split_whitespace().skip(1).map(word).collect();
        let first = words
            .iter()
            .find(|w| !matches!(w.as_str(), "up" | "out" | "over"));
        if first
            .is_none_or(|w| matches!(w.as_str(), "to" | "at" | "into" | "onto" | "via" | "with"))
        {
            return true;
        }
        words.iter().any(|w| BACK_REFS.contains(&w.as_str()))
    }

    /// "from step 2", "of step 2", "in step 2": the step it names.
    pub fn step_ref(&self) -> Option<usize> {
        let l = self.lower();
        let at = l.find("step ")?;
        let digits: String = l[at + 5..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    }

    /// What a fetch or run clause downloads: a URL or host, a runnable file
    /// or archive, a password-protected archive, or an installer in words.
    pub fn fetched(&self) -> Option<String> {
        let l = self.lower();
        if let Some(u) = self.url().or_else(|| self.host()) {
            // `bash scripts/h.sh https://their-site`: the URL is an argument
            // of a script the skill ships, not something downloaded.
            if self.verb == Verb::Exec && LOCAL_SCRIPT_ARG.is_match(l.as_bytes()) {
                return None;
            }
            return runnable_url(&u).then_some(u);
        }
        if (l.contains("zip") || l.contains("archive") || l.contains("7z") || l.contains("rar"))
            && l.contains("password")
        {
            return Some("a password-protected archive".into());
        }
        if self.verb != Verb::Fetch {
            return None;
        }
        for t in self.text.split_whitespace().skip(1) {
            let w = word(t);
            if let Some((_, ext)) = w.rsplit_once('.')
                && RUNNABLE_EXT.contains(&ext)
            {
                return Some(w);
            }
            if RUNNABLE_WORDS.contains(&w.as_str()) {
                return Some(format!("the {w}"));
            }
        }
        None
    }

    /// A run clause that points at what was downloaded: a pronoun, "the
    /// installer", or the downloaded file's name (`stem` without extension).
    pub fn runs_fetched(&self, stem: &str) -> bool {
        let words: Vec<String> = self.text.split_whitespace().skip(1).map(word).collect();
        if words
            .first()
            .is_some_and(|w| COMMAND_WORDS.contains(&w.as_str()))
        {
            return false;
        }
        if !stem.is_empty() && words.iter().any(|w| file_stem(w) == stem) {
            return true;
        }
        words.iter().take(4).any(|w| {
            matches!(w.as_str(), "it" | "them" | "this" | "that")
                || RUNNABLE_WORDS.contains(&w.as_str())
        })
    }
}

/// The file stem of a name or URL (`openclaw-agent` for `…/openclaw-agent.zip`).
pub(crate) fn file_stem(s: &str) -> String {
    let base = s.trim_end_matches('/').rsplit('/').next().unwrap_or(s);
    let base = base.split(['?', '#']).next().unwrap_or(base);
    base.split('.').next().unwrap_or(base).to_ascii_lowercase()
}

/// A URL that could serve a program (not an obvious data file or page).
fn runnable_url(u: &str) -> bool {
    let path = u.split(['?', '#']).next().unwrap_or(u);
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    match last.rsplit_once('.') {
        Some((_, ext)) if !last.contains(':') && path.matches('/').count() > 2 => {
            RUNNABLE_EXT.contains(&ext.to_ascii_lowercase().as_str())
        }
        _ => true,
    }
}

/// A run of a script the skill ships, with arguments: `bash scripts/x.sh URL`.
static LOCAL_SCRIPT_ARG: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?:^|[\s`(])(?:(?:(?:ba|z)?sh|python3?|node|ruby|perl|pwsh|deno|bun)\s+(?:-\S+\s+)*\.?/?[\w./-]+\.(?:sh|py|js|mjs|ts|rb|pl|ps1)|\.?/?(?:scripts|bin|tools)/[\w.-]+)\s+(?:\S+\s+)*[^\s`]*https?://",
    )
});

/// A run that is negated: "not to run it", "never execute", "do not paste".
static NEGATED_RUN: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:not\s+to|never|don't|dont|do\s+not|must\s+not|should\s+not|avoid)\s+(?:\w+\s+){0,2}(?:run|running|execute|executing|install|installing|paste|pasting|launch|source|eval)\b",
    )
});

/// True when the clause's run is negated ("advise the user not to run it").
pub(crate) fn negated_run(text: &str) -> bool {
    NEGATED_RUN.is_match(text.to_ascii_lowercase().as_bytes())
}

/// An inline code span worth giving the code analyser: it starts with a
/// command word or holds a URL or a pipe.
pub(crate) fn looks_like_command(code: &str) -> bool {
    let c = code.trim();
    if c.contains("://") || c.contains(" | ") || c.contains("|sh") || c.contains("| ") {
        return true;
    }
    let first = c.split_whitespace().next().unwrap_or("");
    let first = first.trim_start_matches("sudo").trim();
    first.starts_with("./") || COMMAND_WORDS.contains(&first.to_ascii_lowercase().as_str())
}

/// A relative path to a script of the skill (`scripts/x.sh`, `./run`,
/// `tools/setup.py`), without a leading `./`.
fn script_path(tok: &str, needs_ext: bool) -> Option<String> {
    let t = tok
        .trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '(' | ')' | ',' | ';' | ':' | '*'));
    let t = t.trim_end_matches('.');
    if t.is_empty()
        || t.contains("://")
        || t.starts_with('/')
        || t.starts_with('~')
        || t.starts_with('-')
        || t.contains('$')
    {
        return None;
    }
    let rel = t.strip_prefix("./").unwrap_or(t);
    if !rel
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
        || rel.is_empty()
    {
        return None;
    }
    let base = rel.rsplit('/').next().unwrap_or(rel);
    let ext = base.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    let scripty = ext.as_deref().is_some_and(|e| {
        matches!(
            e,
            "sh" | "bash"
                | "zsh"
                | "py"
                | "js"
                | "mjs"
                | "cjs"
                | "ts"
                | "rb"
                | "pl"
                | "ps1"
                | "php"
                | "lua"
                | "bat"
                | "cmd"
        )
    });
    let under_scripts = ["scripts/", "script/", "bin/", "tools/"]
        .iter()
        .any(|p| rel.starts_with(p))
        && ext.is_none();
    let dotted = t.starts_with("./") && !base.is_empty();
    let ok = if needs_ext {
        scripty
    } else {
        scripty || under_scripts || dotted
    };
    (ok && (rel.contains('/') || t.starts_with("./") || scripty)).then(|| rel.to_string())
}

const INTERPRETERS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "python",
    "python3",
    "node",
    "ruby",
    "perl",
    "pwsh",
    "powershell",
    "deno",
    "bun",
    "source",
    ".",
    "php",
    "tsx",
    "ts-node",
    "uv",
    "npx",
];

/// Scripts a prose statement tells the agent to run.
pub(crate) fn runs_in_prose(text: &str) -> Vec<String> {
    let toks: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '`')
        .filter(|t| !t.is_empty())
        .collect();
    let ordered = toks.iter().any(|t| {
        matches!(
            word(t).as_str(),
            "run" | "runs" | "execute" | "launch" | "invoke" | "call" | "start"
        )
    });
    let used = toks.iter().any(|t| word(t) == "use");
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        let after_interp =
            k > 0 && INTERPRETERS.contains(&toks[k - 1].to_ascii_lowercase().as_str());
        let p = if after_interp || ordered {
            script_path(t, false)
        } else if used {
            script_path(t, true)
        } else {
            None
        };
        if let Some(p) = p
            && !out.contains(&p)
        {
            out.push(p);
        }
    }
    out
}

/// Scripts a shell line in a fenced block runs.
pub(crate) fn runs_in_code(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for cmd in line.split(['|', ';', '&']) {
        let toks: Vec<&str> = cmd
            .split_whitespace()
            .skip_while(|t| *t == "sudo" || (t.contains('=') && !t.starts_with('-')))
            .collect();
        let Some(first) = toks.first() else { continue };
        let p = if INTERPRETERS.contains(&first.to_ascii_lowercase().as_str()) {
            toks.iter()
                .skip(1)
                .find(|t| !t.starts_with('-') && !matches!(**t, "run" | "-m"))
                .and_then(|t| script_path(t, false))
        } else if first.starts_with("./") || first.starts_with("scripts/") {
            script_path(first, false)
        } else {
            None
        };
        if let Some(p) = p
            && !out.contains(&p)
        {
            out.push(p);
        }
    }
    out
}
