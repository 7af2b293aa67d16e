//! A rule's text as derivation reads it: the markdown people write rules in (headings,
//! bullets, numbered items, tables, front matter, fences, bold and italics) reduced to the
//! words of its lines, and only the clauses that give an order.
//!
//! People explain their orders in the same breath: "**NEVER run yarn** — this repo uses
//! pnpm", "Never use `pip`; dependencies are managed with `uv`", "We use bun. Don't use
//! `npm`". The explanation names programs too, and the grammar would forbid them. A clause
//! (a sentence, or the part of one after a dash, a semicolon or ", but") that carries no cue
//! of its own is an explanation and is dropped, unless it is a list item under a line that
//! gives the order for the list ("Forbidden:", "**Do not:**", "## Never run these").
//! Code spans are never split: the period in `` `rm -rf .` `` ends no sentence.

use std::borrow::Cow;

use tool_memory_core::markdown::{self, LineKind};

/// The clauses of `text` that derivation reads, one a line, without markdown markers and
/// emphasis; `keep` says whether a clause gives an order, `is_program` whether a lower-case
/// word is a program (derivation's lexicon, given so that this module needs none of it).
/// Borrowed when a one-line text has no markdown and one clause.
pub(crate) fn ordering_clauses<'a>(
    text: &'a str,
    keep: impl Fn(&str) -> bool,
    is_program: fn(&str) -> bool,
) -> Cow<'a, str> {
    let plain_line = !text.contains('\n')
        && !text.contains(['*', '_', '~', '|', '#', ';', '—', '–'])
        && !text.trim_start().starts_with(['-', '+', '>', '•', '`'])
        && !text.contains(", but ")
        && !text.contains(", and ")
        && markdown::sentence_ends(text).len() <= 1
        && mark_of(text).is_none()
        && !text
            .match_indices(", ")
            .any(|(at, _)| is_permission(&text[..at]));
    if plain_line {
        return Cow::Borrowed(text);
    }
    let mut kept: Vec<String> = Vec::new();
    let mut in_fence = false;
    let mut in_front_matter = false;
    // The order a heading or a `...:` line gives to the items under it.
    let mut list_order = false;
    for (number, raw) in text.lines().enumerate() {
        let line = markdown::line(raw);
        match line.kind {
            LineKind::Fence => {
                in_fence = !in_fence;
                continue;
            }
            LineKind::Rule if number == 0 => {
                in_front_matter = true;
                continue;
            }
            LineKind::Rule => {
                in_front_matter = false;
                continue;
            }
            LineKind::Blank => {
                list_order = false;
                continue;
            }
            _ if in_front_matter => continue,
            _ => {}
        }
        let content: Cow<'_, str> = if in_fence {
            // A command in a fence, without its comment (`npm publish  # CI does it`).
            let line = raw.trim();
            Cow::Borrowed(
                line.split_once(" #")
                    .map_or(line, |(command, _)| command.trim_end()),
            )
        } else if line.kind == LineKind::TableRow {
            Cow::Owned(markdown::table_cells(line.content).join(" "))
        } else {
            Cow::Borrowed(line.content)
        };
        let content = strip_leftover_emphasis(&markdown::strip_emphasis(&content));
        // "- ❌ `git push --force`" is a ban, "- ✅ `git push -u origin feat`" a permission.
        let content = match mark_of(&content) {
            Some((Mark::Forbidden, rest)) => format!("never {rest}"),
            Some((Mark::Allowed, _)) => continue,
            None => content,
        };
        let is_item = matches!(line.kind, LineKind::Bullet(_)) || in_fence;
        let mut any_kept = false;
        let mut previous: Option<&str> = None;
        for clause in clauses(&content) {
            if keep(clause) || (is_item && list_order) {
                // "Files in `vendor/**` are third-party; never modify them": an order that
                // points back names what the clause before it names.
                if let Some(previous) = previous.take() {
                    if refers_back(clause) {
                        kept.push(previous.to_owned());
                    } else if let Some(completed) =
                        completed_subcommand(previous, clause, is_program)
                            .or_else(|| flags_of_the_granted(previous, clause))
                    {
                        kept.push(completed);
                        any_kept = true;
                        continue;
                    }
                }
                kept.push(clause.to_owned());
                any_kept = true;
            } else {
                previous = Some(clause);
            }
        }
        let heads_a_list =
            matches!(line.kind, LineKind::Heading(_)) || content.trim_end().ends_with(':');
        if heads_a_list {
            list_order = any_kept;
        } else if !is_item {
            list_order = false;
        }
    }
    Cow::Owned(kept.join("\n"))
}

