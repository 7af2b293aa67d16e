//! Routing a rule to a family of tool: a rule about `git`, `npm` or `kubectl` is about the
//! agent's shell, whatever that agent calls it (`Bash`, `run_shell_command`, `shell`,
//! `run_terminal_cmd`, `execute_command`, `run_command`); a rule about changing code is about
//! its edit tool, one about new files about its write tool, and so on. The family of each
//! catalogue name comes from core's one table ([`ToolFamily`]); the words that point to a
//! family are in `route/lexicon.rs`.
//!
//! One pass over the rule's words and code spans finds the earliest evidence. A code span is
//! read by its first word: a program (`pnpm install`), a flag (`--no-verify`), a path
//! (`config/prod.yaml`) or an identifier of code (`dangerouslySetInnerHTML`).

mod lexicon;

use std::ops::Range;
use std::sync::LazyLock;

use tool_memory_core::ToolFamily;
use tool_memory_core::markdown::code_span_text;

pub(crate) use self::lexicon::VERB_TOOL_NAMES;
use self::lexicon::{
    CODE_ONLY_PROGRAMS, CREATE_VERBS, EDIT_NOUNS, EDIT_VERBS, FETCH_WORDS, PROGRAMS, READ_VERBS,
    SEARCH_WORDS, SHELL_NOUNS, SHELL_OBJECTS, SHELL_VERBS, SUFFIXES,
};
use crate::hash::{FxHashMap, WordMap};
use crate::text::{code_spans, is_word_char};

/// What a rule is about, as far as the tool that enforces it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// A command line: the agent's shell.
    Shell,
    /// Changing files or code; `create` when the rule is about making new ones.
    Edit { create: bool, delete: bool },
    /// Reading files.
    Read,
    /// Fetching a page.
    Fetch,
    /// Searching the web.
    Search,
}

impl Need {
    /// The tool family that serves this need.
    pub(crate) fn family(self) -> ToolFamily {
        match self {
            Need::Shell => ToolFamily::Shell,
            Need::Edit { .. } => ToolFamily::FileEdit,
            Need::Read => ToolFamily::FileRead,
            Need::Fetch => ToolFamily::WebFetch,
            Need::Search => ToolFamily::WebSearch,
        }
    }
}

/// The earliest evidence in `text` (the rule as written, markdown and all) of the family of
/// tool it is about, if any.
pub(crate) fn need_of(text: &str) -> Option<Need> {
    need_at(text).map(|(need, _)| need)
}

/// [`need_of`], and the byte offset in `text` of the evidence.
pub(crate) fn need_at(text: &str) -> Option<(Need, usize)> {
    need_at_with(text, &code_spans(text))
}

/// [`need_at`] of `text` whose code spans are `spans`.
pub(crate) fn need_at_with(text: &str, spans: &[Range<usize>]) -> Option<(Need, usize)> {
    let mut span_index = 0;
    let bytes = text.as_bytes();
    // The char at a byte offset, without decoding an ASCII byte.
    let char_at = |at: usize| -> char {
        match bytes.get(at) {
            Some(&byte) if byte.is_ascii() => char::from(byte),
            _ => text[at..].chars().next().unwrap_or(' '),
        }
    };
    let mut at = 0;
    while at < bytes.len() {
        if let Some(span) = spans.get(span_index)
            && span.start == at
        {
            span_index += 1;
            at = span.end;
            if let Some(need) = span_need(code_span_text(text, span)) {
                return Some((need, span.start));
            }
            continue;
        }
        let ch = char_at(at);
        if !is_word_char(ch) {
            at += ch.len_utf8();
            continue;
        }
        let start = at;
        let mut end = at;
        // A word, with inner hyphens (`force-push`, `apt-get`).
        while end < bytes.len() {
            let next = char_at(end);
            let hyphen_inside =
                next == '-' && end + 1 < bytes.len() && char_at(end + 1).is_alphanumeric();
            if is_word_char(next) || hyphen_inside {
                end += next.len_utf8();
            } else {
                break;
            }
        }
        // Stop at the next code span even inside a word-like run.
        let end = spans
            .get(span_index)
            .map_or(end, |span| end.min(span.start.max(start + 1)));
        let word = &text[start..end];
        // "re-run", "re-deploy": the verb after the prefix.
        let word = word
            .strip_prefix("re-")
            .or_else(|| word.strip_prefix("Re-"))
            .filter(|verb| !verb.is_empty())
            .unwrap_or(word);
        if let Some(need) = word_need(word, &text[end..]) {
            match need {
                // "every small edit", "an edit": a noun, not the action.
                Need::Edit { .. } if after_determiner(&text[..start]) => {}
                // "delete remote branches", "change the cluster": the object decides.
                Need::Edit { .. } if shell_object(&text[end..]) => {
                    return Some((Need::Shell, start));
                }
                // "| Files | Never create files …": a noun names the family, a later verb of
                // the same family says which of its tools (write, delete).
                Need::Edit { .. } if EDIT_NOUNS.contains(&word.to_ascii_lowercase().as_str()) => {
                    let refined = match need_at(&text[end..]) {
                        Some((verb @ Need::Edit { .. }, _)) => verb,
                        _ => need,
                    };
                    return Some((refined, start));
                }
                need => return Some((need, start)),
            }
        }
        at = end;
    }
    None
}

