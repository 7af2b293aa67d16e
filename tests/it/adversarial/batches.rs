//! Adversarial class: amplifying JSON-RPC batches: the reply and the work of one request are bounded.
//!
//! Against the real server: the reported attack, a batch of about 95 KB (1,000 requests for
//! the prompt of every tool, on a store of 1,000 tools with a pinned rule each) that made an
//! 846 MB reply, and the same with 1,000 listings of one big tool. The reply now stays under
//! the response bound plus a small refusal per element, every element past the bound gets
//! `-32003` naming the limit, the elements answered first keep their results in order, a
//! write after the bound does not run, and the server goes on serving.

use anyhow::{Context, Result, ensure};
use memory_rpc::{DEFAULT_MAX_RESPONSE_BYTES, LIMIT_EXCEEDED_CODE, MAX_BATCH_LEN};
use serde_json::{Value, json};

use crate::support::Server;

/// At most this much per refused element: its error object and its (short) id.
const REFUSAL_BYTES: usize = 250;

async fn post(server: &Server, body: String) -> Result<String> {
    let response = server
        .client()
        .post(format!("{}/rpc", server.url))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await?;
    Ok(response.error_for_status()?.text().await?)
}

/// `count` requests of `method` with `params`, ids 0.., as one batch body.
fn batch(method: &str, params: &Value, count: usize) -> String {
    let requests: Vec<Value> = (0..count)
        .map(|id| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .collect();
    Value::Array(requests).to_string()
}

/// Requires a bounded reply: in order, results first, then only limit errors. Returns the
/// replies.
fn check_bounded(reply: &str, what: &str) -> Result<Vec<Value>> {
    ensure!(
        reply.len() <= DEFAULT_MAX_RESPONSE_BYTES + MAX_BATCH_LEN * REFUSAL_BYTES,
        "{what}: a reply of {} bytes",
        reply.len()
    );
    let replies: Vec<Value> = serde_json::from_str(reply)?;
    ensure!(
        replies.len() == MAX_BATCH_LEN,
        "{what}: {} replies",
        replies.len()
    );
    let answered = replies
        .iter()
        .take_while(|reply| reply.get("result").is_some())
        .count();
    ensure!(
        (1..MAX_BATCH_LEN).contains(&answered),
        "{what}: {answered} answered"
    );
    for (id, reply) in replies.iter().enumerate() {
        ensure!(reply["id"] == id, "{what}: reply {id} is out of order");
        if id >= answered {
            ensure!(
                reply["error"]["code"] == LIMIT_EXCEEDED_CODE,
                "{what}: {reply}"
            );
            let limit = reply["error"]["data"]["limit"].as_str().unwrap_or_default();
            ensure!(
                ["max_response_bytes", "max_batch_work"].contains(&limit),
                "{what}: {reply}"
            );
        }
    }
    Ok(replies)
}

#[tokio::test]
async fn an_amplifying_batch_gets_a_bounded_reply_and_the_server_keeps_serving() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let server = Server::start(&dir.path().join("rules.sqlite3"), &[])?;
    // 1,000 tools with a pinned (high) rule each, and one tool with 1,000 ordinary rules.
    for (tool, priority) in [("tool", "high"), ("big", "normal")] {
        let requests: Vec<Value> = (0..MAX_BATCH_LEN)
            .map(|index| {
                let tool = match priority {
                    "high" => format!("{tool}_{index:04}"),
                    _ => tool.to_owned(),
                };
                let rule = format!(
                    "always ask before you change the settings of service {index} in production"
                );
                json!({"jsonrpc": "2.0", "id": index, "method": "memory.tool_rule_put",
                       "params": {"tool_name": tool, "priority": priority, "rule": rule}})
            })
            .collect();
        let reply = post(&server, Value::Array(requests).to_string()).await?;
        ensure!(
            !reply.contains("\"error\""),
            "{}",
            &reply[..reply.len().min(400)]
        );
    }

    // The attack: the prompt of every tool 999 times, and a write at the end.
    let mut requests: Vec<Value> = serde_json::from_str(&batch(
        "memory.tool_rules_for_prompt",
        &json!({"tools": []}),
        MAX_BATCH_LEN - 1,
    ))?;
    requests.push(json!({"jsonrpc": "2.0", "id": MAX_BATCH_LEN - 1,
                         "method": "memory.tool_rule_put",
                         "params": {"tool_name": "late", "rule": "must not be stored"}}));
    let attack = Value::Array(requests).to_string();
    ensure!(
        (80_000..100_000).contains(&attack.len()),
        "{} bytes",
        attack.len()
    );
    let replies = check_bounded(&post(&server, attack).await?, "prompts")?;
    // Each answered prompt holds every pinned rule: results are whole, never cut.
    let first = replies.first().context("a first reply")?;
    ensure!(
        first["result"]["rules"].as_array().map(Vec::len) == Some(MAX_BATCH_LEN),
        "{}",
        first["result"]["rules"]
    );
    // The write behind the bound did not run.
    let late = server
        .result("memory.tool_rule_list", json!({"tool_name": "late"}))
        .await?;
    ensure!(late == json!([]), "a refused write was stored: {late}");

    // 1,000 listings of one big tool.
    let listings = batch(
        "memory.tool_rule_list",
        &json!({"tool_name": "big"}),
        MAX_BATCH_LEN,
    );
    check_bounded(&post(&server, listings).await?, "listings")?;

    // The server keeps serving, whole and correct.
    let listed = server
        .result("memory.tool_rule_list", json!({"tool_name": "big"}))
        .await?;
    ensure!(listed.as_array().map(Vec::len) == Some(MAX_BATCH_LEN));
    server.stop()
}

/// `--max-response` and `--max-batch-work` set the handler's bounds for the server.
#[tokio::test]
async fn the_serve_flags_set_the_reply_bounds() -> Result<()> {
    for (flag, value, limit) in [
        ("--max-response", "2000", "max_response_bytes"),
        ("--max-batch-work", "5", "max_batch_work"),
    ] {
        let dir = tempfile::tempdir()?;
        let server = Server::start(&dir.path().join("rules.sqlite3"), &[flag, value])?;
        let put = json!({"tool_name": "bash", "rule": "quote every path", "priority": "high"});
        server.result("memory.tool_rule_put", put).await?;
        let listing = json!({"tool_name": "bash"});
        let reply = post(&server, batch("memory.tool_rule_list", &listing, 40)).await?;
        let replies: Vec<Value> = serde_json::from_str(&reply)?;
        ensure!(replies[0].get("result").is_some(), "{flag}: {reply}");
        ensure!(
            replies
                .iter()
                .any(|reply| reply["error"]["data"]["limit"] == limit),
            "{flag}: nothing refused for {limit}: {reply}"
        );
        server.stop()?;
    }
    Ok(())
}
