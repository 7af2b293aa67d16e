//! The span fail-safe (issue 21, eighth round): a critical ban or ask whose derived reading
//! does not fire asks about a call that carries every token of one of its code spans, and
//! keeps its answer where its reading narrowed the span on purpose (an exception, a verb
//! scope, a flag the words tie to it, a phrase that grants).

use anyhow::{Result, ensure};
use serde_json::json;
use tool_memory_core::ToolMemoryPriority;
use tool_memory_guard::{Decision, Guard};

use crate::api::rule;

use Decision::{Allow, Confirm, Deny};

fn verdicts(priority: ToolMemoryPriority, text: &str, rows: &[(&str, Decision)]) -> Result<()> {
    let guard = Guard::from_rules([rule("r", "Bash", text, priority)]);
    for (command, expected) in rows {
        let verdict = guard.check("Bash", &json!({ "command": command }));
        ensure!(
            verdict.decision == *expected,
            "{text:?} on {command:?}: expected {expected:?}, got {:?} ({})",
            verdict.decision,
            verdict.reason
        );
    }
    Ok(())
}

fn check(text: &str, rows: &[(&str, Decision)]) -> Result<()> {
    verdicts(ToolMemoryPriority::Critical, text, rows)
}

#[test]
fn a_reading_narrower_than_the_words_asks_about_the_span() -> Result<()> {
    // Read as `pulumi destroy --preview-only`: "not even with" says the flag narrows nothing.
    check(
        "No `pulumi destroy` on stacks other people own, not even with `--preview-only`.",
        &[
            ("pulumi destroy --stack acme/prod --yes", Confirm),
            ("pulumi destroy --preview-only", Deny),
            ("pulumi preview --stack acme/prod", Allow),
        ],
    )?;
    // The flag after "unless" is the exception since round 15: the reading is no narrower
    // than the words, so it denies where the fail-safe asked.
    check(
        "Never `npm publish` unless it is a `--dry-run`.",
        &[
            ("npm publish --tag beta --access public", Deny),
            ("npm publish --dry-run", Allow),
            ("npm pack", Allow),
        ],
    )
}

#[test]
fn the_reason_names_the_span_and_the_rule() -> Result<()> {
    let rule = rule(
        "rule-7",
        "Bash",
        "No `pulumi destroy` on stacks other people own, not even with `--preview-only`.",
        ToolMemoryPriority::High,
    );
    let verdict =
        Guard::from_rules([rule]).check("Bash", &json!({"command": "pulumi destroy --yes"}));
    ensure!(verdict.decision == Confirm, "{verdict:?}");
    ensure!(
        verdict.reason.contains("`pulumi destroy`") && verdict.reason.contains("rule-7"),
        "{}",
        verdict.reason
    );
    Ok(())
}

#[test]
fn a_flag_the_words_tie_to_the_span_keeps_its_answer() -> Result<()> {
    check(
        "Never `git push` with `--force`.",
        &[("git push --force", Deny), ("git push origin main", Allow)],
    )
}

#[test]
fn spans_that_are_granted_or_before_the_ban_are_not_asked_about() -> Result<()> {
    check(
        "Use `npm ci`, never `npm install`.",
        &[("npm ci", Allow), ("npm install", Deny)],
    )?;
    check(
        "`kubectl get` is fine, `kubectl delete` is not.",
        &[("kubectl get pods", Allow)],
    )?;
    check(
        "Describing a pod is fine, but `kubectl delete pod` in prod needs my OK.",
        &[("kubectl describe pod api-1 -n prod", Allow)],
    )
}

#[test]
fn a_span_scoped_to_an_object_keeps_its_answer() -> Result<()> {
    // Read as the `secret/` path under `vault kv destroy`: another mount is the reading's.
    check(
        "Don't even think about `vault kv destroy` on the secret/ mount.",
        &[("vault kv destroy -mount=kv app/db", Allow)],
    )
}

#[test]
fn normal_rules_stay_advice() -> Result<()> {
    verdicts(
        ToolMemoryPriority::Normal,
        "No `pulumi destroy` on stacks other people own, not even with `--preview-only`.",
        &[("pulumi destroy --stack acme/prod --yes", Allow)],
    )
}

#[test]
fn an_option_given_a_value_in_a_span_binds_calls_with_that_value() -> Result<()> {
    check(
        "Never run `kubectl -n prod delete`.",
        &[
            ("kubectl -n prod delete pod api-1", Deny),
            ("kubectl delete pod api-1 -n prod", Deny),
            ("kubectl delete pod api-1 -n dev", Allow),
            ("kubectl get pods -n prod", Allow),
        ],
    )?;
    // The option says where the command runs; "for writes" what it must not do there.
    check(
        "`redis-cli -h prod-cache` must not be used for writes; `GET`/`TTL` only.",
        &[
            ("redis-cli -h prod-cache SET feature:x 1", Deny),
            ("redis-cli -h prod-cache DEL feature:x", Deny),
            ("redis-cli -h prod-cache GET feature:x", Allow),
            ("redis-cli -h staging-cache SET feature:x 1", Allow),
        ],
    )
}

#[test]
fn runners_that_put_secrets_around_a_program_run_it() -> Result<()> {
    check(
        "Never `flyctl apps destroy` anything.",
        &[
            ("direnv exec . flyctl apps destroy my-app --yes", Deny),
            ("op run --env-file=.env -- flyctl apps destroy my-app", Deny),
            ("aws-vault exec prod -- flyctl apps destroy my-app", Deny),
            ("doppler run -- flyctl apps destroy my-app", Deny),
            ("op run -- flyctl apps list", Allow),
            ("direnv exec . flyctl apps list", Allow),
        ],
    )
}
