//! One MCP tool, one set of rules, whatever each agent calls it: Claude Code and Codex name a
//! server's tool `mcp__server__tool`, Gemini CLI `mcp_server_tool` (and `server__tool` before
//! 2026), Cursor `MCP:tool` without the server. A rule stored under one spelling holds for a
//! call under any other; a tool of another server or another name keeps to its own rules.

use active_memory_client::{
    ActiveMemoryClient, ClientConfig, Decision, RulePut, ToolMemoryPriority,
};
use anyhow::Result;
use serde_json::json;

fn client() -> ActiveMemoryClient {
    ActiveMemoryClient::in_memory().with_config(ClientConfig::default())
}

async fn put(client: &ActiveMemoryClient, tool: &str, text: &str) -> Result<()> {
    client
        .put(RulePut::new(tool, text).with_priority(ToolMemoryPriority::Critical))
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_on_an_mcp_tool_holds_under_each_agents_spelling() -> Result<()> {
    let client = client();
    // Said in Claude Code, about its spelling.
    put(
        &client,
        "mcp__github__merge_pull_request",
        "Never merge PRs.",
    )
    .await?;
    // Said in Gemini CLI, about its spelling.
    put(
        &client,
        "mcp_linear_delete_issue",
        "Never delete Linear issues.",
    )
    .await?;
    let pull = json!({"owner": "acme", "repo": "app", "pullNumber": 77});
    let issue = json!({"issueId": "ENG-311"});
    for (tool, arguments, expected) in [
        ("mcp__github__merge_pull_request", &pull, Decision::Deny),
        ("mcp_github_merge_pull_request", &pull, Decision::Deny),
        ("github__merge_pull_request", &pull, Decision::Deny),
        ("MCP:merge_pull_request", &pull, Decision::Deny),
        ("mcp__GitHub__merge-pull-request", &pull, Decision::Deny),
        ("mcp_linear_delete_issue", &issue, Decision::Deny),
        ("mcp__linear__delete_issue", &issue, Decision::Deny),
        ("MCP:delete_issue", &issue, Decision::Deny),
        // Another server's tool of the same name, another tool of the same server, and an
        // agent's own tool keep to their own rules.
        ("mcp__gitlab__merge_pull_request", &pull, Decision::Allow),
        ("mcp_github_list_pull_requests", &pull, Decision::Allow),
        ("mcp__jira__delete_issue", &issue, Decision::Allow),
        ("merge_pull_request", &pull, Decision::Allow),
    ] {
        let verdict = client.check(tool, arguments).await?;
        assert_eq!(verdict.decision, expected, "{tool}: {}", verdict.reason);
    }
    // The verdict names the rule where it is stored.
    let verdict = client.check("mcp_github_merge_pull_request", &pull).await?;
    assert_eq!(
        verdict.rules[0].tool_name,
        "mcp__github__merge_pull_request"
    );
    Ok(())
}

/// A Gemini CLI call of an MCP file or shell server is held to the family's rules, as the same
/// call in Claude Code's spelling is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gemini_mcp_call_of_a_file_server_is_a_file_edit() -> Result<()> {
    let client = client();
    put(&client, "Edit", "Never edit .env files.").await?;
    put(&client, "Bash", "Never run terraform apply.").await?;
    for (tool, arguments, expected) in [
        (
            "mcp_filesystem_write_file",
            json!({"path": "/srv/app/.env", "content": "DEBUG=1"}),
            Decision::Deny,
        ),
        (
            "mcp_filesystem_write_file",
            json!({"path": "/srv/app/README.md", "content": "hi"}),
            Decision::Allow,
        ),
        (
            "mcp_desktop-commander_start_process",
            json!({"command": "terraform apply", "timeout_ms": 5000}),
            Decision::Deny,
        ),
    ] {
        let verdict = client.check(tool, &arguments).await?;
        assert_eq!(
            verdict.decision, expected,
            "{tool} {arguments}: {}",
            verdict.reason
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shell_server_of_no_agent_is_held_to_the_shell_rules() -> Result<()> {
    let client = client();
    put(&client, "Bash", "Never run `terraform destroy`.").await?;
    let destroy = json!({"command": "terraform destroy -auto-approve"});
    let plan = json!({"command": "terraform plan"});
    for (tool, arguments, expected) in [
        ("mcp__shell__exec", &destroy, Decision::Deny),
        ("mcp_terminal_run", &destroy, Decision::Deny),
        ("mcp__tools__execute_shell", &destroy, Decision::Deny),
        ("mcp__shell__exec", &plan, Decision::Allow),
        // A server that runs commands elsewhere, or a tool that runs no command line, is not
        // this machine's shell: its own rules only.
        ("mcp__ssh__exec", &destroy, Decision::Allow),
        ("mcp__github__run_workflow", &destroy, Decision::Allow),
    ] {
        let verdict = client.check(tool, arguments).await?;
        assert_eq!(verdict.decision, expected, "{tool}: {}", verdict.reason);
    }
    Ok(())
}
