//! HTML written so that memory content can only ever be text. Markup comes
//! from `&'static str` literals in this crate; everything else — a turn, a
//! note, a file name, an error — goes through [`inert`], which escapes it
//! and makes visible what a terminal or the bidi algorithm would act on
//! (control characters, bidi overrides), and is cut at [`MAX_TEXT`]. Links
//! are built by [`href`] from a path of ours and percent-encoded values, so
//! no `javascript:` or foreign URL can appear. With the page's
//! Content-Security-Policy (no script at all), a `<script>` in a turn is
//! six characters of text.

use std::fmt::Write;

/// The most characters of one value shown; the rest is summarised.
pub const MAX_TEXT: usize = 64 * 1024;

/// `text` escaped for an element's content or a quoted attribute value:
/// `& < > " '` escaped; C0 and C1 controls (but newline and tab), DEL and
/// the bidi controls replaced by a visible `⟨U+XXXX⟩`; at most [`MAX_TEXT`]
/// characters, then how many more there were.
pub fn inert(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (shown, (i, c)) in text.char_indices().enumerate() {
        if shown == MAX_TEXT {
            let rest = text[i..].chars().count();
            let _ = write!(out, "… ({rest} more characters)");
            break;
        }
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            c if is_hidden(c) => {
                let _ = write!(out, "⟨U+{:04X}⟩", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Characters that act rather than show: controls, bidi embeddings,
/// overrides and isolates, marks that reorder text, zero-width characters
/// and the byte-order mark.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// Percent-encodes a query value (everything but unreserved characters).
pub fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A link to one of our own pages: `path` (ours: it starts with `/`) and
/// its query, each value percent-encoded.
pub fn href(path: &'static str, query: &[(&str, &str)]) -> String {
    debug_assert!(path.starts_with('/') && !path.starts_with("//"));
    let mut out = String::from(path);
    for (i, (name, value)) in query.iter().enumerate() {
        out.push(if i == 0 { '?' } else { '&' });
        out.push_str(&encode(name));
        out.push('=');
        out.push_str(&encode(value));
    }
    out
}

/// A page's body, built from trusted markup and inert text.
#[derive(Debug, Default)]
pub struct Html {
    out: String,
}

impl Html {
    pub fn new() -> Html {
        Html::default()
    }

    /// Trusted markup: literals of this crate only.
    pub fn raw(&mut self, markup: &'static str) -> &mut Html {
        self.out.push_str(markup);
        self
    }

    /// Text, made inert.
    pub fn text(&mut self, text: &str) -> &mut Html {
        self.out.push_str(&inert(text));
        self
    }

    /// `<tag attr="value"…>`: the values made inert.
    pub fn open(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> &mut Html {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attrs {
            let _ = write!(self.out, " {name}=\"{}\"", inert(value));
        }
        self.out.push('>');
        self
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &'static str) -> &mut Html {
        let _ = write!(self.out, "</{tag}>");
        self
    }

    /// `<tag attrs…>text</tag>`.
    pub fn elem(
        &mut self,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
        text: &str,
    ) -> &mut Html {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// `<a href="…">text</a>` to a page of ours (see [`href`]).
    pub fn link(&mut self, path: &'static str, query: &[(&str, &str)], text: &str) -> &mut Html {
        let target = href(path, query);
        self.open("a", &[("href", &target)]).text(text).close("a")
    }

    /// `text` with each case-insensitive occurrence of a word of `words`
    /// wrapped in `<mark>`: search hits, highlighted, still inert.
    pub fn marked(&mut self, text: &str, words: &[String]) -> &mut Html {
        let lower = text.to_lowercase();
        // Lower-casing can change lengths: highlight only when it did not.
        if lower.len() != text.len() || words.is_empty() {
            return self.text(text);
        }
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for word in words.iter().filter(|w| !w.is_empty()) {
            let word = word.to_lowercase();
            let mut from = 0;
            while let Some(at) = lower[from..].find(&word) {
                let start = from + at;
                spans.push((start, start + word.len()));
                from = start + word.len();
            }
        }
        spans.sort_unstable();
        let mut at = 0;
        for (start, end) in spans {
            if start < at || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                continue;
            }
            self.text(&text[at..start]);
            self.raw("<mark>").text(&text[start..end]).raw("</mark>");
            at = end;
        }
        self.text(&text[at..])
    }

    /// A chart drawn by `view::svg` (markup of ours, its labels made inert
    /// there), appended as it is.
    pub(super) fn svg(&mut self, drawn: String) -> &mut Html {
        self.out.push_str(&drawn);
        self
    }

    pub fn into_string(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_text_is_text() {
        assert_eq!(
            inert("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }

    #[test]
    fn controls_and_bidi_overrides_are_shown_not_obeyed() {
        assert_eq!(inert("a\u{1b}[31mb"), "a⟨U+001B⟩[31mb");
        assert_eq!(inert("x\u{202E}y\u{2066}"), "x⟨U+202E⟩y⟨U+2066⟩");
        assert_eq!(inert("line\nnext\tcol"), "line\nnext\tcol");
        assert_eq!(inert("\u{9b}\u{7f}"), "⟨U+009B⟩⟨U+007F⟩");
    }

    #[test]
    fn huge_values_are_cut_and_say_so() {
        let long = "é".repeat(MAX_TEXT + 10);
        let shown = inert(&long);
        assert!(
            shown.ends_with("… (10 more characters)"),
            "{}",
            &shown[shown.len() - 40..]
        );
    }

    #[test]
    fn links_are_ours_and_values_encoded() {
        assert_eq!(
            href("/memory/search", &[("q", "a b&c=<d>"), ("page", "2")]),
            "/memory/search?q=a%20b%26c%3D%3Cd%3E&page=2"
        );
        let mut html = Html::new();
        html.link("/memory/note", &[("id", "javascript:alert(1)")], "x\"y");
        assert_eq!(
            html.into_string(),
            "<a href=\"/memory/note?id=javascript%3Aalert%281%29\">x&quot;y</a>"
        );
    }

    #[test]
    fn marks_wrap_matches_and_stay_inert() {
        let mut html = Html::new();
        html.marked("Deploy <b>the</b> deploy", &["deploy".to_string()]);
        assert_eq!(
            html.into_string(),
            "<mark>Deploy</mark> &lt;b&gt;the&lt;/b&gt; <mark>deploy</mark>"
        );
    }
}
