//! A rule's text made plain before the grammar reads it: typographic spellings a word
//! processor or a chat client put in (an em or en dash for `--`, curly quotes around a
//! command, non-breaking spaces), and the asides people put beside the items of a ban (a
//! parenthetical reason, a quoted purpose), which named nothing forbidden but, read as
//! literals, made every listed command a mere situation in which they were looked for.

use std::borrow::Cow;

use super::lexicon::{AMBIGUOUS_PROGRAM, PROGRAM, SQL_KEYWORDS, is_program, word_class};

/// `text` with its typographic spellings made plain and its asides blanked out (replaced by
/// spaces, so that what is left keeps its place). Borrowed when there is nothing to do, which
/// is the usual case.
pub(crate) fn plain_rule_text(text: &str) -> Cow<'_, str> {
    let typographic = text.contains([
        '\u{2014}', '\u{2013}', '\u{201c}', '\u{201d}', '\u{a0}', '\u{202f}', '\u{2009}',
    ]);
    let text = if typographic {
        Cow::Owned(plain_typography(text))
    } else {
        Cow::Borrowed(text)
    };
    let text = match without_regardless(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    };
    let text = match fragments_completed(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    };
    if !text.contains('`') || !text.contains(['(', '"', '\'']) {
        return text;
    }
    match without_asides(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    }
}

/// Dashes before a flag's name (`—force`, `–no-verify`) are `--`; curly double quotes around
/// a command (“make seed”) are a code span; the narrow and non-breaking spaces are spaces.
fn plain_typography(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut plain = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let ch = chars[at];
        match ch {
            '\u{2014}' | '\u{2013}' => {
                let before_ok = at == 0 || chars[at - 1].is_whitespace() || chars[at - 1] == '`';
                let next_is_name = chars
                    .get(at + 1)
                    .is_some_and(|next| next.is_ascii_alphabetic());
                // A dash before two letters or fewer is a short flag or a cluster of them
                // (`–rf`, `—f`); before a longer name, a long flag (`—force`).
                let name_length = chars[at + 1..]
                    .iter()
                    .take_while(|next| next.is_ascii_alphanumeric() || **next == '-')
                    .count();
                if before_ok && next_is_name && name_length <= 2 {
                    plain.push('-');
                } else if before_ok && next_is_name {
                    plain.push_str("--");
                } else {
                    plain.push(ch);
                }
            }
            '\u{a0}' | '\u{202f}' | '\u{2009}' => plain.push(' '),
            '\u{201c}' => {
                let close = chars[at + 1..]
                    .iter()
                    .position(|&next| next == '\u{201d}' || next == '\n')
                    .map(|offset| at + 1 + offset)
                    .filter(|&end| chars[end] == '\u{201d}');
                let inner: String = close
                    .map(|end| chars[at + 1..end].iter().collect())
                    .unwrap_or_default();
                let command = inner.split_whitespace().next().is_some_and(|word| {
                    word_class(&word.to_lowercase()) & (PROGRAM | AMBIGUOUS_PROGRAM) != 0
                        || word.starts_with("./")
                });
                match close {
                    Some(end) if command && !inner.contains('`') => {
                        plain.push('`');
                        plain.push_str(&inner);
                        plain.push('`');
                        at = end;
                    }
                    _ => plain.push('"'),
                }
            }
            '\u{201d}' => plain.push('"'),
            _ => plain.push(ch),
        }
        at += 1;
    }
    plain
}

/// What may stand between the items of a list of code spans: "`a` or `b`", "`a`, `b` and
/// `c`", "`a`/`b`", "`a` nor `b`".
fn joins_a_list(between: &str) -> bool {
    between
        .split(|ch: char| ch.is_whitespace() || ch == ',' || ch == '/')
        .all(|word| matches!(word.to_lowercase().as_str(), "" | "or" | "and" | "nor"))
}

