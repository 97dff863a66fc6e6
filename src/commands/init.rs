//! `agentbox init`: create a home with its config, folders and tool links.

use super::link::{link_rows, link_text, links_json};
use crate::error::Result;
use crate::home::{GITIGNORE, HOME_DIR_NAME, Home};
use crate::output::Outcome;
use crate::redact::Redactor;
use crate::store::{LinkState, Store};
use crate::tools::{Ctx, Tool, parse_args};
use clap::{ArgMatches, Parser};
use serde_json::json;
use std::path::PathBuf;

pub const COMMAND: Tool = Tool::derived::<Init>("init", run);

/// Create an agent home (.agent/) with its config, folders and tool links
///
/// Create an agent home in DIR/.agent (DIR defaults to the working directory):
/// config.json, .gitignore, the folder skeleton, and a link in .agent/tools/
/// for every tool.
///
/// Safe to run again: existing files are never overwritten; missing pieces
/// are added and broken links repaired.
#[derive(Debug, Parser)]
#[command(
    name = "init",
    after_help = "Examples:\n  agentbox init\n  agentbox init ~/projects/site\n  agentbox init --home ~/agent-home"
)]
struct Init {
    /// Project folder to create .agent/ in (a path ending in .agent is used as is); without it, --home or AGENTBOX_HOME names the home itself
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

fn run(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let args = parse_args::<Init>(m)?;
    let root = ctx.lookup.init_target(args.dir.as_deref());
    // A bare store (built-in redaction, default cap) creates the skeleton; the
    // home is opened once its config exists.
    let bare = Store::new(
        root.clone(),
        Redactor::builtin(),
        crate::config::DEFAULT_MAX_ITEM_BYTES,
    );
    let mut created = Vec::new();
    if bare.create_root()? {
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned());
        created.push(format!(
            "{}/",
            name.unwrap_or_else(|| HOME_DIR_NAME.to_string())
        ));
    }
    for rel in ctx.registry.layout() {
        if bare.ensure_dir(&root.join(rel))? {
            created.push(format!("{rel}/"));
        }
    }
    if bare.write_text_if_absent(&root.join("config.json"), crate::config::DEFAULT_CONFIG)? {
        created.push("config.json".to_string());
    }
    let restored = if bare.write_text_if_absent(&root.join(".gitignore"), GITIGNORE)? {
        created.push(".gitignore".to_string());
        Vec::new()
    } else {
        // The lines agentbox needs, whatever a remote or a hand edit left.
        crate::home::restore_gitignore(&bare)?
    };
    let home = ctx.set_home(Home::open(root.canonicalize().unwrap_or(root))?);
    let (exe, rows) = link_rows(ctx, home)?;
    let changed = !created.is_empty()
        || !restored.is_empty()
        || rows.iter().any(|r| r.2 != LinkState::Unchanged);

    let s = ctx.style;
    let mut text = if changed {
        format!(
            "{} agent home {}\n",
            s.green("Initialized"),
            s.bold(&home.root.display().to_string())
        )
    } else {
        format!(
            "Agent home {} is already set up — nothing changed.\n",
            s.bold(&home.root.display().to_string())
        )
    };
    if !created.is_empty() {
        text.push_str(&format!("  {:<8} {}\n", "created", created.join(", ")));
    }
    if !restored.is_empty() {
        text.push_str(&format!(
            "  {:<8} .gitignore lines {}\n",
            "restored",
            restored.join(", ")
        ));
    }
    text.push_str(&link_text(&rows, &exe, s));
    text.push_str("\nNext: .agent/tools/plan create \"First plan\" --step \"Read the code\"\n");
    Ok(Outcome::new(
        json!({
            "home": home.root.display().to_string(),
            "created": created,
            "restored": restored,
            "links": links_json(&rows),
            "target": exe.display().to_string(),
        }),
        text,
    )
    .with_meta("path", home.root.display().to_string()))
}
