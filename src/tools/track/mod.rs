//! `track` — trajectories, the episode track (SPEC §4, docs/tools/track.md).
//!
//! Turns are appended to the open episode of a session
//! (`memory/episodes/<session>/<id>.open.jsonl`); `flush` closes it
//! (`<id>.jsonl`). The CLI verbs and the MCP server call the same library
//! functions: [`save_turns`], [`flush`], [`parse_messages`].

pub(crate) mod episodes;
pub(crate) mod import;
mod messages;

pub use episodes::{EpisodeFile, ToolCall, Turn};
pub use messages::{MessageIn, ROLES, ToolCallIn, parse_messages};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::{Outcome, Style};
use crate::search::{self, Doc, Kind};
use crate::store::check_size;
use crate::tools::{Ctx, Tool};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use episodes::{Draft, EpisodeFile as Ep, SessionWriter};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

pub const TOOL: Tool = Tool {
    name: "track",
    about: "Trajectories: record turns into episodes, list, show, search, import odek runs",
    command: || TrackCli::command(),
    run,
    serves_stdio: false,
};

/// The session used when none is given.
pub const DEFAULT_SESSION: &str = "default";

/// Default and largest `--limit` of `list` and `search`.
const DEFAULT_LIST: usize = 20;
const DEFAULT_HITS: usize = 10;
const MAX_HITS: usize = 100;

/// An import stream may hold this many items' worth of bytes.
const IMPORT_ITEMS: u64 = 64;

// ---------------------------------------------------------------- library

/// What [`save_turns`] stores.
#[derive(Debug, Clone)]
pub struct SaveTurns {
    pub session: String,
    pub messages: Vec<MessageIn>,
    pub flush: bool,
    /// Who wrote the turns: `cli`, `mcp` or `import`.
    pub source: &'static str,
}

/// What [`save_turns`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveOutcome {
    /// Turns written (0 for a duplicate).
    pub saved: usize,
    /// The messages equal the session's last saved turns: nothing was written.
    pub duplicate: bool,
    /// The episode that holds the turns.
    pub episode: String,
    /// The episode was closed by this call.
    pub flushed: bool,
    /// Ids of the turns (the existing ones for a duplicate).
    pub ids: Vec<String>,
}

/// Checks messages built by a caller that did not go through [`parse_messages`].
fn check_messages(home: &Home, messages: &[MessageIn]) -> Result<()> {
    if messages.is_empty() {
        return Err(Error::invalid_args("no messages: there is nothing to save")
            .with_hint("pass at least one message")
            .with_detail("field", "messages"));
    }
    let cap = home.store.max_item_bytes();
    for (i, m) in messages.iter().enumerate() {
        if !ROLES.contains(&m.role.as_str()) {
            return Err(Error::invalid_args(format!(
                "messages[{i}].role is {}; use one of {}",
                Value::from(m.role.as_str()),
                ROLES.join(", ")
            ))
            .with_hint("a role is user, assistant, system or tool")
            .with_detail("field", format!("messages[{i}].role"))
            .with_detail("valid", ROLES.to_vec()));
        }
        if m.content.trim().is_empty() && m.tool_calls.is_empty() {
            return Err(Error::invalid_args(format!(
                "messages[{i}] has no content and no tool calls: there is nothing to save"
            ))
            .with_hint("give the message some content")
            .with_detail("field", format!("messages[{i}]")));
        }
        check_size(
            &format!("messages[{i}].content"),
            m.content.len() as u64,
            cap,
        )
        .map_err(|e| e.with_detail("field", format!("messages[{i}].content")))?;
        let calls: u64 = m
            .tool_calls
            .iter()
            .map(|c| c.arguments.to_string().len() as u64 + c.name.len() as u64)
            .sum();
        check_size(&format!("messages[{i}].toolCalls"), calls, cap)
            .map_err(|e| e.with_detail("field", format!("messages[{i}].toolCalls")))?;
    }
    Ok(())
}

