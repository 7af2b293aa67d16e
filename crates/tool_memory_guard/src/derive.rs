//! Derivation of a [`Constraint`] from a rule's words: the literals a user names (addresses,
//! domains, URLs, paths, hosts, commands, flags, quoted text, people) and the words that say
//! whether they are forbidden or required.
//!
//! Derivation is deliberately conservative: it keeps only what the user wrote literally, so a
//! rule it cannot read ("don't email my landlord") stays advice rather than becoming a guess.
//! `docs/guard.md` lists the cue words; the unit tests (`derive/tests.rs`) are the grammar's
//! examples. The grammar is one pass in rooms: `rule_text` reads the markdown and keeps the
//! ordering clauses, `tokens` classifies each word and quoted span once, `entities` reads
//! command phrases, people and hosts from the tokens, `whole_tool` the rules about a tool or
//! an operation as a whole, and this module decides the polarity and assembles the constraint.
//! The word lists are data in `lexicon`.

mod allowlist;
mod anything_but;
mod arguments;
mod conditions;
mod entities;
mod fallback;
mod kinds;
mod lexicon;
mod mentions;
mod narrowing;
mod processes;
mod prose_commands;
mod reasons;
mod restated;
mod scopes;
mod spelling;
mod tokens;
mod whole_tool;

use std::borrow::Cow;

use tool_memory_core::ToolMemoryRule;

use self::entities::{CommandPhrase, command_phrases, handle_name, host_names, person_names};
pub(crate) use self::fallback::{carried_spans, fallback_constraint, unread_clauses};
pub(crate) use self::kinds::{kind_readings, narrowed_to_kinds};
pub(crate) use self::lexicon::is_program;
use self::lexicon::word_class;
use self::lexicon::{
    ANY_ACCESS_VERBS, ASK_CUES, BRANCH, COMMON_WORD, Cues, EXCEPT_CUES, FETCHERS, FLAG_SUBCOMMANDS,
    INTERPRETERS, NAMED_SERVICES, PASTE_SITE_WORDS, PASTE_SITES, PERSON_FILLER, PIPE_WORDS,
    RUN_VERB, SHELLS_OF_PIPES, SQL_KEYWORDS, SQL_PHRASES, URL_CARRIES, URL_WORDS,
};
use self::lexicon::{CHANGING, TAKING, TURNS};
use self::tokens::{TokenKind, flag_value, is_word, tokenize};
use self::whole_tool::{
    action_words, does_the_tool, forbids_an_operation, forbids_the_tool, is_the_tool,
    names_an_operation, names_the_tool, only_one_program, operation_on_the_tool,
    read_only_database, reserved_for_people, says_only_one, says_read_only, topic_words,
};
use crate::call::is_script;
use crate::normalize::WordRuns;
use crate::rule_text::{ordering_clauses, refers_back};
use crate::{Access, Constraint, MAX_ALSO, MAX_MATCHERS, Matcher, MatcherKind, Polarity};

/// Derives the constraint a rule's text states, or `None` when the text names nothing the
/// guard can look for (the rule then only advises).
pub fn derive_constraint(rule: &ToolMemoryRule) -> Option<Constraint> {
    derive_from_text(&rule.rule, &rule.tool_name)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cue {
    Forbid {
        ask_first: bool,
    },
    Require,
    /// "use X instead of Y": Y is forbidden.
    InsteadOf(usize),
}

/// The rule's polarity from the cues of its lower-case text `lower`.
fn polarity_cue(cues: &Cues, lower: &str) -> Option<Cue> {
    if cues.double_negative.is_some() {
        return Some(Cue::Require);
    }
    if cues.ask.is_some() {
        return Some(Cue::Forbid { ask_first: true });
    }
    if cues.forbid.is_some() {
        return Some(Cue::Forbid { ask_first: false });
    }
    if let Some(at) = choice_at(lower) {
        return Some(Cue::InsteadOf(at));
    }
    if cues.require.is_some() {
        return Some(Cue::Require);
    }
    None
}

/// Where a choice between two ways names the one not to take: "use X instead of Y", "X rather
/// than Y", "X in place of Y", "prefer X over Y", "prefer X to Y" (Y is after the offset
/// returned).
fn choice_at(lower: &str) -> Option<usize> {
    let after_prefer = |marker: &str| {
        let prefer = lower.find("prefer")?;
        lower[prefer..]
            .find(marker)
            .map(|at| prefer + at + marker.len() - 1)
    };
    CHOICE_MARKERS
        .iter()
        .filter_map(|marker| lower.find(marker).map(|at| at + marker.len() - 1))
        .min()
        .or_else(|| after_prefer(" over ").or_else(|| after_prefer(" to ")))
}

/// Phrases between the way to take and the way not to (see [`choice_at`]).
const CHOICE_MARKERS: &[&str] = &["in place of ", "instead of ", "rather than "];

/// Whether a clause carries a cue of its own: an order, not an explanation.
fn gives_an_order(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    cues.double_negative.is_some()
        || cues.ask.is_some()
        || cues.forbid.is_some()
        || cues.require.is_some()
        || choice_at(&lower).is_some()
        || allowlist::states_an_allowlist(&lower)
        || says_read_only(&lower)
        || says_only_one(&lower)
        || arguments::required_manner(&lower).is_some()
}

/// The grammar behind [`derive_constraint`], on text and a tool name.
/// [`derive_constraint`] for a rule not built yet: its text and (normalised) tool name are all
/// derivation reads.
pub fn derive_from_text(text: &str, tool_name: &str) -> Option<Constraint> {
    // "Deploys happen when main is merged, so `netlify deploy --prod` is never run by hand":
    // the reason's "when" is no condition of the order.
    let unreasoned = reasons::without_reasons(text);
    let text = unreasoned.as_deref().unwrap_or(text);
    let unnamed = reasons::program_nouns_dropped(text);
    let text = unnamed.as_deref().unwrap_or(text);
    if let Some(mixed) = narrowing::mixed_orders(text, |part| derive_reading(part, tool_name)) {
        return Some(mixed);
    }
    // "Never run composer update.": a text that derives nothing as written is read again
    // with the commands it names in prose put in code spans.
    // "`helm upgrade` is only allowed from CI", "`git switch` only; `git checkout` clobbers
    // files": an order without the words of one is read as the ban it gives.
    // "`./deploy.sh prod` pushes to production, so don't run it": the order about the span.
    let pronoun_order =
        restated::pronoun_after_reason(text).and_then(|order| derive_reading(&order, tool_name));
    let mut constraint = pronoun_order
        .or_else(|| derive_reading(text, tool_name))
        .or_else(|| {
            restated::reserved_to_ci(text)
                .or_else(|| restated::alternative_explained(text))
                .or_else(|| restated::lead_in_by_a_dash(text))
                .and_then(|ban| derive_reading(&ban, tool_name))
        })
        .or_else(|| {
            prose_commands::with_spans(text).and_then(|spanned| derive_reading(&spanned, tool_name))
        })
        .or_else(|| {
            restated::own_action_order(text, tool_name)
                .and_then(|order| derive_reading(&order, tool_name))
        })?;
    // "`pulumi destroy` on the prod stack needs my approval": a call that names another stack
    // (`--stack dev`) is out of the ban's scope.
    if matches!(constraint.polarity, Polarity::Forbid)
        && constraint.except.is_empty()
        && constraint.when.is_empty()
        && constraint.also.is_empty()
        && !constraint.matchers.is_empty()
        && constraint
            .matchers
            .iter()
            .all(|matcher| matcher.kind == MatcherKind::Command)
    {
        let others = scopes::other_targets_named(&text.to_lowercase());
        if !others.is_empty() {
            constraint.except = others;
        }
    }
    // "Never pass `--purge` on the `orders` job": the option on that object, both in one call
    // (either alone is allowed), not each on its own.
    if let Some(joined) = restated::option_on_an_object(text, &constraint) {
        constraint = joined;
    }
    // "Never pass `--project=prod` to a command that changes something", "`az` commands that
    // create or change resources": the order holds for the invocations that change things;
    // one that only reads (`list`, `describe`, `show`) is not what it is about.
    if constraint.access.is_none()
        && constraint.also.is_empty()
        && matches!(constraint.polarity, Polarity::Forbid | Polarity::Require)
        && qualifies_by_change(&text.to_lowercase())
    {
        constraint.access = Some(Access::Write);
    }
    // "any `bq` command that writes (load, cp, rm, mk)": the program's listed subcommands, not
    // every use of it nor the list's words as programs of their own (`rm`).
    if matches!(constraint.polarity, Polarity::Forbid)
        && let Some((program, subcommands)) = scopes::listed_subcommands(text)
        && constraint
            .matchers
            .iter()
            .any(|matcher| matcher.kind == MatcherKind::Command && matcher.value == program)
    {
        let mut listed = constraint.clone();
        listed.matchers.retain(|matcher| {
            matcher.kind != MatcherKind::Command
                || (matcher.value != program && !subcommands.contains(&matcher.value))
        });
        listed.matchers.extend(
            subcommands
                .iter()
                .map(|sub| Matcher::new(MatcherKind::Command, format!("{program} {sub}"))),
        );
        listed.access = None;
        if listed.validate().is_ok() {
            constraint = listed;
        }
    }
    // "Read `.env.example`, never `.env`", "Create issues in the `OPS` team, never in `SEC`":
    // what the clause before the contrast names is what the rule allows.
    if constraint.polarity == Polarity::Forbid
        && let Some(allowed) = allowed_before_a_contrast(text)
    {
        let kept: Vec<Matcher> = constraint
            .matchers
            .iter()
            .filter(|matcher| !allowed.contains(&matcher.value.to_lowercase()))
            .cloned()
            .collect();
        if !kept.is_empty() && kept.len() < constraint.matchers.len() {
            constraint.matchers = kept;
        }
    }
    // "forbidden outside the test environment": a call that names that environment
    // (`RAILS_ENV=test`) is the exception.
    if constraint.polarity == Polarity::Forbid
        && let Some(left_out) = scopes::environment_left_out(&text.to_lowercase())
    {
        let mut excepted = constraint.clone();
        excepted.except.extend(left_out);
        if excepted.validate().is_ok() {
            constraint = excepted;
        }
    }
    // "Channels starting with `cust-`" on a tool that takes named arguments (a chat's post):
    // a bare name pattern is of the names the tool is given, not of files.
    if action_words(tool_name).is_some() {
        for matcher in &mut constraint.matchers {
            if matcher.kind == MatcherKind::Path
                && matcher.value.ends_with('*')
                && !matcher.value.contains(['/', '.', '\\'])
            {
                matcher.kind = MatcherKind::Literal;
            }
        }
    }
    if let Some(printed) = restated::printed_only(&text.to_lowercase(), tool_name, &constraint) {
        constraint = printed;
    }
    let narrowed = narrowing::narrowed(constraint.clone(), &text.to_lowercase());
    Some(if narrowed.validate().is_ok() {
        narrowed
    } else {
        constraint
    })
}

/// The code spans of a clause that gives no order of its own before a contrast (", never",
/// ", not", ", but never", "; never"), lower-case: what the rule allows beside what it
/// forbids. `None` without such a clause, or when a span is named on both sides.
fn allowed_before_a_contrast(text: &str) -> Option<Vec<String>> {
    const CONTRASTS: &[&str] = &[
        ", never ",
        ", not ",
        ", but never ",
        ", but not ",
        "; never ",
        "; not ",
        ", don't ",
        ", do not ",
    ];
    let lower = text.to_lowercase();
    let at = CONTRASTS
        .iter()
        .filter_map(|contrast| lower.find(contrast))
        .min()?;
    let (before, after) = (&text[..at], &text[at..]);
    let before_lower = before.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&before_lower));
    if cues.forbid.is_some() || cues.ask.is_some() || cues.double_negative.is_some() {
        return None;
    }
    let spans = |part: &str| -> Vec<String> {
        part.split('`')
            .skip(1)
            .step_by(2)
            .map(|span| span.trim().to_lowercase())
            .filter(|span| !span.is_empty())
            .collect()
    };
    let allowed = spans(before);
    let forbidden = spans(after);
    (!allowed.is_empty()
        && !forbidden.is_empty()
        && allowed.iter().all(|span| !forbidden.contains(span)))
    .then_some(allowed)
}

