//! Behaviour specific to the SQLite store: persistence across reopen, WAL, schema version, caches.

use std::sync::Arc;

use anyhow::Result;
use tool_memory_core::{Origin, RulePut, ToolMemoryPriority};
use tool_memory_store::RuleStore;
use tool_memory_store_sqlite::{Durability, SqliteOptions, SqliteRuleStore};

/// A store on a new file in a temporary directory, which lives as long as the returned guard.
fn temp_store() -> Result<(tempfile::TempDir, std::path::PathBuf, SqliteRuleStore)> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rules.sqlite3");
    let store = SqliteRuleStore::open(&path, SqliteOptions::default())?;
    Ok((dir, path, store))
}

#[tokio::test]
async fn rules_survive_reopening_the_file() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rules.sqlite3");
    let stored = {
        let store = SqliteRuleStore::open(&path, SqliteOptions::default())?;
        store
            .put(
                RulePut::new("send_email", "Never email Sarah at sarah@example.com.")
                    .with_priority(ToolMemoryPriority::Critical),
            )
            .await?
    };
    let reopened = SqliteRuleStore::open(
        &path,
        SqliteOptions {
            durability: Durability::Full,
            ..SqliteOptions::default()
        },
    )?;
    assert_eq!(reopened.get("send_email", &stored.id).await?, Some(stored));
    assert_eq!(reopened.integrity_check()?, "ok");
    assert_eq!(reopened.schema_version()?, 9);
    let mode: String =
        rusqlite::Connection::open(&path)?
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))?;
    assert_eq!(mode, "wal");
    Ok(())
}

/// A put without an id is a new rule: the store writes it without reading first, and should
/// its new id name a stored rule (ids are random UUIDs in use; here a test's sequence), the
/// put fails instead of overwriting that rule.
#[tokio::test]
async fn a_new_id_never_overwrites_a_stored_rule() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let store = SqliteRuleStore::open(
        dir.path().join("rules.sqlite3"),
        SqliteOptions {
            services: tool_memory_store::Services {
                ids: std::sync::Arc::new(tool_memory_core::SequentialIds::new("id")),
                ..tool_memory_store::Services::default()
            },
            ..SqliteOptions::default()
        },
    )?;
    let stored = store
        .put(RulePut::new("shell", "quote every path").with_id("id-1"))
        .await?;
    let err = store
        .put(RulePut::new("shell", "a new rule"))
        .await
        .expect_err("the new id names the stored rule");
    assert!(err.to_string().contains("write rule"), "{err}");
    assert_eq!(store.get("shell", "id-1").await?, Some(stored));
    assert_eq!(store.history("shell", None, 10, None).await?.len(), 1);
    // The next new id is free, and the rule is written.
    let next = store.put(RulePut::new("shell", "a new rule")).await?;
    assert_eq!(next.id, "id-2");
    Ok(())
}

