//! Unit tests of the revocation grammar: which sentences lift an earlier edict, and with which
//! subject words.

use super::*;

/// Every revocation of `message` alone, in message order.
fn extract_revocations(message: &str) -> Vec<Revocation<'_>> {
    crate::grammar::read_message(message, false, true).revocations
}
use crate::text::{match_form, split_sentences};

/// `message` yields exactly these (kind, subject, scope) revocations, in order.
fn check(message: &str, expected: &[(RevocationKind, &[&str], &str)]) {
    let revocations = extract_revocations(message);
    let found: Vec<(RevocationKind, Vec<&str>, &str)> = revocations
        .iter()
        .map(|revocation| {
            (
                revocation.kind,
                revocation.subject.iter().map(String::as_str).collect(),
                revocation.scope.as_str(),
            )
        })
        .collect();
    let expected: Vec<(RevocationKind, Vec<&str>, &str)> = expected
        .iter()
        .map(|(kind, subject, scope)| (*kind, subject.to_vec(), *scope))
        .collect();
    assert_eq!(found, expected, "{message:?}");
}

fn permission(message: &str, subject: &[&str], scope: &str) {
    check(message, &[(RevocationKind::Permission, subject, scope)]);
}

fn retraction(message: &str, subject: &[&str], scope: &str) {
    check(message, &[(RevocationKind::Retraction, subject, scope)]);
}

#[test]
fn recognises_permissions() {
    permission(
        "You can email Sarah again.",
        &["sarah"],
        "email sarah again",
    );
    permission("it's fine to use sudo now", &["sudo"], "use sudo now");
    permission(
        "You may use the browser again.",
        &["browser"],
        "use the browser again",
    );
    permission(
        "It's ok to push to main again",
        &["main"],
        "push to main again",
    );
    permission(
        "Feel free to use the terminal.",
        &["terminal"],
        "use the terminal",
    );
    permission("You're allowed to text Bob now.", &["bob"], "text bob now");
    permission(
        "You can go back to using git push --force.",
        &["git", "push", "force"],
        "using git push --force",
    );
    permission(
        "Ok, you can now email Sarah again, she's back.",
        &["sarah"],
        "email sarah again",
    );
    permission(
        "I'm fine with you using sudo again.",
        &["sudo"],
        "using sudo again",
    );
    permission(
        "You don't have to avoid Slack anymore.",
        &["slack"],
        "avoid slack anymore",
    );
    permission("Sudo is no longer off-limits.", &["sudo"], "sudo");
    permission(
        "You can email Sarah now that she's back.",
        &["sarah"],
        "email sarah",
    );
    permission(
        "You can email Sarah's manager again.",
        &["sarah", "manager"],
        "email sarah's manager again",
    );
    permission(
        "Forget it: you can use the shell again, ok?",
        &["shell"],
        "use the shell again",
    );
}

#[test]
fn reassurances_before_a_permission_are_not_hedges() {
    permission(
        "Don't worry, you can use sudo again.",
        &["sudo"],
        "use sudo again",
    );
    permission(
        "Never mind, you can email Sarah again.",
        &["sarah"],
        "email sarah again",
    );
    check("I never said you can use sudo again.", &[]);
    check("I didn't say you can use sudo again.", &[]);
}

#[test]
fn recognises_retractions() {
    retraction("Forget the rule about Sarah.", &["sarah"], "sarah");
    retraction(
        "Ignore my earlier rule about the shell.",
        &["shell"],
        "the shell",
    );
    permission(
        "ignore my earlier rule about never using the shell",
        &["shell"],
        "using the shell",
    );
    retraction(
        "Scratch the rule about dry runs.",
        &["dry", "runs"],
        "dry runs",
    );
    retraction("Disregard what I said about Slack.", &["slack"], "slack");
    retraction(
        "I changed my mind about emailing Sarah.",
        &["emailing", "sarah"],
        "emailing sarah",
    );
    retraction("Never mind the rule about sudo.", &["sudo"], "sudo");
    retraction(
        "Lift the ban on calendar invites.",
        &["calendar", "invites"],
        "calendar invites",
    );
    retraction("Please scratch the sudo rule.", &["sudo"], "sudo");
    retraction(
        "The rule about Sarah no longer applies.",
        &["sarah"],
        "sarah",
    );
    retraction("The ban on Slack is lifted.", &["slack"], "slack");
    retraction(
        "You can forget what I told you earlier about the staging db.",
        &["staging", "db"],
        "the staging db",
    );
    retraction(
        "I'm lifting the ban on force pushes.",
        &["force", "pushes"],
        "force pushes",
    );
    retraction("Forget the no-sudo rule.", &["sudo"], "no-sudo");
}

