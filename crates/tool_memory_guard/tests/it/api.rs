//! The public entry points and the JSON shapes the facade and RPC rely on.

use anyhow::{Result, ensure};
use serde_json::{Value, json};
use tool_memory_core::{
    Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, UNSCOPED_TOOL,
};
use tool_memory_guard::{
    Constraint, Decision, Guard, Matcher, MatcherKind, Polarity, check_rules, derive_constraint,
};

pub(crate) fn rule(
    id: &str,
    tool: &str,
    text: &str,
    priority: ToolMemoryPriority,
) -> ToolMemoryRule {
    let at = Timestamp::parse("2026-05-11T00:00:00Z").expect("valid timestamp");
    ToolMemoryRule {
        id: id.to_owned(),
        tool_name: tool.to_owned(),
        rule: text.to_owned(),
        priority,
        source: ToolMemorySource::UserExplicit,
        tags: Vec::new(),
        created_at: at,
        updated_at: at,
        meta: Default::default(),
    }
}

/// Checks each row's arguments against one critical rule on `tool` and fails on the first
/// verdict other than the row's: the one helper of the data-driven tests (allowlists,
/// conditions, spellings).
pub(crate) fn check_rows(tool: &str, text: &str, rows: &[(Value, Decision)]) -> Result<()> {
    let guard = Guard::from_rules([rule("r", tool, text, ToolMemoryPriority::Critical)]);
    for (arguments, expected) in rows {
        let verdict = guard.check(tool, arguments);
        ensure!(
            verdict.decision == *expected,
            "{text:?} on {arguments}: expected {}, got {} ({})",
            expected.as_str(),
            verdict.decision.as_str(),
            verdict.reason
        );
    }
    Ok(())
}

#[test]
fn headline_rule_denies_with_a_readable_reason() -> Result<()> {
    let rules = [rule(
        "r1",
        "send_email",
        "Never email Sarah at sarah@example.com.",
        ToolMemoryPriority::Critical,
    )];
    let verdict = check_rules(
        &rules,
        "send_email",
        &json!({"to": "sarah@example.com", "body": "hi"}),
    );
    assert_eq!(verdict.decision, Decision::Deny);
    assert_eq!(
        verdict.reason,
        "denied by a critical rule on send_email: the recipient sarah@example.com is forbidden"
    );
    assert_eq!(verdict.rules.len(), 1);
    assert!(verdict.advice.is_empty());
    let value = serde_json::to_value(&verdict)?;
    assert_eq!(value["decision"], "deny");
    assert_eq!(value["rules"][0]["id"], "r1");
    Ok(())
}

#[test]
fn advice_rules_ride_along_without_blocking() -> Result<()> {
    let guard = Guard::from_rules([
        rule(
            "a",
            "send_email",
            "don't email my landlord, ever",
            ToolMemoryPriority::Critical,
        ),
        rule("b", UNSCOPED_TOOL, "be brief", ToolMemoryPriority::Normal),
        rule("c", "shell", "never use sudo", ToolMemoryPriority::Critical),
    ]);
    let verdict = guard.check("send_email", &json!({"to": "x@y.com"}));
    assert_eq!(verdict.decision, Decision::Allow);
    let mut ids: Vec<&str> = verdict.advice.iter().map(|rule| rule.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["a", "b"]);
    assert!(
        verdict.reason.contains("2 advisory rules"),
        "{}",
        verdict.reason
    );
    Ok(())
}

#[test]
fn explicit_constraints_override_derivation_and_are_validated() -> Result<()> {
    let constraint = Constraint::from_json(
        r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform"}]}"#,
    )?;
    assert_eq!(constraint.polarity, Polarity::Require);
    let guard = Guard::new(vec![(
        rule(
            "t",
            "shell",
            "be careful with terraform",
            ToolMemoryPriority::Critical,
        ),
        Some(constraint),
    )])?;
    assert_eq!(
        guard
            .check("shell", &json!({"command": "terraform apply"}))
            .decision,
        Decision::Deny
    );
    assert_eq!(
        guard
            .check("shell", &json!({"command": "terraform apply --dry-run"}))
            .decision,
        Decision::Allow
    );

    let bad = Constraint::forbid(vec![
        Matcher::new(MatcherKind::Email, "a@b.com"),
        Matcher::new(MatcherKind::Flag, "force"),
    ]);
    let err = Guard::new(vec![(
        rule("bad", "shell", "x", ToolMemoryPriority::Critical),
        Some(bad),
    )])
    .unwrap_err();
    assert_eq!(err.field(), Some("matchers[1].value"));
    assert!(err.to_string().contains("bad"), "{err}");
    Ok(())
}

