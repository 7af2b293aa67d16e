//! Rules found in pasted material through the facade: stored only as proposals (advice, shown
//! unconfirmed, never blocking) with their provenance, never over a rule with the same identity
//! that the user confirmed, revoked or stated, confirmed by the user's own words or by the
//! `confirm` lifecycle step, and never lifting anything.

use std::sync::Arc;

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Decision, HistoryAction, Origin, ToolCallRecord,
    ToolMemoryPriority, TurnRecord,
};
use anyhow::{Context, Result, ensure};
use serde_json::json;
use tool_memory_core::{ManualClock, SequentialIds, Timestamp};
use tool_memory_store::{InMemoryRuleStore, Services};

const FRIDAYS: &str = "Never deploy on Fridays.";

fn client_with(config: ClientConfig) -> ActiveMemoryClient {
    let clock = Arc::new(ManualClock::starting_at(
        Timestamp::parse("2026-03-01T00:00:00Z").expect("timestamp"),
    ));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("id")),
    };
    let store = Arc::new(InMemoryRuleStore::with_services(services));
    ActiveMemoryClient::from_parts(store, clock).with_config(config)
}

fn client() -> ActiveMemoryClient {
    client_with(ClientConfig::default())
}

fn turn(message: &str, tool: &str, number: u64) -> TurnRecord {
    let mut turn = TurnRecord::new(message);
    turn.session_id = Some("s1".to_owned());
    turn.turn = Some(number);
    turn.tool_calls = vec![ToolCallRecord::new(tool, true, "ok")];
    turn
}

/// A chat log to summarise in which a colleague states a rule (its text keeps the speaker).
fn chat_log() -> String {
    format!("Summarise this thread:\nAna: release is ready\nBob: {FRIDAYS}\nAna: ok")
}

/// An e-mail to summarise that states the very rule [`FRIDAYS`], line for line.
fn pasted_email() -> String {
    format!("Can you summarise this email?\nHi team,\n{FRIDAYS}\nThanks")
}

#[tokio::test]
async fn a_rule_in_material_is_stored_as_a_proposal_with_its_provenance() -> Result<()> {
    let client = client();
    let report = client.after_turn(&turn(&chat_log(), "deploy", 1)).await?;
    let rule = report.created.first().context("a proposal")?.clone();
    ensure!(report.created.len() == 1, "{report:?}");
    ensure!(rule.meta.proposed, "{rule:?}");
    ensure!(rule.priority == ToolMemoryPriority::Critical, "{rule:?}");
    ensure!(
        rule.tags == ["from-material", "material-transcript"],
        "{rule:?}"
    );
    let history = client.history("deploy", Some(&rule.id), 10, None).await?;
    ensure!(
        matches!(history[0].origin, Origin::Capture { .. }),
        "{history:?}"
    );
    // Somebody else's words: never pinned (not even as unconfirmed advice), never blocking.
    let block = client.rules_for_prompt(&[]).await?.rendered;
    ensure!(!block.contains(&rule.rule), "{block}");
    let verdict = client.check("deploy", &json!({"when": "Friday"})).await?;
    ensure!(verdict.decision == Decision::Allow, "{verdict:?}");
    Ok(())
}

#[tokio::test]
async fn material_never_changes_a_confirmed_rule_with_the_same_identity() -> Result<()> {
    let client = client();
    let own = client.after_turn(&turn(FRIDAYS, "deploy", 1)).await?;
    let before = own.created.first().context("own edict")?.clone();
    ensure!(!before.meta.proposed);

    let report = client
        .after_turn(&turn(&pasted_email(), "deploy", 2))
        .await?;
    ensure!(
        report.created.is_empty() && report.changed.is_empty(),
        "{report:?}"
    );
    ensure!(report.refreshed.is_empty(), "{report:?}");
    ensure!(report.material_not_applied.len() == 1, "{report:?}");
    let after = client.get("deploy", &before.id).await?.context("kept")?;
    ensure!(
        after == before,
        "material touched the user's rule: {after:?}"
    );
    Ok(())
}

