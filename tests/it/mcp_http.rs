//! `memory_mcp --http` (issue 33 item 2, docs/MCP.md "Streamable HTTP"):
//! both protocol eras over `POST /mcp`, the HTTP status rules, the
//! 2026-07-28 header checks, and the security rules (bearer token, Origin,
//! Host, size limits), each against the real binary in a temp home over a
//! raw `TcpStream`. Hostile clients and many clients at once are in
//! `mcp_http_load`.

use crate::common;

use common::Sandbox;
use common::http::{
    HANDSHAKE, HttpServer, MODERN, Request, base64, handshake, modern, modern_params, result_of,
    rpc, save_turn, saved_ids, search, tool_text,
};
use serde_json::{Value, json};

/// Sets `mcp.KEY` in the home's config.json.
pub(crate) fn set_mcp_config(sb: &Sandbox, key: &str, value: Value) {
    let path = sb.home().join("config.json");
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    config["mcp"][key] = value;
    std::fs::write(&path, serde_json::to_string_pretty(&config).unwrap()).unwrap();
}

fn initialize(id: i64, version: &str) -> Request {
    Request::post(&rpc(
        id,
        "initialize",
        json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw-http", "version": "0"}}),
    ))
}

#[test]
fn a_modern_client_discovers_lists_saves_and_searches_over_one_connection() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let mut conn = server.connect();

    let reply = conn.exchange(&modern(1, "server/discover", json!({})));
    assert!(
        reply.header("Mcp-Session-Id").is_none(),
        "stateless: {reply}"
    );
    let discover = result_of(&reply, 1);
    assert_eq!(discover["supportedVersions"][0], MODERN, "{discover}");
    assert_eq!(discover["resultType"], "complete", "{discover}");
    assert!(discover["capabilities"]["tools"].is_object(), "{discover}");

    // the same keep-alive connection carries every request
    let tools = result_of(&conn.exchange(&modern(2, "tools/list", json!({}))), 2);
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "mem_context",
            "mem_search",
            "mem_save_turn",
            "mem_save_fact"
        ]
    );
    assert!(tools["tools"][0]["title"].is_string(), "{tools}");

    let saved = conn.exchange(&modern(
        3,
        "tools/call",
        save_turn("web", "The heron nests by the old mill pond."),
    ));
    let ids = saved_ids(&result_of(&saved, 3));
    let found = conn.exchange(&modern(
        4,
        "tools/call",
        search("where does the heron nest"),
    ));
    let text = tool_text(&result_of(&found, 4));
    assert!(text.contains(&ids[0]), "{text}");

    let read = conn.exchange(&modern(
        5,
        "resources/read",
        json!({"uri": "mem://search?q=heron"}),
    ));
    let read = result_of(&read, 5);
    assert!(
        read["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains("heron"),
        "{read}"
    );
}

#[test]
fn a_handshake_client_initializes_then_names_its_version_in_a_header() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let mut conn = server.connect();

    let reply = conn.exchange(&initialize(1, HANDSHAKE));
    assert!(
        reply.header("Mcp-Session-Id").is_none(),
        "stateless: {reply}"
    );
    let init = result_of(&reply, 1);
    assert_eq!(init["protocolVersion"], HANDSHAKE, "{init}");
    assert_eq!(init["serverInfo"]["name"], "agentbox-memory", "{init}");
    let initialized = conn.exchange(
        &Request::post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .header("MCP-Protocol-Version", HANDSHAKE),
    );
    assert_eq!(initialized.status, 202, "{initialized}");
    assert!(initialized.body.is_empty(), "{initialized}");

    // 2025-11-25 tools have titles …
    let tools = result_of(&conn.exchange(&handshake(2, "tools/list", json!({}))), 2);
    assert!(tools["tools"][0]["title"].is_string(), "{tools}");
    assert!(tools.get("resultType").is_none(), "{tools}");
    // … a request without the header is served as 2025-03-26: none
    let old = conn.exchange(&Request::post(&rpc(3, "tools/list", json!({}))));
    let old = result_of(&old, 3);
    assert!(old["tools"][0].get("title").is_none(), "{old}");
    assert!(old["tools"][0]["annotations"].is_object(), "{old}");

    let saved = conn.exchange(&handshake(
        4,
        "tools/call",
        save_turn("legacy", "Marisol keeps the spare keys in the blue teapot."),
    ));
    let ids = saved_ids(&result_of(&saved, 4));
    let found = conn.exchange(&handshake(5, "tools/call", search("blue teapot keys")));
    assert!(tool_text(&result_of(&found, 5)).contains(&ids[0]));
    let ping = conn.exchange(&handshake(6, "ping", json!({})));
    assert_eq!(result_of(&ping, 6), json!({}));

    // an unsupported or malformed version header is a bad request
    for version in ["1999-01-01", "banana", "2025-11-25, 2025-06-18"] {
        let reply = conn
            .exchange(&handshake(7, "tools/list", json!({})).set("MCP-Protocol-Version", version));
        reply.rpc_error(400);
        if reply.closes() {
            conn = server.connect();
        }
    }
    // and the connection (or a new one) still serves
    result_of(&conn.exchange(&handshake(8, "ping", json!({}))), 8);
}

