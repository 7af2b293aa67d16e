//! Faults: writers killed with SIGKILL at many points, several processes and many tasks
//! writing, revoking and reading one database, storage that is missing, corrupt, locked,
//! read-only or full, and a server stopped with SIGTERM under write load. In every case nothing
//! acknowledged is lost, errors are clear and nothing panics.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};
use tool_memory_core::HistoryAction;
use tool_memory_store::RuleStore;
use tool_memory_store_sqlite::{SqliteOptions, SqliteRuleStore};

use crate::support::{Server, TOOLMEM, cli, lost_acknowledged};

const WRITER: &str = env!("CARGO_BIN_EXE_store_writer");

/// What a writer's acknowledgements promise about its own rules: for each id, the actions
/// acknowledged, in order.
#[derive(Debug, Default)]
struct Acks {
    own: BTreeMap<String, Vec<HistoryAction>>,
    /// Every `created_at` seen for each shared id.
    shared_created: BTreeMap<String, BTreeSet<String>>,
    /// Acknowledged puts per shared id.
    shared_puts: BTreeMap<String, usize>,
}

impl Acks {
    fn read_line(&mut self, line: &str) -> Result<()> {
        let fields: Vec<&str> = line.split(' ').collect();
        let (id, action) = match fields.as_slice() {
            ["ack", id] | ["put", id] => (*id, HistoryAction::Create),
            ["revoke", id] => (*id, HistoryAction::Revoke),
            ["restore", id] => (*id, HistoryAction::Restore),
            ["delete", id] => (*id, HistoryAction::Delete),
            ["shared", id, created_at] => {
                self.shared_created
                    .entry((*id).to_owned())
                    .or_default()
                    .insert((*created_at).to_owned());
                *self.shared_puts.entry((*id).to_owned()).or_default() += 1;
                return Ok(());
            }
            _ => bail!("unexpected writer line {line:?}"),
        };
        self.own.entry(id.to_owned()).or_default().push(action);
        Ok(())
    }
}

/// Checks a store against acknowledgements. With `in_flight`, one operation may have
/// committed without its acknowledgement (the writer was killed between the two), so one id
/// may be one action ahead of what was acknowledged; nothing may ever be behind.
async fn check_acks(
    store: &SqliteRuleStore,
    tool: &str,
    acks: &Acks,
    in_flight: bool,
) -> Result<()> {
    ensure!(store.integrity_check()? == "ok", "integrity check failed");
    let stored: BTreeMap<String, bool> = store
        .list_including_revoked(tool)
        .await?
        .iter()
        .map(|rule| (rule.id.clone(), rule.meta.revoked_at.is_some()))
        .collect();
    let mut ahead = Vec::new();
    for (id, actions) in &acks.own {
        // History is newest first; the acknowledged actions must be its oldest lines, in order.
        let mut history: Vec<HistoryAction> = store
            .history(tool, Some(id), 1000, None)
            .await?
            .into_iter()
            .map(|entry| entry.action)
            .collect();
        history.reverse();
        ensure!(
            history.starts_with(actions),
            "history of {id} lost an acknowledged change: acknowledged {actions:?}, history {history:?}"
        );
        let expected_revoked = actions.iter().rev().find(|action| {
            matches!(
                action,
                HistoryAction::Revoke | HistoryAction::Restore | HistoryAction::Create
            )
        }) == Some(&HistoryAction::Revoke);
        let deleted = actions.last() == Some(&HistoryAction::Delete);
        let matches = match stored.get(id) {
            None => deleted,
            Some(revoked) => !deleted && *revoked == expected_revoked,
        };
        if history.len() > actions.len() || !matches {
            ahead.push((id.clone(), actions.clone(), history));
        }
    }
    let allowed = usize::from(in_flight);
    ensure!(
        ahead.len() <= allowed,
        "{} ids differ from what was acknowledged (at most {allowed} may be one step ahead): {ahead:?}",
        ahead.len()
    );
    for (id, actions, history) in &ahead {
        ensure!(
            history.len() == actions.len() + 1,
            "{id} is not exactly one unacknowledged step ahead: {actions:?} vs {history:?}"
        );
    }
    Ok(())
}

