//! `toolmem doctor`: looks at the database without changing it (read-only, nothing migrated
//! or created), checks its schema version against this build's and SQLite's integrity, and
//! lists every stored rule this version cannot read, with what is wrong with it, what it does
//! to the guard meanwhile, and how to fix it. Exits 0 when healthy, 2 when it found a problem
//! (1, through the usual error path, when it could not look at all).
//!
//! Everything it prints from the database (tool names, ids, integrity messages) goes through
//! [`output::terminal_safe`] (and `--json` through
//! [`output::print_json`]) first, in the JSON form too: a damaged row may hold terminal escapes, line
//! breaks or bidirectional overrides where its name belongs.

use std::fmt::Write as _;
use std::process::ExitCode;

use active_memory_client::{Inspection, UNSCOPED_TOOL, UnreadableRow};
use anyhow::{Result, bail};
use serde::Serialize;

use crate::db_path::{Database, PostgresSettings};
use crate::output::{self, out, terminal_safe};

/// The exit code when the database has a problem: distinct from 1, which says that doctor
/// could not look at it.
const PROBLEM_EXIT: u8 = 2;

/// Inspects `db` and prints the report; see the module documentation.
pub(crate) async fn run(db: &Database, json: bool, postgres: PostgresSettings) -> Result<ExitCode> {
    if let Database::Sqlite(path) = db
        && !path.exists()
    {
        bail!(
            "no database at {}: toolmem creates it when it first opens it",
            path.display()
        );
    }
    let inspection = db.inspect(postgres).await?;
    let report = Report::new(db, &inspection);
    if json {
        output::print_json(&report)?;
    } else {
        out!("{}", report.text())?;
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
        let _ = writeln!(out, "database: {}", terminal_safe(&self.database));
        let _ = writeln!(
            out,
            "schema: version {} ({}): {}",
            self.schema.found, self.schema.state, self.schema.note
        );
        if self.integrity.is_empty() {
            let _ = writeln!(out, "integrity: ok");
        } else {
            for line in &self.integrity {
                let _ = writeln!(out, "integrity: {}", terminal_safe(line));
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
                terminal_safe(&finding.id),
                terminal_safe(&finding.tool_name)
            );
            let _ = writeln!(out, "  problem: {}", terminal_safe(&finding.reason));
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
        let tool = terminal_safe(&row.tool_name);
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
        format!("'{}'", terminal_safe(&text.replace('\'', r"'\''")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_are_quoted_and_escaped() {
        assert_eq!(shell_word("send_email"), "send_email");
        assert_eq!(shell_word("it's here"), r"'it'\''s here'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("a\u{1b}[2J"), "'a\\u{1b}[2J'");
    }
}
