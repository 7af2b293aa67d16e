//! Unit tests of tool attribution: which tool an edict lands on, and that the alias index
//! reads the table as a scan would.

use super::alias::Haystack;
use super::clause::ban_after_permission;
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
        assert_eq!(
            alias_mentions(&Haystack::new(form)).to_vec(),
            scan(form),
            "{form:?}"
        );
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
    // After a part with no marker of its own (an instruction, a fact), the ban decides too.
    check_rule(
        "Read the docs, but never restart the workers.",
        None,
        CLAUDE,
        "bash",
    );
    check_rule(
        "Config lives in `config/` and you must not read `config/secret.key`.",
        None,
        CLAUDE,
        "read",
    );
    check_rule(
        "Read `CHANGELOG.md` for context; never create a second changelog file.",
        None,
        CLAUDE,
        "write",
    );
    // A part that is an order of its own keeps the earliest evidence.
    check_rule(
        "Always read the docs, but never restart the workers.",
        None,
        CLAUDE,
        "read",
    );
}

#[test]
fn the_order_after_a_condition_decides() {
    check_rule(
        "When you change anything under `crates/core`, always run `cargo test -p core`.",
        None,
        CLAUDE,
        "bash",
    );
    check_rule(
        "After editing any `.proto` file, always run `buf generate`.",
        None,
        CODEX,
        "shell",
    );
    // A clause with no evidence of its own leaves the whole sentence to decide.
    check_rule(
        "Before editing `schema.prisma`, ask me.",
        None,
        CLAUDE,
        "edit",
    );
}

#[test]
fn interaction_tools_take_a_rule_only_by_name() {
    let claude = &[
        "Bash",
        "Edit",
        "Write",
        "Read",
        "Agent",
        "Task",
        "TodoWrite",
        "AskUserQuestion",
        "ExitPlanMode",
    ];
    check_rule(
        "Ask me before running `rails db:migrate`.",
        None,
        claude,
        "bash",
    );
    check_rule(
        "Never create new docs files unless I ask.",
        None,
        claude,
        "write",
    );
    check_rule(
        "Don't touch the `payments` namespace, agents alike.",
        None,
        claude,
        "bash",
    );
    check_rule(
        "Don't use `AskUserQuestion` for yes/no questions.",
        None,
        claude,
        "askuserquestion",
    );
    check_rule(
        "Only use the Agent tool for searches.",
        None,
        claude,
        "agent",
    );
    let cline = &[
        "execute_command",
        "replace_in_file",
        "ask_followup_question",
        "attempt_completion",
    ];
    check_rule(
        "Never install a package without asking first.",
        None,
        cline,
        "execute_command",
    );
    check_rule(
        "Don't call attempt_completion before the tests pass.",
        None,
        cline,
        "attempt_completion",
    );
    // An MCP tool about tasks does real work.
    check_rule(
        "Never create tasks in Asana without asking.",
        None,
        &["Bash", "AskUserQuestion", "mcp__asana__create_task"],
        "mcp__asana__create_task",
    );
}

#[test]
fn a_command_is_the_shells_whatever_the_verb() {
    for rule in [
        "Don't update lockfiles with `yarn install --force`.",
        "Never change git config (`git config --global`).",
        "Don't modify the registry (`reg add`, `Set-ItemProperty`).",
        "Never change the execution policy (`Set-ExecutionPolicy`).",
        "Never overwrite the bucket with `aws s3 sync --delete`.",
        "Don't change permissions with `./scripts/fix-perms.sh`.",
    ] {
        check_rule(rule, None, CLAUDE, "bash");
    }
    // A file or a path keeps the edit tool.
    check_rule(
        "Never edit `package.json` by hand; use `npm pkg set`.",
        None,
        CLAUDE,
        "edit",
    );
    check_rule("Don't edit `./scripts/deploy.sh`.", None, CLAUDE, "edit");
    check_rule("Never modify `V*__*.sql` migrations.", None, CLAUDE, "edit");
}

