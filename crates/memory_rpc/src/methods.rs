//! The method table: every served method, its params and its handler.
//!
//! Adding a method is one [`Method`] entry plus one handler function. A method the reference
//! also has carries its `openhuman.memory_*` spelling and log line in `reference`; a method
//! without it is served natively only. Handlers are shared by both envelopes: they return the
//! bare result, and the dispatcher wraps it for the reference.

use std::future::Future;
use std::pin::Pin;

use active_memory_client::{
    ActiveMemoryClient, ImportOptions, PageRequest, RawJson, RulePut, RulesForPrompt,
    ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, TurnRecord,
};
use serde::Serialize;
use serde_json::value::RawValue;

use crate::envelope::Envelope;
use crate::error::Error;
use crate::limits::{MAX_IMPORT_BYTES, MAX_IMPORT_LINES, MAX_PROMPT_TOOLS};
use crate::params::{Param, Params};

/// A handler's result, already encoded so that it keeps its types' field order, with the work
/// it cost.
pub(crate) type CallResult = Result<Answer, Error>;

/// What a handler returns on success.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) result: Box<RawValue>,
    /// The work beyond the request itself, in the units of
    /// [`DEFAULT_MAX_BATCH_WORK`](crate::limits::DEFAULT_MAX_BATCH_WORK): rules or entries
    /// returned, tools named.
    pub(crate) work: usize,
}
/// What a handler returns: a boxed future, so that one table holds every method.
pub(crate) type CallFuture<'a> = Pin<Box<dyn Future<Output = CallResult> + Send + 'a>>;

/// One served method.
#[derive(Debug)]
pub(crate) struct Method {
    /// The native name, `memory.{function}`.
    pub(crate) name: &'static str,
    /// The reference spelling, when the reference has this method.
    pub(crate) reference: Option<ReferenceMethod>,
    /// Declared params; any other key is rejected.
    pub(crate) params: &'static [Param],
    /// The handler.
    pub(crate) call: for<'a> fn(&'a ActiveMemoryClient, Params) -> CallFuture<'a>,
}

/// How the reference spells a method and the one log line it attaches to every success.
#[derive(Debug)]
pub(crate) struct ReferenceMethod {
    pub(crate) name: &'static str,
    pub(crate) log: &'static str,
}

/// Default and largest `limit` of `memory.recall`.
pub(crate) const DEFAULT_RECALL_LIMIT: u64 = 10;
pub(crate) const MAX_RECALL_LIMIT: u64 = 100;

// The comments of required params are quoted by the reference's "missing required param"
// message, so they are part of the wire format.
const TOOL_NAME: Param = Param::required("tool_name", "Tool the rule applies to.");
const RULE: Param = Param::required("rule", "Natural-language rule body.");
const ID: Param = Param::required("id", "Rule id.");
const PUT_ID: Param = Param::optional("id", "Rule id to upsert; blank or null generates a new id.");
const PRIORITY: Param = Param::optional("priority", "normal, high or critical.");
const SOURCE: Param = Param::optional("source", "user_explicit, post_turn or programmatic.");
const TAGS: Param = Param::optional("tags", "Free-form labels.");
const TOOLS: Param = Param::optional("tools", "Tools to pin rules for; empty means every tool.");
const CONSTRAINT: Param = Param::optional(
    "constraint",
    "The enforcement constraint in the guard's JSON form; derived from the text when absent.",
);
const INCLUDE_REVOKED: Param = Param::optional(
    "include_revoked",
    "Also list revoked rules, marked by `revoked_at`; default false.",
);

/// Default and largest `limit` of `memory.tool_rule_history`.
pub(crate) const DEFAULT_HISTORY_LIMIT: u64 = 50;
pub(crate) const MAX_HISTORY_LIMIT: u64 = 1000;

/// Largest `limit` of a page of `memory.tool_rule_list`.
pub(crate) const MAX_PAGE_LIMIT: u64 = 1000;

