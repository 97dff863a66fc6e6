//! The symbolic values every language walker computes, and the collector
//! that turns sources and sinks into facts, flows and derived strings.
//!
//! A `Val` is what an expression may hold: a constant string when it folds,
//! and taint labels naming the facts its data came from. Walkers evaluate
//! expressions to `Val`s; `Ctx::sink` records a capability and, for every
//! taint that reaches it as data, a flow from the taint's source fact.

use super::super::facts::{Analysis, Cap, Derived, Fact, Flow, FlowKind, Origin, Site};
use super::Lang;
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// How deep expressions, nested scripts and inlined calls may go.
pub(super) const MAX_DEPTH: usize = 64;
/// Facts kept per analysed file.
pub(super) const MAX_FACTS: usize = 500;
/// Derived strings kept per analysed file.
pub(super) const MAX_DERIVED: usize = 200;
/// Expression and statement evaluations per file (inlined calls and
/// comprehensions multiply work; past this the rest of the file is skipped).
pub(super) const MAX_STEPS: usize = 1_000_000;
/// Longest derived string or folded constant kept (bytes).
pub(super) const MAX_TEXT: usize = 64 * 1024;

/// What a value's data is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Label {
    /// A credential file, credential store or the whole environment.
    Secret,
    /// One secret-named environment variable.
    SecretEnv,
    /// A network response.
    Downloaded,
    /// The output of a decoder.
    Decoded,
    /// The contents of some file.
    FileData,
}

/// One label and the fact it came from (none for plain file data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Taint {
    pub label: Label,
    pub src: Option<usize>,
}

/// What an expression may hold.
#[derive(Debug, Clone, Default)]
pub(super) struct Val {
    /// The constant value, when every part folds.
    pub text: Option<String>,
    /// How the constant was reassembled ("string concatenation"), when it was.
    pub how: Option<&'static str>,
    pub taints: Vec<Taint>,
    /// The path a path object or file handle stands for.
    pub path: Option<String>,
    /// A file handle opened for writing (its writes taint `path`).
    pub write: bool,
    /// A socket, request or client object: writes to it leave the machine.
    pub net: bool,
    /// A named function passed as a value (`.then(eval)`).
    pub func: Option<String>,
    /// The elements of a list literal (for `join`, indexing).
    pub items: Option<Vec<Val>>,
    /// Key/value pairs of a dict/object literal (for `method`, `body`).
    pub fields: Option<Vec<(String, Val)>>,
}

impl Val {
    /// A literal string.
    pub(super) fn lit(s: impl Into<String>) -> Val {
        Val {
            text: Some(s.into()),
            ..Val::default()
        }
    }

    /// A value built by folding, recording how.
    pub(super) fn folded(s: String, how: &'static str) -> Val {
        let mut v = Val::lit(s);
        v.how = Some(how);
        v
    }

    /// An unknown value carrying the taints of `parts`.
    pub(super) fn mix<'a>(parts: impl IntoIterator<Item = &'a Val>) -> Val {
        let mut v = Val::default();
        for p in parts {
            v.add_taints(p);
        }
        v
    }

    pub(super) fn add_taints(&mut self, other: &Val) {
        for t in &other.taints {
            if !self.taints.contains(t) {
                self.taints.push(*t);
            }
        }
        if let Some(items) = &other.items {
            for i in items {
                self.add_taints(i);
            }
        }
        if let Some(fields) = &other.fields {
            for (_, f) in fields {
                self.add_taints(f);
            }
        }
    }

    pub(super) fn taint(mut self, label: Label, src: Option<usize>) -> Val {
        let t = Taint { label, src };
        if !self.taints.contains(&t) {
            self.taints.push(t);
        }
        self
    }

    pub(super) fn has(&self, label: Label) -> bool {
        self.all_taints().iter().any(|t| t.label == label)
    }

    /// Own taints plus those of list items and dict fields.
    pub(super) fn all_taints(&self) -> Vec<Taint> {
        let mut v = Val::default();
        v.add_taints(self);
        v.taints
    }

    /// The field `key` of a dict/object literal.
    pub(super) fn field(&self, key: &str) -> Option<&Val> {
        self.fields
            .as_ref()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// The constant, or the path a path object stands for.
    pub(super) fn text_or_path(&self) -> Option<&str> {
        self.text.as_deref().or(self.path.as_deref())
    }
}

/// The constant text of a word, or "".
pub(super) fn t(v: &Val) -> &str {
    v.text.as_deref().unwrap_or("")
}

