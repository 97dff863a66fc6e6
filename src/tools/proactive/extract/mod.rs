//! Foresight from turns: commitments and deadlines ("I'll send the report by
//! Friday") become items, dated against the turn's own timestamp.
//!
//! `proactive extract` mines the user and assistant turns of the home's
//! episodes (closed and open) that it has not seen yet — a per-episode mark
//! in `runs/proactive/extract.json` — or those since `--since WHEN`, finds
//! commitments deterministically ([`find`]) or, with a model route
//! configured, through the model (falling back to [`find`] on any error),
//! and appends the new ones to `memory/foresight.jsonl`. It never creates an
//! item that exists: same source `extract:<turn id>`, or same normalized text
//! and due.

mod find;

pub use find::{DEFAULT_WINDOW_DAYS, Found, GRACE_DAYS, MAX_TEXT_CHARS, find, find_in};

use super::when::{self, Zone};
use super::{Item, ItemStatus, items};
use crate::clock::Clock;
use crate::clock::{Time, days};
use crate::error::Result;
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::track::episodes::{self, EpisodeFile, Turn};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};

/// The lock held for a whole extraction (two at once would both add an item).
pub const LOCK: &str = "proactive-extract";
/// Schema of the state file.
pub const STATE_SCHEMA: &str = "agentbox.proactive.extract/v1";
/// At most this many turns go to the model in one run; more are mined deterministically.
pub const MODEL_MAX_TURNS: usize = 400;
/// Turns per model call.
const MODEL_BATCH: usize = 50;
/// Characters of a turn shown to the model.
const MODEL_TURN_CHARS: usize = 1500;

/// What `proactive extract` mines.
#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    /// `None` or `Some("last")`: after the last extraction; else an RFC 3339
    /// time, a date or any WHEN (its start).
    pub since: Option<String>,
    /// Only these sessions (empty: all).
    pub sessions: Vec<String>,
}

/// What one extraction did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The items created (already appended).
    pub items: Vec<Item>,
    pub episodes: usize,
    pub turns: usize,
    pub skipped_duplicates: usize,
    /// `deterministic` or `model`.
    pub method: String,
    /// The start of the window for `--since WHEN`.
    pub since: Option<Time>,
    pub warnings: Vec<String>,
}

