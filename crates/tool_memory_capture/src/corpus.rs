//! The labelled corpus format and its metrics, shared by the crate's corpus test and any
//! xtask that wants to print or gate on them.
//!
//! One case per JSONL line: `{"id", "turn", "expect", "expect_failures"?, "expect_proposed"?,
//! "existing"?, "expect_revoked"?, "note"?}`. `expect` lists the user's own edicts a careful
//! labeller expects (empty: nothing should be captured); `expect_failures`, when present, lists
//! the exact repeated-failure observations, and `expect_proposed` the exact rules proposed from
//! pasted material. A revocation case lists the rules already stored
//! (`existing`) and the texts of those the turn must revoke (`expect_revoked`); every proposed
//! revocation is applied to every existing rule with [`revocation_matches`], as the facade does.

use serde::{Deserialize, Serialize};
use tool_memory_core::{Timestamp, parse_json_lines};

use tool_memory_core::{ToolMemoryPriority, ToolMemoryRule, ToolMemorySource};

use crate::{
    EDICT_TAG, Error, ProposedRule, REPEATED_FAILURE_TAG, Result, Trust, TurnRecord, capture_turn,
    revocation_matches,
};

/// One labelled turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusCase {
    /// A unique, readable case id such as `edict-001`.
    pub id: String,
    /// The turn to capture.
    pub turn: TurnRecord,
    /// The edict rules expected from the turn, in any order.
    #[serde(default)]
    pub expect: Vec<ExpectedRule>,
    /// When present, the exact repeated-failure observations expected.
    #[serde(default)]
    pub expect_failures: Option<Vec<ExpectedRule>>,
    /// When present, the exact rules expected to be proposed from material (someone else's
    /// words the user pasted, [`Trust::Material`]), in any order. Such rules are never scored
    /// as edicts: an instruction in material that capture took for the user's own counts as a
    /// spurious edict, and one missing here as a difference.
    #[serde(default)]
    pub expect_proposed: Option<Vec<ExpectedRule>>,
    /// Rules already in the store before the turn (user edicts); a case with any is scored
    /// for revocations.
    #[serde(default)]
    pub existing: Vec<ExpectedRule>,
    /// The texts of the `existing` rules the turn must revoke; empty for a near-miss.
    #[serde(default)]
    pub expect_revoked: Vec<String>,
    /// Why the case is labelled this way.
    #[serde(default)]
    pub note: Option<String>,
}

/// A rule a case expects: matched on exact rule text, then checked for the tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedRule {
    /// The expected normalised tool name.
    pub tool_name: String,
    /// The expected rule text, exactly.
    pub rule: String,
}

/// A disagreement between a case's labels and capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseMiss {
    /// An expected edict was not captured.
    Missed {
        case: String,
        expected: ExpectedRule,
    },
    /// A captured edict was not expected.
    Spurious {
        case: String,
        captured: ExpectedRule,
    },
    /// The edict was captured on another tool.
    WrongTool {
        case: String,
        expected: ExpectedRule,
        captured_tool: String,
    },
    /// The rules proposed from material differ (both sorted).
    Proposals {
        case: String,
        expected: Vec<ExpectedRule>,
        captured: Vec<ExpectedRule>,
    },
    /// The repeated-failure observations differ.
    Failures {
        case: String,
        expected: Vec<ExpectedRule>,
        captured: Vec<ExpectedRule>,
    },
    /// An existing rule the turn should have revoked was kept.
    NotRevoked { case: String, rule: ExpectedRule },
    /// An existing rule the turn should have kept was revoked.
    WronglyRevoked { case: String, rule: ExpectedRule },
}

