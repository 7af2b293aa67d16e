//! Codex CLI's hooks: Claude Code's payloads and answers (`hookSpecificOutput` with
//! `permissionDecision`), with one difference that matters. Codex rejects `ask` as unsupported
//! and runs the call, so a confirm is answered `deny`, with a reason telling the model to ask
//! the user. Codex's hook engine (`codex-rs/hooks`) names every shell-like tool `Bash` with
//! `{"command": "<command line>"}`, a patch `apply_patch` with `{"command": "<patch>"}`, and an
//! MCP tool by its qualified name with its arguments; an older shape, the shell's own
//! `{"command": ["bash", "-lc", "..."]}`, is read as the command line it runs. A turn is
//! numbered from `turn_id`.

use serde_json::Value;

use super::Answer;
use super::claude_code;
use super::event::{Event, Outcome};

/// Codex's built-in tools, for attributing an edict in a prompt, by the names its hooks give
/// them (`Bash` for every shell-like tool).
const TOOLS: &[&str] = &["Bash", "apply_patch", "web_search"];

pub(super) fn parse(payload: &Value) -> Result<Event, String> {
    claude_code::parse_with(payload, TOOLS, &["turn_id", "tool_use_id"])
}

pub(super) fn answer(event: &Event, outcome: &Outcome) -> Answer {
    claude_code::answer_with(event, outcome, "deny")
}