/// Rules keep `created_at` and `updated_at` as integer nanoseconds when those are exact, and as
/// text when not (here a rule imported with instants after 2262); both read back unchanged.
#[tokio::test]
async fn timestamps_are_stored_as_nanoseconds_when_exact() -> Result<()> {
    let (_dir, path, store) = temp_store()?;
    let recent = store
        .put(RulePut::new("shell", "quote every path").with_id("recent"))
        .await?;
    let mut distant = recent.clone();
    distant.id = "distant".to_owned();
    distant.created_at = tool_memory_core::Timestamp::parse("2999-01-01T00:00:00.25Z")?;
    distant.updated_at = tool_memory_core::Timestamp::parse("9999-12-31T23:59:59.999999999Z")?;
    store.import(distant.clone(), &Origin::Api).await?;
    let types = |id: &str| -> Result<(String, String)> {
        Ok(rusqlite::Connection::open(&path)?.query_row(
            "SELECT typeof(created_at), typeof(updated_at) FROM rules WHERE id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?)
    };
    assert_eq!(
        types("recent")?,
        ("integer".to_owned(), "integer".to_owned())
    );
    assert_eq!(types("distant")?, ("text".to_owned(), "text".to_owned()));
    assert_eq!(store.get("shell", "recent").await?, Some(recent));
    assert_eq!(store.get("shell", "distant").await?, Some(distant));
    Ok(())
}

/// A change's history line names the line that wrote the rule instead of copying the rule
/// (schema 8), and history still shows each change's before image.
#[tokio::test]
async fn a_change_names_the_line_that_holds_its_before_image() -> Result<()> {
    let (_dir, path, store) = temp_store()?;
    let created = store.put(RulePut::new("shell", "never run sudo")).await?;
    let updated = store
        .put(RulePut::new("shell", "never run sudo -i").with_id(created.id.as_str()))
        .await?;
    let revoked = store
        .revoke("shell", &created.id, &Origin::Api)
        .await?
        .expect("stored");
    assert!(store.delete("shell", &created.id, &Origin::Api).await?);

    let lines: Vec<(i64, Option<String>, Option<i64>)> = rusqlite::Connection::open(&path)?
        .prepare("SELECT seq, before_copy, before_seq FROM rule_history ORDER BY seq")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    assert_eq!(lines.len(), 4);
    for pair in lines.windows(2) {
        assert_eq!((&pair[1].1, pair[1].2), (&None, Some(pair[0].0)));
    }

    let history = store.history("shell", None, 10, None).await?;
    let befores: Vec<Option<&str>> = history
        .iter()
        .map(|entry| entry.before.as_ref().map(|rule| rule.rule.as_str()))
        .collect();
    assert_eq!(
        befores,
        [
            Some("never run sudo -i"),
            Some("never run sudo -i"),
            Some("never run sudo"),
            None
        ]
    );
    assert_eq!(history[0].before.as_ref(), Some(&revoked));
    assert_eq!(history[1].before.as_ref(), Some(&updated));
    assert_eq!(history[2].before.as_ref(), Some(&created));
    Ok(())
}

/// A rule written before schema 8 has no line to name: a change to it copies the rule into
/// its history line, as before.
#[tokio::test]
async fn a_rule_from_before_schema_8_is_copied_into_its_history() -> Result<()> {
    let (_dir, path, store) = temp_store()?;
    let first = store.put(RulePut::new("shell", "never run sudo")).await?;
    let second = store.put(RulePut::new("shell", "quote every path")).await?;
    let raw = rusqlite::Connection::open(&path)?;
    raw.execute("UPDATE rules SET history_seq = NULL", [])?;

    assert!(store.delete("shell", &first.id, &Origin::Api).await?);
    let updated = store
        .put(RulePut::new("shell", "quote every path twice").with_id(second.id.as_str()))
        .await?;
    let copies: i64 = raw.query_row(
        "SELECT count(*) FROM rule_history WHERE before_copy IS NOT NULL AND before_seq IS NULL",
        [],
        |row| row.get(0),
    )?;
    assert_eq!(copies, 2);
    let history = store.history("shell", None, 10, None).await?;
    assert_eq!(history[0].after.as_ref(), Some(&updated));
    assert_eq!(history[0].before.as_ref(), Some(&second));
    assert_eq!(history[1].before.as_ref(), Some(&first));
    // The rewritten rule has a line now.
    assert!(store.delete("shell", &second.id, &Origin::Api).await?);
    let named: Option<i64> = raw.query_row(
        "SELECT before_seq FROM rule_history ORDER BY seq DESC LIMIT 1",
        [],
        |row| row.get(0),
    )?;
    assert_eq!(named, Some(history[0].seq));
    Ok(())
}

/// A delete names the line that wrote the rule; when this version cannot read that line's
/// image (a newer toolmem wrote it), the delete is still in the history, without a before
/// image, and a line is never taken for another rule's.
#[tokio::test]
async fn a_delete_stays_in_history_when_the_image_it_names_is_unreadable() -> Result<()> {
    let (_dir, path, store) = temp_store()?;
    let newer = store.put(RulePut::new("shell", "never run sudo")).await?;
    let other = store.put(RulePut::new("shell", "quote every path")).await?;
    let mislinked = store.put(RulePut::new("shell", "no rm -rf")).await?;
    let raw = rusqlite::Connection::open(&path)?;
    raw.execute(
        "UPDATE rule_history SET after_json = replace(after_json, '\"normal\"', '\"urgent\"')
         WHERE rule_id = ?1",
        [&newer.id],
    )?;
    raw.execute(
        "UPDATE rules SET history_seq = (SELECT seq FROM rule_history WHERE rule_id = ?1)
         WHERE id = ?2",
        [&other.id, &mislinked.id],
    )?;
    assert!(store.delete("shell", &newer.id, &Origin::Api).await?);
    assert!(store.delete("shell", &mislinked.id, &Origin::Api).await?);
    let history = store.history("shell", None, 10, None).await?;
    let deletes: Vec<(&str, bool)> = history
        .iter()
        .filter(|entry| entry.after.is_none())
        .map(|entry| (entry.rule_id.as_str(), entry.before.is_some()))
        .collect();
    assert_eq!(
        deletes,
        [(mislinked.id.as_str(), false), (newer.id.as_str(), false)]
    );
    Ok(())
}

/// A toolmem from before schema 8 still running against the file cannot change a rule: its
/// history line, written in the same transaction, names a column schema 8 renamed, so the
/// change rolls back whole instead of leaving the row naming a line that is not its image.
#[tokio::test]
async fn a_toolmem_from_before_schema_8_cannot_change_a_rule() -> Result<()> {
    let (_dir, path, store) = temp_store()?;
    let rule = store.put(RulePut::new("shell", "never run sudo")).await?;
    let mut older = rusqlite::Connection::open(&path)?;
    let transaction = older.transaction()?;
    transaction.execute(
        "UPDATE rules SET rule = 'never run sudo, edited by an older toolmem' WHERE id = ?1",
        [&rule.id],
    )?;
    let err = transaction
        .execute(
            "INSERT INTO rule_history (at, tool_name, rule_id, action, origin, before_json, after_json, detail)
             VALUES ('2026-01-01T00:00:00+00:00', 'shell', ?1, 'update', '{\"kind\":\"api\"}', '{}', '{}', NULL)",
            [&rule.id],
        )
        .unwrap_err();
    assert!(err.to_string().contains("before_json"), "{err}");
    drop(transaction);
    assert_eq!(store.get("shell", &rule.id).await?, Some(rule));
    Ok(())
}

/// A newer toolmem that migrates the file while this store has it open is noticed at the next
/// read that checks for changes: the store refuses instead of reading rows it does not know
/// (an older version read schema 7's rows as unreadable and left them out of the prompt).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_migrated_by_a_newer_version_while_open_is_refused() -> Result<()> {
    let (_dir, path, store) = temp_store()?;
    store
        .put(
            RulePut::new("send_email", "Never email Sarah.")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    assert_eq!(store.rules_for_prompt(&[], None).await?.rules.len(), 1);
    let newer = store.schema_version()? + 1;
    rusqlite::Connection::open(&path)?.execute_batch(&format!(
        "PRAGMA user_version = {newer}; UPDATE rules SET rule = rule;"
    ))?;
    for err in [
        store
            .rules_for_prompt(&[], None)
            .await
            .map(|_| ())
            .unwrap_err(),
        store.list("send_email").await.map(|_| ()).unwrap_err(),
    ] {
        assert!(
            matches!(err, tool_memory_store::Error::SchemaTooNew { found, .. } if found == newer),
            "{err}"
        );
    }
    Ok(())
}

#[test]
fn works_without_an_async_runtime() -> Result<()> {
    // The CLI and a synchronous embedder may call the async API from a plain executor.
    let store = SqliteRuleStore::open_in_memory(SqliteOptions::default())?;
    let mut future = std::pin::pin!(store.put(RulePut::new("shell", "quote every path")));
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    let std::task::Poll::Ready(stored) = future.as_mut().poll(&mut context) else {
        panic!("outside a runtime the call completes inline");
    };
    assert_eq!(stored?.tool_name, "shell");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompt_sees_writes_from_other_connections() -> Result<()> {
    // Each store has its own connections and its own cache, as a second process would.
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rules.sqlite3");
    let reader = SqliteRuleStore::open(&path, SqliteOptions::default())?;
    let writer = SqliteRuleStore::open(&path, SqliteOptions::default())?;
    let eager = |store: &SqliteRuleStore| {
        let store = store.clone();
        async move { anyhow::Ok(store.rules_for_prompt(&[], None).await?.rules.len()) }
    };
    assert_eq!(eager(&reader).await?, 0);
    let rule = writer
        .put(
            RulePut::new("send_email", "never email Sarah")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    assert_eq!(eager(&reader).await?, 1);
    assert_eq!(eager(&reader).await?, 1);
    rusqlite::Connection::open(&path)?.execute(
        "UPDATE rules SET priority = 'normal' WHERE id = ?1",
        [&rule.id],
    )?;
    assert_eq!(eager(&reader).await?, 0);
    // Listings too.
    assert_eq!(reader.list("send_email").await?.len(), 1);
    writer.delete("send_email", &rule.id, &Origin::Api).await?;
    assert!(reader.list("send_email").await?.is_empty());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listings_from_the_cache_are_shared_not_copied() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let store = SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
    let kept = store.put(RulePut::new("shell", "quote paths")).await?;
    let lifted = store.put(RulePut::new("shell", "never run sudo")).await?;

    let first = store.list("shell").await?;
    assert_eq!(first.len(), 2);
    assert!(Arc::ptr_eq(&first, &store.list("shell").await?));
    // With nothing revoked, both listings are one allocation.
    assert!(Arc::ptr_eq(
        &first,
        &store.list_including_revoked("shell").await?
    ));

    store.revoke("shell", &lifted.id, &Origin::Api).await?;
    let unrevoked = store.list("shell").await?;
    let all = store.list_including_revoked("shell").await?;
    assert!(
        !Arc::ptr_eq(&unrevoked, &first),
        "a change reads the rows again"
    );
    assert_eq!(*unrevoked, [kept]);
    let revoked: Vec<&str> = all
        .iter()
        .filter(|rule| rule.meta.revoked_at.is_some())
        .map(|rule| rule.id.as_str())
        .collect();
    assert_eq!(all.len(), 2);
    assert_eq!(revoked, [lifted.id.as_str()]);
    assert!(Arc::ptr_eq(&unrevoked, &store.list("shell").await?));
    assert!(Arc::ptr_eq(
        &all,
        &store.list_including_revoked("shell").await?
    ));
    Ok(())
}

/// Stores the critical rule `boom`, installs `failure` (triggers that make a change fail
/// part-way), and checks that an upsert, a create and a revocation each fail whole: `boom` as
/// it was, no rule `new`, no history line but the first. Returns the store and `boom`.
async fn each_change_fails_whole(
    dir: &tempfile::TempDir,
    failure: &str,
) -> Result<(SqliteRuleStore, tool_memory_core::ToolMemoryRule)> {
    let path = dir.path().join("rules.sqlite3");
    let store = SqliteRuleStore::open(&path, SqliteOptions::default())?;
    let kept = store
        .put(
            RulePut::new("bash", "never run sudo")
                .with_id("boom")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    rusqlite::Connection::open(&path)?.execute_batch(failure)?;
    let changes = [
        store
            .put(RulePut::new("bash", "changed").with_id("boom"))
            .await
            .map(|_| ()),
        store
            .put(RulePut::new("bash", "brand new").with_id("new"))
            .await
            .map(|_| ()),
        store.revoke("bash", "boom", &Origin::Cli).await.map(|_| ()),
    ];
    assert!(changes.iter().all(Result::is_err), "{changes:?}");
    assert_eq!(store.get("bash", "boom").await?, Some(kept.clone()));
    assert_eq!(store.get("bash", "new").await?, None);
    assert_eq!(store.history("bash", None, 10, None).await?.len(), 1);
    assert_eq!(store.rules_for_prompt(&[], None).await?.rules.len(), 1);
    Ok((store, kept))
}

/// A change whose history line fails leaves neither (the line is written before the row,
/// except by a delete).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_is_never_without_its_history_line() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let (store, kept) = each_change_fails_whole(
        &dir,
        "CREATE TRIGGER fail_history BEFORE INSERT ON rule_history
         WHEN new.rule_id IN ('boom', 'new') BEGIN SELECT RAISE(ABORT, 'simulated failure'); END;",
    )
    .await?;
    assert!(store.delete("bash", "boom", &Origin::Cli).await.is_err());
    assert_eq!(store.get("bash", "boom").await?, Some(kept));
    Ok(())
}

/// The other order: the line is written and the row's write fails. The line goes with the
/// change, so no line names a change that did not happen, and the rule's next change names the
/// line that really wrote it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_is_never_without_its_change() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let (store, kept) = each_change_fails_whole(
        &dir,
        "CREATE TRIGGER fail_insert BEFORE INSERT ON rules WHEN new.id IN ('boom', 'new')
         BEGIN SELECT RAISE(ABORT, 'simulated failure'); END;
         CREATE TRIGGER fail_update BEFORE UPDATE ON rules WHEN new.id = 'boom'
         BEGIN SELECT RAISE(ABORT, 'simulated failure'); END;",
    )
    .await?;
    rusqlite::Connection::open(dir.path().join("rules.sqlite3"))?
        .execute_batch("DROP TRIGGER fail_insert; DROP TRIGGER fail_update;")?;
    assert!(store.delete("bash", "boom", &Origin::Cli).await?);
    let history = store.history("bash", None, 10, None).await?;
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].before.as_ref(), Some(&kept));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_constraint_makes_its_row_unreadable_not_a_panic() -> Result<()> {
    use tool_memory_core::Origin;
    let (_dir, path, store) = temp_store()?;
    store
        .put(RulePut::new("send_email", "never email Bob").with_id("ok"))
        .await?;
    store
        .put(RulePut::new("send_email", "never email Sarah").with_id("bad"))
        .await?;
    rusqlite::Connection::open(&path)?.execute(
        "UPDATE rules SET constraint_json = '{bad' WHERE id = 'bad'",
        [],
    )?;
    let listed = store.list("send_email").await?;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, "ok");
    assert!(store.get("send_email", "bad").await.is_err());
    assert!(
        store
            .revoke("send_email", "bad", &Origin::Cli)
            .await
            .is_err()
    );
    // An explicit delete still removes it.
    assert!(store.delete("send_email", "bad", &Origin::Cli).await?);
    Ok(())
}

