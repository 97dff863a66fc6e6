//! The sync tests' shared pieces: a bare `file://` remote and the
//! `agentbox` calls with git's own configuration kept out.

use super::{Sandbox, err_of, ok_data};
use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

/// A bare repository in a temp dir and its `file://` URL.
pub struct Remote {
    pub dir: tempfile::TempDir,
}

impl Remote {
    pub fn new() -> Remote {
        let dir = tempfile::tempdir().expect("tempdir");
        git2::Repository::init_bare(dir.path().join("memory.git")).expect("init bare");
        Remote { dir }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("memory.git")
    }

    pub fn url(&self) -> String {
        format!("file://{}", self.path().display())
    }

    pub fn repo(&self) -> git2::Repository {
        git2::Repository::open_bare(self.path()).expect("open remote")
    }

    pub fn main(&self) -> Option<git2::Oid> {
        self.repo().refname_to_id("refs/heads/main").ok()
    }

    /// The bytes of `path` in the remote's `main`, if it has it.
    pub fn file(&self, path: &str) -> Option<Vec<u8>> {
        let repo = self.repo();
        let tree = repo.find_commit(self.main()?).ok()?.tree().ok()?;
        let entry = tree.get_path(std::path::Path::new(path)).ok()?;
        let blob = repo.find_blob(entry.id()).ok()?;
        Some(blob.content().to_vec())
    }

