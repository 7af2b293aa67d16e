//! "Anything but X" allowlists through a tool or a program (issue 21, fifth round): "never
//! send anything but `SELECT` through the db tool", "nothing except `GET` requests with
//! `http`", "with `git`, nothing except `status`, `log` and `diff`". What follows the phrase
//! is what is allowed; everything else the tool or the program does is forbidden. Read as
//! written, the allowed statement was the thing forbidden (`select` as a literal).

use crate::derive::lexicon::{DATABASE_TOOL_WORDS, SQL_WRITE_STATEMENTS, is_program};
use crate::{Constraint, Matcher, MatcherKind};

/// The phrases that open the list of what is allowed.
const ALLOWING_PHRASES: &[&str] = &[
    "anything besides ",
    "anything but ",
    "anything except ",
    "anything other than ",
    "nothing besides ",
    "nothing but ",
    "nothing except ",
    "nothing other than ",
];

/// HTTP methods, and the flags of HTTP clients that send a body (a `POST` by default).
const HTTP_METHODS: &[&str] = &[
    "connect", "delete", "get", "head", "options", "patch", "post", "put", "trace",
];
const BODY_FLAGS: &[&str] = &[
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--form",
    "--json",
    "--upload-file",
    "-F",
    "-T",
    "-d",
];
/// Programs that send HTTP requests, whose method is a flag's value or a word.
const HTTP_CLIENTS: &[&str] = &["curl", "http", "https", "httpie", "wget", "xh"];

/// The constraint of an "anything but X" rule, or `None` when the text has no such phrase
/// before a code span, or what it allows is neither statements on a database tool, methods
/// of an HTTP client nor subcommands of a program.
pub(crate) fn anything_but(text: &str, tool_name: &str) -> Option<Constraint> {
    // ASCII lower-casing keeps the text's offsets, which the spans are compared with.
    let lower = text.to_ascii_lowercase();
    let at = ALLOWING_PHRASES
        .iter()
        .filter_map(|phrase| lower.find(phrase))
        .min()?;
    let tool = tool_name.trim().to_lowercase();
    let own_tool = tool.rsplit("__").next().unwrap_or(&tool).to_owned();
    // The code spans: before the phrase they can only name the program ("with `git`,
    // nothing except ..."), after it the allowed items and maybe the program.
    let mut program: Option<String> = None;
    let mut allowed: Vec<String> = Vec::new();
    let mut offset = 0;
    // Statements written as SQL is (`SELECT`), not subcommands (`describe`).
    let mut capitals = true;
    for (index, piece) in text.split('`').enumerate() {
        let start = offset;
        offset += piece.len() + 1;
        if index % 2 == 0 {
            continue;
        }
        let written = piece.trim();
        let span = written.to_lowercase();
        if span.is_empty() || span == own_tool || span == tool {
            continue;
        }
        let single = !span.contains(char::is_whitespace);
        if program.is_none()
            && single
            && (is_program(&span) || HTTP_CLIENTS.contains(&span.as_str()))
            && !HTTP_METHODS.contains(&span.as_str())
        {
            program = Some(span);
            continue;
        }
        if start > at && single {
            capitals &= written.chars().all(|ch| ch.is_ascii_uppercase());
            allowed.push(span);
        }
    }
    if allowed.is_empty() {
        return None;
    }
    let database = tool
        .split(|ch: char| !ch.is_alphanumeric())
        .any(|word| DATABASE_TOOL_WORDS.contains(&word))
        || program
            .as_deref()
            .is_some_and(|program| matches!(program, "psql" | "mysql" | "sqlite3" | "mariadb"));
    let http_client = program
        .as_deref()
        .is_some_and(|program| HTTP_CLIENTS.contains(&program));
    let all_in = |list: &[&str]| allowed.iter().all(|item| list.contains(&item.as_str()));
    if (database || capitals) && all_in(SQL_WRITE_STATEMENTS_AND_READS) && !http_client {
        // Statements: every write statement the list leaves out, each its own command.
        let forbidden: Vec<Matcher> = SQL_WRITE_STATEMENTS
            .iter()
            .filter(|statement| !allowed.iter().any(|item| item == *statement))
            .map(|statement| Matcher::new(MatcherKind::Command, *statement))
            .collect();
        return (!forbidden.is_empty()).then(|| Constraint::forbid(forbidden));
    }
    let program = program?;
    if http_client && all_in(HTTP_METHODS) {
        let mut forbidden: Vec<Matcher> = HTTP_METHODS
            .iter()
            .filter(|method| !allowed.iter().any(|item| item == *method))
            .map(|method| Matcher::new(MatcherKind::Literal, *method))
            .collect();
        if !allowed.iter().any(|item| item == "post" || item == "put") {
            forbidden.extend(
                BODY_FLAGS
                    .iter()
                    .map(|flag| Matcher::new(MatcherKind::Flag, *flag)),
            );
        }
        return Some(
            Constraint::forbid(forbidden)
                .with_when(vec![Matcher::new(MatcherKind::Command, program)]),
        );
    }
    // Subcommands: every call of the program but those.
    let except: Vec<Matcher> = allowed
        .iter()
        .map(|sub| Matcher::new(MatcherKind::Command, format!("{program} {sub}")))
        .collect();
    let constraint =
        Constraint::forbid(vec![Matcher::new(MatcherKind::Command, program)]).with_except(except);
    constraint.validate().is_ok().then_some(constraint)
}

