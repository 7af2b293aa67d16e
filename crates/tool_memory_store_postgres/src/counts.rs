//! Every tool's rule counts in one grouped query, for an overview that must not read every
//! rule of every tool.

use std::collections::BTreeMap;

use tool_memory_core::UNSCOPED_TOOL;
use tool_memory_store::{Result, ToolCounts};

use crate::pool::PostgresRuleStore;

impl PostgresRuleStore {
    /// Counts rows by tool, priority and state. Tools come back sorted by bytes, like the other
    /// stores, not by the database's collation.
    pub(crate) async fn grouped_tool_counts(&self) -> Result<Vec<ToolCounts>> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT tool_name, priority, revoked_at IS NOT NULL, proposed, COUNT(*) \
                 FROM rules WHERE tool_name <> $1 GROUP BY 1, 2, 3, 4",
            )
            .await
            .map_err(self.failed("postgres: prepare tool counts"))?;
        let rows = client
            .query(&statement, &[&UNSCOPED_TOOL])
            .await
            .map_err(self.failed("postgres: count rules"))?;
        let mut all: BTreeMap<String, ToolCounts> = BTreeMap::new();
        for row in &rows {
            let read = (|| {
                Ok::<_, tokio_postgres::Error>((
                    row.try_get::<_, String>(0)?,
                    row.try_get::<_, String>(1)?,
                    row.try_get::<_, bool>(2)?,
                    row.try_get::<_, bool>(3)?,
                    row.try_get::<_, i64>(4)?,
                ))
            })();
            let (tool_name, priority, revoked, proposed, count) =
                read.map_err(self.failed("postgres: read counts"))?;
            let counts = all
                .entry(tool_name.clone())
                .or_insert_with(|| ToolCounts::new(tool_name));
            counts.add_stored(&priority, revoked, proposed, count);
        }
        Ok(all.into_values().collect())
    }
}
