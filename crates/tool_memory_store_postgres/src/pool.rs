//! The `PostgresRuleStore` type and its options, opening it (the pool, the schema, `inspect`),
//! and what every call goes through: a pooled client, and the check that no newer toolmem has
//! migrated the schema.

use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{
    Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime, TimeoutType,
};
use parking_lot::Mutex;
use tokio_postgres::{NoTls, SimpleQueryMessage};
use tool_memory_core::ToolMemoryRule;
use tool_memory_store::backend::count_readable;
use tool_memory_store::{Error, Inspection, Result, Services, Unreadable};

use crate::codec::*;
use crate::error::{pg_error, with_causes};
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

/// Rules in a PostgreSQL database. Cheap to clone; clones share the pool.
#[derive(Clone)]
pub struct PostgresRuleStore {
    pub(crate) pool: Pool,
    pub(crate) services: Services,
    pub(crate) schema: Option<Arc<str>>,
    /// The pool's wait and connect timeout, for error messages.
    pub(crate) timeout: Duration,
    /// Every eager rule as of one rules version, shared by clones.
    pub(crate) eager: Arc<Mutex<Option<EagerCache>>>,
    /// Takes the migration lock shared and reads the schema version; see the module docs.
    pub(crate) schema_check: Arc<str>,
    /// The schema version of a newer toolmem once a call has found one (0 until then): every
    /// later call is refused without asking the database. Shared by clones.
    pub(crate) newer_schema: Arc<std::sync::atomic::AtomicI64>,
}

/// The eager rules of every tool at one rules version. Session start reads them on every new
/// session while they change rarely: when the shared version has not moved, they come from
/// memory (one round trip for the version instead of every eager row).
#[derive(Debug)]
pub(crate) struct EagerCache {
    pub(crate) version: i64,
    pub(crate) rules: Arc<Vec<ToolMemoryRule>>,
    /// The rows the eager query found and could not read.
    pub(crate) unreadable: Unreadable,
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
    pub(crate) fn connect(url: &str, options: PostgresOptions) -> Result<PostgresRuleStore> {
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
    pub(crate) async fn client(&self) -> Result<deadpool_postgres::Client> {
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
    pub(crate) fn failed(
        &self,
        op: &'static str,
    ) -> impl FnOnce(tokio_postgres::Error) -> Error + '_ {
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
pub(crate) fn schema_check_sql(schema: Option<&str>) -> String {
    let name = schema.map_or_else(|| "NULL".to_owned(), |schema| format!("'{schema}'"));
    format!(
        "SELECT pg_advisory_xact_lock_shared(hashtext('toolmem migrate ' || coalesce({name}::text, current_schema(), '')));
         SELECT coalesce(max(version), 0) FROM schema_version"
    )
}

impl PostgresRuleStore {
    /// Fails when a newer toolmem has migrated the schema; remembers it, so every later call
    /// is refused too.
    pub(crate) fn check_schema(&self, found: i64) -> Result<()> {
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
    pub(crate) async fn refuse_newer_schema(
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
pub(crate) fn is_connection_fatal(error: &tokio_postgres::error::DbError) -> bool {
    error.code().code().starts_with("57P") || error.code().code().starts_with("08")
}

/// Schema names go into SQL text and the connection options, so only plain identifiers.
pub(crate) fn check_schema_name(schema: &str) -> Result<()> {
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

/// tokio-postgres's default idle time before the first keepalive probe.
pub(crate) const DEFAULT_KEEPALIVES_IDLE: Duration = Duration::from_secs(2 * 60 * 60);
