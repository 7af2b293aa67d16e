//! `KvRuleStore`: rules laid out over a host's generic namespaced key/value memory, the way
//! openhuman stores them (namespace `tool-{name}`, key `rule/{id}`, compact JSON content,
//! category `tool_memory`), so a host agent can keep rules inside its own memory backend.

use std::collections::BTreeMap;

use async_trait::async_trait;
use parking_lot::Mutex;
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RULE_KEY_PREFIX, RulePut,
    TOOL_NAMESPACE_PREFIX, Timestamp, ToolMemoryRule, ToolStats, UNSCOPED_TOOL,
    compare_for_listing, normalize_tool_name, stats_namespace, storage_key, tool_memory_namespace,
};

use crate::plan::{TurnSnapshot, TurnWrite, plan_turn};
use crate::store::{active_at, not_readable, prompt_tool_filter, select_for_prompt, unknown_value};
use crate::turn::{TurnChanges, TurnKey, TurnOutcome};
use crate::{
    Error, Listing, PromptSelection, Result, RuleChange, RuleStore, Services, ToolRules,
    Unreadable, UnreadableRow,
};

/// The category rules are written with, as in the reference.
pub const TOOL_MEMORY_CATEGORY: &str = "tool_memory";
/// The category statistics are written with.
const TOOL_STATS_CATEGORY: &str = "tool_effectiveness";
/// The key of a tool's statistics inside its statistics namespace.
const STATS_KEY: &str = "stats";
/// Prefix of the namespace that holds a tool's history lines.
const HISTORY_NAMESPACE_PREFIX: &str = "tool_history/tool/";
/// The category history lines are written with.
const HISTORY_CATEGORY: &str = "tool_memory_history";
/// The namespace that records the turns applied (not `tool-…`, so it is no tool's).
const TURNS_NAMESPACE: &str = "tool_memory_turns";
/// The category turn records are written with.
const TURNS_CATEGORY: &str = "tool_memory_turn";

/// The key of a turn's record: the index and the digest first, each without a `/` of its own
/// (a digest is hex), so that no session id can make two turns' keys the same.
fn turn_key(key: &TurnKey) -> String {
    format!(
        "turn/{}/{}/{}",
        key.turn,
        key.digest.replace('/', "%2F"),
        key.session_id
    )
}

fn history_namespace(tool_name: &str) -> String {
    format!(
        "{HISTORY_NAMESPACE_PREFIX}{}",
        normalize_tool_name(tool_name)
    )
}

/// One stored entry. `content` must be exactly what was stored (reference W-22).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KvEntry {
    /// The key inside the namespace.
    pub key: String,
    /// The stored content, byte for byte.
    pub content: String,
}

/// How many entries a namespace holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamespaceSummary {
    /// The namespace.
    pub namespace: String,
    /// Entries in it.
    pub count: usize,
}

