//! The guard's view of a proposed tool call: every string of the arguments (lower-cased, with
//! whether it sits under a recipient-like key), the command invocations found in them, and
//! the flags set by boolean arguments.
//!
//! Built once per check, and only when some rule is a candidate, so a call that no rule can
//! touch costs no more than the token walk in the index. Both walks over the arguments, and
//! the command parser, stop at the bounds of [`crate::limits`] and record which one they hit.

mod access;
mod lexicon;
mod paths;
mod shell;
mod text;

pub(crate) use self::access::{invocation_only_reads, invocation_reads};
pub(crate) use self::lexicon::SQL_WRITE_STATEMENTS;
use self::lexicon::{
    AMOUNT_KEYS, COMMAND_KEYS, DIRECTORY_KEYS, MINOR_UNIT_WORDS, PATH_KEYS, RECIPIENT_KEYS,
    SQL_READ_STATEMENTS, VALUE_FLAGS,
};
pub(crate) use self::paths::PathUses;
pub(crate) use self::paths::takes_paths;
use self::paths::{changed_directory, path_uses, resolve};
pub(crate) use self::shell::{
    HIDDEN_PROGRAM, Invocation, is_script, parse_command_line, runner_prefix, shell_words,
    takes_a_value as option_takes_a_value,
};
pub(crate) use self::text::Text;

use std::cell::OnceCell;

use serde_json::Value;
use tool_memory_core::{ToolFamily, split_words};

use crate::condition::{Amount, Unit, amount_in, dates_in};
use crate::limits::{ArgumentCount, Bound, Budget, MAX_ARGUMENT_DEPTH};
use crate::normalize::{alnum_runs, flag_of_key, package_bins_in, percent_decoded, program_name};

/// Whether a required flag is an option that takes a value (`--namespace web`): only the long
/// spellings, since a short one (`-n`, `-p`) means different things to different programs.
pub(crate) fn takes_a_value(flag: &str) -> bool {
    let flag = flag.trim().to_lowercase();
    flag.starts_with("--") && VALUE_FLAGS.contains(&flag.as_str())
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
    /// The named arguments (lower-case keys, at any depth) and their values, for `argument`
    /// matchers.
    arguments: Vec<(String, ArgumentValue)>,
    pub(crate) has_recipients: bool,
    /// What looking at every text costs: their bytes, and one per text.
    pub(crate) text_weight: usize,
    /// The work this check has spent, and the first bound it reached.
    pub(crate) budget: Budget,
    /// The tool's family in core's table, if it has one.
    family: Option<ToolFamily>,
    /// Whether the call only reads, judged on first use (only a rule about writing asks).
    read_only: OnceCell<bool>,
    /// The texts (by index range) under a key that holds the command line (`command`,
    /// `cmd`, `args`): what the call runs, as opposed to a `description` or a `workdir`.
    command_texts: Vec<std::ops::Range<usize>>,
    /// Sums of money under amount-like keys, for amount conditions.
    pub(crate) amounts: Vec<Amount>,
    /// The ISO dates in the call's texts, found on first use (for weekday conditions).
    dates: OnceCell<Vec<(i32, u32, u32)>>,
    /// The directory the call's command runs in (`Cwd`, `workdir`), when it says.
    cwd: Option<String>,
    /// Whether a text may change directory (`cd`, `pushd`, `Set-Location`), so that its
    /// relative paths are read against the directory too.
    may_move: bool,
    /// The invocations of the command-line texts alone (`command_texts`), parsed on first
    /// use; `None` when they did not fit the bounds.
    commands: OnceCell<Option<Vec<Invocation>>>,
    /// The paths the command line reads and writes ([`PathUses`]), found on first use.
    path_uses: OnceCell<PathUses>,
    /// The written paths as texts, for rules about writing.
    written: OnceCell<Vec<Text>>,
    /// The created paths as texts, for rules about creating files.
    created: OnceCell<Vec<Text>>,
    /// For a view of paths ([`CallView::of_paths`]): whether they are made.
    creates: Option<bool>,
    /// The tool runs PowerShell, whose command lines escape with a backtick, not a
    /// backslash (`D:\data\old` is a path).
    powershell: bool,
}

/// Longest string argument kept for `argument` matchers, in bytes: a branch, a state, a
/// repository's name are short; a file's content is not what they compare.
const MAX_ARGUMENT_VALUE_BYTES: usize = 256;

/// The value of a named argument, as an `argument` matcher compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ArgumentValue {
    /// A string, number or boolean, trimmed, as written (`true`, `42`, `Done`, `D024BE91L`).
    Scalar(String),
    /// A list, by its length (`attachments: []` is none).
    List(usize),
}

