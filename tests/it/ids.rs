//! Every id a verb prints is taken by the verbs that take an id of its
//! family: the id `list` prints, the id a search hit carries (`note:…`,
//! `skill:…`, `persona:…`, `EPISODE#N` for a turn), whole or — for the ids
//! the tools mint (episodes, proactive items, evolve proposals) — as a
//! unique start. Proactive's own families (`f-…`, `fx_…`) are covered in
//! tests/it/foresight_qa.rs, evolve's proposals in tests/it/evolve.rs.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::Value;

fn ab(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.agentbox(&[&["--format", "json"][..], args].concat());
    cmd.env("TZ", "UTC");
    cmd
}

fn record(sb: &Sandbox, session: &str, role: &str, content: &str) {
    ok_data(&mut ab(
        sb,
        &[
            "track",
            "record",
            "--session",
            session,
            "--role",
            role,
            "--content",
            content,
        ],
    ));
}

fn hits(sb: &Sandbox, query: &str) -> Vec<Value> {
    ok_data(&mut ab(sb, &["search", query]))["hits"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_printed_id_is_taken_by_the_verbs_of_its_family() {
    let sb = Sandbox::new();
    record(&sb, "s1", "user", "How do I format zebracode with gofmt?");
    record(
        &sb,
        "s1",
        "assistant",
        "Run zebrafmt on the zebracode tree.",
    );
    let ep = ok_data(&mut ab(&sb, &["track", "flush", "--session", "s1"]))["flushed"]
        .as_str()
        .unwrap()
        .to_string();
    let listed = ok_data(&mut ab(&sb, &["track", "list"]));
    assert_eq!(listed["episodes"][0]["id"], ep.as_str(), "{listed}");
    ok_data(&mut ab(
        &sb,
        &[
            "knowledge",
            "add",
            "Zebracode formatting",
            "--body",
            "Use zebrafmt",
        ],
    ));
    ok_data(&mut ab(
        &sb,
        &["persona", "create", "zebra", "--trait", "tone=zebracode"],
    ));
    ok_data(&mut ab(
        &sb,
        &[
            "skill_forge",
            "new",
            "zebra-fmt",
            "--description",
            "Format zebracode with zebrafmt",
        ],
    ));

    // Each search hit's id is taken by the verb that shows its kind.
    let found = hits(&sb, "zebracode");
    let mut kinds: Vec<String> = Vec::new();
    for hit in &found {
        let id = hit["id"].as_str().unwrap();
        let kind = hit["kind"].as_str().unwrap();
        kinds.push(kind.to_string());
        let shown = match kind {
            "turn" => ok_data(&mut ab(&sb, &["track", "show", id]))["episode"]["id"].clone(),
            "note" => ok_data(&mut ab(&sb, &["knowledge", "show", id]))["slug"].clone(),
            "persona" => ok_data(&mut ab(&sb, &["persona", "show", id]))["name"].clone(),
            "skill" => ok_data(&mut ab(&sb, &["skill_forge", "show", id]))["name"].clone(),
            other => panic!("a hit of kind {other}: {hit}"),
        };
        let expected = match kind {
            "turn" => ep.clone(),
            _ => id.split_once(':').unwrap().1.to_string(),
        };
        assert_eq!(shown, expected.as_str(), "{kind} {id}");
    }
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds, ["note", "persona", "skill", "turn"], "{found:?}");

    // A persona's hit id is taken by the verbs that change it too.
    let set = ok_data(&mut ab(
        &sb,
        &["persona", "set", "persona:zebra", "tone=calm"],
    ));
    assert_eq!(set["name"], "zebra", "{set}");
    assert_eq!(set["traits"]["tone"], "calm", "{set}");

    // A turn id names its episode wherever an episode id is taken.
    let turn = found.iter().find(|h| h["kind"] == "turn").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let draft = ok_data(&mut ab(
        &sb,
        &["skill_forge", "from-episode", &turn, "--name", "from-turn"],
    ));
    assert!(draft.to_string().contains(&ep), "{draft}");

    // An episode id is taken by a unique start; a start of two is
    // `invalid_args` naming both, and an unknown one `not_found`.
    let start = &ep[..ep.len() - 1];
    let shown = ok_data(&mut ab(&sb, &["track", "show", start]));
    assert_eq!(shown["episode"]["id"], ep.as_str());
    record(&sb, "s2", "user", "another episode");
    let other = ok_data(&mut ab(&sb, &["track", "flush", "--session", "s2"]))["flushed"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(other.starts_with(start), "{other} {ep}");
    let err = err_of(&mut ab(&sb, &["track", "show", start]), "invalid_args", 2);
    assert!(err["hint"].as_str().unwrap().contains(&other), "{err}");
    assert!(err["hint"].as_str().unwrap().contains(&ep), "{err}");
    err_of(&mut ab(&sb, &["track", "show", "ep-1999"]), "not_found", 1);
    err_of(
        &mut ab(&sb, &["track", "show", &format!("{ep}#x")]),
        "not_found",
        1,
    );
}

/// The id `proactive add` mints in a fresh home run with `seed` (none: the
/// system's randomness), and the home id that home minted for its episodes.
fn minted(seed: Option<&str>) -> (String, String) {
    let sb = Sandbox::empty();
    let mut init = sb.agentbox(&["init"]);
    let mut add = ab(
        &sb,
        &[
            "proactive",
            "add",
            "Renew the certificate",
            "--due",
            "tomorrow",
        ],
    );
    let mut rec = ab(
        &sb,
        &["track", "record", "--session", "s", "--content", "hi"],
    );
    if let Some(seed) = seed {
        init.env("AGENTBOX_SEED", seed);
        add.env("AGENTBOX_SEED", seed);
        rec.env("AGENTBOX_SEED", seed);
    } else {
        init.env_remove("AGENTBOX_SEED");
        add.env_remove("AGENTBOX_SEED");
        rec.env_remove("AGENTBOX_SEED");
    }
    init.assert().success();
    let item = ok_data(&mut add)["item"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    ok_data(&mut rec);
    let home_id = std::fs::read_to_string(sb.home().join("local/home-id")).unwrap();
    (item, home_id.trim().to_string())
}

#[test]
fn agentbox_seed_fixes_the_random_part_of_ids() {
    let a = minted(Some("42"));
    assert_eq!(a, minted(Some("42")), "one seed, two runs");
    assert_ne!(a, minted(Some("43")), "another seed");
    assert_ne!(minted(None), minted(None), "no seed: random");
    assert!(a.0.starts_with("f-") && a.0.len() == 14, "{a:?}");
}

/// A user who leaves `AGENTBOX_SEED` set (it is test-only, but nothing stops
/// it) runs every process with one seed: each draws the same ids. The ids
/// that name stored things must still never land on one that exists, or
/// the second process overwrites the first's data.
#[test]
fn one_seed_for_every_process_loses_no_item_and_no_run() {
    let sb = Sandbox::new();
    let seeded = |args: &[&str]| {
        let mut cmd = ab(&sb, args);
        cmd.env("AGENTBOX_SEED", "same");
        cmd
    };
    let first = ok_data(&mut seeded(&[
        "proactive",
        "add",
        "Renew the cert",
        "--due",
        "tomorrow",
    ]));
    let second = ok_data(&mut seeded(&[
        "proactive",
        "add",
        "Pay the rent",
        "--due",
        "tomorrow",
    ]));
    assert_ne!(
        first["item"]["id"], second["item"]["id"],
        "{first} {second}"
    );
    let listed = ok_data(&mut seeded(&["proactive", "list", "--all"]));
    let texts: Vec<&str> = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["text"].as_str().unwrap())
        .collect();
    assert!(
        texts.contains(&"Renew the cert") && texts.contains(&"Pay the rent"),
        "an item was overwritten: {listed}"
    );

    let run_a = ok_data(&mut seeded(&["evolve", "run"]));
    let run_b = ok_data(&mut seeded(&["evolve", "run"]));
    assert_ne!(run_a["run_id"], run_b["run_id"], "{run_a} {run_b}");
    let runs = std::fs::read_dir(sb.home().join("runs/evolve"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(runs, 2, "a run folder was reused: {run_a} {run_b}");
}
