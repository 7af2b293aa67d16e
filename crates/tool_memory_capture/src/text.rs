//! Text plumbing for capture: where sentences end, the normal forms used for matching and for
//! identity keys, and the words every pass reads alike (the verbs that report
//! someone else's words). Which lines are the user's own is `material.rs`'s business.

use std::sync::LazyLock;

use regex::Regex;
use std::ops::Range;

use tool_memory_core::markdown::{self, in_spans};

/// The code spans of `text`, exactly as [`markdown::code_spans`] finds them (a run of backticks
/// opens a span that the next run of the same length closes), without the buffers and hash
/// map that function builds: capture asks for the spans of every line and every rule with a
/// backtick, and a line holds a handful of runs. A text with more runs than
/// [`MAX_RUNS_ON_STACK`] is left to core's function, which stays linear however many there
/// are.
pub(crate) fn code_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    code_spans_into(text, &mut spans);
    spans
}

/// [`code_spans`], appended to `spans`: the reader keeps every line's spans in one buffer.
pub(crate) fn code_spans_into(text: &str, spans: &mut Vec<Range<usize>>) {
    let bytes = text.as_bytes();
    let mut runs = [(0usize, 0usize); MAX_RUNS_ON_STACK];
    let mut count = 0;
    let mut at = 0;
    while let Some(found) = bytes[at..].iter().position(|&byte| byte == b'`') {
        let start = at + found;
        let mut end = start;
        while end < bytes.len() && bytes[end] == b'`' {
            end += 1;
        }
        if count == MAX_RUNS_ON_STACK {
            spans.extend(markdown::code_spans(text));
            return;
        }
        runs[count] = (start, end - start);
        count += 1;
        at = end;
    }
    let mut index = 0;
    while index < count {
        let (start, length) = runs[index];
        match (index + 1..count).find(|&next| runs[next].1 == length) {
            Some(close) => {
                spans.push(start..runs[close].0 + length);
                index = close + 1;
            }
            None => index += 1,
        }
    }
}

/// Runs of backticks [`code_spans`] pairs on the stack: a line of instructions holds a few;
/// each run is compared with the runs after it, so the work stays within this number squared.
const MAX_RUNS_ON_STACK: usize = 32;

/// List bullets, numbering, headings and task boxes in front of a line; they are layout, not
/// part of the instruction.
/// A sign that opens an item of a list of rules (`❌ No force-push`, `⚠️ Ask before …`,
/// `✅ Tests are fine`) is a bullet too: it is layout, and an order may follow it.
static BULLET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:[-*•+‣◦]\s+|\d{1,3}[.)]\s+|[a-zA-Z]\)\s+|#{1,6}\s+)?(?:\[[ xX]\]\s+)?(?:(?:❌|❎|✖|🚫|⛔|🛑|⚠|✋|❗|✅|✔|☑|🟢|👉|📌)\x{FE0F}?\s*)?",
    )
    .expect("bullet pattern compiles")
});

/// What a sign in front of an item says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sign {
    /// `❌`, `🚫`, `⛔`, `🛑`, `✖`, `❎`: the item is banned.
    Ban,
    /// Any other sign of [`BULLET`].
    Other,
}

/// The sign that opens `line` after its bullet, if any: what it says, the byte offset where
/// it stands, and the item after it.
pub(crate) fn sign_of(line: &str) -> Option<(Sign, usize, &str)> {
    // Every sign is outside ASCII, and stands within the first bytes of the line.
    if line.as_bytes()[..line.len().min(16)].is_ascii() {
        return None;
    }
    let end = BULLET.find(line).map_or(0, |found| found.end());
    let prefix = &line[..end];
    let found = |signs: &[&str]| signs.iter().find_map(|sign| prefix.find(sign));
    let (kind, at) = match (found(BAN_SIGNS), found(OTHER_SIGNS)) {
        (Some(at), _) => (Sign::Ban, at),
        (None, Some(at)) => (Sign::Other, at),
        (None, None) => return None,
    };
    Some((kind, at, &line[end..]))
}

