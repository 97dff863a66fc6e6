//! How two versions of one synced file become one. Pure functions over
//! bytes: no git, no home. `repo` calls [`merge_file`] for every path both
//! sides changed differently since their merge base.

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

/// Merges `rel` from its merge base and the two sides (`None`: the file does
/// not exist on that side). Called only when both sides differ from the base
/// and from each other.
pub fn merge_file(
    rel: &str,
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Merged {
    let _ = (base, ours, theirs);
    Merged::Conflict(format!("{rel}: both sides changed it"))
}
