//! Real headless Chromium (Debian's `chromium` package) driven through its
//! DevTools protocol, for the browser tests of `agentbox view`
//! (tests/it/view_browser.rs).
//!
//! The protocol goes over `--remote-debugging-pipe` (the transport
//! Playwright uses): Chromium reads commands from its fd 3 and writes
//! replies and events to its fd 4, each a JSON text ended by a NUL byte. No
//! port, no WebSocket, no crate: two pipes and serde_json. Each browser gets
//! a fresh profile in a temp dir and is killed (its whole process group)
//! when dropped, passing or not.
//!
//! Every wait is bounded by [`PATIENCE`] and waits for something (a reply,
//! an event, a condition in the page), never for a fixed time.

use super::http::PATIENCE;
use serde_json::{Value, json};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The program the tests run: Debian's launcher, or the one named by
/// `AGENTBOX_TEST_CHROMIUM`.
fn program() -> String {
    std::env::var("AGENTBOX_TEST_CHROMIUM").unwrap_or_else(|_| "chromium".to_string())
}

/// A running Chromium with one page (tab) attached.
#[derive(Debug)]
pub struct Browser {
    child: Child,
    to_chromium: File,
    from_chromium: Receiver<Value>,
    next_id: u64,
    /// The page's DevTools session.
    session: String,
    /// Every event received so far, in order (page and browser).
    pub events: Vec<Value>,
    profile: tempfile::TempDir,
}

