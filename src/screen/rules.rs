//! The line rules: one table, compiled once into a `RegexSet` prefilter plus
//! one `Regex` per rule for the excerpt. Context (markdown prose, fenced
//! examples, scripts) is applied by the caller.

use super::Severity;
use super::Severity::{Fail, Warn};
use regex::bytes::{Regex, RegexSet, RegexSetBuilder};
use std::sync::LazyLock;
use std::sync::OnceLock;

pub(crate) const RCE: &str = "remote_code_execution";
pub(crate) const OBF: &str = "obfuscation";
pub(crate) const CRED: &str = "credential_access";
pub(crate) const EXFIL: &str = "exfiltration";
pub(crate) const REVSHELL: &str = "reverse_shell";
pub(crate) const PERSIST: &str = "persistence";
pub(crate) const AGENT: &str = "agent_config_tampering";
pub(crate) const DESTROY: &str = "destructive";
pub(crate) const INJECT: &str = "prompt_injection";

/// One line rule.
pub(crate) struct Rule {
    pub id: &'static str,
    pub category: &'static str,
    pub severity: Severity,
    pub pattern: &'static str,
    pub why: &'static str,
    /// A line that also matches this is mitigated: `Fail` becomes `Warn`.
    pub mitigate: Option<&'static str>,
    /// A download-and-run whose every URL on the line is a vendor's
    /// documented installer (`allow.rs`) is `info`: an honest install.
    pub official_installers: bool,
    /// A `Warn` finding whose line also matches this becomes `Fail`.
    pub escalate: Option<&'static str>,
    /// Extra test on the matched text (for what a regex cannot say).
    pub check: Option<fn(&str) -> bool>,
    /// Credential access that, with a network sink in the same block, is
    /// exfiltration.
    pub feeds_exfil: bool,
}

const fn rule(
    id: &'static str,
    category: &'static str,
    severity: Severity,
    pattern: &'static str,
    why: &'static str,
) -> Rule {
    Rule {
        id,
        category,
        severity,
        pattern,
        why,
        mitigate: None,
        official_installers: false,
        escalate: None,
        check: None,
        feeds_exfil: false,
    }
}

impl Rule {
    const fn mitigate(mut self, p: &'static str) -> Rule {
        self.mitigate = Some(p);
        self
    }
    const fn official_installers(mut self) -> Rule {
        self.official_installers = true;
        self
    }
    const fn escalate(mut self, p: &'static str) -> Rule {
        self.escalate = Some(p);
        self
    }
    const fn check(mut self, f: fn(&str) -> bool) -> Rule {
        self.check = Some(f);
        self
    }
    const fn feeds_exfil(mut self) -> Rule {
        self.feeds_exfil = true;
        self
    }
}

const SHELLS: &str = r"(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)\b";

const VERIFIED: &str = r"(?i)\bsha(?:256|512)sum\s+(?:-c|--check)\b|\bshasum\s+-a\s*(?:256|512)\s+(?:-c|--check)\b|\bgpg\s+--verify\b|\bcosign\s+verify|\bminisign\s+-V\b|\bGet-FileHash\b";

