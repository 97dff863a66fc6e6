//! Deterministic fact extraction from conversation messages: statements of
//! preference, identity, habit and decision become short third-person bullets.
//! The rules are listed in docs/tools/knowledge.md ("Extraction").

use super::{Section, normalize};
use crate::prose::prose_lines;

/// Longest sentence considered, in characters (longer ones are prose, not facts).
const MAX_SENTENCE_CHARS: usize = 300;
/// Longest object (the part after the matched phrase), in words.
const MAX_OBJECT_WORDS: usize = 25;

/// Words that make a sentence hypothetical, conditional or uncertain: such a
/// sentence states nothing durable.
const HYPOTHETICAL: &[&str] = &[
    "if",
    "unless",
    "suppose",
    "supposing",
    "imagine",
    "hypothetically",
    "would",
    "wouldn't",
    "could",
    "might",
    "maybe",
    "perhaps",
    "whether",
    "wonder",
    "i'd",
    "pretend",
    "probably",
];

/// Words a sentence may open with before the statement itself.
const FILLERS: &[&str] = &[
    "well",
    "also",
    "actually",
    "btw",
    "oh",
    "ok",
    "okay",
    "so",
    "and",
    "but",
    "fyi",
    "honestly",
    "yes",
    "yeah",
    "no",
    "hi",
    "hey",
    "hello",
    "note:",
    "anyway",
    "then",
    "now",
    "generally",
];

/// Objects that point at the conversation, not at a durable preference.
const VAGUE_OBJECTS: &[&str] = &[
    "it",
    "this",
    "that",
    "these",
    "those",
    "them",
    "you",
    "your",
    "yours",
    "what",
    "how",
    "when",
    "where",
    "why",
    "which",
    "him",
    "her",
    "us",
    "the idea",
    "that idea",
    "this idea",
    "the plan",
    "the suggestion",
    "your suggestion",
    "the approach",
    "your approach",
    // refusals, not preferences: "I prefer not to say"
    "not to say",
    "not to answer",
    "not to share",
    "not to comment",
    "not to discuss",
    "not to talk about",
];

/// Words that, opening the object of a fact, point back at the conversation:
/// "let's go with it", "I work on this tomorrow" say nothing on their own.
const PRONOUN_OBJECTS: &[&str] = &[
    "it", "this", "that", "these", "those", "them", "you", "your", "yours", "him", "her", "us",
    "one",
];

/// Past-tense verbs: "I never said that" tells of one event, not a habit.
const PAST_TENSE: &[&str] = &[
    "said",
    "did",
    "was",
    "were",
    "went",
    "had",
    "made",
    "told",
    "thought",
    "knew",
    "got",
    "saw",
    "came",
    "took",
    "gave",
    "found",
    "felt",
    "left",
    "meant",
    "ran",
    "wrote",
    "spoke",
    "bought",
    "brought",
    "forgot",
    "understood",
    "heard",
    "kept",
    "lost",
    "met",
    "paid",
    "sent",
    "spent",
    "stood",
    "won",
    "ate",
    "drank",
    "drove",
    "began",
    "chose",
    "became",
    "broke",
    "taught",
    "caught",
    "fought",
    "sought",
    "slept",
    "built",
    "sold",
    "held",
    "led",
    "read",
];

/// Present-tense verbs ending in "ed" ("I always proceed carefully").
const ED_PRESENT: &[&str] = &[
    "need", "feed", "seed", "speed", "bleed", "breed", "proceed", "exceed", "succeed", "embed",
    "shred", "shed", "wed", "heed", "weed", "bed",
];

/// Whether a habit's first word is a past-tense verb.
fn past_tense(verb: &str) -> bool {
    PAST_TENSE.contains(&verb)
        || (verb.len() > 3 && verb.ends_with("ed") && !ED_PRESENT.contains(&verb))
}

