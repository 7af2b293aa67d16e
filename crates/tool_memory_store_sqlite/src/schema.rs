//! Forward-only schema migrations, tracked in `PRAGMA user_version`.
//!
//! Each step runs in its own `BEGIN IMMEDIATE` transaction and re-reads the version inside it,
//! so two processes opening a fresh file at once apply each step exactly once.

use rusqlite::{Connection, TransactionBehavior};

use tool_memory_store::{Error, Result};

use crate::error::sqlite;

/// Migration `n` takes the schema from version `n` to `n + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: one typed row per rule. `updated_us` is the parsed instant, so ordering never
    // compares timestamp text. The partial index serves the session-start query for eager
    // rules; the unique index serves one tool's rules.
    "CREATE TABLE rules (
        row_id     INTEGER PRIMARY KEY,
        tool_name  TEXT NOT NULL,
        id         TEXT NOT NULL,
        rule       TEXT NOT NULL,
        priority   TEXT NOT NULL,
        source     TEXT NOT NULL,
        tags       TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_us INTEGER NOT NULL,
        UNIQUE (tool_name, id)
    );
    CREATE INDEX rules_eager ON rules (tool_name) WHERE priority <> 'normal';",
    // 2: keyword recall over rule text (an FTS5 index that triggers keep in step with the rules
    // table, so no write path can forget it) and per-tool call statistics, in their own table
    // because statistics never mix with rules.
    "CREATE VIRTUAL TABLE rules_fts USING fts5(rule, content = 'rules', content_rowid = 'row_id');
    CREATE TRIGGER rules_fts_insert AFTER INSERT ON rules BEGIN
        INSERT INTO rules_fts (rowid, rule) VALUES (new.row_id, new.rule);
    END;
    CREATE TRIGGER rules_fts_delete AFTER DELETE ON rules BEGIN
        INSERT INTO rules_fts (rules_fts, rowid, rule) VALUES ('delete', old.row_id, old.rule);
    END;
    CREATE TRIGGER rules_fts_update AFTER UPDATE OF rule ON rules BEGIN
        INSERT INTO rules_fts (rules_fts, rowid, rule) VALUES ('delete', old.row_id, old.rule);
        INSERT INTO rules_fts (rowid, rule) VALUES (new.row_id, new.rule);
    END;
    INSERT INTO rules_fts (rules_fts) VALUES ('rebuild');
    CREATE TABLE tool_stats (
        tool_name          TEXT PRIMARY KEY,
        calls              INTEGER NOT NULL,
        successes          INTEGER NOT NULL,
        failures           INTEGER NOT NULL,
        last_failure_class TEXT,
        last_seen          TEXT
    );",
    // 3: the full-text index becomes lazy. Keeping FTS5 in step inside every single-rule
    // transaction flushed a new index segment per write and doubled the cost of put and
    // delete, while recall is rare. Now triggers only note which rows changed, in a small
    // table, and a search folds those rows into a contentless index (which can delete by rowid)
    // in one transaction before it queries. (`NOT EXISTS`, not `INSERT OR IGNORE`: the conflict
    // clause of an outer upsert overrides the one of a statement inside its trigger.)
    "DROP TRIGGER rules_fts_insert;
    DROP TRIGGER rules_fts_delete;
    DROP TRIGGER rules_fts_update;
    DROP TABLE rules_fts;
    CREATE VIRTUAL TABLE rules_fts USING fts5(rule, content = '', contentless_delete = 1);
    CREATE TABLE rules_fts_pending (row_id INTEGER PRIMARY KEY);
    CREATE TRIGGER rules_fts_insert AFTER INSERT ON rules BEGIN
        INSERT INTO rules_fts_pending (row_id) SELECT new.row_id
            WHERE NOT EXISTS (SELECT 1 FROM rules_fts_pending WHERE row_id = new.row_id);
    END;
    CREATE TRIGGER rules_fts_update AFTER UPDATE OF rule ON rules BEGIN
        INSERT INTO rules_fts_pending (row_id) SELECT new.row_id
            WHERE NOT EXISTS (SELECT 1 FROM rules_fts_pending WHERE row_id = new.row_id);
    END;
    CREATE TRIGGER rules_fts_delete AFTER DELETE ON rules BEGIN
        INSERT INTO rules_fts_pending (row_id) SELECT old.row_id
            WHERE NOT EXISTS (SELECT 1 FROM rules_fts_pending WHERE row_id = old.row_id);
    END;
    INSERT INTO rules_fts_pending (row_id) SELECT row_id FROM rules;",
    // 4: the eager index covers every column the session-start query reads, so that query
    // never visits the table. It holds only high and critical rows, so it stays small
    // whatever the number of normal rules.
    "DROP INDEX rules_eager;
    CREATE INDEX rules_eager ON rules
        (tool_name, priority, id, rule, source, tags, created_at, updated_at)
        WHERE priority <> 'normal';",
    // 5: the rule lifecycle and its audit trail. Revoked rules stay in the table, out of the
    // eager index; every change (and every guard decision) is a line of `rule_history`, written
    // in the same transaction as the change it records. History is never deleted, so a plain
    // rowid key increases without AUTOINCREMENT (which would update `sqlite_sequence`, one more
    // page, on every write); one index serves both a tool's and a rule's history.
    // `rules_version` counts committed rule changes, for caches (see `Connections::version`).
    "ALTER TABLE rules ADD COLUMN revoked_at TEXT;
    ALTER TABLE rules ADD COLUMN expires_at TEXT;
    ALTER TABLE rules ADD COLUMN retire_after_successes INTEGER;
    ALTER TABLE rules ADD COLUMN proposed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rules ADD COLUMN constraint_json TEXT;
    ALTER TABLE rules ADD COLUMN constraint_explicit INTEGER NOT NULL DEFAULT 0;
    DROP INDEX rules_eager;
    CREATE INDEX rules_eager ON rules
        (tool_name, priority, id, rule, source, tags, created_at, updated_at,
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit,
         revoked_at)
        WHERE priority <> 'normal' AND revoked_at IS NULL;
    CREATE TABLE rule_history (
        seq         INTEGER PRIMARY KEY,
        at          TEXT NOT NULL,
        tool_name   TEXT NOT NULL,
        rule_id     TEXT NOT NULL,
        action      TEXT NOT NULL,
        origin      TEXT NOT NULL,
        before_json TEXT,
        after_json  TEXT,
        detail      TEXT
    );
    CREATE INDEX rule_history_by_tool ON rule_history (tool_name, seq);
    CREATE TABLE rules_version (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL
    );
    INSERT INTO rules_version (id, version) VALUES (1, 0);
    CREATE TRIGGER rules_version_insert AFTER INSERT ON rules BEGIN
        UPDATE rules_version SET version = version + 1;
    END;
    CREATE TRIGGER rules_version_update AFTER UPDATE ON rules BEGIN
        UPDATE rules_version SET version = version + 1;
    END;
    CREATE TRIGGER rules_version_delete AFTER DELETE ON rules BEGIN
        UPDATE rules_version SET version = version + 1;
    END;",
    // 6: a write touches as few pages as it can, because each page is one more WAL frame to
    // write, checksum and later checkpoint: a put went from 6.9 frames to 3.5 on average (the
    // rule's leaf and its history line's on every put, plus page splits and the eager index).
    // - Rules are clustered by their key (`WITHOUT ROWID`, primary key (tool_name, id)), so a
    //   rule is one b-tree entry instead of a row plus a unique-index entry; a tool's rules are
    //   also adjacent, which is what a listing reads.
    // - The history line is the change feed of two lazy indexes, each with a watermark in
    //   `log_watermarks`: the search index (the next search re-indexes every rule the lines
    //   after its watermark name; `search_docs` gives each indexed rule the integer key FTS5
    //   needs) and `history_by_tool`, the per-tool history index (the next history query adds
    //   the new lines). Their triggers and the pending table go.
    // - The version counter and its triggers go: the store counts its own rule changes in
    //   memory and notices other connections' commits with `PRAGMA data_version`.
    "DROP TRIGGER rules_version_insert;
    DROP TRIGGER rules_version_update;
    DROP TRIGGER rules_version_delete;
    DROP TABLE rules_version;
    DROP TRIGGER rules_fts_insert;
    DROP TRIGGER rules_fts_update;
    DROP TRIGGER rules_fts_delete;
    DROP TABLE rules_fts_pending;
    CREATE TABLE rules_by_key (
        tool_name              TEXT NOT NULL,
        id                     TEXT NOT NULL,
        rule                   TEXT NOT NULL,
        priority               TEXT NOT NULL,
        source                 TEXT NOT NULL,
        tags                   TEXT NOT NULL DEFAULT '[]',
        created_at             TEXT NOT NULL,
        updated_at             TEXT NOT NULL,
        updated_us             INTEGER NOT NULL,
        revoked_at             TEXT,
        expires_at             TEXT,
        retire_after_successes INTEGER,
        proposed               INTEGER NOT NULL DEFAULT 0,
        constraint_json        TEXT,
        constraint_explicit    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tool_name, id)
    ) WITHOUT ROWID;
    INSERT INTO rules_by_key
        SELECT tool_name, id, rule, priority, source, tags, created_at, updated_at, updated_us,
               revoked_at, expires_at, retire_after_successes, proposed, constraint_json,
               constraint_explicit
        FROM rules;
    DROP INDEX rules_eager;
    DROP TABLE rules;
    ALTER TABLE rules_by_key RENAME TO rules;
    CREATE INDEX rules_eager ON rules
        (tool_name, priority, id, rule, source, tags, created_at, updated_at,
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit,
         revoked_at)
        WHERE priority <> 'normal' AND revoked_at IS NULL;
    CREATE TABLE search_docs (
        doc_id    INTEGER PRIMARY KEY,
        tool_name TEXT NOT NULL,
        id        TEXT NOT NULL,
        UNIQUE (tool_name, id)
    );
    INSERT INTO search_docs (tool_name, id) SELECT tool_name, id FROM rules;
    INSERT INTO rules_fts (rules_fts) VALUES ('delete-all');
    INSERT INTO rules_fts (rowid, rule)
        SELECT d.doc_id, r.rule FROM search_docs AS d
        JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id;
    DROP INDEX rule_history_by_tool;
    CREATE TABLE history_by_tool (
        tool_name TEXT NOT NULL,
        seq       INTEGER NOT NULL,
        PRIMARY KEY (tool_name, seq)
    ) WITHOUT ROWID;
    INSERT INTO history_by_tool (tool_name, seq) SELECT tool_name, seq FROM rule_history;
    CREATE TABLE log_watermarks (
        name TEXT PRIMARY KEY,
        seq  INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO log_watermarks (name, seq)
        SELECT 'search', coalesce(max(seq), 0) FROM rule_history
        UNION ALL SELECT 'history', coalesce(max(seq), 0) FROM rule_history;",
    // 7: smaller rule rows, so fewer puts overflow a leaf (an overflow rewrites the leaf, its
    // two neighbours and their parent): `created_at` and `updated_at` are written as integer
    // nanoseconds since the Unix epoch (9 bytes instead of 36 of text each) whenever that is
    // exact, and as RFC 3339 text otherwise (outside 1677-2262, a leap second). Declared
    // without a type, so SQLite keeps each value as written (a `TEXT` column turns integers
    // into text). Rows written before keep their text until they are next written; readers
    // take either. A put went from 22.1 to 20.7 us (medians of 7 alternating runs of 10,000).
    "CREATE TABLE rules_v7 (
        tool_name              TEXT NOT NULL,
        id                     TEXT NOT NULL,
        rule                   TEXT NOT NULL,
        priority               TEXT NOT NULL,
        source                 TEXT NOT NULL,
        tags                   TEXT NOT NULL DEFAULT '[]',
        created_at             NOT NULL,
        updated_at             NOT NULL,
        updated_us             INTEGER NOT NULL,
        revoked_at             TEXT,
        expires_at             TEXT,
        retire_after_successes INTEGER,
        proposed               INTEGER NOT NULL DEFAULT 0,
        constraint_json        TEXT,
        constraint_explicit    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tool_name, id)
    ) WITHOUT ROWID;
    INSERT INTO rules_v7
        SELECT tool_name, id, rule, priority, source, tags, created_at, updated_at, updated_us,
               revoked_at, expires_at, retire_after_successes, proposed, constraint_json,
               constraint_explicit
        FROM rules;
    DROP INDEX rules_eager;
    DROP TABLE rules;
    ALTER TABLE rules_v7 RENAME TO rules;
    CREATE INDEX rules_eager ON rules
        (tool_name, priority, id, rule, source, tags, created_at, updated_at,
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit,
         revoked_at)
        WHERE priority <> 'normal' AND revoked_at IS NULL;",
    // 8: a history line names the line that holds its rule's before image instead of copying
    // it. The line that wrote a rule already holds the rule as written (its after image), so a
    // delete, an update or a revocation copied a second time what the log had: a delete read
    // the rule, parsed it and wrote it out again as JSON (about a fifth of a delete), and every
    // update grew the log by two images. `rules.history_seq` is the line whose after image is
    // the row exactly; `rule_history.before_seq` is that line, for a line without a copy.
    // Rows written before this version have no `history_seq`, and a change to one copies it
    // into `before_copy` as before. `before_json` is renamed to `before_copy` so that an older
    // toolmem still running against the file cannot write a line, and so cannot change a row
    // without moving its `history_seq` (which would leave the row naming an image that is no
    // longer its own): its writes fail and roll back whole. A trigger could clear a stale
    // `history_seq` instead, but it cost every update 1-2 us. A migration that rewrites rule
    // rows must clear `history_seq`.
    "ALTER TABLE rules ADD COLUMN history_seq INTEGER;
    ALTER TABLE rule_history ADD COLUMN before_seq INTEGER;
    ALTER TABLE rule_history RENAME COLUMN before_json TO before_copy;",
    // 9: the turns `apply_turn` has applied (session, index, digest of the content), written in
    // the turn's own transaction, so that the same turn applied again (a retried hook, a
    // replayed request) changes nothing. The turn index is stored as the same 64 bits read as
    // signed, so every index has its own key.
    "CREATE TABLE applied_turns (
        session_id TEXT NOT NULL,
        turn       INTEGER NOT NULL,
        digest     TEXT NOT NULL,
        applied_at TEXT NOT NULL,
        PRIMARY KEY (session_id, turn, digest)
    ) WITHOUT ROWID;",
];

