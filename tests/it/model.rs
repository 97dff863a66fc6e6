//! `agentbox model`: the Oda SDK wire-protocol client against a fake runtime
//! (tests/fixtures/fake_oda.py) speaking the protocol with its edge cases.

use crate::common;

use common::{Sandbox, envelope, err_of, ok_data};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const FINAL: &str = "The answer is 42 — ünïcødé ✓";
const SECRET: &str = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

fn fake() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_oda.py")
}

/// A home whose config routes to the fake runtime in `mode`, with `extra`
/// merged into the model block. The fake logs what it receives to
/// `oda.log` and its pid to `oda.pid` in the project folder.
fn routed(mode: &str, extra: Value) -> Sandbox {
    let sb = Sandbox::new();
    let mut model = json!({
        "command": "python3",
        "args": [fake().display().to_string(), mode],
        "env": {
            "FAKE_ODA_LOG": sb.path().join("oda.log").display().to_string(),
            "FAKE_ODA_PID": sb.path().join("oda.pid").display().to_string(),
        },
        "provider": "anthropic",
        "model": "claude-sonnet",
        "timeout_seconds": 20,
    });
    for (k, v) in extra.as_object().unwrap() {
        model[k] = v.clone();
    }
    set_model(&sb, model);
    sb
}

fn set_model(sb: &Sandbox, model: Value) {
    let path = sb.home().join("config.json");
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    config["model"] = model;
    std::fs::write(&path, config.to_string()).unwrap();
}

