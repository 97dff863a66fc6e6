//! `evolve run`: the run loop — the run lock, the run folder and its
//! odek.event/v1 events, budgets, the high-water mark, the miner and the
//! model route.
//!
//! A run takes `evolve-run` without waiting, reads `state.json`, and mines
//! the chosen episodes in batches of up to [`BATCH`], one episode in memory
//! at a time. After each batch its new proposals go to the run's
//! `proposals.json` and the state (proposal ids, the miner's counts, the
//! high-water mark) to `state.json`: a crash loses at most the batch in
//! flight, and a run stopped by a budget is resumed by the next one.

mod budget;
mod refine;
mod report;
mod state;

pub use budget::{Hit, Limits};
pub use state::{HighWater, STATE_SCHEMA, State};

use super::mine::{EpisodeRef, Miner, MinerState};
use super::{
    Candidate, Kind, LOCK, PROPOSALS_SCHEMA, Payload, Proposal, ProposalsFile, RUN_LOCK,
    proposal_id,
};
use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::store::EventLog;
use crate::tools::Ctx;
use crate::tools::knowledge::profile::{self, Profile};
use crate::tools::track::episodes::{self, EpisodeFile, Turn};
use budget::Budget;
use serde_json::{Value, json};
use state::{Selection, Since};
use std::cell::Cell;
use std::collections::HashSet;
use std::path::PathBuf;

/// Episodes per batch (one `iteration_completed` event each).
pub const BATCH: usize = 100;
/// The `schema` of `run.json`.
pub const RUN_SCHEMA: &str = "agentbox.evolve.run/v1";
/// The `schema` of every event.
pub const EVENT_SCHEMA: &str = "odek.event/v1";

/// What mines: the real [`Miner`], or a test's.
/// Whether Ctrl-C asked the run to stop (after its first write: before it,
/// the process simply exits). The run stops after the episode in hand,
/// records the batch, saves its state and reports `cancelled`.
fn interrupted() -> bool {
    crate::store::interrupt_requested()
}

/// How often, at most, a run replaces `state.json` while it mines (it
/// holds up to ~10 MB of counts: saving per batch would triple a big run).
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

pub trait Mining {
    fn feed(&mut self, episode: &EpisodeRef, turns: &[Turn]);
    fn ready(&mut self) -> Vec<Candidate>;
    /// A copy of the counts to persist.
    fn snapshot(&self) -> MinerState;
}

impl Mining for Miner {
    fn feed(&mut self, episode: &EpisodeRef, turns: &[Turn]) {
        Miner::feed(self, episode, turns);
    }
    fn ready(&mut self) -> Vec<Candidate> {
        Miner::ready(self)
    }
    fn snapshot(&self) -> MinerState {
        Miner::state(self).clone()
    }
}

fn real_miner(state: MinerState, profile: &Profile) -> Box<dyn Mining> {
    Box::new(Miner::new(state, profile))
}

/// One model call: prompt in, reply text out.
pub type Ask<'a> = &'a mut dyn FnMut(&str) -> Result<String>;

/// A run as asked for (`evolve run`'s flags): what `run` checks and resolves
/// into [`Options`]. `None` limits fall back to the config's `evolve.*`.
#[derive(Debug, Clone, Default)]
pub struct RunRequest {
    /// Episodes started on or after this date (RFC 3339 or YYYY-MM-DD), or
    /// `last` (the default: after the high-water mark).
    pub since: Option<String>,
    /// Mine only these sessions (all when empty).
    pub sessions: Vec<String>,
    pub max_episodes: Option<u64>,
    pub max_seconds: Option<f64>,
    pub max_model_calls: Option<u64>,
    pub max_cost_usd: Option<f64>,
    /// Mine and report, but write nothing.
    pub dry_run: bool,
}