/// "`ansible-playbook` only with `--check`", "`pulumi` only with `--preview-only`, never a
/// plain `pulumi up`": the program is allowed with the flag alone, so a call of it without
/// the flag is asked about, as a positive order that spells a command with its flag is (see
/// "Polarity" in docs/guard.md). Read as written, the flag refined the plain command into a
/// ban of the one allowed spelling.
pub(crate) fn only_with_flag(text: &str) -> Option<Constraint> {
    // ASCII lower-casing keeps the offsets the text is cut at.
    let lower = text.to_ascii_lowercase();
    // "only with", and the passive "are only ever run with", "is always invoked with": the
    // words between the commands and "with" say no more than that.
    let (cut, flag_at) = lower.match_indices(" with `").find_map(|(at, with)| {
        let span_end = lower[..at].rfind('`')? + 1;
        let filler: Vec<&str> = lower[span_end..at].split_whitespace().collect();
        (filler.iter().all(|word| ONLY_WITH_FILLERS.contains(word))
            && filler.iter().any(|word| matches!(*word, "only" | "always")))
        .then_some((span_end, at + with.len()))
    })?;
    // "`dbt run`/`dbt build` only with ...": each command listed before (by a slash, a comma,
    // "or", "and"), the spans back to the first that is joined by something else.
    let before: Vec<&str> = text[..cut].split('`').collect();
    if before.len() < 3 || !before.last()?.trim().is_empty() {
        return None;
    }
    let mut programs = Vec::new();
    let mut span = before.len() - 2;
    loop {
        programs.push(before[span].trim().to_lowercase());
        if span < 2 {
            break;
        }
        let joint = before[span - 1].trim().to_ascii_lowercase();
        if !matches!(joint.as_str(), "/" | "," | "or" | "and" | ", or" | ", and") {
            break;
        }
        span -= 2;
    }
    let flag = text[flag_at..].split('`').next()?.trim();
    // `--target dev`: the option with its value.
    let flag = match flag.split_once(char::is_whitespace) {
        Some((name, value)) if !value.trim().contains(char::is_whitespace) => {
            format!("{name}={}", value.trim())
        }
        Some(_) => return None,
        None => flag.to_owned(),
    };
    if !flag.starts_with('-') || programs.iter().any(String::is_empty) {
        return None;
    }
    let constraint = Constraint::require(vec![Matcher::new(MatcherKind::Flag, flag)])
        .with_when(
            programs
                .into_iter()
                .rev()
                .map(|program| Matcher::new(MatcherKind::Command, program))
                .collect(),
        )
        .with_ask_first(true);
    constraint.validate().is_ok().then_some(constraint)
}

