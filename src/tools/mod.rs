//! The tools, and what every command of the registry is made of.
//!
//! Each tool is one folder exposing one `TOOL`: its derived clap command, the
//! function that runs it, the folders it keeps in the home, the search
//! sources it contributes, its doctor checks, its MCP resources and
//! `mem_context` sections, and how its files sync. `crate::registry` lists
//! them; nothing else in the program names a tool (docs/ARCHITECTURE.md).

pub mod evolve;
pub mod knowledge;
pub mod persona;
pub mod plan;
pub mod proactive;
pub mod skill_forge;
pub mod sync;
pub mod track;

mod registry;

pub use registry::{
    Registry, global_args, global_value_flags as registry_value_flags, installed, normalize_name,
};

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::{Folder, Home, HomeLookup};
use crate::output::{Outcome, Style};
use crate::redact::Redactor;
use crate::search::Source;
use crate::store::check_size;
use std::cell::OnceCell;
use std::io::Read;
use std::path::Path;

/// One command of the registry: a tool, or a housekeeping command. Build it
/// with `Tool::derived` (or `Tool::new`, for a command adjusted by hand) and
/// fill in only what the command has:
///
/// ```ignore
/// pub const TOOL: Tool = Tool {
///     search: &[NOTES],
///     doctor: &[check_notes],
///     ..Tool::derived::<cli::KnowledgeCli>("knowledge", cli::run)
/// };
/// ```
#[derive(Debug)]
pub struct Tool {
    /// The name it answers to (`agentbox <name>`, `.agent/tools/<name>`).
    pub name: &'static str,
    /// The clap command, derived from doc comments (`Cli::command`): the
    /// help, the about line in `agentbox --help`, completions and man pages
    /// all come from it.
    pub command: fn() -> clap::Command,
    /// Runs a call on the matches `command` parsed (`parse_args` reads them
    /// back into the clap struct); it returns data or a typed error, never prints.
    pub run: fn(&Ctx, &clap::ArgMatches) -> Result<Outcome>,
    /// The folders of the home it keeps its files in: `init` creates them,
    /// doctor checks them, a pull never turns them into files.
    pub layout: &'static [Folder],
    /// The files of the home it makes searchable.
    pub search: &'static [Source],
    /// Its lines in `agentbox doctor`.
    pub doctor: &'static [DoctorCheck],
    /// Documents it serves to MCP hosts through `memory_mcp`.
    pub resources: &'static [Resource],
    /// The sections it adds to `mem_context` (the memory for a task), before
    /// the matches for the query.
    pub context: &'static [ContextFn],
    /// Its home-relative paths that never sync (a folder ends in `/`):
    /// derived, transient or per-home state. Everything else it writes syncs.
    pub never_synced: &'static [&'static str],
    /// How its synced files merge when both sides changed them; paths no
    /// rule claims merge by their extension ([`Merge`]).
    pub merge: &'static [MergeRule],
    /// What `proactive scan` should bring up about its files, each with the
    /// command that resolves it.
    pub suggest: &'static [SuggestFn],
    /// stdout carries a protocol (memory_mcp), not envelopes: every failure,
    /// from argument parsing on, goes to stderr with exit 1.
    pub serves_stdio: bool,
}

impl Tool {
    /// A command with nothing but its name, clap command and run function:
    /// no folders, search sources, checks, resources or sync rules.
    pub const fn new(
        name: &'static str,
        command: fn() -> clap::Command,
        run: fn(&Ctx, &clap::ArgMatches) -> Result<Outcome>,
    ) -> Tool {
        Tool {
            name,
            command,
            run,
            layout: &[],
            search: &[],
            doctor: &[],
            resources: &[],
            context: &[],
            never_synced: &[],
            merge: &[],
            suggest: &[],
            serves_stdio: false,
        }
    }

    /// A command whose clap command is the one derived from `C` (its doc
    /// comments are the help): what every tool and housekeeping command
    /// but a hand-adjusted one (`search`'s kinds) is built with.
    pub const fn derived<C: clap::CommandFactory>(
        name: &'static str,
        run: fn(&Ctx, &clap::ArgMatches) -> Result<Outcome>,
    ) -> Tool {
        Tool::new(name, C::command, run)
    }
}

/// The struct `C` read back from the matches its own derived command parsed.
/// That can only fail when the struct and the command disagree (a defect),
/// reported as `invalid_args` with clap's message.
pub fn parse_args<C: clap::FromArgMatches>(matches: &clap::ArgMatches) -> Result<C> {
    C::from_arg_matches(matches).map_err(|e| Error::invalid_args(e.to_string()))
}

