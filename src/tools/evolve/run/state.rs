//! `runs/evolve/state.json` (the high-water mark, the miner's carried
//! counts, every proposal id ever made) and the choice of the episodes a
//! run mines.

use super::super::mine::MinerState;
use super::super::{LOCK, PROPOSALS_SCHEMA, ProposalsFile};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::tools::track::episodes::{self, EpisodeFile};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

/// The `schema` of `state.json`.
pub const STATE_SCHEMA: &str = "agentbox.evolve.state/v1";

/// The last fully mined episode of the runs over every session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HighWater {
    pub session: String,
    pub episode: String,
    /// The episode's place in the mining order: its start time, counter and
    /// home id (`20260115T093000Z-0000000003-k3f9q2`; no home id for a legacy id).
    pub order: String,
}

impl HighWater {
    pub fn of(ep: &EpisodeFile) -> HighWater {
        let (stamp, n, home, other, _) = sort_key(ep);
        HighWater {
            session: ep.session.clone(),
            episode: ep.id.clone(),
            order: if stamp.is_empty() {
                other
            } else if home.is_empty() {
                format!("{stamp}-{n:010}")
            } else {
                format!("{stamp}-{n:010}-{home}")
            },
        }
    }

    fn key(&self) -> Key {
        key_of(&self.session, &self.episode)
    }
}

/// `state.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    #[serde(default = "schema")]
    pub schema: String,
    #[serde(default)]
    pub high_water: Option<HighWater>,
    #[serde(default)]
    pub miner: MinerState,
    /// Every proposal id made, and the run that made it.
    #[serde(default)]
    pub proposals: BTreeMap<String, String>,
    /// Findings the model route judged not worth proposing, and the run.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dropped: BTreeMap<String, String>,
}

fn schema() -> String {
    STATE_SCHEMA.to_string()
}

impl Default for State {
    fn default() -> State {
        State {
            schema: schema(),
            high_water: None,
            miner: MinerState::default(),
            proposals: BTreeMap::new(),
            dropped: BTreeMap::new(),
        }
    }
}

pub fn path(home: &Home) -> Result<PathBuf> {
    home.store.path(&["runs", "evolve", "state.json"])
}

/// Reads `state.json` (missing → a fresh state). A file that is not a state
/// is `invalid_args` naming it; nothing is changed.
pub fn load(home: &Home) -> Result<State> {
    let path = path(home)?;
    let Some(text) = home.store.read_state(&path)? else {
        return Ok(State::default());
    };
    let bad = |message: String| {
        Error::invalid_args(format!("{} is not a valid evolve state: {message}", path.display()))
            .with_hint("repair it by hand, or move it away: the next run then mines every episode again (proposals already made are not made again)")
            .with_detail("path", path.display().to_string())
    };
    // serde reads a struct from an array too (`[]` would be a fresh state)
    if !text.trim_start().starts_with('{') {
        return Err(bad("it is not a JSON object".to_string()).with_detail("line", 1));
    }
    let state: State = serde_json::from_str(&text).map_err(|e| {
        bad(e.to_string())
            .with_detail("line", e.line())
            .with_detail("column", e.column())
    })?;
    if state.schema != STATE_SCHEMA {
        return Err(bad(format!(
            "its schema is {:?}, not {STATE_SCHEMA:?}",
            state.schema
        )));
    }
    Ok(state)
}

/// Replaces `state.json` atomically, under the `evolve` lock.
pub fn save(home: &Home, state: &State) -> Result<()> {
    let path = path(home)?;
    let _lock = home.store.lock(LOCK)?;
    home.store.write_state(&path, state)
}

/// The ids of every proposal already made: the state's, and those of every
/// run folder's `proposals.json` (a run that died between writing its
/// proposals and the state, or a state moved away, proposes nothing twice).
/// Unreadable run folders are skipped: `evolve list` reports them.
pub fn known_ids(home: &Home, state: &State) -> Result<HashSet<String>> {
    let mut ids: HashSet<String> = state.proposals.keys().cloned().collect();
    ids.extend(state.dropped.keys().cloned());
    let dir = home.store.path(&["runs", "evolve"])?;
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(ids);
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(path) = home.store.path(&["runs", "evolve", name, "proposals.json"]) else {
            continue;
        };
        let Ok(Some(text)) = home.store.read_state(&path) else {
            continue;
        };
        if let Ok(file) = serde_json::from_str::<ProposalsFile>(&text)
            && file.schema == PROPOSALS_SCHEMA
        {
            ids.extend(file.proposals.into_iter().map(|p| p.id));
        }
    }
    Ok(ids)
}

/// Marks the runs that died while running (`run.json` still says
/// `running` although no run holds the run lock) as failed, so `evolve
/// show` does not report them as in progress. Call with the run lock held.
pub fn close_dead_runs(home: &Home, now: &str) -> Result<u64> {
    let dir = home.store.path(&["runs", "evolve"])?;
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(0);
    };
    let mut closed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(path) = home.store.path(&["runs", "evolve", name, "run.json"]) else {
            continue;
        };
        let Ok(Some(text)) = home.store.read_state(&path) else {
            continue;
        };
        let Ok(mut run) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        if run["status"] != "running" {
            continue;
        }
        run["status"] = "failed".into();
        run["finished"] = now.into();
        run["error"] = serde_json::json!({
            "type": "cancelled",
            "message": "the run ended without closing its records (killed or crashed); its proposals up to the last finished batch are kept",
            "detail": {},
        });
        let _lock = home.store.lock(LOCK)?;
        home.store.write_state(&path, &run)?;
        closed += 1;
    }
    Ok(closed)
}