/// The words a requirement puts between its commands and "with `flag`": "only", "always",
/// the passive's copula and participle ("are only ever run", "is always invoked").
const ONLY_WITH_FILLERS: &[&str] = &[
    "always", "are", "be", "called", "ever", "executed", "get", "gets", "invoked", "is", "only",
    "ran", "run", "should", "used",
];

/// Every statement a database list may allow.
const SQL_WRITE_STATEMENTS_AND_READS: &[&str] = &[
    "alter", "call", "copy", "create", "delete", "describe", "drop", "explain", "grant", "insert",
    "merge", "rename", "replace", "revoke", "select", "show", "truncate", "update", "upsert",
    "vacuum", "with",
];

#[cfg(test)]
mod tests {
    use super::anything_but;

    fn check(tool: &str, text: &str, expected: Option<&str>) {
        let got = anything_but(text, tool).map(|constraint| constraint.to_json());
        assert_eq!(got.as_deref(), expected, "{tool}: {text}");
    }

    #[test]
    fn statements_methods_and_subcommands() {
        let reading = anything_but(
            "Never send anything but `SELECT` through the db tool.",
            "run_query",
        )
        .expect("a reading")
        .to_json();
        assert!(
            reading.contains(r#""value":"delete""#) && !reading.contains("select"),
            "{reading}"
        );
        check(
            "bash",
            "Nothing except `GET` requests with `http`.",
            Some(
                r#"{"matchers":[{"kind":"literal","value":"connect"},{"kind":"literal","value":"delete"},{"kind":"literal","value":"head"},{"kind":"literal","value":"options"},{"kind":"literal","value":"patch"},{"kind":"literal","value":"post"},{"kind":"literal","value":"put"},{"kind":"literal","value":"trace"},{"kind":"flag","value":"--data"},{"kind":"flag","value":"--data-binary"},{"kind":"flag","value":"--data-raw"},{"kind":"flag","value":"--data-urlencode"},{"kind":"flag","value":"--form"},{"kind":"flag","value":"--json"},{"kind":"flag","value":"--upload-file"},{"kind":"flag","value":"-F"},{"kind":"flag","value":"-T"},{"kind":"flag","value":"-d"}],"polarity":"forbid","when":[{"kind":"command","value":"http"}]}"#,
            ),
        );
        check(
            "bash",
            "With `git`, nothing except `status` and `log`.",
            Some(
                r#"{"except":[{"kind":"command","value":"git status"},{"kind":"command","value":"git log"}],"matchers":[{"kind":"command","value":"git"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn only_with_a_flag_requires_it() {
        let reading = super::only_with_flag(
            "`pulumi` only with `--preview-only`, never a plain `pulumi up`.",
        )
        .map(|constraint| constraint.to_json());
        assert_eq!(
            reading.as_deref(),
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--preview-only"}],"polarity":"require","when":[{"kind":"command","value":"pulumi"}]}"#
            )
        );
        assert!(super::only_with_flag("Run tests only with `pytest`.").is_none());
        // The passive says the same: each command listed requires the option with its value.
        let passive = super::only_with_flag(
            "`cdk deploy` and `cdk destroy` are only ever run with `--profile sandbox`.",
        )
        .map(|constraint| constraint.to_json());
        assert_eq!(
            passive.as_deref(),
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--profile=sandbox"}],"polarity":"require","when":[{"kind":"command","value":"cdk deploy"},{"kind":"command","value":"cdk destroy"}]}"#
            )
        );
        // Words other than the requirement's between the command and "with" are another order.
        assert!(super::only_with_flag("`cdk deploy` is slow with `--profile sandbox`.").is_none());
        assert!(super::only_with_flag("`cdk deploy` is run with `--profile sandbox`.").is_none());
        // Text whose lower case is longer than it (`İ`) is cut where it was found.
        let reading = super::only_with_flag("İİİ `helm` ONLY WITH `--atomic`").map(|c| c.to_json());
        assert!(reading.is_some_and(|json| json.contains("--atomic")));
    }

    #[test]
    fn no_list_after_the_phrase_is_no_allowlist() {
        check(
            "bash",
            "Never run `rm -rf` on anything but `/tmp/x/`.",
            None,
        );
        check("bash", "Say nothing but the truth.", None);
    }
}
