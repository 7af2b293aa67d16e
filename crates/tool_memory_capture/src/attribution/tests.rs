//! Unit tests of tool attribution: which tool an edict lands on, and that the alias index
//! reads the table as a scan would.

use super::alias::Haystack;
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
        assert_eq!(alias_mentions(&Haystack::new(form)), scan(form), "{form:?}");
    }
}

/// The match forms of every sentence of the corpora, and a few made to be hard: where the
/// faster searches of attribution are checked against the plain ones.
fn corpus_forms() -> Vec<String> {
    let mut forms: Vec<String> = crate::test_messages::corpus_messages()
        .iter()
        .flat_map(|message| message.lines().map(match_form).collect::<Vec<_>>())
        .collect();
    forms.extend(
        [
            "",
            "émail l'email e-mails _send_email send_emails",
            "never send_email's or mcp__db__run_query!",
            "--force .env @x -x ünïcödé's",
        ]
        .map(str::to_owned),
    );
    forms
}

/// A rule read into its word starts finds every needle where a scan of its bytes does: the
/// catalogue names and name words of every agent, the alias phrases, and needles that open
/// with a mark.
#[test]
fn word_starts_find_what_a_byte_scan_finds() {
    let mut needles: Vec<String> = ["send_email", "send email", "e", "-x", ".env", "@x", "émail"]
        .map(str::to_owned)
        .to_vec();
    for name in [
        "Bash",
        "run_shell_command",
        "WebFetch",
        "mcp__db__run_query",
        "apply_patch",
    ] {
        let candidate = Candidate::new(
            name,
            validate_tool_name(name).unwrap(),
            &mut NameIndex::default(),
        );
        needles.extend(candidate.forms.iter().cloned());
        needles.extend(candidate.tokens.iter().cloned());
    }
    for group in ALIAS_GROUPS {
        needles.extend(
            group
                .strong
                .iter()
                .chain(group.phrases)
                .map(|p| (*p).to_owned()),
        );
    }
    for form in corpus_forms() {
        let haystack = Haystack::new(&form);
        for needle in &needles {
            for suffixes in [NAME_SUFFIXES, ALIAS_SUFFIXES] {
                assert_eq!(
                    haystack.find(needle, suffixes),
                    find_word(&form, needle, suffixes),
                    "{needle:?} in {form:?}"
                );
            }
        }
    }
}