/// Whether a rule qualifies what it is about by a relative clause of change: a noun of
/// commands or things ("command", "calls", "anything") then "that" or "which", then a verb of
/// change within two words ("that changes something", "which create or change resources",
/// "that writes").
fn qualifies_by_change(lower: &str) -> bool {
    const NOUNS: &[&str] = &[
        "anything",
        "call",
        "calls",
        "command",
        "commands",
        "invocation",
        "invocations",
        "one",
        "ones",
        "operation",
        "operations",
        "something",
        "subcommand",
        "subcommands",
    ];
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '-')
        .filter(|word| !word.is_empty())
        .collect();
    words.windows(2).enumerate().any(|(at, pair)| {
        NOUNS.contains(&pair[0])
            && matches!(pair[1], "that" | "which")
            && words[at + 2..]
                .iter()
                .take(3)
                .any(|word| CHANGING.contains(word) || CHANGE_FORMS.contains(word))
    })
}

/// Third-person and plain forms of verbs of change a relative clause uses, beside [`CHANGING`].
const CHANGE_FORMS: &[&str] = &[
    "alter", "alters", "change", "changes", "create", "creates", "delete", "deletes", "modify",
    "modifies", "mutate", "mutates", "update", "updates", "write", "writes",
];

/// What [`derive_from_text`] reads before the reading is narrowed.
fn derive_reading(text: &str, tool_name: &str) -> Option<Constraint> {
    let text = if text.contains('’') {
        Cow::Owned(text.replace('’', "'"))
    } else {
        Cow::Borrowed(text)
    };
    let text = match arrows_as_copula(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    };
    let text = match place_in_parentheses(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    };
    let text = match name_patterns(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    };
    let text = match pronoun_order(&text) {
        Some(plain) => Cow::Owned(plain),
        None => text,
    };
    let original = match spelling::plain_rule_text(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(plain) => Cow::Owned(plain),
    };
    if asks_about_a_rule(&original) {
        return None;
    }
    if let Some(allowlist) = anything_but::anything_but(&original, tool_name)
        .or_else(|| anything_but::only_with_flag(&original))
    {
        return Some(allowlist);
    }
    if let Some(allowlist) = allowlist_with_a_fallback(&original, tool_name) {
        return Some(allowlist);
    }
    let text = ordering_clauses(&original, gives_an_order, is_program);
    if let Some(parts) = sentence_parts(&original, &text, tool_name) {
        return Some(parts);
    }
    derive_clauses(&original, &text, &text, tool_name).or_else(|| {
        // "**Never publish crates.** `cargo publish` and `cargo release` are done by the
        // maintainer.": an order that names nothing checkable, and a clause beside it that
        // names the commands it is about, without a cue of its own.
        // "`merge_pull_request` is for humans", "Leave merging to me": the tool's action kept
        // for people, an order without a cue.
        if let Some(matcher) = reserved_for_people(&original.to_lowercase(), tool_name) {
            return Some(Constraint::forbid(vec![matcher]));
        }
        if !original.contains('`') {
            return None;
        }
        let explained = ordering_clauses(
            &original,
            |clause| gives_an_order(clause) || names_commands(clause),
            is_program,
        );
        if explained == text {
            return None;
        }
        derive_clauses(&original, &explained, &explained, tool_name)
    })
}

/// "Only fetch from `docs.rs` and `doi.org`; other sites need my OK", "Only email the team.
/// Anyone else, ask me first": an allowlist whose last clause gives the verdict on everything
/// else. The others are asked about, where the list alone forbids them; read apart, the list
/// and its fallback were two orders of which neither named what the other meant.
fn allowlist_with_a_fallback(text: &str, tool_name: &str) -> Option<Constraint> {
    let boundary = text
        .char_indices()
        .rev()
        .find(|(at, ch)| {
            *ch == ';' || (*ch == '.' && text[at + 1..].starts_with(' ')) || *ch == '\u{2014}'
        })
        .map(|(at, ch)| (at, at + ch.len_utf8()))?;
    let (head, tail) = (&text[..boundary.0], &text[boundary.1..]);
    let tail_lower = tail.to_lowercase();
    let others = tail_lower
        .split(|ch: char| !ch.is_alphanumeric())
        .any(|word| matches!(word, "other" | "others" | "else" | "rest"));
    if !others || tail.contains('`') || Cues::of(&WordRuns::new(&tail_lower)).ask.is_none() {
        return None;
    }
    let head_lower = head.to_lowercase();
    allowlist::host_allowlist(head, &head_lower, tool_name, true)
        .or_else(|| allowlist::allowlist(head, &head_lower, tool_name, true))
}

/// "`make publish` uploads to PyPI. Never run it; CI does.", "`./prune.sh` deletes the
/// snapshots. Don't.": a sentence that only says what one command in code does, then an order
/// about "it" (after a verb of running or using) or a bare order, is that order on the
/// command: the description is no condition of it. `None` for any other text.
fn pronoun_order(text: &str) -> Option<String> {
    // The first sentence's end: a stop outside code, before a space.
    let mut in_code = false;
    let end = text.char_indices().find_map(|(at, ch)| {
        if ch == '`' {
            in_code = !in_code;
        }
        // ("`fastlane beta` uploads to TestFlight; ask me before running it": a semicolon
        // ends the description as a stop does.)
        (!in_code
            && matches!(ch, '.' | '!' | ';')
            && text[at + 1..].starts_with(char::is_whitespace))
        .then_some(at)
    })?;
    let (first, rest) = (&text[..end], text[end + 1..].trim_start());
    if first.matches('`').count() != 2 || rest.is_empty() || rest.contains('`') {
        return None;
    }
    let span_start = first.find('`')?;
    let span = &first[span_start..=span_start + 1 + first[span_start + 1..].find('`')?];
    if order_of(first).is_some() {
        return None;
    }
    // The order: the sentence after, up to its end.
    let order_end = rest.find(['.', '!', '\n']).unwrap_or(rest.len());
    let order = &rest[..order_end];
    order_of(order)?;
    let lower = order.to_lowercase();
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    let bare = words.len() <= 3
        && words.iter().all(|word| {
            matches!(
                *word,
                "don't" | "do" | "not" | "never" | "please" | "dont" | "ever"
            )
        });
    if bare {
        return Some(format!("Never run {span}.{}", &rest[order_end..]));
    }
    const VERBS: &[&str] = &[
        "run",
        "use",
        "call",
        "execute",
        "invoke",
        "touch",
        "trigger",
        "start",
        "launch",
        "do",
        "running",
        "using",
        "calling",
        "executing",
        "invoking",
        "touching",
        "triggering",
        "starting",
        "launching",
        "doing",
    ];
    let pronoun = words.windows(2).position(|pair| {
        VERBS.contains(&pair[0]) && matches!(pair[1], "it" | "this" | "that" | "them")
    })?;
    let pronoun = words[pronoun + 1];
    // The pronoun's place in the order as written (ASCII case-folding keeps offsets).
    let at = lower
        .match_indices(pronoun)
        .map(|(at, _)| at)
        .find(|&at| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + pronoun.len()..].chars().next();
            before.is_none_or(|ch| !ch.is_alphanumeric())
                && after.is_none_or(|ch| !ch.is_alphanumeric())
        })
        .filter(|_| lower.len() == order.len())?;
    Some(format!(
        "{}{span}{}",
        &order[..at],
        &rest[at + pronoun.len()..]
    ))
}

/// "Never run `rm -rf` on anything outside the project you are working in
/// (/home/ines/orders)": the place a complement names in parentheses after a description of
/// it is the place (issue 21, twelfth round, P6), read as "outside /home/ines/orders". `None`
/// for a text without "outside" before a parenthesised path in its sentence.
fn place_in_parentheses(text: &str) -> Option<String> {
    /// The most words of description between "outside" and the parenthesis.
    const MAX_DESCRIPTION_WORDS: usize = 10;
    let lower = text.to_ascii_lowercase();
    let outside = lower.find("outside ")? + "outside ".len();
    let open = outside + text[outside..].find('(')?;
    let close = open + text[open..].find(')')?;
    let description = &text[outside..open];
    let place = text[open + 1..close].trim().trim_matches('`');
    let is_path = place.starts_with(['/', '~', '.', '$'])
        || place.as_bytes().get(1) == Some(&b':') && place.contains('\\');
    if !is_path
        || place.contains(char::is_whitespace)
        || description.contains(['.', ';', '`', '/', '\\'])
        || description.split_whitespace().count() > MAX_DESCRIPTION_WORDS
    {
        return None;
    }
    Some(format!("{}{place}{}", &text[..outside], &text[close + 1..]))
}

/// Phrases before a code span that make it the start of a name ("whose name starts with
/// `publish`") or its end ("files ending in `_gen.go`").
const NAME_STARTS: &[&str] = &[
    "beginning with ",
    "begins with ",
    "prefixed by ",
    "prefixed with ",
    "start with ",
    "starting with ",
    "starts with ",
];
const NAME_ENDS: &[&str] = &[
    "end in ",
    "end with ",
    "ending in ",
    "ending with ",
    "ends in ",
    "ends with ",
    "suffixed with ",
];

/// "No Gradle task whose name starts with `publish`", "Files ending in `_gen.go`": a span said
/// to start or end a name is the pattern of the names it starts or ends (`publish*`,
/// `*_gen.go`; issue 21, twelfth round, P7). `None` for a text without such a span.
pub(crate) fn name_patterns(text: &str) -> Option<String> {
    if !text.contains('`') {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len() + 4);
    let mut at = 0;
    let mut changed = false;
    for (open, _) in text.match_indices('`') {
        if open < at {
            continue;
        }
        let Some(close) = text[open + 1..].find('`').map(|end| open + 1 + end) else {
            break;
        };
        let span = &text[open + 1..close];
        let before = &lower[..open];
        let plain = !span.is_empty() && !span.contains(['*', ' ', '?']);
        let starts = plain && NAME_STARTS.iter().any(|phrase| before.ends_with(phrase));
        let ends = plain && NAME_ENDS.iter().any(|phrase| before.ends_with(phrase));
        out.push_str(&text[at..=open]);
        if ends {
            out.push('*');
        }
        out.push_str(span);
        if starts {
            out.push('*');
        }
        out.push('`');
        changed |= starts || ends;
        at = close + 1;
    }
    out.push_str(&text[at..]);
    changed.then_some(out)
}

