//! Credential redaction: masks strings that look like secrets before any byte
//! leaves a tool (stdout, stderr, MCP replies) or enters the home.
//!
//! # Masks
//!
//! * `mask(secret)` is the first eight characters of the secret followed by
//!   `_REDACTED` (`sk-abcdefghijklmnopqrstuv` → `sk-abcde_REDACTED`).
//! * A pair value (see below) that does not start with a known token kind is
//!   masked whole when it is shorter than 24 characters (`password=_REDACTED`)
//!   and keeps its first eight characters otherwise
//!   (`api_key: 01234567_REDACTED`). Trailing backslashes are dropped from a
//!   kept prefix so that a mask never ends a JSON string in a half escape.
//! * Anything that already contains `_REDACTED`, or is directly followed by it,
//!   is left alone: `redact(redact(x)) == redact(x)` for every `x`.
//!
//! # Rules (built-in, cannot be turned off)
//!
//! 1. **Known token kinds**, masked with `mask` wherever they appear (also as
//!    the value of a pair, `KEY=ghp_abcd_REDACTED`). Each must start at an
//!    ASCII word boundary (so `desk-lamp`, `risk-free`, `task-list` never match)
//!    or, except `emk_`/`evt_`, right after `_` (`shell_sk-…` is masked):
//!    * AWS key ids `AKIA`/`ASIA` + exactly 16 `[A-Z0-9]`; ids ending in
//!      `EXAMPLE` (`AKIAIOSFODNN7EXAMPLE`) are documentation placeholders and
//!      are never masked, not even as a pair, bearer or URL value;
//!    * `sk-` + at least 16 of `[A-Za-z0-9_-]` (covers `sk-proj-`, `sk-ant-`);
//!    * Google API keys `AIza` + at least 35 of `[A-Za-z0-9_-]`;
//!    * GitLab tokens `glpat-` + at least 20 of `[A-Za-z0-9_-]`;
//!    * `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` + at least 20 `[A-Za-z0-9]`;
//!    * `github_pat_` + at least 20 `[A-Za-z0-9_]`;
//!    * `xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-` + at least 10 `[A-Za-z0-9-]`;
//!    * `emk_`, `evt_` + at least 16 `[A-Za-z0-9_]`.
//! 2. **Bearer**: `Bearer` in any case, spaces, then a token of at least eight
//!    `[A-Za-z0-9._~+/=_-]`. `Bearer ` stays and the token is masked like a
//!    pair value. A token that is a plain word (`Bearer authentication`: only
//!    letters and inner `-`, lower case after the first, under 24 characters)
//!    is prose and is left alone.
//! 3. **Presigned URLs**: `X-Amz-Signature=`, `X-Amz-Credential=`,
//!    `X-Amz-Security-Token=`, `X-Goog-Signature=`, `X-Goog-Credential=` and
//!    `sig=` (any case, at a word boundary). The name stays; the value, a run
//!    of URL query value characters (letters, digits, `-._~%+/=@:!$*`), is
//!    masked like a pair value. Whatever ends it (`&`, `#`, `)`, `]`, `>`,
//!    a quote, `,`, whitespace) stays.
//! 4. **URL credentials**: in `scheme://user:password@host` the password is
//!    masked like a pair value. The authority of any other URL
//!    (`https://token.example.com:443/`) is never read as a pair.
//! 5. **Pairs**: a key, a separator and a value.
//!    * The key is an identifier (`[A-Za-z0-9_.-]`) that contains, in any case,
//!      `api_key`/`apikey`/`api-key`, `secret`, `token`, `password`, `passwd`,
//!      `pwd`, `access_key`, `private_key` (also with `-` or nothing between
//!      the words), `credential` or `authorization`, or that ends in `auth`
//!      (`auth`, `oauth`, `basic_auth`; `author` does not count). Keys in which
//!      every `token` is part of `tokenize`/`tokeniser` are not secrets.
//!    * Then an optional closing quote (`"`, `'`, `\"`), up to 16 spaces or
//!      tabs, a separator `=`, `:`, `:=` or `=>`, and up to 16 spaces or tabs.
//!      `==` and `::` are comparisons and paths, not separators.
//!    * The value is a quoted string (`"…"` with `\` escapes, `'…'`, or `\"…\"`
//!      inside a JSON string; an unterminated quote falls back to an unquoted
//!      value) or an unquoted run up to whitespace, `&`, `,`, `;`, `"`, `'`,
//!      `` ` ``, `)`, `]`, `}` or `<`. An unquoted value never starts with `{`, `[`, `(`
//!      or `\`; an empty value is left alone.
//!    * For keys naming authorization (containing `auth`) a leading scheme word
//!      (`Basic`, `Bearer`, `Token`, `Digest`, …) and its spaces stay, and only
//!      the credential after it is masked (`Authorization: Basic _REDACTED`);
//!      for other keys only `Bearer`/`Basic` are treated that way.
//!    * A value that starts with `-----BEGIN` is left to the PEM rule.
//!    * Only the value changes; the key, quotes and separator stay. A number
//!      that follows a quoted key (`"password": 1234`) becomes a quoted mask
//!      (`"password": "_REDACTED"`) so JSON stays JSON.
//!    * Never masked, as they are not credentials: unquoted `true`, `false`,
//!      `null`, `None`, `nil`, `undefined` and YAML block markers (`|`, `>-`,
//!      …); variable references (`$DB_PASSWORD`, `${DB_PASSWORD}`,
//!      `$(cat file)`, `${{ secrets.TOKEN }}`); calls
//!      (`token = env::var(...)`, `password = getpass(...)`); paths as values of
//!      `PWD`/`OLDPWD`; integers as values of token-count keys (`max_tokens`,
//!      `total_tokens`, `token_count`, `token_limit`, …); line numbers after a
//!      file name (`secrets.md:3:`, `token.rs:12:4`: the key has an extension
//!      of 1 to 8 letters and digits that is not a key word, a bare `:` with no
//!      spaces, and `LINE[:COL][:]`). These exemptions are void when the value
//!      contains a known token kind.
//!    * Prose: when the separator is a bare `:`, the key is unquoted and is a
//!      single plain word (`token`, `Password`; not `DB_PASSWORD`, `apiKey`,
//!      `API-KEY`, `TOKEN`), an unquoted value that is a plain word (1 to 15
//!      letters, inner `-` or `.` allowed, one trailing `.`, `!`, `?` or `:`)
//!      or a bare `http(s)://` URL without `?`, `@` or `=` is prose and is
//!      left alone (`token: the unit of text`). Every other value is masked,
//!      as are all values after `=`, `:=` and `=>` and all quoted values.
//! 6. **PEM private keys**: from `-----BEGIN … PRIVATE KEY-----` to the matching
//!    `-----END … PRIVATE KEY-----` (or to the end of the input when the block
//!    is not terminated), the body is replaced by `_REDACTED` between line
//!    breaks of the body's own style (CRLF, LF, a JSON `\n`, or a space); the
//!    BEGIN and END lines stay.
//!
//! # Extra patterns
//!
//! `Redactor::new` adds user regexes (`redaction.extra_patterns`). Each
//! match (or only its `secret` group, when the pattern has one) is masked:
//! first eight characters + `_REDACTED` when 24 characters or longer, else
//! `_REDACTED`. Extra patterns run after the built-in rules, skip empty
//! matches and skip matches that overlap or touch an existing `_REDACTED`.
//! The config refuses a pattern that can match the empty string
//! ([`matches_empty`]).
//!
//! # JSON documents
//!
//! `redact_value` never rewrites object keys, masks the value of a key that
//! names a secret, applies only the built-in rules to structural fields
//! ([`is_structural_key`]: ids, statuses, enums, timestamps) and applies
//! built-in rules and user patterns to every other string.
//!
//! # Cost
//!
//! Every CLI call redacts its output, so the built-in rules use no regex at
//! all: a regex with the same alternatives (kept in the unit tests, where a
//! property test checks that the hand-written matcher finds exactly what it
//! finds) takes most of a millisecond to compile. Instead:
//!
//! * a prefilter (`prefilter.rs`) looks only around a few anchor bytes
//!   (`-`, `_`, `=`, `:`, `A`, `b`, `B`), each of which every rule needs near
//!   its start; text without a trigger (`sk-`, `ghp_`, `AKIA`, `bearer `,
//!   `-----BEGIN `, a secret key word before a separator, `://…@`, …) is
//!   returned borrowed;
//! * the matcher (`matcher.rs`) then finds the leftmost match the way a
//!   leftmost-first regex does, and the value grammar (`grammar.rs`) decides
//!   where each secret ends. Every part is bounded or greedy, values are read
//!   once, and no match rescans text that an earlier one consumed, so time is
//!   linear in the input, also on one long line.
//!
//! Only user patterns are regexes; they are compiled once, in
//! `Redactor::new`, where an invalid one is reported.

