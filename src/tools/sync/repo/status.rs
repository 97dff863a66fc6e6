//! `sync status` (no network; `behind` is as of the last fetch) and the
//! ahead/behind counts the other verbs use.

use super::{Session, commit, git_error, state};
use crate::error::Result;
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::Ctx;
use git2::Oid;
use serde_json::{Value, json};

/// `sync status`: no network; `behind` is as of the last fetch.
pub(in crate::tools::sync) fn status_verb(ctx: &Ctx, home: &Home) -> Result<Outcome> {
    let session = Session::open_as_is(home)?;
    let interrupted = state::read_journal(&session)?.is_some();
    // The session holds the sync lock: refreshing git's stat cache is safe.
    let dirty = commit::changed_paths(&session, true)?
        .into_iter()
        .map(|(rel, _)| rel)
        .collect::<Vec<_>>();
    let (ahead, behind) = session.ahead_behind()?;
    let remote = session.remote_url();
    // No remote branch yet: never fetched (an init whose remote was down),
    // or a remote that was empty when it was.
    let fetched = session.tracking().is_some();
    let last_sync = state::last_sync(&session);
    let conflict = state::read_conflict(&session)?.map(|c| c.files);
    let held: Vec<Value> = state::read_held(&session)?
        .into_iter()
        .map(|(path, h)| json!({"path": path, "reason": h.reason}))
        .collect();
    let mut text = status_text(
        ctx,
        (ahead, behind, fetched),
        &dirty,
        remote.as_deref(),
        last_sync.as_deref(),
        conflict.as_deref(),
    );
    if interrupted {
        text.push_str(
            "\nA pull was interrupted before it finished writing the home: `agentbox sync now` finishes it (`agentbox sync abort` drops it when that keeps failing)",
        );
    }
    for h in &held {
        text.push_str(&format!(
            "\nNot written into the home (kept on the remote): {} — {}",
            h["path"].as_str().unwrap_or_default(),
            h["reason"].as_str().unwrap_or_default()
        ));
    }
    let data = json!({
        "ahead": ahead,
        "behind": behind,
        "fetched": fetched,
        "dirty": dirty,
        "remote": remote,
        "last_sync": last_sync,
        "conflict": conflict,
        "interrupted_pull": interrupted,
        "held": held,
    });
    Ok(Outcome::new(data, text))
}

impl Session<'_> {
    /// Commits on `main` the remote lacks, and the remote's commits (as of
    /// the last fetch) `main` lacks.
    pub fn ahead_behind(&self) -> Result<(usize, usize)> {
        let head = self.head()?;
        Ok(match (head, self.tracking()) {
            (Some(local), Some(remote)) => self
                .repo
                .graph_ahead_behind(local, remote)
                .map_err(|e| git_error("compare with the remote", &e))?,
            (Some(local), None) => (self.count_commits(local, None)?, 0),
            (None, Some(remote)) => (0, self.count_commits(remote, None)?),
            (None, None) => (0, 0),
        })
    }

    /// Commits reachable from `tip` and not from `hide`.
    pub fn count_commits(&self, tip: Oid, hide: Option<Oid>) -> Result<usize> {
        let walk = |tip: Oid| -> std::result::Result<usize, git2::Error> {
            let mut walk = self.repo.revwalk()?;
            walk.push(tip)?;
            if let Some(hide) = hide {
                walk.hide(hide)?;
            }
            Ok(walk.count())
        };
        walk(tip).map_err(|e| git_error("count commits", &e))
    }
}

/// `5 min ago`, `3 hours ago`, `just now`.
fn ago(span: jiff::SignedDuration) -> String {
    let s = span.as_secs();
    match s {
        i64::MIN..60 => "just now".to_string(),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} ago", plural((s / 3600) as usize, "hour")),
        _ => format!("{} ago", plural((s / 86_400) as usize, "day")),
    }
}

fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

fn status_text(
    ctx: &Ctx,
    (ahead, behind, fetched): (usize, usize, bool),
    dirty: &[String],
    remote: Option<&str>,
    last_sync: Option<&str>,
    conflict: Option<&[String]>,
) -> String {
    let mut text = match remote {
        Some(url) if !fetched => format!(
            "{} not on origin ({url}), nothing fetched from it yet: `agentbox sync now` fetches and pushes",
            plural(ahead, "commit")
        ),
        Some(url) => format!("{ahead} ahead, {behind} behind origin ({url}, as of the last fetch)"),
        None => format!(
            "{} not pushed anywhere (no remote)",
            plural(ahead, "commit")
        ),
    };
    if dirty.is_empty() {
        text.push_str(" · no uncommitted changes");
    } else {
        let shown: Vec<&str> = dirty.iter().take(5).map(String::as_str).collect();
        let more = dirty.len().saturating_sub(shown.len());
        text.push_str(&format!(
            " · {} changed: {}{}",
            plural(dirty.len(), "file"),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    match last_sync.and_then(|s| crate::clock::Time::parse(s).ok()) {
        Some(at) => {
            text.push_str(&format!("; last sync {}", ago(ctx.clock.now() - at)));
        }
        None if remote.is_some() => text.push_str("; never synced"),
        None => {}
    }
    if let Some(files) = conflict {
        text.push_str(&format!(
            "\nConflict waiting: {} (edit each, delete its .remote copy, then `agentbox sync now`)",
            files.join(", ")
        ));
    }
    text
}
