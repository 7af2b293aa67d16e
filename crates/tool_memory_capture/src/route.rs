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
    CODE_ONLY_PROGRAMS, CODE_PLACES, CREATE_VERBS, DELETE_STEMS, DEPENDENCY_WORDS, EDIT_NOUNS,
    EDIT_VERBS, FETCH_WORDS, FILE_ORIGINS, FILE_SHELL_NOUNS, NAMED_SHELL_THINGS, PROGRAMS,
    READ_VERBS, SEARCH_WORDS, SHELL_NOUNS, SHELL_OBJECTS, SHELL_VERBS, SQL_KEYWORDS, SUFFIXES,
    WINDOWS_CODE_ONLY_PROGRAMS, WINDOWS_PROGRAMS,
};
use crate::hash::{FxHashMap, WordMap};
use crate::text::{code_spans, ends_with_ascii_lower, is_word_char, with_ascii_lower};

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
#[cfg(test)]
pub(crate) fn need_of(text: &str) -> Option<Need> {
    need_at(text).map(|(need, _)| need)
}

/// Whether `text` gives any evidence of a family of tool ([`need_of`] is some): the grammars
/// ask only this, which the weighing of a command line's span after an edit
/// ([`need_at_with`]) never changes, so it is left out.
pub(crate) fn has_need(text: &str) -> bool {
    first_need(text, &code_spans(text)).is_some()
}

/// [`need_of`], and the byte offset in `text` of the evidence.
pub(crate) fn need_at(text: &str) -> Option<(Need, usize)> {
    need_at_with(text, &code_spans(text))
}

/// [`need_at`] of `text` whose code spans are `spans`.
pub(crate) fn need_at_with(text: &str, spans: &[Range<usize>]) -> Option<(Need, usize)> {
    let found = first_need(text, spans);
    // "For the cache in `compose.yaml`, `docker compose down -v` is banned", "touching the
    // truststore: no `keytool` commands": a code span holding a command line makes the rule
    // the shell's, whatever file it also names; only a verb of editing whose object is a file
    // keeps it an edit ("never edit `Makefile`, run `make fmt`").
    if let Some((Need::Edit { .. }, evidence)) = found
        && let Some(at) = command_span(text, spans, evidence)
        && !changed_through(text, spans, at)
        && !edits_a_file(text, spans)
    {
        return Some((Need::Shell, at));
    }
    // "A Flyway migration is never modified once applied — `V12__add_index.sql` included":
    // a noun of a thing behind the shell (not a verb of running), then a verb of editing and
    // a file in code, and no command: the file is what must not change.
    if let Some((Need::Shell, evidence)) = found
        && let Some(file) = spans.iter().find(|span| {
            // A file by its name (`V12__add_index.sql`, `db/seeds.rb`), not a bare word that
            // may name a thing behind the shell (`payments`).
            let code = code_span_text(text, span);
            span.start > evidence
                && code.contains(['.', '/'])
                && !is_script(code.trim())
                && matches!(span_need(code), Some(Need::Edit { .. }))
        })
        && !spans
            .iter()
            .any(|span| is_command(code_span_text(text, span)))
        && !text[evidence..]
            .split(|ch: char| !is_word_char(ch))
            .next()
            .is_some_and(|word| {
                SHELL_VERBS
                    .iter()
                    .any(|verb| word.eq_ignore_ascii_case(verb))
            })
        && has_edit_verb(&text[evidence..file.start])
    {
        return Some((
            Need::Edit {
                create: false,
                delete: false,
            },
            file.start,
        ));
    }
    found
}

/// Whether `text` holds a verb of editing as a word outside code ("modified", "changed",
/// "touched").
fn has_edit_verb(text: &str) -> bool {
    text.split('`')
        .step_by(2)
        .flat_map(|part| part.split(|ch: char| !is_word_char(ch)))
        .any(|word| {
            !word.is_empty()
                && word_need(word, "")
                    == Some(Need::Edit {
                        create: false,
                        delete: false,
                    })
        })
}

/// The start of the first code span of `text` that holds a command line: one that opens with
/// a program (a known one, a script, a bare word followed by a subcommand, a flag or a file),
/// a flag, or a span called a command or a CLI ("`keytool` commands", "the `stripe` CLI").
///
/// No span stands before the edit's evidence at `evidence` (it would have been the evidence),
/// and a span there read as a file, so only its name or what it is called can make it a
/// command.
fn command_span(text: &str, spans: &[Range<usize>], evidence: usize) -> Option<usize> {
    spans.iter().find_map(|span| {
        let code = code_span_text(text, span).trim();
        let mut words = code.split_whitespace();
        let first = words.next()?;
        let program = first.rsplit('/').next().unwrap_or(first);
        let bare = |word: &str| {
            !word.is_empty()
                && word.bytes().all(|byte| {
                    byte.is_ascii_lowercase() || byte.is_ascii_digit() || b"-_".contains(&byte)
                })
        };
        let argument = words.next().is_some_and(|next| {
            next.starts_with('-')
                || next.bytes().all(|byte| {
                    byte.is_ascii_lowercase() || byte.is_ascii_digit() || b"-_:".contains(&byte)
                })
                || next.contains(['.', '/']) && !next.ends_with('.')
        });
        let called = || {
            let next = text[span.end..]
                .trim_start()
                .split(|ch: char| !is_word_char(ch))
                .next()
                .unwrap_or_default();
            [
                "command",
                "commands",
                "cli",
                "invocation",
                "invocations",
                "calls",
            ]
            .iter()
            .any(|word| next.eq_ignore_ascii_case(word))
        };
        let command = first.starts_with("--")
            || program.ends_with(".sh")
            || span.start != evidence && is_span_program(program)
            || bare(first) && (argument || called()) && !CODE_KEYWORDS.contains(&first)
            || !first.contains(['/', '.']) && called();
        command.then_some(span.start)
    })
}

