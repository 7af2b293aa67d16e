//! Phrase helpers both capture grammars read alike (the edict grammar and the revocation
//! grammar): what closes a tag question. Kept apart so that neither grammar reaches into the
//! other.

/// The endings that make a question a tag on an order ("never push to main, ok?"): the
/// sentence stays an instruction.
pub(crate) const TAG_QUESTIONS: &[&str] = &[
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