/// "Never run `php artisan migrate:fresh` or `migrate:reset`", "`npm publish` or
/// `unpublish`", "`git stash drop` or `clear`": the later items of a list that are bare words
/// and no program are the first command's last word replaced, each a command of that program
/// (`php artisan migrate:reset`, `npm unpublish`, `git stash clear`). Read as written, the
/// first was a situation and the second a literal looked for in it (or a program of its own),
/// which allowed both. `None` when no list has that shape.
fn fragments_completed(text: &str) -> Option<String> {
    if text.matches('`').count() < 4 {
        return None;
    }
    let ticks: Vec<usize> = text.match_indices('`').map(|(at, _)| at).collect();
    let spans: Vec<(usize, usize)> = ticks
        .chunks_exact(2)
        .map(|pair| (pair[0], pair[1]))
        .collect();
    let mut replaced: Vec<(usize, usize, String)> = Vec::new();
    let mut head: Option<Vec<&str>> = None;
    let mut previous_end = 0;
    for &(open, close) in &spans {
        let inside = text[open + 1..close].trim();
        let listed = head.is_some() && joins_a_list(&text[previous_end + 1..open]);
        previous_end = close;
        let words: Vec<&str> = inside.split_whitespace().collect();
        let bare = words.len() == 1
            && !inside.starts_with('-')
            && inside.len() >= 2
            && inside
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_:".contains(ch))
            && !is_program(&inside.to_lowercase())
            // `TRUNCATE` after `ALTER TABLE`: a statement, not a subcommand.
            && inside.chars().any(|ch| ch.is_ascii_lowercase());
        match &head {
            Some(first) if listed && bare => {
                let mut completed = first[..first.len() - 1].join(" ");
                completed.push(' ');
                completed.push_str(inside);
                replaced.push((open + 1, close, completed));
                continue;
            }
            Some(_) if listed => continue,
            _ => {}
        }
        // A command of several words, its program first (known or not: `php artisan`,
        // `./gradlew clean`) and a subcommand last.
        head = (words.len() >= 2
            && !words[0].starts_with('-')
            && !SQL_KEYWORDS.contains(&words[0].to_lowercase().as_str())
            && !words[words.len() - 1].starts_with('-'))
        .then_some(words);
    }
    if replaced.is_empty() {
        return None;
    }
    let mut plain = String::with_capacity(text.len() + 32 * replaced.len());
    let mut from = 0;
    for (start, end, completed) in replaced {
        plain.push_str(&text[from..start]);
        plain.push_str(&completed);
        from = end;
    }
    plain.push_str(&text[from..]);
    Some(plain)
}

/// Phrases that say the order holds whatever follows them: "never run `vercel deploy`, with
/// or without `--prod`", "regardless of `--force`". What they name is no condition of the
/// ban (read as one, "without `--prod`" made `--prod` a requirement).
const REGARDLESS: &[&str] = &["with or without ", "regardless of "];

/// `text` with each [`REGARDLESS`] phrase and the code span or word after it blanked out.
/// `None` when it has none.
fn without_regardless(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if !REGARDLESS.iter().any(|phrase| lower.contains(phrase)) {
        return None;
    }
    let mut plain = text.to_owned();
    for phrase in REGARDLESS {
        for (at, _) in lower.match_indices(phrase) {
            let from = at + phrase.len();
            let rest = &text[from..];
            let object = if let Some(inner) = rest.strip_prefix('`') {
                inner.find('`').map_or(rest.len(), |close| close + 2)
            } else {
                rest.find(|ch: char| ch.is_whitespace() || ",;.".contains(ch))
                    .unwrap_or(rest.len())
            };
            let end = from + object;
            let blank = " ".repeat(end - at);
            plain.replace_range(at..end, &blank);
        }
    }
    Some(plain)
}

/// Words whose presence makes a parenthetical part of the order, not a reason beside it:
/// "(without `--dry-run`)", "(except `.env.example`)", "(on Fridays)", "(ask me first)".
const ORDER_WORDS: &[&str] = &[
    "after", "always", "approval", "ask", "before", "but", "confirm", "during", "except", "if",
    "never", "no", "not", "on", "only", "other", "outside", "than", "unless", "when", "while",
    "with", "without",
];

