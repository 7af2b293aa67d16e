//! The public entry points and the JSON shapes the facade and the CLI rely on.

use anyhow::Result;
use serde_json::json;
use tool_memory_capture::{
    CAPTURE_ENABLED_ENV, CaptureOutput, FailureClass, ProposedRevocation, RevocationKind,
    TurnRecord, capture_turn, parse_capture_switch, revocation_matches,
};
use tool_memory_core::Timestamp;

fn now() -> Result<Timestamp> {
    Ok(Timestamp::parse("2026-07-23T17:04:54+00:00")?)
}

#[test]
fn headline_turn_produces_the_pinned_rule_and_stable_json() -> Result<()> {
    let turn: TurnRecord = serde_json::from_value(json!({
        "user_message": "Never email Sarah at sarah@example.com.",
        "tool_calls": [
            {"name": "send_email", "arguments": {"to": "bob@example.com"}, "success": true,
             "output_summary": "send_email: ok (12 chars)", "duration_ms": 10},
            {"name": "Shell", "success": false, "output_summary": "permission denied"},
            {"name": "shell", "success": false, "output_summary": "shell: failed (permission_denied)"}
        ],
        "host_extra": true
    }))?;
    let output = capture_turn(&turn, now()?);
    let value = serde_json::to_value(&output)?;
    assert_eq!(
        value,
        json!({
            "rules": [
                {
                    "tool_name": "send_email",
                    "rule": "Never email Sarah at sarah@example.com.",
                    "priority": "critical",
                    "source": "user_explicit",
                    "tags": ["user-edict"],
                    "identity_key": "edict-24f697834e217ef9"
                },
                {
                    "tool_name": "shell",
                    "rule": "Tool failed 2 times in one turn (shell: failed (permission_denied)). Consider an alternative approach before retrying.",
                    "priority": "normal",
                    "source": "post_turn",
                    "tags": ["repeated-failure"],
                    "identity_key": "failure-33eef2bf56531253"
                }
            ],
            "stats": [
                {"tool_name": "send_email", "calls": 1, "successes": 1, "failures": 0,
                 "last_failure_class": null, "last_seen": "2026-07-23T17:04:54+00:00"},
                {"tool_name": "shell", "calls": 2, "successes": 0, "failures": 2,
                 "last_failure_class": "permission_denied", "last_seen": "2026-07-23T17:04:54+00:00"}
            ]
        })
    );
    let back: CaptureOutput = serde_json::from_value(value)?;
    assert_eq!(back, output);
    Ok(())
}

#[test]
fn repeating_an_edict_in_another_turn_refreshes_the_same_rule() -> Result<()> {
    let first = capture_turn(&TurnRecord::new("Never email Sarah."), now()?);
    let second = capture_turn(&TurnRecord::new("ok.  NEVER  email sarah!"), now()?);
    assert_eq!(first.rules.len(), 1);
    assert_eq!(second.rules.len(), 1);
    assert_eq!(first.rules[0].identity_key, second.rules[0].identity_key);
    assert_ne!(first.rules[0].rule, second.rules[0].rule);
    Ok(())
}

#[test]
fn an_empty_turn_proposes_nothing() -> Result<()> {
    let output = capture_turn(&TurnRecord::new(""), now()?);
    assert!(output.is_empty());
    assert_eq!(
        serde_json::to_string(&output)?,
        r#"{"rules":[],"stats":[]}"#
    );
    Ok(())
}

#[test]
fn a_revocation_is_proposed_with_a_stable_shape_and_matches_the_rule() -> Result<()> {
    let turn: TurnRecord = serde_json::from_value(json!({
        "user_message": "Thanks. You can email Sarah again, she's back.",
        "tool_calls": [{"name": "send_email", "success": true}]
    }))?;
    let output = capture_turn(&turn, now()?);
    assert!(output.rules.is_empty() && !output.is_empty());
    let value = serde_json::to_value(&output)?;
    assert_eq!(
        value["revocations"],
        json!([{
            "tool_name": "send_email",
            "tool_explicit": true,
            "kind": "permission",
            "subject": ["sarah"],
            "text": "You can email Sarah again, she's back."
        }])
    );
    let back: CaptureOutput = serde_json::from_value(value)?;
    assert_eq!(back, output);

    let rule = |text: &str| -> Result<tool_memory_core::ToolMemoryRule> {
        Ok(tool_memory_core::ToolMemoryRule {
            id: "r".to_owned(),
            tool_name: "send_email".to_owned(),
            rule: text.to_owned(),
            priority: tool_memory_core::ToolMemoryPriority::Critical,
            source: tool_memory_core::ToolMemorySource::UserExplicit,
            tags: vec!["user-edict".to_owned()],
            created_at: now()?,
            updated_at: now()?,
            meta: Default::default(),
        })
    };
    let revocation: &ProposedRevocation = &output.revocations[0];
    assert_eq!(revocation.kind, RevocationKind::Permission);
    assert!(revocation_matches(
        revocation,
        &rule("Never email Sarah at sarah@example.com.")?
    ));
    assert!(!revocation_matches(revocation, &rule("Never email Bob.")?));
    Ok(())
}

#[test]
fn old_output_json_without_revocations_still_reads() -> Result<()> {
    let old: CaptureOutput = serde_json::from_str(r#"{"rules":[],"stats":[]}"#)?;
    assert!(old.revocations.is_empty() && old.is_empty());
    Ok(())
}

#[test]
fn switch_and_class_spellings() {
    assert_eq!(
        CAPTURE_ENABLED_ENV,
        "OPENHUMAN_LEARNING_TOOL_MEMORY_CAPTURE_ENABLED"
    );
    assert_eq!(parse_capture_switch(" Off "), Some(false));
    assert_eq!(parse_capture_switch("maybe"), None);
    let spellings: Vec<String> = FailureClass::ALL
        .iter()
        .map(|class| serde_json::to_value(class).map(|value| value.to_string()))
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    assert_eq!(
        spellings,
        [
            "\"timeout\"",
            "\"not_found\"",
            "\"permission_denied\"",
            "\"rate_limited\"",
            "\"connection_error\"",
            "\"parse_error\"",
            "\"unknown_tool\"",
            "\"error\""
        ]
    );
}
