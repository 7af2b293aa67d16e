//! Writing and reading rules: put, upsert, get, list order, delete, record, import,
//! concurrent writers, keyword search and statistics.

use tool_memory_core::{
    Origin, RulePut, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, ToolStats, UNSCOPED_TOOL,
};

use crate::conformance::harness::{Harness, Result, put, texts, ts};

use ToolMemoryPriority::{Critical, High, Normal};

pub async fn put_then_get_round_trips(h: &Harness) -> Result<()> {
    let stored = h
        .store
        .put(
            put("email", "never email Sarah", Critical)
                .with_source(ToolMemorySource::UserExplicit)
                .with_tags(["safety"]),
        )
        .await?;
    let fetched = h
        .store
        .get("email", &stored.id)
        .await?
        .expect("stored rule");
    assert_eq!(fetched, stored);
    assert_eq!(fetched.rule, "never email Sarah");
    assert_eq!(fetched.priority, Critical);
    assert_eq!(fetched.source, ToolMemorySource::UserExplicit);
    assert_eq!(fetched.tags, ["safety"]);
    assert_eq!(fetched.created_at, fetched.updated_at);
    assert_eq!(h.store.get("email", "nope").await?, None);
    Ok(())
}

pub async fn upsert_keeps_created_at_and_updates_the_body(h: &Harness) -> Result<()> {
    let first = h
        .store
        .put(put("email", "original rule body", High).with_id("r1"))
        .await?;
    h.clock.advance_micros(5_000);
    let second = h
        .store
        .put(RulePut::new("email", "updated rule body").with_id("r1"))
        .await?;
    assert_eq!(second.created_at, first.created_at);
    assert!(second.updated_at > first.updated_at);
    assert_eq!(second.rule, "updated rule body");
    assert_eq!(*h.store.list("email").await?, [second]);
    Ok(())
}

pub async fn upsert_keeps_fields_the_caller_leaves_unset(h: &Harness) -> Result<()> {
    h.store
        .put(
            put("email", "never email Sarah", Critical)
                .with_id("r1")
                .with_source(ToolMemorySource::UserExplicit)
                .with_tags(["safety", "pii"]),
        )
        .await?;
    // No priority, source or tags: the reference would downgrade this to normal (W-16).
    let kept = h
        .store
        .put(RulePut::new("email", "never email Sarah!").with_id("r1"))
        .await?;
    assert_eq!(kept.priority, Critical);
    assert_eq!(kept.source, ToolMemorySource::UserExplicit);
    assert_eq!(kept.tags, ["safety", "pii"]);
    // Given fields replace: tags wholesale, priority as said.
    let changed = h
        .store
        .put(
            put("email", "never email Sarah!", Normal)
                .with_id("r1")
                .with_tags(Vec::<String>::new()),
        )
        .await?;
    assert_eq!(changed.priority, Normal);
    assert!(changed.tags.is_empty());
    assert_eq!(h.store.get("email", "r1").await?, Some(changed));
    Ok(())
}

pub async fn list_orders_by_priority_then_freshness_then_id(h: &Harness) -> Result<()> {
    h.store.put(put("email", "older normal", Normal)).await?;
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    h.store
        .put(put("email", "double-check the recipient", High))
        .await?;
    h.store.put(put("email", "newer normal", Normal)).await?;
    let listed = h.store.list("email").await?;
    assert_eq!(
        texts(&listed),
        [
            "never email Sarah",
            "double-check the recipient",
            "newer normal",
            "older normal"
        ]
    );
    Ok(())
}

pub async fn list_orders_mixed_offset_timestamps_by_instant(h: &Harness) -> Result<()> {
    // As text, "…01.5Z" sorts after "…01.6+00:00"; as instants it is older.
    let rule = |id: &str, updated: &str| ToolMemoryRule {
        id: id.into(),
        tool_name: "shell".into(),
        rule: format!("rule {id}"),
        priority: High,
        source: ToolMemorySource::Programmatic,
        tags: vec![],
        created_at: ts("2026-01-01T00:00:00Z"),
        updated_at: ts(updated),
        meta: Default::default(),
    };
    h.store
        .import(rule("zulu-older", "2026-05-11T00:00:01.5Z"), &Origin::Api)
        .await?;
    h.store
        .import(
            rule("offset-newer", "2026-05-11T00:00:01.6+00:00"),
            &Origin::Api,
        )
        .await?;
    h.store
        .import(
            rule("east-newest", "2026-05-11T02:00:02+02:00"),
            &Origin::Api,
        )
        .await?;
    let ids: Vec<String> = h
        .store
        .list("shell")
        .await?
        .iter()
        .map(|r| r.id.clone())
        .collect();
    assert_eq!(ids, ["east-newest", "offset-newer", "zulu-older"]);
    Ok(())
}