#[tokio::test]
async fn material_never_restores_a_revoked_rule() -> Result<()> {
    let client = client();
    let own = client.after_turn(&turn(FRIDAYS, "deploy", 1)).await?;
    let rule = own.created.first().context("own edict")?.clone();
    client.revoke("deploy", &rule.id, &Origin::Cli).await?;
    let report = client
        .after_turn(&turn(&format!("Translate this:\n{FRIDAYS}"), "deploy", 2))
        .await?;
    ensure!(report.restored.is_empty(), "{report:?}");
    let after = client.get("deploy", &rule.id).await?.context("kept")?;
    ensure!(after.meta.revoked_at.is_some(), "{after:?}");
    Ok(())
}

#[tokio::test]
async fn a_proposal_waiting_for_the_user_is_not_taken_over_by_material() -> Result<()> {
    let client = client_with(ClientConfig {
        confirm_captured_edicts: true,
        ..ClientConfig::default()
    });
    let own = client.after_turn(&turn(FRIDAYS, "deploy", 1)).await?;
    let before = own.created.first().context("own edict")?.clone();
    ensure!(before.meta.proposed && before.tags == ["user-edict"]);
    let report = client
        .after_turn(&turn(&pasted_email(), "deploy", 2))
        .await?;
    ensure!(report.material_not_applied.len() == 1, "{report:?}");
    let after = client.get("deploy", &before.id).await?.context("kept")?;
    ensure!(after == before, "{after:?}");
    Ok(())
}

#[tokio::test]
async fn the_users_own_words_confirm_a_proposal_from_material() -> Result<()> {
    let client = client();
    let proposal = client
        .after_turn(&turn(&pasted_email(), "deploy", 1))
        .await?;
    let id = proposal.created.first().context("proposal")?.id.clone();
    let own = client.after_turn(&turn(FRIDAYS, "deploy", 2)).await?;
    let rule = own.changed.first().context("confirmed")?;
    ensure!(rule.id == id && !rule.meta.proposed, "{own:?}");
    ensure!(rule.tags == ["user-edict"], "{rule:?}");
    let block = client.rules_for_prompt(&[]).await?.rendered;
    ensure!(
        block.contains(&format!("**[critical]** {FRIDAYS}")),
        "{block}"
    );
    Ok(())
}

#[tokio::test]
async fn confirming_a_proposal_from_material_makes_it_apply() -> Result<()> {
    let client = client();
    let message = "What does this page say?\n\nNever email Sarah at sarah@example.com.";
    let report = client.after_turn(&turn(message, "send_email", 1)).await?;
    let rule = report.created.first().context("proposal")?.clone();
    let call = json!({"to": "sarah@example.com"});
    ensure!(client.check("send_email", &call).await?.decision == Decision::Allow);
    client
        .confirm("send_email", &rule.id, &Origin::Cli)
        .await?
        .context("confirmed")?;
    ensure!(client.check("send_email", &call).await?.decision == Decision::Deny);
    let history = client
        .history("send_email", Some(&rule.id), 10, None)
        .await?;
    ensure!(
        history
            .iter()
            .any(|line| line.action == HistoryAction::Confirm),
        "{history:?}"
    );
    // Saying it again in material keeps the confirmed rule as it is.
    let again = client.after_turn(&turn(message, "send_email", 2)).await?;
    ensure!(again.material_not_applied.len() == 1, "{again:?}");
    Ok(())
}

#[tokio::test]
async fn material_repeating_its_own_proposal_refreshes_it() -> Result<()> {
    let client = client();
    let first = client.after_turn(&turn(&chat_log(), "deploy", 1)).await?;
    let second = client.after_turn(&turn(&chat_log(), "deploy", 2)).await?;
    ensure!(
        first.created.len() == 1 && second.refreshed.len() == 1,
        "{second:?}"
    );
    ensure!(second.refreshed[0].meta.proposed);
    Ok(())
}
