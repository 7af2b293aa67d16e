//! The fail-safe reading of a rule the grammar could not read: a critical or high rule whose
//! words order a ban or an ask but from which derivation took no constraint. It is about its
//! salient literals (code spans, commands and programs, paths, hosts, URLs, addresses, ids,
//! quoted text), so a call that carries one of them is asked about rather than silently allowed
//! (issue 21, fourth round). It never denies: the reading is a guess at what the rule is about,
//! not at what it orders.

use std::borrow::Cow;

use tool_memory_core::{ToolMemoryPriority, ToolMemoryRule};

use super::lexicon::{AMBIGUOUS_PROGRAM, COMMON_WORD, Cues, PROGRAM};
use super::tokens::{TokenKind, tokenize};
use super::whole_tool::{own_words, says_read_only};
use super::{asks_about_a_rule, gives_an_order, is_program, spelling};
use crate::constraint::ANY_HOST;
use crate::normalize::WordRuns;
use crate::rule_text::ordering_clauses;
use crate::{Access, Constraint, MAX_MATCHERS, Matcher, MatcherKind};

/// The longest text the fallback reads whole: a few sentences, as a rule and its reason are
/// written (the fourth round's cases are under 100 bytes); past it only the clauses that give
/// an order are read.
const MAX_WHOLE_TEXT_BYTES: usize = 400;

/// The shortest id the fallback takes from prose (`OPS-22`, `vm-07`): shorter mixes of
/// letters and digits (`s3`, `2fa`, `v2`) are words people use about many things.
const MIN_ID_CHARS: usize = 5;

/// Whether a word is shaped as the name of a program that controls a service (`frobctl`,
/// `quuxctl`, `zork-cli`, `fooadm`): such names are no English words, whatever the lexicon
/// knows of them.
fn is_control_program(word: &str) -> bool {
    ["ctl", "-cli", "adm"].iter().any(|suffix| {
        word.strip_suffix(suffix)
            .is_some_and(|stem| stem.len() >= 2 && stem.chars().all(|ch| ch.is_ascii_lowercase()))
    })
}

/// The fallback constraint of a rule whose text derives none (see the module's doc), or
/// `None` when the rule is of normal priority, gives no order of a ban or an ask, or names
/// nothing a call could carry: it then stays advice.
///
/// The flag that comes with it says whether the reading is a guess that only asks (`true`),
/// or a reading of a shape the stored text's derivation leaves out because it hangs on the
/// priority (a bare list item read as the ban it is, [`bare_item_ban`]; an "only" rule about a
/// program, [`only_the_program`]), which decides like any rule.
pub(crate) fn fallback_constraint(rule: &ToolMemoryRule) -> Option<(Constraint, bool)> {
    if rule.priority == ToolMemoryPriority::Normal {
        return None;
    }
    if let Some(ban) = bare_item_ban(&rule.rule, &rule.tool_name) {
        return Some((ban, false));
    }
    if let Some(allowlist) = only_the_program(&rule.rule) {
        return Some((allowlist, false));
    }
    fallback_from_text(&rule.rule, &rule.tool_name).map(|constraint| (constraint, true))
}

/// Words that grant rather than forbid: an item with one ("`terraform plan` is fine") is no
/// ban. Sorted.
const PERMISSION_WORDS: &[&str] = &[
    "allowed",
    "can",
    "encouraged",
    "fine",
    "free",
    "may",
    "ok",
    "okay",
    "permitted",
    "prefer",
    "preferred",
    "recommended",
    "safe",
];

/// Verbs right after an opening command that describe it rather than list it: being,
/// having, and what a command does.
const DESCRIBING: &[&str] = &[
    "are",
    "builds",
    "contains",
    "creates",
    "does",
    "generates",
    "goes",
    "handles",
    "has",
    "have",
    "holds",
    "is",
    "lives",
    "means",
    "needs",
    "returns",
    "runs",
    "starts",
    "uses",
    "was",
    "were",
    "works",
    "writes",
];

/// Phrases that say a ban holds for every spelling of its command ("`git clean -x` (any
/// form)"): the ban of the command already does, so they are dropped before it is read.
const EVERY_SPELLING: &[&str] = &[
    "(any form)",
    "(any variant)",
    "(in any form)",
    "in any form",
    "in any shape or form",
    "in any variant",
    "any form",
    "anywhere",
];

