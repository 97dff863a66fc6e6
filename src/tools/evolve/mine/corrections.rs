//! User corrections → PROFILE.md Preferences lines.
//!
//! A sentence of a user turn is a correction when it *starts* (after
//! fillers like "ok", "please", "you should", and an optional "no," / "no —")
//! with one of these, and says something concrete:
//!
//! | said | line |
//! | --- | --- |
//! | don't X, do not X | Don't X |
//! | never X | Never X |
//! | always X | Always X |
//! | stop using X | Don't use X |
//! | stop Xing … | Stop Xing … |
//! | I prefer X, I'd prefer X, we prefer X | Prefers X |
//! | prefer X (over …) | Prefer X … |
//! | use X instead of / rather than / over / not Y | Use X instead of Y … |
//! | no, use X | Use X |
//!
//! Questions, fenced code, quotes, and idioms ("don't worry", "never mind",
//! "always happy to help", "don't do that") are not corrections.

use crate::prose::prose_lines;

/// Words after "don't" that make an idiom, not a rule.
const DONT_IDIOMS: &[&str] = &[
    "worry",
    "know",
    "think",
    "mind",
    "care",
    "have",
    "see",
    "understand",
    "remember",
    "need",
    "want",
    "get",
    "like",
    "bother",
    "be",
    "forget",
    "feel",
    "believe",
    "recall",
    "agree",
    "hesitate",
    "panic",
    "sweat",
    "expect",
    "suppose",
    "even",
    "really",
    "quite",
    "yet",
];
/// Words after "never" that make an idiom.
const NEVER_IDIOMS: &[&str] = &[
    "mind", "again", "heard", "knew", "know", "thought", "seen", "been", "had", "was", "did",
];
/// Words after "always" that make a remark, not a rule.
const ALWAYS_IDIOMS: &[&str] = &[
    "happy",
    "glad",
    "welcome",
    "fine",
    "good",
    "great",
    "nice",
    "a",
    "an",
    "the",
    "been",
    "so",
    "here",
    "there",
    "true",
    "right",
    "wrong",
    "available",
    "ready",
    "fun",
    "was",
    "is",
    "are",
    "were",
    "has",
    "had",
    "seems",
    "worked",
    "works",
    "felt",
    "thought",
    "something",
    "some",
    "like",
    "pleasure",
];
/// Words that say nothing concrete on their own ("don't do that").
const VAGUE: &[&str] = &[
    "do", "that", "this", "it", "again", "now", "yet", "anymore", "there", "here", "so", "ever",
    "please", "those", "these", "them", "thing", "things", "stuff", "one", "all",
];
/// Fillers dropped at the start of a sentence.
const FILLERS: &[&str] = &[
    "ok",
    "okay",
    "oh",
    "hey",
    "also",
    "and",
    "but",
    "again",
    "actually",
    "hmm",
    "well",
    "so",
    "please",
    "pls",
    "plz",
    "btw",
    "hi",
    "just",
    "then",
    "remember",
    "seriously",
];
/// Two-word fillers.
const FILLERS2: &[(&str, &str)] = &[
    ("you", "should"),
    ("you", "must"),
    ("we", "should"),
    ("we", "must"),
    ("by", "the"),
];
/// Verbs that follow "I" as "I prefer".
const PREFER_HEADS: &[&[&str]] = &[
    &["i", "prefer"],
    &["i'd", "prefer"],
    &["id", "prefer"],
    &["i", "would", "prefer"],
    &["we", "prefer"],
    &["i", "really", "prefer"],
    &["i", "generally", "prefer"],
    &["i", "always", "prefer"],
    &["i", "much", "prefer"],
    &["i", "strongly", "prefer"],
];
/// Longest sentence considered, in words.
const MAX_WORDS: usize = 40;
/// Longest line produced, in characters.
const MAX_CHARS: usize = 200;

/// The corrections in a user turn, as Preferences lines ("Use pnpm instead
/// of npm", "Don't commit to main", "Prefers tabs"), in order, without
/// repeats. Never panics, whatever the text.
pub fn parse_correction(text: &str) -> Vec<String> {
    let text = text.replace(['\u{2019}', '\u{2018}'], "'");
    let mut out: Vec<String> = Vec::new();
    let mut pending_no = false;
    for line in prose_lines(&text) {
        let trimmed = strip_list_marker(line.trim());
        for (sentence, question) in sentences(trimmed) {
            if question {
                pending_no = false;
                continue;
            }
            let words: Vec<&str> = sentence.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            if is_bare_no(&words) {
                pending_no = true;
                continue;
            }
            if let Some(fact) = correction(&words, pending_no)
                && !out.contains(&fact)
            {
                out.push(fact);
            }
            pending_no = false;
        }
    }
    out
}

/// Other ways the same line may already be in PROFILE.md (the forms
/// `profile::extract` writes), the line itself first.
pub(super) fn equivalents(fact: &str) -> Vec<String> {
    let mut out = vec![fact.to_string()];
    if let Some(rest) = fact.strip_prefix("Don't ") {
        out.push(format!("Asks not to {rest}"));
    } else if let Some(rest) = fact.strip_prefix("Never ") {
        out.push(format!("Asks to never {rest}"));
    } else if let Some(rest) = fact.strip_prefix("Always ") {
        out.push(format!("Asks to always {rest}"));
    } else if let Some(rest) = fact.strip_prefix("Use ") {
        for sep in [" instead of ", " rather than "] {
            if let Some((x, y)) = rest.split_once(sep) {
                out.push(format!("Prefers {x} over {y}"));
            }
        }
        out.push(format!("Prefers {rest}"));
    }
    out
}

