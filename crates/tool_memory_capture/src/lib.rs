//! Post-turn capture for toolmem: after each turn, propose rule changes from what the user said
//! (edicts, critical; revocations of earlier edicts) and what the tools did (repeated failures,
//! normal), plus per-tool call statistics.
//!
//! The crate is pure: a [`TurnRecord`] and the current time go in, a [`CaptureOutput`] comes
//! out. It does no IO, never reads the clock, the environment or a random source; applying the
//! proposals to a store is the facade's job. See `docs/capture.md` for the grammar, the alias
//! table and the labelled corpus that measures it.
//!
//! A turn is read in this order (`capture.rs`): `reading` reads each line of the message once
//! (its match form and, with code spans, its grammar form, tokenized with the word lists of
//! `lexicon`); `material` decides whose words each span of the message is; `grammar` reads the
//! spans in one pass, each sentence a slice of its line's reading, for the edict grammar
//! (`edict`, `standing`) and the revocation grammar (`revocation`), which share the phrase
//! helpers of `tokens`; `attribution` (with `route`) finds each rule's tool; `identity` keys
//! the rules and `failure` observes the calls. Each grammar's word lists are data in its own
//! `lexicon` module.

mod attribution;
mod capture;
mod corpus;
mod edict;
mod error;
mod failure;
mod grammar;
mod hash;
mod identity;
mod lexicon;
mod matching;
mod material;
mod output;
mod reading;
mod revocation;
mod route;
mod standing;
mod switch;
#[cfg(test)]
mod test_messages;
mod text;
mod tokens;
mod turn;

pub use crate::capture::{CaptureConfig, capture_turn, capture_turn_with};
pub use crate::corpus::{CaseMiss, CorpusCase, CorpusReport, ExpectedRule, evaluate, parse_corpus};
pub use crate::error::{Error, Result};
pub use crate::failure::classify_failure;
pub use crate::identity::{
    EDICT_KEY_PREFIX, FAILURE_KEY_PREFIX, edict_identity_key, failure_identity_key, fnv1a64,
};
pub use crate::matching::{revocation_matches, revocation_matches_text};
pub use crate::output::{
    CaptureOutput, EDICT_TAG, FailureClass, MATERIAL_TAG, MAX_EDICT_CHARS, ProposedRevocation,
    ProposedRule, REPEATED_FAILURE_TAG, RevocationKind, StatsDelta, Trust,
};
pub use crate::switch::{CAPTURE_ENABLED_BY_DEFAULT, CAPTURE_ENABLED_ENV, parse_capture_switch};
pub use crate::turn::{ToolCallRecord, TurnRecord};