/// A list item saved on its own, without its list's "Never:" (issue 21, fifth round): "-
/// `git clean -x` (any form)", "- `terraform state rm` on shared state", "- piping `wget`
/// output into `sh`". A critical or high rule that opens with a command in a code span (or
/// with a gerund before one) and carries no cue and no permission word was stored by a user as
/// something not to do, so it reads as "Never ...". When that reading derives nothing, the
/// opening command is asked about.
fn bare_item_ban(text: &str, tool_name: &str) -> Option<Constraint> {
    let item = strip_item_marker(text.trim());
    let first = item.split_whitespace().next()?;
    let opens_on_span = first.starts_with('`');
    let opens_on_gerund = first.len() > 4
        && first.ends_with("ing")
        && first.chars().all(|ch| ch.is_ascii_alphabetic())
        && item.contains('`');
    if !opens_on_span && !opens_on_gerund {
        return None;
    }
    // One item, not a paragraph: a sentence after it makes it prose the fail-safe reads.
    if item.lines().count() > 1 || item.trim_end_matches(['.', '!']).contains(". ") {
        return None;
    }
    let lower = item.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    // "`scp` only to `backup.lan`" names what is allowed ([`only_the_program`]).
    if lower
        .split(|ch: char| !ch.is_alphanumeric())
        .any(|word| word == "only")
        || cues.ask.is_some()
        || cues.forbid.is_some()
        || cues.require.is_some()
        || cues.double_negative.is_some()
    {
        return None;
    }
    // "`make test` runs the suite", "`pnpm` is our package manager": a description of the
    // command, stored as critical or not, is no item of a list of what is never done.
    if opens_on_span
        && item
            .splitn(3, '`')
            .nth(2)
            .and_then(|rest| rest.split_whitespace().next())
            .map(|word| {
                word.trim_matches(|ch: char| !ch.is_alphanumeric())
                    .to_lowercase()
            })
            .is_some_and(|word| DESCRIBING.contains(&word.as_str()))
    {
        return None;
    }
    let grants = |text: &str| {
        text.split(|ch: char| !ch.is_alphanumeric())
            .any(|word| PERMISSION_WORDS.binary_search(&word).is_ok())
    };
    if grants(&without_spans_and_asides(&lower)) {
        return None;
    }
    // A permission in an aside ("- `terraform destroy` (you may read the plan)") qualifies the
    // ban in words the grammar may not read: the item does not read cleanly, so its command
    // is asked about rather than denied.
    let clean = !grants(&without_spans(&lower));
    let mut body = item.to_owned();
    for phrase in EVERY_SPELLING {
        if let Some(at) = body.to_lowercase().find(phrase) {
            body.replace_range(at..at + phrase.len(), "");
        }
    }
    // "including `-a`": a spelling of the command the ban already covers.
    if let Some(at) = body.to_lowercase().find("including ") {
        body.truncate(at);
    }
    let body = body.trim().trim_end_matches([',', ';', ':', '.', ' ']);
    if clean && let Some(ban) = super::derive_from_text(&format!("Never {body}."), tool_name) {
        return Some(ban);
    }
    let span = item.split('`').nth(1)?.trim();
    let ask =
        Constraint::forbid(vec![Matcher::new(MatcherKind::Command, span)]).with_ask_first(true);
    ask.validate().is_ok().then_some(ask)
}

/// The kind of condition a word named alone is: a verb or a subcommand (`describe`, `list`),
/// one of which the call must run (1), or a name (`payroll-prod`, `lab`), which it must carry
/// (5).
fn word_kind(word: &str) -> u8 {
    if SUBCOMMAND_VERBS.contains(&word) {
        1
    } else {
        5
    }
}

/// The verbs CLIs name their subcommands with, read or change (`list`, `describe`, `plan`):
/// an "only" rule that names some of them lets its program run those alone.
const SUBCOMMAND_VERBS: &[&str] = &[
    "apply", "create", "delete", "deploy", "describe", "destroy", "diff", "get", "history",
    "inspect", "list", "logs", "ls", "plan", "read", "show", "status", "test", "top", "update",
    "validate", "view",
];

/// Whether a word can name a program: lower-case letters, digits, `-`, `_` and `.`, opening
/// on a letter (`helmfile`, `ansible-playbook`, `az`), not a statement in capitals.
fn is_command_name(word: &str) -> bool {
    word.starts_with(|ch: char| ch.is_ascii_lowercase())
        && word
            .chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || "-_.".contains(ch))
}

/// The text with its code spans blanked.
fn without_spans(lower: &str) -> String {
    lower
        .split('`')
        .enumerate()
        .map(|(index, piece)| if index % 2 == 0 { piece } else { " " })
        .collect()
}

/// A text without its leading list marker (`-`, `*`, `+`, `•`, `1.`, `2)`).
fn strip_item_marker(text: &str) -> &str {
    for marker in ["- ", "* ", "+ ", "• "] {
        if let Some(rest) = text.strip_prefix(marker) {
            return rest.trim_start();
        }
    }
    let digits = text.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(0);
    if digits > 0
        && let Some(rest) = text[digits..]
            .strip_prefix(". ")
            .or_else(|| text[digits..].strip_prefix(") "))
    {
        return rest.trim_start();
    }
    text
}

