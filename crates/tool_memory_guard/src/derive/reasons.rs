//! Reasons beside an order: "Production deploys happen when main is merged, so `netlify
//! deploy --prod` is never run by hand". The clause before "so", or after a leading
//! "because" / "since" up to its comma, says why; its "when" is no condition of the order.
//! Also the nouns that only say what a program is ("the `stripe` CLI" is `stripe`).

/// Words that make a clause an order (or part of one), so it is no bare reason.
const ORDER_WORDS: &[&str] = &[
    "always",
    "ask",
    "avoid",
    "can't",
    "cannot",
    "don't",
    "forbidden",
    "must",
    "never",
    "no",
    "not",
    "nothing",
    "only",
    "please",
    "should",
    "stop",
];

/// The text with its reasons left out, when it has any: `None` otherwise. A reason is left
/// out only when it names nothing in code (a span there may be what a pronoun of the order
/// points back to: "`x.tfvars` holds the keys, so never print it") and gives no order.
pub(crate) fn without_reasons(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for sentence in text.split_inclusive(['.', '!', '?', '\n']) {
        match reason_dropped(sentence) {
            Some(order) => {
                changed = true;
                out.push_str(order);
            }
            None => out.push_str(sentence),
        }
    }
    changed.then_some(out)
}

/// One sentence's order without its reason, if it has one to leave out.
fn reason_dropped(sentence: &str) -> Option<&str> {
    let lower = sentence.to_lowercase();
    if lower.len() != sentence.len() {
        return None;
    }
    let trimmed = lower.trim_start();
    let lead = lower.len() - trimmed.len();
    // "Because the CDN caches for a day, never ...", "Since staging is shared, don't ...".
    for opener in ["because ", "since ", "as "] {
        if trimmed.starts_with(opener)
            && let Some(comma) = trimmed.find(", ")
            && bare_reason(&trimmed[..comma])
        {
            return Some(&sentence[lead + comma + 2..]);
        }
    }
    // "Deploys happen when main is merged, so ... is never run by hand".
    for marker in [", so ", "; so ", ", which is why ", ", therefore "] {
        if let Some(at) = lower.find(marker)
            && bare_reason(&lower[..at])
        {
            return Some(&sentence[at + marker.len()..]);
        }
    }
    None
}

/// Whether a clause is only a reason: no code span, no order word.
fn bare_reason(clause: &str) -> bool {
    !clause.contains('`')
        && !clause.contains('"')
        && !clause
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .any(|word| ORDER_WORDS.contains(&word))
}

/// The text with "the `X` CLI" (tool, binary, client, executable, command-line tool) read as
/// `` `X` ``: the noun says what X is, and "pass `--live` to `stripe`" binds the option to
/// the program. `None` when there is none.
pub(crate) fn program_nouns_dropped(text: &str) -> Option<String> {
    const NOUNS: &[&str] = &[
        " command-line tool",
        " cli",
        " binary",
        " client",
        " executable",
        " tool",
    ];
    if !text.contains("the `") && !text.contains("The `") {
        return None;
    }
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find("the `") {
        let start = from + found;
        let span_start = start + 4;
        let Some(close) = lower[span_start + 1..].find('`') else {
            break;
        };
        let span_end = span_start + 1 + close + 1;
        let span = &lower[span_start + 1..span_end - 1];
        let at_word = start == 0 || !lower.as_bytes()[start - 1].is_ascii_alphanumeric();
        let noun = NOUNS.iter().find(|noun| {
            lower[span_end..].starts_with(**noun)
                && lower[span_end + noun.len()..]
                    .chars()
                    .next()
                    .is_none_or(|next| !next.is_alphanumeric())
        });
        if let Some(noun) = noun.filter(|_| at_word && !span.is_empty() && !span.contains(' ')) {
            out.push_str(&text[rest..start]);
            out.push_str(&text[span_start..span_end]);
            rest = span_end + noun.len();
        }
        from = span_end;
    }
    (rest > 0).then(|| {
        out.push_str(&text[rest..]);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_before_so_or_after_because_is_left_out() {
        assert_eq!(
            without_reasons(
                "Production deploys happen when main is merged, so `netlify deploy --prod` is \
                 never run by hand."
            )
            .as_deref(),
            Some("`netlify deploy --prod` is never run by hand.")
        );
        assert_eq!(
            without_reasons("Since staging is shared with QA, don't `heroku pg:reset` there.")
                .as_deref(),
            Some("don't `heroku pg:reset` there.")
        );
        // A span in the reason may be what the order points back to; an order is no reason.
        assert_eq!(
            without_reasons("`x.tfvars` holds the keys, so never print it."),
            None
        );
        assert_eq!(without_reasons("Never push to main, so ask first."), None);
        assert_eq!(
            without_reasons("Run the tests. Never `git push --force`."),
            None
        );
    }

    #[test]
    fn the_noun_of_a_program_is_the_program() {
        assert_eq!(
            program_nouns_dropped("Never pass `--live` to the `stripe` CLI.").as_deref(),
            Some("Never pass `--live` to `stripe`.")
        );
        assert_eq!(
            program_nouns_dropped("Don't use the `gh` command-line tool; use the `api` tool.")
                .as_deref(),
            Some("Don't use `gh`; use `api`.")
        );
        assert_eq!(program_nouns_dropped("Never run the `rm -rf` tool."), None);
        assert_eq!(program_nouns_dropped("Ask before `stripe` calls."), None);
    }
}
