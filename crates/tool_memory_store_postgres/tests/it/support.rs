//! Finding the test database and giving each test a schema of its own.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tool_memory_core::{ManualClock, SequentialIds, Timestamp};
use tool_memory_store::Services;
use tool_memory_store_postgres::{PostgresOptions, PostgresRuleStore};

/// The environment variable holding the test database's URL.
pub(crate) const URL_ENV: &str = "TOOLMEM_TEST_PG_URL";

/// The test database's URL. Without one the test is skipped with a note, unless `CI` is set
/// (and `TOOLMEM_TEST_PG_OPTIONAL` is not): in CI a missing database must fail, never pass
/// silently. `cargo xtask ci` sets the latter when it runs outside CI.
pub(crate) fn database_url() -> Option<String> {
    if let Some(url) = std::env::var(URL_ENV)
        .ok()
        .filter(|url| !url.trim().is_empty())
    {
        return Some(url);
    }
    let in_ci = std::env::var_os("CI").is_some();
    let optional = std::env::var_os("TOOLMEM_TEST_PG_OPTIONAL").is_some();
    assert!(
        !in_ci || optional,
        "CI is set but {URL_ENV} is not: the PostgreSQL tests must run in CI (.ci/run starts a cluster)"
    );
    eprintln!("skipping a PostgreSQL test: set {URL_ENV} (`cargo xtask pg start` prints one)");
    None
}

/// A schema name no other test (in this or another process) uses.
pub(crate) fn unique_schema() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "toolmem_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A manual clock at a fixed start and sequential ids, like the other stores' harnesses.
pub(crate) fn services() -> (Services, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(
        Timestamp::parse("2026-01-01T00:00:00+00:00").unwrap(),
    ));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("id")),
    };
    (services, clock)
}

/// Opens a store on `schema` with small pools (tests run many at once).
pub(crate) async fn open(
    url: &str,
    schema: &str,
    services: Services,
) -> tool_memory_store::Result<PostgresRuleStore> {
    PostgresRuleStore::open(
        url,
        PostgresOptions {
            pool_size: 4,
            schema: Some(schema.to_owned()),
            services,
            ..PostgresOptions::default()
        },
    )
    .await
}

/// Runs SQL on its own connection with `search_path` set to `schema`, from synchronous code
/// (a harness hook, a `Drop`): on a thread of its own with its own runtime, so it works
/// whatever runtime, if any, the caller is on.
pub(crate) fn run_sql(url: &str, schema: &str, sql: &str) {
    let url = url.to_owned();
    let sql = format!("SET search_path TO {schema}; {sql}");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .expect("connect to the test database");
            let connection = tokio::spawn(connection);
            client.batch_execute(&sql).await.expect("run test SQL");
            drop(client);
            let _ = connection.await;
        });
    })
    .join()
    .expect("test SQL thread");
}

/// Drops a test's schema when the test ends, passed or failed.
pub(crate) struct SchemaGuard {
    pub(crate) url: String,
    pub(crate) schema: String,
}

impl Drop for SchemaGuard {
    fn drop(&mut self) {
        run_sql(
            &self.url,
            "public",
            &format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema),
        );
    }
}
