//! `apply_turn` on SQLite: the turn's rows read, its decisions taken and its writes made in
//! one `BEGIN IMMEDIATE` transaction on the writer, with the turn's key recorded in
//! `applied_turns` (migration 9) before the commit.

use rusqlite::{Connection, OptionalExtension, params};
use tool_memory_core::Timestamp;
use tool_memory_store::backend::{TurnSnapshot, TurnWrite, plan_turn};
use tool_memory_store::{Result, Services, TurnChanges, TurnKey, TurnOutcome};

use crate::codec::{
    ALL_RULES, LIST_RULES, OnExisting, delete_rule, insert_history, query_rows, read_current,
    read_stats, write_rule, write_stats,
};
use crate::connections::WriteTransaction;
use crate::error::sqlite;

/// Applies `changes` on the writer `connection`; nothing of the turn is kept when any step
/// fails (the transaction rolls back when dropped uncommitted).
pub(crate) fn apply_turn(
    connection: &mut Connection,
    services: &Services,
    changes: &TurnChanges,
) -> Result<TurnOutcome> {
    let transaction = WriteTransaction::begin(connection, "begin turn")?;
    if let Some(key) = &changes.key
        && turn_applied(&transaction, key)?
    {
        return Ok(TurnOutcome::already());
    }
    let reads = changes.reads();
    let mut snapshot = TurnSnapshot::default();
    match &reads.tools {
        None => snapshot.rows = query_rows(&transaction, ALL_RULES, [])?,
        Some(tools) => {
            for tool in tools {
                snapshot
                    .rows
                    .extend(query_rows(&transaction, LIST_RULES, params![tool])?);
            }
        }
    }
    for tool in &reads.stats {
        snapshot.stats.extend(read_stats(&transaction, tool)?);
    }
    // Read the clock inside the write lock so updated_at follows commit order.
    let at = services.clock.now();
    let plan = plan_turn(changes, snapshot, at, &*services.ids)?;
    for write in &plan.writes {
        match write {
            TurnWrite::Rule { rule, event, .. } => {
                // Read again, after this turn's earlier writes, for the line the row names.
                let current = read_current(&transaction, &rule.tool_name, &rule.id)?;
                let line = insert_history(&transaction, event, current.as_ref().into(), at)?;
                write_rule(&transaction, rule, line, OnExisting::Replace)?;
            }
            TurnWrite::Remove {
                tool_name,
                id,
                event,
                ..
            } => {
                let current = read_current(&transaction, tool_name, id)?;
                delete_rule(&transaction, event, current.as_ref().into(), at)?;
            }
            TurnWrite::Stats(totals) => write_stats(&transaction, totals)?,
        }
    }
    if let Some(key) = &changes.key {
        record_turn(&transaction, key, at)?;
    }
    transaction.commit("commit turn")?;
    Ok(plan.outcome)
}

fn turn_applied(connection: &Connection, key: &TurnKey) -> Result<bool> {
    connection
        .prepare_cached(
            "SELECT 1 FROM applied_turns WHERE session_id = ?1 AND turn = ?2 AND digest = ?3",
        )
        .and_then(|mut statement| {
            statement
                .query_row(
                    params![key.session_id, key.turn.cast_signed(), key.digest],
                    |_| Ok(()),
                )
                .optional()
        })
        .map(|found| found.is_some())
        .map_err(sqlite("read applied turn"))
}

fn record_turn(connection: &Connection, key: &TurnKey, at: Timestamp) -> Result<()> {
    connection
        .prepare_cached(
            "INSERT INTO applied_turns (session_id, turn, digest, applied_at) VALUES (?1, ?2, ?3, ?4)",
        )
        .and_then(|mut statement| {
            statement.execute(params![
                key.session_id,
                key.turn.cast_signed(),
                key.digest,
                at.to_rfc3339()
            ])
        })
        .map_err(sqlite("record applied turn"))?;
    Ok(())
}
