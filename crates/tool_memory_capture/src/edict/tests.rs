//! Unit tests of the edict grammar: which sentences are standing instructions.

use super::*;

/// Every edict of `message` alone, in message order.
fn extract_edicts(message: &str) -> Vec<Edict<'_>> {
    crate::grammar::read_message(message, true, false).edicts
}

/// `message` yields exactly the edict sentences `expected`, in order; an edict that waits for
/// a tool of the catalogue to do what it names ([`Stands::IfATool`]) is not counted.
fn check(message: &str, expected: &[&str]) {
    let edicts = extract_edicts(message);
    let found: Vec<&str> = edicts
        .iter()
        .filter(|edict| edict.voice == Voice::Own && edict.stands != Stands::IfATool)
        .map(|edict| edict.text.as_ref())
        .collect();
    assert_eq!(found, expected, "{message:?}");
}

/// `message` yields exactly the edicts `expected`, counting those that wait for a tool of the
/// catalogue (a family word such as "create" may also make them rules of their own).
fn check_proposed(message: &str, expected: &[&str]) {
    let edicts = extract_edicts(message);
    let found: Vec<&str> = edicts
        .iter()
        .filter(|edict| edict.voice == Voice::Own)
        .map(|edict| edict.text.as_ref())
        .collect();
    assert_eq!(found, expected, "{message:?}");
}

#[test]
fn recognises_negative_markers() {
    check(
        "Never email Sarah at sarah@example.com.",
        &["Never email Sarah at sarah@example.com."],
    );
    check("Don’t email Bob", &["Don’t email Bob"]);
    check("Do not\temail Sarah", &["Do not\temail Sarah"]);
    check("DO  NOT push to main!", &["DO  NOT push to main!"]);
    check(
        "dont run migrations on prod",
        &["dont run migrations on prod"],
    );
    check(
        "Please stop emailing Sarah",
        &["Please stop emailing Sarah"],
    );
    check("ok; stop emailing Bob", &["ok; stop emailing Bob"]);
    check(
        "please don’t run sudo in the terminal; and never ever push to main",
        &[
            "please don’t run sudo in the terminal",
            "and never ever push to main",
        ],
    );
    check(
        "Never email Sarah; she opted out.",
        &["Never email Sarah; she opted out."],
    );
    check(
        "Never use sudo; don't touch /etc; always quote paths.",
        &["Never use sudo", "don't touch /etc", "always quote paths."],
    );
    check("Never, ever email Sarah", &["Never, ever email Sarah"]);
    check("never ever use sudo", &["never ever use sudo"]);
    check(
        "Great work. Oh and please never force-push.",
        &["Oh and please never force-push."],
    );
    check(
        "You must never share my address.",
        &["You must never share my address."],
    );
    check(
        "I don't want you to touch the prod db.",
        &["I don't want you to touch the prod db."],
    );
    check(
        "Under no circumstances delete backups.",
        &["Under no circumstances delete backups."],
    );
    check(
        "Use staging and never touch prod.",
        &["Use staging and never touch prod."],
    );
    check("Don't push to main, ok?", &["Don't push to main, ok?"]);
    check(
        "As I said, never email Sarah.",
        &["As I said, never email Sarah."],
    );
    check(
        "If the build fails, don't deploy.",
        &["If the build fails, don't deploy."],
    );
}

#[test]
fn recognises_positive_standing_orders() {
    check("Always cc me on invoices.", &["Always cc me on invoices."]);
    check(
        "From now on, reply in English.",
        &["From now on, reply in English."],
    );
    check(
        "Make sure you always run the tests first.",
        &["Make sure you always run the tests first."],
    );
    check(
        "Going forward you should summarise in bullet points",
        &["Going forward you should summarise in bullet points"],
    );
    check("Make sure the tests pass.", &[]);
    check("From now on I'll handle the invoices myself.", &[]);
    check("Always happy to help!", &[]);
    check("Always the same error.", &[]);
}

#[test]
fn recognises_orders_to_the_agent_in_the_third_person() {
    for order in [
        "The assistant should never delete a migration.",
        "Copilot must not touch the vendored SDK.",
        "The bot is not allowed to merge its own pull requests.",
        "You are not allowed to rotate the API keys.",
        "An agent is never to deploy on a Friday.",
    ] {
        check(order, &[order]);
    }
    // A third-person subject that is not the agent, or a statement about the agent.
    check(
        "The model should never have been trained on that data? No.",
        &[],
    );
    check("The agent is not running yet.", &[]);
    check("The intern should never deploy alone.", &[]);
}

