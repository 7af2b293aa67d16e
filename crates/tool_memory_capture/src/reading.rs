//! The message read once, line by line. A line's reading is its match form
//! ([`crate::text::match_form`]: lower-case, quotes unified, emphasis stars dropped, white
//! space collapsed), the tokens of that form with their word lists ([`crate::tokens`]), and
//! where each byte of the line landed in the form. Every pass reads a line through it: the
//! material pass tests a line's word lists for an introduction's trigger words and reads an
//! introduction's clauses as slices of it; the grammar pass reads each sentence as a slice of
//! it, tokens and all, instead of putting each sentence in its form and tokenizing it again.
//! A line with code spans is read a second time in its grammar form
//! ([`crate::text::grammar_form`], each code span the one word `codespan`), which the edict
//! grammar and the standing statements read.
//!
//! All the lines' forms, byte maps and tokens sit in a few buffers for the whole message, so
//! reading a message of any length allocates a handful of times.
//!
//! A slice of a reading is exactly the reading of that part of the line, because a part is
//! only ever cut where no token can cross: at white space (sentences, bullets), at a colon or
//! after a `>`. The grammar form of a sentence is a slice of the line's only when no code span
//! of the line crosses the sentence's ends, which [`Reader::grammar_part`] checks (a colon
//! inside backticks may cut a span); otherwise the sentence is read on its own.

use std::ops::Range;

use crate::lexicon::{self, Sets};
use crate::text::{CODE_WORD, code_spans};
use crate::tokens::{Token, scan};

/// A token of a reading, by its byte range in its line's form.
#[derive(Debug, Clone, Copy)]
struct RawToken {
    start: u32,
    end: u32,
    word: bool,
    sets: Sets,
}

/// Where one line's reading sits in the buffers of [`Readings`].
#[derive(Debug, Clone)]
struct LineEntry {
    /// The line's form in `Readings::forms`.
    form: Range<usize>,
    /// The line's byte map in `Readings::at`: one entry per byte of the line and one more.
    at: usize,
    /// The line's tokens in `Readings::tokens`.
    tokens: Range<usize>,
    /// Every list of every word of the line.
    sets: Sets,
}

/// The readings of many lines in one form, in shared buffers.
#[derive(Debug, Default)]
struct Readings {
    forms: String,
    /// For each byte of each line, and its end, how much of the line's form was written before
    /// that byte was read. A sentence's slice of the form runs from its start's entry to its
    /// end's, less the one space the form may hold before its first word.
    at: Vec<u32>,
    tokens: Vec<RawToken>,
}

impl Readings {
    /// Reads `line` in its match form, with each of `code` (code spans of the line, sorted) as
    /// the placeholder word [`CODE_WORD`]: with no spans, the match form; with the line's code
    /// spans, its grammar form.
    fn read(&mut self, line: &str, code: &[Range<usize>]) -> LineEntry {
        let bytes = line.as_bytes();
        let form_start = self.forms.len();
        let at_start = self.at.len();
        self.at.resize(at_start + line.len() + 1, 0);
        let at = &mut self.at[at_start..];
        let mut form = Form {
            text: &mut self.forms,
            start: form_start,
            pending_space: false,
        };
        let mut next_span = 0;
        let mut index = 0;
        while index < bytes.len() {
            let byte = bytes[index];
            let span_here = code.get(next_span).is_some_and(|span| span.start == index);
            if byte.is_ascii() && !span_here {
                // Nearly every byte: written without decoding a char.
                at[index] = form.len();
                form.push_ascii(byte);
                index += 1;
                continue;
            }
            if span_here {
                let span = code[next_span].clone();
                next_span += 1;
                at[span.clone()].fill(form.len());
                // The form `match_form` gives the line with the span replaced by " codespan ".
                form.push_ascii(b' ');
                CODE_WORD.bytes().for_each(|byte| form.push_ascii(byte));
                form.push_ascii(b' ');
                index = span.end;
                continue;
            }
            let ch = line[index..].chars().next().unwrap_or(' ');
            at[index..index + ch.len_utf8()].fill(form.len());
            form.push_char(ch);
            index += ch.len_utf8();
        }
        at[line.len()] = form.len();
        let tokens_start = self.tokens.len();
        let text = &self.forms[form_start..];
        let tokens = &mut self.tokens;
        let mut sets = Sets::NONE;
        scan(text, |start, end, word| {
            let token_sets = if word {
                lexicon::sets_of(&text[start..end])
            } else {
                Sets::NONE
            };
            sets |= token_sets;
            tokens.push(RawToken {
                start: to_u32(start),
                end: to_u32(end),
                word,
                sets: token_sets,
            });
        });
        LineEntry {
            form: form_start..self.forms.len(),
            at: at_start,
            tokens: tokens_start..self.tokens.len(),
            sets,
        }
    }

