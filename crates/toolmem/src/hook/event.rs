//! What a hook payload asks of toolmem, whatever the agent: check a call, record its result,
//! capture a prompt, pin the rules at session start. Each adapter reads its agent's payload
//! into an [`Event`]; [`run`] makes the one facade call it needs. The helpers here read the
//! fields the agents share (session and turn ids, a tool's response).

use active_memory_client::{ActiveMemoryClient, ToolCallRecord, TurnRecord, Verdict};
use serde_json::Value;

/// One hook event, in toolmem's terms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    /// A tool call about to run (Claude Code `PreToolUse`, Gemini CLI `BeforeTool`, Cursor
    /// `beforeShellExecution`, ...): the guard decides.
    ToolCall {
        /// The agent's own event name, echoed in answers that name it.
        event_name: String,
        tool: String,
        arguments: Value,
    },
    /// A tool call that ran: its outcome goes to the statistics (and failure observations).
    ToolResult {
        session: Option<String>,
        turn: Option<u64>,
        call: ToolCallRecord,
    },
    /// The user's prompt: captured as a turn, like `memory.after_turn`.
    Prompt {
        session: Option<String>,
        turn: Option<u64>,
        prompt: String,
        /// The agent's built-in tools, so that an edict is attributed to the right one.
        available_tools: Vec<String>,
    },
    /// A session starts, resumes or was compacted: the pinned block goes back in.
    SessionStart { event_name: String },
    /// An event toolmem has nothing to say about.
    Other,
}

/// What the facade answered.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// The guard's verdict on a tool call.
    Verdict(Verdict),
    /// Context for the model: the pinned block, fitted to the agents' limit; `None` when no
    /// rule is pinned.
    Context(Option<String>),
    /// Recorded; nothing to tell the agent.
    Recorded,
}

/// Makes the facade call an event needs.
pub(crate) async fn run(
    client: &ActiveMemoryClient,
    event: &Event,
) -> active_memory_client::Result<Outcome> {
    match event {
        Event::ToolCall {
            tool, arguments, ..
        } => Ok(Outcome::Verdict(client.check(tool, arguments).await?)),
        Event::ToolResult {
            session,
            turn,
            call,
        } => {
            let turn = TurnRecord {
                user_message: String::new(),
                tool_calls: vec![call.clone()],
                session_id: session.clone(),
                turn: *turn,
                available_tools: Vec::new(),
            };
            client.after_turn(&turn).await?;
            Ok(Outcome::Recorded)
        }
        Event::Prompt {
            session,
            turn,
            prompt,
            available_tools,
        } => {
            let turn = TurnRecord {
                user_message: prompt.clone(),
                tool_calls: Vec::new(),
                session_id: session.clone(),
                turn: *turn,
                available_tools: available_tools.clone(),
            };
            client.after_turn(&turn).await?;
            Ok(Outcome::Recorded)
        }
        Event::SessionStart { .. } => {
            let prompt = client.rules_for_prompt(&[]).await?;
            Ok(Outcome::Context(
                (!prompt.rendered.is_empty()).then(|| super::fit_context(&prompt.rendered)),
            ))
        }
        Event::Other => Ok(Outcome::Recorded),
    }
}

/// The reason an agent shows for a deny or confirm: the guard's reason line, then the rule
/// that decided it, word for word, with its tool and id.
pub(crate) fn reason(verdict: &Verdict) -> String {
    let mut reason = format!("toolmem: {}", verdict.reason);
    if let Some(rule) = verdict.rules.first() {
        let owner = if rule.tool_name == active_memory_client::UNSCOPED_TOOL {
            "every tool".to_owned()
        } else {
            rule.tool_name.clone()
        };
        reason.push_str(&format!(
            ". The rule ({owner}, {}): {}",
            rule.id,
            rule.rule.trim()
        ));
        if verdict.rules.len() > 1 {
            reason.push_str(&format!(" (and {} more)", verdict.rules.len() - 1));
        }
    }
    reason
}

/// The reason given for a confirm where the agent cannot ask the user (Codex, Gemini CLI,
/// Cursor's `preToolUse`): the call is refused, and the model is told to ask instead.
pub(crate) fn cannot_ask(verdict: &Verdict) -> String {
    format!(
        "{} This agent cannot ask the user, so toolmem refuses the call: ask the user, and let them run it.",
        reason(verdict)
    )
}

/// A required string field, or an error naming it.
pub(crate) fn required_str<'a>(payload: &'a Value, field: &str) -> Result<&'a str, String> {
    match payload.get(field) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text),
        Some(Value::String(_)) => Err(format!("`{field}` is empty")),
        Some(_) => Err(format!("`{field}` is not a string")),
        None => Err(format!("`{field}` is missing")),
    }
}

/// An optional string field.
pub(crate) fn optional_str<'a>(payload: &'a Value, field: &str) -> Option<&'a str> {
    payload.get(field).and_then(Value::as_str)
}

/// A tool's input: an object as it is; a string holding JSON (Cursor's MCP calls) parsed;
/// missing as `{}`. Anything else is an error naming the field.
pub(crate) fn tool_input(payload: &Value, field: &str) -> Result<Value, String> {
    match payload.get(field) {
        None | Some(Value::Null) => Ok(Value::Object(Default::default())),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => Ok(value),
            // A plain string is what the tool gets: the guard reads it as one argument.
            _ => Ok(serde_json::json!({ "input": text })),
        },
        Some(value @ Value::Object(_)) => Ok(value.clone()),
        Some(_) => Err(format!("`{field}` is not an object")),
    }
}

