//! Evaluates the guard on corpus files given as arguments and prints each miss, one a line:
//! `cargo run -p tool_memory_guard --example corpus_probe -- tests/fixtures/real_text/fresh_r10.jsonl`.
//! A probe for a fresh round's first run, before its cases join the ratchet.

#[expect(
    clippy::disallowed_methods,
    reason = "a probe run by hand reads its files; the library stays pure"
)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut cases = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path)?;
        cases.extend(tool_memory_guard::parse_corpus(&text)?);
    }
    let report = tool_memory_guard::evaluate(&cases);
    println!("{}", report.summary_line());
    for miss in &report.disagreements {
        println!(
            "  {}: expected {}, got {} ({})",
            miss.id,
            miss.expected.as_str(),
            miss.actual.as_str(),
            miss.reason
        );
    }
    Ok(())
}
