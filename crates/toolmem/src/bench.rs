//! The standard benchmark workload behind `cargo xtask bench` (`toolmem bench`): the operations
//! users feel, through the facade on a file-backed SQLite database with the default durability,
//! the same path the server uses minus HTTP, plus capture, RPC over loopback and peak memory.
//! The JSON lines it prints are the contract; see docs/performance.md.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Origin, RulePut, Timestamp, ToolCallRecord,
    ToolMemoryPriority, ToolMemorySource, TurnRecord, capture_turn,
};
use anyhow::{Context, Result};
use memory_rpc::RpcHandler;
use serde::Serialize;
use serde_json::json;

/// What to run.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// Tools in the store (`tool_000` ..).
    pub tools: usize,
    /// Rules per tool; 50 is the 10,000-rule run, 500 the 100,000-rule run.
    pub per_tool: usize,
    /// Runs of the whole workload; each row reports the median over runs.
    pub runs: usize,
    /// Turns for the capture row.
    pub capture_turns: usize,
    /// Requests for the RPC `get` row (a tenth of that for `prompt`); 0 skips RPC.
    pub rpc_requests: usize,
    /// The `toolmem` executable to measure peak server memory with; `None` skips that row.
    pub server_exe: Option<PathBuf>,
    /// A PostgreSQL URL to run against instead of a temporary SQLite file (in a schema of its
    /// own, dropped afterwards); the server memory row is then left out.
    pub postgres: Option<String>,
    /// Also run put, upsert, get and delete against a bare SQLite key/value table in the
    /// reference's layout (rows with `impl` `sqlite_kv`; SQLite runs only): the floor of that
    /// layout at the same moment.
    pub baseline: bool,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            tools: 200,
            per_tool: 50,
            runs: 3,
            capture_turns: 20_000,
            rpc_requests: 20_000,
            server_exe: std::env::current_exe().ok(),
            postgres: None,
            baseline: true,
        }
    }
}

/// One result line. Every row has the same fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// What was measured: `toolmem`, or `sqlite_kv` for the baseline rows; results from other
    /// implementations can share a file.
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// The operation.
    pub op: String,
    /// How many operations were timed.
    pub n: usize,
    /// Rules in the store when it ran.
    pub rules: usize,
    /// Median microseconds per operation over the runs (`null` for the memory row).
    pub us_per_op: Option<f64>,
    /// Peak resident memory of the server process, KiB (only on the memory row).
    pub peak_rss_kib: Option<u64>,
}

/// Runs the workload `options.runs` times and returns one row per operation (medians).
pub async fn run(options: &BenchOptions) -> Result<Vec<Row>> {
    let mut samples: Vec<Vec<Row>> = Vec::new();
    for _ in 0..options.runs.max(1) {
        samples.push(run_once(options).await?);
    }
    let mut rows = samples[0].clone();
    for (index, row) in rows.iter_mut().enumerate() {
        let mut values: Vec<f64> = samples
            .iter()
            .filter_map(|run| run.get(index).and_then(|row| row.us_per_op))
            .collect();
        values.sort_by(f64::total_cmp);
        row.us_per_op = values.get(values.len() / 2).copied();
        let mut rss: Vec<u64> = samples
            .iter()
            .filter_map(|run| run.get(index).and_then(|row| row.peak_rss_kib))
            .collect();
        rss.sort_unstable();
        row.peak_rss_kib = rss.get(rss.len() / 2).copied();
    }
    Ok(rows)
}

pub(crate) fn row(op: &str, n: usize, rules: usize, elapsed: Duration) -> Row {
    Row {
        implementation: "toolmem",
        op: op.to_owned(),
        n,
        rules,
        us_per_op: Some(elapsed.as_secs_f64() * 1e6 / n.max(1) as f64),
        peak_rss_kib: None,
    }
}

/// The text of rule `j` of tool `t`, as the issue fixes it.
pub(crate) fn rule_text(tool: usize, index: usize) -> String {
    format!("rule {tool}-{index}: never pass --x{index} when the target is host{tool}.example")
}

