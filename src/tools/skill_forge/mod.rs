//! `skill_forge` — skills in the Agent Skills format (SPEC §4,
//! docs/tools/skill_forge.md).
//!
//! A skill is a folder `skills/<name>/` of the home holding `SKILL.md` and
//! optional `scripts/`, `references/`, `assets/`. Every skill that enters the
//! home through `install` or `from-episode` is screened first
//! (`crate::screen`); the verdict is recorded against the skill's content
//! hash in `skills/.screening/<name>.json`, outside the skill's own files.

mod cli;
mod clone;
pub mod draft;
mod screening;
pub mod spec;
mod suggest;
mod yaml;

use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::{Folder, Home};
use crate::screen::{self, Screen, Verdict};
use crate::search::{self, Doc, Source};
use crate::tools::{Check, Tool};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const TOOL: Tool = Tool {
    layout: &[Folder {
        path: DIR,
        order: 20,
    }],
    search: &[SKILLS],
    // Installs being written (`skills/.staging/<name>.<pid>/`).
    never_synced: &["skills/.staging/"],
    doctor: &[check_skills],
    suggest: &[suggest::screening],
    ..Tool::derived::<cli::SkillForgeCli>("skill_forge", cli::run)
};

/// The kind name of a skill in search (`agentbox search --kind skill`).
pub const KIND: &str = "skill";
/// The skills folder of the home.
pub const DIR: &str = "skills";
/// Where screening records live (`skills/.screening/<name>.json`).
pub const RECORDS: &str = ".screening";
/// Where skills are assembled before they enter the home.
const STAGING: &str = ".staging";

const SKILLS: Source = Source {
    kind: KIND,
    dir: DIR,
    nested: true,
    accept: |name| name == spec::SKILL_FILE,
    extract: index_docs,
    lines: None,
    watched: true,
    growing: None,
    boost: 1.1,
};

/// A skill's status in `list` and `show`.
pub const UNSCREENED: &str = "unscreened";
pub const CHANGED: &str = "changed since screening";

/// `invalid_args` unless `name` is a valid skill name.
pub fn check_name(name: &str) -> Result<&str> {
    if spec::valid_name(name) {
        Ok(name)
    } else {
        Err(
            Error::invalid_args(format!("{:?} is not a valid skill name", name))
                .with_hint(spec::NAME_RULE)
                .with_detail("name", name),
        )
    }
}

/// The folder of the skill `name` (which need not exist).
pub fn skill_dir(home: &Home, name: &str) -> Result<PathBuf> {
    check_name(name)?;
    home.store.path(&[DIR, name])
}

/// The folder of an existing skill, else `not_found`.
pub fn existing(home: &Home, name: &str) -> Result<PathBuf> {
    let dir = skill_dir(home, name)?;
    if !dir.is_dir() {
        return Err(Error::not_found(format!("no skill '{name}'"))
            .with_hint("list the skills with `skill_forge list`")
            .with_detail("name", name));
    }
    Ok(dir)
}

fn record_path(home: &Home, name: &str) -> Result<PathBuf> {
    check_name(name)?;
    let path = home
        .store
        .root()
        .join(DIR)
        .join(RECORDS)
        .join(format!("{name}.json"));
    home.store.check_path(&path)?;
    Ok(path)
}

/// The screening record of a skill, if any.
pub fn record(home: &Home, name: &str) -> Result<Option<Value>> {
    let path = record_path(home, name)?;
    match home.store.read(&path)? {
        None => Ok(None),
        Some(text) => Ok(serde_json::from_str(&text).ok()),
    }
}

/// Records a screen of the skill `name` with the status it earned.
pub fn write_record(
    home: &Home,
    clock: &Clock,
    name: &str,
    screen: &Screen,
    status: &str,
) -> Result<()> {
    let path = record_path(home, name)?;
    if let Some(dir) = path.parent() {
        home.store.ensure_dir(dir)?;
    }
    let record = json!({
        "name": name,
        "status": status,
        "verdict": screen.verdict.as_str(),
        "content_hash": screen.content_hash,
        "findings": screen.findings.len(),
        "screened_at": clock.stamp(),
    });
    home.store.write_json(&path, &record)
}

