//! Catching up the lazy indexes (full-text search, per-tool history) from the history log,
//! which every write appends to: a write pays for neither index, the next query does.

use rusqlite::{Connection, params};
use tool_memory_store::Result;

use crate::connections::WriteTransaction;
use crate::error::sqlite;

/// Refreshes the search index for every rule the history log names since the last search, in
/// one transaction: one new index segment for a batch of changes instead of one per write. A
/// rule deleted since is dropped; a rule written gets a new document with its current text.
pub(crate) fn catch_up_full_text_index(connection: &mut Connection) -> Result<()> {
    catch_up(connection, "search", |transaction, from, to| {
        let changed = "SELECT tool_name, rule_id FROM rule_history WHERE seq > ?1 AND seq <= ?2";
        let run = |sql: &str, from: i64, to: i64| {
            transaction
                .prepare_cached(sql)
                .and_then(|mut statement| statement.execute(params![from, to]))
        };
        run(
            &format!(
                "DELETE FROM rules_fts WHERE rowid IN
                     (SELECT doc_id FROM search_docs WHERE (tool_name, id) IN ({changed}))"
            ),
            from,
            to,
        )?;
        run(
            &format!("DELETE FROM search_docs WHERE (tool_name, id) IN ({changed})"),
            from,
            to,
        )?;
        let first_new: i64 = transaction
            .prepare_cached("SELECT coalesce(max(doc_id), 0) FROM search_docs")
            .and_then(|mut statement| statement.query_row([], |row| row.get(0)))?;
        run(
            &format!(
                "INSERT INTO search_docs (tool_name, id)
                     SELECT tool_name, id FROM rules WHERE (tool_name, id) IN ({changed})"
            ),
            from,
            to,
        )?;
        transaction
            .prepare_cached(
                "INSERT INTO rules_fts (rowid, rule)
                     SELECT d.doc_id, r.rule FROM search_docs AS d
                     JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id
                     WHERE d.doc_id > ?1",
            )
            .and_then(|mut statement| statement.execute(params![first_new]))?;
        Ok(())
    })
}

/// Adds the history lines written since the last history query to the per-tool history index.
pub(crate) fn catch_up_history_index(connection: &mut Connection) -> Result<()> {
    catch_up(connection, "history", |transaction, from, to| {
        transaction
            .prepare_cached(
                "INSERT INTO history_by_tool (tool_name, seq)
                     SELECT tool_name, seq FROM rule_history WHERE seq > ?1 AND seq <= ?2",
            )
            .and_then(|mut statement| statement.execute(params![from, to]))?;
        Ok(())
    })
}

/// History lines folded into a lazy index per transaction: the catch-up holds the write lock,
/// and a long backlog (200,000 puts without a search took 2.2 s in one piece) would make other
/// processes' writes wait past their busy timeout.
pub(crate) const CATCH_UP_LINES: i64 = 4096;

/// Brings the lazy index `name` up to the end of the history log as it is when called: `apply`
/// folds in the lines with `from < seq <= to` and the index's watermark moves to `to`, one
/// transaction per [`CATCH_UP_LINES`] lines. Costs one read when the index is current.
pub(crate) fn catch_up(
    connection: &mut Connection,
    name: &str,
    apply: impl Fn(&Connection, i64, i64) -> rusqlite::Result<()>,
) -> Result<()> {
    let range = |connection: &Connection| {
        connection
            .prepare_cached(
                "SELECT (SELECT seq FROM log_watermarks WHERE name = ?1),
                        (SELECT coalesce(max(seq), 0) FROM rule_history)",
            )
            .and_then(|mut statement| {
                statement.query_row(params![name], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?))
                })
            })
            .map_err(sqlite("read index watermark"))
    };
    // Lines written after this call started are left to the next one.
    let (mut from, end) = range(connection)?;
    while from < end {
        let transaction = WriteTransaction::begin(connection, "begin index catch-up")?;
        // Read again inside the write lock: another connection may have caught up meanwhile.
        let (start, _) = range(&transaction)?;
        let to = end.min(start.saturating_add(CATCH_UP_LINES));
        if start < to {
            apply(&transaction, start, to).map_err(sqlite("catch up an index"))?;
            transaction
                .prepare_cached("UPDATE log_watermarks SET seq = ?2 WHERE name = ?1")
                .and_then(|mut statement| statement.execute(params![name, to]))
                .map_err(sqlite("move index watermark"))?;
        }
        transaction.commit("commit index catch-up")?;
        from = start.max(to);
    }
    Ok(())
}
