//! The deterministic miner: episodes in, candidates out, streaming (one
//! episode at a time, bounded state carried between runs).
//!
//! Three miners share one state:
//! - [`sequences`]: contiguous 3–6 step tool-call sequences seen in at least
//!   [`SEQ_MIN_EPISODES`] distinct episodes (and 0.2 % of the episodes mined,
//!   [`seq_min_support`]) → skill candidates (maximal ones
//!   only, never all the same tool);
//! - [`corrections`]: user corrections ("no, use pnpm", "don't commit to
//!   main", "I prefer tabs") → one PROFILE.md Preferences line each;
//! - [`failures`]: failed tool calls with the same signature at least
//!   [`FAIL_MIN_TURNS`] times → a knowledge note with the fix that followed.
//!
//! The state keeps, per key, a count, the last time it was seen (a counter of
//! fed episodes) and at most [`MAX_EVIDENCE`] pointers to where it was seen;
//! it is capped at `max_keys` keys, evicting the least recently seen keys
//! below their threshold first.

mod corrections;
mod failures;
mod sequences;

pub use corrections::parse_correction;
pub use failures::{error_line, normalize_error_line};

use super::{
    Candidate, Evidence, Kind, KnowledgePayload, Payload, PreferencePayload, SkillPayload,
};
use crate::tools::knowledge::profile::{self, Profile};
use crate::tools::track::episodes::{self, Turn};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Keys the state keeps at most, by default (all three kinds together).
pub const DEFAULT_MAX_KEYS: usize = 50_000;
/// Evidence items a candidate carries at most.
pub const MAX_EVIDENCE: usize = 10;
/// Distinct episodes a tool sequence needs to be proposed.
pub const SEQ_MIN_EPISODES: u32 = 3;
/// In a big home a sequence must also recur in this share of the episodes
/// mined so far (0.2 %: 20 of 10,000): three chance repeats among
/// thousands of episodes are noise, not a habit worth a skill.
pub const SEQ_MIN_SHARE: f64 = 0.002;

/// The support a sequence needs after `episodes` episodes: at least
/// [`SEQ_MIN_EPISODES`], and [`SEQ_MIN_SHARE`] of them.
pub fn seq_min_support(episodes: u64) -> u32 {
    let share = (episodes as f64 * SEQ_MIN_SHARE).ceil() as u32;
    share.max(SEQ_MIN_EPISODES)
}
/// Distinct failed turns a failure signature needs to be proposed.
pub const FAIL_MIN_TURNS: u32 = 2;
/// Longest evidence excerpt, in characters.
pub const MAX_EXCERPT: usize = 200;

/// What the miner carries from one run to the next (persisted by `run` in
/// `runs/evolve/state.json`): the partial counts of patterns not yet
/// proposed, and the keys already proposed (so they are not counted again
/// from scratch). Maps are written sorted by key, so the file is stable.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MinerState {
    /// Episodes fed so far, over every run: the clock of "least recently seen".
    #[serde(default)]
    tick: u64,
    /// The key cap, when not [`DEFAULT_MAX_KEYS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_keys: Option<usize>,
    #[serde(default, serialize_with = "sorted")]
    seqs: HashMap<String, SeqEntry>,
    #[serde(default, serialize_with = "sorted")]
    prefs: HashMap<String, PrefEntry>,
    #[serde(default, serialize_with = "sorted")]
    fails: HashMap<String, FailEntry>,
}

fn sorted<S: Serializer, V: Serialize>(map: &HashMap<String, V>, s: S) -> Result<S::Ok, S::Error> {
    map.iter().collect::<BTreeMap<_, _>>().serialize(s)
}

impl MinerState {
    /// An empty state that keeps at most `max_keys` keys.
    pub fn with_max_keys(max_keys: usize) -> MinerState {
        MinerState {
            max_keys: Some(max_keys.max(1)),
            ..MinerState::default()
        }
    }

    /// Changes the key cap (from config, say); the next episode fed evicts
    /// down to it.
    pub fn set_max_keys(&mut self, max_keys: usize) {
        self.max_keys = Some(max_keys.max(1));
    }

