//! Whether a call only reads: a rule about changing things ("never write to /etc/**", "never
//! delete anything from the bucket") does not concern it. Judged from the tool's family and,
//! for a command line, from every program it runs; anything not known to only read is taken
//! as a change, so a rule is never narrowed on a guess.

use tool_memory_core::ToolFamily;

use super::lexicon::{
    READ_ONLY_COMMANDS, READ_TOOL_WORDS, READ_VERB_COMMANDS, SHELLS, SQL_CLIENTS,
    SQL_READ_STATEMENTS, SQL_WRITE_STATEMENTS, WRAPPERS, WRITE_TOOL_WORDS,
};
use super::shell::Invocation;

/// Whether a call of a tool of `family` (named by `tool_words`) that runs `invocations` only
/// reads.
pub(crate) fn only_reads(
    family: Option<ToolFamily>,
    tool_words: &[String],
    invocations: &[Invocation],
) -> bool {
    match family {
        Some(ToolFamily::FileRead | ToolFamily::WebFetch | ToolFamily::WebSearch) => true,
        Some(ToolFamily::FileEdit) => false,
        Some(ToolFamily::Shell) => {
            !invocations.is_empty()
                && (0..invocations.len()).all(|at| invocation_reads(invocations, at))
        }
        // A host's or an MCP server's tool: its name says what it does (`read_file`,
        // `list_objects`), and a name with a verb of change in it is a change.
        None => {
            let has = |list: &[&str]| tool_words.iter().any(|word| list.contains(&word.as_str()));
            has(READ_TOOL_WORDS) && !has(WRITE_TOOL_WORDS)
        }
    }
}

/// Whether the invocation at `at` of a call's list only reads: a statement of an SQL client's
/// command (`DELETE` in `psql -c "DELETE ..."`) is judged with its client.
pub(crate) fn invocation_reads(invocations: &[Invocation], at: usize) -> bool {
    let invocation = &invocations[at];
    let statement = invocation
        .parent
        .and_then(|parent| invocations.get(parent))
        .is_some_and(|parent| SQL_CLIENTS.contains(&parent.program.as_str()));
    statement || invocation_only_reads(invocation)
}

/// Whether one invocation only reads: a wrapper (`sudo`, `xargs`) runs what follows, which is
/// judged on its own; a program on the read-only list with one of its reading subcommands,
/// no flag that makes it write (`sed -i`, `find -delete`) and no output redirected to a file;
/// a CLI whose first words are a verb of reading (`gcloud ... list`, `aws ec2
/// describe-instances`); an SQL client whose command's statements all read.
pub(crate) fn invocation_only_reads(invocation: &Invocation) -> bool {
    // A wrapper, or a shell given a command (`bash -lc "..."`), runs what follows, which is
    // an invocation of its own.
    let shell_with_command = SHELLS.contains(&invocation.program.as_str())
        && invocation.flags.iter().any(|flag| flag == "-c");
    if WRAPPERS.contains(&invocation.program.as_str()) || shell_with_command {
        return true;
    }
    if SQL_CLIENTS.contains(&invocation.program.as_str()) {
        // The statements of its command: `-c`/`--command` (psql), `-e`/`--execute` (mysql).
        let mut statements = invocation
            .values
            .iter()
            .filter(|(flag, _)| matches!(flag.as_str(), "-c" | "--command" | "-e" | "--execute"))
            .map(|(_, value)| value.as_str())
            .peekable();
        return statements.peek().is_some()
            && statements.all(statements_only_read)
            && !redirects_output(&invocation.positional);
    }
    if let Some((_, verbs, prefixes)) = READ_VERB_COMMANDS
        .iter()
        .find(|(program, ..)| *program == invocation.program)
    {
        let first_words = || invocation.positional.iter().take(READ_VERB_DEPTH);
        let reads = first_words().any(|word| {
            verbs.contains(&word.as_str()) || prefixes.iter().any(|prefix| word.starts_with(prefix))
        });
        // `gcloud run services describe`: Cloud Run's group, not a verb of change.
        let changes = first_words().any(|word| {
            WRITE_TOOL_WORDS.contains(&word.as_str())
                && !VERB_LIKE_GROUPS.contains(&(invocation.program.as_str(), word.as_str()))
        });
        return reads && !changes && !redirects_output(&invocation.positional);
    }
    let Some((_, subcommands, writing_flags)) = READ_ONLY_COMMANDS
        .iter()
        .find(|(program, ..)| *program == invocation.program)
    else {
        return false;
    };
    let subcommand_reads = subcommands.is_empty()
        || subcommands.iter().any(|subcommand| {
            let words: Vec<&str> = subcommand.split(' ').collect();
            invocation.positional.len() >= words.len()
                && invocation
                    .positional
                    .iter()
                    .zip(&words)
                    .all(|(a, b)| a == b)
        });
    let writes = invocation.flags.iter().any(|flag| {
        writing_flags
            .iter()
            .any(|writing| flag == writing || flag.starts_with(&format!("{writing}=")))
            || (writing_flags.contains(&"-i") && flag.starts_with("-i"))
    });
    subcommand_reads && !writes && !redirects_output(&invocation.positional)
}

