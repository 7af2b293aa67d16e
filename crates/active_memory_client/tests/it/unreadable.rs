//! The facade fails closed on rules it cannot see: a row of a tool (or of the no-tool group)
//! that the store cannot read makes that tool's checks confirm, never allow, with the row
//! named and audited; a readable deny still wins; the prompt shows a line in its place.

use std::sync::Arc;

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Decision, HistoryAction, RulePut, ToolMemoryPriority,
    UNSCOPED_TOOL, UnreadableRow,
};
use anyhow::Result;
use serde_json::json;
use tool_memory_store::InMemoryRuleStore;

/// A client over an in-memory store, and the store, to hold rows it cannot read.
fn client() -> (ActiveMemoryClient, Arc<InMemoryRuleStore>) {
    let store = Arc::new(InMemoryRuleStore::new());
    let client = ActiveMemoryClient::from_store(store.clone()).with_config(ClientConfig::default());
    (client, store)
}

fn row(tool_name: &str, id: &str) -> UnreadableRow {
    UnreadableRow {
        tool_name: tool_name.to_owned(),
        id: id.to_owned(),
        reason: "priority: a value this version does not know".to_owned(),
    }
}

fn critical(tool: &str, text: &str) -> RulePut {
    RulePut::new(tool, text).with_priority(ToolMemoryPriority::Critical)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_row_makes_its_tools_checks_confirm_and_is_audited() -> Result<()> {
    let (client, store) = client();
    let email = json!({"to": "sarah@example.com", "subject": "lunch?"});
    // Before: a guard is built and cached with nothing unreadable.
    assert_eq!(
        client.check("send_email", &email).await?.decision,
        Decision::Allow
    );
    store.hold_unreadable(row("send_email", "r-sarah"));
    let verdict = client.check("send_email", &email).await?;
    assert_eq!(verdict.decision, Decision::Confirm, "{verdict:?}");
    assert!(
        verdict.reason.contains("r-sarah on send_email"),
        "{}",
        verdict.reason
    );
    assert!(
        verdict.reason.contains("toolmem doctor"),
        "{}",
        verdict.reason
    );
    assert!(verdict.rules.is_empty(), "no readable rule decided it");
    let history = client
        .history("send_email", Some("r-sarah"), 10, None)
        .await?;
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].action, HistoryAction::AskConfirm);
    assert_eq!(
        history[0].detail.as_deref(),
        Some("send_email(subject, to)")
    );
    // An unrelated tool is not this row's business.
    let other = client.check("calendar", &json!({"title": "lunch"})).await?;
    assert_eq!(other.decision, Decision::Allow, "{other:?}");
    // The prompt shows a line in its place.
    let prompt = client.rules_for_prompt(&["send_email".to_owned()]).await?;
    assert!(
        prompt.rendered.contains("Unreadable rule `r-sarah`"),
        "{}",
        prompt.rendered
    );
    assert_eq!(prompt.unreadable, [row("send_email", "r-sarah")]);
    let section = client.session_prompt(&[]).await?;
    assert_eq!(section.rendered(), prompt.rendered);
    assert_eq!(
        client.session_prompt_blocking(&[]).rendered(),
        prompt.rendered
    );
    // Once it is removed, the tool allows again.
    assert!(
        client
            .delete("send_email", "r-sarah", &active_memory_client::Origin::Cli)
            .await?
    );
    assert_eq!(
        client.check("send_email", &email).await?.decision,
        Decision::Allow
    );
    assert!(client.rules_for_prompt(&[]).await?.rendered.is_empty());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_readable_deny_still_wins_and_a_readable_confirm_names_both() -> Result<()> {
    let (client, store) = client();
    client
        .put(critical(
            "send_email",
            "Never email Sarah at sarah@example.com.",
        ))
        .await?;
    client
        .put(critical(
            "send_email",
            "Never email Bob without asking me first.",
        ))
        .await?;
    store.hold_unreadable(row("send_email", "r-new"));
    let denied = client
        .check("send_email", &json!({"to": "sarah@example.com"}))
        .await?;
    assert_eq!(denied.decision, Decision::Deny, "{denied:?}");
    assert!(!denied.reason.contains("r-new"), "{}", denied.reason);
    let asked = client.check("send_email", &json!({"to": "Bob"})).await?;
    assert_eq!(asked.decision, Decision::Confirm, "{asked:?}");
    assert_eq!(asked.rules.len(), 1, "the readable rule still decides");
    assert!(
        asked
            .reason
            .contains("also, the stored rule r-new on send_email"),
        "{}",
        asked.reason
    );
    // Both are audited: the readable rule and the unreadable row.
    let history = client.history("send_email", None, 20, None).await?;
    let confirms: Vec<&str> = history
        .iter()
        .filter(|entry| entry.action == HistoryAction::AskConfirm)
        .map(|entry| entry.rule_id.as_str())
        .collect();
    assert_eq!(confirms.len(), 2, "{confirms:?}");
    assert!(confirms.contains(&"r-new"));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_row_for_every_tool_makes_every_check_confirm() -> Result<()> {
    let (client, store) = client();
    store.hold_unreadable(row(UNSCOPED_TOOL, "r-any"));
    for (tool, arguments) in [
        ("send_email", json!({"to": "bob@example.com"})),
        ("bash", json!({"command": "ls"})),
        (UNSCOPED_TOOL, json!({})),
    ] {
        let verdict = client.check(tool, &arguments).await?;
        assert_eq!(verdict.decision, Decision::Confirm, "{tool}: {verdict:?}");
        assert!(
            verdict.reason.contains("r-any for every tool"),
            "{}",
            verdict.reason
        );
    }
    Ok(())
}

/// A reason stays one readable line whatever the store holds: many rows are counted past the
/// first few, and a damaged id cannot carry control characters or run on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reason_names_a_few_rows_escaped_and_counts_the_rest() -> Result<()> {
    let (client, store) = client();
    for index in 0..10 {
        store.hold_unreadable(row("bash", &format!("r{index}")));
    }
    let verdict = client.check("bash", &json!({"command": "ls"})).await?;
    assert_eq!(verdict.decision, Decision::Confirm);
    assert!(
        verdict.reason.starts_with(
            "confirm first: 10 stored rules (r0 on bash, r1 on bash, r2 on bash, 7 more) could not be read"
        ),
        "{}",
        verdict.reason
    );
    let (client, store) = self::client();
    store.hold_unreadable(row(
        "bash",
        &format!("evil\u{1b}[2J\n\u{202e}{}", "x".repeat(500)),
    ));
    let verdict = client.check("bash", &json!({"command": "ls"})).await?;
    assert_eq!(verdict.decision, Decision::Confirm);
    assert!(
        !verdict
            .reason
            .chars()
            .any(|c| c.is_control() || c == '\u{202e}'),
        "{:?}",
        verdict.reason
    );
    assert!(
        verdict.reason.contains("evil\\u{1b}[2J\\u{a}\\u{202e}"),
        "{}",
        verdict.reason
    );
    assert!(verdict.reason.len() < 400, "{}", verdict.reason);
    Ok(())
}
