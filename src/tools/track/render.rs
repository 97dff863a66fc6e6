//! Text rendering for the `track` verbs: transcripts, tables and one-line
//! reports. The verbs build their `data` first; the text is drawn from it, so
//! both formats always say the same thing.

use super::SaveOutcome;
use super::Turn;
use super::episodes::{EpisodeFile, Parsed};
use crate::output::Style;
use serde_json::{Value, json};

/// `1 turn`, `2 turns`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `ep-…#3` or `ep-…#3–#5`.
pub fn id_range(ids: &[String]) -> String {
    match ids {
        [] => String::new(),
        [one] => one.clone(),
        [first, .., last] => {
            // `ep#1–#3`, or both ids whole when a rollover put them in two episodes.
            let episode = |id: &str| id.rsplit_once('#').map(|(ep, _)| ep.to_string());
            match last.rsplit_once('#') {
                Some((ep, n)) if episode(first).as_deref() == Some(ep) => {
                    format!("{first}–#{n}")
                }
                _ => format!("{first} – {last}"),
            }
        }
    }
}

/// The first non-empty line of `text`, cut to `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
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

/// A string field of a `data` value, or "" when it is not a string.
pub fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// A count field of a `data` value.
fn count_of(v: &Value) -> usize {
    v.as_u64().unwrap_or(0) as usize
}

pub fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / 1024.0),
        n => format!("{n} bytes"),
    }
}

/// What `list` and `show` say about an episode.
pub fn summary(ep: &EpisodeFile, parsed: &Parsed) -> Value {
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

/// What `record` says it saved.
pub fn record_text(s: Style, outcome: &SaveOutcome, session: &str) -> String {
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
        let saved = &outcome.ids[outcome.resumed.min(outcome.ids.len())..];
        let mut text = format!(
            "{} {} to {} (session {}): {}\n",
            s.green("Saved"),
            plural(outcome.saved, "turn"),
            s.bold(&outcome.episode),
            session,
            id_range(saved)
        );
        if outcome.resumed > 0 {
            text.push_str(&format!(
                "{}: the first {} of the batch {} saved already ({})\n",
                s.yellow("Resumed"),
                plural(outcome.resumed, "turn"),
                if outcome.resumed == 1 { "was" } else { "were" },
                id_range(&outcome.ids[..outcome.resumed])
            ));
        }
        text
    };
    if outcome.flushed {
        text.push_str(&format!(
            "{} episode {}\n",
            s.green("Closed"),
            outcome.episode
        ));
    }
    text
}

