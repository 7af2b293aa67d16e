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
    // A rule written on a family by its name (`file_edit`) is about what the call runs too.
    let family_named = tool_memory_core::ToolFamily::ALL
        .iter()
        .any(|family| family.as_str() == tool);
    if tool == tool_memory_core::UNSCOPED_TOOL
        || family_named
        || tool_memory_core::ToolFamily::of(&tool).is_some()
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

/// Whether a matcher is the tool's own name, spelled as its action (`merge_pull_request`) or in
/// full (`mcp__github__merge_pull_request`).
/// (A handle-shaped name after a verb of contact, "call `merge_pull_request`", is read as a
/// person too: that person is the tool as well.)
pub(crate) fn is_the_tool(matcher: &Matcher, tool_name: &str) -> bool {
    let Some(action) = action_words(tool_name) else {
        return false;
    };
    let value = matcher.value.trim().to_lowercase();
    match matcher.kind {
        MatcherKind::Literal => {
            value == action.join("_") || value == tool_name.trim().to_lowercase()
        }
        MatcherKind::Person => value == action.join(" "),
        _ => false,
    }
}

/// "Never call `merge_pull_request`" on that tool names the tool itself: the literal becomes
/// the tool's command, which every call of the tool runs. When the rule names something else
/// beside it ("Never post to #general with `mcp__slack__post_message`", "never call
/// `apply_migration` through `use_mcp_tool`"), the tool is only the way the ban is broken and
/// the other literals are the ban: the tool's name is dropped, or it would forbid every call.
pub(crate) fn names_the_tool(mut constraint: Constraint, tool_name: &str) -> Constraint {
    let Some(action) = action_words(tool_name) else {
        return constraint;
    };
    if !constraint
        .matchers
        .iter()
        .any(|matcher| is_the_tool(matcher, tool_name))
    {
        return constraint;
    }
    if constraint
        .matchers
        .iter()
        .any(|matcher| !is_the_tool(matcher, tool_name))
    {
        constraint
            .matchers
            .retain(|matcher| !is_the_tool(matcher, tool_name));
        return constraint;
    }
    for matcher in &mut constraint.matchers {
        *matcher = Matcher::new(MatcherKind::Command, action.join(" "));
    }
    constraint.matchers.dedup();
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
/// `post_message`, "Never delete Jira issues" on `delete_issue`, "ask me before issuing any
/// refund" on `create_refund`, "never send email" on `send_email`. The rule is about the tool
/// itself, so every call of it is forbidden. The tool's verb or noun is found in any of its
/// forms (`archiving` for `archive`), and its object is universal: "any", "every", "all", a
/// plural ("issues", "pull requests", "PRs"), or the tool's own noun bare ("send email"). A
/// rule with a possessive or narrowed object ("don't email my landlord", "anyone outside the
/// team", "anything about customers") names something the guard cannot read, and stays
/// advice.
pub(crate) fn forbids_the_tool(
    words: &WordRuns<'_>,
    lower: &str,
    tool_name: &str,
) -> Option<Matcher> {
    let action = action_words(tool_name).or_else(|| own_words(tool_name))?;
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    if NARROWING_WORDS.iter().any(|word| words.has_run(word)) && narrows(&rule_words) {
        return None;
    }
    let every = rule_words.iter().enumerate().any(|(at, word)| {
        // "accept, decline or delete meetings": the object of a list of verbs follows the last.
        let after = past_other_verbs(&rule_words[at + 1..]);
        if after.len() + 1 < rule_words.len() - at
            && (action
                .iter()
                .any(|action_word| is_form_of_action(word, action_word))
                || kind_of_action(word, &action).is_some())
            && universal_object(after, &action)
        {
            return true;
        }
        let Some(action_word) = action
            .iter()
            .find(|action_word| is_form_of_action(word, action_word))
            .or_else(|| kind_of_action(word, &action))
        else {
            return false;
        };
        // "delete Jira issues", "merge pull requests", "message anyone", "send email".
        if universal_object(&rule_words[at + 1..], &action) {
            return true;
        }
        // "refunds", "any refund", "every Jira issue": the tool's noun for every object, when
        // what is done to it is what the tool does ("No refunds", "issuing any refund"), not
        // another operation ("don't close issues" on `issue_write`: see
        // [`operation_on_the_tool`]).
        every_object(&rule_words, at, action_word)
            && matches!(
                verb_of(&rule_words[..at], &action),
                None | Some(Verb::Doing | Verb::Tool)
            )
    });
    every.then(|| Matcher::new(MatcherKind::Command, action.join(" ")))
}

/// Whether the tool's word at `at` is its noun for every object: in the plural ("issues",
/// "refunds") or after a universal word ("any refund", "every Jira issue").
fn every_object(rule_words: &[&str], at: usize, action_word: &str) -> bool {
    let word = rule_words[at];
    // "my issues", "Sarah's refunds": someone's, not every one.
    if rule_words[at.saturating_sub(3)..at]
        .iter()
        .any(|before| POSSESSIVES.contains(before) || before.ends_with("'s"))
    {
        return false;
    }
    let plural = word != action_word && is_plural_of(word, action_word);
    let determined = rule_words[at.saturating_sub(2)..at]
        .iter()
        .any(|before| UNIVERSAL_WORDS.contains(before));
    plural || determined
}

/// What the words before a tool's noun do to it, read back to the order's cue (at most four
/// words): the tool's own verb (`delete` for `delete_issue`), a verb of doing in general
/// ("issuing any refund", "making payments"), another verb ("close" in "don't close
/// issues"), or none ("No refunds").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb<'a> {
    Tool,
    Doing,
    Other(&'a str),
}

fn verb_of<'a>(before: &[&'a str], action: &[String]) -> Option<Verb<'a>> {
    let mut verb = None;
    for word in before.iter().rev().take(4) {
        if ORDER_WORDS.contains(word) {
            break;
        }
        if UNIVERSAL_WORDS.contains(word) || DETERMINERS.contains(word) {
            continue;
        }
        verb = Some(
            if action
                .iter()
                .any(|action_word| is_form_of_action(word, action_word))
            {
                Verb::Tool
            } else if DOING_VERBS.contains(word) {
                Verb::Doing
            } else {
                Verb::Other(word)
            },
        );
    }
    verb
}

