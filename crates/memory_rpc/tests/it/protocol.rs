//! The JSON-RPC 2.0 envelope itself: parse errors, malformed requests, ids, notifications,
//! batches, and the method list.

use anyhow::{Result, ensure};
use memory_rpc::{INVALID_REQUEST_CODE, PARSE_ERROR_CODE, RpcHandler};
use serde_json::{Value, json};

use crate::support::{
    T0, call, check, check_silent, check_text, handler, native_error, notification, ok,
    reference_ok, request, result, rule,
};

#[tokio::test]
async fn a_body_that_is_not_json_is_a_parse_error() -> Result<()> {
    let handler = handler()?;
    for body in ["{\"jsonrpc\":\"2.0\",", "", "nope", "[1,]"] {
        let reply = handler.handle_text(body).await.unwrap_or_default();
        let reply: Value = serde_json::from_str(&reply)?;
        ensure!(
            reply["id"].is_null() && reply["error"]["code"] == PARSE_ERROR_CODE,
            "{body:?} -> {reply}"
        );
        let message = reply["error"]["message"].as_str().unwrap_or_default();
        ensure!(message.starts_with("parse error: "), "{message}");
    }
    Ok(())
}

#[tokio::test]
async fn text_replies_keep_the_usual_member_order() -> Result<()> {
    let handler = handler()?;
    check_text(
        &handler,
        r#"{"method":"memory.tool_rule_get","params":{"tool_name":"shell","id":"a"},"id":"x","jsonrpc":"2.0"}"#,
        Some(r#"{"jsonrpc":"2.0","id":"x","result":null}"#),
    )
    .await?;
    check_text(
        &handler,
        r#"{"jsonrpc":"2.0","id":1,"method":"memory.tool_rule_list"}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: tool_name is required","data":{"field":"tool_name"}}}"#),
    )
    .await
}

#[tokio::test]
async fn malformed_requests_are_invalid() -> Result<()> {
    let handler = handler()?;
    let invalid = |id: Value, message: &str| {
        native_error(
            id,
            INVALID_REQUEST_CODE,
            &format!("invalid request: {message}"),
            None,
        )
    };
    let list = json!({"tool_name": "shell"});
    let cases = [
        (
            json!(5),
            invalid(Value::Null, "expected an object, got number"),
        ),
        (
            json!("memory.tool_rule_list"),
            invalid(Value::Null, "expected an object, got string"),
        ),
        (
            Value::Null,
            invalid(Value::Null, "expected an object, got null"),
        ),
        (
            json!({"id": 1, "method": "memory.tool_rule_list", "params": list}),
            invalid(json!(1), "jsonrpc must be \"2.0\", got nothing"),
        ),
        (
            json!({"jsonrpc": "1.0", "id": 1, "method": "memory.tool_rule_list", "params": list}),
            invalid(json!(1), "jsonrpc must be \"2.0\", got \"1.0\""),
        ),
        (
            json!({"jsonrpc": 2.0, "id": 1, "method": "memory.tool_rule_list", "params": list}),
            invalid(json!(1), "jsonrpc must be \"2.0\", got 2.0"),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "params": list}),
            invalid(json!(1), "method is missing"),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": 7}),
            invalid(json!(1), "method must be a string, got number"),
        ),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "memory.tool_rule_list"}),
            invalid(
                Value::Null,
                "id must be a string, number or null, got object",
            ),
        ),
        (
            json!({"jsonrpc": "2.0", "id": [1], "method": "memory.tool_rule_list"}),
            invalid(
                Value::Null,
                "id must be a string, number or null, got array",
            ),
        ),
        (
            json!({"jsonrpc": "2.0", "id": true, "method": "memory.tool_rule_list"}),
            invalid(Value::Null, "id must be a string, number or null, got bool"),
        ),
        // A malformed request is answered even without an id: it is not a notification.
        (
            json!({"jsonrpc": "2.0", "method": 7}),
            invalid(Value::Null, "method must be a string, got number"),
        ),
        (
            json!({"foo": "boo"}),
            invalid(Value::Null, "jsonrpc must be \"2.0\", got nothing"),
        ),
        (json!([]), invalid(Value::Null, "empty batch")),
    ];
    for (request, expected) in cases {
        check(&handler, request, expected).await?;
    }
    Ok(())
}

