//! Examples are tests (issue #32): every console example of README.md and
//! docs/**/*.md runs against a fresh home and must print what the doc shows
//! (the harness and its rules: tests/it/common/docs.rs).
//! `AGENTBOX_DOCS=overwrite cargo test --test it docs_examples` rewrites
//! the docs' expected output from what the commands print.

use crate::common::{self, docs};
use docs::Mode;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn mode() -> Mode {
    match std::env::var("AGENTBOX_DOCS").as_deref() {
        Ok("overwrite") => Mode::Overwrite,
        _ => Mode::Check,
    }
}

#[test]
fn every_console_example_prints_what_the_docs_show() {
    // Relative to the package root (a test's working folder), as messages
    // name them.
    let files: Vec<PathBuf> = docs::doc_files(&root())
        .into_iter()
        .map(|f| f.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    assert!(files.len() > 10, "the docs were not found: {files:?}");
    let bin = common::bin();
    let mode = mode();
    // One sandbox per file, the files side by side.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let queue = std::sync::Mutex::new(files.clone());
    let reports = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let Some(file) = queue.lock().unwrap().pop() else {
                        return;
                    };
                    let report = docs::run_file(&file, &bin, mode);
                    reports.lock().unwrap().push((file, report));
                }
            });
        }
    });
    let mut reports = reports.into_inner().unwrap();
    reports.sort_by(|a, b| a.0.cmp(&b.0));
    let commands: usize = reports.iter().map(|(_, r)| r.commands).sum();
    let skips: Vec<&String> = reports.iter().flat_map(|(_, r)| &r.skips).collect();
    println!(
        "{commands} commands in {} files; skipped blocks:",
        files.len()
    );
    for skip in &skips {
        println!("  {skip}");
    }
    assert!(commands > 50, "only {commands} commands ran");
    // A skip is for the rare block that cannot run here: keep them few.
    assert!(
        skips.len() <= 12,
        "{} skipped blocks: {skips:#?}",
        skips.len()
    );
    let failures: Vec<&String> = reports.iter().flat_map(|(_, r)| &r.failures).collect();
    assert!(
        failures.is_empty(),
        "{} examples differ from what agentbox prints (AGENTBOX_DOCS=overwrite cargo test --test it docs_examples rewrites them):\n\n{}",
        failures.len(),
        failures
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_example_calls_a_tool_by_its_bare_name() {
    let tools: Vec<&str> = agentbox::registry::REGISTRY
        .tools()
        .map(|t| t.name)
        .collect();
    assert!(tools.contains(&"knowledge") && tools.contains(&"sync"));
    let mut offenders = Vec::new();
    for file in docs::doc_files(&root()) {
        let doc = docs::parse(&std::fs::read_to_string(&file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (line, text) in docs::bare_tool_calls(&doc, &tools) {
            offenders.push(format!("{}:{line}: {text}", file.display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "a bare tool name is `command not found` when pasted: write `agentbox <tool> …` or `.agent/tools/<tool> …`:\n{}",
        offenders.join("\n")
    );
}

// The harness itself, on made-up markdown.

fn made_up(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.md");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn run(path: &Path, mode: Mode) -> docs::Report {
    docs::run_file(path, &common::bin(), mode)
}

const GOOD: &str = "# A doc\n\n<!-- docs-test: env GREETING=hello -->\n```console\n$ echo $GREETING; pwd\nhello\n/home/me/site\n$ mkdir sub && cd sub\n$ pwd\n/home/me/site/sub\n$ agentbox init\nInitialized agent home /home/me/site/sub/.agent\n...\n  created  tools/plan → /home/me/.cargo/bin/agentbox\n...\n$ agentbox plan show nope\nerror: no plan [..]\nhint: [..]\n? 1\n$ echo one \\\n  two\none two\n$ sed 's/^/> /' <<'END'\n$ not a command\nEND\n> $ not a command\n```\n";

#[test]
fn the_harness_passes_a_doc_that_matches_with_wildcards() {
    let (_dir, path) = made_up(GOOD);
    let report = run(&path, Mode::Check);
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    assert_eq!(report.commands, 7);
}

#[test]
fn the_harness_fails_a_wrong_output_and_an_unshown_failure() {
    let (_dir, path) = made_up(&GOOD.replace("hello\n/home", "goodbye\n/home"));
    let report = run(&path, Mode::Check);
    assert_eq!(report.failures.len(), 1, "{:#?}", report.failures);
    let msg = &report.failures[0];
    assert!(
        msg.contains("doc.md:5:") && msg.contains("echo $GREETING") && msg.contains("goodbye"),
        "{msg}"
    );
    let (_dir, path) = made_up(&GOOD.replace("? 1\n", ""));
    let report = run(&path, Mode::Check);
    assert_eq!(report.failures.len(), 1, "{:#?}", report.failures);
    assert!(report.failures[0].contains("? 1"), "{}", report.failures[0]);
}

#[test]
fn the_harness_skips_with_a_reason_and_writes_files() {
    let text = "<!-- docs-test: skip needs the network -->\n```console\n$ false\n```\n\n<!-- docs-test: file notes/a.txt -->\n```text\nfirst line\n```\n\n<!-- docs-test: setup echo made > b.txt -->\n```console\n$ cat notes/a.txt b.txt\nfirst line\nmade\n```\n";
    let (_dir, path) = made_up(text);
    let report = run(&path, Mode::Check);
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    assert_eq!(report.skips.len(), 1);
    assert!(report.skips[0].ends_with("doc.md:2: needs the network"));
}

#[test]
fn overwrite_rewrites_what_differs_and_keeps_matching_wildcards() {
    let text = "```console\n$ printf 'a 1\\nb 2\\n'\na [..]\nwrong\n$ echo same\nsame\n$ sh -c 'echo out; exit 3'\n```\n";
    let (_dir, path) = made_up(text);
    let report = run(&path, Mode::Overwrite);
    assert!(report.rewritten);
    let now = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        now,
        "```console\n$ printf 'a 1\\nb 2\\n'\na [..]\nb 2\n$ echo same\nsame\n$ sh -c 'echo out; exit 3'\nout\n? 3\n```\n"
    );
    assert!(run(&path, Mode::Check).failures.is_empty());
}

#[test]
fn the_bare_tool_check_sees_commands_in_console_and_shell_blocks() {
    let text = "```console\n$ knowledge add x\n$ agentbox knowledge add \"plan; sync\"\n```\n```sh\nls && sync push   # sync\necho 'plan'\n```\n```\nplan list\n$ plan list\n```\n```text\n$ plan list\n```\n";
    let doc = docs::parse(text).unwrap();
    let found: Vec<usize> = docs::bare_tool_calls(&doc, &["knowledge", "sync", "plan"])
        .into_iter()
        .map(|(line, _)| line)
        .collect();
    assert_eq!(found, vec![2, 6, 11]);
}

#[test]
fn the_harness_runs_a_block_in_a_list_item_and_refuses_a_block_that_runs_nothing() {
    // A console block indented under a list item is run like any other: a
    // wrong output (or an unshown failure) there fails too.
    let listed =
        "- An item:\n\n  ```console\n  $ echo one\n  one\n  $ sh -c 'exit 2'\n  ? 2\n  ```\n";
    let (_dir, path) = made_up(listed);
    let report = run(&path, Mode::Check);
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    assert_eq!(report.commands, 2);
    let (_dir, path) = made_up(&listed.replace("  ? 2\n", ""));
    let report = run(&path, Mode::Check);
    assert_eq!(report.failures.len(), 1, "{:#?}", report.failures);
    let (_dir, path) = made_up(&listed.replace("  one\n", "  two\n"));
    let report = run(&path, Mode::Overwrite);
    assert!(report.rewritten);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), listed);
    // A console block with no `$ ` line runs nothing: it cannot pass.
    let (_dir, path) = made_up("```console\n% agentbox init\nInitialized\n```\n");
    let report = run(&path, Mode::Check);
    assert_eq!(report.failures.len(), 1, "{:#?}", report.failures);
    assert!(
        report.failures[0].contains("doc.md:1:"),
        "{:#?}",
        report.failures
    );
}

/// The README opens with two commands; CI (`.ci/run`) must run exactly the
/// second, so what a newcomer runs is what CI proves.
#[test]
fn ci_runs_exactly_the_readmes_test_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = readme
        .split("```sh\n")
        .nth(1)
        .expect("README opens with a sh block");
    let block = &block[..block.find("```").expect("the block ends")];
    let lines: Vec<&str> = block.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "the README opens with two commands: {block}"
    );
    let command = |line: &str| line.split(" # ").next().unwrap().trim().to_string();
    assert!(
        lines[0].contains("agentbox init"),
        "first: install and set up a home"
    );
    let test = command(lines[1]);
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let ran: Vec<String> = ci
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| !l.starts_with("set ") && !l.starts_with("cd "))
        .map(str::to_string)
        .collect();
    assert_eq!(
        ran,
        [test],
        ".ci/run runs something other than the README's test command"
    );
}
