//! `sync hosts install --url`: the HTTP form of the server entry, for a
//! `memory_mcp --http` the user keeps running (docs/tools/sync-hosts.md,
//! "The URL form"). The URL and the name of the environment variable that
//! holds the bearer token are checked here; each host's entry names that
//! variable in the syntax the host expands when it connects, so the token
//! itself is never written into a host file (project configs get committed)
//! and nothing here prints it.

use super::detect::{HostDef, UrlForm};
use crate::error::{Error, Result};
use crate::home::Home;
use serde_json::{Value, json};

/// The variable `memory_mcp --http` reads its token from, and the default
/// `--token-env`.
pub const DEFAULT_TOKEN_ENV: &str = "AGENTBOX_MCP_TOKEN";
/// The token file `memory_mcp token` writes, relative to the home.
const TOKEN_FILE: &[&str] = &["local", "mcp-token"];
/// A known token value shorter than this is not looked for in the arguments
/// (it would match by chance).
const MIN_TOKEN_CHARS: usize = 8;
/// The longest variable name taken (far beyond any real one).
const MAX_NAME_CHARS: usize = 128;

/// A checked URL form: where the server listens, and the variable the host
/// reads the bearer token from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    pub url: String,
    pub token_env: String,
}

fn bad_url(why: &str) -> Error {
    // The URL itself is never echoed: a refused one may hold a token.
    Error::invalid_args(format!("the --url {why}"))
        .with_hint("pass where `memory_mcp --http` listens, e.g. --url http://127.0.0.1:7411/mcp; the token goes in an environment variable (--token-env), never in the URL")
}

fn bad_name(why: &str) -> Error {
    Error::invalid_args(format!("the --token-env {why}")).with_hint(format!(
        "name the environment variable that holds the token, e.g. --token-env {DEFAULT_TOKEN_ENV} (the default); the host reads it when it connects"
    ))
}

impl Remote {
    /// Checks `url` (http or https, a host, an endpoint path; no user name
    /// or password, query, fragment or `$`) and the variable name (the
    /// default when `None`), and refuses either when it looks like it holds
    /// a credential: to the redactor, or because it contains the value of
    /// the token variable or of the home's token file. Returns the form and
    /// warnings (plain http to another machine; the variable unset here).
    pub fn check(home: &Home, url: &str, token_env: Option<&str>) -> Result<(Remote, Vec<String>)> {
        let token_env = token_env.unwrap_or(DEFAULT_TOKEN_ENV);
        let parsed = parse_url(url)?;
        check_name(token_env)?;
        let redactor = home.store.redactor();
        if redactor.redact(url) != url {
            return Err(bad_url("looks like it holds a credential"));
        }
        if redactor.redact(token_env) != token_env {
            return Err(bad_name("looks like a credential, not a variable name"));
        }
        let (url_seen, name_seen) = (spelled(url), spelled(token_env));
        for (source, value) in known_tokens(home, token_env) {
            if url_seen.contains(&value) {
                return Err(bad_url(&format!("holds the token itself ({source})")));
            }
            if name_seen.contains(&value) {
                return Err(bad_name(&format!(
                    "is the token itself ({source}), not the name of the variable that holds it"
                )));
            }
        }
        let mut warnings = Vec::new();
        if parsed.scheme == "http" && !parsed.loopback {
            warnings.push(format!(
                "the --url is plain http to another machine ({}): the bearer token would cross the network in clear; put an https proxy in front of memory_mcp and register its https:// URL",
                parsed.host
            ));
        }
        if std::env::var_os(token_env).is_none_or(|v| v.is_empty()) {
            warnings.push(format!(
                "{token_env} is not set here: the host reads it from its own environment when it connects, so set it where the host starts (`memory_mcp token` makes one in {}; then read -r {token_env} < that file; export {token_env})",
                token_file(home).display()
            ));
        }
        let remote = Remote {
            url: format!("{}://{}", parsed.scheme, parsed.rest),
            token_env: token_env.to_string(),
        };
        Ok((remote, warnings))
    }

