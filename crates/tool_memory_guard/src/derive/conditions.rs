//! Conditions a rule puts on the situation: "on Fridays", "over the weekend", "more than
//! $500", "after 4pm", "during business hours", "when the freeze is on". Each becomes a
//! `condition` matcher of the constraint's `when` (see `crate::condition` for the forms and
//! how a call shows them), and its words are no literal of the rule: "before the release is
//! cut" forbids no `release`.

use std::ops::Range;

use crate::condition::WEEKDAYS;
use crate::derive::lexicon::{
    AMOUNT_ABOVE, AMOUNT_BELOW, CONCESSIONS, CONDITION_OPENERS, CURRENCY_WORDS, HOURS_PHRASES,
    MONEY_WORDS, NOT_SITUATIONS, STANDING_SITUATIONS, STATE_OPENERS, WEEKDAY_PREPOSITIONS,
};
use crate::{Matcher, MatcherKind};

/// One word of the text and where it is.
struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

fn words_of(lower: &str) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    for (at, ch) in lower.char_indices() {
        let inside = ch.is_alphanumeric()
            || matches!(
                ch,
                '$' | '€' | '£' | '.' | ',' | ':' | '\'' | '-' | '>' | '<'
            );
        match (inside, start) {
            (true, None) => start = Some(at),
            (false, Some(begin)) => {
                push_word(lower, begin, at, &mut words);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(begin) = start {
        push_word(lower, begin, lower.len(), &mut words);
    }
    words
}

/// A word without the punctuation around it (a sentence's comma or period), which stays in
/// a number (`1,000.50`).
fn push_word<'a>(lower: &'a str, begin: usize, end: usize, words: &mut Vec<Word<'a>>) {
    let raw = &lower[begin..end];
    let trimmed = raw.trim_end_matches(['.', ',', ':', '\'']);
    let trimmed = trimmed.trim_start_matches(['\'', ',']);
    if trimmed.is_empty() {
        return;
    }
    let start = begin + (raw.len() - raw.trim_start_matches(['\'', ',']).len());
    words.push(Word {
        text: trimmed,
        start,
        end: start + trimmed.len(),
    });
}

/// The conditions of a lower-case clause, each with the byte range it covers. A `None`
/// matcher is a span that is no condition on the call but whose words are no literal either:
/// "until the migration is done", "before the release is cut" say how long the rule holds,
/// and it holds now (its end is the store's to keep, as an expiry).
pub(crate) fn conditions(lower: &str) -> Vec<(Range<usize>, Option<Matcher>)> {
    let words = words_of(lower);
    let mut found: Vec<(Range<usize>, Option<Matcher>)> = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let condition = weekdays(&words, at)
            .or_else(|| amount(&words, at))
            .or_else(|| hours(&words, at))
            .map(|(end, matcher)| (end, Some(matcher)))
            .or_else(|| state(&words, at));
        if let Some((end, matcher)) = condition {
            found.push((words[at].start..words[end - 1].end, matcher));
            at = end;
        } else {
            at += 1;
        }
    }
    found
}

/// The weekday a word names (`friday`, `fridays`), as a mask; `weekend(s)` and `weekdays`
/// name several.
fn weekday_mask(word: &str) -> Option<u8> {
    match word {
        "weekend" | "weekends" => return Some(0b110_0000),
        "weekdays" => return Some(0b001_1111),
        _ => {}
    }
    let singular = word.strip_suffix('s').unwrap_or(word);
    WEEKDAYS
        .iter()
        .position(|day| *day == singular)
        .map(|bit| 1 << bit)
}

/// "on Fridays", "over the weekend", "on Saturdays or Sundays", "fridays": a preposition (or
/// a plural day) and the days, joined by "and", "or", commas.
fn weekdays(words: &[Word], at: usize) -> Option<(usize, Matcher)> {
    let mut next = at;
    let opened = WEEKDAY_PREPOSITIONS.contains(&words[at].text);
    if opened {
        next += 1;
        if words
            .get(next)
            .is_some_and(|word| matches!(word.text, "the" | "a" | "any"))
        {
            next += 1;
        }
    }
    let first = weekday_mask(words.get(next)?.text)?;
    let plural = words[next].text.ends_with('s');
    if !opened && !plural {
        return None;
    }
    let mut mask = first;
    next += 1;
    while let Some(word) = words.get(next) {
        if matches!(word.text, "and" | "or") {
            match words.get(next + 1).and_then(|day| weekday_mask(day.text)) {
                Some(more) => {
                    mask |= more;
                    next += 2;
                }
                None => break,
            }
        } else if let Some(more) = weekday_mask(word.text) {
            mask |= more;
            next += 1;
        } else {
            break;
        }
    }
    let days: Vec<&str> = WEEKDAYS
        .iter()
        .enumerate()
        .filter(|(bit, _)| mask & (1 << bit) != 0)
        .map(|(_, day)| *day)
        .collect();
    Some((
        next,
        Matcher::new(MatcherKind::Condition, format!("on {}", days.join(", "))),
    ))
}