    /// The form of the part `part` (byte range) of the line `entry` reads, and its tokens
    /// (offsets into that form) in `tokens`, which is cleared first.
    fn slice<'f>(
        &'f self,
        entry: &LineEntry,
        part: Range<usize>,
        tokens: &mut Vec<Token<'f>>,
    ) -> &'f str {
        let line_form = &self.forms[entry.form.clone()];
        let start = self.at[entry.at + part.start] as usize;
        let end = self.at[entry.at + part.end] as usize;
        // A form holds no space at either end; the line's form may hold the one before the
        // part's first word.
        let form = line_form[start.min(end)..end].trim_start_matches(' ');
        let start = end - form.len();
        let form = form.trim_end_matches(' ');
        let end = start + form.len();
        tokens.clear();
        let line_tokens = &self.tokens[entry.tokens.clone()];
        let first = line_tokens.partition_point(|token| (token.start as usize) < start);
        for token in &line_tokens[first..] {
            let (token_start, token_end) = (token.start as usize, token.end as usize);
            if token_end > end {
                break;
            }
            tokens.push(Token {
                text: &line_form[token_start..token_end],
                start: token_start - start,
                end: token_end - start,
                word: token.word,
                sets: token.sets,
            });
        }
        form
    }
}

/// Offsets fit in 32 bits: a line longer than 4 GiB is not a message anyone sends, and the
/// facade caps a turn far below that; past it the offsets would wrap, never panic.
fn to_u32(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

/// A line's match form being written at the end of the shared buffer:
/// [`match_form`](crate::text::match_form)'s rules, char by char.
struct Form<'b> {
    text: &'b mut String,
    /// Where the line's form starts in `text`.
    start: usize,
    pending_space: bool,
}

impl Form<'_> {
    fn len(&self) -> u32 {
        to_u32(self.text.len() - self.start)
    }

    /// Writes an ASCII char.
    #[inline]
    fn push_ascii(&mut self, byte: u8) {
        let byte = match byte {
            b'`' => b'\'',
            b'*' => return,
            // The ASCII part of `char::is_whitespace`: tab, line feed, vertical tab, form
            // feed, carriage return and space.
            b'\t'..=b'\r' | b' ' => {
                self.pending_space = self.text.len() > self.start;
                return;
            }
            other => other.to_ascii_lowercase(),
        };
        if self.pending_space {
            self.text.push(' ');
            self.pending_space = false;
        }
        self.text.push(char::from(byte));
    }

    /// Writes any other char.
    fn push_char(&mut self, ch: char) {
        let ch = match ch {
            '\u{2019}' | '\u{2018}' | '\u{02bc}' | '\u{00b4}' | '\u{2032}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{00ab}' | '\u{00bb}' => '"',
            other => other,
        };
        if let Ok(byte) = u8::try_from(ch)
            && byte.is_ascii()
        {
            return self.push_ascii(byte);
        }
        if ch.is_whitespace() {
            self.pending_space = self.text.len() > self.start;
            return;
        }
        if self.pending_space {
            self.text.push(' ');
            self.pending_space = false;
        }
        self.text.extend(ch.to_lowercase());
    }
}

/// The lines of a message, each read in its match form and, when it holds a code span, in its
/// grammar form.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    lines: Vec<&'a str>,
    plain: Readings,
    plain_lines: Vec<LineEntry>,
    coded: Readings,
    /// For each line, its code spans in `code` and its entry in `coded` (none without a code
    /// span).
    coded_lines: Vec<(Range<usize>, Option<LineEntry>)>,
    code: Vec<Range<usize>>,
}

/// A line's reading in its match form.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlainLine<'r> {
    readings: &'r Readings,
    entry: &'r LineEntry,
    line: &'r str,
}

impl<'r> PlainLine<'r> {
    /// The whole line's form.
    pub(crate) fn form(&self) -> &'r str {
        &self.readings.forms[self.entry.form.clone()]
    }

    /// Every list of every word of the line.
    pub(crate) fn sets(&self) -> Sets {
        self.entry.sets
    }

    /// The form of `part`, a slice of the line, with its tokens in `tokens`.
    pub(crate) fn slice(&self, part: &str, tokens: &mut Vec<Token<'r>>) -> &'r str {
        self.readings
            .slice(self.entry, range_in(self.line, part), tokens)
    }
}

