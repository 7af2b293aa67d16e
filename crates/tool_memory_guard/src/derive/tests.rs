//! The grammar's examples: rule texts and the constraints derivation gives them.

use super::*;

/// Derives from `text` on `tool` and compares the JSON form (`None` for advice only).
fn check(tool: &str, text: &str, expected: Option<&str>) {
    let derived = derive_from_text(text, tool).map(|constraint| constraint.to_json());
    assert_eq!(derived.as_deref(), expected, "{tool}: {text}");
}

/// [`check`] of a text that forbids one literal: the grammar's most common answer.
fn check_forbids(tool: &str, text: &str, kind: &str, value: &str) {
    let expected =
        format!(r#"{{"matchers":[{{"kind":"{kind}","value":"{value}"}}],"polarity":"forbid"}}"#);
    check(tool, text, Some(&expected));
}

#[test]
fn addresses_and_names() {
    check(
        "send_email",
        "Never email Sarah at sarah@example.com.",
        Some(
            r#"{"matchers":[{"kind":"person","value":"sarah"},{"kind":"email","value":"sarah@example.com"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids("send_email", "never email Sarah", "person", "sarah");
    check(
        "send_email",
        "Don't send anything to Sarah Connor or Tom.",
        Some(
            r#"{"matchers":[{"kind":"person","value":"sarah connor"},{"kind":"person","value":"tom"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "send_email",
        "Never send anything to legal@acme-corp.co.uk without asking me first.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"email","value":"legal@acme-corp.co.uk"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "send_email",
        "never email anyone @competitor.com",
        "domain",
        "competitor.com",
    );
    check("send_email", "don't email my landlord, ever", None);
    check(
        "send_email",
        "Don't reply-all on threads with more than ten people.",
        None,
    );
}

#[test]
fn commands_and_flags() {
    check_forbids(
        "shell",
        "Don't run shell commands with sudo.",
        "command",
        "sudo",
    );
    check_forbids("shell", "never rm -rf", "command", "rm -rf");
    check(
        "bash",
        "Don't ever run git reset --hard without asking me first!",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"git reset --hard"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "shell",
        "never run git push with --force",
        "command",
        "git push --force",
    );
    check(
        "git_push",
        "never force-push to main",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"main"}],"polarity":"forbid","when":[{"kind":"command","value":"git push --force"},{"kind":"command","value":"git push --force-with-lease"}]}"#,
        ),
    );
    check(
        "git_push",
        "never push to main or master",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"main"},{"kind":"literal","value":"master"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
        ),
    );
    check_forbids("shell", "Never use --force", "flag", "--force");
}

#[test]
fn requirements() {
    // A program the grammar does not know, named by its calls; "needs" as a requirement.
    check(
        "Bash",
        "`Rscript` calls must use `--vanilla`.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--vanilla"}],"polarity":"require","when":[{"kind":"command","value":"rscript"}]}"#,
        ),
    );
    check(
        "Bash",
        "Every `az` command needs `--subscription dev`.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--subscription=dev"}],"polarity":"require","when":[{"kind":"command","value":"az"}]}"#,
        ),
    );
    check(
        "shell",
        "always pass --dry-run to terraform",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform"}]}"#,
        ),
    );
    check(
        "shell",
        "always run terraform plan with -lock=true",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"-lock"}],"polarity":"require","when":[{"kind":"command","value":"terraform plan"}]}"#,
        ),
    );
    check(
        "send_email",
        "always cc my manager at boss@corp.com",
        Some(r#"{"matchers":[{"kind":"email","value":"boss@corp.com"}],"polarity":"require"}"#),
    );
    check(
        "shell",
        "never run terraform apply without --dry-run",
        Some(
            r#"{"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform apply"}]}"#,
        ),
    );
    check(
        "terraform",
        "Don't forget --dry-run.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require"}"#,
        ),
    );
    check("shell", "always run the tests before git push", None);
}

