//! Driver errors as the storage contract's error, naming the step that failed and keeping the
//! driver's causes in the message.

use tool_memory_store::Error;

/// Maps a driver error to the store's error, naming the step that failed.
pub(crate) fn pg_error(op: &'static str) -> impl FnOnce(tokio_postgres::Error) -> Error {
    move |source| Error::Backend {
        op,
        source: with_causes(&source).into(),
    }
}

/// An error's message with its causes: the driver's own message is often only the kind
/// ("error connecting to server"), and the reason ("Connection refused") is a cause, which an
/// RPC reply (one message, no chain) would otherwise lose. Causes already in the text are not
/// repeated.
pub(crate) fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(cause) = next {
        let part = cause.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        next = cause.source();
    }
    text
}
