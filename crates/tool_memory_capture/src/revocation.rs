//! The revocation grammar: sentences in which the user lifts an earlier edict ("you can email
//! Sarah again", "forget the rule about sudo", "lift the ban on calendar invites").
//!
//! Two families. A **permission** grants back an action ("you can …", "it's fine to …", "feel
//! free to …", "you're allowed to …"); the modal forms need a lift signal (`again`, `now`,
//! `anymore`, `go back to`, …) because "you can email Sarah the report" is a request to act, not
//! a change of rules. A **retraction** names the rule itself ("forget / ignore / scratch / never
//! mind / lift the rule / ban / restriction about X", "disregard what I said about X", "I changed
//! my mind about X", "the X rule no longer applies"). Both yield the words the user named about
//! the rule (the subject), which [`crate::revocation_matches`] compares with stored rules.
//!
//! As with edicts, precision matters more than recall: a false revocation silently deletes a
//! rule the user asked for. So questions, negations ("you can't"), hedges and conditions ("if
//! you can use sudo again"), reported speech, one-off permissions ("just this once") and
//! limited ones ("but only after review") are not revocations.

pub(crate) mod lexicon;

use std::ops::Range;

use self::lexicon::{
    ADVERBS, AND_BREAKS, BANNED, CHANGED_MIND, DETERMINERS, FILLERS, HEDGES, LIFT_PHRASES,
    MULTI_FILLERS, NOT_PERMISSIONS, NOT_TOPICS, ONE_OFF, QUALIFIERS, RETIRED_ENDINGS,
    RETRACT_GERUNDS, RETRACT_LEADS, RETRACT_VERBS, RULE_NOUNS, SAID_TIMES, SAID_VERBS,
    TOPIC_PREPOSITIONS,
};
pub(crate) use self::lexicon::{GENERIC_VERBS, NEGATIONS, SUBJECT_STOP_WORDS};
use crate::lexicon::{REVOCATION_TRIGGER, SPEECH};
use crate::material::{Span, Voice, quotations, unquoted_form};
use crate::output::{MAX_EDICT_CHARS, RevocationKind};
use crate::text::truncate_chars;
use crate::tokens::{
    Token, all_sets, contains_phrase, is_question, matches_at, phrase_at, tokenize, word_at,
};

/// One revocation found in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Revocation<'a> {
    /// The sentence as written, trimmed, without list bullet, at most [`MAX_EDICT_CHARS`].
    pub(crate) text: &'a str,
    /// Permission or retraction.
    pub(crate) kind: RevocationKind,
    /// The significant words the user named about the rule, lower-cased, in order.
    pub(crate) subject: Vec<String>,
    /// The part of the match form that names the action or topic, for tool attribution.
    pub(crate) scope: String,
    /// The action a retraction grants back in the same sentence ("I'm lifting the invoice
    /// rule: you may void invoices again"): its subject words and its part of the match
    /// form. Capture lifts by it instead of the topic when the topic only names the tool.
    pub(crate) grant: Option<(Vec<String>, String)>,
}

/// The revocation in `sentence` of the user's own `span`, if any, given `form` (the sentence's
/// [`match_form`](crate::text::match_form)) and what [`find_tokens`] found in it. Material never lifts a rule, and
/// neither does a sentence that is a revocation only through the words it quotes (`"Hi, you
/// can call the vendor again."`). `quotes` holds the span's quotations once found (most spans
/// need none).
pub(crate) fn revocation_of<'a>(
    span: &Span<'a>,
    sentence: &'a str,
    form: &str,
    found: Found,
    quotes: &mut Option<Vec<Range<usize>>>,
) -> Option<Revocation<'a>> {
    debug_assert_eq!(span.voice, Voice::Own);
    let quotes = quotes.get_or_insert_with(|| quotations(span.text));
    let quoted_only = unquoted_form(span.text, quotes, sentence)
        .is_some_and(|unquoted| find(&unquoted).is_none());
    (!quoted_only).then(|| Revocation {
        text: truncate_chars(sentence, MAX_EDICT_CHARS),
        kind: found.kind,
        subject: found.subject,
        scope: form[found.scope].to_owned(),
        grant: found
            .grant
            .map(|(subject, scope)| (subject, form[scope].to_owned())),
    })
}

/// `form` with the revocation it holds (marker to end of object) blanked out, so the edict
/// grammar only sees the clauses around it.
pub(crate) fn blank_revocation(form: &str) -> String {
    match find(form) {
        Some(found) => blanked(form, &found),
        None => form.to_owned(),
    }
}

