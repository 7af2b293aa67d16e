//! The agent-facing tools `memory_tools_list` and `memory_tools_put` (reference §5.3): the same
//! names, schemas and outputs, except that an unknown priority is an error rather than a silent
//! `normal`.

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_memory_core::{RulePut, ToolMemoryPriority, ToolMemorySource};

use crate::ActiveMemoryClient;

/// What the model sees of a tool.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentToolSpec {
    /// The tool's stable name.
    pub name: &'static str,
    /// What the tool does, for the model.
    pub description: &'static str,
    /// JSON Schema of the arguments.
    pub parameters: Value,
}

/// A tool the model can call. Success and failure are both text for the model.
#[async_trait]
pub trait AgentTool: Send + Sync {
    /// Name, description and argument schema.
    fn spec(&self) -> AgentToolSpec;
    /// Runs the tool; `Err` carries the message shown to the model.
    async fn call(&self, arguments: Value) -> Result<String, String>;
}

/// Both memory tools over one client.
pub fn agent_tools(client: &ActiveMemoryClient) -> Vec<Box<dyn AgentTool>> {
    vec![
        Box::new(MemoryToolsList {
            client: client.clone(),
        }),
        Box::new(MemoryToolsPut {
            client: client.clone(),
        }),
    ]
}

/// `memory_tools_list`: every stored rule for a tool.
#[derive(Debug, Clone)]
pub struct MemoryToolsList {
    /// The client it reads through.
    pub client: ActiveMemoryClient,
}

/// `memory_tools_put`: record a durable rule for a tool.
#[derive(Debug, Clone)]
pub struct MemoryToolsPut {
    /// The client it writes through.
    pub client: ActiveMemoryClient,
}

#[derive(Deserialize)]
struct ListArgs {
    tool_name: String,
}

#[derive(Deserialize)]
struct PutArgs {
    tool_name: String,
    rule: String,
    #[serde(default)]
    priority: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
}

#[async_trait]
impl AgentTool for MemoryToolsList {
    fn spec(&self) -> AgentToolSpec {
        AgentToolSpec {
            name: "memory_tools_list",
            description: "List every stored rule for the given tool. Rules are durable learnings \
                (priorities, gotchas, user edicts), ordered by priority (critical, high, normal) \
                and then by most recently updated.",
            parameters: json!({
                "type": "object",
                "required": ["tool_name"],
                "properties": {
                    "tool_name": {
                        "type": "string",
                        "description": "Exact tool name (e.g. `bash`, `web_search`)."
                    }
                }
            }),
        }
    }

    async fn call(&self, arguments: Value) -> Result<String, String> {
        let args: ListArgs = serde_json::from_value(arguments)
            .map_err(|err| format!("invalid arguments for memory_tools_list: {err}"))?;
        let rules = self
            .client
            .list(&args.tool_name)
            .await
            .map_err(|err| format!("memory_tools_list: {err}"))?;
        Ok(serde_json::to_string(&*rules).expect("rules always serialise"))
    }
}

#[async_trait]
impl AgentTool for MemoryToolsPut {
    fn spec(&self) -> AgentToolSpec {
        AgentToolSpec {
            name: "memory_tools_put",
            description: "Record a durable rule or learning for a tool. Use it when the user gives \
                a directive that should outlive the session, or when a failure pattern is worth \
                pinning. Returns the stored rule with its id and timestamps.",
            parameters: json!({
                "type": "object",
                "required": ["tool_name", "rule"],
                "properties": {
                    "tool_name": {
                        "type": "string",
                        "description": "Exact tool name the rule applies to."
                    },
                    "rule": {
                        "type": "string",
                        "description": "Free-text rule, edict, or learning to pin."
                    },
                    "priority": {
                        "type": "string",
                        "enum": ["critical", "high", "normal"],
                        "description": "How aggressively to surface the rule. Default: normal."
                    },
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Optional free-form tags (e.g. `safety`, `permission`)."
                    }
                }
            }),
        }
    }

    async fn call(&self, arguments: Value) -> Result<String, String> {
        let args: PutArgs = serde_json::from_value(arguments)
            .map_err(|err| format!("invalid arguments for memory_tools_put: {err}"))?;
        // The reference turned any unknown priority into `normal`; a model that asked for
        // "urgent" deserves to hear that it did not get it.
        let priority = match args.priority.as_deref() {
            None => ToolMemoryPriority::Normal,
            Some(text) => text
                .parse::<ToolMemoryPriority>()
                .map_err(|err| format!("invalid arguments for memory_tools_put: {err}"))?,
        };
        let stored = self
            .client
            .put(
                RulePut::new(args.tool_name, args.rule)
                    .with_priority(priority)
                    .with_source(ToolMemorySource::UserExplicit)
                    .with_tags(args.tags),
            )
            .await
            .map_err(|err| format!("memory_tools_put: {err}"))?;
        Ok(stored.to_compact_json())
    }
}
