//! The checks a request passes before it reaches the server thread: where
//! it comes from (`Host`, `Origin`: DNS rebinding), who sends it (the bearer
//! token), what it carries (`Content-Type`, `Accept`), and, for a 2026-07-28
//! request, that its routing headers say what its body says.

use super::token::Token;
use crate::http::host_part;
use crate::http::wire::Head;
use crate::mcp::protocol::{self, Features, RpcError};
use serde_json::{Value, json};

/// MCP 2026-07-28 (Streamable HTTP): a routing header is missing,
/// malformed, or disagrees with the body (`HeaderMismatch`).
pub const HEADER_MISMATCH: i64 = -32020;

/// A refusal: the HTTP status and the JSON-RPC error of its body.
#[derive(Debug)]
pub struct Refusal {
    pub status: u16,
    pub error: RpcError,
    pub headers: Vec<(&'static str, String)>,
}

impl Refusal {
    pub fn new(status: u16, code: i64, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            error: RpcError::new(code, message),
            headers: Vec::new(),
        }
    }

    /// An HTTP-level refusal: `-32600` with the status in `data`.
    pub fn http(status: u16, message: impl Into<String>) -> Refusal {
        let refusal = Refusal::new(status, protocol::INVALID_REQUEST, message);
        let error = refusal.error.with_data(json!({"httpStatus": status}));
        Refusal { error, ..refusal }
    }

    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Refusal {
        self.headers.push((name, value.into()));
        self
    }
}

/// The names a loopback server answers to (`Host`) and the hosts of the
/// pages it takes requests from (`Origin`).
const LOCAL_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// `Host` and `Origin`. A server bound to loopback answers only to a
/// loopback name, so a page on another name that resolves to 127.0.0.1 (DNS
/// rebinding) is turned away (421). A request from a web page (`Origin`)
/// must come from a local page or one listed in `mcp.allowed_origins`
/// (403); `Origin: null` (a sandboxed or file page) never passes.
pub fn place(head: &Head, loopback: Option<&[String]>, allowed: &[String]) -> Result<(), Refusal> {
    if let Some(names) = loopback {
        let host = head
            .one("host")
            .map_err(|()| Refusal::http(400, "the request has more than one Host header"))?;
        let host = host
            .and_then(|h| std::str::from_utf8(h).ok())
            .map(str::trim);
        let name = host.map(|h| host_part(h).unwrap_or(h).to_ascii_lowercase());
        match name {
            Some(name) if host.and_then(host_part).is_some() && names.contains(&name) => {}
            Some(name) => {
                return Err(Refusal::http(
                    421,
                    format!(
                        "this server answers to {} only, not to Host {name:?}",
                        names.join(", ")
                    ),
                ));
            }
            None => return Err(Refusal::http(400, "the request has no Host header")),
        }
    }
    let origin = head
        .one("origin")
        .map_err(|()| Refusal::http(403, "the request has more than one Origin header"))?;
    let Some(origin) = origin else {
        return Ok(());
    };
    let origin = std::str::from_utf8(origin).unwrap_or("").trim();
    if allowed.iter().any(|a| a.eq_ignore_ascii_case(origin)) || local_origin(origin) {
        return Ok(());
    }
    Err(Refusal::http(
        403,
        format!(
            "requests from the web page at Origin {origin:?} are refused (add it to mcp.allowed_origins to allow it)"
        ),
    ))
}

/// `http(s)://` + a loopback name + an optional port, nothing else.
fn local_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    host_part(rest).is_some_and(|host| LOCAL_NAMES.contains(&host.to_ascii_lowercase().as_str()))
}

/// The bearer token, when the server has one: 401 without the right one.
/// The presented token is compared in constant time and never repeated.
pub fn bearer(head: &Head, token: Option<&Token>) -> Result<(), Refusal> {
    let Some(token) = token else {
        return Ok(());
    };
    let refuse = |why: &str| {
        Refusal::http(
            401,
            format!("{why}: this server needs `Authorization: Bearer <token>`"),
        )
        .with_header("WWW-Authenticate", "Bearer realm=\"agentbox-memory\"")
    };
    let value = match head.one("authorization") {
        Ok(Some(value)) => value,
        Ok(None) => return Err(refuse("no token")),
        Err(()) => return Err(refuse("more than one Authorization header")),
    };
    let presented = match value.iter().position(|b| *b == b' ') {
        Some(i) if value[..i].eq_ignore_ascii_case(b"bearer") => value[i + 1..].trim_ascii(),
        _ => return Err(refuse("not a bearer token")),
    };
    if token.matches(presented) {
        Ok(())
    } else {
        Err(refuse("wrong token"))
    }
}

