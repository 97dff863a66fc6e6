//! `sync hosts` through the real binary: detection through a temp `$HOME`
//! and a clean `PATH`, installs into real-looking config files (comments,
//! other servers, tabs, CRLF, no final newline) that keep every other byte,
//! idempotence, remove restoring the original bytes, a user's own entry
//! never clobbered, screened skills exported and others not, and every
//! written config starting the real memory_mcp.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// A project with a home, a temp `$HOME` and an empty temp `PATH`.
struct World {
    sb: Sandbox,
    user: tempfile::TempDir,
    bin: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        World {
            sb: Sandbox::new(),
            user: tempfile::tempdir().unwrap(),
            bin: tempfile::tempdir().unwrap(),
        }
    }

    fn project(&self) -> PathBuf {
        self.sb.path().canonicalize().unwrap()
    }

    fn user(&self) -> &Path {
        self.user.path()
    }

    fn cmd(&self, args: &[&str]) -> assert_cmd::Command {
        let mut cmd = self.sb.agentbox(&["sync", "hosts"]);
        cmd.args(args)
            .env("HOME", self.user.path())
            .env("PATH", self.bin.path())
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CODEX_HOME");
        cmd
    }

    fn data(&self, args: &[&str]) -> Value {
        ok_data(&mut self.cmd(args))
    }

    /// `sync hosts … --format json`, returning the whole envelope.
    fn envelope(&self, args: &[&str]) -> Value {
        common::envelope(&mut self.cmd(args)).0
    }

    /// Makes a host detected through a folder under `$HOME`.
    fn mark(&self, rel: &str) {
        std::fs::create_dir_all(self.user().join(rel)).unwrap();
    }

    /// A fake executable on the temp PATH.
    fn exe(&self, name: &str, executable: bool) {
        let path = self.bin.path().join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.sb.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.sb.path().join(rel)).unwrap()
    }

    fn link(&self) -> String {
        self.project()
            .join(".agent/tools/memory_mcp")
            .display()
            .to_string()
    }
}

fn host<'a>(list: &'a Value, id: &str) -> &'a Value {
    list["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {list}"))
}

#[test]
fn detection_honours_home_and_path() {
    let w = World::new();
    let list = w.data(&["list"]);
    let ids: Vec<&str> = list["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "claude-code",
            "codex",
            "cursor",
            "gemini",
            "vscode",
            "zed",
            "odek"
        ]
    );
    for h in list["hosts"].as_array().unwrap() {
        assert_eq!(h["detected"], false, "{h}");
    }
    w.mark(".cursor");
    w.exe("codex", true);
    w.exe("gemini", false); // not executable: not a detection
    let list = w.data(&[]);
    let cursor = host(&list, "cursor");
    assert_eq!(cursor["detected"], true);
    assert_eq!(cursor["how"], json!(["folder ~/.cursor"]));
    let codex = host(&list, "codex");
    assert_eq!(codex["detected"], true);
    let how = codex["how"][0].as_str().unwrap();
    assert!(
        how.starts_with("executable ") && how.ends_with("/codex"),
        "{how}"
    );
    assert_eq!(host(&list, "gemini")["detected"], false);
    let user_cfg = &cursor["scopes"][1];
    assert_eq!(user_cfg["scope"], "user");
    assert_eq!(
        user_cfg["config"],
        w.user().join(".cursor/mcp.json").display().to_string()
    );
    assert_eq!(user_cfg["memory_mcp"]["configured"], false);
    // the text table names every host
    let out = w.cmd(&["--format", "text"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("HOST"), "{text}");
    assert!(text.contains("cursor") && text.contains("odek"), "{text}");
}

#[test]
fn unknown_and_absent_hosts_are_plugin_not_detected() {
    let w = World::new();
    let e = err_of(&mut w.cmd(&["install", "--all"]), "plugin_not_detected", 1);
    assert!(e["hint"].as_str().unwrap().contains("claude-code"), "{e}");
    let e = err_of(
        &mut w.cmd(&["install", "notepad"]),
        "plugin_not_detected",
        1,
    );
    assert!(
        e["hint"]
            .as_str()
            .unwrap()
            .contains("claude-code, codex, cursor"),
        "{e}"
    );
    w.mark(".cursor");
    let e = err_of(&mut w.cmd(&["install", "zed"]), "plugin_not_detected", 1);
    let hint = e["hint"].as_str().unwrap();
    assert!(
        hint.contains("Zed") && hint.contains("detected here: cursor"),
        "{e}"
    );
    assert_eq!(e["detail"]["detected"], json!(["cursor"]));
    err_of(&mut w.cmd(&["remove", "notepad"]), "plugin_not_detected", 1);
    // nothing was written anywhere
    assert!(!w.sb.path().join(".cursor").exists());
    assert!(!w.sb.path().join(".zed").exists());
}

