//! Installing from a git URL: the repository is cloned (git2, no `git`
//! executable) into a scratch folder outside the home, its `.git` is dropped,
//! and the work tree is installed like a local folder (screened first). The
//! scratch folder is removed whatever happens.

use crate::error::{Error, ErrorType, Result};
use std::path::{Path, PathBuf};

/// Whether an install argument names a git repository rather than a folder:
/// a URL, an scp-like `[user@]host:path`, or a path ending in `.git` that
/// is not a folder — or is a repository itself (a bare one: `HEAD` and
/// `objects/`, no SKILL.md), which is cloned like any other.
pub fn looks_like_url(arg: &str) -> bool {
    if arg.contains("://") || arg.starts_with("git@") || scp_like(arg) {
        return true;
    }
    let trimmed = arg.trim_end_matches('/');
    if !trimmed.ends_with(".git") {
        return false;
    }
    let path = Path::new(trimmed);
    !path.is_dir()
        || (!path.join("SKILL.md").exists()
            && path.join("HEAD").is_file()
            && path.join("objects").is_dir())
}

/// `[user@]host:path`, git's scp-like SSH syntax: a `:` before any `/`,
/// and no such file here.
fn scp_like(arg: &str) -> bool {
    arg.split_once(':').is_some_and(|(host, _)| {
        !host.is_empty() && !host.contains('/') && !Path::new(arg).exists()
    })
}

/// The transports this libgit2 has: https (OpenSSL loaded on demand),
/// http, the git daemon's, and local paths. Anything else (ssh, ftp …) is
/// `upstream`, before any connection is tried.
fn check_transport(url: &str) -> Result<()> {
    let scheme = match url.split_once("://") {
        Some((scheme, _)) => Some(scheme.to_ascii_lowercase()),
        None if url.starts_with("git@") || scp_like(url) => Some("ssh".to_string()),
        None => None,
    };
    match scheme.as_deref() {
        None | Some("https" | "http" | "file" | "git") => Ok(()),
        Some(other) => Err(Error::new(
            ErrorType::Upstream,
            format!("cannot clone {url}: unsupported URL protocol ({other})"),
        )
        .with_hint(
            "this agentbox clones over https, http, git:// and local paths: use the repository's https URL, or clone it yourself and pass the folder",
        )
        .with_detail("url", url)),
    }
}

/// A cloned work tree, deleted on drop.
pub struct Clone {
    pub dir: PathBuf,
    /// The repository's name (the URL's last segment without `.git`).
    pub repo_name: String,
    /// Removes the folder if a signal ends the process first.
    _scratch: crate::cleanup::ScratchGuard,
}

impl Drop for Clone {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Clones `url` (shallow where the transport allows) into a fresh scratch
/// folder. This libgit2 is built with https (OpenSSL loaded on demand, see
/// `crate::git`) and local transports, no SSH.
pub fn clone(url: &str) -> Result<Clone> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "agentbox-skill-clone-{}-{nanos}",
        std::process::id()
    ));
    let url = if url.contains("://") {
        url
    } else {
        url.trim_end_matches('/')
    };
    let repo_name = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .unwrap_or("")
        .trim_end_matches(".git")
        .to_string();
    check_transport(url)?;
    crate::git::require_https(url)?;
    let _scratch = crate::cleanup::register_scratch(&dir);
    let cloned = Clone {
        dir,
        repo_name,
        _scratch,
    };
    let mut fetch = git2::FetchOptions::new();
    if !url.starts_with("file://") && !Path::new(url).exists() {
        // libgit2's local transport does not do shallow fetches
        fetch.depth(1);
    }
    git2::build::RepoBuilder::new()
        .fetch_options(fetch)
        .clone(url, &cloned.dir)
        .map_err(|e| clone_error(url, &e))?;
    std::fs::remove_dir_all(cloned.dir.join(".git"))
        .map_err(|e| Error::io("remove", &cloned.dir.join(".git"), &e))?;
    Ok(cloned)
}

/// A git2 failure as the contract's error type: transport problems are
/// `network`, refused credentials `auth`, a missing repository `not_found`.
fn clone_error(url: &str, e: &git2::Error) -> Error {
    use git2::{ErrorClass as C, ErrorCode as K};
    let kind = match (e.code(), e.class()) {
        (K::Auth, _) | (_, C::Ssh) if e.message().contains("auth") => ErrorType::Auth,
        (K::Auth, _) => ErrorType::Auth,
        (K::NotFound, _) => ErrorType::NotFound,
        (_, C::Net | C::Http | C::Ssl | C::Ssh) => ErrorType::Network,
        // socket failures arrive as OS errors
        (_, C::Os)
            if [
                "failed to connect",
                "Connection refused",
                "timed out",
                "resolve host",
            ]
            .iter()
            .any(|m| e.message().contains(m)) =>
        {
            ErrorType::Network
        }
        _ if [
            "does not exist",
            "not found",
            "No such file",
            "failed to resolve path",
        ]
        .iter()
        .any(|m| e.message().contains(m)) =>
        {
            ErrorType::NotFound
        }
        _ => ErrorType::Upstream,
    };
    let hint = match kind {
        ErrorType::Network => crate::git::missing_tls_hint(e)
            .unwrap_or("check the URL and the network, then try again"),
        ErrorType::Auth => {
            "set up access the way git does (ssh-agent, a credential helper), then try again"
        }
        ErrorType::NotFound => "check the repository URL",
        _ => "check the URL; or clone it yourself and pass the folder",
    };
    Error::new(kind, format!("cannot clone {url}: {}", e.message()))
        .with_hint(hint)
        .with_detail("url", url)
}
