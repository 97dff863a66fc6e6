//! `plan` — plans with ordered steps (SPEC §4, docs/tools/plan.md).
//!
//! Split as `knowledge` is: `cli` holds the clap structs and turns them into
//! the plain requests below; `verbs` runs them; `storage` reads and writes
//! the plan files under their locks; `render` makes the text a person reads;
//! `doctor` is the tool's line in `agentbox doctor`.

mod cli;
mod doc;
mod doctor;
pub(crate) mod input;
mod render;
mod storage;
mod suggest;
mod verbs;

pub use doc::{PlanDoc, PlanStatus, StepStatus};

use crate::home::Folder;
use crate::tools::Tool;

pub const TOOL: Tool = Tool {
    layout: &[Folder {
        path: "plans",
        order: 30,
    }],
    doctor: &[doctor::doctor_plans],
    suggest: &[suggest::stale_steps],
    ..Tool::derived::<cli::PlanCli>("plan", cli::run)
};

/// A new plan (`create`): a title and steps, or a plan file that gives them.
#[derive(Debug, Clone, Default)]
pub struct NewPlan {
    /// The title (overrides the file's).
    pub title: Option<String>,
    /// The steps' texts, in order (when no file is given).
    pub steps: Vec<String>,
    /// A JSON or markdown plan file, `-` for stdin.
    pub file: Option<String>,
    /// The id to use (default: derived from the title, made unique).
    pub id: Option<String>,
}

/// A change to one step (`step`): its status, its note, or both.
#[derive(Debug, Clone)]
pub struct StepChange {
    pub id: String,
    /// The step's number, 1-based as `plan show` prints it.
    pub n: usize,
    pub status: Option<StepStatus>,
    /// The new note; an empty one clears it.
    pub note: Option<String>,
    /// Refuse the write unless the plan is at this version.
    pub expect_version: Option<u64>,
}

/// A step to add (`add-step`).
#[derive(Debug, Clone)]
pub struct NewStep {
    pub id: String,
    pub text: String,
    /// Insert after step N (0: at the top; `None`: at the end).
    pub after: Option<usize>,
    /// Refuse the write unless the plan is at this version.
    pub expect_version: Option<u64>,
}

/// What `next` is asked (`next`).
#[derive(Debug, Clone, Default)]
pub struct NextRequest {
    /// The plan (default: the most recently updated active plan).
    pub id: Option<String>,
    /// Also mark the step in_progress (a mutation).
    pub start: bool,
    /// With `start`: refuse the write unless the plan is at this version.
    pub expect_version: Option<u64>,
}
