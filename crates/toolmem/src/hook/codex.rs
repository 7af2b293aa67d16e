//! Codex CLI's hooks: Claude Code's payloads and answers (`hookSpecificOutput` with
//! `permissionDecision`), with one difference that matters. Codex rejects `ask` as unsupported
//! and runs the call, so a confirm is answered `deny`, with a reason telling the model to ask
//! the user. Shell calls carry `{"command": ["bash", "-lc", "..."]}`, which the facade reads as
//! the command line it runs. A turn is numbered from `turn_id`.

use serde_json::Value;

use super::Answer;
use super::claude_code;
use super::event::{Event, Outcome};

/// Codex's built-in tools, for attributing an edict in a prompt.
const TOOLS: &[&str] = &["apply_patch", "shell", "web_search"];

pub(super) fn parse(payload: &Value) -> Result<Event, String> {
    claude_code::parse_with(payload, TOOLS, &["turn_id", "tool_use_id"])
}

pub(super) fn answer(event: &Event, outcome: &Outcome) -> Answer {
    claude_code::answer_with(event, outcome, "deny")
}
