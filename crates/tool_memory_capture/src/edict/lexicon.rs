//! The word lists of the edict grammar (see `edict.rs`): fillers and lead-ins it skips, the
//! words after a marker that make it a statement or an idiom rather than an order, and the
//! words that are not verbs. Data only, one list per question the grammar asks.

/// Lead-ins of a list of bans, in [`match_form`] without the colon.
pub(crate) const LEAD_INS: &[&str] = &[
    "do not",
    "don't",
    "dont",
    "don'ts",
    "donts",
    "dos and don'ts",
    "never",
    "never do",
    "never do this",
    "never do these",
    "never do the following",
    "do not do the following",
    "don't do the following",
    "forbidden",
    "strictly forbidden",
    "prohibited",
    "not allowed",
    "avoid",
    "things to avoid",
    "you must not",
    "you must never",
    "must not",
    "off limits",
    "off-limits",
    "banned",
    "forbidden actions",
    "forbidden commands",
    "prohibited actions",
    "never run",
    "do not run",
    "don't run",
    "never use",
    "do not use",
    "don't use",
    "never touch",
    "do not touch",
    "don't touch",
    "never edit",
    "do not edit",
    "don't edit",
    // A list that needs a confirmation: each item is a rule to ask first.
    "ask first",
    "ask me first",
    "ask before",
    "ask me before",
    "check with me first",
    "confirm first",
    "needs my ok",
    "needs my okay",
    "needs my approval",
    "need my ok",
    "need my approval",
    "needs approval",
    "requires approval",
    "requires my approval",
    "you should never",
    "you should not",
    "should never",
    "not to",
    "to never",
    "never ever",
    "you never",
    "not permitted",
];

/// How the cell of a table row that sets a policy opens (in match form, a few words at
/// most): "| `git push --force` | never |", "| `helm upgrade` | ask first |", "| `make lint`
/// | always before a commit |". A row with one is a rule about its first cell.
pub(crate) const POLICY_CELLS: &[&str] = &[
    "always",
    "approval required",
    "ask",
    "banned",
    "confirm first",
    "do not",
    "don't",
    "forbidden",
    "frozen",
    "immutable",
    "interdit",
    "mandatory",
    "must",
    "needs approval",
    "needs my",
    "never",
    "no",
    "not allowed",
    "off limits",
    "off-limits",
    "only after",
    "only with",
    "prohibited",
    "read only",
    "read-only",
    "readonly",
    "requires approval",
    "requires my",
    "tabu",
    "verboten",
    "with approval",
    "with my approval",
];

/// Keywords that make a short heading a list of bans: "Banned commands", "Prohibited
/// operations", "Blocked", "Disallowed paths".
pub(crate) const BAN_HEADING_WORDS: &[&str] = &[
    "banned",
    "blocked",
    "denied",
    "disallowed",
    "forbidden",
    "prohibited",
];

/// Phrases that make a heading a list of things that need the user's yes: "Commands that
/// need my approval", "Commands that need a yes from me first".
pub(crate) const APPROVAL_HEADINGS: &[&str] = &[
    "need a yes",
    "needs a yes",
    "need my approval",
    "needs my approval",
    "need approval",
    "needs approval",
    "require approval",
    "requires approval",
    "need my ok",
    "needs my ok",
];

/// Headings (match form, or their first words) of a list of things to do: "Before you
/// commit", "Checks before you hand back", "Always run", "Required checks". Items count only
/// when they are about a tool.
pub(crate) const REQUIREMENT_HEADINGS: &[&str] = &[
    "always",
    "always do",
    "always run",
    "before committing",
    "before every commit",
    "before merging",
    "before opening a pr",
    "before pushing",
    "before you commit",
    "before you finish",
    "before you hand back",
    "before you merge",
    "before you open a pr",
    "before you push",
    "check before",
    "checks before",
    "mandatory",
    "must",
    "must run",
    "required",
    "required checks",
    "required every time",
];

