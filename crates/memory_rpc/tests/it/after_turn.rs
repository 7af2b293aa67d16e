//! `memory.after_turn` (capture through the facade) and the storage error code.

use std::sync::Arc;

use active_memory_client::ActiveMemoryClient;
use anyhow::{Result, ensure};
use async_trait::async_trait;
use memory_rpc::{RpcHandler, STORAGE_ERROR_CODE};
use serde_json::{Value, json};
use tool_memory_core::{HistoryEntry, Origin, RulePut, ToolMemoryRule, ToolStats};
use tool_memory_store::{Listing, PromptSelection, RuleStore};

use crate::support::{check, handler, native_error, reference_error, request, result};

fn turn() -> Value {
    json!({
        "user_message": "Never email Sarah at sarah@example.com.",
        "tool_calls": [{"name": "send_email", "arguments": {"to": "bob@example.com"}, "success": true, "output_summary": "sent"}],
        "session_id": "s-1",
        "available_tools": ["send_email", "shell"],
    })
}

#[tokio::test]
async fn an_edict_creates_one_critical_rule_and_a_repeat_refreshes_it() -> Result<()> {
    let handler = handler()?;
    let first = result(&handler, request(1, "memory.after_turn", turn())).await?;
    ensure!(first["capture_enabled"] == json!(true), "{first}");
    let created = first["created"].as_array().cloned().unwrap_or_default();
    ensure!(created.len() == 1, "one rule created: {first}");
    ensure!(
        created[0]["tool_name"] == "send_email" && created[0]["priority"] == "critical",
        "{first}"
    );
    ensure!(
        created[0]["rule"]
            .as_str()
            .unwrap_or_default()
            .contains("sarah@example.com"),
        "{first}"
    );
    ensure!(
        first["refreshed"] == json!([]) && first["changed"] == json!([]),
        "{first}"
    );
    ensure!(
        first["stats"][0]["tool_name"] == "send_email" && first["stats"][0]["calls"] == 1,
        "{first}"
    );

    let second = result(&handler, request(2, "memory.after_turn", turn())).await?;
    ensure!(
        second["created"] == json!([]) && second["changed"] == json!([]),
        "{second}"
    );
    let refreshed = second["refreshed"].as_array().cloned().unwrap_or_default();
    ensure!(
        refreshed.len() == 1 && refreshed[0]["id"] == created[0]["id"],
        "{second}"
    );
    ensure!(second["stats"][0]["calls"] == 2, "{second}");

    let listed = result(
        &handler,
        request(
            3,
            "memory.tool_rule_list",
            json!({"tool_name": "send_email"}),
        ),
    )
    .await?;
    ensure!(
        listed.as_array().map(Vec::len) == Some(1),
        "still one rule: {listed}"
    );
    Ok(())
}

#[tokio::test]
async fn a_turn_without_edicts_or_tools_changes_nothing() -> Result<()> {
    let handler = handler()?;
    let report = result(
        &handler,
        request(
            1,
            "memory.after_turn",
            json!({"user_message": "", "session_id": null}),
        ),
    )
    .await?;
    ensure!(
        report
            == json!({
                "capture_enabled": true,
                "created": [],
                "refreshed": [],
                "changed": [],
                "revoked": [],
                "restored": [],
                "unmatched_revocations": [],
                "expired": [],
                "stats": []
            }),
        "{report}"
    );
    Ok(())
}

/// A store whose backend is down.
#[derive(Debug)]
struct DownStore;

fn down<T>() -> tool_memory_store::Result<T> {
    Err(tool_memory_store::Error::Worker(
        "database is locked".to_owned(),
    ))
}

#[async_trait]
impl RuleStore for DownStore {
    async fn put(&self, _put: RulePut) -> tool_memory_store::Result<ToolMemoryRule> {
        down()
    }
    async fn get(
        &self,
        _tool: &str,
        _id: &str,
    ) -> tool_memory_store::Result<Option<ToolMemoryRule>> {
        down()
    }
    async fn list(&self, _tool: &str) -> tool_memory_store::Result<Listing> {
        down()
    }
    async fn list_including_revoked(&self, _tool: &str) -> tool_memory_store::Result<Listing> {
        down()
    }
    async fn change_rule(
        &self,
        _tool: &str,
        _id: &str,
        _action: tool_memory_core::HistoryAction,
        _origin: &Origin,
        _change: tool_memory_store::RuleChange,
    ) -> tool_memory_store::Result<Option<ToolMemoryRule>> {
        down()
    }
    async fn remove_rule(
        &self,
        _tool: &str,
        _id: &str,
        _action: tool_memory_core::HistoryAction,
        _origin: &Origin,
    ) -> tool_memory_store::Result<bool> {
        down()
    }
    async fn history(
        &self,
        _tool: &str,
        _id: Option<&str>,
        _limit: usize,
        _before: Option<i64>,
    ) -> tool_memory_store::Result<Vec<HistoryEntry>> {
        down()
    }
    async fn append_history(
        &self,
        _event: tool_memory_core::HistoryEvent,
    ) -> tool_memory_store::Result<HistoryEntry> {
        down()
    }
    async fn list_tool_names(&self) -> tool_memory_store::Result<Vec<String>> {
        down()
    }
    async fn rules_for_prompt(
        &self,
        _tools: &[String],
        _max: Option<usize>,
    ) -> tool_memory_store::Result<PromptSelection> {
        down()
    }
    async fn import(
        &self,
        _rule: ToolMemoryRule,
        _origin: &Origin,
    ) -> tool_memory_store::Result<()> {
        down()
    }
    async fn search(
        &self,
        _tool: &str,
        _query: &str,
        _limit: usize,
    ) -> tool_memory_store::Result<Vec<ToolMemoryRule>> {
        down()
    }
    async fn apply_turn(
        &self,
        _changes: tool_memory_store::TurnChanges,
    ) -> tool_memory_store::Result<tool_memory_store::TurnOutcome> {
        down()
    }
    async fn record_stats(&self, _delta: &ToolStats) -> tool_memory_store::Result<ToolStats> {
        down()
    }
    async fn tool_stats(&self, _tool: &str) -> tool_memory_store::Result<Option<ToolStats>> {
        down()
    }
}

#[tokio::test]
async fn storage_failures_have_their_own_code() -> Result<()> {
    let handler = RpcHandler::new(ActiveMemoryClient::from_store(Arc::new(DownStore)));
    let message = "storage error: storage worker failed: database is locked";
    let cases = [
        (
            "memory.tool_rule_put",
            json!({"tool_name": "shell", "rule": "x"}),
        ),
        (
            "memory.tool_rule_get",
            json!({"tool_name": "shell", "id": "a"}),
        ),
        ("memory.tool_rule_list", json!({"tool_name": "shell"})),
        (
            "memory.tool_rule_delete",
            json!({"tool_name": "shell", "id": "a"}),
        ),
        ("memory.tool_rules_for_prompt", json!({})),
        ("memory.tool_rules_json", json!({"tool_name": "shell"})),
        (
            "memory.recall",
            json!({"namespace": "tool-shell", "query": "x"}),
        ),
    ];
    for (method, params) in cases {
        check(
            &handler,
            request(1, method, params.clone()),
            native_error(json!(1), STORAGE_ERROR_CODE, message, None),
        )
        .await?;
        let reference = method.replace("memory.", "openhuman.memory_");
        if method != "memory.recall" {
            check(
                &handler,
                request(2, &reference, params),
                reference_error(2, "storage worker failed: database is locked"),
            )
            .await?;
        }
    }
    Ok(())
}
