//! What a call does, for every language that has calls (Python, JavaScript,
//! Ruby, Perl, PowerShell): sources (reads, downloads, decoders, the
//! environment), sinks (egress, exec) and the plain folding of string
//! functions. Walkers normalise the callee (`os.system`, `requests.post`,
//! a bare method name on a value) and hand over evaluated arguments.
//!
//! To add a sink or a source: add its name to the matching table below
//! (`EXEC_CODE`, `EXEC_SHELL`, `DECODERS`…; `FETCHERS` and `SENDERS` are
//! in call.rs) or a match arm in `apply`; the walkers need no change.

use super::super::facts::Cap;
use super::Lang;
use super::call::{Call, is};
use super::eval::{self, Ctx, Label, Sink, Val, labels};
use super::io::{files, network};

/// Runs code in the caller's own language.
const EXEC_CODE: &[&str] = &[
    "exec",
    "eval",
    "compile",
    "execfile",
    "function",
    "runinthiscontext",
    "runinnewcontext",
    "runincontext",
    "script",
    "instance_eval",
    "class_eval",
    "module_eval",
    "invoke-expression",
    "iex",
    "create",
    "evalcx",
    "new function",
];
/// Runs a shell command line.
const EXEC_SHELL: &[&str] = &[
    "os.system",
    "os.popen",
    "commands.getoutput",
    "commands.getstatusoutput",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "child_process.exec",
    "child_process.execsync",
    "execsync",
    "system",
    "popen",
    "io.popen",
    "open3.capture2",
    "open3.capture3",
    "open3.popen3",
    "shell_exec",
    "passthru",
    "qx",
    "backtick",
    "runtime.exec",
    "invoke-item",
    "start-process",
    "cmd",
];
/// Runs an argv list (program first).
const EXEC_ARGV: &[&str] = &[
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.popen",
    "os.execv",
    "os.execvp",
    "os.execve",
    "os.execl",
    "os.execlp",
    "os.spawnv",
    "os.spawnl",
    "os.spawnlp",
    "os.spawnvp",
    "pty.spawn",
    "child_process.spawn",
    "child_process.spawnsync",
    "child_process.execfile",
    "child_process.execfilesync",
    "spawn",
    "spawnsync",
    "execfile",
    "execfilesync",
    "asyncio.create_subprocess_exec",
    "asyncio.create_subprocess_shell",
];
/// Decoders: output is `Decoded`, a constant argument is `Derived`.
const DECODERS: &[&str] = &[
    "b64decode",
    "b32decode",
    "b16decode",
    "b85decode",
    "a85decode",
    "urlsafe_b64decode",
    "standard_b64decode",
    "decodebytes",
    "decodestring",
    "unhexlify",
    "a2b_base64",
    "a2b_hex",
    "fromhex",
    "codecs.decode",
    "decompress",
    "marshal.loads",
    "pickle.loads",
    "atob",
    "decode64",
    "strict_decode64",
    "urlsafe_decode64",
    "decode_base64",
    "frombase64string",
    "unpack1",
    "hex2bin",
    "base64_decode",
    "gzinflate",
    "inflate",
    "inflatesync",
    "gunzipsync",
];
/// Applies the semantics of one call and returns its value.
pub(super) fn apply(ctx: &mut Ctx, c: Call) -> Val {
    let lower = c.name.to_ascii_lowercase();
    let name = lower.replace("::", ".").replace("->", ".");
    let last = name.rsplit('.').next().unwrap_or(&name).to_string();
    let line = c.line;

    // Whole-environment and single secret variable reads.
    if let Some(v) = env_read(ctx, &c, &name, &last) {
        return v;
    }
    // Decoders.
    let is_bytes_decode = last == "decode"
        && c.args
            .first()
            .and_then(|a| a.text.as_deref())
            .is_some_and(|e| {
                let e = e.to_ascii_lowercase();
                e.contains("base64")
                    || e.contains("hex")
                    || e.contains("rot")
                    || e.contains("zlib")
                    || e.contains("bz2")
            });
    let buffer_b64 = (name == "buffer.from" || last == "from" && name.starts_with("buffer"))
        && c.args
            .get(1)
            .and_then(|a| a.text.as_deref())
            .is_some_and(|e| matches!(e, "base64" | "hex" | "base64url"));
    let perl_unpack = last == "unpack"
        && c.args
            .first()
            .and_then(|a| a.text.as_deref())
            .is_some_and(|f| f.starts_with('m') || f.starts_with('H'));
    if is(DECODERS, &name, &last) && !(last == "decompress" && c.args.is_empty())
        || is_bytes_decode
        || buffer_b64
        || perl_unpack
    {
        let input = if perl_unpack || buffer_b64 && c.recv.is_none() {
            c.args.get(if perl_unpack { 1 } else { 0 })
        } else if is_bytes_decode || (c.args.is_empty() && c.recv.is_some()) {
            c.recv.as_ref()
        } else {
            c.arg(0)
        };
        let input = input.cloned().unwrap_or_default();
        let how = format!(
            "argument of {}",
            if is_bytes_decode { "decode" } else { &last }
        );
        let src = ctx.fact(
            Cap::Decode,
            line,
            format!("decodes a payload ({last})"),
            input.how.unwrap_or(""),
        );
        if let Some(t) = &input.text {
            ctx.decoded_from(src, line, t, &how);
        }
        let mut out = Val::mix([&input]).taint(Label::Decoded, src);
        out.how = Some("decoded");
        return out;
    }
    // String folding helpers.
    if let Some(v) = fold(&c, &last) {
        return v;
    }
    // Code in the caller's language.
    if is(EXEC_CODE, &name, &last)
        && !(last == "exec" && matches!(c.lang, Lang::JavaScript | Lang::Ruby | Lang::Perl))
        && !(last == "compile" && c.recv.is_some())
        && !(last == "script" && c.lang != Lang::JavaScript)
        && (last != "create" || name.contains("scriptblock"))
        && !(last == "exec" && c.recv.is_some() && c.lang == Lang::Python)
    {
        let code = c.arg(0).or(c.recv.as_ref()).cloned().unwrap_or_default();
        return exec(ctx, &code, c.lang, line, &last);
    }
    // Shell command lines.
    let shell_kw = c
        .kw("shell")
        .and_then(|v| v.text.as_deref())
        .is_some_and(|t| t == "True" || t == "true");
    if is(EXEC_SHELL, &name, &last) && !(last == "system" && c.lang == Lang::JavaScript)
        || (c.lang == Lang::JavaScript
            && last == "exec"
            && c.recv.as_ref().is_none_or(|r| r.func.is_none()))
        || (is(EXEC_ARGV, &name, &last) && shell_kw)
    {
        if let Some(argv) = c.arg(0).and_then(|a| a.items.clone()) {
            return exec_argv(ctx, &argv, line);
        }
        let cmd = c.arg(0).cloned().unwrap_or_default();
        return exec(ctx, &cmd, Lang::Shell, line, &last);
    }
    if is(EXEC_ARGV, &name, &last)
        && (name.contains('.') || c.lang == Lang::JavaScript || last == "spawn")
    {
        let mut argv = match c.arg(0) {
            Some(a) if a.items.is_some() => a.items.clone().unwrap_or_default(),
            Some(a) => vec![a.clone()],
            None => Vec::new(),
        };
        if let Some(rest) = c.arg(1).and_then(|a| a.items.clone()) {
            argv.extend(rest);
        }
        if last == "spawn" && name.starts_with("pty") {
            ctx.shell_wire_line = Some(line);
        }
        return exec_argv(ctx, &argv, line);
    }
    // Network: sockets, senders, fetchers.
    if let Some(v) = network(ctx, &c, &name, &last) {
        return v;
    }
    // Files.
    if let Some(v) = files(ctx, &c, &name, &last) {
        return v;
    }
    // `getattr(os, 'sys' + 'tem')`: a function named by a computed string.
    if last == "getattr"
        && let (Some(o), Some(attr)) = (c.arg(0), c.arg(1).and_then(|a| a.text.clone()))
    {
        let base = o.func.clone().or(o.text.clone()).unwrap_or_default();
        return Val {
            func: Some(format!("{base}.{attr}")),
            ..Val::default()
        };
    }
    if matches!(last.as_str(), "dup2" | "dup") {
        ctx.shell_wire_line = Some(line);
    }
    if matches!(last.as_str(), "__import__" | "import_module")
        && c.arg(0)
            .is_some_and(|a| a.text.is_none() || a.how.is_some())
    {
        let a = c.arg(0).cloned().unwrap_or_default();
        ctx.derived_val(line, &a, true);
        ctx.sink(
            Cap::DynamicExec,
            Sink::Exec,
            line,
            "imports a module whose name is computed".into(),
            a.how.unwrap_or(""),
            &[&a],
        );
        return Val::default();
    }
    // Anything else: the result carries the taints of its inputs.
    let mut out = Val::mix(c.all());
    if let Some(r) = &c.recv {
        out.path = r.path.clone();
        out.net = r.net;
    }
    out
}

