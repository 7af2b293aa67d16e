//! One set of rules across agents. Claude Code's shell is `Bash`, Gemini CLI's
//! `run_shell_command`, Codex's `shell`: core's [`ToolFamily`] table says which tools do the same
//! thing, and this module makes the facade read it. A check of one member is decided by the
//! rules of every member (and of the family's own name, `file_edit`), and a session's pinned
//! block for one member shows them all; a tool of no family (every `mcp__server__tool`) keeps
//! its own rules only.
//!
//! Each agent also shapes a call's arguments its own way. [`canonical_arguments`] rewrites the
//! shapes that hide what a call does behind a wrapper (Codex's `["bash","-lc","..."]`, a patch's
//! file headers) into the shape the guard reads for every agent: `{"command": "<command
//! line>"}` for a shell, the touched paths beside the patch for `apply_patch` (the patch read
//! from `input`, `patch` or `command`).

use std::borrow::Cow;

use serde_json::Value;
use tool_memory_core::{ToolFamily, mcp_key, mcp_tool_part, normalize_tool_name};
use tool_memory_guard::tools_sharing_rules;

/// The family of a tool: by a member's name (`Bash`, `run_shell_command`) or by the family's
/// own name (`shell`, `file_edit`), so that a rule can be written on the family itself. `None`
/// for a tool of no family, which includes every MCP tool.
pub fn tool_family(tool_name: &str) -> Option<ToolFamily> {
    ToolFamily::of(tool_name).or_else(|| {
        let name = normalize_tool_name(tool_name);
        ToolFamily::ALL
            .into_iter()
            .find(|family| family.as_str() == name)
    })
}

/// The family whose rules hold for a call of `tool_name`: [`tool_family`], or for a tool of
/// an MCP server the family of its own name (`mcp__filesystem__write_file` edits files,
/// `mcp__desktop-commander__start_process` runs a command line), so that a model cannot step
/// around "never edit `.env`" through an MCP server. The rules stored on an MCP tool stay its
/// own ([`tool_family`] of it is `None`).
pub(crate) fn call_family(tool_name: &str) -> Option<ToolFamily> {
    tool_family(tool_name).or_else(|| ToolFamily::of_call(tool_name))
}

/// The normalised tools whose rules apply to a call of `tool` (itself normalised): the tool
/// first, then the tools the guard says share its rules (the members of the family the call
/// is of, and the shell's for a tool named after a program, `git` or `mcp__git__git_push`:
/// `tool_memory_guard::tools_sharing_rules`), then the family's own name and any member not
/// yet listed.
pub(crate) fn rule_scope(tool: &str) -> Vec<String> {
    let mut scope = tools_sharing_rules(tool);
    if scope.first().map(String::as_str) != Some(tool) {
        scope.retain(|name| name != tool);
        scope.insert(0, tool.to_owned());
    }
    // Rules can be written on a family by its name: each family listed is listed by name too.
    let mut families: Vec<ToolFamily> = call_family(tool)
        .into_iter()
        .chain(scope.iter().filter_map(|name| ToolFamily::of(name)))
        .collect();
    families.sort_unstable();
    families.dedup();
    for family in families {
        let others = std::iter::once(family.as_str()).chain(family.members().iter().copied());
        for name in others {
            if !scope.iter().any(|known| known == name) {
                scope.push(name.to_owned());
            }
        }
    }
    scope
}

/// The own name of an MCP tool an agent names without its server: Cursor's `MCP:delete_issue`
/// (its `beforeMCPExecution` hook gives `delete_issue`, which its adapter names so), lower-case
/// with `-` read as `_` as servers spell it either way; `None` for any other name.
pub(crate) fn bare_mcp_name(tool_name: &str) -> Option<String> {
    let name = tool_name.trim();
    let (prefix, rest) = name.split_at_checked(4)?;
    let bare = rest.trim();
    (prefix.eq_ignore_ascii_case("mcp:") && !bare.is_empty() && !bare.contains("__"))
        .then(|| bare.to_lowercase().replace('-', "_"))
}

/// The MCP tool a call of a proxy tool calls, and the arguments it passes on: Cline's
/// `use_mcp_tool {"server_name", "tool_name", "arguments"}` calls `tool_name` of the server,
/// which is named here without its server (`MCP:<tool>`), since Cline names servers otherwise
/// than the agents whose rules name them. The guard reads the call
/// (`tool_memory_guard::proxied_mcp_call`); `None` for any other call.
pub(crate) fn proxied_mcp_call(tool_name: &str, arguments: &Value) -> Option<(String, Value)> {
    tool_memory_guard::proxied_mcp_call(tool_name, arguments)
        .map(|(tool, passed)| (format!("MCP:{tool}"), passed))
}

