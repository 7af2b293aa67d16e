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
use crate::text::{CODE_WORD, code_spans_into, is_word_char};
use crate::tokens::Token;

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

/// [`Readings`] being written: the forms as bytes (each line's form is valid UTF-8, written a
/// whole char at a time).
#[derive(Debug, Default)]
struct Writing {
    forms: Vec<u8>,
    at: Vec<u32>,
    tokens: Vec<RawToken>,
}

/// No word is being written, or no joiner is waiting.
const NONE: usize = usize::MAX;

/// What the reader does with an ASCII byte of a line, and what the byte it writes is to the
/// tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// `*`: emphasis, dropped.
    Skip,
    /// White space: one space before the next char written, if any.
    Space,
    /// A letter, a digit or `_`.
    Word,
    /// `'` or `-`: joins two runs of word chars ("don't", "force-push").
    Joiner,
    /// Any other mark: a token of its own.
    Mark,
}

/// For each ASCII byte, the byte the match form holds for it (lower-case; `'` for a backtick)
/// and its class.
const ASCII: [(u8, Class); 128] = {
    let mut table = [(0u8, Class::Mark); 128];
    let mut index = 0;
    while index < 128 {
        let byte = index as u8;
        table[index] = if byte == b'*' {
            (byte, Class::Skip)
        } else if matches!(byte, b'\t'..=b'\r' | b' ') {
            // The ASCII part of `char::is_whitespace`: tab, line feed, vertical tab, form
            // feed, carriage return and space.
            (byte, Class::Space)
        } else if byte.is_ascii_alphanumeric() || byte == b'_' {
            (byte.to_ascii_lowercase(), Class::Word)
        } else if byte == b'\'' || byte == b'-' || byte == b'`' {
            (if byte == b'`' { b'\'' } else { byte }, Class::Joiner)
        } else {
            (byte, Class::Mark)
        };
        index += 1;
    }
    table
};

/// A line's form being written at the end of the shared buffers, and tokenized as it is
/// written.
struct Pen<'w> {
    forms: &'w mut Vec<u8>,
    tokens: &'w mut Vec<RawToken>,
    /// Where the line's form starts in `forms`.
    base: usize,
    /// White space was read since the last char written: a space goes before the next one.
    pending_space: bool,
    /// Where the word being written started, in the line's form, or [`NONE`].
    word: usize,
    /// Where a `'` or `-` written right after a word stands, or [`NONE`]: it joins that word
    /// to the next one if a word char follows, else it is a mark of its own.
    joiner: usize,
    /// Every list of every word written.
    sets: Sets,
}

