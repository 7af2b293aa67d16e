//! `toolmem mcp` end to end: the real program on a temporary database, driven over stdio by a
//! plain JSON-lines client the way Claude Code drives it (2025-11-25 handshake).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::support::TOOLMEM;

/// A running `toolmem mcp`, spoken to one JSON line at a time.
struct Mcp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Mcp {
    fn start(db: &Path) -> Result<Mcp> {
        let mut child = Command::new(TOOLMEM)
            .arg("--db")
            .arg(db)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().context("stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("stdout")?);
        Ok(Mcp {
            child,
            stdin,
            stdout,
            next_id: 1,
        })
    }

    fn send(&mut self, message: &Value) -> Result<()> {
        writeln!(self.stdin, "{message}")?;
        Ok(self.stdin.flush()?)
    }

    /// One request; its whole response (`result` or `error`). Notifications the server sends
    /// meanwhile are skipped.
    fn request(&mut self, method: &str, params: Value) -> Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("the server closed stdout before answering {method}");
            }
            let message: Value = serde_json::from_str(&line)
                .with_context(|| format!("stdout carried a line that is not JSON: {line:?}"))?;
            if message["id"] == json!(id) {
                return Ok(message);
            }
            anyhow::ensure!(
                message.get("id").is_none(),
                "an answer to another id: {line}"
            );
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Result<Value> {
        let response = self.request(method, params)?;
        match response.get("result") {
            Some(result) => Ok(result.clone()),
            None => bail!("{method} failed: {response}"),
        }
    }

    fn call_tool(&mut self, name: &str, arguments: Value) -> Result<Value> {
        self.result("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// The handshake of a 2025-11-25 client; the `initialize` result.
    fn initialize(&mut self) -> Result<Value> {
        let result = self.result(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "toolmem-test", "version": "0"}
            }),
        )?;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(result)
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The text of a tool result's one content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[test]
fn serves_the_2025_11_25_handshake_tools_prompt_and_resources() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let mut mcp = Mcp::start(&dir.path().join("rules.sqlite3"))?;

