//! The `track` command line: clap definitions, the verb dispatch and one
//! function per verb. Each verb calls the library (`super`), builds its `data`
//! and leaves the text to `render`.

use super::episodes::{self, EpisodeFile as Ep, SessionWriter};
use super::import;
use super::render;
use super::stamps;
use super::{DEFAULT_SESSION, MessageIn, ROLES, SaveTurns, flush, parse_messages, save_turns};
use crate::clock;
use crate::clock::Time;
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::search;
use crate::store::check_size;
use crate::tools::Ctx;
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Default `--limit` of `list`.
const DEFAULT_LIST: usize = 20;

/// An import stream may hold this many items' worth of bytes.
const IMPORT_ITEMS: u64 = 64;

/// Trajectories: record agent and user turns into episodes, per session.
///
/// Turns go to the open episode of a session (memory/episodes/<session>/); `flush`
/// closes it. Every saved turn is searchable as soon as the call returns.
#[derive(Debug, Parser)]
#[command(
    name = "track",
    subcommand_required = true,
    after_help = "Examples:\n  track record --content \"how do I format Go code?\"\n  \
                  track record --role assistant --content \"run gofmt -w .\" --flush\n  \
                  track search \"format go\"\n  track import odek-events.jsonl"
)]
pub(super) struct TrackCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Record(RecordArgs),
    Flush(FlushArgs),
    List(ListArgs),
    Show(ShowArgs),
    Search(SearchVerb),
    Stats(StatsArgs),
    Activity(ActivityArgs),
    Prune(PruneArgs),
    Import(ImportArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Role {
    User,
    Assistant,
    System,
    Tool,
}

impl Role {
    fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
            Role::Tool => "tool",
        }
    }
}

/// Record one turn (from flags), or a batch of messages (--messages).
///
/// --messages takes the seed's messages[] form: a JSON array of {role, content,
/// toolCalls, toolCallId, timestamp}, or an object {"sessionKey": "…",
/// "messages": […]}. A message's timestamp (RFC 3339, like
/// 2023-05-08T13:56:00Z or 2023-05-08T15:56:00+02:00) is when it was said; it
/// is stored in UTC, and without one the turn takes the time of the save.
/// Everything is validated before anything is written. Re-sending exactly the
/// session's last saved turn(s) saves nothing and reports duplicate.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track record --content \"deploy the site\"\n  \
                        track record --session s1 --role assistant --content-file answer.md\n  \
                        track record --role tool --tool-call-id call_1 --content \"3 files changed\"\n  \
                        track record --content \"I adopted a puppy\" --at 2023-05-08T13:56:00Z\n  \
                        cat turns.json | track record --messages - --flush"
)]
struct RecordArgs {
    /// Session key [default: default, or the sessionKey of --messages]
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
    /// Role of the turn [default: user]
    #[arg(long, value_enum, conflicts_with = "messages")]
    role: Option<Role>,
    /// The turn's text
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["content_file", "messages"])]
    content: Option<String>,
    /// Read the turn's text from a file ("-" for stdin)
    #[arg(long, value_name = "FILE", conflicts_with = "messages")]
    content_file: Option<String>,
    /// The tool call this turn answers (role tool)
    #[arg(long, value_name = "ID", conflicts_with = "messages")]
    tool_call_id: Option<String>,
    /// Read messages[] JSON from a file ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    messages: Option<String>,
    /// When the turn was said (RFC 3339) [default: now]; with --messages, the time of messages without a timestamp
    #[arg(long, value_name = "TIME")]
    at: Option<String>,
    /// Close the episode after saving
    #[arg(long)]
    flush: bool,
}

/// Close the open episode of a session (nothing open is fine).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  track flush\n  track flush --session s1 --format json")]
struct FlushArgs {
    /// Session key
    #[arg(long, value_name = "KEY", default_value = DEFAULT_SESSION)]
    session: String,
}

/// List episodes, newest first.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track list\n  track list --session s1 --limit 5 --format json\n  \
                  track list --limit 20 --offset 40"
)]
struct ListArgs {
    /// Only this session's episodes
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
    /// Show at most N episodes (0: all)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIST)]
    limit: usize,
    /// Skip the N newest episodes first (pages: --limit 20 --offset 40 is the third)
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
}

