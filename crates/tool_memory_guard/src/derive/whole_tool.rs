//! Rules about a tool or an operation as a whole, which name no literal: "Do not merge PRs" on
//! `merge_pull_request`, "never message anyone" on `post_message`, "don't restart anything" on
//! the shell, and "Never call `merge_pull_request`" on that tool.

use crate::derive::lexicon::{
    ALTERNATIVES, DATABASE_TOOL_WORDS, SQL_WRITE_STATEMENTS, subcommands,
};
use crate::normalize::WordRuns;
use crate::{Constraint, Matcher, MatcherKind};

/// The words of what a tool does: the name after an MCP server's prefix
/// (`mcp__github__merge_pull_request` → merge, pull, request). `None` for the tools of a
/// family and the no-tool sentinel: their rules are about what the call runs, not the tool.
pub(crate) fn action_words(tool_name: &str) -> Option<Vec<String>> {
    let tool = tool_name.trim().to_lowercase();
    if tool == tool_memory_core::UNSCOPED_TOOL || tool_memory_core::ToolFamily::of(&tool).is_some()
    {
        return None;
    }
    let action = tool.rsplit("__").next().unwrap_or(&tool);
    let words: Vec<String> = action
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect();
    (!words.is_empty()).then_some(words)
}

/// "Never call `merge_pull_request`" on that tool names the tool itself: the literal becomes
/// the tool's command, which every call of the tool runs.
pub(crate) fn names_the_tool(mut constraint: Constraint, tool_name: &str) -> Constraint {
    let Some(action) = action_words(tool_name) else {
        return constraint;
    };
    let spelled = action.join("_");
    // The tool's own name in full (`mcp__github__merge_pull_request`) names it too.
    let full = tool_name.trim().to_lowercase();
    for matcher in &mut constraint.matchers {
        let value = matcher.value.trim().to_lowercase();
        if matcher.kind == MatcherKind::Literal && (value == spelled || value == full) {
            *matcher = Matcher::new(MatcherKind::Command, action.join(" "));
        }
    }
    constraint
}

/// "Don't restart anything", "never deploy anything" on the shell: an operation, named by a
/// subcommand some program has, forbidden for every object. No program is named, so the
/// word is forbidden in whatever command carries it (`kubectl rollout restart`,
/// `systemctl restart nginx`). Only with a universal object, as for [`forbids_the_tool`].
pub(crate) fn forbids_an_operation(
    words: &WordRuns<'_>,
    lower: &str,
    tool_name: &str,
) -> Option<Matcher> {
    if tool_memory_core::ToolFamily::of(tool_name) != Some(tool_memory_core::ToolFamily::Shell) {
        return None;
    }
    if NARROWING_WORDS.iter().any(|word| words.has_run(word)) {
        return None;
    }
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'' && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    rule_words.windows(2).find_map(|pair| {
        let [verb, object] = [pair[0], pair[1]];
        let operation = OPERATION_PROGRAMS
            .iter()
            .any(|program| subcommands(program).contains(&verb));
        (operation && UNIVERSAL_WORDS.contains(&object))
            .then(|| Matcher::new(MatcherKind::Literal, verb))
    })
}

/// Programs whose subcommands are operations a rule may forbid by name alone.
pub(crate) const OPERATION_PROGRAMS: &[&str] =
    &["git", "kubectl", "docker", "helm", "systemctl", "vercel"];

/// Words that narrow "anyone" or "any" to some of them, which the call's arguments would have
/// to show: a rule with one of them is not about every call.
pub(crate) const NARROWING_WORDS: &[&str] = &[
    "after", "before", "except", "if", "less", "more", "other", "outside", "over", "than", "that",
    "under", "when", "which", "who", "whose",
];
/// Words that make an order about every object of the verb: "never message anyone".
pub(crate) const UNIVERSAL_WORDS: &[&str] = &[
    "all",
    "any",
    "anybody",
    "anyone",
    "anything",
    "every",
    "everybody",
    "everyone",
    "everything",
];

/// A forbid rule that names no literal but forbids what its own tool does, for every object:
/// "Do not merge PRs" on `merge_pull_request`, "never message anyone on Slack" on
/// `post_message`. The rule is about the tool itself, so every call of it is forbidden. A rule
/// with a possessive or narrowed object ("don't email my landlord", "anyone outside the
/// team") names something the guard cannot read, and stays advice.
pub(crate) fn forbids_the_tool(
    words: &WordRuns<'_>,
    lower: &str,
    tool_name: &str,
) -> Option<Matcher> {
    let action = action_words(tool_name)?;
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    let verb_at = rule_words.iter().position(|word| {
        action
            .iter()
            .any(|action_word| action_word.len() >= 4 && word.starts_with(action_word.as_str()))
    })?;
    if NARROWING_WORDS.iter().any(|word| words.has_run(word)) {
        return None;
    }
    let object = rule_words.get(verb_at + 1).copied().unwrap_or_default();
    let generic_plural = object.len() >= 3
        && object.ends_with('s')
        && !matches!(
            object,
            "his" | "its" | "this" | "us" | "yours" | "ours" | "theirs"
        );
    let every = UNIVERSAL_WORDS.contains(&object) || generic_plural;
    every.then(|| Matcher::new(MatcherKind::Command, action.join(" ")))
}

