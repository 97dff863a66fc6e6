//! `agentbox doctor`: the home's health as a checklist. The generic checks
//! (config, layout, .gitignore, links, temp files, search index) live here;
//! each tool adds its own through its registry entry.

use crate::error::Result;
use crate::home::{self, Home};
use crate::output::Outcome;
use crate::tools::{Check, Ctx, Tool};
use clap::{ArgMatches, Parser};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const COMMAND: Tool = Tool::derived::<Doctor>("doctor", run);

/// Check the home: config, folders, links, documents, search index
///
/// Report the health of the agent home as a checklist: config, folder layout,
/// .gitignore, tool links, leftover temp files, the search index, and the
/// checks each tool adds (every stored plan parses, …). Exit status is 0 when
/// the report was produced; `data.healthy` says whether all checks passed.
#[derive(Debug, Parser)]
#[command(
    name = "doctor",
    after_help = "Examples:\n  agentbox doctor\n  agentbox doctor --format json | jq .data.healthy"
)]
struct Doctor {}

fn run(ctx: &Ctx, _m: &ArgMatches) -> Result<Outcome> {
    let root = ctx.lookup.resolve()?;
    let mut checks = Vec::new();
    let home = match Home::open(root.clone()) {
        Ok(home) => {
            let note = if root.join("config.json").is_file() {
                "config.json parses"
            } else {
                "no config.json: defaults apply"
            };
            checks.push(Check::pass("config", note));
            Some(ctx.set_home(home))
        }
        Err(err) => {
            checks.push(Check::fail("config", err.message, err.hint));
            None
        }
    };
    checks.push(layout(&root, &ctx.registry.layout()));
    checks.push(gitignore(&root));
    let exe = home::current_exe()?;
    for tool in ctx.registry.tools() {
        checks.push(link(&root, tool.name, &exe));
    }
    checks.push(temp_files(&root));
    if let Some(home) = home {
        for (_, check) in ctx.registry.doctor_checks() {
            checks.push(check(home));
        }
        checks.push(index(home));
    }
    Ok(report(ctx, &root, &checks))
}

fn layout(root: &Path, folders: &[&str]) -> Check {
    // index/ is derived: deleting it is allowed, the next search rebuilds it.
    let missing: Vec<&str> = folders
        .iter()
        .copied()
        .filter(|rel| *rel != "index" && !root.join(rel).is_dir())
        .collect();
    if missing.is_empty() {
        Check::pass("layout", format!("all {} folders present", folders.len()))
    } else {
        Check::fail(
            "layout",
            format!("missing folders: {}", missing.join(", ")),
            "run `agentbox init` to add them (nothing existing is touched)",
        )
    }
}

fn gitignore(root: &Path) -> Check {
    let bytes = std::fs::read(root.join(".gitignore")).unwrap_or_default();
    let missing = home::gitignore_missing(&bytes);
    if missing.is_empty() {
        Check::pass("gitignore", ".gitignore keeps index/ and locks/ out of git")
    } else {
        Check::fail(
            "gitignore",
            format!(
                ".gitignore is missing or does not ignore {} (a later `!` line counts as undoing one)",
                missing.join(", ")
            ),
            "run `agentbox init` (or any `agentbox sync` verb): it appends the missing lines and keeps yours",
        )
    }
}

fn link(root: &Path, tool: &str, exe: &Path) -> Check {
    let link = root.join("tools").join(tool);
    let name = format!("link {tool}");
    match std::fs::read_link(&link) {
        Err(_) if link.exists() => Check::fail(
            name,
            format!("tools/{tool} is a file, not a link"),
            "move it away, then run `agentbox link`",
        ),
        Err(_) => Check::fail(
            name,
            format!("tools/{tool} is missing"),
            "run `agentbox link`",
        ),
        Ok(target) => match std::fs::canonicalize(&link) {
            Ok(real) if real == exe => {
                Check::pass(name, format!("tools/{tool} → {}", target.display()))
            }
            Ok(real) => Check::fail(
                name,
                format!(
                    "tools/{tool} points at another executable ({})",
                    real.display()
                ),
                "run `agentbox link` to point it at this agentbox",
            ),
            Err(_) => Check::fail(
                name,
                format!("tools/{tool} is broken (→ {})", target.display()),
                "run `agentbox link`",
            ),
        },
    }
}

fn temp_files(root: &Path) -> Check {
    let temps = leftover_temps(root);
    if temps.is_empty() {
        Check::pass("temp files", "no leftovers from interrupted writes")
    } else {
        Check::fail(
            "temp files",
            format!(
                "{} leftover temp file(s) from interrupted writes, e.g. {}",
                temps.len(),
                temps[0].display()
            ),
            "harmless, but safe to delete while no agentbox runs: find .agent -name '.*.tmp' -delete",
        )
    }
}

/// The index: its document counts (one per kind the tools declare), and
/// whether it is behind its files (a crashed writer, a failed update).
fn index(home: &Home) -> Check {
    match crate::search::health(home) {
        Ok(health) if health.is_fresh() => Check::pass("index", health.message()),
        Ok(health) => Check::fail("index", health.message(), health.hint()),
        Err(err) => Check::fail("index", err.message, err.hint),
    }
}

fn report(ctx: &Ctx, root: &Path, checks: &[Check]) -> Outcome {
    let problems = checks.iter().filter(|c| !c.ok).count();
    let s = ctx.style;
    let mut text = format!(
        "agentbox doctor — {}\n",
        s.bold(&root.display().to_string())
    );
    for c in checks {
        let mark = if c.ok { s.green("✓") } else { s.red("✗") };
        text.push_str(&format!("  {mark} {:<16} {}\n", c.name, c.message));
        if !c.ok && !c.hint.is_empty() {
            text.push_str(&format!("    {} {}\n", s.dim("→"), c.hint));
        }
    }
    text.push_str(&match problems {
        0 => "All checks passed.\n".to_string(),
        1 => "1 problem found.\n".to_string(),
        n => format!("{n} problems found.\n"),
    });
    let rows: Vec<Value> = checks
        .iter()
        .map(|c| json!({"name": c.name, "ok": c.ok, "message": c.message, "hint": c.hint}))
        .collect();
    Outcome::new(
        json!({
            "home": root.display().to_string(),
            "healthy": problems == 0,
            "problems": problems,
            "checks": rows,
        }),
        text,
    )
    .with_meta("count", checks.len())
}

/// Temp files (`.<name>.<pid>.<n>.tmp`) a killed writer left behind.
fn leftover_temps(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if is_dir && name != "index" && name != "tools" {
                stack.push(path);
            } else if !is_dir && name.starts_with('.') && name.ends_with(".tmp") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
