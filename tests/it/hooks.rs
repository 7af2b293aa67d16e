//! `toolmem hook AGENT` end to end: each agent's recorded payloads (`tests/fixtures/hooks/`, in
//! the shapes of each agent's documentation) fed through the real process, with the exact
//! stdout, stderr and exit code each agent reads.
//!
//! The table test runs every payload `AGENT/NAME.json` on a fresh copy of one database
//! (`tests/fixtures/hooks/rules.jsonl`, rules with fixed ids) and compares the process's answer
//! with `AGENT/NAME.expected`: `{"exit_code", "stdout", "stderr"}`, where `stdout` is the JSON
//! line the hook printed (as a value, written back compactly with its newline) or `null` for
//! nothing at all. `TOOLMEM_BLESS_HOOKS=1` writes the expected files from what the hook
//! answers; review the diff before committing it.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::support::cli;

/// The recorded payloads' directory.
fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hooks")
}

/// A recorded payload.
fn fixture(agent: &str, name: &str) -> Result<String> {
    let path = fixtures_dir().join(agent).join(format!("{name}.json"));
    std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
}

/// What a hook answered, in the form of an `.expected` file.
fn recorded_answer(code: i32, stdout: &str, stderr: &str) -> Result<Value> {
    let stdout = if stdout.is_empty() {
        Value::Null
    } else {
        answer(stdout)?
    };
    Ok(json!({"exit_code": code, "stdout": stdout, "stderr": stderr}))
}

/// The exact stdout an `.expected` file stands for.
fn expected_stdout(expected: &Value) -> String {
    match &expected["stdout"] {
        Value::Null => String::new(),
        line => format!("{line}\n"),
    }
}

#[test]
fn every_recorded_payload_gets_its_recorded_answer() -> Result<()> {
    let bless = std::env::var_os("TOOLMEM_BLESS_HOOKS").is_some_and(|value| value == "1");
    let template = tempfile::tempdir()?;
    let template_db = template.path().join("rules.sqlite3");
    let rules = std::fs::read_to_string(fixtures_dir().join("rules.jsonl"))?;
    let (code, _, err) = cli(&template_db, &["import", "-"], &rules)?;
    anyhow::ensure!(code == 0, "importing the fixtures' rules: {err}");

    let mut cases = 0;
    let mut mismatches = Vec::new();
    for agent in ["claude-code", "codex", "cursor", "gemini"] {
        let mut payloads: Vec<_> = std::fs::read_dir(fixtures_dir().join(agent))?
            .map(|entry| entry.map(|entry| entry.path()))
            .collect::<std::io::Result<_>>()?;
        payloads.retain(|path| path.extension().is_some_and(|ext| ext == "json"));
        payloads.sort();
        for payload_path in payloads {
            cases += 1;
            // Each payload on its own copy: a prompt's capture must not change another case.
            let dir = tempfile::tempdir()?;
            let db = dir.path().join("rules.sqlite3");
            std::fs::copy(&template_db, &db)?;
            let payload = std::fs::read_to_string(&payload_path)?;
            let (code, out, err) = hook(&db, agent, &payload)?;
            let expected_path = payload_path.with_extension("expected");
            let name = format!(
                "{agent}/{}",
                payload_path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            );
            if bless {
                let recorded = recorded_answer(code, &out, &err)?;
                std::fs::write(
                    &expected_path,
                    format!("{}\n", serde_json::to_string_pretty(&recorded)?),
                )?;
                continue;
            }
            let expected: Value = serde_json::from_str(
                &std::fs::read_to_string(&expected_path)
                    .with_context(|| format!("{name}: no {}", expected_path.display()))?,
            )?;
            let wanted = (
                expected["exit_code"].as_i64().context("exit_code")?,
                expected_stdout(&expected),
                expected["stderr"].as_str().context("stderr")?.to_owned(),
            );
            if (i64::from(code), out.clone(), err.clone()) != wanted {
                mismatches.push(format!(
                    "{name}\n  expected: {wanted:?}\n  got:      {:?}",
                    (code, out, err)
                ));
            }
        }
    }
    assert!(cases >= 50, "only {cases} recorded payloads were found");
    assert!(
        mismatches.is_empty(),
        "{} of {cases} payloads got another answer (TOOLMEM_BLESS_HOOKS=1 rewrites the expected files):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    Ok(())
}

/// Runs `toolmem hook AGENT` on a payload; (exit code, stdout, stderr).
fn hook(db: &Path, agent: &str, payload: &str) -> Result<(i32, String, String)> {
    cli(db, &["hook", agent], payload)
}

fn add_rule(db: &Path, tool: &str, text: &str, priority: &str) -> Result<String> {
    let (code, out, err) = cli(
        db,
        &["--json", "rule", "add", tool, text, "--priority", priority],
        "",
    )?;
    anyhow::ensure!(code == 0, "rule add failed: {err}");
    let rule: Value = serde_json::from_str(&out)?;
    Ok(rule["id"].as_str().context("id")?.to_owned())
}

/// The one JSON line a hook printed.
fn answer(stdout: &str) -> Result<Value> {
    anyhow::ensure!(
        stdout.ends_with('\n') && stdout.matches('\n').count() == 1,
        "one line expected: {stdout:?}"
    );
    Ok(serde_json::from_str(stdout)?)
}

/// A database with the rules every case below uses: a critical deny on the shell, a confirm
/// before pushing, and a critical rule on one exact MCP tool.
fn rules() -> Result<(tempfile::TempDir, std::path::PathBuf, [String; 3])> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let deny = add_rule(&db, "Bash", "Never run terraform apply.", "critical")?;
    let confirm = add_rule(&db, "bash", "Ask me before you git push.", "high")?;
    let (code, out, err) = cli(
        &db,
        &[
            "--json",
            "rule",
            "add",
            "mcp__github__merge_pull_request",
            "Never merge into main without asking.",
            "--priority",
            "high",
            "--constraint",
            r#"{"polarity":"forbid","matchers":[{"kind":"literal","value":"main"}],"ask_first":true}"#,
        ],
        "",
    )?;
    anyhow::ensure!(code == 0, "rule add failed: {err}");
    let merge = serde_json::from_str::<Value>(&out)?["id"]
        .as_str()
        .context("id")?
        .to_owned();
    Ok((dir, db, [deny, confirm, merge]))
}

