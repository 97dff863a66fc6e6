//! How much of a batch of turns a session holds already, for a retry.
//!
//! A batch is appended to the open episode. One that does not fit in the
//! item cap is written in turn to two or more files (the episode rolls over),
//! so a writer killed between them leaves the batch's first turns saved and
//! the rest not; a batch saved whole across a rollover has its first turns
//! in the closed episode. A retry sends the whole batch again: what the
//! session already holds is found here, read back across rollovers, so that
//! only the missing turns are written.
//!
//! Reading back across a file boundary is allowed only where the episode
//! was closed because the next turn did not fit (a rollover), never across
//! a flush: after `track flush` the same words start a new episode, as they
//! always did. A batch's stored part that stops short of the batch likewise
//! ends where the next turn did not fit: that is the only place a save can
//! stop (a batch that fits in one episode is written with one append,
//! [`SessionWriter::append`]).

use super::{EpisodeFile, Redacted, SessionWriter, Turn, line_len, relabel, tail, tail_seqs};
use crate::error::Result;

/// The first turns of a batch that the session holds already.
#[derive(Debug)]
pub struct Stored {
    /// Their ids, in the batch's order (`ids.len()` drafts are stored).
    pub ids: Vec<String>,
    /// The episode holding the last of them.
    pub episode: EpisodeFile,
}

impl SessionWriter<'_> {
    /// The longest start of the batch `drafts` (each rendered: see
    /// [`SessionWriter::rendered`]) that the session's newest turns
    /// written by this home are, `same(stored, i)` comparing a stored turn
    /// with draft `i`. The whole batch is found in the open episode (or,
    /// with `flush`, in the latest closed one when none is open, as a
    /// retried save-and-flush leaves it); a part of it ends where draft
    /// `ids.len()` would not have fitted. Most saves read one line: the
    /// newest turn, which equals none of the drafts.
    pub fn stored_part(
        &self,
        rendered: &[Redacted],
        flush: bool,
        same: impl Fn(&Turn, usize) -> bool,
    ) -> Result<Option<Stored>> {
        let n = rendered.len();
        // The newest episode with turns. An empty open episode is the one a
        // rollover had just created when the writer died.
        let (newest, open) = match self.open.as_ref() {
            Some(o) if o.bytes > 0 => (o.ep.clone(), true),
            // One turn after a flush is never a retry of a part (see above).
            _ if n < 2 && !flush => return Ok(None),
            _ => match self.older_than(None)? {
                Some(ep) => (ep, false),
                None => return Ok(None),
            },
        };
        let Some(Some(last)) = tail(&newest, 1)?.pop() else {
            return Ok(None);
        };
        // Where the stored part may end: the whole batch, or a part whose
        // next draft would not have fitted in `newest`.
        let mut ends = Vec::new();
        for k in (1..=n).rev() {
            let whole_allowed = open || (flush && self.open.is_none());
            if (k == n && !whole_allowed) || !same(&last, k - 1) {
                continue;
            }
            if k < n && self.fits(&newest, Some(last.seq), &rendered[k])? {
                continue;
            }
            ends.push(k);
        }
        for k in ends {
            if let Some(ids) = self.matched(&newest, k, rendered, &same)? {
                return Ok(Some(Stored {
                    ids,
                    episode: newest,
                }));
            }
        }
        Ok(None)
    }

    /// The ids of the stored turns that are drafts `0..k`, read backwards
    /// from the end of `newest` and on into older episodes across
    /// rollovers; `None` when they are not those drafts.
    fn matched(
        &self,
        newest: &EpisodeFile,
        k: usize,
        rendered: &[Redacted],
        same: &impl Fn(&Turn, usize) -> bool,
    ) -> Result<Option<Vec<String>>> {
        let mut ids = Vec::with_capacity(k);
        let mut left = k;
        let mut ep = newest.clone();
        loop {
            let turns = tail(&ep, left)?;
            let whole_file = turns.len() < left;
            for (stored, i) in turns.iter().rev().zip((0..left).rev()) {
                match stored {
                    Some(stored) if same(stored, i) => ids.push(stored.id.clone()),
                    _ => return Ok(None),
                }
            }
            left -= turns.len();
            if left == 0 {
                ids.reverse();
                return Ok(Some(ids));
            }
            // `ep` holds drafts `left..`: it began with draft `left`, which
            // the episode before it must have been too full for.
            debug_assert!(whole_file);
            let Some(older) = self.older_than(Some(&ep))? else {
                return Ok(None);
            };
            if self.fits(&older, None, &rendered[left])? {
                return Ok(None);
            }
            ep = older;
        }
    }

    /// This home's newest closed episode of the session older than `than`
    /// (the newest of all with `None`).
    fn older_than(&self, than: Option<&EpisodeFile>) -> Result<Option<EpisodeFile>> {
        let order = than.map(EpisodeFile::order);
        Ok(super::episodes_of(self.home, &self.session)?
            .into_iter()
            .rev()
            .filter(|e| !e.open && e.owned_by(self.own.as_deref()))
            .find(|e| order.as_ref().is_none_or(|o| e.order() < *o)))
    }

    /// Whether a rendered draft fits after the turns of `ep` (whose last
    /// turn is `seq`, read when not given): what [`SessionWriter::append`]
    /// decided when it wrote there.
    fn fits(&self, ep: &EpisodeFile, seq: Option<u64>, draft: &Redacted) -> Result<bool> {
        let used = std::fs::metadata(&ep.path)
            .map_err(|e| crate::error::Error::io("read", &ep.path, &e))?
            .len();
        let seq = match seq {
            Some(seq) => seq,
            None => tail_seqs(ep, 1)?.pop().unwrap_or(0),
        };
        let mut value = draft.clone();
        let len = relabel(&self.home.store, &mut value, &ep.id, seq.saturating_add(1))?;
        Ok(used == 0 || used + len <= self.cap)
    }

    /// A batch of drafts that fits in one episode but not after the open
    /// episode's turns goes whole into a new one: the open one is closed
    /// first, so the batch is one append, saved whole or not at all. Only a
    /// batch bigger than an episode is split across files (and found again
    /// by [`SessionWriter::stored_part`] when a retry follows a kill).
    pub(super) fn close_unless_batch_fits(&mut self, rendered: &mut [Redacted]) -> Result<()> {
        let Some(open) = self.open.as_ref().filter(|o| o.bytes > 0) else {
            return Ok(());
        };
        let (id, first, used) = (open.ep.id.clone(), open.next_seq, open.bytes);
        // As rendered, under the longest plausible id: what a new episode
        // takes at most.
        let in_new = rendered.iter_mut().map(line_len).sum::<Result<u64>>()?;
        if in_new > self.cap {
            return Ok(());
        }
        let mut in_open = 0;
        for (i, value) in rendered.iter_mut().enumerate() {
            // out of sequence numbers: the batch does not fit either
            let Some(seq) = first.and_then(|n| n.checked_add(i as u64)) else {
                return self.close().map(drop);
            };
            in_open += relabel(&self.home.store, value, &id, seq)?;
        }
        if used + in_open > self.cap {
            self.close()?;
        }
        Ok(())
    }
}