fn strip_list_marker(line: &str) -> &str {
    for marker in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return rest.trim_start();
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits < 4 {
        for marker in [". ", ") "] {
            if let Some(rest) = line[digits..].strip_prefix(marker) {
                return rest.trim_start();
            }
        }
    }
    line
}

/// Sentences of a line: they end at `.`, `!`, `?` or `;` followed by a
/// space or the end. Each comes with whether it is a question.
fn sentences(line: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !matches!(c, '.' | '!' | '?' | ';') {
            continue;
        }
        let at_end = chars.peek().is_none_or(|(_, next)| next.is_whitespace());
        if at_end {
            let end = i + c.len_utf8();
            out.push((&line[start..end], c == '?'));
            start = end;
        }
    }
    if start < line.len() {
        out.push((&line[start..], false));
    }
    out
}

/// A word without its surrounding punctuation, lowercase.
fn bare(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase()
}

fn is_no(word: &str) -> bool {
    matches!(bare(word).as_str(), "no" | "nope" | "nah")
}

fn is_dash(word: &str) -> bool {
    matches!(word, "-" | "--" | "—" | "–" | ":" | ",")
}

/// "No." or "Nope!" alone: the next sentence is the correction.
fn is_bare_no(words: &[&str]) -> bool {
    words.len() <= 2 && words.iter().all(|w| is_no(w) || is_dash(w)) && is_no(words[0])
}

/// The Preferences line a sentence makes, if it is a correction.
fn correction(words: &[&str], mut after_no: bool) -> Option<String> {
    if words.len() > MAX_WORDS {
        return None;
    }
    let mut at = 0;
    loop {
        let before = at;
        while at < words.len() && is_dash(words[at]) {
            at += 1;
        }
        if at < words.len() && is_no(words[at]) {
            // "no," / "No —" / "no:" — not "no problem".
            let w = words[at];
            let punct = w.ends_with([',', ':', '-', '—', '–', '.', '!', ';']);
            let dash_next = words.get(at + 1).is_some_and(|n| is_dash(n));
            if punct || dash_next {
                after_no = true;
                at += 1;
                continue;
            }
        }
        if at < words.len() && FILLERS.contains(&bare(words[at]).as_str()) {
            at += 1;
        }
        if at + 1 < words.len()
            && FILLERS2.contains(&(bare(words[at]).as_str(), bare(words[at + 1]).as_str()))
        {
            at += 2;
        }
        if at == before {
            break;
        }
    }
    let words = &words[at..];
    let lower: Vec<String> = words.iter().map(|w| bare(w)).collect();
    let first = lower.first()?.as_str();
    let (head, rest): (String, &[&str]) = match first {
        "don't" | "dont" => (guard("Don't", &words[1..], DONT_IDIOMS)?, &words[1..]),
        "do" if lower.get(1).is_some_and(|w| w == "not") => {
            (guard("Don't", &words[2..], DONT_IDIOMS)?, &words[2..])
        }
        "never" => {
            let skip = if lower.get(1).is_some_and(|w| w == "ever") {
                2
            } else {
                1
            };
            (
                guard("Never", &words[skip..], NEVER_IDIOMS)?,
                &words[skip..],
            )
        }
        "always" => (guard("Always", &words[1..], ALWAYS_IDIOMS)?, &words[1..]),
        "stop" => {
            let next = lower.get(1)?;
            if next == "using" {
                ("Don't use".to_string(), &words[2..])
            } else if next.len() > 4 && next.ends_with("ing") {
                (format!("Stop {}", words[1]), &words[2..])
            } else {
                return None;
            }
        }
        "prefer" => ("Prefer".to_string(), &words[1..]),
        "use" => {
            let joined = format!(" {} ", lower[1..].join(" "));
            let contrast = [" instead of ", " rather than ", " over ", " not "]
                .iter()
                .any(|c| joined.contains(c));
            if !(after_no || contrast) {
                return None;
            }
            ("Use".to_string(), &words[1..])
        }
        _ => {
            let head = PREFER_HEADS
                .iter()
                .find(|h| h.len() < lower.len() && h.iter().zip(&lower).all(|(a, b)| a == b))?;
            ("Prefers".to_string(), &words[head.len()..])
        }
    };
    finish(&head, rest)
}

/// The head, unless the next word makes an idiom.
fn guard(head: &str, rest: &[&str], idioms: &[&str]) -> Option<String> {
    let next = bare(rest.first()?);
    (!idioms.contains(&next.as_str())).then(|| head.to_string())
}

/// `head rest`, tidied: trailing "please"/"thanks" and punctuation dropped;
/// nothing when the rest says nothing concrete.
fn finish(head: &str, rest: &[&str]) -> Option<String> {
    let mut rest: Vec<&str> = rest.to_vec();
    while let Some(last) = rest.last() {
        let b = bare(last);
        if matches!(b.as_str(), "please" | "thanks" | "thx" | "ty") {
            rest.pop();
        } else if b == "you" && rest.len() >= 2 && bare(rest[rest.len() - 2]) == "thank" {
            rest.truncate(rest.len() - 2);
        } else {
            break;
        }
    }
    if rest.iter().all(|w| {
        let b = bare(w);
        b.is_empty() || VAGUE.contains(&b.as_str())
    }) {
        return None;
    }
    let line = format!("{head} {}", rest.join(" "));
    let line = line
        .trim_end_matches(|c: char| {
            matches!(c, '.' | '!' | ';' | ',' | ':' | ' ' | '-' | '—' | '–')
        })
        .to_string();
    if line.chars().count() > MAX_CHARS || line.chars().any(char::is_control) {
        return None;
    }
    Some(line)
}
