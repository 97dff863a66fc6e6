//! `agentbox init`: create a home with its config, folders and tool links.

use super::link::{link_rows, link_text, links_json};
use crate::error::{Error, Result};
use crate::home::{GITIGNORE, HOME_DIR_NAME, Home};
use crate::output::Outcome;
use crate::redact::Redactor;
use crate::store::{LinkState, Store};
use crate::tools::{Ctx, Tool, parse_args};
use clap::{ArgMatches, Parser};
use serde_json::json;
use std::path::{Path, PathBuf};

pub const COMMAND: Tool = Tool::derived::<Init>("init", run);

/// Create an agent home (.agent/) with its config, folders and tool links
///
/// Create an agent home in DIR/.agent (DIR defaults to the working directory):
/// config.json, .gitignore, the folder skeleton, and a link in .agent/tools/
/// for every tool.
///
/// Run it in your project's folder (not in agentbox's own source checkout):
/// commands run there or below find the home by looking upward for .agent/.
/// A folder below a project that has a home already uses that home, so init
/// refuses to create a second one there (it would hide the first) unless
/// --nested is given.
///
/// Safe to run again: existing files are never overwritten; missing pieces
/// are added and broken links repaired.
#[derive(Debug, Parser)]
#[command(
    name = "init",
    after_help = "Examples:\n  agentbox init\n  agentbox init ~/projects/site\n  agentbox init --home ~/agent-home\n  agentbox init --nested ~/projects/site/docs"
)]
struct Init {
    /// Project folder to create .agent/ in (a path ending in .agent is used as is); without it, --home or AGENTBOX_HOME names the home itself
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Create the home even though a folder above already has one: commands run in this folder then use the new home, not the one above
    #[arg(long)]
    nested: bool,
}

fn run(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let args = parse_args::<Init>(m)?;
    let root = ctx.lookup.init_target(args.dir.as_deref());
    let above = crate::home::home_above(&root);
    if let Some(above) = &above
        && !root.is_dir()
        && !args.nested
    {
        return Err(nested_refused(&root, above));
    }
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
    if let Some(above) = &above {
        text.push_str(&format!(
            "\nNested: commands run in {} use this home, not {}\n",
            project_of(&home.root).display(),
            above.display()
        ));
    }
    text.push_str("\nNext: .agent/tools/plan create \"First plan\" --step \"Read the code\"\n");
    Ok(Outcome::new(
        json!({
            "home": home.root.display().to_string(),
            "created": created,
            "restored": restored,
            "links": links_json(&rows),
            "target": exe.display().to_string(),
            "home_above": above.as_ref().map(|a| a.display().to_string()),
        }),
        text,
    )
    .with_meta("path", home.root.display().to_string()))
}

/// The folder a home belongs to: the one holding `.agent`.
fn project_of(home: &Path) -> &Path {
    home.parent().unwrap_or(home)
}

/// `conflict`: the new home would hide `above`, the home commands run in
/// its project use today.
fn nested_refused(root: &Path, above: &Path) -> Error {
    let project = project_of(root);
    Error::conflict(format!(
        "{} already has an agent home above it: {} (commands run there use it)",
        project.display(),
        above.display()
    ))
    .with_hint(format!(
        "keep using {}, or pass --nested to create {} anyway: commands run in {} then use the new home, which holds none of the other's plans or memory",
        above.display(),
        root.display(),
        project.display()
    ))
    .with_detail("path", root.display().to_string())
    .with_detail("home_above", above.display().to_string())
}
