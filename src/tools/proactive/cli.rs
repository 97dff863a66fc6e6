//! The clap adapter of `proactive`: arguments in, library call, `Outcome` out.

use super::extract::{self, ExtractOptions};
use super::items::{self, Items, Writer};
use super::{Item, ItemStatus, State, by_due, render, scan, stamp, when};
use crate::clock::{self, DurationFault};
use crate::clock::{Time, days};
use crate::error::{Error, Result};
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::{Args, Parser, Subcommand};
use jiff::SignedDuration;
use serde_json::{Value, json};

/// Foresight and reminders: time-bounded items, and what to bring up before
/// being asked.
///
/// An item has a validity window (--from … --until) and maybe a due time; it
/// is shown by `list`, `due` and memory_mcp's mem_context while it is open
/// (or its snooze is over) and the clock is inside its window. WHEN is an
/// RFC 3339 time, a date, or a phrase such as `friday` or `in 3 days`
/// (resolved in the local time zone). Items live in memory/foresight.jsonl.
#[derive(Debug, Parser)]
#[command(
    name = "proactive",
    subcommand_required = true,
    after_help = "Examples:\n  proactive add \"Send the report to Ana\" --due friday\n  \
                  proactive list\n  proactive due --within 3d\n  proactive snooze f-3a9c --until \"next week\"\n  \
                  proactive done f-3a9c\n  proactive scan"
)]
pub(super) struct ProactiveCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Add(AddArgs),
    List(ListArgs),
    Due(DueArgs),
    /// Dismiss items: not needed after all (they are never shown again).
    Dismiss(IdsArgs),
    /// Mark items done (they are never shown again).
    Done(IdsArgs),
    Snooze(SnoozeArgs),
    Scan(ScanArgs),
    Extract(ExtractArgs),
}

/// Add an item.
///
/// The window opens at --from (default: now) and closes at --until
/// (default: the due time when --due is given, else 7 days after it opens).
/// A day-sized WHEN ("friday") opens at the start of that day and closes or
/// falls due at its end.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  proactive add \"Send the report to Ana\" --due friday\n  \
                        proactive add \"Renew the TLS certificate\" --from 2026-03-01 --until 2026-03-15 --tag ops\n  \
                        proactive add \"Demo for the board\" --due \"in 3 days\" --tag demo --tag board"
)]
struct AddArgs {
    /// What to bring up
    text: String,
    /// When the item becomes valid (default: now)
    #[arg(long, value_name = "WHEN")]
    from: Option<String>,
    /// When it stops being valid (default: --due, else 7 days after --from)
    #[arg(long, value_name = "WHEN")]
    until: Option<String>,
    /// When it is due
    #[arg(long, value_name = "WHEN")]
    due: Option<String>,
    /// A tag (repeat for more)
    #[arg(long = "tag", value_name = "T")]
    tags: Vec<String>,
}

/// List items: open and snoozed ones (not expired, dismissed or done).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  proactive list\n  proactive list --all --format json\n  \
                        proactive list --limit 25 --offset 25"
)]
struct ListArgs {
    /// Every item, whatever its state
    #[arg(long)]
    all: bool,
    /// At most N items (a page; meta.matched says how many there are)
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Skip the first N items (with --limit: the next page)
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
}

/// Items to act on: due soon, or valid without a due time.
///
/// Lists the items valid at --at (default: now) whose due time is at most
/// --within (default: 1d) after it; items without a due time are listed
/// while they are valid.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  proactive due\n  proactive due --within 3d\n  \
                        proactive due --at tomorrow --within 12h"
)]
struct DueArgs {
    /// The instant to look from (default: now)
    #[arg(long, value_name = "WHEN")]
    at: Option<String>,
    /// How far ahead: N and a unit, m h d or w (default: 1d)
    #[arg(long, value_name = "DURATION")]
    within: Option<String>,
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  proactive done f-3a9c1b7e04d2\n  proactive dismiss 3a9c 77aa")]
struct IdsArgs {
    /// Item ids (f-… or fx_…), or unique prefixes
    #[arg(value_name = "ID", required = true)]
    ids: Vec<String>,
}

/// Hide an item until WHEN; it comes back then.
///
/// When the snooze ends after the item's window, the window is moved on to
/// close one day after the snooze ends.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  proactive snooze f-3a9c --until tomorrow\n  \
                        proactive snooze 3a9c --until 2026-02-01T09:00:00Z"
)]
struct SnoozeArgs {
    /// Item id (f-… or fx_…), or a unique prefix
    id: String,
    /// When the item comes back
    #[arg(long, value_name = "WHEN")]
    until: String,
}

