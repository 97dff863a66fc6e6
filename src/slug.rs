//! Slugs: the file-name-safe ids that plans and notes derive from their titles.
//!
//! A slug is lowercase ASCII letters and digits in words joined by single
//! '-' (`^[a-z0-9]+(-[a-z0-9]+)*$`). Accented and non-Latin letters are
//! transliterated first, so "Café déjà vu" becomes `cafe-deja-vu`.

/// A slug from free text: transliterated to ASCII, lowercase letters and
/// digits joined by single '-', at most `max` bytes, cut at a character (not
/// necessarily a word) boundary. Text with no letter or digit gives
/// `fallback`, which must itself be a slug no longer than `max`.
pub fn slugify(text: &str, max: usize, fallback: &str) -> String {
    debug_assert!(is_slug(fallback) && fallback.len() <= max, "{fallback:?}");
    let ascii = deunicode::deunicode(text);
    let mut slug = String::new();
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            if slug.len() >= max {
                break;
            }
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        fallback.to_string()
    } else {
        slug.to_string()
    }
}

/// Whether `s` is a slug: lowercase ASCII letters and digits in words joined
/// by single '-'.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The first free slug derived from `text`, at most `max` bytes.
///
/// Candidates, best first: the text's slug; that slug with one word left out
/// (a title such as "sk-learn tutorial" slugs to something a redactor takes
/// for a credential, and names that look like credentials cannot be stored);
/// then `{fallback}-{hash of the text}`. Each is tried bare, then with `-2`,
/// `-3` …; a name is skipped when `storable` refuses it or `taken` says it
/// exists. The hash candidate is the last resort and is not second-guessed.
pub fn unique<E>(
    text: &str,
    max: usize,
    fallback: &str,
    storable: impl Fn(&str) -> bool,
    mut taken: impl FnMut(&str) -> Result<bool, E>,
) -> Result<String, E> {
    let candidates = candidates(text, max, fallback);
    let last = candidates.len() - 1;
    for (i, base) in candidates.iter().enumerate() {
        for n in 1.. {
            let name = with_suffix(base, n, max);
            if i < last && !storable(&name) {
                break;
            }
            if !taken(&name)? {
                return Ok(name);
            }
        }
    }
    unreachable!("the last candidate is tried until a name is free")
}

/// The slugs `unique` tries, best first, without repeats.
fn candidates(text: &str, max: usize, fallback: &str) -> Vec<String> {
    let slug = slugify(text, max, fallback);
    let words: Vec<&str> = slug.split('-').collect();
    let mut out = vec![slug.clone()];
    if words.len() > 1 {
        for skip in 0..words.len() {
            let rest: Vec<&str> = (0..words.len())
                .filter(|&i| i != skip)
                .map(|i| words[i])
                .collect();
            out.push(rest.join("-"));
        }
    }
    let hashed = format!("{fallback}-{:08x}", fnv1a(text.as_bytes()));
    out.push(slugify(&hashed, max, fallback));
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.clone()));
    out
}

/// `base` for n = 1, else `base-n`, shortening `base` so the whole fits `max`.
fn with_suffix(base: &str, n: u64, max: usize) -> String {
    if n == 1 {
        return base.to_string();
    }
    let suffix = format!("-{n}");
    let keep = base.len().min(max.saturating_sub(suffix.len()));
    // `base` is ASCII, so any byte index is a character boundary.
    let head = base[..keep].trim_end_matches('-');
    if head.is_empty() {
        n.to_string()
    } else {
        format!("{head}{suffix}")
    }
}

/// 32-bit FNV-1a: a short, stable fingerprint (not a security measure).
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash, b| {
        (hash ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn transliterates_then_joins_words() {
        assert_eq!(slugify("Café déjà vu", 64, "note"), "cafe-deja-vu");
        assert_eq!(slugify("Ship v1.0 — now!", 48, "plan"), "ship-v1-0-now");
        assert_eq!(
            slugify("Go style: formatting!", 64, "note"),
            "go-style-formatting"
        );
        assert_eq!(slugify("Straße über Ærø", 64, "note"), "strasse-uber-aero");
        assert_eq!(slugify("  --  ", 48, "plan"), "plan");
        assert_eq!(slugify("", 48, "plan"), "plan");
        assert_eq!(slugify("!!!", 64, "note"), "note");
        assert!(is_slug(&slugify("日本語", 64, "note")));
        assert_eq!(slugify(&"ab ".repeat(100), 64, "note").len(), 64);
        assert_eq!(slugify("abcdef", 3, "x"), "abc");
    }

    #[test]
    fn suffixes_fit_the_limit() {
        assert_eq!(with_suffix("abc", 1, 8), "abc");
        assert_eq!(with_suffix("abc", 2, 8), "abc-2");
        assert_eq!(with_suffix("abcd-efgh", 12, 8), "abcd-12");
        assert_eq!(with_suffix("abcdefgh", 3, 8), "abcdef-3");
    }

    #[test]
    fn unique_skips_taken_and_unstorable_names() {
        let none = |_: &str| Ok::<bool, ()>(false);
        assert_eq!(
            unique("Ship v1", 48, "plan", |_| true, none),
            Ok("ship-v1".into())
        );
        let taken = |s: &str| Ok::<bool, ()>(s == "ship-v1" || s == "ship-v1-2");
        assert_eq!(
            unique("Ship v1", 48, "plan", |_| true, taken),
            Ok("ship-v1-3".into())
        );
        // A word that makes the name unstorable is left out.
        let storable = |s: &str| !s.starts_with("sk-");
        assert_eq!(
            unique("sk-learn tutorial", 48, "note", storable, none),
            Ok("learn-tutorial".into())
        );
        // Nothing storable but the hash: the hash.
        let got = unique("Café", 48, "note", |_| false, none).unwrap();
        assert!(got.starts_with("note-") && got.len() == 13, "{got}");
        assert_eq!(got, unique("Café", 48, "note", |_| false, none).unwrap());
    }

    proptest! {
        #[test]
        fn slugs_are_well_formed_bounded_and_stable(text in "\\PC{0,120}", max in 4usize..80) {
            let slug = slugify(&text, max, "note");
            prop_assert!(is_slug(&slug), "{:?} -> {:?}", text, slug);
            prop_assert!(regex_like(&slug), "{:?}", slug);
            prop_assert!(slug.len() <= max, "{:?} is over {}", slug, max);
            prop_assert_eq!(slugify(&slug, max, "note"), slug.clone());
        }

        #[test]
        fn unique_names_are_slugs_within_the_limit(
            text in "\\PC{0,80}",
            max in 13usize..80,
            busy in 0usize..30,
            picky in any::<bool>(),
        ) {
            // The first `busy` names asked about are taken; a picky store
            // refuses every name with a 7 in it.
            let mut asked = 0;
            let taken = |_: &str| {
                asked += 1;
                Ok::<bool, ()>(asked <= busy)
            };
            let name = unique(&text, max, "plan", |s| !(picky && s.contains('7')), taken).unwrap();
            prop_assert!(is_slug(&name), "{:?}", name);
            prop_assert!(name.len() <= max, "{:?}", name);
        }
    }

    /// The pattern `^[a-z0-9]+(-[a-z0-9]+)*$`, checked with a real regex.
    fn regex_like(s: &str) -> bool {
        static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        RE.get_or_init(|| regex::Regex::new("^[a-z0-9]+(-[a-z0-9]+)*$").unwrap())
            .is_match(s)
    }
}
