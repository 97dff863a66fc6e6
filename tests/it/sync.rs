//! `sync`: the git engine, driven through the real binary with temp homes,
//! a fixed clock and bare `file://` remotes made with git2.

use crate::common;

use common::sync::{
    Remote, ab, doctor_sync_check, fails, home_on, note, odb_holds, ok, spawn_stalled,
};
use common::{Sandbox, envelope, ok_data};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every synced file of a home (what must end byte-identical), by path.
fn synced_files(home: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).expect("read dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .replace('\\', "/");
            let never = ["sync.git", "index", "locks", "tools", "local", "runs"];
            if never.iter().any(|n| rel == *n)
                || rel.ends_with(".tmp")
                || rel.ends_with(".lock")
                || rel.ends_with(".remote")
            {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).expect("meta");
            if meta.is_dir() {
                walk(root, &path, out);
            } else if meta.is_file() {
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(home, home, &mut out);
    out
}

fn assert_same_files(a: &Sandbox, b: &Sandbox) {
    let (fa, fb) = (synced_files(&a.home()), synced_files(&b.home()));
    let (ka, kb): (Vec<_>, Vec<_>) = (fa.keys().collect(), fb.keys().collect());
    assert_eq!(ka, kb, "both homes hold the same synced files");
    for (rel, bytes) in &fa {
        assert!(
            fb[rel] == *bytes,
            "{rel} differs:\n--- A\n{}\n--- B\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&fb[rel])
        );
    }
}

#[test]
fn init_without_remote_then_remote_show_set_rm() {
    let sb = Sandbox::new();
    std::fs::write(sb.home().join(".gitignore"), "index/\nlocks/\n").unwrap();
    let data = ok(&sb, &["sync", "init"]);
    assert_eq!(data["remote"], Value::Null);
    assert_eq!(data["created"], true);
    assert!(data["commit"].is_string(), "the home was committed: {data}");
    assert!(sb.home().join("sync.git/HEAD").is_file());
    assert!(!sb.home().join(".git").exists(), "no .git in the home");
    let ignore = std::fs::read_to_string(sb.home().join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "sync.git/"), "{ignore}");
    let exclude = std::fs::read_to_string(sb.home().join("sync.git/info/exclude")).unwrap();
    assert!(exclude.contains("/index/") && exclude.contains("*.remote"));

    // A second init changes nothing and says so.
    let again = ok(&sb, &["sync", "init"]);
    assert_eq!(again["created"], false);
    assert_eq!(again["commit"], data["commit"]);

    assert_eq!(ok(&sb, &["sync", "remote"])["remote"], Value::Null);
    let remote = Remote::new();
    let set = ok(&sb, &["sync", "remote", "set", &remote.url()]);
    assert_eq!(set["remote"], remote.url());
    assert_eq!(ok(&sb, &["sync", "remote", "show"])["remote"], remote.url());
    // A plain path becomes a file:// URL.
    let plain = ok(
        &sb,
        &["sync", "remote", "set", remote.path().to_str().unwrap()],
    );
    assert!(
        plain["remote"].as_str().unwrap().starts_with("file:///"),
        "{plain}"
    );
    let rm = ok(&sb, &["sync", "remote", "rm"]);
    assert_eq!(rm["remote"], Value::Null);
    assert_eq!(ok(&sb, &["sync", "remote"])["remote"], Value::Null);
}

#[test]
fn bad_remote_urls_are_invalid_args_and_change_nothing() {
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    for (url, says) in [
        ("https://me:hunter2@example.com/x.git", "credential"),
        ("git@github.com:me/memory.git", "ssh"),
        ("ssh://git@github.com/me/memory.git", "ssh"),
        ("ftp://example.com/x.git", "scheme"),
        ("", "empty"),
    ] {
        let err = fails(&sb, &["sync", "remote", "set", url], "invalid_args", 2);
        let message = err["message"].as_str().unwrap();
        assert!(
            message.contains(says) || (says == "credential" && message.contains("password")),
            "{url}: {message}"
        );
        assert!(
            !message.contains("hunter2"),
            "the password is not echoed: {message}"
        );
        assert!(!err["hint"].as_str().unwrap().is_empty());
    }
    let err = fails(
        &sb,
        &[
            "sync",
            "init",
            "--remote",
            "https://me:hunter2@example.com/x.git",
        ],
        "invalid_args",
        2,
    );
    assert!(err["hint"].as_str().unwrap().contains("credential helper"));
    assert_eq!(ok(&sb, &["sync", "remote"])["remote"], Value::Null);
}

