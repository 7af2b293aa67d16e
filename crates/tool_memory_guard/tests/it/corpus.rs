//! Measures the guard on the labelled corpus in `tests/fixtures/guard/*.jsonl` and fails below
//! the agreed floor or on any strong-literal case that is allowed. Run
//! `cargo test -p tool_memory_guard --test it -- --nocapture corpus` to see the metrics line
//! and every disagreement.

use std::path::Path;

use anyhow::{Context, Result, ensure};
use tool_memory_guard::{CorpusCase, Decision, evaluate, parse_corpus};

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/guard");

const MIN_ACCURACY: f64 = 0.95;
const MIN_CASES: usize = 300;

pub(crate) fn load_corpus() -> Result<Vec<CorpusCase>> {
    load_dir(CORPUS_DIR)
}

/// Every case in the `*.jsonl` files of `dir`, in file-name order; the guard's own corpus and
/// the real-text one are read alike.
#[expect(
    clippy::disallowed_methods,
    reason = "the labelled corpora live in files under tests/fixtures"
)]
pub(crate) fn load_dir(dir: &str) -> Result<Vec<CorpusCase>> {
    let mut paths: Vec<_> = std::fs::read_dir(Path::new(dir))
        .with_context(|| format!("reading {dir}"))?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    paths.retain(|path| path.extension().is_some_and(|ext| ext == "jsonl"));
    paths.sort();
    let mut cases = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path)?;
        cases.extend(parse_corpus(&text).with_context(|| path.display().to_string())?);
    }
    Ok(cases)
}

#[test]
fn corpus_meets_the_accuracy_floor_without_strong_misses() -> Result<()> {
    let cases = load_corpus()?;
    let mut ids: Vec<&str> = cases.iter().map(|case| case.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    ensure!(ids.len() == before, "corpus case ids must be unique");

    let report = evaluate(&cases);
    println!("{}", report.summary_line());
    for miss in &report.disagreements {
        println!(
            "  {}: expected {}, got {} ({}){}",
            miss.id,
            miss.expected.as_str(),
            miss.actual.as_str(),
            miss.reason,
            miss.note
                .as_deref()
                .map(|note| format!(" -- {note}"))
                .unwrap_or_default()
        );
    }
    ensure!(
        report.cases >= MIN_CASES,
        "corpus has {} cases, want at least {MIN_CASES}",
        report.cases
    );
    ensure!(
        report.strong_misses == 0,
        "{} strong-literal cases were allowed",
        report.strong_misses
    );
    ensure!(
        report.accuracy() >= MIN_ACCURACY,
        "accuracy {:.3} < {MIN_ACCURACY}",
        report.accuracy()
    );
    Ok(())
}

#[test]
fn corpus_covers_every_decision_and_domain() -> Result<()> {
    let cases = load_corpus()?;
    for decision in [Decision::Allow, Decision::Confirm, Decision::Deny] {
        let count = cases.iter().filter(|case| case.expect == decision).count();
        ensure!(
            count >= 30,
            "only {count} cases expect {}",
            decision.as_str()
        );
    }
    for prefix in [
        "email-",
        "shell-",
        "git-",
        "browser-",
        "files-",
        "calendar-",
        "payments-",
        "messaging-",
    ] {
        let count = cases
            .iter()
            .filter(|case| case.id.starts_with(prefix))
            .count();
        ensure!(count >= 20, "only {count} {prefix} cases");
    }
    Ok(())
}