/// "`netlify deploy --prod` → forbidden", "`kubectl drain` is destructive → ask": an arrow
/// between a thing and a verdict stands for the copula, and a bare "ask" (or "confirm") after
/// it is an order to ask first. `None` for a text without an arrow outside code.
fn arrows_as_copula(text: &str) -> Option<String> {
    const ARROWS: [&str; 5] = [" → ", " -> ", " => ", " ⇒ ", " ⟶ "];
    if !ARROWS.iter().any(|arrow| text.contains(arrow)) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut in_code = false;
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        if ch == '`' {
            in_code = !in_code;
        }
        if !in_code && let Some(arrow) = ARROWS.iter().find(|arrow| rest.starts_with(**arrow)) {
            let after = &rest[arrow.len()..];
            let verdict_end = after.find(['.', ';', '\n']).unwrap_or(after.len());
            let verdict: String = after[..verdict_end]
                .chars()
                .filter(|ch| ch.is_alphanumeric() || ch.is_whitespace())
                .collect::<String>()
                .to_lowercase();
            let verdict = verdict.trim();
            if matches!(
                verdict,
                "ask" | "confirm" | "ask me" | "ask me first" | "ask first"
            ) {
                out.push_str(": ask me first");
                rest = &after[verdict_end..];
            } else {
                out.push_str(": ");
                rest = after;
            }
            continue;
        }
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    Some(out)
}

/// Whether a clause without a cue names commands in code spans (a span of several words, or
/// one whose first word is a program), and is no instruction of its own ("See `make docs`").
fn names_commands(clause: &str) -> bool {
    let first = clause
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    if TAKING.contains(&first.as_str())
        || matches!(first.as_str(), "see" | "check" | "read" | "try" | "ask")
    {
        return false;
    }
    clause.split('`').skip(1).step_by(2).any(|span| {
        let span = span.trim();
        span.split_whitespace().nth(1).is_some()
            || span
                .split_whitespace()
                .next()
                .is_some_and(|word| is_program(&word.to_lowercase()))
    })
}

/// "The README says never to run `./scripts/seed.sh` twice. Is that still true?": a rule
/// reported in order to ask about it is no order. The text asks a question, and its cue
/// follows a verb of saying.
fn asks_about_a_rule(text: &str) -> bool {
    if !text.trim_end().ends_with('?') {
        return false;
    }
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
        .filter(|word| !word.is_empty())
        .collect();
    words.windows(2).any(|pair| {
        REPORTING_VERBS.contains(&pair[0])
            && matches!(pair[1], "never" | "not" | "to" | "always" | "no" | "don't")
    })
}

/// Names of dotfiles and dot-directories, which "`.env` files" names as they are (`.env`,
/// `.env.local`), where "`.pem` files" names an extension.
const DOTFILES: &[&str] = &[
    "aws",
    "bashrc",
    "docker",
    "env",
    "git",
    "github",
    "gitignore",
    "gnupg",
    "idea",
    "kube",
    "netrc",
    "npmrc",
    "pgpass",
    "profile",
    "pypirc",
    "ssh",
    "vscode",
    "yarnrc",
    "zshrc",
];

/// Verbs that report what someone else said (see [`asks_about_a_rule`]).
const REPORTING_VERBS: &[&str] = &[
    "claims", "mentions", "reads", "said", "says", "states", "suggests", "told", "tells", "wrote",
    "writes",
];

/// What one sentence of a rule orders, for [`sentence_parts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Forbid,
    Ask,
    Require,
}

fn order_of(clause: &str) -> Option<Order> {
    let lower = clause.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    // Orders without the grammar's cues: "pnpm only", "read-only", "only email Priya".
    let Some(cue) = polarity_cue(&cues, &lower) else {
        let markerless = says_only_one(&lower)
            || says_read_only(&lower)
            || allowlist::states_an_allowlist(&lower);
        return markerless.then_some(Order::Forbid);
    };
    Some(match cue {
        Cue::Forbid { ask_first: true } => Order::Ask,
        Cue::Forbid { ask_first: false } | Cue::InsteadOf(_) => Order::Forbid,
        Cue::Require => Order::Require,
    })
}

/// A rule whose sentences give orders of different kinds ("Never `git branch -D`. Ask before
/// deleting branches."), as one constraint per kind: the first, with the others in its
/// `also`. One cue no longer decides for every sentence (the "ask" made the ban ask too).
/// A line with no cue of its own (an item under "Forbidden:") goes with the line before it,
/// or the first line with the one after it. `None`, and the rule is read as one, when its
/// sentences give one kind of order, or when a part names nothing on its own ("Never
/// force-push. If you must, ask first.": the ask is about the ban) or would require something
/// of every call.
fn sentence_parts(original: &str, kept: &str, tool_name: &str) -> Option<Constraint> {
    let lines: Vec<&str> = kept.lines().collect();
    if lines.len() < 2 {
        return None;
    }
    let orders: Vec<Option<Order>> = lines.iter().map(|line| order_of(line)).collect();
    let first = orders.iter().flatten().next().copied()?;
    if let Some(parts) = clause_parts(original, kept, tool_name, &lines, &orders) {
        return Some(parts);
    }
    let mut groups: Vec<(Order, Vec<&str>)> = Vec::new();
    let mut current = first;
    for (line, order) in lines.iter().zip(&orders) {
        if let Some(order) = order {
            current = *order;
        }
        match groups.iter_mut().find(|(order, _)| *order == current) {
            Some((_, group)) => group.push(line),
            None => groups.push((current, vec![line])),
        }
    }
    if groups.len() < 2 {
        return None;
    }
    let mut parts = Vec::with_capacity(groups.len());
    for (order, group) in &groups {
        if *order == Order::Require && group.iter().any(|line| opens_on_an_alternative(line)) {
            return None;
        }
        let text = group.join("\n");
        let part = derive_clauses(original, &text, kept, tool_name)?;
        if *order == Order::Require
            && part.polarity == crate::Polarity::Require
            && part.when.is_empty()
        {
            return None;
        }
        parts.push(part);
    }
    let mut parts = parts.into_iter();
    let main = parts.next()?;
    Some(main.with_also(parts.take(MAX_ALSO).collect()))
}

/// "Never `git push --force`. Use `--force-with-lease` if you really must.": a sentence that
/// opens on the alternative names the safe way, not an order of its own.
fn opens_on_an_alternative(line: &str) -> bool {
    let first = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_matches(|ch: char| !ch.is_alphanumeric())
        .to_lowercase();
    ["use", "prefer", "try", "instead", "if"].contains(&first.as_str())
}

/// Each order of a rule on its own ("Don't push to main or release, and don't delete any
/// remote branch": a push to main, and any deletion of a remote branch; read as one, the
/// deletion became a situation in which `main` was looked for). A line without a cue goes
/// with the order before it (an item under "Forbidden:"), or with the one after it when that
/// one points back ("Files in `vendor/**` are third-party" / "never modify them"). `None`
/// unless there are two orders or more and each names something on its own.
fn clause_parts(
    original: &str,
    kept: &str,
    tool_name: &str,
    lines: &[&str],
    orders: &[Option<Order>],
) -> Option<Constraint> {
    let mut units: Vec<(Order, Vec<&str>)> = Vec::new();
    let mut waiting: Vec<&str> = Vec::new();
    for (at, (line, order)) in lines.iter().zip(orders).enumerate() {
        match order {
            Some(order) => {
                let mut unit = std::mem::take(&mut waiting);
                unit.push(line);
                units.push((*order, unit));
            }
            None => {
                let next_points_back = orders.get(at + 1).is_some_and(Option::is_some)
                    && lines.get(at + 1).is_some_and(|next| refers_back(next));
                match units.last_mut() {
                    Some((_, unit)) if !next_points_back => unit.push(line),
                    _ => waiting.push(line),
                }
            }
        }
    }
    if units.len() < 2 || !waiting.is_empty() {
        return None;
    }
    let mut parts = Vec::with_capacity(units.len());
    for (order, unit) in &units {
        if *order == Order::Require && unit.iter().any(|line| opens_on_an_alternative(line)) {
            return None;
        }
        let part = derive_clauses(original, &unit.join("\n"), kept, tool_name)?;
        // A requirement on every call, out of one sentence, is too broad to stand alone.
        if *order == Order::Require && part.when.is_empty() {
            return None;
        }
        parts.push(part);
    }
    // Plain bans of the same kind are one list ("Never run `yarn`. Never run `npm
    // install`." forbids both), as they were read before parts.
    let mut merged: Vec<Constraint> = Vec::with_capacity(parts.len());
    for part in parts {
        let plain = |constraint: &Constraint| {
            constraint.when.is_empty()
                && constraint.except.is_empty()
                && constraint.access.is_none()
                && constraint.also.is_empty()
        };
        match merged.iter_mut().find(|known| {
            plain(known)
                && plain(&part)
                && known.polarity == part.polarity
                && known.ask_first == part.ask_first
        }) {
            Some(known) => {
                for matcher in part.matchers {
                    if !known.matchers.contains(&matcher) {
                        known.matchers.push(matcher);
                    }
                }
            }
            None => merged.push(part),
        }
    }
    let mut parts = merged;
    if parts.len() < 2 {
        return parts.pop();
    }
    let mut parts = parts.into_iter();
    let main = parts.next()?;
    Some(main.with_also(parts.take(MAX_ALSO).collect()))
}