/// Corpus-wide metrics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CorpusReport {
    /// Cases evaluated.
    pub turns: usize,
    /// Edicts the labels expect.
    pub expected: usize,
    /// Edicts capture proposed.
    pub captured: usize,
    /// Captured edicts whose text an expectation has.
    pub matched: usize,
    /// Matched edicts on the expected tool.
    pub on_expected_tool: usize,
    /// Cases with `expect_failures` whose observations matched exactly.
    pub failure_cases_passed: usize,
    /// Cases with `expect_failures`.
    pub failure_cases: usize,
    /// Cases with `expect_proposed` whose proposals matched exactly.
    pub proposal_cases_passed: usize,
    /// Cases with `expect_proposed`.
    pub proposal_cases: usize,
    /// Cases with `existing` rules, scored for revocations.
    pub revocation_cases: usize,
    /// (case, existing rule) pairs the labels expect revoked.
    pub revocations_expected: usize,
    /// Pairs the proposed revocations revoke.
    pub revoked: usize,
    /// Revoked pairs that the labels expect revoked.
    pub revoked_correctly: usize,
    /// Every disagreement, in case order.
    pub misses: Vec<CaseMiss>,
}

impl CorpusReport {
    /// Matched / captured; 1 when nothing was captured.
    pub fn precision(&self) -> f64 {
        ratio(self.matched, self.captured)
    }

    /// Matched / expected; 1 when nothing was expected.
    pub fn recall(&self) -> f64 {
        ratio(self.matched, self.expected)
    }

    /// On the expected tool / matched; 1 when nothing matched.
    pub fn attribution(&self) -> f64 {
        ratio(self.on_expected_tool, self.matched)
    }

    /// Correctly revoked pairs / revoked pairs; 1 when nothing was revoked.
    pub fn revocation_precision(&self) -> f64 {
        ratio(self.revoked_correctly, self.revoked)
    }

    /// Correctly revoked pairs / expected pairs; 1 when nothing was expected.
    pub fn revocation_recall(&self) -> f64 {
        ratio(self.revoked_correctly, self.revocations_expected)
    }

    /// `capture corpus: 318 turns, precision 0.985, recall 0.970, attribution 0.980;
    /// revocations: 80 turns, precision 1.000, recall 0.975; material proposals: 40 of 41 turns
    /// exact`.
    pub fn summary_line(&self) -> String {
        format!(
            "capture corpus: {} turns, precision {:.3}, recall {:.3}, attribution {:.3}; \
             revocations: {} turns, precision {:.3}, recall {:.3}; \
             material proposals: {} of {} turns exact",
            self.turns,
            self.precision(),
            self.recall(),
            self.attribution(),
            self.revocation_cases,
            self.revocation_precision(),
            self.revocation_recall(),
            self.proposal_cases_passed,
            self.proposal_cases
        )
    }
}

fn ratio(numerator: usize, denominator: usize) -> f64 {
    if denominator == 0 {
        1.0
    } else {
        numerator as f64 / denominator as f64
    }
}

/// Parses JSONL corpus text; blank lines and lines starting with `//` are skipped.
pub fn parse_corpus(text: &str) -> Result<Vec<CorpusCase>> {
    parse_json_lines(text, |line, source| Error::CorpusLine { line, source })
}

