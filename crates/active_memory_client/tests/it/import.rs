//! `import_lines`: the shapes openhuman exports (host-spelled tool names, `Z` timestamps,
//! letter ids, fields left to defaults, unknown keys, memory entries with the statistics
//! namespace mixed in), and the per-line report: what each line did, normalised or refused.

use active_memory_client::{
    ActiveMemoryClient, ImportOptions, ImportOutcome, ImportReport, Origin, ToolMemoryPriority,
};
use anyhow::Result;
use serde_json::json;

async fn import(client: &ActiveMemoryClient, lines: &[serde_json::Value]) -> Result<ImportReport> {
    let text: String = lines.iter().map(|line| format!("{line}\n\n")).collect();
    Ok(client
        .import_lines(&text, ImportOptions::default(), &Origin::Cli)
        .await?)
}

fn outcomes(report: &ImportReport) -> Vec<ImportOutcome> {
    report.lines.iter().map(|line| line.outcome).collect()
}

/// A rule as openhuman writes it: the reference's eight fields, its spelling of the tool, a
/// letter id and `Z` timestamps.
fn reference_rule(tool: &str, id: &str, rule: &str) -> serde_json::Value {
    json!({
        "id": id, "tool_name": tool, "rule": rule, "priority": "critical",
        "source": "user_explicit", "tags": ["safety"],
        "created_at": "2026-05-11T09:30:00Z", "updated_at": "2026-05-11T09:30:00.250Z",
    })
}

#[tokio::test]
async fn openhuman_records_import_with_every_normalisation_said() -> Result<()> {
    let client = ActiveMemoryClient::in_memory();
    let minimal = json!({
        "id": "rminimal", "tool_name": "Shell", "rule": "quote every path",
        "created_at": "2026-05-11T09:30:00Z", "updated_at": "2026-05-11T09:30:00Z",
        "session_hint": "s1", "category": "tool",
    });
    let report = import(
        &client,
        &[
            reference_rule("Email", "rqkzjwvbnm", "Never email Sarah."),
            minimal,
        ],
    )
    .await?;
    assert!(report.is_clean() && report.written, "{report:?}");
    assert_eq!(
        outcomes(&report),
        [ImportOutcome::Created, ImportOutcome::Created]
    );
    assert_eq!(report.lines[0].line, 1);
    assert_eq!(report.lines[1].line, 3, "blank lines keep the numbering");
    let notes = &report.lines[0].changes;
    assert!(
        notes
            .iter()
            .any(|note| note == "tool_name `Email` normalised to `email`"),
        "{notes:?}"
    );
    assert!(notes.iter().any(|note| note.contains("UTC")), "{notes:?}");
    let notes = &report.lines[1].changes;
    assert!(
        notes
            .iter()
            .any(|note| note == "ignored unknown keys: category, session_hint"),
        "{notes:?}"
    );

    let rule = client.get("email", "rqkzjwvbnm").await?.expect("imported");
    assert_eq!(rule.priority, ToolMemoryPriority::Critical);
    assert_eq!(rule.updated_at.to_string(), "2026-05-11T09:30:00.250+00:00");
    let minimal = client.get("shell", "rminimal").await?.expect("imported");
    assert_eq!(
        minimal.priority,
        ToolMemoryPriority::Normal,
        "the reference's defaults"
    );
    assert!(minimal.tags.is_empty());
    Ok(())
}

#[tokio::test]
async fn memory_entries_import_and_statistics_are_skipped_and_said() -> Result<()> {
    let client = ActiveMemoryClient::in_memory();
    let rule = reference_rule("Email", "rabc", "Never email Sarah.");
    let lines = [
        json!({"namespace": "tool-email", "key": "rule/rabc", "content": rule.to_string()}),
        json!({"namespace": "tool-shell", "key": "rule/rdef",
               "content": {"id": "rdef", "rule": "no sudo", "priority": "high",
                           "created_at": "2026-05-11T09:30:00Z", "updated_at": "2026-05-11T09:30:00Z"}}),
        json!({"namespace": "tool_effectiveness/tool/email", "key": "stats",
               "content": "{\"calls\":3}"}),
        json!({"tool_name": "email", "calls": 3, "successes": 2, "failures": 1,
               "last_failure_class": null, "last_seen": null}),
        json!({"namespace": "global", "key": "note/1", "content": "hello"}),
    ];
    let report = import(&client, &lines).await?;
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(
        outcomes(&report),
        [
            ImportOutcome::Created,
            ImportOutcome::Created,
            ImportOutcome::Skipped,
            ImportOutcome::Skipped,
            ImportOutcome::Skipped
        ]
    );
    assert!(
        report.lines[2]
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("statistics")
    );
    assert!(
        report.lines[3]
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("statistics")
    );
    assert_eq!(report.lines[2].tool_name.as_deref(), Some("email"));
    // The entry's namespace gives a record without `tool_name` its tool.
    assert_eq!(
        client.get("shell", "rdef").await?.expect("imported").rule,
        "no sudo"
    );
    assert!(client.get("email", "rabc").await?.is_some());
    Ok(())
}

#[tokio::test]
async fn a_line_that_is_not_a_rule_names_its_field_and_nothing_is_written() -> Result<()> {
    let client = ActiveMemoryClient::in_memory();
    let good = reference_rule("email", "rgood", "Never email Sarah.");
    let cases = [
        (
            json!({"id": "x", "tool_name": "email", "rule": "r", "priority": "low",
                "created_at": "2026-05-11T09:30:00Z", "updated_at": "2026-05-11T09:30:00Z"}),
            "unknown variant `low`",
        ),
        (
            json!({"id": "x", "tool_name": "email", "rule": "r"}),
            "created_at",
        ),
        (
            json!({"id": "x", "tool_name": " ", "rule": "r",
                "created_at": "2026-05-11T09:30:00Z", "updated_at": "2026-05-11T09:30:00Z"}),
            "tool_name",
        ),
        (
            json!({"namespace": "tool-shell", "key": "rule/x",
                "content": {"id": "x", "tool_name": "email", "rule": "r",
                            "created_at": "2026-05-11T09:30:00Z", "updated_at": "2026-05-11T09:30:00Z"}}),
            "does not match its namespace",
        ),
        (json!(["not", "an", "object"]), "not a JSON object"),
    ];
    for (bad, expected) in cases {
        let report = import(&client, &[good.clone(), bad.clone()]).await?;
        assert!(!report.written, "{bad}: {report:?}");
        assert_eq!(report.invalid, 1, "{bad}");
        let reason = report.lines[1].reason.clone().unwrap_or_default();
        assert!(reason.contains(expected), "{bad}: {reason}");
        assert!(
            client.get("email", "rgood").await?.is_none(),
            "{bad}: a line was written"
        );
    }
    let report = client
        .import_lines("{not json\n", ImportOptions::default(), &Origin::Cli)
        .await?;
    assert!(
        report.lines[0]
            .reason
            .as_deref()
            .unwrap_or_default()
            .starts_with("not JSON")
    );
    Ok(())
}

#[tokio::test]
async fn a_dry_run_reports_and_writes_nothing() -> Result<()> {
    let client = ActiveMemoryClient::in_memory();
    let options = ImportOptions {
        dry_run: true,
        ..ImportOptions::default()
    };
    let line = reference_rule("email", "rabc", "Never email Sarah.");
    let report = client
        .import_lines(&format!("{line}\n"), options, &Origin::Cli)
        .await?;
    assert_eq!(outcomes(&report), [ImportOutcome::Created]);
    assert!(!report.written);
    assert!(client.get("email", "rabc").await?.is_none());
    Ok(())
}