#[test]
fn derived_constraints_are_inspectable() -> Result<()> {
    let derived = derive_constraint(&rule(
        "d",
        "shell",
        "always pass --dry-run to terraform",
        ToolMemoryPriority::Critical,
    ));
    let json = derived.map(|constraint| constraint.to_json());
    assert_eq!(
        json.as_deref(),
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform"}]}"#
        )
    );
    let guard = Guard::from_rules([rule(
        "d",
        "shell",
        "always pass --dry-run to terraform",
        ToolMemoryPriority::Critical,
    )]);
    assert_eq!(guard.len(), 1);
    assert!(
        guard
            .constraints()
            .all(|(_, constraint)| constraint.is_some())
    );
    Ok(())
}

#[test]
fn decision_policy_by_priority() -> Result<()> {
    // (priority, rule, call, expected)
    let table = [
        (
            ToolMemoryPriority::Critical,
            "never email sarah@example.com",
            json!({"to": "sarah@example.com"}),
            Decision::Deny,
        ),
        (
            ToolMemoryPriority::High,
            "never email sarah@example.com",
            json!({"to": "sarah@example.com"}),
            Decision::Confirm,
        ),
        (
            ToolMemoryPriority::Normal,
            "never email sarah@example.com",
            json!({"to": "sarah@example.com"}),
            Decision::Allow,
        ),
        (
            ToolMemoryPriority::Critical,
            "never email Sarah",
            json!({"to": "Sarah"}),
            Decision::Confirm,
        ),
        (
            ToolMemoryPriority::Normal,
            "never email sarah@example.com without asking me",
            json!({"to": "sarah@example.com"}),
            Decision::Confirm,
        ),
    ];
    for (priority, text, arguments, expected) in table {
        let verdict = check_rules(
            &[rule("p", "send_email", text, priority)],
            "send_email",
            &arguments,
        );
        assert_eq!(
            verdict.decision, expected,
            "{priority} {text}: {}",
            verdict.reason
        );
        if expected == Decision::Allow {
            assert!(verdict.rules.is_empty());
            assert_eq!(verdict.advice.len(), 1, "a matched normal rule advises");
        }
    }
    Ok(())
}

#[test]
fn decisions_serialise_lowercase() -> Result<()> {
    for (decision, text) in [
        (Decision::Allow, "\"allow\""),
        (Decision::Confirm, "\"confirm\""),
        (Decision::Deny, "\"deny\""),
    ] {
        assert_eq!(serde_json::to_string(&decision)?, text);
        assert_eq!(serde_json::from_str::<Decision>(text)?, decision);
    }
    Ok(())
}

#[test]
fn rules_follow_the_tool_family_and_program_named_tools() -> Result<()> {
    use tool_memory_guard::tools_sharing_rules;
    let rules = [rule(
        "r1",
        "Bash",
        "**NEVER** `git push --force`.",
        ToolMemoryPriority::Critical,
    )];
    let guard = Guard::from_rules(rules);
    for (tool, arguments) in [
        ("Bash", json!({"command": "git push --force"})),
        (
            "shell",
            json!({"command": ["bash", "-lc", "git push --force"]}),
        ),
        ("run_shell_command", json!({"command": "git push --force"})),
        ("run_terminal_cmd", json!({"command": "git push --force"})),
        ("git", json!({"args": ["push", "--force"]})),
        // An MCP server's tool named after the program runs it, and one whose own name is a
        // shell's is a shell.
        (
            "mcp__git__git_push",
            json!({"force": true, "branch": "main"}),
        ),
        (
            "mcp__desktop-commander__start_process",
            json!({"command": "git push --force"}),
        ),
    ] {
        let verdict = guard.check(tool, &arguments);
        anyhow::ensure!(
            verdict.decision == Decision::Deny,
            "{tool}: {}",
            verdict.reason
        );
    }
    // An MCP tool whose own name is no member's and names no program has no family: the
    // shell's rule is not about it.
    let verdict = guard.check("mcp__git__push", &json!({"force": true}));
    anyhow::ensure!(verdict.decision == Decision::Allow, "{}", verdict.reason);

    let shell = tools_sharing_rules("Bash");
    anyhow::ensure!(shell[0] == "bash" && shell.contains(&"run_shell_command".to_owned()));
    anyhow::ensure!(tools_sharing_rules("git").contains(&"shell".to_owned()));
    anyhow::ensure!(tools_sharing_rules("mcp__db__run_query") == ["mcp__db__run_query"]);
    let through_mcp = tools_sharing_rules("mcp__filesystem__write_file");
    anyhow::ensure!(
        through_mcp[0] == "mcp__filesystem__write_file" && through_mcp.contains(&"edit".to_owned()),
        "{through_mcp:?}"
    );
    anyhow::ensure!(tools_sharing_rules("mcp__git__git_push").contains(&"bash".to_owned()));
    Ok(())
}

