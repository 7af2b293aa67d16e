//! The guard on rules written the way people write them in CLAUDE.md, AGENTS.md, GEMINI.md,
//! `.cursor/rules` and pasted turns (markdown, bold, code spans, lists), stored as critical, and
//! on calls in each agent's own argument shapes (`tests/fixtures/real_text/*.jsonl`). Prints
//! the accuracy, the forbidden calls that were allowed and the harmless calls that were
//! blocked, and fails past the ratchet floors. Run
//! `cargo test -p tool_memory_guard --test it -- --nocapture real_text` to see every miss.

use anyhow::{Result, ensure};
use tool_memory_guard::{CorpusCase, CorpusReport, Decision, evaluate};

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_text");

// Ratchet floors, at the figures last measured. When the corpus was written: accuracy 0.744,
// 74 forbidden calls allowed, 13 calls to ask about allowed, 12 harmless calls blocked; with
// session 28's second round (987 calls, fresh_r2.jsonl added): 0.999, none of each; with
// session 29's third round (1,270 calls, fresh_r3.jsonl added): 0.999 (one miss), none of
// each; with its fourth round (1,328 calls, fresh_r4.jsonl added): 0.997, none of each. The
// accuracy floor went from 0.999 to 0.996 then, and only because the corpus grew by cases
// written to be unread: `r4-s1-handsoff-1`, `r4-s1-mine-1` and `r4x-s1-hr-1` are bans the
// grammar does not read, whose fail-safe answer is to ask (see docs/guard.md), where their
// truth is deny. With its fifth round (1,403 calls, fresh_r5 and fresh_r5x added): 0.996 (five misses:
// the four before and `r5-f1-pulumi-1`, a flag required by "only with" that asks where the label
// says deny), none of each. With its sixth round (session 30, 1,453 calls, fresh_r6 added,
// whose first run missed 26 of its 51; 1,455 with two written after a fix): 0.9966 (the same five misses, all asks where the
// label says deny), none of each. With its seventh round (1,547 calls, fresh_r7 added, whose
// first run missed 48 of its 106; its 14 still missed are under `open/`, with ceilings of their
// own): 0.997, none of each. With its eighth round (1,605 calls, fresh_r8 added, whose first
// run missed 10 of its 66; its 7 still missed are under `open/`): 0.996 (the five asks-for-deny
// and two more of the span fail-safe, `r8-pub-2` and `r8-pulumi-1`), none of each. With its
// ninth round (1,672 calls, fresh_r9 added, whose first run missed 35 of its 65; its 2 still
// missed are under `open/`): 0.996, none of each. With session 31's tenth round (1,740 calls,
// fresh_r10 added, whose first run missed 35 of its 83; its 14 still missed are under
// `open/`): 0.9966, none of each (`r7-h2-ref-6` relabelled deny by that round's K5). With its
// eleventh round (1,814 calls, fresh_r11 added, whose first run missed 30 of its 65; its 6
// still missed are under `open/`, and 14 cases of rounds 7-10 came back from there): 0.997,
// none of each. With its twelfth round (1,910 calls, fresh_r12 added, whose first run missed
// 65 of its 104; its 8 still missed are under `open/`): 0.997, none of each. With its
// thirteenth round (1,995 calls, fresh_r13 added, whose first run missed 44 of its 103; its 18
// still missed are under `open/`): 0.997, none of each. With its fourteenth round (2,072 calls,
// fresh_r14 added, whose first run missed 28 of its 73; its 14 still missed are under `open/`):
// 0.997, none of each. With session 32's fifteenth round (2,230 calls, fresh_r15 added,
// whose first run missed 32 of its first 82; none is left, and 21 cases of rounds 7-14 came
// back from `open/`): 0.998 (the four asks-for-deny and `cl-hands-off-1`; `r8-pub-2` is now
// denied), none of each. With its sixteenth round (2,293 calls, fresh_r16 added, whose first
// run missed 20 of its 63; none is left): 0.998 (the same five), none of each. Raise them
// as the guard improves, never lower them.
/// Share of calls decided as labelled.
const MIN_ACCURACY: f64 = 0.997;
/// Forbidden calls allowed: the failure that matters most, so none.
const MAX_ALLOWED_FORBIDDEN: usize = 0;
/// Calls to ask about that were allowed.
const MAX_ALLOWED_CONFIRM: usize = 0;
/// Harmless calls that were denied or asked about.
const MAX_BLOCKED_HARMLESS: usize = 0;
const MIN_RULES: usize = 680;
const MIN_CALLS: usize = 2_293;

fn load() -> Result<Vec<CorpusCase>> {
    crate::corpus::load_dir(CORPUS_DIR)
}

/// A count within its ceiling. (A function, so that a ceiling of zero reads like the others.)
fn at_most(count: usize, ceiling: usize) -> bool {
    count <= ceiling
}

/// The misses of a report labelled `expected` whose verdict `actual` accepts.
fn misses(report: &CorpusReport, expected: Decision, actual: fn(Decision) -> bool) -> usize {
    report
        .disagreements
        .iter()
        .filter(|miss| miss.expected == expected && actual(miss.actual))
        .count()
}

