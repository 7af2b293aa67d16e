//! What every conformance test is given and returns, and the small helpers the rooms share.

use std::sync::Arc;

use tool_memory_core::{
    HistoryAction, ManualClock, RulePut, Timestamp, ToolMemoryPriority, ToolMemoryRule,
};

use crate::RuleStore;

/// What every conformance test returns.
pub type Result<T> = anyhow::Result<T>;

/// Writes an unreadable row for (tool, id). Its rule text, if it has one, is
/// [`CORRUPT_RULE_TEXT`], and a stored priority, if it has one, [`CORRUPT_PRIORITY`]: neither
/// may appear in a reason.
pub type Corrupt = dyn Fn(&str, &str) + Send + Sync;

/// The text a [`Corrupt`] hook gives the rows it writes, where the row holds text.
pub const CORRUPT_RULE_TEXT: &str = "from the future";

/// The priority a [`Corrupt`] hook gives the rows it writes, where the row holds one: a value
/// no toolmem wrote so far.
pub const CORRUPT_PRIORITY: &str = "urgent";

/// A fresh store plus the hooks the suite needs beyond the trait.
pub struct Harness {
    pub store: Arc<dyn RuleStore>,
    /// The clock the store was built with; tests move it forward.
    pub clock: Arc<ManualClock>,
    /// Writes a row this version cannot read; `None` when the backend cannot hold one.
    pub corrupt: Option<Box<Corrupt>>,
    /// Whatever must live as long as the store (a temporary directory, a schema guard).
    pub keep_alive: Option<Box<dyn std::any::Any + Send + Sync>>,
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

pub(crate) fn ts(text: &str) -> Timestamp {
    Timestamp::parse(text).unwrap()
}

pub(crate) fn put(tool: &str, body: &str, priority: ToolMemoryPriority) -> RulePut {
    RulePut::new(tool, body).with_priority(priority)
}

pub(crate) fn texts(rules: &[ToolMemoryRule]) -> Vec<&str> {
    rules.iter().map(|rule| rule.rule.as_str()).collect()
}

pub(crate) fn actions(history: &[tool_memory_core::HistoryEntry]) -> Vec<HistoryAction> {
    history.iter().map(|entry| entry.action).collect()
}
