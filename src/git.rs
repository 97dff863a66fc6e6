//! What `sync` and `skill_forge install` share about libgit2's transports.
//!
//! libgit2 is compiled with its https transport and OpenSSL loaded on
//! demand (`.cargo/config.toml`): the system's `libssl.so.3` is opened with
//! `dlopen` when the first TLS connection is made, so no other call of any
//! tool maps or relocates OpenSSL at start-up (docs/PERFORMANCE.md,
//! "OpenSSL on demand").

use crate::error::{Error, Result};

/// An `https://` URL needs the https transport. It is compiled in by the
/// defines in `.cargo/config.toml`, which a build started outside the
/// repository's folder does not read; without them every https fetch would
/// fail with libgit2's puzzling "unsupported URL protocol".
pub fn require_https(url: &str) -> Result<()> {
    if url.to_ascii_lowercase().starts_with("https://") && !git2::Version::get().https() {
        return Err(Error::invalid_args(format!(
            "this agentbox was built without https support, so it cannot reach {url}"
        ))
        .with_hint("build it from the repository's folder (`cargo install --locked --path .`), where .cargo/config.toml turns https on; or use a file:// URL")
        .with_detail("url", url));
    }
    Ok(())
}

/// The hint for a libgit2 failure when it is about OpenSSL missing from
/// this machine (`dlopen` of libssl failed), else `None`.
pub fn missing_tls_hint(err: &git2::Error) -> Option<&'static str> {
    err.message().contains("could not load ssl").then_some(
        "https needs the system's OpenSSL (libssl.so.3, loaded on the first https connection): install it (Debian and Ubuntu: `apt install libssl3`), or use a file:// URL",
    )
}