/// The signs of [`BULLET`] that ban their item.
const BAN_SIGNS: &[&str] = &["❌", "❎", "✖", "🚫", "⛔", "🛑"];

/// The other signs of [`BULLET`].
const OTHER_SIGNS: &[&str] = &["⚠", "✋", "❗", "✅", "✔", "☑", "🟢", "👉", "📌"];

/// A line without its bullet, numbering or heading marker.
pub(crate) fn strip_bullet(line: &str) -> &str {
    let matched =
        ascii_bullet_end(line).unwrap_or_else(|| BULLET.find(line).map_or(0, |found| found.end()));
    &line[matched..]
}

/// Where [`BULLET`] ends its match in `line`, read from the ASCII bytes it looks at, or `None`
/// when it would look at a byte beyond ASCII (a bullet such as `•`, a digit or white space of
/// another script), which the pattern itself then decides. Nearly every line is decided here.
fn ascii_bullet_end(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    // `\s*` from `from`: where the run of white space ends, unless a byte beyond ASCII
    // follows it, which may be white space too.
    let spaces = |from: usize| -> Option<usize> {
        let mut at = from;
        while at < bytes.len() && matches!(bytes[at], b'\t'..=b'\r' | b' ') {
            at += 1;
        }
        (at == bytes.len() || bytes[at].is_ascii()).then_some(at)
    };
    // `\s+` from `from`: where it ends, if it takes at least one char.
    let some_spaces = |from: usize| -> Option<Option<usize>> {
        let end = spaces(from)?;
        Some((end > from).then_some(end))
    };
    let start = spaces(0)?;
    // The marker: `[-*+]`, one to three digits and `.` or `)`, a letter and `)`, or one to six
    // `#`; each then `\s+`.
    let marker_end = match bytes.get(start).copied() {
        Some(b'-' | b'*' | b'+') => Some(start + 1),
        Some(b'0'..=b'9') => {
            let digits = bytes[start..]
                .iter()
                .take_while(|byte| byte.is_ascii_digit())
                .count();
            match bytes.get(start + digits).copied() {
                Some(byte) if !byte.is_ascii() => return None,
                Some(b'.' | b')') if digits <= 3 => Some(start + digits + 1),
                _ => None,
            }
        }
        Some(b'a'..=b'z' | b'A'..=b'Z') if bytes.get(start + 1) == Some(&b')') => Some(start + 2),
        Some(b'#') => {
            let hashes = bytes[start..]
                .iter()
                .take_while(|&&byte| byte == b'#')
                .count();
            (hashes <= 6).then_some(start + hashes)
        }
        Some(byte) if !byte.is_ascii() => return None,
        _ => None,
    };
    let mut at = start;
    if let Some(marker_end) = marker_end
        && let Some(end) = some_spaces(marker_end)?
    {
        at = end;
    }
    // A task box: `[ ]`, `[x]` or `[X]`, then `\s+`.
    if bytes.get(at) == Some(&b'[')
        && matches!(bytes.get(at + 1), Some(b' ' | b'x' | b'X'))
        && bytes.get(at + 2) == Some(&b']')
        && let Some(end) = some_spaces(at + 3)?
    {
        at = end;
    }
    Some(at)
}

/// Splits one line into sentences, each trimmed and keeping its terminal punctuation. A
/// sentence ends at `.`, `!`, `?` or `…` (or a run of them, plus closing quotes or brackets)
/// followed by whitespace or the end of the line. So the dots inside `sarah@example.com`,
/// `https://x.org/a.b`, `notes.txt`, `v1.2` and `3.5` never split, and neither do a few
/// abbreviations (`e.g.`, `i.e.`, `vs.`, `Mr.`, ...).
pub(crate) fn split_sentences(line: &str) -> Vec<&str> {
    let mut sentences = Vec::new();
    split_sentences_into(line, &mut sentences);
    sentences
}

