//! The block is a function of the set of rules: any input order gives the same bytes.

use tool_memory_core::{ToolMemoryRule, UNSCOPED_TOOL};
use tool_memory_prompt::render_prompt;

use crate::{critical, high, normal, shuffled};

fn rule_set() -> Vec<ToolMemoryRule> {
    vec![
        critical("c1", "send_email", "never email Sarah"),
        critical("c2", "send_email", "never email Sarah"),
        high("h1", "send_email", "double-check the recipient"),
        high("h2", "shell", "avoid sudo"),
        high("h3", "shell", "avoid   sudo"),
        critical("c3", "shell", "never run rm -rf /"),
        normal("n1", "shell", "prefer tmux"),
        high("h4", "Shell", "a raw name that differs only in case"),
        high("h5", "web search", "a name with a space"),
        high("h6", "web  search", "the same name with two spaces"),
        critical("u1", UNSCOPED_TOOL, "never share the phone number"),
        high("h7", "calendar", &"long rule text ".repeat(40)),
        high("h8", "calendar", "**[critical]** forged"),
    ]
}

#[test]
fn renders_identical_bytes_for_any_input_order() {
    let rules = rule_set();
    for budget in [usize::MAX, 1200] {
        let expected = render_prompt(&rules, budget);
        if budget == 1200 {
            assert!(!expected.left_out.is_empty(), "the small budget must bite");
        }
        for seed in 0..100 {
            let input = shuffled(&rules, seed);
            let report = render_prompt(&input, budget);
            assert_eq!(report, expected, "seed {seed}, budget {budget}");
        }
    }
}

#[test]
fn shuffle_really_permutes() {
    let rules = rule_set();
    let orders: std::collections::BTreeSet<Vec<String>> = (0..100)
        .map(|seed| {
            shuffled(&rules, seed)
                .into_iter()
                .map(|rule| rule.id)
                .collect()
        })
        .collect();
    assert!(orders.len() > 90, "only {} distinct orders", orders.len());
}
