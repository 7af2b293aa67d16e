//! The labelled corpus format and its metrics, shared by the crate's corpus test and any tool
//! that wants to print or gate on them.
//!
//! One case per JSONL line: `{"id", "rules": [{"tool_name", "rule", "priority"}], "call":
//! {"tool_name", "arguments"}, "expect": "allow"|"confirm"|"deny", "strong", "note"?}`.
//! `strong` marks cases where a strong literal the user named should deny; allowing one of
//! those is the failure that matters most.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_memory_core::{
    Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, parse_json_lines,
};

use crate::{Decision, Error, Guard, Result};

/// A rule as a corpus case writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusRule {
    /// The tool, or `__unscoped__`.
    pub tool_name: String,
    /// The rule text.
    pub rule: String,
    /// Defaults to critical, the priority capture gives a user's edict.
    #[serde(default = "critical")]
    pub priority: ToolMemoryPriority,
}

fn critical() -> ToolMemoryPriority {
    ToolMemoryPriority::Critical
}

/// The proposed call of a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusCall {
    /// The tool being called.
    pub tool_name: String,
    /// Its JSON arguments.
    #[serde(default)]
    pub arguments: Value,
}

/// One labelled case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusCase {
    /// Unique, readable id such as `email-001`.
    pub id: String,
    /// The rules in force.
    pub rules: Vec<CorpusRule>,
    /// The call to check.
    pub call: CorpusCall,
    /// What a careful labeller expects.
    pub expect: Decision,
    /// A strong literal should deny this call.
    #[serde(default)]
    pub strong: bool,
    /// Why the case is labelled this way.
    #[serde(default)]
    pub note: Option<String>,
}

impl CorpusCase {
    /// The case's rules as records, with fixed ids and timestamps.
    pub fn tool_rules(&self) -> Vec<ToolMemoryRule> {
        let at = Timestamp::parse("2026-01-01T00:00:00Z").expect("a fixed valid timestamp");
        self.rules
            .iter()
            .enumerate()
            .map(|(index, rule)| ToolMemoryRule {
                id: format!("{}-r{index}", self.id),
                tool_name: rule.tool_name.trim().to_lowercase(),
                rule: rule.rule.clone(),
                priority: rule.priority,
                source: ToolMemorySource::UserExplicit,
                tags: Vec::new(),
                created_at: at,
                updated_at: at,
                meta: Default::default(),
            })
            .collect()
    }
}

/// Parses a JSONL corpus; blank lines and lines starting with `//` are skipped.
pub fn parse_corpus(text: &str) -> Result<Vec<CorpusCase>> {
    parse_json_lines(text, |line, source| Error::CorpusLine { line, source })
}

/// A case where the guard disagreed with its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// The case id.
    pub id: String,
    /// The label.
    pub expected: Decision,
    /// The guard's decision.
    pub actual: Decision,
    /// The guard's reason line.
    pub reason: String,
    /// The case's note, if any.
    pub note: Option<String>,
    /// The case was a strong-literal deny.
    pub strong: bool,
}

/// Metrics over a corpus.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CorpusReport {
    /// Cases evaluated.
    pub cases: usize,
    /// Cases where the decision equals the label.
    pub agreed: usize,
    /// Strong-literal deny cases.
    pub strong_cases: usize,
    /// Strong-literal deny cases the guard allowed: the worst kind of miss.
    pub strong_misses: usize,
    /// Every disagreement, in corpus order.
    pub disagreements: Vec<Disagreement>,
}

impl CorpusReport {
    /// Share of cases decided as labelled.
    pub fn accuracy(&self) -> f64 {
        if self.cases == 0 {
            return 0.0;
        }
        self.agreed as f64 / self.cases as f64
    }

    /// `guard corpus: 320 cases, accuracy 0.972, strong-literal misses 0`.
    pub fn summary_line(&self) -> String {
        format!(
            "guard corpus: {} cases, accuracy {:.3}, strong-literal misses {} (of {} strong cases)",
            self.cases,
            self.accuracy(),
            self.strong_misses,
            self.strong_cases
        )
    }
}

/// Checks every case with a fresh [`Guard`] over its rules and compares with the labels.
pub fn evaluate(cases: &[CorpusCase]) -> CorpusReport {
    let mut report = CorpusReport::default();
    for case in cases {
        let guard = Guard::from_rules(case.tool_rules());
        let verdict = guard.check(&case.call.tool_name, &case.call.arguments);
        report.cases += 1;
        let strong = case.strong && case.expect == Decision::Deny;
        if strong {
            report.strong_cases += 1;
        }
        if verdict.decision == case.expect {
            report.agreed += 1;
            continue;
        }
        if strong && verdict.decision == Decision::Allow {
            report.strong_misses += 1;
        }
        report.disagreements.push(Disagreement {
            id: case.id.clone(),
            expected: case.expect,
            actual: verdict.decision,
            reason: verdict.reason,
            note: case.note.clone(),
            strong,
        });
    }
    report
}
