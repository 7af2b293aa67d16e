//! Integration tests of the pinned prompt block, as one test binary: golden bytes from the
//! reference, named file snapshots, the budget, byte stability, the section and the lines of
//! unreadable rules.

mod budget;
mod golden;
mod properties;
mod section;
mod snapshots;
mod stability;
mod unconfirmed;
mod unreadable;

use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource};

/// Every rule in these tests carries the same instants, so nothing depends on the clock.
const FIXED_TIME: &str = "2026-05-11T00:00:00+00:00";

/// A rule with a fixed id, source and timestamps.
fn rule(id: &str, tool_name: &str, priority: ToolMemoryPriority, text: &str) -> ToolMemoryRule {
    let at = Timestamp::parse(FIXED_TIME).expect("the fixed timestamp is valid");
    ToolMemoryRule {
        id: id.to_owned(),
        tool_name: tool_name.to_owned(),
        rule: text.to_owned(),
        priority,
        source: ToolMemorySource::UserExplicit,
        tags: Vec::new(),
        created_at: at,
        updated_at: at,
        meta: Default::default(),
    }
}

fn critical(id: &str, tool_name: &str, text: &str) -> ToolMemoryRule {
    rule(id, tool_name, ToolMemoryPriority::Critical, text)
}

fn high(id: &str, tool_name: &str, text: &str) -> ToolMemoryRule {
    rule(id, tool_name, ToolMemoryPriority::High, text)
}

fn normal(id: &str, tool_name: &str, text: &str) -> ToolMemoryRule {
    rule(id, tool_name, ToolMemoryPriority::Normal, text)
}

/// A deterministic permutation of `rules` (Fisher-Yates driven by an LCG), so a failing
/// order can be replayed from its seed.
fn shuffled(rules: &[ToolMemoryRule], seed: u64) -> Vec<ToolMemoryRule> {
    let mut out = rules.to_vec();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    for index in (1..out.len()).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let other = ((state >> 33) % (index as u64 + 1)) as usize;
        out.swap(index, other);
    }
    out
}

fn ids(rules: &[ToolMemoryRule]) -> Vec<&str> {
    rules.iter().map(|rule| rule.id.as_str()).collect()
}

/// Snapshots a rendered block as `snapshots/it__{name}.snap`. insta trims trailing newlines
/// when it compares, so the block's ending, which is part of its contract, is checked here.
fn assert_block_snapshot(name: &str, description: &str, rendered: &str) {
    if !rendered.is_empty() {
        assert!(
            rendered.ends_with('\n') && !rendered.ends_with("\n\n"),
            "a block ends with exactly one newline: {rendered:?}"
        );
    }
    assert!(
        rendered.lines().all(|line| line == line.trim_end()),
        "no line has trailing whitespace: {rendered:?}"
    );
    insta::with_settings!({ description => description, omit_expression => true }, {
        insta::assert_snapshot!(name, rendered);
    });
}
