//! The `SqliteRuleStore` type, its options, the runner that puts each call on a connection
//! without blocking the async runtime, and its `RuleStore` impl.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RulePut, ToolMemoryRule, ToolStats,
    UNSCOPED_TOOL, normalize_tool_name,
};
use tool_memory_store::backend::{
    keep_readable, prompt_tool_filter, rank_by_keywords, select_for_prompt,
};
use tool_memory_store::{
    Error, Listing, PromptSelection, Result, RuleChange, RuleStore, Services, ToolRules,
    TurnChanges, TurnOutcome, UnreadableRow,
};

use crate::codec::{
    ALL_RULES, Before, OnExisting, delete_rule, fts_query, insert_history, query_rows,
    read_current, read_history_row, read_rule, read_stats, write_rule, write_stats,
};
use crate::connections::{
    Access, Cached, Connections, ToolListing, WriteTransaction, after_inline, run_blocking,
};
use crate::error::sqlite;
use crate::index::{catch_up_full_text_index, catch_up_history_index};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Durability {
    /// `synchronous = NORMAL`: survives a process kill; power loss may roll back the newest
    /// commits.
    #[default]
    Normal,
    /// `synchronous = FULL`: survives power loss; one fsync per commit.
    Full,
}

/// How many connections and threads a file-backed store keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Footprint {
    /// For a process that serves many calls, several at once (a server, an MCP session): one
    /// writer and four reader connections, so that reads never wait for a write, and a thread
    /// that checkpoints the write-ahead log off the write path. Calls run off the async
    /// runtime's workers.
    #[default]
    Server,
    /// For a process that makes a call or two and exits (an agent's hook, one CLI command):
    /// one connection for reads and writes, no thread, and no migration transaction when the
    /// schema is current (a newer one is refused as always). Every call runs on the calling
    /// thread. Writes are the same transactions as a server's; the log is checkpointed by
    /// SQLite's own automatic checkpoint on that connection, and by the last connection to
    /// close the file.
    OneShot,
}

/// How to open a [`SqliteRuleStore`].
#[derive(Debug, Clone)]
pub struct SqliteOptions {
    /// Commit durability.
    pub durability: Durability,
    /// Connections and threads: for a server (the default) or for one short-lived call.
    pub footprint: Footprint,
    /// How long a writer waits for another process's transaction before failing.
    pub busy_timeout: Duration,
    /// Clock and id source.
    pub services: Services,
}

impl Default for SqliteOptions {
    fn default() -> SqliteOptions {
        SqliteOptions {
            durability: Durability::default(),
            footprint: Footprint::default(),
            busy_timeout: Duration::from_secs(10),
            services: Services::default(),
        }
    }
}

/// Rules in an SQLite database file (or in memory).
#[derive(Debug, Clone)]
pub struct SqliteRuleStore {
    pub(crate) connections: Arc<Connections>,
    pub(crate) services: Services,
    pub(crate) path: Option<PathBuf>,
    /// Opened read-only: the lazy indexes cannot be brought up to date, so search and history
    /// read around them.
    pub(crate) read_only: bool,
}

impl SqliteRuleStore {
    /// Runs `work` on a connection for `access` without blocking the async runtime (see the
    /// module documentation).
    async fn with_connection<T, F>(&self, access: Access, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, &Services) -> Result<T> + Send + 'static,
    {
        self.connections.refuse_if_newer()?;
        let work = match self.inline_point_read(access, work) {
            Ok(answer) => {
                after_inline().await;
                return answer;
            }
            Err(work) => work,
        };
        let connections = Arc::clone(&self.connections);
        let services = self.services.clone();
        run_blocking(self.connections.kind, move || {
            let result = match access {
                Access::Read => work(&mut connections.reader(), &services),
                Access::PointRead => work(&mut connections.point_reader(), &services),
                Access::Write => work(&mut connections.writer(), &services),
            };
            connections.note_schema(&result);
            result
        })
        .await
    }

