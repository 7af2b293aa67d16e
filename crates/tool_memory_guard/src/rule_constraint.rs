//! The one owner of a rule's constraint: what a put stores ([`constrain_put`]) and what the
//! guard enforces for a stored rule ([`constraint_of`]). Nothing else in the workspace parses a
//! stored constraint or derives one for a rule: the facade, import and the guard itself come
//! here.
//!
//! The decision for a put is data only. It fills `RulePut::constraint` and
//! `RulePut::constraint_explicit`; core's `RulePut::build` then merges them with the stored
//! rule inside the store's write transaction ("a derived constraint never replaces one a caller
//! gave"), so a concurrent put cannot slip between a check and the write. Core knows nothing of
//! the guard, and this crate knows nothing of the store.

use tool_memory_core::{RawJson, RulePut, ToolMemoryRule, normalize_tool_name};

use crate::derive::{derive_constraint, derive_from_text};
use crate::{Constraint, Error};

/// The derivation of the grammar this crate applies: bumped whenever what a rule's text
/// derives changes (a test fingerprints the derivation of every corpus rule, so a change
/// without a bump fails). A put stores it with the constraint it derives
/// ([`Constraint::derivation`]); a stored derived constraint of an older derivation is
/// derived again from the rule's text when the rule is enforced, so a user who upgrades
/// toolmem gets the new reading of the rules they already have. A constraint a caller gave
/// carries none and is kept as given.
pub const DERIVATION: u32 = 15;

/// Gives a put the constraint it stores:
///
/// * a constraint the caller gave is validated and written in its canonical JSON form, marked
///   explicit, so later edits of the text keep it;
/// * a JSON `null` the caller gave is passed on as it is, not explicit: it clears a derived
///   constraint and leaves one a caller gave;
/// * otherwise the constraint is derived from the new text (`null` when the text gives none),
///   not explicit, which the store applies only when the stored rule does not carry one a
///   caller gave.
///
/// An invalid constraint is an error naming the field `constraint`, with a reason about the
/// value the caller sent (`matchers[1].value is invalid: ...`, `unknown variant ...`).
pub fn constrain_put(mut put: RulePut) -> Result<RulePut, tool_memory_core::Error> {
    if let Some(given) = put.constraint.take() {
        let explicit = !given.is_null();
        put.constraint = Some(if explicit {
            let constraint = read_constraint(&given).map_err(|err| {
                let reason = match err {
                    Error::ConstraintJson { source } => source.to_string(),
                    other => other.to_string(),
                };
                tool_memory_core::Error::Invalid {
                    field: "constraint",
                    reason,
                }
            })?;
            // A caller's constraint is kept as given: it records no derivation (one taken
            // from a rule's listing and given back is the caller's now).
            RawJson::of(&Constraint {
                derivation: None,
                ..constraint
            })
        } else {
            given
        });
        put.constraint_explicit = Some(explicit);
        return Ok(put);
    }
    let derived = derive_from_text(&put.rule, &normalize_tool_name(&put.tool_name));
    // Written straight to its JSON text: through a `Value` it cost a fifth of the instructions
    // of a put outside SQLite.
    put.constraint = Some(derived.map_or_else(RawJson::null, |constraint| {
        RawJson::of(&Constraint {
            derivation: Some(DERIVATION),
            ..constraint
        })
    }));
    put.constraint_explicit = Some(false);
    Ok(put)
}

/// The constraint the guard enforces for a stored rule: the one stored with it when it reads
/// and validates, otherwise the one derived from its text (`None`: the rule is advice only).
pub fn constraint_of(rule: &ToolMemoryRule) -> Option<Constraint> {
    enforced(rule).constraint
}

/// Whether the constraint a rule carries may be looser than the one its text gives: the text
/// gives one, and the constraint the guard would enforce for the rule is not shown (by
/// [`Constraint::is_at_least_as_strict_as`]) to be at least as strict. A rule that carries no
/// constraint is enforced by its text, so it is never looser. Import refuses such a line
/// unless the caller allows weakening.
pub fn constraint_looser_than_text(rule: &ToolMemoryRule) -> bool {
    if rule.meta.constraint.as_ref().is_none_or(RawJson::is_null) {
        return false;
    }
    let Some(derived) = derive_constraint(rule) else {
        return false;
    };
    !constraint_of(rule).is_some_and(|enforced| enforced.is_at_least_as_strict_as(&derived))
}

