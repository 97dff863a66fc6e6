//! The deterministic miner: episodes in, candidates out, streaming (one
//! episode at a time, bounded state carried between runs).

use super::Candidate;
use crate::tools::knowledge::profile::Profile;
use crate::tools::track::episodes::Turn;
use serde::{Deserialize, Serialize};

/// What the miner carries from one run to the next (persisted by `run` in
/// `runs/evolve/state.json`): the partial counts of patterns not yet proposed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct MinerState {}

/// One episode as the miner sees it.
pub struct EpisodeRef<'a> {
    pub session: &'a str,
    pub id: &'a str,
}

pub struct Miner {
    state: MinerState,
}

impl Miner {
    /// A miner resuming from `state`; corrections already in `profile` are
    /// not proposed again.
    pub fn new(state: MinerState, _profile: &Profile) -> Miner {
        Miner { state }
    }

    /// Mines one whole episode (its turns in order).
    pub fn feed(&mut self, _episode: &EpisodeRef, _turns: &[Turn]) {}

    /// The candidates whose thresholds are met since the last call (each
    /// key at most once per miner lifetime; `run` also filters keys already
    /// proposed in earlier runs).
    pub fn ready(&mut self) -> Vec<Candidate> {
        Vec::new()
    }

    /// The state to persist.
    pub fn into_state(self) -> MinerState {
        self.state
    }
}