/// The index finds an address in every spelling the matcher accepts: percent-encoded in its
/// domain or local part, with a `+tag`, in other case, and Gmail's dotted and googlemail forms.
/// A rule the index never made a candidate would let the call through.
#[test]
fn an_address_in_any_accepted_spelling_is_found_through_the_index() {
    let cases = [
        ("Never email sarah@corp.com.", "sarah@%63orp.com"),
        ("Never email sarah@corp.com.", "%73arah@corp.com"),
        ("Never email sarah@corp.com.", "Sarah+news@CORP.com"),
        (
            "Never email sarah@corp.com.",
            "\"Sarah\" <mailto:sarah@corp.com>",
        ),
        ("Never email kimlee@gmail.com.", "kim.lee+x@googlemail.com"),
    ];
    for (text, to) in cases {
        // Other rules on the same domain make the domain a common word of the index.
        let mut rules: Vec<ToolMemoryRule> = (0..50)
            .map(|index| {
                rule(
                    &format!("o{index}"),
                    "send_email",
                    &format!("Never email person{index}@corp.com."),
                    ToolMemoryPriority::Critical,
                )
            })
            .collect();
        rules.push(rule("r", "send_email", text, ToolMemoryPriority::Critical));
        let verdict =
            Guard::from_rules(rules).check("send_email", &json!({"to": to, "body": "hi"}));
        assert_eq!(
            verdict.decision,
            Decision::Deny,
            "{text} / {to}: {}",
            verdict.reason
        );
        assert_eq!(verdict.rules[0].id, "r", "{text} / {to}");
    }
}

#[test]
fn an_allowlist_of_hosts_forbids_every_other_host() -> Result<()> {
    let guard = Guard::from_rules([rule(
        "r",
        "WebFetch",
        "Only fetch from `docs.python.org` and `pypi.org`.",
        ToolMemoryPriority::Critical,
    )]);
    for (url, expected) in [
        ("https://docs.python.org/3/library/os.html", Decision::Allow),
        ("https://PyPI.org/project/requests/", Decision::Allow),
        ("https://docs.python.org.attacker.net/x", Decision::Deny),
        ("https://pypi-mirror.net/simple", Decision::Deny),
        (
            "https://evil.example/?next=https://pypi.org",
            Decision::Deny,
        ),
    ] {
        let verdict = guard.check("web_fetch", &json!({"url": url, "prompt": "summarise"}));
        anyhow::ensure!(verdict.decision == expected, "{url}: {}", verdict.reason);
    }
    let verdict = guard.check("WebFetch", &json!({"url": "https://github.com/x"}));
    anyhow::ensure!(
        verdict
            .reason
            .ends_with("github.com is not a host the rule allows"),
        "{}",
        verdict.reason
    );
    Ok(())
}

#[test]
fn a_rule_on_creating_files_leaves_edits_of_existing_ones_alone() -> Result<()> {
    let guard = Guard::from_rules([rule(
        "r",
        "Write",
        "Do not create new `.js` files in `src/`.",
        ToolMemoryPriority::Critical,
    )]);
    for (tool, arguments, expected) in [
        (
            "Write",
            json!({"file_path": "/repo/src/util.js", "content": "x"}),
            Decision::Deny,
        ),
        (
            "write_to_file",
            json!({"TargetFile": "/repo/src/a/b.js"}),
            Decision::Deny,
        ),
        ("Bash", json!({"command": "touch src/x.js"}), Decision::Deny),
        (
            "Bash",
            json!({"command": "echo x > src/y.js"}),
            Decision::Deny,
        ),
        (
            "Write",
            json!({"file_path": "/repo/src/util.ts", "content": "x"}),
            Decision::Allow,
        ),
        (
            "Write",
            json!({"file_path": "/repo/scripts/build.js", "content": "x"}),
            Decision::Allow,
        ),
        (
            "Edit",
            json!({"file_path": "/repo/src/legacy.js", "old_string": "var", "new_string": "let"}),
            Decision::Allow,
        ),
        (
            "Bash",
            json!({"command": "sed -i s/var/let/ src/legacy.js"}),
            Decision::Allow,
        ),
        (
            "Bash",
            json!({"command": "echo '// x' >> src/legacy.js"}),
            Decision::Allow,
        ),
    ] {
        let verdict = guard.check(tool, &arguments);
        anyhow::ensure!(
            verdict.decision == expected,
            "{tool} {arguments}: {}",
            verdict.reason
        );
    }
    Ok(())
}

