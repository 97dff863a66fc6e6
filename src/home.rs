//! The agent home: where it is (resolution order of SPEC §3), what it holds,
//! and its config.

use crate::config::Config;
use crate::error::{Error, ErrorType, Result};
use crate::redact::Redactor;
use crate::store::Store;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folder name a project's home has.
pub const HOME_DIR_NAME: &str = ".agent";

/// A folder of the home's layout: `init` creates it, doctor checks it, a
/// pull never turns it into a file. The home declares its own
/// ([`HOME_FOLDERS`]); each tool declares those it keeps its files in
/// (`Tool::layout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folder {
    /// Relative to the home, `/`-separated.
    pub path: &'static str,
    /// Where it comes in the home's listing (`init`'s report, doctor's):
    /// ascending, ties in registry order. The home's own take 0 (`tools`)
    /// and 90 and up (`index`, `local`, `locks`); the tools' lie between.
    pub order: u8,
}

/// The folders of the home that belong to no tool: the tool links, the
/// search index, per-home state and the locks.
pub const HOME_FOLDERS: &[Folder] = &[
    Folder {
        path: "tools",
        order: 0,
    },
    Folder {
        path: "index",
        order: 90,
    },
    Folder {
        path: "local",
        order: 91,
    },
    Folder {
        path: "locks",
        order: 92,
    },
];

/// The home-relative paths that belong to no tool and never sync (a folder
/// ends in `/`): derived, transient or per-home state. The tools add their
/// own (`Tool::never_synced`).
///
/// `config.json` is per-home: its model route names a command this home
/// runs (`model.command`), its redaction patterns and limits shape every
/// write. A remote must not set those for every home that pulls.
pub const NEVER_SYNCED: &[&str] = &[
    "config.json",
    "sync.git/",
    "index/",
    "locks/",
    "tools/",
    "local/",
    "runs/",
];

/// The home's `.gitignore`: derived and transient files never reach a remote.
pub const GITIGNORE: &str = "# agentbox: derived, transient or per-home, never synced\nindex/\nlocks/\nlocal/\nsync.git/\n*.lock\n.*.tmp\n";

/// The lines of [`GITIGNORE`] a home needs (all but its comment): without
/// them a project repository around the home would stage `sync.git/`, the
/// search index, the locks or per-home files.
pub fn gitignore_needed() -> impl Iterator<Item = &'static str> {
    GITIGNORE
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The needed lines a `.gitignore` (its bytes, any encoding) lacks, in
/// [`GITIGNORE`]'s order. A needed line counts as present in git's own
/// spellings (`index/`, `/index/`, `index`, `/index`; trailing spaces and a
/// CR dropped as git drops them), and only when no `!` line follows it: a
/// later negation could re-include what it ignores.
pub fn gitignore_missing(bytes: &[u8]) -> Vec<&'static str> {
    let lines: Vec<&[u8]> = bytes
        .split(|b| *b == b'\n')
        .map(|l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            let end = l.iter().rposition(|b| *b != b' ').map_or(0, |i| i + 1);
            &l[..end]
        })
        .collect();
    gitignore_needed()
        .filter(|need| {
            let bare = need.trim_end_matches('/');
            let spellings = [
                need.to_string(),
                format!("/{need}"),
                bare.to_string(),
                format!("/{bare}"),
            ];
            let last = lines
                .iter()
                .rposition(|l| spellings.iter().any(|s| s.as_bytes() == *l));
            match last {
                None => true,
                Some(at) => lines[at + 1..].iter().any(|l| l.starts_with(b"!")),
            }
        })
        .collect()
}

/// Makes the home's `.gitignore` hold the lines it needs, whatever a remote
/// or a hand edit left: creates it when absent, else appends the missing
/// lines (the person's own lines stay). A `.gitignore` that is not a regular
/// file is left alone (doctor reports it), except a folder (a pull of an
/// older version wrote a remote's `.gitignore/x`): an empty one is removed,
/// one holding files moves to `sync.remote/.gitignore` (the never-synced
/// folder of the remote's side of a file/folder clash, see sync.md). The
/// lines added.
pub fn restore_gitignore(store: &Store) -> Result<Vec<&'static str>> {
    let path = store.root().join(".gitignore");
    let meta = std::fs::symlink_metadata(&path);
    if meta.as_ref().is_ok_and(|m| m.is_dir()) {
        move_gitignore_folder(store, &path)?;
    }
    let mut bytes = match std::fs::symlink_metadata(&path) {
        Err(_) => Vec::new(),
        Ok(meta) if meta.is_file() => {
            store.check_path(&path)?;
            std::fs::read(&path).map_err(|e| Error::io("read", &path, &e))?
        }
        Ok(_) => return Ok(Vec::new()),
    };
    let missing = gitignore_missing(&bytes);
    if missing.is_empty() {
        return Ok(missing);
    }
    if bytes.is_empty() {
        bytes.extend_from_slice(GITIGNORE.as_bytes());
    } else {
        if !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"# agentbox: restored, these never go into git\n");
        for line in &missing {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
    }
    // Capped like a pulled file, not at the item cap: a remote may have
    // sent a big one, and the sync must not wedge on it.
    store.write_pulled(&path, &bytes, false)?;
    store.sync_paths([path.as_path(), store.root()]);
    Ok(missing)
}

