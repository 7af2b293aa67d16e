//! `toolmem install AGENT` and `toolmem uninstall AGENT`: the agent's settings file gets the
//! hook entries that run `toolmem hook AGENT`, and its MCP configuration the `toolmem mcp`
//! server (see `mcp`), or loses exactly those. A toolmem hook entry is a handler whose command
//! runs a program named `toolmem…` with `hook AGENT`; nothing else in the file is touched, and
//! its keys keep their order (`ordered`). Installing twice changes nothing; a changed file is
//! backed up first, to `<file>.toolmem-backup`; `--dry-run` prints the diff and writes nothing.

mod mcp;
mod ordered;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

use crate::hook::Agent;

/// Where the settings go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The user's own settings, for every project (under the home directory).
    User,
    /// This project's settings (under the current directory), shared with its other users.
    Project,
}

/// One hook entry: the agent's event and its matcher, if the event takes one.
struct Entry {
    event: &'static str,
    matcher: Option<&'static str>,
}

/// The settings file of an agent at a scope, relative to the home or project directory.
fn settings_path(agent: Agent, scope: Scope) -> &'static str {
    match (agent, scope) {
        (Agent::ClaudeCode, _) => ".claude/settings.json",
        (Agent::Codex, _) => ".codex/hooks.json",
        (Agent::Gemini, _) => ".gemini/settings.json",
        (Agent::Cursor, _) => ".cursor/hooks.json",
    }
}

/// An entry for `event`, with its matcher.
const fn on(event: &'static str, matcher: &'static str) -> Entry {
    Entry {
        event,
        matcher: Some(matcher),
    }
}

/// An entry for `event`, which takes no matcher.
const fn always(event: &'static str) -> Entry {
    Entry {
        event,
        matcher: None,
    }
}

/// The session events Claude Code and Codex start a session with.
const SESSION_SOURCES: &str = "startup|resume|clear|compact";

/// The tools Cursor's `preToolUse` is installed for: its own edit tools and its web fetch,
/// which no other event of Cursor's checks before they run. Its shell, MCP tools and reads
/// have events of their own, which can ask; `preToolUse` cannot (see `hook/cursor.rs`).
const CURSOR_PRE_TOOL_USE: &str = "Write|StrReplace|Edit|TabWrite|Delete|WebFetch";

/// The events each agent's hook answers (see `hook/`), with their matchers.
fn entries(agent: Agent) -> &'static [Entry] {
    // Claude Code reports a failed call in an event of its own; Codex's hook engine has none
    // (an unknown event name there is not known to be harmless).
    const CLAUDE_CODE: &[Entry] = &[
        on("PreToolUse", "*"),
        on("PostToolUse", "*"),
        on("PostToolUseFailure", "*"),
        always("UserPromptSubmit"),
        on("SessionStart", SESSION_SOURCES),
    ];
    const CODEX: &[Entry] = &[
        on("PreToolUse", "*"),
        on("PostToolUse", "*"),
        always("UserPromptSubmit"),
        on("SessionStart", SESSION_SOURCES),
    ];
    const GEMINI: &[Entry] = &[
        on("BeforeTool", "*"),
        on("AfterTool", "*"),
        always("BeforeAgent"),
        always("SessionStart"),
    ];
    const CURSOR: &[Entry] = &[
        always("beforeShellExecution"),
        always("beforeMCPExecution"),
        // A rule about which files may be read holds for the agent's reads too.
        always("beforeReadFile"),
        on("preToolUse", CURSOR_PRE_TOOL_USE),
        always("afterShellExecution"),
        always("afterMCPExecution"),
        always("afterFileEdit"),
        always("beforeSubmitPrompt"),
        always("sessionStart"),
    ];
    match agent {
        Agent::ClaudeCode => CLAUDE_CODE,
        Agent::Codex => CODEX,
        Agent::Gemini => GEMINI,
        Agent::Cursor => CURSOR,
    }
}

/// The agent's name on toolmem's command line.
fn agent_arg(agent: Agent) -> &'static str {
    match agent {
        Agent::ClaudeCode => "claude-code",
        Agent::Codex => "codex",
        Agent::Gemini => "gemini",
        Agent::Cursor => "cursor",
    }
}

