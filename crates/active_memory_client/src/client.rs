//! `ActiveMemoryClient`: the one handle over a rule store that RPC, CLI and hosts use.

use std::sync::{Arc, OnceLock};

use serde::Serialize;
use tool_memory_capture::{ProposedRevocation, ProposedRule, TurnRecord, capture_turn};
use tool_memory_core::{
    Clock, HistoryEntry, Origin, RulePut, TOOL_NAMESPACE_PREFIX, Timestamp, ToolMemoryRule,
    ToolStats, UNSCOPED_TOOL, validate_tool_name,
};
use tool_memory_prompt::{ToolMemoryRulesSection, UnreadableRule, render_block};
use tool_memory_store::backend::observation_retires;
use tool_memory_store::{
    InMemoryRuleStore, Listing, PromptSelection, RuleStore, SystemClock, UnreadableRow,
};

use crate::prefetch::prefetch_blocking;
use crate::{ClientConfig, Error, Result};

/// The rows a store could not read, as the prompt shows them: where each is, not why.
fn unreadable_rules(rows: &[UnreadableRow]) -> Vec<UnreadableRule> {
    rows.iter()
        .map(|row| UnreadableRule {
            tool_name: row.tool_name.clone(),
            id: row.id.clone(),
        })
        .collect()
}

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
    pub(crate) store: Arc<dyn RuleStore>,
    pub(crate) clock: Arc<dyn Clock>,
    config: ClientConfig,
    /// Guards built for tools, valid for one store version.
    pub(crate) guards: Arc<parking_lot::Mutex<crate::guard_cache::GuardCache>>,
    /// The last block rendered, with exactly the input it was rendered from.
    last_render: Arc<parking_lot::Mutex<Option<Rendered>>>,
}

/// A rendered block and its input. Rendering is a pure function of the selected rules and the
/// budget, so when the next session start selects the very same rules (compared field by
/// field, not by a hash that could collide) the bytes are reused instead of rebuilt.
#[derive(Debug)]
struct Rendered {
    rules: Vec<ToolMemoryRule>,
    unreadable: Vec<UnreadableRow>,
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
    /// Stored rules of these tools (or of the no-tool group) that this version cannot read,
    /// by tool then id; the block shows a line in the place of each. Left out of the JSON
    /// when empty, so a healthy store's answer keeps its shape.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<UnreadableRow>,
}

/// What one turn's capture changed in the store.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AfterTurnReport {
    /// Whether capture ran (see `OPENHUMAN_LEARNING_TOOL_MEMORY_CAPTURE_ENABLED`).
    pub capture_enabled: bool,
    /// This turn (same session, turn index and content) was applied before, so nothing was
    /// changed and every list is empty. Absent from the JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub already_applied: bool,
    /// Rules that did not exist before.
    pub created: Vec<ToolMemoryRule>,
    /// Rules said again word for word: only `updated_at` moved.
    pub refreshed: Vec<ToolMemoryRule>,
    /// Rules said again differently (wording or priority).
    pub changed: Vec<ToolMemoryRule>,
    /// Earlier rules this turn lifted ("you can email Sarah again").
    pub revoked: Vec<ToolMemoryRule>,
    /// Revoked rules this turn stated again, and so reinstated.
    pub restored: Vec<ToolMemoryRule>,
    /// Revocations the user gave that matched no active rule, so the host can say so.
    pub unmatched_revocations: Vec<ProposedRevocation>,
    /// Rules proposed from pasted or quoted material that were left alone because a rule with
    /// the same identity exists that the material may not touch: one the user confirmed or
    /// revoked, or one of their own awaiting confirmation. Absent from the JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub material_not_applied: Vec<ProposedRule>,
    /// Observations retired by this turn (expired, or outlived by successful calls).
    pub expired: Vec<ToolMemoryRule>,
    /// Statistics totals after this turn, per tool called.
    pub stats: Vec<ToolStats>,
}

