//! What a page handler gets and gives: the request (path, query, form), a
//! way to the verbs (`Cx::call`), and a reply — a page in the common
//! layout, a redirect after a change, or an asset.

use super::call::Caller;
use super::html::{Html, inert};
use crate::clock::Clock;
use crate::error::{Error, ErrorType};
use serde_json::Value;

/// One request, decoded.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: Vec<(String, String)>,
    /// A POST's `application/x-www-form-urlencoded` fields.
    pub form: Vec<(String, String)>,
}

impl Request {
    /// The first value of a query parameter.
    pub fn query(&self, name: &str) -> Option<&str> {
        first(&self.query, name)
    }

    /// The first value of a form field.
    pub fn field(&self, name: &str) -> Option<&str> {
        first(&self.form, name)
    }

    /// A page number from `?page=N` (1 when absent or not a number).
    pub fn page(&self) -> usize {
        self.query("page")
            .and_then(|p| p.parse::<usize>().ok())
            .filter(|&p| p >= 1)
            .unwrap_or(1)
    }
}

fn first<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Decodes `a=1&b=x%20y` (`+` is a space) into pairs; bytes that are not
/// UTF-8 become U+FFFD.
pub fn decode_pairs(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The sections of the app, in the order of the navigation bar.
pub const SECTIONS: [(&str, &str); 5] = [
    ("overview", "/"),
    ("memory", "/memory"),
    ("learning", "/learning"),
    ("skills", "/skills"),
    ("plans", "/plans"),
];

/// What a handler answers.
#[derive(Debug)]
pub enum Reply {
    /// A page: `section` is the navigation entry it belongs to (one of
    /// [`SECTIONS`]), `title` its title, `body` what goes in `<main>`.
    Page {
        status: u16,
        section: &'static str,
        title: String,
        body: Html,
    },
    /// 303 See Other to a page of ours (after a change).
    Redirect(String),
    /// An embedded file.
    Asset {
        content_type: &'static str,
        body: &'static str,
    },
}

impl Reply {
    pub fn page(section: &'static str, title: impl Into<String>, body: Html) -> Reply {
        Reply::Page {
            status: 200,
            section,
            title: title.into(),
            body,
        }
    }

    /// A verb's error as a page: its type, message and hint, plainly; the
    /// status follows the type (`conflict` 409, `not_found` 404 …).
    pub fn error(section: &'static str, err: &Error) -> Reply {
        let mut body = Html::new();
        body.open("section", &[("class", "error"), ("role", "alert")])
            .elem("h2", &[], kind_title(err.kind))
            .elem("p", &[("class", "message")], &err.message);
        if !err.hint.is_empty() {
            let hint = &err.hint;
            body.elem("p", &[("class", "hint")], hint);
        }
        body.close("section");
        Reply::Page {
            status: status_of(err.kind),
            section,
            title: kind_title(err.kind).to_string(),
            body,
        }
    }
}

fn kind_title(kind: ErrorType) -> &'static str {
    match kind {
        ErrorType::Conflict => "Conflict: this changed since the page was loaded",
        ErrorType::NotFound => "Not found",
        ErrorType::InvalidArgs => "Not a valid request",
        _ => "Something went wrong",
    }
}

/// The HTTP status of an error type.
pub fn status_of(kind: ErrorType) -> u16 {
    match kind {
        ErrorType::Conflict => 409,
        ErrorType::NotFound => 404,
        ErrorType::InvalidArgs => 400,
        _ => 500,
    }
}

/// A handler's context: the request, and the verbs.
pub struct Cx<'a> {
    pub req: &'a Request,
    pub caller: &'a std::sync::Arc<Caller>,
    pub clock: Clock,
}

impl Cx<'_> {
    /// Runs a verb with words of ours only (see [`Caller::call`]).
    pub fn call(&self, tool: &str, words: &[&str]) -> crate::error::Result<Value> {
        self.caller.call(tool, words, &[], &[])
    }

    /// A slow verb's last answer, run again in the background when older
    /// than a minute (see [`Caller::cached`]).
    pub fn cached(
        &self,
        tool: &'static str,
        words: &'static [&'static str],
    ) -> Option<super::call::Kept> {
        self.caller
            .cached(tool, words, std::time::Duration::from_secs(60))
    }

    /// Runs a verb with values a request brought (see [`Caller::call`]):
    /// `values` as `--flag=value`, `operands` after `--`.
    pub fn call_with(
        &self,
        tool: &str,
        words: &[&str],
        values: &[(&str, &str)],
        operands: &[&str],
    ) -> crate::error::Result<Value> {
        self.caller.call(tool, words, values, operands)
    }
}

/// The whole document around a page's body: head, navigation, `<main>`.
pub fn layout(section: &str, title: &str, body: &str) -> String {
    let mut nav = String::new();
    for (name, path) in SECTIONS {
        let current = if name == section {
            " aria-current=\"page\""
        } else {
            ""
        };
        let label = match name {
            "overview" => "Overview",
            "memory" => "Memory",
            "learning" => "Learning",
            "skills" => "Skills",
            _ => "Plans &amp; reminders",
        };
        nav.push_str(&format!("<a href=\"{path}\"{current}>{label}</a>"));
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <title>{title} · agentbox</title>\
         <link rel=\"stylesheet\" href=\"/assets/style.css\">\
         <link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\"></head>\
         <body><a class=\"skip\" href=\"#main\">Skip to content</a>\
         <header><span class=\"brand\">agentbox</span><nav aria-label=\"Sections\">{nav}</nav></header>\
         <main id=\"main\" data-page=\"{section}\" tabindex=\"-1\"><h1>{title}</h1>{body}</main>\
         </body></html>\n",
        title = inert(title),
        section = inert(section),
    )
}