/// [`derive_from_text`] on the clauses `text` of a rule (all of them, or one kind of order of
/// them), `kept` being every clause read of the rule's text `original`.
fn derive_clauses(original: &str, text: &str, kept: &str, tool_name: &str) -> Option<Constraint> {
    let lower = text.to_lowercase();
    // The words of the text, built once: derivation looks up over a hundred cues in it.
    let words = WordRuns::new(&lower);
    let cues = Cues::of(&words);
    // "Never email anyone but Priya", "only message people at @acme.com": who is named is who
    // may be reached, and every other call of the tool is forbidden.
    if let Some(allowlist) = allowlist::allowlist(text, &lower, tool_name, cues.ask.is_some()) {
        return finish(allowlist);
    }
    // "Only fetch from `docs.python.org` and `pypi.org`": every other host is forbidden.
    if let Some(allowlist) = allowlist::host_allowlist(text, &lower, tool_name, cues.ask.is_some())
    {
        return finish(allowlist);
    }
    // "Package management is bun only", "uv only": the other programs of the job.
    if cues.ask.is_none()
        && let Some(only) = only_one_program(&lower)
    {
        return finish(only);
    }
    // "Production database: read-only. SELECT statements only." (A ban beside it, "never
    // `DROP TABLE`", is one of the statements this forbids.)
    if let Some(read_only) = read_only_database(&lower, tool_name) {
        return finish(read_only.with_ask_first(cues.ask.is_some()));
    }
    // The named arguments of a tool that takes them: "open PRs as drafts", "never move an
    // issue to Done", "ask before sending anything with an attachment".
    let arguments_tool = action_words(tool_name).is_some();
    if arguments_tool && let Some(constraint) = argument_order(text, &lower, &cues) {
        return finish(constraint);
    }
    // On a shell or every tool, the manner is the commands' flag ("as drafts": `gh pr create
    // --draft`).
    if !arguments_tool
        && cues.forbid.is_none()
        && cues.ask.is_none()
        && let Some(manner) = arguments::required_manner(&lower)
        && let Some(constraint) = arguments::manner_on_the_shell(manner)
    {
        return finish(constraint);
    }
    // "Never mention Claude or AI in commit messages": literals in the texts the agent writes.
    if cues.forbid.is_some()
        && cues.ask.is_none()
        && let Some(ban) = mentions::mention_ban(&lower, !arguments_tool)
    {
        return finish(ban);
    }
    // "Never open localhost ports other than 5173": every port of the machine but those.
    if let Some(ports) = local_ports(&lower, &cues) {
        return finish(ports);
    }
    // "`kubectl` is read-only for you", "`s3://acme-backups/` is read-only": what the rule names
    // may be read, and not changed.
    let read_only_order = says_read_only(&lower);
    let cue = match polarity_cue(&cues, &lower) {
        Some(cue) => cue,
        None if read_only_order => Cue::Forbid { ask_first: false },
        None => return None,
    };
    let mut tokens = tokenize(text, &lower);
    if let Cue::InsteadOf(at) = cue {
        tokens.retain(|token| token.offset > at);
    }
    // An ASCII tool name is searched without lower-casing a copy of it.
    let tool_git = if tool_name.is_ascii() {
        tool_name
            .as_bytes()
            .windows(3)
            .any(|window| window.eq_ignore_ascii_case(b"git"))
    } else {
        tool_name.to_lowercase().contains("git")
    };
    // "Don't push to `main`", "never push to `release/2.4`": pushing to a target is git's.
    let push_to = tokens
        .windows(2)
        .any(|pair| is_word(&pair[0], lexicon::PUSH_WORD) && pair[1].lower == "to");
    let git_context = tool_git || cues.git_context.is_some() || push_to;
    let mut used = vec![false; tokens.len()];
    let mut phrases = command_phrases(&tokens, git_context, &mut used);
    // "The files in `gen/` are generated by `make gen`": the command that makes the object is
    // what the text says about it, no part of the order.
    if text.len() == lower.len() {
        phrases.retain(|phrase| !names_the_maker(&lower[..phrase.offset.min(lower.len())]));
    }
    // "on Fridays", "more than $500", "when the freeze is on": the situation, whose words are
    // no literal of the rule (offsets are the text's where lower-casing kept them).
    let situation = conditions::conditions(&lower);
    if !situation.is_empty() && text.len() == lower.len() {
        let inside = |offset: usize| situation.iter().any(|(range, _)| range.contains(&offset));
        for (index, token) in tokens.iter().enumerate() {
            if inside(token.offset) {
                used[index] = true;
            }
        }
        phrases.retain(|phrase| !inside(phrase.offset));
    }
    // "never create git tags (`git tag`)": the bare program said in passing is the longer
    // command the rule spells out, not every use of the program.
    let spelled_out: Vec<String> = phrases
        .iter()
        .filter(|phrase| phrase.words.len() > 1)
        .map(|phrase| phrase.words[0].clone())
        .collect();
    phrases.retain(|phrase| {
        !(phrase.words.len() == 1
            && phrase.adjacent_flags.is_empty()
            && spelled_out.contains(&phrase.words[0]))
    });

    // Loose flags attach to the nearest command before them (or the first command), but one
    // after an exception that follows a command is the exception's ("Never `cargo publish`
    // unless it is a `--dry-run`", "except with `--check`").
    let except_at = match cue {
        Cue::Forbid { .. } => EXCEPT_CUES.iter().filter_map(|cue| words.find(cue)).min(),
        _ => None,
    };
    let mut excepted_flags: Vec<Matcher> = Vec::new();
    let mut flags: Vec<(usize, String)> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        if used[index] {
            continue;
        }
        if let Some(value) = flag_value(token) {
            used[index] = true;
            if let Some(at) = except_at
                && token.offset > at
                && phrases.iter().any(|phrase| phrase.offset < at)
            {
                excepted_flags.push(Matcher::new(MatcherKind::Flag, value));
                continue;
            }
            let owner = phrases
                .iter()
                .rposition(|phrase| phrase.offset < token.offset)
                .or(if phrases.is_empty() { None } else { Some(0) });
            match owner {
                Some(owner) => phrases[owner].loose_flags.push(value.to_owned()),
                None => flags.push((token.offset, value.to_owned())),
            }
        }
    }

    // "Never `git push --force`", "never use --force with git push": a push's `--force` (or
    // `-f`) is every force push, `--force-with-lease` too (`+branch` and `-f` match already),
    // unless the rule names the lease as its way ("Use `--force-with-lease` if you must").
    if !lower.contains("force-with-lease") {
        for phrase in &mut phrases {
            if phrase.words == ["git", "push"]
                && phrase
                    .adjacent_flags
                    .iter()
                    .chain(&phrase.loose_flags)
                    .any(|flag| matches!(flag.as_str(), "--force" | "-f"))
            {
                phrase.force_words = true;
            }
        }
    }

    let mut entities: Vec<(usize, Matcher)> = Vec::new();
    // "Never write outside `/srv/out/`": the places named after "outside" are the ones
    // allowed, and every other place is forbidden.
    let mut outside: Vec<Matcher> = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        if !used[index] && matches!(cue, Cue::Forbid { .. }) && is_after_outside(&tokens, index) {
            // "outside the repo folder `D:\src\app`": the words naming the kind of place are
            // no place of their own.
            if OUTSIDE_FILLERS.contains(&token.lower.as_ref()) {
                continue;
            }
            // `.\out\`: a relative Windows folder is read as a literal elsewhere.
            let place = match &token.kind {
                TokenKind::Entity(MatcherKind::Path, value) => Some(value.clone()),
                TokenKind::Entity(MatcherKind::Literal, value)
                    if value.contains(['\\', '/']) && !value.contains(' ') =>
                {
                    Some(value.replace('\\', "/"))
                }
                _ => None,
            };
            if let Some(place) = place {
                outside.push(Matcher::new(MatcherKind::Path, place));
                continue;
            }
        }
        if let (false, TokenKind::Entity(kind, value)) = (used[index], &token.kind) {
            // "Before running `./deploy.sh`", "never run scripts/seed.sh": a script said
            // after a verb of running is the command it is, not a file to keep away from
            // (`cat deploy.sh` reads it and runs nothing).
            let run_before = index
                .checked_sub(1)
                .is_some_and(|before| is_word(&tokens[before], RUN_VERB));
            if *kind == MatcherKind::Path && run_before && is_script(value) {
                phrases.push(CommandPhrase {
                    offset: token.offset,
                    words: vec![value.clone()],
                    adjacent_flags: Vec::new(),
                    loose_flags: Vec::new(),
                    force_words: false,
                });
                continue;
            }
            // "any `.pem` or `*.key` files": an extension before "files" is every file with
            // it, a dotfile's name (`.env`, `.npmrc`) stays that file.
            let files_after = tokens[index + 1..]
                .iter()
                .take(3)
                .any(|next| next.lower.starts_with("file"));
            let extension = value.strip_prefix('.').filter(|rest| {
                (1..=6).contains(&rest.len())
                    && rest.chars().all(|ch| ch.is_ascii_alphanumeric())
                    && !DOTFILES.contains(rest)
            });
            if *kind == MatcherKind::Path && files_after && extension.is_some() {
                entities.push((
                    token.offset,
                    Matcher::new(MatcherKind::Path, format!("*{value}")),
                ));
                continue;
            }
            entities.push((token.offset, Matcher::new(*kind, value.clone())));
        }
    }
    // "Never run scripts/seed.sh against prod": what the command is run against is looked for
    // in its invocation.
    if !phrases.is_empty() {
        for (index, token) in tokens.iter().enumerate().skip(1) {
            if !used[index]
                && matches!(token.kind, TokenKind::Word)
                && tokens[index - 1].lower == "against"
                && token.class & (COMMON_WORD | PERSON_FILLER) == 0
                && token
                    .lower
                    .chars()
                    .all(|ch| ch.is_alphanumeric() || ch == '-')
            {
                entities.push((
                    token.offset,
                    Matcher::new(MatcherKind::Literal, token.lower.as_ref()),
                ));
            }
        }
    }
    // The cues found the first SQL phrase; each one found is a literal.
    if cues.sql_phrase.is_some() {
        for phrase in SQL_PHRASES {
            if let Some(at) = words.find(phrase) {
                // "drop tables" is each `DROP TABLE` statement.
                let statement = phrase.strip_suffix('s').unwrap_or(phrase);
                let matcher = Matcher::new(MatcherKind::Literal, statement);
                if !entities.iter().any(|(_, known)| *known == matcher) {
                    entities.push((at, matcher));
                }
            }
        }
    }
    if phrases.iter().any(|phrase| phrase.words == ["git", "push"]) {
        for (index, token) in tokens.iter().enumerate() {
            if !used[index] && is_word(token, BRANCH) {
                let after_push = phrases.iter().any(|phrase| phrase.offset < token.offset);
                if after_push {
                    used[index] = true;
                    entities.push((
                        token.offset,
                        Matcher::new(MatcherKind::Literal, token.lower.as_ref()),
                    ));
                }
            }
        }
    }
    let mut shouting: Option<bool> = None;
    for (index, token) in tokens.iter().enumerate() {
        if used[index] || !matches!(token.kind, TokenKind::Word) {
            continue;
        }
        if shouting.is_none() && token.text.chars().all(|ch| ch.is_ascii_uppercase()) {
            shouting = Some(!text.chars().any(char::is_lowercase));
        }
        let next = tokens.get(index + 1).map(|next| next.lower.as_ref());
        let identifier = token.lower.contains('_')
            && token.lower.starts_with(char::is_alphanumeric)
            && token.lower.ends_with(char::is_alphanumeric)
            && token
                .lower
                .chars()
                .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-');
        // An account, ticket or host id: letters or digits in hyphen-joined runs, with a digit
        // ("7781-0042", "INC-4411", "web-prod-07"). Another id of the same shape is another
        // thing, so the literal is matched as a whole word.
        let id_shaped = token.lower.len() >= 4
            && token.lower.contains('-')
            && token.lower.contains(|ch: char| ch.is_ascii_digit())
            && token.lower.starts_with(char::is_alphanumeric)
            && token.lower.ends_with(char::is_alphanumeric)
            && !token.lower.contains("--")
            && token
                .lower
                .chars()
                .all(|ch| ch.is_alphanumeric() || ch == '-');
        // A keyword that opens a statement phrase already read (`DROP TABLE`) is that phrase.
        let opens_a_phrase = next.is_some_and(|next| {
            SQL_PHRASES
                .iter()
                .any(|phrase| phrase.split_once(' ') == Some((token.lower.as_ref(), next)))
        });
        // ("NEVER DELETE FILES" shouts: a keyword in a text without a lower-case letter is a
        // word.)
        let sql_keyword = shouting.is_none_or(|shouted| !shouted)
            && token.text.len() >= 4
            && token.text.chars().all(|ch| ch.is_ascii_uppercase())
            && SQL_KEYWORDS.contains(&token.lower.as_ref())
            && !opens_a_phrase;
        let named_container = matches!(next, Some("folder" | "directory" | "dir"))
            && token
                .lower
                .chars()
                .all(|ch| ch.is_alphanumeric() || "_-.".contains(ch))
            && token.class & (COMMON_WORD | PERSON_FILLER) == 0
            && !(is_after_outside(&tokens, index)
                && OUTSIDE_FILLERS.contains(&token.lower.as_ref()));
        let named_branch = next == Some("branch")
            && (token.class & BRANCH != 0
                || (token.lower.contains(['-', '/', '_'])
                    && token.lower.starts_with(char::is_alphanumeric)));
        // "new markdown files", "any Python file": every file of the kind, by its extensions.
        let kind_of_file = next
            .is_some_and(|next| next == "file" || next == "files")
            .then(|| file_kind_extensions(&token.lower))
            .flatten();
        if let Some(extensions) = kind_of_file {
            for extension in extensions {
                entities.push((
                    token.offset,
                    Matcher::new(MatcherKind::Path, format!("*.{extension}")),
                ));
            }
        } else if named_container {
            entities.push((
                token.offset,
                Matcher::new(MatcherKind::Path, token.lower.as_ref()),
            ));
        } else if identifier || named_branch || id_shaped || sql_keyword {
            entities.push((
                token.offset,
                Matcher::new(MatcherKind::Literal, token.lower.as_ref()),
            ));
            // An account number is the same account written without its separators
            // ("acct 7781-0042" is `77810042`).
            if id_shaped
                && token
                    .lower
                    .chars()
                    .all(|ch| ch.is_ascii_digit() || ch == '-')
            {
                entities.push((
                    token.offset,
                    Matcher::new(MatcherKind::Literal, token.lower.replace('-', "")),
                ));
            }
        }
    }
    if !outside.is_empty() {
        let at = entities.first().map_or(0, |(offset, _)| *offset);
        entities.push((at, Matcher::new(MatcherKind::Path, EVERY_PATH)));
    }
    for (offset, host) in host_names(&tokens, &used) {
        // An id that is a host's name is that host.
        entities.retain(|(_, matcher)| {
            !(matcher.kind == MatcherKind::Literal && matcher.value == host)
        });
        entities.push((offset, Matcher::new(MatcherKind::Host, host)));
    }
    for (offset, name) in person_names(&tokens, &used) {
        // "Never pass `-ExecutionPolicy Bypass` to PowerShell": a program's name written in
        // capitals is no person.
        let joined = name.replace(' ', "");
        if is_program(&joined) || INTERPRETERS.contains(&joined.as_str()) || joined == "powershell"
        {
            continue;
        }
        entities.push((offset, Matcher::new(MatcherKind::Person, name)));
    }
    // "Never DM `@TomaszWojcik`": the handle, and the person it spells in any other form.
    let spelled: Vec<(usize, Matcher)> = entities
        .iter()
        .filter(|(_, matcher)| {
            matcher.kind == MatcherKind::Literal && matcher.value.starts_with('@')
        })
        .filter_map(|(offset, matcher)| {
            handle_name(&matcher.value)
                .map(|name| (*offset, Matcher::new(MatcherKind::Person, name)))
        })
        .collect();
    for entity in spelled {
        if !entities.iter().any(|(_, known)| *known == entity.1) {
            entities.push(entity);
        }
    }
    // "Don't upload anything to paste sites": each paste site by its host.
    if let Some(at) = PASTE_SITE_WORDS
        .iter()
        .filter_map(|words_of| words.find(words_of))
        .min()
    {
        for site in PASTE_SITES {
            entities.push((at, Matcher::new(MatcherKind::Domain, *site)));
        }
    }
    // "No Slack webhooks": a service by its kind is the hosts it is reached at.
    for (said, hosts) in NAMED_SERVICES {
        if let Some(at) = words.find(said) {
            for host in *hosts {
                let matcher = if host.contains('/') {
                    Matcher::new(MatcherKind::Url, format!("https://{host}"))
                } else {
                    Matcher::new(MatcherKind::Domain, *host)
                };
                if !entities.iter().any(|(_, known)| *known == matcher) {
                    entities.push((at, matcher));
                }
            }
        }
    }
    // "Never fetch URLs that carry credentials", "no signed URLs": what a URL carries.
    if URL_WORDS.iter().any(|word| words.has_run(word)) {
        for (said, patterns) in URL_CARRIES {
            if let Some(at) = words.find(said) {
                for pattern in *patterns {
                    let matcher = Matcher::new(MatcherKind::Url, *pattern);
                    if !entities.iter().any(|(_, known)| *known == matcher) {
                        entities.push((at, matcher));
                    }
                }
            }
        }
    }
    // An account number is the same account with other separators: `7781-0042` is also
    // written `7781 0042` and `77810042` (the words' ids got this above; a code span's too).
    let numbers: Vec<(usize, String)> = entities
        .iter()
        .filter(|(_, matcher)| matcher.kind == MatcherKind::Literal)
        .filter(|(_, matcher)| is_separated_number(&matcher.value))
        .map(|(offset, matcher)| (*offset, matcher.value.clone()))
        .collect();
    for (offset, number) in numbers {
        for variant in [
            number.replace(['-', ' ', '.'], ""),
            number.replace(['-', '.'], " "),
        ] {
            let matcher = Matcher::new(MatcherKind::Literal, variant);
            if !entities.iter().any(|(_, known)| *known == matcher) {
                entities.push((offset, matcher));
            }
        }
    }
    entities.sort_by_key(|(offset, _)| *offset);
    if arguments_tool {
        // (`mcp__git__git_push` pushes with git; `mcp__github__push_files` does not.)
        let runs_git = action_words(tool_name)
            .is_some_and(|words| words.first().is_some_and(|first| first == "git"));
        if !runs_git {
            arguments_of_the_tool(&tokens, &mut phrases, &mut entities);
        }
    }

    // "stop using wget, use curl": what follows a positive directive after a clause break is
    // what the user wants instead, not what is forbidden.
    let mut cue = cue;
    if let Cue::Forbid { .. } = cue
        // Each turn has one of these words on its own: without them, no turn to look for.
        && ["use", "prefer", "try"]
            .iter()
            .chain(TAKING.iter())
            .any(|word| words.has_run(word))
        && let Some(cut) = TURNS
            .iter()
            .filter_map(|turn| lower.find(turn.as_str()))
            // A line that opens on "use" turns from the ban on the line before it; under a
            // list's heading ("Do NOT:" / "- run X" / "- use Y"), it is one more item.
            .filter(|&at| {
                lower.as_bytes()[at] != b'\n' || {
                    let line = lower[..at].rsplit('\n').next().unwrap_or_default();
                    Cues::of(&WordRuns::new(line)).forbid.is_some()
                }
            })
            .min()
        && Cues::of(&WordRuns::new(&lower[..cut])).forbid.is_some()
    {
        entities.retain(|(offset, _)| *offset < cut);
        flags.retain(|(offset, _)| *offset < cut);
        phrases.retain(|phrase| phrase.offset < cut);
    }
    // "Run `npm ci`, never plain `npm install`", "`uv add`, not `pip install`": what a positive
    // opening (or a bare code span) names before the ban is the way to do it, not more bans,
    // when the ban names something of its own.
    if let (Cue::Forbid { .. }, Some(forbid_at)) = (cue, cues.forbid)
        && forbid_at > 0
        && lower[..forbid_at]
            .trim_end()
            .ends_with([',', ';', '-', '—', '–'])
        && (TAKING
            .iter()
            .any(|opener| lower.trim_start().starts_with(&format!("{opener} ")))
            || (lower.trim_start().starts_with('`')
                && (entities.iter().any(|(offset, _)| *offset >= forbid_at)
                    || phrases.iter().any(|phrase| phrase.offset >= forbid_at))))
    {
        entities.retain(|(offset, _)| *offset >= forbid_at);
        flags.retain(|(offset, _)| *offset >= forbid_at);
        phrases.retain(|phrase| phrase.offset >= forbid_at);
    }
    // "always use https://staging..., never production": every literal sits in the "always"
    // clause, and the "never" clause names nothing, so the rule is a requirement.
    // ("`*.p12` must never be read", "should never", "are never to be": the two cues side by
    // side are one ban.)
    if let (Cue::Forbid { ask_first: false }, Some(require_at), Some(forbid_at)) =
        (cue, cues.require, cues.forbid)
        && require_at < forbid_at
        && lower[require_at..forbid_at]
            .split_whitespace()
            .nth(1)
            .is_some()
        && entities.iter().all(|(offset, _)| *offset < forbid_at)
        && flags.iter().all(|(offset, _)| *offset < forbid_at)
        && phrases.iter().all(|phrase| phrase.offset < forbid_at)
    {
        cue = Cue::Require;
    }

    // "Don't pipe `curl` into `sh`": the download is fine, running it through a shell is not.
    if let Cue::Forbid { ask_first } = cue
        && PIPE_WORDS.iter().any(|word| words.has_run(word))
        && let Some(source) = phrases.first()
        && let Some(target) = tokens
            .iter()
            .filter(|token| token.offset > source.offset)
            .find(|token| INTERPRETERS.contains(&token.lower.trim_matches('`')))
            .map(|token| token.lower.trim_matches('`').to_owned())
            // "Don't pipe `find` into `xargs rm`": the command piped into.
            .or_else(|| phrases.get(1).map(|target| target.value(None)))
    {
        let piped = Constraint::forbid(pipe_targets(&target))
            .with_when(pipe_sources(&source.value(None)))
            .with_ask_first(ask_first);
        return finish(piped);
    }
    // "Don't use `curl | sh` installers": the pipeline written out. A shell after the pipe
    // stands for every shell (`curl ... | sudo bash` runs one too).
    if let Cue::Forbid { ask_first } = cue
        && let Some(pipeline) = phrases
            .iter()
            .find(|phrase| phrase.words.iter().any(|word| word == "|"))
        && let Some(bar) = pipeline.words.iter().position(|word| word == "|")
        && bar > 0
        && let Some(target) = pipeline.words[bar + 1..]
            .iter()
            .find(|word| !matches!(word.as_str(), "sudo" | "doas" | "env"))
    {
        let piped = Constraint::forbid(pipe_targets(target))
            .with_when(pipe_sources(&pipeline.words[..bar].join(" ")))
            .with_ask_first(ask_first);
        return finish(piped);
    }
    // "Never kill node processes (`pkill node`, `killall node`)": every way to kill them.
    if let Cue::Forbid { ask_first } = cue
        && let Some(ban) = processes::kill_ban(&lower, &phrases)
    {
        return finish(ban.with_ask_first(ask_first));
    }
    // "Never read `.env*` files except `.env.example`": what follows the exception is
    // excused, not forbidden.
    let mut except: Vec<Matcher> = outside;
    except.extend(excepted_flags);
    // "Never email anyone other than `boss@corp.com`": nothing is named before the exception,
    // so the ban is on every call of the tool, and the addresses after it are the ones allowed.
    if let (Cue::Forbid { ask_first }, Some(at)) = (cue, except_at)
        && phrases.is_empty()
        && !entities.is_empty()
        && entities.iter().all(|(offset, matcher)| {
            *offset > at && matches!(matcher.kind, MatcherKind::Email | MatcherKind::Domain)
        })
        && let Some(every_call) =
            forbids_the_tool(&WordRuns::new(&lower[..at]), &lower[..at], tool_name)
    {
        let allowed = entities.into_iter().map(|(_, matcher)| matcher).collect();
        return finish(
            Constraint::forbid(vec![every_call])
                .with_except(allowed)
                .with_ask_first(ask_first),
        );
    }
    if let Some(at) = except_at
        && (entities.iter().any(|(offset, _)| *offset < at)
            || phrases.iter().any(|phrase| phrase.offset < at))
    {
        let (excused, kept): (Vec<_>, Vec<_>) =
            entities.into_iter().partition(|(offset, _)| *offset > at);
        entities = kept;
        except.extend(excused.into_iter().map(|(_, matcher)| matcher));
        let (excused, kept): (Vec<_>, Vec<_>) =
            phrases.into_iter().partition(|phrase| phrase.offset > at);
        phrases = kept;
        except.extend(command_matchers(&excused));
    }
    if let Cue::Forbid { .. } = cue {
        except.extend(refined_alternatives(original, kept, &phrases));
        // "Never tag a release": listing the tags makes none.
        if phrases
            .iter()
            .any(|phrase| phrase.words == ["git", "tag"] && phrase.adjacent_flags.is_empty())
        {
            except.push(Matcher::new(MatcherKind::Command, "git tag --list"));
        }
    }
    // "`execute_command` must not be started without ...": the tool the rule is stored on,
    // named in it, is no literal a call of it carries.
    if action_words(tool_name).is_none() {
        let own = tool_name.trim().to_lowercase();
        entities
            .retain(|(_, matcher)| !(matcher.kind == MatcherKind::Literal && matcher.value == own));
    }
    // "Don't store anything about customers with `save_memory`": a ban on what the tool is
    // used for, narrowed to a topic, asks about the calls that mention it (and only those),
    // rather than forbidding every call of the tool.
    if let Cue::Forbid { .. } = cue
        && phrases.is_empty()
        && flags.is_empty()
        && entities
            .iter()
            .all(|(_, matcher)| is_the_tool(matcher, tool_name))
        && action_words(tool_name).is_some()
    {
        let topic = topic_words(&lower);
        if !topic.is_empty() {
            entities = topic
                .into_iter()
                .map(|word| (0, Matcher::new(MatcherKind::Literal, word)))
                .collect();
            cue = Cue::Forbid { ask_first: true };
        }
    }
    // "Don't bump the Spring version in `build.gradle`": a ban on something inside a file. An
    // edit that shows it (a word that begins with the thing's name) is denied; any other edit
    // of the file asks, since the guard cannot tell which lines a change touches.
    if let Cue::Forbid { ask_first: false } = cue
        && phrases.is_empty()
        && flags.is_empty()
        && let [(offset, place)] = entities.as_slice()
        && place.kind == MatcherKind::Path
        && let Some(topic) = topic_inside(&tokens, *offset)
    {
        let inside = Constraint::forbid(vec![Matcher::new(
            MatcherKind::Literal,
            format!("{topic}*"),
        )])
        .with_when(vec![place.clone()]);
        let file = Constraint::forbid(vec![place.clone()]).with_ask_first(true);
        return finish(inside.with_also(vec![file]));
    }
    // "new `.js` files in `src/`": files of a kind in a directory are one pattern
    // (`src/**/*.js`), not the kind anywhere or the directory's every file.
    combine_kind_and_directory(&mut entities, &lower);
    // Only a ban on places (paths, URLs: "never write to `/etc/**`") is narrowed to a verb; a
    // ban on a command or a statement (`DELETE`) is about running it.
    let on_places = entities
        .iter()
        .any(|(_, matcher)| matches!(matcher.kind, MatcherKind::Path | MatcherKind::Url));
    let access = match cue {
        Cue::Forbid { .. } if read_only_order => {
            // "(`describe-*`, `list-*`, `get-*`)": the reads it allows, not places.
            entities.retain(|(_, matcher)| {
                !(matcher.kind == MatcherKind::Path
                    && matcher.value.ends_with("-*")
                    && !matcher.value.contains(['/', '.']))
            });
            // "The `main` branch is protected and read-only for you": no push to it.
            let branches = !entities.is_empty()
                && phrases.is_empty()
                && entities.iter().all(|(_, matcher)| {
                    matcher.kind == MatcherKind::Literal
                        && (word_class(&matcher.value) & BRANCH != 0 || lower.contains("branch"))
                });
            if branches {
                phrases.push(CommandPhrase {
                    offset: 0,
                    words: vec!["git".to_owned(), "push".to_owned()],
                    adjacent_flags: Vec::new(),
                    loose_flags: Vec::new(),
                    force_words: false,
                });
                None
            } else {
                Some(Access::Write)
            }
        }
        Cue::Forbid { .. } if on_places => access_of(&words),
        // "Don't delete the `pr-1879-preview` environment", "don't contact x@y.z in any way":
        // a ban on one operation on a thing named (an id, a name, an address) leaves reading
        // it alone (describing the environment, searching mail from the address).
        // (Not a statement named as a literal, `DELETE`, which is the operation itself, nor a
        // clause required "without" which the statements that lack it are forbidden.)
        Cue::Forbid { .. }
            if phrases.is_empty()
                && flags.is_empty()
                && !entities.is_empty()
                && !lower.contains("without ")
                && entities.iter().all(|(_, matcher)| {
                    !matcher.value.contains(' ') && !SQL_KEYWORDS.contains(&matcher.value.as_str())
                }) =>
        {
            named_access(&words, &entities)
        }
        // "Ask before any `gcloud` command that creates, updates or deletes something": the
        // commands that change things, not those that read.
        // (A command with its subcommand, `kubectl delete`, says what it does already.)
        Cue::Forbid { .. }
            if !phrases.is_empty()
                && phrases
                    .iter()
                    // An option given a value (`redis-cli -h prod`) says where the command
                    // runs, not what it does.
                    .all(|phrase| {
                        phrase.words.len() == 1
                            && phrase.adjacent_flags.iter().all(|flag| flag.contains(' '))
                    }) =>
        {
            access_of_commands(&words)
        }
        _ => None,
    };
    let constraint = match cue {
        Cue::Forbid { ask_first } => {
            // `contains` is cheaper than `find` on the usual miss. In a rule that asks, the
            // "without" of its ask cue ("without asking") is not a requirement; another one
            // is: "Any `UPDATE` without a `WHERE` needs my OK".
            let without = if !lower.contains("without ") {
                None
            } else if ask_first {
                lower
                    .match_indices("without ")
                    .map(|(at, _)| at)
                    .find(|&at| {
                        !ASK_CUES
                            .iter()
                            .any(|cue| cue.starts_with("without ") && lower[at..].starts_with(cue))
                    })
            } else {
                lower.find("without ")
            };
            let required_after = without.filter(|at| {
                entities.iter().any(|(offset, _)| offset > at)
                    || flags.iter().any(|(offset, _)| offset > at)
                    || phrases.iter().any(|phrase| !phrase.loose_flags.is_empty())
            });
            match required_after {
                Some(at) => {
                    // "must not be started without `requires_approval: true`": a property
                    // that is itself an approval asks when it is missing.
                    let approval = flags
                        .iter()
                        .any(|(_, flag)| flag.contains("approv") || flag.contains("confirm"));
                    require_without(at, &phrases, entities, flags)
                        .with_ask_first(ask_first || approval)
                }
                None => forbid(&phrases, entities, flags).with_ask_first(ask_first),
            }
        }
        Cue::InsteadOf(_) => forbid(&phrases, entities, flags),
        Cue::Require => require(&phrases, entities, flags),
    };
    let constraint = finish(constraint.with_except(except).with_access(access))
        .map(|constraint| names_the_tool(constraint, tool_name));
    let constraint = match (constraint, cue) {
        (Some(constraint), _) => Some(constraint),
        (None, Cue::Forbid { ask_first }) => forbids_the_tool(&words, &lower, tool_name)
            .or_else(|| forbids_an_operation(&words, &lower, tool_name))
            .map(|matcher| vec![matcher])
            .or_else(|| operation_on_the_tool(&lower, tool_name))
            // "Never refund more than $500", "don't deploy on Fridays": under a condition, the
            // verb of the tool (or an operation) is the subject, whatever its object.
            .or_else(|| {
                situation
                    .iter()
                    .any(|(_, matcher)| matcher.is_some())
                    .then(|| {
                        does_the_tool(&lower, tool_name)
                            .or_else(|| names_an_operation(&lower, tool_name))
                    })
                    .flatten()
                    .map(|matcher| vec![matcher])
            })
            .map(|matchers| Constraint::forbid(matchers).with_ask_first(ask_first)),
        (None, _) => None,
    }?;
    let conditions: Vec<Matcher> = situation
        .into_iter()
        .filter_map(|(_, matcher)| matcher)
        .collect();
    if conditions.is_empty() {
        return Some(constraint);
    }
    let mut when = constraint.when.clone();
    when.extend(conditions);
    finish(constraint.with_when(when))
}

