//! `agentbox link`: re-create or repair the links in `.agent/tools/`.

use crate::error::Result;
use crate::home::{self, Home};
use crate::output::{Outcome, Style};
use crate::store::LinkState;
use crate::tools::{Ctx, Tool};
use clap::{ArgMatches, Parser};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const COMMAND: Tool = Tool::derived::<Link>("link", run);

/// Re-create or repair the links in .agent/tools/ (idempotent)
///
/// Point every link in .agent/tools/ at the running agentbox executable,
/// creating missing links and repairing stale or broken ones. Run it after
/// moving or upgrading agentbox.
#[derive(Debug, Parser)]
#[command(
    name = "link",
    after_help = "Examples:\n  agentbox link\n  agentbox link --home ~/projects/site/.agent"
)]
struct Link {}

/// One tool link and what `link` did to it.
pub(super) type LinkRow = (String, PathBuf, LinkState);

/// Creates or repairs the link of every registered tool.
pub(super) fn link_rows(ctx: &Ctx, home: &Home) -> Result<(PathBuf, Vec<LinkRow>)> {
    let exe = home::current_exe()?;
    let mut rows = Vec::new();
    for tool in ctx.registry.tools() {
        let link = home.tool_link(tool.name);
        let state = home.store.link(&link, &exe)?;
        rows.push((tool.name.to_string(), link, state));
    }
    Ok((exe, rows))
}

pub(super) fn links_json(rows: &[LinkRow]) -> Value {
    rows.iter()
        .map(|(tool, path, state)| {
            json!({"tool": tool, "path": path.display().to_string(), "state": state.as_str()})
        })
        .collect()
}

/// One line per link. The state column is padded before it is coloured, so
/// the columns line up with colour on too.
pub(super) fn link_text(rows: &[LinkRow], exe: &Path, s: Style) -> String {
    let mut text = String::new();
    for (tool, _, state) in rows {
        let label = format!("{:<8}", state.as_str());
        let mark = match state {
            LinkState::Unchanged => s.dim(&label),
            LinkState::Created => s.green(&label),
            LinkState::Repaired => s.yellow(&label),
        };
        text.push_str(&format!("  {mark} tools/{tool} → {}\n", exe.display()));
    }
    text
}

fn run(ctx: &Ctx, _m: &ArgMatches) -> Result<Outcome> {
    let home = ctx.home()?;
    home.store.ensure_dir(&home.root.join("tools"))?;
    let (exe, rows) = link_rows(ctx, home)?;
    let fixed = rows.iter().filter(|r| r.2 != LinkState::Unchanged).count();
    let mut text = format!(
        "{} link{} in {}: {} changed\n",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        home.root.join("tools").display(),
        fixed
    );
    text.push_str(&link_text(&rows, &exe, ctx.style));
    Ok(Outcome::new(
        json!({
            "home": home.root.display().to_string(),
            "target": exe.display().to_string(),
            "links": links_json(&rows),
        }),
        text,
    )
    .with_meta("count", rows.len()))
}
