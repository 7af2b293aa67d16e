//! Which paths a command line reads and which it writes, each also resolved against the
//! directory it runs in (`cd /mnt && rm -r backups/old` removes `/mnt/backups/old`; a call's
//! `Cwd` or `workdir` is where its command starts).
//!
//! A path rule said about reading files holds for a command that reads the path, and one said
//! about editing files for a command that writes it (see `docs/guard.md`, "Paths across
//! families"), so each argument of each program is sorted by what the program does with it:
//! `cat` and `grep` read theirs, `rm` and `touch` write theirs, `cp` reads all but the last
//! and writes the last, a redirection (`>`, `>>`, `tee`) writes its file. A program the tables
//! do not know is taken to do both, so a rule is never narrowed on a guess.

use super::lexicon::{
    COPY_COMMANDS, COPY_SUBCOMMANDS, CREATING_COMMANDS, READ_ONLY_COMMANDS, SOURCE_COMMANDS,
    WRAPPERS, WRITE_ONLY_COMMANDS,
};
use super::shell::Invocation;
use crate::normalize::normalize_path;

/// The paths a command line reads and writes, as written and, for a relative one under a
/// known directory, resolved against it.
#[derive(Debug, Default, Clone)]
pub(crate) struct PathUses {
    pub(crate) read: Vec<String>,
    pub(crate) written: Vec<String>,
    /// The written paths a command may create (`touch`, `>`, `cp`'s target), not only
    /// change (`sed -i`, `>>`, `rm`).
    pub(crate) created: Vec<String>,
}

/// What a command does with one of its paths.
#[derive(Clone, Copy)]
struct Use {
    read: bool,
    written: bool,
    created: bool,
}

const READ: Use = Use {
    read: true,
    written: false,
    created: false,
};
const CHANGED: Use = Use {
    read: false,
    written: true,
    created: false,
};
const CREATED: Use = Use {
    read: false,
    written: true,
    created: true,
};
/// What a program the tables do not know may do with a path: anything.
const ANY: Use = Use {
    read: true,
    written: true,
    created: true,
};

impl PathUses {
    fn add(&mut self, word: &str, cwd: Option<&str>, how: Use) {
        let resolved = resolve(word, cwd);
        for (wanted, list) in [
            (how.read, &mut self.read),
            (how.written, &mut self.written),
            (how.created, &mut self.created),
        ] {
            if !wanted {
                continue;
            }
            list.push(word.to_owned());
            list.extend(resolved.clone());
        }
    }
}

/// `word` resolved against the directory `cwd`, when it is a relative path and `cwd` is known:
/// `backups/old` under `/mnt` is `/mnt/backups/old`. `None` for an absolute path, a home path,
/// a flag or a word with no path shape.
pub(crate) fn resolve(word: &str, cwd: Option<&str>) -> Option<String> {
    let cwd = cwd?;
    let word = word.trim();
    let absolute = word.starts_with(['/', '~', '\\', '$', '-'])
        || word.as_bytes().get(1) == Some(&b':')
        || word.contains("://");
    if absolute || word.is_empty() || cwd.is_empty() {
        return None;
    }
    Some(normalize_path(&format!("{cwd}/{word}")))
}

/// The directory a `cd` (or `pushd`) invocation moves to, resolved against the current one;
/// `None` when it is not one or goes somewhere the line does not say (`cd`, `cd -`, `cd $X`).
pub(crate) fn changed_directory(
    invocation: &Invocation,
    cwd: Option<&str>,
) -> Option<Option<String>> {
    if !matches!(
        invocation.program.as_str(),
        "cd" | "pushd" | "set-location" | "sl" | "chdir"
    ) {
        return None;
    }
    let target = invocation.positional.first();
    Some(match target {
        Some(target)
            if target.starts_with(['/', '~']) || target.as_bytes().get(1) == Some(&b':') =>
        {
            Some(normalize_path(target))
        }
        Some(target) if target != "-" && !target.starts_with('$') => resolve(target, cwd),
        _ => None,
    })
}

/// What each invocation of a command line does with its paths, in order, following `cd`
/// from the directory the call starts in (`cwd`).
pub(crate) fn path_uses(invocations: &[Invocation], cwd: Option<&str>) -> PathUses {
    let mut uses = PathUses::default();
    let mut current = cwd.map(normalize_path);
    for invocation in invocations {
        if let Some(moved) = changed_directory(invocation, current.as_deref()) {
            current = moved;
            continue;
        }
        invocation_uses(invocation, current.as_deref(), &mut uses);
    }
    uses
}

