//! The guard's view of a proposed tool call: every string of the arguments (lower-cased, with
//! whether it sits under a recipient-like key), the command invocations found in them, and
//! the flags set by boolean arguments.
//!
//! Built once per check, and only when some rule is a candidate, so a call that no rule can
//! touch costs no more than the token walk in the index. Both walks over the arguments, and
//! the command parser, stop at the bounds of [`crate::limits`] and record which one they hit.

use std::cell::OnceCell;

use serde_json::Value;
use tool_memory_core::split_words;

use crate::limits::{
    ArgumentCount, Bound, Budget, MAX_ARGUMENT_DEPTH, MAX_COMMAND_NESTING, MAX_WRAPPERS,
};
use crate::normalize::{
    UrlParts, alnum_runs, canonical_flag, chunks, expand_flag, flag_of_key, host_of_chunk,
    is_domain_like, normalize_email, normalize_path, normalize_url, path_candidates, person_tokens,
    program_name,
};

/// Keys whose values name who a call reaches. Address-like matchers (e-mail, person) look
/// only here when a call has any, so a body that mentions Sarah is not an e-mail to Sarah.
const RECIPIENT_KEYS: &[&str] = &[
    "to",
    "cc",
    "bcc",
    "recipient",
    "recipients",
    "attendee",
    "attendees",
    "participant",
    "participants",
    "invitee",
    "invitees",
    "guest",
    "guests",
    "user",
    "users",
    "username",
    "channel",
    "channels",
    "name",
    "contact",
    "contacts",
    "people",
    "member",
    "members",
    "assignee",
    "assignees",
    "reviewer",
    "reviewers",
    "payee",
    "beneficiary",
    "handle",
    "email",
    "emails",
    "dm",
    "person",
    "mention",
    "mentions",
    "phone",
    "number",
    "receiver",
    "addressee",
];

/// Programs that run another program: `sudo rm -rf /` runs both `sudo` and `rm`.
const WRAPPERS: &[&str] = &[
    "sudo",
    "doas",
    "env",
    "nohup",
    "time",
    "exec",
    "nice",
    "ionice",
    "command",
    "builtin",
    "xargs",
    "watch",
    "timeout",
    "strace",
    "caffeinate",
    "su",
];

/// Flags that take the next word as their value, so that word is not a subcommand
/// (`git -C repo push`, `kubectl -n prod delete`).
const VALUE_FLAGS: &[&str] = &[
    "-c",
    "-C",
    "--git-dir",
    "--work-tree",
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--profile",
    "--region",
    "--project",
    "-u",
    "-g",
    "--user",
    "-h",
    "--host",
    "-p",
    "--port",
];

/// Whether a required flag is an option that takes a value (`--namespace web`): only the long
/// spellings, since a short one (`-n`, `-p`) means different things to different programs.
pub(crate) fn takes_a_value(flag: &str) -> bool {
    let flag = flag.trim().to_lowercase();
    flag.starts_with("--") && VALUE_FLAGS.contains(&flag.as_str())
}

/// One string of a call, lower-cased, with the normal forms matchers compare computed on
/// first use.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    pub(crate) lower: String,
    /// Under a recipient-like key.
    pub(crate) recipient: bool,
    /// A joined argv array, used only to find invocations (its elements are texts too).
    pub(crate) command_only: bool,
    /// Boxed on first use: most texts of most checks never need one.
    forms: OnceCell<Box<Forms>>,
}

/// The candidate literals of a text in normal form. Every rule of a kind compares with the
/// same list, so a text is normalised once per check rather than once per candidate rule:
/// a megabyte of paths checked against many path rules cost seconds of allocation otherwise.
#[derive(Debug, Clone, Default)]
struct Forms {
    emails: OnceCell<Vec<String>>,
    hosts: OnceCell<Vec<String>>,
    urls: OnceCell<Vec<UrlParts>>,
    paths: OnceCell<Vec<String>>,
    person_tokens: OnceCell<Vec<(usize, usize)>>,
}

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

/// Everything the matchers look at.
#[derive(Debug, Default)]
pub(crate) struct CallView {
    /// The tool name's words (`git_push` → `git`, `push`); a tool can be a command.
    pub(crate) tool_words: Vec<String>,
    pub(crate) texts: Vec<Text>,
    /// Parsed on first use: most rules (addresses, names, URLs) never need them.
    parsed: OnceCell<Parsed>,
    /// Flags set by `true` arguments: `{"force": true}` → `--force`.
    pub(crate) bool_flags: Vec<String>,
    pub(crate) has_recipients: bool,
    /// What looking at every text costs: their bytes, and one per text.
    pub(crate) text_weight: usize,
    /// The work this check has spent, and the first bound it reached.
    pub(crate) budget: Budget,
}

