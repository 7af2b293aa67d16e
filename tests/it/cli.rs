//! The command line for people: rule add/get/list/rm, tools, prompt, capture, recall,
//! export/import, exit codes and errors on stderr.

use anyhow::Result;
use serde_json::Value;

use crate::support::cli;

#[test]
fn rule_commands_round_trip() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let (code, out, _) = cli(
        &db,
        &[
            "--json",
            "rule",
            "add",
            "bash",
            "never run sudo",
            "--priority",
            "critical",
            "--tag",
            "safety",
        ],
        "",
    )?;
    assert_eq!(code, 0);
    let rule: Value = serde_json::from_str(&out)?;
    assert_eq!(rule["priority"], "critical");
    assert_eq!(rule["source"], "user_explicit");
    let id = rule["id"].as_str().unwrap_or_default().to_owned();

    let (code, out, _) = cli(&db, &["rule", "list", "bash"], "")?;
    assert_eq!(code, 0);
    assert!(
        out.contains("never run sudo") && out.contains("critical"),
        "{out}"
    );
    let (code, out, _) = cli(&db, &["--json", "rule", "get", "BASH", &id], "")?;
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out)?["rule"],
        "never run sudo"
    );
    let (code, out, _) = cli(&db, &["tools"], "")?;
    assert_eq!(code, 0);
    assert!(out.contains("bash"), "{out}");
    let (code, out, _) = cli(&db, &["prompt", "--tools", "bash"], "")?;
    assert_eq!(code, 0);
    assert!(
        out.ends_with("### `bash`\n- **[critical]** never run sudo\n"),
        "{out:?}"
    );
    let (code, out, _) = cli(&db, &["recall", "bash", "sudo"], "")?;
    assert_eq!(code, 0);
    assert!(out.contains("never run sudo"));
    let (code, _, _) = cli(&db, &["rule", "rm", "bash", &id], "")?;
    assert_eq!(code, 0);
    let (code, _, err) = cli(&db, &["rule", "rm", "bash", &id], "")?;
    assert_ne!(code, 0);
    assert!(err.contains("no rule"), "{err}");
    Ok(())
}

#[test]
fn bad_input_is_an_error_on_stderr_naming_the_field() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let (code, out, err) = cli(
        &db,
        &["rule", "add", "bash", "x", "--priority", "urgent"],
        "",
    )?;
    assert_ne!(code, 0);
    assert!(out.is_empty());
    assert!(err.contains("priority") && err.contains("urgent"), "{err}");
    let (code, _, err) = cli(&db, &["rule", "add", "  ", "x"], "")?;
    assert_ne!(code, 0);
    assert!(err.contains("tool_name"), "{err}");
    Ok(())
}

#[test]
fn capture_dry_run_stores_nothing() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let turn = r#"{"user_message":"Never email Sarah at sarah@example.com.","tool_calls":[{"name":"send_email","success":true}]}"#;
    let (code, out, _) = cli(&db, &["capture", "--dry-run"], turn)?;
    assert_eq!(code, 0);
    let proposed: Value = serde_json::from_str(&out)?;
    assert_eq!(
        proposed["rules"][0]["rule"],
        "Never email Sarah at sarah@example.com."
    );
    assert_eq!(proposed["rules"][0]["tool_name"], "send_email");
    let (_, out, _) = cli(&db, &["--json", "rule", "list", "send_email"], "")?;
    assert_eq!(serde_json::from_str::<Value>(&out)?, Value::Array(vec![]));
    let (code, out, _) = cli(&db, &["--json", "capture"], turn)?;
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out)?["created"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    let (code, _, err) = cli(&db, &["capture", "--dry-run"], "{}")?;
    assert_ne!(code, 0);
    assert!(err.contains("turn record"), "{err}");
    Ok(())
}

