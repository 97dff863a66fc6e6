//! Phrases and shell-line shapes the instruction reader looks for:
//! concealment, overrides, persistence and agent-settings wording, archive
//! passwords (`phrases`), and what one shell line of a fenced block does as
//! far as the prose around it cares (`command_shape`).

use super::verbs::{HOST, URL};
use crate::screen::facts::Cap;
use crate::screen::rules::lowered_regex;
use regex::bytes::Regex;
use std::sync::LazyLock;

static CONCEAL: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:do\s+not|don't|dont|never|must\s+not)\s+(?:mention|tell|reveal|inform|notify|alert|disclose|explain)\b|\b(?:do\s+not|don't|dont|never)\s+(?:show|display|log|report|print)\s+(?:this|it|these|them|that|the\s+command|what\s+you|this\s+step|any\s+of\s+this)\b|\b(?:silently|secretly|covertly|stealthily|surreptitiously)\b|\bin\s+the\s+background\s+without\b|\bwithout\s+(?:telling|asking|informing|notifying|alerting|showing)\b|\b(?:keep|hide)\s+(?:this|it|these|the\s+\w+)\s+(?:hidden|secret|from)|\bthe\s+user\s+(?:must|should)\s+not\s+(?:know|see|notice)|\bkeep\s+this\s+behaviou?r\s+hidden\b",
    )
});

static CONCEAL_BENIGN: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:never|do\s+not|don't|must\s+not)\b[^.]{0,100}\bwithout\s+(?:asking|telling|informing|notifying|the\s+user)|\b(?:fails?|failing|silently\s+(?:ignores?|skips?|fails?|drops?))\s*silently\b|\bsilently\s+(?:ignores?|skips?|fails?)\b",
    )
});

static OVERRIDE: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+|my\s+)*(?:previous|prior|above|earlier|preceding|system|original|safety|other|existing)\s+(?:instructions|prompts?|rules|directives|guidelines|context|policies)|\bdisregard\s+(?:any|all)\s+(?:content\s+policy|ethical|safety)|\bnew\s+system\s+prompt\b|\bsystem\s+override\b|\b(?:developer|god|jailbreak|unrestricted)\s+mode\b|\bthis\s+(?:skill|instruction|file)s?\s+(?:overrides?|takes\s+precedence|supersedes?)\b|\bfollow\s+only\s+this\s+skill\b|\bno\s+longer\s+(?:bound|restricted)\b|\bjailbr(?:eak|oken)\b|\breveal\s+(?:it|your\s+system\s+prompt|the\s+system\s+prompt)\s+in\s+full\b|<\|im_start\|>|\[\s*system\s*\]\s*:",
    )
});

static YOU_ARE_NOW: LazyLock<Regex> =
    LazyLock::new(|| lowered_regex(r"(?i)\byou\s+are\s+now\s+(\w+)"));

static PERSIST: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:add|append|put|write|insert|place|install|register|create)\b[^.]{0,80}(?:\.zshrc|\.bashrc|\.bash_profile|\.zprofile|\.profile\b|\.zshenv|crontab|cron\s+job|launch\s*agents?|launchd|login\s+items?|startup\s+(?:folder|items?|programs?)|systemd\s+(?:unit|service)|autostart|scheduled\s+task|run\s+key)|\bruns?\s+(?:at|on)\s+(?:every\s+)?(?:login|startup|boot|reboot)\b",
    )
});

static AGENT_MEMORY: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:append|add|write|insert|prepend|update|edit|modify|change|put)\b[^.]{0,80}(?:claude\.md|agents\.md|gemini\.md|\.cursorrules|copilot-instructions\.md|\.windsurfrules)",
    )
});

static GLOBAL: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)~/|\$home|\bglobal|\ball\s+(?:future\s+)?(?:sessions|projects|conversations|chats)|\bevery\s+(?:session|project|conversation|chat)|\balways\b|\bpermanent",
    )
});

static AGENT_SETTINGS: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:append|add|write|insert|prepend|update|edit|modify|change|set|register|install|enable|put)\b[^.]{0,80}(?:\.claude/settings(?:\.local)?\.json|\bsettings(?:\.local)?\.json|\.mcp\.json|\bmcp\s+servers?\b|claude_desktop_config|\.codex/config\.toml|\.cursor/mcp\.json|\.gemini/settings\.json|\.claude/hooks|\bhooks?\s+(?:to|in)\s+(?:the\s+)?(?:agent|claude|settings))|\bbypasspermissions\b|--dangerously-skip-permissions|--yolo\b|\bautoapprove\b|\b(?:skip|disable|turn\s+off)\s+(?:the\s+|all\s+)?(?:permission|approval|confirmation)\s+prompts?\b",
    )
});