/// The constraint enforced for a stored rule, whether the one stored with it could not be
/// read (so the text's was derived in its place), and whether it was derived by an older
/// derivation (so the text's was derived again).
pub(crate) struct Enforced {
    pub(crate) constraint: Option<Constraint>,
    pub(crate) stored_unreadable: bool,
    pub(crate) stale: bool,
}

pub(crate) fn enforced(rule: &ToolMemoryRule) -> Enforced {
    let derived = |stored_unreadable: bool, stale: bool| Enforced {
        constraint: derive_constraint(rule),
        stored_unreadable,
        stale,
    };
    match &rule.meta.constraint {
        None => derived(false, false),
        Some(raw) => match read_constraint(raw) {
            // A derived constraint of an older derivation (or from before derivations were
            // recorded) is read again from the text; one a caller gave is kept.
            Ok(constraint)
                if !rule.meta.constraint_explicit
                    && constraint.derivation.is_none_or(|made| made < DERIVATION) =>
            {
                derived(false, true)
            }
            Ok(constraint) => Enforced {
                constraint: Some(constraint),
                stored_unreadable: false,
                stale: false,
            },
            // Derived again rather than left unenforced: the text is the user's own words.
            Err(_) => derived(true, false),
        },
    }
}

/// Reads and validates a constraint in its JSON form. The text is read exactly as
/// [`Constraint::from_json`] reads it; when it is not a constraint, the reason comes from the
/// value rather than the text, since a parse of the text says "at line 1 column N" of compact
/// JSON with sorted keys, which is not what a caller sent.
fn read_constraint(raw: &RawJson) -> Result<Constraint, Error> {
    Constraint::from_json(raw.as_str()).map_err(|err| match err {
        Error::ConstraintJson { .. } => {
            match serde_json::from_value::<Constraint>(raw.to_value()) {
                Err(source) => Error::ConstraintJson { source },
                // The value reads where the text does not (a key given twice, of which the value
                // keeps the last): the text is what is stored, and it is not a constraint.
                Ok(_) => err,
            }
        }
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tool_memory_core::{Timestamp, ToolMemoryPriority, ToolMemorySource};

    /// A stored rule whose constraint a caller gave.
    fn given(text: &str, constraint: &str) -> ToolMemoryRule {
        let mut rule = rule(text, Some(constraint));
        rule.meta.constraint_explicit = true;
        rule
    }

    fn rule(text: &str, constraint: Option<&str>) -> ToolMemoryRule {
        let at = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
        let mut rule = ToolMemoryRule {
            id: "r".into(),
            tool_name: "send_email".into(),
            rule: text.into(),
            priority: ToolMemoryPriority::Critical,
            source: ToolMemorySource::UserExplicit,
            tags: vec![],
            created_at: at,
            updated_at: at,
            meta: Default::default(),
        };
        rule.meta.constraint = constraint.map(|text| RawJson::from_stored(text.into()).unwrap());
        rule
    }

    const SARAH: &str =
        r#"{"matchers":[{"kind":"email","value":"sarah@example.com"}],"polarity":"forbid"}"#;
    const BOB: &str =
        r#"{"matchers":[{"kind":"email","value":"bob@example.com"}],"polarity":"forbid"}"#;

    #[test]
    fn a_put_without_a_constraint_derives_one_from_its_text() {
        let put =
            constrain_put(RulePut::new("Send_Email", "never email sarah@example.com")).unwrap();
        assert_eq!(put.constraint_explicit, Some(false));
        let derived = put.constraint.unwrap();
        assert!(
            derived.as_str().contains("sarah@example.com"),
            "{derived:?}"
        );
        let advice = constrain_put(RulePut::new("send_email", "be brief")).unwrap();
        assert_eq!(advice.constraint, Some(RawJson::null()));
        assert_eq!(advice.constraint_explicit, Some(false));
    }

    #[test]
    fn a_given_constraint_is_validated_canonical_and_explicit() {
        let mut put = RulePut::new("send_email", "ask before writing to Bob");
        put.constraint = Some(RawJson::from_value(&json!({
            "polarity": "forbid",
            "matchers": [{"value": "bob@example.com", "kind": "email"}],
        })));
        let put = constrain_put(put).unwrap();
        assert_eq!(put.constraint.unwrap().as_str(), BOB);
        assert_eq!(put.constraint_explicit, Some(true));

        let mut null = RulePut::new("send_email", "never email sarah@example.com");
        null.constraint = Some(RawJson::null());
        let null = constrain_put(null).unwrap();
        assert_eq!(
            (null.constraint, null.constraint_explicit),
            (Some(RawJson::null()), Some(false))
        );

        for (given, reason) in [
            (
                json!({"polarity": "forbid", "matchers": []}),
                "matchers is invalid: must name at least one matcher",
            ),
            (
                json!({"polarity": "sometimes", "matchers": []}),
                "unknown variant `sometimes`, expected `forbid` or `require`",
            ),
        ] {
            let mut put = RulePut::new("send_email", "x");
            put.constraint = Some(RawJson::from_value(&given));
            let err = constrain_put(put).unwrap_err();
            assert_eq!(
                err,
                tool_memory_core::Error::Invalid {
                    field: "constraint",
                    reason: reason.to_owned()
                },
                "{given}"
            );
        }
    }

    #[test]
    fn a_stored_rule_is_enforced_by_its_readable_constraint_or_its_text() {
        let text = "never email sarah@example.com";
        let derived = derive_constraint(&rule(text, None));
        assert!(derived.is_some());
        assert_eq!(constraint_of(&rule(text, None)), derived);
        assert_eq!(
            constraint_of(&given(text, BOB)),
            Some(Constraint::from_json(BOB).unwrap())
        );
        let repeated = r#"{"matchers":[{"kind":"email","value":"sarah@example.com"}],"matchers":[{"kind":"email","value":"bob@example.com"}],"polarity":"forbid"}"#;
        for garbage in [
            "null",
            "[1]",
            r#"{"polarity":"forbid","matchers":[]}"#,
            repeated,
        ] {
            let stored = rule(text, Some(garbage));
            let found = enforced(&stored);
            assert_eq!(found.constraint, derived, "{garbage}");
            assert!(found.stored_unreadable, "{garbage}");
        }
    }

    #[test]
    fn looser_than_its_text_is_judged_on_the_enforced_constraint() {
        let text = "never email sarah@example.com";
        assert!(!constraint_looser_than_text(&rule(text, None)));
        assert!(!constraint_looser_than_text(&given(text, SARAH)));
        assert!(constraint_looser_than_text(&given(text, BOB)));
        // A derived constraint of an older derivation is the text's own as read now.
        assert!(!constraint_looser_than_text(&rule(text, Some(BOB))));
        // Unreadable: the text's own constraint is enforced, which is not looser than itself.
        assert!(!constraint_looser_than_text(&rule(text, Some("[1]"))));
        // A text that gives no constraint cannot be loosened.
        assert!(!constraint_looser_than_text(&given("be brief", BOB)));
    }

    #[test]
    fn a_derived_constraint_records_its_derivation_and_an_older_one_is_read_again() {
        // A put stores the derivation with what it derives, never with what a caller gave.
        let put =
            constrain_put(RulePut::new("send_email", "never email sarah@example.com")).unwrap();
        let stored = Constraint::from_json(put.constraint.unwrap().as_str()).unwrap();
        assert_eq!(stored.derivation, Some(DERIVATION));
        let mut given_put = RulePut::new("send_email", "x");
        given_put.constraint = Some(RawJson::from_value(&json!({
            "derivation": DERIVATION,
            "polarity": "forbid",
            "matchers": [{"kind": "email", "value": "bob@example.com"}],
        })));
        let given_put = constrain_put(given_put).unwrap();
        assert_eq!(given_put.constraint.unwrap().as_str(), BOB);

        // What an older derivation stored (no derivation, or a smaller one) is read again:
        // here the older reading missed the address and named only the person.
        let text = "Never email Sarah at sarah@example.com.";
        let older = r#"{"matchers":[{"kind":"person","value":"sarah"}],"polarity":"forbid"}"#;
        let now = derive_constraint(&rule(text, None));
        let older_numbered = r#"{"derivation":0,"matchers":[{"kind":"person","value":"sarah"}],"polarity":"forbid"}"#;
        for stored in [older, older_numbered] {
            let found = enforced(&rule(text, Some(stored)));
            assert!(found.stale && !found.stored_unreadable, "{stored}");
            assert_eq!(found.constraint, now, "{stored}");
        }
        // The current derivation, or one a caller gave, is enforced as stored.
        let current = format!(
            r#"{{"derivation":{DERIVATION},"matchers":[{{"kind":"person","value":"sarah"}}],"polarity":"forbid"}}"#
        );
        let found = enforced(&rule(text, Some(&current)));
        assert!(!found.stale);
        assert_eq!(
            found.constraint,
            Some(Constraint::from_json(&current).unwrap())
        );
        let found = enforced(&given(text, older));
        assert!(!found.stale);
        assert_eq!(
            found.constraint,
            Some(Constraint::from_json(older).unwrap())
        );
    }

    /// FNV-1a over the derivation of every rule of the labelled corpora (the guard's, its
    /// real-text one and the workspace's shared one), in a fixed order: what [`DERIVATION`]
    /// stands for.
    #[expect(
        clippy::disallowed_methods,
        reason = "the labelled corpora live in files under tests/fixtures"
    )]
    fn derivations_fingerprint() -> (usize, u64) {
        let dirs = [
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/guard"),
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_text"),
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/real_text/guard"
            ),
        ];
        let mut rules: Vec<(String, String)> = Vec::new();
        for dir in dirs {
            for entry in std::fs::read_dir(dir).expect("corpus directory") {
                let path = entry.expect("directory entry").path();
                if path
                    .extension()
                    .is_none_or(|extension| extension != "jsonl")
                {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("readable corpus file");
                for case in crate::parse_corpus(&text).expect("valid corpus") {
                    for rule in case.rules {
                        rules.push((normalize_tool_name(&rule.tool_name), rule.rule));
                    }
                }
            }
        }
        rules.sort();
        rules.dedup();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for (tool, text) in &rules {
            let derived = derive_from_text(text, tool).map_or_else(String::new, |c| c.to_json());
            for byte in [tool.as_bytes(), text.as_bytes(), derived.as_bytes()]
                .into_iter()
                .flat_map(|bytes| bytes.iter().chain(&[0xff]))
            {
                hash ^= u64::from(*byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        (rules.len(), hash)
    }

    /// The fingerprint of each derivation, by its number. A change of what any corpus rule
    /// derives changes the fingerprint: bump [`DERIVATION`] and record the new one here, so
    /// that stored constraints of the old reading are derived again. New corpus rules change
    /// it too without a change of reading: the fingerprint of the current number is then
    /// recorded again.
    const FINGERPRINTS: &[(u32, u64)] = &[
        (1, 0x0223_ab15_d917_df83),
        (2, 0xf651_faf0_6c4f_c27d),
        (3, 0xa091_6444_c1ff_6f1b),
        (4, 0x7cb0_bd67_831e_35e0),
        (5, 0xfcd7_1f7c_d6c4_4bf0),
        (6, 0x0ead_ab2e_1b91_809f),
        (7, 0x6c5d_e988_3980_b883),
        (8, 0xf63b_f7a3_2c40_5031),
        (9, 0xa07a_79c5_f2a6_1975),
        (10, 0xb30c_a7a1_23c8_c2f6),
        (11, 0x743e_b085_4baa_3f93),
        (12, 0x5d8a_e553_e44d_d3b2),
        (13, 0xa735_3d36_c7d3_9f70),
        (14, 0x8cc8_7835_36f7_ebe3),
        (15, 0x9370_b394_8bb2_731a),
    ];

    #[test]
    fn a_change_of_derivation_bumps_its_number() {
        let (rules, fingerprint) = derivations_fingerprint();
        assert!(rules >= 500, "only {rules} corpus rules");
        let recorded = FINGERPRINTS
            .iter()
            .find(|(derivation, _)| *derivation == DERIVATION)
            .map(|(_, fingerprint)| *fingerprint);
        assert_eq!(
            recorded,
            Some(fingerprint),
            "what the corpus rules derive changed ({fingerprint:#018x}): bump DERIVATION and \
             record the new fingerprint in FINGERPRINTS"
        );
    }
}