/// The invocations of a call and what looking at all of them costs.
#[derive(Debug, Default)]
struct Parsed {
    invocations: Vec<Invocation>,
    weight: usize,
}

impl CallView {
    pub(crate) fn new(tool_name: &str, arguments: &Value) -> CallView {
        let mut view = CallView {
            tool_words: tool_words(tool_name),
            ..CallView::default()
        };
        if let Err(bound) = view.walk(arguments, false, 1, &mut ArgumentCount::default()) {
            view.budget.exceed(bound);
        }
        view.has_recipients = view.texts.iter().any(|text| text.recipient);
        view.text_weight = view.texts.iter().map(Text::weight).sum();
        view
    }

    /// Every invocation in every string of the call, up to the bounds on parsing.
    pub(crate) fn invocations(&self) -> &[Invocation] {
        &self.parsed().invocations
    }

    /// What looking at every invocation costs.
    pub(crate) fn invocation_weight(&self) -> usize {
        self.parsed().weight
    }

    fn parsed(&self) -> &Parsed {
        self.parsed.get_or_init(|| {
            let mut invocations = Vec::new();
            // A text without a letter (a number, a date, an amount) names no program.
            let commands = self
                .texts
                .iter()
                .filter(|text| text.lower.chars().any(char::is_alphabetic));
            for text in commands {
                if !parse_command_line(&text.lower, 0, &mut invocations, &self.budget) {
                    break;
                }
            }
            let weight = invocations.iter().map(Invocation::weight).sum();
            Parsed {
                invocations,
                weight,
            }
        })
    }

    /// Reads the arguments into texts and flags. Stops at the first bound: the index walk
    /// ([`visit_words`]) counts the same values in the same order, so both stop at one value.
    fn walk(
        &mut self,
        value: &Value,
        recipient: bool,
        depth: usize,
        count: &mut ArgumentCount,
    ) -> Result<(), Bound> {
        match value {
            Value::String(text) => {
                count.take(text.len())?;
                self.texts
                    .push(Text::new(text.to_lowercase(), recipient, false));
            }
            Value::Array(items) => {
                if depth > MAX_ARGUMENT_DEPTH {
                    return Err(Bound::ArgumentDepth);
                }
                // An argv array is one command line: `["git", "push", "--force"]`. Joined only
                // when its strings fit the bounds, which the walk below then checks one by one.
                if !recipient
                    && items.len() > 1
                    && items.iter().all(Value::is_string)
                    && count.fits(items.iter().filter_map(Value::as_str))
                {
                    let joined: Vec<String> = items
                        .iter()
                        .filter_map(Value::as_str)
                        .map(|item| {
                            if item.contains(char::is_whitespace) {
                                format!("'{item}'")
                            } else {
                                item.to_owned()
                            }
                        })
                        .collect();
                    self.texts
                        .push(Text::new(joined.join(" ").to_lowercase(), false, true));
                }
                for item in items {
                    self.walk(item, recipient, depth + 1, count)?;
                }
            }
            Value::Object(map) => {
                if depth > MAX_ARGUMENT_DEPTH {
                    return Err(Bound::ArgumentDepth);
                }
                for (key, item) in map {
                    count.take(key.len())?;
                    if item == &Value::Bool(true) {
                        self.bool_flags.push(flag_of_key(key));
                    }
                    self.walk(item, recipient || is_recipient_key(key), depth + 1, count)?;
                }
            }
            Value::Number(number) => {
                let text = number.to_string();
                count.take(text.len())?;
                self.texts.push(Text::new(text, recipient, false));
            }
            Value::Bool(_) | Value::Null => {}
        }
        Ok(())
    }
}

impl Text {
    pub(crate) fn new(lower: String, recipient: bool, command_only: bool) -> Text {
        Text {
            lower,
            recipient,
            command_only,
            forms: OnceCell::new(),
        }
    }

    fn forms(&self) -> &Forms {
        self.forms.get_or_init(Box::default)
    }

    /// What a matcher looking at this text costs: its bytes, and one for the text itself.
    pub(crate) fn weight(&self) -> usize {
        self.lower.len() + 1
    }

