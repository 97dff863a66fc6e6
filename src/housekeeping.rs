//! Housekeeping commands: `init`, `link`, `doctor`, `completions`.

use crate::error::{Error, Result};
use crate::home::{self, GITIGNORE, HOME_DIR_NAME, Home, LAYOUT_DIRS};
use crate::output::{FormatChoice, Outcome, Style};
use crate::redact::Redactor;
use crate::registry;
use crate::store::{LinkState, Store};
use crate::tools::{Ctx, Tool};
use clap::{Arg, ArgMatches, Command, value_parser};
use clap_complete::Shell;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const INIT: Tool = Tool {
    name: "init",
    about: "Create an agent home (.agent/) with its config, folders and tool links",
    command: init_command,
    run: run_init,
    serves_stdio: false,
};

pub const LINK: Tool = Tool {
    name: "link",
    about: "Re-create or repair the links in .agent/tools/ (idempotent)",
    command: link_command,
    run: run_link,
    serves_stdio: false,
};

pub const DOCTOR: Tool = Tool {
    name: "doctor",
    about: "Check the home: config, folders, links, documents",
    command: doctor_command,
    run: run_doctor,
    serves_stdio: false,
};

pub const REINDEX: Tool = Tool {
    name: "reindex",
    about: "Rebuild the search index from the files of the home",
    command: reindex_command,
    run: run_reindex,
    serves_stdio: false,
};

pub const SEARCH: Tool = Tool {
    name: "search",
    about: "Search all memory at once: turns, notes and profile facts",
    command: search_command,
    run: run_search,
    serves_stdio: false,
};

pub const COMPLETIONS: Tool = Tool {
    name: "completions",
    about: "Print a shell completion script",
    command: completions_command,
    run: run_completions,
    serves_stdio: false,
};

fn init_command() -> Command {
    Command::new("init")
        .about("Create an agent home (.agent/) with its config, folders and tool links")
        .long_about(
            "Create an agent home in DIR/.agent (DIR defaults to the working directory): \
             config.json, .gitignore, the folder skeleton, and a link in .agent/tools/ for every tool.\n\n\
             Safe to run again: existing files are never overwritten; missing pieces are added \
             and broken links repaired.",
        )
        .arg(
            Arg::new("dir")
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help("Project folder to create .agent/ in (a path ending in .agent is used as is); without it, --home or AGENTBOX_HOME names the home itself"),
        )
        .after_help("Examples:\n  agentbox init\n  agentbox init ~/projects/site\n  agentbox init --home ~/agent-home")
}

fn link_command() -> Command {
    Command::new("link")
        .about("Re-create or repair the links in .agent/tools/ (idempotent)")
        .long_about(
            "Point every link in .agent/tools/ at the running agentbox executable, creating \
             missing links and repairing stale or broken ones. Run it after moving or \
             upgrading agentbox.",
        )
        .after_help("Examples:\n  agentbox link\n  agentbox link --home ~/projects/site/.agent")
}

fn doctor_command() -> Command {
    Command::new("doctor")
        .about("Check the home: config, folders, links, documents")
        .long_about(
            "Report the health of the agent home as a checklist: config, folder layout, \
             .gitignore, tool links, and every stored plan. Exit status is 0 when the report \
             was produced; `data.healthy` says whether all checks passed.",
        )
        .after_help(
            "Examples:\n  agentbox doctor\n  agentbox doctor --format json | jq .data.healthy",
        )
}

fn reindex_command() -> Command {
    Command::new("reindex")
        .about("Rebuild the search index from the files of the home")
        .long_about(
            "Drop the search index (index/search.db) and rebuild it from the episodes, notes and \
             profile facts on disk. The index is derived: this loses nothing. Search notices hand \
             edits to notes and PROFILE.md on its own; reindex is for a deleted or damaged index, \
             or after editing episode files by hand.",
        )
        .after_help(
            "Examples:\n  agentbox reindex\n  agentbox reindex --format json | jq .data.turns",
        )
}

