//! Checkpoints the write-ahead log on a thread of its own, mostly off the write path.
//!
//! SQLite's automatic checkpoint runs inside the `COMMIT` that pushes the log past 1,000 pages:
//! that one write copies the log into the database file and fsyncs both, which made the
//! average put about twice as slow as the write itself. Here the writer's commit hook wakes
//! this thread once per 1,000 new pages, and it copies the log with a `PASSIVE` checkpoint on
//! its own connection while writes go on. The log can only start over once a checkpoint has
//! copied all of it, which a checkpoint racing a steady stream of writes rarely manages; so at
//! 4,000 pages the writer runs one itself, which by then only copies what the thread has not
//! (about 4 ms, against 17 ms for the whole log), and the next write starts the log over.
//! Measured on 10,000 puts through the facade, one run after the other: 49 us per put with
//! the writer doing every checkpoint itself at 4,000 pages, 40 us with this thread copying;
//! moving the writer's backstop to 8,000 or 16,000 pages made no difference over 30,000 puts.
//! The thread taking the writer for that last pass instead was slower, since writes then
//! waited for its fsync every 1,000 pages.
//!
//! A reader still reading from the log when the writer's checkpoint completes keeps the log
//! from starting over at the next write, and it would then grow by another 4,000 pages. So the
//! writer checks again on its next 64 commits (each copies only the new pages): with three
//! store-level readers and 20,000 puts the log peaked at 4,064-4,158 frames in a release build,
//! against 19,775-33,690 without the re-checks. Readers that never pause (connections querying
//! in a tight loop) still keep it growing: a `PASSIVE` checkpoint cannot start over a log that
//! someone reads from, and SQLite's `RESTART` mode, which waits for them, would wait here for
//! the writer's full busy timeout. Once the log does start over, its file is cut back to
//! 17 MiB (`journal_size_limit`) instead of keeping its largest size.
//!
//! Durability is unchanged: a commit is in the log before it returns either way; the
//! checkpoint only moves it into the main file so the log can be reused.

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use rusqlite::hooks::Wal;
use rusqlite::wal::CheckpointMode;
use rusqlite::{Connection, ErrorCode};

use crate::{Error, Result};

/// Log size, in pages, that wakes the checkpointer: SQLite's own default threshold.
const WAKE_AT_PAGES: i32 = 1000;

/// The log file's size after it starts over: a little more than the backstop's 4,000 frames.
const LOG_FILE_LIMIT_BYTES: i64 = 17 * 1024 * 1024;

/// Commits after the writer's own checkpoint that check again whether the log started over.
const RESTART_RETRIES: u32 = 64;

/// Log size at which the writer checkpoints itself, so the log starts over at 16 MiB of 4 KiB
/// pages however the thread fares (unless readers keep it from doing so; see above).
const BACKSTOP_PAGES: i32 = 4 * WAKE_AT_PAGES;

#[derive(Debug, Default)]
struct Signal {
    wanted: bool,
    stop: bool,
}

#[derive(Debug, Default)]
struct Shared {
    signal: Mutex<Signal>,
    wake: Condvar,
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
        let connection = Connection::open(path).map_err(Error::sqlite("open checkpointer"))?;
        connection
            .busy_timeout(busy_timeout)
            .and_then(|()| connection.pragma_update(None, "synchronous", synchronous))
            .map_err(Error::sqlite("configure checkpointer"))?;
        // A connection learns that the file is in WAL mode only when it first reads it; until
        // then every checkpoint it runs returns at once having copied nothing (it did, for
        // every release up to this one, so the writer ended up copying the whole log itself).
        connection
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| {
                row.get::<_, i64>(0)
            })
            .map_err(Error::sqlite("open checkpointer"))?;
        // When the log starts over after it grew past its usual size (readers kept it from
        // starting over for a while), SQLite truncates the file back to this at the next commit.
        writer
            .query_row(
                &format!("PRAGMA journal_size_limit = {LOG_FILE_LIMIT_BYTES}"),
                [],
                |row| row.get::<_, i64>(0),
            )
            .map_err(Error::sqlite("limit the log file"))?;
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
        // Replaces SQLite's automatic checkpoint on this connection (both use the same hook).
        // The hook runs after the commit, and an error from it would be reported as the
        // commit's own, for a write that did land; so it never returns one.
        writer
            .wal_hook(Some(move |wal: &mut Wal, pages: i32| {
                if pages < previous {
                    woken_at = 0;
                    checkpointed_at = 0;
                    retries = 0;
                }
                previous = pages;
                // The writer's checkpoint copied the whole log, but this commit did not start
                // it over: a reader was still reading from it at that moment. Copy the few new
                // pages again so the next write can, for a while; then wait for the next
                // backstop (a reader that holds an old snapshot for long would otherwise cost
                // every commit a checkpoint). Under steady reads and writes this keeps the log
                // near 4,000 pages instead of growing by 4,000 at each failed start.
                if checkpointed_at > 0 && retries < RESTART_RETRIES {
                    retries += 1;
                    let _ = wal.checkpoint();
                    return Ok(());
                }
                // Once per 4,000 pages, not on every commit: a reader in another process that
                // holds an old snapshot keeps the log from starting over, and every commit
                // would then pay for a checkpoint.
                if pages >= checkpointed_at + BACKSTOP_PAGES {
                    match wal.checkpoint() {
                        Ok(()) => {
                            checkpointed_at = pages;
                            retries = 0;
                        }
                        // The thread is checkpointing: SQLite refuses a second checkpoint at
                        // once, without copying anything. Try again on the next commit rather
                        // than 4,000 pages later.
                        Err(err) if err.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {}
                        Err(err) => {
                            checkpointed_at = pages;
                            retries = RESTART_RETRIES;
                            tracing::warn!(%err, pages, "checkpoint on the write path failed; the log keeps growing until one succeeds");
                        }
                    }
                    return Ok(());
                }
                if pages >= woken_at + WAKE_AT_PAGES {
                    woken_at = pages;
                    hook_shared.signal.lock().wanted = true;
                    hook_shared.wake.notify_one();
                }
                Ok(())
            }))
            .map_err(Error::sqlite("hook commits"))?;
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
        {
            let mut signal = shared.signal.lock();
            while !signal.wanted && !signal.stop {
                shared.wake.wait(&mut signal);
            }
            if signal.stop {
                return;
            }
            signal.wanted = false;
        }
        // Passive: never waits for the writer or readers.
        match connection.wal_checkpoint_v2(None::<&str>, CheckpointMode::PASSIVE) {
            // SQLite's answer for a connection that does not see the file in WAL mode.
            Ok((-1, _)) => tracing::warn!(
                "background checkpoint copied nothing: its connection sees no log; the writer checkpoints itself at the backstop"
            ),
            Ok(_) => {}
            Err(err) => tracing::warn!(
                %err,
                "background checkpoint failed; the writer checkpoints itself at the backstop"
            ),
        }
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
