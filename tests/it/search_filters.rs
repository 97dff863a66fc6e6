//! Filtered searches over many documents that fail the filter: sessions
//! whose turns interleave with others', a kind with few documents among
//! thousands of turns, tags, dates written with an offset, and common words
//! in more documents than the ranking pass reads in full.

use crate::common;

use agentbox::home::Home;
use agentbox::search::{Doc, Hit, Index, Query};
use common::Sandbox;

fn home(sb: &Sandbox) -> Home {
    agentbox::registry::install();
    Home::open(sb.home()).unwrap()
}

fn doc(id: &str, kind: &'static str, session: Option<&str>, date: &str, body: &str) -> Doc {
    Doc {
        id: id.to_string(),
        kind,
        source: format!("memory/episodes/{}/x.jsonl", session.unwrap_or("none")),
        session: session.map(str::to_string),
        tags: Vec::new(),
        date: date.to_string(),
        title: String::new(),
        body: body.to_string(),
    }
}

fn search(index: &mut Index, text: &str, f: impl Fn(&mut Query)) -> Vec<Hit> {
    let mut q = Query {
        text: text.to_string(),
        limit: 10,
        ..Query::default()
    };
    f(&mut q);
    index.search(&q).unwrap()
}

/// 6,000 turns of sessions `s0`..`s5` written in turn (each session's
/// turns spread over the whole index), every one holding the common words
/// "cluster" and "deploy"; in session `s3` the turns numbered below 40
/// say "cluster" three times. Then 12 notes, and a few dated with an offset.
fn corpus(index: &Index) {
    let mut docs = Vec::new();
    for i in 0..6_000 {
        let session = format!("s{}", i % 6);
        let body = if i % 6 == 3 && i / 6 < 40 {
            format!("cluster cluster cluster deploy number {i}")
        } else {
            format!("cluster deploy status check number {i} of the night shift")
        };
        docs.push(doc(
            &format!("t{i}"),
            "turn",
            Some(&session),
            "2026-02-01T00:00:00Z",
            &body,
        ));
    }
    for i in 0..12 {
        let mut note = doc(
            &format!("note:{i}"),
            "note",
            None,
            "2026-02-01T00:00:00Z",
            &format!("cluster runbook {i}"),
        );
        note.tags = match i % 3 {
            0 => vec!["ops".to_string()],
            1 => vec!["ops-team".to_string(), "café".to_string()],
            _ => vec!["devops".to_string()],
        };
        docs.push(note);
    }
    // Late in the evening of 2026-03-05 in New York: 2026-03-06 in UTC.
    let mut late = doc(
        "note:late",
        "note",
        None,
        "2026-03-05T23:00:00-05:00",
        "cluster postmortem",
    );
    late.tags = vec!["ops".to_string()];
    docs.push(late);
    for chunk in docs.chunks(500) {
        index.add(chunk).unwrap();
    }
}

fn ids(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

#[test]
fn a_session_ranks_its_own_turns_among_thousands_of_others() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    corpus(&index);
    // The common words are in every turn: more than the ranking pass reads
    // in full, so the session's newest turns are the candidates.
    let hits = search(&mut index, "cluster deploy", |q| {
        q.session = Some("s3".into())
    });
    assert_eq!(hits.len(), 10);
    assert!(hits.iter().all(|h| h.session.as_deref() == Some("s3")));
    // A word the session's best turns hold more often: those, exactly.
    let hits = search(&mut index, "cluster number", |q| {
        q.session = Some("s3".into());
        q.limit = 40;
    });
    let mut got: Vec<usize> = hits.iter().map(|h| h.id[1..].parse().unwrap()).collect();
    got.sort();
    let want: Vec<usize> = (0..40).map(|n| n * 6 + 3).collect();
    assert_eq!(got, want);
    // A session the index never held, or a kind: nothing.
    assert!(search(&mut index, "cluster", |q| q.session = Some("s9".into())).is_empty());
    assert!(search(&mut index, "cluster", |q| q.kinds = vec!["skill".into()]).is_empty());
}

