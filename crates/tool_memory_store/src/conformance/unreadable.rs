//! Rows this version cannot read: skipped, reported beside the readable rules, never deleted.

use tool_memory_core::{Origin, RulePut, ToolMemoryPriority, UNSCOPED_TOOL};

use crate::conformance::harness::{
    CORRUPT_PRIORITY, CORRUPT_RULE_TEXT, Harness, Result, put, texts,
};

use ToolMemoryPriority::Critical;

pub async fn unreadable_row_is_skipped_counted_and_kept(h: &Harness) -> Result<()> {
    let Some(corrupt) = &h.corrupt else {
        return Ok(());
    };
    h.store
        .put(put("shell", "never run sudo", Critical))
        .await?;
    corrupt("shell", "bad");
    assert_eq!(texts(&h.store.list("shell").await?), ["never run sudo"]);
    let prompt = h
        .store
        .rules_for_prompt(&["shell".to_owned()], None)
        .await?;
    assert_eq!(texts(&prompt.rules), ["never run sudo"]);
    assert_eq!(located(&prompt.unreadable), [("shell", "bad")]);
    assert_reasons_quote_nothing(&prompt.unreadable);
    // Neither a read nor an upsert silently replaces what a newer version wrote.
    let err = h.store.get("shell", "bad").await.unwrap_err();
    assert!(
        matches!(&err, crate::Error::Unreadable { tool_name, id, .. } if tool_name == "shell" && id == "bad"),
        "{err}"
    );
    assert!(
        h.store
            .put(RulePut::new("shell", "overwrite").with_id("bad"))
            .await
            .is_err()
    );
    // The row is still there: an explicit delete by id finds it.
    assert!(h.store.delete("shell", "bad", &Origin::Api).await?);
    assert!(
        h.store
            .rules_for_prompt(&[], None)
            .await?
            .unreadable
            .is_empty()
    );
    Ok(())
}

/// (tool, id) of each row.
fn located(rows: &[crate::UnreadableRow]) -> Vec<(&str, &str)> {
    rows.iter()
        .map(|row| (row.tool_name.as_str(), row.id.as_str()))
        .collect()
}

/// Every reason says something, and none quotes what the row holds.
fn assert_reasons_quote_nothing(rows: &[crate::UnreadableRow]) {
    for row in rows {
        assert!(!row.reason.trim().is_empty(), "{row:?}");
        assert!(!row.reason.contains(CORRUPT_RULE_TEXT), "{row:?}");
        assert!(!row.reason.contains(CORRUPT_PRIORITY), "{row:?}");
    }
}

/// The guard reads a tool's listing together with its unreadable rows: both from one read,
/// both refreshed by every change, here or through another connection, as listings are.
pub async fn unreadable_rows_come_with_the_listing_and_follow_every_change(
    h: &Harness,
) -> Result<()> {
    let Some(corrupt) = &h.corrupt else {
        return Ok(());
    };
    let sudo = h
        .store
        .put(put("shell", "never run sudo", Critical))
        .await?;
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    // Read first, so that a store with a cache has this listing in it.
    let before = h.store.list_with_unreadable("shell").await?;
    assert_eq!(&*before.rules, std::slice::from_ref(&sudo));
    assert!(before.unreadable.is_empty());
    corrupt("shell", "bad");
    let after = h.store.list_with_unreadable(" Shell ").await?;
    assert_eq!(&*after.rules, std::slice::from_ref(&sudo));
    assert_eq!(located(&after.unreadable), [("shell", "bad")]);
    assert_reasons_quote_nothing(&after.unreadable);
    // The listing itself is unchanged, and other tools know nothing of the row.
    assert_eq!(&*h.store.list("shell").await?, std::slice::from_ref(&sudo));
    assert!(
        h.store
            .list_with_unreadable("email")
            .await?
            .unreadable
            .is_empty()
    );
    assert_eq!(
        located(&h.store.unreadable_rows().await?),
        [("shell", "bad")]
    );
    // A second unreadable row, then the first one deleted: the report follows both.
    corrupt("shell", "also-bad");
    assert_eq!(
        located(&h.store.list_with_unreadable("shell").await?.unreadable),
        [("shell", "also-bad"), ("shell", "bad")]
    );
    assert!(h.store.delete("shell", "bad", &Origin::Api).await?);
    assert_eq!(
        located(&h.store.list_with_unreadable("shell").await?.unreadable),
        [("shell", "also-bad")]
    );
    assert!(h.store.delete("shell", "also-bad", &Origin::Api).await?);
    let healed = h.store.list_with_unreadable("shell").await?;
    assert_eq!(*healed.rules, [sudo]);
    assert!(healed.unreadable.is_empty());
    assert!(h.store.unreadable_rows().await?.is_empty());
    Ok(())
}

/// An unreadable row under the no-tool group applies to every tool: every tool's prompt
/// reports it, and the group's own listing carries it.
pub async fn unreadable_rows_of_the_no_tool_group_reach_every_prompt(h: &Harness) -> Result<()> {
    let Some(corrupt) = &h.corrupt else {
        return Ok(());
    };
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    corrupt(UNSCOPED_TOOL, "anything");
    corrupt("shell", "bad");
    let email = h
        .store
        .rules_for_prompt(&["email".to_owned()], None)
        .await?;
    assert_eq!(texts(&email.rules), ["never email Sarah"]);
    assert_eq!(located(&email.unreadable), [(UNSCOPED_TOOL, "anything")]);
    // A limit never leaves one out: it could be a critical rule.
    let everything = h.store.rules_for_prompt(&[], Some(0)).await?;
    assert_eq!(
        located(&everything.unreadable),
        [(UNSCOPED_TOOL, "anything"), ("shell", "bad")]
    );
    assert_eq!(
        located(
            &h.store
                .list_with_unreadable(UNSCOPED_TOOL)
                .await?
                .unreadable
        ),
        [(UNSCOPED_TOOL, "anything")]
    );
    assert_eq!(
        located(&h.store.unreadable_rows().await?),
        [(UNSCOPED_TOOL, "anything"), ("shell", "bad")]
    );
    Ok(())
}
