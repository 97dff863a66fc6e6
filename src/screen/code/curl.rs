//! `curl` and `wget`: a download (to stdout or a file) or an upload (`-d`,
//! `-F`, `-T`, `--data-binary @-`, `--post-file`), with the data each flag
//! sends and the file `-o`/`-O` writes.

use super::super::facts::Cap;
use super::eval::{Ctx, Label, Sink, Val, describe, labels, t};

/// `curl`/`wget`: a fetch, an upload, or both.
pub(super) fn curl(
    ctx: &mut Ctx,
    prog: &str,
    args: &[Val],
    stdin: Option<Val>,
    line: usize,
) -> Val {
    let mut url = None;
    let mut data: Vec<Val> = Vec::new();
    let mut out_file = None;
    let mut method = None;
    let mut i = 0;
    let takes_value = |w: &str| {
        matches!(
            w,
            "-H" | "--header"
                | "-o"
                | "--output"
                | "-O"
                | "-X"
                | "--request"
                | "-d"
                | "--data"
                | "--data-binary"
                | "--data-raw"
                | "--data-urlencode"
                | "--json"
                | "-F"
                | "--form"
                | "-T"
                | "--upload-file"
                | "-u"
                | "--user"
                | "-A"
                | "--user-agent"
                | "-e"
                | "--referer"
                | "-b"
                | "--cookie"
                | "-c"
                | "--cookie-jar"
                | "--connect-timeout"
                | "-m"
                | "--max-time"
                | "--retry"
                | "-w"
                | "--write-out"
                | "--post-data"
                | "--post-file"
                | "--body-data"
                | "--body-file"
                | "--header="
                | "-P"
                | "--cacert"
                | "--cert"
                | "--key"
                | "-x"
                | "--proxy"
                | "--method"
                | "-U"
                | "--output-document"
                | "--resolve"
                | "--limit-rate"
                | "--proto"
                | "--proto-redir"
                | "--ciphers"
                | "-K"
                | "--config"
                | "--interface"
                | "--dns-servers"
        )
    };
    while i < args.len() {
        let w = t(&args[i]).to_string();
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (w.clone(), None),
        };
        let val = |i: usize| -> Option<Val> {
            match &inline {
                Some(v) => Some(Val {
                    text: Some(v.clone()),
                    taints: args[i].taints.clone(),
                    ..Val::default()
                }),
                None => args.get(i + 1).cloned(),
            }
        };
        let short_o =
            prog == "wget" && (flag == "-qO" || flag == "-O" || flag == "-qO-" || flag == "-O-");
        if flag.starts_with('-') && (takes_value(&flag) || short_o) {
            let v = if flag.ends_with("O-") {
                Some(Val::lit("-"))
            } else {
                val(i)
            };
            let v = v.unwrap_or_default();
            match flag.as_str() {
                "-d" | "--data" | "--data-binary" | "--data-raw" | "--data-urlencode"
                | "--json" | "--post-data" | "--body-data" => {
                    data.push(data_arg(
                        ctx,
                        &v,
                        stdin.as_ref(),
                        line,
                        flag != "--data-raw",
                    ));
                }
                "-F" | "--form" => {
                    let tx = t(&v).to_string();
                    let file = tx
                        .split_once("=@")
                        .or_else(|| tx.split_once("=<"))
                        .map(|(_, f)| f.split(';').next().unwrap_or(f).to_string());
                    data.push(match file {
                        Some(f) => {
                            data_arg(ctx, &Val::lit(format!("@{f}")), stdin.as_ref(), line, true)
                        }
                        None => v.clone(),
                    });
                }
                "-T" | "--upload-file" | "--post-file" | "--body-file" => {
                    let f = t(&v).to_string();
                    data.push(if f == "-" {
                        stdin.clone().unwrap_or_default()
                    } else {
                        ctx.read_path(&f, line)
                    });
                    method.get_or_insert("PUT".to_string());
                }
                "-X" | "--request" | "--method" => method = Some(t(&v).to_ascii_uppercase()),
                "-o" | "--output" | "-O" | "--output-document" | "-qO" | "-qO-" | "-O-"
                    if !(prog == "curl" && flag == "-O") =>
                {
                    out_file = Some(t(&v).to_string());
                }
                _ => {}
            }
            if inline.is_none() && !flag.ends_with("O-") && !(prog == "curl" && flag == "-O") {
                i += 1;
            }
        } else if !flag.starts_with('-') && url.is_none() {
            url = Some(args[i].clone());
        }
        i += 1;
    }
    let url = url.unwrap_or_default();
    let sending = !data.is_empty()
        || method
            .as_deref()
            .is_some_and(|m| matches!(m, "POST" | "PUT" | "PATCH"));
    if sending {
        let refs: Vec<&Val> = data.iter().chain(std::iter::once(&url)).collect();
        let what = format!(
            "{}s {} to {}",
            method.as_deref().unwrap_or("POST"),
            labels(&refs[..refs.len() - 1]),
            describe(&url)
        );
        ctx.sink(
            Cap::Egress,
            Sink::Network,
            line,
            what,
            url.how.unwrap_or(""),
            &refs,
        );
        return Val::default().taint(Label::Downloaded, None);
    }
    if url.has(Label::Secret) || url.has(Label::SecretEnv) {
        ctx.sink(
            Cap::Egress,
            Sink::Network,
            line,
            format!(
                "sends {} in the address {}",
                labels(&[&url]),
                describe(&url)
            ),
            "",
            &[&url],
        );
    }
    let src = ctx.fact(
        Cap::Fetch,
        line,
        format!("downloads {}", describe(&url)),
        url.how.unwrap_or(""),
    );
    let body = Val::default().taint(Label::Downloaded, src);
    match out_file.as_deref() {
        Some("-") | None if prog == "curl" || out_file.is_some() => body,
        Some(f) => {
            ctx.wrote_path(f, line, &body);
            Val::default()
        }
        None => {
            // wget without -O saves under the URL's last segment.
            if let Some(name) = url
                .text
                .as_deref()
                .and_then(|u| u.rsplit('/').next())
                .filter(|n| !n.is_empty())
            {
                ctx.wrote_path(name, line, &body);
            }
            Val::default()
        }
    }
}

/// A `-d` value: `@file` reads the file, `@-` is stdin.
pub(super) fn data_arg(
    ctx: &mut Ctx,
    v: &Val,
    stdin: Option<&Val>,
    line: usize,
    at_file: bool,
) -> Val {
    match v
        .text
        .as_deref()
        .and_then(|s| s.strip_prefix('@'))
        .filter(|_| at_file)
    {
        Some("-") => stdin.cloned().unwrap_or_default(),
        Some(f) => ctx.read_path(f, line),
        None => v.clone(),
    }
}
