//! Commands written in prose without code spans, of programs no lexicon knows (issue 21,
//! twelfth round, P1): "Never run composer update.", "wp db reset is forbidden", "Don't run
//! php artisan migrate:fresh or migrate:refresh, the local DB has data". The words after a
//! verb of running (or the subject before "is not allowed" and its kin) up to a clause
//! boundary, a preposition or a word no command is spelt with are put in code spans, and the
//! text so marked is read as written with them. A text that already has a code span, or
//! whose reading without marks derives something, is never rewritten (see
//! [`super::derive_from_text`]).

/// Verbs after which the words are what is run.
const RUN_VERBS: &[&str] = &[
    "call", "execute", "invoke", "launch", "run", "trigger", "use", "using",
];

/// What follows a subject that is banned: "`X` is not allowed".
const BANNED_PREDICATES: &[&str] = &[
    " are banned",
    " are forbidden",
    " are not allowed",
    " are off limits",
    " are off-limits",
    " are prohibited",
    " is a no",
    " is banned",
    " is forbidden",
    " is never allowed",
    " is not allowed",
    " is not ok",
    " is not okay",
    " is not permitted",
    " is off limits",
    " is off-limits",
    " is prohibited",
    " must never be run",
    " must not be run",
    " needs my approval",
    " needs my ok",
    " requires my approval",
    " should never be run",
];

/// Words that end a command in prose or cannot start one: articles, pronouns, prepositions,
/// conjunctions of reasons and times, and the words of an order. Sorted.
const NOT_COMMAND_WORDS: &[&str] = &[
    "a", "about", "after", "against", "all", "an", "any", "anything", "as", "at", "because",
    "before", "but", "by", "during", "even", "ever", "every", "for", "from", "here", "if", "in",
    "into", "it", "its", "manually", "me", "my", "never", "not", "of", "on", "onto", "our",
    "outside", "please", "since", "so", "some", "that", "the", "their", "them", "then", "there",
    "these", "this", "those", "through", "to", "unless", "until", "via", "when", "where", "while",
    "with", "without", "you", "your",
];

/// Words that join the items of a list of commands.
const LIST_JOINS: &[&str] = &["and", "nor", "or"];

/// The most words a command in prose is read with.
const MAX_COMMAND_WORDS: usize = 6;

/// A word of the text: its bytes, and whether punctuation after it ends the clause.
struct Word<'a> {
    start: usize,
    end: usize,
    text: &'a str,
    closes: bool,
}

/// The words of `text` with their places, punctuation at their ends taken off.
fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    for raw in text.split_inclusive(char::is_whitespace) {
        let start = at;
        at += raw.len();
        let trimmed = raw.trim_end();
        let lead = trimmed.len() - trimmed.trim_start_matches(['(', '"', '\'']).len();
        let core = trimmed[lead..].trim_end_matches([',', '.', ';', ':', '!', '?', ')', '"', '\'']);
        if core.is_empty() {
            continue;
        }
        out.push(Word {
            start: start + lead,
            end: start + lead + core.len(),
            text: core,
            closes: core.len() + lead < trimmed.len(),
        });
    }
    out
}

/// Whether a word is spelt as a command's words are: lower-case ASCII letters, digits and the
/// marks of paths, options and task names (`migrate:fresh`, `bin/console`, `--no-dev`).
fn is_command_word(word: &str) -> bool {
    !word.is_empty()
        && word.bytes().all(|byte| {
            byte.is_ascii_lowercase()
                || byte.is_ascii_digit()
                || matches!(byte, b'-' | b'_' | b'.' | b'/' | b':' | b'=' | b'@' | b'+')
        })
        && word.bytes().any(|byte| byte.is_ascii_alphabetic())
        && NOT_COMMAND_WORDS.binary_search(&word).is_err()
        && !LIST_JOINS.contains(&word)
}

/// Whether a word can be a command's first: a command word that is no option.
fn is_program_word(word: &str) -> bool {
    is_command_word(word) && !word.starts_with('-') && !word.ends_with(':')
}