    /// How many keys (partial or proposed patterns) the state holds.
    pub fn keys(&self) -> usize {
        self.seqs.len() + self.prefs.len() + self.fails.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys() == 0
    }

    /// Episodes fed so far, over every run.
    pub fn episodes_fed(&self) -> u64 {
        self.tick
    }

    fn max_keys(&self) -> usize {
        self.max_keys.unwrap_or(DEFAULT_MAX_KEYS)
    }

    /// Drops the least recently seen keys until the state is back under its
    /// cap (to 90 % of it, so eviction does not run on every episode): first
    /// keys below their threshold, then proposed ones, then the rest.
    fn evict(&mut self) {
        let max = self.max_keys();
        let total = self.keys();
        if total <= max {
            return;
        }
        let target = max - max / 10;
        let mut all: Vec<(u8, u64, u8, &str)> = Vec::with_capacity(total);
        for (k, e) in &self.seqs {
            all.push((class(e.done, e.n >= SEQ_MIN_EPISODES), e.last, 0, k));
        }
        for (k, e) in &self.prefs {
            all.push((class(e.done, true), e.last, 1, k));
        }
        for (k, e) in &self.fails {
            all.push((class(e.done, e.n >= FAIL_MIN_TURNS), e.last, 2, k));
        }
        all.sort_unstable();
        let gone: Vec<(u8, String)> = all[..total - target]
            .iter()
            .map(|(_, _, kind, k)| (*kind, k.to_string()))
            .collect();
        for (kind, key) in gone {
            match kind {
                0 => {
                    self.seqs.remove(&key);
                }
                1 => {
                    self.prefs.remove(&key);
                }
                _ => {
                    self.fails.remove(&key);
                }
            }
        }
    }
}

/// Eviction order: 0 below threshold, 1 already proposed, 2 due.
fn class(done: bool, due: bool) -> u8 {
    match (done, due) {
        (true, _) => 1,
        (false, false) => 0,
        (false, true) => 2,
    }
}

/// Where a pattern was seen: session, episode, turn id (`#<seq>` when it is
/// the episode's `<episode>#<seq>`, to keep the state small), and for
/// corrections and failures the excerpt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Seen {
    s: String,
    e: String,
    t: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    x: String,
}

impl Seen {
    fn new(session: &str, episode: &str, turn: &str, excerpt: String) -> Seen {
        let t = match turn.strip_prefix(episode) {
            Some(rest) if rest.starts_with('#') => rest.to_string(),
            _ => turn.to_string(),
        };
        Seen {
            s: session.to_string(),
            e: episode.to_string(),
            t,
            x: excerpt,
        }
    }

    /// The turn id.
    fn turn(&self) -> String {
        if self.t.starts_with('#') {
            format!("{}{}", self.e, self.t)
        } else {
            self.t.clone()
        }
    }

    fn evidence(&self, excerpt: &str) -> Evidence {
        Evidence {
            session: self.s.clone(),
            episode: self.e.clone(),
            turn: self.turn(),
            excerpt: if self.x.is_empty() {
                excerpt_of(excerpt)
            } else {
                self.x.clone()
            },
        }
    }
}

/// A tool sequence's partial count.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct SeqEntry {
    /// Distinct episodes it was seen in.
    n: u32,
    last: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    done: bool,
    /// The first [`MAX_EVIDENCE`] episodes (turn: where the sequence starts).
    seen: Vec<Seen>,
    /// The clearest example: the shortest supporting episode, then the earliest.
    best: Best,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Best {
    /// Empty when it is the first supporting episode (`seen[0]`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    e: String,
    /// The episode's turn count.
    len: u32,
    /// The first line of its first user turn (the task), shortened.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    task: String,
}

impl SeqEntry {
    /// The clearest example's episode id.
    fn best_episode(&self) -> &str {
        if self.best.e.is_empty() {
            self.seen.first().map_or("", |s| s.e.as_str())
        } else {
            &self.best.e
        }
    }
}

