//! `sync` — share the home through any git remote, and reach the host agents
//! (SPEC §4, docs/tools/sync.md).
//!
//! - `repo`: the home's git repository (`<home>/sync.git`, the home as work
//!   tree), commits, fetch, push, status, credentials and error mapping.
//! - `merge`: how two versions of one file become one (JSONL union,
//!   PROFILE.md per section, three-way for plans, notes and text).
//! - `hosts`: detecting host agents and installing `memory_mcp` and the
//!   screened skills into their configs.

mod cli;
pub mod hosts;
pub mod merge;
mod repo;

use crate::tools::Tool;

pub const TOOL: Tool = Tool {
    doctor: &[repo::check],
    suggest: &[repo::suggest_unsynced],
    ..Tool::derived::<cli::SyncCli>("sync", cli::run)
};

/// The git dir, relative to the home (the home itself is the work tree).
pub const GIT_DIR: &str = "sync.git";

/// The lock every sync verb that touches the repository holds.
pub const LOCK: &str = "sync";

/// A conflicted file's remote version is kept beside it as `<file>.remote`
/// until the person resolving the conflict deletes it.
pub const CONFLICT_SUFFIX: &str = ".remote";

/// A path as a case-insensitive, normalising file system (macOS, Windows)
/// sees it: the code points HFS+ ignores dropped, lower case, NFC, and each
/// name without trailing dots and spaces (which Windows drops). Two paths
/// that fold alike may be one file there: `SYNC.GIT/config` is
/// `sync.git/config`.
pub fn fold(rel: &str) -> String {
    let kept: String = rel.chars().filter(|c| !ignorable(*c)).collect();
    let lower = kept.to_lowercase();
    let nfc = icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(&lower);
    nfc.split('/')
        .map(|part| part.trim_end_matches(['.', ' ']))
        .collect::<Vec<_>>()
        .join("/")
}

/// The code points HFS+ ignores in names (git's list for `.git`).
fn ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}'
    )
}

/// Whether a home-relative path (`/`-separated) is shared through the remote:
/// all but what the installed registry says never syncs (the home's own
/// paths and the tools', `Registry::never_synced`). Compared as the file
/// system may see it ([`fold`]): a never-synced name in another case or
/// normal form never syncs either.
pub fn syncs(rel: &str) -> bool {
    syncs_under(rel, crate::tools::installed().never_synced())
}

/// [`syncs`] with the never-synced paths given.
fn syncs_under<'p>(rel: &str, never: impl IntoIterator<Item = &'p str>) -> bool {
    if rel.is_empty() || rel.starts_with('/') {
        return false;
    }
    let folded = fold(rel);
    let rel = folded.as_str();
    // A never-synced folder's own name too (`index` as a file would be
    // written over the folder). The paths are folded as `rel` is (a tool
    // may spell its own in capitals); the built-in ones already are.
    let never_matches = |p: &str| rel.starts_with(p) || rel == p.trim_end_matches('/');
    if never.into_iter().any(|p| {
        let folded_already = p.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase())
            && !p.split('/').any(|part| part.ends_with(['.', ' ']));
        if folded_already {
            never_matches(p)
        } else {
            never_matches(&fold(p))
        }
    }) {
        return false;
    }
    // The home's `.gitignore` is a file: nothing under a folder so named
    // syncs (a remote's `.gitignore/x` would replace the file).
    if rel.starts_with(".gitignore/") {
        return false;
    }
    // Temp files of atomic writes (`.x.json.123.tmp`), lock files, and the
    // remote's side of a conflicted file (`x.md.remote`, see `CONFLICT_SUFFIX`),
    // and anything under a folder so named (as `sync.git/info/exclude` says).
    !rel.split('/').any(|part| {
        part.ends_with(".tmp") || part.ends_with(".lock") || part.ends_with(CONFLICT_SUFFIX)
    })
}

#[cfg(test)]
mod tests {
    use super::syncs;

    #[test]
    fn what_syncs() {
        crate::registry::install();
        for rel in [
            "memory/personal/PROFILE.md",
            "memory/episodes/s/ep-20260101T000000Z-ab12cd-1.jsonl",
            "memory/foresight.jsonl",
            "plans/p-1.json",
            "skills/x/SKILL.md",
            "skills/.screening/x.json",
            "persona/ada.md",
        ] {
            assert!(syncs(rel), "{rel} should sync");
        }
        for rel in [
            "config.json",
            "index/search.db",
            "locks/sync.lock",
            "tools/plan",
            "sync.git/HEAD",
            "runs/evolve/state.json",
            "local/home-id",
            "skills/.staging/x.1/SKILL.md",
            "persona/.history/ada/1.md",
            "plans/.p-1.json.12.tmp",
            "memory/knowledge/x.md.remote",
            "index",
            "sync.git",
            "persona/.history",
            "memory/knowledge/x.md.remote/y.md",
            "memory/.a.tmp/b.md",
            "SYNC.GIT/config",
            "Config.json",
            "INDEX/search.db",
            "Local/home-id",
            "persona/.HISTORY/ada/1.md",
            "memory/knowledge/x.md.REMOTE",
            "plans/x.json.Tmp",
            "sync\u{200d}.git/HEAD",
            "tools./plan",
            "locks /x",
            "loc\u{212a}s/sync.lock",
        ] {
            assert!(!syncs(rel), "{rel} should not sync");
        }
    }

    /// A tool registered through the library may spell its never-synced
    /// folder in any case: it is compared folded, as the path is.
    #[test]
    fn a_never_synced_path_in_capitals_still_never_syncs() {
        let never = ["Recipes/.Drafts/", "CACHE.db"];
        for rel in [
            "recipes/.drafts/x.md",
            "Recipes/.Drafts/x.md",
            "recipes/.drafts",
            "cache.db",
        ] {
            assert!(!super::syncs_under(rel, never), "{rel} should not sync");
        }
        assert!(super::syncs_under("recipes/x.md", never));
    }
}