impl Writing {
    /// Reads `line` in its match form, with each of `code` (code spans of the line, sorted) as
    /// the placeholder word [`CODE_WORD`]: with no spans, the match form; with the line's code
    /// spans, its grammar form. The form is tokenized as it is written, with
    /// [`crate::tokens::tokenize`]'s rules: each char is looked at once.
    fn read(&mut self, line: &str, code: &[Range<usize>]) -> LineEntry {
        let bytes = line.as_bytes();
        let Writing { forms, at, tokens } = self;
        let base = forms.len();
        let at_start = at.len();
        let tokens_start = tokens.len();
        forms.reserve(bytes.len() + 10 * code.len() + 1);
        at.resize(at_start + bytes.len() + 1, 0);
        let at = &mut at[at_start..];
        let mut pen = Pen {
            forms,
            tokens,
            base,
            pending_space: false,
            word: NONE,
            joiner: NONE,
            sets: Sets::NONE,
        };
        let mut spans = code.iter();
        let mut next_span = spans.next();
        // Where the next code span opens; no span opens inside a run of word chars.
        let mut span_start = next_span.map_or(usize::MAX, |span| span.start);
        let mut index = 0;
        while index < bytes.len() {
            let byte = bytes[index];
            if byte < 0x80 && index != span_start {
                let (written, class) = ASCII[usize::from(byte)];
                if class == Class::Word {
                    // A run of ASCII word chars, the bulk of any line: one word, written in a
                    // tight loop.
                    at[index] = pen.len();
                    pen.write(written, class);
                    index += 1;
                    // Each byte of the run lands one further in the form.
                    let mut landed = pen.len();
                    while let Some(&next) = bytes.get(index) {
                        let (written, class) = ASCII[usize::from(next & 0x7f)];
                        if next >= 0x80 || class != Class::Word {
                            break;
                        }
                        at[index] = landed;
                        landed += 1;
                        pen.forms.push(written);
                        index += 1;
                    }
                    continue;
                }
                // Any other ASCII byte: written without decoding a char.
                at[index] = pen.len();
                index += 1;
                pen.write(written, class);
                continue;
            }
            if let Some(span) = next_span.filter(|span| span.start == index) {
                next_span = spans.next();
                span_start = next_span.map_or(usize::MAX, |span| span.start);
                at[span.clone()].fill(pen.len());
                // The form `match_form` gives the line with the span replaced by " codespan ".
                pen.write(b' ', Class::Space);
                for byte in CODE_WORD.bytes() {
                    let (written, class) = ASCII[usize::from(byte)];
                    pen.write(written, class);
                }
                pen.write(b' ', Class::Space);
                index = span.end;
                continue;
            }
            let ch = line[index..].chars().next().unwrap_or(' ');
            at[index..index + ch.len_utf8()].fill(pen.len());
            index += ch.len_utf8();
            pen.write_char(ch);
        }
        at[bytes.len()] = pen.len();
        let end = pen.forms.len() - base;
        pen.end_word(end);
        let sets = pen.sets;
        LineEntry {
            form: base..self.forms.len(),
            at: at_start,
            tokens: tokens_start..self.tokens.len(),
            sets,
        }
    }

    /// The readings written.
    fn finish(self) -> Readings {
        Readings {
            // Every line's form is written from its chars, whole: valid UTF-8.
            forms: String::from_utf8(self.forms).unwrap_or_default(),
            at: self.at,
            tokens: self.tokens,
        }
    }
}

impl Pen<'_> {
    /// How much of the line's form is written.
    #[inline(always)]
    fn len(&self) -> u32 {
        to_u32(self.forms.len() - self.base)
    }

    /// Writes an ASCII byte of class `class`, and tokenizes it.
    #[inline(always)]
    fn write(&mut self, byte: u8, class: Class) {
        match class {
            Class::Skip => return,
            Class::Space => {
                self.pending_space = self.forms.len() > self.base;
                return;
            }
            _ => {}
        }
        if self.pending_space {
            self.pending_space = false;
            let at = self.forms.len() - self.base;
            self.forms.push(b' ');
            self.end_word(at);
        }
        let at = self.forms.len() - self.base;
        self.forms.push(byte);
        match class {
            Class::Word if self.word == NONE => self.word = at,
            Class::Word => self.joiner = NONE,
            Class::Joiner if self.word != NONE && self.joiner == NONE => self.joiner = at,
            _ => {
                self.end_word(at);
                self.mark(at, at + 1);
            }
        }
    }

    /// Writes any other char: [`crate::text::match_form`]'s rules for a char beyond ASCII.
    fn write_char(&mut self, ch: char) {
        let ch = match ch {
            '\u{2019}' | '\u{2018}' | '\u{02bc}' | '\u{00b4}' | '\u{2032}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{00ab}' | '\u{00bb}' => '"',
            other => other,
        };
        if let Ok(byte) = u8::try_from(ch)
            && byte < 0x80
        {
            let (written, class) = ASCII[usize::from(byte)];
            return self.write(written, class);
        }
        if ch.is_whitespace() {
            self.pending_space = self.forms.len() > self.base;
            return;
        }
        if self.pending_space {
            self.pending_space = false;
            let at = self.forms.len() - self.base;
            self.forms.push(b' ');
            self.end_word(at);
        }
        for lower in ch.to_lowercase() {
            let at = self.forms.len() - self.base;
            let mut buffer = [0u8; 4];
            self.forms
                .extend_from_slice(lower.encode_utf8(&mut buffer).as_bytes());
            let class = match u8::try_from(lower) {
                Ok(byte) if byte < 0x80 => ASCII[usize::from(byte)].1,
                _ if is_word_char(lower) => Class::Word,
                _ => Class::Mark,
            };
            match class {
                Class::Word if self.word == NONE => self.word = at,
                Class::Word => self.joiner = NONE,
                Class::Joiner if self.word != NONE && self.joiner == NONE => self.joiner = at,
                _ => {
                    self.end_word(at);
                    self.mark(at, at + lower.len_utf8());
                }
            }
        }
    }

    /// Ends the word being written, if any, at `end` (in the line's form), or before a joiner
    /// that no word char followed, which is then a mark of its own.
    fn end_word(&mut self, end: usize) {
        if self.word == NONE {
            return;
        }
        let start = std::mem::replace(&mut self.word, NONE);
        let joiner = std::mem::replace(&mut self.joiner, NONE);
        let end = if joiner == NONE { end } else { joiner };
        let word = &self.forms[self.base + start..self.base + end];
        let sets = lexicon::sets_of_bytes(word);
        self.sets |= sets;
        self.tokens.push(RawToken {
            start: to_u32(start),
            end: to_u32(end),
            word: true,
            sets,
        });
        if joiner != NONE {
            self.mark(joiner, joiner + 1);
        }
    }

    fn mark(&mut self, start: usize, end: usize) {
        self.tokens.push(RawToken {
            start: to_u32(start),
            end: to_u32(end),
            word: false,
            sets: Sets::NONE,
        });
    }
}

