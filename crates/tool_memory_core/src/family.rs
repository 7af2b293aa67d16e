//! Tool families: what a tool does, whatever an agent calls it. Claude Code's shell is `Bash`,
//! Gemini CLI's `run_shell_command`, Codex's `shell`, Cursor's `run_terminal_cmd`, Cline's
//! `execute_command`, Windsurf's `run_command`; a rule said about one of them is about all of
//! them, so a user's rules follow them from agent to agent.
//!
//! The table is data: one list per family, sorted, one normalised (lower-case) tool name per
//! line, from each agent's own documentation or source (`tests/fixtures/catalogues/` records
//! where each name comes from). Only an agent's built-in tools are listed. A tool of an MCP
//! server (`mcp__server__tool`) or a host's own tool has no family: a rule on it stays on it.

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
}

impl fmt::Display for ToolFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tools that run a command line: Claude Code `Bash`, `PowerShell`; Codex `shell`,
/// `shell_command`, `exec_command`, `local_shell`; Gemini CLI `run_shell_command`; Cursor
/// `run_terminal_cmd`; Cline `execute_command`; Windsurf `run_command`; and the names hosts
/// commonly give their own shell tool. (Tools that only read a running command's output or
/// stop it are not here: they run nothing.)
const SHELL: &[&str] = &[
    "bash",
    "exec_command",
    "execute_command",
    "local_shell",
    "powershell",
    "run_command",
    "run_shell_command",
    "run_terminal_cmd",
    "shell",
    "shell_command",
    "terminal",
];

/// Tools that create, change or delete files: Claude Code `Edit`, `MultiEdit`, `Write`; Codex
/// and Cline `apply_patch`; Gemini CLI `write_file`, `replace`; Cursor `edit_file`,
/// `search_replace`, `delete_file`; Cline `write_to_file`, `replace_in_file`; Windsurf
/// `write_to_file`, `replace_file_content`, `edit_file`.
const FILE_EDIT: &[&str] = &[
    "apply_patch",
    "delete_file",
    "edit",
    "edit_file",
    "multiedit",
    "replace",
    "replace_file_content",
    "replace_in_file",
    "search_replace",
    "write",
    "write_file",
    "write_to_file",
];

/// Tools that read, list or search files: Claude Code `Read`, `Glob`, `Grep`, `LS`; Gemini CLI
/// `read_file`, `read_many_files`, `glob`, `grep_search`, `list_directory`; Cursor `read_file`,
/// `list_dir`, `grep_search`, `grep`, `file_search`, `glob_file_search`, `codebase_search`;
/// Cline `read_file`, `search_files`, `list_files`; Windsurf `view_file`, `grep_search`,
/// `find_by_name`, `list_dir`, `codebase_search`.
const FILE_READ: &[&str] = &[
    "codebase_search",
    "file_search",
    "find_by_name",
    "glob",
    "glob_file_search",
    "grep",
    "grep_search",
    "list_dir",
    "list_directory",
    "list_files",
    "ls",
    "read",
    "read_file",
    "read_many_files",
    "search_files",
    "view_file",
];

/// Tools that fetch a URL or drive a browser: Claude Code `WebFetch`; Gemini CLI and Cline
/// `web_fetch`; Cline `browser_action`; Windsurf `read_url_content`, `open_browser_url`.
const WEB_FETCH: &[&str] = &[
    "browser_action",
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
        assert_eq!(ToolFamily::of("Edit"), Some(ToolFamily::FileEdit));
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
}