/// What a matched phrase becomes.
#[derive(Clone, Copy)]
enum Shape {
    /// `<prefix> <object>.` — the object rewritten to the third person.
    Plain(&'static str),
    /// `<Adverb> <verb+s> <rest>.` — habits: "I usually work late" → "Usually works late."
    Habit(&'static str),
    /// `<verb+s> <rest> <when>.` — "every morning I check mail" → "Checks mail every morning."
    Routine(&'static str),
    /// "use X instead of Y" → "Prefers X over Y."
    Instead,
    /// A proper name: "I'm Ada" → "Name is Ada."
    Name(&'static str),
}

/// A rule: the phrase a clause starts with, its section, its shape, and
/// whether the assistant's messages count too (decisions only).
struct Rule {
    phrase: &'static str,
    section: Section,
    shape: Shape,
    assistant: bool,
}

const fn user(phrase: &'static str, section: Section, shape: Shape) -> Rule {
    Rule {
        phrase,
        section,
        shape,
        assistant: false,
    }
}

const fn both(phrase: &'static str, shape: Shape) -> Rule {
    Rule {
        phrase,
        section: Section::Facts,
        shape,
        assistant: true,
    }
}

use Section::{Facts as F, Preferences as P};
use Shape::{Habit, Instead, Name, Plain, Routine};

/// The rules, most specific first (the first match wins). Phrases are
/// lowercase with straight apostrophes and end at a word boundary.
const RULES: &[Rule] = &[
    // preferences
    user("i really prefer", P, Plain("Prefers")),
    user("i much prefer", P, Plain("Prefers")),
    user("i generally prefer", P, Plain("Prefers")),
    user("i strongly prefer", P, Plain("Prefers")),
    user("i always prefer", P, Plain("Prefers")),
    user("i usually prefer", P, Plain("Prefers")),
    user("i prefer", P, Plain("Prefers")),
    user("i really like", P, Plain("Likes")),
    user("i like", P, Plain("Likes")),
    user("i really love", P, Plain("Loves")),
    user("i love", P, Plain("Loves")),
    user("i enjoy", P, Plain("Enjoys")),
    user("i really hate", P, Plain("Hates")),
    user("i hate", P, Plain("Hates")),
    user("i can't stand", P, Plain("Hates")),
    user("i cannot stand", P, Plain("Hates")),
    user("i really dislike", P, Plain("Dislikes")),
    user("i dislike", P, Plain("Dislikes")),
    user("i don't like", P, Plain("Dislikes")),
    user("i do not like", P, Plain("Dislikes")),
    user("my favorite", P, Plain("Favorite")),
    user("my favourite", P, Plain("Favourite")),
    user("please always", P, Plain("Asks to always")),
    user("please never", P, Plain("Asks to never")),
    user("please don't", P, Plain("Asks not to")),
    user("please do not", P, Plain("Asks not to")),
    user("don't ever", P, Plain("Asks to never")),
    user("do not ever", P, Plain("Asks to never")),
    user("never ever", P, Plain("Asks to never")),
    user("please use", P, Instead),
    user("use", P, Instead),
    // identity
    user("my name is", F, Name("Name is")),
    user("call me", F, Name("Goes by")),
    user("my pronouns are", F, Plain("Pronouns are")),
    user("my timezone is", F, Plain("Time zone is")),
    user("my time zone is", F, Plain("Time zone is")),
    user("i am a", F, Plain("Is a")),
    user("i'm a", F, Plain("Is a")),
    user("i am an", F, Plain("Is an")),
    user("i'm an", F, Plain("Is an")),
    user("i am from", F, Plain("Is from")),
    user("i'm from", F, Plain("Is from")),
    user("i am based in", F, Plain("Is based in")),
    user("i'm based in", F, Plain("Is based in")),
    user("i work at", F, Plain("Works at")),
    user("i work for", F, Plain("Works for")),
    user("i work on", F, Plain("Works on")),
    user("i work as", F, Plain("Works as")),
    user("i work in", F, Plain("Works in")),
    user("i live in", F, Plain("Lives in")),
    user("i'm working at", F, Plain("Works at")),
    user("i am working at", F, Plain("Works at")),
    user("i'm working for", F, Plain("Works for")),
    user("i am working for", F, Plain("Works for")),
    user("i'm working as", F, Plain("Works as")),
    user("i am working as", F, Plain("Works as")),
    user("i am", F, Name("Name is")),
    user("i'm", F, Name("Name is")),
    // habits
    user("i usually", F, Habit("Usually")),
    user("i always", F, Habit("Always")),
    user("i often", F, Habit("Often")),
    user("i never", F, Habit("Never")),
    user("i normally", F, Habit("Normally")),
    user("i typically", F, Habit("Typically")),
    user("i rarely", F, Habit("Rarely")),
    user("i tend to", F, Plain("Tends to")),
    user("every morning i", F, Routine("every morning")),
    user("every evening i", F, Routine("every evening")),
    user("every night i", F, Routine("every night")),
    user("every day i", F, Routine("every day")),
    user("every week i", F, Routine("every week")),
    user("every weekend i", F, Routine("every weekend")),
    user("each morning i", F, Routine("each morning")),
    // decisions
    user("i decided to", F, Plain("Decided to")),
    user("i've decided to", F, Plain("Decided to")),
    both("we decided to", Plain("Decided to")),
    both("we've decided to", Plain("Decided to")),
    both("we have decided to", Plain("Decided to")),
    both("we decided on", Plain("Decided on")),
    both("we decided that", Plain("Decided that")),
    both("let's go with", Plain("Decided to go with")),
    both("let us go with", Plain("Decided to go with")),
    both("let's use", Plain("Decided to use")),
    both("let's stick with", Plain("Decided to stick with")),
    both("we will use", Plain("Decided to use")),
    both("we'll use", Plain("Decided to use")),
    both("we are going to use", Plain("Decided to use")),
    both("we're going to use", Plain("Decided to use")),
    both("we are going with", Plain("Decided to go with")),
    both("we're going with", Plain("Decided to go with")),
    both("we will go with", Plain("Decided to go with")),
    both("we'll go with", Plain("Decided to go with")),
    both("we chose", Plain("Decided on")),
    both("we picked", Plain("Decided on")),
    both("we've chosen", Plain("Decided on")),
];

/// Words after "I'm a/an" that describe a mood, not an identity.
const NOT_IDENTITY: &[&str] = &["bit", "little", "tad", "lot", "sort", "kind"];
/// Words after "I'm" that are states, not names.
const NOT_NAMES: &[&str] = &[
    "ok", "okay", "fine", "good", "sorry", "back", "here", "done", "ready", "sure", "not", "also",
    "just", "still", "so", "very", "happy", "glad", "afraid", "in", "on", "at", "going", "trying",
    "looking", "working", "using",
];
/// Words that can open a clause after "and"/"but" or a comma.
const STARTERS: &[&str] = &[
    "i", "i'm", "i've", "we", "we've", "we're", "we'll", "let's", "my", "please", "don't", "every",
];

/// Extracts facts from `(role, content)` messages, in order, without
/// duplicates. Preferences, identity and habits only from `user` messages;
/// decisions from `user` and `assistant`. Other roles are ignored.
pub fn extract(messages: &[(String, String)]) -> Vec<(Section, String)> {
    let mut out: Vec<(Section, String)> = Vec::new();
    // Normalized forms seen so far (a set: a long message can hold many facts).
    let mut seen = std::collections::HashSet::new();
    for (role, content) in messages {
        let role = role.trim().to_ascii_lowercase();
        let is_user = role == "user";
        if !is_user && role != "assistant" {
            continue;
        }
        for sentence in sentences(content) {
            for clause in clauses(&sentence) {
                if let Some((section, text)) = statement(&clause, is_user)
                    && seen.insert(normalize(&text))
                {
                    out.push((section, text));
                }
            }
        }
    }
    out
}

/// The declarative sentences of a message: code blocks, quotes and questions
/// dropped; list markers removed; hypothetical sentences dropped.
fn sentences(content: &str) -> Vec<String> {
    let content = content.replace(['\u{2019}', '\u{2018}'], "'");
    let mut out = Vec::new();
    for line in prose_lines(&content) {
        let trimmed = line.trim();
        let trimmed = super::bullet_text(trimmed).unwrap_or(trimmed);
        let mut current = String::new();
        let chars: Vec<char> = trimmed.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            let at_end = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
            if matches!(c, '.' | '!' | '?' | ';') && at_end {
                if c != '?' {
                    out.push(std::mem::take(&mut current));
                } else {
                    current.clear();
                }
            } else {
                current.push(c);
            }
        }
        out.push(current);
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && s.chars().count() <= MAX_SENTENCE_CHARS)
        .filter(|s| {
            !s.split_whitespace()
                .any(|w| HYPOTHETICAL.contains(&word(w).as_str()))
        })
        .collect()
}

/// A word as compared: lowercase, straight apostrophes, outer punctuation gone.
fn word(w: &str) -> String {
    w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '\''))
        .to_lowercase()
}

/// Splits a sentence into clauses at "and/but/so I …", "…, I …" and the like.
fn clauses(sentence: &str) -> Vec<String> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let mut out: Vec<Vec<&str>> = vec![Vec::new()];
    let mut i = 0;
    while i < words.len() {
        let w = word(words[i]);
        let next_starts = words
            .get(i + 1)
            .is_some_and(|n| STARTERS.contains(&word(n).as_str()));
        let after_comma = i > 0 && words[i - 1].ends_with(',');
        if matches!(w.as_str(), "and" | "but" | "so" | "also" | "then") && next_starts && i > 0 {
            out.push(Vec::new());
            i += 1;
            continue;
        }
        let so_far = out.last().map_or(0, Vec::len);
        if after_comma && STARTERS.contains(&w.as_str()) && so_far >= 3 {
            out.push(Vec::new());
        }
        out.last_mut().expect("never empty").push(words[i]);
        i += 1;
    }
    out.into_iter()
        .filter(|c| !c.is_empty())
        .map(|c| c.join(" ").trim_end_matches([',', ':', ' ']).to_string())
        .collect()
}

