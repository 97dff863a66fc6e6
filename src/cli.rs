//! From argv to an exit code: pick the command (argv[0] stem, else the first
//! argument), parse, run under a panic guard, and hand the result to the
//! output layer.

use crate::clock::Clock;
use crate::error::{Error, ErrorType};
use crate::home::HomeLookup;
use crate::output::{self, ColorChoice, Format, FormatChoice, Outcome, Output, Style};
use crate::redact::Redactor;
use crate::registry::REGISTRY;
use crate::tools::{Ctx, Registry, Tool};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::any::Any;
use std::ffi::OsString;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Runs agentbox with the process arguments and returns the exit code.
pub fn run() -> i32 {
    run_with(&REGISTRY)
}

/// Runs the tools and commands of `registry` with the process arguments
/// and returns the exit code: `agentbox` itself is `run_with(&REGISTRY)`;
/// a program embedding the library with tools of its own passes
/// `BUILTINS.with_tools(&[…])` (docs/ARCHITECTURE.md). It installs
/// `registry` first (`Registry::install`).
pub fn run_with(registry: &'static Registry) -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    registry.install();
    let early = EarlyFlags::scan(&args);
    let format = output::resolve_format(early.format).unwrap_or_else(|_| {
        output::resolve_format(Some(FormatChoice::Auto)).unwrap_or(Format::Json)
    });
    install_sigint(format);
    // Panics are reported as an `internal` envelope, not as a backtrace: the
    // hook prints nothing and keeps where the panic happened for the report.
    std::panic::set_hook(Box::new(|info| {
        if let Some(at) = info.location() {
            *PANIC_AT.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(format!("{}:{}", at.file(), at.line()));
        }
    }));
    let out = Output {
        format,
        style: Style {
            color: output::resolve_color(early.color),
        },
        quiet: early.quiet,
        verbose: 0,
    };
    match std::panic::catch_unwind(|| dispatch(registry, args, early)) {
        Ok(code) => code,
        // No home is known here: a panic once the call has a context is
        // reported in `dispatch`, through the home's redactor.
        Err(payload) => out.failure(&bug_report(&*payload), &Redactor::builtin()),
    }
}

/// Where the last panic happened (`file:line`), kept by the panic hook for
/// the bug report. A static because the hook is the process's.
static PANIC_AT: Mutex<Option<String>> = Mutex::new(None);

/// The `internal` error a caught panic becomes: what it said and where it
/// happened (the last location the hook kept), for a bug report.
fn bug_report(payload: &(dyn Any + Send)) -> Error {
    let at = PANIC_AT
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    bug_error(payload, at.as_deref())
}

/// [`bug_report`] with the panic's location given.
fn bug_error(payload: &(dyn Any + Send), at: Option<&str>) -> Error {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    let message = match at {
        Some(at) => format!("agentbox hit a bug: {message} (at {at})"),
        None => format!("agentbox hit a bug: {message}"),
    };
    Error::internal(message)
        .with_hint("this is a bug in agentbox; report it with the command you ran")
}

/// What the SIGINT handler prints, rendered before the handler is installed.
static CANCELLED: OnceLock<output::Cancelled> = OnceLock::new();

