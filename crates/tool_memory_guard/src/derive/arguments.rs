//! Rules about a tool's named arguments, on the tools that take them (an MCP server's, a
//! built-in one's): "Never move an issue to Done or Canceled" (the `state` argument), "Open
//! PRs as drafts" (`draft` must be true), "ask me before you send anything with an
//! attachment" (a non-empty `attachments`), "don't touch the `infra` repo" (`repo`), "never
//! push to `main` through `push_files`" (`branch`). Read as words, these named a person
//! ("Done"), nothing at all, or a literal found anywhere (a title "done-ish", a path
//! `infra/`); the argument is where the call says it.

use crate::{Constraint, Matcher, MatcherKind};

/// Verbs that put something into a state: what follows "to" or "as" after them is the state.
const STATE_VERBS: &[&str] = &[
    "change",
    "changing",
    "mark",
    "marking",
    "move",
    "moving",
    "put",
    "putting",
    "set",
    "setting",
    "transition",
    "transitioning",
];

/// Words between the verb and "to" / "as" that leave it a state change: "move a ticket to",
/// "set any issue's status to".
const MAX_OBJECT_WORDS: usize = 5;

/// Most words of one state's name ("Won't Do", "In Code Review").
const MAX_STATE_WORDS: usize = 3;

/// The states a rule names after a verb of putting something into one ("move a ticket to
/// Done or Won't Do", "never mark issues as `Canceled`"): each a capitalised or quoted name,
/// joined by "or", "and" or commas. Empty when the rule says no such thing.
pub(crate) fn named_states(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bare = |word: &str| {
        word.trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '\'')
            .to_lowercase()
    };
    let Some(verb) = words
        .iter()
        .position(|word| STATE_VERBS.contains(&bare(word).as_str()))
    else {
        return Vec::new();
    };
    let Some(to) = words[verb + 1..]
        .iter()
        .take(MAX_OBJECT_WORDS + 1)
        .position(|word| matches!(bare(word).as_str(), "to" | "as" | "into"))
        .map(|offset| verb + 1 + offset)
    else {
        return Vec::new();
    };
    let mut states: Vec<String> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    for word in &words[to + 1..] {
        let quoted = word.starts_with(['`', '"', '\'', '“']);
        let plain = bare(word);
        let ends = word.ends_with([',', '.', ';', '!', '`', '"', '”']);
        if matches!(plain.as_str(), "or" | "and" | "nor") && !quoted {
            if !current.is_empty() {
                states.push(current.join(" "));
                current.clear();
            }
            continue;
        }
        let capitalised = word
            .trim_start_matches(['`', '"', '\'', '“'])
            .starts_with(char::is_uppercase);
        if plain.is_empty() || !(capitalised || quoted || !current.is_empty()) {
            break;
        }
        // A lower-case word goes on a name only in quotes or after a capitalised one that
        // does not end it ("Won't do").
        if !capitalised && !quoted && current.len() >= MAX_STATE_WORDS {
            break;
        }
        current.push(plain);
        if ends || current.len() >= MAX_STATE_WORDS {
            states.push(current.join(" "));
            current.clear();
            if word.ends_with(['.', ';', '!']) {
                break;
            }
        }
    }
    if !current.is_empty() {
        states.push(current.join(" "));
    }
    states.retain(|state| !state.is_empty());
    states
}

/// Whether a rule is about direct messages ("never DM anyone", "no direct messages", "don't
/// send private messages", "never message people directly").
pub(crate) fn says_direct_messages(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    // Every direct message, not one person's ("never DM Tomasz" names someone).
    let anyone = |after: &[&str]| {
        after.first().is_none_or(|next| {
            matches!(
                *next,
                "anyone" | "anybody" | "everyone" | "people" | "users" | "ever" | "at" | "in"
            )
        })
    };
    words.iter().enumerate().any(|(at, word)| match *word {
        "dms" => true,
        "dm" | "dming" => anyone(&words[at + 1..]),
        _ => false,
    }) || words.windows(2).any(|pair| {
        matches!(pair[0], "direct" | "private") && matches!(pair[1], "messages" | "messaging")
    }) || (words.iter().any(|word| word.starts_with("messag"))
        && words.contains(&"directly")
        && words
            .iter()
            .any(|word| matches!(*word, "anyone" | "anybody" | "people")))
}

/// Booleans a rule asks a call to set by a word of manner: "open PRs as drafts" (`draft`),
/// "create repositories as private" (`private`).
const MANNER_ARGUMENTS: &[(&str, &str)] = &[
    ("draft", "draft"),
    ("drafts", "draft"),
    ("private", "private"),
];