/// A ban on another operation on the tool's noun: "Don't close issues" on `issue_write`
/// forbids the calls that say the operation (`{"state": "closed"}`), in its forms ("close",
/// "closed", "closing"), not every call of the tool.
pub(crate) fn operation_on_the_tool(lower: &str, tool_name: &str) -> Option<Vec<Matcher>> {
    let action = action_words(tool_name)?;
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    if narrows(&rule_words) {
        return None;
    }
    rule_words.iter().enumerate().find_map(|(at, word)| {
        let action_word = action
            .iter()
            .find(|action_word| is_form_of_action(word, action_word))?;
        if !every_object(&rule_words, at, action_word) {
            return None;
        }
        let Some(Verb::Other(verb)) = verb_of(&rule_words[..at], &action) else {
            return None;
        };
        let operation = verb.len() >= 4
            && verb.chars().all(|ch| ch.is_ascii_alphabetic())
            && rule_words[..at]
                .iter()
                .rev()
                .take(4)
                .any(|word| ORDER_WORDS.contains(word));
        operation.then(|| {
            verb_forms(verb)
                .into_iter()
                .map(|form| Matcher::new(MatcherKind::Literal, form))
                .collect()
        })
    })
}

/// A verb in its plain, past and -ing forms: "close", "closed", "closing"; "lock", "locked",
/// "locking".
fn verb_forms(verb: &str) -> Vec<String> {
    let stem = verb.strip_suffix('e').unwrap_or(verb);
    if stem.len() < verb.len() {
        vec![verb.to_owned(), format!("{verb}d"), format!("{stem}ing")]
    } else {
        vec![verb.to_owned(), format!("{verb}ed"), format!("{verb}ing")]
    }
}

/// Words that give the order a verb follows: what lies before them is no part of the object.
const ORDER_WORDS: &[&str] = &[
    "avoid", "before", "cannot", "can't", "don't", "dont", "never", "no", "not", "stop",
];

/// Words that only point at the object.
const DETERMINERS: &[&str] = &["a", "an", "the", "new", "yourself"];

