//! Human-readable tables and `--json` output for the CLI.
//!
//! Everything shown to a person passes through [`terminal_safe`]: rule text, ids, tags and
//! history come from whoever wrote the rule (a captured turn, an import, another program), and
//! raw control bytes in them would reach the terminal, where an escape sequence can rewrite the
//! screen, retitle the window or hide a line. `--json` prints the exact values, which JSON
//! already escapes.

use std::borrow::Cow;
use std::fmt::Write as _;

use active_memory_client::{
    HistoryEntry, ImportOutcome, ImportReport, ToolCounts, ToolMemoryRule, Verdict,
};
use anyhow::Result;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use serde::Serialize;

/// `println!` for the command line's output, as a `Result` for `?`: a reader that goes away
/// early (`toolmem export | head -1`) ends the command quietly with [`ReaderGone`] where
/// `println!` would panic with a backtrace.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        $crate::output::written(writeln!(std::io::stdout().lock(), $($arg)*))
    }};
}

/// `print!` as [`outln!`] is `println!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        $crate::output::written(write!(std::io::stdout().lock(), $($arg)*))
    }};
}

pub(crate) use {out, outln};

/// Stdout's reader went away before the command's output was written: a pipe into `head`, a
/// closed terminal. Only a write to stdout makes it, so a broken pipe anywhere else (a
/// database connection) is still reported as the error it is.
#[derive(Debug)]
pub(crate) struct ReaderGone;

impl std::fmt::Display for ReaderGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stdout was closed before the output was written")
    }
}

impl std::error::Error for ReaderGone {}

/// The result of a write to stdout, with a broken pipe as [`ReaderGone`].
pub(crate) fn written(result: std::io::Result<()>) -> Result<()> {
    match result {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Err(ReaderGone.into()),
        other => Ok(other?),
    }
}

/// Rules of one tool, counted by priority and state (the store's grouped count,
/// `ToolCounts`, with the tool's family).
#[derive(Debug, Serialize)]
pub(crate) struct ToolCount {
    tool_name: String,
    /// The tool's family (`shell`, `file_edit`, ...): its rules hold for every member, in
    /// every agent. `null` for a tool of no family.
    family: Option<&'static str>,
    /// Active rules by priority; neither proposed nor revoked.
    critical: usize,
    high: usize,
    normal: usize,
    /// Captured rules awaiting a person's confirmation (advice only until then).
    proposed: usize,
    /// Revoked rules, kept until deleted.
    revoked: usize,
    /// Every rule stored for the tool, in any state.
    total: usize,
}

impl ToolCount {
    pub(crate) fn new(counts: ToolCounts) -> ToolCount {
        ToolCount {
            family: active_memory_client::tool_family(&counts.tool_name)
                .map(|family| family.as_str()),
            critical: counts.critical,
            high: counts.high,
            normal: counts.normal,
            proposed: counts.proposed,
            revoked: counts.revoked,
            total: counts.total(),
            tool_name: counts.tool_name,
        }
    }
}

/// `text` with every character a terminal would act on written as a visible escape instead:
/// C0 and C1 controls and DEL (ESC starts every terminal control sequence; CR and backspace
/// overwrite what came before; a newline inside a table cell would fake a row) as `\n`, `\t`
/// or `\u{1b}`, and the bidirectional controls that reorder what is displayed (U+200E/F,
/// U+202A-E, U+2066-9, the "Trojan Source" characters) as `\u{202e}`. Borrowed when nothing
/// needs escaping, which is nearly always.
pub(crate) fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        match ch {
            '\n' => safe.push_str("\\n"),
            '\r' => safe.push_str("\\r"),
            '\t' => safe.push_str("\\t"),
            ch if needs_escape(ch) => {
                let _ = write!(safe, "\\u{{{:x}}}", u32::from(ch));
            }
            ch => safe.push(ch),
        }
    }
    Cow::Owned(safe)
}

/// Characters a terminal acts on or reorders rather than shows: controls, the line and
/// paragraph separators, and the bidirectional controls.
fn needs_escape(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Prints `value` as pretty JSON for `--json`, with every character [`needs_escape`] above
/// ASCII written as a `\u` escape: serde escapes the ASCII controls inside strings itself but
/// leaves C1 controls (a CSI among them) and the rest as they are. The value the JSON stands
/// for is exactly the same.
pub(crate) fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    outln!("{}", json_safe(&serde_json::to_string_pretty(value)?))?;
    Ok(())
}