/// The options of one run.
#[derive(Debug, Clone)]
pub struct Options {
    pub since: Since,
    /// The `--since` value as given (recorded in run.json).
    pub since_text: Option<String>,
    pub sessions: Vec<String>,
    pub limits: Limits,
    pub dry_run: bool,
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Report {
    pub run_id: Option<String>,
    pub run_dir: Option<PathBuf>,
    pub model: String,
    pub episodes: u64,
    /// Open episodes left out (a session's episode is mined once closed).
    pub open_episodes: u64,
    pub batches: u64,
    pub proposals: Vec<Proposal>,
    pub model_calls: u64,
    pub cost_usd: f64,
    pub high_water: Option<HighWater>,
    pub warnings: Vec<String>,
    pub dry_run: bool,
}

/// `evolve run`: the request checked, the route and the miner chosen, the
/// report rendered.
pub fn run(ctx: &Ctx, args: &RunRequest) -> Result<Outcome> {
    let home = ctx.home()?;
    let limits = Limits::resolve(
        args.max_episodes,
        args.max_seconds,
        args.max_model_calls,
        args.max_cost_usd,
        &home.config.evolve,
    )?;
    let since = Since::parse(args.since.as_deref())?;
    for session in &args.sessions {
        episodes::session_dir(home, session)?;
    }
    let options = Options {
        since,
        since_text: args.since.clone(),
        sessions: args.sessions.clone(),
        limits,
        dry_run: args.dry_run,
    };
    let route = crate::oda::Route::from_home(home)?;
    let report = match &route {
        None => execute(
            home,
            &ctx.clock,
            &options,
            "deterministic",
            None,
            &real_miner,
        )?,
        Some(route) => {
            let label = format!("{}/{}", route.provider(), route.model());
            let mut ask = |prompt: &str| -> Result<String> {
                route
                    .ask(prompt, &[], None, &mut |_| {})
                    .map(|answer| answer.text)
            };
            execute(
                home,
                &ctx.clock,
                &options,
                &label,
                Some(&mut ask),
                &real_miner,
            )?
        }
    };
    Ok(report::outcome(home, &report))
}

/// A whole run: lock, state, selection, the batches, the closing records.
pub fn execute(
    home: &Home,
    clock: &Clock,
    options: &Options,
    model: &str,
    ask: Option<Ask<'_>>,
    new_miner: &dyn Fn(MinerState, &Profile) -> Box<dyn Mining>,
) -> Result<Report> {
    let _run_lock = home.store.try_lock(RUN_LOCK)?.ok_or_else(|| {
        Error::conflict("another evolve run is in progress in this home")
            .with_hint("another evolve run is in progress; wait for it or try again")
            .with_detail("lock", RUN_LOCK)
    })?;
    let state = state::load(home)?;
    if !options.dry_run {
        state::close_dead_runs(home, &clock.stamp())?;
    }
    let known = state::known_ids(home, &state)?;
    let profile = profile::read(home)?;
    let selection = state::select(home, &state, &options.since, &options.sessions)?;
    let (run_id, dir) = if options.dry_run {
        (None, None)
    } else {
        // A new folder: an id whose folder exists is drawn again (with
        // `AGENTBOX_SEED` left set every run draws the same ids, and reusing
        // the folder would overwrite that run's proposals).
        loop {
            let id = crate::ids::hex(32);
            let dir = home.store.path(&["runs", "evolve", &id])?;
            if home.store.ensure_dir(&dir)? {
                break (Some(id), Some(dir));
            }
        }
    };
    let mut run = Run {
        home,
        clock,
        options,
        model: model.to_string(),
        run_id,
        dir,
        started: clock.stamp(),
        high_water_before: state.high_water.clone(),
        state,
        known,
        budget: Budget::new(options.limits, &home.config.evolve),
        events: None,
        proposals: Vec::new(),
        batches: 0,
        warnings: Vec::new(),
        open_episodes: selection.open,
    };
    if let Err(e) = run.open() {
        return Err(run.with_run_dir(e));
    }
    let mined = run.mine(&selection, ask, new_miner, &profile);
    run.close(mined)
}

/// The run in progress.
struct Run<'a> {
    home: &'a Home,
    clock: &'a Clock,
    options: &'a Options,
    model: String,
    run_id: Option<String>,
    dir: Option<PathBuf>,
    started: String,
    high_water_before: Option<HighWater>,
    state: State,
    /// Ids already proposed (or dropped by the model), in any run.
    known: HashSet<String>,
    budget: Budget,
    events: Option<EventLog>,
    /// This run's new proposals.
    proposals: Vec<Proposal>,
    batches: u64,
    warnings: Vec<String>,
    /// Open episodes the selection left out.
    open_episodes: u64,
}

