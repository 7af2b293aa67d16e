//! Starting and talking to the real `toolmem` program in tests.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

pub(crate) const TOOLMEM: &str = env!("CARGO_BIN_EXE_toolmem_e2e");

/// A running `toolmem serve` on a port the OS chose.
pub(crate) struct Server {
    child: Child,
    pub(crate) url: String,
    http: reqwest::Client,
}

impl Server {
    /// Starts `toolmem serve` on `db` with extra arguments and waits until it listens.
    pub(crate) fn start(db: &Path, extra: &[&str]) -> Result<Server> {
        let mut child = Command::new(TOOLMEM)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra)
            .env_remove("TOOLMEM_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().context("stdout")?;
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line)?;
        let Some(url) = line.trim().strip_prefix("toolmem listening on ") else {
            let _ = child.kill();
            bail!("server did not start: {line:?}");
        };
        Ok(Server {
            child,
            url: url.to_owned(),
            http: reqwest::Client::new(),
        })
    }

    /// One JSON-RPC call on `/rpc`; returns the whole response object.
    pub(crate) async fn call(&self, method: &str, params: Value) -> Result<Value> {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let response = self
            .http
            .post(format!("{}/rpc", self.url))
            .json(&request)
            .send()
            .await?;
        Ok(response.error_for_status()?.json().await?)
    }

    /// The `result` of a call that must succeed.
    pub(crate) async fn result(&self, method: &str, params: Value) -> Result<Value> {
        let response = self.call(method, params).await?;
        match response.get("result") {
            Some(result) => Ok(result.clone()),
            None => bail!("{method} failed: {response}"),
        }
    }

    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.http
    }

    /// SIGTERM, then waits: the server finishes in-flight requests and exits cleanly.
    pub(crate) fn stop(mut self) -> Result<()> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()?;
        assert!(status.success());
        let exit = self.child.wait()?;
        assert!(exit.success(), "server exited with {exit:?} after SIGTERM");
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the CLI with `args` on `db`, feeding `stdin`; returns (exit code, stdout, stderr).
pub(crate) fn cli(db: &Path, args: &[&str], stdin: &str) -> Result<(i32, String, String)> {
    use std::io::Write;
    let mut child = Command::new(TOOLMEM)
        .arg("--db")
        .arg(db)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child
        .stdin
        .take()
        .context("stdin")?
        .write_all(stdin.as_bytes())?;
    let output = child.wait_with_output()?;
    Ok((
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout)?,
        String::from_utf8(output.stderr)?,
    ))
}

/// Opens the database at `db`, checks its integrity, and returns the acknowledged ids that are
/// not among `tool`'s rules: what a writer said it stored and the file lost.
pub(crate) async fn lost_acknowledged(
    db: &Path,
    tool: &str,
    acknowledged: &[String],
) -> Result<Vec<String>> {
    use tool_memory_store::{RuleStore, SqliteOptions, SqliteRuleStore};
    let store = SqliteRuleStore::open(db, SqliteOptions::default())?;
    anyhow::ensure!(store.integrity_check()? == "ok", "integrity check failed");
    let stored: std::collections::BTreeSet<String> = store
        .list(tool)
        .await?
        .iter()
        .map(|rule| rule.id.clone())
        .collect();
    Ok(acknowledged
        .iter()
        .filter(|id| !stored.contains(*id))
        .cloned()
        .collect())
}
