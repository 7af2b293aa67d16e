//! Opening a store: a file (read-write, or read-only where it cannot be written), a private
//! in-memory database, and `inspect`, which looks at a file without changing it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use rusqlite::{Connection, OpenFlags};
use tool_memory_store::backend::count_readable;
use tool_memory_store::{Error, Inspection, Result};

use crate::codec::{ALL_RULES, query_rows};
use crate::connections::{Connections, Kind, READERS};
use crate::error::sqlite;
use crate::store::{Durability, Footprint, SqliteOptions, SqliteRuleStore};
use crate::{checkpoint, schema};

impl SqliteRuleStore {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// A file this process may not write (a read-only file system, a file it lacks write
    /// permission for) opens read-only: reads work, and every write fails with SQLite's
    /// "attempt to write a readonly database". Its schema must already be current.
    pub fn open(path: impl AsRef<Path>, options: SqliteOptions) -> Result<SqliteRuleStore> {
        let path = path.as_ref();
        let connection = Connection::open(path).map_err(sqlite("open database"))?;
        // SQLite falls back to reading a file it cannot open for writing, without an error.
        if connection
            .is_readonly(rusqlite::MAIN_DB)
            .map_err(sqlite("open database"))?
        {
            drop(connection);
            return SqliteRuleStore::open_read_only(path, options);
        }
        SqliteRuleStore::configure(connection, Some(path.to_owned()), options)
    }

    fn open_read_only(path: &Path, options: SqliteOptions) -> Result<SqliteRuleStore> {
        let open = |immutable: bool| read_only_connection(path, options.busy_timeout, immutable);
        let (writer, immutable) = first_read_only_connection(path, options.busy_timeout)?;
        let found = schema::user_version(&writer)?;
        if found != schema::SCHEMA_VERSION {
            return Err(Error::ReadOnlySchema {
                found,
                supported: schema::SCHEMA_VERSION,
            });
        }
        let (kind, readers) = match options.footprint {
            Footprint::Server => (Kind::Pooled, READERS),
            Footprint::OneShot => (Kind::OneShot, 0),
        };
        let readers = (0..readers)
            .map(|_| open(immutable).map(Mutex::new))
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(sqlite("open reader"))?;
        tracing::warn!("the database file is read-only: rules can be read, every write fails");
        let inline_reads = immutable || journal_mode(&writer)?.eq_ignore_ascii_case("wal");
        Ok(SqliteRuleStore {
            connections: Arc::new(Connections::new(kind, writer, readers, None, inline_reads)),
            services: options.services,
            path: Some(path.to_owned()),
            read_only: true,
        })
    }

    /// Looks at the database at `path` without changing it, for `toolmem doctor`: opens it
    /// read-only (a missing file is an error, never created), reads the schema version, runs
    /// SQLite's integrity check and reads every rule row, reporting those this version cannot
    /// read. Nothing is migrated; rows of a schema before version 5 (which lacks the columns
    /// this version reads) or after this build's are not checked.
    pub fn inspect(path: impl AsRef<Path>) -> Result<Inspection> {
        let path = path.as_ref();
        let (connection, _) =
            first_read_only_connection(path, SqliteOptions::default().busy_timeout)?;
        let found = schema::user_version(&connection)?;
        let integrity = {
            let mut statement = connection
                .prepare("PRAGMA integrity_check(20)")
                .map_err(sqlite("integrity check"))?;
            let lines = statement
                .query_map([], |row| row.get::<_, String>(0))
                .map_err(sqlite("integrity check"))?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(sqlite("integrity check"))?;
            lines.into_iter().filter(|line| line != "ok").collect()
        };
        // Schema 5 added the last of the columns a row is read from; 6 to 8 changed their
        // layout and form, never their meaning, and the reader takes every form.
        let (readable, unreadable) = if (5..=schema::SCHEMA_VERSION).contains(&found) {
            let rows = query_rows(&connection, ALL_RULES, [])?;
            let (readable, unreadable) = count_readable(rows);
            (Some(readable), unreadable)
        } else if found == 0 {
            // Not set up yet: toolmem creates its schema when it first opens the file.
            (Some(0), Vec::new())
        } else {
            (None, Vec::new())
        };
        Ok(Inspection {
            schema_found: found,
            schema_supported: schema::SCHEMA_VERSION,
            integrity,
            readable,
            unreadable,
        })
    }

    /// A private in-memory database. It has no WAL and no durability; for tests and tools.
    pub fn open_in_memory(options: SqliteOptions) -> Result<SqliteRuleStore> {
        let connection = Connection::open_in_memory().map_err(sqlite("open database"))?;
        SqliteRuleStore::configure(connection, None, options)
    }