/// SIGINT: the envelope, then exit 130. Installed before any work starts.
/// Once a write has landed the call finishes instead, and reports it (a long
/// one stops early at a safe point: `store::interrupt_requested`). SIGTERM
/// and SIGHUP still end the process by the signal, but first kill and reap
/// the runtime it started and remove its scratch folders (`cleanup`), as
/// SIGINT does. Plain signal handlers, not a watcher thread: no thread to
/// start on every call.
fn install_sigint(format: Format) {
    let _ = CANCELLED.set(output::Cancelled::new(format));
    let on_sigint = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
    let on_sigterm = on_sigterm as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for (signal, handler) in [
        (libc::SIGINT, on_sigint),
        (libc::SIGTERM, on_sigterm),
        (libc::SIGHUP, on_sigterm),
    ] {
        // SAFETY: a zeroed sigaction is a valid empty one; the handlers do
        // only async-signal-safe things (atomic loads and stores, kill,
        // waitpid, the *at() calls, write, _exit, raise).
        unsafe {
            let mut before: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut before);
            if signal != libc::SIGINT && before.sa_sigaction == libc::SIG_IGN {
                // `nohup agentbox …`: an ignored SIGHUP (or SIGTERM) stays so
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

extern "C" fn on_sigint(_: libc::c_int) {
    // A protocol server (memory_mcp) stops at once, quietly on stdout (the
    // message goes to stderr); its writes are atomic, so stopping mid-call
    // damages nothing.
    // `agentbox view` polls and stops by itself, whether or not it wrote.
    let polls = crate::store::polls_interrupts();
    if output::stdout_claimed() || !(crate::store::write_committed() || polls) {
        crate::cleanup::before_exit();
        let code = CANCELLED.get().map_or(130, output::Cancelled::write);
        // SAFETY: _exit ends the process at once, as a signal would.
        unsafe { libc::_exit(code) }
    }
    // A long call (`evolve run`) stops at its next safe point; so does a
    // wait for the Oda runtime (`oda::wire`).
    crate::store::request_interrupt();
}

extern "C" fn on_sigterm(signal: libc::c_int) {
    crate::cleanup::before_exit();
    // SAFETY: back to the default action, then the same signal again: it is
    // delivered when this handler returns and ends the process as before.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Flags needed before clap has parsed (to report parse errors in the right format).
#[derive(Debug, Default, Clone, Copy)]
struct EarlyFlags {
    format: Option<FormatChoice>,
    color: Option<ColorChoice>,
    quiet: bool,
}

impl EarlyFlags {
    fn scan(args: &[OsString]) -> EarlyFlags {
        let mut flags = EarlyFlags::default();
        let mut iter = args.iter().skip(1).map(|a| a.to_string_lossy());
        while let Some(arg) = iter.next() {
            if arg == "--" {
                break;
            }
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name.to_string(), Some(value.to_string())),
                None => (arg.to_string(), None),
            };
            match name.as_str() {
                "--format" => {
                    let value = inline.or_else(|| iter.next().map(|v| v.into_owned()));
                    flags.format = value.as_deref().and_then(output::parse_format_choice);
                }
                "--color" => {
                    let value = inline.or_else(|| iter.next().map(|v| v.into_owned()));
                    flags.color = match value.as_deref() {
                        Some("always") => Some(ColorChoice::Always),
                        Some("never") => Some(ColorChoice::Never),
                        _ => Some(ColorChoice::Auto),
                    };
                }
                "-q" | "--quiet" => flags.quiet = true,
                _ => {}
            }
        }
        flags
    }
}

/// The first argument that is not a global flag or its value: the tool name
/// when agentbox runs under its own name.
fn first_positional(args: &[OsString]) -> Option<String> {
    let takes_value = crate::tools::registry_value_flags();
    let mut iter = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = iter.next() {
        match arg.as_ref() {
            a if takes_value.contains(&a) => {
                iter.next();
            }
            a if a.starts_with('-') => {}
            a => return Some(a.to_string()),
        }
    }
    None
}

/// The tool name argv[0] asks for, if it names one (`plan`, `plan.py`, `skill-forge`).
fn invoked_tool(registry: &Registry, argv0: &OsString) -> Option<&'static Tool> {
    let stem = Path::new(argv0).file_name()?.to_str()?;
    registry.find_tool(stem)
}

fn dispatch(registry: &'static Registry, mut args: Vec<OsString>, early: EarlyFlags) -> i32 {
    if std::env::var_os("AGENTBOX_DEBUG_PANIC").is_some() {
        panic!("AGENTBOX_DEBUG_PANIC is set");
    }
    let argv0 = args.first().cloned().unwrap_or_default();
    let via_link = invoked_tool(registry, &argv0);
    let (mut command, tool_name) = match via_link {
        Some(tool) => (registry.tool_command(tool), None),
        None => {
            // `agentbox skill-forge …` and `agentbox plan.py …` name tools too.
            if let Some(i) = first_positional(&args)
                .and_then(|name| args.iter().position(|a| a.to_str() == Some(name.as_str())))
                && let Some(tool) = args[i].to_str().and_then(|a| registry.find_tool(a))
            {
                args[i] = OsString::from(tool.name);
            }
            let name = first_positional(&args);
            (registry.root_command_for(name.as_deref()), name)
        }
    };
    let target = via_link.or_else(|| tool_name.as_deref().and_then(|t| registry.find_tool(t)));
    if target.is_some_and(|t| t.serves_stdio) {
        output::claim_stdout();
    }
    let bin = command.get_name().to_string();
    let parsed = command.try_get_matches_from_mut(&args);
    // The tree is not needed again, and the process ends soon: dropping it
    // piece by piece would cost a tenth of a plain call.
    crate::platform::leave_to_exit(command);
    let matches = match parsed {
        Ok(matches) => matches,
        // Help, and every error (they name or suggest the other tools), from
        // the whole tree: what a call parses with it alone parses the same.
        Err(err) if via_link.is_none() && err.kind() != ErrorKind::DisplayVersion => {
            match registry.root_command().try_get_matches_from(&args) {
                Ok(matches) => matches,
                Err(err) => {
                    return parse_failure(registry, err, &bin, tool_name.as_deref(), early, &args);
                }
            }
        }
        Err(err) => return parse_failure(registry, err, &bin, tool_name.as_deref(), early, &args),
    };

    let format_flag = matches.get_one::<FormatChoice>("format").copied();
    let color_flag = matches.get_one::<ColorChoice>("color").copied();
    let format = output::resolve_format(format_flag);
    let out = Output {
        format: *format.as_ref().unwrap_or(&Format::Json),
        style: Style {
            color: output::resolve_color(color_flag),
        },
        quiet: matches.get_flag("quiet"),
        verbose: matches.get_count("verbose"),
    };
    output::allow_progress(&out);
    let builtin = Redactor::builtin();
    if let Err(err) = format {
        return out.failure(&err, &builtin);
    }
    let clock = match Clock::from_env() {
        Ok(clock) => clock,
        Err(err) => return out.failure(&err, &builtin),
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let lookup = HomeLookup {
        flag: matches.get_one::<PathBuf>("home").cloned(),
        env: std::env::var_os("AGENTBOX_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
        invoked: Some(PathBuf::from(&argv0)).filter(|p| p.components().count() > 1),
        cwd,
    };
    let mut ctx = Ctx::new(clock, out.style, lookup, registry);
    ctx.quiet = out.quiet;

    let (tool, sub) = match via_link {
        Some(tool) => (tool, &matches),
        None => {
            let (name, sub) = matches
                .subcommand()
                .expect("clap enforces subcommand_required");
            let tool = registry
                .find_tool(name)
                .or_else(|| registry.find_command(name))
                .expect("every subcommand comes from the registry");
            (tool, sub)
        }
    };
    // A panic from here on is reported through the home's redactor (its
    // extra patterns): the call's home, opened now if the tool panicked
    // before it did (opening only reads config.json). Without a home, or
    // when opening it panics too, the built-in rules apply.
    match std::panic::catch_unwind(AssertUnwindSafe(|| run_tool(&ctx, tool, sub, &out))) {
        Ok(code) => code,
        Err(payload) => {
            let report = bug_report(&*payload);
            let _ = std::panic::catch_unwind(AssertUnwindSafe(|| ctx.home().is_ok()));
            out.failure(&report, ctx.redactor())
        }
    }
}

/// Runs the tool and hands its result to the output layer.
fn run_tool(ctx: &Ctx, tool: &Tool, sub: &clap::ArgMatches, out: &Output) -> i32 {
    if let Some(text) = std::env::var_os("AGENTBOX_DEBUG_PANIC_WITH_HOME") {
        // Test hook: a panic once the home is open, saying TEXT.
        let _ = ctx.home();
        panic!("{}", text.to_string_lossy());
    }
    if let Some(text) = std::env::var_os("AGENTBOX_DEBUG_PANIC_IN_TOOL") {
        // Test hook: a panic in the tool before it opened its home, saying TEXT.
        panic!("{}", text.to_string_lossy());
    }
    let mut result: Result<Outcome, Error> = (tool.run)(ctx, sub);
    // Work that succeeded in part (saved, but not indexed) says so.
    if let (Ok(outcome), Some(home)) = (&mut result, ctx.opened_home()) {
        outcome.warnings.extend(home.take_warnings());
    }
    if let Some(home) = ctx.opened_home() {
        out.log(ctx.redactor(), &format!("home {}", home.root.display()));
    }
    let code = match result {
        Ok(outcome) => out.success(outcome, ctx.redactor()),
        Err(err) => out.failure(&err, ctx.redactor()),
    };
    if let Some(home) = ctx.opened_home() {
        crate::search::leave_at_exit(home);
    }
    code
}

/// clap's help and version go to stdout; every other parse error becomes an
/// `invalid_args` envelope.
fn parse_failure(
    registry: &Registry,
    err: clap::Error,
    bin: &str,
    tool: Option<&str>,
    early: EarlyFlags,
    args: &[OsString],
) -> i32 {
    match err.kind() {
        // `agentbox` alone prints its help, as cargo does.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            if bin == "agentbox" && tool.is_none() =>
        {
            output::write_raw(&err.render().to_string());
            return 0;
        }
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            output::write_raw(&err.render().to_string());
            return 0;
        }
        _ => {}
    }
    let format = output::resolve_format(early.format).unwrap_or(Format::Json);
    let out = Output {
        format,
        style: Style { color: false },
        quiet: early.quiet,
        verbose: 0,
    };
    out.failure(
        &clap_to_error(registry, &err, bin, tool, args),
        &Redactor::builtin(),
    )
}

fn context_str(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.first().cloned(),
        _ => None,
    }
}

fn context_list(err: &clap::Error, kind: ContextKind) -> Vec<String> {
    match err.get(kind) {
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

/// An argument's name from clap's placeholder form: `--status <STATUS>` →
/// `--status`, `<N>` → `N`.
fn arg_name(s: &str) -> String {
    let name = s.split([' ', '=']).next().unwrap_or(s);
    name.trim_start_matches('<')
        .trim_end_matches(['>', '.'])
        .to_string()
}

/// A missing requirement as clap names it: one argument (`<N>`), or a group
/// of which one is needed (`<--status <STATUS>|--note <NOTE>>`).
fn required_names(s: &str) -> Vec<String> {
    match s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
        Some(inner) if inner.contains('|') => inner.split('|').map(arg_name).collect(),
        _ => vec![arg_name(s)],
    }
}

/// Where the arguments that failed to parse lead.
struct Walked {
    /// The command as words: `bin`, then each leading positional argument
    /// that names a subcommand (`agentbox plan step`, `plan step`,
    /// `agentbox init`).
    path: Vec<String>,
    /// The command each word of `path` names, in the same order.
    commands: Vec<clap::Command>,
    /// The first argument after them that names no subcommand: the last
    /// command's first operand (`go-fmt` in `knowledge edit go-fmt --title T`).
    operand: Option<String>,
}

/// Walks the arguments down the command tree. clap's errors do not carry
/// the subcommand, so it is read back from the arguments that were parsed.
fn command_walk(registry: &Registry, bin: &str, args: &[OsString]) -> Walked {
    let mut walked = Walked {
        path: vec![bin.to_string()],
        commands: Vec::new(),
        operand: None,
    };
    let mut cmd = if bin == "agentbox" {
        registry.root_command()
    } else {
        match registry.find_tool(bin) {
            Some(tool) => registry.tool_command(tool),
            None => return walked,
        }
    };
    let takes_value = crate::tools::registry_value_flags();
    let args: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--" => break,
            a if takes_value.contains(&a) || flag_takes_value(&cmd, a) => {
                iter.next();
            }
            a if a.starts_with('-') => {}
            word => {
                // `agentbox plan.py …` names the tool `plan`.
                let word = match registry.find_tool(word) {
                    Some(tool) if walked.path.len() == 1 && bin == "agentbox" => tool.name,
                    _ => word,
                };
                let Some(sub) = cmd.find_subcommand(word).cloned() else {
                    walked.operand = Some(word.to_string());
                    break;
                };
                walked.path.push(sub.get_name().to_string());
                walked.commands.push(std::mem::replace(&mut cmd, sub));
            }
        }
    }
    walked.commands.push(cmd);
    walked
}