#[test]
fn notifications_and_responses_alone_are_accepted_with_202_and_no_body() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let mut conn = server.connect();
    let bodies = [
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}),
        json!({"jsonrpc": "2.0", "id": 5, "result": {}}),
        json!({"jsonrpc": "2.0", "id": 6, "error": {"code": -1, "message": "no"}}),
    ];
    for body in bodies {
        let reply = conn.exchange(&Request::post(&body));
        assert_eq!(reply.status, 202, "{body}: {reply}");
        assert!(reply.body.is_empty(), "{body}: {reply}");
        assert_eq!(reply.header("Content-Length").unwrap_or("0"), "0");
    }
    // the connection is still usable after them
    result_of(&conn.exchange(&modern(1, "tools/list", json!({}))), 1);
}

#[test]
fn other_methods_paths_accepts_and_content_types_get_405_404_406_415() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let good = modern(1, "tools/list", json!({}));

    for method in ["GET", "DELETE", "PUT"] {
        let mut request = good.clone();
        request.method = method.to_string();
        if method != "PUT" {
            request = request.body(Vec::new()).without("Content-Type");
        }
        let reply = server.connect().exchange(&request);
        reply.rpc_error(405);
        assert_eq!(reply.header("Allow"), Some("POST"), "{method}: {reply}");
    }
    for path in ["/", "/mcp/", "/other", "/mcpx", "/MCP"] {
        let mut request = good.clone();
        request.path = path.to_string();
        server.connect().exchange(&request).rpc_error(404);
    }
    for accept in [
        "text/html",
        "text/event-stream",
        "application/xml",
        "application/json;q=0, text/event-stream",
    ] {
        let reply = server
            .connect()
            .exchange(&good.clone().set("Accept", accept));
        reply.rpc_error(406);
    }
    for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
        let reply = server
            .connect()
            .exchange(&good.clone().set("Content-Type", content_type));
        reply.rpc_error(415);
    }
    // a body needs a length (or chunks)
    let reply = server
        .connect()
        .exchange(&good.clone().bare().header("Host", "localhost"));
    reply.rpc_error(411);
    // and what good clients send is accepted
    for (accept, content_type) in [
        ("application/json", "application/json"),
        (
            "application/json, text/event-stream",
            "application/json; charset=utf-8",
        ),
        ("text/event-stream, application/json", "Application/JSON"),
    ] {
        let request = good
            .clone()
            .set("Accept", accept)
            .set("Content-Type", content_type);
        result_of(&server.connect().exchange(&request), 1);
    }
}