    /// The entry `host` takes, or `invalid_args` when it takes none.
    pub fn entry(&self, host: &HostDef) -> Result<Value> {
        let url = &self.url;
        let var = &self.token_env;
        Ok(match host.url_form {
            UrlForm::ClaudeCode => json!({
                "type": "http",
                "url": url,
                "headers": {"Authorization": format!("Bearer ${{{var}}}")},
            }),
            UrlForm::Codex => json!({"url": url, "bearer_token_env_var": var}),
            UrlForm::Cursor => json!({
                "url": url,
                "headers": {"Authorization": format!("Bearer ${{env:{var}}}")},
            }),
            UrlForm::Gemini => json!({
                "httpUrl": url,
                "headers": {"Authorization": format!("Bearer ${{{var}}}")},
            }),
            UrlForm::VsCode => json!({
                "type": "http",
                "url": url,
                "headers": {"Authorization": format!("Bearer ${{env:{var}}}")},
            }),
            UrlForm::Refused { .. } => return Err(refused(host)),
        })
    }

    /// Where `host`'s entry names the token variable, and how (for the
    /// report): the field, and the reference written there.
    pub fn reference(&self, host: &HostDef) -> (&'static str, String) {
        let var = &self.token_env;
        match host.url_form {
            UrlForm::ClaudeCode | UrlForm::Gemini => {
                ("headers.Authorization", format!("${{{var}}}"))
            }
            UrlForm::Cursor | UrlForm::VsCode => {
                ("headers.Authorization", format!("${{env:{var}}}"))
            }
            UrlForm::Codex | UrlForm::Refused { .. } => ("bearer_token_env_var", var.clone()),
        }
    }
}

/// Whether `host` can take the URL form.
pub fn takes_url(host: &HostDef) -> bool {
    !matches!(host.url_form, UrlForm::Refused { .. })
}

/// `invalid_args` for a host that cannot take the URL form: why, and the
/// alternative.
pub fn refused(host: &HostDef) -> Error {
    let (why, instead) = match host.url_form {
        UrlForm::Refused { why, instead } => (why, instead),
        _ => ("", ""),
    };
    Error::invalid_args(format!(
        "{} cannot take memory_mcp at a URL: {why}",
        host.name
    ))
    .with_hint(instead)
    .with_detail("host", host.id)
}

/// The URL a server entry connects to, if it is a URL entry (`url`, or
/// Gemini's `httpUrl`, and no `command`).
pub fn entry_url(entry: &Value) -> Option<&str> {
    if entry.get("command").is_some() {
        return None;
    }
    entry["url"].as_str().or_else(|| entry["httpUrl"].as_str())
}

/// The token values known here, with where each comes from: the variable
/// named, `AGENTBOX_MCP_TOKEN`, and the home's token file. Short ones are
/// left out.
fn known_tokens(home: &Home, token_env: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for var in [token_env, DEFAULT_TOKEN_ENV] {
        if let Ok(value) = std::env::var(var) {
            out.push((format!("the value of ${var}"), value.trim().to_string()));
        }
    }
    if let Ok(text) = std::fs::read_to_string(token_file(home)) {
        out.push((
            "the content of the home's local/mcp-token".to_string(),
            text.trim().to_string(),
        ));
    }
    // The random part of a generated token is the secret: a value holding
    // it without the `sk-agentbox-` prefix holds the token too.
    let bodies: Vec<(String, String)> = out
        .iter()
        .filter_map(|(source, v)| {
            let body = v.strip_prefix("sk-agentbox-")?;
            Some((source.clone(), body.to_string()))
        })
        .collect();
    out.extend(bodies);
    out.retain(|(_, v)| v.chars().count() >= MIN_TOKEN_CHARS);
    out.into_iter()
        .map(|(source, v)| (source, spelled(&v)))
        .collect()
}

/// `text` as compared with a token, whatever its spelling: percent-escapes
/// decoded, lower case, `-` and `_` alike (a shell "fix" of a name turns
/// one into the other).
fn spelled(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out)
        .to_lowercase()
        .replace('-', "_")
}

fn token_file(home: &Home) -> std::path::PathBuf {
    TOKEN_FILE
        .iter()
        .fold(home.root.clone(), |path, part| path.join(part))
}