/// The invocations of a call and what looking at all of them costs.
#[derive(Debug, Default)]
struct Parsed {
    invocations: Vec<Invocation>,
    weight: usize,
    /// The invocations' relative paths resolved against the directory each runs in
    /// (`cd /mnt && rm -r backups/old`: `/mnt/backups/old`), one text per invocation that has
    /// any; each is in its invocation's texts too.
    resolved: Vec<Text>,
}

impl CallView {
    /// The named arguments of the call and their values.
    pub(crate) fn arguments(&self) -> &[(String, ArgumentValue)] {
        &self.arguments
    }

    #[cfg(test)]
    pub(crate) fn new(tool_name: &str, arguments: &Value) -> CallView {
        CallView::of_tool(
            tool_words(tool_name),
            ToolFamily::of(tool_name),
            None,
            arguments,
        )
    }

    /// [`CallView::new`] for a tool whose words and family the caller has already found.
    /// `program`: the program the tool is named after, when it is one (`git`), which its
    /// argv runs ([`CallView::prefix_the_program`]).
    pub(crate) fn of_tool(
        tool_words: Vec<String>,
        family: Option<ToolFamily>,
        program: Option<&str>,
        arguments: &Value,
    ) -> CallView {
        let mut view = CallView {
            tool_words,
            family,
            ..CallView::default()
        };
        if let Err(bound) = view.walk(arguments, false, None, 1, &mut ArgumentCount::default()) {
            view.budget.exceed(bound);
        }
        if let Some(program) = program {
            view.prefix_the_program(program);
        }
        view.has_recipients = view.texts.iter().any(|text| text.recipient);
        view.text_weight = view.texts.iter().map(Text::weight).sum();
        view.powershell = view
            .tool_words
            .iter()
            .any(|word| word == "powershell" || word == "pwsh");
        view.may_move = view.texts.iter().any(|text| {
            text.lower.contains("cd ")
                || text.lower.contains("pushd ")
                || text.lower.contains("set-location ")
        });
        view
    }

    /// A view of the paths a command line reads or writes, for the rules of a file family
    /// that hold for it (`call/paths.rs`): each path is a text of a call of `family`.
    pub(crate) fn of_paths(
        tool_words: Vec<String>,
        family: ToolFamily,
        paths: &[String],
        creates: bool,
    ) -> CallView {
        let mut view = CallView {
            tool_words,
            family: Some(family),
            creates: Some(creates),
            ..CallView::default()
        };
        view.texts = paths
            .iter()
            .map(|path| Text::of(path, false, false))
            .collect();
        view.text_weight = view.texts.iter().map(Text::weight).sum();
        view
    }

