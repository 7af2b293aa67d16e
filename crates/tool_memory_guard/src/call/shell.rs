//! The shell parser of the call view: a command line cut into words and separators, and the
//! programs it runs (behind wrappers, package runners and quoted inner commands), as
//! invocations.

use super::lexicon::{
    RUNNER_SUBCOMMANDS, RUNNERS, SCRIPT_EXTENSIONS, SCRIPT_RUNNERS, VALUE_FLAGS, WRAPPERS,
};
use super::text::Text;
use crate::limits::{Bound, Budget, MAX_COMMAND_NESTING, MAX_WRAPPERS};
use crate::normalize::{canonical_flag, expand_flag, program_name};

/// One program run by a command line: `git -C x push --force origin main`.
#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    /// Base name, lower-case.
    pub(crate) program: String,
    /// Words after the program that are not flags or flag values: subcommands, then
    /// arguments.
    pub(crate) positional: Vec<String>,
    /// Flags, expanded and in the program's canonical spelling.
    pub(crate) flags: Vec<String>,
    /// The invocation's own words, joined, as a one-element text list.
    pub(crate) texts: Vec<Text>,
    /// Which pipeline (`curl ... | sh`) the invocation is part of: invocations joined by `|`
    /// share it.
    pub(crate) pipeline: usize,
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
/// backticks), honouring quotes and backslashes.
fn shell_pieces(line: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted_space = false;
    let mut quote: Option<char> = None;
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
                    word.push(next);
                    in_word = true;
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
            ';' | '&' | '\n' | '(' | ')' | '`' | '{' | '}' => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
            }
            '$' if chars.peek() == Some(&'(') => {
                flush(&mut pieces, &mut word, &mut in_word, &mut quoted_space);
                pieces.push(Piece::Separator);
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

/// Finds every invocation in a (lower-case) command line, including those inside quoted
/// arguments such as `bash -c '...'` or `ssh host "..."`, down to [`MAX_COMMAND_NESTING`]
/// levels. `false` when the invocations' words ran out of budget, so parsing stops.
pub(crate) fn parse_command_line(
    line: &str,
    depth: usize,
    out: &mut Vec<Invocation>,
    budget: &Budget,
) -> bool {
    let pieces = shell_pieces(line);
    let mut segment: Vec<String> = Vec::new();
    let mut nested: Vec<String> = Vec::new();
    // A pipeline is named by the index of its first invocation in `out`.
    let mut pipeline = out.len();
    for piece in pieces {
        match piece {
            Piece::Word { text, quoted_space } => {
                if quoted_space {
                    nested.push(text.clone());
                }
                segment.push(text);
            }
            Piece::Separator | Piece::Pipe => {
                let first = out.len();
                if !segment_invocations(&segment, out, budget) {
                    return false;
                }
                for invocation in &mut out[first..] {
                    invocation.pipeline = pipeline;
                }
                segment.clear();
                if matches!(piece, Piece::Separator) {
                    pipeline = out.len();
                }
            }
        }
    }
    let first = out.len();
    if !segment_invocations(&segment, out, budget) {
        return false;
    }
    for invocation in &mut out[first..] {
        invocation.pipeline = pipeline;
    }
    if nested.is_empty() {
        return true;
    }
    if depth >= MAX_COMMAND_NESTING {
        // The quoted text may hold a command that is not read: the check is incomplete.
        budget.exceed(Bound::CommandNesting);
        return true;
    }
    nested
        .iter()
        .all(|inner| parse_command_line(inner, depth + 1, out, budget))
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
    let mut index = 0;
    while index < words.len() && is_assignment(&words[index]) {
        index += 1;
    }
    let mut wrappers = 0;
    while index < words.len() {
        // A wrapper's invocation holds every word of the command it wraps.
        if !budget.take_invocation_words(words.len() - index) {
            return false;
        }
        out.push(invocation(&words[index..]));
        let program = program_name(&words[index]);
        if !WRAPPERS.contains(&program.as_str()) {
            // A package runner runs the program it names (`npx wrangler deploy`, `pnpm dlx`,
            // `uv run`, `python -m pip`): the wrapped program is read as if typed directly.
            match runner_target(&program, &words[index + 1..]) {
                Some(skip) if wrappers < MAX_WRAPPERS => {
                    wrappers += 1;
                    index += 1 + skip;
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
        // Skip the wrapper's own options, assignments and (for timeout, nice -n) values.
        while index < words.len() {
            let word = &words[index];
            if VALUE_FLAGS.contains(&word.as_str()) {
                index += 2;
            } else if word.starts_with('-')
                || is_assignment(word)
                || (program == "timeout"
                    && word.chars().next().is_some_and(|ch| ch.is_ascii_digit()))
            {
                index += 1;
            } else {
                break;
            }
        }
    }
    true
}

/// For a runner `program` followed by `rest`, how many words of `rest` come before the program
/// it runs (its subcommand and options); `None` when `program` runs nothing named after it.
/// `python -m pip install x` runs `pip install x`.
fn runner_target(program: &str, rest: &[String]) -> Option<usize> {
    let mut at = if RUNNERS.contains(&program) {
        0
    } else if RUNNER_SUBCOMMANDS
        .iter()
        .any(|(runner, sub)| *runner == program && rest.first().is_some_and(|word| word == sub))
    {
        1
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

/// Whether a word names a script file: a path (`./deploy.sh`, `scripts/seed`) or a file with
/// a script's extension (`seed.py`).
pub(crate) fn is_script(word: &str) -> bool {
    word.contains('/')
        || word.rsplit_once('.').is_some_and(|(stem, extension)| {
            !stem.is_empty() && SCRIPT_EXTENSIONS.contains(&extension)
        })
}

fn invocation(words: &[String]) -> Invocation {
    let first = &words[0];
    let (program, rest) = if first.starts_with('-') {
        (String::new(), words)
    } else {
        (program_name(first), &words[1..])
    };
    let mut positional = Vec::new();
    let mut flags = Vec::new();
    let mut expanded = Vec::new();
    let mut skip_value = false;
    let mut options_done = false;
    for word in rest {
        if skip_value {
            skip_value = false;
            continue;
        }
        if !options_done && word == "--" {
            options_done = true;
            continue;
        }
        if !options_done && word.len() > 1 && word.starts_with('-') {
            expanded.clear();
            expand_flag(word, &mut expanded);
            flags.extend(
                expanded
                    .iter()
                    .map(|flag| canonical_flag(&program, flag).to_owned()),
            );
            skip_value = !word.contains('=') && VALUE_FLAGS.contains(&word.as_str());
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
        positional.push(word.clone());
    }
    Invocation {
        program,
        positional,
        flags,
        texts: vec![Text::new(words.join(" "), false, false)],
        pipeline: 0,
    }
}