/// [`print_json`]'s escaping of a JSON text.
pub(crate) fn json_safe(json: &str) -> Cow<'_, str> {
    if !json.chars().any(|ch| !ch.is_ascii() && needs_escape(ch)) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for ch in json.chars() {
        if !ch.is_ascii() && needs_escape(ch) {
            let mut units = [0u16; 2];
            for unit in ch.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

/// [`terminal_safe`] as an owned cell.
fn cell(text: &str) -> String {
    terminal_safe(text).into_owned()
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
        return print_json(rows);
    }
    if rows.is_empty() {
        outln!("no rules yet")?;
        return Ok(());
    }
    let mut out = table(&[
        "tool", "family", "critical", "high", "normal", "proposed", "revoked", "total",
    ]);
    for row in rows {
        out.add_row(vec![
            cell(&row.tool_name),
            row.family.unwrap_or("-").to_owned(),
            row.critical.to_string(),
            row.high.to_string(),
            row.normal.to_string(),
            row.proposed.to_string(),
            row.revoked.to_string(),
            row.total.to_string(),
        ]);
    }
    outln!("{out}")?;
    Ok(())
}

pub(crate) fn rules(rules: &[ToolMemoryRule], json: bool) -> Result<()> {
    if json {
        return print_json(rules);
    }
    if rules.is_empty() {
        outln!("no rules")?;
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
            cell(&rule.tool_name),
            cell(&rule.id),
            priority,
            rule.source.to_string(),
            cell(&rule.rule),
            rule.updated_at.to_string(),
        ]);
    }
    outln!("{out}")?;
    Ok(())
}

pub(crate) fn rule(rule: &ToolMemoryRule, json: bool) -> Result<()> {
    if json {
        print_json(rule)?;
    } else {
        rules(std::slice::from_ref(rule), false)?;
    }
    Ok(())
}

pub(crate) fn history(entries: &[HistoryEntry], json: bool) -> Result<()> {
    if json {
        return print_json(entries);
    }
    if entries.is_empty() {
        outln!("no history")?;
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
            (Some(kind), Some(session), Some(turn)) => {
                format!("{kind} ({}, turn {turn})", terminal_safe(session))
            }
            (Some(kind), Some(session), None) => format!("{kind} ({})", terminal_safe(session)),
            (Some("rpc"), _, _) => format!(
                "rpc {}",
                terminal_safe(origin["method"].as_str().unwrap_or_default())
            ),
            (Some(kind), _, _) => cell(kind),
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
            cell(&entry.rule_id),
            by,
            cell(&text),
        ]);
    }
    outln!("{out}")?;
    Ok(())
}

pub(crate) fn verdict(verdict: &Verdict, json: bool) -> Result<()> {
    if json {
        return print_json(verdict);
    }
    outln!(
        "{}: {}",
        verdict.decision.as_str(),
        terminal_safe(&verdict.reason)
    )?;
    for rule in &verdict.rules {
        outln!(
            "  rule {} [{}] {}",
            terminal_safe(&rule.id),
            rule.priority,
            terminal_safe(&rule.rule)
        )?;
    }
    for rule in &verdict.advice {
        outln!("  advice [{}] {}", rule.priority, terminal_safe(&rule.rule))?;
    }
    Ok(())
}

/// An import's report: a line for each input line that did more than what was asked of it
/// (everything but a plain create or update), then the totals.
pub(crate) fn import(report: &ImportReport, json: bool) -> Result<()> {
    if json {
        return print_json(report);
    }
    for line in &report.lines {
        let outcome = serde_json::to_value(line.outcome)?;
        let mut text = format!(
            "line {}: {}",
            line.line,
            outcome.as_str().unwrap_or_default()
        );
        if let (Some(tool), Some(id)) = (&line.tool_name, &line.id) {
            let _ = write!(text, " {}/{}", terminal_safe(tool), terminal_safe(id));
        }
        if !line.changes.is_empty() {
            let _ = write!(text, " ({})", terminal_safe(&line.changes.join("; ")));
        }
        if let Some(reason) = &line.reason {
            let _ = write!(text, ": {}", terminal_safe(reason));
        }
        let plain = matches!(
            line.outcome,
            ImportOutcome::Created | ImportOutcome::Updated
        ) && line.changes.is_empty();
        if !plain {
            outln!("{text}")?;
        }
    }
    let verb = if report.written {
        "imported"
    } else if report.invalid > 0 {
        "nothing imported, the file has lines that are not rules;"
    } else {
        "dry run, would import"
    };
    outln!(
        "{verb} {} new and {} updated rule(s); {} unchanged, {} refused, {} skipped, {} invalid",
        report.created,
        report.updated,
        report.unchanged,
        report.refused,
        report.skipped,
        report.invalid
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_reaches_the_terminal_raw() {
        let hostile = "a\u{1b}[31m\nb\u{202e}c\u{85}d\u{2028}e";
        assert_eq!(
            terminal_safe(hostile),
            "a\\u{1b}[31m\\nb\\u{202e}c\\u{85}d\\u{2028}e"
        );
        assert!(matches!(terminal_safe("plain text"), Cow::Borrowed(_)));
        // serde escapes C0 itself; the rest is escaped after, and the value is kept.
        let json = json_safe(&serde_json::to_string_pretty(&[hostile]).unwrap()).into_owned();
        assert!(
            !json.chars().any(|ch| needs_escape(ch) && ch != '\n'),
            "{json}"
        );
        assert_eq!(
            serde_json::from_str::<Vec<String>>(&json).unwrap(),
            [hostile]
        );
    }
}
