//! `agentbox man [NAME]`: man pages (roff), generated from the same clap
//! commands as `--help` and the completions.

use crate::error::{Error, Result};
use crate::output::Outcome;
use crate::tools::{Ctx, Registry, Tool, parse_args};
use clap::{ArgMatches, Parser};

pub const COMMAND: Tool = Tool::derived::<Man>("man", run);

/// Print a man page
///
/// Print the man page (roff) of agentbox, or of one tool under its own name
/// (`plan`, `track` …) or one of its verbs (`plan-create`). The pages are also
/// committed in man/; install them with
/// `cp man/*.1 ~/.local/share/man/man1/` (then `man plan`).
#[derive(Debug, Parser)]
#[command(
    name = "man",
    after_help = "Examples:\n  agentbox man | man -l -\n  agentbox man plan > ~/.local/share/man/man1/plan.1\n  \
                  agentbox man plan-create | man -l -\n  agentbox man --list"
)]
struct Man {
    /// The page: a tool (`plan`), a tool's verb (`plan-create`) or a housekeeping command (`agentbox-init`); default: agentbox
    #[arg(value_name = "NAME", conflicts_with = "list")]
    name: Option<String>,
    /// List the page names instead (one per line in text; data.pages in json)
    #[arg(long)]
    list: bool,
}

fn run(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let args = parse_args::<Man>(m)?;
    let pages = pages(ctx.registry);
    if args.list {
        let names: Vec<String> = pages.into_iter().map(|(name, _)| name).collect();
        let text = names.iter().map(|n| format!("{n}\n")).collect::<String>();
        let count = names.len();
        return Ok(
            Outcome::new(serde_json::json!({"pages": names}), text).with_meta("count", count)
        );
    }
    let name = args.name.as_deref().unwrap_or("agentbox");
    let names: Vec<String> = pages.iter().map(|(page, _)| page.clone()).collect();
    match pages.into_iter().find(|(page, _)| page == name) {
        Some((_, cmd)) => Ok(Outcome::raw(render(cmd))),
        None => {
            let list = "`agentbox man --list` lists every page";
            let hint = match crate::suggest::nearest(name, names.iter().map(String::as_str)) {
                Some(page) => format!("did you mean '{page}'? {list}"),
                None => format!("{list} (a tool: `plan`; a verb: `plan-create`)"),
            };
            Err(Error::not_found(format!("no man page called '{name}'"))
                .with_hint(hint)
                .with_detail("name", name))
        }
    }
}

/// Every page: `agentbox`, `agentbox-<command>`, each tool and each
/// `<tool>-<verb>`, named as `man` finds them.
pub fn pages(registry: &Registry) -> Vec<(String, clap::Command)> {
    let mut out = Vec::new();
    let root = registry.root_command();
    for sub in root.get_subcommands() {
        if registry.find_command(sub.get_name()).is_some() {
            let name = format!("agentbox-{}", sub.get_name());
            out.push((name.clone(), sub.clone().name(leak(&name))));
        }
    }
    out.insert(0, ("agentbox".to_string(), root));
    for tool in registry.tools() {
        let cmd = registry.tool_command(tool);
        for verb in cmd.get_subcommands() {
            let name = format!("{}-{}", tool.name, verb.get_name());
            out.push((name.clone(), verb.clone().name(leak(&name))));
        }
        out.push((tool.name.to_string(), cmd));
    }
    out
}

/// A page name as the `&'static str` clap wants (a handful per process).
fn leak(name: &str) -> &'static str {
    Box::leak(name.to_string().into_boxed_str())
}

fn render(cmd: clap::Command) -> String {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .date("")
        .render(&mut buf)
        .expect("rendering into memory cannot fail");
    examples_section(&String::from_utf8_lossy(&buf))
}

/// clap_mangen titles the text after the options "EXTRA"; ours is the
/// examples (after a note, for `agentbox`): they get the section man pages
/// call EXAMPLES, kept as typed (no filling).
fn examples_section(page: &str) -> String {
    let Some((head, extra)) = page.split_once(".SH EXTRA\n") else {
        return page.to_string();
    };
    let (extra, tail) = match extra.find("\n.SH ") {
        Some(end) => (&extra[..end + 1], &extra[end + 1..]),
        None => (extra, ""),
    };
    let (note, examples) = match extra.split_once("Examples:\n") {
        Some((note, examples)) => (note.trim_end(), examples),
        None => return page.replacen(".SH EXTRA\n", ".SH NOTES\n", 1),
    };
    let mut out = head.to_string();
    if !note.is_empty() {
        out.push_str(&format!(".SH NOTES\n{note}\n"));
    }
    out.push_str(&format!(".SH EXAMPLES\n.nf\n{examples}"));
    if !examples.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(".fi\n");
    out.push_str(tail);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_examples_are_titled_examples_and_kept_as_typed() {
        let page = ".TH x 1\n.SH EXTRA\nExamples:\n  x a\n  x b\n.SH VERSION\nv1\n";
        assert_eq!(
            examples_section(page),
            ".TH x 1\n.SH EXAMPLES\n.nf\n  x a\n  x b\n.fi\n.SH VERSION\nv1\n"
        );
        let page = ".SH EXTRA\nA note.\n\nExamples:\n  x a\n";
        assert_eq!(
            examples_section(page),
            ".SH NOTES\nA note.\n.SH EXAMPLES\n.nf\n  x a\n.fi\n"
        );
        assert_eq!(
            examples_section(".SH EXTRA\nOnly a note.\n"),
            ".SH NOTES\nOnly a note.\n"
        );
        assert_eq!(examples_section(".TH x 1\n"), ".TH x 1\n");
    }
}
