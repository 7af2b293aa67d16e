//! The markdown people write their rules in, read the way both grammars need it: which parts of
//! a line are code spans (a command or a path, never split and never read as prose), where
//! sentences end outside them, what a line is (a heading, a bullet, a table row, a fence), and
//! the text without emphasis markers (`**NEVER run yarn**` is an order to never run yarn).
//!
//! Capture reads whole messages and instruction files with it; the guard reads one rule's text.
//! It is a reader for rules, not a renderer: unbalanced backticks or asterisks are plain text,
//! and nothing here can fail or take more than linear time in its input.

use std::borrow::Cow;
use std::ops::Range;

/// The byte ranges of a line's code spans, backticks included, in order. A span opens with a
/// run of backticks and closes with the next run of exactly the same length (CommonMark's
/// rule); a run with no closing run is plain text.
pub fn code_spans(text: &str) -> Vec<Range<usize>> {
    let runs = backtick_runs(text.as_bytes());
    // The next run of the same length after each run, found in one backward pass, so that
    // runs that never close cost nothing more (a search forward from each would be quadratic
    // in a line of many backtick runs of different lengths).
    let mut next_same = vec![None; runs.len()];
    let mut last_of_length = std::collections::HashMap::new();
    for (index, &(_, len)) in runs.iter().enumerate().rev() {
        next_same[index] = last_of_length.insert(len, index);
    }
    let mut spans = Vec::new();
    let mut index = 0;
    while index < runs.len() {
        let (start, len) = runs[index];
        match next_same[index] {
            Some(close) => {
                let (close_start, _) = runs[close];
                spans.push(start..close_start + len);
                index = close + 1;
            }
            None => index += 1,
        }
    }
    spans
}

/// Every run of backticks as (start, length).
fn backtick_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'`' {
            let start = at;
            while at < bytes.len() && bytes[at] == b'`' {
                at += 1;
            }
            runs.push((start, at - start));
        } else {
            at += 1;
        }
    }
    runs
}

/// Whether byte `at` lies inside one of `spans` (sorted, as [`code_spans`] returns them).
pub fn in_spans(spans: &[Range<usize>], at: usize) -> bool {
    let index = spans.partition_point(|span| span.end <= at);
    spans.get(index).is_some_and(|span| span.start <= at)
}

/// The text inside a code span, without its backticks and the one space CommonMark strips on
/// each side when both are there.
pub fn code_span_text<'a>(text: &'a str, span: &Range<usize>) -> &'a str {
    let raw = &text[span.clone()];
    let ticks = raw.bytes().take_while(|&byte| byte == b'`').count();
    let inner = &raw[ticks..raw.len() - ticks];
    match inner
        .strip_prefix(' ')
        .and_then(|inner| inner.strip_suffix(' '))
    {
        Some(stripped) if !stripped.trim().is_empty() => stripped,
        _ => inner,
    }
}

/// The byte offsets just after each sentence end of `text`: a `.`, `!` or `?` (or a run of
/// them, with closing quotes and brackets) followed by white space or the end, outside code
/// spans, and not the dot of a common abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`) or a
/// number (`1.5`). The last offset is always `text.len()` for a non-empty text, so the pieces
/// between consecutive offsets cover the whole text.
pub fn sentence_ends(text: &str) -> Vec<usize> {
    let spans = code_spans(text);
    let bytes = text.as_bytes();
    let mut ends = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if matches!(byte, b'.' | b'!' | b'?') && !in_spans(&spans, at) {
            let mut end = at + 1;
            while end < bytes.len() && matches!(bytes[end], b'.' | b'!' | b'?') {
                end += 1;
            }
            while end < bytes.len()
                && matches!(bytes[end], b'"' | b'\'' | b')' | b']' | b'*' | b'_')
            {
                end += 1;
            }
            let at_break = end == bytes.len() || bytes[end].is_ascii_whitespace();
            if at_break && !(byte == b'.' && end == at + 1 && is_abbreviation(&text[..at])) {
                ends.push(end);
            }
            at = end;
        } else {
            at += 1;
        }
    }
    if !text.is_empty() && ends.last() != Some(&text.len()) {
        ends.push(text.len());
    }
    ends
}

/// Abbreviations whose dot ends no sentence, lower-case, without their final dot.
const ABBREVIATIONS: &[&str] = &["e.g", "eg", "etc", "i.e", "ie", "vs"];

fn is_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|ch: char| ch.is_whitespace() || ch == '(')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    ABBREVIATIONS.contains(&word.as_str())
}

