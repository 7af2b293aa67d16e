//! `ToolMemoryRule`, its priority and source enums, and `RulePut`, the one way a rule is
//! created or changed.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{
    Error, Origin, RawJson, Timestamp, validate_id, validate_rule_body, validate_tags,
    validate_tool_name,
};

/// How strongly a rule is surfaced. `Normal < High < Critical`; high and critical rules are
/// "eager" and ride in the pinned system-prompt block.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ToolMemoryPriority {
    /// Stored and recalled on demand.
    #[default]
    Normal,
    /// Pinned below critical rules.
    High,
    /// Pinned, never dropped from the prompt.
    Critical,
}

impl ToolMemoryPriority {
    /// Every priority, lowest first.
    pub const ALL: [ToolMemoryPriority; 3] = [
        ToolMemoryPriority::Normal,
        ToolMemoryPriority::High,
        ToolMemoryPriority::Critical,
    ];

    /// Whether rules of this priority are pinned into the prompt.
    pub fn is_eager(self) -> bool {
        self >= ToolMemoryPriority::High
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolMemoryPriority::Normal => "normal",
            ToolMemoryPriority::High => "high",
            ToolMemoryPriority::Critical => "critical",
        }
    }
}

impl fmt::Display for ToolMemoryPriority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ToolMemoryPriority {
    type Err = Error;

    /// Strict, case-insensitive parsing: an unknown priority is an error, never `normal`.
    fn from_str(text: &str) -> Result<ToolMemoryPriority, Error> {
        let wanted = text.trim();
        ToolMemoryPriority::ALL
            .into_iter()
            .find(|priority| priority.as_str().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                Error::invalid(
                    "priority",
                    format!("unknown value `{text}`, expected one of normal, high, critical"),
                )
            })
    }
}

/// Where a rule came from. Provenance; trust decisions build on it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolMemorySource {
    /// The user said it.
    UserExplicit,
    /// Observed after a turn (for example repeated tool failures).
    PostTurn,
    /// Written by a program through the API.
    #[default]
    Programmatic,
}

impl ToolMemorySource {
    /// Every source.
    pub const ALL: [ToolMemorySource; 3] = [
        ToolMemorySource::UserExplicit,
        ToolMemorySource::PostTurn,
        ToolMemorySource::Programmatic,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolMemorySource::UserExplicit => "user_explicit",
            ToolMemorySource::PostTurn => "post_turn",
            ToolMemorySource::Programmatic => "programmatic",
        }
    }
}

impl fmt::Display for ToolMemorySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ToolMemorySource {
    type Err = Error;

    fn from_str(text: &str) -> Result<ToolMemorySource, Error> {
        let wanted = text.trim();
        ToolMemorySource::ALL
            .into_iter()
            .find(|source| source.as_str().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                Error::invalid(
                    "source",
                    format!(
                        "unknown value `{text}`, expected one of user_explicit, post_turn, programmatic"
                    ),
                )
            })
    }
}

/// One durable rule about one tool. The JSON form is the reference's, field for field and in
/// the same order, so rules written by openhuman read here and ours read there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolMemoryRule {
    /// Unique within its tool.
    pub id: String,
    /// The normalised tool name.
    pub tool_name: String,
    /// The guidance, in the words it was given.
    pub rule: String,
    /// How strongly it is surfaced.
    #[serde(default)]
    pub priority: ToolMemoryPriority,
    /// Where it came from.
    #[serde(default)]
    pub source: ToolMemorySource,
    /// Free-form labels.
    #[serde(default)]
    pub tags: Vec<String>,
    /// First write.
    pub created_at: Timestamp,
    /// Last write.
    pub updated_at: Timestamp,
    /// toolmem's additions: lifecycle state and the enforcement constraint. Flattened and
    /// absent when unset, so the record stays the reference's byte for byte.
    #[serde(flatten)]
    pub meta: RuleMeta,
}

