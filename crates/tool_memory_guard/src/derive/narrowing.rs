//! What narrows a derived constraint to the thing its rule is about (issue 21, sixth round):
//! an issue number to its repository ("never close #311 on acme/api"), a ban on package
//! managers to its purpose ("never use npm or yarn for installing packages"), a required
//! clause to its table ("no queries without a `LIMIT` on `events`"). Each is read from the
//! rule's words once the constraint is assembled, and only narrows what was derived.

use super::lexicon::{
    INSTALL_PURPOSES, INSTALL_SUBCOMMANDS, REPOSITORY_PREPOSITIONS, TABLE_PREPOSITIONS,
};
use crate::call::is_script;
use crate::{Constraint, MAX_ALSO, Matcher, MatcherKind, Polarity};

/// The constraint narrowed by what the lower-case text `lower` says it is about.
pub(super) fn narrowed(mut constraint: Constraint, lower: &str) -> Constraint {
    to_script(&mut constraint);
    to_repository(&mut constraint, lower);
    to_purpose(&mut constraint, lower);
    to_table(&mut constraint, lower);
    constraint
}

/// Where a sentence turns from one order to the other ("Always pass `--check` to ..., and
/// never pass `--force`"): the text from the second order's cue on.
const TURNS_TO_A_BAN: &[&str] = &[
    ", and do not ",
    ", and don't ",
    ", and never ",
    ", but never ",
    "; do not ",
    "; don't ",
    "; never ",
    " and never ",
];

/// A sentence of two orders of opposite polarity, each read on its own (`read`, narrowed) and
/// joined as the parts of one constraint: "Always pass `--dry-run` to `./bin/tf-*` and never
/// pass `--yes`" requires the flag of the scripts and forbids the other there. A ban of flags
/// alone is about the subject of the order before it. `None` when the text has no such turn,
/// or either half reads nothing, or both say the same.
pub(super) fn mixed_orders(
    text: &str,
    read: impl Fn(&str) -> Option<Constraint>,
) -> Option<Constraint> {
    let lower = text.to_lowercase();
    let (at, turn) = TURNS_TO_A_BAN
        .iter()
        .filter_map(|turn| lower.find(turn).map(|at| (at, *turn)))
        .min()?;
    // The second order from its cue word on (the leading ", and " or "; " dropped).
    let cue = turn.trim_start_matches([',', ';']).trim_start();
    let cue = cue
        .strip_prefix("and ")
        .or_else(|| cue.strip_prefix("but "))
        .unwrap_or(cue);
    let (first_text, second_text) = (&text[..at], &text[at + turn.len() - cue.len()..]);
    let first = narrowed(read(first_text)?, &first_text.to_lowercase());
    let mut second = narrowed(read(second_text)?, &second_text.to_lowercase());
    if first.polarity == second.polarity {
        return None;
    }
    let commands: Vec<Matcher> = first
        .when
        .iter()
        .filter(|matcher| matcher.kind == MatcherKind::Command)
        .cloned()
        .collect();
    if second.when.is_empty()
        && !commands.is_empty()
        && second
            .matchers
            .iter()
            .all(|matcher| matcher.kind == MatcherKind::Flag)
    {
        second.when = commands;
    }
    let mut also = first.also.clone();
    also.extend(std::mem::take(&mut second.also));
    also.insert(first.also.len(), second);
    also.truncate(MAX_ALSO);
    let joined = first.with_also(also);
    joined.validate().is_ok().then_some(joined)
}

