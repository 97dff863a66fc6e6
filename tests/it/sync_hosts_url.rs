//! `sync hosts install --url`: the HTTP form of the server entry, through the
//! real binary. Each host's exact entry naming the token variable in that
//! host's own syntax (and never the token, though it is set in the call's
//! environment), bad URLs and variable names refused with the envelope and
//! exit code and nothing written, reinstall idempotent, remove taking only
//! our entry, and the hosts that take no URL refusing it.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const URL: &str = "http://127.0.0.1:7411/mcp";

/// A token as `memory_mcp token` makes one: 64 hex digits, which the
/// redactor does not recognise as a credential on its own.
fn secret() -> String {
    "7d1e9a0c".repeat(8)
}

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

    /// Every host that takes a URL detected through its folder under `$HOME`.
    fn with_url_hosts() -> World {
        let w = World::new();
        for mark in [".claude", ".codex", ".cursor", ".gemini", ".vscode"] {
            w.mark(mark);
        }
        w
    }

    fn user(&self) -> &Path {
        self.user.path()
    }

    /// `sync hosts ARGS…` with the token set in the environment of the call.
    fn cmd(&self, args: &[&str]) -> assert_cmd::Command {
        let mut cmd = self.sb.agentbox(&["sync", "hosts"]);
        cmd.args(args)
            .env("HOME", self.user.path())
            .env("PATH", self.bin.path())
            .env("AGENTBOX_MCP_TOKEN", secret())
            .env_remove("MEMORY_TOKEN")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CODEX_HOME");
        cmd
    }

    fn data(&self, args: &[&str]) -> Value {
        ok_data(&mut self.cmd(args))
    }

    fn envelope(&self, args: &[&str]) -> Value {
        common::envelope(&mut self.cmd(args)).0
    }

    fn mark(&self, rel: &str) {
        std::fs::create_dir_all(self.user().join(rel)).unwrap();
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

    /// Every file under the project and `$HOME` that holds `needle`.
    fn files_holding(&self, needle: &str) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for root in [self.sb.path(), self.user()] {
            walk(root, &mut |path| {
                let bytes = std::fs::read(path).unwrap_or_default();
                if String::from_utf8_lossy(&bytes).contains(needle) {
                    found.push(path.to_path_buf());
                }
            });
        }
        found
    }
}

fn walk(dir: &Path, each: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            walk(&path, each);
        } else if kind.is_file() {
            each(&path);
        }
    }
}

/// The runs of a command: stdout and stderr, which must not hold the token.
fn run(w: &World, args: &[&str]) -> (Value, String) {
    let out = w.cmd(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !stdout.contains(&secret()) && !stderr.contains(&secret()),
        "the token was echoed: {stdout}{stderr}"
    );
    (serde_json::from_str(stdout.trim()).unwrap(), stderr)
}

fn install_of<'a>(data: &'a Value, host: &str) -> &'a Value {
    data["installs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["host"] == host)
        .unwrap_or_else(|| panic!("no {host} in {data}"))
}

/// What each host's file holds after an install into a fresh project.
fn expected_project_files(var: &str) -> Vec<(&'static str, String)> {
    let json_entry = |key: &str, entry: Value| {
        let mut text =
            serde_json::to_string_pretty(&json!({ key: {"agentbox-memory": entry} })).unwrap();
        text.push('\n');
        text
    };
    vec![
        (
            ".mcp.json",
            json_entry(
                "mcpServers",
                json!({"type": "http", "url": URL, "headers": {"Authorization": format!("Bearer ${{{var}}}")}}),
            ),
        ),
        (
            ".codex/config.toml",
            format!(
                "[mcp_servers.agentbox-memory]\nurl = \"{URL}\"\nbearer_token_env_var = \"{var}\"\n"
            ),
        ),
        (
            ".cursor/mcp.json",
            json_entry(
                "mcpServers",
                json!({"url": URL, "headers": {"Authorization": format!("Bearer ${{env:{var}}}")}}),
            ),
        ),
        (
            ".gemini/settings.json",
            json_entry(
                "mcpServers",
                json!({"httpUrl": URL, "headers": {"Authorization": format!("Bearer ${{{var}}}")}}),
            ),
        ),
        (
            ".vscode/mcp.json",
            json_entry(
                "servers",
                json!({"type": "http", "url": URL, "headers": {"Authorization": format!("Bearer ${{env:{var}}}")}}),
            ),
        ),
    ]
}

