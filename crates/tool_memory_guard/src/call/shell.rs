//! The shell parser of the call view: a command line cut into words and separators, and the
//! programs it runs (behind wrappers, package runners and quoted inner commands), as
//! invocations.

use super::lexicon::{
    COMMAND_SHELLS, CONTAINER_VALUE_OPTIONS, ENVIRONMENT_OPTIONS, ENVIRONMENT_RUNNERS,
    FIND_EXEC_OPTIONS, JS_PACKAGE_RUNNERS, KUBECTL_EXEC_VALUE_OPTIONS, RUNNER_SUBCOMMANDS, RUNNERS,
    SCRIPT_RUNNERS, SHELL_KEYWORDS, SHORT_VALUE_FLAGS, STDIN_COMMAND_READERS,
    TEXT_ARGUMENT_PROGRAMS, VALUE_FLAGS, WRAPPER_OPTIONS, WRAPPERS,
};
use super::text::Text;
use crate::limits::{Bound, Budget, MAX_COMMAND_NESTING, MAX_WRAPPERS};
use crate::normalize::{
    PsParameter, SCRIPT_EXTENSIONS, canonical_subcommand, canonical_words, cmdlet_parameters_of,
    equivalent_program, expand_flag, flag_meanings, flag_meanings_after, flags_subcommand,
    is_long_powershell_word, powershell_cmdlet, powershell_parameter, powershell_parameter_name,
    program_name, pwsh_takes_a_value, runs_unknown_word,
};

/// One program run by a command line: `git -C x push --force origin main`.
#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    /// Base name, lower-case.
    pub(crate) program: String,
    /// Words after the program that are not flags or flag values: subcommands, then
    /// arguments.
    pub(crate) positional: Vec<String>,
    /// How many of the first positional words may be the values of options put between the
    /// program and its subcommand (`p4 -u me -c ws submit`, `hg -R repo strip`): each came
    /// right after an option the tables do not know to take a value, so the subcommand may
    /// be any of the next ones. Every program has such options, and no table lists them all.
    pub(crate) option_values: usize,
    /// Flags, expanded and in the program's canonical spelling.
    pub(crate) flags: Vec<String>,
    /// The values flags may have been given (`--context staging`, `--context=staging`),
    /// lower-case: the word after a long flag, or after `=`.
    pub(crate) values: Vec<(String, String)>,
    /// The invocation's own words, joined, as a one-element text list.
    pub(crate) texts: Vec<Text>,
    /// Which pipeline (`curl ... | sh`) the invocation is part of: invocations joined by `|`
    /// share it.
    pub(crate) pipeline: usize,
    /// The invocation (by index in the same list) whose quoted argument this one was read from
    /// (`psql -c "DELETE ..."`: the statement's parent is `psql`), if any.
    pub(crate) parent: Option<usize>,
    /// The assignments put before the command (`NODE_ENV=production npm run seed`), lower-case,
    /// as `name=value` with the value's quotes taken off.
    pub(crate) environment: Vec<String>,
}

impl Invocation {
    /// What a matcher looking at this invocation costs: its words' bytes, and one.
    pub(crate) fn weight(&self) -> usize {
        self.texts.iter().map(Text::weight).sum()
    }
}

enum Piece {
    Word {
        text: String,
        quoted_space: bool,
    },
    /// `;`, `&&`, `||`, a newline...: the next command is a new pipeline.
    Separator,
    /// `|`: the next command reads this one's output.
    Pipe,
}

/// Splits a command line into words and separators (`;`, `&&`, `|`, newlines, `$(`,
/// backticks), honouring quotes and backslashes the way a shell does, so that a spelling the
/// shell joins back into a word is that word: `g''it`, `"git"`, `g\it`, ANSI-C `$'\x67it'`,
/// and `$IFS` / `${IFS}` (the shell's own word separator) between words.
fn shell_pieces(line: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted_space = false;
    let mut quote: Option<char> = None;
    // Inside `$'...'`, whose backslash escapes the shell decodes.
    let mut ansi = false;
    // Open `(`, `$(` and backtick groups: whether each is a substitution that stands where a
    // program goes (`$(echo git) push`), so its output is a program the call hides.
    let mut groups: Vec<bool> = Vec::new();
    let mut backtick: Option<bool> = None;
    let mut chars = line.chars().peekable();
    let flush =
        |pieces: &mut Vec<Piece>, word: &mut String, in_word: &mut bool, quoted: &mut bool| {
            if *in_word {
                pieces.push(Piece::Word {
                    text: std::mem::take(word),
                    quoted_space: *quoted,
                });
            }
            *in_word = false;
            *quoted = false;
        };
    while let Some(ch) = chars.next() {
        if let Some(open) = quote {
            if ch == open {
                quote = None;
                ansi = false;
            } else if ch == '\\' && ansi {
                ansi_escape(&mut chars, &mut word);
                quoted_space |= word.ends_with(char::is_whitespace);
            } else if ch == '\\' && open == '"' {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            } else {
                quoted_space |= ch.is_whitespace();
                word.push(ch);
            }
            continue;
        }
        match ch {
            '\'' | '"' => {
                quote = Some(ch);
                in_word = true;
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    // A backslash before a newline continues the line.
                    if next != '\n' {
                        word.push(next);
                        in_word = true;
                    }
                }
            }
            '|' if chars.peek() != Some(&'|') => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Pipe);
            }
            '|' => {
                chars.next();
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
            }
            '$' if chars.peek() == Some(&'(') => {
                let at_program = !in_word && at_segment_start(&pieces);
                // `kill -9 $(pgrep node)`: a short substitution in an argument's place is
                // also that argument, as written (the enclosing command acts on what it
                // prints); its commands are read on their own below, as any substitution's.
                if !at_program && let Some(inner) = short_substitution(&chars) {
                    word.push_str("$(");
                    word.push_str(&inner);
                    word.push(')');
                    in_word = true;
                }
                chars.next();
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
                groups.push(at_program);
            }
            '`' => {
                let at_program = !in_word && at_segment_start(&pieces);
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
                match backtick.take() {
                    None => backtick = Some(at_program),
                    Some(hides) => hidden_program(&mut pieces, hides),
                }
            }
            '(' => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
                groups.push(false);
            }
            ')' => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
                let hides = groups.pop().unwrap_or(false);
                hidden_program(&mut pieces, hides);
            }
            // `find . -exec rm {} +`: an empty pair of braces is a word (the file `find`
            // puts there), not a group.
            '{' if chars.peek() == Some(&'}') => {
                chars.next();
                word.push_str("{}");
                in_word = true;
            }
            ';' | '&' | '\n' | '{' | '}' => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
            }
            '$' if matches!(chars.peek(), Some('\'' | '"')) => {
                // `$'...'` decodes escapes; `$"..."` is a double-quoted string.
                let open = chars.next().unwrap_or('"');
                ansi = open == '\'';
                quote = Some(open);
                in_word = true;
            }
            '$' if skip_ifs(&mut chars) => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
            }
            '$' if chars.peek() == Some(&'{') => {
                // `${NAME}` is one expansion, not a group.
                word.push('$');
                in_word = true;
                for inner in chars.by_ref() {
                    word.push(inner);
                    if inner == '}' {
                        break;
                    }
                }
            }
            ch if ch.is_whitespace() => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
            }
            _ => {
                word.push(ch);
                in_word = true;
            }
        }
    }
    flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
    pieces
}

