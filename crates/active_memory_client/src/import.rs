//! Import of exported rules (JSON lines), with a report of what each line did.
//!
//! An import is how rules move between machines and tools, and a file is easy to get wrong: an
//! older copy, a hand edit, another host's spelling. So no line may quietly weaken what is
//! stored. Every line is read first; a line that is not a rule makes the whole file refused
//! before anything is written. A readable line is then compared with the stored rule of the
//! same tool and id: an identical one changes nothing, and one that would lower the priority,
//! revoke, unconfirm or expire the rule, is older than it, or carries a constraint that the
//! guard cannot show to be as strict as the stored one (or as the one the rule's text gives) is
//! refused unless the caller allows weakening. The other lines are written.
//!
//! Besides toolmem's own export, lines may come from openhuman: tool names as the host wrote
//! them (`"Email"`), `Z` timestamps, letter ids, fields left to their defaults, unknown keys,
//! and memory entries (`{"namespace": "tool-email", "key": "rule/…", "content": …}`) with the
//! statistics namespace mixed in. Each is read, and whatever was normalised, ignored or skipped
//! is said on its line.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value};
use tool_memory_core::{
    Origin, TOOL_NAMESPACE_PREFIX, ToolMemoryRule, normalize_tool_name, validate_tool_name,
};
use tool_memory_guard::{constraint_looser_than_text, constraint_of};

use crate::{ActiveMemoryClient, Result};

/// How an import treats lines that would weaken stored rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Write lines that weaken a stored rule instead of refusing them.
    pub allow_weaken: bool,
    /// Report what would happen without writing anything.
    pub dry_run: bool,
}

/// What one line of an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportOutcome {
    /// A new rule was written.
    Created,
    /// A stored rule was replaced by the line.
    Updated,
    /// The stored rule is already exactly the line; nothing was written.
    Unchanged,
    /// The line would weaken a stored rule, or conflicts with another line; not written.
    Refused,
    /// The line is not a rule (a statistics record, a repeat of an earlier line); not written.
    Skipped,
    /// The line cannot be read as a rule; the whole import was refused.
    Invalid,
}

/// The report of one line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportLine {
    /// The line number in the input, from 1.
    pub line: usize,
    /// What the line did.
    pub outcome: ImportOutcome,
    /// The rule's tool, normalised, when the line names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// The rule's id, when the line names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What the line changed in the stored rule, and what was normalised or ignored in it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// Why the line was refused, skipped or invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What an import did, line by line, with totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Whether anything was written: false for a dry run, and when some line was invalid.
    pub written: bool,
    /// Lines that created a rule.
    pub created: usize,
    /// Lines that replaced a stored rule.
    pub updated: usize,
    /// Lines identical to the stored rule.
    pub unchanged: usize,
    /// Lines refused.
    pub refused: usize,
    /// Lines skipped.
    pub skipped: usize,
    /// Lines that are not rules.
    pub invalid: usize,
    /// Every non-blank line, in input order.
    pub lines: Vec<ImportLine>,
}

impl ImportReport {
    /// Whether every line was taken (written, unchanged or skipped as not a rule).
    pub fn is_clean(&self) -> bool {
        self.refused == 0 && self.invalid == 0
    }

    fn count(&mut self, outcome: ImportOutcome) {
        let total = match outcome {
            ImportOutcome::Created => &mut self.created,
            ImportOutcome::Updated => &mut self.updated,
            ImportOutcome::Unchanged => &mut self.unchanged,
            ImportOutcome::Refused => &mut self.refused,
            ImportOutcome::Skipped => &mut self.skipped,
            ImportOutcome::Invalid => &mut self.invalid,
        };
        *total += 1;
    }
}

/// The fields a rule record may carry: the reference's and toolmem's additions.
const RULE_KEYS: &[&str] = &[
    "id",
    "tool_name",
    "rule",
    "priority",
    "source",
    "tags",
    "created_at",
    "updated_at",
    "revoked_at",
    "expires_at",
    "retire_after_successes",
    "proposed",
    "constraint",
    "constraint_explicit",
];

/// The namespace the reference keeps per-tool statistics under (`tool_effectiveness/tool/…`).
const STATS_NAMESPACE_PREFIX: &str = "tool_effectiveness";

/// One line, read.
enum Parsed {
    Rule {
        rule: ToolMemoryRule,
        notes: Vec<String>,
    },
    Skip {
        reason: String,
        tool_name: Option<String>,
    },
    Invalid(String),
}

