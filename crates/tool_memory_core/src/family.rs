//! Tool families: what a tool does, whatever an agent calls it. Claude Code's shell is `Bash`,
//! Gemini CLI's `run_shell_command`, Codex's `shell`, Cursor's `run_terminal_cmd`, Cline's
//! `execute_command`, Windsurf's `run_command`; a rule said about one of them is about all of
//! them, so a user's rules follow them from agent to agent.
//!
//! The table is data: one list per family, sorted, one normalised (lower-case) tool name per
//! line, from each agent's own documentation or source (`tests/fixtures/catalogues/` records
//! where each name comes from). Only an agent's built-in tools are listed, and the names the
//! common MCP servers give the same actions (the reference filesystem server's
//! `read_text_file`, Desktop Commander's `edit_block`). A tool of an MCP server
//! (`mcp__server__tool`) or a host's own tool is of no family by [`ToolFamily::of`]: a rule
//! stored on it stays on it. A *call* of an MCP tool whose own name is a member's
//! (`mcp__filesystem__write_file`) is that family's by [`ToolFamily::of_call`], so the
//! family's rules hold for it: a model cannot step around "never edit `.env`" by writing the
//! file through an MCP server. [`mcp_key`] is an MCP tool's identity across agents' spellings.

use std::fmt;

/// What a tool does, as far as rules about it are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ToolFamily {
    /// Runs a command line.
    Shell,
    /// Creates, changes or deletes files.
    FileEdit,
    /// Reads, lists or searches files.
    FileRead,
    /// Fetches a URL or drives a browser.
    WebFetch,
    /// Searches the web.
    WebSearch,
}

impl ToolFamily {
    /// Every family.
    pub const ALL: [ToolFamily; 5] = [
        ToolFamily::Shell,
        ToolFamily::FileEdit,
        ToolFamily::FileRead,
        ToolFamily::WebFetch,
        ToolFamily::WebSearch,
    ];

    /// The family's name in docs and output.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolFamily::Shell => "shell",
            ToolFamily::FileEdit => "file_edit",
            ToolFamily::FileRead => "file_read",
            ToolFamily::WebFetch => "web_fetch",
            ToolFamily::WebSearch => "web_search",
        }
    }

    /// The normalised names of the family's tools, sorted.
    pub fn members(self) -> &'static [&'static str] {
        match self {
            ToolFamily::Shell => SHELL,
            ToolFamily::FileEdit => FILE_EDIT,
            ToolFamily::FileRead => FILE_READ,
            ToolFamily::WebFetch => WEB_FETCH,
            ToolFamily::WebSearch => WEB_SEARCH,
        }
    }

    /// The family of a tool, by its name (trimmed and lower-cased first); `None` for a tool of
    /// no family, which includes every MCP tool.
    pub fn of(tool_name: &str) -> Option<ToolFamily> {
        let name = tool_name.trim();
        let lower;
        let name = if name.bytes().any(|byte| byte.is_ascii_uppercase()) {
            lower = name.to_lowercase();
            lower.as_str()
        } else {
            name
        };
        ToolFamily::ALL
            .into_iter()
            .find(|family| family.members().binary_search(&name).is_ok())
    }

    /// The family whose rules hold for a call of `tool_name`: [`ToolFamily::of`] the name, or
    /// else of the MCP tool's own name after its server (`mcp__filesystem__write_file` →
    /// `write_file`, Gemini CLI's `server__tool` → `tool`).
    ///
    /// Gemini CLI names an MCP tool `mcp_server_tool`, with single underscores, so where the
    /// server's name ends is not written: the longest tail after the server's first word that
    /// is a member's name decides (`mcp_filesystem_write_file` → `write_file`,
    /// `mcp_desktop_commander_start_process` → `start_process`).
    ///
    /// An MCP tool that runs commands under a name of its own is the shell's too: a name whose
    /// words (server and tool) hold both a shell's word and a verb of running
    /// (`mcp__shell__exec`, `mcp__terminal__run`, `mcp__tools__execute_shell`,
    /// `mcp_bash_run_script`). A model must not step around "never run `terraform destroy`"
    /// through a shell server that no agent ships with.
    pub fn of_call(tool_name: &str) -> Option<ToolFamily> {
        if let Some(family) = ToolFamily::of(tool_name) {
            return Some(family);
        }
        let key = mcp_key(tool_name)?;
        mcp_tool_part(tool_name)
            .as_deref()
            .and_then(ToolFamily::of)
            .or_else(|| {
                key.match_indices('_')
                    .find_map(|(at, _)| ToolFamily::of(&key[at + 1..]))
            })
            .or_else(|| runs_commands(&key).then_some(ToolFamily::Shell))
    }
}

