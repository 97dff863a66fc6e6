//! The home's git repository: `<home>/sync.git` with the home as work tree.
//!
//! - `mod.rs`: opening and creating the repository, the session every verb
//!   runs in (the sync lock, crash repair, the conflict gate), the verbs.
//! - `commit`: the commit step (stage, scan for credentials, commit).
//! - `integrate`: the three-way tree merge and the conflict gate.
//! - `apply`: applying a commit to the work tree (journal, crash repair).
//! - `conflict`: what stops a pull, the remote's copies, the conflict record.
//! - `tree`: trees and blobs of the history (flattened trees, sizes).
//! - `net`: remote URLs, credentials, fetch, push and their errors.
//! - `state`: the small JSON files agentbox keeps in `sync.git/`.
//! - `status`: `sync status` and the ahead/behind counts.

mod apply;
mod commit;
mod conflict;
mod integrate;
mod net;
mod pack;
mod state;
mod status;
mod tree;

use super::{GIT_DIR, LOCK};
use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::store::Lock;
use crate::tools::{Check, Ctx, Suggestion};
use git2::{Oid, Repository, RepositoryInitOptions};
use serde_json::{Value, json};
pub(super) use status::status_verb;
use std::path::PathBuf;

/// The branch agentbox keeps the home's history on, locally and remotely.
const BRANCH: &str = "refs/heads/main";
/// Where the remote's branch lands on fetch.
const TRACKING: &str = "refs/remotes/origin/main";
/// The one remote.
const REMOTE: &str = "origin";

/// The lines of `sync.git/info/exclude`: what the repository never looks at.
fn exclude_text() -> String {
    let mut text = String::from("# written by agentbox: never synced (docs/STORE.md)\n");
    for never in crate::tools::installed().never_synced() {
        text.push('/');
        text.push_str(never);
        text.push('\n');
    }
    text.push_str("*.tmp\n*.lock\n*");
    text.push_str(super::CONFLICT_SUFFIX);
    text.push('\n');
    text
}

/// `not_found` for a home whose sync was never set up.
fn not_initialised(home: &Home) -> Error {
    Error::not_found(format!("sync is not set up in {}", home.root.display()))
        .with_hint("run `agentbox sync init` (add `--remote URL` to share it)")
}

/// A git2 error of a local repository operation.
pub(super) fn git_error(what: &str, err: &git2::Error) -> Error {
    Error::new(
        ErrorType::Io,
        format!("sync: cannot {what}: {}", err.message()),
    )
    .with_hint("run `agentbox doctor`; the history is in sync.git and the files are untouched")
}

/// One verb's hold on the repository: the sync lock, the opened repository.
pub(super) struct Session<'h> {
    pub home: &'h Home,
    pub repo: Repository,
    _lock: Lock,
}

