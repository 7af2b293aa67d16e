//! The bounds on the work of one check, each at its limit (checked in full, the right verdict)
//! and one past it (`confirm`, with a reason saying the call was too complex), and the
//! legitimate large calls that must stay far inside them.

use serde_json::{Map, Value, json};
use tool_memory_core::{ToolMemoryPriority, UNSCOPED_TOOL};
use tool_memory_guard::{
    Constraint, Decision, Guard, INVOCATION_OVERHEAD_WORDS, MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH,
    MAX_ARGUMENT_VALUES, MAX_COMMAND_NESTING, MAX_EVALUATION_WORK, MAX_INVOCATION_WORDS,
    MAX_WRAPPERS, Matcher, MatcherKind, Verdict,
};

use crate::api::rule;

/// The shell rules most of these cases are checked against.
fn shell_guard() -> Guard {
    Guard::from_rules([
        rule(
            "rm",
            "shell",
            "never run rm -rf /",
            ToolMemoryPriority::Critical,
        ),
        rule(
            "push",
            "shell",
            "never git push --force",
            ToolMemoryPriority::Critical,
        ),
        rule(
            "plan",
            "shell",
            "never run terraform without --dry-run",
            ToolMemoryPriority::Critical,
        ),
    ])
}

/// Checks one call and requires the decision; `bound` is a word of the too-complex reason, or
/// `None` when the call must have been checked in full.
fn check(guard: &Guard, tool: &str, arguments: &Value, decision: Decision, bound: Option<&str>) {
    let verdict = guard.check(tool, arguments);
    assert_eq!(verdict.decision, decision, "{}", verdict.reason);
    match bound {
        Some(word) => {
            assert!(
                verdict
                    .reason
                    .starts_with("confirm first: the call is too complex to check fully")
                    && verdict.reason.contains(word),
                "expected the {word} bound: {}",
                verdict.reason
            );
        }
        None => assert!(
            !verdict.reason.contains("too complex"),
            "a call inside the bounds was cut: {}",
            verdict.reason
        ),
    }
}

fn command(line: String) -> Value {
    json!({ "command": line })
}

#[test]
fn wrappers_are_unpacked_up_to_the_bound() {
    let guard = shell_guard();
    // Each with how many wrappers it stacks: `sudo -u root env A=1` is two.
    for (wrapper, stacked) in [
        ("sudo ", 1),
        ("env ", 1),
        ("xargs ", 1),
        ("timeout 5 ", 1),
        ("sudo -u root env A=1 ", 2),
    ] {
        let at = wrapper.repeat(MAX_WRAPPERS / stacked);
        check(
            &guard,
            "shell",
            &command(format!("{at}rm -rf /")),
            Decision::Deny,
            None,
        );
        let past = command(format!("nohup {at}rm -rf /"));
        check(&guard, "shell", &past, Decision::Confirm, Some("wrappers"));
    }
    // The reported attack: 4,000 nested wrappers (about 32 KB), never allowed.
    let attack = command(format!("{}rm -rf /", "sudo env ".repeat(2000)));
    check(
        &guard,
        "shell",
        &attack,
        Decision::Confirm,
        Some("wrappers"),
    );
}

#[test]
fn a_deny_found_before_a_bound_still_wins() {
    let guard = Guard::from_rules([rule(
        "sudo",
        "shell",
        "never run sudo",
        ToolMemoryPriority::Critical,
    )]);
    let attack = command(format!("{}rm -rf /", "sudo ".repeat(4000)));
    let verdict = guard.check("shell", &attack);
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    assert_eq!(verdict.rules[0].id, "sudo");
}

/// `bash -c "..."` wrapped `levels` times around `rm -rf /`, quoted the way a shell reads it.
fn nested_bash(levels: usize) -> String {
    let mut line = "rm -rf /".to_owned();
    for _ in 0..levels {
        line = format!(
            "bash -c {}",
            serde_json::to_string(&line).expect("a string")
        );
    }
    line
}

