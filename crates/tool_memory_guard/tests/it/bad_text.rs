//! Rule texts that are not what the grammar expects: nothing but markdown, unbalanced code
//! spans and emphasis, a whole pasted instruction file. Each gives a constraint or advice,
//! never a panic, and a rule that names nothing checkable blocks nothing.

use anyhow::{Result, ensure};
use serde_json::json;
use tool_memory_core::ToolMemoryPriority;
use tool_memory_guard::{Decision, Guard, derive_from_text};

use crate::api::rule;

fn decision(tool: &str, text: &str, call_tool: &str, command: &str) -> Decision {
    let guard = Guard::from_rules([rule("r", tool, text, ToolMemoryPriority::Critical)]);
    guard
        .check(call_tool, &json!({"command": command}))
        .decision
}

#[test]
fn a_rule_of_only_markdown_is_advice() -> Result<()> {
    for text in [
        "**", "****", "---", "# ", "- ", "| | |", "``````", "> ", "* * *", "__",
    ] {
        ensure!(
            derive_from_text(text, "Bash").is_none(),
            "{text:?} derived a constraint"
        );
        ensure!(
            decision("Bash", text, "Bash", "rm -rf /") == Decision::Allow,
            "{text:?} blocked a call"
        );
    }
    Ok(())
}

#[test]
fn unbalanced_backticks_and_bold_are_plain_text() -> Result<()> {
    // The order still reads: the stray marker is a character, not a span.
    for text in [
        "Never run `rm -rf /",
        "**Never run rm -rf /",
        "Never run rm -rf /**",
        "Never run ``rm -rf /` now",
        "__never__ run `rm -rf /",
    ] {
        ensure!(
            decision("Bash", text, "run_shell_command", "rm -rf /") == Decision::Deny,
            "{text:?} did not deny rm -rf /"
        );
        ensure!(
            decision("Bash", text, "run_shell_command", "ls -la") == Decision::Allow,
            "{text:?} blocked ls"
        );
    }
    Ok(())
}

/// A pasted instruction file of a mebibyte: read in full, its orders kept, in bounded time
/// (the test only bounds the answer, the benchmark measures the time).
#[test]
fn a_mebibyte_instruction_file_derives_its_orders() -> Result<()> {
    let mut text = String::from("# Project rules\n\n## Shell\n\n");
    let filler = "- The build uses `make` and the docs live in `docs/`. We like short commits.\n";
    while text.len() < 1 << 20 {
        text.push_str(filler);
    }
    text.push_str("- **NEVER** run `terraform destroy`.\n");
    let constraint = derive_from_text(&text, "Bash");
    ensure!(constraint.is_some(), "the order at the end was lost");
    ensure!(
        decision("Bash", &text, "shell", "terraform destroy") == Decision::Deny,
        "terraform destroy not denied"
    );
    ensure!(
        decision("Bash", &text, "shell", "make build") == Decision::Allow,
        "the explanation's `make` was forbidden"
    );
    Ok(())
}

/// Calls in any script: a word whose bytes do not fall on a character boundary where a
/// program's name would end (`ééé1` beside `pip`) once panicked the check.
#[test]
fn calls_in_any_script_are_checked_without_a_panic() -> Result<()> {
    for command in [
        "echo ééé1",
        "ééé1 install",
        "pé3 install",
        "日本語3",
        "ñ1.2",
    ] {
        ensure!(
            decision("Bash", "never run pip", "Bash", command) == Decision::Allow,
            "{command:?} was blocked"
        );
    }
    ensure!(
        decision("Bash", "never run pip", "Bash", "ééé1 && pip3 install x") == Decision::Deny,
        "pip3 beside a word of another script was allowed"
    );
    Ok(())
}
