//! SQLite failures as the storage contract's error, which names no backend: the backend's
//! name goes into the error's `backend` field, so messages read as before ("sqlite write rule:
//! disk full").

use tool_memory_store::Error;

/// Maps a failed rusqlite call of step `op` to the contract's error.
pub(crate) fn sqlite(op: &'static str) -> impl FnOnce(rusqlite::Error) -> Error {
    move |source| Error::Database {
        backend: "sqlite",
        op,
        source: Box::new(source),
    }
}