/// Longest substitution text copied into the argument it stands for, in bytes: a process
/// id lookup (`$(pgrep -f 'node server.js')`) is short, and a bound keeps a line of deeply
/// nested substitutions from being copied once per level.
const MAX_SUBSTITUTION_BYTES: usize = 256;

/// The text of a `$(...)` substitution whose `$` was just read (`chars` is at its `(`), up to
/// its matching `)`, quotes and nested groups honoured; `None` when it does not close within
/// [`MAX_SUBSTITUTION_BYTES`].
fn short_substitution(chars: &std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let mut ahead = chars.clone();
    ahead.next();
    let mut inner = String::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    while let Some(ch) = ahead.next() {
        if inner.len() > MAX_SUBSTITUTION_BYTES {
            return None;
        }
        match (quote, ch) {
            (Some(open), _) if ch == open => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(ch),
            (None, '\\') => {
                inner.push(ch);
                inner.push(ahead.next()?);
                continue;
            }
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => return Some(inner),
            (None, ')') => depth -= 1,
            (None, _) => {}
        }
        inner.push(ch);
    }
    None
}

/// Whether the next word starts a simple command: nothing yet, or a separator or pipe last.
fn at_segment_start(pieces: &[Piece]) -> bool {
    !matches!(pieces.last(), Some(Piece::Word { .. }))
}

/// The word [`HIDDEN_PROGRAM`] after a substitution that stood where a program goes: the
/// words after it are that program's arguments.
fn hidden_program(pieces: &mut Vec<Piece>, hides: bool) {
    if hides {
        pieces.push(Piece::Word {
            text: HIDDEN_PROGRAM.to_owned(),
            quoted_space: false,
        });
    }
}

/// What a call runs where it names its program through a substitution or a variable the
/// line does not set (`$(echo git) push -f`, `$GIT push -f`): a program it hides.
pub(crate) const HIDDEN_PROGRAM: &str = "$";

/// After a `$`: consumes `IFS` or `{IFS}` (either case) and says whether it did. The shell
/// splits the expansion's value (white space by default) into word breaks.
fn skip_ifs(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    let rest: String = chars.clone().take(5).collect();
    let lower = rest.to_ascii_lowercase();
    let skip = if lower.starts_with("{ifs}") {
        5
    } else if lower.starts_with("ifs")
        && !rest[3..].starts_with(|ch: char| ch.is_alphanumeric() || ch == '_')
    {
        3
    } else {
        return false;
    };
    for _ in 0..skip {
        chars.next();
    }
    true
}