#[test]
fn not_set_up_and_no_remote_are_not_found() {
    let sb = Sandbox::new();
    let err = fails(&sb, &["sync", "status"], "not_found", 1);
    assert!(err["hint"].as_str().unwrap().contains("sync init"));
    fails(&sb, &["sync", "now"], "not_found", 1);
    ok(&sb, &["sync", "init"]);
    let err = fails(&sb, &["sync", "pull"], "not_found", 1);
    assert!(err["hint"].as_str().unwrap().contains("sync remote set"));
    fails(&sb, &["sync", "push"], "not_found", 1);
    // A file:// remote that does not exist.
    let gone = tempfile::tempdir().unwrap();
    let url = format!("file://{}/nothing.git", gone.path().display());
    ok(&sb, &["sync", "remote", "set", &url]);
    let err = fails(&sb, &["sync", "now"], "not_found", 1);
    assert_eq!(err["detail"]["url"], url);
}

#[test]
fn dead_remote_is_network_exit_4() {
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    ok(&sb, &["sync", "remote", "set", "https://127.0.0.1:9/x.git"]);
    let err = fails(&sb, &["sync", "now"], "network", 4);
    assert_eq!(err["detail"]["url"], "https://127.0.0.1:9/x.git");
    fails(&sb, &["sync", "pull"], "network", 4);
}

/// A loopback URL nothing listens on: a port the kernel handed out and
/// took back.
fn closed_port_url() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    format!("http://127.0.0.1:{port}/memory.git")
}

/// Issue #32: `sync init --remote URL` without the remote keeps what it set
/// up (sync.git, the remote, the commit), says so in the error, and a rerun
/// with the same remote tries the remote again without a second commit.
#[test]
fn init_with_an_unreachable_remote_says_what_is_set_up_and_what_remains() {
    let sb = Sandbox::new();
    let url = closed_port_url();
    let err = fails(&sb, &["sync", "init", "--remote", &url], "network", 4);
    assert_eq!(err["detail"]["url"], url.as_str());
    let set_up = &err["detail"]["set_up"];
    assert_eq!(set_up["remote"], url.as_str(), "{err}");
    assert_eq!(set_up["created"], true, "{err}");
    assert_eq!(
        set_up["git_dir"],
        sb.home().join("sync.git").display().to_string()
    );
    let commit = set_up["commit"].as_str().expect("the home was committed");
    assert_eq!(err["detail"]["next"], "agentbox sync now");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("is set up") && message.contains("not taken"),
        "{message}"
    );
    assert!(
        err["hint"]
            .as_str()
            .unwrap()
            .contains("`agentbox sync now`")
    );
    // What it says is so: the remote is set, the history holds the commit.
    assert_eq!(ok(&sb, &["sync", "remote"])["remote"], url.as_str());
    let status = ok(&sb, &["sync", "status"]);
    assert_eq!(status["dirty"], serde_json::json!([]));
    // Nothing was fetched: status says so rather than "as of the last fetch".
    assert_eq!(status["fetched"], false, "{status}");
    let text = sb
        .agentbox(&["sync", "status", "--format", "text"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.starts_with("1 commit not on origin") && text.contains("nothing fetched from it yet"),
        "{text}"
    );

    // A rerun with the same remote tries it again: same error, no new commit.
    let again = fails(&sb, &["sync", "init", "--remote", &url], "network", 4);
    assert_eq!(again["detail"]["set_up"]["created"], false, "{again}");
    assert_eq!(again["detail"]["set_up"]["commit"], commit);
    // Without --remote too: the remote is the one set.
    let bare = fails(&sb, &["sync", "init"], "network", 4);
    assert_eq!(bare["detail"]["set_up"]["remote"], url.as_str());

    // Another remote is refused and changes nothing; the hint says how.
    let other = Remote::new();
    let err = fails(
        &sb,
        &["sync", "init", "--remote", &other.url()],
        "conflict",
        1,
    );
    assert_eq!(err["detail"]["remote"], url.as_str());
    assert!(
        err["hint"]
            .as_str()
            .unwrap()
            .contains(&format!("`agentbox sync remote set {}`", other.url())),
        "{err}"
    );
    assert_eq!(ok(&sb, &["sync", "remote"])["remote"], url.as_str());
    // Doing what the hint says works.
    ok(&sb, &["sync", "remote", "set", &other.url()]);
    ok(&sb, &["sync", "now"]);
    assert!(other.main().is_some(), "the home reached the remote");
    assert_eq!(ok(&sb, &["sync", "status"])["fetched"], true);
}

