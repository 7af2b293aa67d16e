//! The limits enforced by the RPC layer, each at its bound and one past it: batch length,
//! tools per prompt request, the rule model's own limits (rule, tags, tool name, id) as they
//! reach a client, always naming the field, and the bounds on the reply (bytes of results and
//! work per body), with the large replies a real client needs still served.

use anyhow::{Result, ensure};
use memory_rpc::{
    DEFAULT_MAX_BATCH_WORK, DEFAULT_MAX_RESPONSE_BYTES, INVALID_PARAMS_CODE, INVALID_REQUEST_CODE,
    LIMIT_EXCEEDED_CODE, MAX_BATCH_LEN, MAX_PROMPT_TOOLS, REFERENCE_ERROR_CODE, RpcHandler,
    RpcLimits,
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

/// Stores `count` rules on `tool`, in batches of puts.
async fn put_rules(handler: &RpcHandler, tool: &str, count: usize, text: &str) -> Result<()> {
    for start in (0..count).step_by(MAX_BATCH_LEN) {
        let batch: Vec<Value> = (start..count.min(start + MAX_BATCH_LEN))
            .map(|index| {
                json!({"jsonrpc": "2.0", "id": index, "method": "memory.tool_rule_put",
                       "params": {"tool_name": tool, "rule": format!("{text} {index}")}})
            })
            .collect();
        let reply = call(handler, Value::Array(batch)).await.unwrap_or_default();
        let errors = reply.as_array().map_or(1, |replies| {
            replies.iter().filter(|r| r.get("error").is_some()).count()
        });
        ensure!(errors == 0, "a put failed: {reply}");
    }
    Ok(())
}

fn batch_of(requests: Vec<Value>) -> String {
    Value::Array(requests).to_string()
}

/// Requires a `-32003` error naming `limit`, saying whether the request ran.
fn check_limit_error(reply: &Value, limit: &str, ran: bool) -> Result<()> {
    ensure!(reply["error"]["code"] == LIMIT_EXCEEDED_CODE, "{reply}");
    ensure!(reply["error"]["data"]["limit"] == limit, "{reply}");
    ensure!(reply["error"]["data"]["ran"] == ran, "{reply}");
    ensure!(reply.get("result").is_none(), "{reply}");
    Ok(())
}

#[tokio::test]
async fn the_reply_bytes_are_bounded_at_the_limit_and_past_it() -> Result<()> {
    let handler = handler()?;
    put_rules(&handler, "bash", 20, "never run rm -rf /tmp/build number").await?;
    let lists: Vec<Value> = (1..=3).map(list_request).collect();
    let full = handler
        .handle_text(&batch_of(lists.clone()))
        .await
        .unwrap_or_default();
    let single = handler
        .handle_text(&list_request(1).to_string())
        .await
        .unwrap_or_default();

    // At the bound: the reply is byte for byte the unbounded one.
    let at = handler
        .clone()
        .with_limits(RpcLimits::default().with_max_response_bytes(full.len()));
    ensure!(at.handle_text(&batch_of(lists.clone())).await.as_deref() == Some(full.as_str()));
    let at_single = handler
        .clone()
        .with_limits(RpcLimits::default().with_max_response_bytes(single.len()));
    ensure!(
        at_single
            .handle_text(&list_request(1).to_string())
            .await
            .as_deref()
            == Some(single.as_str())
    );

    // One byte less: the last result does not fit, the earlier ones are kept, in order.
    let past = handler
        .clone()
        .with_limits(RpcLimits::default().with_max_response_bytes(full.len() - 1));
    let reply: Value = serde_json::from_str(
        &past
            .handle_text(&batch_of(lists.clone()))
            .await
            .unwrap_or_default(),
    )?;
    let expected: Value = serde_json::from_str(&full)?;
    ensure!(
        reply[0] == expected[0] && reply[1] == expected[1],
        "{reply}"
    );
    ensure!(reply[2]["id"] == 3, "{reply}");
    check_limit_error(&reply[2], "max_response_bytes", true)?;
    ensure!(
        reply[2]["error"]["data"]["max"] == full.len() - 1,
        "{}",
        reply[2]
    );
    let past_single = handler
        .clone()
        .with_limits(RpcLimits::default().with_max_response_bytes(single.len() - 1));
    let reply = call(&past_single, list_request(1))
        .await
        .unwrap_or_default();
    check_limit_error(&reply, "max_response_bytes", true)?;

    // Once the reply is full, nothing more runs: the put after it is refused, not stored.
    let tiny = handler
        .clone()
        .with_limits(RpcLimits::default().with_max_response_bytes(100));
    let reply = call(
        &tiny,
        json!([
            list_request(1),
            request(2, "memory.tool_rule_put", json!({"tool_name": "git", "rule": "never force push"})),
            {"jsonrpc": "2.0", "method": "memory.tool_rule_put", "params": {"tool_name": "git", "rule": "a notification"}},
            request(3, "memory.tool_rule_list", json!({"tool_name": "git"})),
            request(4, "openhuman.memory_tool_rule_list", json!({"tool_name": "git"})),
        ]),
    )
    .await
    .unwrap_or_default();
    let replies = reply.as_array().cloned().unwrap_or_default();
    ensure!(replies.len() == 4, "{reply}");
    check_limit_error(&replies[0], "max_response_bytes", true)?;
    check_limit_error(&replies[1], "max_response_bytes", false)?;
    check_limit_error(&replies[2], "max_response_bytes", false)?;
    ensure!(
        replies.iter().map(|r| r["id"].clone()).collect::<Vec<_>>() == [1, 2, 3, 4],
        "{reply}"
    );
    // The reference envelope reports it its own way.
    ensure!(
        replies[3]["error"]["code"] == REFERENCE_ERROR_CODE,
        "{reply}"
    );
    ensure!(replies[3]["error"]["data"].is_null(), "{reply}");
    ensure!(
        replies[3]["error"]["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("limit exceeded")),
        "{reply}"
    );
    let git = result(
        &handler,
        request(5, "memory.tool_rule_list", json!({"tool_name": "git"})),
    )
    .await?;
    ensure!(git == json!([]), "a refused write was stored: {git}");
    Ok(())
}

#[tokio::test]
async fn the_work_of_a_batch_is_bounded_at_the_limit_and_past_it() -> Result<()> {
    let handler = handler()?;
    // A get of a missing rule costs one unit.
    let get = |id: usize| {
        json!({"jsonrpc": "2.0", "id": id, "method": "memory.tool_rule_get",
               "params": {"tool_name": "bash", "id": "missing"}})
    };
    let limited = handler
        .clone()
        .with_limits(RpcLimits::default().with_max_batch_work(10));
    let reply = call(&limited, Value::Array((0..10).map(get).collect()))
        .await
        .unwrap_or_default();
    ensure!(
        reply.as_array().is_some_and(|replies| replies
            .iter()
            .all(|r| r["result"].is_null() && r.get("error").is_none())),
        "a batch at the bound runs whole: {reply}"
    );
    let mut past: Vec<Value> = (0..10).map(get).collect();
    past.push(request(
        10,
        "memory.tool_rule_put",
        json!({"tool_name": "bash", "rule": "must not be stored"}),
    ));
    let reply = call(&limited, Value::Array(past)).await.unwrap_or_default();
    ensure!(reply[9].get("error").is_none(), "{reply}");
    check_limit_error(&reply[10], "max_batch_work", false)?;
    ensure!(reply[10]["error"]["data"]["max"] == 10, "{reply}");
    let listed = result(
        &handler,
        request(1, "memory.tool_rule_list", json!({"tool_name": "bash"})),
    )
    .await?;
    ensure!(listed == json!([]), "a refused write was stored: {listed}");

    // The default budget against the reported attack's shape: prompt requests naming
    // MAX_PROMPT_TOOLS tools cost 1 + 1,000 units each (no rules), so exactly the first
    // DEFAULT_MAX_BATCH_WORK / 1,001 + 1 run.
    let tools: Vec<String> = (0..MAX_PROMPT_TOOLS).map(|i| format!("tool_{i}")).collect();
    let prompts: Vec<Value> = (0..MAX_BATCH_LEN)
        .map(|id| {
            json!({"jsonrpc": "2.0", "id": id, "method": "memory.tool_rules_for_prompt",
                   "params": {"tools": tools}})
        })
        .collect();
    let reply = call(&handler, Value::Array(prompts))
        .await
        .unwrap_or_default();
    let replies = reply.as_array().cloned().unwrap_or_default();
    ensure!(replies.len() == MAX_BATCH_LEN, "{reply}");
    let ran = DEFAULT_MAX_BATCH_WORK.div_ceil(1 + MAX_PROMPT_TOOLS);
    ensure!(
        replies[..ran].iter().all(|r| r.get("result").is_some()),
        "the first {ran} prompts run"
    );
    for refused in &replies[ran..] {
        check_limit_error(refused, "max_batch_work", false)?;
    }
    Ok(())
}

#[tokio::test]
async fn large_replies_a_real_client_needs_are_served() -> Result<()> {
    let handler = handler()?;
    // One listing of 10,000 rules of about 1,000 characters.
    let long_text = format!(
        "never deploy on a friday without the release checklist, {}",
        "and check the dashboards of every service before and after; ".repeat(15)
    );
    ensure!((900..1100).contains(&long_text.len()));
    put_rules(&handler, "deploy", 10_000, &long_text).await?;
    let reply = handler
        .handle_text(&json!({"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_list", "params": {"tool_name": "deploy"}}).to_string())
        .await
        .unwrap_or_default();
    ensure!(reply.len() < DEFAULT_MAX_RESPONSE_BYTES);
    let listed: Value = serde_json::from_str(&reply)?;
    ensure!(
        listed["result"].as_array().map(Vec::len) == Some(10_000),
        "{}",
        &reply[..reply.len().min(300)]
    );

    // The prompt for 1,000 tools, each holding a high rule, at the default byte budget.
    let puts: Vec<Value> = (0..MAX_PROMPT_TOOLS)
        .map(|index| {
            json!({"jsonrpc": "2.0", "id": index, "method": "memory.tool_rule_put",
                   "params": {"tool_name": format!("tool_{index}"), "priority": "high",
                              "rule": format!("always ask before changing tool {index}'s settings")}})
        })
        .collect();
    call(&handler, Value::Array(puts)).await;
    let tools: Vec<String> = (0..MAX_PROMPT_TOOLS).map(|i| format!("tool_{i}")).collect();
    let prompt = result(
        &handler,
        request(2, "memory.tool_rules_for_prompt", json!({"tools": tools})),
    )
    .await?;
    ensure!(
        prompt["rules"].as_array().map(Vec::len) == Some(MAX_PROMPT_TOOLS),
        "{prompt}"
    );
    ensure!(
        prompt["rendered"]
            .as_str()
            .is_some_and(|block| block.starts_with("## Tool-scoped rules")),
        "{prompt}"
    );
    Ok(())
}