    /// A command line as the shell parser reads it: a PowerShell line with its backslashes
    /// as path separators (`/`, as paths are compared) and its backtick escapes dropped.
    ///
    /// A line of another shell's tool is read the same way when it starts with a cmdlet or a
    /// command of `cmd` (`Remove-Item -Recurse .\build\out`, `del c:\data\x.txt`, `type
    /// envs\prod\x`), and so is a word shaped like a Windows path anywhere (`C:\`, `.\`,
    /// `..\`, `\\server\`): there a backslash separates folders; a POSIX shell would take it as
    /// an escape and read `.\build\out` as `.buildout`.
    fn dialect_line<'a>(&self, line: &'a str) -> std::borrow::Cow<'a, str> {
        if !line.contains(['\\', '`']) {
            return std::borrow::Cow::Borrowed(line);
        }
        if self.powershell || windows_line(line) {
            std::borrow::Cow::Owned(line.replace('\\', "/").replace('`', ""))
        } else if line.contains('\\') && line.split_whitespace().any(windows_path_word) {
            let mut out = String::with_capacity(line.len());
            for piece in line.split_inclusive(char::is_whitespace) {
                if windows_path_word(piece.trim_end()) {
                    out.push_str(&piece.replace('\\', "/"));
                } else {
                    out.push_str(piece);
                }
            }
            std::borrow::Cow::Owned(out)
        } else {
            std::borrow::Cow::Borrowed(line)
        }
    }

    /// The invocations of the texts under a command key (`command`, `cmd`, `CommandLine`):
    /// what the call runs, not the words that describe it. A joined argv is read as its
    /// line. `None` when they do not fit the bounds.
    fn command_invocations(&self) -> Option<&[Invocation]> {
        self.commands
            .get_or_init(|| {
                let mut lines: Vec<&Text> = Vec::new();
                for range in &self.command_texts {
                    let texts = &self.texts[range.clone()];
                    match texts.iter().find(|text| text.command_only) {
                        Some(joined) => lines.push(joined),
                        None => lines.extend(texts),
                    }
                }
                let mut invocations = Vec::new();
                let budget = Budget::default();
                for text in lines {
                    let line = self.dialect_line(text.original());
                    if !parse_command_line(&line, 0, &mut invocations, &budget) {
                        return None;
                    }
                }
                budget.exceeded().is_none().then_some(invocations)
            })
            .as_deref()
    }

    /// The paths the call's command line reads and writes, relative ones also resolved
    /// against the directory it runs in. A command line past the bounds is read as the whole
    /// call's invocations, each path both read and written.
    pub(crate) fn path_uses(&self) -> &PathUses {
        self.path_uses
            .get_or_init(|| match self.command_invocations() {
                Some(invocations) if !self.command_texts.is_empty() => {
                    path_uses(invocations, self.cwd.as_deref())
                }
                _ => path_uses(self.invocations(), self.cwd.as_deref()),
            })
    }

    /// Whether the call is of a shell tool.
    pub(crate) fn is_shell(&self) -> bool {
        self.family == Some(ToolFamily::Shell)
    }

    /// Whether the call may create a file: an edit tool that writes whole files (`Write`,
    /// `write_file`, `write_to_file`, `create_file`, `move_file`'s target, a patch that adds
    /// a file), not one that changes what exists (`Edit`, `replace`); a command that makes a
    /// path (`touch`, `>`, `cp`'s target); a tool whose name says it creates.
    pub(crate) fn may_create(&self) -> bool {
        if let Some(creates) = self.creates {
            return creates;
        }
        let has = |words: &[&str]| {
            self.tool_words
                .iter()
                .any(|word| words.contains(&word.as_str()))
        };
        match self.family {
            Some(ToolFamily::FileEdit) => {
                has(&["write", "create", "move", "new"])
                    || (has(&["patch"])
                        && self
                            .texts
                            .iter()
                            .any(|text| text.lower.contains("*** add file:")))
            }
            Some(ToolFamily::Shell) => !self.path_uses().created.is_empty(),
            Some(_) => false,
            None => has(&[
                "write", "create", "new", "add", "upload", "save", "put", "copy", "move",
            ]),
        }
    }

    /// The paths the call's command line may create, as texts ([`CallView::path_uses`]).
    pub(crate) fn created_texts(&self) -> &[Text] {
        self.created.get_or_init(|| {
            self.path_uses()
                .created
                .iter()
                .map(|path| Text::of(path, false, false))
                .collect()
        })
    }

    /// The paths the call's command line writes, as texts ([`CallView::path_uses`]).
    pub(crate) fn written_texts(&self) -> &[Text] {
        self.written.get_or_init(|| {
            self.path_uses()
                .written
                .iter()
                .map(|path| Text::of(path, false, false))
                .collect()
        })
    }

    /// The call's relative paths resolved against the directory each command runs in; empty
    /// (and nothing parsed) when the call names no directory and changes none.
    pub(crate) fn resolved_texts(&self) -> &[Text] {
        if self.cwd.is_none() && !self.may_move {
            return &[];
        }
        &self.parsed().resolved
    }

    /// The ISO dates the call's texts carry.
    pub(crate) fn dates(&self) -> &[(i32, u32, u32)] {
        self.dates.get_or_init(|| {
            let mut dates = Vec::new();
            for text in &self.texts {
                dates_in(&text.lower, &mut dates);
            }
            dates
        })
    }

    /// Every invocation in every string of the call, up to the bounds on parsing.
    pub(crate) fn invocations(&self) -> &[Invocation] {
        &self.parsed().invocations
    }

    /// Whether the call only reads ([`access::only_reads`]).
    pub(crate) fn read_only(&self) -> bool {
        *self.read_only.get_or_init(|| {
            // A `mailto:` link, or a URL whose query carries an address (a form submitted by
            // a GET), sends to someone, whatever the tool fetching it otherwise does.
            if self.family == Some(ToolFamily::WebFetch)
                && self.texts.iter().any(|text| {
                    text.lower.contains("mailto:")
                        || text.lower.split_once('?').is_some_and(|(_, query)| {
                            query.contains(['@']) || query.contains("%40")
                        })
                })
            {
                return false;
            }
            if self.family != Some(ToolFamily::Shell) {
                return self.sql_only_reads()
                    || access::only_reads(self.family, &self.tool_words, &[]);
            }
            // The command line the call runs, not the words that describe it ("Show the hosts
            // file" is no program) or the directory it runs in. Read within the same bounds as
            // always.
            self.command_invocations().is_some_and(|invocations| {
                access::only_reads(self.family, &self.tool_words, invocations)
            })
        })
    }

    /// Whether a database tool's call (`{"sql": "SELECT ..."}` to an MCP server's `query`)
    /// runs statements that only read: its SQL arguments (`sql`, `query`, `statement`) are
    /// statements, and every one reads. A search query (`from:x`) is no statement.
    fn sql_only_reads(&self) -> bool {
        let mut statements = self
            .arguments
            .iter()
            .filter(|(key, _)| matches!(key.as_str(), "sql" | "query" | "statement"))
            .filter_map(|(_, value)| match value {
                ArgumentValue::Scalar(text) => Some(text.as_str()),
                ArgumentValue::List(_) => None,
            })
            .peekable();
        statements.peek().is_some()
            && statements.all(|sql| {
                let first = sql.split_whitespace().next().unwrap_or_default();
                SQL_READ_STATEMENTS
                    .iter()
                    .any(|statement| first.eq_ignore_ascii_case(statement))
                    && access::statements_only_read(sql)
            })
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
                let line = self.dialect_line(text.original());
                if !parse_command_line(&line, 0, &mut invocations, &self.budget) {
                    break;
                }
            }
            let resolved = if self.cwd.is_some() || self.may_move {
                resolve_invocations(&mut invocations, self.cwd.as_deref())
            } else {
                Vec::new()
            };
            let weight = invocations.iter().map(Invocation::weight).sum();
            Parsed {
                invocations,
                weight,
                resolved,
            }
        })
    }

    /// Reads the arguments into texts and flags. Stops at the first bound: the index walk
    /// ([`visit_words`]) counts the same values in the same order, so both stop at one value.
    fn walk(
        &mut self,
        value: &Value,
        recipient: bool,
        amount: Option<Unit>,
        depth: usize,
        count: &mut ArgumentCount,
    ) -> Result<(), Bound> {
        match value {
            Value::String(text) => {
                count.take(text.len())?;
                if let Some(unit) = amount
                    && let Some(value) = amount_in(text)
                {
                    // A sum written with a currency sign or decimals is in whole units.
                    let written = text.contains(['$', '€', '£', '¥', '.']);
                    let unit = if written && unit == Unit::Either {
                        Unit::Major
                    } else {
                        unit
                    };
                    self.amounts.push(Amount { value, unit });
                }
                self.texts.push(Text::of(text, recipient, false));
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
                    self.texts.push(Text::of(&joined.join(" "), false, true));
                }
                for item in items {
                    self.walk(item, recipient, amount, depth + 1, count)?;
                }
            }
            Value::Object(map) => {
                if depth > MAX_ARGUMENT_DEPTH {
                    return Err(Bound::ArgumentDepth);
                }
                for (key, item) in map {
                    count.take(key.len())?;
                    // A key of a nested object is a name the call sets (`{"fields": {"status":
                    // ...}}` changes a record's `status`); the top level's are the tool's own
                    // parameters.
                    if depth > 1 {
                        self.texts.push(Text::of(key, false, false));
                    }
                    let given = match item {
                        // A long text (a file's content, a message body) is no state, branch
                        // or name an `argument` matcher compares: not copied.
                        Value::String(text) if text.len() <= MAX_ARGUMENT_VALUE_BYTES => {
                            Some(ArgumentValue::Scalar(text.trim().to_owned()))
                        }
                        Value::String(_) => None,
                        Value::Bool(flag) => Some(ArgumentValue::Scalar(flag.to_string())),
                        Value::Number(number) => Some(ArgumentValue::Scalar(number.to_string())),
                        Value::Array(items) => Some(ArgumentValue::List(items.len())),
                        Value::Object(_) | Value::Null => None,
                    };
                    if let Some(given) = given {
                        self.arguments.push((key.to_lowercase(), given));
                    }
                    if item == &Value::Bool(true) {
                        self.bool_flags.push(flag_of_key(key));
                    }
                    if let Value::String(directory) = item
                        && DIRECTORY_KEYS
                            .iter()
                            .any(|known| known.eq_ignore_ascii_case(key))
                    {
                        self.cwd = Some(directory.clone());
                    }
                    // A bare name under a path key is a path (`{"path": "customer-data"}`),
                    // which the text's own reading takes only with a `/` or a `.`.
                    if let Value::String(name) = item
                        && !name.contains(['/', '\\', '.', '~'])
                        && !name.trim().is_empty()
                        && !name.contains(char::is_whitespace)
                        && PATH_KEYS
                            .iter()
                            .any(|known| known.eq_ignore_ascii_case(key))
                    {
                        self.texts
                            .push(Text::of(&format!("./{name}"), false, false));
                    }
                    let start = self.texts.len();
                    let amount = amount.or_else(|| self.amount_unit(key));
                    self.walk(
                        item,
                        recipient || is_recipient_key(key),
                        amount,
                        depth + 1,
                        count,
                    )?;
                    if COMMAND_KEYS
                        .iter()
                        .any(|known| known.eq_ignore_ascii_case(key))
                    {
                        self.command_texts.push(start..self.texts.len());
                    }
                }
                if let Some(full_name) = owner_and_repo(map) {
                    count.take(full_name.len())?;
                    self.texts.push(Text::new(full_name, recipient, false));
                }
            }
            Value::Number(number) => {
                let text = number.to_string();
                count.take(text.len())?;
                if let (Some(unit), Some(value)) = (amount, number.as_f64()) {
                    self.amounts.push(Amount { value, unit });
                }
                self.texts.push(Text::new(text, recipient, false));
            }
            Value::Bool(_) | Value::Null => {}
        }
        Ok(())
    }
}

