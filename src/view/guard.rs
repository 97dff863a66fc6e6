//! Who may see the pages. The server listens on 127.0.0.1 only; on top of
//! that a request must:
//! - name this server in `Host` (`127.0.0.1:PORT` or `localhost:PORT`), so a
//!   page on another name that resolves here (DNS rebinding) gets nothing;
//! - come from no page or from ours (`Origin`), and a write (POST) must say
//!   it does, so another site cannot submit our forms;
//! - carry this run's key: in the URL once (`?key=…`, exchanged for a cookie
//!   and dropped from the address by a redirect), then in the
//!   `HttpOnly; SameSite=Strict` cookie named after the port (cookies are
//!   not kept apart by port).
//!
//! Every response carries the Content-Security-Policy below: no script,
//! nothing from elsewhere, no framing, forms to ourselves only.

use crate::http::wire::Head;
use sha2::{Digest, Sha256};

/// The policy of every response.
pub const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; \
                       form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The headers every response carries besides the policy.
pub fn headers() -> Vec<(&'static str, String)> {
    vec![
        ("Content-Security-Policy", CSP.to_string()),
        ("X-Frame-Options", "DENY".to_string()),
        // Not `no-referrer`: under it a browser sends `Origin: null` with
        // a form's POST (Fetch, "append a request Origin header"), and the
        // Origin check above refuses every click on Apply or Snooze.
        // `same-origin` sends our own origin to ourselves and nothing to
        // any other site.
        ("Referrer-Policy", "same-origin".to_string()),
        ("Cross-Origin-Opener-Policy", "same-origin".to_string()),
        ("Cross-Origin-Resource-Policy", "same-origin".to_string()),
    ]
}

/// This run's key and where the server listens.
#[derive(Debug)]
pub struct Guard {
    key: String,
    digest: [u8; 32],
    port: u16,
    /// The address the server listens on (`127.x.y.z`).
    ip: std::net::Ipv4Addr,
    /// The one-time key `--open` hands the browser (its command line is
    /// visible to every local user): taken once, then gone.
    once: std::sync::Mutex<Option<[u8; 32]>>,
}

/// What a request may do.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Serve it.
    Pass,
    /// It brought the key in its URL: set the cookie and send it to `to`.
    Exchange { to: String },
    /// Refuse it with this status and message.
    Refuse(u16, &'static str),
}

impl Guard {
    pub fn new(key: String, ip: std::net::Ipv4Addr, port: u16) -> Guard {
        let digest = Sha256::digest(key.as_bytes()).into();
        Guard {
            key,
            digest,
            port,
            ip,
            once: std::sync::Mutex::new(None),
        }
    }

    /// Accepts `?once=ONCE` in place of the key, a single time.
    pub fn allow_once(&self, once: &str) {
        let digest = Sha256::digest(once.as_bytes()).into();
        *self.once.lock().unwrap_or_else(|p| p.into_inner()) = Some(digest);
    }

    /// Whether `presented` is the one-time key, which is then spent.
    fn take_once(&self, presented: &[u8]) -> bool {
        let mut once = self.once.lock().unwrap_or_else(|p| p.into_inner());
        let digest: [u8; 32] = Sha256::digest(presented).into();
        let matches = once.is_some_and(|expected| same(&expected, &digest));
        if matches {
            *once = None;
        }
        matches
    }

    /// The cookie's name: one per port, so two views do not overwrite each
    /// other's.
    pub fn cookie_name(&self) -> String {
        format!("agentbox_view_{}", self.port)
    }

    /// The `Set-Cookie` value that the key's exchange sends.
    pub fn set_cookie(&self) -> String {
        format!(
            "{}={}; HttpOnly; SameSite=Strict; Path=/",
            self.cookie_name(),
            self.key
        )
    }

