//! `openhuman.memory_*`: the reference envelope, its log lines and its exact error strings
//! (reference spec §5), and the reference's own RPC ops tests (§6).

use active_memory_client::ActiveMemoryClient;
use anyhow::{Result, ensure};
use memory_rpc::RpcHandler;
use serde_json::{Value, json};

use crate::support::{
    T0, T1, check, check_text, handler, reference_error, reference_ok, request, result, rule,
    with_constraint,
};

#[tokio::test]
async fn example_exchange_matches_the_reference_bytes() -> Result<()> {
    let handler = handler()?;
    check_text(
        &handler,
        r#"{"jsonrpc":"2.0","id":7,"method":"openhuman.memory_tool_rule_put","params":{"tool_name":"shell","rule":"quote every path","priority":"critical","tags":["safety"]}}"#,
        Some(r#"{"jsonrpc":"2.0","id":7,"result":{"result":{"id":"rule-1","tool_name":"shell","rule":"quote every path","priority":"critical","source":"programmatic","tags":["safety"],"created_at":"2026-01-01T00:00:00+00:00","updated_at":"2026-01-01T00:00:00+00:00"},"logs":["tool memory rule stored"]}}"#),
    )
    .await
}

#[tokio::test]
async fn every_method_is_wrapped_with_its_log_line() -> Result<()> {
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
    let cases = [
        (
            "openhuman.memory_tool_rule_put",
            json!({"tool_name": "Shell", "rule": "quote every path", "priority": "critical", "tags": ["safety"]}),
            stored.clone(),
            "tool memory rule stored",
        ),
        (
            "openhuman.memory_tool_rule_get",
            json!({"tool_name": "shell", "id": "rule-1"}),
            stored.clone(),
            "tool memory rule fetched",
        ),
        (
            "openhuman.memory_tool_rule_get",
            json!({"tool_name": "shell", "id": "nope"}),
            Value::Null,
            "tool memory rule fetched",
        ),
        (
            "openhuman.memory_tool_rule_list",
            json!({"tool_name": "shell"}),
            json!([stored]),
            "tool memory rules listed",
        ),
        (
            "openhuman.memory_tool_rules_json",
            json!({"tool_name": "shell"}),
            json!([stored]),
            "tool memory rules json",
        ),
        (
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tools": ["shell"]}),
            json!({"rendered": "## Tool-scoped rules\n\nThese rules are pinned by the user or by the safety pipeline. Treat every entry as a hard constraint when considering the matching tool \u{2014} do not override them silently. Lower-priority guidance lives in the `tool-{name}` memory namespace and can be queried via `memory_recall` if needed.\n\n### `shell`\n- **[critical]** quote every path\n", "rules": [stored]}),
            "tool memory rules prepared for prompt",
        ),
        (
            "openhuman.memory_tool_rule_delete",
            json!({"tool_name": "shell", "id": "rule-1"}),
            json!(true),
            "tool memory rule deleted",
        ),
        (
            "openhuman.memory_tool_rule_delete",
            json!({"tool_name": "shell", "id": "rule-1"}),
            json!(false),
            "tool memory rule deleted",
        ),
        // The reference store does not check lookup names: a blank one finds nothing.
        (
            "openhuman.memory_tool_rule_list",
            json!({"tool_name": " "}),
            json!([]),
            "tool memory rules listed",
        ),
        (
            "openhuman.memory_tool_rules_for_prompt",
            Value::Null,
            json!({"rendered": "", "rules": []}),
            "tool memory rules prepared for prompt",
        ),
    ];
    for (id, (method, params, value, log)) in (1..).zip(cases) {
        check(
            &handler,
            request(id, method, params),
            reference_ok(id, value, log),
        )
        .await?;
    }
    Ok(())
}

#[tokio::test]
async fn nullable_params_and_upsert_follow_the_documented_intent() -> Result<()> {
    let handler = handler()?;
    result(&handler, request(1, "openhuman.memory_tool_rule_put", json!({"tool_name": "email", "rule": "never email Sarah", "priority": "critical", "source": "user_explicit", "tags": ["safety"], "id": "edict"}))).await?;
    // priority, source and id may be null; leaving fields out keeps what is stored, so an
    // upsert never downgrades a critical rule (W-16), and created_at is kept (W-17).
    check(
        &handler,
        request(2, "openhuman.memory_tool_rule_put", json!({"tool_name": " EMAIL ", "rule": "never email Sarah!", "priority": null, "source": null, "id": "edict"})),
        reference_ok(2, with_constraint(rule("edict", "email", "never email Sarah!", "critical", "user_explicit", &["safety"], (T0, T1)), json!({"derivation": 15, "polarity": "forbid", "matchers": [{"kind": "person", "value": "sarah"}]})), "tool memory rule stored"),
    )
    .await?;
    check(
        &handler,
        request(
            3,
            "openhuman.memory_tool_rule_put",
            json!({"tool_name": "git", "rule": "pull first", "id": null}),
        ),
        reference_ok(
            3,
            rule(
                "rule-1",
                "git",
                "pull first",
                "normal",
                "programmatic",
                &[],
                (
                    "2026-01-01T00:00:00.000002+00:00",
                    "2026-01-01T00:00:00.000002+00:00",
                ),
            ),
            "tool memory rule stored",
        ),
    )
    .await
}

#[tokio::test]
async fn errors_use_the_reference_strings() -> Result<()> {
    let handler = handler()?;
    let put = "openhuman.memory_tool_rule_put";
    let cases = [
        (
            "openhuman.memory_nope",
            json!({}),
            "unknown method: openhuman.memory_nope",
        ),
        (
            "openhuman.memory_recall",
            json!({}),
            "unknown method: openhuman.memory_recall",
        ),
        (
            "openhuman.memory_tool_rule_list",
            json!(["shell"]),
            "invalid params: expected object or null, got array",
        ),
        (
            "openhuman.memory_tool_rule_list",
            json!("shell"),
            "invalid params: expected object or null, got string",
        ),
        (
            "openhuman.memory_tool_rule_list",
            json!(1.5),
            "invalid params: expected object or null, got number",
        ),
        (
            "openhuman.memory_tool_rule_list",
            json!(false),
            "invalid params: expected object or null, got bool",
        ),
        (
            put,
            json!({"rule": "x"}),
            "missing required param 'tool_name': Tool the rule applies to.",
        ),
        (
            put,
            json!({"tool_name": "shell"}),
            "missing required param 'rule': Natural-language rule body.",
        ),
        // Missing params are reported before unknown ones.
        (
            put,
            json!({"foo": 1}),
            "missing required param 'tool_name': Tool the rule applies to.",
        ),
        (
            "openhuman.memory_tool_rule_get",
            json!({"tool_name": "shell"}),
            "missing required param 'id': Rule id.",
        ),
        (
            "openhuman.memory_tool_rule_delete",
            json!({"tool_name": "shell"}),
            "missing required param 'id': Rule id.",
        ),
        (
            "openhuman.memory_tool_rule_list",
            Value::Null,
            "missing required param 'tool_name': Tool the rule applies to.",
        ),
        (
            "openhuman.memory_tool_rules_json",
            json!({}),
            "missing required param 'tool_name': Tool the rule applies to.",
        ),
        (
            put,
            json!({"tool_name": "shell", "rule": "x", "foo": 1}),
            "unknown param 'foo' for memory.tool_rule_put",
        ),
        (
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tool": []}),
            "unknown param 'tool' for memory.tool_rules_for_prompt",
        ),
        (
            "openhuman.memory_tool_rule_get",
            json!({"tool_name": "shell", "id": "a", "x": null}),
            "unknown param 'x' for memory.tool_rule_get",
        ),
        (
            put,
            json!({"tool_name": "shell", "rule": "x", "priority": "urgent"}),
            "invalid params: unknown variant `urgent`, expected one of `normal`, `high`, `critical`",
        ),
        // The reference parses enums with serde: exact lower-case spelling only.
        (
            put,
            json!({"tool_name": "shell", "rule": "x", "priority": "HIGH"}),
            "invalid params: unknown variant `HIGH`, expected one of `normal`, `high`, `critical`",
        ),
        (
            put,
            json!({"tool_name": "shell", "rule": "x", "source": "user"}),
            "invalid params: unknown variant `user`, expected one of `user_explicit`, `post_turn`, `programmatic`",
        ),
        (
            put,
            json!({"tool_name": "shell", "rule": "x", "tags": null}),
            "invalid params: invalid type: null, expected a sequence",
        ),
        (
            put,
            json!({"tool_name": "shell", "rule": "x", "tags": "safety"}),
            "invalid params: invalid type: string \"safety\", expected a sequence",
        ),
        (
            put,
            json!({"tool_name": 5, "rule": "x"}),
            "invalid params: invalid type: integer `5`, expected a string",
        ),
        (
            put,
            json!({"tool_name": null, "rule": "x"}),
            "invalid params: invalid type: null, expected a string",
        ),
        (
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tools": null}),
            "invalid params: invalid type: null, expected a sequence",
        ),
        (
            put,
            json!({"tool_name": "  ", "rule": "x"}),
            "tool_name is required",
        ),
        // The tool name is checked before the body, as in the reference.
        (
            put,
            json!({"tool_name": "  ", "rule": " "}),
            "tool_name is required",
        ),
        (
            put,
            json!({"tool_name": "shell", "rule": "   "}),
            "rule body is required",
        ),
    ];
    for (id, (method, params, message)) in (1..).zip(cases) {
        check(
            &handler,
            request(id, method, params),
            reference_error(id, message),
        )
        .await?;
    }
    Ok(())
}

/// Reference §6, "OpenHuman RPC ops tests" 1: round trip on the ordinary in-memory client.
#[tokio::test]
async fn ops_round_trip_regenerates_a_blank_id() -> Result<()> {
    let handler = RpcHandler::new(ActiveMemoryClient::in_memory());
    let tool = "toolmem_test_0123456789ab";
    let put = result(&handler, request(1, "openhuman.memory_tool_rule_put", json!({"tool_name": tool, "rule": "Always ask before sending emails", "priority": null, "source": null, "tags": ["safety"], "id": "   "}))).await?;
    let stored = &put["result"];
    ensure!(put["logs"] == json!(["tool memory rule stored"]), "{put}");
    ensure!(
        stored["priority"] == "normal"
            && stored["source"] == "programmatic"
            && stored["tags"] == json!(["safety"]),
        "{stored}"
    );
    let id = stored["id"].as_str().unwrap_or_default().to_owned();
    ensure!(
        !id.trim().is_empty() && id != "   ",
        "id was not regenerated: {id:?}"
    );

    let got = result(
        &handler,
        request(
            2,
            "openhuman.memory_tool_rule_get",
            json!({"tool_name": tool, "id": id}),
        ),
    )
    .await?;
    ensure!(
        got["result"]["rule"] == "Always ask before sending emails",
        "{got}"
    );
    let listed = result(
        &handler,
        request(
            3,
            "openhuman.memory_tool_rule_list",
            json!({"tool_name": tool}),
        ),
    )
    .await?;
    ensure!(
        listed["result"].as_array().map(Vec::len) == Some(1)
            && listed["result"][0]["id"] == id.as_str(),
        "{listed}"
    );
    let deleted = result(
        &handler,
        request(
            4,
            "openhuman.memory_tool_rule_delete",
            json!({"tool_name": tool, "id": id}),
        ),
    )
    .await?;
    ensure!(deleted["result"] == json!(true), "{deleted}");
    let gone = result(
        &handler,
        request(
            5,
            "openhuman.memory_tool_rule_get",
            json!({"tool_name": tool, "id": id}),
        ),
    )
    .await?;
    ensure!(
        gone == json!({"result": null, "logs": ["tool memory rule fetched"]}),
        "{gone}"
    );
    Ok(())
}

/// Reference §6, "OpenHuman RPC ops tests" 2: prompt sort.
#[tokio::test]
async fn ops_prompt_sort_pins_only_eager_rules() -> Result<()> {
    let handler = RpcHandler::new(ActiveMemoryClient::in_memory());
    let (primary, secondary) = ("toolmem_test_aaaaaaaaaaaa", "toolmem_test_bbbbbbbbbbbb");
    result(
        &handler,
        request(
            1,
            "openhuman.memory_tool_rule_put",
            json!({"tool_name": primary, "rule": "Use the dry-run mode first", "priority": "high"}),
        ),
    )
    .await?;
    result(
        &handler,
        request(
            2,
            "openhuman.memory_tool_rule_put",
            json!({"tool_name": secondary, "rule": "Log the final command", "priority": "normal"}),
        ),
    )
    .await?;

    let prompt = result(
        &handler,
        request(
            3,
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tools": [secondary, primary]}),
        ),
    )
    .await?;
    let value = &prompt["result"];
    let keys: Vec<&String> = value
        .as_object()
        .map(|object| object.keys().collect())
        .unwrap_or_default();
    ensure!(
        keys == ["rendered", "rules"],
        "the reference result has exactly rendered and rules: {keys:?}"
    );
    ensure!(
        value["rules"].as_array().map(Vec::len) == Some(1)
            && value["rules"][0]["priority"] == "high",
        "{value}"
    );
    let rendered = value["rendered"].as_str().unwrap_or_default();
    ensure!(
        rendered.contains(primary) && rendered.contains("Use the dry-run mode first"),
        "{rendered}"
    );
    ensure!(!rendered.contains("Log the final command"), "{rendered}");

    let json = result(
        &handler,
        request(
            4,
            "openhuman.memory_tool_rules_json",
            json!({"tool_name": secondary}),
        ),
    )
    .await?;
    let rows = json["result"].as_array().cloned().unwrap_or_default();
    ensure!(
        rows.iter()
            .any(|row| row["rule"] == "Log the final command"),
        "{json}"
    );

    // Empty tools scans every tool (the schema's promise; V3 returned nothing, W-18).
    let every = result(
        &handler,
        request(
            5,
            "openhuman.memory_tool_rules_for_prompt",
            json!({"tools": []}),
        ),
    )
    .await?;
    ensure!(every["result"]["rules"] == value["rules"], "{every}");
    Ok(())
}
