//! The one pass of the grammars over a message, once the material pass has cut it into spans
//! ([`crate::material::spans`]): each span is split into sentences once, and each sentence is
//! read as a slice of its line's reading ([`crate::reading`]), in its match form and, when it
//! holds a code span, in its grammar form ([`crate::text::grammar_form`], each code span one
//! word). The edict grammar and the standing statements read the grammar form's tokens; the
//! revocation grammar reads the match form's (a command such as `` `git push` `` is a topic
//! there). The revocation found in a sentence is both the revocation the user stated (in their
//! own words) and what the edict grammar reads blanked out; without a code span the two forms
//! are one, and it is found once.

use std::ops::Range;

use crate::edict::{Edict, EdictReader, ReadSentence};
use crate::material::{Span, Voice};
use crate::reading::{GrammarPart, Reader};
use crate::revocation::{self, Revocation};
use crate::text::{grammar_form_coded, split_sentences_coded, split_sentences_into, strip_bullet};
use crate::tokens::tokenize;

/// What the grammars found in a message.
#[derive(Debug, Default)]
pub(crate) struct Found<'a> {
    /// The edicts, in message order, duplicates kept (identity keys merge them).
    pub(crate) edicts: Vec<Edict<'a>>,
    /// The revocations in the user's own words, in message order, at most one per sentence.
    pub(crate) revocations: Vec<Revocation<'a>>,
}

/// Tokens of a sentence the buffers hold room for from the start: a long sentence of an
/// instruction file has about this many.
const TOKENS_ROOM: usize = 64;

/// Reads the edicts (when `edicts`) and the revocations (when `revocations`) of the message
/// `reader` reads, cut into `spans`, in one pass.
pub(crate) fn read<'a>(
    reader: &Reader<'a>,
    spans: &[Span<'a>],
    edicts: bool,
    revocations: bool,
) -> Found<'a> {
    let mut edict_reader = EdictReader::default();
    let mut found = Found::default();
    // The tokens of the sentence being read, in its match form and in its grammar form: one
    // buffer each for the whole message.
    let mut plain_tokens = Vec::with_capacity(TOKENS_ROOM);
    let mut grammar_tokens = Vec::with_capacity(TOKENS_ROOM);
    let mut sentences = Vec::new();
    for span in spans {
        // The reader keeps its state (a list's lead-in, the sentence before) across every span
        // it is shown, even one whose sentences it does not read.
        let read_edicts = edicts && edict_reader.start_span(span, reader);
        let read_revocations = revocations && span.voice == Voice::Own && span.revokes;
        if !read_edicts && !read_revocations {
            continue;
        }
        // The span's quotations, found on its first revocation only: most spans hold none.
        let mut quotes: Option<Vec<Range<usize>>> = None;
        let part = strip_bullet(span.text);
        let edicts_before = edict_reader.edict_count();
        match reader.code_within(span.line, part) {
            Some((code, shift)) => split_sentences_coded(part, code, shift, &mut sentences),
            None => split_sentences_into(part, &mut sentences),
        }
        for &sentence in &sentences {
            let plain = reader.plain_part(span.line, sentence, &mut plain_tokens);
            let alone;
            let alone_tokens;
            let (grammar, tokens, coded) =
                match reader.grammar_part(span.line, sentence, &mut grammar_tokens) {
                    GrammarPart::Plain => (plain, plain_tokens.as_slice(), false),
                    GrammarPart::Coded(grammar) => (grammar, grammar_tokens.as_slice(), true),
                    GrammarPart::OnItsOwn => {
                        let (form, coded) = grammar_form_coded(sentence);
                        alone = form;
                        alone_tokens = tokenize(&alone);
                        (alone.as_str(), alone_tokens.as_slice(), coded)
                    }
                };
            let in_grammar = revocation::find_tokens(grammar, tokens);
            if read_edicts {
                let read = ReadSentence {
                    plain,
                    grammar,
                    tokens,
                    revocation: in_grammar.as_ref(),
                };
                edict_reader.sentence(span, sentence, read, reader);
            }
            if !read_revocations {
                continue;
            }
            // Without a code span the grammar form is the match form, already read.
            let stated = if coded {
                revocation::find_tokens(plain, &plain_tokens)
            } else {
                in_grammar
            };
            found.revocations.extend(stated.and_then(|stated| {
                revocation::revocation_of(span, sentence, plain, stated, &mut quotes)
            }));
        }
        if read_edicts && part.len() < span.text.trim_start().len() && sentences.len() > 1 {
            edict_reader.whole_item(span, part, edicts_before);
        }
    }
    found.edicts = edict_reader.finish();
    found
}

/// The edicts and revocations of `message` alone, for the unit tests of the grammars.
#[cfg(test)]
pub(crate) fn read_message(message: &str, edicts: bool, revocations: bool) -> Found<'_> {
    let reader = Reader::new(message);
    let spans = crate::material::spans(&reader);
    read(&reader, &spans, edicts, revocations)
}
