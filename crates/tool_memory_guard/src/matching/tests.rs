//! Unit tests of matching: each matcher kind against calls that must and must not match.

use serde_json::{Value, json};

use super::*;

/// Checks one matcher against one call.
fn check(kind: MatcherKind, value: &str, tool: &str, arguments: Value, expected: bool) {
    let constraint = Constraint::forbid(vec![Matcher::new(kind, value)]);
    let compiled = CompiledConstraint::new(&constraint).expect("compiles");
    let view = CallView::new(tool, &arguments);
    assert_eq!(
        evaluate(&compiled, &view).is_some(),
        expected,
        "{kind:?} {value} vs {arguments}"
    );
}

#[test]
fn email_matches_whole_addresses_in_recipients() {
    use MatcherKind::Email;
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "Sarah@Example.com"}),
        true,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "Sarah <sarah@example.com>"}),
        true,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"cc": ["a@b.com", "mailto:sarah@example.com"]}),
        true,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "sarah+x@example.com"}),
        true,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "sarah.connor@example.com"}),
        false,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "asarah@example.com"}),
        false,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "sarah@example.com.au"}),
        false,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"to": "bob@x.com", "body": "cc sarah@example.com later"}),
        false,
    );
    check(
        Email,
        "sarah@example.com",
        "shell",
        json!({"command": "mail -s hi sarah@example.com"}),
        true,
    );
    check(
        Email,
        "sarah@example.com",
        "send_email",
        json!({"message": {"headers": {"To": "SARAH@example.com"}}}),
        true,
    );
}

#[test]
fn domain_matches_subdomains_not_lookalikes() {
    use MatcherKind::Domain;
    check(
        Domain,
        "example.com",
        "browser",
        json!({"url": "https://mail.example.com/x"}),
        true,
    );
    check(
        Domain,
        "example.com",
        "browser",
        json!({"url": "https://notexample.com/"}),
        false,
    );
    check(
        Domain,
        "example.com",
        "send_email",
        json!({"to": "a@sub.example.com"}),
        true,
    );
    check(
        Domain,
        "example.com",
        "send_email",
        json!({"to": "a@example.co"}),
        false,
    );
    check(
        Domain,
        "competitor.com",
        "send_email",
        json!({"to": "a@b.com", "body": "see competitor.com"}),
        false,
    );
}

#[test]
fn url_host_path_and_literal_kinds() {
    check(
        MatcherKind::Url,
        "https://intranet.corp/admin",
        "browser",
        json!({"url": "http://www.intranet.corp/admin/users"}),
        true,
    );
    check(
        MatcherKind::Url,
        "https://intranet.corp/admin",
        "browser",
        json!({"url": "https://intranet.corp/administrator"}),
        false,
    );
    check(
        MatcherKind::Host,
        "prod-db-1",
        "shell",
        json!({"command": "ssh deploy@prod-db-1 uptime"}),
        true,
    );
    check(
        MatcherKind::Host,
        "prod-db-1",
        "shell",
        json!({"command": "ssh prod-db-10"}),
        false,
    );
    check(
        MatcherKind::Host,
        "10.0.0.5",
        "shell",
        json!({"command": "curl http://10.0.0.5:8080/x"}),
        true,
    );
    check(
        MatcherKind::Path,
        "/etc",
        "write_file",
        json!({"path": "//etc/hosts"}),
        true,
    );
    check(
        MatcherKind::Path,
        "/etc",
        "write_file",
        json!({"path": "/home/me/etc/x"}),
        false,
    );
    check(
        MatcherKind::Path,
        ".env",
        "read_file",
        json!({"path": "./app/.env"}),
        true,
    );
    check(
        MatcherKind::Path,
        ".env",
        "read_file",
        json!({"path": "./app/.env.example"}),
        false,
    );
    check(
        MatcherKind::Path,
        "/",
        "shell",
        json!({"command": "rm -rf /"}),
        true,
    );
    check(
        MatcherKind::Path,
        "/",
        "shell",
        json!({"command": "rm -rf /tmp/build"}),
        false,
    );
    check(
        MatcherKind::Literal,
        "project falcon",
        "send_email",
        json!({"body": "Re: Project Falcon launch"}),
        true,
    );
    check(
        MatcherKind::Literal,
        "project falcon",
        "send_email",
        json!({"body": "Project Falconer"}),
        false,
    );
    check(
        MatcherKind::Literal,
        "main",
        "git_push",
        json!({"branch": "maintenance"}),
        false,
    );
    check(
        MatcherKind::Literal,
        "#general",
        "slack_post",
        json!({"channel": "general"}),
        true,
    );
    check(
        MatcherKind::Literal,
        "#general",
        "slack_post",
        json!({"channel": "general-chat"}),
        false,
    );
}

