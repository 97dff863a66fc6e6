//! Whole-redactor text cases: every kind in the syntaxes it shows up in,
//! and ordinary text it must leave alone. JSON documents and the properties
//! are in `properties.rs`.

use super::*;
use serde_json::json;
use std::borrow::Cow;

pub(super) fn redact(text: &str) -> String {
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
    assert_eq!(mask(""), "_REDACTED");
    assert_eq!(mask("日本語のパスワードです"), "日本語のパスワー_REDACTED");
    assert_eq!(mask_value("hunter2", false), "_REDACTED");
    assert_eq!(mask_value("12345678901234567890123", false), "_REDACTED");
    assert_eq!(
        mask_value("123456789012345678901234", false),
        "12345678_REDACTED"
    );
    assert_eq!(mask_value("ghp_short", true), "ghp_shor_REDACTED");
    assert_eq!(
        mask_value("abcdefg\\nopqrstuvwxyz0123", false),
        "abcdefg_REDACTED"
    );
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
    check(&[(
        "-----BEGIN EC PRIVATE KEY-----\nA\n-----END CERTIFICATE-----\nB\n-----END EC PRIVATE KEY-----\nC",
        "-----BEGIN EC PRIVATE KEY-----\n_REDACTED\n-----END EC PRIVATE KEY-----\nC",
    )]);
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
        "Authorization: Basic _REDACTED",
        "Bearer abcdefgh_REDACTED",
        "xoxb-PWD_REDACTED=>:// sk-token_REDACTED=x",
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
fn short_or_glued_kinds_are_left_alone() {
    check_untouched(&[
        "xsk-abcdefghijklmnopqrstuv",
        "sk-abcdefghijklmno",      // 15 after the prefix
        "ghp_abcdefghijklmnopqrs", // 19
        "AKIAABCDEFGHIJKLMNOPQ",   // 17 after AKIA
        "xoxb-12345",
        "emk_short",
    ]);
}

#[test]
fn aws_placeholders_are_never_masked() {
    check_untouched(&[
        "{\"AccessKeyId\": \"AKIAIOSFODNN7EXAMPLE\"}",
        "Bearer AKIAIOSFODNN7EXAMPLE",
        "key_AKIAIOSFODNN7EXAMPLE",
    ]);
    check(&[(
        "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_access_key=wJalrXUt_REDACTED",
    )]);
}

#[test]
fn bearer_words() {
    check(&[
        ("Bearer abc.def-123", "Bearer _REDACTED"),
        (
            "curl -H 'x: BEARER eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_x'",
            "curl -H 'x: BEARER eyJhbGci_REDACTED'",
        ),
        ("Bearer self-signed-", "Bearer _REDACTED"),
        ("Proxy-Authorization: xyz", "Proxy-Authorization: _REDACTED"),
        ("token: Bearer abc123def", "token: Bearer _REDACTED"),
    ]);
    check_untouched(&[
        "Bearer authentication is simple",
        "Bearer short",
        "Bearer self-signed",
        "Bearer task-list",
    ]);
}

#[test]
fn presigned_and_url_edges() {
    check(&[
        ("&sig=abc%2Bdef#frag", "&sig=_REDACTED#frag"),
        ("x-goog-credential=a@b", "x-goog-credential=_REDACTED"),
    ]);
    check_untouched(&[
        "design=flat X-Amz-SignedHeaders=host",
        "see https://example.com/a@b",
    ]);
}

/// Defect 4: a presigned-URL value ends where URL query value characters
/// end; the bracket, quote or comma after it stays.
#[test]
fn presigned_values_end_at_the_value() {
    for after in ["]", ")", ">", "\"", "'", ",", "}", "|", "\\", "`"] {
        check(&[
            (
                &format!("X-Amz-Signature=abcdef0123456789abcdef{after} x"),
                &format!("X-Amz-Signature=_REDACTED{after} x"),
            ),
            (
                &format!("(X-Goog-Signature=247a2aa45f169edf4d187d54e7cc46e4{after}"),
                &format!("(X-Goog-Signature=247a2aa4_REDACTED{after}"),
            ),
            (
                &format!("sig=AbCdEf%2B01%3D{after}"),
                &format!("sig=_REDACTED{after}"),
            ),
        ]);
    }
    check(&[
        (
            "sources: [https://b.s3.amazonaws.com/k?X-Amz-Signature=abcdef0123456789abcdef)]",
            "sources: [https://b.s3.amazonaws.com/k?X-Amz-Signature=_REDACTED)]",
        ),
        (
            "[link](https://x/o?X-Amz-Credential=AKIAZ7XQ4K2M9PLR3TVW%2F2024&X-Amz-Signature=0123456789abcdef0123456789abcdef)",
            "[link](https://x/o?X-Amz-Credential=AKIAZ7XQ_REDACTED&X-Amz-Signature=01234567_REDACTED)",
        ),
    ]);
}

#[test]
fn pairs_edges() {
    check(&[
        ("KEY=1 api-key = 'abc def'", "KEY=1 api-key = '_REDACTED'"),
        ("token=abc&x=1", "token=_REDACTED&x=1"),
        ("auth=xyz", "auth=_REDACTED"),
        ("SECRET := \"v\"", "SECRET := \"_REDACTED\""),
        ("'password' => 'pw'", "'password' => '_REDACTED'"),
        ("apiKey: hello", "apiKey: _REDACTED"),
        ("TOKEN: hello", "TOKEN: _REDACTED"),
        ("token:abc123", "token:_REDACTED"),
        ("token: abc1", "token: _REDACTED"),
        ("Password: N/A", "Password: _REDACTED"),
        ("secret: verylongplainwordhere", "secret: _REDACTED"),
        ("token: 'the'", "token: '_REDACTED'"),
    ]);
    check_untouched(&["Password: Required. Secret: Yes!"]);
}

#[test]
fn pair_exemptions() {
    check_untouched(&[
        "use_token: true, \"has_password\": false, secret: null",
        "password: |",
        "Use `secret: true` to hide; api_key = None; TOKEN=${{ secrets.GH }}",
        "export TOKEN=$GITHUB_TOKEN; password: ${DB_PASSWORD}; pw=$(cat f)",
        "let token = env::var(\"X\"); password = getpass(prompt)",
        "PWD=/home/me OLDPWD=~/src",
        "max_tokens: 4096 \"total_tokens\": 12 token_count=7",
        "tokenizer: gpt2 if token == other { secret::x() }",
    ]);
    check(&[
        (
            "run `password=hunter2` once",
            "run `password=_REDACTED` once",
        ),
        ("max_tokens: lots", "max_tokens: _REDACTED"),
        ("PWD=relative", "PWD=_REDACTED"),
        (
            "pw=$(cat) token=f(ghp_abcdefghijklmnopqrstuvwxyz01)",
            "pw=$(cat) token=f(ghp_ab_REDACTED)",
        ),
    ]);
}

/// Defect 11: `name.ext:LINE` in a diagnostic is a position, not a pair.
#[test]
fn file_line_references_survive() {
    check_untouched(&[
        "secrets.md:3: no steps found",
        "token-refresh.md:12:4: unexpected indent",
        "error: pwd.md:3",
        "at docs/password-reset.rs:120:9:",
        "{\"message\": \"api_keys.yaml:7: bad entry\"}",
    ]);
    check(&[
        // A key that merely has a dot, or a value that is no line number.
        ("db.password:1234", "db.password:_REDACTED"),
        ("app.secret:1234", "app.secret:_REDACTED"),
        ("secrets.md:3abc", "secrets.md:_REDACTED"),
        ("secrets.md: hunter2", "secrets.md: _REDACTED"),
        ("secrets.md:1234567890", "secrets.md:_REDACTED"),
        (
            "token.txt:ghp_abcdefghijklmnopqrstuvwxyz01",
            "token.txt:ghp_abcd_REDACTED",
        ),
    ]);
}

#[test]
fn escaped_json_pairs() {
    check(&[
        (
            r#""{\"password\": \"hunter2\", \"x\": 1}""#,
            r#""{\"password\": \"_REDACTED\", \"x\": 1}""#,
        ),
        (r#"{"token": "a\"b"}"#, r#"{"token": "_REDACTED"}"#),
        ("password=\"unterminated", "password=\"_REDACTED"),
    ]);
}

/// Cases proptest once shrank to.
#[test]
fn found_by_proptest() {
    check(&[
        ("xoxb-PWDapi-key=>://", "xoxb-PWD_REDACTED=>://"),
        ("sk-tokenabcdefghijklm=x", "sk-token_REDACTED=x"),
        (
            "sk-tokenabcdefghijklm.password=x",
            "sk-token_REDACTED.password=_REDACTED",
        ),
    ]);
}

/// A 1 MiB line of pairs is masked whole (how fast: `tools/bench-redact.py`).
#[test]
fn one_mebibyte_line() {
    const MIB: usize = 1024 * 1024;
    let red = Redactor::builtin();
    let line = "password=x ".repeat(MIB / 11);
    let out = red.redact(&line);
    assert_eq!(out.len(), line.len() / 11 * "password=_REDACTED ".len());
    assert!(out.starts_with("password=_REDACTED password=_REDACTED "));
    let plain = "a".repeat(MIB);
    assert!(matches!(red.redact(&plain), Cow::Borrowed(_)));
}

#[test]
fn google_and_gitlab_tokens_are_masked() {
    let r = Redactor::builtin();
    let google = "key AIzaSyA1bcdefghijklmnopqrstuvwxyz0123456 here";
    let gitlab = "GL=glpat-abcdefghij0123456789xyz done";
    for text in [google, gitlab] {
        let out = r.redact(text);
        assert!(out.contains("_REDACTED"), "{out}");
        assert!(!out.contains("0123456"), "{out}");
    }
    // Too short to be one, or glued to a word: left alone.
    assert_eq!(r.redact("AIzaShort"), "AIzaShort");
    assert_eq!(
        r.redact("xglpat-abcdefghij0123456789xyz"),
        "xglpat-abcdefghij0123456789xyz"
    );
}