/// Real-looking configs in every format, with what must survive an install.
fn originals(w: &World) -> Vec<(&'static str, String)> {
    let token = format!("ghp_{}", "a1B2c3D4e5".repeat(4));
    let files = vec![
        (
            ".mcp.json",
            format!(
                "{{\n    \"mcpServers\": {{\n        \"github\": {{\n            \"command\": \"gh-mcp\",\n            \"env\": {{\"GITHUB_TOKEN\": \"{token}\"}}\n        }}\n    }}\n}}"
            ),
        ),
        (
            ".codex/config.toml",
            "# my codex setup\nmodel = \"o4-mini\"   # fast\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]  # keep\n".to_string(),
        ),
        (
            ".gemini/settings.json",
            "{\n  \"theme\": \"GitHub\"\n}\n".to_string(),
        ),
        (
            ".vscode/mcp.json",
            "// servers for this repo\n{\n\t\"inputs\": [],\n\t\"servers\": {\n\t\t// the docs server\n\t\t\"docs\": {\"type\": \"stdio\", \"command\": \"docs-mcp\"},\n\t},\n}\n".to_string(),
        ),
        (
            ".zed/settings.json",
            "// Zed settings\r\n{\r\n  \"theme\": \"One Dark\", /* mine */\r\n  \"context_servers\": {\r\n    \"other\": { \"command\": \"x\", \"args\": [] }\r\n  }\r\n}\r\n".to_string(),
        ),
        (
            "odek.json",
            "{\"mcp_servers\": {\"log-analyzer\": {\"command\": \"/usr/local/bin/log-analyzer-mcp\", \"timeout_seconds\": 120}}}".to_string(),
        ),
    ];
    for (rel, text) in &files {
        w.write(rel, text);
    }
    files
}

fn detect_all(w: &World) {
    for mark in [
        ".claude",
        ".codex",
        ".cursor",
        ".gemini",
        ".vscode",
        ".config/zed",
        ".odek",
    ] {
        w.mark(mark);
    }
}

#[test]
fn install_keeps_every_other_byte_is_idempotent_and_remove_restores() {
    let w = World::new();
    detect_all(&w);
    let originals = originals(&w);
    let data = w.data(&["install", "--all", "--no-skills"]);
    let installs = data["installs"].as_array().unwrap();
    assert_eq!(installs.len(), 7, "{data}");
    for i in installs {
        assert_eq!(i["server"], "added", "{i}");
    }
    let link = w.link();
    // each file still holds what it held, and our entry
    let mcp: Value = serde_json::from_str(&w.read(".mcp.json")).unwrap();
    assert_eq!(mcp["mcpServers"]["agentbox-memory"]["command"], link);
    assert_eq!(mcp["mcpServers"]["agentbox-memory"]["type"], "stdio");
    assert!(
        mcp["mcpServers"]["github"]["env"]["GITHUB_TOKEN"]
            .as_str()
            .unwrap()
            .starts_with("ghp_a1B2"),
        "the user's own token is never masked: {mcp}"
    );
    let text = w.read(".mcp.json");
    // the original up to the github entry's closing brace, then a comma
    let kept = &originals[0].1[..originals[0].1.len() - 8];
    assert!(text.starts_with(&format!("{kept},")), "{text}");
    assert!(
        text.contains("\n        \"agentbox-memory\": {\n"),
        "indent kept: {text}"
    );
    let toml = w.read(".codex/config.toml");
    assert!(toml.starts_with(&originals[1].1), "{toml}");
    assert!(
        toml.contains("[mcp_servers.agentbox-memory]\ncommand = "),
        "{toml}"
    );
    let vscode = w.read(".vscode/mcp.json");
    assert!(vscode.contains("\t\t// the docs server\n"), "{vscode}");
    assert!(vscode.contains("\"type\": \"stdio\""), "{vscode}");
    let zed = w.read(".zed/settings.json");
    assert!(
        zed.starts_with("// Zed settings\r\n{\r\n  \"theme\": \"One Dark\", /* mine */\r\n"),
        "{zed:?}"
    );
    assert!(
        !zed.replace("\r\n", "").contains('\n'),
        "CRLF kept: {zed:?}"
    );
    let odek: Value = serde_json::from_str(&w.read("odek.json")).unwrap();
    let ours = &odek["mcp_servers"]["agentbox-memory"];
    assert_eq!(ours["artifact_roots"], json!([]));
    assert_eq!(ours["max_result_chars"], 200000);
    assert_eq!(odek["mcp_servers"]["log-analyzer"]["timeout_seconds"], 120);
    let cursor: Value = serde_json::from_str(&w.read(".cursor/mcp.json")).unwrap();
    assert_eq!(cursor["mcpServers"]["agentbox-memory"]["command"], link);

    // a second install changes no byte
    let rels = [
        ".mcp.json",
        ".codex/config.toml",
        ".cursor/mcp.json",
        ".gemini/settings.json",
        ".vscode/mcp.json",
        ".zed/settings.json",
        "odek.json",
    ];
    let before: Vec<String> = rels.iter().map(|r| w.read(r)).collect();
    let again = w.data(&["install", "--all", "--no-skills"]);
    for i in again["installs"].as_array().unwrap() {
        assert_eq!(i["server"], "unchanged", "{i}");
    }
    let after: Vec<String> = rels.iter().map(|r| w.read(r)).collect();
    assert_eq!(before, after);

    // list sees each one pointing here
    let list = w.data(&["list"]);
    for h in list["hosts"].as_array().unwrap() {
        let project = &h["scopes"][0];
        assert_eq!(project["memory_mcp"]["points_here"], true, "{h}");
        assert_eq!(project["memory_mcp"]["ours"], true, "{h}");
    }

    // remove gives back the original bytes, and deletes what it created
    let removed = w.data(&["remove", "--all"]);
    assert_eq!(removed["removed"].as_array().unwrap().len(), 7, "{removed}");
    for (rel, text) in &originals {
        assert_eq!(&w.read(rel), text, "{rel}");
    }
    assert!(
        !w.sb.path().join(".cursor").exists(),
        "created folder removed"
    );
    let state: Value = serde_json::from_str(&w.read(".agent/local/hosts.json")).unwrap();
    assert_eq!(state["installs"], json!([]));
}

