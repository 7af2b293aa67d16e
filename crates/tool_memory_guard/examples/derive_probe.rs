//! Prints what the guard derives from rule texts given as arguments, the tool first:
//! `cargo run -p tool_memory_guard --example derive_probe -- Bash 'Never run yarn.'`. A probe
//! for working on the grammar.

#[expect(
    clippy::disallowed_methods,
    reason = "a probe run by hand reads its arguments; the library stays pure"
)]
fn main() {
    let mut args = std::env::args().skip(1);
    let tool = args.next().unwrap_or_else(|| "bash".to_owned());
    for text in args {
        let constraint = tool_memory_guard::derive_from_text(&text, &tool);
        println!(
            "{text:?} -> {}",
            constraint.map_or_else(|| "advice".to_owned(), |c| c.to_json())
        );
    }
}
