//! Rows to rules and back: the rule columns, the row decoder, and the writes of a rule and a
//! history line.

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;
use tool_memory_core::{
    HistoryEntry, HistoryEvent, RawJson, Timestamp, ToolMemoryRule, ToolStats, normalize_tool_name,
};
use tool_memory_store::backend::{
    RuleColumns, StoredRow, WrongForm, history_from_columns, rule_from_row,
};
use tool_memory_store::{Error, Result, UnreadableRow};

use crate::error::pg_error;

pub(crate) const RULE_COLUMNS: &str = "id, tool_name, rule, priority, source, tags, created_at, updated_at, \
     revoked_at, expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit";

pub(crate) fn saturating_i64(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// Decodes one rule row (columns in [`RULE_COLUMNS`] order), or says why it cannot.
pub(crate) fn read_row(row: &Row) -> StoredRow {
    parse_row(row).map_err(|reason| {
        let text = |index: usize| row.try_get::<_, String>(index).unwrap_or_default();
        UnreadableRow {
            tool_name: text(1),
            id: text(0),
            reason,
        }
    })
}

/// A row as the shared decoder reads it.
struct PostgresColumns<'r>(&'r Row);

impl RuleColumns for PostgresColumns<'_> {
    fn text(&self, index: usize) -> std::result::Result<&str, WrongForm> {
        self.0.try_get::<_, &str>(index).map_err(|_| WrongForm)
    }

    fn optional_text(&self, index: usize) -> std::result::Result<Option<&str>, WrongForm> {
        self.0
            .try_get::<_, Option<&str>>(index)
            .map_err(|_| WrongForm)
    }

    /// RFC 3339 text, as this store writes every instant.
    fn instant(&self, index: usize) -> std::result::Result<Timestamp, WrongForm> {
        Timestamp::parse(self.text(index)?).map_err(|_| WrongForm)
    }

    fn optional_integer(&self, index: usize) -> std::result::Result<Option<i64>, WrongForm> {
        self.0
            .try_get::<_, Option<i64>>(index)
            .map_err(|_| WrongForm)
    }

    fn flag(&self, index: usize) -> std::result::Result<bool, WrongForm> {
        self.0.try_get::<_, bool>(index).map_err(|_| WrongForm)
    }
}

/// Decodes one row; errors name the column, never its value.
fn parse_row(row: &Row) -> std::result::Result<ToolMemoryRule, String> {
    rule_from_row(&PostgresColumns(row))
}

/// A readable row as a rule, an unreadable one as the error that says so.
pub(crate) fn readable(row: Option<StoredRow>) -> Result<Option<ToolMemoryRule>> {
    match row {
        None => Ok(None),
        Some(Ok(rule)) => Ok(Some(rule)),
        Some(Err(row)) => Err(Error::unreadable(row)),
    }
}

/// Reads one rule row, locking it for the rest of the transaction when `lock` is set.
pub(crate) async fn fetch_row(
    client: &impl GenericClient,
    tool_name: &str,
    id: &str,
    lock: bool,
) -> std::result::Result<Option<StoredRow>, tokio_postgres::Error> {
    let sql = if lock {
        "SELECT id, tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, \
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit \
         FROM rules WHERE tool_name = $1 AND id = $2 FOR UPDATE"
    } else {
        "SELECT id, tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, \
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit \
         FROM rules WHERE tool_name = $1 AND id = $2"
    };
    let statement = client.prepare_cached(sql).await?;
    let row = client.query_opt(&statement, &[&tool_name, &id]).await?;
    Ok(row.as_ref().map(read_row))
}

/// The column values of a rule, owned, in the order of [`RULE_COLUMNS`] plus `updated_us`.
pub(crate) struct RuleValues {
    tags: String,
    created_at: String,
    updated_at: String,
    updated_us: i64,
    revoked_at: Option<String>,
    expires_at: Option<String>,
    retire_after_successes: Option<i64>,
}