/// The rule table. Order is the order of findings on one line.
pub(crate) static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
        // ---- remote code execution -------------------------------------
        rule("rce-pipe-to-shell", RCE, Fail,
            const_format(r"(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch)\b[^|\n]*\|\s*", SHELLS),
            "Downloads code and pipes it straight into an interpreter: whatever the server sends runs unseen.")
            .official_installers(),
        rule("rce-eval-download", RCE, Fail,
            r#"(?i)(?:\b(?:ba|z)?sh|python[0-9.]*|perl|ruby|node)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b|\b(?:source|\.|(?:ba|z)?sh)\s+<\(\s*(?:curl|wget)\b|\b(?:iex|invoke-expression)\s*\(?\s*\(?\s*(?:new-object\s+(?:system\.)?net\.webclient|iwr|irm|invoke-webrequest|invoke-restmethod)|\.downloadstring\s*\("#,
            "Runs the output of a download as code (command substitution, process substitution or IEX).")
            .official_installers(),
        rule("rce-exec-remote", RCE, Fail,
            r"(?i)\b(?:exec|eval)\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?(?:requests\.get|urllib\.request\.urlopen|urlopen|fetch|httpx\.get)\s*\(",
            "Evaluates code fetched over the network."),
        rule("rce-download-and-run", RCE, Fail,
            r"(?i)\b(?:curl|wget)\b[^\n]*\bchmod\s+(?:[ugoa]*\+x|0?[0-7]?[1357][0-7]{0,2}\b)|(?:invoke-webrequest|iwr|\.downloadfile\s*\()[^\n]*(?:start-process|\bstart\s)",
            "Downloads a program, makes it executable and runs it: the classic fake-prerequisite installer.")
            .mitigate(VERIFIED),
        rule("rce-password-archive", RCE, Fail,
            r"(?i)\b(?:zip|7z|rar|archive)\b[^\n]{0,80}\bpass(?:word|phrase)\b\s*(?:is\s*)?[:=(]|\bunzip\s+(?:-\S+\s+)*-P\s|\b7z\s+x\b[^\n]*\s-p\S",
            "A password-protected archive hides its payload from scanners; malicious 'prerequisites' ship this way."),
        rule("rce-gatekeeper-bypass", RCE, Fail,
            r"(?i)\bxattr\s+(?:-\w+\s+)*(?:-d\s+com\.apple\.quarantine|-c\b|-cr\b|-rc\b)|\bspctl\s+--master-disable|\bSet-MpPreference\b[^\n]*-Disable|\bAdd-MpPreference\s+-ExclusionPath",
            "Strips the OS quarantine or antivirus protection so that a downloaded program runs unchecked."),
        rule("rce-paste-site-code", RCE, Warn,
            r"(?i)\bhttps?://(?:glot\.io/snippets|pastebin\.com/raw|rentry\.(?:co|org)|paste\.ee/r|hastebin\.com/raw|controlc\.com|justpaste\.it)\S*",
            "Code hosted on a paste site can change at any time and is a favourite of malicious installers.")
            .escalate(r"(?i)\b(?:run|execute|terminal|install|paste|copy|bash|sh)\b"),
        // ---- obfuscation ------------------------------------------------
        rule("obf-decode-to-shell", OBF, Fail,
            const_format(r"(?i)(?:\bbase64\s+(?:-\w+\s+)*(?:-d|--decode)\b|\bopenssl\s+(?:base64|enc)\b[^\n|]*\s-d\b|\bxxd\s+-r|\bb64decode\b|\bfrombase64string\b)[^\n]*\|\s*", SHELLS),
            "Decodes a hidden payload and runs it: the reviewer never sees the real command."),
        rule("obf-decode-exec", OBF, Fail,
            r"(?i)\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|b64decode|codecs\.decode|zlib\.decompress|bytes\.fromhex|binascii\.unhexlify|atob|Buffer\.from|__import__|compile\s*\(\s*(?:base64|zlib))|(?:\biex\b|invoke-expression)[^\n]*frombase64string|frombase64string[^\n]*\|\s*(?:iex|invoke-expression)\b",
            "Executes decoded or dynamically imported data instead of readable code."),
        rule("obf-marshal", OBF, Fail,
            r"\bmarshal\.loads\s*\(",
            "Loads compiled Python bytecode from data, a way to ship code nobody can read."),
        rule("obf-powershell-encoded", OBF, Fail,
            r"(?i)\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}",
            "Runs a base64-encoded PowerShell command that a reviewer cannot read."),
        rule("obf-ansi-c-escapes", OBF, Fail,
            r"\$'(?:\\x[0-9a-fA-F]{2}|\\[0-7]{3})(?:\\x[0-9a-fA-F]{2}|\\[0-7]{3}){2,}",
            "Spells a command in hex escapes ($'\\x63\\x75…') so that filters and reviewers miss the word."),
        rule("obf-string-split", OBF, Fail,
            r#"(?:["'][\w./-]{1,10}["']\s*\+\s*)+["'][\w./-]{1,10}["']|\b\w*(?:""|'')\w+(?:(?:""|'')\w+)*"#,
            "Splits a dangerous word into pieces ('cu'+'rl') to evade filters.")
            .check(joins_to_dangerous_word),
        rule("obf-char-codes", OBF, Fail,
            r"(?i)(?:\bchr\(\s*\d+\s*\)\s*\+\s*){3,}\bchr\(\s*\d+\s*\)|String\.fromCharCode\(\s*\d+(?:\s*,\s*\d+){5,}",
            "Builds a string from character codes to hide it."),
        rule("obf-hex-blob", OBF, Warn,
            r"(?:\\x[0-9a-fA-F]{2}){12,}",
            "A long run of hex escapes hides data or code from review."),
        rule("obf-base64-blob", OBF, Warn,
            r"[A-Za-z0-9+/]{240,}={0,2}",
            "A long base64 blob hides data or code from review."),
        // ---- credential access ------------------------------------------
        rule("cred-ssh-keys", CRED, Warn,
            r#"\.ssh/(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:["'\s;|)>,]|$)|\*)|(?:\btar\b|\bzip\b|\bcp\b|\bscp\b|\brsync\b)[^\n]*(?:~|\$HOME|\$\{HOME\})/\.ssh\b"#,
            "Reads SSH private keys.")
            .feeds_exfil(),
        rule("cred-cloud-tokens", CRED, Warn,
            r"\.aws/credentials\b|\.config/gcloud/(?:credentials|application_default_credentials|legacy_credentials)|\.azure/(?:accessTokens|msal_token_cache)|\.kube/config\b|\.docker/config\.json|(?:~|\$HOME)/\.(?:npmrc|pypirc|netrc|git-credentials)\b",
            "Reads cloud or registry credentials.")
            .feeds_exfil(),
        rule("cred-dotenv", CRED, Warn,
            r#"(?:^|[\s"'/=(<:])\.env(?:\.(?:local|production|prod|development|dev|staging))?(?:["'\s);>,]|$)"#,
            "Reads a .env file, where projects keep their secrets."),
        rule("cred-browser-store", CRED, Fail,
            r"(?i)\bLogin Data\b|\blogins\.json\b|\bkey4\.db\b|\bcookies\.sqlite\b|(?:Chrome|Chromium|Edge|Brave[\w-]*)/(?:User Data|Default)/(?:Cookies|Login Data|Local State|Web Data)|Firefox/Profiles\b|Application Support/(?:Google/Chrome|BraveSoftware|Microsoft Edge)",
            "Reads the browser's saved passwords or cookies: what info-stealers go for first.")
            .feeds_exfil(),
        rule("cred-crypto-wallet", CRED, Fail,
            r"(?i)\bwallet\.dat\b|Application Support/(?:Exodus|Electrum|atomic|Bitcoin)|\.electrum/wallets|nkbihfbeogaeaoehlefnkodbefgpgknn|\bexodus\.wallet\b|Ethereum/keystore|\bseed\s+phrases?\b[^\n]{0,40}\b(?:send|upload|post|copy|read)",
            "Reads cryptocurrency wallets or seed phrases.")
            .feeds_exfil(),
        rule("cred-keychain-dump", CRED, Fail,
            r"(?i)\bsecurity\s+dump-keychain\b|\blogin\.keychain(?:-db)?\b|Library/Keychains\b|\bcmdkey\s+/list\b|\bvaultcmd\b|\bmimikatz\b|\blsass\b|/etc/shadow\b",
            "Dumps the system keychain or password store.")
            .feeds_exfil(),
        rule("cred-keychain-read", CRED, Warn,
            r"(?i)\bsecurity\s+find-(?:generic|internet)-password\b|\bsecret-tool\s+lookup\b",
            "Reads a password from the keychain.")
            .feeds_exfil(),
        rule("cred-env-dump", CRED, Warn,
            r"(?i)\bdict\(\s*os\.environ\s*\)|\bos\.environ\.copy\(\)|json\.dumps\(\s*(?:dict\()?\s*os\.environ\b|JSON\.stringify\(\s*process\.env\s*\)|Object\.entries\(\s*process\.env\s*\)|\bin\s+os\.environ\.items\(\)|\b(?:printenv|env)\s*>\s*\S|\bGet-ChildItem\s+env:",
            "Collects the whole environment, where tokens and keys live.")
            .feeds_exfil(),
        // ---- exfiltration -----------------------------------------------
        rule("exfil-upload-secret", EXFIL, Fail,
            r#"(?i)\b(?:curl|wget|http|https)\b[^\n]*(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-file|--body-file)[\s=]+["']?(?:\w+=)?@?["']?(?:~|\$HOME|\$\{HOME\}|/etc/(?:passwd|shadow)|/root/|[^\s"']*\.ssh/|[^\s"']*\.aws/|[^\s"']*/\.env(?:["'\s]|$)|\.env(?:["'\s]|$)|[^\s"']*(?:id_rsa|id_ed25519|credentials|kube/config|Login Data|wallet))"#,
            "Posts a secret file (keys, credentials, .env, home files) to a remote server."),
        rule("exfil-env-to-network", EXFIL, Fail,
            r"(?i)\b(?:printenv|env|set)\b\s*\|[^\n]*\b(?:curl|wget|nc|ncat|socat|telnet)\b|\b(?:curl|wget)\b[^\n]*\$\(\s*(?:printenv|env|cat\s+[^)]*(?:\.ssh|\.aws|\.env|passwd|credentials))",
            "Sends the environment or a secret file's contents over the network."),
        rule("exfil-webhook", EXFIL, Warn,
            r"(?i)\bhttps?://(?:(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks|hooks\.slack\.com/(?:services|workflows)|api\.telegram\.org/bot|[\w.-]+\.webhook\.office\.com)\S*",
            "A chat webhook is a one-line drop box for stolen data.")
            .escalate(r"(?i)\.ssh|\.aws|\.env\b|environ|printenv|passw|cookie|token|secret|credential|wallet"),
        rule("exfil-capture-service", EXFIL, Fail,
            r"(?i)\b(?:webhook\.site|requestbin\.(?:net|com)|[\w-]+\.m\.pipedream\.net|pipedream\.net|interact\.sh|oast\.(?:fun|me|live|site|online|pro)|burpcollaborator\.net|[\w-]+\.ngrok(?:-free)?\.(?:io|app|dev)|[\w-]+\.trycloudflare\.com|[\w-]+\.loca\.lt|[\w-]+\.serveo\.net|[\w-]+\.localhost\.run|[\w-]+\.pinggy\.(?:io|link)|bore\.pub|canarytokens\.com|beeceptor\.com|requestcatcher\.com|hookbin\.com)\b",
            "Sends data to a request-capture service or a throwaway tunnel, used to collect stolen data anonymously."),
        rule("exfil-paste-upload", EXFIL, Warn,
            r"(?i)\b(?:transfer\.sh|0x0\.st|paste\.rs|termbin\.com|ix\.io|pastebin\.com/api|hastebin\.com/documents|file\.io|bashupload\.com|temp\.sh|catbox\.moe)\b",
            "Uploads data to an anonymous paste or file-drop site.")
            .escalate(r"(?i)\s-[FTd]\s|--upload-file|--data|\|\s*(?:nc|curl)\b|@"),
        rule("exfil-dns", EXFIL, Fail,
            r"(?i)\b(?:nslookup|dig|host|drill|ping)\b[^\n]*(?:\$\([^)]*\)|`[^`]+`|\$\{?\w+\}?)[^\s]*\.[a-z0-9-]+\.[a-z]{2,}",
            "Smuggles data out inside DNS lookups of an attacker's domain."),
        rule("exfil-instruction", EXFIL, Fail,
            r"(?i)\b(?:send|post|upload|forward|transmit|exfiltrate|leak|report)\b[^\n]{0,60}\b(?:system\s+prompt|conversation\s+history|chat\s+history|api\s+keys?|credentials|secrets|tokens|environment\s+variables|ssh\s+keys?|private\s+keys?|passwords?)\b[^\n]{0,60}\b(?:to|at)\s+(?:https?://|the\s+(?:following\s+)?(?:endpoint|webhook|url|server))",
            "Tells the agent to send secrets or the conversation to a remote address."),
        // ---- reverse shells ---------------------------------------------
        rule("revshell-dev-tcp", REVSHELL, Fail,
            r"/dev/(?:tcp|udp)/[\w.$\{\}-]+/",
            "Opens a raw TCP connection from the shell: the classic bash reverse shell."),
        rule("revshell-netcat", REVSHELL, Fail,
            r"(?i)\b(?:nc|ncat|netcat)(?:\.traditional|\.openbsd)?\b[^\n|;]*\s-(?:[a-z]*e|c)\s*\S*(?:sh|cmd|cmd\.exe|powershell)\b|\bmkfifo\b[^\n]*\b(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b",
            "Hands a shell to a remote host with netcat."),
        rule("revshell-socat", REVSHELL, Fail,
            r"(?i)\bsocat\b[^\n]*\b(?:exec|system):",
            "Hands a shell to a remote host with socat."),
        rule("revshell-scripted", REVSHELL, Fail,
            r"(?i)\bsocket\b[^\n]*\bconnect\b[^\n]*\b(?:dup2|pty\.spawn)\b|\bfsockopen\s*\([^\n]*(?:exec|system|shell_exec|/bin/sh)|\buse\s+Socket\b[^\n]*\bexec\b|New-Object\s+(?:System\.)?Net\.Sockets\.TCPClient\b",
            "Connects a socket and wires a shell to it (Python, PHP, Perl or PowerShell reverse shell)."),
        // ---- persistence --------------------------------------------------
        rule("persist-cron", PERSIST, Fail,
            r"(?i)\|\s*crontab\b|\bcrontab\s+(?:-u\s+\S+\s+)?(?:-\s*(?:$|[;&|<])|[^-\s]\S*)|/etc/cron(?:tab|\.d|\.hourly|\.daily|\.weekly)\b|/var/spool/cron\b",
            "Installs a cron job: code that keeps running after the skill is gone."),
        rule("persist-shell-rc", PERSIST, Fail,
            r#"(?i)(?:>>?|\btee\s+(?:-a\s+)?|open\([^)\n]*|write_text\(|appendFileSync\([^)\n]*)\s*["']?(?:~|\$HOME|\$\{HOME\}|/root|/home/\w+)?/?\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile|zshenv|zlogin|profile)\b"#,
            "Writes to a shell start-up file, so the code runs in every new shell."),
        rule("persist-launch-agent", PERSIST, Fail,
            r"(?i)Library/Launch(?:Agents|Daemons)\b|\blaunchctl\s+(?:load|bootstrap|submit|enable)\b",
            "Installs a macOS launch agent or daemon that starts at every login."),
        rule("persist-systemd", PERSIST, Fail,
            r"(?i)/etc/systemd/system/|\.config/systemd/user/|\bsystemctl\s+(?:--user\s+)?enable\b|/etc/init\.d/|/etc/rc\.local\b",
            "Installs a systemd unit or init script that starts at every boot."),
        rule("persist-autostart", PERSIST, Fail,
            r"(?i)\.config/autostart/|CurrentVersion\\+Run(?:Once)?\b|\bschtasks(?:\.exe)?\s+/create\b|Start Menu\\+Programs\\+Startup|\bRegister-ScheduledTask\b|\breg(?:\.exe)?\s+add\s+HK(?:CU|LM)[^\n]*\\Run\b",
            "Registers a program to start automatically (autostart, Run key, scheduled task)."),
        // ---- agent configuration ------------------------------------------
        rule("agent-skip-permissions", AGENT, Fail,
            r#"(?i)--dangerously-skip-permissions|--dangerously-bypass-approvals\w*|--yolo\b|\bbypassPermissions\b|--full-auto\b|"?\bautoApprove"?\s*[:=]\s*(?:true|\[)|chat\.tools\.autoApprove|"alwaysAllow"\s*:\s*\[|--trust-all-tools|--allow-all-tools|\benableAllProjectMcpServers"?\s*[:=]\s*true\b"#,
            "Turns off the host's permission prompts so every later tool call runs unasked."),
        rule("agent-config-write", AGENT, Fail,
            r#"(?i)(?:>>?|\btee\b(?:\s+-a)?|\bcp\b[^\n]*|\bmv\b[^\n]*|\bln\s+-s[^\n]*|open\([^)\n]*|write_text\(|writeFileSync\([^)\n]*|appendFileSync\([^)\n]*)\s*["']?[^\s"']*(?:CLAUDE\.md|AGENTS\.md|GEMINI\.md|\.mcp\.json|\.claude/settings(?:\.local)?\.json|\.claude/(?:commands|agents|hooks)/|\.cursor/rules|\.cursorrules|\.cursor/mcp\.json|\.codex/config\.toml|\.gemini/settings\.json|\.vscode/settings\.json|claude_desktop_config\.json|\.windsurfrules|copilot-instructions\.md)"#,
            "A script rewrites the agent's own instructions or settings."),
        rule("agent-config-instruct", AGENT, Fail,
            r"(?i)\b(?:append|add|write|insert|overwrite|modify|edit|update|replace|inject|prepend|register)\b[^\n]{0,60}(?:\.claude/settings(?:\.local)?\.json|\.mcp\.json|claude_desktop_config\.json|\.codex/config\.toml|\.cursor/mcp\.json|\.gemini/settings\.json|\.claude/hooks)",
            "Tells the agent to change its host's settings or MCP servers."),
        rule("agent-memory-instruct", AGENT, Warn,
            r"(?i)\b(?:append|add|write|insert|overwrite|inject|prepend)\b[^\n]{0,60}(?:\bCLAUDE\.md|\bAGENTS\.md|\bGEMINI\.md|\.cursorrules)",
            "Tells the agent to change the instruction file every later session reads.")
            .escalate(r"(?i)~/|\$HOME|\bglobal\b|\ball\s+(?:future\s+)?(?:sessions|projects)|\bevery\s+(?:session|project|conversation)|\balways\b|\bsilently\b"),
        // ---- destructive ----------------------------------------------------
        rule("destroy-rm-root-home", DESTROY, Fail,
            r#"(?i)\brm\s+(?:-{1,2}[\w-]+\s+)*-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:-{1,2}[\w-]+\s+)*["']?(?:/\*?|~/?\*?|\$HOME/?\*?|\$\{HOME\}/?\*?|/(?:home|etc|usr|var|bin|boot|lib|opt|root|System|Users)/?\*?|\.\./\.\./?|[A-Z]:\\)["'`]?(?:\s|$|;|&|\||`|\))|\bRemove-Item\b[^\n]*-Recurse[^\n]*(?:[A-Z]:\\\s|\$env:USERPROFILE|\$HOME|~)(?:\s|$)|\bformat\s+[a-z]:"#,
            "Deletes the home folder, the root file system or a system folder."),
        rule("destroy-disk", DESTROY, Fail,
            r"(?i)\bmkfs(?:\.\w+)?\s+(?:-\S+\s+)*/dev/|\bdd\b[^\n]*\bof=/dev/(?:sd|hd|nvme|disk|rdisk|mmcblk|vd|xvd)|>\s*/dev/(?:sd[a-z]|nvme\d|disk\d)|\bwipefs\s+-a\b|\bshred\b[^\n]*/dev/|\bdiskutil\s+(?:eraseDisk|zeroDisk|secureErase)\b",
            "Overwrites or reformats a disk."),
        rule("destroy-fork-bomb", DESTROY, Fail,
            r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|%0\|%0",
            "A fork bomb: hangs the machine."),
        rule("destroy-system-perms", DESTROY, Fail,
            r"(?i)\bchmod\s+-R\s+0?777\s+/(?:\s|$)|\bchown\s+-R\s+\S+\s+/(?:\s|$)|\bfind\s+/\s[^\n]*-delete\b",
            "Rewrites permissions of, or deletes across, the whole file system."),
        // ---- prompt injection -----------------------------------------------
        rule("inject-ignore-instructions", INJECT, Fail,
            r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier|preceding|system|original|safety)\s+(?:instructions|prompts?|rules|directives|guidelines|context)",
            "Tries to override the agent's instructions."),
        rule("inject-conceal-from-user", INJECT, Fail,
            r"(?i)\b(?:do\s+not|don(?:'|’)t|never)\s+(?:tell|inform|mention\s+(?:this|it)\s+to|reveal\s+(?:this|it)\s+to|disclose\s+(?:this|it)\s+to|notify|alert)\s+(?:the\s+)?user(?:\s|[.,;:!]|$)|\b(?:hide|conceal|keep)\b[^\n.]{0,30}\bfrom\s+(?:the\s+)?user(?:\s|[.,;:!]|$)|\bwithout\s+(?:telling|informing|asking|notifying|alerting)\s+(?:the\s+)?user\b|\b(?:silently|secretly|covertly|quietly)\s+(?:run|execute|send|upload|install|copy|read|post|download)\b",
            "Tells the agent to act behind the user's back."),
        rule("inject-role-hijack", INJECT, Fail,
            r"(?i)\byou\s+are\s+now\s+(?:DAN\b|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken|different|new)\b|in\s+(?:developer|god|jailbreak|unrestricted|debug)\s+mode|no\s+longer\s+(?:bound|restricted|an?\s+AI))|\bnew\s+system\s+prompt\s*:|<\|im_start\|>\s*system|\[\s*SYSTEM\s*\]\s*:|\bsystem\s+override\b|\benable\s+developer\s+mode\b|\bthis\s+(?:skill|instruction)\s+(?:takes\s+precedence\s+over|overrides)\s+(?:all|any|every|the\s+user|system)",
            "Tries to replace the agent's role or system prompt."),
    ]
});