/// The asides of each line that names a command in a code span, blanked out: a parenthetical
/// of two words or more besides its code spans ("(the `.env` files are untracked)") and a
/// quoted phrase of plain words ("to \"free space\"", "'just to start clean'") after the
/// command. A parenthetical that lists code spans (`(`pkill java`, `killall java`)`) or holds
/// a word of the order ([`ORDER_WORDS`]) is kept. `None` when nothing was blanked.
fn without_asides(text: &str) -> Option<String> {
    let mut plain = String::with_capacity(text.len());
    let mut changed = false;
    for (number, line) in text.split('\n').enumerate() {
        if number > 0 {
            plain.push('\n');
        }
        match line_without_asides(line) {
            Some(line) => {
                changed = true;
                plain.push_str(&line);
            }
            None => plain.push_str(line),
        }
    }
    changed.then_some(plain)
}

fn line_without_asides(line: &str) -> Option<String> {
    let command_end = first_command_span_end(line)?;
    let bytes = line.as_bytes();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut at = command_end;
    let mut in_code = false;
    while at < bytes.len() {
        match bytes[at] {
            b'`' => in_code = !in_code,
            b'(' if !in_code => {
                if let Some(close) = line[at + 1..].find(')').map(|offset| at + 1 + offset) {
                    if is_parenthetical_aside(&line[at + 1..close]) {
                        blank.push((at, close + 1));
                    }
                    at = close;
                }
            }
            quote @ (b'"' | b'\'') if !in_code => {
                let opens = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
                let close = line[at + 1..]
                    .find(quote as char)
                    .map(|offset| at + 1 + offset)
                    .filter(|&close| {
                        bytes
                            .get(close + 1)
                            .is_none_or(|next| !next.is_ascii_alphanumeric())
                    });
                if let (true, Some(close)) = (opens, close) {
                    if is_quoted_aside(
                        &line[command_end..at],
                        &line[at + 1..close],
                        &line[close + 1..],
                    ) {
                        blank.push((at, close + 1));
                    }
                    at = close;
                }
            }
            _ => {}
        }
        at += 1;
    }
    if blank.is_empty() {
        return None;
    }
    let mut plain = String::with_capacity(line.len());
    let mut from = 0;
    for (start, end) in blank {
        plain.push_str(&line[from..start]);
        plain.extend(std::iter::repeat_n(' ', line[start..end].chars().count()));
        from = end;
    }
    plain.push_str(&line[from..]);
    Some(plain)
}

/// Where the first code span of `line` that holds a command ends: one of several words, or
/// whose first word is a program.
fn first_command_span_end(line: &str) -> Option<usize> {
    let mut spans = line.match_indices('`').map(|(at, _)| at);
    while let (Some(open), Some(close)) = (spans.next(), spans.next()) {
        let span = line[open + 1..close].trim();
        let mut words = span.split_whitespace();
        let first = words.next().unwrap_or_default();
        if words.next().is_some() || is_program(&first.to_lowercase()) {
            return Some(close + 1);
        }
    }
    None
}