#[test]
fn each_host_gets_its_own_remote_entry_naming_the_variable_never_the_token() {
    let w = World::with_url_hosts();
    let args = ["install", "--all", "--url", URL, "--format", "json"];
    let (env, stderr) = run(&w, &args);
    assert_eq!(env["ok"], true, "{env} {stderr}");
    for (rel, expected) in expected_project_files("AGENTBOX_MCP_TOKEN") {
        assert_eq!(w.read(rel), expected, "{rel}");
    }
    // The report says where the token comes from, unmasked: it names a
    // variable, and no key says `token`.
    let data = &env["data"];
    for (host, field, reference) in [
        (
            "claude-code",
            "headers.Authorization",
            "${AGENTBOX_MCP_TOKEN}",
        ),
        ("codex", "bearer_token_env_var", "AGENTBOX_MCP_TOKEN"),
        (
            "cursor",
            "headers.Authorization",
            "${env:AGENTBOX_MCP_TOKEN}",
        ),
        ("gemini", "headers.Authorization", "${AGENTBOX_MCP_TOKEN}"),
        (
            "vscode",
            "headers.Authorization",
            "${env:AGENTBOX_MCP_TOKEN}",
        ),
    ] {
        let i = install_of(data, host);
        assert_eq!(i["server"], "added", "{i}");
        assert_eq!(i["transport"], "http", "{i}");
        assert_eq!(i["url"], URL, "{i}");
        assert_eq!(i["bearer_env"], "AGENTBOX_MCP_TOKEN", "{i}");
        assert_eq!(i["bearer_field"], field, "{i}");
        assert_eq!(i["bearer_ref"], reference, "{i}");
    }
    // The state records the URL form, naming the variable.
    let owned: Value = serde_json::from_str(
        &std::fs::read_to_string(w.sb.home().join("local/hosts.json")).unwrap(),
    )
    .unwrap();
    for record in owned["installs"].as_array().unwrap() {
        assert_eq!(record["server"]["url"], URL, "{record}");
        assert_eq!(
            record["server"]["bearer_env"], "AGENTBOX_MCP_TOKEN",
            "{record}"
        );
    }
    // The token is set in the call's environment, yet no file holds it.
    assert_eq!(w.files_holding(&secret()), Vec::<PathBuf>::new());
    // The text form names the reference, not the token.
    let out = w
        .cmd(&["install", "cursor", "--url", URL, "--format", "text"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("memory_mcp at {URL} unchanged"))
            && text.contains("headers.Authorization names ${env:AGENTBOX_MCP_TOKEN}"),
        "{text}"
    );
    assert!(!text.contains(&secret()));
}

#[test]
fn user_scope_and_another_variable_are_written_the_same_way() {
    let w = World::with_url_hosts();
    let data = w.data(&[
        "install",
        "--all",
        "--scope",
        "user",
        "--url",
        URL,
        "--token-env",
        "MEMORY_TOKEN",
    ]);
    let user_files = [
        ".claude.json",
        ".codex/config.toml",
        ".cursor/mcp.json",
        ".gemini/settings.json",
        if cfg!(target_os = "macos") {
            "Library/Application Support/Code/User/mcp.json"
        } else {
            ".config/Code/User/mcp.json"
        },
    ];
    for ((_, expected), rel) in expected_project_files("MEMORY_TOKEN")
        .into_iter()
        .zip(user_files)
    {
        let path = w.user().join(rel);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected, "{rel}");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{rel}");
    }
    assert_eq!(install_of(&data, "codex")["bearer_env"], "MEMORY_TOKEN");
    assert_eq!(w.files_holding(&secret()), Vec::<PathBuf>::new());
}

