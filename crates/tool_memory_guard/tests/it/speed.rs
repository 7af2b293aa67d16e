//! Prints the per-check time at 10, 100 and 1,000 rules on one tool. Never asserts on time:
//! run `cargo test --release -p tool_memory_guard -- --ignored --nocapture speed` to read it.

use std::hint::black_box;

use serde_json::json;
use tool_memory_core::{ToolMemoryPriority, ToolMemoryRule};
use tool_memory_guard::{Decision, Guard};

use crate::api::rule;

/// A distinct capitalised name per index: `Bacd`, `Cabe`...
fn name(index: usize) -> String {
    let letters: Vec<char> = "abcdefghijklmnopqrstuvwxyz".chars().collect();
    let mut rest = index;
    let mut out = String::from("N");
    for _ in 0..4 {
        out.push(letters[rest % 26]);
        rest /= 26;
    }
    out
}

/// A realistic mix: addresses, names, domains, commands, paths, quoted text, a requirement
/// every tenth rule... and one advisory rule in fifty.
fn rules(count: usize) -> Vec<ToolMemoryRule> {
    (0..count)
        .map(|index| {
            let text = match index % 10 {
                0 => format!("never email person{index}@example{index}.com"),
                1 => format!("never email {}", name(index)),
                2 => format!("never email anyone at blocked{index}.io"),
                3 => format!("never run tool{index} --force"),
                4 => format!("never write to /srv/data{index}"),
                5 => format!("never mention \"codename {index}\""),
                6 => format!("never open https://site{index}.com/admin"),
                7 if index % 50 == 7 => "keep it short".to_owned(),
                7 => format!("never cc audit{index}@corp.com"),
                8 => format!("don't send anything to team{index}@lists.corp.com"),
                _ => format!("never post in #channel{index}"),
            };
            rule(
                &format!("r{index}"),
                "send_email",
                &text,
                ToolMemoryPriority::Critical,
            )
        })
        .collect()
}

#[test]
#[ignore = "prints timings; run in release with --ignored --nocapture"]
#[expect(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "prints timings for a person to read and never asserts on them; the guard itself reads no clock"
)]
fn speed_report() {
    use std::time::Instant;

    let calls = [
        json!({"to": "alice@partner.com", "cc": ["bob@partner.com"], "subject": "Quarterly report", "body": "Hi Alice, attached is the quarterly report. Let me know if anything looks off. Thanks!"}),
        json!({"to": "person500@example500.com", "subject": "hi", "body": "hello"}),
        json!({"to": "Nlaaa <p@x.com>", "subject": "codename 5 status", "body": "see https://site6.com/admin/x"}),
    ];
    for count in [10, 100, 1_000] {
        let build_start = Instant::now();
        let guard = Guard::from_rules(rules(count));
        let build = build_start.elapsed();
        for (index, call) in calls.iter().enumerate() {
            let iterations = 20_000;
            let start = Instant::now();
            let mut denied = 0;
            for _ in 0..iterations {
                let verdict = guard.check(black_box("send_email"), black_box(call));
                denied += usize::from(verdict.decision == Decision::Deny);
            }
            let per_check = start.elapsed() / iterations;
            println!(
                "guard speed: {count:>5} rules, call {index}: {per_check:?} per check (build {build:?}, denied {denied})"
            );
        }
    }
}
