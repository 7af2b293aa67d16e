//! The rule model shared by every toolmem crate: records, enums, names, validation and errors,
//! and the small text helpers more than one crate needs (the words of a name, JSON lines, the
//! markdown rules are written in, the families of agents' tools).
//!
//! This crate does no IO and never reads the clock or a random source; callers pass time and
//! ids in (see [`Clock`] and [`IdSource`]). That keeps capture, rendering and the guard pure and
//! their tests deterministic.

mod clock;
mod error;
mod family;
mod history;
mod json_lines;
pub mod markdown;
mod names;
mod origin;
mod raw_json;
mod rule;
mod stats;
mod time;
mod words;

pub use crate::clock::{Clock, IdSource, ManualClock, SequentialIds};
pub use crate::error::{Error, Result};
pub use crate::family::{ToolFamily, mcp_key, mcp_tool_part};
pub use crate::history::{HistoryAction, HistoryEntry, HistoryEvent};
pub use crate::json_lines::parse_json_lines;
pub use crate::names::{
    MAX_ID_CHARS, MAX_RULE_CHARS, MAX_TAG_CHARS, MAX_TAGS, MAX_TOOL_NAME_CHARS, RULE_KEY_PREFIX,
    STATS_NAMESPACE_PREFIX, TOOL_NAMESPACE_PREFIX, UNSCOPED_TOOL, normalize_tool_name,
    stats_namespace, storage_key, tool_memory_namespace, validate_id, validate_rule_body,
    validate_tags, validate_tool_name,
};
pub use crate::origin::Origin;
pub use crate::raw_json::RawJson;
pub use crate::rule::{
    MATERIAL_TAG, RuleMeta, RulePut, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource,
    compare_for_listing,
};
pub use crate::stats::ToolStats;
pub use crate::time::Timestamp;
pub use crate::words::split_words;