/// Verbs of doing in general: "issuing a refund" is making one, as `create_refund` does.
const DOING_VERBS: &[&str] = &[
    "create",
    "creating",
    "do",
    "doing",
    "execute",
    "executing",
    "file",
    "filing",
    "give",
    "giving",
    "grant",
    "granting",
    "initiate",
    "initiating",
    "issue",
    "issuing",
    "make",
    "making",
    "open",
    "opening",
    "perform",
    "performing",
    "place",
    "placing",
    "post",
    "posting",
    "process",
    "processing",
    "run",
    "running",
    "send",
    "sending",
    "start",
    "starting",
    "submit",
    "submitting",
    "trigger",
    "triggering",
];

/// Whether a narrowing word of the rule narrows its object: "before" and "after" of an ask
/// ("ask me before issuing any refund", "check with me first before") say when to ask, not
/// which refunds.
fn narrows(rule_words: &[&str]) -> bool {
    rule_words.iter().enumerate().any(|(at, word)| {
        NARROWING_WORDS.contains(word)
            && !(matches!(*word, "before" | "after")
                && at > 0
                && matches!(rule_words[at - 1], "ask" | "me" | "us" | "first" | "asking"))
    })
}

/// Whether `word` is a form of a word of a tool's action: `archiving`, `archived`, `archives`
/// for `archive`; `merging` for `merge`; `issues` for `issue`. Words shorter than four letters
/// (`get`, `pr`) say too little on their own.
fn is_form_of_action(word: &str, action_word: &str) -> bool {
    if action_word.len() < 4 {
        return false;
    }
    let stem = action_word.strip_suffix('e').unwrap_or(action_word);
    word.strip_prefix(stem).is_some_and(|rest| {
        matches!(rest, "" | "e" | "s" | "es" | "ing" | "ed" | "d")
            || (rest.len() == 4
                && rest.ends_with("ing")
                && rest.starts_with(|ch: char| stem.ends_with(ch)))
    })
}

/// The words of a built-in tool's name (`delete_file` → delete, file), which [`action_words`]
/// leaves out since the tool is of a family: a ban on what the tool itself does ("NEVER
/// DELETE FILES" on `delete_file`) is still about every call of it. `None` for the no-tool
/// group and a family's own name.
pub(crate) fn own_words(tool_name: &str) -> Option<Vec<String>> {
    let tool = tool_name.trim().to_lowercase();
    let family_named = tool_memory_core::ToolFamily::ALL
        .iter()
        .any(|family| family.as_str() == tool);
    if tool == tool_memory_core::UNSCOPED_TOOL || family_named || !tool.contains('_') {
        return None;
    }
    let action = tool.rsplit("__").next().unwrap_or(&tool);
    let words: Vec<String> = action
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect();
    (words.len() >= 2).then_some(words)
}

/// The words after a verb past the other verbs listed with it: "decline or delete meetings"
/// → "meetings", "or decline invitations" → "invitations". Unchanged when no list follows.
fn past_other_verbs<'a, 'b>(after: &'a [&'b str]) -> &'a [&'b str] {
    let conjunction = |word: &&str| matches!(*word, "or" | "and" | "nor");
    match after {
        [first, _, rest @ ..] if conjunction(first) => rest,
        [_, second, _, rest @ ..] if conjunction(second) => rest,
        _ => after,
    }
}

/// The tool's verb that `word` is a kind of ([`ACTION_KINDS`]): "accept or decline
/// invitations" on `respond_to_event`, "remove files" on `delete_file`.
fn kind_of_action<'a>(word: &str, action: &'a [String]) -> Option<&'a String> {
    action.iter().find(|action_word| {
        ACTION_KINDS
            .iter()
            .find(|(verb, _)| verb == action_word)
            .is_some_and(|(_, kinds)| kinds.iter().any(|kind| is_form_of_action(word, kind)))
    })
}

/// Tools' verbs, each with the verbs that name a kind of it (sorted by the tool's verb).
const ACTION_KINDS: &[(&str, &[&str])] = &[
    ("delete", &["erase", "remove", "trash", "wipe"]),
    ("merge", &["land"]),
    ("respond", &["accept", "decline", "reject", "rsvp"]),
    ("send", &["email", "mail"]),
    ("transition", &["move"]),
];

