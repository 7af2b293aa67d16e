//! `toolmem doctor`: looks at the database without changing it (read-only, nothing migrated
//! or created), checks its schema version against this build's and SQLite's integrity, and
//! lists every stored rule this version cannot read, with what is wrong with it, what it does
//! to the guard meanwhile, and how to fix it. Exits 0 when healthy, 2 when it found a problem
//! (1, through the usual error path, when it could not look at all).
//!
//! Everything it prints from the database (tool names, ids, integrity messages) goes through
//! [`printable`] first, in the JSON form too: a damaged row may hold terminal escapes, line
//! breaks or bidirectional overrides where its name belongs.

use std::fmt::Write as _;
use std::process::ExitCode;

use active_memory_client::{
    Inspection, PostgresOptions, UNSCOPED_TOOL, UnreadableRow, inspect_postgres, inspect_sqlite,
};
use anyhow::{Result, bail};
use serde::Serialize;

use crate::db_path::Database;

/// The exit code when the database has a problem: distinct from 1, which says that doctor
/// could not look at it.
const PROBLEM_EXIT: u8 = 2;

/// Inspects `db` and prints the report; see the module documentation.
pub(crate) async fn run(db: &Database, json: bool, postgres: PostgresOptions) -> Result<ExitCode> {
    let inspection = match db {
        Database::Sqlite(path) => {
            if !path.exists() {
                bail!(
                    "no database at {}: toolmem creates it when it first opens it",
                    path.display()
                );
            }
            let path = path.clone();
            tokio::task::spawn_blocking(move || inspect_sqlite(path)).await??
        }
        Database::Postgres(url) => inspect_postgres(url, postgres).await?,
    };
    let report = Report::new(db, &inspection);
    if json {
        println!("{}", escape_json(&serde_json::to_string_pretty(&report)?));
    } else {
        print!("{}", report.text());
    }
    Ok(if inspection.is_healthy() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(PROBLEM_EXIT)
    })
}

/// What doctor found, in the form both outputs are made from. Values from the database are
/// kept as they are here; each output escapes them its own way.
#[derive(Debug, Serialize)]
struct Report {
    database: String,
    healthy: bool,
    schema: Schema,
    /// SQLite's integrity check, its lines other than `ok`.
    integrity: Vec<String>,
    /// Rule rows read; `null` when the schema is one whose rows this build does not read.
    readable: Option<usize>,
    unreadable: Vec<Finding>,
}

#[derive(Debug, Serialize)]
struct Schema {
    found: i64,
    supported: i64,
    state: &'static str,
    /// One sentence on what the state means.
    note: String,
}

/// An unreadable row and what to do about it.
#[derive(Debug, Serialize)]
struct Finding {
    tool_name: String,
    id: String,
    reason: String,
    /// What the row does to the guard until it is fixed.
    effect: String,
    fix: String,
}

impl Report {
    fn new(db: &Database, inspection: &Inspection) -> Report {
        let (found, supported) = (inspection.schema_found, inspection.schema_supported);
        let (state, note) = if found > supported {
            (
                "newer",
                format!(
                    "a newer toolmem upgraded the database to schema {found}; this one (schema {supported}) refuses to read or write it: upgrade toolmem"
                ),
            )
        } else if found == supported {
            ("current", "the schema this toolmem writes".to_owned())
        } else if found == 0 {
            (
                "empty",
                "not set up yet: toolmem creates its schema when it first opens the file"
                    .to_owned(),
            )
        } else if found > 0 {
            let rows = if inspection.readable.is_some() {
                ""
            } else {
                "; its rows are checked once it is upgraded: run doctor again then"
            };
            (
                "older",
                format!(
                    "older than this toolmem's ({supported}): upgraded when this toolmem first opens it{rows}"
                ),
            )
        } else {
            (
                "unknown",
                format!("schema version {found} was not written by toolmem"),
            )
        };
        Report {
            database: db.describe(),
            healthy: inspection.is_healthy(),
            schema: Schema {
                found,
                supported,
                state,
                note,
            },
            integrity: inspection.integrity.clone(),
            readable: inspection.readable,
            unreadable: inspection
                .unreadable
                .iter()
                .map(|row| Finding::new(db, row))
                .collect(),
        }
    }

