//! The methods a person's view of many rules needs: `memory.tool_list` (counts per tool),
//! pages of `memory.tool_rule_list`, `memory.tool_rules_import` with its per-line report, and
//! the budget the prompt is rendered with.

use anyhow::{Result, ensure};
use memory_rpc::{MAX_IMPORT_LINES, RpcHandler};
use serde_json::{Value, json};

use crate::support::{T0, call, check, handler, native_error, ok, request, result};

const INVALID_PARAMS: i32 = memory_rpc::INVALID_PARAMS_CODE;

async fn put(handler: &RpcHandler, tool: &str, body: &str, priority: &str) -> Result<String> {
    let stored = result(
        handler,
        request(
            0,
            "memory.tool_rule_put",
            json!({"tool_name": tool, "rule": body, "priority": priority}),
        ),
    )
    .await?;
    Ok(stored["id"].as_str().unwrap_or_default().to_owned())
}

/// The rule the import tests write.
async fn imported(handler: &RpcHandler) -> Result<Value> {
    result(
        handler,
        request(
            0,
            "memory.tool_rule_get",
            json!({"tool_name": "shell", "id": "imported-1"}),
        ),
    )
    .await
}

#[tokio::test]
async fn tool_list_counts_every_tool_by_priority_and_state() -> Result<()> {
    let handler = handler()?;
    check(
        &handler,
        request(1, "memory.tool_list", json!({})),
        ok(1, json!([])),
    )
    .await?;
    put(&handler, "shell", "quote every path", "critical").await?;
    put(&handler, "shell", "prefer rg", "normal").await?;
    let revoked = put(&handler, "shell", "never run make", "high").await?;
    put(&handler, "git", "never force push", "high").await?;
    result(
        &handler,
        request(
            2,
            "memory.tool_rule_revoke",
            json!({"tool_name": "shell", "id": revoked}),
        ),
    )
    .await?;
    check(
        &handler,
        request(3, "memory.tool_list", Value::Null),
        ok(
            3,
            json!([
                {"tool_name": "git", "critical": 0, "high": 1, "normal": 0, "proposed": 0, "revoked": 0},
                {"tool_name": "shell", "critical": 1, "high": 0, "normal": 1, "proposed": 0, "revoked": 1},
            ]),
        ),
    )
    .await?;
    check(
        &handler,
        request(4, "memory.tool_list", json!({"tool_name": "git"})),
        native_error(
            json!(4),
            INVALID_PARAMS,
            "invalid params: unknown param 'tool_name'",
            Some("tool_name"),
        ),
    )
    .await
}

#[tokio::test]
async fn a_page_of_rules_has_its_total_and_keeps_the_listing_order() -> Result<()> {
    let handler = handler()?;
    for index in 0..7 {
        let tag = if index % 2 == 0 { "even" } else { "odd" };
        result(
            &handler,
            request(
                0,
                "memory.tool_rule_put",
                json!({"tool_name": "shell", "rule": format!("rule number {index}"), "tags": [tag]}),
            ),
        )
        .await?;
    }
    let whole = result(
        &handler,
        request(1, "memory.tool_rule_list", json!({"tool_name": "shell"})),
    )
    .await?;
    let whole = whole.as_array().cloned().unwrap_or_default();
    ensure!(
        whole.len() == 7,
        "no params lists every rule, as before: {whole:?}"
    );

    let page = result(
        &handler,
        request(
            2,
            "memory.tool_rule_list",
            json!({"tool_name": "shell", "limit": 3, "offset": 3}),
        ),
    )
    .await?;
    ensure!(page["total"] == 7 && page["offset"] == 3, "page: {page}");
    ensure!(page["rules"] == json!(whole[3..6]), "page: {page}");

    let filtered = result(
        &handler,
        request(
            3,
            "memory.tool_rule_list",
            json!({"tool_name": "shell", "limit": 10, "filter": "ODD"}),
        ),
    )
    .await?;
    let odd: Vec<&Value> = whole
        .iter()
        .filter(|rule| rule["tags"] == json!(["odd"]))
        .collect();
    ensure!(
        filtered["total"] == 3 && filtered["rules"] == json!(odd),
        "filtered: {filtered}"
    );

    // A proposed rule (imported as one) is found apart from the others.
    let proposal = json!({"tool_name": "shell", "id": "waiting", "rule": "never run make", "proposed": true, "created_at": T0, "updated_at": T0});
    let report = result(
        &handler,
        request(
            0,
            "memory.tool_rules_import",
            json!({"lines": proposal.to_string()}),
        ),
    )
    .await?;
    ensure!(report["created"] == 1, "{report}");
    let waiting = result(
        &handler,
        request(
            0,
            "memory.tool_rule_list",
            json!({"tool_name": "shell", "limit": 10, "proposed": true}),
        ),
    )
    .await?;
    ensure!(
        waiting["total"] == 1 && waiting["rules"][0]["id"] == "waiting",
        "waiting: {waiting}"
    );

    for (id, params, message, field) in [
        (
            4,
            json!({"tool_name": "shell", "limit": 0}),
            "invalid params: limit is invalid: must be between 1 and 1000, got 0",
            "limit",
        ),
        (
            5,
            json!({"tool_name": "shell", "offset": 2}),
            "invalid params: limit is invalid: is required with offset, filter or proposed",
            "limit",
        ),
        (
            6,
            json!({"tool_name": "shell", "limit": 2, "offset": -1}),
            "invalid params: offset is invalid: invalid value: integer `-1`, expected u64",
            "offset",
        ),
    ] {
        check(
            &handler,
            request(id, "memory.tool_rule_list", params),
            native_error(json!(id), INVALID_PARAMS, message, Some(field)),
        )
        .await?;
    }
    Ok(())
}

