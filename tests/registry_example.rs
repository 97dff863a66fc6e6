//! docs/ARCHITECTURE.md's worked example, compiled and run: a tool added
//! to the built-in ones through the library's public registry API, with a
//! folder, a searchable kind, a doctor check, an MCP resource, a
//! `mem_context` section and sync rules, each checked through the library.
//! The document includes the region between the `example` markers verbatim
//! (the last test compares them), so it cannot drift from what compiles.
//!
//! A test binary of its own, outside the one crate in tests/it/: the
//! registry is installed once per process (`Registry::install`, first
//! wins), and every other test runs with the built-in one.

// As in the library (src/lib.rs): `Error` is built once per failed call.
#![allow(clippy::result_large_err)]

use agentbox::home::HomeLookup;
use agentbox::mcp::protocol::Features;
use agentbox::mcp::tools::Memory;
use agentbox::output::Style;
use agentbox::tools::sync::merge::{Merged, merge_file};
use serde_json::{Map, json};
use std::path::Path;

// example: start
use agentbox::clock::Clock;
use agentbox::error::Result;
use agentbox::home::{Folder, Home};
use agentbox::output::Outcome;
use agentbox::registry::BUILTINS;
use agentbox::search::{self, Doc, Source};
use agentbox::tools::{Check, ContextSection, Ctx, Merge, MergeRule, Registry, Resource, Tool};

/// The registry line. Inside agentbox it is `tools::recipe::TOOL,` in
/// src/registry.rs's list (and `pub mod recipe;` in src/tools/mod.rs); a
/// program embedding the library adds its tools to the built-in ones.
static REGISTRY: Registry = BUILTINS.with_tools(&[TOOL]);

// The tool's mod.rs: its registry entry, and operations that know no clap.

pub const TOOL: Tool = Tool {
    layout: &[Folder {
        path: DIR,
        order: 60, // after runs/evolve, before index
    }],
    search: &[RECIPES],
    doctor: &[check_recipes],
    resources: &[LATEST],
    context: &[context_sections],
    never_synced: &["recipes/.drafts/"],
    merge: &[MergeRule {
        paths: |rel| rel.starts_with("recipes/") && rel.ends_with(".md"),
        merge: Merge::FrontMatter,
    }],
    ..Tool::derived::<cli::RecipeCli>("recipe", cli::run)
};

/// The kind name of a recipe in search (`agentbox search --kind recipe`).
pub const KIND: &str = "recipe";

/// Home-relative folder of the recipes.
pub const DIR: &str = "recipes";

const RECIPES: Source = Source {
    kind: KIND,
    dir: DIR,
    nested: false,
    accept: |name| name.ends_with(".md") && !name.starts_with('.'),
    extract: index_docs,
    lines: None,
    watched: true, // people edit recipes by hand
    growing: None,
    boost: 1.0,
};

const LATEST: Resource = Resource {
    uri: "mem://recipes",
    name: "recipes",
    title: "Recipes",
    description: "The names of the saved recipes, as markdown",
    mime_type: "text/markdown",
    read: render_list,
};

/// A new recipe (`add`): plain data, whoever calls.
#[derive(Debug)]
pub struct NewRecipe {
    pub name: String,
    pub body: String,
}

/// Saves a recipe (the store writes; the index follows or warns).
pub fn add(home: &Home, new: &NewRecipe) -> Result<String> {
    let name = agentbox::store::safe_name("recipe", &new.name)?;
    let rel = format!("{DIR}/{name}.md");
    home.store.write_text(&home.root.join(&rel), &new.body)?;
    let docs = index_docs(home, &rel, &new.body)?;
    search::index_update_or_warn(home, |index| index.replace_source(&rel, &docs));
    Ok(rel)
}

/// A recipe file as search documents: one per recipe.
pub fn index_docs(_home: &Home, rel: &str, text: &str) -> Result<Vec<Doc>> {
    let Some(name) = rel
        .strip_prefix("recipes/")
        .and_then(|n| n.strip_suffix(".md"))
    else {
        return Ok(Vec::new());
    };
    Ok(vec![Doc {
        id: format!("{KIND}:{name}"),
        kind: KIND,
        source: rel.to_string(),
        session: None,
        tags: Vec::new(),
        date: "2026-01-01T00:00:00Z".to_string(),
        title: name.to_string(),
        body: text.to_string(),
    }])
}

