//! What `proactive scan` brings up about skills: skills never screened
//! (`unscreened_skill`) and skills changed since their screening
//! (`changed_skill`), each resolved by `skill_forge screen NAME`.

use super::{CHANGED, DIR, UNSCREENED, names, spec, status};
use crate::clock::Clock;
use crate::error::Result;
use crate::home::Home;
use crate::tools::Suggestion;

pub(super) fn screening(home: &Home, _clock: &Clock) -> Result<Vec<Suggestion>> {
    let mut out = Vec::new();
    for name in names(home)? {
        if !spec::valid_name(&name) {
            continue;
        }
        // A folder that cannot be hashed (a symlink, …) is doctor's to report.
        let Ok(status) = home
            .store
            .path(&[DIR, &name])
            .and_then(|dir| status(home, &name, &dir))
        else {
            continue;
        };
        let (kind, text) = match status.as_str() {
            UNSCREENED => (
                "unscreened_skill",
                format!("Skill '{name}' has never been screened"),
            ),
            CHANGED => (
                "changed_skill",
                format!("Skill '{name}' changed since its screening"),
            ),
            _ => continue,
        };
        out.push(Suggestion {
            kind: kind.to_string(),
            text,
            command: format!("skill_forge screen {name}"),
        });
    }
    Ok(out)
}
