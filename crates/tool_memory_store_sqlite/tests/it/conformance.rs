//! The conformance suite (`tool_memory_store::conformance`) run against the SQLite store.

use std::sync::Arc;

use tool_memory_core::{ManualClock, SequentialIds, Timestamp};
use tool_memory_store::Services;
use tool_memory_store::conformance::Harness;
use tool_memory_store_sqlite::{Footprint, SqliteOptions, SqliteRuleStore};

fn services() -> (Services, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(
        Timestamp::parse("2026-01-01T00:00:00+00:00").unwrap(),
    ));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("id")),
    };
    (services, clock)
}

pub(crate) async fn sqlite() -> Harness {
    sqlite_with(Footprint::Server).await
}

/// The store as a hook or a CLI command opens it: one connection, no thread.
pub(crate) async fn sqlite_one_shot() -> Harness {
    sqlite_with(Footprint::OneShot).await
}

async fn sqlite_with(footprint: Footprint) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.sqlite3");
    let (services, clock) = services();
    let store = SqliteRuleStore::open(
        &path,
        SqliteOptions {
            services,
            footprint,
            ..SqliteOptions::default()
        },
    )
    .unwrap();
    let corrupt = move |tool: &str, id: &str| {
        let connection = rusqlite::Connection::open(&path).unwrap();
        connection
            .execute(
                "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at, updated_us)
                 VALUES (?1, ?2, 'from the future', 'urgent', 'programmatic', '[]',
                         '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', 0)",
                rusqlite::params![id, tool],
            )
            .unwrap();
    };
    Harness {
        store: Arc::new(store),
        clock,
        corrupt: Some(Box::new(corrupt)),
        keep_alive: Some(Box::new(dir)),
    }
}

mod on_file {
    tool_memory_store::conformance_suite!(super::sqlite);
}

mod one_shot {
    tool_memory_store::conformance_suite!(super::sqlite_one_shot);
}