    fn configure(
        mut connection: Connection,
        path: Option<PathBuf>,
        options: SqliteOptions,
    ) -> Result<SqliteRuleStore> {
        connection
            .busy_timeout(options.busy_timeout)
            .map_err(sqlite("set busy timeout"))?;
        // In memory nobody else holds a lock to wait for.
        let mut inline_reads = true;
        if path.is_some() {
            let mode: String = retry_while_busy(options.busy_timeout, || {
                connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            })
            .map_err(sqlite("enable WAL"))?;
            inline_reads = mode.eq_ignore_ascii_case("wal");
            if !inline_reads {
                tracing::warn!(
                    mode,
                    "SQLite refused WAL; concurrent readers will wait on writers"
                );
            }
        }
        let synchronous = match options.durability {
            Durability::Normal => "NORMAL",
            Durability::Full => "FULL",
        };
        connection
            .pragma_update(None, "synchronous", synchronous)
            .map_err(sqlite("set synchronous"))?;

        let kind = match (&path, options.footprint) {
            (None, _) => Kind::InMemory,
            (Some(_), Footprint::Server) => Kind::Pooled,
            (Some(_), Footprint::OneShot) => Kind::OneShot,
        };
        if kind == Kind::OneShot {
            // No write lock for a file already at this version: a hook opening the file while
            // a server writes to it would otherwise queue behind that write to learn nothing.
            schema::migrate_when_behind(&mut connection)?;
        } else {
            schema::migrate(&mut connection)?;
        }
        let mut readers = Vec::new();
        let mut checkpointer = None;
        if let Some(path) = path.as_ref().filter(|_| kind == Kind::Pooled) {
            checkpointer = Some(checkpoint::Checkpointer::start(
                path,
                &mut connection,
                options.busy_timeout,
                synchronous,
            )?);
            for _ in 0..READERS {
                let reader = Connection::open(path).map_err(sqlite("open reader"))?;
                reader
                    .busy_timeout(options.busy_timeout)
                    .map_err(sqlite("set busy timeout"))?;
                // A reader never writes; SQLite enforces it.
                reader
                    .pragma_update(None, "query_only", true)
                    .map_err(sqlite("make reader query-only"))?;
                readers.push(Mutex::new(reader));
            }
        }
        Ok(SqliteRuleStore {
            connections: Arc::new(Connections::new(
                kind,
                connection,
                readers,
                checkpointer,
                inline_reads,
            )),
            services: options.services,
            path,
            read_only: false,
        })
    }

    /// The database file, or `None` for an in-memory store.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The schema version the database is at.
    pub fn schema_version(&self) -> Result<i64> {
        schema::user_version(&self.connections.writer.lock())
    }

    /// Runs `PRAGMA integrity_check` and returns its first line (`ok` when healthy).
    pub fn integrity_check(&self) -> Result<String> {
        self.connections
            .writer
            .lock()
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .map_err(sqlite("integrity check"))
    }
}

/// Runs `attempt` until it is not refused as busy or `timeout` has passed. Switching the
/// journal mode takes an exclusive lock without calling the busy handler, so several processes
/// opening a new file at once (one of them migrating it) can refuse each other.
pub(crate) fn retry_while_busy<T>(
    timeout: Duration,
    mut attempt: impl FnMut() -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        match attempt() {
            Err(rusqlite::Error::SqliteFailure(failure, _))
                if failure.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// A read-only connection to `path` (never created), as immutable when asked.
pub(crate) fn read_only_connection(
    path: &Path,
    busy_timeout: Duration,
    immutable: bool,
) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(read_only_uri(path, immutable), flags)?;
    connection.busy_timeout(busy_timeout)?;
    // Opening is lazy; the first read tells whether the file can be read like this.
    connection.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))?;
    Ok(connection)
}

/// The first read-only connection to `path`, and whether it reads the file as immutable.
///
/// A WAL database is read through its index file beside it. Where that cannot be created,
/// SQLite may read the file as immutable, without the index and the log: sound only where
/// nobody can change the file (a read-only file system) and the log holds no commits the file
/// lacks. Anywhere else an immutable reader would silently miss rules.
pub(crate) fn first_read_only_connection(
    path: &Path,
    busy_timeout: Duration,
) -> Result<(Connection, bool)> {
    match read_only_connection(path, busy_timeout, false) {
        Ok(connection) => Ok((connection, false)),
        Err(err) if on_read_only_file_system(path) => {
            if has_log(path) {
                return Err(Error::ReadOnlyLog);
            }
            tracing::debug!(%err, "reading the database as immutable");
            let connection = read_only_connection(path, busy_timeout, true)
                .map_err(sqlite("open database read-only"))?;
            Ok((connection, true))
        }
        Err(err) => Err(sqlite("open database read-only")(err)),
    }
}

/// Whether `path` lies on a file system mounted read-only, where nobody can change the file.
#[cfg(unix)]
pub(crate) fn on_read_only_file_system(path: &Path) -> bool {
    rustix::fs::statvfs(path)
        .is_ok_and(|stat| stat.f_flag.contains(rustix::fs::StatVfsMountFlags::RDONLY))
}

#[cfg(not(unix))]
pub(crate) fn on_read_only_file_system(_path: &Path) -> bool {
    false
}

/// Whether the database has a non-empty write-ahead log beside it, which may hold commits the
/// main file does not.
pub(crate) fn has_log(path: &Path) -> bool {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    std::fs::metadata(log).is_ok_and(|metadata| metadata.len() > 0)
}

/// The `file:` URI that opens `path` read-only, as immutable when asked.
pub(crate) fn read_only_uri(path: &Path, immutable: bool) -> String {
    let mut uri = String::from("file:");
    for ch in path.to_string_lossy().chars() {
        match ch {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            _ => uri.push(ch),
        }
    }
    uri.push_str("?mode=ro");
    if immutable {
        uri.push_str("&immutable=1");
    }
    uri
}

pub(crate) fn journal_mode(connection: &Connection) -> Result<String> {
    connection
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .map_err(sqlite("read journal mode"))
}