/// The parts of a turn that make two saves "the same message".
fn identity(
    home: &Home,
    role: &str,
    content: &str,
    calls: &[ToolCall],
    call_id: &Option<String>,
) -> Value {
    let mut value =
        json!({"role": role, "content": content, "tool_calls": calls, "tool_call_id": call_id});
    home.store.redactor().redact_value(&mut value);
    value
}

/// The stored turns (ids) that `drafts` duplicate: the episode's last turns, if
/// they equal the drafts one for one.
fn duplicate_of(home: &Home, ep: &Ep, drafts: &[Draft]) -> Result<Option<Vec<String>>> {
    let tail = episodes::tail(ep, drafts.len())?;
    if tail.len() != drafts.len() {
        return Ok(None);
    }
    let mut ids = Vec::new();
    for (stored, draft) in tail.iter().zip(drafts) {
        let Some(stored) = stored else {
            return Ok(None);
        };
        let a = identity(
            home,
            &stored.role,
            &stored.content,
            &stored.tool_calls,
            &stored.tool_call_id,
        );
        let b = identity(
            home,
            &draft.role,
            &draft.content,
            &draft.tool_calls,
            &draft.tool_call_id,
        );
        if a != b {
            return Ok(None);
        }
        ids.push(stored.id.clone());
    }
    Ok(Some(ids))
}

/// Saves messages as turns of the session's open episode (created when there
/// is none), under the session's lock, and indexes them before returning.
/// Re-saving exactly the session's last saved turn(s) writes nothing and
/// reports `duplicate` — retries are idempotent. With `flush`, the episode is
/// closed afterwards.
pub fn save_turns(home: &Home, clock: &Clock, input: &SaveTurns) -> Result<SaveOutcome> {
    episodes::session_dir(home, &input.session)?;
    check_messages(home, &input.messages)?;
    let ts = clock.stamp();
    let drafts: Vec<Draft> = input
        .messages
        .iter()
        .map(|m| Draft {
            ts: ts.clone(),
            role: m.role.clone(),
            content: m.content.clone(),
            tool_calls: m
                .tool_calls
                .iter()
                .map(|c| ToolCall {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    arguments: c.arguments.clone(),
                })
                .collect(),
            tool_call_id: m.tool_call_id.clone(),
            source: input.source.to_string(),
            meta: Map::new(),
        })
        .collect();
    let mut writer = SessionWriter::lock(home, &input.session)?;
    // A retry of a save that also flushed finds its turns in the closed episode.
    let last = match writer.open_episode() {
        Some(ep) => Some(ep.clone()),
        None if input.flush => writer.latest_closed()?,
        None => None,
    };
    if let Some(ep) = last
        && let Some(ids) = duplicate_of(home, &ep, &drafts)?
    {
        let flushed = input.flush && writer.close()?.is_some();
        return Ok(SaveOutcome {
            saved: 0,
            duplicate: true,
            episode: ep.id,
            flushed,
            ids,
        });
    }
    let turns = writer.append(&drafts)?;
    let episode = turns.last().map(|t| t.episode.clone()).unwrap_or_default();
    let flushed = input.flush && writer.close()?.is_some();
    Ok(SaveOutcome {
        saved: turns.len(),
        duplicate: false,
        episode,
        flushed,
        ids: turns.into_iter().map(|t| t.id).collect(),
    })
}

/// Closes the open episode of a session; the closed episode's id, or `None`
/// when nothing was open (not an error).
pub fn flush(home: &Home, _clock: &Clock, session: &str) -> Result<Option<String>> {
    Ok(SessionWriter::lock(home, session)?.close()?.map(|ep| ep.id))
}

/// The search documents of one episode file (`rel` is home-relative, `text` its
/// content): one per turn. Lines that are not turns are skipped.
pub fn index_docs(_home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    let (session, id, _) = episodes::split_rel(rel).ok_or_else(|| {
        Error::invalid_args(format!("{rel} is not an episode file"))
            .with_detail("path", rel.to_string())
    })?;
    let parsed = episodes::parse_text(text.as_bytes(), session, id);
    Ok(episodes::docs_for(rel, &parsed.turns))
}