/// Keys that name a repository's owner or a project's organisation.
const OWNER_KEYS: &[&str] = &[
    "owner",
    "org",
    "organization",
    "organisation",
    "namespace",
    "workspace",
];

/// Keys that name the repository or project under an owner.
const REPO_KEYS: &[&str] = &["repo", "repository", "repo_name", "project", "project_slug"];

/// An MCP call's owner and repository given apart (`{"owner": "acme", "repo": "billing"}`),
/// as the `owner/repo` a rule names ("in `acme/*` repos"). `None` without both, or when
/// either is no single name.
fn owner_and_repo(map: &serde_json::Map<String, Value>) -> Option<String> {
    let name_of = |keys: &[&str]| {
        map.iter()
            .find(|(key, _)| keys.iter().any(|known| known.eq_ignore_ascii_case(key)))
            .and_then(|(_, value)| value.as_str())
            .map(str::trim)
            .filter(|name| {
                !name.is_empty()
                    && name.len() <= 100
                    && !name.contains(['/', '\\'])
                    && !name.contains(char::is_whitespace)
            })
    };
    Some(format!("{}/{}", name_of(OWNER_KEYS)?, name_of(REPO_KEYS)?).to_lowercase())
}

impl CallView {
    /// A tool named after a program (`git` with `{"args": ["push", "origin", ":old"]}`) runs
    /// its arguments as that program's: each argv and each command string that does not
    /// start with the program is read again with it in front (`git push origin :old`), so the
    /// program's own reading of its words (`:ref` deletes, `-f` forces) applies.
    fn prefix_the_program(&mut self, program: &str) {
        let mut lines: Vec<usize> = self
            .texts
            .iter()
            .enumerate()
            .filter(|(_, text)| text.command_only)
            .map(|(at, _)| at)
            .collect();
        for range in &self.command_texts {
            if !self.texts[range.clone()]
                .iter()
                .any(|text| text.command_only)
            {
                lines.extend(range.clone());
            }
        }
        for at in lines {
            let line = self.texts[at].original();
            let first = line.split_whitespace().next().map(program_name);
            if first.as_deref() != Some(program) {
                let prefixed = Text::of(&format!("{program} {line}"), false, true);
                self.texts.push(prefixed);
            }
        }
    }