impl Readings {
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
        // A token takes a byte at least, so the part's tokens lie within as many tokens as it
        // has bytes: the search stays among them, not among the million of a long line (whose
        // far ends would miss the cache).
        let window = &line_tokens[first..line_tokens.len().min(first + (end - start) + 1)];
        let last = first + window.partition_point(|token| (token.end as usize) <= end);
        // The part's tokens are written at once: a fresh buffer grows once, not by doubling.
        tokens.extend(line_tokens[first..last].iter().map(|token| {
            let (token_start, token_end) = (token.start as usize, token.end as usize);
            Token {
                text: &line_form[token_start..token_end],
                start: token_start - start,
                end: token_end - start,
                word: token.word,
                sets: token.sets,
            }
        }));
        form
    }
}

/// Offsets fit in 32 bits: a line longer than 4 GiB is not a message anyone sends, and the
/// facade caps a turn far below that; past it the offsets would wrap, never panic.
fn to_u32(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
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
        // One buffer of each kind for the whole message, each sized once: the line count is
        // one count of line feeds, and a form is about as long as its line.
        let mut lines: Vec<&'a str> =
            Vec::with_capacity(message.bytes().filter(|&byte| byte == b'\n').count() + 1);
        lines.extend(message.lines());
        let mut plain = Writing {
            forms: Vec::with_capacity(message.len()),
            at: Vec::with_capacity(message.len() + lines.len()),
            tokens: Vec::with_capacity(message.len() / 3 + 1),
        };
        let mut coded = Writing::default();
        let mut code = Vec::new();
        let mut plain_lines = Vec::with_capacity(lines.len());
        let mut coded_lines = Vec::with_capacity(lines.len());
        for (index, line) in lines.iter().enumerate() {
            plain_lines.push(plain.read(line, &[]));
            let first = code.len();
            if line.contains('`') {
                code_spans_into(line, &mut code);
            }
            let entry = (code.len() > first).then(|| {
                if coded.forms.capacity() == 0 {
                    // The first line with a code span: room for it and every line after it.
                    let rest = message.len() - range_in(message, line).start;
                    coded.forms.reserve(rest + rest / 2);
                    coded.at.reserve(rest + lines.len() - index);
                    coded.tokens.reserve(rest / 3 + 1);
                }
                coded.read(line, &code[first..])
            });
            coded_lines.push((first..code.len(), entry));
        }
        Reader {
            lines,
            plain: plain.finish(),
            plain_lines,
            coded: coded.finish(),
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

    /// The code spans of `part` (a slice of line `index`) as the line's spans, and by how
    /// much `part`'s offsets are shifted in the line, when no span of the line crosses the
    /// part's ends (then the part's own spans are the line's within it); `None` otherwise.
    pub(crate) fn code_within(&self, index: usize, part: &str) -> Option<(&[Range<usize>], usize)> {
        let (spans, _) = &self.coded_lines[index];
        let spans = &self.code[spans.clone()];
        let part = range_in(self.lines[index], part);
        let crosses = |at: usize| {
            let next = spans.partition_point(|span| span.end <= at);
            spans.get(next).is_some_and(|span| span.start < at)
        };
        (!crosses(part.start) && !crosses(part.end)).then_some((spans, part.start))
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
        // Sorted and disjoint: each question is a binary search, so a line of many sentences
        // and many spans costs a look per sentence, not one per span.
        let spans = &self.code[spans.clone()];
        let part = range_in(self.lines[index], sentence);
        let crosses = |at: usize| {
            let next = spans.partition_point(|span| span.end <= at);
            spans.get(next).is_some_and(|span| span.start < at)
        };
        if crosses(part.start) || crosses(part.end) {
            return GrammarPart::OnItsOwn;
        }
        // The first span that ends after the part starts lies inside it, if any does.
        let first = spans.partition_point(|span| span.end <= part.start);
        if !spans
            .get(first)
            .is_some_and(|span| part.start <= span.start && span.end <= part.end)
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
    use proptest::prelude::*;

    use super::*;
    use crate::text::{grammar_form, match_form, split_sentences, strip_bullet};
    use crate::tokens::tokenize;

    /// A whole line's readings are its match form and grammar form, tokenized.
    fn check_line(line: &str) {
        let reader = Reader::new(line);
        let Some(&line) = reader.lines().first() else {
            return;
        };
        let mut tokens = Vec::new();
        let form = reader.plain_part(0, line, &mut tokens);
        let alone = match_form(line);
        assert_eq!(form, alone, "{line:?}");
        assert_eq!(tokens, tokenize(&alone), "{line:?}");
        let plain = reader.plain(0);
        assert_eq!(plain.form(), alone, "{line:?}");
        let sets = tokenize(&alone)
            .iter()
            .fold(Sets::NONE, |sets, token| sets | token.sets);
        assert_eq!(plain.sets(), sets, "{line:?}");
        if let GrammarPart::Coded(grammar) = reader.grammar_part(0, line, &mut tokens) {
            let alone = grammar_form(line);
            assert_eq!(grammar, alone, "{line:?}");
            assert_eq!(tokens, tokenize(&alone), "{line:?}");
        }
    }

    proptest! {
        /// Any line, of the marks, joiners, quotes, spaces and letters the forms treat apart,
        /// reads as the forms and the tokenizer read it.
        #[test]
        fn any_line_reads_as_its_forms_tokenized(
            line in "[a-zA-Z0-9_'\\- *`.,:;!?()\t\u{a0}\u{2003}’‘ʼ´′“”„«»ÉéİßΣς日本-]{0,40}"
        ) {
            check_line(&line);
        }
    }

    #[test]
    fn every_corpus_line_reads_as_its_forms_tokenized() {
        for message in crate::test_messages::corpus_messages() {
            for line in message.lines() {
                check_line(line);
            }
        }
        for line in [
            "a'-b",
            "a'' b",
            "don't-x'",
            "'x' -y- _z_",
            "İi̇",
            "x**'**y",
            "`a`'s",
        ] {
            check_line(line);
        }
    }

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
