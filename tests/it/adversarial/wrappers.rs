//! Adversarial class: nested command wrappers bound the guard's work and answer confirm past the bound.
//!
//! Against the real server: `memory.tool_call_check` with the reported 32 KB command of 4,000
//! nested `sudo`/`env` wrappers (which took up to 933 MB and 1.5 s for one check), and the
//! other shapes of the class (deep `bash -c`, quoted `$(...)`, long `&&` and `xargs` chains,
//! huge and deep argument objects, thousands of flags). Each gets `confirm` with a reason
//! naming the bound, or `deny` when a forbidden command was found before it; never `allow`.
//! A long legitimate script and a 100 KB file body still get their right verdict, and the
//! server answers an ordinary check afterwards.

use anyhow::{Result, ensure};
use serde_json::{Map, Value, json};
use tool_memory_guard::{MAX_ARGUMENT_DEPTH, MAX_COMMAND_NESTING, MAX_WRAPPERS};

use crate::support::Server;

const TOO_COMPLEX: &str = "confirm first: the call is too complex to check fully";

/// `bash -c "..."` wrapped `levels` times around `line`, quoted the way a shell reads it.
fn nested_bash(line: &str, levels: usize) -> String {
    let mut line = line.to_owned();
    for _ in 0..levels {
        line = format!("bash -c {}", Value::String(line));
    }
    line
}

async fn verdict(server: &Server, tool: &str, arguments: Value) -> Result<(String, String)> {
    let result = server
        .result(
            "memory.tool_call_check",
            json!({"tool_name": tool, "arguments": arguments}),
        )
        .await?;
    Ok((
        result["decision"].as_str().unwrap_or_default().to_owned(),
        result["reason"].as_str().unwrap_or_default().to_owned(),
    ))
}

#[tokio::test]
async fn nested_wrappers_and_other_blow_ups_get_a_bounded_confirm() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &[])?;
    for (id, rule) in [
        ("rm", "never run rm -rf /"),
        ("push", "never git push --force"),
        ("plan", "never run terraform without --dry-run"),
    ] {
        server
            .result(
                "memory.tool_rule_put",
                json!({"tool_name": "shell", "id": id, "rule": rule, "priority": "critical"}),
            )
            .await?;
    }
    let command = |line: String| json!({ "command": line });
    let mut many_keys = Map::new();
    for index in 0..20_000 {
        many_keys.insert(format!("k{index:05}"), json!("ls -la"));
    }
    many_keys.insert("z".to_owned(), json!(nested_bash("rm -rf /", 12)));
    let mut deep = json!({ "command": "rm -rf /" });
    for _ in 0..MAX_ARGUMENT_DEPTH {
        deep = json!({ "n": deep });
    }
    // (what, arguments, the decision, a word of the reason).
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "4,000 nested sudo/env around rm -rf /",
            command(format!("{}rm -rf /", "sudo env ".repeat(2000))),
            "confirm",
            "wrappers",
        ),
        (
            "4,000 nested xargs",
            command(format!("{}rm -rf /", "xargs ".repeat(4000))),
            "confirm",
            "wrappers",
        ),
        (
            "wrappers at the bound",
            command(format!("{}rm -rf /", "sudo ".repeat(MAX_WRAPPERS))),
            "deny",
            "rm",
        ),
        (
            "deep bash -c",
            command(nested_bash("rm -rf /", MAX_COMMAND_NESTING + 4)),
            "confirm",
            "nest",
        ),
        (
            "bash -c at the bound",
            command(nested_bash("rm -rf /", MAX_COMMAND_NESTING)),
            "deny",
            "rm",
        ),
        (
            "quoted $(...) nesting",
            command((0..12).fold("rm -rf /".to_owned(), |inner, _| {
                format!("echo {}", Value::String(format!("$({inner})")))
            })),
            "confirm",
            "nest",
        ),
        (
            "a long && chain hiding a force push at its end",
            command(format!("{}git push --force", "ls && ".repeat(60_000))),
            "confirm",
            "words",
        ),
        (
            "an xargs pipeline chain",
            command(format!("{}rm -rf /", "cat f | xargs ".repeat(30_000))),
            "confirm",
            "words",
        ),
        (
            "20,000 keys and a deep bash -c",
            Value::Object(many_keys),
            "confirm",
            "nest",
        ),
        ("arguments nested past the bound", deep, "confirm", "nest"),
        (
            "thousands of flags on terraform",
            command(format!("terraform apply {}", "-rf ".repeat(20_000))),
            "deny",
            "--dry-run",
        ),
    ];
    for (what, arguments, decision, word) in cases {
        let (actual, reason) = verdict(&server, "shell", arguments).await?;
        ensure!(actual == decision, "{what}: {actual}: {reason}");
        ensure!(reason.contains(word), "{what}: {reason}");
        if decision == "confirm" {
            ensure!(reason.starts_with(TOO_COMPLEX), "{what}: {reason}");
        }
    }

    // Legitimate large calls keep their verdicts.
    let mut script: Vec<String> = (0..49)
        .map(|index| {
            format!(
                "kubectl -n prod rollout status deployment/app-{index} --timeout=120s || echo \"app-{index} not ready\" >&2"
            )
        })
        .collect();
    script.push("terraform -chdir=infra apply --dry-run".to_owned());
    let script = script.join("\n");
    ensure!(script.len() > 4_000, "{} bytes", script.len());
    let (decision, reason) = verdict(&server, "shell", command(script.clone())).await?;
    ensure!(decision == "allow", "{reason}");
    let unsafe_script = script.replace("--dry-run", "");
    let (decision, reason) = verdict(&server, "shell", command(unsafe_script)).await?;
    ensure!(
        decision == "deny" && reason.contains("--dry-run"),
        "{reason}"
    );

    server
        .result(
            "memory.tool_rule_put",
            json!({"tool_name": "write_file", "rule": "never write to /etc", "priority": "critical"}),
        )
        .await?;
    let body = "fn main() { println!(\"it's a file, etc.\"); run(\"ls -la /srv\"); }\n"
        .repeat(100_000 / 60);
    ensure!(body.len() >= 100_000);
    let (decision, reason) = verdict(
        &server,
        "write_file",
        json!({"path": "/srv/app/main.rs", "content": body}),
    )
    .await?;
    ensure!(decision == "allow", "{reason}");
    let (decision, reason) = verdict(
        &server,
        "write_file",
        json!({"path": "/etc/hosts", "content": body}),
    )
    .await?;
    ensure!(decision == "deny", "{reason}");

    // The server is still serving.
    let (decision, reason) = verdict(&server, "shell", command("ls -la".to_owned())).await?;
    ensure!(decision == "allow", "{reason}");
    server.stop()
}
