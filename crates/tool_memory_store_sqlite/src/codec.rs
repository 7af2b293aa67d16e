//! Rows to rules and back: the rule columns and queries, the row decoder, and the writes of a
//! rule, a history line and a tool's statistics.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, Row, params};
use tool_memory_core::{
    HistoryEntry, HistoryEvent, RawJson, Timestamp, ToolMemoryRule, ToolStats, normalize_tool_name,
};
use tool_memory_store::backend::{
    RuleColumns, StoredRow, WrongForm, history_from_columns, keywords, rule_from_row,
};
use tool_memory_store::{Error, Result, UnreadableRow};

use crate::error::sqlite;

/// The columns a rule is read from, in the order the row decoder expects. A macro so that the
/// queries below are whole strings at compile time: the point read formatted its SQL on every
/// call only to look up its cached statement.
macro_rules! rule_columns {
    () => {
        "id, tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, \
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit"
    };
}

/// Every rule of one tool.
pub(crate) const LIST_RULES: &str = concat!(
    "SELECT ",
    rule_columns!(),
    " FROM rules WHERE tool_name = ?1"
);

/// Every rule of every tool, for `toolmem doctor`.
pub(crate) const ALL_RULES: &str = concat!("SELECT ", rule_columns!(), " FROM rules");

/// One rule by its key.
pub(crate) const READ_RULE: &str = concat!(
    "SELECT ",
    rule_columns!(),
    " FROM rules WHERE tool_name = ?1 AND id = ?2"
);

/// One rule by its key, and the history line that wrote it (see migration 8).
pub(crate) const READ_RULE_AND_LINE: &str = concat!(
    "SELECT ",
    rule_columns!(),
    ", history_seq FROM rules WHERE tool_name = ?1 AND id = ?2"
);

/// Where `history_seq` is in [`READ_RULE_AND_LINE`]: after the rule's columns.
pub(crate) const HISTORY_SEQ_COLUMN: usize = 14;

/// The columns of the session-start query: every column of the covering eager index, and a
/// constant for `revoked_at`, which that index excludes by definition.
pub(crate) const EAGER_COLUMNS: &str = "id, tool_name, rule, priority, source, tags, created_at, updated_at, \
     NULL, expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit";

pub(crate) fn read_row(row: &Row<'_>) -> rusqlite::Result<StoredRow> {
    Ok(parse_row(row).map_err(|reason| {
        let text = |index: usize| row.get::<_, String>(index).unwrap_or_default();
        UnreadableRow {
            tool_name: text(1),
            id: text(0),
            reason,
        }
    }))
}

/// A row as the shared decoder reads it, borrowing the columns that are only parsed (priority,
/// source, tags and the timestamps) rather than copying them: the session-start query decodes
/// hundreds of rows.
struct SqliteColumns<'a, 'r>(&'a Row<'r>);

impl RuleColumns for SqliteColumns<'_, '_> {
    fn text(&self, index: usize) -> std::result::Result<&str, WrongForm> {
        self.0
            .get_ref(index)
            .ok()
            .and_then(|value| value.as_str().ok())
            .ok_or(WrongForm)
    }

    fn optional_text(&self, index: usize) -> std::result::Result<Option<&str>, WrongForm> {
        match self.0.get_ref(index).map_err(|_| WrongForm)? {
            ValueRef::Null => Ok(None),
            value => value.as_str().map(Some).map_err(|_| WrongForm),
        }
    }

    /// Integer nanoseconds as written since schema 7, RFC 3339 text before and where those
    /// would not be exact (see the migration).
    fn instant(&self, index: usize) -> std::result::Result<Timestamp, WrongForm> {
        match self.0.get_ref(index).map_err(|_| WrongForm)? {
            ValueRef::Integer(nanos) => Ok(Timestamp::from_unix_nanos(nanos)),
            value => {
                Timestamp::parse(value.as_str().map_err(|_| WrongForm)?).map_err(|_| WrongForm)
            }
        }
    }

    fn optional_integer(&self, index: usize) -> std::result::Result<Option<i64>, WrongForm> {
        self.0.get::<_, Option<i64>>(index).map_err(|_| WrongForm)
    }

    fn flag(&self, index: usize) -> std::result::Result<bool, WrongForm> {
        self.0.get::<_, bool>(index).map_err(|_| WrongForm)
    }
}

/// Decodes one row.
fn parse_row(row: &Row<'_>) -> std::result::Result<ToolMemoryRule, String> {
    rule_from_row(&SqliteColumns(row))
}

/// An instant as the `rules` table stores `created_at` and `updated_at`: integer nanoseconds
/// when they are exact, RFC 3339 text otherwise.
pub(crate) fn stored_instant(at: Timestamp) -> rusqlite::types::Value {
    match at.exact_unix_nanos() {
        Some(nanos) => rusqlite::types::Value::Integer(nanos),
        None => rusqlite::types::Value::Text(at.to_rfc3339()),
    }
}

