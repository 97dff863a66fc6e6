//! The bearer token of `memory_mcp --http`: from `AGENTBOX_MCP_TOKEN`, else
//! the home's `local/mcp-token` (made by `memory_mcp token`, owner-only,
//! never synced). Only its SHA-256 is kept in memory after start; a
//! presented token is hashed and compared in constant time.

use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// The environment variable that carries the token (the server's, and the
/// one host configs name so the host expands it).
pub const ENV: &str = "AGENTBOX_MCP_TOKEN";
/// Where `memory_mcp token` keeps it, below the home.
pub const FILE: [&str; 2] = ["local", "mcp-token"];
/// Generated tokens start with this: an `sk-` key, which every redactor
/// masks on sight (docs/REDACTION.md), in any process, in any file.
const PREFIX: &str = "sk-agentbox-";
/// The largest token file read.
const MAX_FILE: u64 = 4096;
/// The shortest token accepted from the environment or the file.
const MIN_LEN: usize = 16;

/// The token a server requires.
#[derive(Debug)]
pub struct Token {
    digest: [u8; 32],
    /// The token itself, for the redactor of the serving process (a token
    /// chosen by hand need not look like a key).
    pub secret: String,
    /// Where it came from, for the start-up line (never the value).
    pub source: String,
}

impl Token {
    fn new(secret: String, source: String) -> Token {
        Token {
            digest: Sha256::digest(secret.as_bytes()).into(),
            secret,
            source,
        }
    }

    /// Whether `presented` is the token, in time that does not depend on
    /// where the two differ (both are hashed first, so not on lengths
    /// either).
    pub fn matches(&self, presented: &[u8]) -> bool {
        let presented: [u8; 32] = Sha256::digest(presented).into();
        presented
            .iter()
            .zip(self.digest.iter())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}

/// A redaction pattern for `secret` in any spelling a client might save
/// it in: whole or without its `sk-agentbox-` prefix, any case, `-` and
/// `_` alike.
pub fn pattern(secret: &str) -> String {
    let body = secret.strip_prefix(PREFIX).unwrap_or(secret);
    let body: String = body
        .chars()
        .map(|c| match c {
            '-' | '_' => "[-_]".to_string(),
            c => regex::escape(&c.to_string()),
        })
        .collect();
    format!("(?i){body}")
}

/// The token file's path in `home`.
pub fn path(home: &Home) -> Result<PathBuf> {
    home.store.path(&FILE)
}

/// The configured token, if any: the environment's, else the file's. A
/// token that is too short, or a file other users can read, is refused.
pub fn configured(home: &Home) -> Result<Option<Token>> {
    if let Some(value) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
        let value = value.into_string().map_err(|_| {
            Error::invalid_args(format!("{ENV} is not valid UTF-8")).with_hint(format!(
                "make a token with `memory_mcp token` and export {ENV} from it"
            ))
        })?;
        return checked(value.trim().to_string(), format!("${ENV}")).map(Some);
    }
    from_file(home, &path(home)?)
}

/// The token in the file at `path`, if there is one: refused when it is not
/// a regular file only its owner can read, or holds more than a token.
fn from_file(home: &Home, path: &std::path::Path) -> Result<Option<Token>> {
    let path = path.to_path_buf();
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", &path, &e)),
    };
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o777;
    if !meta.is_file() || mode & 0o077 != 0 {
        return Err(Error::new(
            ErrorType::Permission,
            format!(
                "{} must be a file only its owner can read (it is {})",
                path.display(),
                if meta.is_file() {
                    format!("mode {mode:03o}")
                } else {
                    "not a regular file".to_string()
                }
            ),
        )
        .with_hint(format!(
            "chmod 600 {}, or make a new one with `memory_mcp token --new`",
            path.display()
        )));
    }
    if meta.len() > MAX_FILE {
        return Err(Error::invalid_args(format!(
            "{} is {} bytes: a token file holds one token",
            path.display(),
            meta.len()
        ))
        .with_hint("make a new one with `memory_mcp token --new`"));
    }
    let text = home.store.read(&path)?.unwrap_or_default();
    checked(text.trim().to_string(), path.display().to_string()).map(Some)
}

fn checked(secret: String, source: String) -> Result<Token> {
    if secret.len() < MIN_LEN || !secret.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Error::invalid_args(format!(
            "the token in {source} must be at least {MIN_LEN} visible ASCII characters"
        ))
        .with_hint("make one with `memory_mcp token --new`"));
    }
    Ok(Token::new(secret, source))
}

/// What `memory_mcp token` did.
#[derive(Debug)]
pub struct Made {
    pub path: PathBuf,
    pub created: bool,
}

/// Makes the home's token file unless there is one (`new`: replaces it).
/// The token never leaves the file: not on stdout, not in a log.
pub fn make(home: &Home, new: bool) -> Result<Made> {
    let path = path(home)?;
    if !new && std::fs::symlink_metadata(&path).is_ok() {
        // Kept only if the server would take it.
        from_file(home, &path)?;
        return Ok(Made {
            path,
            created: false,
        });
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| Error::internal(format!("the system's random generator failed: {e}")))?;
    let secret = format!("{PREFIX}{}", base64url(&bytes));
    home.store.ensure_dir(&home.store.path(&FILE[..1])?)?;
    home.store.write_secret(&path, &format!("{secret}\n"))?;
    Ok(Made {
        path,
        created: true,
    })
}

/// Unpadded base64url.
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_only_themselves() {
        let token = Token::new("sk-agentbox-abcdefghijklmnop".into(), "test".into());
        assert!(token.matches(b"sk-agentbox-abcdefghijklmnop"));
        assert!(!token.matches(b"sk-agentbox-abcdefghijklmnoq"));
        assert!(!token.matches(b"sk-agentbox-abcdefghijklmno"));
        assert!(!token.matches(b""));
    }

    #[test]
    fn base64url_is_rfc_4648() {
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64url(&[0u8; 32]).len(), 43);
    }

    #[test]
    fn generated_tokens_are_masked_by_every_redactor() {
        let secret = format!("{PREFIX}{}", base64url(&[7u8; 32]));
        let redacted = crate::redact::Redactor::builtin()
            .redact(&secret)
            .into_owned();
        assert!(!redacted.contains(&secret[PREFIX.len()..]), "{redacted}");
    }

    #[test]
    fn the_pattern_masks_the_token_in_any_spelling() {
        let secret = format!("{PREFIX}{}", base64url(&[0xfb; 32]));
        let body = &secret[PREFIX.len()..];
        let red = crate::redact::Redactor::new(&[pattern(&secret)]).unwrap();
        for spelling in [
            secret.clone(),
            body.to_string(),
            body.to_uppercase(),
            body.replace('-', "_").replace('_', "-"),
            format!("sk_agentbox_{body}"),
        ] {
            let masked = red.redact(&spelling).into_owned();
            assert!(!masked.contains(&body[4..20]), "{spelling} → {masked}");
        }
    }

    #[test]
    fn short_tokens_are_refused() {
        assert!(checked("short".into(), "x".into()).is_err());
        assert!(checked("has a space in it, long".into(), "x".into()).is_err());
        assert!(checked("0123456789abcdef".into(), "x".into()).is_ok());
    }
}
