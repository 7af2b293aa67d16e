//! A speed probe for the guard alone on the workloads of the bench's check rows
//! (`check_10/100/1000` and `check_shell_1000` of `cargo xtask bench`), for profiling one crate
//! without the facade: `cargo run --release -p tool_memory_guard --example check_speed
//! [CHECKS] [ROW]`. The rule texts and calls are those of `crates/toolmem_bench/src/run.rs`;
//! the shell call is given both as the facade hands it to the guard (the argv joined into one
//! command line) and as Codex's raw argv. Under callgrind, pass a small CHECKS and one ROW.
#![expect(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "a probe binary times the pure crate; the crate itself never reads the clock"
)]

use std::time::Instant;

use serde_json::{Value, json};
use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource};
use tool_memory_guard::{Decision, Guard};

/// Checks per run: the bench's 20,000.
const CHECKS: u32 = 20_000;
/// Runs per row; the median is printed, so one descheduled run does not count.
const RUNS: usize = 5;

fn rule(index: usize, tool: &str, text: String) -> ToolMemoryRule {
    let at = Timestamp::parse("2026-11-30T00:00:00Z").expect("valid timestamp");
    ToolMemoryRule {
        id: format!("r{index}"),
        tool_name: tool.to_owned(),
        rule: text,
        priority: ToolMemoryPriority::Critical,
        source: ToolMemorySource::UserExplicit,
        tags: Vec::new(),
        created_at: at,
        updated_at: at,
        meta: Default::default(),
    }
}

/// The bench's `shell_rule_text`: eight shapes of real instruction text.
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

struct Row {
    name: String,
    guard: Guard,
    tool: &'static str,
    call: Value,
}

/// The rows, each built only when `only` names it (or no row is named), so that a profile of
/// one row holds nothing of the others.
fn rows(only: Option<&str>) -> Vec<Row> {
    let wanted = |name: &str| only.is_none_or(|only| only == name);
    let mut rows = Vec::new();
    for count in [10, 100, 1000] {
        if !wanted(&format!("check_{count}")) {
            continue;
        }
        let rules = (0..count).map(|index| {
            rule(
                index,
                "guard",
                format!(
                    "Never email person{index} at person{index}@corp{}.example.",
                    index % 7
                ),
            )
        });
        rows.push(Row {
            name: format!("check_{count}"),
            guard: Guard::from_rules(rules),
            tool: "guard",
            call: json!({
                "to": ["Dana Scully <dana@fbi.example>"],
                "cc": "ops@corp3.example",
                "subject": "weekly report",
                "body": "Numbers attached; person12 is on leave, see the thread with corp1.example."
            }),
        });
    }
    let line =
        "npx prettier --check src/app.ts && git push origin feature/login-7 && cat docs/notes.md";
    for (name, command) in [
        ("check_shell_1000", json!(line)),
        ("check_shell_1000_argv", json!(["bash", "-lc", line])),
    ] {
        if !wanted(name) {
            continue;
        }
        let rules = (0..1000).map(|index| rule(index, "Bash", shell_rule_text(index)));
        rows.push(Row {
            name: name.to_owned(),
            guard: Guard::from_rules(rules),
            tool: "Bash",
            call: json!({"command": command, "workdir": "/repo"}),
        });
    }
    rows
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let checks: u32 = args
        .next()
        .map(|arg| arg.parse())
        .transpose()?
        .unwrap_or(CHECKS);
    let only = args.next();
    for row in rows(only.as_deref()) {
        let first = row.guard.check(row.tool, &row.call);
        if first.decision != Decision::Allow {
            return Err(format!("{}: the call must be allowed: {}", row.name, first.reason).into());
        }
        let mut per_check = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let started = Instant::now();
            for _ in 0..checks {
                std::hint::black_box(row.guard.check(
                    std::hint::black_box(row.tool),
                    std::hint::black_box(&row.call),
                ));
            }
            per_check.push(started.elapsed().as_secs_f64() * 1e6 / f64::from(checks));
        }
        per_check.sort_by(f64::total_cmp);
        let shown: Vec<String> = per_check.iter().map(|us| format!("{us:.2}")).collect();
        println!(
            "{}: median {:.2} us per check over {RUNS} runs of {checks} ({})",
            row.name,
            per_check[RUNS / 2],
            shown.join(", ")
        );
    }
    Ok(())
}
