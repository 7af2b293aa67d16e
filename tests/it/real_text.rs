//! The shared real-text corpus (`tests/fixtures/real_text`, issue 21: instruction files and
//! turns in the shapes of CLAUDE.md, AGENTS.md, GEMINI.md, rule files and chat, with guard calls
//! in each agent's own argument shapes) measured through the product's own path: capture as the
//! facade previews a turn, and every guard call through `ActiveMemoryClient::check`, so the
//! tool families and each agent's argument shapes count exactly as they do for a hook or an RPC
//! client. Prints the figures and every miss, and fails under the ratchet floors.
//!
//! `TOOLMEM_REAL_TEXT_GUARD_DIR` points the guard half at another folder of cases in the same
//! format (a held-out set), with the floors off: `cargo test -p tests --test it real_text --
//! --nocapture`.

use std::path::{Path, PathBuf};

use active_memory_client::{
    ActiveMemoryClient, Decision, RulePut, ToolMemoryPriority, TurnRecord, preview_capture,
};
use anyhow::{Context, Result, ensure};
use serde_json::Value;

/// Ratchet floors, at the figures last measured: raise them as capture and the guard improve,
/// never lower them.
/// When first measured (main at 6eb3850): recall 0.709, attribution 0.540, 3 non-rules;
/// guard accuracy 0.768 with 60 forbidden calls allowed (0.884 and 21 after session 28's guard
/// round, the same as the guard crate's own reading of these cases: the facade loses nothing;
/// 0.906 and 17 after its second guard round; 0.917 and 13 after session 29's third; 0.914 and
/// 12 after its fourth, whose fail-safe asks where it cannot read a ban; 0.983 and 0 after
/// session 30's sixth round).
/// Capture after session 28's round 2: recall 0.869, attribution 0.783, no non-rule; after
/// session 29's capture round 3: recall 0.879, attribution 0.796, no non-rule; after session 30's
/// capture round 6 (classes K1-K5 of issue 21): recall 0.930 (291 of 313), attribution 0.895
/// (280 of 313), no non-rule; after round 7 (P1-P5): recall 0.930, attribution 0.901 (282 of
/// 313), no non-rule; after round 9 (C1-C8): recall 0.930, attribution 0.920 (288 of 313), no
/// non-rule; after round 10 (N1-N3): recall 0.933 (292 of 313), attribution 0.923 (289 of 313),
/// no non-rule.
const MIN_CAPTURE_RECALL: f64 = 0.932;
const MIN_CAPTURE_ATTRIBUTION: f64 = 0.922;
const MAX_CAPTURE_FALSE_POSITIVES: usize = 0;
const MIN_GUARD_ACCURACY: f64 = 0.98;
const MAX_FORBIDDEN_ALLOWED: usize = 0;

/// A count within its ceiling. (A function, so that a ceiling of zero reads like the others.)
fn at_most(count: usize, ceiling: usize) -> bool {
    count <= ceiling
}

fn corpus_dir(part: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/real_text")
        .join(part)
}

/// Every JSON line of every `.jsonl` file in `dir` (sorted by file name), skipping blank lines
/// and `//` comments.
fn cases(dir: &Path) -> Result<Vec<Value>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<std::io::Result<_>>()?;
    files.retain(|path| path.extension().is_some_and(|ext| ext == "jsonl"));
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path)?;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            cases.push(
                serde_json::from_str(line)
                    .with_context(|| format!("{}:{}", path.display(), index + 1))?,
            );
        }
    }
    Ok(cases)
}

fn text<'a>(value: &'a Value, field: &str) -> &'a str {
    value.get(field).and_then(Value::as_str).unwrap_or_default()
}

fn normalized(tool: &str) -> String {
    tool.trim().to_lowercase()
}

#[derive(Debug, Default)]
struct CaptureTally {
    /// Labels on a tool with priority critical or high: the rules capture is for.
    labelled: usize,
    found: usize,
    on_tool: usize,
    /// Normal-priority conventions and guidance, reported apart.
    soft_labelled: usize,
    soft_found: usize,
    false_positives: usize,
}

