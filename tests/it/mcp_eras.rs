//! Both MCP protocol eras on one stdio stream (issue 33 item 1,
//! docs/MCP.md "Two protocol eras"): 2026-07-28 requests carry their version
//! and the client's capabilities in `params._meta` and need no handshake;
//! `initialize` and requests without that envelope are served as before.
//! Raw JSON-RPC lines against the binary.

use crate::common;

use common::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

const MODERN: &str = "2026-07-28";

/// A running server, one request and one reply at a time.
struct Peer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

/// The 2026-07-28 per-request envelope at `version`.
fn envelope(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"}
    })
}

/// `params` with the envelope at `version` in `_meta`.
fn modern(version: &str, mut params: Value) -> Value {
    params["_meta"] = envelope(version);
    params
}

impl Peer {
    fn start(sb: &Sandbox) -> Peer {
        let mut child = sb
            .std_command(sb.home().join("tools").join("memory_mcp"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the server");
        Peer {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            next_id: 0,
        }
    }

    /// Sends a request; its whole reply (id checked).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).expect("a reply line");
        let reply: Value = serde_json::from_str(&reply).expect("the reply is JSON");
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// A modern request that must succeed: its result, checked for what
    /// every 2026-07-28 result carries.
    fn modern(&mut self, method: &str, params: Value) -> Value {
        let reply = self.call(method, modern(MODERN, params));
        let result = reply["result"].clone();
        assert!(result.is_object(), "{method}: {reply}");
        assert_eq!(result["resultType"], "complete", "{method}: {result}");
        let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
        assert_eq!(info["name"], "agentbox-memory", "{method}: {result}");
        assert!(info["version"].is_string(), "{result}");
        result
    }

    /// A request that must fail with `code`: its error object.
    fn error(&mut self, method: &str, params: Value, code: i64) -> Value {
        let reply = self.call(method, params);
        assert_eq!(reply["error"]["code"], code, "{method}: {reply}");
        reply["error"].clone()
    }

    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        assert_eq!(rest, "", "nothing unanswered is written");
        assert!(status.success(), "{status}");
    }
}

fn text_of(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text content")
}

#[test]
fn a_modern_client_discovers_lists_saves_searches_and_reads_without_a_handshake() {
    let sb = Sandbox::new();
    let mut peer = Peer::start(&sb);
    let discover = peer.modern("server/discover", json!({}));
    let versions = discover["supportedVersions"].as_array().unwrap();
    assert_eq!(versions[0], MODERN, "{discover}");
    assert!(versions.contains(&json!("2025-11-25")), "{discover}");
    assert_eq!(discover["capabilities"]["tools"]["listChanged"], false);
    assert!(discover["capabilities"]["resources"].is_object());
    assert!(
        discover["instructions"]
            .as_str()
            .unwrap()
            .contains("mem_context")
    );
    assert_eq!(discover["cacheScope"], "public");
    assert!(discover["ttlMs"].as_u64().unwrap() > 0);

    let tools = peer.modern("tools/list", json!({}));
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"mem_save_fact") && names.contains(&"mem_search"),
        "{names:?}"
    );
    // the modern era has everything 2025-06-18 added
    assert!(tools["tools"][0]["title"].is_string(), "{tools}");
    assert_eq!(tools["cacheScope"], "public");
    assert!(tools["ttlMs"].as_u64().unwrap() > 0);
    for method in ["resources/list", "resources/templates/list"] {
        let listed = peer.modern(method, json!({}));
        assert_eq!(listed["cacheScope"], "public", "{listed}");
        assert!(listed["ttlMs"].is_u64(), "{listed}");
    }

    let saved = peer.modern(
        "tools/call",
        json!({"name": "mem_save_fact", "arguments": {"fact": "Ada works at the lighthouse."}}),
    );
    assert_ne!(saved["isError"], true, "{saved}");
    assert_eq!(saved["structuredContent"]["saved"], true, "{saved}");
    assert!(
        saved.get("ttlMs").is_none(),
        "a call is not cacheable: {saved}"
    );
    let found = peer.modern(
        "tools/call",
        json!({"name": "mem_search", "arguments": {"query": "where does Ada work?"}}),
    );
    assert!(text_of(&found).contains("lighthouse"), "{found}");

    let read = peer.modern(
        "resources/read",
        json!({"uri": "mem://search?q=lighthouse"}),
    );
    assert!(
        read["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains("lighthouse"),
        "{read}"
    );
    assert_eq!(read["cacheScope"], "private");
    assert_eq!(read["ttlMs"], 0);
    let profile = peer.modern("resources/read", json!({"uri": "mem://profile"}));
    assert!(profile["contents"][0]["text"].is_string(), "{profile}");
    // 2026-07-28 retired -32002: an unknown resource is invalid params
    peer.error(
        "resources/read",
        modern(MODERN, json!({"uri": "mem://nowhere"})),
        -32602,
    );
    // the handshake-era methods do not exist in this era
    peer.error("ping", modern(MODERN, json!({})), -32601);
    peer.finish();
}