#[test]
fn paths_urls_hosts_and_literals() {
    check(
        "write_file",
        "Never write to /etc or ~/.ssh/",
        Some(
            r#"{"access":"write","matchers":[{"kind":"path","value":"/etc"},{"kind":"path","value":"~/.ssh/"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids("read_file", "don't read .env files", "path", ".env");
    check(
        "browser",
        "Never open https://admin.internal.corp/ or anything on facebook.com",
        Some(
            r#"{"matchers":[{"kind":"url","value":"https://admin.internal.corp/"},{"kind":"domain","value":"facebook.com"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "shell",
        "never ssh into prod-db-1",
        Some(
            r#"{"matchers":[{"kind":"host","value":"prod-db-1"}],"polarity":"forbid","when":[{"kind":"command","value":"ssh"}]}"#,
        ),
    );
    check_forbids(
        "send_email",
        "Never mention \"Project Falcon\" in emails",
        "literal",
        "project falcon",
    );
    check_forbids(
        "slack_post",
        "don't post in #general",
        "literal",
        "#general",
    );
    check_forbids(
        "execute_sql",
        "Never run DROP TABLE on anything",
        "literal",
        "drop table",
    );
    check_forbids("shell", "use trash instead of rm", "command", "rm");
    check_forbids("shell", "stop using wget, use curl", "command", "wget");
    check(
        "http_request",
        "always send requests to https://staging.api.corp.com, never production",
        Some(
            r#"{"matchers":[{"kind":"url","value":"https://staging.api.corp.com"}],"polarity":"require"}"#,
        ),
    );
    check(
        "send_payment",
        "Do not send money to paypal.me/scammer",
        Some(
            r#"{"matchers":[{"kind":"url","value":"https://paypal.me/scammer"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "shell",
        "Don't ever kill -9 the postgres process",
        "command",
        "kill -9",
    );
    check_forbids(
        "send_email",
        "Under no circumstances should you email my ex, Jordan.",
        "person",
        "jordan",
    );
    check_forbids(
        "shell",
        "never run npm install with sudo",
        "command",
        "sudo npm install",
    );
    check("browser", "Stop using browser for that.", None);
    check(
        "shell",
        "Tool failed 2 times in one turn (shell: failed (timeout)). Consider an alternative approach before retrying.",
        None,
    );
}

#[test]
fn positive_orders_ask_when_they_spell_the_command_and_keep_to_the_flags_subcommands() {
    check(
        "bash",
        "Always use `pnpm install --frozen-lockfile`.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--frozen-lockfile"}],"polarity":"require","when":[{"kind":"command","value":"pnpm install"}]}"#,
        ),
    );
    check(
        "bash",
        "always pass `--rm` to docker",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--rm"}],"polarity":"require","when":[{"kind":"command","value":"docker run"}]}"#,
        ),
    );
    // A flag the table does not know holds for every subcommand.
    check(
        "bash",
        "always pass --dry-run to terraform",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--dry-run"}],"polarity":"require","when":[{"kind":"command","value":"terraform"}]}"#,
        ),
    );
}

#[test]
fn consent_said_as_a_need_asks() {
    for text in [
        "`DELETE` needs my explicit OK.",
        "`DELETE` only with my approval.",
        "Wait for my go-ahead before any `DELETE`.",
        "`DELETE` requires my sign-off.",
    ] {
        check(
            "mcp__db__run_query",
            text,
            Some(
                r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"delete"}],"polarity":"forbid"}"#,
            ),
        );
    }
}

#[test]
fn exceptions_and_verbs_of_change() {
    check(
        "read",
        "Never read `.env*` files except `.env.example`.",
        Some(
            r#"{"except":[{"kind":"path","value":".env.example"}],"matchers":[{"kind":"path","value":".env*"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Don't push, unless it's to a `feature/*` branch.",
        Some(
            r#"{"except":[{"kind":"path","value":"feature/*"}],"matchers":[{"kind":"command","value":"git push"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Never write to `/etc/**`.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"path","value":"/etc/**"}],"polarity":"forbid"}"#,
        ),
    );
    // A verb of reading beside one of change: the ban is about every access.
    check_forbids("bash", "Never read or write `/etc/**`.", "path", "/etc/**");
}

#[test]
fn deleting_branches_in_words_is_every_way_git_deletes_one() {
    check(
        "bash",
        "Ask me before deleting any branch (local or remote).",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"git branch --delete"},{"kind":"command","value":"git push --delete"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Never delete local branches.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"git branch --delete"}],"polarity":"forbid"}"#,
        ),
    );
    // A branch the rule names is that branch, not every deletion; and deleting it, not
    // listing it (a ban on one change of a thing named: `access: write`).
    check(
        "git_branch",
        "never delete the release branch",
        Some(
            r#"{"access":"write","matchers":[{"kind":"literal","value":"release"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "send_email",
        "Don't contact sarah@example.com in any way.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"email","value":"sarah@example.com"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn handles_in_a_rule_are_the_person_they_spell() {
    check(
        "slack",
        "Never DM `@TomaszWojcik`.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"@TomaszWojcik"},{"kind":"person","value":"tomasz wojcik"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "send_email",
        "Don't email tomasz.wojcik",
        "person",
        "tomasz wojcik",
    );
    // A group mention or a file is nobody's handle.
    check_forbids("slack", "Never ping `@everyone`.", "literal", "@everyone");
}

#[test]
fn the_safe_spelling_a_rule_points_to_is_excused() {
    check(
        "bash",
        "`cargo publish` is forbidden. Use `cargo publish --dry-run` to check packaging.",
        Some(
            r#"{"except":[{"kind":"command","value":"cargo publish --dry-run"}],"matchers":[{"kind":"command","value":"cargo publish"}],"polarity":"forbid"}"#,
        ),
    );
    // Another flag is another command, not a refinement of the banned one.
    check_forbids(
        "bash",
        "Never `git push --force`. Use `git push --force-with-lease` if you really must.",
        "command",
        "git push --force",
    );
}

#[test]
fn a_script_after_a_verb_of_running_is_a_command() {
    check(
        "bash",
        "Before running `./deploy.sh`, always ask me.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"./deploy.sh"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Never run scripts/seed.sh against prod.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"prod"}],"polarity":"forbid","when":[{"kind":"command","value":"scripts/seed.sh"}]}"#,
        ),
    );
    // Without a verb of running it is a file.
    check(
        "bash",
        "Never edit `scripts/seed.sh`.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"path","value":"scripts/seed.sh"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn a_statement_without_its_clause_is_required_per_statement() {
    check(
        "mcp__db__run_query",
        "Any `UPDATE` or `DELETE` without a `WHERE` needs my explicit OK.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"where"}],"polarity":"require","when":[{"kind":"command","value":"update"},{"kind":"command","value":"delete"}]}"#,
        ),
    );
    check(
        "bash",
        "Never run a DELETE without a WHERE clause.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"where"}],"polarity":"require","when":[{"kind":"command","value":"delete"}]}"#,
        ),
    );
}