/// Whether a verb of editing in `text` has a file for its object: a file's code span, a
/// pronoun or a noun of files after it ("edit `Makefile`", "never change it", "modify the
/// files").
fn edits_a_file(text: &str, spans: &[Range<usize>]) -> bool {
    let mut at = 0;
    let mut span_index = 0;
    while at < text.len() {
        if let Some(span) = spans.get(span_index)
            && at >= span.start
        {
            at = at.max(span.end);
            span_index += 1;
            continue;
        }
        let rest = &text[at..];
        let Some(start) = rest.find(|ch: char| is_word_char(ch) || ch == '`') else {
            return false;
        };
        let start = at + start;
        if spans
            .get(span_index)
            .is_some_and(|span| span.start == start)
        {
            at = start;
            continue;
        }
        let end = text[start..]
            .find(|ch: char| !is_word_char(ch))
            .map_or(text.len(), |end| start + end);
        let word = &text[start..end];
        at = end.max(start + 1);
        // "`go.sum` changes only through `go mod tidy`, never by hand": what is done by hand
        // to a file is an edit; with no file in code ("env vars are not touched by hand: no
        // `vercel env rm`") the commands say what is done.
        if (word.eq_ignore_ascii_case("manually")
            || word.eq_ignore_ascii_case("by")
                && text[end..]
                    .trim_start()
                    .get(..4)
                    .is_some_and(|next| next.eq_ignore_ascii_case("hand")))
            && spans.iter().any(|span| {
                matches!(
                    span_need(code_span_text(text, span)),
                    Some(Need::Edit { .. })
                )
            })
        {
            return true;
        }
        if !matches!(word_need(word, &text[end..]), Some(Need::Edit { .. }))
            || EDIT_NOUNS
                .iter()
                .any(|noun| word.eq_ignore_ascii_case(noun))
        {
            continue;
        }
        let mut object = text[end..].trim_start();
        for determiner in [
            "the ", "a ", "an ", "any ", "our ", "my ", "your ", "this ", "these ",
        ] {
            if object.len() >= determiner.len()
                && object[..determiner.len()].eq_ignore_ascii_case(determiner)
            {
                object = object[determiner.len()..].trim_start();
                break;
            }
        }
        if let Some(code) = object.strip_prefix('`') {
            let code = code.split('`').next().unwrap_or_default();
            if matches!(span_need(code), Some(Need::Edit { .. })) {
                return true;
            }
            continue;
        }
        let next = object
            .split(|ch: char| !is_word_char(ch))
            .next()
            .unwrap_or_default();
        if with_ascii_lower(next, |next| {
            matches!(next, "it" | "them" | "those" | "that" | "code") || EDIT_NOUNS.contains(&next)
        }) {
            return true;
        }
        // "Never edit an existing migration in `prisma/migrations/`; create a new one with
        // `pnpm prisma migrate …`": a file that is also a thing behind the shell, after up to
        // two words that qualify it, is the object edited.
        if object
            .split(|ch: char| !is_word_char(ch) && ch != '-')
            .take(3)
            .take_while(|word| !word.is_empty())
            .any(|word| {
                FILE_SHELL_NOUNS
                    .iter()
                    .any(|noun| word.eq_ignore_ascii_case(noun))
            })
        {
            return true;
        }
    }
    false
}

/// Whether the file that opens `text` is its subject and the command (its span at `command`)
/// only the means of changing it: "`go.sum` changes only as a side effect of `go mod tidy`",
/// "`schema.rs` is written by `diesel migration run`".
fn changed_through(text: &str, spans: &[Range<usize>], command: usize) -> bool {
    let Some(first) = spans.first() else {
        return false;
    };
    let opens = text[..first.start]
        .trim()
        .chars()
        .all(|ch| matches!(ch, '-' | '*' | '+' | '>' | '#'));
    let before = text[..command].trim_end();
    let means = before
        .rsplit(|ch: char| !is_word_char(ch))
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    opens
        && first.start < command
        && matches!(
            span_need(code_span_text(text, first)),
            Some(Need::Edit { .. })
        )
        && matches!(
            means.as_str(),
            "of" | "by" | "through" | "via" | "with" | "using" | "from"
        )
}

/// Whether `word` drops or truncates and `rest` (the text after it) names a table, a column
/// or a schema as its object, after at most a determiner ("drop a table", "truncating the
/// `orders` tables" reads its span as a name).
fn drops_a_table(word: &str, rest: &str) -> bool {
    // Read for every word of a rule: its first letter turns nearly all away.
    if !matches!(word.as_bytes().first(), Some(b'd' | b'D' | b't' | b'T')) {
        return false;
    }
    let drops = with_ascii_lower(word, |word| {
        matches!(
            word,
            "drop" | "drops" | "dropping" | "dropped" | "truncate" | "truncates" | "truncating"
        )
    });
    drops
        && rest
            .split(|ch: char| !is_word_char(ch) && ch != '`')
            .filter(|word| !word.is_empty())
            .take(3)
            .any(|word| {
                with_ascii_lower(word, |word| {
                    matches!(
                        word,
                        "table" | "tables" | "column" | "columns" | "schema" | "schemas"
                    )
                })
            })
}

/// Whether `text` names a console or a REPL ("in a prod console", "the Rails console", "irb")
/// as a word outside its code spans `spans` (`console.log` is code).
fn in_a_console(text: &str, spans: &[Range<usize>]) -> bool {
    // Nearly every rule names none: a search for the letters every name holds comes first.
    let bytes = text.as_bytes();
    if !["onsole", "ONSOLE", "epl", "EPL", "irb", "IRB", "iex", "IEx"]
        .iter()
        .any(|needle| text.contains(needle))
        || bytes.is_empty()
    {
        return false;
    }
    let names = |part: &str| {
        part.split(|ch: char| !is_word_char(ch)).any(|word| {
            ["console", "repl", "irb", "iex"]
                .iter()
                .any(|name| word.eq_ignore_ascii_case(name))
        })
    };
    let mut from = 0;
    for span in spans {
        if names(text.get(from..span.start).unwrap_or_default()) {
            return true;
        }
        from = span.end;
    }
    names(text.get(from..).unwrap_or_default())
}

