//! `agentbox view` (issue 34): the server's rules against the real binary —
//! the URL envelope, the key exchanged for an `HttpOnly; SameSite=Strict`
//! cookie, requests without it refused, `Host` and `Origin` checked (DNS
//! rebinding, other sites), the Content-Security-Policy and the other
//! headers on every response, the limits on what a request may send,
//! Ctrl-C, and hostile memory content rendered inert. The pages'
//! contents are tested in view_memory, view_actions and view_pages.

use crate::common;

use common::Sandbox;
use common::http::{Conn, Request};
use common::view::View;

/// A turn saying `content` in session `s`.
fn record(sb: &Sandbox, session: &str, content: &str) {
    sb.agentbox(&[
        "track",
        "record",
        "--session",
        session,
        "--content",
        content,
    ])
    .assert()
    .success();
}

#[test]
fn the_url_envelope_names_a_loopback_port_and_a_fresh_key() {
    let sb = Sandbox::new();
    let one = View::start(&sb, &[]);
    let two = View::start(&sb, &[]);
    assert!(
        one.url.starts_with(&format!("http://{}/?key=", one.host())),
        "{}",
        one.url
    );
    assert!(one.ip.is_loopback());
    // On Linux each run has a loopback address of its own, so other local
    // servers never receive its cookie (browsers scope cookies by host,
    // not by port).
    #[cfg(target_os = "linux")]
    assert_ne!(one.ip, two.ip, "{} {}", one.ip, two.ip);
    assert!(one.url.ends_with(&one.key));
    assert_eq!(one.key.len(), 48);
    assert!(one.key.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_ne!(one.key, two.key, "every run makes its own key");
    assert_ne!(one.port, two.port);
}

#[test]
fn the_key_becomes_an_http_only_strict_cookie_and_leaves_the_address() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    let path = format!("/memory?key={}&page=2", view.key);
    let response = view.send(&Request::new("GET", &path));
    assert_eq!(response.status, 303, "{}", response.text());
    assert_eq!(response.header("Location"), Some("/memory?page=2"));
    let cookie = response.header("Set-Cookie").expect("a cookie");
    assert_eq!(
        cookie,
        format!(
            "agentbox_view_{}={}; HttpOnly; SameSite=Strict; Path=/",
            view.port, view.key
        )
    );
    // With the cookie the page is served.
    assert!(view.page("/").contains("data-page=\"overview\""));
}

#[test]
fn requests_without_the_key_or_with_a_wrong_one_are_refused() {
    let sb = Sandbox::new();
    record(&sb, "s", "the secret plan is blue");
    let view = View::start(&sb, &[]);
    for request in [
        Request::new("GET", "/"),
        Request::new("GET", "/memory"),
        Request::new("GET", "/assets/style.css"),
        Request::new("GET", "/?key=0000"),
        Request::new("GET", "/").header("Cookie", &format!("agentbox_view_{}=wrong", view.port)),
        // the right key under another port's cookie name
        Request::new("GET", "/").header("Cookie", &format!("agentbox_view_1={}", view.key)),
    ] {
        let response = view.send(&request);
        assert_eq!(response.status, 401, "{request:?}: {}", response.text());
        assert!(!response.text().contains("blue"));
        assert!(response.header("Set-Cookie").is_none());
    }
    // A key sent in a POST's URL is not exchanged.
    let response = view.send(
        &Request::new("POST", &format!("/?key={}", view.key)).header("Origin", &view.origin()),
    );
    assert_eq!(response.status, 401);
}

#[test]
fn other_host_names_are_refused_dns_rebinding() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{}", view.port),
        format!("{}:{}", view.ip, view.port + 1),
        view.ip.to_string(),
        format!("127.0.0.1:{}", view.port),
        format!("localhost:{}.evil.example", view.port),
    ] {
        let response = view.send(
            &Request::new("GET", "/")
                .header("Host", &host)
                .header("Cookie", &view.cookie()),
        );
        assert_eq!(response.status, 421, "Host {host}");
    }
    let response = view.send(
        &Request::new("GET", "/")
            .header("Host", &view.host().to_uppercase())
            .header("Cookie", &view.cookie()),
    );
    assert_eq!(response.status, 200);
    let twice = view.send(
        &Request::new("GET", "/")
            .bare()
            .header("Host", &view.host())
            .header("Host", "evil.example")
            .header("Cookie", &view.cookie()),
    );
    assert_eq!(twice.status, 421);
}