/// The same through a `file://` remote that is not there yet: `not_found`
/// with what is set up, and once it exists the same command finishes.
#[test]
fn init_with_a_missing_file_remote_finishes_on_a_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.git");
    let url = format!("file://{}", path.display());
    let b = Sandbox::new();
    let slug = note(&b, "Deploys", "Deploys go through staging.");
    let err = fails(&b, &["sync", "init", "--remote", &url], "not_found", 1);
    assert_eq!(err["detail"]["set_up"]["remote"], url.as_str(), "{err}");
    assert!(err["detail"]["set_up"]["commit"].is_string(), "{err}");
    assert!(err["hint"].as_str().unwrap().contains("git init --bare"));
    // The remote appears, holding another home's note.
    git2::Repository::init_bare(&path).unwrap();
    let c = Sandbox::new();
    let theirs = note(&c, "Backups", "Backups run nightly.");
    ok(&c, &["sync", "init", "--remote", &url]);
    ok(&c, &["sync", "now"]);
    let data = ok(&b, &["sync", "init", "--remote", &url]);
    assert_eq!(data["created"], false);
    assert_eq!(data["remote"], url.as_str());
    assert_eq!(
        data["imported"],
        serde_json::json!([format!("memory/knowledge/{theirs}.md")])
    );
    ok(&b, &["sync", "now"]);
    let remote = git2::Repository::open_bare(&path).unwrap();
    let main = remote.refname_to_id("refs/heads/main").unwrap();
    let tree = remote.find_commit(main).unwrap().tree().unwrap();
    assert!(
        tree.get_path(Path::new(&format!("memory/knowledge/{slug}.md")))
            .is_ok(),
        "this home's note reached the remote"
    );
}

#[test]
fn status_lists_hand_edits_then_now_commits_and_pushes_them() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    let slug = note(&sb, "Go formatting", "Run gofmt.");
    let path = sb.home().join(format!("memory/knowledge/{slug}.md"));
    let status = ok(&sb, &["sync", "status"]);
    assert_eq!(
        status["dirty"],
        serde_json::json!([format!("memory/knowledge/{slug}.md")])
    );
    assert_eq!(status["last_sync"], common::NOW, "init --remote pulled");
    let now = ok(&sb, &["sync", "now"]);
    assert!(now["push"]["pushed"].as_u64().unwrap() >= 1, "{now}");
    assert_eq!(
        remote.main().map(|o| o.to_string()),
        now["push"]["commit"].as_str().map(str::to_string)
    );

    // A hand edit is picked up.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\nAlso run go vet.\n");
    std::fs::write(&path, text).unwrap();
    let status = ok(&sb, &["sync", "status"]);
    assert_eq!(status["dirty"].as_array().unwrap().len(), 1);
    assert_eq!(status["ahead"], 0);
    assert_eq!(status["last_sync"], common::NOW);
    let out = ab(&sb, &["sync", "status", "--format", "text"])
        .output()
        .unwrap();
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        shown.contains("1 file changed") && shown.contains(&slug),
        "{shown}"
    );
    let push = ok(&sb, &["sync", "push"]);
    assert_eq!(push["pushed"], 1);
    let status = ok(&sb, &["sync", "status"]);
    assert_eq!(status["dirty"], serde_json::json!([]));
    assert_eq!(
        (status["ahead"].clone(), status["behind"].clone()),
        (0.into(), 0.into())
    );
    // Nothing left: a second now pushes nothing.
    assert_eq!(ok(&sb, &["sync", "now"])["push"]["pushed"], 0);
}

