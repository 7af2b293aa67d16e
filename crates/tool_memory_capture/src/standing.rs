//! Standing rules without a marker, as instruction files state them: "Package management is
//! bun only", "the `legacy/` folder is off limits", "`run_query` is read-only", "Tests must pass
//! before you open a PR", "Use `bun` for scripts, not `npm`". They are statements about how
//! things are to be done, not orders, so the edict grammar (which opens on a marker) does not
//! see them. Capture reads them from the user's own text only, and (for the shapes a
//! description could also take) only when the sentence is about a tool: a program, a command,
//! a path or a family word ([`crate::route::has_need`]).
//!
//! The grammar reads [`crate::text::grammar_form`], where each code span is one word.

pub(crate) mod lexicon;

use self::lexicon::{
    BANS, BY_HAND, CODE_POLICIES, COLON_BANS, CONSEQUENCE_REFUSALS, DECLARED_NOT_VERBS,
    DECLARED_SETTINGS, EVENTS, GATE_PHRASES, GATES, JUDGEMENTS, NEGATION_SCOPES, NO_NOT_RULES,
    ONLY_MEANS, PASSIVE_ACTIONS, PASSIVE_AGENTS, PASSIVE_ORIGINS, PASSIVE_SCOPES, POLICY_SCOPES,
    POLICY_VERBS_IN_S, RECURRING_VERBS, SCOPE_OPENERS, SHAPE_LEADS, SPAN_QUALIFIERS,
    STATEMENT_ORDERS, STATES, SUBJECT_VERBS, UNWANTED,
};
use crate::lexicon::{
    COPULA, DONT_NOT_ORDER, FIRST_PERSON_WORD, GATE_OPENER, INTENSIFIER, NO_CODE_FACT,
    PERMITTING_WORD,
};
use crate::text::CODE_WORD;
use crate::tokens::{Token, is_at, matches_at, word_at};

/// How a markerless sentence reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Statement {
    /// A ban on a thing: "… is off limits", "… is forbidden", "… is read-only".
    Ban,
    /// An exclusive choice: "… is bun only", "Dependencies: vendored only", "helm upgrades
    /// only with `--atomic`". A description can take this shape ("it runs on Linux only"), so
    /// the sentence must be about a tool.
    Only,
    /// A requirement: "Tests must pass before you open a PR", "this file must never change".
    Must,
    /// An action kept for the user's approval: "Deploys need my OK first", "Publishing to npm
    /// requires my sign-off", "Merge only after I approve". About a tool only, like a choice.
    Gate,
    /// A permission with an exception, which bans the exception: "`Read` is fine except for
    /// `secrets/`", "Reading files is OK, except `.env`".
    Except,
    /// A judgement that bans: "`crontab -r` is never OK", "Merging to `main` is never
    /// acceptable". A description can take this shape ("the build is never fine on
    /// Mondays"), so the sentence must be about a tool.
    Judged,
    /// A ban or a choice in a short shape about a tool: "No class components", "Nobody runs
    /// `prisma migrate deploy` from a laptop", "Prefer `rg` over `grep`", "`pnpm add` instead
    /// of `npm install`", "Install deps with `npm ci` (not `npm install`)", "Use `uv` for
    /// everything", "Run `npm run check` after every change".
    Shaped,
    /// A ban stated as how things are ("In this project you don't run `docker`", "You never
    /// push to `main`") or as what the user does not want ("I don't want you running
    /// migrations", "The one thing I don't want is edits to `schema.prisma`"). About a tool
    /// only: "you never listen" is a complaint.
    Declared,
    /// A policy about a thing named in code, marker or not: a code span that opens the line
    /// or a part of it, and a policy word that governs it, right after it or as the line's
    /// predicate after a colon, a dash or an arrow (also a ban stated by its consequence:
    /// "Running `make reset-db` wipes the staging data, so don't", "`docker compose down -v`
    /// deletes the volumes — avoid it") ("`rsync` only to `backup-01`", "`kubectl
    /// drain` — never", "`git rebase -i` on shared branches — no", "`make test` ok, `make
    /// deploy` never", "`helm rollback` -> ask me").
    Coded,
    /// How a service's things are to be handled, said without a marker: "When you create
    /// Linear issues, assign them to Platform, not to Mobile" (a "when you <verb>" lead-in,
    /// then an order on what it made, with the alternative refused), "Mail for anyone at
    /// @regulator.example — not even a draft" (a thing, a dash, "not even" a lesser form of
    /// it). It names no program or file, so it stands when a tool of the catalogue does it.
    Service,
}

/// The markerless statement `form` (a [`grammar_form`](crate::text::grammar_form)) makes, if
/// any. A question is none.
#[cfg(test)]
pub(crate) fn statement(form: &str) -> Option<Statement> {
    statement_of(form, &crate::tokens::tokenize(form))
}