/// A correction's count.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct PrefEntry {
    /// Distinct episodes it was said in.
    n: u32,
    last: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    done: bool,
    /// The normalized Preferences line.
    fact: String,
    seen: Vec<Seen>,
}

/// A failure signature's count.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct FailEntry {
    /// Distinct failed turns.
    n: u32,
    last: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    done: bool,
    tool: String,
    /// The normalized error (class or first error line), without the tool.
    error: String,
    seen: Vec<Seen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fix: Option<failures::Fix>,
}

/// One episode as the miner sees it.
#[derive(Debug)]
pub struct EpisodeRef<'a> {
    pub session: &'a str,
    pub id: &'a str,
}

#[derive(Debug)]
pub struct Miner {
    state: MinerState,
    /// The profile's lines (and their equivalents), normalized.
    known: HashSet<String>,
    /// Episodes fed in this miner's lifetime.
    fed: HashSet<String>,
    /// Keys returned by `ready` in this lifetime, per kind.
    returned: HashSet<(Kind, String)>,
    /// Keys touched since the last `ready`, per kind.
    dirty_seqs: HashSet<String>,
    dirty_prefs: HashSet<String>,
    dirty_fails: HashSet<String>,
}

impl Miner {
    /// A miner resuming from `state`; corrections already in `profile` are
    /// not proposed again.
    pub fn new(state: MinerState, profile: &Profile) -> Miner {
        let known = profile
            .preferences
            .iter()
            .chain(&profile.facts)
            .map(|line| profile::normalize(line))
            .collect();
        // Keys due but not proposed yet (a run stopped between feed and
        // ready) are checked at the next `ready`; proposed sequences come
        // along as the parents of the sub-sequences they subsume.
        let dirty_seqs = state
            .seqs
            .iter()
            .filter(|(_, e)| e.n >= SEQ_MIN_EPISODES)
            .map(|(k, _)| k.clone())
            .collect();
        let dirty_prefs = state
            .prefs
            .iter()
            .filter(|(_, e)| !e.done)
            .map(|(k, _)| k.clone())
            .collect();
        let dirty_fails = state
            .fails
            .iter()
            .filter(|(_, e)| !e.done && e.n >= FAIL_MIN_TURNS)
            .map(|(k, _)| k.clone())
            .collect();
        Miner {
            state,
            known,
            fed: HashSet::new(),
            returned: HashSet::new(),
            dirty_seqs,
            dirty_prefs,
            dirty_fails,
        }
    }

    /// Mines one whole episode (its turns in order). Feeding an episode again
    /// (same id) counts nothing twice.
    pub fn feed(&mut self, episode: &EpisodeRef, turns: &[Turn]) {
        if !self.fed.insert(episode.id.to_string()) {
            return;
        }
        self.state.tick += 1;
        self.feed_sequences(episode, turns);
        self.feed_corrections(episode, turns);
        self.feed_failures(episode, turns);
        self.state.evict();
    }

    fn feed_sequences(&mut self, episode: &EpisodeRef, turns: &[Turn]) {
        let windows = sequences::windows(turns);
        if windows.is_empty() {
            return;
        }
        let len = u32::try_from(turns.len()).unwrap_or(u32::MAX);
        let task = sequences::task(turns);
        let tick = self.state.tick;
        for (key, turn) in windows {
            let entry = self.state.seqs.entry(key.clone()).or_default();
            if entry.seen.iter().any(|s| s.e == episode.id) {
                continue;
            }
            let first = entry.n == 0;
            entry.n += 1;
            entry.last = tick;
            if entry.seen.len() < MAX_EVIDENCE {
                entry
                    .seen
                    .push(Seen::new(episode.session, episode.id, &turn, String::new()));
            }
            let better = first
                || (len, order_key(episode.id)) < (entry.best.len, order_key(entry.best_episode()));
            if better {
                entry.best = Best {
                    e: if first {
                        String::new()
                    } else {
                        episode.id.to_string()
                    },
                    len,
                    task: task.clone(),
                };
            }
            if entry.n >= SEQ_MIN_EPISODES {
                self.dirty_seqs.insert(key);
            }
        }
    }

