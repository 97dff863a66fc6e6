//! `sync hosts` list, install and remove, host by host and scope by scope.
//!
//! Ownership rules (docs/tools/sync-hosts.md): an `agentbox-memory` entry is
//! agentbox's when `local/hosts.json` records the hash of exactly its value,
//! or when it is byte-for-byte the value install would write (adopted). Any
//! other entry of that name is the user's own: install reports it (warning)
//! and leaves it, remove leaves it too.

use super::detect::{self, Entry, Env, HOSTS, HostDef, Scope};
use super::gate;
use super::remote::{self, Remote};
use super::skills::{self, Exportable};
use super::state::{self, Owned, Server};
use super::{SERVER_NAME, UrlArgs, formats};
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::store;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The lock install and remove hold (one writer of `local/hosts.json`).
pub(super) const LOCK: &str = "sync-hosts";
/// odek-extension/v1 limits written for memory_mcp: its own line cap (SPEC
/// §5: never a line over 10 MiB) and a per-request timeout.
const ODEK_MAX_RESPONSE_BYTES: u64 = 10 * 1024 * 1024;
const ODEK_TIMEOUT_SECONDS: u64 = 60;

/// The paths an entry names: the link and the home, both absolute.
pub(super) struct Target {
    home: PathBuf,
    link: PathBuf,
    max_result_chars: u64,
}

impl Target {
    pub(super) fn of(home: &Home) -> Result<Target> {
        let root = home
            .root
            .canonicalize()
            .map_err(|e| Error::io("read", &home.root, &e))?;
        let link = root.join("tools").join("memory_mcp");
        Ok(Target {
            home: root,
            link,
            max_result_chars: home.config.mcp.max_result_chars,
        })
    }

    /// Whether `command` runs this home's link: the same path, or another
    /// spelling of it (through a symlinked project folder). The link itself
    /// is not resolved: every home's link leads to the same executable.
    fn is_link(&self, command: &str) -> bool {
        let path = Path::new(command);
        path == self.link
            || (path.file_name() == self.link.file_name()
                && path
                    .parent()
                    .and_then(|dir| dir.canonicalize().ok())
                    .is_some_and(|dir| Some(dir.as_path()) == self.link.parent()))
    }

    pub(super) fn project(&self) -> PathBuf {
        self.home
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.home.clone())
    }

    /// The server entry for `host`. `AGENTBOX_HOME` is set although the link
    /// alone names the home: a user who exported AGENTBOX_HOME for another
    /// home in the shell that starts the host would otherwise get that home
    /// (the variable wins over the link in the home lookup).
    fn entry(&self, host: &HostDef) -> Value {
        let link = self.link.display().to_string();
        let home = self.home.display().to_string();
        let mut value = json!({});
        if host.entry == Entry::Typed {
            value["type"] = json!("stdio");
        }
        if host.entry == Entry::Zed {
            value["source"] = json!("custom");
        }
        value["command"] = json!(link);
        value["args"] = json!([]);
        value["env"] = json!({"AGENTBOX_HOME": home});
        if host.entry == Entry::Odek {
            value["timeout_seconds"] = json!(ODEK_TIMEOUT_SECONDS);
            value["max_response_bytes"] = json!(ODEK_MAX_RESPONSE_BYTES);
            value["max_result_chars"] = json!(self.max_result_chars);
            value["artifact_roots"] = json!([]);
        }
        value
    }
}

/// The link an entry runs when it looks like agentbox's entry for some home
/// (`…/tools/memory_mcp`): a project config committed from another machine.
fn other_home(entry: &Value) -> Option<&str> {
    entry["command"]
        .as_str()
        .filter(|c| c.ends_with("/tools/memory_mcp"))
}