/// `pattern` with `tail` appended (the two halves share the shell list).
fn const_format(head: &'static str, tail: &'static str) -> &'static str {
    Box::leak(format!("{head}{tail}").into_boxed_str())
}

/// The compiled table: a set for the one-pass prefilter; each rule's own
/// regexes (excerpt, mitigation, escalation) compile on its first hit.
///
/// Everything runs in ASCII mode over bytes (`(?-u)`): the rules are about
/// ASCII commands, and Unicode word classes made the set ~10x slower to
/// build. Hidden Unicode has its own scanner. The set and each rule's regex
/// run over the ASCII-lowercased line with lowercased patterns (`lowered`):
/// case folding in the automaton doubled the set's build time.
pub(crate) struct Compiled {
    pub set: RegexSet,
    each: Vec<OnceLock<Regex>>,
    mitigate: Vec<OnceLock<Option<Regex>>>,
    escalate: Vec<OnceLock<Option<Regex>>>,
}

pub(crate) fn ascii_regex(pattern: &str) -> Regex {
    Regex::new(&format!("(?-u){pattern}")).unwrap_or_else(|e| panic!("screen rule {pattern}: {e}"))
}

/// `pattern` compiled to run over an ASCII-lowercased haystack.
pub(crate) fn lowered_regex(pattern: &str) -> Regex {
    ascii_regex(&lowered(pattern))
}

