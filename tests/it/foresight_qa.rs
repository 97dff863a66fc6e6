//! Hostile-input regressions for `persona` and `proactive`, through the real
//! binary in temp homes with a fixed clock.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use std::fs;

fn run(sb: &Sandbox, tool: &str, args: &[&str]) -> assert_cmd::Command {
    let mut full = vec![tool, "--format", "json"];
    full.extend_from_slice(args);
    let mut cmd = sb.agentbox(&full);
    cmd.env("TZ", "UTC");
    cmd
}

fn foresight_lines(sb: &Sandbox) -> Vec<String> {
    fs::read_to_string(sb.home().join("memory").join("foresight.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A hand-edited `rev: 18446744073709551615` made every later write panic
/// (`attempt to add with overflow`), and the recorded snapshot then poisoned
/// every read of the persona.
#[test]
fn persona_huge_rev_is_refused_not_a_panic() {
    let sb = Sandbox::new();
    ok_data(&mut run(
        &sb,
        "persona",
        &["create", "ada", "--trait", "tone=warm"],
    ));
    let path = sb.home().join("persona").join("ada.md");
    for rev in ["18446744073709551615", "9007199254740992"] {
        fs::write(&path, format!("---\nrev: {rev}\ntone: warm\n---\nbody\n")).unwrap();
        let err = err_of(
            &mut run(&sb, "persona", &["set", "tone=cold"]),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["line"], 2, "{err}");
        err_of(&mut run(&sb, "persona", &["show"]), "invalid_args", 2);
    }
    // The largest allowed rev still works, and the next change is recorded.
    fs::write(&path, "---\nrev: 9007199254740990\ntone: warm\n---\nbody\n").unwrap();
    let data = ok_data(&mut run(&sb, "persona", &["set", "tone=cold"]));
    assert_eq!(data["rev"], 9007199254740991u64, "{data}");
}

/// A snapshot with a huge rev dropped into the history by hand is ignored
/// rather than making "one past the last rev" overflow.
#[test]
fn persona_huge_history_snapshot_is_ignored() {
    let sb = Sandbox::new();
    ok_data(&mut run(
        &sb,
        "persona",
        &["create", "ada", "--trait", "tone=warm"],
    ));
    let hist = sb.home().join("persona").join(".history").join("ada");
    fs::write(hist.join("18446744073709551615.md"), "---\nrev: 1\n---\n").unwrap();
    fs::write(sb.home().join("persona").join("ada.md"), "hand edited\n").unwrap();
    ok_data(&mut run(&sb, "persona", &["show"]));
    let data = ok_data(&mut run(&sb, "persona", &["set", "tone=cold"]));
    assert_eq!(data["rev"], 3, "{data}");
}

/// `--due "in 9999 years"` stored a `+12025-…` time, a line every reader then
/// skipped as unreadable; years before 1970 were read too.
#[test]
fn proactive_when_out_of_range_is_invalid_args() {
    let sb = Sandbox::new();
    for (flag, when) in [
        ("--due", "in 9999 years"),
        ("--until", "in 8000 years"),
        ("--from", "in 3000000 days"),
        ("--due", "1900-01-01T00:00:00Z"),
    ] {
        let err = err_of(
            &mut run(&sb, "proactive", &["add", "x", flag, when]),
            "invalid_args",
            2,
        );
        assert_eq!(err["detail"]["flag"], flag, "{err}");
    }
    err_of(
        &mut run(&sb, "proactive", &["due", "--at", "in 99999 years"]),
        "invalid_args",
        2,
    );
    assert!(foresight_lines(&sb).is_empty());
}

/// A window opening on the last day of 9999 closed 7 days later, in year
/// 10000: the line was stored, unreadable. Same for a snooze that moved the
/// window past 9999.
#[test]
fn proactive_times_past_9999_are_never_stored() {
    let sb = Sandbox::new();
    let err = err_of(
        &mut run(&sb, "proactive", &["add", "x", "--from", "9999-12-31"]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["field"], "valid_until", "{err}");
    assert!(foresight_lines(&sb).is_empty());

    let item = ok_data(&mut run(
        &sb,
        "proactive",
        &["add", "y", "--due", "tomorrow"],
    ));
    let id = item["item"]["id"].as_str().unwrap().to_string();
    err_of(
        &mut run(
            &sb,
            "proactive",
            &["snooze", &id, "--until", "9999-12-31T12:00:00Z"],
        ),
        "invalid_args",
        2,
    );
    let lines = foresight_lines(&sb);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (env, _) = common::envelope(&mut run(&sb, "proactive", &["list", "--all"]));
    assert!(env["meta"]["warnings"].is_null(), "{env}");
}

/// `add` stored ESC and other control characters, which `list` then printed
/// raw to the terminal.
#[test]
fn proactive_add_refuses_control_characters() {
    let sb = Sandbox::new();
    err_of(
        &mut run(&sb, "proactive", &["add", "a\u{1b}[31mred"]),
        "invalid_args",
        2,
    );
    err_of(
        &mut run(&sb, "proactive", &["add", "nul\u{1}x"]),
        "invalid_args",
        2,
    );
    assert!(foresight_lines(&sb).is_empty());
    // Line breaks and tabs are still fine.
    ok_data(&mut run(&sb, "proactive", &["add", "two\nlines\tok"]));
}

/// A hand-edited line with ESC and NUL reached `list`'s text and
/// `mem_context`'s Foresight section raw.
#[test]
fn proactive_text_output_never_prints_control_characters() {
    let sb = Sandbox::new();
    let line = serde_json::json!({
        "id": "f-000000000009", "text": "call\u{1b}[2J bob\u{0}now",
        "valid_from": "2026-01-15T09:30:00Z", "valid_until": "2026-01-20T09:30:00Z",
        "source": "cli", "created": "2026-01-15T09:30:00Z",
        "updated": "2026-01-15T09:30:00Z", "status": "open"
    });
    fs::write(
        sb.home().join("memory").join("foresight.jsonl"),
        format!("{line}\n"),
    )
    .unwrap();
    let mut cmd = sb.agentbox(&["proactive", "--format", "text", "list"]);
    cmd.env("TZ", "UTC");
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("call [2J bob now"), "{text:?}");
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
}

/// A persona body took ESC and NUL from `--text` (and from a hand edit), and
/// `persona render` — the system-prompt block — and `show` printed them raw.
#[test]
fn persona_body_refuses_control_characters() {
    let sb = Sandbox::new();
    let mut cmd = run(&sb, "persona", &["create", "esc", "--text", "-"]);
    cmd.write_stdin("hi\n\nx\u{1b}[31m red\n");
    let err = err_of(&mut cmd, "invalid_args", 2);
    assert_eq!(err["detail"]["line"], 3, "{err}");
    assert!(!sb.home().join("persona").join("esc.md").exists());

    let mut cmd = run(&sb, "persona", &["create", "ok", "--text", "-"]);
    cmd.write_stdin("ok\r\n\ttab\n");
    ok_data(&mut cmd);
    fs::write(
        sb.home().join("persona").join("ok.md"),
        "---\ntone: warm\n---\n\nbody\u{0}\n",
    )
    .unwrap();
    let err = err_of(
        &mut run(&sb, "persona", &["render", "ok"]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["line"], 5, "{err}");
    let list = ok_data(&mut run(&sb, "persona", &["list"]));
    assert_eq!(list["broken"][0]["file"], "persona/ok.md", "{list}");
}

fn record(sb: &Sandbox, ts: &str, content: &str) {
    sb.agentbox(&[
        "track",
        "record",
        "--session",
        "s1",
        "--role",
        "user",
        "--content",
        content,
    ])
    .env("AGENTBOX_NOW", ts)
    .env("TZ", "UTC")
    .assert()
    .success();
}

/// `remind me on 31 December 9999` gave an item closing in year 10000: it
/// was stored as a line every reader skipped. The turn is now skipped with a
/// warning and the rest of the run goes on; ESC from a turn never reaches an
/// item's text.
#[test]
fn proactive_extract_skips_deadlines_past_9999() {
    let sb = Sandbox::new();
    record(&sb, "2026-01-15T09:00:00Z", "remind me on 31 December 9999");
    record(
        &sb,
        "2026-01-15T09:01:00Z",
        "I will call \u{1b}[31mBob tomorrow",
    );
    let (env, code) = common::envelope(&mut run(&sb, "proactive", &["extract"]));
    assert_eq!(code, 0, "{env}");
    let items = env["data"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{env}");
    assert!(
        !items[0]["text"].as_str().unwrap().contains('\u{1b}'),
        "{env}"
    );
    let warnings = env["meta"]["warnings"].to_string();
    assert!(warnings.contains("past year 9999"), "{env}");
    assert_eq!(foresight_lines(&sb).len(), 1);
    let (env, _) = common::envelope(&mut run(&sb, "proactive", &["list", "--all"]));
    assert!(env["meta"]["warnings"].is_null(), "{env}");
}

/// A state file of `proactive extract` that is not UTF-8 failed every run
/// with `invalid_args`, though the docs promise a warning and a re-scan; one
/// of another shape was re-scanned without a word.
#[test]
fn proactive_extract_damaged_state_warns_and_rescans() {
    let sb = Sandbox::new();
    record(
        &sb,
        "2026-01-15T09:00:00Z",
        "I'll send the report by friday",
    );
    ok_data(&mut run(&sb, "proactive", &["extract"]));
    let state = sb
        .home()
        .join("runs")
        .join("proactive")
        .join("extract.json");
    for bad in [&b"\x00\xff{"[..], b"[1]", b"{\"episodes\": 3}"] {
        fs::write(&state, bad).unwrap();
        let (env, code) = common::envelope(&mut run(&sb, "proactive", &["extract"]));
        assert_eq!(code, 0, "{env}");
        assert_eq!(env["data"]["skipped_duplicates"], 1, "{env}");
        assert!(
            env["meta"]["warnings"].to_string().contains("extract.json"),
            "{env}"
        );
        assert_eq!(foresight_lines(&sb).len(), 1);
    }
}

/// `add x --due yesterday` failed with a hint about `--until`, a flag the
/// caller never gave: the window closes at the due time, so the hint names
/// `--due`.
#[test]
fn proactive_add_due_before_window_hint_names_due() {
    let sb = Sandbox::new();
    let err = err_of(
        &mut run(&sb, "proactive", &["add", "x", "--due", "yesterday"]),
        "invalid_args",
        2,
    );
    assert!(err["hint"].as_str().unwrap().contains("--due"), "{err}");
    let err = err_of(
        &mut run(
            &sb,
            "proactive",
            &["add", "x", "--from", "tomorrow", "--until", "today"],
        ),
        "invalid_args",
        2,
    );
    assert!(err["hint"].as_str().unwrap().contains("--until"), "{err}");
}

/// Runs the command a suggestion of `proactive scan` gives, as a user would
/// paste it.
fn run_suggested(sb: &Sandbox, command: &str, now: &str) -> serde_json::Value {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut cmd = run(sb, words[0], &words[1..]);
    cmd.env("AGENTBOX_NOW", now);
    ok_data(&mut cmd)
}

/// Items `proactive extract` made (`fx_…`) were listed, due, scanned and in
/// `mem_context`, but `done`, `dismiss` and `snooze` answered `not_found`
/// even with the exact id `list` printed — and `scan` suggested that very
/// command. Every id `proactive` prints (`f-…` and `fx_…`) is taken by every
/// verb that takes one, whole or as a unique prefix.
#[test]
fn proactive_every_printed_id_is_accepted_by_every_verb() {
    let sb = Sandbox::new();
    let now = "2026-01-15T10:00:00Z";
    record(&sb, "2026-01-15T09:00:00Z", "I will call Bob tomorrow");
    record(&sb, "2026-01-15T09:01:00Z", "I need to pay rent by friday");
    record(&sb, "2026-01-15T09:02:00Z", "I'll send the report tomorrow");
    let mut cmd = run(&sb, "proactive", &["extract"]);
    cmd.env("AGENTBOX_NOW", now);
    let extracted = ok_data(&mut cmd);
    let fx: Vec<String> = extracted["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(fx.len(), 3, "{extracted}");
    assert!(fx.iter().all(|id| id.starts_with("fx_")), "{fx:?}");
    let mut cmd = run(
        &sb,
        "proactive",
        &["add", "Renew the cert", "--due", "in 5 hours"],
    );
    cmd.env("AGENTBOX_NOW", now);
    let f = ok_data(&mut cmd)["item"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(f.starts_with("f-"), "{f}");

    // The ids `list` prints are the ones the verbs take.
    let mut cmd = run(&sb, "proactive", &["list"]);
    cmd.env("AGENTBOX_NOW", now);
    let listed = ok_data(&mut cmd);
    for id in fx.iter().chain([&f]) {
        assert!(listed.to_string().contains(id.as_str()), "{id} in {listed}");
    }

    // Full ids and unique prefixes, for every verb that takes an id.
    let mut cmd = run(&sb, "proactive", &["list", "--all"]);
    cmd.env("AGENTBOX_NOW", now);
    let open: Vec<String> = ok_data(&mut cmd)["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["status"] == "open" && i["id"] != fx[2].as_str())
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(open.len(), 3, "{open:?}");
    for (n, id) in open.iter().enumerate() {
        let prefix = &id[..id.len() - 3];
        let (first, second) = if n % 2 == 0 {
            (id.as_str(), prefix)
        } else {
            (prefix, id.as_str())
        };
        let mut cmd = run(
            &sb,
            "proactive",
            &["snooze", first, "--until", "2026-01-17"],
        );
        cmd.env("AGENTBOX_NOW", now);
        assert_eq!(ok_data(&mut cmd)["item"]["id"], id.as_str());
        let verb = if n % 2 == 0 { "done" } else { "dismiss" };
        let mut cmd = run(&sb, "proactive", &[verb, second]);
        cmd.env("AGENTBOX_NOW", now);
        assert_eq!(ok_data(&mut cmd)["changed"][0], id.as_str());
    }
    // `scan` suggests a command for the item left, closing within a day:
    // it works as printed.
    let mut cmd = run(&sb, "proactive", &["scan"]);
    cmd.env("AGENTBOX_NOW", "2026-01-17T09:00:00Z");
    let scan = ok_data(&mut cmd);
    let commands: Vec<String> = scan["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "expiring_item")
        .map(|s| s["command"].as_str().unwrap().to_string())
        .collect();
    assert!(commands.iter().any(|c| c.contains("fx_")), "{scan}");
    for command in &commands {
        run_suggested(&sb, command, "2026-01-17T09:00:00Z");
    }

    // A bare hex start of an `f-` id still works, and `f` alone (the start
    // of both families) is ambiguous, not a guess.
    let mut cmd = run(&sb, "proactive", &["add", "Water the plants"]);
    cmd.env("AGENTBOX_NOW", now);
    let plain = ok_data(&mut cmd)["item"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut cmd = run(&sb, "proactive", &["done", &plain[2..10]]);
    cmd.env("AGENTBOX_NOW", now);
    assert_eq!(ok_data(&mut cmd)["changed"][0], plain.as_str());
    err_of(
        &mut run(&sb, "proactive", &["done", "f"]),
        "invalid_args",
        2,
    );
    err_of(
        &mut run(&sb, "proactive", &["done", "fx_zzzz"]),
        "not_found",
        1,
    );
}

/// `proactive due --at 9999-12-31` printed `+10000-01-01T00:00:00Z`, which
/// is not RFC 3339: a look-ahead that ends past 9999 is clamped to the last
/// second that can be stored (no item can be due later), in `data` and in
/// the text; `scan`'s suggested snooze time is clamped alike.
#[test]
fn proactive_due_window_past_9999_is_clamped() {
    let sb = Sandbox::new();
    let line = serde_json::json!({
        "id": "f-00000000000a", "text": "last call",
        "valid_from": "9999-12-30T00:00:00Z", "valid_until": "9999-12-31T12:00:00Z",
        "source": "cli", "created": "9999-12-30T00:00:00Z",
        "updated": "9999-12-30T00:00:00Z", "status": "open"
    });
    fs::write(
        sb.home().join("memory").join("foresight.jsonl"),
        format!("{line}\n"),
    )
    .unwrap();
    for args in [
        &["due", "--at", "9999-12-31"][..],
        &["due", "--at", "9999-12-31T00:00:00Z", "--within", "100w"][..],
    ] {
        let data = ok_data(&mut run(&sb, "proactive", args));
        assert_eq!(data["at"], "9999-12-31T00:00:00Z", "{data}");
        assert_eq!(data["until"], "9999-12-31T23:59:59Z", "{data}");
        assert_eq!(data["items"][0]["id"], "f-00000000000a", "{data}");
        let mut cmd = sb.agentbox(&[&["proactive", "--format", "text"][..], args].concat());
        cmd.env("TZ", "UTC");
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains("10000"), "{text}");
        assert!(text.contains("9999-12-31"), "{text}");
    }
    let mut cmd = run(&sb, "proactive", &["scan"]);
    cmd.env("AGENTBOX_NOW", "9999-12-31T00:00:00Z");
    let scan = ok_data(&mut cmd);
    let command = scan["suggestions"][0]["command"].as_str().unwrap();
    assert!(command.ends_with("--until 9999-12-31T23:59:59Z"), "{scan}");
}

/// Every file under `persona/`, with its bytes.
fn persona_tree(sb: &Sandbox) -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push((path.display().to_string(), fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&sb.home().join("persona"), &mut out);
    out.sort();
    out
}

/// `persona set` on a persona at rev 2^53−1 failed `internal` after it had
/// already rewritten the file (recording the hand edit). A change that would
/// need a rev past the last one is refused before anything is written, with
/// the way out in the hint.
#[test]
fn persona_rev_overflow_is_refused_before_writing() {
    let sb = Sandbox::new();
    ok_data(&mut run(
        &sb,
        "persona",
        &["create", "ada", "--trait", "tone=warm"],
    ));
    let path = sb.home().join("persona").join("ada.md");
    // A hand edit at the last rev, and the same rev once recorded.
    fs::write(&path, "---\nrev: 9007199254740990\ntone: warm\n---\nbody\n").unwrap();
    let data = ok_data(&mut run(&sb, "persona", &["set", "tone=cold"]));
    assert_eq!(data["rev"], 9007199254740991u64, "{data}");
    let hand = "---\nrev: 9007199254740991\ntone: hot\n---\nbody\n";
    for edited in [false, true] {
        if edited {
            fs::write(&path, hand).unwrap();
        }
        let before = persona_tree(&sb);
        for args in [
            &["set", "tone=icy"][..],
            &["unset", "ada", "tone"][..],
            &["set", "ada", "--text", "-"][..],
            &["revert", "ada", "1"][..],
        ] {
            let mut cmd = run(&sb, "persona", args);
            cmd.write_stdin("new body\n");
            let err = err_of(&mut cmd, "invalid_args", 2);
            assert_eq!(err["detail"]["limit"], 9007199254740991u64, "{err}");
            assert!(
                err["hint"].as_str().unwrap().contains("persona create"),
                "{err}"
            );
            assert_eq!(persona_tree(&sb), before, "{args:?} wrote something");
        }
    }
    // The way out the hint gives works, and the persona is still readable.
    let data = ok_data(&mut run(
        &sb,
        "persona",
        &["create", "ada2", "--from", "ada"],
    ));
    assert_eq!(data["rev"], 1, "{data}");
    assert_eq!(fs::read_to_string(&path).unwrap(), hand);
    ok_data(&mut run(&sb, "persona", &["show", "ada"]));
}

/// Two hand-made ids of different families with the same body: the bare
/// body is ambiguous (`invalid_args` naming both), never a silent pick.
#[test]
fn proactive_a_body_shared_by_two_families_is_ambiguous() {
    let sb = Sandbox::new();
    let line = |id: &str| {
        serde_json::json!({
            "id": id, "text": "x",
            "valid_from": "2026-01-01T00:00:00Z", "valid_until": "2026-02-01T00:00:00Z",
            "source": "cli", "created": "2026-01-01T00:00:00Z",
            "updated": "2026-01-01T00:00:00Z", "status": "open"
        })
        .to_string()
    };
    fs::write(
        sb.home().join("memory").join("foresight.jsonl"),
        format!("{}\n{}\n", line("f-abc123"), line("fx_abc123")),
    )
    .unwrap();
    let err = err_of(
        &mut run(&sb, "proactive", &["done", "abc123"]),
        "invalid_args",
        2,
    );
    let hint = err["hint"].as_str().unwrap();
    assert!(
        hint.contains("f-abc123") && hint.contains("fx_abc123"),
        "{err}"
    );
    let data = ok_data(&mut run(&sb, "proactive", &["done", "fx_abc123"]));
    assert_eq!(data["changed"][0], "fx_abc123", "{data}");
}

/// With the machine's zone (a POSIX `TZ` rule, not an IANA name), a wall
/// time in the fall-back hour took its second occurrence (chrono's `Local`);
/// it takes the first, as docs/tools/proactive.md says and named zones do.
/// The last day of 9999 ends at the machine zone's own midnight (22:59:59Z
/// at +1); a named zone reads the midnight after it as UTC, as it always did.
#[test]
fn proactive_machine_zone_reads_a_repeated_hour_as_its_first() {
    for (tz, due, want) in [
        (
            "CET-1CEST,M3.5.0,M10.5.0/3",
            "2026-10-25 02:30",
            "2026-10-25T00:30:00Z",
        ),
        ("Europe/Paris", "2026-10-25 02:30", "2026-10-25T00:30:00Z"),
        (
            "CET-1CEST,M3.5.0,M10.5.0/3",
            "2026-03-29 02:30",
            "2026-03-29T01:00:00Z",
        ),
        (
            "CET-1CEST,M3.5.0,M10.5.0/3",
            "9999-12-31",
            "9999-12-31T22:59:59Z",
        ),
        ("Europe/Paris", "9999-12-31", "9999-12-31T23:59:59Z"),
    ] {
        let sb = Sandbox::new();
        let mut cmd = run(&sb, "proactive", &["add", "x", "--due", due]);
        cmd.env("TZ", tz);
        let data = ok_data(&mut cmd);
        assert_eq!(data["item"]["due"], want, "TZ={tz} {due}: {data}");
    }
}