/// The subset of a host memory backend that rules need (reference §1.6).
#[async_trait]
pub trait KvBackend: Send + Sync + std::fmt::Debug {
    /// Writes `content` under `namespace`/`key`, replacing what was there.
    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: &str,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>>;
    /// Reads one entry.
    async fn get(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<Option<KvEntry>, Box<dyn std::error::Error + Send + Sync>>;
    /// Every entry of a namespace.
    async fn list(
        &self,
        namespace: &str,
    ) -> Result<Vec<KvEntry>, Box<dyn std::error::Error + Send + Sync>>;
    /// Removes an entry; `true` when it existed.
    async fn forget(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<bool, Box<dyn std::error::Error + Send + Sync>>;
    /// Every namespace with its entry count.
    async fn namespace_summaries(
        &self,
    ) -> Result<Vec<NamespaceSummary>, Box<dyn std::error::Error + Send + Sync>>;
}

fn backend(op: &'static str) -> impl FnOnce(Box<dyn std::error::Error + Send + Sync>) -> Error {
    move |source| Error::Backend { op, source }
}

/// Rules over any [`KvBackend`].
///
/// A key/value backend has no compare-and-swap, so the read-then-write of `put` is serialised
/// by a lock held by this store (one per store, not one per process as in the reference).
/// That protects writers sharing this store; writers in other processes need a backend with
/// transactions, such as `tool_memory_store_sqlite::SqliteRuleStore`. For the same reason a history line is
/// written right after its change, not atomically with it: a crash between the two can lose
/// the line (never the change). The SQLite store writes both in one transaction.
#[derive(Debug)]
pub struct KvRuleStore<B> {
    backend: B,
    services: Services,
    write_lock: tokio::sync::Mutex<()>,
    /// The next history `seq`; starts at the clock's microseconds so that lines written after a
    /// restart sort after the ones before it.
    next_seq: std::sync::atomic::AtomicI64,
    /// Part of every history key this instance writes, so that two instances over one backend
    /// (or a clock that stepped back) never overwrite each other's lines.
    instance: String,
}

impl<B: KvBackend> KvRuleStore<B> {
    /// Rules over `backend`, on the system clock and UUID ids.
    pub fn new(backend: B) -> KvRuleStore<B> {
        KvRuleStore::with_services(backend, Services::default())
    }

    /// Rules over `backend` with the given clock and id source.
    pub fn with_services(backend: B, services: Services) -> KvRuleStore<B> {
        // Seeded from the system clock, not the store's clock, so that a test clock is not
        // moved by merely opening a store.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| {
                i64::try_from(elapsed.as_micros()).unwrap_or(i64::MAX)
            });
        let next_seq = std::sync::atomic::AtomicI64::new(seed);
        KvRuleStore {
            backend,
            services,
            write_lock: tokio::sync::Mutex::new(()),
            next_seq,
            instance: uuid::Uuid::new_v4().simple().to_string(),
        }
    }

    /// The backend underneath.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    async fn write(&self, rule: &ToolMemoryRule) -> Result<()> {
        self.backend
            .store(
                &tool_memory_namespace(&rule.tool_name),
                &storage_key(&rule.id),
                &rule.to_compact_json(),
                TOOL_MEMORY_CATEGORY,
            )
            .await
            .map_err(backend("store tool rule"))
    }

    async fn write_stats(&self, totals: &ToolStats) -> Result<()> {
        let content = serde_json::to_string(totals).expect("statistics always serialise");
        self.backend
            .store(
                &stats_namespace(&totals.tool_name),
                STATS_KEY,
                &content,
                TOOL_STATS_CATEGORY,
            )
            .await
            .map_err(backend("store tool statistics"))
    }

    /// Stores the line for `event`, stamped `at`: the time of the change it records.
    async fn record(
        &self,
        at: Timestamp,
        event: HistoryEvent,
        before: Option<ToolMemoryRule>,
    ) -> Result<HistoryEntry> {
        let seq = self
            .next_seq
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let entry = event.into_entry(seq, at, before);
        let content = serde_json::to_string(&entry).expect("history always serialises");
        self.backend
            .store(
                &history_namespace(&entry.tool_name),
                &format!("h/{:020}/{}", entry.seq, self.instance),
                &content,
                HISTORY_CATEGORY,
            )
            .await
            .map_err(backend("store history"))?;
        Ok(entry)
    }

    /// One tool's readable rules, revoked ones included, in listing order, and the entries of
    /// the tool this version cannot read.
    async fn listed(&self, tool_name: &str) -> Result<(Vec<ToolMemoryRule>, Vec<UnreadableRow>)> {
        let (mut rules, unreadable) = self.read_tool(tool_name).await?;
        rules.sort_by(compare_for_listing);
        Ok((rules, unreadable))
    }

    /// Reads and parses one tool's rules, keeping the entries that do not parse apart.
    async fn read_tool(
        &self,
        tool_name: &str,
    ) -> Result<(Vec<ToolMemoryRule>, Vec<UnreadableRow>)> {
        let entries = self
            .backend
            .list(&tool_memory_namespace(tool_name))
            .await
            .map_err(backend("list tool rules"))?;
        let rows = entries.iter().filter_map(|entry| {
            let id = entry.key.strip_prefix(RULE_KEY_PREFIX)?;
            Some(
                serde_json::from_str::<ToolMemoryRule>(&entry.content).map_err(|_| UnreadableRow {
                    tool_name: normalize_tool_name(tool_name),
                    id: id.to_owned(),
                    reason: unreadable_reason(&entry.content),
                }),
            )
        });
        Ok(crate::store::keep_readable(rows))
    }
}

