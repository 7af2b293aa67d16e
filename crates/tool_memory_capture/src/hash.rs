//! A fast hasher for capture's lookup tables, whose keys are short words and tool names that
//! capture itself put there: the multiply-rotate hash of rustc's `FxHasher`. std's SipHash
//! guards a table against keys chosen to collide, which costs several times more per word; no
//! table here is keyed by text a user chooses (a user's words are only ever looked up in them),
//! so a collision costs a probe, never an unbounded amount of work.

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
}
