//! `InMemoryRuleStore`: the contract without persistence, for tests and embedders.

use std::collections::BTreeMap;

use async_trait::async_trait;
use parking_lot::Mutex;
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RulePut, Timestamp, ToolMemoryRule,
    ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
};

use crate::plan::{TurnSnapshot, TurnWrite, plan_turn};
use crate::store::{StoredRow, active_at, prompt_tool_filter, select_for_prompt};
use crate::turn::{TurnChanges, TurnKey, TurnOutcome};
use crate::{
    Error, Listing, PromptSelection, Result, RuleChange, RuleStore, Services, ToolRules,
    Unreadable, UnreadableRow,
};

/// Rules in a map behind a mutex; gone when dropped.
#[derive(Debug, Default)]
pub struct InMemoryRuleStore {
    services: Services,
    /// Rules and their history under one lock, so a change and its history line are one step.
    state: Mutex<State>,
    /// tool -> statistics; a separate map, as statistics never mix with rules.
    stats: Mutex<BTreeMap<String, ToolStats>>,
}

#[derive(Debug, Default)]
struct State {
    /// tool -> id -> rule.
    rules: BTreeMap<String, BTreeMap<String, ToolMemoryRule>>,
    /// Rows held that this store cannot read (see [`InMemoryRuleStore::hold_unreadable`]),
    /// by (tool, id).
    unreadable: BTreeMap<(String, String), UnreadableRow>,
    history: Vec<HistoryEntry>,
    /// Rule changes so far (guard decisions in the history are not changes).
    changes: u64,
    /// The turns applied so far.
    turns: std::collections::BTreeSet<TurnKey>,
}

impl State {
    /// Fails when (tool, id) is a row this store cannot read: a change must not replace it
    /// unseen, and a read must not take it for absent.
    fn refuse_unreadable(&self, tool_name: &str, id: &str) -> Result<()> {
        match self.unreadable.get(&(tool_name.to_owned(), id.to_owned())) {
            Some(row) => Err(Error::unreadable(row.clone())),
            None => Ok(()),
        }
    }

    /// The unreadable rows of one tool, by id.
    fn unreadable_of(&self, tool_name: &str) -> Vec<UnreadableRow> {
        self.unreadable
            .range((tool_name.to_owned(), String::new())..)
            .take_while(|((tool, _), _)| tool == tool_name)
            .map(|(_, row)| row.clone())
            .collect()
    }

    /// Appends the line for `event`, stamped `at`: the time of the change it records.
    fn record(
        &mut self,
        at: Timestamp,
        event: HistoryEvent,
        before: Option<ToolMemoryRule>,
    ) -> HistoryEntry {
        let seq = i64::try_from(self.history.len()).unwrap_or(i64::MAX) + 1;
        let entry = event.into_entry(seq, at, before);
        if !matches!(
            entry.action,
            HistoryAction::Deny | HistoryAction::AskConfirm
        ) {
            self.changes += 1;
        }
        self.history.push(entry.clone());
        entry
    }

    /// Applies `change` to one stored rule, recording `action` when it changed anything.
    fn change(
        &mut self,
        at: Timestamp,
        (tool_name, id): (&str, &str),
        action: HistoryAction,
        origin: &Origin,
        change: impl FnOnce(&mut ToolMemoryRule) -> bool,
    ) -> Result<Option<ToolMemoryRule>> {
        let name = normalize_tool_name(tool_name);
        self.refuse_unreadable(&name, id)?;
        let Some(rule) = self.rules.get_mut(&name).and_then(|tool| tool.get_mut(id)) else {
            return Ok(None);
        };
        let before = rule.clone();
        if !change(rule) {
            return Ok(Some(before));
        }
        let after = rule.clone();
        let event = HistoryEvent::changed(&after, action, origin.clone());
        self.record(at, event, Some(before));
        Ok(Some(after))
    }

    fn remove(
        &mut self,
        at: Timestamp,
        (tool_name, id): (&str, &str),
        action: HistoryAction,
        origin: &Origin,
    ) -> bool {
        let name = normalize_tool_name(tool_name);
        // An unreadable row goes by an explicit delete, like in every other store; its line
        // has no before image.
        if self
            .unreadable
            .remove(&(name.clone(), id.to_owned()))
            .is_some()
        {
            let event = HistoryEvent::removed(&name, id, action, origin.clone());
            self.record(at, event, None);
            return true;
        }
        let Some(tool) = self.rules.get_mut(&name) else {
            return false;
        };
        let Some(removed) = tool.remove(id) else {
            return false;
        };
        if tool.is_empty() {
            self.rules.remove(&name);
        }
        let event = HistoryEvent::removed(&name, id, action, origin.clone());
        self.record(at, event, Some(removed));
        true
    }
}