/// "Always pass `--dry-run` to `./bin/tf-*`": a required flag of the scripts a path names is
/// required of each invocation of them (`./bin/tf-apply`), not a path every call must name;
/// one without it asks.
fn to_script(constraint: &mut Constraint) {
    each_part(constraint, |part| {
        if part.polarity != Polarity::Require {
            return false;
        }
        let paths: Vec<&Matcher> = part
            .matchers
            .iter()
            .filter(|matcher| matcher.kind == MatcherKind::Path)
            .collect();
        let [script] = paths.as_slice() else {
            return false;
        };
        let name = script.value.rsplit('/').next().unwrap_or_default();
        let runs = script.value.starts_with("./")
            || script.value.contains("bin/")
            || script.value.contains("scripts/")
            || (is_script(name) && !name.ends_with(".md"));
        let flags = part
            .matchers
            .iter()
            .filter(|matcher| matcher.kind == MatcherKind::Flag)
            .count();
        if !runs || flags + 1 != part.matchers.len() || name.is_empty() {
            return false;
        }
        let script = Matcher::new(MatcherKind::Command, script.value.clone());
        part.matchers
            .retain(|matcher| matcher.kind == MatcherKind::Flag);
        part.when = vec![script];
        // Without the flag the call is incomplete, which the user is asked about (as a flag
        // required with a value is).
        part.ask_first = true;
        false
    });
}

/// The words of a text, punctuation and code marks trimmed.
fn words(lower: &str) -> Vec<&str> {
    lower
        .split_whitespace()
        .map(|word| word.trim_matches(|ch: char| "`'\"*,;:.!?()—".contains(ch)))
        .collect()
}

/// "Never close issue #311 on acme/api": the number's literal holds on calls that name the
/// repository (`repo: api`, `--repo acme/api`), not on #311 of another one.
fn to_repository(constraint: &mut Constraint, lower: &str) {
    let words = words(lower);
    for (at, word) in words.iter().enumerate() {
        let Some(number) = word.strip_prefix('#') else {
            continue;
        };
        if number.is_empty() || !number.chars().all(|ch| ch.is_ascii_digit()) {
            continue;
        }
        let Some(repository) = words
            .get(at + 1..at + 3)
            .filter(|next| REPOSITORY_PREPOSITIONS.contains(&next[0]))
            .map(|next| next[1])
        else {
            continue;
        };
        let Some((owner, name)) = repository.split_once('/') else {
            continue;
        };
        let is_name = |part: &str| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || "-_.".contains(ch))
        };
        if !is_name(owner) || !is_name(name) {
            continue;
        }
        each_part(constraint, |part| {
            let about_the_number = part.polarity == Polarity::Forbid
                && part.when.is_empty()
                && part
                    .matchers
                    .iter()
                    .all(|matcher| matcher.kind == MatcherKind::Literal && matcher.value == number);
            if about_the_number {
                part.when = vec![Matcher::new(MatcherKind::Literal, name)];
            }
            about_the_number
        });
    }
}

/// "Never use npm or yarn for installing packages": the programs' install subcommands, not
/// every use (`npm run build` installs nothing).
fn to_purpose(constraint: &mut Constraint, lower: &str) {
    if !INSTALL_PURPOSES.iter().any(|phrase| lower.contains(phrase)) {
        return;
    }
    each_part(constraint, |part| {
        if part.polarity != Polarity::Forbid
            || !part.when.is_empty()
            || !part.matchers.iter().all(|matcher| {
                matcher.kind == MatcherKind::Command
                    && INSTALL_SUBCOMMANDS
                        .iter()
                        .any(|(program, _)| *program == matcher.value)
            })
        {
            return false;
        }
        part.matchers = part
            .matchers
            .iter()
            .flat_map(|matcher| {
                let (_, subcommands) = INSTALL_SUBCOMMANDS
                    .iter()
                    .find(|(program, _)| *program == matcher.value)
                    .expect("checked above");
                subcommands.iter().map(move |subcommand| {
                    Matcher::new(
                        MatcherKind::Command,
                        format!("{} {subcommand}", matcher.value),
                    )
                })
            })
            .collect();
        false
    });
}