#[test]
fn modern_requests_must_carry_headers_that_match_their_body() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let mut conn = server.connect();
    let call = modern(1, "tools/call", search("anything"));
    let read = modern(2, "resources/read", json!({"uri": "mem://profile"}));
    result_of(&conn.exchange(&call), 1);
    result_of(&conn.exchange(&read), 2);

    let bad: Vec<(&str, Request)> = vec![
        (
            "no version header",
            call.clone().without("MCP-Protocol-Version"),
        ),
        (
            "another version in the header",
            call.clone().set("MCP-Protocol-Version", HANDSHAKE),
        ),
        ("no Mcp-Method", call.clone().without("Mcp-Method")),
        (
            "another Mcp-Method",
            call.clone().set("Mcp-Method", "tools/list"),
        ),
        ("no Mcp-Name", call.clone().without("Mcp-Name")),
        (
            "another tool in Mcp-Name",
            call.clone().set("Mcp-Name", "mem_save_fact"),
        ),
        (
            "another uri in Mcp-Name",
            read.clone().set("Mcp-Name", "mem://search?q=x"),
        ),
        ("no Mcp-Name for a read", read.clone().without("Mcp-Name")),
        (
            "base64 of another name",
            call.clone().set(
                "Mcp-Name",
                &format!("=?base64?{}?=", base64(b"mem_context")),
            ),
        ),
        (
            "broken base64",
            call.clone().set("Mcp-Name", "=?base64?***?="),
        ),
        (
            "Mcp-Method twice",
            call.clone().header("Mcp-Method", "tools/call"),
        ),
        (
            "the version header twice",
            call.clone().header("MCP-Protocol-Version", MODERN),
        ),
    ];
    for (what, request) in bad {
        let reply = server.connect().exchange(&request);
        let error = reply.rpc_error(400);
        assert_eq!(error["code"], -32020, "{what}: {reply}");
    }

    // the name may come base64-encoded (names that are not header-safe)
    let encoded = call
        .clone()
        .set("Mcp-Name", &format!("=?base64?{}?=", base64(b"mem_search")));
    result_of(&conn.exchange(&encoded), 1);
    let uri = "mem://search?q=caf\u{e9}";
    let unicode = modern(3, "resources/read", json!({"uri": uri})).set(
        "Mcp-Name",
        &format!("=?base64?{}?=", base64(uri.as_bytes())),
    );
    result_of(&conn.exchange(&unicode), 3);
    // header names are case-insensitive
    let lower = Request::post(&rpc(4, "tools/list", modern_params(MODERN, json!({}))))
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/list");
    result_of(&conn.exchange(&lower), 4);
}

#[test]
fn a_handshake_era_batch_is_answered_as_one_array_of_at_most_64() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    // without a version header a request is served at 2025-03-26, which
    // still had batches
    let batch: Vec<Value> = (1..=3)
        .map(|id| rpc(id, "ping", json!({})))
        .chain([json!({"jsonrpc": "2.0", "method": "notifications/initialized"})])
        .collect();
    let reply = server.connect().exchange(&Request::post(&json!(batch)));
    assert_eq!(reply.status, 200, "{reply}");
    let replies = reply.json();
    let ids: Vec<&Value> = replies
        .as_array()
        .unwrap_or_else(|| panic!("an array: {reply}"))
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert_eq!(ids, [&json!(1), &json!(2), &json!(3)], "{reply}");
    // one client's batch cannot hold the server thread for long
    let batch: Vec<Value> = (1..=65).map(|id| rpc(id, "ping", json!({}))).collect();
    server
        .connect()
        .exchange(&Request::post(&json!(batch)))
        .rpc_error(400);
    let batch: Vec<Value> = (1..=64).map(|id| rpc(id, "ping", json!({}))).collect();
    let reply = server.connect().exchange(&Request::post(&json!(batch)));
    assert_eq!(reply.json().as_array().map(Vec::len), Some(64), "{reply}");
}