/// `form` with `found` (what [`find`] found in it) blanked out.
pub(crate) fn blanked(form: &str, found: &Found) -> String {
    let mut blanked = String::with_capacity(form.len());
    blanked.push_str(&form[..found.span.start]);
    blanked.extend(form[found.span.clone()].chars().map(|_| ' '));
    blanked.push_str(&form[found.span.end..]);
    blanked
}

/// What [`find`] reports about one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    kind: RevocationKind,
    subject: Vec<String>,
    /// Byte range of the action or topic in the form.
    scope: Range<usize>,
    /// Byte range from the marker to the end of the object.
    span: Range<usize>,
    /// A retraction's action granted back in a later clause: its subject words and the byte
    /// range of the action in the form.
    grant: Option<(Vec<String>, Range<usize>)>,
    /// Whether the sentence also states the narrower rule that replaces the lifted one ("the
    /// deploy ban is only for `prod` now", "… again, but only drafts I created"): it is then
    /// an edict too, with the whole sentence as its text.
    pub(crate) narrows: bool,
}

/// A parsed revocation in token indices.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Parse {
    kind: RevocationKind,
    /// The action (permission, starting with its verb) or topic (retraction).
    object: Range<usize>,
    /// Whether the first word of `object` is the permitted verb, left out of the subject.
    drop_verb: bool,
    /// Whether the form needs a lift signal ("again", "now", …) in the sentence.
    needs_lift: bool,
    /// Whether the form itself narrows the rule ("the X ban is only for Y").
    narrows: bool,
}

/// The revocation in one sentence (in [`match_form`](crate::text::match_form)), if any. At most one per sentence; a
/// sentence with a disqualifying hedge, condition or limit is none at all.
fn find(form: &str) -> Option<Found> {
    find_tokens(form, &tokenize(form))
}

