//! Introductions: what a line of the user's introduces, so the material pass knows whose
//! words follow. "My rules:", "follow these:" and a pasted instruction file the user adopts
//! introduce the user's own rules; "summarise this thread:", "here is the email:" and "Bob
//! wrote:" introduce material; "summarise the above" turns what came before into material.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::{
    ADOPT_PHRASES, ADOPT_VERBS, FORWARD_PHRASES, OPINION_PHRASES, OTHERS_POSSESSIVES,
    OWN_POSSESSORS, REQUEST_LEADS, RULES_FILES, SOURCE_PHRASES, STANDING_PHRASES, has,
};
use crate::lexicon::{
    ADOPT_VERB, ADOPT_VERB_WITH_RULES, AFTER_POINTER, FORWARD_POINTER, INTRO_TRIGGER,
    MATERIAL_NOUN, NOT_INTRO_OPENER, PRESENTER, PROCESS_NOUN, PROCESS_VERB, QUESTION_OPENER,
    RULES_NOUN, SPEECH, TIME_WORD,
};
use crate::reading::{PlainLine, Reader};
use crate::text::{match_form, split_sentences, strip_bullet};
use crate::tokens::{Token, all_sets, tokenize};

/// What a line introduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Intro {
    /// The user's own rules follow.
    Rules,
    /// Material follows on the next lines; `refused` when the user said not to adopt it
    /// ("do NOT adopt it", "don't follow these").
    Block { refused: bool },
    /// Material follows on this line, from this byte offset (just after the colon).
    Inline(usize),
    /// The lines above were material ("summarise the above").
    Backward,
    /// The quoted or handed-over block just above is the user's rules after all ("that's
    /// from our CONTRIBUTING file, follow it from now on").
    AdoptBackward,
}

/// What one clause introduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClauseIntro {
    Rules,
    Material,
    /// Material the clause refuses to adopt: "our old rules file, do not follow it".
    Refused,
    Backward,
}

/// What `line` introduces; `followed` when non-blank lines follow it, `preceded` when lines
/// come before it (only then can it look back: "summarise the above", "follow it from now on").
pub(super) fn introduction(
    reader: &Reader<'_>,
    index: usize,
    followed: bool,
    preceded: bool,
) -> Option<Intro> {
    let line = reader.lines()[index];
    let reading = reader.plain(index);
    // Both tests must pass; the cheaper one for the line goes first. A line followed by
    // others (most lines of a pasted file) is past the first test whatever its colons, so the
    // bits of its words go first and its colons are looked for only if it may introduce.
    if followed && !may_introduce(reading) {
        return None;
    }
    let colons = introducing_colons(line);
    if colons.is_empty()
        && !followed
        && !(preceded && (line.contains("above") || mentions_adoption(line)))
    {
        return None;
    }
    if !followed && !may_introduce(reading) {
        return None;
    }
    introduction_of(line, reading, colons, followed)
}

/// [`introduction`] without its cheap tests first: `reading` is the line's reading.
fn introduction_of(
    line: &str,
    reading: PlainLine<'_>,
    colons: Vec<usize>,
    followed: bool,
) -> Option<Intro> {
    for at in colons {
        let Some(clause) = split_sentences(&line[..at]).pop() else {
            continue;
        };
        let inline = !line[at + 1..].trim().is_empty();
        match clause_intro(reading, clause, true) {
            Some(ClauseIntro::Rules) => return Some(Intro::Rules),
            Some(ClauseIntro::Backward) => return Some(Intro::Backward),
            Some(ClauseIntro::Material | ClauseIntro::Refused) if inline => {
                return Some(Intro::Inline(at + 1));
            }
            Some(ClauseIntro::Material) if followed => {
                return Some(Intro::Block { refused: false });
            }
            Some(ClauseIntro::Refused) if followed => return Some(Intro::Block { refused: true }),
            Some(ClauseIntro::Material | ClauseIntro::Refused) | None => {}
        }
    }
    let sentences = split_sentences(line);
    let last = sentences.len().saturating_sub(1);
    for (index, sentence) in sentences.into_iter().enumerate() {
        match clause_intro(reading, sentence, false) {
            // A rules noun alone introduces only when nothing else follows on its line.
            Some(ClauseIntro::Rules) if followed && index == last => return Some(Intro::Rules),
            // Adopting what came before takes a standing order, not a one-off "follow it".
            Some(ClauseIntro::Rules) if !followed && standing(sentence) => {
                return Some(Intro::AdoptBackward);
            }
            Some(ClauseIntro::Material) if followed => {
                return Some(Intro::Block { refused: false });
            }
            Some(ClauseIntro::Refused) if followed => return Some(Intro::Block { refused: true }),
            Some(ClauseIntro::Backward) => return Some(Intro::Backward),
            _ => {}
        }
    }
    None
}

