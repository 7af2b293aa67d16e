//! `SqliteRuleStore`: the embedded default, one typed row per rule.
//!
//! Choices, and why:
//! - One writer connection and a few reader connections, each behind a `parking_lot::Mutex`.
//!   In WAL mode readers never wait for the writer, so a slow write (or another process holding
//!   the write lock for the busy timeout) never delays a read.
//! - SQLite runs on the calling thread, without blocking the async runtime: on a multi-thread
//!   tokio runtime through `tokio::task::block_in_place` (the worker hands its other tasks to
//!   another thread first), on a current-thread runtime through `spawn_blocking`, and outside a
//!   runtime inline. `spawn_blocking` on every call cost about 30 us per point read in the
//!   benchmark (a thread hop each way). What cannot wait runs inline even on a worker, without
//!   the handoff `block_in_place` makes (most of an RPC `get`): a point read on a connection
//!   that is free, and the version read and cache hits while the writer is free, in WAL mode
//!   (where a read never waits for a lock) or in memory. Each then spends a unit of the task's
//!   cooperative budget, so a task looping over them still yields.
//! - WAL journal with `synchronous = NORMAL` by default ([`Durability::Normal`]): a write that
//!   returned survives the process being killed, because the WAL frame is in the OS before
//!   `COMMIT` returns; on power loss or an OS crash the last transactions before the crash may
//!   roll back, but the file is never corrupt. [`Durability::Full`] fsyncs every commit and
//!   survives power loss too, at the cost of one fsync per write.
//! - Every write is one `BEGIN IMMEDIATE` transaction (read the old row, unless a put makes a
//!   new id, then write the new one), so
//!   several processes sharing a file never lose an update or reset `created_at`; the busy
//!   timeout makes them queue instead of failing.

mod checkpoint;
mod schema;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use parking_lot::Mutex;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};
use tool_memory_core::{
    HistoryAction, HistoryEntry, HistoryEvent, Origin, RawJson, RuleMeta, RulePut, Timestamp,
    ToolMemoryRule, ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
};

use crate::store::{
    StoredRow, fts_query, history_from_columns, keep_readable, not_readable, prompt_tool_filter,
    rank_by_keywords, rule_from_columns, select_for_prompt,
};
use crate::{
    Error, Inspection, Listing, PromptSelection, Result, RuleChange, RuleStore, Services,
    ToolRules, Unreadable, UnreadableRow,
};

/// How hard a commit works to survive a crash. See the module documentation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Durability {
    /// `synchronous = NORMAL`: survives a process kill; power loss may roll back the newest
    /// commits.
    #[default]
    Normal,
    /// `synchronous = FULL`: survives power loss; one fsync per commit.
    Full,
}

/// How to open a [`SqliteRuleStore`].
#[derive(Debug, Clone)]
pub struct SqliteOptions {
    /// Commit durability.
    pub durability: Durability,
    /// How long a writer waits for another process's transaction before failing.
    pub busy_timeout: Duration,
    /// Clock and id source.
    pub services: Services,
}

impl Default for SqliteOptions {
    fn default() -> SqliteOptions {
        SqliteOptions {
            durability: Durability::default(),
            busy_timeout: Duration::from_secs(10),
            services: Services::default(),
        }
    }
}

/// Rules in an SQLite database file (or in memory).
#[derive(Debug, Clone)]
pub struct SqliteRuleStore {
    connections: Arc<Connections>,
    services: Services,
    path: Option<PathBuf>,
    /// Opened read-only: the lazy indexes cannot be brought up to date, so search and history
    /// read around them.
    read_only: bool,
}

/// How many read connections a file-backed store keeps.
const READERS: usize = 4;

#[derive(Debug)]
struct Connections {
    writer: Mutex<Connection>,
    /// Whether a read on a free connection can run on the calling task: it cannot wait for a
    /// lock in WAL mode, in memory or on an immutable file, but can for the busy timeout in
    /// the rollback-journal mode a file that refused WAL is left in.
    inline_reads: bool,
    /// Empty for an in-memory database, whose data only the writer connection can see.
    readers: Vec<Mutex<Connection>>,
    next_reader: std::sync::atomic::AtomicUsize,
    /// Rule-changing writes made through this store, counted under the writer lock. Writes
    /// that change no rule (history lines, statistics, the lazy indexes) are not counted, so
    /// they do not flush what is cached from the rules.
    own_changes: AtomicU64,
    /// Commits by other connections (other stores, other processes), as seen through the
    /// writer's `PRAGMA data_version`, which only they move.
    foreign: Mutex<ForeignChanges>,
    /// The schema version of a newer toolmem, once any read or write of this store has found
    /// one (0 until then): from then on every call is refused without asking SQLite, so that
    /// a point read cannot serve a row of a schema this version does not know after a write
    /// was refused for it. A toolmem never migrates backwards, so it never clears.
    newer_schema: std::sync::atomic::AtomicI64,
    /// Keeps the write-ahead log short off the write path; `None` in memory.
    _checkpointer: Option<checkpoint::Checkpointer>,
    /// Every eager rule, as of a database version.
    eager: Mutex<Option<EagerCache>>,
    /// Recent per-tool listings, all as of one database version; emptied when it changes.
    lists: Mutex<ListCache>,
}

#[derive(Debug, Default)]
struct ForeignChanges {
    data_version: i64,
    seen: u64,
}

/// Listings of recently listed tools at one database version. Bounded: it is emptied when it
/// would hold more than [`LIST_CACHE_RULES`] rule copies, and whenever the database changes.
#[derive(Debug, Default)]
struct ListCache {
    version: i64,
    tools: std::collections::HashMap<String, ToolListing>,
    rules: usize,
}

/// A tool's listing as read: every readable rule, and the unrevoked ones, which share the
/// first's allocation when none is revoked (the usual case), and the rows of the tool this
/// version cannot read. A hit hands out all three without copying a rule.
#[derive(Debug, Clone)]
struct ToolListing {
    all: Listing,
    unrevoked: Listing,
    unreadable: Unreadable,
}

impl ToolListing {
    fn new(all: Vec<ToolMemoryRule>, unreadable: Vec<UnreadableRow>) -> ToolListing {
        let all = Listing::from(all);
        let unrevoked = if all.iter().any(|rule| rule.meta.revoked_at.is_some()) {
            all.iter()
                .filter(|rule| rule.meta.revoked_at.is_none())
                .cloned()
                .collect()
        } else {
            Arc::clone(&all)
        };
        // Shared when empty (nearly always), so a listing costs no allocation for it.
        let unreadable = if unreadable.is_empty() {
            Arc::clone(&NO_UNREADABLE_ROWS)
        } else {
            Unreadable::from(unreadable)
        };
        ToolListing {
            all,
            unrevoked,
            unreadable,
        }
    }

    /// Rule copies held, for the cache's bound: the unrevoked listing counts when it is a copy,
    /// and so does each unreadable row.
    fn copies(&self) -> usize {
        let rules = if Arc::ptr_eq(&self.all, &self.unrevoked) {
            self.all.len()
        } else {
            self.all.len() + self.unrevoked.len()
        };
        rules + self.unreadable.len()
    }
}

impl ListCache {
    fn hit(&self, version: i64, tool_name: &str) -> Option<ToolListing> {
        (self.version == version)
            .then(|| self.tools.get(tool_name).cloned())
            .flatten()
    }
}

/// The unreadable rows of a listing that has none, shared by all of them.
static NO_UNREADABLE_ROWS: std::sync::LazyLock<Unreadable> =
    std::sync::LazyLock::new(Unreadable::default);

/// How long [`Connections::version`] waits for a writer in use: longer than a point read or a
/// write of this store holds it (tens of microseconds), far shorter than a write waiting for
/// another process's lock or the writer's own checkpoint (milliseconds), which count as a change.
const WRITER_WAIT: Duration = Duration::from_micros(500);

/// Most rule copies kept in listings, so the cache's memory stays flat however large the store
/// grows. (A listing handed out lives on with its holder after the cache lets it go.)
const LIST_CACHE_RULES: usize = 16 * 1024;

/// The eager rules of every tool at one database version. Session start reads them on every new
/// session while they change rarely, so an unchanged database answers from memory; any commit,
/// here or in another process, changes the version and the next read goes back to SQLite.
#[derive(Debug)]
struct EagerCache {
    version: i64,
    rules: Arc<Vec<ToolMemoryRule>>,
    /// The rows the eager query found and could not read.
    unreadable: Unreadable,
}