/// Strips opening fillers ("Well,", "Also", "By the way,").
fn strip_fillers(clause: &str) -> &str {
    let mut rest = clause.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        if let Some(after) = lower.strip_prefix("by the way") {
            rest = rest[rest.len() - after.len()..].trim_start_matches([',', ' ']);
            continue;
        }
        let first = rest.split_whitespace().next().unwrap_or("");
        let bare = first.trim_end_matches(',').to_ascii_lowercase();
        if !first.is_empty() && FILLERS.contains(&bare.as_str()) && rest.len() > first.len() {
            rest = rest[first.len()..].trim_start_matches([',', ' ']);
            continue;
        }
        return rest;
    }
}

/// The fact one clause states, if it matches a rule.
fn statement(clause: &str, is_user: bool) -> Option<(Section, String)> {
    let clause = strip_fillers(clause);
    // "Every morning, I …": the comma after the time phrase does not count.
    let owned;
    let clause = if clause.to_ascii_lowercase().starts_with("every ")
        || clause.to_ascii_lowercase().starts_with("each ")
    {
        owned = clause.replacen(", ", " ", 1);
        owned.as_str()
    } else {
        clause
    };
    let lower = clause.to_ascii_lowercase();
    for rule in RULES {
        if !is_user && !rule.assistant {
            continue;
        }
        let Some(rest) = lower.strip_prefix(rule.phrase) else {
            continue;
        };
        if !rest.starts_with([' ', ',']) {
            continue;
        }
        // Byte offsets agree: ASCII lowercasing keeps lengths.
        let object = clause[rule.phrase.len()..].trim_start_matches([',', ' ']);
        let object = object.trim_end_matches(['.', '!', ',', ';', ':', ' ']);
        let words: Vec<&str> = object.split_whitespace().collect();
        if words.is_empty() || words.len() > MAX_OBJECT_WORDS {
            return None;
        }
        let first = word(words[0]);
        let text = match rule.shape {
            Shape::Plain(prefix) => {
                let object_lower = object.to_lowercase();
                if rule.section == Section::Preferences
                    && VAGUE_OBJECTS
                        .iter()
                        .any(|v| object_lower == *v || object_lower.starts_with(&format!("{v} ")))
                {
                    return None;
                }
                if prefix.starts_with("Is a") && NOT_IDENTITY.contains(&first.as_str()) {
                    return None;
                }
                if rule.section == Section::Facts
                    && prefix != "Decided that"
                    && PRONOUN_OBJECTS.contains(&first.as_str())
                {
                    return None;
                }
                let object = if is_user {
                    third_person(object)
                } else {
                    object.to_string()
                };
                format!("{prefix} {object}")
            }
            Shape::Habit(adverb) => {
                if matches!(
                    first.as_str(),
                    "the" | "a" | "an" | "my" | "so" | "very" | "too" | "not"
                ) || past_tense(&first)
                {
                    return None;
                }
                format!("{adverb} {}", conjugated(&words))
            }
            Shape::Routine(when) => {
                let sentence = conjugated(&words);
                // By character: the first may take more than one byte.
                let mut chars = sentence.chars();
                let first: String = chars
                    .next()
                    .into_iter()
                    .flat_map(char::to_uppercase)
                    .collect();
                format!("{first}{} {when}", chars.as_str())
            }
            Shape::Instead => {
                let object_lower = object.to_ascii_lowercase();
                let (at, sep) = [" instead of ", " rather than "]
                    .iter()
                    .find_map(|sep| object_lower.find(sep).map(|at| (at, sep.len())))?;
                let (x, y) = (object[..at].trim(), object[at + sep..].trim());
                if x.is_empty() || y.is_empty() {
                    return None;
                }
                format!("Prefers {x} over {y}")
            }
            Shape::Name(prefix) => {
                let is_name = words.len() <= 3
                    && words.iter().all(|w| {
                        let w = w.trim_end_matches(',');
                        w.chars().next().is_some_and(char::is_uppercase)
                            && w.chars()
                                .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
                    })
                    && !NOT_NAMES.contains(&first.as_str())
                    && first != "i";
                if !is_name {
                    // "I'm …" that is not a name matches no later rule either.
                    return None;
                }
                format!("{prefix} {}", object.trim_end_matches(','))
            }
        };
        let text = text.trim_end_matches(['.', '!', ',', ';', ':', ' ']);
        return Some((rule.section, format!("{text}.")));
    }
    None
}