/// A rule stored with the constraint an older derivation gave is enforced with today's reading
/// of its text, and the guard says which rules those were; one a caller gave is kept.
#[test]
fn a_stored_constraint_of_an_older_derivation_is_read_again() -> Result<()> {
    use tool_memory_core::RawJson;
    // An older reading of "Never force-push to `release/*`" kept only the command.
    let older =
        r#"{"matchers":[{"kind":"command","value":"git push --force"}],"polarity":"forbid"}"#;
    let mut stored = rule(
        "old",
        "Bash",
        "Never force-push to `release/*`.",
        ToolMemoryPriority::Critical,
    );
    stored.meta.constraint = Some(RawJson::from_stored(older.into())?);
    let mut given = stored.clone();
    given.id = "given".into();
    given.tool_name = "send_email".into();
    given.meta.constraint_explicit = true;
    let guard = Guard::from_stored([stored, given]);
    let stale: Vec<&str> = guard
        .stale_derivations()
        .map(|rule| rule.id.as_str())
        .collect();
    anyhow::ensure!(stale == ["old"], "{stale:?}");
    // Today's reading keeps to release branches and knows `+ref`.
    for (command, expected) in [
        ("git push origin +release/2.4", Decision::Deny),
        ("git push -f origin feature/x", Decision::Allow),
    ] {
        let verdict = guard.check("Bash", &json!({ "command": command }));
        anyhow::ensure!(
            verdict.decision == expected,
            "{command}: {}",
            verdict.reason
        );
    }
    let kept = guard
        .constraints()
        .find(|(rule, _)| rule.id == "given")
        .and_then(|(_, constraint)| constraint)
        .map(tool_memory_guard::Constraint::to_json);
    anyhow::ensure!(kept.as_deref() == Some(older), "{kept:?}");
    Ok(())
}