/// Every method, the reference's six first and in its registration order.
pub(crate) const METHODS: &[Method] = &[
    Method {
        name: "memory.tool_rule_put",
        reference: Some(ReferenceMethod {
            name: "openhuman.memory_tool_rule_put",
            log: "tool memory rule stored",
        }),
        params: &[TOOL_NAME, RULE, PRIORITY, SOURCE, TAGS, PUT_ID, CONSTRAINT],
        call: tool_rule_put,
    },
    Method {
        name: "memory.tool_rule_get",
        reference: Some(ReferenceMethod {
            name: "openhuman.memory_tool_rule_get",
            log: "tool memory rule fetched",
        }),
        params: &[TOOL_NAME, ID],
        call: tool_rule_get,
    },
    Method {
        name: "memory.tool_rule_list",
        reference: Some(ReferenceMethod {
            name: "openhuman.memory_tool_rule_list",
            log: "tool memory rules listed",
        }),
        params: &[
            TOOL_NAME,
            INCLUDE_REVOKED,
            Param::optional(
                "limit",
                "Most rules of one page, 1 to 1000; with it the answer is a page.",
            ),
            Param::optional("offset", "Rules to skip before the page; default 0."),
            Param::optional(
                "filter",
                "Only rules whose text, id or a tag contains this, ignoring case.",
            ),
            Param::optional(
                "proposed",
                "Only unrevoked rules waiting for confirmation; default false.",
            ),
        ],
        call: tool_rule_list,
    },
    Method {
        name: "memory.tool_rule_delete",
        reference: Some(ReferenceMethod {
            name: "openhuman.memory_tool_rule_delete",
            log: "tool memory rule deleted",
        }),
        params: &[TOOL_NAME, ID],
        call: tool_rule_delete,
    },
    Method {
        name: "memory.tool_rules_for_prompt",
        reference: Some(ReferenceMethod {
            name: "openhuman.memory_tool_rules_for_prompt",
            log: "tool memory rules prepared for prompt",
        }),
        params: &[TOOLS],
        call: tool_rules_for_prompt,
    },
    Method {
        name: "memory.tool_rules_json",
        reference: Some(ReferenceMethod {
            name: "openhuman.memory_tool_rules_json",
            log: "tool memory rules json",
        }),
        params: &[TOOL_NAME],
        call: tool_rules_json,
    },
    Method {
        name: "memory.recall",
        reference: None,
        params: &[
            Param::required("namespace", "A tool's namespace, `tool-{name}`."),
            Param::required("query", "Keywords to look for in rule text."),
            Param::optional("limit", "Most rules to return, 1 to 100; default 10."),
        ],
        call: recall,
    },
    Method {
        name: "memory.after_turn",
        reference: None,
        params: &[
            Param::required("user_message", "The user's text of the turn."),
            Param::optional("tool_calls", "The turn's tool calls, in call order."),
            Param::optional("session_id", "The host's session id."),
            Param::optional("available_tools", "The agent's whole tool catalogue."),
            Param::optional("turn", "The turn's number within the session."),
        ],
        call: after_turn,
    },
    Method {
        name: "memory.tool_rule_revoke",
        reference: None,
        params: &[TOOL_NAME, ID],
        call: tool_rule_revoke,
    },
    Method {
        name: "memory.tool_rule_restore",
        reference: None,
        params: &[TOOL_NAME, ID],
        call: tool_rule_restore,
    },
    Method {
        name: "memory.tool_rule_confirm",
        reference: None,
        params: &[TOOL_NAME, ID],
        call: tool_rule_confirm,
    },
    Method {
        name: "memory.tool_call_check",
        reference: None,
        params: &[
            TOOL_NAME,
            Param::optional(
                "arguments",
                "The proposed call's arguments, any JSON; default {}.",
            ),
        ],
        call: tool_call_check,
    },
    Method {
        name: "memory.tool_rule_history",
        reference: None,
        params: &[
            TOOL_NAME,
            Param::optional("id", "Only this rule's history."),
            Param::optional("limit", "Most entries to return, 1 to 1000; default 50."),
            Param::optional("before", "Only entries older than this `seq` (for paging)."),
        ],
        call: tool_rule_history,
    },
    Method {
        name: "memory.tool_list",
        reference: None,
        params: &[],
        call: tool_list,
    },
    Method {
        name: "memory.tool_rules_import",
        reference: None,
        params: &[
            Param::required("lines", "The rules to import, one JSON object a line."),
            Param::optional(
                "allow_weaken",
                "Also write lines that weaken a stored rule; default false.",
            ),
            Param::optional("dry_run", "Report without writing anything; default false."),
        ],
        call: tool_rules_import,
    },
];

