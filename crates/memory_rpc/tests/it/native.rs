//! `memory.*`: every method's results and every way its params can be wrong.

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};

use crate::support::{
    T0, T1, T2, check, handler, native_error, ok, request, result, rule, with_constraint,
};

const INVALID_PARAMS: i32 = memory_rpc::INVALID_PARAMS_CODE;

#[tokio::test]
async fn put_get_list_delete_round_trip() -> Result<()> {
    let handler = handler()?;
    let stored = rule(
        "rule-1",
        "shell",
        "quote every path",
        "critical",
        "programmatic",
        &["safety"],
        (T0, T0),
    );
    check(
        &handler,
        request(1, "memory.tool_rule_put", json!({"tool_name": " Shell ", "rule": "quote every path", "priority": "critical", "tags": ["safety"]})),
        ok(1, stored.clone()),
    )
    .await?;
    check(
        &handler,
        request(
            2,
            "memory.tool_rule_get",
            json!({"tool_name": "SHELL", "id": "rule-1"}),
        ),
        ok(2, stored.clone()),
    )
    .await?;
    check(
        &handler,
        request(3, "memory.tool_rule_list", json!({"tool_name": "shell"})),
        ok(3, json!([stored])),
    )
    .await?;
    check(
        &handler,
        request(4, "memory.tool_rules_json", json!({"tool_name": "shell"})),
        ok(4, json!([stored])),
    )
    .await?;
    check(
        &handler,
        request(
            5,
            "memory.tool_rule_delete",
            json!({"tool_name": "shell", "id": "rule-1"}),
        ),
        ok(5, json!(true)),
    )
    .await?;
    check(
        &handler,
        request(
            6,
            "memory.tool_rule_delete",
            json!({"tool_name": "shell", "id": "rule-1"}),
        ),
        ok(6, json!(false)),
    )
    .await?;
    check(
        &handler,
        request(
            7,
            "memory.tool_rule_get",
            json!({"tool_name": "shell", "id": "rule-1"}),
        ),
        ok(7, Value::Null),
    )
    .await?;
    check(
        &handler,
        request(8, "memory.tool_rule_list", json!({"tool_name": "shell"})),
        ok(8, json!([])),
    )
    .await
}

#[tokio::test]
async fn upsert_keeps_unset_fields_and_created_at() -> Result<()> {
    let handler = handler()?;
    let params = json!({"tool_name": "email", "rule": "never email Sarah", "priority": "critical", "source": "user_explicit", "tags": ["safety"], "id": "edict"});
    result(&handler, request(1, "memory.tool_rule_put", params)).await?;
    // priority, source and tags left out (or null): the critical rule is not downgraded (W-16).
    check(
        &handler,
        request(2, "memory.tool_rule_put", json!({"tool_name": "Email", "rule": "never email Sarah again", "priority": null, "id": "edict"})),
        ok(2, with_constraint(rule("edict", "email", "never email Sarah again", "critical", "user_explicit", &["safety"], (T0, T1)), json!({"derivation": 15, "polarity": "forbid", "matchers": [{"kind": "person", "value": "sarah"}]}))),
    )
    .await?;
    // Given fields replace the stored ones; a blank id generates a new rule.
    check(
        &handler,
        request(3, "memory.tool_rule_put", json!({"tool_name": "email", "rule": "be brief", "priority": "HIGH", "source": "post_turn", "tags": [], "id": "edict"})),
        ok(3, rule("edict", "email", "be brief", "high", "post_turn", &[], (T0, T2))),
    )
    .await?;
    check(
        &handler,
        request(
            4,
            "memory.tool_rule_put",
            json!({"tool_name": "email", "rule": "sign as Bo", "id": "   "}),
        ),
        ok(
            4,
            rule(
                "rule-1",
                "email",
                "sign as Bo",
                "normal",
                "programmatic",
                &[],
                (
                    "2026-01-01T00:00:00.000003+00:00",
                    "2026-01-01T00:00:00.000003+00:00",
                ),
            ),
        ),
    )
    .await
}

