//! Orders given without the words of an order (issue 21, fifteenth round), restated as the
//! ban they give so that the grammar reads them as written: "`helm upgrade` is only allowed
//! from CI" (X3: the agent is never CI, so it may not run it), "`git switch` only; `git
//! checkout` can clobber files" (X4: the alternative the reason is given against is banned),
//! "`charts/prod/values.yaml` — never edit." (X7: a lead-in set off by a dash is one set off
//! by a colon). And a ban of printing a file, which is about the commands that print it
//! ([`printed_only`]).
//! Only a text that derives nothing as written is restated (see [`super::derive_from_text`]).

use crate::derive::tokens::quoted_spans;
use crate::{Constraint, Matcher, MatcherKind, Polarity};

/// "Never delete calendar events, even ones that look like duplicates", "deleting W&B runs,
/// even failed ones" (Y4, sixteenth round): a concession set off by a comma ("even ...")
/// narrows nothing, so the text is read without it; and on a tool whose action is the verb the
/// text opens on in its `-ing` form (`delete_event`, `delete_run`), a bare gerund is an item of
/// a list of bans whose "Never:" was not stored with it. `None` when neither applies.
pub(crate) fn own_action_order(text: &str, tool_name: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let conceded = lower.find(", even ").map(|at| {
        // To the end of the sentence: what follows it is read as written.
        let rest = &lower[at + 2..];
        let end = rest
            .find(['.', ';', '!', '\n'])
            .map_or(lower.len(), |offset| at + 2 + offset + 1);
        format!("{}{}", &text[..at], &text[end.min(text.len())..])
    });
    let read = conceded.as_deref().unwrap_or(text).trim();
    let first = read
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let opens_on_the_action = super::whole_tool::action_words(tool_name)
        .and_then(|action| action.into_iter().next())
        .zip(first.strip_suffix("ing"))
        .is_some_and(|(verb, stem)| is_gerund_of(stem, &verb));
    if opens_on_the_action {
        return Some(format!("Never: {read}"));
    }
    conceded
}

/// Whether `stem` + "ing" is the gerund of `verb`: `delet` of `delete`, `archiv` of `archive`,
/// `runn` of `run`, `merg` of `merge`, `send` of `send`.
fn is_gerund_of(stem: &str, verb: &str) -> bool {
    stem.len() >= 2
        && (stem == verb
            || verb.strip_suffix('e') == Some(stem)
            || stem.strip_suffix(|ch: char| verb.ends_with(ch)) == Some(verb))
}

/// The prepositions that put an option on an object ("`--purge` on the `orders` job").
const OBJECT_PREPOSITIONS: &[&str] = &["against", "for", "in", "on", "to", "with"];

/// "Never pass `--purge` on the `orders` job", "never use `--force` with the `main` branch": a
/// ban read as two matchers, an option and a literal, where the text puts the option's span
/// on the literal's by a preposition (at most "the" between): the option, in a call that
/// names the object. `None` for any other shape.
pub(crate) fn option_on_an_object(text: &str, derived: &Constraint) -> Option<Constraint> {
    let [first, second] = derived.matchers.as_slice() else {
        return None;
    };
    let (flag, object) = match (first.kind, second.kind) {
        (MatcherKind::Flag, MatcherKind::Literal) => (first, second),
        (MatcherKind::Literal, MatcherKind::Flag) => (second, first),
        _ => return None,
    };
    if !derived.when.is_empty()
        || !derived.except.is_empty()
        || !derived.also.is_empty()
        || !matches!(derived.polarity, Polarity::Forbid)
    {
        return None;
    }
    let spans = quoted_spans(text);
    let flag_span = spans
        .iter()
        .find(|(_, _, content, _)| content.eq_ignore_ascii_case(&flag.value))?;
    let object_span = spans
        .iter()
        .find(|(_, _, content, _)| content.eq_ignore_ascii_case(&object.value))?;
    let between = text.get(flag_span.1..object_span.0)?.to_lowercase();
    let words: Vec<&str> = between.split_whitespace().collect();
    let joined = match words.as_slice() {
        [preposition] | [preposition, "the"] => OBJECT_PREPOSITIONS.contains(preposition),
        _ => false,
    };
    joined.then(|| {
        let mut constraint = derived.clone();
        constraint.matchers = vec![flag.clone()];
        constraint.when = vec![object.clone()];
        constraint
    })
}

