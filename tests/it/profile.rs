//! Profile facts (`knowledge profile …`, memory/personal/PROFILE.md) through
//! the real binary: add, dedupe, remove, hand-edited and corrupt files,
//! redaction, concurrency and search.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::json;
use std::path::PathBuf;

fn profile(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.agentbox(&["knowledge", "profile"]);
    cmd.args(args);
    cmd
}

fn file(sb: &Sandbox) -> PathBuf {
    sb.home().join("memory/personal/PROFILE.md")
}

fn read(sb: &Sandbox) -> String {
    std::fs::read_to_string(file(sb)).unwrap()
}

#[test]
fn add_dedupe_list_and_remove() {
    let sb = Sandbox::new();
    let data = ok_data(&mut profile(
        &sb,
        &["add", "Prefers tabs over spaces.", "--preference"],
    ));
    assert_eq!(data["added"], json!(["Prefers tabs over spaces."]));
    assert_eq!(data["profile_updated"], true);
    assert_eq!(data["section"], "preferences");
    ok_data(&mut profile(&sb, &["add", "Works at   Example Corp."]));
    ok_data(&mut profile(&sb, &["add", "Lives in Berlin."]));
    assert_eq!(
        read(&sb),
        "# Profile\n\n## Preferences\n- Prefers tabs over spaces.\n\n## Facts\n\
         - Works at Example Corp.\n- Lives in Berlin.\n"
    );
    // duplicates: case, spacing and the final period do not count, in either section
    let before = read(&sb);
    for dup in ["prefers TABS over spaces", "  Works at example corp  "] {
        let data = ok_data(&mut profile(&sb, &["add", dup]));
        assert_eq!(data["added"], json!([]));
        assert_eq!(
            data["duplicates"],
            json!([dup.split_whitespace().collect::<Vec<_>>().join(" ")])
        );
        assert_eq!(data["profile_updated"], false);
    }
    assert_eq!(read(&sb), before);

    let list = ok_data(&mut profile(&sb, &["list"]));
    assert_eq!(list["preferences"], json!(["Prefers tabs over spaces."]));
    assert_eq!(
        list["facts"],
        json!(["Works at Example Corp.", "Lives in Berlin."])
    );
    let out = profile(&sb, &["list", "--format", "text"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "Preferences\n   1. Prefers tabs over spaces.\nFacts\n   1. Works at Example Corp.\n   2. Lives in Berlin.\n"
    );

    // by number: needs the section
    let err = err_of(&mut profile(&sb, &["rm", "2"]), "invalid_args", 2);
    assert_eq!(err["detail"]["flag"], "--section");
    err_of(
        &mut profile(&sb, &["rm", "3", "--section", "facts"]),
        "not_found",
        1,
    );
    err_of(
        &mut profile(&sb, &["rm", "0", "--section", "facts"]),
        "invalid_args",
        2,
    );
    let data = ok_data(&mut profile(&sb, &["rm", "2", "--section", "facts"]));
    assert_eq!(
        data["removed"],
        json!([{"section": "facts", "n": 2, "text": "Lives in Berlin."}])
    );
    // by text, compared loosely; --section narrows the search
    err_of(
        &mut profile(
            &sb,
            &["rm", "prefers tabs over spaces", "--section", "facts"],
        ),
        "not_found",
        1,
    );
    let data = ok_data(&mut profile(&sb, &["rm", "prefers tabs over spaces"]));
    assert_eq!(data["removed"][0]["section"], "preferences");
    err_of(&mut profile(&sb, &["rm", "no such fact"]), "not_found", 1);
    assert_eq!(
        read(&sb),
        "# Profile\n\n## Preferences\n\n## Facts\n- Works at Example Corp.\n"
    );
    // bad input
    err_of(&mut profile(&sb, &["add", "   "]), "invalid_args", 2);
    err_of(
        &mut profile(&sb, &["add", &"x".repeat(1001)]),
        "invalid_args",
        2,
    );
    err_of(
        &mut profile(&sb, &["rm", "1", "--section", "pets"]),
        "invalid_args",
        2,
    );
}

#[test]
fn hand_edits_survive_byte_for_byte() {
    let sb = Sandbox::new();
    let original = "# About me\r\n\r\nWritten by hand. Keep this paragraph.\r\n\r\n\
                    ## Pets\r\n- A cat called Miso (not a fact for agentbox)\r\n\r\n\
                    ## Preferences   \r\n\r\nSome prose inside the section.\r\n\
                    * Prefers dark mode\r\n*   Likes   short answers\r\n\r\n\
                    ### Sub-heading stays\r\n\r\n## Links\r\n[home](https://example.test)\r\n";
    std::fs::create_dir_all(file(&sb).parent().unwrap()).unwrap();
    std::fs::write(file(&sb), original).unwrap();
    let list = ok_data(&mut profile(&sb, &["list"]));
    assert_eq!(
        list["preferences"],
        json!(["Prefers dark mode", "Likes short answers"])
    );
    assert_eq!(list["facts"], json!([]));

    // a preference goes after the last bullet of the section, in the file's line ends
    ok_data(&mut profile(&sb, &["add", "Prefers tabs.", "--preference"]));
    let after_add = read(&sb);
    assert_eq!(
        after_add,
        original.replace(
            "*   Likes   short answers\r\n",
            "*   Likes   short answers\r\n- Prefers tabs.\r\n"
        )
    );
    // a fact: the file has no ## Facts, so the section is appended
    ok_data(&mut profile(&sb, &["add", "Lives in Porto."]));
    let after_fact = read(&sb);
    assert_eq!(
        after_fact,
        format!("{after_add}\r\n## Facts\r\n- Lives in Porto.\r\n")
    );
    // removing a hand-written bullet takes exactly its line
    ok_data(&mut profile(&sb, &["rm", "likes short answers"]));
    assert_eq!(
        after_fact.replace("*   Likes   short answers\r\n", ""),
        read(&sb)
    );
    // a duplicate of a hand-written bullet is recognized
    let data = ok_data(&mut profile(
        &sb,
        &["add", "prefers DARK mode.", "--preference"],
    ));
    assert_eq!(data["profile_updated"], false);
}

#[test]
fn a_profile_without_sections_gets_them_appended() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(file(&sb).parent().unwrap()).unwrap();
    std::fs::write(file(&sb), "Just some notes, no headings").unwrap();
    ok_data(&mut profile(&sb, &["add", "Prefers Vim.", "--preference"]));
    assert_eq!(
        read(&sb),
        "Just some notes, no headings\n\n## Preferences\n- Prefers Vim.\n"
    );
    // an empty file starts from the template
    std::fs::write(file(&sb), "").unwrap();
    ok_data(&mut profile(&sb, &["add", "Is a nurse."]));
    assert_eq!(
        read(&sb),
        "# Profile\n\n## Preferences\n\n## Facts\n- Is a nurse.\n"
    );
}

