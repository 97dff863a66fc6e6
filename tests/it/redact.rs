//! The redactor through the real binary: what reaches stored documents and
//! envelopes. Pure-function cases live beside the code (src/redact/).

use crate::common;

use common::Sandbox;
use serde_json::Value;

/// Runs a command and parses its stdout as a JSON envelope.
fn envelope(mut cmd: assert_cmd::Command) -> (Value, i32) {
    let out = cmd.arg("--format").arg("json").output().expect("run");
    let text = String::from_utf8(out.stdout).expect("utf-8 stdout");
    let value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    (value, out.status.code().unwrap_or(-1))
}

fn set_patterns(sb: &Sandbox, patterns: &[&str]) {
    let config = serde_json::json!({
        "schema": "agentbox.config/v1",
        "redaction": {"extra_patterns": patterns},
    });
    std::fs::write(sb.home().join("config.json"), config.to_string()).unwrap();
}

/// Defect 4: a presigned-URL signature followed by `)` in a note source is
/// masked up to the value's end; the note is stored and shown.
#[test]
fn knowledge_source_with_presigned_url_is_masked_not_broken() {
    let sb = Sandbox::new();
    for (title, source, shown) in [
        (
            "Paren",
            "https://b.s3.amazonaws.com/k?X-Amz-Signature=abcdef0123456789abcdef)",
            "https://b.s3.amazonaws.com/k?X-Amz-Signature=_REDACTED)",
        ),
        (
            "Bracket",
            "https://storage.googleapis.com/b/o?X-Goog-Signature=247a2aa45f169edf4d187d54e7cc46e4]",
            "https://storage.googleapis.com/b/o?X-Goog-Signature=247a2aa4_REDACTED]",
        ),
        (
            "Plain",
            "https://acct.blob.core.windows.net/c/b?sv=1&sig=AbCdEf%2B0123",
            "https://acct.blob.core.windows.net/c/b?sv=1&sig=_REDACTED",
        ),
    ] {
        let (added, code) =
            envelope(sb.agentbox(&["knowledge", "add", title, "--body", "b", "--source", source]));
        assert_eq!(code, 0, "{added}");
        let slug = added["data"]["slug"].as_str().expect("slug").to_owned();
        let (note, code) = envelope(sb.agentbox(&["knowledge", "show", &slug]));
        assert_eq!(code, 0, "{note}");
        assert_eq!(
            note["data"]["sources"],
            serde_json::json!([shown]),
            "{note}"
        );
    }
}

/// Defect 5: a user pattern that is also an enum value masks free text only;
/// the stored plan stays valid and `plan show` reads it.
#[test]
fn user_pattern_never_rewrites_plan_structure() {
    let sb = Sandbox::new();
    set_patterns(&sb, &["pending", "steps"]);
    let (created, code) = envelope(sb.agentbox(&[
        "plan",
        "create",
        "Release",
        "--step",
        "pending review",
        "--step",
        "ship",
    ]));
    assert_eq!(code, 0, "{created}");
    let id = created["data"]["id"].as_str().expect("id").to_owned();
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.home().join("plans").join(format!("{id}.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["steps"][0]["status"], "pending", "{stored}");
    assert_eq!(stored["steps"][0]["text"], "_REDACTED review", "{stored}");
    let (shown, code) = envelope(sb.agentbox(&["plan", "show", &id]));
    assert_eq!(code, 0, "{shown}");
    assert_eq!(shown["data"]["steps"][1]["status"], "pending", "{shown}");
    assert_eq!(
        shown["data"]["steps"][0]["text"], "_REDACTED review",
        "{shown}"
    );
    assert_eq!(shown["data"]["progress"]["pending"], 2, "{shown}");
    let (stepped, code) = envelope(sb.agentbox(&["plan", "step", &id, "2", "--status", "done"]));
    assert_eq!(code, 0, "{stepped}");
    assert_eq!(
        stepped["data"]["steps"][0]["status"], "pending",
        "{stepped}"
    );
}

/// Defect 5: a pattern that can match the empty string is refused when the
/// config is read, with a hint that names it.
#[test]
fn empty_matching_user_pattern_is_refused() {
    let sb = Sandbox::new();
    for pattern in ["a*", "x?", "^"] {
        set_patterns(&sb, &["ACME-[0-9]+", pattern]);
        let (err, code) = envelope(sb.agentbox(&["plan", "list"]));
        assert_eq!(code, 2, "{err}");
        assert_eq!(err["ok"], false);
        assert_eq!(err["error"]["type"], "invalid_args", "{err}");
        assert_eq!(
            err["error"]["detail"]["key"], "redaction.extra_patterns[1]",
            "{err}"
        );
        let hint = err["error"]["hint"].as_str().unwrap();
        assert!(hint.contains(&format!("{pattern:?}")), "{hint}");
    }
}

/// Defect 11: `file.md:LINE` in an error message is not a pair.
#[test]
fn line_numbers_in_errors_survive() {
    let sb = Sandbox::new();
    for name in ["secrets.md", "token-refresh.md", "pwd.md"] {
        std::fs::write(sb.path().join(name), "# Title\n\nsome text\n").unwrap();
        let (err, code) = envelope(sb.agentbox(&["plan", "create", "--file", name]));
        assert_eq!(code, 2, "{err}");
        assert_eq!(
            err["error"]["message"],
            format!("{name}:3: no steps found"),
            "{err}"
        );
    }
}