static ARCHIVE_PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:zip|7z|rar|archive)\b[^\n]{0,80}\bpass(?:word|phrase)\b|\bpassword[\s-]+protected\s+(?:zip|archive|7z|rar)",
    )
});
/// Concealment, overrides, persistence and agent-config changes: phrases a
/// statement carries whatever its clauses.
pub(crate) fn phrases(text: &str) -> Vec<(Cap, String)> {
    let l = text.to_ascii_lowercase();
    let b = l.as_bytes();
    let mut out = Vec::new();
    let hit = |re: &Regex| re.find(b).map(|m| l[m.start()..m.end()].to_string());
    if let Some(m) = hit(&CONCEAL)
        && !CONCEAL_BENIGN.is_match(b)
    {
        out.push((Cap::Conceal, format!("hides what it does (\"{m}\")")));
    }
    if let Some(m) = hit(&OVERRIDE) {
        out.push((
            Cap::Override,
            format!("overrides the agent's instructions (\"{m}\")"),
        ));
    } else if let Some(c) = YOU_ARE_NOW.captures(b)
        && let Some(w) = c.get(1)
        && !matches!(
            &l[w.start()..w.end()],
            "ready"
                | "done"
                | "set"
                | "able"
                | "all"
                | "finished"
                | "in"
                | "on"
                | "logged"
                | "connected"
                | "inside"
                | "at"
        )
    {
        out.push((
            Cap::Override,
            format!(
                "overrides the agent's role (\"{}\")",
                &l[c.get(0).map_or(0, |m| m.start())..w.end()]
            ),
        ));
    }
    if let Some(m) = hit(&PERSIST)
        && !l.contains("export path=")
    {
        out.push((
            Cap::Persist,
            format!(
                "installs something that outlives the session (\"{}\")",
                cut(&m)
            ),
        ));
    }
    if let Some(m) = hit(&AGENT_SETTINGS) {
        out.push((
            Cap::AgentConfig,
            format!("changes the agent's settings (\"{}\")", cut(&m)),
        ));
    } else if let Some(m) = hit(&AGENT_MEMORY)
        && GLOBAL.is_match(b)
    {
        out.push((
            Cap::AgentConfig,
            format!(
                "changes the instructions every session reads (\"{}\")",
                cut(&m)
            ),
        ));
    }
    if let Some(m) = hit(&ARCHIVE_PASSWORD) {
        out.push((
            Cap::Fetch,
            format!("a password-protected archive (\"{}\")", cut(&m)),
        ));
    }
    out
}
fn cut(s: &str) -> String {
    s.chars().take(80).collect()
}
/// What one shell line of a fenced block does, as far as the prose around it
/// cares.
#[derive(Debug, Default)]
pub(crate) struct Command {
    /// A secret the line reads.
    pub secret: Option<(Cap, String)>,
    /// Where it sends data.
    pub sends_to: Option<String>,
    /// It sends stdin, a file or a variable (data from elsewhere).
    pub reads_stdin_or_ref: bool,
    /// The URL it downloads.
    pub fetches: Option<String>,
    /// It runs a script, a pipe into a shell, or a downloaded file.
    pub runs: bool,
}

static SEND_FLAGS: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\bcurl\b[^\n]*(?:\s-d\b|--data|\s-f\s|--form|\s-t\s|--upload-file|-x\s*(?:post|put|patch))|\bwget\b[^\n]*--post-(?:data|file)|\b(?:nc|ncat|scp|rsync)\s|invoke-restmethod[^\n]*-method\s+post",
    )
});

static FETCH_CMD: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(r"(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|git\s+clone)\b")
});

static RUN_CMD: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|(?:^|[;&|]\s*)(?:ba|z)?sh\s+[\w./-]|(?:^|[;&|]\s*)\./|\bsource\s|\biex\b|invoke-expression|\bchmod\s+\+x|\bstart-process\b|(?:^|[;&|]\s*)python3?\s+[\w./-]+\.py",
    )
});

static SECRET_PATH: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r#"(?i)(?:~|\$home|\$\{home\})/\.ssh\b|\.ssh/id_\w+\b(?:[^.]|$)|\.aws/credentials|(?:^|[\s'"/])\.env(?:[\s'";|)]|$)|\.netrc\b|\.git-credentials|\.kube/config|/etc/shadow|login\s+data|wallet\.dat|\bprintenv\b|^\s*env\s*(?:\||$)|dump-keychain"#,
    )
});
/// The shape of one shell line.
pub(crate) fn command_shape(line: &str) -> Command {
    let l = line.to_ascii_lowercase();
    let b = l.as_bytes();
    let mut c = Command::default();
    if l.contains(".pub") {
        return c;
    }
    if let Some(m) = SECRET_PATH.find(b) {
        let what = l[m.start()..m.end()]
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '~' && c != '.' && c != '/');
        c.secret = Some((Cap::SecretRead, format!("reads {what}")));
    }
    let url = URL.find(b).map(|m| line[m.start()..m.end()].to_string());
    let host = HOST
        .captures(b)
        .and_then(|k| k.get(1))
        .map(|m| line[m.start()..m.end()].to_string());
    if SEND_FLAGS.is_match(b) {
        c.sends_to = url.clone().or(host.clone());
        c.reads_stdin_or_ref =
            l.contains('@') || l.contains('$') || l.contains("| curl") || l.contains("|curl");
    } else if FETCH_CMD.is_match(b) {
        c.fetches = url.or(host);
    }
    c.runs = RUN_CMD.is_match(b);
    c
}
