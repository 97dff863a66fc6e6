//! Progress bars of long work: drawn on a terminal's stderr (after a short
//! delay, so quick calls print nothing), never when stderr is piped, with
//! `--format json` or with `-q`, and without colour under `NO_COLOR`.

use crate::common;

use common::{Sandbox, ok_data, on_tty};

/// A home with `n` notes (copies of one note written through `knowledge add`).
fn home_with_notes(n: usize) -> Sandbox {
    let sb = Sandbox::new();
    ok_data(&mut sb.agentbox(&["knowledge", "add", "Note one", "--body", "hello world"]));
    let dir = sb.home().join("memory/knowledge");
    let note = std::fs::read(dir.join("note-one.md")).unwrap();
    for i in 0..n {
        std::fs::write(dir.join(format!("n{i}.md")), &note).unwrap();
    }
    sb
}

/// A skill folder of `n` files outside the home.
fn big_skill(sb: &Sandbox, n: usize) -> String {
    let dir = sb.path().join("incoming/many-files");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: many-files\ndescription: Read the data files. Use when asked about the data.\nlicense: MIT\n---\n\n# many-files\n\nRead `data/`.\n",
    )
    .unwrap();
    for i in 0..n {
        std::fs::write(dir.join(format!("data/{i}.txt")), format!("row {i}\n")).unwrap();
    }
    dir.display().to_string()
}

#[test]
fn piped_and_json_runs_print_nothing_on_stderr() {
    let sb = home_with_notes(300);
    let skill = big_skill(&sb, 300);
    let runs: Vec<Vec<&str>> = vec![
        vec!["reindex", "--format", "text"],
        vec!["reindex", "--format", "json"],
        vec!["evolve", "run", "--format", "text"],
        vec!["evolve", "run", "--format", "json"],
        vec!["skill_forge", "install", &skill, "--format", "json"],
    ];
    for args in runs {
        // no delay: a bar allowed here would be drawn at the first step
        let out = sb
            .agentbox(&args)
            .env("AGENTBOX_PROGRESS_DELAY_MS", "0")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
#[ignore = "needs util-linux script (a pseudo-terminal); .ci/run runs it"]
fn a_large_reindex_shows_progress_on_a_terminal_only() {
    let sb = home_with_notes(2000);
    let reindex = format!("{} reindex", common::bin().display());
    let now = [("AGENTBOX_PROGRESS_DELAY_MS", "0")];
    // counts and rate, in colour, then cleared before the report
    let tty = on_tty(&sb, &reindex, &now);
    assert!(tty.contains("indexing files \x1b[36m"), "{tty:?}");
    assert!(tty.contains("/2001 ("), "{tty:?}");
    assert!(tty.contains("/s, "), "{tty:?}");
    let report = tty.rfind("Rebuilt").unwrap();
    assert!(tty[..report].ends_with("\r\x1b[2K\x1b[32m"), "{tty:?}");
    // NO_COLOR: the same bar, without colour
    let plain = on_tty(&sb, &reindex, &[now[0], ("NO_COLOR", "1")]);
    assert!(plain.contains("indexing files [="), "{plain:?}");
    assert!(!plain.contains("\x1b[3"), "{plain:?}");
    // -q, json, and a quick call (the default delay): nothing
    for (cmd, envs) in [
        (format!("{reindex} -q"), &now[..]),
        (format!("{reindex} --format json"), &now[..]),
    ] {
        let out = on_tty(&sb, &cmd, envs);
        assert!(!out.contains("indexing files"), "{cmd}: {out:?}");
    }
    let small = home_with_notes(3);
    let quick = on_tty(&small, &reindex, &[]);
    assert!(quick.starts_with("\x1b[32mRebuilt"), "{quick:?}");
}
