//! Allowlists of recipients: a call to someone the rule names is allowed, to anyone else
//! denied, to someone named like them at another address asked about.

use anyhow::Result;
use serde_json::json;
use tool_memory_guard::Decision;

use crate::api::check_rows as check;

use Decision::{Allow, Confirm, Deny};

#[test]
fn a_name_allows_that_person_only() -> Result<()> {
    check(
        "send_email",
        "Never email anyone but Priya.",
        &[
            (json!({"to": "priya@acme.com"}), Allow),
            (json!({"to": "Priya"}), Allow),
            (json!({"to": "Priya Shah <p.shah@acme.com>"}), Confirm),
            (json!({"to": "tom@acme.com"}), Deny),
            (json!({"to": ["priya@acme.com", "tom@acme.com"]}), Deny),
            (json!({"to": "Tom"}), Deny),
            (json!({"subject": "no recipient"}), Deny),
        ],
    )
}

#[test]
fn a_domain_allows_its_addresses_only() -> Result<()> {
    for text in [
        "Only message people on the @acme.com domain.",
        "Do not email anyone outside acme.com.",
        "You may only email people at acme.com.",
    ] {
        check(
            "send_email",
            text,
            &[
                (json!({"to": "dana@acme.com"}), Allow),
                (json!({"to": "dana@eu.acme.com"}), Allow),
                (json!({"to": "dana@acme.co"}), Deny),
                (json!({"to": "dana@notacme.com"}), Deny),
                (json!({"to": "dana@acme.com", "cc": "x@gmail.com"}), Deny),
            ],
        )?;
    }
    Ok(())
}

#[test]
fn handles_and_addresses_in_one_list() -> Result<()> {
    check(
        "send_email",
        "Don't send mail to anyone except priya@acme.com and Tom.",
        &[
            (json!({"to": "priya@acme.com"}), Allow),
            (json!({"to": "Tom"}), Allow),
            (json!({"to": "priya@gmail.com"}), Deny),
            (json!({"to": "kevin@acme.com"}), Deny),
        ],
    )?;
    check(
        "mcp__slack__post_message",
        "Only DM Priya or Tom.",
        &[
            (json!({"channel": "@priya", "text": "hi"}), Allow),
            (json!({"channel": "@kevin", "text": "Priya says hi"}), Deny),
        ],
    )
}
