//! Talking to the remote: checking URLs, credentials (git credential helpers,
//! `GIT_ASKPASS`), fetch, push, and mapping their failures to the contract.

use super::{BRANCH, REMOTE, Session, TRACKING, git_error, short};
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use git2::{AutotagOption, Cred, CredentialType, FetchOptions, Oid, PushOptions, RemoteCallbacks};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// How often a push rejected because the remote moved is retried.
pub(super) const PUSH_RETRIES: usize = 5;

/// What a push did.
#[derive(Debug, Clone)]
pub(super) struct Pushed {
    pub pushed: usize,
    pub commit: Option<Oid>,
    pub retries: usize,
    pub url: String,
}

impl Pushed {
    pub fn to_json(&self) -> Value {
        json!({
            "pushed": self.pushed,
            "commit": self.commit.map(|o| o.to_string()),
            "retries": self.retries,
        })
    }

    pub fn text(&self) -> String {
        match self.pushed {
            0 => format!("Nothing to push: origin ({}) has everything", self.url),
            n => format!(
                "Pushed {n} commit{} to origin ({}){}",
                if n == 1 { "" } else { "s" },
                self.url,
                match self.retries {
                    0 => String::new(),
                    r => format!(
                        " after {r} retr{} (the remote moved)",
                        if r == 1 { "y" } else { "ies" }
                    ),
                }
            ),
        }
    }
}

fn bad_url(url: &str, why: &str, hint: &str) -> Error {
    Error::invalid_args(format!("the remote URL {} {why}", Value::from(url)))
        .with_hint(hint.to_string())
        .with_detail("url", url)
}

/// Checks a remote URL and returns the form to store: `https://`, `http://`
/// or `file://`; a plain path becomes a `file://` URL of its absolute form.
/// Credentials inside the URL, ssh and other schemes are `invalid_args`.
pub(super) fn check_url(home: &Home, url: &str) -> Result<String> {
    let url = url.trim();
    if url.is_empty() {
        return Err(bad_url(url, "is empty", "pass an https:// or file:// URL"));
    }
    if url.chars().any(char::is_control) {
        return Err(bad_url(
            &home.store.redactor().redact(url),
            "holds a control character (a newline?)",
            "pass the URL as one line, e.g. https://github.com/me/agent-memory.git",
        ));
    }
    if home.store.redactor().redact(url) != url {
        let shown = home.store.redactor().redact(url).into_owned();
        return Err(bad_url(
            &shown,
            "holds a credential",
            "keep credentials out of URLs: use a git credential helper (`git config --global credential.helper store`) or GIT_ASKPASS",
        ));
    }
    let ssh_hint = "agentbox syncs over https:// or file:// (no ssh): use the https URL of the repository, with a git credential helper for the login";
    if let Some((scheme, rest)) = url.split_once("://") {
        match scheme.to_ascii_lowercase().as_str() {
            "https" | "http" => {
                if rest.contains(char::is_whitespace) {
                    return Err(bad_url(
                        url,
                        "holds a space",
                        "encode a space in a URL as %20, e.g. https://github.com/me/agent-memory.git",
                    ));
                }
                let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
                if authority.is_empty() {
                    return Err(bad_url(
                        url,
                        "has no host",
                        "e.g. https://github.com/me/agent-memory.git",
                    ));
                }
                if let Some((userinfo, _)) = authority.rsplit_once('@')
                    && userinfo.contains(':')
                {
                    return Err(bad_url(
                        &url.replacen(userinfo, "***", 1),
                        "holds a password",
                        "drop `user:password@` from the URL and use a git credential helper (`git config --global credential.helper store`) or GIT_ASKPASS",
                    ));
                }
                Ok(url.to_string())
            }
            "file" => {
                if !rest.starts_with('/') {
                    return Err(bad_url(
                        url,
                        "is not an absolute file:// URL",
                        "e.g. file:///srv/git/memory.git",
                    ));
                }
                // Stored as given; its path is decoded (`%20`) at each use.
                let path = decode_path(rest);
                let shown = path.to_string_lossy();
                if home.store.redactor().redact(&shown) != shown {
                    return Err(bad_url(
                        &home.store.redactor().redact(&shown),
                        "holds a credential (once decoded)",
                        "keep credentials out of URLs and paths",
                    ));
                }
                work_tree_remote(url, &path)?;
                Ok(url.to_string())
            }
            "ssh" | "git+ssh" | "ssh+git" => Err(bad_url(url, "uses ssh", ssh_hint)),
            _ => Err(bad_url(
                url,
                "has a scheme agentbox does not sync over",
                "use https:// (or file:// for a repository on this machine)",
            )),
        }
    } else if is_scp_like(url) {
        Err(bad_url(url, "is an ssh address", ssh_hint))
    } else {
        // The path the user gave, made absolute and NOT resolved: a remote
        // reached through a symlink follows the link at each sync.
        let path = absolute(Path::new(url))?;
        let url = format!("file://{}", encode_path(&path));
        work_tree_remote(&url, &path)?;
        Ok(url)
    }
}

