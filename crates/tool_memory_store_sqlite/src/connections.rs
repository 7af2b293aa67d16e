//! The connections of a store (one writer, a few readers, each behind a mutex), the caches
//! read through them, the write transaction, and the runner that puts blocking SQLite work off
//! the async runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use rusqlite::{Connection, params};
use tool_memory_core::{ToolMemoryRule, compare_for_listing};
use tool_memory_store::backend::keep_readable;
use tool_memory_store::{Error, Listing, Result, Unreadable, UnreadableRow};

use crate::codec::{EAGER_COLUMNS, LIST_RULES, query_rows};
use crate::error::sqlite;
use crate::{checkpoint, schema};

/// How many read connections a file-backed store keeps.
pub(crate) const READERS: usize = 4;

#[derive(Debug)]
pub(crate) struct Connections {
    pub(crate) writer: Mutex<Connection>,
    /// What the connections are: a private in-memory database, or a file shared with other
    /// connections, pooled for a server or one connection for a short-lived process.
    pub(crate) kind: Kind,
    /// Whether a read on a free connection can run on the calling task: it cannot wait for a
    /// lock in WAL mode, in memory or on an immutable file, but can for the busy timeout in
    /// the rollback-journal mode a file that refused WAL is left in.
    pub(crate) inline_reads: bool,
    /// Empty for an in-memory database, whose data only the writer connection can see, and
    /// for a one-shot store, whose reads take the writer too.
    pub(crate) readers: Vec<Mutex<Connection>>,
    pub(crate) next_reader: std::sync::atomic::AtomicUsize,
    /// Rule-changing writes made through this store, counted under the writer lock. Writes
    /// that change no rule (history lines, statistics, the lazy indexes) are not counted, so
    /// they do not flush what is cached from the rules.
    pub(crate) own_changes: AtomicU64,
    /// Commits by other connections (other stores, other processes), as seen through the
    /// writer's `PRAGMA data_version`, which only they move.
    pub(crate) foreign: Mutex<ForeignChanges>,
    /// The schema version of a newer toolmem, once any read or write of this store has found
    /// one (0 until then): from then on every call is refused without asking SQLite, so that
    /// a point read cannot serve a row of a schema this version does not know after a write
    /// was refused for it. A toolmem never migrates backwards, so it never clears.
    pub(crate) newer_schema: std::sync::atomic::AtomicI64,
    /// Keeps the write-ahead log short off the write path; `None` in memory.
    pub(crate) _checkpointer: Option<checkpoint::Checkpointer>,
    /// Every eager rule, as of a database version.
    pub(crate) eager: Mutex<Option<EagerCache>>,
    /// Recent per-tool listings, all as of one database version; emptied when it changes.
    pub(crate) lists: Mutex<ListCache>,
}

/// What a store's connections are (see [`Connections::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A private in-memory database: only the writer connection sees its data, and nobody
    /// else can change it.
    InMemory,
    /// A file, through a writer, readers and (read-write) the checkpoint thread.
    Pooled,
    /// A file, through the writer alone, for a process that makes a call or two and exits
    /// (see [`crate::Footprint::OneShot`]): every call runs on the calling thread.
    OneShot,
}

#[derive(Debug, Default)]
pub(crate) struct ForeignChanges {
    data_version: i64,
    seen: u64,
}

/// Listings of recently listed tools at one database version. Bounded: it is emptied when it
/// would hold more than [`LIST_CACHE_RULES`] rule copies, and whenever the database changes.
#[derive(Debug, Default)]
pub(crate) struct ListCache {
    pub(crate) version: i64,
    pub(crate) tools: std::collections::HashMap<String, ToolListing>,
    pub(crate) rules: usize,
}

/// A tool's listing as read: every readable rule, and the unrevoked ones, which share the
/// first's allocation when none is revoked (the usual case), and the rows of the tool this
/// version cannot read. A hit hands out all three without copying a rule.
#[derive(Debug, Clone)]
pub(crate) struct ToolListing {
    pub(crate) all: Listing,
    pub(crate) unrevoked: Listing,
    pub(crate) unreadable: Unreadable,
}

