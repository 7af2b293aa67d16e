//! The real `toolmem serve`, started as a process of its own on the benchmark's database: the
//! HTTP rows (`rpc_get`, `rpc_prompt`) time JSON-RPC requests to it over loopback, and
//! `server_peak_rss` reads a fresh one's peak memory. The executable is the caller's
//! (`BenchOptions::server_exe`); `cargo xtask bench` builds it in release mode first.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout};

use crate::row::{Row, row};
use crate::workload::tool_name;

/// A running `toolmem serve` on a free loopback port. Dropping it kills the process.
struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, read from the line the server prints once it listens.
    base: String,
    /// The server's stdout, kept open for as long as the server runs, so that nothing it
    /// writes there fails on a closed pipe.
    _stdout: Lines<BufReader<ChildStdout>>,
}

impl Server {
    /// Starts `exe serve` over `db` (a SQLite file or a PostgreSQL URL) and waits until it
    /// listens.
    async fn start(exe: &Path, db: &OsStr) -> Result<Server> {
        let mut command = tokio::process::Command::new(exe);
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        // The server is configured by these arguments alone, as the in-process server of
        // earlier versions was: a bearer token, host or origin list, or client setting in the
        // caller's environment would change what is measured, or refuse every request.
        for (name, _) in std::env::vars_os() {
            if name
                .to_str()
                .is_some_and(|name| name.starts_with("TOOLMEM_") || name.starts_with("OPENHUMAN_"))
            {
                command.env_remove(name);
            }
        }
        let mut child = command
            .spawn()
            .with_context(|| format!("starting {}", exe.display()))?;
        let mut lines = BufReader::new(child.stdout.take().context("stdout")?).lines();
        let Some(line) = lines.next_line().await? else {
            let status = child.wait().await?;
            bail!(
                "{} serve exited ({status}) before it listened",
                exe.display()
            );
        };
        let base = line
            .trim()
            .strip_prefix("toolmem listening on ")
            .with_context(|| format!("the server's first line is not its address: {line}"))?
            .to_owned();
        Ok(Server {
            child,
            base,
            _stdout: lines,
        })
    }

    fn rpc_url(&self) -> String {
        format!("{}/rpc", self.base)
    }

    /// Kills the server and waits for it to exit.
    async fn stop(mut self) -> Result<()> {
        self.child.kill().await?;
        Ok(())
    }
}

/// Requests per second over HTTP on loopback to a `toolmem serve` on `db`, four concurrent
/// connections from this process.
pub(crate) async fn rpc_rows(
    exe: &Path,
    db: &OsStr,
    keys: &[(String, String)],
    requests: usize,
    total: usize,
) -> Result<Vec<Row>> {
    let server = Server::start(exe, db).await?;
    let url = server.rpc_url();
    let connections = 4;
    let mut rows = Vec::new();
    for (op, count) in [
        ("rpc_get", requests),
        ("rpc_prompt", (requests / 10).max(1)),
    ] {
        let started = Instant::now();
        let mut tasks = Vec::new();
        for connection in 0..connections {
            // One client per task with one pooled connection: four concurrent connections.
            let http = reqwest::Client::builder()
                .pool_max_idle_per_host(1)
                .build()?;
            let url = url.clone();
            let bodies: Vec<String> = (connection..count)
                .step_by(connections)
                .map(|index| {
                    let params = if op == "rpc_get" {
                        let (tool, id) = &keys[(index * 7919) % keys.len()];
                        json!({"tool_name": tool, "id": id})
                    } else {
                        json!({})
                    };
                    let method = if op == "rpc_get" {
                        "memory.tool_rule_get"
                    } else {
                        "memory.tool_rules_for_prompt"
                    };
                    json!({"jsonrpc": "2.0", "id": index, "method": method, "params": params})
                        .to_string()
                })
                .collect();
            tasks.push(tokio::spawn(async move {
                for body in bodies {
                    let response = http
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(body)
                        .send()
                        .await?;
                    anyhow::ensure!(response.status().is_success(), "HTTP {}", response.status());
                    let reply = response.bytes().await?;
                    // Every request got a result, and every rule asked for is there (the
                    // delete row puts its rules back): the reply starts with a result object,
                    // not `null` or an error (the server answers both with HTTP 200). Only its
                    // head is looked at: scanning every reply would load the two cores the
                    // server shares with this client.
                    let head = &reply[..reply.len().min(64)];
                    anyhow::ensure!(
                        head.windows(10).any(|part| part == br#""result":{"#),
                        "the server did not answer with a result: {}",
                        String::from_utf8_lossy(&reply)
                    );
                }
                anyhow::Ok(())
            }));
        }
        for task in tasks {
            task.await??;
        }
        rows.push(row(op, count, total, started.elapsed()));
    }
    server.stop().await?;
    Ok(rows)
}

/// Starts the real server on the benchmark database, asks it for the session-start block and a
/// listing of every tool, and reads its peak resident memory.
pub(crate) async fn peak_rss_row(exe: &Path, db: &Path, total: usize) -> Result<Row> {
    let server = Server::start(exe, db.as_os_str()).await?;
    let url = server.rpc_url();
    let http = reqwest::Client::new();
    let call = |method: &str, params: serde_json::Value| {
        http.post(&url)
            .header("content-type", "application/json")
            .body(
                json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string(),
            )
            .send()
    };
    call("memory.tool_rules_for_prompt", json!({}))
        .await?
        .bytes()
        .await?;
    let tools = total / 50;
    for tool in 0..tools.max(1) {
        call(
            "memory.tool_rule_list",
            json!({"tool_name": tool_name(tool)}),
        )
        .await?
        .bytes()
        .await?;
    }
    let pid = server.child.id().context("server pid")?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok());
    server.stop().await?;
    Ok(Row {
        implementation: "toolmem",
        op: "server_peak_rss".to_owned(),
        n: 1,
        rules: total,
        us_per_op: None,
        peak_rss_kib: peak,
    })
}
