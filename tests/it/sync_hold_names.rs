//! `sync` pulls of remote paths this home cannot hold as files: names that
//! are not UTF-8, hold a backslash or a control character, or are too long
//! for the file system once the temp-file or `.remote` suffix is added. Each
//! is held back (reported, `main` keeps the remote's version, a later push
//! never deletes it) and sync keeps going.

use crate::common;

use common::sync::{Remote, fails, home_on, note, ok};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Whether the remote's `main` holds the raw path.
fn remote_has(remote: &Remote, path: &[u8]) -> bool {
    let repo = remote.repo();
    let tree = repo
        .find_commit(remote.main().unwrap())
        .unwrap()
        .tree()
        .unwrap();
    tree.get_path(Path::new(OsStr::from_bytes(path))).is_ok()
}

fn long_name(len: usize) -> Vec<u8> {
    let mut name = b"memory/knowledge/".to_vec();
    name.extend(std::iter::repeat_n(b'n', len - 3));
    name.extend(b".md");
    name
}

/// Item 1 and 2: names this home cannot write, fast-forwarded and merged
/// with a change of this home: reported, never written, never deleted from
/// the remote by the next push, and sync keeps going.
#[test]
fn remote_names_the_home_cannot_hold_are_held_back_and_stay_on_the_remote() {
    let names: Vec<Vec<u8>> = vec![
        b"memory/knowledge/caf\xe9.md".to_vec(),
        b"memory/bad\xff/x.md".to_vec(),
        b"memory/knowledge/a\\b.md".to_vec(),
        b"memory/knowledge/new\nline.md".to_vec(),
        b"memory/knowledge/esc\x1b\x07.md".to_vec(),
        long_name(240),
        long_name(250),
        long_name(255),
        {
            let mut n = b"memory/".to_vec();
            n.extend(std::iter::repeat_n(b'd', 300));
            n.extend(b"/x.md");
            n
        },
    ];
    for merged in [false, true] {
        let remote = Remote::new();
        let a = home_on(&remote);
        note(&a, "First", "one");
        ok(&a, &["sync", "now"]);
        let b = home_on(&remote);
        let mut entries: Vec<(&[u8], &[u8], i32)> = names
            .iter()
            .map(|n| (n.as_slice(), &b"hostile\n"[..], 0o100644))
            .collect();
        entries.push((b"memory/knowledge/link\x1b", b"/etc/passwd", 0o120000));
        remote.plant_raw(&entries);
        if merged {
            note(&b, "Local", "two");
        }
        let err = fails(&b, &["sync", "now"], "conflict", 1);
        let text = err.to_string();
        for needle in [
            "caf", "bad", "a\\\\b", "new", "esc", "nnnnn", "ddddd", "link",
        ] {
            assert!(text.contains(needle), "{needle} not reported: {err}");
        }
        // Sync keeps going: a change of this home is pushed, and every
        // held name is still on the remote.
        note(&b, "Later", "three");
        ok(&b, &["sync", "now"]);
        ok(&b, &["sync", "now"]);
        for name in &names {
            assert!(
                remote_has(&remote, name),
                "{} gone from the remote",
                String::from_utf8_lossy(name)
            );
        }
        assert!(remote_has(&remote, b"memory/knowledge/link\x1b"));
        // The other home holds them back alike, once.
        fails(&a, &["sync", "now"], "conflict", 1);
        ok(&a, &["sync", "now"]);
        for name in &names {
            assert!(remote_has(&remote, name));
        }
        let st = ok(&b, &["sync", "status"]);
        assert_eq!(st["interrupted_pull"], false, "{st}");
    }
}