/// `path` made absolute against the working directory, without resolving
/// symlinks: `.` parts dropped, a leading `..` climbing out of the working
/// directory (which has no symlinks in it: it is the kernel's own path), a
/// `..` after a name kept for the file system to resolve, as git would.
fn absolute(path: &Path) -> Result<PathBuf> {
    use std::path::Component;
    let mut out = if path.is_absolute() {
        PathBuf::new()
    } else {
        std::env::current_dir().map_err(|e| Error::io("read", Path::new("."), &e))?
    };
    let mut named = false;
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if !named && !path.is_absolute() => {
                out.pop();
            }
            Component::Normal(_) => {
                named = true;
                out.push(part);
            }
            _ => out.push(part),
        }
    }
    Ok(out)
}

/// A path as the path of a `file://` URL: ASCII that a URL cannot carry
/// as is (a space, `%`, `#`, `?`, control characters, quotes, …) and bytes
/// that are not UTF-8 are percent-encoded; other characters are kept.
fn encode_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    const KEEP: &[u8] = b"-._~/!$&'()*+,;=:@";
    let bytes = path.as_os_str().as_bytes();
    let utf8 = std::str::from_utf8(bytes).is_ok();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphanumeric() || KEEP.contains(&b) {
            out.push(b as char);
            i += 1;
        } else if b >= 0x80 && utf8 {
            // A whole UTF-8 character, kept readable.
            let len = match b {
                0xf0.. => 4,
                0xe0.. => 3,
                _ => 2,
            };
            out.push_str(std::str::from_utf8(&bytes[i..i + len]).unwrap_or("\u{fffd}"));
            i += len;
        } else {
            out.push_str(&format!("%{b:02X}"));
            i += 1;
        }
    }
    out
}

