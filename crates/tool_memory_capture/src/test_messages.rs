//! The user messages of the labelled corpora, for unit tests that check a cheap test against
//! the grammar it guards on text the project measures (`tests/fixtures/capture` and the
//! real-text corpus).

/// Every user message of the corpora's cases, in file order.
pub(crate) fn corpus_messages() -> Vec<String> {
    let corpora = [
        include_str!("../../../tests/fixtures/capture/revocations.jsonl"),
        include_str!("../../../tests/fixtures/capture/material.jsonl"),
        include_str!("../../../tests/fixtures/capture/mixed.jsonl"),
        include_str!("../../../tests/fixtures/capture/negatives.jsonl"),
        include_str!("../../../tests/fixtures/capture/edicts.jsonl"),
        include_str!("../tests/fixtures/real_text/user_turn.jsonl"),
        include_str!("../tests/fixtures/real_text/claude_md.jsonl"),
    ];
    corpora
        .iter()
        .flat_map(|corpus| corpus.lines())
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|case| {
            case["turn"]["user_message"]
                .as_str()
                .or_else(|| case["message"].as_str())
                .map(str::to_owned)
        })
        .collect()
}
