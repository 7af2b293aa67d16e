//! Prints what the guard derives from rule texts given as arguments (`TOOL` then texts), and
//! the verdict on a call when `--call TOOL JSON` follows: a probe for working on the grammar.

fn main() {
    let mut args = std::env::args().skip(1);
    let tool = args.next().unwrap_or_else(|| "bash".to_owned());
    let rest: Vec<String> = args.collect();
    let (texts, call) = match rest.iter().position(|arg| arg == "--call") {
        Some(at) => (&rest[..at], rest.get(at + 1..at + 3)),
        None => (&rest[..], None),
    };
    for text in texts {
        let constraint = tool_memory_guard::derive_from_text(text, &tool);
        println!(
            "{text:?} -> {}",
            constraint.map_or_else(|| "advice".to_owned(), |c| c.to_json())
        );
    }
    let _ = call;
}
