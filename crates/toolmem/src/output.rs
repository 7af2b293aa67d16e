//! Human-readable tables and `--json` output for the CLI.

use active_memory_client::{HistoryEntry, ToolMemoryPriority, ToolMemoryRule, Verdict};
use anyhow::Result;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use serde::Serialize;

/// Rules of one tool, counted by priority.
#[derive(Debug, Serialize)]
pub(crate) struct ToolCount {
    tool_name: String,
    critical: usize,
    high: usize,
    normal: usize,
    total: usize,
}

impl ToolCount {
    pub(crate) fn new(tool_name: String, rules: &[ToolMemoryRule]) -> ToolCount {
        let count = |priority| {
            rules
                .iter()
                .filter(|rule| rule.priority == priority)
                .count()
        };
        ToolCount {
            tool_name,
            critical: count(ToolMemoryPriority::Critical),
            high: count(ToolMemoryPriority::High),
            normal: count(ToolMemoryPriority::Normal),
            total: rules.len(),
        }
    }
}

fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table
        .load_style(UTF8_BORDERS_ONLY)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(header.to_vec());
    table
}

pub(crate) fn tools(rows: &[ToolCount], json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(rows)?);
        return Ok(());
    }
    if rows.is_empty() {
        println!("no rules yet");
        return Ok(());
    }
    let mut out = table(&["tool", "critical", "high", "normal", "total"]);
    for row in rows {
        out.add_row(vec![
            row.tool_name.clone(),
            row.critical.to_string(),
            row.high.to_string(),
            row.normal.to_string(),
            row.total.to_string(),
        ]);
    }
    println!("{out}");
    Ok(())
}

pub(crate) fn rules(rules: &[ToolMemoryRule], json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(rules)?);
        return Ok(());
    }
    if rules.is_empty() {
        println!("no rules");
        return Ok(());
    }
    let mut out = table(&["tool", "id", "priority", "source", "rule", "updated"]);
    for rule in rules {
        // Revoked and unconfirmed rules are marked where a reader looks first.
        let priority = match (&rule.meta.revoked_at, rule.meta.proposed) {
            (Some(_), _) => format!("{} (revoked)", rule.priority),
            (None, true) => format!("{} (unconfirmed)", rule.priority),
            (None, false) => rule.priority.to_string(),
        };
        out.add_row(vec![
            rule.tool_name.clone(),
            rule.id.clone(),
            priority,
            rule.source.to_string(),
            rule.rule.clone(),
            rule.updated_at.to_string(),
        ]);
    }
    println!("{out}");
    Ok(())
}

pub(crate) fn rule(rule: &ToolMemoryRule, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(rule)?);
    } else {
        rules(std::slice::from_ref(rule), false)?;
    }
    Ok(())
}

pub(crate) fn history(entries: &[HistoryEntry], json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(entries)?);
        return Ok(());
    }
    if entries.is_empty() {
        println!("no history");
        return Ok(());
    }
    let mut out = table(&["seq", "at", "action", "rule", "by", "text"]);
    for entry in entries {
        let origin = serde_json::to_value(&entry.origin)?;
        let by = match (
            origin["kind"].as_str(),
            origin["session_id"].as_str(),
            origin["turn"].as_u64(),
        ) {
            (Some(kind), Some(session), Some(turn)) => format!("{kind} ({session}, turn {turn})"),
            (Some(kind), Some(session), None) => format!("{kind} ({session})"),
            (Some("rpc"), _, _) => format!("rpc {}", origin["method"].as_str().unwrap_or_default()),
            (Some(kind), _, _) => kind.to_owned(),
            _ => String::new(),
        };
        let text = entry
            .detail
            .clone()
            .or_else(|| {
                entry
                    .after
                    .as_ref()
                    .or(entry.before.as_ref())
                    .map(|rule| rule.rule.clone())
            })
            .unwrap_or_default();
        out.add_row(vec![
            entry.seq.to_string(),
            entry.at.to_string(),
            serde_json::to_value(entry.action)?
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            entry.rule_id.clone(),
            by,
            text,
        ]);
    }
    println!("{out}");
    Ok(())
}

pub(crate) fn verdict(verdict: &Verdict, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(verdict)?);
        return Ok(());
    }
    println!("{}: {}", verdict.decision.as_str(), verdict.reason);
    for rule in &verdict.rules {
        println!("  rule {} [{}] {}", rule.id, rule.priority, rule.rule);
    }
    for rule in &verdict.advice {
        println!("  advice [{}] {}", rule.priority, rule.rule);
    }
    Ok(())
}