/// Suggestions from the home, each with the command that resolves it.
///
/// In-progress plan steps untouched for --stale-days days, unscreened or
/// changed skills, items that expire within 24 hours, and whatever else the
/// installed tools bring up.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  proactive scan\n  proactive scan --stale-days 7 --format json"
)]
struct ScanArgs {
    /// An in-progress plan step untouched this many days is stale (default:
    /// config proactive.stale_days, 3)
    #[arg(long, value_name = "N")]
    stale_days: Option<u64>,
}

/// Foresight from recent episodes: commitments and deadlines become items.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  proactive extract\n  proactive extract --since 2026-11-01 --session ci"
)]
struct ExtractArgs {
    /// Episodes since DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default:
    /// after the last extraction)
    #[arg(long, value_name = "DATE|last")]
    since: Option<String>,
    /// Only these sessions (repeatable)
    #[arg(long = "session", value_name = "KEY")]
    sessions: Vec<String>,
}

pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let cli = crate::tools::parse_args::<ProactiveCli>(matches)?;
    match cli.verb {
        Verb::Add(args) => add(ctx, args),
        Verb::List(args) => list(ctx, args),
        Verb::Due(args) => due(ctx, args),
        Verb::Dismiss(args) => close(ctx, args, ItemStatus::Dismissed),
        Verb::Done(args) => close(ctx, args, ItemStatus::Done),
        Verb::Snooze(args) => snooze(ctx, args),
        Verb::Scan(args) => scan::run(ctx, args.stale_days),
        Verb::Extract(args) => extract::run(
            ctx,
            &ExtractOptions {
                since: args.since,
                sessions: args.sessions,
            },
        ),
    }
}

/// Resolves a WHEN flag, naming the flag in the error.
fn resolve(flag: &str, input: &str, now: Time) -> Result<when::When> {
    when::resolve(input, now).map_err(|e| {
        let hint = if e.hint.is_empty() {
            "use an RFC 3339 time (2026-01-31T09:00:00Z), a date (2026-01-31) or a phrase (friday, in 3 days)".to_string()
        } else {
            e.hint.clone()
        };
        Error::invalid_args(format!("{flag}: {}", e.message))
            .with_hint(hint)
            .with_detail("flag", flag)
            .with_detail("value", input)
    })
}

fn check_text(text: &str) -> Result<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::invalid_args("an item's text cannot be empty")
            .with_hint("say what to bring up: proactive add \"Send the report\" --due friday"));
    }
    if let Some(c) = text.chars().find(|c| c.is_control() && !c.is_whitespace()) {
        return Err(Error::invalid_args(format!(
            "an item's text cannot hold the control character U+{:04X}",
            c as u32
        ))
        .with_hint("write the text as plain words; line breaks and tabs are fine"));
    }
    Ok(text.to_string())
}

fn check_tags(tags: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for tag in tags {
        let tag = tag.trim().trim_start_matches('#');
        if tag.is_empty()
            || tag.chars().count() > 64
            || tag
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == ',')
        {
            return Err(Error::invalid_args(format!("{tag:?} is not a valid tag"))
                .with_hint("a tag is 1-64 characters without spaces or commas (--tag ops)")
                .with_detail("tag", tag));
        }
        // A set, so thousands of `--tag`s cost no quadratic scan.
        if seen.insert(tag) {
            out.push(tag.to_string());
        }
    }
    if out.len() > super::MAX_TAGS {
        return Err(Error::invalid_args(format!(
            "{} tags given, over the {} an item can hold",
            out.len(),
            super::MAX_TAGS
        ))
        .with_hint(format!(
            "keep at most {} tags (--tag ops --tag billing); say the rest in the text",
            super::MAX_TAGS
        ))
        .with_limit("item_tags", out.len() as u64, super::MAX_TAGS as u64));
    }
    Ok(out)
}