/// `clap::ValueEnum` for a library enum that has `ALL` (every value, in
/// help order) and `as_str()` (its spelling): written in a tool's `cli.rs`,
/// so the type itself, and the operations that use it, know nothing of
/// clap (docs/ARCHITECTURE.md, "One template per tool").
macro_rules! value_enum {
    ($type:ty) => {
        impl clap::ValueEnum for $type {
            fn value_variants<'a>() -> &'a [Self] {
                &<$type>::ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.as_str()))
            }
        }
    };
}
pub(crate) use value_enum;

/// The value parser of an argument that takes a name from a known list
/// (`sync hosts install HOST`, `agentbox man NAME`) but checks it itself:
/// the completions offer the names, while any other string still reaches
/// the command, whose own error names the known ones (and the nearest).
/// Give the argument `hide_possible_values = true` when its help already
/// lists them.
pub fn known_values(names: impl IntoIterator<Item = &'static str>) -> KnownValues {
    KnownValues(names.into_iter().collect())
}

/// See [`known_values`].
#[derive(Debug, Clone)]
pub struct KnownValues(Vec<&'static str>);

impl clap::builder::TypedValueParser for KnownValues {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            self.0.iter().map(|v| clap::builder::PossibleValue::new(*v)),
        ))
    }
}

/// A check `agentbox doctor` runs on an opened home.
pub type DoctorCheck = fn(&Home) -> Check;

/// A suggestion source `proactive scan` runs on an opened home, at the
/// call's clock time. A tool with nothing to say returns an empty list.
pub type SuggestFn = fn(&Home, &Clock) -> Result<Vec<Suggestion>>;

/// Something worth bringing up before being asked (`proactive scan`):
/// `kind` is a stable low-cardinality name (`stale_step`, `pending_proposal`…),
/// `text` one line for a person, `command` the call that resolves it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Suggestion {
    pub kind: String,
    pub text: String,
    pub command: String,
}

/// One line of the doctor's checklist.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: String,
    pub ok: bool,
    pub message: String,
    pub hint: String,
}