/// How one invocation uses its arguments (see the module's documentation).
fn invocation_uses(invocation: &Invocation, cwd: Option<&str>, uses: &mut PathUses) {
    let program = invocation.program.as_str();
    // A wrapper's words are the wrapped command's, which is an invocation of its own.
    if WRAPPERS.contains(&program) || program.is_empty() {
        return;
    }
    let mut arguments: Vec<&str> = Vec::new();
    let mut words = invocation.positional.iter().map(String::as_str).peekable();
    while let Some(word) = words.next() {
        // Redirections: `> file`, `>> file`, `2>file`, `< file`, `a>b`.
        if let Some((before, after)) = word.split_once('>') {
            let target = after.trim_start_matches(['>', '|']);
            let target = if target.is_empty() {
                words.next().unwrap_or("")
            } else {
                target
            };
            if !target.is_empty() && !target.starts_with('&') && !target.starts_with("/dev/") {
                // `>` makes the file, `>>` adds to it.
                let appends = after.starts_with('>');
                uses.add(target, cwd, if appends { CHANGED } else { CREATED });
            }
            if !before.is_empty() && !before.chars().all(|ch| ch.is_ascii_digit() || ch == '&') {
                arguments.push(before);
            }
            continue;
        }
        if let Some(source) = word.strip_prefix('<') {
            let source = if source.is_empty() {
                words.next().unwrap_or("")
            } else {
                source
            };
            if !source.is_empty() {
                uses.add(source, cwd, READ);
            }
            continue;
        }
        arguments.push(word);
    }
    // `aws s3 cp SOURCE TARGET`, `gsutil rsync`, `rclone copy`: a copy after the subcommand.
    if let Some((_, words, moves)) = COPY_SUBCOMMANDS.iter().find(|(known, words, _)| {
        *known == program
            && arguments.len() > words.len()
            && arguments
                .iter()
                .zip(words.iter())
                .all(|(seen, named)| seen == named)
    }) {
        let rest = &arguments[words.len()..];
        let last = rest.len().saturating_sub(1);
        for (at, word) in rest.iter().enumerate() {
            let how = match (at == last, *moves) {
                (true, _) => CREATED,
                (false, true) => Use {
                    read: true,
                    ..CHANGED
                },
                (false, false) => READ,
            };
            uses.add(word, cwd, how);
        }
        return;
    }
    let values = invocation.values.iter().map(|(_, value)| value.as_str());
    // (`sed -i`, `yq -i`: a reader told to write its file back changes it, and makes none.)
    let mut in_place = false;
    let read_only = READ_ONLY_COMMANDS
        .iter()
        .find(|(known, ..)| *known == program)
        .is_some_and(|(_, subcommands, writing)| {
            let subcommand_reads = subcommands.is_empty()
                || subcommands.iter().any(|subcommand| {
                    let words: Vec<&str> = subcommand.split(' ').collect();
                    arguments.len() >= words.len()
                        && arguments
                            .iter()
                            .zip(&words)
                            .all(|(seen, named)| seen == named)
                });
            let writes = invocation.flags.iter().any(|flag| {
                writing
                    .iter()
                    .any(|writing| flag == writing || flag.starts_with(&format!("{writing}=")))
                    || (writing.contains(&"-i") && flag.starts_with("-i"))
            });
            in_place = writes && writing.iter().any(|flag| flag.starts_with("-i"));
            subcommand_reads && !writes
        });
    if in_place {
        for word in arguments.into_iter().chain(values) {
            uses.add(
                word,
                cwd,
                Use {
                    read: true,
                    ..CHANGED
                },
            );
        }
    } else if read_only || SOURCE_COMMANDS.contains(&program) {
        for word in arguments.into_iter().chain(values) {
            uses.add(word, cwd, READ);
        }
    } else if WRITE_ONLY_COMMANDS.contains(&program) {
        let how = if CREATING_COMMANDS.contains(&program) {
            CREATED
        } else {
            CHANGED
        };
        for word in arguments.into_iter().chain(values) {
            uses.add(word, cwd, how);
        }
    } else if COPY_COMMANDS.contains(&program) {
        let last = arguments.len().saturating_sub(1);
        for (at, word) in arguments.into_iter().enumerate() {
            uses.add(word, cwd, if at == last { CREATED } else { READ });
        }
        for word in values {
            uses.add(word, cwd, ANY);
        }
    } else if program == "tee" {
        let appends = invocation
            .flags
            .iter()
            .any(|flag| flag == "-a" || flag == "--append");
        for word in arguments {
            uses.add(word, cwd, if appends { CHANGED } else { CREATED });
        }
    } else if program == "dd" {
        for word in arguments {
            if let Some(input) = word.strip_prefix("if=") {
                uses.add(input, cwd, READ);
            } else if let Some(output) = word.strip_prefix("of=") {
                uses.add(output, cwd, CREATED);
            }
        }
    } else {
        for word in arguments.into_iter().chain(values) {
            uses.add(word, cwd, ANY);
        }
    }
}