/// Removes the emphasis runs [`markdown::strip_emphasis`] keeps because a punctuation mark
/// stands on their other side (`**don't restart anything**.`, `(**never**`): CommonMark reads
/// a run between a word and a punctuation mark as emphasis too. Runs in code spans and globs
/// (`secrets/**`, where the run follows a `/`) stay.
fn strip_leftover_emphasis(text: &str) -> String {
    let spans = markdown::code_spans(text);
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if matches!(byte, b'*' | b'_') && !markdown::in_spans(&spans, at) {
            let mut end = at;
            while end < bytes.len() && bytes[end] == byte {
                end += 1;
            }
            let before = text[..at].chars().next_back();
            let after = text[end..].chars().next();
            let punctuation = |ch: Option<char>| {
                ch.is_none_or(|ch| ".,;:!?()[]\"'".contains(ch) || ch.is_whitespace())
            };
            let word = |ch: Option<char>| ch.is_some_and(|ch| ch.is_alphanumeric() || ch == '`');
            let closing = word(before) && punctuation(after);
            let opening = punctuation(before) && word(after);
            if end - at <= 3 && (closing || opening) && before != Some('/') {
                at = end;
                continue;
            }
            out.push_str(&text[at..end]);
            at = end;
            continue;
        }
        let ch = text[at..].chars().next().expect("at is a char boundary");
        out.push(ch);
        at += ch.len_utf8();
    }
    out
}

/// What a mark at the start of a line says of the rest.
enum Mark {
    Forbidden,
    Allowed,
}

/// Marks people put before list items to mean "never" and "fine": crosses, no-entry and
/// stop signs; check marks.
const FORBIDDEN_MARKS: &[char] = &['❌', '🚫', '⛔', '✖', '✗', '✘', '🛑', '❎'];
const ALLOWED_MARKS: &[char] = &['✅', '✔', '☑', '✓', '🟢'];

/// The mark a line opens with, and the rest of the line.
fn mark_of(content: &str) -> Option<(Mark, &str)> {
    let trimmed = content.trim_start();
    let first = trimmed.chars().next()?;
    let rest = trimmed[first.len_utf8()..]
        .trim_start_matches(['\u{fe0f}', ':'])
        .trim_start();
    if FORBIDDEN_MARKS.contains(&first) {
        Some((Mark::Forbidden, rest))
    } else if ALLOWED_MARKS.contains(&first) {
        Some((Mark::Allowed, rest))
    } else {
        None
    }
}

/// Whether a clause points back at what an earlier one named ("never modify them").
pub(crate) fn refers_back(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    // "`npm run dev` is already running; don't start another one."
    if [
        "another one",
        "that one",
        "this one",
        "a second one",
        "the same",
        // "Posting in #team-a is fine; any other channel, ask me first": the others are
        // those the clause before names.
        "any other",
        "all other",
        "every other",
        "anything else",
        "anywhere else",
        "anyone else",
    ]
    .iter()
    .any(|phrase| lower.contains(phrase))
    {
        return true;
    }
    clause
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .any(|word| {
            [
                "it", "them", "these", "those", "they", "this", "that", "there",
            ]
            .iter()
            .any(|pronoun| word.eq_ignore_ascii_case(pronoun))
        })
}

/// Words that close a permission: "`docker compose down` is fine", "`alembic upgrade` is
/// allowed", "local (`--local`) is OK".
pub(crate) const PERMISSIONS: &[&str] =
    &["acceptable", "allowed", "fine", "ok", "okay", "permitted"];

/// Whether a clause grants what it names ("... is fine"): it ends on a permission after "is"
/// or "are" and has no ban of its own ("is not allowed").
pub(crate) fn is_permission(clause: &str) -> bool {
    let lower = clause.trim_end_matches(['.', ' ', '!']).to_lowercase();
    let words: Vec<&str> = lower
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '\''))
        .filter(|word| !word.is_empty())
        .collect();
    match words.as_slice() {
        [.., copula, last] => {
            matches!(*copula, "is" | "are" | "totally" | "perfectly")
                && PERMISSIONS.contains(last)
                && !words
                    .iter()
                    .any(|word| matches!(*word, "not" | "never" | "isn't"))
        }
        _ => false,
    }
}

