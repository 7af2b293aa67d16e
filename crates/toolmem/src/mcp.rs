//! `toolmem mcp`: a Model Context Protocol server on stdin/stdout, built on the official Rust
//! SDK (`rmcp`). Its tools, the `tool_rules` prompt and the `toolmem://rules/{tool}` resources
//! are one more entry point above the facade, like the CLI and JSON-RPC (docs/integrations.md).

use std::sync::Arc;

use active_memory_client::{
    ActiveMemoryClient, Origin, RulePut, ToolMemoryPriority, ToolMemorySource,
};
use anyhow::{Context, Result};
use rmcp::handler::server::common::schema_for_input;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, JsonObject, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    Prompt, PromptArgument, PromptMessage, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// What the client shows the model once per session. Claude Code cuts instructions at 2 KB, so
/// the test holds this under 2048 bytes.
pub(crate) const INSTRUCTIONS: &str = "toolmem holds the user's standing rules for tools \
(\"never run terraform apply\", \"ask before git push\"), shared by every agent the user runs.
Before a risky call, call `check_call` with the tool's name and its arguments, and obey the \
decision: `deny` means do not make the call and tell the user which rule forbids it; `confirm` \
means ask the user first and go ahead only if they agree; `allow` means go ahead. Risky calls \
include shell commands that change or delete anything, file deletion or overwriting, git push, \
merge or history rewrites, deployments and infrastructure changes, sending mail or messages, \
payments, and any call to another MCP server that acts on the outside world.
When the user states a lasting rule about a tool (\"never ...\", \"always ...\", \"from now on \
...\"), store it with `put_rule` on that tool, with priority `critical` for safety rules. Use \
`recall_rules` to find a tool's rules by words, `list_rules` to see them all, `revoke_rule` and \
`restore_rule` only when the user asks, and `rule_history` to see what changed and what the \
guard decided. The `tool_rules` prompt and the `toolmem://rules/{tool}` resources hold the \
same rules.";

/// The name of the one prompt.
const PROMPT: &str = "tool_rules";
/// Resource URIs: this prefix, then the tool's name.
const RESOURCE_PREFIX: &str = "toolmem://rules/";

/// Serves MCP on stdin/stdout until the client closes stdin.
pub(crate) async fn run(client: ActiveMemoryClient) -> Result<()> {
    let server = Server { client };
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .context("the MCP handshake failed")?;
    running.waiting().await.context("the MCP server stopped")?;
    Ok(())
}

#[derive(Debug)]
struct Server {
    client: ActiveMemoryClient,
}

// Every tool's arguments. `deny_unknown_fields` makes schemars write
// `additionalProperties: false`, and serde refuse a field the schema does not name.

/// `list_rules`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    /// The tool whose rules to list (e.g. `Bash`, `shell`, `mcp__github__merge_pull_request`).
    tool: String,
    /// Also list revoked rules.
    #[serde(default)]
    include_revoked: bool,
}

/// `put_rule`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PutArgs {
    /// The tool the rule applies to; a family name (`shell`) covers every agent's tool of it.
    tool: String,
    /// The rule, in the user's words.
    rule: String,
    /// How strongly it binds [default: normal, or the stored value when `id` is given].
    #[schemars(with = "Option<Priority>")]
    priority: Option<String>,
    /// Tags.
    tags: Option<Vec<String>>,
    /// Update this rule instead of adding a new one.
    id: Option<String>,
}

/// `critical` rules are never left out of the prompt and block; `high` ones ask first.
// Only the schema's: the text is parsed by core, whose error names the field.
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline)]
#[expect(dead_code, reason = "describes the schema only")]
enum Priority {
    Critical,
    High,
    Normal,
}

/// `revoke_rule` and `restore_rule`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RuleRef {
    /// The tool the rule is on.
    tool: String,
    /// The rule's id.
    id: String,
}

/// `check_call`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    /// The tool about to be called, under the name the agent calls it (`Bash`,
    /// `run_shell_command`, `mcp__github__merge_pull_request`).
    tool: String,
    /// The call's arguments, exactly as they will be passed.
    #[serde(default)]
    arguments: JsonObject,
}

/// `recall_rules`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecallArgs {
    /// The tool.
    tool: String,
    /// Words to look for.
    query: String,
    /// Most rules to return [default: 10].
    limit: Option<usize>,
}

