//! `knowledge`, verb by verb, through the real binary: notes with revisions,
//! claims and contradictions, lint, slugs, hand-edited and broken files,
//! redaction and search.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::Value;
use std::path::PathBuf;

fn kn(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.agentbox(&["knowledge"]);
    cmd.args(args);
    cmd
}

fn note_file(sb: &Sandbox, slug: &str) -> PathBuf {
    sb.home().join(format!("memory/knowledge/{slug}.md"))
}

fn read(sb: &Sandbox, slug: &str) -> String {
    std::fs::read_to_string(note_file(sb, slug)).unwrap()
}

fn slugs(list: &Value) -> Vec<String> {
    list["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["slug"].as_str().unwrap().to_string())
        .collect()
}

fn text_out(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.arg("--format").arg("text").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `list --limit N --offset N` pages the notes, newest first; `meta.total`
/// counts them all and an unreadable file shows on every page.
#[test]
fn list_pages_with_limit_and_offset() {
    let sb = Sandbox::new();
    let dir = sb.home().join("memory/knowledge");
    for i in 1..=5 {
        std::fs::write(
            dir.join(format!("n{i}.md")),
            format!("---\ntitle: N{i}\nupdated: 2026-01-0{i}T00:00:00Z\n---\n\nBody.\n"),
        )
        .unwrap();
    }
    std::fs::write(dir.join("broken.md"), "---\ntags: [a\n---\n").unwrap();
    let page = |args: &[&str]| {
        let (env, _) = common::envelope(&mut kn(&sb, args));
        (
            slugs(&env["data"]),
            env["data"]["broken"].as_array().unwrap().len(),
            env["meta"].clone(),
        )
    };
    let (all, broken, meta) = page(&["list"]);
    assert_eq!(all, ["n5", "n4", "n3", "n2", "n1"]);
    assert_eq!(
        (broken, meta["count"].as_u64(), meta["total"].as_u64()),
        (1, Some(5), Some(5))
    );
    let (second, broken, meta) = page(&["list", "--limit", "2", "--offset", "2"]);
    assert_eq!(second, ["n3", "n2"]);
    assert_eq!(
        (broken, meta["count"].as_u64(), meta["total"].as_u64()),
        (1, Some(2), Some(5))
    );
    let (past, _, meta) = page(&["list", "--offset", "7"]);
    assert!(past.is_empty());
    assert_eq!(meta["total"], 5);
    let text = text_out(&mut kn(&sb, &["list", "--limit", "1", "--offset", "1"]));
    assert!(
        text.contains("  N4\n… 3 more (--offset 2 shows the next)\n"),
        "{text}"
    );
    let text = text_out(&mut kn(&sb, &["list", "--offset", "7"]));
    assert!(
        text.starts_with("5 note(s) in all: --offset 7 skips them all\n"),
        "{text}"
    );
}

#[test]
fn add_show_list_roundtrip() {
    let sb = Sandbox::new();
    let data = ok_data(&mut kn(
        &sb,
        &[
            "add",
            "Go formatting",
            "--body",
            "Run `gofmt -w .` before committing.",
            "--tag",
            "Go",
            "--tag",
            "style",
            "--source",
            "https://go.dev/doc/effective_go",
            "--claim",
            "go.formatter=gofmt",
        ],
    ));
    assert_eq!(data["slug"], "go-formatting");
    assert_eq!(data["rev"], 1);
    assert_eq!(data["tags"], serde_json::json!(["go", "style"]));
    assert_eq!(data["claims"][0]["key"], "go.formatter");
    assert_eq!(data["claims"][0]["value"], "gofmt");
    assert_eq!(data["created"], common::NOW);
    assert_eq!(data["path"], "memory/knowledge/go-formatting.md");
    assert_eq!(data["changed"], true);
    assert_eq!(data["superseded"], serde_json::json!([]));
    // the stored file is the documented format
    assert_eq!(
        read(&sb, "go-formatting"),
        "---\ntitle: Go formatting\ntags: [go, style]\nsources: [https://go.dev/doc/effective_go]\n\
         links: []\ncreated: 2026-01-15T09:30:00Z\nupdated: 2026-01-15T09:30:00Z\nrev: 1\n\
         claims:\n  - go.formatter: gofmt\n---\n\nRun `gofmt -w .` before committing.\n"
    );
    // same title again: a unique slug
    let again = ok_data(
        kn(&sb, &["add", "Go formatting", "--tag", "other"])
            .env("AGENTBOX_NOW", "2026-01-16T09:00:00Z"),
    );
    assert_eq!(again["slug"], "go-formatting-2");
    // a body from stdin, an explicit slug, a link
    let piped = ok_data(
        kn(
            &sb,
            &[
                "add",
                "Deploys",
                "--file",
                "-",
                "--slug",
                "deploys",
                "--link",
                "go-formatting",
            ],
        )
        .env("AGENTBOX_NOW", "2026-01-14T09:00:00Z")
        .write_stdin("Line one.\r\n\r\n---\r\nAfter a rule.\r\n"),
    );
    assert_eq!(piped["body"], "Line one.\n\n---\nAfter a rule.");
    assert_eq!(piped["links"], serde_json::json!(["go-formatting"]));

    let shown = ok_data(&mut kn(&sb, &["show", "deploys"]));
    assert_eq!(shown["body"], "Line one.\n\n---\nAfter a rule.");
    assert_eq!(shown["rev"], 1);

    // newest first; --tag filters (case-insensitively)
    let list = ok_data(&mut kn(&sb, &["list"]));
    assert_eq!(
        slugs(&list),
        ["go-formatting-2", "go-formatting", "deploys"]
    );
    assert_eq!(list["broken"], serde_json::json!([]));
    assert!(list["notes"][0].get("body").is_none());
    let tagged = ok_data(&mut kn(&sb, &["list", "--tag", "GO"]));
    assert_eq!(slugs(&tagged), ["go-formatting"]);

    // an explicit slug that exists is a conflict
    err_of(
        &mut kn(&sb, &["add", "X", "--slug", "deploys"]),
        "conflict",
        1,
    );
    // text output reads well
    let text = text_out(&mut kn(&sb, &["show", "go-formatting"]));
    assert!(
        text.starts_with("Go formatting  (go-formatting · rev 1 · updated 2026-01-15T09:30:00Z)\n")
    );
    assert!(text.contains("tags: go, style\n"), "{text}");
    assert!(text.contains("  go.formatter = gofmt\n"), "{text}");
    assert!(
        text.ends_with("\nRun `gofmt -w .` before committing.\n"),
        "{text}"
    );
    let text = text_out(&mut kn(&sb, &["list"]));
    assert!(text.lines().next().unwrap().starts_with("SLUG"), "{text}");
    assert!(
        text.contains("go-formatting      r1  2026-01-15T09:30:00Z  Go formatting  [go, style]"),
        "{text}"
    );
}

#[test]
fn the_tool_link_works_and_every_verb_has_examples() {
    let sb = Sandbox::new();
    let mut link = sb.command(sb.home().join("tools").join("knowledge"));
    link.args(["add", "Via link"]);
    assert_eq!(ok_data(&mut link)["slug"], "via-link");
    for verb in [
        vec!["add"],
        vec!["show"],
        vec!["list"],
        vec!["edit"],
        vec!["rm"],
        vec!["link"],
        vec!["search"],
        vec!["lint"],
        vec!["profile"],
        vec!["profile", "add"],
        vec!["profile", "list"],
        vec!["profile", "rm"],
    ] {
        let mut args = verb.clone();
        args.push("--help");
        let out = kn(&sb, &args).output().unwrap();
        assert!(out.status.success(), "{verb:?}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(help.contains("Examples:\n  knowledge "), "{verb:?}: {help}");
    }
}

#[test]
fn edit_bumps_the_rev_and_refuses_stale_writes() {
    let sb = Sandbox::new();
    ok_data(&mut kn(
        &sb,
        &["add", "Note", "--body", "first", "--tag", "a"],
    ));
    let edited = ok_data(
        kn(
            &sb,
            &[
                "edit",
                "note",
                "--body",
                "second",
                "--add-tag",
                "b",
                "--rm-tag",
                "a",
                "--title",
                "Renamed",
                "--claim",
                "k=v",
                "--expect-rev",
                "1",
            ],
        )
        .env("AGENTBOX_NOW", "2026-01-15T10:00:00Z"),
    );
    assert_eq!(edited["rev"], 2);
    assert_eq!(edited["title"], "Renamed");
    assert_eq!(edited["body"], "second");
    assert_eq!(edited["tags"], serde_json::json!(["b"]));
    assert_eq!(edited["created"], common::NOW);
    assert_eq!(edited["updated"], "2026-01-15T10:00:00Z");
    assert_eq!(edited["claims"][0]["value"], "v");

    // a stale --expect-rev is a conflict naming both revs; nothing changes
    let before = read(&sb, "note");
    let err = err_of(
        &mut kn(
            &sb,
            &["edit", "note", "--body", "lost", "--expect-rev", "1"],
        ),
        "conflict",
        1,
    );
    assert_eq!(err["detail"]["expected"], 1);
    assert_eq!(err["detail"]["actual"], 2);
    assert!(err["hint"].as_str().unwrap().contains("--expect-version 2"));
    assert_eq!(read(&sb, "note"), before);
    // --expect-version is required for edit, and the error says the note's
    // current revision and how to pass it
    let err = err_of(
        &mut kn(&sb, &["edit", "note", "--body", "x"]),
        "invalid_args",
        2,
    );
    assert_eq!(
        err["message"],
        "missing required argument: --expect-version"
    );
    assert_eq!(
        err["detail"]["missing"],
        serde_json::json!(["--expect-version"])
    );
    assert_eq!(
        err["hint"],
        "run again with --expect-version 2 (the note's current revision; \
         see `knowledge show note`)"
    );
    assert_eq!(err["detail"]["actual"], 2);
    assert_eq!(err["detail"]["slug"], "note");
    // (a value flag before the slug is not taken for it)
    let err = err_of(
        &mut kn(&sb, &["edit", "--title", "Renamed", "note"]),
        "invalid_args",
        2,
    );
    assert!(
        err["hint"]
            .as_str()
            .unwrap()
            .contains("--expect-version 2 ")
    );
    assert_eq!(read(&sb, "note"), before);
    // the hint's command works as it says
    ok_data(&mut kn(
        &sb,
        &["edit", "note", "--add-tag", "b", "--expect-version", "2"],
    ));
    // a note that does not exist is the usual not_found, not a revision
    let err = err_of(
        &mut kn(&sb, &["edit", "nope", "--title", "T"]),
        "not_found",
        1,
    );
    assert_eq!(err["detail"]["slug"], "nope");
    // nothing to change
    err_of(
        &mut kn(&sb, &["edit", "note", "--expect-rev", "2"]),
        "invalid_args",
        2,
    );
    // a no-op edit writes nothing and keeps the rev
    let same = ok_data(&mut kn(
        &sb,
        &["edit", "note", "--add-tag", "b", "--expect-rev", "2"],
    ));
    assert_eq!(same["changed"], false);
    assert_eq!(same["rev"], 2);
    assert_eq!(read(&sb, "note"), before);
    // replace and remove claims; --expect-version is an alias
    let claims = ok_data(&mut kn(
        &sb,
        &[
            "edit",
            "note",
            "--rm-claim",
            "k",
            "--claim",
            "x=1",
            "--expect-version",
            "2",
        ],
    ));
    assert_eq!(claims["rev"], 3);
    assert_eq!(
        claims["claims"],
        serde_json::json!([{"key": "x", "value": "1"}])
    );
    // bad claim syntax
    let err = err_of(
        &mut kn(
            &sb,
            &["edit", "note", "--claim", "novalue", "--expect-rev", "3"],
        ),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["flag"], "--claim");
    err_of(
        &mut kn(
            &sb,
            &["edit", "note", "--claim", "Bad Key=v", "--expect-rev", "3"],
        ),
        "invalid_args",
        2,
    );
    // missing note
    err_of(
        &mut kn(&sb, &["edit", "nope", "--title", "x", "--expect-rev", "1"]),
        "not_found",
        1,
    );
}

#[test]
fn rm_and_link_follow_revisions() {
    let sb = Sandbox::new();
    ok_data(&mut kn(&sb, &["add", "A"]));
    ok_data(&mut kn(&sb, &["add", "B"]));
    // linking needs the other note
    err_of(&mut kn(&sb, &["link", "a", "missing"]), "not_found", 1);
    err_of(&mut kn(&sb, &["link", "a", "a"]), "invalid_args", 2);
    let linked = ok_data(&mut kn(&sb, &["link", "a", "b", "--expect-rev", "1"]));
    assert_eq!(linked["rev"], 2);
    assert_eq!(linked["links"], serde_json::json!(["b"]));
    assert_eq!(linked["changed"], true);
    assert!(read(&sb, "a").contains("links: [b]\n"));
    let again = ok_data(&mut kn(&sb, &["link", "a", "b"]));
    assert_eq!(again["changed"], false);
    assert_eq!(again["rev"], 2);
    err_of(
        &mut kn(&sb, &["link", "a", "b", "--unlink", "--expect-rev", "1"]),
        "conflict",
        1,
    );
    // removing b leaves a's link dangling, and says so
    err_of(
        &mut kn(&sb, &["rm", "b", "--expect-rev", "2"]),
        "conflict",
        1,
    );
    assert!(note_file(&sb, "b").exists());
    let removed = ok_data(&mut kn(&sb, &["rm", "b", "--expect-rev", "1"]));
    assert_eq!(removed["removed"], true);
    assert_eq!(removed["rev"], 1);
    assert_eq!(removed["linked_from"], serde_json::json!(["a"]));
    assert!(!note_file(&sb, "b").exists());
    err_of(&mut kn(&sb, &["show", "b"]), "not_found", 1);
    err_of(&mut kn(&sb, &["rm", "b"]), "not_found", 1);
    // unlinking works for a link to a missing note
    let unlinked = ok_data(&mut kn(&sb, &["link", "a", "b", "--unlink"]));
    assert_eq!(unlinked["rev"], 3);
    assert_eq!(unlinked["links"], serde_json::json!([]));
}

#[test]
fn contradicting_claims_conflict_unless_superseded() {
    let sb = Sandbox::new();
    ok_data(&mut kn(
        &sb,
        &[
            "add",
            "Go style",
            "--claim",
            "go.formatter=gofmt",
            "--claim",
            "go.indent=tabs",
        ],
    ));
    // same key, same value (loosely compared): fine
    ok_data(&mut kn(
        &sb,
        &["add", "Go again", "--claim", "go.formatter=GoFmt."],
    ));
    // same key, different value: conflict naming note, key and both values
    let before = read(&sb, "go-style");
    let err = err_of(
        &mut kn(
            &sb,
            &["add", "Go imports", "--claim", "go.formatter=goimports"],
        ),
        "conflict",
        1,
    );
    assert_eq!(err["detail"]["key"], "go.formatter");
    assert_eq!(err["detail"]["proposed"], "goimports");
    assert_eq!(err["detail"]["conflicts"].as_array().unwrap().len(), 2);
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("go.formatter") && message.contains("goimports"),
        "{message}"
    );
    assert!(
        message.contains("'gofmt'") || message.contains("'GoFmt.'"),
        "{message}"
    );
    assert!(!note_file(&sb, "go-imports").exists());
    assert_eq!(read(&sb, "go-style"), before);

    // --supersede takes the old claim out of each other note (rev + 1)
    let data = ok_data(
        kn(
            &sb,
            &[
                "add",
                "Go imports",
                "--claim",
                "go.formatter=goimports",
                "--supersede",
            ],
        )
        .env("AGENTBOX_NOW", "2026-01-15T11:00:00Z"),
    );
    let superseded = data["superseded"].as_array().unwrap();
    assert_eq!(superseded.len(), 2);
    assert!(
        superseded
            .iter()
            .all(|s| s["key"] == "go.formatter" && s["rev"] == 2)
    );
    let style = ok_data(&mut kn(&sb, &["show", "go-style"]));
    assert_eq!(style["rev"], 2);
    assert_eq!(style["updated"], "2026-01-15T11:00:00Z");
    assert_eq!(
        style["claims"],
        serde_json::json!([{"key": "go.indent", "value": "tabs"}])
    );
    assert_eq!(
        ok_data(&mut kn(&sb, &["show", "go-again"]))["claims"],
        serde_json::json!([])
    );

    // edit is checked the same way
    let err = err_of(
        &mut kn(
            &sb,
            &[
                "edit",
                "go-style",
                "--claim",
                "go.formatter=gofumpt",
                "--expect-rev",
                "2",
            ],
        ),
        "conflict",
        1,
    );
    assert_eq!(err["detail"]["note"], "go-imports");
    assert_eq!(err["detail"]["existing"], "goimports");
    let edited = ok_data(&mut kn(
        &sb,
        &[
            "edit",
            "go-style",
            "--claim",
            "go.formatter=gofumpt",
            "--supersede",
            "--expect-rev",
            "2",
        ],
    ));
    assert_eq!(edited["rev"], 3);
    assert_eq!(edited["superseded"][0]["note"], "go-imports");
    assert_eq!(ok_data(&mut kn(&sb, &["show", "go-imports"]))["rev"], 2);
    // one call may not contradict itself
    err_of(
        &mut kn(&sb, &["add", "Self", "--claim", "a=1", "--claim", "a=2"]),
        "invalid_args",
        2,
    );
    assert_eq!(
        ok_data(&mut kn(&sb, &["lint"]))["findings"],
        serde_json::json!([])
    );
}

#[test]
fn lint_reports_hand_made_problems() {
    let sb = Sandbox::new();
    ok_data(&mut kn(
        &sb,
        &[
            "add",
            "Alpha",
            "--body",
            "same body",
            "--claim",
            "db=postgres",
        ],
    ));
    ok_data(&mut kn(
        &sb,
        &["add", "Beta", "--body", "other", "--link", "alpha"],
    ));
    assert_eq!(
        ok_data(&mut kn(&sb, &["lint"]))["findings"],
        serde_json::json!([])
    );
    // hand edits: a contradiction, a duplicate title and body, a broken link, a broken file
    std::fs::write(
        note_file(&sb, "gamma"),
        "---\ntitle: alpha\nlinks: [missing]\nclaims:\n  - db: mysql\n---\nsame   body\n",
    )
    .unwrap();
    std::fs::write(note_file(&sb, "delta"), "---\ntitle: Delta\nrev: x\n---\n").unwrap();
    let data = ok_data(&mut kn(&sb, &["lint"]));
    let findings = data["findings"].as_array().unwrap();
    let kinds: Vec<&str> = findings
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "unparsable",
            "broken_link",
            "duplicate_title",
            "duplicate_body",
            "contradiction"
        ],
        "{data}"
    );
    assert_eq!(findings[0]["notes"], serde_json::json!(["delta.md"]));
    assert_eq!(findings[0]["detail"]["line"], 3);
    assert_eq!(findings[1]["detail"]["link"], "missing");
    assert_eq!(findings[2]["notes"], serde_json::json!(["alpha", "gamma"]));
    assert_eq!(findings[4]["detail"]["key"], "db");
    assert_eq!(data["notes_checked"], 4);
    // --strict turns findings into a failure that carries them
    let err = err_of(&mut kn(&sb, &["lint", "--strict"]), "conflict", 1);
    assert_eq!(err["detail"]["findings"].as_array().unwrap().len(), 5);
    let text = text_out(&mut kn(&sb, &["lint"]));
    assert!(
        text.contains("contradiction: the claim 'db' is contradicted"),
        "{text}"
    );
}