/// The earliest evidence of [`need_at_with`], before a command line's code span is weighed.
fn first_need(text: &str, spans: &[Range<usize>]) -> Option<(Need, usize)> {
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
            let code = code_span_text(text, span);
            if let Some(mut need) = span_need(code) {
                // `token=` is a link's parameter only in a rule about links: "the `version=`
                // line in `gradle.properties`" is a line of a file.
                if need == Need::Fetch && !code.trim().starts_with(['?', '&']) && !about_links(text)
                {
                    need = Need::Edit {
                        create: false,
                        delete: false,
                    };
                }
                // "the `payments` namespace", "the `main` branch": a name of a thing behind
                // the shell, not a file.
                // "`config/keys.json` holds secrets; don't open it": a verb that shows a
                // file, before any verb of change, reads it.
                if need
                    == (Need::Edit {
                        create: false,
                        delete: false,
                    })
                    && shown_later(&text[span.end..])
                {
                    return Some((Need::Read, span.start));
                }
                // "Reindexing goes through `scripts/reindex.sh`": a script as the means runs.
                if matches!(need, Need::Edit { .. })
                    && is_script(code.trim())
                    && is_means(&text[..span.start])
                {
                    return Some((Need::Shell, span.start));
                }
                // "`Order.destroy_all` is never run in a prod console": code typed into a
                // console or a REPL runs there, behind the shell.
                if matches!(need, Need::Edit { .. }) && in_a_console(text, spans) {
                    return Some((Need::Shell, span.start));
                }
                if matches!(need, Need::Edit { .. })
                    && (names_a_shell_thing(code, &text[span.end..])
                        || named_as_run(&text[..span.start])
                        || used_as_program(code, text, span.end, &spans[span_index..])
                        || is_subcommand(code, text, &spans[..span_index - 1]))
                {
                    return Some((Need::Shell, span.start));
                }
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
        // "Never open `src/keys/`", "don't open any `.pem` files": opening a file reads it
        // (opening a PR or a port does not).
        if is_display_verb(word) && opens_a_file(&text[end..], &spans[span_index..], end) {
            return Some((Need::Read, start));
        }
        // "Move it to `./_attic/`", "never copy whole files between environments": moving
        // and copying files is the shell's (`mv`, `cp`), as no edit tool does it.
        if is_move_verb(word) && moves_files(&text[end..]) {
            return Some((Need::Shell, start));
        }
        // "Never drop a table", "Dropping tables needs my OK": dropping or truncating a table
        // is SQL, which goes through the shell (`psql`) when the catalogue has no database
        // tool to take it first. A table alone may be a page's or a document's.
        if drops_a_table(word, &text[end..]) {
            return Some((Need::Shell, start));
        }
        // "Never log request bodies": what the code writes to its log (not "log into").
        if word.eq_ignore_ascii_case("log") {
            let next = text[end..]
                .trim_start()
                .split(|ch: char| !is_word_char(ch))
                .next()
                .unwrap_or_default();
            if !with_ascii_lower(next, |next| {
                matches!(next, "in" | "into" | "on" | "out" | "off" | "onto")
            }) {
                return Some((
                    Need::Edit {
                        create: false,
                        delete: false,
                    },
                    start,
                ));
            }
        }
        if let Some(need) = word_need(word, &text[end..]) {
            match need {
                // "every small edit", "an edit": a noun, not the action; but "any removal of
                // files" still deletes them.
                Need::Edit { delete: false, .. } if after_determiner(&text[..start]) => {}
                // "delete remote branches", "change the cluster": the object decides.
                Need::Edit { .. } if shell_object(&text[end..]) => {
                    return Some((Need::Shell, start));
                }
                // "| Files | Never create files …": a noun names the family, a later verb of
                // the same family says which of its tools (write, delete).
                Need::Edit { .. } if with_ascii_lower(word, |word| EDIT_NOUNS.contains(&word)) => {
                    return Some((refined_by_verb(&text[end..], need), start));
                }
                // "Don't modify the registry (`reg add`)", "never change git config (`git
                // config --global`)": a verb of change whose object is a command line is
                // about the shell; only a file or a path makes it an edit.
                Need::Edit { .. } if object_is_command(text, end, &spans[span_index..]) => {
                    return Some((Need::Shell, start));
                }
                // "No raw SQL in controllers": a thing behind the shell named inside code is
                // about the code.
                Need::Shell
                    if with_ascii_lower(word, |word| SHELL_NOUNS.contains(&word))
                        && in_code_place(&text[end..]) =>
                {
                    return Some((
                        Need::Edit {
                            create: false,
                            delete: false,
                        },
                        start,
                    ));
                }
                // "| Migrations | Never edit a merged migration |", "Scripts in `bin/`: never
                // modify them": a thing behind the shell that is also a file, then a verb of
                // change, is an edit of that file.
                Need::Shell
                    if FILE_SHELL_NOUNS
                        .iter()
                        .any(|noun| word.eq_ignore_ascii_case(noun)) =>
                {
                    match need_at(&text[end..]) {
                        Some((verb @ Need::Edit { .. }, _)) => return Some((verb, start)),
                        _ => return Some((need, start)),
                    }
                }
                need => return Some((need, start)),
            }
        }
        // "No network calls in unit tests": where in the code, as the only evidence.
        if word.eq_ignore_ascii_case("in") && code_place_after(&text[end..]) {
            return Some((
                Need::Edit {
                    create: false,
                    delete: false,
                },
                start,
            ));
        }
        at = end;
    }
    None
}

/// Which tool of the edit family the words after a file noun pick: a verb of the family that
/// deletes ("Files in `fixtures/` are never deleted or overwritten"),
/// or opening the files again by a pronoun, a read ("Files named `id_rsa` are secret; do not
/// open them"); else the first need after the noun when it is of the family, else `need`.
#[inline(never)]
fn refined_by_verb(after: &str, need: Need) -> Need {
    let first = need_at(after);
    let refined = match first {
        Some((verb @ Need::Edit { delete: true, .. }, _)) => return verb,
        Some((verb @ Need::Edit { .. }, _)) => verb,
        _ => need,
    };
    // Most rules name no deletion and open nothing by a pronoun: a search for the words
    // rules both out before the needs after the first are read.
    let lower = after.to_ascii_lowercase();
    if DELETE_STEMS.iter().any(|stem| lower.contains(stem)) {
        let mut rest = after;
        let mut next = first;
        for _ in 0..MAX_REFINING_NEEDS {
            let Some((found, at)) = next else {
                break;
            };
            if let Need::Edit { delete: true, .. } = found {
                return found;
            }
            let word_end = rest[at..]
                .find(|ch: char| !is_word_char(ch) && ch != '-')
                .map_or(rest.len(), |len| at + len.max(1));
            rest = rest.get(word_end..).unwrap_or_default();
            next = need_at(rest);
        }
    }
    if lower.contains(" them") || lower.contains(" it") {
        let mut words = after
            .split(|ch: char| !is_word_char(ch))
            .filter(|word| !word.is_empty());
        while let Some(word) = words.next() {
            if is_display_verb(word)
                && words.clone().next().is_some_and(|next| {
                    next.eq_ignore_ascii_case("them") || next.eq_ignore_ascii_case("it")
                })
            {
                return Need::Read;
            }
        }
    }
    refined
}

/// How many needs after a file noun [`refined_by_verb`] reads at most.
const MAX_REFINING_NEEDS: usize = 4;

/// Whether a word of prose says moving or copying something.
fn is_move_verb(word: &str) -> bool {
    const MOVE_VERBS: &[&str] = &["move", "moving", "copy", "copying", "mv", "cp"];
    // Most words open with another letter: one byte decides.
    matches!(word.as_bytes().first(), Some(b'm' | b'M' | b'c' | b'C'))
        && MOVE_VERBS
            .iter()
            .any(|verb| word.eq_ignore_ascii_case(verb))
}

/// Whether what follows a verb of moving (`after` it) moves files: a file noun or a pointer
/// among its next four words, or a directory in code after `to` or `into` ("move it to
/// `./_attic/`"). "Move the helper into `utils.ts`" moves code, an edit.
fn moves_files(after: &str) -> bool {
    const MOVED: &[&str] = &[
        "file",
        "files",
        "folder",
        "folders",
        "directory",
        "directories",
        "dir",
        "dirs",
    ];
    let prose = after.split('`').next().unwrap_or_default();
    let mut words = prose
        .split(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty())
        .take(4);
    if words.any(|word| MOVED.iter().any(|noun| word.eq_ignore_ascii_case(noun))) {
        return true;
    }
    let Some((before, rest)) = after.split_once('`') else {
        return false;
    };
    let place = rest.split('`').next().unwrap_or_default().trim();
    let last = before.split_whitespace().next_back().unwrap_or_default();
    before.split_whitespace().count() <= 4
        && matches!(last, "to" | "into")
        && place.ends_with(['/', '\\'])
}

/// Whether the words right after an "in" (`after` it) name a place in the code: "in unit
/// tests", "in the controllers".
fn code_place_after(after: &str) -> bool {
    let mut words = after
        .split(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty());
    for _ in 0..3 {
        let Some(word) = words.next() else {
            return false;
        };
        let mut buffer = [0u8; 16];
        if word.len() > buffer.len() {
            return false;
        }
        let lower = &mut buffer[..word.len()];
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        let lower = std::str::from_utf8(lower).unwrap_or_default();
        if CODE_PLACES.contains(&lower) {
            return true;
        }
        if !matches!(
            lower,
            "the"
                | "our"
                | "any"
                | "unit"
                | "integration"
                | "new"
                | "library"
                | "production"
                | "prod"
        ) {
            return false;
        }
    }
    false
}

