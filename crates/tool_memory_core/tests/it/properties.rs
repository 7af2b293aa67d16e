//! Property tests of the rule model: validation of arbitrary text (any Unicode, control
//! characters, strings past every limit) never panics, accepts exactly what the documented
//! limits allow, and every error names the field at fault; parsing hostile wire input never
//! panics either.

use proptest::prelude::*;
use tool_memory_core::{
    Error, MAX_ID_CHARS, MAX_RULE_CHARS, MAX_TAG_CHARS, MAX_TAGS, MAX_TOOL_NAME_CHARS, RulePut,
    Timestamp, ToolMemoryPriority, ToolMemoryRule, ToolMemorySource, validate_id,
    validate_rule_body, validate_tags, validate_tool_name,
};

/// Text that stresses validation: arbitrary Unicode, the characters the block structure is
/// made of mixed with controls and odd whitespace, and strings just around the length limits.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<String>(),
        4 => "[\\x00-\\x1f\\x7f-\\x9f \\t\\r\\n\u{85}\u{2028}\u{2029}\u{a0}#*\\[\\]`a-zA-Z_-]{0,40}",
        1 => (0..4usize, 120..140usize).prop_map(|(pick, n)| ["x", "é", "💥", " "][pick].repeat(n)),
        1 => (0..3usize, 4090..4110usize).prop_map(|(pick, n)| ["r", "ü", "\u{1b}"][pick].repeat(n)),
        1 => Just(String::new()),
    ]
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The error names `field`, and its message starts with that name, so RPC and CLI users
/// know what to fix.
fn names_field(error: &Error, field: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(error.field(), field);
    prop_assert!(
        error.to_string().starts_with(field),
        "message {:?} does not start with {:?}",
        error.to_string(),
        field
    );
    Ok(())
}

fn priority() -> impl Strategy<Value = Option<ToolMemoryPriority>> {
    prop::option::of(prop::sample::select(ToolMemoryPriority::ALL.to_vec()))
}