#[test]
fn a_foreign_schema_version_is_an_error_not_a_panic() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("foreign.sqlite3");
    rusqlite::Connection::open(&path)?.pragma_update(None, "user_version", -1)?;
    let err = SqliteRuleStore::open(&path, SqliteOptions::default()).unwrap_err();
    assert!(err.to_string().contains("schema version -1"), "{err}");
    Ok(())
}

/// The search index is lazy: one search folds in every change since the last. A batch that
/// updates, deletes and recreates the same rules must leave exactly their current text indexed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_folds_a_batch_of_changes_to_the_same_rules() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let store = SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
    let put = |id: &str, text: &str| RulePut::new("bash", text).with_id(id);
    store.put(put("a", "alpha bravo")).await?;
    store.put(put("b", "alpha delta")).await?;
    let ids = |rules: Vec<tool_memory_core::ToolMemoryRule>| -> Vec<String> {
        rules.into_iter().map(|rule| rule.id).collect()
    };
    assert_eq!(ids(store.search("bash", "alpha", 10).await?).len(), 2);
    // One batch: a is rewritten twice, b is deleted and written again with other words, and
    // c comes and goes.
    store.put(put("a", "charlie")).await?;
    store.put(put("a", "charlie echo")).await?;
    store.delete("bash", "b", &Origin::Api).await?;
    store.put(put("b", "foxtrot")).await?;
    store.put(put("c", "alpha")).await?;
    store.delete("bash", "c", &Origin::Api).await?;
    assert!(store.search("bash", "alpha", 10).await?.is_empty());
    assert!(store.search("bash", "bravo delta", 10).await?.is_empty());
    assert_eq!(ids(store.search("bash", "echo", 10).await?), ["a"]);
    assert_eq!(ids(store.search("bash", "foxtrot", 10).await?), ["b"]);
    // Reopening keeps the index and its watermark: nothing is folded in twice.
    drop(store);
    let store = SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
    assert_eq!(ids(store.search("bash", "charlie", 10).await?), ["a"]);
    let indexed: i64 = rusqlite::Connection::open(dir.path().join("rules.sqlite3"))?.query_row(
        "SELECT count(*) FROM search_docs",
        [],
        |row| row.get(0),
    )?;
    assert_eq!(indexed, 2);
    Ok(())
}

