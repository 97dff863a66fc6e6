//! Redactor benchmark (no harness, no criterion): redaction throughput over
//! 1 MiB and 4 MiB inputs, the cost of building a `Redactor` with user
//! patterns, and shapes that would make a naive matcher rescan.
//!
//! `tools/bench-redact.py` drives it: wall-clock medians from a plain run,
//! instruction counts from `valgrind --tool=callgrind` runs of one case.
//!
//! Usage:
//!   redact [--runs N]                  every case, median of N runs each
//!   redact --case NAME --iters K       build the input, run the case K times
//!   redact --list                      case names, one a line

use agentbox::redact::Redactor;
use std::hint::black_box;
use std::time::Instant;

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;

/// User patterns for the `compile` case: the kind a config holds.
const USER_PATTERNS: &[&str] = &[
    "ACME-[0-9]{6}",
    "internal:(?P<secret>[a-z]+)",
    "corp_[a-z0-9]{20,}",
    r"\bpin=(?P<secret>[0-9]{4,8})\b",
    "(?i)x-corp-key: *(?P<secret>[A-Za-z0-9]{16,})",
    r"\b[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{4}\b",
    "tenant-[a-f0-9]{32}",
    "(?i)session=(?P<secret>[a-z0-9]{24,})",
];

/// Shapes that force rescans in a naive matcher (one unit, repeated).
const ADVERSARIAL: &[(&str, &str)] = &[
    ("ghp-run", "-ghp_AAAAAAAAAAAAAAAAAAAAAAAA"),
    ("call-open", "a(token="),
    ("open-quote", "token: \"x "),
    ("pwd", "/PWD=/x"),
    ("url-colon", "a://b:c/"),
    ("prose-pair", "token: abc "),
    ("bearer", "Bearer abcdefgh1 "),
    ("key-words", "tokentokentoken"),
    ("pem", "-----BEGIN RSA PRIVATE KEY-----\n-----END X"),
    ("sk", "sk-"),
    ("xoxb", "xoxb-"),
    ("quote-open", "password=\""),
];

/// Mixed text: prose, code, config lines and a few secrets, like a transcript.
const MIXED_UNIT: &str = "The deploy failed at step 3; see logs/deploy.log:120 for details.\n\
    export DB_PASSWORD=hunter2 && ./run --token ghp_abcdefghijklmnopqrstuvwxyz0123456789\n\
    {\"user\": \"bob\", \"api_key\": \"0123456789abcdef0123456789\", \"max_tokens\": 4096}\n\
    Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc\n\
    Write the token refresh docs, then review the password reset flow.\n";

enum Case {
    /// Redact this text with the built-in redactor.
    Redact(String),
    /// Build a redactor with `USER_PATTERNS`.
    Compile,
}

fn repeat_to(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes.div_ceil(unit.len()))
}

fn case_names() -> Vec<String> {
    let mut names = Vec::new();
    for size in ["1mib", "4mib"] {
        for shape in ["prose", "mixed", "pairs"] {
            names.push(format!("{shape}-{size}"));
        }
    }
    names.push("compile".to_owned());
    for (name, _) in ADVERSARIAL {
        names.push(format!("shape-{name}-128kib"));
        names.push(format!("shape-{name}-512kib"));
    }
    names
}

fn build(name: &str) -> Option<Case> {
    if name == "compile" {
        return Some(Case::Compile);
    }
    let (rest, size) = name.rsplit_once('-')?;
    let bytes = match size {
        "1mib" => MIB,
        "4mib" => 4 * MIB,
        "128kib" => 128 * KIB,
        "512kib" => 512 * KIB,
        _ => return None,
    };
    let unit = match rest {
        "prose" => "the quick brown fox jumps over the lazy dog; tokens are counted per line.\n",
        "mixed" => MIXED_UNIT,
        "pairs" => "password=x ",
        shape => {
            ADVERSARIAL
                .iter()
                .find(|(n, _)| shape.strip_prefix("shape-") == Some(n))?
                .1
        }
    };
    Some(Case::Redact(repeat_to(unit, bytes)))
}

fn run(case: &Case, redactor: &Redactor) {
    match case {
        Case::Redact(text) => {
            black_box(redactor.redact(black_box(text)));
        }
        Case::Compile => {
            let patterns: Vec<String> = USER_PATTERNS.iter().map(|p| (*p).to_owned()).collect();
            black_box(Redactor::new(black_box(&patterns)).expect("valid patterns"));
        }
    }
}

fn median_ns(case: &Case, redactor: &Redactor, runs: usize) -> u128 {
    run(case, redactor); // warm-up
    let mut times: Vec<u128> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            run(case, redactor);
            start.elapsed().as_nanos()
        })
        .collect();
    times.sort_unstable();
    times[times.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let redactor = Redactor::builtin();
    if args.iter().any(|a| a == "--list") {
        for name in case_names() {
            println!("{name}");
        }
        return;
    }
    if let Some(name) = value("--case") {
        let case = build(&name).unwrap_or_else(|| panic!("unknown case {name:?}"));
        let iters: usize = value("--iters").map_or(1, |v| v.parse().expect("--iters N"));
        for _ in 0..iters {
            run(&case, &redactor);
        }
        return;
    }
    let runs: usize = value("--runs").map_or(15, |v| v.parse().expect("--runs N"));
    for name in case_names() {
        let case = build(&name).expect("known case");
        let ns = median_ns(&case, &redactor, runs);
        let bytes = match &case {
            Case::Redact(text) => text.len(),
            Case::Compile => 0,
        };
        println!(
            "{{\"case\": \"{name}\", \"bytes\": {bytes}, \"median_ns\": {ns}, \"runs\": {runs}}}"
        );
    }
}
