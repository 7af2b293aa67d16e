//! The one error type of the guard crate. Checking a call cannot fail; only reading a
//! constraint or a labelled corpus from text, or building a guard from invalid explicit
//! constraints, can.

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong while reading guard inputs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A constraint field has an unacceptable value. `field` is a path such as
    /// `matchers[1].value`, so a user correcting a constraint knows what to fix.
    #[error("{field} is invalid: {reason}")]
    InvalidConstraint {
        /// Path of the offending field.
        field: String,
        /// Why it was rejected.
        reason: String,
    },
    /// The text is not a constraint in the documented JSON form.
    #[error("constraint is not valid json: {source}")]
    ConstraintJson {
        /// The JSON error, with its line and column.
        source: serde_json::Error,
    },
    /// An explicit constraint given for a rule is invalid.
    #[error("rule {rule_id} has an invalid constraint: {source}")]
    RuleConstraint {
        /// The rule's id.
        rule_id: String,
        /// The validation error.
        source: Box<Error>,
    },
    /// A corpus line is not a valid case.
    #[error("corpus line {line} is not a valid case: {source}")]
    CorpusLine {
        /// One-based line number.
        line: usize,
        /// The JSON error.
        source: serde_json::Error,
    },
}

impl Error {
    pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::InvalidConstraint {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The path of the offending field, for validation errors.
    pub fn field(&self) -> Option<&str> {
        match self {
            Error::InvalidConstraint { field, .. } => Some(field),
            Error::RuleConstraint { source, .. } => source.field(),
            _ => None,
        }
    }
}