#[test]
fn a_rare_kind_and_its_tags_are_found_below_thousands_of_turns() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    corpus(&index);
    let notes = search(&mut index, "cluster", |q| {
        q.kinds = vec!["note".into()];
        q.limit = 20;
    });
    assert_eq!(notes.len(), 13);
    assert!(notes.iter().all(|h| h.kind == "note"));
    // Two words in every turn: the notes are listed and looked up one by
    // one rather than found among 12,000 postings (the same notes).
    let listed = search(&mut index, "cluster deploy", |q| {
        q.kinds = vec!["note".into()];
        q.limit = 20;
    });
    assert_eq!(ids(&listed).len(), 13);
    assert!(listed.iter().all(|h| h.kind == "note"));
    // `ops` is a word of `ops-team` too, and not of `devops`: the phrase
    // lets `ops-team` through, the row's tags refuse it.
    let mut tagged = ids(&search(&mut index, "cluster", |q| {
        q.tag = Some("OPS".into());
        q.limit = 20;
    }))
    .into_iter()
    .map(str::to_string)
    .collect::<Vec<_>>();
    tagged.sort();
    assert_eq!(
        tagged,
        ["note:0", "note:3", "note:6", "note:9", "note:late"]
    );
    // A tag no phrase can stand for is still found (its rows decide).
    let cafe = search(&mut index, "cluster", |q| {
        q.tag = Some("café".into());
        q.limit = 20;
    });
    assert_eq!(cafe.len(), 4, "{:?}", ids(&cafe));
    assert!(search(&mut index, "cluster", |q| q.tag = Some("nosuchtag".into())).is_empty());
}

#[test]
fn dates_written_with_an_offset_are_compared_as_before() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    corpus(&index);
    // Its text says 2026-03-05: within `--until 2026-03-05` and `--since
    // 2026-03-05`, though it is 2026-03-06 in UTC.
    let until = search(&mut index, "postmortem cluster", |q| {
        q.until = Some("2026-03-05".into());
        q.kinds = vec!["note".into()];
        q.limit = 20;
    });
    assert!(ids(&until).contains(&"note:late"), "{:?}", ids(&until));
    let since = search(&mut index, "cluster", |q| {
        q.since = Some("2026-03-05".into())
    });
    assert_eq!(ids(&since), ["note:late"]);
    assert!(
        search(&mut index, "cluster", |q| q.since =
            Some("2026-03-06".into()))
        .is_empty()
    );
    // Before every turn: nothing; after them all: every kind.
    assert!(
        search(&mut index, "cluster", |q| q.until =
            Some("2026-01-31".into()))
        .is_empty()
    );
    let all = search(&mut index, "cluster deploy", |q| {
        q.since = Some("2026-02-01".into());
        q.until = Some("2026-02-01".into());
    });
    assert_eq!(all.len(), 10);
    assert!(all.iter().all(|h| h.date == "2026-02-01T00:00:00Z"));
}

#[test]
fn a_session_resumed_long_after_it_began_finds_all_its_turns() {
    let sb = Sandbox::new();
    let home = home(&sb);
    let mut index = Index::open(&home).unwrap();
    let early: Vec<Doc> = (0..5)
        .map(|i| {
            doc(
                &format!("old{i}"),
                "turn",
                Some("default"),
                "2026-01-01T00:00:00Z",
                &format!("cluster deploy early note {i}"),
            )
        })
        .collect();
    index.add(&early).unwrap();
    corpus(&index);
    let late: Vec<Doc> = (5..10)
        .map(|i| {
            doc(
                &format!("old{i}"),
                "turn",
                Some("default"),
                "2026-03-01T00:00:00Z",
                &format!("cluster deploy late note {i}"),
            )
        })
        .collect();
    index.add(&late).unwrap();
    // Its range spans every other session's turns; the words are in all.
    let mut got: Vec<String> = search(&mut index, "cluster deploy", |q| {
        q.session = Some("default".into());
        q.limit = 20;
    })
    .into_iter()
    .map(|h| h.id)
    .collect();
    got.sort();
    let want: Vec<String> = (0..10).map(|i| format!("old{i}")).collect();
    assert_eq!(got, want);
}