/// The one pass for a permission and a ban after it finds what a search for each phrase
/// finds, on every line of the corpora and on made-up ones.
#[test]
fn the_permission_scan_agrees_with_a_search_per_phrase() {
    use super::lexicon::{BAN_OPENERS, BAN_TURNS, PERMISSIONS};
    use crate::text::is_word_char;
    fn find_phrase(lower: &str, phrase: &str) -> Option<usize> {
        lower.match_indices(phrase).map(|(at, _)| at).find(|&at| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + phrase.len()..].chars().next();
            before.is_none_or(|ch| !is_word_char(ch)) && after.is_none_or(|ch| !is_word_char(ch))
        })
    }
    let searched = |text: &str| -> Option<usize> {
        let lower = text.to_ascii_lowercase();
        let permission_end = PERMISSIONS
            .iter()
            .filter_map(|phrase| find_phrase(&lower, phrase).map(|at| at + phrase.len()))
            .min()?;
        BAN_TURNS
            .iter()
            .filter_map(|turn| {
                let at = permission_end + lower[permission_end..].find(turn)?;
                let after = at + turn.len();
                let rest = lower[after..].trim_start_matches(['*', '_', ' ']);
                BAN_OPENERS
                    .iter()
                    .any(|ban| {
                        rest.strip_prefix(ban).is_some_and(|tail| {
                            tail.chars().next().is_none_or(|ch| !is_word_char(ch))
                        })
                    })
                    .then_some(after)
            })
            .min()
    };
    let mut texts: Vec<String> = crate::test_messages::corpus_messages()
        .iter()
        .flat_map(|message| message.lines().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    texts.extend(
        [
            "You MAY read logs, BUT **Never** restart",
            "Feel free to search — don’t push",
            "is okay; never; is ok, but not",
            "cannot may, but don'tx; can - no",
        ]
        .map(str::to_owned),
    );
    let mut found = 0;
    for text in &texts {
        let expected = searched(text);
        found += usize::from(expected.is_some());
        assert_eq!(ban_after_permission(text), expected, "{text:?}");
    }
    assert!(found > 3, "{found}");
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

/// The rule `text` (after the sentence `previous`, if any), with catalogue `catalogue` and no
/// call yet, lands on `expected` through the whole attribution order.
fn check_rule(text: &str, previous: Option<&str>, catalogue: &[&str], expected: &str) {
    let turn = TurnRecord {
        available_tools: catalogue.iter().map(|name| (*name).to_owned()).collect(),
        ..TurnRecord::default()
    };
    let tool = Candidates::of_turn(&turn).attribute_rule(text, &match_form(text), true, previous);
    assert_eq!(
        tool, expected,
        "{text:?} after {previous:?} with {catalogue:?}"
    );
}

const CLAUDE: &[&str] = &[
    "Bash",
    "Read",
    "Edit",
    "MultiEdit",
    "Write",
    "Grep",
    "WebFetch",
];
const CODEX: &[&str] = &["shell", "apply_patch", "update_plan", "web_search"];

#[test]
fn the_ban_after_a_permission_decides() {
    check_rule(
        "You may view the dashboards, but never restart the workers.",
        None,
        CLAUDE,
        "bash",
    );
    check_rule(
        "Feel free to fetch the docs; don't edit `README.md`.",
        None,
        CLAUDE,
        "edit",
    );
    // Without a permission, the earliest evidence still decides.
    check_rule(
        "Read the docs, but never restart the workers.",
        None,
        CLAUDE,
        "read",
    );
}

#[test]
fn a_pronoun_points_back_at_the_tool_named_before() {
    let catalogue = &["Bash", "mcp__warehouse__run_sql"];
    check_rule(
        "Never pass `DELETE` to it.",
        Some("Use `mcp__warehouse__run_sql` for reports."),
        catalogue,
        "mcp__warehouse__run_sql",
    );
    // A rule that names its own tool keeps it; "it" as a subject points nowhere.
    check_rule(
        "Never run `psql` with it.",
        Some("The report is slow."),
        catalogue,
        "bash",
    );
}

#[test]
fn a_code_span_that_is_a_tool_name_names_the_tool() {
    check_rule(
        "`Read` is fine except under `secrets/`.",
        None,
        CLAUDE,
        "read",
    );
    check_rule("`Write` never touches `config/`.", None, CLAUDE, "write");
    // A word inside a command is part of the command, not the tool of that name.
    check_rule("Use `rg`, never `grep -r`, in Bash.", None, CLAUDE, "bash");
}

#[test]
fn a_name_word_of_a_built_in_tool_yields_to_the_family() {
    check_rule(
        "Never run `patch -p0` in the repo root.",
        None,
        CODEX,
        "shell",
    );
    check_rule(
        "Never patch the vendored crates.",
        None,
        CODEX,
        "apply_patch",
    );
    // An MCP tool's noun after the verb that says what the rule is about.
    check_rule(
        "Never fetch pages linked from a ticket.",
        None,
        &["WebFetch", "mcp__tracker__create_ticket"],
        "webfetch",
    );
    // Its verb is the tool's own, in any inflection ("merging" for `merge`).
    check_rule(
        "Always rebase before merging.",
        None,
        &["Bash", "mcp__forge__merge_pull_request"],
        "mcp__forge__merge_pull_request",
    );
}

#[test]
fn sql_and_releases_go_to_the_shell_without_a_tool_of_their_own() {
    check_rule("Raw SQL on staging needs my OK.", None, CODEX, "shell");
    check_rule("Releases go out on Tuesdays only.", None, CODEX, "shell");
    check_rule("Never re-deploy on a Friday.", None, CODEX, "shell");
}

#[test]
fn a_noun_names_the_family_and_a_later_verb_the_tool() {
    check_rule(
        "| Docs | Never create files under `docs/`. |",
        None,
        CLAUDE,
        "write",
    );
    check_rule("Never overwrite the lockfile.", None, CLAUDE, "write");
}

/// The name index finds, on every line of the corpora and for the catalogues of every agent
/// (and MCP tools), what a search for each name, form and name word finds: the tool named
/// earliest, the tool of the earliest name word with its position and score, each tool's
/// count of name words and whether it was found by its server's name only.
#[test]
fn the_name_index_finds_what_a_search_per_name_finds() {
    let catalogues: [&[&str]; 4] = [
        &[
            "Bash",
            "Read",
            "Edit",
            "MultiEdit",
            "Write",
            "Glob",
            "Grep",
            "WebFetch",
            "WebSearch",
            "TodoWrite",
            "Task",
            "NotebookEdit",
        ],
        &[
            "run_terminal_cmd",
            "edit_file",
            "search_replace",
            "read_file",
            "delete_file",
            "grep_search",
            "web_search",
            "mcp__github__create_pull_request",
            "mcp__github__merge_pull_request",
            "mcp__db__run_query",
            "mcp__issues__create_issue",
        ],
        &[
            "run_shell_command",
            "replace",
            "write_file",
            "read_file",
            "glob",
            "search_file_content",
            "web_fetch",
            "google_web_search",
            "save_memory",
            "send_email",
            "slack_post",
            "slack_read_channel",
            "-x",
            ".env",
            "git_push",
        ],
        &[
            "shell",
            "apply_patch",
            "execute_command",
            "write_to_file",
            "browser_action",
        ],
    ];
    let mut compared = 0;
    for catalogue in catalogues {
        let turn = TurnRecord {
            available_tools: catalogue.iter().map(|name| (*name).to_owned()).collect(),
            ..TurnRecord::default()
        };
        let candidates = Candidates::of_turn(&turn);
        for form in corpus_forms() {
            let haystack = Haystack::new(&form);
            let hits = candidates.hits(&haystack);
            // Each search as it was written before the index.
            let mut named: Option<(usize, Reverse<usize>, &str)> = None;
            for tool in &candidates.tools {
                for (phrase, naming) in tool.forms.iter().zip(&tool.naming) {
                    if !naming {
                        continue;
                    }
                    if let Some(at) = haystack.find(phrase, NAME_SUFFIXES) {
                        let key = (at, Reverse(phrase.len()));
                        if named.is_none_or(|(best, length, _)| key < (best, length)) {
                            named = Some((key.0, key.1, &tool.name));
                        }
                    }
                }
            }
            assert_eq!(
                candidates.named(&hits).as_deref(),
                named.map(|(_, _, name)| name),
                "{form:?}"
            );
            let mut by_word: Option<(usize, Reverse<usize>, &str, &str)> = None;
            for tool in &candidates.tools {
                let words_in = tool
                    .tokens
                    .iter()
                    .filter(|token| haystack.find_name_word(token).is_some())
                    .count();
                assert_eq!(tool.words_in(&hits), words_in, "{form:?} {}", tool.name);
                let own = tool
                    .name
                    .strip_prefix("mcp__")
                    .and_then(|rest| rest.split_once("__"));
                let by_server = own.is_some_and(|(_, own)| {
                    !split_words(own, false)
                        .iter()
                        .any(|word| haystack.find(word, ALIAS_SUFFIXES).is_some())
                });
                assert_eq!(
                    only_by_server(tool, &hits),
                    by_server,
                    "{form:?} {}",
                    tool.name
                );
                let earliest = tool
                    .distinctive
                    .iter()
                    .map(|&token| &tool.tokens[token])
                    .filter_map(|token| haystack.find_name_word(token).map(|at| (at, token)))
                    .min();
                if let Some((at, token)) = earliest {
                    let key = (at, Reverse(words_in));
                    if by_word.is_none_or(|(best, score, _, _)| key < (best, score)) {
                        by_word = Some((key.0, key.1, &tool.name, token));
                    }
                }
            }
            let found = candidates.by_name_word(&hits).map(|hit| {
                (
                    hit.position,
                    Reverse(hit.words),
                    hit.tool.name.as_str(),
                    hit.verb,
                )
            });
            let expected = by_word.map(|(at, words, name, token)| {
                let tool = candidates.tools.iter().find(|tool| tool.name == name);
                let verb = tool.is_some_and(|tool| tool.verb() == Some(token));
                (at, words, name, verb)
            });
            assert_eq!(found, expected, "{form:?}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// The groups that claim a tool, read from one table, are those whose tool names or tool words
/// list its name or one of its name words.
#[test]
fn the_claims_table_agrees_with_each_group() {
    let names = [
        "Bash",
        "run_terminal_cmd",
        "send_email",
        "gmail_send",
        "slack_post",
        "web_fetch",
        "browser_action",
        "mcp__github__create_pull_request",
        "execute_sql",
        "kubectl",
        "run_in_terminal",
        "exec_cmd",
        "write_file",
        "calendar_create_event",
    ];
    let mut claimed = 0;
    for name in names {
        let candidate = Candidate::new(
            name,
            validate_tool_name(name).unwrap(),
            &mut NameIndex::default(),
        );
        for (index, group) in ALIAS_GROUPS.iter().enumerate() {
            let claims = group.tool_names.contains(&candidate.name.as_str())
                || candidate
                    .tokens
                    .iter()
                    .any(|token| group.tool_words.contains(&token.as_str()));
            claimed += usize::from(claims);
            assert_eq!(candidate.claimed(index), claims, "{name} {index}");
        }
    }
    assert!(claimed > 8, "{claimed}");
}

/// A tool's name words read from its ASCII name are core's split of it.
#[test]
fn name_words_are_cores_split() {
    for raw in [
        "Bash",
        "WebSearch",
        "getHTTPResponse",
        "s3Bucket",
        "mcp__db__run_query",
        "send-email.v2",
        "__x__",
        "TodoWrite",
        "ABC",
        "aB1C",
        " Trim_Me ",
        "Überweisung_Ärger",
        "x",
        "",
    ] {
        let Ok(name) = validate_tool_name(raw) else {
            continue;
        };
        assert_eq!(
            words_of_name(&name, &name, false),
            split_words(&name, false),
            "{raw:?}"
        );
        assert_eq!(
            words_of_name(raw.trim(), &name, true),
            split_words(raw.trim(), true),
            "{raw:?}"
        );
    }
}

/// The family of a normal name read from the word map is core's.
#[test]
fn families_are_cores() {
    let mut names: Vec<&str> = ToolFamily::ALL
        .iter()
        .flat_map(|family| family.members().iter().copied())
        .collect();
    names.extend([
        "send_email",
        "bash2",
        "",
        "mcp__x__bash",
        "web_fetch",
        "shell",
        "édit",
    ]);
    for name in names {
        assert_eq!(family_of(name), ToolFamily::of(name), "{name:?}");
    }
}
