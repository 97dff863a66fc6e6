//! The evolve miner alone over a home's closed episodes, for
//! `tools/bench-evolve.py --lib` (until `evolve run` is wired, and to see
//! the miner's share of a run).
//!
//! Usage: cargo run --release --example evolve_mine -- HOME [--batch N]
//! Prints one JSON line: episodes, turns, candidates by kind, the state's
//! keys and size, and the time spent (total, and feeding the miner alone).

use agentbox::home::Home;
use agentbox::tools::evolve::mine::{EpisodeRef, Miner, MinerState};
use agentbox::tools::knowledge::profile;
use agentbox::tools::track::parse_text;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut home_path = None;
    let mut batch = 100usize;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--batch" => batch = args.next().ok_or("--batch needs a number")?.parse()?,
            _ => home_path = Some(PathBuf::from(arg)),
        }
    }
    let home_path = home_path.ok_or("usage: evolve_mine HOME [--batch N]")?;
    let start = Instant::now();
    agentbox::registry::install();
    let home = Home::open(home_path).map_err(|e| format!("{e:?}"))?;
    let profile = profile::read(&home).map_err(|e| format!("{e:?}"))?;

    // The closed episodes, oldest first (start time and counter in the id).
    let root = home
        .store
        .path(&["memory", "episodes"])
        .map_err(|e| format!("{e:?}"))?;
    let mut episodes = Vec::new();
    for session in std::fs::read_dir(&root)?.flatten() {
        let name = session.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(session.path())?.flatten() {
            let file_name = file.file_name().to_string_lossy().into_owned();
            if file_name.ends_with(".open.jsonl") {
                continue;
            }
            if let Some(id) = file_name.strip_suffix(".jsonl") {
                let (stamp, n) = id
                    .strip_prefix("ep-")
                    .and_then(|r| r.rsplit_once('-'))
                    .unwrap_or(("", "0"));
                let order = (stamp.to_string(), n.parse::<u64>().unwrap_or(0));
                episodes.push((order, name.clone(), id.to_string(), file.path()));
            }
        }
    }
    episodes.sort();

    let mut miner = Miner::new(MinerState::default(), &profile);
    let mut mining = std::time::Duration::ZERO;
    let mut turns = 0usize;
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, (_, session, id, path)) in episodes.iter().enumerate() {
        let parsed = parse_text(&std::fs::read(path)?, session, id);
        turns += parsed.turns.len();
        let t = Instant::now();
        miner.feed(&EpisodeRef { session, id }, &parsed.turns);
        if (i + 1) % batch.max(1) == 0 {
            for c in miner.ready() {
                *by_kind.entry(c.kind.as_str()).or_default() += 1;
            }
        }
        mining += t.elapsed();
    }
    let t = Instant::now();
    for c in miner.ready() {
        *by_kind.entry(c.kind.as_str()).or_default() += 1;
    }
    mining += t.elapsed();
    let state = miner.into_state();
    let state_bytes = serde_json::to_vec(&state)?.len();
    let report = serde_json::json!({
        "episodes": episodes.len(),
        "turns": turns,
        "candidates": by_kind,
        "state_keys": state.keys(),
        "state_bytes": state_bytes,
        "elapsed_ms": start.elapsed().as_secs_f64() * 1000.0,
        "mining_ms": mining.as_secs_f64() * 1000.0,
    });
    println!("{report}");
    Ok(())
}