fn run_reindex(ctx: &Ctx, _m: &ArgMatches) -> Result<Outcome> {
    let home = ctx.home()?;
    let started = std::time::Instant::now();
    let stats = crate::search::rebuild(home)?;
    let seconds = started.elapsed().as_secs_f64();
    let s = ctx.style;
    let mut text = format!(
        "{} the search index from {} file(s): {} turn(s), {} note(s), {} fact(s) in {:.2}s\n",
        s.green("Rebuilt"),
        stats.files,
        stats.turns,
        stats.notes,
        stats.facts,
        seconds
    );
    for (path, message) in &stats.skipped {
        text.push_str(&format!("  {} {path}: {message}\n", s.yellow("skipped")));
    }
    let skipped: Vec<Value> = stats
        .skipped
        .iter()
        .map(|(path, message)| json!({"path": path, "message": message}))
        .collect();
    Ok(Outcome::new(
        json!({
            "files": stats.files,
            "turns": stats.turns,
            "notes": stats.notes,
            "facts": stats.facts,
            "skipped": skipped,
            "seconds": seconds,
        }),
        text,
    )
    .with_meta("count", stats.turns + stats.notes + stats.facts))
}

/// Most hits `agentbox search` returns.
const MAX_SEARCH_HITS: usize = 50;

fn search_command() -> Command {
    Command::new("search")
        .about("Search all memory at once: turns, notes and profile facts")
        .long_about(
            "Search the one index over episode turns, knowledge notes and profile facts, \
             ranked by relevance (BM25) with a little recency. Questions work as well as \
             keywords: stop words are dropped and documents that share more of the remaining \
             words rank higher. `track search` and `knowledge search` are the same search, \
             narrowed to one kind.",
        )
        .arg(Arg::new("query").value_name("QUERY").required(true).help("What to look for"))
        .arg(
            Arg::new("kind")
                .long("kind")
                .value_name("KIND")
                .action(clap::ArgAction::Append)
                .value_parser(["turn", "note", "fact"])
                .help("Only this kind (repeat for several; default: all)"),
        )
        .arg(Arg::new("session").long("session").value_name("KEY").help("Only turns of this session"))
        .arg(Arg::new("tag").long("tag").value_name("TAG").help("Only documents with this tag (note tags; a turn's role; a fact's section)"))
        .arg(Arg::new("since").long("since").value_name("DATE").help("Only documents dated on or after DATE (RFC 3339 or 2026-01-31)"))
        .arg(Arg::new("until").long("until").value_name("DATE").help("Only documents dated on or before DATE (a plain date covers the whole day)"))
        .arg(
            Arg::new("limit")
                .long("limit")
                .value_name("N")
                .default_value("10")
                .value_parser(value_parser!(usize))
                .help("Most hits to return (1–50)"),
        )
        .after_help(
            "Examples:\n  agentbox search \"how should I format Go code?\"\n  \
             agentbox search deploy --kind note --kind fact\n  agentbox search kubectl --session ops --since 2026-01-01",
        )
}

fn run_search(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    use crate::search::{Index, Kind, Query, date_bound, round_score};
    let query = m.get_one::<String>("query").cloned().unwrap_or_default();
    if query.trim().is_empty() {
        return Err(Error::invalid_args("the query is empty")
            .with_hint("say what to look for: agentbox search \"deploy key\"")
            .with_detail("flag", "QUERY"));
    }
    let limit = *m.get_one::<usize>("limit").unwrap_or(&10);
    if limit == 0 || limit > MAX_SEARCH_HITS {
        return Err(Error::invalid_args(format!(
            "--limit {limit} is out of range (1–{MAX_SEARCH_HITS})"
        ))
        .with_hint(format!("pass a limit between 1 and {MAX_SEARCH_HITS}"))
        .with_limit("limit", limit as u64, MAX_SEARCH_HITS as u64));
    }
    let date = |flag: &str| {
        m.get_one::<String>(&flag[2..])
            .map(|v| date_bound(flag, v))
            .transpose()
    };
    let home = ctx.home()?;
    let hits = Index::open(home)?.search(&Query {
        text: query.clone(),
        kinds: m
            .get_many::<String>("kind")
            .map(|kinds| kinds.filter_map(|k| Kind::parse(k)).collect())
            .unwrap_or_default(),
        session: m.get_one::<String>("session").cloned(),
        tag: m.get_one::<String>("tag").cloned(),
        since: date("--since")?,
        until: date("--until")?,
        limit,
    })?;
    let s = ctx.style;
    let mut text = String::new();
    if hits.is_empty() {
        text.push_str(&format!(
            "Nothing matches {}.\n",
            Value::from(query.as_str())
        ));
    }
    let rows: Vec<Value> = hits
        .iter()
        .map(|h| {
            json!({
                "id": h.id,
                "kind": h.kind.as_str(),
                "title": h.title,
                "session": h.session,
                "tags": h.tags,
                "date": h.date,
                "snippet": h.snippet,
                "score": round_score(h.score),
                "source": h.source,
            })
        })
        .collect();
    for (i, h) in hits.iter().enumerate() {
        text.push_str(&format!(
            "{}. {}  {}\n   {}\n",
            i + 1,
            s.bold(&h.id),
            s.dim(&format!(
                "{} · {} · {} · score {}",
                h.kind.as_str(),
                h.title,
                h.date,
                round_score(h.score)
            )),
            h.snippet
        ));
    }
    let count = rows.len();
    Ok(Outcome::new(json!({"query": query, "hits": rows}), text).with_meta("count", count))
}

