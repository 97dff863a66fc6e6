//! Many processes writing one plan at once, through the real binary and the
//! `.agent/tools/plan` link: no acknowledged mutation may be lost, versions
//! advance by exactly one per acknowledged write, and `--expect-version`
//! admits exactly one writer per version.
//!
//! Why these tests would catch a broken lock: every mutation is a
//! read-modify-write of the whole file. Without the flock (or with the version
//! check done outside it) two writers that overlap both read version `v` and
//! both write `v+1`: the acknowledged versions then repeat, the final version
//! falls short of `1 + acknowledged`, and one of the two `add-step` texts
//! vanishes. Each of those is asserted below.

use crate::common;

use common::{Sandbox, ok_data, temp_files};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const WORKERS: usize = 16;
const OPS_PER_WORKER: usize = 50;
const PLAN: &str = "race";

/// `.agent/tools/plan ARGS…` as a `std::process::Command`, with the same clean
/// environment as `Sandbox::plan` (that one is an assert_cmd command, which
/// cannot be spawned and waited on separately).
fn plan_cmd(sb: &Sandbox, args: &[&str]) -> Command {
    let mut cmd = sb.std_command(sb.home().join("tools").join("plan"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// The single JSON line a finished call printed, or a description of what it
/// printed instead.
fn parse_envelope(out: &Output) -> Result<Value, String> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.matches('\n').count() != 1 || !stdout.ends_with('\n') {
        return Err(format!(
            "expected one line on stdout, got {stdout:?} (stderr {:?})",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_str(stdout.trim_end())
        .map_err(|e| format!("stdout is not JSON ({e}): {stdout:?}"))
}

/// The stored plan document, read straight from disk.
fn stored_plan(sb: &Sandbox) -> Value {
    let path = sb.home().join("plans").join(format!("{PLAN}.json"));
    let text = std::fs::read_to_string(&path).expect("read plan file");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("plan file is not JSON ({e}):\n{text}"))
}

fn step_texts(doc: &Value) -> Vec<String> {
    doc["steps"]
        .as_array()
        .expect("steps array")
        .iter()
        .map(|s| s["text"].as_str().expect("step text").to_string())
        .collect()
}

fn create_plan(sb: &Sandbox) -> Value {
    ok_data(&mut sb.plan(&[
        "create", "Race", "--step", "first", "--step", "second", "--id", PLAN,
    ]))
}

#[derive(Debug)]
enum Op {
    AddStep(String),
    Note(String),
}

#[derive(Debug)]
struct Attempt {
    op: Op,
    code: Option<i32>,
    envelope: Result<Value, String>,
}

impl Attempt {
    fn acknowledged(&self) -> bool {
        self.code == Some(0) && self.envelope.as_ref().is_ok_and(|e| e["ok"] == true)
    }
    fn version(&self) -> u64 {
        let env = self.envelope.as_ref().expect("envelope");
        let data = env["data"]["version"].as_u64().expect("data.version");
        assert_eq!(
            env["meta"]["version"], data,
            "meta.version and data.version differ: {env}"
        );
        data
    }
}

#[test]
fn sixteen_writers_lose_no_acknowledged_mutation() {
    let sb = Arc::new(Sandbox::new());
    assert_eq!(create_plan(&sb)["version"], 1);
    let started = Instant::now();

    // A reader runs alongside: readers take no lock, so every read (of the
    // file, or through `plan show`) must see a whole document, and the
    // versions one reader sees never go back.
    let done = Arc::new(AtomicBool::new(false));
    let reader = {
        let (sb, done) = (Arc::clone(&sb), Arc::clone(&done));
        std::thread::spawn(move || {
            let (mut last, mut reads) = (0u64, 0usize);
            while !done.load(Ordering::Relaxed) {
                let version = if reads % 4 == 3 {
                    let out = plan_cmd(&sb, &["show", PLAN]).output().expect("spawn show");
                    let env = parse_envelope(&out).unwrap_or_else(|e| panic!("reader: {e}"));
                    assert_eq!(env["ok"], true, "reader: show failed mid-race: {env}");
                    env["data"]["version"].as_u64().expect("version")
                } else {
                    stored_plan(&sb)["version"].as_u64().expect("version")
                };
                assert!(version >= last, "reader saw version {version} after {last}");
                (last, reads) = (version, reads + 1);
                std::thread::sleep(Duration::from_millis(1));
            }
            reads
        })
    };

    let gate = Arc::new(Barrier::new(WORKERS));
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let sb = Arc::clone(&sb);
            let gate = Arc::clone(&gate);
            std::thread::spawn(move || {
                gate.wait();
                (0..OPS_PER_WORKER)
                    .map(|i| {
                        let tag = format!("w{w}-{i}");
                        // Alternate per worker so both kinds are in flight at
                        // every moment; 400 add-steps stay under MAX_STEPS.
                        let (op, args) = if (w + i) % 2 == 0 {
                            let args = vec!["add-step".to_string(), PLAN.to_string(), tag.clone()];
                            (Op::AddStep(tag), args)
                        } else {
                            let args = vec!["step", PLAN, "1", "--note", &tag]
                                .into_iter()
                                .map(String::from)
                                .collect();
                            (Op::Note(tag), args)
                        };
                        let args: Vec<&str> = args.iter().map(String::as_str).collect();
                        let out = plan_cmd(&sb, &args).output().expect("spawn plan");
                        Attempt {
                            op,
                            code: out.status.code(),
                            envelope: parse_envelope(&out),
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let attempts: Vec<Attempt> = workers
        .into_iter()
        .flat_map(|h| h.join().expect("worker thread"))
        .collect();
    done.store(true, Ordering::Relaxed);
    let reads = reader.join().expect("reader thread");
    eprintln!(
        "{} mutations by {WORKERS} processes in {:.1?}, {reads} concurrent reads",
        attempts.len(),
        started.elapsed()
    );

    let failed: Vec<&Attempt> = attempts.iter().filter(|a| !a.acknowledged()).collect();
    let acked: Vec<&Attempt> = attempts.iter().filter(|a| a.acknowledged()).collect();
    assert!(
        failed.is_empty(),
        "{} of {} mutations failed; first ones: {:#?}",
        failed.len(),
        attempts.len(),
        &failed[..failed.len().min(3)]
    );
    assert_eq!(acked.len(), WORKERS * OPS_PER_WORKER);

    // Every acknowledged write produced its own version: 2, 3, …, 1 + acked.
    let mut by_version: BTreeMap<u64, &Attempt> = BTreeMap::new();
    for a in &acked {
        if let Some(other) = by_version.insert(a.version(), a) {
            panic!(
                "two acknowledged writes both produced version {} (lost update): {:?} and {:?}",
                a.version(),
                other.op,
                a.op
            );
        }
    }
    let expected_versions: Vec<u64> = (2..=1 + acked.len() as u64).collect();
    assert_eq!(
        by_version.keys().copied().collect::<Vec<_>>(),
        expected_versions
    );

    // The file on disk: valid JSON, right schema and version, no temp files.
    let doc = stored_plan(&sb);
    assert_eq!(doc["schema"], "agentbox.plan/v1");
    assert_eq!(
        doc["version"],
        1 + acked.len() as u64,
        "final version != 1 + acknowledged"
    );
    let leftovers = temp_files(&sb.home().join("plans"));
    assert!(
        leftovers.is_empty(),
        "temp files left in plans/: {leftovers:?}"
    );

    // Every acknowledged add-step text is there exactly once, and nothing else is.
    let texts = step_texts(&doc);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &texts {
        *counts.entry(t.as_str()).or_default() += 1;
    }
    let added: BTreeSet<&str> = acked
        .iter()
        .filter_map(|a| match &a.op {
            Op::AddStep(t) => Some(t.as_str()),
            Op::Note(_) => None,
        })
        .collect();
    for t in &added {
        assert_eq!(
            counts.get(t).copied().unwrap_or(0),
            1,
            "step {t:?} should be present exactly once"
        );
    }
    assert_eq!(texts.len(), 2 + added.len(), "unexpected steps in the plan");
    assert_eq!(&texts[..2], ["first", "second"]);

    // The note on step 1 is the one written by the last acknowledged note.
    let last_note = by_version
        .values()
        .rev()
        .find_map(|a| match &a.op {
            Op::Note(t) => Some(t.as_str()),
            Op::AddStep(_) => None,
        })
        .expect("some note was written");
    assert_eq!(
        doc["steps"][0]["note"], last_note,
        "step 1 note is not the last write's"
    );

    // And the tool itself reads the same state back.
    let shown = ok_data(&mut sb.plan(&["show", PLAN]));
    assert_eq!(shown["version"], doc["version"]);
    assert_eq!(shown["progress"]["total"], texts.len());
}

fn wait_all(children: Vec<(usize, Child)>) -> Vec<(usize, Option<i32>, Result<Value, String>)> {
    children
        .into_iter()
        .map(|(w, child)| {
            let out = child.wait_with_output().expect("wait");
            (w, out.status.code(), parse_envelope(&out))
        })
        .collect()
}

/// 16 processes race `add-step --expect-version V` on the same V. Some rounds
/// run free; in others the plan's lock is held while all 16 start, so they
/// are all queued on it (and must wait, not fail) when it is released.
#[test]
fn expect_version_admits_exactly_one_writer() {
    let sb = Sandbox::new();
    create_plan(&sb);
    let lock_path = sb.home().join("locks").join(format!("plan-{PLAN}.lock"));
    let mut version = 1u64;
    let mut winners = Vec::new();
    for round in 0..6 {
        let held = (round % 2 == 1).then(|| {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&lock_path)
                .expect("open lock file");
            file.lock().expect("take plan lock");
            file
        });
        let expect = version.to_string();
        let children: Vec<(usize, Child)> = (0..WORKERS)
            .map(|w| {
                let text = format!("r{round}-w{w}");
                let child = plan_cmd(&sb, &["add-step", PLAN, &text, "--expect-version", &expect])
                    .spawn()
                    .expect("spawn plan");
                (w, child)
            })
            .collect();
        let mut children = children;
        if let Some(file) = held {
            // Every writer queues on the lock (none may give up) before it
            // is released.
            for (w, child) in &mut children {
                common::wait_for(
                    &format!("writer {w} to queue on the held lock"),
                    Duration::from_secs(30),
                    || {
                        if let Some(status) = child.try_wait().expect("try_wait") {
                            panic!("writer {w} did not wait for the held lock: {status:?}");
                        }
                        common::waits_for_lock(child.id(), &lock_path)
                    },
                );
            }
            drop(file);
        }
        let results = wait_all(children);

        let mut ok = Vec::new();
        for (w, code, env) in &results {
            let env = env
                .as_ref()
                .unwrap_or_else(|e| panic!("round {round} writer {w}: {e}"));
            if env["ok"] == true {
                assert_eq!(*code, Some(0), "ok envelope with exit {code:?}: {env}");
                assert_eq!(env["data"]["version"], version + 1, "{env}");
                ok.push(*w);
            } else {
                assert_eq!(
                    env["error"]["type"], "conflict",
                    "round {round} writer {w}: {env}"
                );
                assert_eq!(*code, Some(1), "conflict exit code: {env}");
                assert_eq!(env["error"]["detail"]["expected"], version, "{env}");
                assert_eq!(env["error"]["detail"]["actual"], version + 1, "{env}");
            }
        }
        assert_eq!(
            ok.len(),
            1,
            "round {round}: writers {ok:?} all succeeded at version {version}"
        );
        version += 1;
        winners.push(format!("r{round}-w{}", ok[0]));

        let doc = stored_plan(&sb);
        assert_eq!(doc["version"], version, "round {round}");
        let texts = step_texts(&doc);
        assert_eq!(
            &texts[2..],
            &winners[..],
            "round {round}: only the winners' steps may land"
        );
    }
    assert!(temp_files(&sb.home().join("plans")).is_empty());
}