/// Decodes one backslash escape of an ANSI-C quoted string (`$'...'`), the backslash already
/// read: `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal `\NNN`, the letter escapes, and any other
/// character as itself.
fn ansi_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, word: &mut String) {
    let Some(ch) = chars.next() else {
        return;
    };
    let mut number = |radix: u32, most: usize, first: Option<char>| -> Option<char> {
        let mut digits: String = first.into_iter().collect();
        while digits.len() < most
            && let Some(next) = chars.peek().filter(|next| next.is_digit(radix))
        {
            digits.push(*next);
            chars.next();
        }
        u32::from_str_radix(&digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    let decoded = match ch {
        'x' => number(16, 2, None),
        'u' => number(16, 4, None),
        'U' => number(16, 8, None),
        '0'..='7' => number(8, 3, Some(ch)),
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'e' | 'E' => Some('\u{1b}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        other => Some(other),
    };
    word.extend(decoded);
}

/// The words of a command line as the shell reads them (quotes, backslashes and ANSI-C
/// escapes removed, `$IFS` splitting), for the guard's index: `g''it push` holds `git`.
pub(crate) fn shell_words(line: &str) -> impl Iterator<Item = String> {
    shell_pieces(line)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Word { text, .. } => Some(text),
            Piece::Separator | Piece::Pipe => None,
        })
}

/// Finds every invocation in a (lower-case) command line, including those inside quoted
/// arguments such as `bash -c '...'` or `ssh host "..."`, down to [`MAX_COMMAND_NESTING`]
/// levels. `false` when the invocations' words ran out of budget, so parsing stops.
pub(crate) fn parse_command_line(
    line: &str,
    depth: usize,
    out: &mut Vec<Invocation>,
    budget: &Budget,
) -> bool {
    let start = out.len();
    let pieces = shell_pieces(line);
    let mut segment: Vec<String> = Vec::new();
    // Quoted texts to read as command lines, each with the invocation it is an argument of
    // (known once its simple command is read).
    let mut nested: Vec<(String, Option<usize>)> = Vec::new();
    let mut waiting = 0;
    // Variables and aliases the line sets (`g=git; $g push -f`, `alias g=git; g push -f`).
    let mut names = Names::default();
    // A pipeline is named by the index of its first invocation in `out`.
    let mut pipeline = out.len();
    for piece in pieces {
        match piece {
            Piece::Word { text, quoted_space } => {
                let text_argument = quoted_space
                    && segment.first().is_some_and(|program| {
                        TEXT_ARGUMENT_PROGRAMS.contains(&program_name(program).as_str())
                    })
                    && !text.contains("$(")
                    && !text.contains('`');
                if (quoted_space && !text_argument) || is_shell_command_value(&segment) {
                    nested.push((text.clone(), None));
                    waiting += 1;
                }
                segment.push(word_case(text));
            }
            Piece::Separator | Piece::Pipe => {
                let first = out.len();
                names.learn(&segment);
                names.expand(&mut segment, budget);
                if !segment_invocations(&segment, out, budget) {
                    return false;
                }
                for invocation in &mut out[first..] {
                    invocation.pipeline = pipeline;
                }
                adopt(&mut nested, &mut waiting, first, out.len());
                segment.clear();
                if matches!(piece, Piece::Separator) {
                    pipeline = out.len();
                }
            }
        }
    }
    let first = out.len();
    names.expand(&mut segment, budget);
    if !segment_invocations(&segment, out, budget) {
        return false;
    }
    for invocation in &mut out[first..] {
        invocation.pipeline = pipeline;
    }
    adopt(&mut nested, &mut waiting, first, out.len());
    // `echo 'git push --force' | sh`: what is printed into a shell is run.
    nested.extend(printed_into_a_shell(&out[start..], start));
    // `echo FLUSHALL | redis-cli`, `redis-cli <<< flushall`: what a client reads on its input
    // is its command, as if given on its command line.
    nested.extend(fed_on_stdin(line, out, start));
    if nested.is_empty() {
        return true;
    }
    if depth >= MAX_COMMAND_NESTING {
        // The quoted text may hold a command that is not read: the check is incomplete.
        budget.exceed(Bound::CommandNesting);
        return true;
    }
    nested.iter().all(|(inner, parent)| {
        let from = out.len();
        let read = parse_command_line(inner, depth + 1, out, budget);
        for invocation in &mut out[from..] {
            if invocation.parent.is_none() {
                invocation.parent = *parent;
            }
        }
        read
    })
}

/// The text `echo` or `printf` prints into a shell later in its pipeline (`echo 'rm -rf /' |
/// bash`, `printf 'git push -f\n' | sudo sh`), each with the printing invocation (by its
/// index, the line's invocations starting at `start`): the shell runs it as a command line.
fn printed_into_a_shell(invocations: &[Invocation], start: usize) -> Vec<(String, Option<usize>)> {
    let mut printed = Vec::new();
    for (at, invocation) in invocations.iter().enumerate() {
        if !matches!(invocation.program.as_str(), "echo" | "printf") {
            continue;
        }
        let into_a_shell = invocations[at + 1..]
            .iter()
            .take_while(|next| next.pipeline == invocation.pipeline)
            .any(|next| COMMAND_SHELLS.contains(&next.program.as_str()));
        if into_a_shell && !invocation.positional.is_empty() {
            let text = invocation.positional.join(" ").replace("\\n", "\n");
            printed.push((text, Some(start + at)));
        }
    }
    printed
}

/// The commands a client reads on its input ([`STDIN_COMMAND_READERS`]): what `echo` or
/// `printf` prints into it later in its pipeline, a here-string (`redis-cli <<< 'flushall'`)
/// and a here-document (`psql <<EOF`). Each line fed becomes an invocation of the client with
/// the line's words after its own (`redis-cli -h x flushall`), pushed onto `out`; a
/// here-string fed to a shell is returned as a command line to read, with the shell as its
/// parent (a here-document's lines are read as commands already, being lines of the call).
/// A file fed with `<` is not read: its contents are unknown.
fn fed_on_stdin(
    line: &str,
    out: &mut Vec<Invocation>,
    start: usize,
) -> Vec<(String, Option<usize>)> {
    let mut fed: Vec<(usize, String)> = Vec::new();
    let end = out.len();
    for at in start..end {
        let invocation = &out[at];
        if matches!(invocation.program.as_str(), "echo" | "printf")
            && !invocation.positional.is_empty()
            && let Some(reader) = (at + 1..end)
                .take_while(|&next| out[next].pipeline == invocation.pipeline)
                .find(|&next| STDIN_COMMAND_READERS.contains(&out[next].program.as_str()))
        {
            fed.push((reader, invocation.positional.join(" ")));
        }
        let words = &invocation.positional;
        for (index, word) in words.iter().enumerate() {
            if word == "<<<" {
                if let Some(text) = words.get(index + 1) {
                    fed.push((at, text.clone()));
                }
            } else if let Some(delimiter) = word.strip_prefix("<<").map(heredoc_delimiter)
                && !delimiter.is_empty()
            {
                fed.push((at, heredoc_body(line, delimiter)));
            }
        }
    }
    let mut shell_lines = Vec::new();
    for (reader, text) in fed {
        let program = out[reader].program.as_str();
        if COMMAND_SHELLS.contains(&program) {
            shell_lines.push((text, Some(reader)));
            continue;
        }
        if !STDIN_COMMAND_READERS.contains(&program) {
            continue;
        }
        for fed_line in text.split('\n').flat_map(|part| part.split("\\n")) {
            let words: Vec<String> = fed_line.split_whitespace().map(str::to_lowercase).collect();
            if words.is_empty() {
                continue;
            }
            let mut read = out[reader].clone();
            strip_redirections(&mut read.positional);
            read.texts.push(Text::of(fed_line, false, false));
            read.positional.extend(words);
            out.push(read);
        }
    }
    shell_lines
}

/// A here-document's delimiter from the word after `<<` (`EOF`, `-EOF`, `'EOF'`).
fn heredoc_delimiter(word: &str) -> &str {
    word.trim_start_matches('-').trim_matches(['\'', '"'])
}

/// The body of the here-document that `delimiter` ends in `line`: the lines after the one
/// that opens it, up to the delimiter alone on a line (or the end).
fn heredoc_body(line: &str, delimiter: &str) -> String {
    let lower = line.to_lowercase();
    let Some(open) = lower
        .find("<<")
        .and_then(|at| lower[at..].find('\n').map(|nl| at + nl + 1))
    else {
        return String::new();
    };
    lower[open..]
        .lines()
        .take_while(|body_line| body_line.trim() != delimiter)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Takes a here-string or here-document off a client's words: its input is no argument.
fn strip_redirections(positional: &mut Vec<String>) {
    if let Some(at) = positional.iter().position(|word| word.starts_with("<<")) {
        positional.truncate(at);
    }
}

/// Gives the quoted texts of the simple command just read (the last `waiting` of `nested`)
/// their parent: the command's last invocation (`psql` in `sudo psql -c "..."`), if it has
/// one (`out[first..end]`).
fn adopt(nested: &mut [(String, Option<usize>)], waiting: &mut usize, first: usize, end: usize) {
    let parent = (end > first).then(|| end - 1);
    let count = nested.len();
    for (_, slot) in &mut nested[count - *waiting..] {
        *slot = parent;
    }
    *waiting = 0;
}

/// A word of a command in the case it is compared in: lower-case, but for a short flag
/// (`-D`, `-Rf`), whose case the program reads ([`crate::normalize::flag_case`]).
fn word_case(word: String) -> String {
    let short_flag = word.starts_with('-') && !word.starts_with("--") && word.len() > 1;
    if short_flag || !word.chars().any(char::is_uppercase) {
        word
    } else {
        word.to_lowercase()
    }
}

/// Whether the next word of a simple command is the command line a shell's `-c` takes
/// (`sh -c yarn`, `bash -lc 'git push'`): the last word is a short option cluster holding
/// `c`, and a shell runs before it.
fn is_shell_command_value(segment: &[String]) -> bool {
    let Some((last, before)) = segment.split_last() else {
        return false;
    };
    last.strip_prefix('-').is_some_and(|letters| {
        !letters.starts_with('-')
            && letters.contains('c')
            && letters.chars().all(|ch| ch.is_ascii_alphabetic())
    }) && before
        .iter()
        .any(|word| COMMAND_SHELLS.contains(&program_name(word).as_str()))
}

/// The shell variables and aliases a command line sets, by name (lower-case, as the line's
/// words are), to read the words that use them as the shell would. Bounded by the line.
#[derive(Default)]
struct Names {
    variables: Vec<(String, String)>,
    aliases: Vec<(String, String)>,
}

impl Names {
    /// Records what a simple command sets: `NAME=value` alone (or with `export`), or
    /// `alias NAME=value`.
    fn learn(&mut self, segment: &[String]) {
        let (list, words) = match segment.split_first() {
            Some((first, rest)) if first == "alias" => (&mut self.aliases, rest),
            Some((first, rest)) if first == "export" || first == "local" || first == "readonly" => {
                (&mut self.variables, rest)
            }
            _ if segment.iter().all(|word| is_assignment(word)) => (&mut self.variables, segment),
            _ => return,
        };
        for word in words {
            if let Some((name, value)) = word.split_once('=') {
                list.retain(|(known, _)| known != name);
                list.push((name.to_owned(), value.to_owned()));
            }
        }
    }

    /// Replaces an alias in program position and each `$NAME` / `${NAME}` word by what the
    /// line set it to; a program word that stays an expansion is [`HIDDEN_PROGRAM`].
    /// What the expansions add counts against the invocations' words
    /// ([`Budget::take_invocation_words`]): `v="a a ... a"; echo $v $v ...` would otherwise
    /// grow with the square of the line. Past the bound, the rest is not expanded.
    fn expand(&self, segment: &mut Vec<String>, budget: &Budget) {
        if segment.is_empty() {
            return;
        }
        let start = segment
            .iter()
            .position(|word| !is_assignment(word))
            .unwrap_or(segment.len());
        if let Some(word) = segment.get(start)
            && let Some((_, value)) = self.aliases.iter().find(|(name, _)| name == word)
        {
            let words: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
            if !budget.take_invocation_words(words.len()) {
                return;
            }
            segment.splice(start..=start, words);
        }
        for at in (0..segment.len()).rev() {
            let Some(name) = variable_name(&segment[at]) else {
                continue;
            };
            match self.variables.iter().rev().find(|(known, _)| known == name) {
                Some((_, value)) => {
                    let words: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
                    if !budget.take_invocation_words(words.len()) {
                        return;
                    }
                    segment.splice(at..=at, words);
                }
                None if at == start => segment[at] = HIDDEN_PROGRAM.to_owned(),
                None => {}
            }
        }
    }
}

/// The name in a word that is one variable's expansion: `$g`, `${g}`, `"$g"`.
fn variable_name(word: &str) -> Option<&str> {
    let rest = word.strip_prefix('$')?;
    let name = rest
        .strip_prefix('{')
        .and_then(|inner| inner.strip_suffix('}'))
        .unwrap_or(rest);
    (!name.is_empty() && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_')).then_some(name)
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_alphabetic() || ch == '_')
                && name.chars().all(|ch| ch.is_alphanumeric() || ch == '_')
        }
        None => false,
    }
}

