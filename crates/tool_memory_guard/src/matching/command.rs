//! Command patterns: the program, subcommands and flags a `command` matcher names, and
//! whether an invocation runs it.

use crate::call::{
    CallView, HIDDEN_PROGRAM, Invocation, option_takes_a_value, runner_prefix, takes_paths,
};
use crate::normalize::{
    PsParameter, canonical_flag, canonical_subcommand, canonical_words, chunks,
    cmdlet_parameters_of, component_matches, equivalent_program, expand_flag, flag_meanings,
    flag_meanings_after, flags_subcommand, is_long_powershell_word, normalize_path,
    operation_spelled, powershell_cmdlet, powershell_parameter, powershell_parameter_name,
    program_name, sets_flag, takes_tasks,
};

/// The word of a command pattern that any positional argument matches (`npm install *`).
pub(crate) const ANY_ARGUMENT: &str = "*";

/// Values that only turn an option on (`--force=yes`): the option alone says the same.
const ON_VALUES: &[&str] = &["1", "always", "enabled", "on", "true", "y", "yes"];

/// A command prefix: program, subcommands, and the flags it must carry.
#[derive(Debug, Clone)]
pub(crate) struct CommandPattern {
    pub(crate) words: Vec<String>,
    pub(crate) flags: Vec<String>,
    /// The values options of the pattern are given (`redis-cli -h prod`: `-h` is `prod`), by
    /// the option's first meaning and lower-case, as an invocation records them.
    pub(crate) values: Vec<(String, String)>,
    /// The assignments the command is run with (`NODE_ENV=production npm run seed`), lower-case
    /// `name=value`: a call must put each before the command (or give it through `env`).
    pub(crate) environment: Vec<String>,
}

impl CommandPattern {
    pub(crate) fn parse(value: &str) -> CommandPattern {
        // What a package runner runs is the command (`pnpm exec drizzle-kit push` is
        // `drizzle-kit push`, which a call runs through any runner or none).
        let tokens: Vec<&str> = value.split_whitespace().collect();
        let tokens = &tokens[runner_prefix(&tokens)..];
        let mut words = Vec::new();
        let mut raw_flags = Vec::new();
        let mut cmdlet = None;
        let mut skip_value = false;
        let mut raw_values: Vec<(String, String)> = Vec::new();
        let mut environment = Vec::new();
        for (at, token) in tokens.iter().enumerate() {
            if skip_value {
                skip_value = false;
                continue;
            }
            if words.is_empty() && is_assignment(token) {
                environment.push(token.replace(['"', '\''], "").to_lowercase());
                continue;
            }
            // `git checkout -- .`: the end of options, which an invocation does not keep; and
            // a placeholder for any words (`kubectl scale ... --replicas=0`), which names none.
            if *token == "--"
                || *token == "…"
                || (token.len() >= 3 && token.chars().all(|ch| ch == '.'))
            {
                continue;
            }
            // A cmdlet's parameters (`Remove-Item -Recurse -Force`), read as a call's are.
            let parameters = cmdlet.or_else(|| {
                is_long_powershell_word(token)
                    .then(|| {
                        words
                            .first()
                            .and_then(|program: &String| cmdlet_parameters_of(program))
                    })
                    .flatten()
            });
            if let Some(parameters) = parameters
                && let Some(name) = powershell_parameter_name(token)
            {
                match powershell_parameter(parameters, &name) {
                    Some(PsParameter::Flag(flag)) => raw_flags.push(flag.to_owned()),
                    Some(PsParameter::Positional) => {}
                    Some(PsParameter::Value) => skip_value = !token.contains(':'),
                    None => raw_flags.push(format!("-{name}")),
                }
                continue;
            }
            if token.len() > 1 && token.starts_with('-') && !words.is_empty() {
                // A short flag keeps its case (`git branch -D`), as a call's does.
                raw_flags.push((*token).to_owned());
                // An option that takes a value has it next (`redis-cli -h prod`), as a call
                // is read: the value is no subcommand.
                // `--vhost=live`, `-namespace=prod`: the value given is part of the command (a
                // word that only turns the option on, `--force=yes`, is not).
                if let Some((option, value)) = token.split_once('=')
                    && !value.is_empty()
                    && !ON_VALUES.contains(&value.to_lowercase().as_str())
                {
                    raw_values.push((option.to_owned(), value.to_lowercase()));
                }
                if !token.contains('=')
                    && option_takes_a_value(&words[0], words.get(1), token)
                    && let Some(value) = tokens.get(at + 1).filter(|next| !next.starts_with('-'))
                {
                    raw_values.push(((*token).to_owned(), value.to_lowercase()));
                    skip_value = true;
                }
            } else if words.is_empty() {
                let named = program_name(token);
                cmdlet = powershell_cmdlet(&named).map(|(_, parameters)| parameters);
                let (program, prefix) = equivalent_program(named);
                words.push(program);
                words.extend(prefix.iter().map(|word| (*word).to_owned()));
            } else if words.len() == 1 {
                let lower = token.to_lowercase();
                words.push(canonical_subcommand(&words[0], &lower).to_owned());
            } else {
                words.push(token.to_lowercase());
            }
        }
        if let Some((program, subcommands)) = words.split_first_mut() {
            let mut rest = subcommands.to_vec();
            canonical_words(program, &mut rest);
            words.truncate(1);
            words.extend(rest);
        }
        let program = words.first().cloned().unwrap_or_default();
        let mut flags = Vec::new();
        let mut expanded = Vec::new();
        for token in raw_flags {
            expanded.clear();
            expand_flag(&token, &mut expanded);
            // A cluster (`-rf`) requires each of its letters, not the cluster spelling.
            let required = if expanded.len() > 1 {
                &expanded[1..]
            } else {
                &expanded[..]
            };
            let subcommand = flags_subcommand(&program, words.get(1..).unwrap_or_default());
            for flag in required {
                for meaning in flag_meanings_after(&program, subcommand, flag) {
                    if !flags.iter().any(|known| known == meaning) {
                        flags.push(meaning.to_owned());
                    }
                }
            }
        }
        let values = raw_values
            .into_iter()
            .map(|(token, value)| {
                expanded.clear();
                expand_flag(&token, &mut expanded);
                let name = flag_meanings(&program, expanded.first().map_or("", String::as_str))
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                (name, value)
            })
            .collect();
        CommandPattern {
            words,
            flags,
            values,
            environment,
        }
    }

