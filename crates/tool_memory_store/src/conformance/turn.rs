//! A whole turn in one transaction (`apply_turn`): applied once per turn key, nothing of a
//! failed turn stored, revocations before the turn's own rules.

use std::sync::Arc;

use tool_memory_core::{
    Clock, HistoryAction, Origin, RulePut, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource,
    ToolStats,
};

use crate::conformance::harness::{Harness, Result, actions, put, texts};
use crate::{
    RuleOutcome, TurnChanges, TurnKey, TurnOutcome, TurnRevocation, TurnRule, TurnRuleKind,
};

use ToolMemoryPriority::{Critical, Normal};

fn edict_origin() -> Origin {
    Origin::UserEdict {
        session_id: Some("s1".into()),
        turn: Some(4),
    }
}

fn key() -> Option<TurnKey> {
    Some(TurnKey {
        session_id: "s1".into(),
        turn: 4,
        digest: "d4".into(),
    })
}

/// An edict with its identity as id, as the facade writes one.
fn edict(tool: &str, id: &str, body: &str) -> TurnRule {
    TurnRule {
        put: put(tool, body, Critical)
            .with_id(id)
            .with_source(ToolMemorySource::UserExplicit)
            .with_origin(edict_origin()),
        kind: TurnRuleKind::Edict { confirm_new: false },
    }
}

/// Lifts the active rules of `tool` whose text holds `word`.
fn revoke_holding(tool: &str, word: &'static str) -> TurnRevocation {
    TurnRevocation {
        tool_name: Some(tool.into()),
        matches: Arc::new(move |rule: &ToolMemoryRule| rule.rule.contains(word)),
        origin: edict_origin(),
    }
}

fn calls(tool: &str, calls: u64, successes: u64) -> ToolStats {
    let mut delta = ToolStats::empty(tool);
    delta.calls = calls;
    delta.successes = successes;
    delta
}

/// A turn that revokes, counts, states an edict and records an observation.
fn busy_turn(h: &Harness) -> TurnChanges {
    let mut observation = put("shell", "the build takes ten minutes", Normal)
        .with_id("obs")
        .with_source(ToolMemorySource::PostTurn);
    observation.origin = Origin::Capture {
        session_id: Some("s1".into()),
        turn: Some(4),
    };
    TurnChanges {
        key: key(),
        now: h.clock.now(),
        revocations: vec![revoke_holding("email", "Bob")],
        stats: vec![calls("shell", 3, 2)],
        rules: vec![
            edict("email", "sarah", "never email Sarah"),
            TurnRule {
                put: observation,
                kind: TurnRuleKind::Observation {
                    retire_after_successes: 5,
                },
            },
        ],
    }
}

/// Everything a turn can change, read back: both tools' rules (revoked too), their history
/// and the statistics.
async fn everything(h: &Harness) -> Result<impl PartialEq + std::fmt::Debug> {
    Ok((
        h.store.list_including_revoked("email").await?.to_vec(),
        h.store.list_including_revoked("shell").await?.to_vec(),
        h.store.history("email", None, 100, None).await?,
        h.store.history("shell", None, 100, None).await?,
        h.store.tool_stats("shell").await?,
    ))
}

pub async fn the_same_turn_twice_changes_nothing(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Bob", Critical).with_id("bob"))
        .await?;
    let first = h.store.apply_turn(busy_turn(h)).await?;
    assert!(!first.already_applied);
    assert_eq!(first.revoked.len(), 1);
    assert_eq!(texts(&first.revoked[0]), ["never email Bob"]);
    assert!(matches!(
        &first.rules[..],
        [RuleOutcome::Created(_), RuleOutcome::Created(_)]
    ));
    let stats = h.store.tool_stats("shell").await?.expect("statistics");
    assert_eq!((stats.calls, stats.successes), (3, 2));
    assert_eq!(first.stats, [stats]);
    let observation = h.store.get("shell", "obs").await?.expect("observation");
    assert_eq!(observation.meta.retire_after_successes, Some(7));
    let applied = everything(h).await?;

    h.clock.advance_micros(1_000);
    let again = h.store.apply_turn(busy_turn(h)).await?;
    assert_eq!(again, TurnOutcome::already());
    assert_eq!(everything(h).await?, applied);
    // One line per change: bob's create and revoke, sarah's create, the observation's create.
    assert_eq!(
        actions(&h.store.history("email", Some("bob"), 10, None).await?),
        [HistoryAction::Revoke, HistoryAction::Create]
    );
    assert_eq!(
        h.store
            .history("email", Some("sarah"), 10, None)
            .await?
            .len(),
        1
    );
    assert_eq!(h.store.history("shell", None, 10, None).await?.len(), 1);

    // Another turn of the same session, another event under the same index (another
    // digest), or the same index in another session, is a turn of its own.
    let others = [("s1", 5, "d4"), ("s1", 4, "other"), ("s2", 4, "d4")];
    for (count, (session, turn, digest)) in (2..).zip(others) {
        let mut next = busy_turn(h);
        next.key = Some(TurnKey {
            session_id: session.into(),
            turn,
            digest: digest.into(),
        });
        let applied = h.store.apply_turn(next).await?;
        assert!(!applied.already_applied, "{session} {turn} {digest}");
        assert!(matches!(
            &applied.rules[..],
            [RuleOutcome::Refreshed(_), RuleOutcome::Refreshed(_)]
        ));
        assert_eq!(
            h.store.tool_stats("shell").await?.map(|stats| stats.calls),
            Some(3 * count)
        );
    }
    Ok(())
}