#[test]
fn forms_from_other_sites_or_without_an_origin_are_refused() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    let form = |origin: Option<&str>| {
        let mut request = Request::new("POST", "/plans/reminder/done")
            .header("Cookie", &view.cookie())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(b"id=x".to_vec());
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        view.send(&request)
    };
    for origin in [
        Some("http://evil.example"),
        Some("null"),
        Some("https://127.0.0.1"),
        None,
    ] {
        assert_eq!(form(origin).status, 403, "{origin:?}");
    }
    let cross = view.send(
        &Request::new("POST", "/plans/reminder/done")
            .header("Cookie", &view.cookie())
            .header("Origin", &view.origin())
            .header("Sec-Fetch-Site", "cross-site")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(b"id=x".to_vec()),
    );
    assert_eq!(cross.status, 403);
    // A GET from another site's page (a link or an image) is refused too.
    let linked = view.send(
        &Request::new("GET", "/")
            .header("Cookie", &view.cookie())
            .header("Origin", "http://evil.example"),
    );
    assert_eq!(linked.status, 403);
}

#[test]
fn every_response_carries_the_policy_and_no_sniffing() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    for response in [
        view.get("/"),
        view.get("/memory"),
        view.get("/assets/style.css"),
        view.get("/no/such/page"),
        view.send(&Request::new("GET", "/")),
    ] {
        let csp = response
            .header("Content-Security-Policy")
            .expect("a policy");
        for directive in [
            "default-src 'none'",
            "style-src 'self'",
            "img-src 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ] {
            assert!(csp.contains(directive), "{csp}");
        }
        assert!(
            !csp.contains("script-src"),
            "no script is allowed at all: {csp}"
        );
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(response.header("X-Content-Type-Options"), Some("nosniff"));
        assert_eq!(response.header("X-Frame-Options"), Some("DENY"));
        assert_eq!(response.header("Referrer-Policy"), Some("same-origin"));
        assert_eq!(response.header("Cache-Control"), Some("no-store"));
    }
}

#[test]
fn assets_are_embedded_and_unknown_pages_are_404() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    let css = view.get("/assets/style.css");
    assert_eq!(css.status, 200);
    assert_eq!(css.header("Content-Type"), Some("text/css; charset=utf-8"));
    assert!(css.text().contains("prefers-color-scheme: dark"));
    let icon = view.get("/assets/icon.svg");
    assert_eq!(icon.header("Content-Type"), Some("image/svg+xml"));
    let missing = view.get("/etc/passwd");
    assert_eq!(missing.status, 404);
    assert!(missing.text().contains("There is no such page here."));
    let traversal = view.get("/assets/../../config.json");
    assert_eq!(traversal.status, 404);
    let wrong_method = view.send(
        &Request::new("POST", "/")
            .header("Cookie", &view.cookie())
            .header("Origin", &view.origin())
            .header("Content-Type", "application/x-www-form-urlencoded"),
    );
    assert_eq!(wrong_method.status, 405);
}

#[test]
fn a_form_must_be_urlencoded_and_small() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    let post = |content_type: &str, body: Vec<u8>| {
        view.send(
            &Request::new("POST", "/plans/reminder/done")
                .header("Cookie", &view.cookie())
                .header("Origin", &view.origin())
                .header("Content-Type", content_type)
                .body(body),
        )
    };
    assert_eq!(post("application/json", b"{}".to_vec()).status, 415);
    assert_eq!(
        post("application/x-www-form-urlencoded", vec![b'a'; 70_000]).status,
        413
    );
}