/// The `list` table: episode summaries, with a hint when some are not shown.
pub fn list_text(
    s: Style,
    rows: &[Value],
    total: usize,
    offset: usize,
    session: Option<&str>,
) -> String {
    if rows.is_empty() && offset > 0 && total > 0 {
        return format!("{total} episode(s) in all: --offset {offset} skips them all\n");
    }
    if rows.is_empty() {
        return match session {
            Some(key) => format!(
                "No episodes in session {key}. Record a turn: track record --session {key} --content \"…\"\n"
            ),
            None => "No episodes yet. Record a turn: track record --content \"…\"\n".to_string(),
        };
    }
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
    let mut text = s.dim(&format!(
        "{:<idw$}  {:<sw$}  {:<6}  {:>5}  {:<20}  {}",
        "EPISODE", "SESSION", "STATE", "TURNS", "LAST", "TITLE"
    ));
    text.push('\n');
    for r in rows {
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
    let after = total.saturating_sub(offset + rows.len());
    if after > 0 {
        text.push_str(&s.dim(&format!(
            "… {after} more (--offset {} shows the next, --limit 0 all)\n",
            offset + rows.len()
        )));
    }
    text
}

/// An episode as a transcript (`show`), its unreadable lines last.
pub fn show_text(s: Style, ep: &EpisodeFile, view: &Value, parsed: &Parsed) -> String {
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
    // Times of the first turn's day go without their date; turns said on
    // other days (imported history, in any order) show it.
    let day = str_of(&view["first_ts"])
        .split_once('T')
        .map(|(d, _)| d.to_string());
    for turn in &parsed.turns {
        text.push_str(&render_turn(turn, day.as_deref(), s));
    }
    for b in &parsed.broken {
        text.push_str(&format!(
            "{} line {}: {}\n",
            s.red("unreadable"),
            b.line,
            b.message
        ));
    }
    text
}

/// One turn of a transcript: its time alone when it was said on `day`
/// (`YYYY-MM-DD`), else with its date.
pub fn render_turn(turn: &Turn, day: Option<&str>, s: Style) -> String {
    let time = match turn.ts.split_once('T') {
        Some((date, time)) if Some(date) == day => time,
        _ => turn.ts.as_str(),
    };
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

/// The `stats` summary, drawn from its `data`.
pub fn stats_text(s: Style, data: &Value) -> String {
    let episodes = &data["episodes"];
    let mut text = format!(
        "{} in {} · {} ({} open, {} closed) · {} · {}\n",
        s.bold(&plural(count_of(&data["turns"]["total"]), "turn")),
        plural(count_of(&data["sessions"]), "session"),
        plural(count_of(&episodes["total"]), "episode"),
        count_of(&episodes["open"]),
        count_of(&episodes["closed"]),
        plural(count_of(&data["tool_calls"]["total"]), "tool call"),
        human_bytes(data["bytes"].as_u64().unwrap_or(0))
    );
    if let (Some(f), Some(l)) = (data["first_ts"].as_str(), data["last_ts"].as_str()) {
        text.push_str(&format!("  from {f} to {l}\n"));
    }
    let counts = |v: &Value| -> Vec<(String, usize)> {
        v.as_object()
            .into_iter()
            .flatten()
            .map(|(k, n)| (k.clone(), count_of(n)))
            .collect()
    };
    let roles: Vec<String> = counts(&data["turns"]["by_role"])
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    text.push_str(&format!("  by role: {}\n", roles.join(", ")));
    let mut tools = counts(&data["tool_calls"]["by_name"]);
    if !tools.is_empty() {
        tools.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let tools: Vec<String> = tools
            .iter()
            .take(10)
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        text.push_str(&format!("  tool calls: {}\n", tools.join(", ")));
    }
    let broken = count_of(&data["broken_lines"]);
    if broken > 0 {
        text.push_str(&format!("  {} {}\n", s.red("unreadable lines:"), broken));
    }
    text
}

/// What `prune` removed (or would remove), drawn from its `data`.
pub fn prune_text(s: Style, data: &Value) -> String {
    let cut = str_of(&data["cutoff"]);
    let dry_run = data["dry_run"].as_bool().unwrap_or(false);
    let removed = data["removed"].as_array().map_or(&[][..], Vec::as_slice);
    let verb = if dry_run { "Would remove" } else { "Removed" };
    let mut text = if removed.is_empty() {
        format!("Nothing to prune: no closed episode ended before {cut}\n")
    } else {
        format!(
            "{} {} that ended before {cut}:\n",
            s.yellow(verb),
            plural(removed.len(), "episode")
        )
    };
    for r in removed {
        text.push_str(&format!(
            "  {}  {}  {}  {}\n",
            str_of(&r["id"]),
            str_of(&r["session"]),
            str_of(&r["last_ts"]),
            plural(count_of(&r["turns"]), "turn")
        ));
    }
    if dry_run && !removed.is_empty() {
        text.push_str(&s.dim("(dry run: nothing was removed)\n"));
    }
    text
}

/// One line per imported or skipped run.
pub fn import_text(s: Style, imported: &[Value], skipped: &[Value]) -> String {
    let mut out = String::new();
    for r in imported {
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
            plural(count_of(&r["turns"]), "turn"),
            plural(count_of(&r["tool_calls"]), "tool call"),
            r["failed"],
            r["unfinished"],
            plural(count_of(&r["budget_stops"]), "budget stop"),
        ));
    }
    for r in skipped {
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
    out
}

/// `track activity`: the window's total, then one line per session with
/// its turns and a bar per day (`▁`…`█`, scaled to the busiest day of
/// all; `·` a day without a turn).
pub fn activity_text(s: Style, data: &Value) -> String {
    let total = &data["total"];
    let mut text = format!(
        "{} from {} to {} ({} in {} in all)\n",
        s.bold(&plural(count_of(&data["turns"]), "turn")),
        str_of(&data["from"]),
        str_of(&data["to"]),
        plural(count_of(&total["turns"]), "turn"),
        plural(count_of(&total["sessions"]), "session"),
    );
    let mut rows: Vec<(String, &Value, &Value)> = data["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let name = r["session"].as_str().unwrap_or("(no session)").to_string();
            (name, &r["turns"], &r["by_day"])
        })
        .collect();
    let others = &data["others"];
    if count_of(&others["sessions"]) > 0 {
        let label = format!("{} more", plural(count_of(&others["sessions"]), "session"));
        rows.push((label, &others["turns"], &others["by_day"]));
    }
    let top = rows
        .iter()
        .flat_map(|(_, _, days)| days.as_array().into_iter().flatten())
        .map(count_of)
        .max()
        .unwrap_or(0)
        .max(1);
    let width = rows
        .iter()
        .map(|(n, _, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    for (name, turns, days) in &rows {
        let bars: String = days
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| match count_of(n) {
                0 => '·',
                n => BARS[((n * 8).div_ceil(top)).clamp(1, 8) - 1],
            })
            .collect();
        text.push_str(&format!(
            "  {name:<width$}  {:>7}  {bars}\n",
            count_of(turns)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_ranges_and_lines_read_naturally() {
        assert_eq!(plural(1, "turn"), "1 turn");
        assert_eq!(plural(0, "turn"), "0 turns");
        assert_eq!(id_range(&["e#1".into()]), "e#1");
        assert_eq!(
            id_range(&["e#1".into(), "e#2".into(), "e#5".into()]),
            "e#1–#5"
        );
        assert_eq!(id_range(&["d#7".into(), "e#1".into()]), "d#7 – e#1");
        assert_eq!(one_line("\n  first  \nsecond", 80), "first");
        assert_eq!(one_line("abcdef", 4), "abc…");
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
    }
}
