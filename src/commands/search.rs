//! `agentbox search`: one query over every kind the tools make searchable.

use crate::error::Result;
use crate::output::Outcome;
use crate::search::cli::{SearchArgs, render_hits};
use crate::search::{Index, kinds};
use crate::tools::{Ctx, Tool, parse_args};
use clap::builder::PossibleValuesParser;
use clap::{ArgMatches, Command, CommandFactory, Parser};

pub const COMMAND: Tool = Tool::new("search", command, run);

/// Search all memory at once: turns, notes, facts and whatever else the tools index
///
/// Search the one index over everything the tools make searchable (episode
/// turns, knowledge notes, profile facts, …), ranked by relevance (BM25) with
/// a little recency. Questions work as well as keywords: stop words are
/// dropped and documents that share more of the remaining words rank higher.
/// Each hit's score is its relevance relative to the best hit (1.00).
/// `track search` and `knowledge search` are the same search, narrowed to
/// one kind.
#[derive(Debug, Parser)]
#[command(
    name = "search",
    after_help = "Examples:\n  agentbox search \"how should I format Go code?\"\n  \
                  agentbox search deploy --kind note --kind fact\n  \
                  agentbox search kubectl --session ops --since 2026-01-01"
)]
struct Search {
    #[command(flatten)]
    args: SearchArgs,
    /// Only this kind (repeat for several; default: all)
    #[arg(long = "kind", value_name = "KIND")]
    kinds: Vec<String>,
}

/// The derived command, with `--kind`'s values taken from the installed
/// search sources (the tools' registry entries).
fn command() -> Command {
    Search::command().mut_arg("kinds", |a| {
        a.value_parser(PossibleValuesParser::new(kinds()))
    })
}

fn run(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let search = parse_args::<Search>(m)?;
    let query = search.args.to_query("agentbox search", search.kinds)?;
    let home = ctx.home()?;
    let found = Index::open(home)?.find(&query)?;
    Ok(render_hits(
        &query.text,
        &found,
        ctx.style,
        "Nothing matches",
        |_, _| {},
    ))
}
