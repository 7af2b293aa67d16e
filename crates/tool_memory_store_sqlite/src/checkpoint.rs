//! Checkpoints the write-ahead log on a thread of its own, mostly off the write path.
//!
//! SQLite's automatic checkpoint runs inside the `COMMIT` that pushes the log past 1,000 pages:
//! that one write copies the log into the database file and fsyncs both, which made the
//! average put about twice as slow as the write itself. Here the writer's commit hook wakes
//! this thread once per 1,000 new pages, and it copies the log with a `PASSIVE` checkpoint on
//! its own connection while writes go on. The log can only start over once a checkpoint has
//! copied all of it, which a checkpoint racing a steady stream of writes never manages; only
//! the writer, between two of its writes, can. So at 3,000 pages the thread catches up: it
//! copies the log once more, then syncs the database file and the log itself; the writer's
//! next commit runs the last pass, which has only the pages written since to copy and sync
//! (1-2 ms, against 4 ms when the writer synced everything itself at 4,000 pages), and the
//! write after it starts the log over. When more than 1,000 pages came in during the
//! catch-up (scattered updates slow it), the thread catches up again first. At 6,000 pages
//! the writer runs that pass however far the thread got. In the benchmark (6 alternating runs
//! each, against the writer copying and syncing at 4,000 pages, all else equal, before the
//! 1,000-page rule) a put took 20.2 us against 21.0, and its three write rows (10,000 puts,
//! 1,000 upserts, 1,000 deletes) 243 ms against 257; the rule then took upserts from 26.9 to
//! 24.2 us (5 runs). Which of the short rows a pass falls in moves them by a few microseconds.
//!
//! A reader still reading from the log when the writer's checkpoint completes keeps the log
//! from starting over at the next write, and it would then grow by another 6,000 pages. So the
//! writer checks again on its next 64 commits (each copies only the new pages): with three
//! store-level readers and 20,000 puts the log peaked at 4,064-4,158 frames in a release build
//! (backstop then at 4,000), against 19,775-33,690 without the re-checks. Readers that never
//! pause (connections querying in a tight loop) still keep it growing: a `PASSIVE` checkpoint
//! cannot start over a log that someone reads from, and SQLite's `RESTART` mode, which waits
//! for them, would wait here for the writer's full busy timeout. Once the log does start over,
//! its file is cut back to 25 MiB (`journal_size_limit`) instead of keeping its largest size.
//!
//! Durability is unchanged: a commit is in the log before it returns either way; the
//! checkpoint only moves it into the main file so the log can be reused, and every sync it
//! makes is one SQLite would make itself before the log starts over.

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use rusqlite::hooks::Wal;
use rusqlite::wal::CheckpointMode;
use rusqlite::{Connection, ErrorCode};

use tool_memory_store::{Error, Result};

use crate::error::sqlite;

/// Log size, in pages, that wakes the checkpointer: SQLite's own default threshold.
const WAKE_AT_PAGES: i32 = 1000;

/// The log file's size after it starts over: a little more than the backstop's 6,000 frames.
const LOG_FILE_LIMIT_BYTES: i64 = 25 * 1024 * 1024;

/// Commits after the writer's own checkpoint that check again whether the log started over.
const RESTART_RETRIES: u32 = 64;

/// Log size at which the thread is asked to catch up, so that the writer can make the log
/// start over with a short pass of its own.
const CATCH_UP_AT_PAGES: i32 = 3 * WAKE_AT_PAGES;

/// Most pages the writer's last pass may have to copy after a catch-up; more, and the thread
/// catches up again. About 1,000 pages (a 5-6 ms catch-up under a stream of puts) make a
/// 1-2 ms pass; 1,500-2,000 (a catch-up slowed by scattered updates) made one of 4-8 ms.
const LAST_PASS_PAGES: i32 = 1000;

/// Log size at which the writer checkpoints itself however the thread fares, so the log
/// starts over at about 24 MiB of 4 KiB pages (unless readers keep it from doing so; see above).
/// The thread's catch-up takes 5-6 ms and at times up to 18 ms (1,000-3,000 pages of puts);
/// when the writer's pass comes first, it copies and syncs all the thread had not (5-9 ms).
const BACKSTOP_PAGES: i32 = 6 * WAKE_AT_PAGES;