/// `os.getenv`, `os.environ.get`, `process.env`, `ENV[...]`, `$env:X`.
fn env_read(ctx: &mut Ctx, c: &Call, name: &str, last: &str) -> Option<Val> {
    let single = matches!(
        name,
        "os.getenv"
            | "os.environ.get"
            | "getenv"
            | "env.fetch"
            | "env.get"
            | "deno.env.get"
            | "environ.get"
            | "os.environ.__getitem__"
            | "env.__getitem__"
            | "process.env.__getitem__"
    );
    if single {
        let key = c.arg(0).and_then(|a| a.text.clone()).unwrap_or_default();
        return Some(env_var(ctx, &key, c.line));
    }
    let whole = matches!(
        name,
        "os.environ.copy"
            | "os.environ.items"
            | "dict"
            | "json.dumps"
            | "json.stringify"
            | "object.entries"
            | "object.keys"
            | "env.to_h"
            | "env.to_hash"
    ) && c
        .args
        .first()
        .or(c.recv.as_ref())
        .is_some_and(|a| a.func.as_deref() == Some("environ"))
        || matches!(
            name,
            "os.environ.copy" | "os.environ.items" | "env.to_h" | "env.to_hash"
        );
    if whole {
        return Some(whole_env(ctx, c.line));
    }
    let _ = last;
    None
}