impl InMemoryRuleStore {
    /// An empty store on the system clock and UUID ids.
    pub fn new() -> InMemoryRuleStore {
        InMemoryRuleStore::default()
    }

    /// An empty store with the given clock and id source.
    pub fn with_services(services: Services) -> InMemoryRuleStore {
        InMemoryRuleStore {
            services,
            ..InMemoryRuleStore::default()
        }
    }

    /// Holds a row this store cannot read, as a host that fills the store from rules kept
    /// elsewhere records one it failed to parse (and as the conformance suite tests the
    /// behaviour): listings leave it out and report it, the guard asks for confirmation on its
    /// tool, the prompt shows a line in its place, `get` and changes of it fail. A delete
    /// removes it; an import of the same tool and id replaces it.
    pub fn hold_unreadable(&self, row: UnreadableRow) {
        let mut state = self.state.lock();
        let tool_name = normalize_tool_name(&row.tool_name);
        if let Some(tool) = state.rules.get_mut(&tool_name) {
            tool.remove(&row.id);
        }
        let row = UnreadableRow { tool_name, ..row };
        state
            .unreadable
            .insert((row.tool_name.clone(), row.id.clone()), row);
        state.changes += 1;
    }

    fn rules_of(&self, tool_name: &str) -> Vec<ToolMemoryRule> {
        let mut listed: Vec<ToolMemoryRule> = self
            .state
            .lock()
            .rules
            .get(&normalize_tool_name(tool_name))
            .map(|tool| tool.values().cloned().collect())
            .unwrap_or_default();
        listed.sort_by(compare_for_listing);
        listed
    }
}

