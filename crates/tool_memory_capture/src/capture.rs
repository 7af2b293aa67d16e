//! The entry point: one turn in, proposed rule changes and statistics out.

use std::collections::HashMap;

use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemorySource};

use crate::attribution::{Candidates, Context};
use crate::edict::Stands;
use crate::failure::observe_calls;
use crate::grammar;
use crate::identity::{edict_identity_key, edict_identity_key_of_form};
use crate::matching::names_only_tool;
use crate::material::{self, Voice};
use crate::reading::Reader;
use crate::{
    CaptureOutput, EDICT_TAG, MATERIAL_TAG, ProposedRevocation, ProposedRule, RevocationKind,
    Trust, TurnRecord,
};

/// What capture looks for. The default captures everything, with the reference's threshold
/// of two failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureConfig {
    /// Propose critical rules from user edicts.
    pub edicts: bool,
    /// Propose revocations of earlier edicts ("you can email Sarah again").
    pub revocations: bool,
    /// Propose normal observations for tools that failed repeatedly.
    pub repeated_failures: bool,
    /// Failures of one tool in one turn that make an observation; at least 1.
    pub failure_threshold: u64,
    /// Emit per-tool call statistics.
    pub statistics: bool,
}

impl Default for CaptureConfig {
    fn default() -> CaptureConfig {
        CaptureConfig {
            edicts: true,
            revocations: true,
            repeated_failures: true,
            failure_threshold: 2,
            statistics: true,
        }
    }
}

/// Captures one turn with the default configuration.
///
/// Returns edict rules first, in message order (one per identity key), then repeated-failure
/// observations and statistics sorted by tool name, and the revocations the user stated, in
/// message order. A sentence that revokes is never also an edict. `now` stamps the statistics; nothing else
/// depends on it, so the same turn always yields the same rules.
pub fn capture_turn(turn: &TurnRecord, now: Timestamp) -> CaptureOutput {
    capture_turn_with(turn, now, &CaptureConfig::default())
}