/// The command words from `from`: at most [`MAX_COMMAND_WORDS`], up to a word that is none
/// or the end of a clause.
fn command_at(words: &[Word<'_>], from: usize) -> usize {
    let mut end = from;
    while end < words.len() && end - from < MAX_COMMAND_WORDS && is_command_word(words[end].text) {
        end += 1;
        if words[end - 1].closes {
            break;
        }
    }
    end
}

/// The text with the commands it names in prose put in code spans, or `None` when it has code
/// spans already or names no command in prose (a single word after a verb of running is none:
/// "Never run late").
pub(crate) fn with_spans(text: &str) -> Option<String> {
    if text.contains('`') {
        return None;
    }
    let words = words(text);
    let lower: Vec<String> = words.iter().map(|word| word.text.to_owned()).collect();
    // (start, end) word ranges of commands, in order.
    let mut commands: Vec<(usize, usize, Option<String>)> = Vec::new();
    let mut index = 0;
    while index < words.len() {
        let opens_clause = index == 0 || words[index - 1].closes;
        let mut found = None;
        if RUN_VERBS.contains(&lower[index].to_lowercase().as_str())
            && index + 1 < words.len()
            && !words[index].closes
            && is_program_word(&lower[index + 1])
        {
            let end = command_at(&words, index + 1);
            if end - (index + 1) >= 2 {
                found = Some((index + 1, end));
            }
        } else if opens_clause && is_program_word(&lower[index]) {
            // The subject ends where its predicate starts ("is" is spelt as a command's
            // words are, so the predicate is looked for after each word).
            let longest = command_at(&words, index);
            found = (index + 2..=longest)
                .find(|&end| {
                    let rest = text[words[end - 1].end..].to_lowercase();
                    !words[end - 1].closes
                        && BANNED_PREDICATES
                            .iter()
                            .any(|predicate| rest.starts_with(predicate))
                })
                .map(|end| (index, end));
        }
        let Some((start, end)) = found else {
            index += 1;
            continue;
        };
        commands.push((start, end, None));
        // A list sharing the first command's program: "migrate:fresh or migrate:refresh".
        let first: Vec<&str> = lower[start..end].iter().map(String::as_str).collect();
        let mut next = end;
        while next + 1 < words.len()
            && !words[next - 1].closes
            && LIST_JOINS.contains(&lower[next].as_str())
            && is_command_word(&lower[next + 1])
        {
            let item_end = command_at(&words, next + 1);
            let item: Vec<&str> = lower[next + 1..item_end]
                .iter()
                .map(String::as_str)
                .collect();
            let whole = if let Some(shared) = first.iter().position(|word| *word == item[0]) {
                first[..shared]
                    .iter()
                    .chain(&item)
                    .copied()
                    .collect::<Vec<_>>()
            } else if item.len() == 1 {
                first[..first.len() - 1]
                    .iter()
                    .chain(&item)
                    .copied()
                    .collect()
            } else {
                item.clone()
            };
            commands.push((next + 1, item_end, Some(whole.join(" "))));
            next = item_end;
            if words[item_end - 1].closes {
                break;
            }
        }
        index = next.max(index + 1);
    }
    if commands.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len() + commands.len() * 4);
    let mut at = 0;
    for (start, end, whole) in commands {
        let (from, to) = (words[start].start, words[end - 1].end);
        out.push_str(&text[at..from]);
        out.push('`');
        match whole {
            Some(whole) => out.push_str(&whole),
            None => out.push_str(&text[from..to]),
        }
        out.push('`');
        at = to;
    }
    out.push_str(&text[at..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::with_spans;

    #[test]
    fn commands_in_prose_get_their_spans() {
        let cases: &[(&str, Option<&str>)] = &[
            (
                "Never run composer update.",
                Some("Never run `composer update`."),
            ),
            (
                "composer update is not allowed; use composer install.",
                Some("`composer update` is not allowed; use `composer install`."),
            ),
            (
                "Don't run php artisan migrate:fresh or migrate:refresh, the local DB has data",
                Some(
                    "Don't run `php artisan migrate:fresh` or `php artisan migrate:refresh`, \
                     the local DB has data",
                ),
            ),
            (
                "wp db reset is forbidden",
                Some("`wp db reset` is forbidden"),
            ),
            (
                "Please do not execute knifectl purge-nodes against the shared server.",
                Some("Please do not execute `knifectl purge-nodes` against the shared server."),
            ),
            ("Never run late, the queue is slow.", None),
            ("Never run the migrations on prod.", None),
            ("Never run tests in parallel.", None),
            ("Never run `yarn` here.", None),
            ("Friday deploys are not allowed", None),
        ];
        for (text, expected) in cases {
            assert_eq!(with_spans(text).as_deref(), *expected, "{text}");
        }
    }

    #[test]
    fn odd_text_reads_without_panicking() {
        for text in [
            "",
            "run",
            "run ",
            "never run a b c d e f g h",
            "x is forbidden",
            "é run ü ö",
        ] {
            let _ = with_spans(text);
        }
    }
}
