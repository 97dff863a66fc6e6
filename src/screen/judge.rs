//! From behaviour to verdict: the facts and flows every analyser found in a
//! skill become findings.
//!
//! - A **flow** (a secret reaching the network, downloaded or decoded
//!   content executed) is `fail`.
//! - A **dangerous capability** is `fail` when the skill's name and
//!   description do not account for it (a changelog writer that reads
//!   `~/.aws`), `warn` when they do: the reviewer should still look.
//! - Some capabilities have no honest explanation (a reverse shell, hiding
//!   actions from the user, overriding the agent's instructions): always
//!   `fail`.
//! - Text that merely quotes an attack (`Origin::Quoted`) goes from `fail`
//!   to `warn` at most. Nothing else softens a finding: the author chooses
//!   every word of a skill, so wording can never clear one.

use super::facts::{Analysis, Cap, Fact, Flow, FlowKind, Origin};
use super::urls::urls_in;
use super::{Finding, Loc, Severity};
use crate::redact::Redactor;

/// What the skill says it is for: its name and description, lowercased.
#[derive(Debug, Clone, Default)]
pub(crate) struct Intent {
    text: String,
}

impl Intent {
    pub(crate) fn new(name: &str, description: &str) -> Intent {
        let mut text = format!("{name} {description}").to_lowercase();
        // `log-shipper` and `log_shipper` read as words.
        text = text.replace(['-', '_', '/', '.'], " ");
        Intent { text }
    }

    /// True when the name or description accounts for `cap`: one of the
    /// cap's words appears as a word (or a word's start: "uploads",
    /// "credentials").
    pub(crate) fn explains(&self, cap: Cap) -> bool {
        let words: &[&str] = match cap {
            Cap::Egress => &[
                "upload",
                "send",
                "post",
                "publish",
                "sync",
                "backup",
                "back up",
                "share",
                "notif",
                "webhook",
                "slack",
                "discord",
                "teams",
                "telegram",
                "email",
                "mail",
                "deploy",
                "push",
                "api",
                "http",
                "rest",
                "endpoint",
                "server",
                "cloud",
                "s3",
                "bucket",
                "remote",
                "ship",
                "forward",
                "submit",
                "report to",
                "gist",
                "paste",
                "transfer",
                "client",
                "request",
                "telemetry",
                "graphql",
                "ftp",
                "scp",
                "rsync",
            ],
            Cap::Fetch => &[""],
            Cap::SecretRead => &[
                "credential",
                "secret",
                "ssh",
                "aws",
                "token",
                "password",
                "keychain",
                "vault",
                "wallet",
                "auth",
                "login",
                "certificate",
                "gpg",
                "kube",
                "cookie",
                "dotenv",
                "env",
                "keys",
                "key rotation",
                "key management",
                "1password",
                "bitwarden",
            ],
            Cap::SecretEnv => &[""],
            Cap::DynamicExec => &[
                "install",
                "setup",
                "set up",
                "bootstrap",
                "run",
                "execut",
                "eval",
                "repl",
                "shell",
                "interpret",
                "plugin",
                "script",
                "calculat",
                "expression",
                "sandbox",
                "notebook",
                "loader",
                "load",
            ],
            Cap::Decode | Cap::Spawn => &[""],
            // Words that name persistence itself, not its topic ("startup
            // apps", "your profile"): a skill that installs a cron job says so.
            Cap::Persist => &[
                "cron",
                "schedul",
                "login item",
                "daemon",
                "service",
                "systemd",
                "launchd",
                "launch agent",
                "launchagent",
                "autostart",
                "auto start",
                "bashrc",
                "zshrc",
                "shell config",
                "shell profile",
                "rc file",
                "shell hook",
            ],
            Cap::AgentConfig => &[
                "claude",
                "agents md",
                "agent config",
                "settings",
                "mcp",
                "hook",
                "cursor",
                "codex",
                "gemini",
                "copilot",
                "instruction file",
                "memory file",
            ],
            // Deleting the home folder or the system has no honest reason.
            Cap::Destroy | Cap::ReverseShell | Cap::Conceal | Cap::Override => &[],
        };
        words.iter().any(|w| {
            w.is_empty()
                || self
                    .text
                    .match_indices(w)
                    .any(|(at, _)| at == 0 || !self.text.as_bytes()[at - 1].is_ascii_alphanumeric())
        })
    }
}

