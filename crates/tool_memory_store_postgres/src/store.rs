//! `PostgresRuleStore`: rules in PostgreSQL, shared by every server that opens the database.
//!
//! Choices, and why:
//! - A `deadpool-postgres` pool of `tokio-postgres` connections, without TLS (loopback or a
//!   private network; put a TLS-terminating proxy in front otherwise). Statements are prepared
//!   once per connection (`prepare_cached`).
//! - Every change is one transaction that locks the rule's row (`SELECT ... FOR UPDATE`), reads
//!   it, writes the new row and appends its history line, so a concurrent writer on another
//!   server waits for the row instead of overwriting a change it never saw, and `created_at`
//!   stays the first writer's. Creating a rule inserts with `ON CONFLICT DO NOTHING`; when
//!   another server created the same id first, the transaction locks and reads that row and
//!   updates it instead (read committed sees the other's commit in the next statement).
//! - Cache invalidation is a version check, not LISTEN/NOTIFY: `version()` reads the
//!   trigger-maintained `rules_version` counter, one indexed single-row read per call. A notice
//!   can be missed while a listening connection is being replaced, which would leave a cache
//!   stale with nothing to tell; the counter is read in the same database as the rules, so a
//!   cache keyed by it is never older than the version it names.
//! - Every write checks, inside its transaction and before it writes, that no newer toolmem
//!   has migrated the schema since this store opened it: it takes the migration's advisory
//!   lock shared (so a migration waits for writes in flight, and writes wait for a migration)
//!   and reads the schema version, in one simple query pipelined with the write's first
//!   statement, so the check costs no round trip of its own. `version()` reads the schema
//!   version with the rules version, so guard checks and session starts notice it too; from
//!   then on the store refuses every call.
//! - Connection loss fails the call with a `postgres: ...` error naming the step; the
//!   transaction of a write that failed before its commit is rolled back by the server, so
//!   nothing is half-written. Closed connections are then dropped from the pool and the next
//!   call connects afresh, so the store recovers by itself when the database returns. Calls are
//!   not retried: a commit whose answer was lost may or may not have happened, and only the
//!   caller knows whether repeating it is safe.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{
    GenericClient, Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime, TimeoutType,
};
use parking_lot::Mutex;
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row, SimpleQueryMessage};
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RawJson, RuleMeta, RulePut, Timestamp,
    ToolMemoryRule, ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
};
use tool_memory_store::backend::{
    StoredRow, active_at, count_readable, history_from_columns, keep_readable, not_readable,
    prompt_tool_filter, rule_from_columns, select_for_prompt,
};
use tool_memory_store::{
    Error, Inspection, Listing, PromptSelection, Result, RuleChange, RuleStore, Services,
    ToolRules, Unreadable, UnreadableRow,
};

use crate::schema::SCHEMA_VERSION;

/// How to open a [`PostgresRuleStore`].
#[derive(Debug, Clone)]
pub struct PostgresOptions {
    /// Most connections this store holds open. Every server holds its own pool, so the
    /// database must allow `servers x pool_size` connections (plus headroom).
    pub pool_size: usize,
    /// How long to wait for a new connection to be established, and for a free pooled one,
    /// before the call fails (`connect_timeout` in the URL takes precedence for the former).
    pub timeout: Duration,
    /// A schema to keep the tables in, created when missing; `None` uses the connection's
    /// `search_path` (normally `public`). Lower-case letters, digits and `_` only.
    pub schema: Option<String>,
    /// Clock and id source.
    pub services: Services,
}

impl Default for PostgresOptions {
    fn default() -> PostgresOptions {
        PostgresOptions {
            pool_size: 16,
            timeout: Duration::from_secs(5),
            schema: None,
            services: Services::default(),
        }
    }
}

/// Whether `text` names a PostgreSQL database (`postgres://` or `postgresql://`) rather than
/// a file.
pub fn is_postgres_url(text: &str) -> bool {
    let lower = text.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// Rules in a PostgreSQL database. Cheap to clone; clones share the pool.
#[derive(Clone)]
pub struct PostgresRuleStore {
    pool: Pool,
    services: Services,
    schema: Option<Arc<str>>,
    /// The pool's wait and connect timeout, for error messages.
    timeout: Duration,
    /// Every eager rule as of one rules version, shared by clones.
    eager: Arc<Mutex<Option<EagerCache>>>,
    /// Takes the migration lock shared and reads the schema version; see the module docs.
    schema_check: Arc<str>,
    /// The schema version of a newer toolmem once a call has found one (0 until then): every
    /// later call is refused without asking the database. Shared by clones.
    newer_schema: Arc<std::sync::atomic::AtomicI64>,
}

/// The eager rules of every tool at one rules version. Session start reads them on every new
/// session while they change rarely: when the shared version has not moved, they come from
/// memory (one round trip for the version instead of every eager row).
#[derive(Debug)]
struct EagerCache {
    version: i64,
    rules: Arc<Vec<ToolMemoryRule>>,
    /// The rows the eager query found and could not read.
    unreadable: Unreadable,
}

impl std::fmt::Debug for PostgresRuleStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the URL or the pool's configuration: they may hold a password.
        f.debug_struct("PostgresRuleStore")
            .field("schema", &self.schema)
            .field("pool_size", &self.pool.status().max_size)
            .finish_non_exhaustive()
    }
}

