//! `PostgresRuleStore`: rules in PostgreSQL, shared by every server that opens the database.
//!
//! Choices, and why:
//! - A `deadpool-postgres` pool of `tokio-postgres` connections, without TLS (loopback or a
//!   private network; put a TLS-terminating proxy in front otherwise). Statements are prepared
//!   once per connection (`prepare_cached`).
//! - Every change is one transaction that locks the rule's row (`SELECT ... FOR UPDATE`), reads
//!   it, writes the new row and appends its history line, so a concurrent writer on another
//!   server waits for the row instead of overwriting a change it never saw, and `created_at`
//!   stays the first writer's. Creating a rule inserts with `ON CONFLICT DO NOTHING`; when
//!   another server created the same id first, the transaction locks and reads that row and
//!   updates it instead (read committed sees the other's commit in the next statement).
//! - Cache invalidation is a version check, not LISTEN/NOTIFY: `version()` reads the
//!   trigger-maintained `rules_version` counter, one indexed single-row read per call. A notice
//!   can be missed while a listening connection is being replaced, which would leave a cache
//!   stale with nothing to tell; the counter is read in the same database as the rules, so a
//!   cache keyed by it is never older than the version it names.
//! - Every write checks, inside its transaction and before it writes, that no newer toolmem
//!   has migrated the schema since this store opened it: it takes the migration's advisory
//!   lock shared (so a migration waits for writes in flight, and writes wait for a migration)
//!   and reads the schema version, in one simple query pipelined with the write's first
//!   statement, so the check costs no round trip of its own. `version()` reads the schema
//!   version with the rules version, so guard checks and session starts notice it too; from
//!   then on the store refuses every call.
//! - Connection loss fails the call with a `postgres: ...` error naming the step; the
//!   transaction of a write that failed before its commit is rolled back by the server, so
//!   nothing is half-written. Closed connections are then dropped from the pool and the next
//!   call connects afresh, so the store recovers by itself when the database returns. Calls are
//!   not retried: a commit whose answer was lost may or may not have happened, and only the
//!   caller knows whether repeating it is safe.

use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RulePut, ToolMemoryRule, ToolStats,
    UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
};
use tool_memory_store::backend::{
    StoredRow, active_at, keep_readable, prompt_tool_filter, select_for_prompt,
};
use tool_memory_store::{
    Error, Listing, PromptSelection, Result, RuleChange, RuleStore, ToolRules, TurnChanges,
    TurnOutcome, Unreadable, UnreadableRow,
};

use crate::codec::*;
use crate::pool::*;

/// How often a create retries after losing the race for a new id to another writer. Each retry
/// locks the row that writer created, so a second loss needs that row deleted meanwhile.
pub(crate) const CREATE_ATTEMPTS: usize = 8;

impl PostgresRuleStore {
    /// Every readable rule of one tool, revoked ones included, in listing order, and the rows
    /// of the tool this version cannot read.
    async fn rules_of(&self, tool_name: &str) -> Result<(Vec<ToolMemoryRule>, Vec<UnreadableRow>)> {
        let tool_name = normalize_tool_name(tool_name);
        let client = self.client().await?;
        let statement = client
            .prepare_cached(&format!(
                "SELECT {RULE_COLUMNS} FROM rules WHERE tool_name = $1"
            ))
            .await
            .map_err(self.failed("postgres: prepare list"))?;
        let rows = client
            .query(&statement, &[&tool_name])
            .await
            .map_err(self.failed("postgres: list rules"))?;
        let (mut rules, unreadable) = keep_readable(rows.iter().map(read_row));
        rules.sort_by(compare_for_listing);
        Ok((rules, unreadable))
    }
}

