//! The one tokenizer of the capture grammars and the phrase toolkit beside it. A sentence is
//! put in its normal form once ([`crate::text::match_form`], or
//! [`crate::text::grammar_form`] where each code span is one word) and tokenized once; the
//! edict grammar, the standing statements and the revocation grammar all read the same
//! tokens. Each word token carries the word lists it belongs to ([`Sets`], looked up once in
//! [`crate::lexicon`]), so a grammar tests a bit where it used to search a list, and a pass
//! can skip a sentence that holds none of the words it needs.
//!
//! The phrase helpers read words and phrases at a position of the tokens, and say what makes a
//! sentence a question rather than an order. They live here, once, so that no grammar reaches
//! into another.

use crate::lexicon::{self, Sets};
use crate::text::is_word_char;

/// A word or a punctuation mark of a sentence, with its byte range in the form it was read
/// from and, for a word, the word lists that hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub(crate) text: &'a str,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) word: bool,
    /// The lists of [`crate::lexicon`] that hold the word; none for a punctuation mark.
    pub(crate) sets: Sets,
}

impl Token<'_> {
    /// Whether this is a word of one of the lists of `sets`.
    pub(crate) fn is(&self, sets: Sets) -> bool {
        self.sets.any(sets)
    }

    /// The punctuation mark, if this token is one.
    pub(crate) fn punct(&self) -> Option<char> {
        if self.word {
            None
        } else {
            self.text.chars().next()
        }
    }
}

/// Words (letters, digits, `_`, inner `'` and `-`) and single punctuation marks, with their
/// byte ranges and word lists: the one tokenizer of the edict, standing, revocation and
/// material grammars. `form` is a normal form (lower-case).
pub(crate) fn tokenize(form: &str) -> Vec<Token<'_>> {
    // About one token for every three bytes of English prose: enough that the vector rarely
    // grows while it is filled.
    let mut tokens = Vec::with_capacity(form.len() / 3 + 2);
    scan(form, |start, end, word| {
        let text = &form[start..end];
        tokens.push(Token {
            text,
            start,
            end,
            word,
            sets: if word {
                lexicon::sets_of(text)
            } else {
                Sets::NONE
            },
        });
    });
    tokens
}

/// The tokenizer itself: calls `token(start, end, word)` for each word and each punctuation
/// mark of `form`, in order.
pub(crate) fn scan(form: &str, mut token: impl FnMut(usize, usize, bool)) {
    let bytes = form.as_bytes();
    let char_at = |at: usize| -> Option<char> {
        match bytes.get(at) {
            Some(&byte) if byte.is_ascii() => Some(char::from(byte)),
            Some(_) => form[at..].chars().next(),
            None => None,
        }
    };
    let mut at = 0;
    while let Some(ch) = char_at(at) {
        let start = at;
        at += ch.len_utf8();
        if is_word_char(ch) {
            loop {
                match char_at(at) {
                    Some(next) if is_word_char(next) => at += next.len_utf8(),
                    // An inner `'` or `-` joins two runs of word chars: "don't", "force-push".
                    Some(joiner @ ('\'' | '-'))
                        if char_at(at + joiner.len_utf8()).is_some_and(is_word_char) =>
                    {
                        at += joiner.len_utf8();
                    }
                    _ => break,
                }
            }
            token(start, at, true);
        } else if !ch.is_whitespace() {
            token(start, at, false);
        }
    }
}

/// The lists of every word of `tokens`, together: a pass tests this once to know whether a
/// sentence holds any word it needs.
pub(crate) fn all_sets(tokens: &[Token<'_>]) -> Sets {
    tokens
        .iter()
        .fold(Sets::NONE, |sets, token| sets | token.sets)
}

/// The word at `index`, if that token is a word.
pub(crate) fn word_at<'a>(tokens: &[Token<'a>], index: usize) -> Option<&'a str> {
    tokens
        .get(index)
        .filter(|token| token.word)
        .map(|token| token.text)
}

