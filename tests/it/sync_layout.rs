//! `sync` and the home's own folders: a remote cannot turn a layout folder
//! (`plans`, `skills`, `memory/knowledge`, …) into a file, and a pull that
//! deletes the last file of a folder (a skill) leaves no empty folder behind.

use crate::common;

use common::sync::{Remote, home_on, ok};
use common::{Sandbox, envelope};
use serde_json::Value;

fn write(sb: &Sandbox, rel: &str, bytes: &[u8]) {
    let path = sb.home().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// `sync now`, whether it ends ok or on a conflict (never another error).
fn sync_now(sb: &Sandbox) -> Value {
    let (env, _code) = envelope(&mut common::sync::ab(
        sb,
        &["sync", "now", "--format", "json"],
    ));
    if env["ok"] != true {
        assert_eq!(env["error"]["type"], "conflict", "{env}");
    }
    env
}

fn doctor_check(sb: &Sandbox, name: &str) -> Value {
    let doctor = ok(sb, &["doctor"]);
    doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no {name} check in {doctor}"))
}

#[test]
fn a_remote_cannot_turn_a_layout_folder_into_a_file() {
    for layout in ["plans", "skills", "memory/knowledge", "memory"] {
        let remote = Remote::new();
        let evil = home_on(&remote);
        ok(&evil, &["sync", "now"]);
        let b = home_on(&remote);
        ok(&b, &["sync", "now"]);
        // The other home's folder becomes a file, pushed as such.
        std::fs::remove_dir_all(evil.home().join(layout)).unwrap();
        write(&evil, layout, b"evil\n");
        sync_now(&evil);
        assert!(
            remote.file(layout).is_some(),
            "{layout}: the remote should hold the file"
        );
        sync_now(&b);
        assert!(
            b.home().join(layout).is_dir(),
            "{layout}: the home's folder was replaced"
        );
        // Nothing is wedged: the next sync ends ok, and the tools work.
        ok(&b, &["sync", "now"]);
        ok(&b, &["plan", "list"]);
        ok(&b, &["knowledge", "list"]);
        ok(&b, &["skill_forge", "list"]);
        assert!(b.home().join(layout).is_dir(), "{layout}");
    }
}

#[test]
fn a_pulled_deletion_of_a_skill_leaves_no_empty_folder() {
    let remote = Remote::new();
    let a = home_on(&remote);
    write(
        &a,
        "skills/tidy/SKILL.md",
        b"---\nname: tidy\ndescription: Tidies up.\n---\nTidy.\n",
    );
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    ok(&b, &["sync", "now"]);
    assert!(b.home().join("skills/tidy/SKILL.md").is_file());
    std::fs::remove_dir_all(a.home().join("skills/tidy")).unwrap();
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert!(!b.home().join("skills/tidy").exists());
    assert!(b.home().join("skills").is_dir(), "the layout folder stays");
    assert_eq!(doctor_check(&b, "skills")["ok"], true);
}

#[test]
fn a_remote_gitignore_symlink_is_replaced_on_the_remote_by_the_restored_file() {
    let remote = Remote::new();
    let a = home_on(&remote);
    ok(&a, &["sync", "now"]);
    remote.plant(&[(".gitignore", b"/etc/passwd", 0o120000)]);
    let first = sync_now(&a);
    if first["ok"] != true {
        for copy in first["error"]["detail"]["copies"].as_array().unwrap() {
            let _ = std::fs::remove_file(a.home().join(copy.as_str().unwrap()));
        }
    }
    ok(&a, &["sync", "now"]);
    let repo = remote.repo();
    let tree = repo
        .find_commit(remote.main().unwrap())
        .unwrap()
        .tree()
        .unwrap();
    let entry = tree
        .get_name(".gitignore")
        .expect(".gitignore on the remote");
    assert_eq!(entry.filemode(), 0o100644, "still a link on the remote");
    let text = String::from_utf8(remote.file(".gitignore").unwrap()).unwrap();
    assert!(text.contains("sync.git/"), "{text}");
    assert!(a.home().join(".gitignore").is_file());
}