pub(crate) fn priority(tool: usize, index: usize) -> ToolMemoryPriority {
    if index == 0 && tool.is_multiple_of(10) {
        ToolMemoryPriority::Critical
    } else if index == 1 {
        ToolMemoryPriority::High
    } else {
        ToolMemoryPriority::Normal
    }
}

async fn run_once(options: &BenchOptions) -> Result<Vec<Row>> {
    let dir = tempfile_dir()?;
    let db = dir.join("bench.sqlite3");
    let (client, postgres) = match &options.postgres {
        Some(url) => crate::bench_pg::open(url)
            .await
            .map(|(client, store)| (client, Some(store)))?,
        None => (
            ActiveMemoryClient::open_sqlite(&db)?.with_config(ClientConfig::default()),
            None,
        ),
    };
    let total = options.tools * options.per_tool;
    let mut rows = Vec::new();

    // put: every rule, one call each, in order.
    let mut keys = Vec::with_capacity(total);
    let started = Instant::now();
    for tool in 0..options.tools {
        let tool_name = format!("tool_{tool:03}");
        for index in 0..options.per_tool {
            let stored = client
                .put(
                    RulePut::new(&tool_name, rule_text(tool, index))
                        .with_priority(priority(tool, index))
                        .with_source(ToolMemorySource::Programmatic)
                        .with_tags(["bench"]),
                )
                .await?;
            keys.push((stored.tool_name, stored.id));
        }
    }
    rows.push(row("put", total, total, started.elapsed()));

    // upsert: every 10th rule, read, edited, written back.
    let every_tenth: Vec<&(String, String)> = keys.iter().step_by(10).collect();
    let started = Instant::now();
    for (tool, id) in &every_tenth {
        let rule = client.get(tool, id).await?.context("rule to upsert")?;
        client
            .put(
                RulePut::new(tool.as_str(), format!("{} (edited)", rule.rule)).with_id(id.as_str()),
            )
            .await?;
    }
    rows.push(row("upsert", every_tenth.len(), total, started.elapsed()));

    // get: every rule by (tool, id).
    let started = Instant::now();
    for (tool, id) in &keys {
        client.get(tool, id).await?.context("rule to get")?;
    }
    rows.push(row("get", keys.len(), total, started.elapsed()));

    // list: 1,000 listings of tool (i * 7) % tools.
    let started = Instant::now();
    for listing in 0..1000 {
        let tool = format!("tool_{:03}", (listing * 7) % options.tools);
        let listed = client.list(&tool).await?;
        debug_assert_eq!(listed.len(), options.per_tool);
    }
    rows.push(row("list", 1000, total, started.elapsed()));

    // prompt: the session-start path, eager rules of every tool plus the rendered block.
    let started = Instant::now();
    for _ in 0..20 {
        let prompt = client.rules_for_prompt(&[]).await?;
        debug_assert!(!prompt.rendered.is_empty());
    }
    rows.push(row("prompt", 20, total, started.elapsed()));

    // prompt_after_write: the same, each call preceded by an untimed write, so the store's
    // eager-rule cache never helps: the cost of a session start right after a change.
    let mut elapsed = Duration::ZERO;
    for round in 0..20 {
        client
            .put(RulePut::new("tool_000", format!("scratch note {round}")).with_id("bench-scratch"))
            .await?;
        let started = Instant::now();
        let prompt = client.rules_for_prompt(&[]).await?;
        elapsed += started.elapsed();
        debug_assert!(!prompt.rendered.is_empty());
    }
    client
        .delete("tool_000", "bench-scratch", &Origin::Api)
        .await?;
    rows.push(row("prompt_after_write", 20, total, elapsed));

    // delete: every 10th rule, right after the other write rows and under the same conditions.
    // (It once ran after the server memory row, whose seconds of idling let this VM kind's
    // proactive reclaim drop the file cache, so it measured the rereads.) The rules are read
    // before and put back after, untimed, so the rows below still run on the full store.
    let mut deleted = Vec::with_capacity(every_tenth.len());
    for (tool, id) in &every_tenth {
        deleted.push(client.get(tool, id).await?.context("rule to delete")?);
    }
    let started = Instant::now();
    for (tool, id) in &every_tenth {
        client.delete(tool, id, &Origin::Api).await?;
    }
    rows.push(row("delete", every_tenth.len(), total, started.elapsed()));
    client.import_verbatim(deleted, &Origin::Api).await?;

    // capture: a 500-character message with five tool calls, pure.
    let turn = capture_turn_fixture();
    let now = Timestamp::parse("2026-11-30T00:00:00Z")?;
    let started = Instant::now();
    for _ in 0..options.capture_turns {
        std::hint::black_box(capture_turn(std::hint::black_box(&turn), now));
    }
    rows.push(row(
        "capture",
        options.capture_turns,
        total,
        started.elapsed(),
    ));

    if options.rpc_requests > 0 {
        rows.extend(rpc_rows(&client, &keys, options.rpc_requests, total).await?);
    }
    if let Some(exe) = options.server_exe.as_ref().filter(|_| postgres.is_none()) {
        rows.push(peak_rss_row(exe, &db, total).await?);
    }

    // check: guard verdicts through the facade against 10, 100 and 1,000 rules on one tool,
    // last because its rules would change what the rows above measure.
    for rules in [10, 100, 1000] {
        rows.push(check_row(&client, rules, options.capture_turns, total).await?);
    }
    drop(client);
    if let Some(store) = postgres {
        store.drop_schema().await?;
    }
    let baseline = if options.baseline && options.postgres.is_none() {
        let path = dir.join("baseline.sqlite3");
        let (tools, per_tool) = (options.tools, options.per_tool);
        Some(
            tokio::task::spawn_blocking(move || crate::bench_kv::rows(&path, tools, per_tool))
                .await,
        )
    } else {
        None
    };
    // Removed whether or not the baseline ran through.
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(baseline) = baseline {
        rows.extend(baseline??);
    }
    Ok(rows)
}

