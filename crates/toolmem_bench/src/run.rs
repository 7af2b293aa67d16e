//! The workload itself: `runs` runs of every row, each on a fresh store, and the median of
//! each row over the runs. Most rows call the facade in-process; the HTTP and server memory
//! rows go to the real server (`server`), the baseline rows to a bare table (`baseline`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Origin, RulePut, Timestamp, ToolCallRecord,
    ToolMemoryPriority, ToolMemorySource, TurnRecord, capture_turn,
};
use anyhow::{Context, Result};
use serde_json::json;

use crate::row::{Row, row};
use crate::workload::{priority, rule_text, tool_name};

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
    /// The `toolmem` executable that serves the HTTP rows, whose peak memory the memory row
    /// measures and which the hook row spawns. Needed when any of them runs; the workload fails
    /// up front without it.
    pub server_exe: Option<PathBuf>,
    /// Spawns of `toolmem hook` per run for the hook row (SQLite runs only); 0 skips the row.
    pub hook_spawns: usize,
    /// Whether to run the server memory row (never on PostgreSQL).
    pub peak_rss: bool,
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
            server_exe: None,
            hook_spawns: crate::hook::HOOK_SPAWNS,
            peak_rss: true,
            postgres: None,
            baseline: true,
        }
    }
}

impl BenchOptions {
    /// Whether a row of these options starts the `toolmem` executable: the HTTP rows, and on
    /// SQLite the server memory and hook rows.
    pub fn needs_server(&self) -> bool {
        self.rpc_requests > 0
            || (self.postgres.is_none() && (self.peak_rss || self.hook_spawns > 0))
    }
}