impl Run<'_> {
    fn file(&self, name: &str) -> Result<Option<PathBuf>> {
        match &self.run_id {
            Some(id) => Ok(Some(self.home.store.path(&["runs", "evolve", id, name])?)),
            None => Ok(None),
        }
    }

    fn with_run_dir(&self, error: Error) -> Error {
        match &self.dir {
            Some(dir) => error.with_meta("run_dir", dir.display().to_string()),
            None => error,
        }
    }

    /// The run folder's first files and `run_started`.
    fn open(&mut self) -> Result<()> {
        if let Some(path) = self.file("run.json")? {
            self.home
                .store
                .write_state(&path, &report::run_json(self, "running", None))?;
        }
        if let Some(path) = self.file("proposals.json")? {
            self.write_proposals(&path, &[])?;
        }
        if let Some(path) = self.file("events.jsonl")? {
            self.events = Some(self.home.store.create_event_log(&path)?);
        }
        self.emit(
            "run_started",
            None,
            json!({"model": self.model, "sandbox": false,
                   "max_iterations": self.options.limits.episodes}),
        )
    }

    /// One odek.event/v1 line (every string redacted by the log).
    fn emit(&mut self, kind: &str, iteration: Option<u64>, data: Value) -> Result<()> {
        let (Some(log), Some(run_id)) = (self.events.as_mut(), self.run_id.as_ref()) else {
            return Ok(());
        };
        let mut event = json!({
            "schema": EVENT_SCHEMA,
            "type": kind,
            "run_id": run_id,
            "timestamp": self.clock.stamp(),
        });
        if let Some(i) = iteration {
            event["iteration"] = json!(i);
        }
        event["data"] = data;
        log.append(&event)
    }

    /// The batches: feed up to BATCH episodes (the budgets checked before
    /// each), then review, draft, record. Stops at the end of the selection
    /// or when a budget is hit (the batch in hand is recorded first).
    fn mine(
        &mut self,
        selection: &Selection,
        mut ask: Option<Ask<'_>>,
        new_miner: &dyn Fn(MinerState, &Profile) -> Box<dyn Mining>,
        profile: &Profile,
    ) -> Result<()> {
        let mut rest = selection.episodes.iter().peekable();
        let mut miner = new_miner(self.state.miner.clone(), profile);
        let mut progress =
            crate::output::progress_bar(selection.episodes.len() as u64, "mining episodes");
        self.mine_batches(&mut rest, &mut *miner, selection, &mut ask, &mut progress)?;
        drop(progress);
        // The last batches' counts and mark, when the run ends or a budget
        // stops it. After an error the last save stands: it was taken
        // after a batch was fully recorded, so counts, mark and proposals
        // agree.
        if self.options.dry_run {
            return Ok(());
        }
        self.state.miner = miner.snapshot();
        state::save(self.home, &self.state)?;
        if interrupted() {
            return Err(Error::new(
                ErrorType::Cancelled,
                format!(
                    "evolve run interrupted after {} episode(s); what was mined is kept",
                    self.budget.episodes
                ),
            )
            .with_hint("run `evolve run` again to resume where this run stopped"));
        }
        Ok(())
    }

    fn mine_batches<'e>(
        &mut self,
        rest: &mut std::iter::Peekable<std::slice::Iter<'e, EpisodeFile>>,
        miner: &mut dyn Mining,
        selection: &Selection,
        ask: &mut Option<Ask<'_>>,
        progress: &mut crate::output::Progress,
    ) -> Result<()> {
        let mut saved_at = std::time::Instant::now();
        while rest.peek().is_some() && self.budget.hit.is_none() && !interrupted() {
            let mut last: Option<&EpisodeFile> = None;
            let mut fed = 0;
            while fed < BATCH
                && rest.peek().is_some()
                && !interrupted()
                && self.budget.before_episode()
            {
                let Some(ep) = rest.next() else { break };
                progress.inc(1);
                match episodes::read(ep) {
                    Ok(parsed) => miner.feed(
                        &EpisodeRef {
                            session: &ep.session,
                            id: &ep.id,
                        },
                        &parsed.turns,
                    ),
                    // Pruned meanwhile: nothing left to mine.
                    Err(e) if e.kind == ErrorType::NotFound => {}
                    Err(e) => return Err(e),
                }
                self.budget.episodes += 1;
                fed += 1;
                last = Some(ep);
            }
            let Some(last) = last else { break };
            self.batches += 1;
            let fresh: Vec<Candidate> = miner
                .ready()
                .into_iter()
                .filter(|c| !self.known.contains(&proposal_id(c.kind, &c.key)))
                .collect();
            let (kept, dropped) = self.review(fresh, ask)?;
            if selection.advance && state::is_after(last, self.state.high_water.as_ref()) {
                self.state.high_water = Some(HighWater::of(last));
            }
            self.record(kept, dropped)?;
            // state.json holds the miner's counts (megabytes in a big home):
            // it is replaced at most every SAVE_EVERY, and at the end of the
            // run. A crash loses at most that much mining (the next run
            // mines it again); proposals already written are never proposed
            // again (their run folder says so).
            if !self.options.dry_run && saved_at.elapsed() >= SAVE_EVERY {
                self.state.miner = miner.snapshot();
                state::save(self.home, &self.state)?;
                saved_at = std::time::Instant::now();
            }
            self.emit(
                "iteration_completed",
                Some(self.batches),
                json!({
                    "input_tokens": self.budget.input_tokens,
                    "output_tokens": self.budget.output_tokens,
                    "tools_called": self.budget.model_calls,
                    "episodes": self.budget.episodes,
                    "proposals": self.proposals.len(),
                }),
            )?;
        }
        Ok(())
    }

    /// Through the model route when there is one: one review call for the
    /// preference and knowledge candidates, then every skill candidate is
    /// drafted (through the same counted calls). Returns the candidates to
    /// propose and the ids the model dropped.
    fn review(
        &mut self,
        mut fresh: Vec<Candidate>,
        ask: &mut Option<Ask<'_>>,
    ) -> Result<(Vec<Candidate>, Vec<String>)> {
        let mut dropped = Vec::new();
        let mut warnings = Vec::new();
        let refused = Cell::new(false);
        let budget = &mut self.budget;
        let mut counted = ask.as_mut().map(|raw| {
            let refused = &refused;
            move |prompt: &str| -> Result<String> {
                if !budget.before_model_call() {
                    refused.set(true);
                    return Err(Error::new(
                        ErrorType::Permission,
                        "the model budget of this run is exhausted",
                    ));
                }
                let reply = (*raw)(prompt);
                budget.after_model_call(prompt, reply.as_deref().unwrap_or(""));
                reply
            }
        });
        if let Some(call) = counted.as_mut()
            && let Some(prompt) = refine::prompt(&fresh)
        {
            match call(&prompt).and_then(|reply| refine::apply(&mut fresh, &reply)) {
                Ok(gone) => {
                    dropped = gone.iter().map(|(k, key)| proposal_id(*k, key)).collect();
                }
                Err(_) if refused.get() => {}
                Err(e) => warnings.push(format!(
                    "the model route's review failed ({}); the deterministic proposals are kept",
                    e.message
                )),
            }
        }
        let mut kept = Vec::with_capacity(fresh.len());
        for mut c in fresh {
            if let Payload::Skill(payload) = &mut c.payload {
                let model = counted
                    .as_mut()
                    .map(|call| call as &mut dyn FnMut(&str) -> Result<String>);
                // A finding is proposed once (the miner marks it done), so
                // one whose draft fails (its example episode was pruned
                // meanwhile) is kept undrafted: `evolve apply` drafts it.
                if let Err(e) = super::draft::draft_skill(self.home, self.clock, payload, model) {
                    warnings.push(format!(
                        "the skill proposal {:?} could not be drafted yet ({}); `evolve apply` drafts it",
                        c.title, e.message
                    ));
                }
            }
            kept.push(c);
        }
        for w in warnings {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
        Ok((kept, dropped))
    }

    /// The batch's new proposals to this run's proposals.json, then the
    /// state (ids, dropped ids, the miner's counts, the mark) to state.json.
    fn record(&mut self, kept: Vec<Candidate>, dropped: Vec<String>) -> Result<()> {
        let run_id = self.run_id.clone().unwrap_or_default();
        let now = self.clock.stamp();
        let new: Vec<Proposal> = kept
            .into_iter()
            .map(|c| Proposal::from_candidate(c, &run_id, &now))
            .filter(|p| self.known.insert(p.id.clone()))
            .collect();
        for p in &new {
            self.state.proposals.insert(p.id.clone(), run_id.clone());
        }
        for id in dropped {
            self.known.insert(id.clone());
            self.state.dropped.insert(id, run_id.clone());
        }
        self.proposals.extend(new.iter().cloned());
        if self.options.dry_run {
            return Ok(());
        }
        if !new.is_empty()
            && let Some(path) = self.file("proposals.json")?
        {
            let _lock = self.home.store.lock(LOCK)?;
            // `apply`/`reject` may have changed this file meanwhile: re-read it.
            let mut proposals = match self.home.store.read_state(&path)? {
                Some(text) => serde_json::from_str::<ProposalsFile>(&text)
                    .map(|f| f.proposals)
                    .unwrap_or_default(),
                None => Vec::new(),
            };
            proposals.extend(new);
            self.write_proposals_held(&path, &proposals)?;
        }
        Ok(())
    }

    fn write_proposals(&self, path: &std::path::Path, proposals: &[Proposal]) -> Result<()> {
        let _lock = self.home.store.lock(LOCK)?;
        self.write_proposals_held(path, proposals)
    }

    fn write_proposals_held(&self, path: &std::path::Path, proposals: &[Proposal]) -> Result<()> {
        let file = ProposalsFile {
            schema: PROPOSALS_SCHEMA.to_string(),
            run_id: self.run_id.clone().unwrap_or_default(),
            proposals: proposals.to_vec(),
        };
        self.home.store.write_state(path, &file)
    }

    /// The closing records: `run.json`, `summary.md` and the last events.
    fn close(mut self, mined: Result<()>) -> Result<Report> {
        let duration_ms = self.budget.elapsed_ms();
        let failure = match (mined, self.budget.hit.clone()) {
            (Err(e), _) => {
                let class = if e.kind == ErrorType::Cancelled {
                    "context_canceled"
                } else {
                    "error"
                };
                Some((e, class))
            }
            (Ok(()), Some(hit)) => {
                let data = json!({"limit_name": hit.limit_name, "observed": hit.observed,
                                  "limit": hit.limit});
                let emitted = self.emit("budget_exceeded", Some(self.batches), data);
                match emitted {
                    Ok(()) => Some((hit.error(), "budget_exhausted")),
                    Err(e) => Some((e, "error")),
                }
            }
            (Ok(()), None) => None,
        };
        match failure {
            None => {
                let closing = (|| -> Result<()> {
                    if let Some(path) = self.file("run.json")? {
                        let value = report::run_json(&self, "completed", None);
                        self.home.store.write_state(&path, &value)?;
                    }
                    if let Some(path) = self.file("summary.md")? {
                        let text = report::summary(&self, "completed", None);
                        self.home.store.write_report(&path, &text)?;
                    }
                    self.emit(
                        "run_completed",
                        None,
                        json!({"duration_ms": duration_ms,
                               "input_tokens": self.budget.input_tokens,
                               "output_tokens": self.budget.output_tokens}),
                    )
                })();
                if let Err(e) = closing {
                    return Err(self.with_run_dir(e));
                }
                Ok(self.report())
            }
            Some((error, class)) => {
                // Best effort: the error is what the caller must see.
                let _ = self.emit(
                    "run_failed",
                    None,
                    json!({"duration_ms": duration_ms, "error_class": class}),
                );
                if let Ok(Some(path)) = self.file("run.json") {
                    let value = report::run_json(&self, "failed", Some(&error));
                    let _ = self.home.store.write_state(&path, &value);
                }
                if let Ok(Some(path)) = self.file("summary.md") {
                    let text = report::summary(&self, "failed", Some(&error));
                    let _ = self.home.store.write_report(&path, &text);
                }
                Err(self.with_run_dir(error))
            }
        }
    }

    fn report(self) -> Report {
        Report {
            run_id: self.run_id,
            run_dir: self.dir,
            model: self.model,
            episodes: self.budget.episodes,
            open_episodes: self.open_episodes,
            batches: self.batches,
            proposals: self.proposals,
            model_calls: self.budget.model_calls,
            cost_usd: budget::round6(self.budget.cost_usd),
            high_water: self.state.high_water,
            warnings: self.warnings,
            dry_run: self.options.dry_run,
        }
    }
}

/// The kind counts of a list of proposals.
fn kind_counts(proposals: &[Proposal]) -> Value {
    let count = |kind: Kind| proposals.iter().filter(|p| p.kind == kind).count();
    json!({
        "skill": count(Kind::Skill),
        "preference": count(Kind::Preference),
        "knowledge": count(Kind::Knowledge),
    })
}

#[cfg(test)]
mod tests;