fn completions_command() -> Command {
    Command::new("completions")
        .about("Print a shell completion script")
        .long_about(
            "Print the completion script for SHELL on stdout. The script is printed as is \
             unless --format json is given explicitly, which wraps it in an envelope \
             (data.script).",
        )
        .arg(
            Arg::new("shell")
                .value_name("SHELL")
                .required(true)
                .value_parser(value_parser!(Shell))
                .help("The shell to complete for"),
        )
        .after_help(
            "Examples:\n  agentbox completions bash > ~/.local/share/bash-completion/completions/agentbox\n  \
             agentbox completions zsh > ~/.zfunc/_agentbox",
        )
}

/// One tool link and what `link` did to it.
type LinkRow = (String, PathBuf, LinkState);

fn link_rows(home: &Home) -> Result<(PathBuf, Vec<LinkRow>)> {
    let exe = home::current_exe()?;
    let mut rows = Vec::new();
    for tool in registry::TOOLS {
        let link = home.tool_link(tool.name);
        let state = home.store.link(&link, &exe)?;
        rows.push((tool.name.to_string(), link, state));
    }
    Ok((exe, rows))
}

fn links_json(rows: &[LinkRow]) -> Value {
    rows.iter()
        .map(|(tool, path, state)| {
            json!({"tool": tool, "path": path.display().to_string(), "state": state.as_str()})
        })
        .collect()
}

fn run_init(ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let root = ctx
        .lookup
        .init_target(m.get_one::<PathBuf>("dir").map(PathBuf::as_path));
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
    for rel in LAYOUT_DIRS {
        if bare.ensure_dir(&root.join(rel))? {
            created.push(format!("{rel}/"));
        }
    }
    if bare.write_text_if_absent(&root.join("config.json"), crate::config::DEFAULT_CONFIG)? {
        created.push("config.json".to_string());
    }
    if bare.write_text_if_absent(&root.join(".gitignore"), GITIGNORE)? {
        created.push(".gitignore".to_string());
    }
    let home = ctx.set_home(Home::open(root.canonicalize().unwrap_or(root))?);
    let (exe, rows) = link_rows(home)?;
    let changed = !created.is_empty() || rows.iter().any(|r| r.2 != LinkState::Unchanged);

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
        text.push_str(&format!("  created  {}\n", created.join(", ")));
    }
    text.push_str(&link_text(&rows, &exe, s));
    text.push_str("\nNext: .agent/tools/plan create \"First plan\" --step \"Read the code\"\n");
    Ok(Outcome::new(
        json!({
            "home": home.root.display().to_string(),
            "created": created,
            "links": links_json(&rows),
            "target": exe.display().to_string(),
        }),
        text,
    )
    .with_meta("path", home.root.display().to_string()))
}

fn link_text(rows: &[LinkRow], exe: &Path, s: Style) -> String {
    let mut text = String::new();
    for (tool, _, state) in rows {
        let mark = match state {
            LinkState::Unchanged => s.dim("ok"),
            LinkState::Created => s.green("created"),
            LinkState::Repaired => s.yellow("repaired"),
        };
        text.push_str(&format!("  {mark:<8} tools/{tool} → {}\n", exe.display()));
    }
    text
}