/// The invocations of one simple command: the program, and behind each wrapper the program
/// it runs, up to [`MAX_WRAPPERS`] wrappers. `false` when their words do not fit the budget.
fn segment_invocations(words: &[String], out: &mut Vec<Invocation>, budget: &Budget) -> bool {
    segment_invocations_within(words, out, budget, 0)
}

/// [`segment_invocations`] for a command that `finds` levels of `find -exec` run.
fn segment_invocations_within(
    words: &[String],
    out: &mut Vec<Invocation>,
    budget: &Budget,
    finds: usize,
) -> bool {
    // A comment runs nothing: a shell's `# ...` and SQL's `-- ...` to the end of the line, SQL's
    // `/* ... */` before a statement.
    if words
        .first()
        .is_some_and(|first| first.starts_with('#') || first.starts_with("--"))
    {
        return true;
    }
    let mut index = 0;
    if words.first().is_some_and(|first| first.starts_with("/*")) {
        index = words
            .iter()
            .position(|word| word.ends_with("*/"))
            .map_or(words.len(), |end| end + 1);
    }
    while index < words.len()
        && (is_assignment(&words[index]) || SHELL_KEYWORDS.contains(&words[index].as_str()))
    {
        index += 1;
    }
    let mut wrappers = 0;
    // `NODE_ENV=test npx prisma migrate reset`: what is set before a wrapper is the wrapped
    // command's environment too.
    let leading = index;
    let mut carried: Vec<String> = Vec::new();
    // The name a runner runs its package or flake output under (`npx eas-cli` runs `eas`).
    let mut renamed: Option<String> = None;
    while index < words.len() {
        // A wrapper's invocation holds every word of the command it wraps.
        if !budget.take_invocation_words(words.len() - index) {
            return false;
        }
        match renamed.take() {
            Some(name) => {
                let mut run = words[index..].to_vec();
                run[0] = name;
                out.push(invocation(&run));
            }
            None => out.push(invocation(&words[index..])),
        }
        if wrappers == 0
            && let Some(invocation) = out.last_mut()
        {
            apply_environment(invocation, &words[..index]);
        } else if let Some(invocation) = out.last_mut() {
            // `env NODE_ENV=production npm run seed`: what `env` sets is the command's
            // environment as much as assignments before it are.
            let mut environment = words[..leading].to_vec();
            environment.extend(carried.iter().cloned());
            if !environment.is_empty() {
                apply_environment(invocation, &environment);
            }
        }
        let program = program_name(&words[index]);
        if program == "find" && !find_exec_invocations(&words[index + 1..], out, budget, finds) {
            return false;
        }
        if !WRAPPERS.contains(&program.as_str()) {
            // A package runner runs the program it names (`npx wrangler deploy`, `pnpm dlx`,
            // `uv run`, `python -m pip`): the wrapped program is read as if typed directly.
            match runner_target(&program, &words[index + 1..]) {
                Some(skip) if wrappers < MAX_WRAPPERS => {
                    wrappers += 1;
                    index += 1 + skip;
                    renamed = words.get(index).and_then(|word| run_name(&program, word));
                    continue;
                }
                Some(_) => {
                    budget.exceed(Bound::Wrappers);
                    break;
                }
                None => break,
            }
        }
        if wrappers == MAX_WRAPPERS {
            // The program behind this wrapper is not read: the check is incomplete.
            budget.exceed(Bound::Wrappers);
            break;
        }
        wrappers += 1;
        index += 1;
        // Skip the wrapper's own options (with their values), assignments (`env A=1`) and
        // arguments (`timeout 5`, `chroot /srv`, `ssh host`).
        let (value_options, mut arguments) = WRAPPER_OPTIONS
            .iter()
            .find(|(name, ..)| *name == program)
            .map_or((&[][..], 0), |(_, options, arguments)| {
                (*options, *arguments)
            });
        let mut options_done = false;
        while index < words.len() {
            let word = &words[index];
            if !options_done && word == "--" {
                options_done = true;
                index += 1;
            } else if !options_done && word.starts_with('-') && word.len() > 1 {
                index += if wrapper_takes_a_value(value_options, word) {
                    2
                } else {
                    1
                };
            } else if is_assignment(word) && program == "env" {
                carried.push(word.clone());
                index += 1;
            } else if arguments > 0 {
                arguments -= 1;
                index += 1;
            } else {
                break;
            }
        }
    }
    true
}

