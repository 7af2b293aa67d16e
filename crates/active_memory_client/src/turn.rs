//! `after_turn`: capture's proposals for a finished turn become one [`TurnChanges`], which the
//! store applies in one transaction under the turn's key, and the store's outcome becomes the
//! facade's [`AfterTurnReport`].

use std::sync::Arc;

use sha2::{Digest, Sha256};
use tool_memory_capture::{Trust, TurnRecord, capture_turn, revocation_matches};
use tool_memory_core::{Origin, RulePut, ToolMemoryPriority, ToolMemorySource, ToolStats};
use tool_memory_store::{
    RuleOutcome, TurnChanges, TurnKey, TurnRevocation, TurnRule, TurnRuleKind,
};

use crate::Result;
use crate::client::{ActiveMemoryClient, AfterTurnReport};

impl ActiveMemoryClient {
    /// Runs capture on a finished turn and applies what it proposes, all in one store
    /// transaction, in this order:
    ///
    /// 1. Revocations, so that an edict in the same turn is never lifted by its own turn.
    /// 2. Statistics, so that observations see this turn's successes.
    /// 3. Rules. A repeated edict has the same identity key, which is used as the rule id, so it
    ///    refreshes one rule rather than adding a copy; stating a revoked edict again restores
    ///    it. Text observed in tool output never rises above normal. With
    ///    `confirm_captured_edicts`, a new edict waits, proposed, for the user's confirmation.
    ///    A rule capture found in material the user pasted (trust `material`: a chat log, an
    ///    e-mail, a web page) is only ever stored **proposed** (advice, never blocking, until a
    ///    person confirms it), at most at the priority capture gave, tagged `from-material` and
    ///    written with a `capture` origin; it never creates, changes, confirms or restores a rule
    ///    with its identity that is not such a proposal (those are reported in
    ///    `material_not_applied`). The user's own edict with the same identity confirms it.
    ///    Observations expire after `observation_ttl` and retire after
    ///    `observation_retire_after_successes` later successful calls of their tool.
    /// 4. The observations of the turn's tools that have expired or retired are removed, with
    ///    an `expire` line in their history.
    ///
    /// Every decision is taken on the rules as the store reads them inside that transaction.
    /// A turn with a session id and a turn index is applied once: the same turn again (same
    /// session, index and content) changes nothing and reports `already_applied`. A turn
    /// without either cannot be recognised and is applied each time. When any part fails,
    /// nothing of the turn is stored.
    pub async fn after_turn(&self, turn: &TurnRecord) -> Result<AfterTurnReport> {
        let config = self.config();
        let mut report = AfterTurnReport {
            capture_enabled: config.capture_enabled,
            ..Default::default()
        };
        if !config.capture_enabled {
            return Ok(report);
        }
        let now = self.clock.now();
        let output = capture_turn(turn, now);
        let edict_origin = Origin::UserEdict {
            session_id: turn.session_id.clone(),
            turn: turn.turn,
        };
        let capture_origin = Origin::Capture {
            session_id: turn.session_id.clone(),
            turn: turn.turn,
        };
        let revocations = output
            .revocations
            .iter()
            .map(|revocation| {
                let matcher = revocation.clone();
                TurnRevocation {
                    tool_name: revocation
                        .tool_explicit
                        .then(|| revocation.tool_name.clone()),
                    matches: Arc::new(move |rule| revocation_matches(&matcher, rule)),
                    origin: edict_origin.clone(),
                }
            })
            .collect();
        let stats = output
            .stats
            .into_iter()
            .map(|delta| ToolStats {
                tool_name: delta.tool_name,
                calls: delta.calls,
                successes: delta.successes,
                failures: delta.failures,
                last_failure_class: delta.last_failure_class.map(|class| class.to_string()),
                last_seen: Some(delta.last_seen),
            })
            .collect();
        let mut rules = Vec::with_capacity(output.rules.len());
        for proposed in &output.rules {
            let user_authored = proposed.source == ToolMemorySource::UserExplicit;
            let mut put = RulePut::new(&proposed.tool_name, &proposed.rule)
                .with_id(&proposed.identity_key)
                .with_source(proposed.source)
                .with_tags(proposed.tags.clone());
            let kind = if proposed.trust == Trust::Material {
                put = put
                    .with_priority(proposed.priority)
                    .with_origin(capture_origin.clone());
                TurnRuleKind::Material
            } else if user_authored {
                put = put
                    .with_priority(proposed.priority)
                    .with_origin(edict_origin.clone());
                TurnRuleKind::Edict {
                    confirm_new: config.confirm_captured_edicts,
                }
            } else {
                // Only the user's own words may raise a rule above normal.
                put = put
                    .with_priority(proposed.priority.min(ToolMemoryPriority::Normal))
                    .with_origin(capture_origin.clone());
                put.expires_at = now.checked_add(config.observation_ttl);
                TurnRuleKind::Observation {
                    retire_after_successes: config.observation_retire_after_successes,
                }
            };
            rules.push(TurnRule {
                put: self.with_constraint(put).await?,
                kind,
            });
        }
        let changes = TurnChanges {
            key: turn_key(turn),
            now,
            revocations,
            stats,
            rules,
        };
        let outcome = self.store.apply_turn(changes).await?;
        report.already_applied = outcome.already_applied;
        for (revocation, revoked) in output.revocations.into_iter().zip(outcome.revoked) {
            if revoked.is_empty() {
                report.unmatched_revocations.push(revocation);
            }
            report.revoked.extend(revoked);
        }
        report.stats = outcome.stats;
        for (proposed, outcome) in output.rules.into_iter().zip(outcome.rules) {
            let (list, rule) = match outcome {
                RuleOutcome::NotApplied => {
                    report.material_not_applied.push(proposed);
                    continue;
                }
                RuleOutcome::Created(rule) => (&mut report.created, rule),
                RuleOutcome::Refreshed(rule) => (&mut report.refreshed, rule),
                RuleOutcome::Changed(rule) => (&mut report.changed, rule),
                RuleOutcome::Restored(rule) => (&mut report.restored, rule),
            };
            tracing::debug!(
                tool = rule.tool_name,
                body_len = rule.rule.len(),
                material = proposed.trust == Trust::Material,
                "[tool-memory] captured rule"
            );
            list.push(rule);
        }
        report.expired = outcome.expired;
        Ok(report)
    }
}

/// The turn's identity: its session, its index and a digest of the whole record, or `None`
/// when the host gave no session id or no index.
fn turn_key(turn: &TurnRecord) -> Option<TurnKey> {
    let (session_id, index) = (turn.session_id.clone()?, turn.turn?);
    let record = serde_json::to_vec(turn).expect("a turn record always serialises");
    let digest = Sha256::digest(&record)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    Some(TurnKey {
        session_id,
        turn: index,
        digest,
    })
}