/// A backlog longer than one catch-up transaction (4,096 history lines) is folded in over
/// several, and nothing in it is missed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_backlog_is_folded_into_the_lazy_indexes_in_pieces() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let store = SqliteRuleStore::open(dir.path().join("rules.sqlite3"), SqliteOptions::default())?;
    let count = 9_000;
    for index in 0..count {
        store
            .put(RulePut::new("bash", format!("token{index} rule")).with_id(format!("r{index}")))
            .await?;
    }
    for index in [0, 4_095, 4_096, 8_191, 8_192, count - 1] {
        let found = store.search("bash", &format!("token{index}"), 5).await?;
        assert_eq!(found.len(), 1, "token{index}");
        assert_eq!(found[0].id, format!("r{index}"));
    }
    let history = store.history("bash", None, count + 10, None).await?;
    assert_eq!(history.len(), count);
    assert_eq!(history[0].rule_id, format!("r{}", count - 1));
    assert_eq!(history[count - 1].rule_id, "r0");
    Ok(())
}

/// The checkpoint thread copies the log into the database file while writes go on, well before
/// the writer's own checkpoint (at 3,000 pages at the earliest). (Its connection once never
/// read the file, and so never learned it was in WAL mode: every checkpoint it ran copied
/// nothing.)
///
/// What shows a copy is the database file's length: in WAL mode only a checkpoint writes the
/// file, and the rules' pages lie past its length at the start. (The test once opened the file
/// alone, as immutable, and counted its rules; a passive checkpoint that a writer cut short
/// leaves the file half copied until the next one, which a reader without the log sees as
/// malformed, and it failed so once under load.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checkpoint_thread_copies_the_log_before_the_backstop() -> Result<()> {
    let (dir, path, store) = temp_store()?;
    let frames = || -> Result<u64> {
        // A frame is a 4 KiB page plus a 24-byte header, after a 32-byte log header.
        Ok(std::fs::metadata(dir.path().join("rules.sqlite3-wal"))?.len() / (4096 + 24))
    };
    let file_len = || -> Result<u64> { Ok(std::fs::metadata(&path)?.len()) };
    let at_start = file_len()?;
    let mut index = 0;
    while frames()? < 1_500 {
        store
            .put(RulePut::new(
                format!("tool_{}", index % 40),
                format!("rule {index}"),
            ))
            .await?;
        index += 1;
    }
    assert!(frames()? < 4_000, "the writer's own checkpoint ran first");
    // The thread was woken at 1,000 pages; give it time to copy them (it takes milliseconds).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while file_len()? <= at_start && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let now = file_len()?;
    assert!(
        now > at_start,
        "after {index} puts (log {} frames) the database file is {now} bytes, as at the start: nothing was copied",
        frames()?
    );
    Ok(())
}

