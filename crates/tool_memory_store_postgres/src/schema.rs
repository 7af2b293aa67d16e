//! Forward-only schema migrations, recorded in a `schema_version` table.
//!
//! Every server runs them at start-up, so several starting at once must not race: one
//! transaction takes a transaction-scoped advisory lock (keyed by the schema, so stores in other
//! schemas of the same database do not wait on each other), reads the version, applies every
//! missing step and records it, then commits, which releases the lock. A server that waited
//! finds the schema current and applies nothing. DDL is transactional in PostgreSQL, so a failed
//! step leaves the schema exactly as it was.

use tool_memory_store::{Error, Result};

use crate::error::pg_error;

/// Migration `n` takes the schema from version `n` to `n + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: the same concepts as the SQLite schema (version 5). One typed row per rule, revoked
    // rules kept; timestamps as the RFC 3339 text the rule carries, so a rule reads back byte for
    // byte, with `updated_us` as the instant for ordering. `rule_history` holds one line per
    // change or guard decision, written in the transaction of the change. `rules_version` is the
    // cache key of every server: a row trigger bumps it with each inserted, updated or deleted
    // rule, inside the writer's transaction, so the new value becomes visible exactly when the
    // change does (a sequence would not: `nextval` is visible before the commit). History lines
    // and statistics do not touch it. `SET search_path FROM CURRENT` pins the trigger function to
    // the schema it was created in.
    "CREATE TABLE rules (
        tool_name              TEXT NOT NULL,
        id                     TEXT NOT NULL,
        rule                   TEXT NOT NULL,
        priority               TEXT NOT NULL,
        source                 TEXT NOT NULL,
        tags                   TEXT NOT NULL DEFAULT '[]',
        created_at             TEXT NOT NULL,
        updated_at             TEXT NOT NULL,
        updated_us             BIGINT NOT NULL,
        revoked_at             TEXT,
        expires_at             TEXT,
        retire_after_successes BIGINT,
        proposed               BOOLEAN NOT NULL DEFAULT FALSE,
        constraint_json        TEXT,
        constraint_explicit    BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (tool_name, id)
    );
    CREATE INDEX rules_eager ON rules (tool_name) WHERE priority <> 'normal' AND revoked_at IS NULL;
    CREATE TABLE rule_history (
        seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
    CREATE TABLE tool_stats (
        tool_name          TEXT PRIMARY KEY,
        calls              BIGINT NOT NULL,
        successes          BIGINT NOT NULL,
        failures           BIGINT NOT NULL,
        last_failure_class TEXT,
        last_seen          TEXT
    );
    CREATE TABLE rules_version (
        id      INTEGER PRIMARY KEY CHECK (id = 1),
        version BIGINT NOT NULL
    );
    INSERT INTO rules_version (id, version) VALUES (1, 0);
    CREATE FUNCTION toolmem_bump_rules_version() RETURNS trigger
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
            UPDATE rules_version SET version = version + 1;
            RETURN NULL;
        END
    $$;
    CREATE TRIGGER rules_version_bump AFTER INSERT OR UPDATE OR DELETE ON rules
        FOR EACH ROW EXECUTE FUNCTION toolmem_bump_rules_version();",
    // 2: a row trigger does not fire on TRUNCATE, which empties the table without moving the
    // counter: every server would go on enforcing the rules that were there.
    "CREATE TRIGGER rules_version_truncate AFTER TRUNCATE ON rules
        FOR EACH STATEMENT EXECUTE FUNCTION toolmem_bump_rules_version();",
    // 3: the turns `apply_turn` has applied (session, index, digest of the content), claimed first in the turn's own transaction, so
    // that the same turn applied again changes nothing, and a copy applied at the same time on
    // another server waits for the first and then finds its key taken. The turn index is
    // stored as the same 64 bits read as signed, so every index has its own key.
    "CREATE TABLE applied_turns (
        session_id TEXT NOT NULL,
        turn       BIGINT NOT NULL,
        digest     TEXT NOT NULL,
        applied_at TEXT NOT NULL,
        PRIMARY KEY (session_id, turn, digest)
    );",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the schema (`schema`, or the connection's current one) up to date.
pub(crate) async fn migrate(
    client: &mut deadpool_postgres::Client,
    schema: Option<&str>,
) -> Result<()> {
    // A current schema needs nothing, and checking costs no rights beyond reading: a server
    // whose user may only read and write toolmem's tables must start. (The DDL below needs the
    // right to create even when everything exists.)
    if let Ok(row) = client
        .query_one("SELECT coalesce(max(version), 0) FROM schema_version", &[])
        .await
        && let Ok(version) = row.try_get::<_, i64>(0)
    {
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        if version > SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
    }
    let transaction = client
        .transaction()
        .await
        .map_err(pg_error("postgres: begin migration"))?;
    transaction
        .execute(
            "SELECT pg_advisory_xact_lock(hashtext('toolmem migrate ' || coalesce($1::text, current_schema(), '')))",
            &[&schema],
        )
        .await
        .map_err(pg_error("postgres: take the migration lock"))?;
    if let Some(schema) = schema {
        // Under the lock: two servers running `CREATE SCHEMA IF NOT EXISTS` at once can
        // otherwise both try to create it, and one fails.
        transaction
            .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\""))
            .await
            .map_err(pg_error("postgres: create the schema"))?;
    }
    transaction
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_version (
                version    BIGINT PRIMARY KEY,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )",
        )
        .await
        .map_err(pg_error("postgres: create schema_version"))?;
    let version: i64 = transaction
        .query_one("SELECT coalesce(max(version), 0) FROM schema_version", &[])
        .await
        .and_then(|row| row.try_get(0))
        .map_err(pg_error("postgres: read the schema version"))?;
    if version > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    let Ok(applied) = usize::try_from(version) else {
        return Err(Error::SchemaUnknown { found: version });
    };
    for (index, step) in MIGRATIONS.iter().enumerate().skip(applied) {
        transaction
            .batch_execute(step)
            .await
            .map_err(pg_error("postgres: apply a migration"))?;
        let reached = i64::try_from(index + 1).unwrap_or(i64::MAX);
        transaction
            .execute(
                "INSERT INTO schema_version (version) VALUES ($1)",
                &[&reached],
            )
            .await
            .map_err(pg_error("postgres: record the schema version"))?;
        tracing::debug!(
            version = reached,
            "migrated the PostgreSQL tool memory schema"
        );
    }
    transaction
        .commit()
        .await
        .map_err(pg_error("postgres: commit migration"))
}

/// The version the schema is at.
pub(crate) async fn version(client: &deadpool_postgres::Client) -> Result<i64> {
    client
        .query_one("SELECT coalesce(max(version), 0) FROM schema_version", &[])
        .await
        .and_then(|row| row.try_get(0))
        .map_err(pg_error("postgres: read the schema version"))
}
