//! Identity keys: deterministic rule ids, so the same edict said again refreshes one rule.
//!
//! The hash is FNV-1a 64 written out here, not std's `DefaultHasher`, whose output may change
//! between Rust versions and would then orphan every stored rule.

use std::borrow::Cow;

use crate::text::{identity_form, identity_of_form};

/// Prefix of edict identity keys.
pub const EDICT_KEY_PREFIX: &str = "edict-";
/// Prefix of repeated-failure identity keys.
pub const FAILURE_KEY_PREFIX: &str = "failure-";

// A unit separator between the tool and the text, so ("ab", "c") and ("a", "bc") differ.
const SEPARATOR: u8 = 0x1f;

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(OFFSET_BASIS, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(PRIME)
    })
}

fn key(prefix: &str, tool_name: &str, text: &str) -> String {
    let hash = [tool_name.as_bytes(), &[SEPARATOR], text.as_bytes()]
        .iter()
        .flat_map(|part| part.iter())
        .fold(OFFSET_BASIS, |hash, byte| {
            (hash ^ u64::from(*byte)).wrapping_mul(PRIME)
        });
    // `{prefix}{hash:016x}`, written without the formatting machinery.
    let mut key = String::with_capacity(prefix.len() + 16);
    key.push_str(prefix);
    for shift in (0..16).rev() {
        let digit = (hash >> (shift * 4)) & 0xf;
        key.push(char::from(b"0123456789abcdef"[digit as usize]));
    }
    key
}

/// The identity key of an edict: the normalised tool name and the edict text lower-cased,
/// with whitespace collapsed, typographic apostrophes and quotes unified and trailing
/// punctuation dropped.
pub fn edict_identity_key(tool_name: &str, rule: &str) -> String {
    key(
        EDICT_KEY_PREFIX,
        &normal_name(tool_name),
        &identity_form(rule),
    )
}

/// [`edict_identity_key`] of a rule whose [`match_form`](crate::text::match_form) is `form`.
pub(crate) fn edict_identity_key_of_form(tool_name: &str, form: &str) -> String {
    key(
        EDICT_KEY_PREFIX,
        &normal_name(tool_name),
        identity_of_form(form),
    )
}

/// The identity key of a tool's repeated-failure observation: one per tool, refreshed by
/// every turn in which the tool fails again.
pub fn failure_identity_key(tool_name: &str) -> String {
    key(
        FAILURE_KEY_PREFIX,
        &normal_name(tool_name),
        "repeated-failure",
    )
}

/// The normalised tool name, without a new string when it already is one (capture's own
/// names always are).
fn normal_name(tool_name: &str) -> Cow<'_, str> {
    let normal = tool_name
        .bytes()
        .all(|byte| byte.is_ascii() && !byte.is_ascii_uppercase())
        && tool_name.trim().len() == tool_name.len();
    if normal {
        Cow::Borrowed(tool_name)
    } else {
        Cow::Owned(tool_memory_core::normalize_tool_name(tool_name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    fn check_same(a: (&str, &str), b: (&str, &str), same: bool) {
        let left = edict_identity_key(a.0, a.1);
        let right = edict_identity_key(b.0, b.1);
        assert_eq!(left == right, same, "{a:?} vs {b:?}: {left} {right}");
        assert!(left.starts_with(EDICT_KEY_PREFIX) && left.len() == 22 && left.is_ascii());
    }

    #[test]
    fn edict_keys_ignore_case_spacing_apostrophes_and_final_punctuation() {
        check_same(
            ("send_email", "Never email Sarah."),
            ("Send_Email ", "never  email\tsarah"),
            true,
        );
        check_same(
            ("send_email", "Don’t email Bob!"),
            ("send_email", "don't email bob"),
            true,
        );
        check_same(
            ("send_email", "Never email Sarah."),
            ("slack", "Never email Sarah."),
            false,
        );
        check_same(
            ("send_email", "Never email Sarah."),
            ("send_email", "Never email Sara."),
            false,
        );
        check_same(("ab", "c"), ("a", "bc"), false);
    }

    #[test]
    fn keys_are_pinned_across_versions() {
        // Pinned values, cross-checked with an independent FNV-1a: changing them orphans rules
        // already stored under the old ids.
        assert_eq!(
            edict_identity_key("send_email", "Never email Sarah at sarah@example.com."),
            PINNED_EDICT
        );
        assert_eq!(failure_identity_key("Shell"), PINNED_FAILURE);
        assert_eq!(
            failure_identity_key("shell"),
            failure_identity_key(" SHELL ")
        );
        assert_ne!(failure_identity_key("shell"), failure_identity_key("bash"));
    }

    const PINNED_EDICT: &str = "edict-24f697834e217ef9";
    const PINNED_FAILURE: &str = "failure-33eef2bf56531253";
}