/// "`terraform apply` is only allowed from CI", "Releases are CI-only (`goreleaser
/// release`)", "Only CI may run `pulumi up`": the commands in code spans of a text that
/// reserves them to CI, as a ban ("Never run `terraform apply`."). A `CI=true` before the
/// command does not make the agent CI, so nothing is excepted. `None` without such a phrase
/// or a command span.
pub(crate) fn reserved_to_ci(text: &str) -> Option<String> {
    // Only the sentences that reserve something: "Tests run only in CI; locally use `cargo
    // check`" reserves no `cargo check`.
    let mut commands: Vec<&str> = Vec::new();
    for sentence in text
        .split_inclusive([';', '\n'])
        .flat_map(|part| part.split_inclusive(". "))
    {
        if reserves_to_ci(&sentence.to_ascii_lowercase()) {
            commands.extend(
                quoted_spans(sentence)
                    .into_iter()
                    .filter(|(.., backtick)| *backtick)
                    .map(|(_, _, content, _)| content.trim())
                    .filter(|content| names_a_command(content)),
            );
        }
    }
    ban_of(&commands)
}

/// Whether a lower-case text reserves what it names to CI: "CI-only", "only (allowed) from /
/// in / via / through / by CI", "only CI may / can / should", "reserved for CI". "CI only
/// runs the fast suite" describes CI and is none (a verb follows "CI only").
fn reserves_to_ci(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-' || ch == '\''))
        .filter(|word| !word.is_empty())
        .collect();
    words.iter().enumerate().any(|(index, word)| {
        let before = |back: usize| index.checked_sub(back).map(|at| words[at]);
        match *word {
            "ci-only" => true,
            // "Prod migrations are CI's job".
            "ci's" => words
                .get(index + 1)
                .is_some_and(|next| matches!(*next, "job" | "responsibility" | "task")),
            "ci" => {
                // "only from CI", "only ever run in the CI", "reserved for CI".
                let preposition = match before(1) {
                    Some("the") => before(2),
                    other => other,
                };
                let only_near = (1..=5).any(|back| before(back) == Some("only"));
                (matches!(
                    preposition,
                    Some("from" | "in" | "via" | "through" | "by" | "on")
                ) && only_near)
                    || (matches!(preposition, Some("for")) && before(2) == Some("reserved"))
                    || (before(1) == Some("only")
                        && words.get(index + 1).is_some_and(|next| {
                            matches!(*next, "may" | "can" | "should" | "is" | "does")
                        }))
            }
            _ => false,
        }
    })
}

/// "Use `uv` only — `pip` breaks the lockfile", "`git switch` only; `git checkout` can
/// clobber files": a command allowed alone, then, after a clause boundary, another command
/// in code with the reason against it, which is the one banned ("Never use `git
/// checkout`."). The other clause gives no order of its own (the grammar reads those), and
/// names another command.
pub(crate) fn alternative_explained(text: &str) -> Option<String> {
    let spans = quoted_spans(text);
    let lower = text.to_ascii_lowercase();
    if lower.len() != text.len() {
        return None;
    }
    for pair in spans.windows(2) {
        let (_, allowed_end, allowed, _) = pair[0];
        let (other_start, _, other, backtick) = pair[1];
        if !backtick
            || !plain_command(allowed.trim())
            || !plain_command(other.trim())
            || allowed.trim() == other.trim()
        {
            continue;
        }
        // "`A` only; `B` ..." or "`A` only — `B` ...": "only" right after the first span,
        // then one boundary mark and nothing else before the second.
        let between = lower[allowed_end..other_start].trim_matches(['`', ' ']);
        let Some(rest) = between.strip_prefix("only") else {
            continue;
        };
        if !matches!(rest.trim(), ";" | "—" | "–" | "-" | "--" | ":" | "," | ".") {
            continue;
        }
        // The clause after the second span is its reason, with no order of its own.
        let reason = lower[other_start..]
            .split(['.', ';', '\n'])
            .next()
            .unwrap_or_default();
        if ["never", "don't", "do not", "avoid", "only", "instead"]
            .iter()
            .any(|cue| reason.contains(cue))
        {
            continue;
        }
        return ban_of(&[other.trim()]);
    }
    None
}