#[test]
fn command_and_flag_kinds() {
    use MatcherKind::{Command, Flag};
    check(
        Command,
        "rm -rf",
        "shell",
        json!({"command": "rm -rf build"}),
        true,
    );
    check(
        Command,
        "rm -rf",
        "shell",
        json!({"command": "rm -fr build"}),
        true,
    );
    check(
        Command,
        "rm -rf",
        "shell",
        json!({"command": "rm -r -f build"}),
        true,
    );
    check(
        Command,
        "rm -rf",
        "shell",
        json!({"command": "rm --recursive --force build"}),
        true,
    );
    check(
        Command,
        "rm -rf",
        "shell",
        json!({"command": "rm -r build"}),
        false,
    );
    check(
        Command,
        "sudo",
        "shell",
        json!({"command": "sudo apt update"}),
        true,
    );
    check(
        Command,
        "sudo",
        "shell",
        json!({"command": "echo pseudocode"}),
        false,
    );
    check(
        Command,
        "git push",
        "shell",
        json!({"command": "cd x && git push origin main"}),
        true,
    );
    check(
        Command,
        "git push",
        "shell",
        json!({"command": "git pull"}),
        false,
    );
    check(
        Command,
        "git push",
        "git_push",
        json!({"remote": "origin"}),
        true,
    );
    check(
        Command,
        "git push --force",
        "git_push",
        json!({"force": true}),
        true,
    );
    check(
        Command,
        "git push --force",
        "git_push",
        json!({"force": false}),
        false,
    );
    check(
        Command,
        "git push --force",
        "shell",
        json!({"argv": ["git", "push", "-f"]}),
        true,
    );
    check(
        Flag,
        "--force",
        "shell",
        json!({"command": "git push --force-with-lease"}),
        false,
    );
    check(
        Flag,
        "--force",
        "shell",
        json!({"command": "git push --force"}),
        true,
    );
    check(
        Flag,
        "--force",
        "shell",
        json!({"command": "git push -f"}),
        true,
    );
    check(
        Flag,
        "--force",
        "shell",
        json!({"command": "tail -f log"}),
        false,
    );
}

#[test]
fn person_matches_name_words_in_recipients() {
    use MatcherKind::Person;
    check(Person, "Sarah", "send_email", json!({"to": "Sarah"}), true);
    check(
        Person,
        "Sarah",
        "send_email",
        json!({"to": "sarah.j@corp.com", "name": "Sarah J"}),
        true,
    );
    check(
        Person,
        "Sarah",
        "send_email",
        json!({"to": "sarahsbakery.com@x.com"}),
        false,
    );
    check(
        Person,
        "Sarah",
        "send_email",
        json!({"to": "bob@x.com", "body": "Hi Sarah"}),
        false,
    );
    check(
        Person,
        "Sarah",
        "send_email",
        json!({"to": "asarah@x.com"}),
        false,
    );
    check(
        Person,
        "Sarah Lee",
        "send_email",
        json!({"to": "Sarah Lee <sl@x.com>"}),
        true,
    );
    check(
        Person,
        "Sarah Lee",
        "send_email",
        json!({"to": "Sarah Kim"}),
        false,
    );
}

#[test]
fn an_address_beats_a_name() {
    let constraint = Constraint::forbid(vec![
        Matcher::new(MatcherKind::Email, "sarah@example.com"),
        Matcher::new(MatcherKind::Person, "Sarah"),
    ]);
    let compiled = CompiledConstraint::new(&constraint).unwrap();
    let hit = |arguments: Value| evaluate(&compiled, &CallView::new("send_email", &arguments));
    assert!(hit(json!({"to": "sarah.lee@corp.com", "name": "Sarah Lee"})).is_none());
    assert_eq!(
        hit(json!({"to": "Sarah"})).unwrap().strength,
        Strength::Weak
    );
    assert_eq!(
        hit(json!({"to": "sarah@example.com"})).unwrap().strength,
        Strength::Strong
    );
}