/// The eager rules and the unreadable rows that may be eager.
type EagerRules = (Arc<Vec<ToolMemoryRule>>, Unreadable);

/// A cache's answer given without waiting.
enum Cached<T> {
    Hit(T),
    /// Not cached at this version (the one to read the rows at), or `None` when the version
    /// could not be read without waiting.
    Miss(Option<i64>),
}

impl EagerCache {
    fn hit(cache: &Option<EagerCache>, version: i64) -> Option<EagerRules> {
        cache
            .as_ref()
            .filter(|cache| cache.version == version)
            .map(|cache| (Arc::clone(&cache.rules), Arc::clone(&cache.unreadable)))
    }
}

impl Connections {
    fn new(
        writer: Connection,
        readers: Vec<Mutex<Connection>>,
        checkpointer: Option<checkpoint::Checkpointer>,
        inline_reads: bool,
    ) -> Connections {
        Connections {
            writer: Mutex::new(writer),
            inline_reads,
            readers,
            next_reader: std::sync::atomic::AtomicUsize::new(0),
            own_changes: AtomicU64::new(0),
            foreign: Mutex::default(),
            newer_schema: std::sync::atomic::AtomicI64::new(0),
            _checkpointer: checkpointer,
            eager: Mutex::new(None),
            lists: Mutex::default(),
        }
    }

    /// The rules' version: changes with every committed change of a rule through this store
    /// and with every commit of another connection (which may have changed a rule). A query
    /// that starts after this read sees data at least as new as the version says, so a cache
    /// filled from it can be newer than its tag (one extra miss) but never older.
    fn version(&self) -> Result<i64> {
        // In memory no other connection can see the data; only this store's count matters.
        if self.readers.is_empty() {
            return Ok(self.own_changes.load(Ordering::Acquire).cast_signed());
        }
        // Point reads and this store's writes hold the writer for microseconds; wait that long
        // rather than count a change that did not happen. Taken before `foreign` (and nothing
        // holding the writer takes `foreign`), so callers wait side by side, not in a queue.
        self.version_with(self.writer.try_lock_for(WRITER_WAIT))
    }

    /// [`Connections::version`] when it can be read without waiting; `None` while the writer
    /// is in use. For answers that need nothing else (a cache hit), so they can be given on
    /// the calling task (see [`SqliteRuleStore::inline_point_read`]).
    fn version_now(&self) -> Option<Result<i64>> {
        // In memory `version` never waits.
        if self.readers.is_empty() {
            return Some(self.version());
        }
        if !self.inline_reads {
            return None;
        }
        let writer = self.writer.try_lock()?;
        Some(self.version_with(Some(writer)))
    }

    /// Refuses every call once a newer schema has been seen (see `newer_schema`).
    fn refuse_if_newer(&self) -> Result<()> {
        match self.newer_schema.load(Ordering::Acquire) {
            0 => Ok(()),
            found => Err(Error::SchemaTooNew {
                found,
                supported: schema::SCHEMA_VERSION,
            }),
        }
    }

    /// Remembers a newer schema that `result` reports, so every later call is refused too.
    fn note_schema<T>(&self, result: &Result<T>) {
        if let Err(Error::SchemaTooNew { found, .. }) = result {
            self.newer_schema.store(*found, Ordering::Release);
        }
    }

    /// The version, from the writer when the caller got it.
    fn version_with(&self, writer: Option<parking_lot::MutexGuard<'_, Connection>>) -> Result<i64> {
        self.refuse_if_newer()?;
        let mut foreign = self.foreign.lock();
        match &writer {
            Some(writer) => {
                let data_version = writer
                    .prepare_cached("PRAGMA data_version")
                    .and_then(|mut statement| statement.query_row([], |row| row.get(0)))
                    .map_err(Error::sqlite("read data version"))?;
                if data_version != foreign.data_version {
                    // Another connection committed: it may be a newer toolmem that migrated
                    // the schema, whose rows this version would misread (schema 7's integer
                    // timestamps read as unreadable rows by schema 6, and so rules left out of
                    // the prompt and the guard). Refuse rather than serve from a schema this
                    // version does not know; the version is read only on such changes.
                    let checked = schema::refuse_newer(writer);
                    self.note_schema(&checked);
                    checked?;
                    foreign.data_version = data_version;
                    foreign.seen += 1;
                }
            }
            // The writer is held longer (perhaps waiting for another process), so nothing can
            // be read from it: report a change. A needless miss is safe; a stale hit is not.
            None => foreign.seen += 1,
        }
        // Read while still holding the writer when it was free: a change of this store is
        // counted before its writer lets go, so it cannot be missed here.
        let own = self.own_changes.load(Ordering::Acquire);
        drop(writer);
        Ok(own.wrapping_add(foreign.seen).cast_signed())
    }

    /// One tool's readable rules in listing order, from the cache when the database has not
    /// changed since they were read. `version` is the rules' version when the caller has just
    /// read it.
    fn list(&self, tool_name: &str, version: Option<i64>) -> Result<ToolListing> {
        let version = version.map_or_else(|| self.version(), Ok)?;
        if let Some(listing) = self.lists.lock().hit(version, tool_name) {
            return Ok(listing);
        }
        let rows = query_rows(&self.reader(), LIST_RULES, params![tool_name])?;
        let (mut rules, unreadable) = keep_readable(rows);
        rules.sort_by(compare_for_listing);
        let listing = ToolListing::new(rules, unreadable);
        let size = listing.copies();
        let mut cache = self.lists.lock();
        if cache.version != version || cache.rules + size > LIST_CACHE_RULES {
            cache.tools.clear();
            cache.rules = 0;
            cache.version = version;
        }
        if size <= LIST_CACHE_RULES {
            cache.rules += size;
            if let Some(replaced) = cache.tools.insert(tool_name.to_owned(), listing.clone()) {
                cache.rules -= replaced.copies();
            }
        }
        Ok(listing)
    }

    /// A tool's listing from the cache, when that needs no wait; a miss sends the caller to
    /// [`Connections::list`] with the version it was looked up at.
    fn cached_list(&self, tool_name: &str) -> Result<Cached<ToolListing>> {
        let Some(version) = self.version_now().transpose()? else {
            return Ok(Cached::Miss(None));
        };
        Ok(match self.lists.lock().hit(version, tool_name) {
            Some(listing) => Cached::Hit(listing),
            None => Cached::Miss(Some(version)),
        })
    }

    /// The eager rules from the cache, when that needs no wait; a miss sends the caller to
    /// [`Connections::eager_rules`] with the version it was looked up at.
    fn cached_eager_rules(&self) -> Result<Cached<EagerRules>> {
        let Some(version) = self.version_now().transpose()? else {
            return Ok(Cached::Miss(None));
        };
        Ok(match EagerCache::hit(&self.eager.lock(), version) {
            Some(hit) => Cached::Hit(hit),
            None => Cached::Miss(Some(version)),
        })
    }

    /// Every eager rule and the tools of unreadable eager rows, from the cache when the
    /// database has not changed since it was filled. `version` as in [`Connections::list`].
    fn eager_rules(&self, version: Option<i64>) -> Result<EagerRules> {
        let version = version.map_or_else(|| self.version(), Ok)?;
        if let Some(hit) = EagerCache::hit(&self.eager.lock(), version) {
            return Ok(hit);
        }
        // One query over the partial covering index of eager rows. `priority <> 'normal'`
        // (not `IN ('high','critical')`) so that a priority written by a newer version is
        // read, found unreadable, and counted rather than ignored.
        let rows = query_rows(
            &self.reader(),
            &format!(
                "SELECT {EAGER_COLUMNS} FROM rules WHERE priority <> 'normal' AND revoked_at IS NULL"
            ),
            [],
        )?;
        let (rules, unreadable) = keep_readable(rows);
        let rules = Arc::new(rules);
        let unreadable = Unreadable::from(unreadable);
        *self.eager.lock() = Some(EagerCache {
            version,
            rules: Arc::clone(&rules),
            unreadable: Arc::clone(&unreadable),
        });
        Ok((rules, unreadable))
    }

