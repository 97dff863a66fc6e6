//! Episode files: where they live, how they are named, read, appended,
//! closed and removed. Every write to a session's episodes happens while its
//! `episodes-<session>` lock is held, and the search index is updated under the
//! same lock, so the index never sees a file's turns under a stale path.

pub use super::ids::{IdParts, parse_id};
mod parse;
mod resume;

pub use parse::{Parsed, parse_text, read, tail};

use super::ids::{first_free, mint_id};
use crate::error::{Error, Result, TextLimit, over_limit};
use crate::home::{self, Home};
use crate::search::{self, Doc};
use crate::store::{self, Lock, Redacted, Store};
use parse::tail_seqs;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io;
use std::path::PathBuf;

/// The `schema` of every turn line.
pub const TURN_SCHEMA: &str = "agentbox.turn/v1";

/// Where episodes live, relative to the home.
pub const EPISODES_DIR: &str = "memory/episodes";

/// Whether a home-relative path is an episode file as sync merges it
/// (`memory/episodes/<session>/<name>.jsonl`).
pub fn is_episode_file(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    rel.ends_with(".jsonl") && parts.len() == 4 && parts[0] == "memory" && parts[1] == "episodes"
}

/// The lock that makes new episode ids unique across sessions.
const ID_LOCK: &str = home::HOME_ID_LOCK;

/// Longest session key (a folder name; the lock `episodes-<key>` has room for it).
pub const MAX_SESSION_LEN: usize = store::MAX_NAME_LEN;

/// One stored turn (one line of an episode file). Readers ignore unknown fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    #[serde(default)]
    pub schema: String,
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub session: String,
    #[serde(default)]
    pub episode: String,
    #[serde(default)]
    pub seq: u64,
    #[serde(default)]
    pub ts: String,
    pub role: String,
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

/// A tool call as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default)]
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
}

/// A turn before it has a place: what a writer hands to [`SessionWriter`].
#[derive(Debug, Clone)]
pub struct Draft {
    pub ts: String,
    pub role: String,
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub source: String,
    pub meta: Map<String, Value>,
}

/// One episode file.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeFile {
    pub session: String,
    pub id: String,
    pub open: bool,
    pub path: PathBuf,
}

impl EpisodeFile {
    fn new(home: &Home, session: &str, id: &str, open: bool) -> Result<EpisodeFile> {
        let path = home
            .store
            .path(&["memory", "episodes", session, &file_name(id, open)])?;
        Ok(EpisodeFile {
            session: session.to_string(),
            id: id.to_string(),
            open,
            path,
        })
    }

    /// The home-relative path (the index's `source`).
    pub fn rel(&self) -> String {
        format!(
            "{EPISODES_DIR}/{}/{}",
            self.session,
            file_name(&self.id, self.open)
        )
    }

    /// The sort key: ids that do not parse (hand-made) first, by name; then
    /// start time, counter, home id and rename suffix ([`IdParts`]).
    fn order(&self) -> (String, u64, String, String) {
        match parse_id(&self.id) {
            Some(p) => (
                p.stamp.to_string(),
                p.n,
                p.home.to_string(),
                p.renamed.to_string(),
            ),
            None => (String::new(), 0, String::new(), self.id.clone()),
        }
    }

    /// Whether the home whose id is `own` may append to this episode and
    /// close it: an episode minted by this home, or one whose id names no
    /// home (a legacy `ep-<stamp>-<n>` or a hand-made id). Another home's
    /// open episode (arrived by sync) is that home's to close.
    pub fn owned_by(&self, own: Option<&str>) -> bool {
        match parse_id(&self.id) {
            Some(p) if !p.home.is_empty() => own == Some(p.home),
            _ => true,
        }
    }
}

fn file_name(id: &str, open: bool) -> String {
    if open {
        format!("{id}.open.jsonl")
    } else {
        format!("{id}.jsonl")
    }
}