#[derive(Debug, Default)]
struct Signal {
    /// Copy the log (once per 1,000 new pages).
    wanted: bool,
    /// The log passed 3,000 pages: catch up, so the writer's last pass is short. The number
    /// names the request (see `Shared::caught_up`).
    catch_up: Option<u64>,
    stop: bool,
}

#[derive(Debug, Default)]
struct Shared {
    signal: Mutex<Signal>,
    wake: Condvar,
    /// The request the thread last caught up for, and the log's size, in pages, when its copy
    /// started: all of that is copied and synced, and the writer's last pass only has the
    /// pages written since. Taken by the hook.
    caught_up: Mutex<Option<(u64, i32)>>,
}

/// The checkpoint thread of one database file; stops when dropped.
#[derive(Debug)]
pub(crate) struct Checkpointer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread on its own connection to `path` and hooks `writer`'s commits to it.
    /// `synchronous` is the writer's setting: a checkpoint syncs as its connection says.
    pub(crate) fn start(
        path: &Path,
        writer: &mut Connection,
        busy_timeout: Duration,
        synchronous: &str,
    ) -> Result<Checkpointer> {
        let connection = Connection::open(path).map_err(sqlite("open checkpointer"))?;
        connection
            .busy_timeout(busy_timeout)
            .and_then(|()| connection.pragma_update(None, "synchronous", synchronous))
            .map_err(sqlite("configure checkpointer"))?;
        // A connection learns that the file is in WAL mode only when it first reads it; until
        // then every checkpoint it runs returns at once having copied nothing (it did, for
        // every release up to this one, so the writer ended up copying the whole log itself).
        connection
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| {
                row.get::<_, i64>(0)
            })
            .map_err(sqlite("open checkpointer"))?;
        // When the log starts over after it grew past its usual size (readers kept it from
        // starting over for a while), SQLite truncates the file back to this at the next commit.
        writer
            .query_row(
                &format!("PRAGMA journal_size_limit = {LOG_FILE_LIMIT_BYTES}"),
                [],
                |row| row.get::<_, i64>(0),
            )
            .map_err(sqlite("limit the log file"))?;
        let shared = Arc::new(Shared::default());
        let hook_shared = Arc::clone(&shared);
        // The log size at the previous commit: a smaller one means the log started over.
        let mut previous = 0;
        // The log size at the last wake-up: the thread is woken once per 1,000 new pages, not
        // on every commit while the log is long.
        let mut woken_at = 0;
        // The log size at the writer's last checkpoint of its own.
        let mut checkpointed_at = 0;
        // Commits since that checkpoint that found the log not started over.
        let mut retries = 0;
        // Whether the thread was asked to catch up for the coming checkpoint.
        let mut catch_up_asked = false;
        // Names the latest request to catch up: one that ends after the writer's own pass, or
        // after the log started over, or after a newer request, is not taken for the current.
        let mut request: u64 = 0;
        // The writer's pass was refused (another checkpoint held the log): run it again on
        // the next commit rather than asking the thread again.
        let mut pass_refused = false;
        // Replaces SQLite's automatic checkpoint on this connection (both use the same hook).
        // The hook runs after the commit, and an error from it would be reported as the
        // commit's own, for a write that did land; so it never returns one.
        writer
            .wal_hook(Some(move |wal: &mut Wal, pages: i32| {
                if pages < previous {
                    woken_at = 0;
                    checkpointed_at = 0;
                    retries = 0;
                    catch_up_asked = false;
                    pass_refused = false;
                    request += 1;
                }
                previous = pages;
                // The writer's checkpoint copied the whole log, but this commit did not start
                // it over: a reader was still reading from it at that moment. Copy the few new
                // pages again so the next write can, for a while; then wait for the next
                // backstop (a reader that holds an old snapshot for long would otherwise cost
                // every commit a checkpoint). Under steady reads and writes this keeps the log
                // near its usual size instead of growing by 6,000 pages at each failed start.
                if checkpointed_at > 0 && retries < RESTART_RETRIES {
                    retries += 1;
                    let _ = wal.checkpoint();
                    return Ok(());
                }
                // Once the thread has caught up (see `catch_up`), or at the backstop, not on
                // every commit: a reader in another process that holds an old snapshot keeps
                // the log from starting over, and every commit would then pay for a checkpoint.
                let mut pass = pass_refused || pages >= checkpointed_at + BACKSTOP_PAGES;
                if !pass && catch_up_asked {
                    let taken = hook_shared
                        .caught_up
                        .lock()
                        .take_if(|(answered, _)| *answered == request);
                    if let Some((_, copied_to)) = taken {
                        // Writes during a long catch-up (scattered updates make it slow)
                        // would leave the pass here as long as the one it replaces: catch up
                        // again instead (asked below), until the backstop.
                        pass = pages - copied_to <= LAST_PASS_PAGES;
                        catch_up_asked = false;
                    }
                }
                if pass {
                    catch_up_asked = false;
                    pass_refused = false;
                    // A catch-up still running is for a log this pass copies anyway.
                    request += 1;
                    // No wake-up before the next 1,000 pages: a copy running on the thread
                    // just as the next write starts the log over would keep it from doing so.
                    woken_at = pages;
                    match wal.checkpoint() {
                        Ok(()) => {
                            checkpointed_at = pages;
                            retries = 0;
                        }
                        // The thread (or another process) is checkpointing: SQLite refuses a
                        // second checkpoint at once, without copying anything. Try again on
                        // the next commit rather than a backstop later.
                        Err(err) if err.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {
                            pass_refused = true;
                        }
                        Err(err) => {
                            checkpointed_at = pages;
                            retries = RESTART_RETRIES;
                            tracing::warn!(%err, pages, "checkpoint on the write path failed; the log keeps growing until one succeeds");
                        }
                    }
                    return Ok(());
                }
                if pages >= checkpointed_at + CATCH_UP_AT_PAGES && !catch_up_asked {
                    catch_up_asked = true;
                    request += 1;
                    hook_shared.signal.lock().catch_up = Some(request);
                    hook_shared.wake.notify_one();
                } else if !catch_up_asked && pages >= woken_at + WAKE_AT_PAGES {
                    woken_at = pages;
                    hook_shared.signal.lock().wanted = true;
                    hook_shared.wake.notify_one();
                }
                Ok(())
            }))
            .map_err(sqlite("hook commits"))?;
        // Started after the hook is in place, so a failure above leaves no thread behind.
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("toolmem-checkpoint".to_owned())
                .spawn(move || run(&connection, &shared))
                .map_err(|err| Error::Worker(err.to_string()))?
        };
        Ok(Checkpointer {
            shared,
            thread: Some(thread),
        })
    }
}

