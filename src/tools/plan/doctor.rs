//! The tool's line in `agentbox doctor`.

use super::storage::load_all;
use crate::home::Home;
use crate::tools::Check;

/// `doctor`'s line: every stored plan parses.
pub(super) fn doctor_plans(home: &Home) -> Check {
    match load_all(home) {
        Ok((plans, broken)) => match broken.into_iter().next() {
            Some(err) => Check::fail("plans", err.message, err.hint),
            None => Check::pass("plans", format!("{} plan file(s) parse", plans.len())),
        },
        Err(err) => Check::fail("plans", err.message, err.hint),
    }
}
