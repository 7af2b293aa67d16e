//! Which part of a rule decides its tool: the ban after a permission ("You may read the logs,
//! but never restart the service" is about restarting), and whether the rule points back at
//! a tool the sentence before named ("Never send `INSERT` through it").

use super::lexicon::{BAN_OPENERS, BAN_TURNS, PERMISSIONS, POINTING_BACK};
use crate::text::is_word_char;

/// The byte offset in `text` of a ban that follows a permission in the same sentence: the
/// permission (`you may`, `feel free to`, `is fine`, …), then a turn (`, but`, `but`, `;`, a
/// dash) and a ban marker (`never`, `don't`, …), emphasis allowed around it.
pub(super) fn ban_after_permission(text: &str) -> Option<usize> {
    // ASCII lower-casing keeps every byte offset of `text`.
    let lower = text.to_ascii_lowercase();
    let permission_end = PERMISSIONS
        .iter()
        .filter_map(|phrase| find_phrase(&lower, phrase).map(|at| at + phrase.len()))
        .min()?;
    BAN_TURNS
        .iter()
        .filter_map(|turn| {
            let at = permission_end + lower[permission_end..].find(turn)?;
            let after = at + turn.len();
            let rest = lower[after..].trim_start_matches(['*', '_', ' ']);
            BAN_OPENERS
                .iter()
                .any(|ban| {
                    rest.strip_prefix(ban)
                        .is_some_and(|tail| tail.chars().next().is_none_or(|ch| !is_word_char(ch)))
                })
                .then_some(after)
        })
        .min()
}

/// The first whole-word occurrence of `phrase` in `lower`.
fn find_phrase(lower: &str, phrase: &str) -> Option<usize> {
    lower.match_indices(phrase).map(|(at, _)| at).find(|&at| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + phrase.len()..].chars().next();
        before.is_none_or(|ch| !is_word_char(ch)) && after.is_none_or(|ch| !is_word_char(ch))
    })
}

/// Whether the rule (a match form) points back at a tool with "it" as the object of a verb
/// or a preposition: "through it", "with it", "call it".
pub(super) fn points_back(form: &str) -> bool {
    let words: Vec<&str> = form
        .split(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty())
        .collect();
    words
        .windows(2)
        .any(|pair| pair[1] == "it" && POINTING_BACK.contains(&pair[0]))
}

/// How many words of `text` start before byte `at`: positions in a rule as written and in its
/// match form compare by word, since the match form drops emphasis and collapses spaces.
pub(super) fn word_index(text: &str, at: usize) -> usize {
    let mut count = 0;
    let mut previous_is_word = false;
    for (offset, ch) in text.char_indices() {
        if offset >= at {
            break;
        }
        let is_word = is_word_char(ch);
        if is_word && !previous_is_word {
            count += 1;
        }
        previous_is_word = is_word;
    }
    count
}
