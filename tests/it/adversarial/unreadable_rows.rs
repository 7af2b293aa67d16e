//! Adversarial class: a row this version cannot read makes its tool's checks confirm and shows in the prompt, never fails open.
//!
//! Each case runs the real program on a temporary SQLite file: "Never email Sarah at
//! sarah@example.com" is stored as critical on `send_email`, then its row is damaged the way
//! a newer toolmem (or a broken disk) leaves it, and a server, the CLI and `toolmem doctor` are
//! asked about it. Before the fix the guard allowed the e-mail to Sarah and the prompt dropped
//! the rule without a word. A second finding rides along: a server that meets a schema a newer
//! toolmem migrated while it ran acknowledged writes into it; now it refuses them.

use std::path::Path;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};

use crate::support::{Server, cli};

/// The rule whose row each case damages.
const SARAH: &str = "Never email Sarah at sarah@example.com";

/// How a newer toolmem, or damage, can leave the row: SQL run on it from outside.
const DAMAGES: &[(&str, &str)] = &[
    (
        "an unknown priority",
        "UPDATE rules SET priority = 'urgent' WHERE id = 'r-sarah'",
    ),
    (
        "an unknown enum in another column",
        "UPDATE rules SET source = 'agent_inferred' WHERE id = 'r-sarah'",
    ),
    (
        "a malformed timestamp",
        "UPDATE rules SET updated_at = 'yesterday at noon' WHERE id = 'r-sarah'",
    ),
    (
        "garbage in the constraint JSON",
        "UPDATE rules SET constraint_json = '{\"polarity\": \"forbid\", \"matchers\": [{\"ki' WHERE id = 'r-sarah'",
    ),
    (
        "a truncated row",
        "UPDATE rules SET rule = substr(rule, 1, 9), tags = '[\"us', created_at = '2026-0' WHERE id = 'r-sarah'",
    ),
];

/// A database with Sarah's rule on `send_email` and one rule on `bash`.
fn seeded(db: &Path) -> Result<()> {
    for args in [
        &[
            "rule",
            "add",
            "send_email",
            SARAH,
            "--priority",
            "critical",
            "--id",
            "r-sarah",
        ][..],
        &[
            "rule",
            "add",
            "bash",
            "never run rm -rf /",
            "--priority",
            "critical",
        ][..],
    ] {
        let (code, _, err) = cli(db, args, "")?;
        ensure!(code == 0, "seeding: {err}");
    }
    Ok(())
}

fn damage(db: &Path, sql: &str) -> Result<()> {
    let changed = rusqlite::Connection::open(db)?.execute(sql, [])?;
    ensure!(changed == 1, "the damage must hit the row: {sql}");
    Ok(())
}

async fn check(server: &Server, tool: &str, arguments: Value) -> Result<Value> {
    server
        .result(
            "memory.tool_call_check",
            json!({"tool_name": tool, "arguments": arguments}),
        )
        .await
}

fn to_sarah() -> Value {
    json!({"to": ["sarah@example.com"], "subject": "lunch?"})
}

