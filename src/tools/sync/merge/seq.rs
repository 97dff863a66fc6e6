//! A three-way merge of sequences (JSON arrays): each side's changes against
//! the base are found with a longest common subsequence; changes that do not
//! overlap all land (insertions at one place from both sides land both,
//! ours first), and an element changed in place on both sides is handed to
//! the caller to merge recursively.

/// Past this many cells the alignment would be too slow: the caller reports a
/// conflict instead.
const MAX_CELLS: usize = 4_000_000;

/// `base[bs..be]` replaced by `side[ss..se]`.
#[derive(Debug, Clone, Copy)]
struct Hunk {
    bs: usize,
    be: usize,
    ss: usize,
    se: usize,
}

/// Why a sequence merge failed: overlapping changes of different shape
/// (`None`), or the reason an element merge gave.
pub type Failure = Option<String>;

/// The hunks that turn `base` into `side`, or `None` when too large to align.
fn hunks<T: PartialEq>(base: &[T], side: &[T]) -> Option<Vec<Hunk>> {
    let prefix = base.iter().zip(side).take_while(|(a, b)| a == b).count();
    let suffix = base[prefix..]
        .iter()
        .rev()
        .zip(side[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let b = &base[prefix..base.len() - suffix];
    let x = &side[prefix..side.len() - suffix];
    if b.len().saturating_mul(x.len()) > MAX_CELLS {
        return None;
    }
    // lcs[i][j]: the longest common subsequence of b[i..] and x[j..].
    let width = x.len() + 1;
    let mut lcs = vec![0u32; (b.len() + 1) * width];
    for i in (0..b.len()).rev() {
        for j in (0..x.len()).rev() {
            lcs[i * width + j] = if b[i] == x[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j, mut bi, mut xj) = (0, 0, 0, 0);
    let flush = |bi: usize, i: usize, xj: usize, j: usize, out: &mut Vec<Hunk>| {
        if i > bi || j > xj {
            out.push(Hunk {
                bs: prefix + bi,
                be: prefix + i,
                ss: prefix + xj,
                se: prefix + j,
            });
        }
    };
    while i < b.len() && j < x.len() {
        if b[i] == x[j] {
            flush(bi, i, xj, j, &mut out);
            i += 1;
            j += 1;
            (bi, xj) = (i, j);
        } else if lcs[(i + 1) * width + j] >= lcs[i * width + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    flush(bi, b.len(), xj, x.len(), &mut out);
    Some(out)
}

/// `base[from..to]` with the hunks of one side applied.
fn apply<T: Clone>(base: &[T], side: &[T], hunks: &[Hunk], from: usize, to: usize) -> Vec<T> {
    let mut out = Vec::new();
    let mut at = from;
    for h in hunks {
        out.extend_from_slice(&base[at..h.bs]);
        out.extend_from_slice(&side[h.ss..h.se]);
        at = h.be;
    }
    out.extend_from_slice(&base[at..to]);
    out
}

/// Three-way merges `ours` and `theirs` against `base`. `both(index, base,
/// ours, theirs)` merges an element both sides changed in place (`index` is
/// its position in the result).
pub fn merge<T: Clone + PartialEq>(
    base: &[T],
    ours: &[T],
    theirs: &[T],
    mut both: impl FnMut(usize, &T, &T, &T) -> Result<T, String>,
) -> Result<Vec<T>, Failure> {
    let (Some(oh), Some(th)) = (hunks(base, ours), hunks(base, theirs)) else {
        return Err(None);
    };
    let mut all: Vec<(bool, Hunk)> = oh
        .into_iter()
        .map(|h| (true, h))
        .chain(th.into_iter().map(|h| (false, h)))
        .collect();
    all.sort_by_key(|(is_ours, h)| (h.bs, h.be, !is_ours));
    let mut out = Vec::new();
    let (mut pos, mut i) = (0, 0);
    while i < all.len() {
        let (gs, mut ge) = (all[i].1.bs, all[i].1.be);
        let start = i;
        i += 1;
        while i < all.len() {
            let k = all[i].1;
            let overlaps = if gs == ge {
                k.bs == k.be && k.bs == gs
            } else if k.bs == k.be {
                gs < k.bs && k.bs < ge
            } else {
                k.bs < ge
            };
            if !overlaps {
                break;
            }
            ge = ge.max(k.be);
            i += 1;
        }
        out.extend_from_slice(&base[pos..gs]);
        pos = ge;
        let group = &all[start..i];
        let side_hunks = |want: bool| -> Vec<Hunk> {
            group
                .iter()
                .filter(|(is_ours, _)| *is_ours == want)
                .map(|(_, h)| *h)
                .collect()
        };
        let mine = apply(base, ours, &side_hunks(true), gs, ge);
        let yours = apply(base, theirs, &side_hunks(false), gs, ge);
        if mine == yours || group.iter().all(|(o, _)| *o) {
            out.extend(mine);
        } else if group.iter().all(|(o, _)| !*o) {
            out.extend(yours);
        } else if gs == ge {
            // Both inserted here: keep both, each distinct element once.
            out.extend(mine.iter().cloned());
            out.extend(yours.into_iter().filter(|e| !mine.contains(e)));
        } else if mine.len() == ge - gs && yours.len() == ge - gs {
            for (k, (m, y)) in mine.iter().zip(&yours).enumerate() {
                let b = &base[gs + k];
                let merged = if m == y || b == y {
                    m.clone()
                } else if b == m {
                    y.clone()
                } else {
                    both(out.len(), b, m, y).map_err(Some)?
                };
                out.push(merged);
            }
        } else {
            return Err(None);
        }
    }
    out.extend_from_slice(&base[pos..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::merge;

    fn m(b: &str, o: &str, t: &str) -> Result<String, Option<String>> {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        merge(&chars(b), &chars(o), &chars(t), |_, _, _, _| {
            Err("both".to_string())
        })
        .map(|v| v.into_iter().collect())
    }

    #[test]
    fn sequences_merge_when_changes_do_not_overlap() {
        assert_eq!(m("abc", "aXc", "abcd"), Ok("aXcd".into()));
        assert_eq!(m("abc", "aXc", "abYc"), Ok("aXYc".into()));
        assert_eq!(m("abc", "Xabc", "abcY"), Ok("XabcY".into()));
        assert_eq!(m("abc", "abXc", "abYc"), Ok("abXYc".into()));
        assert_eq!(m("abc", "ac", "abcZ"), Ok("acZ".into()));
        assert_eq!(m("", "ab", "ac"), Ok("abc".into()));
        assert_eq!(m("abc", "aXc", "aYc"), Err(Some("both".into())));
        assert_eq!(m("abcd", "aXd", "abYZd"), Err(None));
    }
}