    let init = mcp.initialize()?;
    assert_eq!(init["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(init["serverInfo"]["name"], "toolmem");
    let instructions = init["instructions"].as_str().context("instructions")?;
    assert!(instructions.len() <= 2048, "{} bytes", instructions.len());
    assert!(instructions.contains("check_call"), "{instructions}");
    for capability in ["tools", "prompts", "resources"] {
        assert!(init["capabilities"][capability].is_object(), "{init}");
    }

    let listed = mcp.result("tools/list", json!({}))?;
    let tools = listed["tools"].as_array().context("tools")?;
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    for wanted in [
        "check_call",
        "list_rules",
        "put_rule",
        "revoke_rule",
        "restore_rule",
        "recall_rules",
        "rule_history",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    for tool in tools {
        let schema = &tool["inputSchema"];
        assert_eq!(schema["type"], "object", "{tool}");
        assert_eq!(schema["additionalProperties"], false, "not strict: {tool}");
        let required = schema["required"].as_array().context("required")?;
        assert!(required.contains(&json!("tool")), "{tool}");
    }
    let put = tools
        .iter()
        .find(|t| t["name"] == "put_rule")
        .context("put_rule")?;
    let priority = serde_json::to_string(&put["inputSchema"])?;
    for level in ["critical", "high", "normal"] {
        assert!(priority.contains(&format!("\"{level}\"")), "{priority}");
    }

    let stored = mcp.call_tool(
        "put_rule",
        json!({"tool": "Bash", "rule": "Never run terraform apply.", "priority": "critical"}),
    )?;
    assert_ne!(stored["isError"], true, "{stored}");
    let id = stored["structuredContent"]["rule"]["id"]
        .as_str()
        .context("the stored rule's id")?
        .to_owned();

    let denied = mcp.call_tool(
        "check_call",
        json!({"tool": "Bash", "arguments": {"command": "terraform apply -auto-approve"}}),
    )?;
    assert_eq!(denied["structuredContent"]["decision"], "deny", "{denied}");
    assert!(text(&denied).contains("terraform apply"), "{denied}");
    let allowed = mcp.call_tool(
        "check_call",
        json!({"tool": "Bash", "arguments": {"command": "ls -la"}}),
    )?;
    assert_eq!(
        allowed["structuredContent"]["decision"], "allow",
        "{allowed}"
    );

    let prompt = mcp.result("prompts/get", json!({"name": "tool_rules"}))?;
    let block = prompt["messages"][0]["content"]["text"]
        .as_str()
        .context("the prompt's text")?;
    assert!(block.contains("Never run terraform apply."), "{prompt}");
    assert_eq!(prompt["messages"][0]["role"], "user");

    let read = mcp.result("resources/read", json!({"uri": "toolmem://rules/Bash"}))?;
    let contents = &read["contents"][0];
    assert_eq!(contents["uri"], "toolmem://rules/Bash");
    let rules: Value = serde_json::from_str(contents["text"].as_str().context("text")?)?;
    assert_eq!(rules[0]["id"], json!(id), "{read}");

    let revoked = mcp.call_tool("revoke_rule", json!({"tool": "Bash", "id": id}))?;
    assert_ne!(revoked["isError"], true, "{revoked}");
    let after = mcp.call_tool(
        "check_call",
        json!({"tool": "Bash", "arguments": {"command": "terraform apply"}}),
    )?;
    assert_eq!(after["structuredContent"]["decision"], "allow", "{after}");
    let history = mcp.call_tool("rule_history", json!({"tool": "Bash", "id": id}))?;
    let entries = history["structuredContent"]["history"]
        .as_array()
        .context("history")?;
    assert!(entries.len() >= 2, "put and revoke: {history}");
    Ok(())
}

#[test]
fn bad_arguments_are_tool_errors_that_name_the_field() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let mut mcp = Mcp::start(&db)?;
    mcp.initialize()?;

    let cases = [
        (
            json!({"tool": "Bash", "rule": "Never run rm -rf /.", "priority": "urgent"}),
            "priority",
        ),
        (
            json!({"tool": "Bash", "rule": "Never run rm -rf /.", "severity": "high"}),
            "severity",
        ),
        (json!({"tool": "Bash"}), "rule"),
        (json!({"tool": "Bash", "rule": 7}), "`rule`"),
        (
            json!({"tool": "Bash", "rule": "No.", "priority": 1}),
            "`priority`",
        ),
    ];
    for (arguments, field) in cases {
        let result = mcp.call_tool("put_rule", arguments.clone())?;
        assert_eq!(result["isError"], true, "{arguments} -> {result}");
        assert!(text(&result).contains(field), "{arguments} -> {result}");
    }
    // Nothing was stored by the refused calls.
    let listed = mcp.call_tool("list_rules", json!({"tool": "Bash"}))?;
    assert_eq!(listed["structuredContent"]["rules"], json!([]), "{listed}");
    Ok(())
}

#[test]
fn serves_the_stateless_2026_07_28_revision_too() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let mut mcp = Mcp::start(&dir.path().join("rules.sqlite3"))?;
    // No handshake: each request names its version in `_meta`.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "toolmem-test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let discovered = mcp.result("server/discover", json!({"_meta": meta}))?;
    let versions = discovered["supportedVersions"].to_string();
    assert!(
        versions.contains("2026-07-28") && versions.contains("2025-11-25"),
        "{discovered}"
    );
    let checked = mcp.result(
        "tools/call",
        json!({
            "name": "check_call",
            "arguments": {"tool": "Bash", "arguments": {"command": "ls"}},
            "_meta": meta
        }),
    )?;
    assert_eq!(
        checked["structuredContent"]["decision"], "allow",
        "{checked}"
    );
    assert_eq!(checked["resultType"], "complete", "{checked}");
    Ok(())
}