/// First-person words turned third person ("my" → "their", "I" → "they").
fn third_person(text: &str) -> String {
    text.split_whitespace()
        .map(|w| {
            let core = w.trim_end_matches([',', ';', ':', ')']);
            let tail = &w[core.len()..];
            let swapped = match core.to_lowercase().as_str() {
                "my" => "their",
                "mine" => "theirs",
                "me" => "them",
                "myself" => "themselves",
                "i" => "they",
                "i'm" => "they're",
                "i've" => "they've",
                "i'll" => "they'll",
                _ => return w.to_string(),
            };
            format!("{swapped}{tail}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The object with its first word as a third-person verb and the rest third person.
fn conjugated(words: &[&str]) -> String {
    let verb = third_person_verb(&words[0].to_lowercase());
    let rest = third_person(&words[1..].join(" "));
    if rest.is_empty() {
        verb
    } else {
        format!("{verb} {rest}")
    }
}

/// "work" → "works", "go" → "goes", "study" → "studies", "am" → "is".
fn third_person_verb(verb: &str) -> String {
    match verb {
        "am" | "be" => return "is".to_string(),
        "have" => return "has".to_string(),
        "do" => return "does".to_string(),
        "don't" => return "doesn't".to_string(),
        "can" | "can't" | "will" | "won't" | "should" | "must" | "may" | "shall" => {
            return verb.to_string();
        }
        _ => {}
    }
    if !verb.chars().all(|c| c.is_ascii_alphabetic()) {
        return verb.to_string();
    }
    if verb.ends_with(['s', 'x', 'z', 'o']) || verb.ends_with("ch") || verb.ends_with("sh") {
        return format!("{verb}es");
    }
    if let Some(stem) = verb.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    format!("{verb}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> Vec<(Section, String)> {
        extract(&[("user".to_string(), text.to_string())])
    }

    fn one(text: &str) -> (Section, String) {
        let got = user(text);
        assert_eq!(got.len(), 1, "{text:?} → {got:?}");
        got[0].clone()
    }

    #[test]
    fn positive_sentences() {
        let cases: &[(&str, Section, &str)] = &[
            ("I prefer tabs over spaces.", P, "Prefers tabs over spaces."),
            ("I really prefer dark mode", P, "Prefers dark mode."),
            ("I like Rust.", P, "Likes Rust."),
            ("I'm working at Example Corp.", F, "Works at Example Corp."),
            (
                "I always proceed with care.",
                F,
                "Always proceeds with care.",
            ),
            ("I never need a debugger.", F, "Never needs a debugger."),
            (
                "We decided that it ships Friday.",
                F,
                "Decided that it ships Friday.",
            ),
            ("I love small commits!", P, "Loves small commits."),
            (
                "I hate trailing whitespace.",
                P,
                "Hates trailing whitespace.",
            ),
            ("I dislike long meetings.", P, "Dislikes long meetings."),
            ("I don't like YAML.", P, "Dislikes YAML."),
            (
                "Please always run the tests before committing.",
                P,
                "Asks to always run the tests before committing.",
            ),
            (
                "Please never push to main.",
                P,
                "Asks to never push to main.",
            ),
            (
                "Don't ever force-push my branches.",
                P,
                "Asks to never force-push their branches.",
            ),
            ("Use pnpm instead of npm.", P, "Prefers pnpm over npm."),
            (
                "My favorite editor is Helix.",
                P,
                "Favorite editor is Helix.",
            ),
            ("My name is Ada.", F, "Name is Ada."),
            ("I'm a backend developer.", F, "Is a backend developer."),
            ("I am an SRE at heart", F, "Is an SRE at heart."),
            ("Hi, I'm Grace Hopper.", F, "Name is Grace Hopper."),
            ("I work at Example Corp.", F, "Works at Example Corp."),
            (
                "I work for the city council.",
                F,
                "Works for the city council.",
            ),
            (
                "I work on the billing service.",
                F,
                "Works on the billing service.",
            ),
            ("I live in Berlin.", F, "Lives in Berlin."),
            ("I'm from Lisbon.", F, "Is from Lisbon."),
            ("I usually work late.", F, "Usually works late."),
            (
                "I always write tests first.",
                F,
                "Always writes tests first.",
            ),
            (
                "I often go hiking on weekends.",
                F,
                "Often goes hiking on weekends.",
            ),
            (
                "I never use semicolons in my JavaScript.",
                F,
                "Never uses semicolons in their JavaScript.",
            ),
            (
                "Every morning I check my email.",
                F,
                "Checks their email every morning.",
            ),
            (
                "Every morning, I study Japanese.",
                F,
                "Studies Japanese every morning.",
            ),
            (
                "We decided to use PostgreSQL.",
                F,
                "Decided to use PostgreSQL.",
            ),
            ("Let's go with SQLite.", F, "Decided to go with SQLite."),
            (
                "We will use GitHub Actions for CI.",
                F,
                "Decided to use GitHub Actions for CI.",
            ),
            ("We'll go with option B.", F, "Decided to go with option B."),
            (
                "Well, I tend to overthink things.",
                F,
                "Tends to overthink things.",
            ),
            ("- I prefer short answers", P, "Prefers short answers."),
            ("By the way, my timezone is CET.", F, "Time zone is CET."),
            ("I\u{2019}m a data scientist.", F, "Is a data scientist."),
        ];
        for (text, section, expected) in cases {
            let (got_section, got) = one(text);
            assert_eq!(
                (got_section, got.as_str()),
                (*section, *expected),
                "{text:?}"
            );
        }
    }

    #[test]
    fn several_facts_in_one_message() {
        let got = user(
            "Hi! My name is Ada and I work at Example Corp. I prefer tabs, but I hate YAML.\n\
             ```\nI prefer spaces.\n```\n> I love Java.\nI prefer tabs.",
        );
        let texts: Vec<&str> = got.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Name is Ada.",
                "Works at Example Corp.",
                "Prefers tabs.",
                "Hates YAML."
            ]
        );
    }

    #[test]
    fn negative_sentences() {
        for text in [
            "Do I prefer tabs?",
            "Should we use PostgreSQL?",
            "If I were a manager, I would prefer fewer meetings.",
            "I would prefer tabs if possible.",
            "Maybe I prefer spaces.",
            "Suppose I work at Google.",
            "I like it.",
            "I love this!",
            "I like that idea.",
            "I'm not sure.",
            "I'm going to refactor this.",
            "I'm a bit confused.",
            "I'm sorry about that.",
            "My friend prefers Vim.",
            "You prefer spaces.",
            "He works at Example Corp.",
            "The build uses tabs.",
            "Call me when you are done.",
            "I am happy with the result.",
            "I wonder whether we decided to use Redis.",
            "Use the force.",
            "I usually the same.",
            "I never said that.",
            "I always wanted a dog.",
            "I prefer not to say.",
            "Let's go with it.",
            "We chose this one.",
            "I work on it tomorrow.",
        ] {
            assert_eq!(user(text), Vec::new(), "{text:?}");
        }
    }

    #[test]
    fn roles_decide_what_counts() {
        let assistant = |t: &str| extract(&[("assistant".to_string(), t.to_string())]);
        assert_eq!(
            assistant("I prefer tabs. I work at Example Corp."),
            Vec::new()
        );
        assert_eq!(
            assistant("We decided to use PostgreSQL."),
            vec![(F, "Decided to use PostgreSQL.".to_string())]
        );
        let tool = extract(&[("tool".to_string(), "I prefer tabs.".to_string())]);
        assert!(tool.is_empty());
        let system = extract(&[("system".to_string(), "We decided to use X.".to_string())]);
        assert!(system.is_empty());
    }

    #[test]
    fn duplicates_across_messages_collapse() {
        let msgs = vec![
            ("user".to_string(), "I prefer tabs.".to_string()),
            ("User".to_string(), "i prefer TABS".to_string()),
        ];
        assert_eq!(extract(&msgs).len(), 1);
        assert_eq!(extract(&msgs), extract(&msgs));
    }

    #[test]
    fn verbs_take_the_third_person() {
        for (verb, expected) in [
            ("work", "works"),
            ("go", "goes"),
            ("watch", "watches"),
            ("study", "studies"),
            ("play", "plays"),
            ("fix", "fixes"),
            ("am", "is"),
            ("have", "has"),
            ("don't", "doesn't"),
            ("can", "can"),
        ] {
            assert_eq!(third_person_verb(verb), expected);
        }
    }
}