#[test]
fn quoted_commands_are_unpacked_down_to_the_bound() {
    let guard = shell_guard();
    check(
        &guard,
        "shell",
        &command(nested_bash(MAX_COMMAND_NESTING)),
        Decision::Deny,
        None,
    );
    check(
        &guard,
        "shell",
        &command(nested_bash(MAX_COMMAND_NESTING + 1)),
        Decision::Confirm,
        Some("nest"),
    );
    // Command substitution inside double quotes nests the same way.
    let mut substituted = "rm -rf /".to_owned();
    for _ in 0..=MAX_COMMAND_NESTING {
        substituted = format!(
            "echo {}",
            serde_json::to_string(&format!("$({substituted})")).expect("a string")
        );
    }
    check(
        &guard,
        "shell",
        &command(substituted),
        Decision::Confirm,
        Some("nest"),
    );
    // Unquoted `$(...)` and backticks only separate commands: any depth is read.
    let unquoted = format!("{}rm -rf /{}", "echo $(".repeat(500), ")".repeat(500));
    check(&guard, "shell", &command(unquoted), Decision::Deny, None);
    let backticks = format!("{}rm -rf /", "echo `".repeat(500));
    check(&guard, "shell", &command(backticks), Decision::Deny, None);
}

#[test]
fn the_words_of_parsed_commands_are_bounded() {
    let guard = shell_guard();
    // One command of `words` words weighs `words` plus the overhead.
    let one_command = |words: usize| command(format!("rm -rf /{}", " x".repeat(words - 3)));
    let at = MAX_INVOCATION_WORDS - INVOCATION_OVERHEAD_WORDS;
    check(&guard, "shell", &one_command(at), Decision::Deny, None);
    check(
        &guard,
        "shell",
        &one_command(at + 1),
        Decision::Confirm,
        Some("words"),
    );
    // Many one-word commands weigh their overhead: `x;` a great many times, then the rm.
    let per_command = 1 + INVOCATION_OVERHEAD_WORDS;
    let rm_weight = 3 + INVOCATION_OVERHEAD_WORDS;
    let chain = |commands: usize| command(format!("{}rm -rf /", "x;".repeat(commands)));
    let fit = (MAX_INVOCATION_WORDS - rm_weight) / per_command;
    check(&guard, "shell", &chain(fit), Decision::Deny, None);
    check(
        &guard,
        "shell",
        &chain(fit + 1),
        Decision::Confirm,
        Some("words"),
    );
    // Long `&&`, `|` and `xargs` chains are many commands too.
    let and_chain = format!("{}git push --force", "ls && ".repeat(50_000));
    check(
        &guard,
        "shell",
        &command(and_chain),
        Decision::Confirm,
        Some("words"),
    );
    let pipes = format!("{}rm -rf /", "cat x | xargs ".repeat(30_000));
    check(
        &guard,
        "shell",
        &command(pipes),
        Decision::Confirm,
        Some("words"),
    );
}

/// `{"n": {"n": ... {"command": ...}}}` with the command in an object at nesting `depth`.
fn nested_object(depth: usize) -> Value {
    let mut value = json!({ "command": "rm -rf /" });
    for _ in 1..depth {
        value = json!({ "n": value });
    }
    value
}

#[test]
fn argument_nesting_is_bounded() {
    let guard = shell_guard();
    check(
        &guard,
        "shell",
        &nested_object(MAX_ARGUMENT_DEPTH),
        Decision::Deny,
        None,
    );
    check(
        &guard,
        "shell",
        &nested_object(MAX_ARGUMENT_DEPTH + 1),
        Decision::Confirm,
        Some("nest"),
    );
    // Far deeper than any parser of the server would accept: no stack overflow.
    check(
        &guard,
        "shell",
        &nested_object(2_000),
        Decision::Confirm,
        Some("nest"),
    );
}

#[test]
fn argument_values_are_bounded() {
    let guard = shell_guard();
    // Keys `pad` and `z_command`, the command string, and `numbers` zeros: `numbers + 3`.
    let padded = |numbers: usize| json!({"pad": vec![0; numbers], "z_command": "rm -rf /"});
    check(
        &guard,
        "shell",
        &padded(MAX_ARGUMENT_VALUES - 3),
        Decision::Deny,
        None,
    );
    check(
        &guard,
        "shell",
        &padded(MAX_ARGUMENT_VALUES - 2),
        Decision::Confirm,
        Some("values"),
    );
    // Many keys are values too.
    let mut keys = Map::new();
    for index in 0..MAX_ARGUMENT_VALUES {
        keys.insert(format!("k{index:06}"), Value::Null);
    }
    keys.insert("z_command".to_owned(), json!("rm -rf /"));
    check(
        &guard,
        "shell",
        &Value::Object(keys),
        Decision::Confirm,
        Some("values"),
    );
}