/// A variable name: ASCII letters, digits and `_`, not starting with a digit.
fn check_name(name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(bad_name("is empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(bad_name(&format!(
            "is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    let ident = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.as_bytes()[0].is_ascii_digit();
    if !ident {
        return Err(bad_name(
            "is not an environment variable name (ASCII letters, digits and `_`, not starting with a digit)",
        ));
    }
    Ok(())
}

/// A URL taken apart: the scheme (lower case), the rest as given, the host,
/// and whether the host is this machine.
#[derive(Debug, PartialEq, Eq)]
struct ParsedUrl {
    scheme: String,
    rest: String,
    host: String,
    loopback: bool,
}

/// Checks a server URL. Errors say what is wrong without echoing the URL.
fn parse_url(url: &str) -> Result<ParsedUrl> {
    if url.is_empty() {
        return Err(bad_url("is empty"));
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(bad_url("holds a space or a control character"));
    }
    if !url.is_ascii() {
        return Err(bad_url(
            "holds a character outside ASCII (percent-encode the path; use the host's ASCII form)",
        ));
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(bad_url("has no scheme (http:// or https://)"));
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        let shown = if !scheme.is_empty()
            && scheme.len() <= 16
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b))
        {
            format!("`{scheme}://`")
        } else {
            "an unknown scheme".to_string()
        };
        return Err(bad_url(&format!(
            "uses {shown}; hosts reach memory_mcp --http over http:// or https://"
        )));
    }
    if rest.contains('#') {
        return Err(bad_url("has a fragment (`#…`)"));
    }
    if rest.contains('?') {
        return Err(bad_url(
            "has a query (`?…`): memory_mcp takes none, and a query is where tokens end up logged",
        ));
    }
    if rest.contains('$') {
        return Err(bad_url(
            "holds `$`, which hosts expand as an environment variable",
        ));
    }
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err(bad_url(
            "holds a user name or password (`…@`): the token is sent as a bearer header instead",
        ));
    }
    let host = parse_authority(authority)?;
    if path.is_empty() || path == "/" {
        return Err(bad_url(
            "names no endpoint path: memory_mcp --http serves POST /mcp (e.g. http://127.0.0.1:7411/mcp)",
        ));
    }
    check_path(path)?;
    let loopback = is_loopback(&host);
    Ok(ParsedUrl {
        scheme,
        rest: rest.to_string(),
        host,
        loopback,
    })
}

/// `host[:port]` or `[v6][:port]`; the host (lower case).
fn parse_authority(authority: &str) -> Result<String> {
    if authority.is_empty() {
        return Err(bad_url("has no host"));
    }
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let Some((v6, after)) = inner.split_once(']') else {
            return Err(bad_url("has an unclosed `[` in its host"));
        };
        if v6.is_empty()
            || !v6
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
        {
            return Err(bad_url("has a malformed IPv6 host"));
        }
        let port = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(port) => Some(port),
                None => return Err(bad_url("has text after its IPv6 host")),
            },
        };
        (format!("[{}]", v6.to_ascii_lowercase()), port)
    } else {
        let (host, port) = match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        if host.is_empty() {
            return Err(bad_url("has no host"));
        }
        if !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
        {
            return Err(bad_url(
                "has a character a host name cannot hold (letters, digits, `-`, `.`)",
            ));
        }
        (host.to_ascii_lowercase(), port)
    };
    if let Some(port) = port {
        let ok = !port.is_empty()
            && port.len() <= 5
            && port.bytes().all(|b| b.is_ascii_digit())
            && port.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p));
        if !ok {
            return Err(bad_url("has a port that is not a number from 1 to 65535"));
        }
    }
    Ok(host)
}