// ---------------------------------------------------------------- CLI

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
struct TrackCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Record(RecordArgs),
    Flush(FlushArgs),
    List(ListArgs),
    Show(ShowArgs),
    Search(SearchArgs),
    Stats(StatsArgs),
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
/// toolCalls, toolCallId}, or an object {"sessionKey": "…", "messages": […]}.
/// Everything is validated before anything is written. Re-sending exactly the
/// session's last saved turn(s) saves nothing and reports duplicate.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track record --content \"deploy the site\"\n  \
                        track record --session s1 --role assistant --content-file answer.md\n  \
                        track record --role tool --tool-call-id call_1 --content \"3 files changed\"\n  \
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
    after_help = "Examples:\n  track list\n  track list --session s1 --limit 5 --format json"
)]
struct ListArgs {
    /// Only this session's episodes
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
    /// Show at most N episodes (0: all)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIST)]
    limit: usize,
}

/// Show an episode's turns as a transcript.
///
/// Without an id: the open (else latest) episode of --session, or the newest episode.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track show ep-20260115T093000Z-1\n  track show --session s1\n  \
                        track show --format json | jq '.data.turns[].content'"
)]
struct ShowArgs {
    /// Episode id (as `track list` prints it)
    #[arg(conflicts_with = "session")]
    id: Option<String>,
    /// The open (else latest) episode of this session
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
}

/// Search turns: ranked by relevance and recency; questions work as well as keywords.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  track search \"how should I format Go code?\"\n  \
                        track search deploy --session s1 --since 2026-01-01 --limit 5"
)]
struct SearchArgs {
    /// What to look for
    query: String,
    /// Only turns of this session
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
    /// Only turns at or after this time (RFC 3339, or a date like 2026-01-31)
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Only turns at or before this time (a date covers that whole day)
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// At most N hits (1–100)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HITS)]
    limit: usize,
}

/// Count sessions, episodes, turns by role and tool calls by name.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  track stats\n  track stats --session s1 --format json")]
struct StatsArgs {
    /// Only this session
    #[arg(long, value_name = "KEY")]
    session: Option<String>,
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

fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let cli =
        TrackCli::from_arg_matches(matches).map_err(|e| Error::invalid_args(e.to_string()))?;
    let home = ctx.home()?;
    match cli.verb {
        Verb::Record(args) => record(ctx, home, args),
        Verb::Flush(args) => flush_verb(ctx, home, args),
        Verb::List(args) => list(ctx, home, args),
        Verb::Show(args) => show(ctx, home, args),
        Verb::Search(args) => search_verb(ctx, home, args),
        Verb::Stats(args) => stats(ctx, home, args),
        Verb::Prune(args) => prune(ctx, home, args),
        Verb::Import(args) => import_verb(ctx, home, args),
    }
}

