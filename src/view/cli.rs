//! `agentbox view`'s command line: the clap definition (its doc comments
//! are the help) and `run`, which starts [`super::server::serve`].

use crate::error::Result;
use crate::output::{FormatChoice, Outcome};
use crate::tools::{Ctx, Tool};
use clap::ArgMatches;

pub const COMMAND: Tool = Tool::derived::<ViewArgs>("view", run);

/// See what your agent remembers and has learned, in the browser
///
/// Serves a local web app from this executable: an overview of the home,
/// the memory (sessions as timelines of turns, search, notes and profile
/// facts), what `evolve` learned (with Apply / Reject), the skills and
/// their screening, plans, the active persona and reminders. It listens on
/// 127.0.0.1 only and prints a URL holding a key made for this run: open
/// it (or pass --open); a request without the key, or from another site,
/// is refused. Ctrl-C stops it. With --format json the URL and key are
/// printed as an envelope, for scripts.
#[derive(Debug, clap::Parser)]
#[command(
    name = "view",
    after_help = "Examples:\n  agentbox view --open\n  agentbox view --port 7412\n  \
                  agentbox view --format json | jq -r .data.url"
)]
struct ViewArgs {
    /// Listen on this port (default: a free one)
    #[arg(long, value_name = "N", default_value_t = 0)]
    port: u16,
    /// Open the URL in the default browser
    #[arg(long)]
    open: bool,
}

fn run(ctx: &Ctx, matches: &ArgMatches) -> Result<Outcome> {
    let args = crate::tools::parse_args::<ViewArgs>(matches)?;
    let format = crate::output::resolve_format(
        matches
            .try_get_one::<FormatChoice>("format")
            .ok()
            .flatten()
            .copied(),
    )?;
    let home = ctx.home()?;
    super::server::serve(ctx, home, args.port, args.open, format)
}