fn add(ctx: &Ctx, args: AddArgs) -> Result<Outcome> {
    let home = ctx.home()?;
    let now = ctx.clock.now();
    let text = check_text(&args.text)?;
    let observed = text.len() as u64;
    if observed > super::MAX_TEXT_BYTES {
        return Err(Error::invalid_args(format!(
            "the item's text is {observed} bytes, over the {} a reminder can hold",
            super::MAX_TEXT_BYTES
        ))
        .with_hint(
            "say what to do in a line or two; keep the details in a note \
             (knowledge add) and name it in the item",
        )
        .with_limit("item_text_bytes", observed, super::MAX_TEXT_BYTES));
    }
    crate::store::check_size(
        "the item's text",
        text.len() as u64,
        home.store.max_item_bytes(),
    )?;
    let tags = check_tags(&args.tags)?;
    let from = match &args.from {
        Some(input) => resolve("--from", input, now)?.start,
        None => now,
    };
    let due = match &args.due {
        Some(input) => Some(resolve("--due", input, now)?.end),
        None => None,
    };
    let until = match (&args.until, due) {
        (Some(input), _) => resolve("--until", input, now)?.end,
        (None, Some(due)) => due,
        (None, None) => from + days(7),
    };
    if until < from {
        return Err(Error::invalid_args(format!(
            "the window would close ({}) before it opens ({})",
            stamp(until),
            stamp(from)
        ))
        .with_hint(if args.until.is_none() && due.is_some() {
            // The window closes at the due time: that is what to fix.
            "the window closes at the --due time: give a --due after --from \
             (or after now, without --from), or an earlier --from"
        } else {
            "give an --until after --from (or after now, without --from)"
        })
        .with_detail("valid_from", stamp(from))
        .with_detail("valid_until", stamp(until)));
    }
    if let Some(due) = due
        && (due < from || due > until)
    {
        return Err(Error::invalid_args(format!(
            "the due time ({}) is outside the window ({} – {})",
            stamp(due),
            stamp(from),
            stamp(until)
        ))
        .with_hint("give a --due between --from and --until (or leave --until out: it defaults to the due time)")
        .with_detail("due", stamp(due)));
    }
    let stamp_now = ctx.clock.stamp();
    // The id is drawn and appended under the lock, so that it is new.
    let writer = Writer::lock(home)?;
    let item = Item {
        id: items::new_id(&writer.read()?),
        text,
        valid_from: stamp(from),
        valid_until: stamp(until),
        due: due.map(stamp),
        source: "cli".to_string(),
        created: stamp_now.clone(),
        updated: stamp_now,
        status: ItemStatus::Open,
        snoozed_until: None,
        tags,
    };
    writer.append(std::slice::from_ref(&item))?;
    drop(writer);
    let s = ctx.style;
    let text = format!(
        "{} {}\n{}",
        s.green("Added"),
        item.id,
        render::item_block(&item, now, s)
    );
    let mut outcome = Outcome::new(json!({ "item": item.to_json(now) }), text);
    if until < now {
        outcome = outcome.with_warning(format!(
            "{} has already expired (its window closed {})",
            item.id,
            render::relative(until, now)
        ));
    }
    Ok(outcome)
}

