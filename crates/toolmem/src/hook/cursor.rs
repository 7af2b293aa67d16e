//! Cursor's hooks (`.cursor/hooks.json`). Every payload has `hook_event_name` (camel case) and
//! `conversation_id`; the answer to a call is `{"permission": "allow"|"deny"|"ask",
//! "user_message", "agent_message"}`. That format comes from third-party adapters and type
//! packages only, so it is unconfirmed; so is `additional_context` at `sessionStart`.
//!
//! - `beforeShellExecution` (`command`) is checked as Cursor's shell, `run_terminal_cmd`;
//!   `beforeMCPExecution` and `preToolUse` (`tool_name`, `tool_input`: an object or a JSON
//!   string) as the named tool (`preToolUse` names Cursor's own tools `Shell`, `Read`, `Write`,
//!   `Grep`, `WebFetch`, `Task`, ... and MCP tools `MCP:<tool>`; `beforeMCPExecution` names an
//!   MCP tool without its server or prefix, and is read as `MCP:<tool>`: the facade checks that
//!   as every stored `mcp__<server>__<tool>`, the strictest answer winning); `beforeReadFile`
//!   (`file_path`, `content`) as Cursor's `read_file` of that path (the file's content is not
//!   the call's argument: a rule is about which files, not about what they say).
//! - A confirm is `ask` before a shell or MCP call. At `preToolUse`, where `ask` reportedly shows
//!   no prompt and the call would run, and at `beforeReadFile`, whose answer has no `ask`, it is
//!   `deny`, with a reason telling the model to ask the user. The `preToolUse` answer also
//!   carries `decision` and `reason`, the form one of the type packages gives for that event.
//! - `beforeSubmitPrompt` (`prompt`) captures the prompt; `postToolUse`, `postToolUseFailure`,
//!   `afterShellExecution`, `afterMCPExecution` and `afterFileEdit` record the outcome.
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

/// Cursor's file reading tool, which `beforeReadFile` is about.
const READ_TOOL: &str = "read_file";

/// Cursor's file editing tool, which `afterFileEdit` reports on.
const EDIT_TOOL: &str = "edit_file";

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
        let (success, output_summary) = event::outcome_of(&parsed_if_json(response));
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
    let call = |tool: &str, arguments: Value| Event::ToolCall {
        event_name: event_name.to_owned(),
        tool: tool.to_owned(),
        arguments,
    };
    Ok(match event_name {
        "beforeShellExecution" => call(
            SHELL_TOOL,
            json!({ "command": required_str(payload, "command")? }),
        ),
        // `beforeMCPExecution` names an MCP tool without its server (`delete_issue`), as
        // `preToolUse` does with a prefix (`MCP:delete_issue`): the facade checks such a name
        // as every stored tool of that own name (`mcp__linear__delete_issue`).
        "beforeMCPExecution" => {
            let tool = required_str(payload, "tool_name")?;
            let named = if tool
                .get(..4)
                .is_some_and(|prefix| prefix.eq_ignore_ascii_case("mcp:"))
            {
                tool.to_owned()
            } else {
                format!("MCP:{tool}")
            };
            call(&named, tool_input(payload, "tool_input")?)
        }
        "preToolUse" => call(
            required_str(payload, "tool_name")?,
            tool_input(payload, "tool_input")?,
        ),
        "beforeReadFile" => call(
            READ_TOOL,
            json!({ "file_path": required_str(payload, "file_path")? }),
        ),
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
        "postToolUseFailure" => {
            let error = optional_str(payload, "error_message")
                .or_else(|| optional_str(payload, "failure_type"))
                .unwrap_or("failed");
            result(
                required_str(payload, "tool_name")?.to_owned(),
                tool_input(payload, "tool_input")?,
                &json!({ "error": error }),
            )
        }
        "afterFileEdit" => result(
            EDIT_TOOL.to_owned(),
            json!({ "file_path": required_str(payload, "file_path")? }),
            &Value::Null,
        ),
        "beforeSubmitPrompt" => Event::Prompt {
            session,
            turn: turn_of(payload, TURN_IDS),
            prompt: match payload.get("prompt") {
                Some(Value::String(prompt)) => prompt.clone(),
                Some(_) => return Err("`prompt` is not a string".to_owned()),
                None => return Err("`prompt` is missing".to_owned()),
            },
            available_tools: TOOLS.iter().map(|tool| (*tool).to_owned()).collect(),
        },
        "sessionStart" => Event::SessionStart {
            event_name: event_name.to_owned(),
        },
        _ => Event::Other,
    })
}

/// A tool's output as Cursor reports it: `result_json` and `tool_output` are strings, which hold
/// the MCP result's JSON (with its `isError`) when there is one.
fn parsed_if_json(response: &Value) -> Value {
    match response {
        Value::String(text) if text.trim_start().starts_with('{') => {
            serde_json::from_str(text).unwrap_or_else(|_| response.clone())
        }
        other => other.clone(),
    }
}

pub(super) fn answer(event: &Event, outcome: &Outcome) -> Answer {
    match (event, outcome) {
        (Event::ToolCall { event_name, .. }, Outcome::Verdict(verdict)) => {
            // Where Cursor cannot ask (see the module documentation), a confirm is refused.
            let can_ask = !matches!(event_name.as_str(), "preToolUse" | "beforeReadFile");
            let (permission, reason) = match verdict.decision {
                Decision::Allow => return Answer::silent(),
                Decision::Deny => ("deny", event::reason(verdict)),
                Decision::Confirm if can_ask => ("ask", event::reason(verdict)),
                Decision::Confirm => ("deny", event::cannot_ask(verdict)),
            };
            let mut answer = json!({
                "permission": permission,
                "user_message": reason,
                "agent_message": reason,
            });
            if event_name == "preToolUse" {
                answer["decision"] = Value::from(permission);
                answer["reason"] = Value::from(reason);
            }
            Answer::json(&answer)
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
    match event {
        Some(Event::ToolCall { event_name, .. }) if event_name == "preToolUse" => {
            answer["decision"] = Value::from("deny");
            answer["reason"] = Value::from(reason);
        }
        Some(Event::ToolCall { .. }) => {}
        // A prompt (or an event not read) is stopped too.
        _ => answer["continue"] = Value::Bool(false),
    }
    let mut answer = Answer::json(&answer);
    answer.stderr = format!("{reason}\n");
    answer
}