#[async_trait]
impl RuleStore for PostgresRuleStore {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        let id = put
            .id
            .clone()
            .unwrap_or_else(|| self.services.ids.next_id());
        let origin = put.origin.clone();
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin put"))?;
        for attempt in 0..CREATE_ATTEMPTS {
            let row = self
                .locked_row(&transaction, &put.tool_name, &id, attempt == 0)
                .await?;
            let existing = readable(row)?;
            // Read the clock once the row is locked, so updated_at follows commit order.
            let rule = put
                .clone()
                .build(id.clone(), existing.as_ref(), self.services.clock.now());
            let written = write_rule(&transaction, &rule, existing.is_some())
                .await
                .map_err(self.failed("postgres: write rule"))?;
            if !written {
                // Another server created this id after our read; lock and update its row.
                continue;
            }
            let event = HistoryEvent::written(&rule, existing.as_ref(), origin);
            insert_history(&transaction, &event, existing.as_ref(), rule.updated_at)
                .await
                .map_err(self.failed("postgres: write history"))?;
            transaction
                .commit()
                .await
                .map_err(self.failed("postgres: commit put"))?;
            return Ok(rule);
        }
        Err(Error::Backend {
            op: "postgres: put",
            source: format!(
                "rule {}/{id} was created and deleted by other writers {CREATE_ATTEMPTS} times during this put",
                put.tool_name
            )
            .into(),
        })
    }

    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()> {
        rule.validate()?;
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin import"))?;
        for attempt in 0..CREATE_ATTEMPTS {
            let row = self
                .locked_row(&transaction, &rule.tool_name, &rule.id, attempt == 0)
                .await?;
            let exists = row.is_some();
            // An import replaces what is there, even a row this version cannot read.
            let before = row.and_then(Result::ok);
            let written = write_rule(&transaction, &rule, exists)
                .await
                .map_err(self.failed("postgres: write rule"))?;
            if !written {
                continue;
            }
            let event = HistoryEvent::written(&rule, before.as_ref(), origin.clone());
            insert_history(
                &transaction,
                &event,
                before.as_ref(),
                self.services.clock.now(),
            )
            .await
            .map_err(self.failed("postgres: write history"))?;
            return transaction
                .commit()
                .await
                .map_err(self.failed("postgres: commit import"));
        }
        Err(Error::Backend {
            op: "postgres: import",
            source: format!(
                "rule {}/{} was created and deleted by other writers {CREATE_ATTEMPTS} times during this import",
                rule.tool_name, rule.id
            )
            .into(),
        })
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        let client = self.client().await?;
        let row = fetch_row(&client, &tool_name, id, false)
            .await
            .map_err(self.failed("postgres: read rule"))?;
        readable(row)
    }

    async fn list(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.list_with_unreadable(tool_name).await?.rules)
    }

    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.rules_of(tool_name).await?.0.into())
    }

    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        let (mut rules, unreadable) = self.rules_of(tool_name).await?;
        rules.retain(|rule| rule.meta.revoked_at.is_none());
        Ok(ToolRules {
            rules: rules.into(),
            unreadable: Unreadable::from(unreadable),
        })
    }

    /// One scan of the whole table, so a row is found whatever its tool name holds.
    async fn unreadable_rows(&self) -> Result<Vec<UnreadableRow>> {
        let client = self.client().await?;
        let rows = client
            .query(&format!("SELECT {RULE_COLUMNS} FROM rules"), &[])
            .await
            .map_err(self.failed("postgres: read every rule"))?;
        Ok(keep_readable(rows.iter().map(read_row)).1)
    }

    /// Applies `change` to a stored rule in one transaction with its history line; records
    /// nothing when `change` reports no change.
    async fn change_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
        change: RuleChange,
    ) -> Result<Option<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin change"))?;
        let row = self.locked_row(&transaction, &tool_name, id, true).await?;
        // Dropping the transaction rolls it back: nothing was written.
        let Some(before) = readable(row)? else {
            return Ok(None);
        };
        let now = self.services.clock.now();
        let mut after = before.clone();
        if !change(&mut after.meta, now) {
            return Ok(Some(before));
        }
        write_rule(&transaction, &after, true)
            .await
            .map_err(self.failed("postgres: write rule"))?;
        let event = HistoryEvent::changed(&after, action, origin.clone());
        insert_history(&transaction, &event, Some(&before), now)
            .await
            .map_err(self.failed("postgres: write history"))?;
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit change"))?;
        Ok(Some(after))
    }

    /// Removes a rule in one transaction with its history line. An unreadable row can still be
    /// removed by an explicit call; its history line then has no `before`.
    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool> {
        let tool_name = normalize_tool_name(tool_name);
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin delete"))?;
        let before = self
            .locked_row(&transaction, &tool_name, id, true)
            .await?
            .and_then(Result::ok);
        let statement = transaction
            .prepare_cached("DELETE FROM rules WHERE tool_name = $1 AND id = $2")
            .await
            .map_err(self.failed("postgres: prepare delete"))?;
        let deleted = transaction
            .execute(&statement, &[&tool_name, &id])
            .await
            .map_err(self.failed("postgres: delete rule"))?;
        if deleted > 0 {
            let event = HistoryEvent::removed(&tool_name, id, action, origin.clone());
            insert_history(
                &transaction,
                &event,
                before.as_ref(),
                self.services.clock.now(),
            )
            .await
            .map_err(self.failed("postgres: write history"))?;
        }
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit delete"))?;
        Ok(deleted > 0)
    }

    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        let tool_name = normalize_tool_name(tool_name);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT seq, at, tool_name, rule_id, action, origin, before_json, after_json, detail
                 FROM rule_history
                 WHERE tool_name = $1 AND ($2::text IS NULL OR rule_id = $2)
                   AND ($3::bigint IS NULL OR seq < $3)
                 ORDER BY seq DESC LIMIT $4",
            )
            .await
            .map_err(self.failed("postgres: prepare history"))?;
        let rows = client
            .query(&statement, &[&tool_name, &id, &before, &limit])
            .await
            .map_err(self.failed("postgres: read history"))?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                read_history_row(row)
                    .map_err(|reason| tracing::warn!(reason, "skipping an unreadable history line"))
                    .ok()
            })
            .collect())
    }

    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry> {
        tool_memory_core::validate_tool_name(&event.tool_name)?;
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin history"))?;
        let at = self.services.clock.now();
        let (_, seq) = tokio::try_join!(self.refuse_newer_schema(&transaction), async {
            insert_history(&transaction, &event, event.rule.as_ref(), at)
                .await
                .map_err(self.failed("postgres: write history"))
        })?;
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit history"))?;
        let before = event.rule.clone();
        Ok(event.into_entry(seq, at, before))
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT DISTINCT tool_name FROM rules WHERE tool_name <> $1")
            .await
            .map_err(self.failed("postgres: prepare tool names"))?;
        let rows = client
            .query(&statement, &[&UNSCOPED_TOOL])
            .await
            .map_err(self.failed("postgres: list tool names"))?;
        let mut names = rows
            .iter()
            .map(|row| row.try_get::<_, String>(0))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(self.failed("postgres: read tool names"))?;
        // Sorted here, by bytes like the other stores, not by the database's collation.
        names.sort();
        Ok(names)
    }

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let filter = prompt_tool_filter(tools);
        let wanted = |tool_name: &String| {
            filter
                .as_ref()
                .is_none_or(|names| names.contains(tool_name))
        };
        let (rules, unreadable_rows) = self.eager_rules().await?;
        let rules = rules
            .iter()
            .filter(|rule| wanted(&rule.tool_name))
            .cloned()
            .collect();
        let unreadable = unreadable_rows
            .iter()
            .filter(|row| wanted(&row.tool_name))
            .cloned()
            .collect();
        Ok(select_for_prompt(
            active_at(rules, self.services.clock.now()),
            max_rules,
            unreadable,
        ))
    }

    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats> {
        let name = tool_memory_core::validate_tool_name(&delta.tool_name)?;
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin statistics"))?;
        // The row made if need be and locked, so concurrent turns on several servers add up.
        // The schema check runs first; should it refuse, the insert behind it in the same
        // round trip is rolled back with the transaction.
        let (_, mut totals) = tokio::try_join!(
            self.refuse_newer_schema(&transaction),
            self.locked_stats(&transaction, &name)
        )?;
        totals.add(delta);
        self.write_stats(&transaction, &totals).await?;
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit statistics"))?;
        Ok(totals)
    }

    /// One transaction: the turn's key claimed, its rows locked and read, then written (see
    /// `turn.rs`).
    async fn apply_turn(&self, changes: TurnChanges) -> Result<TurnOutcome> {
        self.apply_turn_in_one_transaction(changes).await
    }

    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        let name = normalize_tool_name(tool_name);
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT calls, successes, failures, last_failure_class, last_seen
                 FROM tool_stats WHERE tool_name = $1",
                &[&name],
            )
            .await
            .map_err(self.failed("postgres: read statistics"))?;
        row.map(|row| stats_from_row(&name, &row)).transpose()
    }

    async fn version(&self) -> Result<Option<u64>> {
        let client = self.client().await?;
        let version = self.rules_version(&client).await?;
        Ok(Some(version.cast_unsigned()))
    }

    async fn tool_counts(&self) -> Result<Vec<tool_memory_store::ToolCounts>> {
        self.grouped_tool_counts().await
    }
}

