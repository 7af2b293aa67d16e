//! The session section: rendered once, same bytes on every call, usable through the
//! `PromptSection` trait beside a host's other sections.

use tool_memory_prompt::{
    PromptSection, TOOL_MEMORY_SECTION_NAME, ToolMemoryRulesSection, render_prompt,
};

use crate::{critical, high};

struct StaticSection(&'static str, &'static str);

impl PromptSection for StaticSection {
    fn name(&self) -> &str {
        self.0
    }

    fn render(&self) -> String {
        self.1.to_owned()
    }
}

#[test]
fn section_hands_back_the_same_bytes_all_session() {
    let rules = vec![
        critical("c", "email", "never email Sarah"),
        high("h", "shell", "avoid sudo"),
    ];
    let section = ToolMemoryRulesSection::new(&rules);
    let first = section.render();
    assert_eq!(first, section.rendered());
    for _ in 0..10 {
        assert_eq!(section.render(), first);
    }
    assert!(!section.is_empty());
    assert_eq!(section.name(), "tool_memory_rules");
    assert_eq!(TOOL_MEMORY_SECTION_NAME, "tool_memory_rules");
    assert_eq!(section.report(), &render_prompt(&rules, 8192));
    assert!(first.contains("never email Sarah"));
}

#[test]
fn empty_section_renders_nothing() {
    for section in [
        ToolMemoryRulesSection::empty(),
        ToolMemoryRulesSection::default(),
        ToolMemoryRulesSection::new(&[]),
    ] {
        assert!(section.is_empty());
        assert_eq!(section.render(), "");
        assert!(section.report().included.is_empty());
    }
}

#[test]
fn section_reports_what_its_budget_left_out() {
    let rules = vec![
        critical("c", "email", "never email Sarah"),
        high("h", "shell", &"avoid sudo ".repeat(100)),
    ];
    let section = ToolMemoryRulesSection::with_budget(&rules, 800);
    assert_eq!(section.report().left_out.len(), 1);
    assert_eq!(section.report().left_out[0].id, "h");
    assert!(section.rendered().contains("`tool-shell`"));
}

#[test]
fn section_sits_beside_other_sections_in_a_builder() {
    let sections: Vec<Box<dyn PromptSection>> = vec![
        Box::new(StaticSection("identity", "You are a helpful agent.\n")),
        Box::new(ToolMemoryRulesSection::new(&[critical(
            "c",
            "email",
            "never email Sarah",
        )])),
        Box::new(StaticSection("tools", "## Tools\n")),
    ];
    let names: Vec<&str> = sections.iter().map(|section| section.name()).collect();
    assert_eq!(names, ["identity", "tool_memory_rules", "tools"]);
    let prompt: String = sections.iter().map(|section| section.render()).collect();
    assert!(prompt.contains("- **[critical]** never email Sarah\n## Tools\n"));
}
