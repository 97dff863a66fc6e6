//! The behaviour pipeline of one skill: every text file is normalised
//! (look-alikes folded, invisible characters dropped), scripts go to the
//! code analyser, documents to the instruction analyser (whose code blocks
//! go to the code analyser too), encoded payloads and strings the code
//! assembles are decoded and analysed in turn (bounded depth), flows are
//! linked across files, and `judge` turns it all into findings.

use super::facts::{Analysis, Cap, Fact, Flow, FlowKind, Origin, Site};
use super::judge::{self, Intent};
use super::scan::{self, TextKind};
use super::urls::urls_in;
use super::{Finding, Severity, allow, code, decode, instruct};
use crate::front::{self, Fences};
use crate::redact::Redactor;

/// One text file of the skill, as read (NULs already removed).
pub(crate) struct TextFile<'a> {
    pub rel: &'a str,
    pub text: &'a str,
    pub kind: TextKind,
}

/// How deep decoded payloads are followed (a base64 of a hex of a command
/// is depth 2).
const MAX_DEPTH: usize = 3;
/// How many decoded or assembled strings one skill may add to the work.
const MAX_DERIVED: usize = 256;

struct Work<'r> {
    all: Analysis,
    /// Line-rule findings on decoded text, placed at the payload's line.
    decoded_findings: Vec<Finding>,
    derived_left: usize,
    redactor: &'r Redactor,
}

/// The behaviour of one skill, built file by file (so a screen holds facts,
/// never every file's text at once) and judged at the end.
pub(crate) struct Behaviour<'r> {
    w: Work<'r>,
    runs: Vec<instruct::Run>,
    /// Per script: its path and the names it imports, sources or runs
    /// (`from reporter import send` → `reporter`), to link files.
    uses: Vec<(String, Vec<String>)>,
    /// Per script: the URLs it spells out (at most 64), for a send whose
    /// address the code computes (`f"{API}/repos/…"`).
    urls: Vec<(String, Vec<String>)>,
}

impl<'r> Behaviour<'r> {
    pub(crate) fn new(redactor: &'r Redactor) -> Self {
        Behaviour {
            w: Work {
                all: Analysis::default(),
                decoded_findings: Vec::new(),
                derived_left: MAX_DERIVED,
                redactor,
            },
            runs: Vec::new(),
            uses: Vec::new(),
            urls: Vec::new(),
        }
    }

    /// Analyses one text file of the skill (NULs already removed).
    pub(crate) fn file(&mut self, f: TextFile) {
        let text = decode::normalize(f.text);
        let mut a = Analysis::default();
        // Strings the code assembles, with the origin of their code.
        let mut derived = Vec::new();
        // Per line: the document only quotes an attack there.
        let mut quoted = Vec::new();
        match f.kind {
            TextKind::Doc => {
                let doc = instruct::analyze_doc(f.rel, &text);
                a.extend(doc.analysis);
                for span in doc.spans {
                    let info = if span.inline { "" } else { span.info.as_str() };
                    if let Some(lang) = code::lang_of_fence(info, &span.text) {
                        let mut c = code::analyze(f.rel, &span.text, lang, span.first_line);
                        relabel(&mut c, span.origin);
                        derived.extend(
                            std::mem::take(&mut c.derived)
                                .into_iter()
                                .map(|d| (d, span.origin)),
                        );
                        a.extend(c);
                    }
                }
                self.runs.extend(doc.runs);
                quoted = instruct::quoted_lines(&text);
            }
            TextKind::Code => {
                if let Some(lang) = code::lang_of_file(f.rel, &text) {
                    a.extend(code::analyze(f.rel, &text, lang, 1));
                    self.uses.push((f.rel.to_string(), used_names(&text)));
                    let urls = urls_in(&text).take(64).map(str::to_string).collect();
                    self.urls.push((f.rel.to_string(), urls));
                }
                a.extend(embedded_commands(f.rel, &text));
                a.extend(fetch_and_run(f.rel, &text, &a));
            }
        }
        derived.extend(
            std::mem::take(&mut a.derived)
                .into_iter()
                .map(|d| (d, Origin::Code)),
        );
        self.w.all.extend(a);
        // The origin of text found at a 1-based line: quoted or taken literally.
        let origin_at = |line: usize| {
            if quoted.get(line.wrapping_sub(1)).copied().unwrap_or(false) {
                Origin::Quoted
            } else {
                Origin::Code
            }
        };
        for p in decode::payloads(&text) {
            let origin = origin_at(p.line);
            decoded(
                &mut self.w,
                f.rel,
                p.line,
                &p.decoded,
                &p.encoding,
                false,
                origin,
                1,
            );
        }
        for (d, origin) in derived {
            follow(&mut self.w, d, origin, 1);
        }
        // `printf "a\ncurl … | sh\n" > hook`: a command glued to an escape
        // sequence, as the file it writes will hold it.
        let mut left = 64;
        for (n, line) in text.lines().enumerate() {
            if left == 0 {
                break;
            }
            if line.contains("\\n") && line.contains("://") {
                left -= 1;
                let unescaped = line
                    .replace("\\n", "\n")
                    .replace("\\t", " ")
                    .replace("\\r", "");
                let origin = origin_at(n + 1);
                decoded(
                    &mut self.w,
                    f.rel,
                    n + 1,
                    &unescaped,
                    "escape sequences",
                    false,
                    origin,
                    1,
                );
            }
        }
    }