/// "more than $500", "over 1,000 EUR", "above $2k", "under 50 dollars", "> $500", "$500 or
/// more": an amount of money, with a currency sign or word (or, for a bare number, a word of
/// money elsewhere in the clause: "payments over 1000").
fn amount(words: &[Word], at: usize) -> Option<(usize, Matcher)> {
    let phrase = |list: &[&str]| {
        list.iter().find_map(|marker| {
            let parts: Vec<&str> = marker.split(' ').collect();
            let matches = parts.iter().enumerate().all(|(offset, part)| {
                words
                    .get(at + offset)
                    .is_some_and(|word| word.text == *part)
            });
            matches.then_some(parts.len())
        })
    };
    let (over, skip) = match (phrase(AMOUNT_ABOVE), phrase(AMOUNT_BELOW)) {
        (Some(skip), _) => (true, skip),
        (None, Some(skip)) => (false, skip),
        (None, None) => return None,
    };
    let start = at + skip;
    let (limit, signed) = money(words.get(start)?.text)?;
    let mut end = start + 1;
    let worded = words
        .get(end)
        .is_some_and(|word| CURRENCY_WORDS.contains(&word.text));
    if worded {
        end += 1;
    }
    let money_nearby = words.iter().any(|word| MONEY_WORDS.contains(&word.text));
    if !(signed || worded || money_nearby) {
        return None;
    }
    let side = if over { "over" } else { "under" };
    Some((
        end,
        Matcher::new(MatcherKind::Condition, format!("amount {side} {limit}")),
    ))
}

/// A sum of money as written: `$500`, `500`, `1,000.50`, `€40`, `2k`; and whether it had a
/// currency sign.
fn money(word: &str) -> Option<(f64, bool)> {
    let signed = word.starts_with(['$', '€', '£']) || word.ends_with(['$', '€', '£']);
    let bare = word.trim_matches(['$', '€', '£']).replace(',', "");
    let (digits, scale) = match bare.strip_suffix('k') {
        Some(digits) => (digits, 1_000.0),
        None => match bare.strip_suffix('m') {
            Some(digits) => (digits, 1_000_000.0),
            None => (bare.as_str(), 1.0),
        },
    };
    if digits.is_empty() || !digits.chars().all(|ch| ch.is_ascii_digit() || ch == '.') {
        return None;
    }
    let value: f64 = digits.parse().ok()?;
    Some((value * scale, signed))
}

/// "after 4pm", "before 9:00", "past midnight", "during business hours", "after hours", "at
/// night": a time of day, which the guard cannot check.
fn hours(words: &[Word], at: usize) -> Option<(usize, Matcher)> {
    for phrase in HOURS_PHRASES {
        let parts: Vec<&str> = phrase.split(' ').collect();
        let matches = parts.iter().enumerate().all(|(offset, part)| {
            words
                .get(at + offset)
                .is_some_and(|word| word.text == *part)
        });
        if matches {
            return Some((at + parts.len(), unchecked(words, at, at + parts.len())));
        }
    }
    if !matches!(
        words[at].text,
        "after" | "before" | "past" | "until" | "till"
    ) {
        return None;
    }
    let time = words.get(at + 1)?.text;
    let with_meridiem = |text: &str| {
        text.strip_suffix("am")
            .or_else(|| text.strip_suffix("pm"))
            .is_some_and(|digits| {
                !digits.is_empty() && digits.chars().all(|ch| ch.is_ascii_digit() || ch == ':')
            })
    };
    let clock = time.len() >= 4
        && time.contains(':')
        && time.chars().all(|ch| ch.is_ascii_digit() || ch == ':');
    let bare_hour = time.chars().all(|ch| ch.is_ascii_digit())
        && time.len() <= 2
        && words
            .get(at + 2)
            .is_some_and(|next| matches!(next.text, "am" | "pm" | "o'clock"));
    if with_meridiem(time) || clock || matches!(time, "noon" | "midnight") {
        return Some((at + 2, unchecked(words, at, at + 2)));
    }
    if bare_hour {
        return Some((at + 3, unchecked(words, at, at + 3)));
    }
    None
}