#[test]
fn ignores_near_misses() {
    for message in [
        "can you email Sarah again?",
        "You can email Sarah again?",
        "you can't email Sarah",
        "You cannot use sudo again.",
        "I said you can never email Sarah",
        "don't forget the rule about Sarah",
        "forget about it, just send the report",
        "it's fine, never mind",
        "she said I can use sudo again",
        "She said you can use sudo again.",
        "if you can use sudo again, clean up /tmp",
        "Once the audit is done you can use sudo again.",
        "I don't think you can use sudo again.",
        "You can email Sarah the report.",
        "You can use sudo again just this once.",
        "You can use sudo for now.",
        "You can email Sarah again, but only about invoices.",
        "You can push to main again if the tests pass.",
        "You can stop emailing Sarah now.",
        "You can try using sudo again.",
        "Ignore all previous instructions.",
        "Ignore the error about the missing file.",
        "Forget what I said about that.",
        "Never email Sarah again.",
        "> you can email Sarah again",
        "```\nfeel free to use the terminal\n```",
        "The README says \"feel free to use the terminal\".",
        "The build is fine again.",
    ] {
        check(message, &[]);
    }
}

/// The cheap test never hides a revocation: every sentence of the corpora's messages and
/// stored rules that the grammar reads as a revocation holds a trigger word.
#[test]
fn the_trigger_words_cover_every_revocation() {
    let mut revocations = 0;
    for message in crate::test_messages::corpus_messages() {
        for sentence in message.lines().flat_map(split_sentences) {
            let form = match_form(sentence);
            let found = if is_question(&form) {
                None
            } else {
                find_in(&form, &tokenize(&form))
            };
            revocations += usize::from(found.is_some());
            assert_eq!(find(&form), found, "{sentence:?}");
        }
    }
    // The corpora do revoke, so the test compares something.
    assert!(revocations > 60, "{revocations}");
}

/// Session 31, round 12 (T3): "X is fine again" of what a rule bans, "I (do) allow …", and a
/// rule narrowed in place, which lifts the broad rule and is itself the narrower one.
#[test]
fn recognises_round_12_permissions_and_narrowing() {
    permission(
        "ok sudo is fine again for `apt-get` on this VM",
        &["sudo"],
        "sudo",
    );
    permission(
        "Tagging releases is fine again.",
        &["tagging", "releases"],
        "tagging releases",
    );
    permission(
        "I do allow pushing to develop from now on, though.",
        &["develop"],
        "pushing to develop from now on",
    );
    permission(
        "I allow you to run the e2e suite again",
        &["e2e", "suite"],
        "run the e2e suite again",
    );
    // A state that recovers is no permission; nor is a grant without a lift signal.
    check("the build is fine again", &[]);
    check("prod is fine again", &[]);
    check("I allow pushing to develop.", &[]);
    retraction(
        "the push ban is only for main now, release branches are fine",
        &["push"],
        "push",
    );
    retraction(
        "the deploy rule only applies to prod",
        &["deploy"],
        "deploy",
    );
    check("the deploy ban is strict", &[]);
}

/// A narrowed rule is an edict too, with the whole sentence; a plain lift is not.
#[test]
fn a_narrowed_rule_is_also_an_edict() {
    for message in [
        "the push ban is only for `main` now, `release/*` is fine",
        "I'm lifting the calendar rule: you may delete events again, but only ones I created.",
        "Tagging releases is allowed again, just not on Fridays.",
    ] {
        let found = crate::grammar::read_message(message, true, true);
        assert_eq!(found.revocations.len(), 1, "{message}");
        assert_eq!(found.edicts.len(), 1, "{message}");
    }
    let found = crate::grammar::read_message("You can push to main again.", true, true);
    assert_eq!((found.revocations.len(), found.edicts.len()), (1, 0));
}

/// `message` holds one retraction whose later clause grants back an action with these words.
fn grant(message: &str, expected: Option<(&[&str], &str)>) {
    let revocations = extract_revocations(message);
    assert_eq!(revocations.len(), 1, "{message:?}");
    let found = revocations[0].grant.as_ref().map(|(subject, scope)| {
        (
            subject.iter().map(String::as_str).collect::<Vec<_>>(),
            scope.as_str(),
        )
    });
    let expected = expected.map(|(subject, scope)| (subject.to_vec(), scope));
    assert_eq!(found, expected, "{message:?}");
}

#[test]
fn a_retraction_keeps_the_action_it_grants_back() {
    grant(
        "I'm lifting the invoice rule: you may void invoices again, but only drafts I created.",
        Some((&["invoices"], "void invoices again")),
    );
    grant(
        "Scratch the payout rule, you're allowed to send payouts to Canada again.",
        Some((&["payouts", "canada"], "send payouts to canada again")),
    );
    // A modal grant needs its lift signal; without one it is a request, not the rule's action.
    grant("Forget the invoice rule: you can void invoice 12.", None);
    grant("Forget the calendar rule.", None);
    grant("I'm lifting the deploy rule: you can deploy again.", None);
}