/// Captures one turn with an explicit configuration.
pub fn capture_turn_with(
    turn: &TurnRecord,
    now: Timestamp,
    config: &CaptureConfig,
) -> CaptureOutput {
    let mut output = CaptureOutput::default();
    // One structural pass decides whose words each part of the message is; both grammars read
    // its spans.
    let reader = Reader::new(&turn.user_message);
    let spans = if config.edicts || config.revocations {
        material::spans(&reader)
    } else {
        Vec::new()
    };
    let candidates = Candidates::of_turn(turn);
    // One pass of the grammars over the spans.
    let found = grammar::read(&reader, &spans, config.edicts, config.revocations);
    if config.edicts {
        // Where each identity's rule is, so that a long instruction file with thousands of
        // rules merges its repeats in linear time.
        // Sized once: an edict adds one identity or more, and growing the table rehashes it.
        let mut seen: HashMap<String, usize> = HashMap::with_capacity(found.edicts.len());
        // The line of the last rule proposed and its index in `output.rules`, for the context
        // of a rule that names no tool.
        let mut last_rule: Option<(usize, usize)> = None;
        for edict in found.edicts {
            let stands = match edict.stands {
                Stands::Always => true,
                Stands::IfCodeNamesATool => candidates.names_in_code(&edict.text),
                Stands::IfATool => {
                    candidates.names_a_tool(&edict.text, &edict.form, edict.whole, edict.previous)
                }
            };
            if !stands {
                continue;
            }
            let lines = reader.lines();
            let line = lines.get(edict.line).copied().unwrap_or_default();
            // The rule's text is a slice of its line unless it joins a lead-in to an item.
            let at = (edict.text.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
            let context = Context {
                lines,
                line: edict.line,
                before: line.get(..at).unwrap_or_default(),
                last_rule: last_rule.and_then(|(line, index): (usize, usize)| {
                    Some((line, output.rules.get(index)?.tool_name.as_str()))
                }),
                // "On `gke-prod` only read: `get`, `describe`. Everything else, ask.": an item
                // attributed by its order is read whole when the order names no tool.
                item: edict.about.is_some().then_some(edict.text.as_ref()),
            };
            let about_form;
            let (about, about_form) = match &edict.about {
                Some(about) => {
                    about_form = crate::text::match_form(about);
                    (about.as_str(), about_form.as_str())
                }
                None => (edict.text.as_ref(), edict.form.as_str()),
            };
            let (first_tool, more_tools) = candidates.attribute_rule_tools(
                about,
                about_form,
                edict.whole,
                edict.previous,
                &context,
            );
            // A rule about several tools is proposed once for each, with the whole sentence
            // as its text: the text of each holds the clause that concerns it.
            let first_index = output.rules.len();
            for tool_name in std::iter::once(first_tool).chain(more_tools) {
                let identity_key = if edict.whole {
                    edict_identity_key_of_form(&tool_name, &edict.form)
                } else {
                    edict_identity_key(&tool_name, &edict.text)
                };
                let (trust, tags) = match edict.voice {
                    Voice::Own => (Trust::Own, vec![EDICT_TAG.to_owned()]),
                    Voice::Material(kind) => (
                        Trust::Material,
                        vec![MATERIAL_TAG.to_owned(), kind.tag().to_owned()],
                    ),
                };
                // The same edict twice in one message is one rule, the user's own if they said
                // it themselves anywhere (a chat log quoting their rule does not make it theirs
                // less).
                if let Some(earlier) = seen
                    .get(&identity_key)
                    .and_then(|&index| output.rules.get_mut(index))
                {
                    if earlier.trust == Trust::Material && trust == Trust::Own {
                        earlier.rule = edict.text.clone().into_owned();
                        earlier.trust = trust;
                        earlier.tags = tags;
                    }
                    continue;
                }
                seen.insert(identity_key.clone(), output.rules.len());
                output.rules.push(ProposedRule {
                    tool_name,
                    rule: edict.text.clone().into_owned(),
                    // Material keeps the priority the user's own words would have had:
                    // confirming the proposal makes it apply exactly as if the user had said it.
                    priority: ToolMemoryPriority::Critical,
                    source: ToolMemorySource::UserExplicit,
                    tags,
                    identity_key,
                    trust,
                });
            }
            if output.rules.len() > first_index {
                last_rule = Some((edict.line, first_index));
            }
        }
    }
    if config.revocations {
        for mut revocation in found.revocations {
            let mut explicit = candidates.attribute_explicit(&revocation.scope);
            // "I'm lifting the invoice rule: you may void invoices again" on `void_invoice`:
            // a topic that only names the tool would lift every rule on it, so the action
            // granted back says which rule is meant, with a permission's reach.
            if let Some((subject, scope)) = revocation.grant.take()
                && explicit
                    .as_deref()
                    .is_some_and(|tool| names_only_tool(&revocation.subject, tool))
            {
                explicit = candidates.attribute_explicit(&scope).or(explicit);
                revocation.kind = RevocationKind::Permission;
                revocation.subject = subject;
            }
            // Without a subject and a named tool there is nothing a rule could be matched on.
            if revocation.subject.is_empty() && explicit.is_none() {
                continue;
            }
            let proposed = ProposedRevocation {
                tool_explicit: explicit.is_some(),
                tool_name: explicit.unwrap_or_else(|| candidates.fallback()),
                kind: revocation.kind,
                subject: revocation.subject,
                text: revocation.text.to_owned(),
            };
            // The same revocation twice in one message is one proposal.
            let duplicate = output.revocations.iter().any(|earlier| {
                earlier.tool_name == proposed.tool_name
                    && earlier.kind == proposed.kind
                    && earlier.subject == proposed.subject
            });
            if !duplicate {
                output.revocations.push(proposed);
            }
        }
    }
    if config.repeated_failures || config.statistics {
        let (observations, stats) =
            observe_calls(&turn.tool_calls, config.failure_threshold.max(1), now);
        if config.repeated_failures {
            output.rules.extend(observations);
        }
        if config.statistics {
            output.stats = stats;
        }
    }
    output
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolCallRecord;

    fn at() -> Timestamp {
        Timestamp::parse("2026-05-11T00:00:00Z").unwrap()
    }

    fn turn(message: &str, tools: &[&str]) -> TurnRecord {
        TurnRecord {
            user_message: message.to_owned(),
            tool_calls: tools
                .iter()
                .map(|name| ToolCallRecord::new(*name, true, "ok"))
                .collect(),
            ..TurnRecord::default()
        }
    }

    /// `message` with successful calls of `tools` proposes exactly these (tool, rule) edicts.
    fn check(message: &str, tools: &[&str], expected: &[(&str, &str)]) {
        check_turn(&turn(message, tools), expected);
    }

    /// `turn` proposes exactly these (tool, rule) edicts.
    fn check_turn(turn: &TurnRecord, expected: &[(&str, &str)]) {
        let output = capture_turn(turn, at());
        let found: Vec<(&str, &str)> = output
            .rules
            .iter()
            .map(|rule| (rule.tool_name.as_str(), rule.rule.as_str()))
            .collect();
        assert_eq!(found, expected, "{:?}", turn.user_message);
    }

    /// `message` with the catalogue `tools` (none ran) proposes exactly these edicts.
    fn check_catalogue(message: &str, tools: &[&str], expected: &[(&str, &str)]) {
        let turn = TurnRecord {
            user_message: message.to_owned(),
            available_tools: tools.iter().map(|name| (*name).to_owned()).collect(),
            ..TurnRecord::default()
        };
        check_turn(&turn, expected);
    }

    #[test]
    fn a_statement_about_a_services_things_stands_only_with_a_tool_that_does_it() {
        // Round 14, V1: the grammar proposes it, the catalogue decides.
        let stripe = &[
            "Bash",
            "Edit",
            "mcp__stripe__create_refund",
            "mcp__stripe__list_customers",
        ];
        check_catalogue(
            "Refunds above €200 need my approval.",
            stripe,
            &[(
                "mcp__stripe__create_refund",
                "Refunds above €200 need my approval.",
            )],
        );
        check_catalogue("Holidays need my approval.", stripe, &[]);
        check_catalogue(
            "Refunds above €200 need my approval.",
            &["Bash", "Edit"],
            &[],
        );
    }

    #[test]
    fn an_item_whose_order_names_no_tool_is_attributed_by_the_whole_item() {
        // Round 14, V2 class 12.
        check_catalogue(
            "## Clusters\n- On `gke-prod` only read: `get`, `describe`, `top`. Everything else, ask.",
            &["Bash", "Read", "Edit"],
            &[(
                "bash",
                "On `gke-prod` only read: `get`, `describe`, `top`. Everything else, ask.",
            )],
        );
    }

    #[test]
    fn joined_edicts_land_on_their_own_tools() {
        check(
            "please don’t run sudo in the terminal; and never ever push to main",
            &["send_email", "bash", "git"],
            &[
                ("bash", "please don’t run sudo in the terminal"),
                ("git", "and never ever push to main"),
            ],
        );
    }

    #[test]
    fn headline_case_keeps_the_whole_address() {
        check(
            "Never email Sarah at sarah@example.com.",
            &["send_email"],
            &[("send_email", "Never email Sarah at sarah@example.com.")],
        );
        let output = capture_turn(
            &turn("Never email Sarah at sarah@example.com.", &["send_email"]),
            at(),
        );
        let rule = &output.rules[0];
        assert_eq!(rule.priority, ToolMemoryPriority::Critical);
        assert_eq!(rule.source, ToolMemorySource::UserExplicit);
        assert_eq!(rule.tags, [EDICT_TAG]);
        assert!(rule.identity_key.starts_with("edict-"));
    }

    #[test]
    fn duplicates_in_one_message_are_one_rule() {
        check(
            "Never email Sarah. Never run rm -rf. never email sarah!",
            &["send_email", "bash"],
            &[
                ("send_email", "Never email Sarah."),
                ("bash", "Never run rm -rf."),
            ],
        );
    }

    #[test]
    fn tool_names_are_normalised() {
        check(
            "NEVER EMAIL SARAH",
            &["Send_Email"],
            &[("send_email", "NEVER EMAIL SARAH")],
        );
        check(
            "Never do that.",
            &[],
            &[(tool_memory_core::UNSCOPED_TOOL, "Never do that.")],
        );
    }

    #[test]
    fn an_order_about_a_tools_arguments_stands_only_with_the_tool() {
        let rule =
            "Set `requires_approval: true` on every `execute_command` that installs packages.";
        check(rule, &["execute_command"], &[("execute_command", rule)]);
        check(rule, &["bash"], &[]);
    }

    #[test]
    fn a_rule_that_names_no_tool_takes_the_tool_of_what_it_sits_under() {
        // After a list of commands, through a blank line.
        check(
            "1. `npm run lint`\n2. `npm test`\n\nDon't skip one because it is slow.",
            &["send_email", "bash"],
            &[("bash", "Don't skip one because it is slow.")],
        );
        // The sentence before it on its line.
        check(
            "Run `make deploy` only from CI. Never do it from a laptop either.",
            &["send_email", "bash"],
            &[
                ("bash", "Run `make deploy` only from CI."),
                ("bash", "Never do it from a laptop either."),
            ],
        );
        // A heading, past the sibling items of its list; a rule's own words still win.
        check(
            "### Docker\n\n- Never email the vendor about outages.\n- Never prune volumes without asking.",
            &["bash", "send_email"],
            &[
                ("send_email", "Never email the vendor about outages."),
                ("bash", "Never prune volumes without asking."),
            ],
        );
        // A sibling item is no context: the fallback, not the item before's tool.
        check(
            "1. Never email Sarah.\n2. Don't touch the vendored code.",
            &["bash", "send_email"],
            &[
                ("send_email", "Never email Sarah."),
                ("bash", "Don't touch the vendored code."),
            ],
        );
    }

    #[test]
    fn a_fragment_after_a_ban_extends_it() {
        check(
            "Never run migrations by hand. Rollbacks too.",
            &["send_email", "bash"],
            &[
                ("bash", "Never run migrations by hand."),
                ("bash", "Rollbacks too."),
            ],
        );
        check(
            "Never call `gcloud` directly. Not `aws` either.",
            &["send_email", "bash"],
            &[
                ("bash", "Never call `gcloud` directly."),
                ("bash", "Not `aws` either."),
            ],
        );
        // Answers and sentences after no ban are no rules.
        check(
            "Never run migrations by hand. Not sure why, though. Me too.",
            &["bash"],
            &[("bash", "Never run migrations by hand.")],
        );
        check("Rollbacks too.", &["bash"], &[]);
        check(
            "Never deploy by hand. Rollbacks too — use the CI job.",
            &["send_email", "bash"],
            &[
                ("bash", "Never deploy by hand."),
                ("bash", "Rollbacks too — use the CI job."),
            ],
        );
    }

    #[test]
    fn a_statement_that_points_back_takes_the_tool_of_what_it_points_at() {
        check(
            "1. `npm run lint`\n2. `npm test`\n\nAll three must pass.",
            &["send_email", "bash"],
            &[("bash", "All three must pass.")],
        );
        check(
            "`legacy/` is frozen. Bugs there get a ticket, not a patch.",
            &["bash", "edit_file"],
            &[
                ("edit_file", "`legacy/` is frozen."),
                ("edit_file", "Bugs there get a ticket, not a patch."),
            ],
        );
        // Without a clause about a tool before it, a requirement is a description.
        check(
            "The reviewers are busy. All three must pass.",
            &["bash"],
            &[],
        );
    }

    #[test]
    fn structured_rule_files_ban_their_reject_patterns() {
        let file = "<rule>\nname: guard\nfilters:\n  - type: file_change\n    pattern: \"*.lock\"\nactions:\n  - type: reject\n    conditions:\n      - pattern: \"git push --force\"\n    message: \"Never force-push to shared branches.\"\n  - type: suggest\n    message: \"Prefer small commits.\"\n</rule>";
        check(
            file,
            &["send_email", "bash"],
            &[
                ("bash", "pattern: \"git push --force\""),
                ("bash", "Never force-push to shared branches."),
            ],
        );
    }

    #[test]
    fn config_switches_parts_off() {
        let mut record = turn("Never email Sarah.", &["send_email"]);
        record
            .tool_calls
            .push(ToolCallRecord::new("shell", false, "timeout"));
        record
            .tool_calls
            .push(ToolCallRecord::new("shell", false, "timeout"));
        let all = capture_turn(&record, at());
        assert_eq!(all.rules.len(), 2);
        assert_eq!(all.stats.len(), 2);
        let config = CaptureConfig {
            edicts: false,
            statistics: false,
            ..CaptureConfig::default()
        };
        let some = capture_turn_with(&record, at(), &config);
        assert_eq!(some.rules.len(), 1);
        assert_eq!(some.rules[0].tool_name, "shell");
        assert!(some.stats.is_empty());
    }
}
