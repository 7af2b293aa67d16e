//! A turn's decisions ([`plan_turn`]), taken once for every backend as a pure function over a
//! snapshot of the rows the turn can touch, read inside the backend's transaction, so that
//! every backend decides alike and no other writer's change can come between a read and the
//! write it led to. The backend then applies the writes in that same transaction.

use std::collections::BTreeMap;

use tool_memory_core::{
    HistoryAction, HistoryEvent, IdSource, Origin, Timestamp, ToolMemoryRule, ToolMemorySource,
    ToolStats, UNSCOPED_TOOL, compare_for_listing, normalize_tool_name, validate_tool_name,
};

use crate::store::{StoredRow, UnreadableRow, mark_restored, mark_revoked};
use crate::turn::{RuleOutcome, TurnChanges, TurnOutcome, TurnRevocation, TurnRule, TurnRuleKind};
use crate::{Error, Result};

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

/// Whether an observation is done with at `now`: expired, or outlived by `successes` (its
/// tool's total of successful calls, when known). A user's rule never is.
pub fn observation_retires(rule: &ToolMemoryRule, now: Timestamp, successes: Option<u64>) -> bool {
    if rule.source == ToolMemorySource::UserExplicit {
        return false;
    }
    let expired = rule.meta.expires_at.is_some_and(|expiry| expiry <= now);
    let outlived = rule
        .meta
        .retire_after_successes
        .zip(successes)
        .is_some_and(|(threshold, successes)| successes >= threshold);
    expired || outlived
}

/// The rows as the turn's writes so far leave them.
#[derive(Debug, Default)]
struct State {
    rules: BTreeMap<(String, String), ToolMemoryRule>,
    unreadable: BTreeMap<(String, String), UnreadableRow>,
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
            if observation_retires(&rule, now, Some(successes)) {
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
