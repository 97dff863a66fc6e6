//! `sync hosts remove`: takes back what `install` wrote, and nothing else —
//! a record in `local/hosts.json` is checked against where an install for
//! that host and scope writes before anything is touched.

use super::detect::{self, Env, Format, HOSTS, HostDef, Scope};
use super::formats;
use super::install::{LOCK, Target, check_links, read_config};
use super::skills;
use super::state::{self, Install, Owned, Server};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::store;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub fn remove(
    home: &Home,
    ids: &[String],
    all: bool,
    scope: Option<Scope>,
    follow: bool,
) -> Result<Outcome> {
    let hosts: Vec<&'static HostDef> = if all {
        HOSTS.iter().collect()
    } else {
        let mut out: Vec<&'static HostDef> = Vec::new();
        for id in ids {
            let host = detect::by_id(id)?;
            if !out.iter().any(|h| h.id == host.id) {
                out.push(host);
            }
        }
        out
    };
    let scopes: Vec<Scope> = match scope {
        Some(s) => vec![s],
        None => vec![Scope::Project, Scope::User],
    };
    let _lock = home.store.lock(LOCK)?;
    let mut owned = Owned::load(home)?;
    // No recorded path may lead through a symlink (one put there since the
    // install) before anything is removed or forgotten.
    let target = Target::of(home)?;
    let env = Env::current(target.project(), follow);
    for host in &hosts {
        for scope in &scopes {
            if let Some(record) = owned.get(host.id, scope.as_str()) {
                let base = env.base(*scope).unwrap_or(&env.project);
                check_record(&env, host, *scope, record)?;
                if let Some(server) = &record.server {
                    check_links(base, &server.config, follow)?;
                }
                for skill in &record.skills {
                    if let Some(root) = skill.path.parent() {
                        check_links(base, root, follow)?;
                    }
                }
            }
        }
    }
    let mut warnings = Vec::new();
    let mut reports = Vec::new();
    let mut text = String::new();
    for host in hosts {
        for scope in &scopes {
            let Some(record) = owned.get(host.id, scope.as_str()).cloned() else {
                if !all {
                    text.push_str(&format!(
                        "{} ({}): nothing agentbox wrote\n",
                        host.id,
                        scope.as_str()
                    ));
                    reports.push(json!({"host": host.id, "scope": scope.as_str(), "server": "none", "skills": []}));
                }
                continue;
            };
            // The record goes only once its removal succeeded: a failed one
            // (a link put in the way since) can be run again.
            let report = remove_one(host, &record, follow, &mut warnings)?;
            owned
                .installs
                .retain(|i| !(i.host == host.id && i.scope == scope.as_str()));
            owned.save(home)?;
            text.push_str(&format!(
                "{} ({}): memory_mcp {}; skills removed: {}\n",
                host.id,
                scope.as_str(),
                report["server"].as_str().unwrap_or(""),
                report["skills"].as_array().map(|a| a.len()).unwrap_or(0)
            ));
            reports.push(report);
        }
    }
    if text.is_empty() {
        text.push_str("nothing to remove: agentbox wrote nothing into a host\n");
    }
    let mut outcome = Outcome::new(json!({"removed": reports}), text);
    for w in warnings {
        outcome = outcome.with_warning(w);
    }
    Ok(outcome)
}

/// A record names only what an install for `host` in `scope` writes: the
/// host's config file (under our key), exports in its skills folder, and
/// folders on the way to those. `local/hosts.json` is a file in the home; a
/// record that says otherwise (edited, or a home copied from elsewhere) is
/// refused before anything is touched, so `remove` can never be pointed at
/// another file, entry or folder.
fn check_record(env: &Env, host: &HostDef, scope: Scope, record: &Install) -> Result<()> {
    let config = env.config_path(host, scope)?;
    let skills_dir = env.skills_dir(host, scope)?;
    let refuse = |what: &Path| {
        Error::conflict(format!(
            "local/hosts.json records {} for {} ({}), which is not where agentbox installs for it; nothing was removed",
            what.display(),
            host.id,
            scope.as_str()
        ))
        .with_hint(format!(
            "the record was edited or comes from another machine: remove the entry by hand in the host's config, then delete the {} record from local/hosts.json",
            host.id
        ))
    };
    let leads_to = |dir: &Path| {
        config.starts_with(dir) || skills_dir.as_deref().is_some_and(|s| s.starts_with(dir))
    };
    if let Some(server) = &record.server {
        if server.config != config || server.key != super::SERVER_NAME {
            return Err(refuse(&server.config));
        }
        if let Some(dir) = server.created_dirs.iter().find(|d| !leads_to(d)) {
            return Err(refuse(dir));
        }
    }
    for skill in &record.skills {
        let named = matches!(
            skill.path.components().next_back(),
            Some(std::path::Component::Normal(_))
        );
        if !named || skills_dir.is_none() || skill.path.parent() != skills_dir.as_deref() {
            return Err(refuse(&skill.path));
        }
    }
    if let Some(dir) = record.created_dirs.iter().find(|d| !leads_to(d)) {
        return Err(refuse(dir));
    }
    Ok(())
}

fn remove_one(
    host: &HostDef,
    record: &Install,
    follow: bool,
    warnings: &mut Vec<String>,
) -> Result<Value> {
    let mut removed = Vec::new();
    for skill in &record.skills {
        if skills::remove(skill)? {
            removed.push(json!(skill.name));
        } else {
            warnings.push(format!(
                "{}: {} changed since agentbox exported it; left alone",
                host.id,
                skill.path.display()
            ));
        }
    }
    let server = match &record.server {
        None => "none",
        Some(server) => remove_server(host.format, server, host.id, follow, warnings)?,
    };
    // The folders install created, deepest first, if nothing else is in them.
    let mut dirs: Vec<&PathBuf> = record.created_dirs.iter().collect();
    if let Some(server) = &record.server {
        dirs.extend(server.created_dirs.iter());
    }
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for dir in dirs {
        store::remove_external_empty_dir(dir);
    }
    Ok(json!({
        "host": host.id,
        "scope": record.scope,
        "config": record.server.as_ref().map(|s| s.config.display().to_string()),
        "server": server,
        "skills": removed,
    }))
}

fn remove_server(
    format: Format,
    server: &Server,
    host: &str,
    follow: bool,
    warnings: &mut Vec<String>,
) -> Result<&'static str> {
    let path = &server.config;
    let Some(text) = read_config(path)? else {
        return Ok("already gone");
    };
    match formats::entry(format, path, &text, &server.key)? {
        None => return Ok("already gone"),
        Some(value) if !state::is_recorded(&server.hash, &value) => {
            warnings.push(format!(
                "{host}: the `{}` entry in {} changed since agentbox wrote it; left alone",
                server.key,
                path.display()
            ));
            return Ok("kept (changed by the user)");
        }
        Some(_) => {}
    }
    let new_text = formats::remove(format, path, &text, &server.key, server.created_container)?;
    // A file install created but that is a link now (followed) is the
    // user's: its target is written, never the link deleted.
    let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if server.created_file && !linked && formats::is_empty(format, path, &new_text)? {
        store::remove_external_file(path)?;
    } else {
        store::write_external(path, new_text.as_bytes(), 0o644, follow)?;
    }
    Ok("removed")
}