#[test]
fn an_exception_that_is_all_a_ban_names_is_an_allowlist() {
    check(
        "send_email",
        "Never email anyone other than boss@corp.example.",
        Some(
            r#"{"except":[{"kind":"email","value":"boss@corp.example"}],"matchers":[{"kind":"command","value":"send email"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn sentences_that_give_different_orders_are_parts_of_their_own() {
    // The ask is about deleting branches in general; the ban on `-D` stays a ban.
    check(
        "shell",
        "Never `git branch -D`. Ask before deleting branches.",
        Some(
            r#"{"also":[{"ask_first":true,"matchers":[{"kind":"command","value":"git branch --delete"},{"kind":"command","value":"git push --delete"}],"polarity":"forbid"}],"matchers":[{"kind":"command","value":"git branch -D"}],"polarity":"forbid"}"#,
        ),
    );
    // An ask that names nothing of its own is about the ban before it.
    check(
        "shell",
        "Never force-push. If you must, ask first.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"git push --force"},{"kind":"command","value":"git push --force-with-lease"}],"polarity":"forbid"}"#,
        ),
    );
    // Sentences of one kind are read as one rule, as before.
    check(
        "shell",
        "Never run `yarn`. Never run `npm install`.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"yarn"},{"kind":"command","value":"npm install"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn short_flags_keep_their_case() {
    check_forbids(
        "shell",
        "Never run `git branch -D`.",
        "command",
        "git branch -D",
    );
    check_forbids(
        "shell",
        "Never run `git branch -d`.",
        "command",
        "git branch -d",
    );
    // Written in capitals throughout, the case says nothing: the lower-case flag, which a
    // `-D` also sets, is the safe reading.
    check_forbids(
        "shell",
        "NEVER RUN `GIT BRANCH -D`.",
        "command",
        "git branch -d",
    );
    check_forbids("shell", "Never pass --Force.", "flag", "--force");
}

#[test]
fn allowlists_of_recipients_forbid_everyone_else() {
    let allowlist = |tool: &str, text: &str, except: &str, command: &str| {
        check(
            tool,
            text,
            Some(&format!(
                r#"{{"except":[{except}],"matchers":[{{"kind":"command","value":"{command}"}}],"polarity":"forbid"}}"#
            )),
        );
    };
    allowlist(
        "send_email",
        "Never email anyone but Priya.",
        r#"{"kind":"person","value":"priya"}"#,
        "send email",
    );
    allowlist(
        "send_email",
        "Only message people on the @acme.com domain.",
        r#"{"kind":"domain","value":"acme.com"}"#,
        "send email",
    );
    // The exception is who may be reached, never who is forbidden.
    allowlist(
        "send_email",
        "Don't send mail to anyone except priya@acme.com and Tom.",
        r#"{"kind":"email","value":"priya@acme.com"},{"kind":"person","value":"tom"}"#,
        "send email",
    );
    allowlist(
        "send_email",
        "Do not email anyone outside acme.com.",
        r#"{"kind":"domain","value":"acme.com"}"#,
        "send email",
    );
    allowlist(
        "mcp__slack__post_message",
        "Only DM Priya or Tom.",
        r#"{"kind":"person","value":"priya"},{"kind":"person","value":"tom"}"#,
        "post message",
    );
    allowlist(
        "mcp__gmail__send_email",
        "Only ever email priya@acme.com — nobody else.",
        r#"{"kind":"email","value":"priya@acme.com"}"#,
        "send email",
    );
    allowlist(
        "send_email",
        "Email nobody except Priya Shah.",
        r#"{"kind":"person","value":"priya shah"}"#,
        "send email",
    );
    // A condition is not a list of who may be reached; a tool of a family has no recipients.
    check("send_email", "Only email Priya when the build fails.", None);
    // "Only use pnpm" is no allowlist of people: the other package managers are forbidden.
    check(
        "Bash",
        "Only use pnpm.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"bun add"},{"kind":"command","value":"bun install"},{"kind":"command","value":"bun remove"},{"kind":"command","value":"bun update"},{"kind":"command","value":"bunx"},{"kind":"command","value":"npm ci"},{"kind":"command","value":"npm install"},{"kind":"command","value":"npm uninstall"},{"kind":"command","value":"npm update"},{"kind":"command","value":"npx"},{"kind":"command","value":"yarn"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn conditions_on_the_situation_are_part_of_when() {
    check(
        "stripe_refund",
        "Never refund more than $500 without asking",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"stripe refund"}],"polarity":"forbid","when":[{"kind":"condition","value":"amount over 500"}]}"#,
        ),
    );
    check(
        "create_event",
        "Don't schedule anything with Priya on Fridays",
        Some(
            r#"{"matchers":[{"kind":"person","value":"priya"}],"polarity":"forbid","when":[{"kind":"condition","value":"on friday"}]}"#,
        ),
    );
    // Until an event the rule holds now, and the event's words are no literal: "release" is
    // not forbidden.
    check(
        "Bash",
        "Never push to main before the release is cut.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"main"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
        ),
    );
    check_forbids(
        "bash",
        "Never run sudo until the migration is done.",
        "command",
        "sudo",
    );
    // A verb too general to name an operation stays advice.
    check("Bash", "Never run migrations during business hours.", None);
}

