//! `track` — trajectories, the episode track (SPEC §4, docs/tools/track.md).
//!
//! Turns are appended to the open episode of a session
//! (`memory/episodes/<session>/<id>.open.jsonl`); `flush` closes it
//! (`<id>.jsonl`). The CLI verbs (`cli`) and the MCP server call the same
//! library functions: [`save_turns`], [`flush`], [`parse_messages`].

mod cli;
pub(crate) mod episodes;
mod ids;
pub(crate) mod import;
mod messages;
mod render;
mod stamps;

pub use episodes::{EpisodeFile, ToolCall, Turn};
/// The episode line reader, for the property tests in tests/it/parsers.rs.
#[doc(hidden)]
pub use episodes::{Parsed, parse_text};
pub use messages::{MessageIn, ROLES, ToolCallIn, parse_messages};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::{Folder, Home};
use crate::search::{Doc, LineDocs, Source};
use crate::store::check_size;
use crate::tools::{Merge, MergeRule, Tool};
use episodes::{Draft, SessionWriter};
use serde_json::{Map, Value, json};

pub const TOOL: Tool = Tool {
    layout: &[Folder {
        path: episodes::EPISODES_DIR,
        order: 11,
    }],
    search: &[TURNS],
    merge: &[MergeRule {
        paths: episodes::is_episode_file,
        merge: Merge::Episode,
    }],
    ..Tool::derived::<cli::TrackCli>("track", cli::run)
};

/// The kind name of a turn in search.
pub const KIND: &str = "turn";

/// Episode files: one search document per turn; a rebuild reads them line
/// by line, so one bad line costs only itself.
const TURNS: Source = Source {
    kind: KIND,
    dir: episodes::EPISODES_DIR,
    nested: true,
    accept: |name| name.ends_with(".jsonl") && !name.starts_with('.'),
    extract: index_docs,
    lines: Some(index_lines),
    watched: false,
    growing: Some(".open.jsonl"),
    boost: 1.0,
};

/// The session used when none is given.
pub const DEFAULT_SESSION: &str = "default";

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
    /// The first messages that were found saved already (a retry of a batch
    /// a kill stopped midway): only the ones after them were written.
    pub resumed: usize,
    /// The episode that holds the turns.
    pub episode: String,
    /// The episode was closed by this call.
    pub flushed: bool,
    /// Ids of the turns, one per message (the existing ones for a
    /// duplicate and for the messages `resumed` found).
    pub ids: Vec<String>,
}

/// Checks messages built by a caller that did not go through [`parse_messages`],
/// and what the parser cannot judge without the clock: a `timestamp` in the future.
fn check_messages(home: &Home, clock: &Clock, messages: &[MessageIn]) -> Result<()> {
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
        if let Some(at) = m.timestamp {
            let field = format!("messages[{i}].timestamp");
            stamps::check_range(at)
                .and_then(|()| stamps::check_not_future(at, clock.now()))
                .map_err(|r| {
                    r.error(&field, &crate::clock::stamp_of(at))
                        .with_detail("field", field.clone())
                })?;
        }
    }
    Ok(())
}

/// The parts of a turn that make two saves "the same message" (its time, when
/// the caller gave one, is compared beside them: see [`duplicate_of`]).
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

/// Whether a stored turn is draft `i` of a batch again: their [`identity`]
/// and, when the draft's time was given (`dated[i]`: a message's
/// `timestamp`, `--at`), their times. So the same words said at another
/// time (a "yes" a day later, in imported history) are a new turn, while a
/// retry, which sends the same times, is not. An undated draft carries the
/// save time, which a retry cannot repeat: its time is left out. Each
/// side's identity is computed once (a retry compares a turn with several
/// drafts).
struct SameTurn<'a> {
    home: &'a Home,
    drafts: &'a [Draft],
    dated: &'a [bool],
    draft_ids: Vec<std::cell::OnceCell<Value>>,
    stored_ids: std::cell::RefCell<std::collections::HashMap<String, (Turn, Value)>>,
}