/// [`find`] of `form` already tokenized.
pub(crate) fn find_tokens(form: &str, tokens: &[Token<'_>]) -> Option<Found> {
    // Most sentences of an instruction file hold none of the words every revocation needs.
    if !all_sets(tokens).any(REVOCATION_TRIGGER) || is_question(form) {
        return None;
    }
    find_in(form, tokens)
}

/// [`find`] on the sentence's tokens, without its cheap test first.
fn find_in(form: &str, tokens: &[Token<'_>]) -> Option<Found> {
    for start in 0..tokens.len() {
        if !clause_start(tokens, form, start) {
            continue;
        }
        let marker = skip_fillers(tokens, start);
        let parse = retraction_at(tokens, marker)
            .or_else(|| permission_at(tokens, marker))
            .or_else(|| subject_first_at(tokens, marker));
        let Some(mut parse) = parse else {
            continue;
        };
        // "My rule about never using the shell" describes a ban on an action; lifting it is
        // the permission "you can use the shell again", with the same, narrower reach.
        if parse.kind == RevocationKind::Retraction {
            let negations = tokens[parse.object.clone()]
                .iter()
                .take_while(|token| token.word && NEGATIONS.contains(&token.text))
                .count();
            if negations > 0 && parse.object.start + negations < parse.object.end {
                parse.kind = RevocationKind::Permission;
                parse.object.start += negations;
                parse.drop_verb = true;
            }
        }
        if hedged(&tokens[..start])
            || limited(tokens, marker, parse.object.end)
            || one_off(tokens)
            || (parse.needs_lift && !lifted(tokens))
        {
            return None;
        }
        let subject = subject_words(&tokens[parse.object.clone()], parse.drop_verb);
        if subject.is_empty() && parse.kind == RevocationKind::Retraction {
            // "Forget what I said about that": nothing to match a rule with.
            return None;
        }
        let scope_start = tokens[parse.object.start].start;
        let scope_end = tokens[parse.object.end - 1].end;
        let granted = match parse.kind {
            RevocationKind::Retraction => granted_after(tokens, parse.object.end),
            RevocationKind::Permission => None,
        };
        let object_end = granted
            .as_ref()
            .map_or(parse.object.end, |grant| grant.object.end);
        let grant = granted.and_then(|grant| {
            let words = subject_words(&tokens[grant.object.clone()], grant.drop_verb);
            (!words.is_empty()).then(|| {
                let range = tokens[grant.object.start].start..tokens[grant.object.end - 1].end;
                (words, range)
            })
        });
        return Some(Found {
            kind: parse.kind,
            subject,
            scope: scope_start..scope_end,
            span: tokens[start].start..tokens[object_end - 1].end,
            narrows: parse.narrows || narrowed_after(tokens, object_end),
            grant,
        });
    }
    None
}

fn clause_start(tokens: &[Token<'_>], form: &str, index: usize) -> bool {
    if index == 0 {
        return true;
    }
    let previous = tokens[index - 1];
    if previous.word {
        return matches!(previous.text, "and" | "but" | "so" | "then" | "plus");
    }
    match previous.text {
        "," | ";" | ":" | "(" | "—" | "–" | "…" | "[" => true,
        // A spaced dash starts a clause; the one in "--force" does not.
        "-" => form[previous.end..].starts_with(' '),
        _ => false,
    }
}

/// Skips conversational lead-ins: "ok", "good news:", "on second thought", "please".
fn skip_fillers(tokens: &[Token<'_>], mut index: usize) -> usize {
    loop {
        if let Some(len) = phrase_at(tokens, index, MULTI_FILLERS) {
            index += len;
            continue;
        }
        match word_at(tokens, index) {
            Some(word) if FILLERS.contains(&word) => index += 1,
            _ => return index,
        }
    }
}

// Retractions ------------------------------------------------------------------------------

fn retraction_at(tokens: &[Token<'_>], index: usize) -> Option<Parse> {
    // "I changed my mind about emailing Sarah."
    if let Some(len) = phrase_at(tokens, index, CHANGED_MIND) {
        let after = index + len;
        if word_at(tokens, after).is_some_and(|word| TOPIC_PREPOSITIONS.contains(&word)) {
            return topic_from(tokens, after + 1);
        }
        return None;
    }
    if let Some(parse) = retired_rule_at(tokens, index).or_else(|| narrowed_rule_at(tokens, index))
    {
        return Some(parse);
    }
    let mut verb = index;
    if let Some(len) = phrase_at(tokens, index, &[&["i'm"], &["i", "am"]]) {
        let gerund = phrase_at(tokens, index + len, RETRACT_GERUNDS)?;
        return rule_object(tokens, index + len + gerund);
    }
    if let Some(len) = phrase_at(tokens, index, RETRACT_LEADS) {
        verb = index + len;
    }
    // "Please forget …" and "just ignore …": a lead-in is optional.
    if let Some(len) = phrase_at(tokens, verb, RETRACT_VERBS) {
        return rule_object(tokens, verb + len);
    }
    let len = phrase_at(tokens, index, RETRACT_VERBS)?;
    rule_object(tokens, index + len)
}

/// The object of a retraction verb: "the rule about X", "my earlier ban on X", "the X rule",
/// "what I said about X". A bare object ("forget about it", "ignore the error") is none.
fn rule_object(tokens: &[Token<'_>], mut index: usize) -> Option<Parse> {
    if word_at(tokens, index) == Some("about") {
        index += 1;
    }
    // "what I said (earlier) about X".
    let what = match (word_at(tokens, index), word_at(tokens, index + 1)) {
        (Some("what" | "everything" | "anything" | "whatever"), _) => Some(index + 1),
        (Some("the"), Some("thing" | "stuff" | "things")) => Some(index + 2),
        (Some("all"), Some("that")) => Some(index + 2),
        _ => None,
    };
    if let Some(mut at) = what {
        if word_at(tokens, at) == Some("that") {
            at += 1;
        }
        if !matches!(word_at(tokens, at), Some("i" | "i've" | "i'd")) {
            return None;
        }
        at += 1;
        while matches!(
            word_at(tokens, at),
            Some("just" | "ever" | "already" | "have" | "had")
        ) {
            at += 1;
        }
        if !word_at(tokens, at).is_some_and(|word| SAID_VERBS.contains(&word)) {
            return None;
        }
        at += 1;
        let limit = at + 4;
        while at < limit && word_at(tokens, at).is_some_and(|word| SAID_TIMES.contains(&word)) {
            at += 1;
        }
        if !word_at(tokens, at).is_some_and(|word| TOPIC_PREPOSITIONS.contains(&word)) {
            return None;
        }
        return topic_from(tokens, at + 1);
    }
    let determined = word_at(tokens, index).is_some_and(|word| DETERMINERS.contains(&word));
    if determined {
        index += 1;
    }
    while word_at(tokens, index).is_some_and(|word| QUALIFIERS.contains(&word)) {
        index += 1;
    }
    if word_at(tokens, index).is_some_and(|word| RULE_NOUNS.contains(&word)) {
        // "the rule about X", "the instruction to always cc Dave"; "the thing" needs its
        // preposition too.
        let preposition = index + 1;
        let names_topic = word_at(tokens, preposition)
            .is_some_and(|word| TOPIC_PREPOSITIONS.contains(&word))
            || (word_at(tokens, preposition) == Some("to")
                && word_at(tokens, index) != Some("thing"));
        if names_topic {
            return topic_from(tokens, preposition + 1);
        }
        return None;
    }
    // "the sudo rule", "my Slack ban": a short topic before the rule noun, ending the clause.
    if !determined {
        return None;
    }
    let end = clause_end(tokens, index);
    // Up to six words, plus quotes around them: "drop the 'ask before deleting' rule".
    let noun = (index + 1..end.min(index + 9))
        .find(|at| word_at(tokens, *at).is_some_and(|word| RULE_NOUNS.contains(&word)))?;
    if noun + 1 != end || word_at(tokens, noun) == Some("thing") {
        return None;
    }
    Some(Parse {
        kind: RevocationKind::Retraction,
        object: index..noun,
        drop_verb: false,
        needs_lift: false,
        narrows: false,
    })
}

fn topic_from(tokens: &[Token<'_>], start: usize) -> Option<Parse> {
    let end = clause_end(tokens, start);
    (end > start).then_some(Parse {
        kind: RevocationKind::Retraction,
        object: start..end,
        drop_verb: false,
        needs_lift: false,
        narrows: false,
    })
}

/// Where the topic of "the (old / whole …) X rule" starts: after a determiner at `index` and
/// the qualifiers that follow it; `None` without the determiner.
fn after_determiner(tokens: &[Token<'_>], index: usize) -> Option<usize> {
    if !word_at(tokens, index).is_some_and(|word| DETERMINERS.contains(&word)) {
        return None;
    }
    let mut at = index + 1;
    while word_at(tokens, at).is_some_and(|word| QUALIFIERS.contains(&word)) {
        at += 1;
    }
    Some(at)
}

/// "The rule about Sarah no longer applies", "the Slack ban is lifted".
fn retired_rule_at(tokens: &[Token<'_>], index: usize) -> Option<Parse> {
    let at = after_determiner(tokens, index)?;
    let end = clause_end(tokens, at);
    let ending =
        (at..end).find(|position| phrase_at(tokens, *position, RETIRED_ENDINGS).is_some())?;
    let ending_len = phrase_at(tokens, ending, RETIRED_ENDINGS)?;
    if ending + ending_len != end {
        return None;
    }
    let object = if word_at(tokens, at).is_some_and(|word| RULE_NOUNS.contains(&word)) {
        // "the ban on X is lifted".
        if !word_at(tokens, at + 1).is_some_and(|word| TOPIC_PREPOSITIONS.contains(&word)) {
            return None;
        }
        at + 2..ending
    } else {
        // "the X rule no longer applies".
        if ending < at + 2
            || !word_at(tokens, ending - 1).is_some_and(|word| RULE_NOUNS.contains(&word))
            || word_at(tokens, ending - 1) == Some("thing")
        {
            return None;
        }
        at..ending - 1
    };
    (!object.is_empty()).then_some(Parse {
        kind: RevocationKind::Retraction,
        object,
        drop_verb: false,
        needs_lift: false,
        narrows: false,
    })
}

/// "The deploy ban is only for `prod` now", "the push rule only applies to `main`": the rule
/// on X is lifted and a narrower one stated in its place (the sentence is that rule).
fn narrowed_rule_at(tokens: &[Token<'_>], index: usize) -> Option<Parse> {
    let topic = after_determiner(tokens, index)?;
    // The rule noun closes a short topic: "the deploy ban", "the `git push` rule".
    let noun = (topic + 1..tokens.len().min(topic + 5)).find(|position| {
        word_at(tokens, *position).is_some_and(|word| RULE_NOUNS.contains(&word) && word != "thing")
    })?;
    if tokens[topic..noun]
        .iter()
        .any(|token| !token.word && token.text != "`")
    {
        return None;
    }
    let mut after = noun + 1;
    if matches!(word_at(tokens, after), Some("is" | "stays" | "remains")) {
        after += 1;
        if word_at(tokens, after) == Some("now") {
            after += 1;
        }
        if !(word_at(tokens, after) == Some("only")
            && matches!(
                word_at(tokens, after + 1),
                Some("for" | "on" | "about" | "in")
            ))
        {
            return None;
        }
    } else if !(matches_at(tokens, after, &["only", "applies", "to"])
        || matches_at(tokens, after, &["applies", "only", "to"])
        || matches_at(tokens, after, &["now", "only", "applies", "to"]))
    {
        return None;
    }
    Some(Parse {
        kind: RevocationKind::Retraction,
        object: topic..noun,
        drop_verb: false,
        needs_lift: false,
        narrows: true,
    })
}

/// Whether the words after a revocation's object narrow it in place: "…, but only drafts I
/// created", "…, just not on Fridays". A condition ("if", "once", "until") is no narrowing:
/// it leaves the old rule in force (see [`limited`]).
fn narrowed_after(tokens: &[Token<'_>], object_end: usize) -> bool {
    let mut at = object_end;
    while tokens.get(at).is_some_and(|token| !token.word) {
        at += 1;
    }
    let end = (at + 12).min(tokens.len());
    (at..end).any(|position| {
        matches_at(tokens, position, &["but", "only"])
            || matches_at(tokens, position, &["just", "not"])
            || matches_at(tokens, position, &["but", "not"])
            || matches_at(tokens, position, &["but", "never"])
    })
}

/// The permission a retraction goes on to state in a later clause of its sentence ("I'm
/// lifting the invoice rule: you may void invoices again", "scratch the payout rule, you're
/// allowed to send payouts again"): the action the lifted rule banned. Its own limit ("…, but
/// only drafts I created") is the narrowing of the retraction, so it is not tested here; a
/// modal form still needs its lift signal.
fn granted_after(tokens: &[Token<'_>], object_end: usize) -> Option<Parse> {
    let form_like = |index: usize| {
        index > object_end
            && tokens.get(index - 1).is_some_and(|previous| {
                matches!(
                    previous.text,
                    "," | ";" | ":" | "—" | "–" | "-" | "and" | "so"
                )
            })
    };
    (object_end + 1..tokens.len())
        .filter(|index| form_like(*index))
        .find_map(|index| permission_at(tokens, skip_fillers(tokens, index)))
        .filter(|grant| !grant.needs_lift || lifted(tokens))
}

// Permissions ------------------------------------------------------------------------------

/// "you can …", "it's fine to …", "feel free to …", "you're allowed to …", "I'm ok with you …".
fn permission_at(tokens: &[Token<'_>], index: usize) -> Option<Parse> {
    let word = |offset: usize| word_at(tokens, index + offset);
    let (action, needs_lift) = match word(0)? {
        "you" => match word(1)? {
            "can" | "may" => (skip_adverbs(tokens, index + 2), true),
            "are" => permitted_to(tokens, skip_adverbs(tokens, index + 2))?,
            "have" => (after_permission(tokens, index + 2)?, false),
            // "You don't have to avoid Slack anymore", "you no longer need to avoid it".
            "don't" | "dont" | "no" => {
                let at = match word(2)? {
                    "longer" => index + 3,
                    _ => index + 2,
                };
                avoid_after(tokens, at)?
            }
            "do" if word(2) == Some("not") => avoid_after(tokens, index + 3)?,
            _ => return None,
        },
        "you're" => permitted_to(tokens, skip_adverbs(tokens, index + 1))?,
        "feel" if matches_at(tokens, index + 1, &["free", "to"]) => {
            (skip_adverbs(tokens, index + 3), false)
        }
        "it's" | "that's" => fine_to(tokens, skip_adverbs(tokens, index + 1))?,
        "it" | "that" if word(1) == Some("is") => fine_to(tokens, skip_adverbs(tokens, index + 2))?,
        "i'm" => ok_with_you(tokens, skip_adverbs(tokens, index + 1))?,
        "we're" => permitted_to(tokens, skip_adverbs(tokens, index + 1))?,
        "we" if word(1) == Some("are") => permitted_to(tokens, skip_adverbs(tokens, index + 2))?,
        // "I said you could use the printer again": the user's own earlier permission.
        "i" if matches!(word(1), Some("said" | "told")) => said_you_could(tokens, index + 2)?,
        // "I no longer mind you using sudo", "I don't need you to avoid Jira anymore".
        "i" if matches!(word(1), Some("no" | "don't" | "dont" | "do")) => {
            no_longer_mind(tokens, index + 1).or_else(|| i_allow(tokens, index + 1))?
        }
        "i" if word(1) == Some("am") => ok_with_you(tokens, skip_adverbs(tokens, index + 2))?,
        // "I do allow pushing to `develop` from now on", "I allow you to run the e2e suite
        // again": the user's own grant, with a lift signal.
        "i" => i_allow(tokens, index + 1)?,
        "no" if matches_at(tokens, index + 1, &["need", "to", "avoid"]) => (index + 3, false),
        "stop" if word(1) == Some("avoiding") => (index + 1, false),
        _ => return None,
    };
    let verb = skip_resumption(tokens, action);
    let first = word_at(tokens, verb)?;
    // "avoid" is the verb of "you don't have to avoid …" and "stop avoiding …" only.
    let negated_avoid = first.starts_with("avoid")
        && (word_at(tokens, verb.wrapping_sub(1)) == Some("stop")
            || (word_at(tokens, verb.wrapping_sub(1)) == Some("to")
                && matches!(
                    word_at(tokens, verb.wrapping_sub(2)),
                    Some("have" | "need" | "you")
                )));
    if NOT_PERMISSIONS.contains(&first) && !negated_avoid {
        return None;
    }
    if first == "stop" && word_at(tokens, verb + 1) != Some("avoiding") {
        return None;
    }
    // "You can go ahead" is a go-ahead for the task at hand.
    if first == "go" && word_at(tokens, verb + 1) == Some("ahead") {
        return None;
    }
    let verb = if first == "stop" { verb + 1 } else { verb };
    let end = clause_end(tokens, verb);
    (end > verb).then_some(Parse {
        kind: RevocationKind::Permission,
        object: verb..end,
        drop_verb: true,
        needs_lift,
        narrows: false,
    })
}

/// "allowed to", "free to", "good to" after "you're"; modal ones need a lift signal.
fn permitted_to(tokens: &[Token<'_>], index: usize) -> Option<(usize, bool)> {
    let needs_lift = match word_at(tokens, index)? {
        "allowed" | "permitted" | "cleared" | "authorized" | "authorised" | "good" | "ok"
        | "okay" | "fine" => true,
        "free" | "welcome" => false,
        _ => return None,
    };
    (word_at(tokens, index + 1) == Some("to")).then_some((index + 2, needs_lift))
}

/// "[my] permission to" after "you have".
fn after_permission(tokens: &[Token<'_>], mut index: usize) -> Option<usize> {
    if word_at(tokens, index) == Some("my") {
        index += 1;
    }
    matches_at(tokens, index, &["permission", "to"]).then_some(index + 2)
}

/// "have / need to avoid" after a negation.
fn avoid_after(tokens: &[Token<'_>], index: usize) -> Option<(usize, bool)> {
    let head = phrase_at(tokens, index, &[&["have", "to"], &["need", "to"]])?;
    (word_at(tokens, index + head) == Some("avoid")).then_some((index + head, false))
}

/// "fine / ok / okay / alright / allowed [for you] to" after "it's".
fn fine_to(tokens: &[Token<'_>], index: usize) -> Option<(usize, bool)> {
    let mut at = match phrase_at(tokens, index, &[&["all", "right"]]) {
        Some(len) => index + len,
        None => match word_at(tokens, index)? {
            "fine" | "ok" | "okay" | "alright" | "allowed" | "cool" | "safe" | "permitted" => {
                index + 1
            }
            _ => return None,
        },
    };
    at = skip_adverbs(tokens, at);
    if matches_at(tokens, at, &["for", "you"]) {
        at += 2;
    }
    (word_at(tokens, at) == Some("to")).then_some((at + 1, true))
}

/// "[do / now / hereby] allow / permit [you to]" after "I".
fn i_allow(tokens: &[Token<'_>], mut index: usize) -> Option<(usize, bool)> {
    if matches!(
        word_at(tokens, index),
        Some("do" | "now" | "hereby" | "will")
    ) {
        index += 1;
    }
    if !matches!(word_at(tokens, index), Some("allow" | "permit")) {
        return None;
    }
    index += 1;
    if matches_at(tokens, index, &["you", "to"]) {
        index += 2;
    }
    Some((skip_adverbs(tokens, index), true))
}

/// "[you] [that] you can / could / may" after "I said" or "I told".
fn said_you_could(tokens: &[Token<'_>], mut index: usize) -> Option<(usize, bool)> {
    if word_at(tokens, index) == Some("you")
        && !matches!(word_at(tokens, index + 1), Some("can" | "could" | "may"))
    {
        index += 1;
    }
    if word_at(tokens, index) == Some("that") {
        index += 1;
    }
    let modal = matches!(word_at(tokens, index + 1), Some("can" | "could" | "may"));
    (word_at(tokens, index) == Some("you") && modal)
        .then(|| (skip_adverbs(tokens, index + 2), true))
}

/// "no longer mind (if) you …", "don't need you to avoid …", after "I".
fn no_longer_mind(tokens: &[Token<'_>], index: usize) -> Option<(usize, bool)> {
    let at = index
        + phrase_at(
            tokens,
            index,
            &[&["no", "longer"], &["don't"], &["dont"], &["do", "not"]],
        )?;
    if word_at(tokens, at) == Some("mind") {
        let mut you = at + 1;
        if word_at(tokens, you) == Some("if") {
            you += 1;
        }
        return (word_at(tokens, you) == Some("you")).then_some((you + 1, true));
    }
    if matches_at(tokens, at, &["need", "you", "to", "avoid"]) {
        return Some((at + 3, false));
    }
    None
}

/// "ok / fine / good / cool with you [verb-ing]" after "I'm".
fn ok_with_you(tokens: &[Token<'_>], index: usize) -> Option<(usize, bool)> {
    match word_at(tokens, index)? {
        "ok" | "okay" | "fine" | "good" | "cool" | "alright" => {}
        _ => return None,
    }
    matches_at(tokens, index + 1, &["with", "you"]).then_some((index + 3, true))
}

fn skip_adverbs(tokens: &[Token<'_>], mut index: usize) -> usize {
    while word_at(tokens, index).is_some_and(|word| ADVERBS.contains(&word)) {
        index += 1;
    }
    index
}

/// "go back to using X", "start using X again": the verb is the next word.
fn skip_resumption(tokens: &[Token<'_>], index: usize) -> usize {
    if let Some(len) = phrase_at(
        tokens,
        index,
        &[&["go", "back", "to"], &["get", "back", "to"]],
    ) {
        return index + len;
    }
    match (word_at(tokens, index), word_at(tokens, index + 1)) {
        (Some("start" | "resume" | "continue" | "begin" | "keep"), Some("to")) => index + 2,
        (Some("start" | "resume" | "continue" | "begin" | "keep"), Some(next))
            if next.ends_with("ing") =>
        {
            index + 1
        }
        _ => index,
    }
}

/// "Sudo is no longer off-limits", "Slack is allowed again".
fn subject_first_at(tokens: &[Token<'_>], index: usize) -> Option<Parse> {
    let first = word_at(tokens, index)?;
    if NOT_TOPICS.contains(&first) {
        return None;
    }
    let end = clause_end(tokens, index);
    let verb = (index + 1..end.min(index + 7))
        .find(|at| matches!(word_at(tokens, *at), Some("is" | "are")))?;
    let rest = verb + 1;
    let banned = |at: usize| {
        word_at(tokens, at).is_some_and(|word| BANNED.contains(&word))
            || matches_at(tokens, at, &["off", "the", "table"])
    };
    let permission = if matches_at(tokens, rest, &["no", "longer"]) && banned(rest + 2) {
        Some(false)
    } else if word_at(tokens, rest) == Some("not") && banned(rest + 1) {
        // "Slack is not off-limits anymore": only with the lift signal.
        Some(true)
    } else {
        let at = skip_adverbs(tokens, rest);
        match word_at(tokens, at) {
            Some("unbanned" | "unblocked") => Some(false),
            Some("allowed" | "permitted") => Some(true),
            // "Sudo is fine again for `apt-get`", "Tagging releases is ok again": only what a
            // rule can ban (an action, a program, a command), never "the build is fine again".
            Some("fine" | "ok" | "okay" | "alright" | "cool")
                if tokens[at + 1..skip_adverbs(tokens, at + 1)]
                    .iter()
                    .any(|token| token.text == "again")
                    && bannable_subject(&tokens[index..verb]) =>
            {
                Some(true)
            }
            Some("back") if matches_at(tokens, at + 1, &["on", "the", "table"]) => Some(false),
            _ => None,
        }
    };
    let needs_lift = permission?;
    Some(Parse {
        kind: RevocationKind::Permission,
        object: index..verb,
        drop_verb: false,
        needs_lift,
        narrows: false,
    })
}

/// Whether the subject of "X is fine again" is something a rule bans: an action (a gerund,
/// "tagging releases"), a command in code, or a program the alias table knows ("sudo",
/// "docker") alone. A state ("the build", "prod") recovering is no permission.
fn bannable_subject(subject: &[Token<'_>]) -> bool {
    let Some(first) = subject.first() else {
        return false;
    };
    if first.punct() == Some('`') {
        return true;
    }
    first.word
        && (first.text.len() > 5 && first.text.ends_with("ing")
            || subject.len() == 1 && crate::attribution::is_program_word(first.text))
}

// Clause ends, hedges and limits -----------------------------------------------------------

/// The index just past the clause that starts at `index`: the next clause-ending mark, or a
/// word that opens a new clause ("but", "because", "if", "now that", "and then").
fn clause_end(tokens: &[Token<'_>], index: usize) -> usize {
    let mut at = index;
    while at < tokens.len() {
        let token = tokens[at];
        if !token.word {
            if matches!(
                token.text,
                "," | ";" | ":" | "(" | ")" | "—" | "–" | "!" | "?" | "…" | "[" | "]"
            ) {
                return at;
            }
            // A dot inside an address or a file name is part of the topic.
            if token.text == "." && tokens.get(at + 1).is_none_or(|next| next.start > token.end) {
                return at;
            }
            at += 1;
            continue;
        }
        let next = word_at(tokens, at + 1);
        let ends = match token.text {
            "but" | "because" | "cause" | "since" | "though" | "although" | "if" | "unless"
            | "when" | "whenever" | "while" | "until" | "so" | "except" | "instead"
            | "provided" | "once" | "only" => true,
            "now" => next == Some("that"),
            "as" => !matches!(next, Some("root" | "admin" | "administrator" | "sudo")),
            "and" | "then" => next.is_some_and(|next| AND_BREAKS.contains(&next)),
            _ => false,
        };
        if ends && at > index {
            return at;
        }
        at += 1;
    }
    tokens.len()
}

/// A condition, hedge or someone else's words before the clause: "if you can use sudo again",
/// "I don't think you can", "she said you can".
fn hedged(before: &[Token<'_>]) -> bool {
    before.iter().enumerate().any(|(index, token)| {
        if !token.word {
            return false;
        }
        let word = token.text;
        let next = word_at(before, index + 1);
        if word == "once" {
            // "Once again, you can use sudo" is not a condition; "once it's fixed" is.
            return !matches!(next, Some("again" | "more"));
        }
        // "Don't worry, you can …" and "never mind, you can …" are reassurances.
        if matches!(word, "don't" | "dont" | "never")
            && matches!(next, Some("worry" | "panic" | "stress" | "fret" | "mind"))
        {
            return false;
        }
        if HEDGES.contains(&word) {
            return true;
        }
        if token.is(SPEECH) {
            // The user's own reminder ("as I said, …") stays theirs.
            let own = before[index.saturating_sub(2)..index]
                .iter()
                .any(|token| matches!(token.text, "i" | "i've" | "i'd" | "i'm"));
            // "Regardless of what the thread says, you can …" sets those words aside.
            return !own && !crate::tokens::concessive(before, index);
        }
        false
    })
}

/// A permission with a limit is a new, narrower rule, not a lifted one: "you can email Sarah
/// again, but only about invoices", "you can push to main again if the tests pass". The old
/// rule stays until the user restates it.
fn limited(tokens: &[Token<'_>], marker: usize, object_end: usize) -> bool {
    if tokens[marker..object_end]
        .iter()
        .any(|token| token.text == "only")
    {
        return true;
    }
    let mut at = object_end;
    while tokens.get(at).is_some_and(|token| token.text == ",") {
        at += 1;
    }
    match word_at(tokens, at) {
        Some(
            "only" | "if" | "unless" | "except" | "provided" | "providing" | "when" | "whenever"
            | "until" | "while" | "before" | "after" | "once",
        ) => true,
        Some("as") => matches!(word_at(tokens, at + 1), Some("long")),
        Some("but") => matches!(
            word_at(tokens, at + 1),
            Some("only" | "not" | "never" | "don't" | "dont" | "just" | "still" | "no" | "ask")
        ),
        _ => false,
    }
}

/// A one-off exception is not a change of rules: "you can use sudo again just this once".
fn one_off(tokens: &[Token<'_>]) -> bool {
    contains_phrase(tokens, ONE_OFF)
}

/// Whether the sentence says the change is for good: "again", "now", "anymore", "go back to".
fn lifted(tokens: &[Token<'_>]) -> bool {
    tokens.iter().any(|token| {
        token.word
            && matches!(
                token.text,
                "again" | "now" | "anymore" | "henceforth" | "resume" | "resuming"
            )
    }) || contains_phrase(tokens, LIFT_PHRASES)
}

// Subjects ---------------------------------------------------------------------------------

/// The significant words of a topic or action: lower-cased, split at `-` and `/`, possessives
/// dropped, without stop words, negations, fillers and generic verbs, each once; the permitted
/// verb itself when `drop_verb` is set ("you can email Sarah again" → `["sarah"]`).
fn subject_words(tokens: &[Token<'_>], drop_verb: bool) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut parts = tokens
        .iter()
        .filter(|token| token.word)
        .flat_map(|token| token.text.split(['-', '/']))
        .map(strip_possessive)
        .filter(|part| !part.is_empty());
    if drop_verb {
        parts.next();
    }
    for part in parts {
        if SUBJECT_STOP_WORDS.contains(&part)
            || NEGATIONS.contains(&part)
            || GENERIC_VERBS.contains(&part)
            || words.iter().any(|word| word == part)
        {
            continue;
        }
        words.push(part.to_owned());
    }
    words
}

pub(crate) fn strip_possessive(word: &str) -> &str {
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix('\''))
        .unwrap_or(word)
}

#[cfg(test)]
mod tests;