/// Refuses a host's file or folder whose path leads through a symlink below
/// `base` (the project root or `$HOME`; the base itself and the folders above
/// it may be links), the way the home refuses symlinks inside it: a
/// `.cursor/mcp.json` or `.claude/skills` linked elsewhere would have
/// agentbox write outside the project. With `follow` (`--follow-symlinks`,
/// dotfiles) links are written through, but a link that points at nothing
/// is still refused: writing there would create a file wherever it points.
/// A path outside `base` (a record made under another `$HOME`) has its last
/// name checked.
pub(super) fn check_links(base: &Path, path: &Path, follow: bool) -> Result<()> {
    let start = match path.parent() {
        Some(parent) if !path.starts_with(base) => parent,
        _ => base,
    };
    let rel = path.strip_prefix(start).unwrap_or(path);
    let mut probe = start.to_path_buf();
    for part in rel.components() {
        probe.push(part);
        match std::fs::symlink_metadata(&probe) {
            Err(_) => break,
            Ok(meta) if meta.file_type().is_symlink() => {
                if !follow {
                    return Err(Error::new(
                        ErrorType::Permission,
                        format!(
                            "{} is a symlink; agentbox does not write host files through symlinks",
                            probe.display()
                        ),
                    )
                    .with_hint("replace the link with the real file or folder, or pass --follow-symlinks to write at its target (dotfiles)")
                    .with_detail("path", probe.display().to_string()));
                }
                if std::fs::metadata(&probe).is_err() {
                    return Err(Error::new(
                        ErrorType::Permission,
                        format!(
                            "{} is a symlink that points at nothing; agentbox does not create files through it",
                            probe.display()
                        ),
                    )
                    .with_hint("remove the link, or create what it points at, then retry")
                    .with_detail("path", probe.display().to_string()));
                }
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

pub(super) fn read_config(path: &Path) -> Result<Option<String>> {
    if path.is_dir() {
        return Err(
            Error::conflict(format!("{} is a folder, not a file", path.display()))
                .with_hint("move the folder away (the host reads a file there), then retry")
                .with_detail("path", path.display().to_string()),
        );
    }
    // A FIFO or a device would block the read or never end; a huge file is
    // not a config (the host would not load it either).
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(
                Error::conflict(format!("{} is not a regular file", path.display()))
                    .with_hint(
                        "move it away (the host reads a JSON or TOML file there), then retry",
                    )
                    .with_detail("path", path.display().to_string()),
            );
        }
        if meta.len() > MAX_CONFIG_BYTES {
            return Err(Error::invalid_args(format!(
                "{} is {} bytes, more than a host config holds ({MAX_CONFIG_BYTES})",
                path.display(),
                meta.len()
            ))
            .with_hint("check the file by hand; agentbox edits configs of a sane size only")
            .with_detail("path", path.display().to_string()));
        }
    }
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|e| {
            store::not_utf8(&path.display().to_string(), &e)
                .with_hint("the host's config file must be UTF-8 text; fix it by hand")
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("read", path, &e)),
    }
}

/// The largest host config file read (and rewritten).
const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// A new config file's mode: private under `$HOME` (it may come to hold the
/// user's tokens), ordinary in a project.
fn new_mode(scope: Scope) -> u32 {
    match scope {
        Scope::User => 0o600,
        Scope::Project => 0o644,
    }
}

// ---------------------------------------------------------------- list

pub fn list(home: &Home, follow: bool) -> Result<Outcome> {
    let target = Target::of(home)?;
    let env = Env::current(target.project(), follow);
    let (exportable, _) = skills::exportable(home)?;
    let owned = Owned::load(home)?;
    let mut hosts = Vec::new();
    let mut lines = Vec::new();
    for host in HOSTS {
        let how = env.detect(host);
        let mut scopes = Vec::new();
        let mut cells = Vec::new();
        for scope in [Scope::Project, Scope::User] {
            let (value, cell) =
                scope_status(&env, &target, &owned, &exportable, host, scope, follow);
            scopes.push(value);
            cells.push(cell);
        }
        lines.push(format!(
            "{:<12} {:<12} {:<9} {:<28} {}",
            host.id,
            host.name,
            if how.is_empty() { "no" } else { "yes" },
            cells[0],
            cells[1]
        ));
        hosts.push(json!({
            "id": host.id,
            "name": host.name,
            "detected": !how.is_empty(),
            "how": how,
            "scopes": scopes,
        }));
    }
    let mut text = format!(
        "{:<12} {:<12} {:<9} {:<28} {}\n",
        "HOST", "NAME", "DETECTED", "PROJECT", "USER"
    );
    for line in lines {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text.push_str("(memory_mcp: here = this home's, (http) = at a URL, other = another home's, user = the user's own entry; +N = screened skills installed)\n");
    text.push_str("(needs approval / needs trust: the host will not start it yet, unknown: its files could not be read; `--format json` says why and what clears it)\n");
    Ok(Outcome::new(json!({ "hosts": hosts }), text))
}

/// One host and scope in `list`: the JSON and the table cell.
fn scope_status(
    env: &Env,
    target: &Target,
    owned: &Owned,
    exportable: &[Exportable],
    host: &HostDef,
    scope: Scope,
    follow: bool,
) -> (Value, String) {
    let (Ok(path), Ok(base)) = (env.config_path(host, scope), env.base(scope)) else {
        return (
            json!({"scope": scope.as_str(), "available": false}),
            "-".into(),
        );
    };
    let mut value = json!({
        "scope": scope.as_str(),
        "config": path.display().to_string(),
        "exists": path.is_file(),
    });
    let record = owned.get(host.id, scope.as_str());
    let mut cell = String::from("-");
    match check_links(base, &path, follow)
        .and_then(|()| read_config(&path))
        .and_then(|text| {
            formats::entry(
                host.format,
                &path,
                text.as_deref().unwrap_or(""),
                SERVER_NAME,
            )
        }) {
        Ok(Some(entry)) => {
            let ours = record
                .and_then(|r| r.server.as_ref())
                .is_some_and(|s| state::is_recorded(&s.hash, &entry))
                || state::same_entry(&entry, &target.entry(host));
            let url = remote::entry_url(&entry);
            // A URL entry names no home: it is this home's when this home
            // wrote it (its URL is shown then, never a user's own: a URL
            // may carry a token).
            let here = match url {
                None => entry["command"].as_str().is_some_and(|c| target.is_link(c)),
                Some(_) => ours,
            };
            let gate = gate::check(env, host, scope, &env.project, SERVER_NAME);
            value["memory_mcp"] = json!({
                "configured": true,
                "points_here": here,
                "ours": ours,
                "transport": if url.is_some() { "http" } else { "stdio" },
            });
            if let Some(url) = url.filter(|_| ours) {
                value["memory_mcp"]["url"] = json!(url);
            }
            value["memory_mcp"]["state"] = json!(gate.state);
            value["memory_mcp"]["gate"] = gate.to_json();
            cell = match (here, url) {
                (true, Some(_)) => "here (http)",
                (true, None) => "here",
                (false, _) if ours || other_home(&entry).is_some() => "other",
                (false, _) => "user",
            }
            .to_string();
            if gate.pending() {
                cell.push_str(&format!(", {}", gate.state));
            }
        }
        Ok(None) => value["memory_mcp"] = json!({"configured": false}),
        Err(e) => {
            value["memory_mcp"] = json!({"configured": false, "error": e.message});
            cell = "unreadable".into();
        }
    }
    let installed: Vec<&str> = match env.skills_dir(host, scope) {
        Ok(Some(dir)) if check_links(base, &dir, follow).is_err() => {
            value["skills_dir"] = json!(dir.display().to_string());
            Vec::new()
        }
        Ok(Some(dir)) => {
            value["skills_dir"] = json!(dir.display().to_string());
            exportable
                .iter()
                .filter(|s| skills::hash_of(&dir.join(&s.name)).as_deref() == Some(&s.hash))
                .map(|s| s.name.as_str())
                .collect()
        }
        _ => Vec::new(),
    };
    if !installed.is_empty() {
        cell.push_str(&format!(" +{}", installed.len()));
    }
    value["skills"] = json!(installed);
    (value, cell)
}

// ---------------------------------------------------------------- install

/// What `install` is asked for.
pub struct Request<'a> {
    pub ids: &'a [String],
    /// Every detected host (`ids` is then empty).
    pub all: bool,
    pub scope: Scope,
    pub with_skills: bool,
    /// `--url`: the URL form instead of a command.
    pub url: Option<&'a UrlArgs>,
}

pub fn install(home: &Home, req: &Request, follow: bool) -> Result<Outcome> {
    let scope = req.scope;
    let with_skills = req.with_skills;
    let target = Target::of(home)?;
    let env = Env::current(target.project(), follow);
    let mut warnings = Vec::new();
    // The URL and the variable name are checked first: a refusal names
    // neither (either may hold a token).
    let remote = match req.url {
        Some(args) => {
            let (remote, notes) = Remote::check(home, &args.url, args.token_env.as_deref())?;
            warnings.extend(notes);
            Some(remote)
        }
        None => None,
    };
    // The command form writes the home's paths into host configs, and the
    // hosts expand `${VAR}` (Claude Code, Gemini CLI) and `${env:VAR}`
    // (Cursor, VS Code) in them: such a path would run something else than
    // the link.
    if remote.is_none() && target.home.to_string_lossy().contains("${") {
        return Err(Error::invalid_args(format!(
            "the home's path {} holds `${{`, which hosts expand as a variable in the command they run",
            target.home.display()
        ))
        .with_hint("move the project to a path without `${`, or serve it with memory_mcp --http and install --url"));
    }
    let mut hosts = chosen(&env, req.ids, req.all)?;
    if remote.is_some() {
        hosts = taking_urls(hosts, req.all, &mut warnings)?;
    } else if !target.link.exists() {
        return Err(Error::not_found(format!(
            "the memory_mcp link {} is missing",
            target.link.display()
        ))
        .with_hint("run `agentbox link` to create the home's links, then retry"));
    }
    // Host files are written verbatim (never redacted: they hold the
    // user's own values), so what agentbox adds is checked here instead
    // (the URL form's URL and variable name were checked above).
    let added = format!("{} {}", target.link.display(), target.home.display());
    if remote.is_none() && home.store.redactor().redact(&added) != added {
        return Err(Error::new(
            ErrorType::Permission,
            "the home's path looks like a credential; it is not written into host configs",
        )
        .with_hint("move the home to a folder whose path holds no token or password"));
    }
    let _lock = home.store.lock(LOCK)?;
    let (exportable, held) = if with_skills {
        skills::exportable(home)?
    } else {
        (Vec::new(), Vec::new())
    };
    // Every config must parse, and no path may lead through a symlink,
    // before any is written: a bad file stops the whole install with
    // nothing changed.
    let base = env.base(scope)?;
    for host in &hosts {
        let path = env.config_path(host, scope)?;
        check_links(base, &path, follow)?;
        if let Some(dir) = env.skills_dir(host, scope)?
            && !exportable.is_empty()
        {
            check_links(base, &dir, follow)?;
        }
        if let Some(text) = read_config(&path)? {
            formats::servers(host.format, &path, &text)?;
        }
    }
    let mut owned = Owned::load(home)?;
    let mut reports = Vec::new();
    let mut text = String::new();
    for host in hosts {
        let report = install_one(
            &env,
            &target,
            remote.as_ref(),
            &mut owned,
            host,
            scope,
            &exportable,
            &mut warnings,
        );
        // Record what landed before reporting a failure of a later host.
        owned.prune();
        owned.save(home)?;
        let report = report?;
        text.push_str(&render_install(host, scope, &report));
        reports.push(report);
    }
    if with_skills && !held.is_empty() {
        let names: Vec<String> = held.iter().map(|(n, s)| format!("{n} ({s})")).collect();
        text.push_str(&format!(
            "not exported (not screened, or changed since): {}\n",
            names.join(", ")
        ));
    }
    let held: Vec<Value> = held
        .iter()
        .map(|(name, status)| json!({"name": name, "status": status}))
        .collect();
    let mut outcome = Outcome::new(
        json!({"scope": scope.as_str(), "installs": reports, "skills_held": held}),
        text,
    );
    for w in warnings {
        outcome = outcome.with_warning(w);
    }
    Ok(outcome)
}

/// The chosen hosts that take the URL form. A host named that cannot is
/// `invalid_args` (nothing is written); with `--all` it is skipped with a
/// warning, and `invalid_args` when no host is left.
fn taking_urls(
    hosts: Vec<&'static HostDef>,
    all: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<&'static HostDef>> {
    let (taking, refusing): (Vec<_>, Vec<_>) =
        hosts.into_iter().partition(|h| remote::takes_url(h));
    if !all && let Some(host) = refusing.first() {
        return Err(remote::refused(host));
    }
    if taking.is_empty() {
        let ids: Vec<&str> = refusing.iter().map(|h| h.id).collect();
        return Err(Error::invalid_args(format!(
            "no detected host takes memory_mcp at a URL (detected: {})",
            ids.join(", ")
        ))
        .with_hint(
            "install them without --url: each then starts this home's memory_mcp itself over stdio",
        ));
    }
    for host in refusing {
        let refusal = remote::refused(host);
        warnings.push(format!(
            "{}: skipped: {} ({})",
            host.id, refusal.message, refusal.hint
        ));
    }
    Ok(taking)
}

/// The hosts named (each known and detected), or every detected one.
fn chosen(env: &Env, ids: &[String], all: bool) -> Result<Vec<&'static HostDef>> {
    let detected: Vec<&str> = HOSTS
        .iter()
        .filter(|h| !env.detect(h).is_empty())
        .map(|h| h.id)
        .collect();
    if all {
        if detected.is_empty() {
            return Err(Error::new(
                ErrorType::PluginNotDetected,
                "no host agent is detected here",
            )
            .with_hint(format!(
                "install one of {} (or create its config folder), or name a host",
                detect::ids()
            )));
        }
        return Ok(HOSTS.iter().filter(|h| detected.contains(&h.id)).collect());
    }
    let mut out: Vec<&'static HostDef> = Vec::new();
    for id in ids {
        let host = detect::by_id(id)?;
        if !detected.contains(&host.id) {
            return Err(detect::not_detected(host, &detected));
        }
        if !out.iter().any(|h| h.id == host.id) {
            out.push(host);
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn install_one(
    env: &Env,
    target: &Target,
    remote: Option<&Remote>,
    owned: &mut Owned,
    host: &HostDef,
    scope: Scope,
    exportable: &[Exportable],
    warnings: &mut Vec<String>,
) -> Result<Value> {
    let path = env.config_path(host, scope)?;
    let desired = match remote {
        Some(remote) => remote.entry(host)?,
        None => target.entry(host),
    };
    let server = install_server(
        target,
        owned,
        (host, scope),
        (&desired, remote),
        &path,
        env.follow_links,
        warnings,
    )?;
    let mut exported = Vec::new();
    if let Some(root) = env.skills_dir(host, scope)? {
        for skill in exportable {
            let record = owned.entry(host.id, scope.as_str());
            let previous = record.skills.iter().find(|s| s.name == skill.name).cloned();
            let (outcome, written) =
                skills::export(skill, &root, previous.as_ref(), &mut record.created_dirs)?;
            if outcome == skills::Outcome::Foreign {
                warnings.push(format!(
                    "{}: {} holds a skill agentbox did not write; left alone",
                    host.id,
                    written.path.display()
                ));
            } else {
                record.skills.retain(|s| s.name != skill.name);
                record.skills.push(written);
            }
            exported.push(json!({"name": skill.name, "status": outcome.as_str()}));
        }
    }
    let gate = gate::check(env, host, scope, &env.project, SERVER_NAME);
    let mut report = json!({
        "host": host.id,
        "scope": scope.as_str(),
        "config": path.display().to_string(),
        "server": server,
        "state": gate.state,
        "gate": gate.to_json(),
        "skills_dir": env.skills_dir(host, scope)?.map(|d| d.display().to_string()),
        "skills": exported,
    });
    if let Some(remote) = remote {
        // No key says `token`: the output's redactor would mask its value.
        let (field, reference) = remote.reference(host);
        report["transport"] = json!("http");
        report["url"] = json!(remote.url);
        report["bearer_env"] = json!(remote.token_env);
        report["bearer_field"] = json!(field);
        report["bearer_ref"] = json!(reference);
    }
    Ok(report)
}

/// Writes (or keeps) the server entry `desired` (the URL form's when
/// `remote`); returns what happened.
fn install_server(
    target: &Target,
    owned: &mut Owned,
    (host, scope): (&HostDef, Scope),
    (desired, remote): (&Value, Option<&Remote>),
    path: &Path,
    follow: bool,
    warnings: &mut Vec<String>,
) -> Result<&'static str> {
    let desired_hash = state::entry_hash(desired);
    let text = read_config(path)?;
    let current = formats::entry(
        host.format,
        path,
        text.as_deref().unwrap_or(""),
        SERVER_NAME,
    )?;
    let record = owned.entry(host.id, scope.as_str());
    let recorded = record.server.clone();
    let status = match &current {
        Some(value) if state::entry_hash(value) == desired_hash => "unchanged",
        Some(value)
            if recorded
                .as_ref()
                .is_some_and(|s| state::is_recorded(&s.hash, value)) =>
        {
            "updated"
        }
        Some(value) => {
            let whose = match other_home(value) {
                Some(link) if target.is_link(link) => {
                    "that runs this home's memory_mcp but is not what agentbox writes (changed since, or written by hand)".to_string()
                }
                Some(link) => format!("for another home ({link}) that this home did not write"),
                None => "agentbox did not write".to_string(),
            };
            warnings.push(format!(
                "{}: {} already has an `{SERVER_NAME}` entry {whose}; left alone (remove or rename it, then install again)",
                host.id,
                path.display()
            ));
            return Ok("kept (user's own entry)");
        }
        None => "added",
    };
    let mut server = recorded.unwrap_or(Server {
        config: path.to_path_buf(),
        key: SERVER_NAME.to_string(),
        hash: String::new(),
        created_file: false,
        created_container: false,
        created_dirs: Vec::new(),
        url: None,
        bearer_env: None,
    });
    if status != "unchanged" {
        let (new_text, created_container) =
            formats::set(host.format, path, text.as_deref(), SERVER_NAME, desired)?;
        if status == "added" {
            server.created_file = text.is_none();
            server.created_container = created_container;
            server.created_dirs = match path.parent() {
                Some(dir) => store::ensure_external_dir(dir)?,
                None => Vec::new(),
            };
        }
        store::write_external(path, new_text.as_bytes(), new_mode(scope), follow)?;
    }
    server.config = path.to_path_buf();
    server.hash = desired_hash;
    server.url = remote.map(|r| r.url.clone());
    server.bearer_env = remote.map(|r| r.token_env.clone());
    record.server = Some(server);
    Ok(status)
}

fn render_install(host: &HostDef, scope: Scope, report: &Value) -> String {
    let at = match report["url"].as_str() {
        Some(url) => format!(" at {url}"),
        None => String::new(),
    };
    let mut text = format!(
        "{} ({}): memory_mcp{at} {} in {}\n",
        host.id,
        scope.as_str(),
        report["server"].as_str().unwrap_or(""),
        report["config"].as_str().unwrap_or("")
    );
    if let (Some(var), Some(field), Some(reference)) = (
        report["bearer_env"].as_str(),
        report["bearer_field"].as_str(),
        report["bearer_ref"].as_str(),
    ) {
        text.push_str(&format!(
            "  the host reads the bearer token from ${var} when it connects ({field} names {reference}); the file holds no token\n"
        ));
    }
    let gate = &report["gate"];
    if report["state"] != "configured" {
        text.push_str(&format!(
            "  {}: {}\n",
            report["state"].as_str().unwrap_or(""),
            gate["reason"].as_str().unwrap_or("")
        ));
        if let Some(clear) = gate["clear"].as_str() {
            text.push_str(&format!("  to clear it: {clear}\n"));
        }
    }
    if let Some(skills) = report["skills"].as_array().filter(|s| !s.is_empty()) {
        let parts: Vec<String> = skills
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    s["name"].as_str().unwrap_or(""),
                    s["status"].as_str().unwrap_or("")
                )
            })
            .collect();
        text.push_str(&format!(
            "  skills in {}: {}\n",
            report["skills_dir"].as_str().unwrap_or(""),
            parts.join(", ")
        ));
    }
    text
}

// ---------------------------------------------------------------- remove