fn run(connection: &Connection, shared: &Shared) {
    loop {
        let catch_up_wanted = {
            let mut signal = shared.signal.lock();
            while !signal.wanted && signal.catch_up.is_none() && !signal.stop {
                shared.wake.wait(&mut signal);
            }
            if signal.stop {
                return;
            }
            signal.wanted = false;
            std::mem::take(&mut signal.catch_up)
        };
        if let Some(request) = catch_up_wanted {
            // Nothing is recorded when the copy failed: the writer's pass then comes at the
            // backstop, as it would without this thread.
            if let Some(copied_to) = catch_up(connection) {
                *shared.caught_up.lock() = Some((request, copied_to));
            }
        } else {
            copy(connection);
        }
    }
}

/// Copies the log into the database file as far as it can without waiting for anyone, and
/// returns the log's size, in pages, when it started; `None` when the checkpoint failed or
/// could not run.
fn copy(connection: &Connection) -> Option<i32> {
    // Passive: never waits for the writer or readers.
    match connection.wal_checkpoint_v2(None::<&str>, CheckpointMode::PASSIVE) {
        // SQLite's answer for a connection that does not see the file in WAL mode.
        Ok((-1, _)) => {
            tracing::warn!(
                "background checkpoint copied nothing: its connection sees no log; the writer checkpoints itself at the backstop"
            );
            None
        }
        Ok((log, _)) => Some(log),
        // The writer's checkpoint is running, and copies everything this one would.
        Err(err) if err.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => None,
        Err(err) => {
            tracing::warn!(
                %err,
                "background checkpoint failed; the writer checkpoints itself at the backstop"
            );
            None
        }
    }
}

