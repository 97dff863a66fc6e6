//! Properties of `sync`'s merge rules (src/tools/sync/merge): a union of
//! JSONL lines keeps every line either side added exactly once, whichever
//! side is "ours"; every fact added to PROFILE.md survives; and no bytes make
//! the merge panic.

use agentbox::tools::sync::merge::Merged;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

/// `merge_file` under the built-in registry (its rules are the tools').
fn merge_file(rel: &str, b: Option<&[u8]>, o: Option<&[u8]>, t: Option<&[u8]>) -> Merged {
    agentbox::registry::install();
    agentbox::tools::sync::merge::merge_file(rel, b, o, t)
}

fn lines_of(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec())
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn join(lines: &[String]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect()
}

fn written(m: Merged) -> Vec<u8> {
    match m {
        Merged::Clean(mut files) => {
            assert_eq!(files.len(), 1, "one file");
            files.remove(0).1.unwrap_or_default()
        }
        Merged::Conflict(reason) => panic!("conflict: {reason}"),
    }
}

/// A foresight-like line: an item state, or (rarely) a line that is not JSON.
fn item_line() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (0u32..20, 0u32..10, 0u32..28).prop_map(|(id, state, day)| format!(
            r#"{{"id":"f-{id}","state":"s{state}","updated":"2026-01-{:02}T09:00:00Z"}}"#,
            day + 1
        )),
        1 => "[a-z ]{1,12}".prop_map(|s| format!("torn {s}")),
    ]
}