/// The frames the fake received.
fn received(sb: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sb.path().join("oda.log"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn methods(sb: &Sandbox) -> Vec<String> {
    received(sb)
        .iter()
        .map(|f| f["method"].as_str().unwrap().to_string())
        .collect()
}

/// The fake's pid, if it was started.
fn fake_pid(sb: &Sandbox) -> Option<u32> {
    std::fs::read_to_string(sb.path().join("oda.pid"))
        .ok()
        .map(|p| p.trim().parse().unwrap())
}

/// The fake was started, and is gone (killed and reaped: no process, no
/// zombie) once agentbox has returned.
fn assert_reaped(sb: &Sandbox) {
    let pid = fake_pid(sb).expect("the fake runtime was started");
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "the runtime {pid} was left behind: {:?}",
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
    );
}

fn ask(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut all = vec!["model", "ask"];
    all.extend_from_slice(args);
    sb.agentbox(&all)
}

#[test]
fn the_answer_is_the_last_assistant_message_of_the_runs_own_session() {
    let sb = routed("ok", json!({"reasoningEffort": "low", "maxTokens": 4096}));
    let data = ok_data(&mut ask(&sb, &["What is the answer?"]));
    assert_eq!(data["text"], FINAL, "{data}");
    assert_eq!(data["messageId"], "msg_receipt_1");
    let session = data["sessionId"].as_str().unwrap();
    assert!(session.starts_with("ses_"), "{session}");
    // initialize came first (the fake refuses prompts before it), then the
    // prompt, then shutdown; ids are req_<uuid v4>
    assert_eq!(methods(&sb), ["initialize", "session/prompt", "shutdown"]);
    let frames = received(&sb);
    let id = regex_like_req_uuid();
    for frame in &frames {
        assert_eq!(frame["jsonrpc"], "2.0");
        assert!(id(frame["id"].as_str().unwrap()), "{frame}");
    }
    let init = &frames[0]["params"];
    let project = sb.path().canonicalize().unwrap();
    assert_eq!(
        Path::new(init["cwd"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        project
    );
    assert_eq!(
        (
            &init["provider"],
            &init["model"],
            &init["reasoningEffort"],
            &init["maxTokens"]
        ),
        (
            &json!("anthropic"),
            &json!("claude-sonnet"),
            &json!("low"),
            &json!(4096)
        )
    );
    let prompt = &frames[1]["params"];
    assert_eq!(prompt["sessionId"], session);
    assert_eq!(
        prompt["content"],
        json!([{"type": "text", "text": "What is the answer?"}])
    );
    assert_reaped(&sb);
}

/// `req_` + a lowercase UUID v4.
fn regex_like_req_uuid() -> impl Fn(&str) -> bool {
    |id: &str| {
        let Some(uuid) = id.strip_prefix("req_") else {
            return false;
        };
        let groups: Vec<&str> = uuid.split('-').collect();
        groups.iter().map(|g| g.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
            && uuid.chars().all(|c| c == '-' || c.is_ascii_hexdigit())
            && groups[2].starts_with('4')
    }
}

#[test]
fn text_mode_prints_the_answer_and_progress_goes_to_stderr() {
    let sb = routed("ok", json!({}));
    let out = ask(&sb, &["hi", "--session", "ses_docs", "--format", "text"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stdout, format!("{FINAL}\n"));
    for seen in [
        "status running",
        "sub-agent ses_child_1 started (parent ses_docs)",
        "sub-agent ses_grandchild_1 started (parent ses_child_1)",
        "sub-agent ses_child_1 assistant: SUBAGENT ANSWER",
        "sub-agent ses_child_1 finished ok: SUBAGENT ANSWER",
        "sub-agent ses_grandchild_1 finished error",
        "event tool_call",
        "status idle",
    ] {
        assert!(stderr.contains(seen), "{seen:?} not in {stderr}");
    }
    assert!(!stdout.contains("SUBAGENT"), "{stdout}");
    assert_eq!(received(&sb)[1]["params"]["sessionId"], "ses_docs");
}

/// `-q` silences the progress lines too: only the answer (json still prints
/// its envelope), nothing on stderr.
#[test]
fn quiet_silences_progress() {
    let sb = routed("ok", json!({}));
    let out = ask(&sb, &["hi", "--format", "text", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}

#[test]
fn the_prompt_can_come_from_stdin() {
    let sb = routed("ok", json!({}));
    let data = ok_data(ask(&sb, &["-"]).write_stdin("from stdin\n"));
    assert_eq!(data["text"], FINAL);
    assert_eq!(
        received(&sb)[1]["params"]["content"][0]["text"],
        "from stdin\n"
    );
    let err = err_of(ask(&sb, &["-"]).write_stdin("  \n"), "invalid_args", 2);
    assert!(err["message"].as_str().unwrap().contains("empty"), "{err}");
}

#[test]
fn check_is_the_handshake_and_shutdown() {
    let sb = routed("ok", json!({"maxTokens": 9007199254740991_u64}));
    let data = ok_data(&mut sb.agentbox(&["model", "check"]));
    assert_eq!(data["provider"], "anthropic");
    assert_eq!(data["model"], "claude-sonnet");
    assert_eq!(data["runtime"]["name"], "fake-oda");
    assert_eq!(methods(&sb), ["initialize", "shutdown"]);
    assert_eq!(
        received(&sb)[0]["params"]["maxTokens"],
        9007199254740991_u64
    );
    assert!(received(&sb)[0]["params"].get("reasoningEffort").is_none());
    assert_reaped(&sb);
    let out = sb
        .agentbox(&["model", "check", "--format", "text"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("anthropic/claude-sonnet"), "{stdout}");
    assert!(stdout.contains("fake-oda"), "{stdout}");
}

#[test]
fn a_provider_without_an_adapter_fails_the_handshake() {
    let sb = routed("ok", json!({"provider": "x"}));
    for args in [&["model", "check"][..], &["model", "ask", "hi"]] {
        let err = err_of(&mut sb.agentbox(args), "upstream", 1);
        let message = err["message"].as_str().unwrap();
        assert!(
            message.contains(r#"no adapter registered for provider "x""#),
            "{err}"
        );
        assert_eq!(err["code"], -32603);
        assert!(
            err["hint"].as_str().unwrap().contains("model.provider"),
            "{err}"
        );
    }
    // the prompt was never sent: the route failed at initialize
    assert!(!methods(&sb).contains(&"session/prompt".to_string()));
    assert_reaped(&sb);
}

#[test]
fn an_unknown_method_is_an_upstream_error_with_the_runtimes_message() {
    let sb = routed("nomethod", json!({}));
    let err = err_of(&mut ask(&sb, &["hi"]), "upstream", 1);
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("method not found: session/prompt"),
        "{err}"
    );
    assert_eq!(err["code"], -32601);
    assert_reaped(&sb);
}

#[test]
fn a_prompt_the_runtime_refuses_is_an_upstream_error() {
    // The fake answers initialize but forgets it: it refuses the prompt as a
    // runtime refuses one sent before initialize.
    let sb = routed("forget", json!({}));
    let err = err_of(&mut ask(&sb, &["hi"]), "upstream", 1);
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("session/prompt refused: initialize has not completed"),
        "{err}"
    );
    assert_reaped(&sb);
}

#[test]
fn a_runtime_that_crashes_mid_turn_is_an_upstream_error() {
    let sb = routed("crash", json!({}));
    let err = err_of(&mut ask(&sb, &["hi"]), "upstream", 1);
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("JSON-RPC input closed"), "{err}");
    assert!(message.contains("the model adapter crashed"), "{err}");
    assert_eq!(err["detail"]["exit_code"], 3, "{err}");
    assert_reaped(&sb);
}

#[test]
fn a_runtime_that_closes_its_stdout_is_killed_and_reaped() {
    let sb = routed("close", json!({}));
    let started = Instant::now();
    let err = err_of(&mut ask(&sb, &["hi"]), "upstream", 1);
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("JSON-RPC input closed"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_reaped(&sb);
}

#[test]
fn a_runtime_that_never_goes_idle_hits_the_deadline() {
    // 3 s, not 1: the fake runtime (a python script) must first answer
    // `initialize` within the same limit, which a loaded machine missed.
    let sb = routed("never", json!({"timeout_seconds": 3}));
    let started = Instant::now();
    let err = err_of(&mut ask(&sb, &["hi"]), "upstream", 1);
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("go idle within 3 s"), "{err}");
    assert!(message.contains("model.timeout_seconds"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_reaped(&sb);
}

#[test]
fn a_command_that_cannot_start_is_an_upstream_error() {
    let sb = Sandbox::new();
    set_model(
        &sb,
        json!({"command": "/nonexistent/oda", "provider": "anthropic", "model": "m"}),
    );
    let err = err_of(&mut sb.agentbox(&["model", "check"]), "upstream", 1);
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/oda"),
        "{err}"
    );
}

#[test]
fn secrets_from_the_runtime_are_masked_everywhere() {
    let sb = routed("secret", json!({}));
    let mut seen = Vec::new();
    for format in ["json", "text"] {
        let out = ask(&sb, &["hi", "--format", format]).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        seen.push(String::from_utf8(out.stdout).unwrap());
        seen.push(String::from_utf8(out.stderr).unwrap());
    }
    assert!(seen[0].contains("the key is "), "{}", seen[0]);
    assert!(seen[3].contains("assistant: the key is "), "{}", seen[3]);
    for text in &seen {
        assert!(!text.contains(SECRET), "{text}");
    }
    // nothing of the turn is stored in the home
    let mut stack = vec![sb.home()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                assert!(
                    !String::from_utf8_lossy(&bytes).contains(SECRET),
                    "{}",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn images_go_inline_with_their_type_and_other_files_are_refused() {
    let sb = routed("ok", json!({}));
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDRfake".to_vec();
    std::fs::write(sb.path().join("shot.png"), &png).unwrap();
    std::fs::write(sb.path().join("photo.bin"), b"\xff\xd8\xff\xe0jpegdata").unwrap();
    std::fs::write(sb.path().join("notes.txt"), b"just text").unwrap();
    ok_data(&mut ask(
        &sb,
        &[
            "what is this?",
            "--image",
            "shot.png",
            "--image",
            "photo.bin",
        ],
    ));
    let content = &received(&sb)[1]["params"]["content"];
    assert_eq!(content[0]["type"], "text");
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["mimeType"], "image/png");
    assert_eq!(content[1]["data"], "iVBORw0KGgoAAAANSUhEUmZha2U=");
    assert_eq!(content[2]["mimeType"], "image/jpeg");
    std::fs::remove_file(sb.path().join("oda.pid")).unwrap();
    let err = err_of(
        &mut ask(&sb, &["what is this?", "--image", "notes.txt"]),
        "invalid_args",
        2,
    );
    assert!(
        err["message"].as_str().unwrap().contains("notes.txt"),
        "{err}"
    );
    err_of(
        &mut ask(&sb, &["what is this?", "--image", "missing.png"]),
        "not_found",
        1,
    );
    assert_eq!(
        fake_pid(&sb),
        None,
        "the runtime was started for a bad image"
    );
}

#[test]
fn without_a_route_model_is_not_found_with_the_config_block() {
    let sb = Sandbox::new();
    for args in [&["model", "check"][..], &["model", "ask", "hi"]] {
        let err = err_of(&mut sb.agentbox(args), "not_found", 1);
        let hint = err["hint"].as_str().unwrap();
        assert!(hint.contains(r#""model": {"command""#), "{err}");
        assert!(hint.contains("provider"), "{err}");
    }
}

#[test]
fn invalid_route_options_are_refused_before_the_runtime_starts() {
    let effort = "initialize reasoningEffort must be a non-empty string";
    let tokens = "initialize maxTokens must be a positive safe integer";
    for (extra, message) in [
        (json!({"reasoningEffort": ""}), effort),
        (json!({"reasoningEffort": 3}), effort),
        (json!({"maxTokens": 0}), tokens),
        (json!({"maxTokens": -1}), tokens),
        (json!({"maxTokens": 1.5}), tokens),
        (json!({"maxTokens": 9007199254740992_u64}), tokens),
        (json!({"maxTokens": "10"}), tokens),
    ] {
        let sb = routed("ok", extra.clone());
        for args in [&["model", "check"][..], &["model", "ask", "hi"]] {
            let err = err_of(&mut sb.agentbox(args), "invalid_args", 2);
            assert_eq!(err["message"], message, "{extra}");
        }
        assert_eq!(fake_pid(&sb), None, "started for {extra}");
    }
    let sb = routed("ok", json!({"provider": ""}));
    let err = err_of(&mut sb.agentbox(&["model", "check"]), "invalid_args", 2);
    assert!(
        err["message"].as_str().unwrap().contains("model.provider"),
        "{err}"
    );
    let sb = routed("ok", json!({"timeout_seconds": 0}));
    err_of(&mut sb.agentbox(&["model", "check"]), "invalid_args", 2);
}

#[test]
fn a_failed_turn_says_so_in_text_mode_on_stderr_only() {
    let sb = routed("nomethod", json!({}));
    let out = ask(&sb, &["hi", "--format", "text"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("error: Oda runtime: session/prompt failed: method not found"),
        "{stderr}"
    );
    let (env, _) = envelope(&mut ask(&sb, &["hi"]));
    assert_eq!(env["ok"], false);
}

/// `model ask` started in its own process group, returned once the runtime
/// has the prompt (and is busy with it).
fn ask_in_background(sb: &Sandbox) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let child = sb
        .std_command(common::bin())
        .args(["model", "ask", "hi"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(sb.path().join("oda.log"))
        .unwrap_or_default()
        .contains("session/prompt")
    {
        assert!(
            Instant::now() < deadline,
            "the runtime never got the prompt"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn a_signal_ends_agentbox_and_the_runtime_it_started() {
    use std::os::unix::process::ExitStatusExt;
    // The runtime ignores SIGINT, SIGTERM and SIGHUP and never answers: a
    // signal to agentbox alone, or to its whole process group, must still end
    // it (killed and reaped before agentbox exits).
    for (signal, group) in [
        (libc::SIGINT, false),
        (libc::SIGINT, true),
        (libc::SIGTERM, false),
        (libc::SIGTERM, true),
        (libc::SIGHUP, false),
    ] {
        let sb = routed("deaf", json!({}));
        let child = ask_in_background(&sb);
        let pid = child.id() as i32;
        let started = Instant::now();
        let target = if group { -pid } else { pid };
        // SAFETY: kill(2) signals a process (group) this test started; it
        // touches no memory of ours.
        let sent = unsafe { libc::kill(target, signal) };
        assert_eq!(sent, 0);
        let out = child.wait_with_output().unwrap();
        assert!(started.elapsed() < Duration::from_secs(5), "{signal}");
        if signal == libc::SIGINT {
            assert_eq!(out.status.code(), Some(130), "{out:?}");
            let env: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(env["error"]["type"], "cancelled", "{env}");
        } else {
            assert_eq!(out.status.signal(), Some(signal), "{out:?}");
        }
        assert_reaped(&sb);
    }
}

#[test]
fn a_runtime_deaf_to_signals_is_killed_at_the_deadline() {
    // (5 s: a loaded machine may take a while to start python)
    let sb = routed("deaf", json!({"timeout_seconds": 5}));
    let err = err_of(&mut ask(&sb, &["hi"]), "upstream", 1);
    assert!(
        err["message"].as_str().unwrap().contains("within 5 s"),
        "{err}"
    );
    assert_reaped(&sb);
}

#[test]
fn a_runtime_that_ignores_shutdown_is_killed_within_two_seconds() {
    let sb = routed("noshutdown", json!({}));
    let at = sb.path().join("shutdown.at");
    let mut cmd = ask(&sb, &["hi"]);
    cmd.env("FAKE_ODA_SHUTDOWN_AT", &at);
    // the route's env reaches the runtime; agentbox's own env does too
    let data = ok_data(&mut cmd);
    let ended = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    assert_eq!(data["text"], FINAL, "{data}");
    let asked: f64 = std::fs::read_to_string(&at).unwrap().parse().unwrap();
    let took = ended - asked;
    // the documented 2 s, and a margin for a loaded machine
    assert!(
        took < 3.0,
        "the runtime was given {took:.2} s after shutdown"
    );
    assert_reaped(&sb);
}

#[test]
fn escape_sequences_from_the_runtime_are_shown_escaped() {
    let answer = "done\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \u{202e}txt.exe \x1b[2J";
    let sb = routed("ok", json!({}));
    let raw = |text: &str| {
        text.chars()
            .any(|c| (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}'))
    };
    let out = ask(&sb, &["hi", "--format", "text"])
        .env("FAKE_ODA_ANSWER", answer)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stdout,
        "done\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07 \\u{202e}txt.exe \\x1b[2J\n"
    );
    assert!(!raw(&stderr), "{stderr:?}");
    assert!(stderr.contains("assistant: done\\x1b]8;;"), "{stderr}");
    // json: the text intact, escaped by JSON
    let out = ask(&sb, &["hi"])
        .env("FAKE_ODA_ANSWER", answer)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!raw(&stdout), "{stdout:?}");
    let env: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(env["data"]["text"], answer);
    assert!(!raw(&String::from_utf8(out.stderr).unwrap()));
    // an error carrying the runtime's message, in text mode on stderr
    let sb = routed("noadapter", json!({"provider": "evil\u{1b}]0;pwned\u{7}"}));
    let out = ask(&sb, &["hi", "--format", "text"]).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!raw(&stderr), "{stderr:?}");
    assert!(
        stderr.contains(r#"provider "evil\x1b]0;pwned\x07""#),
        "{stderr}"
    );
}