/// The status a screen earns when recorded: `pass`, `warn-accepted` (a
/// `warn` the user accepted), or the verdict itself.
fn status_of(verdict: Verdict, accepted: bool) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Warn if accepted => "warn-accepted",
        other => other.as_str(),
    }
}

/// Whether a screened skill may enter the home: `fail` never
/// (`permission`, the findings in `detail`), `warn` only with
/// `accept_warnings`. Returns the status to record.
pub fn decide(screen: &Screen, accept_warnings: bool, what: &str) -> Result<&'static str> {
    let findings: Vec<Value> = screen
        .findings
        .iter()
        .map(screening::finding_json)
        .collect();
    match screen.verdict {
        Verdict::Pass => Ok(status_of(Verdict::Pass, false)),
        Verdict::Warn if accept_warnings => Ok(status_of(Verdict::Warn, true)),
        Verdict::Warn => Err(Error::new(
            ErrorType::Permission,
            format!(
                "the screen of {what} warns ({} finding(s)); not installed",
                screen.findings.len()
            ),
        )
        .with_hint("read the findings; if you trust the skill, retry with --accept-warnings")
        .with_detail("verdict", "warn")
        .with_detail("findings", findings)),
        Verdict::Fail => Err(Error::new(
            ErrorType::Permission,
            format!(
                "the screen of {what} fails ({} finding(s)); refused",
                screen.findings.len()
            ),
        )
        .with_hint(
            "the skill does something a skill must not; read the findings (there is no override)",
        )
        .with_detail("verdict", "fail")
        .with_detail("findings", findings)),
    }
}

/// Whether a text an agent will follow that is not a skill (a preference
/// or note proposal, persona text) may be written, by its screen: the same
/// rule as a skill's — `fail` is refused (permission, no override), `warn`
/// needs `accept_warnings`. `what` names the text in the message (`persona
/// 'ada'`), `refused` says what to do instead of writing it.
pub fn admit_text(screen: &Screen, accept_warnings: bool, what: &str, refused: &str) -> Result<()> {
    let findings: Vec<Value> = screen
        .findings
        .iter()
        .map(screening::finding_json)
        .collect();
    let n = screen.findings.len();
    match screen.verdict {
        Verdict::Pass => Ok(()),
        Verdict::Warn if accept_warnings => Ok(()),
        Verdict::Warn => Err(Error::new(
            ErrorType::Permission,
            format!("the screen of {what} warns ({n} finding(s)); nothing written"),
        )
        .with_hint("read the findings; if you trust the text, retry with --accept-warnings")
        .with_detail("verdict", "warn")
        .with_detail("findings", findings)),
        Verdict::Fail => Err(Error::new(
            ErrorType::Permission,
            format!("the screen of {what} fails ({n} finding(s)); nothing written"),
        )
        .with_hint(format!(
            "the text asks an agent to do what it must not; read the findings; {refused} (there is no override)"
        ))
        .with_detail("verdict", "fail")
        .with_detail("findings", findings)),
    }
}

/// The status a `screen` of a skill of the home records: `pass`; `warn`
/// becomes `warn-accepted` when accepted now, or when the very same content
/// was accepted before; otherwise the verdict.
pub fn screen_status(
    screen: &Screen,
    accept_warnings: bool,
    previous: Option<&Value>,
) -> &'static str {
    let kept = previous.is_some_and(|r| {
        r["status"] == "warn-accepted" && r["content_hash"] == screen.content_hash.as_str()
    });
    status_of(screen.verdict, accept_warnings || kept)
}

/// The status of a skill: its record's, `unscreened` without one, `changed
/// since screening` when its content hash moved on.
pub fn status(home: &Home, name: &str, dir: &Path) -> Result<String> {
    let Some(record) = record(home, name)? else {
        return Ok(UNSCREENED.to_string());
    };
    let hash = screen::content_hash(dir)?;
    Ok(status_for(Some(&record), &hash))
}

/// The status a skill whose files hash to `hash` has under `record`.
pub fn status_for(record: Option<&Value>, hash: &str) -> String {
    let Some(record) = record else {
        return UNSCREENED.to_string();
    };
    if record["content_hash"].as_str() != Some(hash) {
        return CHANGED.to_string();
    }
    record["status"].as_str().unwrap_or(UNSCREENED).to_string()
}