/// `--since`: after the high-water mark, or every episode started at or
/// after a time (`20260115T093000Z`, the episode ids' stamp form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Since {
    Last,
    From(String),
}

impl Since {
    /// `last`, RFC 3339 or YYYY-MM-DD (midnight UTC); otherwise `invalid_args`.
    pub fn parse(value: Option<&str>) -> Result<Since> {
        let Some(value) = value else {
            return Ok(Since::Last);
        };
        if value == "last" {
            return Ok(Since::Last);
        }
        if let Some(t) = crate::clock::restamp_compact(value) {
            return Ok(Since::From(t));
        }
        if let Some(d) = crate::clock::parse_date(value) {
            return Ok(Since::From(crate::clock::Time::at_midnight(d).compact()));
        }
        Err(Error::invalid_args(format!(
            "--since {} is not a date",
            serde_json::Value::from(value)
        ))
        .with_hint("use `last`, RFC 3339 (2026-01-31T09:00:00Z) or a date (2026-01-31)")
        .with_detail("flag", "--since"))
    }

    pub fn as_option(&self) -> Option<&str> {
        match self {
            Since::Last => None,
            Since::From(stamp) => Some(stamp),
        }
    }
}

/// The mining order of an episode: start time, counter, home id, then the
/// rename suffix or the whole id when it has no start time, then the session
/// (the order of `track`, oldest first).
type Key = (String, u64, String, String, String);

fn key_of(session: &str, id: &str) -> Key {
    match episodes::parse_id(id) {
        Some(p) => (
            p.stamp.to_string(),
            p.n,
            p.home.to_string(),
            p.renamed.to_string(),
            session.to_string(),
        ),
        None => (
            String::new(),
            0,
            String::new(),
            id.to_string(),
            session.to_string(),
        ),
    }
}

fn sort_key(ep: &EpisodeFile) -> Key {
    key_of(&ep.session, &ep.id)
}

/// The episodes a run mines, oldest first, and whether the run may move the
/// high-water mark (only a run that mines every episode after it may: not
/// one limited to some sessions, nor a `--since` that skips some).
pub struct Selection {
    pub episodes: Vec<EpisodeFile>,
    pub advance: bool,
    /// The open episodes of the chosen sessions: not mined until closed.
    pub open: u64,
}

/// Closed episodes only; `sessions` (validated like track's session keys)
/// narrow the choice. Only the file list is held, never the turns.
pub fn select(home: &Home, state: &State, since: &Since, sessions: &[String]) -> Result<Selection> {
    let mut all = Vec::new();
    if sessions.is_empty() {
        all = episodes::all_episodes(home, None)?;
    } else {
        let mut seen = HashSet::new();
        for session in sessions {
            if seen.insert(session.as_str()) {
                all.extend(episodes::all_episodes(home, Some(session))?);
            }
        }
    }
    let open = all.iter().filter(|ep| ep.open).count() as u64;
    all.retain(|ep| !ep.open);
    let mut keyed: Vec<(Key, EpisodeFile)> =
        all.into_iter().map(|ep| (sort_key(&ep), ep)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let mark = state.high_water.as_ref().map(HighWater::key);
    let after_mark = |key: &Key| mark.as_ref().is_none_or(|m| key > m);
    let started_since = |key: &Key, stamp: &str| !key.0.is_empty() && key.0.as_str() >= stamp;
    let advance = sessions.is_empty()
        && match since.as_option() {
            None => true,
            Some(stamp) => keyed
                .iter()
                .filter(|(k, _)| after_mark(k))
                .all(|(k, _)| started_since(k, stamp)),
        };
    let episodes = keyed
        .into_iter()
        .filter(|(k, _)| match since.as_option() {
            None => after_mark(k),
            Some(stamp) => started_since(k, stamp),
        })
        .map(|(_, ep)| ep)
        .collect();
    Ok(Selection {
        episodes,
        advance,
        open,
    })
}

/// Whether `ep` comes after the mark `hw` (the mark moves forward only).
pub fn is_after(ep: &EpisodeFile, hw: Option<&HighWater>) -> bool {
    hw.is_none_or(|hw| sort_key(ep) > hw.key())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorType;

    #[test]
    fn since_takes_last_dates_and_times() {
        assert_eq!(Since::parse(None).unwrap(), Since::Last);
        assert_eq!(Since::parse(Some("last")).unwrap(), Since::Last);
        assert_eq!(
            Since::parse(Some("2026-01-15")).unwrap(),
            Since::From("20260115T000000Z".into())
        );
        assert_eq!(
            Since::parse(Some("2026-01-15T10:30:00+01:00")).unwrap(),
            Since::From("20260115T093000Z".into())
        );
        for bad in ["yesterday", "2026-13-01", "", "15/01/2026"] {
            assert_eq!(
                Since::parse(Some(bad)).unwrap_err().kind,
                ErrorType::InvalidArgs,
                "{bad}"
            );
        }
    }

    #[test]
    fn the_order_is_start_time_then_counter_then_session() {
        let mut keys = [
            key_of("b", "ep-20260115T093000Z-2"),
            key_of("a", "ep-20260115T093000Z-10"),
            key_of("a", "ep-20260101T000000Z-1"),
            key_of("z", "odd"),
            key_of("a", "ep-20260115T093000Z-k3f9q2-2"),
        ];
        keys.sort();
        assert_eq!(keys[0].3, "odd");
        assert_eq!(keys[1].0, "20260101T000000Z");
        assert_eq!(keys[2].1, 2);
        assert_eq!((keys[3].1, keys[3].2.as_str()), (2, "k3f9q2"));
        assert_eq!(keys[4].1, 10);
    }
}
