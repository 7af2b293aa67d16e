//! The real server over HTTP and stdio, and the feature page's safety case end to end.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::support::{Server, TOOLMEM};

const EDICT: &str = "Never email Sarah at sarah@example.com.";
const PINNED: &str = "### `send_email`\n- **[critical]** Never email Sarah at sarah@example.com.\n";

fn sarah_turn(session: &str) -> Value {
    json!({
        "user_message": EDICT,
        "session_id": session,
        "tool_calls": [{
            "name": "send_email",
            "arguments": {"to": "bob@example.com", "subject": "status"},
            "success": true,
            "output_summary": "send_email: ok (31 chars)",
            "duration_ms": 120
        }],
        "available_tools": ["send_email", "bash", "browser"]
    })
}

#[tokio::test]
async fn never_email_sarah_over_http_across_a_restart() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");

    // Session 1: the edict is captured once, however often it is said.
    let server = Server::start(&db, &[])?;
    let report = server
        .result("memory.after_turn", sarah_turn("session-1"))
        .await?;
    let created = report["created"].as_array().context("created")?;
    assert_eq!(created.len(), 1, "{report}");
    assert_eq!(created[0]["tool_name"], "send_email");
    assert_eq!(created[0]["rule"], EDICT);
    assert_eq!(created[0]["priority"], "critical");
    assert_eq!(created[0]["source"], "user_explicit");
    let again = server
        .result("memory.after_turn", sarah_turn("session-1"))
        .await?;
    assert_eq!(again["created"], json!([]), "{again}");
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "send_email"}))
        .await?;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    server.stop()?;

    // Session 2: a restarted server on the same file pins the rule.
    let server = Server::start(&db, &[])?;
    let prompt = server
        .result(
            "memory.tool_rules_for_prompt",
            json!({"tools": ["send_email", "bash"]}),
        )
        .await?;
    let rendered = prompt["rendered"].as_str().context("rendered")?;
    assert!(rendered.contains(PINNED), "{rendered}");

    // Fill the store and the session; the rule stays, once.
    for index in 0..120 {
        let priority = if index % 4 == 0 { "high" } else { "normal" };
        server
            .result(
                "memory.tool_rule_put",
                json!({"tool_name": format!("tool_{}", index % 9), "rule": format!("unrelated guidance number {index}, kept for later"), "priority": priority}),
            )
            .await?;
    }
    for index in 0..60 {
        let turn = json!({
            "user_message": format!("Summarise ticket {index} and file it."),
            "session_id": "session-2",
            "tool_calls": [{"name": "bash", "success": index % 3 != 0, "output_summary": "bash: failed (timeout)"}]
        });
        server.result("memory.after_turn", turn).await?;
    }
    let tools: Vec<String> = ["send_email".to_owned(), "bash".to_owned()]
        .into_iter()
        .chain((0..9).map(|i| format!("tool_{i}")))
        .collect();
    let prompt = server
        .result("memory.tool_rules_for_prompt", json!({"tools": tools}))
        .await?;
    assert!(
        prompt["rendered"]
            .as_str()
            .context("rendered")?
            .contains(PINNED)
    );
    // The openhuman spelling sees the same, inside its envelope.
    let wrapped = server
        .result(
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tools": ["send_email"]}),
        )
        .await?;
    assert!(
        wrapped["result"]["rendered"]
            .as_str()
            .context("rendered")?
            .contains(PINNED)
    );
    assert_eq!(
        wrapped["logs"],
        json!(["tool memory rules prepared for prompt"])
    );
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "send_email"}))
        .await?;
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    server.stop()?;
    Ok(())
}

#[tokio::test]
async fn health_notifications_and_body_limit() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &["--max-body", "4096"])?;
    let health = server
        .client()
        .get(format!("{}/healthz", server.url))
        .send()
        .await?;
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await?, "ok");
    // A notification gets no body.
    let note = server
        .client()
        .post(&server.url)
        .header("content-type", "application/json")
        .body(r#"{"jsonrpc":"2.0","method":"memory.tool_rule_list","params":{"tool_name":"x"}}"#)
        .send()
        .await?;
    assert_eq!(note.status(), 204);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"memory.tool_rule_put","params":{{"tool_name":"x","rule":"{}"}}}}"#,
        "a".repeat(8192)
    );
    let refused = server
        .client()
        .post(format!("{}/rpc", server.url))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await?;
    assert_eq!(refused.status(), 413);
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "x"}))
        .await?;
    assert_eq!(listed, json!([]));
    server.stop()
}