#[tokio::test]
async fn rules_for_prompt_reports_rendered_rules_and_budget() -> Result<()> {
    let handler = handler()?;
    for (tool, body, priority) in [
        ("shell", "quote every path", "critical"),
        ("git", "never force push", "high"),
        ("git", "log it", "normal"),
    ] {
        result(
            &handler,
            request(
                0,
                "memory.tool_rule_put",
                json!({"tool_name": tool, "rule": body, "priority": priority}),
            ),
        )
        .await?;
    }
    let critical = rule(
        "rule-1",
        "shell",
        "quote every path",
        "critical",
        "programmatic",
        &[],
        (T0, T0),
    );
    let high = with_constraint(
        rule(
            "rule-2",
            "git",
            "never force push",
            "high",
            "programmatic",
            &[],
            (T1, T1),
        ),
        json!({"derivation": 15, "polarity": "forbid", "matchers": [
            {"kind": "command", "value": "git push --force"},
            {"kind": "command", "value": "git push --force-with-lease"}
        ]}),
    );
    let every_tool = result(
        &handler,
        request(1, "memory.tool_rules_for_prompt", json!({})),
    )
    .await?;
    anyhow::ensure!(
        every_tool["rules"] == json!([critical, high]),
        "{every_tool}"
    );
    anyhow::ensure!(
        every_tool["left_out"] == json!([]) && every_tool["critical_over_budget"] == json!(false),
        "{every_tool}"
    );
    let rendered = every_tool["rendered"].as_str().unwrap_or_default();
    anyhow::ensure!(
        rendered.starts_with("## Tool-scoped rules") && rendered.contains("never force push"),
        "{rendered}"
    );
    let keys: Vec<&String> = every_tool
        .as_object()
        .map(|object| object.keys().collect())
        .unwrap_or_default();
    anyhow::ensure!(
        keys == [
            "budget_bytes",
            "critical_over_budget",
            "left_out",
            "rendered",
            "rules"
        ],
        "{keys:?}"
    );

    // Null and missing params and a null `tools` all mean every tool.
    for params in [Value::Null, json!({"tools": null}), json!({"tools": []})] {
        check(
            &handler,
            request(2, "memory.tool_rules_for_prompt", params),
            ok(2, every_tool.clone()),
        )
        .await?;
    }
    let only_git = result(
        &handler,
        request(
            3,
            "memory.tool_rules_for_prompt",
            json!({"tools": [" GIT ", "git"]}),
        ),
    )
    .await?;
    // A tool named after a program shares the shell family's rules (one set of rules across
    // agents), so the shell's critical rule is pinned for `git` too.
    anyhow::ensure!(only_git["rules"] == json!([critical, high]), "{only_git}");
    let nothing = result(
        &handler,
        request(4, "memory.tool_rules_for_prompt", json!({"tools": ["web"]})),
    )
    .await?;
    anyhow::ensure!(
        nothing["rules"] == json!([]) && nothing["rendered"] == json!(""),
        "{nothing}"
    );
    Ok(())
}

#[tokio::test]
async fn recall_searches_one_tool_namespace() -> Result<()> {
    let handler = handler()?;
    for body in ["quote every path", "never run sudo", "quote the path twice"] {
        result(
            &handler,
            request(
                0,
                "memory.tool_rule_put",
                json!({"tool_name": "shell", "rule": body}),
            ),
        )
        .await?;
    }
    result(
        &handler,
        request(
            0,
            "memory.tool_rule_put",
            json!({"tool_name": "git", "rule": "quote the path"}),
        ),
    )
    .await?;
    let found = result(
        &handler,
        request(
            1,
            "memory.recall",
            json!({"namespace": "tool-shell", "query": "path"}),
        ),
    )
    .await?;
    let mut bodies: Vec<&str> = found
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|rule| rule["rule"].as_str())
        .collect();
    bodies.sort_unstable();
    anyhow::ensure!(
        bodies == ["quote every path", "quote the path twice"],
        "{found}"
    );
    let limited = result(
        &handler,
        request(
            2,
            "memory.recall",
            json!({"namespace": "tool-shell", "query": "path", "limit": 1}),
        ),
    )
    .await?;
    anyhow::ensure!(limited.as_array().map(Vec::len) == Some(1), "{limited}");
    check(
        &handler,
        request(
            3,
            "memory.recall",
            json!({"namespace": "tool-web", "query": "path"}),
        ),
        ok(3, json!([])),
    )
    .await
}

