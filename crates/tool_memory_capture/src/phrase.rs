//! The phrase toolkit the capture grammars share (edict, revocation, standing rules): reading
//! words and phrases at a position of [`tokenize`](crate::text::tokenize)'s tokens, and what
//! makes a sentence a question rather than an order. Kept apart so that no grammar reaches
//! into another.

use crate::text::Token;

/// The word at `index`, if that token is a word.
pub(crate) fn word_at<'a>(tokens: &[Token<'a>], index: usize) -> Option<&'a str> {
    tokens
        .get(index)
        .filter(|token| token.word)
        .map(|token| token.text)
}

/// Whether the words of `sequence` stand at `index`, one token each.
pub(crate) fn matches_at(tokens: &[Token<'_>], index: usize, sequence: &[&str]) -> bool {
    sequence
        .iter()
        .enumerate()
        .all(|(offset, expected)| word_at(tokens, index + offset) == Some(expected))
}

/// The length of the longest phrase of `phrases` starting at `index`.
pub(crate) fn phrase_at(tokens: &[Token<'_>], index: usize, phrases: &[&[&str]]) -> Option<usize> {
    phrases
        .iter()
        .filter(|phrase| matches_at(tokens, index, phrase))
        .map(|phrase| phrase.len())
        .max()
}

/// Whether any phrase of `phrases` stands anywhere in `tokens`.
pub(crate) fn contains_phrase(tokens: &[Token<'_>], phrases: &[&[&str]]) -> bool {
    (0..tokens.len()).any(|index| phrase_at(tokens, index, phrases).is_some())
}

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