/// Concatenates values: constant when every part is, taints united.
pub(super) fn concat(parts: &[Val], how: &'static str) -> Val {
    let mut out = Val::mix(parts);
    if parts.iter().all(|p| p.text.is_some()) {
        let s: String = parts.iter().filter_map(|p| p.text.as_deref()).collect();
        if s.len() <= MAX_TEXT {
            out.text = Some(s);
            let literal_parts = parts
                .iter()
                .filter(|p| !p.text.as_deref().unwrap_or("").is_empty())
                .count();
            if literal_parts >= 2 || parts.iter().any(|p| p.how.is_some()) {
                out.how = Some(parts.iter().find_map(|p| p.how).unwrap_or(how));
            }
        }
    }
    out
}

/// Which kind of sink a fact is, for deciding which taints make flows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    /// Data leaves the machine.
    Network,
    /// Code runs.
    Exec,
}

/// The collector shared by every walker of one file (and the scripts nested
/// in it: `python3 -c "…"`, `os.system("…")`).
pub(super) struct Ctx<'a> {
    pub rel: &'a str,
    lines: Vec<&'a str>,
    first_line: usize,
    pub out: Analysis,
    /// Files on disk written from tainted data: path -> taints.
    pub files: HashMap<String, Vec<Taint>>,
    pub depth: usize,
    /// Set while analysing a nested script: every site is this line.
    pub fixed_line: Option<usize>,
    /// A socket was opened (line), for reverse-shell shapes.
    pub socket_line: Option<usize>,
    /// A descriptor was duplicated onto stdio or a pty/shell spawned (line).
    pub shell_wire_line: Option<usize>,
    steps: usize,
    /// Decode facts and the encoded constant each decoded (to mark it executed).
    decoded: Vec<(usize, String)>,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(rel: &'a str, text: &'a str, first_line: usize) -> Ctx<'a> {
        Ctx {
            rel,
            lines: text.lines().collect(),
            first_line,
            out: Analysis::default(),
            files: HashMap::new(),
            depth: 0,
            fixed_line: None,
            socket_line: None,
            shell_wire_line: None,
            steps: 0,
            decoded: Vec::new(),
        }
    }

    /// Counts one evaluation step; false once the depth or the step budget is spent.
    pub(super) fn tick(&mut self) -> bool {
        self.steps += 1;
        self.steps <= MAX_STEPS && self.depth < MAX_DEPTH
    }

    /// The file line of a 0-based row in the analysed text.
    pub(super) fn line(&self, row: usize) -> usize {
        self.fixed_line.unwrap_or(self.first_line + row)
    }

    fn site(&self, line: usize) -> Site {
        let idx = line.saturating_sub(self.first_line);
        Site {
            file: self.rel.to_string(),
            line,
            text: self
                .lines
                .get(idx)
                .map(|l| l.trim().to_string())
                .unwrap_or_default(),
        }
    }

    /// Records a fact; returns its index (None once the cap is reached).
    pub(super) fn fact(&mut self, cap: Cap, line: usize, what: String, via: &str) -> Option<usize> {
        if self.out.facts.len() >= MAX_FACTS {
            return None;
        }
        let site = self.site(line);
        if let Some(i) = self
            .out
            .facts
            .iter()
            .position(|f| f.cap == cap && f.site.line == line && f.what == what)
        {
            return Some(i);
        }
        self.out.facts.push(Fact {
            cap,
            site,
            origin: Origin::Code,
            what,
            via: via.to_string(),
        });
        Some(self.out.facts.len() - 1)
    }

    /// A source: records the fact and returns `v` tainted by it.
    pub(super) fn source(
        &mut self,
        v: Val,
        cap: Cap,
        label: Label,
        line: usize,
        what: String,
    ) -> Val {
        let src = self.fact(cap, line, what, "");
        v.taint(label, src)
    }

    /// A sink: records the fact, then a flow for each taint of `data` that
    /// matters to this kind of sink. Returns the fact's index.
    pub(super) fn sink(
        &mut self,
        cap: Cap,
        kind: Sink,
        line: usize,
        what: String,
        via: &str,
        data: &[&Val],
    ) -> Option<usize> {
        let sink = self.fact(cap, line, what, via)?;
        for v in data {
            for t in v.all_taints() {
                self.flow_from(t, sink, kind);
            }
        }
        Some(sink)
    }

    /// A flow from the source of `t` to the fact `sink`, when `t` matters to `kind`.
    pub(super) fn flow_from(&mut self, t: Taint, sink: usize, kind: Sink) {
        let fk = match (kind, t.label) {
            (Sink::Network, Label::Secret | Label::SecretEnv) => FlowKind::SecretToNetwork,
            (Sink::Exec, Label::Downloaded) => FlowKind::DownloadToExec,
            (Sink::Exec, Label::Decoded) => FlowKind::DecodeToExec,
            _ => return,
        };
        let Some(src) = t.src else { return };
        if src == sink || self.out.flows.len() >= MAX_FACTS {
            return;
        }
        if fk == FlowKind::DecodeToExec {
            // What that decoder decoded now runs.
            for (f, text) in &self.decoded {
                if *f == src
                    && let Some(d) = self.out.derived.iter_mut().find(|d| d.text == *text)
                {
                    d.executed = true;
                }
            }
        }
        let (source, sink) = (self.out.facts[src].clone(), self.out.facts[sink].clone());
        if !self
            .out
            .flows
            .iter()
            .any(|f| f.kind == fk && f.source == source && f.sink == sink)
        {
            self.out.flows.push(Flow {
                kind: fk,
                source,
                sink,
            });
        }
    }

    /// Records a derived string (a decoder's argument or a folded value).
    pub(super) fn derived(&mut self, line: usize, text: &str, how: &str, executed: bool) {
        if text.len() < 4 || text.len() > MAX_TEXT {
            return;
        }
        if let Some(d) = self.out.derived.iter_mut().find(|d| d.text == text) {
            d.executed |= executed;
            return;
        }
        if self.out.derived.len() >= MAX_DERIVED {
            return;
        }
        let site = self.site(line);
        self.out.derived.push(Derived {
            site,
            text: text.to_string(),
            how: how.to_string(),
            executed,
        });
    }

    /// Records the encoded constant a decode fact decoded, as derived.
    pub(super) fn decoded_from(&mut self, fact: Option<usize>, line: usize, text: &str, how: &str) {
        self.derived(line, text, how, false);
        if let Some(f) = fact {
            self.decoded.push((f, text.to_string()));
        }
    }

    /// Records `v` as derived when it was folded from pieces.
    pub(super) fn derived_val(&mut self, line: usize, v: &Val, executed: bool) {
        if let (Some(t), Some(how)) = (&v.text, v.how) {
            let t = t.clone();
            self.derived(line, &t, how, executed);
        }
    }

    /// Taints of a file written earlier in this file, if any.
    pub(super) fn file_taints(&self, path: &str) -> Vec<Taint> {
        let key = norm_path(path);
        self.files.get(&key).cloned().unwrap_or_default()
    }

    /// Marks a file as holding data with `v`'s taints.
    pub(super) fn write_file(&mut self, path: &str, v: &Val) {
        let taints = v.all_taints();
        if taints.is_empty() {
            return;
        }
        let e = self.files.entry(norm_path(path)).or_default();
        for t in taints {
            if !e.contains(&t) {
                e.push(t);
            }
        }
    }

    /// A value read from a file at `path`: a secret read, or file data, plus
    /// whatever was written there earlier.
    pub(super) fn read_path(&mut self, path: &str, line: usize) -> Val {
        let mut v = Val::default();
        if let Some(kind) = secret_path(path) {
            v = self.source(
                v,
                Cap::SecretRead,
                Label::Secret,
                line,
                format!("reads {kind} ({path})"),
            );
        } else {
            v = v.taint(Label::FileData, None);
        }
        for t in self.file_taints(path) {
            v = v.taint(t.label, t.src);
        }
        v
    }

    /// Records what writing to `path` means (persistence, agent config).
    pub(super) fn wrote_path(&mut self, path: &str, line: usize, v: &Val) {
        self.write_file(path, v);
        if let Some(kind) = persist_path(path) {
            self.fact(Cap::Persist, line, format!("writes {kind} ({path})"), "");
            // What goes into a shell start-up file or a crontab runs later: analyse it now.
            if let Some(t) = v.text.clone().filter(|_| shell_startup(path)) {
                let code = if path.contains("cron") {
                    cron_commands(&t)
                } else {
                    t
                };
                self.nested(&code, Lang::Shell, line);
            }
        }
        if agent_path(path) {
            self.fact(
                Cap::AgentConfig,
                line,
                format!("writes agent configuration {path}"),
                "",
            );
        }
    }

    /// Drops the download taint of files whose names appear in a checksum
    /// or signature check (`echo "<sha>  tool" | sha256sum -c -`).
    pub(super) fn verified(&mut self, text: &str) {
        for (path, taints) in self.files.iter_mut() {
            let base = path.rsplit('/').next().unwrap_or(path);
            if !base.is_empty()
                && text
                    .split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                    .any(|w| norm_path(w) == *path || w == base)
            {
                taints.retain(|t| t.label != Label::Downloaded);
            }
        }
    }

    /// Analyses a nested script (constant code handed to an interpreter or
    /// an exec call) at `line`, as part of this file.
    pub(super) fn nested(&mut self, code: &str, lang: Lang, line: usize) {
        if self.depth >= MAX_DEPTH || code.trim().is_empty() {
            return;
        }
        let saved = self.fixed_line.replace(line);
        self.depth += 1;
        super::walk(self, code, lang);
        self.depth -= 1;
        self.fixed_line = saved;
    }

    /// Ends the file: reverse-shell shapes that need two sites.
    pub(super) fn finish(mut self) -> Analysis {
        if let (Some(_), Some(w)) = (self.socket_line, self.shell_wire_line) {
            self.fact(
                Cap::ReverseShell,
                w,
                "wires a shell to a network socket".to_string(),
                "",
            );
        }
        self.out
    }
}

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("static regex"))
}