/// "`charts/prod/values.yaml` — never edit.", "`ops/dns.tf` – ask before editing": a text
/// that opens on a code span set off by a dash gives its order about what the span names, as
/// "`ops/dns.tf`: ask before editing" does; the dash becomes that colon.
pub(crate) fn lead_in_by_a_dash(text: &str) -> Option<String> {
    let body = text.trim_start();
    let body = body
        .strip_prefix("- ")
        .or_else(|| body.strip_prefix("* "))
        .unwrap_or(body)
        .trim_start();
    let rest = body.strip_prefix('`')?;
    let close = rest.find('`')?;
    let (span, after) = (&rest[..close], &rest[close + 1..]);
    let order = ["—", "–", "--", "-"]
        .iter()
        .find_map(|dash| after.trim_start().strip_prefix(dash))?;
    (!span.trim().is_empty() && after.starts_with(char::is_whitespace) && !order.trim().is_empty())
        .then(|| format!("`{span}`: {}", order.trim_start()))
}

/// "`./deploy.sh prod` pushes straight to production, so please don't run it", "`make nuke`
/// removes every volume; ask me before you run it": a text that opens on a command in code
/// and orders, after its reason, about "it" is that order about the command; the reason's
/// words ("pushes ... to production") are no part of it. The order's clause with the span in
/// place of the pronoun; `None` for any other text.
pub(crate) fn pronoun_after_reason(text: &str) -> Option<String> {
    let body = text.trim_start();
    let body = body
        .strip_prefix("- ")
        .or_else(|| body.strip_prefix("* "))
        .unwrap_or(body);
    let rest = body.strip_prefix('`')?;
    let close = rest.find('`')?;
    let span = rest[..close].trim();
    let after = &rest[close + 1..];
    // What is run may be a script by its path (`./deploy.sh prod`, `bin/reset-db`).
    if span.is_empty() || span.starts_with('-') || after.contains('`') {
        return None;
    }
    // The order is the last clause, after ", so", a dash, a semicolon or a full stop.
    let cut = [", so ", " so ", " — ", " – ", " - ", "; ", ". "]
        .iter()
        .filter_map(|mark| after.rfind(mark).map(|at| at + mark.len()))
        .max()?;
    let order = after[cut..].trim_end_matches(['.', '!', ' ']);
    let words: Vec<&str> = order.split_whitespace().collect();
    let at = words.windows(2).position(|pair| {
        RUNNING_FORMS.contains(&pair[0].to_ascii_lowercase().as_str())
            && matches!(
                pair[1].to_ascii_lowercase().as_str(),
                "it" | "that" | "this"
            )
    })?;
    let mut restated: Vec<String> = words.iter().map(|word| (*word).to_owned()).collect();
    restated[at + 1] = format!("`{span}`");
    Some(format!("{}.", restated.join(" ")))
}

/// Verbs of running before a pronoun that stands for a command ("run it", "running it").
const RUNNING_FORMS: &[&str] = &[
    "call",
    "calling",
    "execute",
    "executing",
    "invoke",
    "invoking",
    "run",
    "running",
    "trigger",
    "triggering",
];