/// Whether a stored tool is an MCP server's tool of the own name `bare`
/// (`mcp__linear__delete_issue` for `delete_issue`). Gemini CLI's `mcp_server_tool` does not
/// say where the server's name ends, so any tail of it after a `_` may be the own name: a tool
/// of another server whose name ends in the same words is taken too, which can only make a
/// check stricter.
pub(crate) fn is_mcp_tool_named(tool: &str, bare: &str) -> bool {
    if tool.contains("__") {
        return mcp_tool_part(tool).as_deref() == Some(bare);
    }
    mcp_key(tool).is_some_and(|key| {
        key.strip_suffix(bare)
            .is_some_and(|server| server.ends_with('_'))
    })
}

/// `tools` with every family member of each added (normalised, each once, in first-seen
/// order); empty stays empty, which means every tool.
pub(crate) fn expand_tools(tools: &[String]) -> Vec<String> {
    let mut expanded: Vec<String> = Vec::new();
    for tool in tools {
        for name in rule_scope(&normalize_tool_name(tool)) {
            if !expanded.contains(&name) {
                expanded.push(name);
            }
        }
    }
    expanded
}

/// Programs that run their `-c` argument as a script: what `["bash","-lc","..."]` wraps.
const SCRIPT_SHELLS: &[&str] = &["ash", "bash", "dash", "fish", "ksh", "sh", "zsh"];

/// The arguments of a call of `tool` (normalised) in the shape the guard reads for every
/// agent. Borrowed, unchanged, whenever nothing needs rewriting.
///
/// - A shell whose `command` is an argv array: the array becomes one command line, the
///   script itself when the array is a shell running a script (`bash -lc "..."`, `sh -c`,
///   `cmd /c`, `powershell -Command`), so that Codex's shell call reads like Claude Code's
///   `Bash {"command": "..."}`.
/// - `apply_patch`: the files its patch adds, updates, deletes or moves to are added as
///   `file_paths`, because a patch names them only in its header lines.
pub fn canonical_arguments<'a>(tool: &str, arguments: &'a Value) -> Cow<'a, Value> {
    match call_family(tool) {
        Some(ToolFamily::Shell) => shell_arguments(arguments),
        Some(ToolFamily::FileEdit) if normalize_tool_name(tool) == "apply_patch" => {
            patch_arguments(arguments)
        }
        _ => Cow::Borrowed(arguments),
    }
}

fn shell_arguments(arguments: &Value) -> Cow<'_, Value> {
    let Some(Value::Array(argv)) = arguments.get("command") else {
        return Cow::Borrowed(arguments);
    };
    let Some(words) = argv
        .iter()
        .map(Value::as_str)
        .collect::<Option<Vec<&str>>>()
    else {
        return Cow::Borrowed(arguments);
    };
    if words.is_empty() {
        return Cow::Borrowed(arguments);
    }
    let line = script_of(&words).map_or_else(|| join_argv(&words), str::to_owned);
    let mut rewritten = arguments.clone();
    rewritten["command"] = Value::String(line);
    Cow::Owned(rewritten)
}

/// The script an argv runs when it is a shell given one (`bash -lc SCRIPT`, `sh -c SCRIPT`,
/// `cmd /c SCRIPT`, `pwsh -Command SCRIPT`); `None` for any other argv.
fn script_of<'a>(words: &[&'a str]) -> Option<&'a str> {
    let [program, flag, script] = words else {
        return None;
    };
    let program = program
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(program)
        .to_lowercase();
    let program = program.strip_suffix(".exe").unwrap_or(&program);
    let runs_script = if SCRIPT_SHELLS.contains(&program) {
        // `-c`, `-lc`, `-ic`, `-lic`: short flags bundled with `c`.
        flag.len() >= 2
            && flag.starts_with('-')
            && !flag.starts_with("--")
            && flag.contains('c')
            && flag[1..].chars().all(|c| c.is_ascii_alphabetic())
    } else if program == "cmd" {
        flag.eq_ignore_ascii_case("/c") || flag.eq_ignore_ascii_case("/k")
    } else if matches!(program, "powershell" | "pwsh") {
        flag.eq_ignore_ascii_case("-command") || flag.eq_ignore_ascii_case("-c")
    } else {
        false
    };
    runs_script.then_some(*script)
}