/// `proactive extract`: items from recent episodes.
pub fn run(ctx: &crate::tools::Ctx, opts: &ExtractOptions) -> Result<Outcome> {
    let home = ctx.home()?;
    let report = extract(home, &ctx.clock, opts)?;
    let zone = Zone::from_env();
    let items: Vec<Value> = report
        .items
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect();
    let data = json!({
        "items": items,
        "scanned": {"episodes": report.episodes, "turns": report.turns},
        "skipped_duplicates": report.skipped_duplicates,
        "method": report.method,
    });
    let mut text = if report.turns == 0 {
        match report.since {
            Some(since) => format!("No turns since {}\n", zone.show(since)),
            None => "No new turns since the last extraction\n".to_string(),
        }
    } else {
        let mut line = format!(
            "{} new item{} from {} turn{} in {} episode{}",
            report.items.len(),
            plural(report.items.len()),
            report.turns,
            plural(report.turns),
            report.episodes,
            plural(report.episodes),
        );
        if report.skipped_duplicates > 0 {
            line.push_str(&format!(" ({} already known)", report.skipped_duplicates));
        }
        line.push('\n');
        line
    };
    for item in &report.items {
        let due = item
            .due
            .as_deref()
            .and_then(|d| Time::parse(d).ok())
            .map(|d| zone.show(d))
            .unwrap_or_else(|| "no due date".to_string());
        text.push_str(&format!(
            "  {}  {}  {}\n",
            ctx.style.bold(&item.id),
            ctx.style.cyan(&due),
            item.text
        ));
    }
    let mut outcome = Outcome::new(data, text).with_meta("count", report.items.len());
    for warning in report.warnings {
        outcome = outcome.with_warning(warning);
    }
    Ok(outcome)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The per-episode marks: how far each episode has been mined.
#[derive(Debug, Default)]
struct State {
    last_run: Option<String>,
    /// `<session>/<episode id>` → (last seq mined, the episode was closed).
    episodes: BTreeMap<String, (u64, bool)>,
}

impl State {
    fn read(home: &Home) -> Result<State> {
        let path = home.store.path(&["runs", "proactive", "extract.json"])?;
        // A damaged state file only costs a re-scan (dedupe keeps items
        // unique): not UTF-8, too big, not JSON, or not this schema.
        let damaged = |why: &str| {
            home.warn(format!(
                "{} {why}; mining every episode again (no item is duplicated)",
                path.display()
            ));
            Ok(State::default())
        };
        let text = match home.store.read(&path) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(State::default()),
            Err(e) if e.kind == crate::error::ErrorType::InvalidArgs => {
                return damaged("cannot be read (not UTF-8, or over limits.max_item_bytes)");
            }
            Err(e) => return Err(e),
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            return damaged("is not JSON");
        };
        if value["schema"] != STATE_SCHEMA {
            return damaged(&format!("is not an {STATE_SCHEMA} file"));
        }
        let mut state = State {
            last_run: value["last_run"].as_str().map(str::to_string),
            episodes: BTreeMap::new(),
        };
        if let Some(map) = value["episodes"].as_object() {
            for (key, mark) in map {
                let seq = mark["seq"].as_u64().unwrap_or(0);
                let closed = mark["closed"].as_bool().unwrap_or(false);
                state.episodes.insert(key.clone(), (seq, closed));
            }
        }
        Ok(state)
    }

    fn write(&self, home: &Home) -> Result<()> {
        let path = home.store.path(&["runs", "proactive", "extract.json"])?;
        if let Some(dir) = path.parent() {
            home.store.ensure_dir(dir)?;
        }
        let mut episodes = Map::new();
        for (key, (seq, closed)) in &self.episodes {
            episodes.insert(key.clone(), json!({"seq": seq, "closed": closed}));
        }
        home.store.write_json(
            &path,
            &json!({
                "schema": STATE_SCHEMA,
                "last_run": self.last_run,
                "episodes": episodes,
            }),
        )
    }
}

/// A turn to mine, with its parsed time.
struct Candidate {
    turn: Turn,
    ts: Time,
}

/// The library form of `proactive extract`: mines, dedupes, appends, and
/// moves the marks. Deterministic unless the home has a model route.
/// Dates are read in the zone from `TZ`.
pub fn extract(home: &Home, clock: &Clock, opts: &ExtractOptions) -> Result<Report> {
    extract_in(home, clock, opts, &Zone::from_env())
}

