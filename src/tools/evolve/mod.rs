//! `evolve`: the agent learns from its own trajectories. `run` mines the
//! episodes `track` recorded (repeated tool sequences, user corrections,
//! recurring failures) into proposals a person or the agent can `apply`.
//!
//! The shared vocabulary of the tool lives here: a miner's [`Candidate`]
//! becomes a stored [`Proposal`] in `runs/evolve/<run-id>/proposals.json`.

pub mod apply;
mod cli;
pub mod draft;
pub mod mine;
pub mod preview;
pub mod proposals;
mod render;
pub mod run;

use crate::home::Folder;
use crate::tools::Tool;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const TOOL: Tool = Tool {
    layout: &[Folder {
        path: RUNS_DIR,
        order: 50,
    }],
    suggest: &[proposals::pending_suggestions],
    ..Tool::derived::<cli::EvolveCli>("evolve", cli::run)
};

/// Where runs live, relative to the home.
pub const RUNS_DIR: &str = "runs/evolve";

/// The three kinds of proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A repeated tool-call sequence → a skill (SKILL.md), screened.
    Skill,
    /// A user correction → a line in PROFILE.md's Preferences.
    Preference,
    /// A recurring failure (and the fix that followed) → a knowledge note.
    Knowledge,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Skill => "skill",
            Kind::Preference => "preference",
            Kind::Knowledge => "knowledge",
        }
    }
}

/// Where a proposal comes from: one turn of one episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub session: String,
    pub episode: String,
    /// The turn's id (`<episode>#<seq>`).
    pub turn: String,
    /// A short, redacted excerpt of the turn (≤ 200 chars).
    #[serde(default)]
    pub excerpt: String,
}

/// What a proposal would change, per kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Payload {
    Skill(SkillPayload),
    Preference(PreferencePayload),
    Knowledge(KnowledgePayload),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillPayload {
    /// The repeated tool names, in order (3–6).
    pub steps: Vec<String>,
    /// The episode the draft is made from (the clearest example).
    pub episode: String,
    /// The skill's name (Agent Skills rules: lowercase, digits, hyphens).
    pub name: String,
    pub description: String,
    /// The drafted SKILL.md, once drafted (run fills it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_md: Option<String>,
    /// The screen of the draft: `{verdict, findings}` (run fills it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreferencePayload {
    /// `preferences` or `facts` (a PROFILE.md section).
    pub section: String,
    /// The line to add, e.g. "Use pnpm, not npm".
    pub fact: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnowledgePayload {
    pub slug: String,
    pub title: String,
    #[serde(default)]
    pub tags: Vec<String>,
    /// The note's markdown body.
    pub body: String,
}

/// What a miner found: a proposal before it has an id and a place.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub kind: Kind,
    /// What makes two findings the same finding (normalized; stable across
    /// runs): the proposal id is a hash of kind and key.
    pub key: String,
    /// One line for a person.
    pub title: String,
    /// 0.0–1.0.
    pub confidence: f64,
    pub evidence: Vec<Evidence>,
    pub payload: Payload,
}

/// The stable id of a finding: `p-` and 12 hex digits of
/// sha256(kind, NUL, key).
pub fn proposal_id(kind: Kind, key: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(kind.as_str().as_bytes());
    h.update([0u8]);
    h.update(key.as_bytes());
    let digest = h.finalize();
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("p-{hex}")
}

/// `pending`, `applied` or `rejected`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Applied,
    Rejected,
}

/// One stored proposal (an element of `proposals.json`'s `proposals`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub id: String,
    pub kind: Kind,
    pub key: String,
    pub title: String,
    pub confidence: f64,
    pub evidence: Vec<Evidence>,
    pub status: Status,
    pub run_id: String,
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// Why it was rejected (`reject --reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What applying it did (skill name, profile line, note slug).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied: Option<Value>,
    /// `{"skill": {…}}`, `{"preference": {…}}` or `{"knowledge": {…}}`.
    #[serde(flatten)]
    pub payload: Payload,
}

impl Proposal {
    /// The title lists show: for a preference, the very line it adds, and
    /// for a note, its title (a model route may reword them after the
    /// miner titled the finding, and a list must show what will be written).
    pub fn shown_title(&self) -> String {
        match &self.payload {
            Payload::Preference(p) => format!("Preference: {}", p.fact.trim()),
            Payload::Knowledge(k) => k.title.trim().to_string(),
            Payload::Skill(_) => self.title.clone(),
        }
    }

    /// A pending proposal from a candidate, in run `run_id` at `now`.
    pub fn from_candidate(c: Candidate, run_id: &str, now: &str) -> Proposal {
        Proposal {
            id: proposal_id(c.kind, &c.key),
            kind: c.kind,
            key: c.key,
            title: c.title,
            confidence: (c.confidence.clamp(0.0, 1.0) * 100.0).round() / 100.0,
            evidence: c.evidence,
            status: Status::Pending,
            run_id: run_id.to_string(),
            created: now.to_string(),
            updated: None,
            reason: None,
            applied: None,
            payload: c.payload,
        }
    }
}

/// A proposal and the run holding it.
#[derive(Debug, Clone)]
pub struct Found {
    /// The id of the run whose `proposals.json` holds it.
    pub run_id: String,
    pub proposal: Proposal,
}

/// `runs/evolve/<run-id>/proposals.json`: the proposals one run made. `apply`
/// and `reject` rewrite it (atomically, under the `evolve` lock) to record
/// each proposal's status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProposalsFile {
    /// `agentbox.evolve.proposals/v1`.
    pub schema: String,
    pub run_id: String,
    pub proposals: Vec<Proposal>,
}

/// The schema name of `proposals.json`.
pub const PROPOSALS_SCHEMA: &str = "agentbox.evolve.proposals/v1";
/// The lock held while `proposals.json` files or `state.json` change.
pub const LOCK: &str = "evolve";
/// The lock a run holds from start to end (taken without waiting: a second
/// concurrent run is `conflict`).
pub const RUN_LOCK: &str = "evolve-run";