/// The command a runner runs under another name than the word it is given: a flake output's
/// attribute (`nix run nixpkgs#alembic` runs `alembic`) and a JavaScript package named
/// `<cmd>-cli` (`npx eas-cli@5`, `pnpm dlx expo-cli` run `eas`, `expo`).
fn run_name(runner: &str, word: &str) -> Option<String> {
    if runner == "nix" {
        return word
            .rsplit_once('#')
            .map(|(_, attribute)| attribute.to_owned())
            .filter(|attribute| !attribute.is_empty());
    }
    if matches!(runner, "docker" | "podman" | "nerdctl") {
        return image_program(word).map(str::to_owned);
    }
    if !JS_PACKAGE_RUNNERS.contains(&runner) {
        return None;
    }
    program_name(word)
        .strip_suffix("-cli")
        .filter(|stem| !stem.is_empty())
        .map(str::to_owned)
}

/// Whether `program`'s option `word` takes the next word as its value: a long one of
/// [`VALUE_FLAGS`] for any program, a short one of [`SHORT_VALUE_FLAGS`] for its program.
pub(crate) fn takes_a_value(program: &str, subcommand: Option<&String>, word: &str) -> bool {
    VALUE_FLAGS.contains(&word)
        || SHORT_VALUE_FLAGS.iter().any(|(known, flags)| {
            let of_this = match known.split_once(' ') {
                Some((known_program, known_subcommand)) => {
                    known_program == program
                        && subcommand.is_some_and(|subcommand| subcommand == known_subcommand)
                }
                None => *known == program,
            };
            of_this && flags.contains(&word)
        })
}

/// Whether a wrapper's option takes the next word as its value: it is one of `options`, or a
/// cluster of short options whose last one is (`sudo -iu root`); never with an `=` in it.
fn wrapper_takes_a_value(options: &[&str], word: &str) -> bool {
    if word.contains('=') {
        return false;
    }
    if options.contains(&word) {
        return true;
    }
    let Some(letters) = word.strip_prefix('-').filter(|rest| !rest.starts_with('-')) else {
        return false;
    };
    letters.chars().all(|ch| ch.is_ascii_alphabetic())
        && letters.chars().next_back().is_some_and(|last| {
            let mut short = String::from("-");
            short.push(last);
            options.contains(&short.as_str())
        })
}

/// `find`'s tests that keep some files of the places it walks and not others.
const FIND_TESTS: &[&str] = &[
    "-amin",
    "-anewer",
    "-atime",
    "-cmin",
    "-cnewer",
    "-ctime",
    "-empty",
    "-group",
    "-iname",
    "-inum",
    "-ipath",
    "-iregex",
    "-iwholename",
    "-links",
    "-mindepth",
    "-mmin",
    "-mtime",
    "-name",
    "-newer",
    "-nogroup",
    "-nouser",
    "-path",
    "-perm",
    "-regex",
    "-samefile",
    "-size",
    "-type",
    "-user",
    "-wholename",
];

