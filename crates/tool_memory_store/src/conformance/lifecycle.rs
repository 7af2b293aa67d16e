//! A rule's lifecycle and its audit trail: revoke, restore, expire, confirm, the history
//! lines and the version.

use tool_memory_core::{
    HistoryAction, HistoryEvent, Origin, RulePut, ToolMemoryPriority, ToolStats,
};

use crate::conformance::harness::{Harness, Result, actions, put, texts, ts};

use ToolMemoryPriority::{Critical, High, Normal};

pub async fn revoked_rules_leave_listings_prompt_and_search_but_stay(h: &Harness) -> Result<()> {
    let rule = h
        .store
        .put(put(
            "send_email",
            "Never email Sarah at sarah@example.com.",
            Critical,
        ))
        .await?;
    h.store
        .put(put("send_email", "Never email Bob.", Critical))
        .await?;
    let revoked = h
        .store
        .revoke("send_email", &rule.id, &Origin::Cli)
        .await?
        .expect("rule");
    assert!(revoked.meta.revoked_at.is_some());
    assert_eq!(
        texts(&h.store.list("send_email").await?),
        ["Never email Bob."]
    );
    let everything = h.store.list_including_revoked("send_email").await?;
    assert_eq!(everything.len(), 2);
    assert!(everything.iter().any(|rule| rule.meta.revoked_at.is_some()));
    let prompt = h.store.rules_for_prompt(&[], None).await?;
    assert_eq!(texts(&prompt.rules), ["Never email Bob."]);
    assert!(h.store.search("send_email", "sarah", 10).await?.is_empty());
    assert_eq!(
        h.store.get("send_email", &rule.id).await?,
        Some(revoked.clone())
    );
    // Revoking again changes nothing and writes no second line.
    assert_eq!(
        h.store.revoke("send_email", &rule.id, &Origin::Cli).await?,
        Some(revoked)
    );
    assert!(
        h.store
            .revoke("send_email", "missing", &Origin::Cli)
            .await?
            .is_none()
    );
    let restored = h
        .store
        .restore("send_email", &rule.id, &Origin::Cli)
        .await?
        .expect("rule");
    assert!(restored.meta.revoked_at.is_none());
    assert_eq!(h.store.rules_for_prompt(&[], None).await?.rules.len(), 2);
    let history = h
        .store
        .history("send_email", Some(&rule.id), 10, None)
        .await?;
    assert_eq!(
        actions(&history),
        [
            HistoryAction::Restore,
            HistoryAction::Revoke,
            HistoryAction::Create
        ]
    );
    // A put over a revoked rule keeps it revoked; only restore lifts that.
    h.store.revoke("send_email", &rule.id, &Origin::Cli).await?;
    let kept = h
        .store
        .put(RulePut::new("send_email", "Never email Sarah.").with_id(&rule.id))
        .await?;
    assert!(kept.meta.revoked_at.is_some());
    Ok(())
}

pub async fn history_records_every_change_newest_first(h: &Harness) -> Result<()> {
    let edict = Origin::UserEdict {
        session_id: Some("s1".into()),
        turn: Some(3),
    };
    let created = h
        .store
        .put(
            put("bash", "never run sudo", Critical)
                .with_id("r")
                .with_origin(edict.clone()),
        )
        .await?;
    let rpc = Origin::Rpc {
        method: "memory.tool_rule_put".into(),
    };
    let updated = h
        .store
        .put(
            RulePut::new("bash", "never run sudo -i")
                .with_id("r")
                .with_origin(rpc.clone()),
        )
        .await?;
    h.store.revoke("bash", "r", &Origin::Cli).await?;
    h.store.restore("bash", "r", &Origin::Api).await?;
    assert!(h.store.delete("bash", "r", &Origin::Cli).await?);
    let history = h.store.history("BASH", Some("r"), 10, None).await?;
    assert_eq!(
        actions(&history),
        [
            HistoryAction::Delete,
            HistoryAction::Restore,
            HistoryAction::Revoke,
            HistoryAction::Update,
            HistoryAction::Create
        ]
    );
    let create = &history[4];
    assert_eq!(create.origin, edict);
    assert_eq!(create.before, None);
    assert_eq!(create.after.as_ref(), Some(&created));
    let update = &history[3];
    assert_eq!(update.origin, rpc);
    assert_eq!(update.before.as_ref(), Some(&created));
    assert_eq!(update.after.as_ref(), Some(&updated));
    let delete = &history[0];
    assert_eq!(delete.after, None);
    assert_eq!(
        delete.before.as_ref().map(|rule| rule.rule.as_str()),
        Some("never run sudo -i")
    );
    assert!(history.windows(2).all(|pair| pair[0].seq > pair[1].seq));
    // The rule is gone; its history stays, and other tools' lines are not mixed in.
    h.store.put(put("shell", "x", Normal)).await?;
    assert!(h.store.get("bash", "r").await?.is_none());
    assert_eq!(h.store.history("bash", None, 10, None).await?.len(), 5);
    Ok(())
}

