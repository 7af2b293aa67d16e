//! Enforcement through the facade: the guard built from a tool's active rules, kept per tool
//! while the store is unchanged, every deny and confirm written to the audit history, and the
//! constraint of each rule derived (or validated) when the rule is written.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use tool_memory_core::{
    HistoryAction, HistoryEvent, Origin, RawJson, RulePut, Timestamp, ToolMemoryPriority,
    ToolMemoryRule, UNSCOPED_TOOL, normalize_tool_name,
};
use tool_memory_guard::{Constraint, Decision, Guard, Verdict, derive_from_text};

use crate::{ActiveMemoryClient, Result};

/// Built guards by tool, all for one store version.
#[derive(Debug, Default)]
pub(crate) struct GuardCache {
    version: Option<u64>,
    guards: HashMap<String, CachedGuard>,
}

/// A guard and the first instant one of its rules expires, after which it must be rebuilt
/// even though the store has not changed.
#[derive(Debug)]
struct CachedGuard {
    guard: Arc<Guard>,
    until: Option<Timestamp>,
}

/// Most tools whose guards are kept at once.
const GUARD_CACHE_TOOLS: usize = 256;

impl ActiveMemoryClient {
    /// Checks a proposed tool call against the rules before it runs: `allow`, `confirm` (ask
    /// the user first) or `deny`, with the rules that decided it and a one-line reason. Revoked
    /// and expired rules never match; a rule written a moment ago (captured mid-session, say)
    /// applies to this very check, although the pinned prompt stays frozen. Every `deny` and
    /// `confirm` is recorded in the audit history with a summary of the call (the tool and the
    /// names of its arguments), never their values; if that line cannot be written, the verdict
    /// is still returned and the failure logged.
    pub async fn check(&self, tool_name: &str, arguments: &Value) -> Result<Verdict> {
        let tool = normalize_tool_name(tool_name);
        let guard = self.guard_for(&tool).await?;
        let verdict = guard.check(&tool, arguments);
        if verdict.decision != Decision::Allow {
            let action = match verdict.decision {
                Decision::Deny => HistoryAction::Deny,
                _ => HistoryAction::AskConfirm,
            };
            let detail = call_summary(&tool, arguments);
            for rule in &verdict.rules {
                let audited = self
                    .store()
                    .append_history(HistoryEvent {
                        tool_name: rule.tool_name.clone(),
                        rule_id: rule.id.clone(),
                        action,
                        origin: Origin::Guard,
                        rule: Some(rule.clone()),
                        detail: Some(detail.clone()),
                    })
                    .await;
                // The verdict matters more than its audit line: a host must still see the
                // deny when the line cannot be written (a busy or read-only database).
                if let Err(err) = audited {
                    tracing::error!(tool = rule.tool_name, id = rule.id, %err, "could not audit a guard decision");
                }
            }
        }
        Ok(verdict)
    }

    /// The guard for a tool: from the cache while the store is unchanged, rebuilt otherwise.
    async fn guard_for(&self, tool: &str) -> Result<Arc<Guard>> {
        let version = self.store().version().await?;
        let now = self.clock.now();
        if let Some(version) = version {
            let cache = self.guards.lock();
            if cache.version == Some(version)
                && let Some(cached) = cache.guards.get(tool)
                && cached.until.is_none_or(|until| now < until)
            {
                return Ok(Arc::clone(&cached.guard));
            }
        }
        let mut rules = self.store().list(tool).await?.to_vec();
        if tool != UNSCOPED_TOOL {
            rules.extend_from_slice(&self.store().list(UNSCOPED_TOOL).await?);
        }
        let until = rules
            .iter()
            .filter(|rule| rule.is_active(now))
            .filter_map(|rule| rule.meta.expires_at)
            .min();
        let guard = Arc::new(build_guard(rules, now));
        if version.is_some() {
            let mut cache = self.guards.lock();
            if cache.version != version || cache.guards.len() >= GUARD_CACHE_TOOLS {
                cache.guards.clear();
                cache.version = version;
            }
            cache.guards.insert(
                tool.to_owned(),
                CachedGuard {
                    guard: Arc::clone(&guard),
                    until,
                },
            );
        }
        Ok(guard)
    }

    /// Gives a put its constraint before it is written: a given one is validated and kept
    /// across later edits; otherwise one is derived from the new text, which the store applies
    /// only when the stored rule does not carry one a caller gave (decided in
    /// `RulePut::build`, inside the write transaction, so a concurrent put cannot slip
    /// between the check and the write).
    pub(crate) async fn with_constraint(&self, mut put: RulePut) -> Result<RulePut> {
        if let Some(given) = put.constraint.take() {
            let explicit = !given.is_null();
            put.constraint = Some(if explicit {
                RawJson::of(&parse_constraint(&given)?)
            } else {
                given
            });
            put.constraint_explicit = Some(explicit);
            return Ok(put);
        }
        let derived = derive_from_text(&put.rule, &normalize_tool_name(&put.tool_name));
        // Written straight to its JSON text: through a `Value` it cost a fifth of the
        // instructions of a put outside SQLite.
        put.constraint =
            Some(derived.map_or_else(RawJson::null, |constraint| RawJson::of(&constraint)));
        put.constraint_explicit = Some(false);
        Ok(put)
    }
}

/// Parses and validates a constraint in the guard's JSON form; errors name the field inside it
/// (`constraint.matchers[1].value`).
fn parse_constraint(given: &RawJson) -> Result<Constraint> {
    // The reason comes from the value, not the text: a parse of the text would say "at line 1
    // column N" of compact JSON with sorted keys, which is not what the caller sent.
    let constraint: Constraint = serde_json::from_str(given.as_str())
        .or_else(|_| serde_json::from_value(given.to_value()))
        .map_err(|err| tool_memory_core::Error::Invalid {
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
            let constraint = rule.meta.constraint.as_ref().and_then(|raw| {
                match parse_constraint(raw) {
                    Ok(constraint) => Some(constraint),
                    Err(_) => {
                        // Derive again rather than leave the rule unenforced. The error text can
                        // quote the constraint's literals (addresses), so only the rule is named.
                        tracing::warn!(
                            tool = rule.tool_name,
                            id = rule.id,
                            "stored constraint unreadable; deriving it again"
                        );
                        None
                    }
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