/// An argv as one POSIX command line: a word with anything a shell would read specially is
/// single-quoted.
fn join_argv(words: &[&str]) -> String {
    let plain = |word: &str| {
        !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_alphanumeric() || "-_./=:,+@%".contains(c))
    };
    words
        .iter()
        .map(|word| {
            if plain(word) {
                (*word).to_owned()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The header lines of a patch in the `apply_patch` format that name a file.
const PATCH_FILE_HEADERS: &[&str] = &[
    "*** Add File: ",
    "*** Update File: ",
    "*** Delete File: ",
    "*** Move to: ",
];

fn patch_arguments(arguments: &Value) -> Cow<'_, Value> {
    let patch = match arguments {
        Value::String(patch) => Some(patch.as_str()),
        // `input` is the model's own argument; Codex's hooks hand the patch over as `command`.
        Value::Object(map) => ["input", "patch", "command"]
            .iter()
            .find_map(|key| map.get(*key).and_then(Value::as_str)),
        _ => None,
    };
    let Some(patch) = patch else {
        return Cow::Borrowed(arguments);
    };
    let paths: Vec<Value> = patch
        .lines()
        .filter_map(|line| {
            PATCH_FILE_HEADERS
                .iter()
                .find_map(|header| line.strip_prefix(header))
        })
        .map(|path| Value::String(path.trim().to_owned()))
        .collect();
    if paths.is_empty() {
        return Cow::Borrowed(arguments);
    }
    let mut rewritten = match arguments {
        Value::Object(map) => Value::Object(map.clone()),
        other => serde_json::json!({ "input": other }),
    };
    rewritten["file_paths"] = Value::Array(paths);
    Cow::Owned(rewritten)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn scope_is_the_tool_then_its_family() {
        let scope = rule_scope("run_shell_command");
        assert_eq!(scope[0], "run_shell_command");
        assert!(scope.contains(&"bash".to_owned()) && scope.contains(&"shell".to_owned()));
        // The file families lend a shell their path bans; each family is listed by name.
        assert!(scope.contains(&"read".to_owned()) && scope.contains(&"file_edit".to_owned()));
        let mut unique = scope.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), scope.len(), "each tool once: {scope:?}");
        assert_eq!(
            scope.len(),
            ToolFamily::Shell.members().len()
                + ToolFamily::FileRead.members().len()
                + ToolFamily::FileEdit.members().len()
                + 2,
            "shell is both the family and a member, listed once: {scope:?}"
        );
        assert!(rule_scope("file_edit").contains(&"write".to_owned()));
        assert_eq!(
            rule_scope("mcp__github__merge_pull_request"),
            ["mcp__github__merge_pull_request"]
        );
        // A tool named after a program runs it through a shell: the shell's rules hold.
        assert!(rule_scope("git").contains(&"bash".to_owned()));
        // A call through an MCP server is of the family of the tool's own name.
        let through_mcp = rule_scope("mcp__filesystem__write_file");
        assert_eq!(through_mcp[0], "mcp__filesystem__write_file");
        assert!(
            through_mcp.contains(&"file_edit".to_owned())
                && through_mcp.contains(&"edit".to_owned())
        );
        assert!(rule_scope("mcp__git__git_push").contains(&"bash".to_owned()));
    }

    #[test]
    fn a_cursor_mcp_name_is_a_bare_mcp_name() {
        assert_eq!(
            bare_mcp_name("MCP:delete_issue").as_deref(),
            Some("delete_issue")
        );
        assert_eq!(
            bare_mcp_name(" mcp:Delete-Issue ").as_deref(),
            Some("delete_issue")
        );
        assert_eq!(bare_mcp_name("mcp__linear__delete_issue"), None);
        assert_eq!(bare_mcp_name("MCP:"), None);
        assert_eq!(bare_mcp_name("delete_issue"), None);
        assert_eq!(bare_mcp_name("é"), None);
    }

    #[test]
    fn shell_argv_becomes_one_command_line() {
        let check = |arguments: Value, expected: &str| {
            let canonical = canonical_arguments("shell", &arguments);
            assert_eq!(canonical["command"], expected, "{arguments}");
        };
        check(
            json!({"command": ["bash", "-lc", "terraform apply"], "workdir": "/w"}),
            "terraform apply",
        );
        check(
            json!({"command": ["/bin/sh", "-c", "rm -rf x"]}),
            "rm -rf x",
        );
        check(json!({"command": ["cmd.exe", "/C", "del x"]}), "del x");
        check(
            json!({"command": ["git", "push", "--force"]}),
            "git push --force",
        );
        check(
            json!({"command": ["git", "commit", "-m", "it's done"]}),
            r"git commit -m 'it'\''s done'",
        );
        // A shell without a script flag is an ordinary argv.
        check(json!({"command": ["bash", "-l", "x"]}), "bash -l x");
        let string = json!({"command": "ls"});
        assert!(matches!(
            canonical_arguments("Bash", &string),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_patch_names_its_files() {
        let arguments = json!({"input": "*** Begin Patch\n*** Update File: src/.env\n@@\n-a\n+b\n*** Add File: b.rs\n*** End Patch"});
        let canonical = canonical_arguments("apply_patch", &arguments);
        assert_eq!(canonical["file_paths"], json!(["src/.env", "b.rs"]));
        assert_eq!(canonical["input"], arguments["input"]);
        // Codex's hook payload for a patch.
        let hooked = json!({"command": "*** Begin Patch\n*** Delete File: secrets/key.pem\n*** End Patch\n"});
        let canonical = canonical_arguments("apply_patch", &hooked);
        assert_eq!(canonical["file_paths"], json!(["secrets/key.pem"]));
        let other = json!({"file_path": "a"});
        assert!(matches!(
            canonical_arguments("Edit", &other),
            Cow::Borrowed(_)
        ));
    }
}
