//! Charts as inline SVG, drawn here: stacked bars over days, a timeline. Labels are inert text;
//! colours come from the stylesheet (classes), so light and dark both read.

use super::html::inert;
use std::fmt::Write;

/// The most series [`stacked`] colours apart (`s0`…`s7`); a further one
/// (the rest summed) is drawn as `rest`.
pub const SERIES: usize = 8;

/// Stacked bars: one column per label of `days`, each `series` (a name and
/// one value per day) a band of its own class (`s0`…`s7`, the ninth and
/// later `rest`), `title` for screen readers and a `<title>` on every band
/// (`session · day: n`) for a pointer or a screen reader's table walk.
/// The legend is the caller's (HTML, beside it).
pub fn stacked(title: &str, days: &[String], series: &[(String, Vec<u64>)]) -> String {
    let width = 720.0_f64;
    let height = 160.0_f64;
    let totals: Vec<u64> = (0..days.len())
        .map(|d| {
            series
                .iter()
                .map(|(_, v)| v.get(d).copied().unwrap_or(0))
                .sum()
        })
        .collect();
    let top = totals.iter().copied().max().unwrap_or(0).max(1) as f64;
    let n = days.len().max(1) as f64;
    let slot = width / n;
    let mut out = format!(
        "<svg class=\"chart stacked\" viewBox=\"0 0 {width} {h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        h = height + 20.0,
        t = inert(title)
    );
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"0\" y1=\"{height}\" x2=\"{width}\" y2=\"{height}\"/>"
    );
    for (d, day) in days.iter().enumerate() {
        let x = d as f64 * slot + slot * 0.1;
        let mut y = height;
        for (i, (name, values)) in series.iter().enumerate() {
            let value = values.get(d).copied().unwrap_or(0);
            if value == 0 {
                continue;
            }
            let h = (value as f64 / top) * (height - 10.0);
            y -= h;
            let class = if i < SERIES {
                format!("band s{i}")
            } else {
                "band rest".to_string()
            };
            let _ = write!(
                out,
                "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{h:.1}\"><title>{} · {}: {value}</title></rect>",
                slot * 0.8,
                inert(name),
                inert(day)
            );
        }
        if totals[d] == 0 {
            continue;
        }
        let _ = write!(
            out,
            "<text class=\"total\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x + slot * 0.4,
            (y - 2.0).max(9.0),
            totals[d]
        );
    }
    if let (Some(first), Some(last)) = (days.first(), days.last()) {
        let _ = write!(
            out,
            "<text x=\"0\" y=\"{y}\">{}</text><text x=\"{width}\" y=\"{y}\" text-anchor=\"end\">{}</text>",
            inert(first),
            inert(last),
            y = height + 15.0
        );
    }
    out.push_str("</svg>");
    out
}

/// One row of a [`timeline`]: a window from `start` to `end` (Unix
/// seconds), maybe a due time, a label, and a class for its colour
/// (`valid`, `upcoming`, `snoozed`, `expired` …).
#[derive(Debug, Clone)]
pub struct Span {
    pub label: String,
    pub start: i64,
    pub end: i64,
    pub due: Option<i64>,
    pub class: &'static str,
}

/// The most rows a timeline draws (the list under it has every item).
pub const MAX_ROWS: usize = 30;