#[test]
fn powershell_takes_windows_commands_and_bash_the_rest() {
    let windows = &["Bash", "PowerShell", "Edit", "Write", "Read"];
    for rule in [
        "Never run `Remove-Item -Recurse -Force` outside the repo.",
        "Don't use `Stop-Process` on processes you didn't start.",
        "Do not install anything with `winget` or `choco`.",
        "Never run `.\\setup.ps1` as admin.",
        "Don't kill anything with `taskkill /F`.",
        "Never run scripts from `C:\\Users\\me\\Downloads`.",
        "Never run `reg delete` on anything.",
    ] {
        check_rule(rule, None, windows, "powershell");
    }
    check_rule("Never run `rm -rf` in WSL.", None, windows, "bash");
    check_rule("Don't `git push --force`.", None, windows, "bash");
    // Without PowerShell, Windows commands are the shell's too.
    check_rule("Never run `Remove-Item -Recurse`.", None, CLAUDE, "bash");
}

#[test]
fn a_name_word_inside_a_command_does_not_name_a_tool() {
    let windsurf = &[
        "run_command",
        "edit_file",
        "view_file",
        "deploy_web_app",
        "search_web",
    ];
    check_rule(
        "Do not run `vercel deploy --prod`.",
        None,
        windsurf,
        "run_command",
    );
    check_rule(
        "Don't run `npm search` to pick packages.",
        None,
        windsurf,
        "run_command",
    );
    check_rule(
        "Never deploy the web app on Fridays.",
        None,
        windsurf,
        "deploy_web_app",
    );
    // A tool named after the command's program takes it.
    check_rule(
        "Never run `git push --force`.",
        None,
        &["bash", "git"],
        "git",
    );
}

#[test]
fn mail_verbs_go_to_the_tool_that_sends() {
    let gmail = &[
        "mcp__gmail__read_email",
        "mcp__gmail__search_emails",
        "mcp__gmail__draft_email",
        "mcp__gmail__send_email",
    ];
    for rule in [
        "Never email anyone at @competitor.io.",
        "Don't cc my manager on anything.",
        "Don't reply to recruiters.",
        "Do not send mail to external domains.",
    ] {
        check_rule(rule, None, gmail, "mcp__gmail__send_email");
    }
    check_rule(
        "Never read emails from the bank.",
        None,
        gmail,
        "mcp__gmail__read_email",
    );
    check_rule(
        "Don't draft emails in French.",
        None,
        gmail,
        "mcp__gmail__draft_email",
    );
    // What stays allowed after the ban does not decide (round 13, U3); a mail domain is e-mail.
    let mail = &["send_email", "create_draft", "search_emails", "read_email"];
    for rule in [
        "never email anyone at @board.example, drafts only",
        "Never message anyone at @board.example, only drafts.",
        "Don't write to anyone at @press.example; a draft is fine.",
        "Never contact anyone at @rival.example.",
    ] {
        check_rule(rule, None, mail, "send_email");
    }
    check_rule(
        "Never email the board, drafts only",
        None,
        gmail,
        "mcp__gmail__send_email",
    );
    // A handle is no mail domain, and a ban that names no tool still reads the whole rule.
    check_rule("Never message @priya.", None, mail, "__unscoped__");
    // Scheduled jobs run behind the shell, or through a scheduler's own tool (round 13, U3).
    let claude = &["Bash", "Read", "Edit", "Write", "WebFetch"];
    for rule in [
        "Cron jobs in production are not to be paused.",
        "Systemd timers on the build host are not to be disabled.",
        "Never restart the workers during business hours.",
    ] {
        check_rule(rule, None, claude, "bash");
    }
    check_rule("Never edit `src/worker.py`.", None, claude, "edit");
    check_rule(
        "Cron jobs in production are not to be paused.",
        None,
        &[
            "scheduler_list_jobs",
            "scheduler_pause_job",
            "scheduler_delete_job",
        ],
        "scheduler_pause_job",
    );
    check_rule(
        "Never save anything, drafts only",
        None,
        mail,
        "create_draft",
    );
}