impl RuleValues {
    fn of(rule: &ToolMemoryRule) -> RuleValues {
        RuleValues {
            tags: serde_json::to_string(&rule.tags).expect("tags always serialise"),
            created_at: rule.created_at.to_rfc3339(),
            updated_at: rule.updated_at.to_rfc3339(),
            updated_us: rule.updated_at.unix_micros(),
            revoked_at: rule.meta.revoked_at.map(|at| at.to_rfc3339()),
            expires_at: rule.meta.expires_at.map(|at| at.to_rfc3339()),
            retire_after_successes: rule.meta.retire_after_successes.map(saturating_i64),
        }
    }
}

/// Writes `rule` over its existing row (`exists`) or as a new one. `false` when the insert
/// found a row another writer created meanwhile; the caller then locks that row and retries.
pub(crate) async fn write_rule(
    client: &impl GenericClient,
    rule: &ToolMemoryRule,
    exists: bool,
) -> std::result::Result<bool, tokio_postgres::Error> {
    let values = RuleValues::of(rule);
    let sql = if exists {
        "UPDATE rules SET rule = $3, priority = $4, source = $5, tags = $6, created_at = $7,
             updated_at = $8, updated_us = $9, revoked_at = $10, expires_at = $11,
             retire_after_successes = $12, proposed = $13, constraint_json = $14,
             constraint_explicit = $15
         WHERE id = $1 AND tool_name = $2"
    } else {
        "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at,
             updated_us, revoked_at, expires_at, retire_after_successes, proposed, constraint_json,
             constraint_explicit)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (tool_name, id) DO NOTHING"
    };
    let statement = client.prepare_cached(sql).await?;
    let constraint = rule.meta.constraint.as_ref().map(RawJson::as_str);
    let params: [&(dyn ToSql + Sync); 15] = [
        &rule.id,
        &rule.tool_name,
        &rule.rule,
        &rule.priority.as_str(),
        &rule.source.as_str(),
        &values.tags,
        &values.created_at,
        &values.updated_at,
        &values.updated_us,
        &values.revoked_at,
        &values.expires_at,
        &values.retire_after_successes,
        &rule.meta.proposed,
        &constraint,
        &rule.meta.constraint_explicit,
    ];
    Ok(client.execute(&statement, &params).await? == 1)
}

/// Appends a history line (inside the caller's transaction, when it has one) and returns its
/// `seq`.
pub(crate) async fn insert_history(
    client: &impl GenericClient,
    event: &HistoryEvent,
    before: Option<&ToolMemoryRule>,
    at: Timestamp,
) -> std::result::Result<i64, tokio_postgres::Error> {
    let origin = serde_json::to_string(&event.origin).expect("origins always serialise");
    let before_json = before.map(ToolMemoryRule::to_compact_json);
    let after_json = event.rule.as_ref().map(ToolMemoryRule::to_compact_json);
    let tool_name = normalize_tool_name(&event.tool_name);
    let statement = client
        .prepare_cached(
            "INSERT INTO rule_history (at, tool_name, rule_id, action, origin, before_json, after_json, detail)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING seq",
        )
        .await?;
    let row = client
        .query_one(
            &statement,
            &[
                &at.to_rfc3339(),
                &tool_name,
                &event.rule_id,
                &event.action.as_str(),
                &origin,
                &before_json,
                &after_json,
                &event.detail,
            ],
        )
        .await?;
    row.try_get(0)
}

pub(crate) fn read_history_row(row: &Row) -> std::result::Result<HistoryEntry, String> {
    let seq = row.try_get(0).map_err(|err| err.to_string())?;
    history_from_columns(seq, |index| {
        row.try_get::<_, Option<String>>(index)
            .map_err(|err| err.to_string())
    })
}

pub(crate) fn stats_from_row(tool_name: &str, row: &Row) -> Result<ToolStats> {
    let count = |index: usize| -> Result<u64> {
        let value: i64 = row
            .try_get(index)
            .map_err(pg_error("postgres: read statistics"))?;
        Ok(u64::try_from(value).unwrap_or_default())
    };
    let last_seen: Option<String> = row
        .try_get(4)
        .map_err(pg_error("postgres: read statistics"))?;
    Ok(ToolStats {
        tool_name: tool_name.to_owned(),
        calls: count(0)?,
        successes: count(1)?,
        failures: count(2)?,
        last_failure_class: row
            .try_get(3)
            .map_err(pg_error("postgres: read statistics"))?,
        last_seen: last_seen.as_deref().map(Timestamp::parse).transpose()?,
    })
}