pub async fn delete_removes_only_its_target(h: &Harness) -> Result<()> {
    let sudo = h
        .store
        .put(put("shell", "never run sudo", Critical))
        .await?;
    let tmux = h
        .store
        .put(put(
            "shell",
            "prefer tmux for long-running commands",
            Normal,
        ))
        .await?;
    assert!(h.store.delete("shell", &sudo.id, &Origin::Api).await?);
    assert_eq!(*h.store.list("shell").await?, [tmux]);
    Ok(())
}

pub async fn delete_of_a_missing_rule_is_false(h: &Harness) -> Result<()> {
    assert!(
        !h.store
            .delete("shell", "does-not-exist", &Origin::Api)
            .await?
    );
    assert!(!h.store.delete("never-seen-tool", "x", &Origin::Api).await?);
    Ok(())
}

pub async fn list_tool_names_is_sorted_and_skips_the_sentinel(h: &Harness) -> Result<()> {
    h.store.put(put("shell", "a", Normal)).await?;
    h.store.put(put("email", "b", Normal)).await?;
    h.store.put(put("email", "c", Critical)).await?;
    h.store
        .put(put(UNSCOPED_TOOL, "never do that", Critical))
        .await?;
    assert_eq!(h.store.list_tool_names().await?, ["email", "shell"]);
    Ok(())
}

pub async fn record_always_inserts(h: &Harness) -> Result<()> {
    let first = h
        .store
        .record(
            "email",
            "never email Sarah",
            Critical,
            ToolMemorySource::UserExplicit,
            vec!["user-edict".into()],
        )
        .await?;
    let second = h
        .store
        .record(
            "email",
            "never email Sarah",
            Critical,
            ToolMemorySource::UserExplicit,
            vec![],
        )
        .await?;
    assert_ne!(first.id, second.id);
    assert_eq!(first.tags, ["user-edict"]);
    assert_eq!(h.store.list("email").await?.len(), 2);
    Ok(())
}

pub async fn restore_writes_timestamps_verbatim(h: &Harness) -> Result<()> {
    let rule = ToolMemoryRule {
        id: "imported".into(),
        tool_name: "email".into(),
        rule: "never email Sarah".into(),
        priority: Critical,
        source: ToolMemorySource::UserExplicit,
        tags: vec!["user-edict".into()],
        created_at: ts("2025-03-01T10:00:00Z"),
        updated_at: ts("2025-03-02T10:00:00.5+00:00"),
        meta: Default::default(),
    };
    h.store.import(rule.clone(), &Origin::Api).await?;
    h.store.import(rule.clone(), &Origin::Api).await?;
    assert_eq!(&*h.store.list("email").await?, std::slice::from_ref(&rule));
    let mut bad = rule;
    bad.tool_name = "Email".into();
    assert!(h.store.import(bad, &Origin::Api).await.is_err());
    Ok(())
}