/// Times `checks` allowed calls of a tool holding `rules` critical rules that each name a
/// person and an address. An allowed call writes nothing; a denied or confirmed one also
/// appends an audit line (one history write), which this row leaves out on purpose.
async fn check_row(
    client: &ActiveMemoryClient,
    rules: usize,
    checks: usize,
    total: usize,
) -> Result<Row> {
    let tool = format!("guard_{rules}");
    for index in 0..rules {
        client
            .put(
                RulePut::new(
                    &tool,
                    format!(
                        "Never email person{index} at person{index}@corp{}.example.",
                        index % 7
                    ),
                )
                .with_priority(ToolMemoryPriority::Critical),
            )
            .await?;
    }
    let call = json!({
        "to": ["Dana Scully <dana@fbi.example>"],
        "cc": "ops@corp3.example",
        "subject": "weekly report",
        "body": "Numbers attached; person12 is on leave, see the thread with corp1.example."
    });
    // Build the guard once before timing, as a long-running agent would have.
    let first = client.check(&tool, &call).await?;
    anyhow::ensure!(
        first.decision == active_memory_client::Decision::Allow,
        "bench call must be allowed: {}",
        first.reason
    );
    let started = Instant::now();
    for _ in 0..checks {
        std::hint::black_box(client.check(&tool, std::hint::black_box(&call)).await?);
    }
    Ok(row(
        &format!("check_{rules}"),
        checks,
        total,
        started.elapsed(),
    ))
}