/// Captures every case and compares with its labels.
pub fn evaluate(cases: &[CorpusCase]) -> CorpusReport {
    // Rules do not depend on the time; any fixed instant will do.
    let now = Timestamp::from_unix_micros(0).expect("the epoch is representable");
    let mut report = CorpusReport {
        turns: cases.len(),
        ..CorpusReport::default()
    };
    for case in cases {
        let output = capture_turn(&case.turn, now);
        let (failures, rules): (Vec<&ProposedRule>, Vec<&ProposedRule>) = output
            .rules
            .iter()
            .partition(|rule| rule.tags.iter().any(|tag| tag == REPEATED_FAILURE_TAG));
        let (edicts, proposals): (Vec<&ProposedRule>, Vec<&ProposedRule>) =
            rules.into_iter().partition(|rule| rule.trust == Trust::Own);
        score_edicts(case, &edicts, &mut report);
        if let Some(expected) = &case.expect_proposed {
            report.proposal_cases += 1;
            let mut expected = expected.clone();
            expected.sort_by(|a, b| (&a.tool_name, &a.rule).cmp(&(&b.tool_name, &b.rule)));
            let mut captured: Vec<ExpectedRule> =
                proposals.iter().map(|rule| as_expected(rule)).collect();
            captured.sort_by(|a, b| (&a.tool_name, &a.rule).cmp(&(&b.tool_name, &b.rule)));
            if captured == expected {
                report.proposal_cases_passed += 1;
            } else {
                report.misses.push(CaseMiss::Proposals {
                    case: case.id.clone(),
                    expected,
                    captured,
                });
            }
        }
        if !case.existing.is_empty() {
            score_revocations(case, &output.revocations, now, &mut report);
        }
        if let Some(expected) = &case.expect_failures {
            report.failure_cases += 1;
            let captured: Vec<ExpectedRule> =
                failures.iter().map(|rule| as_expected(rule)).collect();
            if &captured == expected {
                report.failure_cases_passed += 1;
            } else {
                report.misses.push(CaseMiss::Failures {
                    case: case.id.clone(),
                    expected: expected.clone(),
                    captured,
                });
            }
        }
    }
    report
}

/// Applies every proposed revocation to every existing rule, stored as a user edict.
fn score_revocations(
    case: &CorpusCase,
    revocations: &[crate::ProposedRevocation],
    now: Timestamp,
    report: &mut CorpusReport,
) {
    report.revocation_cases += 1;
    for existing in &case.existing {
        let stored = ToolMemoryRule {
            id: "corpus".to_owned(),
            tool_name: tool_memory_core::normalize_tool_name(&existing.tool_name),
            rule: existing.rule.clone(),
            priority: ToolMemoryPriority::Critical,
            source: ToolMemorySource::UserExplicit,
            tags: vec![EDICT_TAG.to_owned()],
            created_at: now,
            updated_at: now,
            meta: Default::default(),
        };
        let revoked = revocations
            .iter()
            .any(|revocation| revocation_matches(revocation, &stored));
        let expected = case.expect_revoked.contains(&existing.rule);
        report.revocations_expected += usize::from(expected);
        report.revoked += usize::from(revoked);
        report.revoked_correctly += usize::from(revoked && expected);
        if revoked != expected {
            let rule = existing.clone();
            let case = case.id.clone();
            report.misses.push(if expected {
                CaseMiss::NotRevoked { case, rule }
            } else {
                CaseMiss::WronglyRevoked { case, rule }
            });
        }
    }
}

fn as_expected(rule: &ProposedRule) -> ExpectedRule {
    ExpectedRule {
        tool_name: rule.tool_name.clone(),
        rule: rule.rule.clone(),
    }
}