impl PostgresRuleStore {
    /// The shared rules version: changes with every committed change of a rule, by any server.
    /// Read with the schema version, in the same statement, so that a guard check or a session
    /// start refuses a schema a newer toolmem migrated to.
    async fn rules_version(&self, client: &deadpool_postgres::Client) -> Result<i64> {
        let statement = client
            .prepare_cached(
                "SELECT (SELECT version FROM rules_version WHERE id = 1),
                        (SELECT coalesce(max(version), 0) FROM schema_version)",
            )
            .await
            .map_err(self.failed("postgres: prepare rules version"))?;
        let (version, schema) = client
            .query_one(&statement, &[])
            .await
            .and_then(|row| Ok((row.try_get::<_, i64>(0)?, row.try_get::<_, i64>(1)?)))
            .map_err(self.failed("postgres: read rules version"))?;
        self.check_schema(schema)?;
        Ok(version)
    }

    /// Locks and reads one rule row inside a write's transaction; with `check`, the write's
    /// schema check runs first, in the same round trip.
    async fn locked_row(
        &self,
        transaction: &deadpool_postgres::Transaction<'_>,
        tool_name: &str,
        id: &str,
        check: bool,
    ) -> Result<Option<StoredRow>> {
        let read = async {
            fetch_row(transaction, tool_name, id, true)
                .await
                .map_err(self.failed("postgres: read rule"))
        };
        if check {
            Ok(tokio::try_join!(self.refuse_newer_schema(transaction), read)?.1)
        } else {
            read.await
        }
    }