/// [`statement`] of `form` already tokenized.
pub(crate) fn statement_of(form: &str, tokens: &[Token<'_>]) -> Option<Statement> {
    let trimmed = form.trim_end_matches([' ', ')', '"', '\'', ']', '!', '.']);
    if trimmed.ends_with('?') {
        return None;
    }
    let first = tokens.iter().find(|token| token.word)?;
    // A ban of chat channels names no tool a family word would find, so it goes before the
    // statements that need one ("When you post the notes: nothing in #random"); it and the
    // next open with words that open remarks too.
    if nothing_in_channels(tokens) {
        return Some(Statement::Ban);
    }
    // "When …" and "you …" open remarks as rules, which the first-person test below turns
    // away.
    if when_you_then_choice(tokens) || you_do_not(tokens) {
        return Some(Statement::Service);
    }
    if first.is(FIRST_PERSON_WORD) || matches!(first.text, "in" | "here" | "the" | "what") {
        if is_declared(tokens) {
            return Some(Statement::Declared);
        }
        if first.is(FIRST_PERSON_WORD) {
            return None;
        }
    }
    if is_coded_policy(tokens)
        || consequence_ban(tokens)
        || span_subject_policy(tokens)
        || labelled_policy(tokens)
        || span_alternative(tokens)
        || but_first(tokens)
        || runs_everything(tokens)
    {
        return Some(Statement::Coded);
    }
    if is_ban(tokens) || passive_ban(tokens) || done_elsewhere(tokens) {
        return Some(Statement::Ban);
    }
    // "`tsc --noEmit`: type-checks only": what a command does, in which `only` modifies the
    // description, is no choice.
    if is_only(tokens) && !describes_code(tokens) {
        return Some(Statement::Only);
    }
    if is_must(tokens) {
        return Some(Statement::Must);
    }
    if (0..tokens.len()).any(|index| {
        is_at(tokens, index, GATE_OPENER)
            && GATE_PHRASES
                .iter()
                .any(|gate| matches_at(tokens, index, gate))
    }) {
        return Some(Statement::Gate);
    }
    if is_except(tokens) {
        return Some(Statement::Except);
    }
    if is_judged(tokens) {
        return Some(Statement::Judged);
    }
    if is_shaped(tokens) || by_hand(tokens) || is_topic_policy(tokens) || is_routed(tokens) {
        return Some(Statement::Shaped);
    }
    if on_request(tokens) || stops_to_ask(tokens) {
        return Some(Statement::Gate);
    }
    if not_even_after_dash(tokens) {
        return Some(Statement::Service);
    }
    None
}

/// "Purchase orders go through procurement: you draft them, you do not submit", "The
/// warehouse, you don't query it anymore with `psql`": "you do not / don't <verb>" that opens
/// the sentence or a clause after a mark states what the agent does not do, a ban. Not "you
/// don't need to …", "you don't know" ([`DONT_NOT_ORDER`]), nor "you never …" (a complaint as
/// often as a rule). Like every [`Statement::Service`], it stands only when a tool does it.
fn you_do_not(tokens: &[Token<'_>]) -> bool {
    (0..tokens.len()).any(|at| {
        // The list bit first: a string compare only for the few words in it.
        if !tokens[at].is(FIRST_PERSON_WORD)
            || tokens[at].text != "you"
            || (at > 0 && !matches!(tokens[at - 1].punct(), Some(',' | ';' | ':' | '—' | '–')))
        {
            return false;
        }
        let verb = match (word_at(tokens, at + 1), word_at(tokens, at + 2)) {
            (Some("don't" | "dont"), _) => at + 2,
            (Some("do"), Some("not")) => at + 3,
            _ => return false,
        };
        word_at(tokens, verb).is_some_and(|word| {
            !is_at(tokens, verb, DONT_NOT_ORDER)
                && !NOT_IMPERATIVE.contains(&word)
                && !word.ends_with("ing")
        })
    })
}

/// Words that open a subject which names one thing, not a kind: "The Q3 budget needs my
/// sign-off by Friday" is a remark about this week.
const ONE_THING: &[&str] = &[
    "her", "his", "its", "my", "our", "that", "the", "their", "these", "this", "those", "your",
];

/// Words that open a subject which names every thing of a kind in the singular: "Anything
/// addressed to @press.example needs my OK".
const EVERY_THING: &[&str] = &["any", "anything", "each", "every", "everything"];

/// Whether the gate ("… need my approval", "… requires my OK") is on a kind of thing, which
/// makes it standing: a plural subject ("Refunds above €200 need my approval", "DMs to Omar
/// need my OK first"), one of "any", "every", … ("Anything for @x.example needs my OK") or an
/// action's gerund ("Dropping a table needs my OK"), not one thing ("The Q3 budget needs my
/// sign-off by Friday").
pub(crate) fn gates_a_kind(tokens: &[Token<'_>]) -> bool {
    let Some(first) = tokens.iter().find(|token| token.word) else {
        return false;
    };
    if ONE_THING.contains(&first.text) {
        return false;
    }
    // "Dropping a table needs my OK": an action named by its gerund is every time it is done.
    if first.text.len() > 4 && first.text.ends_with("ing") {
        return true;
    }
    let Some(verb) = tokens
        .iter()
        .find(|token| matches!(token.text, "need" | "needs" | "require" | "requires"))
    else {
        return false;
    };
    match verb.text {
        "need" | "require" => true,
        _ => EVERY_THING.contains(&first.text),
    }
}

/// Words of a "when you …" lead-in that tell of one past or coming moment, not of each time:
/// "When you filed the ticket last week", "When you get a moment".
const ONE_TIME_LEADS: &[&str] = &[
    "chance", "did", "got", "had", "made", "minute", "moment", "said", "sec", "second", "sent",
    "took", "told", "was", "were",
];

/// Words a main clause's first word is not when it is an order: a subject or a determiner
/// ("When you filed it, it landed in the wrong project").
const NOT_IMPERATIVE: &[&str] = &[
    "a", "an", "he", "i", "it", "it's", "my", "she", "that", "the", "there", "they", "this", "we",
    "you", "your",
];

/// Tokens of a "when you <verb> …" lead-in, before its comma: a lead-in runs a few words.
const MAX_LEAD_TOKENS: usize = 10;

/// "When you file Jira tickets, put them in the `APP` project, never in `SEC`", "Whenever you
/// book rooms, pick the 4th floor, not the 2nd": a lead-in that says each time the agent does
/// something, then an order in the imperative that ends by refusing the alternative (", never
/// …", ", not …"). A lead-in of one moment ("When you get a moment, …", "When you filed the
/// ticket, …") and a main clause with a subject are no such rule; an order with a marker of
/// its own is the edict grammar's.
fn when_you_then_choice(tokens: &[Token<'_>]) -> bool {
    if !matches!(word_at(tokens, 0), Some("when" | "whenever")) || word_at(tokens, 1) != Some("you")
    {
        return false;
    }
    let Some(comma) = tokens
        .iter()
        .take(MAX_LEAD_TOKENS)
        .position(|token| token.punct() == Some(','))
    else {
        return false;
    };
    let lead = &tokens[2..comma];
    if lead.len() < 2
        || lead.iter().any(|token| {
            !token.word || ONE_TIME_LEADS.contains(&token.text) || token.text.ends_with("ed")
        })
    {
        return false;
    }
    if word_at(tokens, comma + 1).is_none_or(|verb| NOT_IMPERATIVE.contains(&verb)) {
        return false;
    }
    // The alternative refused, after a comma of the main clause.
    (comma + 2..tokens.len()).any(|at| {
        tokens[at - 1].punct() == Some(',')
            && matches!(word_at(tokens, at), Some("never" | "not"))
            && word_at(tokens, at + 1).is_some()
    })
}

/// Words that stand between a dash and "not even" or after it in a lesser form of a thing:
/// at most this many after "even" ("not even a quick draft").
const MAX_NOT_EVEN_WORDS: usize = 3;

/// "Mail for anyone at @regulator.example — not even a draft", "Posts in #legal: not even a
/// reaction": a thing, a dash or a colon for the copula, and "not even" a lesser form of it
/// bans the thing, the lesser form and all. The part before the dash holds no verb of its own
/// that a description would (a copula, "was", "had") nor a pronoun ("there", "it"), and after
/// "even" come a few words and the end of the sentence.
fn not_even_after_dash(tokens: &[Token<'_>]) -> bool {
    // "even" is a word of the don't-not-orders list: its bit rules out nearly every sentence.
    if !tokens
        .iter()
        .any(|token| token.is(DONT_NOT_ORDER) && token.text == "even")
    {
        return false;
    }
    let Some(dash) = tokens
        .iter()
        .position(|token| matches!(token.punct(), Some('—' | '–' | '-' | ':')))
    else {
        return false;
    };
    if dash < 2 || !matches_at(tokens, dash + 1, &["not", "even"]) {
        return false;
    }
    let before = &tokens[..dash];
    if before.iter().any(|token| {
        token.is(COPULA)
            || token.is(FIRST_PERSON_WORD)
            || matches!(token.text, "had" | "has" | "was" | "were")
    }) {
        return false;
    }
    let after = &tokens[dash + 3..];
    let words = after.iter().filter(|token| token.word).count();
    (1..=MAX_NOT_EVEN_WORDS).contains(&words)
        && after
            .iter()
            .all(|token| token.word || matches!(token.punct(), Some('.' | '!')))
}

/// "If a task seems to require `prod`, stop and ask", "… — stop and check with me": the
/// action is kept for the user's word, as a gate is.
fn stops_to_ask(tokens: &[Token<'_>]) -> bool {
    // It ends the clause ("…, stop and ask.", "…, stop and check with me."): only the last
    // words are read.
    let mut last = [""; 5];
    let mut count = 0;
    for token in tokens
        .iter()
        .rev()
        .filter(|token| token.word)
        .take(last.len())
    {
        last[count] = token.text;
        count += 1;
    }
    let last = &last[..count];
    (2..count).any(|at| {
        last[at] == "stop"
            && last[at - 1] == "and"
            && matches!(last[at - 2], "ask" | "check" | "confirm" | "wait")
    })
}

/// Words a subject of [`span_subject_policy`] may hold before its verb: "Golden files in
/// `golden/`", "Jobs like `a`, `b`", "Every `az` command".
const MAX_SPAN_SUBJECT: usize = 8;

/// Whether `word` is a verb after the subject of [`span_subject_policy`] (a `match`, which
/// compiles to a switch on the length: this runs for every word of a clause's subject).
fn is_subject_policy_verb(word: &str) -> bool {
    matches!(
        word,
        "is" | "are"
            | "runs"
            | "run"
            | "belong"
            | "belongs"
            | "needs"
            | "need"
            | "requires"
            | "require"
            | "stays"
            | "remain"
            | "remains"
            | "wird"
            | "werden"
    )
}

/// Words a sentence of [`span_subject_policy`] may hold at most.
const MAX_POLICY_WORDS: usize = 24;

/// A policy stated about a subject that names a thing in code, with no marker: the predicate
/// keeps it for someone or somewhere ("`X` is only allowed from CI", "`X` is not for agents",
/// "`X` commands are for the security team only", "`X` runs only against the local
/// database", "`X` is limited to the on-call engineer", "`X` is not something you run"),
/// bans it in the passive ("Golden files in `golden/` are never regenerated", "… are
/// immutable once merged"), requires an argument ("Every `az` command needs `--subscription
/// dev`"), or a last clause refuses it (", never from here", ", no edits"). Also "no more
/// `X`" and "nothing to `X`". A description of the same subject ("`X` is our build tool",
/// "`X` runs the tests") has none of these predicates.
fn span_subject_policy(tokens: &[Token<'_>]) -> bool {
    // Most clauses hold no code span in a subject before a verb of policy, nor open with
    // "no more" or "nothing": one look at the first words, before anything is collected.
    // A subject names its thing in code among its first tokens ("`X` is …", "Jobs like `a`",
    // "Golden files in `golden/`"); "no more `X`" and "nothing to `X`" open with their word.
    let opening = tokens.iter().find(|token| token.word).is_some_and(|token| {
        matches!(
            token.text,
            "no" | "nothing" | "still" | "and" | "but" | "so"
        )
    });
    if !opening
        && (!tokens.iter().take(6).any(|token| token.text == CODE_WORD)
            || !tokens
                .iter()
                .filter(|token| token.word)
                .take(MAX_SPAN_SUBJECT + 1)
                .any(|token| is_subject_policy_verb(token.text)))
    {
        return false;
    }
    // The words with their token indices, on the stack: these policies are short sentences.
    let mut buffer = [(0usize, ""); MAX_POLICY_WORDS];
    let mut count = 0;
    for (index, token) in tokens.iter().enumerate().filter(|(_, token)| token.word) {
        if count == MAX_POLICY_WORDS {
            return false;
        }
        buffer[count] = (index, token.text);
        count += 1;
    }
    let words = &buffer[..count];
    let word = |at: usize| words.get(at).map_or("", |(_, text)| *text);
    // "no more `pip install --user`", "(Still) nothing to `main` (though)".
    let lead = usize::from(matches!(word(0), "still" | "and" | "but" | "so"));
    // "Nothing in `dist/` is hand-written" describes: the span must end the clause.
    let ends_after = |at: usize| {
        words[at.min(words.len())..]
            .iter()
            .all(|(_, text)| matches!(*text, "though" | "either" | "yet" | "please" | "ever"))
    };
    if word(lead) == "no" && word(lead + 1) == "more" && word(lead + 2) == CODE_WORD
        || word(lead) == "nothing"
            && matches!(word(lead + 1), "to" | "on" | "in" | "into" | "from")
            && word(lead + 2) == CODE_WORD
            && ends_after(lead + 3)
    {
        return true;
    }
    // The subject: words up to a verb, one of them a code span.
    let Some(verb) = words
        .iter()
        .take(MAX_SPAN_SUBJECT + 1)
        .position(|(_, text)| is_subject_policy_verb(text))
    else {
        return false;
    };
    if verb == 0 || !words[..verb].iter().any(|(_, text)| *text == CODE_WORD) {
        return false;
    }
    // The subject is a noun phrase: no clause mark inside it.
    if tokens[..words[verb].0]
        .iter()
        .any(|token| matches!(token.punct(), Some('.' | ';' | ':' | '?' | '!')))
    {
        return false;
    }
    let mut at = verb + 1;
    while matches!(word(at), "always" | "strictly" | "also" | "currently") {
        at += 1;
    }
    let last = words.last().map_or("", |(_, text)| *text);
    let passive_ban = |word: &str| {
        word.len() > 4 && word.ends_with("ed")
            || matches!(
                word,
                "run" | "done" | "written" | "rewritten" | "made" | "redone"
            )
    };
    let predicate = match word(verb) {
        "is" | "are" | "stays" | "remain" | "remains" => match (word(at), word(at + 1)) {
            ("only", next) => {
                matches!(next, "allowed" | "permitted" | "for" | "to" | "against")
                    || ONLY_MEANS.contains(&next)
            }
            ("not", "for" | "something" | "allowed" | "permitted") => true,
            ("limited" | "restricted", "to") => true,
            ("never", next) => passive_ban(next),
            ("immutable" | "frozen" | "untouchable", _) => true,
            // "`x` is a no", "`x` is a no for you", "`x` is a no on the shared box": a
            // refusal as a noun, with its scope.
            ("a", "no") => matches!(
                word(at + 2),
                "" | "for"
                    | "here"
                    | "from"
                    | "on"
                    | "in"
                    | "at"
                    | "during"
                    | "outside"
                    | "anywhere"
            ),
            // "`wp-config.php` stays as it is", "`.env` remains untouched".
            ("as", "it" | "is") | ("untouched" | "unchanged" | "as-is", _) => {
                matches!(word(verb), "stays" | "remain" | "remains")
            }
            // "`main` stays push-free", "`prod` remains deploy-free": kept free of an action.
            (free, _) if free.len() > 5 && free.ends_with("-free") => {
                matches!(word(verb), "stays" | "remain" | "remains")
            }
            ("for", _) => last == "only",
            _ => false,
        },
        // "`vendor/` wird nie direkt bearbeitet": the German passive ban.
        "wird" | "werden" => matches!(word(at), "nie" | "niemals"),
        "runs" | "run" => {
            word(at) == "only" && (ONLY_MEANS.contains(&word(at + 1)) || word(at + 1) == "against")
        }
        "needs" | "need" | "requires" | "require" => {
            words[..verb]
                .iter()
                .any(|(_, text)| matches!(*text, "every" | "each" | "all"))
                && word(at) == CODE_WORD
        }
        _ => false,
    };
    predicate || refused_at_the_end(tokens, words[verb].0)
}

/// Whether the last clause of `tokens` (after a comma past `from`) refuses what the sentence
/// is about: ", never from here", ", never by hand", ", no edits".
fn refused_at_the_end(tokens: &[Token<'_>], from: usize) -> bool {
    let Some(comma) = tokens[from..]
        .iter()
        .rposition(|token| token.punct() == Some(','))
    else {
        return false;
    };
    let mut rest = tokens[from + comma + 1..]
        .iter()
        .filter(|token| token.word)
        .map(|token| token.text);
    let (first, second) = (rest.next(), rest.next());
    let more = rest.count();
    match (first, second) {
        (Some("never" | "no"), None) => true,
        (Some("never"), Some(scope)) => POLICY_SCOPES.contains(&scope) && more <= 2,
        (Some("no"), Some(object)) => {
            more == 0
                && matches!(
                    object,
                    "edits" | "changes" | "writes" | "exceptions" | "touching" | "modifications"
                )
        }
        _ => false,
    }
}

/// Words a topic of [`is_topic_policy`] or a subject of [`is_routed`] may hold at most: a
/// noun phrase ("Production database", "Infra changes"), not a sentence.
const MAX_TOPIC_WORDS: usize = 4;

/// A policy about a topic named in prose before a colon, a dash or `=`: "Production database:
/// hands off", "CSS: Tailwind only", "The billing cluster — read-only", "Infra changes = a PR
/// to `infra-live`". The predicate is a policy of [`CODE_POLICIES`] ([`policy_at`]), a choice
/// of at most three words that ends in `only`, or after `=` an article and what it stands
/// for. "Styling: we moved from Sass last year" states a fact.
fn is_topic_policy(tokens: &[Token<'_>]) -> bool {
    let Some(separator) = tokens
        .iter()
        .take(MAX_TOPIC_WORDS + 1)
        .position(|token| matches!(token.punct(), Some(':' | '—' | '–' | '=')))
    else {
        return false;
    };
    if separator == 0
        || !tokens[..separator]
            .iter()
            .all(|token| token.word && token.text != CODE_WORD && !token.is(FIRST_PERSON_WORD))
    {
        return false;
    }
    let at = separator + 1;
    if policy_at(tokens, at) {
        return true;
    }
    if tokens[separator].punct() == Some('=') {
        return matches!(word_at(tokens, at), Some("a" | "an"));
    }
    // "Tailwind only", "vendored deps only": the choice ends the clause.
    let words: Vec<&str> = tokens[at..]
        .iter()
        .take_while(|token| token.word)
        .map(|token| token.text)
        .collect();
    (2..=4).contains(&words.len())
        && words.last() == Some(&"only")
        && tokens[at + words.len()..].iter().all(|token| !token.word)
}

/// A thing's route stated as policy, about a tool: "Reindexing goes through
/// `scripts/reindex.sh`", "Migrations go out with the release pipeline", "Ports 5432 and 6379
/// belong to the docker stack", "Bugs there get a ticket, not a patch". The subject is a short
/// noun phrase, not a pronoun ("it goes through the proxy" describes).
fn is_routed(tokens: &[Token<'_>]) -> bool {
    let Some(first) = tokens.first() else {
        return false;
    };
    if !first.word || first.is(FIRST_PERSON_WORD) {
        return false;
    }
    let Some(verb) = tokens
        .iter()
        .take(MAX_TOPIC_WORDS + 1)
        // A route's verb opens with `b`, `g` or `s`: one byte rules out most words.
        .position(|token| {
            matches!(token.text.as_bytes().first(), Some(b'b' | b'g' | b's'))
                && ROUTE_VERBS.contains(&token.text)
        })
    else {
        return false;
    };
    if verb == 0 || !tokens[..verb].iter().all(|token| token.word) {
        return false;
    }
    let next = word_at(tokens, verb + 1);
    match tokens[verb].text {
        "go" | "goes" => {
            matches!(next, Some("through" | "via"))
                || (next == Some("out")
                    && matches!(word_at(tokens, verb + 2), Some("with" | "through" | "via")))
        }
        "ship" | "ships" => matches!(next, Some("with" | "through" | "via")),
        // "Ports 5432 and 6379 belong to the docker stack" reserves them for a tool;
        // "`pricing/` belongs to Dana's team" says who owns a thing.
        "belong" | "belongs" => {
            next == Some("to")
                && tokens[verb + 2..]
                    .iter()
                    .any(|token| token.text == CODE_WORD || crate::route::has_need(token.text))
        }
        // "X get(s) Y, not Z": a contrast says the choice.
        _ => (verb + 2..tokens.len())
            .any(|at| tokens[at].punct() == Some(',') && word_at(tokens, at + 1) == Some("not")),
    }
}

/// The verbs of [`is_routed`].
const ROUTE_VERBS: &[&str] = &[
    "belong", "belongs", "get", "gets", "go", "goes", "ship", "ships",
];

/// An action kept for the user's request: "Run tests only when requested", "Write access to
/// `infra/` only on request", "only if I ask".
fn on_request(tokens: &[Token<'_>]) -> bool {
    (0..tokens.len()).any(|at| {
        word_at(tokens, at) == Some("only")
            && match word_at(tokens, at + 1) {
                Some("on") => matches!(word_at(tokens, at + 2), Some("request" | "demand")),
                Some("when" | "if" | "once") => match word_at(tokens, at + 2) {
                    Some("asked" | "requested" | "told" | "instructed") => true,
                    Some("i") => matches!(
                        word_at(tokens, at + 3),
                        Some("ask" | "say" | "request" | "tell")
                    ),
                    _ => false,
                },
                _ => false,
            }
    })
}

/// Whether `token` separates a code span from the line's predicate: a colon, a dash, an arrow,
/// a table bar or a question mark ("`docker system prune`? not here").
fn is_separator(token: &Token<'_>) -> bool {
    matches!(
        token.punct(),
        Some(':' | '—' | '–' | '-' | '>' | '→' | '|' | '=' | '?')
    )
}

/// How many tokens a list of code spans that is one subject may take ("`a`, `b` and `c`" is
/// six): the walk over a list starts at each span of it, so the bound keeps a line of
/// thousands of spans linear.
const MAX_SPAN_LIST: usize = 12;

/// [`Statement::Coded`]: some code span that opens the clause or a part of it (after `,`, `;`,
/// `:`, `(`) is governed by a policy. A clause holds no code span far more often than one, so
/// the search for a span is the whole cost of most clauses.
fn is_coded_policy(tokens: &[Token<'_>]) -> bool {
    (0..tokens.len()).any(|start| {
        tokens[start].text == CODE_WORD
            && (start == 0 || matches!(tokens[start - 1].punct(), Some(',' | ';' | ':' | '(')))
            && governed_span(tokens, start)
    })
}

/// Whether the code spans from `start` on are governed by a policy: right after them
/// (separators allowed between), or after a qualifier that opens with a preposition and a
/// separator ("`psql` against prod | read-only").
fn governed_span(tokens: &[Token<'_>], start: usize) -> bool {
    // A list of spans is one subject: "`db:drop`, `db:reset` never".
    let mut at = start + 1;
    while at < start + MAX_SPAN_LIST
        && tokens.get(at).is_some_and(|token| {
            token.text == CODE_WORD
                || matches!(token.text, "and" | "or")
                || token.punct() == Some(',')
        })
    {
        at += 1;
    }
    let skip = |mut at: usize| {
        while tokens.get(at).is_some_and(is_separator) {
            at += 1;
        }
        at
    };
    if policy_at(tokens, skip(at)) {
        return true;
    }
    // A qualifier of at most five words, then a separator and the predicate.
    if !word_at(tokens, at).is_some_and(|word| SPAN_QUALIFIERS.contains(&word)) {
        return false;
    }
    let Some(separator) = (at + 1..tokens.len().min(at + 7))
        .find(|&index| is_separator(&tokens[index]) && tokens[index].punct() != Some('-'))
        .or_else(|| {
            (at + 1..tokens.len().min(at + 7)).find(|&index| {
                tokens[index].punct() == Some('-') && tokens[index - 1].end < tokens[index].start
            })
        })
    else {
        return false;
    };
    tokens[at..separator]
        .iter()
        .all(|token| token.word && token.text != CODE_WORD)
        && policy_at(tokens, skip(separator))
}

/// Whether a policy of [`CODE_POLICIES`] stands at `index` as a predicate: nothing after it
/// but punctuation, or a word of [`POLICY_SCOPES`] (for `only`, `not` and `no`, which also
/// modify descriptions, right after it; for the others, also a comma's aside).
fn policy_at(tokens: &[Token<'_>], index: usize) -> bool {
    let Some(first) = word_at(tokens, index) else {
        return false;
    };
    // The first word is compared before the phrase is walked: most spans are followed by a
    // word that opens no policy, and a phrase walk for each of the list cost 28,000
    // instructions a turn on the bench's instruction file.
    CODE_POLICIES.iter().any(|policy| {
        if policy[0] != first || !matches_at(tokens, index + 1, &policy[1..]) {
            return false;
        }
        let after = index + policy.len();
        match tokens.get(after) {
            None => true,
            Some(next) if !next.word => true,
            // "`.env` not in git", "`rg` not on PATH" state where a thing is; "not here",
            // "not without asking me" govern it.
            // "`foo.py` not here anymore" reports a change, not a policy.
            Some(next) if matches!(policy, [only] if matches!(*only, "not" | "no")) => {
                NEGATION_SCOPES.contains(&next.text)
                    && !matches!(
                        word_at(tokens, after + 1),
                        Some("anymore" | "any" | "since")
                    )
            }
            Some(next) => POLICY_SCOPES.contains(&next.text),
        }
    })
}

/// A thing in code, what it does, and another to use instead: "`KEYS *` blocks the server on
/// prod; use `SCAN`", "`npm i` rewrites the lockfile — use `npm ci` instead".
fn span_alternative(tokens: &[Token<'_>]) -> bool {
    if word_at(tokens, 0) != Some(CODE_WORD) {
        return false;
    }
    (2..tokens.len()).any(|at| {
        matches!(tokens[at].punct(), Some(';' | '—' | '–'))
            && matches!(word_at(tokens, at + 1), Some("use" | "prefer"))
            && word_at(tokens, at + 2) == Some(CODE_WORD)
            && tokens[1..at].iter().any(|token| token.word)
    })
}

/// A permission with a condition before it: "Deploying to `qa` is fine once CI is green, but
/// run `terraform plan` first": ", but" and an imperative ending in "first", about a thing in
/// code.
fn but_first(tokens: &[Token<'_>]) -> bool {
    const GATES: &[&str] = &[
        "ask", "check", "confirm", "get", "ping", "run", "tell", "use",
    ];
    let Some(last) = tokens.iter().rposition(|token| token.word) else {
        return false;
    };
    tokens[last].text == "first"
        && (1..last).any(|at| {
            tokens[at].punct() == Some(',')
                && word_at(tokens, at + 1) == Some("but")
                && word_at(tokens, at + 2).is_some_and(|verb| GATES.contains(&verb))
        })
        && tokens.iter().any(|token| token.text == CODE_WORD)
}

/// A runner for every command: "bundle exec everything", "`uv run` everything", "poetry run
/// all of it".
fn runs_everything(tokens: &[Token<'_>]) -> bool {
    let mut words = tokens
        .iter()
        .filter(|token| token.word)
        .map(|token| token.text);
    let (first, second, third) = (words.next(), words.next(), words.next());
    let everything = |word: Option<&str>| matches!(word, Some("everything"));
    match (first, second, third) {
        (Some(CODE_WORD), word, None) => everything(word),
        (Some(program), Some("run" | "exec"), word) => {
            program != CODE_WORD && everything(word) && words.next().is_none()
        }
        _ => false,
    }
}

/// A policy that labels the code spans after it: "read-only: `docs/legal/**`", "off-limits:
/// `infra/`, `secrets/`", "never: `git push --force`". Only spans follow the colon (lists of
/// them included), so "Forbidden: see the wiki" states nothing.
fn labelled_policy(tokens: &[Token<'_>]) -> bool {
    // A colon among the first four tokens before the policy list is walked: few clauses hold one.
    if !tokens
        .iter()
        .take(4)
        .any(|token| token.punct() == Some(':'))
    {
        return false;
    }
    let Some(first) = word_at(tokens, 0) else {
        return false;
    };
    let Some(policy) = CODE_POLICIES
        .iter()
        .find(|policy| policy[0] == first && matches_at(tokens, 1, &policy[1..]))
    else {
        return false;
    };
    if tokens.get(policy.len()).and_then(Token::punct) != Some(':') {
        return false;
    }
    let rest = &tokens[policy.len() + 1..];
    rest.iter().any(|token| token.text == CODE_WORD)
        && rest.iter().all(|token| {
            token.text == CODE_WORD
                || matches!(token.text, "and" | "or")
                || matches!(token.punct(), Some(',' | '.' | ';'))
        })
}

/// A ban stated by its consequence: a clause that names a thing in code, says what it does,
/// and ends in a bare refusal after a comma, a semicolon or a dash ("…, so don't", "…; please
/// don't", "… — avoid it"): the refusal points back at what the clause named.
fn consequence_ban(tokens: &[Token<'_>]) -> bool {
    let Some(mut last) = tokens.iter().rposition(|token| token.word) else {
        return false;
    };
    // "…; don't, even on dev": an aside after the refusal widens it (read only for a clause
    // holding "even", "ever" or "including", which few do).
    if tokens
        .iter()
        .any(|token| matches!(token.text, "even" | "ever" | "including"))
        && let Some(comma) = tokens[..last]
            .iter()
            .rposition(|token| token.punct() == Some(','))
        && matches!(
            word_at(tokens, comma + 1),
            Some("even" | "ever" | "including")
        )
        && let Some(before) = tokens[..comma].iter().rposition(|token| token.word)
    {
        last = before;
    }
    // Most clauses end in no refusal's last word: the gate before any phrase is read.
    if !matches!(
        tokens[last].text,
        "don't" | "not" | "it" | "that" | "never" | "forbidden" | "banned" | "allowed" | "first"
    ) {
        return false;
    }
    let words = tokens.iter().filter(|token| token.word).count();
    let refusal = CONSEQUENCE_REFUSALS.iter().find(|refusal| {
        last + 1 >= refusal.len() && matches_at(tokens, last + 1 - refusal.len(), refusal)
    });
    let Some(refusal) = refusal else {
        return false;
    };
    let mut at = last + 1 - refusal.len();
    while matches!(
        word_at(tokens, at.wrapping_sub(1)),
        Some("so" | "please" | "just")
    ) {
        at -= 1;
    }
    words > refusal.len() + 2
        && at > 0
        && matches!(
            tokens[at - 1].punct(),
            Some(',' | ';' | '—' | '–' | '-' | '→' | '>')
        )
        && tokens[..at].iter().any(|token| token.text == CODE_WORD)
}

/// Whether the clause describes a code span: it opens with one and, perhaps after a
/// separator, a verb in the third person that is no policy ("`npm ci` installs …", "`docker
/// compose up` — brings up postgres only").
fn describes_code(tokens: &[Token<'_>]) -> bool {
    if word_at(tokens, 0) != Some(CODE_WORD) {
        return false;
    }
    let mut at = 1;
    while tokens.get(at).is_some_and(is_separator) {
        at += 1;
    }
    word_at(tokens, at).is_some_and(|verb| {
        verb.len() > 3
            && verb.ends_with('s')
            && !verb.ends_with("ss")
            && !POLICY_VERBS_IN_S.contains(&verb)
    })
}

/// ", never by hand", "not manually" after a comma: how a thing is not to be changed.
fn by_hand(tokens: &[Token<'_>]) -> bool {
    (1..tokens.len()).any(|index| {
        tokens[index - 1].punct() == Some(',')
            && BY_HAND
                .iter()
                .any(|phrase| matches_at(tokens, index, phrase))
    })
}

/// The short shapes of [`Statement::Shaped`], read from the first word and a few phrases.
fn is_shaped(tokens: &[Token<'_>]) -> bool {
    let Some(first) = tokens.iter().position(|token| token.word) else {
        return false;
    };
    if let Some(scoped) = after_scope(tokens, first) {
        // "On weekends no deploys", "After 20:00 nothing that writes to the warehouse": a
        // time or a condition before a ban keeps it standing, scope and all.
        return match (word_at(tokens, scoped), word_at(tokens, scoped + 1)) {
            (Some("no"), Some(next)) => {
                !NO_NOT_RULES.contains(&next) && !matches!(next, "one" | "longer")
            }
            (Some("nothing"), Some("that" | "which")) => {
                word_at(tokens, scoped + 2).is_some_and(|verb| {
                    verb.ends_with('s') && !POLICY_VERBS_IN_S.contains(&verb) && verb != "was"
                })
            }
            _ => false,
        };
    }
    // "Also no deploys on Fridays", "Still no deletes": a word that joins the ban to what came
    // before it.
    let first = if word_at(tokens, first).is_some_and(|lead| SHAPE_LEADS.contains(&lead))
        && matches!(word_at(tokens, first + 1), Some("no" | "nobody"))
    {
        first + 1
    } else {
        first
    };
    let word = |offset: usize| word_at(tokens, first + offset);
    match word(0) {
        // "No class components", not "No idea why", "No tests were run".
        Some("no") if word(1) == Some("one") => {
            word(2).is_some_and(|verb| verb.ends_with('s') && verb != "knows")
        }
        Some("no") => {
            word(1).is_some_and(|next| !NO_NOT_RULES.contains(&next))
                && !tokens.iter().any(|token| token.is(NO_CODE_FACT))
        }
        // "Nobody runs `x` from a laptop", "No one pushes to `main`".
        Some("nobody") => word(1).is_some_and(|verb| verb.ends_with('s') && verb != "knows"),
        // "Prefer `rg` over `grep`", "Prefer `git switch` to `git checkout`".
        // A tool chosen by name: "Prefer CTEs over subqueries" is a style of code.
        Some("prefer") => {
            (first + 2..tokens.len()).any(|at| matches!(word_at(tokens, at), Some("over" | "to")))
                && tokens
                    .iter()
                    .any(|token| token.text == crate::text::CODE_WORD)
        }
        // "Lint is run by the pre-commit hook on every commit", "Build runs on every push":
        // the verb's word is the subject of a statement of what a system does, no order,
        // unless the statement says it must be so ("Review is required for every merge").
        Some(verb)
            if RECURRING_VERBS.contains(&verb)
                && (word_at(tokens, first + 1)
                    .is_none_or(|next| !SUBJECT_VERBS.contains(&next))
                    || tokens[first + 1..]
                        .iter()
                        .any(|token| token.word && STATEMENT_ORDERS.contains(&token.text))) =>
        {
            // "Install deps with `npm ci` (not `npm install`)", "Use `uv` for everything".
            let bracketed_not = (first..tokens.len()).any(|at| {
                tokens[at].punct() == Some('(') && word_at(tokens, at + 1) == Some("not")
            });
            let everything = verb == "use"
                && (first + 2..tokens.len())
                    .any(|at| matches!(word_at(tokens, at), Some("everything" | "all")));
            // "Run `npm run check` after every change", "Sign off every commit".
            let recurring = (first + 1..tokens.len()).any(|at| {
                matches!(word_at(tokens, at), Some("every" | "each"))
                    && word_at(tokens, at + 1).is_some_and(|noun| EVENTS.contains(&noun))
            });
            bracketed_not || everything || recurring
        }
        Some(crate::text::CODE_WORD) => {
            // "`pnpm add <pkg>` instead of `npm install <pkg>`": a command chosen over another.
            (first + 1..tokens.len())
                .any(|at| matches_at(tokens, at, &["instead", "of", crate::text::CODE_WORD]))
                || commands_then(tokens, first)
        }
        _ => false,
    }
}

/// Where the words after a scope that opens the clause start: a preposition of time or
/// condition and at most five tokens, perhaps a comma ("On weekends", "After 20:00",
/// "During the release freeze,"). `None` when the clause opens otherwise.
fn after_scope(tokens: &[Token<'_>], first: usize) -> Option<usize> {
    if !word_at(tokens, first).is_some_and(|word| SCOPE_OPENERS.contains(&word)) {
        return None;
    }
    // "After 20:00": a time's colon is part of the scope; any other mark ends the search.
    let time_mark = |at: usize| {
        tokens[at].punct() == Some(':')
            && tokens[at - 1].end == tokens[at].start
            && tokens[at - 1]
                .text
                .bytes()
                .all(|byte| byte.is_ascii_digit())
    };
    let end = tokens.len().min(first + 8);
    for (at, token) in tokens.iter().enumerate().take(end).skip(first + 2) {
        match token.punct() {
            Some(',') => return Some(at + 1),
            Some(_) if time_mark(at) => {}
            Some(_) => return None,
            None if matches!(token.text, "no" | "nothing") => return Some(at),
            None => {}
        }
    }
    None
}

/// A list of code spans that is the whole subject of what follows it: "`terraform fmt` and
/// `terraform validate` before you hand anything back" (commands to run at a moment),
/// "`db:drop`, `db:reset` and `db:schema:load`: don't." (commands named, then banned).
fn commands_then(tokens: &[Token<'_>], first: usize) -> bool {
    let mut at = first;
    while tokens.get(at).is_some_and(|token| {
        token.text == crate::text::CODE_WORD
            || matches!(token.text, "and" | "or" | "then")
            || token.punct() == Some(',')
    }) {
        at += 1;
    }
    match word_at(tokens, at) {
        // A moment of the work: "before you …", "before every commit", "after each change".
        Some("before" | "after") => word_at(tokens, at + 1).is_some_and(|next| {
            matches!(
                next,
                "you" | "every" | "each" | "any" | "a" | "handing" | "committing"
            ) || next.ends_with("ing")
        }),
        None if tokens.get(at).and_then(Token::punct) == Some(':') => {
            let ban = match (word_at(tokens, at + 1), word_at(tokens, at + 2)) {
                (Some("don't" | "dont" | "never" | "forbidden" | "banned" | "no"), _) => 2,
                (Some("do" | "not"), Some("not" | "allowed")) => 3,
                _ => return false,
            };
            // Nothing after the ban but "ever" or punctuation.
            tokens[at + ban..]
                .iter()
                .all(|token| !token.word || token.text == "ever")
        }
        _ => false,
    }
}

/// "X is never OK", "X is not acceptable": a copula, perhaps an intensifier, a judgement.
fn is_judged(tokens: &[Token<'_>]) -> bool {
    (1..tokens.len()).any(|index| {
        if !is_at(tokens, index, COPULA) {
            return false;
        }
        let mut at = index + 1;
        while is_at(tokens, at, INTENSIFIER) {
            at += 1;
        }
        JUDGEMENTS
            .iter()
            .any(|judgement| matches_at(tokens, at, judgement))
    })
}

/// A ban declared rather than ordered ([`Statement::Declared`]): after a setting of place
/// ("In this project", "Here"), "you never / don't / do not" and a verb; "I don't want you
/// (to) …"; "I don't want any …"; "(the one) thing I don't want is …", "what I don't want
/// is …".
fn is_declared(tokens: &[Token<'_>]) -> bool {
    let mut index = DECLARED_SETTINGS
        .iter()
        .find(|setting| matches_at(tokens, 0, setting))
        .map_or(0, |setting| setting.len());
    if tokens.get(index).and_then(Token::punct) == Some(',') {
        index += 1;
    }
    let word = |offset: usize| word_at(tokens, index + offset);
    let negation = match (word(0), word(1), word(2)) {
        (Some("you"), Some("never" | "don't" | "dont"), _) => Some(index + 2),
        (Some("you"), Some("do"), Some("not")) => Some(index + 3),
        _ => None,
    };
    if let Some(verb) = negation {
        return word_at(tokens, verb).is_some_and(|verb| {
            !DECLARED_NOT_VERBS.contains(&verb) && !verb.ends_with("ed") && !verb.ends_with("ing")
        });
    }
    // "I don't want you running …", "I don't want any new dependencies".
    let want = match (word(0), word(1), word(2)) {
        (Some("i"), Some("don't" | "dont" | "never"), Some("want")) => Some(index + 3),
        (Some("i"), Some("do"), Some("not")) if word(3) == Some("want") => Some(index + 4),
        _ => None,
    };
    if let Some(after) = want {
        return matches!(
            word_at(tokens, after),
            Some("you" | "any" | "anyone" | "anybody" | "agents" | "the")
        );
    }
    // "The one thing I don't want is …", "What I don't want is …".
    (0..tokens.len().min(6)).any(|at| UNWANTED.iter().any(|phrase| matches_at(tokens, at, phrase)))
}

/// "X is fine except Y", "X is OK, except Y": a permission (a copula and a permitting word)
/// followed, in the same sentence, by "except" or "but not".
fn is_except(tokens: &[Token<'_>]) -> bool {
    let Some(permit) = (1..tokens.len())
        .find(|&index| is_at(tokens, index, COPULA) && is_at(tokens, index + 1, PERMITTING_WORD))
    else {
        return false;
    };
    (permit + 2..tokens.len()).any(|index| {
        word_at(tokens, index) == Some("except")
            || (matches_at(tokens, index, &["but", "not"]) && index > permit + 2)
            // A contrast: "`vercel` is fine for previews; `vercel --prod` is not", "Reading
            // the logs is OK, restarting the pods is not": a later part with a copula and
            // "not" and nothing after; not a lead-in of a list ("Some commands are fine, some
            // are not:"), whose items say which.
            || (is_at(tokens, index, COPULA)
                && tokens.last().and_then(Token::punct) != Some(':')
                && word_at(tokens, index + 1) == Some("not")
                && !tokens[index + 2..].iter().any(|token| token.word)
                && tokens[permit + 2..index]
                    .iter()
                    .any(|token| matches!(token.punct(), Some(',' | ';'))))
    })
}

/// Words the subject of [`done_elsewhere`] may hold before its verb.
const MAX_ELSEWHERE_SUBJECT: usize = 8;

/// An action said to happen elsewhere and refused here: "Applying migrations to `SQLPROD01`
/// happens in the release pipeline, never from a terminal here", "Deleting buckets is done in
/// Terraform, never from a shell". The subject is an action (a gerund), the verb says where
/// it happens, and the last part refuses the agent's origin ([`PASSIVE_ORIGINS`]).
fn done_elsewhere(tokens: &[Token<'_>]) -> bool {
    // Nearly every clause opens with no gerund: its first token is read before anything else.
    if !tokens.first().is_some_and(|first| {
        first.word && first.text.len() > 4 && first.text.as_bytes().ends_with(b"ing")
    }) {
        return false;
    }
    let words = tokens
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, token)| token.word);
    let Some((verb, _)) = words.take(MAX_ELSEWHERE_SUBJECT).find(|(at, token)| {
        matches!(token.text, "happens" | "happen" | "goes" | "go")
            || token.text == "is" && word_at(tokens, at + 1) == Some("done")
    }) else {
        return false;
    };
    let Some(comma) = tokens[verb..]
        .iter()
        .rposition(|token| token.punct() == Some(','))
    else {
        return false;
    };
    let mut rest = tokens[verb + comma + 1..]
        .iter()
        .filter(|token| token.word)
        .map(|token| token.text);
    matches!(rest.next(), Some("never" | "not")) && rest.next() == Some("from") && {
        let rest: Vec<&str> = rest.collect();
        rest.len() <= 4 && rest.iter().any(|word| PASSIVE_ORIGINS.contains(word))
    }
}

/// Words a clause may hold after a negated passive's participle for [`passive_ban`] to read.
const MAX_PASSIVE_TAIL: usize = 12;

/// A ban in the passive or impersonal voice: a copula, `not` or `never` (or `not to be`) and
/// the participle of something an agent does ([`PASSIVE_ACTIONS`]), kept from the agent by
/// what surrounds it: the duty of `not to be` ("Sidekiq queues are not to be cleared"), a
/// thing named in code in the subject or after it ("`prisma migrate reset` is not run",
/// "Plugins are not updated from the CLI (`wp plugin update`)"), the agent as the doer ("…
/// is not changed by you"), an origin that is the agent's ("from a terminal here"), a scope
/// ("ever", "without a ticket", "against either cluster") or the alternative that is allowed
/// (", only archived"). "Tests are run by CI" has no negation; "Errors are never logged" no
/// action of the agent's; "The cache is not cleared between runs" none of the rest: they
/// describe.
fn passive_ban(tokens: &[Token<'_>]) -> bool {
    // A copula is one bit of each token: only after one are words compared.
    (1..tokens.len()).any(|index| {
        if !(tokens[index].is(COPULA)
            && matches!(tokens[index].text, "is" | "are")
            && matches!(word_at(tokens, index + 1), Some("not" | "never")))
        {
            return false;
        }
        // A condition or a reason describes what happens ("if tests are not run, …").
        let clause_start = tokens[..index]
            .iter()
            .rposition(|token| matches!(token.punct(), Some('.' | ';' | ':' | '!' | '?' | ',')))
            .map_or(0, |at| at + 1);
        if matches!(
            word_at(tokens, clause_start),
            Some("if" | "when" | "whether" | "because" | "since" | "although" | "unless" | "once")
        ) {
            return false;
        }
        let mut at = index + 1;
        let duty = match (
            word_at(tokens, at),
            word_at(tokens, at + 1),
            word_at(tokens, at + 2),
        ) {
            (Some("not" | "never"), Some("to"), Some("be")) => {
                at += 3;
                true
            }
            (Some("not" | "never"), _, _) => {
                at += 1;
                false
            }
            _ => return false,
        };
        // "is not, ever, run" is rare; "is never ever run" is not.
        while matches!(word_at(tokens, at), Some("ever" | "to" | "be")) {
            at += 1;
        }
        if !word_at(tokens, at).is_some_and(|word| PASSIVE_ACTIONS.contains(&word)) {
            return false;
        }
        if duty
            || tokens[clause_start..index]
                .iter()
                .any(|token| token.text == CODE_WORD)
        {
            return true;
        }
        let tail = &tokens[at + 1..];
        let tail = &tail[..tail
            .iter()
            .position(|token| matches!(token.punct(), Some('.' | ';' | '!' | '?')))
            .unwrap_or(tail.len())];
        let tail_word = |offset: usize| word_at(tail, offset);
        tail.iter()
            .take(MAX_PASSIVE_TAIL)
            .enumerate()
            .any(|(offset, token)| {
                if !token.word {
                    return false;
                }
                match token.text {
                    CODE_WORD => true,
                    "from" => tail[offset + 1..]
                        .iter()
                        .filter(|token| token.word)
                        .take(3)
                        .any(|token| PASSIVE_ORIGINS.contains(&token.text)),
                    "by" => {
                        tail_word(offset + 1).is_some_and(|next| PASSIVE_AGENTS.contains(&next))
                            || matches!(tail_word(offset + 1), Some("the" | "an" | "any"))
                                && tail_word(offset + 2)
                                    .is_some_and(|next| PASSIVE_AGENTS.contains(&next))
                    }
                    // ", only archived": the allowed alternative.
                    "only" => offset > 0 && tail[offset - 1].punct() == Some(','),
                    word => PASSIVE_SCOPES.contains(&word),
                }
            })
    })
}

/// Words a bare "nothing in #channel" may end with: they insist or ask, and add no verb
/// that would make it a description ("Nothing in #alerts looked urgent").
const NOTHING_TAILS: &[&str] = &["again", "either", "ever", "please", "thanks", "today"];

/// "nothing in #sales or #all-hands", "When you post the notes: nothing in #random": a bare
/// "nothing in / to / on" and a list of chat channels (`#name`), alone in its clause (the
/// sentence's or the part after a colon or a dash), bans posting there. A verb after the
/// channels makes it a description ("Nothing in #alerts looked urgent this morning"), and so
/// does a subject before it ("There was nothing in #oncall").
fn nothing_in_channels(tokens: &[Token<'_>]) -> bool {
    // A channel takes a `#`, which few sentences hold.
    if !tokens.iter().any(|token| token.punct() == Some('#')) {
        return false;
    }
    let Some(start) = tokens.iter().position(|token| token.text == "nothing") else {
        return false;
    };
    let opens = start == 0
        || (start >= 2 && matches!(tokens[start - 1].punct(), Some(':' | '—' | '–' | '-')));
    if !opens
        || !matches!(
            word_at(tokens, start + 1),
            Some("in" | "to" | "on" | "into")
        )
    {
        return false;
    }
    let mut at = start + 2;
    let mut channels = 0;
    loop {
        // A channel is a `#` right against its name.
        let channel = tokens
            .get(at)
            .is_some_and(|token| token.punct() == Some('#'))
            && tokens
                .get(at + 1)
                .is_some_and(|name| name.word && name.start == tokens[at].end);
        if !channel {
            break;
        }
        channels += 1;
        at += 2;
        match tokens.get(at) {
            Some(token)
                if token.punct() == Some(',') || matches!(token.text, "or" | "and" | "nor") =>
            {
                // "#a, or #b": a comma and a conjunction join the list once.
                at += 1;
                if matches!(word_at(tokens, at), Some("or" | "and" | "nor")) {
                    at += 1;
                }
            }
            _ => break,
        }
    }
    if channels == 0 {
        return false;
    }
    // What may follow the list: a comma, a word that insists or asks, end marks.
    tokens[at.min(tokens.len())..]
        .iter()
        .all(|token| match token.punct() {
            Some(mark) => matches!(mark, ',' | '.' | '!'),
            None => NOTHING_TAILS.contains(&token.text),
        })
}

fn is_ban(tokens: &[Token<'_>]) -> bool {
    // "Forbidden: `npm publish`, `git push --tags`": a lead-in of bans with its items on the
    // same line.
    let colon_early = tokens
        .iter()
        .take(3)
        .any(|token| token.punct() == Some(':'));
    let inline_list = colon_early
        && COLON_BANS.iter().any(|ban| {
            matches_at(tokens, 0, ban)
                && tokens.get(ban.len()).and_then(Token::punct) == Some(':')
                && tokens[ban.len() + 1..].iter().any(|token| token.word)
        });
    inline_list
        || is_gated(tokens)
        || (0..tokens.len()).any(|index| {
            // "Version bumps go through `cargo release` — off limits for agents": a dash stands
            // for the copula.
            let dash = index > 1
                && tokens[index - 1]
                    .text
                    .chars()
                    .all(|ch| matches!(ch, '—' | '–' | '-'))
                && !tokens[index - 1].word;
            if dash && BANS.iter().any(|ban| matches_at(tokens, index, ban)) {
                return true;
            }
            if !is_at(tokens, index, COPULA) || index == 0 {
                return false;
            }
            let mut at = index + 1;
            while is_at(tokens, at, INTENSIFIER) {
                at += 1;
            }
            // "The `main` branch is protected and read-only for you": the ban may be the
            // second of two.
            BANS.iter().any(|ban| matches_at(tokens, at, ban))
                || (word_at(tokens, at + 1) == Some("and")
                    && BANS.iter().any(|ban| matches_at(tokens, at + 2, ban)))
        })
}

/// A command kept from the agent: "`docker push` is reserved for CI", "`bq rm` needs my OK
/// first". Only about a code span that opens the sentence, since rooms and slots are reserved
/// too.
fn is_gated(tokens: &[Token<'_>]) -> bool {
    if word_at(tokens, 0) != Some(CODE_WORD) {
        return false;
    }
    (1..tokens.len()).any(|index| GATES.iter().any(|gate| matches_at(tokens, index, gate)))
}

fn is_only(tokens: &[Token<'_>]) -> bool {
    tokens.iter().enumerate().any(|(index, token)| {
        if !token.word || token.text != "only" || index == 0 {
            return false;
        }
        // The word before must be the thing chosen, not "not only" or "the only".
        let before = match tokens[index - 1] {
            Token {
                word: true, text, ..
            } => text,
            _ => return false,
        };
        if matches!(
            before,
            "not" | "the" | "an" | "a" | "my" | "our" | "your" | "is" | "are" | "if" | "and"
        ) {
            return false;
        }
        match tokens.get(index + 1) {
            // "… is bun only.", "Tailwind only, no CSS modules", "`composer install` only"
            None => true,
            Some(next) if !next.word => true,
            Some(next) => ONLY_MEANS.contains(&next.text),
        }
    })
}

fn is_must(tokens: &[Token<'_>]) -> bool {
    let words = tokens
        .iter()
        .filter(|token| token.word)
        .map(|token| token.text);
    let Some(index) = words
        .clone()
        .position(|word| matches!(word, "must" | "mustn't"))
    else {
        return false;
    };
    // A subject of at least one word before it: "Tests must pass", "All commits must be signed".
    if index == 0 {
        return false;
    }
    // "Redis, which must be listening on 6379": a relative clause describes.
    if words
        .clone()
        .nth(index - 1)
        .is_some_and(|before| matches!(before, "which" | "that" | "who"))
    {
        return false;
    }
    let mut after = words.skip(index + 1);
    // "must have failed", "must be the cache": a guess, not a requirement; "Docker must be
    // running": a state the environment needs, not an order to the agent.
    match after.next() {
        None => false,
        Some("have" | "'ve") => false,
        Some("be") => !after.next().is_some_and(|word| {
            matches!(word, "the" | "a" | "an" | "it" | "that" | "why") || STATES.contains(&word)
        }),
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::grammar_form;

    fn read(text: &str) -> Option<Statement> {
        statement(&grammar_form(text))
    }

    #[test]
    fn a_negated_passive_of_the_agents_work_bans() {
        for rule in [
            "Charts are deployed by Argo CD, so `helm install` and `helm upgrade` are not run against either cluster.",
            "`prisma migrate reset` is not run, ever",
            "The file `appsettings.Production.json` is not changed by you.",
            "Contacts in HubSpot are never deleted, only archived.",
            "Plugins are not updated from the CLI (`wp plugin update`)",
            "RLS policies are not edited without a ticket",
            "Sidekiq queues in production are not to be cleared",
            "task instances are never cleared or marked success by you",
            "Applying migrations to `SQLPROD01` happens in the release pipeline, never from a terminal here",
            "`wp-config.php` stays as it is.",
            "`main` stays push-free.",
            "`x` is a no",
            "`docker compose down -v` is a no on the shared box.",
            "Restarting `nginx` needs a thumbs up from the lead",
        ] {
            assert!(read(rule).is_some(), "{rule}");
        }
        for description in [
            "Tests are run by CI on every push.",
            "Migrations are applied by the pipeline.",
            "Errors are never logged.",
            "The cache is not cleared between runs.",
            "If tests are not run against staging, the deploy fails.",
            "Logs are never deleted from the server by the rotation job.",
            "Deploying happens in the pipeline.",
            "`parser.rs` is allocation-free.",
        ] {
            assert_eq!(read(description), None, "{description}");
        }
    }

    #[test]
    fn a_policy_may_label_the_spans_after_it() {
        for rule in [
            "read-only: `docs/legal/**`",
            "off-limits: `infra/`, `secrets/`",
            "Never: `git push --force` or `git reset --hard`.",
        ] {
            assert_eq!(read(rule), Some(Statement::Coded), "{rule}");
        }
        for not_rule in [
            "Forbidden: see the wiki for `deploy`.",
            "read-only: yes",
            "Only: `a` builds the docs",
        ] {
            assert_ne!(read(not_rule), Some(Statement::Coded), "{not_rule}");
        }
    }

    #[test]
    fn policies_about_a_code_span_subject() {
        for rule in [
            "`helm upgrade` is only allowed from CI.",
            "`docker push` is not for agents.",
            "`terraform apply` is done by the pipeline on merge, never from here.",
            "Tasks like `db:seed`, `db:reset` are only for `RAILS_ENV=test`.",
            "`flyway migrate` runs only against the local database.",
            "`kubectl drain` is limited to the on-call engineer.",
            "`aws iam` commands are for the security team only.",
            "`git push --force` is not something you run.",
            "Every `az` command needs `--subscription dev`.",
            "Golden files in `golden/` are never regenerated by the agent.",
            "Migration files in `db/migrations/` are immutable once merged.",
            "`a.json` and `b.json` belong to the platform team, no edits.",
            "no more `pip install --user`.",
            "Still nothing to `main` though.",
            "If a task seems to require `prod`, stop and ask.",
            "Pushing always needs my explicit go-ahead.",
        ] {
            assert!(read(rule).is_some(), "{rule}");
        }
        for fact in [
            "`just` is our build tool.",
            "`tox` runs the tests.",
            "`ruff` is the linter we use.",
            "`deploy.yml` is the pipeline definition.",
            "`make` is only needed once.",
            "Nothing in `dist/` is hand-written.",
            "`pnpm` runs the workspace scripts, including the tests.",
        ] {
            assert_eq!(read(fact), None, "{fact}");
        }
    }

    #[test]
    fn topics_routes_and_requests_as_policy() {
        for rule in [
            "Production database: hands off.",
            "CSS: Tailwind only.",
            "The billing cluster — read-only.",
            "Infra changes = a PR to `infra-live`.",
            "Reindexing goes through `scripts/reindex.sh`",
            "Migrations go out with the release pipeline, full stop.",
            "Ports 5432 and 6379 belong to the docker stack",
            "Bugs there get a ticket, not a patch.",
            "Run tests only when requested.",
            "Write access to `infra/` only on request.",
        ] {
            assert!(read(rule).is_some(), "{rule}");
        }
        for fact in [
            "Styling: we moved from Sass to CSS modules last year.",
            "Status: all green on main.",
            "It goes through the proxy.",
            "`pricing/` belongs to Dana's team.",
            "Logs go to `/var/log/app`.",
            "Tests only run when the label is set.",
            "We get a lot of tickets.",
        ] {
            assert_eq!(read(fact), None, "{fact}");
        }
    }

    #[test]
    fn gated_commands_and_dashed_bans() {
        assert_eq!(
            read("`npm publish` is reserved for the release job."),
            Some(Statement::Ban)
        );
        assert_eq!(
            read("`kubectl drain` needs my sign-off"),
            Some(Statement::Ban)
        );
        assert_eq!(
            read("The `vendor/` tree — off limits to agents."),
            Some(Statement::Ban)
        );
        // Reserved rooms and a need that is not a gate are not bans.
        assert_eq!(read("The big room is reserved for the offsite."), None);
        assert_eq!(read("`make lint` needs Node 20."), None);
        assert_eq!(read("The lockfile - is it current?"), None);
    }

    #[test]
    fn bans_choices_and_requirements() {
        assert_eq!(
            read("The `legacy/` folder is off limits."),
            Some(Statement::Ban)
        );
        assert_eq!(
            read("`.env` files are strictly off-limits"),
            Some(Statement::Ban)
        );
        assert_eq!(
            read("`run_query` is read-only: SELECT statements alone."),
            Some(Statement::Ban)
        );
        assert_eq!(
            read("Package management is bun only."),
            Some(Statement::Only)
        );
        assert_eq!(read("Dependencies: vendored only."), Some(Statement::Only));
        assert_eq!(
            read("helm upgrades only with `--atomic`."),
            Some(Statement::Only)
        );
        assert_eq!(
            read("Tests must pass before you open a PR."),
            Some(Statement::Must)
        );
    }

    #[test]
    fn policies_about_what_a_line_names_in_code() {
        for text in [
            "`rsync` only to `backup-01`",
            "`pip install` only inside the venv",
            "`kubectl drain` — never, on any cluster",
            "`git gc --prune=now`: never.",
            "`terraform import` no",
            "`git rebase -i` on shared branches — no.",
            "`psql` against prod: read-only",
            "`helm rollback` -> ask me",
            "`gh release create` with my approval",
            "`migrations/`: frozen",
            "`prod.tfstate` immutable",
            "`package-lock.json` — never by hand",
            "`curl | sh` tabu",
            "`git push --force` verboten",
            "`rm -rf` interdit",
            "`make test` ok, `make deploy` never.",
            "`db:drop`, `db:reset` never",
            "`git tag` — not without asking me",
        ] {
            assert_eq!(read(text), Some(Statement::Coded), "{text}");
        }
    }

    #[test]
    fn bans_stated_by_consequence_or_under_a_scope() {
        for text in [
            "Running `make reset-db` wipes the staging data, so don't.",
            "If you run `redis-cli FLUSHALL` the cache is rebuilt for hours; please don't.",
            "`docker compose down -v` deletes the volumes — avoid it.",
        ] {
            assert_eq!(read(text), Some(Statement::Coded), "{text}");
        }
        for text in [
            "On weekends no deploys.",
            "After 20:00 nothing that writes to the warehouse.",
        ] {
            assert_eq!(read(text), Some(Statement::Shaped), "{text}");
        }
        for text in [
            "Running `make test` takes about ten minutes, so be patient.",
            "`make clean` deletes the build folder, which is expected.",
            "On weekends nobody is on call.",
            "On weekends no one is on call.",
            "During the release freeze we merged nothing.",
            "After lunch no idea what happened.",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    #[test]
    fn a_policy_word_in_a_description_of_code_is_no_rule() {
        for text in [
            "`npm ci` installs only what the lockfile names",
            "`make` with no target prints the help",
            "`tsc --noEmit`: type-checks only, no output files",
            "`docker compose up` — brings up postgres only",
            "`logs/` — immutable audit trail written by the daemon",
            "`cron` never runs on weekends",
            "`git push` only pushes the current branch here",
            "`scripts/release.sh` asks me for the version number",
            "`kubectl get pods` lists pods; no changes are made",
            "`make` not found on the runner",
            "`node_modules/` not in git",
            "`rg` not on PATH, use grep",
            "`make lint` — no output means it passed",
            "`git status`: not much to see",
            "`foo.py` not here anymore, it moved to `bar/`",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    #[test]
    fn descriptions_guesses_and_questions_are_not_rules() {
        for text in [
            "I only use vim.",
            "It must be the cache.",
            "The build must have failed.",
            "Is the `legacy/` folder off limits?",
            "Not only the tests but the docs too.",
            "This is the only way.",
            "There must be a bug.",
            "Smoking is not allowed?",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }
}
