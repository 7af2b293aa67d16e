//! A forbidden call is never allowed by spelling it differently: quoting tricks, escapes,
//! wrappers, separators, paths to the program, options before the subcommand, a shell's `-c`,
//! `find -exec`, runners with a version, flag clusters and globs that touch a word. Each row
//! is a rule, a call of Claude Code's `Bash`, and the verdict expected; the spellings are
//! the ones a person or a prompt-injected agent reaches for.

use anyhow::{Result, ensure};
use serde_json::json;
use tool_memory_core::ToolMemoryPriority;
use tool_memory_guard::{Decision, Guard};

use crate::api::rule;

fn check(rule_text: &str, rows: &[(&str, Decision)]) -> Result<()> {
    let guard = Guard::from_rules([rule("r", "Bash", rule_text, ToolMemoryPriority::Critical)]);
    for (command, expected) in rows {
        let verdict = guard.check("Bash", &json!({"command": command}));
        ensure!(
            verdict.decision == *expected,
            "{rule_text:?} on {command:?}: expected {}, got {} ({})",
            expected.as_str(),
            verdict.decision.as_str(),
            verdict.reason
        );
    }
    Ok(())
}

use Decision::{Allow, Deny};

#[test]
fn quoting_and_escapes_spell_the_same_program() -> Result<()> {
    check(
        "Never run yarn.",
        &[
            ("y''arn install", Deny),
            ("\"yarn\" install", Deny),
            ("'yarn' install", Deny),
            ("y\\arn install", Deny),
            ("\\yarn install", Deny),
            ("$'\\x79arn' install", Deny),
            ("$'\\171arn' install", Deny),
            ("$\"yarn\" install", Deny),
            ("yarn${IFS}install", Deny),
            ("Y''ARN install", Deny),
            ("echo yarnish", Allow),
            ("pnpm install", Allow),
        ],
    )
}

#[test]
fn separators_wrappers_and_program_paths_are_seen_through() -> Result<()> {
    check(
        "**NEVER** `git push --force`.",
        &[
            ("g''it push --force", Deny),
            ("\"git\" push -f", Deny),
            ("$'\\x67it' push -f", Deny),
            ("cd repo && git push -f", Deny),
            ("true; git push --force origin main", Deny),
            ("echo ok | git push -f", Deny),
            ("echo $(git push -f)", Deny),
            ("echo `git push -f`", Deny),
            ("ls\ngit push -f", Deny),
            ("command git push -f", Deny),
            ("/usr/bin/git push -f", Deny),
            ("env GIT_TRACE=1 git push -f", Deny),
            ("GIT_TRACE=1 git push -f", Deny),
            ("git -C ../repo push -f", Deny),
            ("git -c push.default=current push -f", Deny),
            ("sudo -u deploy git push --force", Deny),
            ("eval git push -f", Deny),
            ("sh -c 'git push -f'", Deny),
            ("bash -lc \"git push --force\"", Deny),
            ("git push -fu origin main", Deny),
            ("git push origin +main", Deny),
            ("git push origin main", Allow),
            ("git push --force-with-lease origin main", Allow),
        ],
    )
}

#[test]
fn a_shell_c_value_and_find_exec_are_commands() -> Result<()> {
    check(
        "Never run `yarn`.",
        &[
            ("sh -c yarn", Deny),
            ("bash -ec yarn", Deny),
            ("find . -name package.json -execdir yarn \\;", Deny),
            ("find . -name '*.log' -delete", Allow),
        ],
    )?;
    check(
        "never `rm -rf`",
        &[
            ("find /srv -type d -exec rm -rf {} +", Deny),
            ("find /srv -type d -exec rm -r {} +", Allow),
        ],
    )
}

#[test]
fn runners_with_a_version_run_the_program() -> Result<()> {
    check(
        "Never deploy with `wrangler deploy`.",
        &[
            ("npx wrangler@3 deploy", Deny),
            ("bunx wrangler@latest deploy", Deny),
            ("pnpm dlx wrangler@3.1.0 deploy --env prod", Deny),
            ("npx wrangler@3 dev", Allow),
        ],
    )?;
    check(
        "- **NEVER run yarn** — the lockfile is `pnpm-lock.yaml`.",
        &[
            ("npx yarn@1.22.19 install", Deny),
            ("npx prettier@3 --check .", Allow),
        ],
    )
}

#[test]
fn a_glob_that_touches_a_word_still_finds_longer_words() -> Result<()> {
    check(
        "Never read `id_rsa*` or `secret?.txt`.",
        &[
            ("cat ~/.ssh/id_rsa2", Deny),
            ("cat ~/.ssh/id_rsa.pub", Deny),
            ("cat secret1.txt", Deny),
            ("cat id_ed25519", Allow),
            ("cat secrets.txt", Deny),
            ("cat secret.txt", Allow),
        ],
    )
}