/// Whether the word before `before`'s end makes the next word a noun.
fn after_determiner(before: &str) -> bool {
    let previous = before
        .trim_end()
        .rsplit(|ch: char| !is_word_char(ch))
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    matches!(
        previous.as_str(),
        "a" | "an" | "the" | "every" | "each" | "small" | "any" | "this" | "that" | "your" | "my"
    )
}

/// Whether the few words after an edit verb name a thing behind the shell ("delete remote
/// branches", "deleting a branch") before any thing in a file.
fn shell_object(after: &str) -> bool {
    // Only prose counts: a code span after the verb is a path or a snippet to edit.
    let prose = after.split('`').next().unwrap_or_default();
    for word in prose
        .split(|ch: char| !is_word_char(ch) && ch != '-')
        .filter(|word| !word.is_empty())
        .take(3)
    {
        let lower = word.to_ascii_lowercase();
        if SHELL_OBJECTS.contains(&lower.as_str()) {
            return true;
        }
        if EDIT_NOUNS.contains(&lower.as_str()) {
            return false;
        }
    }
    false
}

/// What one word of prose points to. `rest` is the text after it, for two-word phrases.
fn word_need(word: &str, rest: &str) -> Option<Need> {
    // Lower-cased on the stack: the first word of nearly every rule has a capital.
    let mut buffer = [0u8; 32];
    let lower;
    let word = if !word.bytes().any(|byte| byte.is_ascii_uppercase()) {
        word
    } else if word.len() <= buffer.len() {
        let buffer = &mut buffer[..word.len()];
        buffer.copy_from_slice(word.as_bytes());
        buffer.make_ascii_lowercase();
        std::str::from_utf8(buffer).unwrap_or_default()
    } else {
        lower = word.to_ascii_lowercase();
        lower.as_str()
    };
    if let Some(need) = WORD_NEEDS.get(word.as_bytes()) {
        return need;
    }
    let look_up = word == "look" && rest.trim_start().to_ascii_lowercase().starts_with("up");
    look_up.then_some(Need::Search)
}

/// Every word of the lexicons, with each inflection it may carry, and what it points to: the
/// first of the shell, create, edit, read, fetch and search lexicons that holds it. Every word
/// of every rule is looked up, so this is one hash lookup instead of a scan of each lexicon
/// with each suffix.
static WORD_NEEDS: LazyLock<WordMap<Option<Need>>> = LazyLock::new(|| {
    WordMap::new(
        word_needs()
            .into_iter()
            .map(|(word, need)| (word, Some(need))),
    )
});

