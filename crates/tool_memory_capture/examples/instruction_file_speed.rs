//! A quick speed probe for capture on the bench's pasted instruction file (the
//! `capture_instruction_file` row of `cargo xtask bench`), for profiling one crate without the
//! whole bench: `cargo run --release -p tool_memory_capture --example instruction_file_speed`.
#![expect(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "a probe binary times the pure crate; the crate itself never reads the clock"
)]

use std::time::Instant;

use tool_memory_capture::{ToolCallRecord, TurnRecord, capture_turn};
use tool_memory_core::Timestamp;

/// Turns per run: enough for a stable figure (well over a second at the old speed).
const TURNS: u32 = 5_000;
/// Runs per invocation; the median is printed, so one descheduled run does not count.
const RUNS: usize = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut turn = TurnRecord::new(include_str!(
        "../../toolmem_bench/fixtures/instruction_file.md"
    ));
    // Claude Code's built-in tools, as the bench's `instruction_file_fixture` names them.
    turn.available_tools =
        "Bash Read Edit MultiEdit Write Glob Grep WebFetch WebSearch TodoWrite Task"
            .split(' ')
            .map(str::to_owned)
            .collect();
    turn.tool_calls = vec![ToolCallRecord::new("Read", true, "Read: ok (2048 chars)")];
    let now = Timestamp::parse("2026-11-30T00:00:00Z")?;
    let turns: u32 = std::env::args()
        .nth(1)
        .map(|arg| arg.parse())
        .transpose()?
        .unwrap_or(TURNS);

    let mut rates = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        for _ in 0..turns {
            std::hint::black_box(capture_turn(std::hint::black_box(&turn), now));
        }
        rates.push(f64::from(turns) / started.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    let shown: Vec<String> = rates.iter().map(|rate| format!("{rate:.0}")).collect();
    println!(
        "capture_instruction_file: median {:.0} turns/s over {RUNS} runs of {turns} ({})",
        rates[RUNS / 2],
        shown.join(", ")
    );
    Ok(())
}
