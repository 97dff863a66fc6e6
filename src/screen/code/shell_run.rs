//! What one shell command does, by its program: downloads and uploads
//! (`curl`, `wget`, `scp`, `nc`, mail, DNS), interpreters (`-c` code, a
//! script file, code on stdin), decoders, readers of files, persistence,
//! deletion. `shell.rs` evaluates the words and hands the argv here.

use super::super::facts::Cap;
use super::Lang;
use super::calls;
use super::curl::curl;
use super::eval::{self, Ctx, Label, Sink, Val, concat, labels, t};

/// What a command does, by its program.
pub(super) fn run(ctx: &mut Ctx, mut argv: Vec<Val>, stdin: Option<Val>, line: usize) -> Val {
    // Prefixes that run the rest: sudo, env, nohup, exec, time, command, nice, timeout.
    loop {
        let Some(first) = argv.first() else {
            return Val::default();
        };
        let p = t(first).rsplit('/').next().unwrap_or("").to_string();
        match p.as_str() {
            "sudo" | "doas" | "nohup" | "exec" | "time" | "command" | "builtin" | "nice"
            | "stdbuf" | "setsid" | "caffeinate" => {
                argv.remove(0);
                while argv.first().is_some_and(|a| t(a).starts_with('-')) {
                    let flag = t(&argv[0]).to_string();
                    argv.remove(0);
                    if matches!(flag.as_str(), "-u" | "-g" | "-n")
                        && p != "nice"
                        && !argv.is_empty()
                    {
                        argv.remove(0);
                    }
                }
            }
            "env" if argv.len() > 1 => {
                argv.remove(0);
                while argv
                    .first()
                    .is_some_and(|a| t(a).contains('=') || t(a).starts_with('-'))
                {
                    argv.remove(0);
                }
            }
            "timeout" if argv.len() > 2 => {
                argv.drain(..2);
            }
            _ => break,
        }
    }
    let Some(first) = argv.first().cloned() else {
        return Val::default();
    };
    let name = t(&first).to_string();
    let prog = name.rsplit('/').next().unwrap_or(&name).to_string();
    let args: Vec<Val> = argv[1..].to_vec();
    let words: Vec<&str> = args.iter().map(t).collect();
    let stdin_v = stdin.clone().unwrap_or_default();
    let has = |f: &[&str]| words.iter().any(|w| f.contains(w));

    // AgentConfig: permission-bypass flags anywhere.
    if words.iter().any(|w| {
        w.contains("dangerously-skip-permissions")
            || *w == "--yolo"
            || w.contains("bypassPermissions")
            || *w == "--dangerously-bypass-approvals-and-sandbox"
    }) {
        ctx.fact(
            Cap::AgentConfig,
            line,
            format!("runs {prog} with its permission prompts turned off"),
            "",
        );
    }
    // A program that is itself a downloaded or decoded file.
    if first.text.is_none() && (first.has(Label::Downloaded) || first.has(Label::Decoded))
        || !ctx.file_taints(&name).is_empty()
    {
        let taints: Vec<_> = ctx
            .file_taints(&name)
            .into_iter()
            .chain(first.all_taints())
            .collect();
        if let Some(s) = ctx.fact(
            Cap::DynamicExec,
            line,
            format!("runs {name}, written from a download or decode"),
            "",
        ) {
            for tn in taints {
                ctx.flow_from(tn, s, Sink::Exec);
            }
        }
        return Val::default();
    }
    match prog.as_str() {
        "eval" => {
            let code = concat(&join_spaces(&args), "string concatenation");
            return calls::exec(ctx, &code, Lang::Shell, line, "eval");
        }
        "source" | "." => {
            if let Some(f) = args.first() {
                return script_file(ctx, f, Lang::Shell, line, &prog);
            }
            return Val::default();
        }
        "curl" | "wget" => return curl(ctx, &prog, &args, stdin, line),
        "base64" | "xxd" | "openssl" | "gunzip" | "zcat" | "uudecode" | "rev" | "gzip"
        | "b64decode" | "tr"
            if has(&["-d", "--decode", "-D", "-r", "-rp", "-dc", "enc"])
                    && prog != "tr"
                || matches!(prog.as_str(), "gunzip" | "zcat" | "uudecode" | "b64decode" | "rev")
                // `tr 'A-Za-z' 'N-ZA-Mn-za-m'` (rot13) and its kin: a cipher.
                || prog == "tr" && args.len() >= 2 && !has(&["-d", "-s"]) =>
        {
            let mut input = stdin_v.clone();
            if let Some(f) = args.iter().rev().find(|a| {
                a.text
                    .as_deref()
                    .is_some_and(|w| !w.starts_with('-') && w != "enc" && w != "base64")
            }) && prog != "openssl"
            {
                input = ctx.read_path(t(f), line);
            }
            let src = ctx.fact(Cap::Decode, line, format!("decodes a payload ({prog})"), "");
            if let Some(s) = &stdin_v.text {
                let s = s.trim().to_string();
                ctx.decoded_from(src, line, &s, &format!("argument of {prog} -d"));
            }
            let mut out = Val::mix([&input]).taint(Label::Decoded, src);
            out.how = Some("decoded");
            return out;
        }
        "echo" | "printf" | "print" => {
            let mut parts: Vec<Val> = args
                .iter()
                .filter(|a| !matches!(t(a), "-n" | "-e" | "-ne" | "-en"))
                .cloned()
                .collect();
            if prog == "printf" && parts.len() > 1 && t(&parts[0]).contains('%') {
                parts.remove(0);
            }
            let mut v = concat(&join_spaces(&parts), "string concatenation");
            v.how = None;
            // `printf '\x63\x75\x72\x6c …'`: the text is spelled in escapes.
            let escaped = parts.iter().any(|p| {
                let w = t(p);
                w.matches("\\x").count() >= 4 || w.matches("\\0").count() >= 4
            });
            if escaped && (prog == "printf" || has(&["-e", "-ne", "-en"])) {
                let src = ctx.fact(Cap::Decode, line, format!("decodes escapes ({prog})"), "");
                v = v.taint(Label::Decoded, src);
            }
            return v;
        }
        "printenv" | "env" | "export" | "set" | "declare"
            if args.is_empty()
                || prog == "printenv" && args.iter().all(|a| t(a).starts_with('-')) =>
        {
            if stdin.is_none() && prog != "printenv" && prog != "env" {
                return Val::default();
            }
            return calls::whole_env(ctx, line);
        }
        "printenv" => {
            return calls::env_var(ctx, t(&args[0]), line);
        }
        "security"
            if has(&[
                "find-generic-password",
                "find-internet-password",
                "dump-keychain",
                "export",
            ]) =>
        {
            return ctx.source(
                Val::default(),
                Cap::SecretRead,
                Label::Secret,
                line,
                "reads the keychain (security)".into(),
            );
        }
        "gcloud" | "gh" | "aws" | "az" | "op" | "vault" | "pass" | "bw" | "secret-tool"
        | "kubectl"
            if has(&[
                "print-access-token",
                "token",
                "export-credentials",
                "get-secret-value",
                "get-access-token",
                "read",
                "lookup",
                "show",
            ]) && !has(&["--help"])
                && (prog != "kubectl" || has(&["secret", "secrets"])) =>
        {
            return ctx.source(
                Val::default(),
                Cap::SecretRead,
                Label::Secret,
                line,
                format!("reads credentials with {prog}"),
            );
        }
        "nc" | "ncat" | "netcat" | "socat" | "telnet" | "openssl"
            if prog != "openssl" || has(&["s_client"]) =>
        {
            if has(&["-e", "-c", "--exec", "--sh-exec"])
                || words
                    .iter()
                    .any(|w| w.starts_with("exec:") || w.starts_with("EXEC:") || w.contains("pty"))
            {
                ctx.fact(
                    Cap::ReverseShell,
                    line,
                    format!("wires a shell to a network connection with {prog}"),
                    "",
                );
                return Val::default();
            }
            if has(&["-l", "-lp", "-lvp", "-nlvp", "-lnvp"]) {
                return Val::default();
            }
            if let Some(d) = &stdin {
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("sends {} with {prog} to {}", labels(&[d]), words.join(" ")),
                    "",
                    &[d],
                );
            }
            return Val::default().taint(Label::Downloaded, None);
        }
        "scp" | "rsync" | "sftp" => {
            let mut skip_next = false;
            let mut data: Vec<Val> = Vec::new();
            let mut dest = None;
            for (i, a) in args.iter().enumerate() {
                let w = t(a);
                if skip_next {
                    skip_next = false;
                    continue;
                }
                if matches!(
                    w,
                    "-i" | "-P" | "-p" | "-o" | "-e" | "-F" | "-c" | "-l" | "-S"
                ) {
                    skip_next = true;
                    continue;
                }
                if w.starts_with('-') {
                    continue;
                }
                let remote = w
                    .split_once(':')
                    .is_some_and(|(h, _)| !h.is_empty() && !h.contains('/'));
                if remote && i == args.len() - 1 {
                    dest = Some(w.to_string());
                } else if !remote {
                    data.push(ctx.read_path(w, line));
                }
            }
            if let Some(d) = dest {
                let refs: Vec<&Val> = data.iter().collect();
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("copies {} to {d} with {prog}", labels(&refs)),
                    "",
                    &refs,
                );
            }
            return Val::default();
        }
        "sendmail" | "mail" | "mailx" | "mutt" | "msmtp" | "ssmtp" => {
            let d = stdin_v.clone();
            ctx.sink(
                Cap::Egress,
                Sink::Network,
                line,
                format!("mails {}", labels(&[&d])),
                "",
                &[&d],
            );
            return Val::default();
        }
        "dig" | "nslookup" | "host" | "drill" | "ping" => {
            if let Some(a) = args
                .iter()
                .find(|a| !t(a).starts_with('-') && !t(a).starts_with('@'))
                && (a.text.is_none() || !a.taints.is_empty())
            {
                ctx.sink(
                    Cap::Egress,
                    Sink::Network,
                    line,
                    format!("looks up a DNS name built from {}", labels(&[a])),
                    "",
                    &[a],
                );
            }
            return Val::default();
        }
        "crontab" => {
            if !has(&["-l", "-r"]) || stdin.is_some() {
                ctx.fact(Cap::Persist, line, "installs a cron job".into(), "");
                // The job's command runs later: analyse it as shell now.
                if let Some(t) = stdin_v.text.as_deref() {
                    let code = eval::cron_commands(t);
                    ctx.nested(&code, Lang::Shell, line);
                }
            }
            return Val::default();
        }
        "sha256sum" | "sha512sum" | "sha1sum" | "shasum" | "b2sum" | "gpg" | "gpgv" | "cosign"
        | "minisign" | "signify"
            if has(&[
                "-c",
                "--check",
                "--verify",
                "verify-blob",
                "verify",
                "-V",
                "-C",
            ]) || prog == "gpgv" =>
        {
            let mut text = words.join(" ");
            text.push(' ');
            text.push_str(stdin_v.text.as_deref().unwrap_or(""));
            ctx.verified(&text);
            return Val::default();
        }
        "systemctl" | "launchctl" | "schtasks" | "reg" | "update-rc.d" | "chkconfig"
            if has(&["enable", "load", "bootstrap", "/create", "/Create", "add"])
                && (prog != "reg" || words.iter().any(|w| w.contains("\\Run"))) =>
        {
            ctx.fact(
                Cap::Persist,
                line,
                format!("installs a start-up entry with {prog}"),
                "",
            );
            return Val::default();
        }
        "tee" | "cp" | "mv" | "install" | "ln" | "dd" => {
            let data = if prog == "tee" {
                stdin_v.clone()
            } else {
                args.iter()
                    .filter(|a| !t(a).starts_with('-'))
                    .rev()
                    .nth(1)
                    .map(|a| ctx.read_path(t(a), line))
                    .unwrap_or_default()
            };
            if prog == "dd" {
                if let Some(of) = words.iter().find_map(|w| w.strip_prefix("of="))
                    && eval::destroy_path(of)
                {
                    ctx.fact(Cap::Destroy, line, format!("overwrites {of}"), "");
                }
                return Val::default();
            }
            let targets: Vec<&str> = if prog == "tee" {
                words
                    .iter()
                    .copied()
                    .filter(|w| !w.starts_with('-'))
                    .collect()
            } else {
                words
                    .iter()
                    .copied()
                    .rfind(|w| !w.starts_with('-'))
                    .into_iter()
                    .collect()
            };
            for p in targets {
                ctx.wrote_path(p, line, &data);
            }
            return if prog == "tee" {
                stdin_v
            } else {
                Val::default()
            };
        }
        "rm" | "shred" | "mkfs" | "wipefs" => {
            let recursive = prog != "rm"
                || words
                    .iter()
                    .any(|w| w.starts_with('-') && (w.contains('r') || w.contains('R')));
            // `--no-preserve-root` exists only to let `rm -rf /` through.
            if prog == "rm" && words.contains(&"--no-preserve-root") {
                ctx.fact(
                    Cap::Destroy,
                    line,
                    format!(
                        "deletes with --no-preserve-root ({prog} {})",
                        words.join(" ")
                    ),
                    "",
                );
            }
            for a in &args {
                let w = t(a);
                if !w.starts_with('-')
                    && recursive
                    && (eval::destroy_path(w) || prog != "rm" && w.starts_with("/dev/"))
                {
                    ctx.fact(
                        Cap::Destroy,
                        line,
                        format!("deletes {w} ({prog} {})", words.join(" ")),
                        "",
                    );
                }
            }
            return Val::default();
        }
        _ if prog.starts_with("mkfs") => {
            ctx.fact(Cap::Destroy, line, format!("formats a disk ({prog})"), "");
            return Val::default();
        }
        _ => {}
    }
    // Interpreters: `-c CODE`, a script file, or code on stdin.
    if let Some(lang) = eval::interpreter(&prog) {
        return interpreter(ctx, &prog, lang, &args, stdin, line);
    }
    // Readers: their output is the files they read.
    if matches!(
        prog.as_str(),
        "cat"
            | "tac"
            | "head"
            | "tail"
            | "less"
            | "more"
            | "tar"
            | "zip"
            | "7z"
            | "gzip"
            | "bzip2"
            | "xz"
            | "base64"
            | "xxd"
            | "od"
            | "hexdump"
            | "strings"
            | "sqlite3"
            | "grep"
            | "awk"
            | "sed"
            | "cut"
            | "sort"
            | "uniq"
            | "jq"
            | "gpg"
            | "openssl"
            | "find"
            | "ls"
            | "zstd"
            | "type"
            | "Get-Content"
    ) {
        let mut out = stdin_v.clone();
        let mut skip = false;
        let mut read_any = false;
        for a in &args {
            let w = t(a);
            if skip {
                skip = false;
                continue;
            }
            if matches!(w, "-f" | "-C" | "-e") && prog != "tar" {
                skip = true;
                continue;
            }
            if w.starts_with('-')
                || w.is_empty()
                || (prog == "ls" || prog == "find") && eval::secret_path(w).is_none()
            {
                continue;
            }
            let v = ctx.read_path(w, line);
            out.add_taints(&v);
            read_any = true;
        }
        // `cat` of its input alone (`cat <<EOF | python3`) passes the text on.
        if !read_any && matches!(prog.as_str(), "cat" | "tac" | "tee") {
            return stdin_v;
        }
        // The archive written: `zip OUT files…`, `tar -czf OUT`, `tar czf OUT`.
        let archive = match prog.as_str() {
            "zip" | "7z" => words
                .iter()
                .filter(|w| !w.starts_with('-') && **w != "a")
                .copied()
                .next(),
            "tar" => words
                .iter()
                .position(|w| {
                    *w == "-f"
                        || *w == "--file"
                        || (w.starts_with('-') || words.first() == Some(w))
                            && !w.starts_with("--")
                            && w.ends_with('f')
                })
                .and_then(|i| words.get(i + 1))
                .copied(),
            _ => None,
        };
        if let Some(f) = archive.filter(|f| *f != "-") {
            ctx.wrote_path(f, line, &out);
        }
        out.text = None;
        out.how = None;
        return out;
    }
    // Any other program passes its input's taints through.
    let mut out = Val::mix(args.iter().chain(stdin.iter()));
    out.text = None;
    out.taints.retain(|tn| tn.label != Label::FileData);
    out
}

