//! Allowlists of recipients: "never email anyone but Priya", "only message people on the
//! @acme.com domain", "don't send mail to anyone except priya@acme.com and Tom", "email
//! nobody outside acme.com", "only ever email priya@acme.com, nobody else". The rule forbids
//! every call of its tool except those whose recipients are all on the list, so a call to
//! anyone else is denied and a call to the people named is allowed.
//!
//! Read before the polarity cues: "only" and "nobody except" are not bans in the grammar's
//! other rooms, and there the exception would be read as the thing forbidden (the rule
//! "anyone outside acme.com" forbade acme.com).

use crate::constraint::ANY_HOST;
use crate::derive::entities::{handle_name, names_at};
use crate::derive::lexicon::{
    ALLOW_MARKERS, ALLOWLIST_VERBS, CONDITION_WORDS, EVERYONE_WORDS, FETCHERS,
};
use crate::derive::tokens::{Token, TokenKind, tokenize};
use crate::derive::whole_tool::action_words;
use crate::rule_text::PERMISSIONS;
use crate::{Constraint, Matcher, MatcherKind};

/// Where the list of those allowed is, relative to the marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    After,
    Before,
}

/// The allowlist a rule states, as a constraint on its tool: every call of it forbidden
/// (its tool-as-command matcher), the recipients named allowed (`except`). `None` when the
/// rule is not one, names no recipient, or its tool is not one that reaches people by name
/// (a tool of a family, the no-tool group: their calls have no recipients of their own).
pub(crate) fn allowlist(
    text: &str,
    lower: &str,
    tool_name: &str,
    ask_first: bool,
) -> Option<Constraint> {
    // Cheap gate: the rule says "only", "else" or one of the markers at all.
    if ![
        "only", "else", "but", "except", "other", "outside", "apart", "aside", "besides", "beyond",
    ]
    .iter()
    .any(|word| lower.contains(word))
    {
        return None;
    }
    let action = action_words(tool_name)?;
    let tokens = tokenize(text, lower);
    let words: Vec<&str> = tokens.iter().map(|token| token.lower.as_ref()).collect();
    let commas: Vec<bool> = tokens.iter().map(|token| token.trailing_comma).collect();
    let (at, side) = marker(&words, &commas, &is_verb)?;
    // "Only email Priya when the build fails": a condition, not a list of those allowed.
    // "Ask me before emailing anyone outside acme.io": "before" after the ask is when to ask,
    // not a condition of the list.
    if words.iter().enumerate().any(|(at, word)| {
        CONDITION_WORDS.contains(word) && !(*word == "before" && asks_before(&words, at))
    }) {
        return None;
    }
    let allowed = match side {
        Side::After => allowed_in(&tokens, at..tokens.len()),
        Side::Before => {
            let verb = words[..at].iter().rposition(|word| is_verb(word))?;
            allowed_in(&tokens, verb + 1..at)
        }
    };
    if allowed.is_empty() {
        return None;
    }
    let every_call = Matcher::new(MatcherKind::Command, action.join(" "));
    Some(
        Constraint::forbid(vec![every_call])
            .with_except(allowed)
            .with_ask_first(ask_first),
    )
}

/// Whether "before" at `at` says when to ask ("ask me before", "check with me before",
/// "confirm before").
fn asks_before(words: &[&str], at: usize) -> bool {
    let back = |n: usize| at.checked_sub(n).map(|index| words[index]);
    matches!(
        back(1),
        Some("me" | "us" | "first" | "ask" | "confirm" | "check")
    ) && words[..at]
        .iter()
        .any(|word| matches!(*word, "ask" | "confirm" | "check"))
}

fn is_verb(word: &str) -> bool {
    ALLOWLIST_VERBS.contains(&word.trim_matches('\''))
}

/// Whether a clause states an allowlist ("only email Priya", "nobody except Tom"): an order,
/// though it has none of the grammar's other cues.
pub(crate) fn states_an_allowlist(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|ch: char| ch.is_whitespace() || ",;:.!?()".contains(ch))
        .filter(|word| !word.is_empty())
        .collect();
    let commas = vec![false; words.len()];
    marker(&words, &commas, &is_verb).is_some()
}

