//! One set of rules across agents: a rule on a family member or on the family itself holds for
//! every member, whatever the agent calls its tool and however it shapes the arguments; a rule
//! on an exact tool of no family stays on it.

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Decision, HistoryAction, RawJson, RulePut, ToolFamily,
    ToolMemoryPriority, tool_family,
};
use anyhow::Result;
use serde_json::{Value, json};

fn client() -> ActiveMemoryClient {
    ActiveMemoryClient::in_memory().with_config(ClientConfig::default())
}

async fn put(client: &ActiveMemoryClient, tool: &str, text: &str) -> Result<String> {
    let rule = client
        .put(RulePut::new(tool, text).with_priority(ToolMemoryPriority::Critical))
        .await?;
    Ok(rule.id)
}

/// Checks each call and compares its decision with the expected one.
async fn check(client: &ActiveMemoryClient, cases: &[(&str, Value, Decision)]) -> Result<()> {
    for (tool, arguments, expected) in cases {
        let verdict = client.check(tool, arguments).await?;
        assert_eq!(
            verdict.decision, *expected,
            "{tool} {arguments}: {}",
            verdict.reason
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shell_rule_said_in_one_agent_holds_in_every_agent() -> Result<()> {
    let client = client();
    let id = put(&client, "Bash", "Never run terraform apply.").await?;
    check(
        &client,
        &[
            (
                "Bash",
                json!({"command": "terraform apply"}),
                Decision::Deny,
            ),
            (
                "run_shell_command",
                json!({"command": "terraform apply", "directory": "infra"}),
                Decision::Deny,
            ),
            (
                "shell",
                json!({"command": ["bash", "-lc", "cd infra && terraform apply"], "workdir": "/w"}),
                Decision::Deny,
            ),
            (
                "run_terminal_cmd",
                json!({"command": "terraform apply", "is_background": false}),
                Decision::Deny,
            ),
            (
                "execute_command",
                json!({"command": "terraform apply", "requires_approval": false}),
                Decision::Deny,
            ),
            (
                "run_command",
                json!({"CommandLine": "terraform apply"}),
                Decision::Deny,
            ),
            (
                "PowerShell",
                json!({"command": "terraform apply"}),
                Decision::Deny,
            ),
            (
                "run_shell_command",
                json!({"command": "terraform plan"}),
                Decision::Allow,
            ),
            // Not a shell: the rule is not about it.
            (
                "mcp__terraform__apply",
                json!({"workspace": "x"}),
                Decision::Allow,
            ),
        ],
    )
    .await?;

    // The verdict and the audit name the rule where it is stored.
    let verdict = client
        .check("run_shell_command", &json!({"command": "terraform apply"}))
        .await?;
    assert_eq!(verdict.rules[0].tool_name, "bash");
    assert_eq!(verdict.rules[0].id, id);
    let history = client.history("bash", Some(&id), 50, None).await?;
    assert!(
        history
            .iter()
            .any(|entry| entry.action == HistoryAction::Deny),
        "{history:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_on_the_family_itself_holds_for_every_member() -> Result<()> {
    let client = client();
    put(&client, "file_edit", "Never edit .env files.").await?;
    check(
        &client,
        &[
            (
                "Edit",
                json!({"file_path": "/p/.env", "old_string": "A=0", "new_string": "A=1"}),
                Decision::Deny,
            ),
            ("Write", json!({"file_path": "/p/.env", "content": "A=1"}), Decision::Deny),
            ("write_file", json!({"file_path": "/p/.env", "content": "A=1"}), Decision::Deny),
            (
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Update File: config/.env\n@@\n-A=0\n+A=1\n*** End Patch\n"}),
                Decision::Deny,
            ),
            ("Write", json!({"file_path": "/p/README.md", "content": "hi"}), Decision::Allow),
            // Reading is another family.
            ("Read", json!({"file_path": "/p/.env"}), Decision::Allow),
        ],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_on_an_exact_tool_stays_on_it() -> Result<()> {
    let client = client();
    let mut rule = RulePut::new("mcp__github__merge_pull_request", "Never merge into main.")
        .with_priority(ToolMemoryPriority::Critical);
    rule.constraint = Some(RawJson::from_value(
        &json!({"polarity": "forbid", "matchers": [{"kind": "literal", "value": "main"}]}),
    ));
    client.put(rule).await?;
    let merge = json!({"owner": "acme", "repo": "api", "pullNumber": 42, "base": "main"});
    let verdict = client
        .check("mcp__github__merge_pull_request", &merge)
        .await?;
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    check(
        &client,
        &[
            (
                "mcp__github__create_pull_request",
                merge.clone(),
                Decision::Allow,
            ),
            (
                "Bash",
                json!({"command": "gh pr merge 42 --base main"}),
                Decision::Allow,
            ),
        ],
    )
    .await
}

/// A call of an MCP server's tool whose own name is a family member's is that family's: a
/// model cannot step around a rule on editing files, running commands or git by going through
/// an MCP filesystem, shell or git server. A rule stored on an MCP tool still keeps to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_an_mcp_server_is_held_to_the_familys_rules() -> Result<()> {
    let client = client();
    put(&client, "Edit", "Never edit `.env` files.").await?;
    put(&client, "Bash", "Never `git push --force`.").await?;
    put(&client, "Bash", "Never run `terraform destroy`.").await?;
    put(
        &client,
        "WebFetch",
        "Never fetch anything from pastebin.com.",
    )
    .await?;
    check(
        &client,
        &[
            (
                "mcp__filesystem__write_file",
                json!({"path": "/repo/.env", "content": "A=1"}),
                Decision::Deny,
            ),
            (
                "mcp__filesystem__edit_file",
                json!({"path": "/repo/.env", "edits": [{"oldText": "A=0", "newText": "A=1"}]}),
                Decision::Deny,
            ),
            (
                "mcp__desktop-commander__edit_block",
                json!({"file_path": "/repo/.env", "old_string": "A=0", "new_string": "A=1"}),
                Decision::Deny,
            ),
            (
                "mcp__filesystem__write_file",
                json!({"path": "/repo/README.md", "content": "hi"}),
                Decision::Allow,
            ),
            (
                "mcp__desktop-commander__start_process",
                json!({"command": "terraform destroy -auto-approve", "timeout_ms": 60000}),
                Decision::Deny,
            ),
            (
                "mcp__desktop-commander__start_process",
                json!({"command": "terraform plan", "timeout_ms": 60000}),
                Decision::Allow,
            ),
            // The git server's push is `git push --force origin main`, as the `git_push` tool is.
            (
                "mcp__git__git_push",
                json!({"repo_path": "/repo", "force": true, "branch": "main"}),
                Decision::Deny,
            ),
            (
                "mcp__git__git_push",
                json!({"repo_path": "/repo", "branch": "feature/x"}),
                Decision::Allow,
            ),
            // Gemini CLI names an MCP tool `server__tool`.
            (
                "fetch__fetch",
                json!({"url": "https://pastebin.com/raw/x"}),
                Decision::Deny,
            ),
            (
                "mcp__fetch__fetch",
                json!({"url": "https://docs.rs/serde"}),
                Decision::Allow,
            ),
        ],
    )
    .await?;
    // A rule stored on an MCP tool keeps to it: the family's other tools are not held to it.
    put(
        &client,
        "mcp__filesystem__write_file",
        "Never write anything under `/srv/`.",
    )
    .await?;
    check(
        &client,
        &[
            (
                "mcp__filesystem__write_file",
                json!({"path": "/srv/app/x", "content": "1"}),
                Decision::Deny,
            ),
            (
                "Write",
                json!({"file_path": "/srv/app/x", "content": "1"}),
                Decision::Allow,
            ),
        ],
    )
    .await
}

/// A path rule on reading files holds for a command that reads the path, and for an edit; one
/// on editing files holds for a command that writes it, not for one that only reads it. A
/// shell rule stays the shell's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn path_rules_of_the_file_families_hold_for_the_shell() -> Result<()> {
    let client = client();
    let read = put(&client, "Read", "Never read `~/.ssh/*`.").await?;
    put(
        &client,
        "Edit",
        "Don't touch `generated.rs`, it is produced by the build.",
    )
    .await?;
    put(&client, "Bash", "Never `cat .env`.").await?;
    check(
        &client,
        &[
            ("Bash", json!({"command": "cat ~/.ssh/id_rsa"}), Decision::Deny),
            (
                "run_shell_command",
                json!({"command": "grep -n Host /home/dev/.ssh/config"}),
                Decision::Deny,
            ),
            (
                "shell",
                json!({"command": ["bash", "-lc", "head -3 known_hosts"], "workdir": "/home/dev/.ssh"}),
                Decision::Deny,
            ),
            (
                "Edit",
                json!({"file_path": "/home/dev/.ssh/config", "old_string": "a", "new_string": "b"}),
                Decision::Deny,
            ),
            ("Bash", json!({"command": "ls ~/projects"}), Decision::Allow),
            (
                "Bash",
                json!({"command": "sed -i 's/a/b/' src/generated.rs"}),
                Decision::Deny,
            ),
            (
                "run_terminal_cmd",
                json!({"command": "echo '// x' >> src/generated.rs"}),
                Decision::Deny,
            ),
            (
                "Bash",
                json!({"command": "cp /tmp/g.rs src/generated.rs"}),
                Decision::Deny,
            ),
            ("Bash", json!({"command": "cat src/generated.rs"}), Decision::Allow),
            (
                "Bash",
                json!({"command": "cp src/generated.rs /tmp/backup.rs"}),
                Decision::Allow,
            ),
            // Reading is not editing; the shell's own rule is not about the Read tool.
            ("Read", json!({"file_path": "/repo/src/generated.rs"}), Decision::Allow),
            ("Read", json!({"file_path": "/repo/.env"}), Decision::Allow),
            ("Bash", json!({"command": "cat .env"}), Decision::Deny),
        ],
    )
    .await?;
    // The verdict names the rule where it is stored.
    let verdict = client
        .check("Bash", &json!({"command": "less ~/.ssh/config"}))
        .await?;
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    assert_eq!(
        (
            verdict.rules[0].id.as_str(),
            verdict.rules[0].tool_name.as_str()
        ),
        (read.as_str(), "read")
    );
    Ok(())
}

/// An MCP tool named without its server (Cursor's `MCP:delete_issue`) is checked as every
/// stored tool of that own name, the strictest verdict winning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_tool_named_without_its_server_is_each_servers_tool() -> Result<()> {
    let client = client();
    put(
        &client,
        "mcp__linear__delete_issue",
        "Never delete Linear issues.",
    )
    .await?;
    put(
        &client,
        "mcp__jira__delete_issue",
        "Ask me before deleting any issue.",
    )
    .await?;
    put(
        &client,
        "mcp__github__merge_pull_request",
        "Never merge PRs.",
    )
    .await?;
    let issue = json!({"issueId": "ENG-311"});
    check(
        &client,
        &[
            ("MCP:delete_issue", issue.clone(), Decision::Deny),
            ("mcp:Delete-Issue", issue.clone(), Decision::Deny),
            (
                "MCP:merge_pull_request",
                json!({"pullNumber": 3}),
                Decision::Deny,
            ),
            // No server has a tool of that name with rules: only the bare name's own.
            ("MCP:list_issues", issue.clone(), Decision::Allow),
            // Named in full, a tool keeps to its own rules.
            ("mcp__jira__delete_issue", issue.clone(), Decision::Confirm),
        ],
    )
    .await?;
    let verdict = client.check("MCP:delete_issue", &issue).await?;
    assert_eq!(verdict.rules[0].tool_name, "mcp__linear__delete_issue");
    // Cline calls an MCP tool through `use_mcp_tool`, its arguments a JSON string.
    let proxied = |tool: &str| json!({"server_name": "linear", "tool_name": tool, "arguments": "{\"issueId\": \"ENG-311\"}"});
    check(
        &client,
        &[
            ("use_mcp_tool", proxied("delete_issue"), Decision::Deny),
            ("use_mcp_tool", proxied("list_issues"), Decision::Allow),
        ],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pinned_block_of_one_member_shows_the_familys_rules() -> Result<()> {
    let client = client();
    put(&client, "bash", "Never run terraform apply.").await?;
    put(&client, "send_email", "Never email Sarah.").await?;
    let prompt = client
        .rules_for_prompt(&["run_shell_command".to_owned()])
        .await?;
    assert!(
        prompt.rendered.contains("terraform apply"),
        "{}",
        prompt.rendered
    );
    assert!(!prompt.rendered.contains("Sarah"), "{}", prompt.rendered);
    Ok(())
}

#[test]
fn families_are_read_by_member_and_by_name() {
    assert_eq!(tool_family("Bash"), Some(ToolFamily::Shell));
    assert_eq!(tool_family("file_edit"), Some(ToolFamily::FileEdit));
    assert_eq!(tool_family(" File_Read "), Some(ToolFamily::FileRead));
    assert_eq!(tool_family("mcp__github__merge_pull_request"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_tool_s_named_arguments_decide_through_any_way_of_calling_it() -> Result<()> {
    let client = client();
    put(
        &client,
        "mcp__linear__update_issue",
        "Never move an issue to Done or Canceled.",
    )
    .await?;
    let proxied = |arguments: &str| json!({"server_name": "linear-server", "tool_name": "update_issue", "arguments": arguments});
    check(
        &client,
        &[
            (
                "mcp__linear__update_issue",
                json!({"id": "ENG-1", "state": "Done"}),
                Decision::Deny,
            ),
            (
                "MCP:update_issue",
                json!({"id": "ENG-1", "stateName": "canceled"}),
                Decision::Deny,
            ),
            (
                "use_mcp_tool",
                proxied(r#"{"id": "ENG-1", "status": "Done"}"#),
                Decision::Deny,
            ),
            (
                "use_mcp_tool",
                proxied(r#"{"id": "ENG-1", "title": "Done-ish cleanup", "state": "Todo"}"#),
                Decision::Allow,
            ),
        ],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_on_reading_a_directory_holds_for_every_agents_search_tools() -> Result<()> {
    let client = client();
    put(&client, "Read", "Never read anything under `payroll/`.").await?;
    check(
        &client,
        &[
            // Claude Code, Cline, Gemini CLI, Cursor: the directory searched, whatever the
            // argument that names it is called.
            (
                "Grep",
                json!({"pattern": "salary", "path": "payroll"}),
                Decision::Deny,
            ),
            (
                "Glob",
                json!({"pattern": "payroll/**/*.csv"}),
                Decision::Deny,
            ),
            (
                "search_files",
                json!({"path": "payroll", "regex": "iban"}),
                Decision::Deny,
            ),
            (
                "search_file_content",
                json!({"pattern": "iban", "dir_path": "payroll"}),
                Decision::Deny,
            ),
            (
                "grep_search",
                json!({"query": "payroll", "include_pattern": "src/**"}),
                Decision::Allow,
            ),
            (
                "Grep",
                json!({"pattern": "salary", "path": "src"}),
                Decision::Allow,
            ),
        ],
    )
    .await
}
