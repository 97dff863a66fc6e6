//! How two versions of one synced file become one. Pure functions over
//! bytes: no git, no home. `repo` calls [`merge_file`] for every path both
//! sides changed differently since their merge base.
//!
//! The rules by path (docs/tools/sync.md, "How files merge"), declared by
//! the tools that own the files (`Tool::merge`), read from the installed
//! registry:
//!
//! - `memory/episodes/<session>/<id>[.open].jsonl`: a union of turn lines
//!   (`jsonl::merge_episode`), renaming a turn or a whole episode whose id
//!   collides;
//! - any other `*.jsonl` (foresight): a union of lines (`jsonl::merge_lines`);
//! - `memory/personal/PROFILE.md`: per section, a three-way set of fact lines
//!   (`profile`);
//! - `*.json`: a structural three-way merge (`json`);
//! - `memory/knowledge/*.md`, `persona/*.md`: front matter key by key, the
//!   body three-way by lines (`front`);
//! - everything else: a three-way line merge (`text`).

mod front;
mod json;
mod jsonl;
mod profile;
mod seq;
mod text;

#[cfg(test)]
mod tests;

use crate::tools::Merge;

/// The result of merging one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merged {
    /// What to write: the path itself and possibly more paths (a record
    /// renamed because its id collided), each with its new bytes, or `None`
    /// to delete it. Paths are home-relative, `/`-separated.
    Clean(Vec<(String, Option<Vec<u8>>)>),
    /// Both sides changed the same part: a person must choose. The reason
    /// is one line for the error's detail ("both sides changed line 12").
    Conflict(String),
}

/// The conflict reason of a document deleted on one side and changed on the
/// other.
pub(crate) const DELETED_CHANGED: &str = "deleted on one side, changed on the other";

/// How a path merges: the first merge rule of the installed registry
/// that claims it (`Tool::merge`), else by its extension.
fn kind(rel: &str) -> Merge {
    if let Some(rule) = crate::tools::installed()
        .merge_rules()
        .find(|rule| (rule.paths)(rel))
    {
        return rule.merge;
    }
    if rel.ends_with(".jsonl") {
        Merge::Lines
    } else if rel.ends_with(".json") {
        Merge::Json
    } else {
        Merge::Text
    }
}

/// Merges `rel` from its merge base and the two sides (`None`: the file does
/// not exist on that side). Called only when both sides differ from the base
/// and from each other; other calls get the obvious answer. Deterministic, and
/// never panics: whatever the bytes, the answer is `Clean` or `Conflict`.
pub fn merge_file(
    rel: &str,
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Merged {
    // The trivial cases first, so every rule below sees a real three-way merge.
    if ours == theirs || base == theirs {
        return Merged::Clean(vec![(rel.to_string(), ours.map(<[u8]>::to_vec))]);
    }
    if base == ours {
        return Merged::Clean(vec![(rel.to_string(), theirs.map(<[u8]>::to_vec))]);
    }
    let guarded = std::panic::catch_unwind(|| merge_changed(rel, base, ours, theirs));
    guarded.unwrap_or_else(|_| Merged::Conflict("cannot merge the two versions".to_string()))
}

fn merge_changed(
    rel: &str,
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Merged {
    let one = |bytes: Result<Vec<u8>, String>| match bytes {
        Ok(bytes) => Merged::Clean(vec![(rel.to_string(), Some(bytes))]),
        Err(reason) => Merged::Conflict(reason),
    };
    match kind(rel) {
        Merge::Episode => jsonl::merge_episode(rel, base, ours, theirs),
        Merge::Lines => one(Ok(jsonl::merge_lines(base, ours, theirs))),
        Merge::Profile => one(profile::merge(base, ours, theirs)),
        Merge::Json => one(json::merge(base, ours, theirs)),
        Merge::FrontMatter => one(front::merge(base, ours, theirs)),
        Merge::Text => one(text::merge_both(base, ours, theirs)),
    }
}

/// [`merge_file`] under the built-in registry, for the tests: the rules are
/// the tools'. (Inline and last: the architecture test reads no code after
/// an inline test module.)
#[cfg(test)]
mod builtin {
    use super::Merged;

    pub(super) fn merge_file(
        rel: &str,
        b: Option<&[u8]>,
        o: Option<&[u8]>,
        t: Option<&[u8]>,
    ) -> Merged {
        crate::registry::install();
        super::merge_file(rel, b, o, t)
    }
}