/// The method `name` resolves to in `envelope`.
pub(crate) fn find(name: &str, envelope: Envelope) -> Option<&'static Method> {
    METHODS.iter().find(|method| match envelope {
        Envelope::Native => method.name == name,
        Envelope::Reference => method.reference.as_ref().is_some_and(|r| r.name == name),
    })
}

/// Encodes a result that cost `work` beyond the request itself.
fn encode<T: Serialize + ?Sized>(value: &T, work: usize) -> CallResult {
    let result =
        serde_json::value::to_raw_value(value).map_err(|err| Error::Internal(err.to_string()))?;
    Ok(Answer { result, work })
}

fn tool_rule_put(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let mut put = RulePut::new(
            params.required::<String>("tool_name")?,
            params.required::<String>("rule")?,
        );
        put.priority = params.enumeration::<ToolMemoryPriority>("priority")?;
        put.source = params.enumeration::<ToolMemorySource>("source")?;
        put.tags = params.optional("tags")?;
        put.id = params.nullable("id")?;
        put.origin = params.origin();
        put.constraint = params.optional::<RawJson>("constraint")?;
        // The stored rule, not the request echoed back: normalised tool name, kept
        // `created_at` (the reference's V3 returned the pre-store copy, W-17).
        encode(&client.put(put).await?, 1)
    })
}

fn tool_rule_get(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let id = params.lookup_id()?;
        let rule = client.get(&tool_name, &id).await?;
        encode(&rule, usize::from(rule.is_some()))
    })
}

fn tool_rule_list(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let include_revoked = params.optional::<bool>("include_revoked")?.unwrap_or(false);
        let offset: Option<u64> = params.optional("offset")?;
        let filter: Option<String> = params.optional("filter")?;
        let proposed: Option<bool> = params.optional("proposed")?;
        let Some(limit) = params.optional::<u64>("limit")? else {
            // Without `limit` the answer is the whole listing, as before pages existed; a
            // page's other params alone would be silently ignored, so they are refused.
            if offset.is_some() || filter.is_some() || proposed.is_some() {
                return Err(invalid(
                    "limit",
                    "is required with offset, filter or proposed".to_owned(),
                ));
            }
            let rules = if include_revoked {
                client.list_including_revoked(&tool_name).await?
            } else {
                client.list(&tool_name).await?
            };
            return encode(&*rules, rules.len());
        };
        let request = PageRequest {
            include_revoked,
            filter: filter.unwrap_or_default(),
            proposed_only: proposed.unwrap_or(false),
            offset: to_usize(offset.unwrap_or(0))?,
            limit: to_usize(in_range("limit", limit, MAX_PAGE_LIMIT)?)?,
        };
        let page = client.list_page(&tool_name, &request).await?;
        encode(&page, page.rules.len())
    })
}

/// Every tool's rule counts.
fn tool_list(client: &ActiveMemoryClient, _params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tools = client.tool_counts().await?;
        encode(&tools, tools.len())
    })
}

