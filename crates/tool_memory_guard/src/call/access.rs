//! Whether a call only reads: a rule about changing things ("never write to /etc/**", "never
//! delete anything from the bucket") does not concern it. Judged from the tool's family and,
//! for a command line, from every program it runs; anything not known to only read is taken
//! as a change, so a rule is never narrowed on a guess.

use tool_memory_core::ToolFamily;

use super::lexicon::{READ_ONLY_COMMANDS, READ_TOOL_WORDS, SHELLS, WRAPPERS, WRITE_TOOL_WORDS};
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
            !invocations.is_empty() && invocations.iter().all(invocation_only_reads)
        }
        // A host's or an MCP server's tool: its name says what it does (`read_file`,
        // `list_objects`), and a name with a verb of change in it is a change.
        None => {
            let has = |list: &[&str]| tool_words.iter().any(|word| list.contains(&word.as_str()));
            has(READ_TOOL_WORDS) && !has(WRITE_TOOL_WORDS)
        }
    }
}

/// Whether one invocation only reads: a wrapper (`sudo`, `xargs`) runs what follows, which is
/// judged on its own; a program on the read-only list with one of its reading subcommands,
/// no flag that makes it write (`sed -i`, `find -delete`) and no output redirected to a file.
fn invocation_only_reads(invocation: &Invocation) -> bool {
    // A wrapper, or a shell given a command (`bash -lc "..."`), runs what follows, which is
    // an invocation of its own.
    let shell_with_command = SHELLS.contains(&invocation.program.as_str())
        && invocation.flags.iter().any(|flag| flag == "-c");
    if WRAPPERS.contains(&invocation.program.as_str()) || shell_with_command {
        return true;
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
