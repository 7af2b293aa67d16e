//! `ActiveMemoryClient`: the one handle over a rule store that RPC, CLI and hosts use.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use tool_memory_capture::{TurnRecord, capture_turn};
use tool_memory_core::{
    Clock, RulePut, TOOL_NAMESPACE_PREFIX, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource,
    ToolStats, UNSCOPED_TOOL, validate_tool_name,
};
use tool_memory_prompt::{ToolMemoryRulesSection, prefetch_rules_blocking, render_prompt};
use tool_memory_store::{
    InMemoryRuleStore, RuleStore, SqliteOptions, SqliteRuleStore, SystemClock,
};

use crate::{ClientConfig, Error, Result};

/// The process-wide client, set once at start-up.
static ACTIVE: OnceLock<ActiveMemoryClient> = OnceLock::new();

/// Makes `client` the process-wide active client. Fails if one is already set.
pub fn set_active_memory_client(client: ActiveMemoryClient) -> Result<()> {
    ACTIVE.set(client).map_err(|_| Error::AlreadySet)
}

/// The process-wide active client, or a clear error when none was set.
pub fn active_memory_client() -> Result<ActiveMemoryClient> {
    ACTIVE.get().cloned().ok_or(Error::NoActiveClient)
}

/// What capture would propose for this turn right now, without a store: the dry run behind
/// `toolmem capture --dry-run`.
pub fn preview_capture(turn: &TurnRecord) -> tool_memory_capture::CaptureOutput {
    capture_turn(turn, SystemClock.now())
}

/// A handle over a rule store with capture, the pinned prompt and recall. Cheap to clone.
#[derive(Debug, Clone)]
pub struct ActiveMemoryClient {
    store: Arc<dyn RuleStore>,
    clock: Arc<dyn Clock>,
    config: ClientConfig,
    /// The last block rendered, with exactly the input it was rendered from.
    last_render: Arc<parking_lot::Mutex<Option<Rendered>>>,
}

/// A rendered block and its input. Rendering is a pure function of the selected rules and the
/// budget, so when the next session start selects the very same rules (compared field by
/// field, not by a hash that could collide) the bytes are reused instead of rebuilt.
#[derive(Debug)]
struct Rendered {
    rules: Vec<ToolMemoryRule>,
    budget_bytes: usize,
    rendered: String,
    left_out: Vec<ToolMemoryRule>,
    critical_over_budget: bool,
}

/// The pinned block and the eager rules behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesForPrompt {
    /// The `## Tool-scoped rules` block, or `""` when there are no eager rules.
    pub rendered: String,
    /// Every eager rule selected: priority descending, tool name, rule text, id.
    pub rules: Vec<ToolMemoryRule>,
    /// High rules that did not fit the byte budget (announced inside `rendered`).
    pub left_out: Vec<ToolMemoryRule>,
    /// Critical rules alone exceed the budget; they are all rendered anyway.
    pub critical_over_budget: bool,
}

/// What one turn's capture changed in the store.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AfterTurnReport {
    /// Whether capture ran (see `OPENHUMAN_LEARNING_TOOL_MEMORY_CAPTURE_ENABLED`).
    pub capture_enabled: bool,
    /// Rules that did not exist before.
    pub created: Vec<ToolMemoryRule>,
    /// Rules said again word for word: only `updated_at` moved.
    pub refreshed: Vec<ToolMemoryRule>,
    /// Rules said again differently (wording or priority).
    pub changed: Vec<ToolMemoryRule>,
    /// Statistics totals after this turn, per tool called.
    pub stats: Vec<ToolStats>,
}

impl ActiveMemoryClient {
    /// A client over the SQLite database at `path` (created if missing), configured from the
    /// environment.
    pub fn open_sqlite(path: impl AsRef<Path>) -> Result<ActiveMemoryClient> {
        ActiveMemoryClient::open_sqlite_with(path, SqliteOptions::default())
    }

