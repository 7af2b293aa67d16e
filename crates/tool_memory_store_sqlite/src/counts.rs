//! Every tool's rule counts in one grouped query, for an overview that must not read every
//! rule of every tool.

use rusqlite::{Connection, params};
use tool_memory_core::UNSCOPED_TOOL;
use tool_memory_store::{Result, ToolCounts};

use crate::error::sqlite;

/// Counts rows by tool, priority and state.
pub(crate) fn tool_counts(connection: &Connection) -> Result<Vec<ToolCounts>> {
    let mut statement = connection
        .prepare_cached(
            "SELECT tool_name, priority, revoked_at IS NOT NULL, proposed <> 0, COUNT(*) \
             FROM rules WHERE tool_name <> ?1 GROUP BY 1, 2, 3, 4 ORDER BY 1",
        )
        .map_err(sqlite("prepare tool counts"))?;
    let rows = statement
        .query_map(params![UNSCOPED_TOOL], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, bool>(2)?,
                row.get::<_, bool>(3)?,
                row.get::<_, i64>(4)?,
            ))
        })
        .map_err(sqlite("count rules"))?;
    let mut all: Vec<ToolCounts> = Vec::new();
    for row in rows {
        let (tool_name, priority, revoked, proposed, count) = row.map_err(sqlite("read counts"))?;
        if all.last().is_none_or(|last| last.tool_name != tool_name) {
            all.push(ToolCounts::new(tool_name));
        }
        if let Some(counts) = all.last_mut() {
            counts.add_stored(&priority, revoked, proposed, count);
        }
    }
    Ok(all)
}
