//! The request-size limits enforced by the RPC layer, each at its bound and one past it: batch
//! length, tools per prompt request, and the rule model's own limits (rule, tags, tool name,
//! id) as they reach a client, always naming the field.

use anyhow::{Result, ensure};
use memory_rpc::{
    INVALID_PARAMS_CODE, INVALID_REQUEST_CODE, MAX_BATCH_LEN, MAX_PROMPT_TOOLS,
    REFERENCE_ERROR_CODE,
};
use serde_json::{Value, json};
use tool_memory_core::{
    MAX_ID_CHARS, MAX_RULE_CHARS, MAX_TAG_CHARS, MAX_TAGS, MAX_TOOL_NAME_CHARS,
};

use crate::support::{call, handler, request, result};

fn list_request(id: usize) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "memory.tool_rule_list", "params": {"tool_name": "bash"}})
}

#[tokio::test]
async fn a_batch_longer_than_the_limit_is_refused_whole() -> Result<()> {
    let handler = handler()?;
    let full: Vec<Value> = (0..MAX_BATCH_LEN).map(list_request).collect();
    let reply = call(&handler, Value::Array(full)).await;
    ensure!(
        reply.as_ref().and_then(Value::as_array).map(Vec::len) == Some(MAX_BATCH_LEN),
        "a batch at the limit is served"
    );
    // One element over: nothing runs (the put inside would otherwise be stored).
    let mut over: Vec<Value> = (0..MAX_BATCH_LEN).map(list_request).collect();
    over.push(request(
        0,
        "memory.tool_rule_put",
        json!({"tool_name": "bash", "rule": "must not be stored"}),
    ));
    let reply = call(&handler, Value::Array(over)).await.unwrap_or_default();
    ensure!(reply["error"]["code"] == INVALID_REQUEST_CODE, "{reply}");
    ensure!(reply["id"].is_null(), "{reply}");
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    ensure!(
        message
            == format!(
                "invalid request: batch of 1001 requests, at most {MAX_BATCH_LEN} are allowed"
            ),
        "{message}"
    );
    let listed = result(
        &handler,
        request(1, "memory.tool_rule_list", json!({"tool_name": "bash"})),
    )
    .await?;
    ensure!(listed == json!([]), "a refused batch wrote {listed}");
    Ok(())
}

#[tokio::test]
async fn too_many_tools_in_a_prompt_request_name_the_field() -> Result<()> {
    let handler = handler()?;
    let tools = |count: usize| -> Vec<String> { (0..count).map(|i| format!("tool_{i}")).collect() };
    result(
        &handler,
        request(
            1,
            "memory.tool_rules_for_prompt",
            json!({"tools": tools(MAX_PROMPT_TOOLS)}),
        ),
    )
    .await?;
    let reply = call(
        &handler,
        request(
            2,
            "memory.tool_rules_for_prompt",
            json!({"tools": tools(MAX_PROMPT_TOOLS + 1)}),
        ),
    )
    .await
    .unwrap_or_default();
    ensure!(reply["error"]["code"] == INVALID_PARAMS_CODE, "{reply}");
    ensure!(reply["error"]["data"]["field"] == "tools", "{reply}");
    let reference = call(
        &handler,
        request(
            3,
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tools": tools(MAX_PROMPT_TOOLS + 1)}),
        ),
    )
    .await
    .unwrap_or_default();
    ensure!(
        reference["error"]["code"] == REFERENCE_ERROR_CODE,
        "{reference}"
    );
    ensure!(
        reference["error"]["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("tools is invalid")),
        "{reference}"
    );
    Ok(())
}

/// Each rule-model limit, at the bound (stored) and one past it (refused, naming the field,
/// and nothing stored).
#[tokio::test]
async fn rule_model_limits_are_enforced_and_name_the_field() -> Result<()> {
    let handler = handler()?;
    let tags = |count: usize| -> Vec<String> { (0..count).map(|i| format!("t{i}")).collect() };
    let cases = [
        (
            "rule",
            json!({"tool_name": "bash", "rule": "r".repeat(MAX_RULE_CHARS)}),
            json!({"tool_name": "bash", "rule": "r".repeat(MAX_RULE_CHARS + 1)}),
        ),
        (
            "tags",
            json!({"tool_name": "bash", "rule": "x", "tags": tags(MAX_TAGS)}),
            json!({"tool_name": "bash", "rule": "x", "tags": tags(MAX_TAGS + 1)}),
        ),
        (
            "tags",
            json!({"tool_name": "bash", "rule": "x", "tags": ["t".repeat(MAX_TAG_CHARS)]}),
            json!({"tool_name": "bash", "rule": "x", "tags": ["t".repeat(MAX_TAG_CHARS + 1)]}),
        ),
        (
            "tool_name",
            json!({"tool_name": "b".repeat(MAX_TOOL_NAME_CHARS), "rule": "x"}),
            json!({"tool_name": "b".repeat(MAX_TOOL_NAME_CHARS + 1), "rule": "x"}),
        ),
        (
            "id",
            json!({"tool_name": "bash", "rule": "x", "id": "i".repeat(MAX_ID_CHARS)}),
            json!({"tool_name": "bash", "rule": "x", "id": "i".repeat(MAX_ID_CHARS + 1)}),
        ),
    ];
    let mut stored = 0;
    for (field, at_bound, past_bound) in cases {
        result(&handler, request(1, "memory.tool_rule_put", at_bound)).await?;
        stored += 1;
        let reply = call(&handler, request(2, "memory.tool_rule_put", past_bound))
            .await
            .unwrap_or_default();
        ensure!(
            reply["error"]["code"] == INVALID_PARAMS_CODE,
            "{field}: {reply}"
        );
        ensure!(reply["error"]["data"]["field"] == field, "{field}: {reply}");
    }
    let listed = result(
        &handler,
        request(3, "memory.tool_rule_list", json!({"tool_name": "bash"})),
    )
    .await?;
    // The tool-name case stored its rule under the long name, not under `bash`.
    ensure!(
        listed.as_array().map(Vec::len) == Some(stored - 1),
        "{listed}"
    );
    Ok(())
}
