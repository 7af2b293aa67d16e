//! Bans on what a text the agent writes may mention: "Never mention Claude, Claude Code or AI
//! in commit messages", "don't reference ticket numbers in PR titles". What is mentioned is a
//! literal; where it is written is the commands that write that text (`git commit` for a
//! commit message), or on a tool that writes it itself (an MCP tool that opens a pull
//! request), the call.

use crate::constraint::ANY_HANDLE;
use crate::{Constraint, Matcher, MatcherKind};

/// Verbs of mentioning.
const MENTION_VERBS: &[&str] = &["include", "mention", "name", "reference"];

/// Who "@-mention people" means: anyone at all, by handle.
const ANYONE: &[&str] = &[
    "anybody",
    "anyone",
    "colleagues",
    "coworkers",
    "folks",
    "maintainers",
    "others",
    "people",
    "reviewers",
    "someone",
    "teammates",
    "users",
];

/// Texts the agent writes, by what people call them, with the commands that write them on a
/// shell.
const WRITTEN_TEXTS: &[(&str, &[&str])] = &[
    ("commit message", &["git commit"]),
    ("commit messages", &["git commit"]),
    ("commits", &["git commit"]),
    ("pr description", &["gh pr create", "gh pr edit"]),
    ("pr descriptions", &["gh pr create", "gh pr edit"]),
    ("pr title", &["gh pr create", "gh pr edit"]),
    ("pr titles", &["gh pr create", "gh pr edit"]),
    ("pull request", &["gh pr create", "gh pr edit"]),
    ("pull requests", &["gh pr create", "gh pr edit"]),
];

/// The ban a rule of this shape states: the literals mentioned, in the commands that write the
/// texts named (none on a tool that is no shell: `shell` false). `None` for any other rule.
pub(crate) fn mention_ban(lower: &str, shell: bool) -> Option<Constraint> {
    let (verb_at, verb) = MENTION_VERBS
        .iter()
        .filter_map(|verb| find_word(lower, verb).map(|at| (at, *verb)))
        .min()?;
    let after = verb_at + verb.len();
    let in_at = lower[after..].find(" in ").map(|at| after + at)?;
    let place = &lower[in_at + 4..];
    let mut commands: Vec<&str> = Vec::new();
    for (text, writers) in WRITTEN_TEXTS {
        if find_word(place, text).is_some() {
            for writer in *writers {
                if !commands.contains(writer) {
                    commands.push(writer);
                }
            }
        }
    }
    if commands.is_empty() {
        return None;
    }
    let mentioned: Vec<Matcher> = lower[after..in_at]
        .split([',', ';'])
        .flat_map(|part| part.split(" or ").flat_map(|part| part.split(" and ")))
        .map(|part| {
            part.trim()
                .trim_matches(|ch: char| "`'\"“”".contains(ch))
                .trim()
        })
        .filter(|part| {
            !part.is_empty()
                && part.split_whitespace().count() <= 3
                && (!matches!(*part, "anything" | "anyone" | "it" | "them")
                    || lower[..verb_at].ends_with('-'))
        })
        .map(|part| Matcher::new(MatcherKind::Literal, part))
        .collect();
    // "Never @-mention people in commit messages": a mention by handle, of anyone (any
    // `@handle`, [`ANY_HANDLE`]), or of the named ones (`@dana`).
    let by_handle = ["@-", "@", "at-"]
        .iter()
        .any(|sigil| lower[..verb_at].ends_with(sigil));
    let mentioned: Vec<Matcher> = if by_handle {
        let mut handles: Vec<Matcher> = Vec::new();
        for matcher in mentioned {
            let value = if ANYONE.contains(&matcher.value.as_str()) {
                ANY_HANDLE.to_owned()
            } else {
                format!("@{}", matcher.value.trim_start_matches('@'))
            };
            let handle = Matcher::new(MatcherKind::Literal, value);
            if !handles.contains(&handle) {
                handles.push(handle);
            }
        }
        handles
    } else {
        mentioned
    };
    if mentioned.is_empty() {
        return None;
    }
    let ban = Constraint::forbid(mentioned);
    Some(if shell {
        ban.with_when(
            commands
                .into_iter()
                .map(|command| Matcher::new(MatcherKind::Command, command))
                .collect(),
        )
    } else {
        ban
    })
}

/// Where `word` (a word or phrase) stands as whole words in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        before.is_none_or(|ch| !ch.is_alphanumeric())
            && after.is_none_or(|ch| !ch.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_mentioned_where() {
        let ban = mention_ban(
            "never mention claude, claude code or ai in commit messages.",
            true,
        )
        .expect("a ban");
        assert_eq!(
            ban.to_json(),
            r#"{"matchers":[{"kind":"literal","value":"claude"},{"kind":"literal","value":"claude code"},{"kind":"literal","value":"ai"}],"polarity":"forbid","when":[{"kind":"command","value":"git commit"}]}"#
        );
        assert!(mention_ban("never mention the outage in the standup", true).is_none());
        // By handle: anyone's, or the one named.
        let anyone = mention_ban("never @-mention people in commit messages.", true)
            .expect("a ban")
            .to_json();
        assert!(anyone.contains(r#""value":"@*""#), "{anyone}");
        let dana = mention_ban("don't @-mention dana in pr titles", true)
            .expect("a ban")
            .to_json();
        assert!(dana.contains(r#""value":"@dana""#), "{dana}");
        assert!(mention_ban("never commit to main", true).is_none());
    }
}
