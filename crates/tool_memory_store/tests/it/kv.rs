//! Behaviour specific to the key/value adapter: the exact layout openhuman uses.

use anyhow::Result;
use tool_memory_core::{RulePut, ToolMemoryPriority};
use tool_memory_store::{InMemoryKv, KvBackend, KvRuleStore, RuleStore};

#[tokio::test]
async fn lays_rules_out_as_the_reference_does() -> Result<()> {
    let store = KvRuleStore::new(InMemoryKv::new());
    let rule = store
        .put(
            RulePut::new("  Send_Email ", "never email Sarah")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    let entry = store
        .backend()
        .get("tool-send_email", &format!("rule/{}", rule.id))
        .await
        .map_err(|err| anyhow::anyhow!(err))?
        .expect("entry under tool-send_email/rule/{id}");
    assert_eq!(entry.content, rule.to_compact_json());
    Ok(())
}

#[tokio::test]
async fn reads_rules_openhuman_wrote_and_ignores_other_namespaces() -> Result<()> {
    let backend = InMemoryKv::new();
    let written_by_openhuman = r#"{"id":"redjckpcaaaaaaaaaaaaaaaaaaaaaaaaa","tool_name":"send_email","rule":"Never email Sarah at sarah@example","priority":"critical","source":"user_explicit","tags":["user-edict"],"created_at":"2026-07-23T17:04:54.123456789Z","updated_at":"2026-07-23T17:04:54.123498765Z"}"#;
    backend
        .store(
            "tool-send_email",
            "rule/redjckpcaaaaaaaaaaaaaaaaaaaaaaaaa",
            written_by_openhuman,
            "custom:tool_memory",
        )
        .await
        .map_err(|err| anyhow::anyhow!(err))?;
    backend
        .store("global", "noise", "{}", "core")
        .await
        .map_err(|err| anyhow::anyhow!(err))?;
    backend
        .store("tool-send_email", "stats/not-a-rule", "{}", "x")
        .await
        .map_err(|err| anyhow::anyhow!(err))?;
    let store = KvRuleStore::new(backend);
    assert_eq!(store.list_tool_names().await?, ["send_email"]);
    let listed = store.list("send_email").await?;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].rule, "Never email Sarah at sarah@example");
    assert_eq!(
        listed[0].updated_at.to_rfc3339(),
        "2026-07-23T17:04:54.123498765+00:00"
    );
    Ok(())
}
