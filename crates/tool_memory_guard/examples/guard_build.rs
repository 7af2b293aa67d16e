//! A probe of the hook's guard build: `Guard::from_stored` over a tool's stored rules, their
//! constraints as a put stored them (the bench's workload: 51 rules of `tool_000`, the 50 of
//! `rule_text` and a scratch note). Under callgrind, count `Guard::from_stored`:
//! `valgrind --tool=callgrind --toggle-collect='tool_memory_guard::guard::Guard::from_stored'
//! target/release/examples/guard_build [BUILDS]`.

use tool_memory_core::{RulePut, Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource};
use tool_memory_guard::{Guard, constrain_put};

fn stored(index: usize, text: String) -> ToolMemoryRule {
    let at = Timestamp::parse("2026-12-01T00:00:00Z").expect("valid timestamp");
    let put = constrain_put(RulePut::new("tool_000", text.clone())).expect("a derived put");
    let mut rule = ToolMemoryRule {
        id: format!("r{index}"),
        tool_name: "tool_000".to_owned(),
        rule: text,
        priority: ToolMemoryPriority::Normal,
        source: ToolMemorySource::Programmatic,
        tags: vec!["bench".to_owned()],
        created_at: at,
        updated_at: at,
        meta: Default::default(),
    };
    rule.meta.constraint = put.constraint;
    rule
}

#[expect(
    clippy::disallowed_methods,
    reason = "a probe run by hand reads its arguments; the library stays pure"
)]
fn main() {
    let builds: usize = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(100);
    let mut rules: Vec<ToolMemoryRule> = (0..50)
        .map(|index| {
            stored(
                index,
                format!("rule 0-{index}: never pass --x{index} when the target is host0.example"),
            )
        })
        .collect();
    rules.push(stored(50, "scratch note 0".to_owned()));
    let mut total = 0;
    for _ in 0..builds {
        total += Guard::from_stored(rules.iter().cloned()).len();
    }
    println!("{builds} builds, {total} rules");
}
