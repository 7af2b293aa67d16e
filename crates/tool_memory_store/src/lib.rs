//! Durable storage for tool-scoped rules.
//!
//! [`RuleStore`] is the contract every backend meets; [`SqliteRuleStore`] is the embedded
//! default, [`InMemoryRuleStore`] serves tests and embedders, and [`KvRuleStore`] lays rules
//! out over a host's own namespaced key/value memory exactly as openhuman does
//! (`tool-{name}` / `rule/{id}`). Only this crate knows SQLite.

mod error;
mod kv;
mod memory;
mod sqlite;
mod store;
mod system;

pub use crate::error::{Error, Result};
pub use crate::kv::{
    InMemoryKv, KvBackend, KvEntry, KvRuleStore, NamespaceSummary, TOOL_MEMORY_CATEGORY,
};
pub use crate::memory::InMemoryRuleStore;
pub use crate::sqlite::{Durability, SqliteOptions, SqliteRuleStore};
pub use crate::store::{
    Inspection, Listing, PromptSelection, RuleChange, RuleStore, Services, ToolRules, Unreadable,
    UnreadableRow,
};
pub use crate::system::{SystemClock, UuidIds};

#[cfg(feature = "conformance")]
pub mod conformance;

/// Rule-handling steps every backend shares, so a backend in another crate (PostgreSQL)
/// orders, filters and records exactly as the ones here do.
pub mod backend {
    pub use crate::store::{
        StoredRow, active_at, count_readable, history_from_columns, keep_readable, keywords,
        mark_confirmed, mark_restored, mark_revoked, not_readable, prompt_tool_filter,
        rank_by_keywords, rule_from_columns, select_for_prompt, unknown_value,
    };
}
