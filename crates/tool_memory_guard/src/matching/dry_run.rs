//! Dry runs: an invocation that only shows what a command would do (`npm publish --dry-run`,
//! `git push -n`, `kubectl apply --dry-run=client`) is no run of it, so a ban or an ask of
//! the command does not hold for it, unless the rule names the dry-run option itself.

use crate::call::Invocation;

/// The options that make any program's run a dry run, in their canonical spelling (after
/// `FLAG_ALIASES`: rsync's and git push/add/clean's `-n` are `--dry-run` there). PowerShell's
/// common parameter `-WhatIf` is every cmdlet's.
const ANY_PROGRAM: &[&str] = &["--dry-run", "--dryrun", "--dry_run", "-whatif"];

/// Per program, and per subcommand where the option means something else elsewhere (`git
/// fetch -n` is `--no-tags`, `gsutil cp -n` is no-clobber): (program, subcommand or "",
/// option), as each tool documents its dry run.
const PER_PROGRAM: &[(&str, &str, &str)] = &[
    ("ansible", "", "--check"),
    ("ansible", "", "-C"),
    ("ansible-playbook", "", "--check"),
    ("ansible-playbook", "", "-C"),
    ("apt", "", "--simulate"),
    ("apt", "", "-s"),
    ("apt-get", "", "--just-print"),
    ("apt-get", "", "--no-act"),
    ("apt-get", "", "--recon"),
    ("apt-get", "", "--simulate"),
    ("apt-get", "", "-s"),
    ("brew", "cleanup", "-n"),
    ("git", "mv", "-n"),
    ("git", "rm", "-n"),
    ("gsutil", "rsync", "-n"),
    ("make", "", "--just-print"),
    ("make", "", "--recon"),
    ("make", "", "-n"),
    ("puppet", "", "--noop"),
    ("rclone", "", "-n"),
];

/// The values of a dry-run option that ask for a real run (`kubectl apply --dry-run=none`).
const RUNS: &[&str] = &["none", "false", "0", "no"];

/// Whether a call's own boolean arguments ask for a dry run (`{"dry_run": true}`).
pub(crate) fn dry_run_flags(bool_flags: &[String]) -> bool {
    bool_flags.iter().any(|flag| flag == "--dry-run")
}

/// Whether an invocation only shows what it would do.
pub(crate) fn is_dry_run(invocation: &Invocation) -> bool {
    let subcommand = invocation.positional.first().map_or("", String::as_str);
    let program = invocation.program.as_str();
    let dry = invocation.flags.iter().any(|flag| {
        ANY_PROGRAM
            .iter()
            .any(|option| flag.eq_ignore_ascii_case(option))
            || PER_PROGRAM.iter().any(|&(known, sub, option)| {
                known == program && (sub.is_empty() || sub == subcommand) && option == flag
            })
    });
    dry && !invocation
        .values
        .iter()
        .any(|(flag, value)| ANY_PROGRAM.contains(&flag.as_str()) && RUNS.contains(&value.as_str()))
}

/// Whether a rule's matcher value names a dry-run option (`--dry-run=server`, `npm publish
/// --dry-run`, `-n`): then the rule is about the dry run and it is not excused.
pub(crate) fn names_dry_run(value: &str) -> bool {
    value
        .split(|c: char| c.is_whitespace() || c == '=' || c == '`')
        .any(|word| {
            ANY_PROGRAM
                .iter()
                .any(|option| word.eq_ignore_ascii_case(option))
                || PER_PROGRAM.iter().any(|&(_, _, option)| {
                    option == word
                        || (option.starts_with("--") && word.eq_ignore_ascii_case(option))
                })
        })
}
