//! Whole-redactor properties and JSON documents: `redact_value` on nested
//! and structured documents, idempotence, no secret survives, the prefilter
//! is a superset. The text cases are in `tests.rs`.

use super::tests::redact;
use super::*;
use proptest::prelude::*;
use serde_json::json;

#[test]
fn redact_value_nested() {
    let red = Redactor::builtin();
    let mut doc = json!({
        "title": "Rotate sk-abcdefghijklmnopqrstuv",
        "password": "hunter2",
        "config": {
            "apiKey": "0123456789abcdef0123456789",
            "client_secret": 42,
            "DB_PASSWORD": "",
            "Authorization": "Bearer abcdefghij",
            "note": "export TOKEN=abc",
            "tokens": {"github": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
        },
        "steps": [
            {"text": "Write the token refresh docs", "done": false},
            {"text": "password=hunter2", "token_count": 12},
            "AKIAZ7XQ4K2M9PLR3TVW",
        ],
        "usage": {"max_tokens": 4096, "total_tokens": 10},
        "tokenizer": "gpt2",
        "secret_enabled": true,
        "api_keys": ["k1", "k2"],
        "AKIAZ7XQ4K2M9PLR3TVW": "key as key",
    });
    red.redact_value(&mut doc);
    let expected = json!({
        "title": "Rotate sk-abcde_REDACTED",
        "password": "_REDACTED",
        "config": {
            "apiKey": "01234567_REDACTED",
            "client_secret": "_REDACTED",
            "DB_PASSWORD": "",
            "Authorization": "Bearer _REDACTED",
            "note": "export TOKEN=_REDACTED",
            "tokens": {"github": "ghp_abcd_REDACTED"},
        },
        "steps": [
            {"text": "Write the token refresh docs", "done": false},
            {"text": "password=_REDACTED", "token_count": 12},
            "AKIAZ7XQ_REDACTED",
        ],
        "usage": {"max_tokens": 4096, "total_tokens": 10},
        "tokenizer": "gpt2",
        "secret_enabled": true,
        "api_keys": ["_REDACTED", "_REDACTED"],
        "AKIAZ7XQ4K2M9PLR3TVW": "key as key",
    });
    assert_eq!(doc, expected);
    // Keys are structure: never rewritten, order kept (preserve_order). A
    // second pass changes nothing.
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.last(), Some(&"AKIAZ7XQ4K2M9PLR3TVW"));
    red.redact_value(&mut doc);
    assert_eq!(doc, expected);
}

#[test]
fn redact_value_leaves_plain_documents_alone() {
    let red = Redactor::builtin();
    let original = json!({"title": "password reset flow", "steps": [{"text": "secret sauce", "n": 1}], "ok": true});
    let mut doc = original.clone();
    red.redact_value(&mut doc);
    assert_eq!(doc, original);
}

/// Defect 5: object keys are never rewritten, and user patterns leave the
/// structural fields (ids, statuses, kinds, timestamps) of a document alone.
#[test]
fn redact_value_as_text_masks_structural_fields_too() {
    let red = Redactor::new(&["acme-[0-9]{6}".to_owned()]).unwrap();
    let mut detail = json!({"slug": "acme-123456", "ids": ["acme-654321"], "limit": 3});
    red.redact_value_as_text(&mut detail);
    assert_eq!(
        detail,
        json!({"slug": "_REDACTED", "ids": ["_REDACTED"], "limit": 3})
    );
    // The plain document redaction keeps them, as before.
    let mut doc = json!({"slug": "acme-123456"});
    red.redact_value(&mut doc);
    assert_eq!(doc, json!({"slug": "acme-123456"}));
}

#[test]
fn redact_value_keeps_keys_and_structural_fields() {
    let red = Redactor::new(&["pending".to_owned(), "p-2026".to_owned()]).unwrap();
    let mut doc = json!({
        "schema": "agentbox.plan/v1",
        "id": "p-20260115-pending",
        "status": "active",
        "steps": [
            {"text": "pending review", "status": "pending", "updated": "2026-01-15T09:30:00Z"},
            {"text": "ship", "status": "in_progress", "note": "was pending"},
        ],
        "pending": {"type": "pending", "enum": ["pending", "done"], "run_id": "pending-1"},
        "owner_id": "sk-abcdefghijklmnopqrstuv",
    });
    red.redact_value(&mut doc);
    assert_eq!(
        doc,
        json!({
            "schema": "agentbox.plan/v1",
            "id": "p-20260115-pending",
            "status": "active",
            "steps": [
                {"text": "_REDACTED review", "status": "pending", "updated": "2026-01-15T09:30:00Z"},
                {"text": "ship", "status": "in_progress", "note": "was _REDACTED"},
            ],
            "pending": {"type": "pending", "enum": ["pending", "done"], "run_id": "pending-1"},
            // Built-in rules still apply to structural fields.
            "owner_id": "sk-abcde_REDACTED",
        })
    );
    let mut keyed = json!({"ghp_abcdefghijklmnopqrstuvwxyz01": 1, "b": 2});
    Redactor::builtin().redact_value(&mut keyed);
    assert_eq!(
        keyed,
        json!({"ghp_abcdefghijklmnopqrstuvwxyz01": 1, "b": 2})
    );
    for key in [
        "id",
        "plan_id",
        "tool_call_ids",
        "created_at",
        "last_ts",
        "kind",
        "role",
    ] {
        assert!(is_structural_key(key), "{key}");
    }
    for key in [
        "_id",
        "text",
        "title",
        "note",
        "idea",
        "identity",
        "status_note",
    ] {
        assert!(!is_structural_key(key), "{key}");
    }
}

