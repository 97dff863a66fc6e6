//! From argv to an exit code: pick the command (argv[0] stem, else the first
//! argument), parse, run under a panic guard, and hand the result to the
//! output layer.

use crate::clock::Clock;
use crate::error::{Error, ErrorType};
use crate::home::HomeLookup;
use crate::output::{self, ColorChoice, Format, FormatChoice, Outcome, Output, Style};
use crate::redact::Redactor;
use crate::registry;
use crate::tools::{Ctx, Tool};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Runs agentbox with the process arguments and returns the exit code.
pub fn run() -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    let early = EarlyFlags::scan(&args);
    let format = output::resolve_format(early.format).unwrap_or_else(|_| {
        output::resolve_format(Some(FormatChoice::Auto)).unwrap_or(Format::Json)
    });
    // SIGINT: the envelope, then exit 130. Installed before any work starts.
    // Once a write has landed the call finishes instead, and reports it.
    let _ = ctrlc::set_handler(move || {
        // A protocol server (memory_mcp) stops at once, quietly on stdout
        // (the output layer sends the message to stderr); its writes are
        // atomic, so stopping mid-call damages nothing.
        if output::stdout_claimed() || !crate::store::write_committed() {
            std::process::exit(output::write_cancelled(format));
        }
    });
    // Panics are reported as an `internal` envelope, not as a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let out = Output {
        format,
        style: Style {
            color: output::resolve_color(early.color),
        },
        quiet: early.quiet,
        verbose: 0,
    };
    match std::panic::catch_unwind(|| dispatch(args, early)) {
        Ok(code) => code,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            let error = Error::internal(format!("agentbox hit a bug: {message}"))
                .with_hint("this is a bug in agentbox; report it with the command you ran");
            out.failure(&error, &Redactor::builtin())
        }
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
    let mut iter = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = iter.next() {
        match arg.as_ref() {
            "--format" | "--home" | "--color" => {
                iter.next();
            }
            a if a.starts_with('-') => {}
            a => return Some(a.to_string()),
        }
    }
    None
}

/// The tool name argv[0] asks for, if it names one (`plan`, `plan.py`, `skill-forge`).
fn invoked_tool(argv0: &OsString) -> Option<&'static Tool> {
    let stem = Path::new(argv0).file_name()?.to_str()?;
    registry::find_tool(stem)
}

fn dispatch(mut args: Vec<OsString>, early: EarlyFlags) -> i32 {
    if std::env::var_os("AGENTBOX_DEBUG_PANIC").is_some() {
        panic!("AGENTBOX_DEBUG_PANIC is set");
    }
    let argv0 = args.first().cloned().unwrap_or_default();
    let via_link = invoked_tool(&argv0);
    let (command, tool_name) = match via_link {
        Some(tool) => (registry::tool_command(tool), None),
        None => {
            // `agentbox skill-forge …` and `agentbox plan.py …` name tools too.
            if let Some(i) = first_positional(&args)
                .and_then(|name| args.iter().position(|a| a.to_str() == Some(name.as_str())))
                && let Some(tool) = args[i].to_str().and_then(registry::find_tool)
            {
                args[i] = OsString::from(tool.name);
            }
            (registry::root_command(), first_positional(&args))
        }
    };
    let target = via_link.or_else(|| tool_name.as_deref().and_then(registry::find_tool));
    if target.is_some_and(|t| t.serves_stdio) {
        output::claim_stdout();
    }
    let bin = command.get_name().to_string();
    let matches = match command.try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(err) => return parse_failure(err, &bin, tool_name.as_deref(), early),
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
    let ctx = Ctx::new(clock, out.style, lookup);

    let (tool, sub) = match via_link {
        Some(tool) => (tool, &matches),
        None => {
            let (name, sub) = matches
                .subcommand()
                .expect("clap enforces subcommand_required");
            let tool = registry::find_tool(name)
                .or_else(|| registry::find_housekeeping(name))
                .expect("every subcommand comes from the registry");
            (tool, sub)
        }
    };
    let mut result: Result<Outcome, Error> = (tool.run)(&ctx, sub);
    // Work that succeeded in part (saved, but not indexed) says so.
    if let (Ok(outcome), Some(home)) = (&mut result, ctx.opened_home()) {
        outcome.warnings.extend(home.take_warnings());
    }
    if let Some(home) = ctx.opened_home() {
        out.log(ctx.redactor(), &format!("home {}", home.root.display()));
    }
    match result {
        Ok(outcome) => out.success(outcome, ctx.redactor()),
        Err(err) => out.failure(&err, ctx.redactor()),
    }
}

/// clap's help and version go to stdout; every other parse error becomes an
/// `invalid_args` envelope.
fn parse_failure(err: clap::Error, bin: &str, tool: Option<&str>, early: EarlyFlags) -> i32 {
    match err.kind() {
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
    out.failure(&clap_to_error(&err, bin, tool), &Redactor::builtin())
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

/// Translates a clap parse error into the contract's `invalid_args`.
fn clap_to_error(err: &clap::Error, bin: &str, tool: Option<&str>) -> Error {
    let rendered = err.render().to_string();
    let first = rendered.lines().next().unwrap_or("invalid arguments");
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut error = Error::new(ErrorType::InvalidArgs, String::new());
    // clap names arguments with their placeholder (`--status <STATUS>`, `<N>`).
    let arg_name = |s: &String| {
        let name = s.split([' ', '=']).next().unwrap_or(s);
        name.trim_start_matches('<')
            .trim_end_matches(['>', '.'])
            .to_string()
    };
    let invalid: Vec<String> = context_list(err, ContextKind::InvalidArg)
        .iter()
        .map(arg_name)
        .collect();
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
            message = format!(
                "missing required argument{}: {}",
                if invalid.len() == 1 { "" } else { "s" },
                invalid.join(", ")
            );
            error = error.with_detail("missing", invalid.clone());
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
        error = error.with_detail("valid", valid);
    }
    let usage_hint = match tool {
        Some(tool) if bin == "agentbox" && registry::find_tool(tool).is_some() => {
            format!("run `agentbox {tool} --help` for usage")
        }
        _ => format!("run `{bin} --help` for usage"),
    };
    let suggestion = context_str(err, ContextKind::SuggestedSubcommand)
        .or_else(|| context_str(err, ContextKind::SuggestedArg))
        .or_else(|| context_str(err, ContextKind::SuggestedValue));
    error.message = message;
    error.hint = match suggestion {
        Some(s) => format!("did you mean '{s}'? {usage_hint}"),
        None => usage_hint,
    };
    error
}