impl<'a> Reader<'a> {
    /// Reads every line of `message`.
    pub(crate) fn new(message: &'a str) -> Reader<'a> {
        let lines: Vec<&'a str> = message.lines().collect();
        let mut plain = Readings {
            forms: String::with_capacity(message.len()),
            at: Vec::with_capacity(message.len() + lines.len()),
            tokens: Vec::with_capacity(message.len() / 3 + 1),
        };
        let mut coded = Readings::default();
        let mut code = Vec::new();
        let mut plain_lines = Vec::with_capacity(lines.len());
        let mut coded_lines = Vec::with_capacity(lines.len());
        for line in &lines {
            plain_lines.push(plain.read(line, &[]));
            let spans = if line.contains('`') {
                code_spans(line)
            } else {
                Vec::new()
            };
            let first = code.len();
            let entry = (!spans.is_empty()).then(|| coded.read(line, &spans));
            code.extend(spans);
            coded_lines.push((first..code.len(), entry));
        }
        Reader {
            lines,
            plain,
            plain_lines,
            coded,
            coded_lines,
            code,
        }
    }

    /// The lines of the message, as [`str::lines`] cuts them.
    pub(crate) fn lines(&self) -> &[&'a str] {
        &self.lines
    }

    /// Line `index` in its match form.
    pub(crate) fn plain(&self, index: usize) -> PlainLine<'_> {
        PlainLine {
            readings: &self.plain,
            entry: &self.plain_lines[index],
            line: self.lines[index],
        }
    }

    /// The match form of `part` (a slice of line `index`) with its tokens in `tokens`.
    pub(crate) fn plain_part<'f>(
        &'f self,
        index: usize,
        part: &str,
        tokens: &mut Vec<Token<'f>>,
    ) -> &'f str {
        self.plain(index).slice(part, tokens)
    }

    /// The grammar form of `sentence` (a slice of line `index`), with its tokens in `tokens`
    /// when it is a slice of the line's grammar form.
    pub(crate) fn grammar_part<'f>(
        &'f self,
        index: usize,
        sentence: &str,
        tokens: &mut Vec<Token<'f>>,
    ) -> GrammarPart<'f> {
        let (spans, entry) = &self.coded_lines[index];
        let Some(entry) = entry else {
            return GrammarPart::Plain;
        };
        let spans = &self.code[spans.clone()];
        let part = range_in(self.lines[index], sentence);
        let crosses = |at: usize| spans.iter().any(|span| span.start < at && at < span.end);
        if crosses(part.start) || crosses(part.end) {
            return GrammarPart::OnItsOwn;
        }
        if !spans
            .iter()
            .any(|span| part.start <= span.start && span.end <= part.end)
        {
            return GrammarPart::Plain;
        }
        GrammarPart::Coded(self.coded.slice(entry, part, tokens))
    }
}

/// The byte range of `part`, a slice of `line`, in `line`.
fn range_in(line: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    assert!(
        start <= line.len() && part.len() <= line.len() - start,
        "a part of a line is a slice of it"
    );
    start..start + part.len()
}

/// Where the grammar form of a sentence comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GrammarPart<'f> {
    /// The sentence holds no code span: its grammar form is its match form.
    Plain,
    /// The slice of the line's grammar form.
    Coded(&'f str),
    /// A code span of the line crosses the sentence's ends: read the sentence on its own.
    OnItsOwn,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{grammar_form, match_form, split_sentences, strip_bullet};
    use crate::tokens::tokenize;

    /// A slice of a line's reading is the reading of that slice alone: the same form and the
    /// same tokens, for every sentence of every line of the corpora, in both forms.
    #[test]
    fn a_slice_of_a_line_reads_as_the_sentence_alone() {
        let mut messages = crate::test_messages::corpus_messages();
        messages.extend(
            [
                "  **NEVER** run `rm -rf .`.  Don’t   push.  * x",
                "- `a. b` never `c`; `unclosed. Don't\n\n\t",
                "İstanbul’s ÉCOLE: never `x`!  ´quoted´ and ***bold***",
                "*** - 1. [x] never   push\r\nsecond line. `third` one",
            ]
            .map(str::to_owned),
        );
        let mut sliced = 0;
        for message in &messages {
            let reader = Reader::new(message);
            for (index, line) in reader.lines().iter().enumerate() {
                assert_eq!(reader.plain(index).form(), match_form(line), "{line:?}");
                for sentence in split_sentences(strip_bullet(line)) {
                    let mut tokens = Vec::new();
                    let plain = reader.plain_part(index, sentence, &mut tokens);
                    let alone = match_form(sentence);
                    assert_eq!(plain, alone, "{sentence:?}");
                    assert_eq!(tokens, tokenize(&alone), "{sentence:?}");
                    let grammar = match reader.grammar_part(index, sentence, &mut tokens) {
                        GrammarPart::Plain => {
                            assert_eq!(plain, grammar_form(sentence), "{sentence:?}");
                            continue;
                        }
                        GrammarPart::OnItsOwn => continue,
                        GrammarPart::Coded(grammar) => grammar,
                    };
                    let alone = grammar_form(sentence);
                    assert_eq!(grammar, alone, "{sentence:?}");
                    assert_eq!(tokens, tokenize(&alone), "{sentence:?}");
                    sliced += 1;
                }
            }
        }
        assert!(sliced > 50, "{sliced}");
    }
}