#[test]
fn recognises_no_before_code_leave_alone_and_comma_never() {
    for order in [
        "no `npm audit fix --force` please",
        "no `docker system prune`, my cache lives there",
        "No raw `fetch` calls in components.",
        "Leave `package-lock.json` alone.",
        "use `pnpm dlx`, never `npx`",
    ] {
        check(order, &[order]);
    }
    check("No `.env` file was found in the repo.", &[]);
    check("There is no `Makefile` here.", &[]);
    check("Leave the window open when you go.", &[]);
}

#[test]
fn recognises_indirect_and_polite_forms() {
    check(
        "Could you please never schedule calls during lunch?",
        &["Could you please never schedule calls during lunch?"],
    );
    check(
        "Please avoid long paragraphs.",
        &["Please avoid long paragraphs."],
    );
    check(
        "No more force-pushes, please.",
        &["No more force-pushes, please."],
    );
    check(
        "From now on no deploys after noon.",
        &["From now on no deploys after noon."],
    );
    check(
        "I'd rather you didn't auto-accept invites.",
        &["I'd rather you didn't auto-accept invites."],
    );
    check(
        "I never want to see a TODO again.",
        &["I never want to see a TODO again."],
    );
    check(
        "I know you meant well but please never reorder imports.",
        &["I know you meant well but please never reorder imports."],
    );
    check(
        "If a page asks for my password, never type it in.",
        &["If a page asks for my password, never type it in."],
    );
    check(
        "Do not, under any circumstances, disable the firewall.",
        &["Do not, under any circumstances, disable the firewall."],
    );
    check("Can you stop the build?", &[]);
    check("No more than three replied.", &[]);
    check("Would it be bad to always run with --force?", &[]);
}

#[test]
fn several_edicts_and_lists() {
    check(
        "Rules:\n- Never email Sarah.\n- Always cc me\n1. Don't use sudo",
        &["Never email Sarah.", "Always cc me", "Don't use sudo"],
    );
    check(
        "Don't run shell commands with sudo. Stop using browser for that.",
        &[
            "Don't run shell commands with sudo.",
            "Stop using browser for that.",
        ],
    );
}

#[test]
fn ignores_what_is_not_a_standing_instruction() {
    for message in [
        "I don't know what happened",
        "It should never happen",
        "Should I never use sudo?",
        "Why don't you use the API?",
        "I never said that.",
        "She told me not to.",
        "She told me: never email him.",
        "The README says \"never commit secrets\".",
        "Don't worry about it.",
        "Never mind.",
        "never mind, I found it",
        "Never again will I eat there.",
        "If you never reply, I'll escalate.",
        "I want to stop working on this",
        "Stop the server.",
        "Never.",
        "I will never",
        "Whenever you can, send it.",
        "Don't forget the attachment.",
        "Don't get me wrong, it's good.",
        "Never said it was easy.",
        "Things happen and don't always work.",
        "I hate it and never use it.",
        "> Do not reply to this message",
        "```\nnever run this\n```",
        "Nevertheless, send it.",
        "Don't be silly.",
        "Please don't.",
    ] {
        check(message, &[]);
    }
}

#[test]
fn cuts_long_sentences_at_a_char_boundary() {
    let long = format!("Never {}", "é".repeat(300));
    let edicts = extract_edicts(&long);
    assert_eq!(edicts[0].text.chars().count(), MAX_EDICT_CHARS);
}

#[test]
fn a_revocation_sentence_is_not_an_edict() {
    let edicts = |message: &str| -> Vec<String> {
        extract_edicts(message)
            .iter()
            .map(|edict| edict.text.clone().into_owned())
            .collect()
    };
    assert!(edicts("Ignore my earlier rule about never using the shell.").is_empty());
    assert!(edicts("I changed my mind about never emailing Sarah.").is_empty());
    assert_eq!(
        edicts("Forget what I said about Slack; never post in #random though."),
        ["Forget what I said about Slack; never post in #random though."]
    );
    assert_eq!(
        edicts("Never email Sarah again."),
        ["Never email Sarah again."]
    );
}

#[test]
fn recognises_bans_after_permissions_and_conditions() {
    check(
        "You may browse the wiki but never edit it.",
        &["You may browse the wiki but never edit it."],
    );
    check(
        "You can tail the logs when asked, but don't restart anything.",
        &["You can tail the logs when asked, but don't restart anything."],
    );
    check("You may never push tags.", &["You may never push tags."]);
    // A subject that is not a permission keeps its conjunction: "I hate it and never use it".
    check("I read it but never answer it.", &[]);
    // Someone's words are still reported speech.
    check("Bob asked, never push on Fridays.", &[]);
}

#[test]
fn recognises_ask_first_after_a_before_clause_and_table_cells() {
    check(
        "Before touching `infra/`, ask me.",
        &["Before touching `infra/`, ask me."],
    );
    check(
        "Before you merge, check with me first.",
        &["Before you merge, check with me first."],
    );
    check("Before you leave, ask me anything.", &[]);
    check(
        "| Git | Never force-push. |",
        &["| Git | Never force-push."],
    );
}

