//! `agentbox view`: the home in a browser. A local web server in the
//! executable itself (pages rendered here as HTML and inline SVG, one
//! stylesheet embedded at compile time, no script at all) that shows what
//! the CLI verbs return: every page calls the same verbs a person would
//! type (`call`), so there is no second implementation and no file read
//! here. Safety (`guard`): 127.0.0.1 only, a per-run key exchanged for an
//! `HttpOnly`, `SameSite=Strict` cookie, `Host` and `Origin` checked, a
//! strict Content-Security-Policy; every string shown passes the redactor
//! and is escaped and made inert (`html`).

mod call;
mod cli;
mod guard;
mod html;
mod page;
mod pages;
mod server;
mod svg;

pub use cli::COMMAND;