/// "`kubectl get` is fine, `delete` is not", "`terraform plan` is fine; `apply` is not": a
/// ban whose code span is a bare subcommand after a permission of the program's other
/// subcommand is that program's subcommand. `None` unless the shapes are these.
fn completed_subcommand(
    permission: &str,
    ban: &str,
    is_program: fn(&str) -> bool,
) -> Option<String> {
    if !is_permission(permission) {
        return None;
    }
    let first_span = |text: &str| {
        let open = text.find('`')?;
        let close = text[open + 1..].find('`')? + open + 1;
        Some((open, close))
    };
    let (open, close) = first_span(permission)?;
    let mut granted = permission[open + 1..close].split_whitespace();
    let program = granted.next()?;
    granted.next()?;
    let (open, close) = first_span(ban)?;
    let banned = ban[open + 1..close].trim();
    let bare_word = !banned.is_empty()
        && banned
            .chars()
            .all(|ch| ch.is_alphanumeric() || "-_:".contains(ch))
        && !banned.starts_with('-')
        && !is_program(&banned.to_lowercase());
    bare_word.then(|| format!("{}`{program} {banned}`{}", &ban[..open], &ban[close + 1..]))
}

/// Openings of a clause that grants what it names: "You can run `docker compose up`", "feel
/// free to tail the logs".
const GRANTS: &[&str] = &[
    "feel free to",
    "go ahead and",
    "it is fine to",
    "it's fine to",
    "you can",
    "you may",
];

/// "You can run `docker compose up` and `down`, but never with `-v`": a ban that names only
/// flags after a grant of commands is those commands with the flags ("never `docker compose
/// up -v` or `docker compose down -v`"); a bare word after the grant's first command is that
/// command's last word replaced (`down`: `docker compose down`). `None` unless the shapes are
/// these.
fn flags_of_the_granted(grant: &str, ban: &str) -> Option<String> {
    let lower = grant.trim_start().to_lowercase();
    if !GRANTS.iter().any(|opening| lower.starts_with(opening)) && !is_permission(grant) {
        return None;
    }
    let spans = |text: &str| -> Vec<(usize, usize)> {
        let ticks: Vec<usize> = text.match_indices('`').map(|(at, _)| at).collect();
        ticks
            .chunks_exact(2)
            .map(|pair| (pair[0], pair[1]))
            .collect()
    };
    let granted: Vec<&str> = spans(grant)
        .into_iter()
        .map(|(open, close)| grant[open + 1..close].trim())
        .collect();
    let (first, rest) = granted.split_first()?;
    let first_words: Vec<&str> = first.split_whitespace().collect();
    if first_words.len() < 2 || first_words.iter().any(|word| word.starts_with('-')) {
        return None;
    }
    let mut commands = vec![first_words.join(" ")];
    let program = first_words[..first_words.len() - 1].join(" ");
    for word in rest {
        // Completed already as a command of the first's program (`derive/spelling.rs`).
        if word
            .strip_prefix(program.as_str())
            .is_some_and(|rest| rest.starts_with(' ') && !rest.trim().contains(' '))
        {
            commands.push((*word).to_owned());
            continue;
        }
        let bare = !word.contains(char::is_whitespace)
            && !word.starts_with('-')
            && word
                .chars()
                .all(|ch| ch.is_alphanumeric() || "-_:".contains(ch));
        if !bare {
            return None;
        }
        let mut completed = first_words[..first_words.len() - 1].to_vec();
        completed.push(word);
        commands.push(completed.join(" "));
    }
    let banned = spans(ban);
    if banned.is_empty()
        || banned
            .iter()
            .any(|&(open, close)| !ban[open + 1..close].trim().starts_with('-'))
    {
        return None;
    }
    let mut rewritten = String::with_capacity(ban.len() * 2);
    let mut from = 0;
    for (open, close) in banned {
        let flag = ban[open + 1..close].trim();
        rewritten.push_str(&ban[from..open]);
        let each: Vec<String> = commands
            .iter()
            .map(|command| format!("`{command} {flag}`"))
            .collect();
        rewritten.push_str(&each.join(" or "));
        from = close + 1;
    }
    rewritten.push_str(&ban[from..]);
    Some(rewritten)
}

