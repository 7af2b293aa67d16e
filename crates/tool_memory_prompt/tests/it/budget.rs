//! The byte budget: critical rules always in, the rest in sort order while they fit, and
//! everything left out both announced in the block and listed in the report.

use std::collections::BTreeMap;

use tool_memory_core::{ToolMemoryPriority, ToolMemoryRule, UNSCOPED_TOOL};
use tool_memory_prompt::{DEFAULT_PROMPT_BUDGET_BYTES, render_prompt};

use crate::{critical, high, ids, normal, rule};

fn notice_of(rendered: &str) -> Option<&str> {
    rendered.lines().last().filter(|line| line.starts_with('_'))
}

#[test]
fn default_budget_is_eight_kibibytes() {
    assert_eq!(DEFAULT_PROMPT_BUDGET_BYTES, 8192);
}

#[test]
fn fills_exactly_up_to_the_budget_without_a_notice() {
    let rules = [
        high("h1", "shell", "avoid sudo"),
        high("h2", "shell", "quote paths"),
    ];
    let whole = render_prompt(&rules, usize::MAX).rendered;
    let report = render_prompt(&rules, whole.len());
    assert_eq!(report.rendered, whole);
    assert!(report.left_out.is_empty());
    assert_eq!(notice_of(&report.rendered), None);
}

#[test]
fn a_rule_that_does_not_fit_does_not_block_shorter_ones() {
    let rules = [
        high("a", "shell", &"x".repeat(3000)),
        high("b", "shell", "quote paths"),
    ];
    let report = render_prompt(&rules, 1000);
    assert_eq!(ids(&report.included), ["b"]);
    assert_eq!(ids(&report.left_out), ["a"]);
}

#[test]
fn high_rules_fill_before_normal_ones() {
    let long = "a normal rule on a tool that sorts first ".repeat(8);
    let rules = [
        normal("n", "alpha", &long),
        high("h", "zulu", "a high rule on a tool that sorts last"),
    ];
    let whole = render_prompt(&rules, usize::MAX).rendered.len();
    let report = render_prompt(&rules, whole - 1);
    assert_eq!(ids(&report.included), ["h"]);
    assert_eq!(ids(&report.left_out), ["n"]);
    assert_eq!(
        notice_of(&report.rendered),
        Some(
            "_1 normal-priority rule left out of this block to keep it within its size budget; it can be recalled from the `tool-alpha` memory namespace via `memory_recall`._"
        )
    );
}

#[test]
fn announces_counts_and_namespaces_of_left_out_rules() {
    let rules = [
        high("h1", "shell", &"a".repeat(500)),
        high("h2", "web_search", &"b".repeat(500)),
        normal("n1", "shell", &"c".repeat(500)),
        normal("n2", "shell", &"d".repeat(500)),
    ];
    let report = render_prompt(&rules, 700);
    assert!(report.included.is_empty());
    assert_eq!(ids(&report.left_out), ["h1", "n1", "n2", "h2"]);
    assert_eq!(
        notice_of(&report.rendered),
        Some(
            "_2 high-priority rules and 2 normal-priority rules left out of this block to keep it within its size budget; they can be recalled from the `tool-shell`, `tool-web_search` memory namespaces via `memory_recall`._"
        )
    );
    // With nothing to show, the block is the heading, the preamble and the notice.
    assert_eq!(report.rendered.lines().count(), 5);
    assert!(!report.critical_over_budget);
}

#[test]
fn announces_a_single_left_out_rule_in_the_singular() {
    let rules = [
        critical("c1", "shell", "never run rm -rf /"),
        high(
            "h1",
            UNSCOPED_TOOL,
            &"answer in British English ".repeat(20),
        ),
    ];
    let report = render_prompt(&rules, 700);
    assert_eq!(ids(&report.left_out), ["h1"]);
    assert_eq!(
        notice_of(&report.rendered),
        Some(
            "_1 high-priority rule left out of this block to keep it within its size budget; it can be recalled from the `tool-__unscoped__` memory namespace via `memory_recall`._"
        )
    );
    assert!(report.rendered.len() <= 700);
}

/// A tiny deterministic generator for random rule sets.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % below as u64) as usize
    }
}

fn random_rules(random: &mut Lcg) -> Vec<ToolMemoryRule> {
    const TOOLS: [&str; 4] = ["shell", "send_email", "__unscoped__", "web_search"];
    const PRIORITIES: [ToolMemoryPriority; 3] = ToolMemoryPriority::ALL;
    (0..random.next(25))
        .map(|n| {
            let text = format!("rule {n} {}", "word ".repeat(random.next(60)));
            rule(
                &format!("id{n}"),
                TOOLS[random.next(TOOLS.len())],
                PRIORITIES[random.next(PRIORITIES.len())],
                &text,
            )
        })
        .collect()
}

#[test]
fn never_drops_a_critical_rule_and_never_exceeds_the_budget_otherwise() {
    let mut random = Lcg(42);
    for case in 0..500 {
        let rules = random_rules(&mut random);
        let budget = 300 + random.next(4000);
        let report = render_prompt(&rules, budget);
        let context = format!("case {case}, budget {budget}");

        // Every input rule is either included or left out, exactly once.
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for rule in report.included.iter().chain(&report.left_out) {
            *seen.entry(rule.id.as_str()).or_default() += 1;
        }
        assert_eq!(seen.len(), rules.len(), "{context}");
        assert!(seen.values().all(|&count| count == 1), "{context}");

        for rule in &rules {
            if rule.priority == ToolMemoryPriority::Critical {
                assert!(report.included.contains(rule), "{context}: {}", rule.id);
            }
        }
        assert!(
            report
                .left_out
                .iter()
                .all(|rule| rule.priority != ToolMemoryPriority::Critical),
            "{context}"
        );
        assert_eq!(
            report.critical_over_budget,
            report.rendered.len() > budget,
            "{context}"
        );
        // Critical rules alone decide whether the block can overflow. A notice about at most
        // 25 rules in at most 4 namespaces is well under 400 bytes.
        let criticals: Vec<ToolMemoryRule> = rules
            .iter()
            .filter(|rule| rule.priority == ToolMemoryPriority::Critical)
            .cloned()
            .collect();
        let criticals_alone = render_prompt(&criticals, usize::MAX).rendered.len();
        if criticals_alone.max(312) + 400 <= budget {
            assert!(!report.critical_over_budget, "{context}");
        }
        if criticals_alone > budget {
            assert!(report.critical_over_budget, "{context}");
        }
        assert_eq!(
            notice_of(&report.rendered).is_some(),
            !report.left_out.is_empty(),
            "{context}"
        );
        // The block without its notice is exactly the unbounded render of what went in.
        let unbounded = render_prompt(&report.included, usize::MAX).rendered;
        if report.left_out.is_empty() {
            assert_eq!(report.rendered, unbounded, "{context}");
        } else if !report.included.is_empty() {
            assert!(report.rendered.starts_with(&unbounded), "{context}");
        }
    }
}

#[test]
fn reports_only_critical_overflow() {
    let rules = [
        critical("c1", "shell", &"never ".repeat(200)),
        high("h1", "shell", "avoid sudo"),
    ];
    let report = render_prompt(&rules, 600);
    assert!(report.critical_over_budget);
    assert_eq!(ids(&report.included), ["c1"]);
    assert_eq!(ids(&report.left_out), ["h1"]);
    assert_eq!(report.budget_bytes, 600);
    let report = render_prompt(&rules, DEFAULT_PROMPT_BUDGET_BYTES);
    assert!(!report.critical_over_budget);
    assert!(report.left_out.is_empty());
}
