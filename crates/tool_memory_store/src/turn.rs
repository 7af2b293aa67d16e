//! A whole turn's changes as one store operation ([`RuleStore::apply_turn`]): what the facade
//! asks for, the decisions taken on the state read inside the backend's transaction, and the
//! writes that come out, which each backend applies in that same transaction.
//!
//! The decisions live here, once, as a pure function ([`plan_turn`]) over a snapshot of the
//! rows the turn can touch, so that every backend decides alike and none can interleave another
//! writer's change between a read and the write it led to.
//!
//! [`RuleStore::apply_turn`]: crate::RuleStore::apply_turn

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use tool_memory_core::{
    HistoryAction, HistoryEvent, IdSource, Origin, RulePut, Timestamp, ToolMemoryRule,
    ToolMemorySource, ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name,
    validate_tool_name,
};

use crate::store::{StoredRow, mark_restored, mark_revoked};
use crate::{Error, Result};

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

/// What a backend must read, inside its transaction, before [`plan_turn`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnReads {
    /// Every row (revoked and unreadable ones too) of these tools; `None`: of every tool.
    pub tools: Option<BTreeSet<String>>,
    /// The statistics of these tools.
    pub stats: BTreeSet<String>,
}

impl TurnChanges {
    /// The rows and statistics the turn's decisions read. Names are normalised; a name that
    /// does not validate is left to [`plan_turn`] to refuse.
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

/// The rows and statistics a backend read for a turn, inside its transaction.
#[derive(Debug, Clone, Default)]
pub struct TurnSnapshot {
    /// Every row of the tools [`TurnReads::tools`] names, in any order.
    pub rows: Vec<StoredRow>,
    /// The stored statistics of the tools [`TurnReads::stats`] names (absent ones left out).
    pub stats: Vec<ToolStats>,
}

/// One write of a turn, in the order the backend must apply them.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnWrite {
    /// Store `rule` (replacing the row of its tool and id, if any) with the history line
    /// `event`; `before` is the row as the previous write of this turn, or the snapshot, left
    /// it.
    Rule {
        rule: ToolMemoryRule,
        before: Option<ToolMemoryRule>,
        event: HistoryEvent,
    },
    /// Remove the rule (tool, id) with the history line `event`.
    Remove {
        tool_name: String,
        id: String,
        before: ToolMemoryRule,
        event: HistoryEvent,
    },
    /// Set a tool's statistics to these totals.
    Stats(ToolStats),
}

/// A turn's writes and what they amount to.
#[derive(Debug, Clone)]
pub struct TurnPlan {
    pub writes: Vec<TurnWrite>,
    pub outcome: TurnOutcome,
}

/// Decides a turn on `snapshot` (read for [`TurnChanges::reads`] inside the transaction that
/// will apply the result). `at` is the store's time for the writes, `ids` names a rule put
/// without an id. Fails, having decided nothing, on any invalid rule or statistics name, or a
/// rule written over a row this version cannot read: the turn is then stored not at all.
pub fn plan_turn(
    changes: &TurnChanges,
    snapshot: TurnSnapshot,
    at: Timestamp,
    ids: &dyn IdSource,
) -> Result<TurnPlan> {
    let mut state = State::default();
    for row in snapshot.rows {
        match row {
            Ok(rule) => {
                state
                    .rules
                    .insert((rule.tool_name.clone(), rule.id.clone()), rule);
            }
            Err(row) => {
                state
                    .unreadable
                    .insert((row.tool_name.clone(), row.id.clone()), row);
            }
        }
    }
    let mut stored_stats: BTreeMap<String, ToolStats> = snapshot
        .stats
        .into_iter()
        .map(|stats| (stats.tool_name.clone(), stats))
        .collect();
    let mut plan = TurnPlan {
        writes: Vec::new(),
        outcome: TurnOutcome::default(),
    };

    for revocation in &changes.revocations {
        let revoked = state.revoke(revocation, at, &mut plan.writes);
        plan.outcome.revoked.push(revoked);
    }

    // The totals after this turn, per tool: what observations retire against.
    let mut successes = BTreeMap::new();
    for delta in &changes.stats {
        let name = validate_tool_name(&delta.tool_name)?;
        let totals = stored_stats
            .entry(name.clone())
            .or_insert_with(|| ToolStats::empty(&name));
        totals.add(delta);
        successes.insert(name, totals.successes);
        plan.writes.push(TurnWrite::Stats(totals.clone()));
        plan.outcome.stats.push(totals.clone());
    }

    for rule in &changes.rules {
        let outcome = state.write(rule, &successes, at, ids, &mut plan.writes)?;
        plan.outcome.rules.push(outcome);
    }

    for (tool, successes) in &successes {
        let retired = state.retire(tool, changes.now, *successes, &mut plan.writes);
        plan.outcome.expired.extend(retired);
    }
    Ok(plan)
}

/// The rows as the turn's writes so far leave them.
#[derive(Debug, Default)]
struct State {
    rules: BTreeMap<(String, String), ToolMemoryRule>,
    unreadable: BTreeMap<(String, String), crate::UnreadableRow>,
}

impl State {
    /// The unrevoked rules of a tool in listing order, as `RuleStore::list` gives them.
    fn listing(&self, tool_name: &str) -> Vec<ToolMemoryRule> {
        let mut rules: Vec<ToolMemoryRule> = self
            .rules
            .range((tool_name.to_owned(), String::new())..)
            .take_while(|((tool, _), _)| tool == tool_name)
            .map(|(_, rule)| rule.clone())
            .filter(|rule| rule.meta.revoked_at.is_none())
            .collect();
        rules.sort_by(compare_for_listing);
        rules
    }

