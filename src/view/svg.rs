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