/// Splits one line into clauses: at sentence ends, dashes used as punctuation (` — `, ` – `,
/// ` -- `), semicolons and ", but", never inside a code span.
fn clauses(line: &str) -> Vec<&str> {
    let spans = markdown::code_spans(line);
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for end in markdown::sentence_ends(line) {
        cuts.push((start, end));
        start = end;
    }
    let mut pieces = Vec::new();
    for (start, end) in cuts {
        let sentence = &line[start..end];
        let mut from = 0;
        let mut at = 0;
        while at < sentence.len() {
            let rest = &sentence[at..];
            // ", and don't delete ...": a second order in the same sentence, cut before its
            // cue so the cue stays with it.
            let separator = [
                " — ",
                " – ",
                " -- ",
                "; ",
                ", but ",
                ", and don't ",
                ", and do not ",
                ", and never ",
                ", and no ",
                // "no `git rebase -i`, and ask me before any `git push`": the ask is its own.
                ", and ask ",
                ", and check with ",
                ", and confirm with ",
                ", and get my ",
                ", and wait for ",
            ]
            .iter()
            .find(|separator| rest.starts_with(**separator))
            // "`kubectl get` is fine, `delete` is not": a permission, then the ban it
            // contrasts with, each a clause.
            .or_else(|| {
                (rest.starts_with(", ") && is_permission(&sentence[from..at])).then_some(&", ")
            });
            match separator {
                Some(separator) if !markdown::in_spans(&spans, start + at) => {
                    pieces.push(&sentence[from..at]);
                    // Keep the cue of ", and don't ..." with the clause it opens.
                    let skip = separator
                        .strip_prefix(", and ")
                        .map_or(separator.len(), |_| ", and ".len());
                    at += skip;
                    from = at;
                }
                _ => at += rest.chars().next().map_or(1, char::len_utf8),
            }
        }
        pieces.push(&sentence[from..]);
    }
    pieces
        .into_iter()
        .map(str::trim)
        .filter(|piece| piece.chars().any(char::is_alphanumeric))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &str) {
        let keep = |clause: &str| {
            let lower = clause.to_lowercase();
            ["never", "don't", "do not", "forbidden", "always"]
                .iter()
                .any(|cue| lower.contains(cue))
        };
        let is_program = |word: &str| ["git", "kubectl", "terraform", "yarn"].contains(&word);
        assert_eq!(
            ordering_clauses(text, keep, is_program),
            expected,
            "{text:?}"
        );
    }

    #[test]
    fn keeps_the_clauses_that_give_orders() {
        check(
            "- **NEVER run yarn** — this repo uses pnpm.",
            "NEVER run yarn",
        );
        check(
            "We use bun. Don't use `npm`, `npx` or `yarn`.",
            "Don't use `npm`, `npx` or `yarn`.",
        );
        check(
            "Never use `pip`; dependencies are managed with `uv`.",
            "Never use `pip`",
        );
        check(
            "You can read the logs, but **don't restart anything**.",
            "don't restart anything.",
        );
        check(
            "never run `rm -rf .` or `git clean -fdx`",
            "never run `rm -rf .` or `git clean -fdx`",
        );
        check(
            "| `terraform apply` | never — CI only |",
            "`terraform apply` never",
        );
    }

    #[test]
    fn list_items_take_the_order_of_their_heading() {
        check(
            "Forbidden:\n- `git reset --hard`\n- `docker system prune -a`",
            "Forbidden:\n`git reset --hard`\n`docker system prune -a`",
        );
        check(
            "## Never run these\n1. `npm publish`\n\nUse `pnpm`.",
            "Never run these\n`npm publish`",
        );
        check("## Tools\n- `pnpm` is fine\n- never `yarn`", "never `yarn`");
        check(
            "---\ndescription: never mind\n---\n- NEVER run `db:reset`.",
            "NEVER run `db:reset`.",
        );
    }

    #[test]
    fn a_permission_and_the_ban_beside_it_are_two_clauses() {
        check(
            "`kubectl get` is fine, never `delete`.",
            "never `kubectl delete`.",
        );
        check(
            "`terraform plan` is fine; never `apply`.",
            "never `terraform apply`.",
        );
        check(
            "`npm install --save-dev` is fine, never `npm install -g`.",
            "never `npm install -g`.",
        );
        check(
            "Posting in #eng is fine; any other channel, never.",
            "Posting in #eng is fine\nany other channel, never.",
        );
        check(
            "You can run `docker compose up` and `down`, but never with `-v`.",
            "never with `docker compose up -v` or `docker compose down -v`.",
        );
        // No permission: the sentence stays whole.
        check(
            "never `git push`, `git tag`.",
            "never `git push`, `git tag`.",
        );
        check(
            "`deploy` is not fine, never `apply`.",
            "`deploy` is not fine, never `apply`.",
        );
    }

    #[test]
    fn bad_markdown_is_plain_text() {
        check("**never** run `rm -rf /", "never run `rm -rf /");
        check("****", "");
        check("``` never", "");
    }
}