/// A name too long for other homes (both homes made the file) is never
/// pushed, so it cannot meet the other home's version in a conflict whose
/// `.remote` copy would be too long to write: each home keeps its own, is
/// warned, and sync goes on.
#[test]
fn a_long_name_made_in_two_homes_stays_in_each_home() {
    let remote = Remote::new();
    let a = home_on(&remote);
    let b = home_on(&remote);
    let mut name = "memory/knowledge/".to_string();
    name.push_str(&"m".repeat(247));
    name.push_str(".md");
    let path = |sb: &common::Sandbox| sb.home().join(&name);
    std::fs::write(path(&a), "---\ntitle: A\n---\nfrom a\n").unwrap();
    let data = common::sync::ab(&a, &["sync", "now", "--format", "json"])
        .output()
        .unwrap();
    let env: serde_json::Value = serde_json::from_slice(&data.stdout).unwrap();
    assert_eq!(env["ok"], true, "{env}");
    assert!(
        env["meta"]["warnings"].to_string().contains("mmmm"),
        "{env}"
    );
    std::fs::write(path(&b), "---\ntitle: A\n---\nfrom b\n").unwrap();
    ok(&b, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert!(remote.file(&name).is_none());
    assert_eq!(
        std::fs::read_to_string(path(&b)).unwrap(),
        "---\ntitle: A\n---\nfrom b\n"
    );
    assert_eq!(
        std::fs::read_to_string(path(&a)).unwrap(),
        "---\ntitle: A\n---\nfrom a\n"
    );
}

/// Item 3: the remote's side of a file/folder clash over
/// `limits.max_item_bytes` is never copied into the home (either way
/// round): the reason says how to see it in sync.git.
#[test]
fn a_clash_copy_over_the_item_limit_is_not_written() {
    let big = vec![b'x'; 3 * 1024 * 1024];
    for remote_has_the_file in [true, false] {
        let remote = Remote::new();
        let a = home_on(&remote);
        ok(&a, &["sync", "now"]);
        let b = home_on(&remote);
        let (local, planted, copy) = if remote_has_the_file {
            (
                "skills/tool2/SKILL.md",
                "skills/tool2",
                "skills/tool2.remote",
            )
        } else {
            (
                "skills/tool2",
                "skills/tool2/big.txt",
                "sync.remote/skills/tool2/big.txt",
            )
        };
        let path = b.home().join(local);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "---\nname: tool2\n---\nmine\n").unwrap();
        remote.plant(&[(planted, &big, 0o100644)]);
        let err = fails(&b, &["sync", "now"], "conflict", 1);
        assert!(
            !b.home().join(copy).exists(),
            "a 3 MB copy was written: {err}"
        );
        let reasons = err["detail"]["reasons"].to_string();
        assert!(
            reasons.contains("max_item_bytes") && reasons.contains("show"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "---\nname: tool2\n---\nmine\n"
        );
        // No copy to wait for: the next sync goes on with this home's side.
        ok(&b, &["sync", "now"]);
    }
}

/// A remote commit whose `.gitignore` is a folder holding `x`.
fn plant_gitignore_folder(remote: &Remote) {
    let repo = remote.repo();
    let parent = repo
        .find_commit(remote.main().expect("a main"))
        .expect("commit");
    let mut index = git2::Index::new().expect("index");
    index.read_tree(&parent.tree().unwrap()).unwrap();
    let _ = index.remove_path(Path::new(".gitignore"));
    let oid = repo.blob(b"!index/\n").unwrap();
    let entry = git2::IndexEntry {
        ctime: git2::IndexTime::new(0, 0),
        mtime: git2::IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode: 0o100644,
        uid: 0,
        gid: 0,
        file_size: 0,
        id: oid,
        flags: ".gitignore/x".len() as u16,
        flags_extended: 0,
        path: b".gitignore/x".to_vec(),
    };
    index.add(&entry).expect("add");
    let tree = repo.find_tree(index.write_tree_to(&repo).unwrap()).unwrap();
    let sig = git2::Signature::new("mallory", "m@x", &git2::Time::new(1_768_000_000, 0)).unwrap();
    repo.commit(
        Some("refs/heads/main"),
        &sig,
        &sig,
        "planted",
        &tree,
        &[&parent],
    )
    .unwrap();
}

fn gitignore_check(sb: &common::Sandbox) -> serde_json::Value {
    let doctor = ok(sb, &["doctor"]);
    doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "gitignore")
        .cloned()
        .unwrap()
}