/// The text with its code spans and parentheses blanked: the words said about the command,
/// not in it or beside it.
fn without_spans_and_asides(lower: &str) -> String {
    let mut out = String::with_capacity(lower.len());
    let (mut in_span, mut depth) = (false, 0_u32);
    for ch in lower.chars() {
        match ch {
            '`' => in_span = !in_span,
            '(' if !in_span => depth += 1,
            ')' if !in_span => depth = depth.saturating_sub(1),
            _ if in_span || depth > 0 => {}
            _ => {
                out.push(ch);
                continue;
            }
        }
        out.push(' ');
    }
    out
}

/// "`ansible-playbook` only with `--check`", "`scp` only to `backup.lan`", "Only `gcloud`
/// commands that read (`describe`, `list`) against project `ledger-prod`" (issue 21, fifth
/// round): an "only" rule whose subject is a program, and whose other literals are the
/// conditions a call of it must meet. A call of the program that meets none of one kind of
/// them (a subcommand named, a destination, a flag, an id) is asked about; one that meets
/// them is allowed. Round 4 left "only" rules out of the fail-safe because their literals are
/// what is allowed; here they are, and the program is what the rule is about.
fn only_the_program(text: &str) -> Option<Constraint> {
    let text = text.replace('’', "'");
    let lower = text.to_lowercase();
    if text.len() > MAX_WHOLE_TEXT_BYTES
        || !lower
            .split(|ch: char| !ch.is_alphanumeric())
            .any(|word| word == "only")
    {
        return None;
    }
    let mut subject: Option<String> = None;
    // The conditions by kind: one of each kind must be met.
    let mut kinds: Vec<(u8, Vec<Matcher>)> = Vec::new();
    for token in tokenize(&text, &lower) {
        let (kind, matcher) = match &token.kind {
            TokenKind::QuotedCommand(command) => {
                let program = command.split_whitespace().next().unwrap_or_default();
                // The first command in code is the subject, known program or not
                // (`helmfile`); later ones are conditions.
                if subject.is_none() && is_command_name(program) {
                    subject = Some(command.clone());
                    continue;
                }
                if command.contains(' ') || is_program(program) {
                    (0, Matcher::new(MatcherKind::Command, command.clone()))
                } else {
                    let word = command.to_lowercase();
                    (word_kind(&word), Matcher::new(MatcherKind::Literal, word))
                }
            }
            TokenKind::Word
                if subject.is_none()
                    && token.class & PROGRAM != 0
                    && token.class & (AMBIGUOUS_PROGRAM | COMMON_WORD) == 0 =>
            {
                subject = Some(token.lower.clone().into_owned());
                continue;
            }
            TokenKind::Entity(
                kind @ (MatcherKind::Email
                | MatcherKind::Domain
                | MatcherKind::Url
                | MatcherKind::Host),
                value,
            ) => (2, Matcher::new(*kind, value.clone())),
            TokenKind::Entity(kind @ MatcherKind::Path, value) => {
                (3, Matcher::new(*kind, value.clone()))
            }
            TokenKind::Entity(kind @ MatcherKind::Flag, value) => {
                (4, Matcher::new(*kind, value.clone()))
            }
            // "`sftp` only to ...": a word in code before "only" is the program it is about,
            // known or not.
            TokenKind::Entity(MatcherKind::Literal, value)
                if subject.is_none()
                    && is_command_name(value)
                    && lower
                        .get(token.offset..)
                        .is_some_and(|rest| rest.contains(" only ")) =>
            {
                subject = Some(value.clone());
                continue;
            }
            TokenKind::Entity(kind @ MatcherKind::Literal, value) => {
                (word_kind(value), Matcher::new(*kind, value.clone()))
            }
            TokenKind::Word if is_id(token.text) => (
                5,
                Matcher::new(MatcherKind::Literal, token.lower.clone().into_owned()),
            ),
            _ => continue,
        };
        if Constraint::forbid(vec![matcher.clone()])
            .validate()
            .is_err()
        {
            continue;
        }
        match kinds.iter_mut().find(|(known, _)| *known == kind) {
            Some((_, matchers)) if !matchers.contains(&matcher) => matchers.push(matcher),
            Some(_) => {}
            None => kinds.push((kind, vec![matcher])),
        }
    }
    let subject = subject?;
    let program = || vec![Matcher::new(MatcherKind::Command, subject.clone())];
    let mut parts: Vec<Constraint> = Vec::new();
    for (kind, except) in kinds {
        if kind == 2 {
            // Places: a call of the program that reaches another place is denied, as an
            // allowlist of hosts is ("`scp` only to `backup.lan`"); one that names no place
            // is asked about below.
            let places: Vec<Matcher> = except
                .iter()
                .filter_map(|matcher| match matcher.kind {
                    MatcherKind::Url | MatcherKind::Domain => Some(matcher.clone()),
                    MatcherKind::Host
                        if !matcher.value.starts_with(|ch: char| ch.is_ascii_digit()) =>
                    {
                        Some(Matcher::new(MatcherKind::Domain, matcher.value.clone()))
                    }
                    _ => None,
                })
                .collect();
            if places.len() == except.len() {
                parts.push(
                    Constraint::forbid(vec![Matcher::new(MatcherKind::Domain, ANY_HOST)])
                        .with_when(program())
                        .with_except(places),
                );
            }
        }
        parts.push(
            Constraint::forbid(program())
                .with_except(except)
                .with_ask_first(true),
        );
    }
    let mut parts = parts.into_iter();
    let first = parts.next()?;
    let constraint = first.with_also(parts.collect());
    constraint.validate().is_ok().then_some(constraint)
}