    /// The human form.
    fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "database: {}", printable(&self.database));
        let _ = writeln!(
            out,
            "schema: version {} ({}): {}",
            self.schema.found, self.schema.state, self.schema.note
        );
        if self.integrity.is_empty() {
            let _ = writeln!(out, "integrity: ok");
        } else {
            for line in &self.integrity {
                let _ = writeln!(out, "integrity: {}", printable(line));
            }
        }
        match self.readable {
            Some(readable) => {
                let _ = writeln!(
                    out,
                    "rules: {readable} readable, {} unreadable",
                    self.unreadable.len()
                );
            }
            None => {
                let _ = writeln!(out, "rules: not checked");
            }
        }
        for finding in &self.unreadable {
            let _ = writeln!(
                out,
                "\nunreadable rule {} on tool {}",
                printable(&finding.id),
                printable(&finding.tool_name)
            );
            let _ = writeln!(out, "  problem: {}", printable(&finding.reason));
            let _ = writeln!(out, "  meanwhile: {}", finding.effect);
            let _ = writeln!(out, "  fix: {}", finding.fix);
        }
        let problems = usize::from(self.schema.state == "newer" || self.schema.state == "unknown")
            + usize::from(!self.integrity.is_empty())
            + self.unreadable.len();
        if problems == 0 {
            let _ = writeln!(out, "\ndoctor: no problem found");
        } else {
            let plural = if problems == 1 { "" } else { "s" };
            let _ = writeln!(out, "\ndoctor: {problems} problem{plural} found");
        }
        out
    }
}

impl Finding {
    fn new(db: &Database, row: &UnreadableRow) -> Finding {
        let tool = printable(&row.tool_name);
        let effect = if row.tool_name == UNSCOPED_TOOL {
            "it applies to every tool, so every check asks for confirmation".to_owned()
        } else {
            format!("every check of {tool} asks for confirmation")
        };
        let database = match db {
            Database::Sqlite(path) => format!("--db {} ", shell_word(&path.display().to_string())),
            // The URL may hold a password; the user knows which database they named.
            Database::Postgres(_) => String::new(),
        };
        let fix = format!(
            "if a newer toolmem wrote it, upgrade this one (or use that one); otherwise remove it with `toolmem {database}rule rm {} {}` and add the rule again",
            shell_word(&row.tool_name),
            shell_word(&row.id),
        );
        Finding {
            tool_name: row.tool_name.clone(),
            id: row.id.clone(),
            reason: row.reason.clone(),
            effect,
            fix,
        }
    }
}

/// Text from the database, safe to print: control characters, line and paragraph separators
/// and bidirectional controls escaped (`\u{1b}`), so nothing it holds reaches the terminal as
/// anything but visible text.
fn printable(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if is_invisible(c) {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Characters a terminal acts on or reorders rather than shows.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` as one shell word: as it is when it holds only characters no shell treats
/// specially, in single quotes otherwise; escaped for the terminal either way.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", printable(&text.replace('\'', r"'\''")))
    }
}

/// The JSON text with every character [`is_invisible`] above ASCII written as a `\u` escape:
/// serde escapes ASCII controls inside strings itself (the ones left are the layout's own
/// line breaks) but leaves C1 controls and the rest as they are. The value the JSON stands for
/// is the same.
fn escape_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if !c.is_ascii() && is_invisible(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_from_the_database_reaches_the_terminal_raw() {
        let hostile = "a\u{1b}[31m\nb\u{202e}c\u{85}d";
        assert_eq!(printable(hostile), "a\\u{1b}[31m\\u{a}b\\u{202e}c\\u{85}d");
        assert_eq!(shell_word("send_email"), "send_email");
        assert_eq!(shell_word("it's here"), r"'it'\''s here'");
        assert_eq!(shell_word(""), "''");
        // serde escapes C0 itself; the rest is escaped after, and the value is kept.
        let json = escape_json(&serde_json::to_string_pretty(&[hostile]).unwrap());
        assert!(
            !json.chars().any(|c| is_invisible(c) && c != '\n'),
            "{json}"
        );
        assert_eq!(
            serde_json::from_str::<Vec<String>>(&json).unwrap(),
            [hostile]
        );
    }
}
