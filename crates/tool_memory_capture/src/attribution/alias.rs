//! Finding words of the alias table and of tool names in a rule, on word boundaries: "admin"
//! is not "dm", `ls` is not inside "tools", "mailbox" is not "mail", but "emailing" is
//! "email". The alias table is read through an index built once, so a rule costs a few
//! lookups per word, not a scan per phrase of the table.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::LazyLock;

use super::lexicon::ALIAS_GROUPS;
use crate::text::is_word_char;

pub(super) const NAME_SUFFIXES: &[&str] = &["", "s", "'s"];
pub(super) const ALIAS_SUFFIXES: &[&str] = &[
    "", "s", "es", "ing", "ed", "d", "ting", "ted", "ming", "med", "'s", "'ing", "'d", "'ed",
];

/// The byte position of the first whole-word occurrence of `needle` (optionally followed by
/// one of `suffixes`) in `haystack`.
pub(super) fn find_word(haystack: &str, needle: &str, suffixes: &[&str]) -> Option<usize> {
    // Called for every name of the catalogue on every rule, with short needles and short
    // haystacks: a scan for the needle's first byte beats building a substring searcher each
    // time. The first byte of a UTF-8 needle is a lead byte, so every candidate start is a
    // char boundary of the haystack.
    let bytes = haystack.as_bytes();
    let &first = needle.as_bytes().first()?;
    let mut from = 0;
    while let Some(found) = bytes[from..].iter().position(|&byte| byte == first) {
        let start = from + found;
        if word_at(haystack, start, needle, suffixes) {
            return Some(start);
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// [`find_word`] for a word of a tool's name, which may also lose a final `e` before `-ing`
/// ("merging" for `merge`).
pub(super) fn find_name_word(haystack: &str, word: &str) -> Option<usize> {
    find_word(haystack, word, ALIAS_SUFFIXES).or_else(|| {
        let stem = word.strip_suffix('e').filter(|stem| stem.len() >= 3)?;
        find_word(haystack, stem, &["ing"])
    })
}

/// Whether `needle` stands at byte `start` of `haystack` as whole words: after a non-word
/// char (or the start), and followed by one of `suffixes` and then a non-word char (or the end).
fn word_at(haystack: &str, start: usize, needle: &str, suffixes: &[&str]) -> bool {
    if !haystack.as_bytes()[start..].starts_with(needle.as_bytes()) {
        return false;
    }
    let starts_word = haystack[..start]
        .chars()
        .next_back()
        .is_none_or(|ch| !is_word_char(ch));
    let rest = &haystack[start + needle.len()..];
    starts_word
        && suffixes.iter().any(|suffix| {
            rest.strip_prefix(suffix)
                .is_some_and(|after| after.chars().next().is_none_or(|ch| !is_word_char(ch)))
        })
}

/// One phrase of the alias table: its group, and whether it is a common noun (`phrases`)
/// rather than a product or program name (`strong`).
struct AliasPhrase {
    group: usize,
    weak: bool,
    phrase: &'static str,
}

/// The alias table's phrases by their first word, built once: a rule is then read word by
/// word with one lookup each, instead of one scan of the rule per phrase of the table.
static ALIAS_INDEX: LazyLock<HashMap<&'static str, Vec<AliasPhrase>>> = LazyLock::new(|| {
    let mut index: HashMap<&'static str, Vec<AliasPhrase>> = HashMap::new();
    for (group, aliases) in ALIAS_GROUPS.iter().enumerate() {
        let strong = aliases.strong.iter().map(|phrase| (false, *phrase));
        let weak = aliases.phrases.iter().map(|phrase| (true, *phrase));
        for (weak, phrase) in strong.chain(weak) {
            index
                .entry(first_word(phrase))
                .or_default()
                .push(AliasPhrase {
                    group,
                    weak,
                    phrase,
                });
        }
    }
    index
});

/// The leading run of word chars of `text`.
fn first_word(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|&(_, ch)| !is_word_char(ch))
        .map_or(text.len(), |(at, _)| at);
    &text[..end]
}

/// For each group of the alias table, its earliest mention in `form` as (weak, byte position,
/// longest phrase there), or `None`: the same as looking for each phrase with [`find_word`].
/// A phrase can only start where a word starts, and its first word is that word or that word
/// without one of [`ALIAS_SUFFIXES`] ("emailing" → "email"), so each word start costs a few
/// lookups.
pub(super) fn alias_mentions(form: &str) -> Vec<Option<(bool, usize, Reverse<usize>)>> {
    let mut earliest: Vec<Option<(bool, usize, Reverse<usize>)>> = vec![None; ALIAS_GROUPS.len()];
    let mut previous_is_word = false;
    for (start, ch) in form.char_indices() {
        let is_word = is_word_char(ch);
        let word_start = is_word && !previous_is_word;
        previous_is_word = is_word;
        if !word_start {
            continue;
        }
        let word = first_word(&form[start..]);
        let stems = ALIAS_SUFFIXES.iter().filter_map(|suffix| match *suffix {
            "" => Some(word),
            suffix => word.strip_suffix(suffix).filter(|stem| !stem.is_empty()),
        });
        for stem in stems {
            for entry in ALIAS_INDEX.get(stem).into_iter().flatten() {
                if !word_at(form, start, entry.phrase, ALIAS_SUFFIXES) {
                    continue;
                }
                let key = (entry.weak, start, Reverse(entry.phrase.len()));
                let slot = &mut earliest[entry.group];
                if slot.is_none_or(|best| key < best) {
                    *slot = Some(key);
                }
            }
        }
    }
    earliest
}