impl ActiveMemoryClient {
    /// Imports JSON lines of rules (toolmem's export, or openhuman's records and memory
    /// entries) and reports what each line did; see the module documentation for the rules.
    /// Lines are written one rule at a time, each with its history line, recorded as by
    /// `origin`. Blank lines are ignored.
    ///
    /// The comparison with the stored rule and the write are two steps: a change made to the
    /// same rule by another writer between them is replaced by the line, as any later write
    /// would replace it.
    pub async fn import_lines(
        &self,
        text: &str,
        options: ImportOptions,
        origin: &Origin,
    ) -> Result<ImportReport> {
        let mut report = ImportReport::default();
        let mut parsed = Vec::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            parsed.push((index + 1, parse_line(line)));
        }
        let conflicts = conflicting_lines(&parsed);
        let any_invalid = parsed
            .iter()
            .any(|(_, line)| matches!(line, Parsed::Invalid(_)));
        let write = !options.dry_run && !any_invalid;
        // The first line of each (tool, id), for repeats.
        let mut first_of: HashMap<(String, String), (usize, ToolMemoryRule)> = HashMap::new();
        for (number, line) in parsed {
            let entry = match line {
                Parsed::Invalid(reason) => ImportLine {
                    line: number,
                    outcome: ImportOutcome::Invalid,
                    tool_name: None,
                    id: None,
                    changes: Vec::new(),
                    reason: Some(reason),
                },
                Parsed::Skip { reason, tool_name } => ImportLine {
                    line: number,
                    outcome: ImportOutcome::Skipped,
                    tool_name,
                    id: None,
                    changes: Vec::new(),
                    reason: Some(reason),
                },
                Parsed::Rule { rule, notes } => {
                    let key = (rule.tool_name.clone(), rule.id.clone());
                    if let Some(others) = conflicts.get(&key) {
                        refused(
                            number,
                            &rule,
                            notes,
                            format!(
                                "lines {} hold different copies of this rule; import one of them",
                                join_numbers(others)
                            ),
                        )
                    } else if let Some((first, _)) = first_of.get(&key) {
                        ImportLine {
                            line: number,
                            outcome: ImportOutcome::Skipped,
                            tool_name: Some(rule.tool_name.clone()),
                            id: Some(rule.id.clone()),
                            changes: notes,
                            reason: Some(format!("the same rule as line {first}")),
                        }
                    } else {
                        first_of.insert(key, (number, rule.clone()));
                        self.import_rule(number, rule, notes, options, write, origin)
                            .await?
                    }
                }
            };
            report.count(entry.outcome);
            report.lines.push(entry);
        }
        report.written = write;
        Ok(report)
    }

    /// Compares one rule with the stored one and writes it when that is allowed.
    async fn import_rule(
        &self,
        number: usize,
        rule: ToolMemoryRule,
        mut notes: Vec<String>,
        options: ImportOptions,
        write: bool,
        origin: &Origin,
    ) -> Result<ImportLine> {
        let mut weakenings = Vec::new();
        if constraint_looser_than_text(&rule) {
            weakenings.push(
                "its constraint is looser than the one its text gives (or unreadable)".to_owned(),
            );
        }
        let stored = match self.store.get(&rule.tool_name, &rule.id).await {
            Ok(stored) => stored,
            Err(tool_memory_store::Error::Unreadable { .. }) => {
                weakenings.push(
                    "the stored rule cannot be read by this version, so the line cannot be \
                     shown not to weaken it (see `toolmem doctor`)"
                        .to_owned(),
                );
                None
            }
            Err(err) => return Err(err.into()),
        };
        if let Some(stored) = &stored {
            if *stored == rule {
                return Ok(ImportLine {
                    line: number,
                    outcome: ImportOutcome::Unchanged,
                    tool_name: Some(rule.tool_name),
                    id: Some(rule.id),
                    changes: notes,
                    reason: None,
                });
            }
            weakenings.extend(weakenings_of(stored, &rule));
            notes.extend(differences(stored, &rule));
        }
        if !weakenings.is_empty() && !options.allow_weaken {
            return Ok(refused(
                number,
                &rule,
                notes,
                format!(
                    "{}; pass --allow-weaken to import it anyway",
                    weakenings.join("; ")
                ),
            ));
        }
        if !weakenings.is_empty() {
            notes.extend(
                weakenings
                    .into_iter()
                    .map(|weakening| format!("weakens the stored rule (allowed): {weakening}")),
            );
        }
        let outcome = if stored.is_some() {
            ImportOutcome::Updated
        } else {
            ImportOutcome::Created
        };
        let (tool_name, id) = (rule.tool_name.clone(), rule.id.clone());
        if write {
            self.store.import(rule, origin).await?;
        }
        Ok(ImportLine {
            line: number,
            outcome,
            tool_name: Some(tool_name),
            id: Some(id),
            changes: notes,
            reason: None,
        })
    }
}