/// A reader holding an old snapshot keeps the log from starting over (a checkpoint cannot
/// reuse a log someone is reading from), and it grows past its 25 MiB limit; once the reader
/// lets go and the log starts over, its file shrinks back to 25 MiB instead of keeping its
/// largest size. (A snapshot held for the whole growth, not readers in a tight loop: those
/// let the log start over now and then, and a test waiting for them to keep it growing did
/// not always see it grow past the limit.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_file_shrinks_back_after_a_reader_kept_it_growing() -> Result<()> {
    let (dir, path, store) = temp_store()?;
    let frames = || {
        std::fs::metadata(dir.path().join("rules.sqlite3-wal"))
            .map_or(0, |log| log.len() / (4096 + 24))
    };
    let put = |index: u64| {
        let store = store.clone();
        async move {
            store
                .put(RulePut::new(
                    format!("tool_{}", index % 40),
                    format!("rule {index}"),
                ))
                .await
        }
    };
    // 25 MiB of frames of 4 KiB and their headers.
    let limit = 25 * 1024 * 1024 / (4096 + 24);
    put(0).await?;
    let reader = rusqlite::Connection::open(&path)?;
    reader.execute_batch("BEGIN")?;
    let _: i64 = reader.query_row("SELECT count(*) FROM rules", [], |row| row.get(0))?;
    let mut index = 1;
    while frames() <= limit + 1_000 && index < 40_000 {
        put(index).await?;
        index += 1;
    }
    let grown = frames();
    assert!(
        grown > limit + 1_000,
        "the log did not grow past its limit under a held snapshot ({grown} frames)"
    );
    reader.execute_batch("COMMIT")?;
    while frames() > limit && index < 80_000 {
        put(index).await?;
        index += 1;
    }
    assert!(
        frames() <= limit,
        "the log file kept {} frames after it started over (it had grown to {grown})",
        frames()
    );
    Ok(())
}