mod grammar;
mod matcher;
mod patterns;
mod prefilter;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;

pub use patterns::{RedactPatternError, matches_empty};

use grammar::{KeyInfo, json_secret_key, mask_json_string, redact_builtin};
use patterns::ExtraPattern;
use prefilter::has_trigger;
use serde_json::Value;
use std::borrow::Cow;

/// What replaces a secret, after its kept prefix (if any).
const MASK: &str = "_REDACTED";
/// Characters a mask keeps from the start of a secret.
const PREFIX_CHARS: usize = 8;
/// Pair values at least this long (in characters) keep their prefix.
const LONG_VALUE_CHARS: usize = 24;
/// Identifier characters a pair key may carry after its key word.
const MAX_KEY_SUFFIX: usize = 64;
/// Spaces or tabs allowed around a pair separator.
const MAX_SPACES: usize = 16;

/// The redactor: built-in kinds plus the user's extra patterns.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    extra: Vec<ExtraPattern>,
}

impl Redactor {
    /// Built-ins only (cheap: the built-in rules compile no regex at all).
    pub fn builtin() -> Redactor {
        Redactor { extra: Vec::new() }
    }

    /// Built-ins plus user patterns from config (`redaction.extra_patterns`).
    pub fn new(extra: &[String]) -> Result<Redactor, RedactPatternError> {
        Ok(Redactor {
            extra: patterns::compile(extra)?,
        })
    }