/// "Never open localhost ports other than 5173", "no local ports except 3000 and 8080": a ban
/// on every port of the machine itself (`*://localhost:*`) but the ports named after the
/// exception, which are allowed. `None` unless the rule says "localhost" and "port" and
/// names a port after an exception.
fn local_ports(lower: &str, cues: &Cues) -> Option<Constraint> {
    if cues.forbid.is_none() && cues.ask.is_none() {
        return None;
    }
    if !(lower.contains("localhost") || lower.contains("local port")) || !lower.contains("port") {
        return None;
    }
    let after = ["other than ", "except ", "but "]
        .iter()
        .filter_map(|cue| lower.find(cue).map(|at| at + cue.len()))
        .min()?;
    let ports: Vec<&str> = lower[after..]
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|number| (2..=5).contains(&number.len()) && number.parse::<u16>().is_ok())
        .collect();
    if ports.is_empty() {
        return None;
    }
    let allowed = ports
        .iter()
        .map(|port| Matcher::new(MatcherKind::Url, format!("http://localhost:{port}")))
        .collect();
    Some(
        Constraint::forbid(vec![Matcher::new(MatcherKind::Url, "*://localhost:*")])
            .with_except(allowed)
            .with_ask_first(cues.ask.is_some()),
    )
}

/// The orders about a tool's arguments that stand alone ([`arguments`]): a manner the call
/// must have, states it must not put things into, something it must not carry.
fn argument_order(text: &str, lower: &str, cues: &Cues) -> Option<Constraint> {
    let ask_first = cues.ask.is_some();
    if cues.forbid.is_none()
        && cues.ask.is_none()
        && let Some(key) = arguments::required_manner(lower)
    {
        return Some(arguments::manner_constraint(key));
    }
    if cues.forbid.is_none() && cues.ask.is_none() {
        return None;
    }
    // "Never DM anyone": a message whose channel is a person.
    if arguments::says_direct_messages(lower) {
        return Some(
            Constraint::forbid(vec![arguments::argument(
                "channel",
                crate::matching::DIRECT_MESSAGE,
            )])
            .with_ask_first(ask_first),
        );
    }
    let states = arguments::named_states(text);
    if !states.is_empty() {
        let matchers = states
            .iter()
            .map(|state| arguments::argument("state", state))
            .collect();
        return Some(Constraint::forbid(matchers).with_ask_first(ask_first));
    }
    arguments::carried_argument(lower).map(|key| {
        Constraint::forbid(vec![arguments::argument(key, "*")]).with_ask_first(ask_first)
    })
}