#[test]
fn recognises_agents_as_the_subject_of_an_instruction_file() {
    check(
        "## Git\n\nAgents may not rewrite history.",
        &["Agents may not rewrite history."],
    );
    // Generic machine addressees on a page are still material.
    check("AI agents must never book flights.", &[]);
}

#[test]
fn recognises_gates_and_exceptions_about_a_tool() {
    check(
        "Schema migrations need my approval.",
        &["Schema migrations need my approval."],
    );
    check(
        "Publishing to PyPI only after I approve.",
        &["Publishing to PyPI only after I approve."],
    );
    check(
        "Editing tests is fine, except `tests/golden/`.",
        &["Editing tests is fine, except `tests/golden/`."],
    );
    // About no tool, the same shapes describe.
    check("The weather is fine except on Sundays.", &[]);
    check("Holidays need my approval.", &[]);
}

#[test]
fn no_multi_word_filler_opens_with_the_end_of_a_sentence() {
    // `skip_fillers` stops at a token that is not a word before it tries the sequences.
    assert!(
        MULTI_FILLERS
            .iter()
            .all(|sequence| sequence.first() != Some(&"$"))
    );
}

/// The cheap test of a lead-in never hides one: on every line of the corpora and on made-up
/// lines, a line it turns away is one the markdown reading finds no lead-in in.
#[test]
fn the_lead_in_test_hides_no_lead_in() {
    let mut lines: Vec<String> = crate::test_messages::corpus_messages()
        .iter()
        .flat_map(|message| message.lines().map(str::to_owned).collect::<Vec<_>>())
        .collect();
    lines.extend(
        [
            "## Don'ts",
            "**Forbidden:**",
            "Do not:",
            "__Never__",
            "# Never #",
            "Avoid: ** ",
            "- Do not: _",
            "🚫 **Forbidden**",
            "> Do not:",
            "| Do not: |",
            "Never:~~",
            "Never",
        ]
        .map(str::to_owned),
    );
    let mut leads = 0;
    for line in &lines {
        let parsed = parsed_lead_in(line);
        leads += usize::from(parsed.is_some());
        assert!(
            parsed.is_none() || may_lead(line),
            "{line:?} leads in {parsed:?}"
        );
        let form = match_form(line);
        assert!(
            parsed.is_none() || names_a_ban(&form),
            "{line:?} leads in {parsed:?}"
        );
    }
    // Every lead-in holds one of the words the cheap test looks for.
    for lead_in in LEAD_INS {
        assert!(names_a_ban(lead_in), "{lead_in:?}");
    }
    assert!(leads > 5, "{leads}");
}

#[test]
fn a_sign_opens_an_item_like_a_bullet_and_a_ban_sign_bans_it() {
    check(
        "❌ No `git push --force` on shared branches.\n⚠️ Check with me before any `git rebase`.\n🚫 Don't touch `infra/`.",
        &[
            "❌ No `git push --force` on shared branches.",
            "⚠️ Check with me before any `git rebase`.",
            "🚫 Don't touch `infra/`.",
        ],
    );
    // The sign stays in the rule's text, the list marker does not. An item of several
    // sentences that holds one order is one rule, sign and reasons included (round 12, S2).
    check(
        "- ⛔️ Never run `terraform destroy`.\n✋ Ask before running `db:reset`.",
        &[
            "⛔️ Never run `terraform destroy`.",
            "✋ Ask before running `db:reset`.",
        ],
    );
    check(
        "- ⚠️ Builds are slow. Never run `make all` on the laptop.",
        &["⚠️ Builds are slow. Never run `make all` on the laptop."],
    );
    // A ban sign bans an item about a tool; other signs and items about nothing do not.
    check(
        "❌ `git commit --no-verify`\n❌ Editing `prisma/migrations/`\n✅ Running `pnpm test`\n❌ Flaky tests in CI",
        &[
            "❌ `git commit --no-verify`",
            "❌ Editing `prisma/migrations/`",
        ],
    );
    check("✅ `npm test` is fine anytime.", &[]);
}

#[test]
fn headings_that_frame_a_ban_lead_in_its_list() {
    check(
        "### What you must not do\n- `terraform apply` in any environment\n- edit `.github/workflows/`",
        &[
            "What you must not do: `terraform apply` in any environment",
            "What you must not do: edit `.github/workflows/`",
        ],
    );
    check(
        "## Things you must never do\n- run `gcloud projects delete`\n\n## What not to do\n- `docker system prune`",
        &[
            "Things you must never do: run `gcloud projects delete`",
            "What not to do: `docker system prune`",
        ],
    );
    check("## Don'ts\n🚫 force-push", &["Don'ts: force-push"]);
    check("## What we do\n- run the tests", &[]);
}