pub(crate) fn query_rows(
    connection: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<StoredRow>> {
    let mut statement = connection
        .prepare_cached(sql)
        .map_err(sqlite("prepare query"))?;
    let rows = statement
        .query_map(params, read_row)
        .map_err(sqlite("query rules"))?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(sqlite("read rules"))?;
    Ok(rows)
}

/// Inserts a rule; the statement fails on a row under the same key.
macro_rules! insert_rule {
    () => {
        "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at,
             updated_us, revoked_at, expires_at, retire_after_successes, proposed, constraint_json,
             constraint_explicit, history_seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
    };
}

/// What [`write_rule`] does with a row already under the rule's key.
#[derive(Debug, Clone, Copy)]
pub(crate) enum OnExisting {
    Replace,
    /// For a rule under a newly made id, which no stored rule can have: the write fails
    /// instead of overwriting one.
    Fail,
}

/// Writes one rule row, every column from `rule`, with `line`, the history line just written
/// for it, whose after image it is.
pub(crate) fn write_rule(
    connection: &Connection,
    rule: &ToolMemoryRule,
    line: i64,
    existing: OnExisting,
) -> Result<()> {
    let tags = serde_json::to_string(&rule.tags).expect("tags always serialise");
    let constraint = rule.meta.constraint.as_ref().map(RawJson::as_str);
    let sql = match existing {
        OnExisting::Replace => concat!(
            insert_rule!(),
            "
             ON CONFLICT (tool_name, id) DO UPDATE SET
               rule = excluded.rule, priority = excluded.priority, source = excluded.source,
               tags = excluded.tags, created_at = excluded.created_at,
               updated_at = excluded.updated_at, updated_us = excluded.updated_us,
               revoked_at = excluded.revoked_at, expires_at = excluded.expires_at,
               retire_after_successes = excluded.retire_after_successes,
               proposed = excluded.proposed, constraint_json = excluded.constraint_json,
               constraint_explicit = excluded.constraint_explicit,
               history_seq = excluded.history_seq"
        ),
        OnExisting::Fail => insert_rule!(),
    };
    connection
        .prepare_cached(sql)
        .and_then(|mut statement| {
            statement.execute(params![
                rule.id,
                rule.tool_name,
                rule.rule,
                rule.priority.as_str(),
                rule.source.as_str(),
                tags,
                stored_instant(rule.created_at),
                stored_instant(rule.updated_at),
                rule.updated_at.unix_micros(),
                rule.meta.revoked_at.map(|at| at.to_rfc3339()),
                rule.meta.expires_at.map(|at| at.to_rfc3339()),
                rule.meta.retire_after_successes.map(saturating_i64),
                rule.meta.proposed,
                constraint,
                rule.meta.constraint_explicit,
                line,
            ])
        })
        .map_err(sqlite("write rule"))?;
    Ok(())
}

/// Reads one rule. An unreadable row is an error, not `None`: a change must never overwrite what
/// a newer version wrote, and a reader must not take it for absent.
pub(crate) fn read_rule(
    connection: &Connection,
    tool_name: &str,
    id: &str,
) -> Result<Option<ToolMemoryRule>> {
    let row = connection
        .prepare_cached(READ_RULE)
        .and_then(|mut statement| {
            statement
                .query_row(params![tool_name, id], read_row)
                .optional()
        })
        .map_err(sqlite("read rule"))?;
    match row {
        None => Ok(None),
        Some(Ok(rule)) => Ok(Some(rule)),
        Some(Err(row)) => Err(Error::unreadable(row)),
    }
}

/// A stored rule, read for a change, and the history line whose after image it is (`None` for
/// a row written before schema 8).
pub(crate) struct Current {
    pub(crate) rule: ToolMemoryRule,
    pub(crate) line: Option<i64>,
}

/// Reads one rule for a change, with its history line; unreadable as in [`read_rule`].
pub(crate) fn read_current(
    connection: &Connection,
    tool_name: &str,
    id: &str,
) -> Result<Option<Current>> {
    let row = connection
        .prepare_cached(READ_RULE_AND_LINE)
        .and_then(|mut statement| {
            statement
                .query_row(params![tool_name, id], |row| {
                    Ok((
                        read_row(row)?,
                        row.get::<_, Option<i64>>(HISTORY_SEQ_COLUMN)?,
                    ))
                })
                .optional()
        })
        .map_err(sqlite("read rule"))?;
    match row {
        None => Ok(None),
        Some((Ok(rule), line)) => Ok(Some(Current { rule, line })),
        Some((Err(row), _)) => Err(Error::unreadable(row)),
    }
}

/// What a history line records as the rule before its change.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Before<'r> {
    /// Nothing: a create, or a row this version cannot read.
    Nothing,
    /// A copy of the rule.
    Image(&'r ToolMemoryRule),
    /// The line whose after image the rule was; readers take the image from there.
    Line(i64),
}

impl<'r> From<Option<&'r ToolMemoryRule>> for Before<'r> {
    fn from(rule: Option<&'r ToolMemoryRule>) -> Before<'r> {
        rule.map_or(Before::Nothing, Before::Image)
    }
}

/// The before image of a line that changes `current`: the line that wrote it when known, so
/// the log does not hold the same rule twice.
impl<'r> From<Option<&'r Current>> for Before<'r> {
    fn from(current: Option<&'r Current>) -> Before<'r> {
        match current {
            None => Before::Nothing,
            Some(Current {
                line: Some(seq), ..
            }) => Before::Line(*seq),
            Some(Current { rule, line: None }) => Before::Image(rule),
        }
    }
}

/// Appends a history line on `connection` (inside the caller's transaction) and returns its
/// `seq`.
pub(crate) fn insert_history(
    connection: &Connection,
    event: &HistoryEvent,
    before: Before<'_>,
    at: Timestamp,
) -> Result<i64> {
    let origin = serde_json::to_string(&event.origin).expect("origins always serialise");
    let (before_copy, before_seq) = match before {
        Before::Nothing => (None, None),
        Before::Image(rule) => (Some(rule.to_compact_json()), None),
        Before::Line(seq) => (None, Some(seq)),
    };
    let after_json = event.rule.as_ref().map(ToolMemoryRule::to_compact_json);
    let tool_name = normalize_tool_name(&event.tool_name);
    connection
        .prepare_cached(
            "INSERT INTO rule_history (at, tool_name, rule_id, action, origin, before_copy, after_json, detail, before_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )
        .and_then(|mut statement| {
            statement.execute(params![
                at.to_rfc3339(),
                tool_name,
                event.rule_id,
                event.action.as_str(),
                origin,
                before_copy,
                after_json,
                event.detail,
                before_seq,
            ])
        })
        .map_err(sqlite("write history"))?;
    Ok(connection.last_insert_rowid())
}

/// Deletes the rule `event` names and, when there was one, appends `event` with `before`;
/// `true` when a row was deleted.
pub(crate) fn delete_rule(
    connection: &Connection,
    event: &HistoryEvent,
    before: Before<'_>,
    at: Timestamp,
) -> Result<bool> {
    let deleted = connection
        .prepare_cached("DELETE FROM rules WHERE tool_name = ?1 AND id = ?2")
        .and_then(|mut statement| statement.execute(params![event.tool_name, event.rule_id]))
        .map_err(sqlite("delete rule"))?
        > 0;
    if deleted {
        insert_history(connection, event, before, at)?;
    }
    Ok(deleted)
}

/// Sets a tool's statistics to `totals`.
pub(crate) fn write_stats(connection: &Connection, totals: &ToolStats) -> Result<()> {
    connection
        .prepare_cached(
            "INSERT INTO tool_stats (tool_name, calls, successes, failures, last_failure_class, last_seen)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (tool_name) DO UPDATE SET
               calls = excluded.calls, successes = excluded.successes,
               failures = excluded.failures, last_failure_class = excluded.last_failure_class,
               last_seen = excluded.last_seen",
        )
        .and_then(|mut statement| {
            statement.execute(params![
                totals.tool_name,
                saturating_i64(totals.calls),
                saturating_i64(totals.successes),
                saturating_i64(totals.failures),
                totals.last_failure_class,
                totals.last_seen.map(|seen| seen.to_rfc3339()),
            ])
        })
        .map_err(sqlite("write statistics"))?;
    Ok(())
}

pub(crate) fn read_history_row(
    row: &Row<'_>,
) -> rusqlite::Result<std::result::Result<HistoryEntry, String>> {
    let seq: i64 = row.get(0)?;
    Ok(history_from_columns(seq, |index| {
        row.get::<_, Option<String>>(index)
            .map_err(|err| err.to_string())
    }))
}

pub(crate) fn saturating_i64(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

pub(crate) fn read_stats(connection: &Connection, tool_name: &str) -> Result<Option<ToolStats>> {
    let row = connection
        .prepare_cached(
            "SELECT calls, successes, failures, last_failure_class, last_seen
             FROM tool_stats WHERE tool_name = ?1",
        )
        .and_then(|mut statement| {
            statement
                .query_row(params![tool_name], |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, i64>(1)?,
                        row.get::<_, i64>(2)?,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, Option<String>>(4)?,
                    ))
                })
                .optional()
        })
        .map_err(sqlite("read statistics"))?;
    let Some((calls, successes, failures, last_failure_class, last_seen)) = row else {
        return Ok(None);
    };
    let count = |value: i64| u64::try_from(value).unwrap_or_default();
    Ok(Some(ToolStats {
        tool_name: tool_name.to_owned(),
        calls: count(calls),
        successes: count(successes),
        failures: count(failures),
        last_failure_class,
        last_seen: last_seen.as_deref().map(Timestamp::parse).transpose()?,
    }))
}

/// The FTS5 query for a text: every keyword quoted (so no user text is query syntax) and
/// joined with OR, ranked by bm25.
pub(crate) fn fts_query(query: &str) -> Option<String> {
    let mut words = keywords(query);
    words.sort();
    words.dedup();
    if words.is_empty() {
        return None;
    }
    Some(
        words
            .iter()
            .map(|word| format!("\"{word}\""))
            .collect::<Vec<_>>()
            .join(" OR "),
    )
}
