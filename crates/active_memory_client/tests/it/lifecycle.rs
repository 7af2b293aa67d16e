//! The rule lifecycle through the facade: revocation by a later edict, restore by restating it,
//! confirmation of captured edicts, expiry and retirement of observations, and the history.

use std::sync::Arc;
use std::time::Duration;

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, HistoryAction, Origin, ToolCallRecord, TurnRecord,
};
use anyhow::{Context, Result};
use tool_memory_core::{ManualClock, SequentialIds, Timestamp};
use tool_memory_store::{InMemoryRuleStore, Services};

const SARAH: &str = "Never email Sarah at sarah@example.com.";

fn client_with(config: ClientConfig) -> (ActiveMemoryClient, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(
        Timestamp::parse("2026-03-01T00:00:00Z").expect("timestamp"),
    ));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("id")),
    };
    let store = Arc::new(InMemoryRuleStore::with_services(services));
    (
        ActiveMemoryClient::from_parts(store, clock.clone()).with_config(config),
        clock,
    )
}

fn turn(message: &str, tools: &[(&str, bool)], session: &str, number: u64) -> TurnRecord {
    let mut turn = TurnRecord::new(message);
    turn.session_id = Some(session.to_owned());
    turn.turn = Some(number);
    turn.tool_calls = tools
        .iter()
        .map(|(name, ok)| {
            ToolCallRecord::new(*name, *ok, if *ok { "ok" } else { "failed (timeout)" })
        })
        .collect();
    turn
}

async fn pinned(client: &ActiveMemoryClient) -> Result<String> {
    Ok(client.rules_for_prompt(&[]).await?.rendered)
}

#[tokio::test]
async fn a_later_edict_revokes_and_restating_restores() -> Result<()> {
    let (client, _) = client_with(ClientConfig::default());
    let first = client
        .after_turn(&turn(SARAH, &[("send_email", true)], "s1", 1))
        .await?;
    let rule = first.created.first().context("captured")?.clone();
    assert!(pinned(&client).await?.contains(SARAH));

    let lifted = client
        .after_turn(&turn(
            "You can email Sarah again.",
            &[("send_email", true)],
            "s2",
            4,
        ))
        .await?;
    assert_eq!(lifted.revoked.len(), 1, "{lifted:?}");
    assert_eq!(lifted.revoked[0].id, rule.id);
    assert!(
        lifted.created.is_empty(),
        "a revocation is not also an edict"
    );
    assert!(!pinned(&client).await?.contains("Sarah"));
    assert!(client.list("send_email").await?.is_empty());
    assert_eq!(client.list_including_revoked("send_email").await?.len(), 1);

    let again = client
        .after_turn(&turn(SARAH, &[("send_email", true)], "s3", 2))
        .await?;
    assert_eq!(again.restored.len(), 1, "{again:?}");
    assert!(pinned(&client).await?.contains(SARAH));

    let history = client
        .history("send_email", Some(&rule.id), 10, None)
        .await?;
    let actions: Vec<HistoryAction> = history.iter().map(|entry| entry.action).collect();
    assert_eq!(
        actions,
        [
            HistoryAction::Update,
            HistoryAction::Restore,
            HistoryAction::Revoke,
            HistoryAction::Create
        ]
    );
    assert_eq!(
        history[2].origin,
        Origin::UserEdict {
            session_id: Some("s2".into()),
            turn: Some(4)
        }
    );
    assert_eq!(
        history[3].origin,
        Origin::UserEdict {
            session_id: Some("s1".into()),
            turn: Some(1)
        }
    );
    Ok(())
}

#[tokio::test]
async fn a_near_miss_revokes_nothing_and_an_unmatched_revocation_is_reported() -> Result<()> {
    let (client, _) = client_with(ClientConfig::default());
    client
        .after_turn(&turn(SARAH, &[("send_email", true)], "s1", 1))
        .await?;
    let near = client
        .after_turn(&turn(
            "You can email Sarah's manager again.",
            &[("send_email", true)],
            "s1",
            2,
        ))
        .await?;
    assert!(near.revoked.is_empty(), "{near:?}");
    assert!(pinned(&client).await?.contains(SARAH));

    let unmatched = client
        .after_turn(&turn(
            "It's fine to use sudo now.",
            &[("bash", true)],
            "s1",
            3,
        ))
        .await?;
    assert!(unmatched.revoked.is_empty());
    assert_eq!(unmatched.unmatched_revocations.len(), 1, "{unmatched:?}");
    Ok(())
}

#[tokio::test]
async fn pasted_text_never_becomes_an_edict() -> Result<()> {
    let (client, _) = client_with(ClientConfig::default());
    let message = "Can you summarise this e-mail?\n\n> Do not reply to this message.\n> Never share this link.";
    let report = client
        .after_turn(&turn(message, &[("send_email", true)], "s1", 1))
        .await?;
    assert!(report.created.is_empty(), "{report:?}");
    Ok(())
}