fn score_edicts(case: &CorpusCase, edicts: &[&ProposedRule], report: &mut CorpusReport) {
    report.expected += case.expect.len();
    report.captured += edicts.len();
    let mut unclaimed: Vec<&ProposedRule> = edicts.to_vec();
    // Exact text and tool first, so a text captured twice on two tools pairs up correctly.
    let mut open: Vec<&ExpectedRule> = Vec::new();
    for expected in &case.expect {
        let exact = unclaimed
            .iter()
            .position(|rule| rule.rule == expected.rule && rule.tool_name == expected.tool_name);
        match exact {
            Some(index) => {
                unclaimed.remove(index);
                report.matched += 1;
                report.on_expected_tool += 1;
            }
            None => open.push(expected),
        }
    }
    for expected in open {
        match unclaimed.iter().position(|rule| rule.rule == expected.rule) {
            Some(index) => {
                let rule = unclaimed.remove(index);
                report.matched += 1;
                report.misses.push(CaseMiss::WrongTool {
                    case: case.id.clone(),
                    expected: expected.clone(),
                    captured_tool: rule.tool_name.clone(),
                });
            }
            None => report.misses.push(CaseMiss::Missed {
                case: case.id.clone(),
                expected: expected.clone(),
            }),
        }
    }
    for rule in unclaimed {
        report.misses.push(CaseMiss::Spurious {
            case: case.id.clone(),
            captured: as_expected(rule),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_hits_misses_spurious_and_wrong_tools() {
        let text = r#"
// a comment line
{"id":"a","turn":{"user_message":"Never email Sarah.","tool_calls":[{"name":"send_email","success":true}]},"expect":[{"tool_name":"send_email","rule":"Never email Sarah."}]}
{"id":"b","turn":{"user_message":"Never run rm -rf.","tool_calls":[{"name":"send_email","success":true}]},"expect":[{"tool_name":"bash","rule":"Never run rm -rf."}]}
{"id":"c","turn":{"user_message":"Always cc me."},"expect":[]}
{"id":"d","turn":{"user_message":"hello"},"expect":[{"tool_name":"x","rule":"hello"}]}
{"id":"e","turn":{"user_message":"","tool_calls":[{"name":"sh","success":false},{"name":"sh","success":false}]},"expect_failures":[]}
"#;
        let report = evaluate(&parse_corpus(text).unwrap());
        assert_eq!(report.turns, 5);
        assert_eq!(
            (report.expected, report.captured, report.matched),
            (3, 3, 2)
        );
        assert_eq!(report.on_expected_tool, 1);
        assert_eq!((report.failure_cases, report.failure_cases_passed), (1, 0));
        assert_eq!(report.misses.len(), 4, "{:#?}", report.misses);
        assert_eq!(
            report.summary_line(),
            "capture corpus: 5 turns, precision 0.667, recall 0.667, attribution 0.500; \
             revocations: 0 turns, precision 1.000, recall 1.000; \
             material proposals: 0 of 0 turns exact"
        );
    }

    #[test]
    fn scores_revoked_and_kept_rules() {
        let text = r#"
{"id":"r1","turn":{"user_message":"You can email Sarah again.","tool_calls":[{"name":"send_email","success":true}]},"existing":[{"tool_name":"send_email","rule":"Never email Sarah."},{"tool_name":"send_email","rule":"Never email Bob."}],"expect_revoked":["Never email Sarah."]}
{"id":"r2","turn":{"user_message":"You can email Bob again.","tool_calls":[{"name":"send_email","success":true}]},"existing":[{"tool_name":"send_email","rule":"Never email Bob."}],"expect_revoked":[]}
{"id":"r3","turn":{"user_message":"Forget the rule about Sarah."},"existing":[{"tool_name":"slack","rule":"Never DM Sarah."}],"expect_revoked":["Never DM Sarah."]}
{"id":"r4","turn":{"user_message":"Thanks!"},"existing":[{"tool_name":"slack","rule":"Never DM Sarah."}],"expect_revoked":["Never DM Sarah."]}
"#;
        let report = evaluate(&parse_corpus(text).unwrap());
        assert_eq!(report.revocation_cases, 4);
        assert_eq!(
            (
                report.revocations_expected,
                report.revoked,
                report.revoked_correctly
            ),
            (3, 3, 2)
        );
        assert_eq!(
            report.misses,
            [
                CaseMiss::WronglyRevoked {
                    case: "r2".to_owned(),
                    rule: ExpectedRule {
                        tool_name: "send_email".to_owned(),
                        rule: "Never email Bob.".to_owned()
                    }
                },
                CaseMiss::NotRevoked {
                    case: "r4".to_owned(),
                    rule: ExpectedRule {
                        tool_name: "slack".to_owned(),
                        rule: "Never DM Sarah.".to_owned()
                    }
                }
            ]
        );
        assert!(
            report
                .summary_line()
                .contains("revocations: 4 turns, precision 0.667, recall 0.667;")
        );
    }

    #[test]
    fn names_the_bad_line() {
        let err = parse_corpus("\n{\"id\":1}\n").unwrap_err();
        assert!(err.to_string().starts_with("corpus line 2 "), "{err}");
    }
}
