//! Enforcement for toolmem: before a tool call runs, check it against the tool's rules and the
//! rules for every tool, and answer allow, confirm or deny.
//!
//! The crate is pure: rules and a proposed call in, a [`Verdict`] out. No IO, no clock. A
//! rule's text is turned into a [`Constraint`] (literals the user named, and whether they are
//! forbidden or required) by [`derive_constraint`]; programs may also supply constraints in
//! their JSON form. A [`Guard`] compiles and indexes the rules once and then checks many
//! calls. See `docs/guard.md` for the grammar, the JSON form and the decision policy.

mod call;
mod constraint;
mod corpus;
mod derive;
mod error;
mod guard;
mod limits;
mod matching;
mod normalize;

pub use crate::constraint::{
    Constraint, MAX_MATCHER_CHARS, MAX_MATCHERS, Matcher, MatcherKind, Polarity, Strength,
    constraint_of,
};
pub use crate::corpus::{
    CorpusCall, CorpusCase, CorpusReport, CorpusRule, Disagreement, evaluate, parse_corpus,
};
pub use crate::derive::{derive_constraint, derive_from_text};
pub use crate::error::{Error, Result};
pub use crate::guard::{Decision, Guard, Verdict, check_rules};
pub use crate::limits::{
    INVOCATION_OVERHEAD_WORDS, MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_VALUES,
    MAX_COMMAND_NESTING, MAX_EVALUATION_WORK, MAX_INVOCATION_WORDS, MAX_WRAPPERS,
};
