//! Enforcement through the facade: the guard of a tool's active rules (built and kept by
//! `guard_cache.rs` while the store is unchanged), and every deny and confirm written to the
//! audit history. Which
//! constraint a rule has, when it is written and when it is enforced, is the guard crate's
//! decision (`tool_memory_guard::constrain_put`, `Guard::from_stored`); this module only
//! passes it on.
//!
//! It fails closed on rules it cannot see: while the store holds a row of the tool (or of the
//! no-tool group, whose rules apply to every tool) that this version cannot read, a check that
//! the readable rules would allow answers `confirm` instead, naming the row and `toolmem
//! doctor`. A `deny` from a readable rule still wins.

use std::sync::Arc;

use serde_json::Value;
use tool_memory_core::{
    HistoryAction, HistoryEvent, Origin, RulePut, UNSCOPED_TOOL, mcp_key, normalize_tool_name,
};
use tool_memory_guard::{Decision, Verdict, constrain_put};
use tool_memory_store::UnreadableRow;

use crate::guard_cache::ToolGuard;
use crate::{ActiveMemoryClient, Result};

/// Most unreadable rows a reason names one by one; the rest are counted. A store can hold any
/// number of them (a newer toolmem may have written every rule), and the reason is one line.
const REASON_ROWS: usize = 3;

/// Longest tool name or id a reason shows, in characters: toolmem's own limit for both
/// (`MAX_TOOL_NAME_CHARS`, `MAX_ID_CHARS`). An unreadable row may hold anything there.
const REASON_NAME_CHARS: usize = tool_memory_core::MAX_ID_CHARS;

impl ActiveMemoryClient {
    /// Checks a proposed tool call against the rules before it runs: `allow`, `confirm` (ask
    /// the user first) or `deny`, with the rules that decided it and a one-line reason. Revoked
    /// and expired rules never match; a rule written a moment ago (captured mid-session, say)
    /// applies to this very check, although the pinned prompt stays frozen. Every `deny` and
    /// `confirm` is recorded in the audit history with a summary of the call (the tool and the
    /// names of its arguments), never their values; if that line cannot be written, the verdict
    /// is still returned and the failure logged.
    ///
    /// While the store holds a row of this tool or of the no-tool group that it cannot read
    /// (written by a newer toolmem, or damaged), a call the readable rules allow is answered
    /// `confirm`, with a reason naming the row and `toolmem doctor`; that confirm is audited
    /// under the row's tool and id. A `deny` from a readable rule still wins. A call too complex
    /// to check in full is answered `confirm` by the guard itself and audited on the called
    /// tool with an empty rule id.
    ///
    /// An MCP tool is the same tool in every agent's spelling: a call of
    /// `mcp_github_merge_pull_request` (Gemini CLI) is held to the rules stored on
    /// `mcp__github__merge_pull_request` (Claude Code, Codex) and `github__merge_pull_request`
    /// too, and one named without its server, as Cursor names one (`MCP:delete_issue`), to
    /// those of every server's tool of that own name. Each is checked, and the strictest
    /// verdict is the answer.
    ///
    /// A call of a tool that calls an MCP tool for the model (Cline's `use_mcp_tool
    /// {server_name, tool_name, arguments}`, its arguments a JSON string) is checked as itself
    /// and as the MCP tool it calls, with the arguments it passes on.
    pub async fn check(&self, tool_name: &str, arguments: &Value) -> Result<Verdict> {
        let outer = self.check_named(tool_name, arguments).await?;
        let Some((inner_tool, inner_arguments)) =
            crate::family::proxied_mcp_call(tool_name, arguments)
        else {
            return Ok(outer);
        };
        if outer.decision == Decision::Deny {
            return Ok(outer);
        }
        let inner = self.check_named(&inner_tool, &inner_arguments).await?;
        Ok(if inner.decision > outer.decision {
            inner
        } else {
            outer
        })
    }