/// [`fallback_constraint`] on the text and tool name alone, whatever the priority.
pub(crate) fn fallback_from_text(text: &str, tool_name: &str) -> Option<Constraint> {
    let text = text.replace('’', "'");
    let text = match spelling::plain_rule_text(&text) {
        Cow::Borrowed(_) => text.clone(),
        Cow::Owned(plain) => plain,
    };
    if asks_about_a_rule(&text) {
        return None;
    }
    let lower = text.to_lowercase();
    let cues = Cues::of(&WordRuns::new(&lower));
    let read_only = says_read_only(&lower);
    // "Only X" names what is allowed: a call carrying X is the harmless one, so the literals of
    // an allowlist without a ban or an ask of its own say nothing the fallback could use.
    let gated = GATES.iter().any(|gate| lower.contains(gate));
    if cues.ask.is_none() && cues.forbid.is_none() && !read_only && !gated {
        return None;
    }
    // The rule's own tool named in its text ("Don't use `google_web_search` for ..."): every
    // call of it carries it, as the command the tool is.
    let tool = tool_name.trim().to_lowercase();
    let own_tool = tool.rsplit("__").next().unwrap_or(&tool).to_owned();
    // A long text (a pasted section of a CLAUDE.md) names many things beside its orders: only
    // its ordering clauses' literals are read, so that one "never" in it does not make every
    // path and command it mentions ask. A short one is read whole: "`ledger-prod` belongs to
    // the SREs. Hands off." names in one sentence what the other orders.
    let read: Cow<'_, str> = if text.len() <= MAX_WHOLE_TEXT_BYTES {
        Cow::Borrowed(&text)
    } else {
        ordering_clauses(&text, gives_an_order, is_program)
    };
    let read_lower = read.to_lowercase();
    let mut matchers: Vec<Matcher> = Vec::new();
    let tokens = tokenize(&read, &read_lower);
    for (index, token) in tokens.iter().enumerate() {
        // "Anything like frobctl purge on the shared cluster ...; hands off": a word shaped as
        // a control program no lexicon knows, with the plain word after it, is that program's
        // subcommand (`frobctl purge --cluster shared`), not every use of it.
        if let TokenKind::Word = token.kind
            && is_control_program(&token.lower)
            && let Some(next) = tokens.get(index + 1)
            && matches!(next.kind, TokenKind::Word)
            && next
                .lower
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch == '-')
            && next.class & COMMON_WORD == 0
        {
            let matcher = Matcher::new(
                MatcherKind::Command,
                format!("{} {}", token.lower, next.lower),
            );
            if !matchers.contains(&matcher) && matchers.len() < MAX_MATCHERS {
                matchers.push(matcher);
            }
            continue;
        }
        let names_the_tool = own_tool.contains('_')
            && (token.lower == own_tool.as_str() || token.lower == tool.as_str());
        let matcher = match &token.kind {
            _ if names_the_tool => match own_words(&tool) {
                Some(words) => Matcher::new(MatcherKind::Command, words.join(" ")),
                None => continue,
            },
            TokenKind::Entity(
                kind @ (MatcherKind::Email
                | MatcherKind::Domain
                | MatcherKind::Url
                | MatcherKind::Path
                | MatcherKind::Host
                | MatcherKind::Flag
                | MatcherKind::Literal),
                value,
            ) => Matcher::new(*kind, value.clone()),
            TokenKind::Entity(..) => continue,
            TokenKind::QuotedCommand(command) => {
                Matcher::new(MatcherKind::Command, command.clone())
            }
            TokenKind::Word
                if token.class & PROGRAM != 0
                    && token.class & (AMBIGUOUS_PROGRAM | COMMON_WORD) == 0 =>
            {
                Matcher::new(MatcherKind::Command, token.lower.clone().into_owned())
            }
            TokenKind::Word if is_id(token.text) => {
                Matcher::new(MatcherKind::Literal, token.lower.clone().into_owned())
            }
            TokenKind::Word => continue,
        };
        if !matchers.contains(&matcher)
            && Constraint::forbid(vec![matcher.clone()]).validate().is_ok()
        {
            matchers.push(matcher);
        }
        if matchers.len() == MAX_MATCHERS {
            break;
        }
    }
    // Things named by kind ("source files only after you've shown me the plan").
    for (kind, paths) in KIND_PATHS {
        if lower.contains(kind) {
            for path in *paths {
                let matcher = Matcher::new(MatcherKind::Path, *path);
                if !matchers.contains(&matcher) && matchers.len() < MAX_MATCHERS {
                    matchers.push(matcher);
                }
            }
        }
    }
    if matchers.is_empty() {
        return None;
    }
    let access = read_only.then_some(Access::Write);
    Some(
        Constraint::forbid(matchers)
            .with_ask_first(true)
            .with_access(access),
    )
}