impl ToolListing {
    pub(crate) fn new(all: Vec<ToolMemoryRule>, unreadable: Vec<UnreadableRow>) -> ToolListing {
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
    pub(crate) fn copies(&self) -> usize {
        let rules = if Arc::ptr_eq(&self.all, &self.unrevoked) {
            self.all.len()
        } else {
            self.all.len() + self.unrevoked.len()
        };
        rules + self.unreadable.len()
    }
}

impl ListCache {
    pub(crate) fn hit(&self, version: i64, tool_name: &str) -> Option<ToolListing> {
        (self.version == version)
            .then(|| self.tools.get(tool_name).cloned())
            .flatten()
    }
}

/// The unreadable rows of a listing that has none, shared by all of them.
pub(crate) static NO_UNREADABLE_ROWS: std::sync::LazyLock<Unreadable> =
    std::sync::LazyLock::new(Unreadable::default);

/// How long [`Connections::version`] waits for a writer in use: longer than a point read or a
/// write of this store holds it (tens of microseconds), far shorter than a write waiting for
/// another process's lock or the writer's own checkpoint (milliseconds), which count as a change.
pub(crate) const WRITER_WAIT: Duration = Duration::from_micros(500);

/// Most rule copies kept in listings, so the cache's memory stays flat however large the store
/// grows. (A listing handed out lives on with its holder after the cache lets it go.)
pub(crate) const LIST_CACHE_RULES: usize = 16 * 1024;

/// The eager rules of every tool at one database version. Session start reads them on every new
/// session while they change rarely, so an unchanged database answers from memory; any commit,
/// here or in another process, changes the version and the next read goes back to SQLite.
#[derive(Debug)]
pub(crate) struct EagerCache {
    version: i64,
    rules: Arc<Vec<ToolMemoryRule>>,
    /// The rows the eager query found and could not read.
    unreadable: Unreadable,
}

/// The eager rules and the unreadable rows that may be eager.
pub(crate) type EagerRules = (Arc<Vec<ToolMemoryRule>>, Unreadable);

/// A cache's answer given without waiting.
pub(crate) enum Cached<T> {
    Hit(T),
    /// Not cached at this version (the one to read the rows at), or `None` when the version
    /// could not be read without waiting.
    Miss(Option<i64>),
}

impl EagerCache {
    pub(crate) fn hit(cache: &Option<EagerCache>, version: i64) -> Option<EagerRules> {
        cache
            .as_ref()
            .filter(|cache| cache.version == version)
            .map(|cache| (Arc::clone(&cache.rules), Arc::clone(&cache.unreadable)))
    }
}

impl Connections {
    pub(crate) fn new(
        kind: Kind,
        writer: Connection,
        readers: Vec<Mutex<Connection>>,
        checkpointer: Option<checkpoint::Checkpointer>,
        inline_reads: bool,
    ) -> Connections {
        Connections {
            writer: Mutex::new(writer),
            kind,
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
    pub(crate) fn version(&self) -> Result<i64> {
        // In memory no other connection can see the data; only this store's count matters.
        if self.kind == Kind::InMemory {
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
    pub(crate) fn version_now(&self) -> Option<Result<i64>> {
        // In memory `version` never waits.
        if self.kind == Kind::InMemory {
            return Some(self.version());
        }
        if !self.inline_reads {
            return None;
        }
        let writer = self.writer.try_lock()?;
        Some(self.version_with(Some(writer)))
    }

    /// Refuses every call once a newer schema has been seen (see `newer_schema`).
    pub(crate) fn refuse_if_newer(&self) -> Result<()> {
        match self.newer_schema.load(Ordering::Acquire) {
            0 => Ok(()),
            found => Err(Error::SchemaTooNew {
                found,
                supported: schema::SCHEMA_VERSION,
            }),
        }
    }

    /// Remembers a newer schema that `result` reports, so every later call is refused too.
    pub(crate) fn note_schema<T>(&self, result: &Result<T>) {
        if let Err(Error::SchemaTooNew { found, .. }) = result {
            self.newer_schema.store(*found, Ordering::Release);
        }
    }

    /// The version, from the writer when the caller got it.
    pub(crate) fn version_with(
        &self,
        writer: Option<parking_lot::MutexGuard<'_, Connection>>,
    ) -> Result<i64> {
        self.refuse_if_newer()?;
        let mut foreign = self.foreign.lock();
        match &writer {
            Some(writer) => {
                let data_version = writer
                    .prepare_cached("PRAGMA data_version")
                    .and_then(|mut statement| statement.query_row([], |row| row.get(0)))
                    .map_err(sqlite("read data version"))?;
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
    pub(crate) fn list(&self, tool_name: &str, version: Option<i64>) -> Result<ToolListing> {
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
    pub(crate) fn cached_list(&self, tool_name: &str) -> Result<Cached<ToolListing>> {
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
    pub(crate) fn cached_eager_rules(&self) -> Result<Cached<EagerRules>> {
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
    pub(crate) fn eager_rules(&self, version: Option<i64>) -> Result<EagerRules> {
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
    /// are none (in memory, one-shot).
    pub(crate) fn reader(&self) -> parking_lot::MutexGuard<'_, Connection> {
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
    pub(crate) fn point_reader(&self) -> parking_lot::MutexGuard<'_, Connection> {
        match self.writer.try_lock() {
            Some(writer) => settled(writer),
            None => self.reader(),
        }
    }

    /// [`Connections::point_reader`] when a connection is free right now, without waiting.
    pub(crate) fn free_point_reader(&self) -> Option<parking_lot::MutexGuard<'_, Connection>> {
        if !self.inline_reads {
            return None;
        }
        match self.writer.try_lock() {
            Some(writer) => Some(settled(writer)),
            None => self.readers.iter().find_map(Mutex::try_lock),
        }
    }

    /// The writer, with no transaction left open on it.
    pub(crate) fn writer(&self) -> parking_lot::MutexGuard<'_, Connection> {
        settled(self.writer.lock())
    }
}

/// Ends a transaction a failed write left open on the writer: its rollback failed, and until it
/// ends every read there would see what was never committed and every `BEGIN` would fail.
/// Anyone who takes the writer finds it between writes, so an open transaction there is always
/// such a leftover.
pub(crate) fn settled(
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
pub(crate) enum Access {
    Read,
    /// A read of one row by key.
    PointRead,
    Write,
}

/// A `BEGIN IMMEDIATE` transaction whose `BEGIN` and `COMMIT` are cached statements: rusqlite's
/// `Transaction` parses both anew on every call, a few microseconds of every write. Rolls back
/// when dropped uncommitted (an early return, or a failed `COMMIT`).
pub(crate) struct WriteTransaction<'c> {
    connection: &'c Connection,
    committed: bool,
}

impl<'c> WriteTransaction<'c> {
    /// On the writer, which [`settled`] hands over with no transaction left open. Refuses,
    /// before anything is written, a file a newer toolmem has migrated since this store opened
    /// it (see [`schema::refuse_newer`]); the transaction then rolls back.
    pub(crate) fn begin(
        connection: &'c Connection,
        op: &'static str,
    ) -> Result<WriteTransaction<'c>> {
        connection
            .prepare_cached("BEGIN IMMEDIATE")
            .and_then(|mut statement| statement.execute([]))
            .map_err(sqlite(op))?;
        let transaction = WriteTransaction {
            connection,
            committed: false,
        };
        schema::refuse_newer(connection)?;
        Ok(transaction)
    }

    pub(crate) fn commit(mut self, op: &'static str) -> Result<()> {
        self.connection
            .prepare_cached("COMMIT")
            .and_then(|mut statement| statement.execute([]))
            .map_err(sqlite(op))?;
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

/// Ends an answer given on the calling task instead of through `block_in_place`: spends a
/// unit of the task's cooperative budget, so a task looping over such answers still yields to
/// the worker's other tasks now and then, which `block_in_place` handed to another thread.
pub(crate) async fn after_inline() {
    tokio::task::coop::consume_budget().await;
}

/// Runs blocking SQLite work without blocking the async runtime (see the module
/// documentation); a one-shot store's work runs right here, since its process has nothing else
/// to run meanwhile, and a hop to another thread (the blocking pool's, which a current-thread
/// runtime would first have to start) would cost more than the work.
pub(crate) async fn run_blocking<T, F>(kind: Kind, run: F) -> Result<T>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T> + Send + 'static,
{
    if kind == Kind::OneShot {
        return run();
    }
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
