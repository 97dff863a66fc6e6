//! `sync` on the push, remote and state side: secrets in file names, commit
//! metadata and UTF-16 text; the `.gitignore` lines agentbox needs; error
//! types of a broken remote and of damaged state files; `file://` URLs.

use crate::common;

use common::sync::{Remote, ab, doctor_sync_check, fails, home_on, note, odb_holds, ok};
use common::{Sandbox, envelope};
use std::path::Path;

/// A token the redactor recognises (a GitHub personal access token).
const TOKEN: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

fn local_repo(sb: &Sandbox) -> git2::Repository {
    git2::Repository::open_bare(sb.home().join("sync.git")).unwrap()
}

// ---------------------------------------------------------------- item 3

#[test]
fn a_credential_in_a_file_name_is_never_committed_or_pushed() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    note(&sb, "Seed", "first");
    ok(&sb, &["sync", "now"]);
    let pushed = remote.main();
    let rel = format!("memory/knowledge/{TOKEN}.md");
    std::fs::write(sb.home().join(&rel), "---\ntitle: x\n---\nharmless body\n").unwrap();

    let err = fails(&sb, &["sync", "push"], "permission", 1);
    assert!(
        !err.to_string().contains(TOKEN),
        "the token is masked: {err}"
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("memory/knowledge/ghp_"),
        "{err}"
    );
    assert!(!err["hint"].as_str().unwrap().is_empty());
    assert_eq!(err["detail"]["files"][0]["where"], "path", "{err}");
    fails(&sb, &["sync", "now"], "permission", 1);
    assert_eq!(remote.main(), pushed, "the remote did not move");
    assert!(!odb_holds(&remote.repo(), TOKEN.as_bytes()));
    assert!(
        !odb_holds(&local_repo(&sb), TOKEN.as_bytes()),
        "no tree or commit message of sync.git holds it"
    );

    // A credential in a folder name is a credential in the path too.
    std::fs::remove_file(sb.home().join(&rel)).unwrap();
    let dir = sb.home().join(format!("plans/{TOKEN}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("x.json"), "{}\n").unwrap();
    fails(&sb, &["sync", "push"], "permission", 1);
    std::fs::remove_dir_all(&dir).unwrap();

    // Renamed: the push goes through.
    std::fs::write(
        sb.home().join("memory/knowledge/renamed.md"),
        "---\ntitle: x\n---\nharmless body\n",
    )
    .unwrap();
    assert_eq!(ok(&sb, &["sync", "push"])["pushed"], 1);
    assert!(!odb_holds(&remote.repo(), TOKEN.as_bytes()));
}

#[test]
fn a_credential_in_the_commit_author_is_never_committed() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    ok(&sb, &["sync", "now"]);
    let pushed = remote.main();
    // `ab` runs with HOME = the sandbox: this is git's global config.
    std::fs::write(
        sb.path().join(".gitconfig"),
        format!("[user]\n\tname = Ada\n\temail = {TOKEN}@example.com\n"),
    )
    .unwrap();
    note(&sb, "Seed", "first");
    let err = fails(&sb, &["sync", "now"], "permission", 1);
    assert!(!err.to_string().contains(TOKEN), "{err}");
    assert!(
        err["hint"].as_str().unwrap().contains("user.email"),
        "{err}"
    );
    assert_eq!(remote.main(), pushed);
    assert!(!odb_holds(&local_repo(&sb), TOKEN.as_bytes()));
    std::fs::write(
        sb.path().join(".gitconfig"),
        "[user]\n\tname = Ada\n\temail = ada@example.com\n",
    )
    .unwrap();
    assert_eq!(ok(&sb, &["sync", "now"])["push"]["pushed"], 1);
}

// ---------------------------------------------------------------- item 17

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut units: Vec<u16> = Vec::new();
    if bom {
        units.push(0xfeff);
    }
    units.extend(text.encode_utf16());
    for unit in units {
        if big_endian {
            out.extend(unit.to_be_bytes());
        } else {
            out.extend(unit.to_le_bytes());
        }
    }
    out
}