#[async_trait]
impl RuleStore for InMemoryRuleStore {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        let id = put
            .id
            .clone()
            .unwrap_or_else(|| self.services.ids.next_id());
        let origin = put.origin.clone();
        let mut state = self.state.lock();
        state.refuse_unreadable(&put.tool_name, &id)?;
        let before = state
            .rules
            .get(&put.tool_name)
            .and_then(|tool| tool.get(&id))
            .cloned();
        let rule = put.build(id.clone(), before.as_ref(), self.services.clock.now());
        state
            .rules
            .entry(rule.tool_name.clone())
            .or_default()
            .insert(id, rule.clone());
        let event = HistoryEvent::written(&rule, before.as_ref(), origin);
        state.record(rule.updated_at, event, before);
        Ok(rule)
    }

    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()> {
        rule.validate()?;
        let mut state = self.state.lock();
        // An import replaces what is there, even a row this store cannot read.
        state
            .unreadable
            .remove(&(rule.tool_name.clone(), rule.id.clone()));
        let before = state
            .rules
            .entry(rule.tool_name.clone())
            .or_default()
            .insert(rule.id.clone(), rule.clone());
        let event = HistoryEvent::written(&rule, before.as_ref(), origin.clone());
        state.record(self.services.clock.now(), event, before);
        Ok(())
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let state = self.state.lock();
        let name = normalize_tool_name(tool_name);
        state.refuse_unreadable(&name, id)?;
        Ok(state
            .rules
            .get(&name)
            .and_then(|tool| tool.get(id))
            .cloned())
    }

    async fn list(&self, tool_name: &str) -> Result<Listing> {
        let mut listed = self.rules_of(tool_name);
        listed.retain(|rule| rule.meta.revoked_at.is_none());
        Ok(listed.into())
    }

    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.rules_of(tool_name).into())
    }

    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        let unreadable = self
            .state
            .lock()
            .unreadable_of(&normalize_tool_name(tool_name));
        let mut rules = self.rules_of(tool_name);
        rules.retain(|rule| rule.meta.revoked_at.is_none());
        Ok(ToolRules {
            rules: rules.into(),
            unreadable: Unreadable::from(unreadable),
        })
    }

    async fn unreadable_rows(&self) -> Result<Vec<UnreadableRow>> {
        Ok(self.state.lock().unreadable.values().cloned().collect())
    }

    async fn change_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
        change: RuleChange,
    ) -> Result<Option<ToolMemoryRule>> {
        let now = self.services.clock.now();
        self.state
            .lock()
            .change(now, (tool_name, id), action, origin, |rule| {
                change(&mut rule.meta, now)
            })
    }

    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool> {
        Ok(self
            .state
            .lock()
            .remove(self.services.clock.now(), (tool_name, id), action, origin))
    }

    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        let name = normalize_tool_name(tool_name);
        Ok(self
            .state
            .lock()
            .history
            .iter()
            .rev()
            .filter(|entry| entry.tool_name == name)
            .filter(|entry| id.is_none_or(|id| entry.rule_id == id))
            .filter(|entry| before.is_none_or(|before| entry.seq < before))
            .take(limit)
            .cloned()
            .collect())
    }

    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry> {
        tool_memory_core::validate_tool_name(&event.tool_name)?;
        let before = event.rule.clone();
        let at = self.services.clock.now();
        Ok(self.state.lock().record(at, event, before))
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        let state = self.state.lock();
        let mut names: Vec<String> = state
            .rules
            .keys()
            .chain(state.unreadable.keys().map(|(tool, _)| tool))
            .filter(|name| name.as_str() != UNSCOPED_TOOL)
            .cloned()
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Under both locks, so the turn's reads and writes are one step.
    async fn apply_turn(&self, changes: TurnChanges) -> Result<TurnOutcome> {
        let mut state = self.state.lock();
        let mut stats = self.stats.lock();
        if changes
            .key
            .as_ref()
            .is_some_and(|key| state.turns.contains(key))
        {
            return Ok(TurnOutcome::already());
        }
        let reads = changes.reads();
        let wanted = |tool: &String| {
            reads
                .tools
                .as_ref()
                .is_none_or(|tools| tools.contains(tool))
        };
        let rows: Vec<StoredRow> = state
            .rules
            .iter()
            .filter(|(tool, _)| wanted(tool))
            .flat_map(|(_, rules)| rules.values().cloned().map(Ok))
            .chain(
                state
                    .unreadable
                    .values()
                    .filter(|row| wanted(&row.tool_name))
                    .cloned()
                    .map(Err),
            )
            .collect();
        let snapshot = TurnSnapshot {
            rows,
            stats: reads
                .stats
                .iter()
                .filter_map(|tool| stats.get(tool).cloned())
                .collect(),
        };
        let at = self.services.clock.now();
        let plan = plan_turn(&changes, snapshot, at, &*self.services.ids)?;
        for write in plan.writes {
            match write {
                TurnWrite::Rule {
                    rule,
                    before,
                    event,
                } => {
                    state
                        .rules
                        .entry(rule.tool_name.clone())
                        .or_default()
                        .insert(rule.id.clone(), rule);
                    state.record(at, event, before);
                }
                TurnWrite::Remove {
                    tool_name,
                    id,
                    before,
                    event,
                } => {
                    if let Some(tool) = state.rules.get_mut(&tool_name) {
                        tool.remove(&id);
                        if tool.is_empty() {
                            state.rules.remove(&tool_name);
                        }
                    }
                    state.record(at, event, Some(before));
                }
                TurnWrite::Stats(totals) => {
                    stats.insert(totals.tool_name.clone(), totals);
                }
            }
        }
        state.turns.extend(changes.key);
        Ok(plan.outcome)
    }

    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats> {
        let name = tool_memory_core::validate_tool_name(&delta.tool_name)?;
        let mut stats = self.stats.lock();
        let totals = stats
            .entry(name.clone())
            .or_insert_with(|| ToolStats::empty(name));
        totals.add(delta);
        Ok(totals.clone())
    }

    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        Ok(self
            .stats
            .lock()
            .get(&normalize_tool_name(tool_name))
            .cloned())
    }

    async fn version(&self) -> Result<Option<u64>> {
        Ok(Some(self.state.lock().changes))
    }

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let filter = prompt_tool_filter(tools);
        let wanted = |name: &String| filter.as_ref().is_none_or(|wanted| wanted.contains(name));
        let state = self.state.lock();
        let eager: Vec<ToolMemoryRule> = state
            .rules
            .iter()
            .filter(|(name, _)| wanted(name))
            .flat_map(|(_, tool)| tool.values())
            .filter(|rule| rule.priority.is_eager())
            .cloned()
            .collect();
        // A row this store cannot read may be eager: its priority is unknown.
        let unreadable = state
            .unreadable
            .values()
            .filter(|row| wanted(&row.tool_name))
            .cloned()
            .collect();
        drop(state);
        Ok(select_for_prompt(
            active_at(eager, self.services.clock.now()),
            max_rules,
            unreadable,
        ))
    }
}