/// Whether the words redirect output to a file (`> out.txt`, `>>log`, `2>err`); `/dev/null`
/// and another descriptor (`2>&1`) are not files.
fn redirects_output(words: &[String]) -> bool {
    words.iter().enumerate().any(|(at, word)| {
        let Some(split) = word.rfind('>') else {
            return false;
        };
        let target = match &word[split + 1..] {
            "" => words.get(at + 1).map_or("", String::as_str),
            rest => rest,
        };
        !(target == "/dev/null" || target.starts_with('&'))
    })
}

/// How many of a CLI's first words may name its verb (`gcloud compute instances list`: the
/// third; `gcloud config get-value`: the second).
const READ_VERB_DEPTH: usize = 4;

/// Command groups of a CLI named like a verb of change (`gcloud run` is Cloud Run, `gcloud
/// deploy` Cloud Deploy): a verb of reading after them reads.
const VERB_LIKE_GROUPS: &[(&str, &str)] = &[("gcloud", "deploy"), ("gcloud", "run")];

/// Whether SQL statements only read: each statement (after `;`) starts with a statement that
/// reads (`SELECT`, `WITH`, `SHOW`, `EXPLAIN`, or a psql meta-command such as `\\dt`), and no
/// statement or parenthesised body (a CTE, a subquery) starts with one that writes: `WITH gone
/// AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone` deletes.
pub(crate) fn statements_only_read(sql: &str) -> bool {
    let lower = sql.to_lowercase();
    let first_word = |text: &str| -> String {
        text.trim_start()
            .split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '\\'))
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let statements_read = lower.split(';').all(|statement| {
        let word = first_word(statement);
        word.is_empty() || word.starts_with('\\') || SQL_READ_STATEMENTS.contains(&word.as_str())
    });
    let bodies_read = lower
        .split(['(', ';'])
        .all(|body| !SQL_WRITE_STATEMENTS.contains(&first_word(body).as_str()));
    statements_read && bodies_read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::parse_command_line;
    use crate::limits::Budget;

    fn reads(line: &str) -> bool {
        let mut invocations = Vec::new();
        parse_command_line(line, 0, &mut invocations, &Budget::default());
        only_reads(Some(ToolFamily::Shell), &[], &invocations)
    }

    #[test]
    fn a_cli_reads_when_its_verb_does() {
        for (line, expected) in [
            ("aws ec2 describe-instances --region eu-west-1", true),
            ("aws sts get-caller-identity", true),
            ("aws s3 ls s3://logs/", true),
            ("aws ec2 terminate-instances --instance-ids i-1", false),
            ("aws iam create-user --user-name bot", false),
            ("gcloud compute instances list", true),
            ("gcloud config get-value project", true),
            ("gcloud compute instances delete vm-1", false),
            ("gh pr view 12", true),
            ("gh pr merge 12 --squash", false),
            ("kubectl get pods -n web", true),
            ("kubectl rollout restart deploy/api", false),
        ] {
            assert_eq!(reads(line), expected, "{line}");
        }
    }

    #[test]
    fn an_sql_client_reads_when_its_statements_do() {
        for (line, expected) in [
            ("psql -h db -c \"SELECT count(*) FROM users\"", true),
            ("psql -h db -c 'select replace(name, a, b) from t'", true),
            ("psql -h db -c \"DELETE FROM sessions\"", false),
            (
                "psql -c \"WITH gone AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone\"",
                false,
            ),
            ("psql -c 'select 1; drop table users'", false),
            ("mysql -u root -e \"SHOW TABLES\"", true),
            ("psql -h db", false),
            ("psql -c 'select 1' > out.txt", false),
        ] {
            assert_eq!(reads(line), expected, "{line}");
        }
        assert!(statements_only_read("\\dt"));
        assert!(!statements_only_read("insert into t select * from u"));
    }
}