fn source() -> impl Strategy<Value = Option<ToolMemorySource>> {
    prop::option::of(prop::sample::select(ToolMemorySource::ALL.to_vec()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn tool_name_validation_matches_the_documented_limits(name in hostile_text()) {
        let normalized = name.trim().to_lowercase();
        match validate_tool_name(&name) {
            Ok(accepted) => {
                prop_assert_eq!(&accepted, &normalized);
                prop_assert!(!accepted.is_empty());
                prop_assert!(chars(&accepted) <= MAX_TOOL_NAME_CHARS);
                prop_assert!(!accepted.chars().any(char::is_control));
            }
            Err(error) => {
                names_field(&error, "tool_name")?;
                prop_assert!(
                    normalized.is_empty()
                        || chars(&normalized) > MAX_TOOL_NAME_CHARS
                        || normalized.chars().any(char::is_control)
                );
            }
        }
    }

    #[test]
    fn rule_body_validation_matches_the_documented_limits(body in hostile_text()) {
        match validate_rule_body(&body) {
            Ok(()) => prop_assert!(!body.trim().is_empty() && chars(&body) <= MAX_RULE_CHARS),
            Err(error) => {
                names_field(&error, "rule")?;
                prop_assert!(body.trim().is_empty() || chars(&body) > MAX_RULE_CHARS);
            }
        }
    }

    #[test]
    fn id_validation_matches_the_documented_limits(id in hostile_text()) {
        match validate_id(&id) {
            Ok(()) => prop_assert!(!id.trim().is_empty() && chars(&id) <= MAX_ID_CHARS),
            Err(error) => {
                names_field(&error, "id")?;
                prop_assert!(id.trim().is_empty() || chars(&id) > MAX_ID_CHARS);
            }
        }
    }

    #[test]
    fn tag_validation_matches_the_documented_limits(
        tags in prop::collection::vec(
            prop_oneof![
                8 => "[a-z0-9 \\t\\x00-\\x1f-]{0,12}",
                1 => (60..70usize).prop_map(|n| "t".repeat(n)),
                1 => any::<String>(),
            ],
            0..40,
        )
    ) {
        let acceptable = tags.len() <= MAX_TAGS
            && tags
                .iter()
                .all(|tag| !tag.trim().is_empty() && chars(tag) <= MAX_TAG_CHARS);
        match validate_tags(&tags) {
            Ok(()) => prop_assert!(acceptable),
            Err(error) => {
                names_field(&error, "tags")?;
                prop_assert!(!acceptable);
            }
        }
    }

    /// A put either normalises into a record that passes the record's own validation (and
    /// survives a JSON round trip unchanged), or fails naming one field that is really at
    /// fault; the tool name is checked first.
    #[test]
    fn a_put_is_either_a_valid_record_or_an_error_naming_a_guilty_field(
        tool_name in hostile_text(),
        rule in hostile_text(),
        id in prop::option::of(hostile_text()),
        tags in prop::option::of(prop::collection::vec(hostile_text(), 0..4)),
        priority in priority(),
        source in source(),
    ) {
        let put = RulePut {
            id: id.clone(),
            tool_name: tool_name.clone(),
            rule: rule.clone(),
            priority,
            source,
            tags: tags.clone(),
            ..RulePut::default()
        };
        match put.normalized() {
            Ok(put) => {
                let at = Timestamp::parse("2026-01-01T00:00:00Z").expect("a valid instant");
                let record = put.build(id.filter(|id| !id.trim().is_empty()).unwrap_or_else(|| "gen".to_owned()), None, at);
                prop_assert!(record.validate().is_ok(), "{:?}", record.validate());
                prop_assert_eq!(&record.rule, &rule);
                let json = record.to_compact_json();
                let back: ToolMemoryRule = serde_json::from_str(&json).expect("own JSON reads back");
                prop_assert_eq!(back, record);
            }
            Err(error) => {
                let guilty = match error.field() {
                    "tool_name" => validate_tool_name(&tool_name).is_err(),
                    "rule" => validate_tool_name(&tool_name).is_ok() && validate_rule_body(&rule).is_err(),
                    "tags" => tags.as_deref().is_some_and(|tags| validate_tags(tags).is_err()),
                    "id" => id.as_deref().is_some_and(|id| validate_id(id).is_err()),
                    other => return Err(TestCaseError::fail(format!("unexpected field {other}"))),
                };
                prop_assert!(guilty, "{error} blames a field that is fine");
                names_field(&error, error.field())?;
            }
        }
    }

    #[test]
    fn enum_and_timestamp_parsing_never_panics(text in hostile_text()) {
        if let Err(error) = text.parse::<ToolMemoryPriority>() {
            names_field(&error, "priority")?;
        }
        if let Err(error) = text.parse::<ToolMemorySource>() {
            names_field(&error, "source")?;
        }
        let _ = Timestamp::parse(&text);
    }

    /// Reading a stored or received record from damaged JSON is an error, never a panic.
    #[test]
    fn reading_damaged_records_never_panics(
        cut in 0..400usize,
        noise in hostile_text(),
        value in prop_oneof![
            Just(serde_json::json!(null)),
            any::<i64>().prop_map(serde_json::Value::from),
            hostile_text().prop_map(serde_json::Value::from),
        ],
        field in prop::sample::select(vec!["id", "tool_name", "rule", "priority", "source", "tags", "created_at", "updated_at", "revoked_at", "constraint"]),
    ) {
        let good = r#"{"id":"a","tool_name":"send_email","rule":"never email Sarah","priority":"critical","source":"user_explicit","tags":["x"],"created_at":"2026-05-11T00:00:00Z","updated_at":"2026-05-11T00:00:01Z"}"#;
        let truncated: String = good.chars().take(cut).collect();
        let _ = serde_json::from_str::<ToolMemoryRule>(&truncated);
        let _ = serde_json::from_str::<ToolMemoryRule>(&format!("{truncated}{noise}"));
        let mut changed: serde_json::Value = serde_json::from_str(good).expect("valid JSON");
        changed[field] = value;
        let _ = serde_json::from_value::<ToolMemoryRule>(changed);
    }
}