    /// A hostile remote's commit, built by hand (paths as raw bytes, which
    /// need not be UTF-8): adds a commit on top of the remote's `main` whose tree is `main`'s
    /// plus `entries` (path, bytes, file mode), built by hand with git2.
    pub fn plant_raw(&self, entries: &[(&[u8], &[u8], i32)]) {
        let repo = self.repo();
        let parent = repo
            .refname_to_id("refs/heads/main")
            .ok()
            .map(|o| repo.find_commit(o).expect("commit"));
        let mut index = git2::Index::new().expect("index");
        if let Some(parent) = &parent {
            index
                .read_tree(&parent.tree().expect("tree"))
                .expect("read tree");
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
        let tree = repo
            .find_tree(index.write_tree_to(&repo).expect("write tree"))
            .expect("tree");
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        commit_planted(&repo, &tree, &parents);
    }

    /// A hostile remote's commit whose root tree adds, beside `main`'s
    /// files, a folder under each of `names` holding one file `f.md`:
    /// names git itself refuses (`..`, `.git`), so the tree is written
    /// straight into the object database (git2's index and tree builder
    /// would refuse them, as git's own commands do).
    pub fn plant_refused_names(&self, names: &[&str]) {
        let repo = self.repo();
        let parent = repo
            .find_commit(self.main().expect("main"))
            .expect("commit");
        let odb = repo.odb().expect("odb");
        let blob = repo.blob(b"planted\n").expect("blob");
        let mut inner = b"100644 f.md\0".to_vec();
        inner.extend_from_slice(blob.as_bytes());
        let folder = odb.write(git2::ObjectType::Tree, &inner).expect("tree");
        let root = parent.tree().expect("tree");
        let mut entries: Vec<(Vec<u8>, i32, git2::Oid)> = root
            .iter()
            .map(|e| (e.name_bytes().to_vec(), e.filemode(), e.id()))
            .collect();
        entries.extend(
            names
                .iter()
                .map(|n| (n.as_bytes().to_vec(), 0o40000, folder)),
        );
        // git's order: a folder's name sorts as if it ended in '/'.
        entries.sort_by_key(|(name, mode, _)| {
            let mut key = name.clone();
            if *mode == 0o40000 {
                key.push(b'/');
            }
            key
        });
        let mut bytes = Vec::new();
        for (name, mode, oid) in &entries {
            bytes.extend_from_slice(format!("{mode:o} ").as_bytes());
            bytes.extend_from_slice(name);
            bytes.push(0);
            bytes.extend_from_slice(oid.as_bytes());
        }
        let tree = odb.write(git2::ObjectType::Tree, &bytes).expect("tree");
        let tree = repo.find_tree(tree).expect("tree");
        commit_planted(&repo, &tree, &[&parent]);
    }

    /// [`Remote::plant_raw`] with UTF-8 paths.
    pub fn plant(&self, entries: &[(&str, &[u8], i32)]) {
        let raw: Vec<(&[u8], &[u8], i32)> = entries
            .iter()
            .map(|(path, bytes, mode)| (path.as_bytes(), *bytes, *mode))
            .collect();
        self.plant_raw(&raw);
    }
}

/// Moves the remote's `main` to a commit of `tree` by "mallory".
fn commit_planted(repo: &git2::Repository, tree: &git2::Tree, parents: &[&git2::Commit]) {
    let sig =
        git2::Signature::new("mallory", "m@x", &git2::Time::new(1_768_000_000, 0)).expect("sig");
    repo.commit(
        Some("refs/heads/main"),
        &sig,
        &sig,
        "planted",
        tree,
        parents,
    )
    .expect("commit");
}

/// `agentbox ARGS…` with git's own configuration kept out (HOME is the
/// sandbox, no system config): no credential helper or identity leaks in.
pub fn ab(sb: &Sandbox, args: &[&str]) -> Command {
    let mut cmd = sb.agentbox(args);
    cmd.env("HOME", sb.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("GIT_ASKPASS")
        .env_remove("AGENTBOX_SYNC_STALL_AFTER");
    cmd
}

pub fn ok(sb: &Sandbox, args: &[&str]) -> Value {
    let mut full = args.to_vec();
    full.extend(["--format", "json"]);
    ok_data(&mut ab(sb, &full))
}

pub fn fails(sb: &Sandbox, args: &[&str], kind: &str, code: i32) -> Value {
    let mut full = args.to_vec();
    full.extend(["--format", "json"]);
    err_of(&mut ab(sb, &full), kind, code)
}

/// A home with sync set up against `remote`.
pub fn home_on(remote: &Remote) -> Sandbox {
    let sb = Sandbox::new();
    ok(&sb, &["sync", "init", "--remote", &remote.url()]);
    sb
}

/// Adds a note; its slug.
pub fn note(sb: &Sandbox, title: &str, body: &str) -> String {
    let data = ok(sb, &["knowledge", "add", title, "--body", body]);
    data["slug"]
        .as_str()
        .or_else(|| data["note"]["slug"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no slug in {data}"))
}

/// The `sync` line of `agentbox doctor`.
pub fn doctor_sync_check(sb: &Sandbox) -> Value {
    let doctor = ok(sb, &["doctor"]);
    doctor["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "sync")
        .cloned()
        .expect("a sync check")
}

/// `agentbox sync VERB --format json` started in the background, stalling
/// for `stall_secs` after writing `after` files of its pull (the test hook).
pub fn spawn_stalled(
    sb: &Sandbox,
    verb: &str,
    after: u32,
    stall_secs: Option<u32>,
) -> std::process::Child {
    let mut cmd = sb.std_command(super::bin());
    cmd.args(["sync", verb, "--format", "json"])
        .env("HOME", sb.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("AGENTBOX_SYNC_STALL_AFTER", after.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    if let Some(secs) = stall_secs {
        cmd.env("AGENTBOX_SYNC_STALL_SECS", secs.to_string());
    }
    cmd.spawn().expect("spawn agentbox")
}

/// Starts a loopback server that prints its port on its first line of
/// stdout (the Python servers of the sync tests): the child and the port.
pub fn spawn_server(cmd: &mut std::process::Command) -> (std::process::Child, u16) {
    use std::io::BufRead;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line.trim().parse().expect("the server's port");
    (child, port)
}

/// Whether any object of a repository's database holds `needle`.
pub fn odb_holds(repo: &git2::Repository, needle: &[u8]) -> bool {
    let odb = repo.odb().unwrap();
    let mut ids = Vec::new();
    odb.foreach(|id| {
        ids.push(*id);
        true
    })
    .unwrap();
    ids.iter().any(|id| {
        odb.read(*id)
            .map(|o| o.data().windows(needle.len()).any(|w| w == needle))
            .unwrap_or(false)
    })
}