#[test]
fn a_corrupt_profile_is_an_error_and_stays_untouched() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(file(&sb).parent().unwrap()).unwrap();
    let cases: Vec<Vec<u8>> = vec![
        b"# Profile\n\n## Facts\n- caf\xe9\n".to_vec(),
        b"## Facts\n- ok\n\0\0\0binary".to_vec(),
        {
            let mut big = b"## Facts\n".to_vec();
            big.extend(std::iter::repeat_n(b'x', 1_100_000));
            big
        },
    ];
    for bytes in cases {
        std::fs::write(file(&sb), &bytes).unwrap();
        for args in [vec!["add", "Works at X."], vec!["list"], vec!["rm", "ok"]] {
            let err = err_of(&mut profile(&sb, &args), "invalid_args", 2);
            let message = err["message"].as_str().unwrap();
            assert!(message.contains("PROFILE.md"), "{args:?}: {message}");
            assert!(
                err["detail"]["path"]
                    .as_str()
                    .unwrap()
                    .ends_with("PROFILE.md")
            );
            assert_eq!(
                std::fs::read(file(&sb)).unwrap(),
                bytes,
                "{args:?} changed the file"
            );
        }
    }
}

#[test]
fn secrets_in_facts_never_reach_the_file_or_stdout() {
    let sb = Sandbox::new();
    let secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    let out = profile(&sb, &["add", &format!("Uses the key {secret} for OpenAI.")])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains(secret), "{stdout}");
    let text = read(&sb);
    assert!(!text.contains(secret), "{text}");
    assert!(
        text.contains("\n- Uses the key sk-proj-_REDACTED for OpenAI.\n"),
        "{text}"
    );
    // the redacted form is what dedupes
    let again = ok_data(&mut profile(
        &sb,
        &["add", &format!("Uses the key {secret} for OpenAI.")],
    ));
    assert_eq!(again["profile_updated"], false);
}