#[test]
fn export_then_import_is_idempotent_and_atomic() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let source = dir.path().join("a.sqlite3");
    let target = dir.path().join("b.sqlite3");
    cli(
        &source,
        &["rule", "add", "bash", "quote paths", "--priority", "high"],
        "",
    )?;
    cli(
        &source,
        &[
            "rule",
            "add",
            "send_email",
            "never email Sarah",
            "--priority",
            "critical",
        ],
        "",
    )?;
    let (code, exported, _) = cli(&source, &["export"], "")?;
    assert_eq!(code, 0);
    assert_eq!(exported.lines().count(), 2);
    for _ in 0..2 {
        let (code, _, _) = cli(&target, &["import"], &exported)?;
        assert_eq!(code, 0);
    }
    let (_, again, _) = cli(&target, &["export"], "")?;
    assert_eq!(again, exported);
    // A bad line anywhere means nothing from the batch is written.
    let bad = format!(
        "{}{{\"id\":\"x\"}}\n",
        exported.replace("quote paths", "quote all paths")
    );
    let (code, out, _) = cli(&target, &["import"], &bad)?;
    assert_ne!(code, 0);
    assert!(out.contains("line 3: invalid"), "{out}");
    assert!(out.contains("nothing imported"), "{out}");
    let (_, after, _) = cli(&target, &["export"], "")?;
    assert_eq!(after, exported);
    Ok(())
}

#[test]
fn revoke_restore_and_history_from_the_command_line() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let (_, out, _) = cli(
        &db,
        &[
            "--json",
            "rule",
            "add",
            "git",
            "never push to main",
            "--priority",
            "critical",
        ],
        "",
    )?;
    let id = serde_json::from_str::<Value>(&out)?["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let (code, out, _) = cli(&db, &["--json", "rule", "revoke", "git", &id], "")?;
    assert_eq!(code, 0);
    assert!(serde_json::from_str::<Value>(&out)?["revoked_at"].is_string());
    let (_, out, _) = cli(&db, &["prompt"], "")?;
    assert!(!out.contains("never push to main"), "{out}");
    let (_, out, _) = cli(&db, &["rule", "list", "git", "--include-revoked"], "")?;
    assert!(out.contains("(revoked)"), "{out}");
    let (code, _, _) = cli(&db, &["rule", "restore", "git", &id], "")?;
    assert_eq!(code, 0);
    let (_, out, _) = cli(&db, &["prompt"], "")?;
    assert!(out.contains("- **[critical]** never push to main"), "{out}");
    let (code, out, _) = cli(&db, &["history", "git"], "")?;
    assert_eq!(code, 0);
    for action in ["create", "revoke", "restore"] {
        assert!(out.contains(action), "{action} missing from {out}");
    }
    let (code, _, err) = cli(&db, &["rule", "revoke", "git", "nope"], "")?;
    assert_ne!(code, 0);
    assert!(err.contains("no rule"), "{err}");
    Ok(())
}