/// Why `content` is not a rule this version can read: the first field at fault and what is
/// wrong with it, never a value (serde's own message quotes the stored text).
fn unreadable_reason(content: &str) -> String {
    use serde::de::DeserializeOwned;
    use serde_json::Value;
    fn fits<T: DeserializeOwned>(value: &Value) -> bool {
        T::deserialize(value).is_ok()
    }
    let record = match serde_json::from_str::<Value>(content) {
        Ok(Value::Object(record)) => record,
        Ok(_) => return not_readable("the stored entry", "a JSON object"),
        Err(err) if err.is_eof() => {
            return not_readable("the stored entry", "whole (it is cut short)");
        }
        Err(_) => return not_readable("the stored entry", "JSON"),
    };
    // Each field as the record reads it: (name, required, fits, what it must be).
    type Fits = fn(&Value) -> bool;
    let fields: [(&str, bool, Fits, &str); 13] = [
        ("id", true, fits::<String>, "text"),
        ("tool_name", true, fits::<String>, "text"),
        ("rule", true, fits::<String>, "text"),
        (
            "priority",
            false,
            fits::<tool_memory_core::ToolMemoryPriority>,
            "text",
        ),
        (
            "source",
            false,
            fits::<tool_memory_core::ToolMemorySource>,
            "text",
        ),
        ("tags", false, fits::<Vec<String>>, "a JSON list of strings"),
        ("created_at", true, fits::<Timestamp>, "a timestamp"),
        ("updated_at", true, fits::<Timestamp>, "a timestamp"),
        (
            "revoked_at",
            false,
            fits::<Option<Timestamp>>,
            "a timestamp",
        ),
        (
            "expires_at",
            false,
            fits::<Option<Timestamp>>,
            "a timestamp",
        ),
        (
            "retire_after_successes",
            false,
            fits::<Option<u64>>,
            "an integer",
        ),
        ("proposed", false, fits::<bool>, "a boolean"),
        ("constraint_explicit", false, fits::<bool>, "a boolean"),
    ];
    for (field, required, fits, expected) in fields {
        match record.get(field) {
            None if required => return not_readable(field, "present"),
            Some(value) if !fits(value) => {
                // A word where a known word belongs: a value a newer version added.
                return if matches!(field, "priority" | "source") && value.is_string() {
                    unknown_value(field)
                } else {
                    not_readable(field, expected)
                };
            }
            _ => {}
        }
    }
    not_readable("the stored entry", "a rule this version can read")
}

