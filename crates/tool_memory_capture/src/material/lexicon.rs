//! The word lists of the material pass (see `material.rs`), one list per question the pass
//! asks. Each list is sorted and holds lower-case words in capture's match form, so a lookup is
//! a binary search; a unit test keeps every list sorted and free of duplicates. The phrase
//! lists at the end are matched word by word at a position, so they keep reading order.

use crate::text::SPEECH_VERBS;

/// Whether `word` is in the sorted `list`.
pub(crate) fn has(list: &[&str], word: &str) -> bool {
    list.binary_search(&word).is_ok()
}

/// Verbs with which a user hands text over to be worked on: "summarise this", "reply to
/// this", "please proofread:". Base forms only:
/// requests are imperatives or follow "can you", "help me", "I need you to". "Check" and "read"
/// belong here because "check this:" and "read this:" hand material over; what follows them
/// must still point at material (see `material.rs`). "Import", "convert", "turn" (… into), "transform"
/// work on a text or data handed over ("Import this CSV into a table plan:"); "fix" works on
/// one's wording ("Fix the grammar of the runbook I drafted below."), and so do "tidy",
/// "clarify" and "spellcheck" ("Could you tidy up the wording of the notes below?").
pub(crate) const PROCESS_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "annotate",
    "answer",
    "assess",
    "check",
    "clarify",
    "condense",
    "convert",
    "correct",
    "critique",
    "decipher",
    "decode",
    "digest",
    "edit",
    "evaluate",
    "explain",
    "fact-check",
    "fix",
    "grade",
    "import",
    "improve",
    "interpret",
    "paraphrase",
    "parse",
    "polish",
    "proof-read",
    "proofread",
    "read",
    "reformat",
    "rephrase",
    "reply",
    "respond",
    "review",
    "reword",
    "rewrite",
    "shorten",
    "simplify",
    "spell-check",
    "spellcheck",
    "summarise",
    "summarize",
    "tabulate",
    "tidy",
    "transform",
    "translate",
    "turn",
];

/// Nouns that stand for those verbs. They hand material over only with a pointer ("summary of
/// this thread:", "feedback on the following"): alone before a colon they head the user's own
/// words ("TL;DR: never deploy on Fridays").
pub(crate) const PROCESS_NOUNS: &[&str] = &["feedback", "summary", "tldr", "translation"];

/// Verbs with which a user adopts what follows as their own instructions: "follow these",
/// "remember this:", "obey it". They count with a pronoun object (`it`, `this`, `these`,
/// `them`, `the following`); verbs such as "add", "save" or "use" count only with a rules noun
/// (`RULES_NOUNS`), because "add this to the email:" hands material over.
pub(crate) const ADOPT_VERBS: &[&str] = &[
    "abide",
    "adopt",
    "follow",
    "honor",
    "honour",
    "internalise",
    "internalize",
    "learn",
    "memorise",
    "memorize",
    "obey",
    "remember",
    "respect",
];

/// Words that make a possessive someone else's, not the user's: "his CLAUDE.md", "their
/// AGENTS.md". A possessive in `'s` is someone else's unless its owner is one of
/// [`OWN_POSSESSORS`] ("my teammate's CLAUDE.md" is the teammate's).
pub(crate) const OTHERS_POSSESSIVES: &[&str] = &["his", "her", "their"];

/// Owners in `'s` that keep a rules file the user's: the project's, the team's, the agent's
/// ("Cline's rules" are the user's rules for Cline), and the contractions that are no
/// possessive at all ("here's", "it's", "let's").
pub(crate) const OWN_POSSESSORS: &[&str] = &[
    "agent",
    "ai",
    "aider",
    "app",
    "assistant",
    "bot",
    "claude",
    "cline",
    "codebase",
    "codex",
    "company",
    "copilot",
    "cursor",
    "gemini",
    "he",
    "here",
    "it",
    "let",
    "model",
    "monorepo",
    "org",
    "organisation",
    "organization",
    "our",
    "project",
    "repo",
    "repository",
    "roo",
    "service",
    "she",
    "team",
    "that",
    "there",
    "what",
    "where",
    "who",
    "windsurf",
    "workspace",
];

/// Verbs that adopt instructions only when a rules noun says so: "add these to your rules",
/// "save these instructions", "use these rules".
pub(crate) const ADOPT_VERBS_WITH_RULES: &[&str] =
    &["add", "apply", "keep", "save", "store", "use"];