impl Intent {
    /// True when the name or description names the service a URL in `text`
    /// belongs to: `api.linear.app` for "Linear issues", `hooks.slack.com`
    /// for "Slack". The service is the host's label before its public
    /// suffix (`linear` of `api.linear.app`), at least 3 characters.
    pub(crate) fn names_host_of(&self, text: &str) -> bool {
        urls_in(text).any(|u| {
            let host = u.split("://").nth(1).unwrap_or("");
            let host = host.split(['/', ':', '?', '#']).next().unwrap_or("");
            let labels: Vec<&str> = host.split('.').collect();
            if labels.len() < 2 {
                return false;
            }
            // `example.co.uk`: the label before a two-letter country code
            // and a short second level.
            let mut i = labels.len() - 2;
            if i > 0 && labels[labels.len() - 1].len() == 2 && labels[i].len() <= 3 {
                i -= 1;
            }
            let service = labels[i].to_ascii_lowercase();
            service.len() >= 3
                && self.text.match_indices(&service).any(|(at, _)| {
                    let before = at == 0 || !self.text.as_bytes()[at - 1].is_ascii_alphanumeric();
                    let end = at + service.len();
                    let after = end >= self.text.len()
                        || !self.text.as_bytes()[end].is_ascii_alphanumeric();
                    before && after
                })
        })
    }
}

/// Judges one skill's behaviour into findings.
///
/// `urls` are the URLs each script spells out: a send to an address the code
/// computes is explained when every URL of its script belongs to a service
/// the description names (`API = "https://api.github.com"` in a GitHub
/// triage skill).
pub(crate) fn judge(
    a: &Analysis,
    intent: &Intent,
    urls: &[(String, Vec<String>)],
    redactor: &Redactor,
) -> Vec<Finding> {
    let explained_by_file = |fact: &Fact| {
        fact.cap == Cap::Egress
            && urls.iter().any(|(file, list)| {
                *file == fact.site.file
                    && !list.is_empty()
                    && list.iter().all(|u| intent.names_host_of(u))
            })
    };
    let mut out = Vec::new();
    for flow in &a.flows {
        let mut f = flow_finding(flow, redactor);
        // Telling the agent to run a script is as bad as what the script
        // does, as judged against the description.
        if flow.kind == FlowKind::InstructRun {
            match fact_finding(&flow.sink, intent, explained_by_file(&flow.sink), redactor) {
                Some(sink) => f.severity = f.severity.min(sink.severity),
                None => continue,
            }
        }
        out.push(f);
    }
    for fact in &a.facts {
        if let Some(f) = fact_finding(fact, intent, explained_by_file(fact), redactor) {
            out.push(f);
        }
    }
    out
}

/// The line rules' findings of capabilities a description can account for
/// (persistence, agent settings, destruction, reading credentials): at most
/// `warn` when the name and description say the skill does that. Flows,
/// remote code execution, obfuscation, injection, destruction, reverse
/// shells and switching permission prompts off are never tempered.
pub(crate) fn temper(findings: &mut [Finding], intent: &Intent) {
    for f in findings {
        let cap = match f.category {
            // Turning the host's permission prompts off is never a
            // skill's business, whatever it says it is for.
            "agent_config_tampering" if f.rule == "agent-skip-permissions" => continue,
            "persistence" => Cap::Persist,
            "agent_config_tampering" => Cap::AgentConfig,
            "credential_access" => Cap::SecretRead,
            _ => continue,
        };
        if f.severity == Severity::Fail && f.sink.is_none() && intent.explains(cap) {
            f.severity = Severity::Warn;
        }
    }
}

/// A flow's finding: at the sink, citing both ends.
fn flow_finding(flow: &Flow, redactor: &Redactor) -> Finding {
    let (category, why) = match flow.kind {
        FlowKind::SecretToNetwork => (
            "exfiltration",
            "A secret is read and sent off the machine: that is exfiltration, whatever the skill calls it.",
        ),
        FlowKind::DownloadToExec => (
            "remote_code_execution",
            "Runs what it downloads: whatever the server sends runs unseen, and can change at any time.",
        ),
        FlowKind::DecodeToExec => (
            "obfuscation",
            "Decodes a hidden payload and runs it: the reviewer never sees the real command.",
        ),
        FlowKind::InstructRun => (
            "remote_code_execution",
            "Tells the agent to run a script of the skill that does something dangerous.",
        ),
    };
    let quoted = flow.source.origin == Origin::Quoted && flow.sink.origin == Origin::Quoted;
    let sink = &flow.sink.site;
    Finding {
        rule: flow.kind.as_str(),
        category,
        severity: if quoted {
            Severity::Warn
        } else {
            Severity::Fail
        },
        file: sink.file.clone(),
        line: sink.line,
        excerpt: excerpt(&flow.sink, redactor),
        why,
        source: Some(loc(&flow.source, redactor)),
        sink: Some(loc(&flow.sink, redactor)),
    }
}

fn loc(fact: &Fact, redactor: &Redactor) -> Loc {
    Loc {
        file: fact.site.file.clone(),
        line: fact.site.line,
        excerpt: excerpt(fact, redactor),
    }
}

fn excerpt(fact: &Fact, redactor: &Redactor) -> String {
    let text = if fact.via.is_empty() {
        fact.site.text.clone()
    } else {
        format!("{} (decoded: {})", fact.site.text.trim(), fact.via)
    };
    super::scan::excerpt(&text, 0, redactor)
}