    fn feed_corrections(&mut self, episode: &EpisodeRef, turns: &[Turn]) {
        let tick = self.state.tick;
        for turn in turns.iter().filter(|t| t.role == "user") {
            for fact in parse_correction(&turn.content) {
                let norm = profile::normalize(&fact);
                if corrections::equivalents(&fact)
                    .iter()
                    .any(|alt| self.known.contains(&profile::normalize(alt)))
                {
                    continue;
                }
                let key = format!("pref:{norm}");
                let entry = self.state.prefs.entry(key.clone()).or_default();
                if entry.seen.iter().any(|s| s.e == episode.id) {
                    continue;
                }
                if entry.fact.is_empty() {
                    entry.fact = fact;
                }
                entry.n += 1;
                entry.last = tick;
                if entry.seen.len() < MAX_EVIDENCE {
                    entry.seen.push(Seen::new(
                        episode.session,
                        episode.id,
                        &turn.id,
                        excerpt_of(&turn.content),
                    ));
                }
                self.dirty_prefs.insert(key);
            }
        }
    }

    fn feed_failures(&mut self, episode: &EpisodeRef, turns: &[Turn]) {
        let tick = self.state.tick;
        for failure in failures::scan(turns) {
            let key = format!("fail:{}: {}", failure.tool, failure.error);
            let entry = self.state.fails.entry(key.clone()).or_default();
            if entry.seen.iter().any(|s| s.turn() == failure.turn) {
                continue;
            }
            if entry.tool.is_empty() {
                entry.tool = failure.tool;
                entry.error = failure.error;
            }
            entry.n += 1;
            entry.last = tick;
            if entry.fix.is_none() {
                entry.fix = failure.fix;
            }
            if entry.seen.len() < MAX_EVIDENCE {
                entry.seen.push(Seen::new(
                    episode.session,
                    episode.id,
                    &failure.turn,
                    failure.excerpt,
                ));
            }
            if entry.n >= FAIL_MIN_TURNS {
                self.dirty_fails.insert(key);
            }
        }
    }

    /// The candidates whose thresholds are met since the last call (each
    /// key at most once per miner lifetime; `run` also filters keys already
    /// proposed in earlier runs), sorted by kind, then key.
    pub fn ready(&mut self) -> Vec<Candidate> {
        let mut out = Vec::new();
        self.ready_sequences(&mut out);
        self.ready_preferences(&mut out);
        self.ready_failures(&mut out);
        out.sort_by(|a, b| (a.kind, &a.key).cmp(&(b.kind, &b.key)));
        out
    }

    fn ready_sequences(&mut self, out: &mut Vec<Candidate>) {
        let dirty = std::mem::take(&mut self.dirty_seqs);
        // A sub-sequence is contained in every episode its one-step-longer
        // parents are in, so equal counts mean equal supporting episodes:
        // such a sub-sequence is not maximal. Parents with the same count
        // were touched by the same episodes, so they are dirty too.
        let mut parent_n: HashMap<String, u32> = HashMap::new();
        for key in &dirty {
            let Some(entry) = self.state.seqs.get(key) else {
                continue;
            };
            for child in sequences::children(key) {
                let n = parent_n.entry(child).or_default();
                *n = (*n).max(entry.n);
            }
        }
        let min_support = seq_min_support(self.state.tick);
        for key in dirty {
            let Some(entry) = self.state.seqs.get_mut(&key) else {
                continue;
            };
            if entry.done || entry.n < min_support {
                continue;
            }
            if parent_n.get(&key).is_some_and(|&p| p >= entry.n) {
                continue;
            }
            entry.done = true;
            if !self.returned.insert((Kind::Skill, key.clone())) {
                continue;
            }
            out.push(sequences::candidate(
                &key,
                entry.n,
                &entry.seen,
                entry.best_episode(),
                &entry.best.task,
            ));
        }
    }

