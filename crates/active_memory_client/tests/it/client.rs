//! The facade's own behaviour: delegation, prompt, recall, capture application, statistics,
//! export/import, and the process-wide slot.

use std::sync::Arc;

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Error, Origin, RulePut, ToolCallRecord, ToolMemoryPriority,
    TurnRecord, UNSCOPED_TOOL, active_memory_client, set_active_memory_client,
};
use anyhow::Result;

fn client() -> ActiveMemoryClient {
    ActiveMemoryClient::in_memory().with_config(ClientConfig::default())
}

fn failed(tool: &str, summary: &str) -> ToolCallRecord {
    ToolCallRecord::new(tool, false, summary)
}

#[tokio::test]
async fn prompt_holds_eager_rules_and_renders_them() -> Result<()> {
    let client = client();
    client
        .put(RulePut::new("shell", "avoid sudo").with_priority(ToolMemoryPriority::High))
        .await?;
    client
        .put(RulePut::new("email", "never email Sarah").with_priority(ToolMemoryPriority::Critical))
        .await?;
    client.put(RulePut::new("email", "we use BCC")).await?;
    let prompt = client.rules_for_prompt(&[]).await?;
    assert_eq!(prompt.rules.len(), 2);
    assert!(prompt.rendered.starts_with("## Tool-scoped rules\n\n"));
    assert!(
        prompt
            .rendered
            .contains("### `email`\n- **[critical]** never email Sarah\n")
    );
    assert!(!prompt.rendered.contains("BCC"));
    let section = client.session_prompt(&["email".to_owned()]).await?;
    assert_eq!(section.rendered().matches("- **[").count(), 1);
    Ok(())
}

#[test]
fn blocking_session_prompt_works_outside_a_runtime() -> Result<()> {
    let client = client();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(client.put(
        RulePut::new("bash", "never run rm -rf /").with_priority(ToolMemoryPriority::Critical),
    ))?;
    let section = client.session_prompt_blocking(&["bash".to_owned()]);
    assert!(section.rendered().contains("never run rm -rf /"));
    Ok(())
}

#[tokio::test]
async fn recall_searches_one_namespace() -> Result<()> {
    let client = client();
    client
        .put(RulePut::new("send_email", "use BCC for newsletters"))
        .await?;
    client
        .put(RulePut::new("bash", "newsletters are built with make"))
        .await?;
    let found = client.recall("tool-send_email", "newsletters", 10).await?;
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].tool_name, "send_email");
    assert_eq!(
        client.recall("send_email", "newsletters", 10).await?.len(),
        1
    );
    let err = client.recall("tool-", "x", 10).await.unwrap_err();
    assert_eq!(err.invalid_field(), Some("namespace"));
    Ok(())
}

#[tokio::test]
async fn repeated_failures_become_one_normal_observation_and_statistics() -> Result<()> {
    let client = client();
    let mut turn = TurnRecord::new("Try again");
    turn.tool_calls = vec![
        failed("shell", "shell: failed (permission_denied)"),
        failed("shell", "shell: failed (permission_denied)"),
        ToolCallRecord::new("shell", true, "shell: ok (12 chars)"),
    ];
    let first = client.after_turn(&turn).await?;
    assert_eq!(first.created.len(), 1);
    let observation = &first.created[0];
    assert_eq!(observation.priority, ToolMemoryPriority::Normal);
    assert!(
        observation.rule.contains("failed 2 times"),
        "{}",
        observation.rule
    );
    assert_eq!(first.stats.len(), 1);
    assert_eq!((first.stats[0].calls, first.stats[0].failures), (3, 2));

    // The next turn with the same failures refreshes the observation; statistics add up.
    let second = client.after_turn(&turn).await?;
    assert!(second.created.is_empty());
    assert_eq!(second.refreshed.len() + second.changed.len(), 1);
    assert_eq!(client.list("shell").await?.len(), 1);
    let totals = client.tool_stats("shell").await?.expect("statistics");
    assert_eq!((totals.calls, totals.successes, totals.failures), (6, 2, 4));
    // Statistics never appear among the rules, and observations never reach the prompt.
    assert!(client.rules_for_prompt(&[]).await?.rendered.is_empty());
    Ok(())
}