/// Whether a line (its `reading`) holds anything [`clause_intro`] could read as an
/// introduction: a test of the bits of its words, so that the lines of a pasted file that
/// introduce nothing (nearly all) are not read sentence by sentence.
fn may_introduce(reading: PlainLine<'_>) -> bool {
    let form = reading.form();
    reading.sets().any(INTRO_TRIGGER)
        || names_rules_file(form)
        || form.contains("tl;dr")
        // A question about "this" ("Is this right?") has no trigger word; lines of a pasted
        // file seldom ask anything.
        || form.contains('?')
}

/// Whether a match form names a rules file ([`RULES_FILES`], anywhere in it): one search for
/// all the names at once, since every line of a message asks.
fn names_rules_file(form: &str) -> bool {
    static NAMES: LazyLock<Regex> = LazyLock::new(|| {
        let names: Vec<String> = RULES_FILES.iter().map(|name| regex::escape(name)).collect();
        Regex::new(&names.join("|")).expect("rules file names compile")
    });
    NAMES.is_match(form)
}

/// A cheap test before the clause grammar runs on a last line: does it hold an adopting verb
/// at all? Nearly every single-line message asks it, so it reads bytes: runs of ASCII letters
/// of an adopting verb's length, looked up only when their first letter starts one.
fn mentions_adoption(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut buffer = [0u8; 16];
    let mut index = 0;
    while index < bytes.len() {
        if !bytes[index].is_ascii_alphabetic() {
            index += 1;
            continue;
        }
        let start = index;
        while index < bytes.len() && bytes[index].is_ascii_alphabetic() {
            index += 1;
        }
        let word = &bytes[start..index];
        let first = word[0].to_ascii_lowercase();
        if (4..=buffer.len()).contains(&word.len())
            && ADOPT_VERBS.iter().any(|verb| verb.as_bytes()[0] == first)
        {
            let lower = &mut buffer[..word.len()];
            lower.copy_from_slice(word);
            lower.make_ascii_lowercase();
            if std::str::from_utf8(lower).is_ok_and(|lower| has(ADOPT_VERBS, lower)) {
                return true;
            }
        }
    }
    false
}

/// Whether a sentence makes what it adopts standing: "from now on", "going forward",
/// "always", or a rules noun ("follow it as a rule").
fn standing(sentence: &str) -> bool {
    let form = match_form(sentence);
    let words = words_of(&form);
    contains_phrase(&words, STANDING_PHRASES)
        || words
            .iter()
            .any(|word| word.text == "always" || word.is(RULES_NOUN))
}

/// Byte offsets of the colons in `line` that could introduce something: followed by
/// whitespace or the end of the line, so neither `https://` nor `10:02`.
fn introducing_colons(line: &str) -> Vec<usize> {
    line.match_indices(':')
        .map(|(at, _)| at)
        .filter(|&at| {
            line[at + 1..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace)
        })
        .take(MAX_INTRO_COLONS)
        .collect()
}

/// Colons of a line that may introduce what follows. An introduction opens its line ("Note:
/// summarise this:" is the longest real form, with two), so three is room to spare; each colon
/// costs a pass over the text before it, so a line of a million colons must not be read a
/// million times.
const MAX_INTRO_COLONS: usize = 3;

/// The word tokens of a match form: the clause grammar reads words only.
fn words_of(form: &str) -> Vec<Token<'_>> {
    let mut words = tokenize(form);
    words.retain(|token| token.word);
    words
}