#[test]
fn a_users_own_entry_is_never_clobbered() {
    let w = World::new();
    w.mark(".claude");
    let mine = "{\"mcpServers\": {\"agentbox-memory\": {\"command\": \"/opt/my-memory\"}}}\n";
    w.write(".mcp.json", mine);
    let env = w.envelope(&["install", "claude-code"]);
    assert_eq!(env["ok"], true, "{env}");
    assert_eq!(
        env["data"]["installs"][0]["server"],
        "kept (user's own entry)"
    );
    assert!(
        env["meta"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("did not write"),
        "{env}"
    );
    assert_eq!(w.read(".mcp.json"), mine);
    let removed = w.data(&["remove", "claude-code"]);
    assert_eq!(removed["removed"][0]["server"], "none");
    assert_eq!(w.read(".mcp.json"), mine);

    // our entry, edited by the user afterwards, is theirs: remove leaves it
    let w = World::new();
    w.mark(".cursor");
    w.data(&["install", "cursor", "--scope", "user"]);
    let path = w.user().join(".cursor/mcp.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("\"args\": []", "\"args\": [\"--verbose\"]");
    assert_ne!(text, edited);
    std::fs::write(&path, &edited).unwrap();
    let env = w.envelope(&["remove", "cursor", "--scope", "user"]);
    assert_eq!(
        env["data"]["removed"][0]["server"],
        "kept (changed by the user)"
    );
    assert!(
        env["meta"]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("changed"),
        "{env}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    // and install does not overwrite it either
    w.data(&["install", "cursor", "--scope", "user"]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);

    // a project config committed from another machine names another home
    let w = World::new();
    w.mark(".gemini");
    let theirs = "{\"mcpServers\": {\"agentbox-memory\": {\"command\": \"/home/ada/p/.agent/tools/memory_mcp\", \"args\": []}}}\n";
    w.write(".gemini/settings.json", theirs);
    let env = w.envelope(&["install", "gemini"]);
    let warning = env["meta"]["warnings"][0].as_str().unwrap();
    assert!(
        warning.contains("another home (/home/ada/p/.agent/tools/memory_mcp)"),
        "{env}"
    );
    assert_eq!(w.read(".gemini/settings.json"), theirs);
    let list = w.data(&["list"]);
    let project = &host(&list, "gemini")["scopes"][0];
    assert_eq!(project["memory_mcp"]["points_here"], false, "{project}");
    let out = w.cmd(&["--format", "text"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("gemini")).unwrap();
    assert!(line.contains(" other"), "{line}");
}

#[test]
fn a_config_that_does_not_parse_is_invalid_args_naming_file_and_line() {
    let w = World::new();
    w.mark(".claude");
    w.mark(".codex");
    let bad = "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"}\n    oops\n  }\n}\n";
    let path = w.write(".mcp.json", bad);
    let e = err_of(&mut w.cmd(&["install", "claude-code"]), "invalid_args", 2);
    assert_eq!(e["detail"]["line"], 4, "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains(&path.display().to_string()),
        "{e}"
    );
    assert_eq!(w.read(".mcp.json"), bad);
    w.write(".codex/config.toml", "model = \"x\"\n[mcp_servers\n");
    let e = err_of(&mut w.cmd(&["install", "codex"]), "invalid_args", 2);
    assert_eq!(e["detail"]["line"], 2, "{e}");
    // with several hosts, one bad file stops them all before any write
    w.write(".mcp.json", "{}\n");
    err_of(
        &mut w.cmd(&["install", "claude-code", "codex"]),
        "invalid_args",
        2,
    );
    assert_eq!(w.read(".mcp.json"), "{}\n");
    assert!(!w.sb.path().join(".claude").exists());
    // list reports it instead of failing
    let list = w.data(&["list"]);
    let codex = host(&list, "codex");
    assert!(
        codex["scopes"][0]["memory_mcp"]["error"].is_string(),
        "{codex}"
    );
}

fn skill(w: &World, name: &str) {
    ok_data(&mut w.sb.agentbox(&[
        "skill_forge",
        "new",
        name,
        "--description",
        "Fill PDF forms. Use when asked to fill a PDF.",
    ]));
}