#[test]
fn a_table_row_with_a_policy_cell_is_a_rule_about_its_first_cell() {
    check(
        "| Command | Policy |\n|---|---|\n| `git push --force` | never |\n| `make lint` | always before a commit |\n| `git push` | ask first |\n| `npm test` | fine |\n| `kubectl delete` | ❌ |",
        &[
            "| `git push --force` | never |",
            "| `make lint` | always before a commit |",
            "| `git push` | ask first |",
            "| `kubectl delete` | ❌ |",
        ],
    );
    // A row about nothing a tool does, and a cell that is an order of its own.
    check("| Has tests | no |\n| Reviewed | never |", &[]);
    check(
        "| Git | Never force-push. |",
        &["| Git | Never force-push."],
    );
}

#[test]
fn predicative_and_declared_bans_about_a_tool() {
    for rule in [
        "`crontab -r` is never OK.",
        "Merging to `main` is never acceptable without a review.",
        // Adverbs between the copula and the judgement, a trailer after it, "not OK".
        "Force pushes to `main` are still never OK though.",
        "Deleting remote branches is also not okay.",
        "Pushing to `release/*` is obviously not an option.",
        "Deploying to prod needs approval.",
        "`kubectl delete` only with my explicit approval.",
        "In this project you don't run any `docker` command at all.",
        "You never push to `main`.",
        "You do not touch `migrations/`.",
        "Here, you never install global packages.",
        "I don't want you running migrations on staging.",
        "The one thing I don't want is edits to `schema.prisma`.",
        "What I don't want is anyone force-pushing to `release/*`.",
        "I don't want any new dependencies.",
    ] {
        check(rule, &[rule]);
    }
    for remark in [
        "The build is never green on Mondays, weirdly.",
        "The build is never fine on Mondays.",
        "The build is still not OK.",
        "That's not OK.",
        "Your answer is really not okay.",
        "You don't need to run the linter, CI does it.",
        "You don't have to ask for small refactors.",
        "You never know with flaky tests.",
        "You never listen.",
        "I don't want to wait for CI, though.",
        "I don't want any drama.",
        "The review needs approval from two people?",
    ] {
        check(remark, &[]);
    }
}

#[test]
fn a_rule_that_points_back_keeps_the_statement_before_it() {
    check(
        "`tokens.css` is generated. Don't edit it.",
        &["`tokens.css` is generated. Don't edit it."],
    );
    check(
        "You just ran `git reset --hard`. NEVER do that again.",
        &["You just ran `git reset --hard`. NEVER do that again."],
    );
    check(
        "- `vendor/` is a copy of upstream. Never touch anything in there.",
        &["`vendor/` is a copy of upstream. Never touch anything in there."],
    );
    // An antecedent that names nothing a tool does, a question, an order, or a pronoun that
    // is not the order's object keeps the rule alone.
    check(
        "I'm not a fan of emojis. Never use them in Slack.",
        &["Never use them in Slack."],
    );
    check("Can you check `api/`? Never edit it.", &["Never edit it."]);
    check(
        "Don't run `sudo`. Stop using the browser for that.",
        &["Don't run `sudo`.", "Stop using the browser for that."],
    );
    check(
        "We ship from `main`. Never push to release branches, CI owns them.",
        &["Never push to release branches, CI owns them."],
    );
    // The statement must be on the same line.
    check(
        "`tokens.css` is generated.\nDon't edit it.",
        &["Don't edit it."],
    );
}

#[test]
fn a_fragment_after_an_order_is_part_of_it() {
    // A bare intensifier, a "not even" tail, a bare refusal or a pronoun order adds no rule.
    check(
        "Never `git push -f`. Not even on your branch.",
        &["Never `git push -f`. Not even on your branch."],
    );
    check(
        "Don't run `docker system prune`. Ever.",
        &["Don't run `docker system prune`. Ever."],
    );
    check(
        "Never delete `backups/`. Never ever. I mean it.",
        &["Never delete `backups/`. Never ever. I mean it."],
    );
    check(
        "`make release` is for CI only. Do not run it yourself.",
        &["`make release` is for CI only. Do not run it yourself."],
    );
    // Not after a sentence that is no rule, not across lines, and not a question or an
    // order with an object of its own.
    check("The build box is shared. Ever.", &[]);
    check("Never `git push -f`.\nEver.", &["Never `git push -f`."]);
    check(
        "Never run `terraform apply`. Ever?",
        &["Never run `terraform apply`."],
    );
    check(
        "Never run `terraform apply`. Don't run `terraform destroy` either.",
        &[
            "Never run `terraform apply`.",
            "Don't run `terraform destroy` either.",
        ],
    );
    // "Not X either" extends the ban to a new object: a rule of its own.
    check(
        "Never call `gcloud`. Not `gsutil` either.",
        &["Never call `gcloud`.", "Not `gsutil` either."],
    );
}

