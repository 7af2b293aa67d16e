//! Enforcement through the facade: verdicts from stored rules, mid-session rules applying at
//! once, revoked rules never matching, constraints derived or given, and the audit trail.

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Decision, HistoryAction, Origin, RawJson, RulePut,
    ToolCallRecord, ToolMemoryPriority, TurnRecord,
};
use anyhow::{Context, Result};
use serde_json::json;

fn client() -> ActiveMemoryClient {
    ActiveMemoryClient::in_memory().with_config(ClientConfig::default())
}

fn turn(message: &str, tool: &str) -> TurnRecord {
    let mut turn = TurnRecord::new(message);
    turn.tool_calls = vec![ToolCallRecord::new(tool, true, "ok")];
    turn
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn never_email_sarah_is_enforced_on_the_call() -> Result<()> {
    let client = client();
    let report = client
        .after_turn(&turn(
            "Never email Sarah at sarah@example.com.",
            "send_email",
        ))
        .await?;
    let rule = report.created.first().context("captured")?.clone();
    assert!(
        rule.meta.constraint.is_some(),
        "a constraint is derived when the rule is written"
    );

    let denied = client
        .check(
            "send_email",
            &json!({"to": ["Sarah@Example.com"], "subject": "lunch?"}),
        )
        .await?;
    assert_eq!(denied.decision, Decision::Deny, "{denied:?}");
    assert_eq!(
        denied.rules.first().map(|rule| rule.id.as_str()),
        Some(rule.id.as_str())
    );
    assert!(!denied.reason.is_empty());

    for allowed in [
        json!({"to": "bob@example.com", "subject": "lunch?"}),
        json!({"to": "sarah.connor@example.com"}),
    ] {
        let verdict = client.check("send_email", &allowed).await?;
        assert_eq!(
            verdict.decision,
            Decision::Allow,
            "{allowed} -> {verdict:?}"
        );
    }
    // Other tools are not this rule's business.
    let other = client
        .check("bash", &json!({"command": "echo sarah@example.com"}))
        .await?;
    assert_eq!(other.decision, Decision::Allow);

    // Every deny is audited with a call summary, never the call's content.
    let history = client
        .history("send_email", Some(&rule.id), 10, None)
        .await?;
    let audit = history
        .iter()
        .find(|entry| entry.action == HistoryAction::Deny)
        .context("audit line")?;
    assert_eq!(audit.origin, Origin::Guard);
    let detail = audit.detail.as_deref().unwrap_or_default();
    assert!(
        detail.starts_with("send_email(subject, to)")
            || detail.starts_with("send_email(to, subject)"),
        "{detail}"
    );
    assert!(!detail.contains("lunch"), "{detail}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_captured_mid_session_applies_to_the_next_check() -> Result<()> {
    let client = client();
    let frozen = client.session_prompt(&["bash".to_owned()]).await?;
    let command = json!({"command": "rm -rf /tmp/build"});
    assert_eq!(
        client.check("bash", &command).await?.decision,
        Decision::Allow
    );
    client
        .after_turn(&turn("Never run rm -rf in the terminal.", "bash"))
        .await?;
    assert_eq!(
        client.check("bash", &command).await?.decision,
        Decision::Deny
    );
    assert_eq!(
        client
            .check("bash", &json!({"command": "rm -r /tmp/build"}))
            .await?
            .decision,
        Decision::Allow
    );
    // The pinned prompt of the running session is byte-stable; the guard is not frozen.
    assert!(!frozen.rendered().contains("rm -rf"));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revoked_rules_never_match() -> Result<()> {
    let client = client();
    let report = client
        .after_turn(&turn(
            "Never email Sarah at sarah@example.com.",
            "send_email",
        ))
        .await?;
    let call = json!({"to": "sarah@example.com"});
    assert_eq!(
        client.check("send_email", &call).await?.decision,
        Decision::Deny
    );
    client
        .after_turn(&turn("You can email Sarah again.", "send_email"))
        .await?;
    assert_eq!(
        client.check("send_email", &call).await?.decision,
        Decision::Allow
    );
    let id = &report.created[0].id;
    client.restore("send_email", id, &Origin::Cli).await?;
    assert_eq!(
        client.check("send_email", &call).await?.decision,
        Decision::Deny
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standing_orders_become_requirements() -> Result<()> {
    let client = client();
    client
        .put(
            RulePut::new("bash", "Always pass --dry-run to terraform.")
                .with_priority(ToolMemoryPriority::Critical),
        )
        .await?;
    // A call without the flag is incomplete rather than wrong: it asks (issue 21, class 7).
    let without = client
        .check("bash", &json!({"command": "terraform apply -auto-approve"}))
        .await?;
    assert_eq!(without.decision, Decision::Confirm, "{without:?}");
    let with = client
        .check("bash", &json!({"command": "terraform plan --dry-run"}))
        .await?;
    assert_eq!(with.decision, Decision::Allow, "{with:?}");
    let unrelated = client.check("bash", &json!({"command": "ls -la"})).await?;
    assert_eq!(unrelated.decision, Decision::Allow);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explicit_constraints_are_validated_and_survive_edits() -> Result<()> {
    let client = client();
    let mut put = RulePut::new("payments", "Ask before paying the landlord.")
        .with_priority(ToolMemoryPriority::Critical)
        .with_id("landlord");
    put.constraint = Some(RawJson::from_value(
        &json!({"polarity": "forbid", "matchers": [{"kind": "literal", "value": "ACME Properties"}]}),
    ));
    let stored = client.put(put).await?;
    assert!(stored.meta.constraint_explicit);
    let denied = client
        .check(
            "payments",
            &json!({"payee": "acme properties", "amount": 1200}),
        )
        .await?;
    assert_eq!(denied.decision, Decision::Deny, "{denied:?}");
    // A later edit of the text keeps the constraint the caller gave.
    let edited = client
        .put(
            RulePut::new("payments", "Ask before paying the landlord, always.").with_id("landlord"),
        )
        .await?;
    assert_eq!(edited.meta.constraint, stored.meta.constraint);

    let mut bad = RulePut::new("payments", "x");
    bad.constraint = Some(RawJson::from_value(
        &json!({"polarity": "forbid", "matchers": []}),
    ));
    let err = client.put(bad).await.unwrap_err();
    assert_eq!(err.invalid_field(), Some("constraint"), "{err}");

    // A reason about the value, not about a position in a text the caller never sent.
    let mut wrong = RulePut::new("payments", "x");
    wrong.constraint = Some(RawJson::from_value(&json!({
        "polarity": "sometimes",
        "matchers": [{"kind": "literal", "value": "ACME"}],
    })));
    let err = client.put(wrong).await.unwrap_err();
    assert_eq!(err.invalid_field(), Some("constraint"), "{err}");
    assert!(err.to_string().contains("sometimes"), "{err}");
    assert!(!err.to_string().contains("column"), "{err}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unconfirmed_edicts_only_advise() -> Result<()> {
    let config = ClientConfig {
        confirm_captured_edicts: true,
        ..ClientConfig::default()
    };
    let client = ActiveMemoryClient::in_memory().with_config(config);
    let report = client
        .after_turn(&turn(
            "Never email Sarah at sarah@example.com.",
            "send_email",
        ))
        .await?;
    let call = json!({"to": "sarah@example.com"});
    let verdict = client.check("send_email", &call).await?;
    assert_ne!(verdict.decision, Decision::Deny, "{verdict:?}");
    client
        .confirm("send_email", &report.created[0].id, &Origin::Cli)
        .await?;
    assert_eq!(
        client.check("send_email", &call).await?.decision,
        Decision::Deny
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_that_expires_stops_matching_without_any_write() -> Result<()> {
    use std::sync::Arc;
    use tool_memory_core::{ManualClock, SequentialIds, Timestamp};
    use tool_memory_store::{InMemoryRuleStore, Services};
    let clock = Arc::new(ManualClock::starting_at(Timestamp::parse(
        "2026-05-01T00:00:00Z",
    )?));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("id")),
    };
    let client = ActiveMemoryClient::from_parts(
        Arc::new(InMemoryRuleStore::with_services(services)),
        clock.clone(),
    )
    .with_config(ClientConfig::default());
    let mut put = RulePut::new("bash", "Never run sudo until the migration is done.")
        .with_priority(ToolMemoryPriority::Critical);
    put.expires_at = Some(Timestamp::parse("2026-05-01T00:01:00Z")?);
    client.put(put).await?;
    let call = json!({"command": "sudo systemctl restart db"});
    assert_eq!(client.check("bash", &call).await?.decision, Decision::Deny);
    clock.advance_micros(120_000_000);
    // The store did not change; the cached guard must still notice the expiry.
    assert_eq!(client.check("bash", &call).await?.decision, Decision::Allow);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_too_complex_to_check_asks_and_is_audited() -> Result<()> {
    let client = client();
    client
        .put(RulePut::new("bash", "never run rm -rf /").with_priority(ToolMemoryPriority::Critical))
        .await?;
    // Far more wrappers than the guard unpacks: it cannot see what finally runs.
    let command = format!("{}rm -rf /", "sudo ".repeat(200));
    let verdict = client.check("bash", &json!({ "command": command })).await?;
    assert_eq!(verdict.decision, Decision::Confirm, "{verdict:?}");
    assert!(verdict.rules.is_empty(), "no rule decided it: {verdict:?}");
    let history = client.history("bash", None, 10, None).await?;
    let asked = history
        .iter()
        .find(|entry| entry.action == HistoryAction::AskConfirm)
        .context("the confirm is audited")?;
    assert_eq!(asked.rule_id, "");
    assert_eq!(asked.detail.as_deref(), Some("bash(command)"));
    Ok(())
}

/// A stored constraint is read one way, the guard crate's: a text that is not the documented
/// form is unreadable, and the rule's own words are enforced in its place. Here the text gives
/// `matchers` twice; a lenient reader (the facade's own, before the guard crate owned this)
/// took the last copy and enforced Bob instead of Sarah, while import judged the same rule by
/// its text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_constraint_with_a_repeated_key_is_unreadable_and_the_text_is_enforced()
-> Result<()> {
    let client = client();
    let stored = client
        .put(
            RulePut::new("send_email", "Never email sarah@example.com.")
                .with_priority(ToolMemoryPriority::Critical)
                .with_id("sarah"),
        )
        .await?;
    let mut damaged = stored.clone();
    damaged.meta.constraint = Some(RawJson::from_stored(
        r#"{"matchers":[{"kind":"email","value":"sarah@example.com"}],"matchers":[{"kind":"email","value":"bob@example.com"}],"polarity":"forbid"}"#
            .to_owned(),
    )?);
    client.import_verbatim(vec![damaged], &Origin::Api).await?;

    let to_sarah = client
        .check("send_email", &json!({"to": "sarah@example.com"}))
        .await?;
    assert_eq!(to_sarah.decision, Decision::Deny, "{to_sarah:?}");
    let to_bob = client
        .check("send_email", &json!({"to": "bob@example.com"}))
        .await?;
    assert_eq!(to_bob.decision, Decision::Allow, "{to_bob:?}");
    Ok(())
}