/// Seconds an agent waits for the hook. A check takes milliseconds; 5 s is room for a busy
/// machine, and a hook that times out does not block, so it must not be long either.
const HOOK_TIMEOUT_SECONDS: u64 = 5;

/// The handler object for one entry.
fn handler(agent: Agent, entry: &Entry, command: &str) -> Value {
    match agent {
        Agent::ClaudeCode | Agent::Codex => {
            json!({"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS})
        }
        // Gemini CLI counts its hook timeouts in milliseconds.
        Agent::Gemini => {
            json!({"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS * 1000})
        }
        // Cursor's handlers sit straight under the event, each with its own matcher.
        Agent::Cursor => match entry.matcher {
            Some(matcher) => json!({"command": command, "matcher": matcher}),
            None => json!({"command": command}),
        },
    }
}

/// Whether a handler is one toolmem installed for `agent`: its command runs a program whose
/// name starts with `toolmem` with `hook AGENT`.
fn is_ours(handler: &Value, agent: Agent) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else {
        return false;
    };
    let command = command.trim_start();
    // The program is the first shell word: quoted when its path has a space in it.
    let (program, rest) = match command.chars().next() {
        Some(quote @ ('\'' | '"')) => match command[1..].find(quote) {
            Some(end) => (&command[1..=end], &command[end + 2..]),
            None => return false,
        },
        _ => command
            .split_once(char::is_whitespace)
            .unwrap_or((command, "")),
    };
    let name = Path::new(program)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_default();
    let words: Vec<&str> = rest.split_whitespace().collect();
    // `toolmem`, `toolmem.exe`, and the test suite's `toolmem_e2e`.
    name.starts_with("toolmem")
        && words
            .windows(2)
            .any(|pair| pair[0] == "hook" && pair[1] == agent_arg(agent))
}

/// What `install` or `uninstall` did.
#[derive(Debug)]
pub(crate) struct Change {
    pub(crate) before: Option<String>,
    pub(crate) after: Option<String>,
}

impl Change {
    pub(crate) fn changed(&self) -> bool {
        self.before != self.after
    }
}

/// The settings file for `agent` at `scope`, under `home` (user) or `project`.
pub(crate) fn settings_file(agent: Agent, scope: Scope, home: &Path, project: &Path) -> PathBuf {
    let base = match scope {
        Scope::User => home,
        Scope::Project => project,
    };
    base.join(settings_path(agent, scope))
}

/// The command line the agent runs: this very program, with the database it was given.
pub(crate) fn hook_command(program: &Path, db: Option<&Path>, agent: Agent) -> String {
    let mut command = shell_word(&program.to_string_lossy());
    if let Some(db) = db {
        command.push_str(" --db ");
        command.push_str(&shell_word(&db.to_string_lossy()));
    }
    command.push_str(" hook ");
    command.push_str(agent_arg(agent));
    command
}

fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./=:,+@%~".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Reads a file; `None` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("reading {}", path.display())),
    }
}

/// Reads a settings file; `None` when it does not exist.
fn read(path: &Path) -> Result<Option<(String, Value)>> {
    let Some(text) = read_text(path)? else {
        return Ok(None);
    };
    if text.trim().is_empty() {
        return Ok(Some((text, Value::Object(Map::new()))));
    }
    let value: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not JSON; fix or move it first", path.display()))?;
    if !value.is_object() {
        bail!("{} does not hold a JSON object", path.display());
    }
    Ok(Some((text, value)))
}

/// Adds toolmem's hook entries for `agent` to the settings at `path` (replacing an older
/// toolmem entry of the same event, say with another program path), and the MCP server entry
/// `mcp` when the agent keeps its servers in the same file; writes unless `dry_run`.
pub(crate) fn install(
    path: &Path,
    agent: Agent,
    command: &str,
    mcp: Option<Value>,
    dry_run: bool,
) -> Result<Change> {
    let existing = read(path)?;
    let mut settings = existing
        .as_ref()
        .map_or_else(|| Value::Object(Map::new()), |(_, value)| value.clone());
    if let Some(entry) = mcp {
        mcp::add_json(&mut settings, entry, path)?;
    }
    let hooks = object_field(&mut settings, "hooks", path)?;
    for entry in entries(agent) {
        let groups = hooks
            .entry(entry.event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            bail!(
                "`hooks.{}` in {} is not an array",
                entry.event,
                path.display()
            );
        };
        let wanted = handler(agent, entry, command);
        if agent == Agent::Cursor {
            // Cursor lists handlers straight under the event.
            place(groups, agent, wanted);
        } else {
            let group = groups.iter_mut().find(|group| {
                group.get("matcher").and_then(Value::as_str) == entry.matcher
                    && group.get("hooks").is_some_and(Value::is_array)
            });
            let group = match group {
                Some(group) => group,
                None => {
                    let mut group = Map::new();
                    if let Some(matcher) = entry.matcher {
                        group.insert("matcher".into(), matcher.into());
                    }
                    group.insert("hooks".into(), Value::Array(Vec::new()));
                    groups.push(Value::Object(group));
                    groups.last_mut().expect("just pushed")
                }
            };
            if let Some(Value::Array(handlers)) = group.get_mut("hooks") {
                place(handlers, agent, wanted);
            }
        }
    }
    if agent == Agent::Cursor {
        settings
            .as_object_mut()
            .expect("an object")
            .entry("version")
            .or_insert(json!(1));
    }
    finish(path, existing.map(|(text, _)| text), &settings, dry_run)
}

/// Puts `wanted` into `handlers`: kept if there, replacing an older toolmem handler otherwise.
fn place(handlers: &mut Vec<Value>, agent: Agent, wanted: Value) {
    if handlers.contains(&wanted) {
        return;
    }
    match handlers.iter_mut().find(|handler| is_ours(handler, agent)) {
        Some(older) => *older = wanted,
        None => handlers.push(wanted),
    }
}

/// Removes every toolmem hook entry for `agent` from the settings at `path`, and the groups,
/// events and `hooks` object that only held them, and toolmem's MCP server entry when `mcp`
/// (the agent keeps its servers in the same file); writes unless `dry_run`.
pub(crate) fn uninstall(path: &Path, agent: Agent, mcp: bool, dry_run: bool) -> Result<Change> {
    let Some((text, mut settings)) = read(path)? else {
        return Ok(unchanged(None));
    };
    let removed_server = mcp && mcp::remove_json(&mut settings);
    if !(remove_hooks(&mut settings, agent) || removed_server) {
        return Ok(unchanged(Some(text)));
    }
    let left = settings.as_object().expect("an object");
    let only_ours = left.is_empty()
        || (agent == Agent::Cursor && left.len() == 1 && left.get("version") == Some(&json!(1)));
    finish_removal(path, text, &settings, only_ours, dry_run)
}

fn unchanged(text: Option<String>) -> Change {
    Change {
        before: text.clone(),
        after: text,
    }
}

/// Removes toolmem's hook handlers for `agent`, and what only held them; whether it did.
fn remove_hooks(settings: &mut Value, agent: Agent) -> bool {
    let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
        return false;
    };
    let mut removed_any = false;
    hooks.retain(|_, groups| {
        let Value::Array(groups) = groups else {
            return true;
        };
        let before = groups.len();
        let mut emptied = false;
        // Cursor's handlers sit straight under the event; the others' inside matcher groups.
        groups.retain_mut(|group| {
            if is_ours(group, agent) {
                return false;
            }
            if let Some(Value::Array(handlers)) = group.get_mut("hooks") {
                let count = handlers.len();
                handlers.retain(|handler| !is_ours(handler, agent));
                if handlers.len() != count {
                    emptied |= handlers.is_empty();
                    return !handlers.is_empty();
                }
            }
            true
        });
        let removed = groups.len() != before || emptied;
        removed_any |= removed;
        !(removed && groups.is_empty())
    });
    if removed_any && hooks.is_empty() {
        settings.as_object_mut().expect("an object").remove("hooks");
    }
    removed_any
}