#[test]
fn two_homes_converge_on_separate_files_and_search_finds_pulled_turns() {
    let remote = Remote::new();
    let a = home_on(&remote);
    let b = home_on(&remote);
    note(&a, "Alpha", "Deploys go through the staging cluster first.");
    ok(
        &a,
        &[
            "plan",
            "create",
            "Ship alpha",
            "--id",
            "ship-alpha",
            "--step",
            "build",
        ],
    );
    ok(
        &a,
        &[
            "track",
            "record",
            "--session",
            "ops",
            "--content",
            "the zebrafish service restarted",
        ],
    );
    note(&b, "Beta", "Backups run nightly at 02:00.");
    ok(
        &b,
        &[
            "plan",
            "create",
            "Ship beta",
            "--id",
            "ship-beta",
            "--step",
            "test",
        ],
    );

    ok(&a, &["sync", "now"]);
    let pulled = ok(&b, &["sync", "now"]);
    assert!(
        pulled["pull"]["merged"] == true,
        "B merged A's history: {pulled}"
    );
    assert!(
        pulled["pull"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f.as_str().unwrap().starts_with("memory/episodes/ops/")),
        "{pulled}"
    );
    ok(&a, &["sync", "now"]);
    assert_same_files(&a, &b);

    // B's search index knows A's turn and note without a reindex.
    let found = ok(&b, &["search", "zebrafish"]);
    assert!(
        found.to_string().contains("zebrafish service restarted"),
        "{found}"
    );
    let found = ok(&b, &["search", "staging cluster"]);
    assert!(found.to_string().contains("staging"), "{found}");
    // And A's knows B's.
    let found = ok(&a, &["search", "nightly backups"]);
    assert!(found.to_string().contains("nightly"), "{found}");

    // A deletion travels too.
    ok(&a, &["plan", "archive", "ship-alpha"]);
    std::fs::remove_file(a.home().join("memory/knowledge/beta.md")).unwrap();
    ok(&a, &["sync", "now"]);
    ok(&b, &["sync", "now"]);
    assert!(!b.home().join("memory/knowledge/beta.md").exists());
    assert_same_files(&a, &b);
}

/// Both homes write turns, facts, foresight and plans, in every order of
/// syncing; they end byte-identical with every record present once.
#[test]
fn two_homes_writing_the_same_files_converge_in_every_order() {
    for order in ["ABA", "BAB", "AB-interleaved"] {
        let remote = Remote::new();
        let a = home_on(&remote);
        let b = home_on(&remote);
        let write = |sb: &Sandbox, who: &str, n: usize| {
            ok(
                sb,
                &["track", "record", "--content", &format!("{who} turn {n}")],
            );
            ok(
                sb,
                &["knowledge", "profile", "add", &format!("{who} fact {n}.")],
            );
            ok(
                sb,
                &[
                    "proactive",
                    "add",
                    &format!("{who} reminder {n}"),
                    "--due",
                    "2026-01-16T17:00:00Z",
                ],
            );
            ok(
                sb,
                &[
                    "plan",
                    "create",
                    &format!("{who} plan {n}"),
                    "--step",
                    "one",
                ],
            );
        };
        write(&a, "alpha", 1);
        write(&b, "beta", 1);
        match order {
            "ABA" => {
                ok(&a, &["sync", "now"]);
                ok(&b, &["sync", "now"]);
                ok(&a, &["sync", "now"]);
            }
            "BAB" => {
                ok(&b, &["sync", "now"]);
                ok(&a, &["sync", "now"]);
                ok(&b, &["sync", "now"]);
            }
            _ => {
                ok(&a, &["sync", "push"]);
                write(&a, "alpha", 2);
                ok(&b, &["sync", "pull"]);
                write(&b, "beta", 2);
                ok(&b, &["sync", "now"]);
                ok(&a, &["sync", "now"]);
                ok(&b, &["sync", "now"]);
            }
        }
        assert_same_files(&a, &b);
        let files = synced_files(&a.home());
        let all: String = files
            .values()
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .collect();
        let rounds = if order == "AB-interleaved" { 2 } else { 1 };
        for who in ["alpha", "beta"] {
            for n in 1..=rounds {
                for what in ["turn", "fact", "reminder"] {
                    let needle = format!("{who} {what} {n}");
                    assert_eq!(all.matches(&needle).count(), 1, "{order}: {needle} once");
                }
            }
        }
    }
}