#[test]
fn classes_of_the_fresh_real_text() {
    // Crosses and checks before list items: a ban and a permission.
    check_forbids(
        "bash",
        "## Git\n- ❌ `git push --force` (any branch)\n- ✅ `git push -u origin <feature-branch>`",
        "command",
        "git push --force",
    );
    // A heading of "Hard NOs" over a fence of commands, their comments dropped.
    check(
        "bash",
        "### Hard NOs\n```bash\nnpm publish        # releases go through CI\ncargo publish\n```",
        Some(
            r#"{"matchers":[{"kind":"command","value":"npm publish"},{"kind":"command","value":"cargo publish"}],"polarity":"forbid"}"#,
        ),
    );
    // Consent said as "a yes from me".
    check(
        "bash",
        "`kubectl delete` needs a yes from me every single time.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"kubectl delete"}],"polarity":"forbid"}"#,
        ),
    );
    // "in there" points back; a backticked word in a list with a command is a command.
    check(
        "bash",
        "Feel free to read any log under /var/log, but never `truncate` or `rm` anything in there.",
        Some(
            r#"{"matchers":[{"kind":"path","value":"/var/log"}],"polarity":"forbid","when":[{"kind":"command","value":"truncate"},{"kind":"command","value":"rm"}]}"#,
        ),
    );
    // The tool's own full name; a read-only database; a flag and its value.
    check(
        "mcp__github__merge_pull_request",
        "Rule: `mcp__github__merge_pull_request` is off limits for you.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"merge pull request"}],"polarity":"forbid"}"#,
        ),
    );
    // The way to do it named before the ban is no ban.
    check_forbids(
        "bash",
        "Run `npm ci`, never plain `npm install`.",
        "command",
        "npm install",
    );
    // Git's verb without git; a pipeline written out; a rule quoted to ask about it.
    check(
        "bash",
        "Don't ever tag releases by hand.",
        Some(
            r#"{"except":[{"kind":"command","value":"git tag --list"}],"matchers":[{"kind":"command","value":"git tag"},{"kind":"command","value":"gh release create"},{"kind":"command","value":"glab release create"}],"polarity":"forbid"}"#,
        ),
    );
    // A download piped into a shell: every way to download, into every shell.
    check(
        "bash",
        "Don't use `curl | sh` installers.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"ash"},{"kind":"command","value":"bash"},{"kind":"command","value":"dash"},{"kind":"command","value":"fish"},{"kind":"command","value":"iex"},{"kind":"command","value":"invoke-expression"},{"kind":"command","value":"ksh"},{"kind":"command","value":"sh"},{"kind":"command","value":"zsh"}],"polarity":"forbid","when":[{"kind":"command","value":"aria2c"},{"kind":"command","value":"curl"},{"kind":"command","value":"fetch"},{"kind":"command","value":"http"},{"kind":"command","value":"https"},{"kind":"command","value":"invoke-restmethod"},{"kind":"command","value":"invoke-webrequest"},{"kind":"command","value":"irm"},{"kind":"command","value":"iwr"},{"kind":"command","value":"wget"},{"kind":"command","value":"xh"}]}"#,
        ),
    );
    check(
        "bash",
        "The README says never to run `./scripts/seed.sh` twice. Is that still true?",
        None,
    );
}