/// One skill of the home, as `list` shows it.
#[derive(Debug, Clone)]
pub struct Listed {
    pub name: String,
    pub description: String,
    pub status: String,
    /// The hash of its files now, and the one its screening record was
    /// given for (when there is a record).
    pub content_hash: Option<String>,
    pub screened_hash: Option<String>,
    /// Why SKILL.md does not parse, when it does not.
    pub problem: Option<String>,
}

/// Every skill folder of the home, by name.
pub fn names(home: &Home) -> Result<Vec<String>> {
    let dir = home.store.path(&[DIR])?;
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir() || t.is_symlink()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// Reads and parses a skill's SKILL.md.
pub fn read_doc(home: &Home, name: &str, dir: &Path) -> Result<spec::SkillDoc> {
    let path = dir.join(spec::SKILL_FILE);
    let file = format!("{name}/{}", spec::SKILL_FILE);
    // no link below the home, only a regular file (a fifo would wait for
    // a writer), at most the item cap
    home.store.check_path(&path)?;
    let bytes = read_plain_file(&path, &file, home.store.max_item_bytes())?.ok_or_else(|| {
        Error::not_found(format!("skill '{name}' has no SKILL.md"))
            .with_hint(format!("add {DIR}/{file}, or remove the folder"))
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        crate::store::not_utf8(&file, &e).with_hint(format!("save {DIR}/{file} as UTF-8"))
    })?;
    spec::parse(&text, &file).map_err(|f| {
        Error::invalid_args(format!("{}:{}: {}", f.file, f.line, f.message))
            .with_hint(format!("fix it, then run `skill_forge lint {name}`"))
            .with_detail("line", f.line)
    })
}

/// Every skill with its status.
pub fn list(home: &Home) -> Result<Vec<Listed>> {
    let mut out = Vec::new();
    for name in names(home)? {
        // One bad folder (a symlink, a credential-looking name, a broken
        // SKILL.md) is reported on its line, never hides the others.
        let listed = home.store.path(&[DIR, &name]).and_then(|dir| {
            let doc = read_doc(home, &name, &dir)?;
            if !spec::valid_name(&name) {
                return Ok((doc.description, UNSCREENED.to_string(), None, None));
            }
            let record = record(home, &name)?;
            let hash = screen::content_hash(&dir)?;
            let screened = record
                .as_ref()
                .and_then(|r| r["content_hash"].as_str())
                .map(str::to_string);
            let status = status_for(record.as_ref(), &hash);
            Ok((doc.description, status, Some(hash), screened))
        });
        out.push(match listed {
            Ok((description, status, content_hash, screened_hash)) => Listed {
                name,
                description,
                status,
                content_hash,
                screened_hash,
                problem: None,
            },
            Err(e) => Listed {
                name,
                description: String::new(),
                status: UNSCREENED.to_string(),
                content_hash: None,
                screened_hash: None,
                problem: Some(e.message),
            },
        });
    }
    Ok(out)
}

/// Where a skill is assembled before it enters the home.
fn staging_dir(home: &Home, name: &str) -> Result<PathBuf> {
    let path = home
        .store
        .root()
        .join(DIR)
        .join(STAGING)
        .join(format!("{name}.{}", std::process::id()));
    home.store.check_path(&path)?;
    Ok(path)
}

/// Removes the staging folders of processes that are gone (a killed
/// install leaves `skills/.staging/<name>.<pid>/`): best effort, never an
/// error. A folder of a live process (another install running now) stays.
fn sweep_staging(home: &Home) {
    let dir = home.store.root().join(DIR).join(STAGING);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.rsplit_once('.'))
            .and_then(|(_, pid)| pid.parse::<i32>().ok())
        else {
            continue;
        };
        if pid <= 0 || pid == std::process::id() as i32 {
            continue;
        }
        // SAFETY: kill(2) with signal 0 only checks that the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = home.store.remove_dir(&entry.path());
        }
    }
}

/// A skill folder being assembled: files go in, then `admit` screens it and
/// moves it into place, or it is removed.
#[derive(Debug)]
pub struct Staged<'h> {
    home: &'h Home,
    name: String,
    dir: PathBuf,
    done: bool,
}

