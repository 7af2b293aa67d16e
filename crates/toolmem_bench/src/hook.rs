//! The `hook` row: `toolmem hook claude-code` as an agent runs it, one new process per tool
//! call, timed from spawn to exit, on the benchmark's database. The payload is a recorded
//! `PreToolUse` of one of the workload's tools, so each run opens the database, builds that
//! tool's guard (a process starts with no cache) and checks one call.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::json;

use crate::row::{Row, row};
use crate::workload::tool_name;

/// Spawns per run of the row by default (`--hook-spawns`). A spawn costs milliseconds, so 50
/// give a stable median in a fraction of a second.
pub(crate) const HOOK_SPAWNS: usize = 50;

/// Times `spawns` runs of the hook and reports their median (not their mean: one descheduled
/// spawn on a shared machine would move a mean by more than the hook costs).
pub(crate) fn hook_row(exe: &Path, db: &Path, total: usize, spawns: usize) -> Result<Row> {
    let payload = json!({
        "session_id": "bench",
        "transcript_path": "/nonexistent/bench.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool_name(0),
        "tool_input": {"target": "host7.example", "flags": ["--y1", "--verbose"]},
        "tool_use_id": "toolu_bench",
    })
    .to_string();
    let mut times = Vec::with_capacity(spawns);
    for _ in 0..spawns.max(1) {
        let started = Instant::now();
        let mut child = Command::new(exe)
            .arg("--db")
            .arg(db)
            .args(["hook", "claude-code"])
            .env_remove("TOOLMEM_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", exe.display()))?;
        child
            .stdin
            .take()
            .context("hook stdin")?
            .write_all(payload.as_bytes())?;
        let output = child.wait_with_output()?;
        times.push(started.elapsed());
        anyhow::ensure!(
            output.status.success() && output.stdout.is_empty(),
            "the bench call must be allowed silently: exit {:?}, {}{}",
            output.status.code(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    times.sort_unstable();
    let median: Duration = times[times.len() / 2];
    Ok(row("hook", 1, total, median))
}
