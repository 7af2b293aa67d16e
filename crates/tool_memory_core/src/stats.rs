//! Per-tool call statistics, kept in the `tool_effectiveness/tool/{name}` namespace and never
//! mixed with rules: they record what happened, rules record what to do about it.

use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Call counts of one tool: a turn's delta when capture proposes it, running totals when a
/// store returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolStats {
    /// The normalised tool name.
    pub tool_name: String,
    /// Calls.
    pub calls: u64,
    /// Successful calls.
    pub successes: u64,
    /// Failed calls.
    pub failures: u64,
    /// The class of the most recent failure (`timeout`, `not_found`, ...), if any.
    pub last_failure_class: Option<String>,
    /// When the tool was last seen in a turn.
    pub last_seen: Option<Timestamp>,
}

impl ToolStats {
    /// Zero counts for a tool.
    pub fn empty(tool_name: impl Into<String>) -> ToolStats {
        ToolStats {
            tool_name: tool_name.into(),
            calls: 0,
            successes: 0,
            failures: 0,
            last_failure_class: None,
            last_seen: None,
        }
    }

    /// Adds a delta to these totals. The newest failure class and sighting win; a delta with
    /// no failure keeps the last known class.
    pub fn add(&mut self, delta: &ToolStats) {
        self.calls = self.calls.saturating_add(delta.calls);
        self.successes = self.successes.saturating_add(delta.successes);
        self.failures = self.failures.saturating_add(delta.failures);
        if delta.last_failure_class.is_some() {
            self.last_failure_class
                .clone_from(&delta.last_failure_class);
        }
        self.last_seen = self.last_seen.max(delta.last_seen);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_keeps_the_latest_class_and_sighting() {
        let at = |text: &str| Some(Timestamp::parse(text).unwrap());
        let mut totals = ToolStats::empty("shell");
        let mut delta = ToolStats::empty("shell");
        delta.calls = 3;
        delta.failures = 2;
        delta.successes = 1;
        delta.last_failure_class = Some("timeout".into());
        delta.last_seen = at("2026-01-02T00:00:00Z");
        totals.add(&delta);
        let mut quiet = ToolStats::empty("shell");
        quiet.calls = 1;
        quiet.successes = 1;
        quiet.last_seen = at("2026-01-01T00:00:00Z");
        totals.add(&quiet);
        assert_eq!((totals.calls, totals.successes, totals.failures), (4, 2, 2));
        assert_eq!(totals.last_failure_class.as_deref(), Some("timeout"));
        assert_eq!(totals.last_seen, at("2026-01-02T00:00:00Z"));
    }
}