    pub(crate) fn matches_invocation(&self, invocation: &Invocation) -> bool {
        let Some((program, subcommands)) = self.words.split_first() else {
            return false;
        };
        let names = |positional: &[String]| {
            if takes_tasks(program) {
                // `mvn clean release:prepare release:perform`: each task wherever it stands.
                subcommands.iter().all(|task| {
                    positional
                        .iter()
                        .any(|seen| same_argument(program, seen, task))
                })
            } else {
                positional.len() >= subcommands.len()
                    && positional
                        .iter()
                        .zip(subcommands)
                        .enumerate()
                        .all(|(at, (a, b))| {
                            same_argument(program, a, b)
                                || (at == 0 && same_subcommand(program, a, b))
                        })
            }
        };
        // `hg -R repo strip`, `p4 -u me -c ws submit`: the subcommand after the values of the
        // program's own options, as the program reads it (its short name in full).
        let after_options = || {
            !subcommands.is_empty()
                && (1..=invocation.option_values).any(|skipped| {
                    let mut rest = invocation
                        .positional
                        .get(skipped..)
                        .unwrap_or_default()
                        .to_vec();
                    if let Some(first) = rest.first_mut() {
                        *first = canonical_subcommand(program, first).to_owned();
                    }
                    names(&rest)
                })
        };
        // `terraform apply -destroy` is both `apply` and `destroy`.
        let named = names(&invocation.positional)
            || after_options()
            || (*program == invocation.program
                && operation_spelled(program, &invocation.positional, &invocation.flags)
                    .is_some_and(|operation| names(&operation)));
        (*program == invocation.program
            || (program.contains('*') && component_matches(program, &invocation.program)))
            && named
            && (!asks_for_help(invocation, subcommands.len())
                || subcommands.iter().any(|word| word == "help"))
            && self
                .flags
                .iter()
                .all(|flag| invocation.flags.contains(flag))
            && self
                .values
                .iter()
                .all(|value| invocation.values.contains(value))
            && self
                .environment
                .iter()
                .all(|assignment| invocation.environment.contains(assignment))
    }

    /// Whether an invocation whose program the call hides (`$(echo git) push -f`, `$GIT push
    /// -f`: [`HIDDEN_PROGRAM`]) may run this command: the rest of it (subcommands, flags)
    /// matches. A command of one word and no flag says nothing about such an invocation.
    pub(crate) fn may_match_hidden(&self, invocation: &Invocation) -> bool {
        let Some((program, subcommands)) = self.words.split_first() else {
            return false;
        };
        invocation.program == HIDDEN_PROGRAM
            && (!subcommands.is_empty() || !self.flags.is_empty())
            && invocation.positional.len() >= subcommands.len()
            && invocation
                .positional
                .iter()
                .zip(subcommands)
                .all(|(a, b)| a == b)
            // The hidden program's flags were read without knowing it: read them as this
            // program's (`$G push -f` is `git push --force` if `$G` is git).
            && self.flags.iter().all(|flag| {
                invocation
                    .flags
                    .iter()
                    .any(|seen| flag_meanings(program, seen).any(|meaning| meaning == flag))
            })
    }