#[tokio::test]
async fn ids_of_every_allowed_type_are_echoed() -> Result<()> {
    let handler = handler()?;
    for id in [
        json!("abc"),
        json!(""),
        json!(0),
        json!(-3),
        json!(1.5),
        json!(u64::MAX),
        Value::Null,
    ] {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "memory.tool_rule_list", "params": {"tool_name": "shell"}});
        check(
            &handler,
            request,
            json!({"jsonrpc": "2.0", "id": id, "result": []}),
        )
        .await?;
    }
    Ok(())
}

#[tokio::test]
async fn null_or_missing_params_mean_an_empty_object() -> Result<()> {
    let handler = handler()?;
    let empty_prompt = json!({"rendered": "", "rules": [], "left_out": [], "critical_over_budget": false, "budget_bytes": 8192});
    check(
        &handler,
        json!({"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rules_for_prompt"}),
        ok(1, empty_prompt.clone()),
    )
    .await?;
    check(
        &handler,
        request(2, "memory.tool_rules_for_prompt", Value::Null),
        ok(2, empty_prompt),
    )
    .await?;
    check(
        &handler,
        json!({"jsonrpc": "2.0", "id": 3, "method": "openhuman.memory_tool_rules_for_prompt"}),
        reference_ok(
            3,
            json!({"rendered": "", "rules": []}),
            "tool memory rules prepared for prompt",
        ),
    )
    .await
}

#[tokio::test]
async fn notifications_get_no_reply_even_on_error() -> Result<()> {
    let handler = handler()?;
    check_silent(
        &handler,
        notification(
            "memory.tool_rule_put",
            json!({"tool_name": "shell", "rule": "quote every path"}),
        ),
    )
    .await?;
    check_silent(&handler, notification("memory.nope", json!({}))).await?;
    check_silent(
        &handler,
        notification("memory.tool_rule_put", json!({"rule": "no tool"})),
    )
    .await?;
    check_silent(
        &handler,
        notification("openhuman.memory_tool_rule_list", json!([])),
    )
    .await?;
    check_text(
        &handler,
        r#"{"jsonrpc":"2.0","method":"memory.tool_rule_list","params":{"tool_name":"shell"}}"#,
        None,
    )
    .await?;
    // The notification's write happened.
    let listed = result(
        &handler,
        request(1, "memory.tool_rule_list", json!({"tool_name": "shell"})),
    )
    .await?;
    ensure!(
        listed
            == json!([rule(
                "rule-1",
                "shell",
                "quote every path",
                "normal",
                "programmatic",
                &[],
                (T0, T0)
            )]),
        "{listed}"
    );
    Ok(())
}

