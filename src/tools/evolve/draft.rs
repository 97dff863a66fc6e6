//! Drafting skill proposals. (Placeholder on the run branch: the real
//! drafting — skill_forge's drafter and the screen — is written by the
//! proposals helper and replaces this file at merge.)

use super::SkillPayload;
use crate::clock::Clock;
use crate::error::Result;
use crate::home::Home;

/// Fills `payload.skill_md` and `payload.screen`; here it leaves the payload
/// as it is.
#[allow(clippy::type_complexity)] // the signature the proposals helper's drafter has
pub fn draft_skill(
    _home: &Home,
    _clock: &Clock,
    _payload: &mut SkillPayload,
    _model: Option<&mut dyn FnMut(&str) -> Result<String>>,
) -> Result<()> {
    Ok(())
}
