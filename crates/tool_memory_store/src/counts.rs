//! How many rules each tool holds, by priority and state: what an overview shows instead of
//! listing every rule.

use tool_memory_core::{ToolMemoryPriority, ToolMemoryRule};

/// One tool's rule counts. Rules that are neither revoked nor proposed are counted by
/// priority; proposed and revoked rules are counted apart, whatever their priority. Rows this
/// version cannot read are not counted (`toolmem doctor` lists them).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ToolCounts {
    /// The tool, normalised.
    pub tool_name: String,
    /// Active critical rules.
    pub critical: usize,
    /// Active high rules.
    pub high: usize,
    /// Active normal rules.
    pub normal: usize,
    /// Unrevoked rules waiting for a person to confirm them.
    pub proposed: usize,
    /// Revoked rules, kept until deleted.
    pub revoked: usize,
}

impl ToolCounts {
    /// No rules of `tool_name` yet.
    pub fn new(tool_name: impl Into<String>) -> ToolCounts {
        ToolCounts {
            tool_name: tool_name.into(),
            ..ToolCounts::default()
        }
    }

    /// Counts `count` rules of one priority and state.
    pub fn add(
        &mut self,
        priority: ToolMemoryPriority,
        revoked: bool,
        proposed: bool,
        count: usize,
    ) {
        let total = if revoked {
            &mut self.revoked
        } else if proposed {
            &mut self.proposed
        } else {
            match priority {
                ToolMemoryPriority::Critical => &mut self.critical,
                ToolMemoryPriority::High => &mut self.high,
                ToolMemoryPriority::Normal => &mut self.normal,
            }
        };
        *total += count;
    }

    /// Counts `count` stored rows as a SQL backend reads them: a priority this version cannot
    /// read, or a count that does not fit, is left out, as the listing leaves its row out.
    pub fn add_stored(&mut self, priority: &str, revoked: bool, proposed: bool, count: i64) {
        if let (Ok(priority), Ok(count)) = (priority.parse(), usize::try_from(count)) {
            self.add(priority, revoked, proposed, count);
        }
    }

    /// Counts one rule.
    pub fn add_rule(&mut self, rule: &ToolMemoryRule) {
        self.add(
            rule.priority,
            rule.meta.revoked_at.is_some(),
            rule.meta.proposed,
            1,
        );
    }

    /// Every rule counted, in any state.
    pub fn total(&self) -> usize {
        self.critical + self.high + self.normal + self.proposed + self.revoked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revoked_and_proposed_rules_are_counted_apart_from_their_priority() {
        let mut counts = ToolCounts::new("shell");
        counts.add(ToolMemoryPriority::Critical, false, false, 2);
        counts.add(ToolMemoryPriority::Critical, true, true, 1);
        counts.add(ToolMemoryPriority::High, false, true, 3);
        counts.add(ToolMemoryPriority::Normal, false, false, 4);
        assert_eq!(
            counts,
            ToolCounts {
                tool_name: "shell".to_owned(),
                critical: 2,
                high: 0,
                normal: 4,
                proposed: 3,
                revoked: 1,
            }
        );
        assert_eq!(counts.total(), 10);
    }
}
