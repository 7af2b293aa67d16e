//! The rules of the standard workload, shared by toolmem's rows and the baseline's, so that
//! both store the same rules in the same order (docs/performance.md, "The workload").

use active_memory_client::ToolMemoryPriority;

/// The name of tool `tool`: `tool_000` ...
pub(crate) fn tool_name(tool: usize) -> String {
    format!("tool_{tool:03}")
}

/// The text of rule `index` of tool `tool`, as the issue fixes it.
pub(crate) fn rule_text(tool: usize, index: usize) -> String {
    format!("rule {tool}-{index}: never pass --x{index} when the target is host{tool}.example")
}

/// Rule `index` of tool `tool` is critical when it is the first of every tenth tool (20
/// critical rules of 200 tools), high when it is the second of any tool, normal otherwise.
pub(crate) fn priority(tool: usize, index: usize) -> ToolMemoryPriority {
    if index == 0 && tool.is_multiple_of(10) {
        ToolMemoryPriority::Critical
    } else if index == 1 {
        ToolMemoryPriority::High
    } else {
        ToolMemoryPriority::Normal
    }
}