/// Whether a code span is a command rather than a path, an option or a value: a program's
/// name (`docker`), or words that start with one (`git checkout`, `helm upgrade`).
fn names_a_command(content: &str) -> bool {
    let first = content.split_whitespace().next().unwrap_or_default();
    !first.is_empty()
        && !first.starts_with('-')
        && !first.contains(['=', '*'])
        && (super::lexicon::is_program(&first.to_lowercase())
            || (content.contains(' ') && !first.contains('/') && !first.contains('.')))
}

/// Whether a code span is spelt as a command would be, of any program (`bazel`, `make`,
/// `git checkout`): plain words, none a path, an option or a value.
fn plain_command(content: &str) -> bool {
    !content.is_empty()
        && content.split_whitespace().all(|word| {
            word.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | ':'))
                && !word.starts_with('-')
        })
}

/// The ban of `commands` in words the grammar reads: "Never run `a`, `b`."
fn ban_of(commands: &[&str]) -> Option<String> {
    if commands.is_empty() {
        return None;
    }
    let spans: Vec<String> = commands
        .iter()
        .map(|command| format!("`{command}`"))
        .collect();
    Some(format!("Never run {}.", spans.join(", ")))
}

/// Verbs of printing: "Never print it", "Don't ever show the contents of `.env.production`".
const PRINT_VERBS: &[&str] = &[
    "cat",
    "display",
    "displayed",
    "dump",
    "echo",
    "output",
    "print",
    "printed",
    "printing",
    "reveal",
    "show",
    "shown",
    "showing",
];

/// Verbs that say more than printing: "never read or print `.env`" is about every reading.
const BROADER_VERBS: &[&str] = &[
    "access", "commit", "copy", "delete", "edit", "modify", "move", "open", "read", "remove",
    "send", "share", "touch", "upload", "use",
];

/// The commands that print what a file holds (or the lines of it they find).
const PRINTING_COMMANDS: &[&str] = &[
    "awk",
    "base64",
    "bat",
    "batcat",
    "cat",
    "gc",
    "get-content",
    "grep",
    "head",
    "hexdump",
    "jq",
    "less",
    "more",
    "most",
    "nl",
    "od",
    "rg",
    "strings",
    "tac",
    "tail",
    "type",
    "xxd",
    "yq",
];

/// "`config/master.key` is the Rails master key. Never print it.", "Never print
/// `secrets/api.key`": a ban said only with verbs of printing, on files, is about the commands
/// that print them (`cat`, `less`, `head`, `Get-Content`, ...), not every use of the file
/// (`docker build --secret src=...`, `terraform plan -var-file=...`, `gpg --encrypt`).
/// Only on a shell's rule: a rule for every tool keeps the file from the file tools too, whose
/// reading shows it as printing does.
pub(crate) fn printed_only(
    lower: &str,
    tool_name: &str,
    constraint: &Constraint,
) -> Option<Constraint> {
    if tool_memory_core::ToolFamily::of(&tool_name.trim().to_lowercase())
        != Some(tool_memory_core::ToolFamily::Shell)
    {
        return None;
    }
    let words: Vec<&str> = lower
        .split(|ch: char| !(ch.is_alphanumeric() || ch == '-'))
        .filter(|word| !word.is_empty())
        .collect();
    if constraint.polarity != Polarity::Forbid
        || !constraint.when.is_empty()
        || !constraint.also.is_empty()
        || constraint.matchers.is_empty()
        || !constraint
            .matchers
            .iter()
            .all(|matcher| matcher.kind == MatcherKind::Path)
        || !words.iter().any(|word| PRINT_VERBS.contains(word))
        || words.iter().any(|word| BROADER_VERBS.contains(word))
    {
        return None;
    }
    let printing = PRINTING_COMMANDS
        .iter()
        .map(|command| Matcher::new(MatcherKind::Command, *command))
        .collect();
    let mut printed = constraint.clone().with_when(printing);
    printed.access = None;
    printed.validate().is_ok().then_some(printed)
}