/// Words joined by spaces, for `eval a b` and `echo a b`.
fn join_spaces(args: &[Val]) -> Vec<Val> {
    let mut parts = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            parts.push(Val::lit(" "));
        }
        parts.push(a.clone());
    }
    parts
}

/// Runs a script file (`bash f`, `. f`, `source <(curl …)`).
fn script_file(ctx: &mut Ctx, f: &Val, lang: Lang, line: usize, how: &str) -> Val {
    let mut taints = f.all_taints();
    if let Some(p) = &f.text {
        taints.extend(ctx.file_taints(p));
    }
    let bad: Vec<_> = taints
        .into_iter()
        .filter(|tn| matches!(tn.label, Label::Downloaded | Label::Decoded))
        .collect();
    if !bad.is_empty() {
        let what = match &f.text {
            Some(p) => format!(
                "runs {p} (written from {}) with {how}",
                if bad.iter().any(|b| b.label == Label::Downloaded) {
                    "a download"
                } else {
                    "a decode"
                }
            ),
            None => format!("runs {} with {how}", labels(&[f])),
        };
        if let Some(s) = ctx.fact(Cap::DynamicExec, line, what, "") {
            for tn in bad {
                ctx.flow_from(tn, s, Sink::Exec);
            }
        }
    } else if f.text.is_none() {
        ctx.fact(
            Cap::DynamicExec,
            line,
            format!("runs a computed script with {how}"),
            "",
        );
    }
    let _ = lang;
    Val::default()
}