/// Whether `flag` (`--title`, `-n`, or an alias) is one of `cmd`'s own
/// options that takes a value, so the next argument is that value.
fn flag_takes_value(cmd: &clap::Command, flag: &str) -> bool {
    cmd.get_arguments()
        .filter(|a| a.get_action().takes_values() && a.get_index().is_none())
        .any(|a| match flag.strip_prefix("--") {
            Some(long) => {
                a.get_long() == Some(long)
                    || a.get_all_aliases().is_some_and(|al| al.contains(&long))
            }
            None => {
                let mut chars = flag.strip_prefix('-').unwrap_or_default().chars();
                matches!((chars.next(), chars.next()), (Some(c), None) if a.get_short() == Some(c))
            }
        })
}

/// The hint for a missing `--expect-version`: a write replaces what the
/// caller read, so it says where the current revision is read (the tool's
/// `show`). `None` when the tool has no `show`.
fn expect_version_hint(walked: &Walked) -> Option<String> {
    let [.., tool, _verb] = walked.commands.as_slice() else {
        return None;
    };
    let show = tool.find_subcommand("show")?;
    let id = match &walked.operand {
        Some(id) => id.clone(),
        None => {
            let arg = show.get_positionals().next()?;
            match arg.get_value_names() {
                Some([name, ..]) => name.to_string(),
                _ => arg.get_id().as_str().to_uppercase(),
            }
        }
    };
    let tool_path = walked.path[..walked.path.len() - 1].join(" ");
    Some(format!(
        "read it first: `{tool_path} show {id}` prints its current revision; pass that as {} N",
        crate::store::EXPECT_FLAG
    ))
}