/// A small seeded generator for kill points (SplitMix64).
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Twenty writers, each killed with SIGKILL at a different point: after a seeded number of
/// acknowledgements and a seeded pause, in the middle of a put, a revoke, a restore or a
/// delete. Each time the database opens cleanly, passes `integrity_check`, holds every
/// acknowledged change with its history line, and takes new writes.
#[tokio::test]
async fn sigkill_at_many_points_loses_no_acknowledged_change() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let mut state = 0x51C_u64;
    for run in 0..20 {
        let db = dir.path().join(format!("run-{run}.sqlite3"));
        let mode = if run % 2 == 0 { "churn" } else { "stream" };
        let mut args = vec![mode.to_owned(), db.display().to_string(), format!("k{run}")];
        if mode == "churn" {
            args.push("1000000".to_owned());
        }
        let mut writer = Command::new(WRITER)
            .args(&args)
            .stdout(Stdio::piped())
            .spawn()?;
        let kill_after = 1 + (next(&mut state) % 250) as usize;
        let pause = std::time::Duration::from_micros(next(&mut state) % 3000);
        let mut acks = Acks::default();
        let mut lines = BufReader::new(writer.stdout.take().context("stdout")?).lines();
        for _ in 0..kill_after {
            let line = lines.next().context("writer ended early")??;
            acks.read_line(&line)?;
        }
        // The pause moves the kill point within the next operation; no assertion depends on it.
        std::thread::sleep(pause);
        writer.kill()?;
        writer.wait()?;
        // Lines the writer printed before it died are acknowledgements too.
        for line in lines {
            acks.read_line(&line?)?;
        }
        let store = SqliteRuleStore::open(&db, SqliteOptions::default())?;
        check_acks(&store, "bash", &acks, true)
            .await
            .with_context(|| format!("run {run} ({mode}, killed after {kill_after} acks)"))?;
        store
            .put(tool_memory_core::RulePut::new(
                "bash",
                "written after the crash",
            ))
            .await
            .with_context(|| format!("run {run}: the database takes writes again"))?;
    }
    Ok(())
}

