//! QA of `evolve`: hostile, odd and hand-edited input driven through the
//! real binary in temp homes with the fixed clock. Each test here failed
//! before the fix it names.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::Value;
use std::path::PathBuf;

/// Records one closed episode holding one user turn.
fn correction(sb: &Sandbox, session: &str, content: &str) {
    sb.agentbox(&[
        "track",
        "record",
        "--session",
        session,
        "--content",
        content,
        "--flush",
    ])
    .assert()
    .success();
}

/// Runs `evolve run`; the run folder.
fn run(sb: &Sandbox) -> PathBuf {
    let mut cmd = sb.agentbox(&["evolve", "run"]);
    let data = ok_data(&mut cmd);
    let id = data["run_id"].as_str().unwrap();
    sb.home().join("runs/evolve").join(id)
}

/// A home with one pending preference proposal; its run folder and id.
fn one_preference(sb: &Sandbox) -> (PathBuf, String) {
    correction(sb, "s1", "No, use pnpm instead of npm.");
    let dir = run(sb);
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("proposals.json")).unwrap())
            .unwrap();
    let id = file["proposals"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(file["proposals"][0]["kind"], "preference");
    (dir, id)
}

/// Fix: the hint of a hand-edited preference section named the placeholder
/// `ID` instead of the proposal (`evolve reject ID`).
#[test]
fn a_bad_profile_section_hint_names_the_proposal() {
    let sb = Sandbox::new();
    let (dir, id) = one_preference(&sb);
    let path = dir.join("proposals.json");
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    file["proposals"][0]["preference"]["section"] = "hobbies".into();
    std::fs::write(&path, file.to_string()).unwrap();

    let err = err_of(
        &mut sb.agentbox(&["evolve", "apply", &id]),
        "invalid_args",
        2,
    );
    assert_eq!(err["type"], "invalid_args");
    let hint = err["hint"].as_str().unwrap();
    assert!(hint.contains(&format!("evolve reject {id}")), "{hint}");
    assert_eq!(err["detail"]["id"], id.as_str());
    // nothing was written
    let profile =
        std::fs::read_to_string(sb.home().join("memory/personal/PROFILE.md")).unwrap_or_default();
    assert!(!profile.contains("pnpm"), "{profile}");
}

/// Fix: a negative budget was refused by the argument parser as "unexpected
/// argument '-1' found", as if it were a flag; now it is read as a number
/// and refused for what it is.
#[test]
fn a_negative_budget_is_refused_as_a_number_not_as_an_unknown_flag() {
    let sb = Sandbox::new();
    for (flag, value) in [
        ("--max-episodes", "-1"),
        ("--max-model-calls", "-3"),
        ("--max-seconds", "-5"),
        ("--max-cost-usd", "-0.5"),
    ] {
        let err = err_of(
            &mut sb.agentbox(&["evolve", "run", flag, value]),
            "invalid_args",
            2,
        );
        assert_eq!(err["type"], "invalid_args", "{flag}");
        let message = err["message"].as_str().unwrap();
        assert!(
            !message.contains("unexpected argument"),
            "{flag}: {message}"
        );
        assert!(message.contains(flag), "{flag}: {message}");
        assert_eq!(err["detail"]["flag"], flag);
    }
    // nothing ran
    assert!(!sb.home().join("runs/evolve/state.json").exists());
}

