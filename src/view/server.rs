//! The server: a listener on 127.0.0.1, a thread per connection (at most
//! [`MAX_CONNECTIONS`]), each request read with deadlines (`http::wire`),
//! judged (`guard`), routed to its page (`pages`) and answered with the
//! security headers. Ctrl-C ends the accept loop at its next poll.

use super::call::Caller;
use super::guard::{self, Guard, Verdict};
use super::page::{self, Cx, Reply, Request, decode_pairs};
use super::pages;
use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::http::wire::{Conn, ReadError, Response, Timeouts};
use crate::output::{Format, Outcome, Output};
use crate::tools::Ctx;
use serde_json::json;
use std::fmt::Write as _;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Connections served at once; more are answered 503 and closed.
const MAX_CONNECTIONS: usize = 64;
/// The largest form a page posts.
const MAX_FORM_BYTES: usize = 64 * 1024;
/// How long Ctrl-C waits for the requests being answered.
const STOP_PATIENCE: Duration = Duration::from_secs(10);
/// How often the accept loop looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

struct Shared {
    guard: Guard,
    caller: Arc<Caller>,
    clock: Clock,
    active: AtomicUsize,
    /// Requests being answered (a change among them finishes on Ctrl-C).
    busy: AtomicUsize,
}

/// Serves the home until Ctrl-C.
pub fn serve(ctx: &Ctx, home: &Home, port: u16, open: bool, format: Format) -> Result<Outcome> {
    let listener = bind(port)?;
    let (ip, port) = match listener.local_addr() {
        Ok(SocketAddr::V4(local)) => (*local.ip(), local.port()),
        _ => (Ipv4Addr::LOCALHOST, port),
    };
    let key = new_key()?;
    let url = format!("http://{ip}:{port}/?key={key}");
    let redactor = home.store.redactor().clone();
    crate::search::long_lived();
    crate::store::poll_interrupts();
    let shared = Arc::new(Shared {
        guard: Guard::new(key.clone(), ip, port),
        caller: Arc::new(Caller::new(
            home.root.clone(),
            ctx.clock,
            ctx.registry,
            redactor.clone(),
        )),
        clock: ctx.clock,
        active: AtomicUsize::new(0),
        busy: AtomicUsize::new(0),
    });
    // The doctor reads the whole home (seconds at a million turns): its
    // first run starts now, in the background; a small home's is done
    // before the URL is printed, so the first page has it.
    shared.caller.prime("doctor", &[], Duration::from_secs(2));
    let out = Output {
        format,
        style: ctx.style,
        quiet: ctx.quiet,
        verbose: 0,
    };
    let text = format!(
        "agentbox view: serving {} at\n  {url}\nopen it in a browser (the key in it is good for this run only); Ctrl-C stops it",
        home.root.display()
    );
    let data = json!({"url": url, "key": key, "address": ip.to_string(), "port": port, "home": home.root.display().to_string()});
    out.success(Outcome::new(data, text), &redactor);
    if open {
        // The browser's command line is visible to every local user: it
        // gets a key good for one exchange, not the run's key.
        let once = new_key()?;
        shared.guard.allow_once(&once);
        open_browser(&format!("http://{ip}:{port}/?once={once}"), &out, &redactor);
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::internal(format!("cannot poll the listener: {e}")))?;
    while !crate::store::interrupt_requested() {
        match listener.accept() {
            Ok((stream, _)) => admit(stream, &shared),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => std::thread::sleep(POLL),
        }
    }
    // No new connection waits in the backlog for a server that is leaving.
    drop(listener);
    // Requests already being answered (an Apply among them) finish first.
    let start = std::time::Instant::now();
    while shared.busy.load(Ordering::SeqCst) > 0 && start.elapsed() < STOP_PATIENCE {
        std::thread::sleep(POLL);
    }
    if format == Format::Text {
        out.announce(&redactor, "agentbox view: stopped");
    }
    Ok(Outcome::raw(String::new()))
}

/// A listener on a loopback address of its own: 127.x.y.z, random, where
/// the system routes all of 127.0.0.0/8 to loopback (Linux), else
/// 127.0.0.1. Browsers send a host's cookies to every port of it, so on
/// 127.0.0.1 any other local server the browser visits would receive the
/// view's cookie; on an address nobody else knows, none does.
fn bind(port: u16) -> Result<TcpListener> {
    let mut random = [0u8; 3];
    let own = getrandom::fill(&mut random).ok().map(|()| {
        // 127.0.0.1 itself and the .0 / .255 ends are left alone.
        Ipv4Addr::new(127, random[0], random[1], random[2].clamp(2, 254))
    });
    if cfg!(target_os = "linux")
        && let Some(ip) = own
        && let Ok(listener) = TcpListener::bind(SocketAddr::from((ip, port)))
    {
        return Ok(listener);
    }
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    TcpListener::bind(address).map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::AddrInUse {
            ErrorType::Conflict
        } else {
            ErrorType::Network
        };
        Error::new(kind, format!("cannot listen on {address}: {e}"))
            .with_hint("another program holds the port: pick another with --port, or leave it out for a free one")
    })
}

