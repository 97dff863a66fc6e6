//! `agentbox model`: the model route by hand — check the handshake with the
//! configured Oda runtime, or ask it one turn (docs/ODA.md).

use crate::error::{Error, Result};
use crate::home::Home;
use crate::oda::{CONFIG_EXAMPLE, Image, Route};
use crate::output::Outcome;
use crate::tools::{Ctx, Tool, parse_args};
use clap::{ArgMatches, Args, Parser, Subcommand};
use serde_json::json;
use std::path::PathBuf;

pub const COMMAND: Tool = Tool::derived::<ModelCli>("model", run);

/// Reach the model route (an Oda runtime): check the handshake or ask one turn
///
/// The route is the "model" block of the home's config.json: the runtime's
/// command, args and env, the provider and model, and optionally
/// reasoningEffort, maxTokens and timeout_seconds (default 120). The runtime
/// runs in the project folder and speaks the Oda SDK wire protocol on its
/// stdin and stdout; it is stopped after every call.
#[derive(Debug, Parser)]
#[command(
    name = "model",
    subcommand_required = true,
    after_help = "Examples:\n  agentbox model check\n  agentbox model ask \"Summarize README.md in one line\"\n  \
                  git diff | agentbox model ask - --format json | jq -r .data.text"
)]
struct ModelCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Check(CheckArgs),
    Ask(AskArgs),
}

/// Start the runtime, initialize the route, shut down: does the route work?
///
/// Prints the provider and model and what the runtime answered to initialize
/// (its identity and the resolved route). A provider without an adapter
/// fails here, as an upstream error with the runtime's message.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  agentbox model check\n  agentbox model check --format json | jq .data.runtime"
)]
struct CheckArgs {}

/// Ask one turn and print the answer
///
/// Sends the prompt (and any images) to a session, waits until the agent is
/// idle, and prints the last assistant message of that session (sub-agents'
/// messages never count). Progress (events, sub-agents) goes to stderr.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  agentbox model ask \"What does this project do?\"\n  \
                  agentbox model ask \"And its tests?\" --session ses_docs\n  \
                  agentbox model ask \"What is in this screenshot?\" --image shot.png\n  \
                  cat prompt.md | agentbox model ask -"
)]
struct AskArgs {
    /// The prompt ("-" reads it from stdin)
    #[arg(value_name = "TEXT|-")]
    text: String,
    /// Session to prompt (a new one when left out); reuse the sessionId of an earlier answer to continue it
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Attach an image: png, jpeg, webp or gif (repeat for more)
    #[arg(long = "image", value_name = "FILE")]
    images: Vec<PathBuf>,
}

fn run(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let cli = parse_args::<ModelCli>(m)?;
    let home = ctx.home()?;
    let route = route(home)?;
    match cli.verb {
        Verb::Check(CheckArgs {}) => check(ctx, &route),
        Verb::Ask(args) => ask(ctx, home, &route, args),
    }
}

/// The configured route, or `not_found` showing the block to add.
fn route(home: &Home) -> Result<Route> {
    Route::from_home(home)?.ok_or_else(|| {
        Error::not_found(format!(
            "no model route: {} has no \"model\" block",
            home.root.join("config.json").display()
        ))
        .with_hint(format!("add the route to config.json: {CONFIG_EXAMPLE}"))
        .with_detail("key", "model")
    })
}

fn check(ctx: &Ctx, route: &Route) -> Result<Outcome> {
    let runtime = route.check()?;
    let s = ctx.style;
    let identity = runtime
        .as_object()
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| v.as_str().map(|v| format!("{k} {v}")))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| runtime.to_string());
    let text = format!(
        "{} route {}/{} ({identity})\n",
        s.green("ok"),
        route.provider(),
        route.model()
    );
    Ok(Outcome::new(
        json!({"provider": route.provider(), "model": route.model(), "runtime": runtime}),
        text,
    ))
}

fn ask(ctx: &Ctx, home: &Home, route: &Route, args: AskArgs) -> Result<Outcome> {
    let images = args
        .images
        .iter()
        .map(|path| Image::from_file(path))
        .collect::<Result<Vec<_>>>()?;
    let prompt = if args.text == "-" {
        crate::tools::read_input("-", "prompt", home.config.limits.max_item_bytes)?.0
    } else {
        args.text
    };
    if prompt.trim().is_empty() {
        return Err(Error::invalid_args("the prompt is empty")
            .with_hint("pass the prompt as TEXT, or - to read it from stdin"));
    }
    let redactor = ctx.redactor();
    let quiet = ctx.quiet;
    let answer = route.ask(&prompt, &images, args.session.as_deref(), &mut |line| {
        if !quiet {
            crate::output::progress(redactor, "agentbox model", line)
        }
    })?;
    let data = json!({
        "text": answer.text,
        "sessionId": answer.session_id,
        "messageId": answer.message_id,
    });
    Ok(Outcome::new(data, answer.text))
}