#[test]
fn claude_code_denies_asks_and_stays_silent_on_allow() -> Result<()> {
    let (_dir, db, [deny, confirm, _]) = rules()?;

    let (code, out, err) = hook(
        &db,
        "claude-code",
        &fixture("claude-code", "pre_tool_use_terraform_apply")?,
    )?;
    assert_eq!((code, err.as_str()), (0, ""));
    let denied = answer(&out)?;
    let output = &denied["hookSpecificOutput"];
    assert_eq!(output["hookEventName"], "PreToolUse");
    assert_eq!(output["permissionDecision"], "deny");
    let reason = output["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(
        reason,
        format!(
            "toolmem: denied by a critical rule on bash: the command `terraform apply` is forbidden. The rule (bash, {deny}): Never run terraform apply."
        )
    );

    let (code, out, err) = hook(
        &db,
        "claude-code",
        &fixture("claude-code", "pre_tool_use_git_push")?,
    )?;
    assert_eq!((code, err.as_str()), (0, ""));
    let asked = answer(&out)?;
    assert_eq!(asked["hookSpecificOutput"]["permissionDecision"], "ask");
    let reason = asked["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains(&confirm) && reason.contains("git push"),
        "{reason}"
    );

    // An allow prints nothing, so the user's own permission prompts still apply.
    for name in ["pre_tool_use_read", "post_tool_use_bash"] {
        let (code, out, err) = hook(&db, "claude-code", &fixture("claude-code", name)?)?;
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""), "{name}");
    }
    Ok(())
}