#[test]
fn conflicting_note_edits_stop_keep_both_and_resolve() {
    let remote = Remote::new();
    let a = home_on(&remote);
    let slug = note(&a, "Go formatting", "Run gofmt.");
    ok(&a, &["sync", "now"]);
    let b = home_on(&remote);
    let rel = format!("memory/knowledge/{slug}.md");
    assert!(b.home().join(&rel).is_file(), "B took A's note at init");
    ok(
        &a,
        &[
            "knowledge",
            "edit",
            &slug,
            "--expect-rev",
            "1",
            "--body",
            "Run gofmt -w .",
        ],
    );
    ok(&a, &["sync", "now"]);
    note(&b, "Unrelated", "Something else entirely.");
    ok(
        &b,
        &[
            "knowledge",
            "edit",
            &slug,
            "--expect-rev",
            "1",
            "--body",
            "Use goimports.",
        ],
    );
    let ours = std::fs::read(b.home().join(&rel)).unwrap();

    let err = fails(&b, &["sync", "now"], "conflict", 1);
    assert_eq!(err["detail"]["files"], serde_json::json!([rel]));
    assert!(err["detail"]["reasons"].as_array().unwrap().len() == 1);
    assert!(err["hint"].as_str().unwrap().contains(".remote"));
    // Both versions are kept, ours untouched, the remote's beside it.
    assert_eq!(std::fs::read(b.home().join(&rel)).unwrap(), ours);
    let copy = std::fs::read_to_string(b.home().join(format!("{rel}.remote"))).unwrap();
    assert!(copy.contains("gofmt -w"), "{copy}");
    // Every syncing verb stops with the same conflict; doctor reports it.
    fails(&b, &["sync", "push"], "conflict", 1);
    fails(&b, &["sync", "pull"], "conflict", 1);
    let check = doctor_sync_check(&b);
    assert_eq!(check["ok"], false, "{check}");
    let status = ok(&b, &["sync", "status"]);
    assert_eq!(status["conflict"], serde_json::json!([rel]));
    // The remote never saw the conflicted state.
    let before = remote.main();

    // Resolve: keep both lines, delete the .remote copy, sync.
    let resolved = String::from_utf8(ours)
        .unwrap()
        .replace("Use goimports.", "Use goimports, then gofmt -w .");
    std::fs::write(b.home().join(&rel), &resolved).unwrap();
    std::fs::remove_file(b.home().join(format!("{rel}.remote"))).unwrap();
    ok(&b, &["sync", "now"]);
    assert_ne!(remote.main(), before);
    assert_eq!(
        std::fs::read_to_string(b.home().join(&rel)).unwrap(),
        resolved
    );
    ok(&a, &["sync", "now"]);
    assert_eq!(
        std::fs::read_to_string(a.home().join(&rel)).unwrap(),
        resolved
    );
    assert_same_files(&a, &b);
    let check = doctor_sync_check(&b);
    assert_eq!(check["ok"], true, "{check}");
}

#[test]
fn a_planted_secret_blocks_the_push_and_never_reaches_the_remote() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    let slug = note(&sb, "Deploy", "Deploy with the CI token.");
    ok(&sb, &["sync", "now"]);
    let pushed = remote.main();
    let rel = format!("memory/knowledge/{slug}.md");
    let token = format!("ghp_{}", "a1B2c3D4e5".repeat(4).get(..36).unwrap());
    let path = sb.home().join(&rel);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!("token: {token}\n"));
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().count();

    let err = fails(&sb, &["sync", "push"], "permission", 1);
    let message = err["message"].as_str().unwrap();
    assert!(message.contains(&format!("{rel}:{line}")), "{message}");
    assert!(
        !err.to_string().contains(&token),
        "the token is masked: {err}"
    );
    assert_eq!(err["detail"]["files"][0]["path"], rel);
    assert_eq!(err["detail"]["files"][0]["line"], line);
    fails(&sb, &["sync", "now"], "permission", 1);

    assert_eq!(remote.main(), pushed, "the remote did not move");
    assert!(
        !odb_holds(&remote.repo(), token.as_bytes()),
        "no object on the remote holds it"
    );
    let local = git2::Repository::open_bare(sb.home().join("sync.git")).unwrap();
    assert!(
        !odb_holds(&local, token.as_bytes()),
        "nothing of it was even staged"
    );

    // Fixed by hand: the push goes through.
    std::fs::write(
        &path,
        text.replace(&format!("token: {token}\n"), "token: from the CI vault\n"),
    )
    .unwrap();
    assert_eq!(ok(&sb, &["sync", "push"])["pushed"], 1);
}