// ---------------------------------------------------------------------------
// Properties

/// Pieces of text the property tests glue together (the matcher tests use
/// them too).
pub(super) const FRAGMENTS: &[&str] = &[
    "AKIA",
    "Z7XQ4K2M9PLR3TVW",
    "EXAMPLE",
    "sk-",
    "sk-proj-",
    "ghp_",
    "github_pat_",
    "xoxb-",
    "emk_",
    "evt_",
    "abcdefghij",
    "ABCDEFGHIJ",
    "0123456789",
    "_",
    "-",
    ".",
    "=",
    ":",
    "==",
    "::",
    " ",
    "\t",
    "\"",
    "'",
    "\\",
    "\\\"",
    "Bearer ",
    "-----BEGIN ",
    "RSA PRIVATE KEY-----",
    "-----END ",
    "\n",
    "\r\n",
    "://",
    "@",
    "/",
    "?",
    "&",
    "#",
    "X-Amz-Signature",
    "sig",
    "token",
    "TOKEN",
    "password",
    "api_key",
    "apiKey",
    "secret",
    "auth",
    "Authorization",
    "author",
    "credential",
    "é",
    "日本",
    "$",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    "true",
    "4096",
    "max_tokens",
    "PWD",
    "Basic ",
    "_REDACTED",
    "ASIA",
    "0123456789ABCDEF",
    "gho_",
    "=>",
    ":=",
    "  ",
    "Bearer",
    "bearer ",
    "RSA ",
    "PRIVATE KEY-----",
    "https://",
    "x-amz-signature",
    "X-Goog-Credential",
    "passwd",
    "pwd",
    "api-key",
    "access_key",
    "private-key",
    "${",
    "$(",
    "/tmp",
    "tokenizer",
    "x",
    "a1",
    "the",
];

pub(super) fn fragment_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..32).prop_map(|v| v.concat())
}