    fn matches(&self, presented: &[u8]) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented).into();
        same(&digest, &self.digest)
    }

    /// The verdict on a request (`query`: its decoded query pairs).
    pub fn judge(&self, head: &Head, query: &[(String, String)]) -> Verdict {
        if !self.host_ok(head) {
            return Verdict::Refuse(421, "this server answers to 127.0.0.1 and localhost only");
        }
        match head.one("origin") {
            Err(()) => return Verdict::Refuse(403, "more than one Origin header"),
            Ok(Some(origin)) if !self.origin_ok(origin) => {
                return Verdict::Refuse(403, "requests from other sites are refused");
            }
            Ok(None) if head.method != "GET" && head.method != "HEAD" => {
                return Verdict::Refuse(403, "a change must come from the view's own page");
            }
            _ => {}
        }
        if head
            .text("sec-fetch-site")
            .is_some_and(|site| !matches!(site, "same-origin" | "none") && head.method != "GET")
        {
            return Verdict::Refuse(403, "a change must come from the view's own page");
        }
        let keyed: Vec<(&String, &String)> = query
            .iter()
            .filter(|(k, _)| k == "key" || k == "once")
            .map(|(k, v)| (k, v))
            .collect();
        if let [(name, key)] = keyed.as_slice() {
            let good = head.method == "GET"
                && match name.as_str() {
                    "key" => self.matches(key.as_bytes()),
                    _ => self.take_once(key.as_bytes()),
                };
            if good {
                let rest: Vec<(&str, &str)> = query
                    .iter()
                    .filter(|(k, _)| k != "key" && k != "once")
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                // Only a path of ours: never `//elsewhere`.
                let ours = head.path.starts_with('/')
                    && !head.path.starts_with("//")
                    && !head.path.contains('\\')
                    && !head.path.to_ascii_lowercase().contains("%5c")
                    && !head.path.to_ascii_lowercase().starts_with("/%2f");
                let mut to = if ours {
                    head.path.clone()
                } else {
                    "/".to_string()
                };
                for (i, (name, value)) in rest.iter().enumerate() {
                    to.push(if i == 0 { '?' } else { '&' });
                    to.push_str(&super::html::encode(name));
                    to.push('=');
                    to.push_str(&super::html::encode(value));
                }
                return Verdict::Exchange { to };
            }
            return Verdict::Refuse(
                401,
                "this key is not the one this run of agentbox view printed",
            );
        }
        if self.cookie_ok(head) {
            Verdict::Pass
        } else {
            Verdict::Refuse(
                401,
                "open the URL agentbox view printed (it holds this run's key)",
            )
        }
    }

    /// `IP:PORT`, and `localhost:PORT` when the address is 127.0.0.1 (the
    /// only one that name reaches).
    fn names(&self) -> Vec<String> {
        let (ip, port) = (self.ip, self.port);
        let mut names = vec![format!("{ip}:{port}")];
        if ip == std::net::Ipv4Addr::LOCALHOST {
            names.push(format!("localhost:{port}"));
        }
        names
    }

    fn host_ok(&self, head: &Head) -> bool {
        let Ok(Some(host)) = head.one("host") else {
            return false;
        };
        self.names()
            .iter()
            .any(|name| name.as_bytes().eq_ignore_ascii_case(host))
    }

    fn origin_ok(&self, origin: &[u8]) -> bool {
        self.names()
            .iter()
            .map(|name| format!("http://{name}"))
            .any(|ours| ours.as_bytes().eq_ignore_ascii_case(origin))
    }

    fn cookie_ok(&self, head: &Head) -> bool {
        let name = self.cookie_name();
        head.headers
            .iter()
            .filter(|(k, _)| k == "cookie")
            .flat_map(|(_, v)| v.split(|&b| b == b';'))
            .filter_map(|pair| {
                let pair = pair.trim_ascii();
                let eq = pair.iter().position(|&b| b == b'=')?;
                (pair[..eq] == *name.as_bytes()).then(|| &pair[eq + 1..])
            })
            .any(|value| self.matches(value))
    }
}

/// Equal digests, compared without stopping at the first difference.
fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(method: &str, headers: &[(&str, &str)]) -> Head {
        Head {
            method: method.to_string(),
            path: "/memory".to_string(),
            query: String::new(),
            http11: true,
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
                .collect(),
        }
    }

    fn key(value: &str) -> Vec<(String, String)> {
        vec![
            ("key".to_string(), value.to_string()),
            ("q".to_string(), "a b".to_string()),
        ]
    }

    #[test]
    fn the_key_is_exchanged_once_then_the_cookie_is_needed() {
        let guard = Guard::new("k3y".to_string(), std::net::Ipv4Addr::LOCALHOST, 4000);
        let host = ("host", "127.0.0.1:4000");
        assert_eq!(
            guard.judge(&head("GET", &[host]), &key("k3y")),
            Verdict::Exchange {
                to: "/memory?q=a%20b".to_string()
            }
        );
        assert!(matches!(
            guard.judge(&head("GET", &[host]), &key("nope")),
            Verdict::Refuse(401, _)
        ));
        assert!(matches!(
            guard.judge(&head("GET", &[host]), &[]),
            Verdict::Refuse(401, _)
        ));
        let cookie = ("cookie", "other=1; agentbox_view_4000=k3y");
        assert_eq!(
            guard.judge(&head("GET", &[host, cookie]), &[]),
            Verdict::Pass
        );
        let wrong_port = ("cookie", "agentbox_view_4001=k3y");
        assert!(matches!(
            guard.judge(&head("GET", &[host, wrong_port]), &[]),
            Verdict::Refuse(401, _)
        ));
    }

    #[test]
    fn other_names_and_sites_are_refused() {
        let guard = Guard::new("k".to_string(), std::net::Ipv4Addr::LOCALHOST, 4000);
        let cookie = ("cookie", "agentbox_view_4000=k");
        for host in [
            "evil.example:4000",
            "127.0.0.1:4001",
            "127.0.0.1",
            "localhost:4000.evil",
        ] {
            assert!(
                matches!(
                    guard.judge(&head("GET", &[("host", host), cookie]), &[]),
                    Verdict::Refuse(421, _)
                ),
                "{host}"
            );
        }
        let host = ("host", "localhost:4000");
        for origin in [
            "http://evil.example",
            "null",
            "http://127.0.0.1:4001",
            "https://127.0.0.1:4000",
        ] {
            assert!(
                matches!(
                    guard.judge(&head("POST", &[host, cookie, ("origin", origin)]), &[]),
                    Verdict::Refuse(403, _)
                ),
                "{origin}"
            );
        }
        assert!(matches!(
            guard.judge(&head("POST", &[host, cookie]), &[]),
            Verdict::Refuse(403, _)
        ));
        let ours = ("origin", "http://localhost:4000");
        assert_eq!(
            guard.judge(&head("POST", &[host, cookie, ours]), &[]),
            Verdict::Pass
        );
        let cross = ("sec-fetch-site", "cross-site");
        assert!(matches!(
            guard.judge(&head("POST", &[host, cookie, ours, cross]), &[]),
            Verdict::Refuse(403, _)
        ));
    }
}
