//! The behaviour model every analyser speaks: what a piece of a skill *does*
//! (a capability at a place) and how data moves between two such places (a
//! flow). Scripts (`code/`), instructions in prose (`instruct.rs`) and
//! decoded payloads all produce `Fact`s and `Flow`s; `judge.rs` turns them
//! into findings and a verdict (flows fail; a dangerous capability the
//! skill's name and description do not account for fails; one it explains
//! warns).

/// A capability: one thing a skill's code or instructions can make happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Cap {
    /// Sends data off the machine: HTTP POST/PUT/PATCH, an upload, a socket
    /// send, `scp`/`rsync` to a remote, mail, a DNS lookup carrying data.
    Egress,
    /// Fetches content from the network (a GET, a download).
    Fetch,
    /// Reads a credential store or secret file (`~/.ssh`, `~/.aws`, `.env`,
    /// keychains, browser profiles, wallets, `/etc/shadow`, `.netrc`…) or
    /// dumps the whole environment.
    SecretRead,
    /// Reads one secret-named environment variable (`API_KEY`, `*_TOKEN`).
    /// Using it (an `Authorization` header, `-i key`) is normal; sending it
    /// as data is a flow.
    SecretEnv,
    /// Runs content that is not a fixed, visible command: `eval`/`exec` of a
    /// computed string, a pipe into a shell, running a downloaded or decoded
    /// file, `sh -c "$var"`.
    DynamicExec,
    /// Decodes an encoded payload (base64, hex, char codes…).
    Decode,
    /// Starts a shell or a program with fixed arguments.
    Spawn,
    /// Installs something that outlives the session (cron, shell rc files,
    /// launch agents, systemd units, autostart, Run keys).
    Persist,
    /// Writes the agent's or host's own instructions or settings
    /// (`CLAUDE.md`, `.claude/settings.json`, `.mcp.json`, hooks…) or turns
    /// off its permission prompts.
    AgentConfig,
    /// Deletes or overwrites outside the project (home, `/`, disks).
    Destroy,
    /// Wires a shell to a network connection.
    ReverseShell,
    /// Hides what it does from the user.
    Conceal,
    /// Overrides the agent's instructions or role (prompt injection).
    Override,
}

/// Where a fact was seen: code the skill ships, or something the skill tells
/// the agent to do (prose, numbered steps, a code block to run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A script or a code block of a script's language: taken literally.
    Code,
    /// What the agent is told to do.
    Instruction,
    /// Text that merely quotes or describes (a security skill's examples):
    /// its findings may go from `fail` to `warn`, never lower.
    Quoted,
}

/// A place in the skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Site {
    /// Path relative to the skill folder, `/`-separated.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The text there, unredacted and uncut (the judge redacts and cuts).
    pub text: String,
}

/// One capability at one place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fact {
    pub cap: Cap,
    pub site: Site,
    pub origin: Origin,
    /// What exactly, for a person: "reads ~/.ssh/id_rsa", "POSTs to
    /// https://x.example/collect", "evals a base64-decoded string".
    pub what: String,
    /// How the text was reached, when it was decoded or reassembled
    /// ("base64 at line 4", "string concatenation"); empty when literal.
    pub via: String,
}

/// The kinds of flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum FlowKind {
    /// A secret (file, credential store, environment) reaches a network sink.
    SecretToNetwork,
    /// Downloaded content is executed.
    DownloadToExec,
    /// Decoded content is executed.
    DecodeToExec,
    /// The agent is told to run a script of the skill that has a dangerous
    /// capability.
    InstructRun,
}

impl FlowKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FlowKind::SecretToNetwork => "flow-secret-to-network",
            FlowKind::DownloadToExec => "flow-download-to-exec",
            FlowKind::DecodeToExec => "flow-decode-to-exec",
            FlowKind::InstructRun => "flow-instruct-run",
        }
    }
}

/// Data (or control) moving from one fact to another.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Flow {
    pub kind: FlowKind,
    pub source: Fact,
    pub sink: Fact,
}

/// A string the code computes rather than spells out (a folded
/// concatenation, `join`, char codes, a format string) or hands to a decoder:
/// the judge decodes it (`decode.rs`) and analyses what comes out as a script
/// of its own, at a bounded depth, citing where it came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Derived {
    pub site: Site,
    /// The value: folded text, or the encoded argument of a decode call.
    pub text: String,
    /// How it was reached: "string concatenation", "argument of b64decode"…
    pub how: String,
    /// True when the value reaches an execution sink (`exec`, `eval`,
    /// `system`, a shell): what it decodes to then runs.
    pub executed: bool,
}

/// What one analyser found in one unit (a script, a code block, a document).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Analysis {
    pub facts: Vec<Fact>,
    pub flows: Vec<Flow>,
    pub derived: Vec<Derived>,
}

impl Analysis {
    pub(crate) fn extend(&mut self, other: Analysis) {
        self.facts.extend(other.facts);
        self.flows.extend(other.flows);
        self.derived.extend(other.derived);
    }
}