/// Whether `after` holds "in" and a place in the code ("in controllers", "in unit tests",
/// "in library code") before any clause mark.
fn in_code_place(after: &str) -> bool {
    let clause = after.split([',', ';', '.', ':']).next().unwrap_or_default();
    let mut words = clause
        .split(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase);
    while let Some(word) = words.next() {
        if word != "in" {
            continue;
        }
        let mut next = words.next().unwrap_or_default();
        // "in unit tests", "in the controllers", "in new code".
        while matches!(
            next.as_str(),
            "the"
                | "our"
                | "any"
                | "unit"
                | "integration"
                | "new"
                | "library"
                | "production"
                | "prod"
        ) {
            next = words.next().unwrap_or_default();
        }
        if CODE_PLACES.contains(&next.as_str()) {
            return true;
        }
    }
    false
}

/// Whether the object of "open" (the text `after` it, at byte `offset` of the rule whose
/// code spans from there are `spans`) is a file: a code span that is a path, or a file noun,
/// behind at most a determiner.
fn opens_a_file(after: &str, spans: &[Range<usize>], offset: usize) -> bool {
    let mut rest = after.trim_start();
    for _ in 0..2 {
        let word_end = rest
            .find(|ch: char| !is_word_char(ch))
            .unwrap_or(rest.len());
        let word = rest[..word_end].to_ascii_lowercase();
        if matches!(
            word.as_str(),
            "any" | "the" | "a" | "an" | "these" | "those" | "your"
        ) {
            rest = rest[word_end..].trim_start();
            continue;
        }
        if matches!(word.as_str(), "file" | "files") {
            return true;
        }
        break;
    }
    // A code span next: a path or a file name, not a command.
    let at = offset + (after.len() - rest.len());
    spans
        .iter()
        .find(|span| span.start == at)
        .is_some_and(|span| {
            let code = &rest[1..(span.end - span.start).saturating_sub(1).max(1)];
            !code.contains(' ') && matches!(span_need(code), Some(Need::Edit { .. }))
        })
}

/// Whether `text` speaks of links or URLs.
fn about_links(text: &str) -> bool {
    text.split(|ch: char| !ch.is_ascii_alphabetic())
        .any(|word| {
            ["link", "links", "url", "urls", "address", "addresses"]
                .iter()
                .any(|noun| word.eq_ignore_ascii_case(noun))
        })
}

/// Whether a code span that names no command (`code`) is the name of a thing behind the
/// shell: a plain name (no path, no file) followed by such a thing's noun (`after`): "the
/// `payments` namespace", "the `prod` kube context".
fn names_a_shell_thing(code: &str, after: &str) -> bool {
    if code.contains(['/', '.', '\\', ' ', '(']) {
        return false;
    }
    // A file's name after it is no noun of it: "the `edition` in `Cargo.toml`" is not about
    // `cargo`.
    let file_at = after
        .split('`')
        .enumerate()
        .position(|(index, part)| index % 2 == 1 && part.contains(['.', '/']));
    let after = match file_at {
        Some(index) => {
            let cut: usize = after
                .split('`')
                .take(index)
                .map(|part| part.len() + 1)
                .sum();
            &after[..cut.saturating_sub(1)]
        }
        None => after,
    };
    after
        .split(|ch: char| !is_word_char(ch) && ch != '-')
        .filter(|word| !word.is_empty())
        .take(2)
        .any(|word| {
            // "the `analytics` conda env": a program's thing.
            with_ascii_lower(word, |lower| {
                NAMED_SHELL_THINGS.contains(&lower) || is_span_program(lower)
            })
        })
}

/// Whether the words before a code span (`before`) name it as something a shell runs: "jobs
/// like `seed:demo`", "the `deploy` target", "tasks such as `db:reset`".
fn named_as_run(before: &str) -> bool {
    // The last word before the span, on the stack: most spans follow a verb or nothing.
    let mut words = before
        .rsplit(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty());
    let is = |word: &str, list: &[&str]| list.iter().any(|item| word.eq_ignore_ascii_case(item));
    let mut word = words.next().unwrap_or_default();
    if is(word, &["like", "as", "the"]) {
        word = words.next().unwrap_or_default();
        if word.eq_ignore_ascii_case("such") {
            word = words.next().unwrap_or_default();
        }
    }
    is(
        word,
        &[
            "job", "jobs", "task", "tasks", "target", "targets", "recipe", "recipes",
        ],
    )
}

/// Verbs that show a file's content rather than change it ("open", "print", "cat"); a file
/// after one (or a pronoun for a file before it) is read.
const DISPLAY_VERBS: &[&str] = &[
    "open",
    "opens",
    "opening",
    "read",
    "reads",
    "reading",
    "view",
    "viewing",
    "print",
    "printing",
    "cat",
    "display",
    "displaying",
    "show",
    "showing",
    "dump",
    "dumping",
];

fn is_display_verb(word: &str) -> bool {
    // Every word of a rule is asked: its first letter and its length turn most away at once.
    let Some(&first) = word.as_bytes().first() else {
        return false;
    };
    let lead = first.to_ascii_lowercase();
    (3..=10).contains(&word.len())
        && lead.is_ascii_lowercase()
        && DISPLAY_LEADS & (1 << (lead - b'a')) != 0
        && DISPLAY_VERBS
            .iter()
            .any(|verb| word.eq_ignore_ascii_case(verb))
}

/// The first letters of [`DISPLAY_VERBS`], a bit each (`a` the lowest).
const DISPLAY_LEADS: u32 = {
    let mut leads = 0;
    let mut index = 0;
    while index < DISPLAY_VERBS.len() {
        leads |= 1 << (DISPLAY_VERBS[index].as_bytes()[0] - b'a');
        index += 1;
    }
    leads
};

/// Whether the words after a file's code span (`after`) show it before they name any other
/// need: "… hold secrets; don't open them", "… is private — never print it", "…: never view or
/// dump it". A verb of change first ("never edit it, read the docs") keeps the edit tool, and
/// the look stops at a code span that is not a file too.
fn shown_later(after: &str) -> bool {
    let mut rest = after;
    while let Some(start) = rest.find(|ch: char| is_word_char(ch) || ch == '`') {
        rest = &rest[start..];
        if let Some(code) = rest.strip_prefix('`') {
            // "`config/keys.json` and `*.p12` hold secrets": another file of the list.
            let Some(close) = code.find('`') else {
                return false;
            };
            if !matches!(span_need(&code[..close]), Some(Need::Edit { .. })) {
                return false;
            }
            rest = &code[close + 1..];
            continue;
        }
        let end = rest
            .find(|ch: char| !is_word_char(ch) && ch != '-')
            .unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        // "`keys/*.pem` must not be read", "is never opened": a verb that shows, in the
        // passive, has the file for its object.
        if is_display_verb(word) && passive_before(after, rest.len() + word.len()) {
            return true;
        }
        if is_display_verb(word) {
            let next = rest
                .split(|ch: char| !is_word_char(ch))
                .find(|word| !word.is_empty())
                .unwrap_or_default()
                .to_ascii_lowercase();
            // "print it", "open them", "show its contents", "view or dump it".
            return matches!(
                next.as_str(),
                "it" | "them"
                    | "its"
                    | "their"
                    | "or"
                    | "and"
                    | "this"
                    | "that"
                    | "these"
                    | "those"
                    | "the"
                    | "any"
            );
        }
        if word_need(word, rest).is_some() {
            return false;
        }
    }
    false
}

/// Whether the word that ends `len` bytes before the end of `text` follows a form of "be"
/// ("must not be read", "is never opened").
fn passive_before(text: &str, len: usize) -> bool {
    let before = &text[..text.len() - len];
    let last = before
        .split(|ch: char| !is_word_char(ch))
        .rfind(|word| !word.is_empty())
        .unwrap_or_default();
    ["be", "is", "are", "been", "being", "gets", "get"]
        .iter()
        .any(|be| last.eq_ignore_ascii_case(be))
}