impl<'a> SameTurn<'a> {
    fn new(home: &'a Home, drafts: &'a [Draft], dated: &'a [bool]) -> SameTurn<'a> {
        SameTurn {
            home,
            drafts,
            dated,
            draft_ids: drafts.iter().map(|_| std::cell::OnceCell::new()).collect(),
            stored_ids: Default::default(),
        }
    }

    fn same(&self, stored: &Turn, i: usize) -> bool {
        let draft = &self.drafts[i];
        // What identity keeps as it is, compared first: most pairs differ here.
        if stored.role != draft.role
            || stored.tool_call_id != draft.tool_call_id
            || stored.tool_calls.len() != draft.tool_calls.len()
            || (self.dated[i] && stored.ts != draft.ts)
        {
            return false;
        }
        let theirs = self.draft_ids[i].get_or_init(|| {
            identity(
                self.home,
                &draft.role,
                &draft.content,
                &draft.tool_calls,
                &draft.tool_call_id,
            )
        });
        let ours = || {
            identity(
                self.home,
                &stored.role,
                &stored.content,
                &stored.tool_calls,
                &stored.tool_call_id,
            )
        };
        // Cached by id, for the same turn only (hand edits may repeat an id).
        let mut stored_ids = self.stored_ids.borrow_mut();
        match stored_ids.get(&stored.id) {
            Some((turn, identity)) if turn == stored => identity == theirs,
            _ => {
                let identity = ours();
                let same = &identity == theirs;
                stored_ids.insert(stored.id.clone(), (stored.clone(), identity));
                same
            }
        }
    }
}

/// Saves messages as turns of the session's open episode (created when there
/// is none), under the session's lock, and indexes them before returning.
/// Each turn's `ts` is its message's `timestamp` when given, else the save
/// time; a new episode's id takes the save time either way.
/// Re-saving exactly the session's last saved turn(s) writes nothing and
/// reports `duplicate`; a batch whose first messages are the session's last
/// turns, ending where the episode rolled over, writes only the rest
/// (`resumed`) — retries are idempotent, also of a save a kill stopped
/// between two episode files. With `flush`, the episode is closed afterwards.
pub fn save_turns(home: &Home, clock: &Clock, input: &SaveTurns) -> Result<SaveOutcome> {
    episodes::session_dir(home, &input.session)?;
    check_messages(home, clock, &input.messages)?;
    let now = clock.stamp();
    let dated: Vec<bool> = input
        .messages
        .iter()
        .map(|m| m.timestamp.is_some())
        .collect();
    let drafts: Vec<Draft> = input
        .messages
        .iter()
        .map(|m| Draft {
            ts: m
                .timestamp
                .map_or_else(|| now.clone(), crate::clock::stamp_of),
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
    let rendered = writer.render_batch(&now, &drafts)?;
    // A retry finds the batch's turns saved: all of them (also in the
    // closed episode of a save that flushed), or, when a kill stopped a
    // batch that crossed into a new episode, its first ones.
    let same = SameTurn::new(home, &drafts, &dated);
    let stored = writer.stored_part(&rendered, input.flush, |turn, i| same.same(turn, i))?;
    let (mut ids, resumed) = match stored {
        Some(stored) if stored.ids.len() == drafts.len() => {
            let flushed = input.flush && writer.close()?.is_some();
            return Ok(SaveOutcome {
                saved: 0,
                duplicate: true,
                resumed: 0,
                episode: stored.episode.id,
                flushed,
                ids: stored.ids,
            });
        }
        Some(stored) => {
            let k = stored.ids.len();
            (stored.ids, k)
        }
        None => (Vec::new(), 0),
    };
    let turns = writer.append(&now, rendered.into_iter().skip(resumed).collect())?;
    let episode = turns.last().map(|t| t.episode.clone()).unwrap_or_default();
    let flushed = input.flush && writer.close()?.is_some();
    ids.extend(turns.iter().map(|t| t.id.clone()));
    Ok(SaveOutcome {
        saved: turns.len(),
        duplicate: false,
        resumed,
        episode,
        flushed,
        ids,
    })
}

/// Closes the open episode of a session; the closed episode's id, or `None`
/// when nothing was open (not an error).
pub fn flush(home: &Home, _clock: &Clock, session: &str) -> Result<Option<String>> {
    Ok(SessionWriter::lock(home, session)?.close()?.map(|ep| ep.id))
}

/// The search documents of one episode file (`rel` is home-relative, `text` its
/// content): one per turn. Lines that are not turns are skipped.
pub fn index_docs(home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    Ok(index_lines(home, rel, text.as_bytes())?.0)
}

/// [`index_docs`] over the raw bytes of an episode file, with the lines it
/// skipped (`(line, why)`): a line that is not valid UTF-8 or not a turn costs
/// that line, never the episode's other turns.
pub fn index_lines(_home: &Home, rel: &str, bytes: &[u8]) -> Result<LineDocs> {
    let (session, id, _) = episodes::split_rel(rel).ok_or_else(|| {
        Error::invalid_args(format!("{rel} is not an episode file"))
            .with_detail("path", rel.to_string())
    })?;
    let parsed = episodes::parse_text(bytes, session, id);
    let skipped = parsed
        .broken
        .into_iter()
        .map(|b| (b.line, b.message))
        .collect();
    Ok((episodes::docs_for(rel, &parsed.turns), skipped))
}
