//! Quotations inside one of the user's sentences: the ranges that hold someone else's words,
//! and the sentence with each of them replaced by a placeholder, so the grammars can ask
//! whether the user's own words still make an order.

use std::ops::Range;

use crate::text::match_form;

/// Byte ranges of `line` inside quotation marks, marks included: `"…"`, `“…”`, `„…“`, `«…»`,
/// backticks, and single quotes that open after a space and close before one (so the
/// apostrophes of "don't" and "users'" are not quotes). A double quote left open runs to the
/// end of the line; a single one is an apostrophe after all.
pub(crate) fn quotations(line: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    if !line.contains(QUOTE_MARKS) {
        return ranges;
    }
    let mut open: Option<(usize, char)> = None;
    // Only the quotation marks are looked at, each with the characters around it: most lines
    // hold a few apostrophes at most.
    for (at, mark) in line.match_indices(QUOTE_MARKS) {
        let Some(ch) = mark.chars().next() else {
            continue;
        };
        let previous = line[..at].chars().next_back();
        let next = line[at + mark.len()..].chars().next();
        match open {
            None => {
                let opens = match ch {
                    '"' | '`' | '“' | '„' | '«' => true,
                    '\'' | '‘' | '’' => {
                        previous.is_none_or(|before| {
                            before.is_whitespace() || "([{\"“:".contains(before)
                        }) && next.is_some_and(|after| !after.is_whitespace())
                    }
                    _ => false,
                };
                if opens {
                    open = Some((at, ch));
                }
            }
            Some((start, opener)) => {
                let closes = match opener {
                    '"' => matches!(ch, '"' | '”'),
                    '`' => ch == '`',
                    '“' | '„' => matches!(ch, '”' | '“' | '"'),
                    '«' => ch == '»',
                    _ => {
                        matches!(ch, '\'' | '’')
                            && previous.is_some_and(|before| !before.is_whitespace())
                            && next.is_none_or(|after| !after.is_alphanumeric())
                    }
                };
                if closes {
                    ranges.push(start..at + mark.len());
                    open = None;
                }
            }
        }
    }
    if let Some((start, opener)) = open
        && !matches!(opener, '\'' | '‘' | '’')
    {
        ranges.push(start..line.len());
    }
    ranges
}

/// Every character that opens or closes a quotation.
const QUOTE_MARKS: [char; 10] = ['"', '\'', '`', '‘', '’', '“', '”', '„', '«', '»'];

/// The quotations of `quotes` (sorted, disjoint, as [`quotations`] gives them) that overlap
/// `part`, found by binary search: a line of many short sentences and many quotations costs one
/// look per sentence, not one per quotation.
pub(super) fn overlapping(quotes: &[Range<usize>], part: Range<usize>) -> &[Range<usize>] {
    let first = quotes.partition_point(|quote| quote.end <= part.start);
    let last = first + quotes[first..].partition_point(|quote| quote.start < part.end);
    &quotes[first..last]
}

/// The match form of `part` (a slice of `line`) with every quotation of `line` that overlaps
/// it replaced by `"quote"`, or `None` when none does. A sentence is the user's own only if
/// the grammar still reads an order in this form: "Don't use "ASAP" in emails" is, "The README
/// says "never commit secrets"" and `Bob's message: "hi, never deploy on Fridays"` are not.
pub(crate) fn unquoted_form(line: &str, quotes: &[Range<usize>], part: &str) -> Option<String> {
    let offset = (part.as_ptr() as usize).checked_sub(line.as_ptr() as usize)?;
    let end = offset + part.len();
    let mut text = String::with_capacity(part.len());
    let mut cursor = offset;
    for quote in overlapping(quotes, offset..end) {
        let from = quote.start.max(cursor);
        text.push_str(&line[cursor..from]);
        text.push_str(" \"quote\" ");
        cursor = quote.end.min(end);
    }
    if cursor == offset && text.is_empty() {
        return None;
    }
    text.push_str(&line[cursor..end]);
    Some(match_form(&text))
}