    /// A connection for a query: a free reader, else the next in turn; the writer when there
    /// are none (in memory).
    fn reader(&self) -> parking_lot::MutexGuard<'_, Connection> {
        if self.readers.is_empty() {
            return self.writer();
        }
        if let Some(free) = self.readers.iter().find_map(Mutex::try_lock) {
            return free;
        }
        let turn = self
            .next_reader
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.readers[turn % self.readers.len()].lock()
    }

    /// A connection for a read of one row by key: the writer when it is free, else a reader.
    /// The writer's page cache survives its own commits, while a reader drops its whole cache
    /// at its first read after any commit: a get right after a put read four or five pages back
    /// from the file. Only point reads: they hold it for microseconds, so writes and
    /// [`Connections::version`] barely wait for them.
    fn point_reader(&self) -> parking_lot::MutexGuard<'_, Connection> {
        match self.writer.try_lock() {
            Some(writer) => settled(writer),
            None => self.reader(),
        }
    }

    /// [`Connections::point_reader`] when a connection is free right now, without waiting.
    fn free_point_reader(&self) -> Option<parking_lot::MutexGuard<'_, Connection>> {
        if !self.inline_reads {
            return None;
        }
        match self.writer.try_lock() {
            Some(writer) => Some(settled(writer)),
            None => self.readers.iter().find_map(Mutex::try_lock),
        }
    }

    /// The writer, with no transaction left open on it.
    fn writer(&self) -> parking_lot::MutexGuard<'_, Connection> {
        settled(self.writer.lock())
    }
}

/// Ends a transaction a failed write left open on the writer: its rollback failed, and until it
/// ends every read there would see what was never committed and every `BEGIN` would fail.
/// Anyone who takes the writer finds it between writes, so an open transaction there is always
/// such a leftover.
fn settled(
    writer: parking_lot::MutexGuard<'_, Connection>,
) -> parking_lot::MutexGuard<'_, Connection> {
    if !writer.is_autocommit()
        && let Err(err) = writer.execute_batch("ROLLBACK")
    {
        tracing::warn!(%err, "rolling back what a failed write left open");
    }
    writer
}

/// Whether a call reads or writes, which decides the connection it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    /// A read of one row by key.
    PointRead,
    Write,
}

/// The columns a rule is read from, in the order the row decoder expects. A macro so that the
/// queries below are whole strings at compile time: the point read formatted its SQL on every
/// call only to look up its cached statement.
macro_rules! rule_columns {
    () => {
        "id, tool_name, rule, priority, source, tags, created_at, updated_at, revoked_at, \
         expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit"
    };
}

/// Every rule of one tool.
const LIST_RULES: &str = concat!(
    "SELECT ",
    rule_columns!(),
    " FROM rules WHERE tool_name = ?1"
);

/// Every rule of every tool, for `toolmem doctor`.
const ALL_RULES: &str = concat!("SELECT ", rule_columns!(), " FROM rules");

/// One rule by its key.
const READ_RULE: &str = concat!(
    "SELECT ",
    rule_columns!(),
    " FROM rules WHERE tool_name = ?1 AND id = ?2"
);

/// One rule by its key, and the history line that wrote it (see migration 8).
const READ_RULE_AND_LINE: &str = concat!(
    "SELECT ",
    rule_columns!(),
    ", history_seq FROM rules WHERE tool_name = ?1 AND id = ?2"
);

/// Where `history_seq` is in [`READ_RULE_AND_LINE`]: after the rule's columns.
const HISTORY_SEQ_COLUMN: usize = 14;

/// The columns of the session-start query: every column of the covering eager index, and a
/// constant for `revoked_at`, which that index excludes by definition.
const EAGER_COLUMNS: &str = "id, tool_name, rule, priority, source, tags, created_at, updated_at, \
     NULL, expires_at, retire_after_successes, proposed, constraint_json, constraint_explicit";