/// Gives a rendered turn its place (`id`, `episode`, `seq`); the length of
/// its stored line, newline included.
fn relabel(store: &Store, value: &mut Redacted, ep_id: &str, seq: u64) -> Result<u64> {
    store.set_redacted(
        value,
        [
            ("id", Value::from(format!("{ep_id}#{seq}"))),
            ("episode", Value::from(ep_id)),
            ("seq", Value::from(seq)),
        ],
    );
    line_len(value)
}

/// The length of a rendered turn's stored line, newline included.
fn line_len(value: &mut Redacted) -> Result<u64> {
    Ok(value.line()?.len() as u64 + 1)
}

/// The lock note of [`ID_LOCK`]: the home id that minted, the latest
/// second (compact stamp) it minted an episode id in, and the last counter
/// it used then.
#[derive(Debug, PartialEq)]
struct Minted {
    home: String,
    stamp: String,
    n: u64,
}

impl Minted {
    /// `None` for anything but `<home> <stamp> <n>` (no note, or a torn one),
    /// and for a counter no second ever reaches (a hand-made note).
    fn parse(note: &str) -> Option<Minted> {
        let mut parts = note.trim_end().split(' ');
        let (home, stamp, n) = (parts.next()?, parts.next()?, parts.next()?);
        let word = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
        let ok = parts.next().is_none()
            && word(home)
            && word(stamp)
            && stamp.len() == compact_stamp("2026-01-01T00:00:00Z").len();
        Some(Minted {
            home: ok.then(|| home.to_string())?,
            stamp: stamp.to_string(),
            n: n.parse().ok().filter(|n| *n < 1 << 32)?,
        })
    }
}

impl std::fmt::Display for Minted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} {} {}", self.home, self.stamp, self.n)
    }
}

fn probe_id(ts: &str) -> String {
    mint_id(
        &compact_stamp(ts),
        &"x".repeat(home::HOME_ID_LEN),
        u64::from(u32::MAX),
    )
}

/// `foo.open.jsonl` → `("foo", true)`, `foo.jsonl` → `("foo", false)`.
fn split_file_name(name: &str) -> Option<(&str, bool)> {
    if name.starts_with('.') {
        return None;
    }
    if let Some(id) = name.strip_suffix(".open.jsonl") {
        return Some((id, true));
    }
    name.strip_suffix(".jsonl").map(|id| (id, false))
}

/// Validates a session key (it becomes a folder name) and returns its folder.
pub fn session_dir(home: &Home, session: &str) -> Result<PathBuf> {
    if session.trim() != session {
        // " work" and "work" would be two folders that look the same.
        return Err(Error::invalid_args(format!(
            "session key {} has leading or trailing whitespace",
            serde_json::Value::from(session)
        ))
        .with_hint("trim the session key")
        .with_detail("name", session));
    }
    TextLimit::bytes("session key", MAX_SESSION_LEN, "session_key_bytes")
        .check_length(session)
        .map_err(|e| {
            e.with_hint(format!(
                "use a session key of at most {MAX_SESSION_LEN} bytes"
            ))
        })?;
    store::safe_name("session key", session)?;
    home.store.path(&["memory", "episodes", session])
}

/// Validates an episode id given on the command line.
pub fn check_episode_id(id: &str) -> Result<&str> {
    store::safe_name("episode id", id)
}

/// The session keys that have an episode folder, sorted.
pub fn sessions(home: &Home) -> Result<Vec<String>> {
    let dir = home.store.path(&["memory", "episodes"])?;
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| store::safe_name("session key", name).is_ok())
        .collect();
    names.sort();
    Ok(names)
}

/// A session's episodes, oldest first.
pub fn episodes_of(home: &Home, session: &str) -> Result<Vec<EpisodeFile>> {
    episodes_where(home, session, |_| true)
}