    /// [`ActiveMemoryClient::check`] of a call as named: an MCP tool is also each stored tool
    /// that is the same tool in another agent's spelling (see [`McpName`]), and the strictest
    /// verdict is the answer.
    async fn check_named(&self, tool_name: &str, arguments: &Value) -> Result<Verdict> {
        let Some(name) = McpName::of(tool_name) else {
            return self.check_tool(tool_name, arguments).await;
        };
        let called = match &name {
            McpName::Bare(bare) => bare.clone(),
            McpName::Keyed(_) => normalize_tool_name(tool_name),
        };
        let mut verdict = self.check_tool(&called, arguments).await?;
        let mut spellings = self.list_tool_names().await?;
        spellings.retain(|tool| *tool != called && name.is(tool));
        for tool in spellings {
            let other = self.check_tool(&tool, arguments).await?;
            if other.decision > verdict.decision {
                verdict = other;
            }
        }
        Ok(verdict)
    }

    /// [`ActiveMemoryClient::check`] of a call of one tool.
    async fn check_tool(&self, tool_name: &str, arguments: &Value) -> Result<Verdict> {
        let tool = normalize_tool_name(tool_name);
        let guard = self.guard_for(&tool).await?;
        let arguments = crate::family::canonical_arguments(&tool, arguments);
        let arguments = arguments.as_ref();
        let mut verdict = guard.guard.check(&tool, arguments);
        let unseen: &[UnreadableRow] =
            if guard.unreadable.is_empty() || verdict.decision == Decision::Deny {
                &[]
            } else {
                fail_closed(&mut verdict, &guard.unreadable);
                &guard.unreadable
            };
        if verdict.decision != Decision::Allow {
            let action = match verdict.decision {
                Decision::Deny => HistoryAction::Deny,
                _ => HistoryAction::AskConfirm,
            };
            let detail = call_summary(&tool, arguments);
            // A confirm no rule made (the call was too complex to check in full) is audited
            // too, on the called tool with an empty rule id, so every ask is on record.
            let undecided = (verdict.rules.is_empty() && unseen.is_empty())
                .then(|| (tool.clone(), String::new(), None));
            let lines = verdict
                .rules
                .iter()
                .map(|rule| (rule.tool_name.clone(), rule.id.clone(), Some(rule.clone())))
                .chain(
                    unseen
                        .iter()
                        .map(|row| (row.tool_name.clone(), row.id.clone(), None)),
                )
                .chain(undecided);
            for (tool_name, rule_id, rule) in lines {
                let audited = self
                    .store()
                    .append_history(HistoryEvent {
                        tool_name,
                        rule_id,
                        action,
                        origin: Origin::Guard,
                        rule,
                        detail: Some(detail.clone()),
                    })
                    .await;
                // The verdict matters more than its audit line: a host must still see the
                // deny when the line cannot be written (a busy or read-only database).
                if let Err(err) = audited {
                    tracing::error!(%err, "could not audit a guard decision");
                }
            }
        }
        Ok(verdict)
    }

    /// The guard for a tool: from the cache while the store is unchanged, rebuilt otherwise.
    async fn guard_for(&self, tool: &str) -> Result<Arc<ToolGuard>> {
        let version = self.store().version().await?;
        let now = self.clock.now();
        if let Some(version) = version
            && let Some(guard) = self.guards.lock().get(version, tool, now)
        {
            return Ok(guard);
        }
        // The listings and the rows the store could not read, from the same reads.
        let own = self.store().list_with_unreadable(tool).await?;
        let mut rules = own.rules.to_vec();
        let mut unreadable = own.unreadable.to_vec();
        // The rules of the tools whose rules hold for this call decide too (its family's, and
        // the file families' path bans for a shell), each under its own tool: the guard files
        // them by family and knows which hold for the call, and how.
        for member in crate::family::rule_scope(tool).iter().skip(1) {
            let listing = self.store().list_with_unreadable(member).await?;
            rules.extend_from_slice(&listing.rules);
            unreadable.extend_from_slice(&listing.unreadable);
        }
        if tool != UNSCOPED_TOOL {
            let every_tool = self.store().list_with_unreadable(UNSCOPED_TOOL).await?;
            rules.extend_from_slice(&every_tool.rules);
            unreadable.extend_from_slice(&every_tool.unreadable);
        }
        let (guard, until) = ToolGuard::build(rules, unreadable, now);
        let guard = Arc::new(guard);
        if let Some(version) = version {
            self.guards
                .lock()
                .insert(version, tool, Arc::clone(&guard), until);
        }
        Ok(guard)
    }