#[test]
fn json_rpc_errors_map_to_the_http_status_table() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let post_raw = |body: &[u8]| {
        Request::new("POST", "/mcp")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(body.to_vec())
    };
    // -32700 parse error → 400
    let reply = server
        .connect()
        .exchange(&post_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 1,"));
    assert_eq!(reply.rpc_error(400)["code"], -32700, "{reply}");
    // -32600 invalid request → 400
    let reply = server
        .connect()
        .exchange(&post_raw(br#"{"jsonrpc": "2.0", "id": 1, "method": 5}"#));
    assert_eq!(reply.rpc_error(400)["code"], -32600, "{reply}");
    // -32601 method not found → 404 (the handshake era's ping is not modern)
    let reply = server.connect().exchange(&modern(1, "ping", json!({})));
    let error = reply.rpc_error(404);
    assert_eq!(error["code"], -32601, "{reply}");
    assert_eq!(reply.json()["id"], 1, "{reply}");
    // -32602 invalid params → 400 (2026-07-28: an unknown resource)
    let reply = server.connect().exchange(&modern(
        2,
        "resources/read",
        json!({"uri": "mem://nowhere"}),
    ));
    assert_eq!(reply.rpc_error(400)["code"], -32602, "{reply}");
    // -32022 unsupported version → 400, with the supported list
    let body = rpc(3, "tools/list", modern_params("1900-01-01", json!({})));
    let reply = server.connect().exchange(
        &Request::post(&body)
            .header("MCP-Protocol-Version", "1900-01-01")
            .header("Mcp-Method", "tools/list"),
    );
    let error = reply.rpc_error(400);
    assert!(
        error["code"] == -32022 || error["code"] == -32020,
        "{reply}"
    );
    // any other error is a 200: the handshake era's unknown resource …
    let reply = server.connect().exchange(&handshake(
        4,
        "resources/read",
        json!({"uri": "mem://nowhere"}),
    ));
    assert_eq!(reply.status, 200, "{reply}");
    assert_eq!(reply.json()["error"]["code"], -32002, "{reply}");
    // … an unknown method or bad params in the handshake era (those clients
    // read JSON-RPC errors in a 200) …
    let reply = server
        .connect()
        .exchange(&handshake(6, "no/such/method", json!({})));
    assert_eq!(reply.status, 200, "{reply}");
    assert_eq!(reply.json()["error"]["code"], -32601, "{reply}");
    let reply = server
        .connect()
        .exchange(&handshake(7, "tools/call", json!({"arguments": {}})));
    assert_eq!(reply.status, 200, "{reply}");
    assert_eq!(reply.json()["error"]["code"], -32602, "{reply}");
    // … and a failing tool is a result with isError
    let reply = server.connect().exchange(&modern(
        5,
        "tools/call",
        json!({"name": "mem_save_turn", "arguments": {"role": "robot", "content": "beep"}}),
    ));
    let result = result_of(&reply, 5);
    assert_eq!(result["isError"], true, "{reply}");
}

const TOKEN: &str = "tok-RIGHT-3c1f9a7e52b84d06a1e9f2c7b3d5e8a0";
const WRONG: &str = "tok-WRONG-9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a";

#[test]
fn with_a_token_every_request_must_carry_it_and_it_is_never_logged() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &["-v"], &[("AGENTBOX_MCP_TOKEN", TOKEN)]);
    let good = modern(
        1,
        "tools/call",
        save_turn("tok", "The ferry leaves at seven."),
    );
    let mut seen = String::new();

    let refusals = [
        ("no Authorization", good.clone()),
        ("a wrong token", good.clone().bearer(WRONG)),
        (
            "a prefix of the token",
            good.clone().bearer(&TOKEN[..TOKEN.len() - 1]),
        ),
        (
            "the token and more",
            good.clone().bearer(&format!("{TOKEN}0")),
        ),
        (
            "another scheme",
            good.clone().set("Authorization", &format!("Basic {TOKEN}")),
        ),
        (
            "an empty bearer",
            good.clone().set("Authorization", "Bearer "),
        ),
    ];
    for (what, request) in refusals {
        let reply = server.connect().exchange(&request);
        reply.rpc_error(401);
        assert!(
            reply
                .header("WWW-Authenticate")
                .is_some_and(|v| v.starts_with("Bearer")),
            "{what}: {reply}"
        );
        seen.push_str(&format!("{reply}\n"));
    }
    // a token in the URL is no credential (whatever the status), and is
    // not logged either
    let mut in_url = good.clone();
    in_url.path = format!("/mcp?access_token={WRONG}");
    let reply = server.connect().exchange(&in_url);
    assert!((400..500).contains(&reply.status), "{reply}");
    seen.push_str(&format!("{reply}\n"));
    // a refused request did nothing
    assert!(common::http::stored_contents(&sb).is_empty());

    let mut conn = server.connect();
    let reply = conn.exchange(&good.clone().bearer(TOKEN));
    saved_ids(&result_of(&reply, 1));
    seen.push_str(&format!("{reply}\n"));
    // the scheme is case-insensitive (RFC 9110)
    let reply = conn.exchange(
        &modern(2, "tools/list", json!({})).set("Authorization", &format!("bearer {TOKEN}")),
    );
    result_of(&reply, 2);
    seen.push_str(&format!("{reply}\n"));

    let stderr = server.stderr();
    assert!(!stderr.is_empty(), "-v logs the requests");
    for secret in [WRONG, TOKEN, &TOKEN[..TOKEN.len() - 1]] {
        assert!(!stderr.contains(secret), "a token in stderr: {stderr}");
        assert!(!seen.contains(secret), "a token in a reply: {seen}");
    }
}