/// Whether the process at the other end of `stream` runs as this one's
/// user. On Linux the kernel says who owns each TCP socket
/// (`/proc/net/tcp`, the `uid` column): the client's socket is the line
/// whose local address is our peer and whose remote address is us. A
/// browser runs as the user who started the view; another user of the
/// machine — who can see the address (`ss -ltn`), listen beside it and so
/// receive the cookie a browser sends to every port of a host, or read a
/// key off a command line (`ps`) — is refused whatever it presents.
/// Elsewhere there is no such table, and the key alone guards.
fn same_user(stream: &TcpStream) -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let (Ok(SocketAddr::V4(peer)), Ok(SocketAddr::V4(local))) =
        (stream.peer_addr(), stream.local_addr())
    else {
        return false;
    };
    let Ok(table) = std::fs::read_to_string("/proc/net/tcp") else {
        return false;
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    owner(&table, peer, local) == Some(me)
}

/// The uid owning the socket `from` → `to` in a `/proc/net/tcp` table.
fn owner(table: &str, from: std::net::SocketAddrV4, to: std::net::SocketAddrV4) -> Option<u32> {
    // Addresses as the kernel prints them: the IPv4 word in host order, in
    // hex, then the port.
    let spell = |a: std::net::SocketAddrV4| {
        format!(
            "{:08X}:{:04X}",
            u32::from_ne_bytes(a.ip().octets()),
            a.port()
        )
    };
    let (from, to) = (spell(from), spell(to));
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.len() > 7 && fields[1] == from && fields[2] == to)
            .then(|| fields[7].parse().ok())?
    })
}

/// A fresh key: 24 random bytes, hex.
fn new_key() -> Result<String> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes)
        .map_err(|e| Error::internal(format!("the system's random generator failed: {e}")))?;
    Ok(bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    }))
}

fn open_browser(url: &str, out: &Output, redactor: &crate::redact::Redactor) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if started.is_err() {
        out.announce(
            redactor,
            &format!("warning: could not start {opener}: open the URL above by hand"),
        );
    }
}

fn timeouts() -> Timeouts {
    Timeouts {
        idle: Duration::from_secs(30),
        head: Duration::from_secs(10),
        body: Duration::from_secs(10),
        write: Duration::from_secs(10),
    }
}

fn admit(stream: TcpStream, shared: &Arc<Shared>) {
    let _ = stream.set_nonblocking(false);
    if !same_user(&stream) {
        // Another user's process (a listener that caught the cookie, a
        // script holding connections): closed before it can say anything.
        return;
    }
    if shared.active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
        shared.active.fetch_sub(1, Ordering::SeqCst);
        let mut conn = Conn::new(stream, timeouts());
        conn.respond(&plain(
            503,
            "too many connections: try again in a moment",
            true,
        ));
        return;
    }
    let shared = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name("view-conn".to_string())
        .spawn(move || {
            connection(Conn::new(stream, timeouts()), &shared);
            shared.active.fetch_sub(1, Ordering::SeqCst);
        });
    if spawned.is_err() {
        // The closure (and its count) was dropped with the stream.
        std::thread::sleep(POLL);
    }
}

fn connection(mut conn: Conn, shared: &Shared) {
    loop {
        let head = match conn.read_head() {
            Ok(Some(head)) => head,
            Ok(None) | Err(ReadError::Gone) => return,
            Err(ReadError::Status(status, message)) => {
                conn.respond(&plain(status, &message, true));
                return;
            }
        };
        let query = decode_pairs(&head.query);
        let verdict = shared.guard.judge(&head, &query);
        let response = match verdict {
            Verdict::Refuse(status, message) => {
                let mut response = plain(status, message, true);
                if status == 401 {
                    response.body = refused_page(message);
                    response.headers.retain(|(n, _)| *n != "Content-Type");
                    response
                        .headers
                        .push(("Content-Type", "text/html; charset=utf-8".to_string()));
                }
                conn.respond(&response);
                conn.close_after_refusal();
                return;
            }
            Verdict::Exchange { to } => {
                let mut response = redirect(&to);
                response
                    .headers
                    .push(("Set-Cookie", shared.guard.set_cookie()));
                response
            }
            Verdict::Pass => {
                let form = match read_form(&mut conn, &head) {
                    Ok(form) => form,
                    Err(ReadError::Gone) => return,
                    Err(ReadError::Status(status, message)) => {
                        conn.respond(&plain(status, &message, true));
                        return;
                    }
                };
                let request = Request {
                    method: head.method.clone(),
                    path: head.path.clone(),
                    query,
                    form,
                };
                shared.busy.fetch_add(1, Ordering::SeqCst);
                let response = answer(&request, shared);
                shared.busy.fetch_sub(1, Ordering::SeqCst);
                response
            }
        };
        let close = response.close || !head.keep_alive();
        if !conn.respond(&response) || close {
            return;
        }
    }
}

