//! Checking and normalising what callers give a note: title, body, tags,
//! sources, links and claims. Every refusal is `invalid_args` naming the flag.

use super::note;
use super::{Claim, MAX_TITLE_CHARS, check_slug};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::store::check_size;
use serde_json::Value;

pub(super) fn invalid(message: impl Into<String>, flag: &str) -> Error {
    let hint = match flag {
        "--claim" => "write a claim as KEY=VALUE, like --claim go.formatter=gofmt",
        "--tag" => "tags are single words like go or code-style",
        _ => "see `knowledge <verb> --help`",
    };
    Error::invalid_args(message)
        .with_hint(hint)
        .with_detail("flag", flag)
}

pub(super) fn clean_title(title: &str) -> Result<String> {
    let title = title.trim();
    note::check_title(title).map_err(|m| {
        let count = title.chars().count();
        let err = invalid(m, "title");
        if count > MAX_TITLE_CHARS {
            err.with_limit("title_chars", count as u64, MAX_TITLE_CHARS as u64)
        } else {
            err
        }
    })?;
    Ok(title.to_string())
}

pub(super) fn clean_body(home: &Home, body: &str) -> Result<String> {
    check_size(
        "the note body",
        body.len() as u64,
        home.store.max_item_bytes(),
    )?;
    // A NUL byte turns the markdown file into a binary one (git, grep, editors).
    if let Some(at) = body.find('\0') {
        let line = body[..at].matches('\n').count() + 1;
        return Err(Error::invalid_args(format!(
            "the note body contains a NUL byte (line {line})"
        ))
        .with_hint("a note is markdown text: remove the NUL byte")
        .with_detail("flag", "--body")
        .with_detail("line", line));
    }
    Ok(body
        .replace("\r\n", "\n")
        .trim_start_matches('\n')
        .trim_end()
        .to_string())
}

pub(super) fn clean_tags(tags: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for tag in tags {
        let tag = note::normalize_tag(tag).map_err(|m| invalid(m, "--tag"))?;
        if !out.contains(&tag) {
            out.push(tag);
        }
    }
    Ok(out)
}

pub(super) fn clean_items(items: &[String], flag: &str) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        let item = item.trim();
        note::check_item(item).map_err(|m| invalid(m, flag))?;
        if !out.iter().any(|o| o == item) {
            out.push(item.to_string());
        }
    }
    Ok(out)
}

pub(super) fn clean_links(links: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for link in links {
        check_slug(link)?;
        if !out.contains(link) {
            out.push(link.clone());
        }
    }
    Ok(out)
}

/// Claims from `(key, value)` input: keys lowercased, values trimmed; one key
/// twice with different values is `invalid_args`.
pub(super) fn clean_claims(claims: &[(String, String)]) -> Result<Vec<Claim>> {
    let mut out: Vec<Claim> = Vec::new();
    for (key, value) in claims {
        let key = key.trim().to_lowercase();
        let value = value.trim().to_string();
        note::check_claim_key(&key).map_err(|m| invalid(m, "--claim"))?;
        note::check_claim_value(&key, &value).map_err(|m| invalid(m, "--claim"))?;
        match out.iter().find(|c| c.key == key) {
            Some(c) if Claim::same_value(&c.value, &value) => {}
            Some(c) => {
                return Err(invalid(
                    format!(
                        "the claim '{key}' is given twice with different values ('{}' and '{value}')",
                        c.value
                    ),
                    "--claim",
                ));
            }
            None => out.push(Claim { key, value }),
        }
    }
    Ok(out)
}

/// Parses `KEY=VALUE` (the CLI form of a claim).
pub fn parse_claim_arg(arg: &str) -> Result<(String, String)> {
    match arg.split_once('=') {
        Some((key, value)) => Ok((key.to_string(), value.to_string())),
        None => Err(invalid(
            format!("the claim {} has no '=': write KEY=VALUE", Value::from(arg)),
            "--claim",
        )),
    }
}