    /// The unit of the sums under `key`, if it is amount-like ([`AMOUNT_KEYS`]): cents for
    /// `amount_cents` or on a Stripe tool ([`MINOR_UNIT_WORDS`]), otherwise not known.
    fn amount_unit(&self, key: &str) -> Option<Unit> {
        let words = split_words(key, true);
        if !words
            .iter()
            .any(|word| AMOUNT_KEYS.contains(&word.as_str()))
        {
            return None;
        }
        let minor = words
            .iter()
            .chain(&self.tool_words)
            .any(|word| MINOR_UNIT_WORDS.contains(&word.as_str()));
        Some(if minor { Unit::Minor } else { Unit::Either })
    }
}

/// Resolves each invocation's relative paths against the directory it runs in, following
/// `cd` from `cwd`: the resolved paths are a text of the invocation's own, and of the list
/// returned.
fn resolve_invocations(invocations: &mut [Invocation], cwd: Option<&str>) -> Vec<Text> {
    let mut current = cwd.map(crate::normalize::normalize_path);
    let mut resolved = Vec::new();
    for invocation in invocations {
        if let Some(moved) = changed_directory(invocation, current.as_deref()) {
            current = moved;
            continue;
        }
        let Some(directory) = current.as_deref() else {
            continue;
        };
        let paths: Vec<String> = invocation
            .positional
            .iter()
            .chain(invocation.values.iter().map(|(_, value)| value))
            .filter(|word| word.contains(|ch: char| ch.is_alphanumeric()))
            .filter_map(|word| resolve(word, Some(directory)))
            .collect();
        if !paths.is_empty() {
            let text = Text::of(&paths.join(" "), false, false);
            invocation.texts.push(text.clone());
            resolved.push(text);
        }
    }
    resolved
}