/// The boolean argument a rule asks for ("as drafts", "as a draft", "in draft"), if any.
pub(crate) fn required_manner(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    words.windows(3).find_map(|window| {
        let [before, middle, last] = [window[0], window[1], window[2]];
        let after_as = |word: &str| {
            MANNER_ARGUMENTS
                .iter()
                .find(|(said, _)| *said == word)
                .map(|(_, key)| *key)
        };
        match (before, middle) {
            ("as" | "in", "a") => after_as(last),
            (_, "as" | "in") => after_as(last),
            _ => None,
        }
    })
}

/// Nouns of what a call carries along: "anything with an attachment" is a call whose
/// `attachments` argument is not empty.
const CARRIED: &[(&str, &str)] = &[
    ("attachment", "attachments"),
    ("attachments", "attachments"),
];

/// The argument a rule names by what the call carries ("with an attachment", "with
/// attachments", "that has attachments"), if any.
pub(crate) fn carried_argument(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    words.iter().enumerate().find_map(|(at, word)| {
        let key = CARRIED
            .iter()
            .find(|(noun, _)| noun == word)
            .map(|(_, key)| *key)?;
        words[at.saturating_sub(3)..at]
            .iter()
            .any(|before| matches!(*before, "with" | "has" | "have" | "having" | "containing"))
            .then_some(key)
    })
}

/// Nouns that name an argument of the call when a name stands before them: "the `infra`
/// repo", "the `release` branch".
pub(crate) const ARGUMENT_NOUNS: &[(&str, &str)] = &[
    ("branch", "branch"),
    ("repo", "repo"),
    ("repository", "repo"),
];

/// The argument key the noun `next` names, if it is one of [`ARGUMENT_NOUNS`].
pub(crate) fn argument_noun(next: &str) -> Option<&'static str> {
    ARGUMENT_NOUNS
        .iter()
        .find(|(noun, _)| *noun == next)
        .map(|(_, key)| *key)
}

/// `key=value` as a matcher.
pub(crate) fn argument(key: &str, value: &str) -> Matcher {
    Matcher::new(MatcherKind::Argument, format!("{key}={value}"))
}

/// The commands that take a manner as a flag on a shell, per manner: "open PRs as drafts" is
/// `gh pr create --draft` there.
const MANNER_COMMANDS: &[(&str, &[&str], &str)] = &[
    ("draft", &["gh pr create", "glab mr create"], "--draft"),
    ("private", &["gh repo create"], "--private"),
];

/// [`manner_constraint`] on a shell (or every tool): the commands that take the manner as a
/// flag must carry it, asked when they do not. `None` for a manner no command takes.
pub(crate) fn manner_on_the_shell(key: &str) -> Option<Constraint> {
    let (_, commands, flag) = MANNER_COMMANDS.iter().find(|(manner, ..)| *manner == key)?;
    Some(
        Constraint::require(vec![Matcher::new(MatcherKind::Flag, *flag)])
            .with_when(
                commands
                    .iter()
                    .map(|command| Matcher::new(MatcherKind::Command, *command))
                    .collect(),
            )
            .with_ask_first(true),
    )
}

/// "Open pull requests as drafts": the boolean must be true; a call without it, or with it
/// false, is incomplete and asked about.
pub(crate) fn manner_constraint(key: &str) -> Constraint {
    Constraint::require(vec![argument(key, "true")]).with_ask_first(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_after_a_verb_of_putting() {
        assert_eq!(
            named_states("Never move a ticket to Done or Won't Do."),
            ["done", "won't do"]
        );
        assert_eq!(
            named_states("Don't mark issues as `Canceled`, `Duplicate` or In Review"),
            ["canceled", "duplicate", "in review"]
        );
        assert!(named_states("Never move fast and break things.").is_empty());
        assert!(named_states("Don't move files to the trash.").is_empty());
    }

    #[test]
    fn direct_messages() {
        assert!(says_direct_messages("never dm anyone."));
        assert!(says_direct_messages("no direct messages, ever"));
        assert!(says_direct_messages("don't message people directly"));
        assert!(!says_direct_messages("never post in #general"));
        assert!(!says_direct_messages("never dm tomasz wojcik."));
    }

    #[test]
    fn manners_and_carried_things() {
        assert_eq!(required_manner("open prs as drafts."), Some("draft"));
        assert_eq!(
            required_manner("always create them as a draft"),
            Some("draft")
        );
        assert_eq!(required_manner("open prs for review"), None);
        assert_eq!(
            carried_argument("ask me before you send anything with an attachment."),
            Some("attachments")
        );
        assert_eq!(carried_argument("never send attachments"), None);
    }
}
