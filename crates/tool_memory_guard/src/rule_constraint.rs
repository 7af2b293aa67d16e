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
            RawJson::of(&constraint)
        } else {
            given
        });
        put.constraint_explicit = Some(explicit);
        return Ok(put);
    }
    let derived = derive_from_text(&put.rule, &normalize_tool_name(&put.tool_name));
    // Written straight to its JSON text: through a `Value` it cost a fifth of the instructions
    // of a put outside SQLite.
    put.constraint =
        Some(derived.map_or_else(RawJson::null, |constraint| RawJson::of(&constraint)));
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

/// The constraint enforced for a stored rule, and whether the one stored with it could not be
/// read (so the text's was derived in its place).
pub(crate) struct Enforced {
    pub(crate) constraint: Option<Constraint>,
    pub(crate) stored_unreadable: bool,
}

pub(crate) fn enforced(rule: &ToolMemoryRule) -> Enforced {
    match &rule.meta.constraint {
        None => Enforced {
            constraint: derive_constraint(rule),
            stored_unreadable: false,
        },
        Some(raw) => match read_constraint(raw) {
            Ok(constraint) => Enforced {
                constraint: Some(constraint),
                stored_unreadable: false,
            },
            // Derived again rather than left unenforced: the text is the user's own words.
            Err(_) => Enforced {
                constraint: derive_constraint(rule),
                stored_unreadable: true,
            },
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
            constraint_of(&rule(text, Some(BOB))),
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
        assert!(!constraint_looser_than_text(&rule(text, Some(SARAH))));
        assert!(constraint_looser_than_text(&rule(text, Some(BOB))));
        // Unreadable: the text's own constraint is enforced, which is not looser than itself.
        assert!(!constraint_looser_than_text(&rule(text, Some("[1]"))));
        // A text that gives no constraint cannot be loosened.
        assert!(!constraint_looser_than_text(&rule("be brief", Some(BOB))));
    }
}