/// The write-ahead log stays bounded under a steady stream of writes: checkpoints run on a
/// thread of their own, and the writer makes the log start over by 6,000 pages. (Without that,
/// 12,000 puts leave a log of about 26,000 pages.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_write_ahead_log_stays_bounded_under_steady_writes() -> Result<()> {
    let (dir, _path, store) = temp_store()?;
    for index in 0..12_000 {
        store
            .put(RulePut::new(
                format!("tool_{}", index % 40),
                format!("rule {index}"),
            ))
            .await?;
    }
    let log = std::fs::metadata(dir.path().join("rules.sqlite3-wal"))?.len();
    // A frame is a 4 KiB page plus a 24-byte header.
    let frames = log / (4096 + 24);
    assert!(frames <= 8_000, "the log grew to {frames} frames");
    assert_eq!(store.integrity_check()?, "ok");
    Ok(())
}

/// Every table a write can touch, as text: what must not move when a write is refused.
fn dump_tables(path: &std::path::Path) -> Result<String> {
    let connection = rusqlite::Connection::open(path)?;
    let mut dump = String::new();
    for sql in [
        "SELECT quote(tool_name) || quote(id) || quote(rule) || quote(priority) || quote(updated_at) || quote(revoked_at) FROM rules ORDER BY tool_name, id",
        "SELECT quote(seq) || quote(action) || quote(rule_id) FROM rule_history ORDER BY seq",
        "SELECT quote(tool_name) || quote(calls) FROM tool_stats ORDER BY tool_name",
    ] {
        let mut statement = connection.prepare(sql)?;
        for line in statement.query_map([], |row| row.get::<_, String>(0))? {
            dump.push_str(&line?);
            dump.push('\n');
        }
    }
    Ok(dump)
}