/// Calls `visit` with every word of every string in `value` (at nesting level `depth`) that a
/// matcher may look for ([`visit_text`]), and of the flags set by `true` arguments: the words
/// the guard's index looks up. Counts values like [`CallView::new`] does and stops where it
/// stops.
pub(crate) fn visit_words(
    value: &Value,
    visit: &mut dyn FnMut(&str),
    depth: usize,
    count: &mut ArgumentCount,
) -> Result<(), Bound> {
    match value {
        Value::String(text) => {
            count.take(text.len())?;
            visit_text(text, visit);
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
                if depth > 1 {
                    visit_text(key, visit);
                }
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

/// The words of one string of a call, in every spelling a matcher reads it in, so the index
/// never misses a rule a matcher would find: its alphanumeric runs (the caller lower-cases
/// them), the runs of its lower-cased form (lower-casing can change where runs end outside
/// ASCII), the letters of a short flag cluster (`-fu` sets `-f`), the same of its
/// percent-decoded form (`sarah@%63orp.com` is sarah@corp.com), and its words as the shell
/// reads them, with quotes, backslashes and ANSI-C escapes removed (`g''it`, `y\arn`,
/// `$'\x79arn'`), as the command parser does.
pub(crate) fn visit_text(text: &str, visit: &mut dyn FnMut(&str)) {
    visit_spellings(text, visit, true);
}

/// [`visit_text`]; `decode` also visits the percent-decoded text (once: what it decodes to may
/// hold a `%` again).
fn visit_spellings(text: &str, visit: &mut dyn FnMut(&str), decode: bool) {
    let Some(special) = visit_ascii_runs(text, visit) else {
        // Outside ASCII: runs by Unicode's letters and digits, raw and lower-cased.
        visit_runs(text, visit);
        let lower = text.to_lowercase();
        visit_runs(&lower, visit);
        if decode && lower.contains('%') {
            let decoded = percent_decoded(text);
            visit_runs(&decoded, visit);
            visit_runs(&decoded.to_lowercase(), visit);
        }
        if lower.contains(['\'', '"', '\\', '$']) {
            for word in shell_words(&lower) {
                visit_runs(&word, visit);
            }
        }
        if lower.contains(['$', '`']) {
            visit(HIDDEN_WORD);
        }
        for bin in package_bins_in(&lower) {
            visit(bin);
        }
        return;
    };
    if special.hides {
        visit(HIDDEN_WORD);
    }
    // A package a runner runs under another command's name (`npx firebase-tools` runs
    // `firebase`, `npx @angular/cli` runs `ng`): that name is a word of the call too.
    if special.package {
        for bin in package_bins_in(text) {
            visit(bin);
        }
    }
    if decode && special.percent {
        visit_spellings(&percent_decoded(text), visit, false);
    }
    if special.quoting {
        for word in shell_words(&text.to_ascii_lowercase()) {
            visit_runs(&word, visit);
        }
        // `printf 'flushdb\nflushall' | redis-cli`: an escaped line break printed into a
        // client separates its commands.
        if text.contains("\\n") {
            visit_runs(&text.to_ascii_lowercase().replace("\\n", " "), visit);
        }
    }
}

/// The index word of a text that may name its program through a substitution or a variable
/// (`$(...)`, `` `...` ``, `$NAME`): a command rule with subcommands is a candidate for it
/// without its program's word (see `matching::Compiled::key_groups`). Not alphanumeric, so no
/// run of a call is ever this word.
pub(crate) const HIDDEN_WORD: &str = "$";

/// What an ASCII text holds besides its runs.
#[derive(Default)]
struct Special {
    /// A `%` that may start an escape.
    percent: bool,
    /// Quotes, a backslash or a `$`, which the shell reads a word through.
    quoting: bool,
    /// A `$` or a backtick: the text may hide a program ([`HIDDEN_WORD`]).
    hides: bool,
    /// A word of a package's name that runs another command (`cli`, `tools`,
    /// `typescript`: see `normalize::package_bins_in`).
    package: bool,
}

/// [`visit_runs`] for an ASCII text, byte by byte (every string of every call goes through
/// here). `None`, having visited nothing, when the text is not ASCII.
fn visit_ascii_runs(text: &str, visit: &mut dyn FnMut(&str)) -> Option<Special> {
    if !text.is_ascii() {
        return None;
    }
    let bytes = text.as_bytes();
    let mut special = Special::default();
    let mut start: Option<usize> = None;
    for (at, byte) in bytes.iter().enumerate() {
        if byte.is_ascii_alphanumeric() {
            start.get_or_insert(at);
            continue;
        }
        match byte {
            b'%' => special.percent = true,
            b'$' => {
                special.quoting = true;
                special.hides = true;
            }
            b'`' => special.hides = true,
            b'\'' | b'"' | b'\\' => special.quoting = true,
            _ => {}
        }
        if let Some(begin) = start.take() {
            special.package |= is_package_word(&text[begin..at]);
            visit_run(text, begin, at, visit);
        }
    }
    if let Some(begin) = start {
        special.package |= is_package_word(&text[begin..]);
        visit_run(text, begin, bytes.len(), visit);
    }
    Some(special)
}

/// Whether a run is a word of one of `normalize::PACKAGE_BINS`'s packages that no program's
/// own name has, so a text without one names none of them.
fn is_package_word(run: &str) -> bool {
    matches!(run.len(), 3 | 5 | 10)
        && ["cli", "cdk", "tools", "typescript"]
            .iter()
            .any(|word| run.eq_ignore_ascii_case(word))
}

/// The alphanumeric runs of `text`, by Unicode's letters and digits.
fn visit_runs(text: &str, visit: &mut dyn FnMut(&str)) {
    for run in alnum_runs(text) {
        let start = run.as_ptr() as usize - text.as_ptr() as usize;
        visit_run(text, start, start + run.len(), visit);
    }
}

/// One run, `text[start..end]`, and each letter of it when it is a short flag cluster of two
/// to four letters (`-rf`, `-fu`: what `normalize::expand_flag` expands).
fn visit_run(text: &str, start: usize, end: usize, visit: &mut dyn FnMut(&str)) {
    let run = &text[start..end];
    visit(run);
    let bytes = text.as_bytes();
    let cluster = (2..=4).contains(&run.len())
        && start >= 1
        && bytes[start - 1] == b'-'
        && (start == 1 || !(bytes[start - 2] == b'-' || bytes[start - 2].is_ascii_alphanumeric()))
        && run.bytes().all(|byte| byte.is_ascii_alphabetic());
    if cluster {
        for at in 0..run.len() {
            visit(&run[at..=at]);
        }
    }
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

/// Whether a command line is PowerShell's or `cmd`'s by its first word: a cmdlet (`Verb-Noun`
/// with one of PowerShell's approved verbs of files and processes) or a command only `cmd`
/// has.
fn windows_line(line: &str) -> bool {
    const VERBS: &[&str] = &[
        "add", "clear", "copy", "export", "get", "import", "invoke", "move", "new", "out",
        "remove", "rename", "restart", "set", "start", "stop", "test", "write",
    ];
    const CMD: &[&str] = &[
        "copy", "del", "dir", "erase", "md", "move", "rd", "ren", "robocopy", "type", "xcopy",
    ];
    let Some(first) = line.split_whitespace().next() else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    if CMD.contains(&first.as_str()) {
        return true;
    }
    first.split_once('-').is_some_and(|(verb, noun)| {
        VERBS.contains(&verb) && !noun.is_empty() && noun.bytes().all(|b| b.is_ascii_alphabetic())
    })
}

/// Whether a shell word is shaped like a Windows path: a drive (`C:\`), `.\` or `..\`, or a
/// share (`\\server\`), after an opening quote or an option's `=`.
fn windows_path_word(word: &str) -> bool {
    let word = word.rsplit_once('=').map_or(word, |(_, value)| value);
    let word = word.trim_start_matches(['"', '\'']);
    let bytes = word.as_bytes();
    let drive = bytes.len() > 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && bytes[2] == b'\\'
        && bytes[3] != b' ';
    drive
        || word.starts_with(".\\")
        || word.starts_with("..\\")
        || (word.starts_with("\\\\")
            && word
                .as_bytes()
                .get(2)
                .is_some_and(u8::is_ascii_alphanumeric))
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
    fn an_environment_variable_gives_the_option_it_stands_for() {
        let values = |line: &str| {
            let mut out = Vec::new();
            parse_command_line(&line.to_lowercase(), 0, &mut out, &Budget::default());
            out.into_iter()
                .flat_map(|inv| inv.values)
                .collect::<Vec<_>>()
        };
        let pair = |flag: &str, value: &str| (flag.to_owned(), value.to_owned());
        assert_eq!(
            values("AWS_PROFILE=sandbox aws s3 ls"),
            [pair("--profile", "sandbox")]
        );
        assert_eq!(
            values("GOFLAGS=-mod=vendor go build ./..."),
            [pair("-mod", "vendor")]
        );
        // Another program's variable gives nothing.
        assert_eq!(values("AWS_PROFILE=sandbox gcloud info"), []);
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
    fn a_nested_object_s_keys_are_names_the_call_sets() {
        let view = CallView::new(
            "update_record",
            &json!({"id": "D-9", "fields": {"stage": "won"}}),
        );
        let texts: Vec<&str> = view.texts.iter().map(|text| text.lower.as_str()).collect();
        assert!(texts.contains(&"stage"), "{texts:?}");
        // The tool's own parameters are no such names.
        assert!(
            !texts.contains(&"fields") && !texts.contains(&"id"),
            "{texts:?}"
        );
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

    #[test]
    fn reads_an_owner_and_a_repo_given_apart_as_one_name() {
        let texts = |arguments: Value| -> Vec<String> {
            CallView::new("mcp__github__create_issue", &arguments)
                .texts
                .iter()
                .map(|text| text.lower.clone())
                .collect()
        };
        assert!(
            texts(json!({"owner": "Acme-Internal", "repo": "billing"}))
                .contains(&"acme-internal/billing".to_owned())
        );
        assert!(texts(json!({"org": "acme", "project": "web"})).contains(&"acme/web".to_owned()));
        // A repo alone, or an owner that is a path, makes no name.
        assert!(
            !texts(json!({"repo": "billing"}))
                .iter()
                .any(|text| text.contains('/'))
        );
        assert!(
            !texts(json!({"owner": "a/b", "repo": "c"}))
                .iter()
                .any(|text| text == "a/b/c")
        );
    }

    #[test]
    fn tells_a_call_that_only_reads() {
        let reads = |tool: &str, arguments: Value| CallView::new(tool, &arguments).read_only();
        assert!(reads("Read", json!({"file_path": "/etc/hosts"})));
        assert!(reads(
            "Bash",
            json!({"command": "cat /etc/hosts | grep db 2>/dev/null", "description": "Show it"})
        ));
        assert!(reads(
            "shell",
            json!({"command": ["bash", "-lc", "sudo head -5 /etc/hosts"], "workdir": "/repo"})
        ));
        assert!(reads(
            "run_shell_command",
            json!({"command": "aws s3 ls s3://logs/"})
        ));
        assert!(reads("mcp__fs__read_file", json!({"path": "/etc/hosts"})));
        assert!(!reads("Edit", json!({"file_path": "/etc/hosts"})));
        assert!(!reads("Bash", json!({"command": "cat a > /etc/hosts"})));
        assert!(!reads(
            "Bash",
            json!({"command": "echo x | sudo tee -a /etc/hosts"})
        ));
        assert!(!reads(
            "Bash",
            json!({"command": "sed -i.bak 's/a/b/' /etc/hosts"})
        ));
        assert!(!reads(
            "Bash",
            json!({"command": "find /etc -name x -delete"})
        ));
        assert!(!reads("Bash", json!({"command": "aws s3 rm s3://logs/x"})));
        assert!(!reads("Bash", json!({"command": "frobnicate /etc/hosts"})));
        assert!(!reads(
            "mcp__fs__read_and_delete",
            json!({"path": "/etc/hosts"})
        ));
    }

    #[test]
    fn a_container_runs_the_command_after_its_name() {
        check_programs(
            "docker compose exec redis redis-cli FLUSHALL",
            &["docker", "redis-cli"],
        );
        check_programs(
            "docker exec -it -e A=1 --user root cache redis-cli flushall",
            &["docker", "redis-cli"],
        );
        check_programs(
            "docker compose run --rm web bin/rails db:drop",
            &["docker", "rails"],
        );
        check_programs(
            "kubectl exec -n db pg-0 -c pg -- psql -c 'select 1'",
            &["kubectl", "psql", "select"],
        );
        check_programs("docker run --rm -p 8080:80 nginx", &["docker"]);
        check_programs("docker compose up -d", &["docker"]);
    }

    #[test]
    fn what_is_printed_into_a_shell_is_run() {
        check_programs("echo 'rm -rf /' | bash", &["echo", "bash", "rm"]);
        check_programs(
            "printf 'git push -f\\n' | sudo sh",
            &["printf", "sudo", "sh", "git"],
        );
        // Printed anywhere else, it is text.
        check_programs("echo 'rm -rf /' > notes.txt", &["echo"]);
        check_programs("echo 'rm -rf /' | tee notes.txt", &["echo", "tee"]);
    }

    #[test]
    fn an_interpreter_runs_the_script_it_names() {
        // A script is compared by its name without the extension (`normalize::program_name`).
        check_programs("bash ./deploy.sh prod", &["bash", "deploy"]);
        check_programs("uv run python scripts/seed.py", &["uv", "python", "seed"]);
        check_programs("sh -x install.sh", &["sh", "install"]);
        check_programs("/opt/kafka/bin/kafka-topics.sh --list", &["kafka-topics"]);
        // A command given in-line is a quoted command, not a script.
        check_programs("bash -c 'echo hi'", &["bash", "echo"]);
        check_programs("python -c 'print(1)' x.py", &["python"]);
        check_programs("node server", &["node"]);
    }
}