/// Prints every miss of a report, one a line.
fn print_misses(report: &CorpusReport) {
    for miss in &report.disagreements {
        println!(
            "  {}: expected {}, got {} ({})",
            miss.id,
            miss.expected.as_str(),
            miss.actual.as_str(),
            miss.reason
        );
    }
}

#[test]
fn real_text_meets_the_floors() -> Result<()> {
    let cases = load()?;
    let mut ids: Vec<&str> = cases.iter().map(|case| case.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    ensure!(ids.len() == before, "real-text case ids must be unique");
    let mut rules: Vec<&str> = cases
        .iter()
        .flat_map(|case| case.rules.iter().map(|rule| rule.rule.as_str()))
        .collect();
    rules.sort_unstable();
    rules.dedup();
    ensure!(
        rules.len() >= MIN_RULES,
        "{} rules, want {MIN_RULES}",
        rules.len()
    );
    ensure!(
        cases.len() >= MIN_CALLS,
        "{} calls, want {MIN_CALLS}",
        cases.len()
    );

    let report = evaluate(&cases);
    let allowed_forbidden = misses(&report, Decision::Deny, |actual| actual == Decision::Allow);
    let allowed_confirm = misses(&report, Decision::Confirm, |actual| {
        actual == Decision::Allow
    });
    let blocked_harmless = misses(&report, Decision::Allow, |actual| actual != Decision::Allow);
    println!(
        "guard real text: {} rules, {} calls, accuracy {:.3}, forbidden calls allowed {}, \
         confirm calls allowed {}, harmless calls blocked {}",
        rules.len(),
        report.cases,
        report.accuracy(),
        allowed_forbidden,
        allowed_confirm,
        blocked_harmless
    );
    print_misses(&report);
    ensure!(
        at_most(allowed_forbidden, MAX_ALLOWED_FORBIDDEN),
        "{allowed_forbidden} forbidden calls were allowed (at most {MAX_ALLOWED_FORBIDDEN})"
    );
    ensure!(
        at_most(allowed_confirm, MAX_ALLOWED_CONFIRM),
        "{allowed_confirm} calls to ask about were allowed (at most {MAX_ALLOWED_CONFIRM})"
    );
    ensure!(
        at_most(blocked_harmless, MAX_BLOCKED_HARMLESS),
        "{blocked_harmless} harmless calls were blocked (at most {MAX_BLOCKED_HARMLESS})"
    );
    ensure!(
        report.accuracy() >= MIN_ACCURACY,
        "accuracy {:.3} < {MIN_ACCURACY}",
        report.accuracy()
    );
    Ok(())
}

/// Cases of a fresh round still missed when the round ended (`real_text/open/`), kept as
/// labelled and out of the closed corpus's floors until fixed; their ceilings are the figures
/// at the end of round 7 (4, 1, 9) with round 8's left cases added (4, 1, 3) and round 8's
/// fixes taken out (`r7-h7-verb-2`, `r8-redis-1`: a value-taking option in a span;
/// `r8-fly-1/2`: runners that put secrets around a program), with round 9's first run added
/// (28, 4, 1: the 35 of fresh_r9's 65 it missed) and round 9's fixes taken out (J1 elided
/// paths and home spellings, J2 assignments, J3 slash lists and arrows, J9 asks, J10/J11
/// aliases, J4 pronoun orders, J6/J7 whole-tool bans and channels, J8 'Only SELECTs', J11 vercel's target),
/// with round 10's left cases added (11, 1, 2: K3 declared aliases, K6 script-name patterns,
/// K8 find -delete and buildx, K9 registry globs), with round 11's first run's left cases added
/// (0, 0, 4 after it: L9 new migration files, L10 spark's alternatives, L11 a DM id) and its
/// closing of K6, K8, K9, J1, J8 and H9 cases taken out, and only go down. A fixed case moves back to its round's file.
#[test]
fn real_text_open_cases_stay_within_their_ceilings() -> Result<()> {
    const OPEN_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_text/open");
    // Rounds 7 to 10's share, then round 11's (`fresh_r11_open.jsonl`).
    // Round 12 (`fresh_r12_open.jsonl`) added 2 forbidden calls allowed (a bucket as the
    // destination of `gsutil cp`, a container running terraform) and 5 asks allowed (P2's
    // word fail-safe, `ext-*` channels, PGHOST and a variable named for prod).
    // Round 13 (`fresh_r13_open.jsonl`) added 1 forbidden call allowed (`dbt build --target
    // prod` under a passive requirement), 2 asks allowed (an inventory named by the rule) and
    // 14 harmless calls blocked (V4's print order, V5's scopes, V6, V8's lists in prose).
    // Round 14 closed V8, V6 and V5 of round 13 (1 forbidden call allowed, 2 asks allowed, 13
    // harmless calls blocked; its V4 `r13-v4-print-6` is left), round 12's container running
    // terraform (1 forbidden call allowed) and one more harmless call of the rounds before,
    // and adds what its own first run missed and it has not closed yet
    // (`fresh_r14_open.jsonl`): 2, 7 and 5.
    // Round 15 closed round 14's exception by dry run, channel globs, environment-named
    // targets, print orders and the fail-safe of program and subcommand (2 forbidden calls
    // allowed, 7 asks allowed, 4 harmless calls blocked), round 13's print order and round
    // 12's `ext-*` channels and PGHOST / variable named for prod (4 asks allowed, 1 harmless
    // call blocked), round 8's `r8-pub-1` and round 7's `r7-h3-ask-2` (2 harmless calls
    // blocked); its own first run's misses are all closed (no `fresh_r15_open.jsonl`).
    // Round 16's first run's misses are all closed (no `fresh_r16_open.jsonl`).
    const MAX_OPEN_ALLOWED_FORBIDDEN: usize = 7;
    const MAX_OPEN_ALLOWED_CONFIRM: usize = 3;
    const MAX_OPEN_BLOCKED_HARMLESS: usize = 14;
    let cases = crate::corpus::load_dir(OPEN_DIR)?;
    let report = evaluate(&cases);
    let allowed_forbidden = misses(&report, Decision::Deny, |actual| actual == Decision::Allow);
    let allowed_confirm = misses(&report, Decision::Confirm, |actual| {
        actual == Decision::Allow
    });
    let blocked_harmless = misses(&report, Decision::Allow, |actual| actual != Decision::Allow);
    println!(
        "guard real text (open cases): {} calls, accuracy {:.3}, forbidden calls allowed {}, \
         confirm calls allowed {}, harmless calls blocked {}",
        report.cases,
        report.accuracy(),
        allowed_forbidden,
        allowed_confirm,
        blocked_harmless
    );
    print_misses(&report);
    ensure!(
        at_most(allowed_forbidden, MAX_OPEN_ALLOWED_FORBIDDEN),
        "{allowed_forbidden} open forbidden calls were allowed (at most {MAX_OPEN_ALLOWED_FORBIDDEN})"
    );
    ensure!(
        at_most(allowed_confirm, MAX_OPEN_ALLOWED_CONFIRM),
        "{allowed_confirm} open calls to ask about were allowed (at most {MAX_OPEN_ALLOWED_CONFIRM})"
    );
    ensure!(
        at_most(blocked_harmless, MAX_OPEN_BLOCKED_HARMLESS),
        "{blocked_harmless} open harmless calls were blocked (at most {MAX_OPEN_BLOCKED_HARMLESS})"
    );
    Ok(())
}

/// Prints what the guard reads from each rule of the corpus, for working on the grammar:
/// `cargo test -p tool_memory_guard --test it -- --ignored --nocapture real_text_derivations`.
#[test]
#[ignore = "prints the derivations; it asserts nothing"]
fn real_text_derivations() -> Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    for case in load()? {
        for rule in &case.rules {
            if seen.insert((rule.tool_name.clone(), rule.rule.clone())) {
                let constraint = tool_memory_guard::derive_from_text(&rule.rule, &rule.tool_name);
                println!(
                    "{:?} on {} -> {}",
                    rule.rule,
                    rule.tool_name,
                    constraint.map_or_else(|| "advice".to_owned(), |c| c.to_json())
                );
            }
        }
    }
    Ok(())
}