fn refused(
    number: usize,
    rule: &ToolMemoryRule,
    changes: Vec<String>,
    reason: String,
) -> ImportLine {
    ImportLine {
        line: number,
        outcome: ImportOutcome::Refused,
        tool_name: Some(rule.tool_name.clone()),
        id: Some(rule.id.clone()),
        changes,
        reason: Some(reason),
    }
}

/// The (tool, id) pairs that several lines give different copies of, with those lines. Which
/// copy is meant cannot be told, so none of them is written.
fn conflicting_lines(parsed: &[(usize, Parsed)]) -> HashMap<(String, String), Vec<usize>> {
    let mut copies: HashMap<(String, String), Vec<(usize, &ToolMemoryRule)>> = HashMap::new();
    for (number, line) in parsed {
        if let Parsed::Rule { rule, .. } = line {
            copies
                .entry((rule.tool_name.clone(), rule.id.clone()))
                .or_default()
                .push((*number, rule));
        }
    }
    copies
        .into_iter()
        .filter(|(_, lines)| lines.iter().any(|(_, rule)| *rule != lines[0].1))
        .map(|(key, lines)| (key, lines.into_iter().map(|(number, _)| number).collect()))
        .collect()
}

fn join_numbers(numbers: &[usize]) -> String {
    let texts: Vec<String> = numbers.iter().map(usize::to_string).collect();
    texts.join(", ")
}

/// Reads one line: a rule record, or a memory entry holding one, or something to skip.
fn parse_line(line: &str) -> Parsed {
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(err) => return Parsed::Invalid(format!("not JSON: {err}")),
    };
    let Value::Object(object) = value else {
        return Parsed::Invalid("not a JSON object".to_owned());
    };
    if let Some(namespace) = object.get("namespace").and_then(Value::as_str) {
        return parse_entry(namespace, &object);
    }
    if !object.contains_key("rule") && object.contains_key("calls") {
        return Parsed::Skip {
            reason: "a tool's call statistics, not a rule".to_owned(),
            tool_name: object
                .get("tool_name")
                .and_then(Value::as_str)
                .map(normalize_tool_name),
        };
    }
    parse_rule(object, None)
}

/// A memory entry (`namespace`, `key`, and `content` or `value`), as a host's memory export
/// writes them.
fn parse_entry(namespace: &str, object: &Map<String, Value>) -> Parsed {
    if namespace.starts_with(STATS_NAMESPACE_PREFIX) {
        return Parsed::Skip {
            reason: format!("an entry of the statistics namespace `{namespace}`, not a rule"),
            tool_name: namespace.rsplit('/').next().map(normalize_tool_name),
        };
    }
    let Some(tool) = namespace.strip_prefix(TOOL_NAMESPACE_PREFIX) else {
        return Parsed::Skip {
            reason: format!("an entry of namespace `{namespace}`, which holds no tool rules"),
            tool_name: None,
        };
    };
    let key = object
        .get("key")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !key.starts_with("rule/") {
        return Parsed::Skip {
            reason: format!("entry key `{key}` is not a rule's (`rule/…`)"),
            tool_name: Some(normalize_tool_name(tool)),
        };
    }
    let content = object.get("content").or_else(|| object.get("value"));
    let record = match content {
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(record)) => record,
            Ok(_) => return Parsed::Invalid("content: not a JSON object".to_owned()),
            Err(err) => return Parsed::Invalid(format!("content: not JSON: {err}")),
        },
        Some(Value::Object(record)) => record.clone(),
        _ => return Parsed::Invalid("content: required, the rule's JSON".to_owned()),
    };
    parse_rule(record, Some(tool))
}

