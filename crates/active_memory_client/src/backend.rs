//! The database backends this build carries, chosen by cargo features: `sqlite` (the embedded
//! default) and `postgres`. The one module of the facade that names a backend crate; the rest
//! speaks to [`RuleStore`](tool_memory_store::RuleStore) alone.

// A build with neither backend (a crate that depends on the facade without its default
// features, such as memory_rpc on its own) names no backend and needs none of these.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
use std::sync::Arc;

#[cfg(any(feature = "sqlite", feature = "postgres"))]
use crate::{ActiveMemoryClient, Result};

#[cfg(feature = "sqlite")]
pub use tool_memory_store_sqlite::{Durability, Footprint, SqliteOptions};

#[cfg(feature = "postgres")]
pub use tool_memory_store_postgres::{PostgresOptions, PostgresRuleStore};

/// Whether `text` is a PostgreSQL connection URL (`postgres://` or `postgresql://`) rather
/// than a file path. Answered whichever backends are built, so that a build without
/// PostgreSQL refuses such a URL instead of taking it for a file name.
pub fn is_postgres_url(text: &str) -> bool {
    let lower = text.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

#[cfg(feature = "sqlite")]
impl ActiveMemoryClient {
    /// A client over the SQLite database at `path` (created if missing), configured from the
    /// environment.
    pub fn open_sqlite(path: impl AsRef<std::path::Path>) -> Result<ActiveMemoryClient> {
        ActiveMemoryClient::open_sqlite_with(path, SqliteOptions::default())
    }

    /// A client over the SQLite database at `path` with explicit store options.
    pub fn open_sqlite_with(
        path: impl AsRef<std::path::Path>,
        options: SqliteOptions,
    ) -> Result<ActiveMemoryClient> {
        let clock = Arc::clone(&options.services.clock);
        let store = tool_memory_store_sqlite::SqliteRuleStore::open(path, options)?;
        Ok(ActiveMemoryClient::from_parts(Arc::new(store), clock))
    }
}

/// Looks at the SQLite database at `path` read-only: its schema version, SQLite's integrity
/// check, and every rule row this version cannot read. A missing file is an error and is not
/// created. Blocks the calling thread for the time the reads take.
#[cfg(feature = "sqlite")]
pub fn inspect_sqlite(path: impl AsRef<std::path::Path>) -> Result<tool_memory_store::Inspection> {
    Ok(tool_memory_store_sqlite::SqliteRuleStore::inspect(path)?)
}

#[cfg(feature = "postgres")]
impl ActiveMemoryClient {
    /// A client over the PostgreSQL database at `url` (`postgres://user:password@host/db`),
    /// its schema brought up to date, configured from the environment.
    pub async fn open_postgres(url: &str) -> Result<ActiveMemoryClient> {
        ActiveMemoryClient::open_postgres_with(url, PostgresOptions::default()).await
    }

    /// A client over the PostgreSQL database at `url` with explicit store options (pool size,
    /// timeout, schema, clock and ids).
    pub async fn open_postgres_with(
        url: &str,
        options: PostgresOptions,
    ) -> Result<ActiveMemoryClient> {
        let clock = Arc::clone(&options.services.clock);
        let store = PostgresRuleStore::open(url, options).await?;
        Ok(ActiveMemoryClient::from_parts(Arc::new(store), clock))
    }
}

/// Looks at the PostgreSQL database at `url`: its schema version and every rule row this
/// version cannot read. Nothing is migrated or created.
#[cfg(feature = "postgres")]
pub async fn inspect_postgres(
    url: &str,
    options: PostgresOptions,
) -> Result<tool_memory_store::Inspection> {
    Ok(PostgresRuleStore::inspect(url, options).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_told_from_a_file_path() {
        assert!(is_postgres_url("postgres://u@h/db"));
        assert!(is_postgres_url("PostgreSQL://u@h:5432/db"));
        assert!(!is_postgres_url("/var/lib/toolmem/rules.sqlite3"));
        assert!(!is_postgres_url("postgres.sqlite3"));
    }
}
