//! Reading episode files: a whole file, parsed turn by turn, or only its
//! last lines (what a save needs), without reading the rest.

use super::EpisodeFile;
use super::Turn;
use crate::error::{Error, Result};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// A line of an episode file that is not a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Broken {
    pub line: usize,
    pub message: String,
}

/// An episode file, read.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub turns: Vec<Turn>,
    pub broken: Vec<Broken>,
    pub bytes: u64,
}

/// Parses episode text. Lines that are not turns are reported, not fatal: a
/// hand edit or a torn tail must not hide the rest of the episode.
pub fn parse_text(text: &[u8], session: &str, episode: &str) -> Parsed {
    let mut parsed = Parsed {
        bytes: text.len() as u64,
        ..Parsed::default()
    };
    for (i, raw) in text.split(|b| *b == b'\n').enumerate() {
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let line = i + 1;
        let Ok(raw) = std::str::from_utf8(raw) else {
            parsed.broken.push(Broken {
                line,
                message: "not valid UTF-8".to_string(),
            });
            continue;
        };
        match serde_json::from_str::<Turn>(raw) {
            Ok(mut turn) => {
                if turn.session.is_empty() {
                    turn.session = session.to_string();
                }
                if turn.episode.is_empty() {
                    turn.episode = episode.to_string();
                }
                if turn.id.is_empty() {
                    turn.id = format!("{}#{}", turn.episode, turn.seq);
                }
                parsed.turns.push(turn);
            }
            Err(e) => parsed.broken.push(Broken {
                line,
                message: format!("not a turn: {e}"),
            }),
        }
    }
    parsed
}

/// Reads and parses one episode file.
pub fn read(ep: &EpisodeFile) -> Result<Parsed> {
    let bytes = std::fs::read(&ep.path).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            Error::not_found(format!("episode '{}' is gone", ep.id))
                .with_hint(
                    "it was pruned or flushed meanwhile; list the episodes with `track list`",
                )
                .with_detail("id", ep.id.clone())
        } else {
            Error::io("read", &ep.path, &e)
        }
    })?;
    Ok(parse_text(&bytes, &ep.session, &ep.id))
}

/// The last `want` non-empty lines of a file, without reading all of it
/// (nor looking at more of what it read than those lines).
fn tail_lines(path: &Path, want: usize) -> io::Result<Vec<Vec<u8>>> {
    let blank = |line: &[u8]| line.iter().all(u8::is_ascii_whitespace);
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut window: u64 = 16 * 1024;
    loop {
        let start = len.saturating_sub(window);
        file.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::with_capacity((len - start) as usize);
        (&mut file).take(len - start).read_to_end(&mut buf)?;
        // Line by line from the end. The piece before the first newline is
        // a whole line only when the window starts at the file's start.
        let mut lines: Vec<&[u8]> = Vec::new();
        let mut rest = &buf[..];
        while lines.len() < want {
            match rest.iter().rposition(|b| *b == b'\n') {
                Some(newline) => {
                    let line = &rest[newline + 1..];
                    if !blank(line) {
                        lines.push(line);
                    }
                    rest = &rest[..newline];
                }
                None => {
                    if start == 0 && !blank(rest) {
                        lines.push(rest);
                    }
                    break;
                }
            }
        }
        if lines.len() >= want || start == 0 {
            return Ok(lines.iter().rev().map(|l| l.to_vec()).collect());
        }
        window = window.saturating_mul(4);
    }
}

/// The last `want` lines of an episode, each a turn or `None` when broken.
pub fn tail(ep: &EpisodeFile, want: usize) -> Result<Vec<Option<Turn>>> {
    let lines = tail_lines(&ep.path, want).map_err(|e| Error::io("read", &ep.path, &e))?;
    Ok(lines
        .iter()
        .map(|l| {
            std::str::from_utf8(l)
                .ok()
                .and_then(|s| serde_json::from_str::<Turn>(s).ok())
        })
        .collect())
}

/// The `seq` of each of the last `want` lines of an episode that has one:
/// `tail` without building the turns (a save reads these to number its
/// turns; a turn's other fields are skipped, not copied).
pub(super) fn tail_seqs(ep: &EpisodeFile, want: usize) -> Result<Vec<u64>> {
    #[derive(serde::Deserialize)]
    struct Seq {
        seq: u64,
    }
    let lines = tail_lines(&ep.path, want).map_err(|e| Error::io("read", &ep.path, &e))?;
    Ok(lines
        .iter()
        .filter_map(|l| serde_json::from_slice::<Seq>(l).ok())
        .map(|s| s.seq)
        .collect())
}

impl Parsed {
    /// The time of the episode's latest turn (`None` when it has no readable
    /// turn). Not the last line's: turns need not be in time order (history
    /// imported with its own times lands after turns said later).
    pub fn last_ts(&self) -> Option<&str> {
        self.turns.iter().map(|t| t.ts.as_str()).max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_reports_broken_lines_and_keeps_the_rest() {
        let text = b"{\"role\":\"user\",\"content\":\"hi\",\"seq\":1}\n\nnot json\n\xff\xfe\n{\"content\":\"no role\"}\n";
        let parsed = parse_text(text, "s", "ep-1");
        assert_eq!(parsed.turns.len(), 1);
        assert_eq!(parsed.turns[0].id, "ep-1#1");
        assert_eq!(parsed.turns[0].session, "s");
        let lines: Vec<usize> = parsed.broken.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 4, 5]);
    }

    #[test]
    fn tails_read_only_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl");
        let mut text = String::new();
        for i in 0..5000 {
            text.push_str(&format!("line {i} {}\n", "x".repeat(20)));
        }
        std::fs::write(&path, &text).unwrap();
        let lines = tail_lines(&path, 3).unwrap();
        assert_eq!(lines.len(), 3);
        assert!(lines[2].starts_with(b"line 4999 "));
        assert!(lines[0].starts_with(b"line 4997 "));
        let all = tail_lines(&path, 10_000).unwrap();
        assert_eq!(all.len(), 5000);
    }

    mod tails {
        use super::tail_lines;
        use proptest::prelude::*;

        proptest! {
        #[test]
        fn tails_are_the_last_non_blank_lines(
            pieces in prop::collection::vec(
                prop_oneof![
                    "[a-z]{0,40}".prop_map(String::from),
                    Just(" \t".to_string()),
                    Just(String::new()),
                    Just("y".repeat(9000)),
                ],
                0..12,
            ),
            want in 1usize..6,
            trailing in any::<bool>(),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.jsonl");
            let mut text = pieces.join("\n");
            if trailing {
                text.push('\n');
            }
            std::fs::write(&path, &text).unwrap();
            let all: Vec<&str> = text
                .split('\n')
                .filter(|l| !l.bytes().all(|b| b.is_ascii_whitespace()))
                .collect();
            let want_lines: Vec<Vec<u8>> = all[all.len().saturating_sub(want)..]
                .iter()
                .map(|l| l.as_bytes().to_vec())
                .collect();
            prop_assert_eq!(tail_lines(&path, want).unwrap(), want_lines);
        }
        }
    }
}