/// Three processes churning (put, revoke, restore, delete, read back) while sixteen tasks of
/// one facade and three CLI processes capture the same edict: no acknowledged change is lost,
/// every change has its history line, `created_at` of shared rules never moves, and the edict
/// is one rule however often and wherever it is captured.
#[tokio::test]
async fn processes_and_tasks_writing_revoking_and_reading_lose_nothing() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    // Create the schema before the racers start.
    drop(SqliteRuleStore::open(&db, SqliteOptions::default())?);
    let rounds = 120;
    let writers: Vec<_> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            Command::new(WRITER)
                .args([
                    "churn",
                    db.to_str().unwrap_or_default(),
                    name,
                    &rounds.to_string(),
                ])
                .stdout(Stdio::piped())
                .spawn()
        })
        .collect::<std::io::Result<_>>()?;
    let turn = json!({
        "user_message": "Never email Sarah at sarah@example.com.",
        "tool_calls": [{"name": "send_email", "success": true}],
        "available_tools": ["send_email", "bash", "browser"]
    });
    let captures: Vec<_> = (0..3)
        .map(|_| {
            let mut child = Command::new(TOOLMEM)
                .args(["--json", "--db"])
                .arg(&db)
                .arg("capture")
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()?;
            child
                .stdin
                .take()
                .context("stdin")?
                .write_all(turn.to_string().as_bytes())?;
            Ok(child)
        })
        .collect::<Result<_>>()?;
    let client = active_memory_client::ActiveMemoryClient::open_sqlite(&db)?.with_config(
        active_memory_client::ClientConfig {
            capture_enabled: true,
            ..active_memory_client::ClientConfig::default()
        },
    );
    let record: active_memory_client::TurnRecord = serde_json::from_value(turn)?;
    let record = Arc::new(record);
    let tasks: Vec<_> = (0..16)
        .map(|task| {
            let client = client.clone();
            let record = record.clone();
            tokio::spawn(async move {
                client.after_turn(&record).await?;
                // Readers race the writers too.
                let listed = client.list("bash").await?;
                let prompt = client.rules_for_prompt(&[]).await?;
                anyhow::Ok((task, listed.len(), prompt.rendered.len()))
            })
        })
        .collect();
    for task in tasks {
        task.await??;
    }
    for capture in captures {
        let output = capture.wait_with_output()?;
        ensure!(
            output.status.success(),
            "capture failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let mut acks = Acks::default();
    for writer in writers {
        let output = writer.wait_with_output()?;
        ensure!(
            output.status.success(),
            "writer failed: {:?}",
            output.status
        );
        for line in String::from_utf8(output.stdout)?.lines() {
            acks.read_line(line)?;
        }
    }
    ensure!(acks.own.len() == 3 * rounds);

    let store = SqliteRuleStore::open(&db, SqliteOptions::default())?;
    check_acks(&store, "bash", &acks, false).await?;
    for (id, created) in &acks.shared_created {
        ensure!(created.len() == 1, "created_at of {id} moved: {created:?}");
        let history = store.history("browser", Some(id), 10_000, None).await?;
        let creates = history
            .iter()
            .filter(|entry| entry.action == HistoryAction::Create)
            .count();
        let updates = history
            .iter()
            .filter(|entry| entry.action == HistoryAction::Update)
            .count();
        ensure!(creates == 1, "{id} created {creates} times");
        ensure!(
            creates + updates == acks.shared_puts[id],
            "{id}: {} acknowledged puts, {} history lines",
            acks.shared_puts[id],
            creates + updates
        );
    }
    let edicts = store.list("send_email").await?;
    ensure!(
        edicts.len() == 1,
        "the edict is stored {} times: {edicts:?}",
        edicts.len()
    );
    let history = store
        .history("send_email", Some(&edicts[0].id), 1000, None)
        .await?;
    ensure!(
        history
            .iter()
            .filter(|entry| entry.action == HistoryAction::Create)
            .count()
            == 1,
        "{history:?}"
    );
    Ok(())
}

/// Errors that come out of the CLI must be one clear line, never a panic.
fn ensure_clear_error(code: i32, stderr: &str, expected: &[&str]) -> Result<()> {
    ensure!(code != 0 && code != 101, "exit code {code}: {stderr}");
    ensure!(!stderr.contains("panicked"), "panic: {stderr}");
    ensure!(
        expected.iter().any(|fragment| stderr.contains(fragment)),
        "unclear error, expected one of {expected:?}: {stderr}"
    );
    Ok(())
}

fn serve_output(db: &Path) -> Result<(i32, String)> {
    let output = Command::new(TOOLMEM)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .env_remove("TOOLMEM_TOKEN")
        .stdin(Stdio::null())
        .output()?;
    Ok((
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stderr)?,
    ))
}

#[test]
fn a_missing_directory_is_a_clear_error() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("no/such/dir/rules.sqlite3");
    let (code, _, stderr) = cli(&db, &["rule", "add", "bash", "never run sudo"], "")?;
    ensure_clear_error(code, &stderr, &["unable to open database file"])?;
    ensure!(
        stderr.contains("no/such/dir"),
        "the error names the path: {stderr}"
    );
    let (code, stderr) = serve_output(&db)?;
    ensure_clear_error(code, &stderr, &["unable to open database file"])?;
    ensure!(!db.exists());
    Ok(())
}