/// The path of a `file://` URL (after `file://`), percent-decoded as git
/// decodes it (`%20` is a space; a `%` not followed by two hex digits stays).
fn decode_path(rest: &str) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).and_then(|b| hex(*b)),
                bytes.get(i + 2).and_then(|b| hex(*b)),
            )
        {
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

/// The local path of a `file://` URL (the scheme in any case); `None` for
/// other URLs.
pub(super) fn local_path(url: &str) -> Option<PathBuf> {
    let (scheme, rest) = url.split_once("://")?;
    scheme
        .eq_ignore_ascii_case("file")
        .then(|| decode_path(rest))
}

/// `git@github.com:me/x.git`.
fn is_scp_like(url: &str) -> bool {
    match url.split_once(':') {
        Some((host, _)) => !host.contains('/') && host.contains('@'),
        None => false,
    }
}

/// The URL of `origin` read from `sync.git/config` as text, without starting
/// libgit2 (doctor).
pub(super) fn configured_url(git_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(git_dir.join("config")).ok()?;
    let mut in_origin = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_origin = line.replace(char::is_whitespace, "") == "[remote\"origin\"]";
        } else if in_origin
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "url"
        {
            return Some(value.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// Sets (or replaces) the remote `origin`.
pub(super) fn set_remote(session: &Session, url: &str) -> Result<()> {
    let result = if session.repo.find_remote(REMOTE).is_ok() {
        session.repo.remote_set_url(REMOTE, url)
    } else {
        session.repo.remote(REMOTE, url).map(drop)
    };
    result.map_err(|e| git_error("set the remote", &e))
}

/// The remote's URL, or `not_found` with a hint to set one.
pub(super) fn require_remote(session: &Session) -> Result<String> {
    session.remote_url().ok_or_else(|| {
        Error::not_found("sync has no remote to pull from or push to")
            .with_hint("run `agentbox sync remote set URL` (https:// or file://)")
    })
}

/// What the credential callback went through, for the error afterwards.
#[derive(Default)]
struct Creds {
    asked: usize,
    none: bool,
}

/// How long a connection may take to open, and a read or write to
/// progress, before a fetch or push gives up (`network`): a server that
/// accepts and then never answers (a captive portal, a hung proxy) would
/// otherwise hold the command, and its locks, forever.
/// `AGENTBOX_SYNC_TIMEOUT_MS` (a test hook) sets both.
const CONNECT_TIMEOUT_MS: i32 = 30_000;
const IO_TIMEOUT_MS: i32 = 60_000;

/// Sets libgit2's process-wide network timeouts, once.
fn set_timeouts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let hook = std::env::var("AGENTBOX_SYNC_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.parse::<i32>().ok())
            .filter(|ms| *ms > 0);
        // SAFETY: libgit2's global options, set once before any transport
        // runs in this process.
        unsafe {
            let _ = git2::opts::set_server_connect_timeout_in_milliseconds(
                hook.unwrap_or(CONNECT_TIMEOUT_MS),
            );
            let _ = git2::opts::set_server_timeout_in_milliseconds(hook.unwrap_or(IO_TIMEOUT_MS));
        }
    });
}

/// The callbacks of one fetch or push: credentials from git's credential
/// helpers, then `GIT_ASKPASS`; the second request for the same URL means
/// the first was rejected (libgit2 asks again), and stops.
fn callbacks<'a>(state: &'a RefCell<Creds>) -> RemoteCallbacks<'a> {
    set_timeouts();
    let mut cb = RemoteCallbacks::new();
    cb.credentials(move |url, username, allowed| {
        let mut st = state.borrow_mut();
        st.asked += 1;
        if st.asked > 1 {
            return Err(git2::Error::from_str("credentials rejected"));
        }
        if allowed.contains(CredentialType::USER_PASS_PLAINTEXT) {
            if let Ok(config) = git2::Config::open_default()
                && let Ok(cred) = Cred::credential_helper(&config, url, username)
            {
                return Ok(cred);
            }
            if let Some((user, pass)) = askpass(url, username) {
                return Cred::userpass_plaintext(&user, &pass);
            }
        }
        if allowed.contains(CredentialType::DEFAULT) {
            return Cred::default();
        }
        st.none = true;
        Err(git2::Error::from_str("no credentials available"))
    });
    cb
}

/// Asks `GIT_ASKPASS` the way git does.
fn askpass(url: &str, username: Option<&str>) -> Option<(String, String)> {
    let program = std::env::var_os("GIT_ASKPASS").filter(|p| !p.is_empty())?;
    let ask = |prompt: String| -> Option<String> {
        let out = std::process::Command::new(&program)
            .arg(prompt)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let text = String::from_utf8(out.stdout).ok()?;
        Some(text.trim_end_matches(['\r', '\n']).to_string())
    };
    let user = match username {
        Some(user) => user.to_string(),
        None => ask(format!("Username for '{url}': "))?,
    };
    let pass = ask(format!("Password for '{url}': "))?;
    Some((user, pass))
}