/// One environment variable by name: a secret when its name says so; `HOME` folds to `~`.
pub(super) fn env_var(ctx: &mut Ctx, key: &str, line: usize) -> Val {
    if matches!(key, "HOME" | "USERPROFILE") {
        return Val::lit("~");
    }
    if eval::secret_env_name(key) {
        return ctx.source(
            Val::default(),
            Cap::SecretEnv,
            Label::SecretEnv,
            line,
            format!("reads the secret environment variable {key}"),
        );
    }
    Val::default()
}

/// The whole environment used as a value.
pub(super) fn whole_env(ctx: &mut Ctx, line: usize) -> Val {
    ctx.source(
        Val::default(),
        Cap::SecretRead,
        Label::Secret,
        line,
        "reads the whole environment".into(),
    )
}

/// Code handed to an exec sink, in language `lang`.
pub(super) fn exec(ctx: &mut Ctx, code: &Val, lang: Lang, line: usize, how: &str) -> Val {
    let dynamic = code.text.is_none()
        || code.how.is_some()
        || code.has(Label::Downloaded)
        || code.has(Label::Decoded);
    ctx.derived_val(line, code, true);
    if let Some(t) = code.text.clone() {
        ctx.nested(&t, lang, line);
    }
    if dynamic {
        let what = match &code.text {
            Some(t) if code.how.is_some() => format!(
                "runs a reassembled {} command ({how}): {}",
                lang_name(lang),
                cut(t)
            ),
            _ => format!(
                "runs {} with {how}",
                labels(&[code]).replace("data", "code")
            ),
        };
        ctx.sink(
            Cap::DynamicExec,
            Sink::Exec,
            line,
            what,
            code.how.unwrap_or(""),
            &[code],
        );
    } else if lang == Lang::Shell
        && let Some(first) = code
            .text
            .as_deref()
            .and_then(|t| t.split_whitespace().next())
        && eval::interpreter(first).is_some()
    {
        ctx.fact(Cap::Spawn, line, format!("starts {first}"), "");
    }
    Val::mix([code]).taint(Label::FileData, None)
}

