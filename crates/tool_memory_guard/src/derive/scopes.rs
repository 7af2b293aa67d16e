//! Readings of rules that scope commands to places (issue 21, seventh round, H4), added at
//! guard build beside what the text derives, as `kinds.rs`'s are: "no `drain`, `cordon` or
//! `delete` against `prod-east`" (each verb, with any of the places), "`X` is only OK against
//! localhost" (`X` anywhere else), and an allowlist whose next clause names what else there is
//! ("Only flash to `/dev/ttyACM0`; anything on `/dev/ttyUSB*` is the production line").

use super::lexicon::Cues;
use crate::normalize::WordRuns;
use crate::{Constraint, Matcher, MatcherKind};

/// The longest text read: a rule and its reason.
const MAX_TEXT_BYTES: usize = 400;

/// The words after "only" that put a command in a place: "only against", "only for".
const PLACE_PREPOSITIONS: &[&str] = &["against", "for", "in", "on", "with"];

/// The words that stand for the machine the agent runs on ("only against localhost").
const LOCAL_WORDS: &[&str] = &["local", "localhost"];

/// The code spans of a text, with their offsets.
fn spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for (index, piece) in text.split('`').enumerate() {
        if index % 2 == 1 && !piece.trim().is_empty() {
            out.push((at, piece.trim()));
        }
        at += piece.len() + 1;
    }
    out
}

/// A single lower-case word, as a CLI's subcommand is spelled (`drain`, `scale`).
fn is_verb(span: &str) -> bool {
    span.len() >= 2 && span.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-')
}

/// The variables and options a program takes its environment's name from (`RAILS_ENV=test
/// bin/rails ...`, `NODE_ENV=test npx ...`, `--env=test`).
const ENVIRONMENT_SETTINGS: &[&str] = &[
    "rails_env=",
    "rack_env=",
    "node_env=",
    "app_env=",
    "mix_env=",
    "flask_env=",
    "django_env=",
    "aspnetcore_environment=",
];

/// "`bin/rails db:reset` is forbidden outside the test environment", "except in the staging
/// environment": the environment a ban leaves out, as the settings that name it (lower-case
/// literals of the call's assignments). `None` without such a phrase.
pub(crate) fn environment_left_out(lower: &str) -> Option<Vec<Matcher>> {
    const OPENINGS: &[&str] = &[
        "outside the ",
        "outside of the ",
        "except in the ",
        "other than the ",
        "anywhere but the ",
        "unless it is the ",
    ];
    let name = OPENINGS.iter().find_map(|opening| {
        let at = lower.find(opening)? + opening.len();
        let mut words = lower[at..].split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '-');
        let name = words.next()?;
        let noun = words.next()?;
        (matches!(noun, "environment" | "env")
            && name.len() >= 2
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-'))
        .then_some(name)
    })?;
    Some(
        ENVIRONMENT_SETTINGS
            .iter()
            .map(|setting| Matcher::new(MatcherKind::Literal, format!("{setting}{name}")))
            .chain(
                ["--env=", "--environment="]
                    .iter()
                    .map(|flag| Matcher::new(MatcherKind::Flag, format!("{flag}{name}"))),
            )
            .collect(),
    )
}

/// "any `bq` command that writes (load, cp, rm, mk)": the subcommands a parenthesised list
/// after a program's code span names, in its sentence; the order is of those. Two words at
/// least, each one plain word (`rm`, `db:seed`), so "(or yarn)" or "(use uv)" is none.
pub(crate) fn listed_subcommands(text: &str) -> Option<(String, Vec<String>)> {
    if text.len() > MAX_TEXT_BYTES || !text.is_ascii() {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    for (at, span) in spans(&lower) {
        let after = at + span.len() + 1;
        let Some(rest) = lower.get(after..) else {
            continue;
        };
        let sentence = rest.split(". ").next().unwrap_or(rest);
        let Some(open) = sentence.find('(') else {
            continue;
        };
        // The list belongs to the span it follows: no other span between them.
        if open > 80 || sentence[..open].contains('`') {
            continue;
        }
        let Some(close) = sentence[open..].find(')') else {
            continue;
        };
        let items: Vec<String> = sentence[open + 1..open + close]
            .split([',', '/'])
            .flat_map(|part| part.split(" or ").flat_map(|part| part.split(" and ")))
            .map(|item| {
                item.trim()
                    .trim_start_matches("or ")
                    .trim_start_matches("and ")
            })
            .map(str::to_owned)
            .collect();
        let plain = |item: &String| {
            !item.is_empty()
                && item.len() <= 24
                && item.starts_with(|ch: char| ch.is_ascii_lowercase())
                && item
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || "-_:".contains(ch))
        };
        let program_like =
            !span.contains(' ') && is_verb(span.trim_end_matches(|ch: char| ch.is_ascii_digit()));
        if program_like && (2..=8).contains(&items.len()) && items.iter().all(plain) {
            return Some((span.to_owned(), items));
        }
    }
    None
}