/// [`extract`] in an explicit zone.
pub fn extract_in(
    home: &Home,
    clock: &Clock,
    opts: &ExtractOptions,
    zone: &Zone,
) -> Result<Report> {
    let now = clock.now();
    let since = match opts.since.as_deref().map(str::trim) {
        None | Some("last") | Some("") => None,
        Some(text) => Some(
            when::resolve_in(text, now, zone)
                .map_err(|e| {
                    e.with_detail("flag", "--since").with_hint(format!(
                        "--since takes `last` or a WHEN; {}",
                        when::ACCEPTED
                    ))
                })?
                .start,
        ),
    };
    let _held = home.store.lock(LOCK)?;
    let mut state = State::read(home)?;
    let mut report = Report {
        since,
        method: "deterministic".to_string(),
        ..Report::default()
    };

    let episodes = list_episodes(home, &opts.sessions)?;
    let mut candidates = Vec::new();
    for ep in &episodes {
        let key = format!("{}/{}", ep.session, ep.id);
        let mark = state.episodes.get(&key).copied();
        if since.is_none() && matches!(mark, Some((_, true))) {
            continue; // a closed episode mined to its end never changes
        }
        let parsed = episodes::read(ep)?;
        let before = report.turns;
        let from_seq = if since.is_none() {
            mark.map_or(0, |(seq, _)| seq)
        } else {
            0
        };
        let mut high = mark.map_or(0, |(seq, _)| seq);
        for turn in parsed.turns {
            high = high.max(turn.seq);
            if since.is_none() && mark.is_some() && turn.seq <= from_seq {
                continue;
            }
            if turn.role != "user" && turn.role != "assistant" {
                continue;
            }
            let Some(ts) = Time::parse(&turn.ts).ok() else {
                continue;
            };
            if since.is_some_and(|s| ts < s) {
                continue;
            }
            report.turns += 1;
            candidates.push(Candidate { turn, ts });
        }
        if report.turns > before {
            report.episodes += 1;
        }
        state.episodes.insert(key, (high, !ep.open));
    }

    let mut found = deterministic(&candidates, zone);
    if !candidates.is_empty() {
        match model_route(home) {
            Ok(None) => {}
            Ok(Some(_)) if candidates.len() > MODEL_MAX_TURNS => report.warnings.push(format!(
                "{} turns to mine (over {MODEL_MAX_TURNS}): extracted deterministically, not through the model",
                candidates.len()
            )),
            Ok(Some(route)) => match through_model(&route, &candidates, zone) {
                Ok(by_model) => {
                    found = by_model;
                    report.method = "model".to_string();
                }
                Err(e) => report.warnings.push(format!(
                    "the model route failed ({}); extracted deterministically",
                    e.message
                )),
            },
            Err(e) => report.warnings.push(format!(
                "the model route is not usable ({}); extracted deterministically",
                e.message
            )),
        }
    }

    let existing = items::current(home)?;
    let mut sources: HashSet<String> = existing.iter().map(|i| i.source.clone()).collect();
    let mut keys: HashSet<(String, Option<String>)> = existing
        .iter()
        .map(|i| (normalize(&i.text), i.due.clone()))
        .collect();
    let stamp = clock.stamp();
    let mut new_items: Vec<Item> = Vec::new();
    let mut seen_now: HashSet<String> = HashSet::new();
    for (turn_id, f) in found {
        let source = format!("extract:{turn_id}");
        let due = f.due.map(rfc3339);
        let key = (normalize(&f.text), due.clone());
        if (sources.contains(&source) && !seen_now.contains(&source)) || keys.contains(&key) {
            report.skipped_duplicates += 1;
            continue;
        }
        let n = new_items.iter().filter(|i| i.source == source).count();
        let item = Item {
            id: item_id(&source, n),
            // Control characters (ESC, NUL) in a turn never reach an item.
            text: f
                .text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect(),
            valid_from: rfc3339(f.valid_from),
            valid_until: rfc3339(f.valid_until),
            due,
            source: source.clone(),
            created: stamp.clone(),
            updated: stamp.clone(),
            status: ItemStatus::Open,
            snoozed_until: None,
            tags: vec!["extract".to_string()],
        };
        // A deadline too far off to store (past year 9999) is skipped with a
        // warning; it must not stop the run or leave an unreadable line.
        if let Err(field) = item.check_times() {
            report.warnings.push(format!(
                "turn {turn_id}: skipped an item whose {field} is past year 9999"
            ));
            continue;
        }
        new_items.push(item);
        seen_now.insert(source.clone());
        sources.insert(source);
        keys.insert(key);
    }
    if !new_items.is_empty() {
        items::append(home, &new_items)?;
    }
    state.last_run = Some(stamp);
    state.write(home)?;
    report.items = new_items;
    report.warnings.extend(home.take_warnings());
    Ok(report)
}

fn list_episodes(home: &Home, sessions: &[String]) -> Result<Vec<EpisodeFile>> {
    if sessions.is_empty() {
        return episodes::all_episodes(home, None);
    }
    let mut all = Vec::new();
    for key in sessions {
        all.extend(episodes::all_episodes(home, Some(key))?);
    }
    Ok(all)
}

fn deterministic(candidates: &[Candidate], zone: &Zone) -> Vec<(String, Found)> {
    candidates
        .iter()
        .flat_map(|c| {
            find_in(&c.turn.content, &c.turn.role, c.ts, zone)
                .into_iter()
                .map(|f| (c.turn.id.clone(), f))
        })
        .collect()
}

fn model_route(home: &Home) -> Result<Option<crate::oda::Route>> {
    crate::oda::Route::from_home(home)
}