/// The token index the allowed recipients start at (after it) or end at (before it), from
/// the rule's lower-case words:
/// * "anyone / nobody / people (else) but / except / other than / outside / besides X";
/// * "only" next to a verb of contact ("only email X", "may only message X", "email only X");
/// * "nobody else / no one else" after "email X".
fn marker(
    words: &[&str],
    commas: &[bool],
    is_verb: &dyn Fn(&str) -> bool,
) -> Option<(usize, Side)> {
    let has_verb = words.iter().any(|word| is_verb(word));
    if !has_verb {
        return None;
    }
    // "Posting in #team-a is fine; any other channel, ask me first": what the permission
    // names is the list, when the rule goes on to the others.
    let others = words
        .windows(2)
        .any(|pair| matches!(pair, ["any" | "all" | "every", "other"]))
        || words.contains(&"else");
    if others
        && let Some(at) = words
            .windows(2)
            .position(|pair| matches!(pair[0], "is" | "are") && PERMISSIONS.contains(&pair[1]))
    {
        return Some((at, Side::Before));
    }
    for (at, word) in words.iter().enumerate() {
        let everyone =
            EVERYONE_WORDS.contains(word) || (*word == "one" && at > 0 && words[at - 1] == "no");
        if everyone {
            let mut next = at + 1;
            if words.get(next) == Some(&"else") {
                // "nobody else", after the names: "only email X, nobody else".
                if ALLOW_MARKERS
                    .iter()
                    .all(|marker| !starts_with_phrase(&words[next + 1..], marker))
                {
                    return Some((at, Side::Before));
                }
                next += 1;
            }
            // "anyone from outside acme.io"
            if words.get(next) == Some(&"from") && words.get(next + 1) == Some(&"outside") {
                next += 1;
            }
            // "never email anyone, but always cc Tom": after a comma, "but" opens a clause.
            if let Some(marker) = ALLOW_MARKERS
                .iter()
                .find(|marker| starts_with_phrase(&words[next..], marker))
                .filter(|marker| **marker != "but" || !commas[next - 1])
            {
                return Some((next + marker.split(' ').count(), Side::After));
            }
        }
        if *word == "only" {
            let verb_after = words[at + 1..].iter().take(3).any(|word| is_verb(word));
            let verb_before = at > 0 && is_verb(words[at - 1]);
            if verb_after || verb_before {
                return Some((at + 1, Side::After));
            }
        }
    }
    None
}

fn starts_with_phrase(words: &[&str], phrase: &str) -> bool {
    let parts: Vec<&str> = phrase.split(' ').collect();
    words.len() >= parts.len() && words.iter().zip(&parts).all(|(word, part)| word == part)
}

/// The recipients named in `tokens[range]`: addresses, domains (`@acme.com`, `acme.com`),
/// handles and channels (`@priya`, `#eng`), and capitalised names.
fn allowed_in(tokens: &[Token], range: std::ops::Range<usize>) -> Vec<Matcher> {
    let mut allowed: Vec<Matcher> = Vec::new();
    let mut names: Vec<(usize, String)> = Vec::new();
    let mut index = range.start;
    while index < range.end {
        let token = &tokens[index];
        match &token.kind {
            TokenKind::Entity(kind @ (MatcherKind::Email | MatcherKind::Domain), value) => {
                allowed.push(Matcher::new(*kind, value.clone()));
            }
            TokenKind::Entity(MatcherKind::Literal, value)
                if value.starts_with('@') || value.starts_with('#') =>
            {
                allowed.push(Matcher::new(MatcherKind::Literal, value.clone()));
                if let Some(name) = handle_name(value) {
                    allowed.push(Matcher::new(MatcherKind::Person, name));
                }
            }
            // "Only DM Priya": the verb is no part of the name.
            TokenKind::Word if is_verb(&token.lower) => {}
            TokenKind::Word => {
                let end = names_at(tokens, index, &mut names);
                if end > index {
                    index = end;
                    continue;
                }
            }
            _ => {}
        }
        index += 1;
    }
    allowed.extend(
        names
            .into_iter()
            .map(|(_, name)| Matcher::new(MatcherKind::Person, name)),
    );
    allowed.retain(Matcher::is_valid);
    allowed
}

