//! Errors of the facade. Validation problems keep the name of the offending field, so RPC can
//! answer "invalid params" with it.

/// Result alias for facade operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a facade operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store failed or refused the input.
    #[error(transparent)]
    Store(#[from] tool_memory_store::Error),
    /// The input did not validate; the message names the field.
    #[error(transparent)]
    Invalid(#[from] tool_memory_core::Error),
    /// No client was set with [`crate::set_active_memory_client`].
    #[error("no active memory client is set; call set_active_memory_client at start-up")]
    NoActiveClient,
    /// [`crate::set_active_memory_client`] was called twice.
    #[error("an active memory client is already set")]
    AlreadySet,
}

impl Error {
    /// The field a validation error is about, whichever layer found it.
    pub fn invalid_field(&self) -> Option<&'static str> {
        self.validation().map(tool_memory_core::Error::field)
    }

    /// The validation error inside, whichever layer found it.
    pub fn validation(&self) -> Option<&tool_memory_core::Error> {
        match self {
            Error::Invalid(err) | Error::Store(tool_memory_store::Error::Invalid(err)) => Some(err),
            _ => None,
        }
    }
}