/// Phrases that make a permission wait for the user ("only after I've signed off", "not
/// until you've shown me the plan"): an ask in other words.
const GATES: &[&str] = &[
    "not before i",
    "not before you",
    "not until",
    "only after",
    "only once i",
    "only once you",
    "only when i",
    "only with my",
];

/// Things a rule names by kind, with the paths a call of them carries.
const KIND_PATHS: &[(&str, &[&str])] = &[
    ("database migrations", &["migrations/"]),
    ("source code", &["lib/", "src/"]),
    ("source files", &["lib/", "src/"]),
];

/// Where a rule's text turns from one clause to the next: "You may edit tests freely; source
/// files only after the plan, and never `src/crypto/`".
const CLAUSE_TURNS: &[&str] = &[", and ", ", but ", "; ", ". ", " but "];

/// The clauses of a critical or high rule that its derived constraint leaves unread (issue
/// 21, sixth round): each clause that derives nothing alone but gives an order (a ban, an ask,
/// a permission that waits: "only after") and names something a call can carry is asked
/// about, beside what the rule derives. "You may edit tests and docs freely; source files only
/// after you've shown me the plan, and never the files under `src/crypto/`" derives the ban of
/// `src/crypto/`; an edit of `src/api/routes.ts` asks. Computed at build, as the fail-safe.
pub(crate) fn unread_clauses(text: &str, tool_name: &str) -> Vec<Constraint> {
    if text.len() > MAX_WHOLE_TEXT_BYTES {
        return Vec::new();
    }
    let mut clauses: Vec<&str> = vec![text];
    for turn in CLAUSE_TURNS {
        clauses = clauses
            .into_iter()
            .flat_map(|clause| clause.split(turn))
            .collect();
    }
    if clauses.len() < 2 {
        return Vec::new();
    }
    clauses
        .into_iter()
        .filter(|clause| super::derive_from_text(clause, tool_name).is_none())
        .filter_map(|clause| fallback_from_text(clause, tool_name))
        .collect()
}

/// Whether a word of prose is an id: letters and digits mixed, joined by `-`, `_` or `.`
/// (`OPS-2291`, `vm-ledger-07`, `i-0a1b2c3d`, `pr-1879-preview`).
fn is_id(word: &str) -> bool {
    word.chars().count() >= MIN_ID_CHARS
        && word.chars().any(|ch| ch.is_ascii_digit())
        && word.chars().any(|ch| ch.is_alphabetic())
        && word
            .chars()
            .all(|ch| ch.is_alphanumeric() || "-_.".contains(ch))
        && word.contains(['-', '_'])
}

/// Words that open an exception inside a clause: what follows them is let through ("never
/// `npm publish` unless it is a `--dry-run`"), so no span after them is the ban's.
const EXCEPTION_WORDS: &[&str] = &[
    " apart from ",
    " besides ",
    " but not ",
    " except",
    " other than ",
    " outside of ",
    " save for ",
    " unless ",
];

/// Words that say a literal after them does not narrow the ban ("no `pulumi destroy`, not
/// even with `--preview-only`"): a reading that joined that literal to the span's command
/// read the rule narrower than its words.
const EMPHASIS_WORDS: &[&str] = &["even with", "even if", "not even", "regardless", "whatever"];

