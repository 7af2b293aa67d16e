//! Namespaces, keys, the no-tool sentinel and field validation: the storage contract that
//! toolmem shares with openhuman, written down once.

use crate::Error;

/// Prefix of every tool's rule namespace: `tool-{name}`.
pub const TOOL_NAMESPACE_PREFIX: &str = "tool-";
/// Prefix of every rule key inside a tool namespace: `rule/{id}`.
pub const RULE_KEY_PREFIX: &str = "rule/";
/// Prefix of the per-tool statistics namespace, kept apart from rules by design.
pub const STATS_NAMESPACE_PREFIX: &str = "tool_effectiveness/tool/";
/// The tool name given to an edict that no tool of the turn or the catalogue claims.
pub const UNSCOPED_TOOL: &str = "__unscoped__";

/// Longest accepted tool name, in characters.
pub const MAX_TOOL_NAME_CHARS: usize = 128;
/// Longest accepted rule body, in characters.
pub const MAX_RULE_CHARS: usize = 4096;
/// Most tags on one rule.
pub const MAX_TAGS: usize = 32;
/// Longest accepted tag, in characters.
pub const MAX_TAG_CHARS: usize = 64;
/// Longest accepted rule id, in characters.
pub const MAX_ID_CHARS: usize = 128;

/// The identity of a tool: trimmed and lower-cased (Unicode-aware), on every path.
pub fn normalize_tool_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The namespace that holds a tool's rules: `tool-` + the normalised name.
pub fn tool_memory_namespace(tool_name: &str) -> String {
    format!("{TOOL_NAMESPACE_PREFIX}{}", normalize_tool_name(tool_name))
}

/// The key of a rule inside its tool namespace.
pub fn storage_key(id: &str) -> String {
    format!("{RULE_KEY_PREFIX}{id}")
}

/// The namespace that holds a tool's call statistics, never its rules.
pub fn stats_namespace(tool_name: &str) -> String {
    format!("{STATS_NAMESPACE_PREFIX}{}", normalize_tool_name(tool_name))
}

/// Validates a tool name and returns its normalised identity.
pub fn validate_tool_name(name: &str) -> Result<String, Error> {
    let normalized = normalize_tool_name(name);
    if normalized.is_empty() {
        return Err(Error::Required { field: "tool_name" });
    }
    check_length("tool_name", &normalized, MAX_TOOL_NAME_CHARS)?;
    if normalized.chars().any(char::is_control) {
        return Err(Error::invalid(
            "tool_name",
            "must not contain control characters",
        ));
    }
    Ok(normalized)
}

/// Validates a rule body. The body is stored as given: the user's own words, not a rewrite.
pub fn validate_rule_body(body: &str) -> Result<(), Error> {
    if body.trim().is_empty() {
        return Err(Error::Required { field: "rule" });
    }
    check_length("rule", body, MAX_RULE_CHARS)
}

/// Validates a tag list: at most [`MAX_TAGS`] tags, each non-blank and at most
/// [`MAX_TAG_CHARS`] characters.
pub fn validate_tags(tags: &[String]) -> Result<(), Error> {
    if tags.len() > MAX_TAGS {
        return Err(Error::invalid(
            "tags",
            format!("at most {MAX_TAGS} tags are allowed, got {}", tags.len()),
        ));
    }
    for (index, tag) in tags.iter().enumerate() {
        if tag.trim().is_empty() {
            return Err(Error::invalid("tags", format!("tag {index} is blank")));
        }
        let chars = tag.chars().count();
        if chars > MAX_TAG_CHARS {
            return Err(Error::invalid(
                "tags",
                format!("tag {index} has {chars} characters, at most {MAX_TAG_CHARS} are allowed"),
            ));
        }
    }
    Ok(())
}

/// Validates a caller-supplied id. Any non-empty id is accepted verbatim, including the
/// reference's letter ids; a blank id means "generate one" and is handled by [`crate::RulePut`].
pub fn validate_id(id: &str) -> Result<(), Error> {
    if id.trim().is_empty() {
        return Err(Error::Required { field: "id" });
    }
    check_length("id", id, MAX_ID_CHARS)
}

fn check_length(field: &'static str, value: &str, max: usize) -> Result<(), Error> {
    let chars = value.chars().count();
    if chars > max {
        return Err(Error::invalid(
            field,
            format!("has {chars} characters, at most {max} are allowed"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_match_the_reference_examples() {
        assert_eq!(tool_memory_namespace("email"), "tool-email");
        assert_eq!(tool_memory_namespace("  shell  "), "tool-shell");
        assert_eq!(tool_memory_namespace("Send_Email"), "tool-send_email");
        assert_eq!(tool_memory_namespace("WebSearch"), "tool-websearch");
        assert_eq!(storage_key("abc"), "rule/abc");
        assert_eq!(stats_namespace(" Shell "), "tool_effectiveness/tool/shell");
    }

    #[test]
    fn tool_name_errors_name_the_field() {
        assert_eq!(
            validate_tool_name("  ").unwrap_err(),
            Error::Required { field: "tool_name" }
        );
        assert_eq!(
            validate_tool_name("a\u{7}b").unwrap_err().field(),
            "tool_name"
        );
        assert_eq!(
            validate_tool_name(&"x".repeat(129)).unwrap_err().field(),
            "tool_name"
        );
        assert_eq!(
            validate_tool_name(&"x".repeat(128)).unwrap(),
            "x".repeat(128)
        );
        assert_eq!(validate_tool_name(" Send_Email ").unwrap(), "send_email");
    }

    #[test]
    fn body_tags_and_id_limits() {
        assert_eq!(
            validate_rule_body(" \n ").unwrap_err(),
            Error::Required { field: "rule" }
        );
        assert!(validate_rule_body(&"é".repeat(4096)).is_ok());
        assert_eq!(
            validate_rule_body(&"é".repeat(4097)).unwrap_err().field(),
            "rule"
        );
        let tags: Vec<String> = (0..33).map(|i| format!("t{i}")).collect();
        assert_eq!(validate_tags(&tags).unwrap_err().field(), "tags");
        assert!(validate_tags(&tags[..32]).is_ok());
        assert_eq!(
            validate_tags(&["x".repeat(65)]).unwrap_err().field(),
            "tags"
        );
        assert_eq!(
            validate_tags(&[" ".to_owned()]).unwrap_err().field(),
            "tags"
        );
        assert_eq!(validate_id(&"i".repeat(129)).unwrap_err().field(), "id");
        assert!(validate_id("redjckpcaaaaaaaaaaaaaaaaaaaaaaaaa").is_ok());
    }
}