#[test]
fn memory_content_is_shown_as_inert_text() {
    let sb = Sandbox::new();
    record(
        &sb,
        "s",
        "<script>alert(1)</script> <a href=\"javascript:alert(2)\">x</a> \u{202E}evil \u{1b}[31mred",
    );
    let view = View::start(&sb, &[]);
    let overview = view.page("/");
    let list = view.page("/memory");
    for body in [&overview, &list] {
        assert!(!body.contains("<script"), "{body}");
        assert!(!body.contains("href=\"javascript"), "{body}");
        assert!(!body.contains('\u{202E}'));
        assert!(!body.contains('\u{1b}'));
    }
    assert!(
        list.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{list}"
    );
    assert!(list.contains("⟨U+202E⟩evil"));
    assert!(list.contains("⟨U+001B⟩[31mred"));
}

#[test]
fn secrets_in_memory_never_reach_the_page() {
    let sb = Sandbox::new();
    let secret = "AKIAQWERTYUIOPASDFGH";
    record(&sb, "s", &format!("my key is {secret} keep it"));
    let view = View::start(&sb, &[]);
    for path in ["/", "/memory"] {
        let body = view.page(path);
        assert!(!body.contains(secret), "{path}: {body}");
    }
}

#[test]
fn a_request_that_never_finishes_does_not_block_others() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    let mut slow = Conn::open(view.addr());
    slow.send_raw(b"GET / HTTP/1.1\r\nHost: 127.0.0.1").unwrap();
    assert_eq!(view.get("/").status, 200);
    drop(slow);
}

#[test]
fn the_port_in_use_is_a_conflict_with_a_hint() {
    let sb = Sandbox::new();
    // Another program listening on every address of the port.
    let taken = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = sb
        .agentbox(&["view", "--port", &port, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let envelope: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["error"]["type"], "conflict");
    assert!(
        envelope["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("--port")
    );
}

#[test]
fn ctrl_c_stops_it_cleanly() {
    let sb = Sandbox::new();
    let mut view = View::start(&sb, &[]);
    assert_eq!(view.get("/").status, 200);
    // SAFETY: signalling our own child.
    unsafe { libc::kill(view.child.id() as i32, libc::SIGINT) };
    let status = view.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(
        std::net::TcpStream::connect(view.addr()).is_err(),
        "the port is closed"
    );
}

#[test]
fn open_hands_the_browser_a_key_good_for_one_exchange() {
    use std::io::BufRead;
    let sb = Sandbox::new();
    // A stand-in for xdg-open that writes down the URL it was given.
    let bin = sb.path().join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let opened = sb.path().join("opened.txt");
    let script = bin.join("xdg-open");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nprintf '%s' \"$1\" > '{}'\n", opened.display()),
    )
    .unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut std::fs::metadata(&script).unwrap().permissions(),
        0o755,
    );
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = sb
        .std_command(common::bin())
        .args(["view", "--open", "--format", "json", "--home"])
        .arg(sb.home())
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let envelope: serde_json::Value = serde_json::from_str(&line).unwrap();
    let key = envelope["data"]["key"].as_str().unwrap().to_string();
    let port = envelope["data"]["port"].as_u64().unwrap() as u16;
    common::wait_for(
        "xdg-open to run",
        std::time::Duration::from_secs(60),
        || opened.exists() && !std::fs::read_to_string(&opened).unwrap().is_empty(),
    );
    let url = std::fs::read_to_string(&opened).unwrap();
    assert!(
        !url.contains(&key),
        "the run's key is not on a command line: {url}"
    );
    let target = url.split_once(&format!(":{port}")).unwrap().1.to_string();
    assert!(target.starts_with("/?once="), "{url}");
    let ip: std::net::Ipv4Addr = envelope["data"]["address"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let addr = std::net::SocketAddr::from((ip, port));
    let host = format!("{ip}:{port}");
    let first = Conn::open(addr).exchange(
        &Request::new("GET", &target)
            .header("Host", &host)
            .header("Connection", "close"),
    );
    assert_eq!(first.status, 303);
    assert!(first.header("Set-Cookie").is_some_and(|c| c.contains(&key)));
    let again = Conn::open(addr).exchange(
        &Request::new("GET", &target)
            .header("Host", &host)
            .header("Connection", "close"),
    );
    assert_eq!(again.status, 401, "the one-time key is spent");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn the_exchange_redirects_only_to_a_path_of_ours() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    for path in [
        "/\\evil.example",
        "//evil.example",
        "/%5Cevil.example",
        "/%2F%2Fevil.example",
    ] {
        let response = view.send(&Request::new("GET", &format!("{path}?key={}", view.key)));
        assert_eq!(response.status, 303, "{path}");
        assert_eq!(response.header("Location"), Some("/"), "{path}");
    }
}