#[test]
fn a_pull_killed_mid_apply_is_reported_by_doctor_and_repaired_by_now() {
    let remote = Remote::new();
    let a = home_on(&remote);
    for n in 1..=4 {
        note(
            &a,
            &format!("Note {n}"),
            &format!("The quokka fact number {n}."),
        );
    }
    ok(
        &a,
        &[
            "track",
            "record",
            "--session",
            "ops",
            "--content",
            "the narwhal deploy finished",
        ],
    );
    ok(&a, &["sync", "now"]);

    let b = Sandbox::new();
    ok(&b, &["sync", "init"]);
    ok(&b, &["sync", "remote", "set", &remote.url()]);
    let journal = b.home().join("sync.git/agentbox-pull.json");
    let mut child = spawn_stalled(&b, "pull", 2, None);
    let notes = b.home().join("memory/knowledge");
    let count = || {
        std::fs::read_dir(&notes)
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .ends_with(".md")
                })
                .count()
            })
            .unwrap_or(0)
    };
    let start = Instant::now();
    while !(journal.exists() && count() >= 1) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the pull never started writing"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the pull ended before the stall"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Killed where the stall holds it: part-way through writing the files.
    common::wait_for("the pull to stall", Duration::from_secs(60), || {
        common::sleeping(child.id())
    });
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(journal.exists(), "killed mid-apply: the journal stays");
    assert!(count() < 4, "killed before all files were written");

    let check = doctor_sync_check(&b);
    assert_eq!(check["ok"], false, "{check}");
    assert!(check["hint"].as_str().unwrap().contains("sync now"));
    // status answers without finishing the pull, and says so.
    let status = ok(&b, &["sync", "status"]);
    assert_eq!(status["interrupted_pull"], true, "{status}");
    assert!(journal.exists(), "status does not finish the pull");

    ok(&b, &["sync", "now"]);
    assert!(!journal.exists());
    assert_eq!(ok(&b, &["sync", "status"])["interrupted_pull"], false);
    assert_eq!(count(), 4);
    assert_same_files(&a, &b);
    let found = ok(&b, &["search", "narwhal"]);
    assert!(
        found.to_string().contains("narwhal deploy finished"),
        "{found}"
    );
    let found = ok(&b, &["search", "quokka"]);
    assert!(found.to_string().contains("quokka"), "{found}");
    let check = doctor_sync_check(&b);
    assert_eq!(check["ok"], true, "{check}");
    assert_eq!(ok(&b, &["sync", "status"])["dirty"], serde_json::json!([]));
}

/// An agent writes a file while a pull is applying the remote's version of
/// it: nothing is lost, the two versions that cannot merge stay side by side.
#[test]
fn a_file_written_during_a_pull_is_kept_beside_the_incoming_one() {
    let remote = Remote::new();
    let a = home_on(&remote);
    std::fs::write(a.home().join("a1.txt"), "one\n").unwrap();
    std::fs::write(a.home().join("a2.txt"), "A's two\n").unwrap();
    ok(&a, &["sync", "now"]);

    let b = Sandbox::new();
    ok(&b, &["sync", "init"]);
    ok(&b, &["sync", "remote", "set", &remote.url()]);
    let child = spawn_stalled(&b, "pull", 1, Some(3));
    let start = Instant::now();
    while !b.home().join("a1.txt").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the pull never wrote a1.txt"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The pull stalls after its first file: an agent writes the second.
    std::fs::write(b.home().join("a2.txt"), "B's two\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let env: Value = serde_json::from_slice(&out.stdout).expect("one envelope");
    assert_eq!(env["error"]["type"], "conflict", "{env}");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        env["error"]["detail"]["files"],
        serde_json::json!(["a2.txt"])
    );
    assert_eq!(
        std::fs::read_to_string(b.home().join("a1.txt")).unwrap(),
        "one\n"
    );
    assert_eq!(
        std::fs::read_to_string(b.home().join("a2.txt")).unwrap(),
        "B's two\n"
    );
    assert_eq!(
        std::fs::read_to_string(b.home().join("a2.txt.remote")).unwrap(),
        "A's two\n"
    );
    assert!(!b.home().join("sync.git/agentbox-pull.json").exists());
    fails(&b, &["sync", "now"], "conflict", 1);

    std::fs::write(b.home().join("a2.txt"), "A's two\nB's two\n").unwrap();
    std::fs::remove_file(b.home().join("a2.txt.remote")).unwrap();
    ok(&b, &["sync", "now"]);
    ok(&a, &["sync", "now"]);
    assert_eq!(
        std::fs::read_to_string(a.home().join("a2.txt")).unwrap(),
        "A's two\nB's two\n"
    );
    assert_same_files(&a, &b);
}

