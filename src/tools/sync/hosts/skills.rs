//! Exporting the home's screened skills into the Agent Skills folders of the
//! hosts that read them. Only a skill whose screening record says `pass` or
//! `warn-accepted` for its current content hash leaves the home
//! (`skill_forge::status`, the same check `skill_forge list` shows).

use super::state::Skill;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::screen;
use crate::store;
use crate::tools::skill_forge;
use std::fs;
use std::path::{Path, PathBuf};

/// A skill of the home that may be exported.
#[derive(Debug, Clone)]
pub struct Exportable {
    pub name: String,
    pub dir: PathBuf,
    pub hash: String,
}

/// A skill that stays in the home, with its status (why).
pub type Held = (String, String);

/// The home's skills that may leave it, and the others with their status.
pub fn exportable(home: &Home) -> Result<(Vec<Exportable>, Vec<Held>)> {
    let mut ok = Vec::new();
    let mut held = Vec::new();
    for name in skill_forge::names(home)? {
        let checked = home.store.path(&[skill_forge::DIR, &name]).and_then(|dir| {
            let status = skill_forge::status(home, &name, &dir)?;
            Ok((dir, status))
        });
        match checked {
            Ok((dir, status)) if status == "pass" || status == "warn-accepted" => {
                // The record syncs, so a remote may have written it: the
                // skill is screened again here and must still earn it.
                let screen = screen::screen_dir(&dir, home.store.redactor())?;
                let earned = match screen.verdict {
                    screen::Verdict::Pass => true,
                    screen::Verdict::Warn => status == "warn-accepted",
                    screen::Verdict::Fail => false,
                };
                if earned {
                    ok.push(Exportable {
                        name,
                        dir,
                        hash: screen.content_hash,
                    });
                } else {
                    held.push((
                        name,
                        format!(
                            "{} here, though its record says {status}",
                            screen.verdict.as_str()
                        ),
                    ));
                }
            }
            Ok((_, status)) => held.push((name, status)),
            Err(e) => held.push((name, e.message)),
        }
    }
    Ok((ok, held))
}

/// The content hash of an exported folder, `None` when it is not there (or
/// is a symlink: agentbox never writes one, so it is not an export).
pub fn hash_of(dir: &Path) -> Option<String> {
    if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return None;
    }
    screen::content_hash(dir).ok()
}

/// What happened to one skill in one host's folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Exported,
    Updated,
    Unchanged,
    /// A folder of that name that agentbox did not write: left alone.
    Foreign,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Exported => "exported",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Foreign => "kept (not agentbox's)",
        }
    }
}

/// Exports `skill` into `root/<name>/` unless a folder there is someone
/// else's. `recorded` is what agentbox wrote there before, if anything.
/// Folders created for `root` are added to `created`.
pub fn export(
    skill: &Exportable,
    root: &Path,
    recorded: Option<&Skill>,
    created: &mut Vec<PathBuf>,
) -> Result<(Outcome, Skill)> {
    let target = root.join(&skill.name);
    let record = Skill {
        name: skill.name.clone(),
        path: target.clone(),
        hash: skill.hash.clone(),
    };
    let outcome = match hash_of(&target) {
        Some(current) if current == skill.hash => return Ok((Outcome::Unchanged, record)),
        Some(current) if recorded.is_some_and(|r| r.hash == current) => Outcome::Updated,
        Some(_) => return Ok((Outcome::Foreign, record)),
        None if fs::symlink_metadata(&target).is_ok() => return Ok((Outcome::Foreign, record)),
        None => Outcome::Exported,
    };
    for dir in store::ensure_external_dir(root)? {
        if !created.contains(&dir) {
            created.push(dir);
        }
    }
    let staging = root.join(format!(
        ".{}.agentbox-{}.tmp",
        skill.name,
        std::process::id()
    ));
    // Whatever is left there goes first; a link (planted under the
    // predictable name) is removed as a link, never copied into.
    match fs::symlink_metadata(&staging) {
        Ok(meta) if meta.is_dir() => {
            store::remove_external_dir(&staging)?;
        }
        Ok(_) => {
            store::remove_external_file(&staging)?;
        }
        Err(_) => {}
    }
    if let Err(e) = copy_tree(&skill.dir, &staging) {
        let _ = store::remove_external_dir(&staging);
        return Err(e);
    }
    if outcome == Outcome::Updated {
        store::remove_external_dir(&target)?;
    }
    store::rename_external(&staging, &target)?;
    Ok((outcome, record))
}

/// Removes an exported folder if it is still what agentbox wrote; false
/// (and the folder stays) when someone changed it.
pub fn remove(record: &Skill) -> Result<bool> {
    if fs::symlink_metadata(&record.path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Ok(false);
    }
    match hash_of(&record.path) {
        None => Ok(true),
        Some(current) if current == record.hash => {
            store::remove_external_dir(&record.path)?;
            Ok(true)
        }
        Some(_) => Ok(false),
    }
}

/// Copies a skill folder (regular files and folders only; the screen never
/// passes anything else worth following).
fn copy_tree(src: &Path, dst: &Path) -> Result<()> {
    store::ensure_external_dir(dst)?;
    let entries = fs::read_dir(src).map_err(|e| Error::io("read", src, &e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io("read", src, &e))?;
        let from = entry.path();
        let to = dst.join(entry.file_name());
        let meta = fs::symlink_metadata(&from).map_err(|e| Error::io("read", &from, &e))?;
        if meta.is_dir() {
            copy_tree(&from, &to)?;
        } else if meta.is_file() {
            let bytes = fs::read(&from).map_err(|e| Error::io("read", &from, &e))?;
            store::write_external(&to, &bytes, mode_for(&meta), false)?;
        } else {
            return Err(Error::invalid_args(format!(
                "{} is a symlink; a skill is exported as plain files",
                from.display()
            ))
            .with_hint("replace the link with the file, screen the skill again, then retry"));
        }
    }
    Ok(())
}

#[cfg(unix)]
fn mode_for(meta: &fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    if meta.permissions().mode() & 0o111 != 0 {
        0o755
    } else {
        0o644
    }
}

#[cfg(not(unix))]
fn mode_for(_meta: &fs::Metadata) -> u32 {
    0o644
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_link_planted_at_the_staging_name_is_not_copied_into() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("home-skill");
        fs::create_dir(&src).unwrap();
        fs::write(src.join("SKILL.md"), "---\nname: s\n---\nbody\n").unwrap();
        let skill = Exportable {
            name: "s".into(),
            dir: src.clone(),
            hash: screen::content_hash(&src).unwrap(),
        };
        let root = dir.path().join("skills");
        fs::create_dir(&root).unwrap();
        let outside = dir.path().join("outside");
        fs::create_dir(&outside).unwrap();
        let staging = root.join(format!(".s.agentbox-{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&outside, &staging).unwrap();
        let (outcome, _) = export(&skill, &root, None, &mut Vec::new()).unwrap();
        assert_eq!(outcome, Outcome::Exported);
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
        assert!(root.join("s/SKILL.md").is_file());
        assert!(fs::symlink_metadata(&staging).is_err());
    }
}
