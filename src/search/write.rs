//! Writing the index: documents and their FTS5 terms together, the files
//! they come from (`files`, `sources`), renames and removals. Every method
//! takes a transaction, or joins the caller's (see `Tx`).

use super::Doc;
use super::db::{Tx, db_error};
use super::index::{Index, stamp};
use super::{rank, sources};
use crate::error::Result;
use rusqlite::{OptionalExtension, params};

/// Whether `e` is a UNIQUE (or primary key) constraint refusing a row.
fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error().map(|e| e.extended_code),
        Some(rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY)
    )
}

impl Index<'_> {
    /// Inserts documents, replacing any with the same id (caller holds a transaction).
    pub(super) fn insert(&self, docs: &[Doc]) -> Result<()> {
        let redactor = self.home.store.redactor();
        let tx = Tx::begin(&self.conn)?;
        let mut insert = self
            .conn
            .prepare_cached(
                "INSERT INTO docs(id, kind, file, session, tags, date, title, body)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .map_err(db_error)?;
        let mut terms = self
            .conn
            .prepare_cached("INSERT INTO fts(rowid, title, body, tags) VALUES (?1, ?2, ?3, ?4)")
            .map_err(db_error)?;
        let mut file: Option<(&str, i64)> = None;
        let mut inserted = Vec::with_capacity(docs.len());
        for doc in docs {
            let file_id = match file {
                Some((path, id)) if path == doc.source => id,
                _ => {
                    let id = self.file_id(&doc.source)?;
                    file = Some((&doc.source, id));
                    id
                }
            };
            let tags = redactor.redact(&doc.tags.join(" ")).into_owned();
            let (title, body) = (redactor.redact(&doc.title), redactor.redact(&doc.body));
            let row = params![
                doc.id,
                doc.kind,
                file_id,
                doc.session,
                tags,
                doc.date,
                title,
                body,
            ];
            // A new id (the common case: appended turns) costs no lookup; one
            // already there fails the UNIQUE constraint before anything is
            // written, and is replaced.
            if let Err(e) = insert.execute(row) {
                if !is_unique_violation(&e) {
                    return Err(db_error(e));
                }
                self.delete_docs("id", &doc.id)?;
                insert.execute(row).map_err(db_error)?;
            }
            let rowid = self.conn.last_insert_rowid();
            terms
                .execute(params![rowid, title, body, tags])
                .map_err(db_error)?;
            inserted.push(rank::Inserted {
                rowid,
                kind: doc.kind,
                date: &doc.date,
                session: doc.session.as_deref(),
                flags: rank::flags(&body),
            });
        }
        rank::store(&self.conn, &mut self.doc_stats.borrow_mut(), &inserted).map_err(db_error)?;
        tx.commit()
    }

    /// The number standing for the file `path` in `docs.file` (a path per
    /// document would cost two copies of it per turn, one in the table and
    /// one in its index: a fifth of the index at 100k turns).
    fn file_id(&self, path: &str) -> Result<i64> {
        let mut add = self
            .conn
            .prepare_cached("INSERT INTO files(path) VALUES (?1) ON CONFLICT(path) DO NOTHING")
            .map_err(db_error)?;
        add.execute([path]).map_err(db_error)?;
        self.conn
            .prepare_cached("SELECT id FROM files WHERE path = ?1")
            .and_then(|mut stmt| stmt.query_row([path], |r| r.get(0)))
            .map_err(db_error)
    }

    /// Removes the documents whose `column` (`id` or `source`) is `value`,
    /// with their terms. Done here, not by a trigger: FTS5 flushes its
    /// pending terms at every statement savepoint, so a trigger turns a bulk
    /// write into thousands of one-row segments to merge (4x slower; see
    /// docs/PERFORMANCE.md).
    fn delete_docs(&self, column: &str, value: &str) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        let mut select = self
            .conn
            .prepare_cached(&match column {
                "source" => "SELECT rowid, title, body, tags FROM docs
                             WHERE file = (SELECT id FROM files WHERE path = ?1)"
                    .to_string(),
                column => format!("SELECT rowid, title, body, tags FROM docs WHERE {column} = ?1"),
            })
            .map_err(db_error)?;
        let rows = select
            .query_map([value], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })
            .map_err(db_error)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(db_error)?;
        if column == "source" {
            self.conn
                .execute("DELETE FROM files WHERE path = ?1", [value])
                .map_err(db_error)?;
        }
        if rows.is_empty() {
            return tx.commit();
        }
        let mut terms = self
            .conn
            .prepare_cached(
                "INSERT INTO fts(fts, rowid, title, body, tags) VALUES ('delete', ?1, ?2, ?3, ?4)",
            )
            .map_err(db_error)?;
        let mut delete = self
            .conn
            .prepare_cached("DELETE FROM docs WHERE rowid = ?1")
            .map_err(db_error)?;
        for (rowid, title, body, tags) in rows {
            terms
                .execute(params![rowid, title, body, tags])
                .map_err(db_error)?;
            delete.execute([rowid]).map_err(db_error)?;
        }
        tx.commit()
    }

    /// Records `now` as the stamp of `rel` (`None`: the file is gone).
    pub(super) fn record_source_at(&self, rel: &str, now: Option<(i64, i64)>) -> Result<()> {
        match now {
            Some((mtime, size)) => self
                .conn
                .prepare_cached(
                    "INSERT INTO sources(path, mtime_ns, size, growing) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT(path) DO UPDATE SET mtime_ns = excluded.mtime_ns,
                                                     size = excluded.size",
                )
                .and_then(|mut stmt| stmt.execute(params![rel, mtime, size, sources::growing(rel)]))
                .map(|_| ())
                .map_err(db_error),
            None => self.forget_source(rel),
        }
    }

    pub(super) fn forget_source(&self, rel: &str) -> Result<()> {
        self.conn
            .execute("DELETE FROM sources WHERE path = ?1", [rel])
            .map(|_| ())
            .map_err(db_error)
    }

    /// Adds (or replaces, by id) documents.
    pub fn add(&self, docs: &[Doc]) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.insert(docs)?;
        tx.commit()
    }

    /// Replaces every document of `source` with `docs` and records the file's stamp.
    pub fn replace_source(&self, source: &str, docs: &[Doc]) -> Result<()> {
        self.replace_source_at(source, docs, stamp(&self.home.root.join(source)))
    }

    /// [`Index::replace_source`], recording `now` as the file's stamp. A
    /// file read while another process may append to it is stamped
    /// *before* it is read: a stamp taken after could cover lines appended
    /// in between, which the index would then take for read and never read
    /// (a re-extraction skips a file whose recorded stamp is its own).
    pub(super) fn replace_source_at(
        &self,
        source: &str,
        docs: &[Doc],
        now: Option<(i64, i64)>,
    ) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.delete_docs("source", source)?;
        self.insert(docs)?;
        self.record_source_at(source, now)?;
        tx.commit()
    }

    /// Moves the documents of `from` to `to`, a file renamed without being
    /// changed (a closed episode): no term is written again. When the index
    /// did not hold exactly that file (an update that never landed), `docs`
    /// gives the file's documents and they replace both.
    pub fn rename_source(
        &self,
        from: &str,
        to: &str,
        docs: impl FnOnce() -> Result<Vec<Doc>>,
    ) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        let recorded = self.recorded_stamp(from)?;
        // `to` indexed already (a search caught up with the renamed file
        // before this update ran): the file's documents may then be split
        // between the two paths — a later append of `from` took its turns
        // back — so the file is read again instead of moved.
        let to_indexed = self
            .conn
            .query_row("SELECT 1 FROM files WHERE path = ?1", [to], |_| Ok(()))
            .optional()
            .map_err(db_error)?
            .is_some();
        if !to_indexed && recorded.is_some() && recorded == stamp(&self.home.root.join(to)) {
            self.conn
                .execute("UPDATE files SET path = ?2 WHERE path = ?1", [from, to])
                .map_err(db_error)?;
            self.forget_source(to)?;
            self.conn
                .execute(
                    "UPDATE sources SET path = ?2, growing = ?3 WHERE path = ?1",
                    params![from, to, sources::growing(to)],
                )
                .map_err(db_error)?;
        } else {
            self.delete_docs("source", from)?;
            self.forget_source(from)?;
            self.replace_source(to, &docs()?)?;
        }
        tx.commit()
    }

    /// Removes every document of `source`.
    pub fn remove_source(&self, source: &str) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        self.delete_docs("source", source)?;
        self.forget_source(source)?;
        tx.commit()
    }
}
