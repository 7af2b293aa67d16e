//! Enforcement for toolmem: before a tool call runs, check it against the tool's rules and the
//! rules for every tool, and answer allow, confirm or deny.
//!
//! The crate is pure: rules and a proposed call in, a [`Verdict`] out. No IO, no clock. A
//! rule's text is turned into a [`Constraint`] (literals the user named, and whether they are
//! forbidden or required) by [`derive_constraint`]; programs may also supply constraints in
//! their JSON form. Which constraint a rule has is decided here and nowhere else: for a put by
//! [`constrain_put`], for a stored rule by [`constraint_of`]. A [`Guard`] compiles and indexes
//! the rules once and then checks many calls. See `docs/guard.md` for the grammar, the JSON form and the decision policy.

mod call;
mod condition;
mod constraint;
mod corpus;
mod derive;
mod error;
mod guard;
mod limits;
mod matching;
mod normalize;
mod rule_constraint;
mod rule_text;

pub use crate::constraint::{
    Access, Constraint, MAX_ALSO, MAX_MATCHER_CHARS, MAX_MATCHERS, Matcher, MatcherKind, Polarity,
    Strength,
};
pub use crate::corpus::{
    CorpusCall, CorpusCase, CorpusReport, CorpusRule, Disagreement, evaluate, parse_corpus,
};
pub use crate::derive::{derive_constraint, derive_from_text};
pub use crate::error::{Error, Result};
pub use crate::guard::{
    Decision, Guard, Verdict, check_rules, proxied_mcp_call, tools_sharing_rules,
};
pub use crate::limits::{
    INVOCATION_OVERHEAD_WORDS, MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_VALUES,
    MAX_COMMAND_NESTING, MAX_EVALUATION_WORK, MAX_INVOCATION_WORDS, MAX_WRAPPERS,
};
pub use crate::rule_constraint::{
    DERIVATION, constrain_put, constraint_looser_than_text, constraint_of,
};