/// Nouns for a set of standing instructions: "my rules are:", "follow these instructions:",
/// "house rules". Not "requirements" or "notes": those are as often a document to work on.
pub(crate) const RULES_NOUNS: &[&str] = &[
    "constraints",
    "conventions",
    "directives",
    "guidance",
    "guideline",
    "guidelines",
    "instruction",
    "instructions",
    "policies",
    "preferences",
    "principles",
    "rule",
    "rulebook",
    "rules",
];

/// Names of files that hold an agent's standing instructions, matched as substrings of the
/// match form: "here is my CLAUDE.md, follow it:".
pub(crate) const RULES_FILES: &[&str] = &[
    ".clinerules",
    ".cursorrules",
    ".windsurfrules",
    "agents.md",
    "claude.md",
    "conventions.md",
    "copilot-instructions",
    "cursorrules",
    "custom instructions",
    "gemini.md",
    "rules.md",
    "system prompt",
];

/// Nouns that name a piece of text someone else wrote: the object of a hand-over ("summarise
/// this thread", "here is the email:", "what does this page say?"), also a Q&A site's answer,
/// a commit and a draft ("what does this commit do?"). Not the names of instruction documents
/// ("policy", "runbook"): "here is our runbook:" presents the user's own steps as often as
/// someone else's.
pub(crate) const MATERIAL_NOUNS: &[&str] = &[
    "announcement",
    "answer",
    "answers",
    "article",
    "blog",
    "caption",
    "changelog",
    "chat",
    "comment",
    "comments",
    "commit",
    "commits",
    "content",
    "contents",
    "conversation",
    "description",
    "diff",
    "discussion",
    "dm",
    "doc",
    "docs",
    "document",
    "documentation",
    "draft",
    "drafts",
    "e-mail",
    "email",
    "emails",
    "essay",
    "excerpt",
    "exchange",
    "extract",
    "faq",
    "forward",
    "guide",
    "headline",
    "letter",
    "log",
    "logs",
    "mail",
    "manual",
    "memo",
    "message",
    "messages",
    "minutes",
    "msg",
    "newsletter",
    "note",
    "notes",
    "notice",
    "page",
    "paragraph",
    "paragraphs",
    "passage",
    "patch",
    "poem",
    "post",
    "proposal",
    "quote",
    "readme",
    "reply",
    "report",
    "response",
    "review",
    "section",
    "sentence",
    "sentences",
    "site",
    "snippet",
    "speech",
    "statement",
    "story",
    "text",
    "texts",
    "thread",
    "ticket",
    "transcript",
    "tweet",
    "webpage",
    "website",
    "wiki",
    "writeup",
];

/// Words that point at text that follows: "summarise this", "the following", "below".
pub(crate) const FORWARD_POINTERS: &[&str] = &["below", "following", "these", "this"];

/// Words after "this" that make it about time, not about a text: "summarise this week's
/// emails" asks for a search, it hands nothing over.
pub(crate) const TIME_WORDS: &[&str] = &[
    "afternoon",
    "evening",
    "month",
    "month's",
    "morning",
    "quarter",
    "quarter's",
    "sprint",
    "sprint's",
    "time",
    "week",
    "week's",
    "weekend",
    "year",
    "year's",
];

/// Words that may follow a pointer that stands alone as the object of a hand-over ("summarise
/// this for me", "translate this into German", "read this please").
pub(crate) const AFTER_POINTER: &[&str] = &[
    "as",
    "below",
    "carefully",
    "for",
    "from",
    "in",
    "into",
    "please",
    "pls",
    "quickly",
    "real",
    "to",
];

/// Words that open a presentation of material before a colon: "here is the email:", "I got
/// this message:", "pasting the thread:".
pub(crate) const PRESENTERS: &[&str] = &[
    "attached",
    "below",
    "forwarding",
    "got",
    "here",
    "here's",
    "heres",
    "pasted",
    "pasting",
    "received",
    "see",
    "sharing",
];

/// First words of a clause that make it a condition or an aside, never an introduction: "when
/// asked to review this code: …" is a standing order about future work, "re the email: …" is
/// an order about a topic.
pub(crate) const NOT_INTRO_OPENERS: &[&str] = &[
    "about",
    "after",
    "before",
    "for",
    "if",
    "in",
    "once",
    "re",
    "regarding",
    "unless",
    "when",
    "whenever",
    "while",
];