/// Writes what is left of a settings file after a removal; when that is only what install
/// created (`only_ours`), the file goes instead (its backup stays).
fn finish_removal(
    path: &Path,
    text: String,
    settings: &Value,
    only_ours: bool,
    dry_run: bool,
) -> Result<Change> {
    if !only_ours {
        return finish(path, Some(text), settings, dry_run);
    }
    if !dry_run {
        std::fs::write(backup_path(path), &text)
            .with_context(|| format!("writing the backup {}", backup_path(path).display()))?;
        std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
    }
    Ok(Change {
        before: Some(text),
        after: None,
    })
}

/// Adds the `toolmem mcp` server entry to a JSON MCP configuration of its own (Claude Code's
/// `.mcp.json` or `~/.claude.json`, Cursor's `mcp.json`); writes unless `dry_run`.
pub(crate) fn install_mcp_json(path: &Path, entry: Value, dry_run: bool) -> Result<Change> {
    let existing = read(path)?;
    let mut settings = existing
        .as_ref()
        .map_or_else(|| Value::Object(Map::new()), |(_, value)| value.clone());
    mcp::add_json(&mut settings, entry, path)?;
    finish(path, existing.map(|(text, _)| text), &settings, dry_run)
}

/// Removes toolmem's server entry from a JSON MCP configuration; writes unless `dry_run`.
pub(crate) fn uninstall_mcp_json(path: &Path, dry_run: bool) -> Result<Change> {
    let Some((text, mut settings)) = read(path)? else {
        return Ok(unchanged(None));
    };
    if !mcp::remove_json(&mut settings) {
        return Ok(unchanged(Some(text)));
    }
    let only_ours = settings.as_object().is_some_and(Map::is_empty);
    finish_removal(path, text, &settings, only_ours, dry_run)
}