/// `~`, `$HOME`, `${HOME}`, `/home/x`, `/Users/x` collapse to `~`; `./a` to `a`.
pub(super) fn norm_path(p: &str) -> String {
    let p = p.trim().trim_matches(|c| c == '"' || c == '\'');
    for home in [
        "$HOME",
        "${HOME}",
        "%USERPROFILE%",
        "$env:USERPROFILE",
        "$env:HOME",
    ] {
        if let Some(rest) = p.strip_prefix(home) {
            return format!("~{}", rest.replace('\\', "/"));
        }
    }
    let p = p.strip_prefix("./").unwrap_or(p);
    p.replace('\\', "/")
}

/// Whether a path is a shell start-up file or a crontab (its text is shell).
fn shell_startup(p: &str) -> bool {
    let p = norm_path(p);
    ["rc", "profile", "bash_login", "config.fish", "rc.local"]
        .iter()
        .any(|s| p.ends_with(s))
        || p.contains("cron")
        || p.contains("profile.d/")
}

/// The commands of crontab lines (the schedule fields dropped).
pub(super) fn cron_commands(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fields = if l.trim_start().starts_with('@') {
                1
            } else {
                5
            };
            l.split_whitespace()
                .skip(fields)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What kind of secret a path holds, if it holds one.
pub(super) fn secret_path(p: &str) -> Option<&'static str> {
    static RE: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let table: &[(&str, &str)] = &[
        (r"\.ssh(/|$)", "SSH keys"),
        (r"\.aws(/|$)", "AWS credentials"),
        (
            r"\.netrc|\.git-credentials|\.pgpass|\.npmrc|\.pypirc",
            "stored credentials",
        ),
        (r"\.kube/config", "Kubernetes credentials"),
        (r"\.docker/config\.json", "Docker credentials"),
        (
            r"gcloud|application_default_credentials|\.azure(/|$)",
            "cloud credentials",
        ),
        (r"/etc/shadow|/etc/sudoers", "system password hashes"),
        (
            r"(?i)keychain|login\.keychain|\.gnupg|\.password-store",
            "the keychain",
        ),
        (
            r"(?i)wallet|\.bitcoin|\.ethereum|electrum|exodus|metamask|solana/id\.json",
            "crypto wallets",
        ),
        (
            r"(?i)google/chrome|chromium|mozilla/firefox|brave|microsoft/edge|Login Data|cookies\.sqlite|logins\.json|key4\.db",
            "browser profile data",
        ),
        (r"(^|/)\.env(\.[a-z]+)?$", ".env secrets"),
        (r"id_rsa|id_ed25519|id_ecdsa|\.pem$|\.key$", "private keys"),
        (
            r"(?i)credentials(\.json)?$|secrets?\.(json|ya?ml|toml)$",
            "credentials",
        ),
    ];
    let compiled = RE.get_or_init(|| {
        table
            .iter()
            .map(|(pat, kind)| (Regex::new(pat).expect("static regex"), *kind))
            .collect()
    });
    let p = norm_path(p);
    compiled
        .iter()
        .find(|(r, _)| r.is_match(&p))
        .map(|(_, k)| *k)
}

