//! The three-way line merge (diffy) every text rule falls back to, and its
//! one-line conflict reason.

use super::DELETED_CHANGED;

/// Three-way merges a whole text file. Modify/delete and bytes that are not
/// UTF-8 changed on both sides are conflicts; an add/add merges against an
/// empty base (which usually conflicts, unless one side extends the other).
pub fn merge_both(
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let (Some(ours), Some(theirs)) = (ours, theirs) else {
        return Err(DELETED_CHANGED.to_string());
    };
    let as_text = |bytes: &[u8]| std::str::from_utf8(bytes).ok().map(str::to_string);
    let (Some(b), Some(o), Some(t)) =
        (as_text(base.unwrap_or(b"")), as_text(ours), as_text(theirs))
    else {
        return Err("both sides changed a file that is not UTF-8 text".to_string());
    };
    merge3(&b, &o, &t).map(String::into_bytes)
}

/// Three-way merges texts by lines: changes that do not touch the same lines
/// both land; overlapping ones are a conflict naming the first region (line
/// numbers of our side).
pub fn merge3(base: &str, ours: &str, theirs: &str) -> Result<String, String> {
    merge3_at(base, ours, theirs, 0)
}

/// [`merge3`] of a part of a file that starts after `offset` lines (the
/// conflict names the file's line numbers).
pub fn merge3_at(base: &str, ours: &str, theirs: &str, offset: usize) -> Result<String, String> {
    if ours == theirs || base == theirs {
        return Ok(ours.to_string());
    }
    if base == ours {
        return Ok(theirs.to_string());
    }
    match diffy::merge(base, ours, theirs) {
        Ok(merged) => Ok(merged),
        Err(_) => Err(conflict_reason(base, ours, theirs, offset)),
    }
}

/// "both sides changed lines 12–14": the first change of ours that overlaps
/// or touches a change of theirs (as diffy sees a conflict), in our lines.
fn conflict_reason(base: &str, ours: &str, theirs: &str, offset: usize) -> String {
    let ranges = |side: &str| -> Vec<(usize, usize, usize, usize)> {
        let mut options = diffy::DiffOptions::new();
        options.set_context_len(0);
        let patch = options.create_patch(base, side);
        patch
            .hunks()
            .iter()
            .map(|h| {
                let (old, new) = (h.old_range(), h.new_range());
                // 0-based start of the base lines replaced (an insertion's
                // start is the line it follows), and our lines that replace them.
                let old_start = if old.is_empty() {
                    old.start()
                } else {
                    old.start() - 1
                };
                let new_start = if new.is_empty() {
                    new.start()
                } else {
                    new.start() - 1
                };
                (old_start, old_start + old.len(), new_start, new.len())
            })
            .collect()
    };
    let (ours_hunks, theirs_hunks) = (ranges(ours), ranges(theirs));
    for &(os, oe, ns, nlen) in &ours_hunks {
        if theirs_hunks
            .iter()
            .any(|&(ts, te, _, _)| os <= te && ts <= oe)
        {
            return lines_reason(offset + ns, nlen);
        }
    }
    "both sides changed the same lines".to_string()
}

/// `line 4` or `lines 4–6` (1-based) for `len` lines from 0-based `start`.
fn lines_reason(start: usize, len: usize) -> String {
    match len {
        0 => format!("both sides changed the text at line {}", start + 1),
        1 => format!("both sides changed line {}", start + 1),
        _ => format!("both sides changed lines {}–{}", start + 1, start + len),
    }
}