/// The tool's own command when its verb appears in the rule, whatever the object: for a rule
/// under a condition ("never refund more than $500" on `stripe_refund`), where the object is
/// the situation.
pub(crate) fn does_the_tool(lower: &str, tool_name: &str) -> Option<Matcher> {
    let action = action_words(tool_name)?;
    // "refund" for `refund`, "refunds" for it too, "pay" for `payment`.
    let mentioned = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .any(|word| {
            action.iter().any(|action_word| {
                (action_word.len() >= 4 && word.starts_with(action_word.as_str()))
                    || (word.len() >= 3 && action_word.starts_with(word))
            })
        });
    mentioned.then(|| Matcher::new(MatcherKind::Command, action.join(" ")))
}

/// An operation named by a subcommand some program has ("deploy", "restart"), on the shell,
/// whatever its object: for a rule under a condition ("don't deploy on Fridays").
pub(crate) fn names_an_operation(lower: &str, tool_name: &str) -> Option<Matcher> {
    if tool_memory_core::ToolFamily::of(tool_name) != Some(tool_memory_core::ToolFamily::Shell) {
        return None;
    }
    lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '-')
        .find(|word| {
            !GENERIC_VERBS.contains(word)
                && OPERATION_PROGRAMS
                    .iter()
                    .any(|program| subcommands(program).contains(word))
        })
        .map(|verb| Matcher::new(MatcherKind::Literal, verb))
}

/// Subcommands too general to name an operation on their own ("never run migrations during
/// business hours" is not about every `run`).
const GENERIC_VERBS: &[&str] = &[
    "create", "describe", "exec", "get", "help", "list", "run", "set", "show", "start", "use",
    "version",
];

/// Whether a clause says a database is read-only: "read-only", "readonly", "SELECT statements
/// only", "only SELECT", "SELECT alone", "no writes".
pub(crate) fn says_read_only(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    let near = |a: &str, b: &[&str]| {
        words.iter().enumerate().any(|(at, word)| {
            *word == a
                && words[at.saturating_sub(3)..(at + 4).min(words.len())]
                    .iter()
                    .any(|other| b.contains(other))
        })
    };
    words
        .iter()
        .any(|word| matches!(*word, "read-only" | "readonly"))
        || lower.contains("read only")
        || near("select", &["only", "alone", "just"])
        || lower.contains("no writes")
}

/// A read-only rule on a tool that runs database statements ("`run_query` is read-only: SELECT
/// statements alone"): every statement that changes data or schema is forbidden, so `SELECT`
/// (and `WITH`, `EXPLAIN`, `SHOW`) stays allowed. Each is a `command`: a statement is its own
/// command line (`BEGIN; DELETE FROM t; COMMIT`), so `SELECT replace(name, ...)` is no
/// `REPLACE` statement.
pub(crate) fn read_only_database(lower: &str, tool_name: &str) -> Option<Constraint> {
    let tool = tool_name.trim().to_lowercase();
    let database = tool
        .split(|ch: char| !ch.is_alphanumeric())
        .any(|word| DATABASE_TOOL_WORDS.contains(&word));
    (database && says_read_only(lower)).then(|| {
        Constraint::forbid(
            SQL_WRITE_STATEMENTS
                .iter()
                .map(|statement| Matcher::new(MatcherKind::Command, *statement))
                .collect(),
        )
    })
}

/// A job's programs with their commands (one list of [`ALTERNATIVES`]).
type Family = &'static [(&'static str, &'static [&'static str])];

/// The one program of a job a rule allows: "Package management is bun only", "only use
/// `uv`", "`podman` exclusively", "pnpm, nothing else". `None` unless the rule names one
/// program of [`ALTERNATIVES`] beside "only", "exclusively" or "nothing else".
fn the_only_one(lower: &str) -> Option<(Family, &'static str)> {
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    let only_at: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, word)| matches!(**word, "only" | "exclusively" | "solely"))
        .map(|(at, _)| at)
        .chain(
            words
                .windows(2)
                .enumerate()
                .filter(|(_, pair)| pair == &["nothing", "else"] || pair == &["no", "other"])
                .map(|(at, _)| at),
        )
        .collect();
    for at in only_at {
        let near = &words[at.saturating_sub(3)..(at + 4).min(words.len())];
        for family in ALTERNATIVES {
            let named: Vec<&str> = family
                .iter()
                .filter(|(program, _)| near.contains(program))
                .map(|(program, _)| *program)
                .collect();
            if let [one] = named.as_slice() {
                return Some((family, one));
            }
        }
    }
    None
}

/// Whether a clause names the one program of a job ([`the_only_one`]): an order.
pub(crate) fn says_only_one(lower: &str) -> bool {
    the_only_one(lower).is_some()
}

/// "Package management is bun only": every other program of the job is forbidden.
pub(crate) fn only_one_program(lower: &str) -> Option<Constraint> {
    let (family, chosen) = the_only_one(lower)?;
    let others: Vec<Matcher> = family
        .iter()
        .filter(|(program, _)| *program != chosen)
        .flat_map(|(_, commands)| commands.iter())
        .map(|command| Matcher::new(MatcherKind::Command, *command))
        .collect();
    Some(Constraint::forbid(others))
}
