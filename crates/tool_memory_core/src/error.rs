//! The one error type of the core crate: every variant names the field it is about.

/// Result alias for core operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A value failed validation. Messages are lowercase, without a trailing period, and always
/// start with the offending field's wire name so RPC and CLI users know what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A required field was missing or blank.
    #[error("{field} is required")]
    Required { field: &'static str },
    /// A field was present but its value is not acceptable.
    #[error("{field} is invalid: {reason}")]
    Invalid { field: &'static str, reason: String },
}

impl Error {
    /// The wire name of the field the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            Error::Required { field } | Error::Invalid { field, .. } => field,
        }
    }

    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Error {
        Error::Invalid {
            field,
            reason: reason.into(),
        }
    }
}