/// What toolmem knows about a rule beyond the reference record. Every field is optional on the
/// wire: the reference ignores them, and a record without them reads with the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RuleMeta {
    /// When the rule was lifted by a later edict or a caller. A revoked rule leaves the prompt,
    /// the guard and default listings, and is kept for history and a possible restore.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<Timestamp>,
    /// When an observation stops applying (user rules never expire).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<Timestamp>,
    /// The tool's total of successful calls at which an observation retires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retire_after_successes: Option<u64>,
    /// Captured but awaiting the user's confirmation: shown as advice, not enforced as
    /// critical, until confirmed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub proposed: bool,
    /// The enforcement constraint in the guard's JSON form, derived from the text or given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraint: Option<RawJson>,
    /// The constraint was given by a caller (a program or a user correcting a derived one),
    /// so a later change of the text keeps it instead of deriving a new one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub constraint_explicit: bool,
}

/// Tag on every rule capture proposed from material the user handed over or pasted (a chat
/// log, an e-mail, a web page, a quotation): not the user's own words.
pub const MATERIAL_TAG: &str = "from-material";

impl ToolMemoryRule {
    /// Whether this is a rule proposed from pasted material and not yet confirmed by a person.
    /// Such a rule is somebody else's words: it is kept for a person to confirm or reject,
    /// never enforced, and never pinned into the prompt, where injected text would otherwise
    /// reach the model in every later session.
    pub fn is_material_proposal(&self) -> bool {
        self.meta.proposed && self.tags.iter().any(|tag| tag == MATERIAL_TAG)
    }

    /// Whether the rule applies at `now`: not revoked and not expired.
    pub fn is_active(&self, now: Timestamp) -> bool {
        self.meta.revoked_at.is_none() && self.meta.expires_at.is_none_or(|expiry| expiry > now)
    }

    /// Checks every field against the limits in [`crate::names`]. The tool name must already
    /// be normalised.
    pub fn validate(&self) -> Result<(), Error> {
        validate_id(&self.id)?;
        let normalized = validate_tool_name(&self.tool_name)?;
        if normalized != self.tool_name {
            return Err(Error::invalid(
                "tool_name",
                "must be trimmed and lower-case",
            ));
        }
        validate_rule_body(&self.rule)?;
        validate_tags(&self.tags)
    }

    /// The compact JSON the reference stores; the same bytes on both sides.
    pub fn to_compact_json(&self) -> String {
        serde_json::to_string(self).expect("a rule always serialises")
    }
}

/// Listing order: priority descending, then most recently updated first, then id.
pub fn compare_for_listing(a: &ToolMemoryRule, b: &ToolMemoryRule) -> Ordering {
    b.priority
        .cmp(&a.priority)
        .then_with(|| b.updated_at.cmp(&a.updated_at))
        .then_with(|| a.id.cmp(&b.id))
}

/// A request to create or update a rule. Fields left `None` keep the stored value on update
/// and take the reference default on insert, so an upsert without `priority` never downgrades
/// a critical rule (reference W-16).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulePut {
    /// Upserts this id when given and non-blank; a fresh id is generated otherwise.
    pub id: Option<String>,
    /// The tool; normalised by [`RulePut::normalized`].
    pub tool_name: String,
    /// The guidance text.
    pub rule: String,
    /// `None` keeps the stored priority, or `normal` for a new rule.
    pub priority: Option<ToolMemoryPriority>,
    /// `None` keeps the stored source, or `programmatic` for a new rule.
    pub source: Option<ToolMemorySource>,
    /// `None` keeps the stored tags, or none for a new rule.
    pub tags: Option<Vec<String>>,
    /// Who asked for the change; recorded in the history.
    pub origin: Origin,
    /// `None` keeps the stored expiry, or none for a new rule.
    pub expires_at: Option<Timestamp>,
    /// `None` keeps the stored retirement threshold, or none for a new rule.
    pub retire_after_successes: Option<u64>,
    /// `None` keeps the stored flag, or `false` for a new rule.
    pub proposed: Option<bool>,
    /// `None` keeps the stored constraint, or none for a new rule; a JSON `null` clears it.
    pub constraint: Option<RawJson>,
    /// With `constraint`: whether it was given by a caller (`true`) or derived (`false`). A
    /// derived constraint never replaces one a caller gave: that is decided in
    /// [`RulePut::build`], against the stored rule, inside the store's write transaction.
    pub constraint_explicit: Option<bool>,
}