/// Show an episode's turns as a transcript.
///
/// Without an id: the open (else latest) episode of --session, or the newest episode.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track show ep-20260115T093000Z-k3f9q2-1\n  track show --session s1\n  \
                        track show --format json | jq '.data.turns[].content'"
)]
struct ShowArgs {
    /// Episode id (as `track list` prints it)
    #[arg(conflicts_with = "session")]
    id: Option<String>,
    /// This home's open (else the latest) episode of this session
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
}

/// Count sessions, episodes, turns by role and tool calls by name.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  track stats\n  track stats --session s1 --format json")]
struct StatsArgs {
    /// Only this session
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
}

/// Turns per day per session over the last days, from the search index.
///
/// Counts from the index's dense tables in one pass (milliseconds at a
/// million turns), never reading the episode files: what a chart of
/// activity needs. The busiest sessions come first; the rest are summed.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track activity\n  track activity --days 30 --sessions 5 --format json"
)]
struct ActivityArgs {
    /// How many days, ending today (UTC), 1-366
    #[arg(long, value_name = "N", default_value_t = 14, value_parser = clap::value_parser!(u16).range(1..=366))]
    days: u16,
    /// Show the N busiest sessions of the window, sum the rest, 1-100
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=100))]
    sessions: u16,
}

/// Delete closed episodes whose last turn is older than a cutoff.
///
/// Open episodes are never pruned. Removed turns leave the search index too.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  track prune --older-than 30d --dry-run\n  \
                        track prune --older-than 2w\n  track prune --older-than 2026-01-01T00:00:00Z")]
struct PruneArgs {
    /// A duration back from now (90m, 12h, 30d, 2w) or a date/time (2026-01-01, RFC 3339)
    #[arg(long, value_name = "AGE|DATE")]
    older_than: String,
    /// Only this session
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
    /// Report what would be removed, remove nothing
    #[arg(long)]
    dry_run: bool,
}

/// Import an odek.event/v1 JSONL stream: one closed episode per run.
///
/// Tool calls are paired by call_id (never by position); durations, error
/// classes and budget stops are kept; unknown types and fields are ignored. A
/// malformed line fails the import and nothing is written. A run already
/// imported into the session is skipped.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  track import run-events.jsonl\n  \
                        odek run --events-jsonl /dev/stdout … | track import - --session ci")]
struct ImportArgs {
    /// The event stream ("-" for stdin)
    file: String,
    /// Store every run in this session [default: the stream's session_id, else odek-<run id prefix>]
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
}

pub fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let cli = crate::tools::parse_args::<TrackCli>(matches)?;
    let home = ctx.home()?;
    match cli.verb {
        Verb::Record(args) => record(ctx, home, args),
        Verb::Flush(args) => flush_verb(ctx, home, args),
        Verb::List(args) => list(ctx, home, args),
        Verb::Show(args) => show(ctx, home, args),
        Verb::Search(args) => search_verb(ctx, home, args),
        Verb::Stats(args) => stats(ctx, home, args),
        Verb::Activity(args) => activity(ctx, home, args),
        Verb::Prune(args) => prune(ctx, home, args),
        Verb::Import(args) => import_verb(ctx, home, args),
    }
}