    /// Links flows across files and judges everything against what the
    /// skill says it is for (SKILL.md's name and description).
    /// `line_findings` are the line rules' findings of the same skill: a
    /// capability the description accounts for is at most `warn` there too.
    pub(crate) fn finish(mut self, skill_md: &str, line_findings: &mut [Finding]) -> Vec<Finding> {
        let (name, description) = front_matter(skill_md);
        let intent = Intent::new(&name, &description);
        judge::temper(line_findings, &intent);
        // A script naming a credential store (the line rules see
        // `"~/.aws/credentials"` in a list the code model cannot follow) is
        // a secret source for linking flows across files — a source only,
        // not a finding of its own (the line rule is that).
        let named: Vec<Fact> = line_findings
            .iter()
            .filter(|f| {
                f.category == "credential_access"
                    && f.rule != "cred-dotenv"
                    && f.severity >= Severity::Warn
                    && self.uses.iter().any(|(rel, _)| *rel == f.file)
            })
            .map(|f| Fact {
                cap: Cap::SecretRead,
                site: Site {
                    file: f.file.clone(),
                    line: f.line,
                    text: f.excerpt.clone(),
                },
                origin: Origin::Code,
                what: format!("names a credential store ({})", f.rule),
                via: String::new(),
            })
            .collect();
        cross_file_flows(&mut self.w.all, &self.uses, &named);
        instructed_runs(&mut self.w.all, &self.runs);
        official_installers(&mut self.w.all);
        let mut out = judge::judge(&self.w.all, &intent, &self.urls, self.w.redactor);
        out.append(&mut self.w.decoded_findings);
        out
    }
}

/// A string the code assembled or handed to a decoder: decode it if it is
/// encoded (or reversed), then analyse it as code of its own.
fn follow(w: &mut Work, d: super::facts::Derived, origin: Origin, depth: usize) {
    if depth > MAX_DEPTH || w.derived_left == 0 {
        return;
    }
    w.derived_left -= 1;
    let rel = d.site.file.clone();
    if let Some((text, enc)) = decode::decode_blob(&d.text) {
        let how = format!("{enc}, {}", d.how);
        decoded(w, &rel, d.site.line, &text, &how, d.executed, origin, depth);
    } else if let Some(text) = decode::reversed_if_command(&d.text) {
        let how = format!("reversed, {}", d.how);
        decoded(w, &rel, d.site.line, &text, &how, d.executed, origin, depth);
    } else {
        decoded(
            w,
            &rel,
            d.site.line,
            &d.text,
            &d.how,
            d.executed,
            origin,
            depth,
        );
    }
}

