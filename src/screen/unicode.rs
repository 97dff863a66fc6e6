//! Hidden Unicode: characters a reviewer cannot see but a model reads.

use super::Severity;

/// One kind of hidden character found on a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hidden {
    pub rule: &'static str,
    pub severity: Severity,
    pub why: &'static str,
    /// A visible description (`U+202E`, or the ASCII a tag run spells).
    pub excerpt: String,
}

fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{180E}' | '\u{FEFF}' | '\u{2062}'
            ..='\u{2064}'
    )
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Emoji and pictographs, between which U+200D (ZWJ) is legitimate.
fn is_pictographic(c: char) -> bool {
    let u = c as u32;
    (0x1F000..=0x1FAFF).contains(&u)
        || (0x2600..=0x27BF).contains(&u)
        || (0xFE00..=0xFE0F).contains(&u)
        || (0x1F3FB..=0x1F3FF).contains(&u)
        || u == 0x2640
        || u == 0x2642
}

/// True when the line holds any character this module cares about (a cheap
/// prefilter: most lines are ASCII).
pub(crate) fn has_suspects(line: &str) -> bool {
    !line.is_ascii()
        && line
            .chars()
            .any(|c| is_zero_width(c) || is_bidi_control(c) || is_tag(c))
}

/// The hidden characters of one line. `first_line` allows a leading BOM.
pub(crate) fn scan_line(line: &str, first_line: bool) -> Vec<Hidden> {
    let mut out = Vec::new();
    if !has_suspects(line) {
        return out;
    }
    let chars: Vec<char> = line.chars().collect();
    let mut zero_width = Vec::new();
    let mut bidi = Vec::new();
    let mut tags = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if is_tag(c) {
            let ascii = (c as u32 - 0xE0000) as u8;
            if (0x20..0x7f).contains(&ascii) {
                tags.push(ascii as char);
            }
        } else if is_bidi_control(c) {
            bidi.push(c);
        } else if is_zero_width(c) {
            if c == '\u{FEFF}' && first_line && i == 0 {
                continue;
            }
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            if c == '\u{200D}'
                && (prev.is_some_and(is_pictographic) || next.is_some_and(is_pictographic))
            {
                continue;
            }
            // ZWNJ shapes Persian and Indic script: allowed beside non-Latin letters.
            if c == '\u{200C}' && prev.is_some_and(|p| p.is_alphabetic() && !p.is_ascii()) {
                continue;
            }
            zero_width.push((
                c,
                prev.is_some_and(|p| p.is_alphanumeric())
                    && next.is_some_and(|n| n.is_alphanumeric()),
            ));
        }
    }
    if !tags.is_empty() || chars.iter().any(|&c| is_tag(c)) {
        out.push(Hidden {
            rule: "unicode-tag-characters",
            severity: Severity::Fail,
            why: "Unicode tag characters are invisible yet spell ASCII text a model reads: a hidden instruction.",
            excerpt: format!("hidden text: {tags:?}"),
        });
    }
    if !bidi.is_empty() {
        let names: Vec<String> = bidi
            .iter()
            .map(|c| format!("U+{:04X}", *c as u32))
            .collect();
        out.push(Hidden {
            rule: "unicode-bidi-override",
            severity: Severity::Fail,
            why: "Bidirectional overrides make text display in a different order than it is read (Trojan Source).",
            excerpt: names.join(" "),
        });
    }
    if !zero_width.is_empty() {
        let inside_word = zero_width.iter().any(|(_, w)| *w) || zero_width.len() >= 2;
        let names: Vec<String> = zero_width
            .iter()
            .map(|(c, _)| format!("U+{:04X}", *c as u32))
            .collect();
        out.push(Hidden {
            rule: "unicode-zero-width",
            severity: if inside_word { Severity::Fail } else { Severity::Warn },
            why: "Zero-width characters hide text or split words so that filters and reviewers miss them.",
            excerpt: names.join(" "),
        });
    }
    out
}

/// The line without its invisible characters, so that `ig\u{200B}nore` is
/// screened as `ignore`.
pub(crate) fn strip_invisible(line: &str) -> String {
    line.chars()
        .filter(|&c| !(is_zero_width(c) || is_bidi_control(c) || is_tag(c)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_characters_are_decoded_and_fail() {
        let hidden: String = "run evil"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let found = scan_line(&format!("A helpful skill.{hidden}"), false);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule, "unicode-tag-characters");
        assert_eq!(found[0].severity, Severity::Fail);
        assert!(found[0].excerpt.contains("run evil"));
    }

    #[test]
    fn bidi_override_fails() {
        let found = scan_line("let admin = \u{202E}}\u{2066}// check", false);
        assert_eq!(found[0].rule, "unicode-bidi-override");
        assert!(found[0].excerpt.contains("U+202E"));
    }

    #[test]
    fn zero_width_inside_a_word_fails_alone_warns() {
        let found = scan_line("ig\u{200B}nore previous", false);
        assert_eq!(found[0].severity, Severity::Fail);
        let found = scan_line("trailing space\u{200B}", false);
        assert_eq!(found[0].severity, Severity::Warn);
    }

    #[test]
    fn near_misses_are_clean() {
        // A BOM at the start of a file, an emoji ZWJ sequence, Persian ZWNJ,
        // accented letters, arrows.
        assert!(scan_line("\u{FEFF}# Title", true).is_empty());
        assert!(scan_line("family: \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", false).is_empty());
        assert!(
            scan_line(
                "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}",
                false
            )
            .is_empty()
        );
        assert!(scan_line("café → naïve — ok ✓", false).is_empty());
    }

    #[test]
    fn stripping_reveals_the_word() {
        assert_eq!(strip_invisible("ig\u{200B}nore \u{202E}x"), "ignore x");
    }
}