/// The remote moves between a push's pull and its push (another home
/// pushed meanwhile): the push pulls again and retries.
#[test]
fn a_push_retries_when_the_remote_moved_meanwhile() {
    let remote = Remote::new();
    let a = home_on(&remote);
    note(&a, "First", "Pushed before B starts.");
    ok(&a, &["sync", "now"]);

    let b = Sandbox::new();
    ok(&b, &["sync", "init"]);
    ok(&b, &["sync", "remote", "set", &remote.url()]);
    note(&b, "From B", "B's own note.");
    let child = spawn_stalled(&b, "push", 1, Some(4));
    let start = Instant::now();
    while !b.home().join("memory/knowledge/first.md").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "B's pull never wrote A's note"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // B stalls mid-pull: A pushes again, so B's push will be rejected once.
    note(&a, "Second", "Pushed while B was pulling.");
    ok(&a, &["sync", "now"]);
    let out = child.wait_with_output().unwrap();
    let env: Value = serde_json::from_slice(&out.stdout).expect("one envelope");
    assert_eq!(env["ok"], true, "{env}");
    assert_eq!(env["data"]["retries"], 1, "{env}");
    assert!(b.home().join("memory/knowledge/second.md").is_file());
    ok(&a, &["sync", "now"]);
    assert!(a.home().join("memory/knowledge/from-b.md").is_file());
    assert_same_files(&a, &b);
}

#[test]
fn a_stale_git_index_lock_is_reported_and_removed() {
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    let lock = sb.home().join("sync.git/index.lock");
    std::fs::write(&lock, "").unwrap();
    let check = doctor_sync_check(&sb);
    assert_eq!(check["ok"], false, "{check}");
    note(&sb, "After the crash", "Still commits.");
    ok(&sb, &["sync", "status"]);
    assert!(!lock.exists());
}

#[test]
fn git_itself_reads_the_remote_agentbox_wrote() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    let slug = note(&sb, "Readable by git", "Plain files in a plain repository.");
    ok(&sb, &["track", "record", "--content", "a turn for git"]);
    ok(&sb, &["sync", "now"]);
    let out = tempfile::tempdir().unwrap();
    let clone = out.path().join("clone");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .env("HOME", out.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git is installed (CI has it)")
    };
    // (The bare remote's HEAD names git's default branch; agentbox pushes main.)
    let cloned = git(&[
        "clone",
        "-q",
        "-b",
        "main",
        &remote.url(),
        clone.to_str().unwrap(),
    ]);
    assert!(
        cloned.status.success(),
        "{}",
        String::from_utf8_lossy(&cloned.stderr)
    );
    assert!(clone.join(format!("memory/knowledge/{slug}.md")).is_file());
    assert!(
        !clone.join("config.json").exists(),
        "config.json is per-home: its model route names a command to run"
    );
    assert!(
        !clone.join("index").exists()
            && !clone.join("locks").exists()
            && !clone.join("tools").exists()
    );
    let fsck = git(&["-C", clone.to_str().unwrap(), "fsck", "--strict"]);
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stderr)
    );
    let fsck = git(&["-C", remote.path().to_str().unwrap(), "fsck", "--strict"]);
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stderr)
    );
    // The home's own history too (its objects are written as packs).
    let git_dir = format!("--git-dir={}", sb.home().join("sync.git").display());
    let fsck = git(&[&git_dir, "fsck", "--strict", "--no-dangling"]);
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stderr)
    );
    let log = git(&[&git_dir, "log", "--format=%s", "main"]);
    let log = String::from_utf8_lossy(&log.stdout).into_owned();
    assert!(log.starts_with("agentbox sync: "), "{log}");
    // A project repository around the home does not see the sync history.
    assert!(
        std::fs::read_to_string(sb.home().join(".gitignore"))
            .unwrap()
            .contains("sync.git/")
    );
}

/// A loopback HTTP server that answers every request with 401.
struct Unauthorized {
    child: std::process::Child,
    port: u16,
}

impl Unauthorized {
    fn start() -> Unauthorized {
        let script = r#"
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="memory"')
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_POST = do_GET
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
"#;
        let (child, port) =
            common::sync::spawn_server(std::process::Command::new("python3").args(["-c", script]));
        Unauthorized { child, port }
    }
}