#[test]
fn memory_mcp_token_writes_a_private_token_file_that_the_server_then_requires() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let out = sb
        .command(sb.home().join("tools").join("memory_mcp"))
        .arg("token")
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{printed}");
    let path = sb.home().join("local").join("mcp-token");
    let token = std::fs::read_to_string(&path).expect("local/mcp-token");
    let token = token.trim();
    assert!(token.len() >= 32, "a long token: {} chars", token.len());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    assert!(!printed.contains(token), "the token is printed: {printed}");
    assert!(printed.contains("mcp-token"), "says where it is: {printed}");
    assert!(
        printed.contains("AGENTBOX_MCP_TOKEN"),
        "says how to export it: {printed}"
    );

    // the server takes it from the file (no env)
    let server = HttpServer::start(&sb, &["-v"], &[]);
    let request = modern(1, "tools/list", json!({}));
    server.connect().exchange(&request).rpc_error(401);
    server
        .connect()
        .exchange(&request.clone().bearer(WRONG))
        .rpc_error(401);
    result_of(&server.connect().exchange(&request.bearer(token)), 1);
    assert!(!server.stderr().contains(token), "{}", server.stderr());
}

#[test]
fn a_non_loopback_address_without_a_token_refuses_to_start() {
    let sb = Sandbox::new();
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let refused = HttpServer::start_with(&sb, &["--http", addr], &[])
            .err()
            .unwrap_or_else(|| panic!("{addr} without a token started"));
        assert_eq!(refused.code, Some(2), "{refused:?}");
        let printed = format!("{}{}", refused.stdout, refused.stderr);
        assert!(printed.contains("memory_mcp token"), "a hint: {printed}");
    }
    // with a token it starts, and asks every client for it
    let server = HttpServer::start_with(
        &sb,
        &["--http", "0.0.0.0:0"],
        &[("AGENTBOX_MCP_TOKEN", TOKEN)],
    )
    .expect("0.0.0.0 with a token starts");
    let request = modern(1, "tools/list", json!({}));
    server.connect().exchange(&request).rpc_error(401);
    result_of(&server.connect().exchange(&request.bearer(TOKEN)), 1);
}

#[test]
fn the_server_binds_loopback_and_says_where() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let stderr = server.stderr();
    assert!(
        stderr.contains(&format!(
            "memory_mcp: serving http://127.0.0.1:{}/mcp",
            server.port
        )),
        "{stderr}"
    );
    // nothing listens on the machine's other addresses: connecting to a
    // non-loopback address of this host at that port is refused
    let others: Vec<std::net::IpAddr> = std::process::Command::new("hostname")
        .arg("-I")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|a| a.parse().ok())
        .filter(|a: &std::net::IpAddr| !a.is_loopback())
        .collect();
    for ip in others {
        let addr = std::net::SocketAddr::new(ip, server.port);
        assert!(
            std::net::TcpStream::connect_timeout(&addr, std::time::Duration::from_secs(5)).is_err(),
            "{addr} accepts connections"
        );
    }
}

