//! Which stored rules a proposed revocation lifts. Pure, so the facade, the corpus and a
//! dry run all decide the same way.
//!
//! The aim is that the user's intent is honoured and nothing unrelated is revoked: every word
//! the user named must be in the rule ("you can email Sarah's manager again" leaves "Never email
//! Sarah" alone), and a permission that names only the tool ("you may use the browser again")
//! lifts only the tool's blanket bans ("Don't use the browser."), not its specific rules
//! ("Never log into my bank").

use std::sync::LazyLock;

use tool_memory_core::{ToolMemoryRule, ToolMemorySource, UNSCOPED_TOOL, normalize_tool_name};

use crate::attribution::{all_kind_words, name_words};
use crate::revocation::{GENERIC_VERBS, NEGATIONS, SUBJECT_STOP_WORDS, strip_possessive};
use crate::text::match_form;
use crate::{ProposedRevocation, REPEATED_FAILURE_TAG, RevocationKind};

/// Whether `revocation` lifts `rule`.
///
/// Repeated-failure observations (`post_turn`, tag `repeated-failure`) are never lifted: they
/// are not restrictions the user set, and the next failure would bring them back anyway. Any
/// other rule is judged on its tool and text by [`revocation_matches_text`].
pub fn revocation_matches(revocation: &ProposedRevocation, rule: &ToolMemoryRule) -> bool {
    if rule.source == ToolMemorySource::PostTurn
        || rule.tags.iter().any(|tag| tag == REPEATED_FAILURE_TAG)
    {
        return false;
    }
    revocation_matches_text(revocation, &rule.tool_name, &rule.rule)
}

/// Whether `revocation` lifts the rule `rule_text` stored on `tool_name`.
///
/// 1. **Tool.** With an explicit tool (named or aliased), the rule must be on that tool or on
///    `__unscoped__`; with a fallback tool, on any tool.
/// 2. **Words.** Every subject word must be a whole word of the rule (case-insensitive, with
///    possessives, plurals and `-ing`/`-ed` forms folded: "Sarah's" counts for "sarah", "runs"
///    for "run"), except that "Bob's wife" is about the wife: a possessive followed by a word
///    the subject lacks does not count for its owner. A word of the explicit tool's own name
///    ("slack" for `slack_post`) also counts when the rule is on that tool.
/// 3. **Reach.** A permission whose words all name tools or kinds of tool ("you may use the
///    browser again", "feel free to use the terminal") lifts only blanket bans: rules with no
///    words left once negations, generic verbs and tool words are set aside ("Don't use the
///    browser."). An empty subject works the same, and only on the explicit tool. A retraction
///    ("forget the rule about the shell") lifts every rule on its topic.
pub fn revocation_matches_text(
    revocation: &ProposedRevocation,
    tool_name: &str,
    rule_text: &str,
) -> bool {
    let rule_tool = normalize_tool_name(tool_name);
    let revocation_tool = normalize_tool_name(&revocation.tool_name);
    let explicit = revocation.tool_explicit && revocation_tool != UNSCOPED_TOOL;
    let same_tool = rule_tool == revocation_tool;
    if explicit && !same_tool && rule_tool != UNSCOPED_TOOL {
        return false;
    }
    let on_named_tool = explicit && same_tool;
    let subject: Vec<String> = revocation
        .subject
        .iter()
        .flat_map(|entry| words(entry))
        .filter(|word| is_significant(word))
        .map(|word| stem(&word))
        .collect();
    if subject.is_empty() {
        return on_named_tool && is_blanket(rule_text, &rule_tool);
    }
    let rule_words = rule_words(rule_text);
    let tool_stems: Vec<String> = if on_named_tool {
        name_words(&revocation_tool)
            .iter()
            .map(|word| stem(word))
            .collect()
    } else {
        Vec::new()
    };
    let all_named = subject.iter().all(|word| {
        tool_stems.contains(word)
            || rule_words.iter().enumerate().any(|(index, rule_word)| {
                rule_word.stem == *word
                    && (!rule_word.possessive
                        || rule_words.get(index + 1).is_none_or(|owned| {
                            !is_significant(&owned.text)
                                || is_kind_stem(&owned.stem, &rule_tool)
                                || subject.contains(&owned.stem)
                        }))
            })
    });
    if !all_named {
        return false;
    }
    let only_tool_words = subject
        .iter()
        .all(|word| is_kind_stem(word, &rule_tool) || is_kind_stem(word, &revocation_tool));
    match revocation.kind {
        RevocationKind::Permission if only_tool_words => is_blanket(rule_text, &rule_tool),
        _ => true,
    }
}