/// The schema version this build writes.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub(crate) fn user_version(connection: &Connection) -> Result<i64> {
    connection
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(sqlite("read schema version"))
}

/// Fails with [`Error::SchemaTooNew`] when a newer toolmem has migrated the file. Every write
/// calls it inside its own transaction, right after `BEGIN IMMEDIATE`: the write lock is held
/// from there to the commit, and a migration needs it too, so a write that passes cannot land
/// in a schema this version does not know. The version is a field of the file header, which
/// the transaction has just read; the cached statement costs under a microsecond.
pub(crate) fn refuse_newer(connection: &Connection) -> Result<()> {
    let found: i64 = connection
        .prepare_cached("PRAGMA user_version")
        .and_then(|mut statement| statement.query_row([], |row| row.get(0)))
        .map_err(sqlite("read schema version"))?;
    if found > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// [`migrate`] only when the file is behind this version: a file at it is left without taking
/// the write lock that a migration's transaction takes, and a newer one is refused.
pub(crate) fn migrate_when_behind(connection: &mut Connection) -> Result<()> {
    match user_version(connection)? {
        SCHEMA_VERSION => Ok(()),
        found if found > SCHEMA_VERSION => Err(Error::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        }),
        _ => migrate(connection),
    }
}

pub(crate) fn migrate(connection: &mut Connection) -> Result<()> {
    loop {
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sqlite("begin migration"))?;
        let version = user_version(&transaction)?;
        if version > SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        let Ok(step) = usize::try_from(version) else {
            return Err(Error::SchemaUnknown { found: version });
        };
        let step = MIGRATIONS[step];
        transaction
            .execute_batch(step)
            .map_err(sqlite("apply migration"))?;
        transaction
            .pragma_update(None, "user_version", version + 1)
            .map_err(sqlite("record schema version"))?;
        transaction.commit().map_err(sqlite("commit migration"))?;
        tracing::debug!(version = version + 1, "migrated tool memory schema");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An in-memory database as version `version` of toolmem left it.
    fn at_version(version: usize) -> Connection {
        let connection = Connection::open_in_memory().unwrap();
        for step in &MIGRATIONS[..version] {
            connection.execute_batch(step).unwrap();
        }
        connection
            .pragma_update(None, "user_version", version as i64)
            .unwrap();
        connection
    }

    #[test]
    fn migrates_a_fresh_database_once() {
        let mut connection = Connection::open_in_memory().unwrap();
        migrate(&mut connection).unwrap();
        assert_eq!(user_version(&connection).unwrap(), SCHEMA_VERSION);
        // Running again is a no-op, not a second CREATE TABLE.
        migrate(&mut connection).unwrap();
        assert_eq!(user_version(&connection).unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn upgrades_a_version_1_database_and_indexes_its_rules() {
        let mut connection = at_version(1);
        connection
            .execute(
                "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at, updated_us)
                 VALUES ('a', 'shell', 'never run sudo', 'critical', 'user_explicit', '[]',
                         '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', 0)",
                [],
            )
            .unwrap();
        migrate(&mut connection).unwrap();
        assert_eq!(user_version(&connection).unwrap(), SCHEMA_VERSION);
        // The upgrade indexes the rows that were there.
        crate::index::catch_up_full_text_index(&mut connection).unwrap();
        let hits: i64 = connection
            .query_row(
                "SELECT count(*) FROM rules_fts WHERE rules_fts MATCH 'sudo'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(hits, 1);
    }

    #[test]
    fn upgrades_a_version_5_database_with_its_history_and_search() {
        let mut connection = at_version(5);
        connection
            .execute_batch(
                "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at, updated_us)
                 VALUES ('a', 'shell', 'never run sudo', 'critical', 'user_explicit', '[]',
                         '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', 0);
                 INSERT INTO rule_history (at, tool_name, rule_id, action, origin)
                 VALUES ('2026-01-01T00:00:00+00:00', 'shell', 'a', 'create', '{\"kind\":\"api\"}');",
            )
            .unwrap();
        migrate(&mut connection).unwrap();
        assert_eq!(user_version(&connection).unwrap(), SCHEMA_VERSION);
        let count = |sql: &str| -> i64 { connection.query_row(sql, [], |row| row.get(0)).unwrap() };
        // Old lines are in the per-tool index and the search index holds the old rows, with
        // both watermarks at the end of the log, so nothing is folded in twice.
        assert_eq!(
            count("SELECT count(*) FROM history_by_tool WHERE tool_name = 'shell'"),
            1
        );
        assert_eq!(
            count("SELECT count(*) FROM rules_fts WHERE rules_fts MATCH 'sudo'"),
            1
        );
        assert_eq!(count("SELECT min(seq) FROM log_watermarks"), 1);
    }

    #[test]
    fn upgrades_a_version_6_database_keeping_its_text_timestamps_readable() {
        let mut connection = at_version(6);
        connection
            .execute(
                "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at, updated_us)
                 VALUES ('a', 'shell', 'never run sudo', 'critical', 'user_explicit', '[]',
                         '2026-01-01T00:00:00.5+00:00', '2026-01-02T00:00:00+00:00', 0)",
                [],
            )
            .unwrap();
        migrate(&mut connection).unwrap();
        assert_eq!(user_version(&connection).unwrap(), SCHEMA_VERSION);
        let rule = crate::codec::read_rule(&connection, "shell", "a")
            .unwrap()
            .unwrap();
        assert_eq!(
            rule.created_at.to_rfc3339(),
            "2026-01-01T00:00:00.500+00:00"
        );
        assert_eq!(rule.updated_at.to_rfc3339(), "2026-01-02T00:00:00+00:00");
        // The eager index came back over the new table.
        let eager: i64 = connection
            .query_row(
                "SELECT count(*) FROM rules INDEXED BY rules_eager
                 WHERE priority <> 'normal' AND revoked_at IS NULL",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(eager, 1);
    }

    #[test]
    fn upgrades_a_version_7_database_whose_rows_name_no_history_line() {
        let mut connection = at_version(7);
        connection
            .execute_batch(
                "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at, updated_us)
                 VALUES ('a', 'shell', 'never run sudo', 'critical', 'user_explicit', '[]', 0, 0, 0);
                 INSERT INTO rule_history (at, tool_name, rule_id, action, origin, before_json, after_json)
                 VALUES ('2026-01-01T00:00:00+00:00', 'shell', 'a', 'update', '{\"kind\":\"api\"}', '{\"old\":1}', '{}');",
            )
            .unwrap();
        migrate(&mut connection).unwrap();
        assert_eq!(user_version(&connection).unwrap(), SCHEMA_VERSION);
        // The old row is read with no line to name, so a change to it copies it.
        let current = crate::codec::read_current(&connection, "shell", "a")
            .unwrap()
            .unwrap();
        assert_eq!(current.rule.rule, "never run sudo");
        assert_eq!(current.line, None);
        // The old line keeps its copy, under the new name.
        let line: (Option<String>, Option<i64>) = connection
            .query_row(
                "SELECT before_copy, before_seq FROM rule_history",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!(line, (Some("{\"old\":1}".to_owned()), None));
    }

    #[test]
    fn refuses_a_newer_schema() {
        let mut connection = Connection::open_in_memory().unwrap();
        connection
            .pragma_update(None, "user_version", SCHEMA_VERSION + 5)
            .unwrap();
        let err = migrate(&mut connection).unwrap_err();
        assert!(matches!(err, Error::SchemaTooNew { .. }), "{err}");
    }
}