/// A timeline: one row per span (its window as a bar, its due time as a
/// dot), a line at `now`, dates at both ends. The axis runs from a day
/// before the earliest start to a day after the latest end or due time,
/// kept within 30 days before `now` and 120 days after it (longer windows
/// run off the edge). `title` is for screen readers; each row is
/// focusable and titled.
pub fn timeline(title: &str, now: i64, spans: &[Span]) -> String {
    const DAY: i64 = 86_400;
    let label_w = 230.0_f64;
    let width = 720.0_f64;
    let row_h = 22.0_f64;
    let spans = &spans[..spans.len().min(MAX_ROWS)];
    let earliest = spans.iter().map(|s| s.start).min().unwrap_or(now).min(now);
    let latest = spans
        .iter()
        .map(|s| s.end.max(s.due.unwrap_or(s.end)))
        .max()
        .unwrap_or(now)
        .max(now);
    let from = (earliest - DAY).max(now - 30 * DAY);
    let to = (latest + DAY).min(now + 120 * DAY).max(from + DAY);
    let plot = width - label_w - 10.0;
    let x = |t: i64| label_w + (t.clamp(from, to) - from) as f64 / (to - from) as f64 * plot;
    // the top line holds the "now" label
    let top = 16.0_f64;
    let height = top + spans.len().max(1) as f64 * row_h + 30.0;
    let mut out = format!(
        "<svg class=\"chart timeline\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        t = inert(title)
    );
    for (i, s) in spans.iter().enumerate() {
        let y = top + i as f64 * row_h + 4.0;
        let (x1, x2) = (x(s.start), x(s.end));
        let label = cut(&s.label, 34);
        let _ = write!(
            out,
            "<g class=\"row {class}\" tabindex=\"0\"><title>{full}</title>\
             <text x=\"0\" y=\"{ty:.1}\">{label}</text>\
             <rect class=\"window\" x=\"{x1:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"3\"/>",
            class = s.class,
            full = inert(&s.label),
            ty = y + row_h * 0.6,
            label = inert(&label),
            w = (x2 - x1).max(2.0),
            h = row_h - 8.0,
        );
        if let Some(due) = s.due {
            let _ = write!(
                out,
                "<circle class=\"due\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\"/>",
                x(due),
                y + (row_h - 8.0) / 2.0
            );
        }
        out.push_str("</g>");
    }
    let bottom = top + spans.len().max(1) as f64 * row_h + 4.0;
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{label_w}\" y1=\"{bottom:.1}\" x2=\"{width}\" y2=\"{bottom:.1}\"/>\
         <line class=\"now\" x1=\"{n:.1}\" y1=\"{top}\" x2=\"{n:.1}\" y2=\"{bottom:.1}\"/>\
         <text x=\"{n:.1}\" y=\"12\" text-anchor=\"middle\">now</text>\
         <text x=\"{label_w}\" y=\"{ly:.1}\">{a}</text>\
         <text x=\"{width}\" y=\"{ly:.1}\" text-anchor=\"end\">{b}</text></svg>",
        n = x(now),
        ly = bottom + 18.0,
        a = inert(&date_of(from)),
        b = inert(&date_of(to)),
    );
    out
}

/// `text` on one line, at most `max` characters (then `…`).
fn cut(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    if flat.chars().count() <= max {
        flat
    } else {
        let mut out: String = flat.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}

/// A Unix time as its UTC date (`2026-01-15`).
fn date_of(secs: i64) -> String {
    crate::clock::Time::from_second(secs)
        .map(|t| t.date().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacked_bands_sum_per_day_and_names_stay_inert() {
        let days = vec!["2026-01-14".to_string(), "2026-01-15".to_string()];
        let series = vec![
            ("<script>".to_string(), vec![2, 0]),
            ("b".to_string(), vec![1, 4]),
        ];
        let svg = stacked("Turns per day", &days, &series);
        assert!(svg.contains("<title>Turns per day</title>"), "{svg}");
        assert!(
            svg.contains("<title>&lt;script&gt; · 2026-01-14: 2</title>"),
            "{svg}"
        );
        assert!(!svg.contains("<script>"), "{svg}");
        assert_eq!(svg.matches("class=\"band s0\"").count(), 1, "{svg}");
        assert_eq!(svg.matches("class=\"band s1\"").count(), 2, "{svg}");
        assert!(
            svg.contains(">3</text>") && svg.contains(">4</text>"),
            "{svg}"
        );
    }

    #[test]
    fn a_timeline_draws_each_window_and_keeps_labels_inert() {
        let now = 1_768_469_400; // 2026-01-15T09:30:00Z
        let spans = [
            Span {
                label: "<script>alert(1)</script>".into(),
                start: now - 3_600,
                end: now + 86_400,
                due: Some(now + 86_400),
                class: "valid",
            },
            Span {
                label: "Renew cert".into(),
                start: now + 5 * 86_400,
                end: now + 10 * 86_400,
                due: None,
                class: "upcoming",
            },
        ];
        let svg = timeline("Foresight", now, &spans);
        assert_eq!(svg.matches("<rect class=\"window\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("<circle class=\"due\"").count(), 1, "{svg}");
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;script&gt;"), "{svg}");
        assert!(svg.contains(">2026-01-14<"), "{svg}");
        // a window of a hundred years is drawn to the edge, not shrinking the rest
        let long = [Span {
            label: "forever".into(),
            start: now,
            end: now + 100 * 365 * 86_400,
            due: None,
            class: "valid",
        }];
        let svg = timeline("Foresight", now, &long);
        assert!(svg.contains(">2026-05-15<"), "{svg}");
    }
}