#[tokio::test]
async fn an_import_reports_each_line_and_writes_nothing_when_one_is_unreadable() -> Result<()> {
    let handler = handler()?;
    let good = json!({"tool_name": "shell", "id": "imported-1", "rule": "quote every path", "priority": "critical", "created_at": T0, "updated_at": T0});
    let lines = format!("{good}\n\nnot a rule\n");
    let report = result(
        &handler,
        request(1, "memory.tool_rules_import", json!({"lines": lines})),
    )
    .await?;
    ensure!(
        report["written"] == false && report["invalid"] == 1,
        "report: {report}"
    );
    let bad = &report["lines"][1];
    ensure!(
        bad["line"] == 3 && bad["outcome"] == "invalid" && bad["reason"].is_string(),
        "the bad line is named by its number (blank lines count): {report}"
    );
    check(
        &handler,
        request(2, "memory.tool_rule_list", json!({"tool_name": "shell"})),
        ok(2, json!([])),
    )
    .await?;

    let report = result(
        &handler,
        request(
            3,
            "memory.tool_rules_import",
            json!({"lines": format!("{good}\n")}),
        ),
    )
    .await?;
    ensure!(
        report["written"] == true
            && report["created"] == 1
            && report["lines"][0]["outcome"] == "created"
            && report["lines"][0]["id"] == "imported-1",
        "report: {report}"
    );
    let stored = imported(&handler).await?;
    ensure!(
        stored["rule"] == "quote every path" && stored["priority"] == "critical",
        "stored: {stored}"
    );

    // A weaker copy of the stored rule is refused, and the stored one stays.
    let weaker = json!({"tool_name": "shell", "id": "imported-1", "rule": "quote every path", "priority": "normal", "created_at": T0, "updated_at": T0});
    let report = result(
        &handler,
        request(
            5,
            "memory.tool_rules_import",
            json!({"lines": weaker.to_string()}),
        ),
    )
    .await?;
    ensure!(
        report["refused"] == 1 && report["lines"][0]["outcome"] == "refused",
        "report: {report}"
    );
    let stored = imported(&handler).await?;
    ensure!(stored["priority"] == "critical", "stored: {stored}");

    let history = result(
        &handler,
        request(
            7,
            "memory.tool_rule_history",
            json!({"tool_name": "shell", "limit": 1}),
        ),
    )
    .await?;
    ensure!(
        history[0]["origin"] == json!({"kind": "rpc", "method": "memory.tool_rules_import"}),
        "the import is recorded as the RPC method that asked: {history}"
    );
    Ok(())
}

#[tokio::test]
async fn an_import_over_its_line_bound_is_refused_before_anything_runs() -> Result<()> {
    let handler = handler()?;
    let line = json!({"tool_name": "shell", "rule": "quote every path"}).to_string();
    let lines = vec![line; MAX_IMPORT_LINES + 1].join("\n");
    // Compared without the request: echoing 10,001 lines would bury the failure.
    let reply = call(
        &handler,
        request(1, "memory.tool_rules_import", json!({"lines": lines})),
    )
    .await
    .unwrap_or_default();
    let expected = native_error(
        json!(1),
        INVALID_PARAMS,
        &format!(
            "invalid params: lines is invalid: at most {MAX_IMPORT_LINES} lines are allowed, got {}",
            MAX_IMPORT_LINES + 1
        ),
        Some("lines"),
    );
    ensure!(reply == expected, "{reply}");
    check(
        &handler,
        request(2, "memory.tool_list", json!({})),
        ok(2, json!([])),
    )
    .await
}

#[tokio::test]
async fn the_prompt_says_the_budget_it_was_rendered_with() -> Result<()> {
    let handler = crate::support::handler_with(active_memory_client::ClientConfig {
        prompt_budget_bytes: 1234,
        ..active_memory_client::ClientConfig::default()
    })?;
    let prompt = result(
        &handler,
        request(1, "memory.tool_rules_for_prompt", json!({})),
    )
    .await?;
    ensure!(prompt["budget_bytes"] == 1234, "prompt: {prompt}");
    Ok(())
}
