//! The allowlist of official installers: the exact URLs vendors document
//! for `curl … | sh`. A pipe-to-shell of one of these is an honest skill
//! installing a tool the way its vendor says to, not remote code execution
//! from a stranger. The list is of URLs, never of wording: nothing a skill
//! writes around the URL moves it onto the list (docs/SCREENING.md).
//!
//! Matching is exact after normalising what does not change the resource:
//! the scheme's and host's case, and one trailing `/`. Anything else that
//! differs — another scheme, a port, userinfo (`https://sh.rustup.rs@evil.io`),
//! a query or fragment, a longer host (`https://sh.rustup.rs.evil.io`),
//! extra path segments, percent-escapes, dot segments — is not allowed. An
//! entry may mark one path segment as a release version (`v0.40.1`): there,
//! and only there, `v` (optional), then 2–4 dot-separated runs of digits.

/// One segment of an entry's path.
#[derive(Debug, Clone, Copy)]
enum Segment {
    /// This text exactly (case-sensitive, as paths are).
    Exact(&'static str),
    /// A release version: `v`? digits (`.` digits){1,3}, e.g. `v0.40.1`.
    Version,
}

use Segment::{Exact, Version};

/// One official installer: the vendor, the host, the path segments
/// (empty for the host's root).
struct Entry {
    vendor: &'static str,
    host: &'static str,
    path: &'static [Segment],
}

/// The list, as docs/SCREENING.md documents it. Every entry is an https URL
/// the vendor's own install instructions give.
const OFFICIAL: &[Entry] = &[
    Entry {
        vendor: "Homebrew",
        host: "raw.githubusercontent.com",
        path: &[
            Exact("Homebrew"),
            Exact("install"),
            Exact("HEAD"),
            Exact("install.sh"),
        ],
    },
    Entry {
        vendor: "nvm",
        host: "raw.githubusercontent.com",
        path: &[Exact("nvm-sh"), Exact("nvm"), Version, Exact("install.sh")],
    },
    Entry {
        vendor: "rustup",
        host: "sh.rustup.rs",
        path: &[],
    },
    Entry {
        vendor: "uv",
        host: "astral.sh",
        path: &[Exact("uv"), Exact("install.sh")],
    },
    Entry {
        vendor: "Bun",
        host: "bun.sh",
        path: &[Exact("install")],
    },
    Entry {
        vendor: "Deno",
        host: "deno.land",
        path: &[Exact("install.sh")],
    },
    Entry {
        vendor: "pnpm",
        host: "get.pnpm.io",
        path: &[Exact("install.sh")],
    },
    Entry {
        vendor: "Oh My Zsh",
        host: "raw.githubusercontent.com",
        path: &[
            Exact("ohmyzsh"),
            Exact("ohmyzsh"),
            Exact("master"),
            Exact("tools"),
            Exact("install.sh"),
        ],
    },
    Entry {
        vendor: "Oh My Zsh",
        host: "install.ohmyz.sh",
        path: &[],
    },
    Entry {
        vendor: "Poetry",
        host: "install.python-poetry.org",
        path: &[],
    },
    Entry {
        vendor: "pyenv",
        host: "pyenv.run",
        path: &[],
    },
    Entry {
        vendor: "Volta",
        host: "get.volta.sh",
        path: &[],
    },
    Entry {
        vendor: "Starship",
        host: "starship.rs",
        path: &[Exact("install.sh")],
    },
    Entry {
        vendor: "fnm",
        host: "fnm.vercel.app",
        path: &[Exact("install")],
    },
    Entry {
        vendor: "SDKMAN!",
        host: "get.sdkman.io",
        path: &[],
    },
    Entry {
        vendor: "Docker",
        host: "get.docker.com",
        path: &[],
    },
    Entry {
        vendor: "K3s",
        host: "get.k3s.io",
        path: &[],
    },
    Entry {
        vendor: "Tailscale",
        host: "tailscale.com",
        path: &[Exact("install.sh")],
    },
    Entry {
        vendor: "Ollama",
        host: "ollama.com",
        path: &[Exact("install.sh")],
    },
    Entry {
        vendor: "mise",
        host: "mise.run",
        path: &[],
    },
    Entry {
        vendor: "Helm",
        host: "raw.githubusercontent.com",
        path: &[
            Exact("helm"),
            Exact("helm"),
            Exact("main"),
            Exact("scripts"),
            Exact("get-helm-3"),
        ],
    },
];

/// The vendor whose documented installer `url` is, or `None`. See the
/// module's documentation for what is normalised and what is refused.
pub(crate) fn official_installer(url: &str) -> Option<&'static str> {
    let (host, segments) = parse(url.trim())?;
    OFFICIAL
        .iter()
        .find(|e| e.host == host && path_matches(e.path, &segments))
        .map(|e| e.vendor)
}

/// Every entry as a person reads it (`https://host/path`, a version
/// segment shown as `{version}`), with its vendor: for docs and `--help`.
#[allow(dead_code)] // read by the docs generator and tests; the engine needs only the lookup
pub(crate) fn entries() -> Vec<(&'static str, String)> {
    OFFICIAL
        .iter()
        .map(|e| {
            let mut url = format!("https://{}", e.host);
            for s in e.path {
                url.push('/');
                url.push_str(match s {
                    Exact(t) => t,
                    Version => "{version}",
                });
            }
            (e.vendor, url)
        })
        .collect()
}