/// Moves a `.gitignore` folder out of the way: removed when it holds no
/// file, else renamed to `sync.remote/.gitignore` (`.gitignore-2`, … when
/// taken).
fn move_gitignore_folder(store: &Store, path: &Path) -> Result<()> {
    if holds_no_file(path) {
        store.remove_dir(path)?;
        return Ok(());
    }
    let aside = store.root().join("sync.remote");
    store.ensure_dir(&aside)?;
    let mut to = aside.join(".gitignore");
    let mut n = 1;
    while std::fs::symlink_metadata(&to).is_ok() {
        n += 1;
        to = aside.join(format!(".gitignore-{n}"));
    }
    store.rename_new(path, &to)
}

/// Whether a folder holds no file at any depth (only empty folders).
pub fn holds_no_file(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().all(|e| {
            std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_dir())
                && holds_no_file(&e.path())
        })
    })
}

/// What to consult when looking for the home, in order.
#[derive(Debug, Clone, Default)]
pub struct HomeLookup {
    /// `--home DIR`.
    pub flag: Option<PathBuf>,
    /// `AGENTBOX_HOME`.
    pub env: Option<PathBuf>,
    /// argv[0] when it is a path (`<H>/tools/<tool>`).
    pub invoked: Option<PathBuf>,
    /// The working directory.
    pub cwd: PathBuf,
}

impl HomeLookup {
    /// Resolves: `--home` › `AGENTBOX_HOME` › the home holding the invoked link
    /// › the nearest `.agent/` upward from the working directory.
    pub fn resolve(&self) -> Result<PathBuf> {
        if let Some(dir) = &self.flag {
            return explicit_home(&self.cwd.join(dir), "--home");
        }
        if let Some(dir) = &self.env {
            return explicit_home(&self.cwd.join(dir), "AGENTBOX_HOME");
        }
        if let Some(home) = self
            .invoked
            .as_deref()
            .and_then(|p| link_home(&self.cwd.join(p)))
        {
            return Ok(home);
        }
        if let Some(home) = nearest_home(&self.cwd) {
            return Ok(home);
        }
        Err(Error::not_found(format!(
            "no agent home found from {} upward",
            self.cwd.display()
        ))
        .with_hint("run `agentbox init` in your project, or pass --home DIR")
        .with_detail("cwd", self.cwd.display().to_string()))
    }
}

/// The nearest `.agent/` folder in `dir` or a folder above it: the home
/// a command run in `dir` uses when nothing names one.
pub fn nearest_home(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(HOME_DIR_NAME))
        .find(|candidate| candidate.is_dir())
}

/// The home above the project of the home `target` (`<project>/.agent`,
/// there or not yet): the one commands run in the project use when
/// `target` does not exist. `None` when `target` is not named `.agent`
/// (commands find it only through `--home` or `AGENTBOX_HOME`, so it hides
/// nothing) or no folder above the project holds a home. Looked up on the
/// physical path, as commands see their working directory.
pub fn home_above(target: &Path) -> Option<PathBuf> {
    if target.file_name() != Some(HOME_DIR_NAME.as_ref()) {
        return None;
    }
    let project = physical(target.parent()?);
    nearest_home(project.parent()?)
}

/// `path` with its longest existing part resolved (symlinks, `..`) and the
/// rest, which does not exist yet, kept as written.
fn physical(path: &Path) -> PathBuf {
    for existing in path.ancestors() {
        if let Ok(real) = existing.canonicalize() {
            let rest = path.strip_prefix(existing).unwrap_or(Path::new(""));
            return if rest.as_os_str().is_empty() {
                real
            } else {
                real.join(rest)
            };
        }
    }
    path.to_path_buf()
}

