//! The conformance suite every `RuleStore` implementation must pass: the same test
//! functions, each given a fresh store through a [`Harness`]. Backends in other crates
//! run it with [`conformance_suite!`](crate::conformance_suite).

use std::sync::Arc;

use tool_memory_core::{
    HistoryAction, HistoryEvent, ManualClock, Origin, RulePut, Timestamp, ToolMemoryPriority,
    ToolMemoryRule, ToolMemorySource, ToolStats, UNSCOPED_TOOL,
};

use crate::RuleStore;

use ToolMemoryPriority::{Critical, High, Normal};

/// What every conformance test returns.
pub type Result<T> = anyhow::Result<T>;

/// Writes an unreadable row for (tool, id). Its rule text, if it has one, is
/// [`CORRUPT_RULE_TEXT`], and a stored priority, if it has one, [`CORRUPT_PRIORITY`]: neither
/// may appear in a reason.
pub type Corrupt = dyn Fn(&str, &str) + Send + Sync;

/// The text a [`Corrupt`] hook gives the rows it writes, where the row holds text.
pub const CORRUPT_RULE_TEXT: &str = "from the future";

/// The priority a [`Corrupt`] hook gives the rows it writes, where the row holds one: a value
/// no toolmem wrote so far.
pub const CORRUPT_PRIORITY: &str = "urgent";

/// A fresh store plus the hooks the suite needs beyond the trait.
pub struct Harness {
    pub store: Arc<dyn RuleStore>,
    /// The clock the store was built with; tests move it forward.
    pub clock: Arc<ManualClock>,
    /// Writes a row this version cannot read; `None` when the backend cannot hold one.
    pub corrupt: Option<Box<Corrupt>>,
    /// Whatever must live as long as the store (a temporary directory, a schema guard).
    pub keep_alive: Option<Box<dyn std::any::Any + Send + Sync>>,
}

impl std::fmt::Debug for Harness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

