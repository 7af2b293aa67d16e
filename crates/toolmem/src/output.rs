//! Human-readable tables and `--json` output for the CLI.

use active_memory_client::{ToolMemoryPriority, ToolMemoryRule};
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
        out.add_row(vec![
            rule.tool_name.clone(),
            rule.id.clone(),
            rule.priority.to_string(),
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
