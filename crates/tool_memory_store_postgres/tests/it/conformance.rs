//! The conformance suite (`tool_memory_store::conformance`) against PostgreSQL: each test gets
//! a fresh schema, dropped when it ends.

use std::sync::Arc;

use tool_memory_store::conformance::Harness;

use crate::support::{SchemaGuard, database_url, open, run_sql, services, unique_schema};

pub(crate) async fn postgres() -> Option<Harness> {
    let url = database_url()?;
    let schema = unique_schema();
    let guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    let (services, clock) = services();
    let store = open(&url, &schema, services)
        .await
        .expect("open the PostgreSQL store");
    let corrupt = move |tool: &str, id: &str| {
        // A priority no version of toolmem wrote. Tool and id come from the suite, not users.
        run_sql(
            &url,
            &schema,
            &format!(
                "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at, updated_us)
                 VALUES ('{id}', '{tool}', 'from the future', 'urgent', 'programmatic', '[]',
                         '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', 0)"
            ),
        );
    };
    Some(Harness {
        store: Arc::new(store),
        clock,
        corrupt: Some(Box::new(corrupt)),
        keep_alive: Some(Box::new(guard)),
    })
}

mod postgres {
    tool_memory_store::conformance_suite!(optional super::postgres);
}