/// Whether `words` holds `phrase` at `index`.
fn phrase_at(words: &[Token<'_>], index: usize, phrase: &[&str]) -> bool {
    words.get(index..index + phrase.len()).is_some_and(|found| {
        found
            .iter()
            .zip(phrase)
            .all(|(word, &expected)| word.text == expected)
    })
}

fn contains_phrase(words: &[Token<'_>], phrases: &[&[&str]]) -> bool {
    (0..words.len()).any(|index| phrases.iter().any(|phrase| phrase_at(words, index, phrase)))
}

/// What `clause` (one sentence, or the text before a colon when `colon`) introduces:
///
/// - **Rules** when it adopts what follows (an adopting verb with a rules noun, a rules file
///   or a pronoun object, and no material noun unless a rules file is named), names rules
///   without a verb that works on them ("my rules are:", "these are the rules for this
///   repo"), or is a standing-order opener alone before a colon ("From now on:").
/// - **Backward** for a request about "the above".
/// - **Material** for a request to work on text that points at it ("summarise this",
///   "translate the following", "proofread:"), a question about a piece of material ("what
///   does this page say?"), or a presentation before a colon ("here is the email:", "Bob's
///   reply:", "Bob wrote:").
fn clause_intro(reading: PlainLine<'_>, clause: &str, colon: bool) -> Option<ClauseIntro> {
    let mut words = Vec::new();
    let form = reading.slice(strip_bullet(clause), &mut words);
    words.retain(|token| token.word);
    let first = *words.first()?;
    let mut start = 0;
    'leads: loop {
        for lead in REQUEST_LEADS {
            if phrase_at(&words, start, lead) {
                start += lead.len();
                continue 'leads;
            }
        }
        break;
    }
    if words
        .get(start)
        .is_some_and(|word| word.is(NOT_INTRO_OPENER))
    {
        return None;
    }
    let sets = all_sets(&words);
    let rules_file = names_rules_file(form);
    let rules_noun = sets.any(RULES_NOUN);
    // A project's markdown file (README.md, CONTRIBUTING.md, SECURITY.md) is a document like
    // any other; the agents' rules files were taken as such above.
    // "Going forward" and "moving forward" are a time, not a forwarded message.
    let material_noun = (sets.any(MATERIAL_NOUN)
        && words.iter().enumerate().any(|(index, word)| {
            word.is(MATERIAL_NOUN)
                && !(word.text == "forward"
                    && index > 0
                    && matches!(words[index - 1].text, "going" | "moving"))
        }))
        || form.contains(".md");
    // "I'm not adopting it", "don't follow these": refusing is no adoption; what it refuses
    // is handed over, and proposes nothing. One pass over the words finds both.
    let mut adopts = contains_phrase(&words, ADOPT_PHRASES);
    let mut refuses = false;
    for (index, word) in words.iter().enumerate() {
        let adopting = (word.is(ADOPT_VERB)
            && (rules_noun || rules_file || pronoun_object(&words, index)))
            || (word.is(ADOPT_VERB_WITH_RULES) && (rules_noun || rules_file));
        if adopting {
            if negated(&words, index) {
                refuses = true;
            } else {
                adopts = true;
            }
        }
    }
    if refuses && (rules_noun || rules_file || material_noun || colon) {
        return Some(ClauseIntro::Refused);
    }
    if adopts {
        // "Follow the instructions in this email:" acts on the e-mail once; the instructions
        // stay the sender's. "Here is my CLAUDE.md, follow it:" adopts a rules file.
        return Some(if rules_file || !material_noun {
            ClauseIntro::Rules
        } else {
            ClauseIntro::Material
        });
    }
    let process_verb = sets.any(PROCESS_VERB);
    // "Summary of this thread:", "tl;dr this" hand material over; "TL;DR: never deploy on
    // Fridays" and "Summary:" head the user's own words.
    let process_noun =
        sets.any(PROCESS_NOUN) || form.contains("tl;dr") || phrase_at(&words, 0, &["tl", "dr"]);
    let process = process_verb || process_noun;
    let question = first.is(QUESTION_OPENER);
    let opinion = contains_phrase(&words, OPINION_PHRASES);
    if (process || question || opinion) && words.iter().any(|word| word.text == "above") {
        return Some(ClauseIntro::Backward);
    }
    let (pointer, pointer_to_material) = forward_reference(&words);
    // A bare word before a colon ("Review: …", "Edit: …") is a heading; a request has more
    // ("Please proofread:", "Translate to French:").
    // "On `prod-eu` only read: `kubectl get`" limits the agent to reading; it hands nothing
    // over.
    let request_before_colon = colon
        && process_verb
        && words.len() >= 2
        && words.iter().enumerate().any(|(index, word)| {
            word.is(PROCESS_VERB) && (index == 0 || words[index - 1].text != "only")
        });
    if (process && pointer)
        || request_before_colon
        || (opinion && pointer)
        || (question && pointer_to_material)
        || ((question || opinion) && asks_of_this(clause, &words))
    {
        return Some(ClauseIntro::Material);
    }
    // "(the thing below is from a newsletter)": a text pointed at, from someone else.
    if pointer && contains_phrase(&words, SOURCE_PHRASES) {
        return Some(ClauseIntro::Material);
    }
    // "Here's the contributing guide of a library I want to patch; how do they want patches?",
    // "Below is the vendor's setup doc, tell me what it installs": a text presented together
    // with a question or a request about it is handed over, with or without a colon. Its
    // orders are its author's, to its readers, and a question about a text's rules ("what's
    // their process?") adopts none of them.
    let asks = asks_about(clause, &words, process);
    if (rules_noun || rules_file) && !process && !asks {
        // "My teammate's CLAUDE.md:", "their AGENTS.md:": someone else's rules, shown, not
        // taken; the user adopts them only with a verb ("Bob's CLAUDE.md, follow it:").
        return Some(if someone_elses(&words) {
            ClauseIntro::Material
        } else {
            ClauseIntro::Rules
        });
    }
    if !colon && asks && (material_noun || rules_noun || rules_file) && presents(&words) {
        return Some(ClauseIntro::Material);
    }
    if colon {
        if FORWARD_PHRASES
            .iter()
            .any(|phrase| phrase.len() == words.len() && phrase_at(&words, 0, phrase))
        {
            return Some(ClauseIntro::Rules);
        }
        if presents_material(&words, material_noun) || reports_speech(&words) {
            return Some(ClauseIntro::Material);
        }
    }
    None
}

/// Whether the verb at `index` is refused: "not", "never" or a negated auxiliary within the
/// two words before it ("I'm not adopting it", "don't follow these", "won't ever obey").
fn negated(words: &[Token<'_>], index: usize) -> bool {
    words[index.saturating_sub(2)..index]
        .iter()
        .any(|word| matches!(word.text, "not" | "never" | "no") || word.text.ends_with("n't"))
}

/// Whether the clause names rules of someone other than the user: a possessive pronoun of
/// another person ("his", "their") or an owner in `'s` that is not the project, the team or a
/// contraction ("my teammate's", "bob's", "a vendor's").
fn someone_elses(words: &[Token<'_>]) -> bool {
    words.iter().any(|word| {
        OTHERS_POSSESSIVES.contains(&word.text)
            || word
                .text
                .strip_suffix("'s")
                .or_else(|| word.text.strip_suffix("’s"))
                .is_some_and(|owner| !owner.is_empty() && !OWN_POSSESSORS.contains(&owner))
    })
}

/// Whether the adopting verb at `index` takes a pronoun for what follows: "follow it:",
/// "remember these carefully", "obey the following".
fn pronoun_object(words: &[Token<'_>], index: usize) -> bool {
    let text = |at: usize| words.get(at).map(|word| word.text);
    let object = match text(index + 1) {
        Some("the") => index + 2,
        _ => index + 1,
    };
    // The word after the object: "obey the following:" has none.
    let after = words.get(object + 1);
    matches!(
        text(object),
        Some("it" | "this" | "these" | "them" | "following" | "below")
    ) && after.is_none_or(|after| {
        after.is(AFTER_POINTER)
            || matches!(
                after.text,
                "exactly" | "strictly" | "always" | "from" | "closely"
            )
    })
}

/// Whether the clause points at text that follows (`this`, `these`, `the following`,
/// `below`), and whether it names that text as material ("this thread", "these emails").
fn forward_reference(words: &[Token<'_>]) -> (bool, bool) {
    let mut pointer = false;
    let mut to_material = false;
    for (index, word) in words.iter().enumerate() {
        if !word.is(FORWARD_POINTER) {
            continue;
        }
        let next = words.get(index + 1);
        // "this week's emails" is about time, not about a text that follows.
        if next.is_some_and(|next| next.is(TIME_WORD)) {
            continue;
        }
        let named = words
            .iter()
            .skip(index + 1)
            .take(3)
            .any(|after| after.is(MATERIAL_NOUN) || after.is(RULES_NOUN));
        if named {
            pointer = true;
            to_material = true;
        } else if matches!(word.text, "following" | "below")
            || next.is_none_or(|next| next.is(AFTER_POINTER))
        {
            pointer = true;
        }
    }
    (pointer, to_material)
}

/// Whether a question is about "this" or "these" as a whole ("Is this right?", "Does this look
/// ok?", "What do you think of this policy my manager sent round?"): asked above lines of
/// text, it asks about them, and what they order is theirs, not the user's. The pointer is the
/// question's subject, within its first three words, its last word ("Any typos in this?"), or
/// the object of an opinion anywhere (the caller knows which); "is this week free?" is about
/// time.
fn asks_of_this(clause: &str, words: &[Token<'_>]) -> bool {
    if !clause.trim_end().ends_with('?') {
        return false;
    }
    let opinion = contains_phrase(words, OPINION_PHRASES);
    let reach = if opinion { words.len() } else { 3 };
    let pointer = |word: &Token<'_>| matches!(word.text, "this" | "these");
    // "Any typos in this?", "What's wrong with these?": the pointer closes the question. A
    // request put as a question ("Can you remind me about this?") points at its topic.
    let closing = words.last().is_some_and(pointer)
        && !matches!(words[0].text, "can" | "could" | "would" | "will");
    closing
        || words.iter().enumerate().take(reach).any(|(index, word)| {
            pointer(word) && words.get(index + 1).is_none_or(|next| !next.is(TIME_WORD))
        })
}

/// "Here is the email I got", "Bob's reply", "the thread", "chat log": a noun phrase that
/// presents material, before a colon.
fn presents_material(words: &[Token<'_>], material_noun: bool) -> bool {
    if !material_noun || words.iter().any(|word| word.is(RULES_NOUN)) {
        return false;
    }
    presents(words)
}

/// Whether a clause opens by presenting a text: a presenter ("here's", "below", "pasting") or
/// a determiner or possessive before what it names. A bare noun ("Email:") heads the user's
/// own list as often as it presents a paste.
fn presents(words: &[Token<'_>]) -> bool {
    let first = words[0];
    first.is(PRESENTER)
        || matches!(
            first.text,
            "the"
                | "a"
                | "an"
                | "my"
                | "his"
                | "her"
                | "their"
                | "our"
                | "your"
                | "this"
                | "that"
                | "these"
                | "those"
                | "from"
        )
        || first.text.ends_with("'s")
}

/// Whether a clause that presents a text also asks something about it: a question ("…; how do
/// they want patches?"), a process verb ("summarise", "check") or "tell me".
fn asks_about(clause: &str, words: &[Token<'_>], process: bool) -> bool {
    process
        || clause.trim_end().ends_with('?')
        || words
            .windows(2)
            .any(|pair| pair[0].text == "tell" && pair[1].text == "me")
}

/// "Bob wrote:", "Here's what my manager said:": someone else's words follow. The user's own
/// reminder ("as I said:") does not count.
fn reports_speech(words: &[Token<'_>]) -> bool {
    // "According to the docs:", "according to Bob's email:".
    if words[0].text == "according" && words.get(1).is_some_and(|word| word.text == "to") {
        return true;
    }
    let Some(index) = words.iter().rposition(|word| word.is(SPEECH)) else {
        return false;
    };
    // The verb ends the clause, give or take a pronoun or "this" ("sent this", "told me").
    if words.len() - index > 3 {
        return false;
    }
    let subject = index.checked_sub(1).map(|before| words[before].text);
    !matches!(subject, Some("i" | "i've" | "i'd" | "we" | "you")) && words[0].text != "as"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cheap test never hides an introduction: on every line of the corpora's messages,
    /// a line it turns away is one the clause grammar finds nothing in.
    #[test]
    fn the_trigger_words_cover_every_introduction() {
        let mut introductions = 0;
        for message in crate::test_messages::corpus_messages() {
            for text in message.lines() {
                let reader = Reader::new(text);
                let Some(&line) = reader.lines().first() else {
                    continue;
                };
                let reading = reader.plain(0);
                for followed in [false, true] {
                    let found = introduction_of(line, reading, introducing_colons(line), followed);
                    introductions += usize::from(found.is_some());
                    assert!(
                        found.is_none() || may_introduce(reading),
                        "{text:?} introduces {found:?} without a trigger word"
                    );
                }
            }
        }
        // The corpora do introduce things, so the test compares something.
        assert!(introductions > 50, "{introductions}");
    }
}