#[test]
fn requirement_checks_each_invocation_of_the_when_command() {
    let constraint = Constraint::require(vec![Matcher::new(MatcherKind::Flag, "--dry-run")])
        .with_when(vec![Matcher::new(MatcherKind::Command, "terraform")]);
    let compiled = CompiledConstraint::new(&constraint).unwrap();
    let unmet = |tool: &str, arguments: Value| {
        evaluate(&compiled, &CallView::new(tool, &arguments)).is_some()
    };
    assert!(unmet("shell", json!({"command": "terraform apply"})));
    assert!(!unmet(
        "shell",
        json!({"command": "terraform apply --dry-run"})
    ));
    assert!(unmet(
        "shell",
        json!({"command": "terraform plan --dry-run && terraform apply"})
    ));
    assert!(!unmet("shell", json!({"command": "ls -la"})));
    assert!(unmet("terraform", json!({"args": ["apply"]})));
    assert!(!unmet("terraform", json!({"args": ["apply", "--dry-run"]})));
    assert!(!unmet(
        "terraform",
        json!({"subcommand": "plan", "dry_run": true})
    ));
}

#[test]
fn a_word_searched_for_is_text_not_an_action() {
    let restart = |command: &str, expected: bool| {
        check(
            MatcherKind::Literal,
            "restart",
            "bash",
            json!({ "command": command }),
            expected,
        );
    };
    restart("kubectl logs deploy/api | grep -i restart", false);
    restart("rg -n restart docs/", false);
    restart("git grep restart", false);
    // Where it is a path, or beside an invocation that does it, it is found.
    restart("grep -rn foo restart/", true);
    restart("kubectl rollout restart deploy/api; grep restart x", true);
}

#[test]
fn any_handle_is_a_mention_not_an_address() {
    let handle = |command: &str, expected: bool| {
        check(
            MatcherKind::Literal,
            "@*",
            "bash",
            json!({ "command": command }),
            expected,
        );
    };
    handle("git commit -m 'Fix race (thanks @dana)'", true);
    handle(
        "git commit -m 'Mail alerts to oncall@globex.example'",
        false,
    );
    handle("git commit -m '@copilot review: bump'", false);
    handle(
        "gh pr create --title 'Bump deps' --body 'cc @platform-team'",
        false,
    );
}

#[test]
fn a_bare_name_under_a_path_key_is_a_path() {
    check(
        MatcherKind::Path,
        "customer-data/",
        "search_files",
        json!({"path": "customer-data", "regex": "iban"}),
        true,
    );
    check(
        MatcherKind::Path,
        "customer-data/",
        "search_files",
        json!({"path": "src", "regex": "customer-data"}),
        false,
    );
}

#[test]
fn a_mention_in_a_post_reaches_the_person_weakly() {
    let constraint = Constraint::forbid(vec![Matcher::new(MatcherKind::Person, "marco")]);
    let compiled = CompiledConstraint::new(&constraint).expect("compiles");
    let post = |text: &str| {
        let view = CallView::new(
            "mcp__slack__slack_post_message",
            &json!({"channel_id": "C04ENGPLAT", "text": text}),
        );
        evaluate(&compiled, &view).map(|hit| (hit.strength, hit.found))
    };
    assert_eq!(
        post("@Marco the migration is done"),
        Some((Strength::Weak, "@marco".to_owned()))
    );
    assert_eq!(post("@dana the migration is done"), None);
    assert_eq!(post("Marco said the migration is done"), None);
}

/// Every entry of the per-program table of option spellings holds both ways: a rule written
/// with either spelling matches a call written with the other (issue 21, K5).
#[test]
fn option_spellings_are_symmetric() {
    for (program, alias, canonical) in crate::normalize::OPTION_SPELLINGS {
        for (rule, call) in [(alias, canonical), (canonical, alias)] {
            check(
                MatcherKind::Command,
                &format!("{program} {rule}"),
                "bash",
                json!({"command": format!("{program} {call} x")}),
                true,
            );
        }
    }
    // A different option of the same stem is not a spelling of it.
    check(
        MatcherKind::Command,
        "bazel clean --expunge",
        "bash",
        json!({"command": "bazel clean --expunge_later"}),
        false,
    );
}

