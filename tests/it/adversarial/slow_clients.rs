//! Adversarial class: slow, half-open and stalled clients up to the connection limit never starve a guard check.
//!
//! The clients write raw bytes and stop where an attacker would: in the middle of a request
//! head, in the middle of a body, or after a response on a kept-alive connection. Every limit is
//! set small by flag so that each test reaches it by counting connections and requests; a
//! timeout is shown by the server closing the connection (end of stream), never by measuring
//! how long that took.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};

use crate::support::{RawHttp, Server, TOOLMEM, raw_request};

const JSON: &str = "content-type: application/json";

fn host(server: &Server) -> String {
    format!("host: {}", server.addr())
}

fn rpc_body(method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string()
}

fn guard_check() -> String {
    rpc_body(
        "memory.tool_call_check",
        json!({"tool_name": "send_email", "arguments": {"to": "sarah@example.com"}}),
    )
}

async fn forbid_sarah(server: &Server) -> Result<()> {
    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "send_email", "rule": "Never email Sarah at sarah@example.com.", "priority": "critical"}),
        )
        .await?;
    Ok(())
}

/// The head of a request cut off in the middle of a header field, as a slow client leaves it.
fn half_head(server: &Server) -> Vec<u8> {
    format!("POST /rpc HTTP/1.1\r\n{}\r\ncontent-ty", host(server)).into_bytes()
}

/// The rest of [`half_head`]'s request: a guard check.
fn rest_of_head(body: &str) -> Vec<u8> {
    format!(
        "pe: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[tokio::test]
async fn half_open_connections_at_the_limit_never_starve_a_guard_check() -> Result<()> {
    const LIMIT: usize = 8;
    let dir = tempfile::tempdir()?;
    let server = Server::start(
        &dir.path().join("rules.sqlite3"),
        &[
            "--max-connections",
            &LIMIT.to_string(),
            "--header-timeout",
            "2m",
        ],
    )?;
    forbid_sarah(&server).await?;
    // Every slot held by a client that sent half a head and stopped.
    let mut slow = Vec::new();
    for _ in 0..LIMIT {
        let mut connection = RawHttp::connect(server.addr())?;
        connection.send(&half_head(&server))?;
        slow.push(connection);
    }
    // A guard check from a fresh connection is answered: it takes the place of the client that
    // has waited longest.
    let mut fresh = RawHttp::connect(server.addr())?;
    fresh.send(&raw_request(
        "POST",
        "/rpc",
        &[&host(&server), JSON],
        &guard_check(),
    ))?;
    let verdict = fresh.response()?.json()?;
    ensure!(verdict["result"]["decision"] == "deny", "{verdict}");
    // The evicted client is the oldest one: its connection is closed.
    let mut oldest = slow.remove(0);
    ensure!(oldest.until_closed()?.is_empty());
    // Only it: the other slow clients and the fresh connection fill the limit exactly, and
    // each slow client, when it finally sends the rest of its request, is served.
    for (index, connection) in slow.iter_mut().enumerate() {
        connection.send(&rest_of_head(&guard_check()))?;
        let response = connection.response()?;
        ensure!(
            response.json()?["result"]["decision"] == "deny",
            "slow client {index}: {response:?}"
        );
    }
    // The fresh connection is kept alive and answers again.
    fresh.send(&raw_request(
        "POST",
        "/rpc",
        &[&host(&server), JSON],
        &guard_check(),
    ))?;
    ensure!(fresh.response()?.json()?["result"]["decision"] == "deny");

    // A flood of new slow clients, one per slot, evicts everything that waits, oldest first; a
    // guard check arriving after it still gets through, at the cost of the oldest of the flood.
    let mut flood = Vec::new();
    for _ in 0..LIMIT {
        let mut connection = RawHttp::connect(server.addr())?;
        connection.send(&half_head(&server))?;
        flood.push(connection);
    }
    for (index, connection) in slow.iter_mut().chain([&mut fresh]).enumerate() {
        ensure!(
            connection.until_closed()?.is_empty(),
            "connection {index} was not evicted"
        );
    }
    let mut late = RawHttp::connect(server.addr())?;
    late.send(&raw_request(
        "POST",
        "/rpc",
        &[&host(&server), JSON],
        &guard_check(),
    ))?;
    ensure!(late.response()?.json()?["result"]["decision"] == "deny");
    ensure!(flood[0].until_closed()?.is_empty());
    server.stop()
}

#[tokio::test]
async fn a_half_sent_head_and_a_silent_connection_are_closed_after_the_header_timeout() -> Result<()>
{
    let dir = tempfile::tempdir()?;
    let server = Server::start(
        &dir.path().join("rules.sqlite3"),
        &["--header-timeout", "300ms"],
    )?;
    let mut half = RawHttp::connect(server.addr())?;
    half.send(&half_head(&server))?;
    let silent = RawHttp::connect(server.addr())?;
    // The server ends both connections itself (hyper may say 408 first).
    let mut silent = silent;
    for connection in [&mut half, &mut silent] {
        let said = String::from_utf8(connection.until_closed()?)?;
        ensure!(
            said.is_empty() || said.starts_with("HTTP/1.1 408"),
            "{said:?}"
        );
    }
    // A head sent whole is served as before.
    let mut prompt = RawHttp::connect(server.addr())?;
    prompt.send(&raw_request("GET", "/healthz", &[&host(&server)], ""))?;
    ensure!(prompt.response()?.status == 200);
    server.stop()
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_and_the_request_cap_holds() -> Result<()> {
    const CAP: usize = 3;
    let dir = tempfile::tempdir()?;
    let server = Server::start(
        &dir.path().join("rules.sqlite3"),
        &[
            "--header-timeout",
            "300ms",
            "--max-requests-per-connection",
            &CAP.to_string(),
        ],
    )?;
    // Idle after one response: the same header timer closes the connection.
    let mut idle = RawHttp::connect(server.addr())?;
    idle.send(&raw_request("GET", "/healthz", &[&host(&server)], ""))?;
    let first = idle.response()?;
    ensure!(first.status == 200 && first.header("connection").is_none());
    ensure!(idle.until_closed()?.is_empty());

    // Up to the cap the connection stays open; the cap-th response closes it.
    let mut kept = RawHttp::connect(server.addr())?;
    let list = rpc_body("memory.tool_rule_list", json!({"tool_name": "bash"}));
    for request in 1..=CAP {
        kept.send(&raw_request("POST", "/rpc", &[&host(&server), JSON], &list))?;
        let response = kept.response()?;
        ensure!(response.status == 200, "request {request}: {response:?}");
        let closes = response.header("connection") == Some("close");
        ensure!(
            closes == (request == CAP),
            "request {request}: {response:?}"
        );
    }
    // One past the cap is not read: the connection is closed.
    let _ = kept.send(&raw_request("POST", "/rpc", &[&host(&server), JSON], &list));
    ensure!(kept.until_closed()?.is_empty());
    server.stop()
}

#[tokio::test]
async fn a_stalled_body_gets_408_and_stores_nothing() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(
        &dir.path().join("rules.sqlite3"),
        &["--body-timeout", "300ms"],
    )?;
    let put = rpc_body(
        "memory.tool_rule_put",
        json!({"tool_name": "bash", "rule": "stalled halfway"}),
    );
    let mut stalled = RawHttp::connect(server.addr())?;
    let request = raw_request("POST", "/rpc", &[&host(&server), JSON], &put);
    // Everything but the last 10 bytes of the body.
    stalled.send(&request[..request.len() - 10])?;
    let response = stalled.response()?;
    ensure!(response.status == 408, "{response:?}");
    ensure!(response.body.contains("--body-timeout"), "{response:?}");
    ensure!(stalled.until_closed()?.is_empty());
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "bash"}))
        .await?;
    ensure!(listed == json!([]), "{listed}");
    server.stop()
}