/// Item 4: a remote that makes `.gitignore` a folder never gets it written:
/// the home keeps a regular `.gitignore` with the lines it needs, and the
/// next push repairs the remote.
#[test]
fn a_remote_gitignore_folder_is_never_written_and_the_file_comes_back() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    ok(&b, &["sync", "now"]);
    plant_gitignore_folder(&remote);
    ok(&b, &["sync", "now"]);
    // The remote's folder was never written (not even moved aside).
    assert!(!b.home().join("sync.remote/.gitignore").exists());
    assert!(!b.home().join(".gitignore/x").exists());
    ok(&b, &["sync", "now"]);
    let meta = std::fs::symlink_metadata(b.home().join(".gitignore")).unwrap();
    assert!(meta.is_file(), ".gitignore is no regular file");
    assert_eq!(gitignore_check(&b)["ok"], true);
    let pushed = remote
        .file(".gitignore")
        .expect("the remote's .gitignore is a file again");
    assert!(String::from_utf8_lossy(&pushed).contains("index/"));
}

/// Item 4: a home whose `.gitignore` a pull made a folder recovers with
/// `init` (and any sync verb): the folder's files move under sync.remote/,
/// the file comes back, doctor passes.
#[test]
fn a_gitignore_folder_in_the_home_is_moved_aside_by_init_and_sync() {
    for verb in ["init", "sync"] {
        let remote = Remote::new();
        let b = home_on(&remote);
        ok(&b, &["sync", "now"]);
        let gi = b.home().join(".gitignore");
        std::fs::remove_file(&gi).unwrap();
        std::fs::create_dir(&gi).unwrap();
        std::fs::write(gi.join("x"), "!index/\n").unwrap();
        assert_eq!(gitignore_check(&b)["ok"], false);
        if verb == "init" {
            ok(&b, &["init"]);
        } else {
            ok(&b, &["sync", "now"]);
        }
        assert!(std::fs::symlink_metadata(&gi).unwrap().is_file(), "{verb}");
        assert_eq!(gitignore_check(&b)["ok"], true, "{verb}");
        assert_eq!(
            std::fs::read_to_string(b.home().join("sync.remote/.gitignore/x")).unwrap(),
            "!index/\n",
            "{verb}"
        );
        ok(&b, &["sync", "now"]);
        assert!(remote.file(".gitignore").is_some(), "{verb}");
    }
}

/// Item 1, this home's side: a file whose name never syncs (not UTF-8, a
/// backslash, a tab) is named in a warning by `status` and `sync now`.
#[test]
fn a_local_file_whose_name_never_syncs_is_warned_about() {
    let remote = Remote::new();
    let b = home_on(&remote);
    ok(&b, &["sync", "now"]);
    let dir = b.home().join("memory/knowledge");
    for name in [&b"caf\xe9.md"[..], b"a\\b.md", b"tab\there.md"] {
        std::fs::write(dir.join(OsStr::from_bytes(name)), "x\n").unwrap();
    }
    // A name this home can write but others cannot (over 214 bytes).
    let long = format!("{}.md", "q".repeat(240));
    std::fs::write(dir.join(&long), "x\n").unwrap();
    for verb in ["status", "now"] {
        let out = common::sync::ab(&b, &["sync", verb, "--format", "json"])
            .output()
            .unwrap();
        let (env, _) = (
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(),
            (),
        );
        assert_eq!(env["ok"], true, "{env}");
        let warnings = env["meta"]["warnings"].to_string();
        for needle in [
            "caf\\\\xe9.md",
            "a\\\\\\\\b.md",
            "tab\\\\there.md",
            long.as_str(),
        ] {
            assert!(warnings.contains(needle), "{needle} not in {warnings}");
        }
    }
    assert!(
        remote.file(&format!("memory/knowledge/{long}")).is_none(),
        "a name other homes cannot write was pushed"
    );
}