/// The span fail-safe of a critical or high rule whose text derived `derived` (issue 21,
/// eighth round, S1/S2): a command of two words or more in a code span (or quoted) of a
/// clause that bans or asks, read as "a call that carries every token of it is asked about",
/// beside what the rule derives. So a call that evades the derived reading (another flag, a
/// reading that joined the span to a literal its words did not tie to it) is asked about
/// rather than allowed. Spans the reading deliberately narrowed keep its answer: a span that is
/// the scope of an object (`vault kv destroy` on the `secret/` path), of a requirement (a flag
/// required of it) or that the reading joined to a literal the words tie to it ("`git push`
/// with `--force`") adds nothing; the access, exceptions and conditions of the part that reads
/// the span's program are the fail-safe's too, and literals after an exception word in the
/// clause ("unless it is a `--dry-run`") are its exceptions. `None` when no span is left.
pub(crate) fn carried_spans(text: &str, derived: &Constraint) -> Option<Constraint> {
    // No code span and no quote: nothing to read, and most rules stop here.
    if !text.contains(['`', '"', '\'', '’']) {
        return None;
    }
    let text = text.replace('’', "'");
    if asks_about_a_rule(&text) {
        return None;
    }
    let read: Cow<'_, str> = if text.len() <= MAX_WHOLE_TEXT_BYTES {
        Cow::Borrowed(&text)
    } else {
        ordering_clauses(&text, gives_an_order, is_program)
    };
    let mut clauses: Vec<&str> = read.lines().collect();
    for turn in CLAUSE_TURNS {
        clauses = clauses
            .into_iter()
            .flat_map(|clause| clause.split(turn))
            .collect();
    }
    let parts: Vec<&Constraint> = std::iter::once(derived).chain(&derived.also).collect();
    let mut spans: Vec<Matcher> = Vec::new();
    let mut template: Option<Constraint> = None;
    for clause in clauses {
        let lower = clause.to_lowercase();
        let padded = format!(" {lower} ");
        // An offset of `lower` is one of `clause` only where lower-casing kept the lengths.
        let cut = EXCEPTION_WORDS
            .iter()
            .filter_map(|word| padded.find(word))
            .min()
            .filter(|&at| lower.len() == clause.len() && clause.is_char_boundary(at))
            .map_or(clause.len(), |at| at.min(clause.len()));
        let emphasis = EMPHASIS_WORDS.iter().any(|word| lower.contains(word));
        // The literals after the exception word: what the clause lets through.
        let (tail, lower_tail) = if cut < clause.len() {
            (&clause[cut..], &lower[cut..])
        } else {
            ("", "")
        };
        let excepted: Vec<Matcher> = tokenize(tail, lower_tail)
            .into_iter()
            .filter_map(|token| match token.kind {
                TokenKind::Entity(
                    kind @ (MatcherKind::Flag | MatcherKind::Path | MatcherKind::Host),
                    value,
                ) => Some(Matcher::new(kind, value)),
                TokenKind::QuotedCommand(command) => {
                    Some(Matcher::new(MatcherKind::Command, command))
                }
                _ => None,
            })
            .collect();
        let kept: Vec<&str> = ordered_pieces(&clause[..cut]);
        for token in kept.iter().flat_map(|piece| {
            let lower = piece.to_lowercase();
            tokenize(piece, &lower)
                .into_iter()
                .filter_map(|token| match token.kind {
                    TokenKind::QuotedCommand(command) => Some(command),
                    _ => None,
                })
                .collect::<Vec<String>>()
        }) {
            let command = &token;
            let words: Vec<&str> = command.split_whitespace().collect();
            if words.len() < 2 || !is_command_name(words[0]) {
                continue;
            }
            let loose: Vec<&str> = excepted
                .iter()
                .flat_map(|matcher| matcher.value.split_whitespace())
                .collect();
            let Some(part) = reading_of_span(&parts, &words, emphasis, &loose) else {
                continue;
            };
            let matcher = Matcher::new(MatcherKind::Command, command.clone());
            if spans.contains(&matcher) || spans.len() == MAX_MATCHERS {
                continue;
            }
            // The part that reads the span's program lends the fail-safe its narrowings; the
            // first such part decides them for every span, as one constraint holds one set.
            let lent = template.get_or_insert_with(|| {
                let mut ask = Constraint::forbid(Vec::new()).with_ask_first(true);
                if let Some(part) = part {
                    ask.access = part.access;
                    ask.except.clone_from(&part.except);
                    ask.when = part
                        .when
                        .iter()
                        .filter(|when| when.kind == MatcherKind::Condition)
                        .cloned()
                        .collect();
                }
                ask
            });
            for except in &excepted {
                if !lent.except.contains(except) {
                    lent.except.push(except.clone());
                }
            }
            spans.push(matcher);
        }
    }
    let mut ask = template?;
    ask.matchers = spans;
    (!ask.matchers.is_empty() && ask.validate().is_ok()).then_some(ask)
}

