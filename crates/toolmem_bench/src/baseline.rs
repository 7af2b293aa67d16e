//! The benchmark's baseline rows: the same writes and point reads against a bare SQLite
//! key/value table that holds rules the way the reference does, run beside toolmem's rows so
//! that they compare at one moment of a machine whose speed drifts by half from hour to hour.
//!
//! The table is the shape the reference's store is built on (docs/storage.md): one row per rule
//! under (namespace `tool-{name}`, key `rule/{id}`), the rule's JSON record as content. It runs
//! at toolmem's default durability (WAL, `synchronous = NORMAL`; the reference's own settings
//! are not known here) with SQLite's own checkpoints. A put reads the existing row
//! first (the reference keeps `created_at` across upserts) and then upserts it; a get reads and
//! parses the record; a delete removes the row. There is nothing else: no history line, no
//! constraint, no caches, none of the reference's own layers above its table. So these rows
//! are a floor under what the reference's operations can cost at that moment, not the
//! reference itself.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::time::Instant;

use active_memory_client::{Services, Timestamp, ToolMemoryPriority, ToolMemorySource};
use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use tool_memory_core::{storage_key, tool_memory_namespace};

use crate::row::{Row, row};
use crate::workload::{priority, rule_text, tool_name};

/// The `impl` of the baseline rows.
pub(crate) const BASELINE: &str = "sqlite_kv";

/// The reference's rule record, its fields only: toolmem's own type flattens its additions
/// into the record, which makes serde buffer every record it parses, a cost the reference's
/// type does not have.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    id: String,
    tool_name: String,
    rule: String,
    priority: ToolMemoryPriority,
    source: ToolMemorySource,
    tags: Vec<String>,
    created_at: Timestamp,
    updated_at: Timestamp,
}

const SCHEMA: &str = "CREATE TABLE memories (
    namespace  TEXT NOT NULL,
    key        TEXT NOT NULL,
    content    TEXT NOT NULL,
    category   TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (namespace, key)
)";

const FETCH: &str = "SELECT content FROM memories WHERE namespace = ?1 AND key = ?2";

const STORE: &str = "INSERT INTO memories (namespace, key, content, category, updated_at)
    VALUES (?1, ?2, ?3, 'tool_memory', ?4)
    ON CONFLICT (namespace, key) DO UPDATE
    SET content = excluded.content, category = excluded.category, updated_at = excluded.updated_at";

const FORGET: &str = "DELETE FROM memories WHERE namespace = ?1 AND key = ?2";

/// Runs the put, upsert, get and delete rows of the workload on a new database at `path`.
pub(crate) fn rows(path: &Path, tools: usize, per_tool: usize) -> Result<Vec<Row>> {
    let table = Table::open(path)?;
    // The clock toolmem's stores read.
    let clock = Services::default().clock;
    let total = tools * per_tool;
    let mut rows = Vec::new();

    let mut keys = Vec::with_capacity(total);
    let started = Instant::now();
    for tool in 0..tools {
        let name = tool_name(tool);
        for index in 0..per_tool {
            let now = clock.now();
            let id = reference_id(tool, index);
            let rule = Record {
                id: id.clone(),
                tool_name: name.clone(),
                rule: rule_text(tool, index),
                priority: priority(tool, index),
                source: ToolMemorySource::Programmatic,
                tags: vec!["bench".to_owned()],
                created_at: now,
                updated_at: now,
            };
            table.put(rule)?;
            keys.push((name.clone(), id));
        }
    }
    rows.push(baseline_row("put", total, total, started.elapsed()));

    // Every 10th rule read, edited and put back, as the toolmem row does.
    let every_tenth: Vec<&(String, String)> = keys.iter().step_by(10).collect();
    let started = Instant::now();
    for (tool, id) in &every_tenth {
        let mut rule = table.get(tool, id)?.context("rule to upsert")?;
        rule.rule.push_str(" (edited)");
        rule.updated_at = clock.now();
        table.put(rule)?;
    }
    rows.push(baseline_row(
        "upsert",
        every_tenth.len(),
        total,
        started.elapsed(),
    ));

    let started = Instant::now();
    for (tool, id) in &keys {
        table.get(tool, id)?.context("rule to get")?;
    }
    rows.push(baseline_row("get", keys.len(), total, started.elapsed()));

    let started = Instant::now();
    for (tool, id) in &every_tenth {
        anyhow::ensure!(table.delete(tool, id)?, "rule to delete");
    }
    rows.push(baseline_row(
        "delete",
        every_tenth.len(),
        total,
        started.elapsed(),
    ));
    Ok(rows)
}