/// Each case: method, params, message, field in `data`.
async fn check_invalid_params(cases: &[(&str, Value, &str, Option<&str>)]) -> Result<()> {
    let handler = handler()?;
    for (method, params, message, field) in cases {
        let expected = native_error(json!(9), INVALID_PARAMS, message, *field);
        check(&handler, request(9, method, params.clone()), expected).await?;
    }
    Ok(())
}

#[tokio::test]
async fn params_must_be_an_object_or_null() -> Result<()> {
    check_invalid_params(&[
        (
            "memory.tool_rule_list",
            json!(["shell"]),
            "invalid params: params must be an object or null, got array",
            None,
        ),
        (
            "memory.tool_rule_list",
            json!("shell"),
            "invalid params: params must be an object or null, got string",
            None,
        ),
        (
            "memory.tool_rule_list",
            json!(3),
            "invalid params: params must be an object or null, got number",
            None,
        ),
        (
            "memory.tool_rule_list",
            json!(true),
            "invalid params: params must be an object or null, got bool",
            None,
        ),
    ])
    .await
}

#[tokio::test]
async fn missing_and_unknown_params_are_named() -> Result<()> {
    check_invalid_params(&[
        (
            "memory.tool_rule_put",
            json!({"rule": "x"}),
            "invalid params: tool_name is required",
            Some("tool_name"),
        ),
        (
            "memory.tool_rule_put",
            json!({"tool_name": null, "rule": "x"}),
            "invalid params: tool_name is required",
            Some("tool_name"),
        ),
        (
            "memory.tool_rule_put",
            json!({"tool_name": "shell"}),
            "invalid params: rule is required",
            Some("rule"),
        ),
        (
            "memory.tool_rule_get",
            Value::Null,
            "invalid params: tool_name is required",
            Some("tool_name"),
        ),
        (
            "memory.tool_rule_get",
            json!({"tool_name": "shell"}),
            "invalid params: id is required",
            Some("id"),
        ),
        (
            "memory.tool_rule_delete",
            json!({"tool_name": "shell"}),
            "invalid params: id is required",
            Some("id"),
        ),
        (
            "memory.tool_rule_list",
            json!({}),
            "invalid params: tool_name is required",
            Some("tool_name"),
        ),
        (
            "memory.tool_rules_json",
            json!({}),
            "invalid params: tool_name is required",
            Some("tool_name"),
        ),
        (
            "memory.recall",
            json!({"namespace": "tool-shell"}),
            "invalid params: query is required",
            Some("query"),
        ),
        (
            "memory.after_turn",
            json!({"tool_calls": []}),
            "invalid params: user_message is required",
            Some("user_message"),
        ),
        (
            "memory.tool_rule_put",
            json!({"tool_name": "shell", "rule": "x", "foo": 1}),
            "invalid params: unknown param 'foo'",
            Some("foo"),
        ),
        (
            "memory.tool_rule_list",
            json!({"tool_name": "shell", "foo": null}),
            "invalid params: unknown param 'foo'",
            Some("foo"),
        ),
        (
            "memory.tool_rules_for_prompt",
            json!({"tool": ["shell"]}),
            "invalid params: unknown param 'tool'",
            Some("tool"),
        ),
        (
            "memory.after_turn",
            json!({"user_message": "hi", "agent_id": "a"}),
            "invalid params: unknown param 'agent_id'",
            Some("agent_id"),
        ),
    ])
    .await
}