#[test]
fn a_statement_verb_inside_an_sql_string_is_data() {
    let shell = |command: &str| json!({"command": command});
    check(
        MatcherKind::Literal,
        "delete",
        "bash",
        shell(r#"snowsql -q "SELECT * FROM audit WHERE action = 'DELETE'""#),
        false,
    );
    check(
        MatcherKind::Literal,
        "drop",
        "bash",
        shell("sqlite3 db \"select * from t where op in ('x', 'DROP')\""),
        false,
    );
    // A shell's quote around the statement keeps it a statement.
    check(
        MatcherKind::Literal,
        "delete",
        "bash",
        shell("psql -c 'DELETE FROM t'"),
        true,
    );
    check(
        MatcherKind::Literal,
        "delete",
        "bash",
        shell(r#"snowsql -q "DELETE FROM audit WHERE action = 'x'""#),
        true,
    );
    assert_eq!(
        sql_strings_blanked("a = 'it''s drop' drop"),
        "a = '          ' drop"
    );
}

#[test]
fn a_required_value_with_placeholders_takes_any_value_they_spell() {
    assert!(fills_placeholders("n", "3"));
    assert!(!fills_placeholders("n", "three"));
    assert!(fills_placeholders("local[n]", "local[4]"));
    assert!(!fills_placeholders("local[n]", "local[x]"));
    assert!(
        fills_placeholders("local[*]", "local[*]") && fills_placeholders("local[*]", "local[8]")
    );
    assert!(fills_placeholders("{env}-db", "dev-db") && !fills_placeholders("{env}-db", "-db"));
    assert!(fills_placeholders("<name>", "api"));
    // No placeholder: no other value is the one wanted.
    assert!(!fills_placeholders("dev", "prod"));
}

#[test]
fn a_dry_run_is_no_run_unless_the_rule_names_the_dry_run() {
    use MatcherKind::{Command, Flag};
    let shell = |command: &str| json!({ "command": command });
    check(
        Command,
        "npm publish",
        "Bash",
        shell("npm publish --dry-run"),
        false,
    );
    check(
        Command,
        "npm publish",
        "Bash",
        shell("npm publish --access public"),
        true,
    );
    check(
        Command,
        "git push",
        "Bash",
        shell("git push -n origin main"),
        false,
    );
    check(
        Command,
        "git fetch",
        "Bash",
        shell("git fetch -n origin"),
        true,
    );
    check(
        Command,
        "rsync",
        "Bash",
        shell("rsync -avn ./a host:/b"),
        false,
    );
    check(
        Command,
        "make deploy",
        "Bash",
        shell("make -n deploy"),
        false,
    );
    check(
        Command,
        "kubectl apply",
        "Bash",
        shell("kubectl apply --dry-run=client -f x.yaml"),
        false,
    );
    check(
        Command,
        "kubectl apply",
        "Bash",
        shell("kubectl apply --dry-run=none -f x.yaml"),
        true,
    );
    check(
        Command,
        "remove-item",
        "Bash",
        shell("Remove-Item -Recurse C:\\x -WhatIf"),
        false,
    );
    check(
        Command,
        "ansible-playbook",
        "Bash",
        shell("ansible-playbook -C site.yml"),
        false,
    );
    // The rule is about the dry run itself.
    check(
        Command,
        "npm publish --dry-run",
        "Bash",
        shell("npm publish --dry-run"),
        true,
    );
    check(
        Flag,
        "--dry-run",
        "Bash",
        shell("kubectl apply --dry-run=server -f x.yaml"),
        true,
    );
    // A tool's own dry-run argument.
    check(
        Command,
        "npm publish",
        "npm_publish",
        json!({"dry_run": true}),
        false,
    );
    check(
        Command,
        "npm publish",
        "npm_publish",
        json!({"tag": "next"}),
        true,
    );
}

#[test]
fn windows_paths_keep_their_backslashes_as_separators() {
    use MatcherKind::Path;
    let shell = |command: &str| json!({ "command": command });
    // A cmdlet's line, a cmd command's line, and a Windows-shaped word in any line.
    check(
        Path,
        "build/out",
        "Bash",
        shell("Remove-Item -Recurse .\\build\\out"),
        true,
    );
    check(
        Path,
        "C:\\Data\\Archive",
        "Bash",
        shell("del c:\\data\\archive\\x.txt"),
        true,
    );
    check(
        Path,
        "envs/prod/x.tfvars",
        "Bash",
        shell("type envs\\prod\\x.tfvars"),
        true,
    );
    check(
        Path,
        "C:/Data/Archive",
        "Bash",
        shell("rm -r C:\\Data\\Archive\\2023"),
        true,
    );
    check(
        Path,
        "c:/data/archive",
        "Bash",
        shell("rm -r C:\\Data\\Incoming"),
        false,
    );
    // In a POSIX line too, `.\build\out` is no `.buildout`.
    check(Path, "buildout", "Bash", shell("rm .\\build\\out"), false);
}

#[test]
fn a_short_option_named_with_its_value_is_found_before_that_value() {
    use MatcherKind::Flag;
    let shell = |command: &str| json!({"command": command});
    check(
        Flag,
        "-t=wipe",
        "Bash",
        shell("flashtool -t wipe /dev/sdb"),
        true,
    );
    check(
        Flag,
        "-t=wipe",
        "Bash",
        shell("flashtool -t verify /dev/sdb"),
        false,
    );
    // Another option's value is not this one's.
    check(
        Flag,
        "-t=wipe",
        "Bash",
        shell("flashtool -m wipe /dev/sdb"),
        false,
    );
}

#[test]
fn a_name_pattern_with_punctuation_matches_names_with_or_without_their_sigil() {
    use MatcherKind::Literal;
    let post = |channel: &str| json!({"channel": channel, "text": "update"});
    check(
        Literal,
        "#incident-*",
        "mcp__slack__post_message",
        post("#incident-4411"),
        true,
    );
    check(
        Literal,
        "#incident-*",
        "mcp__slack__post_message",
        post("incident-4412"),
        true,
    );
    check(
        Literal,
        "#incident-*",
        "mcp__slack__post_message",
        post("#eng-incidents"),
        false,
    );
    check(
        Literal,
        "cust-*",
        "mcp__slack__post_message",
        post("#cust-globex"),
        true,
    );
    let shell = |command: &str| json!({"command": command});
    check(
        Literal,
        "release-*",
        "Bash",
        shell("git push origin :release-2.4"),
        true,
    );
    check(
        Literal,
        "release-*",
        "Bash",
        shell("git push origin prerelease-2.4"),
        false,
    );
}

#[test]
fn an_environment_s_name_is_found_in_host_variables_and_variable_names() {
    use MatcherKind::Literal;
    let shell = |command: &str| json!({"command": command});
    check(
        Literal,
        "prod",
        "Bash",
        shell("PGHOST=db.prod.internal psql -c 'select 1'"),
        true,
    );
    check(
        Literal,
        "prod",
        "Bash",
        shell("mongosh \"$PROD_MONGO_URI\""),
        true,
    );
    check(
        Literal,
        "prod",
        "Bash",
        shell("psql \"${DATABASE_URL_PROD}\""),
        true,
    );
    check(
        Literal,
        "prod",
        "Bash",
        shell("redis-cli -u \"$DEV_REDIS_URL\" ping"),
        false,
    );
    check(
        Literal,
        "prod",
        "Bash",
        shell("echo \"$PRODUCT_ID\""),
        false,
    );
}

#[test]
fn options_between_a_program_and_its_subcommand_are_skipped() {
    for (rule, call, expected) in [
        ("hg strip", "hg -R /srv/repo strip 12", true),
        ("p4 submit", "p4 -u alice -c alice-ws submit -d x", true),
        (
            "svn delete",
            "svn --username bob --non-interactive delete ^/x",
            true,
        ),
        ("p4 submit", "p4 -u alice -c alice-ws opened", false),
        // The value of an option is no subcommand, whatever it is called.
        ("p4 submit", "p4 -c submit-fixes opened", false),
        // Only the words before the subcommand: an argument after it is no subcommand.
        ("hg strip", "hg log strip", false),
    ] {
        check(
            MatcherKind::Command,
            rule,
            "Bash",
            json!({ "command": call }),
            expected,
        );
    }
}

#[test]
fn a_script_and_a_command_of_its_name_are_one_program() {
    for (rule, call, expected) in [
        (
            "kafka-configs --alter",
            "/opt/kafka/bin/kafka-configs.sh --alter",
            true,
        ),
        ("kafka-configs.sh --alter", "kafka-configs --alter", true),
        ("esptool.py erase_flash", "esptool erase-flash", true),
        (
            "esptool erase_flash",
            "python3 -m esptool erase_flash",
            true,
        ),
        ("purge-accounts", "./bin/purge-accounts-report.sh", false),
        // `_` and `-` are one only in the subcommand, not in a file argument.
        ("rm data_old", "rm data-old", false),
    ] {
        check(
            MatcherKind::Command,
            rule,
            "Bash",
            json!({ "command": call }),
            expected,
        );
    }
}

#[test]
fn a_placeholder_names_no_word_and_a_given_value_is_required() {
    for (rule, call, expected) in [
        (
            "nomad job stop ... -namespace=prod",
            "nomad job stop -namespace=prod web",
            true,
        ),
        (
            "nomad job stop -namespace=prod",
            "nomad job stop -namespace=dev web",
            false,
        ),
        (
            "rabbitmqadmin purge queue --vhost=live",
            "rabbitmqadmin --vhost live purge queue name=q",
            true,
        ),
        (
            "rabbitmqadmin purge queue --vhost=live",
            "rabbitmqadmin --vhost=test purge queue name=q",
            false,
        ),
        // A value that only turns the option on is the option.
        ("git push --force=yes", "git push --force", true),
    ] {
        check(
            MatcherKind::Command,
            rule,
            "Bash",
            json!({ "command": call }),
            expected,
        );
    }
}