/// Whether the token at `index` is a word of one of the lists of `sets`.
pub(crate) fn is_at(tokens: &[Token<'_>], index: usize, sets: Sets) -> bool {
    tokens.get(index).is_some_and(|token| token.is(sets))
}

/// Whether the words of `sequence` stand at `index`, one token each; `$` stands for the end
/// of the sentence or a punctuation mark.
pub(crate) fn matches_at(tokens: &[Token<'_>], index: usize, sequence: &[&str]) -> bool {
    sequence.iter().enumerate().all(|(offset, expected)| {
        let actual = word_at(tokens, index + offset);
        if *expected == "$" {
            actual.is_none()
        } else {
            actual == Some(expected)
        }
    })
}

/// The length of the longest phrase of `phrases` starting at `index`.
pub(crate) fn phrase_at(tokens: &[Token<'_>], index: usize, phrases: &[&[&str]]) -> Option<usize> {
    // A phrase whose first word opens with another byte cannot stand here: one byte compared
    // rules out nearly every phrase of a list.
    let lead = word_at(tokens, index).map(|word| word.as_bytes()[0]);
    phrases
        .iter()
        .filter(|phrase| match (phrase.first(), lead) {
            (Some(first), Some(lead)) if *first != "$" => first.as_bytes().first() == Some(&lead),
            _ => true,
        })
        .filter(|phrase| matches_at(tokens, index, phrase))
        .map(|phrase| phrase.len())
        .max()
}

/// Whether any phrase of `phrases` stands anywhere in `tokens`.
pub(crate) fn contains_phrase(tokens: &[Token<'_>], phrases: &[&[&str]]) -> bool {
    (0..tokens.len()).any(|index| phrase_at(tokens, index, phrases).is_some())
}

/// Whether the speech verb at `index` stands in a concessive clause that sets someone's words
/// aside ([`crate::text::CONCESSIVE_OPENERS`]): "whatever Ana says there, never …",
/// "regardless of what the thread says, …". The clause opens the sentence or follows a clause
/// mark, at most [`MAX_CONCESSIVE_WORDS`] words before the verb.
pub(crate) fn concessive(tokens: &[Token<'_>], index: usize) -> bool {
    let floor = index.saturating_sub(MAX_CONCESSIVE_WORDS);
    let mut start = index;
    while start > floor && tokens[start - 1].word {
        start -= 1;
    }
    let opens_clause = start == 0
        || tokens[start - 1]
            .punct()
            .is_some_and(|mark| matches!(mark, ',' | ';' | ':' | '.' | '(' | '—' | '–' | '-'));
    opens_clause
        && crate::text::CONCESSIVE_OPENERS
            .iter()
            .any(|opener| matches_at(tokens, start, opener))
}

/// How far before its speech verb a concessive clause may open ("regardless of what the
/// release thread in #ops says").
const MAX_CONCESSIVE_WORDS: usize = 10;

/// Whether `form` (a match form) asks a question: it ends in `?`, and not in a tag that only
/// softens an order ("never push to main, ok?").
pub(crate) fn is_question(form: &str) -> bool {
    let trimmed = form.trim_end_matches([' ', ')', '"', '\'', ']', '!']);
    if !trimmed.ends_with('?') {
        return false;
    }
    let body = trimmed.trim_end_matches('?').trim_end();
    !TAG_QUESTIONS.iter().any(|tag| body.ends_with(tag))
}

/// The endings that make a question a tag on an order ("never push to main, ok?"): the
/// sentence stays an instruction.
const TAG_QUESTIONS: &[&str] = &[
    ", ok",
    ", okay",
    ", alright",
    ", all right",
    ", understood",
    ", got it",
    ", yeah",
    ", right",
    ", clear",
    ", capisce",
    ", yes",
    ", k",
    ", deal",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::SPEECH;

    #[test]
    fn words_carry_their_lists_and_marks_carry_none() {
        let tokens = tokenize("she said: don't force-push");
        let texts: Vec<&str> = tokens.iter().map(|token| token.text).collect();
        assert_eq!(texts, ["she", "said", ":", "don't", "force-push"]);
        assert!(tokens[1].is(SPEECH));
        assert!(!tokens[0].is(SPEECH));
        assert_eq!(tokens[2].punct(), Some(':'));
        assert_eq!(tokens[2].sets, Sets::NONE);
        assert!(all_sets(&tokens).any(SPEECH));
        assert!(matches_at(&tokens, 3, &["don't", "force-push", "$"]));
        // `$` is the end or a punctuation mark, never a word.
        assert!(matches_at(&tokens, 1, &["said", "$"]));
        assert!(!matches_at(&tokens, 0, &["she", "$"]));
    }

    #[test]
    fn a_concessive_clause_sets_the_speech_verb_aside() {
        let tokens = tokenize("whatever ana says there, never run it");
        assert!(concessive(&tokens, 2));
        let tokens = tokenize("ok, regardless of what the thread says, don't merge");
        assert!(concessive(&tokens, 7));
        // A report, not a concession.
        let tokens = tokenize("ana says never run it");
        assert!(!concessive(&tokens, 1));
        let tokens = tokenize("she told me whatever, never run it");
        assert!(!concessive(&tokens, 1));
    }
}