/// Asks the model for the commitments of the candidate turns, in batches.
/// The reply is JSON: `{"items": [{"turn_id", "text", "due"}]}` where `due`
/// is RFC 3339, a WHEN phrase (read against the turn's time) or null.
fn through_model(
    route: &crate::oda::Route,
    candidates: &[Candidate],
    zone: &Zone,
) -> Result<Vec<(String, Found)>> {
    let mut found = Vec::new();
    for batch in candidates.chunks(MODEL_BATCH) {
        let turns: Vec<Value> = batch
            .iter()
            .map(|c| {
                let content: String = c.turn.content.chars().take(MODEL_TURN_CHARS).collect();
                json!({"turn_id": c.turn.id, "role": c.turn.role, "ts": c.turn.ts, "text": content})
            })
            .collect();
        let prompt = format!(
            "Find commitments, reminders and deadlines in these conversation turns: promises \
             (\"I'll send the report by Friday\"), reminder requests (\"remind me next week to renew \
             the cert\") and future dates stated as facts (\"the demo is on 12 March\"). Ignore past \
             events, questions that ask nothing to be done, idioms, code and logs. Resolve every date \
             against the turn's own `ts`. Reply with JSON only: {{\"items\": [{{\"turn_id\": \"…\", \
             \"text\": \"the commitment sentence\", \"due\": \"RFC 3339 or null\"}}]}}.\n\nTurns:\n{}",
            serde_json::to_string(&turns).unwrap_or_default()
        );
        let answer = route.ask(&prompt, &[], None, &mut |_| {})?;
        found.extend(read_model_reply(&answer.text, batch, zone)?);
    }
    Ok(found)
}

fn read_model_reply(reply: &str, batch: &[Candidate], zone: &Zone) -> Result<Vec<(String, Found)>> {
    let bad = |why: &str| crate::error::Error::internal(format!("the model's reply {why}"));
    let (Some(open), Some(close)) = (reply.find('{'), reply.rfind('}')) else {
        return Err(bad("has no JSON object"));
    };
    let value: Value = serde_json::from_str(reply.get(open..=close).unwrap_or_default())
        .map_err(|e| bad(&format!("is not JSON: {e}")))?;
    let list = value["items"]
        .as_array()
        .ok_or_else(|| bad("has no `items` list"))?;
    let mut found = Vec::new();
    for entry in list {
        let (Some(turn_id), Some(text)) = (entry["turn_id"].as_str(), entry["text"].as_str())
        else {
            return Err(bad("has an item without `turn_id` or `text`"));
        };
        let Some(c) = batch.iter().find(|c| c.turn.id == turn_id) else {
            return Err(bad(&format!("names an unknown turn {turn_id:?}")));
        };
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            continue;
        }
        let text = if text.chars().count() > MAX_TEXT_CHARS {
            let mut t: String = text.chars().take(MAX_TEXT_CHARS - 1).collect();
            t.push('…');
            t
        } else {
            text
        };
        let due = match entry["due"].as_str() {
            Some(d) => Some(
                when::resolve_in(d, c.ts, zone)
                    .map_err(|_| bad(&format!("has an unreadable due {d:?}")))?
                    .end,
            ),
            None => None,
        };
        let item = match due {
            Some(due) if due < c.ts => continue,
            Some(due) => Found {
                text,
                due: Some(due),
                valid_from: c.ts,
                valid_until: due + days(GRACE_DAYS),
            },
            None => Found {
                text,
                due: None,
                valid_from: c.ts,
                valid_until: c.ts + days(DEFAULT_WINDOW_DAYS),
            },
        };
        found.push((turn_id.to_string(), item));
    }
    Ok(found)
}

fn rfc3339(t: Time) -> String {
    t.stamp()
}

/// Lowercase words and digits only, for the text-and-due duplicate check.
fn normalize(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A stable id: the same turn's n-th commitment always gets the same one.
fn item_id(source: &str, n: usize) -> String {
    let digest = Sha256::digest(format!("{source}#{n}").as_bytes());
    let hex: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    format!("fx_{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_ignores_case_and_punctuation() {
        assert_eq!(
            normalize("I'll send  the Report, by Friday!"),
            normalize("i ll send the report by friday")
        );
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        assert_eq!(item_id("extract:t1", 0), item_id("extract:t1", 0));
        assert_ne!(item_id("extract:t1", 0), item_id("extract:t1", 1));
        assert!(item_id("extract:t1", 0).starts_with("fx_"));
    }
}