/// A turn like the ones capture sees: about 500 characters of user text holding one edict,
/// and five tool calls of which two failures of one tool.
fn capture_turn_fixture() -> TurnRecord {
    let mut message = String::from(
        "Thanks for the summary of yesterday's incident, it reads well. Please attach the \
         graphs from the dashboard and the timeline we agreed on, then send it to the whole \
         on-call rotation before the retro starts at three. Never email Sarah at \
         sarah@example.com about this one, she is on leave until Monday. Also check that the \
         staging deploy finished and paste the last twenty lines of the log into the ticket \
         so the reviewers can see what happened with the migration step.",
    );
    message.truncate(500);
    let mut turn = TurnRecord::new(message);
    turn.available_tools = ["send_email", "bash", "browser", "calendar", "jira"]
        .map(str::to_owned)
        .to_vec();
    turn.tool_calls = vec![
        ToolCallRecord::new("bash", false, "bash: failed (timeout)"),
        ToolCallRecord::new("browser", true, "browser: ok (5120 chars)"),
        ToolCallRecord::new("bash", false, "bash: failed (timeout)"),
        ToolCallRecord::new("jira", true, "jira: ok (210 chars)"),
        ToolCallRecord::new("send_email", true, "send_email: ok (48 chars)"),
    ];
    turn
}

/// Requests per second over HTTP on loopback, four concurrent connections, in one process.
async fn rpc_rows(
    client: &ActiveMemoryClient,
    keys: &[(String, String)],
    requests: usize,
    total: usize,
) -> Result<Vec<Row>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/rpc", listener.local_addr()?);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(crate::serve::serve_on(
        listener,
        RpcHandler::new(client.clone()),
        crate::serve::HttpOptions::default(),
        async move {
            let _ = stopped.await;
        },
    ));
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
    let _ = stop.send(());
    server.await??;
    Ok(rows)
}

/// Starts the real server on the benchmark database, asks it for the session-start block and a
/// listing of every tool, and reads its peak resident memory.
async fn peak_rss_row(exe: &std::path::Path, db: &std::path::Path, total: usize) -> Result<Row> {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", exe.display()))?;
    let mut lines = tokio::io::BufReader::new(child.stdout.take().context("stdout")?).lines();
    let line = lines.next_line().await?.context("server printed nothing")?;
    let base = line
        .trim()
        .strip_prefix("toolmem listening on ")
        .context("listening line")?
        .to_owned();
    let http = reqwest::Client::new();
    let call = |method: &str, params: serde_json::Value| {
        http.post(format!("{base}/rpc"))
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
            json!({"tool_name": format!("tool_{tool:03}")}),
        )
        .await?
        .bytes()
        .await?;
    }
    let pid = child.id().context("server pid")?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok());
    child.kill().await?;
    Ok(Row {
        implementation: "toolmem",
        op: "server_peak_rss".to_owned(),
        n: 1,
        rules: total,
        us_per_op: None,
        peak_rss_kib: peak,
    })
}

fn tempfile_dir() -> Result<PathBuf> {
    let dir =
        std::env::temp_dir().join(format!("toolmem-bench-{}-{}", std::process::id(), unique()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn unique() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or_default()
}

/// Prints rows as a table, or as JSON lines with `json`.
pub fn print(rows: &[Row], json: bool) {
    if json {
        for row in rows {
            println!("{}", serde_json::to_string(row).expect("rows serialise"));
        }
        return;
    }
    println!(
        "{:<20} {:>8} {:>8} {:>12} {:>12}",
        "op", "n", "rules", "us/op", "ops/s"
    );
    for row in rows {
        let op = if row.implementation == "toolmem" {
            row.op.clone()
        } else {
            format!("{} ({})", row.op, row.implementation)
        };
        match (row.us_per_op, row.peak_rss_kib) {
            (Some(us), _) => println!(
                "{:<20} {:>8} {:>8} {:>12.2} {:>12.0}",
                op,
                row.n,
                row.rules,
                us,
                1e6 / us
            ),
            (None, Some(kib)) => {
                println!(
                    "{:<20} {:>8} {:>8} {:>12} {:>9} KiB",
                    op, row.n, row.rules, "-", kib
                );
            }
            (None, None) => println!("{:<20} {:>8} {:>8} {:>12}", op, row.n, row.rules, "n/a"),
        }
    }
}
