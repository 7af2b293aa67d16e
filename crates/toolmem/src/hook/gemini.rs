//! Gemini CLI's hooks. `BeforeTool` (`tool_name`, `tool_input`) is answered
//! `{"decision":"deny","reason":...}` on a deny, and on a confirm too: whether Gemini CLI
//! honours an `ask` decision could not be confirmed, and a confirm must never run unasked.
//! `AfterTool` (`tool_response`) records the outcome, `BeforeAgent` (`prompt`) captures the
//! prompt as a turn, and `SessionStart` gets the pinned block as
//! `hookSpecificOutput.additionalContext`. Its shell is `run_shell_command {"command"}`; MCP
//! tools are `mcp__server__tool`, as in Claude Code.

use active_memory_client::{Decision, ToolCallRecord};
use serde_json::{Value, json};

use super::Answer;
use super::event::{self, Event, Outcome, optional_str, required_str, tool_input, turn_of};

/// Gemini CLI's main built-in tools, for attributing an edict in a prompt.
const TOOLS: &[&str] = &[
    "glob",
    "google_web_search",
    "grep_search",
    "list_directory",
    "read_file",
    "read_many_files",
    "replace",
    "run_shell_command",
    "web_fetch",
    "write_file",
];

pub(super) fn parse(payload: &Value) -> Result<Event, String> {
    if !payload.is_object() {
        return Err("the hook input is not a JSON object".to_owned());
    }
    let event_name = required_str(payload, "hook_event_name")?;
    let session = optional_str(payload, "session_id").map(str::to_owned);
    let turn_ids = &["prompt_id", "timestamp"];
    Ok(match event_name {
        "BeforeTool" => Event::ToolCall {
            event_name: event_name.to_owned(),
            tool: required_str(payload, "tool_name")?.to_owned(),
            arguments: tool_input(payload, "tool_input")?,
        },
        "AfterTool" => {
            let (success, output_summary) =
                event::outcome_of(payload.get("tool_response").unwrap_or(&Value::Null));
            Event::ToolResult {
                session,
                turn: turn_of(payload, turn_ids),
                call: ToolCallRecord {
                    name: required_str(payload, "tool_name")?.to_owned(),
                    arguments: tool_input(payload, "tool_input")?,
                    success,
                    output_summary,
                    duration_ms: 0,
                },
            }
        }
        "BeforeAgent" => Event::Prompt {
            session,
            turn: turn_of(payload, turn_ids),
            prompt: required_str(payload, "prompt")?.to_owned(),
            available_tools: TOOLS.iter().map(|tool| (*tool).to_owned()).collect(),
        },
        "SessionStart" => Event::SessionStart {
            event_name: event_name.to_owned(),
        },
        _ => Event::Other,
    })
}

pub(super) fn answer(event: &Event, outcome: &Outcome) -> Answer {
    match (event, outcome) {
        (Event::ToolCall { .. }, Outcome::Verdict(verdict)) => match verdict.decision {
            Decision::Allow => Answer::silent(),
            Decision::Deny => Answer::json(&json!({
                "decision": "deny",
                "reason": event::reason(verdict),
            })),
            Decision::Confirm => Answer::json(&json!({
                "decision": "deny",
                "reason": event::cannot_ask(verdict),
            })),
        },
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