impl SqliteRuleStore {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// A file this process may not write (a read-only file system, a file it lacks write
    /// permission for) opens read-only: reads work, and every write fails with SQLite's
    /// "attempt to write a readonly database". Its schema must already be current.
    pub fn open(path: impl AsRef<Path>, options: SqliteOptions) -> Result<SqliteRuleStore> {
        let path = path.as_ref();
        let connection = Connection::open(path).map_err(Error::sqlite("open database"))?;
        // SQLite falls back to reading a file it cannot open for writing, without an error.
        if connection
            .is_readonly(rusqlite::MAIN_DB)
            .map_err(Error::sqlite("open database"))?
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
        let readers = (0..READERS)
            .map(|_| open(immutable).map(Mutex::new))
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(Error::sqlite("open reader"))?;
        tracing::warn!("the database file is read-only: rules can be read, every write fails");
        let inline_reads = immutable || journal_mode(&writer)?.eq_ignore_ascii_case("wal");
        Ok(SqliteRuleStore {
            connections: Arc::new(Connections::new(writer, readers, None, inline_reads)),
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
                .map_err(Error::sqlite("integrity check"))?;
            let lines = statement
                .query_map([], |row| row.get::<_, String>(0))
                .map_err(Error::sqlite("integrity check"))?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(Error::sqlite("integrity check"))?;
            lines.into_iter().filter(|line| line != "ok").collect()
        };
        // Schema 5 added the last of the columns a row is read from; 6 to 8 changed their
        // layout and form, never their meaning, and the reader takes every form.
        let (readable, unreadable) = if (5..=schema::SCHEMA_VERSION).contains(&found) {
            let rows = query_rows(&connection, ALL_RULES, [])?;
            let (readable, unreadable) = crate::store::count_readable(rows);
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
        let connection = Connection::open_in_memory().map_err(Error::sqlite("open database"))?;
        SqliteRuleStore::configure(connection, None, options)
    }

    fn configure(
        mut connection: Connection,
        path: Option<PathBuf>,
        options: SqliteOptions,
    ) -> Result<SqliteRuleStore> {
        connection
            .busy_timeout(options.busy_timeout)
            .map_err(Error::sqlite("set busy timeout"))?;
        // In memory nobody else holds a lock to wait for.
        let mut inline_reads = true;
        if path.is_some() {
            let mode: String = retry_while_busy(options.busy_timeout, || {
                connection.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            })
            .map_err(Error::sqlite("enable WAL"))?;
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
            .map_err(Error::sqlite("set synchronous"))?;

        schema::migrate(&mut connection)?;
        let mut readers = Vec::new();
        let mut checkpointer = None;
        if let Some(path) = &path {
            checkpointer = Some(checkpoint::Checkpointer::start(
                path,
                &mut connection,
                options.busy_timeout,
                synchronous,
            )?);
            for _ in 0..READERS {
                let reader = Connection::open(path).map_err(Error::sqlite("open reader"))?;
                reader
                    .busy_timeout(options.busy_timeout)
                    .map_err(Error::sqlite("set busy timeout"))?;
                // A reader never writes; SQLite enforces it.
                reader
                    .pragma_update(None, "query_only", true)
                    .map_err(Error::sqlite("make reader query-only"))?;
                readers.push(Mutex::new(reader));
            }
        }
        Ok(SqliteRuleStore {
            connections: Arc::new(Connections::new(
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
            .map_err(Error::sqlite("integrity check"))
    }

    /// Runs `work` on a connection for `access` without blocking the async runtime (see the
    /// module documentation).
    async fn with_connection<T, F>(&self, access: Access, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, &Services) -> Result<T> + Send + 'static,
    {
        self.connections.refuse_if_newer()?;
        let work = match self.inline_point_read(access, work) {
            Ok(answer) => {
                after_inline().await;
                return answer;
            }
            Err(work) => work,
        };
        let connections = Arc::clone(&self.connections);
        let services = self.services.clone();
        run_blocking(move || {
            let result = match access {
                Access::Read => work(&mut connections.reader(), &services),
                Access::PointRead => work(&mut connections.point_reader(), &services),
                Access::Write => work(&mut connections.writer(), &services),
            };
            connections.note_schema(&result);
            result
        })
        .await
    }

    /// Runs a point read on a connection that is free right now, here on the calling task: it
    /// takes microseconds and cannot wait (see `inline_reads`), while `block_in_place` hands
    /// the worker's other tasks to a thread it wakes for them, which cost an RPC `get` about
    /// 40% of its time. Gives `work` back for anything else, which may wait (a busy
    /// connection, a listing, a write).
    fn inline_point_read<T, F>(&self, access: Access, work: F) -> std::result::Result<Result<T>, F>
    where
        F: FnOnce(&mut Connection, &Services) -> Result<T>,
    {
        let free = match access {
            Access::PointRead => self.connections.free_point_reader(),
            Access::Read | Access::Write => None,
        };
        match free {
            Some(mut connection) => {
                let result = work(&mut connection, &self.services);
                self.connections.note_schema(&result);
                Ok(result)
            }
            None => Err(work),
        }
    }

    /// A tool's listing, from the cache when it is current.
    async fn tool_listing(&self, tool_name: &str) -> Result<ToolListing> {
        let tool_name = normalize_tool_name(tool_name);
        let cached = self.connections.cached_list(&tool_name)?;
        self.hit_or_read(cached, move |connections, version| {
            connections.list(&tool_name, version)
        })
        .await
    }

    /// A cache's answer given on the calling task (see `inline_point_read`), or, on a miss,
    /// `read` through `block_in_place` at the version the cache was looked up at.
    async fn hit_or_read<T, F>(&self, cached: Cached<T>, read: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connections, Option<i64>) -> Result<T> + Send + 'static,
    {
        match cached {
            Cached::Hit(hit) => {
                after_inline().await;
                Ok(hit)
            }
            Cached::Miss(version) => {
                let connections = Arc::clone(&self.connections);
                run_blocking(move || read(&connections, version)).await
            }
        }
    }

    /// Runs `work`, which may change rules, on the writer, and counts it as a change of the
    /// rules before letting go of the writer (see [`Connections::version`]). A call that
    /// changed nothing costs its caches one needless miss, never a stale hit.
    async fn with_rule_writer<T, F>(&self, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, &Services) -> Result<T> + Send + 'static,
    {
        self.connections.refuse_if_newer()?;
        let connections = Arc::clone(&self.connections);
        let services = self.services.clone();
        run_blocking(move || {
            let mut writer = connections.writer();
            let result = work(&mut writer, &services);
            connections.own_changes.fetch_add(1, Ordering::Release);
            connections.note_schema(&result);
            result
        })
        .await
    }
}

/// A `BEGIN IMMEDIATE` transaction whose `BEGIN` and `COMMIT` are cached statements: rusqlite's
/// `Transaction` parses both anew on every call, a few microseconds of every write. Rolls back
/// when dropped uncommitted (an early return, or a failed `COMMIT`).
struct WriteTransaction<'c> {
    connection: &'c Connection,
    committed: bool,
}

impl<'c> WriteTransaction<'c> {
    /// On the writer, which [`settled`] hands over with no transaction left open. Refuses,
    /// before anything is written, a file a newer toolmem has migrated since this store opened
    /// it (see [`schema::refuse_newer`]); the transaction then rolls back.
    fn begin(connection: &'c Connection, op: &'static str) -> Result<WriteTransaction<'c>> {
        connection
            .prepare_cached("BEGIN IMMEDIATE")
            .and_then(|mut statement| statement.execute([]))
            .map_err(Error::sqlite(op))?;
        let transaction = WriteTransaction {
            connection,
            committed: false,
        };
        schema::refuse_newer(connection)?;
        Ok(transaction)
    }

    fn commit(mut self, op: &'static str) -> Result<()> {
        self.connection
            .prepare_cached("COMMIT")
            .and_then(|mut statement| statement.execute([]))
            .map_err(Error::sqlite(op))?;
        self.committed = true;
        Ok(())
    }
}

impl std::ops::Deref for WriteTransaction<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.connection
    }
}

impl Drop for WriteTransaction<'_> {
    fn drop(&mut self) {
        if !self.committed
            && !self.connection.is_autocommit()
            && let Err(err) = self.connection.execute_batch("ROLLBACK")
        {
            tracing::warn!(%err, "rolling back a failed write");
        }
    }
}

/// Runs `attempt` until it is not refused as busy or `timeout` has passed. Switching the
/// journal mode takes an exclusive lock without calling the busy handler, so several processes
/// opening a new file at once (one of them migrating it) can refuse each other.
fn retry_while_busy<T>(
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
fn read_only_connection(
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
fn first_read_only_connection(path: &Path, busy_timeout: Duration) -> Result<(Connection, bool)> {
    match read_only_connection(path, busy_timeout, false) {
        Ok(connection) => Ok((connection, false)),
        Err(err) if on_read_only_file_system(path) => {
            if has_log(path) {
                return Err(Error::ReadOnlyLog);
            }
            tracing::debug!(%err, "reading the database as immutable");
            let connection = read_only_connection(path, busy_timeout, true)
                .map_err(Error::sqlite("open database read-only"))?;
            Ok((connection, true))
        }
        Err(err) => Err(Error::sqlite("open database read-only")(err)),
    }
}

/// Whether `path` lies on a file system mounted read-only, where nobody can change the file.
#[cfg(unix)]
fn on_read_only_file_system(path: &Path) -> bool {
    rustix::fs::statvfs(path)
        .is_ok_and(|stat| stat.f_flag.contains(rustix::fs::StatVfsMountFlags::RDONLY))
}

#[cfg(not(unix))]
fn on_read_only_file_system(_path: &Path) -> bool {
    false
}

/// Whether the database has a non-empty write-ahead log beside it, which may hold commits the
/// main file does not.
fn has_log(path: &Path) -> bool {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    std::fs::metadata(log).is_ok_and(|metadata| metadata.len() > 0)
}

/// The `file:` URI that opens `path` read-only, as immutable when asked.
fn read_only_uri(path: &Path, immutable: bool) -> String {
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

/// Ends an answer given on the calling task instead of through `block_in_place`: spends a
/// unit of the task's cooperative budget, so a task looping over such answers still yields to
/// the worker's other tasks now and then, which `block_in_place` handed to another thread.
async fn after_inline() {
    tokio::task::coop::consume_budget().await;
}

fn journal_mode(connection: &Connection) -> Result<String> {
    connection
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .map_err(Error::sqlite("read journal mode"))
}

/// Runs blocking SQLite work without blocking the async runtime (see the module
/// documentation).
async fn run_blocking<T, F>(run: F) -> Result<T>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T> + Send + 'static,
{
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(run)
        }
        Ok(_) => tokio::task::spawn_blocking(run)
            .await
            .map_err(|err| Error::Worker(err.to_string()))?,
        Err(_) => run(),
    }
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<StoredRow> {
    Ok(parse_row(row).map_err(|reason| {
        let text = |index: usize| row.get::<_, String>(index).unwrap_or_default();
        UnreadableRow {
            tool_name: text(1),
            id: text(0),
            reason,
        }
    }))
}

/// Decodes one row, borrowing the columns that are only parsed (priority, source, tags and the
/// timestamps) rather than copying them: the session-start query decodes hundreds of rows.
fn parse_row(row: &Row<'_>) -> std::result::Result<ToolMemoryRule, String> {
    let text = |index: usize| -> std::result::Result<&str, String> {
        row.get_ref(index)
            .map_err(|err| err.to_string())?
            .as_str()
            .map_err(|err| format!("column {index}: {err}"))
    };
    // Integer nanoseconds as written since schema 7, RFC 3339 text before and where those
    // would not be exact (see the migration).
    let instant = |index: usize| -> std::result::Result<Timestamp, String> {
        match row.get_ref(index).map_err(|err| err.to_string())? {
            rusqlite::types::ValueRef::Integer(nanos) => Ok(Timestamp::from_unix_nanos(nanos)),
            value => Timestamp::parse(
                value
                    .as_str()
                    .map_err(|err| format!("column {index}: {err}"))?,
            )
            .map_err(|err| err.to_string()),
        }
    };
    rule_from_columns(text, instant, || parse_meta(row))
}

/// An instant as the `rules` table stores `created_at` and `updated_at`: integer nanoseconds
/// when they are exact, RFC 3339 text otherwise.
fn stored_instant(at: Timestamp) -> rusqlite::types::Value {
    match at.exact_unix_nanos() {
        Some(nanos) => rusqlite::types::Value::Integer(nanos),
        None => rusqlite::types::Value::Text(at.to_rfc3339()),
    }
}

/// The lifecycle columns of a row; errors name the column, never its value.
fn parse_meta(row: &Row<'_>) -> std::result::Result<RuleMeta, String> {
    let optional_text = |index: usize, field: &str| -> std::result::Result<Option<&str>, String> {
        match row
            .get_ref(index)
            .map_err(|_| not_readable(field, "text"))?
        {
            rusqlite::types::ValueRef::Null => Ok(None),
            value => value
                .as_str()
                .map(Some)
                .map_err(|_| not_readable(field, "text")),
        }
    };
    let timestamp = |index: usize, field: &str| -> std::result::Result<Option<Timestamp>, String> {
        optional_text(index, field)?
            .map(|text| Timestamp::parse(text).map_err(|_| not_readable(field, "a timestamp")))
            .transpose()
    };
    let flag = |index: usize, field: &str| -> std::result::Result<bool, String> {
        row.get::<_, bool>(index)
            .map_err(|_| not_readable(field, "a boolean"))
    };
    Ok(RuleMeta {
        revoked_at: timestamp(8, "revoked_at")?,
        expires_at: timestamp(9, "expires_at")?,
        retire_after_successes: row
            .get::<_, Option<i64>>(10)
            .map_err(|_| not_readable("retire_after_successes", "an integer"))?
            .map(|count| u64::try_from(count).unwrap_or_default()),
        proposed: flag(11, "proposed")?,
        // Written from a `RawJson` by this store: checked, not parsed into a value, per read.
        constraint: optional_text(12, "constraint")?
            .map(|text| {
                RawJson::from_stored(text.to_owned())
                    .map_err(|_| not_readable("constraint", "JSON"))
            })
            .transpose()?,
        constraint_explicit: flag(13, "constraint_explicit")?,
    })
}

fn query_rows(
    connection: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<StoredRow>> {
    let mut statement = connection
        .prepare_cached(sql)
        .map_err(Error::sqlite("prepare query"))?;
    let rows = statement
        .query_map(params, read_row)
        .map_err(Error::sqlite("query rules"))?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(Error::sqlite("read rules"))?;
    Ok(rows)
}

/// Inserts a rule; the statement fails on a row under the same key.
macro_rules! insert_rule {
    () => {
        "INSERT INTO rules (id, tool_name, rule, priority, source, tags, created_at, updated_at,
             updated_us, revoked_at, expires_at, retire_after_successes, proposed, constraint_json,
             constraint_explicit, history_seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
    };
}

/// What [`write_rule`] does with a row already under the rule's key.
#[derive(Debug, Clone, Copy)]
enum OnExisting {
    Replace,
    /// For a rule under a newly made id, which no stored rule can have: the write fails
    /// instead of overwriting one.
    Fail,
}

/// Writes one rule row, every column from `rule`, with `line`, the history line just written
/// for it, whose after image it is.
fn write_rule(
    connection: &Connection,
    rule: &ToolMemoryRule,
    line: i64,
    existing: OnExisting,
) -> Result<()> {
    let tags = serde_json::to_string(&rule.tags).expect("tags always serialise");
    let constraint = rule.meta.constraint.as_ref().map(RawJson::as_str);
    let sql = match existing {
        OnExisting::Replace => concat!(
            insert_rule!(),
            "
             ON CONFLICT (tool_name, id) DO UPDATE SET
               rule = excluded.rule, priority = excluded.priority, source = excluded.source,
               tags = excluded.tags, created_at = excluded.created_at,
               updated_at = excluded.updated_at, updated_us = excluded.updated_us,
               revoked_at = excluded.revoked_at, expires_at = excluded.expires_at,
               retire_after_successes = excluded.retire_after_successes,
               proposed = excluded.proposed, constraint_json = excluded.constraint_json,
               constraint_explicit = excluded.constraint_explicit,
               history_seq = excluded.history_seq"
        ),
        OnExisting::Fail => insert_rule!(),
    };
    connection
        .prepare_cached(sql)
        .and_then(|mut statement| {
            statement.execute(params![
                rule.id,
                rule.tool_name,
                rule.rule,
                rule.priority.as_str(),
                rule.source.as_str(),
                tags,
                stored_instant(rule.created_at),
                stored_instant(rule.updated_at),
                rule.updated_at.unix_micros(),
                rule.meta.revoked_at.map(|at| at.to_rfc3339()),
                rule.meta.expires_at.map(|at| at.to_rfc3339()),
                rule.meta.retire_after_successes.map(saturating_i64),
                rule.meta.proposed,
                constraint,
                rule.meta.constraint_explicit,
                line,
            ])
        })
        .map_err(Error::sqlite("write rule"))?;
    Ok(())
}

/// Reads one rule. An unreadable row is an error, not `None`: a change must never overwrite what
/// a newer version wrote, and a reader must not take it for absent.
fn read_rule(connection: &Connection, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
    let row = connection
        .prepare_cached(READ_RULE)
        .and_then(|mut statement| {
            statement
                .query_row(params![tool_name, id], read_row)
                .optional()
        })
        .map_err(Error::sqlite("read rule"))?;
    match row {
        None => Ok(None),
        Some(Ok(rule)) => Ok(Some(rule)),
        Some(Err(row)) => Err(Error::unreadable(row)),
    }
}

/// A stored rule, read for a change, and the history line whose after image it is (`None` for
/// a row written before schema 8).
struct Current {
    rule: ToolMemoryRule,
    line: Option<i64>,
}

/// Reads one rule for a change, with its history line; unreadable as in [`read_rule`].
fn read_current(connection: &Connection, tool_name: &str, id: &str) -> Result<Option<Current>> {
    let row = connection
        .prepare_cached(READ_RULE_AND_LINE)
        .and_then(|mut statement| {
            statement
                .query_row(params![tool_name, id], |row| {
                    Ok((
                        read_row(row)?,
                        row.get::<_, Option<i64>>(HISTORY_SEQ_COLUMN)?,
                    ))
                })
                .optional()
        })
        .map_err(Error::sqlite("read rule"))?;
    match row {
        None => Ok(None),
        Some((Ok(rule), line)) => Ok(Some(Current { rule, line })),
        Some((Err(row), _)) => Err(Error::unreadable(row)),
    }
}

/// What a history line records as the rule before its change.
#[derive(Debug, Clone, Copy)]
enum Before<'r> {
    /// Nothing: a create, or a row this version cannot read.
    Nothing,
    /// A copy of the rule.
    Image(&'r ToolMemoryRule),
    /// The line whose after image the rule was; readers take the image from there.
    Line(i64),
}

impl<'r> From<Option<&'r ToolMemoryRule>> for Before<'r> {
    fn from(rule: Option<&'r ToolMemoryRule>) -> Before<'r> {
        rule.map_or(Before::Nothing, Before::Image)
    }
}

/// The before image of a line that changes `current`: the line that wrote it when known, so
/// the log does not hold the same rule twice.
impl<'r> From<Option<&'r Current>> for Before<'r> {
    fn from(current: Option<&'r Current>) -> Before<'r> {
        match current {
            None => Before::Nothing,
            Some(Current {
                line: Some(seq), ..
            }) => Before::Line(*seq),
            Some(Current { rule, line: None }) => Before::Image(rule),
        }
    }
}

/// Appends a history line on `connection` (inside the caller's transaction) and returns its
/// `seq`.
fn insert_history(
    connection: &Connection,
    event: &HistoryEvent,
    before: Before<'_>,
    at: Timestamp,
) -> Result<i64> {
    let origin = serde_json::to_string(&event.origin).expect("origins always serialise");
    let (before_copy, before_seq) = match before {
        Before::Nothing => (None, None),
        Before::Image(rule) => (Some(rule.to_compact_json()), None),
        Before::Line(seq) => (None, Some(seq)),
    };
    let after_json = event.rule.as_ref().map(ToolMemoryRule::to_compact_json);
    let tool_name = normalize_tool_name(&event.tool_name);
    connection
        .prepare_cached(
            "INSERT INTO rule_history (at, tool_name, rule_id, action, origin, before_copy, after_json, detail, before_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )
        .and_then(|mut statement| {
            statement.execute(params![
                at.to_rfc3339(),
                tool_name,
                event.rule_id,
                event.action.as_str(),
                origin,
                before_copy,
                after_json,
                event.detail,
                before_seq,
            ])
        })
        .map_err(Error::sqlite("write history"))?;
    Ok(connection.last_insert_rowid())
}

fn read_history_row(row: &Row<'_>) -> rusqlite::Result<std::result::Result<HistoryEntry, String>> {
    let seq: i64 = row.get(0)?;
    Ok(history_from_columns(seq, |index| {
        row.get::<_, Option<String>>(index)
            .map_err(|err| err.to_string())
    }))
}

/// Refreshes the search index for every rule the history log names since the last search, in
/// one transaction: one new index segment for a batch of changes instead of one per write. A
/// rule deleted since is dropped; a rule written gets a new document with its current text.
fn catch_up_full_text_index(connection: &mut Connection) -> Result<()> {
    catch_up(connection, "search", |transaction, from, to| {
        let changed = "SELECT tool_name, rule_id FROM rule_history WHERE seq > ?1 AND seq <= ?2";
        let run = |sql: &str, from: i64, to: i64| {
            transaction
                .prepare_cached(sql)
                .and_then(|mut statement| statement.execute(params![from, to]))
        };
        run(
            &format!(
                "DELETE FROM rules_fts WHERE rowid IN
                     (SELECT doc_id FROM search_docs WHERE (tool_name, id) IN ({changed}))"
            ),
            from,
            to,
        )?;
        run(
            &format!("DELETE FROM search_docs WHERE (tool_name, id) IN ({changed})"),
            from,
            to,
        )?;
        let first_new: i64 = transaction
            .prepare_cached("SELECT coalesce(max(doc_id), 0) FROM search_docs")
            .and_then(|mut statement| statement.query_row([], |row| row.get(0)))?;
        run(
            &format!(
                "INSERT INTO search_docs (tool_name, id)
                     SELECT tool_name, id FROM rules WHERE (tool_name, id) IN ({changed})"
            ),
            from,
            to,
        )?;
        transaction
            .prepare_cached(
                "INSERT INTO rules_fts (rowid, rule)
                     SELECT d.doc_id, r.rule FROM search_docs AS d
                     JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id
                     WHERE d.doc_id > ?1",
            )
            .and_then(|mut statement| statement.execute(params![first_new]))?;
        Ok(())
    })
}

/// Adds the history lines written since the last history query to the per-tool history index.
fn catch_up_history_index(connection: &mut Connection) -> Result<()> {
    catch_up(connection, "history", |transaction, from, to| {
        transaction
            .prepare_cached(
                "INSERT INTO history_by_tool (tool_name, seq)
                     SELECT tool_name, seq FROM rule_history WHERE seq > ?1 AND seq <= ?2",
            )
            .and_then(|mut statement| statement.execute(params![from, to]))?;
        Ok(())
    })
}

/// History lines folded into a lazy index per transaction: the catch-up holds the write lock,
/// and a long backlog (200,000 puts without a search took 2.2 s in one piece) would make other
/// processes' writes wait past their busy timeout.
const CATCH_UP_LINES: i64 = 4096;

/// Brings the lazy index `name` up to the end of the history log as it is when called: `apply`
/// folds in the lines with `from < seq <= to` and the index's watermark moves to `to`, one
/// transaction per [`CATCH_UP_LINES`] lines. Costs one read when the index is current.
fn catch_up(
    connection: &mut Connection,
    name: &str,
    apply: impl Fn(&Connection, i64, i64) -> rusqlite::Result<()>,
) -> Result<()> {
    let range = |connection: &Connection| {
        connection
            .prepare_cached(
                "SELECT (SELECT seq FROM log_watermarks WHERE name = ?1),
                        (SELECT coalesce(max(seq), 0) FROM rule_history)",
            )
            .and_then(|mut statement| {
                statement.query_row(params![name], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?))
                })
            })
            .map_err(Error::sqlite("read index watermark"))
    };
    // Lines written after this call started are left to the next one.
    let (mut from, end) = range(connection)?;
    while from < end {
        let transaction = WriteTransaction::begin(connection, "begin index catch-up")?;
        // Read again inside the write lock: another connection may have caught up meanwhile.
        let (start, _) = range(&transaction)?;
        let to = end.min(start.saturating_add(CATCH_UP_LINES));
        if start < to {
            apply(&transaction, start, to).map_err(Error::sqlite("catch up an index"))?;
            transaction
                .prepare_cached("UPDATE log_watermarks SET seq = ?2 WHERE name = ?1")
                .and_then(|mut statement| statement.execute(params![name, to]))
                .map_err(Error::sqlite("move index watermark"))?;
        }
        transaction.commit("commit index catch-up")?;
        from = start.max(to);
    }
    Ok(())
}

fn saturating_i64(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

fn read_stats(connection: &Connection, tool_name: &str) -> Result<Option<ToolStats>> {
    let row = connection
        .prepare_cached(
            "SELECT calls, successes, failures, last_failure_class, last_seen
             FROM tool_stats WHERE tool_name = ?1",
        )
        .and_then(|mut statement| {
            statement
                .query_row(params![tool_name], |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, i64>(1)?,
                        row.get::<_, i64>(2)?,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, Option<String>>(4)?,
                    ))
                })
                .optional()
        })
        .map_err(Error::sqlite("read statistics"))?;
    let Some((calls, successes, failures, last_failure_class, last_seen)) = row else {
        return Ok(None);
    };
    let count = |value: i64| u64::try_from(value).unwrap_or_default();
    Ok(Some(ToolStats {
        tool_name: tool_name.to_owned(),
        calls: count(calls),
        successes: count(successes),
        failures: count(failures),
        last_failure_class,
        last_seen: last_seen.as_deref().map(Timestamp::parse).transpose()?,
    }))
}

#[async_trait]
impl RuleStore for SqliteRuleStore {
    async fn put(&self, put: RulePut) -> Result<ToolMemoryRule> {
        let put = put.normalized()?;
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin put")?;
            // A new id names no stored rule, so there is nothing to read (a seek per put).
            let (id, current, on_existing) = match &put.id {
                Some(id) => {
                    let current = read_current(&transaction, &put.tool_name, id)?;
                    (id.clone(), current, OnExisting::Replace)
                }
                None => (services.ids.next_id(), None, OnExisting::Fail),
            };
            let existing = current.as_ref().map(|current| &current.rule);
            let origin = put.origin.clone();
            // Read the clock inside the write lock so updated_at follows commit order.
            let rule = put.build(id, existing, services.clock.now());
            let event = HistoryEvent::written(&rule, existing, origin);
            let line = insert_history(
                &transaction,
                &event,
                current.as_ref().into(),
                rule.updated_at,
            )?;
            write_rule(&transaction, &rule, line, on_existing)?;
            transaction.commit("commit put")?;
            Ok(rule)
        })
        .await
    }

    async fn import(&self, rule: ToolMemoryRule, origin: &Origin) -> Result<()> {
        rule.validate()?;
        let origin = origin.clone();
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin import")?;
            // An import replaces what is there, even a row this version cannot read.
            let current = match read_current(&transaction, &rule.tool_name, &rule.id) {
                Err(Error::Unreadable { .. }) => None,
                other => other?,
            };
            let existing = current.as_ref().map(|current| &current.rule);
            let event = HistoryEvent::written(&rule, existing, origin);
            let now = services.clock.now();
            let line = insert_history(&transaction, &event, current.as_ref().into(), now)?;
            write_rule(&transaction, &rule, line, OnExisting::Replace)?;
            transaction.commit("commit import")
        })
        .await
    }

    async fn get(&self, tool_name: &str, id: &str) -> Result<Option<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        let id = id.to_owned();
        self.with_connection(Access::PointRead, move |connection, _| {
            read_rule(connection, &tool_name, &id)
        })
        .await
    }

    async fn list(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.tool_listing(tool_name).await?.unrevoked)
    }

    async fn list_including_revoked(&self, tool_name: &str) -> Result<Listing> {
        Ok(self.tool_listing(tool_name).await?.all)
    }

    async fn list_with_unreadable(&self, tool_name: &str) -> Result<ToolRules> {
        let listing = self.tool_listing(tool_name).await?;
        Ok(ToolRules {
            rules: listing.unrevoked,
            unreadable: listing.unreadable,
        })
    }

    /// One scan of the whole table, so a row is found whatever its tool name holds.
    async fn unreadable_rows(&self) -> Result<Vec<UnreadableRow>> {
        self.with_connection(Access::Read, |connection, _| {
            let rows = query_rows(connection, ALL_RULES, [])?;
            Ok(keep_readable(rows).1)
        })
        .await
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
        let id = id.to_owned();
        let origin = origin.clone();
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin change")?;
            let Some(current) = read_current(&transaction, &tool_name, &id)? else {
                return Ok(None);
            };
            let now = services.clock.now();
            let mut after = current.rule.clone();
            if !change(&mut after.meta, now) {
                return Ok(Some(current.rule));
            }
            let event = HistoryEvent::changed(&after, action, origin);
            let line = insert_history(&transaction, &event, Some(&current).into(), now)?;
            write_rule(&transaction, &after, line, OnExisting::Replace)?;
            transaction.commit("commit change")?;
            Ok(Some(after))
        })
        .await
    }

    /// Removes a rule in one transaction with its history line, which names the line that
    /// wrote the rule rather than copying it (see migration 8), so the rule is not read. An
    /// unreadable row can still be removed by an explicit call; a row from before schema 8 is
    /// read for a copy, and when it is unreadable its history line has no `before`.
    async fn remove_rule(
        &self,
        tool_name: &str,
        id: &str,
        action: HistoryAction,
        origin: &Origin,
    ) -> Result<bool> {
        let tool_name = normalize_tool_name(tool_name);
        let id = id.to_owned();
        let origin = origin.clone();
        self.with_rule_writer(move |connection, services| {
            let transaction = WriteTransaction::begin(connection, "begin delete")?;
            let line: Option<Option<i64>> = transaction
                .prepare_cached("SELECT history_seq FROM rules WHERE tool_name = ?1 AND id = ?2")
                .and_then(|mut statement| {
                    statement
                        .query_row(params![tool_name, id], |row| row.get(0))
                        .optional()
                })
                .map_err(Error::sqlite("read rule"))?;
            let image;
            let before = match line {
                None => return Ok(false),
                Some(Some(seq)) => Before::Line(seq),
                Some(None) => {
                    image = match read_rule(&transaction, &tool_name, &id) {
                        Err(Error::Unreadable { .. }) => None,
                        other => other?,
                    };
                    Before::from(image.as_ref())
                }
            };
            let deleted = transaction
                .prepare_cached("DELETE FROM rules WHERE tool_name = ?1 AND id = ?2")
                .and_then(|mut statement| statement.execute(params![tool_name, id]))
                .map_err(Error::sqlite("delete rule"))?
                > 0;
            if deleted {
                let event = HistoryEvent::removed(&tool_name, &id, action, origin);
                insert_history(&transaction, &event, before, services.clock.now())?;
            }
            transaction.commit("commit delete")?;
            Ok(deleted)
        })
        .await
    }

    async fn history(
        &self,
        tool_name: &str,
        id: Option<&str>,
        limit: usize,
        before: Option<i64>,
    ) -> Result<Vec<HistoryEntry>> {
        let tool_name = normalize_tool_name(tool_name);
        let id = id.map(str::to_owned);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let read_only = self.read_only;
        // On the writer: the query first adds new lines to the per-tool index. A read-only
        // store cannot, so it reads the log itself (every line, without the index).
        self.with_connection(Access::Write, move |connection, _| {
            let sql = if read_only {
                "SELECT h.seq, h.at, h.tool_name, h.rule_id, h.action, h.origin,
                        coalesce(h.before_copy, b.after_json), h.after_json, h.detail
                 FROM rule_history AS h LEFT JOIN rule_history AS b ON b.seq = h.before_seq
                   AND b.tool_name = h.tool_name AND b.rule_id = h.rule_id
                 WHERE h.tool_name = ?1 AND (?3 IS NULL OR h.seq < ?3)
                   AND (?2 IS NULL OR h.rule_id = ?2)
                 ORDER BY h.seq DESC LIMIT ?4"
            } else {
                catch_up_history_index(connection)?;
                "SELECT h.seq, h.at, h.tool_name, h.rule_id, h.action, h.origin,
                        coalesce(h.before_copy, b.after_json), h.after_json, h.detail
                 FROM history_by_tool AS i JOIN rule_history AS h ON h.seq = i.seq
                 LEFT JOIN rule_history AS b ON b.seq = h.before_seq
                   AND b.tool_name = h.tool_name AND b.rule_id = h.rule_id
                 WHERE i.tool_name = ?1 AND (?3 IS NULL OR i.seq < ?3)
                   AND (?2 IS NULL OR h.rule_id = ?2)
                 ORDER BY i.seq DESC LIMIT ?4"
            };
            let mut statement = connection
                .prepare_cached(sql)
                .map_err(Error::sqlite("prepare history"))?;
            let rows = statement
                .query_map(params![tool_name, id, before, limit], read_history_row)
                .map_err(Error::sqlite("query history"))?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(Error::sqlite("read history"))?;
            Ok(rows
                .into_iter()
                .filter_map(|row| {
                    row.map_err(|reason| {
                        tracing::warn!(reason, "skipping an unreadable history line")
                    })
                    .ok()
                })
                .collect())
        })
        .await
    }

    async fn append_history(&self, event: HistoryEvent) -> Result<HistoryEntry> {
        tool_memory_core::validate_tool_name(&event.tool_name)?;
        self.with_connection(Access::Write, move |connection, services| {
            // A transaction of its own, for the schema check every write makes.
            let transaction = WriteTransaction::begin(connection, "begin history")?;
            let at = services.clock.now();
            let seq = insert_history(&transaction, &event, event.rule.as_ref().into(), at)?;
            transaction.commit("commit history")?;
            let before = event.rule.clone();
            Ok(event.into_entry(seq, at, before))
        })
        .await
    }

    async fn list_tool_names(&self) -> Result<Vec<String>> {
        self.with_connection(Access::Read, |connection, _| {
            let mut statement = connection
                .prepare_cached(
                    "SELECT DISTINCT tool_name FROM rules WHERE tool_name <> ?1 ORDER BY tool_name",
                )
                .map_err(Error::sqlite("prepare tool names"))?;
            let names = statement
                .query_map(params![UNSCOPED_TOOL], |row| row.get::<_, String>(0))
                .map_err(Error::sqlite("list tool names"))?
                .collect::<rusqlite::Result<Vec<_>>>()
                .map_err(Error::sqlite("read tool names"))?;
            Ok(names)
        })
        .await
    }

    async fn search(
        &self,
        tool_name: &str,
        query: &str,
        limit: usize,
    ) -> Result<Vec<ToolMemoryRule>> {
        let tool_name = normalize_tool_name(tool_name);
        if self.read_only {
            // The index cannot be brought up to date without writing; rank like the stores
            // without one.
            return Ok(rank_by_keywords(
                &self.list(&tool_name).await?,
                query,
                limit,
            ));
        }
        let Some(query) = fts_query(query) else {
            return Ok(Vec::new());
        };
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // On the writer: the search first folds pending changes into the index.
        self.with_connection(Access::Write, move |connection, _| {
            catch_up_full_text_index(connection)?;
            let rows = query_rows(
                connection,
                "SELECT r.id, r.tool_name, r.rule, r.priority, r.source, r.tags, r.created_at, r.updated_at,
                        r.revoked_at, r.expires_at, r.retire_after_successes, r.proposed, r.constraint_json,
                        r.constraint_explicit
                 FROM rules_fts
                 JOIN search_docs AS d ON d.doc_id = rules_fts.rowid
                 JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id
                 WHERE rules_fts MATCH ?1 AND d.tool_name = ?2 AND r.revoked_at IS NULL
                 ORDER BY bm25(rules_fts), r.updated_us DESC, r.id
                 LIMIT ?3",
                params![query, tool_name, limit],
            )?;
            Ok(keep_readable(rows).0)
        })
        .await
    }

    async fn record_stats(&self, delta: &ToolStats) -> Result<ToolStats> {
        let name = tool_memory_core::validate_tool_name(&delta.tool_name)?;
        let delta = delta.clone();
        self.with_connection(Access::Write, move |connection, _| {
            let transaction = WriteTransaction::begin(connection, "begin statistics")?;
            let mut totals = read_stats(&transaction, &name)?.unwrap_or_else(|| ToolStats::empty(&name));
            totals.add(&delta);
            transaction
                .prepare_cached(
                    "INSERT INTO tool_stats (tool_name, calls, successes, failures, last_failure_class, last_seen)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT (tool_name) DO UPDATE SET
                       calls = excluded.calls, successes = excluded.successes,
                       failures = excluded.failures, last_failure_class = excluded.last_failure_class,
                       last_seen = excluded.last_seen",
                )
                .and_then(|mut statement| {
                    statement.execute(params![
                        totals.tool_name,
                        saturating_i64(totals.calls),
                        saturating_i64(totals.successes),
                        saturating_i64(totals.failures),
                        totals.last_failure_class,
                        totals.last_seen.map(|seen| seen.to_rfc3339()),
                    ])
                })
                .map_err(Error::sqlite("write statistics"))?;
            transaction.commit("commit statistics")?;
            Ok(totals)
        })
        .await
    }

    async fn tool_stats(&self, tool_name: &str) -> Result<Option<ToolStats>> {
        let name = normalize_tool_name(tool_name);
        self.with_connection(Access::Read, move |connection, _| {
            read_stats(connection, &name)
        })
        .await
    }

    async fn version(&self) -> Result<Option<u64>> {
        // Read here when the writer is free: a guard check starts with it.
        let cached = match self.connections.version_now() {
            Some(version) => Cached::Hit(version?),
            None => Cached::Miss(None),
        };
        let version = self
            .hit_or_read(cached, |connections, _| connections.version())
            .await?;
        Ok(Some(version.cast_unsigned()))
    }

    async fn rules_for_prompt(
        &self,
        tools: &[String],
        max_rules: Option<usize>,
    ) -> Result<PromptSelection> {
        let filter = prompt_tool_filter(tools);
        let cached = self.connections.cached_eager_rules()?;
        let (rules, unreadable_tools) = self
            .hit_or_read(cached, |connections, version| {
                connections.eager_rules(version)
            })
            .await?;
        let wanted = |tool_name: &String| {
            filter
                .as_ref()
                .is_none_or(|names| names.contains(tool_name))
        };
        let now = self.services.clock.now();
        let rules = rules
            .iter()
            .filter(|rule| wanted(&rule.tool_name) && rule.is_active(now))
            .cloned()
            .collect();
        let unreadable = unreadable_tools
            .iter()
            .filter(|row| wanted(&row.tool_name))
            .cloned()
            .collect();
        Ok(select_for_prompt(rules, max_rules, unreadable))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listing cache's bound counts every rule copy it holds: a tool with a revoked rule
    /// keeps two listings, and both count.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_listing_cache_counts_every_copy() -> Result<()> {
        let store = SqliteRuleStore::open_in_memory(SqliteOptions::default())?;
        let counted = || store.connections.lists.lock().rules;
        store.put(RulePut::new("shell", "quote paths")).await?;
        let lifted = store.put(RulePut::new("shell", "never run sudo")).await?;
        store.list("shell").await?;
        assert_eq!(counted(), 2, "one listing serves both forms");
        store.revoke("shell", &lifted.id, &Origin::Api).await?;
        store.list("shell").await?;
        assert_eq!(counted(), 3, "two rules, and a copy of the unrevoked one");
        Ok(())
    }

    /// Whoever takes the writer first ends a transaction a failed write left open on it (its
    /// rollback failed), so no read, point read, search or history query, on a file or in
    /// memory, sees what was never committed, and the next write does not fail on it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_never_see_a_transaction_left_open_on_the_writer() -> Result<()> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let on_file =
            SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
        let in_memory = SqliteRuleStore::open_in_memory(SqliteOptions::default())?;
        for store in [on_file, in_memory] {
            let rule = store
                .put(RulePut::new("send_email", "never email sarah").with_id("sarah"))
                .await?;
            let leave_open = || {
                let writer = store.connections.writer.lock();
                if writer.is_autocommit() {
                    writer
                        .execute_batch("BEGIN IMMEDIATE")
                        .expect("a transaction");
                }
                writer
                    .execute_batch("UPDATE rules SET rule = 'never committed'")
                    .expect("an uncommitted change on the writer");
            };
            leave_open();
            let read = store.get("send_email", "sarah").await?.expect("the rule");
            assert_eq!(read.rule, rule.rule);
            leave_open();
            let listed = store.list("send_email").await?;
            assert_eq!(listed[0].rule, rule.rule);
            leave_open();
            let found = store.search("send_email", "sarah", 10).await?;
            assert_eq!(found[0].rule, rule.rule);
            leave_open();
            let history = store.history("send_email", None, 10, None).await?;
            assert_eq!(history[0].after.as_ref().expect("created").rule, rule.rule);
            // And the next write starts afresh instead of failing on the open transaction.
            leave_open();
            let again = store
                .put(RulePut::new("send_email", "never email bob").with_id("bob"))
                .await?;
            assert_eq!(store.get("send_email", "bob").await?, Some(again));
            assert_eq!(
                store
                    .get("send_email", "sarah")
                    .await?
                    .expect("the rule")
                    .rule,
                rule.rule
            );
        }
        Ok(())
    }

    #[test]
    fn prompt_query_uses_the_eager_index() {
        let store = SqliteRuleStore::open_in_memory(SqliteOptions::default()).unwrap();
        let connection = store.connections.writer.lock();
        let plan = |sql: &str| -> String {
            let mut statement = connection
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .unwrap();
            let rows = statement
                .query_map([], |row| row.get::<_, String>(3))
                .unwrap()
                .collect::<rusqlite::Result<Vec<_>>>()
                .unwrap();
            rows.join("\n")
        };
        let all = plan(&format!(
            "SELECT {EAGER_COLUMNS} FROM rules WHERE priority <> 'normal' AND revoked_at IS NULL"
        ));
        assert!(all.contains("COVERING INDEX rules_eager"), "{all}");
        // Rules are clustered by (tool_name, id): one tool's rules are one range of the table.
        let one_tool = plan("SELECT id FROM rules WHERE tool_name = 'a'");
        assert!(
            one_tool.contains("USING PRIMARY KEY (tool_name=?)"),
            "{one_tool}"
        );
        let search = plan(
            "SELECT r.rule FROM rules_fts JOIN search_docs AS d ON d.doc_id = rules_fts.rowid
             JOIN rules AS r ON r.tool_name = d.tool_name AND r.id = d.id
             WHERE rules_fts MATCH 'x' AND d.tool_name = 'a'",
        );
        assert!(search.contains("USING PRIMARY KEY"), "{search}");
    }

    /// Holds the writer (and, with `all`, every reader) on another thread until the returned
    /// sender is used or dropped.
    fn hold_connections(store: &SqliteRuleStore, all: bool) -> std::sync::mpsc::Sender<()> {
        let connections = Arc::clone(&store.connections);
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (holding, held) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _writer = connections.writer.lock();
            let _readers: Vec<_> = if all {
                connections.readers.iter().map(Mutex::lock).collect()
            } else {
                Vec::new()
            };
            holding.send(()).expect("the test waits");
            let _ = released.recv();
        });
        held.recv().expect("the holder holds");
        release
    }

    /// What runs on the calling task (a point read on a free connection, the version and the
    /// caches while the writer is free) falls back to waiting through `block_in_place` when
    /// the connections are held: the answers stay right, the version counts a change instead
    /// of waiting, and a waiting read leaves the runtime's only worker to its other tasks.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn reads_wait_off_the_worker_when_the_connections_are_held() -> Result<()> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let store =
            SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
        assert!(store.connections.inline_reads);
        let rule = store
            .put(
                RulePut::new("shell", "never run sudo")
                    .with_priority(tool_memory_core::ToolMemoryPriority::Critical),
            )
            .await?;
        // Fill the caches, then hold the writer: listings and session start are answered
        // through the fallback, and right.
        assert_eq!(&*store.list("shell").await?, std::slice::from_ref(&rule));
        assert_eq!(
            store.rules_for_prompt(&[], None).await?.rules,
            std::slice::from_ref(&rule)
        );
        let release = hold_connections(&store, false);
        let before = store.version().await?;
        assert_ne!(store.version().await?, before);
        assert_eq!(&*store.list("shell").await?, std::slice::from_ref(&rule));
        assert_eq!(
            store.rules_for_prompt(&[], None).await?.rules,
            std::slice::from_ref(&rule)
        );
        assert_eq!(store.get("shell", &rule.id).await?, Some(rule.clone()));
        drop(release);

        let release = hold_connections(&store, true);
        let get = tokio::spawn({
            let store = store.clone();
            let id = rule.id.clone();
            async move { store.get("shell", &id).await }
        });
        // A blocking sleep: the runtime's timers need the worker this test watches.
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !get.is_finished(),
            "a get found a connection while all were held"
        );
        let (probe, probed) = std::sync::mpsc::channel();
        tokio::spawn(async move { probe.send(()).expect("the test waits") });
        assert!(
            probed
                .recv_timeout(std::time::Duration::from_secs(5))
                .is_ok(),
            "a waiting get kept the runtime's only worker from its other tasks"
        );
        drop(release);
        assert_eq!(get.await.expect("the get ends")?, Some(rule));
        Ok(())
    }

    #[test]
    fn the_history_line_column_follows_the_rule_columns() {
        let store = SqliteRuleStore::open_in_memory(SqliteOptions::default()).unwrap();
        let connection = store.connections.writer.lock();
        let statement = connection.prepare(READ_RULE_AND_LINE).unwrap();
        assert_eq!(statement.column_count(), HISTORY_SEQ_COLUMN + 1);
        assert_eq!(
            statement.column_name(HISTORY_SEQ_COLUMN).unwrap(),
            "history_seq"
        );
    }
}