/// The options a command is told its target with (the cluster, namespace, stack, space,
/// environment, project or app it acts on), long ones, whose meaning is the same for every
/// program: a call that gives one names its target.
const TARGET_OPTIONS: &[&str] = &[
    "--account",
    "--app",
    "--cluster",
    "--context",
    "--env",
    "--environment",
    "--kube-context",
    "--namespace",
    "--org",
    "--project",
    "--space",
    "--stack",
    "--target",
    "--workspace",
    "-namespace",
];

/// The nouns of a place a command acts on, after "the prod ..." ("on the prod stack").
const PLACE_NOUNS: &[&str] = &[
    "account",
    "app",
    "cluster",
    "context",
    "database",
    "db",
    "env",
    "environment",
    "namespace",
    "project",
    "site",
    "space",
    "stack",
    "workspace",
];

/// "Never run `helm upgrade` against production", "`pulumi destroy` on the prod stack needs
/// my approval", "No `cf push` to the prod space": the word the text names production with,
/// when it scopes the order to it. `None` without such a phrase.
pub(crate) fn production_scope(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(|word| word.trim_matches(|ch: char| ",.;:!()`".contains(ch)))
        .collect();
    words.iter().enumerate().find_map(|(at, word)| {
        let name = match *word {
            "prod" => "prod",
            "production" => "production",
            _ => return None,
        };
        let before = |back: usize| at.checked_sub(back).and_then(|index| words.get(index));
        let after_place =
            before(1).is_some_and(|word| matches!(*word, "against" | "in" | "on" | "to"));
        let after_the = before(1).is_some_and(|word| matches!(*word, "the" | "a"))
            && before(2).is_some_and(|word| matches!(*word, "against" | "in" | "on" | "to"))
            && words
                .get(at + 1)
                .is_some_and(|noun| PLACE_NOUNS.contains(noun));
        (after_place || after_the).then_some(name)
    })
}

/// The names of targets that are not production, as a call gives them to an option.
const NON_PRODUCTION: &[&str] = &[
    "dev",
    "development",
    "local",
    "preview",
    "qa",
    "sandbox",
    "stage",
    "staging",
    "test",
    "testing",
];

/// "`pulumi destroy` on the prod stack needs my approval": the options a call names another
/// target of that kind with (`--stack dev`, `--stack=staging`), as exceptions of the ban: the
/// kind named after "the prod", given a value of [`NON_PRODUCTION`]. A call that names another
/// target by a name that is not known to be one (`--stack acme-prod`, `--stack eu`) keeps the
/// verdict. Empty without such a phrase.
pub(crate) fn other_targets_named(lower: &str) -> Vec<Matcher> {
    let words: Vec<&str> = lower
        .split_whitespace()
        .map(|word| word.trim_matches(|ch: char| ",.;:!()`".contains(ch)))
        .collect();
    let Some(noun) = words.windows(4).find_map(|window| match window {
        [preposition, "the", "prod" | "production", noun]
            if matches!(*preposition, "against" | "in" | "on" | "to")
                && PLACE_NOUNS.contains(noun) =>
        {
            Some(*noun)
        }
        _ => None,
    }) else {
        return Vec::new();
    };
    let options: &[&str] = match noun {
        "env" | "environment" => &["--env", "--environment"],
        _ => &[],
    };
    let named = format!("--{noun}");
    let options: Vec<&str> = if options.is_empty() {
        vec![named.as_str()]
    } else {
        options.to_vec()
    };
    options
        .iter()
        .filter(|option| TARGET_OPTIONS.contains(option))
        .flat_map(|option| {
            NON_PRODUCTION
                .iter()
                .map(move |value| Matcher::new(MatcherKind::Flag, format!("{option}={value}")))
        })
        .collect()
}

