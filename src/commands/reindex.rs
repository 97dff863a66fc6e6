//! `agentbox reindex`: rebuild the derived search index from the files.

use crate::error::Result;
use crate::output::Outcome;
use crate::tools::{Ctx, Tool};
use clap::{ArgMatches, Parser};
use serde_json::{Map, Value, json};

pub const COMMAND: Tool = Tool::derived::<Reindex>("reindex", run);

/// Rebuild the search index from the files of the home
///
/// Drop the search index (index/search.db) and rebuild it from the files the
/// tools make searchable (episodes, notes, profile facts, …). The index is
/// derived: this loses nothing. Search notices hand edits to notes and
/// PROFILE.md on its own; reindex is for a deleted or damaged index, or after
/// editing episode files by hand.
#[derive(Debug, Parser)]
#[command(
    name = "reindex",
    after_help = "Examples:\n  agentbox reindex\n  agentbox reindex --format json | jq .data.kinds"
)]
struct Reindex {}

fn run(ctx: &Ctx, _m: &ArgMatches) -> Result<Outcome> {
    let home = ctx.home()?;
    let started = std::time::Instant::now();
    let stats = crate::search::rebuild(home)?;
    let seconds = started.elapsed().as_secs_f64();
    let s = ctx.style;
    let kinds = crate::search::kinds();
    let counted: Vec<String> = kinds
        .iter()
        .map(|k| format!("{} {k}(s)", stats.count(k)))
        .collect();
    let mut text = format!(
        "{} the search index from {} file(s): {} in {:.2}s\n",
        s.green("Rebuilt"),
        stats.files,
        counted.join(", "),
        seconds
    );
    for (path, message) in &stats.skipped {
        text.push_str(&format!("  {} {path}: {message}\n", s.yellow("skipped")));
    }
    let skipped: Vec<Value> = stats
        .skipped
        .iter()
        .map(|(path, message)| json!({"path": path, "message": message}))
        .collect();
    let per_kind: Map<String, Value> = kinds
        .iter()
        .map(|k| (k.to_string(), json!(stats.count(k))))
        .collect();
    let total: usize = stats.kinds.values().sum();
    let mut data = json!({
        "files": stats.files,
        "kinds": per_kind,
        "skipped": skipped,
        "seconds": seconds,
    });
    // A plural field per kind too (`turns`, `notes`, `facts` …), as the first
    // release printed them.
    for k in &kinds {
        data[format!("{k}s")] = json!(stats.count(k));
    }
    Ok(Outcome::new(data, text).with_meta("count", total))
}