/// Whether a program's words are the paths it works on, not subcommands (`rm data_old`,
/// `cat notes-old`): the programs the tables above read paths of without a subcommand.
pub(crate) fn takes_paths(program: &str) -> bool {
    WRITE_ONLY_COMMANDS.contains(&program)
        || COPY_COMMANDS.contains(&program)
        || SOURCE_COMMANDS.contains(&program)
        || READ_ONLY_COMMANDS
            .iter()
            .any(|(known, subcommands, _)| *known == program && subcommands.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::parse_command_line;
    use crate::limits::Budget;

    fn uses(line: &str, cwd: Option<&str>) -> (Vec<String>, Vec<String>) {
        let mut invocations = Vec::new();
        parse_command_line(line, 0, &mut invocations, &Budget::default());
        let uses = path_uses(&invocations, cwd);
        (uses.read, uses.written)
    }

    #[test]
    fn each_program_reads_or_writes_its_paths() {
        let check = |line: &str, read: &[&str], written: &[&str]| {
            let (found_read, found_written) = uses(line, None);
            assert_eq!(found_read, read, "{line}: read");
            assert_eq!(found_written, written, "{line}: written");
        };
        check("cat ~/.ssh/id_rsa", &["~/.ssh/id_rsa"], &[]);
        check(
            "grep -n host ~/.ssh/config",
            &["host", "~/.ssh/config"],
            &[],
        );
        check(
            "sed -i s/a/b/ gen.rs",
            &["s/a/b/", "gen.rs"],
            &["s/a/b/", "gen.rs"],
        );
        check("echo x >> gen.rs", &["x"], &["gen.rs"]);
        check("cat a.txt > b.txt 2>/dev/null", &["a.txt"], &["b.txt"]);
        check("cp /tmp/g.rs gen.rs", &["/tmp/g.rs"], &["gen.rs"]);
        check("cp gen.rs /tmp/backup.rs", &["gen.rs"], &["/tmp/backup.rs"]);
        check("rm -f gen.rs", &[], &["gen.rs"]);
        check("printf x | tee gen.rs", &["x"], &["gen.rs"]);
        check("tee gen.rs < /tmp/x", &["/tmp/x"], &["gen.rs"]);
        check(
            "mv gen.rs /tmp/",
            &["gen.rs", "/tmp/"],
            &["gen.rs", "/tmp/"],
        );
        check("source .env", &[".env"], &[]);
        check("dd if=/dev/zero of=disk.img", &["/dev/zero"], &["disk.img"]);
        check("aws s3 cp s3://b/db.dump .", &["s3://b/db.dump"], &["."]);
        check("aws s3 sync ./out s3://b/", &["./out"], &["s3://b/"]);
    }

    #[test]
    fn relative_paths_resolve_against_the_directory_the_command_runs_in() {
        let (_, written) = uses("cd /mnt && rm -r backups/old", None);
        assert_eq!(written, ["backups/old", "/mnt/backups/old"]);
        let (_, written) = uses("cd /mnt; cd backups && rm -rf 2023", None);
        assert_eq!(written, ["2023", "/mnt/backups/2023"]);
        let (_, written) = uses("rm -rf old", Some("/mnt/backups"));
        assert_eq!(written, ["old", "/mnt/backups/old"]);
        // Somewhere the line does not say: no longer resolved.
        let (_, written) = uses("cd $DIR && rm -rf old", Some("/mnt"));
        assert_eq!(written, ["old"]);
        let (_, written) = uses("rm -rf /abs ~/home", Some("/mnt"));
        assert_eq!(written, ["/abs", "~/home"]);
    }
}