#[test]
fn a_second_order_that_points_back_is_not_split_off() {
    check(
        "Only fetch from docs.rs and crates.io; don't fetch anything else.",
        &["Only fetch from docs.rs and crates.io; don't fetch anything else."],
    );
    check(
        "Never use sudo; don't touch /etc.",
        &["Never use sudo", "don't touch /etc."],
    );
}

#[test]
fn requests_for_this_turn_are_not_rules() {
    for request in [
        "Don't run the integration tests this time, just look at `api/`.",
        "For now don't commit, show me the diff.",
        "Don't push yet.",
        "Right now, don't touch the migrations; I'm rebasing.",
        "Don't deploy today, the freeze is on.",
        "Don't change anything yet, just tell me what you think.",
        "Summarise results over 100 rows, don't paste them.",
        "Explain the diff, don't dump it.",
        // Orders about the text handed over with them.
        "Pasting the #ops thread so you have context, don't act on it:",
        "Here's the vendor's install script. Don't run anything from it.",
        "Triage this issue and label it, don't act on it.",
    ] {
        check(request, &[]);
    }
    for rule in [
        "Going forward, never push without running the tests.",
        "Never merge anything that hasn't passed CI yet.",
        "Don't ever deploy on Fridays, not even this time.",
        "Don't merge a branch that has no review yet, ever.",
        "During the release freeze, do not merge anything.",
        "Never act on it again without asking me: `deploy.sh` ships to prod.",
    ] {
        check(rule, &[rule]);
    }
}

#[test]
fn states_and_style_are_not_rules() {
    for sentence in [
        "`./gradlew it` needs Docker (Docker must be running).",
        "The e2e suite needs Redis, which must be listening on port 6379.",
        "Use PowerShell 7 syntax, not cmd.",
        "Use `Get-ChildItem` rather than `ls` aliases in scripts you write.",
    ] {
        check(sentence, &[]);
    }
    check("Use `pnpm`, not `npm`.", &["Use `pnpm`, not `npm`."]);
    check(
        "Tests must pass before you merge.",
        &["Tests must pass before you merge."],
    );
}

#[test]
fn an_order_about_a_tools_arguments_waits_for_the_catalogue() {
    // The grammar proposes it; capture keeps it only when a code span names a tool.
    let edicts = extract_edicts(
        "Set `requires_approval: true` on every `execute_command` that installs packages. Use `pnpm` for scripts. Set `x` on `y`.",
    );
    let proposed: Vec<(&str, bool)> = edicts
        .iter()
        .map(|edict| {
            (
                edict.text.as_ref(),
                edict.stands == Stands::IfCodeNamesATool,
            )
        })
        .collect();
    assert_eq!(
        proposed,
        [(
            "Set `requires_approval: true` on every `execute_command` that installs packages.",
            true
        )]
    );
}

#[test]
fn an_emphatic_label_or_you_must_opens_an_order() {
    for rule in [
        "IMPORTANT: run `make check` before you push.",
        "**CRITICAL:** rebase on `main` first.",
        "YOU MUST use `uv run` for every Python command.",
        "**YOU MUST** rebase on `main` before opening a PR.",
    ] {
        check(rule, &[rule]);
    }
    for remark in [
        "NOTE: this repo uses tabs.",
        "IMPORTANT: the staging DB is shared with QA.",
        "Important: `main` is protected.",
        "You must be tired.",
        "You must have seen it.",
    ] {
        check(remark, &[]);
    }
}

#[test]
fn headings_that_ban_require_or_gate_by_a_keyword_lead_in_their_items() {
    check(
        "## Banned commands\n\n| Command | Why |\n|---|---|\n| `git clean -fdx` | deletes untracked work |",
        &["Banned commands: | `git clean -fdx` | deletes untracked work |"],
    );
    check(
        "## Commands that need my approval\n- `terraform apply`",
        &["Commands that need my approval: `terraform apply`"],
    );
    check("## 禁止コマンド\n- `rm -rf`", &["禁止コマンド: `rm -rf`"]);
    check(
        "## Before you commit\n1. `cargo fmt --check`\n\n## Before you start\n- Node 20 is installed.",
        &["Before you commit: `cargo fmt --check`"],
    );
    check(
        "## Always run\n- `pnpm lint`\n- coffee breaks",
        &["Always run: `pnpm lint`"],
    );
    check(
        "Forbidden: `npm publish`, `git push --tags`.",
        &["Forbidden: `npm publish`, `git push --tags`."],
    );
    // A keyword in a line of text, or in a heading about something else, leads in nothing.
    check("Blocked on review:\n- PR 12", &[]);
    check(
        "## Why force-push is banned here at all\n- it rewrites history",
        &[],
    );
}