    fn revoke(
        &mut self,
        revocation: &TurnRevocation,
        at: Timestamp,
        writes: &mut Vec<TurnWrite>,
    ) -> Vec<ToolMemoryRule> {
        let tools: Vec<String> = match &revocation.tool_name {
            Some(tool) => vec![normalize_tool_name(tool), UNSCOPED_TOOL.to_owned()],
            None => {
                let mut tools: Vec<String> = self
                    .rules
                    .keys()
                    .chain(self.unreadable.keys())
                    .map(|(tool, _)| tool.clone())
                    .filter(|tool| tool != UNSCOPED_TOOL)
                    .collect();
                tools.sort();
                tools.dedup();
                tools.push(UNSCOPED_TOOL.to_owned());
                tools
            }
        };
        let mut revoked = Vec::new();
        for tool in tools {
            for rule in self.listing(&tool) {
                if !(revocation.matches)(&rule) {
                    continue;
                }
                let mut after = rule.clone();
                if mark_revoked(&mut after.meta, at) {
                    let event = HistoryEvent::changed(
                        &after,
                        HistoryAction::Revoke,
                        revocation.origin.clone(),
                    );
                    self.store(after.clone(), Some(rule), event, writes);
                }
                revoked.push(after);
            }
        }
        revoked
    }

    fn write(
        &mut self,
        rule: &TurnRule,
        successes: &BTreeMap<String, u64>,
        at: Timestamp,
        ids: &dyn IdSource,
        writes: &mut Vec<TurnWrite>,
    ) -> Result<RuleOutcome> {
        let mut put = rule.put.clone().normalized()?;
        let id = put.id.clone().unwrap_or_else(|| ids.next_id());
        let key = (put.tool_name.clone(), id.clone());
        if let Some(row) = self.unreadable.get(&key) {
            return Err(Error::unreadable(row.clone()));
        }
        let mut existing = self.rules.get(&key).cloned();
        let was_revoked = existing
            .as_ref()
            .is_some_and(|rule| rule.meta.revoked_at.is_some());
        match rule.kind {
            TurnRuleKind::Material => {
                if existing
                    .as_ref()
                    .is_some_and(|rule| !rule.is_material_proposal() || was_revoked)
                {
                    return Ok(RuleOutcome::NotApplied);
                }
                put.proposed = Some(true);
            }
            TurnRuleKind::Edict { confirm_new } => {
                if existing.is_none() && confirm_new {
                    put.proposed = Some(true);
                }
                if !confirm_new
                    && existing
                        .as_ref()
                        .is_some_and(ToolMemoryRule::is_material_proposal)
                {
                    put.proposed = Some(false);
                }
                if let Some(revoked) = existing.as_ref().filter(|_| was_revoked) {
                    let mut restored = revoked.clone();
                    mark_restored(&mut restored.meta);
                    let event = HistoryEvent::changed(
                        &restored,
                        HistoryAction::Restore,
                        put.origin.clone(),
                    );
                    self.store(restored.clone(), Some(revoked.clone()), event, writes);
                    existing = Some(restored);
                }
            }
            TurnRuleKind::Observation {
                retire_after_successes,
            } => {
                let seen = successes.get(&put.tool_name).copied().unwrap_or_default();
                put.retire_after_successes = Some(seen.saturating_add(retire_after_successes));
            }
        }
        let origin = put.origin.clone();
        let stored = put.build(id, existing.as_ref(), at);
        let event = HistoryEvent::written(&stored, existing.as_ref(), origin);
        self.store(stored.clone(), existing.clone(), event, writes);
        let same = |before: &ToolMemoryRule| {
            before.rule == stored.rule
                && before.priority == stored.priority
                && (rule.kind == TurnRuleKind::Material
                    || before.meta.proposed == stored.meta.proposed)
        };
        Ok(match existing {
            None => RuleOutcome::Created(stored),
            Some(_) if was_revoked && rule.kind != TurnRuleKind::Material => {
                RuleOutcome::Restored(stored)
            }
            Some(before) if same(&before) => RuleOutcome::Refreshed(stored),
            Some(_) => RuleOutcome::Changed(stored),
        })
    }

    /// Removes a tool's observations expired at `now` or outlived by `successes`.
    fn retire(
        &mut self,
        tool_name: &str,
        now: Timestamp,
        successes: u64,
        writes: &mut Vec<TurnWrite>,
    ) -> Vec<ToolMemoryRule> {
        let mut retired = Vec::new();
        for rule in self.listing(tool_name) {
            if rule.source == ToolMemorySource::UserExplicit {
                continue;
            }
            let expired = rule.meta.expires_at.is_some_and(|expiry| expiry <= now);
            let outlived = rule
                .meta
                .retire_after_successes
                .is_some_and(|threshold| successes >= threshold);
            if expired || outlived {
                self.rules
                    .remove(&(rule.tool_name.clone(), rule.id.clone()));
                let event = HistoryEvent::removed(
                    &rule.tool_name,
                    &rule.id,
                    HistoryAction::Expire,
                    Origin::Expiry,
                );
                writes.push(TurnWrite::Remove {
                    tool_name: rule.tool_name.clone(),
                    id: rule.id.clone(),
                    before: rule.clone(),
                    event,
                });
                retired.push(rule);
            }
        }
        retired
    }

    fn store(
        &mut self,
        rule: ToolMemoryRule,
        before: Option<ToolMemoryRule>,
        event: HistoryEvent,
        writes: &mut Vec<TurnWrite>,
    ) {
        self.rules
            .insert((rule.tool_name.clone(), rule.id.clone()), rule.clone());
        writes.push(TurnWrite::Rule {
            rule,
            before,
            event,
        });
    }
}