fn distinct(lines: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    lines
        .into_iter()
        .filter(|l| seen.insert(l.clone()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Append-only: every line of ours and theirs appears exactly once, the
    /// result does not depend on which side is ours (as a set), and the same
    /// inputs give the same bytes.
    #[test]
    fn jsonl_append_only_union(
        base in prop::collection::vec(item_line(), 0..8),
        ours_new in prop::collection::vec(item_line(), 0..8),
        theirs_new in prop::collection::vec(item_line(), 0..8),
    ) {
        let base = distinct(base);
        // A file holds each line once (a side left as it was is taken whole).
        let ours = distinct(base.iter().cloned().chain(ours_new).collect());
        let theirs = distinct(base.iter().cloned().chain(theirs_new).collect());
        let (b, o, t) = (join(&base), join(&ours), join(&theirs));
        let rel = "memory/foresight.jsonl";
        let merged = written(merge_file(rel, Some(&b), Some(&o), Some(&t)));
        let got = lines_of(&merged);
        let want: BTreeSet<String> = ours.iter().chain(&theirs).cloned().collect();
        prop_assert_eq!(got.len(), want.len(), "each line once");
        prop_assert_eq!(got.iter().cloned().collect::<BTreeSet<_>>(), want);
        let swapped = written(merge_file(rel, Some(&b), Some(&t), Some(&o)));
        prop_assert_eq!(
            lines_of(&swapped).into_iter().collect::<BTreeSet<_>>(),
            got.iter().cloned().collect::<BTreeSet<_>>()
        );
        prop_assert_eq!(written(merge_file(rel, Some(&b), Some(&o), Some(&t))), merged);
    }

    /// With removals (hand edits): a line stays when either side has it,
    /// unless it was in the base and one side removed it.
    #[test]
    fn jsonl_three_way_set(
        base in prop::collection::vec(item_line(), 0..10),
        keep_o in prop::collection::vec(any::<bool>(), 10),
        keep_t in prop::collection::vec(any::<bool>(), 10),
        ours_new in prop::collection::vec(item_line(), 0..6),
        theirs_new in prop::collection::vec(item_line(), 0..6),
    ) {
        let base = distinct(base);
        let pick = |keep: &[bool]| base.iter().zip(keep).filter(|(_, k)| **k).map(|(l, _)| l.clone()).collect::<Vec<_>>();
        let ours = distinct(pick(&keep_o).into_iter().chain(ours_new).collect());
        let theirs = distinct(pick(&keep_t).into_iter().chain(theirs_new).collect());
        let merged = written(merge_file("notes/log.jsonl", Some(&join(&base)), Some(&join(&ours)), Some(&join(&theirs))));
        let (bs, os, ts): (HashSet<_>, HashSet<_>, HashSet<_>) =
            (base.iter().collect(), ours.iter().collect(), theirs.iter().collect());
        let want: BTreeSet<String> = ours.iter().chain(&theirs)
            .filter(|l| !bs.contains(l) || (os.contains(l) && ts.contains(l)))
            .cloned()
            .collect();
        let got = lines_of(&merged);
        prop_assert_eq!(got.len(), want.len());
        prop_assert_eq!(got.into_iter().collect::<BTreeSet<_>>(), want);
    }

    /// Two homes appending to one episode: every turn's content is there once
    /// and turn ids stay unique.
    #[test]
    fn episode_appends_keep_every_turn(
        shared in 0usize..4,
        ours_new in prop::collection::vec((0u32..60, "[a-z]{1,8}"), 0..6),
        theirs_new in prop::collection::vec((0u32..60, "[a-z]{1,8}"), 0..6),
    ) {
        let ep = "ep-20260115T093000Z-1";
        let turn = |seq: usize, minute: u32, content: &str| format!(
            r#"{{"schema":"agentbox.turn/v1","id":"{ep}#{seq}","session":"s","episode":"{ep}","seq":{seq},"ts":"2026-01-15T10:{minute:02}:00Z","role":"user","content":"{content}","tool_calls":[],"tool_call_id":null,"source":"cli"}}"#
        );
        let base: Vec<String> = (1..=shared).map(|i| turn(i, 0, &format!("base{i}"))).collect();
        let side = |new: &[(u32, String)], tag: &str| -> Vec<String> {
            base.iter().cloned().chain(new.iter().enumerate().map(|(i, (m, c))| {
                turn(shared + i + 1, *m, &format!("{tag}-{i}-{c}"))
            })).collect()
        };
        let (ours, theirs) = (side(&ours_new, "o"), side(&theirs_new, "t"));
        let rel = "memory/episodes/s/ep-20260115T093000Z-1.open.jsonl";
        let merged = written(merge_file(rel, Some(&join(&base)), Some(&join(&ours)), Some(&join(&theirs))));
        let turns: Vec<serde_json::Value> = lines_of(&merged).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        let contents: BTreeSet<String> = turns.iter().map(|t| t["content"].as_str().unwrap().to_string()).collect();
        let want: BTreeSet<String> = ours.iter().chain(&theirs)
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["content"].as_str().unwrap().to_string())
            .collect();
        prop_assert_eq!(turns.len(), want.len());
        prop_assert_eq!(contents, want);
        let ids: HashSet<&str> = turns.iter().map(|t| t["id"].as_str().unwrap()).collect();
        prop_assert_eq!(ids.len(), turns.len(), "ids unique");
        for t in &turns {
            prop_assert_eq!(t["id"].as_str().unwrap(), format!("{ep}#{}", t["seq"]));
        }
    }

    /// Every fact either side added to PROFILE.md survives the merge, once.
    #[test]
    fn profile_added_facts_survive(
        base in prop::collection::btree_set(0u32..30, 0..6),
        ours_new in prop::collection::vec(0u32..30, 0..6),
        theirs_new in prop::collection::vec(0u32..30, 0..6),
    ) {
        // Even numbers are preferences, odd ones facts.
        let fact = |n: u32| format!("- Fact number {n}.\n");
        let render = |facts: &[u32]| {
            let section = |rem: u32| facts.iter().filter(|n| *n % 2 == rem).map(|n| fact(*n)).collect::<String>();
            format!("# Profile\n\n## Preferences\n{}\n## Facts\n{}", section(0), section(1))
        };
        let unique = |facts: Vec<u32>| {
            let mut seen = HashSet::new();
            facts.into_iter().filter(|n| seen.insert(*n)).collect::<Vec<_>>()
        };
        let base: Vec<u32> = base.into_iter().collect();
        let ours = unique(base.iter().chain(&ours_new).cloned().collect());
        let theirs = unique(base.iter().chain(&theirs_new).cloned().collect());
        let merged = written(merge_file(
            "memory/personal/PROFILE.md",
            Some(render(&base).as_bytes()),
            Some(render(&ours).as_bytes()),
            Some(render(&theirs).as_bytes()),
        ));
        let text = String::from_utf8(merged).unwrap();
        let (prefs, facts) = text.split_once("## Facts\n").expect("facts section");
        for n in ours.iter().chain(&theirs) {
            let haystack = if n % 2 == 0 { prefs } else { facts };
            prop_assert!(haystack.contains(&fact(*n)), "lost {} in {}", n, text);
        }
        for line in text.lines().filter(|l| l.starts_with("- ")) {
            prop_assert_eq!(text.matches(&format!("{line}\n")).count(), 1, "{} twice", line);
        }
    }

    /// No bytes make any rule panic, and the answer is deterministic.
    #[test]
    fn never_panics(
        which in 0usize..9,
        base in prop::option::of(prop::collection::vec(any::<u8>(), 0..200)),
        ours in prop::option::of(prop::collection::vec(any::<u8>(), 0..200)),
        theirs in prop::option::of(prop::collection::vec(any::<u8>(), 0..200)),
        texty in any::<bool>(),
    ) {
        let rel = [
            "memory/episodes/s/ep-1.jsonl",
            "memory/episodes/s/ep-1.open.jsonl",
            "memory/foresight.jsonl",
            "memory/personal/PROFILE.md",
            "plans/p.json",
            "config.json",
            "memory/knowledge/n.md",
            "persona/ada.md",
            "skills/x/SKILL.md",
        ][which];
        // Half the cases are built from text-like pieces, to reach the rules'
        // insides rather than their "not UTF-8" exits.
        let shape = |bytes: Option<Vec<u8>>| bytes.map(|b| if texty {
            b.iter().map(|x| match x % 12 {
                0 => "\n", 1 => "---\n", 2 => "- a", 3 => "## S\n", 4 => "{\"id\":\"x#1\",\"seq\":1}",
                5 => "[1,{\"id\":2}]", 6 => "rev: 2\n", 7 => ":", 8 => "\"", 9 => "{", 10 => "}", _ => "z",
            }).collect::<String>().into_bytes()
        } else { b });
        let (b, o, t) = (shape(base), shape(ours), shape(theirs));
        let first = merge_file(rel, b.as_deref(), o.as_deref(), t.as_deref());
        let second = merge_file(rel, b.as_deref(), o.as_deref(), t.as_deref());
        prop_assert_eq!(first, second);
    }
}