fn names(home: &Home) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(home.root.join(DIR))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".md")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

fn check_recipes(home: &Home) -> Check {
    Check::pass("recipes", format!("{} recipe(s)", names(home).len()))
}

fn render_list(home: &Home) -> Result<String> {
    Ok(names(home).iter().map(|n| format!("- {n}\n")).collect())
}

fn context_sections(home: &Home, _clock: &Clock) -> Result<Vec<ContextSection>> {
    Ok(vec![ContextSection {
        heading: "Recipes",
        share: 10,
        body: render_list(home)?,
    }])
}

/// The tool's cli.rs: clap (doc comments are the help), turned into plain
/// structs for the operations.
mod cli {
    use super::*;

    /// Recipes: how we cook
    #[derive(Debug, clap::Parser)]
    #[command(name = "recipe", subcommand_required = true)]
    pub struct RecipeCli {
        #[command(subcommand)]
        verb: Verb,
    }

    #[derive(Debug, clap::Subcommand)]
    enum Verb {
        /// Save a recipe
        Add {
            /// Its name (a file name)
            name: String,
            /// What to do
            #[arg(long)]
            body: String,
        },
    }

    pub fn run(ctx: &Ctx, m: &clap::ArgMatches) -> Result<Outcome> {
        match agentbox::tools::parse_args::<RecipeCli>(m)?.verb {
            Verb::Add { name, body } => {
                let rel = add(ctx.home()?, &NewRecipe { name, body })?;
                Ok(Outcome::new(serde_json::json!({ "path": rel }), rel))
            }
        }
    }
}
// example: end

/// One call of `args` against `home`, through the registry as the
/// executable dispatches it, returning what the command returned.
fn call(home: &Path, args: &[&str]) -> Result<Outcome> {
    REGISTRY.install();
    let mut argv = vec!["agentbox", "--home", home.to_str().unwrap()];
    argv.extend(args);
    let matches = REGISTRY
        .root_command()
        .try_get_matches_from(argv)
        .map_err(|e| agentbox::error::Error::invalid_args(e.to_string()))?;
    let (name, sub) = matches.subcommand().unwrap();
    let tool = REGISTRY
        .find_tool(name)
        .or_else(|| REGISTRY.find_command(name))
        .unwrap();
    let lookup = HomeLookup {
        flag: Some(home.to_path_buf()),
        env: None,
        invoked: None,
        cwd: home.parent().unwrap().to_path_buf(),
    };
    let clock = Clock::fixed("2026-01-02T10:00:00Z".parse().unwrap());
    let ctx = Ctx::new(clock, Style { color: false }, lookup, &REGISTRY);
    (tool.run)(&ctx, sub)
}

/// A home initialised with the extra tool, holding one recipe and a draft.
fn home() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".agent");
    call(&root, &["init"]).unwrap();
    call(
        &root,
        &[
            "recipe",
            "add",
            "pancakes",
            "--body",
            "Whisk flour, milk and eggs",
        ],
    )
    .unwrap();
    std::fs::create_dir_all(root.join("recipes/.drafts")).unwrap();
    std::fs::write(root.join("recipes/.drafts/waffles.md"), "half done").unwrap();
    (dir, root)
}

#[test]
fn init_creates_the_tool_s_folder_in_its_place_and_links_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(".agent");
    let created = call(&root, &["init"]).unwrap().data["created"].clone();
    let created: Vec<&str> = created
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let at = created.iter().position(|c| *c == "recipes/").unwrap();
    assert_eq!(
        created[at - 1..=at + 1],
        ["runs/evolve/", "recipes/", "index/"]
    );
    assert!(root.join("recipes").is_dir());
    assert!(root.join("tools/recipe").exists());
}

#[test]
fn doctor_runs_the_tool_s_check_and_finds_its_folder() {
    let (_dir, root) = home();
    let checks = call(&root, &["doctor"]).unwrap().data["checks"].clone();
    let named = |name: &str| {
        checks
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no {name} check in {checks}"))
    };
    assert_eq!(named("recipes")["message"], "1 recipe(s)");
    assert_eq!(named("layout")["message"], "all 12 folders present");
    std::fs::remove_dir_all(root.join("recipes")).unwrap();
    let checks = call(&root, &["doctor"]).unwrap().data["checks"].clone();
    let layout = checks
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "layout")
        .unwrap();
    assert_eq!(layout["message"], "missing folders: recipes");
}