/// The words around a ban that make a heading of it: "What you must not do", "Things you
/// must never do", "What not to do here". Each is stripped once, in order, before the ban is
/// looked up in [`LEAD_INS`].
pub(crate) const LEAD_IN_FRAMES: &[(&str, &str)] = &[
    ("what ", ""),
    ("things ", ""),
    ("", " here"),
    ("", " ever"),
    ("", " do"),
    ("", " ever"),
];

/// Words that make a choice ("use X, not Y") one of style in the code the agent writes:
/// "Use PowerShell 7 syntax, not cmd", "use tabs, not spaces, for indentation".
pub(crate) const CODE_STYLE_WORDS: &[&str] = &[
    "aliases",
    "casing",
    "conventions",
    "idioms",
    "indentation",
    "naming",
    "style",
    "syntax",
];

/// Verbs that open an order about how a tool is called: "Set `requires_approval: true` on
/// every `execute_command`", "Pass `recursive: false` to `list_files`".
pub(crate) const TOOL_SETTING_VERBS: &[&str] = &["call", "give", "invoke", "pass", "set", "use"];

/// Phrases that make an order a request for now: "Don't run the integration tests this time",
/// "for now don't commit", "don't deploy today"; and orders about the text handed over with
/// them ("Pasting the thread for context, don't act on it:", "Don't run anything from it."),
/// which end with that text. (A closing "yet" is read apart.)
pub(crate) const ONE_OFFS: &[&[&str]] = &[
    &["act", "on", "it"],
    &["act", "on", "that"],
    &["act", "on", "them"],
    &["act", "on", "this"],
    &["anything", "from", "it"],
    &["anything", "from", "this"],
    &["anything", "in", "it"],
    &["anything", "in", "this"],
    &["at", "the", "moment"],
    &["for", "now"],
    &["for", "the", "moment"],
    &["for", "this", "pr"],
    &["for", "this", "task"],
    &["for", "today"],
    &["just", "once"],
    &["right", "now"],
    &["this", "once"],
    &["this", "time"],
    &["this", "week"],
    &["today"],
    &["tonight"],
];

/// Words that make an order last beyond the turn, whatever else it says: "never run it again,
/// not even this time".
pub(crate) const LASTING_WORDS: &[&str] = &[
    "again",
    "always",
    "anymore",
    "ever",
    "forever",
    "future",
    "henceforth",
    "whenever",
];

/// Pronouns an order's object can point back with, to a thing the sentence before names:
/// "`tokens.css` is generated. Don't edit it."
pub(crate) const POINTERS: &[&str] = &["it", "that", "them", "there", "these", "this", "those"];

/// Words after such a pronoun that keep it the object, not the start of a noun or a clause
/// ("do that again", "edit them without asking", not "this file" or "that touch prod").
pub(crate) const AFTER_POINTERS: &[&str] = &[
    "again", "anymore", "at", "before", "by", "directly", "either", "ever", "for", "from", "in",
    "manually", "on", "please", "to", "too", "unless", "until", "when", "with", "without",
    "yourself",
];

/// Words a bare intensifier after an order is made of, and nothing else ("Ever.", "Never
/// ever.", "Not once.", "No exceptions.", "I mean it."): it adds no rule of its own, it is
/// part of the order before it.
pub(crate) const INTENSIFIER_WORDS: &[&str] = &[
    "absolutely",
    "again",
    "all",
    "any",
    "at",
    "circumstances",
    "ever",
    "exceptions",
    "i",
    "it",
    "mean",
    "never",
    "no",
    "not",
    "once",
    "period",
    "seriously",
    "under",
    "whatsoever",
];

/// Words that may close a pronoun order after its pronoun ("Don't do it again.", "Never run
/// them yourself."): nothing that names an object of its own.
pub(crate) const POINTER_ORDER_TAILS: &[&str] = &[
    "again", "anymore", "either", "ever", "manually", "please", "too", "yourself",
];

