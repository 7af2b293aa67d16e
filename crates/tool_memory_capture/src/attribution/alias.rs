//! Finding words of the alias table and of tool names in a rule, on word boundaries: "admin"
//! is not "dm", `ls` is not inside "tools", "mailbox" is not "mail", but "emailing" is
//! "email". A rule is read once into its word starts ([`Haystack`]), so looking for a tool's
//! name costs a look at each word of the rule, not a scan of its bytes; the alias table is
//! read through an index built once, so a rule costs a few lookups per word, not a scan per
//! phrase of the table.

use std::cmp::Reverse;
use std::sync::LazyLock;

use super::lexicon::ALIAS_GROUPS;
use crate::hash::WordMap;
use crate::text::is_word_char;

/// A rule's form read once for the word searches of attribution: where each of its words
/// starts and ends.
#[derive(Debug)]
pub(super) struct Haystack<'f> {
    text: &'f str,
    /// Every word (a maximal run of word chars) as its byte range.
    words: Vec<(usize, usize)>,
}

impl<'f> Haystack<'f> {
    pub(super) fn new(text: &'f str) -> Haystack<'f> {
        let mut words = Vec::with_capacity(text.len() / 5 + 1);
        let mut start = None;
        if text.is_ascii() {
            for (at, &byte) in text.as_bytes().iter().enumerate() {
                let is_word = byte.is_ascii_alphanumeric() || byte == b'_';
                match (is_word, start) {
                    (true, None) => start = Some(at),
                    (false, Some(first)) => {
                        words.push((first, at));
                        start = None;
                    }
                    _ => {}
                }
            }
        } else {
            for (at, ch) in text.char_indices() {
                let is_word = is_word_char(ch);
                match (is_word, start) {
                    (true, None) => start = Some(at),
                    (false, Some(first)) => {
                        words.push((first, at));
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        if let Some(first) = start {
            words.push((first, text.len()));
        }
        Haystack { text, words }
    }

    /// The text read.
    pub(super) fn text(&self) -> &'f str {
        self.text
    }

    /// The words of the text (maximal runs of word chars), in order.
    pub(super) fn words(&self) -> impl Iterator<Item = &'f str> + '_ {
        self.words
            .iter()
            .map(|&(start, end)| &self.text[start..end])
    }

    /// Each word of the text with where it starts, in order.
    pub(super) fn word_starts(&self) -> impl Iterator<Item = (usize, &'f str)> + '_ {
        self.words
            .iter()
            .map(|&(start, end)| (start, &self.text[start..end]))
    }

    /// [`find_word`] in this text. A needle that opens with a word char can only stand at a
    /// word start, so only those are tried; any other needle is looked for byte by byte. (The
    /// unit tests check the name index against it.)
    #[cfg(test)]
    pub(super) fn find(&self, needle: &str, suffixes: &[&str]) -> Option<usize> {
        let first = needle.chars().next()?;
        if !is_word_char(first) {
            return find_word(self.text, needle, suffixes);
        }
        let lead = needle.as_bytes()[0];
        let bytes = self.text.as_bytes();
        self.words
            .iter()
            .map(|&(start, _)| start)
            .find(|&start| bytes[start] == lead && word_at(self.text, start, needle, suffixes))
    }

    /// A word of a tool's name in this text, as [`Haystack::find`] with the alias suffixes
    /// finds it, or without a final `e` before `-ing` ("merging" for `merge`).
    #[cfg(test)]
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
pub(super) fn word_at(haystack: &str, start: usize, needle: &str, suffixes: &[&str]) -> bool {
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
#[derive(Debug)]
struct AliasIndex {
    /// Each word's phrases, as a range of `phrases`.
    words: WordMap<(u32, u32)>,
    phrases: Vec<AliasPhrase>,
}

static ALIAS_INDEX: LazyLock<AliasIndex> = LazyLock::new(|| {
    let mut keyed: Vec<(String, AliasPhrase)> = Vec::new();
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
                let entry = AliasPhrase {
                    group,
                    weak,
                    phrase,
                };
                keyed.push((format!("{first}{suffix}"), entry));
            }
        }
    }
    // Grouped by word, each group in the table's order (a stable sort).
    keyed.sort_by(|(left, _), (right, _)| left.cmp(right));
    let mut words: Vec<(String, (u32, u32))> = Vec::new();
    let mut phrases = Vec::with_capacity(keyed.len());
    for (word, entry) in keyed {
        let at = u32::try_from(phrases.len()).unwrap_or(u32::MAX);
        match words.last_mut() {
            Some((last, (_, count))) if *last == word => *count += 1,
            _ => words.push((word, (at, 1))),
        }
        phrases.push(entry);
    }
    AliasIndex {
        words: WordMap::new(words),
        phrases,
    }
});

/// The leading run of word chars of `text`.
pub(super) fn first_word(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|&(_, ch)| !is_word_char(ch))
        .map_or(text.len(), |(at, _)| at);
    &text[..end]
}

/// How many groups the alias table has.
pub(super) const ALIAS_GROUP_COUNT: usize = ALIAS_GROUPS.len();

/// For each group of the alias table, its earliest mention in `form` as (weak, byte position,
/// longest phrase there), or `None`: the same as looking for each phrase with [`find_word`].
/// A phrase can only start where a word starts, and that word is the phrase's first word,
/// perhaps with one of [`ALIAS_SUFFIXES`] ("emailing" for "email"), so each word start costs
/// one lookup.
pub(super) fn alias_mentions(
    haystack: &Haystack<'_>,
) -> [Option<(bool, usize, Reverse<usize>)>; ALIAS_GROUP_COUNT] {
    let form = haystack.text;
    // On the stack: every rule is read for the alias table.
    let mut earliest = [None; ALIAS_GROUP_COUNT];
    for (start, word) in haystack.word_starts() {
        let Some((first, count)) = ALIAS_INDEX.words.get(word.as_bytes()) else {
            continue;
        };
        for entry in &ALIAS_INDEX.phrases[first as usize..(first + count) as usize] {
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