#[test]
fn unset_variable_and_plain_http_elsewhere_are_warned_about() {
    let w = World::with_url_hosts();
    let env = w.envelope(&[
        "install",
        "cursor",
        "--url",
        URL,
        "--token-env",
        "MEMORY_TOKEN",
    ]);
    let warnings = env["meta"]["warnings"].to_string();
    assert!(warnings.contains("MEMORY_TOKEN is not set here"), "{env}");
    assert!(!warnings.contains("in clear"), "{env}");
    let env = w.envelope(&["install", "cursor", "--url", "http://10.0.0.5:7411/mcp"]);
    let warnings = env["meta"]["warnings"].to_string();
    assert!(
        warnings.contains("in clear") && warnings.contains("10.0.0.5"),
        "{env}"
    );
    assert!(!warnings.contains("is not set here"), "{env}");
    let env = w.envelope(&[
        "install",
        "cursor",
        "--url",
        "https://memory.example.com/mcp",
    ]);
    assert!(env["meta"]["warnings"].is_null(), "{env}");
}

#[test]
fn bad_urls_and_names_are_invalid_args_and_write_nothing() {
    let w = World::with_url_hosts();
    let token = secret();
    let bad_urls = [
        "127.0.0.1:7411/mcp".to_string(),
        "ftp://127.0.0.1:7411/mcp".to_string(),
        "http:///mcp".to_string(),
        "http://127.0.0.1:7411".to_string(),
        "http://127.0.0.1:99999/mcp".to_string(),
        "http://127.0.0.1:7411/mcp#top".to_string(),
        "http://127.0.0.1:7411/mcp?x=1".to_string(),
        "http://127.0.0.1:7411/mcp?token=abcdef123456".to_string(),
        "http://me:hunter2hunter2@127.0.0.1:7411/mcp".to_string(),
        "http://me@127.0.0.1:7411/mcp".to_string(),
        "http://127.0.0.1:7411/mcp;token=abcdef123456".to_string(),
        "http://127.0.0.1:7411/${AGENTBOX_MCP_TOKEN}/mcp".to_string(),
        "https://127.0.0.1:7411/mcp/ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5".to_string(),
        // the token itself, from the call's environment
        format!("http://127.0.0.1:7411/{token}/mcp"),
        // … in another spelling: upper case, one byte percent-escaped
        format!("http://127.0.0.1:7411/{}/mcp", token.to_uppercase()),
        format!(
            "http://127.0.0.1:7411/%{:02X}{}/mcp",
            token.as_bytes()[0],
            &token[1..]
        ),
    ];
    for url in &bad_urls {
        let e = err_of(
            &mut w.cmd(&["install", "cursor", "--url", url]),
            "invalid_args",
            2,
        );
        let shown = e.to_string();
        assert!(shown.contains("the --url"), "{url}: {e}");
        for part in [
            "abcdef123456",
            "hunter2hunter2",
            "a1B2c3D4e5",
            token.as_str(),
        ] {
            assert!(!shown.contains(part), "{url} echoed: {e}");
        }
    }
    let bad_names = [
        "",
        "1TOKEN",
        "MY-TOKEN",
        "${AGENTBOX_MCP_TOKEN}",
        "TOKEN=abc",
        "ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5",
        token.as_str(),
    ];
    for name in bad_names {
        let e = err_of(
            &mut w.cmd(&["install", "cursor", "--url", URL, "--token-env", name]),
            "invalid_args",
            2,
        );
        assert!(
            e["message"].as_str().unwrap().contains("the --token-env"),
            "{name}: {e}"
        );
        if name.len() > 8 {
            assert!(!e.to_string().contains(name), "{name} echoed: {e}");
        }
    }
    // The home's token file counts as a known token too.
    let from_file = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    std::fs::write(
        w.sb.home().join("local/mcp-token"),
        format!("{from_file}\n"),
    )
    .unwrap();
    let e = err_of(
        &mut w.cmd(&[
            "install",
            "cursor",
            "--url",
            &format!("http://127.0.0.1:7411/{from_file}/mcp"),
        ]),
        "invalid_args",
        2,
    );
    assert!(
        e["message"].as_str().unwrap().contains("local/mcp-token"),
        "{e}"
    );
    assert!(!e.to_string().contains(from_file), "{e}");
    // --token-env alone is a usage error.
    let (env, code) = common::envelope(&mut w.cmd(&["install", "cursor", "--token-env", "T"]));
    assert_eq!(
        (env["error"]["type"].as_str(), code),
        (Some("invalid_args"), 2),
        "{env}"
    );
    // Nothing was written, for any host.
    for rel in [".mcp.json", ".cursor", ".codex", ".gemini", ".vscode"] {
        assert!(!w.sb.path().join(rel).exists(), "{rel} was written");
    }
    assert!(!w.sb.home().join("local/hosts.json").exists());
}

