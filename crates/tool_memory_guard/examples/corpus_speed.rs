//! A speed probe for the guard on critical rules as people write them: builds a guard for each
//! case of the real-text fixtures (`tests/fixtures/real_text/*.jsonl`, every rule critical or
//! high) and checks its call, REPEAT times: `cargo run --release -p tool_memory_guard --example
//! corpus_speed [REPEAT]`. Under callgrind, compare two repeats' counts to leave out loading.
#![expect(
    clippy::disallowed_methods,
    reason = "a probe run by hand reads its arguments and the fixtures; the library stays pure"
)]

use tool_memory_guard::{CorpusCase, evaluate};

fn main() {
    let repeat: usize = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(1);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/real_text");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the fixtures folder")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    paths.sort();
    let mut cases: Vec<CorpusCase> = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            cases.push(serde_json::from_str(line).expect("a corpus case"));
        }
    }
    let mut accuracy = 0.0;
    for _ in 0..repeat {
        accuracy = evaluate(&cases).accuracy();
    }
    println!("{} cases, accuracy {accuracy:.3}", cases.len());
}
