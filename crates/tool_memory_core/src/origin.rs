//! `Origin`: who or what asked for a change. Every write carries one (`RulePut::origin`) and
//! every history line records it; a module of its own so that the rule and the history both
//! use it without using each other.

use serde::{Deserialize, Serialize};

/// Who or what asked for a change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// A user's own words, captured from a turn.
    UserEdict {
        /// The host's session id, if it gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_id: Option<String>,
        /// The turn within the session, if the host numbers them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<u64>,
    },
    /// Observed after a turn (repeated failures).
    Capture {
        /// The host's session id, if it gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session_id: Option<String>,
        /// The turn within the session, if the host numbers them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<u64>,
    },
    /// A JSON-RPC call.
    Rpc {
        /// The method called.
        method: String,
    },
    /// The command line.
    Cli,
    /// The expiry of an observation.
    Expiry,
    /// A guard decision on a tool call.
    Guard,
    /// A program using the library directly.
    #[default]
    Api,
}