/// Maps a failed fetch or push to the contract's error types.
fn remote_error(url: &str, err: &git2::Error, creds: &Creds, what: &str) -> Error {
    let (kind, hint) = if creds.none {
        (
            ErrorType::NotLoggedIn,
            "configure a git credential helper (`git config --global credential.helper store`, then log in once with git) or set GIT_ASKPASS",
        )
    } else if creds.asked > 1 || err.code() == git2::ErrorCode::Auth {
        (
            ErrorType::Auth,
            "the remote refused the credentials: update them in your credential helper, and check you may access the repository",
        )
    } else if let Some(hint) = crate::git::missing_tls_hint(err) {
        (ErrorType::Network, hint)
    } else {
        (
            ErrorType::Network,
            "check the URL (`agentbox sync remote`) and your connection, then retry",
        )
    };
    let message = match kind {
        ErrorType::NotLoggedIn => format!("{url} wants a login and no credentials are configured"),
        ErrorType::Auth => format!("{url} rejected the credentials"),
        _ => format!("cannot {what} {url}: {}", err.message()),
    };
    Error::new(kind, message)
        .with_hint(hint.to_string())
        .with_detail("url", url)
}

/// A repository with a work tree (a project's `.git`, or a checkout) is
/// `invalid_args`: a pull would merge the project's files into the home and
/// a push would move its checked-out branch.
fn work_tree_remote(url: &str, path: &Path) -> Result<()> {
    match git2::Repository::open(path) {
        Ok(repo) if !repo.is_bare() => Err(Error::invalid_args(format!(
            "the remote {url} is a repository with a work tree (a project's own?), not a bare one"
        ))
        .with_hint("sync through a bare repository: `git init --bare PATH`, then `agentbox sync remote set PATH`")
        .with_detail("url", url)),
        _ => Ok(()),
    }
}

/// A `file://` remote that does not exist is `not_found`, before libgit2
/// reports it as a transport failure.
fn check_local(url: &str) -> Result<()> {
    let Some(path) = local_path(url) else {
        return Ok(());
    };
    let path = path.as_path();
    if !path.exists() {
        return Err(Error::not_found(format!("the remote {url} does not exist"))
            .with_hint("create it (`git init --bare PATH`) or fix the URL with `agentbox sync remote set URL`")
            .with_detail("url", url));
    }
    work_tree_remote(url, path)?;
    if git2::Repository::open_bare(path).is_err() {
        return Err(
            Error::not_found(format!("the remote {url} is not a git repository"))
                .with_hint("point it at a repository (`git init --bare PATH` makes one)")
                .with_detail("url", url),
        );
    }
    Ok(())
}

/// Fetches the remote's `main` into the tracking ref; `None` when the
/// remote has no `main` yet (an empty remote).
pub(super) fn fetch(session: &Session) -> Result<Option<Oid>> {
    let url = require_remote(session)?;
    check_local(&url)?;
    if let Some(path) = local_path(&url) {
        return super::pack::fetch_local(session, &url, &path);
    }
    crate::git::require_https(&url)?;
    let mut remote = session
        .repo
        .find_remote(REMOTE)
        .map_err(|e| git_error("open the remote", &e))?;
    let creds = RefCell::new(Creds::default());
    let mut opts = FetchOptions::new();
    opts.remote_callbacks(callbacks(&creds))
        .download_tags(AutotagOption::None)
        .prune(git2::FetchPrune::On);
    let refspec = format!("+{BRANCH}:{TRACKING}");
    if let Err(err) = remote.fetch(&[refspec.as_str()], Some(&mut opts), None) {
        return Err(remote_error(&url, &err, &creds.borrow(), "fetch from"));
    }
    // An empty remote leaves no tracking ref (the fetch prunes a stale one;
    // `Remote::list` cannot be used: git2 0.20 panics on an empty list).
    Ok(session.tracking())
}