    /// Whether the tool itself runs this command: a `git_push` tool runs `git push`; a
    /// `terraform` tool with `{"command": "apply"}` runs `terraform apply`. The flags must
    /// then appear anywhere in the call.
    pub(crate) fn matches_tool(&self, view: &CallView, tool_words: &[String]) -> bool {
        // Every place the program is named (`mcp__git__git_push` names `git` twice: the
        // server, then the tool).
        let mut starts = tool_words
            .iter()
            .enumerate()
            .filter(|(_, word)| Some(*word) == self.words.first())
            .map(|(at, _)| at);
        let named_at = |start: usize| {
            self.words.iter().enumerate().skip(1).all(|(offset, word)| {
                match tool_words.get(start + offset) {
                    Some(tool_word) => tool_word == word,
                    None => view
                        .texts
                        .iter()
                        .any(|text| chunks(&text.lower).any(|chunk| chunk == word)),
                }
            })
        };
        if !starts.any(named_at) {
            return false;
        }
        let program = &self.words[0];
        self.flags.iter().all(|flag| {
            view.bool_flags.contains(flag)
                || view.invocations().iter().any(|invocation| {
                    sets_flag(program, flag, &invocation.flags)
                        || invocation
                            .flags
                            .iter()
                            .any(|seen| canonical_flag(program, seen) == flag)
                })
        })
    }
}

/// Whether an invocation only prints help about a command (`mix help ecto.reset`, `terraform
/// destroy -h`, `kubectl delete --help`): `help` as its first word, or `--help`, or `-h` where
/// it takes no value, nothing follows the command's own `named` words (`shutdown -h now`
/// halts), and the program does not read it as something else (`df -h` is human sizes,
/// `shutdown -h` halts). Such an invocation runs nothing a rule on the command is about.
fn asks_for_help(invocation: &Invocation, named: usize) -> bool {
    const OTHER_H: &[&str] = &[
        "df", "du", "free", "grep", "halt", "ls", "poweroff", "reboot", "rg", "shutdown", "sort",
    ];
    invocation
        .positional
        .first()
        .is_some_and(|word| word == "help")
        || invocation.flags.iter().any(|flag| flag == "--help")
        || (invocation.flags.iter().any(|flag| flag == "-h")
            && invocation.positional.len() <= named
            && !invocation.values.iter().any(|(flag, _)| flag == "-h")
            && !OTHER_H.contains(&invocation.program.as_str()))
}

/// Whether a call's argument is the one a command names: the same word, the same path once
/// both are normal (`rm -rf ./` is `rm -rf .`, `rm -rf //` is `rm -rf /`), or a command of the
/// named one's namespace (`drizzle-kit push:pg` is a `push`, `artisan migrate:fresh` a
/// `migrate`; not for git, whose `main:prod` is a refspec).
fn same_argument(program: &str, seen: &str, named: &str) -> bool {
    // `npm install *`: a command that takes some argument there (a package to add), whatever
    // it is; bare `npm install` adds nothing.
    named == ANY_ARGUMENT
        || seen == named
        // "any `publish*` task": a task pattern covers the tasks it spells.
        || (named.contains('*') && !seen.starts_with('-') && component_matches(named, seen))
        // (`rm -rf build/` names the folder `build` however the call spells it: `build`,
        // `./build`, `build/`.)
        || ((named.contains(['/', '.', '~']) && seen.contains(['/', '.', '~'])
            || (named.len() > 1 && named.ends_with('/') && !seen.starts_with('-')))
            && normalize_path(seen) == normalize_path(named))
        || (named.starts_with(['~', '$', '/'])
            && seen.starts_with(['~', '$', '/'])
            && in_home(named).is_some_and(|below| in_home(seen) == Some(below)))
        || (program != "git"
            && !named.contains(':')
            && seen
                .strip_prefix(named)
                .is_some_and(|rest| rest.len() > 1 && rest.starts_with(':')))
}

/// Whether a call's first word after the program is the subcommand a command names, spelled
/// with `_` for `-` or the other way (`fwctl wipe-nvram` is `fwctl wipe_nvram`): programs
/// accept both or document one, and people write the other; no program has two subcommands
/// that differ only so. Not for paths, where the two are different files.
fn same_subcommand(program: &str, seen: &str, named: &str) -> bool {
    // Byte by byte, with no folded copies: this runs on the check path.
    let same_byte =
        |(a, b): (u8, u8)| a == b || (a == b'_' && b == b'-') || (a == b'-' && b == b'_');
    seen.len() == named.len()
        && !takes_paths(program)
        && !seen.contains(['/', '.'])
        && seen.contains(['-', '_'])
        && seen.bytes().zip(named.bytes()).all(same_byte)
}

/// A path below the user's home, as what is below it: `~/.npm`, `$HOME/.npm`, `${HOME}/.npm`
/// and `/home/ana/.npm` (or `/Users/ana`, `/root`) are one place for a command's argument.
fn in_home(path: &str) -> Option<String> {
    let path = normalize_path(path);
    let below = path
        .strip_prefix("~/")
        .or_else(|| path.strip_prefix("$home/"))
        .or_else(|| path.strip_prefix("${home}/"))
        .or_else(|| path.strip_prefix("/root/"))
        .or_else(|| {
            ["/home/", "/users/"].iter().find_map(|base| {
                let rest = path.strip_prefix(base)?;
                rest.split_once('/').map(|(_, below)| below)
            })
        })?;
    (!below.is_empty()).then(|| below.to_owned())
}

/// Whether a command's word is a shell assignment (`NODE_ENV=production`): a name of letters,
/// digits and underscores, not starting with a digit, then `=`.
fn is_assignment(token: &str) -> bool {
    token.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|ch: char| ch.is_ascii_digit())
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
    })
}