/// "Never run `helm uninstall` against production": what the text derives asks for the word
/// production in the call; a call that names no target at all runs against whatever is the
/// default, which may be production, so the command is banned there too unless the call
/// names its target with an option ([`TARGET_OPTIONS`]: `--kube-context staging` is allowed).
fn untargeted_commands(text: &str, lower: &str, ask_first: bool) -> Vec<Constraint> {
    if production_scope(lower).is_none() {
        return Vec::new();
    }
    let except: Vec<Matcher> = TARGET_OPTIONS
        .iter()
        .map(|option| Matcher::new(MatcherKind::Flag, *option))
        .collect();
    spans(text)
        .into_iter()
        .filter(|(_, span)| span.contains(' ') && !span.starts_with('-'))
        .map(|(_, span)| {
            Constraint::forbid(vec![Matcher::new(
                MatcherKind::Command,
                span.to_lowercase(),
            )])
            .with_except(except.clone())
            .with_ask_first(ask_first)
        })
        .collect()
}

/// The readings of a critical or high rule's text; empty for most.
pub(crate) fn scope_readings(text: &str) -> Vec<Constraint> {
    if text.len() > MAX_TEXT_BYTES || !text.is_ascii() {
        return Vec::new();
    }
    let lower = text.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    let mut readings = Vec::new();
    if cues.forbid.is_some() || cues.ask.is_some() {
        readings.extend(verbs_against_places(text, &lower, cues.ask.is_some()));
        readings.extend(untargeted_commands(text, &lower, cues.ask.is_some()));
    }
    if cues.require.is_none() {
        readings.extend(only_in_a_place(text, &lower));
        readings.extend(others_than_the_allowed(text, &lower));
    }
    readings.retain(|reading| reading.validate().is_ok());
    readings
}

/// "No `delete`, `scale` or `exec` against `cluster-a` or `cluster-b`": each verb, in a call
/// that names one of the places (its `--context`, its host).
fn verbs_against_places(text: &str, lower: &str, ask_first: bool) -> Vec<Constraint> {
    let Some(against) = lower.find(" against ") else {
        return Vec::new();
    };
    let all = spans(text);
    let verbs: Vec<&str> = all
        .iter()
        .filter(|(at, span)| *at < against && is_verb(span))
        .map(|(_, span)| *span)
        .collect();
    let places: Vec<Matcher> = all
        .iter()
        .filter(|(at, span)| *at > against && !span.contains(' '))
        .map(|(_, span)| Matcher::new(MatcherKind::Literal, span.to_lowercase()))
        .collect();
    if verbs.len() < 2 || places.is_empty() {
        return Vec::new();
    }
    verbs
        .iter()
        .map(|verb| {
            Constraint::forbid(places.clone())
                .with_when(vec![Matcher::new(MatcherKind::Literal, (*verb).to_owned())])
                .with_ask_first(ask_first)
        })
        .collect()
}

/// "`flask db downgrade` is only OK against localhost", "only run `rake db:reset` for
/// `RAILS_ENV=test`": the command, unless the call names the place.
fn only_in_a_place(text: &str, lower: &str) -> Vec<Constraint> {
    let words: Vec<&str> = lower
        .split(|ch: char| ch.is_whitespace())
        .map(|word| word.trim_matches(|ch: char| ",.;:!".contains(ch)))
        .collect();
    let Some(only) = words.iter().position(|word| *word == "only") else {
        return Vec::new();
    };
    let Some(preposition) = words[only + 1..]
        .iter()
        .take(4)
        .position(|word| PLACE_PREPOSITIONS.contains(word))
        .map(|offset| only + 1 + offset)
    else {
        return Vec::new();
    };
    let all = spans(text);
    let command = all.iter().find(|(_, span)| {
        span.contains(' ') && span.starts_with(|ch: char| ch.is_ascii_lowercase())
    });
    let Some((command_at, command)) = command else {
        return Vec::new();
    };
    // The place: a code span after the preposition, or "localhost" / "local".
    let after: Vec<&str> = words[preposition + 1..]
        .iter()
        .take(3)
        .copied()
        .filter(|word| !matches!(*word, "the" | "a" | "our" | "your"))
        .collect();
    let mut places: Vec<String> = Vec::new();
    if after
        .first()
        .is_some_and(|word| LOCAL_WORDS.contains(&word.trim_matches('`')))
    {
        places.extend(["localhost", "127.0.0.1", "local"].map(str::to_owned));
    } else if let Some((_, place)) = all.iter().find(|(at, span)| {
        at != command_at
            && after
                .first()
                .is_some_and(|word| word.trim_matches('`') == span.to_lowercase())
    }) {
        places.push(place.to_lowercase());
    }
    if places.is_empty() {
        return Vec::new();
    }
    vec![
        Constraint::forbid(vec![Matcher::new(
            MatcherKind::Command,
            command.to_lowercase(),
        )])
        .with_except(
            places
                .into_iter()
                .map(|place| Matcher::new(MatcherKind::Literal, place))
                .collect(),
        ),
    ]
}