/// First words of a question that asks about material ("what does this page say?", "is this
/// email legit?", "how should I answer this message?").
pub(crate) const QUESTION_OPENERS: &[&str] = &[
    "any", "are", "can", "could", "does", "how", "is", "thoughts", "what", "what's", "whats",
    "which", "who", "why",
];

/// Labels before a colon that head a line rather than name a speaker ("Note: …", "Rules: …",
/// "Important: …"), so two of them do not make a chat transcript. Tool and kind-of-tool words
/// ("Email:", "Shell:") are also headings; those come from the alias table.
pub(crate) const HEADING_LABELS: &[&str] = &[
    "action",
    "also",
    "always",
    "answer",
    "background",
    "bonus",
    "bug",
    "caution",
    "cc",
    "context",
    "critical",
    "date",
    "do",
    "don't",
    "done",
    "edit",
    "error",
    "example",
    "expected",
    "finally",
    "first",
    "fix",
    "from",
    "fyi",
    "goal",
    "high",
    "important",
    "info",
    "input",
    "issue",
    "lastly",
    "low",
    "nb",
    "never",
    "next",
    "no",
    "note",
    "notes",
    "ok",
    "output",
    "p.s.",
    "priority",
    "problem",
    "ps",
    "q",
    "question",
    "re",
    "reason",
    "reminder",
    "result",
    "rule",
    "rules",
    "second",
    "sent",
    "solution",
    "status",
    "step",
    "subject",
    "summary",
    "task",
    "then",
    "third",
    "tip",
    "to",
    "todo",
    "update",
    "urgent",
    "warning",
    "why",
    "yes",
];

/// E-mail header names: two different ones within a few lines open an e-mail.
pub(crate) const HEADER_NAMES: &[&str] = &[
    "bcc", "cc", "date", "from", "reply-to", "sent", "subject", "to",
];

// Phrases, in token order: not sorted, since they are matched at a position.

/// Lead-ins of a request that are not its verb: "please", "can you", "I need you to".
pub(super) const REQUEST_LEADS: &[&[&str]] = &[
    &["can", "you", "please"],
    &["can", "you"],
    &["could", "you", "please"],
    &["could", "you"],
    &["would", "you", "please"],
    &["would", "you"],
    &["will", "you"],
    &["i", "need", "you", "to"],
    &["i", "want", "you", "to"],
    &["i'd", "like", "you", "to"],
    &["help", "me"],
    &["please"],
    &["pls"],
    &["kindly"],
    &["ok"],
    &["okay"],
    &["so"],
    &["and"],
    &["also"],
    &["now"],
    &["hey"],
    &["hi"],
    &["then"],
    &["quickly"],
];

/// Phrases that ask for an opinion on material, so a bare pointer is enough ("what do you
/// think of this?").
pub(super) const OPINION_PHRASES: &[&[&str]] = &[
    &["what", "do", "you", "think"],
    &["what", "do", "you", "make", "of"],
    &["thoughts", "on"],
    &["any", "thoughts"],
    &["make", "sense", "of"],
    &["look", "at"],
    &["go", "through"],
    &["go", "over"],
    &["comment", "on"],
];

/// Phrases that adopt what follows without a verb of the lexicon.
pub(super) const ADOPT_PHRASES: &[&[&str]] =
    &[&["keep", "in", "mind"], &["stick", "to"], &["take", "note"]];

/// Phrases that make an adoption standing rather than one-off.
pub(super) const STANDING_PHRASES: &[&[&str]] = &[
    &["from", "now", "on"],
    &["going", "forward"],
    &["moving", "forward"],
    &["henceforth"],
    &["in", "future"],
    &["in", "the", "future"],
    &["from", "here", "on"],
];

/// Standing-order openers that, alone before a colon, introduce the user's rules.
pub(super) const FORWARD_PHRASES: &[&[&str]] = &[
    &["from", "now", "on"],
    &["going", "forward"],
    &["moving", "forward"],
    &["henceforth"],
    &["in", "future"],
    &["in", "the", "future"],
    &["remember"],
];