/// The words of [`WORD_NEEDS`] and what each points to.
fn word_needs() -> FxHashMap<String, Need> {
    let mut needs = FxHashMap::default();
    let mut add = |words: Vec<String>, need: &dyn Fn(&str) -> Need| {
        for word in words {
            let found = need(&word);
            needs.entry(word).or_insert(found);
        }
    };
    let plain = |lexicon: &[&str]| lexicon.iter().map(|&word| word.to_owned()).collect();
    let shell = |_: &str| Need::Shell;
    add(plain(PROGRAMS), &shell);
    add(inflections(SHELL_VERBS), &shell);
    add(plain(SHELL_NOUNS), &shell);
    add(inflections(CREATE_VERBS), &|_| Need::Edit {
        create: true,
        delete: false,
    });
    let edit = |word: &str| Need::Edit {
        create: false,
        delete: word.starts_with("delet") || word.starts_with("remov"),
    };
    add(inflections(EDIT_VERBS), &edit);
    add(plain(EDIT_NOUNS), &edit);
    add(inflections(READ_VERBS), &|_| Need::Read);
    add(inflections(FETCH_WORDS), &|_| Need::Fetch);
    add(inflections(SEARCH_WORDS), &|_| Need::Search);
    needs
}

/// Every form of `lexicon`'s words with one of the usual inflections: each word with each of
/// [`SUFFIXES`], and a word ending in `e` without it before "ing" or "ed" ("saving").
fn inflections(lexicon: &[&str]) -> Vec<String> {
    let mut forms = Vec::new();
    for base in lexicon {
        forms.extend(SUFFIXES.iter().map(|suffix| format!("{base}{suffix}")));
        if let Some(stem) = base.strip_suffix('e') {
            forms.extend(["ing", "ed"].map(|suffix| format!("{stem}{suffix}")));
        }
    }
    forms
}

/// What a code span points to, read by its first word.
fn span_need(code: &str) -> Option<Need> {
    let code = code.trim();
    let first = code.split_whitespace().next()?;
    if first.starts_with('-') {
        return Some(Need::Shell);
    }
    // `./gradlew publish`, `bin/rails db:migrate`, `npx wrangler`: the program's own name.
    let program = first
        .rsplit('/')
        .next()
        .unwrap_or(first)
        .to_ascii_lowercase();
    if PROGRAMS.contains(&program.as_str())
        || CODE_ONLY_PROGRAMS.contains(&program.as_str())
        || SHELL_VERBS.contains(&program.as_str())
    {
        return Some(Need::Shell);
    }
    if first.starts_with("./") && code.contains(' ') {
        return Some(Need::Shell);
    }
    // `kamal app remove`, `bq rm -r`: a bare lower-case name then a subcommand or flag is a
    // command line even when the program is not in the lexicon; paths and identifiers hold no
    // space, and a snippet of code opens with a keyword.
    let mut words = code.split_whitespace();
    let bare = |word: &str| {
        !word.is_empty()
            && word.bytes().all(|byte| {
                byte.is_ascii_lowercase() || byte.is_ascii_digit() || b"-_".contains(&byte)
            })
    };
    if let (Some(name), Some(next)) = (words.next(), words.next())
        && bare(name)
        && !CODE_KEYWORDS.contains(&name)
        && (next.starts_with('-') || bare(&next.replace(':', "")))
    {
        return Some(Need::Shell);
    }
    // SQL is run, not edited: `DROP`, `DELETE FROM users`.
    if first.len() > 2
        && first
            .bytes()
            .all(|byte| byte.is_ascii_uppercase() || byte == b'_')
    {
        return Some(Need::Shell);
    }
    // A path, a file or an identifier of code: something to edit.
    Some(Need::Edit {
        create: false,
        delete: false,
    })
}