/// A home named by flag or environment. A project folder that holds `.agent/`
/// is accepted for the home inside it.
fn explicit_home(dir: &Path, source: &str) -> Result<PathBuf> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let nested = dir.join(HOME_DIR_NAME);
    if dir.join("config.json").is_file()
        || (dir.is_dir() && dir.file_name() == Some(HOME_DIR_NAME.as_ref()))
    {
        Ok(dir)
    } else if nested.is_dir() {
        Ok(nested)
    } else {
        let problem = if dir.is_dir() {
            "is not an agent home"
        } else {
            "does not exist"
        };
        Err(
            Error::not_found(format!("{} ({source}) {problem}", dir.display()))
                .with_hint(format!(
                    "create a home there with `agentbox init --home {}`",
                    dir.display()
                ))
                .with_detail("path", dir.display().to_string()),
        )
    }
}

impl HomeLookup {
    /// Where `agentbox init` creates the home: `[DIR]/.agent`, else the home
    /// named by `--home` or `AGENTBOX_HOME` (a path used as is), else `./.agent`.
    pub fn init_target(&self, dir: Option<&Path>) -> PathBuf {
        let named = |p: &Path| {
            let p = self.cwd.join(p);
            if p.file_name() == Some(HOME_DIR_NAME.as_ref()) {
                p
            } else {
                p.join(HOME_DIR_NAME)
            }
        };
        match (dir, &self.flag, &self.env) {
            (Some(dir), _, _) => named(dir),
            (None, Some(home), _) | (None, None, Some(home)) => self.cwd.join(home),
            (None, None, None) => self.cwd.join(HOME_DIR_NAME),
        }
    }
}

/// `<H>/tools/<tool>` → `<H>`, when `<H>` looks like a home.
fn link_home(invoked: &Path) -> Option<PathBuf> {
    let tools = invoked.parent()?;
    if tools.file_name()? != "tools" {
        return None;
    }
    let home = tools.parent()?;
    home.join("config.json")
        .is_file()
        .then(|| home.to_path_buf())
}

/// An opened home: its root, config and store.
#[derive(Debug, Clone)]
pub struct Home {
    pub root: PathBuf,
    pub config: Config,
    pub store: Store,
    warnings: Warnings,
    /// What the search index keeps between calls (`search::session`).
    session: SessionSlot,
}

/// What a layer above the home keeps with it between the calls of a
/// long-lived process: the search index's session (its kept connection
/// and memory_mcp's index writer thread). The home owns it, so it lives
/// and dies with the home, without the home naming the layer's types
/// (search sits above the home). [`Home::session`] gives it back to that
/// layer as its own type.
pub trait Session: std::any::Any + Send + Sync + Default {}

/// The home's [`Session`], made on first use. A copy of a home keeps
/// nothing: a clone starts without one (memory_mcp's index writer thread
/// works on a copy with a connection of its own).
#[derive(Default)]
struct SessionSlot(std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>);

impl Clone for SessionSlot {
    fn clone(&self) -> SessionSlot {
        SessionSlot::default()
    }
}

impl std::fmt::Debug for SessionSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionSlot")
    }
}

/// Warnings about work that succeeded only in part (a file saved whose search
/// index update failed), kept until the call's outcome takes them.
#[derive(Debug, Default)]
struct Warnings(Mutex<Vec<String>>);

impl Clone for Warnings {
    fn clone(&self) -> Warnings {
        Warnings(Mutex::new(self.list().clone()))
    }
}