#[test]
fn reinstall_is_idempotent_and_switching_forms_replaces_our_entry() {
    let w = World::with_url_hosts();
    w.data(&["install", "claude-code", "codex", "--url", URL]);
    let first = (w.read(".mcp.json"), w.read(".codex/config.toml"));
    let again = w.data(&["install", "claude-code", "codex", "--url", URL]);
    for host in ["claude-code", "codex"] {
        assert_eq!(install_of(&again, host)["server"], "unchanged", "{again}");
    }
    assert_eq!((w.read(".mcp.json"), w.read(".codex/config.toml")), first);
    // list: this home's, at a URL
    let list = w.data(&["list"]);
    let claude = list["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "claude-code")
        .unwrap();
    let mcp = &claude["scopes"][0]["memory_mcp"];
    assert_eq!(
        (
            &mcp["ours"],
            &mcp["points_here"],
            &mcp["transport"],
            &mcp["url"]
        ),
        (&json!(true), &json!(true), &json!("http"), &json!(URL)),
        "{claude}"
    );
    let out = w.cmd(&["list", "--format", "text"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("codex") && l.contains("here (http)")),
        "{text}"
    );
    // Back to the command form, then to another URL: our entry is replaced.
    let stdio = w.data(&["install", "codex", "--no-skills"]);
    assert_eq!(install_of(&stdio, "codex")["server"], "updated", "{stdio}");
    assert!(w.read(".codex/config.toml").contains("command = "));
    let other = "http://localhost:7412/mcp";
    let moved = w.data(&["install", "codex", "--url", other]);
    assert_eq!(install_of(&moved, "codex")["server"], "updated", "{moved}");
    assert_eq!(
        w.read(".codex/config.toml"),
        format!(
            "[mcp_servers.agentbox-memory]\nurl = \"{other}\"\nbearer_token_env_var = \"AGENTBOX_MCP_TOKEN\"\n"
        )
    );
}

#[test]
fn remove_takes_only_our_entry_and_leaves_a_users_own_url_entry() {
    let w = World::with_url_hosts();
    let original = "{\n  // my servers\n  \"mcpServers\": {\n    \"docs\": {\"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n";
    w.write(".cursor/mcp.json", original);
    let codex_original = "# mine\n[mcp_servers.docs]\nurl = \"https://docs.example.com/mcp\"\n";
    w.write(".codex/config.toml", codex_original);
    w.data(&["install", "cursor", "codex", "gemini", "--url", URL]);
    assert!(w.read(".cursor/mcp.json").contains("// my servers"));
    let removed = w.data(&["remove", "--all"]);
    assert_eq!(removed["removed"].as_array().unwrap().len(), 3, "{removed}");
    assert_eq!(w.read(".cursor/mcp.json"), original);
    assert_eq!(w.read(".codex/config.toml"), codex_original);
    assert!(
        !w.sb.path().join(".gemini").exists(),
        "created folder left behind"
    );

    // A user's own URL entry (a token in its query): install leaves it,
    // list calls it the user's and shows no URL, remove leaves it.
    let users = "{\"mcpServers\": {\"agentbox-memory\": {\"url\": \"http://127.0.0.1:7411/mcp?token=abcdef123456\"}}}\n";
    w.write(".cursor/mcp.json", users);
    let env = w.envelope(&["install", "cursor", "--url", URL]);
    assert_eq!(
        install_of(&env["data"], "cursor")["server"],
        "kept (user's own entry)",
        "{env}"
    );
    assert_eq!(w.read(".cursor/mcp.json"), users);
    let out = w.cmd(&["list"]).output().unwrap();
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(!list.contains("abcdef123456"), "{list}");
    let list: Value = serde_json::from_str(list.trim()).unwrap();
    let cursor = list["data"]["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "cursor")
        .unwrap();
    let mcp = &cursor["scopes"][0]["memory_mcp"];
    assert_eq!(
        (&mcp["ours"], &mcp["transport"]),
        (&json!(false), &json!("http")),
        "{cursor}"
    );
    assert!(mcp.get("url").is_none(), "{cursor}");
    w.data(&["remove", "cursor"]);
    assert_eq!(w.read(".cursor/mcp.json"), users);

    // Ours, edited since (another port): remove leaves it with a warning.
    w.write(".cursor/mcp.json", "{}\n");
    w.data(&["install", "cursor", "--url", URL]);
    let edited = w.read(".cursor/mcp.json").replace("7411", "7499");
    w.write(".cursor/mcp.json", &edited);
    let env = w.envelope(&["remove", "cursor"]);
    assert_eq!(
        env["data"]["removed"][0]["server"], "kept (changed by the user)",
        "{env}"
    );
    assert_eq!(w.read(".cursor/mcp.json"), edited);
}

#[test]
fn hosts_that_take_no_url_refuse_it_with_the_alternative() {
    let w = World::new();
    w.mark(".config/zed");
    w.mark(".odek");
    for (host, name) in [("zed", "Zed"), ("odek", "odek")] {
        let e = err_of(
            &mut w.cmd(&["install", host, "--url", URL]),
            "invalid_args",
            2,
        );
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{name} cannot take memory_mcp at a URL")),
            "{e}"
        );
        assert!(
            e["hint"]
                .as_str()
                .unwrap()
                .contains(&format!("install {host} without --url")),
            "{e}"
        );
        assert_eq!(e["detail"]["host"], host);
    }
    // Named with a host that takes it: nothing is written at all.
    w.mark(".cursor");
    err_of(
        &mut w.cmd(&["install", "cursor", "zed", "--url", URL]),
        "invalid_args",
        2,
    );
    assert!(!w.sb.path().join(".cursor").exists());
    // --all skips them with a warning and installs the rest.
    let env = w.envelope(&["install", "--all", "--url", URL]);
    assert_eq!(env["ok"], true, "{env}");
    let hosts: Vec<&str> = env["data"]["installs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["host"].as_str().unwrap())
        .collect();
    assert_eq!(hosts, ["cursor"]);
    let warnings = env["meta"]["warnings"].to_string();
    assert!(
        warnings.contains("zed: skipped") && warnings.contains("odek: skipped"),
        "{env}"
    );
    assert!(!w.sb.path().join(".zed").exists() && !w.sb.path().join("odek.json").exists());
    // --all with only such hosts: refused.
    let w = World::new();
    w.mark(".config/zed");
    let e = err_of(
        &mut w.cmd(&["install", "--all", "--url", URL]),
        "invalid_args",
        2,
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("no detected host takes memory_mcp at a URL"),
        "{e}"
    );
    // Without --url, zed still installs (the stdio form).
    w.data(&["install", "zed"]);
    assert!(w.read(".zed/settings.json").contains("\"command\""));
}

/// `memory_mcp --http 127.0.0.1:0` of the sandbox's home, with `token` as
/// its bearer token; killed on drop.
struct Server {
    child: std::process::Child,
    port: u16,
}

impl Server {
    fn start(w: &World, token: &str) -> Server {
        use std::io::{BufRead, BufReader};
        let mut cmd = w.sb.std_command(w.sb.home().join("tools/memory_mcp"));
        cmd.args(["--http", "127.0.0.1:0"])
            .env("AGENTBOX_MCP_TOKEN", token)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        // Keep reading stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server { child, port }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Replaces `${NAME}` (and `${env:NAME}` when `env_prefix`) with the value
/// in `vars`, leaving an unknown one as written, as the hosts do.
fn expand(text: &str, vars: &[(&str, &str)], env_prefix: bool) -> String {
    let mut out = text.to_string();
    for (name, value) in vars {
        let reference = if env_prefix {
            format!("${{env:{name}}}")
        } else {
            format!("${{{name}}}")
        };
        out = out.replace(&reference, value);
    }
    out
}

/// What `host` sends, read from the entry it was given the way it reads
/// it: the URL and the headers, with the variables of its environment
/// (`vars`) expanded in its own syntax.
fn as_host_sends(
    host: &str,
    entry: &Value,
    vars: &[(&str, &str)],
) -> (String, Vec<(String, String)>) {
    let json_headers = |prefix: bool| -> Vec<(String, String)> {
        entry["headers"]
            .as_object()
            .map(|h| {
                h.iter()
                    .map(|(k, v)| (k.clone(), expand(v.as_str().unwrap(), vars, prefix)))
                    .collect()
            })
            .unwrap_or_default()
    };
    match host {
        "claude-code" => (
            expand(entry["url"].as_str().unwrap(), vars, false),
            json_headers(false),
        ),
        "gemini" => (
            expand(entry["httpUrl"].as_str().unwrap(), vars, false),
            json_headers(false),
        ),
        "cursor" | "vscode" => (
            expand(entry["url"].as_str().unwrap(), vars, true),
            json_headers(true),
        ),
        "codex" => {
            let var = entry["bearer_token_env_var"].as_str().unwrap();
            let headers = vars
                .iter()
                .find(|(name, _)| *name == var)
                .map(|(_, value)| vec![("Authorization".to_string(), format!("Bearer {value}"))])
                .unwrap_or_default();
            (entry["url"].as_str().unwrap().to_string(), headers)
        }
        other => panic!("no URL form for {other}"),
    }
}

/// POSTs an `initialize` to `url` with `headers`; the HTTP status.
fn initialize_status(url: &str, headers: &[(String, String)]) -> u16 {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_at(rest.find('/').unwrap());
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}"#;
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {response:?}"))
}

#[test]
fn each_written_entry_reaches_the_real_server_with_the_token_only_when_it_is_set() {
    let w = World::with_url_hosts();
    let token = secret();
    let server = Server::start(&w, &token);
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    w.data(&["install", "--all", "--url", &url, "--no-skills"]);
    for (host, rel, key) in [
        ("claude-code", ".mcp.json", "mcpServers"),
        ("codex", ".codex/config.toml", ""),
        ("cursor", ".cursor/mcp.json", "mcpServers"),
        ("gemini", ".gemini/settings.json", "mcpServers"),
        ("vscode", ".vscode/mcp.json", "servers"),
    ] {
        let text = w.read(rel);
        let entry = if key.is_empty() {
            let doc: toml_edit::DocumentMut = text.parse().unwrap();
            let table = doc["mcp_servers"]["agentbox-memory"].as_table().unwrap();
            let mut entry = serde_json::Map::new();
            for (k, v) in table.iter() {
                entry.insert(k.to_string(), json!(v.as_str().unwrap()));
            }
            Value::Object(entry)
        } else {
            serde_json::from_str::<Value>(&text).unwrap()[key]["agentbox-memory"].clone()
        };
        let (to, headers) = as_host_sends(host, &entry, &[("AGENTBOX_MCP_TOKEN", &token)]);
        assert_eq!(initialize_status(&to, &headers), 200, "{host}: {headers:?}");
        // Started where the variable is unset: the literal reference (or
        // no header at all) is refused.
        let (to, headers) = as_host_sends(host, &entry, &[]);
        assert_eq!(initialize_status(&to, &headers), 401, "{host}: {headers:?}");
    }
    drop(server);
}

#[test]
fn the_random_part_of_a_generated_token_is_the_token_too() {
    let w = World::with_url_hosts();
    w.sb.agentbox(&["memory_mcp", "token"]).assert().success();
    let file = std::fs::read_to_string(w.sb.home().join("local/mcp-token")).unwrap();
    let body = file
        .trim()
        .strip_prefix("sk-agentbox-")
        .unwrap()
        .to_string();
    let url = format!("http://127.0.0.1:7411/mcp/{body}");
    err_of(
        &mut w.cmd(&["install", "cursor", "--url", &url]),
        "invalid_args",
        2,
    );
    let name = format!("X{}", body.replace('-', "_"));
    err_of(
        &mut w.cmd(&[
            "install",
            "cursor",
            "--url",
            "http://127.0.0.1:7411/mcp",
            "--token-env",
            &name,
        ]),
        "invalid_args",
        2,
    );
}

#[test]
fn a_config_path_that_is_not_a_regular_file_is_refused_not_read() {
    let w = World::with_url_hosts();
    let fifo = w.sb.path().join(".mcp.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Without the check the read of a FIFO never returns: the timeout fails it.
    let mut cmd = w.cmd(&[
        "install",
        "claude-code",
        "--url",
        "http://127.0.0.1:7411/mcp",
    ]);
    cmd.timeout(std::time::Duration::from_secs(60));
    err_of(&mut cmd, "conflict", 1);
}

#[test]
fn remove_refuses_a_record_that_points_elsewhere_and_touches_nothing() {
    let w = World::with_url_hosts();
    w.cmd(&["install", "cursor", "--url", "http://127.0.0.1:7411/mcp"])
        .assert()
        .success();
    // Another tool's entry in another file, and a record edited to point at it.
    let other = w.sb.path().join("other.json");
    let other_text = r#"{"mcpServers": {"github": {"command": "gh-mcp"}}}"#;
    std::fs::write(&other, other_text).unwrap();
    let state = w.sb.home().join("local/hosts.json");
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    for install in record["installs"].as_array_mut().unwrap() {
        if let Some(server) = install.get_mut("server") {
            server["config"] = json!(other.display().to_string());
            server["key"] = json!("github");
        }
    }
    std::fs::write(&state, record.to_string()).unwrap();
    err_of(&mut w.cmd(&["remove", "cursor"]), "conflict", 1);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), other_text);
    // A skill path that climbs out of the skills folder is refused the same way.
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    for install in record["installs"].as_array_mut().unwrap() {
        install["server"] = Value::Null;
        install["skills"] = json!([{"name": "x", "path": w.sb.path().join(".cursor/skills/..").display().to_string(), "hash": "0"}]);
    }
    std::fs::write(&state, record.to_string()).unwrap();
    err_of(&mut w.cmd(&["remove", "cursor"]), "conflict", 1);
    assert!(w.sb.path().join(".cursor").exists());
}

#[test]
fn a_home_whose_path_holds_a_dollar_is_not_written_into_a_command() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("${HOME}x");
    std::fs::create_dir_all(&project).unwrap();
    let user = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(user.path().join(".cursor")).unwrap();
    let run = |args: &[&str]| {
        let mut cmd = assert_cmd::Command::new(common::bin());
        cmd.args(args)
            .current_dir(&project)
            .env("HOME", user.path())
            .env("CI", "true")
            .env_remove("AGENTBOX_HOME")
            .env_remove("AGENTBOX_MCP_TOKEN");
        cmd
    };
    run(&["init"]).assert().success();
    err_of(
        &mut run(&["sync", "hosts", "install", "cursor"]),
        "invalid_args",
        2,
    );
    assert!(!user.path().join(".cursor/mcp.json").exists());
    assert!(!project.join(".cursor/mcp.json").exists());
}