impl<'h> Staged<'h> {
    /// Starts a new skill `name`; `conflict` when one exists.
    pub fn new(home: &'h Home, name: &str) -> Result<Staged<'h>> {
        let target = skill_dir(home, name)?;
        refuse_existing(&target, name)?;
        let dir = staging_dir(home, name)?;
        sweep_staging(home);
        home.store.remove_dir(&dir)?;
        home.store.ensure_dir(&dir)?;
        Ok(Staged {
            home,
            name: name.to_string(),
            dir,
            done: false,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes one file (a `/`-separated path relative to the skill).
    pub fn write(&self, rel: &str, bytes: &[u8], executable: bool) -> Result<()> {
        let mut path = self.dir.clone();
        let parts: Vec<&str> = rel.split('/').collect();
        for part in &parts {
            check_file_name(rel, part)?;
            path.push(part);
        }
        if let Some(parent) = path.parent() {
            self.home.store.ensure_dir(parent)?;
        }
        self.home.store.write_file(&path, bytes, executable)
    }

    /// Moves the folder into place without a screen (a scaffold: `unscreened`).
    pub fn commit(mut self) -> Result<PathBuf> {
        let target = self.place()?;
        reindex(self.home, &self.name, &target);
        Ok(target)
    }

    fn place(&mut self) -> Result<PathBuf> {
        stop_if_interrupted()?;
        let target = skill_dir(self.home, &self.name)?;
        refuse_existing(&target, &self.name)?;
        self.home.store.rename_new(&self.dir, &target)?;
        self.done = true;
        Ok(target)
    }

    /// Screens the assembled folder, decides, moves it into place and
    /// records the verdict. Refused: the folder is removed.
    pub fn admit(mut self, clock: &Clock, accept_warnings: bool) -> Result<(Screen, &'static str)> {
        let screen = screen::screen_dir(&self.dir, self.home.store.redactor())?;
        let status = decide(&screen, accept_warnings, &format!("skill '{}'", self.name))?;
        let target = self.place()?;
        let recorded = Screen {
            content_hash: screen::content_hash(&target)?,
            ..screen
        };
        write_record(self.home, clock, &self.name, &recorded, status)?;
        reindex(self.home, &self.name, &target);
        Ok((recorded, status))
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.home.store.remove_dir(&self.dir);
        }
    }
}

/// Ctrl-C once the staging folder has files in it (a write has landed, so
/// the signal handler lets the call go on): the copy stops between files and
/// before the move into place; the staged folder is removed on drop, so
/// nothing is installed, and the call reports `cancelled` (exit 130).
fn stop_if_interrupted() -> Result<()> {
    if crate::store::interrupt_requested() {
        return Err(Error::new(ErrorType::Cancelled, "interrupted")
            .with_hint("run the command again; nothing was installed"));
    }
    Ok(())
}

/// A file name inside a skill: dot files are fine, traversal, separators,
/// control characters and `.git` are not.
fn check_file_name(rel: &str, part: &str) -> Result<()> {
    let bad = part.is_empty()
        || part == "."
        || part == ".."
        || part.contains(['/', '\\'])
        || part.chars().any(char::is_control)
        || part.len() > 255
        || is_git_dir_name(part);
    if bad {
        return Err(Error::invalid_args(format!(
            "{rel:?} is not a plain file path inside a skill"
        ))
        .with_hint("rename the file: no '..', '.git', separators or control characters")
        .with_detail("path", rel));
    }
    Ok(())
}

fn refuse_existing(target: &Path, name: &str) -> Result<()> {
    if std::fs::symlink_metadata(target).is_ok() {
        return Err(Error::conflict(format!("skill '{name}' already exists"))
            .with_hint(format!(
                "pick another name with --name, or remove it first with `skill_forge rm {name}`"
            ))
            .with_detail("name", name));
    }
    Ok(())
}

/// What [`copy_tree`] copied.
#[derive(Debug)]
pub struct Copied {
    /// Files copied.
    pub files: usize,
    /// The `.git` entries left out (relative paths, sorted).
    pub dropped: Vec<String>,
}

/// Whether a file name is git's own folder (or a `.git` file pointing to
/// one). Compared without case, as git does on case-insensitive disks.
fn is_git_dir_name(name: &str) -> bool {
    name.eq_ignore_ascii_case(".git")
}

/// Copies every file below `src` into `staged`: symlinks, special files and
/// files over the item cap are refused (nothing is skipped silently). A
/// `.git` entry, at any depth, is left out and named in
/// [`Copied::dropped`], exactly as a git URL's `.git` is: its config could
/// run commands (`core.fsmonitor`) on the next `git status` in that folder.
pub fn copy_tree(staged: &Staged, src: &Path, max_bytes: u64) -> Result<Copied> {
    let mut copied = Copied {
        files: 0,
        dropped: Vec::new(),
    };
    let mut stack = vec![(src.to_path_buf(), String::new())];
    let mut progress = crate::output::progress_counter("copying the skill's files");
    while let Some((dir, prefix)) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| Error::io("read", &dir, &e))?;
        for entry in entries {
            stop_if_interrupted()?;
            let entry = entry.map_err(|e| Error::io("read", &dir, &e))?;
            let name = entry.file_name().into_string().map_err(|n| {
                Error::invalid_args(format!("{} is not a UTF-8 file name", n.to_string_lossy()))
            })?;
            let rel = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            if is_git_dir_name(&name) {
                copied.dropped.push(rel);
                continue;
            }
            let path = entry.path();
            let meta =
                std::fs::symlink_metadata(&path).map_err(|e| Error::io("read", &path, &e))?;
            if meta.file_type().is_symlink() {
                return Err(symlink_refused(&rel));
            }
            if meta.is_dir() {
                stack.push((path, rel));
            } else if meta.is_file() {
                crate::store::check_size(&rel, meta.len(), max_bytes)?;
                let bytes = read_plain_file(&path, &rel, max_bytes)?.ok_or_else(|| {
                    Error::not_found(format!("{rel} went away while it was copied"))
                        .with_hint("retry when nothing else changes the folder")
                        .with_detail("path", rel.clone())
                })?;
                staged.write(&rel, &bytes, is_executable(&meta))?;
                copied.files += 1;
                progress.inc(1);
            } else {
                return Err(not_regular(&rel));
            }
        }
    }
    copied.dropped.sort();
    Ok(copied)
}

fn symlink_refused(rel: &str) -> Error {
    Error::new(
        ErrorType::Permission,
        format!("{rel} is a symlink; a skill installs only real files and folders"),
    )
    .with_hint("replace the link with the file it points to, then retry")
    .with_detail("path", rel)
}

fn not_regular(rel: &str) -> Error {
    Error::invalid_args(format!("{rel} is not a regular file or folder"))
        .with_hint("a skill holds only regular files and folders; remove it")
        .with_detail("path", rel)
}

/// Reads a file of a skill that is not trusted yet (`rel` names it in
/// errors): never through a symlink (`permission`), only a regular file
/// (a fifo or a device is `invalid_args`), at most `max_bytes` whatever
/// size the file claims. `None` when it does not exist.
pub fn read_plain_file(path: &Path, rel: &str, max_bytes: u64) -> Result<Option<Vec<u8>>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = match std::fs::OpenOptions::new()
        .read(true)
        // O_NONBLOCK: opening a fifo must not wait for a writer
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(symlink_refused(rel)),
        Err(e) => return Err(Error::io("read", path, &e)),
    };
    let meta = file.metadata().map_err(|e| Error::io("read", path, &e))?;
    if !meta.is_file() {
        return Err(not_regular(rel));
    }
    crate::store::check_size(rel, meta.len(), max_bytes)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("read", path, &e))?;
    crate::store::check_size(rel, bytes.len() as u64, max_bytes)?;
    Ok(Some(bytes))
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