/// Adds the `[mcp_servers.toolmem]` table to Codex's config.toml; writes unless `dry_run`.
pub(crate) fn install_mcp_toml(path: &Path, table: &str, dry_run: bool) -> Result<Change> {
    let before = read_text(path)?;
    let after = mcp::add_toml(before.as_deref().unwrap_or_default(), table, path)?;
    finish_text(path, before, after, dry_run)
}

/// Removes toolmem's table from Codex's config.toml (the file too when nothing else is left).
pub(crate) fn uninstall_mcp_toml(path: &Path, dry_run: bool) -> Result<Change> {
    let Some(text) = read_text(path)? else {
        return Ok(unchanged(None));
    };
    let Some(after) = mcp::remove_toml(&text) else {
        return Ok(unchanged(Some(text)));
    };
    if after.trim().is_empty() {
        return finish_removal(path, text, &Value::Null, true, dry_run);
    }
    finish_text(path, Some(text), after, dry_run)
}

/// The program and database that `toolmem install` writes into the agent's settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup<'a> {
    /// This very program.
    pub(crate) program: &'a Path,
    /// An absolute SQLite path, or none for the default database.
    pub(crate) db: Option<&'a Path>,
}

/// `toolmem install` (with a `setup`) or `uninstall` (without) for `agent`: the hooks in
/// `settings` and the MCP server in `mcp_config`, which may be the same file. Every change is
/// worked out before any is written, so a refusal in one file leaves both untouched.
pub(crate) fn apply(
    agent: Agent,
    settings: &Path,
    mcp_config: &Path,
    setup: Option<Setup<'_>>,
    dry_run: bool,
) -> Result<Vec<(PathBuf, Change)>> {
    let one_file = settings == mcp_config;
    let run = |dry_run: bool| -> Result<Vec<(PathBuf, Change)>> {
        let mut changes = Vec::new();
        match setup {
            Some(Setup { program, db }) => {
                let command = hook_command(program, db, agent);
                let entry = mcp::json_entry(agent, program, db);
                let shared = one_file.then(|| entry.clone());
                changes.push(install(settings, agent, &command, shared, dry_run)?);
                if !one_file {
                    changes.push(if agent == Agent::Codex {
                        install_mcp_toml(mcp_config, &mcp::toml_table(program, db), dry_run)?
                    } else {
                        install_mcp_json(mcp_config, entry, dry_run)?
                    });
                }
            }
            None => {
                changes.push(uninstall(settings, agent, one_file, dry_run)?);
                if !one_file {
                    changes.push(if agent == Agent::Codex {
                        uninstall_mcp_toml(mcp_config, dry_run)?
                    } else {
                        uninstall_mcp_json(mcp_config, dry_run)?
                    });
                }
            }
        }
        let paths = [settings, mcp_config].into_iter().map(Path::to_path_buf);
        Ok(paths.zip(changes).collect())
    };
    let planned = run(true)?;
    if dry_run || planned.iter().all(|(_, change)| !change.changed()) {
        return Ok(planned);
    }
    run(false)
}