/// Whether `word` is the plural of `noun`: `issues`, `refunds`, `policies`.
fn is_plural_of(word: &str, noun: &str) -> bool {
    word.strip_prefix(noun)
        .is_some_and(|rest| rest == "s" || rest == "es")
        || noun
            .strip_suffix('y')
            .is_some_and(|stem| word.strip_prefix(stem) == Some("ies"))
}

/// Whether the words after a tool's verb make its object every object: a universal word or a
/// plural within three words ("delete Jira issues", "merge pull requests"), or the tool's own
/// noun right after it ("send email"). A possessive ends the object ("my landlord's").
fn universal_object(after: &[&str], action: &[String]) -> bool {
    // The tool's own object, or its mass noun ("mail" for `delete_email`: "No deleting mail,
    // ever").
    if after.first().is_some_and(|next| {
        action.iter().any(|word| {
            word.len() >= 4 && (word == next || (next.len() >= 4 && word.ends_with(next)))
        })
    }) {
        return true;
    }
    // "Deleting a Zendesk user", "send a message": one of the tool's objects, any one, with
    // at most one word between (the service's name, an adjective).
    if after
        .first()
        .is_some_and(|first| matches!(*first, "a" | "an" | "any" | "one"))
        && after.iter().skip(1).take(2).any(|next| {
            action
                .iter()
                .any(|word| word.len() >= 3 && (word == next || same_noun(word, next)))
        })
    {
        return true;
    }
    for word in after.iter().take(3) {
        if POSSESSIVES.contains(word) || word.contains('\'') {
            return false;
        }
        if UNIVERSAL_WORDS.contains(word) || is_generic_plural(word) {
            return true;
        }
        if OBJECT_ENDS.contains(word) {
            return false;
        }
    }
    false
}

/// Whether two nouns name the same object of a tool: a message is a mail is an email.
fn same_noun(tool_word: &str, word: &str) -> bool {
    const MESSAGES: &[&str] = &["mail", "email", "message", "e-mail"];
    MESSAGES.contains(&tool_word) && MESSAGES.contains(&word)
}

/// Whether a word reads as a plural noun: ends in `s`, and is not a pronoun, a verb form of
/// "to be" or "to have" or a word that ends in `ss` or `us` (`access`, `status`).
fn is_generic_plural(word: &str) -> bool {
    word.len() >= 3
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !matches!(
            word,
            "his"
                | "its"
                | "this"
                | "yours"
                | "ours"
                | "theirs"
                | "was"
                | "has"
                | "does"
                | "yes"
                | "always"
                | "unless"
                | "perhaps"
        )
}

/// Words that own what follows them: the object is someone's, not every one.
const POSSESSIVES: &[&str] = &["her", "his", "its", "my", "our", "their", "your"];

/// Words that end a verb's object: what follows is no part of it.
const OBJECT_ENDS: &[&str] = &[
    "about", "and", "at", "by", "for", "from", "in", "into", "on", "or", "to", "with", "without",
];

/// The topic a ban on a tool's behaviour is about: "Don't store anything about customers with
/// `save_memory`" is about the calls that mention customers, not every call of the tool.
/// The nouns after "about", "regarding", "concerning", "involving" or "mentioning", each in
/// the singular and the plural; empty when the rule names no topic.
pub(crate) fn topic_words(lower: &str) -> Vec<String> {
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    let mut topic = Vec::new();
    for (at, word) in rule_words.iter().enumerate() {
        if !TOPIC_WORDS.contains(word) {
            continue;
        }
        for noun in rule_words[at + 1..].iter().take(3) {
            if OBJECT_ENDS.contains(noun) || noun.chars().any(|ch| !ch.is_alphabetic()) {
                break;
            }
            if noun.len() < 3
                || POSSESSIVES.contains(noun)
                || UNIVERSAL_WORDS.contains(noun)
                || TOPIC_FILLERS.contains(noun)
            {
                continue;
            }
            let singular = noun
                .strip_suffix("ies")
                .map(|stem| format!("{stem}y"))
                .or_else(|| {
                    noun.strip_suffix('s')
                        .filter(|stem| !stem.ends_with('s'))
                        .map(str::to_owned)
                })
                .unwrap_or_else(|| (*noun).to_owned());
            let plural = if singular == *noun {
                format!("{noun}s")
            } else {
                (*noun).to_owned()
            };
            for form in [singular, plural] {
                if !topic.contains(&form) {
                    topic.push(form);
                }
            }
        }
    }
    topic
}

