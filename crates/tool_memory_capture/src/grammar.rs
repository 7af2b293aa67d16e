//! The one pass of the grammars over a message, once the material pass has cut it into spans
//! ([`crate::material::spans`]): each line is split into sentences once, and each sentence is
//! put in its grammar form ([`grammar_form`], each code span one word) and tokenized once.
//! The edict grammar, the standing statements and the revocation grammar all read those
//! tokens; the revocation found in a sentence is both the revocation the user stated (in their
//! own words) and what the edict grammar reads blanked out. Only a sentence with a code span
//! is read a second time, in its plain [`match_form`], which the revocation grammar reads (a
//! command such as `` `git push` `` is its topic there).

use std::ops::Range;

use crate::edict::{Edict, EdictReader, ReadSentence};
use crate::material::{Span, Voice};
use crate::revocation::{self, Revocation};
use crate::text::{grammar_form_coded, match_form, split_sentences, strip_bullet};
use crate::tokens::tokenize;

/// What the grammars found in a message.
#[derive(Debug, Default)]
pub(crate) struct Found<'a> {
    /// The edicts, in message order, duplicates kept (identity keys merge them).
    pub(crate) edicts: Vec<Edict<'a>>,
    /// The revocations in the user's own words, in message order, at most one per sentence.
    pub(crate) revocations: Vec<Revocation<'a>>,
}

/// Reads the edicts (when `edicts`) and the revocations (when `revocations`) of the message
/// cut into `spans`, in one pass.
pub(crate) fn read<'a>(spans: &[Span<'a>], edicts: bool, revocations: bool) -> Found<'a> {
    let mut reader = EdictReader::default();
    let mut found = Found::default();
    for span in spans {
        // The reader keeps its state (a list's lead-in, the sentence before) across every span
        // it is shown, even one whose sentences it does not read.
        let read_edicts = edicts && reader.start_span(span);
        let read_revocations = revocations && span.voice == Voice::Own;
        if !read_edicts && !read_revocations {
            continue;
        }
        // The span's quotations, found on its first revocation only: most spans hold none.
        let mut quotes: Option<Vec<Range<usize>>> = None;
        for sentence in split_sentences(strip_bullet(span.text)) {
            let (grammar, coded) = grammar_form_coded(sentence);
            let tokens = tokenize(&grammar);
            let in_grammar = revocation::find_tokens(&grammar, &tokens);
            if read_edicts {
                let read = ReadSentence {
                    grammar: &grammar,
                    tokens: &tokens,
                    revocation: in_grammar.as_ref(),
                };
                reader.sentence(span, sentence, read);
            }
            if !read_revocations {
                continue;
            }
            // Without a code span the grammar form is the match form, already read.
            let stated = if coded {
                let form = match_form(sentence);
                let tokens = tokenize(&form);
                revocation::find_tokens(&form, &tokens).and_then(|stated| {
                    revocation::revocation_of(span, sentence, &form, stated, &mut quotes)
                })
            } else {
                in_grammar.and_then(|stated| {
                    revocation::revocation_of(span, sentence, &grammar, stated, &mut quotes)
                })
            };
            found.revocations.extend(stated);
        }
    }
    found.edicts = reader.finish();
    found
}