fn list(ctx: &Ctx, args: ListArgs) -> Result<Outcome> {
    let home = ctx.home()?;
    let now = ctx.clock.now();
    let all = items::read(home)?;
    let mut shown: Vec<&Item> = all
        .items
        .iter()
        .filter(|i| {
            args.all
                || matches!(
                    i.state(now),
                    State::Valid | State::Upcoming | State::Snoozed
                )
        })
        .collect();
    // Open items first (due soonest first), then the closed ones.
    let closed = |i: &Item| {
        !matches!(
            i.state(now),
            State::Valid | State::Upcoming | State::Snoozed
        )
    };
    shown.sort_by(|a, b| closed(a).cmp(&closed(b)).then_with(|| by_due(a, b)));
    let matched = shown.len();
    let shown: Vec<&Item> = shown
        .into_iter()
        .skip(args.offset)
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    let s = ctx.style;
    let mut text = String::new();
    if shown.is_empty() {
        text.push_str(if all.items.is_empty() {
            "No items yet. Add one: proactive add \"Send the report\" --due friday\n"
        } else {
            "No open items (proactive list --all shows the others).\n"
        });
    }
    for item in &shown {
        text.push_str(&render::item_block(item, now, s));
    }
    let hidden = all.items.len() - matched;
    if matched > shown.len() && !shown.is_empty() {
        text.push_str(&format!(
            "{}\n",
            s.dim(&format!(
                "(items {}–{} of {matched}: --offset and --limit page through them)",
                args.offset + 1,
                args.offset + shown.len()
            ))
        ));
    }
    if hidden > 0 && !shown.is_empty() {
        text.push_str(&format!(
            "{}\n",
            s.dim(&format!(
                "({hidden} expired, dismissed or done: proactive list --all)"
            ))
        ));
    }
    Ok(Outcome::new(
        json!({ "items": shown.iter().map(|i| i.to_json(now)).collect::<Vec<_>>() }),
        text,
    )
    .with_meta("count", shown.len())
    .with_meta("matched", matched)
    .with_meta("total", all.items.len()))
}

/// A DURATION ([`clock::parse_duration`]: `90m`, `2h`, `3d`, `1w`), at
/// most 100 years (counted in whole days).
pub fn parse_duration(input: &str) -> Result<SignedDuration> {
    let bad = || {
        Error::invalid_args(format!("{input:?} is not a duration"))
            .with_hint("use a whole number and a unit: 90m, 2h, 3d or 1w")
            .with_detail("value", input)
    };
    let too_long = || bad().with_hint("at most 100 years ahead");
    match clock::parse_duration(input) {
        Ok(d) if d.as_secs() / 86_400 > 100 * 365 => Err(too_long()),
        Ok(d) => Ok(d),
        Err(DurationFault::OutOfRange) => Err(too_long()),
        Err(DurationFault::Malformed) => Err(bad()),
    }
}

fn due(ctx: &Ctx, args: DueArgs) -> Result<Outcome> {
    let home = ctx.home()?;
    let now = ctx.clock.now();
    let at = match &args.at {
        Some(input) => resolve("--at", input, now)?.start,
        None => now,
    };
    let within = match &args.within {
        Some(input) => parse_duration(input)?,
        None => days(1),
    };
    // A look-ahead past year 9999 ends at its last second (no item can be
    // due later), so `until` stays RFC 3339.
    let horizon = super::clamp(at + within);
    let all = items::read(home)?;
    let mut shown: Vec<&Item> = all
        .items
        .iter()
        .filter(|i| i.is_valid(at) && i.due_at().is_none_or(|due| due <= horizon))
        .collect();
    shown.sort_by(|a, b| by_due(a, b));
    let s = ctx.style;
    let mut text = String::new();
    if shown.is_empty() {
        text.push_str(&format!("Nothing due by {}.\n", render::absolute(horizon)));
    } else {
        text.push_str(&format!(
            "Due by {} ({}):\n",
            render::absolute(horizon),
            render::relative(horizon, now)
        ));
    }
    for item in &shown {
        text.push_str(&render::item_block(item, at, s));
    }
    Ok(Outcome::new(
        json!({
            "items": shown.iter().map(|i| i.to_json(at)).collect::<Vec<_>>(),
            "at": stamp(at),
            "until": stamp(horizon),
        }),
        text,
    )
    .with_meta("count", shown.len()))
}

/// The next state of `item`: `updated` is now, or — when the item's last
/// state is dated later (another clock) — that same time, so the new line
/// still wins (ties go to the later line).
fn next_state(item: &Item, now: &str) -> Item {
    let mut next = item.clone();
    next.updated = if item.updated_at() > super::parse_time(now).unwrap_or(item.updated_at()) {
        item.updated.clone()
    } else {
        now.to_string()
    };
    next
}

/// Resolves every id first: one unknown id changes nothing.
fn find_all<'a>(items: &'a Items, ids: &[String]) -> Result<Vec<&'a Item>> {
    let mut found: Vec<&Item> = Vec::new();
    for id in ids {
        let item = items.find(id)?;
        if !found.iter().any(|f| f.id == item.id) {
            found.push(item);
        }
    }
    Ok(found)
}

