//! `agentbox init` below a folder that has a home already (issue #32):
//! commands find their home by looking upward for `.agent/`, so a second
//! home there would hide the first. init refuses and creates nothing;
//! `--nested` creates it anyway; a rerun in a folder with its own home is a
//! repair.

use crate::common;

use common::{Sandbox, err_of, ok_data};
use std::path::Path;

/// `agentbox --format json ARGS…` run in `dir`.
fn in_dir(sb: &Sandbox, dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = sb.agentbox(&["--format", "json"]);
    cmd.args(args).current_dir(dir);
    cmd
}

fn canonical(path: &Path) -> String {
    path.canonicalize().unwrap().display().to_string()
}

#[test]
fn init_below_a_home_is_refused_and_creates_nothing() {
    let sb = Sandbox::new();
    let sub = sb.path().join("docs/api");
    std::fs::create_dir_all(&sub).unwrap();
    let above = canonical(&sb.home());
    for (dir, args) in [
        (sub.as_path(), &["init"][..]),
        (sb.path(), &["init", "docs/api"][..]),
        (sb.path(), &["init", "docs/api/.agent"][..]),
        (sb.path(), &["init", "docs/fresh"][..]),
    ] {
        let err = err_of(&mut in_dir(&sb, dir, args), "conflict", 1);
        assert_eq!(err["detail"]["home_above"], above, "{args:?}: {err}");
        let message = err["message"].as_str().unwrap();
        assert!(message.contains(&above), "{message}");
        let hint = err["hint"].as_str().unwrap();
        assert!(hint.contains("--nested"), "{hint}");
        assert!(hint.contains("then use the new home"), "{hint}");
    }
    assert!(!sub.join(".agent").exists(), "nothing was created");
    assert!(
        !sb.path().join("docs/fresh").exists(),
        "nothing was created"
    );
    // --home or AGENTBOX_HOME naming a `.agent` below the project: the same.
    let named = sub.join(".agent");
    let err = err_of(
        in_dir(&sb, sb.path(), &["init", "--home"]).arg(&named),
        "conflict",
        1,
    );
    assert_eq!(err["detail"]["home_above"], above);
    err_of(
        in_dir(&sb, sb.path(), &["init"]).env("AGENTBOX_HOME", &named),
        "conflict",
        1,
    );
    assert!(!named.exists());
    // A home not named `.agent` hides nothing (commands reach it only by
    // --home or AGENTBOX_HOME): created as before.
    let data = ok_data(&mut in_dir(
        &sb,
        sb.path(),
        &["init", "--home", "docs/memory"],
    ));
    assert_eq!(data["home_above"], serde_json::Value::Null);
    assert!(sb.path().join("docs/memory/config.json").is_file());
}

/// Commands in a folder reached through a symlink see its physical path,
/// so init looks for the home above there too.
#[test]
fn init_through_a_symlink_finds_the_home_above_the_real_folder() {
    let sb = Sandbox::new();
    let sub = sb.path().join("docs");
    std::fs::create_dir_all(&sub).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let link = elsewhere.path().join("docs-link");
    std::os::unix::fs::symlink(&sub, &link).unwrap();
    let err = err_of(&mut in_dir(&sb, &link, &["init"]), "conflict", 1);
    assert_eq!(err["detail"]["home_above"], canonical(&sb.home()));
    assert!(!sub.join(".agent").exists());
}

#[test]
fn nested_creates_the_home_and_commands_below_use_it() {
    let sb = Sandbox::new();
    ok_data(&mut sb.plan(&["create", "Outer plan", "--step", "a"]));
    let sub = sb.path().join("docs");
    std::fs::create_dir_all(&sub).unwrap();
    let data = ok_data(&mut in_dir(&sb, &sub, &["init", "--nested"]));
    assert_eq!(data["home"], canonical(&sub.join(".agent")));
    assert_eq!(data["home_above"], canonical(&sb.home()));
    assert!(sub.join(".agent/config.json").is_file());
    // Commands run there now use the new, empty home.
    let list = ok_data(&mut in_dir(&sb, &sub, &["plan", "list"]));
    assert_eq!(list["plans"], serde_json::json!([]), "{list}");
    let outer = ok_data(&mut sb.agentbox(&["--format", "json", "plan", "list"]));
    assert_eq!(outer["plans"].as_array().unwrap().len(), 1, "{outer}");

    // A rerun there is a repair: no --nested needed, nothing created.
    std::fs::remove_file(sub.join(".agent/tools/plan")).unwrap();
    let again = ok_data(&mut in_dir(&sb, &sub, &["init"]));
    assert_eq!(again["created"], serde_json::json!([]));
    assert_eq!(again["links"][0]["state"], "created");
    assert_eq!(again["home_above"], canonical(&sb.home()));
    let third = ok_data(&mut in_dir(&sb, &sub, &["init"]));
    assert_eq!(third["links"][0]["state"], "ok");
    // And the text says which home commands there use.
    let out = sb
        .agentbox(&["--format", "text", "init"])
        .current_dir(&sub)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "Nested: commands run in {} use this home, not {}",
            canonical(&sub),
            canonical(&sb.home())
        )),
        "{text}"
    );
}

/// The project's own home rerun: no home above, no word of nesting.
#[test]
fn a_home_with_nothing_above_says_nothing_of_nesting() {
    let sb = Sandbox::new();
    let data = ok_data(&mut sb.agentbox(&["--format", "json", "init"]));
    assert_eq!(data["home_above"], serde_json::Value::Null);
    let out = sb.agentbox(&["--format", "text", "init"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Nested"));
}

/// A file or a dangling symlink where `.agent` goes is something in the
/// way (`conflict`, saying so), not an I/O failure whose hint blames
/// permissions and disk space; it is left as it is.
#[test]
fn init_where_a_file_or_a_dangling_link_is_in_the_way_is_a_conflict() {
    let sb = Sandbox::empty();
    for (name, make) in [
        (
            "file",
            &(|p: &Path| std::fs::write(p, "x").unwrap()) as &dyn Fn(&Path),
        ),
        ("link", &|p: &Path| {
            std::os::unix::fs::symlink("/nonexistent/agent", p).unwrap()
        }),
    ] {
        let dir = sb.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let home = dir.join(".agent");
        make(&home);
        let err = err_of(&mut in_dir(&sb, &dir, &["init"]), "conflict", 1);
        let message = err["message"].as_str().unwrap();
        assert!(message.contains("in the way"), "{name}: {err}");
        assert!(
            std::fs::symlink_metadata(&home).is_ok(),
            "{name}: left as it is"
        );
    }
}
