//! Opening the facade over PostgreSQL, for teams whose agents run on many machines and share
//! one set of rules (see docs/deploy.md).

use std::sync::Arc;

use tool_memory_store_postgres::{PostgresOptions, PostgresRuleStore};

use crate::{ActiveMemoryClient, Result};

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