/// Analyses decoded or assembled text found at `rel:line`: its capabilities
/// and line-rule findings are placed at that line and cite how it was
/// reached; when the text is executed, anything dangerous in it is a
/// decode-to-exec flow.
#[allow(clippy::too_many_arguments)]
fn decoded(
    w: &mut Work,
    rel: &str,
    line: usize,
    text: &str,
    how: &str,
    executed: bool,
    origin: Origin,
    depth: usize,
) {
    if depth > MAX_DEPTH || text.trim().is_empty() {
        return;
    }
    let text = decode::normalize(text).into_owned();
    // The line rules, literally, at the payload's line.
    let mut found = Vec::new();
    scan::scan_text(rel, &text, TextKind::Code, w.redactor, &mut found);
    for mut f in found {
        f.line = line;
        if origin == Origin::Quoted && f.severity == Severity::Fail {
            f.severity = Severity::Warn;
        }
        w.decoded_findings.push(f);
    }
    let lang = code::lang_of_fence("", &text).unwrap_or(code::Lang::Shell);
    let mut a = code::analyze(rel, &text, lang, line);
    relabel(&mut a, origin);
    for fact in &mut a.facts {
        fact.site.line = line;
        if fact.via.is_empty() {
            fact.via = how.to_string();
        }
    }
    for flow in &mut a.flows {
        for end in [&mut flow.source, &mut flow.sink] {
            end.site.line = line;
            if end.via.is_empty() {
                end.via = how.to_string();
            }
        }
    }
    if executed && let Some(sink) = a.facts.iter().find(|f| dangerous(f.cap)).cloned() {
        let source = Fact {
            cap: Cap::Decode,
            site: Site {
                file: rel.to_string(),
                line,
                text: first_line(&text),
            },
            origin: sink.origin,
            what: format!("decodes ({how}) and runs it"),
            via: how.to_string(),
        };
        a.flows.push(Flow {
            kind: FlowKind::DecodeToExec,
            source,
            sink,
        });
    }
    let derived = std::mem::take(&mut a.derived);
    w.all.extend(a);
    for d in derived {
        follow(w, d, origin, depth + 1);
    }
}

fn first_line(text: &str) -> String {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string()
}

/// Capabilities that matter on their own.
fn dangerous(cap: Cap) -> bool {
    !matches!(cap, Cap::Fetch | Cap::SecretEnv | Cap::Decode | Cap::Spawn)
}

/// Code blocks of a document: what the document says about them (run it,
/// or it is only quoted) is their origin.
fn relabel(a: &mut Analysis, origin: Origin) {
    if origin == Origin::Code {
        return;
    }
    for f in &mut a.facts {
        f.origin = origin;
    }
    for flow in &mut a.flows {
        flow.source.origin = origin;
        flow.sink.origin = origin;
    }
}

/// A secret read by one script and sent by another script linked to it
/// (directly or through others: `switch.py` imports `collector` and
/// `reporter`) is a flow across files; so is a secret read and a send in
/// the same script the code analyser could not link value by value.
fn cross_file_flows(all: &mut Analysis, uses: &[(String, Vec<String>)], named: &[Fact]) {
    let linked_to_flow = |fact: &Fact, flows: &[Flow]| {
        flows
            .iter()
            .any(|f| f.kind == FlowKind::SecretToNetwork && (f.source == *fact || f.sink == *fact))
    };
    let sources: Vec<&Fact> = all
        .facts
        .iter()
        .filter(|f| f.cap == Cap::SecretRead && f.origin == Origin::Code)
        .chain(named)
        .filter(|f| !linked_to_flow(f, &all.flows))
        .collect();
    let sinks: Vec<&Fact> = all
        .facts
        .iter()
        .filter(|f| f.cap == Cap::Egress && f.origin == Origin::Code)
        .collect();
    if sources.is_empty() || sinks.is_empty() {
        return;
    }
    let group = components(uses);
    let same = |a: &str, b: &str| a == b || (group(a).is_some() && group(a) == group(b));
    let mut new = Vec::new();
    for s in &sources {
        if let Some(sink) = sinks.iter().find(|k| same(&s.site.file, &k.site.file)) {
            new.push(Flow {
                kind: FlowKind::SecretToNetwork,
                source: (*s).clone(),
                sink: (*sink).clone(),
            });
        }
    }
    all.flows.extend(new);
}

