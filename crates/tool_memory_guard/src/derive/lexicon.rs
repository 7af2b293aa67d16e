//! The lexicon of derivation: the word lists (in `lexicon/commands.rs` and
//! `lexicon/people.rs`), the table that says which lists a word is on, and the cue set that
//! finds every fixed cue phrase of a text in one pass over its words.

use std::sync::LazyLock;

use crate::normalize::{CueSet, WordMap, WordRuns};

mod commands;
mod conditions;
mod kinds;
mod languages;
mod people;

pub(crate) use self::commands::*;
pub(crate) use self::conditions::*;
pub(crate) use self::kinds::*;
pub(crate) use self::people::*;

/// Which of the word lists above a lower-case word is on, one bit per list (see
/// [`word_class`]). Derivation asks about every word of a rule against a dozen lists; one
/// lookup per word replaces a scan of each list.
pub(crate) const PROGRAM: u32 = 1 << 0;
pub(crate) const AMBIGUOUS_PROGRAM: u32 = 1 << 1;
pub(crate) const PUSH_WORD: u32 = 1 << 2;
pub(crate) const FORCE_PUSH_WORD: u32 = 1 << 3;
pub(crate) const PERSON_VERB: u32 = 1 << 4;
pub(crate) const PERSON_FILLER: u32 = 1 << 5;
pub(crate) const NOT_NAME: u32 = 1 << 6;
pub(crate) const DIRECT_CONTACT_VERB: u32 = 1 << 7;
pub(crate) const COMMON_WORD: u32 = 1 << 8;
pub(crate) const TITLE: u32 = 1 << 9;
pub(crate) const BRANCH: u32 = 1 << 10;
pub(crate) const HOST_TRIGGER: u32 = 1 << 11;
pub(crate) const NOT_HOST: u32 = 1 << 12;
pub(crate) const WRAPPER_JOIN: u32 = 1 << 13;
pub(crate) const NAME_JOIN: u32 = 1 << 14;
pub(crate) const DELETE_VERB: u32 = 1 << 15;
pub(crate) const RUN_VERB: u32 = 1 << 16;

pub(crate) static WORD_CLASSES: LazyLock<WordMap<u32>> = LazyLock::new(|| {
    let lists: [(&[&'static str], u32); 17] = [
        (PROGRAMS, PROGRAM),
        (AMBIGUOUS_PROGRAMS, AMBIGUOUS_PROGRAM),
        (PUSH_WORDS, PUSH_WORD),
        (FORCE_PUSH_WORDS, FORCE_PUSH_WORD),
        (PERSON_VERBS, PERSON_VERB),
        (PERSON_FILLERS, PERSON_FILLER),
        (NOT_NAMES, NOT_NAME),
        (DIRECT_CONTACT_VERBS, DIRECT_CONTACT_VERB),
        (COMMON_WORDS, COMMON_WORD),
        (TITLES, TITLE),
        (BRANCHES, BRANCH),
        (HOST_TRIGGERS, HOST_TRIGGER),
        (NOT_HOSTS, NOT_HOST),
        (WRAPPER_JOINS, WRAPPER_JOIN),
        (NAME_JOINS, NAME_JOIN),
        (DELETE_VERBS, DELETE_VERB),
        (RUN_VERBS, RUN_VERB),
    ];
    let mut classes = WordMap::default();
    for (words, bit) in lists {
        for &word in words {
            *classes.entry(word).or_insert(0) |= bit;
        }
    }
    classes
});

/// Whether `word` (lower-case) is a program the grammar knows as the start of a command.
pub(crate) fn is_program(word: &str) -> bool {
    word_class(word) & PROGRAM != 0
}

/// The lists of [`WORD_CLASSES`] that `lower` is on; 0 for none.
pub(crate) fn word_class(lower: &str) -> u32 {
    WORD_CLASSES.get(lower).copied().unwrap_or(0)
}

/// "to main", "to master", ...: a push target names a git context.
pub(crate) static TO_BRANCHES: LazyLock<Vec<String>> = LazyLock::new(|| {
    BRANCHES
        .iter()
        .map(|branch| format!("to {branch}"))
        .collect()
});
/// Every fixed word and phrase derivation looks for in a text, looked up together in one
/// pass over the text's words; [`CueSet::first_in`] answers in this order.
pub(crate) static CUES: LazyLock<CueSet<6>> = LazyLock::new(|| {
    let git_context: Vec<&'static str> = ["git", "branch"]
        .into_iter()
        .chain(TO_BRANCHES.iter().map(String::as_str))
        .collect();
    CueSet::new([
        DOUBLE_NEGATIVES,
        &ASKING,
        &FORBIDDING,
        REQUIRE_CUES,
        &git_context,
        SQL_PHRASES,
    ])
});

/// A list of English cues with each language's of the same kind after it.
fn with_languages(
    english: &[&'static str],
    of: fn(&languages::Language) -> &'static [&'static str],
) -> Vec<&'static str> {
    english
        .iter()
        .copied()
        .chain(
            languages::LANGUAGES
                .iter()
                .flat_map(|language| of(language).iter().copied()),
        )
        .collect()
}

/// [`ASK_CUES`] in every language.
static ASKING: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| with_languages(ASK_CUES, |language| language.ask));
/// [`FORBID_CUES`] in every language.
static FORBIDDING: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| with_languages(FORBID_CUES, |language| language.forbid));
/// [`POSITIVE_OPENERS`] in every language.
pub(crate) static TAKING: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| with_languages(POSITIVE_OPENERS, |language| language.take));
/// [`POSITIVE_TURNS`] and each language's turns to the way to take: ", utilise ", "; usa ".
pub(crate) static TURNS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut turns: Vec<String> = POSITIVE_TURNS
        .iter()
        .map(|turn| (*turn).to_owned())
        .collect();
    for language in languages::LANGUAGES {
        for take in language.take {
            for opener in [", ", "; ", ". "] {
                turns.push(format!("{opener}{take} "));
            }
        }
    }
    turns
});
/// [`WRITE_VERBS`] in every language.
pub(crate) static CHANGING: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| with_languages(WRITE_VERBS, |language| language.change));

/// Where the first word or phrase of each list occurs in a text, as a whole word.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cues {
    pub(crate) double_negative: Option<usize>,
    pub(crate) ask: Option<usize>,
    pub(crate) forbid: Option<usize>,
    pub(crate) require: Option<usize>,
    /// "git", "branch", "to main"...
    pub(crate) git_context: Option<usize>,
    pub(crate) sql_phrase: Option<usize>,
}

impl Cues {
    pub(crate) fn of(words: &WordRuns<'_>) -> Cues {
        let [
            double_negative,
            ask,
            forbid,
            require,
            git_context,
            sql_phrase,
        ] = CUES.first_in(words);
        // "Leave INC-4411 alone", "leave `db-prod-2` alone": an order not to touch, whose two
        // words stand apart.
        let forbid = forbid.or_else(|| words.find("alone").and_then(|_| words.find("leave")));
        let forbid = forbid.or_else(|| {
            UNSPACED_FORBID_CUES
                .iter()
                .filter_map(|cue| {
                    // Most texts are ASCII and hold none.
                    (!words.text().is_ascii())
                        .then(|| words.text().find(cue))
                        .flatten()
                })
                .min()
        });
        Cues {
            double_negative,
            ask,
            forbid,
            require,
            git_context,
            sql_phrase,
        }
    }
}