    /// The e-mail addresses in the text: every chunk with an `@` that normalises to one.
    pub(crate) fn emails(&self) -> &[String] {
        self.forms().emails.get_or_init(|| {
            chunks(&self.lower)
                .filter(|chunk| chunk.contains('@'))
                .filter_map(normalize_email)
                .collect()
        })
    }

    /// The hosts the text's chunks name (addresses' domains, URLs' hosts, dotted names, IPs).
    pub(crate) fn hosts(&self) -> &[String] {
        self.forms().hosts.get_or_init(|| {
            let mut hosts: Vec<String> = chunks(&self.lower).filter_map(host_of_chunk).collect();
            // A site's files live under its name: `/srv/www/shop.example.org/public` is
            // shop.example.org's.
            for chunk in chunks(&self.lower).filter(|chunk| chunk.contains('/')) {
                for component in chunk.split(['/', ':']).skip(1) {
                    if is_domain_like(component) && !hosts.iter().any(|host| host == component) {
                        hosts.push(component.to_owned());
                    }
                }
            }
            hosts
        })
    }

    /// The URLs in the text (`scheme://...` or `www....`).
    pub(crate) fn urls(&self) -> &[UrlParts] {
        self.forms().urls.get_or_init(|| {
            chunks(&self.lower)
                .filter(|chunk| chunk.contains("://") || chunk.starts_with("www."))
                .filter_map(normalize_url)
                .collect()
        })
    }

    /// The paths the text may name, normalised. Only candidates with a path's shape (a `/`,
    /// `.`, `~` or `\\`) are kept: a word without one normalises to a bare relative name,
    /// which no anchored pattern covers and no relative pattern is compared with.
    pub(crate) fn paths(&self) -> &[String] {
        self.forms().paths.get_or_init(|| {
            chunks(&self.lower)
                .flat_map(path_candidates)
                .filter(|candidate| candidate.contains(['/', '.', '~', '\\']))
                .map(normalize_path)
                .collect()
        })
    }

    /// The name words of the text ([`person_tokens`]) as byte ranges of `lower`.
    pub(crate) fn person_tokens(&self) -> &[(usize, usize)] {
        self.forms().person_tokens.get_or_init(|| {
            let base = self.lower.as_ptr() as usize;
            person_tokens(&self.lower)
                .into_iter()
                .map(|token| {
                    let start = token.as_ptr() as usize - base;
                    (start, start + token.len())
                })
                .collect()
        })
    }
}

impl Invocation {
    /// What a matcher looking at this invocation costs: its words' bytes, and one.
    pub(crate) fn weight(&self) -> usize {
        self.texts.iter().map(Text::weight).sum()
    }
}

/// Calls `visit` with every alphanumeric run of every string in `value` (at nesting level
/// `depth`), and of the flags set by `true` arguments: the words the guard's index looks up.
/// Counts values like [`CallView::new`] does and stops where it stops.
pub(crate) fn visit_words(
    value: &Value,
    visit: &mut dyn FnMut(&str),
    depth: usize,
    count: &mut ArgumentCount,
) -> Result<(), Bound> {
    match value {
        Value::String(text) => {
            count.take(text.len())?;
            alnum_runs(text).for_each(&mut *visit);
        }
        Value::Array(items) => {
            if depth > MAX_ARGUMENT_DEPTH {
                return Err(Bound::ArgumentDepth);
            }
            for item in items {
                visit_words(item, visit, depth + 1, count)?;
            }
        }
        Value::Object(map) => {
            if depth > MAX_ARGUMENT_DEPTH {
                return Err(Bound::ArgumentDepth);
            }
            for (key, item) in map {
                count.take(key.len())?;
                if item == &Value::Bool(true) {
                    alnum_runs(&flag_of_key(key)).for_each(&mut *visit);
                }
                visit_words(item, visit, depth + 1, count)?;
            }
        }
        Value::Number(number) => {
            let text = number.to_string();
            count.take(text.len())?;
            alnum_runs(&text).for_each(&mut *visit);
        }
        Value::Bool(_) | Value::Null => {}
    }
    Ok(())
}

/// The words of a tool name, split on `_`, `-`, `.`, spaces and camel case.
pub(crate) fn tool_words(tool_name: &str) -> Vec<String> {
    split_words(tool_name, true)
}

