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

/// An entry that is not a rule is reported with the field at fault and what is wrong, never
/// with what it holds (serde's own message quotes it).
#[tokio::test]
async fn an_entry_that_is_no_rule_is_reported_naming_its_field_never_its_value() -> Result<()> {
    let rule = r#""id":"r","tool_name":"send_email","rule":"SECRET never email Sarah""#;
    let at = r#""created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z""#;
    let cases = [
        (
            format!(r#"{{{rule},"priority":"SECRET",{at}}}"#),
            "priority: a value this version does not know",
        ),
        (
            format!(r#"{{{rule},"source":"SECRET",{at}}}"#),
            "source: a value this version does not know",
        ),
        (
            format!(r#"{{{rule},"tags":["SECRET",1],{at}}}"#),
            "tags: not a JSON list of strings",
        ),
        (
            format!(r#"{{{rule},"created_at":"SECRET","updated_at":"2026-01-01T00:00:00Z"}}"#),
            "created_at: not a timestamp",
        ),
        (
            format!(r#"{{{rule},"created_at":"2026-01-01T00:00:00Z"}}"#),
            "updated_at: not present",
        ),
        (
            format!(r#"{{{rule},"proposed":"SECRET",{at}}}"#),
            "proposed: not a boolean",
        ),
        (format!(r#"{{{rule},{at}"#), "the stored entry: not whole"),
        ("SECRET".to_owned(), "the stored entry: not JSON"),
        (
            r#"["SECRET"]"#.to_owned(),
            "the stored entry: not a JSON object",
        ),
    ];
    for (content, reason) in cases {
        let store = KvRuleStore::new(InMemoryKv::new());
        store
            .backend()
            .store("tool-send_email", "rule/r", &content, "tool_memory")
            .await
            .map_err(|err| anyhow::anyhow!(err))?;
        let listed = store.list_with_unreadable("send_email").await?;
        let [row] = &*listed.unreadable else {
            panic!("{content}: {:?}", listed.unreadable);
        };
        assert_eq!(
            (row.tool_name.as_str(), row.id.as_str()),
            ("send_email", "r")
        );
        assert!(row.reason.starts_with(reason), "{content}: {}", row.reason);
        assert!(!row.reason.contains("SECRET"), "{content}: {}", row.reason);
        let err = store.get("send_email", "r").await.unwrap_err();
        assert!(!err.to_string().contains("SECRET"), "{content}: {err}");
    }
    Ok(())
}