/// [`split_sentences`] into `sentences` (cleared first): one buffer for a whole message.
pub(crate) fn split_sentences_into<'l>(line: &'l str, sentences: &mut Vec<&'l str>) {
    // A dot inside a code span (`rm -rf .`, `a.b`) ends nothing.
    let code = if line.contains('`') {
        code_spans(line)
    } else {
        Vec::new()
    };
    split_sentences_coded(line, &code, 0, sentences);
}

/// [`split_sentences_into`] of `line` whose code spans are `code` shifted by `shift` bytes (a
/// byte at `at` in `line` is at `at + shift` in `code`'s text).
pub(crate) fn split_sentences_coded<'l>(
    line: &'l str,
    code: &[Range<usize>],
    shift: usize,
    sentences: &mut Vec<&'l str>,
) {
    sentences.clear();
    let char_at = |at: usize| char_at(line, at);
    let bytes = line.as_bytes();
    let mut start = 0;
    let mut at = 0;
    // Only a terminal can end a sentence: the bytes between them are skipped unread. (`…` is
    // the one terminal beyond ASCII; 0xE2 opens it.)
    while let Some(found) = bytes[at..]
        .iter()
        .position(|&byte| matches!(byte, b'.' | b'!' | b'?' | 0xE2))
    {
        let position = at + found;
        let Some(ch) = char_at(position) else {
            break;
        };
        at = position + ch.len_utf8();
        if !is_terminal(ch) || in_spans(code, position + shift) {
            continue;
        }
        // A run of terminals, then closing quotes or brackets: "?!", "…", `."`, `.)`.
        let mut single = true;
        while let Some(next) = char_at(at).filter(|&next| is_terminal(next)) {
            at += next.len_utf8();
            single = false;
        }
        while let Some(next) = char_at(at).filter(|&next| is_closer(next)) {
            at += next.len_utf8();
            single = false;
        }
        let end = at;
        let at_boundary = char_at(end).is_none_or(char::is_whitespace);
        let single_dot = ch == '.' && single;
        if at_boundary && !(single_dot && is_abbreviation(&line[start..position], &line[end..])) {
            push_trimmed(sentences, &line[start..end]);
            start = end;
        }
    }
    push_trimmed(sentences, &line[start..]);
}

/// The char starting at byte `at` of `text`, read without decoding when it is ASCII.
fn char_at(text: &str, at: usize) -> Option<char> {
    match text.as_bytes().get(at) {
        Some(&byte) if byte.is_ascii() => Some(char::from(byte)),
        Some(_) => text[at..].chars().next(),
        None => None,
    }
}

fn push_trimmed<'a>(sentences: &mut Vec<&'a str>, piece: &'a str) {
    let piece = piece.trim();
    if !piece.is_empty() {
        sentences.push(piece);
    }
}

fn is_terminal(ch: char) -> bool {
    matches!(ch, '.' | '!' | '?' | '…')
}

fn is_closer(ch: char) -> bool {
    matches!(
        ch,
        ')' | ']' | '"' | '\'' | '”' | '’' | '»' | '*' | '_' | '`'
    )
}

fn is_abbreviation(before: &str, after: &str) -> bool {
    let word = before
        .rsplit(|ch: char| ch.is_whitespace() || ch == '(')
        .next()
        .unwrap_or("");
    // Every abbreviation is ASCII, and no other char lower-cases to the ASCII letters they
    // are made of, so the word is compared in place.
    let is = |abbreviation: &str| word.eq_ignore_ascii_case(abbreviation);
    if ABBREVIATIONS.iter().any(|abbreviation| is(abbreviation)) {
        return true;
    }
    // "etc." ends a sentence only when a capital letter follows.
    is("etc")
        && !after
            .trim_start()
            .chars()
            .next()
            .is_some_and(char::is_uppercase)
}

/// Abbreviations whose dot ends no sentence, without that dot.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "mr", "mrs", "ms", "dr", "approx", "incl", "cf", "fig",
];

