//! `agentbox view`'s Memory pages through the real binary: the episode list
//! and its pages, an episode's timeline (tool calls with durations and
//! errors, an imported odek run), search with its matches marked, notes
//! with revisions and claim conflicts, profile facts; bad ids, request
//! values shaped like flags, hostile content and secrets.

use crate::common;

use common::view::View;
use common::{Sandbox, ok_data};
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/track");
/// The episode `seed` records in session ops (home id k3f9q2, fixed clock).
const OPS: &str = "ep-20260115T093000Z-k3f9q2-1";
/// The episode the odek fixture is imported as.
const ODEK: &str = "ep-20260110T080000Z-k3f9q2-1";

/// `agentbox ARGS…` with `input` on stdin; must succeed.
fn run(sb: &Sandbox, args: &[&str], input: &str) -> Value {
    let mut cmd = sb.agentbox(args);
    cmd.write_stdin(input.to_string());
    ok_data(&mut cmd)
}

fn record(sb: &Sandbox, session: &str, messages: Value) {
    let batch = json!({"sessionKey": session, "messages": messages}).to_string();
    run(
        sb,
        &["track", "record", "--messages", "-", "--flush"],
        &batch,
    );
}

/// A home with an imported odek run, a recorded conversation with a tool
/// call, two notes whose claims contradict (one written by hand, as
/// `knowledge add` refuses a contradiction), a superseded note and facts.
fn seed(sb: &Sandbox) {
    run(
        sb,
        &["track", "import", &format!("{FIXTURES}/odek-batched.jsonl")],
        "",
    );
    record(
        sb,
        "ops",
        json!([
            {"role": "user", "content": "Why does the deploy fail?"},
            {"role": "assistant", "content": "Checking the logs.", "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "kubectl logs web"}}]},
            {"role": "tool", "content": "Error: image pull backoff", "toolCallId": "c1", "timestamp": "2026-01-15T09:30:00Z"},
            {"role": "assistant", "content": "The image tag is wrong."}
        ]),
    );
    run(
        sb,
        &[
            "knowledge",
            "add",
            "Go formatting",
            "--body",
            "Run gofmt -w . before committing.",
            "--tag",
            "go",
            "--claim",
            "go.formatter=gofmt",
        ],
        "",
    );
    run(
        sb,
        &[
            "knowledge",
            "add",
            "Go imports",
            "--claim",
            "go.formatter=goimports",
            "--supersede",
        ],
        "",
    );
    std::fs::write(
        sb.home().join("memory/knowledge/go-style.md"),
        "---\ntitle: Go style\nrev: 1\nclaims:\n  - go.formatter: gofumpt\nlinks: [missing-note]\n---\n\nWe use gofumpt.\n",
    )
    .unwrap();
    run(
        sb,
        &["knowledge", "profile", "add", "Works at Example Corp."],
        "",
    );
    run(
        sb,
        &[
            "knowledge",
            "profile",
            "add",
            "Prefers tabs over spaces.",
            "--preference",
        ],
        "",
    );
}

/// How many times `needle` occurs in `text`.
fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

#[test]
fn every_route_shows_what_the_verbs_return() {
    let sb = Sandbox::new();
    seed(&sb);
    let view = View::start(&sb, &[]);

    let list = view.page("/memory");
    assert!(
        list.contains("<main id=\"main\" data-page=\"memory\""),
        "{list}"
    );
    assert!(list.contains("<h1>Memory</h1>"), "{list}");
    assert!(
        list.contains(&format!(
            "href=\"/memory/episode?id={OPS}\">Why does the deploy fail?</a>"
        )),
        "{list}"
    );
    assert!(
        list.contains(&format!("href=\"/memory/episode?id={ODEK}\"")),
        "{list}"
    );
    assert!(
        list.contains("href=\"/memory?session=deploy-review\""),
        "{list}"
    );
    assert!(list.contains("<form class=\"search\""), "{list}");
    assert!(
        !list.contains("class=\"pager\""),
        "one page needs no pager: {list}"
    );
    let ops = view.page("/memory?session=ops");
    assert!(ops.contains(OPS) && !ops.contains(ODEK), "{ops}");

    // A recorded conversation: roles, the call, the turn that answered it.
    let ep = view.page(&format!("/memory/episode?id={OPS}"));
    assert!(ep.contains("<ol class=\"timeline\""), "{ep}");
    for role in ["user", "assistant", "tool"] {
        assert!(
            ep.contains(&format!("<li class=\"turn {role}\"")),
            "{role}: {ep}"
        );
    }
    assert_eq!(count(&ep, "<li class=\"turn "), 4, "{ep}");
    assert!(
        ep.contains(
            "<li class=\"tool-call\"><span class=\"call\">⚙ <code class=\"name\">shell</code>"
        ),
        "{ep}"
    );
    assert!(
        ep.contains("{&quot;cmd&quot;:&quot;kubectl logs web&quot;}"),
        "{ep}"
    );
    assert!(
        ep.contains("<a href=\"#turn-3\">answered in #3</a>"),
        "{ep}"
    );
    assert!(ep.contains("→ result for call c1"), "{ep}");
    // A turn's id opens its episode too.
    let by_turn = view.page(&format!("/memory/episode?id={OPS}%232"));
    assert!(by_turn.contains("Why does the deploy fail?"), "{by_turn}");

    // An imported odek run: durations, the failed and the unfinished call.
    let run = view.page(&format!("/memory/episode?id={ODEK}"));
    assert!(
        run.contains("<dt>Imported odek run</dt><dd>4f1c9a2be0d34c7f8a6b5e4d3c2b1a09</dd>"),
        "{run}"
    );
    assert!(run.contains("<dd>4 (1 failed, 1 unfinished)</dd>"), "{run}");
    assert!(
        run.contains("<dd>run failed: budget_exhausted after 7000 ms</dd>"),
        "{run}"
    );
    assert!(
        run.contains("<span class=\"duration\">412 ms</span>"),
        "{run}"
    );
    assert!(run.contains("<li class=\"tool-call failed\">"), "{run}");
    assert!(
        run.contains("<span class=\"error\">failed (deadline_exceeded)</span>"),
        "{run}"
    );
    assert!(
        run.contains("<span class=\"error\">started, never finished</span>"),
        "{run}"
    );
    assert!(
        run.contains("limit_name tool_calls · observed 4 · limit 3"),
        "{run}"
    );
    assert_eq!(
        count(&run, "<span class=\"badge\">imported</span>"),
        7,
        "{run}"
    );

    // Search across kinds, matches marked, each hit a link to its page.
    let hits = view.page("/memory/search?q=kubectl");
    assert!(
        hits.contains("<input type=\"search\" id=\"q\" name=\"q\" value=\"kubectl\""),
        "{hits}"
    );
    assert!(hits.contains("<button type=\"submit\">"), "{hits}");
    assert!(hits.contains("<ol id=\"hits\""), "{hits}");
    assert_eq!(count(&hits, "<li class=\"hit\""), 2, "{hits}");
    assert!(hits.contains("<mark>kubectl</mark>"), "{hits}");
    assert!(
        hits.contains(&format!("href=\"/memory/episode?id={OPS}&amp;turn=2\"")),
        "{hits}"
    );
    let open = view.page(&format!("/memory/episode?id={OPS}&turn=2"));
    assert!(
        open.contains("<li class=\"turn assistant focus\" id=\"turn-2\">"),
        "{open}"
    );
    let notes = view.page("/memory/search?q=gofmt");
    assert!(
        notes.contains("href=\"/memory/note?id=go-formatting\""),
        "{notes}"
    );
    assert!(notes.contains("<mark>gofmt</mark>"), "{notes}");
    let facts = view.page("/memory/search?q=example+corp&kind=fact");
    assert!(facts.contains("data-kind=\"fact\""), "{facts}");
    assert!(!facts.contains("data-kind=\"turn\""), "{facts}");
    assert!(
        facts.contains("<mark>Example</mark> <mark>Corp</mark>"),
        "{facts}"
    );
    let ops_only = view.page("/memory/search?q=kubectl&session=deploy-review");
    assert_eq!(count(&ops_only, "<li class=\"hit\""), 1, "{ops_only}");
    let none = view.page("/memory/search?q=zeppelin");
    assert!(none.contains("Nothing matches."), "{none}");
    let empty = view.page("/memory/search");
    assert!(
        empty.contains("id=\"q\"") && !empty.contains("id=\"hits\""),
        "{empty}"
    );

    // Notes: revisions, the claim conflict lint finds, its other findings.
    let list = view.page("/memory/notes");
    assert!(list.contains("1 claim conflict(s)"), "{list}");
    assert!(
        list.contains("<li class=\"conflict\" data-key=\"go.formatter\">"),
        "{list}"
    );
    assert!(
        list.contains(
            "<a href=\"/memory/note?id=go-imports\">go-imports</a> says <q>goimports</q>"
        ),
        "{list}"
    );
    assert!(
        list.contains("<a href=\"/memory/note?id=go-style\">go-style</a> says <q>gofumpt</q>"),
        "{list}"
    );
    assert!(list.contains("<tr data-slug=\"go-formatting\">"), "{list}");
    assert!(list.contains("rev 2"), "the superseded note: {list}");
    assert!(list.contains("href=\"/memory/notes?tag=go\""), "{list}");
    let tagged = view.page("/memory/notes?tag=go");
    assert!(
        tagged.contains("go-formatting") && !tagged.contains("data-slug=\"go-imports\""),
        "{tagged}"
    );
    let note = view.page("/memory/note?id=go-style");
    assert!(note.contains("<h1>Note: Go style</h1>"), "{note}");
    assert!(note.contains("<dt>Revision</dt><dd>rev 1</dd>"), "{note}");
    assert!(
        note.contains("<tr class=\"claim conflict\" data-key=\"go.formatter\">"),
        "{note}"
    );
    assert!(
        note.contains(
            "<a href=\"/memory/note?id=go-imports\">go-imports</a> says <q>goimports</q>"
        ),
        "{note}"
    );
    assert!(note.contains("<code>broken_link</code>"), "{note}");
    assert!(
        note.contains("<pre class=\"body\">We use gofumpt.</pre>"),
        "{note}"
    );
    let superseded = view.page("/memory/note?id=go-formatting");
    assert!(
        superseded.contains("<dt>Revision</dt><dd>rev 2</dd>"),
        "{superseded}"
    );
    assert!(
        superseded.contains("This note claims nothing."),
        "{superseded}"
    );
    assert!(
        superseded.contains("href=\"/memory/notes?tag=go\""),
        "{superseded}"
    );

    let profile = view.page("/memory/profile");
    assert!(profile.contains("<ol class=\"facts\" data-section=\"facts\"><li class=\"fact\">Works at Example Corp.</li>"), "{profile}");
    assert!(profile.contains("<ol class=\"facts\" data-section=\"preferences\"><li class=\"fact\">Prefers tabs over spaces.</li>"), "{profile}");
    assert!(
        profile.contains("<a href=\"/memory/profile\" aria-current=\"page\">Profile</a>"),
        "{profile}"
    );
}

/// Lists go page by page (`?page=N`, `nav.pager` with rel prev/next); a
/// long episode too, and `turn=N` opens the page that holds it.
#[test]
fn lists_and_long_episodes_are_paginated() {
    let sb = Sandbox::new();
    for i in 1..=30 {
        run(
            &sb,
            &[
                "track",
                "record",
                "--session",
                "s",
                "--content",
                &format!("question number {i} about zebras"),
                "--flush",
            ],
            "",
        );
    }
    let long: Vec<Value> = (1..=450)
        .map(|i| json!({"role": if i % 2 == 1 { "user" } else { "assistant" }, "content": format!("line {i}")}))
        .collect();
    record(&sb, "long", Value::Array(long));
    let knowledge = sb.home().join("memory/knowledge");
    for i in 1..=51 {
        std::fs::write(
            knowledge.join(format!("note-{i:02}.md")),
            format!(
                "---\ntitle: Note {i:02}\nupdated: 2026-01-{:02}T00:00:00Z\n---\n\nBody {i}.\n",
                1 + i % 28
            ),
        )
        .unwrap();
    }
    let view = View::start(&sb, &[]);

    let first = view.page("/memory");
    assert_eq!(count(&first, "<tr data-id="), 25, "{first}");
    assert!(first.contains("<nav class=\"pager\""), "{first}");
    assert!(
        first.contains("<a href=\"/memory?page=2\" rel=\"next\">"),
        "{first}"
    );
    assert!(!first.contains("rel=\"prev\""), "{first}");
    // Newest first: the long episode, then question 30 down to 7.
    assert!(first.contains(">line 1</a>"), "{first}");
    assert!(
        first.contains(">question number 7 about zebras</a>"),
        "{first}"
    );
    assert!(
        !first.contains(">question number 6 about zebras</a>"),
        "{first}"
    );
    let second = view.page("/memory?page=2");
    assert_eq!(count(&second, "<tr data-id="), 6, "{second}");
    assert!(
        second.contains("<a href=\"/memory?page=1\" rel=\"prev\">"),
        "{second}"
    );
    assert!(!second.contains("rel=\"next\""), "{second}");
    assert!(
        second.contains(">question number 1 about zebras</a>"),
        "{second}"
    );
    let past = view.page("/memory?page=99");
    assert!(past.contains("No episodes on this page."), "{past}");
    let session = view.page("/memory?session=s&page=2");
    assert_eq!(count(&session, "<tr data-id="), 5, "{session}");
    assert!(
        session.contains("<a href=\"/memory?session=s&amp;page=1\" rel=\"prev\">"),
        "{session}"
    );

    let long_id = "ep-20260115T093000Z-k3f9q2-31";
    let ep = view.page(&format!("/memory/episode?id={long_id}"));
    assert_eq!(
        count(&ep, "<li class=\"turn "),
        200,
        "the first page of turns"
    );
    assert!(
        ep.contains("Turns 1–200 of 450 (page 1 of 3)."),
        "{}",
        &ep[..2000]
    );
    assert!(ep.contains(&format!(
        "<a href=\"/memory/episode?id={long_id}&amp;page=2\" rel=\"next\">"
    )));
    let last = view.page(&format!("/memory/episode?id={long_id}&page=3"));
    assert_eq!(count(&last, "<li class=\"turn "), 50);
    assert!(last.contains("<ol class=\"timeline\" start=\"401\">"));
    assert!(last.contains("rel=\"prev\"") && !last.contains("rel=\"next\""));
    let focus = view.page(&format!("/memory/episode?id={long_id}&turn=420"));
    assert!(focus.contains("<li class=\"turn assistant focus\" id=\"turn-420\">"));
    assert!(focus.contains("Turns 401–450 of 450 (page 3 of 3)."));
    let by_id = view.page(&format!("/memory/episode?id={long_id}%23260"));
    assert!(by_id.contains("<li class=\"turn assistant focus\" id=\"turn-260\">"));
    assert!(by_id.contains("Turns 201–400 of 450 (page 2 of 3)."));

    let hits = view.page("/memory/search?q=zebras");
    assert_eq!(count(&hits, "<li class=\"hit\""), 10, "{hits}");
    assert!(
        hits.contains("<a href=\"/memory/search?q=zebras&amp;page=2\" rel=\"next\">"),
        "{hits}"
    );
    let more = view.page("/memory/search?q=zebras&page=3");
    assert_eq!(count(&more, "<li class=\"hit\""), 10, "{more}");
    assert!(more.contains("<ol id=\"hits\" start=\"21\">"), "{more}");
    let end = view.page("/memory/search?q=zebras&page=4");
    assert!(
        end.contains("No more hits on this page.") || !end.contains("rel=\"next\""),
        "{end}"
    );

    let notes = view.page("/memory/notes");
    assert_eq!(count(&notes, "<tr data-slug="), 50, "{notes}");
    assert!(
        notes.contains("<a href=\"/memory/notes?page=2\" rel=\"next\">"),
        "{notes}"
    );
    let rest = view.page("/memory/notes?page=2");
    assert_eq!(count(&rest, "<tr data-slug="), 1, "{rest}");
    assert!(
        rest.contains("rel=\"prev\"") && !rest.contains("rel=\"next\""),
        "{rest}"
    );
    let past = view.page("/memory/notes?page=3");
    assert!(past.contains("No notes on this page."), "{past}");
}

/// A bad or unknown id is an error page with the verb's error and status;
/// a request value shaped like a flag stays a value.
#[test]
fn bad_ids_and_flag_shaped_values_are_data() {
    let sb = Sandbox::new();
    seed(&sb);
    let view = View::start(&sb, &[]);

    for (path, status, message) in [
        (
            "/memory/episode?id=ep-20990101T000000Z-zzzzzz-9",
            404,
            "no episode &#39;ep-20990101T000000Z-zzzzzz-9&#39;",
        ),
        (
            "/memory/note?id=no-such-note",
            404,
            "no note &#39;no-such-note&#39;",
        ),
        ("/memory/episode", 400, "which episode?"),
        ("/memory/note?id=", 400, "which note?"),
        ("/memory/episode?id=--home=/etc", 400, "--home=/etc"),
        ("/memory/note?id=--home=/etc", 400, "--home=/etc"),
        ("/memory?session=--home=/etc", 400, "--home=/etc"),
        (
            "/memory/search?q=deploy&kind=--limit=999",
            400,
            "is not a kind of memory",
        ),
    ] {
        let response = view.get(path);
        let body = response.text();
        assert_eq!(response.status, status, "GET {path}: {body}");
        assert!(
            body.contains("<main id=\"main\" data-page=\"memory\""),
            "{path}: {body}"
        );
        assert!(body.contains("role=\"alert\""), "{path}: {body}");
        assert!(body.contains(message), "{path}: {body}");
    }

    // A query that looks like a flag is searched for, not obeyed.
    let q = view.page("/memory/search?q=--limit%3D999");
    assert!(q.contains("value=\"--limit=999\""), "{q}");
    assert!(!q.contains("role=\"alert\""), "{q}");
    assert!(
        q.contains("<mark>limit</mark>"),
        "the budget turn says limit: {q}"
    );
    let q = view.page("/memory/search?q=--help");
    assert!(
        !q.contains("Usage:") && !q.contains("role=\"alert\""),
        "{q}"
    );
    let s = view.page("/memory/search?q=kubectl&session=--kind%3Dnote");
    assert!(
        s.contains("Nothing matches.") && !s.contains("role=\"alert\""),
        "{s}"
    );
    let p = view.page("/memory?page=--limit=0");
    assert_eq!(count(&p, "<tr data-id="), 2, "{p}");
}

/// Memory is hostile: markup, `javascript:` links, bidi overrides, terminal
/// escapes and a 200 KB line in a turn, a note and a fact render as inert
/// text.
#[test]
fn hostile_content_is_inert_text() {
    let sb = Sandbox::new();
    let hostile = "<script>alert(1)</script> [click](javascript:alert(2)) \u{202E}evil\u{202C} \u{1b}[31mred\u{1b}[0m <img src=x onerror=alert(3)>";
    let huge = "A".repeat(200 * 1024);
    record(
        &sb,
        "hostile",
        json!([
            {"role": "user", "content": hostile},
            {"role": "assistant", "content": "calling", "toolCalls": [{"id": "<b>x</b>", "name": "<script>t</script>", "arguments": {"js": "javascript:alert(4)"}}]},
            {"role": "user", "content": huge},
        ]),
    );
    run(
        &sb,
        &[
            "knowledge",
            "add",
            "<script>alert(5)</script> title",
            "--body",
            hostile,
            "--source",
            "javascript:alert(6)",
            "--slug",
            "hostile",
            "--claim",
            "x.y=<script>c</script>",
        ],
        "",
    );
    // By hand: `profile add` refuses control characters, a hand edit cannot.
    std::fs::create_dir_all(sb.home().join("memory/personal")).unwrap();
    std::fs::write(
        sb.home().join("memory/personal/PROFILE.md"),
        format!("# Profile\n\n## Facts\n- {hostile}\n"),
    )
    .unwrap();
    let view = View::start(&sb, &[]);
    let id = "ep-20260115T093000Z-k3f9q2-1";
    for path in [
        "/memory".to_string(),
        format!("/memory/episode?id={id}"),
        "/memory/search?q=alert+script".to_string(),
        "/memory/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E".to_string(),
        "/memory/notes".to_string(),
        "/memory/note?id=hostile".to_string(),
        "/memory/profile".to_string(),
    ] {
        let body = view.page(&path);
        let lower = body.to_lowercase();
        assert!(!lower.contains("<script"), "{path}: {body}");
        assert!(!lower.contains("<img"), "{path}: {body}");
        assert!(!lower.contains("href=\"javascript:"), "{path}: {body}");
        assert!(
            !body.contains('\u{202E}') && !body.contains('\u{1b}'),
            "{path}"
        );
        assert!(body.len() < 150 * 1024, "{path}: {} bytes", body.len());
    }
    let ep = view.page(&format!("/memory/episode?id={id}"));
    assert!(ep.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{ep}");
    assert!(ep.contains("⟨U+202E⟩evil⟨U+202C⟩ ⟨U+001B⟩[31mred"), "{ep}");
    assert!(
        ep.contains("[click](javascript:alert(2))"),
        "the link is text: {ep}"
    );
    assert!(
        ep.contains("<code class=\"name\">&lt;script&gt;t&lt;/script&gt;</code>"),
        "{ep}"
    );
    assert!(
        ep.contains("… (139264 more characters)"),
        "the huge line is cut"
    );
    let hits = view.page("/memory/search?q=alert");
    assert!(
        hits.contains("&lt;script&gt;<mark>alert</mark>(1)&lt;/script&gt;"),
        "{hits}"
    );
    let note = view.page("/memory/note?id=hostile");
    assert!(
        note.contains("<h1>Note: &lt;script&gt;alert(5)&lt;/script&gt; title</h1>"),
        "{note}"
    );
    assert!(
        note.contains("<li>javascript:alert(6)</li>"),
        "a source is text: {note}"
    );
    assert!(
        note.contains("<td>&lt;script&gt;c&lt;/script&gt;</td>"),
        "{note}"
    );
}

/// A credential never reaches a page: not from a turn or a note written
/// by hand (which no write path redacted), not through search.
#[test]
fn secrets_never_reach_the_page() {
    let sb = Sandbox::new();
    let aws = "AKIAIOSFODNN7EXAMPLQ";
    let openai = "sk-proj-Zq3xT9vLm2Kp8Rw4Yn6Bd1Hs5Jf7Gc0Ae";
    let dir = sb.home().join("memory/episodes/hand");
    std::fs::create_dir_all(&dir).unwrap();
    let turn = json!({
        "schema": "agentbox.turn/v1", "id": "ep-20260101T000000Z-1#1", "session": "hand",
        "episode": "ep-20260101T000000Z-1", "seq": 1, "ts": "2026-01-01T00:00:00Z",
        "role": "user", "content": format!("my aws key is {aws} and openai {openai}"),
        "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"env": format!("OPENAI_API_KEY={openai}")}}],
        "tool_call_id": null, "source": "cli",
    });
    std::fs::write(dir.join("ep-20260101T000000Z-1.jsonl"), format!("{turn}\n")).unwrap();
    std::fs::write(
        sb.home().join("memory/knowledge/keys.md"),
        format!(
            "---\ntitle: Keys {aws}\nclaims:\n  - aws.key: {aws}\n---\n\nThe openai key: {openai}\n"
        ),
    )
    .unwrap();
    run(&sb, &["reindex"], "");
    let view = View::start(&sb, &[]);
    for path in [
        "/memory",
        "/memory/episode?id=ep-20260101T000000Z-1",
        "/memory/search?q=aws+key+openai",
        "/memory/notes",
        "/memory/note?id=keys",
    ] {
        let body = view.page(path);
        assert!(
            !body.contains(aws) && !body.contains("ODNN7EXAMPLQ"),
            "{path}: {body}"
        );
        assert!(
            !body.contains(openai) && !body.contains("Zq3xT9vLm2"),
            "{path}: {body}"
        );
        assert!(
            body.contains("_REDACTED"),
            "{path} shows the masked key: {body}"
        );
    }
}

/// A fact an evolve proposal added names that proposal (and links to it);
/// a pending one is listed as proposed.
#[test]
fn profile_facts_name_the_proposals_that_added_them() {
    let sb = Sandbox::new();
    for (session, content) in [
        ("web", "No, use pnpm instead of npm."),
        ("lint", "Always run the linter before pushing."),
    ] {
        run(
            &sb,
            &[
                "track",
                "record",
                "--session",
                session,
                "--content",
                content,
                "--flush",
            ],
            "",
        );
    }
    run(&sb, &["evolve", "run"], "");
    run(&sb, &["evolve", "apply", "p-d16395f60bbd"], "");
    run(
        &sb,
        &["knowledge", "profile", "add", "Works at Example Corp."],
        "",
    );
    let view = View::start(&sb, &[]);
    let profile = view.page("/memory/profile");
    assert!(
        profile.contains(
            "<li class=\"fact\">Use pnpm instead of npm <span class=\"meta provenance\">(<a href=\"/learning/proposal?id=p-d16395f60bbd\">p-d16395f60bbd</a>, applied · proposed 2026-01-15T09:30:00Z)</span></li>"
        ),
        "{profile}"
    );
    assert!(
        profile.contains("<li class=\"fact\">Works at Example Corp.</li>"),
        "{profile}"
    );
    assert!(
        profile.contains("<h2 id=\"proposed\">Proposed, not applied yet</h2>"),
        "{profile}"
    );
    assert!(
        profile.contains("<li>Preference: Always run the linter before pushing <span class=\"meta provenance\">(<a href=\"/learning/proposal?id=p-3ba6219ae91f\">p-3ba6219ae91f</a>, pending"),
        "{profile}"
    );
}

/// A recorded call links to the turn that answered it, and a call id used
/// again in a later exchange to the later answer.
#[test]
fn a_call_links_to_its_own_answer() {
    let sb = Sandbox::new();
    record(
        &sb,
        "again",
        json!([
            {"role": "user", "content": "List the files.", "timestamp": "2026-01-15T09:00:00Z"},
            {"role": "assistant", "content": "Listing.", "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "ls"}}], "timestamp": "2026-01-15T09:00:01Z"},
            {"role": "tool", "content": "a b", "toolCallId": "c1", "timestamp": "2026-01-15T09:00:04Z"},
            {"role": "assistant", "content": "Again.", "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "ls -a"}}], "timestamp": "2026-01-15T09:01:00Z"},
            {"role": "tool", "content": ". .. a b", "toolCallId": "c1", "timestamp": "2026-01-15T09:01:30Z"}
        ]),
    );
    let view = View::start(&sb, &[]);
    let ep = view.page("/memory/episode?id=ep-20260115T093000Z-k3f9q2-1");
    let second = ep.find("id=\"turn-4\"").expect("turn 4");
    let (first_half, second_half) = ep.split_at(second);
    assert!(
        first_half.contains(
            "<a href=\"#turn-3\">answered in #3</a><span class=\"duration\">after 3 s</span>"
        ),
        "{first_half}"
    );
    assert!(
        second_half.contains(
            "<a href=\"#turn-5\">answered in #5</a><span class=\"duration\">after 30 s</span>"
        ),
        "{second_half}"
    );
}