/// An argv list handed to a process-spawning call.
pub(super) fn exec_argv(ctx: &mut Ctx, argv: &[Val], line: usize) -> Val {
    let words: Vec<String> = argv
        .iter()
        .map(|a| a.text.clone().unwrap_or_else(|| "$X".into()))
        .collect();
    let Some(first) = argv.first() else {
        return Val::default();
    };
    // A downloaded or decoded program path.
    let prog_taints: Vec<_> = first
        .text
        .as_deref()
        .map(|p| ctx.file_taints(p))
        .unwrap_or_default();
    if !prog_taints.is_empty() || first.has(Label::Downloaded) || first.has(Label::Decoded) {
        let sink = ctx.fact(
            Cap::DynamicExec,
            line,
            format!("runs {} written from a download or decode", words[0]),
            "",
        );
        if let Some(s) = sink {
            for t in prog_taints.into_iter().chain(first.all_taints()) {
                ctx.flow_from(t, s, Sink::Exec);
            }
        }
        return Val::default();
    }
    if let Some(lang) = first.text.as_deref().and_then(eval::interpreter) {
        // `sh -c CMD`, `python -c CODE`, `node -e CODE`, or a script path.
        if let Some(i) = words
            .iter()
            .position(|w| matches!(w.as_str(), "-c" | "-e" | "-Command" | "-command" | "-p"))
        {
            let code = argv.get(i + 1).cloned().unwrap_or_default();
            return exec(
                ctx,
                &code,
                lang,
                line,
                &format!("{} {}", words[0], words[i]),
            );
        }
        if lang == Lang::Shell {
            ctx.shell_wire_line = Some(line);
        }
        for a in argv.iter().skip(1) {
            if let Some(p) = a.text.as_deref().filter(|p| !p.starts_with('-')) {
                let taints = ctx.file_taints(p);
                if !taints.is_empty() {
                    if let Some(s) = ctx.fact(
                        Cap::DynamicExec,
                        line,
                        format!(
                            "runs {p} (written from a download or decode) with {}",
                            words[0]
                        ),
                        "",
                    ) {
                        for t in taints {
                            ctx.flow_from(t, s, Sink::Exec);
                        }
                    }
                    return Val::default();
                }
            }
        }
        ctx.fact(Cap::Spawn, line, format!("starts {}", words.join(" ")), "");
        return Val::default();
    }
    // A fixed argv: analyse it as a shell command line for its own shapes.
    if argv.iter().all(|a| a.text.is_some()) {
        ctx.nested(
            &words
                .iter()
                .map(|w| shell_quote(w))
                .collect::<Vec<_>>()
                .join(" "),
            Lang::Shell,
            line,
        );
    }
    Val::mix(argv)
}

