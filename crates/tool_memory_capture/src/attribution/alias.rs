//! Finding words of the alias table and of tool names in a rule, on word boundaries: "admin"
//! is not "dm", `ls` is not inside "tools", "mailbox" is not "mail", but "emailing" is
//! "email". A rule is read once into its word starts ([`Haystack`]), so looking for a tool's
//! name costs a look at each word of the rule, not a scan of its bytes; the alias table is
//! read through an index built once, so a rule costs a few lookups per word, not a scan per
//! phrase of the table.

use std::cmp::Reverse;
use std::sync::LazyLock;

use super::lexicon::ALIAS_GROUPS;
use crate::hash::FxHashMap;
use crate::text::is_word_char;

/// A rule's form read once for the word searches of attribution: where each of its words
/// starts.
#[derive(Debug)]
pub(super) struct Haystack<'f> {
    text: &'f str,
    /// The byte offset of every word start: a word char after a non-word char or the start.
    starts: Vec<usize>,
}

impl<'f> Haystack<'f> {
    pub(super) fn new(text: &'f str) -> Haystack<'f> {
        let mut starts = Vec::with_capacity(text.len() / 5 + 1);
        let mut previous_is_word = false;
        if text.is_ascii() {
            for (at, &byte) in text.as_bytes().iter().enumerate() {
                let is_word = byte.is_ascii_alphanumeric() || byte == b'_';
                if is_word && !previous_is_word {
                    starts.push(at);
                }
                previous_is_word = is_word;
            }
        } else {
            for (at, ch) in text.char_indices() {
                let is_word = is_word_char(ch);
                if is_word && !previous_is_word {
                    starts.push(at);
                }
                previous_is_word = is_word;
            }
        }
        Haystack { text, starts }
    }

    /// The text read.
    pub(super) fn text(&self) -> &'f str {
        self.text
    }

    /// The words of the text (maximal runs of word chars), in order.
    pub(super) fn words(&self) -> impl Iterator<Item = &'f str> + '_ {
        self.starts
            .iter()
            .map(|&start| first_word(&self.text[start..]))
    }

    /// [`find_word`] in this text. A needle that opens with a word char can only stand at a
    /// word start, so only those are tried; any other needle is looked for byte by byte.
    pub(super) fn find(&self, needle: &str, suffixes: &[&str]) -> Option<usize> {
        let first = needle.chars().next()?;
        if !is_word_char(first) {
            return find_word(self.text, needle, suffixes);
        }
        let lead = needle.as_bytes()[0];
        let bytes = self.text.as_bytes();
        self.starts
            .iter()
            .copied()
            .find(|&start| bytes[start] == lead && word_at(self.text, start, needle, suffixes))
    }

    /// A word of a tool's name in this text, as [`Haystack::find`] with the alias suffixes
    /// finds it, or without a final `e` before `-ing` ("merging" for `merge`).
    pub(super) fn find_name_word(&self, word: &str) -> Option<usize> {
        self.find(word, ALIAS_SUFFIXES).or_else(|| {
            let stem = word.strip_suffix('e').filter(|stem| stem.len() >= 3)?;
            self.find(stem, &["ing"])
        })
    }
}

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
#[derive(Debug, Clone, Copy)]
struct AliasPhrase {
    group: usize,
    weak: bool,
    phrase: &'static str,
}

/// The alias table's phrases by the word a rule has where they start: their first word, and
/// that word with each of [`ALIAS_SUFFIXES`] that a word can end with ("email", "emails",
/// "emailing"). Built once, so a rule is read word by word with one lookup each, instead of
/// one scan of the rule per phrase of the table.
static ALIAS_INDEX: LazyLock<FxHashMap<String, Vec<AliasPhrase>>> = LazyLock::new(|| {
    let mut index: FxHashMap<String, Vec<AliasPhrase>> = FxHashMap::default();
    for (group, aliases) in ALIAS_GROUPS.iter().enumerate() {
        let strong = aliases.strong.iter().map(|phrase| (false, *phrase));
        let weak = aliases.phrases.iter().map(|phrase| (true, *phrase));
        for (weak, phrase) in strong.chain(weak) {
            let first = first_word(phrase);
            // A phrase that opens with a mark never stands at a word start.
            if first.is_empty() {
                continue;
            }
            // A suffix with a mark (`'s`) never ends a word, which is a run of word chars.
            for suffix in ALIAS_SUFFIXES
                .iter()
                .filter(|suffix| suffix.chars().all(is_word_char))
            {
                index
                    .entry(format!("{first}{suffix}"))
                    .or_default()
                    .push(AliasPhrase {
                        group,
                        weak,
                        phrase,
                    });
            }
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
/// A phrase can only start where a word starts, and that word is the phrase's first word,
/// perhaps with one of [`ALIAS_SUFFIXES`] ("emailing" for "email"), so each word start costs
/// one lookup.
pub(super) fn alias_mentions(
    haystack: &Haystack<'_>,
) -> Vec<Option<(bool, usize, Reverse<usize>)>> {
    let form = haystack.text;
    let mut earliest: Vec<Option<(bool, usize, Reverse<usize>)>> = vec![None; ALIAS_GROUPS.len()];
    for &start in &haystack.starts {
        let word = first_word(&form[start..]);
        for entry in ALIAS_INDEX.get(word).into_iter().flatten() {
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
    earliest
}