    /// Every eager (high or critical), unrevoked rule and the tools of unreadable eager rows,
    /// from the cache while the rules version is unchanged. The version is read before the
    /// rows, so what is cached is at least as new as its tag (one extra refresh at worst),
    /// never older.
    async fn eager_rules(&self) -> Result<(Arc<Vec<ToolMemoryRule>>, Unreadable)> {
        let client = self.client().await?;
        let version = self.rules_version(&client).await?;
        if let Some(cache) = self
            .eager
            .lock()
            .as_ref()
            .filter(|cache| cache.version == version)
        {
            return Ok((Arc::clone(&cache.rules), Arc::clone(&cache.unreadable)));
        }
        // `priority <> 'normal'` (not `IN ('high','critical')`) so that a priority written by a
        // newer version is read, found unreadable, and counted rather than ignored.
        let statement = client
            .prepare_cached(&format!(
                "SELECT {RULE_COLUMNS} FROM rules WHERE priority <> 'normal' AND revoked_at IS NULL"
            ))
            .await
            .map_err(self.failed("postgres: prepare prompt rules"))?;
        let rows = client
            .query(&statement, &[])
            .await
            .map_err(self.failed("postgres: read prompt rules"))?;
        let (rules, unreadable) = keep_readable(rows.iter().map(read_row));
        let rules = Arc::new(rules);
        let unreadable = Unreadable::from(unreadable);
        *self.eager.lock() = Some(EagerCache {
            version,
            rules: Arc::clone(&rules),
            unreadable: Arc::clone(&unreadable),
        });
        Ok((rules, unreadable))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_are_plain_identifiers() {
        assert!(check_schema_name("toolmem_test_1").is_ok());
        for bad in ["", "1abc", "Public", "a;drop", "a\"b", &"a".repeat(64)] {
            let err = check_schema_name(bad).unwrap_err();
            assert!(err.to_string().contains("schema name"), "{err}");
        }
    }
}