/// A capability's finding, or none for the capabilities that are normal
/// (fetching, decoding, reading one named variable, spawning a fixed
/// command): those only matter in a flow.
fn fact_finding(
    fact: &Fact,
    intent: &Intent,
    by_file: bool,
    redactor: &Redactor,
) -> Option<Finding> {
    use Severity::{Fail, Warn};
    let explained = by_file
        || intent.explains(fact.cap)
        || (fact.cap == Cap::Egress
            && (intent.names_host_of(&fact.site.text) || intent.names_host_of(&fact.what)));
    // (rule if explained, rule if not, category, severity if explained, if not, why)
    let (rule, category, severity, why): (&'static str, &'static str, Severity, &'static str) =
        match (fact.cap, explained) {
            (Cap::Fetch | Cap::SecretEnv | Cap::Decode | Cap::Spawn, _) => return None,
            (Cap::ReverseShell, _) => (
                "cap-reverse-shell",
                "reverse_shell",
                Fail,
                "Wires a shell to a network connection: a remote stranger gets a command line.",
            ),
            (Cap::Conceal, _) => (
                "cap-conceal",
                "prompt_injection",
                Fail,
                "Tells the agent to hide what it does from the user.",
            ),
            (Cap::Override, _) => (
                "cap-instruction-override",
                "prompt_injection",
                Fail,
                "Tries to override the agent's instructions or role.",
            ),
            (Cap::Egress, true) => (
                "cap-network-egress",
                "exfiltration",
                Warn,
                "Sends data off the machine, as the description says; check what and where.",
            ),
            (Cap::Egress, false) => (
                "cap-network-egress-unexplained",
                "exfiltration",
                Fail,
                "Sends data off the machine though its name and description never say so.",
            ),
            (Cap::SecretRead, true) => (
                "cap-secret-read",
                "credential_access",
                Warn,
                "Reads credentials or secrets, as the description says; check where they go.",
            ),
            (Cap::SecretRead, false) => (
                "cap-secret-read-unexplained",
                "credential_access",
                Fail,
                "Reads credentials or secrets its name and description do not account for.",
            ),
            (Cap::DynamicExec, true) => (
                "cap-dynamic-exec",
                "remote_code_execution",
                Warn,
                "Runs code it builds or receives at run time rather than a fixed command.",
            ),
            (Cap::DynamicExec, false) => (
                "cap-dynamic-exec-unexplained",
                "remote_code_execution",
                Warn,
                "Runs code built at run time (eval, exec, a shell of a computed string) that the description does not explain.",
            ),
            (Cap::Persist, true) => (
                "cap-persistence",
                "persistence",
                Warn,
                "Installs something that outlives the session, as the description says.",
            ),
            (Cap::Persist, false) => (
                "cap-persistence-unexplained",
                "persistence",
                Fail,
                "Installs something that keeps running after the skill is gone, unannounced.",
            ),
            (Cap::AgentConfig, true) => (
                "cap-agent-config",
                "agent_config_tampering",
                Warn,
                "Changes the agent's own instructions or settings, as the description says.",
            ),
            (Cap::AgentConfig, false) => (
                "cap-agent-config-unexplained",
                "agent_config_tampering",
                Fail,
                "Rewrites the agent's own instructions or settings, unannounced.",
            ),
            (Cap::Destroy, _) => (
                "cap-destruction",
                "destructive",
                Fail,
                "Deletes or overwrites outside the project: the home folder, the system, a disk.",
            ),
        };
    // Text that merely quotes caps at warn; so does an instruction that
    // has the agent show the change and get the user's approval first (the
    // user then sees it, which is the protection a screen exists for).
    let consented = fact.origin == Origin::Instruction
        && matches!(fact.cap, Cap::Persist | Cap::AgentConfig)
        && asks_consent(&fact.site.text);
    let severity = if fact.origin == Origin::Quoted || consented {
        severity.min(Warn)
    } else {
        severity
    };
    Some(Finding {
        rule,
        category,
        severity,
        file: fact.site.file.clone(),
        line: fact.site.line,
        excerpt: excerpt(fact, redactor),
        why,
        source: None,
        sink: None,
    })
}

/// The sentence has the agent ask the user before acting.
fn asks_consent(text: &str) -> bool {
    static CONSENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(?:after\s+(?:showing|confirming|asking)|(?:ask|asking)\s+(?:the\s+)?user\s+(?:first|before|for\s+(?:approval|permission|confirmation))|(?:getting|get|with)\s+(?:the\s+user's\s+)?(?:approval|consent|permission|confirmation)|once\s+the\s+user\s+(?:agrees|approves|confirms)|if\s+the\s+user\s+(?:agrees|approves|confirms)|after\s+the\s+user\s+(?:agrees|approves|confirms))\b",
        )
        .expect("the consent pattern compiles")
    });
    CONSENT.is_match(text)
}