#[async_trait]
impl<B: KvBackend> RuleStore for KvRuleStore<B> {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        let id = put
            .id
            .clone()
            .unwrap_or_else(|| self.services.ids.next_id());
        let namespace = tool_memory_namespace(&put.tool_name);
        let key = storage_key(&id);
        let _guard = self.write_lock.lock().await;
        let existing = self.get(&put.tool_name, &id).await?;
        let origin = put.origin.clone();
        let rule = put.build(id, existing.as_ref(), self.services.clock.now());
        self.backend
            .store(
                &namespace,
                &key,
                &rule.to_compact_json(),
                TOOL_MEMORY_CATEGORY,
            )
            .await
            .map_err(backend("store tool rule"))?;
        let event = HistoryEvent::written(&rule, existing.as_ref(), origin);
        self.record(rule.updated_at, event, existing).await?;
        Ok(rule)
    }

    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()> {
        rule.validate()?;
        let _guard = self.write_lock.lock().await;
        let before = self.get(&rule.tool_name, &rule.id).await.ok().flatten();
        self.write(&rule).await?;
        let event = HistoryEvent::written(&rule, before.as_ref(), origin.clone());
        self.record(self.services.clock.now(), event, before)
            .await?;
        Ok(())
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let entry = self
            .backend
            .get(&tool_memory_namespace(tool_name), &storage_key(id))
            .await
            .map_err(backend("get tool rule"))?;
        let Some(entry) = entry else { return Ok(None) };
        serde_json::from_str(&entry.content)
            .map(Some)
            .map_err(|_| Error::Unreadable {
                tool_name: normalize_tool_name(tool_name),
                id: id.to_owned(),
                reason: unreadable_reason(&entry.content),
            })
    }

    async fn list(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.list_with_unreadable(tool_name).await?.rules)
    }

    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.listed(tool_name).await?.0.into())
    }

    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        let (mut rules, unreadable) = self.listed(tool_name).await?;
        rules.retain(|rule| rule.meta.revoked_at.is_none());
        Ok(ToolRules {
            rules: rules.into(),
            unreadable: Unreadable::from(unreadable),
        })
    }

    /// Applies `change` to a stored rule under the write lock and records `action` when it
    /// changed anything.
    async fn change_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
        change: RuleChange,
    ) -> Result<Option<ToolMemoryRule>> {
        let _guard = self.write_lock.lock().await;
        let Some(before) = self.get(tool_name, id).await? else {
            return Ok(None);
        };
        let now = self.services.clock.now();
        let mut after = before.clone();
        if !change(&mut after.meta, now) {
            return Ok(Some(before));
        }
        self.write(&after).await?;
        let event = HistoryEvent::changed(&after, action, origin.clone());
        self.record(now, event, Some(before)).await?;
        Ok(Some(after))
    }

    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool> {
        let _guard = self.write_lock.lock().await;
        let before = self.get(tool_name, id).await.ok().flatten();
        let existed = self
            .backend
            .forget(&tool_memory_namespace(tool_name), &storage_key(id))
            .await
            .map_err(backend("forget tool rule"))?;
        if existed {
            let event = HistoryEvent::removed(tool_name, id, action, origin.clone());
            self.record(self.services.clock.now(), event, before)
                .await?;
        }
        Ok(existed)
    }

    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        let entries = self
            .backend
            .list(&history_namespace(tool_name))
            .await
            .map_err(backend("list history"))?;
        let mut lines: Vec<HistoryEntry> = entries
            .iter()
            .filter_map(|entry| serde_json::from_str::<HistoryEntry>(&entry.content).ok())
            .filter(|entry| id.is_none_or(|id| entry.rule_id == id))
            .filter(|entry| before.is_none_or(|before| entry.seq < before))
            .collect();
        lines.sort_by_key(|entry| std::cmp::Reverse(entry.seq));
        lines.truncate(limit);
        Ok(lines)
    }

    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry> {
        tool_memory_core::validate_tool_name(&event.tool_name)?;
        let before = event.rule.clone();
        self.record(self.services.clock.now(), event, before).await
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        let summaries = self
            .backend
            .namespace_summaries()
            .await
            .map_err(backend("list tool namespaces"))?;
        let mut names: Vec<String> = summaries
            .into_iter()
            .filter_map(|summary| {
                summary
                    .namespace
                    .strip_prefix(TOOL_NAMESPACE_PREFIX)
                    .map(str::to_owned)
            })
            .filter(|name| !name.is_empty() && name != UNSCOPED_TOOL)
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Under the write lock, and every decision taken before the first write, so a turn that
    /// fails validation stores nothing. A key/value backend has no transaction: should the
    /// backend itself fail half-way, what was written stays and the turn's record (written
    /// last) does not, so the retried turn is applied again.
    async fn apply_turn(&self, changes: TurnChanges) -> Result<TurnOutcome> {
        let _guard = self.write_lock.lock().await;
        if let Some(key) = &changes.key {
            let recorded = self
                .backend
                .get(TURNS_NAMESPACE, &turn_key(key))
                .await
                .map_err(backend("get turn record"))?;
            if recorded.is_some() {
                return Ok(TurnOutcome::already());
            }
        }
        let reads = changes.reads();
        let tools = match reads.tools {
            Some(tools) => tools.into_iter().collect(),
            None => {
                let mut tools = self.list_tool_names().await?;
                tools.push(UNSCOPED_TOOL.to_owned());
                tools
            }
        };
        let mut snapshot = TurnSnapshot::default();
        for tool in tools {
            let (rules, unreadable) = self.read_tool(&tool).await?;
            snapshot.rows.extend(rules.into_iter().map(Ok));
            snapshot.rows.extend(unreadable.into_iter().map(Err));
        }
        for tool in &reads.stats {
            snapshot.stats.extend(self.tool_stats(tool).await?);
        }
        let at = self.services.clock.now();
        let plan = plan_turn(&changes, snapshot, at, &*self.services.ids)?;
        for write in plan.writes {
            match write {
                TurnWrite::Rule {
                    rule,
                    before,
                    event,
                } => {
                    self.write(&rule).await?;
                    self.record(at, event, before).await?;
                }
                TurnWrite::Remove {
                    tool_name,
                    id,
                    before,
                    event,
                } => {
                    self.backend
                        .forget(&tool_memory_namespace(&tool_name), &storage_key(&id))
                        .await
                        .map_err(backend("forget tool rule"))?;
                    self.record(at, event, Some(before)).await?;
                }
                TurnWrite::Stats(totals) => self.write_stats(&totals).await?,
            }
        }
        if let Some(key) = &changes.key {
            self.backend
                .store(TURNS_NAMESPACE, &turn_key(key), "{}", TURNS_CATEGORY)
                .await
                .map_err(backend("store turn record"))?;
        }
        Ok(plan.outcome)
    }

    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats> {
        let name = tool_memory_core::validate_tool_name(&delta.tool_name)?;
        let _guard = self.write_lock.lock().await;
        let mut totals = self
            .tool_stats(&name)
            .await?
            .unwrap_or_else(|| ToolStats::empty(&name));
        totals.add(delta);
        self.write_stats(&totals).await?;
        Ok(totals)
    }

    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        let entry = self
            .backend
            .get(&stats_namespace(tool_name), STATS_KEY)
            .await
            .map_err(backend("get tool statistics"))?;
        let Some(entry) = entry else { return Ok(None) };
        serde_json::from_str(&entry.content)
            .map(Some)
            .map_err(|err| Error::Unreadable {
                tool_name: normalize_tool_name(tool_name),
                id: STATS_KEY.to_owned(),
                reason: err.to_string(),
            })
    }

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let names = match prompt_tool_filter(tools) {
            Some(names) => names,
            None => {
                let mut names: std::collections::BTreeSet<String> =
                    self.list_tool_names().await?.into_iter().collect();
                names.insert(UNSCOPED_TOOL.to_owned());
                names
            }
        };
        // A key/value backend can only list per namespace: one call per tool is inherent.
        let mut eager = Vec::new();
        let mut unreadable = Vec::new();
        for name in &names {
            let (rules, skipped) = self.read_tool(name).await?;
            // The priority of an entry that does not parse is unknown: it may be eager.
            unreadable.extend(skipped);
            eager.extend(rules.into_iter().filter(|rule| rule.priority.is_eager()));
        }
        let now = self.services.clock.now();
        Ok(select_for_prompt(
            active_at(eager, now),
            max_rules,
            unreadable,
        ))
    }
}