#[test]
fn an_unsupported_version_gets_the_supported_list_and_a_bad_envelope_is_invalid_params() {
    let sb = Sandbox::new();
    let mut peer = Peer::start(&sb);
    for version in ["1900-01-01", "2025-11-25"] {
        let error = peer.error("tools/list", modern(version, json!({})), -32022);
        assert_eq!(error["message"], "Unsupported protocol version");
        assert_eq!(error["data"]["requested"], version);
        let supported = error["data"]["supported"].as_array().unwrap();
        assert_eq!(supported[0], MODERN, "{error}");
        assert!(supported.contains(&json!("2024-11-05")), "{error}");
    }
    // the envelope without its required capabilities key
    let error = peer.error(
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}),
        -32602,
    );
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("io.modelcontextprotocol/clientCapabilities"),
        "{error}"
    );
    let mut bad = envelope(MODERN);
    bad["io.modelcontextprotocol/protocolVersion"] = json!(20260728);
    peer.error("tools/list", json!({"_meta": bad}), -32602);
    // server/discover exists only in the modern era: without the envelope
    // (no _meta, or one without the version) it is invalid params
    peer.error("server/discover", json!({}), -32602);
    peer.error(
        "server/discover",
        json!({"_meta": {"progressToken": 1}}),
        -32602,
    );
    // a bare `_meta` (a progress token) is no envelope: served as before
    let listed = peer.call("tools/list", json!({"_meta": {"progressToken": 2}}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    assert!(listed["result"].get("resultType").is_none(), "{listed}");
    peer.finish();
}

#[test]
fn each_request_is_served_in_its_own_era_on_one_stream() {
    let sb = Sandbox::new();
    let mut peer = Peer::start(&sb);
    // a modern request first, then a 2024-11-05 handshake on the same stream
    peer.modern("tools/list", json!({}));
    let init = peer.call(
        "initialize",
        json!({"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05", "{init}");
    assert!(init["result"].get("resultType").is_none(), "{init}");
    // legacy requests follow the session's version: no 2025-06-18 fields
    let old = peer.call("tools/list", json!({}));
    assert!(old["result"]["tools"][0].get("title").is_none(), "{old}");
    assert!(old["result"].get("ttlMs").is_none(), "{old}");
    // a modern request in between is served at its own version, and does
    // not change the session's
    let new = peer.modern("tools/list", json!({}));
    assert!(new["tools"][0]["title"].is_string(), "{new}");
    let old_again = peer.call("tools/list", json!({}));
    assert_eq!(old_again["result"], old["result"]);
    // legacy unknown resource keeps its -32002
    peer.error("resources/read", json!({"uri": "mem://nowhere"}), -32002);
    // an initialize asking for the modern version gets the latest
    // handshake version: 2026-07-28 has no handshake
    let init = peer.call(
        "initialize",
        json!({"protocolVersion": MODERN, "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(peer.call("ping", json!({}))["result"], json!({}));
    peer.finish();
}