#[tokio::test]
async fn a_corrupt_database_is_a_clear_error_and_is_never_overwritten() -> Result<()> {
    let dir = tempfile::tempdir()?;
    // Garbage from the first byte: not a database at all.
    let garbage = dir.path().join("garbage.sqlite3");
    let bytes: Vec<u8> = (0..32_768_u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&garbage, &bytes)?;
    let (code, _, stderr) = cli(&garbage, &["rule", "list", "bash"], "")?;
    ensure_clear_error(code, &stderr, &["file is not a database"])?;
    let (code, _, stderr) = cli(&garbage, &["rule", "add", "bash", "x"], "")?;
    ensure_clear_error(code, &stderr, &["file is not a database"])?;
    let (code, stderr) = serve_output(&garbage)?;
    ensure_clear_error(code, &stderr, &["file is not a database"])?;
    ensure!(
        std::fs::read(&garbage)? == bytes,
        "a corrupt file was modified"
    );

    // A real database whose pages were overwritten past the header: the server starts or
    // refuses clearly; while up, every reply is well-formed JSON-RPC and it never crashes.
    let damaged = dir.path().join("damaged.sqlite3");
    {
        let store = SqliteRuleStore::open(&damaged, SqliteOptions::default())?;
        for index in 0..300 {
            store
                .put(tool_memory_core::RulePut::new(
                    "bash",
                    format!("rule number {index} {}", "x".repeat(200)),
                ))
                .await?;
        }
    }
    // Fold the WAL into the file so the damage hits the pages the server reads.
    rusqlite::Connection::open(&damaged)?.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    let mut file = std::fs::read(&damaged)?;
    ensure!(
        file.len() > 40_000,
        "database too small to damage: {}",
        file.len()
    );
    for (offset, byte) in file.iter_mut().enumerate().skip(8192).take(24_576) {
        *byte = (offset as u8).wrapping_mul(31);
    }
    std::fs::write(&damaged, &file)?;
    let started = std::panic::catch_unwind(|| Server::start(&damaged, &[]));
    match started {
        Ok(Ok(server)) => {
            for method in [
                "memory.tool_rule_list",
                "memory.tool_rule_put",
                "memory.tool_rules_for_prompt",
            ] {
                let params = match method {
                    "memory.tool_rule_put" => json!({"tool_name": "bash", "rule": "new"}),
                    "memory.tool_rules_for_prompt" => json!({}),
                    _ => json!({"tool_name": "bash"}),
                };
                let reply = server.call(method, params).await?;
                ensure!(
                    reply.get("result").is_some() || reply["error"]["code"] == -32002,
                    "{method}: {reply}"
                );
            }
            server.stop()?;
        }
        Ok(Err(_)) => {
            let (code, stderr) = serve_output(&damaged)?;
            ensure_clear_error(code, &stderr, &["malformed", "not a database", "corrupt"])?;
        }
        Err(_) => bail!("starting the server panicked"),
    }
    Ok(())
}

/// Another process holds SQLite's write lock (`BEGIN EXCLUSIVE`): reads go on (WAL), a write
/// waits out the busy timeout and then fails with `-32002` saying the database is locked, and
/// nothing half-written appears once the lock is gone.
#[tokio::test]
async fn a_locked_database_keeps_reads_and_names_the_lock_on_writes() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let server = Server::start(&db, &[])?;
    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "rule": "before the lock"}),
        )
        .await?;
    let locker = rusqlite::Connection::open(&db)?;
    locker.execute_batch("BEGIN EXCLUSIVE;")?;
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    ensure!(listed.as_array().map(Vec::len) == Some(1), "{listed}");
    let reply = server
        .call(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "rule": "during the lock"}),
        )
        .await?;
    ensure!(reply["error"]["code"] == -32002, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    ensure!(
        message.contains("locked") || message.contains("busy"),
        "{message}"
    );
    ensure!(
        !message.contains("during the lock"),
        "the error quotes rule text: {message}"
    );
    locker.execute_batch("ROLLBACK;")?;
    drop(locker);
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    ensure!(
        listed.as_array().map(Vec::len) == Some(1),
        "a failed write left a rule: {listed}"
    );
    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "rule": "after the lock"}),
        )
        .await?;
    server.stop()
}

