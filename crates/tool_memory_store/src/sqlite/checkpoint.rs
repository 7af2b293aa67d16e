//! Checkpoints the write-ahead log on a thread of its own, off the write path.
//!
//! SQLite's automatic checkpoint runs inside the `COMMIT` that pushes the log past 1,000 pages:
//! that one write copies the log into the database file and fsyncs both, which made the
//! average put about twice as slow as the write itself. Here the writer's commit hook only
//! wakes this thread, which runs a `PASSIVE` checkpoint on its own connection while writes go
//! on. Durability is unchanged: a commit is in the log before it returns either way; the
//! checkpoint only moves it into the main file so the log can be reused.

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;

use parking_lot::{Condvar, Mutex};
use rusqlite::Connection;
use rusqlite::hooks::Wal;
use rusqlite::wal::CheckpointMode;

use crate::{Error, Result};

/// Log size, in pages, that wakes the checkpointer: SQLite's own default threshold.
const WAKE_AT_PAGES: i32 = 1000;

/// Log size at which the writer stops waiting for the thread and checkpoints itself, so the
/// log stays bounded even if the thread cannot keep up.
const BACKSTOP_PAGES: i32 = 16 * WAKE_AT_PAGES;

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
    pub(crate) fn start(path: &Path, writer: &mut Connection) -> Result<Checkpointer> {
        let connection = Connection::open(path).map_err(Error::sqlite("open checkpointer"))?;
        let shared = Arc::new(Shared::default());
        let thread = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("toolmem-checkpoint".to_owned())
                .spawn(move || run(&connection, &shared))
                .map_err(|err| Error::Worker(err.to_string()))?
        };
        let hook_shared = Arc::clone(&shared);
        // Replaces SQLite's automatic checkpoint on this connection (both use the same hook).
        // The hook runs after the commit, and an error from it would be reported as the
        // commit's own, for a write that did land; so it never returns one.
        writer
            .wal_hook(Some(move |wal: &mut Wal, pages: i32| {
                if pages >= BACKSTOP_PAGES {
                    if let Err(err) = wal.checkpoint() {
                        tracing::warn!(%err, pages, "checkpoint on the write path failed; the log keeps growing until one succeeds");
                    }
                    return Ok(());
                }
                if pages >= WAKE_AT_PAGES {
                    hook_shared.signal.lock().wanted = true;
                    hook_shared.wake.notify_one();
                }
                Ok(())
            }))
            .map_err(Error::sqlite("hook commits"))?;
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
        // Passive: never waits for the writer or readers; what it cannot copy now, the next
        // wake-up copies.
        if let Err(err) = connection.wal_checkpoint_v2(None::<&str>, CheckpointMode::PASSIVE) {
            tracing::warn!(%err, "background checkpoint failed; the writer checkpoints itself past the backstop");
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