#[tokio::test]
async fn unauthenticated_or_oversized_uploads_are_refused_before_their_body() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(
        &dir.path().join("rules.sqlite3"),
        &["--token", "s3cret", "--max-body", "1000000"],
    )?;
    let head = |extra: &[&str], length: usize| {
        let mut text = format!(
            "POST /rpc HTTP/1.1\r\n{}\r\n{JSON}\r\ncontent-length: {length}\r\n",
            host(&server)
        );
        for line in extra {
            text.push_str(line);
            text.push_str("\r\n");
        }
        text.push_str("\r\n");
        text.into_bytes()
    };
    // (extra header lines, declared length, expected status)
    let cases: [(&[&str], usize, u16); 4] = [
        (&[], 900_000, 401),
        (&["authorization: Bearer wrong"], 900_000, 401),
        (
            &[
                "authorization: Bearer s3cret",
                "origin: http://attacker.example",
            ],
            900_000,
            403,
        ),
        // Authenticated, but the declared length is one past --max-body.
        (&["authorization: Bearer s3cret"], 1_000_001, 413),
    ];
    for (extra, length, expected) in cases {
        let mut upload = RawHttp::connect(server.addr())?;
        // The head and 64 KiB of the body in one write; the server may close before taking it
        // all, so a failed write is no failure.
        let mut partial = head(extra, length);
        partial.extend(vec![b'x'; 64 * 1024]);
        let _ = upload.send(&partial);
        // The answer comes before the rest of the body is sent.
        let response = upload.response()?;
        ensure!(response.status == expected, "{extra:?}: {response:?}");
        ensure!(response.header("connection") == Some("close"));
        upload.until_closed()?;
    }
    // At the limit, with the token, the body is read and the request runs.
    let body = rpc_body("memory.tool_rule_list", json!({"tool_name": "bash"}));
    let padded = format!("{body}{}", " ".repeat(1_000_000 - body.len()));
    let mut exact = RawHttp::connect(server.addr())?;
    exact.send(&raw_request(
        "POST",
        "/rpc",
        &[&host(&server), JSON, "authorization: Bearer s3cret"],
        &padded,
    ))?;
    let response = exact.response()?;
    ensure!(
        response.status == 200 && response.json()?["result"] == json!([]),
        "{response:?}"
    );

    // Many stalled unauthenticated uploads hold no memory: each is refused from its head and
    // closed (before the fix the server buffered them: 310 MB for 300).
    let before = resident_kib(server.pid())?;
    let mut stalled = Vec::new();
    for _ in 0..300 {
        let mut upload = RawHttp::connect(server.addr())?;
        let mut partial = head(&[], 900_000);
        partial.extend(vec![b'x'; 32 * 1024]);
        let _ = upload.send(&partial);
        stalled.push(upload);
    }
    for upload in &mut stalled {
        ensure!(upload.response()?.status == 401);
    }
    let after = resident_kib(server.pid())?;
    ensure!(
        after.saturating_sub(before) < 64 * 1024,
        "resident memory grew from {before} KiB to {after} KiB"
    );
    server.stop()
}