/// Leaves the writer's pass, which must copy the whole log before the log can start over,
/// only the newest pages to copy and sync.
///
/// That pass was a 4 ms pause of every write once per 4,000 pages: it synced the log up to
/// its end (SQLite syncs the log before each copy) and the database file (SQLite syncs it only
/// after a copy of the whole log, which a copy racing the writer never is, so that pass
/// synced every page the earlier copies wrote). Here the thread copies, then syncs both files
/// itself. More copies before the syncs did not help (in alternating runs of the benchmark):
/// each lets through as many new pages as it takes time, and most of that time is the sync of
/// the log that SQLite makes before each copy.
fn catch_up(connection: &Connection) -> Option<i32> {
    let copied_to = copy(connection)?;
    sync_ahead(connection, SyncedFile::Database);
    sync_ahead(connection, SyncedFile::Log);
    Some(copied_to)
}

#[derive(Debug, Clone, Copy)]
enum SyncedFile {
    Database,
    Log,
}

/// Syncs the database file or the log through the connection's own open file; `Ok(false)`
/// when the connection has no such file open, `Err` with SQLite's result code when the sync
/// failed.
///
/// Through SQLite's file object rather than a file this code opens: closing any descriptor
/// of a file drops every POSIX lock the process holds on it, SQLite's included.
#[expect(
    unsafe_code,
    reason = "rusqlite exposes neither SQLITE_FCNTL_FILE_POINTER nor a file's xSync"
)]
fn sync_file(connection: &Connection, which: SyncedFile) -> std::result::Result<bool, i32> {
    use rusqlite::ffi;

    let op = match which {
        SyncedFile::Database => ffi::SQLITE_FCNTL_FILE_POINTER,
        SyncedFile::Log => ffi::SQLITE_FCNTL_JOURNAL_POINTER,
    };
    let mut file: *mut ffi::sqlite3_file = std::ptr::null_mut();
    // SAFETY: `handle` is this connection's open database handle, used only on this thread
    // (the connection is owned by it and `Connection` is not `Sync`). Both file controls write
    // one `sqlite3_file` pointer into `file`: SQLite's own object for the database file, open
    // for the connection's life, or for the log, open while the connection is in WAL mode,
    // which it is until it closes. A file that is not open has no methods.
    unsafe {
        let rc = ffi::sqlite3_file_control(
            connection.handle(),
            c"main".as_ptr(),
            op,
            (&raw mut file).cast(),
        );
        if rc != ffi::SQLITE_OK {
            return Err(rc);
        }
        let Some(x_sync) = file
            .as_ref()
            .and_then(|file| file.pMethods.as_ref())
            .and_then(|methods| methods.xSync)
        else {
            return Ok(false);
        };
        match x_sync(file, ffi::SQLITE_SYNC_NORMAL) {
            ffi::SQLITE_OK => Ok(true),
            rc => Err(rc),
        }
    }
}

/// Syncs as [`sync_file`] does; a failure is only logged, since the checkpoint that needs the
/// sync makes its own anyway.
fn sync_ahead(connection: &Connection, which: SyncedFile) {
    if let Err(rc) = sync_file(connection, which) {
        tracing::warn!(
            rc,
            ?which,
            "background sync failed; the writer's checkpoint syncs again"
        );
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        {
            let mut signal = self.shared.signal.lock();
            signal.stop = true;
        }
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pointers SQLite hands out lead to open files that sync: the database file at once,
    /// the log once the connection has read the database in WAL mode.
    #[test]
    fn both_files_sync_through_the_connection() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let connection = Connection::open(dir.path().join("sync.sqlite3")).expect("open");
        assert_eq!(sync_file(&connection, SyncedFile::Database), Ok(true));
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);",
            )
            .expect("write in WAL mode");
        assert_eq!(sync_file(&connection, SyncedFile::Database), Ok(true));
        assert_eq!(sync_file(&connection, SyncedFile::Log), Ok(true));
    }

    /// A connection with no log open says so instead of syncing something else.
    #[test]
    fn a_log_not_open_is_not_synced() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let connection = Connection::open(dir.path().join("sync.sqlite3")).expect("open");
        assert_eq!(sync_file(&connection, SyncedFile::Log), Ok(false));
    }
}
