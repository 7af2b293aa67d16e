//! One table of every word the grammars look up one at a time, built once: for each word, the
//! word lists ([`Sets`]) that hold it. The tokenizer ([`crate::tokens`]) looks each word of a
//! sentence up here once, so a grammar asking "is this a speech verb? a filler? a rules noun?"
//! tests a bit instead of searching a list, and a pass can tell from the bits of a sentence's
//! words whether it holds any word it needs at all before it reads the sentence.
//!
//! The lists themselves stay data in each grammar's own `lexicon.rs`; this module only says
//! which list is which bit. Phrases (lists of word sequences) are matched word by word at a
//! position by the phrase helpers; where a pass needs a quick test for them, a set holds their
//! first or last words.

use std::ops::BitOr;
use std::sync::LazyLock;

use crate::hash::{FxHashMap, WordMap};

/// The word lists a word belongs to, one bit per list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sets(u64);

impl Sets {
    /// No list.
    pub(crate) const NONE: Sets = Sets(0);

    const fn bit(index: u32) -> Sets {
        Sets(1 << index)
    }

    /// Whether any list of `other` is one of these.
    pub(crate) const fn any(self, other: Sets) -> bool {
        self.0 & other.0 != 0
    }
}

impl BitOr for Sets {
    type Output = Sets;

