//! Charts as inline SVG, drawn here: bars over days. Labels are inert text;
//! colours come from the stylesheet (classes), so light and dark both read.

use super::html::inert;
use std::fmt::Write;

/// A bar chart: one bar per `(label, value)`, `title` for screen readers.
pub fn bars(title: &str, points: &[(String, u64)]) -> String {
    let width = 720.0_f64;
    let height = 160.0_f64;
    let top = points.iter().map(|(_, v)| *v).max().unwrap_or(0).max(1) as f64;
    let n = points.len().max(1) as f64;
    let slot = width / n;
    let mut out = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {width} {h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        h = height + 20.0,
        t = inert(title)
    );
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"0\" y1=\"{height}\" x2=\"{width}\" y2=\"{height}\"/>"
    );
    for (i, (label, value)) in points.iter().enumerate() {
        let h = (*value as f64 / top) * (height - 10.0);
        let x = i as f64 * slot + slot * 0.1;
        let _ = write!(
            out,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\"><title>{}: {value}</title></rect>",
            height - h,
            slot * 0.8,
            inert(label)
        );
    }
    if let (Some((first, _)), Some((last, _))) = (points.first(), points.last()) {
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
}