fn run_link(ctx: &Ctx, _m: &ArgMatches) -> Result<Outcome> {
    let home = ctx.home()?;
    home.store.ensure_dir(&home.root.join("tools"))?;
    let (exe, rows) = link_rows(home)?;
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

/// One line of the doctor's checklist.
struct Check {
    name: String,
    ok: bool,
    message: String,
    hint: String,
}

impl Check {
    fn pass(name: impl Into<String>, message: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            ok: true,
            message: message.into(),
            hint: String::new(),
        }
    }
    fn fail(name: impl Into<String>, message: impl Into<String>, hint: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            ok: false,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

fn run_doctor(ctx: &Ctx, _m: &ArgMatches) -> Result<Outcome> {
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
    // index/ is derived: deleting it is allowed, the next search rebuilds it.
    let missing: Vec<&str> = LAYOUT_DIRS
        .iter()
        .copied()
        .filter(|rel| *rel != "index" && !root.join(rel).is_dir())
        .collect();
    checks.push(if missing.is_empty() {
        Check::pass(
            "layout",
            format!("all {} folders present", LAYOUT_DIRS.len()),
        )
    } else {
        Check::fail(
            "layout",
            format!("missing folders: {}", missing.join(", ")),
            "run `agentbox init` to add them (nothing existing is touched)",
        )
    });
    let gitignore = std::fs::read_to_string(root.join(".gitignore")).unwrap_or_default();
    checks.push(
        if gitignore.lines().any(|l| l.trim() == "index/")
            && gitignore.lines().any(|l| l.trim() == "locks/")
        {
            Check::pass("gitignore", ".gitignore keeps index/ and locks/ out of git")
        } else {
            Check::fail(
                "gitignore",
                ".gitignore is missing or does not ignore index/ and locks/",
                "add the lines `index/` and `locks/` to .agent/.gitignore",
            )
        },
    );
    let exe = home::current_exe()?;
    for tool in registry::TOOLS {
        let link = root.join("tools").join(tool.name);
        let name = format!("link {}", tool.name);
        let check = match std::fs::read_link(&link) {
            Err(_) if link.exists() => Check::fail(
                name,
                format!("tools/{} is a file, not a link", tool.name),
                "move it away, then run `agentbox link`",
            ),
            Err(_) => Check::fail(
                name,
                format!("tools/{} is missing", tool.name),
                "run `agentbox link`",
            ),
            Ok(target) => match std::fs::canonicalize(&link) {
                Ok(real) if real == exe => {
                    Check::pass(name, format!("tools/{} → {}", tool.name, target.display()))
                }
                Ok(real) => Check::fail(
                    name,
                    format!(
                        "tools/{} points at another executable ({})",
                        tool.name,
                        real.display()
                    ),
                    "run `agentbox link` to point it at this agentbox",
                ),
                Err(_) => Check::fail(
                    name,
                    format!("tools/{} is broken (→ {})", tool.name, target.display()),
                    "run `agentbox link`",
                ),
            },
        };
        checks.push(check);
    }
    let temps = leftover_temps(&root);
    checks.push(if temps.is_empty() {
        Check::pass("temp files", "no leftovers from interrupted writes")
    } else {
        Check::fail(
            "temp files",
            format!("{} leftover temp file(s) from interrupted writes, e.g. {}", temps.len(), temps[0].display()),
            "harmless, but safe to delete while no agentbox runs: find .agent -name '.*.tmp' -delete",
        )
    });
    if let Some(home) = home {
        checks.push(match crate::tools::plan::check_all(home) {
            Ok(count) => Check::pass("plans", format!("{count} plan file(s) parse")),
            Err(err) => Check::fail("plans", err.message, err.hint),
        });
        checks.push(match crate::search::health(home) {
            Ok(health) if health.is_fresh() => Check::pass("index", health.message()),
            Ok(health) => Check::fail(
                "index",
                health.message(),
                "run `agentbox reindex` (the next search also catches up on its own)",
            ),
            Err(err) => Check::fail("index", err.message, err.hint),
        });
    }

    let problems = checks.iter().filter(|c| !c.ok).count();
    let s = ctx.style;
    let mut text = format!(
        "agentbox doctor — {}\n",
        s.bold(&root.display().to_string())
    );
    for c in &checks {
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
    Ok(Outcome::new(
        json!({
            "home": root.display().to_string(),
            "healthy": problems == 0,
            "problems": problems,
            "checks": rows,
        }),
        text,
    )
    .with_meta("count", checks.len()))
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

fn run_completions(_ctx: &Ctx, m: &ArgMatches) -> Result<Outcome> {
    let shell = *m
        .get_one::<Shell>("shell")
        .ok_or_else(|| Error::invalid_args("a shell is required"))?;
    let script = completion_script(shell);
    let explicit_json = m.get_one::<FormatChoice>("format") == Some(&FormatChoice::Json)
        || (m.get_one::<FormatChoice>("format").is_none()
            && std::env::var("AGENTBOX_FORMAT").is_ok_and(|v| v == "json"));
    Ok(if explicit_json {
        Outcome::new(json!({"shell": shell.to_string(), "script": script}), "")
    } else {
        Outcome::raw(script)
    })
}

/// The completion script for `shell`, generated from the registry's command tree.
pub fn completion_script(shell: Shell) -> String {
    let mut cmd = registry::root_command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "agentbox", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}
