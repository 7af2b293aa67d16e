//! Rejected input: what a put refuses, naming the field, and tool names and ids normalised or
//! kept on every path.

use tool_memory_core::{Origin, RulePut, ToolMemoryPriority};

use crate::conformance::harness::{Harness, Result, put};

use ToolMemoryPriority::{Critical, High};

pub async fn blank_tool_name_is_rejected_naming_the_field(h: &Harness) -> Result<()> {
    let err = h
        .store
        .put(RulePut::new("  ", "never email Sarah"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("tool_name"), "{err}");
    Ok(())
}

pub async fn blank_body_is_rejected_naming_the_field(h: &Harness) -> Result<()> {
    let err = h.store.put(RulePut::new("email", "   ")).await.unwrap_err();
    assert!(err.to_string().starts_with("rule "), "{err}");
    assert!(h.store.list("email").await?.is_empty());
    Ok(())
}

pub async fn oversized_fields_are_rejected_and_nothing_is_stored(h: &Harness) -> Result<()> {
    let stored = h
        .store
        .put(put("email", "keep me", Critical).with_id("keep"))
        .await?;
    let cases = [
        (
            RulePut::new("email", "x".repeat(4097)).with_id("keep"),
            "rule",
        ),
        (
            RulePut::new("email", "ok")
                .with_id("keep")
                .with_tags(["t".repeat(65)]),
            "tags",
        ),
        (RulePut::new("email", "ok").with_id("k".repeat(129)), "id"),
        (RulePut::new("e".repeat(129), "ok"), "tool_name"),
        (RulePut::new("bad\ntool", "ok"), "tool_name"),
    ];
    for (bad, field) in cases {
        let err = h.store.put(bad).await.unwrap_err();
        assert!(
            err.to_string().starts_with(field),
            "expected {field}: {err}"
        );
    }
    assert_eq!(*h.store.list("email").await?, [stored]);
    assert_eq!(h.store.list_tool_names().await?, ["email"]);
    Ok(())
}

pub async fn tool_name_is_normalised_on_every_path(h: &Harness) -> Result<()> {
    let stored = h
        .store
        .put(put("  Send_Email  ", "never email Sarah", Critical))
        .await?;
    assert_eq!(stored.tool_name, "send_email");
    assert_eq!(h.store.list("send_email").await?.len(), 1);
    assert_eq!(h.store.list(" SEND_EMAIL ").await?.len(), 1);
    assert!(h.store.get("Send_Email", &stored.id).await?.is_some());
    assert_eq!(h.store.list_tool_names().await?, ["send_email"]);
    let prompt = h
        .store
        .rules_for_prompt(&[" SEND_email".to_owned()], None)
        .await?;
    assert_eq!(prompt.rules.len(), 1);
    assert!(
        h.store
            .delete("SEND_EMAIL", &stored.id, &Origin::Api)
            .await?
    );
    assert!(h.store.list("send_email").await?.is_empty());
    Ok(())
}

pub async fn unusual_tool_names_work_on_every_path(h: &Harness) -> Result<()> {
    // Reference W-23: these names broke get and delete on its backend.
    for tool in [
        "github.create_issue",
        "server:tool",
        "my tool",
        "ツール",
        "Ünïcode",
    ] {
        let stored = h
            .store
            .put(put(tool, "be careful", High).with_id("x"))
            .await?;
        assert!(h.store.get(tool, "x").await?.is_some(), "{tool}");
        assert_eq!(
            &*h.store.list(tool).await?,
            std::slice::from_ref(&stored),
            "{tool}"
        );
        let updated = h
            .store
            .put(RulePut::new(tool, "be very careful").with_id("x"))
            .await?;
        assert_eq!(updated.created_at, stored.created_at, "{tool}");
        assert!(h.store.delete(tool, "x", &Origin::Api).await?, "{tool}");
        assert!(h.store.get(tool, "x").await?.is_none(), "{tool}");
    }
    Ok(())
}

pub async fn ids_are_kept_verbatim(h: &Harness) -> Result<()> {
    for id in [
        " abc ",
        "redjckpcaaaaaaaaaaaaaaaaaaaaaaaaa",
        "with/slash",
        "ünï",
    ] {
        let stored = h
            .store
            .put(RulePut::new("shell", "quote paths").with_id(id))
            .await?;
        assert_eq!(stored.id, id);
        assert_eq!(
            h.store.get("shell", id).await?.map(|rule| rule.id),
            Some(id.to_owned())
        );
    }
    assert_eq!(h.store.list("shell").await?.len(), 4);
    assert!(h.store.delete("shell", " abc ", &Origin::Api).await?);
    assert!(!h.store.delete("shell", "abc", &Origin::Api).await?);
    Ok(())
}

pub async fn blank_id_gets_one_assigned(h: &Harness) -> Result<()> {
    let first = h
        .store
        .put(RulePut::new("shell", "a").with_id("   "))
        .await?;
    let second = h.store.put(RulePut::new("shell", "b")).await?;
    assert!(!first.id.trim().is_empty());
    assert_ne!(first.id, second.id);
    assert_eq!(h.store.list("shell").await?.len(), 2);
    Ok(())
}