#[test]
fn screened_skills_are_exported_unscreened_and_changed_ones_are_not() {
    let w = World::new();
    w.mark(".claude");
    skill(&w, "screened");
    skill(&w, "unscreened");
    skill(&w, "changed");
    ok_data(&mut w.sb.agentbox(&["skill_forge", "screen", "screened"]));
    ok_data(&mut w.sb.agentbox(&["skill_forge", "screen", "changed"]));
    let home = w.sb.home();
    std::fs::write(
        home.join("skills/changed/notes.md"),
        "edited after screening\n",
    )
    .unwrap();
    let data = w.data(&["install", "claude-code"]);
    let skills = &data["installs"][0]["skills"];
    assert_eq!(
        skills,
        &json!([{"name": "screened", "status": "exported"}]),
        "{data}"
    );
    let held: Vec<&str> = data["skills_held"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(held, ["changed", "unscreened"]);
    let exported = w.sb.path().join(".claude/skills/screened/SKILL.md");
    assert_eq!(
        std::fs::read_to_string(&exported).unwrap(),
        std::fs::read_to_string(home.join("skills/screened/SKILL.md")).unwrap()
    );
    assert!(!w.sb.path().join(".claude/skills/unscreened").exists());
    assert!(!w.sb.path().join(".claude/skills/changed").exists());
    let list = w.data(&["list"]);
    assert_eq!(
        host(&list, "claude-code")["scopes"][0]["skills"],
        json!(["screened"])
    );

    // a skill changed (and screened again) since export is re-exported
    std::fs::write(home.join("skills/screened/extra.md"), "more\n").unwrap();
    ok_data(&mut w.sb.agentbox(&["skill_forge", "screen", "screened"]));
    let data = w.data(&["install", "claude-code"]);
    assert_eq!(
        data["installs"][0]["skills"][0]["status"], "updated",
        "{data}"
    );
    assert!(
        w.sb.path()
            .join(".claude/skills/screened/extra.md")
            .is_file()
    );
    let data = w.data(&["install", "claude-code"]);
    assert_eq!(
        data["installs"][0]["skills"][0]["status"], "unchanged",
        "{data}"
    );

    // a folder of that name the user made is theirs
    w.data(&["remove", "claude-code"]);
    assert!(
        !w.sb.path().join(".claude").exists(),
        "the folders install made are gone"
    );
    assert!(!w.sb.path().join(".mcp.json").exists());
    w.write(".claude/skills/screened/SKILL.md", "mine\n");
    let env = w.envelope(&["install", "claude-code"]);
    assert_eq!(
        env["data"]["installs"][0]["skills"][0]["status"],
        "kept (not agentbox's)"
    );
    assert_eq!(w.read(".claude/skills/screened/SKILL.md"), "mine\n");
    w.data(&["remove", "claude-code"]);
    assert_eq!(w.read(".claude/skills/screened/SKILL.md"), "mine\n");
}

/// Spawns the command a config names (with its args and env only, from an
/// unrelated folder), sends `initialize`, and returns the reply.
fn initialize(command: &str, args: &[String], env: &[(String, String)]) -> Value {
    let cwd = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(command)
        .args(args)
        .env_clear()
        .envs(env.iter().cloned())
        .env("AGENTBOX_NOW", common::NOW)
        .current_dir(cwd.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {command}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"host\",\"version\":\"1\"}}}\n")
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server answers initialize");
    drop(stdin);
    let _ = child.wait();
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn env_pairs(value: &Value) -> Vec<(String, String)> {
    value
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_written_configs_start_the_real_server() {
    let w = World::new();
    detect_all(&w);
    w.data(&["install", "--all", "--no-skills"]);
    w.data(&["install", "codex", "--scope", "user", "--no-skills"]);
    let json_files = [
        (".mcp.json", "mcpServers"),
        (".cursor/mcp.json", "mcpServers"),
        (".gemini/settings.json", "mcpServers"),
        (".vscode/mcp.json", "servers"),
        (".zed/settings.json", "context_servers"),
        ("odek.json", "mcp_servers"),
    ];
    let mut started = 0;
    for (rel, key) in json_files {
        let config: Value = serde_json::from_str(&w.read(rel)).unwrap();
        let entry = &config[key]["agentbox-memory"];
        let reply = initialize(
            entry["command"].as_str().unwrap(),
            &strings(&entry["args"]),
            &env_pairs(&entry["env"]),
        );
        assert_eq!(
            reply["result"]["serverInfo"]["name"], "agentbox-memory",
            "{rel}: {reply}"
        );
        assert_eq!(reply["result"]["protocolVersion"], "2025-03-26", "{rel}");
        started += 1;
    }
    for path in [
        w.sb.path().join(".codex/config.toml"),
        w.user().join(".codex/config.toml"),
    ] {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        let entry = &doc["mcp_servers"]["agentbox-memory"];
        let command = entry["command"].as_str().unwrap();
        let args: Vec<String> = entry["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let env: Vec<(String, String)> = entry["env"]
            .as_inline_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_str().unwrap().to_string()))
            .collect();
        let reply = initialize(command, &args, &env);
        assert_eq!(
            reply["result"]["serverInfo"]["name"],
            "agentbox-memory",
            "{}",
            path.display()
        );
        started += 1;
    }
    assert_eq!(started, 8);
}

#[test]
fn an_entry_agentbox_wrote_is_updated_when_the_home_changes() {
    let w = World::new();
    w.mark(".odek");
    let original =
        "{\n  \"mcp_servers\": {\n    \"log\": {\"command\": \"x\"}\n  },\n  \"model\": \"m\"\n}\n";
    w.write("odek.json", original);
    w.data(&["install", "odek"]);
    let config = w.sb.home().join("config.json");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("200000", "50000")).unwrap();
    let data = w.data(&["install", "odek"]);
    assert_eq!(data["installs"][0]["server"], "updated", "{data}");
    let odek: Value = serde_json::from_str(&w.read("odek.json")).unwrap();
    assert_eq!(
        odek["mcp_servers"]["agentbox-memory"]["max_result_chars"],
        50000
    );
    assert_eq!(odek["mcp_servers"]["log"]["command"], "x");
    assert_eq!(odek["model"], "m");
    w.data(&["remove", "odek"]);
    assert_eq!(w.read("odek.json"), original);
}

#[test]
fn a_home_whose_path_looks_like_a_credential_is_written_nowhere() {
    let w = World::new();
    w.mark(".cursor");
    let project = w.sb.path().join(format!("ghp_{}", "a1B2c3D4e5".repeat(4)));
    std::fs::create_dir_all(&project).unwrap();
    // Below the sandbox's own home: a second home there must be asked for.
    w.sb.agentbox(&["init", "--nested"])
        .current_dir(&project)
        .assert()
        .success();
    let e = err_of(
        w.cmd(&["install", "cursor"]).current_dir(&project),
        "permission",
        1,
    );
    assert!(e["message"].as_str().unwrap().contains("credential"), "{e}");
    assert!(!project.join(".cursor").exists());
}

/// How `codex mcp add` rewrites `config.toml`: every server as a table of its
/// own, `args` dropped when empty, `env` as a sub-table.
fn codex_rewrite(link: &str, home: &str, env_extra: &str) -> String {
    format!(
        "[mcp_servers.agentbox-memory]\ncommand = \"{link}\"\n\n[mcp_servers.agentbox-memory.env]\nAGENTBOX_HOME = \"{home}\"\n{env_extra}\n[mcp_servers.other]\ncommand = \"/bin/true\"\n"
    )
}

#[test]
fn codex_rewriting_its_config_does_not_disown_our_entry() {
    let w = World::new();
    w.mark(".codex");
    w.data(&["install", "codex", "--scope", "user", "--no-skills"]);
    let path = w.user().join(".codex/config.toml");
    let home = w.project().join(".agent").display().to_string();
    let rewritten = codex_rewrite(&w.link(), &home, "");
    std::fs::write(&path, &rewritten).unwrap();

    let list = w.data(&["list"]);
    let user = &host(&list, "codex")["scopes"][1];
    assert_eq!(user["memory_mcp"]["ours"], true, "{user}");
    assert_eq!(user["memory_mcp"]["points_here"], true, "{user}");
    let env = w.envelope(&["install", "codex", "--scope", "user", "--no-skills"]);
    assert_eq!(env["data"]["installs"][0]["server"], "unchanged", "{env}");
    assert!(env["meta"]["warnings"].is_null(), "{env}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), rewritten);

    let env = w.envelope(&["remove", "codex", "--scope", "user"]);
    assert_eq!(env["data"]["removed"][0]["server"], "removed", "{env}");
    assert!(env["meta"]["warnings"].is_null(), "{env}");
    let left = std::fs::read_to_string(&path).unwrap();
    assert!(!left.contains("agentbox-memory"), "{left}");
    assert!(left.contains("[mcp_servers.other]"), "{left}");
    let state: Value = serde_json::from_str(&w.read(".agent/local/hosts.json")).unwrap();
    assert_eq!(state["installs"], json!([]));

    // an entry running this home's own link, but changed, is not "another home's"
    let changed = codex_rewrite(&w.link(), &home, "DEBUG = \"1\"\n");
    std::fs::write(&path, &changed).unwrap();
    let env = w.envelope(&["install", "codex", "--scope", "user", "--no-skills"]);
    assert_eq!(
        env["data"]["installs"][0]["server"], "kept (user's own entry)",
        "{env}"
    );
    let warning = env["meta"]["warnings"][0].as_str().unwrap();
    assert!(!warning.contains("another home"), "{warning}");
    assert!(warning.contains("this home"), "{warning}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), changed);

    // so is one naming this home's link through a symlinked project folder
    let alias = w.user().join("alias");
    std::os::unix::fs::symlink(w.project(), &alias).unwrap();
    let aliased = alias.join(".agent/tools/memory_mcp").display().to_string();
    std::fs::write(&path, codex_rewrite(&aliased, &home, "")).unwrap();
    let env = w.envelope(&["install", "codex", "--scope", "user", "--no-skills"]);
    let warning = env["meta"]["warnings"][0].as_str().unwrap();
    assert!(!warning.contains("another home"), "{warning}");
    let list = w.data(&["list"]);
    let user = &host(&list, "codex")["scopes"][1];
    assert_eq!(user["memory_mcp"]["points_here"], true, "{user}");
}

#[test]
fn user_scope_with_a_relative_or_missing_home_is_invalid_args() {
    let w = World::new();
    w.exe("cursor", true);
    let missing = w.user().join("gone/away");
    let file = w.user().join("a-file");
    std::fs::write(&file, "").unwrap();
    for bad in [
        "relative/path".to_string(),
        ".".to_string(),
        missing.display().to_string(),
        file.display().to_string(),
    ] {
        let e = err_of(
            w.cmd(&["install", "cursor", "--scope", "user"])
                .env("HOME", &bad),
            "invalid_args",
            2,
        );
        assert!(e["message"].as_str().unwrap().contains("HOME"), "{e}");
        assert!(e["hint"].as_str().unwrap().contains("HOME"), "{e}");
        // list still answers: the user scope is just not available
        let list = ok_data(w.cmd(&["list"]).env("HOME", &bad));
        let user = &host(&list, "cursor")["scopes"][1];
        assert_eq!(user["available"], false, "{bad}: {user}");
    }
    assert!(!w.sb.path().join("relative").exists());
    assert!(!w.sb.path().join(".cursor").exists());
    assert!(!w.user().join("gone").exists());
    assert!(!w.sb.path().join(".agent/local/hosts.json").exists());
}

fn symlink(target: &Path, link: &Path) {
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[test]
fn symlinked_host_configs_and_skill_folders_are_refused_unless_followed() {
    let w = World::new();
    w.mark(".cursor");
    w.mark(".claude");
    let outside = tempfile::tempdir().unwrap();
    let elsewhere = outside.path().join("mcp.json");
    std::fs::write(&elsewhere, "{}\n").unwrap();
    let link = w.project().join(".cursor/mcp.json");
    symlink(&elsewhere, &link);

    // the config file itself
    let e = err_of(&mut w.cmd(&["install", "cursor"]), "permission", 1);
    assert_eq!(e["detail"]["path"], link.display().to_string(), "{e}");
    assert!(
        e["hint"].as_str().unwrap().contains("--follow-symlinks"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "{}\n");
    assert!(!w.sb.path().join(".agent/local/hosts.json").exists());
    let list = w.data(&["list"]);
    let project = &host(&list, "cursor")["scopes"][0];
    assert!(
        project["memory_mcp"]["error"]
            .as_str()
            .unwrap()
            .contains("symlink"),
        "{project}"
    );

    // a dangling link creates nothing, even when links are followed
    let nowhere = outside.path().join("nowhere.json");
    std::fs::remove_file(&link).unwrap();
    symlink(&nowhere, &link);
    err_of(&mut w.cmd(&["install", "cursor"]), "permission", 1);
    err_of(
        &mut w.cmd(&["install", "cursor", "--follow-symlinks"]),
        "permission",
        1,
    );
    assert!(!nowhere.exists());

    // a folder above it
    std::fs::remove_file(&link).unwrap();
    std::fs::remove_dir(w.sb.path().join(".cursor")).unwrap();
    let dir = outside.path().join("cursor-dir");
    std::fs::create_dir(&dir).unwrap();
    symlink(&dir, &w.sb.path().join(".cursor"));
    let e = err_of(&mut w.cmd(&["install", "cursor"]), "permission", 1);
    assert_eq!(
        e["detail"]["path"],
        w.project().join(".cursor").display().to_string(),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);

    // a skills folder, when there is a skill to export
    skill(&w, "screened");
    ok_data(&mut w.sb.agentbox(&["skill_forge", "screen", "screened"]));
    let skills = outside.path().join("skills");
    std::fs::create_dir(&skills).unwrap();
    symlink(&skills, &w.sb.path().join(".claude/skills"));
    let e = err_of(&mut w.cmd(&["install", "claude-code"]), "permission", 1);
    assert_eq!(
        e["detail"]["path"],
        w.project().join(".claude/skills").display().to_string(),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&skills).unwrap().count(), 0);
    assert!(!w.sb.path().join(".mcp.json").exists(), "nothing written");

    // --follow-symlinks writes at the targets, and the links stay links
    let data = w.data(&["install", "cursor", "claude-code", "--follow-symlinks"]);
    assert_eq!(data["installs"][0]["server"], "added", "{data}");
    assert!(dir.join("mcp.json").is_file());
    assert!(skills.join("screened/SKILL.md").is_file());
    assert!(
        std::fs::symlink_metadata(w.sb.path().join(".claude/skills"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // remove refuses too, and forgets nothing
    err_of(&mut w.cmd(&["remove", "cursor"]), "permission", 1);
    assert!(dir.join("mcp.json").is_file());
    let list = w.data(&["list", "--follow-symlinks"]);
    assert_eq!(
        host(&list, "cursor")["scopes"][0]["memory_mcp"]["ours"],
        true,
        "{list}"
    );
    let data = w.data(&["remove", "--all", "--follow-symlinks"]);
    let servers: Vec<(&str, &str)> = data["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["host"].as_str().unwrap(), r["server"].as_str().unwrap()))
        .collect();
    assert_eq!(
        servers,
        [("claude-code", "removed"), ("cursor", "removed")],
        "{data}"
    );
    assert!(!dir.join("mcp.json").exists());
    assert!(!skills.join("screened").exists());

    // a skill folder that is a link is never agentbox's export
    let copy = outside.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(w.sb.home().join("skills/screened")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
    }
    symlink(&copy, &skills.join("screened"));
    let data = w.data(&["install", "claude-code", "--follow-symlinks"]);
    assert_eq!(
        data["installs"][0]["skills"][0]["status"], "kept (not agentbox's)",
        "{data}"
    );
    w.data(&["remove", "claude-code", "--follow-symlinks"]);
    assert!(copy.join("SKILL.md").is_file());
}

/// The `sync hosts list` lines of Claude Code, Codex and Gemini CLI, text.
fn gated_lines(w: &World) -> String {
    let out = w.cmd(&["list", "--format", "text"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    stdout
        .lines()
        .filter(|l| {
            ["claude-code ", "codex ", "gemini "]
                .iter()
                .any(|h| l.starts_with(h))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Writes `text` at `rel` under the temp `$HOME`.
fn user_file(w: &World, rel: &str, text: &str) {
    let path = w.user().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn clear_gates(w: &World) {
    for rel in [
        ".claude.json",
        ".claude/settings.json",
        ".codex/config.toml",
        ".gemini/settings.json",
        ".gemini/trustedFolders.json",
    ] {
        let _ = std::fs::remove_file(w.user().join(rel));
    }
    let _ = std::fs::remove_file(w.project().join(".claude/settings.local.json"));
}

#[test]
fn hosts_that_gate_project_servers_report_approval_and_trust() {
    let w = World::new();
    for mark in [".claude", ".codex", ".gemini"] {
        w.mark(mark);
    }
    let data = w.data(&["install", "claude-code", "codex", "gemini", "--no-skills"]);
    let states: Vec<&str> = data["installs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["state"].as_str().unwrap())
        .collect();
    assert_eq!(
        states,
        ["needs approval", "needs trust", "needs trust"],
        "{data}"
    );
    let p = w.project().display().to_string();
    let parent = w.project().parent().unwrap().display().to_string();
    let scenarios: Vec<(&str, Vec<(&str, String)>)> = vec![
        ("missing: nothing approved or trusted yet", vec![]),
        (
            "approved in ~/.claude.json, trusted in config.toml and trustedFolders.json",
            vec![
                (
                    ".claude.json",
                    json!({"projects": {&p: {"enabledMcpjsonServers": ["agentbox-memory"]}}})
                        .to_string(),
                ),
                (
                    ".codex/config.toml",
                    format!("model = \"o3\"\n[projects.\"{p}\"]\ntrust_level = \"trusted\"\n"),
                ),
                (
                    ".gemini/trustedFolders.json",
                    json!({&p: "TRUST_FOLDER"}).to_string(),
                ),
            ],
        ),
        (
            "approved by settings, trusted through the folder above, folder trust off",
            vec![
                (
                    ".claude/settings.json",
                    "{\n  // mine\n  \"enableAllProjectMcpServers\": true\n}\n".to_string(),
                ),
                (
                    ".codex/config.toml",
                    format!("[projects.'{parent}']\ntrust_level = \"trusted\"\n"),
                ),
                (
                    ".gemini/settings.json",
                    json!({"security": {"folderTrust": {"enabled": false}}}).to_string(),
                ),
            ],
        ),
        (
            "rejected, untrusted, do not trust",
            vec![
                (
                    ".claude.json",
                    json!({"projects": {&p: {"enableAllProjectMcpServers": true, "disabledMcpjsonServers": ["agentbox-memory"]}}})
                        .to_string(),
                ),
                (
                    ".codex/config.toml",
                    format!("[projects.\"{parent}\"]\ntrust_level = \"trusted\"\n[projects.\"{p}\"]\ntrust_level = \"untrusted\"\n"),
                ),
                (
                    ".gemini/trustedFolders.json",
                    json!({&parent: "TRUST_FOLDER", &p: "DO_NOT_TRUST"}).to_string(),
                ),
            ],
        ),
        (
            "another project approved and trusted, not this one",
            vec![
                (
                    ".claude.json",
                    json!({"projects": {"/elsewhere": {"enabledMcpjsonServers": ["agentbox-memory"]}}})
                        .to_string(),
                ),
                (
                    ".codex/config.toml",
                    "[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n".to_string(),
                ),
                (
                    ".gemini/trustedFolders.json",
                    json!({
                        "/elsewhere/x": "TRUST_PARENT",
                        format!("{p}-other"): "TRUST_FOLDER",
                        // Not absolute: no folder of Gemini's own making,
                        // and "" is a prefix of every path.
                        "": "TRUST_FOLDER",
                        "site": "TRUST_FOLDER"
                    })
                        .to_string(),
                ),
            ],
        ),
        (
            "malformed: not JSON, not TOML, an unknown trust level",
            vec![
                (".claude.json", "{\"projects\": {oops".to_string()),
                (".codex/config.toml", "[projects\ntrust_level = 1\n".to_string()),
                (
                    ".gemini/trustedFolders.json",
                    json!({&p: "TRUST_ME"}).to_string(),
                ),
            ],
        ),
        (
            "not files: a folder where the trust file goes",
            vec![(".gemini/trustedFolders.json/x", "{}".to_string())],
        ),
    ];
    let mut report = String::new();
    for (name, files) in &scenarios {
        clear_gates(&w);
        for (rel, text) in files {
            user_file(&w, rel, text);
        }
        report.push_str(&format!("## {name}\n{}", gated_lines(&w)));
    }
    insta::assert_snapshot!(report);

    // the approval can sit in the project's local settings, which the JSON
    // output names as the reason
    clear_gates(&w);
    w.write(
        ".claude/settings.local.json",
        "{\"enabledMcpjsonServers\": [\"agentbox-memory\"]}",
    );
    let list = w.data(&["list"]);
    let project = &host(&list, "claude-code")["scopes"][0]["memory_mcp"];
    assert_eq!(project["state"], "configured", "{project}");
    assert!(
        project["gate"]["reason"]
            .as_str()
            .unwrap()
            .ends_with(".claude/settings.local.json"),
        "{project}"
    );
    // and what is pending says how to clear it
    let codex = &host(&list, "codex")["scopes"][0]["memory_mcp"];
    assert_eq!(codex["state"], "needs trust", "{codex}");
    assert!(
        codex["gate"]["clear"]
            .as_str()
            .unwrap()
            .contains(&format!("[projects.\"{p}\"] trust_level = \"trusted\"")),
        "{codex}"
    );
    // a user-scope entry is loaded without asking
    w.data(&["install", "claude-code", "--scope", "user", "--no-skills"]);
    let list = w.data(&["list"]);
    assert_eq!(
        host(&list, "claude-code")["scopes"][1]["memory_mcp"]["state"],
        "configured"
    );
}

#[test]
fn install_says_what_remains_and_never_writes_the_hosts_trust_files() {
    let w = World::new();
    for mark in [".claude", ".codex", ".gemini"] {
        w.mark(mark);
    }
    user_file(&w, ".gemini/trustedFolders.json", "{}");
    user_file(&w, ".codex/config.toml", "# mine\n");
    let out = w
        .cmd(&[
            "install",
            "claude-code",
            "codex",
            "gemini",
            "--no-skills",
            "--format",
            "text",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let p = w.project().display().to_string();
    assert!(
        stdout.contains(&format!(
            "  to clear it: run `claude` in {p} and approve `agentbox-memory` when it asks"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("  needs trust: Codex reads .codex/config.toml only in a trusted project"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("\"{p}\": \"TRUST_FOLDER\"")),
        "{stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(w.user().join(".gemini/trustedFolders.json")).unwrap(),
        "{}"
    );
    assert_eq!(
        std::fs::read_to_string(w.user().join(".codex/config.toml")).unwrap(),
        "# mine\n"
    );
    assert!(!w.user().join(".claude.json").exists());
}

#[test]
fn codex_home_names_where_codex_keeps_its_trust() {
    let w = World::new();
    w.mark(".codex");
    w.data(&["install", "codex", "--no-skills"]);
    let elsewhere = tempfile::tempdir().unwrap();
    let p = w.project().display().to_string();
    std::fs::write(
        elsewhere.path().join("config.toml"),
        format!("[projects.\"{p}\"]\ntrust_level = \"trusted\"\n"),
    )
    .unwrap();
    let state = |codex_home: Option<&Path>| {
        let mut cmd = w.cmd(&["list"]);
        if let Some(dir) = codex_home {
            cmd.env("CODEX_HOME", dir);
        }
        let list = ok_data(&mut cmd);
        host(&list, "codex")["scopes"][0]["memory_mcp"]["state"].clone()
    };
    assert_eq!(state(None), "needs trust");
    assert_eq!(state(Some(elsewhere.path())), "configured");
}

#[test]
fn the_zed_entry_says_source_custom() {
    let w = World::new();
    w.mark(".config/zed");
    w.data(&["install", "zed"]);
    let zed: Value = serde_json::from_str(&w.read(".zed/settings.json")).unwrap();
    let entry = &zed["context_servers"]["agentbox-memory"];
    assert_eq!(entry["source"], "custom", "{zed}");
    assert_eq!(entry["command"], w.link());
    let list = w.data(&["list"]);
    let zed = &host(&list, "zed")["scopes"][0]["memory_mcp"];
    assert_eq!(zed["points_here"], true, "{zed}");
    assert_eq!(zed["state"], "configured", "{zed}");
}

/// A host file nested deeper than any real one (a hostile or corrupt
/// `~/.claude.json`, `trustedFolders.json`, project `.mcp.json`) is a file
/// that does not parse, never a crash of the whole command (a recursive
/// parser overflows its stack on it).
#[test]
fn a_deeply_nested_host_file_is_unknown_not_a_crash() {
    let w = World::new();
    for mark in [".claude", ".gemini"] {
        w.mark(mark);
    }
    w.data(&["install", "claude-code", "gemini", "--no-skills"]);
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(200_000), "]".repeat(200_000));
    user_file(&w, ".claude.json", &deep);
    user_file(&w, ".gemini/trustedFolders.json", &deep);
    let list = w.data(&["list"]);
    for id in ["claude-code", "gemini"] {
        let gate = &host(&list, id)["scopes"][0]["memory_mcp"];
        assert_eq!(gate["state"], "unknown", "{id}: {gate}");
        assert!(
            gate["gate"]["reason"].as_str().unwrap().contains("nest"),
            "{id}: {gate}"
        );
    }
    // The project's own config, which install edits, the same way.
    w.write(".mcp.json", &deep);
    let err = w.envelope(&["install", "claude-code", "--no-skills"]);
    assert_eq!(err["ok"], false, "{err}");
    assert!(
        err["error"]["message"].as_str().unwrap().contains("nest"),
        "{err}"
    );
}