    /// Runs a point read on a connection that is free right now, here on the calling task: it
    /// takes microseconds and cannot wait (see `inline_reads`), while `block_in_place` hands
    /// the worker's other tasks to a thread it wakes for them, which cost an RPC `get` about
    /// 40% of its time. Gives `work` back for anything else, which may wait (a busy
    /// connection, a listing, a write).
    fn inline_point_read<T, F>(&self, access: Access, work: F) -> std::result::Result<Result<T>, F>
    where
        F: FnOnce(&mut Connection, &Services) -> Result<T>,
    {
        let free = match access {
            Access::PointRead => self.connections.free_point_reader(),
            Access::Read | Access::Write => None,
        };
        match free {
            Some(mut connection) => {
                let result = work(&mut connection, &self.services);
                self.connections.note_schema(&result);
                Ok(result)
            }
            None => Err(work),
        }
    }

    /// A tool's listing, from the cache when it is current.
    async fn tool_listing(&self, tool_name: &str) -> Result<ToolListing> {
        let tool_name = normalize_tool_name(tool_name);
        let cached = self.connections.cached_list(&tool_name)?;
        self.hit_or_read(cached, move |connections, version| {
            connections.list(&tool_name, version)
        })
        .await
    }

    /// A cache's answer given on the calling task (see `inline_point_read`), or, on a miss,
    /// `read` through `block_in_place` at the version the cache was looked up at.
    async fn hit_or_read<T, F>(&self, cached: Cached<T>, read: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connections, Option<i64>) -> Result<T> + Send + 'static,
    {
        match cached {
            Cached::Hit(hit) => {
                after_inline().await;
                Ok(hit)
            }
            Cached::Miss(version) => {
                let connections = Arc::clone(&self.connections);
                run_blocking(self.connections.kind, move || read(&connections, version)).await
            }
        }
    }

    /// Runs `work`, which may change rules, on the writer, and counts it as a change of the
    /// rules before letting go of the writer (see [`Connections::version`]). A call that
    /// changed nothing costs its caches one needless miss, never a stale hit.
    async fn with_rule_writer<T, F>(&self, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, &Services) -> Result<T> + Send + 'static,
    {
        self.connections.refuse_if_newer()?;
        let connections = Arc::clone(&self.connections);
        let services = self.services.clone();
        run_blocking(self.connections.kind, move || {
            let mut writer = connections.writer();
            let result = work(&mut writer, &services);
            connections.own_changes.fetch_add(1, Ordering::Release);
            connections.note_schema(&result);
            result
        })
        .await
    }
}