impl<'h> Session<'h> {
    /// Takes the sync lock and opens the repository (`not_found` when sync
    /// was never set up), then repairs what a killed run left: a stale git
    /// index lock and an interrupted pull.
    pub fn open(home: &'h Home) -> Result<Session<'h>> {
        let session = Session::open_as_is(home)?;
        apply::repair(&session)?;
        Ok(session)
    }

    /// Like `open`, without finishing an interrupted pull: for `status`,
    /// which must answer even when finishing it keeps failing.
    pub fn open_as_is(home: &'h Home) -> Result<Session<'h>> {
        let lock = home.store.lock(LOCK)?;
        let git_dir = home.root.join(GIT_DIR);
        if !git_dir.join("HEAD").is_file() {
            return Err(not_initialised(home));
        }
        let repo = Repository::open_bare(&git_dir).map_err(|e| git_error("open sync.git", &e))?;
        let session = Session {
            home,
            repo,
            _lock: lock,
        };
        session.prepare()?;
        Ok(session)
    }

    /// Creates the repository (or opens an existing one) under the lock.
    fn create(home: &'h Home) -> Result<(Session<'h>, bool)> {
        let lock = home.store.lock(LOCK)?;
        let git_dir = home.root.join(GIT_DIR);
        let created = !git_dir.join("HEAD").is_file();
        let repo = if created {
            home.store.check_path(&git_dir)?;
            // Made bare on purpose: libgit2 writes a `.git` gitlink file into
            // a work tree given at init (`workdir_path`), which would make a
            // project repository around the home see a nested repository.
            // The work tree is set in memory at every open instead.
            let mut opts = RepositoryInitOptions::new();
            opts.bare(true)
                .initial_head("main")
                .mkpath(true)
                .external_template(false);
            Repository::init_opts(&git_dir, &opts).map_err(|e| git_error("create sync.git", &e))?
        } else {
            Repository::open_bare(&git_dir).map_err(|e| git_error("open sync.git", &e))?
        };
        let session = Session {
            home,
            repo,
            _lock: lock,
        };
        session.prepare()?;
        if !created {
            apply::repair(&session)?;
        }
        Ok((session, created))
    }

    /// The work tree is the home wherever it lives now (a moved project
    /// keeps working); the exclude file matches the never-synced paths; a git index lock
    /// left by a killed run (we hold the sync lock, so nobody else is in
    /// here) is removed.
    fn prepare(&self) -> Result<()> {
        self.repo
            .set_workdir(&self.home.root, false)
            .map_err(|e| git_error("use the home as work tree", &e))?;
        let info = self.git_path("info");
        self.home.store.ensure_dir(&info)?;
        let exclude = info.join("exclude");
        let want = exclude_text();
        if std::fs::read_to_string(&exclude).ok().as_deref() != Some(want.as_str()) {
            self.home.store.write_text(&exclude, &want)?;
        }
        let index_lock = self.git_path("index.lock");
        if index_lock.exists() {
            self.home.store.remove_file(&index_lock)?;
        }
        Ok(())
    }

    /// A path inside `sync.git/`.
    pub fn git_path(&self, name: &str) -> PathBuf {
        self.home.root.join(GIT_DIR).join(name)
    }

    /// The commit `main` points at (`None` before the first commit).
    pub fn head(&self) -> Result<Option<Oid>> {
        match self.repo.refname_to_id(BRANCH) {
            Ok(oid) => Ok(Some(oid)),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(git_error("read the branch main", &e)),
        }
    }

    /// The remote's branch as of the last fetch.
    pub fn tracking(&self) -> Option<Oid> {
        self.repo.refname_to_id(TRACKING).ok()
    }

    /// The remote's URL, if one is set.
    pub fn remote_url(&self) -> Option<String> {
        self.repo
            .find_remote(REMOTE)
            .ok()
            .and_then(|r| r.url().map(str::to_string))
    }
}

/// Whether a path of a tree or of the work tree may be written in the home:
/// relative, `/`-separated plain components, and one that syncs.
pub(super) fn safe_rel(rel: &str) -> bool {
    crate::store::plain_relative(rel)
        && rel.split('/').all(|part| part != ".git")
        && super::fold(rel)
            .split('/')
            .all(|part| part != ".git" && part != "git~1" && !part.is_empty())
        && super::syncs(rel)
}

/// The longest file name (in bytes) a pull writes into the home: the file
/// systems' 255 less the atomic write's temp name around it
/// (`.NAME.PID.N.tmp`, up to 34 bytes) and a conflict copy's `.remote`.
pub(super) const MAX_NAME_BYTES: usize = 214;

/// Why this home cannot hold the synced path `rel` as a file, if it cannot:
/// a backslash or a control character in it (the tools cannot name it, and
/// other systems read it otherwise), or a name over [`MAX_NAME_BYTES`].
/// Only for paths that are otherwise synced paths (see [`held_name`]).
pub(super) fn unholdable(rel: &str) -> Option<String> {
    if rel.contains('\\') {
        return Some("a backslash in the path; this home never writes such a name".to_string());
    }
    if rel.chars().any(char::is_control) {
        return Some(
            "a control character in the path; this home never writes such a name".to_string(),
        );
    }
    if is_layout_folder(rel) {
        return Some(
            "a folder of the home's layout; this home never turns it into a file".to_string(),
        );
    }
    let long = rel.split('/').map(str::len).max().unwrap_or(0);
    (long > MAX_NAME_BYTES)
        .then(|| format!("a name of {long} bytes, over the {MAX_NAME_BYTES} this home writes"))
}

/// Whether `rel` is one of the folders every home has (`plans`,
/// `memory/knowledge`, …: the installed registry's layout) or a folder
/// above one (`memory`): a remote file there would leave the tools without
/// their folder.
pub(super) fn is_layout_folder(rel: &str) -> bool {
    let rel = rel.trim_end_matches('/').to_lowercase();
    crate::tools::installed().layout().iter().any(|dir| {
        *dir == rel
            || dir
                .strip_prefix(rel.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// Why the remote's path `rel` is held back (kept in `main` and on the
/// remote, never written into the home), if it is: a path that would sync
/// but that this home cannot hold ([`unholdable`]). A path that never syncs
/// or names `..` or `.git` is `None` (never written nor kept either).
pub(super) fn held_name(rel: &str) -> Option<String> {
    let reason = unholdable(rel)?;
    safe_rel(&cleaned(rel)).then_some(reason)
}

/// `rel` with each backslash and control character made `_`.
fn cleaned(rel: &str) -> String {
    rel.chars()
        .map(|c| if c == '\\' || c.is_control() { '_' } else { c })
        .collect()
}

/// Whether a path of the work tree would sync but for its name: not UTF-8,
/// with a backslash or a control character, or a part longer than other
/// homes write (never committed: other homes could not hold it).
pub(super) fn unsynced_name(path: &[u8]) -> bool {
    match std::str::from_utf8(path) {
        Ok(rel) if safe_rel(rel) => rel.split('/').any(|part| part.len() > MAX_NAME_BYTES),
        Ok(rel) => safe_rel(&cleaned(rel)),
        Err(_) => safe_rel(&cleaned(&String::from_utf8_lossy(path))),
    }
}

/// A path as reports show it: control characters and backslashes escaped
/// (`\t`, `\\`), bytes that are not UTF-8 as `\xNN`.
pub(super) fn shown(path: &[u8]) -> String {
    let mut out = String::new();
    for chunk in path.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() || c == '\\' {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The absolute path of a home-relative one.
pub(super) fn abs(home: &Home, rel: &str) -> PathBuf {
    let mut path = home.root.clone();
    path.extend(rel.split('/'));
    path
}

/// Short form of a commit id for messages.
pub(super) fn short(oid: Oid) -> String {
    oid.to_string()[..8].to_string()
}

/// What `sync remote` does with the remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RemoteAction {
    /// Show it.
    Show,
    /// Set it to this URL (https:// or file://).
    Set { url: String },
    /// Forget it (the history stays).
    Rm,
}

/// `sync init [--remote URL]`.
///
/// The local set-up (sync.git, the remote, the commit) is kept when the
/// remote cannot be reached; the error then says so (`detail.set_up`) and a
/// rerun with the same remote picks up where it stopped.
pub(super) fn init_verb(ctx: &Ctx, home: &Home, remote: Option<&str>) -> Result<Outcome> {
    let mut url = remote.map(|u| net::check_url(home, u)).transpose()?;
    let (session, created) = Session::create(home)?;
    if let (Some(given), Some(set)) = (&url, session.remote_url()) {
        if !same_remote(given, &set) {
            return Err(other_remote(&set, given));
        }
        // The remote as first set, however this run wrote it.
        url = Some(set);
    }
    let restored = crate::home::restore_gitignore(&home.store)?;
    if let Some(url) = &url {
        net::set_remote(&session, url)?;
    }
    let commit = commit::commit_step(&session, ctx)?;
    let git_dir = home.root.join(GIT_DIR);
    let mut imported = Vec::new();
    if let Some(url) = session.remote_url() {
        integrate::conflict_gate(&session, ctx)?;
        let set_up = || {
            json!({
                "git_dir": git_dir.display().to_string(),
                "created": created,
                "remote": url,
                "commit": session.head().ok().flatten().map(|o| o.to_string()),
            })
        };
        let fetched = net::fetch(&session).map_err(|e| not_reached(e, set_up()))?;
        let pulled = take_restoring(&session, ctx, fetched)?;
        imported = pulled.files.clone();
        state::record_sync(&session, ctx)?;
    }
    let head = session.head()?;
    let remote = session.remote_url();
    let mut text = format!(
        "{} sync in {}",
        if created { "Set up" } else { "Already set up:" },
        git_dir.display()
    );
    if let Some(oid) = commit {
        text.push_str(&format!("\nCommitted the home as {}", short(oid)));
    }
    match &remote {
        Some(url) => text.push_str(&format!(
            "\nRemote: {url}; took {} file{} from it\nNext: `agentbox sync now` after a session",
            imported.len(),
            if imported.len() == 1 { "" } else { "s" }
        )),
        None => text.push_str("\nNo remote yet: `agentbox sync remote set URL`"),
    }
    if !restored.is_empty() {
        text.push_str(&format!("\nAdded to .gitignore: {}", restored.join(", ")));
    }
    let data = json!({
        "git_dir": git_dir.display().to_string(),
        "created": created,
        "remote": remote,
        "commit": head.map(|o| o.to_string()),
        "imported": imported,
    });
    Ok(Outcome::new(data, text))
}

/// Whether two checked URLs name one remote: they differ at most in
/// trailing slashes and in the case of the scheme (and of an http(s) host).
fn same_remote(a: &str, b: &str) -> bool {
    fn key(url: &str) -> String {
        let url = url.trim_end_matches('/');
        match url.split_once("://") {
            Some((scheme, rest)) => {
                let scheme = scheme.to_ascii_lowercase();
                let rest = if scheme == "file" {
                    rest.to_string()
                } else {
                    // The host after any `user@`: a user name keeps its case.
                    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                    let host = rest[..end].rfind('@').map_or(0, |at| at + 1);
                    format!(
                        "{}{}{}",
                        &rest[..host],
                        rest[host..end].to_ascii_lowercase(),
                        &rest[end..]
                    )
                };
                format!("{scheme}://{rest}")
            }
            None => url.to_string(),
        }
    }
    key(a) == key(b)
}

/// `sync init --remote URL` on a home that syncs with another remote:
/// `conflict`, nothing changed (init never switches remotes silently).
fn other_remote(set: &str, url: &str) -> Error {
    Error::conflict(format!(
        "sync is already set up with the remote {set}, not {url}"
    ))
    .with_hint(format!(
        "to sync with {url} instead, run `agentbox sync remote set {url}`, then `agentbox sync now`"
    ))
    .with_detail("remote", set)
    .with_detail("url", url)
}

/// The fetch of `sync init` failed after the local set-up: the same error
/// (type, exit code, `detail.url`), saying what is done (`detail.set_up`,
/// the shape of init's `data`) and what remains (`detail.next`).
fn not_reached(err: Error, set_up: Value) -> Error {
    let git_dir = set_up["git_dir"].as_str().unwrap_or_default().to_string();
    let remote = set_up["remote"].as_str().unwrap_or_default().to_string();
    let hint = if err.hint.is_empty() {
        String::new()
    } else {
        format!("{}; ", err.hint)
    };
    Error {
        message: format!(
            "sync is set up in {git_dir} with the remote {remote} and the home is committed, but the remote's history was not taken: {}",
            err.message
        ),
        hint: format!(
            "{hint}nothing needs undoing: once the remote answers, `agentbox sync now` takes its history and sends the home's (this same command again takes its history only)"
        ),
        ..err
    }
    .with_detail("set_up", set_up)
    .with_detail("next", "agentbox sync now")
}

/// `sync remote [show|set URL|rm]`.
pub(super) fn remote_verb(_ctx: &Ctx, home: &Home, action: &RemoteAction) -> Result<Outcome> {
    // Check the URL before taking the lock: a bad one changes nothing.
    let url = match action {
        RemoteAction::Set { url } => Some(net::check_url(home, url)?),
        _ => None,
    };
    let session = Session::open(home)?;
    match action {
        RemoteAction::Show => {
            let url = session.remote_url();
            let text = match &url {
                Some(url) => format!("origin {url}"),
                None => "No remote: `agentbox sync remote set URL`".to_string(),
            };
            Ok(Outcome::new(json!({"remote": url}), text))
        }
        RemoteAction::Set { .. } => {
            let url = url.unwrap_or_default();
            let before = session.remote_url();
            net::set_remote(&session, &url)?;
            let text = match &before {
                Some(old) if *old != url => format!("Remote changed: {old} → {url}"),
                Some(_) => format!("Remote unchanged: {url}"),
                None => format!("Remote set: {url}"),
            };
            Ok(Outcome::new(
                json!({"remote": url, "previous": before}),
                text,
            ))
        }
        RemoteAction::Rm => {
            let before = session.remote_url();
            if before.is_some() {
                session
                    .repo
                    .remote_delete(REMOTE)
                    .map_err(|e| git_error("remove the remote", &e))?;
            }
            let text = match &before {
                Some(url) => format!("Removed the remote {url} (the history stays in sync.git)"),
                None => "No remote to remove".to_string(),
            };
            Ok(Outcome::new(
                json!({"remote": Value::Null, "previous": before}),
                text,
            ))
        }
    }
}

/// `sync pull`.
pub(super) fn pull_verb(ctx: &Ctx, home: &Home) -> Result<Outcome> {
    let session = Session::open(home)?;
    let pulled = pull_in(&session, ctx)?;
    state::record_sync(&session, ctx)?;
    Ok(pulled.warn(Outcome::new(pulled.to_json(), pulled.text())))
}

/// The pull every syncing verb starts with: the conflict gate, the commit
/// step, fetch and integrate.
fn pull_in(session: &Session, ctx: &Ctx) -> Result<integrate::Pulled> {
    net::require_remote(session)?;
    integrate::conflict_gate(session, ctx)?;
    crate::home::restore_gitignore(&session.home.store)?;
    commit::commit_step(session, ctx)?;
    pull_restoring(session, ctx)
}

/// Fetch and integrate, then put back the `.gitignore` lines the home needs
/// when the remote's version lacks them (a remote must not make the
/// project's repository stage `sync.git/`), committed at once so the next
/// push sends the repaired file.
fn pull_restoring(session: &Session, ctx: &Ctx) -> Result<integrate::Pulled> {
    let fetched = net::fetch(session)?;
    take_restoring(session, ctx, fetched)
}

/// [`pull_restoring`] after the fetch.
fn take_restoring(session: &Session, ctx: &Ctx, fetched: Option<Oid>) -> Result<integrate::Pulled> {
    let mut pulled = integrate::pull(session, ctx, fetched)?;
    if !crate::home::restore_gitignore(&session.home.store)?.is_empty()
        && let Some(oid) = commit::commit_step(session, ctx)?
    {
        pulled.commit = Some(oid);
    }
    Ok(pulled)
}

/// `sync push`.
pub(super) fn push_verb(ctx: &Ctx, home: &Home) -> Result<Outcome> {
    let session = Session::open(home)?;
    let (pulled, pushed) = push_out(&session, ctx)?;
    state::record_sync(&session, ctx)?;
    let mut text = String::new();
    if pulled.pulled > 0 {
        text.push_str(&pulled.text());
        text.push('\n');
    }
    text.push_str(&pushed.text());
    Ok(pulled.warn(Outcome::new(pushed.to_json(), text)))
}

/// Pull, then push; when the remote moved meanwhile, pull again and retry.
fn push_out(session: &Session, ctx: &Ctx) -> Result<(integrate::Pulled, net::Pushed)> {
    let mut first = pull_in(session, ctx)?;
    let mut retries = 0;
    loop {
        match net::push(session)? {
            Some(mut pushed) => {
                pushed.retries = retries;
                return Ok((first, pushed));
            }
            None if retries < net::PUSH_RETRIES => {
                retries += 1;
                let again = pull_restoring(session, ctx)?;
                first.absorb(again);
            }
            None => {
                return Err(Error::new(
                    ErrorType::Network,
                    format!(
                        "the remote kept moving: the push was rejected {} times",
                        retries + 1
                    ),
                )
                .with_hint(
                    "another home is pushing right now; run `agentbox sync now` again in a moment",
                )
                .with_detail("url", session.remote_url().unwrap_or_default()));
            }
        }
    }
}

/// `sync now`: pull then push under one lock.
pub(super) fn now_verb(ctx: &Ctx, home: &Home) -> Result<Outcome> {
    let session = Session::open(home)?;
    let (pulled, pushed) = push_out(&session, ctx)?;
    state::record_sync(&session, ctx)?;
    let text = format!("{}\n{}", pulled.text(), pushed.text());
    Ok(pulled.warn(Outcome::new(
        json!({"pull": pulled.to_json(), "push": pushed.to_json()}),
        text,
    )))
}

/// `sync abort`: drops an interrupted pull's journal (the files it wrote
/// stay; the next commit step takes them and the next pull merges again).
pub(super) fn abort_verb(_ctx: &Ctx, home: &Home) -> Result<Outcome> {
    let session = Session::open_as_is(home)?;
    let journal = state::read_journal(&session).ok().flatten();
    let present = session.git_path(state::JOURNAL).exists();
    if present {
        state::remove_journal(&session)?;
    }
    let text = if present {
        "Dropped the interrupted pull: the files it wrote stay, and the next `agentbox sync now` commits them and merges the remote again".to_string()
    } else {
        "No interrupted pull to drop".to_string()
    };
    Ok(Outcome::new(
        json!({
            "aborted": present,
            "target": journal.map(|j| j.target),
        }),
        text,
    ))
}

/// Doctor: an interrupted pull, an unresolved conflict, a stale git lock.
/// Reads files only (no lock: a running sync must not stall the checklist).
pub(super) fn check(home: &Home) -> Check {
    const NAME: &str = "sync";
    let git_dir = home.root.join(GIT_DIR);
    if !git_dir.join("HEAD").is_file() {
        return Check::pass(
            NAME,
            "not set up (`agentbox sync init` shares the home through git)",
        );
    }
    for name in [state::JOURNAL, state::CONFLICT] {
        if state::peek_damaged(&git_dir, name) {
            return Check::fail(
                NAME,
                format!("sync.git/{name} is damaged"),
                state::repair_hint(name),
            );
        }
    }
    if git_dir.join(state::JOURNAL).exists() {
        return Check::fail(
            NAME,
            "a pull was interrupted before it finished writing the home",
            "run `agentbox sync now` (it finishes the pull first); if that keeps failing, `agentbox sync abort` drops the pull (the files it wrote stay and the next sync commits and merges them)",
        );
    }
    if let Some(record) = state::peek_conflict(&git_dir) {
        return Check::fail(
            NAME,
            format!("a sync conflict waits on {}", record.files.join(", ")),
            "keep what you want in the home, delete each .remote copy (the remote's version; `agentbox sync status` lists them), then run `agentbox sync now`",
        );
    }
    if git_dir.join("index.lock").exists() && home.store.try_lock(LOCK).ok().flatten().is_some() {
        return Check::fail(
            NAME,
            "sync.git/index.lock is left over from a killed run",
            "run `agentbox sync now` (it removes the stale lock)",
        );
    }
    // No libgit2 here (starting it costs the TLS set-up): the remote from
    // the config text, the last sync from agentbox's own record.
    let last = state::peek_last_sync(&git_dir);
    let mut message = match net::configured_url(&git_dir) {
        None => "set up, no remote".to_string(),
        Some(url) => format!(
            "{url}: last sync {}",
            last.unwrap_or_else(|| "never".to_string())
        ),
    };
    let held = state::peek_held(&git_dir);
    if !held.is_empty() {
        message.push_str(&format!(
            "; {} file(s) of the remote not written into the home ({}): `agentbox sync status` says why",
            held.len(),
            held.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    Check::pass(NAME, message)
}

/// `proactive scan`: memory that has not reached the remote for a day or
/// more (changed files or commits not pushed), and a conflict that waits.
/// Nothing when sync is not set up or has no remote.
pub(super) fn suggest_unsynced(home: &Home, clock: &Clock) -> Result<Vec<Suggestion>> {
    let git_dir = home.root.join(GIT_DIR);
    if !git_dir.join("HEAD").is_file() || net::configured_url(&git_dir).is_none() {
        return Ok(Vec::new());
    }
    if let Some(record) = state::peek_conflict(&git_dir) {
        return Ok(vec![Suggestion {
            kind: "sync_conflict".to_string(),
            text: format!("A sync conflict waits on {}", record.files.join(", ")),
            command: "agentbox sync status".to_string(),
        }]);
    }
    let last = state::peek_last_sync(&git_dir);
    let since = last
        .as_deref()
        .and_then(|t| crate::clock::Time::parse(t).ok())
        .map(|t| clock.now() - t);
    if since.is_some_and(|d| d < crate::clock::days(1)) {
        return Ok(Vec::new());
    }
    let session = Session::open(home)?;
    let changed = commit::changed_paths(&session, true)?.len();
    let (ahead, _) = session.ahead_behind()?;
    if changed == 0 && ahead == 0 {
        return Ok(Vec::new());
    }
    let when = match (&last, since) {
        (Some(_), Some(d)) => format!("since the last sync {} day(s) ago", d.as_secs() / 86_400),
        _ => "never synced".to_string(),
    };
    Ok(vec![Suggestion {
        kind: "unsynced".to_string(),
        text: format!("{changed} changed file(s) and {ahead} commit(s) not pushed ({when})"),
        command: "agentbox sync now".to_string(),
    }])
}