/// `text` without emphasis markers outside code spans: `**`, `__`, `~~` and a single `*` or
/// `_` that opens or closes emphasis (next to a word on one side and not the other), so
/// `**NEVER** run _yarn_` reads `NEVER run yarn`. Markers inside words (`snake_case`,
/// `a*b`), list bullets and code spans are kept. Borrowed when there is nothing to remove.
pub fn strip_emphasis(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|byte| matches!(byte, b'*' | b'_' | b'~')) {
        return Cow::Borrowed(text);
    }
    let spans = code_spans(text);
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut changed = false;
    while at < bytes.len() {
        let byte = bytes[at];
        if matches!(byte, b'*' | b'_' | b'~') && !in_spans(&spans, at) {
            let mut end = at;
            while end < bytes.len() && bytes[end] == byte {
                end += 1;
            }
            let run = end - at;
            // CommonMark's flanking rule, simplified: a run opens emphasis when a non-space
            // follows it, closes when a non-space precedes it. A run that does one of the two
            // is a marker; one that does both sits inside a word (`snake_case`, `a*b`) and one
            // that does neither stands alone (`a ** b`, a list bullet): both are text.
            let opens = text[end..]
                .chars()
                .next()
                .is_some_and(|ch| !ch.is_whitespace());
            let closes = text[..at]
                .chars()
                .next_back()
                .is_some_and(|ch| !ch.is_whitespace());
            let marker = match byte {
                b'~' => run == 2,
                _ => run <= 3,
            };
            if marker && opens != closes {
                changed = true;
                at = end;
                continue;
            }
            out.push_str(&text[at..end]);
            at = end;
            continue;
        }
        let ch = text[at..].chars().next().expect("at is a char boundary");
        out.push(ch);
        at += ch.len_utf8();
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// What one line of markdown is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Nothing but white space.
    Blank,
    /// `#` to `######` and a space: a heading of that level.
    Heading(u8),
    /// `-`, `*`, `+` or `•` and a space, or `1.` / `1)` and a space: a list item, at its
    /// indentation (in columns).
    Bullet(usize),
    /// A line of a table: starts with `|`. A separator line (`|---|:--|`) is [`LineKind::Rule`].
    TableRow,
    /// A thematic break (`---`, `***`) or a table's separator line.
    Rule,
    /// A fence (` ``` ` or `~~~`), opening or closing a code block.
    Fence,
    /// A `>` quotation.
    Quote,
    /// Any other line: prose.
    Text,
}

/// A line of markdown and where its content starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// What the line is.
    pub kind: LineKind,
    /// The line's content after its marker (`#`, the bullet, `>`), trimmed; for a table row the
    /// whole row; empty for a blank line, a rule or a fence.
    pub content: &'a str,
}

/// Reads one line (without its line break).
pub fn line(text: &str) -> Line<'_> {
    let trimmed = text.trim();
    let indent = text.len() - text.trim_start().len();
    let make = |kind, content: &'static str| Line { kind, content };
    if trimmed.is_empty() {
        return make(LineKind::Blank, "");
    }
    if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
        return make(LineKind::Fence, "");
    }
    if let Some(rest) = trimmed.strip_prefix('>') {
        return Line {
            kind: LineKind::Quote,
            content: rest.trim(),
        };
    }
    let hashes = trimmed.bytes().take_while(|&byte| byte == b'#').count();
    if (1..=6).contains(&hashes) {
        let rest = &trimmed[hashes..];
        if rest.is_empty() || rest.starts_with(' ') {
            return Line {
                kind: LineKind::Heading(u8::try_from(hashes).expect("at most six")),
                content: rest.trim().trim_end_matches('#').trim_end(),
            };
        }
    }
    if trimmed.starts_with('|') {
        let separator = trimmed
            .chars()
            .all(|ch| matches!(ch, '|' | '-' | ':' | ' '));
        if separator {
            return make(LineKind::Rule, "");
        }
        return Line {
            kind: LineKind::TableRow,
            content: trimmed,
        };
    }
    if is_thematic_break(trimmed) {
        return make(LineKind::Rule, "");
    }
    for bullet in ["- ", "* ", "+ ", "• "] {
        if let Some(rest) = trimmed.strip_prefix(bullet) {
            return Line {
                kind: LineKind::Bullet(indent),
                content: strip_task_box(rest.trim()),
            };
        }
    }
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if (1..=3).contains(&digits) {
        let rest = &trimmed[digits..];
        if let Some(rest) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Line {
                kind: LineKind::Bullet(indent),
                content: strip_task_box(rest.trim()),
            };
        }
    }
    Line {
        kind: LineKind::Text,
        content: trimmed,
    }
}

/// `---`, `***` or `___`, three or more, spaces allowed between.
fn is_thematic_break(trimmed: &str) -> bool {
    let marks: Vec<char> = trimmed.chars().filter(|ch| !ch.is_whitespace()).collect();
    marks.len() >= 3
        && matches!(marks[0], '-' | '*' | '_')
        && marks.iter().all(|&mark| mark == marks[0])
}

/// A list item's text without its task box (`[ ]`, `[x]`).
fn strip_task_box(text: &str) -> &str {
    ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|marker| text.strip_prefix(marker))
        .unwrap_or(text)
}