/// The connected groups of scripts (an edge where one names the other's
/// stem in an import, `source` or run): a file's group number.
fn components(uses: &[(String, Vec<String>)]) -> impl Fn(&str) -> Option<usize> + '_ {
    let stem = |p: &str| {
        let base = p.rsplit('/').next().unwrap_or(p);
        base.split('.').next().unwrap_or(base).to_string()
    };
    let n = uses.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, (_, names)) in uses.iter().enumerate() {
        for (j, (other, _)) in uses.iter().enumerate() {
            let st = stem(other);
            if i != j && st.len() >= 3 && names.contains(&st) {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let groups: Vec<usize> = (0..n).map(|i| root(&mut parent, i)).collect();
    move |file: &str| uses.iter().position(|(f, _)| f == file).map(|i| groups[i])
}

/// The names a script imports, sources or runs, as file stems.
fn used_names(text: &str) -> Vec<String> {
    static USES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?m)(?:^\s*(?:from|import)\s+\.?([\w.]+)|\brequire(?:_relative)?\s*\(?\s*['"]\.{0,2}/?([\w./-]+)['"]|\bfrom\s+['"]\.{0,2}/?([\w./-]+)['"]|^\s*(?:source|\.)\s+["']?([\w./$-]+)|\b(?:bash|sh|python3?|node|ruby|perl|pwsh|\.)\s+["']?(?:\./)?([\w./-]+\.\w+)|\b(?:do|use|require)\s+['"]?([\w./:-]+))"#,
        )
        .expect("the uses pattern compiles")
    });
    let mut out: Vec<String> = USES
        .captures_iter(text)
        .filter_map(|c| c.iter().skip(1).flatten().next())
        .map(|m| {
            let p = m.as_str();
            let base = p.rsplit('/').next().unwrap_or(p);
            // `pkg.mod` (Python) and `file.py` both name a stem.
            let first = base.split('.').next().unwrap_or(base);
            if p.ends_with(".py") || p.ends_with(".sh") || p.ends_with(".js") || !p.contains('.') {
                first.to_string()
            } else {
                base.rsplit('.').next().unwrap_or(base).to_string()
            }
        })
        .collect();
    out.sort();
    out.dedup();
    out.truncate(256);
    out
}

