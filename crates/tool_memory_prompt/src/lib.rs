//! The pinned `## Tool-scoped rules` system-prompt block: rendering, and the session section
//! that holds it. Gathering its rules at session start is the facade's (it owns the store, the
//! threads and the timeouts).
//!
//! Rendering is a pure function of the set of rules and a byte budget: no clock, no IO, no
//! storage. Ordinary rules render byte-for-byte as the reference renderer (V2) renders them;
//! rule bodies and tool names are data and are neutralised so they cannot forge a heading,
//! a bullet or a priority marker; critical rules are never left out; anything that does not
//! fit the budget is announced in the block and listed in the [`PromptReport`]; a stored rule
//! that could not be read gets a line in its place ([`render_block`]). The format is
//! documented in `docs/prompt.md`.

mod neutralize;
mod render;
mod section;

pub use crate::render::{
    DEFAULT_PROMPT_BUDGET_BYTES, PromptReport, TOOL_MEMORY_HEADING, TOOL_MEMORY_PREAMBLE,
    UNSCOPED_GROUP_HEADING, UnreadableRule, render_block, render_prompt, render_rules,
};
pub use crate::section::{PromptSection, TOOL_MEMORY_SECTION_NAME, ToolMemoryRulesSection};