/// Words that name a command shell in an MCP server's or tool's name.
const SHELL_WORDS: &[&str] = &[
    "bash",
    "cmd",
    "command",
    "commands",
    "powershell",
    "pwsh",
    "sh",
    "shell",
    "terminal",
    "zsh",
];

/// Verbs of running something in an MCP tool's name.
const RUN_WORDS: &[&str] = &["exec", "execute", "run", "spawn", "start"];

/// Whether an MCP tool's key (see [`mcp_key`]) names a tool that runs commands: a shell's
/// word and a verb of running among its words.
fn runs_commands(key: &str) -> bool {
    let words = || key.split('_').filter(|word| !word.is_empty());
    words().any(|word| SHELL_WORDS.contains(&word)) && words().any(|word| RUN_WORDS.contains(&word))
}

/// The MCP tool a name calls, whatever the agent's spelling, as one key: `mcp__server__tool`
/// (Claude Code, Codex), `server__tool` (Gemini CLI before 2026) and `mcp_server_tool` (Gemini
/// CLI now) are all `server_tool`, lower-case, with `-` read as `_` and `__` as `_`. A rule said
/// in one agent about an MCP tool holds for the same tool called from another. `None` for a
/// name that names no server: an agent's own tool, or Cursor's bare `MCP:tool`.
pub fn mcp_key(tool_name: &str) -> Option<String> {
    let trimmed = tool_name.trim();
    // Most calls are of an agent's own tool: no work beyond a look at the bytes for them.
    let gemini = trimmed
        .get(..3)
        .is_some_and(|mcp| mcp.eq_ignore_ascii_case("mcp"))
        && matches!(trimmed.as_bytes().get(3), Some(b'_' | b'-'));
    if !gemini && !trimmed.contains("__") {
        return None;
    }
    let name = trimmed.to_lowercase().replace('-', "_");
    let flat = if let Some((server, tool)) = name.rsplit_once("__") {
        let server = server.strip_prefix("mcp__").unwrap_or(server);
        if server.is_empty() || tool.is_empty() {
            return None;
        }
        format!("{server}_{tool}")
    } else {
        // Gemini CLI's form: a server's word and a tool's word at least.
        let rest = name.strip_prefix("mcp_")?;
        let (server, tool) = rest.split_once('_')?;
        if server.is_empty() || tool.is_empty() {
            return None;
        }
        rest.to_owned()
    };
    let mut key = String::with_capacity(flat.len());
    for c in flat.chars() {
        if !(c == '_' && key.ends_with('_')) {
            key.push(c);
        }
    }
    Some(key)
}

/// An MCP tool's own name: what follows the last `__` of `mcp__server__tool` (Claude Code,
/// Codex) or `server__tool` (Gemini CLI when two servers share a name), with `-` read as `_`
/// as servers spell it either way. `None` for a name without a server part.
pub fn mcp_tool_part(tool_name: &str) -> Option<String> {
    let name = tool_name.trim();
    let (server, tool) = name.rsplit_once("__")?;
    let server = server.strip_prefix("mcp__").unwrap_or(server);
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some(tool.to_lowercase().replace('-', "_"))
}

impl fmt::Display for ToolFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tools that run a command line: Claude Code `Bash`, `PowerShell`; Codex `shell`,
/// `shell_command`, `exec_command`, `local_shell`; Gemini CLI `run_shell_command`; Cursor
/// `run_terminal_cmd`; Cline `execute_command`; Windsurf `run_command`; VS Code's agent
/// `run_in_terminal`; Desktop Commander's `start_process`; and the names hosts commonly give
/// their own shell tool. (Tools that only read a running command's output or
/// stop it are not here: they run nothing.)
const SHELL: &[&str] = &[
    "bash",
    "exec_command",
    "execute_command",
    "local_shell",
    "powershell",
    "run_command",
    "run_in_terminal",
    "run_shell_command",
    "run_terminal_cmd",
    "shell",
    "shell_command",
    "start_process",
    "terminal",
];