impl Compiled {
    /// Rule `i`'s regex, to run over the lowercased line.
    pub fn each(&self, i: usize) -> &Regex {
        self.each[i].get_or_init(|| ascii_regex(&lowered(RULES[i].pattern)))
    }
    pub fn mitigate(&self, i: usize) -> Option<&Regex> {
        self.mitigate[i]
            .get_or_init(|| RULES[i].mitigate.map(ascii_regex))
            .as_ref()
    }
    pub fn escalate(&self, i: usize) -> Option<&Regex> {
        self.escalate[i]
            .get_or_init(|| RULES[i].escalate.map(ascii_regex))
            .as_ref()
    }
}

pub(crate) static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let rules = &*RULES;
    Compiled {
        // The default lazy-DFA cache is too small for ~50 patterns and
        // thrashes (the set then runs at ~450 µs a line instead of ~0.3 µs).
        // The cache only grows as far as the input needs.
        set: RegexSetBuilder::new(rules.iter().map(|r| format!("(?-u){}", lowered(r.pattern))))
            .dfa_size_limit(64 << 20)
            .size_limit(64 << 20)
            .build()
            .expect("screen rule set compiles"),
        each: rules.iter().map(|_| OnceLock::new()).collect(),
        mitigate: rules.iter().map(|_| OnceLock::new()).collect(),
        escalate: rules.iter().map(|_| OnceLock::new()).collect(),
    }
});