impl ActiveMemoryClient {
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
            guards: Arc::default(),
            last_render: Arc::default(),
        }
    }

    /// Ends the client of a process that exits right after (an agent's hook, a CLI command):
    /// the store is dropped as usual (its connections close, and SQLite tidies its log as it
    /// would), while the client's own caches (the guards this call built) are left to the
    /// operating system instead of being freed one allocation at a time, which cost a hook 7%
    /// of its instructions. Clones of the client keep their store and caches.
    pub fn close_for_exit(self) {
        let ActiveMemoryClient {
            store,
            guards,
            last_render,
            ..
        } = self;
        drop(store);
        std::mem::forget(guards);
        std::mem::forget(last_render);
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

    /// The store underneath. Crate-private: a write straight to the store would skip the
    /// constraint the guard crate decides for a put (and the facade's other rules), so callers
    /// outside the facade go through its methods.
    pub(crate) fn store(&self) -> &Arc<dyn RuleStore> {
        &self.store
    }

    /// Creates or updates a rule; see [`RuleStore::put`]. Its enforcement constraint is
    /// derived from the text, or validated when the put gives one (`put.constraint`, in the
    /// guard's JSON form; a given constraint is kept across later edits of the text).
    pub async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = self.with_constraint(put).await?;
        Ok(self.store.put(put).await?)
    }

    /// The rule with this id on this tool, if any.
    pub async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        Ok(self.store.get(tool_name, id).await?)
    }

    /// Every rule of a tool, priority descending then freshest first.
    pub async fn list(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.store.list(tool_name).await?)
    }

    /// Every rule of a tool, revoked ones included (marked by `meta.revoked_at`).
    pub async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.store.list_including_revoked(tool_name).await?)
    }

    /// Deletes a rule; `true` when it existed. Its history stays.
    pub async fn delete(&self, tool_name: &str, id: &str, origin: &Origin) -> Result<bool> {
        Ok(self.store.delete(tool_name, id, origin).await?)
    }

    /// Lifts a rule without deleting it: it leaves the prompt, the guard and default listings,
    /// and stays in history. `None` when there is no such rule.
    pub async fn revoke(
        &self,
        tool_name: &str,
        id: &str,
        origin: &Origin,
    ) -> Result<Option<ToolMemoryRule>> {
        Ok(self.store.revoke(tool_name, id, origin).await?)
    }

    /// Reinstates a revoked rule. `None` when there is no such rule.
    pub async fn restore(
        &self,
        tool_name: &str,
        id: &str,
        origin: &Origin,
    ) -> Result<Option<ToolMemoryRule>> {
        Ok(self.store.restore(tool_name, id, origin).await?)
    }

    /// Confirms a captured edict that awaited confirmation. `None` when there is no such rule.
    pub async fn confirm(
        &self,
        tool_name: &str,
        id: &str,
        origin: &Origin,
    ) -> Result<Option<ToolMemoryRule>> {
        Ok(self.store.confirm(tool_name, id, origin).await?)
    }

    /// History of a tool (or of one rule), newest first.
    pub async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        Ok(self.store.history(tool_name, id, limit, before).await?)
    }

    /// Tools that hold rules, sorted (without the no-tool sentinel).
    pub async fn list_tool_names(&self) -> Result<Vec<String>> {
        Ok(self.store.list_tool_names().await?)
    }

    /// A tool's rules as a JSON array, for envelope consumers.
    pub async fn rules_json(&self, tool_name: &str) -> Result<serde_json::Value> {
        let rules = self.list(tool_name).await?;
        Ok(serde_json::to_value(&*rules).expect("rules always serialise"))
    }

    /// The pinned block for these tools (every tool when empty) and the rules behind it. A
    /// stored rule this version cannot read gets a line in its place, so it is never silently
    /// missing.
    pub async fn rules_for_prompt(&self, tools: &[String]) -> Result<RulesForPrompt> {
        let tools = crate::family::expand_tools(tools);
        let selection = self.store.rules_for_prompt(&tools, None).await?;
        let budget_bytes = self.config.prompt_budget_bytes;
        let mut last = self.last_render.lock();
        let reusable = last.as_ref().is_some_and(|last| {
            last.budget_bytes == budget_bytes
                && last.rules == selection.rules
                && last.unreadable == selection.unreadable
        });
        if !reusable {
            let report = render_block(
                &selection.rules,
                &unreadable_rules(&selection.unreadable),
                budget_bytes,
            );
            *last = Some(Rendered {
                rules: selection.rules.clone(),
                unreadable: selection.unreadable.clone(),
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
            unreadable: selection.unreadable,
        })
    }

    /// The frozen section for a new session of an agent with these tools (every tool when
    /// empty). Render it once and keep it for the whole session.
    pub async fn session_prompt(&self, tool_names: &[String]) -> Result<ToolMemoryRulesSection> {
        let tools = crate::family::expand_tools(tool_names);
        let selection = self.store.rules_for_prompt(&tools, None).await?;
        Ok(self.section(&selection))
    }

    /// The section for a selection: its rules, and a line for each row it could not read.
    fn section(&self, selection: &PromptSelection) -> ToolMemoryRulesSection {
        ToolMemoryRulesSection::with_unreadable(
            &selection.rules,
            &unreadable_rules(&selection.unreadable),
            self.config.prompt_budget_bytes,
        )
    }

    /// [`session_prompt`](Self::session_prompt) for a synchronous session builder: works
    /// inside or outside any runtime, waits at most the configured timeout, and on any failure
    /// logs a warning and returns an empty section rather than failing the session.
    pub fn session_prompt_blocking(&self, tool_names: &[String]) -> ToolMemoryRulesSection {
        let store = Arc::clone(&self.store);
        let tools = crate::family::expand_tools(tool_names);
        let Some(mut selection) = prefetch_blocking(
            move || async move { store.rules_for_prompt(&tools, None).await },
            self.config.prefetch_timeout,
        ) else {
            return ToolMemoryRulesSection::empty();
        };
        selection.rules.retain(|rule| rule.priority.is_eager());
        tracing::info!(
            rules = selection.rules.len(),
            unreadable = selection.unreadable.len(),
            "tool memory: pinning tool-scoped rules into the system prompt"
        );
        self.section(&selection)
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

    /// Removes a tool's observations that have expired at `now` or that `successes` (the
    /// tool's total of successful calls) has outlived. User rules never expire.
    async fn retire_observations(
        &self,
        tool_name: &str,
        now: Timestamp,
        successes: Option<u64>,
    ) -> Result<Vec<ToolMemoryRule>> {
        let mut retired = Vec::new();
        for rule in self.store.list(tool_name).await?.iter() {
            if observation_retires(rule, now, successes)
                && self.store.expire(tool_name, &rule.id).await?
            {
                retired.push(rule.clone());
            }
        }
        Ok(retired)
    }

    /// Removes every observation in the store that has expired by now. The server runs it at
    /// start-up; `after_turn` already does it for the tools of each turn.
    pub async fn sweep_expired(&self) -> Result<Vec<ToolMemoryRule>> {
        let now = self.clock.now();
        let mut tools = self.store.list_tool_names().await?;
        tools.push(UNSCOPED_TOOL.to_owned());
        let mut retired = Vec::new();
        for tool in tools {
            let successes = self
                .store
                .tool_stats(&tool)
                .await?
                .map(|stats| stats.successes);
            retired.extend(self.retire_observations(&tool, now, successes).await?);
        }
        Ok(retired)
    }

    /// Every rule in the store, revoked ones included, tool by tool (the no-tool group last),
    /// for export.
    pub async fn export(&self) -> Result<Vec<ToolMemoryRule>> {
        let mut tools = self.list_tool_names().await?;
        tools.push(UNSCOPED_TOOL.to_owned());
        let mut rules = Vec::new();
        for tool in tools {
            rules.extend_from_slice(&self.list_including_revoked(&tool).await?);
        }
        Ok(rules)
    }

    /// Writes rules back exactly as given (ids, timestamps and state kept), replacing stored
    /// rules of the same tool and id whatever they hold, and skipping a rule that is already
    /// stored exactly so (no history line); returns how many were written. For a program
    /// restoring its own copy; a file from elsewhere goes through
    /// [`import_lines`](Self::import_lines), which refuses lines that would weaken a stored
    /// rule.
    pub async fn import_verbatim(
        &self,
        rules: Vec<ToolMemoryRule>,
        origin: &Origin,
    ) -> Result<usize> {
        let mut written = 0;
        for rule in rules {
            let stored = match self.store.get(&rule.tool_name, &rule.id).await {
                Err(tool_memory_store::Error::Unreadable { .. }) => None,
                other => other?,
            };
            if stored.as_ref() != Some(&rule) {
                self.store.import(rule, origin).await?;
                written += 1;
            }
        }
        Ok(written)
    }
}