#[tokio::test]
async fn a_token_is_required_when_set_and_for_non_loopback() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let refused = Command::new(TOOLMEM)
        .args(["serve", "--addr", "0.0.0.0:0", "--db"])
        .arg(&db)
        .env_remove("TOOLMEM_TOKEN")
        .output()?;
    assert!(!refused.status.success());
    assert!(String::from_utf8(refused.stderr)?.contains("without a bearer token"));

    let server = Server::start(&db, &["--token", "s3cret"])?;
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_list", "params": {"tool_name": "x"}});
    let anonymous = server
        .client()
        .post(format!("{}/rpc", server.url))
        .json(&request)
        .send()
        .await?;
    assert_eq!(anonymous.status(), 401);
    let wrong = server
        .client()
        .post(format!("{}/rpc", server.url))
        .bearer_auth("nope")
        .json(&request)
        .send()
        .await?;
    assert_eq!(wrong.status(), 401);
    let allowed = server
        .client()
        .post(format!("{}/rpc", server.url))
        .bearer_auth("s3cret")
        .json(&request)
        .send()
        .await?;
    assert_eq!(allowed.status(), 200);
    server.stop()
}

#[test]
fn stdio_serves_one_response_per_request_line() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let mut child = Command::new(TOOLMEM)
        .args(["serve", "--stdio", "--db"])
        .arg(dir.path().join("rules.sqlite3"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let requests = [
        r#"{"jsonrpc":"2.0","id":1,"method":"memory.tool_rule_put","params":{"tool_name":"bash","rule":"never run rm -rf /","priority":"critical"}}"#,
        r#"{"jsonrpc":"2.0","method":"memory.tool_rule_list","params":{"tool_name":"bash"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"memory.tool_rule_list","params":{"tool_name":"bash"}}"#,
        r#"not json"#,
    ];
    for request in requests {
        writeln!(stdin, "{request}")?;
    }
    drop(stdin);
    let lines: Vec<Value> = BufReader::new(child.stdout.take().context("stdout")?)
        .lines()
        .map(|line| Ok(serde_json::from_str(&line?)?))
        .collect::<Result<_>>()?;
    assert!(child.wait()?.success());
    assert_eq!(lines.len(), 3, "the notification gets no line: {lines:?}");
    assert_eq!(lines[0]["result"]["priority"], "critical");
    assert_eq!(lines[1]["result"][0]["rule"], "never run rm -rf /");
    assert_eq!(lines[2]["error"]["code"], -32700);
    Ok(())
}

#[tokio::test]
async fn sarah_lifted_in_session_two_is_gone_in_session_three_with_its_history() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let mut turn_one = sarah_turn("session-1");
    turn_one["turn"] = json!(1);

    let server = Server::start(&db, &[])?;
    let created = server.result("memory.after_turn", turn_one).await?;
    let id = created["created"][0]["id"]
        .as_str()
        .context("id")?
        .to_owned();
    server.stop()?;

    let server = Server::start(&db, &[])?;
    let lifted = server
        .result(
            "memory.after_turn",
            json!({
                "user_message": "You can email Sarah again.",
                "session_id": "session-2",
                "turn": 3,
                "tool_calls": [{"name": "send_email", "success": true}]
            }),
        )
        .await?;
    assert_eq!(lifted["revoked"][0]["id"], json!(id), "{lifted}");
    server.stop()?;

    let server = Server::start(&db, &[])?;
    let prompt = server
        .result(
            "memory.tool_rules_for_prompt",
            json!({"tools": ["send_email"]}),
        )
        .await?;
    assert!(
        !prompt["rendered"]
            .as_str()
            .context("rendered")?
            .contains("Sarah"),
        "{prompt}"
    );
    let listed = server
        .result(
            "memory.tool_rule_list",
            json!({"tool_name": "send_email", "include_revoked": true}),
        )
        .await?;
    assert!(listed[0]["revoked_at"].is_string(), "{listed}");
    let history = server
        .result(
            "memory.tool_rule_history",
            json!({"tool_name": "send_email", "id": id}),
        )
        .await?;
    assert_eq!(history[0]["action"], "revoke", "{history}");
    assert_eq!(
        history[0]["origin"],
        json!({"kind": "user_edict", "session_id": "session-2", "turn": 3})
    );
    assert_eq!(history[1]["action"], "create");
    assert_eq!(
        history[1]["origin"],
        json!({"kind": "user_edict", "session_id": "session-1", "turn": 1})
    );
    server.stop()
}
