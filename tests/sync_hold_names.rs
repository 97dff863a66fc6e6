//! `sync` pulls of remote paths this home cannot hold as files: names that
//! are not UTF-8, hold a backslash or a control character, or are too long
//! for the file system once the temp-file or `.remote` suffix is added. Each
//! is held back (reported, `main` keeps the remote's version, a later push
//! never deletes it) and sync keeps going.

mod common;

use common::sync::{Remote, fails, home_on, note, ok};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Like `Remote::plant`, with raw (maybe not UTF-8) paths.
fn plant_raw(remote: &Remote, entries: &[(&[u8], &[u8], i32)]) {
    let repo = remote.repo();
    let parent = repo
        .refname_to_id("refs/heads/main")
        .ok()
        .map(|o| repo.find_commit(o).expect("commit"));
    let mut index = git2::Index::new().expect("index");
    if let Some(parent) = &parent {
        index.read_tree(&parent.tree().unwrap()).unwrap();
    }
    for (path, bytes, mode) in entries {
        let oid = repo.blob(bytes).expect("blob");
        let entry = git2::IndexEntry {
            ctime: git2::IndexTime::new(0, 0),
            mtime: git2::IndexTime::new(0, 0),
            dev: 0,
            ino: 0,
            mode: *mode as u32,
            uid: 0,
            gid: 0,
            file_size: 0,
            id: oid,
            flags: (path.len().min(0xfff)) as u16,
            flags_extended: 0,
            path: path.to_vec(),
        };
        index.add(&entry).expect("add entry");
    }
    let tree = repo.find_tree(index.write_tree_to(&repo).unwrap()).unwrap();
    let sig = git2::Signature::new("mallory", "m@x", &git2::Time::new(1_768_000_000, 0)).unwrap();
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    repo.commit(
        Some("refs/heads/main"),
        &sig,
        &sig,
        "planted",
        &tree,
        &parents,
    )
    .unwrap();
}

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
        plant_raw(&remote, &entries);
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

/// Item 2: a content conflict on a name too long for its `.remote` copy
/// (both homes made the file) is a conflict all the same: no copy, the
/// remote's version stays in sync.git, and sync goes on.
#[test]
fn a_content_conflict_on_a_long_name_is_a_conflict_not_an_io_error() {
    let remote = Remote::new();
    let a = home_on(&remote);
    let b = home_on(&remote);
    let mut name = "memory/knowledge/".to_string();
    name.push_str(&"m".repeat(247));
    name.push_str(".md");
    let path = |sb: &common::Sandbox| sb.home().join(&name);
    std::fs::write(path(&a), "---\ntitle: A\n---\nfrom a\n").unwrap();
    ok(&a, &["sync", "now"]);
    std::fs::write(path(&b), "---\ntitle: A\n---\nfrom b\n").unwrap();
    let err = fails(&b, &["sync", "now"], "conflict", 1);
    assert!(err.to_string().contains("mmmm"), "{err}");
    assert_eq!(
        std::fs::read_to_string(path(&b)).unwrap(),
        "---\ntitle: A\n---\nfrom b\n"
    );
    ok(&b, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
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
