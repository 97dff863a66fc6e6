//! Calls that touch the network or the disk: sockets and clients, HTTP
//! senders and fetchers, DNS lookups; file opens, reads, writes, copies and
//! recursive deletes. `calls::apply` tries these after decoders and exec.

use super::super::facts::Cap;
use super::Lang;
use super::call::{Call, FETCHERS, SENDERS, is};
use super::eval::{self, Ctx, Label, Sink, Val, describe, labels};

/// Sockets, HTTP senders and fetchers.
pub(super) fn network(ctx: &mut Ctx, c: &Call, name: &str, last: &str) -> Option<Val> {
    let line = c.line;
    // Sockets and clients: remember them; writing to them is egress.
    if matches!(
        name,
        "socket.socket"
            | "socket.create_connection"
            | "net.connect"
            | "net.createconnection"
            | "net.socket"
            | "tcpsocket.new"
            | "socket.new"
            | "io.socket.inet.new"
            | "system.net.sockets.tcpclient"
            | "net.sockets.tcpclient"
            | "tls.connect"
            | "websocket"
    ) || last == "tcpclient"
    {
        ctx.socket_line = Some(line);
        return Some(Val {
            net: true,
            ..Val::default()
        });
    }
    if matches!(
        name,
        "http.request"
            | "https.request"
            | "http.client.httpsconnection"
            | "http.client.httpconnection"
            | "httplib.httpsconnection"
            | "smtplib.smtp"
            | "smtplib.smtp_ssl"
            | "ftplib.ftp"
            | "net.smtp.new"
            | "net.smtp.start"
            | "net.http.new"
            | "net.http.start"
            | "lwp.useragent.new"
            | "new-object"
    ) {
        let mut v = Val {
            net: true,
            ..Val::default()
        };
        if name == "new-object"
            && !c.args.iter().any(|a| {
                a.text.as_deref().is_some_and(|t| {
                    t.to_ascii_lowercase().contains("webclient")
                        || t.to_ascii_lowercase().contains("tcpclient")
                })
            })
        {
            v.net = false;
        }
        if c.args.iter().any(|a| {
            a.text
                .as_deref()
                .is_some_and(|t| t.to_ascii_lowercase().contains("tcpclient"))
        }) {
            ctx.socket_line = Some(line);
        }
        return Some(v);
    }
    let recv_net = c.recv.as_ref().is_some_and(|r| r.net);
    if last == "connect" && c.recv.is_some() {
        ctx.socket_line = Some(line);
        return Some(Val {
            net: true,
            ..Val::default()
        });
    }
    if recv_net
        && matches!(
            last,
            "send"
                | "sendall"
                | "sendto"
                | "write"
                | "end"
                | "emit"
                | "sendmail"
                | "send_message"
                | "print"
                | "puts"
                | "syswrite"
                | "request"
        )
    {
        let data: Vec<&Val> = c.args.iter().skip(usize::from(last == "request")).collect();
        if data
            .iter()
            .any(|d| d.text.is_some() || !d.taints.is_empty())
            || !data.is_empty()
        {
            let what = format!("sends {} over a network connection", labels(&data));
            ctx.sink(Cap::Egress, Sink::Network, line, what, "", &data);
        }
        return Some(Val::mix(data).taint(Label::Downloaded, None));
    }
    // DNS lookups carrying computed names.
    if matches!(
        last,
        "gethostbyname"
            | "getaddrinfo"
            | "resolve"
            | "resolve4"
            | "query"
            | "lookup"
            | "gethostbyname_ex"
    ) && (name.contains("socket") || name.contains("dns") || name.contains("resolver"))
    {
        let host = c.arg(0).cloned().unwrap_or_default();
        if host.text.is_none() || !host.taints.is_empty() {
            ctx.sink(
                Cap::Egress,
                Sink::Network,
                line,
                "looks up a DNS name built from data".into(),
                "",
                &[&host],
            );
        }
        return Some(Val::default());
    }
    let url = c.arg(0).cloned().unwrap_or_default();
    // Senders: POST/PUT/PATCH and friends.
    let method_kw = c
        .kw("method")
        .and_then(|m| m.text.clone())
        .map(|m| m.to_ascii_lowercase());
    let opts_method = c
        .arg(1)
        .and_then(|o| o.field("method"))
        .and_then(|m| m.text.clone())
        .map(|m| m.to_ascii_lowercase());
    let body_opt = c
        .arg(1)
        .and_then(|o| {
            o.field("body")
                .or(o.field("data"))
                .or(o.field("json"))
                .or(o.field("form"))
        })
        .cloned();
    let request_method = (last == "request" && c.args.len() >= 2)
        .then(|| c.arg(0).and_then(|m| m.text.clone()))
        .flatten()
        .map(|m| m.to_ascii_lowercase());
    let method = method_kw.or(opts_method).or(request_method.clone());
    let is_sender = SENDERS.contains(&last)
        && (c.recv.is_some() || name.contains('.') || c.lang == Lang::Perl)
        || method
            .as_deref()
            .is_some_and(|m| matches!(m, "post" | "put" | "patch"))
        || (last == "request" && name.starts_with("urllib") && c.kw("data").is_some())
        || (last == "urlopen" && (c.kw("data").is_some() || c.args.len() >= 2))
        || (matches!(last, "request" | "req")
            && c.arg(1)
                .is_some_and(|d| d.text.is_some() || !d.taints.is_empty())
            && name.contains("urllib"));
    if is_sender {
        let url = if request_method.is_some() {
            c.arg(1).cloned().unwrap_or_default()
        } else {
            url
        };
        let mut data: Vec<&Val> = Vec::new();
        // Every keyword argument is data except those that address or authenticate.
        for (k, v) in &c.kw {
            if !matches!(
                k.as_str(),
                "headers"
                    | "header"
                    | "auth"
                    | "cookies"
                    | "cert"
                    | "timeout"
                    | "verify"
                    | "method"
                    | "uri"
                    | "url"
                    | "outfile"
                    | "contenttype"
                    | "proxy"
                    | "allow_redirects"
                    | "stream"
                    | "useragent"
                    | "usebasicparsing"
                    | "credential"
                    | "token"
            ) {
                data.push(v);
            }
        }
        let skip = if request_method.is_some() { 2 } else { 1 };
        for a in c.args.iter().skip(skip) {
            if a.fields.is_some() && (a.field("headers").is_some() || a.field("method").is_some()) {
                continue;
            }
            data.push(a);
        }
        if let Some(b) = &body_opt {
            data.push(b);
        }
        data.push(&url);
        // "POSTs secret data to URL", or "sends … to" for mail, sockets, `urlopen(data=…)`.
        let verb = match method.as_deref().unwrap_or(last) {
            m @ ("post" | "put" | "patch") => format!("{}s", m.to_ascii_uppercase()),
            "sendmail" | "send_message" => "mails".to_string(),
            _ => "sends".to_string(),
        };
        let what = format!(
            "{verb} {} to {}",
            labels(&data[..data.len() - 1]),
            describe(&url)
        );
        ctx.sink(
            Cap::Egress,
            Sink::Network,
            line,
            what,
            url.how.unwrap_or(""),
            &data,
        );
        return Some(Val::default().taint(Label::Downloaded, None));
    }
    if (name == "fetch" || name == "axios") && body_opt.is_some() {
        let b = body_opt.unwrap_or_default();
        let what = format!("sends {} to {}", labels(&[&b]), describe(&url));
        ctx.sink(Cap::Egress, Sink::Network, line, what, "", &[&b, &url]);
        return Some(Val::default());
    }
    // Fetchers.
    let requests_like = |n: &str| {
        let root = n.split('.').next().unwrap_or("");
        matches!(
            root,
            "requests"
                | "httpx"
                | "session"
                | "s"
                | "client"
                | "axios"
                | "http"
                | "https"
                | "urllib3"
                | "aiohttp"
                | "sess"
                | "urllib"
                | "urllib2"
                | "lwp"
                | "net"
                | "uri"
                | "faraday"
                | "httparty"
                | "restclient"
        )
    };
    let recv_url = c.recv.as_ref().is_some_and(|r| r.net);
    let fetch = is(FETCHERS, name, last)
        && (last != "get"
            || requests_like(name)
            || recv_url
            || c.lang == Lang::Perl
            || url.text.as_deref().is_some_and(eval::is_url))
        && (last != "request" || requests_like(name))
        && !(c.lang == Lang::Python
            && last == "get"
            && c.recv.is_some()
            && !recv_url
            && !url.text.as_deref().is_some_and(eval::is_url));
    if fetch {
        let target = if matches!(last, "downloadstring" | "downloadfile" | "downloaddata")
            || url.text.is_some()
        {
            url.clone()
        } else {
            c.kw("uri").cloned().unwrap_or(url.clone())
        };
        let src = ctx.fact(
            Cap::Fetch,
            line,
            format!("downloads {}", describe(&target)),
            target.how.unwrap_or(""),
        );
        // Query strings and paths carry data too.
        if !target.taints.is_empty() && target.has(Label::Secret) || target.has(Label::SecretEnv) {
            ctx.sink(
                Cap::Egress,
                Sink::Network,
                line,
                format!(
                    "sends {} in the address {}",
                    labels(&[&target]),
                    describe(&target)
                ),
                "",
                &[&target],
            );
        }
        let mut out = Val::default().taint(Label::Downloaded, src);
        out.net = false;
        let dest = match last {
            "urlretrieve" | "getstore" => c.arg(1).cloned(),
            "downloadfile" => c.arg(1).cloned(),
            _ => c.kw("outfile").or(c.kw("o")).cloned(),
        };
        if let Some(d) = dest.and_then(|d| d.text) {
            ctx.wrote_path(&d, line, &out);
        }
        return Some(out);
    }
    None
}