/// Whether a rule bans its tool as a whole: no word is left once stop words, negations,
/// generic verbs and the words naming the tool or a kind of tool are set aside ("Never use the
/// shell.", "Don't send calendar invites.", "Stop using Slack!"). A clause that only offers
/// the alternative ("Don't use Gmail, use Outlook.") does not make a ban specific.
fn is_blanket(rule_text: &str, tool_name: &str) -> bool {
    let form = match_form(rule_text);
    form.split([',', ';', '(', '—', '–'])
        .filter(|clause| {
            let first = clause.split_whitespace().next().unwrap_or("");
            !ALTERNATIVES.contains(&first)
        })
        .flat_map(words)
        .filter(|word| is_significant(word) && !BLANKET_MARKERS.contains(&word.as_str()))
        .all(|word| is_kind_stem(&stem(&word), tool_name))
}

/// Words that open a clause offering an alternative rather than narrowing the ban.
const ALTERNATIVES: &[&str] = &["use", "instead", "try", "prefer", "switch"];

/// Edict markers and fillers that say how strongly, not what.
const BLANKET_MARKERS: &[&str] = &[
    "always",
    "must",
    "mustn't",
    "should",
    "shouldn't",
    "shall",
    "under",
    "circumstances",
    "whatsoever",
    "going",
    "forward",
    "future",
    "henceforth",
    "seriously",
    "period",
    "want",
    "i'd",
    "rather",
    "didn't",
    "won't",
    "can't",
    "cannot",
    "are",
    "not",
    "stop",
    "quit",
];

fn is_significant(word: &str) -> bool {
    !SUBJECT_STOP_WORDS.contains(&word)
        && !NEGATIONS.contains(&word)
        && !GENERIC_VERBS.contains(&word)
}

static ALL_KIND_STEMS: LazyLock<Vec<String>> =
    LazyLock::new(|| all_kind_words().map(stem).collect());

/// Whether every significant word of `subject` only names `tool_name` (a word of its name or a
/// kind of tool): "the invoice rule" on `void_invoice` says which tool, not which rule.
pub(crate) fn names_only_tool(subject: &[String], tool_name: &str) -> bool {
    let tool = normalize_tool_name(tool_name);
    let mut significant = subject
        .iter()
        .flat_map(|entry| words(entry))
        .filter(|word| is_significant(word))
        .peekable();
    significant.peek().is_some() && significant.all(|word| is_kind_stem(&stem(&word), &tool))
}

fn is_kind_stem(word_stem: &str, tool_name: &str) -> bool {
    ALL_KIND_STEMS.iter().any(|kind| kind == word_stem)
        || name_words(tool_name)
            .iter()
            .any(|word| stem(word) == word_stem)
}

/// A word of a rule, for matching.
struct RuleWord {
    text: String,
    stem: String,
    /// Written with `'s`: "Bob's wife".
    possessive: bool,
}

fn rule_words(text: &str) -> Vec<RuleWord> {
    match_form(text)
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '\''))
        .map(|piece| piece.trim_matches('\''))
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let text = strip_possessive(piece);
            RuleWord {
                text: text.to_owned(),
                stem: stem(text),
                possessive: text.len() != piece.len(),
            }
        })
        .collect()
}