#[test]
fn a_request_framed_two_ways_or_a_get_with_a_body_is_refused() {
    let sb = Sandbox::new();
    let view = View::start(&sb, &[]);
    let both = view.send(
        &Request::new("POST", "/plans/reminder/done")
            .header("Cookie", &view.cookie())
            .header("Origin", &view.origin())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Transfer-Encoding", "chunked")
            .body(b"4\r\nid=x\r\n0\r\n\r\n".to_vec()),
    );
    assert_eq!(both.status, 400, "{}", both.text());
    let get = view.send(
        &Request::new("GET", "/")
            .header("Cookie", &view.cookie())
            .body(b"GET /x HTTP/1.1\r\n\r\n".to_vec()),
    );
    assert_eq!(get.status, 400, "{}", get.text());
}

#[test]
#[ignore = "needs root (a client run as the user nobody); run with --include-ignored, as .ci/run does"]
fn another_user_of_the_machine_is_refused_even_with_the_cookie() {
    use std::os::unix::process::CommandExt;
    let sb = Sandbox::new();
    record(&sb, "s", "the secret plan is blue");
    let view = View::start(&sb, &[]);
    // SAFETY: geteuid has no preconditions.
    assert_eq!(unsafe { libc::geteuid() }, 0, "this test runs as root");
    let client = "import socket,sys\n\
                  s=socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)\n\
                  s.sendall(('GET / HTTP/1.1\\r\\nHost: %s:%s\\r\\nCookie: %s\\r\\nConnection: close\\r\\n\\r\\n' % (sys.argv[1], sys.argv[2], sys.argv[3])).encode())\n\
                  data=b''\n\
                  while True:\n    try: c=s.recv(65536)\n    except ConnectionResetError: c=b''\n    if not c: break\n    data+=c\n\
                  print(len(data), data[:12].decode('latin1'))\n";
    let run = |uid: u32| {
        let out = std::process::Command::new("python3")
            .args([
                "-c",
                client,
                &view.ip.to_string(),
                &view.port.to_string(),
                &view.cookie(),
            ])
            .uid(uid)
            .gid(uid)
            .output()
            .expect("python3");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run(65534).trim(),
        "0",
        "nobody's connection is closed unanswered"
    );
    assert!(
        run(0).contains("HTTP/1.1 200"),
        "the user's own client is served"
    );
}

#[test]
fn a_crafted_link_cannot_claim_a_change_that_did_not_happen() {
    let sb = Sandbox::new();
    let added = common::ok_data(&mut sb.agentbox(&[
        "proactive",
        "add",
        "Renew the cert",
        "--format",
        "json",
    ]));
    let id = added["item"]["id"].as_str().unwrap().to_string();
    let view = View::start(&sb, &[]);
    for done in ["done", "dismissed", "snoozed"] {
        let page = view.page(&format!("/plans?done={done}&id={id}"));
        assert!(!page.contains("class=\"flash\""), "{done}: {page}");
    }
    sb.agentbox(&["proactive", "done", &id]).assert().success();
    let page = view.page(&format!("/plans?done=done&id={id}"));
    assert!(page.contains(&format!("Marked {id} done.")), "{page}");
}
