//! Adversarial class: hostile imports: a line that would weaken a stored rule is refused, an identical line is a no-op.
//!
//! Each case stores "Never email Sarah at sarah@example.com." as a critical rule, then imports
//! a line an attacker or a careless copy could hold, and asks the guard about an e-mail to
//! Sarah afterwards: the forbidden call must stay denied, and the import must say per line what
//! it refused.

use std::path::Path;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};

use crate::support::cli;

const SARAH: &str = "Never email Sarah at sarah@example.com.";

/// A database holding the critical Sarah rule; returns its exported line.
fn with_sarah(db: &Path) -> Result<Value> {
    let (code, out, err) = cli(
        db,
        &[
            "--json",
            "rule",
            "add",
            "send_email",
            SARAH,
            "--priority",
            "critical",
            "--id",
            "sarah",
        ],
        "",
    )?;
    ensure!(code == 0, "{err}");
    Ok(serde_json::from_str(&out)?)
}

/// The exit code of `toolmem check` for an e-mail to Sarah: 3 is deny.
fn check_sarah(db: &Path) -> Result<i32> {
    let (code, _, _) = cli(
        db,
        &["check", "send_email", r#"{"to":"sarah@example.com"}"#],
        "",
    )?;
    Ok(code)
}

fn import(db: &Path, lines: &[Value], extra: &[&str]) -> Result<(i32, Value)> {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let mut args = vec!["--json", "import"];
    args.extend_from_slice(extra);
    let (code, out, err) = cli(db, &args, &text)?;
    let report = serde_json::from_str(&out).with_context(|| format!("{out}\n{err}"))?;
    Ok((code, report))
}

fn history_len(db: &Path) -> Result<usize> {
    let (_, out, _) = cli(db, &["--json", "history", "send_email"], "")?;
    let entries: Vec<Value> = serde_json::from_str(&out)?;
    Ok(entries.len())
}

type Edit = fn(&mut serde_json::Map<String, Value>);

/// The stored line with `change` applied to it.
fn edited(stored: &Value, change: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Value {
    let mut line = stored.clone();
    change(line.as_object_mut().expect("a rule is an object"));
    line
}

#[test]
fn lines_that_weaken_a_critical_rule_are_refused_and_the_call_stays_denied() -> Result<()> {
    let hostile: [(&str, Edit); 4] = [
        ("an older copy that downgrades it", |line| {
            line.insert("priority".into(), json!("normal"));
            line.insert("updated_at".into(), json!("2020-01-01T00:00:00Z"));
            line.insert("created_at".into(), json!("2020-01-01T00:00:00Z"));
        }),
        ("a revoked_at field", |line| {
            line.insert("revoked_at".into(), json!("2030-01-01T00:00:00Z"));
            line.insert("updated_at".into(), json!("2030-01-01T00:00:00Z"));
        }),
        ("a hand-written constraint that neuters it", |line| {
            line.insert(
                "constraint".into(),
                json!({"matchers":[{"kind":"email","value":"nobody@example.com"}],"polarity":"forbid"}),
            );
            line.insert("constraint_explicit".into(), json!(true));
            line.insert("updated_at".into(), json!("2030-01-01T00:00:00Z"));
        }),
        ("an unconfirmed copy", |line| {
            line.insert("proposed".into(), json!(true));
            line.insert("updated_at".into(), json!("2030-01-01T00:00:00Z"));
        }),
    ];
    for (what, change) in hostile {
        let dir = tempfile::tempdir()?;
        let db = dir.path().join("rules.sqlite3");
        let stored = with_sarah(&db)?;
        ensure!(
            check_sarah(&db)? == 3,
            "{what}: not denied before the import"
        );
        let before = history_len(&db)?;
        let (code, report) = import(&db, &[edited(&stored, change)], &[])?;
        ensure!(code == 1, "{what}: exit {code}, {report}");
        ensure!(
            report["refused"] == 1 && report["lines"][0]["outcome"] == "refused",
            "{what}: {report}"
        );
        let reason = report["lines"][0]["reason"].as_str().unwrap_or_default();
        ensure!(reason.contains("--allow-weaken"), "{what}: {reason}");
        // (Before the check, which writes its own audit line.)
        ensure!(
            history_len(&db)? == before,
            "{what}: a refused line wrote history"
        );
        ensure!(check_sarah(&db)? == 3, "{what}: the import lifted the rule");

        // The flag is the one way through, and it says what it let through.
        let (code, report) = import(&db, &[edited(&stored, change)], &["--allow-weaken"])?;
        ensure!(code == 0 && report["updated"] == 1, "{what}: {report}");
        ensure!(
            check_sarah(&db)? != 3,
            "{what}: --allow-weaken wrote nothing"
        );
    }
    Ok(())
}

#[test]
fn a_new_rule_with_a_constraint_looser_than_its_text_is_refused() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("rules.sqlite3");
    let line = json!({
        "id": "sarah", "tool_name": "send_email", "rule": SARAH, "priority": "critical",
        "source": "user_explicit", "tags": [],
        "created_at": "2026-05-11T00:00:00Z", "updated_at": "2026-05-11T00:00:00Z",
        "constraint": {"matchers":[{"kind":"email","value":"nobody@example.com"}],"polarity":"forbid"},
        "constraint_explicit": true,
    });
    let (code, report) = import(&db, std::slice::from_ref(&line), &[])?;
    ensure!(code == 1 && report["refused"] == 1, "{report}");
    ensure!(check_sarah(&db)? == 0, "a refused line was stored");
    // Without the hand-written constraint the same line is stored, and enforced.
    let plain = edited(&line, |line| {
        line.remove("constraint");
        line.remove("constraint_explicit");
    });
    let (code, report) = import(&db, &[plain], &[])?;
    ensure!(code == 0 && report["created"] == 1, "{report}");
    ensure!(check_sarah(&db)? == 3);
    Ok(())
}

#[test]
fn the_same_export_twice_changes_nothing_and_repeated_ids_count_once() -> Result<()> {
    let dir = tempfile::tempdir()?;
    let source = dir.path().join("a.sqlite3");
    let target = dir.path().join("b.sqlite3");
    let stored = with_sarah(&source)?;
    let (code, report) = import(&target, &[stored.clone(), stored.clone()], &[])?;
    ensure!(code == 0, "{report}");
    ensure!(report["created"] == 1 && report["skipped"] == 1, "{report}");
    ensure!(
        report["lines"][1]["reason"] == "the same rule as line 1",
        "{report}"
    );
    let after_first = history_len(&target)?;
    let (code, report) = import(&target, std::slice::from_ref(&stored), &[])?;
    ensure!(code == 0 && report["unchanged"] == 1, "{report}");
    ensure!(
        history_len(&target)? == after_first,
        "an identical line wrote history"
    );

    // Two different copies of one rule: which is meant cannot be told, so neither is written.
    let newer = edited(&stored, |line| {
        line.insert("rule".into(), json!("Never email Sarah or Bob."));
        line.insert("updated_at".into(), json!("2030-01-01T00:00:00Z"));
    });
    let (code, report) = import(&target, &[newer.clone(), stored], &[])?;
    ensure!(code == 1 && report["refused"] == 2, "{report}");
    ensure!(check_sarah(&target)? == 3);
    Ok(())
}
