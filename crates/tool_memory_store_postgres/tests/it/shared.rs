//! What only a shared database has: several stores (as on several servers, each with its own
//! pool) writing at once, migrations raced at start-up, and connections lost mid-work.

use std::collections::BTreeSet;
use std::sync::Arc;

use anyhow::{Result, ensure};
use tool_memory_core::{HistoryAction, Origin, RulePut, ToolMemoryPriority};
use tool_memory_store::{RuleStore, Services};
use tool_memory_store_postgres::{PostgresOptions, PostgresRuleStore};

use crate::support::{SchemaGuard, database_url, open, run_sql, unique_schema};

/// Two stores on one schema, as two servers would be. Ids come from UUIDs here: sequential ids
/// from two sources would collide, as they would on two real servers.
async fn two_stores() -> Result<Option<(PostgresRuleStore, PostgresRuleStore, SchemaGuard)>> {
    let Some(url) = database_url() else {
        return Ok(None);
    };
    let schema = unique_schema();
    let guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    let first = open(&url, &schema, Services::default()).await?;
    let second = open(&url, &schema, Services::default()).await?;
    Ok(Some((first, second, guard)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_stores_writing_and_revoking_at_once_lose_nothing() -> Result<()> {
    let Some((first, second, _guard)) = two_stores().await? else {
        return Ok(());
    };
    let stores: [Arc<dyn RuleStore>; 2] = [Arc::new(first), Arc::new(second)];
    let writers = 6;
    let rounds = 15;
    let mut tasks = Vec::new();
    for writer in 0..writers {
        let mine = Arc::clone(&stores[writer % 2]);
        let other = Arc::clone(&stores[(writer + 1) % 2]);
        tasks.push(tokio::spawn(async move {
            for round in 0..rounds {
                let id = format!("w{writer}-{round}");
                mine.put(RulePut::new("send_email", format!("rule {id}")).with_id(&id))
                    .await?;
                // Every writer also upserts one shared rule, through both stores.
                other
                    .put(
                        RulePut::new("send_email", format!("shared by {writer} in {round}"))
                            .with_id("shared"),
                    )
                    .await?;
                // Every other rule is revoked through the other store, right away.
                if round % 2 == 1 {
                    let revoked = other.revoke("send_email", &id, &Origin::Api).await?;
                    ensure!(revoked.is_some(), "{id} written a moment ago must exist");
                }
            }
            anyhow::Ok(())
        }));
    }
    for task in tasks {
        task.await??;
    }

    for store in &stores {
        let every = store.list_including_revoked("send_email").await?;
        assert_eq!(every.len(), writers * rounds + 1, "every rule, once");
        let active: BTreeSet<String> = store
            .list("send_email")
            .await?
            .iter()
            .map(|rule| rule.id.clone())
            .collect();
        for writer in 0..writers {
            for round in 0..rounds {
                let id = format!("w{writer}-{round}");
                assert_eq!(active.contains(&id), round % 2 == 0, "{id}");
            }
        }
    }
    // History is complete: one create per rule, one update per later upsert of the shared rule,
    // one revoke per revoked rule, each exactly once.
    let history = stores[0]
        .history("send_email", None, usize::MAX, None)
        .await?;
    let count = |action: HistoryAction| history.iter().filter(|h| h.action == action).count();
    assert_eq!(count(HistoryAction::Create), writers * rounds + 1);
    assert_eq!(count(HistoryAction::Update), writers * rounds - 1);
    assert_eq!(count(HistoryAction::Revoke), writers * (rounds / 2));
    let seqs: BTreeSet<i64> = history.iter().map(|entry| entry.seq).collect();
    assert_eq!(seqs.len(), history.len(), "sequence numbers are unique");
    // The shared rule kept the creation time of its first write.
    let shared_history = stores[1]
        .history("send_email", Some("shared"), usize::MAX, None)
        .await?;
    let created = shared_history.last().expect("oldest line");
    assert_eq!(created.action, HistoryAction::Create);
    let shared = stores[1]
        .get("send_email", "shared")
        .await?
        .expect("shared");
    assert_eq!(
        shared.created_at,
        created.after.as_ref().expect("created rule").created_at
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_through_one_store_changes_the_others_version() -> Result<()> {
    let Some((first, second, _guard)) = two_stores().await? else {
        return Ok(());
    };
    let before = second.version().await?;
    assert!(before.is_some(), "a shared database can always tell");
    // The second store caches the (empty) eager rules at this version.
    assert!(second.rules_for_prompt(&[], None).await?.rules.is_empty());
    let rule = first
        .put(RulePut::new("bash", "never run sudo").with_priority(ToolMemoryPriority::Critical))
        .await?;
    let after_put = second.version().await?;
    assert_ne!(after_put, before);
    assert_eq!(first.version().await?, after_put, "one counter for both");
    // Its next session start sees the rule, and the revocation after it.
    assert_eq!(
        second.rules_for_prompt(&[], None).await?.rules,
        vec![rule.clone()]
    );
    first.revoke("bash", &rule.id, &Origin::Cli).await?;
    assert!(second.rules_for_prompt(&[], None).await?.rules.is_empty());
    let after_revoke = second.version().await?;
    // Statistics and audit lines through one store leave the other's caches valid.
    let mut delta = tool_memory_core::ToolStats::empty("bash");
    delta.calls = 3;
    first.record_stats(&delta).await?;
    second.record_stats(&delta).await?;
    assert_eq!(second.version().await?, after_revoke);
    assert_eq!(
        first.tool_stats("bash").await?.map(|stats| stats.calls),
        Some(6),
        "statistics from both stores add up"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn migrations_raced_by_many_stores_all_succeed_once() -> Result<()> {
    let Some(url) = database_url() else {
        return Ok(());
    };
    let schema = unique_schema();
    let _guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    let mut opening = Vec::new();
    for _ in 0..6 {
        let (url, schema) = (url.clone(), schema.clone());
        opening.push(tokio::spawn(async move {
            open(&url, &schema, Services::default()).await
        }));
    }
    let mut stores = Vec::new();
    for task in opening {
        stores.push(task.await??);
    }
    for store in &stores {
        assert_eq!(
            store.schema_version().await?,
            tool_memory_store_postgres::SCHEMA_VERSION
        );
    }
    stores[0]
        .put(RulePut::new("bash", "never run sudo"))
        .await?;
    assert_eq!(stores[5].list("bash").await?.len(), 1);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_is_not_there_is_a_clear_error() -> Result<()> {
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let err = PostgresRuleStore::open(
        &format!("postgres://toolmem:secret-password@127.0.0.1:{port}/toolmem"),
        PostgresOptions {
            timeout: std::time::Duration::from_secs(2),
            ..PostgresOptions::default()
        },
    )
    .await
    .unwrap_err();
    let message = format!("{err}");
    assert!(message.starts_with("postgres: connect: "), "{message}");
    assert!(message.contains("refused"), "{message}");
    assert!(!message.contains("secret-password"), "{message}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn lost_connections_fail_cleanly_write_nothing_half_and_recover() -> Result<()> {
    let Some(url) = database_url() else {
        return Ok(());
    };
    let schema = unique_schema();
    let _guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    // Its own application name, so that terminating its connections spares other tests.
    let name = format!("toolmem_{schema}");
    let separator = if url.contains('?') { '&' } else { '?' };
    let store = Arc::new(
        open(
            &format!("{url}{separator}application_name={name}"),
            &schema,
            Services::default(),
        )
        .await?,
    );
    // With a timeout, `pg_terminate_backend` returns once the backend is gone, so no connection
    // that is about to die can still answer a call after the termination returned.
    let terminate = format!(
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = '{name}'"
    );

    // Writers put rules while their connections are terminated under them, several times.
    let mut tasks = Vec::new();
    for writer in 0..3 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let mut outcomes = Vec::new();
            for round in 0..40 {
                let id = format!("w{writer}-{round}");
                let result = store
                    .put(RulePut::new("bash", format!("rule {id}")).with_id(&id))
                    .await;
                outcomes.push((id, result.map(|_| ()).map_err(|err| err.to_string())));
            }
            outcomes
        }));
    }
    for _ in 0..5 {
        let (url, terminate) = (url.clone(), terminate.clone());
        tokio::task::spawn_blocking(move || run_sql(&url, "public", &terminate)).await?;
        tokio::task::yield_now().await;
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.extend(task.await?);
    }
    let mut failed = 0;
    for (id, outcome) in &outcomes {
        if let Err(message) = outcome {
            failed += 1;
            assert!(message.starts_with("postgres: "), "{id}: {message}");
        }
    }
    eprintln!(
        "{failed} of {} puts failed while their connections were terminated",
        outcomes.len()
    );

    // Recovery: the pool drops dead connections as it finds them, so within one failure per
    // pooled connection a call succeeds again, and from then on every call does.
    run_sql(&url, "public", &terminate);
    let mut failures = 0;
    while store.list("bash").await.is_err() {
        failures += 1;
        assert!(
            failures <= 4,
            "still failing after every pooled connection was replaced"
        );
    }
    for _ in 0..5 {
        store.list("bash").await?;
    }

    // Nothing half-written: every rule stored has its creation line and every creation line
    // its rule; every put that succeeded is stored (a failed one may or may not be: its commit
    // may have happened before the connection went).
    let stored: BTreeSet<String> = store
        .list("bash")
        .await?
        .iter()
        .map(|rule| rule.id.clone())
        .collect();
    let created: Vec<String> = store
        .history("bash", None, usize::MAX, None)
        .await?
        .into_iter()
        .filter(|entry| entry.action == HistoryAction::Create)
        .map(|entry| entry.rule_id)
        .collect();
    assert_eq!(created.len(), stored.len(), "one creation line per rule");
    assert_eq!(created.into_iter().collect::<BTreeSet<_>>(), stored);
    for (id, outcome) in &outcomes {
        if outcome.is_ok() {
            assert!(stored.contains(id), "{id} was acknowledged but is missing");
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_truncate_of_the_rules_changes_every_stores_version() -> Result<()> {
    let Some((first, second, guard)) = two_stores().await? else {
        return Ok(());
    };
    first
        .put(RulePut::new("bash", "never run sudo").with_priority(ToolMemoryPriority::Critical))
        .await?;
    assert_eq!(second.rules_for_prompt(&[], None).await?.rules.len(), 1);
    let before = second.version().await?;
    // An operator empties the table by hand: no row trigger fires.
    run_sql(&guard.url, &guard.schema, "TRUNCATE rules");
    assert_ne!(second.version().await?, before);
    assert!(second.rules_for_prompt(&[], None).await?.rules.is_empty());
    Ok(())
}

/// A server whose database user may only read and write toolmem's tables (no right to create
/// anything) starts on a schema that is already current, and works.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_user_without_create_rights_starts_on_a_current_schema() -> Result<()> {
    let Some((first, _second, guard)) = two_stores().await? else {
        return Ok(());
    };
    let role = format!(
        "toolmem_rw_{}",
        guard.schema.trim_start_matches("toolmem_test_")
    );
    run_sql(
        &guard.url,
        &guard.schema,
        &format!(
            "CREATE ROLE {role} LOGIN;
             GRANT USAGE ON SCHEMA {schema} TO {role};
             GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role};
             GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role};",
            schema = guard.schema
        ),
    );
    let url = guard
        .url
        .replacen("://postgres@", &format!("://{role}@"), 1);
    let opened = PostgresRuleStore::open(
        &url,
        PostgresOptions {
            schema: Some(guard.schema.clone()),
            ..PostgresOptions::default()
        },
    )
    .await;
    let outcome = async {
        let store = opened?;
        let rule = store.put(RulePut::new("bash", "never run sudo")).await?;
        ensure!(
            first.get("bash", &rule.id).await?.is_some(),
            "the write landed"
        );
        anyhow::Ok(())
    }
    .await;
    run_sql(
        &guard.url,
        &guard.schema,
        &format!("DROP OWNED BY {role}; DROP ROLE {role};"),
    );
    outcome
}

/// A connection of the test's own, its driver task running until it is dropped.
async fn raw_connection(url: &str, schema: &str) -> Result<tokio_postgres::Client> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    client
        .batch_execute(&format!("SET search_path TO {schema}"))
        .await?;
    Ok(client)
}

/// Every row a write can touch, as text: what must not move when a write is refused.
async fn dump_tables(client: &tokio_postgres::Client) -> Result<Vec<String>> {
    let mut dump = Vec::new();
    for sql in [
        "SELECT tool_name || '/' || id || '/' || rule || '/' || priority || '/' || updated_at || '/' || coalesce(revoked_at, '') FROM rules ORDER BY tool_name, id",
        "SELECT seq::text || '/' || action || '/' || rule_id FROM rule_history ORDER BY seq",
        "SELECT tool_name || '/' || calls::text FROM tool_stats ORDER BY tool_name",
    ] {
        for row in client.query(sql, &[]).await? {
            dump.push(row.try_get::<_, String>(0)?);
        }
    }
    Ok(dump)
}

/// The finding of issue 19, on PostgreSQL: a server still running when a newer toolmem
/// migrated the schema acknowledged writes into a schema it does not know. Every kind of write
/// now checks the schema version inside its own transaction and is refused before it writes;
/// each runs as the first call of a store of its own (as on a server of its own), opened
/// before the migration. Reads that read the version (a guard check, session start) then say
/// what happened, and so does every call of a store that was refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_write_is_refused_once_a_newer_version_migrated_the_schema() -> Result<()> {
    use tool_memory_core::{HistoryEvent, ToolStats};
    use tool_memory_store::Error;
    let Some(url) = database_url() else {
        return Ok(());
    };
    let schema = unique_schema();
    let _guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    const WRITES: usize = 9;
    let mut stores = Vec::new();
    for _ in 0..=WRITES {
        stores.push(open(&url, &schema, Services::default()).await?);
    }
    let setup = &stores[WRITES];
    let kept = setup
        .put(
            RulePut::new("send_email", "Never email Sarah at sarah@example.com.")
                .with_id("sarah")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    let mut proposal = RulePut::new("send_email", "never email Bob").with_id("bob");
    proposal.proposed = Some(true);
    setup.put(proposal).await?;
    let mut calls = ToolStats::empty("send_email");
    calls.calls = 1;
    setup.record_stats(&calls).await?;
    let newer = setup.schema_version().await? + 1;
    let observer = raw_connection(&url, &schema).await?;
    observer
        .execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&newer],
        )
        .await?;
    let before = dump_tables(&observer).await?;
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
        ("import", stores[2].import(imported, &Origin::Api).await),
        (
            "revoke",
            stores[3]
                .revoke("send_email", "sarah", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "restore",
            stores[4]
                .restore("send_email", "sarah", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "confirm",
            stores[5]
                .confirm("send_email", "bob", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "delete",
            stores[6]
                .delete("send_email", "sarah", &Origin::Cli)
                .await
                .map(drop),
        ),
        (
            "history line",
            stores[7].append_history(guard_line).await.map(drop),
        ),
        ("statistics", stores[8].record_stats(&calls).await.map(drop)),
    ];
    for (what, result) in refused {
        let err = result.expect_err(what);
        assert!(
            matches!(err, Error::SchemaTooNew { found, .. } if found == newer),
            "{what}: {err}"
        );
    }
    assert_eq!(
        dump_tables(&observer).await?,
        before,
        "a refused write wrote something"
    );
    let reads = [
        stores[0].get("send_email", "sarah").await.map(drop),
        stores[0].list("send_email").await.map(drop),
        stores[0]
            .history("send_email", None, 10, None)
            .await
            .map(drop),
        setup.version().await.map(drop),
        setup.rules_for_prompt(&[], None).await.map(drop),
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

/// The check has no gap: a write that starts while a migration holds its lock waits for it,
/// and then sees the new version and is refused, instead of writing into the schema the
/// migration just changed. The test plays the migration on a connection of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_waits_for_a_migration_in_progress_and_is_then_refused() -> Result<()> {
    let Some(url) = database_url() else {
        return Ok(());
    };
    let schema = unique_schema();
    let _guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    let store = open(&url, &schema, Services::default()).await?;
    let newer = store.schema_version().await? + 1;
    let mut migration = raw_connection(&url, &schema).await?;
    let transaction = migration.transaction().await?;
    transaction
        .execute(
            "SELECT pg_advisory_xact_lock(hashtext('toolmem migrate ' || $1::text))",
            &[&schema],
        )
        .await?;
    transaction
        .execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&newer],
        )
        .await?;
    let put = tokio::spawn({
        let store = store.clone();
        async move { store.put(RulePut::new("shell", "never run sudo")).await }
    });
    // Wait, by polling a bounded number of times, until the put waits for the lock.
    let observer = raw_connection(&url, &schema).await?;
    let mut waiting = false;
    for _ in 0..500 {
        let count: i64 = observer
            .query_one(
                // pg_locks is the whole cluster's: only a shared wait for this schema's key.
                "SELECT count(*) FROM pg_locks
                 WHERE locktype = 'advisory' AND NOT granted AND mode = 'ShareLock'
                   AND objid::bigint = (hashtext('toolmem migrate ' || $1::text)::bigint & 4294967295)",
                &[&schema],
            )
            .await?
            .try_get(0)?;
        if count > 0 {
            waiting = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(waiting, "the put never waited for the migration's lock");
    assert!(!put.is_finished());
    transaction.commit().await?;
    let err = put.await?.expect_err("a put into the migrated schema");
    assert!(
        matches!(err, tool_memory_store::Error::SchemaTooNew { found, .. } if found == newer),
        "{err}"
    );
    let rules: i64 = observer
        .query_one("SELECT count(*) FROM rules", &[])
        .await?
        .try_get(0)?;
    assert_eq!(rules, 0);
    Ok(())
}

/// `inspect` (what `toolmem doctor` runs) reports the schema version and every unreadable row
/// without migrating anything: an empty schema stays empty, a newer one is reported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inspect_reports_unreadable_rows_and_a_newer_schema_and_changes_nothing() -> Result<()> {
    let Some(url) = database_url() else {
        return Ok(());
    };
    let schema = unique_schema();
    let _guard = SchemaGuard {
        url: url.clone(),
        schema: schema.clone(),
    };
    let options = || PostgresOptions {
        pool_size: 1,
        schema: Some(schema.clone()),
        ..PostgresOptions::default()
    };
    let empty = PostgresRuleStore::inspect(&url, options()).await?;
    assert_eq!(empty.schema_found, 0);
    assert!(empty.is_healthy());
    let observer = raw_connection(&url, &schema).await?;
    let tables: i64 = observer
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1",
            &[&schema],
        )
        .await?
        .try_get(0)?;
    assert_eq!(tables, 0, "inspect created tables");

    let store = open(&url, &schema, Services::default()).await?;
    store
        .put(RulePut::new("send_email", "never email Sarah").with_id("sarah"))
        .await?;
    store.put(RulePut::new("bash", "quote paths")).await?;
    observer
        .execute(
            "UPDATE rules SET priority = 'urgent' WHERE id = 'sarah'",
            &[],
        )
        .await?;
    let inspection = PostgresRuleStore::inspect(&url, options()).await?;
    assert_eq!(inspection.readable, Some(1));
    assert_eq!(inspection.unreadable.len(), 1);
    assert_eq!(inspection.unreadable[0].id, "sarah");
    assert!(!inspection.is_healthy());
    assert_eq!(store.unreadable_rows().await?, inspection.unreadable);

    let newer = store.schema_version().await? + 1;
    observer
        .execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&newer],
        )
        .await?;
    let inspection = PostgresRuleStore::inspect(&url, options()).await?;
    assert!(inspection.schema_is_newer());
    assert_eq!(inspection.readable, None);
    Ok(())
}
