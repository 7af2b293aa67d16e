//! The agent-facing tools: names, schemas, outputs and the strict priority.

use active_memory_client::{ActiveMemoryClient, ClientConfig, agent_tools};
use anyhow::Result;
use serde_json::{Value, json};

#[tokio::test]
async fn names_and_schemas_match_the_reference() -> Result<()> {
    let client = ActiveMemoryClient::in_memory().with_config(ClientConfig::default());
    let tools = agent_tools(&client);
    let specs: Vec<_> = tools.iter().map(|tool| tool.spec()).collect();
    assert_eq!(specs[0].name, "memory_tools_list");
    assert_eq!(specs[1].name, "memory_tools_put");
    assert_eq!(specs[0].parameters["required"], json!(["tool_name"]));
    assert_eq!(
        specs[1].parameters["required"],
        json!(["tool_name", "rule"])
    );
    assert_eq!(
        specs[1].parameters["properties"]["priority"]["enum"],
        json!(["critical", "high", "normal"])
    );
    assert!(!specs[0].description.contains("Low"));
    Ok(())
}

#[tokio::test]
async fn put_then_list_round_trips_as_compact_json() -> Result<()> {
    let client = ActiveMemoryClient::in_memory().with_config(ClientConfig::default());
    let tools = agent_tools(&client);
    let (list, put) = (&tools[0], &tools[1]);
    assert_eq!(
        list.call(json!({"tool_name": "web_search"})).await.unwrap(),
        "[]"
    );
    let stored: Value = serde_json::from_str(
        &put.call(json!({
            "tool_name": "bash",
            "rule": "Always dry-run dangerous commands first",
            "priority": "HiGh",
            "tags": ["safety", "shell"]
        }))
        .await
        .unwrap(),
    )?;
    assert_eq!(stored["priority"], "high");
    assert_eq!(stored["source"], "user_explicit");
    assert_eq!(stored["tags"], json!(["safety", "shell"]));
    assert!(stored["id"].is_string());
    let listed: Value =
        serde_json::from_str(&list.call(json!({"tool_name": "bash"})).await.unwrap())?;
    assert_eq!(listed[0], stored);
    Ok(())
}

#[tokio::test]
async fn bad_arguments_and_unknown_priorities_are_errors() -> Result<()> {
    let client = ActiveMemoryClient::in_memory().with_config(ClientConfig::default());
    let tools = agent_tools(&client);
    let (list, put) = (&tools[0], &tools[1]);
    let err = list.call(json!({})).await.unwrap_err();
    assert!(
        err.contains("invalid arguments for memory_tools_list"),
        "{err}"
    );
    let err = put.call(json!({"tool_name": "bash"})).await.unwrap_err();
    assert!(
        err.contains("invalid arguments for memory_tools_put"),
        "{err}"
    );
    let err = put
        .call(json!({"tool_name": "bash", "rule": "x", "priority": "unexpected"}))
        .await
        .unwrap_err();
    assert!(
        err.contains("priority") && err.contains("unexpected"),
        "{err}"
    );
    assert_eq!(list.call(json!({"tool_name": "bash"})).await.unwrap(), "[]");
    let err = put
        .call(json!({"tool_name": " ", "rule": "x"}))
        .await
        .unwrap_err();
    assert!(err.starts_with("memory_tools_put: tool_name"), "{err}");
    Ok(())
}

/// The messages docs/rpc.md ("Agent tools") quotes, word for word.
#[tokio::test]
async fn the_documented_messages_are_the_ones_the_model_gets() -> Result<()> {
    let client = ActiveMemoryClient::in_memory().with_config(ClientConfig::default());
    let tools = agent_tools(&client);
    let (list, put) = (&tools[0], &tools[1]);
    for (tool, arguments, expected) in [
        (
            put,
            json!({"tool_name": "bash", "rule": "x", "priority": "urgent"}),
            "invalid arguments for memory_tools_put: priority is invalid: unknown value `urgent`, expected one of normal, high, critical",
        ),
        (
            list,
            json!({}),
            "invalid arguments for memory_tools_list: missing field `tool_name`",
        ),
        (
            put,
            json!({"tool_name": " ", "rule": "x"}),
            "memory_tools_put: tool_name is required",
        ),
    ] {
        assert_eq!(tool.call(arguments).await.unwrap_err(), expected);
    }
    assert_eq!(list.call(json!({"tool_name": "bash"})).await.unwrap(), "[]");
    Ok(())
}
