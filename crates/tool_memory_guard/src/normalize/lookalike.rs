//! Look-alike characters: letters of other scripts that look like Latin ones (Cyrillic `а`,
//! Greek `ο`), full-width and mathematical letters, look-alike punctuation, and characters
//! that show nothing (zero-width spaces, joiners, direction marks). A call that spells a
//! forbidden literal with them (`gіt push --force` with a Cyrillic `і`, `ｒｍ -rf /`,
//! `sarah@corр.com`) is read again with each folded to the plain character it imitates; what
//! that reading would block, the guard asks about (see `Guard::check`). A shell would not run
//! `gіt` as git, and a mail server would not deliver `corр.com` to corp.com, so the folded
//! reading only ever asks: the call may be an attempt to pass a rule, or another thing.

/// Letters of other scripts that look like a Latin letter, with the letter: Cyrillic, Greek,
/// Armenian and Latin look-alikes, after the confusables of Unicode's UTS #39 that a reader
/// cannot tell apart in common fonts. Sorted by the look-alike.
const LETTERS: &[(char, char)] = &[
    ('ı', 'i'),
    ('ɑ', 'a'),
    ('ɡ', 'g'),
    ('Α', 'A'),
    ('Β', 'B'),
    ('Ε', 'E'),
    ('Ζ', 'Z'),
    ('Η', 'H'),
    ('Ι', 'I'),
    ('Κ', 'K'),
    ('Μ', 'M'),
    ('Ν', 'N'),
    ('Ο', 'O'),
    ('Ρ', 'P'),
    ('Τ', 'T'),
    ('Υ', 'Y'),
    ('Χ', 'X'),
    ('α', 'a'),
    ('ι', 'i'),
    ('κ', 'k'),
    ('ν', 'v'),
    ('ο', 'o'),
    ('ρ', 'p'),
    ('υ', 'u'),
    ('χ', 'x'),
    ('Ѕ', 'S'),
    ('І', 'I'),
    ('Ј', 'J'),
    ('А', 'A'),
    ('В', 'B'),
    ('Е', 'E'),
    ('К', 'K'),
    ('М', 'M'),
    ('Н', 'H'),
    ('О', 'O'),
    ('Р', 'P'),
    ('С', 'C'),
    ('Т', 'T'),
    ('У', 'Y'),
    ('Х', 'X'),
    ('а', 'a'),
    ('е', 'e'),
    ('о', 'o'),
    ('р', 'p'),
    ('с', 'c'),
    ('у', 'y'),
    ('х', 'x'),
    ('ѕ', 's'),
    ('і', 'i'),
    ('ј', 'j'),
    ('һ', 'h'),
    ('ӏ', 'l'),
    ('Ԁ', 'D'),
    ('ԁ', 'd'),
    ('ԛ', 'q'),
    ('ԝ', 'w'),
    ('հ', 'h'),
    ('ո', 'n'),
    ('ս', 'u'),
    ('օ', 'o'),
    ('ℓ', 'l'),
];

/// Punctuation that looks like the ASCII mark a command, a path or an address is written
/// with: dashes and the minus sign, slashes, dots, the at sign, quotes. Sorted. (The em
/// dash, `--` as editors type it, is folded in `folded`.)
const MARKS: &[(char, char)] = &[
    ('‐', '-'),
    ('‑', '-'),
    ('‒', '-'),
    ('–', '-'),
    ('―', '-'),
    ('‘', '\''),
    ('’', '\''),
    ('“', '"'),
    ('”', '"'),
    ('․', '.'),
    ('⁄', '/'),
    ('−', '-'),
    ('∕', '/'),
    ('﹒', '.'),
    ('﹣', '-'),
    ('﹫', '@'),
];

/// Characters that show nothing or only space: removed (the invisible ones) or read as a
/// space. Zero-width space and joiners, direction marks and embeddings, the soft hyphen,
/// word joiner, invisible operators, variation selectors and the byte order mark.
fn invisible(ch: char) -> bool {
    matches!(ch,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}')
}