fn baseline_row(op: &str, n: usize, rules: usize, elapsed: std::time::Duration) -> Row {
    Row {
        implementation: BASELINE,
        ..row(op, n, rules, elapsed)
    }
}

struct Table(Connection);

impl Table {
    fn open(path: &Path) -> Result<Table> {
        let connection = Connection::open(path)?;
        let mode: String =
            connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        anyhow::ensure!(
            mode.eq_ignore_ascii_case("wal"),
            "baseline table not in WAL"
        );
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.execute_batch(SCHEMA)?;
        Ok(Table(connection))
    }

    /// The reference's put: read the stored record, keep its `created_at`, write the new one.
    fn put(&self, mut rule: Record) -> Result<()> {
        let (namespace, key) = address(&rule.tool_name, &rule.id);
        if let Some(stored) = self.get(&rule.tool_name, &rule.id)? {
            rule.created_at = stored.created_at;
        }
        self.0.prepare_cached(STORE)?.execute(params![
            namespace,
            key,
            serde_json::to_string(&rule)?,
            rule.updated_at.to_rfc3339()
        ])?;
        Ok(())
    }

    fn get(&self, tool_name: &str, id: &str) -> Result<Option<Record>> {
        let (namespace, key) = address(tool_name, id);
        let content: Option<String> = self
            .0
            .prepare_cached(FETCH)?
            .query_row(params![namespace, key], |row| row.get(0))
            .optional()?;
        Ok(content
            .map(|json| serde_json::from_str(&json))
            .transpose()?)
    }

    fn delete(&self, tool_name: &str, id: &str) -> Result<bool> {
        let (namespace, key) = address(tool_name, id);
        Ok(self
            .0
            .prepare_cached(FORGET)?
            .execute(params![namespace, key])?
            == 1)
    }
}

/// Where the reference keeps a rule: its tool's namespace and its key there.
fn address(tool_name: &str, id: &str) -> (String, String) {
    (tool_memory_namespace(tool_name), storage_key(id))
}

/// The id of rule `index` of tool `tool` in the reference's form (`r` and 32 letters `a`..`p`),
/// from a hash of its place: the keys land in the table as randomly as the reference's
/// UUID-based ids do, and every run writes the same ones.
fn reference_id(tool: usize, index: usize) -> String {
    let mut id = String::with_capacity(33);
    id.push('r');
    for half in 0..2_u8 {
        let mut hasher = DefaultHasher::new();
        (tool, index, half).hash(&mut hasher);
        let word = hasher.finish();
        for shift in (0..16).rev() {
            let nibble = (word >> (shift * 4)) & 0xF;
            id.push(char::from(b'a' + nibble as u8));
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_reference_form_and_differ() {
        let (first, second) = (reference_id(0, 0), reference_id(0, 1));
        for id in [&first, &second] {
            assert_eq!(id.len(), 33, "{id}");
            assert!(id.starts_with('r'), "{id}");
            assert!(
                id[1..]
                    .bytes()
                    .all(|letter| (b'a'..=b'p').contains(&letter)),
                "{id}"
            );
        }
        assert_ne!(first, second);
        assert_eq!(first, reference_id(0, 0), "the same place, the same id");
    }

    #[test]
    fn a_put_keeps_created_at_and_a_delete_removes_the_row() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let table = Table::open(&dir.path().join("kv.sqlite3"))?;
        let created = Timestamp::from_unix_nanos(1_000);
        let rule = Record {
            id: "r1".to_owned(),
            tool_name: "bash".to_owned(),
            rule: "quote paths".to_owned(),
            priority: priority(1, 2),
            source: ToolMemorySource::Programmatic,
            tags: Vec::new(),
            created_at: created,
            updated_at: created,
        };
        table.put(rule.clone())?;
        let edited = Record {
            rule: "quote every path".to_owned(),
            created_at: Timestamp::from_unix_nanos(5_000),
            updated_at: Timestamp::from_unix_nanos(5_000),
            ..rule
        };
        table.put(edited)?;
        let stored = table.get("bash", "r1")?.context("stored rule")?;
        assert_eq!(stored.rule, "quote every path");
        assert_eq!(stored.created_at, created);
        assert!(table.delete("bash", "r1")?);
        assert!(table.get("bash", "r1")?.is_none());
        assert!(!table.delete("bash", "r1")?);
        Ok(())
    }
}
