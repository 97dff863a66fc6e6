//! The MCP resources: the server's own two, `mem://profile` (the read side
//! of `mem_context` with an empty query) and `mem://search?q={query}&topK={topK}`
//! (the read side of `mem_search`), then those the tools contribute through
//! their registry entries (`Tool::resources`). Failures are JSON-RPC errors:
//! `-32002` for a URI this server does not have, `-32603` for everything else.

use super::context;
use super::protocol::{Features, INTERNAL_ERROR, RESOURCE_NOT_FOUND, RpcError};
use super::tools::{self, Memory};
use crate::tools::Resource;
use serde_json::{Value, json};

pub const PROFILE_URI: &str = "mem://profile";
pub const SEARCH_TEMPLATE: &str = "mem://search?q={query}&topK={topK}";
const MARKDOWN: &str = "text/markdown";

/// `resources/list`: the server's own, then the tools'.
pub fn list(features: Features, extra: &[&Resource]) -> Value {
    let mut profile = json!({
        "uri": PROFILE_URI,
        "name": "profile",
        "description": "The user's preferences and profile facts (mem_context with an empty query), as markdown",
        "mimeType": MARKDOWN
    });
    if features.structured() {
        profile["title"] = json!("Memory profile");
    }
    let mut all = vec![profile];
    for r in extra {
        let mut item = json!({
            "uri": r.uri,
            "name": r.name,
            "description": r.description,
            "mimeType": r.mime_type
        });
        if features.structured() {
            item["title"] = json!(r.title);
        }
        all.push(item);
    }
    json!({ "resources": all })
}

/// `resources/templates/list`.
pub fn templates(features: Features) -> Value {
    let mut search = json!({
        "uriTemplate": SEARCH_TEMPLATE,
        "name": "search",
        "description": "Search memory (mem_search): q (or query) is required, topK (or top_k) defaults to 5, at most 50",
        "mimeType": MARKDOWN
    });
    if features.structured() {
        search["title"] = json!("Search memory");
    }
    json!({ "resourceTemplates": [search] })
}

/// What `uri` names.
#[derive(Debug, PartialEq)]
enum Target {
    Profile,
    Search {
        query: String,
        top_k: Option<String>,
    },
}

/// Parses a `mem://` URI; `None` when it is not one of ours.
fn parse(uri: &str) -> Option<Target> {
    let rest = uri.strip_prefix("mem://")?;
    let rest = rest.split('#').next().unwrap_or(rest);
    let (path, query) = match rest.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (rest, None),
    };
    match path.trim_end_matches('/') {
        "profile" => Some(Target::Profile),
        "search" => {
            // Repeated parameters: the first non-empty value counts (as
            // URLSearchParams.get reads the first); `q` before `query` and
            // `topK` before `top_k` when both are given, but an empty `q=`
            // (a template filled with nothing) does not hide a `query`.
            let (mut q, mut query_, mut top_k, mut top_k_) = (None, None, None, None);
            for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                let slot = match decode(key).as_str() {
                    "q" => &mut q,
                    "query" => &mut query_,
                    "topK" => &mut top_k,
                    "top_k" => &mut top_k_,
                    _ => continue,
                };
                let value = decode(value);
                if slot.is_none() && !value.trim().is_empty() {
                    *slot = Some(value);
                }
            }
            Some(Target::Search {
                query: q.or(query_).unwrap_or_default(),
                top_k: top_k.or(top_k_),
            })
        }
        _ => None,
    }
}

/// The URIs `resources/list` names (the fixed resources, not the search
/// template): what a `subscriptions/listen` may subscribe to.
pub fn listed<'r>(extra: &[&'r Resource]) -> Vec<&'r str> {
    std::iter::once(PROFILE_URI)
        .chain(extra.iter().map(|r| r.uri))
        .collect()
}

