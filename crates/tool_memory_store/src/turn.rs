//! A whole turn's changes as one store operation ([`RuleStore::apply_turn`]): what the facade
//! asks for, what a backend reads for it, and what became of it. The decisions are taken by
//! `plan.rs` on the rows a backend reads inside its transaction.
//!
//! [`RuleStore::apply_turn`]: crate::RuleStore::apply_turn

use std::collections::BTreeSet;
use std::sync::Arc;

use tool_memory_core::{
    Origin, RulePut, Timestamp, ToolMemoryRule, ToolStats, UNSCOPED_TOOL, normalize_tool_name,
};

/// Which turn this is: a session, the turn's index in it, and a digest of what the turn holds.
/// Recorded with the turn's changes, so that the same turn applied again (a retried hook, a
/// replayed request) changes nothing. The digest tells apart the events a host reports under
/// one index (each tool call's outcome of one agent turn, say), which are not repeats.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TurnKey {
    /// The agent's session id, as the host gave it.
    pub session_id: String,
    /// The turn's index within the session.
    pub turn: u64,
    /// A digest of the turn's content, as the caller computes it (the facade: SHA-256 of the
    /// turn record's JSON, in hex).
    pub digest: String,
}

/// Everything one turn changes, applied together by [`RuleStore::apply_turn`] in this order:
/// revocations, statistics, rules, then the expiry of the observations of the turn's tools.
///
/// [`RuleStore::apply_turn`]: crate::RuleStore::apply_turn
#[derive(Debug, Clone)]
pub struct TurnChanges {
    /// The turn's identity; `None` when the host gave no session id or no turn index. Such a
    /// turn cannot be recognised when it comes again, so it is applied every time.
    pub key: Option<TurnKey>,
    /// The caller's time: observations whose `expires_at` is at or before it are retired.
    pub now: Timestamp,
    /// The rules the user lifted, applied first, so an edict of the same turn is never lifted
    /// by its own turn.
    pub revocations: Vec<TurnRevocation>,
    /// Call counts to add to each tool's statistics.
    pub stats: Vec<ToolStats>,
    /// Rules to write under their identity (the put's id).
    pub rules: Vec<TurnRule>,
}

/// A revocation: which active rules it lifts, decided per rule on the rows read in the
/// transaction.
#[derive(Clone)]
pub struct TurnRevocation {
    /// `Some(tool)`: the rules of that tool and of the no-tool group; `None`: every tool's.
    pub tool_name: Option<String>,
    /// Whether the revocation lifts this (active) rule.
    pub matches: Arc<dyn Fn(&ToolMemoryRule) -> bool + Send + Sync>,
    /// Who asked, recorded on each `revoke` line.
    pub origin: Origin,
}

impl std::fmt::Debug for TurnRevocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnRevocation")
            .field("tool_name", &self.tool_name)
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

/// How a rule of the turn is written, which depends on the rule stored under its identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnRuleKind {
    /// The user's own words. A revoked rule with its identity is restored first (a `restore`
    /// line); with `confirm_new`, a new one waits, proposed, for confirmation; without it, a
    /// proposal from material with its identity is confirmed by being said by the user.
    Edict { confirm_new: bool },
    /// Seen in a tool's output: it retires once its tool has `retire_after_successes` more
    /// successful calls than the statistics hold after this turn.
    Observation { retire_after_successes: u64 },
    /// Found in pasted material: stored only as a proposal, and never over a rule with its
    /// identity that is not itself an unrevoked proposal from material.
    Material,
}

/// One rule of the turn.
#[derive(Debug, Clone)]
pub struct TurnRule {
    /// The write, with its id (the identity key), its origin and its constraint.
    pub put: RulePut,
    pub kind: TurnRuleKind,
}

/// What became of one [`TurnRule`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleOutcome {
    /// No rule had its identity.
    Created(ToolMemoryRule),
    /// Said again word for word (same text, priority and proposal state).
    Refreshed(ToolMemoryRule),
    /// Said again differently.
    Changed(ToolMemoryRule),
    /// The rule with its identity was revoked.
    Restored(ToolMemoryRule),
    /// Material left alone: a rule with its identity exists that material may not touch.
    NotApplied,
}

/// What a turn changed, in the order of [`TurnChanges`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnOutcome {
    /// The turn's identity was recorded already: nothing was changed, and the rest is empty.
    pub already_applied: bool,
    /// The rules each revocation lifted, one list per revocation.
    pub revoked: Vec<Vec<ToolMemoryRule>>,
    /// The statistics totals after each delta, one per delta.
    pub stats: Vec<ToolStats>,
    /// One per rule of the turn.
    pub rules: Vec<RuleOutcome>,
    /// Observations retired (expired, or outlived by successful calls), as they were.
    pub expired: Vec<ToolMemoryRule>,
}

impl TurnOutcome {
    /// The outcome of a turn whose key was recorded already.
    pub fn already() -> TurnOutcome {
        TurnOutcome {
            already_applied: true,
            ..TurnOutcome::default()
        }
    }
}

/// What a backend must read, inside its transaction, before `plan_turn`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnReads {
    /// Every row (revoked and unreadable ones too) of these tools; `None`: of every tool.
    pub tools: Option<BTreeSet<String>>,
    /// The statistics of these tools.
    pub stats: BTreeSet<String>,
}

impl TurnChanges {
    /// The rows and statistics the turn's decisions read. Names are normalised; a name that
    /// does not validate is left to `plan_turn` to refuse.
    pub fn reads(&self) -> TurnReads {
        let stats: BTreeSet<String> = self
            .stats
            .iter()
            .map(|delta| normalize_tool_name(&delta.tool_name))
            .collect();
        let every_tool = self
            .revocations
            .iter()
            .any(|revocation| revocation.tool_name.is_none());
        let tools = (!every_tool).then(|| {
            let mut tools: BTreeSet<String> = self
                .rules
                .iter()
                .map(|rule| normalize_tool_name(&rule.put.tool_name))
                .chain(stats.iter().cloned())
                .chain(
                    self.revocations
                        .iter()
                        .filter_map(|revocation| revocation.tool_name.as_deref())
                        .map(normalize_tool_name),
                )
                .collect();
            tools.insert(UNSCOPED_TOOL.to_owned());
            tools
        });
        TurnReads { tools, stats }
    }
}