/// The commands `find` runs for each file (`find . -exec rm -rf {} +`): the words after each
/// of [`FIND_EXEC_OPTIONS`], up to `;` or `+`, read as a simple command of their own.
/// `find -exec find -exec ...` nests like wrappers do, and counts against [`MAX_WRAPPERS`].
fn find_exec_invocations(
    rest: &[String],
    out: &mut Vec<Invocation>,
    budget: &Budget,
    finds: usize,
) -> bool {
    // The places `find` starts from: the words before its first option or expression (`.`
    // when none is given). Without a test that narrows which files, the command it runs on
    // each file is run on all of them, the places themselves first: `find build -exec rm -rf
    // {} +` and `find build -delete` remove what `rm -rf build` does. With a test (`-name
    // '*.tmp'`, `-type f`) they are some files below the places, which no rule on the places
    // names (`{}` stays a word; `-delete` removes nothing a command spells).
    let narrowed = rest.windows(2).any(|pair| {
        FIND_TESTS.contains(&pair[0].as_str()) && !(pair[0] == "-type" && pair[1] == "d")
    });
    let starts: Vec<String> = {
        let given: Vec<String> = rest
            .iter()
            .take_while(|word| !word.starts_with('-') && !matches!(word.as_str(), "(" | "!"))
            .cloned()
            .collect();
        if given.is_empty() {
            vec![".".to_owned()]
        } else {
            given
        }
    };
    let mut at = 0;
    while at < rest.len() {
        if FIND_EXEC_OPTIONS.contains(&rest[at].as_str()) {
            let start = at + 1;
            let end = rest[start..]
                .iter()
                .position(|word| word == ";" || word == "+")
                .map_or(rest.len(), |offset| start + offset);
            if start < end {
                if finds >= MAX_WRAPPERS {
                    // The command behind this `-exec` is not read: the check is incomplete.
                    budget.exceed(Bound::Wrappers);
                    return true;
                }
                let run: Vec<String> = rest[start..end]
                    .iter()
                    .flat_map(|word| {
                        if word == "{}" && !narrowed {
                            starts.clone()
                        } else {
                            vec![word.clone()]
                        }
                    })
                    .collect();
                if !segment_invocations_within(&run, out, budget, finds + 1) {
                    return false;
                }
            }
            at = end;
        } else if rest[at] == "-delete" && !narrowed {
            let run: Vec<String> = ["rm", "-rf"]
                .into_iter()
                .map(str::to_owned)
                .chain(starts.iter().cloned())
                .collect();
            if !segment_invocations_within(&run, out, budget, finds + 1) {
                return false;
            }
        }
        at += 1;
    }
    true
}

/// For a runner `program` followed by `rest`, how many words of `rest` come before the program
/// it runs (its subcommand and options); `None` when `program` runs nothing named after it.
/// `python -m pip install x` runs `pip install x`.
fn runner_target(program: &str, rest: &[String]) -> Option<usize> {
    // `nix run nixpkgs#alembic -- downgrade`: the flake output is the program, and its
    // arguments follow `--`.
    if program == "nix" && rest.first().is_some_and(|word| word == "run") {
        return rest
            .iter()
            .skip(1)
            .position(|word| !word.starts_with('-'))
            .map(|at| at + 1);
    }
    if let Some((_, _, arguments)) = ENVIRONMENT_RUNNERS
        .iter()
        .find(|(runner, sub, _)| *runner == program && rest.first().is_some_and(|word| word == sub))
    {
        // `op run --env-file=.env -- flyctl ...`, `direnv exec . flyctl ...`.
        if let Some(end) = rest.iter().position(|word| word == "--") {
            return (end + 1 < rest.len()).then_some(end + 1);
        }
        let mut at = 1;
        let mut left = *arguments;
        while at < rest.len() {
            if rest[at].starts_with('-') {
                at += 1;
            } else if left > 0 {
                left -= 1;
                at += 1;
            } else {
                return Some(at);
            }
        }
        return None;
    }
    let mut at = if RUNNERS.contains(&program) {
        0
    } else if RUNNER_SUBCOMMANDS
        .iter()
        .any(|(runner, sub)| *runner == program && rest.first().is_some_and(|word| word == sub))
    {
        1
    } else if let Some(first) = rest.iter().position(|word| !word.starts_with('-'))
        && runs_unknown_word(program, &rest[first])
    {
        // `pnpm drizzle-kit push`: a package manager runs a word that is none of its commands
        // as a script, or else as the package's program.
        first
    } else if let Some(target) = container_target(program, rest) {
        // `docker compose exec redis redis-cli FLUSHALL`, `kubectl exec pod -- psql -c ...`:
        // the command run in the container.
        return Some(target);
    } else if program == "python" && rest.first().is_some_and(|word| word == "-m") {
        return rest.get(1).map(|_| 1);
    } else if SCRIPT_RUNNERS.contains(&program) {
        // `bash ./deploy.sh prod`, `python scripts/seed.py`: the interpreter runs the script,
        // read as if the script were typed directly. Not with a command given in-line
        // (`bash -c`, `python -c`, `node -e`), which is read as a quoted command instead.
        let script = rest.iter().position(|word| !word.starts_with('-'))?;
        let inline = rest[..script].iter().any(|flag| {
            flag.starts_with('-') && !flag.starts_with("--") && flag.contains(['c', 'e', 'm'])
        });
        return (!inline && is_script(&rest[script])).then_some(script);
    } else {
        return None;
    };
    while at < rest.len() {
        let word = &rest[at];
        if word == "--" {
            at += 1;
            break;
        }
        if VALUE_FLAGS.contains(&word.as_str()) || word == "--package" || word == "--with" {
            at += 2;
        } else if word.starts_with('-') {
            at += 1;
        } else {
            break;
        }
    }
    (at < rest.len()).then_some(at)
}