/// The MCP configuration file for `agent` at `scope`, under `home` (user) or `project`.
pub(crate) fn mcp_file(agent: Agent, scope: Scope, home: &Path, project: &Path) -> PathBuf {
    let base = match scope {
        Scope::User => home,
        Scope::Project => project,
    };
    base.join(mcp::config_path(agent, scope))
}

/// The field `key` of `settings` as an object, created when missing.
fn object_field<'a>(
    settings: &'a mut Value,
    key: &str,
    path: &Path,
) -> Result<&'a mut Map<String, Value>> {
    let object = settings.as_object_mut().expect("settings are an object");
    match object
        .entry(key)
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(map) => Ok(map),
        _ => bail!("`{key}` in {} is not an object", path.display()),
    }
}

/// Writes `settings` unless nothing changed or it is a dry run, backing up the old file.
fn finish(path: &Path, before: Option<String>, settings: &Value, dry_run: bool) -> Result<Change> {
    let original = before
        .as_deref()
        .and_then(|text| serde_json::from_str::<ordered::Ordered>(text).ok());
    let mut after = ordered::render(settings, original.as_ref());
    // Unchanged content keeps its own bytes: a second run writes nothing.
    if let Some(before) = &before
        && serde_json::from_str::<Value>(before).ok().as_ref() == Some(settings)
    {
        after.clone_from(before);
    }
    finish_text(path, before, after, dry_run)
}

/// Writes `after` unless it is `before` or this is a dry run, backing up the old file.
fn finish_text(
    path: &Path,
    before: Option<String>,
    after: String,
    dry_run: bool,
) -> Result<Change> {
    let change = Change {
        before,
        after: Some(after),
    };
    if dry_run || !change.changed() {
        return Ok(change);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    if let Some(before) = &change.before {
        let backup = backup_path(path);
        std::fs::write(&backup, before)
            .with_context(|| format!("writing the backup {}", backup.display()))?;
    }
    // Written beside it and renamed over it, so the agent never reads half a file.
    let temporary = path.with_extension("toolmem-new");
    std::fs::write(&temporary, change.after.as_deref().unwrap_or_default())
        .with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(change)
}

/// Where a settings file's previous content is kept.
pub(crate) fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".toolmem-backup");
    path.with_file_name(name)
}

/// A line diff of two texts, `-` and `+` before changed lines, two lines of context.
pub(crate) fn diff(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    // Longest common subsequence, from the end; settings files are small.
    let mut common = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            common[i][j] = if old[i] == new[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let mut lines: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            lines.push((' ', old[i]));
            i += 1;
            j += 1;
        } else if j < new.len() && (i == old.len() || common[i][j + 1] > common[i + 1][j]) {
            lines.push(('+', new[j]));
            j += 1;
        } else {
            lines.push(('-', old[i]));
            i += 1;
        }
    }
    const CONTEXT: usize = 2;
    let near_change = |at: usize| {
        let from = at.saturating_sub(CONTEXT);
        let to = (at + CONTEXT + 1).min(lines.len());
        lines[from..to].iter().any(|(mark, _)| *mark != ' ')
    };
    let mut out = String::new();
    let mut skipped = false;
    for (at, (mark, line)) in lines.iter().enumerate() {
        if near_change(at) {
            if skipped {
                out.push_str("  ...\n");
                skipped = false;
            }
            out.push(*mark);
            out.push(' ');
            out.push_str(line);
            out.push('\n');
        } else {
            skipped = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_its_own_handlers_only() {
        let ours =
            json!({"type": "command", "command": "/home/u/.cargo/bin/toolmem hook claude-code"});
        assert!(is_ours(&ours, Agent::ClaudeCode));
        assert!(!is_ours(&ours, Agent::Codex));
        let quoted = json!({"command": "'/opt/my tools/toolmem' --db /x hook cursor"});
        assert!(
            is_ours(&quoted, Agent::Cursor),
            "a quoted path with a space"
        );
        let with_db = json!({"command": "toolmem --db /x/rules.sqlite3 hook cursor"});
        assert!(is_ours(&with_db, Agent::Cursor));
        let other = json!({"command": "python3 guard.py hook claude-code"});
        assert!(!is_ours(&other, Agent::ClaudeCode));
    }

    #[test]
    fn diff_marks_changed_lines() {
        let diff = diff("a\nb\nc\n", "a\nB\nc\nd\n");
        assert_eq!(diff, "  a\n- b\n+ B\n  c\n+ d\n");
    }
}
