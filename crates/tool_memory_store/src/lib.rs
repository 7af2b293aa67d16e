//! Durable storage for tool-scoped rules.
//!
//! [`RuleStore`] is the contract every backend meets, and [`conformance`] (feature
//! `conformance`) the suite each runs. [`InMemoryRuleStore`] serves tests and embedders, and
//! [`KvRuleStore`] lays rules out over a host's own namespaced key/value memory exactly as
//! openhuman does (`tool-{name}` / `rule/{id}`). The database backends live in crates of
//! their own (`tool_memory_store_sqlite`, the embedded default, and
//! `tool_memory_store_postgres`), so this crate, and its error type, name no database.

mod counts;
mod error;
mod kv;
mod memory;
mod plan;
mod store;
mod system;
mod turn;

pub use crate::counts::ToolCounts;
pub use crate::error::{Error, Result};
pub use crate::kv::{
    InMemoryKv, KvBackend, KvEntry, KvRuleStore, NamespaceSummary, TOOL_MEMORY_CATEGORY,
};
pub use crate::memory::InMemoryRuleStore;
pub use crate::store::{
    Inspection, Listing, PromptSelection, RuleChange, RuleStore, Services, ToolRules, Unreadable,
    UnreadableRow,
};
pub use crate::system::{SystemClock, UuidIds};
pub use crate::turn::{
    RuleOutcome, TurnChanges, TurnKey, TurnOutcome, TurnRevocation, TurnRule, TurnRuleKind,
};

#[cfg(feature = "conformance")]
pub mod conformance;

/// Rule-handling steps every backend shares, so a backend in another crate (PostgreSQL)
/// orders, filters and records exactly as the ones here do.
pub mod backend {
    pub use crate::plan::{TurnPlan, TurnSnapshot, TurnWrite, observation_retires, plan_turn};
    pub use crate::store::{
        RuleColumns, StoredRow, WrongForm, active_at, count_readable, history_from_columns,
        keep_readable, keywords, mark_confirmed, mark_restored, mark_revoked, not_readable,
        prompt_tool_filter, rank_by_keywords, rule_from_row, select_for_prompt, unknown_value,
    };
    pub use crate::turn::TurnReads;
}