#[test]
fn an_origin_must_be_local_or_listed_in_the_config() {
    let sb = Sandbox::new();
    set_mcp_config(&sb, "allowed_origins", json!(["https://app.example.com"]));
    let server = HttpServer::start(&sb, &[], &[]);
    let request = modern(1, "tools/list", json!({}));
    for origin in [
        "http://evil.example",
        "null",
        "http://localhost.evil.example",
        "http://127.0.0.1.evil.example:8080",
        "https://app.example.com.evil.example",
        "http://app.example.com",
        "file://",
        "http://[::2]",
    ] {
        let reply = server
            .connect()
            .exchange(&request.clone().set("Origin", origin));
        reply.rpc_error(403);
        assert!(
            !reply
                .header("Access-Control-Allow-Origin")
                .is_some_and(|v| v == origin || v == "*"),
            "{origin}: {reply}"
        );
    }
    for origin in [
        "http://localhost",
        "http://localhost:3000",
        "https://127.0.0.1:8443",
        "http://[::1]:6274",
        "https://app.example.com",
    ] {
        let reply = server
            .connect()
            .exchange(&request.clone().set("Origin", origin));
        result_of(&reply, 1);
    }
    // CORS: a listed origin's page may read the reply (and its preflight
    // is answered); a local one needs no CORS, and gets none
    let listed = "https://app.example.com";
    let reply = server
        .connect()
        .exchange(&request.clone().set("Origin", listed));
    assert_eq!(
        reply.header("Access-Control-Allow-Origin"),
        Some(listed),
        "{reply}"
    );
    let reply = server
        .connect()
        .exchange(&request.clone().set("Origin", "http://localhost:3000"));
    assert!(
        reply.header("Access-Control-Allow-Origin").is_none(),
        "{reply}"
    );
    let preflight = |origin: &str| {
        Request::new("OPTIONS", "/mcp")
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type, mcp-method")
    };
    let reply = server.connect().exchange(&preflight(listed));
    assert_eq!(reply.status, 204, "{reply}");
    assert!(
        reply
            .header("Access-Control-Allow-Methods")
            .is_some_and(|m| m.contains("POST")),
        "{reply}"
    );
    let reply = server.connect().exchange(&preflight("http://evil.example"));
    assert!(
        reply.status >= 400 && reply.header("Access-Control-Allow-Origin").is_none(),
        "{reply}"
    );
}

#[test]
fn on_loopback_the_host_header_must_name_loopback() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let request = modern(1, "tools/list", json!({}));
    for host in [
        "evil.example",
        "evil.example:80",
        "localhost.evil.example",
        "127.0.0.1.nip.io",
        "10.0.0.1",
    ] {
        let reply = server
            .connect()
            .exchange(&request.clone().set("Host", host));
        reply.rpc_error(421);
    }
    let port = server.port;
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "localhost".to_string(),
        "LOCALHOST".to_string(),
    ] {
        result_of(
            &server
                .connect()
                .exchange(&request.clone().set("Host", &host)),
            1,
        );
    }
}

#[test]
fn a_body_over_the_line_limit_is_413_and_a_head_over_64_kib_is_431() {
    let sb = Sandbox::new();
    set_mcp_config(&sb, "max_line_bytes", json!(4096));
    let server = HttpServer::start(&sb, &[], &[]);

    // a request padded to the limit (whitespace is JSON) is served …
    let padded = |len: usize| {
        let mut body = rpc(1, "ping", json!({})).to_string().into_bytes();
        body.resize(len, b' ');
        Request::post(&json!(null)).body(body)
    };
    result_of(&server.connect().exchange(&padded(4096)), 1);
    // … one byte more is refused
    let error = server.connect().exchange(&padded(4097)).rpc_error(413);
    assert_eq!(error["data"]["limit_name"], "max_line_bytes", "{error}");
    assert_eq!(error["data"]["limit"], 4096, "{error}");

    // announced too big with Expect: 100-continue: refused without asking
    // for the body
    let mut conn = server.connect();
    conn.send_raw(
        &padded(5000)
            .header("Expect", "100-continue")
            .body(Vec::new())
            .set("Content-Length", "5000")
            .to_bytes(server.port),
    )
    .unwrap();
    conn.read_response().unwrap().rpc_error(413);
    // a small one gets its 100 Continue, then its answer
    let mut conn = server.connect();
    let small = padded(100).header("Expect", "100-continue");
    let bytes = small.to_bytes(server.port);
    let split = bytes.len() - 100;
    conn.send_raw(&bytes[..split]).unwrap();
    let interim = conn.read_response().unwrap();
    assert_eq!(interim.status, 100, "{interim}");
    conn.send_raw(&bytes[split..]).unwrap();
    result_of(&conn.read_response().unwrap(), 1);

    // chunked bodies count too
    let chunked = |body: &[u8]| {
        let mut wire = Vec::new();
        for piece in body.chunks(1000) {
            wire.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
            wire.extend_from_slice(piece);
            wire.extend_from_slice(b"\r\n");
        }
        wire.extend_from_slice(b"0\r\n\r\n");
        Request::post(&json!(null))
            .header("Transfer-Encoding", "chunked")
            .body(wire)
    };
    let mut body = rpc(2, "ping", json!({})).to_string().into_bytes();
    body.resize(3000, b' ');
    result_of(&server.connect().exchange(&chunked(&body)), 2);
    body.resize(6000, b' ');
    server.connect().exchange(&chunked(&body)).rpc_error(413);

    // a head just under 64 KiB is fine; well over it is 431 (the boundary
    // has a test of its own below)
    result_of(&server.connect().exchange(&padded_head(60 * 1024)), 3);
    refused_head(&server, padded_head(200 * 1024)).rpc_error(431);
    // many small headers adding up count as well
    let mut many = modern(4, "tools/list", json!({}));
    for i in 0..2000 {
        many = many.header(&format!("X-H{i}"), &"h".repeat(40));
    }
    refused_head(&server, many).rpc_error(431);

    // the server still serves
    result_of(
        &server
            .connect()
            .exchange(&modern(5, "tools/list", json!({}))),
        5,
    );
}

