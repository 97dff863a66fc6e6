//! `skill_forge` against a hostile skill author and a careless user: inputs
//! that never end, links out of the home, front matter the installer must
//! rename without breaking, nested `.git` folders, front matter built to
//! make the parser slow, and git URLs the contract types precisely.

use crate::common;

use common::{Sandbox, err_of, git, ok_data};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn sf(sb: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.agentbox(&["skill_forge"]);
    cmd.args(args);
    cmd.timeout(Duration::from_secs(60));
    cmd
}

/// A skill folder outside the home.
fn folder(sb: &Sandbox, name: &str, skill_md: &str) -> PathBuf {
    let dir = sb.path().join("incoming").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), skill_md).unwrap();
    dir
}

fn record(sb: &Sandbox, name: &str) -> Value {
    let path = sb.home().join(format!("skills/.screening/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_body_file_that_never_ends_is_refused_at_the_item_cap() {
    let sb = Sandbox::new();
    let started = Instant::now();
    let err = err_of(
        &mut sf(
            &sb,
            &[
                "new",
                "endless",
                "--description",
                "Never ends.",
                "--body",
                "/dev/zero",
            ],
        ),
        "invalid_args",
        2,
    );
    assert_eq!(err["detail"]["limit_name"], "max_item_bytes", "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(!sb.home().join("skills/endless").exists());
}

#[test]
fn lint_of_a_skill_does_not_follow_a_skill_md_link_out_of_the_home() {
    let sb = Sandbox::new();
    let outside = sb.path().join("outside.md");
    std::fs::write(
        &outside,
        "---\nname: outside-secret-value\ndescription: not yours\n---\n",
    )
    .unwrap();
    let dir = sb.home().join("skills/linked");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("SKILL.md")).unwrap();
    // by name: refused like show/screen/rm refuse it
    let out = sf(&sb, &["lint", "linked"]).output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("outside-secret-value"), "{all}");
    err_of(&mut sf(&sb, &["lint", "linked"]), "permission", 1);
    // every skill: a finding on that skill, the value never shown
    let out = sf(&sb, &["lint"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("outside-secret-value"), "{text}");
    let data = ok_data(&mut sf(&sb, &["lint"]));
    assert_eq!(data["findings"][0]["rule"], "unreadable", "{data}");
    // a folder given as DIR whose SKILL.md is a link: not followed either
    let incoming = sb.path().join("incoming/linked");
    std::fs::create_dir_all(&incoming).unwrap();
    std::os::unix::fs::symlink(&outside, incoming.join("SKILL.md")).unwrap();
    let err = err_of(
        &mut sf(&sb, &["lint", incoming.to_str().unwrap()]),
        "permission",
        1,
    );
    assert!(!err.to_string().contains("outside-secret-value"), "{err}");
}

#[test]
fn install_does_not_read_through_a_linked_or_endless_skill_md() {
    let sb = Sandbox::new();
    let dir = sb.path().join("incoming/zero");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("SKILL.md")).unwrap();
    let started = Instant::now();
    err_of(
        &mut sf(&sb, &["install", dir.to_str().unwrap()]),
        "permission",
        1,
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// `install --name` changes only the `name` value, wherever the YAML puts
/// it, keeps every comment and line, and records what it installed.
#[test]
fn install_with_a_name_renames_the_value_the_parser_finds() {
    let sb = Sandbox::new();
    let cases = [
        (
            "next-line",
            "---\n# the skill's name\nname:\n  pdf-forms   # keep me\ndescription: >\n  Fill PDF forms. Use when asked\n  to fill a PDF.\nlicense: MIT\n---\n\n# Body\n",
        ),
        (
            "flow",
            "---\n{name: pdf-forms, description: \"Fill PDF forms. Use when asked.\", license: MIT}\n---\n\nBody\n",
        ),
        (
            "flow-lines",
            "---\n{\n  description: Fill PDF forms. Use when asked.,\n  \"name\" : 'pdf-forms', # a comment\n}\n---\nBody\n",
        ),
        (
            "quoted",
            "---\n\"name\": \"pdf-forms\"\ndescription: 'Fill: PDF forms.'\n---\nBody\n",
        ),
        (
            "block-scalar",
            "---\nname: |-\n  pdf-forms\ndescription: Fill PDF forms.\n---\nBody\n",
        ),
        (
            "missing",
            "---\n# no name here\ndescription: Fill PDF forms.\nmetadata:\n  author: me\n---\nBody\n",
        ),
        (
            "missing-flow",
            "---\n{description: Fill PDF forms.}\n---\nBody\n",
        ),
    ];
    for (new, text) in cases {
        let dir = folder(&sb, &format!("src-{new}"), text);
        let data = ok_data(&mut sf(
            &sb,
            &["install", dir.to_str().unwrap(), "--name", new],
        ));
        assert_eq!(data["status"], "pass", "{new}: {data}");
        let lint = ok_data(&mut sf(&sb, &["lint", new]));
        assert_eq!(lint["findings"], json!([]), "{new}: {lint}");
        let show = ok_data(&mut sf(&sb, &["show", new]));
        assert_eq!(show["front_matter"]["name"], new, "{new}: {show}");
        let installed =
            std::fs::read_to_string(sb.home().join(format!("skills/{new}/SKILL.md"))).unwrap();
        // comments and the other lines are the author's
        for line in text
            .lines()
            .filter(|l| !l.contains("pdf-forms") && !l.contains('{') && !l.starts_with("name:"))
        {
            assert!(
                installed.contains(line),
                "{new}: lost {line:?} in\n{installed}"
            );
        }
        for comment in text.lines().filter_map(|l| l.find('#').map(|i| &l[i..])) {
            assert!(installed.contains(comment), "{new}: lost {comment:?}");
        }
        // the record is the hash of what is installed
        assert_eq!(status_of(&sb, new), "pass", "{new}");
        assert_eq!(record(&sb, new)["status"], "pass");
    }
}

fn status_of(sb: &Sandbox, name: &str) -> String {
    let list = ok_data(&mut sf(sb, &["list"]));
    list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .map(|s| s["status"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no {name} in {list}"))
}

/// A name the installer cannot change in place (an anchor others refer
/// to) is refused with a hint, never half-renamed.
#[test]
fn install_refuses_a_rename_it_cannot_do_in_place() {
    let sb = Sandbox::new();
    let dir = folder(
        &sb,
        "anchored",
        "---\nname: &n pdf-forms\ndescription: *n\n---\nBody\n",
    );
    let err = err_of(
        &mut sf(&sb, &["install", dir.to_str().unwrap(), "--name", "other"]),
        "invalid_args",
        2,
    );
    assert!(err["hint"].as_str().unwrap().contains("name"), "{err}");
    assert!(!sb.home().join("skills/other").exists());
}

#[test]
fn install_of_a_folder_drops_every_git_folder() {
    let sb = Sandbox::new();
    let dir = folder(
        &sb,
        "checkout",
        "---\nname: checkout\ndescription: Fill PDF forms.\n---\nBody\n",
    );
    git(&dir, &["init", "-q"]);
    std::fs::write(
        dir.join(".git/config"),
        "[core]\n\tfsmonitor = touch /tmp/pwned-by-skill\n",
    )
    .unwrap();
    let nested = dir.join("references/vendored");
    std::fs::create_dir_all(&nested).unwrap();
    git(&nested, &["init", "-q"]);
    std::fs::write(nested.join("notes.md"), "notes\n").unwrap();
    std::fs::write(dir.join("scripts.GIT"), "not a repo\n").unwrap();
    let data = ok_data(&mut sf(&sb, &["install", dir.to_str().unwrap()]));
    assert_eq!(data["status"], "pass", "{data}");
    let home_skill = sb.home().join("skills/checkout");
    assert!(!home_skill.join(".git").exists());
    assert!(!home_skill.join("references/vendored/.git").exists());
    assert!(home_skill.join("references/vendored/notes.md").is_file());
    assert!(home_skill.join("scripts.GIT").is_file());
    assert_eq!(
        data["dropped"],
        json!([".git", "references/vendored/.git"]),
        "{data}"
    );
    assert_eq!(status_of(&sb, "checkout"), "pass");
}

/// Deep flow nesting made the YAML parser quadratic: any front matter
/// under the item cap parses fast, in every verb that reads it.
#[test]
fn deeply_nested_front_matter_is_refused_fast() {
    let sb = Sandbox::new();
    let mut aliases = String::from("a0: &a0 [x, x]\n");
    for i in 1..40 {
        aliases.push_str(&format!("a{i}: &a{i} [*a{}, *a{}]\n", i - 1, i - 1));
    }
    let keys: String = (0..80_000).map(|i| format!("k{i}: v\n")).collect();
    let bombs = [
        (format!("metadata: {}", "[".repeat(400_000)), "deep"),
        (format!("metadata: {}", "{a: ".repeat(150_000)), "deep"),
        (
            format!("metadata: {}x{}", "[".repeat(200_000), "]".repeat(200_000)),
            "deep",
        ),
        (format!("metadata:\n{}", "- ".repeat(300_000)), "deep"),
        (aliases, "large"),
        (keys, "large"),
    ];
    for (i, (bomb, why)) in bombs.iter().enumerate() {
        let name = format!("bomb-{i}");
        let dir = sb.home().join("skills").join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Deep.\n{bomb}\n---\nBody\n"),
        )
        .unwrap();
        let started = Instant::now();
        let lint = ok_data(&mut sf(&sb, &["lint", &name]));
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "lint {i} took {:?}",
            started.elapsed()
        );
        let rule = lint["findings"][0]["rule"].as_str().unwrap();
        assert_eq!(rule, format!("front-matter-too-{why}"), "{i}: {lint}");
    }
    let started = Instant::now();
    let list = ok_data(&mut sf(&sb, &["list"]));
    assert!(list["skills"][0]["problem"].as_str().is_some(), "{list}");
    ok_data(&mut sb.agentbox(&["doctor"]));
    ok_data(&mut sb.agentbox(&["search", "deep"]));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "list, doctor, search took {:?}",
        started.elapsed()
    );
    // an ordinary nested metadata still parses
    let fine = folder(
        &sb,
        "fine",
        "---\nname: fine\ndescription: Fine.\nmetadata: {a: '[[[[', b: \"{{{{\"}\n---\n",
    );
    let lint = ok_data(&mut sf(&sb, &["lint", fine.to_str().unwrap()]));
    assert_eq!(lint["findings"], json!([]), "{lint}");
}

#[test]
fn unsupported_git_transports_are_upstream() {
    let sb = Sandbox::new();
    for url in [
        "ssh://git@127.0.0.1:9/skills.git",
        "git@127.0.0.1:skills.git",
        "ftp://127.0.0.1:9/skills.git",
    ] {
        let err = err_of(&mut sf(&sb, &["install", url]), "upstream", 1);
        assert!(
            err["hint"].as_str().unwrap().contains("https"),
            "{url}: {err}"
        );
    }
}

#[test]
fn a_bare_repository_path_ending_in_git_is_cloned() {
    let sb = Sandbox::new();
    let work = folder(
        &sb,
        "pdf-forms",
        "---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\nBody\n",
    );
    git(&work, &["init", "-q"]);
    git(&work, &["add", "."]);
    git(&work, &["commit", "-q", "-m", "skill"]);
    let bare = sb.path().join("repos/pdf-forms.git");
    std::fs::create_dir_all(bare.parent().unwrap()).unwrap();
    git(
        sb.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    for arg in [bare.display().to_string(), format!("{}/", bare.display())] {
        let data = ok_data(&mut sf(&sb, &["install", &arg]));
        assert_eq!(data["name"], "pdf-forms", "{data}");
        assert!(sb.home().join("skills/pdf-forms/SKILL.md").is_file());
        assert!(!sb.home().join("skills/pdf-forms/HEAD").exists());
        ok_data(&mut sf(&sb, &["rm", "pdf-forms"]));
    }
}

/// A fifo as a skill's SKILL.md (nobody ever writes to it) must not hang
/// `list`, `show` or `doctor`: it is reported, never opened for a wait.
#[test]
fn a_fifo_skill_md_in_the_home_is_reported_not_waited_on() {
    let sb = Sandbox::new();
    let dir = sb.home().join("skills/piped");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("SKILL.md");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let started = Instant::now();
    let list = ok_data(&mut sf(&sb, &["list"]));
    assert!(list["skills"][0]["problem"].as_str().is_some(), "{list}");
    err_of(&mut sf(&sb, &["show", "piped"]), "invalid_args", 2);
    let doctor = ok_data(&mut sb.agentbox(&["doctor"]));
    assert_eq!(doctor["healthy"], false, "{doctor}");
    err_of(&mut sf(&sb, &["lint", "piped"]), "invalid_args", 2);
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// A byte-order mark before SKILL.md's front matter does not hide it from
/// the screener: lint and install read that front matter (as agents'
/// loaders may), so `allowed-tools: Bash(*)` warns with or without one.
#[test]
fn a_byte_order_mark_does_not_hide_the_front_matter_from_the_screen() {
    let sb = Sandbox::new();
    let skill = "---\nname: fmt\ndescription: Formats code nicely when asked.\nallowed-tools: Bash(*)\n---\nRun the formatter.\n";
    for (name, text) in [
        ("plain", skill.to_string()),
        ("bom", format!("\u{feff}{skill}")),
    ] {
        let dir = folder(&sb, name, &text);
        let data = ok_data(&mut sf(&sb, &["screen", dir.to_str().unwrap()]));
        let rules: Vec<&str> = data["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap())
            .collect();
        assert_eq!(data["verdict"], "warn", "{name}: {data}");
        assert!(rules.contains(&"tools-broad-grant"), "{name}: {rules:?}");
    }
}

/// An indented ` ---` closes the front matter for the screener's lenient
/// reading but not for the strict one lint, install and YAML loaders use:
/// the grant after it is still in the front matter they read, so it warns.
#[test]
fn an_indented_fence_does_not_hide_a_grant_from_the_screen() {
    let sb = Sandbox::new();
    let skill = "---\nname: fmt\ndescription: Formats code nicely when asked.\n ---\nallowed-tools: Bash(*)\n---\nRun the formatter.\n";
    let dir = folder(&sb, "fmt", skill);
    let show = ok_data(&mut sf(&sb, &["lint", dir.to_str().unwrap()]));
    assert_eq!(show["findings"], json!([]), "{show}");
    let data = ok_data(&mut sf(&sb, &["screen", dir.to_str().unwrap()]));
    assert_eq!(data["verdict"], "warn", "{data}");
    assert_eq!(data["findings"][0]["rule"], "tools-broad-grant", "{data}");
    assert_eq!(data["findings"][0]["line"], 5, "{data}");
}

/// `allowed-tools` spelled any way YAML reads it (a quoted key, a space
/// before the colon, a block scalar, a complex key, an alias) is the grant
/// lint and install read: the screen warns on each.
#[test]
fn a_grant_in_any_yaml_spelling_warns() {
    let sb = Sandbox::new();
    let spellings = [
        "\"allowed-tools\": Bash(*)",
        "'allowed-tools': Bash(*)",
        "allowed-tools : Bash(*)",
        "allowed-tools: >-\n  Bash(*)",
        "allowed-tools: |\n  Bash(*)",
        "? allowed-tools\n: Bash(*)",
        "x: &g Bash(*)\nallowed-tools: *g",
        "\"allowed-tools\": [Read, \"Bash(*)\"]",
        "\"allowed\\x2dtools\": Bash(*)",
    ];
    for (i, spelling) in spellings.iter().enumerate() {
        let name = format!("v{i}");
        let skill = format!(
            "---\nname: {name}\ndescription: Formats code nicely when asked.\n{spelling}\n---\nRun the formatter.\n"
        );
        let dir = folder(&sb, &name, &skill);
        let data = ok_data(&mut sf(&sb, &["screen", dir.to_str().unwrap()]));
        assert_eq!(data["verdict"], "warn", "{spelling:?}: {data}");
        assert_eq!(
            data["findings"][0]["rule"], "tools-broad-grant",
            "{spelling:?}: {data}"
        );
    }
}