    fn ready_preferences(&mut self, out: &mut Vec<Candidate>) {
        for key in std::mem::take(&mut self.dirty_prefs) {
            let Some(entry) = self.state.prefs.get_mut(&key) else {
                continue;
            };
            if entry.done || entry.n == 0 {
                continue;
            }
            entry.done = true;
            if !self.returned.insert((Kind::Preference, key.clone())) {
                continue;
            }
            let episodes = entry.n;
            out.push(Candidate {
                kind: Kind::Preference,
                title: format!("Preference: {}", entry.fact),
                confidence: (0.7 + 0.1 * f64::from(episodes - 1)).min(0.95),
                evidence: entry.seen.iter().map(|s| s.evidence("")).collect(),
                payload: Payload::Preference(PreferencePayload {
                    section: "preferences".to_string(),
                    fact: entry.fact.clone(),
                }),
                key,
            });
        }
    }

    fn ready_failures(&mut self, out: &mut Vec<Candidate>) {
        for key in std::mem::take(&mut self.dirty_fails) {
            let Some(entry) = self.state.fails.get_mut(&key) else {
                continue;
            };
            if entry.done || entry.n < FAIL_MIN_TURNS {
                continue;
            }
            entry.done = true;
            if !self.returned.insert((Kind::Knowledge, key.clone())) {
                continue;
            }
            let fixed = if entry.fix.is_some() { 0.15 } else { 0.0 };
            out.push(Candidate {
                kind: Kind::Knowledge,
                title: failures::title(&entry.tool, &entry.error),
                confidence: (0.5 + 0.1 * f64::from(entry.n - FAIL_MIN_TURNS) + fixed).min(0.95),
                evidence: entry.seen.iter().map(|s| s.evidence("")).collect(),
                payload: Payload::Knowledge(KnowledgePayload {
                    slug: failures::slug(&entry.tool, &entry.error),
                    title: failures::title(&entry.tool, &entry.error),
                    tags: vec![
                        "evolve".to_string(),
                        "failure".to_string(),
                        entry.tool.clone(),
                    ],
                    body: failures::body(
                        &entry.tool,
                        &entry.error,
                        entry.n,
                        &entry.seen,
                        entry.fix.as_ref(),
                    ),
                }),
                key,
            });
        }
    }

    /// The state so far (for a look without giving the miner up).
    pub fn state(&self) -> &MinerState {
        &self.state
    }

    /// The state to persist.
    pub fn into_state(self) -> MinerState {
        self.state
    }
}

/// An episode id's place in time (track's order: stamp, counter, home id,
/// rename suffix); other ids sort after, by name.
fn order_key(id: &str) -> (u8, Option<episodes::IdParts<'_>>, &str) {
    match episodes::parse_id(id) {
        Some(parts) => (0, Some(parts), ""),
        None => (1, None, id),
    }
}

/// Text as an evidence excerpt: whitespace collapsed, at most
/// [`MAX_EXCERPT`] characters (an ellipsis marks a cut).
fn excerpt_of(text: &str) -> String {
    shorten(
        &plain(text).split_whitespace().collect::<Vec<_>>().join(" "),
        MAX_EXCERPT,
    )
}

/// `text` without terminal escape sequences (colours, titles, cursor
/// moves: coloured tool output) and with every other control character
/// but `\n` and `\t` turned into a space, so that what is mined can be
/// shown on a terminal and written as a note or a profile line.
pub fn plain(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates, then one final byte
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC, DCS, SOS, PM, APC: up to BEL or ESC \\
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' {
                            if chars.peek() == Some(&'\\') {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                // nF (`ESC ( B`): intermediates, then one final byte
                Some(c) if ('\u{20}'..='\u{2f}').contains(&c) => {
                    for c in chars.by_ref() {
                        if !('\u{20}'..='\u{2f}').contains(&c) {
                            break;
                        }
                    }
                }
                // a two-character sequence (or a lone ESC at the end)
                _ => {}
            },
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// At most `max` characters, the last one `…` when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

#[cfg(test)]
mod tests;