/// "Only submit to cluster `id-A`; `id-B` runs the nightly", "Only upload to `/dev/ttyACM0`;
/// anything on `/dev/ttyUSB*` is the line": an allowlist whose next clause names other places
/// than the allowed one, without an order of its own, names what the allowlist keeps out.
fn others_than_the_allowed(text: &str, lower: &str) -> Vec<Constraint> {
    let Some(end) = lower.find(';').or_else(|| lower.find(". ")) else {
        return Vec::new();
    };
    let first = &lower[..end];
    if !first.split_whitespace().any(|word| word == "only") {
        return Vec::new();
    }
    let rest_cues = Cues::of(&WordRuns::new(&lower[end..]));
    if rest_cues.forbid.is_some() || rest_cues.require.is_some() || rest_cues.ask.is_some() {
        return Vec::new();
    }
    let all = spans(text);
    let allowed: Vec<String> = all
        .iter()
        .filter(|(at, _)| *at < end)
        .map(|(_, span)| span.to_lowercase())
        .collect();
    if allowed.is_empty() {
        return Vec::new();
    }
    let others: Vec<Matcher> = all
        .iter()
        .filter(|(at, span)| {
            *at > end && !span.contains(' ') && !allowed.contains(&span.to_lowercase())
        })
        .map(|(_, span)| {
            let kind = if span.starts_with('/') || span.starts_with("~/") {
                MatcherKind::Path
            } else {
                MatcherKind::Literal
            };
            Matcher::new(kind, span.to_lowercase())
        })
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    vec![Constraint::forbid(others)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readings(text: &str) -> Vec<String> {
        scope_readings(text)
            .iter()
            .map(Constraint::to_json)
            .collect()
    }

    #[test]
    fn verbs_against_places_are_each_verb_with_any_place() {
        assert_eq!(
            readings("No `delete`, `scale` or `exec` against `cluster-a` or `cluster-b`."),
            [
                r#"{"matchers":[{"kind":"literal","value":"cluster-a"},{"kind":"literal","value":"cluster-b"}],"polarity":"forbid","when":[{"kind":"literal","value":"delete"}]}"#,
                r#"{"matchers":[{"kind":"literal","value":"cluster-a"},{"kind":"literal","value":"cluster-b"}],"polarity":"forbid","when":[{"kind":"literal","value":"scale"}]}"#,
                r#"{"matchers":[{"kind":"literal","value":"cluster-a"},{"kind":"literal","value":"cluster-b"}],"polarity":"forbid","when":[{"kind":"literal","value":"exec"}]}"#,
            ]
        );
        assert!(readings("Run `kubectl get pods` against `cluster-a` when you like.").is_empty());
    }

    #[test]
    fn a_ban_scoped_to_production_holds_where_the_call_names_no_target() {
        for text in [
            "Never run `helm uninstall` against production.",
            "`pulumi destroy` on the prod stack needs my approval.",
        ] {
            let found = readings(text);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert!(
                found[0].contains(r#""except":[{"kind":"flag","value":"--account"}"#),
                "{found:?}"
            );
        }
        assert_eq!(
            production_scope("never run it against production"),
            Some("production")
        );
        // The kind of target named: another one of that kind, known not to be production.
        let others = other_targets_named("`pulumi destroy` on the prod stack needs my approval.");
        assert!(others.iter().any(|matcher| matcher.value == "--stack=dev"));
        assert!(
            others
                .iter()
                .all(|matcher| matcher.value.starts_with("--stack="))
        );
        assert!(other_targets_named("never run it against production").is_empty());
        // Production named otherwise is no scope of the order.
        assert_eq!(
            production_scope("production builds are slow; never run `make clean`"),
            None
        );
    }

    #[test]
    fn a_command_only_in_a_place_is_forbidden_elsewhere() {
        assert_eq!(
            readings("`rails db:drop` is only OK against localhost."),
            [
                r#"{"except":[{"kind":"literal","value":"localhost"},{"kind":"literal","value":"127.0.0.1"},{"kind":"literal","value":"local"}],"matchers":[{"kind":"command","value":"rails db:drop"}],"polarity":"forbid"}"#
            ]
        );
        assert!(readings("`rails db:drop` is fine.").is_empty());
    }

    #[test]
    fn an_allowlist_s_next_clause_names_what_it_keeps_out() {
        assert_eq!(
            readings("Only submit to cluster `id-A`; `id-B` runs the nightly."),
            [r#"{"matchers":[{"kind":"literal","value":"id-b"}],"polarity":"forbid"}"#]
        );
        assert!(readings("Only submit to cluster `id-A`; ask me about `id-B`.").is_empty());
    }
}
