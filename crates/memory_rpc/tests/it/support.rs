//! The test harness: a handler over a fresh in-memory store with a manual clock and
//! sequential ids (so every response is exact), request and response builders, and the
//! `check` helpers every test is written with.

use std::sync::Arc;

use active_memory_client::{ActiveMemoryClient, ClientConfig, Timestamp};
use anyhow::{Result, ensure};
use memory_rpc::RpcHandler;
use serde_json::{Value, json};
use tool_memory_core::{ManualClock, SequentialIds};
use tool_memory_store::{InMemoryRuleStore, Services};

/// The first reading of the test clock; each later reading is one microsecond on.
pub(crate) const T0: &str = "2026-01-01T00:00:00+00:00";
pub(crate) const T1: &str = "2026-01-01T00:00:00.000001+00:00";
pub(crate) const T2: &str = "2026-01-01T00:00:00.000002+00:00";

/// A deterministic handler: ids `rule-1`, `rule-2`, …; timestamps from [`T0`]; capture on.
pub(crate) fn handler() -> Result<RpcHandler> {
    handler_with(ClientConfig {
        capture_enabled: true,
        ..ClientConfig::default()
    })
}

/// [`handler`] with other client settings.
pub(crate) fn handler_with(config: ClientConfig) -> Result<RpcHandler> {
    let clock = Arc::new(ManualClock::starting_at(Timestamp::parse(
        "2026-01-01T00:00:00Z",
    )?));
    let services = Services {
        clock: clock.clone(),
        ids: Arc::new(SequentialIds::new("rule")),
    };
    let store = Arc::new(InMemoryRuleStore::with_services(services));
    let client = ActiveMemoryClient::from_parts(store, clock).with_config(config);
    Ok(RpcHandler::new(client))
}

/// A request object.
pub(crate) fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A notification (no `id` member).
pub(crate) fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// A native success.
pub(crate) fn ok(id: i64, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A native error; `field` goes into `data` when given.
pub(crate) fn native_error(id: Value, code: i32, message: &str, field: Option<&str>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(field) = field {
        error["data"] = json!({"field": field});
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// A reference-envelope success.
pub(crate) fn reference_ok(id: i64, result: Value, log: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"result": result, "logs": [log]}})
}

/// A reference-envelope error: always `-32000` with `data: null`.
pub(crate) fn reference_error(id: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": message, "data": null}})
}

/// A stored rule as the wire shows it.
pub(crate) fn rule(
    id: &str,
    tool_name: &str,
    body: &str,
    priority: &str,
    source: &str,
    tags: &[&str],
    (created_at, updated_at): (&str, &str),
) -> Value {
    json!({
        "id": id, "tool_name": tool_name, "rule": body, "priority": priority,
        "source": source, "tags": tags, "created_at": created_at, "updated_at": updated_at,
    })
}

/// `rule` with the enforcement constraint toolmem derived from its text, as every written rule
/// carries one when its text names something the guard can check.
pub(crate) fn with_constraint(mut rule: Value, constraint: Value) -> Value {
    rule["constraint"] = constraint;
    rule
}

/// Sends `request` and returns the reply, `None` when nothing was sent back.
pub(crate) async fn call(handler: &RpcHandler, request: Value) -> Option<Value> {
    handler.handle_value(request).await
}

/// Sends `request` and requires exactly `expected` back.
pub(crate) async fn check(handler: &RpcHandler, request: Value, expected: Value) -> Result<()> {
    let actual = call(handler, request.clone()).await;
    ensure!(
        actual.as_ref() == Some(&expected),
        "request:  {request}\nexpected: {expected}\nactual:   {}",
        actual.map_or("<no reply>".to_owned(), |value| value.to_string()),
    );
    Ok(())
}

/// Sends `request` and requires that nothing comes back.
pub(crate) async fn check_silent(handler: &RpcHandler, request: Value) -> Result<()> {
    let actual = call(handler, request.clone()).await;
    ensure!(
        actual.is_none(),
        "request: {request}\nexpected no reply, got: {actual:?}"
    );
    Ok(())
}

/// Sends a raw body and requires exactly `expected` back, byte for byte.
pub(crate) async fn check_text(
    handler: &RpcHandler,
    body: &str,
    expected: Option<&str>,
) -> Result<()> {
    let actual = handler.handle_text(body).await;
    ensure!(
        actual.as_deref() == expected,
        "body:     {body}\nexpected: {expected:?}\nactual:   {actual:?}"
    );
    Ok(())
}

/// Sends `request` and returns its `result`, failing on an error or no reply.
pub(crate) async fn result(handler: &RpcHandler, request: Value) -> Result<Value> {
    let reply = call(handler, request.clone()).await;
    match reply {
        Some(mut reply) if reply.get("result").is_some() => Ok(reply["result"].take()),
        other => anyhow::bail!("request {request} did not succeed: {other:?}"),
    }
}