impl Drop for Unauthorized {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn http_logins_missing_or_rejected_are_exit_3() {
    let server = Unauthorized::start();
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init"]);
    let url = format!("http://127.0.0.1:{}/memory.git", server.port);
    ok(&sb, &["sync", "remote", "set", &url]);
    let err = fails(&sb, &["sync", "pull"], "not_logged_in", 3);
    assert_eq!(err["detail"]["url"], url);
    assert!(err["hint"].as_str().unwrap().contains("credential helper"));

    let askpass = sb.path().join("askpass.sh");
    std::fs::write(&askpass, "#!/bin/sh\necho wrong\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&askpass, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (env, code) =
        envelope(ab(&sb, &["sync", "pull", "--format", "json"]).env("GIT_ASKPASS", &askpass));
    assert_eq!(env["error"]["type"], "auth", "{env}");
    assert_eq!(code, 3);
}

/// `proactive scan` brings up memory that has not reached the remote for a
/// day: nothing right after a sync, a line a day later while files wait.
#[test]
fn proactive_scan_brings_up_unsynced_memory_after_a_day() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    note(&sb, "Go formatting", "Run gofmt.");
    let scan = |now: &str| -> Vec<Value> {
        let mut cmd = ab(&sb, &["proactive", "scan", "--format", "json"]);
        cmd.env("AGENTBOX_NOW", now);
        ok_data(&mut cmd)["suggestions"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|s| s["kind"] == "unsynced")
            .collect()
    };
    assert!(scan(common::NOW).is_empty(), "synced minutes ago");
    let later = scan("2026-01-17T09:30:00Z");
    assert_eq!(later.len(), 1, "{later:?}");
    assert!(
        later[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("1 changed file(s)"),
        "{later:?}"
    );
    assert_eq!(later[0]["command"], "agentbox sync now");
    ok(&sb, &["sync", "now"]);
    assert!(
        scan("2026-01-17T09:30:00Z").is_empty(),
        "nothing waits after sync now"
    );
}

/// A pull journal that cannot be finished (here: it names no commit) stops
/// the verbs that finish it, but `status` still answers and says so.
#[test]
fn status_answers_when_an_interrupted_pull_cannot_be_finished() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    let journal = sb.home().join("sync.git/agentbox-pull.json");
    std::fs::write(
        &journal,
        r#"{"target":"not-a-commit","from":null,"files":[]}"#,
    )
    .unwrap();
    let status = ok(&sb, &["sync", "status"]);
    assert_eq!(status["interrupted_pull"], true, "{status}");
    let out = ab(&sb, &["sync", "status", "--format", "text"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("A pull was interrupted"),
        "{out:?}"
    );
    fails(&sb, &["sync", "now"], "internal", 5);
}

/// A rerun of `sync init --remote` with the same remote written another way
/// (a trailing slash, the scheme in capitals) is that remote, not another
/// one: it continues, and the remote stays as first set.
#[test]
fn init_again_with_the_same_remote_written_differently_continues() {
    let remote = Remote::new();
    let sb = home_on(&remote);
    let url = remote.url();
    for variant in [format!("{url}/"), url.replacen("file://", "FILE://", 1)] {
        let data = ok(&sb, &["sync", "init", "--remote", &variant]);
        assert_eq!(data["created"], false, "{variant}: {data}");
        assert_eq!(ok(&sb, &["sync", "remote"])["remote"], url.as_str());
    }
}

/// A server that accepts the connection and then never answers (a hung
/// proxy, a captive portal) makes `sync init --remote` fail as `network`
/// after the timeout, keeping its set-up, instead of hanging forever.
#[test]
fn init_with_a_remote_that_never_answers_times_out() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            held.push(conn);
        }
    });
    let sb = Sandbox::new();
    let url = format!("http://127.0.0.1:{port}/memory.git");
    let started = Instant::now();
    let mut cmd = ab(&sb, &["sync", "init", "--remote", &url]);
    cmd.env("AGENTBOX_SYNC_TIMEOUT_MS", "1000")
        .timeout(Duration::from_secs(20));
    let (err, code) = envelope(&mut cmd);
    assert_eq!(
        (err["error"]["type"].as_str(), code),
        (Some("network"), 4),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        err["error"]["detail"]["set_up"]["remote"],
        url.as_str(),
        "{err}"
    );
}