#[async_trait]
impl RuleStore for SqliteRuleStore {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin put")?;
            // A new id names no stored rule, so there is nothing to read (a seek per put).
            let (id, current, on_existing) = match &put.id {
                Some(id) => {
                    let current = read_current(&transaction, &put.tool_name, id)?;
                    (id.clone(), current, OnExisting::Replace)
                }
                None => (services.ids.next_id(), None, OnExisting::Fail),
            };
            let existing = current.as_ref().map(|current| &current.rule);
            let origin = put.origin.clone();
            // Read the clock inside the write lock so updated_at follows commit order.
            let rule = put.build(id, existing, services.clock.now());
            let event = HistoryEvent::written(&rule, existing, origin);
            let line = insert_history(
                &transaction,
                &event,
                current.as_ref().into(),
                rule.updated_at,
            )?;
            write_rule(&transaction, &rule, line, on_existing)?;
            transaction.commit("commit put")?;
            Ok(rule)
        })
        .await
    }

    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()> {
        rule.validate()?;
        let origin = origin.clone();
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin import")?;
            // An import replaces what is there, even a row this version cannot read.
            let current = match read_current(&transaction, &rule.tool_name, &rule.id) {
                Err(Error::Unreadable { .. }) => None,
                other => other?,
            };
            let existing = current.as_ref().map(|current| &current.rule);
            let event = HistoryEvent::written(&rule, existing, origin);
            let now = services.clock.now();
            let line = insert_history(&transaction, &event, current.as_ref().into(), now)?;
            write_rule(&transaction, &rule, line, OnExisting::Replace)?;
            transaction.commit("commit import")
        })
        .await
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        let id = id.to_owned();
        self.with_connection(Access::PointRead, move |connection, _| {
            read_rule(connection, &tool_name, &id)
        })
        .await
    }

    async fn list(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.tool_listing(tool_name).await?.unrevoked)
    }

    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.tool_listing(tool_name).await?.all)
    }

    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        let listing = self.tool_listing(tool_name).await?;
        Ok(ToolRules {
            rules: listing.unrevoked,
            unreadable: listing.unreadable,
        })
    }

    /// One scan of the whole table, so a row is found whatever its tool name holds.
    async fn unreadable_rows(&self) -> Result<Vec<UnreadableRow>> {
        self.with_connection(Access::Read, |connection, _| {
            let rows = query_rows(connection, ALL_RULES, [])?;
            Ok(keep_readable(rows).1)
        })
        .await
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
        let id = id.to_owned();
        let origin = origin.clone();
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin change")?;
            let Some(current) = read_current(&transaction, &tool_name, &id)? else {
                return Ok(None);
            };
            let now = services.clock.now();
            let mut after = current.rule.clone();
            if !change(&mut after.meta, now) {
                return Ok(Some(current.rule));
            }
            let event = HistoryEvent::changed(&after, action, origin);
            let line = insert_history(&transaction, &event, Some(&current).into(), now)?;
            write_rule(&transaction, &after, line, OnExisting::Replace)?;
            transaction.commit("commit change")?;
            Ok(Some(after))
        })
        .await
    }

    /// Removes a rule in one transaction with its history line, which names the line that
    /// wrote the rule rather than copying it (see migration 8), so the rule is not read. An
    /// unreadable row can still be removed by an explicit call; a row from before schema 8 is
    /// read for a copy, and when it is unreadable its history line has no `before`.
    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool> {
        let tool_name = normalize_tool_name(tool_name);
        let id = id.to_owned();
        let origin = origin.clone();
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin delete")?;
            let line: Option<Option<i64>> = transaction
                .prepare_cached("SELECT history_seq FROM rules WHERE tool_name = ?1 AND id = ?2")
                .and_then(|mut statement| {
                    statement
                        .query_row(params![tool_name, id], |row| row.get(0))
                        .optional()
                })
                .map_err(sqlite("read rule"))?;
            let image;
            let before = match line {
                None => return Ok(false),
                Some(Some(seq)) => Before::Line(seq),
                Some(None) => {
                    image = match read_rule(&transaction, &tool_name, &id) {
                        Err(Error::Unreadable { .. }) => None,
                        other => other?,
                    };
                    Before::from(image.as_ref())
                }
            };
            let event = HistoryEvent::removed(&tool_name, &id, action, origin);
            let deleted = delete_rule(&transaction, &event, before, services.clock.now())?;
            transaction.commit("commit delete")?;
            Ok(deleted)
        })
        .await
    }

    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        let tool_name = normalize_tool_name(tool_name);
        let id = id.map(str::to_owned);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let read_only = self.read_only;
        // On the writer: the query first adds new lines to the per-tool index. A read-only
        // store cannot, so it reads the log itself (every line, without the index).
        self.with_connection(Access::Write, move |connection, _| {
            let sql = if read_only {
                "SELECT h.seq, h.at, h.tool_name, h.rule_id, h.action, h.origin,
                        coalesce(h.before_copy, b.after_json), h.after_json, h.detail
                 FROM rule_history AS h LEFT JOIN rule_history AS b ON b.seq = h.before_seq
                   AND b.tool_name = h.tool_name AND b.rule_id = h.rule_id
                 WHERE h.tool_name = ?1 AND (?3 IS NULL OR h.seq < ?3)
                   AND (?2 IS NULL OR h.rule_id = ?2)
                 ORDER BY h.seq DESC LIMIT ?4"
            } else {
                catch_up_history_index(connection)?;
                "SELECT h.seq, h.at, h.tool_name, h.rule_id, h.action, h.origin,
                        coalesce(h.before_copy, b.after_json), h.after_json, h.detail
                 FROM history_by_tool AS i JOIN rule_history AS h ON h.seq = i.seq
                 LEFT JOIN rule_history AS b ON b.seq = h.before_seq
                   AND b.tool_name = h.tool_name AND b.rule_id = h.rule_id
                 WHERE i.tool_name = ?1 AND (?3 IS NULL OR i.seq < ?3)
                   AND (?2 IS NULL OR h.rule_id = ?2)
                 ORDER BY i.seq DESC LIMIT ?4"
            };
            let mut statement = connection
                .prepare_cached(sql)
                .map_err(sqlite("prepare history"))?;
            let rows = statement
                .query_map(params![tool_name, id, before, limit], read_history_row)
                .map_err(sqlite("query history"))?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sqlite("read history"))?;
            Ok(rows
                .into_iter()
                .filter_map(|row| {
                    row.map_err(|reason| {
                        tracing::warn!(reason, "skipping an unreadable history line")
                    })
                    .ok()
                })
                .collect())
        })
        .await
    }

    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry> {
        tool_memory_core::validate_tool_name(&event.tool_name)?;
        self.with_connection(Access::Write, move |connection, services| {
            // A transaction of its own, for the schema check every write makes.
            let transaction = WriteTransaction::begin(connection, "begin history")?;
            let at = services.clock.now();
            let seq = insert_history(&transaction, &event, event.rule.as_ref().into(), at)?;
            transaction.commit("commit history")?;
            let before = event.rule.clone();
            Ok(event.into_entry(seq, at, before))
        })
        .await
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        self.with_connection(Access::Read, |connection, _| {
            let mut statement = connection
                .prepare_cached(
                    "SELECT DISTINCT tool_name FROM rules WHERE tool_name <> ?1 ORDER BY tool_name",
                )
                .map_err(sqlite("prepare tool names"))?;
            let names = statement
                .query_map(params![UNSCOPED_TOOL], |row| row.get::<_, String>(0))
                .map_err(sqlite("list tool names"))?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sqlite("read tool names"))?;
            Ok(names)
        })
        .await
    }

    async fn search(
        &self,
        tool_name: &str,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        if self.read_only {
            // The index cannot be brought up to date without writing; rank like the stores
            // without one.
            return Ok(rank_by_keywords(
                &self.list(&tool_name).await?,
                query,
                limit,
            ));
        }
        let Some(query) = fts_query(query) else {
            return Ok(Vec::new());
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // On the writer: the search first folds pending changes into the index.
        self.with_connection(Access::Write, move |connection, _| {
            catch_up_full_text_index(connection)?;
            let rows = query_rows(
                connection,
                "SELECT r.id, r.tool_name, r.rule, r.priority, r.source, r.tags, r.created_at, r.updated_at,
                        r.revoked_at, r.expires_at, r.retire_after_successes, r.proposed, r.constraint_json,
                        r.constraint_explicit
                 FROM rules_fts
                 JOIN search_docs AS d ON d.doc_id = rules_fts.rowid
                 JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id
                 WHERE rules_fts MATCH ?1 AND d.tool_name = ?2 AND r.revoked_at IS NULL
                 ORDER BY bm25(rules_fts), r.updated_us DESC, r.id
                 LIMIT ?3",
                params![query, tool_name, limit],
            )?;
            Ok(keep_readable(rows).0)
        })
        .await
    }

    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats> {
        let name = tool_memory_core::validate_tool_name(&delta.tool_name)?;
        let delta = delta.clone();
        self.with_connection(Access::Write, move |connection, _| {
            let transaction = WriteTransaction::begin(connection, "begin statistics")?;
            let mut totals =
                read_stats(&transaction, &name)?.unwrap_or_else(|| ToolStats::empty(&name));
            totals.add(&delta);
            write_stats(&transaction, &totals)?;
            transaction.commit("commit statistics")?;
            Ok(totals)
        })
        .await
    }

    /// On the writer, in one `BEGIN IMMEDIATE` transaction (see `turn.rs`).
    async fn apply_turn(&self, changes: TurnChanges) -> Result<TurnOutcome> {
        self.with_rule_writer(move |connection, services| {
            crate::turn::apply_turn(connection, services, &changes)
        })
        .await
    }

    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        let name = normalize_tool_name(tool_name);
        self.with_connection(Access::Read, move |connection, _| {
            read_stats(connection, &name)
        })
        .await
    }

    async fn version(&self) -> Result<Option<u64>> {
        // Read here when the writer is free: a guard check starts with it.
        let cached = match self.connections.version_now() {
            Some(version) => Cached::Hit(version?),
            None => Cached::Miss(None),
        };
        let version = self
            .hit_or_read(cached, |connections, _| connections.version())
            .await?;
        Ok(Some(version.cast_unsigned()))
    }

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let filter = prompt_tool_filter(tools);
        let cached = self.connections.cached_eager_rules()?;
        let (rules, unreadable_tools) = self
            .hit_or_read(cached, |connections, version| {
                connections.eager_rules(version)
            })
            .await?;
        let wanted = |tool_name: &String| {
            filter
                .as_ref()
                .is_none_or(|names| names.contains(tool_name))
        };
        let now = self.services.clock.now();
        let rules = rules
            .iter()
            .filter(|rule| wanted(&rule.tool_name) && rule.is_active(now))
            .cloned()
            .collect();
        let unreadable = unreadable_tools
            .iter()
            .filter(|row| wanted(&row.tool_name))
            .cloned()
            .collect();
        Ok(select_for_prompt(rules, max_rules, unreadable))
    }

    async fn tool_counts(&self) -> Result<Vec<tool_memory_store::ToolCounts>> {
        self.with_connection(Access::Read, |connection, _| {
            crate::counts::tool_counts(connection)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use parking_lot::Mutex;

    use super::*;
    use crate::codec::{EAGER_COLUMNS, HISTORY_SEQ_COLUMN, READ_RULE_AND_LINE};

    /// The listing cache's bound counts every rule copy it holds: a tool with a revoked rule
    /// keeps two listings, and both count.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_listing_cache_counts_every_copy() -> Result<()> {
        let store = SqliteRuleStore::open_in_memory(SqliteOptions::default())?;
        let counted = || store.connections.lists.lock().rules;
        store.put(RulePut::new("shell", "quote paths")).await?;
        let lifted = store.put(RulePut::new("shell", "never run sudo")).await?;
        store.list("shell").await?;
        assert_eq!(counted(), 2, "one listing serves both forms");
        store.revoke("shell", &lifted.id, &Origin::Api).await?;
        store.list("shell").await?;
        assert_eq!(counted(), 3, "two rules, and a copy of the unrevoked one");
        Ok(())
    }

    /// Whoever takes the writer first ends a transaction a failed write left open on it (its
    /// rollback failed), so no read, point read, search or history query, on a file or in
    /// memory, sees what was never committed, and the next write does not fail on it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_never_see_a_transaction_left_open_on_the_writer() -> Result<()> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let on_file =
            SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
        let in_memory = SqliteRuleStore::open_in_memory(SqliteOptions::default())?;
        for store in [on_file, in_memory] {
            let rule = store
                .put(RulePut::new("send_email", "never email sarah").with_id("sarah"))
                .await?;
            let leave_open = || {
                let writer = store.connections.writer.lock();
                if writer.is_autocommit() {
                    writer
                        .execute_batch("BEGIN IMMEDIATE")
                        .expect("a transaction");
                }
                writer
                    .execute_batch("UPDATE rules SET rule = 'never committed'")
                    .expect("an uncommitted change on the writer");
            };
            leave_open();
            let read = store.get("send_email", "sarah").await?.expect("the rule");
            assert_eq!(read.rule, rule.rule);
            leave_open();
            let listed = store.list("send_email").await?;
            assert_eq!(listed[0].rule, rule.rule);
            leave_open();
            let found = store.search("send_email", "sarah", 10).await?;
            assert_eq!(found[0].rule, rule.rule);
            leave_open();
            let history = store.history("send_email", None, 10, None).await?;
            assert_eq!(history[0].after.as_ref().expect("created").rule, rule.rule);
            // And the next write starts afresh instead of failing on the open transaction.
            leave_open();
            let again = store
                .put(RulePut::new("send_email", "never email bob").with_id("bob"))
                .await?;
            assert_eq!(store.get("send_email", "bob").await?, Some(again));
            assert_eq!(
                store
                    .get("send_email", "sarah")
                    .await?
                    .expect("the rule")
                    .rule,
                rule.rule
            );
        }
        Ok(())
    }

    #[test]
    fn prompt_query_uses_the_eager_index() {
        let store = SqliteRuleStore::open_in_memory(SqliteOptions::default()).unwrap();
        let connection = store.connections.writer.lock();
        let plan = |sql: &str| -> String {
            let mut statement = connection
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .unwrap();
            let rows = statement
                .query_map([], |row| row.get::<_, String>(3))
                .unwrap()
                .collect::<rusqlite::Result<Vec<_>>>()
                .unwrap();
            rows.join("\n")
        };
        let all = plan(&format!(
            "SELECT {EAGER_COLUMNS} FROM rules WHERE priority <> 'normal' AND revoked_at IS NULL"
        ));
        assert!(all.contains("COVERING INDEX rules_eager"), "{all}");
        // Rules are clustered by (tool_name, id): one tool's rules are one range of the table.
        let one_tool = plan("SELECT id FROM rules WHERE tool_name = 'a'");
        assert!(
            one_tool.contains("USING PRIMARY KEY (tool_name=?)"),
            "{one_tool}"
        );
        let search = plan(
            "SELECT r.rule FROM rules_fts JOIN search_docs AS d ON d.doc_id = rules_fts.rowid
             JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id
             WHERE rules_fts MATCH 'x' AND d.tool_name = 'a'",
        );
        assert!(search.contains("USING PRIMARY KEY"), "{search}");
    }

    /// Holds the writer (and, with `all`, every reader) on another thread until the returned
    /// sender is used or dropped.
    fn hold_connections(store: &SqliteRuleStore, all: bool) -> std::sync::mpsc::Sender<()> {
        let connections = Arc::clone(&store.connections);
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (holding, held) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _writer = connections.writer.lock();
            let _readers: Vec<_> = if all {
                connections.readers.iter().map(Mutex::lock).collect()
            } else {
                Vec::new()
            };
            holding.send(()).expect("the test waits");
            let _ = released.recv();
        });
        held.recv().expect("the holder holds");
        release
    }

    /// What runs on the calling task (a point read on a free connection, the version and the
    /// caches while the writer is free) falls back to waiting through `block_in_place` when
    /// the connections are held: the answers stay right, the version counts a change instead
    /// of waiting, and a waiting read leaves the runtime's only worker to its other tasks.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn reads_wait_off_the_worker_when_the_connections_are_held() -> Result<()> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let store =
            SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
        assert!(store.connections.inline_reads);
        let rule = store
            .put(
                RulePut::new("shell", "never run sudo")
                    .with_priority(tool_memory_core::ToolMemoryPriority::Critical),
            )
            .await?;
        // Fill the caches, then hold the writer: listings and session start are answered
        // through the fallback, and right.
        assert_eq!(&*store.list("shell").await?, std::slice::from_ref(&rule));
        assert_eq!(
            store.rules_for_prompt(&[], None).await?.rules,
            std::slice::from_ref(&rule)
        );
        let release = hold_connections(&store, false);
        let before = store.version().await?;
        assert_ne!(store.version().await?, before);
        assert_eq!(&*store.list("shell").await?, std::slice::from_ref(&rule));
        assert_eq!(
            store.rules_for_prompt(&[], None).await?.rules,
            std::slice::from_ref(&rule)
        );
        assert_eq!(store.get("shell", &rule.id).await?, Some(rule.clone()));
        drop(release);

        let release = hold_connections(&store, true);
        let get = tokio::spawn({
            let store = store.clone();
            let id = rule.id.clone();
            async move { store.get("shell", &id).await }
        });
        // A blocking sleep: the runtime's timers need the worker this test watches.
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !get.is_finished(),
            "a get found a connection while all were held"
        );
        let (probe, probed) = std::sync::mpsc::channel();
        tokio::spawn(async move { probe.send(()).expect("the test waits") });
        assert!(
            probed
                .recv_timeout(std::time::Duration::from_secs(5))
                .is_ok(),
            "a waiting get kept the runtime's only worker from its other tasks"
        );
        drop(release);
        assert_eq!(get.await.expect("the get ends")?, Some(rule));
        Ok(())
    }

    #[test]
    fn the_history_line_column_follows_the_rule_columns() {
        let store = SqliteRuleStore::open_in_memory(SqliteOptions::default()).unwrap();
        let connection = store.connections.writer.lock();
        let statement = connection.prepare(READ_RULE_AND_LINE).unwrap();
        assert_eq!(statement.column_count(), HISTORY_SEQ_COLUMN + 1);
        assert_eq!(
            statement.column_name(HISTORY_SEQ_COLUMN).unwrap(),
            "history_seq"
        );
    }
}