    /// Gives a put its constraint before it is written; the guard crate decides it
    /// ([`constrain_put`]), and the store merges it with the stored rule inside its write
    /// transaction (`RulePut::build`).
    pub(crate) async fn with_constraint(&self, put: RulePut) -> Result<RulePut> {
        Ok(constrain_put(put)?)
    }
}

/// Makes a verdict the readable rules gave (allow or confirm, never deny) fail closed on the
/// rows the store could not read: allow becomes confirm, and the reason names the rows.
fn fail_closed(verdict: &mut Verdict, unreadable: &[UnreadableRow]) {
    let rows = describe_rows(unreadable);
    match verdict.decision {
        Decision::Allow => {
            let verb = if unreadable.len() == 1 { "it" } else { "they" };
            verdict.decision = Decision::Confirm;
            verdict.reason = format!(
                "confirm first: {rows} could not be read by this toolmem, and {verb} may forbid this call; run `toolmem doctor`"
            );
        }
        Decision::Confirm => {
            verdict.reason.push_str(&format!(
                "; also, {rows} could not be read by this toolmem; run `toolmem doctor`"
            ));
        }
        Decision::Deny => {}
    }
}

/// "the stored rule r1 on send_email", "3 stored rules (r1 on send_email, r2 for every
/// tool, ...)": tool and id of each, escaped and cut to length, at most [`REASON_ROWS`] named.
fn describe_rows(rows: &[UnreadableRow]) -> String {
    let one = |row: &UnreadableRow| {
        let id = printable(&row.id);
        if normalize_tool_name(&row.tool_name) == UNSCOPED_TOOL {
            format!("{id} for every tool")
        } else {
            format!("{id} on {}", printable(&row.tool_name))
        }
    };
    match rows {
        [row] => format!("the stored rule {}", one(row)),
        _ => {
            let mut named: Vec<String> = rows.iter().take(REASON_ROWS).map(one).collect();
            if rows.len() > REASON_ROWS {
                named.push(format!("{} more", rows.len() - REASON_ROWS));
            }
            format!("{} stored rules ({})", rows.len(), named.join(", "))
        }
    }
}

/// Text from a row the store could not read, safe on one line of a terminal or a log: control
/// characters, line and paragraph separators and bidirectional overrides escaped, and cut at
/// [`REASON_NAME_CHARS`].
fn printable(text: &str) -> String {
    let mut shown = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == REASON_NAME_CHARS {
            shown.push('…');
            break;
        }
        let invisible = c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if invisible {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    if shown.is_empty() {
        shown.push_str("(empty)");
    }
    shown
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

/// How a call names an MCP tool, to find the stored tools that are the same tool.
enum McpName {
    /// Named without its server, as Cursor does (`MCP:delete_issue`): each server's tool of
    /// that own name may be the one called.
    Bare(String),
    /// A server's tool in one agent's spelling, by its key ([`mcp_key`]): every spelling of it.
    Keyed(String),
}

impl McpName {
    fn of(tool_name: &str) -> Option<McpName> {
        crate::family::bare_mcp_name(tool_name)
            .map(McpName::Bare)
            .or_else(|| mcp_key(tool_name).map(McpName::Keyed))
    }

    /// Whether the stored tool `stored` may be the tool called.
    fn is(&self, stored: &str) -> bool {
        match self {
            McpName::Keyed(key) => mcp_key(stored).as_deref() == Some(key.as_str()),
            McpName::Bare(bare) => crate::family::is_mcp_tool_named(stored, bare),
        }
    }
}