#[test]
fn search_finds_the_tool_s_kind() {
    let (_dir, root) = home();
    let found = call(&root, &["search", "flour", "--kind", KIND])
        .unwrap()
        .data;
    let hits = found["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 1, "{found}");
    assert_eq!(hits[0]["id"], "recipe:pancakes");
    assert_eq!(hits[0]["kind"], KIND);
}

#[test]
fn memory_mcp_lists_and_reads_the_resource_and_adds_the_section() {
    let (_dir, root) = home();
    let home = Home::open(root).unwrap();
    let features = Features::new("2025-06-18");
    let listed = agentbox::mcp::resources::list(features, &REGISTRY.resources());
    let uris: Vec<&str> = listed["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert!(uris.contains(&"mem://recipes"), "{listed}");
    let clock = Clock::fixed("2026-01-02T10:00:00Z".parse().unwrap());
    let mut memory = Memory::new(&home, clock, &REGISTRY);
    let text = agentbox::mcp::resources::read(&mut memory, &REGISTRY.resources(), "mem://recipes");
    assert_eq!(text.unwrap(), "- pancakes\n");
    let mut args = Map::new();
    args.insert("query".to_string(), json!("eggs"));
    let context = agentbox::mcp::tools::call(&mut memory, "mem_context", &args).unwrap();
    let headings: Vec<&str> = context
        .text
        .lines()
        .filter(|l| l.starts_with("## "))
        .collect();
    assert_eq!(
        headings,
        [
            "## Preferences",
            "## Profile",
            "## Foresight",
            "## Recipes",
            "## Matches"
        ]
    );
    assert!(
        context.text.contains("## Recipes\n- pancakes\n"),
        "{}",
        context.text
    );
}

#[test]
fn sync_commits_the_tool_s_folder_but_not_what_it_never_syncs() {
    let (_dir, root) = home();
    call(&root, &["sync", "init"]).unwrap();
    let repo = git2::Repository::open(root.join("sync.git")).unwrap();
    let tree = repo.head().unwrap().peel_to_tree().unwrap();
    assert!(tree.get_path(Path::new("recipes/pancakes.md")).is_ok());
    assert!(
        tree.get_path(Path::new("recipes/.drafts/waffles.md"))
            .is_err()
    );
}

#[test]
fn the_tool_s_files_merge_by_its_rule() {
    REGISTRY.install();
    // Both sides change the front matter, on neighbouring lines: key by
    // key that merges; line by line (a file no rule claims) it conflicts.
    let base = b"---\ntitle: Pancakes\nserves: 2\n---\nWhisk.\n";
    let ours = b"---\ntitle: Fluffy pancakes\nserves: 2\n---\nWhisk.\n";
    let theirs = b"---\ntitle: Pancakes\nserves: 4\n---\nWhisk.\n";
    let merged = merge_file("recipes/pancakes.md", Some(base), Some(ours), Some(theirs));
    let Merged::Clean(files) = merged else {
        panic!("{merged:?}")
    };
    let text = String::from_utf8(files[0].1.clone().unwrap()).unwrap();
    assert!(
        text.contains("Fluffy") && text.contains("serves: 4"),
        "{text}"
    );
    let other = merge_file("notes/pancakes.md", Some(base), Some(ours), Some(theirs));
    assert!(matches!(other, Merged::Conflict(_)), "{other:?}");
}

#[test]
fn architecture_md_shows_this_example_verbatim() {
    let source = include_str!("registry_example.rs");
    let region = |text: &'static str, start: &str, end: &str| -> &'static str {
        let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
        let to = from
            + text[from..]
                .find(end)
                .unwrap_or_else(|| panic!("no {end:?}"));
        &text[from..to]
    };
    let example = region(source, "// example: start\n", "// example: end\n");
    let doc = include_str!("../docs/ARCHITECTURE.md");
    let shown = region(
        doc,
        "<!-- tests/registry_example.rs, between its example markers -->\n```rust\n",
        "```\n",
    );
    assert_eq!(
        shown, example,
        "docs/ARCHITECTURE.md's example differs from tests/registry_example.rs: copy the region over"
    );
}