/// `rule_history`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct HistoryArgs {
    /// The tool.
    tool: String,
    /// Only this rule's history.
    id: Option<String>,
    /// Most entries [default: 50].
    limit: Option<usize>,
}

fn tools() -> Vec<Tool> {
    fn tool<T: JsonSchema + 'static>(name: &'static str, description: &'static str) -> Tool {
        Tool::new(name, description, Arc::new(JsonObject::new())).with_input_schema::<T>()
    }
    vec![
        tool::<CheckArgs>(
            "check_call",
            "Check a tool call against the user's rules before making it. Returns the \
             decision (allow, confirm or deny), the rules behind it and the reason.",
        ),
        tool::<ListArgs>("list_rules", "List a tool's rules."),
        tool::<PutArgs>(
            "put_rule",
            "Store a rule the user stated for a tool, or update one by id.",
        ),
        tool::<RuleRef>(
            "revoke_rule",
            "Lift a rule without deleting it (only when the user asks).",
        ),
        tool::<RuleRef>("restore_rule", "Reinstate a revoked rule."),
        tool::<RecallArgs>("recall_rules", "Find a tool's rules by keywords."),
        tool::<HistoryArgs>(
            "rule_history",
            "A tool's history of rule changes and guard decisions, newest first.",
        ),
    ]
}

/// The arguments of a call as `T`, or the tool error that names the field at fault.
fn arguments<T: DeserializeOwned + JsonSchema + 'static>(
    name: &str,
    arguments: Option<JsonObject>,
) -> Result<T, CallToolResult> {
    let arguments = arguments.unwrap_or_default();
    serde_json::from_value(Value::Object(arguments.clone())).map_err(|err| {
        // serde names unknown and missing fields, not the field of a wrong type.
        let schema = schema_for_input::<T>().unwrap_or_default();
        let reason = misfit(&schema, &arguments).unwrap_or_else(|| err.to_string());
        refusal(format!("{name}: {reason}"))
    })
}

/// The first argument whose JSON type its schema property does not allow.
fn misfit(schema: &JsonObject, arguments: &JsonObject) -> Option<String> {
    let properties = schema.get("properties")?.as_object()?;
    arguments.iter().find_map(|(field, value)| {
        let allowed: Vec<&str> = match properties.get(field)?.get("type")? {
            Value::String(one) => vec![one.as_str()],
            Value::Array(several) => several.iter().filter_map(Value::as_str).collect(),
            _ => return None,
        };
        let fits = allowed.iter().any(|kind| match *kind {
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_u64() || value.is_i64(),
            "number" => value.is_number(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            "null" => value.is_null(),
            _ => true,
        });
        let given = match value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        };
        (!fits).then(|| format!("`{field}` must be {}, not {given}", allowed.join(" or ")))
    })
}

