//! `apply_turn` on PostgreSQL: one transaction that first claims the turn's key in
//! `applied_turns` (migration 3), then locks and reads every row the turn's decisions read,
//! decides, and writes. A concurrent copy of the same turn waits on the key's row and then
//! finds it taken; a failed turn rolls back, key included.

use deadpool_postgres::GenericClient;
use tool_memory_core::ToolStats;
use tool_memory_store::backend::{TurnSnapshot, TurnWrite, plan_turn};
use tool_memory_store::{Error, Result, TurnChanges, TurnOutcome};

use crate::codec::{
    RULE_COLUMNS, insert_history, read_row, saturating_i64, stats_from_row, write_rule,
};
use crate::pool::PostgresRuleStore;

impl PostgresRuleStore {
    pub(crate) async fn apply_turn_in_one_transaction(
        &self,
        changes: TurnChanges,
    ) -> Result<TurnOutcome> {
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin turn"))?;
        self.refuse_newer_schema(&transaction).await?;
        let at = self.services.clock.now();
        if let Some(key) = &changes.key {
            let claimed = transaction
                .execute(
                    "INSERT INTO applied_turns (session_id, turn, digest, applied_at)
                     VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, turn, digest) DO NOTHING",
                    &[
                        &key.session_id,
                        &key.turn.cast_signed(),
                        &key.digest,
                        &at.to_rfc3339(),
                    ],
                )
                .await
                .map_err(self.failed("postgres: record applied turn"))?;
            if claimed == 0 {
                return Ok(TurnOutcome::already());
            }
        }
        let reads = changes.reads();
        // Locked, so no other writer changes a row between the decision and its write; in key
        // order (and the statistics below in name order), so two turns never lock crosswise.
        let rows = match &reads.tools {
            None => {
                transaction
                    .query(&format!("SELECT {RULE_COLUMNS} FROM rules ORDER BY tool_name, id FOR UPDATE"), &[])
                    .await
            }
            Some(tools) => {
                let tools: Vec<&str> = tools.iter().map(String::as_str).collect();
                transaction
                    .query(
                        &format!(
                            "SELECT {RULE_COLUMNS} FROM rules WHERE tool_name = ANY($1) ORDER BY tool_name, id FOR UPDATE"
                        ),
                        &[&tools],
                    )
                    .await
            }
        }
        .map_err(self.failed("postgres: read the turn's rules"))?;
        let mut snapshot = TurnSnapshot {
            rows: rows.iter().map(read_row).collect(),
            stats: Vec::new(),
        };
        for tool in &reads.stats {
            snapshot
                .stats
                .push(self.locked_stats(&transaction, tool).await?);
        }
        let plan = plan_turn(&changes, snapshot, at, &*self.services.ids)?;
        for write in &plan.writes {
            match write {
                TurnWrite::Rule {
                    rule,
                    before,
                    event,
                } => {
                    let written = write_rule(&transaction, rule, before.is_some())
                        .await
                        .map_err(self.failed("postgres: write rule"))?;
                    if !written {
                        return Err(Error::Backend {
                            op: "postgres: apply turn",
                            source: format!(
                                "rule {}/{} was created by another writer during this turn; nothing of the turn was stored",
                                rule.tool_name, rule.id
                            )
                            .into(),
                        });
                    }
                    insert_history(&transaction, event, before.as_ref(), at)
                        .await
                        .map_err(self.failed("postgres: write history"))?;
                }
                TurnWrite::Remove {
                    tool_name,
                    id,
                    before,
                    event,
                } => {
                    transaction
                        .execute(
                            "DELETE FROM rules WHERE tool_name = $1 AND id = $2",
                            &[tool_name, id],
                        )
                        .await
                        .map_err(self.failed("postgres: delete rule"))?;
                    insert_history(&transaction, event, Some(before), at)
                        .await
                        .map_err(self.failed("postgres: write history"))?;
                }
                TurnWrite::Stats(totals) => self.write_stats(&transaction, totals).await?,
            }
        }
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit turn"))?;
        Ok(plan.outcome)
    }

    /// A tool's statistics, locked for the rest of the transaction (a row of zeros is made
    /// first when there is none, so that there is a row to lock).
    pub(crate) async fn locked_stats(
        &self,
        transaction: &deadpool_postgres::Transaction<'_>,
        tool_name: &str,
    ) -> Result<ToolStats> {
        transaction
            .execute(
                "INSERT INTO tool_stats (tool_name, calls, successes, failures)
                 VALUES ($1, 0, 0, 0) ON CONFLICT (tool_name) DO NOTHING",
                &[&tool_name],
            )
            .await
            .map_err(self.failed("postgres: create statistics"))?;
        let row = transaction
            .query_one(
                "SELECT calls, successes, failures, last_failure_class, last_seen
                 FROM tool_stats WHERE tool_name = $1 FOR UPDATE",
                &[&tool_name],
            )
            .await
            .map_err(self.failed("postgres: read statistics"))?;
        stats_from_row(tool_name, &row)
    }

    /// Sets a tool's statistics (its row exists and is locked) to `totals`.
    pub(crate) async fn write_stats(
        &self,
        client: &impl GenericClient,
        totals: &ToolStats,
    ) -> Result<()> {
        client
            .execute(
                "UPDATE tool_stats SET calls = $2, successes = $3, failures = $4,
                     last_failure_class = $5, last_seen = $6
                 WHERE tool_name = $1",
                &[
                    &totals.tool_name,
                    &saturating_i64(totals.calls),
                    &saturating_i64(totals.successes),
                    &saturating_i64(totals.failures),
                    &totals.last_failure_class,
                    &totals.last_seen.map(|seen| seen.to_rfc3339()),
                ],
            )
            .await
            .map_err(self.failed("postgres: write statistics"))?;
        Ok(())
    }
}
