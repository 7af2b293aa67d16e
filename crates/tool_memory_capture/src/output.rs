//! What capture proposes: rules for the store and statistics for the statistics namespace,
//! kept in two lists because statistics never mix with rules.

use serde::{Deserialize, Serialize};
use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemorySource};

use crate::FailureClass;

/// Tag on every rule captured from a user edict.
pub const EDICT_TAG: &str = "user-edict";
/// Tag on every repeated-failure observation.
pub const REPEATED_FAILURE_TAG: &str = "repeated-failure";
/// Longest edict rule text, in characters; longer sentences are cut at a char boundary.
pub const MAX_EDICT_CHARS: usize = 240;

/// Everything one turn proposes. Field names are part of the wire contract.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CaptureOutput {
    /// Rule upserts: edicts first, in message order, then failure observations by tool name.
    pub rules: Vec<ProposedRule>,
    /// One statistics delta per tool that was called, sorted by tool name.
    pub stats: Vec<StatsDelta>,
}

impl CaptureOutput {
    /// Whether the turn proposes nothing at all.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.stats.is_empty()
    }
}

/// A rule to upsert. The facade uses `identity_key` as the rule id, so a repeated edict
/// refreshes one rule instead of adding a copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposedRule {
    /// The normalised tool name (or `__unscoped__`).
    pub tool_name: String,
    /// The rule text: the user's own sentence for an edict, fixed wording for a failure.
    pub rule: String,
    /// `critical` for edicts, `normal` for failure observations.
    pub priority: ToolMemoryPriority,
    /// `user_explicit` for edicts, `post_turn` for failure observations.
    pub source: ToolMemorySource,
    /// `["user-edict"]` or `["repeated-failure"]`.
    pub tags: Vec<String>,
    /// Deterministic id: `edict-<16 hex>` or `failure-<16 hex>`.
    pub identity_key: String,
}

/// Call statistics of one tool in one turn, for the `tool_effectiveness/tool/{name}` namespace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsDelta {
    /// The normalised tool name.
    pub tool_name: String,
    /// Calls in the turn.
    pub calls: u64,
    /// Successful calls.
    pub successes: u64,
    /// Failed calls.
    pub failures: u64,
    /// The class of the last failure in call order, if any call failed.
    pub last_failure_class: Option<FailureClass>,
    /// The `now` the turn was captured at.
    pub last_seen: Timestamp,
}