#[test]
fn classes_of_the_real_text_corpus() {
    // Each order of a sentence on its own: the deletion is no situation for `main`.
    check(
        "run_terminal_cmd",
        "Don't push to main or release, and don't delete any remote branch.",
        Some(
            r#"{"also":[{"matchers":[{"kind":"command","value":"git push --delete"}],"polarity":"forbid"}],"matchers":[{"kind":"literal","value":"main"},{"kind":"literal","value":"release"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
        ),
    );
    // An account number is also its digits run together.
    check(
        "bash",
        "never pay into acct 7781-0042; it belongs to a vendor we dropped.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"7781-0042"},{"kind":"literal","value":"77810042"},{"kind":"literal","value":"7781 0042"}],"polarity":"forbid"}"#,
        ),
    );
    // "`.pem` files" is an extension; "`.env` files" a dotfile.
    check(
        "view_file",
        "Please don't open any `.pem` or `*.key` files.",
        Some(
            r#"{"matchers":[{"kind":"path","value":"*.pem"},{"kind":"path","value":"*.key"}],"polarity":"forbid"}"#,
        ),
    );
    // A ban in Japanese; a back-reference by "another one".
    check_forbids(
        "run_shell_command",
        "禁止コマンド: `git push --force`",
        "command",
        "git push --force",
    );
    check_forbids(
        "run_command",
        "- `npm run dev` is already running in a terminal; don't start another one.",
        "command",
        "npm run dev",
    );
    // A pipe into a command that is no interpreter.
    check(
        "shell",
        "Don't pipe `find` into `xargs rm` anywhere in this tree.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"xargs rm"}],"polarity":"forbid","when":[{"kind":"command","value":"find"}]}"#,
        ),
    );
}

#[test]
fn a_rule_whose_object_is_its_own_tool_holds_for_every_call() {
    // The tool's noun in the plural, after its own verb or a verb of doing, or after "any".
    check_forbids(
        "mcp__jira__delete_issue",
        "Never delete Jira issues.",
        "command",
        "delete issue",
    );
    check(
        "mcp__stripe__create_refund",
        "Ask me before issuing any refund.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"create refund"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "mcp__linear__archive_issue",
        "Archiving issues is my call — never do it.",
        "command",
        "archive issue",
    );
    check(
        "mcp__github__merge_pull_request",
        "Don't merge pull requests — I review and merge everything myself.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"merge pull request"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "send_email",
        "Never send email on my behalf.",
        "command",
        "send email",
    );
    // Another operation on the tool's noun is said in the call ({"state": "closed"}).
    check(
        "mcp__github__issue_write",
        "Don't close issues — commenting is fine.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"close"},{"kind":"literal","value":"closed"},{"kind":"literal","value":"closing"}],"polarity":"forbid"}"#,
        ),
    );
    // The tool named beside another literal is the way, not the ban.
    check_forbids(
        "mcp__slack__post_message",
        "Never post to #general with `mcp__slack__post_message`.",
        "literal",
        "#general",
    );
    // A ban on what the tool is used for, narrowed to a topic, asks about that topic.
    check(
        "save_memory",
        "Don't store anything about customers with `save_memory`.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"literal","value":"customer"},{"kind":"literal","value":"customers"}],"polarity":"forbid"}"#,
        ),
    );
    // Possessive and narrowed objects stay advice.
    check("send_email", "don't email my landlord, ever", None);
    check("mcp__jira__delete_issue", "Never delete my issues.", None);
    check(
        "mcp__jira__delete_issue",
        "Don't delete issues that are still open.",
        None,
    );
}

#[test]
fn a_choice_forbids_the_way_not_taken() {
    check_forbids(
        "bash",
        "`uv add`, not `pip install`.",
        "command",
        "pip install",
    );
    check_forbids("bash", "Prefer `rg` over `grep`.", "command", "grep");
    check_forbids(
        "bash",
        "Run `bun test` rather than `jest`.",
        "command",
        "jest",
    );
    check_forbids("bash", "We use pnpm rather than yarn.", "command", "yarn");
    check_forbids(
        "bash",
        "Use `pnpm dlx` in place of `npx`.",
        "command",
        "npx",
    );
}