/// A POST's form: `application/x-www-form-urlencoded`, at most
/// [`MAX_FORM_BYTES`], with a `Content-Length`.
fn read_form(
    conn: &mut Conn,
    head: &crate::http::wire::Head,
) -> std::result::Result<Vec<(String, String)>, ReadError> {
    // Only a POST has a body, framed by its length alone: a request that
    // says otherwise is refused rather than read two ways.
    let length = head.text("content-length").unwrap_or("0");
    if head
        .one("transfer-encoding")
        .map_or(true, |te| te.is_some())
        || (head.method != "POST" && length != "0")
    {
        return Err(ReadError::Status(
            400,
            "a request here has no body but a POST's form, sent with a Content-Length".to_string(),
        ));
    }
    if head.method != "POST" {
        return Ok(Vec::new());
    }
    let typed = head.text("content-type").is_some_and(|t| {
        t.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .eq_ignore_ascii_case("application/x-www-form-urlencoded")
    });
    if !typed {
        return Err(ReadError::Status(
            415,
            "a change is sent as a form".to_string(),
        ));
    }
    let length = head
        .text("content-length")
        .and_then(|l| l.parse::<usize>().ok())
        .ok_or_else(|| ReadError::Status(411, "a form needs a Content-Length".to_string()))?;
    if length > MAX_FORM_BYTES {
        return Err(crate::http::wire::too_large(length, MAX_FORM_BYTES));
    }
    let body = conn.read_body(length)?;
    Ok(decode_pairs(&String::from_utf8_lossy(&body)))
}

/// Routes a request that passed the guard, and renders what it answers.
fn answer(request: &Request, shared: &Shared) -> Response {
    let Some(handler) = pages::route(&request.method, &request.path) else {
        let known = pages::route("GET", &request.path).is_some()
            || pages::route("POST", &request.path).is_some();
        return if known {
            plain(405, "this page does not take that method", false)
        } else {
            let mut body = super::html::Html::new();
            body.elem("p", &[], "There is no such page here.").link(
                "/",
                &[],
                "Back to the overview",
            );
            html(404, &page::layout("", "Not found", &body.into_string()))
        };
    };
    let cx = Cx {
        req: request,
        caller: &shared.caller,
        clock: shared.clock,
    };
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&cx)))
        .unwrap_or_else(|_| {
            Reply::error(
                "",
                &Error::internal("the page failed to render (a bug: please report it)"),
            )
        });
    match reply {
        Reply::Page {
            status,
            section,
            title,
            body,
        } => {
            let document = page::layout(section, &title, &body.into_string());
            // Everything on the page passed through the redactor.
            let document = shared.caller.redactor().redact(&document).into_owned();
            html(status, &document)
        }
        Reply::Redirect(to) => redirect(&to),
        Reply::Asset { content_type, body } => {
            let mut response = with_headers(200, body.to_string());
            response
                .headers
                .push(("Content-Type", content_type.to_string()));
            response
        }
    }
}

fn with_headers(status: u16, body: String) -> Response {
    Response {
        status,
        headers: guard::headers(),
        body,
        close: false,
    }
}

fn html(status: u16, document: &str) -> Response {
    let mut response = with_headers(status, document.to_string());
    response
        .headers
        .push(("Content-Type", "text/html; charset=utf-8".to_string()));
    response
}

fn plain(status: u16, message: &str, close: bool) -> Response {
    let mut response = with_headers(status, format!("{message}\n"));
    response
        .headers
        .push(("Content-Type", "text/plain; charset=utf-8".to_string()));
    response.close = close;
    response
}

fn redirect(to: &str) -> Response {
    let mut response = with_headers(303, String::new());
    response.headers.push(("Location", to.to_string()));
    response
}

fn refused_page(message: &str) -> String {
    let mut body = super::html::Html::new();
    body.elem("p", &[("class", "message")], message).elem(
        "p",
        &[],
        "The address agentbox view printed when it started holds a key made for that run; open that address again.",
    );
    page::layout("", "This view needs its key", &body.into_string())
}

#[cfg(test)]
mod tests {
    use super::owner;

    #[test]
    fn the_owner_of_a_socket_is_read_from_the_kernel_s_table() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1\n\
           1: 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 2 1\n";
        let client = "127.0.0.1:54321".parse().unwrap();
        let server = "127.0.0.1:8080".parse().unwrap();
        if cfg!(target_endian = "little") {
            assert_eq!(owner(table, client, server), Some(1000));
            assert_eq!(owner(table, server, client), None);
        }
    }

    #[test]
    fn a_connection_of_our_own_is_ours() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        assert!(super::same_user(&server));
        drop(client);
    }
}
