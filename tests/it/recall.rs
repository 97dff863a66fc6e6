//! Retrieval that understands conversation (issue #30), through the real
//! binary on conversations written here: a turn ranked with the turns
//! around it, a turn that only asks ranked below the one that answers, the
//! time a question names, "when" questions, and `--explain`.

use crate::common;

use common::{Sandbox, ok_data};
use serde_json::{Value, json};

/// Records `turns` (role, content) as one session's batch, said at `at`.
fn say(sb: &Sandbox, session: &str, at: &str, turns: &[(&str, &str)]) -> Vec<String> {
    let messages: Vec<Value> = turns
        .iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    let file = sb.path().join("messages.json");
    std::fs::write(
        &file,
        json!({"sessionKey": session, "messages": messages}).to_string(),
    )
    .unwrap();
    let data = ok_data(
        sb.agentbox(&[
            "track",
            "record",
            "--messages",
            file.to_str().unwrap(),
            "--flush",
        ])
        .env("AGENTBOX_NOW", at),
    );
    data["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_string())
        .collect()
}

/// Other conversations, so that words have the frequencies of a real home.
fn chatter(sb: &Sandbox) {
    let lines = [
        "The build is green again after the flaky test was fixed.",
        "Can you bump the linter and run the suite once more?",
        "Kids' soccer practice moved to the afternoon this season.",
        "I rewrote the deploy script so it waits for the health check.",
        "The cache layer now expires entries after ten minutes.",
        "Lunch was a sandwich by the river, nothing special.",
        "We should document the config flags before the release.",
        "The memorial service for my grandfather was small and quiet.",
    ];
    for (i, chunk) in lines.chunks(2).enumerate() {
        let turns: Vec<(&str, &str)> = chunk
            .iter()
            .enumerate()
            .map(|(j, l)| (if j % 2 == 0 { "user" } else { "assistant" }, *l))
            .collect();
        say(sb, &format!("other-{i}"), "2026-01-02T10:00:00Z", &turns);
    }
}

/// `agentbox search QUERY --explain` hits, with the given extra flags.
fn hits(sb: &Sandbox, query: &str, now: &str) -> Vec<Value> {
    let data = ok_data(
        sb.agentbox(&["search", "--explain", "--kind", "turn", "--", query])
            .env("AGENTBOX_NOW", now),
    );
    data["hits"].as_array().unwrap().clone()
}

fn rank_of(hits: &[Value], id: &str) -> Option<usize> {
    hits.iter().position(|h| h["id"] == id)
}

#[test]
fn the_turn_that_answers_outranks_the_question_it_answers() {
    let sb = Sandbox::new();
    chatter(&sb);
    let ids = say(
        &sb,
        "trip",
        "2026-01-10T18:00:00Z",
        &[
            ("user", "We stopped at the war memorial on the drive north."),
            ("assistant", "That sounds like a meaningful stop."),
            ("user", "The kids had never seen one before."),
            ("assistant", "How did the kids react to the memorial?"),
            (
                "user",
                "They were awestruck and humbled by the memorial, honestly.",
            ),
            ("assistant", "That is a lovely thing for them to remember."),
        ],
    );
    let got = hits(&sb, "How did the kids react to the memorial?", common::NOW);
    // Without context the question itself would win: it holds every word.
    assert_eq!(got[0]["id"], ids[4], "{got:#?}");
    let question = rank_of(&got, &ids[3]).expect("the question is still a hit");
    assert!(question > 0);
    assert_eq!(got[question]["why"]["asks"], true);
    let answer = &got[0]["why"];
    assert_eq!(answer["asks"], false);
    assert!(answer["context"].as_f64().unwrap() > answer["words"].as_f64().unwrap());
    // A turn with none of the query's words is not a hit, context or not.
    assert_eq!(rank_of(&got, &ids[5]), None);
}

#[test]
fn context_stays_inside_its_session() {
    let sb = Sandbox::new();
    // Two sessions saved at once alternate rowids; neither lends the other
    // its words.
    let a = say(
        &sb,
        "a",
        "2026-01-10T18:00:00Z",
        &[
            ("user", "Which database did we pick for the ledger?"),
            ("assistant", "Postgres, for the ledger and the audit trail."),
        ],
    );
    let b = say(
        &sb,
        "b",
        "2026-01-10T18:00:00Z",
        &[("user", "The audit of the garden shed is done.")],
    );
    let got = hits(&sb, "audit ledger database", common::NOW);
    let of = |id: &str| got.iter().find(|h| h["id"] == id).unwrap()["why"].clone();
    // Session a's answer has its question as context; b's turn has none.
    assert!(of(&a[1])["context"].as_f64().unwrap() > of(&a[1])["words"].as_f64().unwrap());
    let shed = of(&b[0]);
    assert_eq!(shed["context"].as_f64(), shed["words"].as_f64(), "{shed}");
}

#[test]
fn a_named_time_favours_what_was_said_then() {
    let sb = Sandbox::new();
    let march = say(
        &sb,
        "db",
        "2026-03-03T10:00:00Z",
        &[("user", "We decided to keep the database on one node.")],
    );
    let may = say(
        &sb,
        "db",
        "2026-05-20T10:00:00Z",
        &[(
            "user",
            "We decided the database needs a replica; the database decision is final.",
        )],
    );
    let now = "2026-06-01T12:00:00Z";
    // Without a time the later turn wins on its words.
    let plain = hits(&sb, "what did we decide about the database", now);
    assert_eq!(plain[0]["id"], may[0]);
    for query in [
        "what did we decide about the database on March 3, 2026",
        "what did we decide about the database on 3 March 2026",
        "what did we decide about the database in March",
        "what did we decide about the database 2026-03-03",
        "what did we decide about the database three months ago",
    ] {
        let got = hits(&sb, query, now);
        assert_eq!(got[0]["id"], march[0], "{query}: {got:#?}");
        assert_eq!(got[0]["why"]["in_window"], true, "{query}");
        assert_eq!(got[1]["why"]["in_window"], false, "{query}");
    }
    // Relative times count back from the clock of the call.
    let got = hits(
        &sb,
        "the database decision last week",
        "2026-05-25T09:00:00Z",
    );
    assert_eq!(got[0]["id"], may[0]);
    assert_eq!(got[0]["why"]["in_window"], true);
    let got = hits(
        &sb,
        "the database decision last week",
        "2026-03-08T09:00:00Z",
    );
    assert_eq!(got[0]["why"]["in_window"], true);
    assert_eq!(got[0]["id"], march[0]);
}

#[test]
fn a_when_question_favours_the_turn_that_says_when() {
    let sb = Sandbox::new();
    chatter(&sb);
    let ids = say(
        &sb,
        "ops",
        "2026-01-12T10:00:00Z",
        &[
            (
                "user",
                "The database migration went well; the migrated database is faster.",
            ),
            ("assistant", "Glad to hear it."),
            ("user", "We migrated the database last Friday."),
        ],
    );
    let got = hits(&sb, "When did we migrate the database?", common::NOW);
    assert_eq!(got[0]["id"], ids[2], "{got:#?}");
    assert_eq!(got[0]["why"]["says_when"], true);
    // Not a when-question: the turn with more of the words wins.
    let got = hits(&sb, "did we migrate the database", common::NOW);
    assert_eq!(got[0]["id"], ids[0]);
    assert_eq!(got[0]["why"]["says_when"], false);
}

#[test]
fn explain_is_off_unless_asked_and_prints_a_line_in_text() {
    let sb = Sandbox::new();
    say(
        &sb,
        "s",
        "2026-01-10T18:00:00Z",
        &[
            ("user", "Where is the staging config kept?"),
            ("assistant", "In ops/staging.toml."),
        ],
    );
    let data = ok_data(&mut sb.agentbox(&["search", "staging config"]));
    assert!(data["hits"][0].get("why").is_none(), "{data}");
    let out = sb
        .agentbox(&[
            "search",
            "staging",
            "config",
            "--explain",
            "--format",
            "text",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("why: words ")
            && text.contains("with context")
            && text.contains("asks ×0.75"),
        "{text}"
    );
}

mod questions {
    use agentbox::clock::Time;
    use agentbox::search::{ask, query_terms};
    use proptest::prelude::*;

    /// Words and numbers that time expressions are made of, with filler.
    fn soup() -> impl Strategy<Value = String> {
        let fragments = prop::sample::select(vec![
            "on",
            "in",
            "of",
            "last",
            "this",
            "past",
            "week",
            "weekend",
            "month",
            "year",
            "ago",
            "yesterday",
            "today",
            "tonight",
            "night",
            "friday",
            "may",
            "march",
            "october",
            "dec",
            "sept",
            "13",
            "13th",
            "1st",
            "31",
            "0",
            "99",
            "2023",
            "1899",
            "2101",
            "a",
            "three",
            "few",
            "days",
            "when",
            "what",
            "date",
            "how",
            "long",
            "-",
            ",",
            "?",
            "deploy",
            "database",
            "kids",
            "é",
            "日本",
        ]);
        prop::collection::vec(fragments, 0..12).prop_map(|words| words.join(" "))
    }

    fn now() -> Time {
        Time::parse("2026-02-28T23:59:59Z").unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// Any text reads as a question: a window is never empty, and the
        /// query words are the text's own (fewer when a time was named).
        #[test]
        fn any_text_reads_as_a_question(text in prop_oneof![soup(), any::<String>()]) {
            let asked = ask(&text, now());
            if let Some((from, to)) = asked.window {
                prop_assert!(from < to, "{text:?}: {from} >= {to}");
            }
            let all = query_terms(&text);
            for term in &asked.terms {
                prop_assert!(all.contains(term), "{text:?}: {term} not in {all:?}");
            }
            if asked.window.is_none() {
                prop_assert_eq!(&asked.terms, &all);
            }
        }
    }
}

#[test]
fn sessions_saved_turn_by_turn_at_once_rank_as_after_a_rebuild() {
    let sb = Sandbox::new();
    // Two conversations saved alternately, turn by turn: their turns
    // alternate in the index until a rebuild puts each episode together.
    let a = [
        "Which cache do we use for the catalog?",
        "Redis, with a ten minute expiry on the catalog keys.",
        "Does the catalog warm up after a deploy?",
        "Yes, a job warms the catalog cache after each deploy.",
    ];
    let b = [
        "What did the vet say about the cat?",
        "The cat is fine; the vet wants a check in spring.",
        "Any diet changes for the cat?",
        "Less dry food for the cat, more water.",
    ];
    for (x, y) in a.iter().zip(&b) {
        ok_data(&mut sb.agentbox(&["track", "record", "--session", "a", "--content", x]));
        ok_data(&mut sb.agentbox(&["track", "record", "--session", "b", "--content", y]));
    }
    let ranked = |sb: &Sandbox| -> Vec<(String, String)> {
        hits(sb, "catalog cache after deploy", common::NOW)
            .iter()
            .map(|h| (h["id"].as_str().unwrap().to_string(), h["why"].to_string()))
            .collect()
    };
    let before = ranked(&sb);
    assert!(before.len() >= 3, "{before:?}");
    ok_data(&mut sb.agentbox(&["reindex"]));
    assert_eq!(ranked(&sb), before);
}

#[test]
fn a_question_about_a_time_alone_lists_what_was_said_then() {
    let sb = Sandbox::new();
    chatter(&sb);
    let old = say(
        &sb,
        "proj",
        "2026-06-01T10:00:00Z",
        &[("user", "Which days ago did the outage start?")],
    );
    let then = say(
        &sb,
        "proj",
        "2026-06-14T10:00:00Z",
        &[
            ("user", "We fixed the parser bug."),
            ("assistant", "Great, the tests pass now."),
        ],
    );
    let now = "2026-06-17T15:00:00Z";
    // Nothing but a time: the turns said then, newest first; not the old
    // turn that holds the time's words ("days ago").
    let got = hits(&sb, "what did we do 3 days ago?", now);
    let ids: Vec<&Value> = got.iter().map(|h| &h["id"]).collect();
    assert_eq!(ids, [&json!(then[1]), &json!(then[0])], "{got:#?}");
    assert_eq!(got[0]["why"]["in_window"], true);
    assert_eq!(got[0]["why"]["words"], 0.0);
    // A time with words that find nothing: the same list.
    let got = hits(&sb, "what did we work on 3 days ago", now);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(rank_of(&got, &old[0]).is_none());
    // Words that find something keep their ranking.
    let got = hits(&sb, "the parser 3 days ago", now);
    assert_eq!(got[0]["id"], then[0]);
    assert!(got[0]["why"]["words"].as_f64().unwrap() > 0.0);
    // A time when nothing was said: nothing, not the whole history.
    assert!(hits(&sb, "what did we do in 2019", now).is_empty());
    // The list goes through the filters, and never widens them.
    let filtered = |flags: &[&str]| -> Vec<Value> {
        let mut args = vec!["search"];
        args.extend_from_slice(flags);
        args.extend(["--", "what did we do 3 days ago"]);
        let data = ok_data(sb.agentbox(&args).env("AGENTBOX_NOW", now));
        data["hits"].as_array().unwrap().clone()
    };
    assert!(filtered(&["--session", "other-0"]).is_empty());
    assert_eq!(filtered(&["--session", "proj"]).len(), 2);
    let tagged = filtered(&["--tag", "assistant"]);
    assert_eq!(tagged.len(), 1);
    assert_eq!(tagged[0]["id"], then[1]);
    assert_eq!(filtered(&["--since", "2026-06-14"]).len(), 2);
    assert!(filtered(&["--until", "2026-06-13"]).is_empty());
    // Newest by the time said, not the time saved: a turn imported later
    // but said earlier that day comes after the others.
    let file = sb.path().join("import.json");
    let import = json!({"sessionKey": "import", "messages": [
        {"role": "user", "content": "An early remark.", "timestamp": "2026-06-14T08:00:00Z"}
    ]});
    std::fs::write(&file, import.to_string()).unwrap();
    ok_data(
        sb.agentbox(&["track", "record", "--messages", file.to_str().unwrap()])
            .env("AGENTBOX_NOW", now),
    );
    let got = hits(&sb, "3 days ago", now);
    assert_eq!(got.len(), 3, "{got:#?}");
    assert_eq!(got[0]["id"], then[1], "{got:#?}");
    assert_eq!(got[2]["snippet"], "An early remark.");
}

#[test]
fn a_turn_said_at_the_first_second_of_1970_is_listed_on_its_day() {
    let sb = Sandbox::new();
    let record = |content: &str, at: &str| {
        ok_data(&mut sb.agentbox(&[
            "track",
            "record",
            "--session",
            "old",
            "--content",
            content,
            "--at",
            at,
        ]))["ids"][0]
            .as_str()
            .unwrap()
            .to_string()
    };
    // `track` takes the first second of 1970; `stamps` held it as 0, its
    // "unknown", and no list of that day showed it.
    let first = record("The very first remark.", "1970-01-01T00:00:00Z");
    let noon = record("A remark at noon.", "1970-01-01T12:00:00Z");
    record("A remark the next day.", "1970-01-02T08:00:00Z");
    let got = hits(&sb, "what did we say on 1 January 1970?", common::NOW);
    let ids: Vec<&Value> = got.iter().map(|h| &h["id"]).collect();
    assert_eq!(ids, [&json!(noon), &json!(first)], "{got:#?}");
    assert_eq!(got[1]["date"], "1970-01-01T00:00:00Z");
    assert_eq!(got[1]["why"]["in_window"], true);
    // The same day, counted back from a clock two days on.
    let got = hits(&sb, "the day before yesterday", "1970-01-03T09:00:00Z");
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[1]["id"], first);
    // Words that find it rank it in the named day.
    let got = hits(&sb, "the very first remark on 1 January 1970", common::NOW);
    assert_eq!(got[0]["id"], first, "{got:#?}");
    assert_eq!(got[0]["why"]["in_window"], true);
    // Doctor's check of the dense tables agrees with what was written.
    let (env, _) = common::envelope(&mut sb.agentbox(&["doctor"]));
    let checks = env["data"]["checks"].as_array().unwrap();
    let index = checks
        .iter()
        .find(|c| c["name"] == "index")
        .unwrap_or_else(|| panic!("{env}"));
    assert_eq!(index["ok"], true, "{index}");
}

/// `mem_search` for `query` in a `memory_mcp` whose clock says `now`: the
/// reply's markdown.
fn mem_search(sb: &Sandbox, query: &str, now: &str) -> String {
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "mem_search", "arguments": {"query": query}}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = sb
        .command(sb.home().join("tools").join("memory_mcp"))
        .env("AGENTBOX_NOW", now)
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let reply: Value = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == 2)
        .unwrap_or_else(|| panic!("no reply to the search: {stdout}"));
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{reply}"))
        .to_string()
}