/// A [`KvBackend`] in a map, for tests and examples.
#[derive(Debug, Default)]
pub struct InMemoryKv {
    entries: Mutex<BTreeMap<(String, String), String>>,
}

impl InMemoryKv {
    /// An empty backend.
    pub fn new() -> InMemoryKv {
        InMemoryKv::default()
    }
}

#[async_trait]
impl KvBackend for InMemoryKv {
    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        _category: &str,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        self.entries
            .lock()
            .insert((namespace.to_owned(), key.to_owned()), content.to_owned());
        Ok(())
    }

    async fn get(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<Option<KvEntry>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .entries
            .lock()
            .get(&(namespace.to_owned(), key.to_owned()))
            .map(|content| KvEntry {
                key: key.to_owned(),
                content: content.clone(),
            }))
    }

    async fn list(
        &self,
        namespace: &str,
    ) -> Result<Vec<KvEntry>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .entries
            .lock()
            .iter()
            .filter(|((entry_namespace, _), _)| entry_namespace == namespace)
            .map(|((_, key), content)| KvEntry {
                key: key.clone(),
                content: content.clone(),
            })
            .collect())
    }

    async fn forget(
        &self,
        namespace: &str,
        key: &str,
    ) -> Result<bool, Box<dyn std::error::Error + Send + Sync>> {
        Ok(self
            .entries
            .lock()
            .remove(&(namespace.to_owned(), key.to_owned()))
            .is_some())
    }

    async fn namespace_summaries(
        &self,
    ) -> Result<Vec<NamespaceSummary>, Box<dyn std::error::Error + Send + Sync>> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for (namespace, _) in self.entries.lock().keys() {
            *counts.entry(namespace.clone()).or_default() += 1;
        }
        Ok(counts
            .into_iter()
            .map(|(namespace, count)| NamespaceSummary { namespace, count })
            .collect())
    }
}
