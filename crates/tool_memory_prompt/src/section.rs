//! The prompt section a host pins into its system prompt: rendered once, then the same bytes
//! for the whole session.
//!
//! The system prompt is the cached prefix of every inference call, so the block must not
//! change mid-session; rules captured during a session reach the prompt in the next one (the
//! enforcement guard applies them at once).

use tool_memory_core::ToolMemoryRule;

use crate::render::{DEFAULT_PROMPT_BUDGET_BYTES, PromptReport, UnreadableRule, render_block};

/// Name the tool-memory section answers to in a host's prompt builder.
pub const TOOL_MEMORY_SECTION_NAME: &str = "tool_memory_rules";

/// One named part of a system prompt, as a host prompt builder holds it.
pub trait PromptSection {
    /// A stable identifier, used to place and find the section.
    fn name(&self) -> &str;

    /// The section's text. Sections that must stay byte-stable return the same bytes on every
    /// call.
    fn render(&self) -> String;
}

/// The `## Tool-scoped rules` block for one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolMemoryRulesSection {
    report: PromptReport,
}

impl ToolMemoryRulesSection {
    /// Renders `rules` within [`DEFAULT_PROMPT_BUDGET_BYTES`].
    pub fn new(rules: &[ToolMemoryRule]) -> ToolMemoryRulesSection {
        ToolMemoryRulesSection::with_budget(rules, DEFAULT_PROMPT_BUDGET_BYTES)
    }

    /// Renders `rules` within `budget_bytes`.
    pub fn with_budget(rules: &[ToolMemoryRule], budget_bytes: usize) -> ToolMemoryRulesSection {
        ToolMemoryRulesSection::with_unreadable(rules, &[], budget_bytes)
    }

    /// Renders `rules` within `budget_bytes`, with a line in the place of each stored rule
    /// that could not be read (see [`crate::render_block`]).
    pub fn with_unreadable(
        rules: &[ToolMemoryRule],
        unreadable: &[UnreadableRule],
        budget_bytes: usize,
    ) -> ToolMemoryRulesSection {
        ToolMemoryRulesSection {
            report: render_block(rules, unreadable, budget_bytes),
        }
    }

    /// A section that renders nothing.
    pub fn empty() -> ToolMemoryRulesSection {
        ToolMemoryRulesSection::new(&[])
    }

    /// The block rendered at construction.
    pub fn rendered(&self) -> &str {
        &self.report.rendered
    }

    /// What went into the block and what was left out.
    pub fn report(&self) -> &PromptReport {
        &self.report
    }

    /// Whether there is nothing to pin; a host then leaves the section out.
    pub fn is_empty(&self) -> bool {
        self.report.rendered.trim().is_empty()
    }
}

impl Default for ToolMemoryRulesSection {
    fn default() -> ToolMemoryRulesSection {
        ToolMemoryRulesSection::empty()
    }
}

impl PromptSection for ToolMemoryRulesSection {
    fn name(&self) -> &str {
        TOOL_MEMORY_SECTION_NAME
    }

    fn render(&self) -> String {
        self.report.rendered.clone()
    }
}