/// A pipe whose two ends are above fd 9 and close on exec: (read, write).
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` is a valid array of two ints, as pipe2(2) requires.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    let high = |fd: RawFd| {
        // SAFETY: fcntl(2) on a descriptor this function just opened.
        let moved = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
        assert!(moved >= 10, "F_DUPFD: {}", std::io::Error::last_os_error());
        // SAFETY: `fd` is ours (from pipe2 above) and closed once, here.
        unsafe { libc::close(fd) };
        // SAFETY: `moved` is a fresh descriptor owned by nobody else.
        unsafe { OwnedFd::from_raw_fd(moved) }
    };
    (high(fds[0]), high(fds[1]))
}

impl Browser {
    /// Starts headless Chromium and opens one blank page; fails the test
    /// (never skips it) when Chromium is not installed.
    pub fn launch() -> Browser {
        let profile = tempfile::tempdir().expect("a temp dir for the profile");
        // Chromium reads our commands from fd 3 and writes to fd 4.
        let (commands_read, commands_write) = pipe();
        let (replies_read, replies_write) = pipe();
        let (child_in, child_out) = {
            use std::os::fd::AsRawFd;
            (commands_read.as_raw_fd(), replies_write.as_raw_fd())
        };
        let log = File::create(profile.path().join("chromium.log")).expect("chromium.log");
        let mut cmd = Command::new(program());
        cmd.args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--remote-debugging-pipe",
            "--no-first-run",
            "--no-default-browser-check",
            "--no-proxy-server",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--mute-audio",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
            "--window-size=1280,800",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        // Its own process group, so that dropping the browser ends the
        // renderers and helpers with it.
        .process_group(0);
        // SAFETY: between fork and exec only dup2(2) runs, which is
        // async-signal-safe; the descriptors are open (held by this
        // function) and above 9, so neither target (3, 4) is one of them.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(child_in, 3) < 0 || libc::dup2(child_out, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap_or_else(|e| {
            panic!(
                "cannot start `{}` ({e}): the browser tests need Chromium \
                 (Debian package `chromium`; tools/test-setup.sh installs it, \
                 or name one with AGENTBOX_TEST_CHROMIUM)",
                program()
            )
        });
        // The child holds its ends now; ours must close so that its exit
        // ends our reads.
        drop(commands_read);
        drop(replies_write);

        let (tx, rx) = channel();
        let mut replies = File::from(replies_read);
        std::thread::spawn(move || {
            let mut pending = Vec::new();
            let mut buf = [0u8; 64 * 1024];
            loop {
                let n = match replies.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                pending.extend_from_slice(&buf[..n]);
                while let Some(end) = pending.iter().position(|&b| b == 0) {
                    let message: Vec<u8> = pending.drain(..=end).collect();
                    let value: Value = serde_json::from_slice(&message[..end])
                        .unwrap_or_else(|e| panic!("Chromium sent something not JSON: {e}"));
                    if tx.send(value).is_err() {
                        return;
                    }
                }
            }
        });
        let mut browser = Browser {
            child,
            to_chromium: File::from(commands_write),
            from_chromium: rx,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            profile,
        };
        let target = browser.send(None, "Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().expect("targetId").to_string();
        let attached = browser.send(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        for domain in ["Page", "Runtime", "Network", "Log"] {
            browser.call(&format!("{domain}.enable"), json!({}));
        }
        browser.viewport(1280, 800, false);
        browser
    }

    /// What Chromium wrote to stderr so far (for failure messages).
    pub fn log(&self) -> String {
        let text =
            std::fs::read_to_string(self.profile.path().join("chromium.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// Sends one command (to the page's session, or the browser's when
    /// `session` is None) and returns its result; an error reply fails
    /// the test.
    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).expect("serialize");
        bytes.push(0);
        if let Err(e) = self.to_chromium.write_all(&bytes) {
            panic!("Chromium stopped reading ({e}); its log:\n{}", self.log());
        }
        let reply = self.receive(&format!("the reply to {method}"), |m| m["id"] == id);
        if let Some(error) = reply.get("error") {
            panic!(
                "{method} {params}: Chromium answered {error}",
                params = message["params"]
            );
        }
        reply["result"].clone()
    }

    /// Reads messages until one satisfies `wanted`, keeping every event
    /// in [`Browser::events`]; fails the test after [`PATIENCE`].
    fn receive(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_chromium.recv_timeout(left) {
                Ok(message) => {
                    if message.get("method").is_some() {
                        self.events.push(message.clone());
                    }
                    if wanted(&message) {
                        return message;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "waited {PATIENCE:?} for {what}; Chromium's log:\n{}",
                        self.log()
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "Chromium exited while waiting for {what}; its log:\n{}",
                        self.log()
                    )
                }
            }
        }
    }

    /// A command to the page.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    /// A command to the browser itself.
    pub fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(None, method, params)
    }

    /// The events named `method` received so far.
    pub fn events_named(&self, method: &str) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e["method"] == method)
            .collect()
    }

    /// Runs `action`, then waits for the page's next `load` event (a
    /// navigation it started, including a form's POST and its redirect).
    pub fn navigating(&mut self, what: &str, action: impl FnOnce(&mut Browser)) {
        let mark = self.events.len();
        action(self);
        let seen = self.events[mark..]
            .iter()
            .any(|e| e["method"] == "Page.loadEventFired");
        if !seen {
            self.receive(&format!("the page loaded after {what}"), |m| {
                m["method"] == "Page.loadEventFired"
            });
        }
        self.wait_until(
            &format!("the document is complete after {what}"),
            "document.readyState === 'complete'",
        );
    }

    /// Opens `url` and waits until it has loaded.
    pub fn goto(&mut self, url: &str) {
        self.navigating(&format!("opening {url}"), |b| {
            let result = b.call("Page.navigate", json!({"url": url}));
            if let Some(error) = result.get("errorText") {
                panic!("opening {url}: {error}");
            }
        });
    }

    /// The value of a JavaScript expression in the page; an exception
    /// fails the test. DevTools evaluation is not subject to the page's
    /// Content-Security-Policy, so it works on script-free pages.
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("evaluating {expression}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// A string expression's value (`null` and `undefined` as "").
    pub fn text(&mut self, expression: &str) -> String {
        match self.eval(expression) {
            Value::String(s) => s,
            Value::Null => String::new(),
            other => other.to_string(),
        }
    }

    /// Polls `condition` (a JavaScript boolean expression) until it holds;
    /// fails the test after [`PATIENCE`], showing the page's text.
    pub fn wait_until(&mut self, what: &str, condition: &str) {
        let deadline = Instant::now() + PATIENCE;
        while self.eval(&format!("!!({condition})")) != json!(true) {
            if Instant::now() >= deadline {
                let url = self.text("location.href");
                let body = self.text("document.body ? document.body.innerText : ''");
                panic!(
                    "waited {PATIENCE:?} for {what} ({condition}) at {url}; the page says:\n{body}"
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the element `selector` to be in the page.
    pub fn wait_for(&mut self, selector: &str) {
        self.wait_until(
            &format!("an element {selector}"),
            &format!("document.querySelector({})", js(selector)),
        );
    }

    /// How many elements match `selector`.
    pub fn count(&mut self, selector: &str) -> usize {
        let n = self.eval(&format!(
            "document.querySelectorAll({}).length",
            js(selector)
        ));
        n.as_u64().expect("a count") as usize
    }

    /// The text of the first element matching `selector` (waiting for it).
    pub fn text_of(&mut self, selector: &str) -> String {
        self.wait_for(selector);
        self.text(&format!(
            "document.querySelector({}).textContent",
            js(selector)
        ))
    }

    /// The texts of every element matching `selector`.
    pub fn texts_of(&mut self, selector: &str) -> Vec<String> {
        let value = self.eval(&format!(
            "Array.from(document.querySelectorAll({}), e => e.textContent)",
            js(selector)
        ));
        serde_json::from_value(value).expect("an array of strings")
    }

    /// Clicks the middle of the element `selector` with the mouse, as a
    /// person would (scrolled into view first).
    pub fn click(&mut self, selector: &str) {
        self.wait_for(selector);
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({});
                e.scrollIntoView({{block: 'center', inline: 'center', behavior: 'instant'}});
                const r = e.getBoundingClientRect();
                return [r.x + r.width / 2, r.y + r.height / 2, r.width, r.height]; }})()",
            js(selector)
        ));
        let at = |i: usize| rect[i].as_f64().expect("a number");
        assert!(
            at(2) > 0.0 && at(3) > 0.0,
            "{selector} is not visible (its box is {rect})"
        );
        let (x, y) = (at(0), at(1));
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y}),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Focuses the field `selector` and types `text` into it.
    pub fn type_into(&mut self, selector: &str, text: &str) {
        self.wait_for(selector);
        self.eval(&format!("document.querySelector({}).focus()", js(selector)));
        self.call("Input.insertText", json!({"text": text}));
    }

    /// Presses and releases one key (`Tab`, `Enter`).
    pub fn press(&mut self, key: &str) {
        let code = match key {
            "Tab" => 9,
            "Enter" => 13,
            other => panic!("no key code for {other}"),
        };
        let text = if key == "Enter" { "\r" } else { "" };
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyDown", "key": key, "code": key, "windowsVirtualKeyCode": code, "text": text}),
        );
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": code}),
        );
    }

    /// The window's size in CSS pixels (`mobile`: a phone's viewport rules).
    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// The cookies the browser would send to `url`.
    pub fn cookies(&mut self, url: &str) -> Vec<Value> {
        let result = self.call("Network.getCookies", json!({"urls": [url]}));
        result["cookies"].as_array().cloned().unwrap_or_default()
    }

    /// A PNG of what the window shows.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": false}),
        );
        base64(shot["data"].as_str().expect("screenshot data"))
    }

    /// The profile folder (a temp dir, removed with the browser).
    pub fn profile(&self) -> &Path {
        self.profile.path()
    }

    /// The page's main-frame responses so far: (url, status, headers).
    pub fn documents(&self) -> Vec<(String, u64, Value)> {
        self.events_named("Network.responseReceived")
            .into_iter()
            .filter(|e| e["params"]["type"] == "Document")
            .map(|e| {
                let r = &e["params"]["response"];
                (
                    r["url"].as_str().unwrap_or_default().to_string(),
                    r["status"].as_u64().unwrap_or_default(),
                    r["headers"].clone(),
                )
            })
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Asked politely first (so the profile is released), then the
        // whole process group is killed: Chromium's helpers with it.
        self.next_id += 1;
        let mut bytes =
            serde_json::to_vec(&json!({"id": self.next_id, "method": "Browser.close"})).unwrap();
        bytes.push(0);
        let _ = self.to_chromium.write_all(&bytes);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: kill(2) on the process group this browser started: its
        // id is our child's, and a group's id is not reused while any of
        // its processes (the helpers this kills) lives.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// A JavaScript string literal for `s`.
pub fn js(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

/// Decodes standard base64 (what DevTools sends binary data as).
pub fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c:?}"),
        }
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Where to save a screenshot named `name`, when AGENTBOX_VIEW_SCREENSHOTS
/// names a folder.
pub fn screenshot_path(name: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("AGENTBOX_VIEW_SCREENSHOTS")?;
    Some(PathBuf::from(dir).join(name))
}