#[tokio::test]
async fn batches_answer_in_order_and_skip_notifications() -> Result<()> {
    let handler = handler()?;
    let stored = rule(
        "rule-1",
        "shell",
        "quote every path",
        "normal",
        "programmatic",
        &[],
        (T0, T0),
    );
    let batch = json!([
        request(
            1,
            "memory.tool_rule_put",
            json!({"tool_name": "shell", "rule": "quote every path"})
        ),
        notification(
            "memory.tool_rule_delete",
            json!({"tool_name": "git", "id": "x"})
        ),
        5,
        request(2, "memory.nope", json!({})),
        request(
            3,
            "openhuman.memory_tool_rule_list",
            json!({"tool_name": "shell"})
        ),
        request(
            4,
            "memory.tool_rule_list",
            json!({"tool_name": "shell", "extra": 1})
        ),
        [request(
            5,
            "memory.tool_rule_list",
            json!({"tool_name": "shell"})
        )],
    ]);
    let expected = json!([
        ok(1, stored.clone()),
        native_error(
            Value::Null,
            INVALID_REQUEST_CODE,
            "invalid request: expected an object, got number",
            None
        ),
        native_error(
            json!(2),
            memory_rpc::METHOD_NOT_FOUND_CODE,
            "method not found: memory.nope",
            None
        ),
        reference_ok(3, json!([stored]), "tool memory rules listed"),
        native_error(
            json!(4),
            memory_rpc::INVALID_PARAMS_CODE,
            "invalid params: unknown param 'extra'",
            Some("extra")
        ),
        native_error(
            Value::Null,
            INVALID_REQUEST_CODE,
            "invalid request: expected an object, got array",
            None
        ),
    ]);
    check(&handler, batch, expected).await?;

    let invalid = native_error(
        Value::Null,
        INVALID_REQUEST_CODE,
        "invalid request: expected an object, got number",
        None,
    );
    check(&handler, json!([1, 2]), json!([invalid, invalid])).await?;
    // A one-element batch is still answered with an array.
    check(
        &handler,
        json!([request(
            6,
            "memory.tool_rule_get",
            json!({"tool_name": "shell", "id": "nope"})
        )]),
        json!([ok(6, Value::Null)]),
    )
    .await
}

#[tokio::test]
async fn a_batch_of_notifications_gets_no_reply() -> Result<()> {
    let handler = handler()?;
    let batch = json!([
        notification(
            "memory.tool_rule_put",
            json!({"tool_name": "shell", "rule": "a"})
        ),
        notification("memory.nope", json!({})),
    ]);
    ensure!(
        call(&handler, batch.clone()).await.is_none(),
        "a reply was sent"
    );
    check_text(&handler, &batch.to_string(), None).await?;
    let listed = result(
        &handler,
        request(1, "memory.tool_rule_list", json!({"tool_name": "shell"})),
    )
    .await?;
    ensure!(
        listed.as_array().map(Vec::len) == Some(2),
        "both notifications ran: {listed}"
    );
    Ok(())
}

#[tokio::test]
async fn every_listed_method_is_served() -> Result<()> {
    let names = RpcHandler::method_names();
    ensure!(
        names
            == [
                "memory.tool_rule_put",
                "memory.tool_rule_get",
                "memory.tool_rule_list",
                "memory.tool_rule_delete",
                "memory.tool_rules_for_prompt",
                "memory.tool_rules_json",
                "memory.recall",
                "memory.after_turn",
                "memory.tool_rule_revoke",
                "memory.tool_rule_restore",
                "memory.tool_rule_confirm",
                "memory.tool_call_check",
                "memory.tool_rule_history",
                "memory.tool_list",
                "memory.tool_rules_import",
                "openhuman.memory_tool_rule_put",
                "openhuman.memory_tool_rule_get",
                "openhuman.memory_tool_rule_list",
                "openhuman.memory_tool_rule_delete",
                "openhuman.memory_tool_rules_for_prompt",
                "openhuman.memory_tool_rules_json",
            ],
        "{names:?}"
    );
    let handler = handler()?;
    for name in names {
        let reply = call(&handler, request(1, name, json!({})))
            .await
            .unwrap_or_default();
        let code = &reply["error"]["code"];
        let message = reply["error"]["message"].as_str().unwrap_or_default();
        ensure!(
            *code != memory_rpc::METHOD_NOT_FOUND_CODE && !message.starts_with("unknown method"),
            "{name}: {reply}"
        );
    }
    Ok(())
}

#[test]
fn the_handler_future_can_move_between_threads() {
    fn assert_send<T: Send>(_: T) {}
    let handler = RpcHandler::new(active_memory_client::ActiveMemoryClient::in_memory());
    assert_send(handler.handle_text("{}"));
    assert_send(handler.handle_value(Value::Null));
}