#[test]
fn claude_code_re_pins_the_rules_after_compaction() -> Result<()> {
    let (_dir, db, _) = rules()?;
    let (code, out, err) = hook(
        &db,
        "claude-code",
        &fixture("claude-code", "session_start_compact")?,
    )?;
    assert_eq!((code, err.as_str()), (0, ""));
    let pinned = answer(&out)?;
    assert_eq!(
        pinned["hookSpecificOutput"]["hookEventName"],
        "SessionStart"
    );
    let context = pinned["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    let (_, block, _) = cli(&db, &["prompt"], "")?;
    assert_eq!(
        context, block,
        "the pinned block, exactly as `toolmem prompt` prints it"
    );
    assert!(context.contains("Never run terraform apply."), "{context}");
    Ok(())
}

#[test]
fn the_pinned_block_stays_under_claude_codes_limit_and_says_what_did_not_fit() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    // Critical rules are pinned whatever the prompt budget, so these overflow 10,000
    // characters.
    let mut lines = String::new();
    for n in 0..120 {
        let rule = json!({
            "id": format!("r{n:03}"), "tool_name": "bash", "priority": "critical",
            "rule": format!("Rule {n:03}: never touch the production cluster number {n} without a ticket and a second reviewer present."),
            "source": "user_explicit", "tags": [], "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
        });
        lines.push_str(&format!("{rule}\n"));
    }
    let (code, _, err) = cli(&db, &["import", "-"], &lines)?;
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = hook(
        &db,
        "claude-code",
        &fixture("claude-code", "session_start_compact")?,
    )?;
    assert_eq!(code, 0);
    let context = answer(&out)?["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        context.chars().count() < 10_000,
        "{}",
        context.chars().count()
    );
    assert!(context.contains("Rule 000"), "the first rules are kept");
    assert!(!context.contains("Rule 119"), "the last rules did not fit");
    assert!(
        context.contains("more line(s) of rules did not fit") && context.contains("toolmem prompt"),
        "{}",
        &context[context.len().saturating_sub(300)..]
    );
    Ok(())
}

#[test]
fn an_edict_in_the_prompt_denies_the_very_next_tool_call() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let destroy = fixture("claude-code", "pre_tool_use_terraform_destroy")?;
    let (code, out, _) = hook(&db, "claude-code", &destroy)?;
    assert_eq!((code, out.as_str()), (0, ""), "allowed before the edict");

    let (code, out, err) = hook(
        &db,
        "claude-code",
        &fixture("claude-code", "user_prompt_submit_edict")?,
    )?;
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));

    let (code, out, err) = hook(&db, "claude-code", &destroy)?;
    assert_eq!((code, err.as_str()), (0, ""));
    let denied = answer(&out)?;
    assert_eq!(
        denied["hookSpecificOutput"]["permissionDecision"], "deny",
        "{denied}"
    );
    let reason = denied["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert!(reason.contains("Never run terraform destroy"), "{reason}");

    // The captured rule names the session it was said in.
    let (_, history, _) = cli(&db, &["--json", "history", "__unscoped__"], "")?;
    let (_, bash_history, _) = cli(&db, &["--json", "history", "bash"], "")?;
    assert!(
        history.contains("abc123") || bash_history.contains("abc123"),
        "{history}{bash_history}"
    );
    Ok(())
}

