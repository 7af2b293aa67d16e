//! Measures capture on the labelled corpus in `tests/fixtures/capture/*.jsonl` and fails below
//! the agreed floors. Run `cargo test -p tool_memory_capture --test it -- --nocapture corpus`
//! to see the metrics line and every disagreement.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use tool_memory_capture::{CorpusCase, evaluate, parse_corpus};

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/capture");

const MIN_PRECISION: f64 = 0.97;
const MIN_RECALL: f64 = 0.95;
const MIN_ATTRIBUTION: f64 = 0.95;
const MIN_TURNS: usize = 300;
const MIN_REVOCATION_PRECISION: f64 = 0.97;
const MIN_REVOCATION_RECALL: f64 = 0.95;
const MIN_REVOCATION_TURNS: usize = 60;
/// Cases that label what pasted material may propose (`expect_proposed`).
const MIN_PROPOSAL_TURNS: usize = 40;

fn load_corpus() -> Result<Vec<CorpusCase>> {
    let mut cases = Vec::new();
    for (path, text) in jsonl_files(CORPUS_DIR)? {
        cases.extend(parse_corpus(&text).with_context(|| path.display().to_string())?);
    }
    Ok(cases)
}

/// The `*.jsonl` files of `dir` with their text, in file-name order; both corpora are read so.
#[expect(
    clippy::disallowed_methods,
    reason = "the labelled corpora live in files under tests/fixtures"
)]
pub(crate) fn jsonl_files(dir: &str) -> Result<Vec<(PathBuf, String)>> {
    let mut paths: Vec<_> = std::fs::read_dir(Path::new(dir))
        .with_context(|| format!("reading {dir}"))?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    paths.retain(|path| path.extension().is_some_and(|ext| ext == "jsonl"));
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            Ok((path, text))
        })
        .collect()
}

#[test]
fn corpus_meets_precision_recall_and_attribution_floors() -> Result<()> {
    let cases = load_corpus()?;
    let mut ids: Vec<&str> = cases.iter().map(|case| case.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    ensure!(ids.len() == before, "corpus case ids must be unique");

    let report = evaluate(&cases);
    println!("{}", report.summary_line());
    for miss in &report.misses {
        println!("  {miss:?}");
    }
    ensure!(
        report.turns >= MIN_TURNS,
        "corpus has {} turns, want at least {MIN_TURNS}",
        report.turns
    );
    ensure!(
        report.precision() >= MIN_PRECISION,
        "precision {:.3} < {MIN_PRECISION}",
        report.precision()
    );
    ensure!(
        report.recall() >= MIN_RECALL,
        "recall {:.3} < {MIN_RECALL}",
        report.recall()
    );
    ensure!(
        report.attribution() >= MIN_ATTRIBUTION,
        "attribution {:.3} < {MIN_ATTRIBUTION}",
        report.attribution()
    );
    ensure!(
        report.revocation_cases >= MIN_REVOCATION_TURNS,
        "corpus has {} revocation turns, want at least {MIN_REVOCATION_TURNS}",
        report.revocation_cases
    );
    ensure!(
        report.revocation_precision() >= MIN_REVOCATION_PRECISION,
        "revocation precision {:.3} < {MIN_REVOCATION_PRECISION}",
        report.revocation_precision()
    );
    ensure!(
        report.revocation_recall() >= MIN_REVOCATION_RECALL,
        "revocation recall {:.3} < {MIN_REVOCATION_RECALL}",
        report.revocation_recall()
    );
    ensure!(
        report.proposal_cases >= MIN_PROPOSAL_TURNS
            && report.proposal_cases_passed == report.proposal_cases,
        "material proposals: {} of {} cases match, want all of at least {MIN_PROPOSAL_TURNS}",
        report.proposal_cases_passed,
        report.proposal_cases
    );
    ensure!(
        report.failure_cases > 0 && report.failure_cases_passed == report.failure_cases,
        "repeated-failure cases: {} of {} pass",
        report.failure_cases_passed,
        report.failure_cases
    );
    Ok(())
}

/// Fails unless `positives` and `negatives` are within a factor of 1.5 of each other.
fn check_balance(what: &str, positives: usize, negatives: usize) -> Result<()> {
    ensure!(
        negatives * 3 >= positives * 2 && positives * 3 >= negatives * 2,
        "{positives} turns with {what} vs {negatives} without"
    );
    Ok(())
}

#[test]
fn corpus_has_negatives_in_roughly_equal_measure() -> Result<()> {
    let cases = load_corpus()?;
    // Revocation cases are balanced on their own below; their `expect` is mostly empty.
    let (revocations, edicts): (Vec<&CorpusCase>, Vec<&CorpusCase>) =
        cases.iter().partition(|case| !case.existing.is_empty());
    let without_edicts = edicts.iter().filter(|case| case.expect.is_empty()).count();
    check_balance("edicts", edicts.len() - without_edicts, without_edicts)?;
    let near_misses = revocations
        .iter()
        .filter(|case| case.expect_revoked.is_empty())
        .count();
    check_balance("revocations", revocations.len() - near_misses, near_misses)
}
