//! Adversarial class: control bytes and terminal escapes in rule text never reach a terminal raw from the CLI's human-readable output.
//!
//! A rule's text, id, tags and history come from whoever wrote the rule: a captured turn, an
//! import, another program. Terminal control sequences in them (a window-title change, a
//! screen clear, a cursor move that hides a line, a bidirectional override) must reach a
//! person's terminal as visible escapes; `--json` keeps the exact value.

use std::path::Path;

use anyhow::{Result, ensure};
use serde_json::Value;

use crate::support::cli;

/// An OSC title change, a screen clear, a carriage return over the line, a backspace, a C1
/// CSI, DEL and a right-to-left override.
const HOSTILE: &str =
    "\u{1b}]0;pwned\u{7}never \u{1b}[2Jrun\r rm -rf /\u{8} \u{9b}31m\u{7f}\u{202e}txt.exe";

fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|ch| (ch.is_control() && *ch != '\n') || ('\u{202a}'..='\u{202e}').contains(ch))
        .collect()
}

fn check_clean(what: &str, out: &str) -> Result<()> {
    let raw = raw_controls(out);
    ensure!(raw.is_empty(), "{what} printed raw {raw:?}: {out:?}");
    Ok(())
}

fn run(db: &Path, args: &[&str]) -> Result<String> {
    let (code, out, err) = cli(db, args, "")?;
    ensure!(code == 0, "{args:?}: {err}");
    check_clean(&format!("{args:?} (stderr)"), &err)?;
    Ok(out)
}

#[test]
fn human_output_escapes_control_bytes_and_json_keeps_them() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let out = run(
        &db,
        &[
            "rule",
            "add",
            "bash",
            HOSTILE,
            "--id",
            "r1",
            "--priority",
            "critical",
        ],
    )?;
    check_clean("rule add", &out)?;
    ensure!(
        out.contains("\\u{1b}]0;pwned"),
        "the text is not shown escaped: {out}"
    );
    for args in [
        &["rule", "list", "bash"][..],
        &["rule", "get", "bash", "r1"],
        &["history", "bash"],
        &["recall", "bash", "run"],
        &["check", "bash", r#"{"command":"ls"}"#],
        &["tools"],
    ] {
        let out = run(&db, args)?;
        check_clean(&format!("{args:?}"), &out)?;
    }
    // An error that quotes the writer's text is escaped too.
    let (_, _, err) = cli(&db, &["rule", "get", "bash", "no\u{1b}[2Jsuch"], "")?;
    check_clean("an error", &err)?;

    let out = run(&db, &["--json", "rule", "get", "bash", "r1"])?;
    let rule: Value = serde_json::from_str(&out)?;
    ensure!(rule["rule"] == HOSTILE, "--json changed the text: {rule}");
    Ok(())
}