fn record(ctx: &Ctx, home: &Home, args: RecordArgs) -> Result<Outcome> {
    let cap = home.store.max_item_bytes();
    let at = args
        .at
        .as_deref()
        .map(|text| {
            stamps::parse(text)
                .and_then(|at| stamps::check_not_future(at, ctx.clock.now()).map(|()| at))
                .map_err(|r| r.error("--at", text).with_detail("flag", "--at"))
        })
        .transpose()?;
    let (mut messages, file_session) = if let Some(file) = &args.messages {
        let (text, name) = crate::tools::read_input(file, "messages file", cap)?;
        let value: Value = serde_json::from_str(strip_bom(&text)).map_err(|e| {
            Error::invalid_args(format!("{name} is not valid JSON: {e}"))
                .with_hint("--messages takes a JSON array of messages, or {\"messages\": […]}")
                .with_detail("path", name.clone())
                .with_detail("line", e.line())
                .with_detail("column", e.column())
        })?;
        let session = match value.get("sessionKey") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                return Err(
                    Error::invalid_args(format!("{name}: sessionKey is not a string"))
                        .with_hint("sessionKey names the session, like \"default\"")
                        .with_detail("field", "sessionKey"),
                );
            }
        };
        (parse_messages(&value)?, session)
    } else {
        let content = match (&args.content, &args.content_file) {
            (Some(text), _) => text.clone(),
            (None, Some(file)) => {
                strip_bom(&crate::tools::read_input(file, "content file", cap)?.0).to_string()
            }
            (None, None) => {
                return Err(Error::invalid_args("nothing to record")
                    .with_hint("pass --content TEXT, --content-file FILE, or --messages FILE")
                    .with_detail("missing", vec!["--content"]));
            }
        };
        let message = MessageIn {
            role: args.role.unwrap_or(Role::User).as_str().to_string(),
            content,
            tool_calls: Vec::new(),
            tool_call_id: args.tool_call_id.clone().filter(|id| !id.is_empty()),
            timestamp: None,
        };
        if message.content.trim().is_empty() {
            return Err(Error::invalid_args("the turn's content is empty")
                .with_hint("give the turn some text")
                .with_detail("flag", "--content"));
        }
        if let Some(id) = &message.tool_call_id
            && id.chars().any(char::is_control)
        {
            return Err(
                Error::invalid_args("--tool-call-id contains a control character")
                    .with_detail("flag", "--tool-call-id"),
            );
        }
        (vec![message], None)
    };
    // --at dates what has no time of its own: the one turn given by flags,
    // or the messages of a batch without a `timestamp` (an export that dates
    // whole sessions, not messages, needs no rewriting).
    for message in &mut messages {
        message.timestamp = message.timestamp.or(at);
    }
    let session = args
        .session
        .or(file_session)
        .unwrap_or_else(|| DEFAULT_SESSION.to_string());
    let outcome = save_turns(
        home,
        &ctx.clock,
        &SaveTurns {
            session: session.clone(),
            messages,
            flush: args.flush,
            source: "cli",
        },
    )?;
    let text = render::record_text(ctx.style, &outcome, &session);
    let path = episode_path(home, &session, &outcome.episode);
    Ok(Outcome::new(
        json!({
            "session": session,
            "episode": outcome.episode,
            "ids": outcome.ids,
            "count": outcome.saved,
            "duplicate": outcome.duplicate,
            "flushed": outcome.flushed,
        }),
        text,
    )
    .with_meta("count", outcome.saved)
    .with_meta("path", path))
}

/// A file saved by an editor that writes a UTF-8 byte-order mark is still UTF-8.
fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The home-relative path of an episode as it is now (open or closed).
fn episode_path(home: &Home, session: &str, id: &str) -> Value {
    for name in [format!("{id}.open.jsonl"), format!("{id}.jsonl")] {
        let rel = format!("{}/{session}/{name}", episodes::EPISODES_DIR);
        if home.root.join(&rel).is_file() {
            return Value::from(rel);
        }
    }
    Value::Null
}

fn flush_verb(ctx: &Ctx, home: &Home, args: FlushArgs) -> Result<Outcome> {
    let closed = flush(home, &ctx.clock, &args.session)?;
    let s = ctx.style;
    let text = match &closed {
        Some(id) => format!(
            "{} episode {} of session {}\n",
            s.green("Closed"),
            s.bold(id),
            args.session
        ),
        None => format!(
            "Nothing to flush: session {} has no open episode\n",
            args.session
        ),
    };
    let mut outcome = Outcome::new(json!({"session": args.session, "flushed": closed}), text);
    if let Some(id) = &closed {
        outcome = outcome.with_meta("path", episode_path(home, &args.session, id));
    }
    Ok(outcome)
}