/// "No queries without a `LIMIT` on `events`": the clause is required of the queries that
/// name the table, which is the situation (`when`), not a second requirement.
fn to_table(constraint: &mut Constraint, lower: &str) {
    let words = words(lower);
    for (at, word) in words.iter().enumerate() {
        if *word != "without" {
            continue;
        }
        // "without a `WHERE` on `invoices`", "without LIMIT for events".
        let rest: Vec<&str> = words[at + 1..]
            .iter()
            .copied()
            .filter(|word| !matches!(*word, "a" | "an" | "the"))
            .take(3)
            .collect();
        let [clause, preposition, table] = rest.as_slice() else {
            continue;
        };
        if !TABLE_PREPOSITIONS.contains(preposition) {
            continue;
        }
        each_part(constraint, |part| {
            let is = |matcher: &Matcher, value: &str| {
                matcher.kind == MatcherKind::Literal && matcher.value == value
            };
            if part.polarity == Polarity::Require
                && part.matchers.len() > 1
                && part.matchers.iter().any(|matcher| is(matcher, clause))
                && let Some(position) = part.matchers.iter().position(|matcher| is(matcher, table))
            {
                let table = part.matchers.remove(position);
                part.when.push(table);
            }
            false
        });
    }
}

/// Calls `change` on the constraint and on each of its `also` parts (the constraint's own
/// `also` taken out meanwhile), until it returns `true`.
fn each_part(constraint: &mut Constraint, mut change: impl FnMut(&mut Constraint) -> bool) {
    let mut also = std::mem::take(&mut constraint.also);
    if !change(constraint) {
        for part in &mut also {
            if change(part) {
                break;
            }
        }
    }
    constraint.also = also;
}

#[cfg(test)]
mod tests {
    use crate::derive_from_text;

    fn derived(text: &str) -> String {
        derive_from_text(text, "bash").map_or_else(String::new, |c| c.to_json())
    }

    #[test]
    fn a_number_on_a_repository_holds_there() {
        let issue = derived("Never close issue #311 on acme/api — it tracks the audit.");
        assert!(
            issue.contains(r#""when":[{"kind":"literal","value":"api"}]"#),
            "{issue}"
        );
        // Without a repository the number holds everywhere.
        assert!(!derived("Never close issue #311.").contains("when"));
    }

    #[test]
    fn a_ban_for_installing_is_of_the_install_subcommands() {
        let npm = derived("NEVER use npm or yarn for installing packages. Always use `pnpm`.");
        assert!(
            npm.contains(r#""value":"npm install""#) && npm.contains(r#""value":"yarn add""#),
            "{npm}"
        );
        assert!(!npm.contains(r#""value":"npm""#), "{npm}");
        // Without a purpose it is a ban of the program.
        assert!(derived("Never use npm.").contains(r#""value":"npm""#));
    }

    #[test]
    fn a_required_clause_on_a_table_binds_its_queries() {
        let limit = derived("No queries without a `LIMIT` on `events` — the table has 2B rows.");
        assert_eq!(
            limit,
            r#"{"matchers":[{"kind":"literal","value":"limit"}],"polarity":"require","when":[{"kind":"literal","value":"events"}]}"#
        );
    }
}

#[cfg(test)]
mod turn_tests {
    use crate::derive_from_text;

    #[test]
    fn two_orders_of_one_sentence_are_two_parts_about_one_subject() {
        let both = derive_from_text(
            "Always pass `--dry-run` to the scripts in `./bin/tf-*` and never pass `--yes`.",
            "bash",
        )
        .expect("a reading")
        .to_json();
        assert_eq!(
            both,
            r#"{"also":[{"matchers":[{"kind":"flag","value":"--yes"}],"polarity":"forbid","when":[{"kind":"command","value":"./bin/tf-*"}]}],"ask_first":true,"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"./bin/tf-*"}]}"#
        );
        // Two bans are one order, read as before.
        let bans = derive_from_text("Never pass `--yes`, and never pass `--force`.", "bash")
            .expect("a reading")
            .to_json();
        assert!(!bans.contains("also"), "{bans}");
    }
}