pub(crate) const SETTING_NOUNS: &[&str] = &[
    "mode", "setting", "settings", "option", "flag", "header", "feature", "status", "button",
    "toggle",
];

pub(crate) const POLITE_REQUESTS: &[&str] = &["could you ", "can you ", "would you ", "will you "];

pub(crate) const FILLERS: &[&str] = &[
    "please",
    "still",
    "pls",
    "plz",
    "kindly",
    "and",
    "but",
    "also",
    "so",
    "just",
    "then",
    "oh",
    "ok",
    "okay",
    "btw",
    "hey",
    "again",
    "now",
    "seriously",
    "honestly",
    "really",
    "important",
    "note",
    "nb",
    "ps",
    "actually",
    "guys",
    "alright",
    "look",
    "listen",
    "fyi",
    "yeah",
    "plus",
    "additionally",
    "finally",
    "lastly",
    "reminder",
    "remember",
    "hi",
    "hello",
    "thanks",
    "tip",
    "rule",
    "absolutely",
    "generally",
    "moreover",
    "anyway",
    "anyways",
    "however",
];

pub(crate) const MULTI_FILLERS: &[&[&str]] = &[
    &["one", "more", "thing"],
    &["last", "thing"],
    &["as", "i", "said"],
    &["like", "i", "said"],
    &["as", "i", "mentioned"],
    &["i", "said"],
    &["i", "told", "you", "to"],
    &["i", "told", "you"],
    &["i've", "told", "you", "to"],
    &["i've", "told", "you"],
    &["i", "keep", "telling", "you", "to"],
    &["i", "keep", "telling", "you"],
    &["make", "sure", "that", "you"],
    &["make", "sure", "you"],
    &["make", "sure", "to"],
    &["be", "sure", "to"],
    &["remember", "to"],
    &["for", "the", "record"],
    &["in", "general"],
    &["as", "a", "rule"],
    &["could", "you", "please"],
    &["could", "you"],
    &["can", "you", "please"],
    &["can", "you"],
    &["would", "you", "please"],
    &["would", "you"],
    &["will", "you", "please"],
    &["will", "you"],
];

/// Sentences opening with one of these have a subject, so a conjunction does not start an
/// imperative clause.
pub(crate) const SUBJECTS: &[&str] = &[
    "i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "we'll", "he", "she", "they", "it",
    "it's", "you", "you're", "this", "that", "there", "my", "our", "his", "her", "their",
    "someone", "everyone", "nobody",
];

/// Verbs that make "no `x` …" a statement of fact.
pub(crate) const NO_CODE_FACTS: &[&str] = &[
    "is",
    "are",
    "was",
    "were",
    "exists",
    "exist",
    "found",
    "needed",
    "required",
    "matters",
    "works",
    "yet",
    "anymore",
    "left",
    "here",
    "there",
    "installed",
    "running",
    "since",
];

pub(crate) const NO_MORE_NOT_ORDERS: &[&str] = &[
    "than", "worries", "need", "idea", "excuses", "and", "or", "of", "to",
];

pub(crate) const FORWARD_NOT_ORDERS: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "things",
    "everything",
    "nothing",
    "all",
    "everyone",
    "there",
    "it'll",
    "they'll",
    "we'll",
    "i'll",
    "i'm",
    "we're",
];

pub(crate) const INVERSION_WORDS: &[&str] = &[
    "will", "would", "shall", "do", "did", "does", "am", "have", "had", "i", "we", "is", "was",
    "again", "can", "could", "should",
];