#[test]
fn slugs_are_strict_and_refuse_traversal() {
    let sb = Sandbox::new();
    for bad in [
        "../x",
        "/abs",
        "a/b",
        "UPPER",
        "a_b",
        "-a",
        ".hidden",
        "a\u{1}b",
        &"a".repeat(65),
    ] {
        err_of(
            &mut kn(&sb, &["add", "T", "--slug", bad]),
            "invalid_args",
            2,
        );
        err_of(&mut kn(&sb, &["show", bad]), "invalid_args", 2);
        err_of(&mut kn(&sb, &["rm", bad]), "invalid_args", 2);
        err_of(
            &mut kn(&sb, &["add", "T", "--link", bad]),
            "invalid_args",
            2,
        );
    }
    let err = err_of(&mut kn(&sb, &["show", "../../config"]), "invalid_args", 2);
    assert!(err["message"].as_str().unwrap().contains("slug"));
    // titles become slugs, transliterated; titles without letters get "note"
    assert_eq!(
        ok_data(&mut kn(&sb, &["add", "日本語"]))["slug"],
        "ri-ben-yu"
    );
    assert_eq!(ok_data(&mut kn(&sb, &["add", "¿…?"]))["slug"], "note");
    assert_eq!(ok_data(&mut kn(&sb, &["add", "«—»"]))["slug"], "note-2");
    let long = ok_data(&mut kn(&sb, &["add", &"word ".repeat(30)]));
    assert!(long["slug"].as_str().unwrap().len() <= 64);
    // titles: one line, at most 200 characters
    err_of(&mut kn(&sb, &["add", &"t".repeat(201)]), "invalid_args", 2);
    err_of(&mut kn(&sb, &["add", "two\nlines"]), "invalid_args", 2);
    err_of(&mut kn(&sb, &["add", "  "]), "invalid_args", 2);
    // nothing escaped the knowledge folder
    let names: Vec<String> = std::fs::read_dir(sb.home().join("memory/knowledge"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(!sb.path().join("x.md").exists());
}

#[test]
fn a_broken_note_names_file_and_line_and_harms_no_other() {
    let sb = Sandbox::new();
    ok_data(&mut kn(&sb, &["add", "Good", "--body", "fine"]));
    let good = read(&sb, "good");
    let broken = "---\ntitle: Broken\ntags: [a, b\n---\nbody\n";
    std::fs::write(note_file(&sb, "broken"), broken).unwrap();
    let err = err_of(&mut kn(&sb, &["show", "broken"]), "invalid_args", 2);
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("broken.md:3:"), "{message}");
    assert_eq!(err["detail"]["line"], 3);
    assert!(
        err["detail"]["path"]
            .as_str()
            .unwrap()
            .ends_with("memory/knowledge/broken.md")
    );
    // editing it fails the same way and leaves it alone
    err_of(
        &mut kn(
            &sb,
            &["edit", "broken", "--title", "x", "--expect-rev", "1"],
        ),
        "invalid_args",
        2,
    );
    assert_eq!(read(&sb, "broken"), broken);
    // the other notes are listed and usable; the broken one is reported
    let list = ok_data(&mut kn(&sb, &["list"]));
    assert_eq!(slugs(&list), ["good"]);
    assert_eq!(list["broken"][0]["file"], "broken.md");
    assert_eq!(list["broken"][0]["line"], 3);
    ok_data(&mut kn(
        &sb,
        &["edit", "good", "--body", "better", "--expect-rev", "1"],
    ));
    assert_ne!(read(&sb, "good"), good);
    // a file name that is not a slug is listed as broken, not hidden
    std::fs::write(note_file(&sb, "Bad Name"), "---\ntitle: x\n---\n").unwrap();
    let list = ok_data(&mut kn(&sb, &["list"]));
    assert_eq!(list["broken"].as_array().unwrap().len(), 2);
    // invalid UTF-8 in a note
    std::fs::write(note_file(&sb, "latin1"), b"---\ntitle: caf\xe9\n---\n").unwrap();
    let err = err_of(&mut kn(&sb, &["show", "latin1"]), "invalid_args", 2);
    assert!(err["message"].as_str().unwrap().contains("latin1.md"));
    // a broken note can still be removed (without --expect-rev)
    err_of(
        &mut kn(&sb, &["rm", "broken", "--expect-rev", "1"]),
        "invalid_args",
        2,
    );
    let removed = ok_data(&mut kn(&sb, &["rm", "broken"]));
    assert_eq!(removed["rev"], Value::Null);
    assert!(!note_file(&sb, "broken").exists());
}

#[test]
fn secrets_never_reach_the_file_or_stdout() {
    let sb = Sandbox::new();
    let secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
    let out = kn(
        &sb,
        &[
            "add",
            &format!("Token {secret}"),
            "--body",
            &format!("Deploy with GITHUB_TOKEN={secret} and password: hunter2hunter2"),
            "--claim",
            "ci.password=hunter2hunter2",
            "--source",
            &format!("https://x.test/?token={secret}"),
        ],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        !stdout.contains(secret) && !stdout.contains("hunter2"),
        "{stdout}"
    );
    let env: Value = serde_json::from_str(stdout.trim()).unwrap();
    let slug = env["data"]["slug"].as_str().unwrap().to_string();
    assert!(!slug.contains("0123456789abcdef"), "{slug}");
    let file = read(&sb, &slug);
    assert!(
        !file.contains(secret) && !file.contains("hunter2"),
        "{file}"
    );
    assert!(file.contains("_REDACTED"), "{file}");
    // what the call returned is what the file holds
    let shown = ok_data(&mut kn(&sb, &["show", &slug]));
    assert_eq!(shown["body"], env["data"]["body"]);
    assert_eq!(shown["claims"], env["data"]["claims"]);
    // and the index never saw it
    for file in ["index/search.db", "index/search.db-wal"] {
        let bytes = std::fs::read(sb.home().join(file)).unwrap_or_default();
        assert!(!String::from_utf8_lossy(&bytes).contains(secret), "{file}");
    }
}

#[test]
fn oversized_bodies_are_refused() {
    let sb = Sandbox::new();
    let config = sb.home().join("config.json");
    let mut cfg: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    cfg["limits"]["max_item_bytes"] = Value::from(2000);
    std::fs::write(&config, cfg.to_string()).unwrap();
    let err = err_of(
        &mut kn(&sb, &["add", "Big", "--body", &"x".repeat(2001)]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "max_item_bytes");
    assert_eq!(err["detail"]["limit"], 2000);
    // body within the cap but the whole file over it: refused as well
    err_of(
        &mut kn(&sb, &["add", "Big", "--body", &"x".repeat(1990)]),
        "invalid_args",
        2,
    );
    let big = sb.path().join("big.md");
    std::fs::write(&big, "y".repeat(5000)).unwrap();
    err_of(
        &mut kn(&sb, &["add", "Big", "--file", big.to_str().unwrap()]),
        "invalid_args",
        2,
    );
    assert!(!note_file(&sb, "big").exists());
}

#[test]
fn search_finds_notes_and_sees_hand_edits() {
    let sb = Sandbox::new();
    ok_data(&mut kn(
        &sb,
        &[
            "add",
            "Go formatting",
            "--body",
            "Run gofmt before committing.",
            "--tag",
            "go",
        ],
    ));
    ok_data(&mut kn(
        &sb,
        &[
            "add",
            "Deploy keys",
            "--body",
            "Rotate deploy keys weekly.",
            "--tag",
            "ops",
        ],
    ));
    let data = ok_data(&mut kn(
        &sb,
        &["search", "how", "should", "I", "format", "Go", "code?"],
    ));
    assert_eq!(data["hits"][0]["slug"], "go-formatting");
    assert_eq!(data["hits"][0]["id"], "note:go-formatting");
    assert_eq!(data["hits"][0]["path"], "memory/knowledge/go-formatting.md");
    let data = ok_data(&mut kn(&sb, &["search", "deploy", "--tag", "go"]));
    assert_eq!(data["hits"], serde_json::json!([]));
    let data = ok_data(&mut kn(
        &sb,
        &["search", "rotate deploy keys", "--limit", "1"],
    ));
    assert_eq!(data["hits"].as_array().unwrap().len(), 1);
    assert_eq!(data["hits"][0]["slug"], "deploy-keys");
    err_of(&mut kn(&sb, &["search", " "]), "invalid_args", 2);
    err_of(
        &mut kn(&sb, &["search", "x", "--limit", "0"]),
        "invalid_args",
        2,
    );

    // a hand edit shows up without any manual step
    let path = note_file(&sb, "deploy-keys");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "Rotate deploy keys weekly.",
        "Keys live in the zanzibar vault.",
    );
    std::fs::write(&path, text).unwrap();
    let data = ok_data(&mut kn(&sb, &["search", "zanzibar"]));
    assert_eq!(data["hits"][0]["slug"], "deploy-keys", "{data}");
    // a hand-added note too, and a removed one disappears
    std::fs::write(
        note_file(&sb, "handmade"),
        "---\ntitle: Handmade\ntags: [misc]\n---\nThe quokka lives here.\n",
    )
    .unwrap();
    let data = ok_data(&mut kn(&sb, &["search", "quokka"]));
    assert_eq!(data["hits"][0]["slug"], "handmade", "{data}");
    ok_data(&mut kn(&sb, &["rm", "handmade"]));
    assert_eq!(
        ok_data(&mut kn(&sb, &["search", "quokka"]))["hits"],
        serde_json::json!([])
    );
    // deleting the index loses nothing
    std::fs::remove_dir_all(sb.home().join("index")).unwrap();
    let data = ok_data(&mut kn(&sb, &["search", "gofmt"]));
    assert_eq!(data["hits"][0]["slug"], "go-formatting", "{data}");
}

#[test]
fn a_body_with_a_nul_byte_is_refused_and_nothing_is_written() {
    let sb = Sandbox::new();
    let file = sb.path().join("body.md");
    std::fs::write(&file, b"first line\nsecond\0line\n").unwrap();
    let err = err_of(
        &mut kn(&sb, &["add", "Binary", "--file", file.to_str().unwrap()]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["line"], 2, "{err}");
    assert!(!note_file(&sb, "binary").exists());
    ok_data(&mut kn(&sb, &["add", "Binary", "--body", "clean"]));
    err_of(
        &mut kn(
            &sb,
            &[
                "edit",
                "binary",
                "--expect-rev",
                "1",
                "--file",
                file.to_str().unwrap(),
            ],
        ),
        "invalid_args",
        2,
    );
    assert!(read(&sb, "binary").ends_with("clean\n"));
}

#[test]
fn slugs_from_titles_are_transliterated() {
    let sb = Sandbox::new();
    let data = ok_data(&mut kn(&sb, &["add", "Café déjà vu"]));
    assert_eq!(data["slug"], "cafe-deja-vu");
    assert_eq!(data["title"], "Café déjà vu");
    assert!(note_file(&sb, "cafe-deja-vu").is_file());
    let data = ok_data(&mut kn(&sb, &["add", "Café déjà vu"]));
    assert_eq!(data["slug"], "cafe-deja-vu-2");
}

/// Ordinary titles whose slug happens to look like a credential get another
/// slug; an explicit slug that looks like one is still refused.
#[test]
fn derived_slugs_that_look_like_credentials_fall_back() {
    let sb = Sandbox::new();
    for (title, want) in [
        (
            "sk-learn tutorial for beginners",
            "learn-tutorial-for-beginners",
        ),
        (
            "xoxb-bot setup for the whole team",
            "bot-setup-for-the-whole-team",
        ),
        ("xoxb-bot setup", "xoxb-bot-setup"),
        // `xoxb-bot-setup-2` would look like a Slack token.
        ("xoxb-bot setup", "bot-setup"),
    ] {
        let data = ok_data(&mut kn(&sb, &["add", title, "--body", "b"]));
        assert_eq!(data["slug"], want, "{title}");
        assert_eq!(data["title"], title);
        assert!(note_file(&sb, want).is_file());
        assert_eq!(ok_data(&mut kn(&sb, &["show", want]))["title"], title);
    }
    let e = err_of(
        &mut kn(
            &sb,
            &["add", "T", "--slug", "sk-learn-tutorial-for-beginners"],
        ),
        "invalid_args",
        2,
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("looks like a credential"),
        "{e}"
    );
}

#[test]
fn a_directory_is_not_a_body_file() {
    let sb = Sandbox::new();
    let e = err_of(
        &mut kn(&sb, &["add", "T", "--file", sb.path().to_str().unwrap()]),
        "invalid_args",
        2,
    );
    assert_eq!(
        e["message"],
        format!("{} is a directory, not a body file", sb.path().display())
    );
    assert_eq!(
        e["hint"],
        "pass the path of a body file, or - to read stdin"
    );
    assert_eq!(e["detail"]["path"], sb.path().to_str().unwrap());
}

/// A fixed clock whose UTC instant has no four-digit year (`0000-01-01`
/// at a positive offset is in year -1, `9999-12-31` at a negative one in
/// year 10000) is refused: its stamps would not read back, and the note
/// written with them would be unreadable. The edges of 0000–9999 work.
#[test]
fn a_fixed_clock_outside_the_storable_years_is_refused() {
    let sb = Sandbox::new();
    for now in [
        "0000-01-01T00:00:00+00:01",
        "9999-12-31T23:59:59-00:01",
        "9999-12-31T23:59:59.999999999-23:59",
    ] {
        let err = err_of(
            kn(&sb, &["add", "Edge", "--body", "b"]).env("AGENTBOX_NOW", now),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["env"], "AGENTBOX_NOW", "{now}: {err}");
        assert!(!note_file(&sb, "edge").exists(), "{now}");
    }
    for (now, slug) in [
        ("0000-01-01T00:00:00Z", "low"),
        ("9999-12-31T23:59:59Z", "high"),
        ("0000-01-01T00:00:00-01:00", "low-offset"),
    ] {
        ok_data(kn(&sb, &["add", slug, "--body", "b"]).env("AGENTBOX_NOW", now));
        let note = ok_data(&mut kn(&sb, &["show", slug]));
        assert_eq!(note["rev"], 1, "{now}: {note}");
    }
}

/// A note whose hand-edited rev is the highest there is takes no more
/// changes (`conflict`, as a plan at the highest version): an edit, a link
/// or a supersede would overflow it (a panic, or rev 0 that no reader takes
/// back). Nothing is written.
#[test]
fn a_note_at_the_highest_rev_takes_no_more_changes() {
    let sb = Sandbox::new();
    ok_data(&mut kn(&sb, &["add", "Other", "--body", "b"]));
    let max = u64::MAX.to_string();
    let text = format!("---\ntitle: Top\nrev: {max}\nclaims:\n  - go.fmt: gofmt\n---\n\nbody\n");
    std::fs::write(note_file(&sb, "top"), &text).unwrap();
    for args in [
        &["edit", "top", "--expect-version", &max, "--body", "x"][..],
        &["link", "top", "other"],
        &["add", "New", "--claim", "go.fmt=goimports", "--supersede"],
    ] {
        let err = err_of(&mut kn(&sb, args), "conflict", 1);
        assert!(
            err["message"].as_str().unwrap().contains("highest"),
            "{args:?}: {err}"
        );
        assert_eq!(read(&sb, "top"), text, "{args:?}");
    }
    assert!(!note_file(&sb, "new").exists());
}