#[tokio::test]
async fn wrongly_typed_and_invalid_values_name_the_field() -> Result<()> {
    check_invalid_params(&[
        ("memory.tool_rule_put", json!({"tool_name": 5, "rule": "x"}), "invalid params: tool_name is invalid: invalid type: integer `5`, expected a string", Some("tool_name")),
        ("memory.tool_rule_put", json!({"tool_name": "shell", "rule": "x", "tags": "safety"}), "invalid params: tags is invalid: invalid type: string \"safety\", expected a sequence", Some("tags")),
        ("memory.tool_rule_put", json!({"tool_name": "shell", "rule": "x", "priority": "urgent"}), "invalid params: priority is invalid: unknown value `urgent`, expected one of normal, high, critical", Some("priority")),
        ("memory.tool_rule_put", json!({"tool_name": "shell", "rule": "x", "priority": 3}), "invalid params: priority is invalid: invalid type: integer `3`, expected a string", Some("priority")),
        ("memory.tool_rule_put", json!({"tool_name": "shell", "rule": "x", "source": "user"}), "invalid params: source is invalid: unknown value `user`, expected one of user_explicit, post_turn, programmatic", Some("source")),
        ("memory.tool_rule_put", json!({"tool_name": "   ", "rule": "x"}), "invalid params: tool_name is required", Some("tool_name")),
        ("memory.tool_rule_put", json!({"tool_name": "shell", "rule": " \n "}), "invalid params: rule is required", Some("rule")),
        ("memory.tool_rule_put", json!({"tool_name": "shell", "rule": "x", "tags": [" "]}), "invalid params: tags is invalid: tag 0 is blank", Some("tags")),
        ("memory.tool_rule_get", json!({"tool_name": " ", "id": "a"}), "invalid params: tool_name is required", Some("tool_name")),
        ("memory.tool_rule_get", json!({"tool_name": "shell", "id": " "}), "invalid params: id is required", Some("id")),
        ("memory.tool_rules_for_prompt", json!({"tools": "shell"}), "invalid params: tools is invalid: invalid type: string \"shell\", expected a sequence", Some("tools")),
        ("memory.recall", json!({"namespace": "tool-shell", "query": "x", "limit": 500}), "invalid params: limit is invalid: must be between 1 and 100, got 500", Some("limit")),
        ("memory.recall", json!({"namespace": "tool-shell", "query": "x", "limit": 0}), "invalid params: limit is invalid: must be between 1 and 100, got 0", Some("limit")),
        ("memory.recall", json!({"namespace": "tool-shell", "query": "x", "limit": -1}), "invalid params: limit is invalid: invalid value: integer `-1`, expected u64", Some("limit")),
        ("memory.recall", json!({"namespace": "tool-", "query": "x"}), "invalid params: namespace is invalid: `tool-` is not a `tool-{name}` namespace", Some("namespace")),
        ("memory.after_turn", json!({"user_message": "hi", "tool_calls": [{"name": "shell"}]}), "invalid params: tool_calls is invalid: missing field `success`", Some("tool_calls")),
    ])
    .await
}

