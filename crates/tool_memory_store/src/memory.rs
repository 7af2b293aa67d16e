//! `InMemoryRuleStore`: the contract without persistence, for tests and embedders.

use std::collections::BTreeMap;

use async_trait::async_trait;
use parking_lot::Mutex;
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RulePut, Timestamp, ToolMemoryRule,
    ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
};

use crate::store::{active_at, prompt_tool_filter, select_for_prompt};
use crate::{Listing, PromptSelection, Result, RuleChange, RuleStore, Services};

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
    history: Vec<HistoryEntry>,
    /// Rule changes so far (guard decisions in the history are not changes).
    changes: u64,
}

impl State {
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
    ) -> Option<ToolMemoryRule> {
        let name = normalize_tool_name(tool_name);
        let rule = self.rules.get_mut(&name)?.get_mut(id)?;
        let before = rule.clone();
        if !change(rule) {
            return Some(before);
        }
        let after = rule.clone();
        let event = HistoryEvent::changed(&after, action, origin.clone());
        self.record(at, event, Some(before));
        Some(after)
    }

    fn remove(
        &mut self,
        at: Timestamp,
        (tool_name, id): (&str, &str),
        action: HistoryAction,
        origin: &Origin,
    ) -> bool {
        let name = normalize_tool_name(tool_name);
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
        Ok(state
            .rules
            .get(&normalize_tool_name(tool_name))
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

    async fn change_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
        change: RuleChange,
    ) -> Result<Option<ToolMemoryRule>> {
        let now = self.services.clock.now();
        Ok(self
            .state
            .lock()
            .change(now, (tool_name, id), action, origin, |rule| {
                change(&mut rule.meta, now)
            }))
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
        Ok(self
            .state
            .lock()
            .rules
            .keys()
            .filter(|name| name.as_str() != UNSCOPED_TOOL)
            .cloned()
            .collect())
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
        let eager: Vec<ToolMemoryRule> = self
            .state
            .lock()
            .rules
            .iter()
            .filter(|(name, _)| filter.as_ref().is_none_or(|wanted| wanted.contains(*name)))
            .flat_map(|(_, tool)| tool.values())
            .filter(|rule| rule.priority.is_eager())
            .cloned()
            .collect();
        Ok(select_for_prompt(
            active_at(eager, self.services.clock.now()),
            max_rules,
            0,
        ))
    }
}