/// On a tool that takes named arguments: a name before "repo" or "branch" is that argument
/// ("the `infra` repo" is `repo=infra`, not the word anywhere), and a push to a branch through
/// it is its `branch` argument (a tool that runs git, `git_branch`, is read as git) ("never push to `main` through
/// `push_files`").
fn arguments_of_the_tool(
    tokens: &[tokens::Token<'_>],
    phrases: &mut Vec<CommandPhrase>,
    entities: &mut [(usize, Matcher)],
) {
    for (offset, matcher) in entities.iter_mut() {
        if !matches!(matcher.kind, MatcherKind::Literal | MatcherKind::Path) {
            continue;
        }
        let Some(at) = tokens.iter().position(|token| token.offset == *offset) else {
            continue;
        };
        if let Some(key) = tokens
            .get(at + 1)
            .and_then(|next| arguments::argument_noun(&next.lower))
        {
            *matcher = arguments::argument(key, &matcher.value.to_lowercase());
        }
    }
    let a_push = matches!(phrases.as_slice(), [phrase] if phrase.words == ["git", "push"] && phrase.adjacent_flags.is_empty() && phrase.loose_flags.is_empty());
    if a_push {
        let branches: Vec<usize> = entities
            .iter()
            .enumerate()
            .filter(|(_, (_, matcher))| {
                // (A tool's name, `mcp__github__push_files`, is the way, not the branch.)
                matches!(matcher.kind, MatcherKind::Literal | MatcherKind::Path)
                    && !matcher.value.contains([' ', '@', '#'])
                    && !matcher.value.contains("__")
            })
            .map(|(index, _)| index)
            .collect();
        if !branches.is_empty() {
            for index in branches {
                let value = entities[index].1.value.to_lowercase();
                entities[index].1 = arguments::argument("branch", &value);
            }
            phrases.clear();
        }
    }
}

/// Whether `value` is a number in groups of digits joined by `-`, `.` or a space (`7781-0042`,
/// `12 3456 789`), two groups or more, each of two digits or more.
fn is_separated_number(value: &str) -> bool {
    let groups: Vec<&str> = value.split(['-', ' ', '.']).collect();
    groups.len() >= 2
        && groups
            .iter()
            .all(|group| group.len() >= 2 && group.chars().all(|ch| ch.is_ascii_digit()))
}

/// The path pattern every path matches, forbidden when a rule names only the places allowed
/// ("never write outside `/srv/out/`").
const EVERY_PATH: &str = "**";

/// Whether the token at `index` follows "outside" or "outside of".
/// The words between "outside" and its place that say what kind of place it is ("outside of
/// the repo folder `D:\src\app`").
const OUTSIDE_FILLERS: &[&str] = &[
    "of",
    "the",
    "our",
    "this",
    "my",
    "repo",
    "repository",
    "project",
    "workspace",
    "folder",
    "folders",
    "directory",
    "directories",
    "dir",
    "tree",
    "root",
    "working",
];

/// Whether the token at `index` follows "outside", with at most four words of
/// [`OUTSIDE_FILLERS`] between.
fn is_after_outside(tokens: &[tokens::Token<'_>], index: usize) -> bool {
    for back in 1..=5 {
        let Some(at) = index.checked_sub(back) else {
            return false;
        };
        let word = tokens[at].lower.as_ref();
        if word == "outside" {
            return true;
        }
        if !OUTSIDE_FILLERS.contains(&word) {
            return false;
        }
    }
    false
}

/// What a ban on piping into `target` forbids: a shell stands for every shell (`curl ... |
/// sudo bash`, `iwr ... | iex`), another program for itself.
fn pipe_targets(target: &str) -> Vec<Matcher> {
    if SHELLS_OF_PIPES.contains(&target) {
        SHELLS_OF_PIPES
            .iter()
            .map(|shell| Matcher::new(MatcherKind::Command, *shell))
            .collect()
    } else {
        vec![Matcher::new(MatcherKind::Command, target)]
    }
}

/// What a ban on piping from `source` is about: a download stands for every way to download
/// (`curl | sh` holds for `wget -qO- ... | bash`), another command for itself.
fn pipe_sources(source: &str) -> Vec<Matcher> {
    if FETCHERS.contains(&source) {
        FETCHERS
            .iter()
            .map(|fetcher| Matcher::new(MatcherKind::Command, *fetcher))
            .collect()
    } else {
        vec![Matcher::new(MatcherKind::Command, source)]
    }
}

fn command_matchers(phrases: &[CommandPhrase]) -> Vec<Matcher> {
    let mut matchers = Vec::new();
    for phrase in phrases {
        if phrase.loose_flags.is_empty() {
            matchers.push(Matcher::new(MatcherKind::Command, phrase.value(None)));
            if phrase.force_words {
                let mut lease = phrase.words.join(" ");
                lease.push_str(" --force-with-lease");
                matchers.push(Matcher::new(MatcherKind::Command, lease));
            }
        } else {
            for flag in &phrase.loose_flags {
                matchers.push(Matcher::new(MatcherKind::Command, phrase.value(Some(flag))));
            }
            if phrase.force_words {
                let lease = Matcher::new(
                    MatcherKind::Command,
                    format!("{} --force-with-lease", phrase.words.join(" ")),
                );
                if !matchers.contains(&lease) {
                    matchers.push(lease);
                }
            }
        }
    }
    matchers
}

/// The entities, then the flags, as matchers.
fn literal_matchers(entities: Vec<(usize, Matcher)>, flags: Vec<(usize, String)>) -> Vec<Matcher> {
    let mut matchers = Vec::with_capacity(entities.len() + flags.len());
    matchers.extend(entities.into_iter().map(|(_, matcher)| matcher));
    matchers.extend(
        flags
            .into_iter()
            .map(|(_, flag)| Matcher::new(MatcherKind::Flag, flag)),
    );
    matchers
}

fn forbid(
    phrases: &[CommandPhrase],
    entities: Vec<(usize, Matcher)>,
    flags: Vec<(usize, String)>,
) -> Constraint {
    // "Never run `mysql` with `-e \"DROP`": a flag given a value after a command is what is
    // forbidden in it (the value a statement begins with), not the command with the flag.
    let valued: Vec<Matcher> = phrases
        .iter()
        .flat_map(|phrase| &phrase.loose_flags)
        .filter(|flag| flag.contains('='))
        .map(|flag| Matcher::new(MatcherKind::Flag, flag.clone()))
        .collect();
    if !valued.is_empty() && entities.is_empty() && flags.is_empty() {
        let mut commands = phrases.to_vec();
        for phrase in &mut commands {
            phrase.loose_flags.retain(|flag| !flag.contains('='));
        }
        return Constraint::forbid(valued).with_when(command_matchers(&commands));
    }
    let matchers = literal_matchers(entities, flags);
    if phrases.is_empty() {
        return Constraint::forbid(matchers);
    }
    let commands = command_matchers(phrases);
    if matchers.is_empty() {
        Constraint::forbid(commands)
    } else {
        Constraint::forbid(matchers).with_when(commands)
    }
}

fn require(
    phrases: &[CommandPhrase],
    entities: Vec<(usize, Matcher)>,
    flags: Vec<(usize, String)>,
) -> Constraint {
    // "Always use `pnpm install --frozen-lockfile`": the order spells how to run a command,
    // and a call that runs it another way is asked about.
    let spelled = entities.is_empty()
        && flags.is_empty()
        && phrases
            .iter()
            .any(|phrase| !phrase.adjacent_flags.is_empty())
        && phrases.iter().all(|phrase| phrase.loose_flags.is_empty());
    let mut matchers = literal_matchers(entities, flags);
    let mut when = Vec::new();
    for phrase in phrases {
        let required: Vec<&String> = phrase
            .adjacent_flags
            .iter()
            .chain(&phrase.loose_flags)
            .collect();
        match flag_subcommands(&phrase.words, &required) {
            Some(subcommands) => when.extend(subcommands.into_iter().map(|subcommand| {
                Matcher::new(
                    MatcherKind::Command,
                    format!("{} {subcommand}", phrase.words[0]),
                )
            })),
            None => when.push(Matcher::new(MatcherKind::Command, phrase.words.join(" "))),
        }
        for flag in required {
            matchers.push(Matcher::new(MatcherKind::Flag, flag.clone()));
        }
    }
    // A positive order that a flag be passed ("Always pass `--signoff` to `git commit`",
    // "every `helm upgrade` must have `--atomic`") asks about a call without it: the call is
    // incomplete rather than wrong (issue 21, class 7; session 28's second round read it so,
    // where the first denied). A required address or URL still denies.
    let flags_only = !matchers.is_empty()
        && matchers
            .iter()
            .all(|matcher| matcher.kind == MatcherKind::Flag);
    Constraint::require(matchers)
        .with_when(when)
        .with_ask_first(spelled || flags_only)
}

/// The subcommands a requirement on a bare program is about, when every flag it requires
/// belongs to known subcommands of it ([`FLAG_SUBCOMMANDS`]): "always pass `--namespace` to
/// helm" is about `helm upgrade` and `helm list`, not `helm repo update`. `None`: the rule
/// names a subcommand, or a flag the table does not know, so it holds for every invocation.
fn flag_subcommands(words: &[String], flags: &[&String]) -> Option<Vec<&'static str>> {
    let [program] = words else {
        return None;
    };
    let mut subcommands: Vec<&'static str> = Vec::new();
    for flag in flags {
        // A flag given a value (`--context=staging`) belongs where the flag does.
        let name = flag.split('=').next().unwrap_or_default();
        let (_, _, list) = FLAG_SUBCOMMANDS
            .iter()
            .find(|(known, known_flag, _)| known == program && *known_flag == name)?;
        for subcommand in list.iter().copied().flatten() {
            if !subcommands.contains(subcommand) {
                subcommands.push(subcommand);
            }
        }
    }
    (!subcommands.is_empty()).then_some(subcommands)
}

/// The thing a ban names inside a file ("the Spring version in `build.gradle`"): the first
/// capitalised word between the order and "in" before the file's token (at `place`),
/// lower-case; `None` when there is none.
fn topic_inside(tokens: &[tokens::Token<'_>], place: usize) -> Option<String> {
    let at = tokens.iter().position(|token| token.offset == place)?;
    let before = at.checked_sub(1)?;
    if !matches!(tokens[before].lower.as_ref(), "in" | "inside" | "within") {
        return None;
    }
    // "In `vendor/`: ..." opens on the place: no word before "in" names a thing.
    tokens
        .get(1..before)?
        .iter()
        .filter(|token| matches!(token.kind, TokenKind::Word))
        .find(|token| {
            token.text.starts_with(|ch: char| ch.is_uppercase())
                && token.text.chars().count() >= 3
                && token.text.chars().all(char::is_alphabetic)
                && Cues::of(&WordRuns::new(&token.lower)).forbid.is_none()
        })
        .map(|token| token.lower.to_string())
}

/// "never X without Y": Y is required whenever X happens.
fn require_without(
    at: usize,
    phrases: &[CommandPhrase],
    entities: Vec<(usize, Matcher)>,
    flags: Vec<(usize, String)>,
) -> Constraint {
    let mut when: Vec<Matcher> = Vec::new();
    let mut matchers: Vec<Matcher> = Vec::new();
    for phrase in phrases {
        when.push(Matcher::new(MatcherKind::Command, phrase.value(None)));
        matchers.extend(
            phrase
                .loose_flags
                .iter()
                .map(|flag| Matcher::new(MatcherKind::Flag, flag.clone())),
        );
    }
    for (offset, matcher) in entities {
        if offset > at {
            matchers.push(matcher);
        } else if matcher.kind == MatcherKind::Literal
            && SQL_KEYWORDS.contains(&matcher.value.as_str())
        {
            // A statement is its own command line (`UPDATE t SET ...; COMMIT`): the
            // requirement holds in each statement of that kind, whichever others the call
            // has ("`DELETE` or `UPDATE` without a `WHERE`").
            when.push(Matcher::new(MatcherKind::Command, matcher.value));
        } else if matcher.kind != MatcherKind::Person {
            when.push(matcher);
        }
    }
    for (offset, flag) in flags {
        let matcher = Matcher::new(MatcherKind::Flag, flag);
        if offset > at {
            matchers.push(matcher);
        } else {
            when.push(matcher);
        }
    }
    Constraint::require(matchers).with_when(when)
}

/// "`cargo publish` is forbidden. Use `cargo publish --dry-run` to check packaging.": a
/// command in a clause that gives no order (so not read as part of the ban) which spells a
/// forbidden command with more flags is the safe way the user points to, and is excused. A
/// different flag (`--force-with-lease` beside `--force`) is not a refinement of it.
fn refined_alternatives(original: &str, kept: &str, phrases: &[CommandPhrase]) -> Vec<Matcher> {
    let mut alternatives = Vec::new();
    if phrases.is_empty() {
        return alternatives;
    }
    let kept: std::collections::HashSet<String> = kept
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|span| span.trim().to_lowercase())
        .collect();
    for span in original.split('`').skip(1).step_by(2) {
        let lower = span.trim().to_lowercase();
        // Only a command of the program banned can refine it.
        let same_program = lower
            .split_whitespace()
            .next()
            .is_some_and(|first| phrases.iter().any(|phrase| phrase.words[0] == first));
        if !same_program || kept.contains(&lower) {
            continue;
        }
        let (flags, words): (Vec<&str>, Vec<&str>) = lower
            .split_whitespace()
            .partition(|word| word.starts_with('-') && word.len() > 1);
        let refines = phrases.iter().any(|phrase| {
            words.len() >= phrase.words.len()
                && words.iter().zip(&phrase.words).all(|(a, b)| a == b)
                && phrase
                    .adjacent_flags
                    .iter()
                    .all(|flag| flags.contains(&flag.as_str()))
                && flags.len() > phrase.adjacent_flags.len()
        });
        if refines {
            alternatives.push(Matcher::new(MatcherKind::Command, lower));
        }
    }
    alternatives
}

/// The access a forbidding rule is about, from its verbs: only verbs of change ("never
/// write to `/etc/**`", "don't delete anything from the bucket") make it a rule about
/// writing; a verb of reading or of any use beside them ("never read or write", "don't
/// touch") keeps it about every access.
fn access_of(words: &WordRuns<'_>) -> Option<Access> {
    let has = |list: &[&str]| list.iter().any(|verb| words.has_run(verb));
    if has(ANY_ACCESS_VERBS) {
        return None;
    }
    // "Do not create new `.js` files", "never add new markdown files": making files, not
    // changing those that exist.
    let creating = has(CREATE_VERBS)
        || (words.has_run("new") && (words.has_run("file") || words.has_run("files")));
    let changing = CHANGING
        .iter()
        .filter(|verb| !CREATE_VERBS.contains(verb))
        .any(|verb| words.has_run(verb));
    if creating && !changing {
        return Some(Access::Create);
    }
    has(&CHANGING).then_some(Access::Write)
}

/// The access a ban on things named by an id, a name or an address is about: changing them
/// when the only verbs are of change ("delete", "drop", "close"), sending to them when they
/// are addresses or people and the verbs are of contact ("contact", "email", "invite").
fn named_access(words: &WordRuns<'_>, entities: &[(usize, Matcher)]) -> Option<Access> {
    let has = |list: &[&str]| list.iter().any(|verb| words.has_run(verb));
    if has(ANY_ACCESS_VERBS) {
        return None;
    }
    let named = entities
        .iter()
        .all(|(_, matcher)| matches!(matcher.kind, MatcherKind::Literal | MatcherKind::Host));
    let people = entities.iter().all(|(_, matcher)| {
        matches!(
            matcher.kind,
            MatcherKind::Email | MatcherKind::Person | MatcherKind::Domain
        )
    });
    let changes = has(&CHANGING) || has(DESTROYING_VERBS);
    ((named && changes) || (people && has(CONTACT_VERBS))).then_some(Access::Write)
}

/// Verbs of ending or destroying a thing named: with [`CHANGING`], what makes a ban on a named
/// thing a ban on changing it.
const DESTROYING_VERBS: &[&str] = &[
    "close",
    "closing",
    "destroy",
    "destroying",
    "drop",
    "dropping",
    "merge",
    "merging",
    "purge",
    "purging",
    "terminate",
    "terminating",
    "truncate",
    "truncating",
    "wipe",
    "wiping",
];

/// Verbs of contacting someone as such ("don't contact x@y.z in any way", "never reach out
/// to ..."): a ban said with them is about what reaches the person (sending, inviting,
/// posting), not about reading or searching what is about them. (A ban said with one way,
/// "never email Sarah", keeps its every access: that reading is stored widely and asks no
/// change here.)
const CONTACT_VERBS: &[&str] = &["contact", "contacting", "reach", "reaching"];

/// Verbs of making something new.
const CREATE_VERBS: &[&str] = &["create", "created", "creates", "creating"];

/// The extensions of a kind of file named in words ("markdown files", "Python files").
fn file_kind_extensions(word: &str) -> Option<&'static [&'static str]> {
    FILE_KINDS
        .iter()
        .find(|(kind, _)| *kind == word)
        .map(|(_, extensions)| *extensions)
}