fn list(ctx: &Ctx, home: &Home, args: ListArgs) -> Result<Outcome> {
    let all = episodes::all_episodes(home, args.session.as_deref())?;
    let total = all.len();
    // Only the episodes of the page are read: the rest are names.
    let shown: Vec<&Ep> = all
        .iter()
        .skip(args.offset)
        .take(if args.limit == 0 {
            usize::MAX
        } else {
            args.limit
        })
        .collect();
    let mut rows = Vec::new();
    for ep in &shown {
        // An episode flushed or pruned meanwhile is skipped, not an error.
        match episodes::read(ep) {
            Ok(parsed) => rows.push(render::summary(ep, &parsed)),
            Err(e) if e.kind == ErrorType::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    let text = render::list_text(
        ctx.style,
        &rows,
        total,
        args.offset,
        args.session.as_deref(),
    );
    let count = rows.len();
    Ok(Outcome::new(json!({"episodes": rows}), text)
        .with_meta("count", count)
        .with_meta("total", total))
}

fn show(ctx: &Ctx, home: &Home, args: ShowArgs) -> Result<Outcome> {
    let ep = match (&args.id, &args.session) {
        (Some(id), _) => episodes::find(home, id)?,
        (None, Some(session)) => {
            let list = episodes::episodes_of(home, session)?;
            let own = home.home_id()?;
            list.iter()
                .rev()
                .find(|e| e.open && e.owned_by(own.as_deref()))
                .or_else(|| list.last())
                .cloned()
                .ok_or_else(|| {
                    Error::not_found(format!("session {session} has no episodes"))
                        .with_hint("list the sessions' episodes with `track list`")
                        .with_detail("session", session.clone())
                })?
        }
        (None, None) => episodes::all_episodes(home, None)?
            .into_iter()
            .next()
            .ok_or_else(|| {
                Error::not_found("there are no episodes yet")
                    .with_hint("record a turn first: track record --content \"…\"")
            })?,
    };
    let parsed = episodes::read(&ep)?;
    let view = render::summary(&ep, &parsed);
    let text = render::show_text(ctx.style, &ep, &view, &parsed);
    let broken: Vec<Value> = parsed
        .broken
        .iter()
        .map(|b| json!({"line": b.line, "message": b.message}))
        .collect();
    let count = parsed.turns.len();
    Ok(Outcome::new(
        json!({"episode": view, "turns": parsed.turns, "broken": broken}),
        text,
    )
    .with_meta("count", count)
    .with_meta("path", ep.rel()))
}

// ------------------------------------------------------------- search verb

/// Search turns: ranked by relevance and recency; questions work as well as keywords.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track search \"how should I format Go code?\"\n  \
                        track search deploy --session s1 --since 2026-01-01 --limit 5"
)]
struct SearchVerb {
    #[command(flatten)]
    search: search::cli::SearchArgs,
}

fn search_verb(ctx: &Ctx, home: &Home, args: SearchVerb) -> Result<Outcome> {
    let query = args
        .search
        .to_query("track search", vec![super::KIND.to_string()])?;
    if let Some(session) = &query.session {
        episodes::session_dir(home, session)?;
    }
    let found = search::Index::open(home)?.find(&query)?;
    Ok(search::cli::render_hits(
        &query.text,
        &found,
        ctx.style,
        "No turns match",
        |h, row| {
            let (episode, seq) = h.id.rsplit_once('#').unwrap_or((h.id.as_str(), ""));
            row.insert("episode".into(), json!(episode));
            row.insert("seq".into(), json!(seq.parse::<u64>().ok()));
            row.insert("role".into(), json!(h.tags.first()));
        },
    ))
}

fn stats(ctx: &Ctx, home: &Home, args: StatsArgs) -> Result<Outcome> {
    let all = episodes::all_episodes(home, args.session.as_deref())?;
    let mut sessions: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_role: BTreeMap<String, usize> = ROLES.iter().map(|r| (r.to_string(), 0)).collect();
    let mut by_tool: BTreeMap<String, usize> = BTreeMap::new();
    let (mut open, mut closed, mut turns, mut calls, mut bytes, mut broken) = (0, 0, 0, 0, 0u64, 0);
    let (mut first, mut last): (Option<String>, Option<String>) = (None, None);
    for ep in &all {
        let parsed = match episodes::read(ep) {
            Ok(parsed) => parsed,
            Err(e) if e.kind == ErrorType::NotFound => continue,
            Err(e) => return Err(e),
        };
        *sessions.entry(ep.session.clone()).or_default() += 1;
        if ep.open {
            open += 1;
        } else {
            closed += 1;
        }
        bytes += parsed.bytes;
        broken += parsed.broken.len();
        for t in &parsed.turns {
            turns += 1;
            *by_role.entry(t.role.clone()).or_default() += 1;
            for c in &t.tool_calls {
                calls += 1;
                *by_tool.entry(c.name.clone()).or_default() += 1;
            }
            if !t.ts.is_empty() {
                if first.as_ref().is_none_or(|f| t.ts < *f) {
                    first = Some(t.ts.clone());
                }
                if last.as_ref().is_none_or(|l| t.ts > *l) {
                    last = Some(t.ts.clone());
                }
            }
        }
    }
    let data = json!({
        "sessions": sessions.len(),
        "episodes": {"total": open + closed, "open": open, "closed": closed},
        "turns": {"total": turns, "by_role": by_role},
        "tool_calls": {"total": calls, "by_name": by_tool},
        "first_ts": first,
        "last_ts": last,
        "bytes": bytes,
        "broken_lines": broken,
    });
    let text = render::stats_text(ctx.style, &data);
    Ok(Outcome::new(data, text).with_meta("count", turns))
}