/// A process's resident set, from /proc.
fn resident_kib(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|line| line.starts_with("VmRSS:"))
        .context("VmRSS")?;
    Ok(line
        .split_whitespace()
        .nth(1)
        .context("VmRSS value")?
        .parse()?)
}

#[tokio::test]
async fn a_body_sent_in_chunks_is_cut_at_the_limit() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &["--max-body", "4096"])?;
    let send_chunked = |size: usize| -> Result<u16> {
        let mut connection = RawHttp::connect(server.addr())?;
        // A valid body padded with spaces (JSON allows them) to exactly `size` bytes.
        let body = rpc_body("memory.tool_rule_list", json!({"tool_name": "bash"}));
        let body = format!("{body}{}", " ".repeat(size - body.len()));
        connection.send(
            format!(
                "POST /rpc HTTP/1.1\r\n{}\r\n{JSON}\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
                host(&server),
                body.len()
            )
            .as_bytes(),
        )?;
        Ok(connection.response()?.status)
    };
    ensure!(send_chunked(4096)? == 200, "at the limit");
    ensure!(send_chunked(4097)? == 413, "one past the limit");
    server.stop()
}

#[tokio::test]
async fn a_head_is_served_up_to_its_limit_and_refused_past_it() -> Result<()> {
    // toolmem's MAX_HEAD_BYTES.
    const MAX_HEAD: usize = 64 * 1024;
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &[])?;
    let head_of = |size: usize| {
        let start = format!("GET /healthz HTTP/1.1\r\n{}\r\ncookie: ", host(&server));
        let padding = size - start.len() - 4;
        format!("{start}{}\r\n\r\n", "k".repeat(padding)).into_bytes()
    };
    for (size, expected) in [(MAX_HEAD, 200), (MAX_HEAD + 1, 431)] {
        let mut connection = RawHttp::connect(server.addr())?;
        let head = head_of(size);
        ensure!(head.len() == size);
        connection.send(&head)?;
        let response = connection.response()?;
        ensure!(response.status == expected, "{size}: {response:?}");
    }
    server.stop()
}

#[test]
fn the_connection_limit_must_fit_below_the_descriptor_limit() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    // 200 descriptors, soft and hard, leave 200 - 128 reserved = 72 connections.
    let start = |connections: &str| {
        let mut command = Command::new("prlimit");
        command
            .args(["--nofile=200:200", "--"])
            .arg(TOOLMEM)
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--max-connections",
                connections,
                "--db",
            ])
            .arg(&db);
        command
    };
    let at_limit = Server::spawn(start("72"))?;
    at_limit.stop()?;
    // One past it: an error before the server listens (a server that started anyway is
    // killed, and the test fails).
    let mut past = start("73")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut line = String::new();
    BufReader::new(past.stdout.take().context("stdout")?).read_line(&mut line)?;
    if !line.is_empty() {
        let _ = past.kill();
        let _ = past.wait();
        bail!("started past the descriptor limit: {line}");
    }
    let output = past.wait_with_output()?;
    ensure!(!output.status.success());
    let stderr = String::from_utf8(output.stderr)?;
    ensure!(
        stderr.contains("--max-connections 73") && stderr.contains("ulimit -n"),
        "{stderr}"
    );
    Ok(())
}