/// Words after "about" that are no topic of their own: "about the customers", "about them".
const TOPIC_FILLERS: &[&str] = &[
    "any", "one", "some", "such", "that", "the", "them", "these", "this", "those", "what",
];

/// Words that introduce what something is about.
const TOPIC_WORDS: &[&str] = &[
    "about",
    "concerning",
    "involving",
    "mentioning",
    "regarding",
];

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
    // "don't touch `db-prod-2`, not even read-only": no order to read.
    let negated = words.iter().enumerate().any(|(at, word)| {
        matches!(*word, "read-only" | "readonly" | "read")
            && words[at.saturating_sub(2)..at]
                .iter()
                .any(|before| matches!(*before, "not" | "even" | "no"))
    });
    if negated {
        return false;
    }
    words
        .iter()
        .any(|word| matches!(*word, "read-only" | "readonly"))
        || lower.contains("read only")
        || near("select", &["only", "alone", "just"])
        // "Only SELECTs through the db tool".
        || near("selects", &["only", "alone", "just"])
        || lower.contains("no writes")
        // "Use the Supabase MCP server only to read", "for reading only", "reads only".
        || ["only to read", "only for reading", "for reading only", "just to read", "reads only"]
            .iter()
            .any(|phrase| lower.contains(phrase))
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

/// Phrases that keep an action for people: "`merge_pull_request` is for humans", "sending
/// invoices is for people only", "merging is my job". Sorted.
const FOR_PEOPLE: &[&str] = &[
    "for humans",
    "for people",
    "for the humans",
    "humans only",
    "is my job",
    "my call",
    "people only",
    "reserved for me",
    "reserved for people",
    "reserved for the team",
];

/// How many words "leave X to me" may span: the action and its object ("leave the merge
/// button to me" is seven).
const LEAVE_WINDOW: usize = 8;

/// Whom "leave X to ..." hands the action to: the user and their people.
const LEAVE_TO: &[&str] = &["me", "people", "the humans", "the team", "us"];

/// "`mcp__github__merge_pull_request` is for humans", "Sending invoices is for people only",
/// "Leave merging to me" on the tool that does it: the action is kept for people, so every
/// call of the tool is forbidden. The rule must name the tool or its verb (the first word of
/// its action: `merging` for `merge_pull_request`; "pull requests are for humans" names no
/// action of it).
pub(crate) fn reserved_for_people(lower: &str, tool_name: &str) -> Option<Matcher> {
    let action = action_words(tool_name).or_else(|| own_words(tool_name))?;
    let words = WordRuns::new(lower);
    let rule_words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '_')
        .filter(|word| !word.is_empty())
        .collect();
    // "leave merging to me", "leave the merge button to the humans": within a few words.
    let left_to_people = lower.find("leave ").is_some_and(|at| {
        let after: Vec<&str> = lower[at..]
            .split(|ch: char| !ch.is_alphanumeric() && ch != '_')
            .filter(|word| !word.is_empty())
            .take(LEAVE_WINDOW)
            .collect();
        let after = format!(" {} ", after.join(" "));
        LEAVE_TO
            .iter()
            .any(|whom| after.contains(&format!(" to {whom} ")))
    });
    if !left_to_people && !FOR_PEOPLE.iter().any(|phrase| words.find(phrase).is_some()) {
        return None;
    }
    let tool = tool_name.trim().to_lowercase();
    let own = tool.rsplit("__").next().unwrap_or(&tool);
    // The verb in any form ("merging"), or a noun of the tool's ("payouts" on
    // `create_payout`) unless another action is what people keep ("pull requests are for
    // humans to review").
    let another_action = FOR_PEOPLE
        .iter()
        .any(|phrase| words.find(&format!("{phrase} to")).is_some());
    let names_the_tool = rule_words.iter().any(|word| *word == tool || *word == own)
        || rule_words.iter().any(|word| {
            is_form_of_action(word, &action[0])
                || (!another_action
                    && action[1..]
                        .iter()
                        .any(|action_word| is_form_of_action(word, action_word)))
        });
    names_the_tool.then(|| Matcher::new(MatcherKind::Command, action.join(" ")))
}
