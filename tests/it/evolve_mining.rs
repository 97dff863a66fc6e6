//! The evolve miner on a recorded corpus with planted patterns
//! (tests/fixtures/evolve/, made by its generate.py): odek event streams
//! imported with `track import`, `messages[]` batches recorded with `track
//! record --messages` and `track flush`. Every planted pattern must be
//! proposed, and fewer than 10 % of the proposals may be unplanted.

use crate::common;

use agentbox::home::Home;
use agentbox::tools::evolve::mine::{EpisodeRef, Miner, MinerState};
use agentbox::tools::evolve::{Candidate, Kind, Payload};
use agentbox::tools::knowledge::profile;
use agentbox::tools::track::parse_text;
use common::{Sandbox, ok_data};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/evolve")
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures().join(dir))
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

/// A home with the whole corpus recorded, and one preference already in
/// PROFILE.md.
fn corpus_home() -> Sandbox {
    let sb = Sandbox::new();
    ok_data(&mut sb.agentbox(&[
        "knowledge",
        "profile",
        "add",
        "Always use conventional commits.",
        "--preference",
        "--format",
        "json",
    ]));
    for file in files("odek", "jsonl") {
        let data = ok_data(&mut sb.agentbox(&[
            "track",
            "import",
            file.to_str().unwrap(),
            "--format",
            "json",
        ]));
        assert!(!data["imported"].as_array().unwrap().is_empty(), "{data}");
    }
    for file in files("messages", "json") {
        let batch: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let session = batch["sessionKey"].as_str().unwrap();
        let data = ok_data(&mut sb.agentbox(&[
            "track",
            "record",
            "--session",
            session,
            "--messages",
            file.to_str().unwrap(),
            "--format",
            "json",
        ]));
        assert_eq!(data["duplicate"], false, "{}: {data}", file.display());
        let data = ok_data(&mut sb.agentbox(&[
            "track",
            "flush",
            "--session",
            session,
            "--format",
            "json",
        ]));
        assert!(data["flushed"].is_string(), "{data}");
    }
    sb
}

/// The closed episodes of a home, oldest first (by the start time and
/// counter in their id, as `track::episodes::all_episodes` orders them):
/// (session, id, path).
fn closed_episodes(home: &Home) -> Vec<(String, String, PathBuf)> {
    let root = home
        .store
        .path(&["memory", "episodes"])
        .expect("episodes dir");
    let mut out = Vec::new();
    for session in std::fs::read_dir(&root).expect("sessions").flatten() {
        let name = session.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(session.path())
            .expect("episodes")
            .flatten()
        {
            let file_name = file.file_name().to_string_lossy().into_owned();
            if file_name.ends_with(".open.jsonl") {
                continue;
            }
            if let Some(id) = file_name.strip_suffix(".jsonl") {
                out.push((name.clone(), id.to_string(), file.path()));
            }
        }
    }
    let order = |id: &str| {
        let (stamp, n) = id.strip_prefix("ep-").unwrap().rsplit_once('-').unwrap();
        (stamp.to_string(), n.parse::<u64>().unwrap())
    };
    out.sort_by_key(|(session, id, _)| (order(id), session.clone()));
    out
}

/// Every closed episode, oldest first, fed to `miner`; `ready` every
/// `batch` episodes (as `evolve run` does per batch) and at the end.
fn mine(home: &Home, miner: &mut Miner, batch: usize) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (fed, (session, id, path)) in closed_episodes(home).iter().enumerate() {
        let parsed = parse_text(&std::fs::read(path).expect("read episode"), session, id);
        assert!(parsed.broken.is_empty(), "{}", path.display());
        miner.feed(&EpisodeRef { session, id }, &parsed.turns);
        if (fed + 1) % batch == 0 {
            out.extend(miner.ready());
        }
    }
    out.extend(miner.ready());
    out
}