fn shell_quote(w: &str) -> String {
    if w.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./:@=~%+,".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// Folding of string helpers that do not need the AST (`chr`, `fromCharCode`,
/// `join`, `replace`, `reverse`, `format`).
fn fold(c: &Call, last: &str) -> Option<Val> {
    let code_str = |vals: &[Val]| -> Option<String> {
        vals.iter()
            .map(|v| {
                v.text
                    .as_deref()
                    .and_then(|t| t.trim().parse::<u32>().ok())
                    .and_then(char::from_u32)
            })
            .collect()
    };
    match last {
        "chr" | "fromcharcode" | "fromcodepoint" => {
            let s = code_str(&c.args)?;
            Some(Val::folded(s, "character codes"))
        }
        "join" => {
            let (sep, list) = match c.lang {
                Lang::Python => (c.recv.as_ref()?.text.clone()?, c.arg(0)?),
                Lang::Perl => (c.arg(0)?.text.clone()?, c.arg(1)?),
                _ => (
                    c.arg(0).and_then(|a| a.text.clone()).unwrap_or_else(|| {
                        if c.lang == Lang::JavaScript {
                            ",".into()
                        } else {
                            String::new()
                        }
                    }),
                    c.recv.as_ref()?,
                ),
            };
            let items = list.items.as_ref()?;
            let texts: Option<Vec<&str>> = items.iter().map(|i| i.text.as_deref()).collect();
            let mut v = Val::mix(items.iter());
            if let Some(t) = texts {
                v.text = Some(t.join(&sep));
                if items.len() >= 2 {
                    v.how = Some("join");
                }
            }
            Some(v)
        }
        "replace" | "replaceall" | "gsub" | "sub" | "tr" => {
            let r = c.recv.as_ref()?;
            let (a, b) = (
                c.arg(0)?.text.as_deref()?,
                c.arg(1).and_then(|v| v.text.as_deref()).unwrap_or(""),
            );
            let t = r.text.as_deref()?;
            if a.is_empty() {
                return None;
            }
            let mut v = Val::folded(t.replace(a, b), r.how.unwrap_or("string replacement"));
            v.add_taints(r);
            Some(v)
        }
        "reverse" | "reversed" | "strrev" => {
            let r = c.recv.as_ref().or(c.arg(0))?;
            if let Some(items) = &r.items {
                let mut v = r.clone();
                v.items = Some(items.iter().rev().cloned().collect());
                return Some(v);
            }
            Some(Val::folded(
                r.text.as_deref()?.chars().rev().collect(),
                "string reversal",
            ))
        }
        "format" => {
            let fmt = c.recv.as_ref()?.text.clone()?;
            let mut out = String::new();
            let mut rest = fmt.as_str();
            let mut i = 0;
            while let Some(p) = rest.find('{') {
                out.push_str(&rest[..p]);
                let end = rest[p..].find('}')? + p;
                let key = &rest[p + 1..end];
                let v = if key.is_empty() {
                    i += 1;
                    c.arg(i - 1)
                } else if let Ok(n) = key.parse::<usize>() {
                    c.arg(n)
                } else {
                    c.kw(&key.to_ascii_lowercase())
                };
                out.push_str(v?.text.as_deref()?);
                rest = &rest[end + 1..];
            }
            out.push_str(rest);
            let mut v = Val::folded(out, "format string");
            for a in c.all() {
                v.add_taints(a);
            }
            Some(v)
        }
        "strip" | "trim" | "lower" | "upper" | "tolowercase" | "touppercase" | "chomp"
        | "tostring" | "to_s" | "str" | "string" | "encode" | "decode" | "text" | "read"
        | "json" | "content" | "body" | "readall" | "getvalue" | "readlines" | "readline" => {
            // `File.read(p)` is a read (io.rs), `r.read()` passes its receiver on.
            let reader = matches!(last, "read" | "readlines" | "readline" | "readall");
            if reader && c.recv.is_none() && c.name.contains('.') {
                return None;
            }
            let r = c.recv.as_ref().or(c.arg(0))?;
            let mut v = r.clone();
            v.text = match last {
                "strip" | "trim" | "chomp" => r.text.as_deref().map(|t| t.trim().to_string()),
                "lower" | "tolowercase" => r.text.as_deref().map(str::to_lowercase),
                "upper" | "touppercase" => r.text.as_deref().map(str::to_uppercase),
                _ => r.text.clone(),
            };
            if r.path.is_some()
                && r.text.is_none()
                && matches!(last, "read" | "readlines" | "readline")
            {
                v.path = None;
            }
            v.net = false;
            Some(v)
        }
        // `URI('https://…')`, `URI.parse(u)`, `new URL(u)`: the address itself.
        "uri" | "url" | "parse"
            if matches!(
                c.name.to_ascii_lowercase().as_str(),
                "uri" | "uri.parse" | "url" | "urllib.parse.urlparse"
            ) =>
        {
            c.arg(0).cloned()
        }
        _ => None,
    }
}

fn lang_name(l: Lang) -> &'static str {
    match l {
        Lang::Shell => "shell",
        Lang::Python => "Python",
        Lang::JavaScript => "JavaScript",
        Lang::Ruby => "Ruby",
        Lang::Perl => "Perl",
        Lang::PowerShell => "PowerShell",
    }
}

/// At most 120 characters of a value for a sentence.
pub(super) fn cut(t: &str) -> String {
    let t = t.trim();
    match t.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}