/// The line the prompt shows in the place of the rule with this id.
fn line_for(id: &str) -> String {
    format!(
        "- _Unreadable rule `{id}`: stored, but this version of toolmem cannot read it, so it is not shown here; run `toolmem doctor`._"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_row_makes_its_tools_checks_confirm_and_doctor_finds_it() -> Result<()> {
    for (what, sql) in DAMAGES {
        let dir = tempfile::tempdir()?;
        let db = dir.path().join("rules.sqlite3");
        seeded(&db)?;
        let server = Server::start(&db, &[])?;
        let before = check(&server, "send_email", to_sarah()).await?;
        ensure!(
            before["decision"] == "deny",
            "{what}: intact, the rule denies: {before}"
        );

        damage(&db, sql)?;
        let verdict = check(&server, "send_email", to_sarah()).await?;
        assert_eq!(verdict["decision"], "confirm", "{what}: {verdict}");
        let reason = verdict["reason"].as_str().context("a reason")?;
        assert!(
            reason.contains("r-sarah on send_email") && reason.contains("toolmem doctor"),
            "{what}: {reason}"
        );
        assert!(
            !reason.contains("Sarah at"),
            "{what}: the reason quotes the rule: {reason}"
        );
        // Another tool's check is not this row's business.
        let other = check(&server, "bash", json!({"command": "ls -la"})).await?;
        assert_eq!(other["decision"], "allow", "{what}: {other}");
        // A readable deny still wins on that other tool.
        let rm = check(&server, "bash", json!({"command": "rm -rf /"})).await?;
        assert_eq!(rm["decision"], "deny", "{what}: {rm}");

        // The pinned prompt shows a line in the rule's place, under its tool.
        let prompt = server
            .result("memory.tool_rules_for_prompt", json!({}))
            .await?;
        let rendered = prompt["rendered"].as_str().context("rendered")?;
        assert!(
            rendered.contains(&format!("### `send_email`\n{}\n", line_for("r-sarah"))),
            "{what}: {rendered}"
        );
        assert!(
            !rendered.contains("Never email Sarah"),
            "{what}: {rendered}"
        );
        assert_eq!(prompt["unreadable"][0]["id"], "r-sarah", "{what}: {prompt}");

        // The confirm is audited under the row.
        let (code, history, _) = cli(
            &db,
            &["--json", "history", "send_email", "--id", "r-sarah"],
            "",
        )?;
        ensure!(code == 0, "{what}: history");
        let history: Value = serde_json::from_str(&history)?;
        assert_eq!(history[0]["action"], "ask_confirm", "{what}: {history}");

        // doctor lists the row and fails; removing the row heals the store.
        let (code, out, err) = cli(&db, &["doctor"], "")?;
        assert_eq!(code, 2, "{what}: doctor on a damaged row: {out}{err}");
        assert!(
            out.contains("unreadable rule r-sarah on tool send_email"),
            "{what}: {out}"
        );
        assert!(out.contains("rule rm send_email r-sarah"), "{what}: {out}");
        let (code, _, err) = cli(&db, &["rule", "rm", "send_email", "r-sarah"], "")?;
        ensure!(code == 0, "{what}: rm: {err}");
        let (code, out, err) = cli(&db, &["doctor"], "")?;
        assert_eq!(code, 0, "{what}: doctor after the rm: {out}{err}");
        assert!(out.contains("no problem found"), "{what}: {out}");
        let after = check(&server, "send_email", to_sarah()).await?;
        assert_eq!(
            after["decision"], "allow",
            "{what}: the rule is gone: {after}"
        );
        server.stop()?;
    }
    Ok(())
}

/// A rule under the no-tool group applies to every tool, so an unreadable one there makes every
/// tool's checks confirm, and the prompt of any tool shows it under "Any tool".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_row_for_every_tool_makes_every_check_confirm() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    seeded(&db)?;
    let (code, _, err) = cli(
        &db,
        &[
            "rule",
            "add",
            "__unscoped__",
            "never share the phone number",
            "--priority",
            "critical",
            "--id",
            "r-any",
        ],
        "",
    )?;
    ensure!(code == 0, "{err}");
    damage(
        &db,
        "UPDATE rules SET priority = 'urgent' WHERE id = 'r-any'",
    )?;
    for (tool, arguments) in [
        ("bash", json!({"command": "ls -la"})),
        ("calendar", json!({"title": "lunch"})),
    ] {
        let (code, out, _) = cli(&db, &["check", tool, &arguments.to_string()], "")?;
        assert_eq!(code, 2, "{tool}: {out}");
        assert!(out.contains("r-any for every tool"), "{tool}: {out}");
    }
    let (code, out, _) = cli(&db, &["prompt", "--tools", "calendar"], "")?;
    ensure!(code == 0, "prompt");
    assert!(
        out.ends_with(&format!("### Any tool\n{}\n", line_for("r-any"))),
        "{out}"
    );
    Ok(())
}

/// A constraint that is JSON but no constraint (what another version might store there) is
/// not a reason to give up on the rule: the rule's text is readable, so its constraint is
/// derived again from it, and the check still denies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_constraint_that_is_no_constraint_is_derived_again_and_still_denies() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    seeded(&db)?;
    for garbage in [
        r#"{"polarity": "sideways", "matchers": [{"kind": "telepathy"}]}"#,
        r#"[1, 2, 3]"#,
        r#""never email sarah""#,
    ] {
        rusqlite::Connection::open(&db)?.execute(
            "UPDATE rules SET constraint_json = ?1 WHERE id = 'r-sarah'",
            [garbage],
        )?;
        let (code, out, _) = cli(&db, &["check", "send_email", &to_sarah().to_string()], "")?;
        assert_eq!(code, 3, "{garbage}: {out}");
        assert!(out.starts_with("deny"), "{garbage}: {out}");
    }
    Ok(())
}

/// The second finding: a server of this version that meets a schema a newer toolmem migrated
/// while it ran acknowledged puts into it (three, in the report) and only failed at the next
/// listing. Now every write is refused, nothing is written, reads say what happened, and doctor
/// says to upgrade.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_refuses_every_write_once_a_newer_toolmem_migrated_the_file() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    seeded(&db)?;
    let server = Server::start(&db, &[])?;
    let current: i64 =
        rusqlite::Connection::open(&db)?.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    rusqlite::Connection::open(&db)?.pragma_update(None, "user_version", current + 1)?;
    let count = || -> Result<(i64, i64)> {
        let connection = rusqlite::Connection::open(&db)?;
        let count = |table: &str| -> rusqlite::Result<i64> {
            connection.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
                row.get(0)
            })
        };
        Ok((count("rules")?, count("rule_history")?))
    };
    let before = count()?;
    for index in 0..3 {
        let response = server
            .call(
                "memory.tool_rule_put",
                json!({"tool_name": "send_email", "rule": format!("Never email Bob {index}."), "priority": "critical"}),
            )
            .await?;
        assert_eq!(response["error"]["code"], -32002, "put {index}: {response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("newer than this toolmem supports")
                && message.contains("upgrade toolmem"),
            "{message}"
        );
    }
    for (method, params) in [
        (
            "memory.tool_rule_delete",
            json!({"tool_name": "send_email", "id": "r-sarah"}),
        ),
        (
            "memory.tool_rule_revoke",
            json!({"tool_name": "send_email", "id": "r-sarah"}),
        ),
        ("memory.tool_rule_list", json!({"tool_name": "send_email"})),
        (
            "memory.tool_call_check",
            json!({"tool_name": "send_email", "arguments": to_sarah()}),
        ),
        ("memory.tool_rules_for_prompt", json!({})),
    ] {
        let response = server.call(method, params).await?;
        assert_eq!(response["error"]["code"], -32002, "{method}: {response}");
    }
    assert_eq!(count()?, before, "a refused write wrote something");
    let (code, out, _) = cli(&db, &["doctor"], "")?;
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("(newer)") && out.contains("upgrade toolmem"),
        "{out}"
    );
    server.stop()?;
    Ok(())
}
