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
pub use crate::store::{PromptSelection, RuleStore, Services};
pub use crate::system::{SystemClock, UuidIds};