/// A session's episodes whose open-ness `keep` accepts, oldest first (a
/// save looks for the open one among thousands closed).
fn episodes_where(home: &Home, session: &str, keep: fn(bool) -> bool) -> Result<Vec<EpisodeFile>> {
    let dir = session_dir(home, session)?;
    // Names judged as bytes, copied only when kept (`store::dir`).
    let wanted = |name: &[u8]| {
        std::str::from_utf8(name)
            .ok()
            .and_then(split_file_name)
            .is_some_and(|e| keep(e.1))
    };
    let entries = match store::dir::names_where(&dir, wanted) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut episodes = Vec::new();
    for (name, kind) in entries {
        let Some((id, open)) = name.to_str().and_then(split_file_name) else {
            continue;
        };
        if store::safe_name("episode id", id).is_err() || !store::dir::is_file(&dir, &name, kind) {
            continue;
        }
        episodes.push(EpisodeFile {
            session: session.to_string(),
            id: id.to_string(),
            open,
            path: dir.join(&name),
        });
    }
    // The key parses the id: once per episode, not per comparison.
    episodes.sort_by_cached_key(EpisodeFile::order);
    Ok(episodes)
}

/// Every episode of the home (or of one session), newest first.
pub fn all_episodes(home: &Home, session: Option<&str>) -> Result<Vec<EpisodeFile>> {
    let keys = match session {
        Some(key) => {
            session_dir(home, key)?;
            vec![key.to_string()]
        }
        None => sessions(home)?,
    };
    let mut all = Vec::new();
    for key in keys {
        all.extend(episodes_of(home, &key)?);
    }
    // The key parses the id: once per episode, not per comparison (at 4,000
    // episodes a comparison sort parsed and allocated ~100,000 times).
    all.sort_by_cached_key(|e| std::cmp::Reverse((e.order(), e.session.clone())));
    Ok(all)
}