#[test]
fn a_list_of_what_was_said_in_a_time_says_it_is_newest_first() {
    let sb = Sandbox::new();
    chatter(&sb);
    let then = say(
        &sb,
        "proj",
        "2026-06-16T10:00:00Z",
        &[
            ("user", "We fixed the parser bug."),
            ("assistant", "Great, the tests pass now."),
        ],
    );
    let now = "2026-06-17T15:00:00Z";
    // memory_mcp: the heading says how the hits are ordered.
    let listed = mem_search(&sb, "what did we talk about yesterday", now);
    assert!(
        listed.starts_with(
            "## Matches for \"what did we talk about yesterday\" (2 shown, newest first)\n"
        ),
        "{listed}"
    );
    let ranked = mem_search(&sb, "the parser bug", now);
    assert!(ranked.contains("shown, best first)"), "{ranked}");
    // Words that find nothing, with a time: the same list, and it says so.
    let listed = mem_search(&sb, "zeppelins yesterday", now);
    assert!(listed.contains("(2 shown, newest first)"), "{listed}");
    // The CLI: `order` in JSON, a line before the list in text.
    let search = |query: &str, format: &str| {
        let out = sb
            .agentbox(&["search", "--format", format, "--", query])
            .env("AGENTBOX_NOW", now)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let data = |query: &str| -> Value {
        let envelope: Value = serde_json::from_str(&search(query, "json")).unwrap();
        envelope["data"].clone()
    };
    let got = data("what did we talk about yesterday");
    assert_eq!(got["order"], "newest", "{got}");
    assert_eq!(got["hits"][0]["id"], then[1]);
    assert_eq!(data("the parser bug")["order"], "best");
    let text = search("what did we talk about yesterday", "text");
    assert!(
        text.starts_with("Said in the time the query names, newest first:\n 1. "),
        "{text}"
    );
    let text = search("the parser bug", "text");
    assert!(text.starts_with(" 1. "), "{text}");
    // No hits: nothing to order.
    let text = search("what did we do in 2019", "text");
    assert!(text.starts_with("Nothing matches"), "{text}");
}

#[test]
fn explain_says_which_words_counted_as_names() {
    let sb = Sandbox::new();
    chatter(&sb);
    // Caroline is in most turns of a conversation about her: as a word she
    // would weigh almost nothing.
    let ids = say(
        &sb,
        "chat",
        "2026-01-10T18:00:00Z",
        &[
            ("user", "Caroline, how was the trip?"),
            (
                "assistant",
                "Caroline said the trip to the lake was lovely.",
            ),
            ("user", "Did Caroline take photos?"),
            ("assistant", "Caroline took photos of the lake at dawn."),
            ("user", "Melanie wants the photos of Caroline too."),
        ],
    );
    let explain = |query: &str, format: &str| {
        let out = sb
            .agentbox(&["search", "--explain", "--format", format, "--", query])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let query = "What did Caroline and Melanie photograph at the lake, in Ohio?";
    let envelope: Value = serde_json::from_str(&explain(query, "json")).unwrap();
    let data = &envelope["data"];
    assert!(ids.contains(&data["hits"][0]["id"].as_str().unwrap().to_string()));
    // Caroline in 5 of the 13 documents, weighed as a word in a quarter of
    // them; Melanie in 1, weighed as she is; Ohio in none: no weight.
    assert_eq!(
        data["names"],
        json!([
            {"word": "caroline", "share": 0.385, "weighed": 0.25},
            {"word": "melanie", "share": 0.077, "weighed": 0.077},
        ]),
        "{data}"
    );
    let text = explain(query, "text");
    assert!(
        text.starts_with(
            "why: names weigh at least what a word in 25% of the documents does: \
             caroline (in 38%) · melanie (in 8%)\n 1. "
        ),
        "{text}"
    );
    // No name: no line; no --explain: no `names`.
    let text = explain("photos of the lake", "text");
    assert!(!text.contains("names weigh"), "{text}");
    let envelope: Value = serde_json::from_str(&explain("photos of the lake", "json")).unwrap();
    assert_eq!(envelope["data"]["names"], json!([]));
    let data = ok_data(&mut sb.agentbox(&["search", query]));
    assert!(data.get("names").is_none(), "{data}");
}