fn planted() -> BTreeSet<(String, String)> {
    let list: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("planted.json")).unwrap())
            .unwrap();
    list.iter()
        .map(|p| {
            (
                p["kind"].as_str().unwrap().to_string(),
                p["key"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn found(cands: &[Candidate]) -> BTreeSet<(String, String)> {
    cands
        .iter()
        .map(|c| (c.kind.as_str().to_string(), c.key.clone()))
        .collect()
}

#[test]
fn the_miner_finds_every_planted_pattern_and_little_else() {
    let sb = corpus_home();
    agentbox::registry::install();
    let home = Home::open(sb.home()).expect("open home");
    let profile = profile::read(&home).expect("profile");
    let planted = planted();
    assert!(planted.iter().filter(|(k, _)| k == "skill").count() >= 5);
    assert!(planted.iter().filter(|(k, _)| k == "preference").count() >= 10);
    assert!(planted.iter().filter(|(k, _)| k == "knowledge").count() >= 5);

    let mut miner = Miner::new(MinerState::default(), &profile);
    let cands = mine(&home, &mut miner, 8);
    let got = found(&cands);
    let missing: Vec<_> = planted.difference(&got).collect();
    let extra: Vec<_> = got.difference(&planted).collect();
    eprintln!(
        "planted {}, found {}, of them unplanted {}: {extra:?}",
        planted.len(),
        got.len(),
        extra.len()
    );
    assert!(
        missing.is_empty(),
        "planted but not found: {missing:#?}\nfound: {got:#?}"
    );
    assert!(
        extra.len() * 10 < got.len(),
        "{} of {} candidates are not planted: {extra:#?}",
        extra.len(),
        got.len()
    );
    assert_eq!(cands.len(), got.len(), "each key once");
    assert!(
        !got.iter().any(|(_, k)| k.contains("conventional commits")),
        "what PROFILE.md has is not proposed again"
    );

    // The shape of what was found.
    for c in &cands {
        assert!(!c.evidence.is_empty() && c.evidence.len() <= 10, "{c:?}");
        assert!(c.evidence.iter().all(|e| e.excerpt.chars().count() <= 200));
        assert!((0.0..=1.0).contains(&c.confidence));
        match &c.payload {
            Payload::Skill(s) => {
                assert!((3..=6).contains(&s.steps.len()));
                assert!(
                    s.name.len() <= 64 && agentbox::slug::is_slug(&s.name),
                    "{}",
                    s.name
                );
                assert!(s.description.chars().count() <= 1024);
                assert!(s.description.contains("Use when"), "{}", s.description);
                assert!(c.evidence.iter().any(|e| e.episode == s.episode));
            }
            Payload::Preference(p) => assert_eq!(p.section, "preferences"),
            Payload::Knowledge(k) => {
                assert!(
                    agentbox::slug::is_slug(&k.slug) && k.slug.len() <= 64,
                    "{}",
                    k.slug
                );
                assert!(k.slug.starts_with("failure-"));
                assert_eq!(&k.tags[..2], ["evolve", "failure"]);
                assert!(c.evidence.len() >= 2);
            }
        }
    }
    // The fix that followed a failure is in its note.
    let python = cands
        .iter()
        .find(|c| c.kind == Kind::Knowledge && c.key.starts_with("fail:python:"))
        .unwrap();
    let Payload::Knowledge(note) = &python.payload else {
        unreachable!()
    };
    assert!(note.body.contains("PyYAML is missing"), "{}", note.body);
    let imported = cands
        .iter()
        .find(|c| c.key == "fail:http_get: deadline_exceeded")
        .unwrap();
    let Payload::Knowledge(note) = &imported.payload else {
        unreachable!()
    };
    assert!(note.body.contains("\"timeout\":30"), "{}", note.body);

    // A second run over the same episodes with the saved state proposes
    // nothing new.
    let state = serde_json::to_string(&miner.into_state()).unwrap();
    let state: MinerState = serde_json::from_str(&state).unwrap();
    let mut again = Miner::new(state, &profile);
    assert!(mine(&home, &mut again, 8).is_empty());

    // Deterministic, and the batch size does not change what is found.
    let mut whole = Miner::new(MinerState::default(), &profile);
    let at_once = mine(&home, &mut whole, usize::MAX);
    assert_eq!(found(&at_once), got);
    // Mined at once, repeated corrections rank above single ones (batched,
    // a correction is proposed the first time it is seen).
    let conf = |key: &str| {
        at_once
            .iter()
            .find(|c| c.key == key)
            .map(|c| c.confidence)
            .unwrap()
    };
    assert!(conf("pref:don't commit to main") > conf("pref:never force-push"));
    let mut other = Miner::new(MinerState::default(), &profile);
    assert_eq!(mine(&home, &mut other, 8), cands);
}

/// The correction parser and the error-line normalizer take any text.
#[test]
fn parsers_never_panic_on_arbitrary_text() {
    use agentbox::tools::evolve::mine::{error_line, normalize_error_line, parse_correction};
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 2000,
        failure_persistence: None,
        ..Config::default()
    });
    let fragments = prop::collection::vec(
        prop_oneof![
            any::<String>(),
            Just("no, ".to_string()),
            Just("No — ".to_string()),
            Just("don't ".to_string()),
            Just("never ever ".to_string()),
            Just("always ".to_string()),
            Just("stop using ".to_string()),
            Just("I'd prefer ".to_string()),
            Just("use x instead of y".to_string()),
            Just("Traceback\n".to_string()),
            Just("error: ".to_string()),
            Just("exit code 1".to_string()),
            Just("550e8400-e29b-41d4-a716-446655440000".to_string()),
            Just("/a/b ".to_string()),
            Just("é’‘\u{0}\t\n. ? ; ! ".to_string()),
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat());
    runner
        .run(&prop_oneof![any::<String>(), fragments], |text| {
            for line in parse_correction(&text) {
                prop_assert!(!line.is_empty() && line.chars().count() <= 200);
                prop_assert!(!line.chars().any(char::is_control));
            }
            let norm = normalize_error_line(&text);
            prop_assert!(norm.chars().count() <= 120);
            prop_assert_eq!(normalize_error_line(&norm).chars().count() <= 120, true);
            let _ = error_line(&text);
            Ok(())
        })
        .unwrap();
}

/// The same corpus end to end through `evolve run` (the binary): every
/// planted pattern becomes a proposal, fewer than 10 % of the proposals are
/// unplanted, skill proposals are drafted and screened before they are
/// listed, and a second run proposes nothing.
#[test]
fn the_planted_corpus_end_to_end() {
    let sb = corpus_home();
    let data = ok_data(&mut sb.agentbox(&["evolve", "run"]));
    let proposals = data["proposals"].as_array().unwrap();
    let planted = planted();
    let listed = ok_data(&mut sb.agentbox(&["evolve", "list"]));
    let got: BTreeSet<(String, String)> = listed["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let id = p["id"].as_str().unwrap();
            let full = ok_data(&mut sb.agentbox(&["evolve", "show", id]));
            let p = &full["proposal"];
            if p["kind"] == "skill" {
                assert!(
                    p["skill"]["skill_md"].as_str().unwrap().starts_with("---"),
                    "{p}"
                );
                assert_eq!(p["skill"]["screen"]["verdict"], "pass", "{p}");
                // the skill is the repeated sequence, not the whole episode
                let md = p["skill"]["skill_md"].as_str().unwrap();
                let steps = p["skill"]["steps"].as_array().unwrap();
                assert_eq!(md.matches("Call `").count(), steps.len(), "{md}");
                for step in steps {
                    assert!(
                        md.contains(&format!("`{}`", step.as_str().unwrap())),
                        "{md}"
                    );
                }
            }
            (
                p["kind"].as_str().unwrap().to_string(),
                p["key"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(got.len(), proposals.len());
    let missing: Vec<_> = planted.difference(&got).collect();
    assert!(missing.is_empty(), "planted but not proposed: {missing:#?}");
    let extra = got.difference(&planted).count();
    assert!(
        extra * 10 < got.len(),
        "{extra} of {} proposals are not planted",
        got.len()
    );
    let again = ok_data(&mut sb.agentbox(&["evolve", "run", "--since", "2000-01-01"]));
    assert!(again["proposals"].as_array().unwrap().is_empty(), "{again}");
}