/// Kinds of files by the word people name them with, and their extensions.
const FILE_KINDS: &[(&str, &[&str])] = &[
    ("bash", &["sh", "bash"]),
    ("css", &["css"]),
    ("go", &["go"]),
    ("html", &["html", "htm"]),
    ("java", &["java"]),
    ("javascript", &["js", "jsx", "mjs", "cjs"]),
    ("json", &["json"]),
    ("kotlin", &["kt", "kts"]),
    ("markdown", &["md", "markdown", "mdx"]),
    ("php", &["php"]),
    ("python", &["py"]),
    ("ruby", &["rb"]),
    ("rust", &["rs"]),
    ("shell", &["sh", "bash", "zsh"]),
    ("sql", &["sql"]),
    ("typescript", &["ts", "tsx"]),
    ("yaml", &["yaml", "yml"]),
];

/// Files of a kind said to be in a directory ("`.js` files in `src/`") as one pattern
/// (`src/**/*.js`): each extension glob of `entities` joined to the one directory, when the
/// directory follows "in", "under", "inside" or "within" after them.
fn combine_kind_and_directory(entities: &mut Vec<(usize, Matcher)>, lower: &str) {
    let kinds: Vec<usize> = entities
        .iter()
        .enumerate()
        .filter(|(_, (_, matcher))| {
            matcher.kind == MatcherKind::Path
                && matcher.value.starts_with("*.")
                && !matcher.value[2..].contains(['/', '*'])
        })
        .map(|(at, _)| at)
        .collect();
    let directories: Vec<usize> = entities
        .iter()
        .enumerate()
        .filter(|(at, (_, matcher))| {
            matcher.kind == MatcherKind::Path && !kinds.contains(at) && !matcher.value.contains('*')
        })
        .map(|(at, _)| at)
        .collect();
    let (Some(&last_kind), [directory]) = (kinds.last(), directories.as_slice()) else {
        return;
    };
    let (kind_at, directory_at) = (entities[last_kind].0, entities[*directory].0);
    let between = lower.get(kind_at..directory_at).unwrap_or_default();
    let placed = directory_at > kind_at
        && between
            .split_whitespace()
            .any(|word| matches!(word, "in" | "under" | "inside" | "within"));
    if !placed {
        return;
    }
    let directory = entities[*directory]
        .1
        .value
        .trim_end_matches('/')
        .to_owned();
    for at in &kinds {
        let kind = entities[*at].1.value.clone();
        entities[*at].1 = Matcher::new(MatcherKind::Path, format!("{directory}/**/{kind}"));
    }
    entities.remove(directories[0]);
}