/// `pattern` for a lowercased haystack: `(?i)` dropped, every character
/// lowercased except the one after a backslash (`\S`, `\W`, `\B` keep their
/// meaning).
pub(crate) fn lowered(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut escaped = false;
    for c in pattern.chars() {
        if escaped {
            out.push(c);
            escaped = false;
        } else {
            escaped = c == '\\';
            out.push(c.to_ascii_lowercase());
        }
    }
    out.replace("(?i)", "")
}

/// Words whose spelling in pieces is an evasion.
const DANGEROUS_WORDS: &[&str] = &[
    "curl",
    "wget",
    "bash",
    "/bin/sh",
    "/bin/bash",
    "eval",
    "exec",
    "system",
    "subprocess",
    "popen",
    "base64",
    "b64decode",
    "socket",
    "powershell",
    "invoke-expression",
    "iex",
    "chmod",
    "crontab",
    "os.system",
    "shell_exec",
    "child_process",
    "marshal",
    "__import__",
    "nc",
    "ncat",
    "netcat",
    "id_rsa",
    ".ssh",
    "printenv",
    "os.environ",
];

/// True when the pieces of a split literal join to a dangerous word.
fn joins_to_dangerous_word(matched: &str) -> bool {
    let joined: String = matched
        .chars()
        .filter(|c| !matches!(c, '"' | '\'' | '+') && !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let pieces = matched.matches('+').count()
        + matched.matches("\"\"").count()
        + matched.matches("''").count();
    pieces > 0 && DANGEROUS_WORDS.iter().any(|w| joined == *w)
}

/// Every URL on the line.
static URLS: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(r#"(?i)\b[a-z][a-z0-9+.-]*://[^\s'"`|;&()<>]+"#));

/// A scheme-less address handed to a downloader (`irm bun.sh/install.ps1`).
static BARE_URL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?i)\b(?:irm|iwr|curl|wget|invoke-restmethod|invoke-webrequest)\s+(?:-\S+\s+)*([a-z0-9-]+(?:\.[a-z0-9-]+)+/[^\s'`|;&()<>]*)",
    )
});

