//! Claude Code's hooks (and VS Code's agent hooks, which read the same answers). Every payload
//! has `hook_event_name` and `session_id`; toolmem answers four events:
//!
//! - `PreToolUse` (`tool_name`, `tool_input`): deny → `permissionDecision: "deny"` with the
//!   rule and the reason, confirm → `"ask"`, allow → nothing at all, because an `allow` would
//!   skip the user's own permission prompt.
//! - `PostToolUse` (`tool_response`, `duration_ms`) and `PostToolUseFailure` (`error`,
//!   `is_interrupt`): the call's outcome goes to the statistics.
//! - `UserPromptSubmit` (`prompt`): captured as a turn, so a rule said now holds for the very
//!   next tool call.
//! - `SessionStart` (`source`: startup, resume, clear, compact): the pinned block as
//!   `additionalContext`, so rules survive `/compact`.

use serde_json::{Value, json};

use super::Answer;
use super::event::{self, Event, Outcome, optional_str, required_str, tool_input, turn_of};
use active_memory_client::{Decision, ToolCallRecord};

/// Claude Code's main built-in tools, for attributing an edict in a prompt.
const TOOLS: &[&str] = &[
    "Bash",
    "Edit",
    "Glob",
    "Grep",
    "MultiEdit",
    "PowerShell",
    "Read",
    "WebFetch",
    "WebSearch",
    "Write",
];

/// The payload fields that identify a turn when the transcript cannot be read.
const TURN_IDS: &[&str] = &["prompt_id", "tool_use_id"];

pub(super) fn parse(payload: &Value) -> Result<Event, String> {
    parse_with(payload, TOOLS, TURN_IDS)
}

/// Reads a payload in Claude Code's shape (Codex's too), with the agent's tools and turn ids.
pub(super) fn parse_with(
    payload: &Value,
    tools: &[&str],
    turn_ids: &[&str],
) -> Result<Event, String> {
    if !payload.is_object() {
        return Err("the hook input is not a JSON object".to_owned());
    }
    let event_name = required_str(payload, "hook_event_name")?;
    let session = optional_str(payload, "session_id").map(str::to_owned);
    Ok(match event_name {
        "PreToolUse" => Event::ToolCall {
            event_name: event_name.to_owned(),
            tool: required_str(payload, "tool_name")?.to_owned(),
            arguments: tool_input(payload, "tool_input")?,
        },
        "PostToolUse" | "PostToolUseFailure" => {
            let (success, summary) = if event_name == "PostToolUseFailure" {
                let interrupted =
                    payload.get("is_interrupt").and_then(Value::as_bool) == Some(true);
                let error = ["error", "error_message"]
                    .iter()
                    .find_map(|field| payload.get(*field).filter(|error| !error.is_null()))
                    .cloned()
                    .unwrap_or_else(|| {
                        Value::from(if interrupted {
                            "interrupted by the user"
                        } else {
                            "failed"
                        })
                    });
                event::outcome_of(&json!({ "error": error, "success": false }))
            } else {
                event::outcome_of(payload.get("tool_response").unwrap_or(&Value::Null))
            };
            Event::ToolResult {
                session,
                turn: turn_of(payload, turn_ids),
                call: ToolCallRecord {
                    name: required_str(payload, "tool_name")?.to_owned(),
                    arguments: tool_input(payload, "tool_input")?,
                    success,
                    output_summary: summary,
                    duration_ms: payload
                        .get("duration_ms")
                        .and_then(Value::as_u64)
                        .unwrap_or_default(),
                },
            }
        }
        "UserPromptSubmit" => Event::Prompt {
            session,
            turn: turn_of(payload, turn_ids),
            prompt: match payload.get("prompt") {
                Some(Value::String(prompt)) => prompt.clone(),
                Some(_) => return Err("`prompt` is not a string".to_owned()),
                None => return Err("`prompt` is missing".to_owned()),
            },
            available_tools: tools.iter().map(|tool| (*tool).to_owned()).collect(),
        },
        "SessionStart" => Event::SessionStart {
            event_name: event_name.to_owned(),
        },
        _ => Event::Other,
    })
}

pub(super) fn answer(event: &Event, outcome: &Outcome) -> Answer {
    answer_with(event, outcome, "ask")
}

/// Answers in Claude Code's `hookSpecificOutput` format; a confirm becomes `confirm_as`
/// (`ask`, or `deny` for an agent that cannot ask).
pub(super) fn answer_with(event: &Event, outcome: &Outcome, confirm_as: &str) -> Answer {
    match (event, outcome) {
        (Event::ToolCall { event_name, .. }, Outcome::Verdict(verdict)) => {
            let decision = match verdict.decision {
                Decision::Allow => return Answer::silent(),
                Decision::Deny => "deny",
                Decision::Confirm => confirm_as,
            };
            let reason = if decision == "deny" && verdict.decision == Decision::Confirm {
                event::cannot_ask(verdict)
            } else {
                event::reason(verdict)
            };
            Answer::json(&json!({
                "hookSpecificOutput": {
                    "hookEventName": event_name,
                    "permissionDecision": decision,
                    "permissionDecisionReason": reason,
                }
            }))
        }
        (Event::SessionStart { event_name }, Outcome::Context(Some(context))) => {
            Answer::json(&json!({
                "hookSpecificOutput": {
                    "hookEventName": event_name,
                    "additionalContext": context,
                }
            }))
        }
        _ => Answer::silent(),
    }
}