/// File reads, writes and deletions.
pub(super) fn files(ctx: &mut Ctx, c: &Call, name: &str, last: &str) -> Option<Val> {
    let line = c.line;
    let first_path = c.arg(0).and_then(|a| a.text_or_path().map(str::to_string));
    match last {
        "open" | "io.open" | "file" | "fopen"
            if c.recv.as_ref().is_none_or(|r| r.path.is_some())
                && !name.starts_with("webbrowser") =>
        {
            let (path, mode) = if c.lang == Lang::Perl && c.args.len() >= 3 {
                (
                    c.arg(2).and_then(|a| a.text.clone()),
                    c.arg(1).and_then(|a| a.text.clone()).unwrap_or_default(),
                )
            } else if let Some(r) = c.recv.as_ref().filter(|r| r.path.is_some()) {
                (
                    r.path.clone(),
                    c.arg(0).and_then(|a| a.text.clone()).unwrap_or_default(),
                )
            } else {
                (
                    first_path,
                    c.arg(1)
                        .or(c.kw("mode"))
                        .and_then(|a| a.text.clone())
                        .unwrap_or_default(),
                )
            };
            let path = path?;
            if eval::is_url(&path) {
                let src = ctx.fact(Cap::Fetch, line, format!("downloads {path}"), "");
                return Some(Val::default().taint(Label::Downloaded, src));
            }
            let write = mode.contains('w') || mode.contains('a') || mode.contains('>');
            let mut v = if write {
                Val::default()
            } else {
                ctx.read_path(&path, line)
            };
            if write {
                ctx.wrote_path(&path, line, &Val::default());
            }
            v.path = Some(path);
            v.write = write;
            Some(v)
        }
        "write" | "write_text" | "write_bytes" | "writelines" | "print" | "puts"
        | "writefilesync" | "writefile" | "appendfilesync" | "appendfile" | "set-content"
        | "add-content" | "out-file" | "writealltext" | "appendalltext" => {
            let (path, data) = match &c.recv {
                Some(r) if r.path.is_some() => (r.path.clone(), c.arg(0).cloned()),
                _ if matches!(last, "write" | "print" | "puts") => return None,
                _ => (first_path, c.arg(1).or(c.kw("value")).cloned()),
            };
            let path = path?;
            let data = data.unwrap_or_default();
            ctx.wrote_path(&path, line, &data);
            Some(Val::default())
        }
        "read_text" | "read_bytes" | "readfilesync" | "readfile" | "readalltext"
        | "readallbytes" | "get-content" | "gc" | "createreadstream" | "readlines" | "binread"
        | "read"
            if c.recv
                .as_ref()
                .and_then(|r| r.path.clone())
                .or(first_path.clone())
                .is_some() =>
        {
            let path = c
                .recv
                .as_ref()
                .and_then(|r| r.path.clone())
                .filter(|_| c.args.is_empty() || last == "read")
                .or(first_path)?;
            Some(ctx.read_path(&path, line))
        }
        "rmtree" | "rmsync" | "rm" | "rmdir" | "remove-item" | "rm_rf" | "rm_r"
        | "remove_dir_all" => {
            let p = first_path?;
            if eval::destroy_path(&p) {
                ctx.fact(Cap::Destroy, line, format!("deletes {p} recursively"), "");
            }
            Some(Val::default())
        }
        "copy" | "copyfile" | "copy2" | "copyfilesync" | "cp" | "copy-item" | "move" | "rename" => {
            let (src, dst) = (c.arg(0)?, c.arg(1)?);
            let data = src
                .text_or_path()
                .map(|p| ctx.read_path(p, line))
                .unwrap_or_default();
            if let Some(d) = dst.text_or_path() {
                let d = d.to_string();
                ctx.wrote_path(&d, line, &data);
            }
            Some(Val::default())
        }
        "expanduser" | "abspath" | "realpath" | "normpath" | "resolve" | "expand_path" | "path"
        | "pathlib.path" | "file.expand_path" | "resolve-path" | "join-path" | "join"
        | "joinpath" => {
            let parts: Vec<String> = c
                .recv
                .iter()
                .chain(c.args.iter())
                .map(|a| a.text_or_path().map(str::to_string))
                .collect::<Option<_>>()?;
            if parts.is_empty() {
                return None;
            }
            if last == "join"
                && !(name.contains("path") || c.recv.as_ref().is_some_and(|r| r.path.is_some()))
            {
                return None;
            }
            let p = parts.join("/").replace("//", "/");
            Some(Val {
                path: Some(p.clone()),
                text: Some(p),
                ..Val::default()
            })
        }
        "home" if name.contains("path") => Some(Val {
            path: Some("~".into()),
            text: Some("~".into()),
            ..Val::default()
        }),
        "homedir" => Some(Val::lit("~")),
        _ => None,
    }
}