/// What the derived reading says of a span of `words` (program first): `None` when it
/// narrowed the span deliberately (the fail-safe adds nothing), else the part that reads the
/// span's program, if any (whose narrowings the fail-safe keeps).
fn reading_of_span<'a>(
    parts: &[&'a Constraint],
    words: &[&str],
    emphasis: bool,
    loose: &[&str],
) -> Option<Option<&'a Constraint>> {
    let program = words[0];
    let mut reads: Option<&Constraint> = None;
    for part in parts {
        let commands = |matchers: &'a [Matcher]| {
            matchers.iter().filter(|matcher| {
                matcher.kind == MatcherKind::Command
                    && matcher.value.split_whitespace().next() == Some(program)
            })
        };
        let in_when = commands(&part.when).next().is_some();
        let in_matchers: Vec<&Matcher> = commands(&part.matchers).collect();
        if !in_when && in_matchers.is_empty() {
            continue;
        }
        // A flag or a value required of the span, or an object it is the scope of ("`vault kv
        // destroy` on the `secret/` mount"): the reading narrowed the span on purpose.
        if part.polarity == crate::Polarity::Require
            || (in_when && in_matchers.is_empty() && !part.matchers.is_empty())
        {
            return None;
        }
        for matcher in &in_matchers {
            let tokens: Vec<&str> = matcher.value.split_whitespace().collect();
            let covers = words.iter().all(|word| tokens.contains(word));
            // The reading joined a literal to the span: the words tie it ("with `--force`")
            // unless they say it does not ("not even with") or let it through ("unless it
            // is a `--dry-run`").
            let joined_against_the_words = emphasis
                || tokens
                    .iter()
                    .filter(|token| !words.contains(token))
                    .all(|token| loose.contains(token));
            if covers && tokens.len() > words.len() && !joined_against_the_words {
                return None;
            }
            // The reading forbids the span itself: a call that carries it fires the reading.
            if covers
                && tokens.len() == words.len()
                && part.when.is_empty()
                && part.except.is_empty()
                && part.access.is_none()
            {
                return None;
            }
        }
        reads.get_or_insert(part);
    }
    Some(reads)
}