#[test]
fn argument_bytes_are_bounded() {
    let guard = shell_guard();
    // Bytes of the keys `a_pad` (5) and `z_command` (9), the command (8) and the padding.
    let fixed = 5 + 9 + 8;
    let padded =
        |bytes: usize| json!({"a_pad": "x".repeat(bytes - fixed), "z_command": "rm -rf /"});
    check(
        &guard,
        "shell",
        &padded(MAX_ARGUMENT_BYTES),
        Decision::Deny,
        None,
    );
    check(
        &guard,
        "shell",
        &padded(MAX_ARGUMENT_BYTES + 1),
        Decision::Confirm,
        Some("bytes"),
    );
}

/// `rules` literal rules, each a candidate for the call (its first word is in the text) and
/// none matching but the last; the text is one string of `text_bytes` bytes.
fn evaluation_case(rules: usize, text_bytes: usize) -> (Guard, Value) {
    let entries = (0..rules)
        .map(|index| {
            let constraint = Constraint::forbid(vec![Matcher::new(
                MatcherKind::Literal,
                format!("codeword{index} alpha"),
            )]);
            (
                rule(
                    &format!("r{index:03}"),
                    "notes",
                    "x",
                    ToolMemoryPriority::Critical,
                ),
                Some(constraint),
            )
        })
        .collect();
    let guard = Guard::new(entries).expect("valid constraints");
    let mut text: String = (0..rules)
        .map(|index| format!("codeword{index} "))
        .collect();
    text.push_str("alpha ");
    assert!(text.len() <= text_bytes);
    text.push_str(&"x".repeat(text_bytes - text.len()));
    (guard, json!({ "text": text }))
}

#[test]
fn evaluation_work_is_bounded() {
    // Each rule looks at the one text once, which costs its bytes and one.
    let text_bytes = 1 << 20;
    let rules = MAX_EVALUATION_WORK / (text_bytes + 1);
    let (guard, call) = evaluation_case(rules, text_bytes);
    let verdict = guard.check("notes", &call);
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    assert_eq!(verdict.rules[0].id, format!("r{:03}", rules - 1));
    let (guard, call) = evaluation_case(rules + 1, text_bytes);
    check(&guard, "notes", &call, Decision::Confirm, Some("work"));
}

#[test]
fn a_requirement_missing_from_a_call_checked_in_part_only_asks() {
    let guard = shell_guard();
    // `terraform apply` lacks --dry-run, but the call also holds a command past the nesting
    // bound, where the flag might be.
    let line = format!("terraform apply; {}", nested_bash(MAX_COMMAND_NESTING + 1));
    let verdict: Verdict = guard.check("shell", &command(line));
    assert_eq!(verdict.decision, Decision::Confirm, "{}", verdict.reason);
    assert_eq!(verdict.rules[0].id, "plan");
    assert!(
        verdict.reason.contains("requires --dry-run")
            && verdict.reason.contains("also too complex to check fully"),
        "{}",
        verdict.reason
    );
}

#[test]
fn a_call_no_rule_can_apply_to_is_allowed_however_large() {
    let attack = command(format!("{}rm -rf /", "sudo ".repeat(MAX_WRAPPERS + 1)));
    // No rules at all, advice only, or rules of other tools: nothing a bound could hide.
    let advice = Guard::from_rules([rule("a", "shell", "be brief", ToolMemoryPriority::High)]);
    for guard in [Guard::default(), advice, shell_guard()] {
        check(&guard, "send_email", &attack, Decision::Allow, None);
    }
    check(
        &Guard::from_rules([rule("a", "shell", "be brief", ToolMemoryPriority::High)]),
        "shell",
        &attack,
        Decision::Allow,
        None,
    );
    // The no-tool rules apply to every tool, so they are checked and the bound shows.
    let unscoped = Guard::from_rules([rule(
        "u",
        UNSCOPED_TOOL,
        "never run rm -rf /",
        ToolMemoryPriority::Critical,
    )]);
    check(
        &unscoped,
        "send_email",
        &attack,
        Decision::Confirm,
        Some("wrappers"),
    );
}