/// Tools that create, change or delete files: Claude Code `Edit`, `MultiEdit`, `Write`,
/// `NotebookEdit`; Codex and Cline `apply_patch`; Gemini CLI `write_file`, `replace`; Cursor
/// `edit_file`, `search_replace`, `delete_file`, `edit_notebook`, and the names its hooks give
/// them (`preToolUse`'s `Write`, `StrReplace`, `Edit`, `TabWrite`, `Delete`); Cline `write_to_file`, `replace_in_file`; Windsurf
/// `write_to_file`, `replace_file_content`, `edit_file`; VS Code's agent `create_file`,
/// `replace_string_in_file`, `multi_replace_string_in_file`, `insert_edit_into_file`; the MCP
/// filesystem server's `write_file`, `edit_file`, `move_file`, `create_directory`; Desktop
/// Commander's `edit_block`.
const FILE_EDIT: &[&str] = &[
    "apply_patch",
    "create_directory",
    "create_file",
    "delete",
    "delete_file",
    "edit",
    "edit_block",
    "edit_file",
    "edit_notebook",
    "insert_edit_into_file",
    "move_file",
    "multi_replace_string_in_file",
    "multiedit",
    "notebookedit",
    "replace",
    "replace_file_content",
    "replace_in_file",
    "replace_string_in_file",
    "search_replace",
    "strreplace",
    "tabwrite",
    "write",
    "write_file",
    "write_to_file",
];

/// Tools that read, list or search files: Claude Code `Read`, `Glob`, `Grep`, `LS`, and the
/// older `NotebookRead`; Gemini CLI
/// `read_file`, `read_many_files`, `glob`, `grep_search` (`search_file_content` in its current
/// releases), `list_directory`; Cursor `read_file`,
/// `list_dir`, `grep_search`, `grep`, `file_search`, `glob_file_search`, `codebase_search`;
/// Cline `read_file`, `search_files`, `list_files`; Windsurf `view_file`, `grep_search`,
/// `find_by_name`, `list_dir`, `codebase_search`; VS Code's agent `semantic_search`; the MCP
/// filesystem server's `read_text_file`, `read_multiple_files`, `directory_tree`,
/// `get_file_info`.
const FILE_READ: &[&str] = &[
    "codebase_search",
    "directory_tree",
    "file_search",
    "find_by_name",
    "get_file_info",
    "glob",
    "glob_file_search",
    "grep",
    "grep_search",
    "list_dir",
    "list_directory",
    "list_files",
    "ls",
    "notebookread",
    "read",
    "read_file",
    "read_many_files",
    "read_multiple_files",
    "read_text_file",
    "search_file_content",
    "search_files",
    "semantic_search",
    "view_file",
];

/// Tools that fetch a URL or drive a browser: Claude Code `WebFetch`; Gemini CLI and Cline
/// `web_fetch`; Cline `browser_action`; Windsurf `read_url_content`, `open_browser_url`; VS
/// Code's agent `fetch_webpage`; the MCP fetch server's `fetch` and the Playwright server's
/// `browser_navigate`.
const WEB_FETCH: &[&str] = &[
    "browser_action",
    "browser_navigate",
    "fetch",
    "fetch_webpage",
    "open_browser_url",
    "read_url_content",
    "web_fetch",
    "webfetch",
];