/// What the mistyped word most likely meant (`crate::suggest`), among the
/// names the command where parsing stopped accepts: its verbs (the tools
/// and commands, at the top), its flags with the global ones, or the valid
/// values of the flag. clap's own guesses are off (Cargo.toml): one
/// function suggests everywhere.
fn suggestion(err: &clap::Error, walked: &Walked) -> Option<String> {
    let cmd = walked.commands.last()?;
    let verbs = || {
        cmd.get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| s.get_name())
    };
    match err.kind() {
        ErrorKind::InvalidSubcommand => {
            let typo = context_str(err, ContextKind::InvalidSubcommand)?;
            crate::suggest::nearest(&typo, verbs()).map(str::to_string)
        }
        ErrorKind::UnknownArgument => {
            let typo = context_str(err, ContextKind::InvalidArg)?;
            if !typo.starts_with('-') {
                // A mistyped verb where the command also takes operands.
                return crate::suggest::nearest(&typo, verbs()).map(str::to_string);
            }
            let typo = typo.split('=').next().unwrap_or(&typo);
            let globals = crate::tools::global_args();
            let flags: Vec<String> = cmd
                .get_arguments()
                .chain(globals.iter())
                .filter(|a| !a.is_hide_set() && a.get_index().is_none())
                .flat_map(|a| {
                    let long = a.get_long().map(|l| format!("--{l}"));
                    let short = a.get_short().map(|s| format!("-{s}"));
                    long.into_iter().chain(short)
                })
                .chain(["--help".to_string(), "--version".to_string()])
                .collect();
            crate::suggest::nearest(typo, flags.iter().map(String::as_str)).map(str::to_string)
        }
        ErrorKind::InvalidValue => {
            let typo = context_str(err, ContextKind::InvalidValue)?;
            let valid = context_list(err, ContextKind::ValidValue);
            crate::suggest::nearest(&typo, valid.iter().map(String::as_str)).map(str::to_string)
        }
        _ => None,
    }
}