/// Verbs after "don't" that make a statement or a pleasantry, not an order ("don't worry",
/// "don't know"); "don't forget" is a reminder about the task at hand.
pub(crate) const DONT_NOT_ORDERS: &[&str] = &[
    "worry",
    "know",
    "think",
    "care",
    "understand",
    "remember",
    "mind",
    "mean",
    "see",
    "need",
    "want",
    "like",
    "feel",
    "recall",
    "believe",
    "agree",
    "expect",
    "suppose",
    "guess",
    "hesitate",
    "panic",
    "sweat",
    "judge",
    "laugh",
    "forget",
    "even",
    "you",
    "always",
    "usually",
    "have",
    "seem",
    "recognize",
    "recognise",
    "wanna",
    "matter",
    "hate",
    "love",
    "own",
    "sound",
    "trip",
    "freak",
    "stress",
    "fret",
];

pub(crate) const DONT_IDIOMS: &[&[&str]] = &[
    &["mention", "it"],
    &["tell", "me"],
    &["ask", "$"],
    &["ask", "why"],
    &["ask", "me", "why"],
    &["ask", "how"],
    &["quote", "me"],
    &["blame", "me"],
    &["count", "on"],
    &["take", "it", "personally"],
    &["take", "this", "the", "wrong", "way"],
    &["take", "it", "the", "wrong", "way"],
    &["go", "there"],
    &["get", "me", "wrong"],
    &["get", "me", "started"],
    &["get", "it", "twisted"],
    &["look", "at", "me"],
    &["bother", "$"],
    &["push", "it", "$"],
    &["push", "your", "luck"],
    &["hold", "your", "breath"],
    &["make", "me", "laugh"],
    &["let", "me", "down"],
    &["let", "it", "bother"],
    &["give", "up"],
    &["rush", "$"],
    &["stop", "$"],
];

pub(crate) const BE_IDIOMS: &[&str] = &[
    "silly",
    "sorry",
    "shy",
    "afraid",
    "scared",
    "ridiculous",
    "dramatic",
    "a",
    "an",
    "such",
    "stupid",
    "mad",
    "upset",
    "nervous",
    "like",
    "that",
    "sad",
];

pub(crate) const ING_NOT_GERUNDS: &[&str] = &[
    "thing",
    "things",
    "nothing",
    "anything",
    "something",
    "everything",
    "string",
    "spring",
    "during",
    "morning",
    "evening",
    "ceiling",
    "pudding",
    "swing",
    "sting",
    "bring",
    "cling",
    "fling",
    "wring",
];

/// Words after "always" that describe rather than order ("always happy to help").
pub(crate) const ALWAYS_NOT_ORDERS: &[&str] = &[
    "happy",
    "glad",
    "good",
    "nice",
    "fun",
    "great",
    "busy",
    "late",
    "sorry",
    "ready",
    "welcome",
    "right",
    "wrong",
    "interesting",
    "same",
    "hard",
    "easy",
    "funny",
    "weird",
    "annoying",
    "something",
    "someone",
    "somebody",
    "true",
    "fine",
    "useful",
    "helpful",
    "about",
    "like",
    "been",
    "a",
    "the",
    "one",
    "there",
    "here",
];

/// Nouns for the agent, with or without an article.
pub(crate) const AGENT_NOUNS: &[&str] = &[
    "ai",
    "agent",
    "agents",
    "assistant",
    "assistants",
    "model",
    "llm",
    "bot",
    "bots",
];

/// Names of coding agents that stand as a subject without an article.
pub(crate) const AGENT_NAMES: &[&str] = &[
    "claude", "copilot", "gemini", "cline", "codex", "windsurf", "cascade",
];

pub(crate) const BASE_VERBS_IN_ED: &[&str] = &[
    "need", "feed", "heed", "proceed", "exceed", "succeed", "embed", "shed", "shred", "wed",
    "bleed", "breed", "seed", "speed", "weed", "bed", "shred", "reseed",
];