/// Removes a skill and its screening record.
pub fn remove(home: &Home, name: &str) -> Result<()> {
    let dir = existing(home, name)?;
    home.store.remove_dir(&dir)?;
    home.store.remove_file(&record_path(home, name)?)?;
    let rel = rel_path(name);
    search::index_update_or_warn(home, |index| index.remove_source(&rel));
    Ok(())
}

/// `skills/<name>/SKILL.md`, the index's source of a skill.
pub fn rel_path(name: &str) -> String {
    format!("{DIR}/{name}/{}", spec::SKILL_FILE)
}

/// Re-indexes one skill after a write (best effort, like every index update).
pub fn reindex(home: &Home, name: &str, dir: &Path) {
    let rel = rel_path(name);
    let docs = match home.store.read(&dir.join(spec::SKILL_FILE)) {
        Ok(Some(text)) => index_docs(home, &rel, &text).unwrap_or_default(),
        _ => Vec::new(),
    };
    search::index_update_or_warn(home, |index| index.replace_source(&rel, &docs));
}

/// The search extractor: one document per skill (title = name, body =
/// description + body, tags = [status]).
pub fn index_docs(home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    let Some(name) = rel
        .strip_prefix(&format!("{DIR}/"))
        .and_then(|r| r.strip_suffix(&format!("/{}", spec::SKILL_FILE)))
    else {
        return Ok(Vec::new());
    };
    check_name(name)?;
    let doc = spec::parse(text, rel)
        .map_err(|f| Error::invalid_args(format!("{}:{}: {}", f.file, f.line, f.message)))?;
    let dir = home.store.path(&[DIR, name])?;
    let status = status(home, name, &dir).unwrap_or_else(|_| UNSCREENED.to_string());
    let date = std::fs::metadata(dir.join(spec::SKILL_FILE))
        .and_then(|m| m.modified())
        .map(|t| crate::clock::Time::from_system(t).stamp())
        .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_string());
    Ok(vec![Doc {
        id: format!("skill:{name}"),
        kind: KIND,
        source: rel.to_string(),
        session: None,
        tags: vec![status],
        date,
        title: name.to_string(),
        body: format!("{}\n\n{}", doc.description, doc.body),
    }])
}