    /// A client over the SQLite database at `path` with explicit store options.
    pub fn open_sqlite_with(
        path: impl AsRef<Path>,
        options: SqliteOptions,
    ) -> Result<ActiveMemoryClient> {
        let clock = Arc::clone(&options.services.clock);
        let store = SqliteRuleStore::open(path, options)?;
        Ok(ActiveMemoryClient::from_parts(Arc::new(store), clock))
    }

    /// A client over a fresh in-memory store.
    pub fn in_memory() -> ActiveMemoryClient {
        ActiveMemoryClient::from_store(Arc::new(InMemoryRuleStore::new()))
    }

    /// A client over any store, on the system clock.
    pub fn from_store(store: Arc<dyn RuleStore>) -> ActiveMemoryClient {
        ActiveMemoryClient::from_parts(store, Arc::new(SystemClock))
    }

    /// A client over any store and clock (capture stamps statistics with this clock).
    pub fn from_parts(store: Arc<dyn RuleStore>, clock: Arc<dyn Clock>) -> ActiveMemoryClient {
        ActiveMemoryClient {
            store,
            clock,
            config: ClientConfig::from_env(),
            last_render: Arc::default(),
        }
    }

    /// The same client with other settings.
    pub fn with_config(mut self, config: ClientConfig) -> ActiveMemoryClient {
        self.config = config;
        self
    }

    /// The settings in force.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The store underneath.
    pub fn store(&self) -> &Arc<dyn RuleStore> {
        &self.store
    }