/// Whether a one-word code span the program table does not know (`pgbadger`, `grpcurl`)
/// is a program by what follows it (`after` is the span's end, `spans` the code spans after
/// it): a flag span ("`vegeta` `-rate`"), "with" or "without" a flag, "against" or "at" a
/// target ("`ghz` at `api.prod`"), "on" a code span or a machine ("`tfsec` only on the
/// `infra/` folder", "never on the cluster"). A span with a path separator or a file's
/// extension stays a path, and a word of code stays code.
fn used_as_program(code: &str, text: &str, after: usize, spans: &[Range<usize>]) -> bool {
    let code = code.trim();
    if code.is_empty()
        || !code
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || b"-_".contains(&byte))
        || !code.as_bytes()[0].is_ascii_lowercase()
        || CODE_KEYWORDS.contains(&code)
    {
        return false;
    }
    let rest = &text[after..];
    // The next code span, when it comes before any other word but a preposition.
    let next_span = spans.first().map(|span| span.start.saturating_sub(after));
    let mut words = rest
        .split(|ch: char| !is_word_char(ch) && ch != '-' && ch != '`')
        .filter(|word| !word.is_empty());
    let mut first = words.next().unwrap_or_default();
    // "`spark-shell` only with …", "never on …": the adverb qualifies what follows.
    let mut skipped = 0;
    if ["only", "never", "not", "always", "just"]
        .iter()
        .any(|adverb| first.eq_ignore_ascii_case(adverb))
    {
        skipped = rest.find(first).map_or(0, |at| at + first.len());
        first = words.next().unwrap_or_default();
    }
    let span_follows = |slack: usize| {
        next_span.is_some_and(|gap| {
            gap >= skipped && text[after + skipped..after + gap].trim().len() <= slack
        })
    };
    let flag_next = || {
        spans
            .first()
            .is_some_and(|span| code_span_text(text, span).trim_start().starts_with('-'))
    };
    // "`vegeta` `-rate 100`".
    if span_follows(0) && flag_next() {
        return true;
    }
    match first.to_ascii_lowercase().as_str() {
        // "`nmap` scans", "`pg_restore` runs": what a program does when run.
        "scans" | "runs" | "jobs" | "invocations" => true,
        // "`pg_restore` is limited to the DBA", "`nmap` is only for the security team": who
        // may run it.
        "is" | "are" => {
            let next = words.next().unwrap_or_default();
            let after = words.next().unwrap_or_default();
            let is =
                |word: &str, list: &[&str]| list.iter().any(|item| word.eq_ignore_ascii_case(item));
            is(next, &["limited", "restricted"]) && after.eq_ignore_ascii_case("to")
                || is(next, &["only", "not"]) && after.eq_ignore_ascii_case("for")
        }
        "with" | "without" => span_follows(first.len() + 1) && flag_next(),
        "against" => true,
        // "at `api.prod`", not "at the top of the file".
        "at" => span_follows(first.len() + 1),
        "on" => {
            let target = words.next().unwrap_or_default().to_ascii_lowercase();
            let target = if matches!(target.as_str(), "the" | "a" | "any" | "our") {
                words.next().unwrap_or_default().to_ascii_lowercase()
            } else {
                target
            };
            target.starts_with('`')
                || span_follows(first.len() + 5)
                || NAMED_SHELL_THINGS.contains(&target.as_str())
                || MACHINES.contains(&target.as_str())
        }
        _ => false,
    }
}

/// Where a program runs: "never on the cluster".
const MACHINES: &[&str] = &[
    "cluster",
    "server",
    "servers",
    "prod",
    "production",
    "staging",
    "host",
    "hosts",
    "box",
    "node",
    "nodes",
    "broker",
    "vm",
    "vms",
];

/// Whether a one-word code span is a subcommand of a program span earlier in the sentence
/// (`spans` are the code spans before it): "`kubectl` is fine with `get` and `describe`;
/// never `delete`".
fn is_subcommand(code: &str, text: &str, spans: &[Range<usize>]) -> bool {
    let code = code.trim();
    !code.is_empty()
        && code
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte == b'-')
        && spans.iter().any(|span| {
            let program = code_span_text(text, span).trim();
            !program.contains(char::is_whitespace) && is_span_program(program)
        })
}

/// Whether the first code span after a verb of change (its end at `after`), in the same
/// clause, is a command line rather than a file: `spans` are the code spans from the verb on.
/// A script's path counts when it is the means of the change ("with `./fix-perms.sh`").
fn object_is_command(text: &str, after: usize, spans: &[Range<usize>]) -> bool {
    let Some(span) = spans.iter().find(|span| span.start >= after) else {
        return false;
    };
    // A clause mark between the verb and the span ends the verb's reach.
    if text[after..span.start].contains([';', '.', ':', '!', '?', ',']) {
        return false;
    }
    let code = code_span_text(text, span).trim();
    match span_need(code) {
        Some(Need::Shell) => true,
        _ => is_script(code) && is_means(&text[after..span.start]),
    }
}

/// Whether the rule `text` (code spans `spans`) is about a Windows command: a cmdlet
/// (`Remove-Item`), a Windows program (`winget`, `taskkill`, `reg` as a span's first word), a
/// PowerShell or batch script (`setup.ps1`) or a drive path (`C:\\Users`). Read only when the
/// agent has both PowerShell and another shell.
pub(crate) fn is_windows_command(text: &str, spans: &[Range<usize>]) -> bool {
    let windows_word = |word: &str| {
        let lower = word.to_ascii_lowercase();
        WINDOWS_PROGRAMS.contains(&lower.as_str())
            || [".ps1", ".psm1", ".bat", ".cmd"]
                .iter()
                .any(|extension| lower.ends_with(extension))
            || is_drive_path(word)
    };
    let in_code = spans.iter().any(|span| {
        let code = code_span_text(text, span).trim();
        let first = code.split_whitespace().next().unwrap_or_default();
        let program = first.rsplit(['/', '\\']).next().unwrap_or(first);
        is_cmdlet(program)
            || windows_word(program)
            || WINDOWS_CODE_ONLY_PROGRAMS.contains(&program.to_ascii_lowercase().as_str())
            || code.split_whitespace().any(is_drive_path)
    });
    in_code
        || text
            .split(|ch: char| ch.is_whitespace() || matches!(ch, '`' | '(' | ')' | ',' | '*'))
            .any(windows_word)
}

/// Whether `word` opens with a drive letter and a backslash: `C:\\Users\\me`.
fn is_drive_path(word: &str) -> bool {
    let bytes = word.as_bytes();
    bytes.len() >= 3 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && bytes[2] == b'\\'
}

/// Whether a code span is the path of a script a shell runs: `./fix-perms.sh`, `setup.ps1`.
fn is_script(code: &str) -> bool {
    // `bin/purge-cdn`, `scripts/reindex`: a file of a folder of executables, extension or not.
    let in_bin = [
        "bin/",
        "./bin/",
        "scripts/",
        "./scripts/",
        "script/",
        "./script/",
    ]
    .iter()
    .any(|folder| code.starts_with(folder) && code.len() > folder.len() && !code.ends_with('/'));
    !code.contains(' ')
        && (in_bin
            || SCRIPT_EXTENSIONS
                .iter()
                .any(|extension| ends_with_ascii_lower(code, extension)))
}