impl RulePut {
    /// A put of `rule` on `tool_name` with every optional field unset.
    pub fn new(tool_name: impl Into<String>, rule: impl Into<String>) -> RulePut {
        RulePut {
            tool_name: tool_name.into(),
            rule: rule.into(),
            ..RulePut::default()
        }
    }

    /// Sets the id to upsert.
    pub fn with_id(mut self, id: impl Into<String>) -> RulePut {
        self.id = Some(id.into());
        self
    }

    /// Sets the priority.
    pub fn with_priority(mut self, priority: ToolMemoryPriority) -> RulePut {
        self.priority = Some(priority);
        self
    }

    /// Sets the source.
    pub fn with_source(mut self, source: ToolMemorySource) -> RulePut {
        self.source = Some(source);
        self
    }

    /// Sets the tags.
    pub fn with_tags<I, S>(mut self, tags: I) -> RulePut
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = Some(tags.into_iter().map(Into::into).collect());
        self
    }

    /// Sets who asked for the change.
    pub fn with_origin(mut self, origin: Origin) -> RulePut {
        self.origin = origin;
        self
    }

    /// Validates every field and normalises the tool name; a blank id becomes `None`. The
    /// tool name is checked first, as in the reference.
    pub fn normalized(mut self) -> Result<RulePut, Error> {
        self.tool_name = validate_tool_name(&self.tool_name)?;
        validate_rule_body(&self.rule)?;
        if let Some(tags) = &self.tags {
            validate_tags(tags)?;
        }
        self.id = match self.id.take() {
            Some(id) if id.trim().is_empty() => None,
            Some(id) => {
                validate_id(&id)?;
                Some(id)
            }
            None => None,
        };
        Ok(self)
    }

    /// Builds the record to store. `existing` is the stored rule with the same tool and id, if
    /// any: its `created_at` and every field this put leaves unset are kept. The put must
    /// already be [`normalized`](RulePut::normalized).
    pub fn build(
        self,
        id: String,
        existing: Option<&ToolMemoryRule>,
        now: Timestamp,
    ) -> ToolMemoryRule {
        ToolMemoryRule {
            id,
            tool_name: self.tool_name,
            rule: self.rule,
            priority: self
                .priority
                .or(existing.map(|rule| rule.priority))
                .unwrap_or_default(),
            source: self
                .source
                .or(existing.map(|rule| rule.source))
                .unwrap_or_default(),
            tags: self
                .tags
                .or_else(|| existing.map(|rule| rule.tags.clone()))
                .unwrap_or_default(),
            created_at: existing.map_or(now, |rule| rule.created_at),
            updated_at: now,
            meta: {
                let kept = existing.map(|rule| rule.meta.clone()).unwrap_or_default();
                let keep_given =
                    self.constraint_explicit == Some(false) && kept.constraint_explicit;
                RuleMeta {
                    revoked_at: kept.revoked_at,
                    expires_at: self.expires_at.or(kept.expires_at),
                    retire_after_successes: self
                        .retire_after_successes
                        .or(kept.retire_after_successes),
                    proposed: self.proposed.unwrap_or(kept.proposed),
                    // `Some(null)` clears the stored constraint (a derivation found none).
                    constraint: match self.constraint {
                        _ if keep_given => kept.constraint,
                        Some(given) if given.is_null() => None,
                        Some(given) => Some(given),
                        None => kept.constraint,
                    },
                    constraint_explicit: if keep_given {
                        true
                    } else {
                        self.constraint_explicit.unwrap_or(kept.constraint_explicit)
                    },
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    #[test]
    fn priority_orders_and_is_eager() {
        assert!(ToolMemoryPriority::Normal < ToolMemoryPriority::High);
        assert!(ToolMemoryPriority::High < ToolMemoryPriority::Critical);
        assert_eq!(ToolMemoryPriority::default(), ToolMemoryPriority::Normal);
        assert_eq!(ToolMemorySource::default(), ToolMemorySource::Programmatic);
        assert!(!ToolMemoryPriority::Normal.is_eager());
        assert!(ToolMemoryPriority::High.is_eager());
        assert!(ToolMemoryPriority::Critical.is_eager());
    }

    #[test]
    fn enum_strings_are_the_wire_spellings() {
        for priority in ToolMemoryPriority::ALL {
            let json = serde_json::to_string(&priority).unwrap();
            assert_eq!(json, format!("\"{}\"", priority.as_str()));
            assert_eq!(
                priority.as_str().parse::<ToolMemoryPriority>().unwrap(),
                priority
            );
        }
        for source in ToolMemorySource::ALL {
            let json = serde_json::to_string(&source).unwrap();
            assert_eq!(json, format!("\"{}\"", source.as_str()));
            assert_eq!(source.as_str().parse::<ToolMemorySource>().unwrap(), source);
        }
        assert_eq!(
            "HiGh".parse::<ToolMemoryPriority>().unwrap(),
            ToolMemoryPriority::High
        );
        let err = "urgent".parse::<ToolMemoryPriority>().unwrap_err();
        assert_eq!(err.field(), "priority");
        assert!(err.to_string().contains("urgent"), "{err}");
    }

    #[test]
    fn round_trips_the_reference_record_byte_for_byte() {
        let json = r#"{"id":"redjckpc","tool_name":"send_email","rule":"Never email Sarah at sarah@example","priority":"critical","source":"user_explicit","tags":["user-edict"],"created_at":"2026-07-23T17:04:54.123456789+00:00","updated_at":"2026-07-23T17:04:54.123498765+00:00"}"#;
        let rule: ToolMemoryRule = serde_json::from_str(json).unwrap();
        assert_eq!(rule.priority, ToolMemoryPriority::Critical);
        assert_eq!(rule.to_compact_json(), json);
    }

    #[test]
    fn reading_applies_defaults_and_ignores_unknown_keys() {
        let json = r#"{"id":"id-1","tool_name":"shell","rule":"never run sudo","created_at":"2026-05-11T00:00:00Z","updated_at":"2026-05-11T00:00:01Z","future_field":{"x":1}}"#;
        let rule: ToolMemoryRule = serde_json::from_str(json).unwrap();
        assert_eq!(rule.priority, ToolMemoryPriority::Normal);
        assert_eq!(rule.source, ToolMemorySource::Programmatic);
        assert!(rule.tags.is_empty());
        assert_eq!(rule.created_at.to_rfc3339(), "2026-05-11T00:00:00+00:00");
        // Tags are always written, even when empty.
        assert!(rule.to_compact_json().contains(r#""tags":[]"#));
    }

    #[test]
    fn meta_fields_are_absent_when_unset_and_round_trip_when_set() {
        let plain = RulePut::new("bash", "x").normalized().unwrap().build(
            "a".into(),
            None,
            at("2026-01-01T00:00:00Z"),
        );
        assert!(!plain.to_compact_json().contains("revoked_at"));
        assert!(
            plain
                .to_compact_json()
                .ends_with(r#""updated_at":"2026-01-01T00:00:00+00:00"}"#)
        );
        let mut marked = plain.clone();
        marked.meta.revoked_at = Some(at("2026-01-02T00:00:00Z"));
        marked.meta.proposed = true;
        marked.meta.constraint = Some(RawJson::from_value(
            &serde_json::json!({"polarity": "forbid", "matchers": []}),
        ));
        let json = marked.to_compact_json();
        assert!(
            json.contains(r#""revoked_at":"2026-01-02T00:00:00+00:00""#),
            "{json}"
        );
        assert_eq!(
            serde_json::from_str::<ToolMemoryRule>(&json).unwrap(),
            marked
        );
        assert!(!marked.is_active(at("2026-01-03T00:00:00Z")));
        let mut expiring = plain;
        expiring.meta.expires_at = Some(at("2026-02-01T00:00:00Z"));
        assert!(expiring.is_active(at("2026-01-31T00:00:00Z")));
        assert!(!expiring.is_active(at("2026-02-01T00:00:00Z")));
    }

    #[test]
    fn unknown_enum_value_makes_the_row_unreadable() {
        let json = r#"{"id":"a","tool_name":"t","rule":"r","priority":"low","created_at":"2026-05-11T00:00:00Z","updated_at":"2026-05-11T00:00:00Z"}"#;
        assert!(serde_json::from_str::<ToolMemoryRule>(json).is_err());
    }

    #[test]
    fn put_on_existing_keeps_created_at_and_unset_fields() {
        let first = RulePut::new("email", "never email Sarah")
            .with_priority(ToolMemoryPriority::Critical)
            .with_source(ToolMemorySource::UserExplicit)
            .with_tags(["safety"])
            .normalized()
            .unwrap()
            .build("id-1".into(), None, at("2026-01-01T00:00:00Z"));
        let second = RulePut::new("Email", "never email Sarah again")
            .with_id("id-1")
            .normalized()
            .unwrap()
            .build("id-1".into(), Some(&first), at("2026-01-02T00:00:00Z"));
        assert_eq!(second.created_at, first.created_at);
        assert_eq!(second.updated_at, at("2026-01-02T00:00:00Z"));
        assert_eq!(second.priority, ToolMemoryPriority::Critical);
        assert_eq!(second.source, ToolMemorySource::UserExplicit);
        assert_eq!(second.tags, vec!["safety".to_owned()]);
        assert_eq!(second.rule, "never email Sarah again");
        assert_eq!(second.tool_name, "email");
    }

    #[test]
    fn new_rule_takes_defaults_and_blank_id_is_generated() {
        let put = RulePut::new("shell", "quote paths")
            .with_id("   ")
            .normalized()
            .unwrap();
        assert_eq!(put.id, None);
        let rule = put.build("gen".into(), None, at("2026-01-01T00:00:00Z"));
        assert_eq!(rule.priority, ToolMemoryPriority::Normal);
        assert_eq!(rule.source, ToolMemorySource::Programmatic);
        assert_eq!(rule.created_at, rule.updated_at);
        assert!(rule.validate().is_ok());
    }

    #[test]
    fn tool_name_is_checked_before_the_body() {
        let err = RulePut::new(" ", " ").normalized().unwrap_err();
        assert_eq!(err.field(), "tool_name");
        let err = RulePut::new("x", " ").normalized().unwrap_err();
        assert_eq!(err.field(), "rule");
    }

    #[test]
    fn listing_order_is_priority_then_freshness_then_id() {
        let make = |id: &str, priority, updated: &str| ToolMemoryRule {
            id: id.into(),
            tool_name: "t".into(),
            rule: "r".into(),
            priority,
            source: ToolMemorySource::Programmatic,
            tags: vec![],
            created_at: at(updated),
            updated_at: at(updated),
            meta: RuleMeta::default(),
        };
        let mut rules = [
            make("n", ToolMemoryPriority::Normal, "2026-01-03T00:00:00Z"),
            make("h", ToolMemoryPriority::High, "2026-01-01T00:00:00Z"),
            make(
                "c-old",
                ToolMemoryPriority::Critical,
                "2026-01-01T00:00:00Z",
            ),
            make(
                "c-new",
                ToolMemoryPriority::Critical,
                "2026-01-02T00:00:00+00:00",
            ),
            make(
                "c-new-b",
                ToolMemoryPriority::Critical,
                "2026-01-02T00:00:00Z",
            ),
        ];
        rules.sort_by(compare_for_listing);
        let ids: Vec<&str> = rules.iter().map(|rule| rule.id.as_str()).collect();
        assert_eq!(ids, ["c-new", "c-new-b", "c-old", "h", "n"]);
    }
}
