//! The feature page's safety case, in-process: "Never email Sarah at sarah@example.com." said
//! during a turn that called send_email becomes one critical rule that every later session pins,
//! however much else happens. (`tests/` replays the same scenario over HTTP.)

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, RulePut, ToolCallRecord, ToolMemoryPriority,
    ToolMemorySource, TurnRecord,
};
use anyhow::Result;

const EDICT: &str = "Never email Sarah at sarah@example.com.";
const PINNED: &str = "### `send_email`\n- **[critical]** Never email Sarah at sarah@example.com.\n";

fn sarah_turn() -> TurnRecord {
    let mut turn = TurnRecord::new(EDICT);
    turn.session_id = Some("session-1".into());
    turn.tool_calls = vec![ToolCallRecord::new(
        "send_email",
        true,
        "send_email: ok (42 chars)",
    )];
    turn
}

#[tokio::test]
async fn never_email_sarah_survives_sessions_and_noise() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    {
        // Session 1.
        let client = ActiveMemoryClient::open_sqlite(&db)?.with_config(ClientConfig::default());
        let report = client.after_turn(&sarah_turn()).await?;
        assert_eq!(report.created.len(), 1, "{report:?}");
        let rule = &report.created[0];
        assert_eq!(rule.tool_name, "send_email");
        assert_eq!(rule.rule, EDICT);
        assert_eq!(rule.priority, ToolMemoryPriority::Critical);
        assert_eq!(rule.source, ToolMemorySource::UserExplicit);
        // Said again in a later turn: still one rule.
        let again = client.after_turn(&sarah_turn()).await?;
        assert!(again.created.is_empty());
        assert_eq!(client.list("send_email").await?.len(), 1);
    }
    // Session 2: a new client on the same file.
    let client = ActiveMemoryClient::open_sqlite(&db)?.with_config(ClientConfig::default());
    let section = client
        .session_prompt(&["send_email".to_owned(), "bash".to_owned()])
        .await?;
    assert!(
        section.rendered().contains(PINNED),
        "{}",
        section.rendered()
    );

    // Fill the store with other rules and the session with many turns.
    for index in 0..200 {
        let priority = if index % 3 == 0 {
            ToolMemoryPriority::High
        } else {
            ToolMemoryPriority::Normal
        };
        client
            .put(
                RulePut::new(
                    format!("tool_{}", index % 7),
                    format!("other rule number {index} with some padding text"),
                )
                .with_priority(priority),
            )
            .await?;
    }
    for index in 0..100 {
        let mut turn = TurnRecord::new(format!("Please summarise document {index} for me."));
        turn.tool_calls = vec![ToolCallRecord::new(
            "bash",
            index % 2 == 0,
            "bash: failed (timeout)",
        )];
        client.after_turn(&turn).await?;
    }
    let tools: Vec<String> = ["send_email", "bash"]
        .into_iter()
        .map(str::to_owned)
        .chain((0..7).map(|i| format!("tool_{i}")))
        .collect();
    let later = client.session_prompt(&tools).await?;
    assert!(later.rendered().contains(PINNED), "{}", later.rendered());
    assert_eq!(client.list("send_email").await?.len(), 1);
    Ok(())
}
