//! `InMemoryRuleStore`: the contract without persistence, for tests and embedders.

use std::collections::BTreeMap;

use async_trait::async_trait;
use parking_lot::Mutex;
use tool_memory_core::{
    RulePut, ToolMemoryRule, ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
};

use crate::store::{prompt_tool_filter, rank_by_keywords, select_for_prompt};
use crate::{PromptSelection, Result, RuleStore, Services};

/// Rules in a map behind a mutex; gone when dropped.
#[derive(Debug, Default)]
pub struct InMemoryRuleStore {
    services: Services,
    /// tool -> id -> rule.
    rules: Mutex<BTreeMap<String, BTreeMap<String, ToolMemoryRule>>>,
    /// tool -> statistics; a separate map, as statistics never mix with rules.
    stats: Mutex<BTreeMap<String, ToolStats>>,
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
}

#[async_trait]
impl RuleStore for InMemoryRuleStore {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        let id = put
            .id
            .clone()
            .unwrap_or_else(|| self.services.ids.next_id());
        let mut rules = self.rules.lock();
        let tool = rules.entry(put.tool_name.clone()).or_default();
        let now = self.services.clock.now();
        let rule = put.build(id.clone(), tool.get(&id), now);
        tool.insert(id, rule.clone());
        Ok(rule)
    }

    async fn restore(&self, rule: ToolMemoryRule) -> Result<()> {
        rule.validate()?;
        self.rules
            .lock()
            .entry(rule.tool_name.clone())
            .or_default()
            .insert(rule.id.clone(), rule);
        Ok(())
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let rules = self.rules.lock();
        Ok(rules
            .get(&normalize_tool_name(tool_name))
            .and_then(|tool| tool.get(id))
            .cloned())
    }

    async fn list(&self, tool_name: &str) -> Result<Vec<ToolMemoryRule>> {
        let mut listed: Vec<ToolMemoryRule> = self
            .rules
            .lock()
            .get(&normalize_tool_name(tool_name))
            .map(|tool| tool.values().cloned().collect())
            .unwrap_or_default();
        listed.sort_by(compare_for_listing);
        Ok(listed)
    }

    async fn delete(&self, tool_name: &str, id: &str) -> Result<bool> {
        let mut rules = self.rules.lock();
        let name = normalize_tool_name(tool_name);
        let Some(tool) = rules.get_mut(&name) else {
            return Ok(false);
        };
        let existed = tool.remove(id).is_some();
        if tool.is_empty() {
            rules.remove(&name);
        }
        Ok(existed)
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        Ok(self
            .rules
            .lock()
            .keys()
            .filter(|name| name.as_str() != UNSCOPED_TOOL)
            .cloned()
            .collect())
    }

    async fn search(
        &self,
        tool_name: &str,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMemoryRule>> {
        Ok(rank_by_keywords(self.list(tool_name).await?, query, limit))
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

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let filter = prompt_tool_filter(tools);
        let eager: Vec<ToolMemoryRule> = self
            .rules
            .lock()
            .iter()
            .filter(|(name, _)| filter.as_ref().is_none_or(|wanted| wanted.contains(*name)))
            .flat_map(|(_, tool)| tool.values())
            .filter(|rule| rule.priority.is_eager())
            .cloned()
            .collect();
        Ok(select_for_prompt(eager, max_rules, 0))
    }
}