/// The access a ban on commands is about, from its verbs: only verbs of change ("any `gcloud`
/// command that creates, updates or deletes something", "a `kubectl` command that mutates the
/// cluster") make it a ban on the invocations that change things. Verbs of running (run, use,
/// execute) are how any command is said and keep nothing from it; a verb of reading keeps the
/// ban about every invocation.
fn access_of_commands(words: &WordRuns<'_>) -> Option<Access> {
    let has = |list: &[&str]| list.iter().any(|verb| words.has_run(verb));
    let reads = ANY_ACCESS_VERBS
        .iter()
        .filter(|verb| !RUNNING_VERBS.contains(verb))
        .any(|verb| words.has_run(verb));
    (has(&CHANGING) && !reads).then_some(Access::Write)
}

/// Verbs that say a command is run, which any ban on a command uses.
const RUNNING_VERBS: &[&str] = &["exec", "execute", "run", "running", "use", "using"];

/// Drops invalid or duplicate matchers; `None` when nothing is left to check.
fn finish(mut constraint: Constraint) -> Option<Constraint> {
    // The kept matchers gather, in order, at the front of the list. A matcher equal to an
    // earlier one that was dropped as invalid is invalid too, so comparing with the kept ones
    // finds every duplicate.
    let keep = |list: &mut Vec<Matcher>| {
        let mut kept = 0;
        for index in 0..list.len() {
            if !list[..kept].contains(&list[index]) && list[index].is_valid() {
                list.swap(kept, index);
                kept += 1;
            }
        }
        list.truncate(kept);
    };
    keep(&mut constraint.matchers);
    keep(&mut constraint.when);
    keep(&mut constraint.except);
    if constraint.matchers.is_empty() {
        return None;
    }
    // Every matcher is valid now; what `validate` has left to check is the list lengths.
    let valid = constraint.matchers.len() <= MAX_MATCHERS
        && constraint.when.len() <= MAX_MATCHERS
        && constraint.except.len() <= MAX_MATCHERS;
    debug_assert_eq!(valid, constraint.validate().is_ok(), "{constraint:?}");
    valid.then_some(constraint)
}

#[cfg(test)]
mod tests;

/// Whether the text before a command ends in "generated by", "updated only by" and the like:
/// the command is what makes the object the order is about ([`lexicon::MAKER_PARTICIPLES`]).
fn names_the_maker(before: &str) -> bool {
    let before = before.trim_end().trim_end_matches('`').trim_end();
    let Some(rest) = before.strip_suffix(" by") else {
        return false;
    };
    let rest = rest.strip_suffix(" only").unwrap_or(rest);
    let participle = rest.rsplit(' ').next().unwrap_or_default();
    lexicon::MAKER_PARTICIPLES.contains(&participle)
}
