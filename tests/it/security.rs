//! Security properties of the real program: loopback by default, no non-loopback address
//! without a token, and logs that never hold the token, rule text or tool arguments (at the
//! default level, at debug, or at trace), and an owner-only database.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};
use serde_json::json;

use crate::support::TOOLMEM;

#[test]
fn the_default_address_is_loopback_and_others_need_a_token() -> Result<()> {
    let help = Command::new(TOOLMEM).args(["serve", "--help"]).output()?;
    // clap wraps help text; compare with the whitespace collapsed.
    let help = String::from_utf8(help.stdout)?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    ensure!(help.contains("[default: 127.0.0.1:7878]"), "{help}");
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    for (addr, token) in [
        ("0.0.0.0:0", None),
        ("[::]:0", None),
        ("127.0.0.1:0", Some(" ")),
    ] {
        let mut command = Command::new(TOOLMEM);
        command
            .args(["serve", "--addr", addr, "--db"])
            .arg(&db)
            .env_remove("TOOLMEM_TOKEN")
            .stdin(Stdio::null());
        if let Some(token) = token {
            command.args(["--token", token]);
        }
        let output = command.output()?;
        let stderr = String::from_utf8(output.stderr)?;
        ensure!(!output.status.success(), "{addr} with {token:?} was served");
        ensure!(
            stderr.contains("without a bearer token") || stderr.contains("must not be empty"),
            "{addr}: {stderr}"
        );
    }
    Ok(())
}

const TOKEN: &str = "tok-SECRET-7d1e";
const RULE_TEXT: &str = "SECRET-RULE never email zed@secret.example";
const ARGUMENT: &str = "SECRET-ARG bob@secret.example";

/// Runs a server at log level `level` (`None`: the default), sends requests carrying the
/// token, rule text and arguments in every position that reaches a log line (successes,
/// validation failures, wrong tokens, parse errors, capture, guard checks), and returns
/// everything it wrote to stderr.
async fn server_log(db: &Path, level: Option<&str>) -> Result<String> {
    let log = db.with_extension(format!("{}.log", level.unwrap_or("default")));
    let mut command = Command::new(TOOLMEM);
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--token", TOKEN, "--db"])
        .arg(db)
        .env_remove("TOOLMEM_TOKEN")
        .env_remove("TOOLMEM_LOG")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log)?);
    if let Some(level) = level {
        command.env("TOOLMEM_LOG", level);
    }
    let mut child = command.spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().context("stdout")?).read_line(&mut line)?;
    let url = format!(
        "{}/rpc",
        line.trim()
            .strip_prefix("toolmem listening on ")
            .context("address line")?
    );
    let http = reqwest::Client::new();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_put", "params": {"tool_name": "send_email", "rule": RULE_TEXT, "priority": "critical"}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "memory.tool_rule_put", "params": {"tool_name": "send_email", "rule": RULE_TEXT, "tags": RULE_TEXT}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "memory.tool_rule_put", "params": {"tool_name": "send_email", "rule": RULE_TEXT, "priority": RULE_TEXT}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "memory.tool_rule_put", "params": {"tool_name": "send_email", "rule": RULE_TEXT.repeat(200)}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "memory.tool_rule_put", "params": {"tool_name": "send_email", "rule": RULE_TEXT, RULE_TEXT: 1}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "memory.tool_call_check", "params": {"tool_name": "send_email", "arguments": {"to": "zed@secret.example", "body": ARGUMENT}}}),
        json!({"jsonrpc": "2.0", "id": 7, "method": "memory.tool_call_check", "params": {"tool_name": "send_email", "arguments": ARGUMENT}}),
        json!({"jsonrpc": "2.0", "id": 8, "method": "memory.after_turn", "params": {
            "user_message": "Never email zed@secret.example again, SECRET-RULE.",
            "tool_calls": [{"name": "send_email", "arguments": {"to": ARGUMENT}, "success": false, "output_summary": ARGUMENT}]
        }}),
        json!({"jsonrpc": "2.0", "id": 9, "method": "memory.recall", "params": {"namespace": "tool-send_email", "query": RULE_TEXT}}),
        json!({"jsonrpc": "2.0", "id": 10, "method": "memory.tool_rules_for_prompt", "params": {"tools": ["send_email"]}}),
        json!({"jsonrpc": "2.0", "id": 11, "method": RULE_TEXT, "params": {}}),
    ];
    for request in &requests {
        let status = http
            .post(&url)
            .bearer_auth(TOKEN)
            .json(request)
            .send()
            .await?
            .status();
        ensure!(status == 200, "{status} for {request}");
    }
    let wrong = http
        .post(&url)
        .bearer_auth("SECRET-wrong-token")
        .json(&requests[0])
        .send()
        .await?;
    ensure!(wrong.status() == 401);
    let garbage = http
        .post(&url)
        .bearer_auth(TOKEN)
        .header("content-type", "application/json")
        .body(format!("{{\"rule\": \"{RULE_TEXT}"))
        .send()
        .await?;
    ensure!(garbage.status() == 200);
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()?;
    ensure!(status.success());
    ensure!(child.wait()?.success());
    Ok(std::fs::read_to_string(&log)?)
}

#[tokio::test]
async fn logs_never_hold_the_token_rule_text_or_arguments() -> Result<()> {
    let dir = tempfile::tempdir()?;
    for level in [None, Some("debug"), Some("trace")] {
        let db = dir
            .path()
            .join(format!("rules-{}.sqlite3", level.unwrap_or("default")));
        let log = server_log(&db, level).await?;
        // The log must say something at debug and trace, or the test proves nothing.
        if level.is_some() {
            ensure!(
                log.contains("rpc call rejected"),
                "{level:?} logged nothing useful: {log}"
            );
        }
        for line in log.lines() {
            ensure!(
                !line.contains("SECRET") && !line.contains("secret.example"),
                "at {level:?} a log line leaks stored or sent content: {line}"
            );
        }
    }
    Ok(())
}

#[cfg(unix)]
#[test]
fn the_database_and_its_directory_are_owner_only() -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode =
        |path: &Path| -> Result<u32> { Ok(std::fs::metadata(path)?.permissions().mode() & 0o777) };
    // An explicit --db: the file and its WAL companions are restricted.
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let (code, _, stderr) =
        crate::support::cli(&db, &["rule", "add", "bash", "never run sudo"], "")?;
    ensure!(code == 0, "{stderr}");
    for suffix in ["", "-wal", "-shm"] {
        let path = dir.path().join(format!("rules.sqlite3{suffix}"));
        if path.exists() {
            ensure!(
                mode(&path)? == 0o600,
                "{} is {:o}",
                path.display(),
                mode(&path)?
            );
        }
    }
    // The default location: the directory is created 0700 and the file 0600.
    let home = tempfile::tempdir()?;
    let output = Command::new(TOOLMEM)
        .args(["rule", "add", "bash", "never run sudo"])
        .env("HOME", home.path())
        .env_remove("XDG_DATA_HOME")
        .env_remove("TOOLMEM_DB")
        .output()?;
    ensure!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let data = home.path().join(".local/share/toolmem");
    ensure!(
        mode(&data)? == 0o700,
        "{} is {:o}",
        data.display(),
        mode(&data)?
    );
    ensure!(mode(&data.join("rules.sqlite3"))? == 0o600);
    Ok(())
}