fn activity(ctx: &Ctx, home: &Home, args: ActivityArgs) -> Result<Outcome> {
    let days = usize::from(args.days);
    let today = Time::at_midnight(ctx.clock.now().date());
    let first = today
        .checked_sub(clock::days(days as i64 - 1))
        .unwrap_or(today);
    let found = search::Index::open(home)?.activity(super::KIND, first.as_second(), days)?;
    let dates: Vec<String> = (0..days)
        .map(|i| {
            Time::from_second(first.as_second() + i as i64 * 86_400)
                .map(|t| t.date().to_string())
                .unwrap_or_default()
        })
        .collect();
    let shown = usize::from(args.sessions).min(found.sessions.len());
    let (busiest, rest) = found.sessions.split_at(shown);
    let mut others = vec![0u64; days];
    for s in rest {
        for (sum, n) in others.iter_mut().zip(&s.counts) {
            *sum += n;
        }
    }
    let in_window: u64 = found.sessions.iter().map(|s| s.total()).sum();
    let data = json!({
        "from": dates.first(),
        "to": dates.last(),
        "days": dates,
        "sessions": busiest.iter().map(|s| json!({
            "session": s.session, "turns": s.total(), "by_day": s.counts,
        })).collect::<Vec<_>>(),
        "others": {"sessions": rest.len(), "turns": others.iter().sum::<u64>(), "by_day": others},
        "turns": in_window,
        "total": {"turns": found.total, "sessions": found.total_sessions, "undated": found.undated},
    });
    let text = render::activity_text(ctx.style, &data);
    Ok(Outcome::new(data, text).with_meta("count", in_window))
}

/// A duration back from now (`30d`, `12h`, `90m`, `2w`, `45s`: see
/// [`clock::parse_duration`]); or a date / RFC 3339 time.
fn cutoff(now: Time, value: &str) -> Result<Time> {
    let value = value.trim();
    if let Some(ts) = episodes::normalize_ts(value) {
        return Ok(Time::parse(&ts).expect("normalized"));
    }
    if let Some(date) = clock::parse_date(value) {
        return Ok(Time::at_midnight(date));
    }
    let back = match clock::parse_duration(value) {
        Ok(d) => now.checked_sub(d),
        Err(clock::DurationFault::OutOfRange) => None,
        Err(clock::DurationFault::Malformed) => {
            return Err(Error::invalid_args(format!(
                "--older-than {} is neither a duration nor a date",
                Value::from(value)
            ))
            .with_hint("use a number with s, m, h, d or w (30d, 12h, 2w), or a date (2026-01-01, RFC 3339)")
            .with_detail("flag", "--older-than"));
        }
    };
    back.ok_or_else(|| {
        Error::invalid_args(format!(
            "--older-than {} reaches back past the earliest time agentbox keeps",
            Value::from(value)
        ))
        .with_hint("a duration reaches back at most about 262,000 years; use a date to prune everything before it")
        .with_detail("flag", "--older-than")
    })
}