/// Pushes `main`. `None` when the remote rejected it because it moved
/// meanwhile (pull again and retry).
pub(super) fn push(session: &Session) -> Result<Option<Pushed>> {
    let url = require_remote(session)?;
    let Some(head) = session.head()? else {
        return Ok(Some(Pushed {
            pushed: 0,
            commit: None,
            retries: 0,
            url,
        }));
    };
    let tracking = session.tracking();
    if tracking == Some(head) {
        return Ok(Some(Pushed {
            pushed: 0,
            commit: Some(head),
            retries: 0,
            url,
        }));
    }
    let count = session.count_commits(head, tracking)?;
    check_local(&url)?;
    if let Some(path) = local_path(&url) {
        if !super::pack::push_local(session, &url, &path, head)? {
            return Ok(None);
        }
    } else if !push_remote(session, &url)? {
        return Ok(None);
    }
    session
        .repo
        .reference(
            TRACKING,
            head,
            true,
            &format!("agentbox sync: pushed {}", short(head)),
        )
        .map_err(|e| git_error("record the push", &e))?;
    Ok(Some(Pushed {
        pushed: count,
        commit: Some(head),
        retries: 0,
        url,
    }))
}

/// Pushes `main` through libgit2's transport; `false` when the remote
/// rejected it because it moved meanwhile.
fn push_remote(session: &Session, url: &str) -> Result<bool> {
    crate::git::require_https(url)?;
    let mut remote = session
        .repo
        .find_remote(REMOTE)
        .map_err(|e| git_error("open the remote", &e))?;
    let creds = RefCell::new(Creds::default());
    let rejected: RefCell<Option<String>> = RefCell::new(None);
    {
        let mut cb = callbacks(&creds);
        cb.push_update_reference(|_refname, status| {
            if let Some(status) = status {
                *rejected.borrow_mut() = Some(status.to_string());
            }
            Ok(())
        });
        let mut opts = PushOptions::new();
        opts.remote_callbacks(cb);
        let refspec = format!("{BRANCH}:{BRANCH}");
        if let Err(err) = remote.push(&[refspec.as_str()], Some(&mut opts)) {
            if moved(&err) {
                return Ok(false);
            }
            return Err(remote_error(url, &err, &creds.borrow(), "push to"));
        }
    }
    if let Some(status) = rejected.into_inner() {
        if status.contains("fast-forward") || status.contains("fetch first") {
            return Ok(false);
        }
        return Err(Error::new(
            ErrorType::Network,
            format!("{url} refused the push of main: {status}"),
        )
        .with_hint("check that you may push to the repository and that main is not protected")
        .with_detail("url", url));
    }
    Ok(true)
}

/// Whether a push error says the remote moved meanwhile.
fn moved(err: &git2::Error) -> bool {
    err.code() == git2::ErrorCode::NotFastForward
        || err.message().contains("fast-forward")
        || err.message().contains("fetch first")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_url_paths_encode_and_decode() {
        for raw in [
            "/srv/my memory/x.git",
            "/a/100%/b#c?d",
            "/é/ü.git",
            "/plain/x.git",
        ] {
            let encoded = encode_path(Path::new(raw));
            assert!(!encoded.contains(' '), "{encoded}");
            assert_eq!(decode_path(&encoded), PathBuf::from(raw), "{encoded}");
        }
        assert_eq!(encode_path(Path::new("/a b/%")), "/a%20b/%25");
        assert_eq!(decode_path("/a%zz/%2"), PathBuf::from("/a%zz/%2"));
        assert_eq!(local_path("FILE:///a%20b"), Some(PathBuf::from("/a b")));
        assert_eq!(local_path("https://x/y"), None);
    }

    #[test]
    fn a_relative_path_is_made_absolute_without_resolving_links() {
        let cwd = std::env::current_dir().unwrap();
        let parent = cwd.parent().unwrap().to_path_buf();
        assert_eq!(
            absolute(Path::new("../m.git")).unwrap(),
            parent.join("m.git")
        );
        assert_eq!(
            absolute(Path::new("./x/../m.git")).unwrap(),
            cwd.join("x/../m.git")
        );
        assert_eq!(
            absolute(Path::new("/srv/./m.git")).unwrap(),
            PathBuf::from("/srv/m.git")
        );
    }
}