pub async fn history_pages_with_limit_and_before(h: &Harness) -> Result<()> {
    for index in 0..5 {
        h.store
            .put(put("git", &format!("rule {index}"), Normal).with_id(format!("r{index}")))
            .await?;
    }
    let first = h.store.history("git", None, 2, None).await?;
    assert_eq!(
        first
            .iter()
            .map(|entry| entry.rule_id.as_str())
            .collect::<Vec<_>>(),
        ["r4", "r3"]
    );
    let next = h.store.history("git", None, 2, Some(first[1].seq)).await?;
    assert_eq!(
        next.iter()
            .map(|entry| entry.rule_id.as_str())
            .collect::<Vec<_>>(),
        ["r2", "r1"]
    );
    assert_eq!(h.store.history("git", Some("r0"), 10, None).await?.len(), 1);
    Ok(())
}

pub async fn expired_rules_leave_the_prompt_and_expiry_is_recorded(h: &Harness) -> Result<()> {
    let mut soon = put("bash", "prefer tmux", High).with_id("obs");
    soon.expires_at = Some(ts("2026-01-01T00:00:10Z"));
    h.store.put(soon).await?;
    assert_eq!(h.store.rules_for_prompt(&[], None).await?.rules.len(), 1);
    h.clock.advance_micros(20_000_000);
    assert!(h.store.rules_for_prompt(&[], None).await?.rules.is_empty());
    assert!(h.store.expire("bash", "obs").await?);
    assert!(!h.store.expire("bash", "obs").await?);
    let history = h.store.history("bash", Some("obs"), 10, None).await?;
    assert_eq!(
        actions(&history),
        [HistoryAction::Expire, HistoryAction::Create]
    );
    assert_eq!(history[0].origin, Origin::Expiry);
    Ok(())
}

pub async fn proposed_rules_are_confirmed_once(h: &Harness) -> Result<()> {
    let mut proposal = put("send_email", "never email Sarah", Critical).with_id("p");
    proposal.proposed = Some(true);
    assert!(h.store.put(proposal).await?.meta.proposed);
    let confirmed = h
        .store
        .confirm("send_email", "p", &Origin::Cli)
        .await?
        .expect("rule");
    assert!(!confirmed.meta.proposed);
    assert_eq!(
        h.store.confirm("send_email", "p", &Origin::Cli).await?,
        Some(confirmed)
    );
    let history = h.store.history("send_email", Some("p"), 10, None).await?;
    assert_eq!(
        actions(&history),
        [HistoryAction::Confirm, HistoryAction::Create]
    );
    Ok(())
}

pub async fn guard_decisions_are_appended_to_history(h: &Harness) -> Result<()> {
    let rule = h
        .store
        .put(put("send_email", "never email Sarah", Critical))
        .await?;
    let entry = h
        .store
        .append_history(HistoryEvent {
            tool_name: "send_email".into(),
            rule_id: rule.id.clone(),
            action: HistoryAction::Deny,
            origin: Origin::Guard,
            rule: Some(rule.clone()),
            detail: Some("send_email to sarah@example.com".into()),
        })
        .await?;
    let history = h.store.history("send_email", None, 1, None).await?;
    assert_eq!(history, vec![entry]);
    assert_eq!(
        history[0].detail.as_deref(),
        Some("send_email to sarah@example.com")
    );
    assert_eq!(h.store.get("send_email", &rule.id).await?, Some(rule));
    Ok(())
}

pub async fn version_changes_with_every_write_and_only_then(h: &Harness) -> Result<()> {
    // A backend that cannot tell answers `None`, and callers then cache nothing.
    let Some(start) = h.store.version().await? else {
        return Ok(());
    };
    h.store.list("bash").await?;
    h.store.rules_for_prompt(&[], None).await?;
    assert_eq!(
        h.store.version().await?,
        Some(start),
        "reads change nothing"
    );
    let rule = h.store.put(put("bash", "never run sudo", Critical)).await?;
    let after_put = h.store.version().await?;
    assert_ne!(after_put, Some(start));
    h.store.revoke("bash", &rule.id, &Origin::Cli).await?;
    let after_revoke = h.store.version().await?;
    assert_ne!(after_revoke, after_put);
    // Writes that change no rule leave the version alone, so caches built from the rules
    // survive a stream of audited guard decisions and statistics.
    h.store
        .append_history(HistoryEvent {
            tool_name: "bash".into(),
            rule_id: rule.id.clone(),
            action: HistoryAction::Deny,
            origin: Origin::Guard,
            rule: None,
            detail: Some("bash(command)".into()),
        })
        .await?;
    let mut delta = ToolStats::empty("bash");
    delta.calls = 1;
    h.store.record_stats(&delta).await?;
    assert_eq!(h.store.version().await?, after_revoke);
    h.store.delete("bash", &rule.id, &Origin::Cli).await?;
    assert_ne!(h.store.version().await?, after_revoke);
    Ok(())
}