fn prune(ctx: &Ctx, home: &Home, args: PruneArgs) -> Result<Outcome> {
    let now = ctx.clock.now();
    let cut = cutoff(now, &args.older_than)?;
    let cut_text = cut.stamp();
    let keys = match &args.session {
        Some(key) => {
            episodes::session_dir(home, key)?;
            vec![key.clone()]
        }
        None => episodes::sessions(home)?,
    };
    let mut removed = Vec::new();
    let mut kept = 0usize;
    for key in keys {
        let writer = SessionWriter::lock(home, &key)?;
        for ep in episodes::episodes_of(home, &key)? {
            if ep.open {
                kept += 1;
                continue;
            }
            // Judged by the latest time a turn was said, in whatever line
            // order: history imported with old times is as old as it says.
            let parsed = episodes::read(&ep)?;
            let last = parsed.last_ts();
            let old = last
                .and_then(|ts| Time::parse(ts).ok())
                .is_some_and(|ts| ts < cut);
            if !old {
                kept += 1;
                continue;
            }
            let turns = parsed.turns.len();
            if !args.dry_run {
                writer.remove(&ep)?;
            }
            removed.push(json!({
                "id": ep.id,
                "session": ep.session,
                "last_ts": last,
                "turns": turns,
                "path": ep.rel(),
            }));
        }
    }
    let count = removed.len();
    let data =
        json!({"cutoff": cut_text, "dry_run": args.dry_run, "removed": removed, "kept": kept});
    let text = render::prune_text(ctx.style, &data);
    Ok(Outcome::new(data, text).with_meta("count", count))
}

fn import_verb(ctx: &Ctx, home: &Home, args: ImportArgs) -> Result<Outcome> {
    if let Some(key) = &args.session {
        episodes::session_dir(home, key)?;
    }
    let cap = home.store.max_item_bytes();
    let (text, name) =
        crate::tools::read_input(&args.file, "event stream", cap.saturating_mul(IMPORT_ITEMS))?;
    for (i, line) in text.split('\n').enumerate() {
        check_size(&format!("line {} of {name}", i + 1), line.len() as u64, cap)
            .map_err(|e| e.with_detail("line", i + 1))?;
    }
    let runs = import::parse_stream(strip_bom(&text), ctx.clock.now())?;
    // Every run's session is settled before anything is written.
    let mut plan = Vec::new();
    for run in runs {
        let session = match (&args.session, &run.session_id) {
            (Some(key), _) => key.clone(),
            (None, Some((id, line))) => {
                episodes::session_dir(home, id).map_err(|e| {
                    Error::invalid_args(format!(
                        "line {line}: session_id cannot be a session key: {}",
                        e.message
                    ))
                    .with_hint("pass --session KEY to store the runs under a key of your choice")
                    .with_detail("line", *line)
                })?;
                id.clone()
            }
            (None, None) => import::default_session(home.store.redactor(), &run.run_id),
        };
        episodes::session_dir(home, &session)?;
        plan.push((session, run));
    }
    let mut imported = Vec::new();
    let mut skipped = Vec::new();
    let mut written: Vec<Ep> = Vec::new();
    let result = (|| -> Result<()> {
        for (session, run) in &plan {
            // Masked here, not only by the output layer: the text shows a
            // prefix, and a cut credential may no longer look like one.
            let run_id = home.store.redactor().redact(&run.run_id);
            let mut writer = SessionWriter::lock(home, session)?;
            let existing = import::imported_episode(home, session, &run.run_id)?;
            if let Some(ep) = existing {
                skipped.push(json!({"run_id": run_id, "session": session, "episode": ep.id}));
                continue;
            }
            let files = writer.write_closed(&run.drafts)?;
            let ids: Vec<String> = files.iter().map(|(ep, _)| ep.id.clone()).collect();
            written.extend(files.into_iter().map(|(ep, _)| ep));
            imported.push(json!({
                "run_id": run_id,
                "session": session,
                "episodes": ids,
                "turns": run.drafts.len(),
                "tool_calls": run.tool_calls,
                "failed": run.failed,
                "unfinished": run.unfinished,
                "budget_stops": run.budget_stops,
                "ignored_events": run.ignored,
            }));
        }
        Ok(())
    })();
    if let Err(err) = result {
        // Nothing half-imported: take back what this call wrote.
        for ep in &written {
            if let Ok(writer) = SessionWriter::lock(home, &ep.session) {
                let _ = writer.remove(ep);
            }
        }
        return Err(err);
    }
    let out = render::import_text(ctx.style, &imported, &skipped);
    let count = imported.len();
    Ok(Outcome::new(
        json!({"source": name, "imported": imported, "skipped": skipped}),
        out,
    )
    .with_meta("count", count))
}