/// Translates a clap parse error into the contract's `invalid_args`.
fn clap_to_error(
    registry: &Registry,
    err: &clap::Error,
    bin: &str,
    tool: Option<&str>,
    args: &[OsString],
) -> Error {
    let rendered = err.render().to_string();
    let first = rendered.lines().next().unwrap_or("invalid arguments");
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut error = Error::new(ErrorType::InvalidArgs, String::new());
    let walked = command_walk(registry, bin, args);
    let path = &walked.path;
    // The command as a person names it: `plan step`, also under `agentbox`.
    let named = match path.as_slice() {
        [root, rest @ ..] if root == "agentbox" && !rest.is_empty() => rest.join(" "),
        _ => path.join(" "),
    };
    // A hint of the error's own, instead of pointing at `--help`.
    let mut hint = None;
    let raw_invalid = context_list(err, ContextKind::InvalidArg);
    let invalid: Vec<String> = raw_invalid.iter().map(|s| arg_name(s)).collect();
    match err.kind() {
        ErrorKind::InvalidSubcommand => {
            let name = context_str(err, ContextKind::InvalidSubcommand).unwrap_or_default();
            if bin == "agentbox" && tool == Some(name.as_str()) {
                message = format!("unknown tool '{name}'");
                error = error.with_detail("tool", name);
            } else {
                message = format!("unknown verb '{name}'");
                error = error.with_detail("verb", name);
            }
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            message = if bin == "agentbox" && tool.is_none() {
                "no tool given".to_string()
            } else {
                "a verb is required".to_string()
            };
        }
        ErrorKind::MissingRequiredArgument => {
            let required: Vec<Vec<String>> =
                raw_invalid.iter().map(|s| required_names(s)).collect();
            let (single, groups): (Vec<_>, Vec<_>) = required.iter().partition(|r| r.len() == 1);
            let single: Vec<String> = single.into_iter().flatten().cloned().collect();
            let groups: Vec<String> = groups.iter().map(|g| g.join(" or ")).collect();
            message = if groups.is_empty() {
                format!(
                    "missing required argument{}: {}",
                    if single.len() == 1 { "" } else { "s" },
                    single.join(", ")
                )
            } else {
                let mut needs = single.join(", ");
                if !needs.is_empty() {
                    needs.push_str(", and ");
                }
                needs.push_str(&groups.join(", and "));
                format!("{named} needs {needs}")
            };
            // Single arguments first, as the message names them.
            let mut missing = single.clone();
            missing.extend(required.iter().filter(|r| r.len() > 1).map(|r| r.join("|")));
            if missing == [crate::store::EXPECT_FLAG] {
                hint = expect_version_hint(&walked);
            }
            error = error.with_detail("missing", missing);
        }
        ErrorKind::InvalidUtf8 => {
            message = "an argument is not valid UTF-8".to_string();
        }
        _ => {}
    }
    if let Some(flag) = invalid
        .first()
        .filter(|_| !error.detail.contains_key("missing"))
    {
        error = error.with_detail("flag", flag.clone());
    }
    let valid = context_list(err, ContextKind::ValidValue);
    if !valid.is_empty() {
        // In the message too: text output shows no detail.
        if err.kind() == ErrorKind::InvalidValue {
            message = format!("{message} (valid values: {})", valid.join(", "));
        }
        error = error.with_detail("valid", valid);
    }
    let usage_hint = format!("run `{} --help` for usage", path.join(" "));
    let suggestion = suggestion(err, &walked);
    error.message = message;
    error.hint = match (hint, suggestion) {
        (Some(hint), _) => hint,
        (None, Some(s)) => format!("did you mean '{s}'? {usage_hint}"),
        (None, None) => usage_hint,
    };
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Command;

    #[test]
    fn a_bug_report_says_what_the_panic_said_and_where() {
        let err = bug_error(&"index out of bounds", Some("src/tools/plan/doc.rs:42"));
        assert_eq!(err.kind, ErrorType::Internal);
        assert_eq!(
            err.message,
            "agentbox hit a bug: index out of bounds (at src/tools/plan/doc.rs:42)"
        );
        assert!(err.hint.contains("report it"));
        let owned: Box<dyn Any + Send> = Box::new(format!("step {} is missing", 3));
        assert_eq!(
            bug_error(&*owned, None).message,
            "agentbox hit a bug: step 3 is missing"
        );
        assert_eq!(
            bug_error(&7u32, None).message,
            "agentbox hit a bug: unknown panic"
        );
    }

    /// What parsing sees of a command and of every command below it: each
    /// argument's name, flags, position, action and arity (not the help
    /// order, and help is rendered from the whole tree anyway).
    fn shape(cmd: &Command, path: &str, out: &mut Vec<String>) {
        let mut args: Vec<String> = cmd
            .get_arguments()
            .map(|a| {
                format!(
                    "{path} {} {:?} {:?} {:?} {:?} {:?} {} {}",
                    a.get_id(),
                    a.get_long(),
                    a.get_short(),
                    a.get_index(),
                    a.get_action(),
                    a.get_num_args(),
                    a.is_required_set(),
                    a.is_global_set()
                )
            })
            .collect();
        args.sort();
        out.extend(args);
        for sub in cmd.get_subcommands() {
            shape(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn a_tool_parses_alone_as_in_the_whole_tree() {
        let mut full = REGISTRY.root_command();
        full.build();
        for name in REGISTRY.tools().chain(REGISTRY.commands()).map(|t| t.name) {
            let mut alone = REGISTRY.root_command_for(Some(name));
            alone.build();
            assert_eq!(alone.get_subcommands().count(), 1, "{name}");
            let (mut whole, mut own) = (Vec::new(), Vec::new());
            shape(full.find_subcommand(name).unwrap(), name, &mut whole);
            shape(alone.find_subcommand(name).unwrap(), name, &mut own);
            assert!(whole.len() > 5, "{whole:?}");
            assert_eq!(whole, own, "{name}");
        }
        assert_eq!(
            REGISTRY
                .root_command_for(Some("nope"))
                .get_subcommands()
                .count(),
            0
        );
    }

    #[test]
    fn a_call_matches_alone_as_in_the_whole_tree() {
        for argv in [
            &["agentbox", "plan", "list"][..],
            &[
                "agentbox", "--format", "text", "-q", "track", "search", "foo", "-v",
            ],
            &["agentbox", "--home", "plan", "knowledge", "list"],
            &["agentbox", "init", ".", "--color", "never"],
        ] {
            let name = first_positional(&argv.iter().map(OsString::from).collect::<Vec<_>>());
            let alone = REGISTRY
                .root_command_for(name.as_deref())
                .try_get_matches_from(argv);
            let whole = REGISTRY.root_command().try_get_matches_from(argv);
            // The debug form lists the valid subcommands: compare the rest.
            let (alone, whole) = (alone.unwrap(), whole.unwrap());
            assert_eq!(alone.ids().count(), whole.ids().count(), "{argv:?}");
            let alone = format!("{:?}", alone.subcommand());
            assert_eq!(alone, format!("{:?}", whole.subcommand()), "{argv:?}");
        }
    }

    #[test]
    fn the_walk_passes_a_verb_s_own_values_on_the_way_to_its_operand() {
        let walk = |argv: &[&str]| {
            command_walk(
                &REGISTRY,
                argv[0],
                &argv.iter().map(OsString::from).collect::<Vec<_>>(),
            )
        };
        let walked = walk(&[
            "agentbox",
            "knowledge",
            "edit",
            "--title",
            "T",
            "-q",
            "go-fmt",
        ]);
        assert_eq!(walked.path, ["agentbox", "knowledge", "edit"]);
        assert_eq!(walked.commands.len(), 3);
        assert_eq!(walked.operand.as_deref(), Some("go-fmt"));
        assert_eq!(
            expect_version_hint(&walked).unwrap(),
            "read it first: `agentbox knowledge show go-fmt` prints its current revision; \
             pass that as --expect-version N"
        );
        // Through the link, and without the operand: the show verb's placeholder.
        let walked = walk(&["knowledge", "edit", "--body=x"]);
        assert_eq!(walked.path, ["knowledge", "edit"]);
        assert_eq!(walked.operand, None);
        assert!(
            expect_version_hint(&walked)
                .unwrap()
                .contains("`knowledge show SLUG`")
        );
        // A tool without `show` gets no such hint.
        assert_eq!(expect_version_hint(&walk(&["agentbox", "init"])), None);
    }
}