/// Fix: a `state.json` that is a JSON array (`[]`) was read as a fresh
/// state (serde reads a struct from an array), so the run silently dropped
/// the mark and the carried counts and re-mined every episode. Now it is
/// refused like any other file that is not a state, and left as it is.
#[test]
fn a_state_file_that_is_an_array_is_refused_and_left_alone() {
    let sb = Sandbox::new();
    one_preference(&sb);
    let path = sb.home().join("runs/evolve/state.json");
    for text in ["[]", "[\"agentbox.evolve.state/v1\"]", "\"x\"", "7", "null"] {
        std::fs::write(&path, text).unwrap();
        let err = err_of(&mut sb.agentbox(&["evolve", "run"]), "invalid_args", 2);
        assert_eq!(err["type"], "invalid_args", "{text}");
        assert!(
            err["message"]
                .as_str()
                .unwrap()
                .contains("not a valid evolve state"),
            "{text}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

/// Records one closed episode: a `bash` call whose result is `output`, then
/// a call that worked.
fn failing_build(sb: &Sandbox, session: &str, output: &str) {
    let turns = serde_json::json!([
        {"role": "user", "content": "build it"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "name": "bash", "arguments": {"command": "cargo build"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": output},
        {"role": "assistant", "content": "Installing a C compiler \u{1b}[2J first."},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c2", "name": "bash", "arguments": {"command": "apt-get install gcc"}}]},
        {"role": "tool", "tool_call_id": "c2", "content": "ok"}
    ]);
    let mut cmd = sb.agentbox(&[
        "track",
        "record",
        "--session",
        session,
        "--messages",
        "-",
        "--flush",
    ]);
    cmd.write_stdin(turns.to_string());
    ok_data(&mut cmd);
}

/// Fix: a failure in coloured tool output kept its terminal escape codes in
/// the signature, the title, the evidence and the note: `evolve run`'s text
/// wrote them raw to the terminal (an OSC sequence retitles it), the
/// proposal could never be applied ("the title contains a control
/// character"), and the coloured and the plain form of one error were two
/// different failures.
#[test]
fn a_failure_in_coloured_output_is_mined_without_its_escape_codes() {
    let sb = Sandbox::new();
    failing_build(
        &sb,
        "s1",
        "\u{1b}[1m\u{1b}[31merror:\u{1b}[0m linker `cc` not found\u{1b}]0;pwned\u{7}",
    );
    failing_build(&sb, "s2", "error: linker `cc` not found");

    let out = sb
        .agentbox(&["--format", "text", "evolve", "run"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("1 new proposal"), "{text}");

    let list = ok_data(&mut sb.agentbox(&["evolve", "list"]));
    let proposals = list["proposals"].as_array().unwrap();
    assert_eq!(proposals.len(), 1, "{list}");
    assert_eq!(proposals[0]["kind"], "knowledge");
    assert_eq!(proposals[0]["evidence"], 2, "one failure, coloured or not");
    let id = proposals[0]["id"].as_str().unwrap();

    let shown = ok_data(&mut sb.agentbox(&["evolve", "show", id]));
    let stored = shown["proposal"].to_string();
    assert!(
        !stored.contains("\\u001b") && !stored.contains("\\u0007"),
        "{stored}"
    );
    assert!(!stored.contains('\u{fffd}'), "{stored}");
    assert!(stored.contains("linker `cc` not found"), "{stored}");

    let applied = ok_data(&mut sb.agentbox(&["evolve", "apply", id]));
    let path = applied["applied"][0]["applied"]["path"].as_str().unwrap();
    let note = std::fs::read_to_string(sb.home().join(path)).unwrap();
    assert!(!note.contains('\u{1b}') && !note.contains("[31m"), "{note}");
    assert!(!note.contains("[2J"), "{note}");
}

/// Fix: `apply` is all or nothing, yet a PROFILE.md that cannot be read was
/// found only when the preference's turn came: the proposals before it in
/// the call were already applied (here a note written). Now the profile is
/// read in the checks, before anything changes.
#[test]
fn an_unreadable_profile_stops_apply_before_anything_is_applied() {
    let sb = Sandbox::new();
    failing_build(&sb, "s1", "error: linker `cc` not found");
    failing_build(&sb, "s2", "error: linker `cc` not found");
    correction(&sb, "s3", "No, use pnpm instead of npm.");
    run(&sb);
    let list = ok_data(&mut sb.agentbox(&["evolve", "list"]));
    let id_of = |kind: &str| {
        list["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["kind"] == kind)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (note, pref) = (id_of("knowledge"), id_of("preference"));
    let profile = sb.home().join("memory/personal/PROFILE.md");
    std::fs::create_dir_all(profile.parent().unwrap()).unwrap();
    std::fs::write(&profile, b"# Profile\n\xff\xfe\n## Preferences\n- Tabs\n").unwrap();

    let err = err_of(
        &mut sb.agentbox(&["evolve", "apply", &note, &pref]),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["id"], pref.as_str(), "{err}");
    let notes: Vec<_> = std::fs::read_dir(sb.home().join("memory/knowledge"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(notes.is_empty(), "a note was written: {notes:?}");
    let counts = ok_data(&mut sb.agentbox(&["evolve", "list"]))["counts"].clone();
    assert_eq!(counts["pending"], 2, "{counts}");
    assert_eq!(counts["applied"], 0, "{counts}");
    assert_eq!(
        std::fs::read(&profile).unwrap(),
        b"# Profile\n\xff\xfe\n## Preferences\n- Tabs\n"
    );
}

/// Fix: a reason with a tab (pasted from a table or a log) was refused as
/// "a control character"; a tab is plain text like a newline. Other control
/// characters are still refused.
#[test]
fn a_reject_reason_may_hold_a_tab_but_not_an_escape() {
    let sb = Sandbox::new();
    let (_dir, id) = one_preference(&sb);
    let err = err_of(
        &mut sb.agentbox(&["evolve", "reject", &id, "--reason", "red \u{1b}[31m"]),
        "invalid_args",
        2,
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("control character")
    );
    let data =
        ok_data(&mut sb.agentbox(&["evolve", "reject", &id, "--reason", "npm\tis what CI uses"]));
    assert_eq!(data["rejected"][0]["reason"], "npm\tis what CI uses");
}