/// What kind of persistence writing to a path installs, if any.
pub(super) fn persist_path(p: &str) -> Option<&'static str> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &RE,
        r"(?i)(\.bashrc|\.bash_profile|\.zshrc|\.zprofile|\.profile|\.bash_login|config/fish/config\.fish|/etc/profile|/etc/rc\.local|/etc/cron|/var/spool/cron|crontab|LaunchAgents|LaunchDaemons|/etc/systemd|\.config/systemd|\.config/autostart|/etc/init\.d|Start Menu/Programs/Startup|CurrentVersion/Run|powershell/Microsoft\.PowerShell_profile)",
    );
    r.is_match(&norm_path(p)).then_some("a start-up file")
}

/// Whether a path is the agent's own instructions or settings.
pub(super) fn agent_path(p: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &RE,
        r"(?i)((^|/)(CLAUDE|AGENTS|GEMINI)\.md$|(^|/)\.mcp\.json$|\.claude/(settings[^/]*\.json|hooks|commands|agents)|\.cursor/|\.cursorrules|\.codex/config\.toml|\.gemini/settings\.json|\.windsurf|\.continue/|claude_desktop_config\.json)",
    );
    r.is_match(&norm_path(p))
}

/// Whether deleting `p` recursively is destructive (home, `/`, system dirs).
pub(super) fn destroy_path(p: &str) -> bool {
    let p = norm_path(p);
    let p = p.trim_end_matches("/*").trim_end_matches('*');
    let p = if p.len() > 1 {
        p.trim_end_matches('/')
    } else {
        p
    };
    // An empty value is an unknown one (`"${dirs[@]}"`, `$(BUILD_DIR)`),
    // not the root: only a known target counts.
    matches!(
        p,
        "/" | "~"
            | "/etc"
            | "/usr"
            | "/var"
            | "/home"
            | "/bin"
            | "/boot"
            | "/lib"
            | "/opt"
            | "/root"
            | "/System"
            | "/Users"
            | "C:"
            | "C:/"
            | "C:/Windows"
            | "~/Documents"
            | "~/Desktop"
    ) || p.starts_with("/dev/sd")
        || p.starts_with("/dev/nvme")
        || p.starts_with("/dev/disk")
}