/// `tools/list` with an `X-Pad` header of `len` bytes.
fn padded_head(len: usize) -> Request {
    modern(3, "tools/list", json!({})).header("X-Pad", &"p".repeat(len))
}

/// Sends `request` from a thread (the server may answer before reading it
/// all) and returns the response.
fn refused_head(server: &HttpServer, request: Request) -> common::http::Response {
    let mut conn = server.connect();
    let bytes = request.to_bytes(server.port);
    let mut writer = conn.stream.try_clone().unwrap();
    let sending = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut writer, &bytes);
    });
    let response = conn.read_response().expect("a response");
    sending.join().unwrap();
    response
}

#[test]
fn a_head_just_over_64_kib_is_431_however_it_arrives() {
    // The limit once held only while the head was incomplete, checked
    // after each 16 KiB read: a head completing in the read that crossed
    // 64 KiB (up to 80 KiB) was served.
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    for len in [64 * 1024, 70 * 1024, 79 * 1024] {
        let reply = refused_head(&server, padded_head(len));
        assert_eq!(reply.status, 431, "a {len}-byte header: {reply}");
        reply.rpc_error(431);
    }
    // in one write or trickled, the same answer
    let mut conn = server.connect();
    let bytes = padded_head(70 * 1024).to_bytes(server.port);
    for piece in bytes.chunks(1000) {
        if conn.send_raw(piece).is_err() {
            break;
        }
    }
    conn.read_response().expect("a response").rpc_error(431);
}

#[test]
fn the_token_file_is_kept_until_replaced_and_refused_when_others_can_read_it() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let memory_mcp = sb.home().join("tools").join("memory_mcp");
    let path = sb.home().join("local").join("mcp-token");
    let token = |args: &[&str]| {
        let out = sb.command(&memory_mcp).args(args).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        std::fs::read_to_string(&path).unwrap()
    };
    let first = token(&["token"]);
    assert_eq!(token(&["token"]), first, "a second call keeps the token");
    let second = token(&["token", "--new"]);
    assert_ne!(second, first, "--new replaces it");
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );

    // a token file others can read: the server does not start
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let refused = HttpServer::start_with(&sb, &["--http", "127.0.0.1:0"], &[])
        .expect_err("a world-readable token file is refused");
    assert_ne!(refused.code, Some(0), "{refused:?}");
    let printed = format!("{}{}", refused.stdout, refused.stderr);
    assert!(printed.contains("mcp-token"), "{printed}");
    assert!(!printed.contains(second.trim()), "{printed}");

    // nor with a token too short to be one
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let refused = HttpServer::start_with(
        &sb,
        &["--http", "127.0.0.1:0"],
        &[("AGENTBOX_MCP_TOKEN", "short")],
    )
    .expect_err("a 5-character token is refused");
    assert_ne!(refused.code, Some(0), "{refused:?}");
}