impl Check {
    pub fn pass(name: impl Into<String>, message: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            ok: true,
            message: message.into(),
            hint: String::new(),
        }
    }

    pub fn fail(
        name: impl Into<String>,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Check {
        Check {
            name: name.into(),
            ok: false,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

/// A document a tool serves to MCP hosts (`resources/list`, `resources/read`).
#[derive(Debug)]
pub struct Resource {
    pub uri: &'static str,
    pub name: &'static str,
    /// A human-readable name (`title`, from MCP 2025-06-18).
    pub title: &'static str,
    pub description: &'static str,
    pub mime_type: &'static str,
    /// The document's text (redacted and bounded by the server).
    pub read: fn(&Home) -> Result<String>,
}

/// A source of `mem_context` sections: what the tool knows that matters
/// for any task (the profile, what is due), read from the home at the
/// call's clock time. A damaged file should become a section saying so,
/// not an error: the agent still needs the other sections.
pub type ContextFn = fn(&Home, &Clock) -> Result<Vec<ContextSection>>;

/// One section of `mem_context`: a `## heading` and its markdown body
/// (ending in a newline). `share` is its weight in the result budget
/// (`mcp.max_result_chars`; the matches for the query weigh 40): a body
/// over its share is cut, and what a short one leaves goes to the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextSection {
    pub heading: &'static str,
    pub share: usize,
    pub body: String,
}

/// A sync merge rule: the paths it claims (home-relative, `/`-separated)
/// and how they merge. The first rule of the registry that claims a path
/// decides.
#[derive(Debug)]
pub struct MergeRule {
    pub paths: fn(&str) -> bool,
    pub merge: Merge,
}

/// How two versions of a synced file become one (docs/tools/sync.md, "How
/// files merge"). A path no [`MergeRule`] claims merges by its extension:
/// `*.jsonl` as [`Merge::Lines`], `*.json` as [`Merge::Json`], anything
/// else as [`Merge::Text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// An episode's JSONL: a union of turn lines, renaming a turn or an
    /// episode whose id collides.
    Episode,
    /// JSONL: a union of lines.
    Lines,
    /// PROFILE.md: per section, a three-way set of fact lines.
    Profile,
    /// JSON: a structural three-way merge.
    Json,
    /// Markdown with front matter: key by key, the body three-way by lines.
    FrontMatter,
    /// A three-way line merge.
    Text,
}

/// What a running command may use: the clock, text styling, the registry and
/// the home (resolved on first use, so commands that need none never look).
#[derive(Debug)]
pub struct Ctx {
    pub clock: Clock,
    pub style: Style,
    pub lookup: HomeLookup,
    /// Every tool and command (init's links and folders, doctor's checks,
    /// MCP resources and `mem_context` sections).
    pub registry: &'static Registry,
    /// `-q`: progress lines on stderr are not wanted either.
    pub quiet: bool,
    home: OnceCell<Home>,
    builtin: Redactor,
}

impl Ctx {
    pub fn new(clock: Clock, style: Style, lookup: HomeLookup, registry: &'static Registry) -> Ctx {
        Ctx {
            clock,
            style,
            lookup,
            registry,
            quiet: false,
            home: OnceCell::new(),
            builtin: Redactor::builtin(),
        }
    }

    /// The home of this call, resolved and opened once.
    pub fn home(&self) -> Result<&Home> {
        if let Some(home) = self.home.get() {
            return Ok(home);
        }
        let home = Home::open(self.lookup.resolve()?)?;
        Ok(self.home.get_or_init(|| home))
    }

    /// The home of this call when there is one, for verbs that also work
    /// without a home (`skill_forge screen DIR`, a linter). No home found
    /// from the working directory is `None`; a home named by `--home` or
    /// `AGENTBOX_HOME` that cannot be opened, or a broken home, is an error.
    pub fn optional_home(&self) -> Result<Option<&Home>> {
        match self.home() {
            Ok(home) => Ok(Some(home)),
            Err(e)
                if e.kind == crate::error::ErrorType::NotFound
                    && self.lookup.flag.is_none()
                    && self.lookup.env.is_none() =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The home, if this call has opened one.
    pub fn opened_home(&self) -> Option<&Home> {
        self.home.get()
    }

    /// Uses an already opened home (after `init` created it).
    pub fn set_home(&self, home: Home) -> &Home {
        self.home.get_or_init(|| home)
    }

    /// The redactor for output: the home's (with its extra patterns) once opened.
    pub fn redactor(&self) -> &Redactor {
        self.opened_home()
            .map(|h| h.store.redactor())
            .unwrap_or(&self.builtin)
    }
}

/// Reads an input file, or stdin for "-", as UTF-8, refusing more than
/// `limit` bytes (stdin and files are read at most `limit + 1` bytes, never
/// whole).
/// `what` names the input in errors ("plan file", "messages file").
/// Returns the text and the name to use in messages (`<stdin>` or the path).
pub fn read_input(file: &str, what: &str, limit: u64) -> Result<(String, String)> {
    let (bytes, name) = if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("read", Path::new("<stdin>"), &e))?;
        (bytes, "<stdin>".to_string())
    } else {
        let path = Path::new(file);
        let meta = std::fs::metadata(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::not_found(format!("no such {what}: {file}"))
                    .with_hint("check the path, or pass - to read stdin")
                    .with_detail("path", file)
            } else {
                Error::io("read", path, &e)
            }
        })?;
        if meta.is_dir() {
            return Err(
                Error::invalid_args(format!("{file} is a directory, not a {what}"))
                    .with_hint(format!("pass the path of a {what}, or - to read stdin"))
                    .with_detail("path", file),
            );
        }
        check_size(file, meta.len(), limit)?;
        // A device or a file that grows (/dev/zero, a log) reports a size
        // that says nothing: read at most `limit + 1` bytes, like stdin.
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
            .map_err(|e| Error::io("read", path, &e))?;
        (bytes, file.to_string())
    };
    check_size(&name, bytes.len() as u64, limit)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        crate::store::not_utf8(&name, &e).with_hint(format!("save the {what} as UTF-8"))
    })?;
    Ok((text, name))
}

/// An id as a search hit carries it (`note:go-formatting`, `skill:deploy`,
/// `persona:ada`) without its kind, for the verbs that take that kind's own
/// id: every id a verb prints is taken by the verbs of its family. Any other
/// text is returned as it is (names and slugs cannot hold `:`).
pub fn local_id(kind: &str, id: String) -> String {
    match id
        .strip_prefix(kind)
        .and_then(|rest| rest.strip_prefix(':'))
    {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => id,
    }
}