/// The turn a payload belongs to, as a number the history can carry. Hooks run as separate
/// processes with no counter of their own, so the number comes from the payload: the length of
/// the session's transcript when the agent names one (it grows with every turn), otherwise a
/// hash of the first id the agent gives (`turn_id`, `generation_id`, ...). Within 2^53, so that
/// it survives any JSON reader.
pub(crate) fn turn_of(payload: &Value, id_fields: &[&str]) -> Option<u64> {
    if let Some(path) = optional_str(payload, "transcript_path")
        && let Ok(metadata) = std::fs::metadata(path)
    {
        return Some(metadata.len() & MAX_SAFE_INTEGER);
    }
    id_fields
        .iter()
        .find_map(|field| optional_str(payload, field))
        .map(|id| fnv1a(id.as_bytes()) & MAX_SAFE_INTEGER)
}

/// The largest integer every JSON reader holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// FNV-1a, 64 bits: a stable hash (the standard library's may change between releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The most characters of a failed call's output kept as its summary. Capture reduces a
/// failure to its class (timeout, not found, ...), which shows in the first line or two.
const FAILURE_SUMMARY_CHARS: usize = 200;

/// Whether a tool's response says it failed, and the text that says how: a `success: false`,
/// `is_error`/`isError: true`, an `error` field (a string, or an object whose `message` says
/// it: Gemini CLI's), a non-zero `exit_code`/`exitCode`, or an `interrupted: true`. A response
/// that says none of these succeeded (a plain string too: nothing in it is a verdict).
pub(crate) fn outcome_of(response: &Value) -> (bool, String) {
    let flag = |key: &str| response.get(key).and_then(Value::as_bool);
    let exit_code = ["exit_code", "exitCode", "returncode"]
        .iter()
        .find_map(|key| response.get(*key).and_then(Value::as_i64));
    let error = response.get("error").filter(|error| !error.is_null());
    let failed = flag("success") == Some(false)
        || flag("is_error") == Some(true)
        || flag("isError") == Some(true)
        || flag("interrupted") == Some(true)
        || error.is_some()
        || exit_code.is_some_and(|code| code != 0);
    if !failed {
        return (true, String::new());
    }
    let text = error
        .map(|error| match error {
            Value::String(text) => text.clone(),
            other => match other.get("message").and_then(Value::as_str) {
                Some(message) => message.to_owned(),
                None => other.to_string(),
            },
        })
        .or_else(|| {
            ["stderr", "output", "content"]
                .iter()
                .find_map(|key| response.get(*key).and_then(Value::as_str))
                .map(str::to_owned)
        })
        .or_else(|| response.as_str().map(str::to_owned))
        .unwrap_or_else(|| "failed".to_owned());
    (false, text.chars().take(FAILURE_SUMMARY_CHARS).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_response_says_how_it_failed() {
        assert_eq!(
            outcome_of(&json!({"stdout": "ok", "stderr": ""})),
            (true, String::new())
        );
        assert_eq!(
            outcome_of(&json!({"success": false, "error": "timed out"})),
            (false, "timed out".to_owned())
        );
        assert_eq!(
            outcome_of(&json!({"exit_code": 1, "stderr": "No such file"})),
            (false, "No such file".to_owned())
        );
        assert!(!outcome_of(&json!({"isError": true, "content": "x"})).0);
        assert!(outcome_of(&json!({"exit_code": 0})).0);
        // Gemini CLI's AfterTool: the error is an object with a message.
        assert_eq!(
            outcome_of(
                &json!({"llmContent": "", "returnDisplay": "", "error": {"message": "File not found: a.rs", "type": "FILE_NOT_FOUND"}})
            ),
            (false, "File not found: a.rs".to_owned())
        );
        assert!(outcome_of(&json!({"llmContent": "ok", "returnDisplay": "ok"})).0);
        assert!(outcome_of(&json!("Success. Updated the following files")).0);
    }

    #[test]
    fn the_turn_comes_from_an_id_when_there_is_no_transcript() {
        let payload = json!({"turn_id": "t-1", "transcript_path": "/nonexistent/x.jsonl"});
        let turn = turn_of(&payload, &["turn_id"]).unwrap();
        assert_eq!(turn, fnv1a(b"t-1") & MAX_SAFE_INTEGER);
        assert_ne!(
            Some(turn),
            turn_of(&json!({"turn_id": "t-2"}), &["turn_id"])
        );
        assert_eq!(turn_of(&json!({}), &["turn_id"]), None);
    }

    #[test]
    fn tool_input_takes_objects_and_json_strings() {
        assert_eq!(tool_input(&json!({}), "tool_input").unwrap(), json!({}));
        assert_eq!(
            tool_input(&json!({"tool_input": "{\"a\":1}"}), "tool_input").unwrap(),
            json!({"a": 1})
        );
        assert!(
            tool_input(&json!({"tool_input": 3}), "tool_input")
                .unwrap_err()
                .contains("tool_input")
        );
    }
}