/// The import of `toolmem import`, on text sent in the request, with its per-line report.
fn tool_rules_import(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let text: String = params.required("lines")?;
        at_most("lines", "bytes", text.len(), MAX_IMPORT_BYTES)?;
        let count = text.lines().filter(|line| !line.trim().is_empty()).count();
        at_most("lines", "lines", count, MAX_IMPORT_LINES)?;
        let options = ImportOptions {
            allow_weaken: params.optional("allow_weaken")?.unwrap_or(false),
            dry_run: params.optional("dry_run")?.unwrap_or(false),
        };
        let report = client
            .import_lines(&text, options, &params.origin())
            .await?;
        encode(&report, report.lines.len())
    })
}

/// The invalid-params error for `field`.
fn invalid(field: &'static str, reason: String) -> Error {
    Error::InvalidParam(tool_memory_core::Error::Invalid { field, reason })
}

/// Refuses `count` of `what` in `field` over `max`.
fn at_most(field: &'static str, what: &str, count: usize, max: usize) -> Result<(), Error> {
    if count > max {
        return Err(invalid(
            field,
            format!("at most {max} {what} are allowed, got {count}"),
        ));
    }
    Ok(())
}

/// `value` of `field` when it is between 1 and `max`.
fn in_range(field: &'static str, value: u64, max: u64) -> Result<u64, Error> {
    if (1..=max).contains(&value) {
        Ok(value)
    } else {
        Err(invalid(
            field,
            format!("must be between 1 and {max}, got {value}"),
        ))
    }
}

fn to_usize(value: u64) -> Result<usize, Error> {
    usize::try_from(value).map_err(|err| Error::Internal(err.to_string()))
}

/// A lifecycle change's answer: the rule as it now stands, or the application error "rule not
/// found" when there is no such rule.
fn changed(rule: Option<ToolMemoryRule>, tool_name: String, id: String) -> CallResult {
    match rule {
        Some(rule) => encode(&rule, 1),
        None => Err(Error::RuleNotFound { tool_name, id }),
    }
}

fn tool_rule_revoke(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let id = params.lookup_id()?;
        let rule = client.revoke(&tool_name, &id, &params.origin()).await?;
        changed(rule, tool_name, id)
    })
}

fn tool_rule_restore(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let id = params.lookup_id()?;
        let rule = client.restore(&tool_name, &id, &params.origin()).await?;
        changed(rule, tool_name, id)
    })
}

fn tool_rule_confirm(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let id = params.lookup_id()?;
        let rule = client.confirm(&tool_name, &id, &params.origin()).await?;
        changed(rule, tool_name, id)
    })
}

/// The check result: the decision, the deciding rules, the advice and the reason.
fn tool_call_check(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let arguments = params
            .optional::<serde_json::Value>("arguments")?
            .unwrap_or_else(|| serde_json::json!({}));
        let verdict = client.check(&tool_name, &arguments).await?;
        encode(&verdict, verdict.rules.len() + verdict.advice.len())
    })
}

fn tool_rule_history(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let id: Option<String> = params.optional("id")?;
        let before: Option<i64> = params.optional("before")?;
        let limit = params
            .optional::<u64>("limit")?
            .unwrap_or(DEFAULT_HISTORY_LIMIT);
        let limit = to_usize(in_range("limit", limit, MAX_HISTORY_LIMIT)?)?;
        let entries = client
            .history(&tool_name, id.as_deref(), limit, before)
            .await?;
        encode(&entries, entries.len())
    })
}

fn tool_rule_delete(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        let id = params.lookup_id()?;
        encode(&client.delete(&tool_name, &id, &params.origin()).await?, 0)
    })
}

/// The native prompt result: the block and, so that a viewer need not guess, the byte budget
/// the server renders it with.
#[derive(Serialize)]
struct NativePrompt<'a> {
    #[serde(flatten)]
    prompt: &'a RulesForPrompt,
    budget_bytes: usize,
}

/// The reference's prompt result has exactly these two keys.
#[derive(Serialize)]
struct ReferencePrompt<'a> {
    rendered: &'a str,
    rules: &'a [ToolMemoryRule],
}