/// Reads a rule record; `namespace_tool` is the tool of the namespace it was found in.
fn parse_rule(mut object: Map<String, Value>, namespace_tool: Option<&str>) -> Parsed {
    let mut notes = Vec::new();
    let unknown: Vec<&str> = object
        .keys()
        .map(String::as_str)
        .filter(|key| !RULE_KEYS.contains(key))
        .collect();
    if !unknown.is_empty() {
        notes.push(format!("ignored unknown keys: {}", unknown.join(", ")));
    }
    if !object.contains_key("tool_name")
        && let Some(tool) = namespace_tool
    {
        object.insert("tool_name".to_owned(), Value::String(tool.to_owned()));
    }
    let given_tool = object
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(given) = &given_tool {
        match validate_tool_name(given) {
            Ok(normalized) => {
                if normalized != *given {
                    notes.push(format!("tool_name `{given}` normalised to `{normalized}`"));
                }
                if let Some(tool) = namespace_tool
                    && normalize_tool_name(tool) != normalized
                {
                    return Parsed::Invalid(format!(
                        "tool_name: `{normalized}` does not match its namespace's tool `{tool}`"
                    ));
                }
                object.insert("tool_name".to_owned(), Value::String(normalized));
            }
            Err(err) => return Parsed::Invalid(err.to_string()),
        }
    }
    for field in ["created_at", "updated_at", "revoked_at", "expires_at"] {
        if let Some(Value::String(text)) = object.get(field)
            && !text.ends_with("+00:00")
        {
            notes.push(format!("{field} is stored as UTC (`+00:00`)"));
            break;
        }
    }
    let rule: ToolMemoryRule = match serde_json::from_value(Value::Object(object)) {
        Ok(rule) => rule,
        Err(err) => return Parsed::Invalid(format!("not a rule: {err}")),
    };
    if let Err(err) = rule.validate() {
        return Parsed::Invalid(err.to_string());
    }
    Parsed::Rule { rule, notes }
}

/// How `incoming` would weaken `stored`, in words; empty when it would not.
fn weakenings_of(stored: &ToolMemoryRule, incoming: &ToolMemoryRule) -> Vec<String> {
    let mut weakenings = Vec::new();
    if incoming.priority < stored.priority {
        weakenings.push(format!(
            "it lowers the priority from {} to {}",
            stored.priority, incoming.priority
        ));
    }
    if incoming.meta.revoked_at.is_some() && stored.meta.revoked_at.is_none() {
        weakenings.push("it revokes the rule".to_owned());
    }
    if incoming.meta.proposed && !stored.meta.proposed {
        weakenings.push("it makes a confirmed rule unconfirmed".to_owned());
    }
    match (stored.meta.expires_at, incoming.meta.expires_at) {
        (None, Some(_)) => weakenings.push("it makes the rule expire".to_owned()),
        (Some(before), Some(after)) if after < before => {
            weakenings.push("it makes the rule expire sooner".to_owned());
        }
        _ => {}
    }
    if incoming.updated_at < stored.updated_at {
        weakenings.push(format!(
            "it is older than the stored rule (updated {} against {})",
            incoming.updated_at, stored.updated_at
        ));
    }
    // A new text is a new rule; its constraint is judged against that text above. The same
    // text must keep a constraint at least as strict as the stored one.
    if incoming.rule == stored.rule
        && let Some(before) = constraint_of(stored)
        && !constraint_of(incoming).is_some_and(|after| after.is_at_least_as_strict_as(&before))
    {
        weakenings.push("its constraint is looser than the stored one".to_owned());
    }
    weakenings
}

/// What `incoming` changes in `stored`, in words.
fn differences(stored: &ToolMemoryRule, incoming: &ToolMemoryRule) -> Vec<String> {
    let mut changes = Vec::new();
    if incoming.rule != stored.rule {
        changes.push("text".to_owned());
    }
    if incoming.priority != stored.priority {
        changes.push(format!(
            "priority {} -> {}",
            stored.priority, incoming.priority
        ));
    }
    if incoming.source != stored.source {
        changes.push(format!("source {} -> {}", stored.source, incoming.source));
    }
    if incoming.tags != stored.tags {
        changes.push("tags".to_owned());
    }
    if incoming.created_at != stored.created_at {
        changes.push("created_at".to_owned());
    }
    if incoming.updated_at != stored.updated_at {
        changes.push("updated_at".to_owned());
    }
    if incoming.meta.revoked_at != stored.meta.revoked_at {
        changes.push(
            if incoming.meta.revoked_at.is_some() {
                "revoked"
            } else {
                "restored"
            }
            .to_owned(),
        );
    }
    if incoming.meta.proposed != stored.meta.proposed {
        changes.push(
            if incoming.meta.proposed {
                "unconfirmed"
            } else {
                "confirmed"
            }
            .to_owned(),
        );
    }
    if incoming.meta.expires_at != stored.meta.expires_at
        || incoming.meta.retire_after_successes != stored.meta.retire_after_successes
    {
        changes.push("expiry".to_owned());
    }
    if incoming.meta.constraint != stored.meta.constraint
        || incoming.meta.constraint_explicit != stored.meta.constraint_explicit
    {
        changes.push("constraint".to_owned());
    }
    changes
}