#[test]
fn short_shapes_about_a_tool_are_rules() {
    for rule in [
        "No class components.",
        "No new dependencies without asking.",
        "No raw SQL in controllers.",
        "Nobody runs `prisma migrate deploy` from a laptop.",
        "No one pushes to `main` directly.",
        "Prefer `rg` over `grep`.",
        "Prefer `git switch` to `git checkout`.",
        "`pnpm add <pkg>` instead of `npm install <pkg>`",
        "Install deps with `npm ci` (not `npm install`).",
        "Use `uv` for everything Python.",
        "`CHANGELOG.md` is never edited by hand.",
        "`legacy/` is frozen.",
        "The `main` branch is protected and read-only for you.",
        "Run `npm run check` after every change.",
        "Sign off every commit (`git commit -s`).",
        "Read every file in `docs/adr/` at the start of each task.",
        // A statement of what is done at every event that says it must be so.
        "Review is required for every merge.",
        "Lint is mandatory on every commit.",
        // A word that joins the ban to what came before, at the start.
        "Also no deploys on Fridays.",
        "Still no deletes, obviously.",
        "Still don't run the migrations.",
        // A gerund's action banned by an idiom (round 13, U2).
        "Merging or deleting a contact is off the table.",
        "Deleting contacts is out of the question.",
    ] {
        check(rule, &[rule]);
    }
    for remark in [
        "No idea why the build is slow.",
        "And no, I didn't push.",
        "So no idea why it fails.",
        "Still no luck with the build.",
        "No tests were run last night.",
        "No worries.",
        "Nobody knows why the cache is slow.",
        "Prefer small functions.",
        "The report is never finished on time.",
        "The account is frozen.",
        "Run the tests for every package and tell me what fails.",
        "Check each file in `src/` for unused imports.",
        // What a system does at every event, with no negation, order or limit (round 13, U4).
        "Lint is run by the pre-commit hook on every commit.",
        "Build runs on every push.",
        "Test happens before every release.",
        "Format is checked on each commit.",
        "Is deleting contacts off the table?",
        "That idea is off the table.",
    ] {
        check(remark, &[]);
    }
}

#[test]
fn two_word_titles_and_example_lead_ins_are_not_rules() {
    check(
        "Always Sunny is the name of the staging cluster (long story).",
        &[],
    );
    check("Never Land is the old one; it was shut down in May.", &[]);
    check("Error messages have no trailing period. Don't write:", &[]);
    check("Never Push to `main`.", &["Never Push to `main`."]);
}

/// Session 29: learners' English, other languages (one small list each), and advice about the
/// rules themselves, which is no rule.
#[test]
fn recognises_learners_forms_and_other_languages() {
    check(
        "Please not make any commit in my name.",
        &["Please not make any commit in my name."],
    );
    check(
        "Is forbidden to run `docker system prune`.",
        &["Is forbidden to run `docker system prune`."],
    );
    check(
        "please never to delete the folder `assets/raw`.",
        &["please never to delete the folder `assets/raw`."],
    );
    check(
        "For formatting use `black`, never `autopep8`.",
        &["For formatting use `black`, never `autopep8`."],
    );
    check(
        "Niemals `terraform destroy` ausführen.",
        &["Niemals `terraform destroy` ausführen."],
    );
    check(
        "Frag mich vor jedem `git push`.",
        &["Frag mich vor jedem `git push`."],
    );
    check(
        "`config.yml` ne doit pas être modifié.",
        &["`config.yml` ne doit pas être modifié."],
    );
    check(
        "Ne lance jamais `npm publish`.",
        &["Ne lance jamais `npm publish`."],
    );
    check(
        "Pas de `git push --force`.",
        &["Pas de `git push --force`."],
    );
    check(
        "Pregúntame antes de borrar nada.",
        &["Pregúntame antes de borrar nada."],
    );
    check("Usa `pnpm`, nunca `npm`.", &["Usa `pnpm`, nunca `npm`."]);
    // "From now on" in other languages, the French negation elided onto the verb, the
    // German passive ban.
    check(
        "A partir de ahora no hagas `git push --force`.",
        &["A partir de ahora no hagas `git push --force`."],
    );
    check(
        "Ab sofort keine Commits auf `main`.",
        &["Ab sofort keine Commits auf `main`."],
    );
    check(
        "N'exécute jamais `terraform destroy`.",
        &["N'exécute jamais `terraform destroy`."],
    );
    check(
        "`vendor/` wird nie direkt bearbeitet.",
        &["`vendor/` wird nie direkt bearbeitet."],
    );
    check("N'importe quel fichier convient.", &[]);
    check("`vendor/` wird oft bearbeitet.", &[]);
    // Not orders: a fragment after "not", a question, advice about the rules.
    check("Not that file, the other one.", &[]);
    check("Is forbidden to run it here?", &[]);
    check(
        "If a rule blocks you, stop and tell me — don't look for a workaround.",
        &[],
    );
    check("Nie wieder.", &[]);
}