/// A tmpfs mounted for one test and unmounted on drop. Only root can mount; callers skip
/// (saying so) when mounting is not possible.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().ok()?;
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        mounted.then_some(Tmpfs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn remount(&self, options: &str) -> Result<()> {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(self.dir.path())
            .status()?;
        ensure!(status.success(), "remount {options} failed");
        Ok(())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// A database on a file system remounted read-only: the CLI and the server still read its rules,
/// every write fails with a clear error (`-32002` over RPC) saying the database is read-only,
/// and the file is left exactly as it was.
#[tokio::test]
async fn a_read_only_database_serves_reads_and_refuses_writes_clearly() -> Result<()> {
    let Some(fs) = Tmpfs::mount("8m") else {
        eprintln!("skipped: cannot mount a tmpfs (not root?); see docs/reliability.md");
        return Ok(());
    };
    let db = fs.path().join("rules.sqlite3");
    let server = Server::start(&db, &[])?;
    let stored = server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "rule": "never run sudo", "priority": "critical"}),
        )
        .await?;
    server.stop()?;
    fs.remount("ro")?;
    let before = std::fs::read(&db)?;

    let (code, stdout, stderr) = cli(&db, &["rule", "list", "bash"], "")?;
    ensure!(code == 0, "listing a read-only database failed: {stderr}");
    ensure!(stdout.contains("never run sudo"), "{stdout}");
    let (code, _, stderr) = cli(&db, &["rule", "add", "bash", "never run rm"], "")?;
    ensure_clear_error(code, &stderr, &["readonly", "read-only"])?;

    let server = Server::start(&db, &[])?;
    let fetched = server
        .result(
            "memory.tool_rule_get",
            json!({"tool_name": "bash", "id": stored["id"]}),
        )
        .await?;
    ensure!(fetched == stored, "{fetched} != {stored}");
    let prompt = server
        .result("memory.tool_rules_for_prompt", json!({"tools": ["bash"]}))
        .await?;
    ensure!(prompt.to_string().contains("never run sudo"), "{prompt}");
    // Search and history have lazy indexes that cannot be brought up to date here; they still
    // answer, from the rules and the log themselves.
    let recalled = server
        .result(
            "memory.recall",
            json!({"namespace": "tool-bash", "query": "sudo", "limit": 5}),
        )
        .await?;
    ensure!(
        recalled.to_string().contains("never run sudo"),
        "{recalled}"
    );
    let history = server
        .result("memory.tool_rule_history", json!({"tool_name": "bash"}))
        .await?;
    ensure!(
        history.as_array().map(Vec::len) == Some(1) && history[0]["action"] == "create",
        "{history}"
    );
    let reply = server
        .call(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "rule": "never run rm"}),
        )
        .await?;
    ensure!(reply["error"]["code"] == -32002, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    ensure!(message.contains("readonly"), "{message}");
    server.stop()?;
    ensure!(
        std::fs::read(&db)? == before,
        "a read-only database changed"
    );

    fs.remount("rw")?;
    let store = SqliteRuleStore::open(&db, SqliteOptions::default())?;
    ensure!(
        store.list("bash").await?.len() == 1,
        "no rule was added or lost"
    );
    Ok(())
}

/// A copy of a database taken while it was in use (its log holds commits the main file lacks,
/// and no index file) on a read-only file system: reading the main file alone would miss
/// rules, so opening it is refused with a clear error instead.
#[tokio::test]
async fn a_read_only_copy_with_a_pending_log_is_refused_not_misread() -> Result<()> {
    let Some(fs) = Tmpfs::mount("8m") else {
        eprintln!("skipped: cannot mount a tmpfs (not root?); see docs/reliability.md");
        return Ok(());
    };
    let source = tempfile::tempdir()?;
    let live = source.path().join("rules.sqlite3");
    let store = SqliteRuleStore::open(&live, SqliteOptions::default())?;
    store
        .put(tool_memory_core::RulePut::new(
            "send_email",
            "never email sarah",
        ))
        .await?;
    // The store is still open, so the put is in the log, not yet in the main file.
    let copy = fs.path().join("rules.sqlite3");
    std::fs::copy(&live, &copy)?;
    std::fs::copy(
        source.path().join("rules.sqlite3-wal"),
        fs.path().join("rules.sqlite3-wal"),
    )?;
    ensure!(
        std::fs::metadata(fs.path().join("rules.sqlite3-wal"))?.len() > 0,
        "the copied log is empty"
    );
    fs.remount("ro")?;
    let err = SqliteRuleStore::open(&copy, SqliteOptions::default())
        .err()
        .context("a read-only copy with a pending log opened")?;
    ensure!(err.to_string().contains("write-ahead log"), "{err}");
    let (code, _, stderr) = cli(&copy, &["rule", "list", "send_email"], "")?;
    ensure_clear_error(code, &stderr, &["write-ahead log"])?;
    drop(store);
    Ok(())
}

