//! Unit tests of tool attribution: which tool an edict lands on, and that the alias index
//! reads the table as a scan would.

use super::*;
use crate::ToolCallRecord;
use crate::text::match_form;

/// The alias index finds, for every group, the mention a scan for each of its phrases
/// finds: the index is only a faster way to read the same table.
#[test]
fn alias_index_agrees_with_a_scan_per_phrase() {
    let scan = |form: &str| -> Vec<Option<(bool, usize, Reverse<usize>)>> {
        ALIAS_GROUPS
            .iter()
            .map(|group| {
                let strong = group.strong.iter().map(|phrase| (false, phrase));
                let weak = group.phrases.iter().map(|phrase| (true, phrase));
                strong
                    .chain(weak)
                    .filter_map(|(weak, phrase)| {
                        find_word(form, phrase, ALIAS_SUFFIXES)
                            .map(|position| (weak, position, Reverse(phrase.len())))
                    })
                    .min()
            })
            .collect()
    };
    let mut forms: Vec<String> = [
        "never email sarah, and stop emailing bob's inbox",
        "don't run rm -rf or kill -9 as root in the terminal",
        "e-mails, cc'd and bcc'ing: mailbox is not mail",
        "no sudo; use the command-line interface, not the cli's scripts",
        "ping the admin in the slack channel, then call me",
        "",
    ]
    .map(str::to_owned)
    .to_vec();
    // Every phrase of the table, alone and inside a sentence, with a suffix and without.
    for group in ALIAS_GROUPS {
        for phrase in group.strong.iter().chain(group.phrases) {
            forms.push(format!("never {phrase}s or {phrase}"));
            forms.push(format!("x{phrase} {phrase}ing"));
        }
    }
    for form in &forms {
        assert_eq!(alias_mentions(form), scan(form), "{form:?}");
    }
}

/// The edict `edict`, in a turn that called `ran` with catalogue `catalogue`, lands on
/// `expected`.
fn check(edict: &str, ran: &[&str], catalogue: &[&str], expected: &str) {
    let turn = TurnRecord {
        user_message: edict.to_owned(),
        tool_calls: ran
            .iter()
            .map(|name| ToolCallRecord::new(*name, true, "ok"))
            .collect(),
        session_id: None,
        turn: None,
        available_tools: catalogue.iter().map(|name| (*name).to_owned()).collect(),
    };
    let tool = Candidates::of_turn(&turn).attribute(&match_form(edict));
    assert_eq!(tool, expected, "{edict:?} with {ran:?} + {catalogue:?}");
}

#[test]
fn named_tools_win() {
    check(
        "Don't run shell commands with sudo.",
        &["shell", "browser"],
        &[],
        "shell",
    );
    check(
        "Stop using browser for that.",
        &["shell", "browser"],
        &[],
        "browser",
    );
    check(
        "never use send email for this",
        &["bash"],
        &["Send_Email"],
        "send_email",
    );
    check(
        "never call WebSearch twice",
        &[],
        &["WebSearch", "bash"],
        "websearch",
    );
    check(
        "never use web search for names",
        &["bash"],
        &["WebSearch"],
        "websearch",
    );
    check("Never deploy on Fridays", &["deploy"], &[], "deploy");
    check("never use ls on the tools dir", &["bash"], &["ls"], "ls");
    check("never install more tools", &["bash"], &["ls"], "bash");
}

#[test]
fn aliases_resolve_only_to_existing_tools() {
    check(
        "Never email Sarah.",
        &["bash", "send_email"],
        &[],
        "send_email",
    );
    check("Never run rm -rf.", &["send_email", "bash"], &[], "bash");
    check(
        "Please never ping the admin channel",
        &["send_email", "slack_post"],
        &[],
        "slack_post",
    );
    check(
        "never use the website builder",
        &["web_fetch", "send_email"],
        &[],
        "web_fetch",
    );
    check(
        "never use the website builder",
        &["send_email"],
        &[],
        "send_email",
    );
    check("Never check my mailbox", &["bash"], &["read_mail"], "bash");
    check(
        "never open a terminal for this",
        &["execute_sql"],
        &[],
        "execute_sql",
    );
    check(
        "never open a terminal for this",
        &["execute_sql"],
        &["exec_command"],
        "exec_command",
    );
    check(
        "Never delete files in /etc.",
        &["read_file", "delete_file"],
        &[],
        "delete_file",
    );
    check(
        "Never touch the production database.",
        &["deploy", "query_db"],
        &[],
        "query_db",
    );
    check(
        "Always cc me when you email a client.",
        &["stripe_invoice", "gmail_send"],
        &[],
        "gmail_send",
    );
    check(
        "Never send WhatsApp voice notes.",
        &["send_email", "whatsapp_send"],
        &[],
        "whatsapp_send",
    );
    check(
        "Please post in Slack only once a day.",
        &["slack_read_channel", "slack_post"],
        &[],
        "slack_post",
    );
    check(
        "Never rsync my home folder.",
        &["list_dir", "bash"],
        &[],
        "bash",
    );
    check(
        "Never google my name",
        &[],
        &["browser_open"],
        "browser_open",
    );
}

#[test]
fn falls_back_to_the_first_tool_then_unscoped() {
    check(
        "Never do that automatically.",
        &["calendar", "bash"],
        &[],
        "calendar",
    );
    check("Never do that.", &[], &[], UNSCOPED_TOOL);
    check("Never do that.", &[], &["bash"], UNSCOPED_TOOL);
    check("Never do that.", &["  ", "Bash"], &[], "bash");
}

#[test]
fn whole_words_only() {
    assert_eq!(find_word("ping the admin", "dm", ALIAS_SUFFIXES), None);
    assert_eq!(find_word("my mailbox", "mail", ALIAS_SUFFIXES), None);
    assert_eq!(find_word("stop emailing", "email", ALIAS_SUFFIXES), Some(5));
    assert_eq!(
        find_word("auto_send_email", "send_email", NAME_SUFFIXES),
        None
    );
    assert_eq!(find_word("dm's", "dm", ALIAS_SUFFIXES), Some(0));
}