#[test]
fn concurrent_writers_lose_nothing() {
    let sb = Sandbox::new();
    let children: Vec<_> = (0..8)
        .map(|w| {
            let mut cmd = sb.std_command(common::bin());
            cmd.arg("knowledge").arg("profile").arg("add");
            cmd.arg(format!("Fact number {w}."));
            if w % 2 == 0 {
                cmd.arg("--preference");
            }
            cmd.stdout(std::process::Stdio::null()).spawn().unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let list = ok_data(&mut profile(&sb, &["list"]));
    let mut all: Vec<String> = list["preferences"]
        .as_array()
        .unwrap()
        .iter()
        .chain(list["facts"].as_array().unwrap())
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    all.sort();
    let expected: Vec<String> = (0..8).map(|w| format!("Fact number {w}.")).collect();
    assert_eq!(all, expected);
    assert_eq!(list["preferences"].as_array().unwrap().len(), 4);
}

#[test]
fn facts_are_searchable_and_hand_edits_show_up() {
    use agentbox::search::{Index, Query};
    let sb = Sandbox::new();
    ok_data(&mut profile(
        &sb,
        &["add", "Prefers tabs over spaces.", "--preference"],
    ));
    ok_data(&mut profile(&sb, &["add", "Works at Example Corp."]));
    let home = {
        agentbox::registry::install();
        agentbox::home::Home::open(sb.home()).unwrap()
    };
    let query = |text: &str| Query {
        text: text.to_string(),
        kinds: vec!["fact".to_string()],
        limit: 5,
        ..Query::default()
    };
    let hits = Index::open(&home)
        .unwrap()
        .search(&query("where does the user work"))
        .unwrap();
    assert_eq!(hits[0].id, "fact:facts:1");
    assert_eq!(hits[0].title, "fact");
    assert_eq!(hits[0].tags, ["facts"]);
    assert_eq!(hits[0].source, "memory/personal/PROFILE.md");
    let hits = Index::open(&home).unwrap().search(&query("tabs")).unwrap();
    assert_eq!(hits[0].id, "fact:preferences:1");
    // a hand edit is picked up by the next search, with no manual step
    let text = read(&sb).replace("Works at Example Corp.", "Keeps bees in Lisbon.");
    std::fs::write(file(&sb), text).unwrap();
    let hits = Index::open(&home).unwrap().search(&query("bees")).unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].id, "fact:facts:1");
    let hits = Index::open(&home)
        .unwrap()
        .search(&query("Example Corp"))
        .unwrap();
    assert!(hits.is_empty(), "{hits:?}");
}

/// A fact is dated by the clock of the write that stored it (`AGENTBOX_NOW`
/// here), as every other verb's documents are, not by the wall clock: in
/// search hits, in date filters, after a rebuild from the files too, and
/// for `profile rm` (`mem_save_fact` stores through the same `add_facts`).
#[test]
fn facts_are_dated_by_the_clock_not_the_wall_clock() {
    let sb = Sandbox::new();
    let fact_dates = |sb: &Sandbox, args: &[&str]| -> Vec<String> {
        let mut full = vec!["search", "walrus", "--kind", "fact"];
        full.extend_from_slice(args);
        ok_data(&mut sb.agentbox(&full))["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["date"].as_str().unwrap().to_string())
            .collect()
    };
    ok_data(&mut profile(&sb, &["add", "Keeps a walrus named Olaf."]));
    assert_eq!(fact_dates(&sb, &[]), [common::NOW]);
    assert_eq!(fact_dates(&sb, &["--until", "2026-01-15"]).len(), 1);
    assert!(fact_dates(&sb, &["--since", "2026-01-16"]).is_empty());
    // a rebuild reads the date back from the file
    ok_data(&mut sb.agentbox(&["reindex"]));
    assert_eq!(fact_dates(&sb, &[]), [common::NOW]);
    // a later write under another clock re-dates the file's facts
    let later = "2026-03-01T12:00:00Z";
    let mut add = profile(&sb, &["add", "Feeds the walrus at noon."]);
    add.env("AGENTBOX_NOW", later);
    ok_data(&mut add);
    assert_eq!(fact_dates(&sb, &[]), [later, later]);
    let mut rm = profile(&sb, &["rm", "Feeds the walrus at noon."]);
    rm.env("AGENTBOX_NOW", "2026-04-01T00:00:00Z");
    ok_data(&mut rm);
    assert_eq!(fact_dates(&sb, &[]), ["2026-04-01T00:00:00Z"]);
}