#[test]
fn check_exit_codes_say_allow_confirm_or_deny() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    cli(
        &db,
        &[
            "rule",
            "add",
            "send_email",
            "Never email Sarah at sarah@example.com.",
            "--priority",
            "critical",
        ],
        "",
    )?;
    cli(
        &db,
        &[
            "rule",
            "add",
            "bash",
            "Don't run sudo.",
            "--priority",
            "high",
        ],
        "",
    )?;
    let (code, out, _) = cli(
        &db,
        &["check", "send_email", r#"{"to":"sarah@example.com"}"#],
        "",
    )?;
    assert_eq!(code, 3, "{out}");
    assert!(out.starts_with("deny: "), "{out}");
    let (code, _, _) = cli(
        &db,
        &["check", "send_email", r#"{"to":"bob@example.com"}"#],
        "",
    )?;
    assert_eq!(code, 0);
    let (code, out, _) = cli(
        &db,
        &[
            "--json",
            "check",
            "bash",
            r#"{"command":"sudo apt upgrade"}"#,
        ],
        "",
    )?;
    assert_eq!(code, 2, "{out}");
    assert_eq!(serde_json::from_str::<Value>(&out)?["decision"], "confirm");
    let (code, _, err) = cli(&db, &["check", "bash", "{not json"], "")?;
    assert_eq!(code, 1);
    assert!(err.contains("not JSON"), "{err}");
    // A given constraint replaces the derived one and is what `rule get` shows.
    let (code, out, err) = cli(
        &db,
        &[
            "--json",
            "rule",
            "add",
            "payments",
            "Check with me before paying ACME.",
            "--priority",
            "critical",
            "--constraint",
            r#"{"polarity":"forbid","matchers":[{"kind":"literal","value":"ACME Ltd"}]}"#,
        ],
        "",
    )?;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(&out)?["constraint_explicit"],
        true
    );
    let (code, _, _) = cli(&db, &["check", "payments", r#"{"payee":"acme ltd"}"#], "")?;
    assert_eq!(code, 3);
    Ok(())
}

#[test]
fn a_mistyped_check_is_never_read_as_a_verdict() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let (code, _, _) = cli(&db, &["check", "send_email", "-1"], "")?;
    assert_eq!(code, 64);
    let (code, _, _) = cli(&db, &["check"], "")?;
    assert_eq!(code, 64);
    Ok(())
}

/// `toolmem tools` counts each tool's rules by priority and state, as the store's grouped
/// count does (`RuleStore::tool_counts`): proposed and revoked rules apart from the active
/// ones, a tool whose rules are all revoked still listed, and each tool's family.
#[test]
fn tools_counts_rules_by_priority_and_state() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let add = |tool: &str, text: &str, priority: &str| -> Result<String> {
        let (code, out, err) = cli(
            &db,
            &["--json", "rule", "add", tool, text, "--priority", priority],
            "",
        )?;
        anyhow::ensure!(code == 0, "{err}");
        Ok(serde_json::from_str::<Value>(&out)?["id"]
            .as_str()
            .unwrap_or_default()
            .to_owned())
    };
    add("Bash", "never run sudo", "critical")?;
    add("bash", "quote every path", "normal")?;
    let lifted = add("bash", "never push on Fridays", "high")?;
    let gone = add("send_email", "never email Sarah", "critical")?;
    for (tool, id) in [("bash", &lifted), ("send_email", &gone)] {
        let (code, _, err) = cli(&db, &["rule", "revoke", tool, id], "")?;
        assert_eq!(code, 0, "{err}");
    }
    // A captured edict awaiting confirmation: proposed, not active.
    let proposed = r#"{"id":"p1","tool_name":"bash","rule":"Never run terraform destroy.","priority":"critical","source":"post_turn","tags":[],"created_at":"2026-11-01T09:00:00Z","updated_at":"2026-11-01T09:00:00Z","proposed":true}"#;
    let (code, _, err) = cli(&db, &["import", "-"], proposed)?;
    assert_eq!(code, 0, "{err}");

    let (code, out, err) = cli(&db, &["--json", "tools"], "")?;
    assert_eq!(code, 0, "{err}");
    let tools: Value = serde_json::from_str(&out)?;
    let bash = tools
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["tool_name"] == "bash"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(bash["family"], "shell", "{out}");
    assert_eq!(
        (
            &bash["critical"],
            &bash["high"],
            &bash["normal"],
            &bash["revoked"]
        ),
        (
            &Value::from(1),
            &Value::from(0),
            &Value::from(1),
            &Value::from(1)
        ),
        "{out}"
    );
    assert_eq!(
        (&bash["proposed"], &bash["total"]),
        (&Value::from(1), &Value::from(4)),
        "{out}"
    );
    let email = tools
        .as_array()
        .and_then(|tools| tools.iter().find(|tool| tool["tool_name"] == "send_email"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (
            &email["critical"],
            &email["revoked"],
            &email["total"],
            &email["family"]
        ),
        (
            &Value::from(0),
            &Value::from(1),
            &Value::from(1),
            &Value::Null
        ),
        "{out}"
    );
    let (code, table, _) = cli(&db, &["tools"], "")?;
    assert_eq!(code, 0);
    assert!(
        table.contains("proposed") && table.contains("revoked"),
        "{table}"
    );
    Ok(())
}

/// `toolmem export | head -1`, `toolmem check ... | head -0`: a reader that goes away before
/// the output is written ends the command quietly, with a shell's status for a program SIGPIPE
/// killed: no panic and no backtrace on stderr, and never 0 (a `check` whose deny was not
/// delivered must not read as "allow").
#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() -> Result<()> {
    use std::process::{Command, Stdio};

    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let (code, _, _) = cli(
        &db,
        &[
            "rule",
            "add",
            "bash",
            "Never run `terraform destroy`.",
            "--priority",
            "critical",
        ],
        "",
    )?;
    assert_eq!(code, 0);
    for args in [
        &["export"][..],
        &["rule", "list", "bash"],
        &["check", "bash", r#"{"command": "terraform destroy"}"#],
    ] {
        // The read end is closed before the child starts, so its first write fails with a
        // broken pipe every time, whatever the scheduling.
        let (reader, writer) = std::io::pipe()?;
        drop(reader);
        let output = Command::new(crate::support::TOOLMEM)
            .arg("--db")
            .arg(&db)
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()?;
        let stderr = String::from_utf8(output.stderr)?;
        assert_eq!(output.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    Ok(())
}