/// The pieces of a clause (split at ", ") that a ban or an ask is about: a piece with a cue of
/// one, and the pieces after it (a list: "never `a`, `b` or `c`"), but not a piece before
/// the cue ("Use `npm ci`, never `npm install`", "`uv add`, not `pip install`") nor one that
/// grants ("`kubectl get` is fine, `delete` is not").
fn ordered_pieces(clause: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut ordered = false;
    for piece in clause.split(", ") {
        let lower = piece.to_lowercase();
        let cues = Cues::of(&WordRuns::new(&lower));
        let orders = cues.forbid.is_some() || cues.ask.is_some();
        let grants = without_spans(&lower)
            .split(|ch: char| !ch.is_alphanumeric())
            .any(|word| PERMISSION_WORDS.binary_search(&word).is_ok());
        ordered |= orders;
        if ordered && (orders || !grants) {
            kept.push(piece);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::fallback_from_text;

    /// The fallback of `text` on `tool` in its JSON form (`None`: the rule stays advice).
    fn check(tool: &str, text: &str, expected: Option<&str>) {
        let fallback = fallback_from_text(text, tool).map(|constraint| constraint.to_json());
        assert_eq!(fallback.as_deref(), expected, "{tool}: {text}");
    }

    #[test]
    fn a_control_program_in_prose_is_asked_about_with_its_subcommand() {
        check(
            "bash",
            "Anything like frobctl purge on the shared cluster could wipe customer data; hands off.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"frobctl purge"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "bash",
            "Running quuxctl rebuild in business hours takes the API down. Leave that to me.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"quuxctl rebuild"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn a_ban_or_an_ask_asks_about_its_salient_literals() {
        check(
            "bash",
            "The `ledger-prod` cluster belongs to the finance SREs. Hands off.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"ledger-prod"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "jira",
            "Please keep your hands off ticket OPS-2291 - legal is reviewing it.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"ops-2291"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "bash",
            "Under no circumstances should anything reach 10.20.0.15 - that box is the HSM.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"host","value":"10.20.0.15"}],"polarity":"forbid"}"#,
            ),
        );
        check(
            "google_web_search",
            "Don't use `google_web_search` for error messages that contain hostnames.",
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"google web search"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn a_bare_item_is_a_ban_of_its_command() {
        let ban = |text: &str| super::bare_item_ban(text, "bash").map(|c| c.to_json());
        assert_eq!(
            ban("- `git reset --hard` (any form)").as_deref(),
            Some(
                r#"{"matchers":[{"kind":"command","value":"git reset --hard"}],"polarity":"forbid"}"#
            )
        );
        assert_eq!(
            ban("* `docker system prune`, including `-a`").as_deref(),
            Some(
                r#"{"matchers":[{"kind":"command","value":"docker system prune"}],"polarity":"forbid"}"#
            )
        );
        // A permission in an aside: the command is asked about.
        assert_eq!(
            ban("- `terraform destroy` (you may read the plan)").as_deref(),
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"command","value":"terraform destroy"}],"polarity":"forbid"}"#
            )
        );
        // A grant, an allowlist, an order the grammar reads, prose: no bare item.
        assert_eq!(ban("- `terraform plan` is fine"), None);
        assert_eq!(ban("`scp` only to `backup.lan`"), None);
        assert_eq!(ban("- never `git clean -x`"), None);
        assert_eq!(ban("Tests live in `tests/`."), None);
        assert_eq!(ban("`make test` runs the whole suite"), None);
        assert_eq!(ban("`pnpm` is our package manager"), None);
    }

    #[test]
    fn an_only_rule_about_a_program_excepts_its_conditions() {
        let only = |text: &str| super::only_the_program(text).map(|c| c.to_json());
        assert_eq!(
            only("Run `helmfile` only with `--interactive`.").as_deref(),
            Some(
                r#"{"ask_first":true,"except":[{"kind":"flag","value":"--interactive"}],"matchers":[{"kind":"command","value":"helmfile"}],"polarity":"forbid"}"#
            )
        );
        let az = only(
            "Only `az` commands that read (`show`, `list`) against subscription `payroll-prod`.",
        )
        .expect("a reading");
        assert!(
            az.contains(
                r#""except":[{"kind":"literal","value":"show"},{"kind":"literal","value":"list"}]"#
            ),
            "{az}"
        );
        assert!(az.contains(r#""also":[{"#), "{az}");
        let scp = only("`scp` only to `backup.lan`").expect("a reading");
        assert!(scp.contains(r#""kind":"domain","value":"*""#), "{scp}");
        // No program, or nothing but the program: no reading here.
        assert_eq!(only("Only deploy to `staging`."), None);
        assert_eq!(only("We only use `pnpm`."), None);
    }

    #[test]
    fn odd_text_reads_without_panicking() {
        for text in [
            "",
            "`",
            "- ``",
            "- `",
            "1.",
            "12) `x",
            "İİİ `ßcp` ONLY to `bäckup.lan`",
            "- `ǅ` (any form) İ including",
            "`a` only `b` only `c` only",
            "- piping `` into ``",
            "nothing but `` with ``",
            "\u{200b}- `rm` anywhere anywhere anywhere",
        ] {
            let _ = super::bare_item_ban(text, "bash");
            let _ = super::only_the_program(text);
            let _ = crate::derive::derive_from_text(text, "run_query");
        }
    }

    #[test]
    fn a_clause_the_derived_reading_leaves_asks_about_what_it_names() {
        let unread = |text: &str| {
            super::unread_clauses(text, "edit")
                .iter()
                .map(crate::Constraint::to_json)
                .collect::<Vec<_>>()
        };
        let source = unread(
            "You may edit tests and docs freely; source files only after you've shown me the \
             plan, and never the files under `src/crypto/`.",
        );
        assert_eq!(source.len(), 1, "{source:?}");
        assert!(source[0].contains(r#""ask_first":true"#) && source[0].contains(r#""src/""#));
        let migrations = unread(
            "Run the linters whenever you like; touch `migrations/` only after I've signed off, \
             and never edit anything in `vendor/`.",
        );
        assert!(
            migrations[0].contains(r#""value":"migrations/""#),
            "{migrations:?}"
        );
        // One clause, or clauses that each read or name nothing: nothing unread.
        assert!(unread("Never edit `vendor/`.").is_empty());
        assert!(unread("Never edit `vendor/`; it is generated.").is_empty());
    }

    #[test]
    fn read_only_asks_about_writes() {
        check(
            "bash",
            "`analytics-db` is read-only for you.",
            Some(
                r#"{"access":"write","ask_first":true,"matchers":[{"kind":"literal","value":"analytics-db"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn a_long_text_is_read_in_its_orders_only() {
        let padding =
            "The project is a web shop written in TypeScript with a Postgres database. ".repeat(6);
        check(
            "bash",
            &format!(
                "{padding}Tests live in `tests/` and run with `npm test`. Never touch `db-prod-1`."
            ),
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"db-prod-1"}],"polarity":"forbid"}"#,
            ),
        );
    }

    #[test]
    fn no_order_or_no_literal_stays_advice() {
        // No cue of a ban or an ask: a description.
        check(
            "bash",
            "The `ledger-prod` cluster belongs to finance.",
            None,
        );
        // An allowlist names what is allowed.
        check("bash", "Only deploy to `staging`.", None);
        // An order that names nothing a call could carry.
        check("send_email", "Don't email my landlord.", None);
        // A question about a rule is no order.
        check(
            "bash",
            "The README says never to run `./scripts/seed.sh` twice. Is that still true?",
            None,
        );
        // Short mixes of letters and digits are words, not ids.
        check("bash", "Never touch s3 or v2 without a reason.", None);
    }
}