pub(crate) const NOT_VERBS: &[&str] = &[
    "i",
    "me",
    "my",
    "mine",
    "you",
    "your",
    "yours",
    "we",
    "us",
    "our",
    "he",
    "him",
    "his",
    "she",
    "her",
    "they",
    "them",
    "their",
    "it",
    "its",
    "it's",
    "that's",
    "there",
    "this",
    "that",
    "these",
    "those",
    "the",
    "a",
    "an",
    "no",
    "not",
    "to",
    "too",
    "so",
    "for",
    "in",
    "on",
    "at",
    "of",
    "with",
    "without",
    "by",
    "from",
    "about",
    "as",
    "than",
    "yet",
    "enough",
    "once",
    "before",
    "after",
    "mind",
    "even",
    "ending",
    "is",
    "am",
    "are",
    "was",
    "were",
    "been",
    "being",
    "will",
    "would",
    "could",
    "should",
    "shall",
    "can",
    "may",
    "might",
    "must",
    "has",
    "had",
    "did",
    "does",
    "said",
    "knew",
    "thought",
    "saw",
    "heard",
    "got",
    "went",
    "came",
    "seen",
    "gone",
    "done",
    "made",
    "told",
    "took",
    "found",
    "felt",
    "left",
    "meant",
    "understood",
    "wrote",
    "ran",
    "sent",
    "bought",
    "brought",
    "caught",
    "taught",
    "lost",
    "won",
    "forgot",
    "forgotten",
    "gave",
    "given",
    "spoke",
    "broke",
    "broken",
    "chose",
    "ate",
    "drank",
    "slept",
    "kept",
    "met",
    "paid",
    "built",
    "became",
    "began",
    "held",
    "stood",
    "sat",
    "known",
    "grew",
    "flew",
    "drove",
    "threw",
    "wore",
    "woke",
    "fell",
    "happen",
    "more",
    "less",
    "far",
    "late",
    "well",
    "better",
    "quite",
    "really",
    "again",
    "ever",
    "true",
    "mine",
    "here",
    "works",
    "fails",
    "gets",
    "dull",
    "easy",
    "good",
    "fun",
    "same",
    "like",
    "yes",
    "too",
    "ok",
    "okay",
    "sure",
    "either",
    "neither",
    "nor",
    "or",
    "and",
    "but",
    "if",
    "when",
    "ago",
    "today",
    "tomorrow",
    "yesterday",
    "anyone",
    "anything",
    "something",
    "nothing",
    "everything",
    "please",
    "thanks",
];

/// Openings that grant the agent something, after which "but" turns to a ban of its own even
/// without a comma: "You may read the logs but never restart the service".
pub(crate) const PERMISSION_OPENERS: &[&[&str]] = &[
    &["you", "may"],
    &["you", "can"],
    &["you", "are", "allowed", "to"],
    &["you're", "allowed", "to"],
    &["you", "are", "free", "to"],
    &["you're", "free", "to"],
    &["feel", "free", "to"],
];

/// The openers of a standing order: "from now on", "going forward" and friends.
pub(crate) const FORWARD_PHRASES: &[&[&str]] = &[
    &["from", "now", "on"],
    &["from", "now", "onwards"],
    &["from", "now", "onward"],
    &["from", "here", "on", "out"],
    &["from", "here", "on"],
    &["from", "today", "on"],
    &["from", "today", "onwards"],
    &["going", "forward"],
    &["moving", "forward"],
    &["in", "the", "future"],
    &["in", "future"],
    &["henceforth"],
    &["hereafter"],
    // Spanish, German, French: "A partir de ahora no hagas …", "Ab sofort …", "Désormais …".
    &["a", "partir", "de", "ahora"],
    &["de", "ahora", "en", "adelante"],
    &["desde", "ahora"],
    &["ab", "sofort"],
    &["ab", "jetzt"],
    &["à", "partir", "de", "maintenant"],
    &["désormais"],
    &["dorénavant"],
];

/// The words a filler opens with: each of [`FILLERS`] and the first word of each of
/// [`MULTI_FILLERS`] (none of which opens with the `$` of `matches_at`).
pub(crate) fn filler_openers() -> impl Iterator<Item = &'static str> {
    let firsts = MULTI_FILLERS.iter().filter_map(|sequence| sequence.first());
    FILLERS.iter().chain(firsts).copied()
}