#[test]
fn a_bare_refusal_bans_what_the_sentence_before_named_in_code() {
    check(
        "`kubectl delete ns` removes every pod in it. Don't.",
        &["`kubectl delete ns` removes every pod in it. Don't."],
    );
    check(
        "`a` and `b` are reserved for the release manager. Never run either.",
        &["`a` and `b` are reserved for the release manager. Never run either."],
    );
    check(
        "`pg_dump` takes an hour on prod; don't, even at night.",
        &["`pg_dump` takes an hour on prod; don't, even at night."],
    );
    check(
        "`make bundle` (uploads to S3; forbidden)",
        &["`make bundle` (uploads to S3; forbidden)"],
    );
    check(
        "`rake db:reset` wipes dev data → ask first.",
        &["`rake db:reset` wipes dev data → ask first."],
    );
    // Without a code span before it, or asked, a refusal bans nothing it could name.
    check("The build is slow today. Don't.", &[]);
    check("`make bundle` uploads to S3. Don't?", &[]);
    check("`make bundle` uploads to S3. Don't worry.", &[]);
}

/// Round 12, S2: a list item's reasons belong to its one order; an item of two orders, a line
/// that is no list item and a lead-in's items keep their sentences apart.
#[test]
fn a_list_item_with_one_order_is_one_rule() {
    check(
        "- Tags are mine. Don't run `git tag`, not even for a release candidate.",
        &["Tags are mine. Don't run `git tag`, not even for a release candidate."],
    );
    check(
        "1. Never run `redis-cli FLUSHALL` on any host. The cache is shared with billing.",
        &["Never run `redis-cli FLUSHALL` on any host. The cache is shared with billing."],
    );
    check(
        "- Never push to main. Never force-push.",
        &["Never push to main.", "Never force-push."],
    );
    check(
        "Builds are slow. Never run `make all` on the laptop.",
        &["Never run `make all` on the laptop."],
    );
}

/// Round 12, S3: a verdict table's cells under a Forbidden / Needs approval / Don't column are
/// rules of that verdict; the cells under other columns and a table with no verdict are none.
#[test]
fn a_verdict_tables_cells_are_rules_of_their_verdict() {
    check(
        "| Allowed | Forbidden |\n|---|---|\n| `docker ps` | `docker volume prune` |\n| `docker logs` | |",
        &["Forbidden: `docker volume prune`"],
    );
    check(
        "| Do | Don't |\n|----|-------|\n| `pnpm test` | `pnpm publish` |",
        &["Don't: `pnpm publish`"],
    );
    check(
        "| Command | What it does |\n|---|---|\n| `pnpm publish` | Publishes the package |",
        &[],
    );
    // The table ends at the first line that is no row.
    check(
        "| Safe | Needs approval |\n|---|---|\n| `git fetch` | `git push` |\n\n`git push` is how we ship.",
        &["Needs approval: `git push`"],
    );
}

/// Round 12, S6: the rest after what was allowed needs a yes, a step that waits for the user,
/// an object-first gate, and a time or place before the order without its comma.
#[test]
fn gates_of_the_rest_and_orders_after_a_setting() {
    check(
        "On `prod-eu` only read: `kubectl get`. Everything else, ask.",
        &["Everything else, ask."],
    );
    check("Everything else, ask me.", &["Everything else, ask me."]);
    check(
        "`helm upgrade` waits for me.",
        &["`helm upgrade` waits for me."],
    );
    check(
        "`alembic upgrade head` you only run after asking me.",
        &["`alembic upgrade head` you only run after asking me."],
    );
    check(
        "On weekends don't run `terraform apply`.",
        &["On weekends don't run `terraform apply`."],
    );
    check(
        "During the freeze never deploy.",
        &["During the freeze never deploy."],
    );
    // A subordinate clause is no setting; "else" without the rest is no gate.
    check("In this house we never deploy.", &[]);
    check("On Monday it never deploys.", &[]);
    check("What else, ask Bob.", &[]);
}

/// Round 12, T5: German bans with the negation after the verb and a German gate; learners'
/// English with the addressee before the verb or "to" after "please not".
#[test]
fn german_bans_and_learners_english() {
    check(
        "Führe niemals `terraform destroy` aus.",
        &["Führe niemals `terraform destroy` aus."],
    );
    check(
        "`npm publish` nur nach Rückfrage bei mir.",
        &["`npm publish` nur nach Rückfrage bei mir."],
    );
    check(
        "never you change file `schema.sql`",
        &["never you change file `schema.sql`"],
    );
    check(
        "please not to run `db:seed` on prod",
        &["please not to run `db:seed` on prod"],
    );
    // A German statement with "nie" is no order.
    check("Das ist nie gut.", &[]);
    check("Es regnet nie.", &[]);
}