/// The episode with this id, in whichever session holds it. Every id a verb
/// prints for an episode is taken: the episode's id, a turn's id
/// (`EPISODE#N`, as search hits carry it: its episode), or a unique start of
/// an episode id (several: `invalid_args` naming them).
pub fn find(home: &Home, id: &str) -> Result<EpisodeFile> {
    let given = id;
    let id = match id.rsplit_once('#') {
        Some((episode, seq)) if !seq.is_empty() && seq.bytes().all(|b| b.is_ascii_digit()) => {
            episode
        }
        _ => id,
    };
    check_episode_id(id)?;
    for session in sessions(home)? {
        for open in [true, false] {
            let ep = EpisodeFile::new(home, &session, id, open)?;
            if ep.path.is_file() {
                return Ok(ep);
            }
        }
    }
    let mut matching: Vec<EpisodeFile> = all_episodes(home, None)?
        .into_iter()
        .filter(|ep| ep.id.starts_with(id))
        .collect();
    matching.dedup_by(|a, b| a.id == b.id);
    match matching.len() {
        1 => Ok(matching.remove(0)),
        0 => Err(Error::not_found(format!("no episode '{given}'"))
            .with_hint("list the episodes with `track list`")
            .with_detail("id", given)),
        n => Err(
            Error::invalid_args(format!("'{given}' is the start of {n} episode ids"))
                .with_hint(format!(
                    "give more of the id: {}",
                    matching
                        .iter()
                        .take(10)
                        .map(|ep| ep.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .with_detail("id", given),
        ),
    }
}

/// `2026-01-15T09:30:00Z` → `20260115T093000Z`.
fn compact_stamp(ts: &str) -> String {
    crate::clock::restamp_compact(ts).unwrap_or_else(|| crate::clock::Time::now().compact())
}

/// Normalizes an RFC 3339 time to UTC whole seconds; `None` when it is not one.
pub fn normalize_ts(ts: &str) -> Option<String> {
    crate::clock::Time::parse(ts)
        .ok()
        .map(crate::clock::stamp_of)
}

/// One search document per turn of an episode file.
pub fn docs_for(rel: &str, turns: &[Turn]) -> Vec<Doc> {
    turns
        .iter()
        .map(|turn| {
            let mut tags = vec![turn.role.clone()];
            let mut body = turn.content.clone();
            for call in &turn.tool_calls {
                if !tags.contains(&call.name) {
                    tags.push(call.name.clone());
                }
                body.push('\n');
                body.push_str(&call.name);
                let args = match &call.arguments {
                    Value::Null => String::new(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if !args.is_empty() {
                    body.push(' ');
                    body.push_str(&args);
                }
            }
            Doc {
                id: turn.id.clone(),
                kind: super::KIND,
                source: rel.to_string(),
                session: Some(turn.session.clone()),
                tags,
                date: turn.ts.clone(),
                title: format!("{} in {}", turn.role, turn.session),
                body,
            }
        })
        .collect()
}

/// Session and episode id from a home-relative episode path.
pub fn split_rel(rel: &str) -> Option<(&str, &str, bool)> {
    let rest = rel.strip_prefix(EPISODES_DIR)?.strip_prefix('/')?;
    let (session, name) = rest.split_once('/')?;
    let (id, open) = split_file_name(name)?;
    Some((session, id, open))
}

/// The open episode of a session with the next sequence number and its size.
struct OpenEpisode {
    ep: EpisodeFile,
    /// `None` when the last turn has the highest number there is (a hand
    /// edit's, or another home's file): the episode takes no more turns.
    next_seq: Option<u64>,
    bytes: u64,
}

/// Exclusive access to one session's episodes for the life of the value.
pub struct SessionWriter<'h> {
    home: &'h Home,
    session: String,
    lock: Lock,
    open: Option<OpenEpisode>,
    cap: u64,
    /// This home's id (`None` before it has minted one).
    own: Option<String>,
}

impl<'h> SessionWriter<'h> {
    /// Validates the key, takes the session's lock and finds its open episode.
    pub fn lock(home: &'h Home, session: &str) -> Result<SessionWriter<'h>> {
        session_dir(home, session)?;
        let lock = home.store.lock(&format!("episodes-{session}"))?;
        let mut writer = SessionWriter {
            home,
            session: session.to_string(),
            lock,
            open: None,
            cap: home.store.max_item_bytes(),
            own: home.home_id()?,
        };
        // Each home keeps at most one open episode per session; others that
        // arrived by sync belong to their homes. With several of this home's
        // open (hand-made), the newest takes the appends.
        if let Some(ep) = episodes_where(home, session, |open| open)?
            .into_iter()
            .rev()
            .find(|e| e.owned_by(writer.own.as_deref()))
        {
            writer.open = Some(writer.inspect(ep)?);
        }
        Ok(writer)
    }

    fn inspect(&self, ep: EpisodeFile) -> Result<OpenEpisode> {
        let bytes = std::fs::metadata(&ep.path)
            .map_err(|e| Error::io("read", &ep.path, &e))?
            .len();
        let mut last = tail_seqs(&ep, 8)?.into_iter().max();
        if last.is_none() && bytes > 0 {
            last = read(&ep)?.turns.iter().map(|t| t.seq).max();
        }
        Ok(OpenEpisode {
            ep,
            next_seq: last.map_or(Some(1), |s| s.checked_add(1)),
            bytes,
        })
    }

    /// Creates a new episode file (open or closed) with an id unique across
    /// the home, holding the id lock until the file exists. `lines` builds the
    /// file's lines once the episode (and so its id) is known.
    fn create(
        &self,
        first_ts: &str,
        open: bool,
        lines: impl FnOnce(&EpisodeFile) -> Result<Vec<Value>>,
    ) -> Result<EpisodeFile> {
        let dir = session_dir(self.home, &self.session)?;
        self.home.store.ensure_dir(&dir)?;
        let home_id = self.home.mint_home_id()?;
        let id_lock = self.home.store.lock(ID_LOCK)?;
        let stamp = compact_stamp(first_ts);
        let in_folder = |base: &std::path::Path, n: u64| {
            let id = mint_id(&stamp, &home_id, n);
            base.join(file_name(&id, true)).exists() || base.join(file_name(&id, false)).exists()
        };
        // The lock's note holds the latest second this home id minted an
        // id in and the last counter used then (`Minted`). A later second
        // has no id of this home yet, the same one continues after the
        // counter: only this session's folder is checked, for safety.
        // Without a note of this home id, or when the clock went back, every
        // session's folder is (a stat per session and probe: 20,000 in a
        // home of 5,000 sessions).
        let minted = Minted::parse(&id_lock.note()).filter(|m| m.home == home_id);
        let n = match &minted {
            Some(m) if m.stamp < stamp => first_free(1, |n| in_folder(&dir, n)),
            Some(m) if m.stamp == stamp => first_free(m.n + 1, |n| in_folder(&dir, n)),
            _ => {
                let sessions = sessions(self.home)?;
                let base = self.home.root.join(EPISODES_DIR);
                first_free(1, |n| sessions.iter().any(|s| in_folder(&base.join(s), n)))
            }
        };
        if minted.as_ref().is_none_or(|m| m.stamp <= stamp) {
            let note = Minted {
                home: home_id.clone(),
                stamp: stamp.clone(),
                n,
            };
            id_lock.set_note(&note.to_string())?;
        }
        let id = mint_id(&stamp, &home_id, n);
        let ep = EpisodeFile::new(self.home, &self.session, &id, open)?;
        let values = lines(&ep)?;
        if open {
            self.home
                .store
                .append_jsonl_held(&self.lock, &ep.path, &values)?;
        } else {
            self.home.store.write_jsonl(&ep.path, &values)?;
        }
        Ok(ep)
    }

    /// A draft as its stored line, redacted, placed at `seq` in `ep_id`:
    /// placing it elsewhere changes only its ids (see [`relabel`]).
    fn render(&self, draft: &Draft, ep_id: &str, seq: u64) -> Result<Redacted> {
        let turn = Turn {
            schema: TURN_SCHEMA.to_string(),
            id: format!("{ep_id}#{seq}"),
            session: self.session.clone(),
            episode: ep_id.to_string(),
            seq,
            ts: draft.ts.clone(),
            role: draft.role.clone(),
            content: draft.content.clone(),
            tool_calls: draft.tool_calls.clone(),
            tool_call_id: draft.tool_call_id.clone(),
            source: draft.source.clone(),
            meta: draft.meta.clone(),
        };
        let value = serde_json::to_value(&turn).map_err(|e| Error::internal(e.to_string()))?;
        Ok(self.home.store.redacted(value))
    }

    /// Places drafts in the episode `ep`, starting at `seq`; returns the
    /// redacted turns and their lines.
    fn place(&self, ep_id: &str, seq: u64, draft: &Draft) -> Result<(Turn, Value, u64)> {
        let mut value = self.render(draft, ep_id, seq)?;
        let len = line_len(&mut value)?;
        let turn: Turn = serde_json::from_value(value.value().clone())
            .map_err(|e| Error::internal(e.to_string()))?;
        Ok((turn, value.into_value(), len))
    }

    /// Each draft as its stored line, redacted once, placed under the
    /// longest plausible id (see [`SessionWriter::append`]); a turn too big
    /// for any episode fails the call before a file is created.
    pub fn render_batch(&self, now: &str, drafts: &[Draft]) -> Result<Vec<Redacted>> {
        let mut rendered = Vec::with_capacity(drafts.len());
        let probe = probe_id(now);
        for (i, draft) in drafts.iter().enumerate() {
            let mut value = self.render(draft, &probe, u64::from(u32::MAX))?;
            let len = line_len(&mut value)?;
            if len > self.cap {
                return Err(over_limit(
                    format!("messages[{i}] takes {len} bytes as a stored turn"),
                    "max_item_bytes",
                    len,
                    self.cap,
                )
                .with_hint("shorten it, or raise limits.max_item_bytes in the home's config.json")
                .with_detail("field", format!("messages[{i}]")));
            }
            rendered.push(value);
        }
        Ok(rendered)
    }

    /// Appends drafts rendered by [`SessionWriter::render_batch`] to the
    /// open episode (creating one when there is none). An episode never
    /// grows past the item cap: when the next turn would not fit, the
    /// episode is closed and the turn starts a new one; a batch that fits
    /// in one episode is never split ([`SessionWriter::close_unless_batch_fits`]).
    /// Every written turn is indexed before this returns.
    ///
    /// A new episode's id takes `now` (the save time), not the time its first
    /// turn was said (a draft's `ts` may be years back): ids must sort in the
    /// order episodes are made, which a retry (reading back across rollovers,
    /// `resume`), evolve's high-water mark and the id lock's note rely on.
    pub fn append(&mut self, now: &str, mut rendered: Vec<Redacted>) -> Result<Vec<Turn>> {
        self.close_unless_batch_fits(&mut rendered)?;
        let mut written = Vec::new();
        let mut batch: Vec<Redacted> = Vec::new();
        let mut batch_bytes = 0u64;
        for mut value in rendered {
            loop {
                if self.open.is_none() {
                    // The id comes from the save time; the file exists from now on.
                    let ep = self.create(now, true, |_| Ok(Vec::new()))?;
                    self.open = Some(OpenEpisode {
                        ep,
                        next_seq: Some(1),
                        bytes: 0,
                    });
                }
                let open = self.open.as_ref().expect("set above");
                // An episode out of sequence numbers is full, as one out of bytes.
                let Some(seq) = open
                    .next_seq
                    .and_then(|n| n.checked_add(batch.len() as u64))
                else {
                    written.extend(self.write_batch(std::mem::take(&mut batch), batch_bytes)?);
                    batch_bytes = 0;
                    self.close()?;
                    continue;
                };
                let len = relabel(&self.home.store, &mut value, &open.ep.id, seq)?;
                let used = open.bytes + batch_bytes;
                if used > 0 && used + len > self.cap {
                    written.extend(self.write_batch(std::mem::take(&mut batch), batch_bytes)?);
                    batch_bytes = 0;
                    self.close()?;
                    continue;
                }
                batch.push(value);
                batch_bytes += len;
                break;
            }
        }
        written.extend(self.write_batch(batch, batch_bytes)?);
        Ok(written)
    }

    fn write_batch(&mut self, values: Vec<Redacted>, bytes: u64) -> Result<Vec<Turn>> {
        if values.is_empty() {
            return Ok(Vec::new());
        }
        let open = self
            .open
            .as_mut()
            .expect("a batch always has an open episode");
        let before = std::fs::metadata(&open.ep.path).map_or(0, |m| m.len());
        self.home
            .store
            .append_redacted_held(&self.lock, &open.ep.path, &values)?;
        open.next_seq = open
            .next_seq
            .and_then(|n| n.checked_add(values.len() as u64));
        open.bytes += bytes;
        let turns = values
            .into_iter()
            .map(|value| serde_json::from_value(value.into_value()))
            .collect::<serde_json::Result<Vec<Turn>>>()
            .map_err(|e| Error::internal(e.to_string()))?;
        let rel = open.ep.rel();
        search::index_appended(self.home, &rel, before, docs_for(&rel, &turns));
        Ok(turns)
    }

    /// Closes this home's open episode (`<id>.open.jsonl` → `<id>.jsonl`) and
    /// moves its index entries to the new path. `None` when nothing was open.
    pub fn close(&mut self) -> Result<Option<EpisodeFile>> {
        let Some(open) = self.open.take() else {
            return Ok(None);
        };
        let closed = EpisodeFile::new(self.home, &self.session, &open.ep.id, false)?;
        self.home.store.rename_new(&open.ep.path, &closed.path)?;
        // The turns are indexed already: only their file's name changes
        // (read again only when the index did not hold the whole file). A
        // closed file is never written again, so this may run later.
        let (from, file) = (open.ep.rel(), closed.clone());
        search::index_later(self.home, move |index| {
            index.rename_source(&from, &file.rel(), || {
                Ok(docs_for(&file.rel(), &read(&file)?.turns))
            })
        });
        Ok(Some(closed))
    }

    /// Writes drafts as new closed episodes (an import), split so that no file
    /// exceeds the item cap, and indexes them. The open episode is untouched.
    pub fn write_closed(&mut self, drafts: &[Draft]) -> Result<Vec<(EpisodeFile, Vec<Turn>)>> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < drafts.len() {
            // Measure under the longest plausible id, so the real file fits too.
            let probe_id = probe_id(&drafts[start].ts);
            let mut end = start;
            let mut bytes = 0u64;
            while end < drafts.len() {
                let (_, _, len) = self.place(&probe_id, (end - start + 1) as u64, &drafts[end])?;
                if bytes > 0 && bytes + len > self.cap {
                    break;
                }
                bytes += len;
                end += 1;
            }
            let chunk = &drafts[start..end];
            let mut turns = Vec::new();
            let ep = self.create(&chunk[0].ts, false, |ep| {
                let mut values = Vec::new();
                for (i, draft) in chunk.iter().enumerate() {
                    let (turn, value, _) = self.place(&ep.id, i as u64 + 1, draft)?;
                    turns.push(turn);
                    values.push(value);
                }
                Ok(values)
            })?;
            let docs = docs_for(&ep.rel(), &turns);
            search::index_update_or_warn(self.home, |index| index.replace_source(&ep.rel(), &docs));
            out.push((ep, turns));
            start = end;
        }
        Ok(out)
    }

    /// Removes a closed episode and its index entries.
    pub fn remove(&self, ep: &EpisodeFile) -> Result<bool> {
        let removed = self.home.store.remove_file(&ep.path)?;
        search::index_update_or_warn(self.home, |index| index.remove_source(&ep.rel()));
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_file_names_round_trip() {
        assert_eq!(split_file_name("ep-x-1.open.jsonl"), Some(("ep-x-1", true)));
        assert_eq!(split_file_name("ep-x-1.jsonl"), Some(("ep-x-1", false)));
        assert_eq!(split_file_name(".ep-x-1.jsonl.1.2.tmp"), None);
        assert_eq!(
            split_rel("memory/episodes/s1/ep-x-1.open.jsonl"),
            Some(("s1", "ep-x-1", true))
        );
        assert_eq!(
            compact_stamp("2026-01-15T10:30:00+01:00"),
            "20260115T093000Z"
        );
    }

    #[test]
    fn an_id_note_with_a_counter_no_second_reaches_is_refused() {
        let note = format!("k3f9q2 20260115T093000Z {}\n", u64::MAX);
        assert_eq!(Minted::parse(&note), None);
        assert!(Minted::parse("k3f9q2 20260115T093000Z 7\n").is_some());
    }

    proptest::proptest! {
        #[test]
        fn an_id_note_reads_back_and_anything_else_is_none_or_well_formed(
            home in "[a-z0-9]{6}",
            secs in 0i64..4_000_000_000,
            n in 0u64..1 << 32,
            noise in ".{0,40}",
        ) {
            let stamp = compact_stamp(
                &crate::clock::Time::from_second(secs).unwrap().rfc3339(),
            );
            let note = Minted { home, stamp, n };
            proptest::prop_assert_eq!(Minted::parse(&note.to_string()), Some(note));
            if let Some(m) = Minted::parse(&noise) {
                proptest::prop_assert_eq!(Minted::parse(&m.to_string()), Some(m));
            }
        }
    }
}