/// Tools that search the web: Claude Code `WebSearch`; Gemini CLI `google_web_search`; Codex,
/// Cursor and Cline `web_search`; Windsurf `search_web`.
const WEB_SEARCH: &[&str] = &["google_web_search", "search_web", "web_search", "websearch"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_sorted_unique_and_normalised_and_no_name_is_in_two() {
        let mut seen = std::collections::BTreeSet::new();
        for family in ToolFamily::ALL {
            let members = family.members();
            assert!(
                members.windows(2).all(|pair| pair[0] < pair[1]),
                "{family} is not sorted and unique"
            );
            for name in members {
                assert_eq!(*name, name.trim().to_lowercase(), "{name}");
                assert!(seen.insert(*name), "{name} is in two families");
            }
        }
    }

    #[test]
    fn each_agents_shell_is_one_family() {
        for name in [
            "Bash",
            "run_shell_command",
            "shell",
            "run_terminal_cmd",
            "execute_command",
            "run_command",
            " PowerShell ",
        ] {
            assert_eq!(ToolFamily::of(name), Some(ToolFamily::Shell), "{name}");
        }
        // Each agent's edit tools, and the names Cursor's hooks give its own.
        for name in [
            "Edit",
            "NotebookEdit",
            "edit_notebook",
            "StrReplace",
            "TabWrite",
            "Delete",
        ] {
            assert_eq!(ToolFamily::of(name), Some(ToolFamily::FileEdit), "{name}");
        }
        assert_eq!(ToolFamily::of("WebFetch"), Some(ToolFamily::WebFetch));
        for name in [
            "mcp__github__merge_pull_request",
            "send_email",
            "bashoutput",
            "",
        ] {
            assert_eq!(ToolFamily::of(name), None, "{name}");
        }
    }

    #[test]
    fn an_mcp_tool_is_called_as_the_family_of_its_own_name() {
        for (name, family) in [
            ("mcp__filesystem__write_file", Some(ToolFamily::FileEdit)),
            (
                "mcp__filesystem__read_text_file",
                Some(ToolFamily::FileRead),
            ),
            (
                "mcp__desktop-commander__start_process",
                Some(ToolFamily::Shell),
            ),
            (
                "mcp__desktop-commander__edit-block",
                Some(ToolFamily::FileEdit),
            ),
            ("mcp__fetch__fetch", Some(ToolFamily::WebFetch)),
            ("files__read_file", Some(ToolFamily::FileRead)),
            ("mcp_filesystem_write_file", Some(ToolFamily::FileEdit)),
            (
                "mcp_desktop-commander_start_process",
                Some(ToolFamily::Shell),
            ),
            ("mcp__shell__exec", Some(ToolFamily::Shell)),
            ("mcp__terminal__run", Some(ToolFamily::Shell)),
            ("mcp__tools__execute_shell", Some(ToolFamily::Shell)),
            ("mcp_bash_run_script", Some(ToolFamily::Shell)),
            ("mcp__ssh__exec", None),
            ("mcp__github__run_workflow", None),
            ("mcp__db__execute_sql", None),
            ("mcp__shell__get_history", None),
            ("shell_exec", None),
            ("mcp_github_merge_pull_request", None),
            ("mcp_write_file", None),
            ("Bash", Some(ToolFamily::Shell)),
            ("mcp__github__merge_pull_request", None),
            ("mcp__gmail__send_email", None),
            ("__unscoped__", None),
            ("mcp____", None),
            ("read_file__", None),
        ] {
            assert_eq!(ToolFamily::of_call(name), family, "{name}");
        }
        // Stored rules keep to their tool: the name alone is of no family.
        assert_eq!(ToolFamily::of("mcp__filesystem__write_file"), None);
        assert_eq!(
            mcp_tool_part("mcp__my_server__Read-File"),
            Some("read_file".to_owned())
        );
        assert_eq!(mcp_tool_part("write_file"), None);
    }

    #[test]
    fn each_agents_spelling_of_an_mcp_tool_is_one_key() {
        for name in [
            "mcp__github__merge_pull_request",
            "github__merge_pull_request",
            "mcp_github_merge_pull_request",
            " MCP__GitHub__Merge-Pull-Request ",
        ] {
            assert_eq!(
                mcp_key(name).as_deref(),
                Some("github_merge_pull_request"),
                "{name}"
            );
        }
        for name in [
            "merge_pull_request",
            "MCP:merge_pull_request",
            "mcp_",
            "mcp_github",
            "mcp____",
            "read_file__",
            "Bash",
        ] {
            assert_eq!(mcp_key(name), None, "{name}");
        }
    }
}