#[tokio::test]
async fn captured_edicts_can_wait_for_confirmation() -> Result<()> {
    let config = ClientConfig {
        confirm_captured_edicts: true,
        ..ClientConfig::default()
    };
    let (client, _) = client_with(config);
    let report = client
        .after_turn(&turn(SARAH, &[("send_email", true)], "s1", 1))
        .await?;
    let rule = report.created.first().context("captured")?.clone();
    assert!(rule.meta.proposed);
    let block = pinned(&client).await?;
    assert!(
        block.contains(&format!("- **[unconfirmed]** {SARAH}")),
        "{block}"
    );
    assert!(!block.contains("**[critical]**"));
    client
        .confirm("send_email", &rule.id, &Origin::Cli)
        .await?
        .context("rule")?;
    assert!(
        pinned(&client)
            .await?
            .contains(&format!("- **[critical]** {SARAH}"))
    );
    // Saying it again keeps it confirmed.
    client
        .after_turn(&turn(SARAH, &[("send_email", true)], "s1", 2))
        .await?;
    assert!(
        pinned(&client)
            .await?
            .contains(&format!("- **[critical]** {SARAH}"))
    );
    Ok(())
}

#[tokio::test]
async fn observations_retire_after_later_successes() -> Result<()> {
    let config = ClientConfig {
        observation_retire_after_successes: 3,
        ..ClientConfig::default()
    };
    let (client, _) = client_with(config);
    let failing = client
        .after_turn(&turn(
            "Try again",
            &[("bash", false), ("bash", false), ("bash", true)],
            "s1",
            1,
        ))
        .await?;
    let observation = failing.created.first().context("observation")?.clone();
    assert_eq!(observation.meta.retire_after_successes, Some(1 + 3));
    assert!(observation.meta.expires_at.is_some());
    let two = client
        .after_turn(&turn("ok", &[("bash", true), ("bash", true)], "s1", 2))
        .await?;
    assert!(two.expired.is_empty());
    let one_more = client
        .after_turn(&turn("ok", &[("bash", true)], "s1", 3))
        .await?;
    assert_eq!(one_more.expired.len(), 1, "{one_more:?}");
    assert!(client.list("bash").await?.is_empty());
    let history = client
        .history("bash", Some(&observation.id), 10, None)
        .await?;
    assert_eq!(history[0].action, HistoryAction::Expire);
    assert_eq!(history[0].origin, Origin::Expiry);
    Ok(())
}

#[tokio::test]
async fn observations_expire_with_time_but_user_rules_never_do() -> Result<()> {
    let config = ClientConfig {
        observation_ttl: Duration::from_secs(60),
        ..ClientConfig::default()
    };
    let (client, clock) = client_with(config);
    client
        .after_turn(&turn(
            SARAH,
            &[("send_email", true), ("bash", false), ("bash", false)],
            "s1",
            1,
        ))
        .await?;
    assert_eq!(client.list("bash").await?.len(), 1);
    clock.advance_micros(61_000_000);
    let retired = client.sweep_expired().await?;
    assert_eq!(retired.len(), 1);
    assert!(client.list("bash").await?.is_empty());
    assert!(
        pinned(&client).await?.contains(SARAH),
        "user edicts never expire"
    );
    Ok(())
}

/// A retried turn (same session, index and content) changes nothing and says so; its report
/// carries `already_applied` in the JSON, which a first application leaves out.
#[tokio::test]
async fn a_replayed_turn_is_applied_once() -> Result<()> {
    let (client, clock) = client_with(ClientConfig::default());
    let record = turn(SARAH, &[("send_email", true)], "s1", 7);
    let first = client.after_turn(&record).await?;
    assert!(!first.already_applied);
    assert_eq!(first.created.len(), 1);
    assert!(
        serde_json::to_value(&first)?
            .get("already_applied")
            .is_none()
    );
    let rule = first.created[0].clone();
    clock.advance_micros(1_000);
    let again = client.after_turn(&record).await?;
    assert!(again.already_applied);
    assert!(again.created.is_empty() && again.refreshed.is_empty() && again.stats.is_empty());
    assert_eq!(serde_json::to_value(&again)?["already_applied"], true);
    let stats = client.tool_stats("send_email").await?.context("stats")?;
    assert_eq!(stats.calls, 1, "a retried turn counts its calls once");
    let history = client
        .history(&rule.tool_name, Some(&rule.id), 10, None)
        .await?;
    assert_eq!(history.len(), 1);
    assert_eq!(client.get(&rule.tool_name, &rule.id).await?, Some(rule));

    // Another event under the same index (another tool's outcome) is not a repeat.
    let other = turn("", &[("send_email", false)], "s1", 7);
    assert!(!client.after_turn(&other).await?.already_applied);
    let stats = client.tool_stats("send_email").await?.context("stats")?;
    assert_eq!((stats.calls, stats.failures), (2, 1));
    Ok(())
}

/// Without a session id or a turn index a turn cannot be recognised: it is applied each time.
#[tokio::test]
async fn a_turn_without_session_or_index_is_applied_each_time() -> Result<()> {
    let (client, _) = client_with(ClientConfig::default());
    let mut no_session = turn("", &[("shell", true)], "s1", 1);
    no_session.session_id = None;
    let mut no_index = turn("", &[("shell", true)], "s1", 1);
    no_index.turn = None;
    for record in [&no_session, &no_session, &no_index, &no_index] {
        assert!(!client.after_turn(record).await?.already_applied);
    }
    let stats = client.tool_stats("shell").await?.context("stats")?;
    assert_eq!(stats.calls, 4);
    Ok(())
}
