//! Errors of the storage layer, each carrying the operation that failed.

/// Result alias for storage operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input did not validate; the message names the field.
    #[error(transparent)]
    Invalid(#[from] tool_memory_core::Error),
    /// A database backend refused an operation: `backend` names it (`sqlite`), `op` the step,
    /// and `source` is the driver's own error.
    #[error("{backend} {op}: {source}")]
    Database {
        backend: &'static str,
        op: &'static str,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A stored row this version cannot read, met where skipping it is not an option (for
    /// example an upsert over it, which would destroy data a newer version wrote).
    #[error("stored rule {tool_name}/{id} cannot be read by this version: {reason}")]
    Unreadable {
        tool_name: String,
        id: String,
        reason: String,
    },
    /// The database was written by a newer toolmem: refused at open, and by a running store
    /// once it notices (every write checks, inside its transaction, before it writes).
    #[error(
        "database schema version {found} is newer than this toolmem supports ({supported}): a newer toolmem upgraded it, so this one reads and writes nothing; upgrade toolmem"
    )]
    SchemaTooNew { found: i64, supported: i64 },
    /// The database file is read-only and its schema is not the one this version writes, so
    /// it can neither be read as it is nor upgraded.
    #[error(
        "the database file is read-only and at schema version {found}; this toolmem reads version {supported}: open it once where it can be written to upgrade it"
    )]
    ReadOnlySchema { found: i64, supported: i64 },
    /// The database file is on a read-only file system with a write-ahead log beside it that
    /// may hold commits the file lacks; reading the file alone could miss rules.
    #[error(
        "the database is on a read-only file system and its write-ahead log (-wal) holds changes the file may lack; open it once where it can be written"
    )]
    ReadOnlyLog,
    /// The database carries a schema version no toolmem ever wrote (a foreign or damaged file).
    #[error("database schema version {found} was not written by toolmem")]
    SchemaUnknown { found: i64 },
    /// A key/value backend or a database server (PostgreSQL) failed; `op` names the step.
    #[error("{op}: {source}")]
    Backend {
        op: &'static str,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The blocking worker running a database call panicked or was cancelled.
    #[error("storage worker failed: {0}")]
    Worker(String),
}