/// Where the command a container runs starts in the words after `program`: `docker exec
/// [options] CONTAINER CMD`, `docker run [options] IMAGE CMD`, `docker compose exec|run
/// [options] SERVICE CMD` (and podman's), `kubectl exec [options] POD -- CMD`. `None` for
/// any other command, or one that runs nothing of its own (`docker run nginx`).
fn container_target(program: &str, rest: &[String]) -> Option<usize> {
    let mut runs_an_image = false;
    let (mut at, value_options): (usize, &[&str]) = match program {
        "docker" | "podman" | "nerdctl" => {
            let subcommand = rest.iter().position(|word| !word.starts_with('-'))?;
            let group = matches!(rest[subcommand].as_str(), "compose" | "container");
            let verb = if group { subcommand + 1 } else { subcommand };
            if !matches!(rest.get(verb).map(String::as_str), Some("exec" | "run")) {
                return None;
            }
            runs_an_image = !group && rest[verb] == "run";
            (verb + 1, CONTAINER_VALUE_OPTIONS)
        }
        "kubectl" | "oc" => {
            let verb = rest.iter().position(|word| !word.starts_with('-'))?;
            if rest[verb] != "exec" {
                return None;
            }
            if let Some(dashes) = rest[verb..].iter().position(|word| word == "--") {
                let target = verb + dashes + 1;
                return (target < rest.len()).then_some(target);
            }
            (verb + 1, KUBECTL_EXEC_VALUE_OPTIONS)
        }
        _ => return None,
    };
    while let Some(word) = rest.get(at).filter(|word| word.starts_with('-')) {
        at += if !word.contains('=') && value_options.contains(&word.as_str()) {
            2
        } else {
            1
        };
    }
    // The container, service or image, then the command. An image whose entrypoint is a
    // CLI (`hashicorp/terraform:1.9 apply`) runs that program with the words after it, unless
    // they name the program themselves (`bitnami/kubectl kubectl get pods`).
    let target = at + 1;
    if runs_an_image
        && let Some(image) = rest.get(at)
        && let Some(entrypoint) = image_program(image)
        && rest
            .get(target)
            .is_none_or(|word| program_name(word) != entrypoint)
    {
        return Some(at);
    }
    (target < rest.len()).then_some(target)
}

/// The program an image runs as its entrypoint, by the image's name without its registry,
/// owner and tag (`hashicorp/terraform:1.9`, `alpine/helm:3.14`, `bitnami/kubectl`,
/// `amazon/aws-cli`): only images that are a CLI, so `node:20 npm test` runs what follows.
fn image_program(image: &str) -> Option<&'static str> {
    const CLI_IMAGES: &[(&str, &str)] = &[
        ("ansible", "ansible"),
        ("aws-cli", "aws"),
        ("awscli", "aws"),
        ("azure-cli", "az"),
        ("flyctl", "flyctl"),
        ("gh", "gh"),
        ("helm", "helm"),
        ("helmfile", "helmfile"),
        ("k6", "k6"),
        ("kubectl", "kubectl"),
        ("packer", "packer"),
        ("pulumi", "pulumi"),
        ("terraform", "terraform"),
        ("terragrunt", "terragrunt"),
        ("tofu", "tofu"),
        ("opentofu", "tofu"),
        ("vault", "vault"),
    ];
    let name = image.rsplit('/').next().unwrap_or(image);
    let name = name
        .split(['@', ':'])
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    CLI_IMAGES
        .iter()
        .find(|(image, _)| *image == name)
        .map(|(_, program)| *program)
}

/// How many of a command's first words are a package runner that runs the rest (`npx`,
/// `bunx`, `pnpm exec`, `pnpm dlx`, `uv run`): none when nothing follows them.
pub(crate) fn runner_prefix(words: &[&str]) -> usize {
    let program = words
        .first()
        .map(|word| program_name(word))
        .unwrap_or_default();
    let prefix = if RUNNERS.contains(&program.as_str()) {
        1
    } else if RUNNER_SUBCOMMANDS.iter().any(|(runner, sub)| {
        *runner == program
            && words
                .get(1)
                .is_some_and(|word| word.eq_ignore_ascii_case(sub))
    }) {
        2
    } else {
        0
    };
    // The program run must follow, and not as an option.
    if words
        .get(prefix)
        .is_some_and(|next| prefix > 0 && !next.starts_with('-'))
    {
        prefix
    } else {
        0
    }
}

/// Whether a word names a script file: a path (`./deploy.sh`, `scripts/seed`) or a file with
/// a script's extension (`seed.py`).
pub(crate) fn is_script(word: &str) -> bool {
    word.contains('/')
        || word.rsplit_once('.').is_some_and(|(stem, extension)| {
            !stem.is_empty() && SCRIPT_EXTENSIONS.contains(&extension)
        })
}

/// Reads the assignments before a command into its invocation: as text, and those that give
/// one of its options ([`ENVIRONMENT_OPTIONS`]) as that option: `AWS_PROFILE=sandbox aws s3
/// ls` gives `--profile sandbox`.
fn apply_environment(invocation: &mut Invocation, assignments: &[String]) {
    // The place a command runs against is often only in its environment
    // (`DATABASE_URL=postgres://localhost/app`, `RAILS_ENV=test`): the invocation carries it.
    let environment: Vec<&str> = assignments
        .iter()
        .filter(|word| is_assignment(word))
        .map(String::as_str)
        .collect();
    if !environment.is_empty() {
        invocation
            .texts
            .push(Text::of(&environment.join(" "), false, false));
        invocation.environment = environment
            .iter()
            .map(|word| word.replace(['"', '\''], "").to_lowercase())
            .collect();
    }
    for assignment in assignments {
        let Some((name, value)) = assignment.split_once('=') else {
            continue;
        };
        let value = value.trim_matches(['"', '\'']);
        for (program, variable, option) in ENVIRONMENT_OPTIONS {
            if *program != invocation.program || !variable.eq_ignore_ascii_case(name) {
                continue;
            }
            if option.is_empty() {
                for word in value
                    .split_whitespace()
                    .filter(|word| word.starts_with('-'))
                {
                    let (flag, given) = match word.split_once('=') {
                        Some((flag, given)) => (flag, Some(given)),
                        None => (word, None),
                    };
                    if !invocation.flags.iter().any(|seen| seen == flag) {
                        invocation.flags.push(flag.to_owned());
                    }
                    if let Some(given) = given {
                        invocation
                            .values
                            .push((flag.to_owned(), given.to_lowercase()));
                    }
                }
            } else {
                if !invocation.flags.iter().any(|seen| seen == option) {
                    invocation.flags.push((*option).to_owned());
                }
                invocation
                    .values
                    .push(((*option).to_owned(), value.to_lowercase()));
            }
        }
    }
}