    /// Masks every credential in `text`. Borrowed when nothing was masked.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let owned = self.redact_builtin_only(text);
        let owned = self.apply_extra(owned.as_deref().unwrap_or(text)).or(owned);
        match owned {
            Some(s) => Cow::Owned(s),
            None => Cow::Borrowed(text),
        }
    }

    /// The built-in rules alone; `None` when nothing changed.
    fn redact_builtin_only(&self, text: &str) -> Option<String> {
        if has_trigger(text.as_bytes()) {
            redact_builtin(text)
        } else {
            None
        }
    }

    /// The user patterns, in order, over `text`; `None` when nothing changed.
    fn apply_extra(&self, text: &str) -> Option<String> {
        let mut owned: Option<String> = None;
        for extra in &self.extra {
            let current = owned.as_deref().unwrap_or(text);
            if let Some(changed) = extra.apply(current) {
                owned = Some(changed);
            }
        }
        owned
    }

    /// Masks the string values of a JSON document in place.
    ///
    /// * Object keys are never rewritten: they are the document's structure.
    /// * The value of a key that names a secret (password, token, api_key,
    ///   client_secret, apiKey, ...) is masked by the pair rule even though the
    ///   key and the value are separate strings.
    /// * The value of a structural key ([`is_structural_key`]: ids, statuses,
    ///   kinds, types, roles, schemas, timestamps, enums) is an identifier the
    ///   program wrote, not free text: the built-in rules still apply to it
    ///   (a credential never survives), user patterns do not.
    /// * Every other string is free text: built-in rules, then user patterns.
    pub fn redact_value(&self, value: &mut Value) {
        self.redact_json(value, Strings::ByKey);
    }

    /// [`Redactor::redact_value`] for a document that echoes what it was
    /// given (an error's `detail`: the slug, name or path a call named):
    /// every string is free text, structural keys included, so a secret a
    /// person typed where an id goes is masked by their patterns too.
    pub fn redact_value_as_text(&self, value: &mut Value) {
        self.redact_json(value, Strings::AllText);
    }

    fn redact_json(&self, value: &mut Value, strings: Strings) {
        match value {
            Value::String(s) => self.redact_string_in_place(s, strings != Strings::Structural),
            Value::Array(items) => {
                for item in items {
                    self.redact_json(item, strings);
                }
            }
            Value::Object(map) => {
                for (key, item) in map.iter_mut() {
                    match json_secret_key(key) {
                        Some(info) => self.redact_secret_field(&info, item),
                        None if strings == Strings::AllText => self.redact_json(item, strings),
                        None if is_structural_key(key) => {
                            self.redact_json(item, Strings::Structural)
                        }
                        None => self.redact_json(item, Strings::ByKey),
                    }
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    fn redact_string_in_place(&self, s: &mut String, free_text: bool) {
        let owned = self.redact_builtin_only(s);
        let owned = if free_text {
            self.apply_extra(owned.as_deref().unwrap_or(s)).or(owned)
        } else {
            owned
        };
        if let Some(new) = owned {
            *s = new;
        }
    }

    /// The value of an object key that names a secret.
    fn redact_secret_field(&self, info: &KeyInfo, value: &mut Value) {
        match value {
            Value::String(s) => match mask_json_string(info, s) {
                Some(masked) => *s = masked,
                None => self.redact_string_in_place(s, true),
            },
            Value::Number(_) if !info.token_count => *value = Value::String(MASK.to_owned()),
            Value::Array(items) => {
                for item in items {
                    match item {
                        Value::String(_) | Value::Number(_) => self.redact_secret_field(info, item),
                        _ => self.redact_json(item, Strings::ByKey),
                    }
                }
            }
            Value::Object(_) => self.redact_json(value, Strings::ByKey),
            Value::Number(_) | Value::Null | Value::Bool(_) => {}
        }
    }
}

/// How [`Redactor::redact_json`] treats the strings it meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strings {
    /// Free text, except under a structural key.
    ByKey,
    /// Under a structural key: built-in rules only.
    Structural,
    /// Free text everywhere.
    AllText,
}

/// Whether the values under an object key are identifiers the program wrote
/// (ids, statuses, kinds, types, roles, schema names, timestamps, enum
/// lists) rather than free text: `id`, `ids`, `*_id`, `*_ids`, `schema`,
/// `status`, `state`, `kind`, `type`, `role`, `enum`, `slug`, `version`,
/// `rev`, `created`, `updated`, `ts`, `date`, `*_at`, `*_ts`, `jsonrpc`,
/// `method`. User patterns skip these values; built-in rules do not.
pub fn is_structural_key(key: &str) -> bool {
    const EXACT: &[&str] = &[
        "id", "ids", "schema", "status", "state", "kind", "type", "role", "enum", "slug",
        "version", "rev", "created", "updated", "ts", "date", "jsonrpc", "method",
    ];
    EXACT.contains(&key)
        || ["_id", "_ids", "_at", "_ts"]
            .iter()
            .any(|suffix| key.len() > suffix.len() && key.ends_with(suffix))
}

/// The mask for one secret: first eight chars + `_REDACTED`.
pub fn mask(secret: &str) -> String {
    let mut out = String::with_capacity(PREFIX_CHARS * 4 + MASK.len());
    out.push_str(&secret[..prefix_end(secret)]);
    out.push_str(MASK);
    out
}

/// Byte offset after the first `PREFIX_CHARS` characters of `s`.
fn prefix_end(s: &str) -> usize {
    s.char_indices()
        .nth(PREFIX_CHARS)
        .map_or(s.len(), |(i, _)| i)
}

/// The pair rule: a known kind or a long value keeps its first eight
/// characters, a short value is masked whole.
fn mask_value(value: &str, known_kind: bool) -> String {
    if known_kind || value.chars().nth(LONG_VALUE_CHARS - 1).is_some() {
        let prefix = value[..prefix_end(value)].trim_end_matches('\\');
        let mut out = String::with_capacity(prefix.len() + MASK.len());
        out.push_str(prefix);
        out.push_str(MASK);
        out
    } else {
        MASK.to_owned()
    }
}