impl Warnings {
    fn list(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Home {
    /// Opens the home at `root`: reads `config.json` (defaults when absent) and
    /// builds the redactor with the configured extra patterns.
    pub fn open(root: PathBuf) -> Result<Home> {
        let config_path = root.join("config.json");
        let config = match std::fs::read_to_string(&config_path) {
            Ok(text) => Config::parse(&text, &config_path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(e) => return Err(Error::io("read", &config_path, &e)),
        };
        let redactor = Redactor::new(&config.redaction.extra_patterns).map_err(|e| {
            Error::invalid_args(format!(
                "{}: redaction.extra_patterns[{}] is not a valid regex: {}",
                config_path.display(),
                e.index,
                e.message
            ))
            .with_hint("fix or remove the pattern in config.json")
            .with_detail("path", config_path.display().to_string())
            .with_detail("key", format!("redaction.extra_patterns[{}]", e.index))
        })?;
        let store = Store::new(root.clone(), redactor, config.limits.max_item_bytes);
        Ok(Home {
            root,
            config,
            store,
            warnings: Warnings::default(),
            session: SessionSlot::default(),
        })
    }

    /// Records a warning for the outcome of the current call.
    pub fn warn(&self, warning: impl Into<String>) {
        let warning = warning.into();
        let mut list = self.warnings.list();
        if !list.contains(&warning) {
            list.push(warning);
        }
    }

    /// Takes the warnings recorded since the last call (the CLI and the MCP
    /// server attach them to the call's outcome).
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.list())
    }

    /// The home's session of type `S`, made on first use. One type of
    /// session per home: only the search index keeps one.
    pub fn session<S: Session>(&self) -> &S {
        let kept = self.session.0.get_or_init(|| Box::new(S::default()));
        // Only this function fills the slot, and only the search index
        // calls it: a second type is a programming error.
        kept.downcast_ref::<S>()
            .expect("a home keeps one type of session")
    }

    /// The link for `tool` in this home.
    pub fn tool_link(&self, tool: &str) -> PathBuf {
        self.root.join("tools").join(tool)
    }
}

/// Where a home keeps its id, relative to the home (`local/` never syncs).
pub const HOME_ID_FILE: &str = "local/home-id";

/// The lock held while a home id is minted (the one episode ids are minted
/// under, so an id and the home id it carries are settled together).
pub const HOME_ID_LOCK: &str = "episode-ids";

/// The length of a home id.
pub const HOME_ID_LEN: usize = 6;

/// Whether `id` is a home id: six lowercase letters and digits, at least one
/// a letter (so an episode id's parts can tell it from a counter).
pub fn is_home_id(id: &str) -> bool {
    id.len() == HOME_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && id.bytes().any(|b| b.is_ascii_lowercase())
}

/// A fresh random home id: a letter, then five base32 characters (`a-z2-7`),
/// about 30 random bits ([`crate::ids`]: the system's, or `AGENTBOX_SEED`'s).
fn new_home_id() -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    const BASE32: &[u8] = b"abcdefghijklmnopqrstuvwxyz234567";
    let bytes = crate::ids::random_bytes::<HOME_ID_LEN>();
    let mut id = String::with_capacity(HOME_ID_LEN);
    id.push(LETTERS[usize::from(bytes[0]) % LETTERS.len()] as char);
    for b in &bytes[1..HOME_ID_LEN] {
        id.push(BASE32[usize::from(*b) % BASE32.len()] as char);
    }
    id
}

impl Home {
    /// This home's id (`local/home-id`), the part of new episode ids that
    /// keeps two homes from minting the same one; `None` before the home
    /// has minted any. A copied home keeps the id: removing the file gives
    /// it a new one.
    pub fn home_id(&self) -> Result<Option<String>> {
        let path = self.store.path(&["local", "home-id"])?;
        let Some(text) = self.store.read(&path)? else {
            return Ok(None);
        };
        let id = text.trim();
        if !is_home_id(id) {
            return Err(Error::invalid_args(format!(
                "{} is not a home id: expected {HOME_ID_LEN} lowercase letters and digits",
                path.display()
            ))
            .with_hint(format!(
                "remove {HOME_ID_FILE}: the home mints a new id the next time it needs one"
            ))
            .with_detail("path", path.display().to_string()));
        }
        Ok(Some(id.to_string()))
    }

    /// This home's id, minted and written to `local/home-id` under the
    /// `episode-ids` lock the first time it is needed. Callers must not hold
    /// that lock.
    pub fn mint_home_id(&self) -> Result<String> {
        if let Some(id) = self.home_id()? {
            return Ok(id);
        }
        let _lock = self.store.lock(HOME_ID_LOCK)?;
        if let Some(id) = self.home_id()? {
            return Ok(id);
        }
        let dir = self.store.path(&["local"])?;
        self.store.ensure_dir(&dir)?;
        let id = new_home_id();
        if !self
            .store
            .write_text_if_absent(&dir.join("home-id"), &format!("{id}\n"))?
            && let Some(found) = self.home_id()?
        {
            return Ok(found);
        }
        Ok(id)
    }
}

/// The running executable, as links should point at it.
pub fn current_exe() -> Result<PathBuf> {
    std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| {
            Error::new(
                ErrorType::Io,
                format!("cannot locate the running agentbox executable: {e}"),
            )
            .with_hint("run agentbox by its full path")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_ids_are_six_characters_with_a_letter() {
        for _ in 0..200 {
            let id = new_home_id();
            assert!(is_home_id(&id), "{id}");
            assert!(id.as_bytes()[0].is_ascii_lowercase(), "{id}");
        }
        assert!(is_home_id("k3f9q2"));
        assert!(is_home_id("0a1b2c"));
        for bad in ["123456", "k3f9q", "k3f9q22", "K3F9Q2", "k3-9q2", ""] {
            assert!(!is_home_id(bad), "{bad}");
        }
    }
}