/// A full disk (a 1 MiB tmpfs): puts fail with `-32002` once it is full, reads go on, and
/// every acknowledged put is there after a restart.
#[tokio::test]
async fn a_full_disk_fails_writes_clearly_and_keeps_acknowledged_ones() -> Result<()> {
    let Some(fs) = Tmpfs::mount("1m") else {
        eprintln!("skipped: cannot mount a tmpfs (not root?); see docs/reliability.md");
        return Ok(());
    };
    let db = fs.path().join("rules.sqlite3");
    let server = Server::start(&db, &[])?;
    let mut acknowledged = Vec::new();
    let mut failure = None;
    for index in 0..2000 {
        let id = format!("r{index}");
        let reply = server
            .call("memory.tool_rule_put", json!({"tool_name": "bash", "id": id, "rule": format!("{index} {}", "f".repeat(2000))}))
            .await?;
        if reply.get("result").is_some() {
            acknowledged.push(id);
        } else {
            failure = Some(reply);
            break;
        }
    }
    let failure = failure.context("1 MiB never filled up")?;
    ensure!(failure["error"]["code"] == -32002, "{failure}");
    let message = failure["error"]["message"].as_str().unwrap_or_default();
    ensure!(message.contains("full"), "{message}");
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    ensure!(listed.as_array().map(Vec::len) == Some(acknowledged.len()));
    server.stop()?;
    let store = SqliteRuleStore::open(&db, SqliteOptions::default());
    // Reopening may itself need a little room (WAL index); a clear error is acceptable there,
    // but the rules must be readable from the file.
    let connection =
        rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut statement = connection.prepare("SELECT id FROM rules WHERE tool_name = 'bash'")?;
    let stored: BTreeSet<String> = statement
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for id in &acknowledged {
        ensure!(stored.contains(id), "acknowledged {id} lost on a full disk");
    }
    if let Ok(store) = store {
        ensure!(store.integrity_check()? == "ok");
    }
    Ok(())
}

/// SIGTERM while eight clients write as fast as they can: the server exits 0, and every put
/// it answered is in the database afterwards.
#[tokio::test]
async fn graceful_shutdown_under_load_keeps_every_acknowledged_put() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let server = Server::start(&db, &[])?;
    let url = format!("{}/rpc", server.url);
    let (first_acks, mut acks_seen) = tokio::sync::mpsc::channel::<()>(1024);
    let clients: Vec<_> = (0..8)
        .map(|client| {
            let http = reqwest::Client::new();
            let url = url.clone();
            let first_acks = first_acks.clone();
            tokio::spawn(async move {
                let mut acknowledged = Vec::new();
                for index in 0..100_000 {
                    let id = format!("c{client}-{index}");
                    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_put", "params": {"tool_name": "bash", "id": id, "rule": "under load"}});
                    let Ok(response) = http.post(&url).json(&request).send().await else {
                        break;
                    };
                    let Ok(reply) = response.json::<Value>().await else {
                        break;
                    };
                    if reply.get("result").is_some() {
                        acknowledged.push(id);
                        let _ = first_acks.try_send(());
                    }
                }
                acknowledged
            })
        })
        .collect();
    drop(first_acks);
    // Stop once the load is well under way.
    for _ in 0..200 {
        acks_seen.recv().await.context("clients stopped early")?;
    }
    server.stop()?;
    let mut acknowledged = Vec::new();
    for client in clients {
        acknowledged.extend(client.await?);
    }
    let lost = lost_acknowledged(&db, "bash", &acknowledged).await?;
    ensure!(
        lost.is_empty(),
        "acknowledged but lost at shutdown: {lost:?}"
    );
    ensure!(acknowledged.len() >= 200);
    Ok(())
}