/// Options whose value is what a flag of the program says on its own: (program, option,
/// value, flag).
const FLAG_VALUE_MEANINGS: &[(&str, &str, &str, &str)] =
    &[("vercel", "--target", "production", "--prod")];

fn invocation(words: &[String]) -> Invocation {
    let first = &words[0];
    let (named, rest) = if first.starts_with('-') {
        (String::new(), words)
    } else {
        (program_name(first), &words[1..])
    };
    // `Remove-Item` is compared as `rm`, `docker-compose` as `docker compose`.
    let cmdlet = powershell_cmdlet(&named).map(|(_, parameters)| parameters);
    let (mut program, prefix) = equivalent_program(named);
    let mut positional: Vec<String> = prefix.iter().map(|word| (*word).to_owned()).collect();
    let mut flags = Vec::new();
    let mut expanded = Vec::new();
    let mut skip_value = false;
    let mut take_positional = false;
    let mut options_done = false;
    let mut after_option = false;
    let mut option_values = 0;
    let mut values: Vec<(String, String)> = Vec::new();
    for (at, word) in rest.iter().enumerate() {
        let follows_option = std::mem::take(&mut after_option);
        if skip_value {
            skip_value = false;
            continue;
        }
        if take_positional {
            take_positional = false;
            positional.push(word.to_lowercase());
            continue;
        }
        // A cmdlet's parameters: case-blind, any unique prefix, an en dash for the hyphen; and
        // its alias's (`rm -Recurse -Force`), where the word can be nothing else.
        let parameters = cmdlet.or_else(|| {
            is_long_powershell_word(word)
                .then(|| cmdlet_parameters_of(&program))
                .flatten()
        });
        if let Some(parameters) = parameters
            && let Some(name) = powershell_parameter_name(word)
        {
            match powershell_parameter(parameters, &name) {
                Some(PsParameter::Flag(flag)) => {
                    if !flags.iter().any(|seen| seen == flag) {
                        flags.push(flag.to_owned());
                    }
                }
                Some(PsParameter::Positional) => take_positional = !word.contains(':'),
                Some(PsParameter::Value) => skip_value = !word.contains(':'),
                None => flags.push(format!("-{name}")),
            }
            continue;
        }
        if !options_done && word == "--" {
            options_done = true;
            continue;
        }
        if !options_done && word.len() > 1 && word.starts_with('-') {
            expanded.clear();
            expand_flag(word, &mut expanded);
            let subcommand = flags_subcommand(&program, &positional);
            for flag in &expanded {
                for meaning in flag_meanings_after(&program, subcommand, flag) {
                    if !flags.iter().any(|seen| seen == meaning) {
                        flags.push(meaning.to_owned());
                    }
                }
            }
            skip_value = !word.contains('=')
                && (takes_a_value(&program, positional.first(), word)
                    || pwsh_takes_a_value(&program, word));
            after_option = !skip_value && !word.contains('=');
            let name = flag_meanings(&program, expanded.first().map_or("", String::as_str))
                .next()
                .unwrap_or_default()
                .to_owned();
            match word.split_once('=') {
                Some((_, value)) => values.push((name, value.to_lowercase())),
                None if word.starts_with("--") || skip_value => {
                    if let Some(next) = rest.get(at + 1).filter(|next| !next.starts_with('-')) {
                        values.push((name, next.to_lowercase()));
                    }
                }
                None => {}
            }
            continue;
        }
        // `git push origin +main` forces the push of that ref: it is `--force` for it.
        // `git push origin :old` pushes nothing to `old`: it deletes the remote branch.
        if program == "git"
            && positional.first().is_some_and(|first| first == "push")
            && let Some((refspec, flag)) = [('+', "--force"), (':', "--delete")]
                .into_iter()
                .find_map(|(sigil, flag)| {
                    word.strip_prefix(sigil)
                        .filter(|rest| !rest.is_empty())
                        .map(|rest| (rest, flag))
                })
        {
            if !flags.iter().any(|seen| seen == flag) {
                flags.push(flag.to_owned());
            }
            positional.push(refspec.to_owned());
            continue;
        }
        // `cargo +nightly publish`: a toolchain before the subcommand is no subcommand.
        if positional.is_empty()
            && word.starts_with('+')
            && matches!(program.as_str(), "cargo" | "rustup" | "rustc" | "rustdoc")
        {
            continue;
        }
        if follows_option && positional.len() == option_values {
            option_values += 1;
        }
        // `npm i` is `npm install`: the subcommand in its full name.
        if positional.is_empty() {
            positional.push(canonical_subcommand(&program, word).to_owned());
            continue;
        }
        positional.push(word.clone());
    }
    let read = positional.len();
    canonical_words(&mut program, &mut positional);
    if positional.len() != read {
        // The words were put in another order: which ones were values is no longer known.
        option_values = 0;
    }
    // `vercel deploy --target=production` is `--prod`: an option given the value that a flag
    // of its own stands for.
    for (known, option, value, flag) in FLAG_VALUE_MEANINGS {
        if *known == program
            && values
                .iter()
                .any(|(given, seen)| given == option && seen == value)
            && !flags.iter().any(|seen| seen == flag)
        {
            flags.push((*flag).to_owned());
        }
    }
    Invocation {
        program,
        positional,
        option_values,
        flags,
        values,
        texts: vec![Text::of(&words.join(" "), false, false)],
        pipeline: 0,
        parent: None,
        environment: Vec::new(),
    }
}
