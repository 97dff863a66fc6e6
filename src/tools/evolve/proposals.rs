//! Stored proposals: find, list, show. (Being written: issue 8.)

use super::cli::{ListArgs, ShowArgs};
use crate::error::{Error, Result};
use crate::output::Outcome;
use crate::tools::Ctx;

pub fn list(_ctx: &Ctx, _args: &ListArgs) -> Result<Outcome> {
    Err(Error::invalid_args("evolve list is being written"))
}

pub fn show(_ctx: &Ctx, _args: &ShowArgs) -> Result<Outcome> {
    Err(Error::invalid_args("evolve show is being written"))
}
