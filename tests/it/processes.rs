//! Several OS processes on one SQLite file: nothing acknowledged is lost, `created_at` never
//! resets, and a writer killed with SIGKILL leaves a healthy database holding every put it
//! acknowledged.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use tool_memory_store::RuleStore;
use tool_memory_store_sqlite::{SqliteOptions, SqliteRuleStore};

use crate::support::lost_acknowledged;

const WRITER: &str = env!("CARGO_BIN_EXE_store_writer");

#[tokio::test]
async fn concurrent_processes_upserting_the_same_ids_lose_nothing() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let rounds = 200;
    let writers: Vec<_> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            Command::new(WRITER)
                .args(["shared", db.to_str().unwrap(), name, &rounds.to_string()])
                .stdout(Stdio::piped())
                .spawn()
        })
        .collect::<std::io::Result<_>>()?;

    // Every created_at each writer saw for each shared id.
    let mut seen_created: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut own_ids = BTreeSet::new();
    for writer in writers {
        let output = writer.wait_with_output()?;
        assert!(
            output.status.success(),
            "writer failed: {:?}",
            output.status
        );
        for line in String::from_utf8(output.stdout)?.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            match fields.as_slice() {
                ["shared", id, created_at] => {
                    seen_created
                        .entry((*id).to_owned())
                        .or_default()
                        .insert((*created_at).to_owned());
                }
                ["own", id] => {
                    own_ids.insert((*id).to_owned());
                }
                _ => panic!("unexpected line {line:?}"),
            }
        }
    }
    assert_eq!(own_ids.len(), 3 * rounds);

    let store = SqliteRuleStore::open(&db, SqliteOptions::default())?;
    let stored = store.list("send_email").await?;
    let stored_ids: BTreeSet<String> = stored.iter().map(|rule| rule.id.clone()).collect();
    assert!(
        own_ids.is_subset(&stored_ids),
        "an acknowledged rule was lost"
    );
    assert_eq!(stored.len(), 3 * rounds + 10);
    for (id, created) in &seen_created {
        assert_eq!(
            created.len(),
            1,
            "created_at of {id} changed between writers: {created:?}"
        );
        let rule = store.get("send_email", id).await?.context("shared rule")?;
        assert_eq!(created.first(), Some(&rule.created_at.to_string()));
    }
    assert_eq!(store.integrity_check()?, "ok");
    Ok(())
}

#[tokio::test]
async fn acknowledged_puts_survive_sigkill() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let mut writer = Command::new(WRITER)
        .args(["stream", db.to_str().unwrap(), "k"])
        .stdout(Stdio::piped())
        .spawn()?;
    let mut acknowledged = Vec::new();
    let mut lines = BufReader::new(writer.stdout.take().context("stdout")?).lines();
    while acknowledged.len() < 400 {
        let line = lines.next().context("writer ended early")??;
        acknowledged.push(line.strip_prefix("ack ").context("ack line")?.to_owned());
    }
    // `Child::kill` sends SIGKILL on Unix: no destructors, no flush, mid-stream.
    writer.kill()?;
    writer.wait()?;

    let missing = lost_acknowledged(&db, "bash", &acknowledged).await?;
    assert!(missing.is_empty(), "acknowledged but lost: {missing:?}");
    Ok(())
}