/// Runs the workload `options.runs` times and returns one row per operation (medians).
pub async fn run(options: &BenchOptions) -> Result<Vec<Row>> {
    anyhow::ensure!(
        options.server_exe.is_some() || !options.needs_server(),
        "the HTTP, server memory and hook rows need the toolmem executable (server_exe); \
         skip them (no RPC requests, no peak memory, no hook spawns) or name it"
    );
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

async fn run_once(options: &BenchOptions) -> Result<Vec<Row>> {
    let dir = tempfile_dir()?;
    let db = dir.join("bench.sqlite3");
    let (client, postgres) = match &options.postgres {
        Some(url) => crate::postgres::open(url)
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
        let name = tool_name(tool);
        for index in 0..options.per_tool {
            let stored = client
                .put(
                    RulePut::new(&name, rule_text(tool, index))
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
        let tool = tool_name((listing * 7) % options.tools);
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

    // capture_instruction_file: a pasted 2,000-character CLAUDE.md with a dozen rules in
    // markdown (bullets, bold, code spans, a `Do not:` list), on Claude Code's catalogue.
    let turn = instruction_file_fixture();
    let started = Instant::now();
    for _ in 0..options.capture_turns {
        std::hint::black_box(capture_turn(std::hint::black_box(&turn), now));
    }
    rows.push(row(
        "capture_instruction_file",
        options.capture_turns,
        total,
        started.elapsed(),
    ));

    if let Some(exe) = options.server_exe.as_deref() {
        if options.rpc_requests > 0 {
            // The server opens the same database: the SQLite file, or the run's schema.
            let served: std::ffi::OsString = match &postgres {
                Some(store) => crate::postgres::url_in_schema(
                    options.postgres.as_deref().context("PostgreSQL URL")?,
                    store.schema().context("the run's schema")?,
                )
                .into(),
                None => db.clone().into_os_string(),
            };
            rows.extend(
                crate::server::rpc_rows(exe, &served, &keys, options.rpc_requests, total).await?,
            );
        }
        if options.peak_rss && postgres.is_none() {
            rows.push(crate::server::peak_rss_row(exe, &db, total).await?);
        }
        if postgres.is_none() && options.hook_spawns > 0 {
            let (exe, db, spawns) = (exe.to_owned(), db.clone(), options.hook_spawns);
            rows.push(
                tokio::task::spawn_blocking(move || {
                    crate::hook::hook_row(&exe, &db, total, spawns)
                })
                .await??,
            );
        }
    }

    // check: guard verdicts through the facade against 10, 100 and 1,000 rules on one tool,
    // last because its rules would change what the rows above measure.
    for rules in [10, 100, 1000] {
        rows.push(check_row(&client, rules, options.capture_turns, total).await?);
    }
    rows.push(check_shell_row(&client, 1000, options.capture_turns, total).await?);
    drop(client);
    if let Some(store) = postgres {
        store.drop_schema().await?;
    }
    let baseline = if options.baseline && options.postgres.is_none() {
        let path = dir.join("baseline.sqlite3");
        let (tools, per_tool) = (options.tools, options.per_tool);
        Some(
            tokio::task::spawn_blocking(move || crate::baseline::rows(&path, tools, per_tool))
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

/// Times `checks` allowed Codex-shaped shell calls (`["bash", "-lc", ...]`, a runner and a
/// chain) against `rules` critical rules on Claude Code's `Bash`, written the way people write
/// them in CLAUDE.md and AGENTS.md: bold, code spans, lists of commands, globs, wrappers,
/// branches, hosts, ids. The call is in Codex's argv shape; the facade gives the guard the
/// called tool's rules, so the rules and the call share the tool.
async fn check_shell_row(
    client: &ActiveMemoryClient,
    rules: usize,
    checks: usize,
    total: usize,
) -> Result<Row> {
    for index in 0..rules {
        client
            .put(
                RulePut::new("Bash", shell_rule_text(index))
                    .with_priority(ToolMemoryPriority::Critical),
            )
            .await?;
    }
    let call = json!({
        "command": [
            "bash",
            "-lc",
            "npx prettier --check src/app.ts && git push origin feature/login-7 && cat docs/notes.md"
        ],
        "workdir": "/repo"
    });
    let first = client.check("Bash", &call).await?;
    anyhow::ensure!(
        first.decision == active_memory_client::Decision::Allow,
        "bench call must be allowed: {}",
        first.reason
    );
    let started = Instant::now();
    for _ in 0..checks {
        std::hint::black_box(client.check("Bash", std::hint::black_box(&call)).await?);
    }
    Ok(row(
        &format!("check_shell_{rules}"),
        checks,
        total,
        started.elapsed(),
    ))
}

/// The `index`th rule of the shell row: eight shapes of real instruction text, each naming
/// literals of its own.
fn shell_rule_text(index: usize) -> String {
    match index % 8 {
        0 => format!("- **NEVER** run `tool{index} deploy` from a dev machine."),
        1 => format!("Never open `~/.vault{index}/*`, `*.key{index}` or `secrets{index}/**`."),
        2 => format!("Don't use `pm{index} install` or `yarn{index}`; we use pnpm."),
        3 => format!("Never push directly to `release-{index}`; open a PR."),
        4 => format!("Check with me before `kubectl delete ns team-{index}`."),
        5 => format!("Never ssh into `host-{index}`."),
        6 => format!("| `docker volume rm vol{index}` | never |"),
        _ => format!("Leave INC-{index} alone, the SRE team owns it."),
    }
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

/// A turn that pastes an instruction file of about 2,000 characters
/// (`fixtures/instruction_file.md`), with Claude Code's built-in tools as the catalogue.
fn instruction_file_fixture() -> TurnRecord {
    let mut turn = TurnRecord::new(include_str!("../fixtures/instruction_file.md"));
    turn.available_tools = [
        "Bash",
        "Read",
        "Edit",
        "MultiEdit",
        "Write",
        "Glob",
        "Grep",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "Task",
    ]
    .map(str::to_owned)
    .to_vec();
    turn.tool_calls = vec![ToolCallRecord::new("Read", true, "Read: ok (2048 chars)")];
    turn
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