#[test]
fn a_utf16_secret_blocks_the_push() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    ok(&sb, &["sync", "now"]);
    let pushed = remote.main();
    let text = format!("notes 中文\nthe token is {TOKEN}\n");
    for (name, bytes) in [
        ("le-bom.txt", utf16(&text, false, true)),
        ("be-bom.txt", utf16(&text, true, true)),
        ("le.txt", utf16(&text, false, false)),
        ("be.txt", utf16(&text, true, false)),
        // Shifted by one byte: no decoder sees it aligned, a NUL-blind one does.
        ("odd.txt", {
            let mut b = vec![b'x'];
            b.extend(utf16(&text, false, false));
            b
        }),
    ] {
        let rel = format!("memory/knowledge/{name}");
        std::fs::write(sb.home().join(&rel), &bytes).unwrap();
        let err = fails(&sb, &["sync", "push"], "permission", 1);
        assert_eq!(err["detail"]["files"][0]["path"], rel, "{name}: {err}");
        assert!(!err.to_string().contains(TOKEN), "{err}");
        assert_eq!(remote.main(), pushed, "{name}");
        std::fs::remove_file(sb.home().join(&rel)).unwrap();
    }
    assert!(!odb_holds(&local_repo(&sb), &utf16(TOKEN, false, false)));
    // UTF-16 text without a secret syncs.
    std::fs::write(
        sb.home().join("memory/knowledge/plain16.txt"),
        utf16("just notes\n", false, true),
    )
    .unwrap();
    assert_eq!(ok(&sb, &["sync", "push"])["pushed"], 1);
}

// ---------------------------------------------------------------- item 6

const NEEDED: &[&str] = &[
    "index/",
    "locks/",
    "local/",
    "sync.git/",
    "*.lock",
    ".*.tmp",
];

/// Whether the project's own repository (around the home) ignores `rel`.
fn project_ignores(sb: &Sandbox, rel: &str) -> bool {
    let repo = git2::Repository::open(sb.path())
        .unwrap_or_else(|_| git2::Repository::init(sb.path()).unwrap());
    repo.is_path_ignored(Path::new(".agent").join(rel)).unwrap()
}

fn assert_project_ignores_the_home_state(sb: &Sandbox) {
    for rel in [
        "sync.git/HEAD",
        "index/search.db",
        "locks/sync.lock",
        "local/home-id",
        "memory/x.lock",
        "plans/.p.json.1.tmp",
    ] {
        assert!(
            project_ignores(sb, rel),
            "the project would stage .agent/{rel}: {:?}",
            std::fs::read_to_string(sb.home().join(".gitignore"))
        );
    }
    assert!(!project_ignores(sb, "memory/knowledge/x.md"));
}

#[test]
fn a_gitignore_emptied_by_the_remote_is_restored_and_pushed_back() {
    for hostile in [
        String::new(),
        "# nothing\n".to_string(),
        format!(
            "{}!sync.git/\n!index/\n!locks/\n!local/\n!*.lock\n!.*.tmp\n",
            NEEDED.join("\n") + "\n"
        ),
        " index/\nlocks/\t\n".to_string(),
    ] {
        let remote = Remote::new();
        let a = home_on(&remote);
        ok(&a, &["sync", "now"]);
        remote.plant(&[(".gitignore", hostile.as_bytes(), 0o100644)]);
        ok(&a, &["sync", "pull"]);
        assert_project_ignores_the_home_state(&a);
        // The restored lines are committed and go back to the remote.
        ok(&a, &["sync", "now"]);
        let text = String::from_utf8(remote.file(".gitignore").unwrap()).unwrap();
        for line in NEEDED {
            assert!(text.lines().any(|l| l == *line), "{line} in {text:?}");
        }
        assert_eq!(ok(&a, &["sync", "status"])["dirty"], serde_json::json!([]));
        // A second home taking the remote's history gets them too.
        let b = home_on(&remote);
        assert_project_ignores_the_home_state(&b);
    }
}

#[test]
fn a_gitignore_emptied_by_hand_is_restored_by_sync_and_init_and_doctor_says_so() {
    let remote = Remote::new();
    let a = home_on(&remote);
    let gitignore = a.home().join(".gitignore");
    std::fs::write(&gitignore, "index/\nlocks/\n").unwrap();
    let doctor = ok(&a, &["doctor"]);
    let check = doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "gitignore")
        .cloned()
        .unwrap();
    assert_eq!(check["ok"], false, "{check}");
    assert!(check.to_string().contains("sync.git/"), "{check}");
    ok(&a, &["sync", "now"]);
    assert_project_ignores_the_home_state(&a);

    std::fs::write(&gitignore, "my-own-line\n").unwrap();
    ab(&a, &["init"]).assert().success();
    let text = std::fs::read_to_string(&gitignore).unwrap();
    assert!(
        text.starts_with("my-own-line\n"),
        "the user's lines stay: {text}"
    );
    assert_project_ignores_the_home_state(&a);
    let doctor = ok(&a, &["doctor"]);
    assert!(
        doctor["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "gitignore" && c["ok"] == true),
        "{doctor}"
    );
    // A .gitignore that is not UTF-8 does not wedge the sync.
    std::fs::write(&gitignore, b"\xff\xfe junk\n").unwrap();
    ok(&a, &["sync", "now"]);
    assert_project_ignores_the_home_state(&a);
}