/// The words of `inside` outside its code spans.
fn prose_words(inside: &str) -> Vec<String> {
    inside
        .split('`')
        .step_by(2)
        .flat_map(|prose| {
            prose
                .split(|ch: char| !(ch.is_alphanumeric() || ch == '\''))
                .filter(|word| word.chars().any(char::is_alphabetic))
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// (A parenthetical that names something outside its code spans, a word with a digit or a
/// character of an address, a path or an id ("(host db-prod-1)", "(ops@acme.io)"), is part of
/// the order too.)
fn is_parenthetical_aside(inside: &str) -> bool {
    let names_something = inside.split('`').step_by(2).any(|prose| {
        prose.split_whitespace().any(|word| {
            word.trim_matches(|ch: char| ",;:.!?\"'".contains(ch))
                .contains(|ch: char| ch.is_ascii_digit() || "@/._#:".contains(ch))
        })
    });
    let words = prose_words(inside);
    // "(the lockfile is pnpm-lock.yaml)", "(we use pnpm-lock.yaml)": a statement about
    // something else gives the reason; what it names is not the order's object.
    let explains = words
        .first()
        .is_some_and(|first| matches!(first.as_str(), "the" | "our" | "we"))
        && words.iter().any(|word| {
            matches!(
                word.as_str(),
                "is" | "are"
                    | "was"
                    | "were"
                    | "lives"
                    | "live"
                    | "holds"
                    | "hold"
                    | "uses"
                    | "use"
            )
        });
    (!names_something || explains)
        && words.len() >= 2
        && !words
            .iter()
            .any(|word| ORDER_WORDS.contains(&word.as_str()))
}

/// A quoted phrase of plain words that gives the purpose (after "to", or opening on "to" or
/// "just") or closes the line after the command: not a literal of the order. ("Never run
/// `curl` against \"internal api\" hosts": a quoted name in the middle of the order is one.)
fn is_quoted_aside(before: &str, inside: &str, after: &str) -> bool {
    let words: Vec<String> = inside.split_whitespace().map(str::to_lowercase).collect();
    let plain = !words.is_empty()
        && inside
            .chars()
            .all(|ch| ch.is_alphabetic() || ch == ' ' || ch == '\'')
        && !is_program(&words[0])
        && !words
            .iter()
            .any(|word| ORDER_WORDS.contains(&word.as_str()));
    if !plain {
        return false;
    }
    let purpose = before
        .trim_end()
        .rsplit(|ch: char| !ch.is_alphanumeric())
        .next()
        .is_some_and(|word| word.eq_ignore_ascii_case("to"))
        || matches!(words[0].as_str(), "just" | "to" | "so");
    let closes_the_line = words.len() >= 2
        && after
            .chars()
            .all(|ch| ch.is_whitespace() || ".,;:!".contains(ch));
    purpose || closes_the_line
}

#[cfg(test)]
mod tests {
    use super::plain_rule_text;

    /// (Blanked asides leave spaces; the line's end is not compared.)
    fn check(text: &str, expected: &str) {
        assert_eq!(
            plain_rule_text(text).trim_end(),
            expected.trim_end(),
            "{text:?}"
        );
    }

    #[test]
    fn typographic_spellings_are_plain() {
        check(
            "Never run `git reset —hard`.",
            "Never run `git reset --hard`.",
        );
        check("Never pass –force.", "Never pass --force.");
        check("Never run `rm –rf /`.", "Never run `rm -rf /`.");
        check("Don't run “make seed” here.", "Don't run `make seed` here.");
        check("Never run `npm\u{a0}publish`.", "Never run `npm publish`.");
        // A dash between words is punctuation, quoted prose stays quoted.
        check("No yarn — we use pnpm.", "No yarn — we use pnpm.");
        check(
            "Never say “all clear” to the client.",
            "Never say \"all clear\" to the client.",
        );
    }

    #[test]
    fn what_the_ban_holds_regardless_of_is_no_condition() {
        check(
            "Never run `vercel deploy`, with or without `--prod`.",
            &format!("Never run `vercel deploy`, {}.", " ".repeat(24)),
        );
        check(
            "Never `git push` regardless of flags",
            "Never `git push`                    ",
        );
    }

    #[test]
    fn asides_beside_listed_commands_are_blanked() {
        check(
            "- run `rm -rf .` (untracked files include local certs)",
            "- run `rm -rf .`                                      ",
        );
        check(
            "- run `git checkout -- .` to \"reset\" my work",
            "- run `git checkout -- .` to         my work",
        );
        check(
            "- use `helm uninstall` \"just to start clean\"",
            "- use `helm uninstall`                       ",
        );
        check(
            "- run `git clean -fdx` (the `.env` files are untracked)",
            "- run `git clean -fdx`                                 ",
        );
    }

    #[test]
    fn a_statement_in_parentheses_is_the_reason_not_the_object() {
        check(
            "Never `npm install` (the lockfile is pnpm-lock.yaml).",
            "Never `npm install`                                 .",
        );
    }

    #[test]
    fn parentheticals_of_the_order_are_kept() {
        for text in [
            "Never kill node (`pkill node`, `killall node`).",
            "Never run `terraform apply` (without `-lock-timeout`).",
            "Never run `git push` (except to `feature/*`).",
            "Don't run `deploy.sh` (on Fridays).",
            "Never post 'project falcon' anywhere.",
            "Never run `psql` against prod (host db-prod-1, port 5432).",
            "Never run `mail` to the list (ops@acme.io and the auditors).",
            "Never run `curl` against \"internal api\" hosts without asking",
        ] {
            check(text, text);
        }
    }
}