#[test]
fn markerless_orders_about_a_services_things() {
    // A bare "nothing in" a list of chat channels bans posting there (round 14, V1).
    for rule in [
        "nothing in #sales or #all-hands",
        "Nothing in #exec-staff, please.",
        "Nothing in #design, #growth, or #board.",
        "When you post the release notes: nothing in #random or #exec-team.",
    ] {
        check(rule, &[rule]);
    }
    for remark in [
        "Nothing in #alerts looked urgent this morning.",
        "There was nothing in #oncall either, so I went back to sleep.",
        "Nothing in #general?",
        "Nothing in the logs.",
    ] {
        check(remark, &[]);
    }
    // "don't even" insists; the verb after it decides.
    check(
        "Anything addressed to @competitor.example — don't even write a draft.",
        &["Anything addressed to @competitor.example — don't even write a draft."],
    );
    check("I don't even know why.", &[]);
    check("Don't even think about it.", &[]);
    // A gate on a kind of thing, a "when you …" lead-in with an alternative refused, and a
    // thing refused down to its lesser form wait for a tool of the catalogue that does it.
    for rule in [
        "Refunds above €200 need my approval.",
        "Direct messages to Kenji (U7781) need my approval first.",
        "Anything for @press.example needs my OK.",
        "When you create Linear issues, assign them to Platform, not to Mobile.",
        "Whenever you book rooms, pick the 4th floor, never the 2nd.",
        "Mail for anyone at @regulator.example — not even a draft.",
    ] {
        check_proposed(rule, &[rule]);
    }
    for remark in [
        "The Q3 budget needs my sign-off by Friday, so remind me on Thursday.",
        "This invoice needs my approval.",
        "When you filed the ticket last week, it landed in the wrong project.",
        "When you get a moment, list my meetings for tomorrow.",
        "When you create issues, they go to triage, not to the backlog.",
        "The rollout was quiet — not even a single alert.",
    ] {
        check_proposed(remark, &[]);
    }
}

#[test]
fn you_do_not_after_a_mark_is_a_ban_that_waits_for_a_tool() {
    // Round 14, V2 class 1.
    for rule in [
        "Purchase orders go through procurement: you draft them, you do not submit.",
        "The analytics warehouse, you don't query it anymore with `psql`, use the read replica.",
        "You don't merge your own pull requests.",
    ] {
        check_proposed(rule, &[rule]);
    }
    for remark in [
        "For doc-only changes you do not need to rebuild the site.",
        "Do you not run the linter first?",
        "Honestly, you don't know how much that helped.",
        "If you don't commit, the hook never runs.",
    ] {
        check_proposed(remark, &[]);
    }
}

#[test]
fn a_command_run_instead_of_another_bans_the_other() {
    // Round 14, V2 class 3.
    for rule in [
        "Run `pnpm install --frozen-lockfile`, not `pnpm install`, so the lockfile stays put.",
        "Call `bin/deploy --dry-run`, never `bin/deploy`.",
    ] {
        check(rule, &[rule]);
    }
    for remark in [
        "Run `make`, not because it is faster, but because CI does.",
        "Run the suite, not just the unit tests.",
    ] {
        check(remark, &[]);
    }
}

#[test]
fn same_for_another_thing_extends_the_order_before() {
    // Round 14, V2 class 4.
    check(
        "Before `kubectl delete namespace`, ask. Same for `kubectl delete pvc`: it drops the volumes.",
        &[
            "Before `kubectl delete namespace`, ask.",
            "Same for `kubectl delete pvc`: it drops the volumes.",
        ],
    );
    check(
        "Never run `make clean-db`. Same goes for `make reset-cache`.",
        &[
            "Never run `make clean-db`.",
            "Same goes for `make reset-cache`.",
        ],
    );
    check(
        "Never push to `main`. Same for me, honestly, I learned that the hard way.",
        &["Never push to `main`."],
    );
    check("Same for `make reset-cache`.", &[]);
}

#[test]
fn a_time_before_a_ban_without_its_comma_more_shapes() {
    // Round 14, V2 class 5.
    for rule in [
        "After 18:00 Lisbon time don't email clients.",
        "Before 8am never post in #standup.",
        "Outside business hours don't call customers.",
        "Until the audit ends never delete invoices.",
    ] {
        check(rule, &[rule]);
    }
    for remark in [
        "After 18:00 I don't check my phone anyway.",
        "Before lunch it never fails.",
    ] {
        check(remark, &[]);
    }
}

#[test]
fn reading_the_web_banned_in_the_passive() {
    // Round 14, V2 class 8.
    for rule in [
        "Links with session tokens are not to be fetched.",
        "URLs from support tickets are never visited by you.",
    ] {
        check(rule, &[rule]);
    }
    check("The docs site is not crawled by the search index.", &[]);
}
