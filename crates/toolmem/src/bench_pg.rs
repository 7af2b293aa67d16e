//! The benchmark workload against PostgreSQL (`toolmem --db postgres://... bench`): each run
//! gets a schema of its own, so it neither sees nor leaves rules in the database's own tables,
//! and drops it afterwards.

use active_memory_client::{ActiveMemoryClient, ClientConfig, PostgresOptions, PostgresRuleStore};
use anyhow::{Context, Result};

/// A client over a fresh schema of the database at `url`, and the store to drop it with.
pub(crate) async fn open(url: &str) -> Result<(ActiveMemoryClient, PostgresRuleStore)> {
    let schema = format!(
        "toolmem_bench_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.as_micros())
            .unwrap_or_default()
    );
    let options = PostgresOptions {
        schema: Some(schema),
        ..PostgresOptions::default()
    };
    let clock = std::sync::Arc::clone(&options.services.clock);
    let store = PostgresRuleStore::open(url, options)
        .await
        .context("opening the benchmark's PostgreSQL database")?;
    let client = ActiveMemoryClient::from_parts(std::sync::Arc::new(store.clone()), clock)
        .with_config(ClientConfig::default());
    Ok((client, store))
}