#[test]
fn codex_confirm_becomes_deny_and_its_argv_is_read_as_a_command_line() -> Result<()> {
    let (_dir, db, [deny, confirm, _]) = rules()?;
    let (code, out, err) = hook(
        &db,
        "codex",
        &fixture("codex", "pre_tool_use_shell_git_push")?,
    )?;
    assert_eq!((code, err.as_str()), (0, ""));
    let denied = answer(&out)?;
    assert_eq!(denied["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = denied["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    assert!(
        reason.contains(&confirm) && reason.contains("cannot ask the user"),
        "{reason}"
    );

    let (code, out, _) = hook(
        &db,
        "codex",
        &fixture("codex", "pre_tool_use_shell_terraform_apply")?,
    )?;
    assert_eq!(code, 0);
    let denied = answer(&out)?;
    assert_eq!(denied["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(
        denied["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .contains(&deny)
    );
    Ok(())
}

#[test]
fn gemini_denies_with_its_decision_format() -> Result<()> {
    let (_dir, db, [deny, ..]) = rules()?;
    let (code, out, err) = hook(
        &db,
        "gemini",
        &fixture("gemini", "before_tool_run_shell_command")?,
    )?;
    assert_eq!((code, err.as_str()), (0, ""));
    let denied = answer(&out)?;
    assert_eq!(denied["decision"], "deny");
    let reason = denied["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&deny) && reason.contains("terraform apply"),
        "{reason}"
    );
    assert_eq!(denied.as_object().map(|map| map.len()), Some(2), "{denied}");

    let (code, out, _) = hook(&db, "gemini", &fixture("gemini", "session_start")?)?;
    assert_eq!(code, 0);
    assert!(
        answer(&out)?["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .contains("Never run terraform apply.")
    );
    Ok(())
}

#[test]
fn cursor_answers_with_permission() -> Result<()> {
    let (_dir, db, _) = rules()?;
    let (code, out, _) = hook(&db, "cursor", &fixture("cursor", "before_shell_execution")?)?;
    assert_eq!(code, 0);
    let denied = answer(&out)?;
    assert_eq!(denied["permission"], "deny");
    assert!(
        denied["agent_message"]
            .as_str()
            .unwrap_or_default()
            .contains("terraform apply")
    );
    let (code, out, _) = hook(
        &db,
        "cursor",
        &fixture("cursor", "before_shell_execution_git_push")?,
    )?;
    assert_eq!(code, 0);
    assert_eq!(answer(&out)?["permission"], "ask");
    Ok(())
}

#[test]
fn a_rule_on_an_exact_mcp_tool_holds_there_only() -> Result<()> {
    let (_dir, db, [_, _, merge]) = rules()?;
    let (code, out, _) = hook(
        &db,
        "claude-code",
        &fixture("claude-code", "pre_tool_use_mcp_merge")?,
    )?;
    assert_eq!(code, 0);
    let asked = answer(&out)?;
    assert_eq!(asked["hookSpecificOutput"]["permissionDecision"], "ask");
    assert!(
        asked["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .contains(&merge)
    );
    Ok(())
}

#[test]
fn a_corrupt_database_fails_closed_in_each_agents_terms() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    std::fs::write(&db, vec![0x5a; 8192])?;
    for (agent, name) in [
        ("claude-code", "pre_tool_use_read"),
        ("codex", "pre_tool_use_shell_git_push"),
        ("gemini", "before_tool_run_shell_command"),
    ] {
        let (code, out, err) = hook(&db, agent, &fixture(agent, name)?)?;
        assert_eq!((code, out.as_str()), (2, ""), "{agent}: {err}");
        assert!(
            err.starts_with(
                "toolmem could not check this, so it is refused: the rules database cannot be"
            ),
            "{agent}: {err}"
        );
    }
    let (code, out, _) = hook(&db, "cursor", &fixture("cursor", "before_shell_execution")?)?;
    assert_eq!(code, 0);
    assert_eq!(answer(&out)?["permission"], "deny");
    Ok(())
}

#[test]
fn malformed_input_fails_closed_and_names_what_is_wrong() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    for (payload, expected) in [
        ("not json", "stdin is not JSON"),
        ("[1, 2]", "not a JSON object"),
        (r#"{"session_id": "s"}"#, "`hook_event_name` is missing"),
        (
            r#"{"hook_event_name": "PreToolUse", "tool_input": {}}"#,
            "`tool_name` is missing",
        ),
        (
            r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": 7}"#,
            "`tool_input` is not an object",
        ),
    ] {
        let (code, out, err) = hook(&db, "claude-code", payload)?;
        assert_eq!((code, out.as_str()), (2, ""), "{payload}");
        assert!(err.contains(expected), "{payload}: {err}");
    }
    // An event toolmem does not handle is not an error: it says nothing.
    let (code, out, err) = hook(
        &db,
        "claude-code",
        r#"{"hook_event_name": "Notification", "message": "hi"}"#,
    )?;
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    Ok(())
}