/// An allowlist of hosts: "Only fetch from `docs.python.org` and `pypi.org`", "never fetch
/// anything except pypi.org", "don't browse anywhere other than docs.rs". Every host a call
/// reaches is forbidden ([`ANY_HOST`]) but those named, each with its subdomains (`except`);
/// on a shell, for the programs that download (`curl`, `wget`, ...). `None` when the rule
/// names no host, names anything else, or is no allowlist of places to reach.
pub(crate) fn host_allowlist(
    text: &str,
    lower: &str,
    tool_name: &str,
    ask_first: bool,
) -> Option<Constraint> {
    if ![
        "only",
        "except",
        "other than",
        "outside",
        "but",
        "nowhere else",
        "apart from",
    ]
    .iter()
    .any(|word| lower.contains(word))
    {
        return None;
    }
    let family = tool_memory_core::ToolFamily::of(tool_name);
    let tokens = tokenize(text, lower);
    let words: Vec<&str> = tokens.iter().map(|token| token.lower.as_ref()).collect();
    let fetching = matches!(
        family,
        Some(tool_memory_core::ToolFamily::WebFetch | tool_memory_core::ToolFamily::WebSearch)
    ) || words.iter().any(|word| FETCH_VERBS.contains(word));
    if !fetching {
        return None;
    }
    let only = words.iter().enumerate().any(|(at, word)| {
        *word == "only"
            || (matches!(*word, "except" | "outside" | "besides" | "but")
                && at > 0
                && EVERYWHERE_WORDS.contains(&words[at - 1]))
            || (*word == "than" && at > 1 && words[at - 1] == "other")
            || (*word == "else" && at > 0 && matches!(words[at - 1], "nowhere" | "nothing"))
    });
    if !only {
        return None;
    }
    let mut allowed = Vec::new();
    for token in &tokens {
        match &token.kind {
            TokenKind::Entity(MatcherKind::Domain, value) => {
                allowed.push(Matcher::new(MatcherKind::Domain, value.clone()));
            }
            TokenKind::Entity(MatcherKind::Url, value) => {
                allowed.push(Matcher::new(MatcherKind::Url, value.clone()));
            }
            // `docs.rs`, `crates.io`: a name of dotted words read as a file, where only hosts
            // are named, is a host.
            TokenKind::Entity(MatcherKind::Path, value) if is_host_shaped(value) => {
                allowed.push(Matcher::new(MatcherKind::Domain, value.clone()));
            }
            TokenKind::Entity(..) => return None,
            _ => {}
        }
    }
    if allowed.is_empty() {
        return None;
    }
    let constraint = Constraint::forbid(vec![Matcher::new(MatcherKind::Domain, ANY_HOST)])
        .with_except(allowed)
        .with_ask_first(ask_first);
    Some(if family == Some(tool_memory_core::ToolFamily::Shell) {
        constraint.with_when(
            FETCHERS
                .iter()
                .map(|fetcher| Matcher::new(MatcherKind::Command, *fetcher))
                .collect(),
        )
    } else {
        constraint
    })
}

/// Verbs of reaching a place on the web.
const FETCH_VERBS: &[&str] = &[
    "access", "browse", "call", "connect", "crawl", "curl", "download", "fetch", "fetching", "hit",
    "load", "navigate", "open", "request", "scrape", "visit", "wget",
];

/// Words for every place, before the exception: "anything except", "anywhere but".
const EVERYWHERE_WORDS: &[&str] = &[
    "anything", "anywhere", "domains", "hosts", "sites", "urls", "websites",
];

/// A dotted name of two labels or more, each of letters, digits and hyphens, the last of
/// letters: `docs.rs`, `pkg.go.dev`.
fn is_host_shaped(value: &str) -> bool {
    let labels: Vec<&str> = value.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
        })
        && labels
            .last()
            .is_some_and(|last| last.len() >= 2 && last.chars().all(|ch| ch.is_ascii_alphabetic()))
}