/// Doctor: every skill parses and none changed since its screening.
fn check_skills(home: &Home) -> Check {
    let name = "skills";
    let listed = match list(home) {
        Ok(listed) => listed,
        Err(e) => return Check::fail(name, e.message, "check the skills folder by hand"),
    };
    if let Some(bad) = listed.iter().find(|s| s.problem.is_some()) {
        return Check::fail(
            name,
            format!(
                "skill '{}' does not parse: {}",
                bad.name,
                bad.problem.as_deref().unwrap_or("")
            ),
            format!("skill_forge lint {}", bad.name),
        );
    }
    if let Some(changed) = listed.iter().find(|s| s.status == CHANGED) {
        return Check::fail(
            name,
            format!("skill '{}' changed since its screening", changed.name),
            format!("skill_forge screen {}", changed.name),
        );
    }
    Check::pass(name, format!("{} skill(s), all parse", listed.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::{Finding, Severity};

    fn screen(verdict: Verdict) -> Screen {
        Screen {
            verdict,
            content_hash: "sha256:x".into(),
            findings: vec![Finding {
                rule: "rce-pipe-to-shell",
                category: "remote_code_execution",
                severity: Severity::Fail,
                file: "SKILL.md".into(),
                line: 3,
                excerpt: "curl x | sh".into(),
                why: "runs remote code",
                source: None,
                sink: None,
            }],
        }
    }

    #[test]
    fn fail_is_refused_with_permission_and_findings() {
        for accept in [false, true] {
            let err = decide(&screen(Verdict::Fail), accept, "x").unwrap_err();
            assert_eq!(err.kind, ErrorType::Permission);
            assert_eq!(err.detail["findings"][0]["rule"], "rce-pipe-to-shell");
            assert_eq!(err.detail["findings"][0]["line"], 3);
        }
    }

    #[test]
    fn a_screen_keeps_an_accepted_warning_for_the_same_content_only() {
        let warn = screen(Verdict::Warn);
        assert_eq!(screen_status(&warn, false, None), "warn");
        assert_eq!(screen_status(&warn, true, None), "warn-accepted");
        let same = json!({"status": "warn-accepted", "content_hash": "sha256:x"});
        assert_eq!(screen_status(&warn, false, Some(&same)), "warn-accepted");
        let other = json!({"status": "warn-accepted", "content_hash": "sha256:y"});
        assert_eq!(screen_status(&warn, false, Some(&other)), "warn");
        assert_eq!(
            screen_status(&screen(Verdict::Fail), true, Some(&same)),
            "fail"
        );
        assert_eq!(screen_status(&screen(Verdict::Pass), false, None), "pass");
    }

    #[test]
    fn warn_needs_acceptance() {
        let err = decide(&screen(Verdict::Warn), false, "x").unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        assert!(err.hint.contains("--accept-warnings"));
        assert_eq!(
            decide(&screen(Verdict::Warn), true, "x").unwrap(),
            "warn-accepted"
        );
        assert_eq!(decide(&screen(Verdict::Pass), false, "x").unwrap(), "pass");
    }
}