/// The form used for matching: lower-case, typographic apostrophes and quotes unified,
/// markdown emphasis stars dropped, every run of whitespace one space.
pub(crate) fn match_form(text: &str) -> String {
    if text.is_ascii() {
        return ascii_match_form(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for ch in text.chars() {
        let ch = match ch {
            '\u{2019}' | '\u{2018}' | '\u{02bc}' | '\u{00b4}' | '`' | '\u{2032}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{00ab}' | '\u{00bb}' => '"',
            '*' => continue,
            other => other,
        };
        if ch.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        if ch.is_ascii() {
            out.push(ch.to_ascii_lowercase());
        } else {
            out.extend(ch.to_lowercase());
        }
    }
    out
}

/// [`match_form`] of ASCII text, byte by byte: nearly every sentence capture reads is ASCII,
/// and each is put in this form several times.
fn ascii_match_form(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len());
    let mut pending_space = false;
    for &byte in text.as_bytes() {
        let byte = match byte {
            b'`' => b'\'',
            b'*' => continue,
            // The ASCII part of `char::is_whitespace`: tab, line feed, vertical tab, form
            // feed, carriage return and space.
            b'\t'..=b'\r' | b' ' => {
                pending_space = !out.is_empty();
                continue;
            }
            other => other,
        };
        if pending_space {
            out.push(b' ');
            pending_space = false;
        }
        out.push(byte.to_ascii_lowercase());
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The placeholder word a code span stands as in [`grammar_form`]: a command, a path or a
/// snippet is one noun-or-verb slot of the sentence, whatever is inside it.
pub(crate) const CODE_WORD: &str = "codespan";

/// The form the grammars read: [`match_form`] with each code span replaced by [`CODE_WORD`],
/// so "Don't `npm publish` anything" reads "don't codespan anything" and the apostrophes,
/// dots and words inside a command never look like quotation, sentence ends or verbs.
pub(crate) fn grammar_form(text: &str) -> String {
    grammar_form_coded(text).0
}

/// [`grammar_form`], and whether it holds a code span (without one it is the
/// [`match_form`]).
pub(crate) fn grammar_form_coded(text: &str) -> (String, bool) {
    if !text.contains('`') {
        return (match_form(text), false);
    }
    let spans = code_spans(text);
    if spans.is_empty() {
        return (match_form(text), false);
    }
    let mut plain = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        plain.push_str(&text[at..span.start]);
        plain.push(' ');
        plain.push_str(CODE_WORD);
        plain.push(' ');
        at = span.end;
    }
    plain.push_str(&text[at..]);
    (match_form(&plain), true)
}

/// The form an identity key hashes: [`match_form`] without trailing punctuation.
pub(crate) fn identity_form(text: &str) -> String {
    let form = match_form(text);
    identity_of_form(&form).to_owned()
}

/// [`identity_form`] of a text whose [`match_form`] is `form`.
pub(crate) fn identity_of_form(form: &str) -> &str {
    form.trim_end_matches(|ch: char| {
        ch.is_whitespace() || matches!(ch, '.' | '!' | '?' | ';' | ':' | ',' | '…')
    })
}

/// At most `max` chars of `text`, cut at a char boundary and trimmed.
pub(crate) fn truncate_chars(text: &str, max: usize) -> &str {
    // No more bytes than `max` is no more chars.
    if text.len() <= max {
        return text;
    }
    match text.char_indices().nth(max) {
        Some((cut, _)) => text[..cut].trim_end(),
        None => text,
    }
}

/// Untrusted text made safe to quote in a rule: control characters dropped, whitespace
/// collapsed, at most `max` chars.
pub(crate) fn sanitize(text: &str, max: usize) -> String {
    let cleaned: String = text
        .chars()
        .map(|ch| if ch.is_whitespace() { ' ' } else { ch })
        .filter(|ch| !ch.is_control())
        .collect();
    let collapsed = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    truncate_chars(&collapsed, max).to_owned()
}

/// `f` of `word` lower-cased in ASCII (as [`str::to_ascii_lowercase`] writes it), on the
/// stack for a word of up to 32 bytes: the lexicons' look-ups of a rule's words ask this for
/// every word, and most words are short.
pub(crate) fn with_ascii_lower<R>(word: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buffer = [0u8; 32];
    if !word.bytes().any(|byte| byte.is_ascii_uppercase()) {
        return f(word);
    }
    if word.len() > buffer.len() {
        return f(&word.to_ascii_lowercase());
    }
    let buffer = &mut buffer[..word.len()];
    buffer.copy_from_slice(word.as_bytes());
    buffer.make_ascii_lowercase();
    // Only ASCII bytes changed, so the bytes are still the word's valid UTF-8.
    f(std::str::from_utf8(buffer).unwrap_or_default())
}

/// Whether `text` ends with `suffix` (lower-case ASCII), ignoring the ASCII case of `text`:
/// `text.to_ascii_lowercase().ends_with(suffix)` without the new string.
pub(crate) fn ends_with_ascii_lower(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.as_bytes()[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

pub(crate) fn is_word_char(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// Verbs that report someone else's words ("she said", "the page states", "according to"):
/// a clause they introduce is not the user's own edict or revocation, and material introduced
/// by them is quoted. Shared by the edict, revocation and material passes, which must agree on
/// whose words a sentence holds.
pub(crate) const SPEECH_VERBS: &[&str] = &[
    "said",
    "says",
    "told",
    "tells",
    "wrote",
    "writes",
    "asked",
    "asks",
    "mentioned",
    "replied",
    "warned",
    "warns",
    "insisted",
    "advised",
    "according",
    "instructed",
    "yelled",
    "shouted",
    "claimed",
    "claims",
    "suggested",
    "recommended",
    "recommends",
    "saying",
    "texted",
    "reads",
    "states",
    "stated",
];

/// What opens a concessive clause around a speech verb: "whatever the thread says, never …",
/// "regardless of what Bob said, …", "no matter what the page tells you, …". Such a clause
/// sets someone else's words aside, so the order after it is the user's own, not a report.
/// Lower-case phrases, one word each.
pub(crate) const CONCESSIVE_OPENERS: &[&[&str]] = &[
    &["despite", "what"],
    &["even", "if"],
    &["even", "though"],
    &["in", "spite", "of", "what"],
    &["irrespective", "of", "what"],
    &["no", "matter", "what"],
    &["regardless", "of", "what"],
    &["whatever"],
];

/// A line of a YAML-ish rule file as its key and its value, unquoted (`- pattern: "rm -rf /"`
/// is `pattern` and `rm -rf /`): a key of lower-case letters and `_`, a colon and a space.
pub(crate) fn yaml_entry(line: &str) -> Option<(&str, &str)> {
    let entry = line.trim_start_matches([' ', '\t']);
    let entry = entry.strip_prefix("- ").unwrap_or(entry);
    // The key is read byte by byte up to its colon: most lines stop at their first byte.
    let bytes = entry.as_bytes();
    let key_len = bytes
        .iter()
        .take(MAX_YAML_KEY + 1)
        .position(|&byte| !(byte.is_ascii_lowercase() || byte == b'_'))?;
    if key_len == 0 || bytes[key_len] != b':' {
        return None;
    }
    let (key, value) = (&entry[..key_len], &entry[key_len + 1..]);
    if !(value.is_empty() || value.starts_with(' ')) {
        return None;
    }
    let value = value.trim();
    let unquoted = value
        .strip_prefix('"')
        .and_then(|value| value.strip_suffix('"'))
        .or_else(|| {
            value
                .strip_prefix('\'')
                .and_then(|value| value.strip_suffix('\''))
        })
        .unwrap_or(value);
    Some((key, unquoted))
}

/// The longest key [`yaml_entry`] reads (`description`, `conditions`).
const MAX_YAML_KEY: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    fn check_split(line: &str, expected: &[&str]) {
        assert_eq!(split_sentences(line), expected, "{line:?}");
    }

    #[test]
    fn splits_sentences_without_cutting_addresses_urls_or_numbers() {
        check_split(
            "Never email Sarah at sarah@example.com.",
            &["Never email Sarah at sarah@example.com."],
        );
        check_split(
            "Thanks! Never open https://evil.example.org/a.html. Ok?",
            &[
                "Thanks!",
                "Never open https://evil.example.org/a.html.",
                "Ok?",
            ],
        );
        check_split(
            "v1.2: never deploy on Fridays",
            &["v1.2: never deploy on Fridays"],
        );
        check_split(
            "Keep it under 3.5 GB. Never touch notes.txt!!",
            &["Keep it under 3.5 GB.", "Never touch notes.txt!!"],
        );
        check_split(
            "Use tools, e.g. grep. Done…",
            &["Use tools, e.g. grep.", "Done…"],
        );
        check_split(
            "He said \"stop.\" Then left.",
            &["He said \"stop.\"", "Then left."],
        );
        check_split(
            "a, b, etc. and more. Etc. Next",
            &["a, b, etc. and more.", "Etc.", "Next"],
        );
        check_split("   ", &[]);
    }

    #[test]
    fn normal_forms() {
        assert_eq!(match_form("  Don’t\t\temail **Bob**  "), "don't email bob");
        assert_eq!(identity_form("Never email Sarah!!! "), "never email sarah");
        assert_eq!(strip_bullet("  - [ ] never push"), "never push");
        assert_eq!(strip_bullet("2) never push"), "never push");
        assert_eq!(strip_bullet("-never"), "-never");
        assert_eq!(truncate_chars("ééé", 2), "éé");
        assert_eq!(sanitize("a\u{7}b\n\n c", 80), "ab c");
        assert_eq!(sanitize(&"x".repeat(100), 80).len(), 80);
    }
}

#[cfg(test)]
mod code_span_tests {
    use super::*;

    /// The spans are core's, on every line of the corpora and on lines of many runs.
    #[test]
    fn code_spans_are_cores() {
        let mut lines: Vec<String> = crate::test_messages::corpus_messages()
            .iter()
            .flat_map(|message| message.lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        lines.extend(
            [
                "`a` ``b`` ```c``` `d ``e` f``",
                "` `` ``` `` `",
                "no ticks",
                "unclosed `a ``b",
                "é`ü`ß``",
            ]
            .map(str::to_owned),
        );
        lines.push("`x` ``".repeat(40));
        lines.push("`".repeat(3) + &"a`b``".repeat(30));
        let mut spans = 0;
        for line in &lines {
            let found = code_spans(line);
            spans += found.len();
            assert_eq!(found, markdown::code_spans(line), "{line:?}");
        }
        assert!(spans > 100, "{spans}");
    }
}

#[cfg(test)]
mod bullet_tests {
    use super::*;

    /// The ASCII reading of a bullet agrees with the pattern wherever it answers, on every line
    /// of the corpora and on made-up prefixes.
    #[test]
    fn the_ascii_bullet_reading_agrees_with_the_pattern() {
        let mut lines: Vec<String> = crate::test_messages::corpus_messages()
            .iter()
            .flat_map(|message| message.lines().map(str::to_owned).collect::<Vec<_>>())
            .collect();
        for prefix in [
            "",
            " ",
            "\t",
            "-",
            "- ",
            "-  ",
            "* ",
            "+ ",
            "• ",
            "1. ",
            "12) ",
            "123. ",
            "1234. ",
            "1.",
            "a) ",
            "Z) ",
            "ab) ",
            "# ",
            "###### ",
            "####### ",
            "#",
            "[ ] ",
            "[x] ",
            "[X]",
            "- [ ] ",
            "2. [x]  ",
            "\u{a0}- ",
            "-\u{a0}",
            "1\u{663}. ",
            "##\t[ ]\tx",
        ] {
            for rest in ["never push", "", "[x] done", "x"] {
                lines.push(format!("{prefix}{rest}"));
            }
        }
        let mut decided = 0;
        for line in &lines {
            let pattern = BULLET.find(line).map_or(0, |found| found.end());
            if let Some(end) = ascii_bullet_end(line) {
                decided += 1;
                assert_eq!(end, pattern, "{line:?}");
            }
            assert_eq!(strip_bullet(line), &line[pattern..], "{line:?}");
        }
        assert!(decided > 500, "{decided}");
    }
}