#[test]
fn capture_on_the_shared_real_text_corpus() -> Result<()> {
    let cases = cases(&corpus_dir("capture"))?;
    ensure!(!cases.is_empty(), "no capture cases");
    let mut tally = CaptureTally::default();
    let mut misses = Vec::new();
    for case in &cases {
        let id = text(case, "id");
        let turn: TurnRecord =
            serde_json::from_value(case["turn"].clone()).with_context(|| format!("{id}: turn"))?;
        let output = preview_capture(&turn);
        let labels = case["rules"].as_array().cloned().unwrap_or_default();
        for label in &labels {
            let Some(tool) = label["tool"].as_str() else {
                continue; // a rule about no tool: tone, language, chat
            };
            let span = text(label, "span");
            let hard = matches!(text(label, "priority"), "critical" | "high");
            let mut tools = vec![normalized(tool)];
            if let Some(also) = label["also"].as_array() {
                tools.extend(also.iter().filter_map(Value::as_str).map(normalized));
            }
            let holding: Vec<_> = output
                .rules
                .iter()
                .filter(|rule| rule.rule.contains(span))
                .collect();
            if !hard {
                tally.soft_labelled += 1;
                tally.soft_found += usize::from(!holding.is_empty());
                continue;
            }
            tally.labelled += 1;
            if holding.is_empty() {
                misses.push(format!("{id} missed ({tool}): {span:?}"));
                continue;
            }
            tally.found += 1;
            if holding.iter().any(|rule| tools.contains(&rule.tool_name)) {
                tally.on_tool += 1;
            } else {
                misses.push(format!(
                    "{id} wrong tool {} (want {tool}): {span:?}",
                    holding[0].tool_name
                ));
            }
        }
        let spans: Vec<&str> = labels.iter().map(|label| text(label, "span")).collect();
        for rule in &output.rules {
            if spans.iter().any(|span| rule.rule.contains(span)) {
                continue;
            }
            let not_rules = case["not_rules"].as_array().cloned().unwrap_or_default();
            if let Some(not_rule) = not_rules
                .iter()
                .filter_map(Value::as_str)
                .find(|not_rule| rule.rule.contains(not_rule))
            {
                tally.false_positives += 1;
                misses.push(format!(
                    "{id} non-rule captured on {}: {not_rule:?}",
                    rule.tool_name
                ));
            }
        }
    }
    let recall = ratio(tally.found, tally.labelled);
    let attribution = ratio(tally.on_tool, tally.labelled);
    println!(
        "shared real text, capture: {} turns; critical and high rules: recall {recall:.3}, attribution {attribution:.3} ({} of {}); non-rules captured: {}; normal-priority conventions captured: {} of {}",
        cases.len(),
        tally.on_tool,
        tally.labelled,
        tally.false_positives,
        tally.soft_found,
        tally.soft_labelled
    );
    for miss in &misses {
        println!("  {miss}");
    }
    ensure!(recall >= MIN_CAPTURE_RECALL, "recall {recall:.3}");
    ensure!(
        attribution >= MIN_CAPTURE_ATTRIBUTION,
        "attribution {attribution:.3}"
    );
    // A ratchet ceiling, at zero now: clippy sees `<= 0` on a `usize` as a comparison that
    // could be `==`, but the ceiling is a constant meant to be read as one.
    #[expect(
        clippy::absurd_extreme_comparisons,
        reason = "a ratchet ceiling that stands at zero"
    )]
    let within = tally.false_positives <= MAX_CAPTURE_FALSE_POSITIVES;
    ensure!(within, "{} non-rules captured", tally.false_positives);
    Ok(())
}

#[derive(Debug, Default)]
struct GuardTally {
    calls: usize,
    agreed: usize,
    forbidden_allowed: usize,
    confirm_allowed: usize,
    harmless_blocked: usize,
}

fn decision(label: &str) -> Result<Decision> {
    Ok(match label {
        "allow" => Decision::Allow,
        "confirm" => Decision::Confirm,
        "deny" => Decision::Deny,
        other => anyhow::bail!("unknown expectation {other:?}"),
    })
}

fn priority(label: &str) -> ToolMemoryPriority {
    match label {
        "high" => ToolMemoryPriority::High,
        "normal" => ToolMemoryPriority::Normal,
        _ => ToolMemoryPriority::Critical,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guard_on_the_shared_real_text_corpus() -> Result<()> {
    let (dir, floors) = match std::env::var_os("TOOLMEM_REAL_TEXT_GUARD_DIR") {
        Some(dir) => (PathBuf::from(dir), false),
        None => (corpus_dir("guard"), true),
    };
    let cases = cases(&dir)?;
    ensure!(!cases.is_empty(), "no guard cases in {}", dir.display());
    let mut tally = GuardTally::default();
    let mut misses = Vec::new();
    for case in &cases {
        let id = text(case, "id");
        // A fresh store a case: each case holds exactly the rules it lists.
        let client = ActiveMemoryClient::in_memory();
        for rule in case["rules"].as_array().into_iter().flatten() {
            client
                .put(
                    RulePut::new(text(rule, "tool_name"), text(rule, "rule"))
                        .with_priority(priority(text(rule, "priority"))),
                )
                .await
                .with_context(|| format!("{id}: storing its rule"))?;
        }
        let call = &case["call"];
        let verdict = client
            .check(text(call, "tool_name"), &call["arguments"])
            .await?;
        let expected = decision(text(case, "expect"))?;
        tally.calls += 1;
        if verdict.decision == expected {
            tally.agreed += 1;
            continue;
        }
        match (expected, verdict.decision) {
            (Decision::Deny, Decision::Allow) => tally.forbidden_allowed += 1,
            (Decision::Confirm, Decision::Allow) => tally.confirm_allowed += 1,
            (Decision::Allow, _) => tally.harmless_blocked += 1,
            _ => {}
        }
        misses.push(format!(
            "{id}: expected {expected:?}, got {:?} ({})",
            verdict.decision, verdict.reason
        ));
    }
    let accuracy = ratio(tally.agreed, tally.calls);
    println!(
        "real text through the facade ({}), guard: {} calls, accuracy {accuracy:.3}, forbidden calls allowed {}, ask-first calls allowed {}, harmless calls blocked {}",
        dir.display(),
        tally.calls,
        tally.forbidden_allowed,
        tally.confirm_allowed,
        tally.harmless_blocked
    );
    for miss in &misses {
        println!("  {miss}");
    }
    if floors {
        ensure!(accuracy >= MIN_GUARD_ACCURACY, "accuracy {accuracy:.3}");
        ensure!(
            at_most(tally.forbidden_allowed, MAX_FORBIDDEN_ALLOWED),
            "{} forbidden calls allowed",
            tally.forbidden_allowed
        );
    }
    Ok(())
}

fn ratio(numerator: usize, denominator: usize) -> f64 {
    if denominator == 0 {
        1.0
    } else {
        numerator as f64 / denominator as f64
    }
}
