//! `evolve apply` and `evolve reject`. (Being written: issue 8.)

use super::cli::{ApplyArgs, RejectArgs};
use crate::error::{Error, Result};
use crate::output::Outcome;
use crate::tools::Ctx;

pub fn apply(_ctx: &Ctx, _args: &ApplyArgs) -> Result<Outcome> {
    Err(Error::invalid_args("evolve apply is being written"))
}

pub fn reject(_ctx: &Ctx, _args: &RejectArgs) -> Result<Outcome> {
    Err(Error::invalid_args("evolve reject is being written"))
}