/// The cells of a table row, trimmed, without the outer pipes. Pipes inside code spans do not
/// separate cells.
pub fn table_cells(row: &str) -> Vec<&str> {
    let row = row.trim();
    let inner = row.strip_prefix('|').unwrap_or(row);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let spans = code_spans(inner);
    let mut cells = Vec::new();
    let mut start = 0;
    for (at, byte) in inner.bytes().enumerate() {
        if byte == b'|' && !in_spans(&spans, at) && !inner[..at].ends_with('\\') {
            cells.push(inner[start..at].trim());
            start = at + 1;
        }
    }
    cells.push(inner[start..].trim());
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans_text(text: &str) -> Vec<&str> {
        code_spans(text)
            .iter()
            .map(|span| code_span_text(text, span))
            .collect()
    }

    #[test]
    fn code_spans_pair_runs_of_the_same_length() {
        assert_eq!(
            spans_text("never run `rm -rf .` or `git clean -fdx`"),
            ["rm -rf .", "git clean -fdx"]
        );
        assert_eq!(spans_text("use `` a ` b `` here"), ["a ` b"]);
        assert_eq!(spans_text("unbalanced `rm -rf /"), Vec::<&str>::new());
        assert_eq!(spans_text("``` only a fence"), Vec::<&str>::new());
        let text = "a `b` c";
        let spans = code_spans(text);
        assert!(!in_spans(&spans, 1) && in_spans(&spans, 2) && in_spans(&spans, 4));
        assert!(!in_spans(&spans, 5));
    }

    fn sentences(text: &str) -> Vec<&str> {
        let mut start = 0;
        sentence_ends(text)
            .into_iter()
            .map(|end| {
                let piece = text[start..end].trim();
                start = end;
                piece
            })
            .collect()
    }

    #[test]
    fn sentences_end_outside_code_spans_and_abbreviations() {
        assert_eq!(
            sentences("Never run `rm -rf .` or `git clean -fdx`. Ask me first!"),
            ["Never run `rm -rf .` or `git clean -fdx`.", "Ask me first!"]
        );
        assert_eq!(
            sentences("Use a tool, e.g. ripgrep. Version 1.5 is fine"),
            ["Use a tool, e.g. ripgrep.", "Version 1.5 is fine"]
        );
        assert_eq!(
            sentences("**Never push to main.** Really?!"),
            ["**Never push to main.**", "Really?!"]
        );
        assert_eq!(sentences(""), Vec::<&str>::new());
    }

    #[test]
    fn emphasis_markers_go_and_words_stay() {
        for (text, plain) in [
            ("**NEVER run yarn**", "NEVER run yarn"),
            (
                "**NEVER** force-push to `release`",
                "NEVER force-push to `release`",
            ),
            (
                "never _ever_ touch ~~prod~~ staging",
                "never ever touch prod staging",
            ),
            (
                "keep snake_case and a*b and `**x**`",
                "keep snake_case and a*b and `**x**`",
            ),
            ("* a bullet with *emphasis*", "* a bullet with emphasis"),
            ("***bold italic***", "bold italic"),
            ("a lone ** pair", "a lone ** pair"),
            ("unbalanced **bold", "unbalanced bold"),
        ] {
            assert_eq!(strip_emphasis(text), plain, "{text}");
        }
        assert!(matches!(strip_emphasis("plain"), Cow::Borrowed(_)));
    }

    /// Counts the work by construction: thousands of backtick runs that never close, before
    /// thousands that do, still give the right spans (a quadratic search would also, slowly;
    /// this pins the result, the backward pass pins the cost).
    #[test]
    fn many_unclosed_runs_of_different_lengths() {
        let mut text = String::new();
        for len in (2..300).rev() {
            text.push_str(&"`".repeat(len));
            text.push('x');
        }
        for _ in 0..5000 {
            text.push_str("`a` ");
        }
        assert_eq!(code_spans(&text).len(), 5000);
        assert_eq!(sentence_ends(&text), [text.len()]);
    }

    #[test]
    fn lines_are_read_by_their_markers() {
        let check = |text: &str, kind: LineKind, content: &str| {
            assert_eq!(line(text), Line { kind, content }, "{text:?}");
        };
        check("## Git rules", LineKind::Heading(2), "Git rules");
        check("#hashtag", LineKind::Text, "#hashtag");
        check("- Never push", LineKind::Bullet(0), "Never push");
        check("  * [x] done", LineKind::Bullet(2), "done");
        check("12. twelfth", LineKind::Bullet(0), "twelfth");
        check("> quoted", LineKind::Quote, "quoted");
        check("```bash", LineKind::Fence, "");
        check("| `a|b` | c |", LineKind::TableRow, "| `a|b` | c |");
        check("|---|:--|", LineKind::Rule, "");
        check("---", LineKind::Rule, "");
        check("   ", LineKind::Blank, "");
        check("Forbidden:", LineKind::Text, "Forbidden:");
        assert_eq!(table_cells("| `a|b` | never c |"), ["`a|b`", "never c"]);
    }
}
