//! The redactor from the outside: every kind in the syntaxes it shows up in,
//! ordinary text it must leave alone, JSON values, extra patterns, and the
//! properties (idempotence, no secret survives, linear time).

use agentbox::redact::{RedactPatternError, Redactor, mask};
use proptest::prelude::*;
use serde_json::json;
use std::borrow::Cow;
use std::time::{Duration, Instant};

fn redact(text: &str) -> String {
    Redactor::builtin().redact(text).into_owned()
}

/// Each case: input, exact expected output.
fn check(cases: &[(&str, &str)]) {
    let red = Redactor::builtin();
    let mut failures = Vec::new();
    for &(input, expected) in cases {
        let out = red.redact(input);
        if out != expected {
            failures.push(format!(
                "\n  input:    {input:?}\n  got:      {out:?}\n  expected: {expected:?}"
            ));
        }
        let again = red.redact(&out);
        if again != out {
            failures.push(format!("\n  not idempotent on {out:?}: {again:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.concat());
}

/// Each case must come back borrowed and byte-identical.
fn check_untouched(cases: &[&str]) {
    let red = Redactor::builtin();
    let changed: Vec<String> = cases
        .iter()
        .filter_map(|&text| match red.redact(text) {
            Cow::Borrowed(out) if out == text => None,
            out => Some(format!("\n  {text:?} became {out:?}")),
        })
        .collect();
    assert!(changed.is_empty(), "false positives:{}", changed.concat());
}

#[test]
fn api_shape() {
    fn shared<T: Send + Sync + Clone + Default + std::fmt::Debug + 'static>() {}
    shared::<Redactor>();
    let red = Redactor::default();
    assert_eq!(red.redact("password=x"), "password=_REDACTED");
    let cloned = Redactor::new(&["ACME-[0-9]+".to_owned()]).unwrap().clone();
    assert_eq!(cloned.redact("ACME-1"), "_REDACTED");
    assert_eq!(mask("sk-abcdefghijklmnopqrstuv"), "sk-abcde_REDACTED");
    assert_eq!(
        mask("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        "ghp_abcd_REDACTED"
    );
    assert_eq!(mask("short"), "short_REDACTED");
    assert_eq!(mask("pässwörtchen"), "pässwört_REDACTED");
}

#[test]
fn known_kinds_in_prose() {
    check(&[
        (
            "my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123, keep it safe",
            "my key is sk-proj-_REDACTED, keep it safe",
        ),
        (
            "try sk-abcdefghijklmnopqrstuv now",
            "try sk-abcde_REDACTED now",
        ),
        (
            "claude: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz_01",
            "claude: sk-ant-a_REDACTED",
        ),
        (
            "I pasted AKIAZ7XQ4K2M9PLR3TVW by mistake",
            "I pasted AKIAZ7XQ_REDACTED by mistake",
        ),
        (
            "session ASIAZ7XQ4K2M9PLR3TVW.",
            "session ASIAZ7XQ_REDACTED.",
        ),
        (
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked",
            "token ghp_abcd_REDACTED leaked",
        ),
        ("gho_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "gho_ABCD_REDACTED"),
        ("ghu_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "ghu_ABCD_REDACTED"),
        ("ghs_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "ghs_ABCD_REDACTED"),
        ("ghr_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "ghr_ABCD_REDACTED"),
        (
            "(github_pat_11AAAAAAA0abcdefghijklmnopqrstuvwxyz_ABCDEFG)",
            "(github_p_REDACTED)",
        ),
        (
            "Slack: xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp",
            "Slack: xoxb-123_REDACTED",
        ),
        (
            "xoxp-1234567890-abcdef xoxa-2-abcdefghij xoxr-abcdefghijkl xoxs-0123456789",
            "xoxp-123_REDACTED xoxa-2-a_REDACTED xoxr-abc_REDACTED xoxs-012_REDACTED",
        ),
        (
            "emk_live_0123456789abcdef and evt_0123456789abcdefABCD",
            "emk_live_REDACTED and evt_0123_REDACTED",
        ),
        (
            "a secret in `sk-abcdefghijklmnopqrstuv`",
            "a secret in `sk-abcde_REDACTED`",
        ),
        (
            "<code>ghp_abcdefghijklmnopqrstuvwxyz0123456789</code>",
            "<code>ghp_abcd_REDACTED</code>",
        ),
    ]);
}

#[test]
fn shell_and_dotenv() {
    check(&[
        (
            "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123",
            "export OPENAI_API_KEY=sk-proj-_REDACTED",
        ),
        (
            "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "export GITHUB_TOKEN=ghp_abcd_REDACTED",
        ),
        ("export DB_PASSWORD=hunter2", "export DB_PASSWORD=_REDACTED"),
        (
            "export AWS_ACCESS_KEY_ID=AKIAZ7XQ4K2M9PLR3TVW",
            "export AWS_ACCESS_KEY_ID=AKIAZ7XQ_REDACTED",
        ),
        (
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz",
            "AWS_SECRET_ACCESS_KEY=wJalrXUt_REDACTED",
        ),
        (
            "SLACK_BOT_TOKEN=\"xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp\"",
            "SLACK_BOT_TOKEN=\"xoxb-123_REDACTED\"",
        ),
        (
            "ANTHROPIC_API_KEY='sk-ant-api03-abcdefghijklmnopqrstuvwxyz'",
            "ANTHROPIC_API_KEY='sk-ant-a_REDACTED'",
        ),
        (
            "KEY=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "KEY=ghp_abcd_REDACTED",
        ),
        ("EMK=emk_live_0123456789abcdef", "EMK=emk_live_REDACTED"),
        (
            "client_secret=0123456789abcdef0123456789abcdef",
            "client_secret=01234567_REDACTED",
        ),
        (
            "STRIPE_SECRET='rk_live_abcdef'",
            "STRIPE_SECRET='_REDACTED'",
        ),
        (
            "PGPASSWORD=s3cr3t psql -h db",
            "PGPASSWORD=_REDACTED psql -h db",
        ),
        (
            "mysql --password=hunter2 -u root",
            "mysql --password=_REDACTED -u root",
        ),
        (
            "docker login -p hunter2 --password-stdin; REGISTRY_PASSWD=x",
            "docker login -p hunter2 --password-stdin; REGISTRY_PASSWD=_REDACTED",
        ),
        (
            "spring.datasource.password = changeme",
            "spring.datasource.password = _REDACTED",
        ),
        ("HTTP_AUTH=user:pass", "HTTP_AUTH=_REDACTED"),
        (
            "set -x; export ACCESS_TOKEN=abc; echo ok",
            "set -x; export ACCESS_TOKEN=_REDACTED; echo ok",
        ),
        ("$env:API_KEY = \"abc\"", "$env:API_KEY = \"_REDACTED\""),
    ]);
}

#[test]
fn json_text() {
    check(&[
        ("{\"api_key\": \"abc123\"}", "{\"api_key\": \"_REDACTED\"}"),
        (
            "{\"password\": \"hunter2\", \"user\": \"bob\"}",
            "{\"password\": \"_REDACTED\", \"user\": \"bob\"}",
        ),
        (
            "{\"apiKey\":\"0123456789abcdef0123456789abcdef\"}",
            "{\"apiKey\":\"01234567_REDACTED\"}",
        ),
        (
            "{\"token\": \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}",
            "{\"token\": \"ghp_abcd_REDACTED\"}",
        ),
        (
            "{\"DB_PASSWORD\": \"correct horse battery staple\"}",
            "{\"DB_PASSWORD\": \"correct _REDACTED\"}",
        ),
        (
            "{\"auth_token\": 123456, \"n\": 1}",
            "{\"auth_token\": \"_REDACTED\", \"n\": 1}",
        ),
        (
            "{\"client_secret\":\"a\\\"b\\\\c\"}",
            "{\"client_secret\":\"_REDACTED\"}",
        ),
        (
            "{\"secret\": \"\", \"token\": null, \"has_password\": true}",
            "{\"secret\": \"\", \"token\": null, \"has_password\": true}",
        ),
        (
            "[{\"access_token\":\"ya29.a0AfH6SMBx-0123456789abcdefghij\",\"expires_in\":3599}]",
            "[{\"access_token\":\"ya29.a0A_REDACTED\",\"expires_in\":3599}]",
        ),
        (
            "{\"text\": \"{\\\"password\\\": \\\"hunter2\\\"}\"}",
            "{\"text\": \"{\\\"password\\\": \\\"_REDACTED\\\"}\"}",
        ),
        (
            "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n\"}",
            "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n_REDACTED\\n-----END PRIVATE KEY-----\\n\"}",
        ),
        ("{'password': 'hunter2'}", "{'password': '_REDACTED'}"),
    ]);
    // A masked JSON document is still JSON.
    let text =
        "{\"password\": 1234, \"token\": \"a\\\\\\\\bcdefghijklmnopqrstuvwxyz\", \"x\": [1]}";
    let out = redact(text);
    let parsed: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
    assert_eq!(
        parsed,
        json!({"password": "_REDACTED", "token": "a\\\\bcd_REDACTED", "x": [1]})
    );
}

#[test]
fn yaml_and_config() {
    check(&[
        ("password: s3cr3tP4ss", "password: _REDACTED"),
        (
            "db:\n  password: hunter2\n  user: app",
            "db:\n  password: _REDACTED\n  user: app",
        ),
        ("  client_secret: abcdef", "  client_secret: _REDACTED"),
        ("api-key: 'abc'", "api-key: '_REDACTED'"),
        (
            "aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz",
            "aws_secret_access_key: wJalrXUt_REDACTED",
        ),
        (
            "api_key: 0123456789abcdef0123456789abcdef",
            "api_key: 01234567_REDACTED",
        ),
        ("DB_PASSWORD: hunter", "DB_PASSWORD: _REDACTED"),
        ("Token: hunter2", "Token: _REDACTED"),
        (
            "credentials: {user: a, password: b4}",
            "credentials: {user: a, password: _REDACTED}",
        ),
        (
            "private_key: |\n  -----BEGIN EC PRIVATE KEY-----\n  MHcCAQEE\n  -----END EC PRIVATE KEY-----",
            "private_key: |\n  -----BEGIN EC PRIVATE KEY-----\n_REDACTED\n-----END EC PRIVATE KEY-----",
        ),
        ("[auth]\ntoken = \"abc\"", "[auth]\ntoken = \"_REDACTED\""),
        (
            "<password>hunter2</password> <add key=\"ApiKey\" value=\"x\"/>",
            "<password>hunter2</password> <add key=\"ApiKey\" value=\"x\"/>",
        ),
    ]);
}

#[test]
fn urls() {
    check(&[
        (
            "https://x/y?token=abc123&x=1",
            "https://x/y?token=_REDACTED&x=1",
        ),
        (
            "GET /v1?api_key=abc&access_token=def HTTP/1.1",
            "GET /v1?api_key=_REDACTED&access_token=_REDACTED HTTP/1.1",
        ),
        (
            "postgres://admin:hunter2@db:5432/app",
            "postgres://admin:_REDACTED@db:5432/app",
        ),
        (
            "DATABASE_URL=mysql://root:0123456789abcdefghijklmnop@localhost/db",
            "DATABASE_URL=mysql://root:01234567_REDACTED@localhost/db",
        ),
        ("redis://:pw@cache:6379", "redis://:_REDACTED@cache:6379"),
        (
            "https://bucket.s3.amazonaws.com/k.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAZ7XQ4K2M9PLR3TVW%2F20240101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
            "https://bucket.s3.amazonaws.com/k.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAZ7XQ_REDACTED&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bb_REDACTED",
        ),
        (
            "https://s3.amazonaws.com/b/k?X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F%2F%2F&X-Amz-Signature=abc",
            "https://s3.amazonaws.com/b/k?X-Amz-Security-Token=IQoJb3Jp_REDACTED&X-Amz-Signature=_REDACTED",
        ),
        (
            "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40proj.iam.gserviceaccount.com%2F20240101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20240101T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=247a2aa45f169edf4d187d54e7cc46e4731b1e6273242c4f4c39a1d2507a0e58",
            "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40pro_REDACTED&X-Goog-Date=20240101T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=247a2aa4_REDACTED",
        ),
        (
            "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&se=2024-01-01&sig=AbCdEf%2B0123456789abcdefghijklmnop%3D",
            "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&se=2024-01-01&sig=AbCdEf%2_REDACTED",
        ),
        ("\"https://x/?sig=abc\"", "\"https://x/?sig=_REDACTED\""),
    ]);
}

#[test]
fn http_headers() {
    check(&[
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "Authorization: Bearer eyJhbGci_REDACTED",
        ),
        (
            "authorization: bearer abcdefghij",
            "authorization: bearer _REDACTED",
        ),
        (
            "Authorization: Basic dXNlcjpwYXNz",
            "Authorization: Basic _REDACTED",
        ),
        (
            "Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==",
            "Proxy-Authorization: Basic _REDACTED",
        ),
        ("X-Api-Key: 0123456789abcdef", "X-Api-Key: _REDACTED"),
        ("x-auth-token: abc", "x-auth-token: _REDACTED"),
        (
            "curl -H \"Authorization: token ghp_abcdefghijklmnopqrstuvwxyz0123456789\" https://api.github.com",
            "curl -H \"Authorization: token ghp_abcd_REDACTED\" https://api.github.com",
        ),
        (
            "curl -H 'Authorization: Bearer abc123def456' x",
            "curl -H 'Authorization: Bearer _REDACTED' x",
        ),
        (
            "headers = {\"Authorization\": \"Bearer 0123456789abcdef0123456789\"}",
            "headers = {\"Authorization\": \"Bearer 01234567_REDACTED\"}",
        ),
        ("-H 'Bearer 0123456789abcdef0123'", "-H 'Bearer _REDACTED'"),
        (
            "use Bearer sk-abcdefghijklmnopqrstuv here",
            "use Bearer sk-abcde_REDACTED here",
        ),
    ]);
}

#[test]
fn pem_blocks() {
    check(&[
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM\nabcdefghijklmnop==\n-----END RSA PRIVATE KEY-----\n",
            "-----BEGIN RSA PRIVATE KEY-----\n_REDACTED\n-----END RSA PRIVATE KEY-----\n",
        ),
        (
            "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nafter",
            "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n_REDACTED\n-----END OPENSSH PRIVATE KEY-----\nafter",
        ),
        (
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\r\nMIIFHDBOBgkqhkiG9w0BBQ0w\r\n-----END ENCRYPTED PRIVATE KEY-----",
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\r\n_REDACTED\r\n-----END ENCRYPTED PRIVATE KEY-----",
        ),
        (
            "-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQ -----END PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY----- _REDACTED -----END PRIVATE KEY-----",
        ),
        (
            "cat id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt\nno end line",
            "cat id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n_REDACTED",
        ),
        (
            "a\n-----BEGIN EC PRIVATE KEY-----\nA\n-----END EC PRIVATE KEY-----\nb\n-----BEGIN PRIVATE KEY-----\nB\n-----END PRIVATE KEY-----\nc",
            "a\n-----BEGIN EC PRIVATE KEY-----\n_REDACTED\n-----END EC PRIVATE KEY-----\nb\n-----BEGIN PRIVATE KEY-----\n_REDACTED\n-----END PRIVATE KEY-----\nc",
        ),
    ]);
    check_untouched(&[
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n-----END PUBLIC KEY-----",
    ]);
}

#[test]
fn masks_are_never_masked_again() {
    check_untouched(&[
        "sk-abcde_REDACTED",
        "KEY=ghp_abcd_REDACTED",
        "password=_REDACTED",
        "\"DB_PASSWORD\": \"_REDACTED\"",
        "Authorization: Bearer eyJhbGci_REDACTED",
        "postgres://admin:_REDACTED@db",
        "X-Amz-Signature=aeeed9bb_REDACTED&sig=_REDACTED",
        "-----BEGIN RSA PRIVATE KEY-----\n_REDACTED\n-----END RSA PRIVATE KEY-----",
        "AKIAZ7XQ_REDACTED github_p_REDACTED xoxb-123_REDACTED emk_live_REDACTED",
    ]);
}

#[test]
fn ordinary_text_is_left_alone() {
    check_untouched(&[
        "task-list",
        "desk-lamp risk-free sk-learn",
        "pip install scikit-learn; ask-me-anything",
        "git commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
        "[main 3f2a9c1] Fix the token refresh",
        "id 123e4567-e89b-12d3-a456-426614174000",
        "AKIAIOSFODNN7EXAMPLE",
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "Write the token refresh docs",
        "password reset flow",
        "secret sauce",
        "the token is refreshed hourly",
        "reset your password",
        "keep it secret",
        "token: the unit of text",
        "Password: Required.",
        "Token: see https://docs.example.com/auth/tokens",
        "author: Jane Doe",
        "The API key rotation is monthly; the api key lives in the vault.",
        "Bearer tokens are described in RFC 6750.",
        "the bearer of this letter",
        "Tokens: 1234 used",
        "{\"usage\": {\"input_tokens\": 12, \"output_tokens\": 40, \"max_tokens\": 4096}}",
        "let token = env::var(\"GITHUB_TOKEN\")?;",
        "if password == confirm { secret::rotate() }",
        "tokenizer: cl100k_base",
        "PWD=/home/me/src OLDPWD=/tmp",
        "export GITHUB_TOKEN=$GH_TOKEN; password: ${DB_PASSWORD}",
        "https://token.example.com:8443/path and ssh://git@github.com:22/org/repo",
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "## Plan\n- [ ] Write the token refresh docs\n- [x] Review password reset flow\n> Note: secret sauce is the cache",
        "Steps: 1. rotate the secret 2. update the token 3. test",
        "Use `secret: true` to hide it; `api_key = None` means unset.",
        "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
        "",
    ]);
}

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
        "AKIAZ7XQ_REDACTED": "key as key",
    });
    assert_eq!(doc, expected);
    // Order of keys is kept (preserve_order), and a second pass changes nothing.
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.last(), Some(&"AKIAZ7XQ_REDACTED"));
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

#[test]
fn extra_patterns_as_documented() {
    let red = Redactor::new(&[
        "ACME-[0-9]{6}".to_owned(),
        "internal:(?P<secret>[a-z]+)".to_owned(),
    ])
    .unwrap();
    assert_eq!(
        red.redact("ticket ACME-123456 internal:zebra"),
        "ticket _REDACTED internal:_REDACTED"
    );
    assert_eq!(red.redact("no match here"), "no match here");
    assert!(matches!(red.redact("no match here"), Cow::Borrowed(_)));
    // Built-ins still apply next to extras.
    assert_eq!(
        red.redact("ACME-000001 password=x"),
        "_REDACTED password=_REDACTED"
    );
    // Idempotent on its own output.
    let once = red
        .redact("ACME-123456 internal:zebra ghp_abcdefghijklmnopqrstuvwxyz0123456789")
        .into_owned();
    assert_eq!(red.redact(&once), once);
}

#[test]
fn extra_pattern_long_matches_keep_a_prefix() {
    let red = Redactor::new(&[
        "corp_[a-z0-9]{20,}".to_owned(),
        "pin=(?P<secret>[0-9]+)".to_owned(),
    ])
    .unwrap();
    assert_eq!(
        red.redact("id corp_0123456789abcdefghijk end"),
        "id corp_012_REDACTED end"
    );
    assert_eq!(red.redact("pin=1234;"), "pin=_REDACTED;");
    assert_eq!(
        red.redact("pin=12345678901234567890123456"),
        "pin=12345678_REDACTED"
    );
    // A pattern that matches the empty string masks nothing.
    let empty = Redactor::new(&["x*".to_owned()]).unwrap();
    assert_eq!(empty.redact("abc xx"), "abc _REDACTED");
    // A pattern that could match the mask itself leaves masks alone.
    let upper = Redactor::new(&["[A-Z]{3,}".to_owned()]).unwrap();
    let once = upper.redact("ABC password=hunter2").into_owned();
    assert_eq!(once, "_REDACTED password=_REDACTED");
    assert_eq!(upper.redact(&once), once);
}

#[test]
fn invalid_extra_pattern_is_reported() {
    let err: RedactPatternError = Redactor::new(&["ok".to_owned(), "[a-".to_owned()]).unwrap_err();
    assert_eq!(err.index, 1);
    assert!(!err.message.is_empty());
    let shown = err.to_string();
    assert!(
        shown.starts_with("redaction pattern 1 is not a valid regex: "),
        "{shown}"
    );
    let as_error: &dyn std::error::Error = &err;
    assert!(as_error.source().is_none());
    assert_eq!(Redactor::new(&["(".to_owned()]).unwrap_err().index, 0);
    assert!(Redactor::new(&[]).is_ok());
}

// ---------------------------------------------------------------------------
// Properties

const FRAGMENTS: &[&str] = &[
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
];

fn fragment_soup() -> impl Strategy<Value = String> {
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

// ---------------------------------------------------------------------------
// Linear time

fn min_of_three(text: &str) -> Duration {
    let red = Redactor::builtin();
    (0..3)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(red.redact(std::hint::black_box(text)));
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// Redacting `unit` repeated to 4x `base` bytes may take at most ~10x as long
/// as `base` bytes (a quadratic pass would take 16x), plus slack for noise.
fn assert_linear(unit: &str, base: usize) {
    let small = unit.repeat(base / unit.len());
    let large = unit.repeat(4 * base / unit.len());
    let t1 = min_of_three(&small);
    let t4 = min_of_three(&large);
    assert!(
        t4 < t1 * 10 + Duration::from_millis(20),
        "{unit:?}: {} bytes took {t1:?}, {} bytes took {t4:?}",
        small.len(),
        large.len()
    );
}

#[test]
fn one_mebibyte_line_is_linear() {
    const MIB: usize = 1024 * 1024;
    let red = Redactor::builtin();
    let line = "password=x ".repeat(MIB / 11);
    let out = red.redact(&line);
    assert_eq!(out.len(), line.len() / 11 * "password=_REDACTED ".len());
    assert!(out.starts_with("password=_REDACTED password=_REDACTED "));
    let plain = "a".repeat(MIB);
    assert!(matches!(red.redact(&plain), Cow::Borrowed(_)));

    // The two shapes of the spec at 1 MiB and 4 MiB.
    assert_linear("password=x ", MIB);
    assert_linear("a", MIB);
    // Shapes that would make a naive matcher rescan, at 128 KiB and 512 KiB
    // (a quadratic pass is already seconds long there).
    for unit in [
        "-ghp_AAAAAAAAAAAAAAAAAAAAAAAA",
        "a(token=",
        "token: \"x ",
        "/PWD=/x",
        "a://b:c/",
        "token: abc ",
        "Bearer abcdefgh1 ",
        "tokentokentoken",
        "-----BEGIN RSA PRIVATE KEY-----\n-----END X",
        "sk-",
        "xoxb-",
        "password=\"",
    ] {
        assert_linear(unit, 128 * 1024);
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