/// A turn with no key (no session id or no turn index) cannot be recognised, so it is applied
/// each time it comes.
pub async fn a_turn_without_a_key_is_applied_each_time(h: &Harness) -> Result<()> {
    let turn = TurnChanges {
        key: None,
        ..busy_turn(h)
    };
    h.store.apply_turn(turn.clone()).await?;
    let again = h.store.apply_turn(turn).await?;
    assert!(!again.already_applied);
    assert!(matches!(
        &again.rules[..],
        [RuleOutcome::Refreshed(_), RuleOutcome::Refreshed(_)]
    ));
    assert_eq!(
        h.store.tool_stats("shell").await?.map(|stats| stats.calls),
        Some(6)
    );
    assert_eq!(
        actions(&h.store.history("email", Some("sarah"), 10, None).await?),
        [HistoryAction::Update, HistoryAction::Create]
    );
    Ok(())
}

pub async fn a_turn_that_fails_half_way_stores_nothing(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Bob", Critical).with_id("bob"))
        .await?;
    let before = everything(h).await?;
    let bad_rules = [
        (RulePut::new("email", "   ").with_id("blank"), "rule"),
        (
            RulePut::new("email", "ok")
                .with_id("tagged")
                .with_tags(["t".repeat(65)]),
            "tags",
        ),
        (RulePut::new("bad\ntool", "ok").with_id("x"), "tool_name"),
    ];
    for (bad, field) in bad_rules {
        let mut turn = busy_turn(h);
        // After the valid rules, so that a store writing as it goes would have written them.
        turn.rules.push(TurnRule {
            put: bad,
            kind: TurnRuleKind::Edict { confirm_new: false },
        });
        let err = h.store.apply_turn(turn).await.unwrap_err();
        assert!(
            err.to_string().starts_with(field),
            "expected {field}: {err}"
        );
        assert_eq!(everything(h).await?, before, "{field}");
    }
    let mut bad_stats = busy_turn(h);
    bad_stats.stats.push(calls("  ", 1, 1));
    assert!(h.store.apply_turn(bad_stats).await.is_err());
    assert_eq!(everything(h).await?, before);
    if let Some(corrupt) = &h.corrupt {
        // A rule written over a row this version cannot read fails the whole turn.
        corrupt("email", "unreadable");
        let mut turn = busy_turn(h);
        turn.rules
            .push(edict("email", "unreadable", "never email Carol"));
        let err = h.store.apply_turn(turn).await.unwrap_err();
        assert!(matches!(err, crate::Error::Unreadable { .. }), "{err}");
        assert!(h.store.delete("email", "unreadable", &Origin::Api).await?);
        assert!(h.store.get("email", "sarah").await?.is_none());
        assert_eq!(h.store.tool_stats("shell").await?, None);
    }
    // The failed turn's key was not recorded: the turn applies once it is valid.
    let applied = h.store.apply_turn(busy_turn(h)).await?;
    assert!(!applied.already_applied);
    assert!(h.store.get("email", "sarah").await?.is_some());
    Ok(())
}