/// The real-text corpus of issue 21 at the workspace root (`tests/fixtures/real_text/guard`,
/// written before the guard's own and validated by its `check.py`), measured the same way
/// here, straight on the guard (the facade gives each tool its family's rules, which the
/// guard's family index does alike). Its ratchet floors are the figures last measured; its
/// misses, each printed, are classes the grammar does not read yet (see docs/guard.md).
#[test]
fn real_text_of_the_shared_corpus_meets_its_floors() -> Result<()> {
    const SHARED_DIR: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real_text/guard"
    );
    /// Measured at the end of session 29's fourth guard round (0.914, 12: the fail-safe asks
    /// where it allowed); 0.768 and 60 at session 28's start, 0.884 and 21 after its first
    /// round, 0.906 and 17 after its second, 0.917 and 13 after session 29's third; 0.983
    /// and 0 after session 30's sixth round.
    const MIN_SHARED_ACCURACY: f64 = 0.98;
    const MAX_SHARED_ALLOWED_FORBIDDEN: usize = 0;
    let cases = crate::corpus::load_dir(SHARED_DIR)?;
    let report = evaluate(&cases);
    let allowed_forbidden = misses(&report, Decision::Deny, |actual| actual == Decision::Allow);
    println!(
        "guard real text (shared corpus): {} calls, accuracy {:.3}, forbidden calls allowed {}",
        report.cases,
        report.accuracy(),
        allowed_forbidden
    );
    print_misses(&report);
    ensure!(
        at_most(allowed_forbidden, MAX_SHARED_ALLOWED_FORBIDDEN),
        "{allowed_forbidden} forbidden calls were allowed (at most {MAX_SHARED_ALLOWED_FORBIDDEN})"
    );
    ensure!(
        report.accuracy() >= MIN_SHARED_ACCURACY,
        "accuracy {:.3} < {MIN_SHARED_ACCURACY}",
        report.accuracy()
    );
    Ok(())
}
