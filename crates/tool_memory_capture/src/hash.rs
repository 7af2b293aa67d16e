//! Fast lookup tables for capture, whose keys are short words and tool names that capture
//! itself put there: the multiply-rotate hash of rustc's `FxHasher` for maps of any key, and
//! [`WordMap`], which reads a word's bytes as two machine words. std's SipHash guards a table
//! against keys chosen to collide, which costs several times more per word; no table here is
//! keyed by text a user chooses (a user's words are only ever looked up in them), so a
//! collision costs a probe, never an unbounded amount of work.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// rustc's Fx hash: for each word of input, rotate, xor and multiply by a constant.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // The length keeps "a" and "a\0" apart.
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A table from words to values, built once: open addressing on two machine words read
/// straight from a word's bytes and its length, for words of at most [`SHORT`] bytes (longer
/// ones are in a plain map). A lookup hashes two integers and compares three: every word of
/// every message is looked up in such a table, and most are in none.
#[derive(Debug)]
pub(crate) struct WordMap<T> {
    slots: Vec<Slot<T>>,
    /// The slot count is `1 << bits`.
    bits: u32,
    long: FxHashMap<Box<[u8]>, T>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot<T> {
    key: (u64, u64),
    /// The word's length; zero for an empty slot.
    length: usize,
    value: T,
}

/// The longest word a slot holds.
const SHORT: usize = 16;

impl<T: Copy + Default> WordMap<T> {
    /// The table of `words`: each word (a key given twice keeps its last value).
    pub(crate) fn new<K: AsRef<[u8]>>(words: impl IntoIterator<Item = (K, T)>) -> WordMap<T> {
        let words: Vec<(K, T)> = words.into_iter().collect();
        // At most half full, so a miss ends within a probe or two.
        let bits = (words.len() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        let mut table = WordMap {
            slots: vec![Slot::default(); 1 << bits],
            bits,
            long: FxHashMap::default(),
        };
        for (word, value) in words {
            let bytes = word.as_ref();
            if bytes.is_empty() || bytes.len() > SHORT {
                table.long.insert(bytes.into(), value);
                continue;
            }
            let key = key_of(bytes);
            let mut index = table.index(key, bytes.len());
            loop {
                let slot = &mut table.slots[index];
                if slot.length == 0 || (slot.length == bytes.len() && slot.key == key) {
                    *slot = Slot {
                        key,
                        length: bytes.len(),
                        value,
                    };
                    break;
                }
                index = (index + 1) & (table.slots.len() - 1);
            }
        }
        table
    }

    fn index(&self, key: (u64, u64), length: usize) -> usize {
        let mixed = (key.0 ^ key.1.rotate_left(29) ^ (length as u64).rotate_right(7))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - self.bits)) as usize
    }

    /// The value of `word`, if it is in the table.
    #[inline]
    pub(crate) fn get(&self, word: &[u8]) -> Option<T> {
        if word.is_empty() || word.len() > SHORT {
            return self.long.get(word).copied();
        }
        let key = key_of(word);
        let mut index = self.index(key, word.len());
        loop {
            let slot = &self.slots[index];
            if slot.length == 0 {
                return None;
            }
            if slot.length == word.len() && slot.key == key {
                return Some(slot.value);
            }
            index = (index + 1) & (self.slots.len() - 1);
        }
    }
}

/// Two machine words that, with its length, tell a word of 1 to 16 bytes from every other:
/// its first and last eight bytes (overlapping when shorter than 16), its first and last four,
/// or its first, middle and last byte.
#[inline]
fn key_of(word: &[u8]) -> (u64, u64) {
    let length = word.len();
    let eight = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&word[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    let four = |at: usize| {
        let mut bytes = [0u8; 4];
        bytes.copy_from_slice(&word[at..at + 4]);
        u64::from(u32::from_le_bytes(bytes))
    };
    match length {
        8.. => (eight(0), eight(length - 8)),
        4..=7 => (four(0) | (four(length - 4) << 32), 0),
        1..=3 => (
            u64::from(word[0])
                | u64::from(word[length / 2]) << 8
                | u64::from(word[length - 1]) << 16,
            0,
        ),
        0 => (0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn different_short_words_hash_apart() {
        let hash = |text: &str| {
            let mut hasher = FxHasher::default();
            hasher.write(text.as_bytes());
            hasher.finish()
        };
        let words = [
            "", "a", "a\0", "b", "never", "nevers", "don't", "do not", "eightchr",
        ];
        for (index, first) in words.iter().enumerate() {
            for second in &words[index + 1..] {
                assert_ne!(hash(first), hash(second), "{first:?} {second:?}");
            }
        }
        let mut map: FxHashMap<&str, usize> = FxHashMap::default();
        map.insert("never", 1);
        assert_eq!(map.get("never"), Some(&1));
        assert_eq!(map.get("nevers"), None);
    }

    /// Every word of every length finds its own value and no other word's, including words
    /// that share their first and last bytes.
    #[test]
    fn a_word_map_finds_each_word_and_nothing_else() {
        let mut words: Vec<String> = Vec::new();
        for length in 0..=20 {
            for variant in 0..4u8 {
                let mut word: Vec<u8> = (0..length).map(|at| b'a' + (at % 26) as u8).collect();
                if length > 0 {
                    // Differ only in the middle byte, or not at all for the first variant.
                    let middle = length / 2;
                    word[middle] = word[middle].wrapping_add(variant);
                }
                words.push(String::from_utf8(word).unwrap_or_default());
            }
        }
        words.sort();
        words.dedup();
        let map = WordMap::new(
            words
                .iter()
                .enumerate()
                .map(|(index, word)| (word.clone(), index)),
        );
        for (index, word) in words.iter().enumerate() {
            assert_eq!(map.get(word.as_bytes()), Some(index), "{word:?}");
            let mut longer = word.clone();
            longer.push('z');
            if !words.contains(&longer) {
                assert_eq!(map.get(longer.as_bytes()), None, "{longer:?}");
            }
        }
        assert_eq!(map.get(b"zzzzz"), None);
    }
}