/// `Content-Type: application/json` (415) and an `Accept` that takes JSON
/// (406; no `Accept` at all takes anything).
pub fn media(head: &Head) -> Result<(), Refusal> {
    let content_type = head.text("content-type").unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/json") {
        return Err(Refusal::http(
            415,
            format!("the body must be Content-Type application/json, not {content_type:?}"),
        ));
    }
    if let Some(accept) = head.text("accept") {
        let takes = accepts(accept, &["application/json", "application/*", "*/*"]);
        if !takes {
            return Err(Refusal::http(
                406,
                format!("replies are application/json, which Accept {accept:?} does not take"),
            ));
        }
    }
    Ok(())
}

/// Whether `Accept` takes an event stream (a `subscriptions/listen`
/// response is one).
pub fn takes_events(head: &Head) -> bool {
    head.text("accept")
        .is_some_and(|accept| accepts(accept, &["text/event-stream", "text/*", "*/*"]))
}

/// Whether an `Accept` list takes one of `ranges` (a `q=0` refuses it).
fn accepts(accept: &str, ranges: &[&str]) -> bool {
    accept.split(',').any(|item| {
        let mut parts = item.split(';');
        let range = parts.next().unwrap_or("").trim();
        let refused = parts.any(|p| {
            p.trim()
                .strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        !refused && ranges.iter().any(|r| range.eq_ignore_ascii_case(r))
    })
}

/// How the server thread serves a body that passed: the version a legacy
/// request is served at (a modern one carries its own in `_meta`).
pub fn route(head: &Head, body: &Value) -> Result<Features, Refusal> {
    for name in ["mcp-protocol-version", "mcp-method", "mcp-name"] {
        if head.one(name).is_err() {
            return Err(mismatch(format!(
                "the {name} header appears more than once"
            )));
        }
    }
    let header = head.text("mcp-protocol-version");
    let meta_version = body
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(protocol::PROTOCOL_VERSION_META));
    let method = body.get("method").and_then(Value::as_str);
    if let Some(version) = meta_version {
        // 2026-07-28: the headers mirror the body, for intermediaries that
        // route without parsing it; a client that disagrees with itself is
        // told so before anything else.
        if header.is_none() || header != version.as_str() {
            return Err(mismatch(
                "the MCP-Protocol-Version header does not match params._meta's protocol version",
            ));
        }
        if head.text("mcp-method") != method {
            return Err(mismatch(
                "the Mcp-Method header does not match the body's method",
            ));
        }
        let key = match method {
            Some("tools/call") | Some("prompts/get") => Some("name"),
            Some("resources/read") => Some("uri"),
            _ => None,
        };
        if let Some(key) = key
            && let Some(named) = body["params"].get(key).and_then(Value::as_str)
            && head.text("mcp-name").map(decode_name).as_deref() != Some(named)
        {
            return Err(mismatch(format!(
                "the Mcp-Name header does not match the body's params.{key}"
            )));
        }
        return Ok(Features::new(protocol::LATEST_VERSION));
    }
    match header {
        // A modern version with a body that lacks the envelope it promises.
        Some(version) if protocol::MODERN_VERSIONS.contains(&version) => Err(Refusal::new(
            400,
            protocol::INVALID_PARAMS,
            format!(
                "MCP-Protocol-Version is {version}, but params._meta lacks {}",
                protocol::PROTOCOL_VERSION_META
            ),
        )),
        Some(version) => protocol::PROTOCOL_VERSIONS
            .iter()
            .find(|v| **v == version)
            .map(|v| Features::new(v))
            .ok_or_else(|| {
                Refusal::http(
                    400,
                    format!(
                        "unsupported MCP-Protocol-Version {version:?}; supported: {}",
                        protocol::supported_versions().join(", ")
                    ),
                )
            }),
        // No header: `initialize` negotiates; anything else is served as
        // 2025-03-26, as the 2025-06-18 transport says.
        None => Ok(Features::new("2025-03-26")),
    }
}

fn mismatch(message: impl Into<String>) -> Refusal {
    Refusal::new(400, HEADER_MISMATCH, message)
}

/// An `Mcp-Name` value: `=?base64?…?=` carries a name that is not plain
/// visible ASCII.
fn decode_name(value: &str) -> String {
    value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
        .and_then(crate::screen::decode::base64)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_else(|| value.to_string())
}

/// The HTTP status of a reply with this JSON-RPC error code: in the
/// 2026-07-28 era the transport's table (a malformed or refused request is
/// 400, an unknown method 404); in the handshake era only a message that is
/// not JSON-RPC at all is 400, every other error travels in a 200 (its
/// clients read JSON-RPC errors from a successful response).
pub fn status_of(code: Option<i64>, modern: bool) -> u16 {
    match code {
        Some(protocol::PARSE_ERROR | protocol::INVALID_REQUEST) => 400,
        Some(
            protocol::INVALID_PARAMS | HEADER_MISMATCH | protocol::UNSUPPORTED_PROTOCOL_VERSION,
        ) if modern => 400,
        Some(protocol::METHOD_NOT_FOUND) if modern => 404,
        _ => 200,
    }
}

/// Whether a body is only notifications and responses (answered `202`
/// with no body): an object or a batch without a single request in it.
pub fn needs_no_reply(body: &Value) -> bool {
    let is_request = |v: &Value| v.get("method").is_some() && v.get("id").is_some();
    match body {
        Value::Array(items) => !items.is_empty() && !items.iter().any(is_request),
        Value::Object(_) => !is_request(body),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decode_from_base64_and_pass_plain_ones_through() {
        assert_eq!(decode_name("mem_search"), "mem_search");
        assert_eq!(
            decode_name("=?base64?bWVtOi8vcHJvZmlsZQ==?="),
            "mem://profile"
        );
        assert_eq!(
            decode_name("=?base64?bWVtOi8vcHJvZmlsZQ?="),
            "mem://profile"
        );
        assert_eq!(decode_name("=?base64?!!?="), "=?base64?!!?=");
    }

    #[test]
    fn only_local_origins_pass_by_default() {
        for ok in [
            "http://localhost",
            "http://127.0.0.1:3000",
            "https://[::1]:8443",
            "http://LOCALHOST:1",
        ] {
            assert!(local_origin(ok), "{ok}");
        }
        for bad in [
            "null",
            "http://localhost.evil.com",
            "http://127.0.0.1.nip.io",
            "http://localhost:80/path",
            "file://localhost",
            "http://localhost:",
            "http://evil.com#http://localhost",
        ] {
            assert!(!local_origin(bad), "{bad}");
        }
    }

    #[test]
    fn a_host_is_a_name_and_at_most_a_port() {
        assert_eq!(host_part("localhost"), Some("localhost"));
        assert_eq!(host_part("localhost:7411"), Some("localhost"));
        assert_eq!(host_part("[::1]:80"), Some("[::1]"));
        for bad in [
            "localhost:80@evil.com",
            "localhost:evil.com",
            "127.0.0.1:41995 evil.com",
            "[::1]evil.com",
            "localhost:abc",
            "localhost:",
            ":80",
            "[::1",
        ] {
            assert_eq!(host_part(bad), None, "{bad}");
        }
    }

    #[test]
    fn statuses_follow_the_era() {
        assert_eq!(status_of(Some(protocol::METHOD_NOT_FOUND), true), 404);
        assert_eq!(status_of(Some(protocol::METHOD_NOT_FOUND), false), 200);
        assert_eq!(status_of(Some(protocol::PARSE_ERROR), false), 400);
        assert_eq!(status_of(Some(protocol::INTERNAL_ERROR), true), 200);
        assert_eq!(status_of(None, true), 200);
    }

    #[test]
    fn notifications_and_responses_need_no_reply() {
        assert!(needs_no_reply(
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        ));
        assert!(needs_no_reply(
            &json!({"jsonrpc": "2.0", "id": 1, "result": {}})
        ));
        assert!(!needs_no_reply(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        ));
        assert!(!needs_no_reply(&json!([])));
        assert!(!needs_no_reply(&json!(3)));
    }
}