/// A tool error: the model reads it and can correct its call.
fn refusal(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// A tool's answer: the JSON as text for the model, and as structured content.
fn answer(value: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
    result.structured_content = Some(value);
    result
}

fn origin(tool: &str) -> Origin {
    Origin::Rpc {
        method: format!("mcp.{tool}"),
    }
}

impl Server {
    async fn call(&self, name: &str, args: Option<JsonObject>) -> Result<CallToolResult> {
        let client = &self.client;
        macro_rules! parse {
            ($t:ty) => {
                match arguments::<$t>(name, args) {
                    Ok(parsed) => parsed,
                    Err(refused) => return Ok(refused),
                }
            };
        }
        Ok(match name {
            "check_call" => {
                let args = parse!(CheckArgs);
                let verdict = client
                    .check(&args.tool, &Value::Object(args.arguments))
                    .await?;
                answer(serde_json::to_value(&verdict)?)
            }
            "list_rules" => {
                let args = parse!(ListArgs);
                let rules = if args.include_revoked {
                    client.list_including_revoked(&args.tool).await?
                } else {
                    client.list(&args.tool).await?
                };
                answer(json!({ "rules": &*rules }))
            }
            "put_rule" => {
                let args = parse!(PutArgs);
                let priority = match args
                    .priority
                    .as_deref()
                    .map(str::parse::<ToolMemoryPriority>)
                {
                    Some(Err(err)) => return Ok(refusal(format!("{name}: {err}"))),
                    Some(Ok(priority)) => Some(priority),
                    None => None,
                };
                let mut put = RulePut::new(args.tool, args.rule);
                put.priority = priority;
                put.tags = args.tags;
                put.id = args.id;
                // Written by a model, not typed by the user in toolmem's own interfaces.
                put.source = Some(ToolMemorySource::Programmatic);
                put.origin = origin(name);
                match client.put(put).await {
                    Ok(rule) => answer(json!({ "rule": rule })),
                    // A rule the store refuses (empty text, a bad tag) is the model's to fix.
                    Err(err) => refusal(format!("{name}: {err:#}")),
                }
            }
            "revoke_rule" | "restore_rule" => {
                let args = parse!(RuleRef);
                let changed = if name == "revoke_rule" {
                    client.revoke(&args.tool, &args.id, &origin(name)).await?
                } else {
                    client.restore(&args.tool, &args.id, &origin(name)).await?
                };
                match changed {
                    Some(rule) => answer(json!({ "rule": rule })),
                    None => refusal(format!("{name}: no rule {} on tool {}", args.id, args.tool)),
                }
            }
            "recall_rules" => {
                let args = parse!(RecallArgs);
                let rules = client
                    .recall(&args.tool, &args.query, args.limit.unwrap_or(10))
                    .await?;
                answer(json!({ "rules": rules }))
            }
            "rule_history" => {
                let args = parse!(HistoryArgs);
                let history = client
                    .history(
                        &args.tool,
                        args.id.as_deref(),
                        args.limit.unwrap_or(50),
                        None,
                    )
                    .await?;
                answer(json!({ "history": history }))
            }
            _ => refusal(format!("no tool named {name}")),
        })
    }
}

/// A failure of the database, not of the request: a JSON-RPC internal error.
fn internal(err: anyhow::Error) -> ErrorData {
    tracing::warn!("mcp: {err:#}");
    ErrorData::internal_error(format!("{err:#}"), None)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("toolmem", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result = self
            .call(&request.name, request.arguments)
            .await
            .map_err(internal)?;
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let tools = PromptArgument::new("tools")
            .with_description("Comma-separated tool names [default: every tool]")
            .with_required(false);
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            PROMPT,
            Some("The pinned block of tool-scoped rules, as toolmem puts it in a system prompt"),
            Some(vec![tools]),
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "name: no prompt named {}; the one prompt is {PROMPT}",
                    request.name
                ),
                None,
            ));
        }
        let tools: Vec<String> = match request.arguments.as_ref().and_then(|a| a.get("tools")) {
            Some(Value::String(list)) => list
                .split(',')
                .map(str::trim)
                .filter(|tool| !tool.is_empty())
                .map(str::to_owned)
                .collect(),
            None => Vec::new(),
            Some(_) => {
                return Err(ErrorData::invalid_params(
                    "arguments.tools: expected a comma-separated string",
                    None,
                ));
            }
        };
        let prompt = self
            .client
            .rules_for_prompt(&tools)
            .await
            .map_err(|err| internal(err.into()))?;
        let text = if prompt.rendered.is_empty() {
            "No tool-scoped rules are stored.".to_owned()
        } else {
            prompt.rendered
        };
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("The user's tool-scoped rules")
                .into(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let tools = self
            .client
            .list_tool_names()
            .await
            .map_err(|err| internal(err.into()))?;
        let resources = tools
            .into_iter()
            .map(|tool| {
                Resource::new(
                    format!("{RESOURCE_PREFIX}{tool}"),
                    format!("rules of {tool}"),
                )
                .with_mime_type("application/json")
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new(format!("{RESOURCE_PREFIX}{{tool}}"), "tool rules")
            .with_description("One tool's rules, as JSON")
            .with_mime_type("application/json");
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let tool = request
            .uri
            .strip_prefix(RESOURCE_PREFIX)
            .filter(|tool| !tool.is_empty())
            .ok_or_else(|| {
                ErrorData::resource_not_found(
                    format!(
                        "uri: expected {RESOURCE_PREFIX}{{tool}}, got {}",
                        request.uri
                    ),
                    None,
                )
            })?;
        let rules = self
            .client
            .list(tool)
            .await
            .map_err(|err| internal(err.into()))?;
        let text = serde_json::to_string(&*rules).map_err(|err| internal(err.into()))?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(text, request.uri.clone()).with_mime_type("application/json"),
        ])
        .into())
    }
}
