//! Regression tests for what a hostile tester found in `memory_mcp --http`
//! (issue 33's attack pass): each reproduces a finding and fails on the code
//! before its fix.

use crate::common;

use common::Sandbox;
use common::http::{HttpServer, Request, modern, rpc};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Every file below `dir`, as (path, contents) of the readable ones.
fn files_below(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => found.extend(files_below(&path)),
            Ok(kind) if kind.is_file() => {
                if let Ok(bytes) = std::fs::read(&path) {
                    found.push((
                        path.display().to_string(),
                        String::from_utf8_lossy(&bytes).into_owned(),
                    ));
                }
            }
            _ => {}
        }
    }
    found
}

#[test]
fn a_hand_set_token_is_masked_in_what_the_server_stores_and_echoes() {
    let sb = Sandbox::new();
    let token = "HandMadeSecretValue0123456789XYZ";
    let server = HttpServer::start(&sb, &[], &[("AGENTBOX_MCP_TOKEN", token)]);
    let mut conn = server.connect();
    let save = modern(
        1,
        "tools/call",
        json!({"name": "mem_save_fact", "arguments": {"fact": format!("My token is {token}")}}),
    )
    .bearer(token);
    let saved = conn.exchange(&save);
    assert_eq!(saved.status, 200, "{}", saved.text());
    let turn = modern(
        2,
        "tools/call",
        json!({"name": "mem_save_turn", "arguments": {"role": "user", "content": format!("use {token} please")}}),
    )
    .bearer(token);
    assert_eq!(conn.exchange(&turn).status, 200);
    // An unknown method named by the token: the message and data echo it.
    let echoed = conn.exchange(&Request::post(&rpc(3, token, json!({}))).bearer(token));
    assert!(!echoed.text().contains(token), "{}", echoed.text());
    drop(conn);
    drop(server);
    for (path, text) in files_below(&sb.home().join("memory")) {
        assert!(!text.contains(token), "{path} holds the token: {text}");
    }
}

#[test]
fn a_refusal_masks_what_it_echoes_of_the_request() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let key = "sk-abcdefghijklmnopqrstuvwxyz0123456789";
    let mut conn = server.connect();
    let reply = conn.exchange(&Request::post(&rpc(1, "ping", json!({}))).set("Accept", key));
    assert_eq!(reply.status, 406, "{}", reply.text());
    assert!(!reply.text().contains(key), "{}", reply.text());
    let mut conn = server.connect();
    let reply = conn.exchange(&Request::new("GET", &format!("/mcp/{key}")));
    assert_eq!(reply.status, 404);
    assert!(!reply.text().contains(key), "{}", reply.text());
}

#[test]
fn a_batched_listen_is_refused_and_leaves_no_subscription_behind() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let listen = |id: i64| {
        rpc(
            id,
            "subscriptions/listen",
            common::http::modern_params(
                "2026-07-28",
                json!({"notifications": {"resourceSubscriptions": ["mem://profile"]}}),
            ),
        )
    };
    let batch: Vec<Value> = (1..=64).map(listen).collect();
    let mut conn = server.connect();
    let reply = conn.exchange(&Request::post(&json!(batch)));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let replies = reply.json();
    let replies = replies.as_array().expect("one reply per request");
    assert_eq!(replies.len(), 64);
    for r in replies {
        assert_eq!(r["error"]["code"], -32600, "{r}");
    }
    // No ghost holds the slots or id 1: a real listen is acknowledged.
    let mut conn = server.connect();
    conn.send(&modern(
        1,
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": ["mem://profile"]}}),
    ));
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline && !String::from_utf8_lossy(&seen).contains("acknowledged") {
        let mut chunk = [0u8; 4096];
        match std::io::Read::read(&mut conn.stream, &mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&chunk[..n]),
        }
    }
    let seen = String::from_utf8_lossy(&seen);
    assert!(
        seen.contains("notifications/subscriptions/acknowledged"),
        "{seen}"
    );
}

#[test]
fn the_host_is_a_name_and_at_most_a_port() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    for host in [
        "localhost:80@evil.com",
        "[::1]evil.com",
        "localhost:abc",
        "127.0.0.1:1 evil.com",
    ] {
        let mut conn = server.connect();
        let reply = conn.exchange(&Request::post(&rpc(1, "ping", json!({}))).set("Host", host));
        assert_eq!(reply.status, 421, "{host}: {}", reply.text());
    }
}