/// The words of `text`: lower-cased, split at anything but letters, digits and inner
/// apostrophes (so `sarah@example.com` is `sarah`, `example`, `com` and `force-push` is
/// `force`, `push`), possessives dropped.
fn words(text: &str) -> Vec<String> {
    match_form(text)
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '\''))
        .map(|piece| strip_possessive(piece.trim_matches('\'')))
        .filter(|piece| !piece.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A crude stem that folds the forms users write for one word: plurals (`runs`, `pushes`,
/// `policies`), `-ing` and `-ed` (`emailing`, `running`, `used`), a final `e` (`invite`,
/// `inviting`) and `'s`. Both sides are stemmed the same way, so consistency matters more than
/// linguistics.
pub(crate) fn stem(word: &str) -> String {
    let mut stem = strip_possessive(word).to_owned();
    for suffix in ["'ing", "'ed", "'d"] {
        if let Some(base) = stem.strip_suffix(suffix) {
            return base.to_owned();
        }
    }
    if stem.len() > 4 && stem.ends_with("ies") {
        stem.truncate(stem.len() - 3);
        stem.push('y');
    } else if ["sses", "shes", "ches", "xes", "zes"]
        .iter()
        .any(|ending| stem.ends_with(ending))
    {
        stem.truncate(stem.len() - 2);
    } else if stem.len() > 3
        && stem.ends_with('s')
        && !["ss", "us", "sis", "xis"]
            .iter()
            .any(|ending| stem.ends_with(ending))
    {
        stem.truncate(stem.len() - 1);
    }
    if stem.len() > 4 && stem.ends_with("ing") {
        stem.truncate(stem.len() - 3);
        undouble(&mut stem);
    } else if stem.len() > 3 && stem.ends_with("ed") {
        stem.truncate(stem.len() - 2);
        undouble(&mut stem);
    }
    if stem.len() >= 3 && stem.ends_with('e') {
        stem.pop();
    }
    stem
}

/// "runn" → "run", "stopp" → "stop"; "call" and "pass" keep their double letters.
fn undouble(stem: &mut String) {
    let bytes = stem.as_bytes();
    if bytes.len() >= 3
        && bytes[bytes.len() - 1] == bytes[bytes.len() - 2]
        && b"bdgmnprt".contains(&bytes[bytes.len() - 1])
    {
        stem.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn revocation(
        kind: RevocationKind,
        tool: &str,
        explicit: bool,
        subject: &[&str],
    ) -> ProposedRevocation {
        ProposedRevocation {
            tool_name: tool.to_owned(),
            tool_explicit: explicit,
            kind,
            subject: subject.iter().map(|word| (*word).to_owned()).collect(),
            text: String::new(),
        }
    }

    /// For each `(tool, rule text, lifted)` row, whether `revocation` lifts it.
    fn check(revocation: &ProposedRevocation, rows: &[(&str, &str, bool)]) {
        for (tool, rule, lifted) in rows {
            assert_eq!(
                revocation_matches_text(revocation, tool, rule),
                *lifted,
                "{revocation:?} on ({tool}, {rule:?})"
            );
        }
    }

    use RevocationKind::{Permission, Retraction};

    #[test]
    fn subject_words_must_all_be_in_the_rule() {
        check(
            &revocation(Permission, "send_email", true, &["sarah"]),
            &[
                (
                    "send_email",
                    "Never email Sarah at sarah@example.com.",
                    true,
                ),
                ("send_email", "Don't reply to Sarah's emails.", true),
                ("send_email", "Don't email Sarah's husband.", false),
                ("send_email", "Never email Bob.", false),
                ("send_email", "Never email Sarahjane.", false),
                ("slack", "Never DM Sarah.", false),
                ("__unscoped__", "Never contact Sarah.", true),
            ],
        );
        check(
            &revocation(Permission, "send_email", true, &["sarah", "manager"]),
            &[
                (
                    "send_email",
                    "Never email Sarah at sarah@example.com.",
                    false,
                ),
                ("send_email", "Never email Sarah's manager.", true),
            ],
        );
        check(
            &revocation(Permission, "send_email", true, &["team"]),
            &[("send_email", "Never email Sarah.", false)],
        );
        check(
            &revocation(Retraction, "bash", false, &["dry", "runs"]),
            &[
                ("bash", "Always do a dry run first.", true),
                ("deploy", "Always do a dry-run before deploying.", true),
                ("bash", "Always run the tests first.", false),
            ],
        );
    }

    #[test]
    fn tool_words_reach_only_blanket_bans_for_permissions() {
        let browser = revocation(Permission, "browser", true, &["browser"]);
        check(
            &browser,
            &[
                ("browser", "Don't use the browser.", true),
                ("browser", "Stop browsing the web!", true),
                ("browser", "Never log into my bank.", false),
                ("browser", "Don't open the browser for news.", false),
                ("__unscoped__", "Don't use the browser.", true),
                ("shell", "Don't use the browser.", false),
            ],
        );
        check(
            &revocation(Permission, "browser", true, &[]),
            &[
                ("browser", "Never use the browser.", true),
                ("browser", "Never log into my bank.", false),
                ("__unscoped__", "Never use the browser.", false),
            ],
        );
        check(
            &revocation(Permission, "bash", true, &["sudo"]),
            &[
                ("bash", "Never use sudo.", true),
                ("bash", "Don't run shell commands with sudo.", true),
                ("bash", "Never run rm -rf.", false),
                ("bash", "Never use the terminal.", false),
            ],
        );
        check(
            &revocation(Permission, "bash", true, &["terminal"]),
            &[
                ("bash", "Never use the terminal.", true),
                ("bash", "Do not touch the shell, ever.", false),
                ("bash", "Never use sudo.", false),
            ],
        );
    }

    #[test]
    fn retractions_reach_every_rule_on_their_topic() {
        check(
            &revocation(Retraction, "shell", true, &["shell"]),
            &[
                ("shell", "Never use sudo.", true),
                ("shell", "Never use the shell.", true),
                ("__unscoped__", "Never paste secrets into the shell.", true),
                ("__unscoped__", "Never use sudo.", false),
                ("browser", "Never use the shell.", false),
            ],
        );
        check(
            &revocation(Retraction, "send_email", false, &["sarah"]),
            &[
                ("slack", "Never DM Sarah.", true),
                ("send_email", "Never email Bob.", false),
            ],
        );
    }

    #[test]
    fn without_a_subject_or_an_explicit_tool_nothing_matches() {
        check(
            &revocation(Permission, "bash", false, &[]),
            &[("bash", "Never use the shell.", false)],
        );
        check(
            &revocation(Permission, UNSCOPED_TOOL, true, &[]),
            &[(UNSCOPED_TOOL, "Never do that.", false)],
        );
    }

    #[test]
    fn observations_are_never_lifted() {
        let timestamp = tool_memory_core::Timestamp::from_unix_micros(0).unwrap();
        let mut rule = ToolMemoryRule {
            id: "r".to_owned(),
            tool_name: "shell".to_owned(),
            rule: "Tool failed 2 times in one turn (shell: failed (timeout)).".to_owned(),
            priority: tool_memory_core::ToolMemoryPriority::Normal,
            source: ToolMemorySource::PostTurn,
            tags: vec![REPEATED_FAILURE_TAG.to_owned()],
            created_at: timestamp,
            updated_at: timestamp,
            meta: Default::default(),
        };
        let forget = revocation(Retraction, "shell", true, &["shell"]);
        assert!(!revocation_matches(&forget, &rule));
        rule.source = ToolMemorySource::UserExplicit;
        rule.tags = vec![crate::EDICT_TAG.to_owned()];
        assert!(revocation_matches(&forget, &rule));
    }

    #[test]
    fn stems_fold_common_forms() {
        for (left, right) in [
            ("runs", "run"),
            ("running", "run"),
            ("emailing", "email"),
            ("invites", "invite"),
            ("inviting", "invite"),
            ("pushes", "push"),
            ("sarah's", "sarah"),
            ("policies", "policy"),
            ("used", "use"),
            ("using", "use"),
            ("cc'ing", "cc"),
            ("calling", "call"),
            ("emojis", "emoji"),
            ("apis", "api"),
        ] {
            assert_eq!(stem(left), stem(right), "{left} vs {right}");
        }
        for (left, right) in [("sarah", "sara"), ("manager", "man"), ("team", "tea")] {
            assert_ne!(stem(left), stem(right), "{left} vs {right}");
        }
    }
}
