//! An index of an older schema is brought up to this one in place, not
//! rebuilt: schema 5 (lengths stored differently), 7 (no sessions in
//! `stamps`), 8 (no flags in `stamps`).

use crate::common;

use common::{Sandbox, index_db as db, ok_data};

/// A value of the index's `meta` table.
fn meta(conn: &rusqlite::Connection, key: &str) -> String {
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .unwrap()
}

/// Reads the value `i` of a `lengths` block (one width byte, then the
/// values bit-packed least significant bit first), as the index stores it.
fn unpack(data: &[u8], i: usize) -> u16 {
    let width = usize::from(data[0]);
    (0..width)
        .map(|b| {
            let bit = i * width + b;
            u16::from((data[1 + bit / 8] >> (bit % 8)) & 1) << b
        })
        .sum()
}

#[test]
fn an_index_of_the_previous_schema_is_repacked_in_place_not_rebuilt() {
    let sb = Sandbox::new();
    for i in 0..30 {
        let text = format!(
            "turn {i} about the billing cron {}",
            "padding ".repeat(i % 7)
        );
        ok_data(&mut sb.agentbox(&["track", "record", "--content", &text]));
    }
    let ranked = |sb: &Sandbox| {
        let data = ok_data(&mut sb.agentbox(&["search", "billing padding", "--limit", "30"]));
        data["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["id"].as_str().unwrap().to_string(),
                    h["score"].to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = ranked(&sb);
    assert_eq!(before.len(), 30);
    // Turn the database into what schema 5 wrote: `lens`, 1,000 two-byte
    // lengths a block, and a marker row a rebuild would drop.
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    let blocks: Vec<(i64, Vec<u8>)> = conn
        .prepare("SELECT block, data FROM lengths")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(blocks.len(), 1, "30 documents, one block of 4,096");
    let (block, data) = &blocks[0];
    assert_eq!(*block, 0);
    let old: Vec<u8> = (0..1000)
        .flat_map(|i| unpack(data, i).to_le_bytes())
        .collect();
    assert!(unpack(data, 1) > 0, "lengths are stored");
    let built: String = conn
        .query_row("SELECT value FROM meta WHERE key = 'built'", [], |r| {
            r.get(0)
        })
        .unwrap();
    conn.execute_batch(
        "DROP TABLE lengths;
         CREATE TABLE lens(block INTEGER PRIMARY KEY, data BLOB NOT NULL);
         CREATE INDEX docs_date ON docs(date);
         UPDATE meta SET value = '5' WHERE key = 'schema';
         INSERT INTO meta(key, value) VALUES ('marker', 'kept');",
    )
    .unwrap();
    conn.execute("INSERT INTO lens(block, data) VALUES (0, ?1)", [old])
        .unwrap();
    drop(conn);
    // The next call repacks: same hits, same scores, nothing rebuilt.
    assert_eq!(ranked(&sb), before);
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    let meta = |key: &str| meta(&conn, key);
    assert_eq!(meta("schema"), "9");
    assert_eq!(meta("marker"), "kept");
    assert_ne!(meta("built"), built, "kept blocks elsewhere are told");
    let old: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name IN ('lens', 'docs_date')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(old, 0, "schema 5's lens table and date index are gone");
    let repacked: Vec<u8> = conn
        .query_row("SELECT data FROM lengths WHERE block = 0", [], |r| r.get(0))
        .unwrap();
    assert_eq!(repacked, *data);
}

#[test]
fn a_schema_7_index_gets_its_sessions_in_place_not_rebuilt() {
    let sb = Sandbox::new();
    for i in 0..40 {
        let session = ["alpha", "beta"][i % 2];
        let text = format!("turn {i} about the billing cron");
        ok_data(&mut sb.agentbox(&["track", "record", "--session", session, "--content", &text]));
    }
    let beta = |sb: &Sandbox| {
        let data =
            ok_data(&mut sb.agentbox(&["search", "billing", "--session", "beta", "--limit", "30"]));
        data["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                assert_eq!(h["session"], "beta");
                (
                    h["id"].as_str().unwrap().to_string(),
                    h["score"].to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = beta(&sb);
    assert_eq!(before.len(), 20);
    // What schema 7 wrote: `stamps` of 800 five-byte entries (kind, date;
    // no session), no `sessions` table; and a marker a rebuild would drop.
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    let new: Vec<u8> = conn
        .query_row("SELECT data FROM stamps WHERE block = 0", [], |r| r.get(0))
        .unwrap();
    let old: Vec<u8> = (0..800)
        .flat_map(|i| new.get(i * 8..i * 8 + 5).unwrap_or(&[0; 5]).to_vec())
        .collect();
    assert_ne!(
        &new[8 * 5 + 5..8 * 5 + 8],
        &[0, 0, 0],
        "rowid 5 has a session"
    );
    conn.execute_batch(
        "DELETE FROM stamps; DROP TABLE sessions;
         UPDATE meta SET value = '7' WHERE key = 'schema';
         INSERT INTO meta(key, value) VALUES ('marker', 'kept');",
    )
    .unwrap();
    conn.execute("INSERT INTO stamps(block, data) VALUES (0, ?1)", [old])
        .unwrap();
    drop(conn);
    // The next call writes the stamps and sessions anew: the same hits.
    assert_eq!(beta(&sb), before);
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    let meta = |key: &str| meta(&conn, key);
    assert_eq!(
        (meta("schema"), meta("marker")),
        ("9".into(), "kept".into())
    );
    let restamped: Vec<u8> = conn
        .query_row("SELECT data FROM stamps WHERE block = 0", [], |r| r.get(0))
        .unwrap();
    assert!(restamped == new, "the same stamps, session numbers too");
    let sessions: Vec<(String, i64, i64)> = conn
        .prepare("SELECT name, first, last FROM sessions ORDER BY name")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(sessions, [("alpha".into(), 1, 39), ("beta".into(), 2, 40)]);
}

#[test]
fn a_schema_8_index_gets_its_flags_in_place_not_rebuilt() {
    let sb = Sandbox::new();
    for text in [
        "Which region hosts the billing cron?",
        "The billing cron moved to eu-west last Friday.",
        "billing dashboards look fine",
    ] {
        ok_data(&mut sb.agentbox(&["track", "record", "--session", "ops", "--content", text]));
    }
    let stamps = |sb: &Sandbox| -> Vec<u8> {
        let conn = rusqlite::Connection::open(db(sb)).unwrap();
        conn.query_row("SELECT data FROM stamps WHERE block = 0", [], |r| r.get(0))
            .unwrap()
    };
    let new = stamps(&sb);
    // Rowids 1-3: asks (0x40), says when (0x80), neither; kinds below 64.
    let flags: Vec<u8> = (1..=3).map(|i| new[i * 8] & 0xC0).collect();
    assert_eq!(flags, [0x40, 0x80, 0]);
    // What schema 8 wrote: the same entries without the flags.
    let old: Vec<u8> = new
        .chunks(8)
        .flat_map(|e| {
            let mut e = e.to_vec();
            e[0] &= 0x3F;
            e
        })
        .collect();
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    conn.execute("UPDATE stamps SET data = ?1 WHERE block = 0", [old])
        .unwrap();
    conn.execute_batch(
        "UPDATE meta SET value = '8' WHERE key = 'schema';
         INSERT INTO meta(key, value) VALUES ('marker', 'kept');",
    )
    .unwrap();
    drop(conn);
    ok_data(&mut sb.agentbox(&["search", "billing cron"]));
    let conn = rusqlite::Connection::open(db(&sb)).unwrap();
    let meta = |key: &str| meta(&conn, key);
    assert_eq!(
        (meta("schema"), meta("marker")),
        ("9".into(), "kept".into())
    );
    assert!(stamps(&sb) == new, "the flags are back");
}
