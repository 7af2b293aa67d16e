//! Enforcement through the facade: the guard built from a tool's active rules, kept per tool
//! while the store is unchanged, every deny and confirm written to the audit history, and the
//! constraint of each rule derived (or validated) when the rule is written.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use tool_memory_core::{
    HistoryAction, HistoryEvent, Origin, RulePut, Timestamp, ToolMemoryPriority, ToolMemoryRule,
    UNSCOPED_TOOL, normalize_tool_name,
};
use tool_memory_guard::{Constraint, Decision, Guard, Verdict, derive_constraint};

use crate::{ActiveMemoryClient, Result};

/// Built guards by tool, all for one store version.
#[derive(Debug, Default)]
pub(crate) struct GuardCache {
    version: Option<[u64; 2]>,
    guards: HashMap<String, Arc<Guard>>,
}

/// Most tools whose guards are kept at once.
const GUARD_CACHE_TOOLS: usize = 256;

impl ActiveMemoryClient {
    /// Checks a proposed tool call against the rules before it runs: `allow`, `confirm` (ask
    /// the user first) or `deny`, with the rules that decided it and a one-line reason. Revoked
    /// and expired rules never match; a rule written a moment ago (captured mid-session, say)
    /// applies to this very check, although the pinned prompt stays frozen. Every `deny` and
    /// `confirm` is recorded in the audit history with a summary of the call, never its full
    /// arguments.
    pub async fn check(&self, tool_name: &str, arguments: &Value) -> Result<Verdict> {
        let tool = normalize_tool_name(tool_name);
        let guard = self.guard_for(&tool).await?;
        let verdict = guard.check(&tool, arguments);
        if verdict.decision != Decision::Allow {
            let action = match verdict.decision {
                Decision::Deny => HistoryAction::Deny,
                _ => HistoryAction::AskConfirm,
            };
            let detail = format!("{}: {}", call_summary(&tool, arguments), verdict.reason);
            for rule in &verdict.rules {
                self.store()
                    .append_history(HistoryEvent {
                        tool_name: rule.tool_name.clone(),
                        rule_id: rule.id.clone(),
                        action,
                        origin: Origin::Guard,
                        rule: Some(rule.clone()),
                        detail: Some(detail.clone()),
                    })
                    .await?;
            }
        }
        Ok(verdict)
    }

    /// The guard for a tool: from the cache while the store is unchanged, rebuilt otherwise.
    async fn guard_for(&self, tool: &str) -> Result<Arc<Guard>> {
        let version = self.store().version().await?;
        if let Some(version) = version {
            let cache = self.guards.lock();
            if cache.version == Some(version)
                && let Some(guard) = cache.guards.get(tool)
            {
                return Ok(Arc::clone(guard));
            }
        }
        let now = self.clock.now();
        let mut rules = self.store().list(tool).await?;
        if tool != UNSCOPED_TOOL {
            rules.extend(self.store().list(UNSCOPED_TOOL).await?);
        }
        let guard = Arc::new(build_guard(rules, now));
        if version.is_some() {
            let mut cache = self.guards.lock();
            if cache.version != version || cache.guards.len() >= GUARD_CACHE_TOOLS {
                cache.guards.clear();
                cache.version = version;
            }
            cache.guards.insert(tool.to_owned(), Arc::clone(&guard));
        }
        Ok(guard)
    }

    /// Gives a put its constraint before it is written: a given one is validated and kept
    /// across later edits; otherwise it is derived from the new text, unless the stored rule
    /// carries one a caller gave.
    pub(crate) async fn with_constraint(&self, mut put: RulePut) -> Result<RulePut> {
        if let Some(given) = put.constraint.take() {
            let explicit = !given.is_null();
            put.constraint = Some(if explicit {
                serde_json::to_value(parse_constraint(&given)?).expect("constraints serialise")
            } else {
                given
            });
            put.constraint_explicit = Some(explicit);
            return Ok(put);
        }
        let put = put.normalized()?;
        if let Some(id) = &put.id
            && let Some(existing) = self.store().get(&put.tool_name, id).await.ok().flatten()
            && existing.meta.constraint_explicit
        {
            return Ok(put);
        }
        let probe = put.clone().build(
            String::from("probe"),
            None,
            Timestamp::from_unix_micros(0).expect("epoch"),
        );
        let derived = derive_constraint(&probe);
        let mut put = put;
        put.constraint = Some(derived.map_or(Value::Null, |constraint| {
            serde_json::to_value(constraint).expect("constraints serialise")
        }));
        put.constraint_explicit = Some(false);
        Ok(put)
    }
}

/// Parses and validates a constraint in the guard's JSON form; errors name the field inside it
/// (`constraint.matchers[1].value`).
fn parse_constraint(value: &Value) -> Result<Constraint> {
    let constraint: Constraint =
        serde_json::from_value(value.clone()).map_err(|err| tool_memory_core::Error::Invalid {
            field: "constraint",
            reason: err.to_string(),
        })?;
    constraint
        .validate()
        .map_err(|err| tool_memory_core::Error::Invalid {
            field: "constraint",
            reason: err.to_string(),
        })?;
    Ok(constraint)
}

/// The guard over the rules that apply at `now`. A captured edict awaiting confirmation is
/// advice only: it takes part as a normal rule, which never blocks.
fn build_guard(rules: Vec<ToolMemoryRule>, now: Timestamp) -> Guard {
    let pairs = rules
        .into_iter()
        .filter(|rule| rule.is_active(now))
        .map(|mut rule| {
            if rule.meta.proposed {
                rule.priority = ToolMemoryPriority::Normal;
            }
            let constraint = rule.meta.constraint.as_ref().and_then(|raw| match parse_constraint(&raw.to_value()) {
                Ok(constraint) => Some(constraint),
                Err(err) => {
                    // Derive again rather than leave the rule unenforced.
                    tracing::warn!(tool = rule.tool_name, id = rule.id, %err, "stored constraint unreadable; deriving it again");
                    None
                }
            });
            (rule, constraint)
        })
        .collect();
    // Every constraint passed in was validated above, so construction cannot fail; should it,
    // derive every constraint from the text rather than enforce nothing.
    let pairs: Vec<(ToolMemoryRule, Option<Constraint>)> = pairs;
    Guard::new(pairs.clone()).unwrap_or_else(|err| {
        tracing::warn!(%err, "could not build the guard from stored constraints; deriving them");
        Guard::from_rules(pairs.into_iter().map(|(rule, _)| rule))
    })
}

/// The tool and the names of its top-level arguments: enough to recognise the call in the
/// audit, without copying its content (which may hold personal data).
fn call_summary(tool: &str, arguments: &Value) -> String {
    match arguments {
        Value::Object(map) => {
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            format!("{tool}({})", keys.join(", "))
        }
        _ => format!("{tool}(…)"),
    }
}