/// Maps a driver error to the store's error, naming the step that failed.
pub(crate) fn pg_error(op: &'static str) -> impl FnOnce(tokio_postgres::Error) -> Error {
    move |source| Error::Backend {
        op,
        source: with_causes(&source).into(),
    }
}

/// An error's message with its causes: the driver's own message is often only the kind
/// ("error connecting to server"), and the reason ("Connection refused") is a cause, which an
/// RPC reply (one message, no chain) would otherwise lose. Causes already in the text are not
/// repeated.
fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(cause) = next {
        let part = cause.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        next = cause.source();
    }
    text
}

const RULE_COLUMNS: &str = "id, tool_name, rule, priority, source, tags, created_at, updated_at, \
     revoked_at, expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit";

impl PostgresRuleStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/dbname`, with any
    /// parameter tokio-postgres accepts) and brings its schema up to date.
    pub async fn open(url: &str, options: PostgresOptions) -> Result<PostgresRuleStore> {
        let store = PostgresRuleStore::connect(url, options)?;
        let mut client = store.client().await?;
        crate::schema::migrate(&mut client, store.schema.as_deref()).await?;
        Ok(store)
    }

    /// Looks at the database at `url` without changing it, for `toolmem doctor`: reads the
    /// schema version and every rule row, reporting those this version cannot read. Nothing is
    /// migrated or created; the rows of a schema newer than this build's are not checked.
    pub async fn inspect(url: &str, options: PostgresOptions) -> Result<Inspection> {
        let store = PostgresRuleStore::connect(url, options)?;
        let client = store.client().await?;
        // No `schema_version` table: toolmem has not set the schema up yet.
        let exists: bool = client
            .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])
            .await
            .and_then(|row| row.try_get(0))
            .map_err(store.failed("postgres: look for the schema"))?;
        let found = if exists {
            crate::schema::version(&client).await?
        } else {
            0
        };
        let (readable, unreadable) = if (1..=SCHEMA_VERSION).contains(&found) {
            let rows = client
                .query(&format!("SELECT {RULE_COLUMNS} FROM rules"), &[])
                .await
                .map_err(store.failed("postgres: read every rule"))?;
            let (readable, unreadable) = count_readable(rows.iter().map(read_row));
            (Some(readable), unreadable)
        } else if found == 0 {
            (Some(0), Vec::new())
        } else {
            (None, Vec::new())
        };
        drop(client);
        store.pool.close();
        Ok(Inspection {
            schema_found: found,
            schema_supported: SCHEMA_VERSION,
            integrity: Vec::new(),
            readable,
            unreadable,
        })
    }

    /// The store's pool for `url`, not yet connected.
    fn connect(url: &str, options: PostgresOptions) -> Result<PostgresRuleStore> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(pg_error("postgres: parse the database URL"))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(options.timeout);
        }
        if config.get_application_name().is_none() {
            config.application_name("toolmem");
        }
        // Limits the server enforces on every connection, so one stalled writer (a machine
        // gone silent between its write and its commit) cannot hold the rules' version row, and
        // with it every other server's writes, for the two hours of TCP's default keepalive: a
        // write waits at most 10 s for a lock, and an idle open transaction ends after 60 s. They
        // come first on the line, so options the URL gives win.
        let mut line =
            String::from("-c lock_timeout=10s -c idle_in_transaction_session_timeout=60s");
        if let Some(given) = config.get_options() {
            line.push(' ');
            line.push_str(given);
        }
        if let Some(schema) = &options.schema {
            check_schema_name(schema)?;
            // Last, so every pooled connection resolves the tables (and the trigger) in this
            // schema.
            line.push_str(&format!(" -c search_path={schema}"));
        }
        config.options(&line);
        // A peer that vanished without closing the connection is noticed in about a minute,
        // not two hours (the default idle time before the first probe), unless the URL says.
        if config.get_keepalives_idle() == DEFAULT_KEEPALIVES_IDLE {
            config.keepalives_idle(Duration::from_secs(30));
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                // `Fast` checks only that the connection is open; `Verified` would add a round
                // trip to every call. Connections found closed are dropped after a failure.
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(options.timeout))
            .create_timeout(Some(options.timeout))
            .recycle_timeout(Some(options.timeout))
            .build()
            .map_err(|err| Error::Backend {
                op: "postgres: build the connection pool",
                source: with_causes(&err).into(),
            })?;
        let schema_check = schema_check_sql(options.schema.as_deref()).into();
        Ok(PostgresRuleStore {
            pool,
            services: options.services,
            schema: options.schema.map(Arc::from),
            timeout: options.timeout,
            eager: Arc::default(),
            schema_check,
            newer_schema: Arc::default(),
        })
    }

    /// The schema version the database is at.
    pub async fn schema_version(&self) -> Result<i64> {
        crate::schema::version(&self.client().await?).await
    }

    /// The schema this store was opened with, if one was given.
    pub fn schema(&self) -> Option<&str> {
        self.schema.as_deref()
    }

    /// Drops the schema this store was opened with and everything in it, then closes the
    /// pool. For tests and benchmarks that made a schema of their own; a store opened without
    /// a schema refuses, so it can never drop `public`.
    pub async fn drop_schema(self) -> Result<()> {
        let Some(schema) = self.schema.clone() else {
            return Err(Error::Backend {
                op: "postgres: drop the schema",
                source: "the store was opened without a schema of its own".into(),
            });
        };
        let client = self.client().await?;
        client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
            .await
            .map_err(self.failed("postgres: drop the schema"))?;
        drop(client);
        self.pool.close();
        Ok(())
    }

    /// A pooled connection. Fails with what went wrong: the database refused the connection
    /// (`postgres: connect: ...`, with the server's reason), or nothing answered, or every
    /// pooled connection stayed busy, within the timeout (`postgres: get a connection: ...`).
    /// Every call starts here, so this is also where a newer schema, once seen, is refused.
    async fn client(&self) -> Result<deadpool_postgres::Client> {
        match self.newer_schema.load(std::sync::atomic::Ordering::Acquire) {
            0 => {}
            found => {
                return Err(Error::SchemaTooNew {
                    found,
                    supported: SCHEMA_VERSION,
                });
            }
        }
        self.pool.get().await.map_err(|err| match err {
            PoolError::Backend(source) => Error::Backend {
                op: "postgres: connect",
                source: with_causes(&source).into(),
            },
            PoolError::Timeout(kind) => {
                let reason = match kind {
                    TimeoutType::Wait => format!(
                        "all {} pooled connections stayed busy for {:?}",
                        self.pool.status().max_size,
                        self.timeout
                    ),
                    TimeoutType::Create => {
                        format!(
                            "the database did not accept a connection within {:?}",
                            self.timeout
                        )
                    }
                    TimeoutType::Recycle => {
                        format!(
                            "checking a pooled connection took longer than {:?}",
                            self.timeout
                        )
                    }
                };
                Error::Backend {
                    op: "postgres: get a connection",
                    source: reason.into(),
                }
            }
            other => Error::Backend {
                op: "postgres: get a connection",
                source: with_causes(&other).into(),
            },
        })
    }

    /// [`pg_error`], and after a lost connection also drops every pooled connection already
    /// known to be closed (after a database restart that is all of them), so the next call
    /// connects afresh instead of failing on another dead connection.
    fn failed(&self, op: &'static str) -> impl FnOnce(tokio_postgres::Error) -> Error + '_ {
        move |source| {
            if source.is_closed() || source.as_db_error().is_some_and(is_connection_fatal) {
                self.pool.retain(|client, _| !client.is_closed());
            }
            pg_error(op)(source)
        }
    }
}

/// The simple query a write runs first (see the module docs): the migration's advisory lock
/// (the key `schema::migrate` takes exclusively) taken shared until the transaction ends, then
/// the schema version, read by a statement of its own so that it sees a migration that
/// committed while the lock was awaited. Schema names are plain identifiers, checked at open.
fn schema_check_sql(schema: Option<&str>) -> String {
    let name = schema.map_or_else(|| "NULL".to_owned(), |schema| format!("'{schema}'"));
    format!(
        "SELECT pg_advisory_xact_lock_shared(hashtext('toolmem migrate ' || coalesce({name}::text, current_schema(), '')));
         SELECT coalesce(max(version), 0) FROM schema_version"
    )
}

impl PostgresRuleStore {
    /// Fails when a newer toolmem has migrated the schema; remembers it, so every later call
    /// is refused too.
    fn check_schema(&self, found: i64) -> Result<()> {
        if found > SCHEMA_VERSION {
            self.newer_schema
                .store(found, std::sync::atomic::Ordering::Release);
            return Err(Error::SchemaTooNew {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(())
    }

    /// The check every write makes inside its transaction before it writes (see the module
    /// docs). Sent on its first poll, so a caller that joins it with the write's first
    /// statement has it run first, in the same round trip.
    async fn refuse_newer_schema(
        &self,
        transaction: &tokio_postgres::Transaction<'_>,
    ) -> Result<()> {
        let messages = transaction
            .simple_query(&self.schema_check)
            .await
            .map_err(self.failed("postgres: check the schema version"))?;
        let found = messages
            .iter()
            .filter_map(|message| match message {
                SimpleQueryMessage::Row(row) => row.get(0),
                _ => None,
            })
            .next_back()
            .and_then(|text| text.parse::<i64>().ok())
            .ok_or_else(|| Error::Backend {
                op: "postgres: check the schema version",
                source: "the database returned no schema version".into(),
            })?;
        self.check_schema(found)
    }
}

/// A server-side error that ends the session (terminated by an administrator, a shutdown).
fn is_connection_fatal(error: &tokio_postgres::error::DbError) -> bool {
    error.code().code().starts_with("57P") || error.code().code().starts_with("08")
}

/// Schema names go into SQL text and the connection options, so only plain identifiers.
fn check_schema_name(schema: &str) -> Result<()> {
    let plain = !schema.is_empty()
        && schema.len() <= 63
        && schema.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && schema
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if plain {
        Ok(())
    } else {
        Err(Error::Backend {
            op: "postgres: schema name",
            source: format!(
                "`{schema}` must be 1-63 lower-case letters, digits or `_`, not starting with a digit"
            )
            .into(),
        })
    }
}

fn saturating_i64(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// Decodes one rule row (columns in [`RULE_COLUMNS`] order), or says why it cannot.
fn read_row(row: &Row) -> StoredRow {
    parse_row(row).map_err(|reason| {
        let text = |index: usize| row.try_get::<_, String>(index).unwrap_or_default();
        UnreadableRow {
            tool_name: text(1),
            id: text(0),
            reason,
        }
    })
}

/// Decodes one row; errors name the column, never its value.
fn parse_row(row: &Row) -> std::result::Result<ToolMemoryRule, String> {
    let text = |index: usize| -> std::result::Result<&str, String> {
        row.try_get::<_, &str>(index)
            .map_err(|_| format!("column {index}"))
    };
    let optional_text = |index: usize, field: &str| -> std::result::Result<Option<&str>, String> {
        row.try_get::<_, Option<&str>>(index)
            .map_err(|_| not_readable(field, "text"))
    };
    let timestamp = |index: usize, field: &str| -> std::result::Result<Option<Timestamp>, String> {
        optional_text(index, field)?
            .map(|text| Timestamp::parse(text).map_err(|_| not_readable(field, "a timestamp")))
            .transpose()
    };
    let flag = |index: usize, field: &str| -> std::result::Result<bool, String> {
        row.try_get::<_, bool>(index)
            .map_err(|_| not_readable(field, "a boolean"))
    };
    let instant = |index: usize| -> std::result::Result<Timestamp, String> {
        Timestamp::parse(text(index)?).map_err(|_| format!("column {index}"))
    };
    rule_from_columns(text, instant, || {
        Ok(RuleMeta {
            revoked_at: timestamp(8, "revoked_at")?,
            expires_at: timestamp(9, "expires_at")?,
            retire_after_successes: row
                .try_get::<_, Option<i64>>(10)
                .map_err(|_| not_readable("retire_after_successes", "an integer"))?
                .map(|count| u64::try_from(count).unwrap_or_default()),
            proposed: flag(11, "proposed")?,
            constraint: optional_text(12, "constraint")?
                .map(|text| {
                    RawJson::from_stored(text.to_owned())
                        .map_err(|_| not_readable("constraint", "JSON"))
                })
                .transpose()?,
            constraint_explicit: flag(13, "constraint_explicit")?,
        })
    })
}

/// A readable row as a rule, an unreadable one as the error that says so.
fn readable(row: Option<StoredRow>) -> Result<Option<ToolMemoryRule>> {
    match row {
        None => Ok(None),
        Some(Ok(rule)) => Ok(Some(rule)),
        Some(Err(row)) => Err(Error::unreadable(row)),
    }
}

/// Reads one rule row, locking it for the rest of the transaction when `lock` is set.
async fn fetch_row(
    client: &impl GenericClient,
    tool_name: &str,
    id: &str,
    lock: bool,
) -> std::result::Result<Option<StoredRow>, tokio_postgres::Error> {
    let sql = if lock {
        "SELECT id, tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, \
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit \
         FROM rules WHERE tool_name = $1 AND id = $2 FOR UPDATE"
    } else {
        "SELECT id, tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, \
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit \
         FROM rules WHERE tool_name = $1 AND id = $2"
    };
    let statement = client.prepare_cached(sql).await?;
    let row = client.query_opt(&statement, &[&tool_name, &id]).await?;
    Ok(row.as_ref().map(read_row))
}

/// The column values of a rule, owned, in the order of [`RULE_COLUMNS`] plus `updated_us`.
struct RuleValues {
    tags: String,
    created_at: String,
    updated_at: String,
    updated_us: i64,
    revoked_at: Option<String>,
    expires_at: Option<String>,
    retire_after_successes: Option<i64>,
}

impl RuleValues {
    fn of(rule: &ToolMemoryRule) -> RuleValues {
        RuleValues {
            tags: serde_json::to_string(&rule.tags).expect("tags always serialise"),
            created_at: rule.created_at.to_rfc3339(),
            updated_at: rule.updated_at.to_rfc3339(),
            updated_us: rule.updated_at.unix_micros(),
            revoked_at: rule.meta.revoked_at.map(|at| at.to_rfc3339()),
            expires_at: rule.meta.expires_at.map(|at| at.to_rfc3339()),
            retire_after_successes: rule.meta.retire_after_successes.map(saturating_i64),
        }
    }
}

/// Writes `rule` over its existing row (`exists`) or as a new one. `false` when the insert
/// found a row another writer created meanwhile; the caller then locks that row and retries.
async fn write_rule(
    client: &impl GenericClient,
    rule: &ToolMemoryRule,
    exists: bool,
) -> std::result::Result<bool, tokio_postgres::Error> {
    let values = RuleValues::of(rule);
    let sql = if exists {
        "UPDATE rules SET rule = $3, priority = $4, source = $5, tags = $6, created_at = $7,
             updated_at = $8, updated_us = $9, revoked_at = $10, expires_at = $11,
             retire_after_successes = $12, proposed = $13, constraint_json = $14,
             constraint_explicit = $15
         WHERE id = $1 AND tool_name = $2"
    } else {
        "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at,
             updated_us, revoked_at, expires_at, retire_after_successes, proposed, constraint_json,
             constraint_explicit)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (tool_name, id) DO NOTHING"
    };
    let statement = client.prepare_cached(sql).await?;
    let constraint = rule.meta.constraint.as_ref().map(RawJson::as_str);
    let params: [&(dyn ToSql + Sync); 15] = [
        &rule.id,
        &rule.tool_name,
        &rule.rule,
        &rule.priority.as_str(),
        &rule.source.as_str(),
        &values.tags,
        &values.created_at,
        &values.updated_at,
        &values.updated_us,
        &values.revoked_at,
        &values.expires_at,
        &values.retire_after_successes,
        &rule.meta.proposed,
        &constraint,
        &rule.meta.constraint_explicit,
    ];
    Ok(client.execute(&statement, &params).await? == 1)
}

/// Appends a history line (inside the caller's transaction, when it has one) and returns its
/// `seq`.
async fn insert_history(
    client: &impl GenericClient,
    event: &HistoryEvent,
    before: Option<&ToolMemoryRule>,
    at: Timestamp,
) -> std::result::Result<i64, tokio_postgres::Error> {
    let origin = serde_json::to_string(&event.origin).expect("origins always serialise");
    let before_json = before.map(ToolMemoryRule::to_compact_json);
    let after_json = event.rule.as_ref().map(ToolMemoryRule::to_compact_json);
    let tool_name = normalize_tool_name(&event.tool_name);
    let statement = client
        .prepare_cached(
            "INSERT INTO rule_history (at, tool_name, rule_id, action, origin, before_json, after_json, detail)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING seq",
        )
        .await?;
    let row = client
        .query_one(
            &statement,
            &[
                &at.to_rfc3339(),
                &tool_name,
                &event.rule_id,
                &event.action.as_str(),
                &origin,
                &before_json,
                &after_json,
                &event.detail,
            ],
        )
        .await?;
    row.try_get(0)
}

fn read_history_row(row: &Row) -> std::result::Result<HistoryEntry, String> {
    let seq = row.try_get(0).map_err(|err| err.to_string())?;
    history_from_columns(seq, |index| {
        row.try_get::<_, Option<String>>(index)
            .map_err(|err| err.to_string())
    })
}

/// tokio-postgres's default idle time before the first keepalive probe.
const DEFAULT_KEEPALIVES_IDLE: Duration = Duration::from_secs(2 * 60 * 60);

/// How often a create retries after losing the race for a new id to another writer. Each retry
/// locks the row that writer created, so a second loss needs that row deleted meanwhile.
const CREATE_ATTEMPTS: usize = 8;

impl PostgresRuleStore {
    /// Every readable rule of one tool, revoked ones included, in listing order, and the rows
    /// of the tool this version cannot read.
    async fn rules_of(&self, tool_name: &str) -> Result<(Vec<ToolMemoryRule>, Vec<UnreadableRow>)> {
        let tool_name = normalize_tool_name(tool_name);
        let client = self.client().await?;
        let statement = client
            .prepare_cached(&format!(
                "SELECT {RULE_COLUMNS} FROM rules WHERE tool_name = $1"
            ))
            .await
            .map_err(self.failed("postgres: prepare list"))?;
        let rows = client
            .query(&statement, &[&tool_name])
            .await
            .map_err(self.failed("postgres: list rules"))?;
        let (mut rules, unreadable) = keep_readable(rows.iter().map(read_row));
        rules.sort_by(compare_for_listing);
        Ok((rules, unreadable))
    }
}

#[async_trait]
impl RuleStore for PostgresRuleStore {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        let id = put
            .id
            .clone()
            .unwrap_or_else(|| self.services.ids.next_id());
        let origin = put.origin.clone();
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin put"))?;
        for attempt in 0..CREATE_ATTEMPTS {
            let row = self
                .locked_row(&transaction, &put.tool_name, &id, attempt == 0)
                .await?;
            let existing = readable(row)?;
            // Read the clock once the row is locked, so updated_at follows commit order.
            let rule = put
                .clone()
                .build(id.clone(), existing.as_ref(), self.services.clock.now());
            let written = write_rule(&transaction, &rule, existing.is_some())
                .await
                .map_err(self.failed("postgres: write rule"))?;
            if !written {
                // Another server created this id after our read; lock and update its row.
                continue;
            }
            let event = HistoryEvent::written(&rule, existing.as_ref(), origin);
            insert_history(&transaction, &event, existing.as_ref(), rule.updated_at)
                .await
                .map_err(self.failed("postgres: write history"))?;
            transaction
                .commit()
                .await
                .map_err(self.failed("postgres: commit put"))?;
            return Ok(rule);
        }
        Err(Error::Backend {
            op: "postgres: put",
            source: format!(
                "rule {}/{id} was created and deleted by other writers {CREATE_ATTEMPTS} times during this put",
                put.tool_name
            )
            .into(),
        })
    }

    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()> {
        rule.validate()?;
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin import"))?;
        for attempt in 0..CREATE_ATTEMPTS {
            let row = self
                .locked_row(&transaction, &rule.tool_name, &rule.id, attempt == 0)
                .await?;
            let exists = row.is_some();
            // An import replaces what is there, even a row this version cannot read.
            let before = row.and_then(Result::ok);
            let written = write_rule(&transaction, &rule, exists)
                .await
                .map_err(self.failed("postgres: write rule"))?;
            if !written {
                continue;
            }
            let event = HistoryEvent::written(&rule, before.as_ref(), origin.clone());
            insert_history(
                &transaction,
                &event,
                before.as_ref(),
                self.services.clock.now(),
            )
            .await
            .map_err(self.failed("postgres: write history"))?;
            return transaction
                .commit()
                .await
                .map_err(self.failed("postgres: commit import"));
        }
        Err(Error::Backend {
            op: "postgres: import",
            source: format!(
                "rule {}/{} was created and deleted by other writers {CREATE_ATTEMPTS} times during this import",
                rule.tool_name, rule.id
            )
            .into(),
        })
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        let client = self.client().await?;
        let row = fetch_row(&client, &tool_name, id, false)
            .await
            .map_err(self.failed("postgres: read rule"))?;
        readable(row)
    }

    async fn list(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.list_with_unreadable(tool_name).await?.rules)
    }

    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.rules_of(tool_name).await?.0.into())
    }

    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        let (mut rules, unreadable) = self.rules_of(tool_name).await?;
        rules.retain(|rule| rule.meta.revoked_at.is_none());
        Ok(ToolRules {
            rules: rules.into(),
            unreadable: Unreadable::from(unreadable),
        })
    }

    /// One scan of the whole table, so a row is found whatever its tool name holds.
    async fn unreadable_rows(&self) -> Result<Vec<UnreadableRow>> {
        let client = self.client().await?;
        let rows = client
            .query(&format!("SELECT {RULE_COLUMNS} FROM rules"), &[])
            .await
            .map_err(self.failed("postgres: read every rule"))?;
        Ok(keep_readable(rows.iter().map(read_row)).1)
    }

    /// Applies `change` to a stored rule in one transaction with its history line; records
    /// nothing when `change` reports no change.
    async fn change_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
        change: RuleChange,
    ) -> Result<Option<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin change"))?;
        let row = self.locked_row(&transaction, &tool_name, id, true).await?;
        // Dropping the transaction rolls it back: nothing was written.
        let Some(before) = readable(row)? else {
            return Ok(None);
        };
        let now = self.services.clock.now();
        let mut after = before.clone();
        if !change(&mut after.meta, now) {
            return Ok(Some(before));
        }
        write_rule(&transaction, &after, true)
            .await
            .map_err(self.failed("postgres: write rule"))?;
        let event = HistoryEvent::changed(&after, action, origin.clone());
        insert_history(&transaction, &event, Some(&before), now)
            .await
            .map_err(self.failed("postgres: write history"))?;
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit change"))?;
        Ok(Some(after))
    }

    /// Removes a rule in one transaction with its history line. An unreadable row can still be
    /// removed by an explicit call; its history line then has no `before`.
    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool> {
        let tool_name = normalize_tool_name(tool_name);
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin delete"))?;
        let before = self
            .locked_row(&transaction, &tool_name, id, true)
            .await?
            .and_then(Result::ok);
        let statement = transaction
            .prepare_cached("DELETE FROM rules WHERE tool_name = $1 AND id = $2")
            .await
            .map_err(self.failed("postgres: prepare delete"))?;
        let deleted = transaction
            .execute(&statement, &[&tool_name, &id])
            .await
            .map_err(self.failed("postgres: delete rule"))?;
        if deleted > 0 {
            let event = HistoryEvent::removed(&tool_name, id, action, origin.clone());
            insert_history(
                &transaction,
                &event,
                before.as_ref(),
                self.services.clock.now(),
            )
            .await
            .map_err(self.failed("postgres: write history"))?;
        }
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit delete"))?;
        Ok(deleted > 0)
    }

    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        let tool_name = normalize_tool_name(tool_name);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "SELECT seq, at, tool_name, rule_id, action, origin, before_json, after_json, detail
                 FROM rule_history
                 WHERE tool_name = $1 AND ($2::text IS NULL OR rule_id = $2)
                   AND ($3::bigint IS NULL OR seq < $3)
                 ORDER BY seq DESC LIMIT $4",
            )
            .await
            .map_err(self.failed("postgres: prepare history"))?;
        let rows = client
            .query(&statement, &[&tool_name, &id, &before, &limit])
            .await
            .map_err(self.failed("postgres: read history"))?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                read_history_row(row)
                    .map_err(|reason| tracing::warn!(reason, "skipping an unreadable history line"))
                    .ok()
            })
            .collect())
    }

    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry> {
        tool_memory_core::validate_tool_name(&event.tool_name)?;
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin history"))?;
        let at = self.services.clock.now();
        let (_, seq) = tokio::try_join!(self.refuse_newer_schema(&transaction), async {
            insert_history(&transaction, &event, event.rule.as_ref(), at)
                .await
                .map_err(self.failed("postgres: write history"))
        })?;
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit history"))?;
        let before = event.rule.clone();
        Ok(event.into_entry(seq, at, before))
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT DISTINCT tool_name FROM rules WHERE tool_name <> $1")
            .await
            .map_err(self.failed("postgres: prepare tool names"))?;
        let rows = client
            .query(&statement, &[&UNSCOPED_TOOL])
            .await
            .map_err(self.failed("postgres: list tool names"))?;
        let mut names = rows
            .iter()
            .map(|row| row.try_get::<_, String>(0))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(self.failed("postgres: read tool names"))?;
        // Sorted here, by bytes like the other stores, not by the database's collation.
        names.sort();
        Ok(names)
    }

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let filter = prompt_tool_filter(tools);
        let wanted = |tool_name: &String| {
            filter
                .as_ref()
                .is_none_or(|names| names.contains(tool_name))
        };
        let (rules, unreadable_rows) = self.eager_rules().await?;
        let rules = rules
            .iter()
            .filter(|rule| wanted(&rule.tool_name))
            .cloned()
            .collect();
        let unreadable = unreadable_rows
            .iter()
            .filter(|row| wanted(&row.tool_name))
            .cloned()
            .collect();
        Ok(select_for_prompt(
            active_at(rules, self.services.clock.now()),
            max_rules,
            unreadable,
        ))
    }

    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats> {
        let name = tool_memory_core::validate_tool_name(&delta.tool_name)?;
        let mut client = self.client().await?;
        let transaction = client
            .transaction()
            .await
            .map_err(self.failed("postgres: begin statistics"))?;
        // Make sure the row exists, then lock it: concurrent turns on several servers add up.
        // The schema check runs first; should it refuse, the insert behind it in the same
        // round trip is rolled back with the transaction.
        tokio::try_join!(self.refuse_newer_schema(&transaction), async {
            transaction
                .execute(
                    "INSERT INTO tool_stats (tool_name, calls, successes, failures)
                     VALUES ($1, 0, 0, 0) ON CONFLICT (tool_name) DO NOTHING",
                    &[&name],
                )
                .await
                .map_err(self.failed("postgres: create statistics"))
        })?;
        let row = transaction
            .query_one(
                "SELECT calls, successes, failures, last_failure_class, last_seen
                 FROM tool_stats WHERE tool_name = $1 FOR UPDATE",
                &[&name],
            )
            .await
            .map_err(self.failed("postgres: read statistics"))?;
        let mut totals = stats_from_row(&name, &row)?;
        totals.add(delta);
        transaction
            .execute(
                "UPDATE tool_stats SET calls = $2, successes = $3, failures = $4,
                     last_failure_class = $5, last_seen = $6
                 WHERE tool_name = $1",
                &[
                    &name,
                    &saturating_i64(totals.calls),
                    &saturating_i64(totals.successes),
                    &saturating_i64(totals.failures),
                    &totals.last_failure_class,
                    &totals.last_seen.map(|seen| seen.to_rfc3339()),
                ],
            )
            .await
            .map_err(self.failed("postgres: write statistics"))?;
        transaction
            .commit()
            .await
            .map_err(self.failed("postgres: commit statistics"))?;
        Ok(totals)
    }

    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        let name = normalize_tool_name(tool_name);
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT calls, successes, failures, last_failure_class, last_seen
                 FROM tool_stats WHERE tool_name = $1",
                &[&name],
            )
            .await
            .map_err(self.failed("postgres: read statistics"))?;
        row.map(|row| stats_from_row(&name, &row)).transpose()
    }

    async fn version(&self) -> Result<Option<u64>> {
        let client = self.client().await?;
        let version = self.rules_version(&client).await?;
        Ok(Some(version.cast_unsigned()))
    }
}

impl PostgresRuleStore {
    /// The shared rules version: changes with every committed change of a rule, by any server.
    /// Read with the schema version, in the same statement, so that a guard check or a session
    /// start refuses a schema a newer toolmem migrated to.
    async fn rules_version(&self, client: &deadpool_postgres::Client) -> Result<i64> {
        let statement = client
            .prepare_cached(
                "SELECT (SELECT version FROM rules_version WHERE id = 1),
                        (SELECT coalesce(max(version), 0) FROM schema_version)",
            )
            .await
            .map_err(self.failed("postgres: prepare rules version"))?;
        let (version, schema) = client
            .query_one(&statement, &[])
            .await
            .and_then(|row| Ok((row.try_get::<_, i64>(0)?, row.try_get::<_, i64>(1)?)))
            .map_err(self.failed("postgres: read rules version"))?;
        self.check_schema(schema)?;
        Ok(version)
    }

    /// Locks and reads one rule row inside a write's transaction; with `check`, the write's
    /// schema check runs first, in the same round trip.
    async fn locked_row(
        &self,
        transaction: &deadpool_postgres::Transaction<'_>,
        tool_name: &str,
        id: &str,
        check: bool,
    ) -> Result<Option<StoredRow>> {
        let read = async {
            fetch_row(transaction, tool_name, id, true)
                .await
                .map_err(self.failed("postgres: read rule"))
        };
        if check {
            Ok(tokio::try_join!(self.refuse_newer_schema(transaction), read)?.1)
        } else {
            read.await
        }
    }

    /// Every eager (high or critical), unrevoked rule and the tools of unreadable eager rows,
    /// from the cache while the rules version is unchanged. The version is read before the
    /// rows, so what is cached is at least as new as its tag (one extra refresh at worst),
    /// never older.
    async fn eager_rules(&self) -> Result<(Arc<Vec<ToolMemoryRule>>, Unreadable)> {
        let client = self.client().await?;
        let version = self.rules_version(&client).await?;
        if let Some(cache) = self
            .eager
            .lock()
            .as_ref()
            .filter(|cache| cache.version == version)
        {
            return Ok((Arc::clone(&cache.rules), Arc::clone(&cache.unreadable)));
        }
        // `priority <> 'normal'` (not `IN ('high','critical')`) so that a priority written by a
        // newer version is read, found unreadable, and counted rather than ignored.
        let statement = client
            .prepare_cached(&format!(
                "SELECT {RULE_COLUMNS} FROM rules WHERE priority <> 'normal' AND revoked_at IS NULL"
            ))
            .await
            .map_err(self.failed("postgres: prepare prompt rules"))?;
        let rows = client
            .query(&statement, &[])
            .await
            .map_err(self.failed("postgres: read prompt rules"))?;
        let (rules, unreadable) = keep_readable(rows.iter().map(read_row));
        let rules = Arc::new(rules);
        let unreadable = Unreadable::from(unreadable);
        *self.eager.lock() = Some(EagerCache {
            version,
            rules: Arc::clone(&rules),
            unreadable: Arc::clone(&unreadable),
        });
        Ok((rules, unreadable))
    }
}

fn stats_from_row(tool_name: &str, row: &Row) -> Result<ToolStats> {
    let count = |index: usize| -> Result<u64> {
        let value: i64 = row
            .try_get(index)
            .map_err(pg_error("postgres: read statistics"))?;
        Ok(u64::try_from(value).unwrap_or_default())
    };
    let last_seen: Option<String> = row
        .try_get(4)
        .map_err(pg_error("postgres: read statistics"))?;
    Ok(ToolStats {
        tool_name: tool_name.to_owned(),
        calls: count(0)?,
        successes: count(1)?,
        failures: count(2)?,
        last_failure_class: row
            .try_get(3)
            .map_err(pg_error("postgres: read statistics"))?,
        last_seen: last_seen.as_deref().map(Timestamp::parse).transpose()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_postgres_urls_only() {
        assert!(is_postgres_url("postgres://u@h/db"));
        assert!(is_postgres_url("PostgreSQL://u@h:5432/db"));
        assert!(!is_postgres_url("/var/lib/toolmem/rules.sqlite3"));
        assert!(!is_postgres_url("postgres.sqlite3"));
    }

    #[test]
    fn schema_names_are_plain_identifiers() {
        assert!(check_schema_name("toolmem_test_1").is_ok());
        for bad in ["", "1abc", "Public", "a;drop", "a\"b", &"a".repeat(64)] {
            let err = check_schema_name(bad).unwrap_err();
            assert!(err.to_string().contains("schema name"), "{err}");
        }
    }
}
