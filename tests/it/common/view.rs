//! `agentbox view` under test: a guard that runs the server in a sandbox's
//! home (killed when the test ends), reads the URL envelope it prints first,
//! and a client that holds the cookie and sends what the view's own pages
//! send (the `Origin` of a form). Raw requests go through `common::http`.

use super::Sandbox;
use super::http::{Conn, PATIENCE, Request, Response};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::sync::mpsc::channel;

/// A running `agentbox view`; dropping it kills the server.
#[derive(Debug)]
pub struct View {
    pub child: Child,
    pub port: u16,
    /// The loopback address it listens on (`127.x.y.z`).
    pub ip: std::net::Ipv4Addr,
    pub key: String,
    /// The URL it printed (with the key).
    pub url: String,
}

impl View {
    /// `agentbox view --format json ARGS…` in the sandbox's home.
    pub fn start(sb: &Sandbox, args: &[&str]) -> View {
        let mut cmd = sb.std_command(super::bin());
        cmd.args(["view", "--format", "json", "--home"])
            .arg(sb.home())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().expect("spawn agentbox view");
        let stdout = child.stdout.take().expect("its stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(PATIENCE)
            .expect("agentbox view printed its URL");
        let envelope: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the first line is not an envelope ({e}): {line:?}"));
        assert_eq!(envelope["ok"], true, "{envelope}");
        let data = &envelope["data"];
        View {
            child,
            port: data["port"].as_u64().expect("port") as u16,
            ip: data["address"]
                .as_str()
                .and_then(|a| a.parse().ok())
                .expect("address"),
            key: data["key"].as_str().expect("key").to_string(),
            url: data["url"].as_str().expect("url").to_string(),
        }
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from((self.ip, self.port))
    }

    /// `IP:PORT`, the `Host` of its pages.
    pub fn host(&self) -> String {
        format!("{}:{}", self.ip, self.port)
    }

    /// `http://IP:PORT`, the `Origin` of its pages.
    pub fn origin(&self) -> String {
        format!("http://{}", self.host())
    }

    /// The cookie a browser holds after opening the URL.
    pub fn cookie(&self) -> String {
        format!("agentbox_view_{}={}", self.port, self.key)
    }

    /// One request on a fresh connection.
    /// (`Host` is this server's unless the request names one.)
    pub fn send(&self, request: &Request) -> Response {
        let mut request = request.clone().set("Connection", "close");
        if !request.bare
            && !request
                .headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("host"))
        {
            request = request.header("Host", &self.host());
        }
        Conn::open(self.addr()).exchange(&request)
    }

    /// `GET path` as the browser sends it once it holds the cookie.
    pub fn get(&self, path: &str) -> Response {
        self.send(&Request::new("GET", path).header("Cookie", &self.cookie()))
    }

    /// A form of ours posted to `path` (cookie, our Origin, urlencoded).
    pub fn post(&self, path: &str, fields: &[(&str, &str)]) -> Response {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        self.send(
            &Request::new("POST", path)
                .header("Cookie", &self.cookie())
                .header("Origin", &self.origin())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(body.join("&").into_bytes()),
        )
    }

    /// `GET path`, which must answer 200 with HTML: the body.
    pub fn page(&self, path: &str) -> String {
        let response = self.get(path);
        assert_eq!(response.status, 200, "GET {path}: {}", response.text());
        assert!(
            response
                .header("Content-Type")
                .is_some_and(|t| t.starts_with("text/html")),
            "GET {path}: {:?}",
            response.headers
        );
        response.text()
    }
}

impl Drop for View {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Percent-encodes a form value.
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