/// `https://HOST[/PATH][/]` → the lower-cased host and the path's
/// segments; `None` for anything with another scheme, userinfo, a port, a
/// query, a fragment, an empty or dot segment, a percent-escape, or a
/// character outside the plain URL set.
fn parse(url: &str) -> Option<(String, Vec<&str>)> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    if rest
        .chars()
        .any(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/' | '~')))
    {
        // `@` (userinfo), `:` (port), `?`, `#`, `%`, whitespace, anything
        // non-ASCII: none of it is in an allowed URL.
        return None;
    }
    let (host, path) = match rest.split_once('/') {
        Some((h, p)) => (h, p),
        None => (rest, ""),
    };
    if host.is_empty() {
        return None;
    }
    let path = path.strip_suffix('/').unwrap_or(path);
    let segments: Vec<&str> = if path.is_empty() {
        Vec::new()
    } else {
        path.split('/').collect()
    };
    if segments
        .iter()
        .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return None;
    }
    Some((host.to_ascii_lowercase(), segments))
}

fn path_matches(pattern: &[Segment], segments: &[&str]) -> bool {
    pattern.len() == segments.len()
        && pattern.iter().zip(segments).all(|(p, s)| match p {
            Exact(t) => t == s,
            Version => is_version(s),
        })
}

/// `v`? digits (`.` digits){1,3}: `v0.40.1`, `0.39`, `v1.2.3.4`.
fn is_version(s: &str) -> bool {
    let s = s.strip_prefix('v').unwrap_or(s);
    let parts: Vec<&str> = s.split('.').collect();
    (2..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_urls_are_allowed() {
        for (url, vendor) in [
            (
                "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh",
                "Homebrew",
            ),
            (
                "https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh",
                "nvm",
            ),
            (
                "https://raw.githubusercontent.com/nvm-sh/nvm/v0.39.7/install.sh",
                "nvm",
            ),
            ("https://sh.rustup.rs", "rustup"),
            ("https://sh.rustup.rs/", "rustup"),
            ("HTTPS://SH.RUSTUP.RS", "rustup"),
            ("https://astral.sh/uv/install.sh", "uv"),
            ("https://bun.sh/install", "Bun"),
            ("https://deno.land/install.sh", "Deno"),
            ("https://get.pnpm.io/install.sh", "pnpm"),
            (
                "https://raw.githubusercontent.com/ohmyzsh/ohmyzsh/master/tools/install.sh",
                "Oh My Zsh",
            ),
            ("https://install.ohmyz.sh/", "Oh My Zsh"),
            ("https://install.python-poetry.org", "Poetry"),
            ("https://pyenv.run", "pyenv"),
            ("https://get.volta.sh", "Volta"),
            ("https://starship.rs/install.sh", "Starship"),
            ("https://fnm.vercel.app/install", "fnm"),
            ("https://get.sdkman.io", "SDKMAN!"),
            ("https://get.docker.com", "Docker"),
            ("https://get.docker.com/", "Docker"),
            ("https://get.k3s.io", "K3s"),
            ("https://tailscale.com/install.sh", "Tailscale"),
            ("https://ollama.com/install.sh", "Ollama"),
            ("https://mise.run", "mise"),
            (
                "https://raw.githubusercontent.com/helm/helm/main/scripts/get-helm-3",
                "Helm",
            ),
        ] {
            assert_eq!(official_installer(url), Some(vendor), "{url}");
        }
    }

    #[test]
    fn lookalikes_are_refused() {
        for url in [
            // another host that starts or ends like one
            "https://sh.rustup.rs.evil.io",
            "https://evil-sh.rustup.rs",
            "https://sh.rustup.rs./",
            // userinfo, port, query, fragment
            "https://sh.rustup.rs@evil.io",
            "https://evil.io@sh.rustup.rs",
            "https://sh.rustup.rs:443",
            "https://sh.rustup.rs:8443/",
            "https://evil.io/?u=https://sh.rustup.rs",
            "https://sh.rustup.rs/?x=1",
            "https://sh.rustup.rs#frag",
            "https://get.docker.com/?channel=test",
            // another scheme
            "http://sh.rustup.rs",
            "ftp://sh.rustup.rs",
            "sh.rustup.rs",
            "//sh.rustup.rs",
            // extra or other path
            "https://sh.rustup.rs/evil.sh",
            "https://get.docker.com/rootless",
            "https://astral.sh/uv/install.sh/x",
            "https://astral.sh/uv/../evil/install.sh",
            "https://astral.sh/uv/./install.sh",
            "https://astral.sh//uv/install.sh",
            "https://astral.sh/uv/install%2Esh",
            "https://raw.githubusercontent.com/Homebrew/install/main/install.sh",
            "https://raw.githubusercontent.com/homebrew/install/HEAD/install.sh",
            "https://raw.githubusercontent.com/evil/install/HEAD/install.sh",
            "https://raw.githubusercontent.com/Homebrew/install/HEAD/uninstall.sh",
            // the version segment takes a version, nothing else
            "https://raw.githubusercontent.com/nvm-sh/nvm/master/install.sh",
            "https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1-evil/install.sh",
            "https://raw.githubusercontent.com/nvm-sh/nvm/v1/install.sh",
            "https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/v0.40.1/install.sh",
            "https://raw.githubusercontent.com/nvm-sh/nvm/install.sh",
            // whitespace, non-ASCII lookalike hosts
            "https://sh.rustup.rs evil",
            "https://sh.rustup.гs",
            "",
            "https://",
        ] {
            assert_eq!(official_installer(url), None, "{url}");
        }
    }

    #[test]
    fn every_entry_reads_back_as_a_url_that_matches_itself() {
        for (vendor, url) in entries() {
            let url = url.replace("{version}", "v1.2.3");
            assert_eq!(official_installer(&url), Some(vendor), "{url}");
        }
    }
}