/// "Never" opening an order in German and Spanish ("Niemals `terraform destroy` ausführen",
/// "Nunca ejecutes `rm -rf`"). French says it around the verb ("Ne lance jamais …"), which
/// `marker_at` reads from `ne`. One small list per language, lower-case.
pub(crate) const FOREIGN_NEVER: &[&str] = &["nie", "niemals", "nunca"];

/// "Use" opening a choice that bans the other ("usa `pnpm`, nunca `npm`").
pub(crate) const FOREIGN_USE: &[&str] = &["usa", "utilise", "utilisez", "verwende"];

/// "Ask me" and the word for "before" that makes it an ask-first order ("Demande-moi avant de
/// pousser", "Pregúntame antes de borrar nada", "Frag mich vor jedem Push").
pub(crate) const FOREIGN_ASK_FIRST: &[(&str, &str)] = &[
    ("demande-moi", "avant"),
    ("demandez-moi", "avant"),
    ("frag", "vor"),
    ("pregúntame", "antes"),
    ("preguntame", "antes"),
];

/// "Never" after a comma in a choice, in the languages above ("usa X, nunca Y").
pub(crate) const FOREIGN_NOT: &[&str] = &["jamais", "nicht", "nie", "niemals", "nunca", "pas"];

/// Every word the edict grammar's `marker_at` can find a marker at: the words its cases open with, the agent's
/// names and nouns (a subject of an order in the third person, after an article or not) and
/// the first word of each opener of a standing order ("from now on").
pub(crate) fn marker_openers() -> impl Iterator<Item = &'static str> {
    let openers = [
        "never", "don't", "dont", "do", "stop", "always", "you", "you're", "no", "leave", "avoid",
        "i'd", "i", "under", "only", "check", "confirm", "consult", "clear", "talk", "ask", "get",
        "use", "the", "an", "any", "prefer", "nobody", "not", "is", "run", "call", "invoke",
    ];
    let other_languages = FOREIGN_NEVER
        .iter()
        .chain(FOREIGN_USE)
        .chain(FOREIGN_ASK_FIRST.iter().map(|(ask, _)| ask))
        .chain(["ne", "pas", "jamais"].iter())
        .copied();
    let forward = FORWARD_PHRASES
        .iter()
        .filter_map(|phrase| phrase.first().copied());
    openers
        .into_iter()
        .chain(other_languages)
        .chain(AGENT_NOUNS.iter().copied())
        .chain(AGENT_NAMES.iter().copied())
        .chain(forward)
}

/// Openings of advice about the rules themselves, not about a tool: "If a rule blocks you,
/// stop and tell me — don't look for a workaround", "When a hook stops a call, …". Such a
/// sentence is a meta-instruction, neither the user's rule nor material's proposal.
pub(crate) const META_OPENINGS: &[&[&str]] = &[
    &["if", "a", "guard"],
    &["if", "a", "hook"],
    &["if", "a", "rule"],
    &["if", "any", "rule"],
    &["if", "one", "of", "my", "rules"],
    &["if", "something", "blocks", "you"],
    &["if", "the", "guard"],
    &["if", "the", "rule"],
    &["if", "you", "are", "blocked"],
    &["if", "you're", "blocked"],
    &["when", "a", "guard"],
    &["when", "a", "hook"],
    &["when", "a", "rule"],
];

/// Verbs that open an order about the agent's reply ("Summarise results over 100 rows, …").
pub(crate) const REPLY_VERBS: &[&str] = &[
    "describe",
    "explain",
    "paraphrase",
    "summarise",
    "summarize",
];

/// Ways of writing a reply that such an order bans ("…, don't paste them", "don't dump it").
pub(crate) const REPLY_BANS: &[&str] = &["dump", "include", "list", "paste", "quote", "repeat"];