/// Spaces other than the ASCII ones.
fn wide_space(ch: char) -> bool {
    matches!(
        ch,
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// The plain character `ch` imitates, if it is a look-alike: `None` for an invisible one
/// (dropped), `Some(ch)` for a character that imitates nothing.
fn plain(ch: char) -> Option<char> {
    if ch.is_ascii() {
        return Some(ch);
    }
    if invisible(ch) {
        return None;
    }
    if wide_space(ch) {
        return Some(' ');
    }
    let code = u32::from(ch);
    // Full-width forms of ASCII (`ｒｍ`, `＠`, `／`).
    if (0xFF01..=0xFF5E).contains(&code) {
        return char::from_u32(code - 0xFEE0);
    }
    // Mathematical letters (bold, italic, script, double-struck, sans-serif, monospace...):
    // runs of 52 (A-Z, a-z) from U+1D400, and digits in runs of 10 from U+1D7CE.
    if (0x1D400..=0x1D6A3).contains(&code) {
        let at = (code - 0x1D400) % 52;
        let base = if at < 26 {
            u32::from(b'A')
        } else {
            u32::from(b'a') - 26
        };
        return char::from_u32(base + at);
    }
    if (0x1D7CE..=0x1D7FF).contains(&code) {
        return char::from_u32(u32::from(b'0') + (code - 0x1D7CE) % 10);
    }
    for table in [LETTERS, MARKS] {
        if let Ok(at) = table.binary_search_by(|(from, _)| from.cmp(&ch)) {
            return Some(table[at].1);
        }
    }
    Some(ch)
}

/// Whether `ch` can only be a look-alike (full-width, mathematical, invisible): a word holding
/// one is folded whatever else it holds.
fn only_imitates(ch: char) -> bool {
    let code = u32::from(ch);
    invisible(ch) || (0xFF01..=0xFF5E).contains(&code) || (0x1D400..=0x1D7FF).contains(&code)
}

/// `text` with its look-alikes folded, or `None` when it holds none. A word of another
/// script is left alone unless it mixes in ASCII letters or digits (`gіt`), or holds a
/// character that can only imitate (`ｇｉｔ`, `g\u{200B}it`): a Russian sentence is not read as
/// Latin look-alikes.
pub(crate) fn folded(text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for word in text.split_inclusive(|ch: char| ch.is_ascii_whitespace()) {
        let fold = word
            .chars()
            .any(|ch| ch.is_ascii_alphanumeric() || only_imitates(ch))
            || word
                .chars()
                .all(|ch| ch.is_ascii() || plain(ch) != Some(ch));
        if !fold || word.is_ascii() {
            out.push_str(word);
            continue;
        }
        for ch in word.chars() {
            // An em dash is what typing `--` turns into in many editors: `—force` is `--force`.
            if ch == '—' {
                out.push_str("--");
                changed = true;
                continue;
            }
            match plain(ch) {
                Some(same) if same == ch => out.push(ch),
                Some(other) => {
                    out.push(other);
                    changed = true;
                }
                None => changed = true,
            }
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_sorted_for_lookup() {
        for table in [LETTERS, MARKS] {
            assert!(table.windows(2).all(|pair| pair[0].0 < pair[1].0));
        }
    }

    #[test]
    fn look_alikes_fold_to_what_they_imitate() {
        let check = |text: &str, expected: Option<&str>| {
            assert_eq!(folded(text).as_deref(), expected, "{text:?}");
        };
        check("git push --force", None);
        check("gіt push --force", Some("git push --force"));
        check("ｇｉｔ ｐｕｓｈ －－ｆｏｒｃｅ", Some("git push --force"));
        check("g\u{200B}it push", Some("git push"));
        check("rm −rf /", Some("rm -rf /"));
        check("git push —force", Some("git push --force"));
        check("sarah@corр.com", Some("sarah@corp.com"));
        check("𝐫𝐦 -rf /", Some("rm -rf /"));
        // A word of another script alone is that script, not a disguise.
        check("Привет, мир", None);
        check("Отправь отчёт sarah@corp.com", None);
        check("naïve café", None);
    }
}