/// A path of RFC 3986 characters, `%` only as `%HH`, and no `=` or `;`
/// (parameters, where tokens hide).
fn check_path(path: &str) -> Result<()> {
    let bytes = path.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3);
                if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                    return Err(bad_url("has a `%` that is not followed by two hex digits"));
                }
                i += 3;
                continue;
            }
            b'=' | b';' => {
                return Err(bad_url(
                    "has a parameter (`=` or `;`) in its path, which is where tokens hide",
                ));
            }
            b if b.is_ascii_alphanumeric() || b"-._~!&'()*+,:@/".contains(&b) => {}
            _ => {
                return Err(bad_url(
                    "has a character a URL path cannot hold (percent-encode it)",
                ));
            }
        }
        i += 1;
    }
    Ok(())
}

/// `localhost`, `127.0.0.0/8` or `[::1]`.
fn is_loopback(host: &str) -> bool {
    if host == "localhost" || host == "[::1]" {
        return true;
    }
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts[0] == "127"
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 3 && p.parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::{check_name, is_loopback, parse_url};

    #[test]
    fn good_urls_parse_and_say_whether_they_are_loopback() {
        for (url, host, loopback) in [
            ("http://127.0.0.1:7411/mcp", "127.0.0.1", true),
            ("HTTP://localhost:7411/mcp", "localhost", true),
            ("http://[::1]:7411/mcp", "[::1]", true),
            (
                "https://memory.example.com/agent/mcp",
                "memory.example.com",
                false,
            ),
            ("http://10.0.0.5:7411/mcp", "10.0.0.5", false),
            ("https://host.example/a%20b/mcp", "host.example", false),
        ] {
            let p = parse_url(url).unwrap_or_else(|e| panic!("{url}: {}", e.message));
            assert_eq!(p.host, host, "{url}");
            assert_eq!(p.loopback, loopback, "{url}");
        }
        assert_eq!(
            parse_url("HTTP://localhost:7411/mcp").unwrap().scheme,
            "http"
        );
    }

    #[test]
    fn bad_urls_are_refused_without_echoing_them() {
        for url in [
            "",
            "127.0.0.1:7411/mcp",
            "ftp://127.0.0.1/mcp",
            "ws://127.0.0.1:7411/mcp",
            "http:///mcp",
            "http://:7411/mcp",
            "http://user:secretpass@127.0.0.1:7411/mcp",
            "http://user@127.0.0.1:7411/mcp",
            "http://127.0.0.1:7411/mcp?token=abcdef123456",
            "http://127.0.0.1:7411/mcp?",
            "http://127.0.0.1:7411/mcp#frag",
            "http://127.0.0.2:7411",
            "http://127.0.0.2:7411/",
            "http://127.0.0.1:0/mcp",
            "http://127.0.0.1:70000/mcp",
            "http://127.0.0.1:port/mcp",
            "http://127.0.0.1:7411/mcp;token=abc",
            "http://127.0.0.1:7411/t=abc/mcp",
            "http://127.0.0.1:7411/${AGENTBOX_MCP_TOKEN}/mcp",
            "http://127.0.0.1:7411/m cp",
            "http://127.0.0.1:7411/mcp\n",
            "http://127.0.0.1:7411/%zz",
            "http://[::1/mcp",
            "http://[zz]:7411/mcp",
            "http://exa mple.com/mcp",
            "http://exämple.com/mcp",
            "http://host/<script>",
        ] {
            let Err(e) = parse_url(url) else {
                panic!("{url:?} was accepted");
            };
            assert_eq!(e.kind.as_str(), "invalid_args", "{url:?}");
            if url.len() > 12 {
                assert!(!e.message.contains(url), "{url:?} echoed: {}", e.message);
            }
            assert!(!e.message.contains("abcdef123456") && !e.message.contains("secretpass"));
        }
    }

    #[test]
    fn names_are_identifiers() {
        for good in ["AGENTBOX_MCP_TOKEN", "_T", "t1", "My_Token_2"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "", "1TOKEN", "MY-TOKEN", "A B", "$TOKEN", "${TOKEN}", "TOKEN=x", "ÄTOKEN",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name(&"A".repeat(129)).is_err());
    }

    #[test]
    fn loopback_is_localhost_127_and_v6_one() {
        assert!(is_loopback("127.1.2.3"));
        assert!(!is_loopback("127.0.0.1.example.com"));
        assert!(!is_loopback("128.0.0.1"));
        assert!(!is_loopback("[::2]"));
    }
}