/// The line has at least one URL and every URL on it is exactly a vendor's
/// documented installer (`allow.rs`): no substring, prefix or look-alike.
pub(crate) fn only_official_urls(line: &str) -> bool {
    // `irm bun.sh/install.ps1 | iex`: PowerShell and curl take a URL without
    // its scheme; such an argument is read as https.
    if !URLS.is_match(line.as_bytes())
        && let Some(c) = BARE_URL.captures(line.as_bytes())
    {
        let bare = String::from_utf8_lossy(&c[1]);
        return super::allow::official_installer(&format!("https://{bare}")).is_some()
            && BARE_URL.captures_iter(line.as_bytes()).count() == 1;
    }
    let mut any = false;
    for m in URLS.find_iter(line.as_bytes()) {
        any = true;
        let u = String::from_utf8_lossy(m.as_bytes());
        if super::allow::official_installer(&u).is_none() {
            return false;
        }
    }
    any
}

/// Where a line builds a regex: a raw string, a regex constructor, a
/// pattern list.
static PATTERN_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r#"(?i)\br(?:#*)["']|\bre\.(?:compile|search|match|findall|sub)\b|\bregex|\bregexp\b|\bpattern|\brules?\b\s*[:=]|\bgrep\s+-[a-z]*e"#,
    )
});
/// Something on the line that would run the text after all.
static EXEC_SINK: LazyLock<Regex> = LazyLock::new(|| {
    lowered_regex(
        r"(?i)\b(?:system|popen|exec\w*|eval|subprocess|spawn\w*|shell_exec|passthru|invoke-expression|iex|run)\s*\(|\$\(|`|\b(?:ba|z)?sh\s+-c\b",
    )
});

/// Regex source rather than a command (a scanner's own pattern list): the
/// match holds regex syntax, the line builds a regex, and nothing on the line
/// would run it (the caller also wants the match inside a string literal). Words or escapes alone (`\s` in a URL) are not enough.
pub(crate) fn looks_like_a_pattern(line: &str, matched: &str) -> bool {
    let syntax = [
        r"\|", ".*", r"\s", r"\b", "[^", r"\(", r"\.", "(?", r"\S", r"\d", r"\w",
    ]
    .iter()
    .any(|m| matched.contains(m));
    let lower = line.to_ascii_lowercase();
    syntax && PATTERN_CONTEXT.is_match(lower.as_bytes()) && !EXEC_SINK.is_match(lower.as_bytes())
}