// ---------------------------------------------------------------- item 13

#[test]
fn a_remote_broken_mid_push_is_network() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    note(&sb, "Seed", "first");
    ok(&sb, &["sync", "now"]);
    note(&sb, "More", "second");
    // The remote's pack folder is gone (and a file stands in its place):
    // the fetch needs nothing from it, the push cannot write there.
    let pack = remote.path().join("objects/pack");
    std::fs::remove_dir_all(&pack).unwrap();
    std::fs::write(&pack, "not a folder").unwrap();
    let err = fails(&sb, &["sync", "push"], "network", 4);
    assert_eq!(err["detail"]["url"], remote.url(), "{err}");
    assert!(!err["hint"].as_str().unwrap().is_empty());
}

#[test]
fn damaged_state_files_in_sync_git_are_io_with_a_repair_hint() {
    for name in ["agentbox-pull.json", "agentbox-conflict.json"] {
        let remote = Remote::new();
        let sb = home_on(&remote);
        ok(&sb, &["sync", "now"]);
        let path = sb.home().join("sync.git").join(name);
        std::fs::write(&path, "{\"target\": tru").unwrap();
        for verb in ["now", "status"] {
            let err = fails(&sb, &["sync", verb], "io", 5);
            let hint = err["hint"].as_str().unwrap();
            assert!(hint.contains(name), "{verb} {name}: {err}");
        }
        let check = doctor_sync_check(&sb);
        assert_eq!(check["ok"], false, "{check}");
        assert!(check.to_string().contains(name), "{check}");
        // The repair the hint names works.
        std::fs::remove_file(&path).unwrap();
        ok(&sb, &["sync", "now"]);
    }
}

// ---------------------------------------------------------------- item 16

#[test]
fn a_file_url_with_percent_20_is_the_folder_with_a_space() {
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("my memory/memory.git");
    git2::Repository::init_bare(&bare).unwrap();
    let url = format!("file://{}", bare.display()).replace(' ', "%20");
    let sb = Sandbox::new();
    let data = ok(&sb, &["sync", "init", "--remote", &url]);
    assert_eq!(data["remote"], url);
    note(&sb, "Seed", "first");
    ok(&sb, &["sync", "now"]);
    let repo = git2::Repository::open_bare(&bare).unwrap();
    assert!(repo.refname_to_id("refs/heads/main").is_ok());
}

#[test]
fn a_plain_path_with_a_space_is_stored_encoded() {
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("my memory/memory.git");
    git2::Repository::init_bare(&bare).unwrap();
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    let data = ok(&sb, &["sync", "remote", "set", bare.to_str().unwrap()]);
    let want = format!("file://{}", bare.display()).replace(' ', "%20");
    assert_eq!(data["remote"], want);
    note(&sb, "Seed", "first");
    ok(&sb, &["sync", "now"]);
    let repo = git2::Repository::open_bare(&bare).unwrap();
    assert!(repo.refname_to_id("refs/heads/main").is_ok());
    // git itself reads the stored URL.
    let status = std::process::Command::new("git")
        .args(["ls-remote", &want])
        .env("HOME", sb.path())
        .output();
    if let Ok(out) = status {
        assert!(out.status.success(), "{out:?}");
    }
}

#[test]
fn a_symlinked_remote_path_is_stored_as_given_and_followed_at_each_sync() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.git");
    let two = dir.path().join("two.git");
    git2::Repository::init_bare(&one).unwrap();
    git2::Repository::init_bare(&two).unwrap();
    let link = dir.path().join("current.git");
    std::os::unix::fs::symlink(&one, &link).unwrap();
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    let data = ok(&sb, &["sync", "remote", "set", link.to_str().unwrap()]);
    assert_eq!(data["remote"], format!("file://{}", link.display()));
    note(&sb, "Seed", "first");
    ok(&sb, &["sync", "now"]);
    let main = |p: &Path| {
        git2::Repository::open_bare(p)
            .unwrap()
            .refname_to_id("refs/heads/main")
            .ok()
    };
    assert!(main(&one).is_some());
    assert!(main(&two).is_none());
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&two, &link).unwrap();
    ok(&sb, &["sync", "now"]);
    assert!(main(&two).is_some(), "the re-pointed link is followed");
    let (env, code) = envelope(&mut ab(&sb, &["sync", "remote", "--format", "json"]));
    assert_eq!(code, 0);
    assert_eq!(env["data"]["remote"], format!("file://{}", link.display()));
}
