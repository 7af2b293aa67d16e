//! The turn record: what the host tells capture about one finished turn.
//!
//! Reading is lenient, because hosts add fields over time (the reference's `TurnContext` grew
//! `agent_id` and `entrypoint`): unknown keys are ignored and optional fields default. Two keys
//! are required on purpose. `user_message` is required because a host that misnames it (say
//! `message`) would otherwise silently capture nothing, forever; an empty string is fine. A
//! tool call's `name` and `success` are required because a call whose outcome is unknown must
//! not be counted as a success or a failure.

use serde::{Deserialize, Serialize};

/// One finished turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The raw user text of the turn. Required on read; may be empty.
    pub user_message: String,
    /// The tool calls of the turn, in call order. Defaults to none.
    #[serde(default)]
    pub tool_calls: Vec<ToolCallRecord>,
    /// The host's session id, if any. Capture does not use it: rules are never session-scoped.
    /// The facade records it, with `turn`, in the history of every rule the turn changes.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The turn's number within the session, if the host counts turns.
    #[serde(default)]
    pub turn: Option<u64>,
    /// The agent's whole tool catalogue, which may be empty. Edicts are attributed against the
    /// tools that ran and these.
    #[serde(default)]
    pub available_tools: Vec<String>,
}

/// One tool call of a turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// The tool's name as the host knows it; capture normalises it.
    pub name: String,
    /// The call's arguments. Capture never reads them.
    #[serde(default)]
    pub arguments: serde_json::Value,
    /// Whether the call succeeded.
    pub success: bool,
    /// The host's summary of the output, ideally already `{tool}: failed ({class})`. Untrusted:
    /// only its failure class ever reaches a rule.
    #[serde(default)]
    pub output_summary: String,
    /// How long the call took.
    #[serde(default)]
    pub duration_ms: u64,
}

impl TurnRecord {
    /// A turn with this message and no tool calls.
    pub fn new(user_message: impl Into<String>) -> TurnRecord {
        TurnRecord {
            user_message: user_message.into(),
            ..TurnRecord::default()
        }
    }
}

impl ToolCallRecord {
    /// A call of `name` with the given outcome and summary.
    pub fn new(
        name: impl Into<String>,
        success: bool,
        output_summary: impl Into<String>,
    ) -> ToolCallRecord {
        ToolCallRecord {
            name: name.into(),
            success,
            output_summary: output_summary.into(),
            ..ToolCallRecord::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_leniently_but_requires_the_message() {
        let turn: TurnRecord = serde_json::from_str(
            r#"{"user_message":"hi","agent_id":"a","tool_calls":[{"name":"shell","success":false,"extra":1}]}"#,
        )
        .unwrap();
        assert_eq!(turn.tool_calls[0].output_summary, "");
        assert_eq!(turn.tool_calls[0].arguments, serde_json::Value::Null);
        assert!(turn.available_tools.is_empty());
        assert!(serde_json::from_str::<TurnRecord>(r#"{"message":"never email Sarah"}"#).is_err());
        assert!(
            serde_json::from_str::<TurnRecord>(
                r#"{"user_message":"x","tool_calls":[{"name":"shell"}]}"#
            )
            .is_err()
        );
    }
}