#[test]
fn a_ban_that_names_nothing_is_about_the_commands_the_next_clause_names() {
    check(
        "bash",
        "**Never publish crates.** `cargo publish` and `cargo release` are done by the maintainer.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"cargo publish"},{"kind":"command","value":"cargo release"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "**No production deploys.** `vercel --prod` and `vercel deploy --prod` are CI's job.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"vercel --prod"},{"kind":"command","value":"vercel deploy --prod"}],"polarity":"forbid"}"#,
        ),
    );
    // An instruction of its own, or a ban that names something, keeps to its own words.
    check(
        "bash",
        "**Never guess.** See `make docs` for the details.",
        None,
    );
    check_forbids(
        "bash",
        "**NEVER run yarn** — this repo uses `pnpm install`.",
        "command",
        "yarn",
    );
}

#[test]
fn a_read_only_cli_or_resource_forbids_what_changes_it() {
    check(
        "bash",
        "The `aws` CLI is read-only for you (`describe-*`, `list-*`, `get-*`).",
        Some(
            r#"{"access":"write","matchers":[{"kind":"command","value":"aws"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "`psql` against prod is read-only.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"literal","value":"prod"}],"polarity":"forbid","when":[{"kind":"command","value":"psql"}]}"#,
        ),
    );
    check(
        "bash",
        "`s3://acme-prod-backups/` is read-only.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"url","value":"s3://acme-prod-backups/"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "execute_command",
        "The `main` branch is protected and read-only for you.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"main"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
        ),
    );
    check(
        "mcp__supabase__execute_sql",
        "Use the Supabase MCP server only to read.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"alter"},{"kind":"command","value":"call"},{"kind":"command","value":"copy"},{"kind":"command","value":"create"},{"kind":"command","value":"delete"},{"kind":"command","value":"drop"},{"kind":"command","value":"grant"},{"kind":"command","value":"insert"},{"kind":"command","value":"merge"},{"kind":"command","value":"rename"},{"kind":"command","value":"replace"},{"kind":"command","value":"revoke"},{"kind":"command","value":"truncate"},{"kind":"command","value":"update"},{"kind":"command","value":"upsert"},{"kind":"command","value":"vacuum"}],"polarity":"forbid"}"#,
        ),
    );
    // Asking about the commands that change things leaves the reads alone.
    check(
        "bash",
        "Ask before any `gcloud` command that creates, updates or deletes something.",
        Some(
            r#"{"access":"write","ask_first":true,"matchers":[{"kind":"command","value":"gcloud"}],"polarity":"forbid"}"#,
        ),
    );
    // "Not even read-only" orders no reading.
    check_forbids(
        "execute_command",
        "don't touch `db-prod-2` at all, not even read-only.",
        "literal",
        "db-prod-2",
    );
}