/// The finding of issue 19: a store still running when a newer toolmem migrated its file
/// acknowledged puts into a schema it does not know (the listing after them failed). Every
/// kind of write now reads the schema version inside its own write transaction and is refused
/// before it writes anything. Each kind runs as the first call of a store of its own, opened
/// before the migration, so that each is refused by its own check and not because an earlier
/// call noticed. Reads then say what happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_write_is_refused_once_a_newer_version_migrated_the_file() -> Result<()> {
    use tool_memory_core::{HistoryAction, HistoryEvent, ToolMemorySource, ToolStats};
    use tool_memory_store::Error;
    let (_dir, path, store) = temp_store()?;
    let kept = store
        .put(
            RulePut::new("send_email", "Never email Sarah at sarah@example.com.")
                .with_id("sarah")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    let mut proposal = RulePut::new("send_email", "never email Bob").with_id("bob");
    proposal.proposed = Some(true);
    store.put(proposal).await?;
    let mut calls = ToolStats::empty("send_email");
    calls.calls = 1;
    store.record_stats(&calls).await?;
    const WRITES: usize = 12;
    let stores = (0..WRITES)
        .map(|_| SqliteRuleStore::open(&path, SqliteOptions::default()))
        .collect::<tool_memory_store::Result<Vec<_>>>()?;
    // What a newer toolmem's migration leaves: the version one above this build's, committed
    // by another connection while every store above has the file open.
    let newer = store.schema_version()? + 1;
    rusqlite::Connection::open(&path)?.pragma_update(None, "user_version", newer)?;
    let before = dump_tables(&path)?;
    let mut imported = kept.clone();
    imported.rule = "rewritten by an import".to_owned();
    let guard_line = HistoryEvent {
        tool_name: "send_email".into(),
        rule_id: "sarah".into(),
        action: HistoryAction::Deny,
        origin: Origin::Guard,
        rule: None,
        detail: Some("send_email(to)".into()),
    };
    let refused: [(&str, tool_memory_store::Result<()>); WRITES] = [
        (
            "new put",
            stores[0]
                .put(RulePut::new("shell", "never run sudo"))
                .await
                .map(drop),
        ),
        (
            "upsert",
            stores[1]
                .put(RulePut::new("send_email", "Email Sarah.").with_id("sarah"))
                .await
                .map(drop),
        ),
        (
            "record",
            stores[2]
                .record(
                    "shell",
                    "quote paths",
                    ToolMemoryPriority::Normal,
                    ToolMemorySource::Programmatic,
                    vec![],
                )
                .await
                .map(drop),
        ),
        ("import", stores[3].import(imported, &Origin::Api).await),
        (
            "revoke",
            stores[4]
                .revoke("send_email", "sarah", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "restore",
            stores[5]
                .restore("send_email", "sarah", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "confirm",
            stores[6]
                .confirm("send_email", "bob", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "delete",
            stores[7]
                .delete("send_email", "sarah", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "expire",
            stores[8].expire("send_email", "bob").await.map(drop),
        ),
        (
            "history line",
            stores[9].append_history(guard_line).await.map(drop),
        ),
        (
            "statistics",
            stores[10].record_stats(&calls).await.map(drop),
        ),
        // The lazy search index is written on the first search after a change.
        (
            "search index",
            stores[11].search("send_email", "sarah", 10).await.map(drop),
        ),
    ];
    for (what, result) in refused {
        let err = result.expect_err(what);
        assert!(
            matches!(err, Error::SchemaTooNew { found, .. } if found == newer),
            "{what}: {err}"
        );
        assert!(err.to_string().contains("upgrade toolmem"), "{what}: {err}");
    }
    assert_eq!(
        dump_tables(&path)?,
        before,
        "a refused write wrote something"
    );
    // Reads say what happened: on a store that was refused a write, every read; on one that
    // was not, the listings, the prompt and the version (which every guard check reads).
    let refused_store = &stores[0];
    let reads = [
        refused_store.get("send_email", "sarah").await.map(drop),
        refused_store.list("send_email").await.map(drop),
        refused_store
            .list_with_unreadable("send_email")
            .await
            .map(drop),
        refused_store.rules_for_prompt(&[], None).await.map(drop),
        refused_store
            .history("send_email", None, 10, None)
            .await
            .map(drop),
        refused_store.list_tool_names().await.map(drop),
        refused_store.tool_stats("send_email").await.map(drop),
        refused_store.version().await.map(drop),
        store.list("send_email").await.map(drop),
        store.rules_for_prompt(&[], None).await.map(drop),
        store.version().await.map(drop),
    ];
    for (index, read) in reads.into_iter().enumerate() {
        let err = read.expect_err("a read of a newer schema");
        assert!(
            matches!(err, Error::SchemaTooNew { found, .. } if found == newer),
            "read {index}: {err}"
        );
    }
    Ok(())
}

/// Each way a row can be damaged is reported with the column at fault and what is wrong, and
/// never with the value, which may be rule text or anything a damaged row holds. The reports
/// come from the listing's cache while nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_damage_is_reported_naming_its_column_never_its_value() -> Result<()> {
    let cases = [
        (
            "priority = 'SECRET-urgent'",
            "priority: a value this version does not know",
        ),
        (
            "source = 'SECRET-agent'",
            "source: a value this version does not know",
        ),
        (
            "updated_at = 'SECRET yesterday'",
            "updated_at: not a timestamp",
        ),
        ("created_at = X'00ff'", "created_at: not a timestamp"),
        ("tags = '[\"SECRET'", "tags: not a JSON list of strings"),
        ("constraint_json = '{SECRET'", "constraint: not JSON"),
        ("revoked_at = 'SECRET'", "revoked_at: not a timestamp"),
        ("expires_at = 'SECRET'", "expires_at: not a timestamp"),
        ("proposed = 'SECRET'", "proposed: not a boolean"),
        (
            "retire_after_successes = 'SECRET'",
            "retire_after_successes: not an integer",
        ),
        ("rule = X'00'", "rule: not text"),
    ];
    for (damage, reason) in cases {
        let (_dir, path, store) = temp_store()?;
        store
            .put(RulePut::new("send_email", "SECRET never email Sarah").with_id("r"))
            .await?;
        rusqlite::Connection::open(&path)?
            .execute(&format!("UPDATE rules SET {damage} WHERE id = 'r'"), [])?;
        let listed = store.list_with_unreadable("send_email").await?;
        assert!(listed.rules.is_empty(), "{damage}");
        let [row] = &*listed.unreadable else {
            panic!("{damage}: {:?}", listed.unreadable);
        };
        assert_eq!(
            (row.tool_name.as_str(), row.id.as_str()),
            ("send_email", "r")
        );
        assert!(row.reason.starts_with(reason), "{damage}: {}", row.reason);
        assert!(!row.reason.contains("SECRET"), "{damage}: {}", row.reason);
        let err = store.get("send_email", "r").await.unwrap_err();
        assert!(!err.to_string().contains("SECRET"), "{damage}: {err}");
        // Cached with the listing: the same report, not a second read.
        assert!(Arc::ptr_eq(
            &listed.unreadable,
            &store.list_with_unreadable("send_email").await?.unreadable
        ));
    }
    Ok(())
}

/// `inspect` reads and never writes: a missing file stays missing, an older schema is not
/// migrated, the file's bytes do not change, and what it reports is what is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inspect_reports_what_is_there_and_changes_nothing() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let missing = dir.path().join("missing.sqlite3");
    assert!(SqliteRuleStore::inspect(&missing).is_err());
    assert!(!missing.exists(), "inspect created a database");

    let (_dir, path, store) = temp_store()?;
    store
        .put(RulePut::new("send_email", "never email Sarah").with_id("sarah"))
        .await?;
    store.put(RulePut::new("bash", "quote paths")).await?;
    rusqlite::Connection::open(&path)?.execute(
        "UPDATE rules SET priority = 'urgent' WHERE id = 'sarah'",
        [],
    )?;
    drop(store);
    let bytes = std::fs::read(&path)?;
    let inspection = SqliteRuleStore::inspect(&path)?;
    assert_eq!(
        (inspection.schema_found, inspection.schema_supported),
        (9, 9)
    );
    assert!(inspection.integrity.is_empty());
    assert_eq!(inspection.readable, Some(1));
    let located: Vec<(&str, &str)> = inspection
        .unreadable
        .iter()
        .map(|row| (row.tool_name.as_str(), row.id.as_str()))
        .collect();
    assert_eq!(located, [("send_email", "sarah")]);
    assert!(!inspection.is_healthy());
    assert_eq!(std::fs::read(&path)?, bytes, "inspect changed the file");

    // A newer schema: reported, its rows not read.
    rusqlite::Connection::open(&path)?.pragma_update(None, "user_version", 10)?;
    let newer = SqliteRuleStore::inspect(&path)?;
    assert!(newer.schema_is_newer() && !newer.is_healthy());
    assert_eq!(newer.readable, None);
    // An older one: reported, not migrated.
    rusqlite::Connection::open(&path)?.pragma_update(None, "user_version", 7)?;
    let older = SqliteRuleStore::inspect(&path)?;
    assert_eq!(older.schema_found, 7);
    let version: i64 =
        rusqlite::Connection::open(&path)?
            .query_row("PRAGMA user_version", [], |row| row.get(0))?;
    assert_eq!(version, 7, "inspect migrated the file");
    Ok(())
}
