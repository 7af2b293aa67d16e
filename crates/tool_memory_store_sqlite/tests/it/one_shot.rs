//! The one-shot footprint (`Footprint::OneShot`), as an agent's hook or a CLI command opens the
//! store: one connection and no thread, no migration transaction when the schema is current,
//! and still every safety property of the server's footprint. (The conformance suite also runs
//! on it: `conformance.rs`, `one_shot`.)

use std::time::Duration;

use anyhow::Result;
use tool_memory_core::{RulePut, ToolMemoryPriority};
use tool_memory_store::{Error, RuleStore};
use tool_memory_store_sqlite::{Footprint, SqliteOptions, SqliteRuleStore};

fn one_shot(busy_timeout: Duration) -> SqliteOptions {
    SqliteOptions {
        footprint: Footprint::OneShot,
        busy_timeout,
        ..SqliteOptions::default()
    }
}

/// A file at this version, holding one critical rule, written by a server's store.
async fn file_with_a_rule() -> Result<(tempfile::TempDir, std::path::PathBuf, String)> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rules.sqlite3");
    let server = SqliteRuleStore::open(&path, SqliteOptions::default())?;
    let rule = server
        .put(
            RulePut::new("send_email", "Never email Sarah.")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    Ok((dir, path, rule.id))
}

/// A hook that starts while another process holds the write lock (a server in the middle of
/// a write, or waiting on its checkpoint) reads at once: a file at this version needs no
/// migration, so opening it takes no write lock. The server's footprint, which opens every
/// file through a migration transaction, waits for the lock and fails when it is held longer
/// than its busy timeout.
#[tokio::test(flavor = "current_thread")]
async fn opening_a_current_file_waits_for_no_writer() -> Result<()> {
    let (_dir, path, id) = file_with_a_rule().await?;
    let holder = rusqlite::Connection::open(&path)?;
    holder.execute_batch("BEGIN IMMEDIATE")?;
    // No busy timeout at all: anything that needed the write lock fails at once, on a slow
    // machine as on a fast one, so the open and the read succeeding show they took none.
    let short = Duration::ZERO;

    let store = SqliteRuleStore::open(&path, one_shot(short))?;
    let rules = store.list("send_email").await?;
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].id, id);
    // A write does need the lock, and fails past the busy timeout without a trace.
    let refused = store
        .put(RulePut::new("send_email", "Never email Bob."))
        .await;
    assert!(refused.is_err(), "a write went through a held write lock");

    let server = SqliteRuleStore::open(
        &path,
        SqliteOptions {
            busy_timeout: short,
            ..SqliteOptions::default()
        },
    );
    assert!(
        server.is_err(),
        "the server's footprint opens through a migration transaction, which needs the lock"
    );

    holder.execute_batch("COMMIT")?;
    store
        .put(RulePut::new("send_email", "Never email Bob."))
        .await?;
    assert_eq!(store.list("send_email").await?.len(), 2);
    Ok(())
}

/// The schema check of every open: a file a newer toolmem migrated is refused (so a hook fails
/// closed on it), and a file behind this version (a new one too) is migrated.
#[tokio::test(flavor = "current_thread")]
async fn a_newer_schema_is_refused_and_an_older_one_migrated() -> Result<()> {
    let (_dir, path, _) = file_with_a_rule().await?;
    let current: i64 =
        rusqlite::Connection::open(&path)?
            .query_row("PRAGMA user_version", [], |row| row.get(0))?;
    rusqlite::Connection::open(&path)?.pragma_update(None, "user_version", current + 1)?;
    match SqliteRuleStore::open(&path, one_shot(Duration::from_secs(5))) {
        Err(Error::SchemaTooNew { found, supported }) => {
            assert_eq!((found, supported), (current + 1, current));
        }
        other => panic!("a newer schema was opened: {other:?}"),
    }

    let dir = tempfile::tempdir()?;
    let fresh = dir.path().join("new.sqlite3");
    let store = SqliteRuleStore::open(&fresh, one_shot(Duration::from_secs(5)))?;
    assert_eq!(store.schema_version()?, current);
    store.put(RulePut::new("shell", "quote every path")).await?;
    assert_eq!(store.list("shell").await?.len(), 1);
    let mode: String =
        rusqlite::Connection::open(&fresh)?
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))?;
    assert_eq!(
        mode, "wal",
        "a file the one-shot store created is in WAL mode"
    );
    Ok(())
}

