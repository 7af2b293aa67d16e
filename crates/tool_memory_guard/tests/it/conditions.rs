//! Conditions on the situation: checked where the call shows them (an event's date, an
//! amount), asked about where it does not, never silently allowed.

use anyhow::Result;
use serde_json::json;
use tool_memory_guard::Decision;

use crate::api::check_rows as check;

use Decision::{Allow, Confirm};

#[test]
fn a_weekday_is_checked_on_the_dates_a_call_carries() -> Result<()> {
    check(
        "create_event",
        "Don't schedule anything with Priya on Fridays",
        &[
            // 2026-03-13 is a Friday, 2026-03-10 a Tuesday.
            (
                json!({"start": "2026-03-13T10:00:00", "attendees": ["priya@corp.com"]}),
                Confirm,
            ),
            (
                json!({"start": "2026-03-10T10:00:00", "attendees": ["priya@corp.com"]}),
                Allow,
            ),
            (
                json!({"title": "sync", "attendees": ["priya@corp.com"]}),
                Confirm,
            ),
            (
                json!({"start": "2026-03-13T10:00:00", "attendees": ["tom@corp.com"]}),
                Allow,
            ),
        ],
    )?;
    check(
        "mcp__github__merge_pull_request",
        "Don't merge PRs on weekends.",
        &[(
            json!({"owner": "acme", "repo": "api", "pullNumber": 42}),
            Confirm,
        )],
    )
}

#[test]
fn an_amount_is_compared_in_the_unit_the_call_counts_in() -> Result<()> {
    check(
        "stripe_refund",
        "Never refund more than $500 without asking",
        &[
            // Stripe counts cents.
            (json!({"charge": "ch_1", "amount": 90000}), Confirm),
            (json!({"charge": "ch_1", "amount": 2000}), Allow),
            (json!({"charge": "ch_1"}), Confirm),
        ],
    )?;
    check(
        "send_payment",
        "Don't send more than 50 EUR to anyone.",
        &[
            (
                json!({"payee": "a@b.com", "amount": "€75.00"}),
                Decision::Deny,
            ),
            (json!({"payee": "a@b.com", "amount": "€20.00"}), Allow),
            // 2000 may be euros or cents: ask.
            (json!({"payee": "a@b.com", "amount": 2000}), Confirm),
            (json!({"payee": "a@b.com", "amount": 30}), Allow),
        ],
    )
}

#[test]
fn a_time_of_day_or_a_state_the_call_cannot_show_asks() -> Result<()> {
    check(
        "Bash",
        "No `kubectl apply` after 4pm.",
        &[
            (json!({"command": "kubectl apply -f deploy.yaml"}), Confirm),
            (json!({"command": "kubectl get pods"}), Allow),
        ],
    )?;
    check(
        "Bash",
        "Don't run `terraform apply` when the freeze is on.",
        &[
            (json!({"command": "terraform apply -auto-approve"}), Confirm),
            (json!({"command": "terraform plan"}), Allow),
        ],
    )?;
    check(
        "Bash",
        "Don't deploy on Fridays.",
        &[
            (json!({"command": "vercel deploy --prod"}), Confirm),
            (json!({"command": "vercel logs"}), Allow),
        ],
    )
}

#[test]
fn a_ban_outside_an_environment_excuses_the_calls_that_name_it() -> Result<()> {
    let bash = |command: &str| json!({"command": command});
    check(
        "Bash",
        "`npx prisma migrate reset` is forbidden outside the test environment.",
        &[
            // Set before a runner, the variable is the wrapped command's environment too.
            (bash("NODE_ENV=test npx prisma migrate reset"), Allow),
            (bash("env NODE_ENV=test npx prisma migrate reset"), Allow),
            (
                bash("NODE_ENV=production npx prisma migrate reset"),
                Decision::Deny,
            ),
            (bash("npx prisma migrate reset"), Decision::Deny),
            (bash("npx prisma migrate reset --env=test"), Allow),
        ],
    )
}

#[test]
fn an_option_named_with_its_value_is_that_value_only() -> Result<()> {
    let bash = |command: &str| json!({"command": command});
    check(
        "Bash",
        "Ask before running anything with `--stage=prod`.",
        &[
            (bash("serverless deploy --stage=prod"), Confirm),
            (bash("sls remove --stage prod"), Confirm),
            (bash("serverless deploy --stage=dev"), Allow),
            (bash("sls remove --stage staging"), Allow),
        ],
    )
}