fn record(ctx: &Ctx, home: &Home, args: RecordArgs) -> Result<Outcome> {
    let cap = home.store.max_item_bytes();
    let (messages, file_session) = if let Some(file) = &args.messages {
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
    let s = ctx.style;
    let mut text = if outcome.duplicate {
        format!(
            "{}: the last {} of {} already {} this; nothing saved\n",
            s.yellow("Duplicate"),
            plural(outcome.ids.len(), "turn"),
            s.bold(&outcome.episode),
            if outcome.ids.len() == 1 {
                "says"
            } else {
                "say"
            }
        )
    } else {
        format!(
            "{} {} to {} (session {}): {}\n",
            s.green("Saved"),
            plural(outcome.saved, "turn"),
            s.bold(&outcome.episode),
            session,
            id_range(&outcome.ids)
        )
    };
    if outcome.flushed {
        text.push_str(&format!(
            "{} episode {}\n",
            s.green("Closed"),
            outcome.episode
        ));
    }
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

/// `ep-…#3` or `ep-…#3–#5`.
fn id_range(ids: &[String]) -> String {
    match ids {
        [] => String::new(),
        [one] => one.clone(),
        [first, .., last] => {
            let tail = last.rsplit_once('#').map_or(last.as_str(), |(_, n)| n);
            format!("{first}–#{tail}")
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
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

/// What `list` and `show` say about an episode.
fn summary(ep: &Ep, parsed: &episodes::Parsed) -> Value {
    let first = parsed.turns.iter().map(|t| t.ts.as_str()).min();
    let last = parsed.turns.iter().map(|t| t.ts.as_str()).max();
    let title = parsed
        .turns
        .iter()
        .find(|t| t.role == "user" && !t.content.trim().is_empty())
        .or_else(|| parsed.turns.iter().find(|t| !t.content.trim().is_empty()))
        .map(|t| one_line(&t.content, 80))
        .unwrap_or_default();
    json!({
        "id": ep.id,
        "session": ep.session,
        "state": if ep.open { "open" } else { "closed" },
        "turns": parsed.turns.len(),
        "first_ts": first,
        "last_ts": last,
        "title": title,
        "path": ep.rel(),
        "bytes": parsed.bytes,
        "broken_lines": parsed.broken.len(),
    })
}

/// The first non-empty line of `text`, cut to `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() > max {
        let cut: String = line.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    }
}

fn list(ctx: &Ctx, home: &Home, args: ListArgs) -> Result<Outcome> {
    let all = episodes::all_episodes(home, args.session.as_deref())?;
    let total = all.len();
    let shown: Vec<&Ep> = all
        .iter()
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
            Ok(parsed) => rows.push(summary(ep, &parsed)),
            Err(e) if e.kind == crate::error::ErrorType::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    let s = ctx.style;
    let mut text = String::new();
    if rows.is_empty() {
        text = match &args.session {
            Some(key) => format!(
                "No episodes in session {key}. Record a turn: track record --session {key} --content \"…\"\n"
            ),
            None => "No episodes yet. Record a turn: track record --content \"…\"\n".to_string(),
        };
    } else {
        let idw = rows
            .iter()
            .map(|r| str_of(&r["id"]).len())
            .max()
            .unwrap_or(7)
            .max(7);
        let sw = rows
            .iter()
            .map(|r| str_of(&r["session"]).chars().count())
            .max()
            .unwrap_or(7)
            .max(7);
        text.push_str(&s.dim(&format!(
            "{:<idw$}  {:<sw$}  {:<6}  {:>5}  {:<20}  {}",
            "EPISODE", "SESSION", "STATE", "TURNS", "LAST", "TITLE"
        )));
        text.push('\n');
        for r in &rows {
            let state = str_of(&r["state"]);
            let state = if state == "open" {
                s.cyan(&format!("{state:<6}"))
            } else {
                format!("{state:<6}")
            };
            text.push_str(&format!(
                "{:<idw$}  {:<sw$}  {}  {:>5}  {:<20}  {}\n",
                str_of(&r["id"]),
                str_of(&r["session"]),
                state,
                r["turns"].as_u64().unwrap_or(0),
                str_of(&r["last_ts"]),
                str_of(&r["title"]),
            ));
        }
        if total > rows.len() {
            text.push_str(&s.dim(&format!(
                "… {} more (--limit 0 shows all)\n",
                total - rows.len()
            )));
        }
    }
    let count = rows.len();
    Ok(Outcome::new(json!({"episodes": rows}), text)
        .with_meta("count", count)
        .with_meta("total", total))
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn show(ctx: &Ctx, home: &Home, args: ShowArgs) -> Result<Outcome> {
    let ep = match (&args.id, &args.session) {
        (Some(id), _) => episodes::find(home, id)?,
        (None, Some(session)) => {
            let list = episodes::episodes_of(home, session)?;
            list.iter()
                .rev()
                .find(|e| e.open)
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
    let s = ctx.style;
    let view = summary(&ep, &parsed);
    let mut text = format!(
        "{}  {}\n",
        s.bold(&ep.id),
        s.dim(&format!(
            "session {} · {} · {} · {} – {}",
            ep.session,
            str_of(&view["state"]),
            plural(parsed.turns.len(), "turn"),
            str_of(&view["first_ts"]),
            str_of(&view["last_ts"])
        ))
    );
    for turn in &parsed.turns {
        text.push_str(&render_turn(turn, s));
    }
    for b in &parsed.broken {
        text.push_str(&format!(
            "{} line {}: {}\n",
            s.red("unreadable"),
            b.line,
            b.message
        ));
    }
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

/// One turn of a transcript.
fn render_turn(turn: &Turn, s: Style) -> String {
    let time = turn.ts.split_once('T').map_or(turn.ts.as_str(), |(_, t)| t);
    let mut head = format!(
        "\n{} {} {}",
        s.dim(&format!("#{}", turn.seq)),
        s.bold(&turn.role),
        s.dim(&format!("· {time}"))
    );
    if let Some(id) = &turn.tool_call_id {
        head.push_str(&format!("  {}", s.cyan(&format!("→ result for call {id}"))));
    }
    let mut out = format!("{head}\n");
    for line in turn.content.lines() {
        out.push_str(&format!("  {line}\n"));
    }
    for call in &turn.tool_calls {
        let args = match &call.arguments {
            Value::Null => String::new(),
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let id = if call.id.is_empty() {
            String::new()
        } else {
            format!(" [{}]", call.id)
        };
        let args = one_line(&args, 200);
        let sep = if args.is_empty() { "" } else { " " };
        out.push_str(&format!(
            "  {} {}{}{sep}{args}\n",
            s.yellow("⚙ call"),
            call.name,
            s.dim(&id),
        ));
    }
    out
}

fn search_verb(ctx: &Ctx, home: &Home, args: SearchArgs) -> Result<Outcome> {
    if args.query.trim().is_empty() {
        return Err(Error::invalid_args("the query is empty")
            .with_hint("say what to look for: track search \"deploy key\"")
            .with_detail("flag", "QUERY"));
    }
    if args.limit == 0 || args.limit > MAX_HITS {
        return Err(Error::invalid_args(format!(
            "--limit {} is out of range (1–{MAX_HITS})",
            args.limit
        ))
        .with_hint(format!("pass a limit between 1 and {MAX_HITS}"))
        .with_detail("flag", "--limit"));
    }
    if let Some(session) = &args.session {
        episodes::session_dir(home, session)?;
    }
    let since = args
        .since
        .as_deref()
        .map(|v| search::date_bound("--since", v))
        .transpose()?;
    let until = args
        .until
        .as_deref()
        .map(|v| search::date_bound("--until", v))
        .transpose()?;
    let hits = search::Index::open(home)?.search(&search::Query {
        text: args.query.clone(),
        kinds: vec![Kind::Turn],
        session: args.session.clone(),
        tag: None,
        since,
        until,
        limit: args.limit,
    })?;
    let s = ctx.style;
    let mut text = String::new();
    if hits.is_empty() {
        text.push_str(&format!(
            "No turns match {}.\n",
            Value::from(args.query.as_str())
        ));
    }
    let rows: Vec<Value> = hits
        .iter()
        .map(|h| {
            let (episode, seq) = h.id.rsplit_once('#').unwrap_or((h.id.as_str(), ""));
            let role = h.tags.first().cloned().unwrap_or_default();
            json!({
                "id": h.id,
                "episode": episode,
                "seq": seq.parse::<u64>().ok(),
                "session": h.session,
                "role": role,
                "date": h.date,
                "snippet": h.snippet,
                "score": search::round_score(h.score),
                "source": h.source,
            })
        })
        .collect();
    for (i, (h, row)) in hits.iter().zip(&rows).enumerate() {
        text.push_str(&format!(
            "{}. {}  {}\n   {}\n",
            i + 1,
            s.bold(&h.id),
            s.dim(&format!(
                "{} · {} · {} · score {}",
                h.session.as_deref().unwrap_or("-"),
                str_of(&row["role"]),
                h.date,
                search::round_score(h.score)
            )),
            h.snippet
        ));
    }
    let count = rows.len();
    Ok(Outcome::new(json!({"query": args.query, "hits": rows}), text).with_meta("count", count))
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
            Err(e) if e.kind == crate::error::ErrorType::NotFound => continue,
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
    let s = ctx.style;
    let mut text = format!(
        "{} in {} · {} ({} open, {} closed) · {} · {}\n",
        s.bold(&plural(turns, "turn")),
        plural(sessions.len(), "session"),
        plural(open + closed, "episode"),
        open,
        closed,
        plural(calls, "tool call"),
        human_bytes(bytes)
    );
    if let (Some(f), Some(l)) = (&first, &last) {
        text.push_str(&format!("  from {f} to {l}\n"));
    }
    let roles: Vec<String> = by_role.iter().map(|(r, n)| format!("{r} {n}")).collect();
    text.push_str(&format!("  by role: {}\n", roles.join(", ")));
    if !by_tool.is_empty() {
        let mut tools: Vec<(&String, &usize)> = by_tool.iter().collect();
        tools.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let tools: Vec<String> = tools
            .iter()
            .take(10)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        text.push_str(&format!("  tool calls: {}\n", tools.join(", ")));
    }
    if broken > 0 {
        text.push_str(&format!("  {} {}\n", s.red("unreadable lines:"), broken));
    }
    Ok(Outcome::new(
        json!({
            "sessions": sessions.len(),
            "episodes": {"total": open + closed, "open": open, "closed": closed},
            "turns": {"total": turns, "by_role": by_role},
            "tool_calls": {"total": calls, "by_name": by_tool},
            "first_ts": first,
            "last_ts": last,
            "bytes": bytes,
            "broken_lines": broken,
        }),
        text,
    )
    .with_meta("count", turns))
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

/// `30d`, `12h`, `90m`, `2w`, `45s` back from now; or a date / RFC 3339 time.
fn cutoff(now: DateTime<Utc>, value: &str) -> Result<DateTime<Utc>> {
    let value = value.trim();
    if let Some(ts) = episodes::normalize_ts(value) {
        return Ok(DateTime::parse_from_rfc3339(&ts)
            .expect("normalized")
            .with_timezone(&Utc));
    }
    if let Ok(date) = NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        return Ok(date.and_hms_opt(0, 0, 0).expect("midnight").and_utc());
    }
    let split = value
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(value.len());
    let (digits, unit) = value.split_at(split);
    let n: i64 = digits.parse().unwrap_or(-1);
    let duration = match unit {
        _ if n < 0 || digits.len() > 9 => None,
        "s" => Duration::try_seconds(n),
        "m" => Duration::try_minutes(n),
        "h" => Duration::try_hours(n),
        "d" => Duration::try_days(n),
        "w" => Duration::try_weeks(n),
        _ => None,
    };
    duration
        .and_then(|d| now.checked_sub_signed(d))
        .ok_or_else(|| {
            Error::invalid_args(format!(
                "--older-than {} is neither a duration nor a date",
                Value::from(value)
            ))
            .with_hint("use a number with s, m, h, d or w (30d, 12h, 2w), or a date (2026-01-01, RFC 3339)")
            .with_detail("flag", "--older-than")
        })
}

fn prune(ctx: &Ctx, home: &Home, args: PruneArgs) -> Result<Outcome> {
    let now = ctx.clock.now();
    let cut = cutoff(now, &args.older_than)?;
    let cut_text = cut.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
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
            let last = episodes::last_ts(&ep)?;
            let old = last
                .as_deref()
                .and_then(|ts| DateTime::parse_from_rfc3339(ts).ok())
                .is_some_and(|ts| ts.with_timezone(&Utc) < cut);
            if !old {
                kept += 1;
                continue;
            }
            let turns = episodes::read(&ep)?.turns.len();
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
    let s = ctx.style;
    let verb = if args.dry_run {
        "Would remove"
    } else {
        "Removed"
    };
    let mut text = if removed.is_empty() {
        format!("Nothing to prune: no closed episode ended before {cut_text}\n")
    } else {
        format!(
            "{} {} that ended before {cut_text}:\n",
            s.yellow(verb),
            plural(removed.len(), "episode")
        )
    };
    for r in &removed {
        text.push_str(&format!(
            "  {}  {}  {}  {}\n",
            str_of(&r["id"]),
            str_of(&r["session"]),
            str_of(&r["last_ts"]),
            plural(r["turns"].as_u64().unwrap_or(0) as usize, "turn")
        ));
    }
    if args.dry_run && !removed.is_empty() {
        text.push_str(&s.dim("(dry run: nothing was removed)\n"));
    }
    let count = removed.len();
    Ok(Outcome::new(
        json!({"cutoff": cut_text, "dry_run": args.dry_run, "removed": removed, "kept": kept}),
        text,
    )
    .with_meta("count", count))
}

/// `odek-` and the first 12 safe characters of a run id.
fn default_session(run_id: &str) -> String {
    let prefix: String = run_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(12)
        .collect();
    if prefix.is_empty() {
        "odek".to_string()
    } else {
        format!("odek-{prefix}")
    }
}

/// The first turn of a closed episode, read cheaply (first line only).
fn first_turn(ep: &Ep) -> Option<Turn> {
    use std::io::BufRead;
    let file = std::fs::File::open(&ep.path).ok()?;
    let mut line = String::new();
    std::io::BufReader::new(file).read_line(&mut line).ok()?;
    serde_json::from_str(&line).ok()
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
    let runs = import::parse_stream(strip_bom(&text))?;
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
            (None, None) => default_session(&run.run_id),
        };
        episodes::session_dir(home, &session)?;
        plan.push((session, run));
    }
    let mut imported = Vec::new();
    let mut skipped = Vec::new();
    let mut written: Vec<Ep> = Vec::new();
    let result = (|| -> Result<()> {
        for (session, run) in &plan {
            let mut writer = SessionWriter::lock(home, session)?;
            let existing = episodes::episodes_of(home, session)?
                .into_iter()
                .find(|ep| {
                    !ep.open
                        && first_turn(ep).is_some_and(|t| {
                            t.source == "import"
                                && t.meta.get("run_id").and_then(Value::as_str) == Some(&run.run_id)
                        })
                });
            if let Some(ep) = existing {
                skipped.push(json!({"run_id": run.run_id, "session": session, "episode": ep.id}));
                continue;
            }
            let files = writer.write_closed(&run.drafts)?;
            let ids: Vec<String> = files.iter().map(|(ep, _)| ep.id.clone()).collect();
            written.extend(files.into_iter().map(|(ep, _)| ep));
            imported.push(json!({
                "run_id": run.run_id,
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
    let s = ctx.style;
    let mut out = String::new();
    for r in &imported {
        let eps: Vec<&str> = r["episodes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!(
            "{} run {} as {} (session {}): {}, {} ({} failed, {} unfinished), {}\n",
            s.green("Imported"),
            one_line(str_of(&r["run_id"]), 16),
            s.bold(&eps.join(", ")),
            str_of(&r["session"]),
            plural(r["turns"].as_u64().unwrap_or(0) as usize, "turn"),
            plural(r["tool_calls"].as_u64().unwrap_or(0) as usize, "tool call"),
            r["failed"],
            r["unfinished"],
            plural(
                r["budget_stops"].as_u64().unwrap_or(0) as usize,
                "budget stop"
            ),
        ));
    }
    for r in &skipped {
        out.push_str(&format!(
            "{} run {}: already imported as {} (session {})\n",
            s.yellow("Skipped"),
            one_line(str_of(&r["run_id"]), 16),
            str_of(&r["episode"]),
            str_of(&r["session"])
        ));
    }
    if imported.is_empty() && skipped.is_empty() {
        out.push_str("Nothing to import: the stream has no run events that become turns\n");
    }
    let count = imported.len();
    Ok(Outcome::new(
        json!({"source": name, "imported": imported, "skipped": skipped}),
        out,
    )
    .with_meta("count", count))
}