fn close(ctx: &Ctx, args: IdsArgs, status: ItemStatus) -> Result<Outcome> {
    let home = ctx.home()?;
    let now = ctx.clock.now();
    let stamp_now = ctx.clock.stamp();
    let writer = Writer::lock(home)?;
    let items = writer.read()?;
    let found = find_all(&items, &args.ids)?;
    let mut changed = Vec::new();
    let mut unchanged = Vec::new();
    for item in found {
        if item.status == status {
            unchanged.push(item.clone());
        } else {
            let mut next = next_state(item, &stamp_now);
            next.status = status;
            next.snoozed_until = None;
            changed.push(next);
        }
    }
    writer.append(&changed)?;
    drop(writer);
    let s = ctx.style;
    let verb = match status {
        ItemStatus::Done => s.green("Done"),
        _ => s.yellow("Dismissed"),
    };
    let mut text = String::new();
    for item in &changed {
        text.push_str(&format!(
            "{verb} {}  {}\n",
            s.bold(&item.id),
            render::one_line(&item.text)
        ));
    }
    for item in &unchanged {
        text.push_str(&format!(
            "{}\n",
            s.dim(&format!("{} was already {}", item.id, status.as_str()))
        ));
    }
    let ids = |list: &[Item]| list.iter().map(|i| i.id.clone()).collect::<Vec<_>>();
    Ok(Outcome::new(
        json!({
            "status": status.as_str(),
            "changed": ids(&changed),
            "unchanged": ids(&unchanged),
            "items": changed.iter().chain(&unchanged).map(|i| i.to_json(now)).collect::<Vec<Value>>(),
        }),
        text,
    )
    .with_meta("count", changed.len()))
}

fn snooze(ctx: &Ctx, args: SnoozeArgs) -> Result<Outcome> {
    let home = ctx.home()?;
    let now = ctx.clock.now();
    let until = resolve("--until", &args.until, now)?.end;
    if until <= now {
        return Err(
            Error::invalid_args(format!("--until {} is not in the future", stamp(until)))
                .with_hint("snooze until a later time: --until tomorrow, --until \"in 3 days\"")
                .with_detail("until", stamp(until)),
        );
    }
    let writer = Writer::lock(home)?;
    let items = writer.read()?;
    let item = items.find(&args.id)?;
    if matches!(item.status, ItemStatus::Dismissed | ItemStatus::Done) {
        return Err(Error::conflict(format!(
            "{} is {}; there is nothing to snooze",
            item.id,
            item.status.as_str()
        ))
        .with_hint(format!(
            "add it again if it is still to do: proactive add \"{}\"",
            render::one_line(&item.text)
        ))
        .with_detail("id", item.id.clone())
        .with_detail("status", item.status.as_str()));
    }
    let mut next = next_state(item, &ctx.clock.stamp());
    next.status = ItemStatus::Snoozed;
    next.snoozed_until = Some(stamp(until));
    let moved = until >= next.until_at();
    if moved {
        next.valid_until = stamp(until + days(1));
    }
    writer.append(std::slice::from_ref(&next))?;
    drop(writer);
    let s = ctx.style;
    let mut text = format!(
        "{} {} until {} ({})\n",
        s.yellow("Snoozed"),
        s.bold(&next.id),
        render::absolute(until),
        render::relative(until, now)
    );
    if moved {
        text.push_str(&format!(
            "{}\n",
            s.dim(&format!(
                "its window now closes {}",
                render::absolute(next.until_at())
            ))
        ));
    }
    Ok(Outcome::new(json!({ "item": next.to_json(now) }), text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_a_number_and_a_unit() {
        assert_eq!(
            parse_duration("90m").unwrap(),
            SignedDuration::from_mins(90)
        );
        assert_eq!(parse_duration("2h").unwrap(), SignedDuration::from_hours(2));
        assert_eq!(parse_duration("3d").unwrap(), days(3));
        assert_eq!(parse_duration("1w").unwrap(), days(7));
        assert_eq!(parse_duration(" 0d ").unwrap(), SignedDuration::ZERO);
        for bad in [
            "",
            "d",
            "3",
            "3x",
            "-1d",
            "1.5h",
            "3 d x",
            "99999999999999999999d",
            "10000w",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?} accepted");
        }
    }
}