fn interpreter(
    ctx: &mut Ctx,
    prog: &str,
    lang: Lang,
    args: &[Val],
    stdin: Option<Val>,
    line: usize,
) -> Val {
    let words: Vec<&str> = args.iter().map(t).collect();
    if let Some(i) = words.iter().position(|w| {
        matches!(
            *w,
            "-c" | "-e" | "-p" | "--eval" | "-Command" | "-command" | "-C" | "-lc" | "-ic" | "-ce"
        )
    }) {
        let code = args.get(i + 1).cloned().unwrap_or_default();
        return calls::exec(ctx, &code, lang, line, &format!("{prog} {}", words[i]));
    }
    if let Some(i) = words.iter().position(|w| {
        w.eq_ignore_ascii_case("-EncodedCommand")
            || w.eq_ignore_ascii_case("-enc")
            || w.eq_ignore_ascii_case("-e") && lang == Lang::PowerShell
    }) {
        let payload = args
            .get(i + 1)
            .and_then(|a| a.text.clone())
            .unwrap_or_default();
        let src = ctx.fact(
            Cap::Decode,
            line,
            format!("runs a base64-encoded command with {prog}"),
            "",
        );
        ctx.derived(line, &payload, "argument of -EncodedCommand", true);
        let v = Val::default().taint(Label::Decoded, src);
        ctx.sink(
            Cap::DynamicExec,
            Sink::Exec,
            line,
            format!("runs an encoded command with {prog}"),
            "",
            &[&v],
        );
        return Val::default();
    }
    // The script: first word that is not a flag (a flag's value is skipped for `-m`, `-W`).
    let mut script = None;
    let mut skip = false;
    for a in args {
        let w = t(a);
        if skip {
            skip = false;
            continue;
        }
        if matches!(w, "-m" | "-W" | "-X" | "-o" | "-O" | "--norc" | "--rcfile") {
            skip = w != "--norc";
            if w == "-m" {
                break;
            }
            continue;
        }
        if w == "-" || w == "-s" || w == "--" {
            break;
        }
        if w.starts_with('-') && a.text.is_some() {
            continue;
        }
        script = Some(a);
        break;
    }
    if let Some(f) = script {
        if lang == Lang::Shell || f.text.is_none() || !ctx.file_taints(t(f)).is_empty() {
            let v = script_file(ctx, f, lang, line, prog);
            if lang == Lang::Shell && !words.contains(&"-i") {
                return v;
            }
        }
        if words.contains(&"-i") && lang == Lang::Shell {
            ctx.shell_wire_line = Some(line);
        }
        return Val::default();
    }
    match stdin {
        Some(code) => {
            let how = format!("{prog} reading its code from a pipe");
            if let Some(text) = code
                .text
                .clone()
                .filter(|_| code.how.is_none() && code.taints.is_empty())
            {
                // A here-doc or echo of fixed code: analyse it as its own script.
                ctx.nested(&text, lang, line);
                ctx.fact(
                    Cap::Spawn,
                    line,
                    format!("starts {prog} with fixed code on its input"),
                    "",
                );
            } else {
                let what = format!(
                    "pipes {} into {prog}",
                    labels(&[&code]).replace("data", "content")
                );
                ctx.derived_val(line, &code, true);
                ctx.sink(
                    Cap::DynamicExec,
                    Sink::Exec,
                    line,
                    what,
                    code.how.unwrap_or(""),
                    &[&code],
                );
            }
            let _ = how;
            Val::default()
        }
        None => {
            if words.contains(&"-i") {
                ctx.shell_wire_line = Some(line);
            }
            ctx.fact(Cap::Spawn, line, format!("starts {prog}"), "");
            Val::default()
        }
    }
}