#[test]
fn a_fetch_goes_to_the_fetch_tool_and_a_file_opened_to_the_read_tool() {
    let cline = &[
        "execute_command",
        "read_file",
        "replace_in_file",
        "browser_action",
        "web_fetch",
    ];
    check_rule(
        "Only fetch URLs from docs.python.org.",
        None,
        cline,
        "web_fetch",
    );
    check_rule("Never open `src/keys/`.", None, cline, "read_file");
    check_rule(
        "Please don't open any `.pem` files.",
        None,
        cline,
        "read_file",
    );
    check_rule(
        "Do not open PRs against `release/*`.",
        None,
        cline,
        "execute_command",
    );
}

#[test]
fn deleting_files_without_a_delete_tool_is_the_shells() {
    check_rule("**NEVER delete files.**", None, CLAUDE, "bash");
    let cursor = &["run_terminal_cmd", "edit_file", "delete_file"];
    check_rule("**NEVER delete files.**", None, cursor, "delete_file");
}

#[test]
fn mcp_servers_go_to_the_gateway() {
    let cline = &[
        "execute_command",
        "read_file",
        "write_to_file",
        "use_mcp_tool",
    ];
    for rule in [
        "Never write to the Supabase MCP server's production project.",
        "Don't use the calendar server to create events on weekends.",
        "Never call `apply_migration` without asking.",
    ] {
        check_rule(rule, None, cline, "use_mcp_tool");
    }
    check_rule(
        "Never restart the dev server.",
        None,
        cline,
        "execute_command",
    );
    check_rule("Never call `npm publish`.", None, cline, "execute_command");
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
                for phrase in &tool.forms {
                    if VERB_TOOL_NAMES.contains(&phrase.as_str()) {
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
            let mut by_word: Option<(NameWordKey, &str, bool)> = None;
            for tool in &candidates.tools {
                // An agent's own tool of a family or of interaction is found by its family
                // or its exact name, not by what users call an app's action.
                let gets_synonyms = tool.family.is_none()
                    && (tool.name.starts_with("mcp__")
                        || !(INTERACTION_NAMES.contains(&tool.name.as_str())
                            || tool
                                .tokens
                                .iter()
                                .any(|token| NAME_LISTS.interaction.contains(token))));
                let words_in = tool
                    .tokens
                    .iter()
                    .filter(|token| !super::lexicon::NAME_FUNCTION_WORDS.contains(&token.as_str()))
                    .filter(|token| haystack.find_name_word(token).is_some())
                    .count()
                    + super::lexicon::NAME_WORD_SYNONYMS
                        .iter()
                        .filter(|_| gets_synonyms)
                        .filter(|(word, _, _)| tool.tokens.iter().any(|token| token == word))
                        .flat_map(|(_, _, phrases)| phrases.iter())
                        .filter(|phrase| haystack.find(phrase, ALIAS_SUFFIXES).is_some())
                        .count();
                assert_eq!(tool.words_in(&hits), words_in, "{form:?} {}", tool.name);
                let own = tool
                    .name
                    .strip_prefix("mcp__")
                    .and_then(|rest| rest.split_once("__"));
                let by_server = own.is_some_and(|(_, own)| {
                    let words = split_words(own, false);
                    let pull_request = words.iter().any(|word| word == "pull")
                        && words.iter().any(|word| word == "request");
                    !words
                        .iter()
                        .any(|word| haystack.find(word, ALIAS_SUFFIXES).is_some())
                        && (!pull_request || haystack.find("pr", ALIAS_SUFFIXES).is_none())
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
                    .filter_map(|token| {
                        haystack
                            .find_name_word(token)
                            .map(|at| (at, tool.verb() == Some(token.as_str())))
                    })
                    .min();
                // What users say for the tool's name words, searched one by one.
                // A phrase an earlier name word of the table also lists is a fallback.
                let said: Vec<(usize, bool, bool, bool)> = super::lexicon::NAME_WORD_SYNONYMS
                    .iter()
                    .enumerate()
                    .filter(|_| gets_synonyms)
                    .filter(|(_, (word, _, _))| tool.tokens.iter().any(|token| token == word))
                    .flat_map(|(index, (_, kind, phrases))| {
                        phrases.iter().map(move |phrase| (index, kind, phrase))
                    })
                    .filter_map(|(index, kind, phrase)| {
                        haystack.find(phrase, ALIAS_SUFFIXES).map(|at| {
                            (
                                at,
                                *kind == super::lexicon::NameWordKind::Action,
                                phrase.contains(' '),
                                super::lexicon::NAME_WORD_SYNONYMS[..index]
                                    .iter()
                                    .any(|(_, _, earlier)| earlier.contains(phrase)),
                            )
                        })
                    })
                    .collect();
                let accompanied = said.iter().any(|(_, _, phrase, _)| *phrase)
                    || said.len() > 1
                    || tool
                        .tokens
                        .iter()
                        .any(|token| haystack.find_name_word(token).is_some());
                let synonym = said
                    .iter()
                    .map(|&(at, action, _, fallback)| (at, action, fallback))
                    .min_by_key(|&(at, _, _)| at)
                    .filter(|_| accompanied);
                let earliest = earliest.map(|(at, verb)| (at, verb, false));
                let earliest = match synonym {
                    Some(synonym) if earliest.is_none_or(|(at, _, _)| synonym.0 < at) => {
                        Some(synonym)
                    }
                    _ => earliest,
                };
                if let Some((at, verb, fallback)) = earliest {
                    let sender = candidates.senders && sends_mail(&haystack) && tool.sends;
                    let key = (at, Reverse(words_in), fallback, !sender);
                    if by_word.is_none_or(|(best, _, _)| key < best) {
                        by_word = Some((key, &tool.name, verb));
                    }
                }
            }
            let found = candidates.by_name_word(&haystack, &hits).map(|hit| {
                (
                    hit.position,
                    Reverse(hit.words),
                    hit.tool.name.as_str(),
                    hit.verb,
                )
            });
            let expected = by_word.map(|((at, words, _, _), name, verb)| (at, words, name, verb));
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

#[test]
fn a_hash_name_outside_code_is_a_chat_channel() {
    for text in ["Don't post in #general.", "never ping #ops-alerts at night"] {
        assert!(names_a_channel(text), "{text}");
    }
    for text in [
        "# Rules",
        "Fix #123 first.",
        "Never change `#main` in the CSS.",
        "Use color#fff.",
    ] {
        assert!(!names_a_channel(text), "{text}");
    }
}

#[test]
fn an_mcp_action_is_picked_by_its_verb() {
    let mail = [
        "mcp__gmail__send_email",
        "mcp__gmail__read_email",
        "mcp__gmail__delete_email",
    ];
    check(
        "never forward emails from legal",
        &[],
        &mail,
        "mcp__gmail__send_email",
    );
    check(
        "never trash messages from the bank",
        &[],
        &mail,
        "mcp__gmail__delete_email",
    );
    let calendar = [
        "mcp__calendar__list_events",
        "mcp__calendar__create_event",
        "mcp__calendar__update_event",
        "mcp__calendar__delete_event",
    ];
    check(
        "never move my friday meetings",
        &[],
        &calendar,
        "mcp__calendar__update_event",
    );
    check(
        "don't shift the standup",
        &[],
        &calendar,
        "mcp__calendar__update_event",
    );
    check(
        "never cancel a meeting",
        &[],
        &calendar,
        "mcp__calendar__delete_event",
    );
    // "move" is a transition first, an update when the server has no transition tool.
    let jira = ["mcp__jira__update_issue", "mcp__jira__transition_issue"];
    check(
        "never move an issue to done",
        &[],
        &jira,
        "mcp__jira__transition_issue",
    );
    check(
        "never move an issue to done",
        &[],
        &jira[..1],
        "mcp__jira__update_issue",
    );
}

#[test]
fn mail_words_do_not_send_a_rule_to_a_chat_server() {
    let both = [
        "mcp__slack__post_message",
        "mcp__gmail__send_email",
        "mcp__gmail__delete_email",
    ];
    check(
        "never trash mail from the bank",
        &[],
        &both,
        "mcp__gmail__delete_email",
    );
    check(
        "never forward emails from legal",
        &[],
        &both,
        "mcp__gmail__send_email",
    );
}

#[test]
fn a_bare_word_banned_after_a_program_is_its_subcommand() {
    let claude = ["Bash", "Read", "Edit", "Write"];
    check_rule(
        "`kubectl` is fine with `get` and `describe`; never `delete`.",
        None,
        &claude,
        "bash",
    );
    // A ban on a file after a command stays the file's.
    check_rule(
        "You may run `make test`, but never edit `Cargo.lock`.",
        None,
        &claude,
        "edit",
    );
}

#[test]
fn mcp_tools_by_the_action_a_rule_forbids_or_gates() {
    let support = &[
        "Bash",
        "Edit",
        "mcp__zendesk__get_ticket",
        "mcp__zendesk__update_ticket",
        "mcp__zendesk__search_tickets",
        "mcp__github__create_issue",
        "mcp__salesforce__query_records",
        "mcp__salesforce__update_record",
        "mcp__salesforce__create_record",
        "mcp__jira__create_issue",
        "mcp__jira__transition_issue",
        "mcp__calendar__list_events",
        "mcp__calendar__create_event",
    ];
    for (rule, tool) in [
        (
            "Zendesk tickets: never set one to `closed`.",
            "mcp__zendesk__update_ticket",
        ),
        (
            "Salesforce is read-only for you.",
            "mcp__salesforce__update_record",
        ),
        (
            "Check with me before moving an issue to Done.",
            "mcp__jira__transition_issue",
        ),
        (
            "You may read Zendesk tickets, but never close them.",
            "mcp__zendesk__update_ticket",
        ),
    ] {
        check_rule(rule, None, support, tool);
    }
    let cline = &[
        "execute_command",
        "read_file",
        "write_to_file",
        "use_mcp_tool",
    ];
    for rule in [
        "Never email customers on a Sunday.",
        "Don't accept calendar invites on my behalf.",
        "Never close a ticket without a reply.",
    ] {
        check_rule(rule, None, cline, "use_mcp_tool");
    }
    // A family claims a rule about mail in code before the gateway does.
    check_rule(
        "Don't hardcode email addresses in `config.py`.",
        None,
        cline,
        "write_to_file",
    );
}

/// An edit verb whose object is a file that is also a thing behind the shell (a migration, a
/// lockfile, generated stubs) edits that file, whatever command the sentence also names.
#[test]
fn an_edit_of_a_file_that_names_a_shell_thing_is_an_edit() {
    let cursor = &["run_terminal_cmd", "edit_file", "delete_file", "read_file"];
    let gemini = &["read_file", "write_file", "replace", "run_shell_command"];
    check_rule(
        "| Migrations | Never edit a merged migration |",
        None,
        cursor,
        "edit_file",
    );
    check_rule(
        "Never change an applied migration in `db/migrate/`; add a new one with `bin/rails g migration`.",
        None,
        cursor,
        "edit_file",
    );
    check_rule(
        "Never modify the generated cluster client in `gen/`.",
        None,
        gemini,
        "replace",
    );
    check_rule(
        "| Scripts | Don't modify them, add new ones |",
        None,
        cursor,
        "edit_file",
    );
    // A thing behind the shell that is no file stays the shell's.
    check_rule(
        "Never change the staging cluster.",
        None,
        cursor,
        "run_terminal_cmd",
    );
    check_rule(
        "| Migrations | Never run them by hand |",
        None,
        cursor,
        "run_terminal_cmd",
    );
}

/// Deleting, in any of its words or languages, goes to a delete tool, and to the shell when
/// the agent has none.
#[test]
fn deletion_in_any_form_without_a_delete_tool_is_the_shells() {
    let windsurf = &["run_command", "view_file", "write_to_file", "edit_file"];
    let cursor = &["run_terminal_cmd", "edit_file", "delete_file", "read_file"];
    for rule in [
        "If deletion seems necessary, stop and ask first.",
        "Any removal of files needs my OK.",
        "nunca borres archivos sin preguntar.",
        "no elimines archivos del repo.",
        "ne supprime jamais de fichiers sans me demander.",
        "Lösche niemals Dateien ohne Rückfrage.",
    ] {
        check_rule(rule, None, windsurf, "run_command");
    }
    check_rule(
        "nunca borres archivos sin preguntar.",
        None,
        cursor,
        "delete_file",
    );
    check_rule(
        "Never modify files under `vendor/`.",
        None,
        windsurf,
        "edit_file",
    );
}

/// The verb of an MCP catalogue's action decides among its tools: cancelling deletes,
/// closing a PR updates it, and an action only one MCP tool does is that tool's.
#[test]
fn the_action_verb_picks_the_mcp_tool() {
    let github = &[
        "Bash",
        "Edit",
        "mcp__github__create_pull_request",
        "mcp__github__update_pull_request",
        "mcp__github__merge_pull_request",
        "mcp__github__issue_write",
        "mcp__github__add_issue_comment",
    ];
    let calendar = &[
        "Bash",
        "Edit",
        "mcp__calendar__list_events",
        "mcp__calendar__update_event",
        "mcp__calendar__respond_to_event",
        "mcp__calendar__delete_event",
    ];
    check_rule(
        "Don't close PRs that other people opened.",
        None,
        github,
        "mcp__github__update_pull_request",
    );
    check_rule(
        "Never cancel the board review.",
        None,
        calendar,
        "mcp__calendar__delete_event",
    );
    // Two tools that delete: the verb alone does not choose.
    let both = &[
        "Bash",
        "Edit",
        "mcp__calendar__delete_event",
        "mcp__gmail__delete_email",
    ];
    check_rule("Never cancel the board review.", None, both, "__unscoped__");
    // A verb of the agent's own families stays with them.
    check_rule(
        "Never delete the fixtures in `tests/`.",
        None,
        calendar,
        "bash",
    );
}

/// A later order of a sentence ends at a dash: what follows grants or explains.
#[test]
fn a_later_order_ends_at_a_dash() {
    let github = &[
        "Bash",
        "mcp__github__merge_pull_request",
        "mcp__github__issue_write",
        "mcp__github__add_issue_comment",
    ];
    let turn = TurnRecord {
        available_tools: github.iter().map(|name| (*name).to_owned()).collect(),
        ..TurnRecord::default()
    };
    let text = "Don't merge PRs and don't close issues — commenting is fine.";
    let (first, more) = Candidates::of_turn(&turn).attribute_rule_tools(
        text,
        &match_form(text),
        true,
        None,
        &Context::default(),
    );
    assert_eq!(first, "mcp__github__merge_pull_request");
    assert_eq!(more, ["mcp__github__issue_write"]);
}

/// The tools of each part of `text`, as capture proposes them.
fn rule_tools(text: &str, catalogue: &[&str]) -> (String, Vec<String>) {
    let turn = TurnRecord {
        available_tools: catalogue.iter().map(|name| (*name).to_owned()).collect(),
        ..TurnRecord::default()
    };
    Candidates::of_turn(&turn).attribute_rule_tools(
        text,
        &match_form(text),
        true,
        None,
        &Context::default(),
    )
}

/// A tool called by its name and "tool" is named, even a verb name; an alternative that
/// spells its tool after a part that spells none is a second rule, on that tool.
#[test]
fn a_tool_named_as_the_means_takes_its_part() {
    let with_task = &["Bash", "Edit", "MultiEdit", "Task"];
    assert_eq!(
        rule_tools("Do renames with the MultiEdit tool.", with_task).0,
        "multiedit"
    );
    // The verb alone says the shell; the tool it is to go through says otherwise.
    assert_eq!(
        rule_tools("Run long test suites through the Task tool.", with_task).0,
        "task"
    );
    // "tools" and "toolchain" call nothing a tool by name.
    assert_eq!(
        rule_tools("Never run the Task toolchain script `x.sh`.", with_task).0,
        "bash"
    );
    assert_eq!(
        rule_tools(
            "Quit using `perl -pi -e` for edits, use apply_patch.",
            CODEX
        ),
        ("shell".to_owned(), vec!["apply_patch".to_owned()])
    );
    assert_eq!(
        rule_tools(
            "Never move files between repos; make each change with the Edit tool.",
            CLAUDE
        ),
        ("bash".to_owned(), vec!["edit".to_owned()])
    );
    // A choice between two tools is about the one it forbids.
    assert_eq!(
        rule_tools("Never use `Write` on an existing file; use `Edit`.", CLAUDE),
        ("write".to_owned(), vec![])
    );
    // An alternative that names no tool adds none.
    assert_eq!(
        rule_tools("Stop using `sed -i`, use a proper patch.", CODEX).1,
        Vec::<String>::new()
    );
}

#[test]
fn an_alternative_may_open_with_a_character_beyond_ascii() {
    // The part after a comma is sliced only on a character boundary.
    assert_eq!(alternative_at("never x, 𑦠 My rules", false), None);
    assert_eq!(alternative_at("never x, use y", false), Some(9));
}

/// Round 12 (C4): a coding agent with no tool to read files reads them with its shell; one
/// with a read tool keeps it.
#[test]
fn a_read_without_a_read_tool_goes_to_the_shell() {
    check_rule("Agents must not read `secrets/`.", None, CODEX, "shell");
    check_rule("Never read `secrets/`.", None, CODEX, "shell");
    check_rule(
        "Never read `secrets/`.",
        None,
        &["Bash", "Read", "Edit", "Write"],
        "read",
    );
}

#[test]
fn a_services_thing_named_without_a_verb_goes_to_the_tool_that_sends_or_posts() {
    assert!(ALIAS_GROUPS[CHAT_GROUP].strong.contains(&"slack"));
    // Round 14, V1: a chat channel or DM named alone guards what reaches others.
    let slack = &[
        "Bash",
        "mcp__slack__list_channels",
        "mcp__slack__post_message",
        "mcp__slack__add_reaction",
        "mcp__slack__read_channel",
    ];
    check_rule(
        "nothing in #sales or #all-hands",
        None,
        slack,
        "mcp__slack__post_message",
    );
    check_rule(
        "DMs to Marta (U07QX2) need my OK first.",
        None,
        slack,
        "mcp__slack__post_message",
    );
    // A verb of a tool's name still decides.
    check_rule(
        "Don't read #hr-private.",
        None,
        slack,
        "mcp__slack__read_channel",
    );
    // "replies" is a reply: the tool that sends.
    let gmail = &[
        "mcp__gmail__read_email",
        "mcp__gmail__draft_email",
        "mcp__gmail__send_email",
    ];
    check_rule(
        "Replies to anyone at Halvorsen Logistics need my OK first.",
        None,
        gmail,
        "mcp__gmail__send_email",
    );
}

#[test]
fn an_order_on_what_a_when_lead_in_made_is_about_the_lead_ins_tool() {
    let linear = &[
        "Bash",
        "Edit",
        "mcp__linear__create_issue",
        "mcp__linear__update_issue",
        "mcp__linear__add_comment",
    ];
    check_rule(
        "When you create Linear issues, assign them to Platform, not to Mobile.",
        None,
        linear,
        "mcp__linear__create_issue",
    );
    check_rule(
        "When you file issues, label them `bug` or `docs`, never `security`.",
        None,
        linear,
        "mcp__linear__create_issue",
    );
    // A second action of its own, not on what the lead-in made, decides as before.
    check_rule(
        "When you create Linear issues, always add a comment with the log.",
        None,
        linear,
        "mcp__linear__add_comment",
    );
    check_rule(
        "When you change `src/api.rs`, always run `cargo test`.",
        None,
        linear,
        "bash",
    );
}

#[test]
fn a_program_called_a_cli_is_the_shells_beside_its_vendors_mcp_tools() {
    // Round 14, V2 class 6.
    let stripe = &[
        "Bash",
        "Edit",
        "mcp__stripe__list_customers",
        "mcp__stripe__create_refund",
    ];
    check_rule(
        "The `stripe` CLI is for reading only, so never pass `--live` to it.",
        None,
        stripe,
        "bash",
    );
    check_rule(
        "Never use the Stripe command-line tool for refunds.",
        None,
        stripe,
        "bash",
    );
    check_rule(
        "Never refund anything over $500.",
        None,
        stripe,
        "mcp__stripe__create_refund",
    );
}

#[test]
fn commands_banned_after_by_hand_are_the_shells_without_a_file() {
    // Round 14, V2 class 6: "by hand" edits a file only when the rule names one in code.
    let cursor = &[
        "run_terminal_cmd",
        "edit_file",
        "read_file",
        "mcp__vercel__get_project",
    ];
    check_rule(
        "Production env vars are not touched by hand: no `vercel env rm`, no `vercel remove`.",
        None,
        cursor,
        "run_terminal_cmd",
    );
    check_rule(
        "`go.sum` changes only through `go mod tidy`, never by hand.",
        None,
        cursor,
        "edit_file",
    );
}

#[test]
fn console_calls_and_a_condition_before_a_bare_ask_go_to_the_shell() {
    // Round 14, V2 class 7.
    let claude = &["Bash", "Read", "Edit", "Write", "WebFetch"];
    check_rule(
        "`Sidekiq::Queue.new.clear` and `Order.destroy_all` are never run in a prod console.",
        None,
        claude,
        "bash",
    );
    check_rule(
        "Before `ollama pull llama3:70b`, ask; it downloads 40 GB.",
        None,
        claude,
        "bash",
    );
    // `console.log` is code, no console.
    check_rule(
        "Don't use `console.log` in committed code; use the logger.",
        None,
        claude,
        "edit",
    );
}

#[test]
fn a_file_that_must_not_change_after_a_shell_noun_is_the_edit_tools() {
    // Round 14, V2 class 9.
    let gemini = &["run_shell_command", "read_file", "write_file", "replace"];
    check_rule(
        "A Flyway migration is never modified once applied — `V12__add_index.sql` included.",
        None,
        gemini,
        "replace",
    );
    // A verb of running, a script or a command keeps the shell.
    check_rule(
        "Never run `patch` on files under `vendor/`.",
        None,
        gemini,
        "run_shell_command",
    );
    check_rule(
        "Applied migrations are never changed: `alembic downgrade` on `0003_auto.py` is banned.",
        None,
        gemini,
        "run_shell_command",
    );
}

#[test]
fn a_longer_allowance_tail_leaves_the_ban_its_tool() {
    // Round 14, V2 class 10.
    let gmail = &[
        "mcp__gmail__send_email",
        "mcp__gmail__draft_email",
        "mcp__gmail__read_email",
    ];
    check_rule(
        "never send anything to @lawfirm.example, drafts only for those",
        None,
        gmail,
        "mcp__gmail__send_email",
    );
    check_rule(
        "Don't email anyone at @press.example, drafts only for them.",
        None,
        gmail,
        "mcp__gmail__send_email",
    );
}

#[test]
fn invitations_go_out_with_a_new_event() {
    // Round 14, V1: an invitation is sent by creating the event; accepting one responds.
    let calendar = &[
        "mcp__calendar__list_events",
        "mcp__calendar__create_event",
        "mcp__calendar__respond_to_event",
        "mcp__calendar__delete_event",
    ];
    check_rule(
        "Invitations to external guests need my sign-off.",
        None,
        calendar,
        "mcp__calendar__create_event",
    );
    check_rule(
        "Don't accept invitations from recruiters.",
        None,
        calendar,
        "mcp__calendar__respond_to_event",
    );
}

#[test]
fn a_common_verb_in_the_deciding_clause_picks_among_the_tools_the_rule_names() {
    // Round 14, V2 class 1: "submit" alone names no tool, with "purchase orders" it does.
    let orders = &[
        "list_purchase_orders",
        "draft_purchase_order",
        "submit_purchase_order",
    ];
    check_rule(
        "Purchase orders go through procurement: you draft them, you do not submit.",
        None,
        orders,
        "submit_purchase_order",
    );
    check_rule(
        "Purchase orders go through procurement: you may draft them.",
        None,
        orders,
        "draft_purchase_order",
    );
}

#[test]
fn dropping_a_table_is_sql_through_the_shell_without_a_database_tool() {
    let claude = &["Bash", "Read", "Edit", "Write"];
    check_rule("Never drop a table.", None, claude, "bash");
    check_rule(
        "Dropping a table needs my OK, no exceptions.",
        None,
        claude,
        "bash",
    );
    check_rule("Don't drop the `orders` table.", None, claude, "bash");
    // A table of a page or a document is no SQL.
    check_rule(
        "Never change the table in `README.md`.",
        None,
        claude,
        "edit",
    );
    check_rule(
        "Never drop support for old browsers.",
        None,
        claude,
        "__unscoped__",
    );
}
