//! The toolmem facade: one [`ActiveMemoryClient`] over a rule store, wiring capture, the pinned
//! prompt section, keyword recall and the agent-facing tools together. RPC and CLI speak to this
//! crate alone.
//!
//! A process sets its client once at start-up with [`set_active_memory_client`] and reads it
//! anywhere with [`active_memory_client`], like the reference's plumbing.

mod agent_tools;
mod backend;
mod client;
mod config;
mod error;
mod family;
mod guard;
mod guard_cache;
mod hook;
mod import;
mod listing;
mod prefetch;
mod turn;

pub use crate::agent_tools::{
    AgentTool, AgentToolSpec, MemoryToolsList, MemoryToolsPut, agent_tools,
};
pub use crate::backend::is_postgres_url;
#[cfg(feature = "sqlite")]
pub use crate::backend::{Durability, Footprint, SqliteOptions, inspect_sqlite};
#[cfg(feature = "postgres")]
pub use crate::backend::{PostgresOptions, PostgresRuleStore, inspect_postgres};
pub use crate::client::{
    ActiveMemoryClient, AfterTurnReport, RulesForPrompt, active_memory_client, preview_capture,
    set_active_memory_client,
};
pub use crate::config::{
    CONFIRM_CAPTURED_EDICTS_ENV, ClientConfig, OBSERVATION_RETIRE_AFTER_ENV,
    OBSERVATION_TTL_DAYS_ENV,
};
pub use crate::error::{Error, Result};
pub use crate::family::{canonical_arguments, tool_family};
pub use crate::hook::{PostTurnHook, TOOL_MEMORY_CAPTURE_HOOK};
pub use crate::import::{ImportLine, ImportOptions, ImportOutcome, ImportReport};
pub use crate::listing::{PageRequest, RulePage};

/// Re-exports so that RPC, CLI and hosts need no direct dependency on the inner crates.
pub use tool_memory_capture::{
    CaptureOutput, ProposedRevocation, ToolCallRecord, TurnRecord, capture_turn,
};
pub use tool_memory_core::{
    HistoryAction, HistoryEntry, Origin, RawJson, RuleMeta, RulePut, Timestamp, ToolFamily,
    ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, ToolStats, UNSCOPED_TOOL,
};
pub use tool_memory_guard::{Constraint, Decision, Verdict};
pub use tool_memory_prompt::{PromptSection, ToolMemoryRulesSection};
pub use tool_memory_store::{
    Inspection, Listing, RuleStore, Services, ToolCounts, ToolRules, UnreadableRow,
};
