//! `evolve run`: the run loop — lock, run folder, events, budgets, the
//! high-water mark, the miner and the model route. (Being written: issue 8.)

use super::cli::RunArgs;
use crate::error::{Error, Result};
use crate::output::Outcome;
use crate::tools::Ctx;

pub fn run(_ctx: &Ctx, _args: &RunArgs) -> Result<Outcome> {
    Err(Error::invalid_args("evolve run is being written"))
}