fn tool_rules_for_prompt(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        // Empty means every tool, as the reference's schema promises (its V3 returned nothing,
        // W-18).
        let tools: Vec<String> = params.optional("tools")?.unwrap_or_default();
        at_most("tools", "tools", tools.len(), MAX_PROMPT_TOOLS)?;
        let prompt = client.rules_for_prompt(&tools).await?;
        let work = tools.len() + prompt.rules.len();
        match params.envelope() {
            Envelope::Native => encode(
                &NativePrompt {
                    prompt: &prompt,
                    budget_bytes: client.config().prompt_budget_bytes,
                },
                work,
            ),
            Envelope::Reference => encode(
                &ReferencePrompt {
                    rendered: &prompt.rendered,
                    rules: &prompt.rules,
                },
                work,
            ),
        }
    })
}

fn tool_rules_json(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let tool_name = params.lookup_tool_name()?;
        // The same array as `tool_rule_list`, which is what the facade's `rules_json` returns
        // too; encoding the typed rules keeps their keys in record order rather than the sorted
        // order of a `serde_json::Value`.
        let rules = client.list(&tool_name).await?;
        encode(&*rules, rules.len())
    })
}

fn recall(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let namespace: String = params.required("namespace")?;
        let query: String = params.required("query")?;
        let limit = params
            .optional::<u64>("limit")?
            .unwrap_or(DEFAULT_RECALL_LIMIT);
        let limit = to_usize(in_range("limit", limit, MAX_RECALL_LIMIT)?)?;
        let rules = client.recall(&namespace, &query, limit).await?;
        encode(&rules, rules.len())
    })
}

fn after_turn(client: &ActiveMemoryClient, mut params: Params) -> CallFuture<'_> {
    Box::pin(async move {
        let mut turn = TurnRecord::new(params.required::<String>("user_message")?);
        turn.tool_calls = params.optional("tool_calls")?.unwrap_or_default();
        turn.session_id = params.optional("session_id")?;
        turn.available_tools = params.optional("available_tools")?.unwrap_or_default();
        turn.turn = params.optional("turn")?;
        let report = client.after_turn(&turn).await?;
        let work = report.created.len()
            + report.refreshed.len()
            + report.changed.len()
            + report.revoked.len()
            + report.restored.len()
            + report.expired.len();
        encode(&report, work)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_names_mirror_native_names() {
        for method in METHODS {
            let function = method
                .name
                .strip_prefix("memory.")
                .expect("native names are memory.*");
            if let Some(reference) = &method.reference {
                assert_eq!(reference.name, format!("openhuman.memory_{function}"));
            }
            let mut names: Vec<&str> = method.params.iter().map(|param| param.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                method.params.len(),
                "duplicate param in {}",
                method.name
            );
        }
    }

    #[test]
    fn reference_methods_keep_the_reference_registration_order() {
        let functions: Vec<&str> = METHODS
            .iter()
            .filter_map(|method| method.reference.as_ref())
            .map(|reference| reference.name)
            .collect();
        assert_eq!(
            functions,
            [
                "openhuman.memory_tool_rule_put",
                "openhuman.memory_tool_rule_get",
                "openhuman.memory_tool_rule_list",
                "openhuman.memory_tool_rule_delete",
                "openhuman.memory_tool_rules_for_prompt",
                "openhuman.memory_tool_rules_json",
            ]
        );
    }

    #[test]
    fn names_resolve_only_in_their_own_envelope() {
        assert!(find("memory.tool_rule_put", Envelope::Native).is_some());
        assert!(find("openhuman.memory_tool_rule_put", Envelope::Reference).is_some());
        assert!(find("openhuman.memory_tool_rule_put", Envelope::Native).is_none());
        assert!(find("memory.tool_rule_put", Envelope::Reference).is_none());
        assert!(find("openhuman.memory_recall", Envelope::Reference).is_none());
    }
}
