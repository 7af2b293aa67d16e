//! Cursor's hooks (`.cursor/hooks.json`). Every payload has `hook_event_name` (camel case) and
//! `conversation_id`; the answer to a call is `{"permission": "allow"|"deny"|"ask",
//! "user_message", "agent_message"}`. That format comes from third-party adapters only, so it
//! is unconfirmed; so is `additional_context` at `sessionStart`.
//!
//! - `beforeShellExecution` (`command`) is checked as Cursor's shell, `run_terminal_cmd`;
//!   `beforeMCPExecution` and `preToolUse` (`tool_name`, `tool_input`) as the named tool.
//! - A confirm is `ask` before a shell or MCP call, but `deny` at `preToolUse`, where `ask`
//!   reportedly shows no prompt and the call would run.
//! - `beforeSubmitPrompt` (`prompt`) captures the prompt; `postToolUse`,
//!   `afterShellExecution` and `afterMCPExecution` record the outcome.
//! - An allow prints nothing, so Cursor's own approval settings still apply.
//! - Failing closed is a `deny` on stdout with exit 0 (and `continue: false` for a prompt),
//!   because what Cursor does with a hook's non-zero exit is unconfirmed.

use active_memory_client::{Decision, ToolCallRecord};
use serde_json::{Value, json};

use super::Answer;
use super::event::{self, Event, Outcome, optional_str, required_str, tool_input, turn_of};

/// Cursor's main built-in tools, for attributing an edict in a prompt.
const TOOLS: &[&str] = &[
    "codebase_search",
    "delete_file",
    "edit_file",
    "file_search",
    "grep_search",
    "list_dir",
    "read_file",
    "run_terminal_cmd",
    "search_replace",
    "web_search",
];

/// Cursor's shell tool, which `beforeShellExecution` is about.
const SHELL_TOOL: &str = "run_terminal_cmd";

const TURN_IDS: &[&str] = &["generation_id", "conversation_id"];

pub(super) fn parse(payload: &Value) -> Result<Event, String> {
    if !payload.is_object() {
        return Err("the hook input is not a JSON object".to_owned());
    }
    let event_name = required_str(payload, "hook_event_name")?;
    let session = optional_str(payload, "conversation_id")
        .or_else(|| optional_str(payload, "session_id"))
        .map(str::to_owned);
    let result = |name: String, arguments: Value, response: &Value| {
        let (success, output_summary) = event::outcome_of(response);
        Event::ToolResult {
            session: session.clone(),
            turn: turn_of(payload, TURN_IDS),
            call: ToolCallRecord {
                name,
                arguments,
                success,
                output_summary,
                duration_ms: payload
                    .get("duration")
                    .and_then(Value::as_u64)
                    .unwrap_or_default(),
            },
        }
    };
    Ok(match event_name {
        "beforeShellExecution" => Event::ToolCall {
            event_name: event_name.to_owned(),
            tool: SHELL_TOOL.to_owned(),
            arguments: json!({ "command": required_str(payload, "command")? }),
        },
        "beforeMCPExecution" | "preToolUse" => Event::ToolCall {
            event_name: event_name.to_owned(),
            tool: required_str(payload, "tool_name")?.to_owned(),
            arguments: tool_input(payload, "tool_input")?,
        },
        "afterShellExecution" => result(
            SHELL_TOOL.to_owned(),
            json!({ "command": required_str(payload, "command")? }),
            payload,
        ),
        "afterMCPExecution" | "postToolUse" => result(
            required_str(payload, "tool_name")?.to_owned(),
            tool_input(payload, "tool_input")?,
            payload
                .get("result_json")
                .or_else(|| payload.get("tool_output"))
                .unwrap_or(&Value::Null),
        ),
        "beforeSubmitPrompt" => Event::Prompt {
            session,
            turn: turn_of(payload, TURN_IDS),
            prompt: required_str(payload, "prompt")?.to_owned(),
            available_tools: TOOLS.iter().map(|tool| (*tool).to_owned()).collect(),
        },
        "sessionStart" => Event::SessionStart {
            event_name: event_name.to_owned(),
        },
        _ => Event::Other,
    })
}

pub(super) fn answer(event: &Event, outcome: &Outcome) -> Answer {
    match (event, outcome) {
        (Event::ToolCall { event_name, .. }, Outcome::Verdict(verdict)) => {
            let permission = match verdict.decision {
                Decision::Allow => return Answer::silent(),
                Decision::Deny => "deny",
                Decision::Confirm if event_name == "preToolUse" => "deny",
                Decision::Confirm => "ask",
            };
            let reason = event::reason(verdict);
            Answer::json(&json!({
                "permission": permission,
                "user_message": reason,
                "agent_message": reason,
            }))
        }
        (Event::SessionStart { .. }, Outcome::Context(Some(context))) => {
            Answer::json(&json!({ "additional_context": context }))
        }
        _ => Answer::silent(),
    }
}

/// Cursor's refusal when toolmem cannot decide: a deny on stdout, the reason on stderr too.
pub(super) fn fail_closed(event: Option<&Event>, reason: &str) -> Answer {
    let mut answer = json!({
        "permission": "deny",
        "user_message": reason,
        "agent_message": reason,
    });
    if !matches!(event, Some(Event::ToolCall { .. })) {
        // A prompt (or an event not read) is stopped too.
        answer["continue"] = Value::Bool(false);
    }
    let mut answer = Answer::json(&answer);
    answer.stderr = format!("{reason}\n");
    answer
}