/// "when the freeze is on", "while a release is running", "during an incident", "if the CI
/// is red", "before the release is cut": a state of the world the call does not show, up to
/// the end of the clause. Not a precondition on another action ("before running the
/// tests", "before `git push`"), which is the rule's subject.
fn state(words: &[Word], at: usize) -> Option<(usize, Option<Matcher>)> {
    let opener = words[at].text;
    let next = words.get(at + 1)?.text;
    let general = CONDITION_OPENERS.contains(&opener);
    let timed =
        matches!(opener, "before" | "after" | "until" | "till") && STATE_OPENERS.contains(&next);
    if !(general || timed)
        || next.ends_with("ing")
        || next.starts_with('`')
        || NOT_SITUATIONS.contains(&next)
    {
        return None;
    }
    // "If a task seems to require `x`": what the work needs is what the call carries, no
    // situation beside it.
    if words[at + 1..]
        .iter()
        .take(6)
        .any(|word| matches!(word.text, "require" | "requires" | "need" | "needs"))
    {
        return None;
    }
    // To the end of the clause: the next word that opens another (or the text's end).
    let end = words[at + 1..]
        .iter()
        .position(|word| matches!(word.text, "but" | "and" | "or" | "unless" | "without"))
        .map_or(words.len(), |offset| at + 1 + offset);
    // Until an event, or before it, the rule holds now: the span is no condition. So does a
    // concession ("even if an install script suggests it") and a situation the agent is always
    // in ("during a task").
    let clause: Vec<&str> = words[at + 1..end].iter().map(|word| word.text).collect();
    let clause = clause.join(" ");
    let clause = clause.trim_end_matches(['.', ',', ';', ':', '!']);
    let conceded = at > 0 && CONCESSIONS.contains(&words[at - 1].text);
    let until = (timed && opener != "after")
        || (general && (conceded || STANDING_SITUATIONS.contains(&clause)));
    (end > at + 1).then(|| (end, (!until).then(|| unchecked(words, at, end))))
}

fn unchecked(words: &[Word], start: usize, end: usize) -> Matcher {
    let phrase: Vec<&str> = words[start..end].iter().map(|word| word.text).collect();
    Matcher::new(MatcherKind::Condition, phrase.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &[&str]) {
        let found: Vec<String> = conditions(text)
            .into_iter()
            .map(|(_, matcher)| matcher.map_or_else(|| "(holds now)".to_owned(), |m| m.value))
            .collect();
        assert_eq!(found, expected, "{text:?}");
    }

    #[test]
    fn concessions_and_standing_situations_hold_now() {
        check(
            "never edit my dotfiles, even if an install script suggests it",
            &["(holds now)"],
        );
        check("never run `x` during a task.", &["(holds now)"]);
        check("never run `x` during a deploy", &["during a deploy"]);
        // What the work needs is the rule's object, no situation.
        check("if a task seems to require `x`, stop and ask", &[]);
        check(
            "never run `x` if a deploy is running",
            &["if a deploy is running"],
        );
    }

    #[test]
    fn reads_the_situations_a_rule_names() {
        check(
            "don't schedule anything with priya on fridays",
            &["on friday"],
        );
        check("never deploy over the weekend", &["on saturday, sunday"]);
        check(
            "no merges on saturdays or sundays",
            &["on saturday, sunday"],
        );
        check(
            "never refund more than $500 without asking",
            &["amount over 500"],
        );
        check("don't send more than 50 eur to anyone", &["amount over 50"]);
        check(
            "payments over 1,000 need my approval",
            &["amount over 1000"],
        );
        check("no `kubectl apply` after 4pm.", &["after 4pm"]);
        check(
            "never run migrations during business hours",
            &["during business hours"],
        );
        check(
            "don't run `terraform apply` when the freeze is on.",
            &["when the freeze is on"],
        );
        check(
            "never push to main before the release is cut",
            &["(holds now)"],
        );
        // Until an event the rule holds now; after one, it may or may not.
        check(
            "never run sudo until the migration is done",
            &["(holds now)"],
        );
        check(
            "never deploy after the freeze starts",
            &["after the freeze starts"],
        );
        // Not conditions: a precondition on another action, a number that is no money.
        check("always run the tests before pushing", &[]);
        check("check with me before `git push`", &[]);
        check("never use more than 4 threads", &[]);
        check("never ssh over the vpn", &[]);
    }
}