/// Whether an environment variable's name says it holds a secret.
pub(super) fn secret_env_name(name: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &RE,
        r"(?i)(api_?key|_key$|^key$|token|secret|passw|credential|_auth$|^auth|private|session_?id|cookie|access_?key|webhook)",
    );
    // An address (`SLACK_WEBHOOK_URL`) is where data goes, not data that leaves.
    let upper = name.to_ascii_uppercase();
    let address = [
        "_URL",
        "_URI",
        "_HOST",
        "_ENDPOINT",
        "_PATH",
        "_FILE",
        "_DIR",
    ]
    .iter()
    .any(|s| upper.ends_with(s));
    r.is_match(name) && !address && !matches!(name, "PWD" | "OLDPWD" | "SSH_AUTH_SOCK" | "KEYBOARD")
}

/// Whether a program name is a shell or an interpreter, and which language it reads.
pub(super) fn interpreter(prog: &str) -> Option<Lang> {
    let base = prog
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(prog)
        .trim_end_matches(".exe");
    let base = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish" | "ash" | "busybox" => Some(Lang::Shell),
        "python" | "pypy" => Some(Lang::Python),
        "node" | "nodejs" | "deno" | "bun" => Some(Lang::JavaScript),
        "ruby" => Some(Lang::Ruby),
        "perl" => Some(Lang::Perl),
        "pwsh" | "powershell" => Some(Lang::PowerShell),
        _ => None,
    }
}

/// Whether a string looks like a URL we would fetch from or send to.
pub(super) fn is_url(s: &str) -> bool {
    let s = s.trim_start_matches(['"', '\'']);
    s.starts_with("http://") || s.starts_with("https://") || s.starts_with("ftp://")
}

/// A short description of a URL-ish value for a fact's sentence.
pub(super) fn describe(v: &Val) -> String {
    match &v.text {
        Some(t) if t.len() <= 200 => t.clone(),
        Some(t) => format!(
            "{}…",
            &t[..t.char_indices().nth(200).map(|(i, _)| i).unwrap_or(t.len())]
        ),
        None => "a computed address".to_string(),
    }
}

/// "FileData and Secret" style list of what a value carries.
pub(super) fn labels(vals: &[&Val]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for v in vals {
        for t in v.all_taints() {
            let n = match t.label {
                Label::Secret => "secret data",
                Label::SecretEnv => "a secret environment variable",
                Label::Downloaded => "downloaded data",
                Label::Decoded => "decoded data",
                Label::FileData => "file contents",
            };
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    if names.is_empty() {
        "data".to_string()
    } else {
        names.join(" and ")
    }
}