/// Runs every conformance test against the stores an async function `$harness()` makes.
///
/// With `optional`, `$harness()` returns `Option<Harness>` and each test passes without
/// running when it is `None`: for backends that need a server the machine may not have (the
/// harness says why it skipped, or panics where skipping is not allowed).
///
/// The calling crate needs `tokio` (macros, multi-thread runtime) as a dev-dependency.
#[macro_export]
macro_rules! conformance_suite {
    (optional $harness:path) => {
        $crate::__conformance_list!(optional $harness);
    };
    ($harness:path) => {
        $crate::__conformance_list!(required $harness);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_list {
    ($mode:ident $harness:path) => {
        $crate::__conformance_tests!($mode $harness;
            blank_tool_name_is_rejected_naming_the_field,
            blank_body_is_rejected_naming_the_field,
            oversized_fields_are_rejected_and_nothing_is_stored,
            put_then_get_round_trips,
            upsert_keeps_created_at_and_updates_the_body,
            upsert_keeps_fields_the_caller_leaves_unset,
            tool_name_is_normalised_on_every_path,
            unusual_tool_names_work_on_every_path,
            ids_are_kept_verbatim,
            blank_id_gets_one_assigned,
            list_orders_by_priority_then_freshness_then_id,
            list_orders_mixed_offset_timestamps_by_instant,
            delete_removes_only_its_target,
            delete_of_a_missing_rule_is_false,
            list_tool_names_is_sorted_and_skips_the_sentinel,
            prompt_rules_hold_only_eager_rules_of_the_named_tools,
            prompt_with_no_tools_scans_every_tool_and_the_sentinel,
            prompt_filter_duplicates_do_not_duplicate_rules,
            prompt_limit_keeps_every_critical_rule,
            prompt_limit_fills_with_high_rules_and_counts_the_rest,
            prompt_order_is_priority_tool_text_id,
            record_always_inserts,
            restore_writes_timestamps_verbatim,
            concurrent_upserts_of_one_id_lose_nothing,
            unreadable_row_is_skipped_counted_and_kept,
            unreadable_rows_come_with_the_listing_and_follow_every_change,
            unreadable_rows_of_the_no_tool_group_reach_every_prompt,
            search_ranks_by_keywords_within_one_tool,
            search_follows_updates_and_deletes,
            statistics_accumulate_apart_from_rules,
            prompt_sees_every_write_made_after_it_was_read,
            list_sees_every_write_made_after_it_was_read,
            revoked_rules_leave_listings_prompt_and_search_but_stay,
            history_records_every_change_newest_first,
            history_pages_with_limit_and_before,
            expired_rules_leave_the_prompt_and_expiry_is_recorded,
            proposed_rules_are_confirmed_once,
            guard_decisions_are_appended_to_history,
            version_changes_with_every_write_and_only_then,
            tool_counts_agree_with_the_listings,
        );
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_tests {
    (required $harness:path; $($test:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() -> $crate::conformance::Result<()> {
                let harness = $harness().await;
                $crate::conformance::$test(&harness).await
            }
        )*
    };
    (optional $harness:path; $($test:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() -> $crate::conformance::Result<()> {
                let Some(harness) = $harness().await else {
                    return Ok(());
                };
                $crate::conformance::$test(&harness).await
            }
        )*
    };
}

fn ts(text: &str) -> Timestamp {
    Timestamp::parse(text).unwrap()
}

fn put(tool: &str, body: &str, priority: ToolMemoryPriority) -> RulePut {
    RulePut::new(tool, body).with_priority(priority)
}

fn texts(rules: &[ToolMemoryRule]) -> Vec<&str> {
    rules.iter().map(|rule| rule.rule.as_str()).collect()
}

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

pub async fn prompt_rules_hold_only_eager_rules_of_the_named_tools(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    h.store
        .put(put("email", "double-check recipient", High))
        .await?;
    h.store
        .put(put("email", "we use BCC for newsletters", Normal))
        .await?;
    h.store.put(put("shell", "avoid sudo", Critical)).await?;
    let prompt = h
        .store
        .rules_for_prompt(&["email".to_owned()], None)
        .await?;
    assert_eq!(
        texts(&prompt.rules),
        ["never email Sarah", "double-check recipient"]
    );
    assert_eq!(prompt.omitted_high, 0);
    Ok(())
}

pub async fn prompt_with_no_tools_scans_every_tool_and_the_sentinel(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    h.store.put(put("shell", "avoid sudo", High)).await?;
    h.store
        .put(put(UNSCOPED_TOOL, "never do that", Critical))
        .await?;
    let all = h.store.rules_for_prompt(&[], None).await?;
    let mut tools: Vec<&str> = all
        .rules
        .iter()
        .map(|rule| rule.tool_name.as_str())
        .collect();
    tools.sort();
    assert_eq!(tools, [UNSCOPED_TOOL, "email", "shell"]);
    // Rules that belong to no tool apply to every agent, so a filtered query includes them.
    let shell = h
        .store
        .rules_for_prompt(&["shell".to_owned()], None)
        .await?;
    assert_eq!(texts(&shell.rules), ["never do that", "avoid sudo"]);
    Ok(())
}

pub async fn prompt_filter_duplicates_do_not_duplicate_rules(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical))
        .await?;
    let tools = ["email", "email", " Email ", "", "  "].map(str::to_owned);
    let prompt = h.store.rules_for_prompt(&tools, None).await?;
    assert_eq!(prompt.rules.len(), 1);
    Ok(())
}

pub async fn prompt_limit_keeps_every_critical_rule(h: &Harness) -> Result<()> {
    for index in 0..35 {
        h.store
            .put(put("shell", &format!("critical {index:02}"), Critical))
            .await?;
    }
    h.store.put(put("shell", "a high rule", High)).await?;
    let capped = h
        .store
        .rules_for_prompt(&["shell".to_owned()], Some(30))
        .await?;
    assert_eq!(capped.rules.len(), 35);
    assert!(capped.rules.iter().all(|rule| rule.priority == Critical));
    assert_eq!(capped.omitted_high, 1);
    let uncapped = h.store.rules_for_prompt(&[], None).await?;
    assert_eq!(uncapped.rules.len(), 36);
    Ok(())
}

pub async fn prompt_limit_fills_with_high_rules_and_counts_the_rest(h: &Harness) -> Result<()> {
    h.store
        .put(put("shell", "the critical one", Critical))
        .await?;
    for index in 0..35 {
        h.store
            .put(put("shell", &format!("high {index:02}"), High))
            .await?;
    }
    let capped = h.store.rules_for_prompt(&[], Some(30)).await?;
    assert_eq!(capped.rules.len(), 30);
    assert_eq!(capped.rules[0].rule, "the critical one");
    assert_eq!(capped.rules[29].rule, "high 28");
    assert_eq!(capped.omitted_high, 6);
    Ok(())
}

pub async fn prompt_order_is_priority_tool_text_id(h: &Harness) -> Result<()> {
    h.store
        .put(put("shell", "b high", High).with_id("2"))
        .await?;
    h.store.put(put("email", "z critical", Critical)).await?;
    h.store.put(put("shell", "a critical", Critical)).await?;
    h.store.put(put("email", "a high", High)).await?;
    h.store
        .put(put("shell", "b high", High).with_id("1"))
        .await?;
    let prompt = h.store.rules_for_prompt(&[], None).await?;
    let order: Vec<(&str, &str)> = prompt
        .rules
        .iter()
        .map(|rule| (rule.tool_name.as_str(), rule.id.as_str()))
        .collect();
    assert_eq!(
        texts(&prompt.rules),
        ["z critical", "a critical", "a high", "b high", "b high"]
    );
    assert_eq!(&order[3..], [("shell", "1"), ("shell", "2")]);
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

pub async fn prompt_sees_every_write_made_after_it_was_read(h: &Harness) -> Result<()> {
    let read = |store: Arc<dyn RuleStore>| async move {
        let selection = store.rules_for_prompt(&[], None).await?;
        anyhow::Ok(
            texts(&selection.rules)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>(),
        )
    };
    assert!(read(h.store.clone()).await?.is_empty());
    let rule = h
        .store
        .put(put("bash", "never run rm -rf /", Critical).with_id("r"))
        .await?;
    assert_eq!(read(h.store.clone()).await?, ["never run rm -rf /"]);
    h.store
        .put(RulePut::new("bash", "never run rm -rf ~").with_id("r"))
        .await?;
    assert_eq!(read(h.store.clone()).await?, ["never run rm -rf ~"]);
    h.store
        .put(put("bash", "never run rm -rf ~", Normal).with_id("r"))
        .await?;
    assert!(read(h.store.clone()).await?.is_empty());
    h.store
        .put(put("bash", "never run rm -rf ~", High).with_id("r"))
        .await?;
    assert_eq!(read(h.store.clone()).await?.len(), 1);
    h.store.delete("bash", &rule.id, &Origin::Api).await?;
    assert!(read(h.store.clone()).await?.is_empty());
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

fn actions(history: &[tool_memory_core::HistoryEntry]) -> Vec<HistoryAction> {
    history.iter().map(|entry| entry.action).collect()
}

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
