//! Whole-word lookup for the guard's texts: the word hasher and its maps and sets, a text's
//! runs of word characters, the cue set that finds many fixed phrases in one pass, and
//! `find_word`.

/// Whether `ch` continues a word for [`find_word`].
fn continues_word(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '-' || ch == '_'
}

/// A hasher for the small fixed tables of words that derivation looks words up in (FNV-1a).
/// The keys are short and the tables are built from constants, so the standard library's
/// DoS-resistant SipHash only costs time here: with it, hashing the words of a rule was a
/// tenth of a derivation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl Default for WordHasher {
    fn default() -> WordHasher {
        WordHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by words, hashed with [`WordHasher`].
pub(crate) type WordMap<V> =
    std::collections::HashMap<&'static str, V, std::hash::BuildHasherDefault<WordHasher>>;
/// A set of words, hashed with [`WordHasher`].
pub(crate) type WordSet =
    std::collections::HashSet<&'static str, std::hash::BuildHasherDefault<WordHasher>>;

/// A lower-case text with its maximal runs of word characters, for many [`find_word`] lookups
/// in one text. A needle that starts with a word character can only match where a run of the
/// text starts that equals the needle's first run (the character before the match must end a
/// run, and the needle's run ends where the text's does), so a lookup compares the needle's
/// first run with the runs and checks the needle only where they are equal, instead of
/// searching the text for it.
#[derive(Debug)]
pub(crate) struct WordRuns<'a> {
    text: &'a str,
    /// Each run with its byte offset, in text order.
    runs: Vec<(usize, &'a str)>,
}

impl<'a> WordRuns<'a> {
    /// The text the runs are of.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    pub(crate) fn new(text: &'a str) -> WordRuns<'a> {
        // An ASCII text is read byte by byte, without decoding characters.
        if text.is_ascii() {
            let word_bytes = text.bytes().enumerate().map(|(at, byte)| {
                (
                    at,
                    byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_',
                )
            });
            Self::from_word_chars(text, word_bytes)
        } else {
            let word_chars = text.char_indices().map(|(at, ch)| (at, continues_word(ch)));
            Self::from_word_chars(text, word_chars)
        }
    }

    /// The runs of `text`, given the offset of each character and whether it continues a word.
    fn from_word_chars(
        text: &'a str,
        word_chars: impl Iterator<Item = (usize, bool)>,
    ) -> WordRuns<'a> {
        // About one run per five bytes of prose: enough room for most rules at once.
        let mut runs = Vec::with_capacity(text.len() / 5 + 1);
        let mut start = None;
        for (at, continues) in word_chars {
            match (continues, start) {
                (true, None) => start = Some(at),
                (false, Some(from)) => {
                    runs.push((from, &text[from..at]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(from) = start {
            runs.push((from, &text[from..]));
        }
        WordRuns { text, runs }
    }

    /// Whether `word` is one of the runs.
    pub(crate) fn has_run(&self, word: &str) -> bool {
        self.runs.iter().any(|(_, run)| *run == word)
    }

    /// [`find_word`] on the text.
    pub(crate) fn find(&self, needle: &str) -> Option<usize> {
        let lead = needle
            .split(|ch: char| !continues_word(ch))
            .next()
            .unwrap_or("");
        if lead.is_empty() {
            return find_word(self.text, needle);
        }
        self.runs
            .iter()
            .filter(|(_, run)| *run == lead)
            .map(|(at, _)| *at)
            .find(|&at| word_at(self.text, at, needle))
    }
}

/// `N` fixed lists of cue words and phrases, grouped by their first run of word characters,
/// so finding the cues of a text costs one lookup per word of the text for all the lists
/// rather than a search per cue: in a put, looking up derivation's cues one by one was a fifth
/// of the whole call.
#[derive(Debug)]
pub(crate) struct CueSet<const N: usize> {
    /// Each cue under its first run, with the index of its list.
    by_lead: WordMap<Vec<(usize, &'static str)>>,
    /// Cues that start with a character that does not continue a word; always searched.
    unled: Vec<(usize, &'static str)>,
}

impl<const N: usize> CueSet<N> {
    pub(crate) fn new(lists: [&[&'static str]; N]) -> CueSet<N> {
        let mut set = CueSet {
            by_lead: WordMap::default(),
            unled: Vec::new(),
        };
        for (list, cues) in lists.into_iter().enumerate() {
            for &cue in cues {
                match cue.split(|ch: char| !continues_word(ch)).next() {
                    Some(lead) if !lead.is_empty() => {
                        set.by_lead.entry(lead).or_default().push((list, cue));
                    }
                    _ => set.unled.push((list, cue)),
                }
            }
        }
        set
    }

    /// For each list, where its first cue occurs in the text of `words` as a whole word
    /// ([`find_word`]).
    pub(crate) fn first_in(&self, words: &WordRuns<'_>) -> [Option<usize>; N] {
        let mut first = [None; N];
        // The runs are in text order, so the first match of a list is its earliest.
        for (at, run) in &words.runs {
            for &(list, cue) in self.by_lead.get(run).into_iter().flatten() {
                if first[list].is_none() && word_at(words.text, *at, cue) {
                    first[list] = Some(*at);
                }
            }
        }
        for &(list, cue) in &self.unled {
            if let Some(at) = find_word(words.text, cue) {
                first[list] = Some(first[list].map_or(at, |known: usize| known.min(at)));
            }
        }
        first
    }
}

/// Finds `needle` (lower-case) in `haystack` (lower-case) as a whole word: the characters
/// around the occurrence must not continue a word. Hyphens and underscores continue words
/// (`main-fix` is not `main`), and so does a dot between two word characters.
pub(crate) fn find_word(haystack: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let mut start = 0;
    while let Some(offset) = haystack[start..].find(needle) {
        let at = start + offset;
        if word_at(haystack, at, needle) {
            return Some(at);
        }
        start = at + needle.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// Whether `needle` (not empty) occurs in `haystack` at byte `at` (a character boundary) as a
/// whole word, in the sense of [`find_word`].
fn word_at(haystack: &str, at: usize, needle: &str) -> bool {
    if !haystack[at..].starts_with(needle) {
        return false;
    }
    let continues = continues_word;
    let end = at + needle.len();
    let before = haystack[..at].chars().next_back();
    let mut after = haystack[end..].chars();
    let first_after = after.next();
    let needle_first = needle.chars().next().is_some_and(continues);
    let needle_last = needle.chars().next_back().is_some_and(continues);
    let before_ok = !needle_first
        || !before.is_some_and(|ch| {
            continues(ch)
                || (ch == '.'
                    && haystack[..at - 1]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric))
        });
    let after_ok = !needle_last
        || !first_after.is_some_and(|ch| {
            continues(ch) || (ch == '.' && after.next().is_some_and(char::is_alphanumeric))
        });
    before_ok && after_ok
}