/// A secret of a known kind, or a pair whose value is a secret: `(text, secret)`.
fn spliced_secret() -> impl Strategy<Value = (String, String)> {
    let tail = "[A-Za-z0-9]{24,40}";
    let kind = (
        prop::sample::select(vec![
            "sk-",
            "sk-proj-",
            "sk-ant-api03-",
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "xoxb-",
            "xoxp-",
            "emk_",
            "evt_",
        ]),
        tail,
    )
        .prop_map(|(prefix, tail)| {
            let secret = format!("{prefix}{tail}");
            (secret.clone(), secret)
        });
    let aws = ("(AKIA|ASIA)", "[A-Z0-9]{9}[0-9][A-Z0-9]{6}").prop_map(|(p, t)| {
        let secret = format!("{p}{t}");
        (secret.clone(), secret)
    });
    let pair = (
        prop::sample::select(vec![
            "password=",
            "DB_PASSWORD=",
            "export API_KEY=",
            "api_key: ",
            "\"client_secret\": \"",
            "apiKey=",
            "token=",
            "Authorization: Basic ",
            "X-Api-Key: ",
            "?access_token=",
            "secret='",
            "sig=",
            "X-Amz-Signature=",
            "postgres://app:",
        ]),
        "[A-Za-z]{2,12}[0-9][A-Za-z0-9]{9,30}",
    )
        .prop_map(|(head, value)| {
            let closing = match head {
                h if h.ends_with('"') => "\"",
                h if h.ends_with('\'') => "'",
                h if h.ends_with(':') && h.starts_with("postgres") => "@db",
                _ => "",
            };
            (format!("{head}{value}{closing}"), value)
        });
    prop_oneof![kind, aws, pair]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever the built-in rules would change, the prefilter lets through.
    #[test]
    fn prefilter_is_a_superset(text in fragment_soup()) {
        if !has_trigger(text.as_bytes()) {
            prop_assert!(redact_builtin(&text).is_none(), "{:?}", text);
        }
    }

    #[test]
    fn idempotent_on_arbitrary_strings(text in any::<String>()) {
        let once = redact(&text);
        prop_assert_eq!(redact(&once), once);
    }

    #[test]
    fn idempotent_on_printable_ascii(text in "[ -~\t\n]{0,300}") {
        let once = redact(&text);
        prop_assert_eq!(redact(&once), once);
    }

    #[test]
    fn idempotent_on_fragment_soup(text in fragment_soup()) {
        let once = redact(&text);
        prop_assert_eq!(redact(&once), once, "input {:?}", text);
    }

    #[test]
    fn no_secret_survives(
        before in "[ -~]{0,40}",
        (spliced, secret) in spliced_secret(),
        after in "[ -~]{0,40}",
    ) {
        let text = format!("{before} {spliced} {after}");
        let out = redact(&text);
        let tail: String = secret.chars().skip(8).collect();
        prop_assert!(!out.contains(&tail), "tail {:?} of {:?} survived in {:?}", tail, secret, out);
        prop_assert!(out.contains("_REDACTED"));
        prop_assert_eq!(redact(&out), out.clone());
    }

    #[test]
    fn secrets_in_soup_never_survive(soup in fragment_soup(), (spliced, secret) in spliced_secret()) {
        let text = format!("{soup}\n{spliced}\n{soup}");
        let out = redact(&text);
        let tail: String = secret.chars().skip(8).collect();
        prop_assert!(!out.contains(&tail), "tail {:?} survived in {:?}", tail, out);
        prop_assert_eq!(redact(&out), out.clone());
    }

    /// Without `-`, `_`, `=`, `:`, `A`, `b` or `B` no rule can match: the text
    /// comes back borrowed and byte-identical.
    #[test]
    fn text_without_triggers_is_borrowed(text in "[^-_=:AbB]{0,400}") {
        let red = Redactor::builtin();
        let out = red.redact(&text);
        prop_assert!(matches!(out, Cow::Borrowed(_)));
        prop_assert_eq!(out.as_ref(), text.as_str());
    }

    /// Prose built from words that name secrets, without separators or
    /// tokens, is never touched. (`Bearer` is left out: `Bearer <sha>` is a
    /// credential.)
    #[test]
    fn prose_is_borrowed(words in prop::collection::vec(prop::sample::select(vec![
        "the", "token", "tokens", "password", "passwords", "secret", "sauce", "reset", "flow", "refresh",
        "Write", "docs", "task-list", "risk-free", "desk-lamp", "sk-learn", "api", "key", "API", "Key",
        "AKIAIOSFODNN7EXAMPLE", "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
        "123e4567-e89b-12d3-a456-426614174000", "author", "authorization", "credentials", "of", "Plan:",
        "Note:", "- [ ]", "1.", "(see", "below)", "auth", "sig", "x-amz-date", "bearer-ish", "a",
    ]), 0..60), seps in prop::collection::vec(prop::sample::select(vec![" ", "\n", ", ", ". "]), 60)) {
        let text: String = words.iter().zip(&seps).flat_map(|(w, s)| [*w, *s]).collect();
        let red = Redactor::builtin();
        let out = red.redact(&text);
        prop_assert!(matches!(out, Cow::Borrowed(_)), "{:?} became {:?}", text, out);
    }
}

#[test]
fn known_kinds_glued_to_a_name_by_underscore_are_masked() {
    let r = Redactor::builtin();
    for (input, want) in [
        (
            "shell_sk-abcdefghijklmnopqrstuvwxyz0123",
            "shell_sk-abcde_REDACTED",
        ),
        (
            "MY_ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "MY_ghp_abcd_REDACTED",
        ),
        (
            "key_AKIA1234567890ABCDEF done",
            "key_AKIA1234_REDACTED done",
        ),
        ("bot_xoxb-1234567890-abcdefghij", "bot_xoxb-123_REDACTED"),
        // still plain text: short tails, words, and code identifiers
        ("my_sk-learn pipeline", "my_sk-learn pipeline"),
        (
            "on_evt_handler_registration_callback",
            "on_evt_handler_registration_callback",
        ),
        (
            "desk-lamp task-list risk-free",
            "desk-lamp task-list risk-free",
        ),
        ("key_AKIAIOSFODNN7EXAMPLE", "key_AKIAIOSFODNN7EXAMPLE"),
    ] {
        assert_eq!(r.redact(input), want, "{input}");
        assert_eq!(r.redact(want), want, "idempotent for {want}");
    }
}