/// A deployment script of 50 commands, about 4 KB, with the `terraform` line given.
fn deploy_script(terraform: &str) -> String {
    let mut lines = vec![
        "#!/usr/bin/env bash".to_owned(),
        "set -euo pipefail".to_owned(),
        "export APP_ENV=production RELEASE=\"$(date +%Y%m%d%H%M)\"".to_owned(),
        "cd /srv/app && git fetch origin && git checkout main && git pull --ff-only origin main"
            .to_owned(),
        "sudo -u deploy env NODE_ENV=production timeout 600 npm ci --no-audit".to_owned(),
        "docker build -t registry.example.com/app:\"$(git rev-parse --short HEAD)\" .".to_owned(),
        terraform.to_owned(),
        "ssh deploy@web-1 \"sudo systemctl restart app && journalctl -u app -n 20\"".to_owned(),
        "find /var/log/app -name '*.gz' -mtime +30 -print0 | xargs -0 rm -f".to_owned(),
    ];
    for index in 0..41 {
        lines.push(format!(
            "kubectl -n prod rollout status deployment/app-{index} --timeout=120s || echo \"app-{index} not ready\" >&2"
        ));
    }
    let script = lines.join("\n");
    assert!(
        (3_500..6_000).contains(&script.len()),
        "{} bytes",
        script.len()
    );
    script
}

#[test]
fn a_long_legitimate_script_is_checked_in_full() {
    let guard = shell_guard();
    let clean = command(deploy_script("terraform -chdir=infra apply --dry-run"));
    check(&guard, "shell", &clean, Decision::Allow, None);
    let unsafe_plan = command(deploy_script("terraform -chdir=infra apply"));
    check(&guard, "shell", &unsafe_plan, Decision::Deny, None);
    let forced = command(deploy_script("git push --force origin main"));
    check(&guard, "shell", &forced, Decision::Deny, None);
}

/// About 100 KB of source and prose: paths, quotes, apostrophes, commands in backticks, and
/// the words of the rules below ("etc", "env", "kubectl"), so they are all candidates.
fn file_body() -> String {
    let mut body = String::new();
    let mut index = 0;
    while body.len() < 100_000 {
        body.push_str(&format!(
            "/// Handler {index}: reads `/srv/data/{index}.json`, writes logs, etc. It's the \
             user's \"step {index}\" (see docs/handlers.md).\n\
             pub fn handler_{index}(request: &Request) -> Result<Response, Error> {{\n\
             \x20   let path = format!(\"/srv/data/{{}}/{index}.json\", request.tenant);\n\
             \x20   run(\"kubectl get pods -n prod -l app=handler-{index}\")?; // env: {{}}\n\
             \x20   if request.items.len() > {index} && !request.dry_run {{ return Err(Error::Busy); }}\n\
             \x20   Ok(Response::new(path))\n}}\n\n"
        ));
        index += 1;
    }
    body
}

#[test]
fn a_large_file_body_is_checked_in_full() {
    let guard = Guard::from_rules([
        rule(
            "etc",
            "write_file",
            "never write to /etc",
            ToolMemoryPriority::Critical,
        ),
        rule(
            "secrets",
            "write_file",
            "never write to .env files",
            ToolMemoryPriority::Critical,
        ),
        rule(
            "kubectl",
            UNSCOPED_TOOL,
            "never run kubectl delete",
            ToolMemoryPriority::Critical,
        ),
    ]);
    let body = file_body();
    let write = |path: &str, content: &str| json!({"path": path, "content": content});
    check(
        &guard,
        "write_file",
        &write("/srv/app/src/handlers.rs", &body),
        Decision::Allow,
        None,
    );
    check(
        &guard,
        "write_file",
        &write("/etc/hosts", &body),
        Decision::Deny,
        None,
    );
    check(
        &guard,
        "write_file",
        &write("/srv/app/.env", &body),
        Decision::Deny,
        None,
    );
    // The body's commands are read in full: one forbidden line at its very end is found.
    let tail = format!("{body}run(\"kubectl delete ns prod\")?;\n");
    check(
        &guard,
        "write_file",
        &write("/srv/app/src/handlers.rs", &tail),
        Decision::Deny,
        None,
    );
}

/// A variable the line sets, expanded many times (`v="a a ... a"; echo $v $v ...`), grows
/// with the square of the line; the expansions count against the invocations' words, so the
/// check stops at that bound and asks.
#[test]
fn expanding_a_variable_many_times_is_bounded() {
    let value = vec!["a"; 2_000].join(" ");
    let uses = vec!["$v"; 2_000].join(" ");
    let command = format!("v=\"{value}\"; echo {uses}; git push --force");
    let guard = tool_memory_guard::Guard::from_rules([crate::api::rule(
        "r",
        "Bash",
        "never git push --force",
        tool_memory_core::ToolMemoryPriority::Critical,
    )]);
    let verdict = guard.check("Bash", &serde_json::json!({ "command": command }));
    assert_ne!(
        verdict.decision,
        tool_memory_guard::Decision::Allow,
        "{}",
        verdict.reason
    );
}
