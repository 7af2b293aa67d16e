//! The audit trail: every change to a rule, and every guard decision that stopped or questioned
//! a tool call, as an append-only history with who asked for it ([`Origin`]).

use serde::{Deserialize, Serialize};

use crate::{Origin, Timestamp, ToolMemoryRule};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryAction {
    /// A rule was written for the first time.
    Create,
    /// An existing rule was written again.
    Update,
    /// A rule was lifted; it stays, marked, out of the prompt and the guard.
    Revoke,
    /// A revoked rule was reinstated.
    Restore,
    /// A proposed rule was confirmed by the user.
    Confirm,
    /// A rule was deleted.
    Delete,
    /// An observation expired.
    Expire,
    /// The guard denied a tool call.
    Deny,
    /// The guard asked for confirmation of a tool call.
    AskConfirm,
}

impl HistoryAction {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            HistoryAction::Create => "create",
            HistoryAction::Update => "update",
            HistoryAction::Revoke => "revoke",
            HistoryAction::Restore => "restore",
            HistoryAction::Confirm => "confirm",
            HistoryAction::Delete => "delete",
            HistoryAction::Expire => "expire",
            HistoryAction::Deny => "deny",
            HistoryAction::AskConfirm => "ask_confirm",
        }
    }
}

/// One line of history, newest lines having the highest `seq`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// Position in the log; increases with every line.
    pub seq: i64,
    /// When it happened.
    pub at: Timestamp,
    /// The tool.
    pub tool_name: String,
    /// The rule.
    pub rule_id: String,
    /// What happened.
    pub action: HistoryAction,
    /// Who asked.
    pub origin: Origin,
    /// The rule before the change (absent for a creation).
    pub before: Option<ToolMemoryRule>,
    /// The rule after the change (absent for a deletion).
    pub after: Option<ToolMemoryRule>,
    /// For guard decisions: a summary of the call (never its full arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// A history line to append; the store assigns `seq` and `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEvent {
    /// The tool.
    pub tool_name: String,
    /// The rule.
    pub rule_id: String,
    /// What happened.
    pub action: HistoryAction,
    /// Who asked.
    pub origin: Origin,
    /// The rule as it stands.
    pub rule: Option<ToolMemoryRule>,
    /// A summary (guard decisions).
    pub detail: Option<String>,
}

impl HistoryEvent {
    /// The line of `rule` written by `origin` over `before`: a creation, or an update.
    pub fn written(
        rule: &ToolMemoryRule,
        before: Option<&ToolMemoryRule>,
        origin: Origin,
    ) -> HistoryEvent {
        let action = match before {
            None => HistoryAction::Create,
            Some(_) => HistoryAction::Update,
        };
        HistoryEvent::changed(rule, action, origin)
    }

    /// The line of `action` (a revocation, a confirmation, ...) that left the rule as `rule`.
    pub fn changed(rule: &ToolMemoryRule, action: HistoryAction, origin: Origin) -> HistoryEvent {
        HistoryEvent {
            tool_name: rule.tool_name.clone(),
            rule_id: rule.id.clone(),
            action,
            origin,
            rule: Some(rule.clone()),
            detail: None,
        }
    }

    /// The line of `action` (a deletion, an expiry) that removed the rule (tool, id).
    pub fn removed(
        tool_name: &str,
        rule_id: &str,
        action: HistoryAction,
        origin: Origin,
    ) -> HistoryEvent {
        HistoryEvent {
            tool_name: tool_name.to_owned(),
            rule_id: rule_id.to_owned(),
            action,
            origin,
            rule: None,
            detail: None,
        }
    }

    /// The line this event becomes as number `seq`, written at `at` over `before`.
    pub fn into_entry(
        self,
        seq: i64,
        at: Timestamp,
        before: Option<ToolMemoryRule>,
    ) -> HistoryEntry {
        HistoryEntry {
            seq,
            at,
            tool_name: crate::normalize_tool_name(&self.tool_name),
            rule_id: self.rule_id,
            action: self.action,
            origin: self.origin,
            before,
            after: self.rule,
            detail: self.detail,
        }
    }
}