#[test]
fn globs_of_domains_and_allowlists_of_hosts() {
    check_forbids(
        "webfetch",
        "Fetching from `*.internal.acme.dev` is not allowed.",
        "domain",
        "internal.acme.dev",
    );
    check(
        "webfetch",
        "Only fetch from `docs.python.org` and `pypi.org`.",
        Some(
            r#"{"except":[{"kind":"domain","value":"docs.python.org"},{"kind":"domain","value":"pypi.org"}],"matchers":[{"kind":"domain","value":"*"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Never download anything except from pypi.org.",
        Some(
            r#"{"except":[{"kind":"domain","value":"pypi.org"}],"matchers":[{"kind":"domain","value":"*"}],"polarity":"forbid","when":[{"kind":"command","value":"aria2c"},{"kind":"command","value":"curl"},{"kind":"command","value":"fetch"},{"kind":"command","value":"http"},{"kind":"command","value":"https"},{"kind":"command","value":"invoke-restmethod"},{"kind":"command","value":"invoke-webrequest"},{"kind":"command","value":"irm"},{"kind":"command","value":"iwr"},{"kind":"command","value":"wget"},{"kind":"command","value":"xh"}]}"#,
        ),
    );
}

#[test]
fn an_ask_in_a_list_of_bans_asks_only_for_its_item() {
    check(
        "bash",
        "No `git commit --amend`, no `git rebase -i`, and ask me before any `git push`.",
        Some(
            r#"{"also":[{"ask_first":true,"matchers":[{"kind":"command","value":"git push"}],"polarity":"forbid"}],"matchers":[{"kind":"command","value":"git commit --amend"},{"kind":"command","value":"git rebase -i"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "mcp__postgres__query",
        "Never drop tables, and check with me before any `ALTER TABLE`.",
        Some(
            r#"{"also":[{"ask_first":true,"matchers":[{"kind":"literal","value":"alter table"}],"polarity":"forbid"}],"matchers":[{"kind":"literal","value":"drop table"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn a_condition_narrows_a_ban() {
    // What a program is run against.
    check(
        "bash",
        "`mongosh` against the `atlas-prod` connection string is forbidden.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"atlas-prod"}],"polarity":"forbid","when":[{"kind":"command","value":"mongosh"}]}"#,
        ),
    );
    // A flag given a value is what is forbidden in the command, the value a beginning.
    check(
        "bash",
        "Never run `mysql` with `-e \"DROP`.",
        Some(
            r#"{"matchers":[{"kind":"flag","value":"-e=drop"}],"polarity":"forbid","when":[{"kind":"command","value":"mysql"}]}"#,
        ),
    );
    // Something inside a file: an edit that shows it is denied, any other edit asks.
    check(
        "edit",
        "Don't bump the Spring version in `build.gradle`.",
        Some(
            r#"{"also":[{"ask_first":true,"matchers":[{"kind":"path","value":"build.gradle"}],"polarity":"forbid"}],"matchers":[{"kind":"literal","value":"spring*"}],"polarity":"forbid","when":[{"kind":"path","value":"build.gradle"}]}"#,
        ),
    );
}

#[test]
fn properties_of_a_call_are_flags() {
    // A property that is itself an approval asks when missing.
    check(
        "execute_command",
        "`execute_command` must not be started without `requires_approval: true`.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"flag","value":"--requires-approval"}],"polarity":"require"}"#,
        ),
    );
    check_forbids(
        "run_command",
        "Never run a command with `SafeToAutoRun: true`.",
        "flag",
        "--safe-to-auto-run",
    );
}

#[test]
fn creating_files_of_a_kind() {
    check(
        "write",
        "Do not create new `.js` files in `src/`.",
        Some(
            r#"{"access":"create","matchers":[{"kind":"path","value":"src/**/*.js"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "write",
        "Never create new markdown files.",
        Some(
            r#"{"access":"create","matchers":[{"kind":"path","value":"*.md"},{"kind":"path","value":"*.markdown"},{"kind":"path","value":"*.mdx"}],"polarity":"forbid"}"#,
        ),
    );
    // Changing files stays a rule about writing.
    check(
        "edit",
        "Never modify `.lock` files in `vendor/`.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"path","value":"vendor/**/*.lock"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn each_item_of_a_do_not_list_holds_beside_its_reason() {
    check(
        "bash",
        "Do not:\n- run `rm -rf .` or `git clean -fdx` (untracked files include local certs)\n- run `git checkout -- .` or `git restore .` to \"reset\" my work",
        Some(
            r#"{"matchers":[{"kind":"command","value":"rm . -rf"},{"kind":"command","value":"git clean -fdx"},{"kind":"command","value":"git checkout . --"},{"kind":"command","value":"git restore ."}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn must_never_is_a_ban() {
    for text in [
        "`config/signing.properties` must never be read.",
        "`config/signing.properties` should never be read.",
        "`config/signing.properties` may never be read.",
        "`config/signing.properties` is never to be read.",
    ] {
        check(
            "read",
            text,
            Some(
                r#"{"matchers":[{"kind":"path","value":"config/signing.properties"}],"polarity":"forbid"}"#,
            ),
        );
    }
}

#[test]
fn a_permission_beside_a_ban_is_no_ban() {
    check(
        "bash",
        "`docker compose down` is fine; `docker compose down -v` is not.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"docker compose down -v"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids(
        "bash",
        "`terraform plan` is fine, `apply` is not.",
        "command",
        "terraform apply",
    );
    check(
        "bash",
        "`alembic upgrade` is allowed; `alembic downgrade` needs my approval.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"alembic downgrade"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "mcp__slack__post_message",
        "Posting in #team-a is fine; any other channel, ask me first.",
        Some(
            r##"{"ask_first":true,"except":[{"kind":"literal","value":"#team-a"}],"matchers":[{"kind":"command","value":"post message"}],"polarity":"forbid"}"##,
        ),
    );
}

#[test]
fn with_or_without_is_regardless() {
    check_forbids(
        "bash",
        "Never run `vercel deploy`, with or without `--prod`.",
        "command",
        "vercel deploy",
    );
}

#[test]
fn outside_names_the_places_allowed() {
    check(
        "write",
        "Never write outside `/srv/out/`.",
        Some(
            r#"{"access":"write","except":[{"kind":"path","value":"/srv/out/"}],"matchers":[{"kind":"path","value":"**"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "mcp__gcal__create_event",
        "Never invite anyone from outside acme.io.",
        Some(
            r#"{"except":[{"kind":"domain","value":"acme.io"}],"matchers":[{"kind":"command","value":"create event"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "webfetch",
        "Only fetch from `docs.rs`.",
        Some(
            r#"{"except":[{"kind":"domain","value":"docs.rs"}],"matchers":[{"kind":"domain","value":"*"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn a_ban_on_what_a_tool_does_said_by_its_verb_or_a_kind_of_it() {
    for text in ["NEVER DELETE FILES.", "Never remove files."] {
        check(
            "delete_file",
            text,
            Some(r#"{"matchers":[{"kind":"command","value":"delete file"}],"polarity":"forbid"}"#),
        );
    }
    for text in [
        "Don't accept or decline invitations.",
        "Don't accept, decline or delete meetings.",
    ] {
        check(
            "mcp__gcal__respond_to_event",
            text,
            Some(
                r#"{"matchers":[{"kind":"command","value":"respond to event"}],"polarity":"forbid"}"#,
            ),
        );
    }
    // A keyword in a sentence that is not shouted is still SQL's.
    check_forbids(
        "mcp__db__query",
        "Never run DELETE statements.",
        "literal",
        "delete",
    );
}

#[test]
fn rules_in_other_languages() {
    check_forbids(
        "bash",
        "Niemals `git push --force` ausführen.",
        "command",
        "git push --force",
    );
    check(
        "bash",
        "Vor jedem `terraform apply` bitte bei mir nachfragen.",
        Some(
            r#"{"ask_first":true,"matchers":[{"kind":"command","value":"terraform apply"}],"polarity":"forbid"}"#,
        ),
    );
    check_forbids("bash", "Usa `pnpm`, nunca `npm`.", "command", "npm");
    check(
        "__unscoped__",
        "Le fichier `config/prod.yml` ne doit pas être modifié.",
        Some(
            r#"{"access":"write","matchers":[{"kind":"path","value":"config/prod.yml"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "No ejecutes `docker system prune`.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"docker system prune"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn services_and_forges_by_what_they_do() {
    check_forbids("bash", "No Slack webhooks.", "domain", "hooks.slack.com");
    check(
        "bash",
        "Never tag a release yourself.",
        Some(
            r#"{"except":[{"kind":"command","value":"git tag --list"}],"matchers":[{"kind":"command","value":"git tag"},{"kind":"command","value":"gh release create"},{"kind":"command","value":"glab release create"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "shell",
        "You can run `docker compose up` and `down`, but never with `-v`.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"docker compose up -v"},{"kind":"command","value":"docker compose down -v"}],"polarity":"forbid"}"#,
        ),
    );
}

#[test]
fn a_list_of_fragments_is_commands_of_the_first_program() {
    check(
        "bash",
        "Never run `php artisan migrate:fresh` or `migrate:reset` on this project.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"php artisan migrate:fresh"},{"kind":"command","value":"php artisan migrate:reset"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Do not `npm publish` or `unpublish` anything from here.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"npm publish"},{"kind":"command","value":"npm unpublish"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Never `git stash drop`, `clear` or `pop`.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"git stash drop"},{"kind":"command","value":"git stash clear"},{"kind":"command","value":"git stash pop"}],"polarity":"forbid"}"#,
        ),
    );
    // A program listed is a command of its own; a word after "to" is what the command is
    // given, not a list item.
    check(
        "bash",
        "Never `npm publish` or `yarn`.",
        Some(
            r#"{"matchers":[{"kind":"command","value":"npm publish"},{"kind":"command","value":"yarn"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "query",
        "Never run `DELETE`, `ALTER TABLE` or `TRUNCATE`.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"delete"},{"kind":"literal","value":"alter table"},{"kind":"literal","value":"truncate"}],"polarity":"forbid"}"#,
        ),
    );
    check(
        "bash",
        "Never `git push` to `main` or `master`.",
        Some(
            r#"{"matchers":[{"kind":"literal","value":"main"},{"kind":"literal","value":"master"}],"polarity":"forbid","when":[{"kind":"command","value":"git push"}]}"#,
        ),
    );
}

#[test]
fn an_action_kept_for_people_bans_the_tool_that_does_it() {
    let merge = Some(
        r#"{"matchers":[{"kind":"command","value":"merge pull request"}],"polarity":"forbid"}"#,
    );
    check(
        "mcp__github__merge_pull_request",
        "`mcp__github__merge_pull_request` is for humans.",
        merge,
    );
    check(
        "mcp__github__merge_pull_request",
        "Leave merging to me.",
        merge,
    );
    check(
        "mcp__github__merge_pull_request",
        "Leave the merging of PRs to the humans.",
        merge,
    );
    check_forbids(
        "mcp__stripe__send_invoice",
        "Sending invoices is for people only.",
        "command",
        "send invoice",
    );
    check_forbids(
        "mcp__stripe__create_payout",
        "Sending payouts is for humans only.",
        "command",
        "create payout",
    );
    // What is kept for people is no action of the tool.
    check(
        "mcp__github__merge_pull_request",
        "Pull requests are for humans to review.",
        None,
    );
    check(
        "mcp__github__merge_pull_request",
        "Leave the repo alone for now.",
        None,
    );
}

#[test]
fn a_negation_after_a_verb_of_contact_is_no_name() {
    check("make_call", "Never call, not even once.", None);
    check("bash", "Merging is my call, not yours.", None);
}