    fn bitor(self, other: Sets) -> Sets {
        Sets(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Sets {
    fn bitor_assign(&mut self, other: Sets) {
        self.0 |= other.0;
    }
}

// Words every pass reads alike.
/// [`crate::text::SPEECH_VERBS`].
pub(crate) const SPEECH: Sets = Sets::bit(0);

// The edict grammar (`edict/lexicon.rs`).
/// `SUBJECTS`: a sentence opening with one has a subject.
pub(crate) const SUBJECT: Sets = Sets::bit(1);
/// `FILLERS`: single-word polite lead-ins.
pub(crate) const FILLER: Sets = Sets::bit(2);
/// Each filler and the first word of each multi-word filler.
pub(crate) const FILLER_OPENER: Sets = Sets::bit(3);
/// `NOT_VERBS`: words that are never an imperative verb.
pub(crate) const NOT_VERB: Sets = Sets::bit(4);
/// `ING_NOT_GERUNDS`: words in `-ing` that are not gerunds ("bring").
pub(crate) const ING_NOT_GERUND: Sets = Sets::bit(5);
/// `BASE_VERBS_IN_ED`: verbs in `-ed` that are base forms ("embed").
pub(crate) const BASE_VERB_IN_ED: Sets = Sets::bit(6);
/// `DONT_NOT_ORDERS`: words after "don't" that make a pleasantry.
pub(crate) const DONT_NOT_ORDER: Sets = Sets::bit(7);
/// `BE_IDIOMS`: words after "don't be" that make an idiom.
pub(crate) const BE_IDIOM: Sets = Sets::bit(8);
/// `ALWAYS_NOT_ORDERS`: words after "always" that describe.
pub(crate) const ALWAYS_NOT_ORDER: Sets = Sets::bit(9);
/// `INVERSION_WORDS`: words after "never again" that make an inversion.
pub(crate) const INVERSION: Sets = Sets::bit(10);
/// `NO_MORE_NOT_ORDERS`: words after "no more" that make a statement.
pub(crate) const NO_MORE_NOT_ORDER: Sets = Sets::bit(11);
/// `FORWARD_NOT_ORDERS`: words after "from now on" that make a statement.
pub(crate) const FORWARD_NOT_ORDER: Sets = Sets::bit(12);
/// `NO_CODE_FACTS`: verbs that make "no `x` …" a fact.
pub(crate) const NO_CODE_FACT: Sets = Sets::bit(13);
/// `AGENT_NOUNS`: nouns for the agent.
pub(crate) const AGENT_NOUN: Sets = Sets::bit(14);
/// `AGENT_NAMES`: names of coding agents.
pub(crate) const AGENT_NAME: Sets = Sets::bit(15);

// Markerless standing rules (`standing.rs`).
/// Subjects that make a sentence about the user or a fact.
pub(crate) const FIRST_PERSON_WORD: Sets = Sets::bit(16);
/// Copulas before a ban ("is", "remains").
pub(crate) const COPULA: Sets = Sets::bit(17);
/// Adverbs between a copula and a ban ("strictly").
pub(crate) const INTENSIFIER: Sets = Sets::bit(18);
/// Words of a permission an exception can follow ("fine", "ok").
pub(crate) const PERMITTING_WORD: Sets = Sets::bit(19);
/// The first word of each phrase that keeps an action for the user's approval ("needs").
pub(crate) const GATE_OPENER: Sets = Sets::bit(34);
/// `SETTING_NOUNS`: nouns whose name may hold a marker ("Do not disturb mode").
pub(crate) const SETTING_NOUN: Sets = Sets::bit(35);
/// Every word an edict's marker can open with ([`crate::edict::marker_openers`]).
pub(crate) const MARKER_OPENER: Sets = Sets::bit(36);
/// `POINTERS`: pronouns an order's object can point back with ("don't edit it").
pub(crate) const POINTER: Sets = Sets::bit(37);
/// `AFTER_POINTERS`: words after such a pronoun that keep it the object ("do that again").
pub(crate) const AFTER_POINTER_WORD: Sets = Sets::bit(38);
/// The first word of each phrase of `ONE_OFFS` ("this", "for", "right") and "yet".
pub(crate) const ONE_OFF_OPENER: Sets = Sets::bit(39);
/// `LASTING_WORDS`: words that make an order last beyond the turn ("again", "ever").
pub(crate) const LASTING: Sets = Sets::bit(40);

// The revocation grammar (`revocation/lexicon.rs`).
/// Words of which every revocation holds one.
pub(crate) const REVOCATION_TRIGGER: Sets = Sets::bit(20);

// The material pass (`material/lexicon.rs`).
/// Words of which every introduction holds one.
pub(crate) const INTRO_TRIGGER: Sets = Sets::bit(21);
/// `ADOPT_VERBS`.
pub(crate) const ADOPT_VERB: Sets = Sets::bit(22);
/// `ADOPT_VERBS_WITH_RULES`.
pub(crate) const ADOPT_VERB_WITH_RULES: Sets = Sets::bit(23);
/// `RULES_NOUNS`.
pub(crate) const RULES_NOUN: Sets = Sets::bit(24);
/// `MATERIAL_NOUNS`.
pub(crate) const MATERIAL_NOUN: Sets = Sets::bit(25);
/// `PROCESS_VERBS`.
pub(crate) const PROCESS_VERB: Sets = Sets::bit(26);
/// `PROCESS_NOUNS`.
pub(crate) const PROCESS_NOUN: Sets = Sets::bit(27);
/// `QUESTION_OPENERS`.
pub(crate) const QUESTION_OPENER: Sets = Sets::bit(28);
/// `NOT_INTRO_OPENERS`.
pub(crate) const NOT_INTRO_OPENER: Sets = Sets::bit(29);
/// `FORWARD_POINTERS`.
pub(crate) const FORWARD_POINTER: Sets = Sets::bit(30);
/// `TIME_WORDS`.
pub(crate) const TIME_WORD: Sets = Sets::bit(31);
/// `AFTER_POINTER`.
pub(crate) const AFTER_POINTER: Sets = Sets::bit(32);
/// `PRESENTERS`.
pub(crate) const PRESENTER: Sets = Sets::bit(33);

/// Every registered word and its lists.
static TABLE: LazyLock<WordMap<Sets>> = LazyLock::new(|| {
    let mut words: FxHashMap<&'static str, Sets> = FxHashMap::default();
    for (sets, word) in registered() {
        *words.entry(word).or_default() |= sets;
    }
    WordMap::new(words)
});

/// Which list each word of each grammar's lexicon is in.
fn registered() -> impl Iterator<Item = (Sets, &'static str)> {
    let lists: [(Sets, &[&'static str]); 34] = [
        (SPEECH, crate::text::SPEECH_VERBS),
        (SUBJECT, crate::edict::lexicon::SUBJECTS),
        (FILLER, crate::edict::lexicon::FILLERS),
        (NOT_VERB, crate::edict::lexicon::NOT_VERBS),
        (ING_NOT_GERUND, crate::edict::lexicon::ING_NOT_GERUNDS),
        (BASE_VERB_IN_ED, crate::edict::lexicon::BASE_VERBS_IN_ED),
        (DONT_NOT_ORDER, crate::edict::lexicon::DONT_NOT_ORDERS),
        (BE_IDIOM, crate::edict::lexicon::BE_IDIOMS),
        (ALWAYS_NOT_ORDER, crate::edict::lexicon::ALWAYS_NOT_ORDERS),
        (INVERSION, crate::edict::lexicon::INVERSION_WORDS),
        (NO_MORE_NOT_ORDER, crate::edict::lexicon::NO_MORE_NOT_ORDERS),
        (FORWARD_NOT_ORDER, crate::edict::lexicon::FORWARD_NOT_ORDERS),
        (NO_CODE_FACT, crate::edict::lexicon::NO_CODE_FACTS),
        (AGENT_NOUN, crate::edict::lexicon::AGENT_NOUNS),
        (AGENT_NAME, crate::edict::lexicon::AGENT_NAMES),
        (SETTING_NOUN, crate::edict::lexicon::SETTING_NOUNS),
        (POINTER, crate::edict::lexicon::POINTERS),
        (AFTER_POINTER_WORD, crate::edict::lexicon::AFTER_POINTERS),
        (LASTING, crate::edict::lexicon::LASTING_WORDS),
        (FIRST_PERSON_WORD, crate::standing::lexicon::FIRST_PERSON),
        (COPULA, crate::standing::lexicon::COPULAS),
        (INTENSIFIER, crate::standing::lexicon::INTENSIFIERS),
        (PERMITTING_WORD, crate::standing::lexicon::PERMITTING),
        (ADOPT_VERB, crate::material::lexicon::ADOPT_VERBS),
        (
            ADOPT_VERB_WITH_RULES,
            crate::material::lexicon::ADOPT_VERBS_WITH_RULES,
        ),
        (RULES_NOUN, crate::material::lexicon::RULES_NOUNS),
        (MATERIAL_NOUN, crate::material::lexicon::MATERIAL_NOUNS),
        (PROCESS_VERB, crate::material::lexicon::PROCESS_VERBS),
        (PROCESS_NOUN, crate::material::lexicon::PROCESS_NOUNS),
        (QUESTION_OPENER, crate::material::lexicon::QUESTION_OPENERS),
        (
            NOT_INTRO_OPENER,
            crate::material::lexicon::NOT_INTRO_OPENERS,
        ),
        (FORWARD_POINTER, crate::material::lexicon::FORWARD_POINTERS),
        (TIME_WORD, crate::material::lexicon::TIME_WORDS),
        (AFTER_POINTER, crate::material::lexicon::AFTER_POINTER),
    ];
    let presenters = crate::material::lexicon::PRESENTERS
        .iter()
        .map(|word| (PRESENTER, *word));
    let one_offs = crate::edict::lexicon::ONE_OFFS
        .iter()
        .filter_map(|phrase| phrase.first())
        .chain(&["yet"])
        .map(|word| (ONE_OFF_OPENER, *word));
    let gates = crate::standing::lexicon::GATE_PHRASES
        .iter()
        .filter_map(|phrase| phrase.first())
        .map(|word| (GATE_OPENER, *word));
    lists
        .into_iter()
        .flat_map(|(sets, words)| words.iter().map(move |word| (sets, *word)))
        .chain(presenters)
        .chain(gates)
        .chain(one_offs)
        .chain(crate::edict::lexicon::filler_openers().map(|word| (FILLER_OPENER, word)))
        .chain(crate::revocation::lexicon::trigger_words().map(|word| (REVOCATION_TRIGGER, word)))
        .chain(crate::edict::lexicon::marker_openers().map(|word| (MARKER_OPENER, word)))
        .chain(crate::material::lexicon::trigger_words().map(|word| (INTRO_TRIGGER, word)))
}

/// The lists `word` (in match form) is in.
pub(crate) fn sets_of(word: &str) -> Sets {
    TABLE.get(word.as_bytes()).unwrap_or(Sets::NONE)
}

/// [`sets_of`] of a word as bytes.
pub(crate) fn sets_of_bytes(word: &[u8]) -> Sets {
    TABLE.get(word).unwrap_or(Sets::NONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_in_the_lists_that_hold_it_and_no_other() {
        let mut checked = 0;
        for (sets, word) in registered() {
            assert!(sets_of(word).any(sets), "{word:?}");
            checked += 1;
        }
        assert!(checked > 500, "{checked}");
        assert_eq!(sets_of("xyzzy"), Sets::NONE);
        // Words one byte apart, of every length the keys are read in, and an empty one.
        for word in [
            "",
            "q",
            "qx",
            "qxz",
            "qxzq",
            "qxzqxzq",
            "qxzqxzqx",
            "qxzqxzqxzqxzqxzq",
        ] {
            assert_eq!(sets_of(word), Sets::NONE, "{word:?}");
        }
        // A word of a list, and the words one byte longer or shorter.
        assert!(sets_of("said").any(SPEECH));
        assert_eq!(sets_of("saids"), Sets::NONE);
        assert_eq!(sets_of("sai"), Sets::NONE);
        assert!(sets_of("instructions").any(RULES_NOUN));
        assert_eq!(sets_of("instructionz"), Sets::NONE);
        assert!(sets_of("said").any(SPEECH));
        assert!(!sets_of("said").any(FILLER | COPULA));
        // Each registered set is a bit of its own.
        assert_eq!(PRESENTER, Sets(1 << 33));
    }
}