/// A script that downloads and runs computed code, where the code model
/// could not tie the two together value by value (callbacks, streams,
/// promise chains it does not follow): a download-to-exec flow from the
/// first fetch to the first such run, when the script spells out a URL and
/// has no such flow already.
fn fetch_and_run(rel: &str, text: &str, a: &Analysis) -> Analysis {
    static FETCH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?i)\bfetch\s*\(|\bhttps?\.(?:get|request)\s*\(|\brequire\s*\(\s*["']https?["']\s*\)|\brequests\.get\s*\(|\burlopen\s*\(|\baxios(?:\.get)?\s*\(|\bURI\.open\b|\bNet::HTTP\b|\bLWP::|\bDownloadString\b|\bInvoke-WebRequest\b|\biwr\s"#,
        )
        .expect("the fetch pattern compiles")
    });
    static RUN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"\beval\s*\(\s*[^"'`)\s]|\bnew\s+Function\s*\(\s*[^"'`)\s]|\bvm\.runIn\w+\s*\(\s*[^"'`)\s]|\bspawn\s*\(\s*["'](?:/bin/)?(?:ba|z|da)?sh["']|\bexec\s*\(\s*[^"'`)\s]|(?i:\bInvoke-Expression\b|\biex\b)|\bpipe\s*\(\s*\w+\s*\(\s*["'](?:/bin/)?(?:ba|z)?sh["']"#,
        )
        .expect("the run pattern compiles")
    });
    let mut out = Analysis::default();
    if !text.contains("http") || a.flows.iter().any(|f| f.kind == FlowKind::DownloadToExec) {
        return out;
    }
    let at = |re: &regex::Regex| {
        text.lines()
            .enumerate()
            .take(100_000)
            .find(|(_, l)| re.is_match(l))
            .map(|(n, l)| (n + 1, l.to_string()))
    };
    if let (Some((fl, ft)), Some((rl, rt))) = (at(&FETCH), at(&RUN)) {
        let fact = |cap, line, text: String, what: &str| Fact {
            cap,
            site: Site {
                file: rel.to_string(),
                line,
                text,
            },
            origin: Origin::Code,
            what: what.to_string(),
            via: String::new(),
        };
        out.flows.push(Flow {
            kind: FlowKind::DownloadToExec,
            source: fact(Cap::Fetch, fl, ft, "downloads"),
            sink: fact(Cap::DynamicExec, rl, rt, "runs computed code"),
        });
    }
    out
}

/// Shell commands a script or config keeps in a string literal (a hook's
/// `"command": "curl … --data-binary @- https://…"`, an MCP server's
/// args): analysed as the shell that will run them.
fn embedded_commands(rel: &str, text: &str) -> Analysis {
    static EMBEDDED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"["']\s*((?:sudo\s+)?(?:curl|wget|nc|ncat|bash|sh|powershell|pwsh|iwr|irm|python3?|node)\s[^"'\n]{4,600}?)\\?["']"#,
        )
        .expect("the embedded-command pattern compiles")
    });
    let mut a = Analysis::default();
    for (n, line) in text.lines().enumerate().take(100_000) {
        if !line.contains("://") && !line.contains("/dev/tcp") {
            continue;
        }
        for c in EMBEDDED.captures_iter(line).take(8) {
            let cmd = c.get(1).map_or("", |m| m.as_str());
            let mut inner = code::analyze(rel, cmd, code::Lang::Shell, n + 1);
            inner.derived.clear();
            // Only what a command does matters here, not its flows' labels.
            for f in &mut inner.facts {
                f.site.text = line.to_string();
            }
            a.facts
                .extend(inner.facts.into_iter().filter(|f| dangerous(f.cap)));
            a.flows.extend(inner.flows);
        }
    }
    a
}

/// "Run scripts/x.sh": the script's dangerous capabilities are the agent's.
fn instructed_runs(all: &mut Analysis, runs: &[instruct::Run]) {
    let mut new = Vec::new();
    for run in runs {
        let path = run.path.trim_start_matches("./");
        let Some(sink) = all
            .facts
            .iter()
            .find(|f| f.origin == Origin::Code && f.site.file == path && dangerous(f.cap))
        else {
            continue;
        };
        new.push(Flow {
            kind: FlowKind::InstructRun,
            source: Fact {
                cap: Cap::Spawn,
                site: run.site.clone(),
                origin: Origin::Instruction,
                what: format!("tells the agent to run {path}"),
                via: String::new(),
            },
            sink: sink.clone(),
        });
    }
    all.flows.extend(new);
}

/// A download-and-run of a vendor's documented installer URL (allow.rs,
/// exact URLs only) is not a flow: every URL at both ends must be on the
/// list.
fn official_installers(all: &mut Analysis) {
    let official = |text: &str| {
        let urls: Vec<&str> = urls_in(text).collect();
        !urls.is_empty() && urls.iter().all(|u| allow::official_installer(u).is_some())
    };
    all.facts
        .retain(|f| !(matches!(f.cap, Cap::DynamicExec | Cap::Fetch) && official(&f.site.text)));
    all.flows.retain(|f| {
        if f.kind != FlowKind::DownloadToExec {
            return true;
        }
        let urls: Vec<&str> = [&f.source.site.text, &f.sink.site.text]
            .iter()
            .flat_map(|t| urls_in(t))
            .collect();
        urls.is_empty() || !urls.iter().all(|u| allow::official_installer(u).is_some())
    });
}

/// `name` and `description` of SKILL.md's front matter (a plain or quoted
/// scalar, or a folded/literal block), empty when absent.
pub(crate) fn front_matter(skill_md: &str) -> (String, String) {
    // An unclosed front matter runs to the end of the file.
    let Some(split) = front::split(skill_md, Fences::Loose) else {
        return (String::new(), String::new());
    };
    // [name, description]; `block` is the one a folded block continues.
    let mut values = [String::new(), String::new()];
    let mut block: Option<usize> = None;
    for (_, line) in split.lines() {
        if let Some(i) = block
            && (line.starts_with(' ') || line.starts_with('\t') || line.trim().is_empty())
        {
            values[i].push(' ');
            values[i].push_str(line.trim());
            continue;
        }
        block = None;
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let i = match key.trim() {
            "name" => 0,
            "description" => 1,
            _ => continue,
        };
        let v = value.trim();
        if v.starts_with('>') || v.starts_with('|') || v.is_empty() {
            block = Some(i);
        } else {
            values[i] = v.trim_matches(|c| c == '"' || c == '\'').to_string();
        }
    }
    let [name, description] = values;
    (name, description)
}