/// Percent-decoding with `+` as a space; a malformed escape stays as written.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `resources/read`: the markdown text of `uri`.
pub fn read(memory: &mut Memory, extra: &[&Resource], uri: &str) -> Result<String, RpcError> {
    let failed = |e: crate::error::Error| {
        RpcError::new(INTERNAL_ERROR, tools::error_text(&e)).with_data(json!({"uri": uri}))
    };
    if let Some(r) = extra.iter().find(|r| r.uri == uri) {
        return (r.read)(memory.home).map_err(failed);
    }
    match parse(uri) {
        Some(Target::Profile) => context::context(memory, "", tools::DEFAULT_TOP_K).map_err(failed),
        Some(Target::Search { query, top_k }) => {
            if query.trim().is_empty() {
                return Err(RpcError::new(
                    INTERNAL_ERROR,
                    "mem://search needs a query: mem://search?q=your+words&topK=5",
                )
                .with_data(json!({"uri": uri})));
            }
            let top_k = tools::top_k(top_k.map(Value::String).as_ref());
            tools::search(memory, &query, top_k).map_err(failed)
        }
        None => Err(
            RpcError::new(RESOURCE_NOT_FOUND, format!("Resource not found: {uri}"))
                .with_data(json!({"uri": uri, "available": available(extra)})),
        ),
    }
}

/// Every URI (or template) this server reads.
fn available(extra: &[&Resource]) -> Vec<&'static str> {
    [PROFILE_URI, SEARCH_TEMPLATE]
        .into_iter()
        .chain(extra.iter().map(|r| r.uri))
        .collect()
}

/// The `contents` of a read. The URI is echoed as given: the output layer redacts every frame whole
/// (`output::Frames::send`), so a secret in it is masked there.
pub fn contents(uri: &str, text: String) -> Value {
    json!({"contents": [{"uri": uri, "mimeType": MARKDOWN, "text": text}]})
}

#[cfg(test)]
mod tests {
    use super::*;

    static NOTE: Resource = Resource {
        uri: "mem://persona",
        name: "persona",
        title: "Active persona",
        description: "The active persona",
        mime_type: "text/markdown",
        read: |_| Ok("# Persona".to_string()),
    };

    #[test]
    fn tool_resources_are_listed_after_the_servers_own() {
        let list = list(Features::new("2025-06-18"), &[&NOTE]);
        let uris: Vec<&str> = list["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap())
            .collect();
        assert_eq!(uris, [PROFILE_URI, "mem://persona"]);
        assert_eq!(
            available(&[&NOTE]),
            [PROFILE_URI, SEARCH_TEMPLATE, "mem://persona"]
        );
    }

    #[test]
    fn uris_parse() {
        assert_eq!(parse("mem://profile"), Some(Target::Profile));
        assert_eq!(parse("mem://profile/"), Some(Target::Profile));
        assert_eq!(
            parse("mem://search?q=go+fmt%20tabs&topK=3"),
            Some(Target::Search {
                query: "go fmt tabs".into(),
                top_k: Some("3".into())
            })
        );
        assert_eq!(
            parse("mem://search?query=caf%C3%A9&top_k=9"),
            Some(Target::Search {
                query: "café".into(),
                top_k: Some("9".into())
            })
        );
        assert_eq!(
            parse("mem://search"),
            Some(Target::Search {
                query: String::new(),
                top_k: None
            })
        );
        // an empty q= does not hide query=; the first non-empty value counts
        assert_eq!(
            parse("mem://search?q=&query=go&q=tabs&topK=&top_k=4&topK=2"),
            Some(Target::Search {
                query: "tabs".into(),
                top_k: Some("2".into())
            })
        );
        assert_eq!(
            parse("mem://search?q=&query=go&top_k=4"),
            Some(Target::Search {
                query: "go".into(),
                top_k: Some("4".into())
            })
        );
        assert_eq!(parse("mem://nope"), None);
        assert_eq!(parse("file:///etc/passwd"), None);
    }

    #[test]
    fn decoding_tolerates_bad_escapes() {
        assert_eq!(decode("a%2"), "a%2");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("%41%42"), "AB");
        assert_eq!(decode("%ff"), "\u{fffd}");
    }
}