/// Words that open a snippet of code rather than a command line.
const CODE_KEYWORDS: &[&str] = &[
    "import",
    "from",
    "export",
    "let",
    "const",
    "var",
    "use",
    "def",
    "fn",
    "pub",
    "class",
    "type",
    "return",
    "function",
    "async",
    "await",
    "if",
    "else",
    "for",
    "while",
    "struct",
    "enum",
    "impl",
    "mod",
    "package",
    "interface",
    "new",
    "throw",
    "catch",
    "try",
    "select",
    "any",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`word_need`] found before [`WORD_NEEDS`]: each lexicon scanned in turn.
    fn scanned_need(word: &str) -> Option<Need> {
        let inflected = |lexicon: &[&str]| {
            lexicon.iter().any(|base| {
                word.strip_prefix(base)
                    .is_some_and(|suffix| SUFFIXES.contains(&suffix))
                    || base
                        .strip_suffix('e')
                        .and_then(|stem| word.strip_prefix(stem))
                        .is_some_and(|suffix| matches!(suffix, "ing" | "ed"))
            })
        };
        if PROGRAMS.contains(&word) || inflected(SHELL_VERBS) || SHELL_NOUNS.contains(&word) {
            return Some(Need::Shell);
        }
        if inflected(CREATE_VERBS) {
            return Some(Need::Edit {
                create: true,
                delete: false,
            });
        }
        if inflected(EDIT_VERBS) || EDIT_NOUNS.contains(&word) {
            let delete = word.starts_with("delet") || word.starts_with("remov");
            return Some(Need::Edit {
                create: false,
                delete,
            });
        }
        if inflected(READ_VERBS) {
            return Some(Need::Read);
        }
        if inflected(FETCH_WORDS) {
            return Some(Need::Fetch);
        }
        inflected(SEARCH_WORDS).then_some(Need::Search)
    }

    #[test]
    fn the_word_table_agrees_with_scanning_the_lexicons() {
        let mut words: Vec<String> = word_needs().keys().cloned().collect();
        for message in crate::test_messages::corpus_messages() {
            words.extend(
                message
                    .split(|ch: char| !is_word_char(ch) && ch != '-')
                    .map(str::to_ascii_lowercase),
            );
        }
        words.extend(["", "s", "ing", "sav", "delet", "looking"].map(str::to_owned));
        for word in &words {
            assert_eq!(word_need(word, ""), scanned_need(word), "{word:?}");
        }
    }

    const EDIT: Need = Need::Edit {
        create: false,
        delete: false,
    };

    #[test]
    fn commands_and_their_families_need_a_shell() {
        // A program the lexicon does not know, by its shape: a name and a subcommand or flag.
        assert_eq!(need_of("never run `kamal app remove`"), Some(Need::Shell));
        assert_eq!(need_of("`zeta sync --all` is for CI"), Some(Need::Shell));
        assert_eq!(need_of("don't touch `import os`"), Some(EDIT));
        assert_eq!(need_of("don't touch `src/app.rs`"), Some(EDIT));
        for rule in [
            "Never tag a release yourself.",
            "**NEVER run yarn**",
            "Don't `npm publish` anything.",
            "Never use `--no-verify` to skip the hooks.",
            "Never run `./gradlew publish`.",
            "no more force pushes to shared branches",
            "Never run `DROP` on prod.",
            "ALWAYS pass `--namespace` to helm.",
            "Package management is bun only.",
        ] {
            assert_eq!(need_of(rule), Some(Need::Shell), "{rule}");
        }
    }

    #[test]
    fn edits_reads_and_the_web() {
        assert_eq!(need_of("Never edit `terraform.tfstate`."), Some(EDIT));
        assert_eq!(need_of("Never use `dangerouslySetInnerHTML`."), Some(EDIT));
        assert_eq!(
            need_of("Don't create new files in `lib/`."),
            Some(Need::Edit {
                create: true,
                delete: false
            })
        );
        assert_eq!(
            need_of("Never delete files in `public/`."),
            Some(Need::Edit {
                create: false,
                delete: true
            })
        );
        assert_eq!(need_of("Don't read `.env` files."), Some(Need::Read));
        assert_eq!(
            need_of("Don't fetch URLs from comments."),
            Some(Need::Fetch)
        );
        assert_eq!(
            need_of("Do not search for customer names."),
            Some(Need::Search)
        );
        assert_eq!(need_of("Never email Sarah."), None);
        assert_eq!(need_of("Always answer in English."), None);
    }
}