pub(crate) fn is_recipient_key(key: &str) -> bool {
    split_words(key, true)
        .iter()
        .any(|word| RECIPIENT_KEYS.contains(&word.as_str()))
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

/// Runners that take the program to run as their first word after their options.
const RUNNERS: &[&str] = &["bunx", "npx", "pnpx", "uvx"];

/// Runners whose subcommand (the second word) runs the program named after it.
const RUNNER_SUBCOMMANDS: &[(&str, &str)] = &[
    ("bun", "x"),
    ("bundle", "exec"),
    ("hatch", "run"),
    ("npm", "exec"),
    ("pdm", "run"),
    ("pipenv", "run"),
    ("pipx", "run"),
    ("pnpm", "dlx"),
    ("pnpm", "exec"),
    ("poetry", "run"),
    ("rye", "run"),
    ("uv", "run"),
    ("yarn", "dlx"),
    ("yarn", "exec"),
];

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
        if program == "git"
            && positional.first().is_some_and(|first| first == "push")
            && let Some(refspec) = word.strip_prefix('+').filter(|rest| !rest.is_empty())
        {
            if !flags.iter().any(|flag| flag == "--force") {
                flags.push("--force".to_owned());
            }
            positional.push(refspec.to_owned());
            continue;
        }
        // `git push origin :old` pushes nothing to `old`: it deletes the remote branch.
        if program == "git"
            && positional.first().is_some_and(|first| first == "push")
            && let Some(refspec) = word.strip_prefix(':').filter(|rest| !rest.is_empty())
        {
            if !flags.iter().any(|flag| flag == "--delete") {
                flags.push("--delete".to_owned());
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn programs(line: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
        let mut out = Vec::new();
        parse_command_line(&line.to_lowercase(), 0, &mut out, &Budget::default());
        out.into_iter()
            .map(|inv| (inv.program, inv.positional, inv.flags))
            .collect()
    }

    fn check_programs(line: &str, expected: &[&str]) {
        let found: Vec<String> = programs(line)
            .into_iter()
            .map(|(program, ..)| program)
            .collect();
        assert_eq!(found, expected, "{line}");
    }

    #[test]
    fn finds_programs_behind_wrappers_separators_and_quotes() {
        check_programs("sudo rm -rf /tmp/x", &["sudo", "rm"]);
        check_programs("FOO=1 /usr/bin/git push", &["git"]);
        check_programs(
            "cd repo && git push; ls | wc -l",
            &["cd", "git", "ls", "wc"],
        );
        check_programs("echo $(whoami)", &["echo", "whoami"]);
        check_programs("bash -c 'rm -rf build'", &["bash", "rm"]);
        check_programs("sudo -u root timeout 5 rm x", &["sudo", "timeout", "rm"]);
        check_programs("echo pseudocode", &["echo"]);
    }

    #[test]
    fn separates_subcommands_from_flags_and_flag_values() {
        let found = programs("git -C /repo push --force origin main");
        assert_eq!(found[0].1, ["push", "origin", "main"]);
        assert_eq!(found[0].2, ["-c", "--force"]);
        let found = programs("git push -f origin feature");
        assert_eq!(found[0].2, ["--force"]);
        let found = programs("rm -Rf dir");
        assert_eq!(found[0].2, ["-rf", "-r", "-f"]);
        let found = programs("terraform -chdir=infra apply -auto-approve");
        assert_eq!(found[0].1, ["apply"]);
    }

    #[test]
    fn walks_nested_arguments_and_marks_recipients() {
        let view = CallView::new(
            "send_email",
            &json!({"to": ["Sarah <S@x.com>"], "meta": {"attendees": [{"name": "Bob"}]},
                     "body": "Hi", "dry_run": true, "argv": ["git", "push"], "count": 3}),
        );
        let mut recipients: Vec<&str> = view
            .texts
            .iter()
            .filter(|text| text.recipient)
            .map(|text| text.lower.as_str())
            .collect();
        recipients.sort_unstable();
        assert_eq!(recipients, ["bob", "sarah <s@x.com>"]);
        assert_eq!(view.bool_flags, ["--dry-run"]);
        assert!(
            view.invocations()
                .iter()
                .any(|inv| inv.program == "git" && inv.positional == ["push"])
        );
        assert_eq!(view.tool_words, ["send", "email"]);
        assert!(is_recipient_key("toRecipients"));
        assert!(!is_recipient_key("body"));
    }
}
