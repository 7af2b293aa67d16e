//! The catalogue's names read into an index once per turn, so a rule is searched for all of
//! them in one pass over its words. Each needle (a form of a tool's name, one of its name
//! words, or such a word without its final `e`) sits under the first two bytes of its text; a
//! rule looks up the first two bytes of each of its words, and checks the few needles found
//! there where the word stands. The result is, for every needle, where it first stands in the
//! rule: what a search for each needle with [`Haystack::find`] gives, at the cost of one lookup
//! per word of the rule instead of a look at every word for every needle.

use super::alias::{Haystack, find_word, word_at};
use crate::text::is_word_char;

/// One text looked for in rules (a range of the index's text), with the suffixes it may
/// carry.
#[derive(Debug)]
struct Needle {
    text: std::ops::Range<usize>,
    suffixes: &'static [&'static str],
}

/// The needles of a turn's catalogue, by the first two bytes of each.
#[derive(Debug, Default)]
pub(super) struct NameIndex {
    /// Every needle's text, one after the other.
    text: String,
    needles: Vec<Needle>,
    /// (first two bytes, needle) for every needle that opens with two word bytes, sorted.
    by_lead: Vec<(u16, u32)>,
    /// The other needles (a mark or a one-char word first), which are looked for byte by
    /// byte.
    scanned: Vec<u32>,
    /// A bit for each lead of `by_lead`, folded to [`LEAD_BITS`] bits: most words of a rule
    /// open no needle, and one test of a bit tells so without a search of `by_lead`.
    leads: [u64; LEAD_BITS / 64],
}

/// Bits of [`NameIndex::leads`]: a catalogue holds a few dozen leads, so a word's lead that
/// opens no needle rarely shares a bit with one.
const LEAD_BITS: usize = 1024;

/// The bit of `lead` in [`NameIndex::leads`]: the first byte whole and the second's low bits.
fn lead_bit(lead: u16) -> (usize, u64) {
    let folded = usize::from(lead) % LEAD_BITS;
    (folded / 64, 1 << (folded % 64))
}

/// Where each needle of a [`NameIndex`] first stands in one rule.
#[derive(Debug)]
pub(super) struct Hits(Vec<Option<u32>>);

impl Hits {
    /// The byte offset where needle `needle` first stands, if it does.
    pub(super) fn at(&self, needle: u32) -> Option<usize> {
        self.0[needle as usize].map(|at| at as usize)
    }
}

/// The first two bytes of a text, when both belong to its first word: a needle can only stand
/// where a word of the rule opens with the same two.
fn lead(text: &str) -> Option<u16> {
    let mut chars = text.chars();
    let first = chars.next()?;
    // The first word must run at least two bytes: one ASCII word char is not enough.
    if !is_word_char(first) || (first.is_ascii() && !chars.next().is_some_and(is_word_char)) {
        return None;
    }
    let bytes = text.as_bytes();
    Some(u16::from_le_bytes([bytes[0], bytes[1]]))
}

impl NameIndex {
    /// Adds a needle; returns its id.
    pub(super) fn add(&mut self, text: &str, suffixes: &'static [&'static str]) -> u32 {
        let id = u32::try_from(self.needles.len()).unwrap_or(u32::MAX);
        match lead(text) {
            Some(lead) => self.by_lead.push((lead, id)),
            None => self.scanned.push(id),
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.needles.push(Needle {
            text: start..self.text.len(),
            suffixes,
        });
        id
    }

    /// Indexes the needles added.
    pub(super) fn build(&mut self) {
        self.by_lead.sort_unstable();
        for &(lead, _) in &self.by_lead {
            let (word, bit) = lead_bit(lead);
            self.leads[word] |= bit;
        }
    }

    /// Where each needle first stands in the rule `haystack` reads.
    pub(super) fn hits(&self, haystack: &Haystack<'_>) -> Hits {
        let mut hits = vec![None; self.needles.len()];
        let text = haystack.text();
        for (start, word) in haystack.word_starts() {
            // A word that the needle opens: its first two bytes are the needle's, and a word of
            // one char opens none (every needle here opens with two bytes of its first word).
            let Some(lead) = lead(word) else {
                continue;
            };
            let (bits, bit) = lead_bit(lead);
            if self.leads[bits] & bit == 0 {
                continue;
            }
            let first = self.by_lead.partition_point(|&(key, _)| key < lead);
            for &(key, id) in &self.by_lead[first..] {
                if key != lead {
                    break;
                }
                let slot = &mut hits[id as usize];
                let needle = &self.needles[id as usize];
                let needle_text = &self.text[needle.text.clone()];
                if slot.is_none() && word_at(text, start, needle_text, needle.suffixes) {
                    *slot = u32::try_from(start).ok();
                }
            }
        }
        for &id in &self.scanned {
            let needle = &self.needles[id as usize];
            hits[id as usize] = find_word(text, &self.text[needle.text.clone()], needle.suffixes)
                .and_then(|at| u32::try_from(at).ok());
        }
        Hits(hits)
    }
}