#[tokio::test]
async fn disabled_capture_captures_nothing_but_hides_nothing() -> Result<()> {
    let config = ClientConfig {
        capture_enabled: false,
        ..ClientConfig::default()
    };
    let client = ActiveMemoryClient::in_memory().with_config(config);
    client
        .put(
            RulePut::new("send_email", "never email Bob")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    let mut turn = TurnRecord::new("Never email Sarah.");
    turn.tool_calls = vec![ToolCallRecord::new("send_email", true, "ok")];
    let report = client.after_turn(&turn).await?;
    assert!(!report.capture_enabled);
    assert!(report.created.is_empty() && report.stats.is_empty());
    assert_eq!(client.list("send_email").await?.len(), 1);
    assert!(
        client
            .rules_for_prompt(&[])
            .await?
            .rendered
            .contains("never email Bob")
    );
    Ok(())
}

#[tokio::test]
async fn edicts_with_no_tool_are_pinned_under_their_own_group() -> Result<()> {
    let client = client();
    let report = client
        .after_turn(&TurnRecord::new("Never do anything on Fridays."))
        .await?;
    assert_eq!(report.created.len(), 1);
    assert_eq!(report.created[0].tool_name, UNSCOPED_TOOL);
    let prompt = client.rules_for_prompt(&["bash".to_owned()]).await?;
    assert!(
        prompt.rendered.contains("Never do anything on Fridays."),
        "{}",
        prompt.rendered
    );
    Ok(())
}

#[tokio::test]
async fn export_then_import_is_idempotent() -> Result<()> {
    let source = client();
    source
        .put(RulePut::new("bash", "quote paths").with_priority(ToolMemoryPriority::High))
        .await?;
    source.put(RulePut::new(UNSCOPED_TOOL, "be polite")).await?;
    let exported = source.export().await?;
    assert_eq!(exported.len(), 2);
    let target = client();
    assert_eq!(
        target
            .import_verbatim(exported.clone(), &Origin::Api)
            .await?,
        2
    );
    assert_eq!(
        target
            .import_verbatim(exported.clone(), &Origin::Api)
            .await?,
        0
    );
    assert_eq!(target.export().await?, exported);
    Ok(())
}

#[tokio::test]
async fn validation_errors_name_the_field() -> Result<()> {
    let client = client();
    let err = client.put(RulePut::new(" ", "x")).await.unwrap_err();
    assert_eq!(err.invalid_field(), Some("tool_name"));
    let err = client.put(RulePut::new("bash", "")).await.unwrap_err();
    assert_eq!(err.invalid_field(), Some("rule"));
    Ok(())
}

#[test]
fn the_active_client_slot_is_set_once() {
    // This is the only test in the binary that touches the process-wide slot.
    assert!(matches!(active_memory_client(), Err(Error::NoActiveClient)));
    let store = Arc::new(tool_memory_store_for_slot());
    set_active_memory_client(ActiveMemoryClient::from_store(store)).unwrap();
    assert!(active_memory_client().is_ok());
    let again = set_active_memory_client(ActiveMemoryClient::in_memory());
    assert!(matches!(again, Err(Error::AlreadySet)));
}

fn tool_memory_store_for_slot() -> impl active_memory_client::RuleStore {
    tool_memory_store::InMemoryRuleStore::new()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rendered_block_follows_every_change_of_its_rules() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let client = ActiveMemoryClient::open_sqlite(dir.path().join("rules.sqlite3"))?
        .with_config(ClientConfig::default());
    let block = |client: ActiveMemoryClient| async move {
        anyhow::Ok(client.rules_for_prompt(&[]).await?.rendered)
    };
    assert_eq!(block(client.clone()).await?, "");
    let rule = client
        .put(RulePut::new("bash", "never run sudo").with_priority(ToolMemoryPriority::Critical))
        .await?;
    assert!(
        block(client.clone())
            .await?
            .contains("- **[critical]** never run sudo\n")
    );
    // Same rules again: the same bytes.
    assert_eq!(block(client.clone()).await?, block(client.clone()).await?);
    client
        .put(RulePut::new("bash", "never run sudo -i").with_id(&rule.id))
        .await?;
    assert!(
        block(client.clone())
            .await?
            .contains("- **[critical]** never run sudo -i\n")
    );
    client
        .put(
            RulePut::new("bash", "never run sudo -i")
                .with_id(&rule.id)
                .with_priority(ToolMemoryPriority::High),
        )
        .await?;
    assert!(
        block(client.clone())
            .await?
            .contains("- **[high]** never run sudo -i\n")
    );
    client.delete("bash", &rule.id, &Origin::Api).await?;
    assert_eq!(block(client.clone()).await?, "");
    Ok(())
}

/// A one-shot process ends its client with `close_for_exit`: the store still closes (the last
/// connection to a WAL file checkpoints it and removes the log), only the caches are left to
/// the operating system; and what was written is there for the next process.
#[tokio::test(flavor = "current_thread")]
async fn close_for_exit_closes_the_store() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rules.sqlite3");
    let options = active_memory_client::SqliteOptions {
        footprint: active_memory_client::Footprint::OneShot,
        ..active_memory_client::SqliteOptions::default()
    };
    let client = ActiveMemoryClient::open_sqlite_with(&path, options.clone())?
        .with_config(ClientConfig::default());
    client
        .put(RulePut::new("bash", "never run sudo").with_priority(ToolMemoryPriority::Critical))
        .await?;
    let verdict = client
        .check("bash", &serde_json::json!({"command": "sudo ls"}))
        .await?;
    assert_eq!(verdict.decision, active_memory_client::Decision::Deny);
    let log = dir.path().join("rules.sqlite3-wal");
    assert!(log.exists(), "the log is open while the client is");
    client.close_for_exit();
    assert!(!log.exists(), "the store was not closed");
    let again = ActiveMemoryClient::open_sqlite_with(&path, options)?;
    assert_eq!(again.list("bash").await?.len(), 1);
    Ok(())
}
