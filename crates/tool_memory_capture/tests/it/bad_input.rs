//! Bad instruction text gets a clear answer and loses nothing: a 1 MiB instruction file, one
//! 1 MiB line, unbalanced backticks and bold, and lines made only of markdown. Capture never
//! fails (it has no error to give), so the answer is what it proposes: every rule it can read,
//! each within `MAX_EDICT_CHARS`, and nothing from lines that hold no words.

use tool_memory_capture::{EDICT_TAG, MAX_EDICT_CHARS, ProposedRule, TurnRecord, capture_turn};
use tool_memory_core::Timestamp;

const MIB: usize = 1024 * 1024;

fn capture(message: &str) -> Vec<ProposedRule> {
    let turn = TurnRecord {
        user_message: message.to_owned(),
        available_tools: ["Bash", "Edit", "Read", "Write"]
            .iter()
            .map(|name| (*name).to_owned())
            .collect(),
        ..TurnRecord::default()
    };
    let now = Timestamp::parse("2026-06-01T00:00:00Z").expect("a valid timestamp");
    capture_turn(&turn, now)
        .rules
        .into_iter()
        .filter(|rule| rule.tags.iter().any(|tag| tag == EDICT_TAG))
        .collect()
}

/// One section of an instruction file, numbered so that its rules stay distinct.
fn section(number: usize) -> String {
    format!(
        "## Section {number}\n\nThe service in `svc{number}/` talks to Postgres.\n\n\
         - Never run `make deploy-{number}`.\n- Do not edit `svc{number}/gen.rs`.\n\
         - Package management is pnpm only.\n\nDo not:\n- run `kubectl delete ns n{number}`\n\n"
    )
}

#[test]
fn a_one_mebibyte_instruction_file_keeps_every_rule() {
    let mut file = String::new();
    let mut sections = 0;
    while file.len() < MIB {
        file.push_str(&section(sections));
        sections += 1;
    }
    let rules = capture(&file);
    // Three distinct rules per section, and the one shared rule once (its identity merges).
    assert_eq!(rules.len(), sections * 3 + 1, "{} sections", sections);
    assert!(
        rules
            .iter()
            .all(|rule| rule.rule.chars().count() <= MAX_EDICT_CHARS)
    );
    assert!(
        rules
            .iter()
            .any(|rule| rule.rule == "Do not: run `kubectl delete ns n0`")
    );
    let last = sections - 1;
    let deploy = format!("Never run `make deploy-{last}`.");
    assert!(
        rules
            .iter()
            .any(|rule| rule.rule == deploy && rule.tool_name == "bash")
    );
}

#[test]
fn a_one_mebibyte_line_is_cut_not_dropped() {
    let mut line = String::from("Never run `make deploy` ");
    while line.len() < MIB {
        line.push_str("and never touch prod ");
    }
    let rules = capture(&line);
    assert_eq!(rules.len(), 1);
    assert!(rules[0].rule.starts_with("Never run `make deploy`"));
    assert!(rules[0].rule.chars().count() <= MAX_EDICT_CHARS);
    // Many clauses joined by semicolons on one line: each is its own rule.
    let joined = "never run `x`; ".repeat(MIB / 15);
    let rules = capture(&joined);
    assert_eq!(rules.len(), 1, "the same rule repeated is one rule");
}

#[test]
fn unbalanced_backticks_and_bold_are_plain_text() {
    for (message, rule) in [
        ("Never run `rm -rf build", "Never run `rm -rf build"),
        ("**NEVER run yarn", "**NEVER run yarn"),
        ("NEVER run yarn**.", "NEVER run yarn**."),
        (
            "Don't use ``` in commit messages",
            "Don't use ``` in commit messages",
        ),
        ("Never `push` to `main", "Never `push` to `main"),
    ] {
        let rules = capture(message);
        assert_eq!(rules.len(), 1, "{message:?}: {rules:?}");
        assert_eq!(rules[0].rule, rule, "{message:?}");
        assert_eq!(rules[0].tool_name, "bash", "{message:?}");
    }
}

#[test]
fn a_rule_of_only_markdown_proposes_nothing() {
    for message in [
        "**",
        "`",
        "``",
        "- ",
        "-",
        "## ",
        "#",
        "***",
        "---",
        "```",
        "```\n```",
        "| --- |",
        "|",
        "> ",
        "* * *",
        "__",
        "~~",
        "**Do not:**",
        "## Don'ts",
        "Do not:\n- \n-\n",
        "Forbidden:\n- **\n- ``",
        "- [ ]",
        "1.",
        "`` ` ``",
    ] {
        let rules = capture(message);
        assert!(rules.is_empty(), "{message:?} proposed {rules:?}");
    }
}