/// A one-shot store sees what other processes commit between its calls: its caches are keyed
/// by the file's data version as a server's are, not by its own writes alone.
#[tokio::test(flavor = "current_thread")]
async fn writes_of_other_processes_are_seen_between_calls() -> Result<()> {
    let (_dir, path, id) = file_with_a_rule().await?;
    let store = SqliteRuleStore::open(&path, one_shot(Duration::from_secs(5)))?;
    assert_eq!(store.list("send_email").await?.len(), 1);
    assert_eq!(store.rules_for_prompt(&[], None).await?.rules.len(), 1);
    rusqlite::Connection::open(&path)?
        .execute("UPDATE rules SET priority = 'normal' WHERE id = ?1", [&id])?;
    assert_eq!(store.rules_for_prompt(&[], None).await?.rules.len(), 0);
    rusqlite::Connection::open(&path)?.execute("DELETE FROM rules WHERE id = ?1", [&id])?;
    assert!(store.list("send_email").await?.is_empty());
    Ok(())
}

/// Without the checkpoint thread, SQLite's own automatic checkpoint on the one connection
/// copies the log into the database file at 1,000 pages, so the log starts over instead of
/// growing with every write.
#[tokio::test(flavor = "current_thread")]
async fn sqlites_own_checkpoint_keeps_the_log_short() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rules.sqlite3");
    let store = SqliteRuleStore::open(&path, one_shot(Duration::from_secs(5)))?;
    let log = dir.path().join("rules.sqlite3-wal");
    // A frame is a 4 KiB page plus a 24-byte header, after a 32-byte log header.
    let frames = || -> Result<u64> { Ok(std::fs::metadata(&log)?.len() / (4096 + 24)) };
    let mut frames_written = 0;
    let mut index = 0;
    while frames_written < 3_000 {
        let before = frames()?;
        store
            .put(RulePut::new(
                format!("tool_{}", index % 40),
                format!("rule {index}: never pass --x{index}"),
            ))
            .await?;
        frames_written += frames()?.saturating_sub(before).max(1);
        index += 1;
    }
    assert!(
        frames()? < 2_000,
        "after about {frames_written} frames of writes the log holds {} frames: it never started over",
        frames()?
    );
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
    let file = rusqlite::Connection::open_with_flags(
        format!("file:{}?immutable=1", path.display()),
        flags,
    )?;
    let copied: i64 = file.query_row("SELECT count(*) FROM rules", [], |row| row.get(0))?;
    assert!(copied > 0, "nothing was copied into the database file");
    Ok(())
}

/// On a current-thread runtime (the hook's) a one-shot call runs on the calling thread and
/// completes at its first poll: no thread of the blocking pool is started for it. A server's
/// store hands the same call to that pool, so it is still pending after one poll. The pool's
/// one thread is kept busy meanwhile, so that the server's call cannot finish between its
/// hand-off and the poll however the machine schedules threads.
#[test]
fn calls_complete_on_the_calling_thread() -> Result<()> {
    let (_dir, path, _) = tokio::runtime::Builder::new_current_thread()
        .build()?
        .block_on(file_with_a_rule())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(1)
        .enable_all()
        .build()?;
    let _entered = runtime.enter();
    let first_poll = |store: &SqliteRuleStore| {
        let mut put = std::pin::pin!(store.put(RulePut::new("shell", "quote every path")));
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        put.as_mut().poll(&mut context).is_ready()
    };
    let one_shot_store = SqliteRuleStore::open(&path, one_shot(Duration::from_secs(5)))?;
    assert!(
        first_poll(&one_shot_store),
        "the one-shot call was handed off"
    );
    let server = SqliteRuleStore::open(&path, SqliteOptions::default())?;
    let (release, held) = std::sync::mpsc::channel::<()>();
    let busy = runtime.spawn_blocking(move || held.recv());
    assert!(
        !first_poll(&server),
        "the server's call ran on the runtime's only thread"
    );
    release.send(())?;
    runtime.block_on(busy)??;
    Ok(())
}