/// Revocations come first: a rule the turn revokes and states again is restored, and an edict
/// of the turn is never lifted by its own turn.
pub async fn a_turn_revokes_before_it_states_its_rules(h: &Harness) -> Result<()> {
    h.store
        .put(put("email", "never email Sarah", Critical).with_id("sarah"))
        .await?;
    let turn = TurnChanges {
        key: key(),
        now: h.clock.now(),
        revocations: vec![revoke_holding("email", "Sarah")],
        stats: vec![],
        rules: vec![
            edict("email", "sarah", "never email Sarah"),
            edict("email", "sarah-cc", "never cc Sarah"),
        ],
    };
    let outcome = h.store.apply_turn(turn).await?;
    assert_eq!(texts(&outcome.revoked[0]), ["never email Sarah"]);
    let [
        RuleOutcome::Restored(restored),
        RuleOutcome::Created(created),
    ] = &outcome.rules[..]
    else {
        panic!("{:?}", outcome.rules);
    };
    assert!(restored.meta.revoked_at.is_none());
    assert!(created.meta.revoked_at.is_none());
    assert_eq!(
        texts(&h.store.list("email").await?),
        ["never email Sarah", "never cc Sarah"]
    );
    let history = h.store.history("email", Some("sarah"), 10, None).await?;
    assert_eq!(
        actions(&history),
        [
            HistoryAction::Update,
            HistoryAction::Restore,
            HistoryAction::Revoke,
            HistoryAction::Create
        ]
    );
    assert!(
        history[..3]
            .iter()
            .all(|line| line.origin == edict_origin())
    );
    Ok(())
}

/// Material never overrides the user's rule; observations retire in the turn whose successes
/// outlive them, with an `expire` line.
pub async fn a_turn_keeps_material_and_observation_rules(h: &Harness) -> Result<()> {
    h.store
        .put(
            put("email", "never email Sarah", Critical)
                .with_id("sarah")
                .with_source(ToolMemorySource::UserExplicit),
        )
        .await?;
    let mut old = put("shell", "the build is slow", Normal)
        .with_id("old")
        .with_source(ToolMemorySource::PostTurn);
    old.retire_after_successes = Some(2);
    h.store.put(old).await?;
    let material = |id: &str, body: &str| TurnRule {
        put: put("email", body, Normal)
            .with_id(id)
            .with_tags([tool_memory_core::MATERIAL_TAG]),
        kind: TurnRuleKind::Material,
    };
    let turn = TurnChanges {
        key: key(),
        now: h.clock.now(),
        revocations: vec![],
        stats: vec![calls("shell", 2, 2)],
        rules: vec![
            material("sarah", "you may email Sarah"),
            material("pasted", "always cc the boss"),
        ],
    };
    let outcome = h.store.apply_turn(turn).await?;
    let [RuleOutcome::NotApplied, RuleOutcome::Created(proposal)] = &outcome.rules[..] else {
        panic!("{:?}", outcome.rules);
    };
    assert!(proposal.meta.proposed);
    assert_eq!(
        h.store.get("email", "sarah").await?.map(|rule| rule.rule),
        Some("never email Sarah".to_owned())
    );
    assert_eq!(texts(&outcome.expired), ["the build is slow"]);
    assert!(h.store.get("shell", "old").await?.is_none());
    let history = h.store.history("shell", Some("old"), 10, None).await?;
    assert_eq!(
        actions(&history),
        [HistoryAction::Expire, HistoryAction::Create]
    );
    assert_eq!(history[0].origin, Origin::Expiry);
    Ok(())
}

/// Copies of one turn applied at the same time (a hook retried while the first is still
/// running) apply it once: one of them changes the store, every other finds it applied.
pub async fn concurrent_copies_of_a_turn_apply_once(h: &Harness) -> Result<()> {
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let store = h.store.clone();
        let turn = busy_turn(h);
        tasks.push(tokio::spawn(async move { store.apply_turn(turn).await }));
    }
    let mut applied = 0;
    for task in tasks {
        if !task.await??.already_applied {
            applied += 1;
        }
    }
    assert_eq!(applied, 1);
    let stats = h.store.tool_stats("shell").await?.expect("statistics");
    assert_eq!(stats.calls, 3);
    assert_eq!(
        h.store
            .history("email", Some("sarah"), 10, None)
            .await?
            .len(),
        1
    );
    // Different turns at the same time over the same rules all apply, and their counts add up.
    let mut tasks = Vec::new();
    for turn in 10..16 {
        let store = h.store.clone();
        let mut changes = busy_turn(h);
        changes.key = Some(TurnKey {
            session_id: "s1".into(),
            turn,
            digest: "d".into(),
        });
        tasks.push(tokio::spawn(async move { store.apply_turn(changes).await }));
    }
    for task in tasks {
        assert!(!task.await??.already_applied);
    }
    let stats = h.store.tool_stats("shell").await?.expect("statistics");
    assert_eq!(stats.calls, 3 + 6 * 3);
    Ok(())
}