#[tokio::test]
async fn unknown_methods_are_not_found() -> Result<()> {
    let handler = handler()?;
    for method in [
        "memory.nope",
        "tool_rule_put",
        "memory_tool_rule_put",
        "memory.tool_rule_put ",
        "",
    ] {
        let expected = native_error(
            json!(1),
            memory_rpc::METHOD_NOT_FOUND_CODE,
            &format!("method not found: {method}"),
            None,
        );
        check(&handler, request(1, method, json!({})), expected).await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_call_check_answers_before_the_call_runs() -> Result<()> {
    let handler =
        memory_rpc::RpcHandler::new(active_memory_client::ActiveMemoryClient::in_memory());
    let put = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "memory.tool_rule_put",
        "params": {"tool_name": "send_email", "rule": "Never email Sarah at sarah@example.com.", "priority": "critical"}});
    handler.handle_value(put).await.context("put reply")?;
    let check = |arguments: Value| {
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "memory.tool_call_check",
            "params": {"tool_name": "send_email", "arguments": arguments}})
    };
    let denied = handler
        .handle_value(check(serde_json::json!({"to": "sarah@example.com"})))
        .await
        .context("reply")?;
    ensure!(denied["result"]["decision"] == "deny", "{denied}");
    ensure!(
        denied["result"]["rules"][0]["tool_name"] == "send_email",
        "{denied}"
    );
    ensure!(
        denied["result"]["reason"]
            .as_str()
            .is_some_and(|reason| !reason.is_empty()),
        "{denied}"
    );
    let allowed = handler
        .handle_value(check(serde_json::json!({"to": "bob@example.com"})))
        .await
        .context("reply")?;
    ensure!(allowed["result"]["decision"] == "allow", "{allowed}");
    let bad = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "memory.tool_rule_put",
        "params": {"tool_name": "x", "rule": "y", "constraint": {"polarity": "sometimes", "matchers": []}}});
    let bad = handler.handle_value(bad).await.context("reply")?;
    ensure!(
        bad["error"]["code"] == -32602 && bad["error"]["data"]["field"] == "constraint",
        "{bad}"
    );
    Ok(())
}

/// Revoke, restore and confirm each make their own change, under their own name in the
/// history, and answer "rule not found" for a rule that is not there.
#[tokio::test]
async fn each_lifecycle_method_makes_its_own_change() -> Result<()> {
    let handler = crate::support::handler_with(active_memory_client::ClientConfig {
        capture_enabled: true,
        confirm_captured_edicts: true,
        ..active_memory_client::ClientConfig::default()
    })?;
    let report = result(
        &handler,
        request(
            1,
            "memory.after_turn",
            json!({"user_message": "Never email Sarah.", "tool_calls": [{"name": "send_email", "success": true}]}),
        ),
    )
    .await?;
    let id = report["created"][0]["id"]
        .as_str()
        .context("a captured edict")?
        .to_owned();
    ensure!(report["created"][0]["proposed"] == true, "{report}");
    let address = json!({"tool_name": "send_email", "id": id});

    let confirmed = result(
        &handler,
        request(2, "memory.tool_rule_confirm", address.clone()),
    )
    .await?;
    ensure!(confirmed.get("proposed").is_none(), "{confirmed}");
    let revoked = result(
        &handler,
        request(3, "memory.tool_rule_revoke", address.clone()),
    )
    .await?;
    ensure!(revoked["revoked_at"].is_string(), "{revoked}");
    let restored = result(
        &handler,
        request(4, "memory.tool_rule_restore", address.clone()),
    )
    .await?;
    ensure!(restored.get("revoked_at").is_none(), "{restored}");

    let history = result(&handler, request(5, "memory.tool_rule_history", address)).await?;
    let lines: Vec<(&str, &str)> = history
        .as_array()
        .context("history lines")?
        .iter()
        .map(|line| {
            (
                line["action"].as_str().unwrap_or_default(),
                line["origin"]["method"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    ensure!(
        lines[..3]
            == [
                ("restore", "memory.tool_rule_restore"),
                ("revoke", "memory.tool_rule_revoke"),
                ("confirm", "memory.tool_rule_confirm"),
            ],
        "{history}"
    );

    for (number, method) in [
        "memory.tool_rule_confirm",
        "memory.tool_rule_revoke",
        "memory.tool_rule_restore",
    ]
    .into_iter()
    .enumerate()
    {
        let id = 10 + i64::try_from(number)?;
        check(
            &handler,
            request(id, method, json!({"tool_name": "send_email", "id": "nope"})),
            native_error(
                json!(id),
                memory_rpc::RULE_NOT_FOUND_CODE,
                "rule not found: no rule `nope` on tool `send_email`",
                None,
            ),
        )
        .await?;
    }
    Ok(())
}