pub async fn concurrent_upserts_of_one_id_lose_nothing(h: &Harness) -> Result<()> {
    let created = h
        .store
        .put(put("email", "v0", Critical).with_id("same"))
        .await?;
    let mut tasks = Vec::new();
    for writer in 0..8 {
        let store = h.store.clone();
        tasks.push(tokio::spawn(async move {
            for round in 0..10 {
                let body = format!("writer {writer} round {round}");
                store
                    .put(RulePut::new("email", body).with_id("same"))
                    .await?;
                store
                    .put(RulePut::new("email", "own").with_id(format!("w{writer}-{round}")))
                    .await?;
            }
            anyhow::Ok(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    let listed = h.store.list("email").await?;
    assert_eq!(listed.len(), 1 + 8 * 10);
    let same = h.store.get("email", "same").await?.expect("shared rule");
    assert_eq!(same.created_at, created.created_at);
    assert_eq!(same.priority, Critical);
    Ok(())
}

pub async fn list_sees_every_write_made_after_it_was_read(h: &Harness) -> Result<()> {
    assert!(h.store.list("bash").await?.is_empty());
    let rule = h
        .store
        .put(put("bash", "quote paths", Normal).with_id("r"))
        .await?;
    assert_eq!(texts(&h.store.list("bash").await?), ["quote paths"]);
    h.store
        .put(RulePut::new("bash", "quote every path").with_id("r"))
        .await?;
    assert_eq!(texts(&h.store.list("bash").await?), ["quote every path"]);
    h.store.put(put("shell", "other tool", Normal)).await?;
    assert_eq!(texts(&h.store.list("bash").await?), ["quote every path"]);
    h.store.delete("bash", &rule.id, &Origin::Api).await?;
    assert!(h.store.list("bash").await?.is_empty());
    Ok(())
}

pub async fn search_ranks_by_keywords_within_one_tool(h: &Harness) -> Result<()> {
    h.store
        .put(put(
            "send_email",
            "Never email Sarah at sarah@example.com.",
            Critical,
        ))
        .await?;
    h.store
        .put(put("send_email", "Use BCC for newsletters", Normal))
        .await?;
    h.store
        .put(put(
            "send_email",
            "Sarah prefers short mails; email Sarah on Mondays",
            Normal,
        ))
        .await?;
    h.store
        .put(put(
            "bash",
            "email the admin before rebooting Sarah's box",
            Normal,
        ))
        .await?;
    let found = h.store.search("Send_Email", "email sarah", 10).await?;
    assert_eq!(found.len(), 2, "{:?}", texts(&found));
    assert!(found.iter().all(|rule| rule.tool_name == "send_email"));
    assert!(texts(&found).contains(&"Never email Sarah at sarah@example.com."));
    assert_eq!(
        texts(&h.store.search("send_email", "newsletters", 10).await?),
        ["Use BCC for newsletters"]
    );
    assert_eq!(h.store.search("send_email", "email", 1).await?.len(), 1);
    // Punctuation and query syntax are plain text, never an error.
    assert!(
        h.store
            .search("send_email", "\"AND OR NOT*(", 10)
            .await?
            .is_empty()
    );
    assert!(h.store.search("send_email", "  ", 10).await?.is_empty());
    assert!(
        h.store
            .search("send_email", "bicycle", 10)
            .await?
            .is_empty()
    );
    Ok(())
}

pub async fn search_follows_updates_and_deletes(h: &Harness) -> Result<()> {
    let rule = h
        .store
        .put(put("bash", "prefer tmux for long jobs", Normal).with_id("r"))
        .await?;
    assert_eq!(h.store.search("bash", "tmux", 10).await?.len(), 1);
    h.store
        .put(RulePut::new("bash", "prefer screen for long jobs").with_id("r"))
        .await?;
    assert!(h.store.search("bash", "tmux", 10).await?.is_empty());
    assert_eq!(h.store.search("bash", "screen", 10).await?.len(), 1);
    h.store.delete("bash", &rule.id, &Origin::Api).await?;
    assert!(h.store.search("bash", "screen", 10).await?.is_empty());
    Ok(())
}

pub async fn statistics_accumulate_apart_from_rules(h: &Harness) -> Result<()> {
    assert_eq!(h.store.tool_stats("shell").await?, None);
    let mut delta = ToolStats::empty("Shell");
    delta.calls = 3;
    delta.successes = 1;
    delta.failures = 2;
    delta.last_failure_class = Some("permission_denied".into());
    delta.last_seen = Some(ts("2026-01-02T00:00:00Z"));
    h.store.record_stats(&delta).await?;
    let mut ok = ToolStats::empty("shell");
    ok.calls = 1;
    ok.successes = 1;
    ok.last_seen = Some(ts("2026-01-03T00:00:00Z"));
    let totals = h.store.record_stats(&ok).await?;
    assert_eq!((totals.calls, totals.successes, totals.failures), (4, 2, 2));
    assert_eq!(
        totals.last_failure_class.as_deref(),
        Some("permission_denied")
    );
    assert_eq!(h.store.tool_stats(" SHELL ").await?, Some(totals));
    // Statistics are not rules and do not make a tool appear in rule listings.
    assert!(h.store.list("shell").await?.is_empty());
    assert!(h.store.list_tool_names().await?.is_empty());
    Ok(())
}

pub async fn tool_counts_agree_with_the_listings(h: &Harness) -> Result<()> {
    assert_eq!(h.store.tool_counts().await?, Vec::new());
    h.store
        .put(put("shell", "quote every path", Critical))
        .await?;
    h.store.put(put("Shell", "prefer rg", Normal)).await?;
    let lifted = h.store.put(put("shell", "never run make", High)).await?;
    h.store.revoke("shell", &lifted.id, &Origin::Cli).await?;
    let mut proposal = put("git", "never force push", High);
    proposal.proposed = Some(true);
    h.store.put(proposal).await?;
    h.store
        .put(put(UNSCOPED_TOOL, "be careful", Critical))
        .await?;
    let mut expected = Vec::new();
    for tool in h.store.list_tool_names().await? {
        let mut counts = crate::ToolCounts::new(tool.clone());
        for rule in h.store.list_including_revoked(&tool).await?.iter() {
            counts.add_rule(rule);
        }
        expected.push(counts);
    }
    let counts = h.store.tool_counts().await?;
    assert_eq!(counts, expected);
    assert_eq!(
        counts
            .iter()
            .map(|c| (c.tool_name.as_str(), c.total()))
            .collect::<Vec<_>>(),
        [("git", 1), ("shell", 3)]
    );
    assert_eq!(
        (counts[1].critical, counts[1].normal, counts[1].revoked),
        (1, 1, 1)
    );
    assert_eq!(counts[0].proposed, 1);
    Ok(())
}