#[test]
fn a_gateway_call_of_an_mcp_tool_is_that_tool_call() -> Result<()> {
    let guard = Guard::from_rules([rule(
        "r1",
        "mcp__jira__delete_issue",
        "Never delete Jira issues.",
        ToolMemoryPriority::Critical,
    )]);
    let call = |tool: &str, arguments: &str| {
        guard
            .check(
                "use_mcp_tool",
                &json!({"server_name": "atlassian", "tool_name": tool, "arguments": arguments}),
            )
            .decision
    };
    assert_eq!(
        call("delete_issue", r#"{"issue_key": "OPS-7"}"#),
        Decision::Deny
    );
    assert_eq!(call("delete-issue", "not json"), Decision::Deny);
    assert_eq!(
        call("get_issue", r#"{"issue_key": "OPS-7"}"#),
        Decision::Allow
    );
    Ok(())
}

#[test]
fn argument_matchers_compare_the_named_argument() -> Result<()> {
    let constraint = Constraint::from_json(
        r#"{"matchers":[{"kind":"argument","value":"state=done"},{"kind":"argument","value":"branch=main"}],"polarity":"forbid"}"#,
    )?;
    let guard = Guard::new(vec![(
        rule("a", "mcp__x__update", "x", ToolMemoryPriority::Critical),
        Some(constraint),
    )])?;
    let decide = |arguments: serde_json::Value| guard.check("mcp__x__update", &arguments).decision;
    assert_eq!(decide(json!({"status": "Done"})), Decision::Deny);
    assert_eq!(
        decide(json!({"issue": {"stateName": "done"}})),
        Decision::Deny
    );
    assert_eq!(decide(json!({"ref": "refs/heads/main"})), Decision::Deny);
    assert_eq!(
        decide(json!({"title": "done", "state": "In Progress"})),
        Decision::Allow
    );
    assert_eq!(decide(json!({"branch": "main-nav"})), Decision::Allow);

    for bad in ["state", "=done", "state=", "st ate=x"] {
        let err = Constraint::from_json(&format!(
            r#"{{"matchers":[{{"kind":"argument","value":"{bad}"}}],"polarity":"forbid"}}"#
        ))
        .unwrap_err();
        assert_eq!(err.field(), Some("matchers[0].value"), "{bad}");
    }
    Ok(())
}

#[test]
fn a_direct_message_is_a_person_as_the_channel() -> Result<()> {
    let guard = Guard::from_rules([rule(
        "dm",
        "mcp__slack__post_message",
        "Never DM anyone.",
        ToolMemoryPriority::Critical,
    )]);
    let decide = |channel: &str| {
        guard
            .check(
                "mcp__slack__post_message",
                &json!({"channel": channel, "text": "hi"}),
            )
            .decision
    };
    assert_eq!(decide("D024BE91L"), Decision::Deny);
    assert_eq!(decide("@dana"), Decision::Deny);
    assert_eq!(decide("#eng"), Decision::Allow);
    assert_eq!(decide("C0ABCDEF1"), Decision::Allow);
    assert_eq!(decide("deploys2024"), Decision::Allow);
    Ok(())
}

#[test]
fn hosts_and_urls_by_network_port_and_what_they_carry() -> Result<()> {
    let decide = |tool: &str, text: &str, arguments: serde_json::Value| {
        Guard::from_rules([rule("u", tool, text, ToolMemoryPriority::Critical)])
            .check(tool, &arguments)
            .decision
    };
    let curl = |command: &str| {
        decide(
            "Bash",
            "Don't curl private addresses (`10.*`, `192.168.0.0/16`).",
            json!({ "command": command }),
        )
    };
    assert_eq!(curl("curl http://10.2.3.4/health"), Decision::Deny);
    assert_eq!(curl("curl http://167772161/"), Decision::Deny);
    assert_eq!(curl("curl http://0xc0a80101/"), Decision::Deny);
    assert_eq!(curl("curl http://192.168.1.1/"), Decision::Deny);
    assert_eq!(curl("curl http://100.10.1.1/"), Decision::Allow);
    assert_eq!(curl("curl https://example.com"), Decision::Allow);

    let fetch =
        |text: &str, url: &str| decide("WebFetch", text, json!({"url": url, "prompt": "x"}));
    let ports = "Never open localhost ports other than 5173.";
    assert_eq!(fetch(ports, "http://localhost:5173/"), Decision::Allow);
    assert_eq!(fetch(ports, "http://127.0.0.1:9200/"), Decision::Deny);
    assert_eq!(fetch(ports, "http://localhost:8080/admin"), Decision::Deny);
    assert_eq!(fetch(ports, "https://example.com:8080/"), Decision::Allow);
    let carried = "Never fetch URLs that carry credentials or signatures.";
    assert_eq!(
        fetch(carried, "https://bob:pw@git.example.com/r"),
        Decision::Deny
    );
    assert_eq!(
        fetch(carried, "https://b.s3.amazonaws.com/k?X-Amz-Signature=ab"),
        Decision::Deny
    );
    assert_eq!(
        fetch(carried, "https://bob@git.example.com/r"),
        Decision::Allow
    );
    assert_eq!(
        fetch(carried, "https://example.com/docs?page=2&design=1"),
        Decision::Allow
    );
    let paste = "Don't upload anything to paste sites.";
    assert_eq!(
        decide(
            "Bash",
            paste,
            json!({"command": "curl -d @x https://pastebin.com/api"})
        ),
        Decision::Deny
    );
    assert_eq!(
        decide(
            "Bash",
            paste,
            json!({"command": "curl -O https://github.com/a/b.tgz"})
        ),
        Decision::Allow
    );
    Ok(())
}

#[test]
fn outside_a_windows_directory_on_powershell() -> Result<()> {
    let guard = Guard::from_rules([rule(
        "ps",
        "powershell",
        "Never run `Remove-Item -Recurse -Force` outside `C:\\src\\app`.",
        ToolMemoryPriority::Critical,
    )]);
    let decide = |command: &str| {
        guard
            .check("powershell", &json!({ "command": command }))
            .decision
    };
    assert_eq!(
        decide("Remove-Item -Recurse -Force C:\\src\\app\\dist"),
        Decision::Allow
    );
    assert_eq!(
        decide("Remove-Item -Recurse -Force C:\\Users\\me\\Documents"),
        Decision::Deny
    );
    assert_eq!(
        decide("rm -r -fo C:\\src\\app\\..\\secrets"),
        Decision::Deny
    );
    assert_eq!(decide("Get-ChildItem C:\\Windows"), Decision::Allow);
    Ok(())
}
