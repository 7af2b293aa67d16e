//! What `toolmem doctor` asks the facade: a look at a database that changes nothing in it
//! (no migration, no file created), with the schema version against this build's and every
//! row this version cannot read.

use std::path::Path;

use tool_memory_store::Inspection;
use tool_memory_store_postgres::{PostgresOptions, PostgresRuleStore};
use tool_memory_store_sqlite::SqliteRuleStore;

use crate::Result;

/// Looks at the SQLite database at `path` read-only: its schema version, SQLite's integrity
/// check, and every rule row this version cannot read. A missing file is an error and is not
/// created. Blocks the calling thread for the time the reads take.
pub fn inspect_sqlite(path: impl AsRef<Path>) -> Result<Inspection> {
    Ok(SqliteRuleStore::inspect(path)?)
}

/// Looks at the PostgreSQL database at `url`: its schema version and every rule row this
/// version cannot read. Nothing is migrated or created.
pub async fn inspect_postgres(url: &str, options: PostgresOptions) -> Result<Inspection> {
    Ok(PostgresRuleStore::inspect(url, options).await?)
}