    /// Creates or updates a rule; see [`RuleStore::put`].
    pub async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        Ok(self.store.put(put).await?)
    }

    /// The rule with this id on this tool, if any.
    pub async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        Ok(self.store.get(tool_name, id).await?)
    }

    /// Every rule of a tool, priority descending then freshest first.
    pub async fn list(&self, tool_name: &str) -> Result<Vec<ToolMemoryRule>> {
        Ok(self.store.list(tool_name).await?)
    }

    /// Deletes a rule; `true` when it existed.
    pub async fn delete(&self, tool_name: &str, id: &str) -> Result<bool> {
        Ok(self.store.delete(tool_name, id).await?)
    }

    /// Tools that hold rules, sorted (without the no-tool sentinel).
    pub async fn list_tool_names(&self) -> Result<Vec<String>> {
        Ok(self.store.list_tool_names().await?)
    }

    /// A tool's rules as a JSON array, for envelope consumers.
    pub async fn rules_json(&self, tool_name: &str) -> Result<serde_json::Value> {
        let rules = self.list(tool_name).await?;
        Ok(serde_json::to_value(rules).expect("rules always serialise"))
    }

    /// The pinned block for these tools (every tool when empty) and the rules behind it.
    pub async fn rules_for_prompt(&self, tools: &[String]) -> Result<RulesForPrompt> {
        let selection = self.store.rules_for_prompt(tools, None).await?;
        let budget_bytes = self.config.prompt_budget_bytes;
        let mut last = self.last_render.lock();
        let reusable = last
            .as_ref()
            .is_some_and(|last| last.budget_bytes == budget_bytes && last.rules == selection.rules);
        if !reusable {
            let report = render_prompt(&selection.rules, budget_bytes);
            *last = Some(Rendered {
                rules: selection.rules.clone(),
                budget_bytes,
                rendered: report.rendered,
                left_out: report.left_out,
                critical_over_budget: report.critical_over_budget,
            });
        }
        let last = last.as_ref().expect("filled above");
        Ok(RulesForPrompt {
            rendered: last.rendered.clone(),
            rules: selection.rules,
            left_out: last.left_out.clone(),
            critical_over_budget: last.critical_over_budget,
        })
    }

    /// The frozen section for a new session of an agent with these tools (every tool when
    /// empty). Render it once and keep it for the whole session.
    pub async fn session_prompt(&self, tool_names: &[String]) -> Result<ToolMemoryRulesSection> {
        let selection = self.store.rules_for_prompt(tool_names, None).await?;
        Ok(ToolMemoryRulesSection::with_budget(
            &selection.rules,
            self.config.prompt_budget_bytes,
        ))
    }

    /// [`session_prompt`](Self::session_prompt) for a synchronous session builder: works
    /// inside or outside any runtime, waits at most the configured timeout, and on any failure
    /// logs a warning and returns an empty section rather than failing the session.
    pub fn session_prompt_blocking(&self, tool_names: &[String]) -> ToolMemoryRulesSection {
        let store = Arc::clone(&self.store);
        let tools = tool_names.to_vec();
        let rules = prefetch_rules_blocking(
            move || async move { store.rules_for_prompt(&tools, None).await.map(|s| s.rules) },
            self.config.prefetch_timeout,
        );
        ToolMemoryRulesSection::with_budget(&rules, self.config.prompt_budget_bytes)
    }

    /// Keyword recall over the rule text of one `tool-{name}` namespace (a bare tool name is
    /// accepted too), most relevant first.
    pub async fn recall(
        &self,
        namespace: &str,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMemoryRule>> {
        let trimmed = namespace.trim();
        let tool = trimmed
            .strip_prefix(TOOL_NAMESPACE_PREFIX)
            .unwrap_or(trimmed);
        let tool = validate_tool_name(tool).map_err(|_| tool_memory_core::Error::Invalid {
            field: "namespace",
            reason: format!("`{namespace}` is not a `tool-{{name}}` namespace"),
        })?;
        Ok(self.store.search(&tool, query, limit).await?)
    }

    /// A tool's call statistics, if it was ever seen in a turn.
    pub async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        Ok(self.store.tool_stats(tool_name).await?)
    }

    /// Runs capture on a finished turn and applies what it proposes. A repeated edict has the
    /// same identity key, which is used as the rule id, so it refreshes one rule rather than
    /// adding a copy.
    pub async fn after_turn(&self, turn: &TurnRecord) -> Result<AfterTurnReport> {
        let mut report = AfterTurnReport {
            capture_enabled: self.config.capture_enabled,
            ..Default::default()
        };
        if !self.config.capture_enabled {
            return Ok(report);
        }
        let output = capture_turn(turn, self.clock.now());
        for proposed in output.rules {
            // Text observed in tool output is untrusted: it never rises above normal, whatever
            // capture proposed.
            let priority = match proposed.source {
                ToolMemorySource::UserExplicit => proposed.priority,
                _ => proposed.priority.min(ToolMemoryPriority::Normal),
            };
            let existing = self
                .store
                .get(&proposed.tool_name, &proposed.identity_key)
                .await?;
            let stored = self
                .store
                .put(
                    RulePut::new(&proposed.tool_name, &proposed.rule)
                        .with_id(&proposed.identity_key)
                        .with_priority(priority)
                        .with_source(proposed.source)
                        .with_tags(proposed.tags),
                )
                .await?;
            tracing::debug!(
                tool = stored.tool_name,
                body_len = stored.rule.len(),
                "[tool-memory] captured rule"
            );
            match existing {
                None => report.created.push(stored),
                Some(before)
                    if before.rule == stored.rule && before.priority == stored.priority =>
                {
                    report.refreshed.push(stored);
                }
                Some(_) => report.changed.push(stored),
            }
        }
        for delta in output.stats {
            let delta = ToolStats {
                tool_name: delta.tool_name,
                calls: delta.calls,
                successes: delta.successes,
                failures: delta.failures,
                last_failure_class: delta.last_failure_class.map(|class| class.to_string()),
                last_seen: Some(delta.last_seen),
            };
            report.stats.push(self.store.record_stats(&delta).await?);
        }
        Ok(report)
    }

    /// Every rule in the store, tool by tool (the no-tool group last), for export.
    pub async fn export(&self) -> Result<Vec<ToolMemoryRule>> {
        let mut tools = self.list_tool_names().await?;
        tools.push(UNSCOPED_TOOL.to_owned());
        let mut rules = Vec::new();
        for tool in tools {
            rules.extend(self.list(&tool).await?);
        }
        Ok(rules)
    }

    /// Writes exported rules back verbatim (ids and timestamps kept), so importing the same
    /// export twice changes nothing.
    pub async fn import(&self, rules: Vec<ToolMemoryRule>) -> Result<usize> {
        let count = rules.len();
        for rule in rules {
            self.store.restore(rule).await?;
        }
        Ok(count)
    }
}