/// Every word that some way of introducing needs (the introduction grammar (`clause_intro`) returns nothing for a
/// clause without one): adopting verbs and phrases, rules and material nouns, request verbs
/// and nouns, opinion phrases, "above", speech verbs and "according to", and a word of each
/// standing-order opener that must make up a whole clause before a colon. Not the words that
/// count only beside one of these: an adopting verb that needs a rules noun ("use", "keep":
/// the noun is here) and a question opener ("is", "can", "what"), which introduces only with
/// "above" or a material or rules noun. Those are among the commonest words of an instruction
/// file, and the line would be read for nothing.
pub(crate) fn trigger_words() -> impl Iterator<Item = &'static str> {
    let lists: [&[&str]; 6] = [
        ADOPT_VERBS,
        RULES_NOUNS,
        MATERIAL_NOUNS,
        PROCESS_VERBS,
        PROCESS_NOUNS,
        SPEECH_VERBS,
    ];
    let firsts = [ADOPT_PHRASES, OPINION_PHRASES]
        .into_iter()
        .flatten()
        .filter_map(|phrase| phrase.first().copied());
    // "from now on", "from here on", "going / moving forward", "henceforth", "in (the)
    // future", "remember": each holds one of these.
    let forward = ["now", "here", "forward", "henceforth", "future", "remember"];
    lists
        .into_iter()
        .flatten()
        .copied()
        .chain(firsts)
        .chain(forward)
        .chain(["above", "according", "tl"])
        // A text pointed at with its source ([`SOURCE_PHRASES`]): "the thing below is from …".
        .chain(["below", "following"])
}

/// How the user turns back from material to their own words at the start of the message's
/// last paragraph: dismissing it ("Ignore what that says.", "That's spam."), or leaving it
/// ("Anyway:", "Back to the repo"). Lower-case, matched at the start of the line (after an
/// opening bracket), sorted.
pub(crate) const RETURN_OPENERS: &[&str] = &[
    "anyhow",
    "anyway",
    "anyways",
    "back to",
    "do not follow",
    "don't follow",
    "end of",
    "ignore all that",
    "ignore that",
    "ignore this",
    "ignore what",
    "none of that",
    "that is spam",
    "that was spam",
    "that's a scam",
    "that's phishing",
    "that's spam",
    "this is spam",
];

/// What makes the last paragraph after an adopted list a doubt about adopting it, not an
/// adoption ("I'm thinking of copying the first line. Should I?", "should I use these?"):
/// lower-case phrases found anywhere in its first line, sorted.
pub(crate) const ADOPTION_HEDGES: &[&str] = &[
    "any good",
    "considering",
    "do you think",
    "is it worth",
    "not sure",
    "shall i",
    "should i",
    "should we",
    "thinking about",
    "thinking of",
    "would you recommend",
];

/// Where a text the user points at comes from, when it is someone else's: "(the thing below
/// is from a newsletter)", "this came from a forum". With a pointer, it presents material.
pub(super) const SOURCE_PHRASES: &[&[&str]] = &[
    &["are", "from"],
    &["came", "from"],
    &["comes", "from"],
    &["is", "from"],
    &["was", "posted"],
    &["were", "posted"],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_sorted_lower_case_and_unique() {
        for (name, list) in [
            ("PROCESS_VERBS", PROCESS_VERBS),
            ("PROCESS_NOUNS", PROCESS_NOUNS),
            ("ADOPT_VERBS", ADOPT_VERBS),
            ("ADOPT_VERBS_WITH_RULES", ADOPT_VERBS_WITH_RULES),
            ("RULES_NOUNS", RULES_NOUNS),
            ("RULES_FILES", RULES_FILES),
            ("MATERIAL_NOUNS", MATERIAL_NOUNS),
            ("FORWARD_POINTERS", FORWARD_POINTERS),
            ("AFTER_POINTER", AFTER_POINTER),
            ("TIME_WORDS", TIME_WORDS),
            ("PRESENTERS", PRESENTERS),
            ("NOT_INTRO_OPENERS", NOT_INTRO_OPENERS),
            ("QUESTION_OPENERS", QUESTION_OPENERS),
            ("HEADING_LABELS", HEADING_LABELS),
            ("HEADER_NAMES", HEADER_NAMES),
        ] {
            assert!(
                list.windows(2).all(|pair| pair[0] < pair[1]),
                "{name} is not sorted and unique"
            );
            assert!(
                list.iter().all(|word| word.to_lowercase() == *word),
                "{name} has capitals"
            );
        }
    }
}