#[test]
fn a_server_on_another_loopback_address_answers_to_it() {
    let sb = Sandbox::new();
    let Ok(server) = HttpServer::start_with(&sb, &["--http", "127.0.0.2:0"], &[]) else {
        panic!("127.0.0.2 is loopback on Linux; the server must start there");
    };
    let addr = std::net::SocketAddr::from(([127, 0, 0, 2], server.port));
    let mut conn = common::http::Conn::open(addr);
    let reply = conn.exchange(
        &Request::post(&rpc(1, "ping", json!({})))
            .set("Host", &format!("127.0.0.2:{}", server.port)),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}

#[test]
fn chunked_trailers_are_bounded() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let body = rpc(1, "ping", json!({})).to_string();
    let mut raw = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n",
        server.port,
        body.len()
    );
    for i in 0..40 {
        raw.push_str(&format!("X-Trailer-{i}: {}\r\n", "t".repeat(400)));
    }
    raw.push_str("\r\n");
    let mut conn = server.connect();
    let _ = conn.send_raw(raw.as_bytes());
    let reply = conn.read_response().expect("a response");
    assert_eq!(reply.status, 431, "{}", reply.text());
}

#[test]
fn ctrl_c_stops_a_busy_server() {
    let sb = Sandbox::new();
    let mut server = HttpServer::start(&sb, &[], &[]);
    let addr = server.addr();
    // A write first, so Ctrl-C asks the server to stop rather than ending
    // it outright.
    let mut conn = server.connect();
    let saved = conn.exchange(&modern(
        1,
        "tools/call",
        json!({"name": "mem_save_fact", "arguments": {"fact": "I like figs"}}),
    ));
    assert_eq!(saved.status, 200, "{}", saved.text());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let busy: Vec<_> = (0..4)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let request = Request::post(&rpc(1, "ping", json!({}))).to_bytes(addr.port());
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    // Connections fail once the server stops: that is the point.
                    let Ok(mut stream) = std::net::TcpStream::connect(addr) else {
                        std::thread::sleep(Duration::from_millis(10));
                        continue;
                    };
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                    let _ = std::io::Write::write_all(&mut stream, &request);
                    let mut reply = [0u8; 1024];
                    let _ = std::io::Read::read(&mut stream, &mut reply);
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signals a child process this test started.
    unsafe { libc::kill(server.pid() as i32, libc::SIGINT) };
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.running() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let stopped = !server.running();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for thread in busy {
        let _ = thread.join();
    }
    assert!(stopped, "the server was still serving 20 s after SIGINT");
}

#[test]
fn a_generated_token_is_masked_without_its_prefix_and_in_any_case() {
    let sb = Sandbox::new();
    sb.agentbox(&["memory_mcp", "token"]).assert().success();
    let token = std::fs::read_to_string(sb.home().join("local/mcp-token")).unwrap();
    let token = token.trim().to_string();
    let body = token.strip_prefix("sk-agentbox-").unwrap().to_string();
    let server = HttpServer::start(&sb, &[], &[]);
    let mut conn = server.connect();
    for (id, spelling) in [
        (1, body.clone()),
        (2, body.to_uppercase()),
        (3, format!("sk_agentbox_{}", body.replace('-', "_"))),
    ] {
        let turn = modern(
            id,
            "tools/call",
            json!({"name": "mem_save_turn", "arguments": {"role": "user", "content": format!("form body: {spelling} end")}}),
        )
        .bearer(&token);
        let reply = conn.exchange(&turn);
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
    drop(conn);
    drop(server);
    let probe = body[4..24].to_lowercase();
    for (path, text) in files_below(&sb.home().join("memory")) {
        assert!(
            !text.to_lowercase().contains(&probe),
            "{path} holds the token: {text}"
        );
    }
}

#[test]
fn allowed_origins_must_be_origins_null_and_star_never() {
    for bad in [
        "null",
        "*",
        "https://app.example.com/",
        "app.example.com",
        "https://a.example.com/path",
    ] {
        let sb = Sandbox::new();
        let config = sb.home().join("config.json");
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
        value["mcp"]["allowed_origins"] = json!([bad]);
        std::fs::write(&config, value.to_string()).unwrap();
        let refused = HttpServer::start_with(&sb, &["--http", "127.0.0.1:0"], &[])
            .expect_err(&format!("{bad} must keep the server from starting"));
        assert_eq!(refused.code, Some(2), "{bad}: {refused:?}");
        assert!(
            refused.stdout.contains("allowed_origins"),
            "{bad}: {refused:?}"
        );
    }
}

#[test]
fn a_secret_hidden_in_a_resource_uri_by_percent_escapes_comes_back_masked() {
    let sb = Sandbox::new();
    let server = HttpServer::start(&sb, &[], &[]);
    let secret = "abcdefghijklmnopqrstuvwxyz012345";
    let mut conn = server.connect();
    for uri in [
        format!("mem://search?q=sk%2D{secret}"),
        format!("mem://nope/sk%2D{secret}"),
    ] {
        let reply = conn.exchange(&modern(1, "resources/read", json!({"uri": uri})));
        assert!(!reply.text().contains(secret), "{}", reply.text());
    }
}