/// Whether the prose before a code span makes it the means of an action ("with", "via").
fn is_means(before: &str) -> bool {
    let last = before
        .trim_end()
        .trim_end_matches(['(', '*', '_'])
        .rsplit(|ch: char| !is_word_char(ch))
        .next()
        .unwrap_or_default();
    with_ascii_lower(last, |last| {
        matches!(last, "with" | "via" | "using" | "through" | "by")
    })
}

/// The endings of a script's file name.
const SCRIPT_EXTENSIONS: &[&str] = &[".sh", ".bash", ".zsh", ".ps1", ".psm1", ".bat", ".cmd"];

/// Whether the word before `before`'s end makes the next word a noun.
fn after_determiner(before: &str) -> bool {
    let previous = before
        .trim_end()
        .rsplit(|ch: char| !is_word_char(ch))
        .next()
        .unwrap_or_default();
    with_ascii_lower(previous, |previous| {
        matches!(
            previous,
            "a" | "an"
                | "the"
                | "every"
                | "each"
                | "small"
                | "any"
                | "this"
                | "that"
                | "your"
                | "my"
        )
    })
}

/// Whether the few words after an edit verb name a thing behind the shell ("delete remote
/// branches", "deleting a branch") before any thing in a file.
fn shell_object(after: &str) -> bool {
    // Only prose counts: a code span after the verb is a path or a snippet to edit, unless it
    // names a thing behind the shell ("touch the `payments` namespace", "touch `db-prod-2`").
    let (prose, rest) = after.split_once('`').unwrap_or((after, ""));
    if let Some((code, after_code)) = rest.split_once('`')
        && prose.split_whitespace().count() <= 2
        && (names_a_shell_thing(code, after_code)
            || is_resource_id(code.trim())
            || is_private_host(code.trim()))
    {
        return true;
    }
    for word in prose
        .split(|ch: char| !is_word_char(ch) && ch != '-')
        .filter(|word| !word.is_empty())
        .take(3)
    {
        let lower = word.to_ascii_lowercase();
        // "Never edit the generated server stubs", "a vendored cluster client": what a tool
        // generated or a vendor shipped is files, whatever they are stubs of.
        if FILE_ORIGINS.contains(&lower.as_str()) {
            return false;
        }
        if SHELL_OBJECTS.contains(&lower.as_str()) {
            return true;
        }
        // "add a dependency" is the package manager's work; "add dependencies to
        // `pyproject.toml`" edits the file.
        if DEPENDENCY_WORDS.contains(&lower.as_str()) {
            return !after.contains('`');
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
        delete: DELETE_STEMS.iter().any(|stem| word.starts_with(stem)),
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

/// Whether a code span holds a command line a shell runs (a program and its arguments, a
/// flag, a cmdlet), not SQL, a path or code.
pub(crate) fn is_command(code: &str) -> bool {
    span_need(code) == Some(Need::Shell) && !is_sql(code)
}

/// Whether a code span holds SQL: its first word a keyword of SQL in capitals (`DROP`,
/// `DELETE FROM users`, `LIMIT`), not a constant (`MAX_ATTEMPTS`, `TODO`).
pub(crate) fn is_sql(code: &str) -> bool {
    let first = code.split_whitespace().next().unwrap_or_default();
    first.bytes().all(|byte| byte.is_ascii_uppercase()) && SQL_KEYWORDS.contains(&first)
}

/// Whether `word` (as written) names a program or a shell action as a code span's first word
/// ([`PROGRAMS`], [`CODE_ONLY_PROGRAMS`], [`SHELL_VERBS`]): one look-up in a table built once,
/// the word lower-cased on the stack.
fn is_span_program(word: &str) -> bool {
    static SPAN_PROGRAMS: LazyLock<WordMap<bool>> = LazyLock::new(|| {
        WordMap::new(
            PROGRAMS
                .iter()
                .chain(CODE_ONLY_PROGRAMS)
                .chain(SHELL_VERBS)
                .map(|word| (*word, true)),
        )
    });
    let mut buffer = [0u8; 32];
    if word.len() > buffer.len() {
        return false;
    }
    let buffer = &mut buffer[..word.len()];
    buffer.copy_from_slice(word.as_bytes());
    buffer.make_ascii_lowercase();
    SPAN_PROGRAMS.get(buffer).unwrap_or(false)
}

/// What a code span points to, read by its first word.
fn span_need(code: &str) -> Option<Need> {
    let code = code.trim();
    let first = code.split_whitespace().next()?;
    if first.starts_with('-') {
        return Some(Need::Shell);
    }
    // `./gradlew publish`, `bin/rails db:migrate`, `npx wrangler`: the program's own name.
    let program = first.rsplit('/').next().unwrap_or(first);
    if is_span_program(program) {
        return Some(Need::Shell);
    }
    if (first.starts_with("./") || first.starts_with(".\\")) && code.contains(' ') {
        return Some(Need::Shell);
    }
    // `vendor/bin/drush sql-drop`, `bin/console doctrine:schema:drop`: a file without an
    // extension run with a subcommand or a flag (a path to edit holds no space).
    if let Some((_, name)) = first.rsplit_once('/')
        && !name.is_empty()
        && !name.contains('.')
        && code.split_whitespace().nth(1).is_some_and(|next| {
            next.starts_with('-')
                || next.bytes().all(|byte| {
                    byte.is_ascii_lowercase() || byte.is_ascii_digit() || b"-_:".contains(&byte)
                })
        })
    {
        return Some(Need::Shell);
    }
    // `$DATABASE_URL_PROD`, `${AWS_PROFILE}`: a variable of the shell's environment.
    let variable = code
        .strip_prefix("${")
        .and_then(|name| name.strip_suffix('}'))
        .or_else(|| code.strip_prefix('$'));
    if variable.is_some_and(|name| {
        !name.is_empty()
            && name
                .bytes()
                .all(|byte| byte.is_ascii_uppercase() || byte.is_ascii_digit() || byte == b'_')
    }) {
        return Some(Need::Shell);
    }
    // A PowerShell cmdlet, `Verb-Noun`: `Remove-Item`, `Set-ExecutionPolicy`.
    if is_cmdlet(first) {
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
    // SQL is run, not edited: `DROP`, `DELETE FROM users` (`MAX_ATTEMPTS` is a constant).
    if is_sql(code) {
        return Some(Need::Shell);
    }
    // `FLUSHALL`, `KEYS *`: a command of a key-value store's shell (`redis-cli`).
    let first_upper = first.bytes().all(|byte| byte.is_ascii_uppercase());
    if first_upper && STORE_COMMANDS.contains(&first) {
        return Some(Need::Shell);
    }
    // `RUST_LOG=debug cargo test`: a variable set for a command; `s3://bucket/raw/`: a
    // bucket the shell's cloud CLI writes.
    let assignment = first.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name
                .bytes()
                .all(|byte| byte.is_ascii_uppercase() || byte.is_ascii_digit() || byte == b'_')
    });
    if assignment
        || ["s3://", "gs://", "az://", "hdfs://"]
            .iter()
            .any(|scheme| first.starts_with(scheme))
    {
        return Some(Need::Shell);
    }
    // `Co-Authored-By:`, `Signed-off-by`: a commit trailer, which `git commit` writes.
    if is_trailer(code) {
        return Some(Need::Shell);
    }
    // `db-prod-2`, `cache-node-7`: a machine or a resource by its numbered name.
    if is_resource_id(code) {
        return Some(Need::Shell);
    }
    // `smtp.internal`, `db.svc.cluster.local`, `10.0.3.7`: a machine of a private network,
    // which the shell reaches (a public domain may be a page to fetch, so it is left alone).
    if is_private_host(code) {
        return Some(Need::Shell);
    }
    // `token=`, `?sig=`, `&api_key=`: a parameter of a link, which a fetch sends.
    if !code.contains(' ')
        && (code.starts_with(['?', '&'])
            || code.ends_with('=')
                && code[..code.len() - 1]
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-'))
    {
        return Some(Need::Fetch);
    }
    // A path, a file or an identifier of code: something to edit.
    Some(Need::Edit {
        create: false,
        delete: false,
    })
}

/// Whether a code span is a git commit trailer's key: words joined by `-` whose last is
/// `by` (`Co-Authored-By`, `Signed-off-by`, `Reviewed-by:`).
fn is_trailer(code: &str) -> bool {
    let key = code.strip_suffix(':').unwrap_or(code);
    key.len() > 3
        && key
            .get(key.len() - 3..)
            .is_some_and(|end| end.eq_ignore_ascii_case("-by"))
        && key
            .bytes()
            .all(|byte| byte.is_ascii_alphabetic() || byte == b'-')
}

/// Commands of a key-value store's shell a code span may open with, written in capitals.
const STORE_COMMANDS: &[&str] = &[
    "DEL", "FLUSHALL", "FLUSHDB", "HGETALL", "KEYS", "MONITOR", "SCAN", "SMEMBERS", "UNLINK",
];

/// Parts of a hyphenated name that say which environment it serves.
const ENVIRONMENT_PARTS: &[&str] = &[
    "dev",
    "preprod",
    "prod",
    "production",
    "qa",
    "sandbox",
    "stage",
    "staging",
    "uat",
];

/// Whether a code span names a machine or a cloud resource by a numbered name: lower-case
/// words joined by `-` whose last part is a number (`db-prod-2`, `cache-node-7`, `web-01`).
/// A file has an extension or a path separator, an identifier of code an `_` or a capital.
fn is_resource_id(code: &str) -> bool {
    let Some((name, number)) = code.rsplit_once('-') else {
        return false;
    };
    // `gke-prod-eu`, `ctx-staging`, `shop-uat`: a cluster, context or stack named for its
    // environment; a file would have an extension or a path separator.
    let lower_name = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit())
    };
    if code.len() < 64
        && code.split('-').all(lower_name)
        && code
            .split('-')
            .any(|part| ENVIRONMENT_PARTS.contains(&part))
    {
        return true;
    }
    !name.is_empty()
        && name
            .bytes()
            .next()
            .is_some_and(|byte| byte.is_ascii_lowercase())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        && !number.is_empty()
        && number.len() <= 4
        && number.bytes().all(|byte| byte.is_ascii_digit())
}

/// Whether a code span is the name of a machine on a private network: dotted labels of
/// lower-case letters, digits and `-` whose last label is a private network's (`internal`,
/// `lan`, `corp`, `intranet`, and `local` after a domain), or an IPv4 address (`10.0.3.7`, `127.0.0.1:8080`).
fn is_private_host(code: &str) -> bool {
    const PRIVATE_SUFFIXES: &[&str] = &["internal", "local", "lan", "corp", "intranet"];
    let host = code.split_once(':').map_or(code, |(host, port)| {
        if port.bytes().all(|byte| byte.is_ascii_digit()) {
            host
        } else {
            ""
        }
    });
    // Counted without collecting the labels: most spans are not hosts.
    let mut count = 0;
    let mut digits = true;
    for label in host.split('.') {
        count += 1;
        if label.is_empty()
            || !label
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        {
            return false;
        }
        digits = digits && label.len() <= 3 && label.bytes().all(|byte| byte.is_ascii_digit());
    }
    if count < 2 {
        return false;
    }
    let last = host.rsplit('.').next().unwrap_or_default();
    // `settings.local`, `compose.local` are files; a host under `.local` has a domain too.
    (digits && count == 4) || (PRIVATE_SUFFIXES.contains(&last) && (last != "local" || count >= 3))
}

/// Whether `word` has the shape of a PowerShell cmdlet: a capitalised verb, a hyphen and a
/// capitalised noun (`Remove-Item`, `Get-ChildItem`, `Set-ExecutionPolicy`).
pub(crate) fn is_cmdlet(word: &str) -> bool {
    let Some((verb, noun)) = word.split_once('-') else {
        return false;
    };
    let capitalised = |part: &str| {
        let mut chars = part.chars();
        chars.next().is_some_and(|ch| ch.is_ascii_uppercase())
            && chars.as_str().len() >= 2
            && chars.all(|ch| ch.is_ascii_alphanumeric())
    };
    capitalised(verb)
        && capitalised(noun)
        && verb[1..].bytes().all(|byte| byte.is_ascii_lowercase())
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
            let delete = DELETE_STEMS.iter().any(|stem| word.starts_with(stem));
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
    fn machines_of_a_private_network_are_the_shells() {
        for shell in [
            "Never send anything to `smtp.internal` with `swaks`.",
            "`db.svc.cluster.local` is off limits.",
            "Never touch `10.0.3.7`.",
            "`127.0.0.1:8080` only.",
        ] {
            assert_eq!(need_of(shell), Some(Need::Shell), "{shell}");
        }
        for not_shell in [
            "Never touch `config.local.yaml`.",
            "`1.2.3` is the last release tag in `CHANGELOG.md`.",
            "Never edit `settings.local`.",
        ] {
            assert_ne!(need_of(not_shell), Some(Need::Shell), "{not_shell}");
        }
    }

    #[test]
    fn verbs_that_show_a_file_read_it() {
        for read in [
            "`config/keys.json` and `*.p12` hold secrets; don't open them.",
            "`.env.staging` is private — never print it.",
            "Don't cat `id_rsa` or show its contents.",
            "`secrets.enc.yaml`: never view or dump it.",
            "Never display `credentials.toml`.",
        ] {
            assert_eq!(need_of(read), Some(Need::Read), "{read}");
        }
        // A verb of change first keeps the edit tool; a command span ends the look.
        for not_read in [
            "`schema.prisma` is generated: never edit it, read the docs instead.",
            "`migrations/*.sql` are frozen, never modify them.",
            "`Cargo.lock` is checked in, `cargo tree` shows it.",
            "Never print secrets in `app.log`.",
        ] {
            assert_ne!(need_of(not_read), Some(Need::Read), "{not_read}");
        }
        assert!(matches!(
            need_of("Never regenerate `package-lock.json`."),
            Some(Need::Edit { create: true, .. })
        ));
    }

    #[test]
    fn unknown_programs_by_their_surroundings() {
        for shell in [
            "`pgbadger` only with `--incremental`.",
            "Never call `vegeta` without `-rate` set.",
            "Don't use `grpcurl` against the payments service.",
            "Never point `ghz` at `api.prod.internal`.",
            "`tfsec` only on the `infra/` folder please.",
            "`spark-shell` never on the cluster.",
            "`kubectl` `get` is fine, `delete` never.",
        ] {
            assert_eq!(need_of(shell), Some(Need::Shell), "{shell}");
        }
        // A path, a file or code keeps the edit tool, whatever follows it.
        for edit in [
            "`config/prod.yaml` only with `--reviewed` in the commit.",
            "`schema.prisma` against the old one: never.",
            "`migrations` only with my approval.",
            "`unsafe` only with a `// SAFETY:` comment.",
            "`payments` at the top of the file, never below.",
        ] {
            assert_ne!(need_of(edit), Some(Need::Shell), "{edit}");
        }
    }

    #[test]
    fn spans_of_sql_variables_buckets_and_named_things() {
        assert_eq!(
            need_of("Never run `DROP TABLE` on prod."),
            Some(Need::Shell)
        );
        assert_eq!(need_of("Queries: `LIMIT 1000` always."), Some(Need::Shell));
        assert_eq!(
            need_of("Never change `MAX_ATTEMPTS` in `config.py`."),
            Some(EDIT)
        );
        assert_eq!(
            need_of("Don't leave a `TODO` without a ticket."),
            Some(EDIT)
        );
        assert_eq!(
            need_of("Always set `RUST_LOG=debug` when you rerun a test."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Never write to `s3://acme-lake/raw/`."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Use only the `analytics` conda env."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Never touch the `payments` namespace."),
            Some(Need::Shell)
        );
        assert_eq!(need_of("Never touch the `payments` module."), Some(EDIT));
    }

    #[test]
    fn code_places_and_what_code_writes() {
        assert_eq!(need_of("No raw SQL in controllers."), Some(EDIT));
        assert_eq!(need_of("No network calls in unit tests."), Some(EDIT));
        assert_eq!(need_of("Never run migrations in CI."), Some(Need::Shell));
        assert_eq!(need_of("Never log request bodies."), Some(EDIT));
        assert_eq!(need_of("Never insert secrets into the code."), Some(EDIT));
        assert_eq!(need_of("Never log into the prod console."), None);
        assert_eq!(
            need_of("**NEVER drop, truncate or reset a database.**"),
            Some(Need::Shell)
        );
    }

    #[test]
    fn the_kind_of_thing_named_decides_the_family() {
        // Commit trailers are written by `git commit`.
        assert_eq!(need_of("No `Co-Authored-By` trailers."), Some(Need::Shell));
        assert_eq!(need_of("No `Signed-off-by:` lines."), Some(Need::Shell));
        // A machine or a resource by its numbered name; a thing behind the shell after an
        // edit verb.
        assert_eq!(
            need_of("Don't touch `db-prod-2` at all."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Never touch the `payments` namespace."),
            Some(Need::Shell)
        );
        assert_eq!(need_of("Never disable the firewall."), Some(Need::Shell));
        assert_eq!(need_of("Don't touch `config-v2.yaml`."), Some(EDIT));
        // Touching and disabling what the code does is an edit.
        assert_eq!(need_of("I don't want you to touch billing."), Some(EDIT));
        assert_eq!(need_of("Don't disable security features."), Some(EDIT));
        assert_eq!(need_of("Don't mock the database in tests."), Some(EDIT));
        // Moving and copying files is the shell's; moving code is an edit.
        assert_eq!(
            need_of("Move it to `./_attic/` instead."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Never copy whole files between environments."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Never move the helper into `utils.ts`."),
            Some(EDIT)
        );
        assert!(is_resource_id("cache-node-7"));
        assert!(!is_resource_id("v2"));
        assert!(!is_resource_id("snake_case-1"));
        assert!(!is_resource_id("Node-1"));
        // Named for an environment: a cluster, a context, a stack.
        assert!(is_resource_id("gke-prod-eu"));
        assert!(is_resource_id("ctx-staging"));
        assert!(!is_resource_id("production"));
        assert!(!is_resource_id("prod-notes.md"));
        assert!(!is_resource_id("deploy_prod-eu"));
    }

    #[test]
    fn a_verb_of_change_with_a_command_is_the_shells() {
        assert_eq!(
            need_of("Never change git config (`git config --global`)."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Don't change permissions with `./fix-perms.sh`."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Don't modify `Set-ExecutionPolicy`."),
            Some(Need::Shell)
        );
        assert_eq!(need_of("Never edit `deploy.sh`, run it."), Some(EDIT));
        assert_eq!(
            need_of("Never edit `package.json`, use `npm pkg`."),
            Some(EDIT)
        );
        assert_eq!(need_of("Never open `src/keys/`."), Some(Need::Read));
        assert_eq!(need_of("Never open a PR on Fridays."), Some(Need::Shell));
        assert!(is_cmdlet("Remove-Item"));
        assert!(!is_cmdlet("force-push"));
        assert!(!is_cmdlet("Co-Authored-By"));
    }

    #[test]
    fn commands_by_shape_and_what_a_file_name_does_not_say() {
        assert_eq!(
            need_of("Never run `bin/console doctrine:schema:drop`."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Avoid `tools/bin/seed --reset`."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Never connect with `$DATABASE_URL_PROD`."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("Don't export `${AWS_PROFILE}` globally."),
            Some(Need::Shell)
        );
        assert_eq!(
            need_of("`config/secrets/*` must not be read."),
            Some(Need::Read)
        );
        assert_eq!(
            need_of("Never bump the `resolver:` in `stack.yaml`."),
            Some(EDIT)
        );
        assert_eq!(
            need_of("Never bump the `edition` in `Cargo.toml`."),
            Some(EDIT)
        );
        // Paths stay files: no subcommand, an extension, or a variable inside a path.
        assert_eq!(need_of("Never edit `docs/LICENSE`."), Some(EDIT));
        assert_eq!(need_of("Never edit `$HOME/.bashrc`."), Some(EDIT));
        assert_eq!(
            need_of("`config/secrets/*` must not be changed."),
            Some(EDIT)
        );
    }

    #[test]
    fn a_code_span_holding_a_command_line_is_the_shells() {
        for rule in [
            "For the cache in `compose.yaml`, `docker compose down -v` is banned.",
            "`ansible-playbook deploy.yml` without `--limit` is not allowed.",
            "No `consul kv put` under `config/`.",
            "Touching the truststore: no `keytool` commands at all.",
            "No `FLUSHALL` through `redis-cli`.",
            "The `stripe` CLI must not be used for refunds.",
            "`vault` commands must always name the namespace.",
        ] {
            assert_eq!(need_of(rule), Some(Need::Shell), "{rule}");
        }
        // A verb of editing with a file for its object, a file changed by hand or only
        // through a command: still an edit.
        for rule in [
            "Never edit `config.yml`; run `make fmt` instead.",
            "`go.sum` changes only as a side effect of `go mod tidy`, never by hand.",
            "`go.sum` changes only as a side effect of `go mod tidy`",
        ] {
            assert!(matches!(need_of(rule), Some(Need::Edit { .. })), "{rule}");
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
        // Round 12, S5: after a file noun, deleting or opening the files again decides.
        assert_eq!(
            need_of("Files in `fixtures/golden/` are never deleted or overwritten."),
            Some(Need::Edit {
                create: false,
                delete: true
            })
        );
        assert_eq!(
            need_of("Files named `id_rsa` are secret; do not open them."),
            Some(Need::Read)
        );
        assert_eq!(
            need_of("Files in `dist/` are generated by the build; never edit them."),
            Some(EDIT)
        );
    }
}