/// A file-size limit (`RLIMIT_FSIZE`, what `ulimit -f` sets): a write past it fails like a full
/// disk, with `-32002`, instead of the process dying of SIGXFSZ (before the fix the server died
/// after 18 puts). Reads go on, the server stops cleanly, and every acknowledged put is in the
/// file after a restart without the limit. The CLI fails the same way: an error message and
/// exit code 1, not a signal.
#[tokio::test]
async fn a_file_size_limit_fails_writes_clearly_and_keeps_acknowledged_ones() -> Result<()> {
    use std::os::unix::process::ExitStatusExt;
    // 256 KiB: the database, its log and its index start well below it, and 2 KB puts reach
    // it after a few dozen.
    const LIMIT: &str = "--fsize=262144";
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let mut limited = Command::new("prlimit");
    limited
        .args([LIMIT, "--"])
        .arg(TOOLMEM)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db);
    let server = Server::spawn(limited)?;
    let mut acknowledged = Vec::new();
    let mut failure = None;
    for index in 0..2000 {
        let id = format!("r{index}");
        let reply = server
            .call("memory.tool_rule_put", json!({"tool_name": "bash", "id": id, "rule": format!("{index} {}", "f".repeat(2000))}))
            .await
            .with_context(|| format!("put {index}: the server is gone"))?;
        if reply.get("result").is_some() {
            acknowledged.push(id);
        } else {
            failure = Some(reply);
            break;
        }
    }
    let failure = failure.context("256 KiB never filled up")?;
    ensure!(failure["error"]["code"] == -32002, "{failure}");
    ensure!(!acknowledged.is_empty());
    // Reads go on, and a second write fails the same way rather than ending the server.
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    ensure!(listed.as_array().map(Vec::len) == Some(acknowledged.len()));
    let again = server
        .call(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "id": "again", "rule": "f".repeat(2000)}),
        )
        .await?;
    ensure!(again["error"]["code"] == -32002, "{again}");
    let verdict = server
        .result(
            "memory.tool_call_check",
            json!({"tool_name": "bash", "arguments": {"command": "ls"}}),
        )
        .await?;
    ensure!(verdict["decision"].is_string(), "{verdict}");
    server.stop()?;

    // Without the limit: everything acknowledged is there, and writes work again.
    let server = Server::start(&db, &[])?;
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    let stored: BTreeSet<&str> = listed
        .as_array()
        .context("list")?
        .iter()
        .filter_map(|rule| rule["id"].as_str())
        .collect();
    for id in &acknowledged {
        ensure!(stored.contains(id.as_str()), "acknowledged {id} lost");
    }
    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "bash", "rule": "after the limit"}),
        )
        .await?;
    server.stop()?;

    // The CLI under the same limit, on a database of its own.
    let cli_db = dir.path().join("cli.sqlite3");
    let mut outcome = None;
    for index in 0..500 {
        let output = Command::new("prlimit")
            .args([LIMIT, "--"])
            .arg(TOOLMEM)
            .arg("--db")
            .arg(&cli_db)
            .args([
                "rule",
                "add",
                "bash",
                &format!("{index} {}", "f".repeat(2000)),
            ])
            .output()?;
        if !output.status.success() {
            outcome = Some(output);
            break;
        }
    }
    let output = outcome.context("the CLI never reached the limit")?;
    ensure!(
        output.status.signal().is_none() && output.status.code() == Some(1),
        "the CLI ended with {:?}",
        output.status
    );
    let stderr = String::from_utf8(output.stderr)?;
    ensure!(stderr.starts_with("error: "), "{stderr}");
    Ok(())
}
